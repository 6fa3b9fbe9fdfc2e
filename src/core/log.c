/*
 * core/log.c: leveled logging. FO_LOG() checks the level before formatting (as Redis's
 * serverLog does), so disabled debug lines cost one compare. The level comes from
 * FO_LOG_LEVEL, read once; a handler may take the lines instead of stderr.
 */
#include "core/internal.h"

#include <pthread.h>
#include <strings.h>

int fo__log_level = -1;
static fo_log_handler handler;
static void *handler_data;
static pthread_once_t level_once = PTHREAD_ONCE_INIT;

static void read_env_level(void) {
  const char *s = getenv("FO_LOG_LEVEL");
  int lv = FO_LOG_WARN;
  if (s) {
    if (!strcasecmp(s, "error")) lv = FO_LOG_ERROR;
    else if (!strcasecmp(s, "warn")) lv = FO_LOG_WARN;
    else if (!strcasecmp(s, "info")) lv = FO_LOG_INFO;
    else if (!strcasecmp(s, "debug")) lv = FO_LOG_DEBUG;
  }
  __atomic_store_n(&fo__log_level, lv, __ATOMIC_RELAXED);
}

int fo__log_level_init(void) {
  pthread_once(&level_once, read_env_level);
  return __atomic_load_n(&fo__log_level, __ATOMIC_RELAXED);
}

void fo_log_set_handler(fo_log_handler fn, void *userdata) {
  handler = fn;
  handler_data = userdata;
}

void fo_log_set_level(fo_log_level level) {
  pthread_once(&level_once, read_env_level);
  __atomic_store_n(&fo__log_level, (int)level, __ATOMIC_RELAXED);
}

fo_log_level fo_log_get_level(void) { return (fo_log_level)fo__log_level_init(); }

void fo__log(fo_log_level level, const char *file, int line, const char *fmt, ...) {
  static const char letters[] = "EWID";
  char buf[1024];
  const char *base = strrchr(file, '/');
  va_list ap;
  base = base ? base + 1 : file;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  if (handler) {
    handler(level, base, line, buf, handler_data);
    return;
  }
  fprintf(stderr, "fo %c %s:%d %s\n", letters[level & 3], base, line, buf);
}
