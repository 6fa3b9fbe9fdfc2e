/*
 * io/planetoid.c: the LINQS Planetoid text format (Cora, CiteSeer, PubMed-Diabetes style).
 *
 * `<name>.content`: one paper per line, "<paper_id>\t<w_0>\t...\t<w_{D-1}>\t<class_label>";
 * every line must have the same number of fields. `<name>.cites`: "<a>\t<b>" meaning paper b
 * cites paper a, stored as the edge b -> a. Paper ids are arbitrary strings ("1033",
 * "bradshaw97introduction"). Node ids follow the content file's order; ids that appear only in
 * the cites file (CiteSeer has 15) become feature-less nodes after them, in order of first
 * appearance, as PyG's Planetoid does, or with drop_unknown their edges are dropped. Both are
 * counted in the report.
 */
#include "io/io_internal.h"

static bool has_part(const char *path, const char *part) {
  const char *base = strrchr(path, '/');
  return strstr(base ? base + 1 : path, part) != NULL;
}

/* Parse the feature values line[0..len) (TAB-separated, `dim` of them) into row. */
static int parse_row(const fo__reader *r, char *line, size_t len, int64_t dim, float *row) {
  char *p = line, *end = line + len;
  for (int64_t j = 0; j < dim; j++) {
    char *tab = memchr(p, '\t', (size_t)(end - p)), *stop;
    size_t tlen = tab ? (size_t)(tab - p) : (size_t)(end - p);
    char save = p[tlen];
    p[tlen] = '\0';
    row[j] = strtof(p, &stop);
    p[tlen] = save;
    if (stop != p + tlen || tlen == 0)
      return FO_FAIL(FO_EFORMAT, "%s:%lld: feature %lld is '%.*s', not a number", r->path,
                     (long long)r->lineno, (long long)j, (int)(tlen > 40 ? 40 : tlen), p);
    p += tlen + 1;
  }
  return FO_OK;
}

static int parse_content(const char *path, const fo_import_opts *o, fo__progress *prog,
                         fo__graph_input *in, fo__strmap *classes, int64_t **cls, int64_t *cap_cls) {
  fo__reader r;
  char *line;
  size_t len;
  int k, rc = FO_OK;
  int64_t fields0 = -1, cap_x = 0;
  fo__node_data *nd = &in->node;
  if ((rc = fo__reader_open(&r, path)) != FO_OK) return rc;
  r.progress = prog;
  r.cancel = o->cancel;
  while ((k = fo__reader_next(&r, &line, &len)) == 1) {
    int64_t fields = 1, id;
    size_t idlen;
    bool added;
    if (len == 0) continue;
    for (size_t i = 0; i < len; i++) fields += line[i] == '\t';
    idlen = strcspn(line, "\t");
    if (fields < 2 || idlen == 0) {
      rc = FO_FAIL(FO_EFORMAT, "%s:%lld: expected '<paper_id>\\t<features...>\\t<label>', got '%.*s'",
                   path, (long long)r.lineno, (int)(len > 60 ? 60 : len), line);
      break;
    }
    if (fields0 < 0) fields0 = fields;
    if (fields != fields0) {
      rc = FO_FAIL(FO_EFORMAT, "%s:%lld: %lld features, but line 1 has %lld", path,
                   (long long)r.lineno, (long long)(fields - 2), (long long)(fields0 - 2));
      break;
    }
    if ((rc = fo__strmap_get(in->orig_str, line, idlen, true, &id, &added)) != FO_OK) break;
    if (!added) {
      rc = FO_FAIL(FO_EFORMAT, "%s:%lld: paper id '%.*s' appears twice", path,
                   (long long)r.lineno, (int)idlen, line);
      break;
    }
    /* features (fields 1 .. D) and the class (the last field) */
    nd->x_dim = fields0 - 2;
    if ((rc = fo__grow(&nd->x, &cap_x, (id + 1) * nd->x_dim, sizeof *nd->x, "features")) != FO_OK ||
        (rc = parse_row(&r, line + idlen + 1, len - idlen - 1, nd->x_dim,
                      nd->x_dim ? nd->x + id * nd->x_dim : NULL)) != FO_OK)
      break;
    {
      const char *label = strrchr(line, '\t') + 1;
      int64_t c;
      if ((rc = fo__strmap_get(classes, label, strlen(label), true, &c, NULL)) != FO_OK ||
          (rc = fo__grow(cls, cap_cls, id + 1, sizeof **cls, "labels")) != FO_OK)
        break;
      (*cls)[id] = c;
    }
  }
  if (k < 0 && rc == FO_OK) rc = k;
  fo__reader_close(&r);
  return rc;
}

static int parse_cites(const char *path, const fo_import_opts *o, fo__progress *prog,
                       uint64_t *base, fo__graph_input *in) {
  fo__reader r;
  fo__strmap *unknown = NULL;
  char *line;
  size_t len;
  int k, rc;
  if ((rc = fo__strmap_create(&unknown)) != FO_OK) return rc;
  if ((rc = fo__reader_open(&r, path)) != FO_OK) {
    fo__strmap_destroy(unknown);
    return rc;
  }
  r.progress = prog;
  r.progress_base = base;
  r.cancel = o->cancel;
  while ((k = fo__reader_next(&r, &line, &len)) == 1) {
    const char *a, *b;
    size_t alen, blen, i = 0;
    int64_t ia, ib;
    bool added;
    while (i < len && (line[i] == ' ' || line[i] == '\t')) i++;
    if (i == len) continue;
    a = line + i;
    while (i < len && line[i] != ' ' && line[i] != '\t') i++;
    alen = (size_t)(line + i - a);
    while (i < len && (line[i] == ' ' || line[i] == '\t')) i++;
    b = line + i;
    while (i < len && line[i] != ' ' && line[i] != '\t') i++;
    blen = (size_t)(line + i - b);
    while (i < len && (line[i] == ' ' || line[i] == '\t')) i++;
    if (blen == 0 || i != len) {
      rc = FO_FAIL(FO_EFORMAT, "%s:%lld: expected '<cited_id>\\t<citing_id>', got '%.*s'", path,
                   (long long)r.lineno, (int)(len > 60 ? 60 : len), line);
      break;
    }
    if ((rc = fo__strmap_get(in->orig_str, a, alen, false, &ia, NULL)) != FO_OK ||
        (rc = fo__strmap_get(in->orig_str, b, blen, false, &ib, NULL)) != FO_OK)
      break;
    if (ia < 0 || ib < 0) {
      int64_t dummy;
      if (ia < 0 && (rc = fo__strmap_get(unknown, a, alen, true, &dummy, &added)) != FO_OK) break;
      if (ib < 0 && (rc = fo__strmap_get(unknown, b, blen, true, &dummy, &added)) != FO_OK) break;
      if (o->drop_unknown) {
        in->n_unknown_edges_dropped++;
        continue;
      }
      if (ia < 0 && (rc = fo__strmap_get(in->orig_str, a, alen, true, &ia, NULL)) != FO_OK) break;
      if (ib < 0 && (rc = fo__strmap_get(in->orig_str, b, blen, true, &ib, NULL)) != FO_OK) break;
    }
    if ((rc = fo__edges_push(&in->edges, ib, ia)) != FO_OK) break; /* b cites a: b -> a */
  }
  if (k < 0 && rc == FO_OK) rc = k;
  in->n_unknown_nodes = fo__strmap_count(unknown);
  fo__reader_close(&r);
  fo__strmap_destroy(unknown);
  return rc;
}

/* Sort the class names, turn per-node class ids into labels, and give the nodes that appear
 * only in the cites file zero features and label -1. */
static int finish_node_data(fo__graph_input *in, fo__strmap *classes, const int64_t *cls,
                            int64_t n_content, int64_t C) {
  fo__node_data *nd = &in->node;
  int64_t n = fo__strmap_count(in->orig_str), *rank = NULL, *order = NULL;
  float *x;
  int rc = FO_OK;
  rank = fo__malloc_n(C, sizeof *rank);
  order = fo__malloc_n(C, sizeof *order);
  if (!rank || !order) {
    rc = FO_FAIL(FO_ENOMEM, "labels");
    goto out;
  }
  for (int64_t c = 0; c < C; c++) order[c] = c;
  /* insertion sort of the C (few) class names */
  for (int64_t i = 1; i < C; i++) {
    int64_t t = order[i], j = i;
    size_t lt;
    const char *st = fo__strmap_str(classes, t, &lt);
    while (j > 0) {
      size_t lp;
      const char *sp = fo__strmap_str(classes, order[j - 1], &lp);
      int c = memcmp(sp, st, lp < lt ? lp : lt);
      if (c < 0 || (c == 0 && lp <= lt)) break;
      order[j] = order[j - 1];
      j--;
    }
    order[j] = t;
  }
  for (int64_t i = 0; i < C; i++) rank[order[i]] = i;
  if (!(nd->y = fo__malloc_n(n, sizeof *nd->y))) {
    rc = FO_FAIL(FO_ENOMEM, "labels");
    goto out;
  }
  for (int64_t v = 0; v < n; v++) nd->y[v] = v < n_content ? rank[cls[v]] : -1;
  nd->y_rows = n;
  if (n > INT64_MAX / (nd->x_dim ? nd->x_dim : 1) || !(x = realloc(nd->x, (size_t)((n ? n : 1) * (nd->x_dim ? nd->x_dim : 1)) * sizeof *x))) {
    rc = FO_FAIL(FO_ENOMEM, "features");
    goto out;
  }
  memset(x + n_content * nd->x_dim, 0, (size_t)((n - n_content) * nd->x_dim) * sizeof *x);
  nd->x = x;
  nd->x_rows = n;
  nd->x_src = FO_FEATURES_FLOAT32;
out:
  free(rank);
  free(order);
  return rc;
}

int fo__parse_planetoid(const char *const *inputs, int n_inputs, const fo_import_opts *o,
                        fo__graph_input *in) {
  const char *content = NULL, *cites = NULL;
  fo__progress prog;
  uint64_t total = 0, base = 0;
  fo__strmap *classes = NULL;
  int64_t *cls = NULL, cap_cls = 0;
  int rc;
  if (n_inputs != 2)
    return FO_FAIL(FO_EINVAL, "planetoid needs 2 inputs (<name>.content and <name>.cites), got %d",
                   n_inputs);
  if (o->relabel || o->num_nodes >= 0)
    return FO_FAIL(FO_EINVAL, "planetoid ids are strings: --relabel and --num-nodes do not apply");
  if ((rc = fo__strmap_create(&classes)) != FO_OK) return rc;
  for (int i = 0; i < 2; i++) {
    if (has_part(inputs[i], ".content") && !content) content = inputs[i];
    else if (has_part(inputs[i], ".cites") && !cites) cites = inputs[i];
  }
  if (!content || !cites) {
    fo__strmap_destroy(classes);
    return FO_FAIL(FO_EINVAL, "planetoid needs one '*.content' and one '*.cites' file, got '%s' "
                   "and '%s'", inputs[0], inputs[1]);
  }
  if ((rc = fo__strmap_create(&in->orig_str)) != FO_OK) goto out;
  total = fo__file_bytes(content) + fo__file_bytes(cites); /* stat: a FIFO opens once */
  base = fo__file_bytes(content);
  fo__progress_start(&prog, o->progress, "import", total);
  rc = parse_content(content, o, &prog, in, classes, &cls, &cap_cls);
  if (rc == FO_OK) {
    /* the papers of the content file are nodes 0..n_content-1; the class names, sorted,
     * become labels 0..C-1 */
    int64_t n_content = fo__strmap_count(in->orig_str), C = fo__strmap_count(classes);
    rc = parse_cites(cites, o, &prog, &base, in);
    if (rc == FO_OK) rc = finish_node_data(in, classes, cls, n_content, C);
  }
  fo__progress_end(&prog);
  in->n_nodes = rc == FO_OK ? fo__strmap_count(in->orig_str) : -1;
out:
  fo__strmap_destroy(classes);
  free(cls);
  return rc;
}
