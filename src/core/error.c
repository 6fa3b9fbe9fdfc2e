/*
 * core/error.c: status names and the thread-local error message.
 *
 * Each thread has one message buffer (like igraph's thread-local igraph_i_errormsg_buffer).
 * fo__fail() writes it; fo__context() prepends one phrase per level on the way out, so the
 * outermost caller sees "open dataset 'x': csc_indptr.npy: truncated ...". The buffer holds
 * 1 KiB; longer messages are cut.
 */
#include "core/internal.h"

#include <errno.h>

#define FO_MSG_CAP 1024

static _Thread_local char msg_buf[FO_MSG_CAP];
static _Thread_local const char *msg_file;
static _Thread_local int msg_line;

const char *fo_version(void) { return FO_VERSION_STRING; }

const char *fo_status_name(int rc) {
  switch (rc) {
  case FO_OK: return "FO_OK";
  case FO_EINVAL: return "FO_EINVAL";
  case FO_ENOMEM: return "FO_ENOMEM";
  case FO_EIO: return "FO_EIO";
  case FO_EFORMAT: return "FO_EFORMAT";
  case FO_ERANGE: return "FO_ERANGE";
  case FO_EMPI: return "FO_EMPI";
  case FO_ENOSYS: return "FO_ENOSYS";
  case FO_ECANCELED: return "FO_ECANCELED";
  case FO_EINTERNAL: return "FO_EINTERNAL";
  default: return "FO_E?";
  }
}

const char *fo_last_error(void) { return msg_buf; }

void fo_clear_error(void) {
  msg_buf[0] = '\0';
  msg_file = NULL;
  msg_line = 0;
}

int fo_set_error(int rc, const char *msg) {
  snprintf(msg_buf, sizeof msg_buf, "%s", msg ? msg : "");
  msg_file = NULL;
  msg_line = 0;
  return rc;
}

static void vset(const char *fmt, va_list ap) { vsnprintf(msg_buf, sizeof msg_buf, fmt, ap); }

int fo__fail(int rc, const char *file, int line, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vset(fmt, ap);
  va_end(ap);
  msg_file = file;
  msg_line = line;
  FO_LOG(FO_LOG_DEBUG, "error %s at %s:%d: %s", fo_status_name(rc), file, line, msg_buf);
  return rc;
}

int fo__fail_errno(const char *file, int line, const char *fmt, ...) {
  int err = errno;
  va_list ap;
  size_t n;
  va_start(ap, fmt);
  vset(fmt, ap);
  va_end(ap);
  n = strlen(msg_buf);
  if (n < sizeof msg_buf) snprintf(msg_buf + n, sizeof msg_buf - n, ": %s", strerror(err));
  msg_file = file;
  msg_line = line;
  return FO_EIO;
}

int fo__context(int rc, const char *fmt, ...) {
  char old[FO_MSG_CAP];
  size_t n, olen;
  va_list ap;
  memcpy(old, msg_buf, sizeof old);
  va_start(ap, fmt);
  vset(fmt, ap);
  va_end(ap);
  /* msg_buf = prefix ": " old, cut at the buffer's end */
  n = strlen(msg_buf);
  olen = strlen(old);
  if (olen && n + 2 < sizeof msg_buf) {
    size_t room = sizeof msg_buf - n - 3;
    memcpy(msg_buf + n, ": ", 2);
    if (olen > room) olen = room;
    memcpy(msg_buf + n + 2, old, olen);
    msg_buf[n + 2 + olen] = '\0';
  }
  return rc;
}
