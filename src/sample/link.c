/*
 * sample/link.c: link-prediction batches (include/fanout/link.h): negatives, endpoint
 * deduplication, seed-edge exclusion (as ineligible positions handed to the node sampler, see
 * fo__exclusion), then one fo_sampler_sample_hetero call.
 */
#include "fanout/link.h"

#include "sample/link_internal.h"
#include "sample/sample_internal.h"
#include "store/store_internal.h"

#include <jansson.h>
#include <math.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* Counter tag of the negatives' streams: above every hop tag (hop | tree << 8 | et << 48 uses
 * bits below 63 with et < 2^14) and distinct from the permutation and split tags. */
#define FO_RNG_TAG_LINK (UINT64_C(3) << 61)
#define MAX_TRIPLET_K (INT64_C(1) << 20)
#define MAX_EXCL_TYPES 3

typedef struct xpair {
  int64_t row, nbr;
} xpair;

/* One edge type's ineligible positions (fo__exclusion's arrays for it). */
typedef struct xtab {
  xpair *pairs, *tmp; /* tmp: sort_pairs' scratch */
  int64_t n_pairs, cap_pairs, cap_tmp;
  int64_t *row_node, *off, *pos;
  int64_t cap_row, cap_off, cap_pos, n_rows;
} xtab;

struct fo_link_sampler {
  const fo_dataset_t *d;
  fo_sampler_t *s;
  fo_link_opts o;
  int32_t et, S, D, T, E;
  int64_t nS, nD;
  fo_topology csr, csc; /* of et; n_nodes 0 when not stored */
  bool has_csr, has_csc;
  /* partitioned (in process): every part's topology per edge type and direction,
   * ptopo[(et * 2 + dir) * P + k], pok likewise (stored in that part); rows found through the
   * book of the row's node type */
  int P;
  fo_topology *ptopo;
  bool *pok;
  /* exclusion: which edge types (and whether reversed) get the seed pairs */
  int n_xt;
  int32_t x_et[MAX_EXCL_TYPES];
  bool x_rev[MAX_EXCL_TYPES];
  xtab *xt;                  /* [E] */
  const int64_t **x_row, **x_off, **x_pos;
  int64_t *x_nrows;
  fo__exclusion excl;
  /* endpoints per node type */
  fo__idmap *maps;           /* [T] */
  bool maps_ready;
  int64_t **ep;              /* [T] endpoint lists */
  int64_t *cap_ep, *n_ep;
  /* disjoint / temporal: one tree per endpoint occurrence (no dedup), each with its seed
   * edge's time */
  bool disjoint, temporal;
  int64_t **ep_time;         /* [T] times of the endpoints (temporal) */
  int64_t *cap_ept;
  const int64_t *cur_time;   /* this batch's edge_label_time [n] */
  /* negatives */
  int64_t *neg_src, *neg_dst;
  int64_t cap_neg;
  int64_t *nbrs;             /* exact fallback: u's sorted distinct out-neighbors */
  int64_t cap_nbrs;
  /* distributed (fo__link_sampler_create_remote): rows through lr.check, in rounds */
  bool remote;
  fo__link_remote lr;
  fo__rng *lk_rng;           /* [n_neg] each negative's stream, kept across rounds */
  int64_t *lk_pend, *lk_cand, *lk_pairs, *lk_count, *lk_pos;
  int64_t cap_lk_rng, cap_lk_pend, cap_lk_cand, cap_lk_pairs, cap_lk_count, cap_lk_pos;
};

void fo_link_opts_init(fo_link_opts *o) {
  memset(o, 0, sizeof *o);
  fo_sampler_opts_init(&o->sampler);
  o->edge_type = NULL;
  o->neg = FO_NEG_NONE;
  o->neg_amount = 1.0;
  o->strict = true;
  o->exclude_seed_edges = false;
}

int fo_link_batch_create(fo_link_batch_t **out) {
  fo_link_batch_t *b;
  int rc;
  if (!out) return FO_FAIL(FO_EINVAL, "out is NULL");
  *out = NULL;
  if (!(b = calloc(1, sizeof *b))) return FO_FAIL(FO_ENOMEM, "link batch");
  if ((rc = fo_batch_create(&b->sample)) != FO_OK) {
    free(b);
    return rc;
  }
  *out = b;
  return FO_OK;
}

void fo_link_batch_destroy(fo_link_batch_t *b) {
  if (!b) return;
  fo_batch_destroy(b->sample);
  free(b->edge_label_index);
  free(b->edge_label);
  free(b->src_index);
  free(b->dst_pos_index);
  free(b->dst_neg_index);
  free(b);
}

void fo_link_sampler_destroy(fo_link_sampler_t *s) {
  if (!s) return;
  fo_sampler_destroy(s->s);
  free(s->ptopo);
  free(s->pok);
  for (int32_t et = 0; s->xt && et < s->E; et++) {
    free(s->xt[et].pairs);
    free(s->xt[et].tmp);
    free(s->xt[et].row_node);
    free(s->xt[et].off);
    free(s->xt[et].pos);
  }
  free(s->xt);
  free(s->x_row);
  free(s->x_off);
  free(s->x_pos);
  free(s->x_nrows);
  for (int32_t t = 0; s->maps && s->maps_ready && t < s->T; t++) fo__idmap_fini(&s->maps[t]);
  free(s->maps);
  for (int32_t t = 0; s->ep && t < s->T; t++) free(s->ep[t]);
  free(s->ep);
  for (int32_t t = 0; s->ep_time && t < s->T; t++) free(s->ep_time[t]);
  free(s->ep_time);
  free(s->cap_ept);
  free(s->cap_ep);
  free(s->n_ep);
  free(s->neg_src);
  free(s->neg_dst);
  free(s->nbrs);
  free(s->lk_rng);
  free(s->lk_pend);
  free(s->lk_cand);
  free(s->lk_pairs);
  free(s->lk_count);
  free(s->lk_pos);
  if (s->remote && s->lr.free_ctx) s->lr.free_ctx(s->lr.ctx);
  free(s);
}

static inline int64_t ld(const void *a, int bytes, int64_t i) {
  return bytes == 4 ? (int64_t)((const int32_t *)a)[i] : ((const int64_t *)a)[i];
}

/*
 * The positions p in [a, b) with indices[p] == v, ascending, written to out (room for b - a);
 * returns how many. This scan of a seed edge's row is the main cost of seed-edge exclusion
 * (BENCHMARKS.md section 8), and a match is rare, so 4-byte indices are compared 16 at a time
 * (SSE2 where the compiler targets it, else 8 compares or-ed together) and only a block that
 * holds a match is looked at element by element.
 */
static int64_t find_eq(const void *indices, int bytes, int64_t a, int64_t b, int64_t v, int64_t *out) {
  int64_t n = 0, p = a;
  if (bytes == 4) {
    const int32_t *x = indices;
    int32_t w;
    if (v < INT32_MIN || v > INT32_MAX) return 0;
    w = (int32_t)v;
#if defined(__SSE2__)
    {
      const __m128i vw = _mm_set1_epi32(w);
      for (; p + 16 <= b; p += 16) {
        const __m128i m0 = _mm_cmpeq_epi32(_mm_loadu_si128((const __m128i *)(x + p)), vw),
                      m1 = _mm_cmpeq_epi32(_mm_loadu_si128((const __m128i *)(x + p + 4)), vw),
                      m2 = _mm_cmpeq_epi32(_mm_loadu_si128((const __m128i *)(x + p + 8)), vw),
                      m3 = _mm_cmpeq_epi32(_mm_loadu_si128((const __m128i *)(x + p + 12)), vw);
        if (FO_UNLIKELY(_mm_movemask_epi8(_mm_or_si128(_mm_or_si128(m0, m1), _mm_or_si128(m2, m3)))))
          for (int64_t q = p; q < p + 16; q++)
            if (x[q] == w) out[n++] = q;
      }
    }
#else
    for (; p + 8 <= b; p += 8) {
      const int m = (x[p] == w) | (x[p + 1] == w) | (x[p + 2] == w) | (x[p + 3] == w) |
                    (x[p + 4] == w) | (x[p + 5] == w) | (x[p + 6] == w) | (x[p + 7] == w);
      if (FO_UNLIKELY(m))
        for (int64_t q = p; q < p + 8; q++)
          if (x[q] == w) out[n++] = q;
    }
#endif
    for (; p < b; p++)
      if (x[p] == w) out[n++] = p;
    return n;
  }
  for (const int64_t *x = indices; p < b; p++)
    if (x[p] == v) out[n++] = p;
  return n;
}

/* Row bounds of `r` in t, checked. */
static int row_of(const fo_topology *t, int64_t r, int64_t *a, int64_t *b) {
  *a = t->indptr[r];
  *b = t->indptr[r + 1];
  if (FO_UNLIKELY(*a < 0 || *b < *a || *b > t->n_edges))
    return FO_FAIL(FO_EFORMAT, "%s[%lld..%lld] = %lld, %lld is not a valid row in [0, %lld]",
                   t->indptr_name, (long long)r, (long long)(r + 1), (long long)*a, (long long)*b,
                   (long long)t->n_edges);
  return FO_OK;
}

/*
 * Row v of edge type et in direction dir (v a node of the row's type: the destination's for
 * FO_EDGE_DIR_IN), with its bounds: in the dataset's own topology `own`, or over a partitioned
 * dataset in the part that owns v (positions are that part's, as the sampler's PART_ROWS sees
 * them). FO_EINVAL when that part is not open here or does not store the direction.
 */
static int row_at(const fo_link_sampler_t *s, int32_t et, fo_edge_dir dir, const fo_topology *own,
                  int64_t v, const fo_topology **t, int64_t *a, int64_t *b) {
  fo_edge_type ty;
  int k, rc;
  int64_t r;
  if (!s->P) {
    *t = own;
    return row_of(own, v, a, b);
  }
  fo_dataset_edge_type(s->d, et, &ty);
  if ((rc = fo_dataset_node_part(fo_dataset_node_data(s->d, dir == FO_EDGE_DIR_IN ? ty.dst_type
                                                                                     : ty.src_type),
                                 v, &k, &r)) != FO_OK)
    return rc;
  if (!s->pok[((size_t)et * 2 + (size_t)dir) * (size_t)s->P + (size_t)k])
    return FO_FAIL(FO_EINVAL, "part %d of '%s' stores no %s of edge type '%s'", k,
                   fo_dataset_path(s->d), dir == FO_EDGE_DIR_IN ? "CSC" : "CSR", ty.name);
  *t = &s->ptopo[((size_t)et * 2 + (size_t)dir) * (size_t)s->P + (size_t)k];
  return row_of(*t, r, a, b);
}

/* 1 when (u, v) is an edge of the sampler's edge type, 0 when not, < 0 on a corrupt row. */
static int has_edge(const fo_link_sampler_t *s, int64_t u, int64_t v) {
  int64_t a1 = 0, b1 = 0, a2 = 0, b2 = 0;
  const fo_topology *t1 = NULL, *t2 = NULL;
  int rc;
  if (s->has_csr && (rc = row_at(s, s->et, FO_EDGE_DIR_OUT, &s->csr, u, &t1, &a1, &b1)) != FO_OK)
    return rc;
  if (s->has_csc && (rc = row_at(s, s->et, FO_EDGE_DIR_IN, &s->csc, v, &t2, &a2, &b2)) != FO_OK)
    return rc;
  if (s->has_csr && (!s->has_csc || b1 - a1 <= b2 - a2)) {
    for (int64_t p = a1; p < b1; p++)
      if (ld(t1->indices, t1->indices_bytes, p) == v) return 1;
  } else {
    for (int64_t p = a2; p < b2; p++)
      if (ld(t2->indices, t2->indices_bytes, p) == u) return 1;
  }
  return 0;
}

/* Over a partitioned dataset: every open part's topologies (ptopo, pok), and has_csr /
 * has_csc when every part stores that direction of the sampler's edge type. */
static int open_parts(fo_link_sampler_t *s) {
  const int P = fo_dataset_num_parts(s->d);
  s->P = P;
  s->has_csr = s->has_csc = true;
  if (!(s->ptopo = calloc((size_t)s->E * 2 * (size_t)P, sizeof *s->ptopo)) ||
      !(s->pok = calloc((size_t)s->E * 2 * (size_t)P, sizeof *s->pok)))
    return FO_FAIL(FO_ENOMEM, "link sampler");
  for (int32_t et = 0; et < s->E; et++)
    for (int dir = 0; dir < 2; dir++)
      for (int k = 0; k < P; k++) {
        const fo_dataset_t *p = fo_dataset_part(s->d, k);
        const size_t i = ((size_t)et * 2 + (size_t)dir) * (size_t)P + (size_t)k;
        s->pok[i] = p && fo_dataset_edge_topology(p, et, (fo_edge_dir)dir, &s->ptopo[i]) == FO_OK;
        if (et == s->et && !s->pok[i]) {
          if (dir == FO_EDGE_DIR_IN) s->has_csc = false;
          else s->has_csr = false;
        }
      }
  fo_clear_error();
  return FO_OK;
}

int fo_link_has_edge(const fo_dataset_t *d, int32_t et, fo_nid_t u, fo_nid_t v) {
  fo_link_sampler_t s;
  fo_edge_type ty;
  int rc;
  if (!d) return FO_FAIL(FO_EINVAL, "dataset is NULL");
  if ((rc = fo_dataset_edge_type(d, et, &ty)) != FO_OK) return rc;
  memset(&s, 0, sizeof s);
  s.has_csr = fo_dataset_edge_topology(d, et, FO_EDGE_DIR_OUT, &s.csr) == FO_OK;
  s.has_csc = fo_dataset_edge_topology(d, et, FO_EDGE_DIR_IN, &s.csc) == FO_OK;
  fo_clear_error();
  if (!s.has_csr && !s.has_csc)
    return FO_FAIL(FO_EINVAL, "edge type '%s' stores neither CSR nor CSC", ty.name);
  {
    const int64_t nS = s.has_csr ? s.csr.n_rows : s.csc.n_nodes;
    const int64_t nD = s.has_csr ? s.csr.n_nodes : s.csc.n_rows;
    if (u < 0 || u >= nS || v < 0 || v >= nD)
      return FO_FAIL(FO_ERANGE, "(%lld, %lld) is not a pair of node ids of edge type '%s' "
                     "(%lld x %lld)", (long long)u, (long long)v, ty.name, (long long)nS,
                     (long long)nD);
  }
  return has_edge(&s, u, v);
}

/* Whether the manifest's provenance says the dataset was imported with --undirected. */
static bool imported_undirected(const fo_dataset_t *d) {
  const char *text = fo_dataset_manifest(d);
  json_t *root, *opt;
  bool r = false;
  if (!text || !(root = json_loads(text, 0, NULL))) return false;
  opt = json_object_get(json_object_get(root, "provenance"), "options");
  r = json_is_true(json_object_get(opt, "undirected"));
  json_decref(root);
  return r;
}

/* The reverse edge type of et added by --reverse-edges: (D, "rev_" + r, S), or (D, r', S)
 * when r = "rev_" + r'; -1 when the dataset has none. */
static int32_t reverse_type(const fo_dataset_t *d, const fo_edge_type *ty) {
  char name[512];
  int32_t r;
  fo_edge_type rt;
  if (ty->src_type == ty->dst_type) return -1;
  snprintf(name, sizeof name, "%s__rev_%s__%s", ty->dst, ty->rel, ty->src);
  if ((r = fo_dataset_edge_type_find(d, name)) >= 0) return r;
  if (strncmp(ty->rel, "rev_", 4) == 0) {
    snprintf(name, sizeof name, "%s__%s__%s", ty->dst, ty->rel + 4, ty->src);
    if ((r = fo_dataset_edge_type_find(d, name)) >= 0 && fo_dataset_edge_type(d, r, &rt) == FO_OK &&
        rt.src_type == ty->dst_type)
      return r;
  }
  return -1;
}

static int resolve_edge_type(const fo_dataset_t *d, const char *name, int32_t *et) {
  const int32_t E = fo_dataset_num_edge_types(d);
  char have[512];
  size_t len = 0;
  have[0] = '\0';
  for (int32_t k = 0; k < E && len < sizeof have; k++) {
    fo_edge_type ty;
    fo_dataset_edge_type(d, k, &ty);
    len += (size_t)snprintf(have + len, sizeof have - len, "%s%s", k ? ", " : "", ty.name);
  }
  if (!name) {
    if (E == 1) {
      *et = 0;
      return FO_OK;
    }
    return FO_FAIL(FO_EINVAL, "dataset '%s' has %d edge types: name the seed edges' edge type "
                   "(it has: %s)", fo_dataset_path(d), (int)E, have);
  }
  *et = fo_dataset_edge_type_find(d, name);
  if (*et == -2)
    return FO_FAIL(FO_EINVAL, "edge type '%s' is ambiguous in '%s': give src__rel__dst (it has: %s)",
                   name, fo_dataset_path(d), have);
  if (*et < 0 && fo_dataset_label_edge_type_find(d, name) != -1)
    return FO_FAIL(FO_EINVAL, "edge type '%s' is a labels-only (supervision) edge type of '%s': "
                   "its edges are ABLP labels, not seed edges of the sampled graph (use the ABLP "
                   "loader, or one of: %s)", name, fo_dataset_path(d), have);
  if (*et < 0)
    return FO_FAIL(FO_EINVAL, "edge type '%s' is not an edge type of '%s' (it has: %s)", name,
                   fo_dataset_path(d), have);
  return FO_OK;
}

static int link_create(const fo_dataset_t *d, const fo_link_opts *o, const fo__link_remote *lr,
                       fo_link_sampler_t **out, bool *taken);

int fo_link_sampler_create(const fo_dataset_t *d, const fo_link_opts *o, fo_link_sampler_t **out) {
  bool taken = false;
  return link_create(d, o, NULL, out, &taken);
}

int fo__link_sampler_create_remote(const fo_dataset_t *d, const fo_link_opts *o,
                                   const fo__link_remote *r, fo_link_sampler_t **out) {
  bool taken = false;
  int rc = link_create(d, o, r, out, &taken);
  if (rc != FO_OK && !taken && r->free_ctx) r->free_ctx(r->ctx);
  return rc;
}

static int link_create(const fo_dataset_t *d, const fo_link_opts *o, const fo__link_remote *lr,
                       fo_link_sampler_t **out, bool *taken) {
  fo_link_sampler_t *s = NULL;
  fo_edge_type ty;
  int rc;
  if (out) *out = NULL;
  if (!d || !o || !out) return FO_FAIL(FO_EINVAL, "create link sampler: dataset, options or out is NULL");
  if (o->neg != FO_NEG_NONE && o->neg != FO_NEG_BINARY && o->neg != FO_NEG_TRIPLET)
    return FO_FAIL(FO_EINVAL, "create link sampler: unknown negative sampling mode %d", (int)o->neg);
  if (o->neg != FO_NEG_NONE && !(o->neg_amount > 0))
    return FO_FAIL(FO_EINVAL, "create link sampler: negative amount %g is not > 0", o->neg_amount);
  if (o->neg == FO_NEG_BINARY && !(o->neg_amount <= 1e6))
    return FO_FAIL(FO_EINVAL, "create link sampler: binary negative amount %g is above 1e6",
                   o->neg_amount);
  if (o->neg == FO_NEG_TRIPLET &&
      (o->neg_amount != floor(o->neg_amount) || o->neg_amount > (double)MAX_TRIPLET_K))
    return FO_FAIL(FO_EINVAL, "create link sampler: triplet negative amount %g is not an integer "
                   "in 1..%lld", o->neg_amount, (long long)MAX_TRIPLET_K);
  if (!lr && fo_dataset_num_parts(d) > 0) {
    for (int k = 0; k < fo_dataset_num_parts(d); k++)
      if (!fo_dataset_part(d, k))
        return FO_FAIL(FO_ENOSYS, "create link sampler: partitioned dataset '%s': part %d is not "
                       "open here (link sampling across machines is not supported yet)",
                       fo_dataset_path(d), k);
  }
  if (!(s = calloc(1, sizeof *s))) return FO_FAIL(FO_ENOMEM, "link sampler");
  if (lr) {
    /* distributed: the lookup context is the sampler's from here on */
    s->remote = true;
    s->lr = *lr;
    *taken = true;
  }
  s->d = d;
  s->o = *o;
  s->o.edge_type = NULL; /* borrowed */
  s->T = fo_dataset_num_node_types(d);
  s->E = fo_dataset_num_edge_types(d);
  if ((rc = resolve_edge_type(d, o->edge_type, &s->et)) != FO_OK) goto fail;
  fo_dataset_edge_type(d, s->et, &ty);
  s->S = ty.src_type;
  s->D = ty.dst_type;
  s->nS = fo_dataset_num_nodes(fo_dataset_node_data(d, s->S));
  s->nD = fo_dataset_num_nodes(fo_dataset_node_data(d, s->D));
  if (lr) {
    /* the parts' CSC rows, read where they live (lr.check) */
    s->has_csr = false;
    s->has_csc = true;
  } else if (fo_dataset_num_parts(d) > 0) {
    if ((rc = open_parts(s)) != FO_OK) goto fail;
  } else {
    s->has_csr = fo_dataset_edge_topology(d, s->et, FO_EDGE_DIR_OUT, &s->csr) == FO_OK;
    s->has_csc = fo_dataset_edge_topology(d, s->et, FO_EDGE_DIR_IN, &s->csc) == FO_OK;
    fo_clear_error();
  }
  if (o->neg != FO_NEG_NONE && o->strict && !s->has_csr && !s->has_csc) {
    rc = FO_FAIL(FO_EINVAL, "create link sampler: strict negatives need the CSR or CSC of edge "
                 "type '%s' (import with --csr or --csc)", ty.name);
    goto fail;
  }
  if ((rc = lr ? lr->make_sampler(lr->ctx, d, &o->sampler, &s->s)
                : fo_sampler_create(d, &o->sampler, &s->s)) != FO_OK)
    goto fail;
  if (!(s->xt = calloc((size_t)s->E, sizeof *s->xt)) ||
      !(s->x_row = calloc((size_t)s->E, sizeof *s->x_row)) ||
      !(s->x_off = calloc((size_t)s->E, sizeof *s->x_off)) ||
      !(s->x_pos = calloc((size_t)s->E, sizeof *s->x_pos)) ||
      !(s->x_nrows = calloc((size_t)s->E, sizeof *s->x_nrows)) ||
      !(s->maps = calloc((size_t)s->T, sizeof *s->maps)) ||
      !(s->ep = calloc((size_t)s->T, sizeof *s->ep)) ||
      !(s->cap_ep = calloc((size_t)s->T, sizeof *s->cap_ep)) ||
      !(s->n_ep = calloc((size_t)s->T, sizeof *s->n_ep)) ||
      !(s->ep_time = calloc((size_t)s->T, sizeof *s->ep_time)) ||
      !(s->cap_ept = calloc((size_t)s->T, sizeof *s->cap_ept))) {
    rc = FO_FAIL(FO_ENOMEM, "link sampler");
    goto fail;
  }
  for (int32_t t = 0; t < s->T; t++)
    if ((rc = fo__idmap_init(&s->maps[t], -1, 0)) != FO_OK) {
      for (int32_t u = 0; u < t; u++) fo__idmap_fini(&s->maps[u]);
      goto fail;
    }
  s->maps_ready = true;
  s->temporal = o->sampler.temporal != FO_TEMPORAL_NONE;
  s->disjoint = o->sampler.disjoint || s->temporal;
  if (o->exclude_seed_edges) {
    int32_t r;
    s->x_et[s->n_xt] = s->et;
    s->x_rev[s->n_xt++] = false;
    if (s->S == s->D && imported_undirected(d)) {
      s->x_et[s->n_xt] = s->et;
      s->x_rev[s->n_xt++] = true;
    }
    if ((r = reverse_type(d, &ty)) >= 0) {
      s->x_et[s->n_xt] = r;
      s->x_rev[s->n_xt++] = true;
    }
    s->excl.row_node = s->x_row;
    s->excl.off = s->x_off;
    s->excl.pos = s->x_pos;
    s->excl.n_rows = s->x_nrows;
    fo__sampler_set_exclusion(s->s, &s->excl);
  }
  *out = s;
  return FO_OK;
fail:
  fo_link_sampler_destroy(s);
  return fo__context(rc, "create link sampler");
}

/* Fisher-free small helper: sort int64. */
static int cmp_i64(const void *a, const void *b) {
  int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
  return (x > y) - (x < y);
}

static inline bool pair_lt(xpair a, xpair b) { return a.row < b.row || (a.row == b.row && a.nbr < b.nbr); }

/* x->pairs sorted by (row, nbr): insertion sort of runs of 16, then bottom-up merges through
 * x->tmp (the comparison inline: qsort's calls were a tenth of the exclusion's cost). */
static int sort_pairs(xtab *x) {
  const int64_t n = x->n_pairs;
  xpair *a = x->pairs, *b;
  int rc;
  for (int64_t r = 0; r < n; r += 16)
    for (int64_t i = r + 1; i < n && i < r + 16; i++) {
      const xpair v = a[i];
      int64_t j = i;
      for (; j > r && pair_lt(v, a[j - 1]); j--) a[j] = a[j - 1];
      a[j] = v;
    }
  if (n <= 16) return FO_OK;
  if ((rc = fo__grow(&x->tmp, &x->cap_tmp, n, sizeof *x->tmp, "link exclusion")) != FO_OK) return rc;
  b = x->tmp;
  for (int64_t w = 16; w < n; w *= 2) {
    for (int64_t lo = 0; lo < n; lo += 2 * w) {
      const int64_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
      int64_t i = lo, j = mid, k = lo;
      while (i < mid && j < hi) {
        const bool t = pair_lt(a[j], a[i]); /* without a branch: a coin flip to the predictor */
        b[k++] = t ? a[j] : a[i];
        j += t;
        i += !t;
      }
      while (i < mid) b[k++] = a[i++];
      while (j < hi) b[k++] = a[j++];
    }
    {
      xpair *t = a;
      a = b;
      b = t;
    }
  }
  if (a != x->pairs) {
    /* the result is in tmp: swap the buffers (and their capacities) */
    const int64_t c = x->cap_pairs;
    x->tmp = x->pairs;
    x->pairs = a;
    x->cap_pairs = x->cap_tmp;
    x->cap_tmp = c;
  }
  return FO_OK;
}

/* pos[0..n) ascending: insertion sort for the usual one or few positions of a row. */
static void sort_pos(int64_t *pos, int64_t n) {
  if (n > 32) {
    qsort(pos, (size_t)n, sizeof *pos, cmp_i64);
    return;
  }
  for (int64_t i = 1; i < n; i++) {
    const int64_t v = pos[i];
    int64_t j = i;
    for (; j > 0 && v < pos[j - 1]; j--) pos[j] = pos[j - 1];
    pos[j] = v;
  }
}

/*
 * One destination for u: uniform over the D nodes, or strict: over those v with (u, v) not an
 * edge (candidates, then the exact draw among u's non-neighbors). *v = -1 when there is none.
 */
static int draw_dst(fo_link_sampler_t *s, fo__rng *r, int64_t u, int64_t *v) {
  int rc;
  *v = -1;
  if (s->nD <= 0) return FO_OK;
  if (!s->o.strict) {
    *v = (int64_t)fo__rng_below(r, (uint64_t)s->nD);
    return FO_OK;
  }
  for (int k = 0; k < FO_LINK_REDRAWS; k++) {
    int64_t c = (int64_t)fo__rng_below(r, (uint64_t)s->nD);
    if ((rc = has_edge(s, u, c)) < 0) return rc;
    if (!rc) {
      *v = c;
      return FO_OK;
    }
  }
  if (s->has_csr) {
    int64_t a, b, nd = 0, j;
    const fo_topology *t;
    if ((rc = row_at(s, s->et, FO_EDGE_DIR_OUT, &s->csr, u, &t, &a, &b)) != FO_OK) return rc;
    if ((rc = fo__grow(&s->nbrs, &s->cap_nbrs, b - a + 1, sizeof *s->nbrs, "link negatives")) != FO_OK)
      return rc;
    for (int64_t p = a; p < b; p++) {
      int64_t w = ld(t->indices, t->indices_bytes, p);
      if (FO_UNLIKELY(w < 0 || w >= s->nD))
        return FO_FAIL(FO_EFORMAT, "%s[%lld] = %lld is not a node id in [0, %lld)",
                       t->indices_name, (long long)p, (long long)w, (long long)s->nD);
      s->nbrs[nd++] = w;
    }
    qsort(s->nbrs, (size_t)nd, sizeof *s->nbrs, cmp_i64);
    {
      int64_t m = 0;
      for (int64_t q = 0; q < nd; q++)
        if (!m || s->nbrs[m - 1] != s->nbrs[q]) s->nbrs[m++] = s->nbrs[q];
      nd = m;
    }
    if (nd >= s->nD) return FO_OK;
    j = (int64_t)fo__rng_below(r, (uint64_t)(s->nD - nd));
    for (int64_t q = 0; q < nd && s->nbrs[q] <= j; q++) j++;
    *v = j;
  }
  return FO_OK;
}

/* Endpoint v of node type t, seed edge (or positive) `pos` (for its time): deduplicated, or in
 * disjoint / temporal mode a tree of its own with the time cur_time[pos]. */
static int add_endpoint(fo_link_sampler_t *s, int32_t t, int64_t v, int64_t pos, int64_t *local) {
  bool ins;
  uint32_t l;
  if (s->disjoint) {
    if (s->temporal) s->ep_time[t][s->n_ep[t]] = s->cur_time[pos];
    *local = s->n_ep[t];
    s->ep[t][s->n_ep[t]++] = v;
    return FO_OK;
  }
  l = fo__idmap_insert(&s->maps[t], v, (uint32_t)s->n_ep[t], s->ep[t], &ins);
  if (ins) s->ep[t][s->n_ep[t]++] = v;
  *local = l;
  return FO_OK;
}

/* The ineligible positions of this batch's positives, per edge type (fo__exclusion). */
static int build_exclusion(fo_link_sampler_t *s, const int64_t *src, const int64_t *dst, int64_t n,
                           int64_t *n_excl) {
  const fo_edge_dir dir = s->o.sampler.edge_dir;
  int rc;
  *n_excl = 0;
  for (int32_t et = 0; et < s->E; et++) {
    s->xt[et].n_pairs = 0;
    s->xt[et].n_rows = 0;
    s->x_nrows[et] = 0;
  }
  for (int k = 0; k < s->n_xt; k++) {
    xtab *x = &s->xt[s->x_et[k]];
    if ((rc = fo__grow(&x->pairs, &x->cap_pairs, x->n_pairs + n + 1, sizeof *x->pairs,
                       "link exclusion")) != FO_OK)
      return rc;
    for (int64_t i = 0; i < n; i++) {
      /* the edge u -> w of this type: row w, neighbor u in the CSC; row u, neighbor w in the CSR */
      const int64_t u = s->x_rev[k] ? dst[i] : src[i], w = s->x_rev[k] ? src[i] : dst[i];
      x->pairs[x->n_pairs++] = dir == FO_EDGE_DIR_IN ? (xpair){w, u} : (xpair){u, w};
    }
  }
  for (int32_t et = 0; et < s->E; et++) {
    xtab *x = &s->xt[et];
    fo_topology t, o;
    bool other;
    int64_t np = 0;
    if (!x->n_pairs) continue;
    if (s->P) {
      /* over parts: each row is scanned in its owning part (positions of that part) */
      memset(&t, 0, sizeof t);
      other = false;
    } else {
      if ((rc = fo_dataset_edge_topology(s->d, et, dir, &t)) != FO_OK) return rc;
      /* edge_dir in: the CSR's eid maps its positions to edge ids = CSC positions, so a pair's
       * positions can also be found in the neighbor's CSR row; the shorter row is scanned */
      other = dir == FO_EDGE_DIR_IN &&
              fo_dataset_edge_topology(s->d, et, FO_EDGE_DIR_OUT, &o) == FO_OK && o.eid;
      fo_clear_error();
    }
    if ((rc = sort_pairs(x)) != FO_OK ||
        (rc = fo__grow(&x->row_node, &x->cap_row, x->n_pairs + 1, sizeof *x->row_node, "link exclusion")) != FO_OK ||
        (rc = fo__grow(&x->off, &x->cap_off, x->n_pairs + 2, sizeof *x->off, "link exclusion")) != FO_OK)
      return rc;
    for (int64_t q = 0; q < x->n_pairs; q++) {
      const int64_t row = x->pairs[q].row, nbr = x->pairs[q].nbr;
      int64_t a, b, a2 = 0, b2 = 0;
      const bool repeated = q && x->pairs[q - 1].row == row && x->pairs[q - 1].nbr == nbr;
      const fo_topology *tr;
      if ((rc = row_at(s, et, dir, &t, row, &tr, &a, &b)) != FO_OK) return rc;
      if (other && (rc = row_of(&o, nbr, &a2, &b2)) != FO_OK) return rc;
      if (repeated) {
        /* scanned already (the row is still closed below) */
      } else if (other && b2 - a2 < b - a) {
        if ((rc = fo__grow(&x->pos, &x->cap_pos, np + (b2 - a2) + 1, sizeof *x->pos, "link exclusion")) != FO_OK)
          return rc;
        const int64_t c = find_eq(o.indices, o.indices_bytes, a2, b2, row, x->pos + np);
        for (int64_t q2 = np; q2 < np + c; q2++) {
          const int64_t p = x->pos[q2], e = ld(o.eid, o.eid_bytes, p);
          if (FO_UNLIKELY(e < a || e >= b))
            return FO_FAIL(FO_EFORMAT, "%s[%lld] = %lld is not a position of %s row %lld",
                           o.eid_name, (long long)p, (long long)e, tr->indptr_name, (long long)row);
          x->pos[q2] = e;
        }
        np += c;
      } else {
        if ((rc = fo__grow(&x->pos, &x->cap_pos, np + (b - a) + 1, sizeof *x->pos, "link exclusion")) != FO_OK)
          return rc;
        np += find_eq(tr->indices, tr->indices_bytes, a, b, nbr, x->pos + np);
      }
      /* pairs come sorted by row: close the row when the next pair is another (row_node and
       * off have room for a row per pair) */
      if (q + 1 == x->n_pairs || x->pairs[q + 1].row != row) {
        const int64_t start = x->n_rows ? x->off[x->n_rows] : 0;
        if (!x->n_rows) x->off[0] = 0;
        if (np > start) {
          /* positions of one row ascending (each pair's scan is ascending, pairs are not) */
          sort_pos(x->pos + start, np - start);
          x->row_node[x->n_rows] = row;
          x->off[++x->n_rows] = np;
        }
      }
    }
    s->x_row[et] = x->row_node;
    s->x_off[et] = x->off;
    s->x_pos[et] = x->pos;
    s->x_nrows[et] = x->n_rows;
    *n_excl += np;
  }
  return FO_OK;
}

/* ---- distributed rows (fo__link_remote): the same draws, checked in rounds --------------------
 * Negative j's stream draws the same candidates as draw_dst, but every pending negative's next
 * candidate is checked in one lr.check call per round (one request per remote machine), up to
 * FO_LINK_REDRAWS rounds; there is no exact fallback (CSC rows only), as over parts without a
 * CSR. Membership is a fact of the graph, so the kept candidates are draw_dst's. */
static int negatives_remote(fo_link_sampler_t *s, fo_neg_mode mode, int64_t n_neg, int64_t k,
                            const int64_t *src, uint64_t epoch, uint64_t batch_index, uint64_t tag) {
  int64_t np = 0, n_pos = 0;
  int rc;
  if ((rc = fo__grow(&s->lk_rng, &s->cap_lk_rng, n_neg + 1, sizeof *s->lk_rng, "link negatives")) != FO_OK ||
      (rc = fo__grow(&s->lk_pend, &s->cap_lk_pend, n_neg + 1, sizeof *s->lk_pend, "link negatives")) != FO_OK ||
      (rc = fo__grow(&s->lk_cand, &s->cap_lk_cand, n_neg + 1, sizeof *s->lk_cand, "link negatives")) != FO_OK ||
      (rc = fo__grow(&s->lk_count, &s->cap_lk_count, n_neg + 1, sizeof *s->lk_count, "link negatives")) != FO_OK ||
      (rc = fo__grow(&s->lk_pairs, &s->cap_lk_pairs, 3 * n_neg + 1, sizeof *s->lk_pairs, "link negatives")) != FO_OK)
    return rc;
  for (int64_t j = 0; j < n_neg; j++) {
    fo__rng *r = &s->lk_rng[j];
    int64_t u;
    fo__rng_init(r, s->o.sampler.seed, epoch, batch_index, tag, (uint64_t)j);
    u = mode == FO_NEG_BINARY ? (s->nS > 0 ? (int64_t)fo__rng_below(r, (uint64_t)s->nS) : -1)
                              : src[j / k];
    s->neg_src[j] = u;
    s->neg_dst[j] = -1;
    if (u < 0 || s->nD <= 0) continue;
    if (!s->o.strict) s->neg_dst[j] = (int64_t)fo__rng_below(r, (uint64_t)s->nD);
    else s->lk_pend[np++] = j;
  }
  for (int round = 0; round < FO_LINK_REDRAWS && np; round++) {
    int64_t m = 0;
    for (int64_t q = 0; q < np; q++) {
      const int64_t j = s->lk_pend[q], c = (int64_t)fo__rng_below(&s->lk_rng[j], (uint64_t)s->nD);
      s->lk_cand[q] = c;
      s->lk_pairs[3 * q] = s->et;
      s->lk_pairs[3 * q + 1] = c;
      s->lk_pairs[3 * q + 2] = s->neg_src[j];
    }
    if ((rc = s->lr.check(s->lr.ctx, s->lk_pairs, np, s->lk_count, &s->lk_pos, &s->cap_lk_pos,
                          &n_pos)) != FO_OK)
      return rc;
    for (int64_t q = 0; q < np; q++) {
      if (!s->lk_count[q]) s->neg_dst[s->lk_pend[q]] = s->lk_cand[q];
      else s->lk_pend[m++] = s->lk_pend[q];
    }
    np = m;
  }
  return FO_OK;
}

/* build_exclusion over a distributed dataset: every distinct (row, nbr) pair's positions from
 * lr.check (this machine's rows here, the others in one request per machine for all the
 * excluded edge types together), then the same tables. */
static int build_exclusion_remote(fo_link_sampler_t *s, const int64_t *src, const int64_t *dst,
                                  int64_t n, int64_t *n_excl) {
  int64_t n_look = 0, n_pos = 0, at = 0, pp = 0;
  int rc;
  *n_excl = 0;
  for (int32_t et = 0; et < s->E; et++) {
    s->xt[et].n_pairs = 0;
    s->xt[et].n_rows = 0;
    s->x_nrows[et] = 0;
  }
  for (int k = 0; k < s->n_xt; k++) {
    xtab *x = &s->xt[s->x_et[k]];
    if ((rc = fo__grow(&x->pairs, &x->cap_pairs, x->n_pairs + n + 1, sizeof *x->pairs,
                       "link exclusion")) != FO_OK)
      return rc;
    for (int64_t i = 0; i < n; i++) {
      /* the edge u -> w: row w, neighbor u in the CSC (edge_dir in); row u, neighbor w in the
       * CSR (out) */
      const int64_t u = s->x_rev[k] ? dst[i] : src[i], w = s->x_rev[k] ? src[i] : dst[i];
      x->pairs[x->n_pairs++] = s->o.sampler.edge_dir == FO_EDGE_DIR_IN ? (xpair){w, u} : (xpair){u, w};
    }
  }
  for (int32_t et = 0; et < s->E; et++) {
    xtab *x = &s->xt[et];
    int64_t m = 0;
    if (!x->n_pairs) continue;
    if ((rc = sort_pairs(x)) != FO_OK) return rc;
    for (int64_t q = 0; q < x->n_pairs; q++)
      if (!m || x->pairs[m - 1].row != x->pairs[q].row || x->pairs[m - 1].nbr != x->pairs[q].nbr)
        x->pairs[m++] = x->pairs[q];
    x->n_pairs = m;
    n_look += m;
  }
  if ((rc = fo__grow(&s->lk_pairs, &s->cap_lk_pairs, 3 * n_look + 1, sizeof *s->lk_pairs, "link exclusion")) != FO_OK ||
      (rc = fo__grow(&s->lk_count, &s->cap_lk_count, n_look + 1, sizeof *s->lk_count, "link exclusion")) != FO_OK)
    return rc;
  for (int32_t et = 0; et < s->E; et++)
    for (int64_t q = 0; q < s->xt[et].n_pairs; q++, at++) {
      s->lk_pairs[3 * at] = et | FO__LINK_WANT_POS |
                            (s->o.sampler.edge_dir == FO_EDGE_DIR_OUT ? FO__LINK_OUT : 0);
      s->lk_pairs[3 * at + 1] = s->xt[et].pairs[q].row;
      s->lk_pairs[3 * at + 2] = s->xt[et].pairs[q].nbr;
    }
  if (n_look && (rc = s->lr.check(s->lr.ctx, s->lk_pairs, n_look, s->lk_count, &s->lk_pos,
                                  &s->cap_lk_pos, &n_pos)) != FO_OK)
    return rc;
  at = 0;
  for (int32_t et = 0; et < s->E; et++) {
    xtab *x = &s->xt[et];
    int64_t np = 0;
    if (!x->n_pairs) continue;
    for (int64_t q = 0; q < x->n_pairs; q++, at++) {
      const int64_t row = x->pairs[q].row, c = s->lk_count[at];
      if (c < 0 || c > n_pos - pp) return FO_FAIL(FO_EFORMAT, "link exclusion: %lld positions", (long long)c);
      if ((rc = fo__grow(&x->pos, &x->cap_pos, np + c + 1, sizeof *x->pos, "link exclusion")) != FO_OK)
        return rc;
      memcpy(x->pos + np, s->lk_pos + pp, (size_t)c * sizeof *x->pos);
      np += c;
      pp += c;
      if (q + 1 == x->n_pairs || x->pairs[q + 1].row != row) {
        const int64_t start = x->n_rows ? x->off[x->n_rows] : 0;
        if ((rc = fo__grow(&x->row_node, &x->cap_row, x->n_rows + 1, sizeof *x->row_node, "link exclusion")) != FO_OK ||
            (rc = fo__grow(&x->off, &x->cap_off, x->n_rows + 2, sizeof *x->off, "link exclusion")) != FO_OK)
          return rc;
        if (!x->n_rows) x->off[0] = 0;
        if (np > start) {
          sort_pos(x->pos + start, np - start);
          x->row_node[x->n_rows] = row;
          x->off[++x->n_rows] = np;
        }
      }
    }
    s->x_row[et] = x->row_node;
    s->x_off[et] = x->off;
    s->x_pos[et] = x->pos;
    s->x_nrows[et] = x->n_rows;
    *n_excl += np;
  }
  return FO_OK;
}

static void link_clear(fo_link_batch_t *b) {
  b->n_pos = b->n_label = b->n_neg = b->n_neg_missing = b->n_excluded = b->k = 0;
}

static int sample_link(fo_link_sampler_t *s, const int64_t *src, const int64_t *dst,
                       const int64_t *label, int64_t n, uint64_t epoch, uint64_t batch_index,
                       fo_link_batch_t *out) {
  const fo_neg_mode mode = s->o.neg;
  const uint64_t tag = FO_RNG_TAG_LINK | (uint64_t)s->et;
  int64_t n_neg = 0, k = 0, n_label;
  int rc;
  if (n < 0) return FO_FAIL(FO_EINVAL, "number of seed edges %lld is negative", (long long)n);
  if (n > 0 && (!src || !dst)) return FO_FAIL(FO_EINVAL, "seed edges are NULL with %lld edges", (long long)n);
  for (int64_t i = 0; i < n; i++) {
    if (src[i] < 0 || src[i] >= s->nS)
      return FO_FAIL(FO_ERANGE, "seed edge %lld: source %lld is not a node id of type '%s' in [0, %lld)",
                     (long long)i, (long long)src[i], fo_dataset_node_type_name(s->d, s->S), (long long)s->nS);
    if (dst[i] < 0 || dst[i] >= s->nD)
      return FO_FAIL(FO_ERANGE, "seed edge %lld: destination %lld is not a node id of type '%s' in [0, %lld)",
                     (long long)i, (long long)dst[i], fo_dataset_node_type_name(s->d, s->D), (long long)s->nD);
  }
  if (mode == FO_NEG_BINARY) {
    double want = ceil((double)n * s->o.neg_amount);
    if (want > (double)(INT64_MAX / 64)) return FO_FAIL(FO_ERANGE, "%g negatives", want);
    n_neg = (int64_t)want;
  } else if (mode == FO_NEG_TRIPLET) {
    k = (int64_t)s->o.neg_amount;
    if (n > INT64_MAX / 64 / k) return FO_FAIL(FO_ERANGE, "%lld x %lld negatives", (long long)n, (long long)k);
    n_neg = n * k;
  }
  if ((rc = fo__grow(&s->neg_src, &s->cap_neg, n_neg + 1, sizeof *s->neg_src, "link negatives")) != FO_OK)
    return rc;
  {
    int64_t c = s->cap_neg - 1;
    if ((rc = fo__grow(&s->neg_dst, &c, s->cap_neg, sizeof *s->neg_dst, "link negatives")) != FO_OK)
      return rc;
  }
  /* 1. negatives, each from its own stream (distributed: checked in rounds) */
  if (s->remote && (rc = negatives_remote(s, mode, n_neg, k, src, epoch, batch_index, tag)) != FO_OK)
    return rc;
  for (int64_t j = 0; !s->remote && j < n_neg; j++) {
    fo__rng r;
    int64_t u;
    fo__rng_init(&r, s->o.sampler.seed, epoch, batch_index, tag, (uint64_t)j);
    u = mode == FO_NEG_BINARY ? (s->nS > 0 ? (int64_t)fo__rng_below(&r, (uint64_t)s->nS) : -1)
                              : src[j / k];
    s->neg_src[j] = u;
    s->neg_dst[j] = -1;
    if (u >= 0 && (rc = draw_dst(s, &r, u, &s->neg_dst[j])) != FO_OK) return rc;
  }
  /* 2. endpoints, deduplicated per node type in PyG's order */
  n_label = mode == FO_NEG_BINARY ? n + n_neg : n;
  for (int32_t t = 0; t < s->T; t++) {
    fo__idmap_reset(&s->maps[t]);
    s->n_ep[t] = 0;
  }
  if ((rc = fo__idmap_reserve(&s->maps[s->S], 2 * (n + n_neg))) != FO_OK ||
      (rc = fo__idmap_reserve(&s->maps[s->D], 2 * (n + n_neg))) != FO_OK)
    return rc;
  for (int32_t t = 0; t < s->T; t++)
    if ((t == s->S || t == s->D) &&
        ((rc = fo__grow(&s->ep[t], &s->cap_ep[t], 2 * (n + n_neg) + 1, sizeof **s->ep, "link endpoints")) != FO_OK ||
         (s->temporal && (rc = fo__grow(&s->ep_time[t], &s->cap_ept[t], 2 * (n + n_neg) + 1,
                                        sizeof **s->ep_time, "link endpoint times")) != FO_OK)))
      return rc;
  if (n_label > out->cap_label) {
    int64_t c1 = out->cap_label, c2 = out->cap_label;
    if ((rc = fo__grow(&out->edge_label_index, &c1, 2 * n_label, sizeof *out->edge_label_index,
                       "link batch")) != FO_OK ||
        (rc = fo__grow(&out->edge_label, &c2, n_label, sizeof *out->edge_label, "link batch")) != FO_OK)
      return rc;
    out->cap_label = n_label;
  }
  if (mode == FO_NEG_TRIPLET && n + n_neg > out->cap_trip) {
    int64_t c1 = out->cap_trip, c2 = out->cap_trip, c3 = out->cap_trip;
    if ((rc = fo__grow(&out->src_index, &c1, n, sizeof *out->src_index, "link batch")) != FO_OK ||
        (rc = fo__grow(&out->dst_pos_index, &c2, n, sizeof *out->dst_pos_index, "link batch")) != FO_OK ||
        (rc = fo__grow(&out->dst_neg_index, &c3, n_neg, sizeof *out->dst_neg_index, "link batch")) != FO_OK)
      return rc;
    out->cap_trip = n + n_neg;
  }
  {
    int64_t *row0 = out->edge_label_index, *row1 = out->edge_label_index + n_label;
    int64_t m = 0; /* binary negatives kept */
    /* a negative's time is its positive's (PyG): binary j that of positive j mod n,
     * triplet j = i k + q that of positive i */
    for (int64_t i = 0; i < n; i++) add_endpoint(s, s->S, src[i], i, &row0[i]);
    if (mode == FO_NEG_BINARY)
      for (int64_t j = 0; j < n_neg; j++)
        if (s->neg_dst[j] >= 0) add_endpoint(s, s->S, s->neg_src[j], j % n, &row0[n + m++]);
    for (int64_t i = 0; i < n; i++) add_endpoint(s, s->D, dst[i], i, &row1[i]);
    m = 0;
    for (int64_t j = 0; j < n_neg; j++) {
      int64_t l = -1;
      if (s->neg_dst[j] >= 0)
        add_endpoint(s, s->D, s->neg_dst[j], mode == FO_NEG_BINARY ? j % n : j / k, &l);
      if (mode == FO_NEG_BINARY && l >= 0) row1[n + m++] = l;
      if (mode == FO_NEG_TRIPLET) out->dst_neg_index[j] = l;
      if (s->neg_dst[j] < 0) out->n_neg_missing++;
    }
    out->n_neg = n_neg - out->n_neg_missing;
    if (mode == FO_NEG_BINARY && m < n_neg) {
      /* fewer negatives: close the gap between the two rows */
      n_label = n + m;
      memmove(out->edge_label_index + n_label, row1, (size_t)n_label * sizeof *row1);
    }
    for (int64_t i = 0; i < n_label; i++) out->edge_label[i] = i < n ? (label ? label[i] : 1) : 0;
    if (mode == FO_NEG_TRIPLET) {
      memcpy(out->src_index, row0, (size_t)n * sizeof *row0);
      memcpy(out->dst_pos_index, out->edge_label_index + n_label, (size_t)n * sizeof *row0);
    }
  }
  out->n_pos = n;
  out->n_label = n_label;
  out->k = k;
  /* 3. exclusion, 4. the node batch */
  if (s->o.exclude_seed_edges &&
      (rc = s->remote ? build_exclusion_remote(s, src, dst, n, &out->n_excluded)
                      : build_exclusion(s, src, dst, n, &out->n_excluded)) != FO_OK)
    return rc;
  {
    const int64_t *seeds[256];
    const int64_t **sp = s->T <= 256 ? seeds : malloc((size_t)s->T * sizeof *sp);
    if (!sp) return FO_FAIL(FO_ENOMEM, "link seeds");
    for (int32_t t = 0; t < s->T; t++) sp[t] = s->n_ep[t] ? s->ep[t] : NULL;
    if (s->temporal) {
      const int64_t *times[256];
      const int64_t **tp = s->T <= 256 ? times : malloc((size_t)s->T * sizeof *tp);
      if (!tp) rc = FO_FAIL(FO_ENOMEM, "link seed times");
      else {
        for (int32_t t = 0; t < s->T; t++) tp[t] = s->n_ep[t] ? s->ep_time[t] : NULL;
        rc = fo_sampler_sample_hetero_at(s->s, sp, tp, s->n_ep, epoch, batch_index, out->sample);
        if (tp != times) free((void *)tp);
      }
    } else {
      rc = fo_sampler_sample_hetero(s->s, sp, s->n_ep, epoch, batch_index, out->sample);
    }
    if (sp != seeds) free((void *)sp);
    if (rc != FO_OK) return rc;
  }
  out->edge_type = s->et;
  out->src_type = s->S;
  out->dst_type = s->D;
  return FO_OK;
}

int fo_link_sampler_sample(fo_link_sampler_t *s, const fo_nid_t *src, const fo_nid_t *dst,
                           const int64_t *label, int64_t n, uint64_t epoch, uint64_t batch_index,
                           fo_link_batch_t *out) {
  return fo_link_sampler_sample_at(s, src, dst, label, NULL, n, epoch, batch_index, out);
}

int fo_link_sampler_sample_at(fo_link_sampler_t *s, const fo_nid_t *src, const fo_nid_t *dst,
                              const int64_t *label, const int64_t *time, int64_t n, uint64_t epoch,
                              uint64_t batch_index, fo_link_batch_t *out) {
  int rc;
  if (!s || !out) return FO_FAIL(FO_EINVAL, "link sampler or batch is NULL");
  link_clear(out);
  if (s->temporal && !time && n > 0)
    rc = FO_FAIL(FO_EINVAL, "temporal link sampling needs the seed edges' times (edge_label_time, "
                 "--seed-time)");
  else if (!s->temporal && time)
    rc = FO_FAIL(FO_EINVAL, "seed edge times (edge_label_time) given, but the sampler is not "
                 "temporal (set temporal uniform or last)");
  else {
    s->cur_time = time;
    rc = sample_link(s, src, dst, label, n, epoch, batch_index, out);
    s->cur_time = NULL;
  }
  if (rc != FO_OK) {
    link_clear(out);
    out->sample->n_nodes = out->sample->n_edges = out->sample->n_seeds = 0;
    return fo__context(rc, "link batch %llu", (unsigned long long)batch_index);
  }
  return FO_OK;
}

int32_t fo_link_sampler_edge_type(const fo_link_sampler_t *s) { return s ? s->et : -1; }
