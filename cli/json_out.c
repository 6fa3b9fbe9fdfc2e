/*
 * cli/json_out.c: the little JSON the CLI prints (strings escaped per RFC 8259, int arrays).
 * Strings from datasets (original ids) may hold any bytes: valid UTF-8 passes through, every
 * byte of an invalid sequence is written as \u00XX (its Latin-1 reading), so the output always
 * parses.
 */
#include "cli.h"

/* Length of the valid UTF-8 sequence starting at s[0] (>= 0x80), or 0. */
static size_t utf8_len(const unsigned char *s, size_t n) {
  size_t len;
  unsigned char lo = 0x80, hi = 0xbf;
  if (s[0] >= 0xc2 && s[0] <= 0xdf) len = 2;
  else if (s[0] >= 0xe0 && s[0] <= 0xef) len = 3;
  else if (s[0] >= 0xf0 && s[0] <= 0xf4) len = 4;
  else return 0;
  if (len > n) return 0;
  if (s[0] == 0xe0) lo = 0xa0;      /* overlong */
  else if (s[0] == 0xed) hi = 0x9f; /* surrogates */
  else if (s[0] == 0xf0) lo = 0x90; /* overlong */
  else if (s[0] == 0xf4) hi = 0x8f; /* past U+10FFFF */
  if (s[1] < lo || s[1] > hi) return 0;
  for (size_t i = 2; i < len; i++)
    if (s[i] < 0x80 || s[i] > 0xbf) return 0;
  return len;
}

void cli_json_string(FILE *f, const char *s, size_t len) {
  fputc('"', f);
  for (size_t i = 0; i < len; i++) {
    unsigned char c = (unsigned char)s[i];
    switch (c) {
    case '"': fputs("\\\"", f); break;
    case '\\': fputs("\\\\", f); break;
    case '\n': fputs("\\n", f); break;
    case '\r': fputs("\\r", f); break;
    case '\t': fputs("\\t", f); break;
    default:
      if (c < 0x20 || c == 0x7f) {
        fprintf(f, "\\u%04x", c);
      } else if (c < 0x80) {
        fputc(c, f);
      } else {
        size_t k = utf8_len((const unsigned char *)s + i, len - i);
        if (k) {
          fwrite(s + i, 1, k, f);
          i += k - 1;
        } else {
          fprintf(f, "\\u%04x", c);
        }
      }
    }
  }
  fputc('"', f);
}

void cli_json_i64_array(FILE *f, const int64_t *a, int64_t n) {
  fputc('[', f);
  for (int64_t i = 0; i < n; i++) fprintf(f, i ? ", %lld" : "%lld", (long long)a[i]);
  fputc(']', f);
}
