/*
 * cli/args.c: argument parsing and error printing shared by the subcommands.
 */
#include "cli.h"

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

int cli_usage_error(const char *cmd, const char *fmt, ...) {
  va_list ap;
  fprintf(stderr, "fanout %s: ", cmd);
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fprintf(stderr, "\nTry 'fanout %s --help'.\n", cmd);
  return CLI_USAGE;
}

int cli_bad_option(const char *cmd, int c, char **argv, const struct option *lopts) {
  const char *arg = argv[optind - 1];
  if (c == ':') return cli_usage_error(cmd, "option '%s' needs a value", arg);
  if (optopt) {
    for (const struct option *o = lopts; o->name; o++)
      if (o->val == optopt && o->has_arg == no_argument)
        return cli_usage_error(cmd, "option '--%s' takes no value", o->name);
    return cli_usage_error(cmd, "unknown option '-%c'", optopt);
  }
  return cli_usage_error(cmd, "unknown option '%.*s'", (int)strcspn(arg, "="), arg);
}

int cli_fail(int rc) {
  fprintf(stderr, "fanout: %s (%s)\n", fo_last_error(), fo_status_name(rc));
  return CLI_FAIL;
}

/* 0 ok; -1 not an integer; -2 an integer out of the int64 range. */
static int parse_i64(const char *s, size_t len, int64_t *out) {
  char buf[64], *end;
  long long v;
  size_t i = 0;
  if (len == 0 || len >= sizeof buf) {
    /* a long run of digits is still an integer, just too large */
    if (len && (s[0] == '-' || s[0] == '+')) i = 1;
    for (; i < len && s[i] >= '0' && s[i] <= '9'; i++) {
    }
    return len && i == len && len > 1 ? -2 : -1;
  }
  memcpy(buf, s, len);
  buf[len] = '\0';
  if (isspace((unsigned char)buf[0])) return -1; /* strtoll would skip it */
  errno = 0;
  v = strtoll(buf, &end, 10);
  if (*end || end == buf) return -1;
  if (errno == ERANGE) return -2;
  *out = v;
  return 0;
}

int cli_i64(const char *cmd, const char *opt, const char *s, int64_t *out) {
  int r = parse_i64(s, strlen(s), out);
  if (r == -2) return cli_usage_error(cmd, "%s: %s is out of range", opt, s);
  if (r != 0) return cli_usage_error(cmd, "%s: '%s' is not an integer", opt, s);
  return 0;
}

int cli_u64(const char *cmd, const char *opt, const char *s, uint64_t *out) {
  char *end;
  unsigned long long v = 0;
  errno = 0;
  if (*s >= '0' && *s <= '9') v = strtoull(s, &end, 10);
  if (!(*s >= '0' && *s <= '9') || *end)
    return cli_usage_error(cmd, "%s: '%s' is not a non-negative integer", opt, s);
  if (errno == ERANGE) return cli_usage_error(cmd, "%s: %s is out of range", opt, s);
  *out = v;
  return 0;
}

int cli_i64_list(const char *cmd, const char *opt, const char *s, int64_t **out, int64_t *n) {
  int64_t cnt = 1, k = 0;
  const char *p = s;
  int64_t *a;
  *out = NULL;
  *n = 0;
  for (const char *q = s; *q; q++) cnt += *q == ',';
  if (!(a = malloc((size_t)cnt * sizeof *a))) return cli_usage_error(cmd, "%s: out of memory", opt);
  for (;;) {
    const char *c = strchr(p, ',');
    size_t len = c ? (size_t)(c - p) : strlen(p);
    int r = parse_i64(p, len, &a[k]);
    if (r != 0) {
      int ret = r == -2 ? cli_usage_error(cmd, "%s: %.*s is out of range", opt, (int)len, p)
                        : cli_usage_error(cmd, "%s: '%.*s' is not an integer (expected "
                                          "comma-separated integers)", opt, (int)len, p);
      free(a);
      return ret;
    }
    k++;
    if (!c) break;
    p = c + 1;
  }
  *out = a;
  *n = k;
  return 0;
}

int cli_i32_list(const char *cmd, const char *opt, const char *s, int32_t **out, int32_t *n) {
  int64_t *a, k;
  int32_t *b;
  int rc = cli_i64_list(cmd, opt, s, &a, &k);
  *out = NULL;
  *n = 0;
  if (rc) return rc;
  if (!(b = malloc((size_t)k * sizeof *b))) {
    free(a);
    return cli_usage_error(cmd, "%s: out of memory", opt);
  }
  for (int64_t i = 0; i < k; i++) {
    if (a[i] < INT32_MIN || a[i] > INT32_MAX) {
      int ret = cli_usage_error(cmd, "%s: %lld is out of range", opt, (long long)a[i]);
      free(a);
      free(b);
      return ret;
    }
    b[i] = (int32_t)a[i];
  }
  free(a);
  *out = b;
  *n = (int32_t)k;
  return 0;
}

int cli_read_list_file(const char *cmd, const char *opt, const char *path, const char *what,
                       char **out) {
  FILE *f = fopen(path, "rb");
  char *text = NULL;
  long len;
  *out = NULL;
  if (!f || fseek(f, 0, SEEK_END) || (len = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) ||
      !(text = malloc((size_t)len + 1)) || fread(text, 1, (size_t)len, f) != (size_t)len) {
    if (f) fclose(f);
    free(text);
    return cli_usage_error(cmd, "%s @%s: cannot read the file", opt, path);
  }
  fclose(f);
  text[len] = '\0';
  if (memchr(text, '\0', (size_t)len)) {
    free(text);
    return cli_usage_error(cmd, "%s @%s: not a text file (it holds a NUL byte)", opt, path);
  }
  while (len > 0 && strchr(" \t\r\n,", text[len - 1])) text[--len] = '\0';
  {
    /* a run of whitespace is one comma (none at the start or beside a comma) */
    long j = 0;
    for (long i = 0; i < len; i++) {
      if (!strchr(" \t\r\n", text[i])) {
        text[j++] = text[i];
        continue;
      }
      while (i + 1 < len && strchr(" \t\r\n", text[i + 1])) i++;
      if (j > 0 && text[j - 1] != ',' && i + 1 < len && text[i + 1] != ',') text[j++] = ',';
    }
    text[j] = '\0';
    len = j;
  }
  if (len == 0) {
    free(text);
    return cli_usage_error(cmd, "%s @%s: the file holds no %s", opt, path, what);
  }
  *out = text;
  return 0;
}

int cli_list_arg(const char *cmd, const char *opt, const char *arg, const char *what,
                 const char **list, char **text, char *opt_out, size_t cap) {
  int ret;
  *list = arg;
  *text = NULL;
  snprintf(opt_out, cap, "%s", opt);
  if (arg[0] != '@') return 0;
  if ((ret = cli_read_list_file(cmd, opt, arg + 1, what, text))) return ret;
  snprintf(opt_out, cap, "%s %.280s", opt, arg);
  *list = *text;
  return 0;
}

int cli_i64_list_arg(const char *cmd, const char *opt, const char *arg, const char *what,
                     int64_t **out, int64_t *n) {
  char *text, o[320];
  const char *list;
  int ret = cli_list_arg(cmd, opt, arg, what, &list, &text, o, sizeof o);
  if (!ret) ret = cli_i64_list(cmd, o, list, out, n);
  free(text);
  return ret;
}

int cli_edge_dir(const char *cmd, const char *s, fo_edge_dir *out) {
  if (!strcmp(s, "in")) *out = FO_EDGE_DIR_IN;
  else if (!strcmp(s, "out")) *out = FO_EDGE_DIR_OUT;
  else return cli_usage_error(cmd, "--edge-dir: '%s' is not 'in' or 'out'", s);
  return 0;
}

int cli_load_mode(const char *cmd, const char *s, fo_load_mode *out) {
  if (!strcmp(s, "mmap")) *out = FO_LOAD_MMAP;
  else if (!strcmp(s, "hugepage")) *out = FO_LOAD_HUGEPAGE;
  else return cli_usage_error(cmd, "--load: '%s' is not 'mmap' or 'hugepage'", s);
  return 0;
}

static volatile int cancel_flag;

static void on_signal(int sig) {
  (void)sig;
  cancel_flag = 1;
}

const volatile int *cli_cancel_on_signals(void) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_signal;
  sigaction(SIGINT, &sa, NULL);
  sigaction(SIGTERM, &sa, NULL);
  return &cancel_flag;
}

double cli_peak_rss_mb(void) {
  struct rusage ru;
  if (getrusage(RUSAGE_SELF, &ru) != 0) return 0;
  return (double)ru.ru_maxrss / 1024.0; /* ru_maxrss is in KiB on Linux */
}

double cli_now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}
