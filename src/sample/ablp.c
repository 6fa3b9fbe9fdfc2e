/*
 * sample/ablp.c: anchor-based link prediction batches (include/fanout/ablp.h): each anchor's
 * positive and hard-negative supervision edges read from the labels-only edge types' CSR rows,
 * random negatives, the node seeds (anchors plus label nodes, deduplicated per node type),
 * then one fo_sampler_sample_hetero call. The supervision types are not in the sampler's edge
 * type table (dataset.h), so nothing here can make the sampler traverse them.
 */
#include "fanout/ablp.h"
#include "fanout/link.h"

#include "sample/ablp_internal.h"

#include "sample/sample_internal.h"
#include "store/store_internal.h"

/* Counter tag of the random negatives' streams: bits 60..62 set, which no hop tag (bits below
 * 62), the link negatives' (3 << 61 | et, bit 60 clear for et < 2^14), the permutation's
 * (1 << 63) or the split's (1 << 62) has. */
#define FO_RNG_TAG_ABLP (UINT64_C(7) << 60)

struct fo_ablp_sampler {
  const fo_dataset_t *d;
  fo_sampler_t *s;
  fo_ablp_opts o;
  int32_t P, N;           /* labels-only edge type indices; N = -1 without hard negatives */
  int32_t A, L, T;        /* anchor and label node types, node type count */
  int64_t nA, nL;
  fo__label_rows prows, nrows; /* rows: anchor -> label nodes (plain or partitioned) */
  fo__idmap *maps;        /* [T] seeds per node type */
  bool maps_ready;
  int64_t **ep, *cap_ep, *n_ep; /* [T] seed lists */
  int64_t *first;         /* distinct anchors, in order of first appearance */
  int64_t cap_first;
  int64_t *nbrs, cap_nbrs; /* exact fallback: an anchor's sorted distinct positives */
  int64_t *rneg, cap_rneg; /* random negatives, global ids */
  /* distributed (fo__ablp_sampler_create_remote): the distinct anchors' rows through ar.rows,
   * once per batch; rt[0] (P) and rt[1] (N) view its arrays as rows of 8-byte ids */
  bool remote;
  fo__ablp_remote ar;
  const int64_t *roff[2];
  fo_topology rt[2];
};

void fo_ablp_opts_init(fo_ablp_opts *o) {
  memset(o, 0, sizeof *o);
  fo_sampler_opts_init(&o->sampler);
  o->supervision_edge_type = NULL;
  o->negative_edge_type = NULL;
  o->no_hard_negatives = false;
  o->num_random_negatives = 0;
  o->strict = true;
}

int fo_ablp_batch_create(fo_ablp_batch_t **out) {
  fo_ablp_batch_t *b;
  int rc;
  if (!out) return FO_FAIL(FO_EINVAL, "out is NULL");
  *out = NULL;
  if (!(b = calloc(1, sizeof *b))) return FO_FAIL(FO_ENOMEM, "ABLP batch");
  if ((rc = fo_batch_create(&b->sample)) != FO_OK) {
    free(b);
    return rc;
  }
  b->negative_type = -1;
  *out = b;
  return FO_OK;
}

void fo_ablp_batch_destroy(fo_ablp_batch_t *b) {
  if (!b) return;
  fo_batch_destroy(b->sample);
  free(b->anchor_index);
  free(b->y_positive);
  free(b->y_negative);
  free(b->random_negative);
  free(b);
}

void fo_ablp_sampler_destroy(fo_ablp_sampler_t *s) {
  if (!s) return;
  fo_sampler_destroy(s->s);
  fo__label_rows_fini(&s->prows);
  fo__label_rows_fini(&s->nrows);
  for (int32_t t = 0; s->maps && s->maps_ready && t < s->T; t++) fo__idmap_fini(&s->maps[t]);
  free(s->maps);
  for (int32_t t = 0; s->ep && t < s->T; t++) free(s->ep[t]);
  free(s->ep);
  free(s->cap_ep);
  free(s->n_ep);
  free(s->first);
  free(s->nbrs);
  free(s->rneg);
  if (s->remote && s->ar.free_ctx) s->ar.free_ctx(s->ar.ctx);
  free(s);
}

/* "the labels-only edge types of 'path': a, b" (or "none") into buf. */
static void list_labels(const fo_dataset_t *d, char *buf, size_t cap) {
  size_t len = 0;
  const int32_t n = fo_dataset_num_label_edge_types(d);
  buf[0] = '\0';
  for (int32_t i = 0; i < n && len < cap; i++) {
    fo_edge_type ty;
    fo_dataset_label_edge_type(d, i, &ty);
    len += (size_t)snprintf(buf + len, cap - len, "%s%s (%s)", i ? ", " : "", ty.name,
                            ty.label == FO_LABEL_NEGATIVE ? "negative" : "positive");
  }
  if (!n) snprintf(buf, cap, "none");
}

/* The labels-only type `name` of kind `label` (NULL: the only one of that kind, from A to L
 * when A >= 0); *out -1 when name is NULL and there is none (only allowed for negatives). */
static int resolve_label_type(const fo_dataset_t *d, const char *name, int32_t label, int32_t A,
                              int32_t L, const char *what, int32_t *out) {
  const int32_t n = fo_dataset_num_label_edge_types(d);
  const char *kind = label == FO_LABEL_NEGATIVE ? "negative" : "positive";
  char have[1024];
  fo_edge_type ty;
  list_labels(d, have, sizeof have);
  *out = -1;
  if (!name) {
    int32_t found = -1, count = 0;
    for (int32_t i = 0; i < n; i++) {
      fo_dataset_label_edge_type(d, i, &ty);
      if (ty.label == label && (A < 0 || (ty.src_type == A && ty.dst_type == L))) {
        found = i;
        count++;
      }
    }
    if (count == 1) {
      *out = found;
      return FO_OK;
    }
    if (label == FO_LABEL_NEGATIVE) {
      /* none from A to L: fine when there is no negative type at all; a negative type that
       * joins other node types (the reverse direction, say) would be silently unused */
      int32_t other = -1;
      for (int32_t i = 0; i < n && other < 0 && count == 0; i++) {
        fo_dataset_label_edge_type(d, i, &ty);
        if (ty.label == FO_LABEL_NEGATIVE) other = i;
      }
      if (count == 0 && other < 0) return FO_OK;
      if (count == 0)
        return FO_FAIL(FO_EINVAL, "the negative labels-only edge type '%s' does not join the "
                       "supervision edge type's node types ('%s' to '%s'), so its hard negatives "
                       "would go unused: import it from '%s' to '%s', or ask for no hard "
                       "negatives (labels-only edge types: %s)", ty.name,
                       fo_dataset_node_type_name(d, A), fo_dataset_node_type_name(d, L),
                       fo_dataset_node_type_name(d, A), fo_dataset_node_type_name(d, L), have);
      return FO_FAIL(FO_EINVAL, "dataset '%s' has %d negative labels-only edge types from '%s' to "
                     "'%s': name the %s, or ask for no hard negatives (labels-only edge types: %s)",
                     fo_dataset_path(d), (int)count, fo_dataset_node_type_name(d, A),
                     fo_dataset_node_type_name(d, L), what, have);
    }
    if (count == 0)
      return FO_FAIL(FO_EINVAL, "dataset '%s' has no positive labels-only edge type, only negative "
                     "ones: ABLP needs positive supervision edges (import them with "
                     "--supervision-edges S__R__D=FILE; labels-only edge types: %s)",
                     fo_dataset_path(d), have);
    return FO_FAIL(FO_EINVAL, "dataset '%s' has %d positive labels-only edge types: name the %s "
                   "(labels-only edge types: %s)", fo_dataset_path(d), (int)count, what, have);
  }
  *out = fo_dataset_label_edge_type_find(d, name);
  if (*out == -2)
    return FO_FAIL(FO_EINVAL, "%s '%s' is ambiguous: give src__rel__dst (labels-only edge types: "
                   "%s)", what, name, have);
  if (*out < 0) {
    const int32_t et = fo_dataset_edge_type_find(d, name);
    if (et >= 0 || et == -2)
      return FO_FAIL(FO_EINVAL, "%s '%s' is an edge type the sampler traverses, not a labels-only "
                     "(supervision) edge type (import its edges with --supervision-edges; "
                     "labels-only edge types: %s)", what, name, have);
    return FO_FAIL(FO_EINVAL, "%s '%s' is not a labels-only edge type of '%s' (labels-only edge "
                   "types: %s)", what, name, fo_dataset_path(d), have);
  }
  fo_dataset_label_edge_type(d, *out, &ty);
  if (ty.label != label)
    return FO_FAIL(FO_EINVAL, "%s '%s' holds %s labels, not %s ones", what, ty.name,
                   ty.label == FO_LABEL_NEGATIVE ? "negative" : "positive", kind);
  if (A >= 0 && (ty.src_type != A || ty.dst_type != L))
    return FO_FAIL(FO_EINVAL, "%s '%s' does not join the node types of the supervision edge type "
                   "('%s' to '%s')", what, ty.name, fo_dataset_node_type_name(d, A),
                   fo_dataset_node_type_name(d, L));
  return FO_OK;
}

static int ablp_create(const fo_dataset_t *d, const fo_ablp_opts *o, const fo__ablp_remote *ar,
                       fo_ablp_sampler_t **out, bool *taken);

int fo_ablp_sampler_create(const fo_dataset_t *d, const fo_ablp_opts *o, fo_ablp_sampler_t **out) {
  bool taken = false;
  return ablp_create(d, o, NULL, out, &taken);
}

int fo__ablp_sampler_create_remote(const fo_dataset_t *d, const fo_ablp_opts *o,
                                   const fo__ablp_remote *r, fo_ablp_sampler_t **out) {
  bool taken = false;
  int rc = ablp_create(d, o, r, out, &taken);
  if (rc != FO_OK && !taken && r->free_ctx) r->free_ctx(r->ctx);
  return rc;
}

static int ablp_create(const fo_dataset_t *d, const fo_ablp_opts *o, const fo__ablp_remote *ar,
                       fo_ablp_sampler_t **out, bool *taken) {
  fo_ablp_sampler_t *s = NULL;
  fo_edge_type ty;
  int rc;
  if (out) *out = NULL;
  if (!d || !o || !out) return FO_FAIL(FO_EINVAL, "create ABLP sampler: dataset, options or out is NULL");
  if (o->num_random_negatives < 0 || o->num_random_negatives > FO_ABLP_MAX_RANDOM_NEGATIVES)
    return FO_FAIL(FO_EINVAL, "create ABLP sampler: num_random_negatives %lld is not in 0..%lld",
                   (long long)o->num_random_negatives, (long long)FO_ABLP_MAX_RANDOM_NEGATIVES);
  if (o->no_hard_negatives && o->negative_edge_type)
    return FO_FAIL(FO_EINVAL, "create ABLP sampler: no hard negatives asked for, but negative edge "
                   "type '%s' named: give one or the other", o->negative_edge_type);
  if (o->sampler.disjoint)
    return FO_FAIL(FO_ENOSYS, "create ABLP sampler: disjoint mode is not supported for anchors");
  if (o->sampler.temporal != FO_TEMPORAL_NONE)
    return FO_FAIL(FO_ENOSYS, "create ABLP sampler: temporal sampling of anchors is not supported");
  if (fo_dataset_num_label_edge_types(d) == 0)
    return FO_FAIL(FO_EINVAL, "create ABLP sampler: dataset '%s' has no labels-only (supervision) "
                   "edge types (import with --supervision-edges S__R__D=FILE)%s", fo_dataset_path(d),
                   fo_dataset_num_parts(d) ? "; partitions made before format_version 3 did not "
                   "carry them: partition the dataset again" : "");
  if (!(s = calloc(1, sizeof *s))) return FO_FAIL(FO_ENOMEM, "ABLP sampler");
  if (ar) {
    /* distributed: the lookup context is the sampler's from here on */
    s->remote = true;
    s->ar = *ar;
    *taken = true;
  }
  s->d = d;
  s->o = *o;
  s->o.supervision_edge_type = s->o.negative_edge_type = NULL; /* borrowed */
  s->T = fo_dataset_num_node_types(d);
  if ((rc = resolve_label_type(d, o->supervision_edge_type, FO_LABEL_POSITIVE, -1, -1,
                               "supervision edge type", &s->P)) != FO_OK)
    goto fail;
  fo_dataset_label_edge_type(d, s->P, &ty);
  s->A = ty.src_type;
  s->L = ty.dst_type;
  s->N = -1;
  if (!o->no_hard_negatives &&
      (rc = resolve_label_type(d, o->negative_edge_type, FO_LABEL_NEGATIVE, s->A, s->L,
                               "negative edge type", &s->N)) != FO_OK)
    goto fail;
  s->nA = fo_dataset_num_nodes(fo_dataset_node_data(d, s->A));
  s->nL = fo_dataset_num_nodes(fo_dataset_node_data(d, s->L));
  if ((rc = fo__label_rows_init(d, s->P, &s->prows)) != FO_OK ||
      (s->N >= 0 && (rc = fo__label_rows_init(d, s->N, &s->nrows)) != FO_OK))
    goto fail;
  if ((rc = ar ? ar->make_sampler(ar->ctx, d, &o->sampler, &s->s)
               : fo_sampler_create(d, &o->sampler, &s->s)) != FO_OK)
    goto fail;
  if (!(s->maps = calloc((size_t)s->T, sizeof *s->maps)) ||
      !(s->ep = calloc((size_t)s->T, sizeof *s->ep)) ||
      !(s->cap_ep = calloc((size_t)s->T, sizeof *s->cap_ep)) ||
      !(s->n_ep = calloc((size_t)s->T, sizeof *s->n_ep))) {
    rc = FO_FAIL(FO_ENOMEM, "ABLP sampler");
    goto fail;
  }
  for (int32_t t = 0; t < s->T; t++)
    if ((rc = fo__idmap_init(&s->maps[t], -1, 0)) != FO_OK) {
      for (int32_t u = 0; u < t; u++) fo__idmap_fini(&s->maps[u]);
      goto fail;
    }
  s->maps_ready = true;
  *out = s;
  return FO_OK;
fail:
  fo_ablp_sampler_destroy(s);
  return fo__context(rc, "create ABLP sampler");
}

static int cmp_i64(const void *a, const void *b) {
  const int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
  return (x > y) - (x < y);
}

/* One random negative for anchor u (row [a, b) of P in t): uniform over the L nodes, or
 * strict: over those that are not u's positives (nor u itself when A == L). *v = -1 when there
 * is none. */
static int draw_negative(fo_ablp_sampler_t *s, fo__rng *r, int64_t u, const fo_topology *t,
                         int64_t a, int64_t b, int64_t *v) {
  const int64_t self = s->A == s->L ? u : -1;
  int64_t nd = 0, j;
  int rc;
  *v = -1;
  if (s->nL <= 0) return FO_OK;
  if (!s->o.strict || (a == b && self < 0)) {
    *v = (int64_t)fo__rng_below(r, (uint64_t)s->nL);
    return FO_OK;
  }
  for (int k = 0; k < FO_LINK_REDRAWS; k++) {
    const int64_t c = (int64_t)fo__rng_below(r, (uint64_t)s->nL);
    bool hit = c == self;
    for (int64_t p = a; p < b && !hit; p++) hit = fo__label_rows_at(t, p) == c;
    if (!hit) {
      *v = c;
      return FO_OK;
    }
  }
  /* exact: the j-th node that is not a positive, j uniform below nL - (distinct positives) */
  if ((rc = fo__grow(&s->nbrs, &s->cap_nbrs, b - a + 2, sizeof *s->nbrs, "ABLP negatives")) != FO_OK)
    return rc;
  for (int64_t p = a; p < b; p++) s->nbrs[nd++] = fo__label_rows_at(t, p);
  if (self >= 0) s->nbrs[nd++] = self;
  qsort(s->nbrs, (size_t)nd, sizeof *s->nbrs, cmp_i64);
  {
    int64_t m = 0;
    for (int64_t q = 0; q < nd; q++)
      if (!m || s->nbrs[m - 1] != s->nbrs[q]) s->nbrs[m++] = s->nbrs[q];
    nd = m;
  }
  if (nd >= s->nL) return FO_OK;
  j = (int64_t)fo__rng_below(r, (uint64_t)(s->nL - nd));
  for (int64_t q = 0; q < nd && s->nbrs[q] <= j; q++) j++;
  *v = j;
  return FO_OK;
}

/* Add v to node type t's seeds (deduplicated); its local id. */
static inline int64_t add_seed(fo_ablp_sampler_t *s, int32_t t, int64_t v) {
  bool ins;
  const uint32_t l = fo__idmap_insert(&s->maps[t], v, (uint32_t)s->n_ep[t], s->ep[t], &ins);
  if (ins) s->ep[t][s->n_ep[t]++] = v;
  return (int64_t)l;
}

static void ablp_clear(fo_ablp_batch_t *b) {
  b->n_anchors = b->n_distinct = b->n_pos = b->n_neg = b->k = b->n_random_missing = 0;
}

/* The row of distinct anchor i (s->first[i]) of P (which 0) or N (1): local rows, or those
 * the remote lookup gave for the batch. */
static inline int row_get(fo_ablp_sampler_t *s, int which, int64_t i, const fo_topology **t,
                          int64_t *a, int64_t *b) {
  if (s->remote) {
    *t = &s->rt[which];
    *a = s->roff[which][i];
    *b = s->roff[which][i + 1];
    return FO_OK;
  }
  return fo__label_rows_get(which ? &s->nrows : &s->prows, s->first[i], t, a, b);
}

/* Columns of y for the distinct anchors' rows of P (which 0) or N (1). */
static int label_columns(fo_ablp_sampler_t *s, int which, int64_t n_first, int64_t **y,
                         int64_t *cap, int64_t *n_out) {
  int64_t m = 0, c;
  const fo_topology *t;
  int rc;
  for (int64_t i = 0; i < n_first; i++) {
    int64_t a, b;
    if ((rc = row_get(s, which, i, &t, &a, &b)) != FO_OK) return rc;
    m += b - a;
  }
  if (2 * m + 1 > *cap) {
    c = *cap;
    if ((rc = fo__grow(y, &c, 2 * m + 1, sizeof **y, "ABLP batch")) != FO_OK) return rc;
    *cap = c;
  }
  {
    int64_t *row0 = *y, *row1 = *y + m, q = 0;
    for (int64_t i = 0; i < n_first; i++) {
      int64_t a, b;
      if ((rc = row_get(s, which, i, &t, &a, &b)) != FO_OK ||
          (rc = fo__idmap_reserve(&s->maps[s->L], b - a)) != FO_OK ||
          (rc = fo__grow(&s->ep[s->L], &s->cap_ep[s->L], s->n_ep[s->L] + (b - a) + 1,
                         sizeof **s->ep, "ABLP seeds")) != FO_OK)
        return rc;
      for (int64_t p = a; p < b; p++, q++) {
        row0[q] = i; /* distinct anchor i is local node i of type A */
        row1[q] = add_seed(s, s->L, fo__label_rows_at(t, p));
      }
    }
  }
  *n_out = m;
  return FO_OK;
}

static int sample_ablp(fo_ablp_sampler_t *s, const int64_t *anchor, int64_t n, uint64_t epoch,
                       uint64_t batch_index, fo_ablp_batch_t *out) {
  const int64_t k = s->o.num_random_negatives;
  const char *an = fo_dataset_node_type_name(s->d, s->A);
  int64_t n_first = 0;
  int rc;
  if (n < 0) return FO_FAIL(FO_EINVAL, "number of anchors %lld is negative", (long long)n);
  if (n > 0 && !anchor) return FO_FAIL(FO_EINVAL, "anchors are NULL with %lld anchors", (long long)n);
  for (int64_t i = 0; i < n; i++)
    if (anchor[i] < 0 || anchor[i] >= s->nA)
      return FO_FAIL(FO_ERANGE, "anchor %lld (index %lld) is not a node id of type '%s' in [0, %lld)",
                     (long long)anchor[i], (long long)i, an, (long long)s->nA);
  if (k && n > INT64_MAX / 64 / k) return FO_FAIL(FO_ERANGE, "%lld x %lld random negatives",
                                                   (long long)n, (long long)k);
  for (int32_t t = 0; t < s->T; t++) {
    fo__idmap_reset(&s->maps[t]);
    s->n_ep[t] = 0;
  }
  if (n + 1 > out->cap_anchor) {
    int64_t c = out->cap_anchor;
    if ((rc = fo__grow(&out->anchor_index, &c, n + 1, sizeof *out->anchor_index, "ABLP batch")) != FO_OK)
      return rc;
    out->cap_anchor = c;
  }
  if ((rc = fo__idmap_reserve(&s->maps[s->A], n)) != FO_OK ||
      (rc = fo__grow(&s->ep[s->A], &s->cap_ep[s->A], n + 1, sizeof **s->ep, "ABLP seeds")) != FO_OK ||
      (rc = fo__grow(&s->first, &s->cap_first, n + 1, sizeof *s->first, "ABLP seeds")) != FO_OK)
    return rc;
  /* 1. the anchors, deduplicated: distinct anchor i is local node i of type A */
  for (int64_t i = 0; i < n; i++) {
    const int64_t before = s->n_ep[s->A];
    out->anchor_index[i] = add_seed(s, s->A, anchor[i]);
    if (s->n_ep[s->A] > before) s->first[n_first++] = anchor[i];
  }
  /* 2. positives, then hard negatives: the distinct anchors' rows (distributed: all of them
   * in one lookup, one request per remote machine) */
  if (s->remote) {
    const int64_t *pid, *nid;
    if ((rc = s->ar.rows(s->ar.ctx, s->P, s->N, s->first, n_first, &s->roff[0], &pid, &s->roff[1],
                         &nid)) != FO_OK)
      return rc;
    memset(s->rt, 0, sizeof s->rt);
    s->rt[0].indices = pid;
    s->rt[1].indices = nid;
    s->rt[0].indices_bytes = s->rt[1].indices_bytes = 8;
    s->rt[0].n_edges = s->roff[0][n_first];
    s->rt[1].n_edges = s->roff[1][n_first];
  }
  if ((rc = label_columns(s, 0, n_first, &out->y_positive, &out->cap_pos, &out->n_pos)) != FO_OK)
    return rc;
  if (s->N >= 0 &&
      (rc = label_columns(s, 1, n_first, &out->y_negative, &out->cap_neg, &out->n_neg)) != FO_OK)
    return rc;
  /* 3. random negatives, each from its own stream */
  if (k) {
    const uint64_t tag = FO_RNG_TAG_ABLP | (uint64_t)s->P;
    if (n * k + 1 > out->cap_rand) {
      int64_t c = out->cap_rand;
      if ((rc = fo__grow(&out->random_negative, &c, n * k + 1, sizeof *out->random_negative,
                         "ABLP batch")) != FO_OK)
        return rc;
      out->cap_rand = c;
    }
    if ((rc = fo__grow(&s->rneg, &s->cap_rneg, n * k + 1, sizeof *s->rneg, "ABLP negatives")) != FO_OK ||
        (rc = fo__idmap_reserve(&s->maps[s->L], n * k)) != FO_OK ||
        (rc = fo__grow(&s->ep[s->L], &s->cap_ep[s->L], s->n_ep[s->L] + n * k + 1, sizeof **s->ep,
                       "ABLP seeds")) != FO_OK)
      return rc;
    for (int64_t i = 0; i < n; i++) {
      const fo_topology *t;
      int64_t a, b;
      /* anchor i is distinct anchor anchor_index[i] (local ids of type A come first) */
      if ((rc = row_get(s, 0, out->anchor_index[i], &t, &a, &b)) != FO_OK) return rc;
      for (int64_t q = 0; q < k; q++) {
        fo__rng r;
        fo__rng_init(&r, s->o.sampler.seed, epoch, batch_index, tag, (uint64_t)(i * k + q));
        if ((rc = draw_negative(s, &r, anchor[i], t, a, b, &s->rneg[i * k + q])) != FO_OK) return rc;
      }
    }
    for (int64_t j = 0; j < n * k; j++) {
      out->random_negative[j] = s->rneg[j] >= 0 ? add_seed(s, s->L, s->rneg[j]) : -1;
      out->n_random_missing += s->rneg[j] < 0;
    }
  }
  out->n_anchors = n;
  out->n_distinct = n_first;
  out->k = k;
  /* 4. the node batch */
  {
    const int64_t *seeds[256];
    const int64_t **sp = s->T <= 256 ? seeds : malloc((size_t)s->T * sizeof *sp);
    if (!sp) return FO_FAIL(FO_ENOMEM, "ABLP seeds");
    for (int32_t t = 0; t < s->T; t++) sp[t] = s->n_ep[t] ? s->ep[t] : NULL;
    rc = fo_sampler_sample_hetero(s->s, sp, s->n_ep, epoch, batch_index, out->sample);
    if (sp != seeds) free((void *)sp);
    if (rc != FO_OK) return rc;
  }
  out->anchor_type = s->A;
  out->label_type = s->L;
  out->positive_type = s->P;
  out->negative_type = s->N;
  return FO_OK;
}

int fo_ablp_sampler_sample(fo_ablp_sampler_t *s, const fo_nid_t *anchor, int64_t n, uint64_t epoch,
                           uint64_t batch_index, fo_ablp_batch_t *out) {
  int rc;
  if (!s || !out) return FO_FAIL(FO_EINVAL, "ABLP sampler or batch is NULL");
  ablp_clear(out);
  rc = sample_ablp(s, anchor, n, epoch, batch_index, out);
  if (rc != FO_OK) {
    ablp_clear(out);
    out->sample->n_nodes = out->sample->n_edges = out->sample->n_seeds = 0;
    return fo__context(rc, "ABLP batch %llu", (unsigned long long)batch_index);
  }
  return FO_OK;
}

int32_t fo_ablp_sampler_anchor_type(const fo_ablp_sampler_t *s) { return s ? s->A : -1; }
int32_t fo_ablp_sampler_positive_type(const fo_ablp_sampler_t *s) { return s ? s->P : -1; }
int32_t fo_ablp_sampler_negative_type(const fo_ablp_sampler_t *s) { return s ? s->N : -1; }
