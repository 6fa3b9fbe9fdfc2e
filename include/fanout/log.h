/*
 * fanout/log.h: leveled logging to stderr or to a handler of the caller's.
 *
 * The default level is FO_LOG_WARN; the environment variable FO_LOG_LEVEL
 * (error|warn|info|debug) is read once, at the first log call. Errors are returned, not
 * logged; logging is for progress and diagnostics. Lines look like
 *   "fo[w2] D sampler.c:118 hop 1: frontier=1024 sampled=15360".
 */
#ifndef FANOUT_LOG_H
#define FANOUT_LOG_H

#include "common.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum fo_log_level {
  FO_LOG_ERROR = 0,
  FO_LOG_WARN = 1,
  FO_LOG_INFO = 2,
  FO_LOG_DEBUG = 3
} fo_log_level;

/**
 * A log sink. `line` is the formatted message without a trailing newline, valid only during
 * the call; `file`/`lineno` locate the call site. Called from whichever thread logs, so the
 * handler must be thread-safe.
 */
typedef void (*fo_log_handler)(fo_log_level level, const char *file, int lineno,
                               const char *line, void *userdata);

/**
 * Route log lines to `fn(userdata)`; NULL restores the default (stderr).
 * Thread-safety: call before other threads log (it is a plain store). Cost: O(1).
 */
FO_API void fo_log_set_handler(fo_log_handler fn, void *userdata);

/** Set the maximum level that is formatted and emitted. Thread-safety: as above. Cost: O(1). */
FO_API void fo_log_set_level(fo_log_level level);

/** The current maximum level (after reading FO_LOG_LEVEL once). Thread-safety: any thread. */
FO_API fo_log_level fo_log_get_level(void);

#ifdef __cplusplus
}
#endif
#endif
