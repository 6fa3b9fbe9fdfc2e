/*
 * io/typed.c: typed (heterogeneous) imports into a format_version 2 dataset (docs/FORMAT.md,
 * "Typed (heterogeneous) datasets"), in two forms:
 *  - one edge list file per edge type (--edge-type SRC,REL,DST FILE), ids local to their node
 *    types: integers kept, strings interned per type (--string-ids), or looked up in a type's
 *    id list (--node-ids TYPE=FILE);
 *  - one typed edge list with a relation column (--edge-type-col K): node ids are global
 *    tokens whose types come from --node-types FILE, --node-ids TYPE=FILE lists or
 *    --default-node-type; each line's edge type is (type of src, rel, type of dst).
 * Then, per edge type, build.c's steps (self loops and undirected for types with src = dst,
 * dedup, CSC/CSR, edge ids, edge_orig) write the arrays "e<k>.*"; per node type nodedata.c
 * writes "n<k>.*"; --reverse-edges appends the reverse types (d, rev_r, s) for s != d.
 * Labels-only (supervision) edge types (--supervision-edges / --supervision-negatives
 * S__R__D=FILE, or relations named by --labels-only / --negative-labels) are read after the
 * graph's edge types, so their ids can only name nodes the graph has, and are written last
 * with "labels_only" (CSC and CSR, no reverse type, no undirected copy); a dataset with one is
 * format_version 3, so that readers of version 2 refuse it rather than traverse its labels.
 *
 * Integer keys are interned as their 8 bytes, so one table (strmap.c) serves both id kinds.
 */
#include "io/io_internal.h"
#include "store/store_internal.h"

#define MAX_NAME FO_TYPE_NAME_MAX
#define FORMAT_VERSION_TYPED 2
#define FORMAT_VERSION_LABELS 3 /* with labels-only (supervision) edge types */

typedef enum id_mode { IDS_KEEP = 0, IDS_LIST = 1, IDS_INTERN = 2 } id_mode;

typedef struct ntype {
  char name[MAX_NAME + 1];
  int64_t n;                      /* nodes (IDS_KEEP: largest id + 1 so far) */
  id_mode mode;                   /* one file per edge type */
  fo__strmap *ids;                /* IDS_LIST, IDS_INTERN: key -> local id */
  int64_t *gids, n_gids, cap_gids; /* one-file form: global node of each local id */
  const fo_import_node_type *opt; /* its settings, or NULL */
  uint8_t *touched;               /* [n]: has an edge (for the isolated count) */
  fo__node_data nd;
  int64_t *time, n_time;          /* --node-time TYPE=T.npy: [n_time] (checked against n), or NULL */
  bool in_memory;                 /* nd came read (fo__import_typed_graph), not from opt */
  const char *x_file, *y_file;    /* in_memory: nd's sources, for messages (borrowed) */
} ntype;

typedef struct etype {
  int src, dst;
  char rel[MAX_NAME + 1];
  const char *path; /* one file per edge type */
  fo__edges edges;  /* local ids, in input order */
  double *w;        /* --edge-weight or --weight-col: [edges.n] in input order, or NULL */
  int label;        /* 0: traversed; FO_LABEL_POSITIVE / _NEGATIVE: labels only */
  int w_bytes;      /* 4 or 8: stored dtype */
  int64_t *tm;      /* --edge-time or --time-col: [edges.n] in input order, or NULL */
  int64_t cap_w, cap_tm; /* the columns' growth */
} etype;

typedef struct typed {
  const fo_import_opts *o;
  ntype *nt;
  int n_nt;
  int64_t cap_nt;
  etype *et;
  int n_et;
  int64_t cap_et;
  /* one-file form */
  fo__strmap *nodes;       /* key -> global node */
  int32_t *g_type;         /* [global node] */
  int64_t *g_local;        /* [global node] */
  int64_t cap_g, cap_gl;
  fo__strmap *rels;        /* relation -> relation number */
  int32_t *triple;         /* [(rel * n_nt + s) * n_nt + d] -> edge type or -1 */
  int64_t n_rel_slots;
  fo__progress prog;
  uint64_t base;
  unsigned char esplit_seen[FO_IMPORT_MAX_EDGE_SPLIT_TYPES]; /* edge_split.c */
  bool label_pass;         /* reading labels-only files: ids never add nodes */
  int n_label;             /* labels-only edge types among et */
} typed;

/* ---- names ---------------------------------------------------------------------------------- */

/* NULL if s[len] is a valid node type (relation: relation name), else why not. The rule is
 * the reader's (fo__type_name_ok, docs/FORMAT.md); this only finds the reason. */
static const char *name_problem(const char *s, size_t len, bool relation) {
  char buf[MAX_NAME + 1];
  if (memchr(s, '\0', len)) return "it contains a NUL byte";
  if (len >= 1 && len <= MAX_NAME) {
    memcpy(buf, s, len);
    buf[len] = '\0';
    if (fo__type_name_ok(buf, relation)) return NULL;
  }
  if (len == 0) return "it is empty";
  if (len > MAX_NAME) return "it is longer than 64 bytes";
  for (size_t i = 0; i < len; i++) {
    unsigned char c = (unsigned char)s[i];
    if (c <= ' ' || c >= 127) return "only printable ASCII without whitespace is allowed";
    if (c == ',' || c == ':' || c == '"' || c == '/')
      return "it contains one of , : \" /";
    if (!relation && (c == '=' || c == '\\')) return "a node type contains none of = \\";
    if (i + 1 < len && c == '_' && s[i + 1] == '_') return "it contains \"__\"";
  }
  if (s[0] == '_' || s[len - 1] == '_') return "it starts or ends with '_'";
  return "it breaks the name rules of docs/FORMAT.md";
}

bool fo__valid_type_name(const char *s, size_t len, bool relation) {
  return name_problem(s, len, relation) == NULL;
}

static int check_name(const char *s, bool relation, const char *where) {
  const char *why = name_problem(s, strlen(s), relation);
  if (why)
    return FO_FAIL(FO_EINVAL, "%s: %s '%s' is not a valid name (%s)", where,
                   relation ? "relation" : "node type", s, why);
  return FO_OK;
}

/* ---- tables --------------------------------------------------------------------------------- */

static int find_type(const typed *T, const char *s, size_t len) {
  for (int i = 0; i < T->n_nt; i++)
    if (strlen(T->nt[i].name) == len && !memcmp(T->nt[i].name, s, len)) return i;
  return -1;
}

static int add_type(typed *T, const char *s, size_t len, int *out) {
  int rc, k = find_type(T, s, len);
  if (k >= 0) {
    *out = k;
    return FO_OK;
  }
  if ((rc = fo__grow(&T->nt, &T->cap_nt, T->n_nt + 1, sizeof *T->nt, "node types")) != FO_OK)
    return rc;
  memset(&T->nt[T->n_nt], 0, sizeof T->nt[0]);
  memcpy(T->nt[T->n_nt].name, s, len);
  T->nt[T->n_nt].name[len] = '\0';
  *out = T->n_nt++;
  return FO_OK;
}

static int add_etype(typed *T, int src, const char *rel, size_t rlen, int dst, const char *path,
                     int *out) {
  int rc;
  etype *e;
  if ((rc = fo__grow(&T->et, &T->cap_et, T->n_et + 1, sizeof *T->et, "edge types")) != FO_OK)
    return rc;
  e = &T->et[T->n_et];
  memset(e, 0, sizeof *e);
  e->src = src;
  e->dst = dst;
  memcpy(e->rel, rel, rlen);
  e->rel[rlen] = '\0';
  e->path = path;
  *out = T->n_et++;
  return FO_OK;
}

static void et_name(const typed *T, int src, const char *rel, int dst, char *buf, size_t cap) {
  snprintf(buf, cap, "%s__%s__%s", T->nt[src].name, rel, T->nt[dst].name);
}

/* Whether rel[rlen] is an entry of the comma list `list`. */
static bool rel_listed(const char *list, const char *rel, size_t rlen) {
  for (const char *p = list; p && *p;) {
    size_t n = strcspn(p, ",");
    if (n == rlen && !memcmp(p, rel, rlen)) return true;
    p += n + (p[n] == ',');
  }
  return false;
}

/* The label of a new edge type with relation rel[rlen]: --labels-only, --negative-labels. */
static int rel_label(const fo_import_opts *o, const char *rel, size_t rlen, int *label) {
  const bool pos = rel_listed(o->labels_only, rel, rlen), neg = rel_listed(o->negative_labels, rel, rlen);
  if (pos && neg)
    return FO_FAIL(FO_EINVAL, "relation '%.*s' is in both --labels-only and --negative-labels",
                   (int)rlen, rel);
  *label = pos ? FO_LABEL_POSITIVE : neg ? FO_LABEL_NEGATIVE : 0;
  return FO_OK;
}

/* The key of an id token: the token itself (string ids) or the 8 bytes of its integer. */
static int id_key(const typed *T, const fo__reader *r, const char *tok, size_t tlen, char *kb,
                  const char **key, size_t *klen) {
  int64_t v;
  int rc;
  if (T->o->string_ids) {
    *key = tok;
    *klen = tlen;
    return FO_OK;
  }
  if ((rc = fo__parse_int_token(r, tok, tlen, &v)) != FO_OK) return rc;
  memcpy(kb, &v, 8);
  *key = kb;
  *klen = 8;
  return FO_OK;
}

/* ---- line reading ---------------------------------------------------------------------------- */

typedef int (*line_fn)(typed *T, const fo__reader *r, const char *const *tok, const size_t *tlen,
                       void *arg);

/* Call fn for every non-comment line of `path` with the fields at cols[0..n_cols). */
static int read_fields(typed *T, const char *path, const int32_t *cols, int n_cols,
                       const char *expect, line_fn fn, void *arg) {
  fo__reader r;
  char *line;
  size_t len;
  int rc = FO_OK, k;
  int32_t last = 0;
  for (int c = 0; c < n_cols; c++)
    if (cols[c] > last) last = cols[c];
  if ((rc = fo__reader_open(&r, path)) != FO_OK) return rc;
  r.progress = &T->prog;
  r.progress_base = &T->base;
  r.cancel = T->o->cancel;
  while ((k = fo__reader_next(&r, &line, &len)) == 1) {
    const char *tok[5] = {NULL, NULL, NULL, NULL, NULL}, *t;
    size_t tl[5] = {0, 0, 0, 0, 0}, i = 0, l;
    int32_t col = 0;
    bool missing = false;
    while (i < len && (line[i] == ' ' || line[i] == '\t')) i++;
    if (i == len || line[i] == '#' || line[i] == '%') continue;
    for (; col <= last && fo__next_token(line, len, &i, &t, &l); col++)
      for (int c = 0; c < n_cols; c++)
        if (cols[c] == col) tok[c] = t, tl[c] = l;
    if (col == 0) continue;
    for (int c = 0; c < n_cols; c++) missing |= tok[c] == NULL;
    if (missing) {
      rc = FO_FAIL(FO_EFORMAT, "%s:%lld: expected %s, got %d field%s: '%.*s'", r.path,
                   (long long)r.lineno, expect, (int)col, col == 1 ? "" : "s",
                   (int)(len > 60 ? 60 : len), line);
      break;
    }
    if ((rc = fn(T, &r, tok, tl, arg)) != FO_OK) break;
  }
  if (k < 0 && rc == FO_OK) rc = k;
  T->base += r.file_bytes;
  fo__reader_close(&r);
  return rc;
}

/* ---- one file per edge type ------------------------------------------------------------------ */

/* Local id of an endpoint of type t. */
static int local_id(typed *T, const fo__reader *r, int t, const char *tok, size_t tlen,
                    int64_t *out) {
  ntype *nt = &T->nt[t];
  char kb[8];
  const char *key;
  size_t klen;
  int rc;
  if (nt->mode == IDS_KEEP) {
    if ((rc = fo__parse_int_token(r, tok, tlen, out)) != FO_OK) return rc;
    if (*out < 0)
      return FO_FAIL(FO_ERANGE, "%s:%lld: node id %lld of type '%s' is negative", r->path,
                     (long long)r->lineno, (long long)*out, nt->name);
    if (nt->opt && nt->opt->num_nodes >= 0 && *out >= nt->opt->num_nodes)
      return FO_FAIL(FO_ERANGE, "%s:%lld: node id %lld of type '%s' is >= --num-nodes %s=%lld",
                     r->path, (long long)r->lineno, (long long)*out, nt->name, nt->name,
                     (long long)nt->opt->num_nodes);
    if (*out == INT64_MAX)
      return FO_FAIL(FO_ERANGE, "%s:%lld: node id %lld is too large", r->path,
                     (long long)r->lineno, (long long)*out);
    if (T->label_pass && *out >= nt->n)
      return FO_FAIL(FO_ERANGE, "%s:%lld: node id %lld is not a node of type '%s' (the graph "
                     "has %lld; supervision edges never add nodes)", r->path, (long long)r->lineno,
                     (long long)*out, nt->name, (long long)nt->n);
    if (*out >= nt->n) nt->n = *out + 1;
    return FO_OK;
  }
  if ((rc = id_key(T, r, tok, tlen, kb, &key, &klen)) != FO_OK) return rc;
  if ((rc = fo__strmap_get(nt->ids, key, klen, nt->mode == IDS_INTERN && !T->label_pass, out,
                           NULL)) != FO_OK)
    return rc;
  if (*out < 0 && nt->mode == IDS_INTERN)
    return FO_FAIL(FO_ERANGE, "%s:%lld: node id '%.*s' is not a node of type '%s' (it is in no "
                   "edge of the graph; supervision edges never add nodes)", r->path,
                   (long long)r->lineno, (int)(tlen > 40 ? 40 : tlen), tok, nt->name);
  if (*out < 0)
    return FO_FAIL(FO_ERANGE, "%s:%lld: node id '%.*s' of type '%s' is not in --node-ids %s=%s",
                   r->path, (long long)r->lineno, (int)(tlen > 40 ? 40 : tlen), tok, nt->name,
                   nt->name, nt->opt->node_ids);
  return FO_OK;
}

/* The value columns of an edge line (--weight-col, --time-col: tokens wt, tt, or NULL), parsed
 * as the untyped edge list parses them, appended to e's columns. */
static int push_values(typed *T, const fo__reader *r, etype *e, const char *wt, size_t wl,
                       const char *tt, size_t tl) {
  int rc;
  if (wt) {
    if ((rc = fo__grow(&e->w, &e->cap_w, e->edges.n + 1, sizeof *e->w, "edge weights")) != FO_OK ||
        (rc = fo__parse_weight_token(r, wt, wl, &e->w[e->edges.n])) != FO_OK)
      return rc;
    e->w_bytes = 4;
  }
  if (tt && ((rc = fo__grow(&e->tm, &e->cap_tm, e->edges.n + 1, sizeof *e->tm, "edge times")) != FO_OK ||
             (rc = fo__parse_time_token(r, tt, tl, T->o->time_format, &e->tm[e->edges.n])) != FO_OK))
    return rc;
  return FO_OK;
}

/* The columns an edge line is read at: the id columns (and the relation's), then --weight-col
 * and --time-col when given; *wi, *ti: their places (-1: none). */
static int value_cols(const fo_import_opts *o, int32_t *cols, int n, int *wi, int *ti) {
  *wi = *ti = -1;
  if (o->weight_column >= 0) cols[*wi = n++] = o->weight_column;
  if (o->time_column >= 0) cols[*ti = n++] = o->time_column;
  return n;
}

/* What an edge line must hold, for messages: `ids`, then the value columns. */
static const char *value_expect(const fo_import_opts *o, const char *ids, char *buf, size_t cap) {
  int at = snprintf(buf, cap, "%s", ids);
  if (o->weight_column >= 0 && at >= 0 && (size_t)at < cap)
    at += snprintf(buf + at, cap - (size_t)at, ", a weight in column %d", (int)o->weight_column);
  if (o->time_column >= 0 && at >= 0 && (size_t)at < cap)
    snprintf(buf + at, cap - (size_t)at, ", a time in column %d", (int)o->time_column);
  return buf;
}

static int on_edge_line(typed *T, const fo__reader *r, const char *const *tok, const size_t *tl,
                        void *arg) {
  etype *e = arg;
  int32_t cols[4];
  int wi, ti;
  int64_t s, d;
  int rc;
  value_cols(T->o, cols, 2, &wi, &ti);
  if ((rc = local_id(T, r, e->src, tok[0], tl[0], &s)) != FO_OK ||
      (rc = local_id(T, r, e->dst, tok[1], tl[1], &d)) != FO_OK ||
      (rc = push_values(T, r, e, wi >= 0 ? tok[wi] : NULL, wi >= 0 ? tl[wi] : 0,
                        ti >= 0 ? tok[ti] : NULL, ti >= 0 ? tl[ti] : 0)) != FO_OK)
    return rc;
  return fo__edges_push(&e->edges, s, d);
}

static int on_list_line(typed *T, const fo__reader *r, const char *const *tok, const size_t *tl,
                        void *arg) {
  ntype *nt = arg;
  char kb[8];
  const char *key;
  size_t klen;
  int64_t id;
  bool added;
  int rc;
  if ((rc = id_key(T, r, tok[0], tl[0], kb, &key, &klen)) != FO_OK ||
      (rc = fo__strmap_get(nt->ids, key, klen, true, &id, &added)) != FO_OK)
    return rc;
  if (!added)
    return FO_FAIL(FO_EFORMAT, "%s:%lld: node '%.*s' of type '%s' is listed twice", r->path,
                   (long long)r->lineno, (int)(tl[0] > 40 ? 40 : tl[0]), tok[0], nt->name);
  return FO_OK;
}

/* --supervision-edges / --supervision-negatives S__R__D=FILE: a labels-only edge type between
 * two node types of the import's edge types, with a new name. */
static int add_label_edges(typed *T) {
  const fo_import_opts *o = T->o;
  if (o->n_label_edges < 0 || (o->n_label_edges > 0 && !o->label_edges))
    return FO_FAIL(FO_EINVAL, "bad supervision edge list (n_label_edges %d)", (int)o->n_label_edges);
  for (int i = 0; i < o->n_label_edges; i++) {
    const fo_import_label_edges *le = &o->label_edges[i];
    const char *opt = le->negative ? "--supervision-negatives" : "--supervision-edges";
    const char *a = le->edge_type, *p1 = a ? strstr(a, "__") : NULL;
    const char *p2 = p1 ? strstr(p1 + 2, "__") : NULL;
    int s, d, k, rc;
    char list[512] = "";
    if (!le->edge_type || !le->path)
      return FO_FAIL(FO_EINVAL, "%s %d: edge type or path is NULL", opt, i + 1);
    while (p2 && strstr(p2 + 2, "__")) p2 = strstr(p2 + 2, "__"); /* relations hold no "__" */
    if (!p2 || p2 == p1 + 2 || p1 == a || !p2[2])
      return FO_FAIL(FO_EINVAL, "%s %s=%s: '%s' is not SRC__REL__DST", opt, a, le->path, a);
    {
      char rel[MAX_NAME + 1];
      const size_t rl = (size_t)(p2 - p1 - 2);
      if (rl > MAX_NAME)
        return FO_FAIL(FO_EINVAL, "%s %s: the relation is longer than %d bytes", opt, a, MAX_NAME);
      memcpy(rel, p1 + 2, rl);
      rel[rl] = '\0';
      if ((rc = check_name(rel, true, opt)) != FO_OK) return rc;
    }
    s = find_type(T, a, (size_t)(p1 - a));
    d = find_type(T, p2 + 2, strlen(p2 + 2));
    for (int j = 0; j < T->n_nt; j++)
      snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", j ? ", " : "", T->nt[j].name);
    if (s < 0 || d < 0)
      return FO_FAIL(FO_EINVAL, "%s %s=%s: node type '%.*s' is not a node type of the edge types "
                     "(node types: %s)", opt, a, le->path, s < 0 ? (int)(p1 - a) : (int)strlen(p2 + 2),
                     s < 0 ? a : p2 + 2, list);
    for (int j = 0; j < T->n_et; j++) {
      char nm[3 * MAX_NAME + 8];
      et_name(T, T->et[j].src, T->et[j].rel, T->et[j].dst, nm, sizeof nm);
      if (!strcmp(nm, a))
        return FO_FAIL(FO_EINVAL, "%s %s=%s: edge type '%s' is given already (as '%s')", opt, a,
                       le->path, a, T->et[j].path);
    }
    if ((rc = add_etype(T, s, p1 + 2, (size_t)(p2 - p1 - 2), d, le->path, &k)) != FO_OK) return rc;
    T->et[k].label = le->negative ? FO_LABEL_NEGATIVE : FO_LABEL_POSITIVE;
  }
  return FO_OK;
}

static int parse_per_type(typed *T) {
  const fo_import_opts *o = T->o;
  int32_t cols[4] = {o->src_column, o->dst_column};
  int wi, ti, n_cols = value_cols(o, cols, 2, &wi, &ti);
  int rc;
  char where[256];
  for (int i = 0; i < o->n_edge_types; i++) {
    const fo_import_edge_type *e = &o->edge_types[i];
    int s, d, k;
    char nm[3 * MAX_NAME + 8];
    if (!e->src || !e->rel || !e->dst || !e->path)
      return FO_FAIL(FO_EINVAL, "edge type %d: src, rel, dst and path must all be set", i + 1);
    snprintf(where, sizeof where, "--edge-type %.70s,%.70s,%.70s", e->src, e->rel, e->dst);
    if ((rc = check_name(e->src, false, where)) != FO_OK ||
        (rc = check_name(e->rel, true, where)) != FO_OK ||
        (rc = check_name(e->dst, false, where)) != FO_OK)
      return rc;
    if ((rc = add_type(T, e->src, strlen(e->src), &s)) != FO_OK ||
        (rc = add_type(T, e->dst, strlen(e->dst), &d)) != FO_OK)
      return rc;
    for (int j = 0; j < T->n_et; j++)
      if (T->et[j].src == s && T->et[j].dst == d && !strcmp(T->et[j].rel, e->rel)) {
        et_name(T, s, e->rel, d, nm, sizeof nm);
        return FO_FAIL(FO_EINVAL, "--edge-type %s given twice ('%s' and '%s')", nm,
                       T->et[j].path, e->path);
      }
    if ((rc = add_etype(T, s, e->rel, strlen(e->rel), d, e->path, &k)) != FO_OK ||
        (rc = rel_label(o, e->rel, strlen(e->rel), &T->et[k].label)) != FO_OK)
      return rc;
  }
  if ((rc = add_label_edges(T)) != FO_OK) return rc;
  for (int i = 0; i < o->n_node_type_opts; i++) {
    const fo_import_node_type *nto = &o->node_type_opts[i];
    int t = nto->name ? find_type(T, nto->name, strlen(nto->name)) : -1;
    if (t < 0) {
      char list[512] = "";
      for (int j = 0; j < T->n_nt; j++)
        snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", j ? ", " : "", T->nt[j].name);
      return FO_FAIL(FO_EINVAL, "%s: no node type '%s' in the edge types (node types: %s)",
                     nto->num_nodes >= 0 ? "--num-nodes" : nto->node_ids ? "--node-ids"
                     : nto->features ? "--features" : nto->labels ? "--labels"
                     : nto->splits ? "--split" : "node type options",
                     nto->name ? nto->name : "(null)", list);
    }
    if (T->nt[t].opt)
      return FO_FAIL(FO_EINVAL, "node type '%s' has two entries in the node type options",
                     nto->name);
    T->nt[t].opt = nto;
    if (nto->num_nodes < -1)
      return FO_FAIL(FO_EINVAL, "--num-nodes %s=%lld: negative", nto->name, (long long)nto->num_nodes);
    if (nto->num_nodes >= 0 && nto->node_ids)
      return FO_FAIL(FO_EINVAL, "--num-nodes %s and --node-ids %s: the id list fixes the count",
                     nto->name, nto->name);
    if (nto->num_nodes >= 0 && o->string_ids)
      return FO_FAIL(FO_EINVAL, "--num-nodes %s: --string-ids numbers the ids itself (give "
                     "--node-ids %s=FILE to fix the count)", nto->name, nto->name);
  }
  for (int t = 0; t < T->n_nt; t++) {
    ntype *nt = &T->nt[t];
    nt->mode = nt->opt && nt->opt->node_ids ? IDS_LIST : o->string_ids ? IDS_INTERN : IDS_KEEP;
    if (nt->mode != IDS_KEEP && (rc = fo__strmap_create(&nt->ids)) != FO_OK) return rc;
    if (nt->mode == IDS_LIST) {
      const int32_t c0[1] = {0};
      if ((rc = read_fields(T, nt->opt->node_ids, c0, 1, "a node id", on_list_line, nt)) != FO_OK)
        return rc;
    }
  }
  for (int i = 0; i < T->n_et; i++)
    if (!T->et[i].label &&
        (rc = read_fields(T, T->et[i].path, cols, n_cols, value_expect(o, "two node ids", where, sizeof where),
                          on_edge_line, &T->et[i])) != FO_OK)
      return rc;
  for (int t = 0; t < T->n_nt; t++) {
    ntype *nt = &T->nt[t];
    int64_t m = 0;
    if (nt->mode != IDS_KEEP) {
      nt->n = fo__strmap_count(nt->ids);
      continue;
    }
    if (nt->opt && nt->opt->num_nodes >= 0) {
      nt->n = nt->opt->num_nodes;
      continue;
    }
    for (int i = 0; i < T->n_et; i++)
      if (T->et[i].src == t || T->et[i].dst == t) m += T->et[i].edges.n;
    if (nt->n > ((int64_t)1 << 24) && nt->n / 64 > m + 1)
      return FO_FAIL(FO_ERANGE, "node type '%s': the largest node id %lld implies %lld nodes for "
                     "%lld edges: give --num-nodes %s=%lld to confirm", nt->name,
                     (long long)(nt->n - 1), (long long)nt->n, (long long)m, nt->name, (long long)nt->n);
  }
  /* labels-only types last: the node sets are fixed now, and their ids must be in them */
  T->label_pass = true;
  for (int i = 0; i < T->n_et; i++) {
    etype *e = &T->et[i];
    char nm[3 * MAX_NAME + 8];
    if (!e->label) continue;
    if ((rc = read_fields(T, e->path, cols, 2, "two node ids", on_edge_line, e)) != FO_OK) return rc;
    if (e->edges.n) continue;
    /* an empty file: positives are what ABLP trains on (an error); hard negatives are
     * optional per anchor in GiGL (a warning, stored empty) -- docs/IMPORT.md */
    et_name(T, e->src, e->rel, e->dst, nm, sizeof nm);
    if (e->label == FO_LABEL_POSITIVE)
      return FO_FAIL(FO_EFORMAT, "labels-only (supervision) edge type '%s': '%s' has no edges: no "
                     "anchor would have a positive label; check the file, or leave the type out",
                     nm, e->path);
    FO_LOG(FO_LOG_WARN, "hard-negative (supervision) edge type '%s': '%s' has no edges: stored "
           "empty, no anchor gets a hard negative", nm, e->path);
  }
  T->label_pass = false;
  return FO_OK;
}

/* ---- one typed edge list --------------------------------------------------------------------- */

/* Give the node with key[klen] type t (it must be new): global id and local index. */
static int add_node(typed *T, int t, const char *key, size_t klen, bool *added) {
  int64_t g;
  int rc;
  ntype *nt = &T->nt[t];
  if ((rc = fo__strmap_get(T->nodes, key, klen, true, &g, added)) != FO_OK || !*added) return rc;
  if ((rc = fo__grow(&T->g_type, &T->cap_g, g + 1, sizeof *T->g_type, "node types")) != FO_OK ||
      (rc = fo__grow(&T->g_local, &T->cap_gl, g + 1, sizeof *T->g_local, "node types")) != FO_OK ||
      (rc = fo__grow(&nt->gids, &nt->cap_gids, nt->n_gids + 1, sizeof *nt->gids, "node types")) != FO_OK)
    return rc;
  T->g_type[g] = t;
  T->g_local[g] = nt->n_gids;
  nt->gids[nt->n_gids++] = g;
  return FO_OK;
}

static int on_type_line(typed *T, const fo__reader *r, const char *const *tok, const size_t *tl,
                        void *arg) {
  char kb[8];
  const char *key, *why = name_problem(tok[1], tl[1], false);
  size_t klen;
  int t, rc;
  bool added;
  (void)arg;
  if (why)
    return FO_FAIL(FO_EFORMAT, "%s:%lld: node type '%.*s' is not a valid name (%s)", r->path,
                   (long long)r->lineno, (int)(tl[1] > 70 ? 70 : tl[1]), tok[1], why);
  if ((rc = id_key(T, r, tok[0], tl[0], kb, &key, &klen)) != FO_OK ||
      (rc = add_type(T, tok[1], tl[1], &t)) != FO_OK || (rc = add_node(T, t, key, klen, &added)) != FO_OK)
    return rc;
  if (!added)
    return FO_FAIL(FO_EFORMAT, "%s:%lld: node '%.*s' is listed twice", r->path,
                   (long long)r->lineno, (int)(tl[0] > 40 ? 40 : tl[0]), tok[0]);
  return FO_OK;
}

static int on_typed_list_line(typed *T, const fo__reader *r, const char *const *tok,
                              const size_t *tl, void *arg) {
  int t = (int)(intptr_t)arg, rc;
  char kb[8];
  const char *key;
  size_t klen;
  bool added;
  if ((rc = id_key(T, r, tok[0], tl[0], kb, &key, &klen)) != FO_OK ||
      (rc = add_node(T, t, key, klen, &added)) != FO_OK)
    return rc;
  if (!added) {
    int64_t g;
    fo__strmap_get(T->nodes, key, klen, false, &g, NULL);
    return FO_FAIL(FO_EFORMAT, "%s:%lld: node '%.*s' is listed twice (it has type '%s' already)",
                   r->path, (long long)r->lineno, (int)(tl[0] > 40 ? 40 : tl[0]), tok[0],
                   T->nt[T->g_type[g]].name);
  }
  return FO_OK;
}

/* Global node of an endpoint; with a default type, unknown endpoints join it. */
static int endpoint(typed *T, const fo__reader *r, const char *tok, size_t tlen, int def,
                    int64_t *g) {
  char kb[8];
  const char *key;
  size_t klen;
  bool added;
  int rc;
  if ((rc = id_key(T, r, tok, tlen, kb, &key, &klen)) != FO_OK ||
      (rc = fo__strmap_get(T->nodes, key, klen, false, g, NULL)) != FO_OK)
    return rc;
  if (*g >= 0) return FO_OK;
  if (def < 0)
    return FO_FAIL(FO_EFORMAT, "%s:%lld: node '%.*s' has no type (it is in no --node-types or "
                   "--node-ids list, and no --default-node-type is given)", r->path,
                   (long long)r->lineno, (int)(tlen > 40 ? 40 : tlen), tok);
  if ((rc = add_node(T, def, key, klen, &added)) != FO_OK) return rc;
  return fo__strmap_get(T->nodes, key, klen, false, g, NULL);
}

static int on_typed_edge(typed *T, const fo__reader *r, const char *const *tok, const size_t *tl,
                         void *arg) {
  int def = (int)(intptr_t)arg, rc, s, d;
  int64_t gs, gd, rel;
  bool added;
  const char *why = name_problem(tok[1], tl[1], true);
  int32_t *slot;
  if (why)
    return FO_FAIL(FO_EFORMAT, "%s:%lld: relation '%.*s' is not a valid name (%s)", r->path,
                   (long long)r->lineno, (int)(tl[1] > 70 ? 70 : tl[1]), tok[1], why);
  if ((rc = endpoint(T, r, tok[0], tl[0], def, &gs)) != FO_OK ||
      (rc = endpoint(T, r, tok[2], tl[2], def, &gd)) != FO_OK ||
      (rc = fo__strmap_get(T->rels, tok[1], tl[1], true, &rel, &added)) != FO_OK)
    return rc;
  if (added) {
    int64_t per = (int64_t)T->n_nt * T->n_nt, old = T->n_rel_slots;
    if ((rc = fo__grow(&T->triple, &T->n_rel_slots, (rel + 1) * per, sizeof *T->triple,
                       "edge types")) != FO_OK)
      return rc;
    for (int64_t i = old; i < T->n_rel_slots; i++) T->triple[i] = -1;
  }
  s = T->g_type[gs];
  d = T->g_type[gd];
  slot = &T->triple[(rel * T->n_nt + s) * T->n_nt + d];
  if (*slot < 0) {
    int k;
    if ((rc = add_etype(T, s, tok[1], tl[1], d, NULL, &k)) != FO_OK ||
        (rc = rel_label(T->o, tok[1], tl[1], &T->et[k].label)) != FO_OK)
      return rc;
    *slot = k;
  }
  {
    int32_t cols[5];
    int wi, ti;
    value_cols(T->o, cols, 3, &wi, &ti);
    if ((rc = push_values(T, r, &T->et[*slot], wi >= 0 ? tok[wi] : NULL, wi >= 0 ? tl[wi] : 0,
                          ti >= 0 ? tok[ti] : NULL, ti >= 0 ? tl[ti] : 0)) != FO_OK)
      return rc;
  }
  return fo__edges_push(&T->et[*slot].edges, T->g_local[gs], T->g_local[gd]);
}

static int parse_one_file(typed *T, const char *const *inputs, int n_inputs) {
  const fo_import_opts *o = T->o;
  const int32_t tcols[2] = {0, 1}, c0[1] = {0};
  int32_t ecols[5] = {o->src_column, o->edge_type_column, o->dst_column};
  int wi, ti, n_ecols = value_cols(o, ecols, 3, &wi, &ti);
  char expect[160];
  int rc, def = -1;
  if (o->edge_type_column == o->src_column || o->edge_type_column == o->dst_column)
    return FO_FAIL(FO_EINVAL, "--edge-type-col %d is also a node id column of --columns %d,%d",
                   (int)o->edge_type_column, (int)o->src_column, (int)o->dst_column);
  if (o->edge_type_column == o->weight_column || o->edge_type_column == o->time_column)
    return FO_FAIL(FO_EINVAL, "--edge-type-col %d is also the %s column", (int)o->edge_type_column,
                   o->edge_type_column == o->weight_column ? "--weight-col" : "--time-col");
  if (!o->node_types && !o->default_node_type) {
    bool lists = false;
    for (int i = 0; i < o->n_node_type_opts; i++) lists |= o->node_type_opts[i].node_ids != NULL;
    if (!lists)
      return FO_FAIL(FO_EINVAL, "--edge-type-col needs node types: --node-types FILE, "
                     "--node-ids TYPE=FILE or --default-node-type TYPE");
  }
  if ((rc = fo__strmap_create(&T->nodes)) != FO_OK || (rc = fo__strmap_create(&T->rels)) != FO_OK)
    return rc;
  if (o->node_types &&
      (rc = read_fields(T, o->node_types, tcols, 2, "'node_id<TAB>type'", on_type_line, NULL)) != FO_OK)
    return rc;
  for (int i = 0; i < o->n_node_type_opts; i++) {
    const fo_import_node_type *nto = &o->node_type_opts[i];
    int t;
    if (!nto->node_ids) continue;
    if ((rc = check_name(nto->name ? nto->name : "", false, "--node-ids")) != FO_OK ||
        (rc = add_type(T, nto->name, strlen(nto->name), &t)) != FO_OK)
      return rc;
    if (T->nt[t].opt)
      return FO_FAIL(FO_EINVAL, "--node-ids %s given twice", nto->name);
    T->nt[t].opt = nto;
    if ((rc = read_fields(T, nto->node_ids, c0, 1, "a node id", on_typed_list_line,
                          (void *)(intptr_t)t)) != FO_OK)
      return rc;
  }
  if (o->default_node_type) {
    if ((rc = check_name(o->default_node_type, false, "--default-node-type")) != FO_OK ||
        (rc = add_type(T, o->default_node_type, strlen(o->default_node_type), &def)) != FO_OK)
      return rc;
  }
  for (int i = 0; i < o->n_node_type_opts; i++) {
    const fo_import_node_type *nto = &o->node_type_opts[i];
    int t;
    if (nto->node_ids) continue;
    if (nto->num_nodes >= 0)
      return FO_FAIL(FO_EINVAL, "--num-nodes %s: with --edge-type-col the node lists fix the "
                     "counts", nto->name ? nto->name : "(null)");
    t = nto->name ? find_type(T, nto->name, strlen(nto->name)) : -1;
    if (t < 0)
      return FO_FAIL(FO_EINVAL, "%s: no node type '%s' in --node-types, --node-ids or "
                     "--default-node-type", nto->features ? "--features" : nto->labels ? "--labels"
                     : nto->splits ? "--split" : "node type options", nto->name ? nto->name : "(null)");
    if (T->nt[t].opt)
      return FO_FAIL(FO_EINVAL, "node type '%s' has two entries in the node type options", nto->name);
    T->nt[t].opt = nto;
  }
  for (int f = 0; f < n_inputs; f++)
    if ((rc = read_fields(T, inputs[f], ecols, n_ecols,
                          value_expect(o, "a node id, a relation and a node id", expect, sizeof expect),
                          on_typed_edge, (void *)(intptr_t)def)) != FO_OK)
      return rc;
  for (int t = 0; t < T->n_nt; t++) T->nt[t].n = T->nt[t].n_gids;
  return FO_OK;
}

/* ---- writing ----------------------------------------------------------------------------------- */

/* n<k>.node_orig (integers) or n<k>.node_orig_offsets + _bytes (strings) of node type t, when
 * its ids are not kept as they are; sets obj's "node_orig". */
static int write_node_orig(typed *T, int t, const char *prefix, fo__writer *w, json_t *obj) {
  ntype *nt = &T->nt[t];
  const fo__strmap *sm = T->nodes ? T->nodes : nt->ids;
  const int64_t *which = T->nodes ? nt->gids : NULL;
  int64_t *vals;
  char name[48];
  int rc;
  if (!T->nodes && nt->mode == IDS_KEEP) return FO_OK;
  if (T->o->string_ids) return fo__write_string_ids(w, obj, prefix, sm, which, nt->n);
  snprintf(name, sizeof name, "%snode_orig", prefix);
  if (!(vals = fo__malloc_n(nt->n, sizeof *vals))) return FO_FAIL(FO_ENOMEM, "node_orig");
  for (int64_t i = 0; i < nt->n; i++) {
    size_t len;
    memcpy(&vals[i], fo__strmap_str(sm, which ? which[i] : i, &len), 8);
  }
  rc = fo__writer_add_i64(w, name, 8, vals, nt->n);
  free(vals);
  if (rc == FO_OK) json_object_set_new(obj, "node_orig", json_string(name));
  return rc;
}

static int write_node_types(typed *T, fo__writer *w, json_t *list) {
  int rc;
  for (int t = 0; t < T->n_nt; t++) {
    ntype *nt = &T->nt[t];
    char prefix[24];
    json_t *obj;
    snprintf(prefix, sizeof prefix, "n%d.", t);
    obj = json_pack("{s:s, s:I, s:s#}", "name", nt->name, "num_nodes", (json_int_t)nt->n, "prefix",
                    prefix, (int)(strlen(prefix) - 1));
    json_array_append_new(list, obj);
    if ((rc = write_node_orig(T, t, prefix, w, obj)) != FO_OK) return rc;
    if (nt->time) {
      char at[48];
      snprintf(at, sizeof at, "%snode_time", prefix);
      if ((rc = fo__writer_add(w, at, "<i8", 1, &nt->n_time, nt->time)) != FO_OK) return rc;
      json_object_set_new(obj, "node_time", json_string(at));
    }
    if (nt->in_memory) {
      nt->nd.allow_nonfinite = T->o->allow_nonfinite;
      if ((rc = fo__node_data_write_as(&nt->nd, nt->n, prefix, nt->x_file, nt->y_file,
                                       T->o->feature_dtype, w, obj)) != FO_OK)
        return fo__context(rc, "node type '%s'", nt->name);
      fo__node_data_free(&nt->nd);
    } else if (nt->opt) {
      char what[MAX_NAME + 32];
      snprintf(what, sizeof what, "node type '%s'", nt->name);
      nt->nd.allow_nonfinite = T->o->allow_nonfinite;
      if ((rc = fo__node_data_load_files(&nt->nd, nt->opt->features, nt->opt->labels,
                                         nt->opt->splits)) != FO_OK ||
          (rc = fo__node_data_write_as(&nt->nd, nt->n, prefix, nt->opt->features, nt->opt->labels,
                                       T->o->feature_dtype, w, obj)) != FO_OK)
        return fo__context(rc, "%s", what);
      fo__node_data_free(&nt->nd);
    }
  }
  return FO_OK;
}

/* One edge type's entry and arrays. */
static int write_etype(typed *T, int k, int src, const char *rel, int dst, const fo__edge_set *es,
                       const etype *wt, int64_t m_input, fo__writer *w, json_t *list) {
  char prefix[24], name[3 * MAX_NAME + 8];
  fo__topology t;
  json_t *obj;
  int rc;
  fo_import_opts lo = *T->o;
  if (wt->label) lo.csc = lo.csr = true; /* the ABLP loader reads an anchor's row of the CSR */
  snprintf(prefix, sizeof prefix, "e%d.", k);
  et_name(T, src, rel, dst, name, sizeof name);
  obj = json_pack("{s:s, s:s, s:s, s:s, s:I, s:s#}", "name", name, "src", T->nt[src].name, "rel",
                  rel, "dst", T->nt[dst].name, "num_edges", (json_int_t)es->m, "prefix", prefix,
                  (int)(strlen(prefix) - 1));
  json_array_append_new(list, obj);
  if (wt->label) {
    json_object_set_new(obj, "labels_only", json_true());
    json_object_set_new(obj, "label", json_string(wt->label == FO_LABEL_NEGATIVE ? "negative" : "positive"));
  }
  if ((rc = fo__topology_build(es, T->nt[src].n, T->nt[dst].n, &lo, &t)) != FO_OK)
    return fo__context(rc, "edge type %s", name);
  if (wt->w) {
    /* edge weights: edge e has input edge edge_orig[e] mod m_input's (as build.c) */
    t.w_in = wt->w;
    t.w_m_in = m_input;
    t.w_bytes = wt->w_bytes;
  }
  if (wt->tm) {
    t.t_in = wt->tm; /* the edge set is in time order (write_edge_types) */
    t.t_m_in = m_input;
  }
  rc = fo__topology_write(&t, &lo, prefix, w, obj);
  if (rc == FO_OK && k < T->n_et && !wt->label && T->o->n_edge_splits) /* input types only */
    rc = fo__edge_splits_write(T->o, name, T->n_et - T->n_label == 1, &t, m_input, prefix, w, obj,
                               T->esplit_seen);
  fo__topology_free(&t);
  return rc;
}

static int write_edge_types(typed *T, fo__writer *w, json_t *list, fo_import_report *r) {
  const fo_import_opts *o = T->o;
  json_t *revs = json_array(), *labels = json_array();
  int rc = FO_OK, n_rev = 0;
  for (int k = 0; k < T->n_et && rc == FO_OK; k++) {
    etype *e = &T->et[k];
    bool same = e->src == e->dst && !e->label;
    int64_t m_input = e->edges.n;
    fo__edge_set es;
    if (e->label) {
      /* labels only: dedup at most, no graph counts, listed after every traversed type */
      if ((rc = fo__edges_take(&e->edges, false, o->cancel, &es)) == FO_OK) {
        fo_import_report ignore;
        memset(&ignore, 0, sizeof ignore);
        if ((rc = fo__edges_prepare(&es, m_input, T->nt[e->src].n, T->nt[e->dst].n, false, false,
                                    o->dedup, &ignore)) == FO_OK)
          rc = write_etype(T, k, e->src, e->rel, e->dst, &es, e, m_input, w, labels);
      }
      fo__edge_set_free(&es);
      continue;
    }
    r->n_input_edges += m_input;
    if ((rc = fo__edges_take(&e->edges, same && o->undirected, o->cancel, &es)) == FO_OK &&
        (rc = fo__edges_prepare(&es, m_input, T->nt[e->src].n, T->nt[e->dst].n,
                                same && o->remove_self_loops,
                                same && o->undirected, o->dedup, r)) == FO_OK) {
      for (int64_t i = 0; i < es.m; i++) {
        T->nt[e->src].touched[es.src[i]] = 1;
        T->nt[e->dst].touched[es.dst[i]] = 1;
      }
      r->n_edges += es.m;
      /* edge times: every row sorted by time (as build.c); node times without edge times: the
       * CSC by its sources' times, the CSR by its targets' (each side that has them) */
      if (e->tm) {
        rc = fo__edges_sort_by_time(&es, e->tm, m_input);
      } else {
        es.nt_src = T->nt[e->src].time;
        es.nt_dst = T->nt[e->dst].time;
      }
      if (rc == FO_OK) rc = write_etype(T, k, e->src, e->rel, e->dst, &es, e, m_input, w, list);
      if (rc == FO_OK && o->reverse_edges && e->src != e->dst) {
        char rel[MAX_NAME + 8];
        int64_t *tmp = es.src;
        const int64_t *nt = es.nt_src;
        es.src = es.dst;
        es.dst = tmp;
        es.nt_src = es.nt_dst;
        es.nt_dst = nt;
        snprintf(rel, sizeof rel, "rev_%s", e->rel);
        rc = write_etype(T, T->n_et + n_rev++, e->dst, rel, e->src, &es, e, m_input, w, revs);
        r->n_reverse_added += es.m;
        r->n_edges += es.m;
      }
    }
    fo__edge_set_free(&es);
    if (rc == FO_OK && o->cancel && *o->cancel) rc = FO_FAIL(FO_ECANCELED, "import interrupted");
  }
  json_array_extend(list, revs);
  json_decref(revs);
  json_array_extend(list, labels);
  json_decref(labels);
  r->n_edge_types = T->n_et - T->n_label + n_rev;
  return rc;
}

/* Reverse types must be valid, new names. */
static int check_reverse(const typed *T) {
  for (int k = 0; k < T->n_et; k++) {
    const etype *e = &T->et[k];
    char rel[MAX_NAME + 8], nm[3 * MAX_NAME + 16];
    if (e->src == e->dst || e->label) continue;
    snprintf(rel, sizeof rel, "rev_%s", e->rel);
    et_name(T, e->dst, rel, e->src, nm, sizeof nm);
    if (strlen(rel) > MAX_NAME)
      return FO_FAIL(FO_EINVAL, "--reverse-edges: relation '%s' of the reverse type %s is longer "
                     "than 64 bytes", rel, nm);
    for (int j = 0; j < T->n_et; j++)
      if (T->et[j].src == e->dst && T->et[j].dst == e->src && !strcmp(T->et[j].rel, rel))
        return FO_FAIL(FO_EINVAL, "--reverse-edges: the reverse type %s of %s__%s__%s exists "
                       "already", nm, T->nt[e->src].name, e->rel, T->nt[e->dst].name);
  }
  return FO_OK;
}

/* --edge-weight SRC__REL__DST=W.npy (times: --edge-time SRC__REL__DST=T.npy): each names an
 * input edge type once; its weights are read (one per input edge of the type,
 * fo__edge_weights_load's checks; times: fo__edge_times_load's) into the type's `w` (`tm`). */
static int load_edge_files(typed *T, bool times) {
  const fo_import_opts *o = T->o;
  const char *opt = times ? "--edge-time" : "--edge-weight", *what = times ? "times" : "weights";
  const int32_t n_files = times ? o->n_edge_times : o->n_edge_weights;
  for (int i = 0; i < n_files; i++) {
    const fo_import_edge_weight *ew = times ? &o->edge_times[i] : &o->edge_weights[i];
    char nm[3 * MAX_NAME + 16];
    fo__graph_input gi;
    etype *e = NULL;
    int rc;
    if (!ew->edge_type || !ew->path)
      return FO_FAIL(FO_EINVAL, "edge %s %d: edge type or path is NULL", times ? "time" : "weight", i);
    for (int k = 0; k < T->n_et && !e; k++) {
      et_name(T, T->et[k].src, T->et[k].rel, T->et[k].dst, nm, sizeof nm);
      if (!strcmp(nm, ew->edge_type)) e = &T->et[k];
    }
    if (!e) {
      bool rev = false;
      for (int k = 0; k < T->n_et && o->reverse_edges; k++) {
        char rel[MAX_NAME + 8];
        if (T->et[k].src == T->et[k].dst) continue;
        snprintf(rel, sizeof rel, "rev_%s", T->et[k].rel);
        et_name(T, T->et[k].dst, rel, T->et[k].src, nm, sizeof nm);
        rev |= !strcmp(nm, ew->edge_type);
      }
      if (rev)
        return FO_FAIL(FO_EINVAL, "%s %s=%s: a reverse type of --reverse-edges takes the "
                       "%s of its edge type; name that one", opt, ew->edge_type, ew->path, what);
      return FO_FAIL(FO_EINVAL, "%s %s=%s: the import has no edge type '%s'", opt,
                     ew->edge_type, ew->path, ew->edge_type);
    }
    if (times ? e->tm != NULL : e->w != NULL)
      return FO_FAIL(FO_EINVAL, "%s %s given twice", opt, ew->edge_type);
    memset(&gi, 0, sizeof gi);
    gi.edges.n = e->edges.n; /* the loader checks the length against it */
    if ((rc = times ? fo__edge_times_load(&gi, ew->path) : fo__edge_weights_load(&gi, ew->path)) != FO_OK) {
      free(gi.weight);
      free(gi.time);
      return fo__context(rc, "edge type %s", ew->edge_type);
    }
    if (times) {
      e->tm = gi.time;
    } else {
      e->w = gi.weight;
      e->w_bytes = gi.weight_bytes;
    }
  }
  return FO_OK;
}

/* --node-time TYPE=T.npy (fo_import_opts.node_times): each names a node type once; read, one
 * per node of the type. */
static int load_node_times(typed *T) {
  const fo_import_opts *o = T->o;
  for (int i = 0; i < o->n_node_times; i++) {
    const fo_import_node_time *q = &o->node_times[i];
    ntype *nt;
    fo__node_data nd;
    int t, rc;
    if (!q->node_type || !q->path) return FO_FAIL(FO_EINVAL, "node time %d: node type or path is NULL", i);
    if ((t = find_type(T, q->node_type, strlen(q->node_type))) < 0)
      return FO_FAIL(FO_EINVAL, "--node-time %s=%s: the import has no node type '%s'", q->node_type,
                     q->path, q->node_type);
    nt = &T->nt[t];
    if (nt->time) return FO_FAIL(FO_EINVAL, "--node-time %s given twice", q->node_type);
    memset(&nd, 0, sizeof nd);
    if ((rc = fo__node_times_load(&nd, q->path)) != FO_OK) {
      free(nd.t);
      return fo__context(rc, "node type '%s'", nt->name);
    }
    if (nd.t_rows != nt->n) {
      free(nd.t);
      return FO_FAIL(FO_EINVAL, "--node-time %s=%s has %lld entries, node type '%s' has %lld nodes",
                     nt->name, q->path, (long long)nd.t_rows, nt->name, (long long)nt->n);
    }
    nt->time = nd.t;
    nt->n_time = nd.t_rows;
  }
  return FO_OK;
}

/* With --weight-col / --time-col every edge type has the values (an edge type without edges:
 * empty arrays). */
static int value_columns_complete(typed *T) {
  for (int k = 0; k < T->n_et; k++) {
    etype *e = &T->et[k];
    if (T->o->weight_column >= 0 && !e->w) {
      if (!(e->w = fo__malloc_n(1, sizeof *e->w))) return FO_FAIL(FO_ENOMEM, "edge weights");
      e->w_bytes = 4;
    }
    if (T->o->time_column >= 0 && !e->tm && !(e->tm = fo__malloc_n(1, sizeof *e->tm)))
      return FO_FAIL(FO_ENOMEM, "edge times");
  }
  return FO_OK;
}

static json_t *typed_provenance(const typed *T, const char *const *inputs, int n_inputs) {
  const fo_import_opts *o = T->o;
  const char **files = NULL;
  int n_files = n_inputs;
  json_t *p, *opts, *ets, *nts;
  if (o->n_edge_types > 0) {
    files = calloc((size_t)o->n_edge_types, sizeof *files);
    if (files)
      for (int i = 0; i < o->n_edge_types; i++) files[i] = o->edge_types[i].path;
    inputs = files;
    n_files = files ? o->n_edge_types : 0;
  }
  p = fo__provenance("edgelist", inputs, n_files, o);
  free(files);
  opts = json_object_get(p, "options");
  json_object_set_new(opts, "reverse_edges", json_boolean(o->reverse_edges));
  if (o->edge_type_column >= 0) {
    json_object_set_new(opts, "edge_type_column", json_integer(o->edge_type_column));
    if (o->node_types) json_object_set_new(opts, "node_types", json_string(o->node_types));
    if (o->default_node_type)
      json_object_set_new(opts, "default_node_type", json_string(o->default_node_type));
  }
  ets = json_array();
  for (int i = 0; i < o->n_edge_types; i++)
    json_array_append_new(ets, json_pack("{s:s, s:s, s:s, s:s}", "src", o->edge_types[i].src,
                                         "rel", o->edge_types[i].rel, "dst", o->edge_types[i].dst,
                                         "path", o->edge_types[i].path));
  if (o->n_edge_types) json_object_set_new(opts, "edge_types", ets);
  else json_decref(ets);
  nts = json_array();
  for (int i = 0; i < o->n_node_type_opts; i++) {
    const fo_import_node_type *n = &o->node_type_opts[i];
    json_t *j = json_pack("{s:s}", "name", n->name);
    if (n->num_nodes >= 0) json_object_set_new(j, "num_nodes", json_integer(n->num_nodes));
    if (n->node_ids) json_object_set_new(j, "node_ids", json_string(n->node_ids));
    if (n->features) json_object_set_new(j, "features", json_string(n->features));
    if (n->labels) json_object_set_new(j, "labels", json_string(n->labels));
    if (n->splits) json_object_set_new(j, "splits", json_string(n->splits));
    json_array_append_new(nts, j);
  }
  if (o->n_node_type_opts) json_object_set_new(opts, "node_type_options", nts);
  else json_decref(nts);
  return p;
}

/* ---- entry point ------------------------------------------------------------------------------ */

static int check_typed_opts(const fo_import_opts *o, int n_inputs, const char *const *inputs) {
  if (o->format != FO_FORMAT_EDGELIST)
    return FO_FAIL(FO_EINVAL, "typed imports (--edge-type, --edge-type-col) read --format edgelist only");
  if (o->n_edge_types < 0 || (o->n_edge_types > 0 && !o->edge_types))
    return FO_FAIL(FO_EINVAL, "bad edge type list (n_edge_types %d)", (int)o->n_edge_types);
  if (o->n_node_type_opts < 0 || (o->n_node_type_opts > 0 && !o->node_type_opts))
    return FO_FAIL(FO_EINVAL, "bad node type option list (n_node_type_opts %d)", (int)o->n_node_type_opts);
  if (o->n_edge_types > 0 && o->edge_type_column >= 0)
    return FO_FAIL(FO_EINVAL, "--edge-type and --edge-type-col cannot be combined");
  if (o->edge_type_column > 1000)
    return FO_FAIL(FO_EINVAL, "--edge-type-col %d: not a column in 0..1000", (int)o->edge_type_column);
  if (o->node_arrays || o->arrays)
    return FO_FAIL(FO_EINVAL, "%s applies to untyped imports only", o->node_arrays ? "--node-array"
                   : "--array");
  if (o->num_nodes >= 0 || o->relabel || o->features || o->labels || o->splits)
    return FO_FAIL(FO_EINVAL, "a typed import takes %s per node type (TYPE=...)",
                   o->num_nodes >= 0 ? "--num-nodes" : o->relabel ? "no --relabel; ids are"
                   : o->features ? "--features" : o->labels ? "--labels" : "--split");
  if (o->n_edge_types > 0 && n_inputs > 0)
    return FO_FAIL(FO_EINVAL, "input '%s' belongs to no edge type (give each file as --edge-type "
                   "SRC,REL,DST FILE)", inputs[0]);
  if (o->edge_type_column >= 0 && n_inputs < 1)
    return FO_FAIL(FO_EINVAL, "--edge-type-col: no input file");
  if (o->n_label_edges > 0 && o->edge_type_column >= 0)
    return FO_FAIL(FO_EINVAL, "%s: with --edge-type-col mark relations with --labels-only or "
                   "--negative-labels instead", o->label_edges[0].negative ?
                   "--supervision-negatives" : "--supervision-edges");
  if ((o->node_types || o->default_node_type) && o->edge_type_column < 0)
    return FO_FAIL(FO_EINVAL, "%s applies to --edge-type-col only",
                   o->node_types ? "--node-types" : "--default-node-type");
  return FO_OK;
}

static void typed_free(typed *T) {
  for (int t = 0; t < T->n_nt; t++) {
    fo__strmap_destroy(T->nt[t].ids);
    free(T->nt[t].gids);
    free(T->nt[t].touched);
    fo__node_data_free(&T->nt[t].nd);
    free(T->nt[t].time);
  }
  for (int k = 0; k < T->n_et; k++) {
    fo__edges_free(&T->et[k].edges);
    free(T->et[k].w);
    free(T->et[k].tm);
  }
  free(T->nt);
  free(T->et);
  fo__strmap_destroy(T->nodes);
  fo__strmap_destroy(T->rels);
  free(T->g_type);
  free(T->g_local);
  free(T->triple);
}

/* What both entry points share once the edge lists are read: reverse types, index widths,
 * then the dataset. Takes `prov` (stored in the manifest, or released on failure). */
static int write_typed(typed *T, const char *out_dir, json_t *prov, fo_import_report *rep) {
  const fo_import_opts *o = T->o;
  fo__writer *w = NULL;
  fo_import_report r;
  json_t *man, *nts, *ets;
  int rc = FO_OK;
  memset(&r, 0, sizeof r);
  /* what the reader accepts (store/dataset.c): 1..65535 node types, 1..32767 edge types */
  {
    int n_rev = 0;
    T->n_label = 0;
    for (int k = 0; k < T->n_et; k++) T->n_label += T->et[k].label != 0;
    for (int k = 0; o->reverse_edges && k < T->n_et; k++)
      n_rev += T->et[k].src != T->et[k].dst && !T->et[k].label;
    if (T->n_et == 0)
      rc = FO_FAIL(FO_EFORMAT, "no edges: a typed dataset needs at least one edge type, and the "
                   "input has no edge lines");
    else if (T->n_et == T->n_label)
      rc = FO_FAIL(FO_EINVAL, "every edge type is labels-only (supervision): a typed dataset "
                   "needs an edge type the sampler traverses");
    else if (T->n_nt > 65535 || T->n_et + n_rev > 32767)
      rc = FO_FAIL(FO_ERANGE, "%d node types and %d edge types%s: a typed dataset holds at most "
                   "65535 node types and 32767 edge types", T->n_nt, T->n_et + n_rev,
                   n_rev ? " (with the reverse types)" : "");
  }
  if (rc == FO_OK && o->reverse_edges) rc = check_reverse(T);
  if (rc == FO_OK) rc = load_edge_files(T, false);
  if (rc == FO_OK) rc = load_edge_files(T, true);
  if (rc == FO_OK) rc = load_node_times(T);
  if (rc == FO_OK) rc = value_columns_complete(T);
  /* index widths first, so that FO_ERANGE comes before anything big is allocated */
  for (int k = 0; rc == FO_OK && k < T->n_et; k++) {
    const etype *e = &T->et[k];
    int iw, ew;
    int64_t m = e->edges.n * (e->src == e->dst && o->undirected ? 2 : 1);
    char nm[3 * MAX_NAME + 8];
    if ((rc = fo__topology_widths(T->nt[e->src].n, T->nt[e->dst].n, m, o, &iw, &ew)) != FO_OK) {
      et_name(T, e->src, e->rel, e->dst, nm, sizeof nm);
      rc = fo__context(rc, "edge type %s", nm);
    }
  }
  if (rc == FO_OK) {
    /* class 6: the per-node arrays a count from the input (or --num-nodes) asks for, against
     * the machine's memory, before any of them is allocated: a flag per node, and per edge
     * type the row pointers of its CSC and CSR and 24 bytes per edge (indices, edge ids,
     * permutation) */
    uint64_t need = 0;
    int big = 0;
    char what[MAX_NAME + 96];
    for (int t = 0; t < T->n_nt; t++) {
      need += (uint64_t)T->nt[t].n;
      if (T->nt[t].n > T->nt[big].n) big = t;
    }
    for (int k = 0; k < T->n_et; k++) {
      const etype *e = &T->et[k];
      need += 8 * ((o->csc ? (uint64_t)T->nt[e->dst].n + 1 : 0) + (o->csr ? (uint64_t)T->nt[e->src].n + 1 : 0)) +
              24 * (uint64_t)e->edges.n * (e->src == e->dst && o->undirected ? 2 : 1);
    }
    if (T->n_nt > 0) {
      snprintf(what, sizeof what, "typed import: %d node types (node type '%s' has %lld nodes)",
               (int)T->n_nt, T->nt[big].name, (long long)T->nt[big].n);
      rc = fo__mem_check(need, what);
    }
  }
  for (int t = 0; rc == FO_OK && t < T->n_nt; t++) {
    if (!(T->nt[t].touched = fo__calloc_n(T->nt[t].n ? T->nt[t].n : 1, 1)))
      rc = FO_FAIL(FO_ENOMEM, "node type '%s': %lld nodes", T->nt[t].name, (long long)T->nt[t].n);
    r.n_nodes += T->nt[t].n;
  }
  if (rc != FO_OK) goto out;

  if ((rc = fo__writer_begin(out_dir, o->force, &w)) != FO_OK) goto out;
  man = fo__writer_manifest(w);
  /* version 3 only with labels-only types, so a version-2 reader never traverses them */
  json_object_set_new(man, "format_version",
                      json_integer(T->n_label ? FORMAT_VERSION_LABELS : FORMAT_VERSION_TYPED));
  json_object_set_new(man, "num_nodes", json_integer(r.n_nodes));
  json_object_set_new(man, "num_edges", json_integer(0));
  nts = json_array();
  ets = json_array();
  json_object_set_new(man, "node_types", nts);
  json_object_set_new(man, "edge_types", ets);
  if ((rc = write_node_types(T, w, nts)) != FO_OK) goto out;
  if ((rc = write_edge_types(T, w, ets, &r)) != FO_OK ||
      (rc = fo__edge_splits_unmatched(o, T->esplit_seen)) != FO_OK)
    goto out;
  json_object_set_new(man, "num_edges", json_integer(r.n_edges));
  for (int t = 0; t < T->n_nt; t++)
    for (int64_t v = 0; v < T->nt[t].n; v++) r.n_isolated += !T->nt[t].touched[v];
  r.n_node_types = T->n_nt;
  json_object_set_new(prov, "report", fo__report_json(&r));
  json_object_set_new(man, "provenance", prov);
  prov = NULL;
  if (o->cancel && *o->cancel) {
    rc = FO_FAIL(FO_ECANCELED, "import interrupted");
    goto out;
  }
  rc = fo__writer_commit(w);
  w = NULL;
out:
  json_decref(prov);
  fo__writer_abort(w);
  if (rc == FO_OK && rep) *rep = r;
  return rc;
}

int fo__import_typed(const char *const *inputs, int n_inputs, const char *out_dir,
                     const fo_import_opts *o, fo_import_report *rep) {
  typed T;
  uint64_t total = 0;
  int rc;
  memset(&T, 0, sizeof T);
  T.o = o;
  if ((rc = check_typed_opts(o, n_inputs, inputs)) != FO_OK) return rc;
  for (int i = 0; i < o->n_edge_types; i++)
    if (o->edge_types[i].path) total += fo__file_bytes(o->edge_types[i].path);
  for (int i = 0; i < n_inputs; i++) total += fo__file_bytes(inputs[i]);
  fo__progress_start(&T.prog, o->progress, "import", total);
  rc = o->n_edge_types > 0 ? parse_per_type(&T) : parse_one_file(&T, inputs, n_inputs);
  fo__progress_end(&T.prog);
  if (rc == FO_OK) rc = write_typed(&T, out_dir, typed_provenance(&T, inputs, n_inputs), rep);
  typed_free(&T);
  return rc;
}

int fo__import_typed_graph(fo__typed_graph *g, const char *out_dir, const fo_import_opts *o,
                           fo_import_report *rep) {
  typed T;
  int rc = FO_OK;
  json_t *prov = g->provenance;
  g->provenance = NULL;
  memset(&T, 0, sizeof T);
  T.o = o;
  if (g->n_nt < 1 || g->n_et < 0) rc = FO_FAIL(FO_EINVAL, "a typed graph needs a node type");
  if (rc == FO_OK && (!(T.nt = fo__calloc_n(g->n_nt, sizeof *T.nt)) ||
                      !(T.et = fo__calloc_n(g->n_et ? g->n_et : 1, sizeof *T.et))))
    rc = FO_FAIL(FO_ENOMEM, "typed graph: %d node types, %d edge types", g->n_nt, g->n_et);
  for (int t = 0; rc == FO_OK && t < g->n_nt; t++) {
    ntype *nt = &T.nt[T.n_nt++];
    snprintf(nt->name, sizeof nt->name, "%s", g->nt[t].name);
    nt->n = g->nt[t].n;
    nt->nd = g->nt[t].nd;
    memset(&g->nt[t].nd, 0, sizeof g->nt[t].nd);
    nt->in_memory = true;
    nt->x_file = g->nt[t].x_file;
    nt->y_file = g->nt[t].y_file;
  }
  for (int k = 0; rc == FO_OK && k < g->n_et; k++) {
    etype *e = &T.et[T.n_et++];
    if (g->et[k].src < 0 || g->et[k].src >= g->n_nt || g->et[k].dst < 0 || g->et[k].dst >= g->n_nt)
      rc = FO_FAIL(FO_EINVAL, "typed graph: edge type %d has no node type", k);
    e->src = g->et[k].src;
    e->dst = g->et[k].dst;
    snprintf(e->rel, sizeof e->rel, "%s", g->et[k].rel);
    e->edges = g->et[k].edges;
    memset(&g->et[k].edges, 0, sizeof g->et[k].edges);
  }
  if (rc == FO_OK) rc = write_typed(&T, out_dir, prov, rep);
  else json_decref(prov);
  typed_free(&T);
  return rc;
}
