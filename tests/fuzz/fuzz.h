/*
 * tests/fuzz/fuzz.h: what the fuzz harnesses share. Each harness defines
 * LLVMFuzzerTestOneInput (and optionally LLVMFuzzerInitialize); it is linked either with
 * libFuzzer (build-fuzz/, `make fuzz`) or with replay_main.c, which runs it over every file of
 * the directories named on its command line (CTest label `fuzz`: corpus/ and regress/).
 * A harness must never crash, leak or trip a sanitizer on any input: every parser and reader
 * turns bad input into a status code.
 */
#ifndef FO_FUZZ_H
#define FO_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

/* A private directory for this process (under /dev/shm when present, else $TMPDIR or /tmp),
 * created on first use and removed at exit (kept, and named on stderr, with FO_FUZZ_KEEP set;
 * FO_FUZZ_TMPDIR picks the base). */
const char *fz_tmpdir(void);
/* "<fz_tmpdir()>/<name>" in a static buffer per slot (0..7). */
const char *fz_path(int slot, const char *name);
/* Replace the file at `path` by `data[n]` (created 0644). Aborts on I/O failure (a harness
 * problem, not a finding). */
void fz_write(const char *path, const void *data, size_t n);
/* A memfd (reused across calls for the same `slot`, 0..7) holding `data[n]`, and a path that
 * opens it ("/proc/self/fd/N"). */
const char *fz_memfile(int slot, const void *data, size_t n);
/* Remove `path` recursively (a file or a directory tree); no error if absent. */
void fz_rm_rf(const char *path);
/* Copy the tree `src` to `dst` (dst must not exist): directories are created, files are
 * hard-linked when `link` (cheap; a mutation must then replace, not modify, a file), else
 * copied. */
void fz_copy_tree(const char *src, const char *dst, bool link);
/* Read the file at `path` into a malloc'd buffer (NUL-terminated); NULL if absent. */
unsigned char *fz_read(const char *path, size_t *n);
/* Abort with a message (harness set-up failure). */
void fz_die(const char *what, const char *detail);

/* Input cursor: bytes taken from the front of the fuzz input. */
typedef struct fz_in {
  const uint8_t *p;
  size_t n;
} fz_in;
static inline uint8_t fz_u8(fz_in *in) {
  if (!in->n) return 0;
  in->n--;
  return *in->p++;
}
static inline uint32_t fz_u32(fz_in *in) {
  uint32_t v = 0;
  for (int i = 0; i < 4; i++) v |= (uint32_t)fz_u8(in) << (8 * i);
  return v;
}
static inline uint64_t fz_u64(fz_in *in) {
  uint64_t v = 0;
  for (int i = 0; i < 8; i++) v |= (uint64_t)fz_u8(in) << (8 * i);
  return v;
}

#endif
