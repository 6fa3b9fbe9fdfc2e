/*
 * dist/cache.c: a distributed loader's cache of other machines' feature and label rows
 * (fo_dist_loader_opts.cache_bytes), and its policies: degree and frequency (static, filled
 * when the loader is made) and lookahead (Belady's rule over the batches sampled ahead).
 *
 * The row store (fo__rcache) holds up to cap rows of row_bytes each (x, then the label as
 * int64), keyed by node id through an open-addressing table that is rebuilt whenever the set
 * changes (static fills once; lookahead once per batch: O(cap) against a batch's sampling).
 * A gather through the cache copies hits from the store and hands the other nodes (this
 * machine's and the misses) to the plain gather in one call, so misses still travel in one
 * request per remote machine. Hits are copies of the owner's rows: batches are bit-identical
 * with or without a cache.
 */
#include "dist/dist_internal.h"

/* ---- the row store ----------------------------------------------------------------------- */

struct fo__rcache {
  int64_t cap, n, row_bytes;
  int64_t *node;          /* [cap] node of each slot (slots 0..n-1 hold rows) */
  unsigned char *rows;    /* [cap * row_bytes] */
  int64_t *hkey, *hslot;  /* [hcap] open addressing, key -1 = empty */
  int64_t hcap;
  /* Belady's scratch */
  struct cand { int64_t next, node, src; } *cand;
  int64_t cap_cand;
  int64_t *free_slots;
  unsigned char *occ;     /* [cap] */
};

static uint64_t hash64(int64_t v) { return (uint64_t)v * UINT64_C(0x9E3779B97F4A7C15); }

int fo__rcache_create(int64_t cap, int64_t row_bytes, fo__rcache **out) {
  fo__rcache *c;
  *out = NULL;
  if (cap < 1 || row_bytes < 1 || cap > (INT64_C(1) << 40) / row_bytes)
    return FO_FAIL(FO_EINVAL, "cache of %lld rows of %lld bytes", (long long)cap, (long long)row_bytes);
  if (!(c = calloc(1, sizeof *c))) return FO_FAIL(FO_ENOMEM, "cache");
  c->cap = cap;
  c->row_bytes = row_bytes;
  for (c->hcap = 16; c->hcap < 2 * cap; c->hcap *= 2) {}
  c->node = fo__malloc_n(cap, sizeof *c->node);
  c->rows = fo__malloc_n(cap, (size_t)row_bytes);
  c->hkey = fo__malloc_n(c->hcap, sizeof *c->hkey);
  c->hslot = fo__malloc_n(c->hcap, sizeof *c->hslot);
  c->free_slots = fo__malloc_n(cap, sizeof *c->free_slots);
  c->occ = malloc((size_t)cap);
  if (!c->node || !c->rows || !c->hkey || !c->hslot || !c->free_slots || !c->occ) {
    fo__rcache_destroy(c);
    return FO_FAIL(FO_ENOMEM, "cache of %lld rows of %lld bytes", (long long)cap, (long long)row_bytes);
  }
  memset(c->hkey, 0xff, (size_t)c->hcap * sizeof *c->hkey);
  *out = c;
  return FO_OK;
}

void fo__rcache_destroy(fo__rcache *c) {
  if (!c) return;
  free(c->node);
  free(c->rows);
  free(c->hkey);
  free(c->hslot);
  free(c->cand);
  free(c->free_slots);
  free(c->occ);
  free(c);
}

int64_t fo__rcache_rows(const fo__rcache *c) { return c ? c->n : 0; }
int64_t fo__rcache_capacity(const fo__rcache *c) { return c ? c->cap : 0; }

int64_t fo__rcache_find(const fo__rcache *c, int64_t v) {
  const uint64_t mask = (uint64_t)c->hcap - 1;
  for (uint64_t h = hash64(v) & mask;; h = (h + 1) & mask) {
    if (c->hkey[h] == v) return c->hslot[h];
    if (c->hkey[h] < 0) return -1;
  }
}

const unsigned char *fo__rcache_row(const fo__rcache *c, int64_t slot) {
  return c->rows + slot * c->row_bytes;
}

/* Rebuild the table from node[0..n). */
static void rehash(fo__rcache *c) {
  const uint64_t mask = (uint64_t)c->hcap - 1;
  memset(c->hkey, 0xff, (size_t)c->hcap * sizeof *c->hkey);
  for (int64_t s = 0; s < c->n; s++) {
    uint64_t h = hash64(c->node[s]) & mask;
    while (c->hkey[h] >= 0) h = (h + 1) & mask;
    c->hkey[h] = c->node[s];
    c->hslot[h] = s;
  }
}

void fo__rcache_insert(fo__rcache *c, const int64_t *nodes, const unsigned char *rows, int64_t n) {
  for (int64_t i = 0; i < n && c->n < c->cap; i++) {
    c->node[c->n] = nodes[i];
    memcpy(c->rows + c->n * c->row_bytes, rows + i * c->row_bytes, (size_t)c->row_bytes);
    c->n++;
  }
  rehash(c);
}

/* ---- next uses ---------------------------------------------------------------------------- */

void fo__nextuse_clear(fo__nextuse *m) {
  if (m->key) memset(m->key, 0xff, (size_t)m->cap * sizeof *m->key);
  m->n = 0;
}

void fo__nextuse_free(fo__nextuse *m) {
  free(m->key);
  free(m->val);
  memset(m, 0, sizeof *m);
}

static int nextuse_grow(fo__nextuse *m) {
  fo__nextuse g = {0};
  g.cap = m->cap ? 2 * m->cap : 1024;
  if (!(g.key = fo__malloc_n(g.cap, sizeof *g.key)) || !(g.val = fo__malloc_n(g.cap, sizeof *g.val))) {
    free(g.key);
    return FO_FAIL(FO_ENOMEM, "next-use table");
  }
  fo__nextuse_clear(&g);
  for (int64_t i = 0; i < m->cap; i++)
    if (m->key[i] >= 0) fo__nextuse_put_first(&g, m->key[i], m->val[i]);
  fo__nextuse_free(m);
  *m = g;
  return FO_OK;
}

int fo__nextuse_put_first(fo__nextuse *m, int64_t v, int64_t t) {
  uint64_t mask, h;
  int rc;
  if (2 * (m->n + 1) > m->cap && (rc = nextuse_grow(m)) != FO_OK) return rc;
  mask = (uint64_t)m->cap - 1;
  for (h = hash64(v) & mask; m->key[h] >= 0; h = (h + 1) & mask)
    if (m->key[h] == v) return FO_OK; /* an earlier use is already there */
  m->key[h] = v;
  m->val[h] = t;
  m->n++;
  return FO_OK;
}

int64_t fo__nextuse_get(const fo__nextuse *m, int64_t v) {
  uint64_t mask, h;
  if (!m->cap) return INT64_MAX;
  mask = (uint64_t)m->cap - 1;
  for (h = hash64(v) & mask; m->key[h] >= 0; h = (h + 1) & mask)
    if (m->key[h] == v) return m->val[h];
  return INT64_MAX;
}

/* ---- Belady's rule ------------------------------------------------------------------------ */

static int cmp_cand(const void *a, const void *b) {
  const struct cand *x = a, *y = b;
  if (x->next != y->next) return x->next < y->next ? -1 : 1;
  if ((x->src >= 0) != (y->src >= 0)) return x->src >= 0 ? -1 : 1; /* keep what is held */
  return x->node < y->node ? -1 : x->node > y->node;
}

int fo__rcache_belady(fo__rcache *c, const int64_t *fetched, const unsigned char *rows, int64_t n,
                      const fo__nextuse *nu) {
  int64_t nc = 0, keep, n_free = 0, top, lo, hi;
  int rc;
  if ((rc = fo__grow(&c->cand, &c->cap_cand, c->n + n, sizeof *c->cand, "cache candidates")) != FO_OK)
    return rc;
  for (int64_t s = 0; s < c->n; s++)
    c->cand[nc++] = (struct cand){fo__nextuse_get(nu, c->node[s]), c->node[s], s};
  for (int64_t i = 0; i < n; i++)
    if (fo__rcache_find(c, fetched[i]) < 0)
      c->cand[nc++] = (struct cand){fo__nextuse_get(nu, fetched[i]), fetched[i], -1 - i};
  qsort(c->cand, (size_t)nc, sizeof *c->cand, cmp_cand);
  keep = nc < c->cap ? nc : c->cap;
  /* held rows that lose their place free their slots; admitted rows take those, then the
   * never used slots n, n + 1, ... */
  memset(c->occ, 0, (size_t)c->cap);
  for (int64_t s = 0; s < c->n; s++) c->occ[s] = 1;
  for (int64_t i = keep; i < nc; i++)
    if (c->cand[i].src >= 0) {
      c->occ[c->cand[i].src] = 0;
      c->free_slots[n_free++] = c->cand[i].src;
    }
  top = c->n;
  for (int64_t i = 0; i < keep; i++) {
    int64_t s, f;
    if (c->cand[i].src >= 0) continue;
    f = -1 - c->cand[i].src;
    s = n_free ? c->free_slots[--n_free] : top++;
    c->occ[s] = 1;
    c->node[s] = fetched[f];
    memcpy(c->rows + s * c->row_bytes, rows + f * c->row_bytes, (size_t)c->row_bytes);
  }
  /* close the holes: the highest rows move down into them, so that 0..keep-1 hold the rows */
  for (lo = 0, hi = top - 1;; lo++, hi--) {
    while (lo < top && c->occ[lo]) lo++;
    while (hi >= 0 && !c->occ[hi]) hi--;
    if (lo >= hi) break;
    c->node[lo] = c->node[hi];
    memcpy(c->rows + lo * c->row_bytes, c->rows + hi * c->row_bytes, (size_t)c->row_bytes);
    c->occ[lo] = 1;
    c->occ[hi] = 0;
  }
  c->n = keep;
  rehash(c);
  return FO_OK;
}

/* ---- a loader's cache and its policies ------------------------------------------------------ */

typedef struct plan {
  uint64_t epoch;
  int64_t j;      /* -1: empty */
  int64_t *nodes; /* remote nodes of batch j */
  int64_t n, cap;
} plan;

struct fo__dist_cache {
  fo_dist_t *dd;
  const fo_dataset_t *d;
  fo__gather_fn plain;
  void *plain_ctx;
  int policy;
  int32_t K;
  int64_t xb;   /* x bytes of a row (0: no features) */
  bool y;       /* rows carry labels */
  fo__rcache *rc;
  pthread_mutex_t mu; /* lookahead: everything below, and rc */
  fo_loader_t *L;
  fo_sampler_t *s;    /* topology of the batches sampled ahead, and of the frequency pass */
  fo_batch_t *b;
  fo__seed_scratch sc;
  int64_t *seeds;
  plan *plans;        /* [K + 1], batch j at j mod (K + 1) */
  fo__nextuse nu;
  /* gather scratch */
  int64_t *miss, *miss_pos, cap_miss, cap_miss_pos;
  unsigned char *mx, *fetched_rows;
  int64_t cap_mx, cap_fr;
  int64_t *my, cap_my, *fetched, cap_f;
  int64_t filled;     /* rows of the static fill */
};

static const char *const policy_names[] = {"degree", "frequency", "lookahead"};

const char *fo__cache_policy_name(int policy) {
  return policy >= 0 && policy <= 2 ? policy_names[policy] : "?";
}

int fo__dist_cache_create(fo_dist_t *dd, const fo_dataset_t *d, int64_t cache_bytes, int policy,
                          int32_t lookahead, bool features, bool labels, fo__gather_fn plain,
                          void *plain_ctx, fo__dist_cache **out) {
  const fo_dataset_t *mine = d->parts[dd->machine];
  fo__dist_cache *c;
  fo_features f;
  const int64_t *ly;
  int64_t lny, lnc, row;
  int rc;
  *out = NULL;
  if (!(c = calloc(1, sizeof *c))) return FO_FAIL(FO_ENOMEM, "feature cache");
  pthread_mutex_init(&c->mu, NULL);
  c->dd = dd;
  c->d = d;
  c->plain = plain;
  c->plain_ctx = plain_ctx;
  c->policy = policy;
  c->K = lookahead;
  if (features && fo_dataset_features(mine, &f) == FO_OK && f.data && f.dim > 0)
    c->xb = f.dim * f.itemsize;
  c->y = labels && fo_dataset_labels(mine, &ly, &lny, &lnc) == FO_OK && ly;
  row = c->xb + (c->y ? 8 : 0);
  if (!row || cache_bytes / row < 1) { /* nothing to keep, or room for no row */
    fo__dist_cache_destroy(c);
    return FO_OK;
  }
  if ((rc = fo__rcache_create(cache_bytes / row, row, &c->rc)) != FO_OK) {
    fo__dist_cache_destroy(c);
    return rc;
  }
  *out = c;
  return FO_OK;
}

void fo__dist_cache_destroy(fo__dist_cache *c) {
  if (!c) return;
  fo__rcache_destroy(c->rc);
  fo_sampler_destroy(c->s);
  fo_batch_destroy(c->b);
  fo__seed_scratch_fini(&c->sc);
  free(c->seeds);
  for (int32_t i = 0; c->plans && i <= c->K; i++) free(c->plans[i].nodes);
  free(c->plans);
  fo__nextuse_free(&c->nu);
  free(c->miss);
  free(c->miss_pos);
  free(c->mx);
  free(c->fetched_rows);
  free(c->my);
  free(c->fetched);
  pthread_mutex_destroy(&c->mu);
  free(c);
}

int64_t fo__dist_cache_rows(const fo__dist_cache *c) { return c ? fo__rcache_capacity(c->rc) : 0; }

/* Sample the topology of this loader's batch j of `epoch` into c->b. */
static int sample_ahead(fo__dist_cache *c, uint64_t epoch, int64_t j) {
  int64_t k, index;
  int rc;
  fo_dist_batch_stats ahead, *cur = fo__cur_batch_stats;
  if ((rc = fo__loader_batch_seeds(c->L, epoch, j, &c->sc, c->seeds, &k, &index)) != FO_OK) return rc;
  /* its requests are the look-ahead's, not the batch's own */
  memset(&ahead, 0, sizeof ahead);
  fo__cur_batch_stats = &ahead;
  rc = fo_sampler_sample(c->s, c->seeds, k, epoch, (uint64_t)index, c->b);
  fo__cur_batch_stats = cur;
  if (cur)
    for (int h = 0; h < 64; h++) {
      cur->ahead_requests += ahead.hop_requests[h];
      cur->ahead_bytes += ahead.hop_bytes[h];
    }
  return rc;
}

/* Rows of nodes[0..n) (every one remote) through the plain gather, as store rows. */
static int fetch_store_rows(fo__dist_cache *c, const int64_t *nodes, int64_t n, unsigned char *rows) {
  const int64_t row = c->xb + (c->y ? 8 : 0);
  int rc;
  if ((rc = fo__grow(&c->mx, &c->cap_mx, n * (c->xb ? c->xb : 1), 1, "cache fill")) != FO_OK ||
      (rc = fo__grow(&c->my, &c->cap_my, n, sizeof *c->my, "cache fill")) != FO_OK)
    return rc;
  if ((rc = c->plain(c->plain_ctx, nodes, n, c->xb ? c->mx : NULL, c->xb, c->y ? c->my : NULL, n)) != FO_OK)
    return rc;
  for (int64_t i = 0; i < n; i++) {
    if (c->xb) memcpy(rows + i * row, c->mx + i * c->xb, (size_t)c->xb);
    if (c->y) memcpy(rows + i * row + c->xb, &c->my[i], 8);
  }
  return FO_OK;
}

typedef struct scored {
  uint32_t score;
  int64_t node;
} scored;

static int cmp_scored(const void *a, const void *b) {
  const scored *x = a, *y = b;
  if (x->score != y->score) return x->score > y->score ? -1 : 1;
  return x->node < y->node ? -1 : x->node > y->node;
}

/* The static fill: the cap remote nodes of highest score (score > 0), fetched. */
static int fill_top(fo__dist_cache *c, const uint32_t *score) {
  const int64_t N = c->d->n_nodes, cap = fo__rcache_capacity(c->rc);
  const int64_t row = c->xb + (c->y ? 8 : 0);
  scored *sc = NULL;
  int64_t m = 0, *nodes = NULL;
  unsigned char *rows = NULL;
  int rc = FO_OK;
  for (int64_t v = 0; v < N; v++) m += score[v] > 0;
  if (!(sc = fo__malloc_n(m ? m : 1, sizeof *sc))) return FO_FAIL(FO_ENOMEM, "cache fill");
  m = 0;
  for (int64_t v = 0; v < N; v++)
    if (score[v] > 0) sc[m++] = (scored){score[v], v};
  qsort(sc, (size_t)m, sizeof *sc, cmp_scored);
  if (m > cap) m = cap;
  nodes = fo__malloc_n(m ? m : 1, sizeof *nodes);
  rows = fo__malloc_n(m ? m : 1, (size_t)row);
  if (!nodes || !rows) {
    rc = FO_FAIL(FO_ENOMEM, "cache fill of %lld rows", (long long)m);
    goto out;
  }
  for (int64_t i = 0; i < m; i++) nodes[i] = sc[i].node;
  if (m && (rc = fetch_store_rows(c, nodes, m, rows)) != FO_OK) goto out;
  fo__rcache_insert(c->rc, nodes, rows, m);
  c->filled = m;
out:
  free(sc);
  free(nodes);
  free(rows);
  return rc;
}

int fo__dist_cache_prepare(fo__dist_cache *c, fo_loader_t *L) {
  const fo_dataset_t *d = c->d;
  const int me = c->dd->machine;
  uint32_t *score = NULL;
  int rc = FO_OK;
  c->L = L;
  if (c->policy != FO_DIST_CACHE_DEGREE) {
    if ((rc = fo_dist_sampler_create(c->dd, d, fo__loader_sampler_opts(L), &c->s)) != FO_OK ||
        (rc = fo_batch_create(&c->b)) != FO_OK)
      return fo__context(rc, "feature cache");
    if (!(c->seeds = fo__malloc_n(fo__loader_batch_size(L), sizeof *c->seeds)))
      return FO_FAIL(FO_ENOMEM, "feature cache");
  }
  if (c->policy == FO_DIST_CACHE_LOOKAHEAD) {
    if (!(c->plans = calloc((size_t)c->K + 1, sizeof *c->plans))) return FO_FAIL(FO_ENOMEM, "feature cache");
    for (int32_t i = 0; i <= c->K; i++) c->plans[i].j = -1;
    return FO_OK;
  }
  if (!(score = calloc((size_t)(d->n_nodes ? d->n_nodes : 1), sizeof *score)))
    return FO_FAIL(FO_ENOMEM, "feature cache: scores of %lld nodes", (long long)d->n_nodes);
  if (c->policy == FO_DIST_CACHE_DEGREE) { /* edges from each remote node into this part */
    fo_topology t;
    if ((rc = fo_dataset_topology(d->parts[me], FO_EDGE_DIR_IN, &t)) != FO_OK) goto out;
    for (int64_t e = 0; e < t.n_edges; e++) {
      int64_t v = t.indices_bytes == 4 ? ((const int32_t *)t.indices)[e] : ((const int64_t *)t.indices)[e];
      if (v >= 0 && v < d->n_nodes && fo__owner(d, v) != me && score[v] < UINT32_MAX) score[v]++;
    }
  } else { /* frequency: how often each remote node is in up to 32 batches of another epoch */
    const uint64_t epoch = fo__loader_epoch(L) + (UINT64_C(1) << 62);
    const int64_t nb = fo_loader_num_batches(L) < 32 ? fo_loader_num_batches(L) : 32;
    for (int64_t j = 0; j < nb; j++) {
      if ((rc = sample_ahead(c, epoch, j)) != FO_OK) goto out;
      for (int64_t i = 0; i < c->b->n_nodes; i++) {
        int64_t v = c->b->node[i];
        if (fo__owner(d, v) != me && score[v] < UINT32_MAX) score[v]++;
      }
    }
  }
  rc = fill_top(c, score);
out:
  free(score);
  return rc == FO_OK ? FO_OK : fo__context(rc, "fill the %s feature cache", fo__cache_policy_name(c->policy));
}

/* Lookahead: the plans of batches j+1 .. j+K (sampling those not yet planned) and their next
 * uses in c->nu. */
static int plan_ahead(fo__dist_cache *c, uint64_t epoch, int64_t j) {
  const int me = c->dd->machine;
  const int64_t nb = fo_loader_num_batches(c->L);
  int rc;
  fo__nextuse_clear(&c->nu);
  for (int64_t t = j + 1; t <= j + c->K && t < nb; t++) {
    plan *p = &c->plans[t % (c->K + 1)];
    if (p->j != t || p->epoch != epoch) {
      if ((rc = sample_ahead(c, epoch, t)) != FO_OK) return rc;
      if ((rc = fo__grow(&p->nodes, &p->cap, c->b->n_nodes, sizeof *p->nodes, "plan")) != FO_OK) return rc;
      p->n = 0;
      for (int64_t i = 0; i < c->b->n_nodes; i++)
        if (fo__owner(c->d, c->b->node[i]) != me) p->nodes[p->n++] = c->b->node[i];
      p->j = t;
      p->epoch = epoch;
    }
    for (int64_t i = 0; i < p->n; i++)
      if ((rc = fo__nextuse_put_first(&c->nu, p->nodes[i], t)) != FO_OK) return rc;
  }
  return FO_OK;
}

int fo__dist_cache_gather(fo__dist_cache *c, const int64_t *nodes, int64_t n, void *x,
                          int64_t row_bytes, int64_t *y, int64_t n_y) {
  const fo_dataset_t *d = c->d;
  const int me = c->dd->machine;
  const int64_t row = c->xb + (c->y ? 8 : 0);
  const bool la = c->policy == FO_DIST_CACHE_LOOKAHEAD;
  int64_t m = 0, hits = 0, nf = 0;
  int rc = FO_OK;
  /* a gather the cache was not made for (features or labels differ): the plain one */
  if ((x != NULL) != (c->xb > 0) || (x && row_bytes != c->xb) || (y != NULL) != c->y)
    return c->plain(c->plain_ctx, nodes, n, x, row_bytes, y, n_y);
  if (la) pthread_mutex_lock(&c->mu);
  if (!la) { /* static: per-call scratch (several threads gather at once) */
    int64_t *miss = fo__malloc_n(n ? n : 1, sizeof *miss), *pos = fo__malloc_n(n ? n : 1, sizeof *pos);
    unsigned char *mx = x ? fo__malloc_n(n ? n : 1, (size_t)c->xb) : NULL;
    int64_t *my = y ? fo__malloc_n(n ? n : 1, sizeof *my) : NULL;
    if (!miss || !pos || (x && !mx) || (y && !my)) {
      rc = FO_FAIL(FO_ENOMEM, "cache gather");
    } else {
      for (int64_t i = 0; i < n; i++) {
        int64_t v = nodes[i], s;
        if (v >= 0 && v < d->n_nodes && fo__owner(d, v) != me && (s = fo__rcache_find(c->rc, v)) >= 0) {
          const unsigned char *r = fo__rcache_row(c->rc, s);
          if (x) memcpy((unsigned char *)x + i * c->xb, r, (size_t)c->xb);
          if (y && i < n_y) memcpy(&y[i], r + c->xb, 8);
          hits++;
          continue;
        }
        miss[m] = v;
        pos[m++] = i;
      }
      if ((rc = c->plain(c->plain_ctx, miss, m, mx, c->xb, my, m)) == FO_OK)
        for (int64_t t = 0; t < m; t++) {
          if (x) memcpy((unsigned char *)x + pos[t] * c->xb, mx + t * c->xb, (size_t)c->xb);
          if (y && pos[t] < n_y) y[pos[t]] = my[t];
        }
    }
    free(miss);
    free(pos);
    free(mx);
    free(my);
    goto count;
  }
  if ((rc = fo__grow(&c->miss, &c->cap_miss, n, sizeof *c->miss, "cache gather")) != FO_OK ||
      (rc = fo__grow(&c->miss_pos, &c->cap_miss_pos, n, sizeof *c->miss_pos, "cache gather")) != FO_OK ||
      (x && (rc = fo__grow(&c->mx, &c->cap_mx, n * c->xb, 1, "cache gather")) != FO_OK) ||
      (y && (rc = fo__grow(&c->my, &c->cap_my, n, sizeof *c->my, "cache gather")) != FO_OK))
    goto out;
  for (int64_t i = 0; i < n; i++) {
    int64_t v = nodes[i], s;
    if (v >= 0 && v < d->n_nodes && fo__owner(d, v) != me && (s = fo__rcache_find(c->rc, v)) >= 0) {
      const unsigned char *r = fo__rcache_row(c->rc, s);
      if (x) memcpy((unsigned char *)x + i * c->xb, r, (size_t)c->xb);
      if (y && i < n_y) memcpy(&y[i], r + c->xb, 8);
      hits++;
      continue;
    }
    c->miss[m] = v;
    c->miss_pos[m++] = i;
  }
  if ((rc = c->plain(c->plain_ctx, c->miss, m, x ? c->mx : NULL, c->xb, y ? c->my : NULL, m)) != FO_OK)
    goto out;
  for (int64_t t = 0; t < m; t++) {
    if (x) memcpy((unsigned char *)x + c->miss_pos[t] * c->xb, c->mx + t * c->xb, (size_t)c->xb);
    if (y && c->miss_pos[t] < n_y) y[c->miss_pos[t]] = c->my[t];
  }
  /* Belady's step over the fetched remote rows, with the next uses of the batches ahead */
  if (fo__cur_batch_pos) {
    if ((rc = fo__grow(&c->fetched, &c->cap_f, m, sizeof *c->fetched, "cache")) != FO_OK ||
        (rc = fo__grow(&c->fetched_rows, &c->cap_fr, m * row, 1, "cache")) != FO_OK)
      goto out;
    for (int64_t t = 0; t < m; t++) {
      if (fo__owner(d, c->miss[t]) == me) continue;
      c->fetched[nf] = c->miss[t];
      if (x) memcpy(c->fetched_rows + nf * row, c->mx + t * c->xb, (size_t)c->xb);
      if (y) memcpy(c->fetched_rows + nf * row + c->xb, &c->my[t], 8);
      nf++;
    }
    if ((rc = plan_ahead(c, fo__cur_batch_pos->epoch, fo__cur_batch_pos->local_index)) != FO_OK ||
        (rc = fo__rcache_belady(c->rc, c->fetched, c->fetched_rows, nf, &c->nu)) != FO_OK)
      goto out;
  }
count:
  if (rc == FO_OK && fo__cur_batch_stats) {
    fo__cur_batch_stats->remote_rows += hits; /* the plain gather counted the misses */
    fo__cur_batch_stats->cache_hits += hits;
    fo__cur_batch_stats->cache_bytes_saved += hits * row;
  }
out:
  if (la) pthread_mutex_unlock(&c->mu);
  return rc;
}
