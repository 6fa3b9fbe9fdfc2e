/*
 * io/reader.c: a buffered line reader over plain or gzip-compressed text (zlib's gzread reads
 * both), plus the growable edge list and strict integer parsing the text importers share.
 *
 * Lines may be of any length (the buffer grows) and end in "\n" or "\r\n"; a last line
 * without a newline is returned too. Errors name the file and line.
 */
#include "io/io_internal.h"

#include <errno.h>
#include <sys/stat.h>

#define READ_CHUNK (1u << 20)
#define MIN_CHUNK (1u << 12)
#define GZ_BUFFER (256u << 10)
#define MIN_GZ_BUFFER (8u << 10) /* zlib's default */
#define MAX_LINE ((size_t)1 << 30)

/* The smallest power of two >= n, clamped to [lo, hi] (both powers of two). The line buffer
 * stays a power of two, so that its doubling stops at MAX_LINE exactly. */
static size_t pow2_clamp(uint64_t n, size_t lo, size_t hi) {
  size_t c = lo;
  while (c < hi && c < n) c *= 2;
  return c;
}

int fo__reader_open(fo__reader *r, const char *path) {
  struct stat st;
  bool regular;
  memset(r, 0, sizeof *r);
  r->path = path;
  if (stat(path, &st) != 0) return FO_FAIL_ERRNO("open '%s'", path);
  if (S_ISDIR(st.st_mode)) return FO_FAIL(FO_EINVAL, "'%s' is a directory, expected a file", path);
  r->file_bytes = (uint64_t)st.st_size;
  regular = S_ISREG(st.st_mode);
  errno = 0;
  r->gz = gzopen(path, "rb");
  if (!r->gz) {
    if (errno) return FO_FAIL_ERRNO("open '%s'", path);
    return FO_FAIL(FO_ENOMEM, "open '%s'", path);
  }
  /* Buffers sized from the file: a small file gets small ones (a 1 MiB line buffer and zlib's
   * 256 KiB + 512 KiB for a 100-byte file cost more than reading it, above all under ASan,
   * which maps and unmaps each), a large file or a pipe the full ones. zlib's input buffer
   * need not exceed the file; gzdirect() then reads the magic bytes (errors surface at the
   * first gzread, as before) and tells plain text, read whole into file_bytes + 1 bytes, from
   * gzip, whose text is larger than the file by an unknown factor (4 assumed; the buffer grows
   * for a longer line). */
  gzbuffer(r->gz,
           regular ? (unsigned)pow2_clamp(r->file_bytes, MIN_GZ_BUFFER, GZ_BUFFER) : GZ_BUFFER);
  if (!regular)
    r->cap = READ_CHUNK;
  else if (gzdirect(r->gz))
    r->cap = pow2_clamp(r->file_bytes + 1, MIN_CHUNK, READ_CHUNK);
  else
    r->cap = pow2_clamp(r->file_bytes > READ_CHUNK ? READ_CHUNK : r->file_bytes * 4, MIN_CHUNK,
                        READ_CHUNK);
  if (!(r->buf = malloc(r->cap + 1))) {
    gzclose(r->gz);
    r->gz = NULL;
    return FO_FAIL(FO_ENOMEM, "read buffer for '%s'", path);
  }
  return FO_OK;
}

uint64_t fo__file_bytes(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISREG(st.st_mode) ? (uint64_t)st.st_size : 0;
}

uint64_t fo__reader_offset(const fo__reader *r) {
  z_off_t off = r->gz ? gzoffset(r->gz) : 0;
  return off > 0 ? (uint64_t)off : 0;
}

/* Read more bytes after the unconsumed tail; returns bytes read, 0 at EOF, <0 on error. */
static int fill(fo__reader *r) {
  int k, err;
  const char *msg;
  if (r->pos > 0) {
    memmove(r->buf, r->buf + r->pos, r->len - r->pos);
    r->len -= r->pos;
    r->pos = 0;
  }
  if (r->len == r->cap) {
    char *nb;
    if (r->cap >= MAX_LINE)
      return FO_FAIL(FO_EFORMAT, "%s:%lld: line longer than %zu bytes", r->path,
                     (long long)r->lineno + 1, MAX_LINE);
    if (!(nb = realloc(r->buf, r->cap * 2 + 1))) return FO_FAIL(FO_ENOMEM, "line buffer");
    r->buf = nb;
    r->cap *= 2;
  }
  k = gzread(r->gz, r->buf + r->len, (unsigned)(r->cap - r->len > INT32_MAX ? INT32_MAX : r->cap - r->len));
  if (k < 0) {
    msg = gzerror(r->gz, &err);
    if (err == Z_ERRNO) return FO_FAIL_ERRNO("read '%s'", r->path);
    return FO_FAIL(FO_EFORMAT, "%s: corrupt gzip data near line %lld: %s", r->path,
                   (long long)r->lineno + 1, msg);
  }
  if (k == 0) {
    /* gzread reports a truncated stream as an error only through gzerror */
    msg = gzerror(r->gz, &err);
    if (err != Z_OK && err != Z_STREAM_END)
      return FO_FAIL(FO_EFORMAT, "%s: corrupt gzip data near line %lld: %s", r->path,
                     (long long)r->lineno + 1, msg);
    r->eof = true;
  }
  r->len += (size_t)k;
  if (r->progress) fo__progress_update(r->progress, (r->progress_base ? *r->progress_base : 0) + fo__reader_offset(r));
  if (r->cancel && *r->cancel) return FO_FAIL(FO_ECANCELED, "%s: interrupted", r->path);
  return k;
}

int fo__reader_next(fo__reader *r, char **line, size_t *len) {
  for (;;) {
    char *start = r->buf + r->pos;
    char *nl = memchr(start, '\n', r->len - r->pos);
    size_t n;
    int rc;
    if (nl || (r->eof && r->pos < r->len)) {
      n = nl ? (size_t)(nl - start) : r->len - r->pos;
      r->pos += nl ? n + 1 : n;
      if (n && start[n - 1] == '\r') n--;
      start[n] = '\0';
      r->lineno++;
      *line = start;
      *len = n;
      return 1;
    }
    if (r->eof) return 0;
    if ((rc = fill(r)) < 0) return rc;
  }
}

void fo__reader_close(fo__reader *r) {
  if (r->gz) gzclose(r->gz);
  free(r->buf);
  r->gz = NULL;
  r->buf = NULL;
}

int fo__edges_reserve(fo__edges *e, int64_t need) {
  int64_t cap_s = e->cap, cap_d = e->cap;
  int rc;
  if (need <= e->cap) return FO_OK;
  if ((rc = fo__grow(&e->src, &cap_s, need, sizeof *e->src, "edge list")) != FO_OK) return rc;
  if ((rc = fo__grow(&e->dst, &cap_d, need, sizeof *e->dst, "edge list")) != FO_OK) return rc;
  e->cap = cap_s < cap_d ? cap_s : cap_d;
  return FO_OK;
}

void fo__edges_free(fo__edges *e) {
  free(e->src);
  free(e->dst);
  memset(e, 0, sizeof *e);
}

bool fo__parse_i64(const char *s, size_t len, int64_t *out) {
  uint64_t v = 0, limit;
  bool neg = false;
  size_t i = 0;
  if (len && (s[0] == '-' || s[0] == '+')) {
    neg = s[0] == '-';
    i = 1;
  }
  if (i == len) return false;
  limit = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
  for (; i < len; i++) {
    unsigned d = (unsigned char)s[i] - '0';
    if (d > 9) return false;
    if (v > (limit - d) / 10) return false;
    v = v * 10 + d;
  }
  *out = neg ? (int64_t)(0 - v) : (int64_t)v;
  return true;
}
