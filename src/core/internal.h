/*
 * core/internal.h: fo__ helpers shared by all modules (errors, logging, memory, time, files).
 * Not installed; the CLI and front ends never include it.
 */
#ifndef FO_CORE_INTERNAL_H
#define FO_CORE_INTERNAL_H

#include <fanout/fanout.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FO_PRINTF(a, b) __attribute__((format(printf, a, b)))
#define FO_LIKELY(x) __builtin_expect(!!(x), 1)
#define FO_UNLIKELY(x) __builtin_expect(!!(x), 0)

/* ---- errors (error.c) ---------------------------------------------------------------------- */

/* Set this thread's message from fmt and return rc. file/line are kept for debug logs. */
int fo__fail(int rc, const char *file, int line, const char *fmt, ...) FO_PRINTF(4, 5);
/* Prepend "<fmt>: " to this thread's message and return rc (rc passes through unchanged). */
int fo__context(int rc, const char *fmt, ...) FO_PRINTF(2, 3);
#define FO_FAIL(rc, ...) fo__fail((rc), __FILE__, __LINE__, __VA_ARGS__)
/* Fail with FO_EIO and ": <strerror(errno)>" appended. */
int fo__fail_errno(const char *file, int line, const char *fmt, ...) FO_PRINTF(3, 4);
#define FO_FAIL_ERRNO(...) fo__fail_errno(__FILE__, __LINE__, __VA_ARGS__)

/* ---- logging (log.c) ----------------------------------------------------------------------- */

extern int fo__log_level; /* -1 until FO_LOG_LEVEL was read */
void fo__log(fo_log_level level, const char *file, int line, const char *fmt, ...) FO_PRINTF(4, 5);
int fo__log_level_init(void);
#define FO_LOG(level, ...)                                                                    \
  do {                                                                                        \
    int fo_lv_ = __atomic_load_n(&fo__log_level, __ATOMIC_RELAXED);                          \
    if (fo_lv_ < 0) fo_lv_ = fo__log_level_init();                                            \
    if ((int)(level) <= fo_lv_) fo__log((level), __FILE__, __LINE__, __VA_ARGS__);            \
  } while (0)

/* ---- memory (util.c) ----------------------------------------------------------------------- */

/* Grow *p (elements of `elem` bytes, capacity *cap) to hold at least `need` elements, at least
 * doubling. On failure *p and *cap are unchanged and FO_ENOMEM is set naming `what`. */
int fo__grow(void *p, int64_t *cap, int64_t need, size_t elem, const char *what);
/* malloc(n * elem) with overflow check; NULL (and no message) on failure. n may be 0. */
void *fo__malloc_n(int64_t n, size_t elem);
void *fo__calloc_n(int64_t n, size_t elem);
char *fo__strdup(const char *s);
/* Refuse, before allocating, what the machine cannot hold: FO_ENOMEM "<what> needs N bytes
 * (X GiB), the machine has Y GiB available" when `bytes` exceeds MemAvailable + SwapFree of
 * /proc/meminfo (or, without /proc, the physical pages sysconf reports). Linux overcommits, so
 * an allocation past that size succeeds and the kernel's OOM killer ends the process when the
 * pages are touched; this check makes it an error instead. FO_OK when the size fits or cannot
 * be judged. Cost: reads /proc/meminfo when bytes >= 64 MiB, else nothing. */
int fo__mem_check(uint64_t bytes, const char *what);

/* ---- time, files (util.c) ------------------------------------------------------------------ */

uint64_t fo__now_ns(void); /* CLOCK_MONOTONIC */
/* Recursively remove `path` (a file or directory tree); missing is fine. FO_EIO on failure. */
int fo__remove_tree(const char *path);
/* fsync a path (file or directory). FO_EIO on failure. */
int fo__fsync_path(const char *path);
/* XXH64 with seed 0. */
uint64_t fo__xxh64(const void *data, size_t len);

/* ---- progress bar (progress.c) ------------------------------------------------------------- */

typedef struct fo__progress {
  bool active;
  const char *label;
  const char *unit;   /* NULL: `done`/`total` are bytes (MiB, MiB/s); else items ("parts") */
  uint64_t total, start_ns, last_ns;
  struct fo__spinner *spin; /* set while fo__progress_spin runs */
} fo__progress;

/* Start a bar on stderr if `enabled` and stderr is a terminal; `total` in bytes (0 = unknown).
 * Starting again replaces the bar (end a spinner first: fo__progress_end). */
void fo__progress_start(fo__progress *p, bool enabled, const char *label, uint64_t total);
/* The same with `total` counted in `unit`s ("parts", "edges"). */
void fo__progress_start_items(fo__progress *p, bool enabled, const char *label, uint64_t total,
                              const char *unit);
/* Redraw at most 10 times a second. */
void fo__progress_update(fo__progress *p, uint64_t done);
/* A phase that reports nothing while it runs (METIS): a thread redraws "label  <spinner>
 * <seconds>" 10 times a second until fo__progress_end. Does nothing when not drawing (or if
 * the thread cannot start). */
void fo__progress_spin(fo__progress *p, bool enabled, const char *label);
/* Stop the spinner, erase the bar. */
void fo__progress_end(fo__progress *p);

#endif
