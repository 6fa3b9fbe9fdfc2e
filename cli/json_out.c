/*
 * cli/json_out.c: the little JSON the CLI prints (strings escaped per RFC 8259, int arrays).
 */
#include "cli.h"

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
      if (c < 0x20) fprintf(f, "\\u%04x", c);
      else fputc(c, f);
    }
  }
  fputc('"', f);
}

void cli_json_i64_array(FILE *f, const int64_t *a, int64_t n) {
  fputc('[', f);
  for (int64_t i = 0; i < n; i++) fprintf(f, i ? ", %lld" : "%lld", (long long)a[i]);
  fputc(']', f);
}
