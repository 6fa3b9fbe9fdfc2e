/*
 * io/mtx.c: Matrix Market coordinate files (NIST, "The Matrix Market Exchange Formats").
 *
 * Header "%%MatrixMarket matrix coordinate <field> <symmetry>" with field pattern, integer or
 * real and symmetry general or symmetric; then '%' comment lines; then "rows cols nnz"; then
 * nnz lines "i j [value]" with 1-based 1 <= i <= rows, 1 <= j <= cols. Entry (i, j) is the edge
 * (i-1) -> (j-1); values are ignored unless --weight-col 2 (the value column: integer or real
 * fields) makes them edge weights (finite, >= 0; a mirrored entry carries its value); symmetric files store one triangle, so every off-diagonal
 * entry also adds (j-1) -> (i-1). The node count is max(rows, cols).
 */
#include "io/io_internal.h"

#include <strings.h>

#define MAX_TOKENS 8

static int split(char *line, size_t len, char **tok, size_t *tlen) {
  int n = 0;
  size_t i = 0;
  while (i < len && n < MAX_TOKENS) {
    while (i < len && (line[i] == ' ' || line[i] == '\t')) i++;
    if (i == len) break;
    tok[n] = line + i;
    while (i < len && line[i] != ' ' && line[i] != '\t') i++;
    tlen[n] = (size_t)(line + i - tok[n]);
    n++;
  }
  return n;
}

static bool tok_is(const char *t, size_t n, const char *word) {
  return n == strlen(word) && !strncasecmp(t, word, n);
}

int fo__parse_mtx(const char *const *inputs, int n_inputs, const fo_import_opts *o,
                  fo__graph_input *in) {
  fo__reader r;
  fo__progress prog;
  char *line, *tok[MAX_TOKENS];
  size_t len, tlen[MAX_TOKENS];
  int k, nt, rc = FO_OK;
  bool symmetric = false, have_size = false;
  int64_t rows = 0, cols = 0, nnz = 0, seen = 0, cap_w = 0;
  bool values = false;
  if (n_inputs != 1) return FO_FAIL(FO_EINVAL, "mtx takes one input file, got %d", n_inputs);
  if (o->relabel) return FO_FAIL(FO_EINVAL, "mtx ids are 1..rows: --relabel does not apply");
  if ((rc = fo__reader_open(&r, inputs[0])) != FO_OK) return rc;
  fo__progress_start(&prog, o->progress, "import", r.file_bytes);
  r.progress = &prog;
  r.cancel = o->cancel;
  k = fo__reader_next(&r, &line, &len);
  if (k != 1) {
    rc = k < 0 ? k : FO_FAIL(FO_EFORMAT, "%s: empty file, expected a %%%%MatrixMarket header", r.path);
    goto out;
  }
  nt = split(line, len, tok, tlen);
  if (nt != 5 || !tok_is(tok[0], tlen[0], "%%MatrixMarket") || !tok_is(tok[1], tlen[1], "matrix")) {
    rc = FO_FAIL(FO_EFORMAT, "%s:1: expected '%%%%MatrixMarket matrix coordinate <field> "
                 "<symmetry>', got '%.*s'", r.path, (int)(len > 80 ? 80 : len), line);
    goto out;
  }
  if (!tok_is(tok[2], tlen[2], "coordinate")) {
    rc = FO_FAIL(FO_EFORMAT, "%s:1: format '%.*s' is not supported (only coordinate)", r.path,
                 (int)tlen[2], tok[2]);
    goto out;
  }
  if (!tok_is(tok[3], tlen[3], "pattern") && !tok_is(tok[3], tlen[3], "integer") &&
      !tok_is(tok[3], tlen[3], "real")) {
    rc = FO_FAIL(FO_EFORMAT, "%s:1: field '%.*s' is not supported (pattern, integer or real)",
                 r.path, (int)tlen[3], tok[3]);
    goto out;
  }
  values = !tok_is(tok[3], tlen[3], "pattern");
  if (o->weight_column >= 0 && (o->weight_column != 2 || !values)) {
    rc = FO_FAIL(FO_EINVAL, "%s:1: --weight-col %d: a Matrix Market %.*s file's weights are its "
                 "values, column 2 of integer or real files", r.path, (int)o->weight_column,
                 (int)tlen[3], tok[3]);
    goto out;
  }
  values = values && o->weight_column == 2;
  if (tok_is(tok[4], tlen[4], "symmetric")) {
    symmetric = true;
  } else if (!tok_is(tok[4], tlen[4], "general")) {
    rc = FO_FAIL(FO_EFORMAT, "%s:1: symmetry '%.*s' is not supported (general or symmetric)",
                 r.path, (int)tlen[4], tok[4]);
    goto out;
  }
  while ((k = fo__reader_next(&r, &line, &len)) == 1) {
    int64_t i, j;
    nt = split(line, len, tok, tlen);
    if (nt == 0 || tok[0][0] == '%') continue;
    if (!have_size) {
      if (nt != 3 || !fo__parse_i64(tok[0], tlen[0], &rows) || !fo__parse_i64(tok[1], tlen[1], &cols) ||
          !fo__parse_i64(tok[2], tlen[2], &nnz) || rows < 0 || cols < 0 || nnz < 0) {
        rc = FO_FAIL(FO_EFORMAT, "%s:%lld: expected 'rows cols nnz', got '%.*s'", r.path,
                     (long long)r.lineno, (int)(len > 60 ? 60 : len), line);
        goto out;
      }
      if (symmetric && rows != cols) {
        rc = FO_FAIL(FO_EFORMAT, "%s:%lld: symmetric matrix is %lld x %lld, not square", r.path,
                     (long long)r.lineno, (long long)rows, (long long)cols);
        goto out;
      }
      if (o->num_nodes >= 0 && (rows > o->num_nodes || cols > o->num_nodes)) {
        rc = FO_FAIL(FO_ERANGE, "%s:%lld: matrix is %lld x %lld, more than --num-nodes %lld",
                     r.path, (long long)r.lineno, (long long)rows, (long long)cols,
                     (long long)o->num_nodes);
        goto out;
      }
      have_size = true;
      continue;
    }
    if (nt < 2 || !fo__parse_i64(tok[0], tlen[0], &i) || !fo__parse_i64(tok[1], tlen[1], &j)) {
      rc = FO_FAIL(FO_EFORMAT, "%s:%lld: expected 'row col [value]', got '%.*s'", r.path,
                   (long long)r.lineno, (int)(len > 60 ? 60 : len), line);
      goto out;
    }
    if (i < 1 || i > rows || j < 1 || j > cols) {
      rc = FO_FAIL(FO_ERANGE, "%s:%lld: entry (%lld, %lld) is outside the %lld x %lld matrix",
                   r.path, (long long)r.lineno, (long long)i, (long long)j, (long long)rows,
                   (long long)cols);
      goto out;
    }
    if (++seen > nnz) {
      rc = FO_FAIL(FO_EFORMAT, "%s:%lld: more entries than the %lld announced", r.path,
                   (long long)r.lineno, (long long)nnz);
      goto out;
    }
    if (values) {
      double x;
      if (nt < 3) {
        rc = FO_FAIL(FO_EFORMAT, "%s:%lld: expected 'row col value', got '%.*s'", r.path,
                     (long long)r.lineno, (int)(len > 60 ? 60 : len), line);
        goto out;
      }
      if ((rc = fo__parse_weight_token(&r, tok[2], tlen[2], &x)) != FO_OK ||
          (rc = fo__grow(&in->weight, &cap_w, in->edges.n + 2, sizeof *in->weight, "edge weights")) != FO_OK)
        goto out;
      in->weight[in->edges.n] = x;
      in->weight[in->edges.n + 1] = x;
      in->weight_bytes = 4;
    }
    if ((rc = fo__edges_push(&in->edges, i - 1, j - 1)) != FO_OK) goto out;
    if (symmetric && i != j && (rc = fo__edges_push(&in->edges, j - 1, i - 1)) != FO_OK) goto out;
  }
  if (k < 0) {
    rc = k;
    goto out;
  }
  if (!have_size) {
    rc = FO_FAIL(FO_EFORMAT, "%s: missing the 'rows cols nnz' line", r.path);
    goto out;
  }
  if (seen != nnz) {
    rc = FO_FAIL(FO_EFORMAT, "%s:%lld: end of file after %lld entries, but the size line "
                 "announces %lld", r.path, (long long)r.lineno, (long long)seen, (long long)nnz);
    goto out;
  }
  in->n_nodes = rows > cols ? rows : cols;
  if (values && !in->weight) {
    if (!(in->weight = fo__malloc_n(1, sizeof *in->weight))) rc = FO_FAIL(FO_ENOMEM, "edge weights");
    in->weight_bytes = 4;
  }
out:
  fo__progress_end(&prog);
  fo__reader_close(&r);
  return rc;
}
