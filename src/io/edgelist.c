/*
 * io/edgelist.c: SNAP-style edge lists. One edge per line, "src dst", the two ids separated by
 * tabs, spaces or commas; further columns are ignored unless --weight-col / --time-col name them
 * (values.c parses them). Empty lines and
 * lines whose first non-blank character is '#' or '%' are comments. Ids are decimal integers,
 * non-negative unless --relabel maps them, or any tokens with --string-ids (numbered in order of
 * first appearance); --columns picks the two id columns. Several files are read as one list.
 */
#include "io/io_internal.h"

static bool is_sep(char c) { return c == ' ' || c == '\t' || c == ','; }

/* The next token of line[*i..len): sets *tok and *tlen, advances *i past it. */
bool fo__next_token(const char *line, size_t len, size_t *i, const char **tok, size_t *tlen) {
  size_t j = *i;
  while (j < len && is_sep(line[j])) j++;
  if (j == len) return false;
  *tok = line + j;
  while (j < len && !is_sep(line[j])) j++;
  *tlen = (size_t)(line + j - *tok);
  *i = j;
  return true;
}

int fo__parse_int_token(const fo__reader *r, const char *tok, size_t tlen, int64_t *out) {
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
  return FO_OK;
}

static int parse_id(const fo__reader *r, const char *tok, size_t tlen, const fo_import_opts *o,
                    int64_t *out) {
  int rc = fo__parse_int_token(r, tok, tlen, out);
  if (rc != FO_OK) return rc;
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
  int32_t last = o->src_column > o->dst_column ? o->src_column : o->dst_column;
  int64_t cap_w = 0, cap_t = 0;
  int rc = FO_OK;
  if (o->weight_column > last) last = o->weight_column;
  if (o->time_column > last) last = o->time_column;
  if (o->string_ids && (rc = fo__strmap_create(&in->orig_str)) != FO_OK) return rc;
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
      size_t i = 0, tlen, slen = 0, dlen = 0, wlen = 0, tmlen = 0;
      const char *tok, *stok = NULL, *dtok = NULL, *wtok = NULL, *tmtok = NULL;
      int64_t s, d;
      int32_t col = 0;
      while (i < len && (line[i] == ' ' || line[i] == '\t')) i++;
      if (i == len || line[i] == '#' || line[i] == '%') continue;
      for (; col <= last && fo__next_token(line, len, &i, &tok, &tlen); col++) {
        if (col == o->src_column) stok = tok, slen = tlen;
        if (col == o->dst_column) dtok = tok, dlen = tlen;
        if (col == o->weight_column) wtok = tok, wlen = tlen;
        if (col == o->time_column) tmtok = tok, tmlen = tlen;
      }
      if (col == 0) continue;
      /* a bad first id is reported as such, even on a one-token line */
      if (stok && !o->string_ids && (rc = parse_id(&r, stok, slen, o, &s)) != FO_OK) break;
      if ((!stok || !dtok) && o->src_column == 0 && o->dst_column == 1) {
        rc = FO_FAIL(FO_EFORMAT, "%s:%lld: expected two node ids, got one: '%.*s'", r.path,
                     (long long)r.lineno, (int)(len > 60 ? 60 : len), line);
        break;
      }
      if (!stok || !dtok) {
        rc = FO_FAIL(FO_EFORMAT, "%s:%lld: expected node ids in columns %d and %d, got %d "
                     "column%s: '%.*s'", r.path, (long long)r.lineno, (int)o->src_column,
                     (int)o->dst_column, (int)col, col == 1 ? "" : "s", (int)(len > 60 ? 60 : len), line);
        break;
      }
      if (o->string_ids) {
        if ((rc = fo__strmap_get(in->orig_str, stok, slen, true, &s, NULL)) != FO_OK ||
            (rc = fo__strmap_get(in->orig_str, dtok, dlen, true, &d, NULL)) != FO_OK)
          break;
      } else if ((rc = parse_id(&r, dtok, dlen, o, &d)) != FO_OK) {
        break;
      }
      if ((o->weight_column >= 0 && !wtok) || (o->time_column >= 0 && !tmtok)) {
        rc = FO_FAIL(FO_EFORMAT, "%s:%lld: no %s in column %d: '%.*s'", r.path, (long long)r.lineno,
                     !wtok && o->weight_column >= 0 ? "weight" : "time",
                     (int)(!wtok && o->weight_column >= 0 ? o->weight_column : o->time_column),
                     (int)(len > 60 ? 60 : len), line);
        break;
      }
      if (wtok) {
        if ((rc = fo__grow(&in->weight, &cap_w, in->edges.n + 1, sizeof *in->weight, "edge weights")) != FO_OK ||
            (rc = fo__parse_weight_token(&r, wtok, wlen, &in->weight[in->edges.n])) != FO_OK)
          break;
        in->weight_bytes = 4;
      }
      if (tmtok && ((rc = fo__grow(&in->time, &cap_t, in->edges.n + 1, sizeof *in->time, "edge times")) != FO_OK ||
                    (rc = fo__parse_time_token(&r, tmtok, tmlen, o->time_format, &in->time[in->edges.n])) != FO_OK))
        break;
      if ((rc = fo__edges_push(&in->edges, s, d)) != FO_OK) break;
    }
    if (k < 0 && rc == FO_OK) rc = k;
    base += r.file_bytes;
    fo__reader_close(&r);
  }
  fo__progress_end(&prog);
  if (rc == FO_OK && o->string_ids) in->n_nodes = fo__strmap_count(in->orig_str);
  /* an empty list with a value column still has (empty) values */
  if (rc == FO_OK && o->weight_column >= 0 && !in->weight) {
    if (!(in->weight = fo__malloc_n(1, sizeof *in->weight))) rc = FO_FAIL(FO_ENOMEM, "edge weights");
    in->weight_bytes = 4;
  }
  if (rc == FO_OK && o->time_column >= 0 && !in->time &&
      !(in->time = fo__malloc_n(1, sizeof *in->time)))
    rc = FO_FAIL(FO_ENOMEM, "edge times");
  return rc;
}
