/*
 * store/npy.c: the NumPy .npy header (format versions 1.0-3.0), read and written.
 *
 * The format (numpy/lib/format.py, "NEP 1"): the magic "\x93NUMPY", a major and a minor version
 * byte, the header length (uint16 little-endian in 1.x, uint32 in 2.x/3.x), then an ASCII
 * Python dict literal with the keys 'descr', 'fortran_order' and 'shape', padded with spaces
 * and ending in '\n' so that the data starts at a multiple of 64 bytes. The parser below is a
 * small recursive-descent reader for exactly that literal; it never reads past `len` and
 * rejects anything else with FO_EFORMAT, so a corrupt file cannot crash a reader.
 */
#include "store/store_internal.h"

#include <ctype.h>
#include <errno.h>

typedef struct cursor {
  const char *p, *end;
} cursor;

static void skip_ws(cursor *c) {
  while (c->p < c->end && (*c->p == ' ' || *c->p == '\t' || *c->p == '\n' || *c->p == '\r'))
    c->p++;
}

static bool eat(cursor *c, char ch) {
  skip_ws(c);
  if (c->p < c->end && *c->p == ch) {
    c->p++;
    return true;
  }
  return false;
}

/* A quoted Python string without escapes, into buf (cap bytes). */
static int read_str(cursor *c, char *buf, size_t cap) {
  char q;
  size_t n = 0;
  skip_ws(c);
  if (c->p >= c->end || (*c->p != '\'' && *c->p != '"'))
    return FO_FAIL(FO_EFORMAT, "npy header: expected a quoted string");
  q = *c->p++;
  while (c->p < c->end && *c->p != q) {
    if (*c->p == '\\' || n + 1 >= cap)
      return FO_FAIL(FO_EFORMAT, "npy header: string too long or escaped");
    buf[n++] = *c->p++;
  }
  if (c->p >= c->end) return FO_FAIL(FO_EFORMAT, "npy header: unterminated string");
  c->p++;
  buf[n] = '\0';
  return FO_OK;
}

static int read_int(cursor *c, int64_t *out) {
  int64_t v = 0;
  bool any = false;
  skip_ws(c);
  while (c->p < c->end && isdigit((unsigned char)*c->p)) {
    int d = *c->p - '0';
    if (v > (INT64_MAX - d) / 10) return FO_FAIL(FO_EFORMAT, "npy header: shape value overflows");
    v = v * 10 + d;
    c->p++;
    any = true;
  }
  /* Python 2 era files may write 10L. */
  if (any && c->p < c->end && *c->p == 'L') c->p++;
  if (!any) return FO_FAIL(FO_EFORMAT, "npy header: expected a non-negative integer in shape");
  *out = v;
  return FO_OK;
}

int fo__npy_descr_itemsize(const char *descr, int64_t *itemsize) {
  char order, kind;
  long size;
  char *end;
  if (strlen(descr) < 3) return FO_FAIL(FO_EFORMAT, "unsupported dtype '%s'", descr);
  order = descr[0];
  kind = descr[1];
  errno = 0;
  size = strtol(descr + 2, &end, 10);
  if (*end || errno || size <= 0 || size > (1 << 20))
    return FO_FAIL(FO_EFORMAT, "unsupported dtype '%s'", descr);
  if (order == '>' && size > 1)
    return FO_FAIL(FO_EFORMAT, "unsupported dtype '%s': big-endian", descr);
  if (order != '<' && order != '|' && order != '=' && !(order == '>' && size == 1))
    return FO_FAIL(FO_EFORMAT, "unsupported dtype '%s'", descr);
  switch (kind) {
  case 'i': case 'u':
    if (size != 1 && size != 2 && size != 4 && size != 8) break;
    *itemsize = size;
    return FO_OK;
  case 'f':
    if (size != 2 && size != 4 && size != 8) break;
    *itemsize = size;
    return FO_OK;
  case 'b': case 'S': case 'V':
    if (kind == 'b' && size != 1) break;
    *itemsize = size;
    return FO_OK;
  default: break;
  }
  return FO_FAIL(FO_EFORMAT, "unsupported dtype '%s'", descr);
}

int fo__npy_parse(const void *buf, size_t len, fo__npy_header *h) {
  const unsigned char *b = buf;
  size_t hlen, pre;
  cursor c;
  bool seen_descr = false, seen_order = false, seen_shape = false;
  int rc;
  memset(h, 0, sizeof *h);
  if (len < 10 || memcmp(b, "\x93NUMPY", 6) != 0)
    return FO_FAIL(FO_EFORMAT, "not an .npy file (bad magic)");
  if (b[6] == 1) {
    hlen = (size_t)b[8] | (size_t)b[9] << 8;
    pre = 10;
  } else if (b[6] == 2 || b[6] == 3) {
    if (len < 12) return FO_FAIL(FO_EFORMAT, "truncated .npy header");
    hlen = (size_t)b[8] | (size_t)b[9] << 8 | (size_t)b[10] << 16 | (size_t)b[11] << 24;
    pre = 12;
  } else {
    return FO_FAIL(FO_EFORMAT, "unsupported .npy format version %d.%d", b[6], b[7]);
  }
  if (hlen > len - pre)
    return FO_FAIL(FO_EFORMAT, "truncated .npy header (needs %zu bytes, file has %zu)",
                   pre + hlen, len);
  c.p = (const char *)b + pre;
  c.end = c.p + hlen;
  if (!eat(&c, '{')) return FO_FAIL(FO_EFORMAT, "npy header: expected '{'");
  while (!eat(&c, '}')) {
    char key[32];
    if ((rc = read_str(&c, key, sizeof key)) != FO_OK) return rc;
    if (!eat(&c, ':')) return FO_FAIL(FO_EFORMAT, "npy header: expected ':' after '%s'", key);
    if (!strcmp(key, "descr")) {
      skip_ws(&c);
      if (c.p < c.end && *c.p == '[')
        return FO_FAIL(FO_EFORMAT, "unsupported dtype: structured arrays are not supported");
      if ((rc = read_str(&c, h->descr, sizeof h->descr)) != FO_OK) return rc;
      seen_descr = true;
    } else if (!strcmp(key, "fortran_order")) {
      skip_ws(&c);
      if ((size_t)(c.end - c.p) >= 4 && !memcmp(c.p, "True", 4)) {
        h->fortran_order = true;
        c.p += 4;
      } else if ((size_t)(c.end - c.p) >= 5 && !memcmp(c.p, "False", 5)) {
        h->fortran_order = false;
        c.p += 5;
      } else {
        return FO_FAIL(FO_EFORMAT, "npy header: fortran_order is not True or False");
      }
      seen_order = true;
    } else if (!strcmp(key, "shape")) {
      if (!eat(&c, '(')) return FO_FAIL(FO_EFORMAT, "npy header: shape is not a tuple");
      h->ndim = 0;
      while (!eat(&c, ')')) {
        int64_t v = 0;
        if (h->ndim == FO_NPY_MAX_DIMS)
          return FO_FAIL(FO_EFORMAT, "npy header: more than %d dimensions", FO_NPY_MAX_DIMS);
        if ((rc = read_int(&c, &v)) != FO_OK) return rc;
        h->shape[h->ndim++] = v;
        if (!eat(&c, ',')) {
          if (!eat(&c, ')')) return FO_FAIL(FO_EFORMAT, "npy header: bad shape tuple");
          break;
        }
      }
      seen_shape = true;
    } else {
      return FO_FAIL(FO_EFORMAT, "npy header: unknown key '%s'", key);
    }
    if (!eat(&c, ',')) {
      if (!eat(&c, '}')) return FO_FAIL(FO_EFORMAT, "npy header: expected ',' or '}'");
      break;
    }
  }
  if (!seen_descr || !seen_order || !seen_shape)
    return FO_FAIL(FO_EFORMAT, "npy header: missing %s",
                   !seen_descr ? "'descr'" : !seen_order ? "'fortran_order'" : "'shape'");
  if ((rc = fo__npy_descr_itemsize(h->descr, &h->itemsize)) != FO_OK) return rc;
  h->count = 1;
  for (int i = 0; i < h->ndim; i++) {
    if (h->shape[i] != 0 && h->count > INT64_MAX / h->shape[i])
      return FO_FAIL(FO_EFORMAT, "npy header: shape overflows");
    h->count *= h->shape[i];
  }
  if (h->count > INT64_MAX / h->itemsize) return FO_FAIL(FO_EFORMAT, "npy header: size overflows");
  h->data_offset = pre + hlen;
  return FO_OK;
}

size_t fo__npy_format(char *buf, size_t cap, const char *descr, int ndim, const int64_t *shape) {
  char dict[512];
  int n;
  size_t total, hlen;
  n = snprintf(dict, sizeof dict, "{'descr': '%s', 'fortran_order': False, 'shape': (", descr);
  for (int i = 0; i < ndim && n > 0 && (size_t)n < sizeof dict; i++)
    n += snprintf(dict + n, sizeof dict - (size_t)n, i ? " %lld," : "%lld,", (long long)shape[i]);
  if (n <= 0 || (size_t)n + 8 >= sizeof dict) return 0;
  if (ndim > 1) n--; /* numpy writes (2, 5) but (5,) */
  n += snprintf(dict + n, sizeof dict - (size_t)n, "), }");
  /* magic(6) + version(2) + len(2) + dict + padding + '\n' = multiple of 64 */
  total = 10 + (size_t)n + 1;
  total = (total + 63) / 64 * 64;
  if (total > cap) return 0;
  hlen = total - 10;
  memcpy(buf, "\x93NUMPY\x01\x00", 8);
  buf[8] = (char)(hlen & 0xff);
  buf[9] = (char)(hlen >> 8);
  memcpy(buf + 10, dict, (size_t)n);
  memset(buf + 10 + n, ' ', total - 10 - (size_t)n - 1);
  buf[total - 1] = '\n';
  return total;
}
