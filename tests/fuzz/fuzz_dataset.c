/*
 * Harness "dataset": mutates the files (arrays and manifests) of small real datasets (fixture.h:
 * Cora single, 2-part hash and 3-part range partitions, Cora with edge weights and alias tables,
 * Cora as a typed dataset) and runs every reader on the result (readers.c). Input:
 *   byte 0: fixture (mod FZ_N_FIXTURES); bytes 1-2: reader flags (load mode, sampler options
 *   with bit 9 weighted, loader options, partition method; bit 15: recompute the manifests'
 *   xxh64 after mutating, so that verify looks past the hashes);
 *   then records {file u8, op u8, offset u32 LE, len u8, bytes[len]} on the fixture's files
 *   (sorted relative paths, index mod their number):
 *     op 0: XOR bytes at offset (mod size); 1: overwrite at offset; 2: truncate to offset
 *     (mod size + 1); 3: append bytes; 4: replace the offset-th (mod count) integer in the
 *     file's text (a manifest's shapes, counts, bounds) by the int64 in the bytes (LE, 8).
 * Unmutated files are hard links to the fixture (readers map them read-only).
 * Promise: no reader crashes, hangs or trips a sanitizer on any dataset; a failure is a
 * status with a message.
 */
#include "fixture.h"
#include "fuzz.h"

#include <dirent.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_FILES 64

static char *g_files[FZ_N_FIXTURES][MAX_FILES];
static int g_nfiles[FZ_N_FIXTURES];

static void list(int k, const char *root, const char *rel) {
  char dir[1024];
  struct dirent **ents;
  int n;
  snprintf(dir, sizeof dir, "%s%s%s", root, *rel ? "/" : "", rel);
  if ((n = scandir(dir, &ents, NULL, alphasort)) < 0) fz_die("scandir", dir);
  for (int i = 0; i < n; i++) {
    char r[1024], full[2048];
    struct stat st;
    if (ents[i]->d_name[0] != '.') {
      snprintf(r, sizeof r, "%s%s%s", rel, *rel ? "/" : "", ents[i]->d_name);
      snprintf(full, sizeof full, "%s/%s", root, r);
      if (stat(full, &st) == 0 && S_ISDIR(st.st_mode)) list(k, root, r);
      else if (g_nfiles[k] < MAX_FILES) g_files[k][g_nfiles[k]++] = strdup(r);
    }
    free(ents[i]);
  }
  free(ents);
}

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc;
  (void)argv;
  for (int k = 0; k < FZ_N_FIXTURES; k++) list(k, fz_fixture(k), "");
  return 0;
}

typedef struct buf {
  unsigned char *p;
  size_t n;
} buf;

static void replace_int(buf *b, uint32_t which, int64_t v) {
  /* integers: maximal runs of digits (with a leading '-') not inside a quoted string */
  size_t count = 0, i, start = 0, end = 0;
  bool in_str = false;
  for (int pass = 0; pass < 2; pass++) {
    size_t seen = 0;
    in_str = false;
    for (i = 0; i < b->n; i++) {
      unsigned char c = b->p[i];
      if (c == '"') in_str = !in_str;
      if (in_str || !((c >= '0' && c <= '9') || c == '-')) continue;
      size_t j = i;
      while (j < b->n && ((b->p[j] >= '0' && b->p[j] <= '9') || b->p[j] == '-')) j++;
      if (pass == 1 && seen == which % count) {
        start = i;
        end = j;
        break;
      }
      seen++;
      i = j - 1;
    }
    if (pass == 0) {
      count = seen;
      if (!count) return;
    }
  }
  {
    char num[32];
    int k = snprintf(num, sizeof num, "%" PRId64, v);
    unsigned char *q = malloc(b->n - (end - start) + (size_t)k + 1);
    memcpy(q, b->p, start);
    memcpy(q + start, num, (size_t)k);
    memcpy(q + start + k, b->p + end, b->n - end);
    b->n = b->n - (end - start) + (size_t)k;
    free(b->p);
    b->p = q;
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static bool init;
  fz_in in = {data, size};
  int k;
  unsigned flags;
  buf files[MAX_FILES];
  bool touched[MAX_FILES] = {false};
  const char *work = fz_path(6, "work");
  if (!init) { /* the replay main calls LLVMFuzzerInitialize too; libFuzzer always does */
    init = true;
    if (!g_nfiles[0]) LLVMFuzzerInitialize(NULL, NULL);
  }
  k = fz_u8(&in) % FZ_N_FIXTURES;
  flags = fz_u8(&in);
  flags |= (unsigned)fz_u8(&in) << 8;
  memset(files, 0, sizeof files);
  while (in.n >= 7) {
    int f = fz_u8(&in) % g_nfiles[k];
    int op = fz_u8(&in) % 5;
    uint32_t off = fz_u32(&in);
    size_t len = fz_u8(&in);
    const uint8_t *bytes = in.p;
    buf *b = &files[f];
    if (len > in.n) len = in.n;
    in.p += len;
    in.n -= len;
    if (!touched[f]) {
      char p[2048];
      snprintf(p, sizeof p, "%s/%s", fz_fixture(k), g_files[k][f]);
      if (!(b->p = fz_read(p, &b->n))) fz_die("read", p);
      touched[f] = true;
    }
    switch (op) {
    case 0:
      for (size_t i = 0; i < len && b->n; i++) b->p[((size_t)off + i) % b->n] ^= bytes[i];
      break;
    case 1:
      if (b->n) {
        size_t at = off % b->n;
        for (size_t i = 0; i < len && at + i < b->n; i++) b->p[at + i] = bytes[i];
      }
      break;
    case 2: b->n = off % (b->n + 1); break;
    case 3:
      b->p = realloc(b->p, b->n + len + 1);
      memcpy(b->p + b->n, bytes, len);
      b->n += len;
      break;
    case 4: {
      int64_t v = 0;
      memcpy(&v, bytes, len < 8 ? len : 8);
      if (len < 8 && len) v = (int64_t)((uint64_t)v << (64 - 8 * len)) >> (64 - 8 * len); /* sign-extend */
      replace_int(b, off, v);
      break;
    }
    }
  }
  fz_rm_rf(work);
  fz_copy_tree(fz_fixture(k), work, true);
  for (int f = 0; f < g_nfiles[k]; f++) {
    if (!touched[f]) continue;
    char p[2048];
    snprintf(p, sizeof p, "%s/%s", work, g_files[k][f]);
    unlink(p);
    fz_write(p, files[f].p, files[f].n);
    free(files[f].p);
  }
  if (flags & 0x8000) fz_rehash(work);
  fz_run_readers(work, flags);
  return 0;
}
