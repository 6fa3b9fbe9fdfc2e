/*
 * fanout/error.h: status codes and the thread-local error message.
 *
 * Every fallible function returns an int status: FO_OK (0) or one of the negative codes below.
 * On failure it also sets a message for the calling thread that names the bad value, file or
 * option, with one context phrase per level, outermost first, e.g.
 *   "open dataset 'g.fanout': csc_indices.npy: file has 96 bytes, header says 128".
 */
#ifndef FANOUT_ERROR_H
#define FANOUT_ERROR_H

#include "common.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum fo_status {
  FO_OK = 0,           /**< success */
  FO_EINVAL = -1,      /**< bad argument or option (the message names it) */
  FO_ENOMEM = -2,      /**< out of memory */
  FO_EIO = -3,         /**< operating-system I/O error (the message has strerror) */
  FO_EFORMAT = -4,     /**< malformed input file or corrupt dataset (names file, position) */
  FO_ERANGE = -5,      /**< value out of range (node id, count overflow) */
  FO_EMPI = -6,        /**< MPI error */
  FO_ENOSYS = -7,      /**< not supported in this build or on this system */
  FO_ECANCELED = -8,   /**< stopped on request (signal, cancel flag) */
  FO_EINTERNAL = -9    /**< a broken internal invariant: a bug, please report */
} fo_status;

/**
 * Name of a status code, e.g. "FO_EINVAL"; "FO_E?" for an unknown code.
 * Returns a static string. Thread-safety: any thread. Cost: O(1).
 */
FO_API const char *fo_status_name(int rc);

/**
 * The calling thread's last error message ("" if none was set).
 * Owned by the library; valid until this thread's next fanout call that fails or clears it.
 * Thread-safety: the message is thread-local. Cost: O(1).
 */
FO_API const char *fo_last_error(void);

/**
 * Set the calling thread's error message, as a library function would (used by front ends to
 * carry a message across threads, e.g. a worker's error to the consumer). `msg` is copied,
 * truncated to 1023 bytes. Returns `rc`. Thread-safety: thread-local. Cost: O(len).
 */
FO_API int fo_set_error(int rc, const char *msg);

/** Clear the calling thread's error message. Thread-safety: thread-local. Cost: O(1). */
FO_API void fo_clear_error(void);

#ifdef __cplusplus
}
#endif
#endif
