/*
 * io/values.c: per-edge values in text inputs: a weight column (a finite decimal >= 0) and a
 * time column (a decimal int64, or an ISO 8601 date / date-time turned into UNIX seconds).
 * Every refusal names the file, the line and the text.
 */
#include "io/io_internal.h"

#include <math.h>

#define SHOW(t, n) (int)((n) > 40 ? 40 : (n)), (t)

int fo__parse_weight_token(const fo__reader *r, const char *tok, size_t tlen, double *out) {
  char buf[64], *end;
  double x;
  if (tlen == 0 || tlen >= sizeof buf)
    return FO_FAIL(FO_EFORMAT, "%s:%lld: weight '%.*s' is not a number", r->path,
                   (long long)r->lineno, SHOW(tok, tlen));
  memcpy(buf, tok, tlen);
  buf[tlen] = '\0';
  x = strtod(buf, &end);
  if (end != buf + tlen)
    return FO_FAIL(FO_EFORMAT, "%s:%lld: weight '%.*s' is not a number", r->path,
                   (long long)r->lineno, SHOW(tok, tlen));
  if (!isfinite(x) || x < 0)
    return FO_FAIL(FO_ERANGE, "%s:%lld: weight '%.*s' is %s (weights must be finite and >= 0)",
                   r->path, (long long)r->lineno, SHOW(tok, tlen),
                   isnan(x) ? "NaN" : x < 0 ? "negative" : "infinite");
  *out = x;
  return FO_OK;
}

/* Days from 1970-01-01 to y-m-d in the proleptic Gregorian calendar (H. Hinnant's
 * days_from_civil). */
static int64_t days_from_civil(int64_t y, int64_t m, int64_t d) {
  int64_t era, yoe, doy, doe;
  y -= m <= 2;
  era = (y >= 0 ? y : y - 399) / 400;
  yoe = y - era * 400;
  doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

static bool digits(const char *s, size_t n, int64_t *v) {
  *v = 0;
  for (size_t i = 0; i < n; i++) {
    if (s[i] < '0' || s[i] > '9') return false;
    *v = *v * 10 + (s[i] - '0');
  }
  return n > 0;
}

/* YYYY-MM-DD[(T| )HH:MM[:SS[.fff]]][Z|(+|-)HH[:]MM] -> UNIX seconds (fractions truncated). */
bool fo__parse_iso8601(const char *s, size_t n, int64_t *out) {
  int64_t y, mo, d, h = 0, mi = 0, sec = 0, oh = 0, om = 0;
  static const int mdays[] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  size_t i = 10;
  if (n < 10 || !digits(s, 4, &y) || s[4] != '-' || !digits(s + 5, 2, &mo) || s[7] != '-' ||
      !digits(s + 8, 2, &d))
    return false;
  if (mo < 1 || mo > 12 || d < 1 || d > mdays[mo - 1] ||
      (mo == 2 && d == 29 && !((y % 4 == 0 && y % 100 != 0) || y % 400 == 0)))
    return false;
  if (i < n && (s[i] == 'T' || s[i] == ' ')) {
    if (n < i + 6 || !digits(s + i + 1, 2, &h) || s[i + 3] != ':' || !digits(s + i + 4, 2, &mi))
      return false;
    i += 6;
    if (i < n && s[i] == ':') {
      if (n < i + 3 || !digits(s + i + 1, 2, &sec)) return false;
      i += 3;
      if (i < n && s[i] == '.') {
        size_t j = i + 1;
        while (j < n && s[j] >= '0' && s[j] <= '9') j++;
        if (j == i + 1) return false;
        i = j;
      }
    }
    if (h > 23 || mi > 59 || sec > 60) return false;
    if (i < n && s[i] == 'Z') {
      i++;
    } else if (i < n && (s[i] == '+' || s[i] == '-')) {
      const int sign = s[i] == '-' ? -1 : 1;
      if (n >= i + 6 && s[i + 3] == ':') {
        if (!digits(s + i + 1, 2, &oh) || !digits(s + i + 4, 2, &om)) return false;
        i += 6;
      } else if (n >= i + 5) {
        if (!digits(s + i + 1, 2, &oh) || !digits(s + i + 3, 2, &om)) return false;
        i += 5;
      } else {
        return false;
      }
      if (oh > 23 || om > 59) return false;
      oh *= sign;
      om *= sign;
    }
  }
  if (i != n) return false;
  *out = days_from_civil(y, mo, d) * 86400 + h * 3600 + mi * 60 + sec - oh * 3600 - om * 60;
  return true;
}

int fo__parse_time_token(const fo__reader *r, const char *tok, size_t tlen, fo_time_format fmt,
                         int64_t *out) {
  if (fmt == FO_TIME_ISO8601) {
    if (!fo__parse_iso8601(tok, tlen, out))
      return FO_FAIL(FO_EFORMAT, "%s:%lld: time '%.*s' is not an ISO 8601 date or date-time "
                     "(YYYY-MM-DD[THH:MM[:SS]][Z|+HH:MM])", r->path, (long long)r->lineno,
                     SHOW(tok, tlen));
    return FO_OK;
  }
  if (!fo__parse_i64(tok, tlen, out))
    return FO_FAIL(FO_EFORMAT, "%s:%lld: time '%.*s' is not an integer (int64; --time-format "
                   "iso8601 reads dates)", r->path, (long long)r->lineno, SHOW(tok, tlen));
  return FO_OK;
}
