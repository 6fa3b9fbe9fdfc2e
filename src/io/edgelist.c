/*
 * io/edgelist.c: SNAP-style edge lists. One edge per line, "src dst", the two ids separated by
 * tabs, spaces or commas; further columns (a weight, a timestamp) are ignored. Empty lines and
 * lines whose first non-blank character is '#' or '%' are comments. Ids are decimal integers,
 * non-negative unless --relabel maps them. Several files are read as one list, in order.
 */
#include "io/io_internal.h"

static bool is_sep(char c) { return c == ' ' || c == '\t' || c == ','; }

/* The next token of line[*i..len): sets *tok and *tlen, advances *i past it. */
static bool next_token(const char *line, size_t len, size_t *i, const char **tok, size_t *tlen) {
  size_t j = *i;
  while (j < len && is_sep(line[j])) j++;
  if (j == len) return false;
  *tok = line + j;
  while (j < len && !is_sep(line[j])) j++;
  *tlen = (size_t)(line + j - *tok);
  *i = j;
  return true;
}

static int parse_id(const fo__reader *r, const char *tok, size_t tlen, const fo_import_opts *o,
                    int64_t *out) {
  if (!fo__parse_i64(tok, tlen, out)) {
    size_t i = tlen && (tok[0] == '-' || tok[0] == '+');
    bool digits = i < tlen;
    for (; i < tlen; i++) digits &= tok[i] >= '0' && tok[i] <= '9';
    if (digits)
      return FO_FAIL(FO_ERANGE, "%s:%lld: node id '%.*s' does not fit in int64", r->path,
                     (long long)r->lineno, (int)(tlen > 40 ? 40 : tlen), tok);
    return FO_FAIL(FO_EFORMAT, "%s:%lld: '%.*s' is not an integer node id", r->path,
                   (long long)r->lineno, (int)(tlen > 40 ? 40 : tlen), tok);
  }
  if (!o->relabel && *out < 0)
    return FO_FAIL(FO_ERANGE, "%s:%lld: node id %lld is negative (--relabel maps any integer ids)",
                   r->path, (long long)r->lineno, (long long)*out);
  if (o->num_nodes >= 0 && *out >= o->num_nodes)
    return FO_FAIL(FO_ERANGE, "%s:%lld: node id %lld is >= --num-nodes %lld", r->path,
                   (long long)r->lineno, (long long)*out, (long long)o->num_nodes);
  if (*out == INT64_MAX)
    return FO_FAIL(FO_ERANGE, "%s:%lld: node id %lld is too large", r->path, (long long)r->lineno,
                   (long long)*out);
  return FO_OK;
}

int fo__parse_edgelist(const char *const *inputs, int n_inputs, const fo_import_opts *o,
                       fo__graph_input *in) {
  fo__progress prog;
  uint64_t total = 0, base = 0;
  int rc = FO_OK;
  for (int f = 0; f < n_inputs; f++) total += fo__file_bytes(inputs[f]); /* stat: a FIFO opens once */
  fo__progress_start(&prog, o->progress, "import", total);
  for (int f = 0; f < n_inputs && rc == FO_OK; f++) {
    fo__reader r;
    char *line;
    size_t len;
    int k;
    if ((rc = fo__reader_open(&r, inputs[f])) != FO_OK) break;
    r.progress = &prog;
    r.progress_base = &base;
    r.cancel = o->cancel;
    while ((k = fo__reader_next(&r, &line, &len)) == 1) {
      size_t i = 0, tlen;
      const char *tok;
      int64_t s, d;
      while (i < len && (line[i] == ' ' || line[i] == '\t')) i++;
      if (i == len || line[i] == '#' || line[i] == '%') continue;
      if (!next_token(line, len, &i, &tok, &tlen)) continue;
      if ((rc = parse_id(&r, tok, tlen, o, &s)) != FO_OK) break;
      if (!next_token(line, len, &i, &tok, &tlen)) {
        rc = FO_FAIL(FO_EFORMAT, "%s:%lld: expected two node ids, got one: '%.*s'", r.path,
                     (long long)r.lineno, (int)(len > 60 ? 60 : len), line);
        break;
      }
      if ((rc = parse_id(&r, tok, tlen, o, &d)) != FO_OK) break;
      if ((rc = fo__edges_push(&in->edges, s, d)) != FO_OK) break;
    }
    if (k < 0 && rc == FO_OK) rc = k;
    base += r.file_bytes;
    fo__reader_close(&r);
  }
  fo__progress_end(&prog);
  return rc;
}
