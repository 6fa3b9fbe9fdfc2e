/*
 * dist/cache.c: a distributed loader's cache of other machines' feature and label rows
 * (fo_dist_loader_opts.cache_bytes), and its policies: degree and frequency (static, filled
 * when the loader is made) and lookahead (Belady's rule over the batches sampled ahead).
 * Typed datasets: one row store per node type (rows of that type's width, the seed type's with
 * its label), keyed by id * n_types + type, so that the plans and next uses of all types share
 * one table; the budget is split between the types by prepare_typed. Pipelining is the same
 * code: a typed plan's prefetched keys and rows are grouped by type (plan_blocks).
 *
 * The row store (fo__rcache) holds up to cap rows of row_bytes each (x, then the label as
 * int64), keyed by node id through an open-addressing table that is rebuilt whenever the set
 * changes (static fills once; lookahead once per batch: O(cap) against a batch's sampling).
 * A gather through the cache copies hits from the store and hands the other nodes (this
 * machine's and the misses) to the plain gather in one call, so misses still travel in one
 * request per remote machine. Hits are copies of the owner's rows: batches are bit-identical
 * with or without a cache.
 *
 * Lookahead keeps a ring of K + 1 plans: batch t's topology sampled ahead (the loader takes it
 * for batch t instead of sampling again: fo__dist_cache_take), the traffic of that sampling,
 * and its remote nodes (the next uses for Belady's step). Without pipelining threads, batch j's
 * gather plans j+1 .. j+K; with them (`pipeline`), they plan lo .. lo + K - 1 (lo: the first
 * batch no loader thread has begun) and also fetch the rows the store lacks. One mutex guards
 * the store, the plans' states, the next uses and the sampler pool; it is never held across a
 * remote request (a plan being filled is `busy`, owned by its filler).
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
  if (nc > 1) qsort(c->cand, (size_t)nc, sizeof *c->cand, cmp_cand);
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

/* Lookahead: batch j (of `epoch`) sampled ahead: its topology (until the loader takes it for
 * batch j, fo__dist_cache_take), the traffic of that sampling, and its remote nodes (the next
 * uses). A thread that samples a plan owns it while `busy` (others neither read nor claim it). */
typedef struct plan {
  uint64_t epoch;
  int64_t j;      /* -1: empty */
  bool busy;
  int64_t busy_j;  /* the batch being sampled while busy */
  bool has_b;     /* b holds batch j's topology, not yet taken */
  fo_batch_t *b;
  fo_dist_batch_stats traffic; /* hop requests, bytes and edges of sampling it */
  int64_t *nodes; /* remote nodes of batch j */
  int64_t n, cap;
  /* pipelining: the rows of pf[0..n_pf) (those of `nodes` not in the store when planned, in
   * batch order) fetched ahead, store rows; in_use from the take until batch j's gather has
   * copied them */
  int64_t *pf, n_pf, cap_pf;
  unsigned char *rows;
  int64_t cap_rows;
  bool in_use;
} plan;

/* A sampler of the batches sampled ahead (and of the frequency pass): one per thread that
 * samples at once, kept in a free list. */
typedef struct ahead {
  fo_sampler_t *s;
  fo_batch_t *b;
  fo__seed_scratch sc;
  int64_t *seeds;
  struct ahead *next;
  struct fo__dist_cache *owner; /* pipelining threads */
  fo__nextuse seen;             /* pipelining: rows earlier plans fetch */
} ahead;

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
  /* typed datasets: T node types; store t (rcs[t], NULL: none) holds rows of type t keyed by
   * id * T + t (the keys of the plans and next uses too); rc is unused */
  int32_t T, seed_type;
  fo__gather_typed_fn plain_t;
  int64_t budget;
  int64_t *xbt, *rowt; /* [T] x bytes and row bytes of a row of type t (0: not gathered) */
  bool *yt;            /* [T] rows of type t carry labels (the seed type's) */
  fo__rcache **rcs;    /* [T] */
  /* lookahead: mu guards rc, plans, nu and pool; it is never held across a remote request */
  pthread_mutex_t mu;
  pthread_cond_t cv;  /* a plan stopped being busy */
  uint64_t started_epoch;
  unsigned char *started; /* [n_started] batch j of started_epoch begun by a loader thread */
  int64_t n_started;
  int64_t lo;         /* the lowest batch of started_epoch not begun */
  /* pipelining: threads that sample the batches lo .. lo + K - 1 ahead (none: the gathers plan) */
  int32_t n_threads, started_threads;
  pthread_t *threads;
  ahead **thread_ahead;
  pthread_cond_t work_cv; /* the window moved, or stop */
  bool stop, ahead_failed;
  fo_loader_t *L;
  ahead *pool;        /* free samplers of the batches ahead */
  plan *plans;        /* [K + 1], batch j at j mod (K + 1) */
  fo__nextuse nu;
  int64_t filled;     /* rows of the static fill */
  /* a link or ABLP loader's batches (fo__dist_cache_prepare_source; L NULL): frequency's pass
   * and the batches ahead come from src instead of the node loader's seeds and sampler */
  const fo__cache_source *src;
};

void (*fo__cache_fetch_hook)(void);
int64_t fo__cache_rows_ahead;

static const char *const policy_names[] = {"degree", "frequency", "lookahead"};

const char *fo__cache_policy_name(int policy) {
  return policy >= 0 && policy <= 2 ? policy_names[policy] : "?";
}

int fo__dist_cache_create(fo_dist_t *dd, const fo_dataset_t *d, int64_t cache_bytes, int policy,
                          int32_t lookahead, int32_t pipeline, bool features, bool labels,
                          fo__gather_fn plain, fo__gather_typed_fn plain_typed, int32_t seed_type,
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
  pthread_cond_init(&c->cv, NULL);
  pthread_cond_init(&c->work_cv, NULL);
  c->dd = dd;
  c->d = d;
  c->plain = plain;
  c->plain_ctx = plain_ctx;
  c->policy = policy;
  c->K = lookahead;
  c->n_threads = policy == FO_DIST_CACHE_LOOKAHEAD ? pipeline : 0;
  c->T = 1;
  if (d->typed) { /* the stores are made by fo__dist_cache_prepare, once the budget is split */
    int64_t min_row = 0;
    c->T = d->n_ntypes;
    c->seed_type = seed_type;
    c->plain_t = plain_typed;
    c->budget = cache_bytes;
    c->xbt = calloc((size_t)c->T, sizeof *c->xbt);
    c->rowt = calloc((size_t)c->T, sizeof *c->rowt);
    c->yt = calloc((size_t)c->T, sizeof *c->yt);
    c->rcs = calloc((size_t)c->T, sizeof *c->rcs);
    if (!c->xbt || !c->rowt || !c->yt || !c->rcs) {
      fo__dist_cache_destroy(c);
      return FO_FAIL(FO_ENOMEM, "feature cache of %d node types", (int)d->n_ntypes);
    }
    for (int32_t t = 0; t < c->T; t++) {
      const fo_dataset_t *v = fo_dataset_node_data(d, t);
      const fo_dataset_t *vm = v && v->parts ? v->parts[dd->machine] : NULL;
      if (!vm) continue;
      if (features && fo_dataset_features(vm, &f) == FO_OK && f.data && f.dim > 0)
        c->xbt[t] = f.dim * f.itemsize;
      c->yt[t] = labels && t == seed_type && fo_dataset_labels(vm, &ly, &lny, &lnc) == FO_OK && ly;
      c->rowt[t] = c->xbt[t] + (c->yt[t] ? 8 : 0);
      if (c->rowt[t] && (!min_row || c->rowt[t] < min_row)) min_row = c->rowt[t];
    }
    if (!min_row || cache_bytes < min_row) {
      fo__dist_cache_destroy(c);
      return FO_OK;
    }
    *out = c;
    return FO_OK;
  }
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

static void ahead_free(ahead *a) {
  if (!a) return;
  fo_sampler_destroy(a->s);
  fo_batch_destroy(a->b);
  fo__seed_scratch_fini(&a->sc);
  fo__nextuse_free(&a->seen);
  free(a->seeds);
  free(a);
}

void fo__dist_cache_destroy(fo__dist_cache *c) {
  if (!c) return;
  pthread_mutex_lock(&c->mu);
  c->stop = true;
  pthread_cond_broadcast(&c->work_cv);
  pthread_mutex_unlock(&c->mu);
  /* a thread in a remote request ends with it, within the transport's deadline */
  for (int32_t i = 0; i < c->started_threads; i++) pthread_join(c->threads[i], NULL);
  for (int32_t i = 0; c->thread_ahead && i < c->n_threads; i++) ahead_free(c->thread_ahead[i]);
  free(c->thread_ahead);
  free(c->threads);
  pthread_cond_destroy(&c->work_cv);
  fo__rcache_destroy(c->rc);
  for (int32_t t = 0; c->rcs && t < c->T; t++) fo__rcache_destroy(c->rcs[t]);
  free(c->rcs);
  free(c->xbt);
  free(c->rowt);
  free(c->yt);
  while (c->pool) {
    ahead *a = c->pool;
    c->pool = a->next;
    ahead_free(a);
  }
  for (int32_t i = 0; c->plans && i <= c->K; i++) {
    free(c->plans[i].nodes);
    free(c->plans[i].pf);
    free(c->plans[i].rows);
    fo_batch_destroy(c->plans[i].b);
  }
  free(c->plans);
  fo__nextuse_free(&c->nu);
  free(c->started);
  pthread_mutex_destroy(&c->mu);
  pthread_cond_destroy(&c->cv);
  free(c);
}

int64_t fo__dist_cache_rows(const fo__dist_cache *c) {
  int64_t n = 0;
  if (!c) return 0;
  if (!c->rcs) return fo__rcache_capacity(c->rc);
  for (int32_t t = 0; t < c->T; t++) n += fo__rcache_capacity(c->rcs[t]);
  return n;
}

static int ahead_new(fo__dist_cache *c, ahead **out) {
  ahead *a;
  int rc;
  *out = NULL;
  if (!(a = calloc(1, sizeof *a))) return FO_FAIL(FO_ENOMEM, "feature cache");
  if ((rc = fo_dist_sampler_create(c->dd, c->d, fo__loader_sampler_opts(c->L), &a->s)) != FO_OK ||
      (rc = fo_batch_create(&a->b)) != FO_OK) {
    ahead_free(a);
    return fo__context(rc, "feature cache");
  }
  if (!(a->seeds = fo__malloc_n(fo__loader_batch_size(c->L), sizeof *a->seeds))) {
    ahead_free(a);
    return FO_FAIL(FO_ENOMEM, "feature cache");
  }
  *out = a;
  return FO_OK;
}

/* A free sampler of the batches ahead (made when none is free); give it back with ahead_put. */
static int ahead_get(fo__dist_cache *c, ahead **out) {
  pthread_mutex_lock(&c->mu);
  *out = c->pool;
  if (*out) c->pool = (*out)->next;
  pthread_mutex_unlock(&c->mu);
  return *out ? FO_OK : ahead_new(c, out);
}

static void ahead_put_locked(fo__dist_cache *c, ahead *a) {
  if (!a) return;
  a->next = c->pool;
  c->pool = a;
}

/* Sample the topology of this loader's batch j of `epoch` into a->b (no lock held: it makes
 * remote hop requests); its traffic into *st (when not NULL). */
static int sample_ahead(fo__dist_cache *c, ahead *a, uint64_t epoch, int64_t j, fo_dist_batch_stats *st) {
  int64_t k, index;
  int rc;
  fo_dist_batch_stats own, *cur = fo__cur_batch_stats;
  if (!st) st = &own;
  if ((rc = fo__loader_batch_seeds(c->L, epoch, j, &a->sc, a->seeds, &k, &index)) != FO_OK) return rc;
  /* its requests are the look-ahead's, not the current batch's own */
  memset(st, 0, sizeof *st);
  fo__cur_batch_stats = st;
  rc = c->rcs ? fo_sampler_sample_typed(a->s, c->seed_type, a->seeds, k, epoch, (uint64_t)index, a->b)
              : fo_sampler_sample(a->s, a->seeds, k, epoch, (uint64_t)index, a->b);
  fo__cur_batch_stats = cur;
  if (cur)
    for (int h = 0; h < 64; h++) {
      cur->ahead_requests += st->hop_requests[h];
      cur->ahead_bytes += st->hop_bytes[h];
    }
  return rc;
}

/* Rows of nodes[0..n) (every one remote) through the plain gather, as store rows. */
static int fetch_store_rows(fo__dist_cache *c, const int64_t *nodes, int64_t n, unsigned char *rows) {
  const int64_t row = c->xb + (c->y ? 8 : 0);
  unsigned char *mx = fo__malloc_n(n ? n : 1, (size_t)(c->xb ? c->xb : 1));
  int64_t *my = fo__malloc_n(n ? n : 1, sizeof *my);
  int rc = FO_OK;
  if (!mx || !my) rc = FO_FAIL(FO_ENOMEM, "cache fill of %lld rows", (long long)n);
  else if ((rc = c->plain(c->plain_ctx, nodes, n, c->xb ? mx : NULL, c->xb, c->y ? my : NULL, n)) == FO_OK)
    for (int64_t i = 0; i < n; i++) {
      if (c->xb) memcpy(rows + i * row, mx + i * c->xb, (size_t)c->xb);
      if (c->y) memcpy(rows + i * row + c->xb, &my[i], 8);
    }
  free(mx);
  free(my);
  return rc;
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

/* Whether batch t of `epoch` may be planned now (lock held): no loader thread has begun it, its
 * slot is not being sampled, does not hold it already and holds no other plan still to be
 * taken. */
static bool claimable(const fo__dist_cache *c, uint64_t epoch, int64_t t) {
  const plan *p = &c->plans[t % (c->K + 1)];
  const bool cur = c->started_epoch == epoch;
  if ((cur && t < c->n_started && c->started[t]) || p->busy || p->in_use ||
      (p->j == t && p->epoch == epoch))
    return false;
  return !(p->has_b && p->epoch == epoch && cur && p->j >= 0 && p->j < c->n_started &&
           !c->started[p->j]);
}

/* Claim batch t's plan (lock held); plan_fill then fills it without the lock, plan_release
 * gives it back (with the lock). */
static plan *plan_claim(fo__dist_cache *c, int64_t t) {
  plan *p = &c->plans[t % (c->K + 1)];
  p->busy = true;
  p->busy_j = t;
  p->j = -1;
  p->has_b = false;
  return p;
}

/* The widest store row (typed: of any node type). */
static int64_t row_max(const fo__dist_cache *c) {
  int64_t r = c->xb + (c->y ? 8 : 0);
  for (int32_t t = 0; c->rcs && t < c->T; t++)
    if (c->rowt[t] > r) r = c->rowt[t];
  return r;
}

/* Typed plans: pf holds keys id x T + type grouped by type (ascending), in batch order within
 * a type; p->rows holds their rows the same way, type t's block at the rows of the types
 * before it (rows of their own widths). start[t] (T + 1 entries): the first key of type t;
 * base[t] (T entries, may be NULL): the byte offset of its block. */
static void plan_blocks(const fo__dist_cache *c, const plan *p, int64_t *start, int64_t *base) {
  int64_t i = 0, off = 0;
  for (int32_t t = 0; t < c->T; t++) {
    start[t] = i;
    if (base) base[t] = off;
    while (i < p->n_pf && p->pf[i] % c->T == t) i++;
    off += (i - start[t]) * c->rowt[t];
  }
  start[c->T] = i;
}

static int fetch_typed_rows(fo__dist_cache *c, int64_t *const *nodes, const int64_t *n,
                            unsigned char *const *rows);

/* Typed pipelining: the rows of a plan's pf through the plain typed gather (one request per
 * remote machine for all types), into p->rows by blocks (plan_blocks). */
static int fetch_plan_typed(fo__dist_cache *c, plan *p) {
  const int32_t T = c->T;
  int64_t *start = fo__malloc_n((size_t)T + 1, sizeof *start), *base = fo__malloc_n(T, sizeof *base);
  int64_t *n = fo__malloc_n(T, sizeof *n), *ids = fo__malloc_n(p->n_pf, sizeof *ids);
  int64_t **nodes = calloc((size_t)T, sizeof *nodes);
  unsigned char **rows = calloc((size_t)T, sizeof *rows);
  int rc = FO_OK;
  if (!start || !base || !n || !ids || !nodes || !rows) rc = FO_FAIL(FO_ENOMEM, "pipelined fetch");
  if (rc == FO_OK) {
    plan_blocks(c, p, start, base);
    for (int64_t i = 0; i < p->n_pf; i++) ids[i] = p->pf[i] / T;
    for (int32_t t = 0; t < T; t++) {
      nodes[t] = ids + start[t];
      n[t] = start[t + 1] - start[t];
      rows[t] = p->rows + base[t];
    }
    rc = fetch_typed_rows(c, nodes, n, rows);
  }
  free(start);
  free(base);
  free(n);
  free(ids);
  free(nodes);
  free(rows);
  return rc;
}

/* A plan's keys: the remote nodes of batch b (typed: id x T + type). */
static int plan_keys(fo__dist_cache *c, plan *p, const fo_batch_t *b) {
  const int me = c->dd->machine;
  int64_t all = 0;
  int rc;
  if (!c->rcs) all = b->n_nodes;
  for (int32_t q = 0; c->rcs && q < c->T; q++) all += fo_batch_node_type(b, q)->n_nodes;
  if ((rc = fo__grow(&p->nodes, &p->cap, all, sizeof *p->nodes, "plan")) != FO_OK) return rc;
  p->n = 0;
  if (!c->rcs) {
    for (int64_t i = 0; i < b->n_nodes; i++)
      if (fo__owner(c->d, b->node[i]) != me) p->nodes[p->n++] = b->node[i];
  } else { /* typed: the keys (node type, id) of every type's remote nodes */
    for (int32_t q = 0; q < c->T; q++) {
      const fo_batch_t *nb = fo_batch_node_type(b, q);
      const fo_dataset_t *v = fo_dataset_node_data(c->d, q);
      if (!c->rowt[q]) continue;
      for (int64_t i = 0; i < nb->n_nodes; i++)
        if (fo__owner(v, nb->node[i]) != me) p->nodes[p->n++] = nb->node[i] * c->T + q;
    }
  }
  return FO_OK;
}

/* A source's plan (fo__cache_source): its batch t's keys; nothing to take, nothing fetched. */
static int plan_fill_src(fo__dist_cache *c, plan *p, uint64_t epoch, int64_t t) {
  const fo_batch_t *b = NULL;
  int rc;
  p->n = 0;
  p->n_pf = 0;
  memset(&p->traffic, 0, sizeof p->traffic);
  if ((rc = c->src->ahead(c->src->ctx, epoch, t, &b)) != FO_OK) return rc;
  return b ? plan_keys(c, p, b) : FO_OK;
}

static int plan_fill(fo__dist_cache *c, ahead *a, plan *p, uint64_t epoch, int64_t t) {
  fo_batch_t *b;
  int rc;
  if ((rc = sample_ahead(c, a, epoch, t, &p->traffic)) != FO_OK) return rc;
  if ((rc = plan_keys(c, p, a->b)) != FO_OK) return rc;
  b = p->b; /* the plan keeps the topology; the sampler gets the plan's old batch */
  p->b = a->b;
  a->b = b;
  p->n_pf = 0;
  if (!a->owner) return FO_OK; /* a gather plans: fetching there would hide no latency */
  /* pipelining: fetch the rows the store does not hold now and no earlier batch planned in
   * the window fetches ahead (Belady's step at that batch's gather will likely keep those: the
   * next use is near). A row evicted meanwhile is fetched by the gather, one admitted
   * meanwhile is copied from here. */
  if ((rc = fo__grow(&p->pf, &p->cap_pf, p->n, sizeof *p->pf, "plan")) != FO_OK ||
      (rc = fo__grow(&p->rows, &p->cap_rows, p->n * row_max(c), 1, "plan")) != FO_OK)
    return rc;
  pthread_mutex_lock(&c->mu);
  fo__nextuse_clear(&a->seen);
  for (int64_t u = c->lo; rc == FO_OK && u < t; u++) {
    const plan *e = &c->plans[u % (c->K + 1)];
    if (e == p || e->busy || e->j != u || e->epoch != epoch || !(e->has_b || e->in_use)) continue;
    for (int64_t i = 0; rc == FO_OK && i < e->n_pf; i++) rc = fo__nextuse_put_first(&a->seen, e->pf[i], u);
  }
  for (int64_t i = 0; rc == FO_OK && i < p->n; i++) {
    /* typed: the key's store is its type's (none: a type the budget gave no room) */
    const fo__rcache *st = c->rcs ? c->rcs[p->nodes[i] % c->T] : c->rc;
    if ((!st || fo__rcache_find(st, p->nodes[i]) < 0) && fo__nextuse_get(&a->seen, p->nodes[i]) == INT64_MAX)
      p->pf[p->n_pf++] = p->nodes[i];
  }
  pthread_mutex_unlock(&c->mu);
  if (rc != FO_OK) {
    p->n_pf = 0;
    return rc;
  }
  if (p->n_pf) {
    fo_dist_batch_stats *cur = fo__cur_batch_stats;
    fo__cur_batch_stats = &p->traffic; /* the batch's own fetch, made ahead */
    rc = c->rcs ? fetch_plan_typed(c, p) : fetch_store_rows(c, p->pf, p->n_pf, p->rows);
    fo__cur_batch_stats = cur;
    if (rc != FO_OK) p->n_pf = 0;
  }
  return rc;
}

static void plan_release(fo__dist_cache *c, plan *p, uint64_t epoch, int64_t t, bool ok) {
  p->busy = false;
  if (ok) {
    p->j = t;
    p->epoch = epoch;
    p->has_b = true;
  }
  pthread_cond_broadcast(&c->cv);
}

/* A pipelining thread: plans the lowest claimable batch of the window lo .. lo + K - 1 of the
 * current epoch, so that up to n_threads batches' hop requests are in flight while the loader
 * gathers and hands out earlier ones. After a failure it stops planning (the loader's own
 * sampling of those batches then fails with the context's error). */
static void *ahead_main(void *arg) {
  ahead *a = arg;
  fo__dist_cache *c = a->owner;
  const int64_t nb = fo_loader_num_batches(c->L);
  pthread_mutex_lock(&c->mu);
  while (!c->stop) {
    const uint64_t epoch = c->started_epoch;
    int64_t t = c->lo;
    plan *p;
    int rc;
    for (; !c->ahead_failed && t < c->lo + c->K && t < nb; t++)
      if (claimable(c, epoch, t)) break;
    if (c->ahead_failed || t >= c->lo + c->K || t >= nb) {
      pthread_cond_wait(&c->work_cv, &c->mu);
      continue;
    }
    p = plan_claim(c, t);
    pthread_mutex_unlock(&c->mu);
    rc = plan_fill(c, a, p, epoch, t);
    pthread_mutex_lock(&c->mu);
    plan_release(c, p, epoch, t, rc == FO_OK);
    if (rc != FO_OK) c->ahead_failed = true;
  }
  pthread_mutex_unlock(&c->mu);
  return NULL;
}

/* Typed: the rows of nodes[t][0..n[t]) of every node type through the plain typed gather (one
 * request per remote machine), as store rows of that type into rows[t]. */
static int fetch_typed_rows(fo__dist_cache *c, int64_t *const *nodes, const int64_t *n,
                            unsigned char *const *rows) {
  const int32_t T = c->T, st = c->seed_type;
  unsigned char **mx = calloc((size_t)T, sizeof *mx);
  int64_t *my = fo__malloc_n(n[st] ? n[st] : 1, sizeof *my);
  int rc = FO_OK;
  if (!mx || !my) rc = FO_FAIL(FO_ENOMEM, "cache fill");
  for (int32_t t = 0; rc == FO_OK && t < T; t++)
    if (c->xbt[t] && n[t] && !(mx[t] = fo__malloc_n(n[t], (size_t)c->xbt[t])))
      rc = FO_FAIL(FO_ENOMEM, "cache fill of %lld rows", (long long)n[t]);
  if (rc == FO_OK)
    rc = c->plain_t(c->plain_ctx, (const int64_t *const *)nodes, n, mx, c->xbt, st,
                    c->yt[st] ? my : NULL, n[st]);
  for (int32_t t = 0; rc == FO_OK && t < T; t++)
    for (int64_t i = 0; i < n[t]; i++) {
      if (c->xbt[t]) memcpy(rows[t] + i * c->rowt[t], mx[t] + i * c->xbt[t], (size_t)c->xbt[t]);
      if (c->yt[t]) memcpy(rows[t] + i * c->rowt[t] + c->xbt[t], &my[i], 8);
    }
  for (int32_t t = 0; mx && t < T; t++) free(mx[t]);
  free(mx);
  free(my);
  return rc;
}

typedef struct tscored {
  uint32_t score;
  int32_t t;
  int64_t node;
} tscored;

static int cmp_tscored(const void *a, const void *b) {
  const tscored *x = a, *y = b;
  if (x->score != y->score) return x->score > y->score ? -1 : 1;
  if (x->t != y->t) return x->t < y->t ? -1 : 1;
  return x->node < y->node ? -1 : x->node > y->node;
}

/* Frequency's pre-sampling pass: how often each remote node (typed: each (type, node), at
 * score[off[t] + id]) is in up to 32 batches of another epoch, those of the node loader L or
 * (L NULL) of c->src's pass; bytes[t] (when not NULL) adds the remote row bytes of type t. */
static int presample(fo__dist_cache *c, fo_loader_t *L, const int64_t *off, uint32_t *score,
                     double *bytes) {
  const fo_dataset_t *d = c->d;
  const int me = c->dd->machine;
  const uint64_t epoch = L ? fo__loader_epoch(L) + (UINT64_C(1) << 62) : 0;
  int64_t nb = L ? fo_loader_num_batches(L) : c->src ? c->src->n_pass : 0;
  ahead *a = NULL;
  int rc = FO_OK;
  if (nb > 32) nb = 32;
  if (L && (rc = ahead_new(c, &a)) != FO_OK) return rc;
  for (int64_t j = 0; rc == FO_OK && j < nb; j++) {
    const fo_batch_t *b = NULL;
    if (!L) rc = c->src->pass(c->src->ctx, j, &b);
    else if ((rc = sample_ahead(c, a, epoch, j, NULL)) == FO_OK) b = a->b;
    for (int32_t t = 0; rc == FO_OK && b && t < c->T; t++) {
      const fo_batch_t *bt = c->rcs ? fo_batch_node_type(b, t) : b;
      const fo_dataset_t *v = c->rcs ? fo_dataset_node_data(d, t) : d;
      if (c->rcs && !c->rowt[t]) continue;
      for (int64_t i = 0; i < bt->n_nodes; i++) {
        const int64_t u = bt->node[i];
        if (fo__owner(v, u) == me) continue;
        if (score[off[t] + u] < UINT32_MAX) score[off[t] + u]++;
        if (bytes) bytes[t] += (double)c->rowt[t];
      }
    }
  }
  ahead_free(a);
  return rc;
}

/* Typed: split the byte budget between the node types and make their stores (and, for degree
 * and frequency, fill them). Scores per (type, node) pair: degree, the edges of every edge type
 * from a remote node into this machine's part (along the sampler's edge_dir); frequency and
 * lookahead, the pre-sampling pass of the one-type frequency policy. The pairs are taken in the
 * order of their score (ties: lower type, then lower id), each one whose row still fits in the
 * budget (a hit saves its row's bytes and its row costs as many: the score is the value per
 * byte); store t gets room for those of type t, and degree and frequency hold them. Lookahead
 * adds the budget the ranking leaves to each type in proportion to its rows' share of the
 * pre-sampled remote bytes (equal shares when none), and runs Belady's rule in each type's
 * store with the next uses of all types. */
static int prepare_typed(fo__dist_cache *c, fo_loader_t *L, fo_edge_dir dir) {
  const fo_dataset_t *d = c->d;
  const int me = c->dd->machine;
  const int32_t T = c->T;
  int64_t *off = calloc((size_t)T + 1, sizeof *off), *cap = calloc((size_t)T, sizeof *cap);
  double *bytes = calloc((size_t)T, sizeof *bytes), total = 0;
  int64_t **nodes = calloc((size_t)T, sizeof *nodes), N, m = 0, used = 0;
  unsigned char **rows = calloc((size_t)T, sizeof *rows);
  uint32_t *score = NULL;
  tscored *sc = NULL;
  int rc = FO_OK;
  if (!off || !cap || !bytes || !nodes || !rows) {
    rc = FO_FAIL(FO_ENOMEM, "feature cache");
    goto out;
  }
  for (int32_t t = 0; t < T; t++) off[t + 1] = off[t] + fo_dataset_node_data(d, t)->n_nodes;
  N = off[T];
  if (!(score = calloc((size_t)(N ? N : 1), sizeof *score))) {
    rc = FO_FAIL(FO_ENOMEM, "feature cache: scores of %lld nodes", (long long)N);
    goto out;
  }
  if (c->policy == FO_DIST_CACHE_DEGREE) {
    for (int32_t et = 0; et < d->n_etypes; et++) {
      fo_edge_type ety;
      fo_topology tp;
      int32_t nt;
      const fo_dataset_t *v;
      if (fo_dataset_edge_type(d, et, &ety) != FO_OK) continue;
      if (fo_dataset_edge_topology(d->parts[me], et, dir, &tp) == FO_OK)
        nt = dir == FO_EDGE_DIR_IN ? ety.src_type : ety.dst_type;
      else if (fo_dataset_edge_topology(d->parts[me], et, dir == FO_EDGE_DIR_IN ? FO_EDGE_DIR_OUT
                                        : FO_EDGE_DIR_IN, &tp) == FO_OK)
        nt = dir == FO_EDGE_DIR_IN ? ety.dst_type : ety.src_type;
      else
        continue;
      if (nt < 0 || nt >= T || !c->rowt[nt]) continue;
      v = fo_dataset_node_data(d, nt);
      for (int64_t e = 0; e < tp.n_edges; e++) {
        int64_t u = tp.indices_bytes == 4 ? ((const int32_t *)tp.indices)[e] : ((const int64_t *)tp.indices)[e];
        if (u >= 0 && u < v->n_nodes && fo__owner(v, u) != me && score[off[nt] + u] < UINT32_MAX)
          score[off[nt] + u]++;
      }
    }
  } else if ((rc = presample(c, L, off, score, bytes)) != FO_OK) { /* frequency, lookahead */
    goto out;
  }
  for (int32_t t = 0; t < T; t++)
    for (int64_t u = 0; c->rowt[t] && u < off[t + 1] - off[t]; u++) m += score[off[t] + u] > 0;
  if (!(sc = fo__malloc_n(m ? m : 1, sizeof *sc))) {
    rc = FO_FAIL(FO_ENOMEM, "cache fill");
    goto out;
  }
  m = 0;
  for (int32_t t = 0; t < T; t++)
    for (int64_t u = 0; c->rowt[t] && u < off[t + 1] - off[t]; u++)
      if (score[off[t] + u] > 0) sc[m++] = (tscored){score[off[t] + u], t, u};
  qsort(sc, (size_t)m, sizeof *sc, cmp_tscored);
  for (int64_t i = 0; i < m; i++)
    if (used + c->rowt[sc[i].t] <= c->budget) {
      used += c->rowt[sc[i].t];
      cap[sc[i].t]++;
    }
  if (c->policy == FO_DIST_CACHE_LOOKAHEAD) {
    /* the budget the ranking leaves (fewer scored pairs than fit) by the types' remote bytes */
    int32_t n_row = 0;
    const int64_t left = c->budget - used;
    for (int32_t t = 0; t < T; t++) {
      total += bytes[t];
      n_row += c->rowt[t] > 0;
    }
    for (int32_t t = 0; t < T; t++)
      if (c->rowt[t])
        cap[t] += total > 0 ? (int64_t)((double)left * (bytes[t] / total)) / c->rowt[t]
                            : left / n_row / c->rowt[t];
  }
  for (int32_t t = 0; t < T; t++)
    if (cap[t] > 0 && (rc = fo__rcache_create(cap[t], c->rowt[t], &c->rcs[t])) != FO_OK) goto out;
  if (c->policy == FO_DIST_CACHE_LOOKAHEAD) goto out;
  /* the static fill: the chosen pairs, in rank order per type, in one request per machine */
  for (int32_t t = 0; t < T; t++)
    if (cap[t] && (!(nodes[t] = fo__malloc_n(cap[t], sizeof **nodes)) ||
                   !(rows[t] = fo__malloc_n(cap[t], (size_t)c->rowt[t])))) {
      rc = FO_FAIL(FO_ENOMEM, "cache fill of %lld rows", (long long)cap[t]);
      goto out;
    }
  memset(cap, 0, (size_t)T * sizeof *cap);
  used = 0;
  for (int64_t i = 0; i < m; i++)
    if (used + c->rowt[sc[i].t] <= c->budget) {
      used += c->rowt[sc[i].t];
      nodes[sc[i].t][cap[sc[i].t]++] = sc[i].node;
    }
  if (used && (rc = fetch_typed_rows(c, nodes, cap, rows)) != FO_OK) goto out;
  for (int32_t t = 0; t < T; t++) {
    for (int64_t i = 0; i < cap[t]; i++) nodes[t][i] = nodes[t][i] * T + t; /* the store's keys */
    if (cap[t]) fo__rcache_insert(c->rcs[t], nodes[t], rows[t], cap[t]);
    c->filled += cap[t];
  }
out:
  for (int32_t t = 0; nodes && rows && t < T; t++) {
    free(nodes[t]);
    free(rows[t]);
  }
  free(nodes);
  free(rows);
  free(sc);
  free(score);
  free(off);
  free(cap);
  free(bytes);
  return rc;
}

/* Lookahead's plans; with a node loader (L) also its batches begun and a sampler, and the
 * pipelining threads. */
static int lookahead_init(fo__dist_cache *c, fo_loader_t *L) {
  ahead *a = NULL;
  int rc;
  if (!(c->plans = calloc((size_t)c->K + 1, sizeof *c->plans))) return FO_FAIL(FO_ENOMEM, "feature cache");
  c->n_started = L ? fo_loader_num_batches(L) : 0;
  if (!(c->started = calloc((size_t)(c->n_started ? c->n_started : 1), 1)))
    return FO_FAIL(FO_ENOMEM, "feature cache");
  c->started_epoch = L ? fo__loader_epoch(L) : 0;
  for (int32_t i = 0; i <= c->K; i++) {
    c->plans[i].j = -1;
    if ((rc = fo_batch_create(&c->plans[i].b)) != FO_OK) return fo__context(rc, "feature cache");
  }
  if (!L) return FO_OK; /* a source's batches: sampled by its own loader */
  /* one sampler now: a bad option fails the creation, not the first batch */
  if ((rc = ahead_new(c, &a)) != FO_OK) return rc;
  ahead_put_locked(c, a); /* no other thread yet */
  if (!c->n_threads) return FO_OK;
  if (!(c->threads = calloc((size_t)c->n_threads, sizeof *c->threads)) ||
      !(c->thread_ahead = calloc((size_t)c->n_threads, sizeof *c->thread_ahead)))
    return FO_FAIL(FO_ENOMEM, "feature cache: %d pipelining threads", (int)c->n_threads);
  for (int32_t i = 0; i < c->n_threads; i++) {
    if ((rc = ahead_new(c, &c->thread_ahead[i])) != FO_OK) return rc;
    c->thread_ahead[i]->owner = c;
    c->thread_ahead[i]->sc.own = true; /* the loader's order may change under it */
  }
  for (int32_t i = 0; i < c->n_threads; i++) {
    int err = pthread_create(&c->threads[i], NULL, ahead_main, c->thread_ahead[i]);
    if (err) return FO_FAIL(FO_EIO, "feature cache: start pipelining thread %d: %s", (int)i, strerror(err));
    c->started_threads = i + 1;
  }
  return FO_OK;
}

/* Every policy's preparation: the batches from the node loader L or (L NULL) from c->src (or
 * none: degree); `dir` the sampler's edge direction. */
static int prepare(fo__dist_cache *c, fo_loader_t *L, fo_edge_dir dir) {
  static const int64_t zero_off[1] = {0};
  const fo_dataset_t *d = c->d;
  const int me = c->dd->machine;
  uint32_t *score = NULL;
  int rc = FO_OK;
  if (c->rcs && (rc = prepare_typed(c, L, dir)) != FO_OK) goto out;
  if (c->policy == FO_DIST_CACHE_LOOKAHEAD) return lookahead_init(c, L);
  if (c->rcs) return FO_OK; /* typed: filled by prepare_typed */
  if (!(score = calloc((size_t)(d->n_nodes ? d->n_nodes : 1), sizeof *score)))
    return FO_FAIL(FO_ENOMEM, "feature cache: scores of %lld nodes", (long long)d->n_nodes);
  if (c->policy == FO_DIST_CACHE_DEGREE) { /* edges from each remote node into this part */
    fo_topology t;
    if ((rc = fo_dataset_topology(d->parts[me], FO_EDGE_DIR_IN, &t)) != FO_OK) goto out;
    for (int64_t e = 0; e < t.n_edges; e++) {
      int64_t v = t.indices_bytes == 4 ? ((const int32_t *)t.indices)[e] : ((const int64_t *)t.indices)[e];
      if (v >= 0 && v < d->n_nodes && fo__owner(d, v) != me && score[v] < UINT32_MAX) score[v]++;
    }
  } else if ((rc = presample(c, L, zero_off, score, NULL)) != FO_OK) { /* frequency */
    goto out;
  }
  rc = fill_top(c, score);
out:
  free(score);
  return rc == FO_OK ? FO_OK : fo__context(rc, "fill the %s feature cache", fo__cache_policy_name(c->policy));
}

int fo__dist_cache_prepare_degree(fo__dist_cache *c, fo_edge_dir dir) {
  if (c->policy != FO_DIST_CACHE_DEGREE)
    return FO_FAIL(FO_EINVAL, "feature cache: policy %s has no fill without a node loader",
                   fo__cache_policy_name(c->policy));
  return prepare(c, NULL, dir);
}

int fo__dist_cache_prepare_source(fo__dist_cache *c, const fo__cache_source *src, fo_edge_dir dir) {
  c->src = src;
  return prepare(c, NULL, dir);
}

int fo__dist_cache_prepare(fo__dist_cache *c, fo_loader_t *L) {
  c->L = L;
  return prepare(c, L, fo__loader_sampler_opts(L)->edge_dir);
}

/* Lookahead, after batch j's gather: plan batches j+1 .. j+K (sampling, without the lock, those
 * no thread has planned or is planning), then Belady's step over the rows just fetched
 * (fetched[0..nf), rows of the store's row size) with the next uses of the plans at hand. */
static int lookahead_step(fo__dist_cache *c, uint64_t epoch, int64_t j, const int64_t *const *fetched,
                          const unsigned char *const *rows, const int64_t *nf) {
  const int64_t nb = c->src ? c->src->num_batches(c->src->ctx, epoch) : fo_loader_num_batches(c->L);
  int64_t claim[1024], n_claim = 0, done = 0;
  ahead *a = NULL;
  int rc = FO_OK;
  pthread_mutex_lock(&c->mu);
  /* batches a loader thread has begun are sampled there (planning them would sample twice); with
   * pipelining threads they plan, not the gathers */
  for (int64_t t = j + 1; !c->n_threads && t <= j + c->K && t < nb; t++)
    if (claimable(c, epoch, t)) {
      plan_claim(c, t);
      claim[n_claim++] = t;
    }
  pthread_mutex_unlock(&c->mu);
  if (n_claim && !c->src) rc = ahead_get(c, &a);
  /* the claimed plans are this thread's until they are released below */
  for (; rc == FO_OK && done < n_claim; done++) {
    plan *p = &c->plans[claim[done] % (c->K + 1)];
    rc = c->src ? plan_fill_src(c, p, epoch, claim[done]) : plan_fill(c, a, p, epoch, claim[done]);
    if (rc != FO_OK) break;
  }
  pthread_mutex_lock(&c->mu);
  for (int64_t q = 0; q < n_claim; q++)
    plan_release(c, &c->plans[claim[q] % (c->K + 1)], epoch, claim[q], q < done);
  ahead_put_locked(c, a);
  if (rc == FO_OK) {
    fo__nextuse_clear(&c->nu);
    for (int64_t t = j + 1; rc == FO_OK && t <= j + c->K && t < nb; t++) {
      const plan *p = &c->plans[t % (c->K + 1)];
      if (p->busy || p->j != t || p->epoch != epoch) continue; /* another thread's, in the making */
      for (int64_t i = 0; rc == FO_OK && i < p->n; i++) rc = fo__nextuse_put_first(&c->nu, p->nodes[i], t);
    }
    if (rc == FO_OK && !c->rcs) rc = fo__rcache_belady(c->rc, fetched[0], rows[0], nf[0], &c->nu);
    /* typed: each node type's store over its own rows, with the next uses of all */
    for (int32_t q = 0; rc == FO_OK && c->rcs && q < c->T; q++)
      if (c->rcs[q]) rc = fo__rcache_belady(c->rcs[q], fetched[q], rows[q], nf[q], &c->nu);
  }
  pthread_mutex_unlock(&c->mu);
  return rc;
}

bool fo__dist_cache_take(fo__dist_cache *c, uint64_t epoch, int64_t j, fo_batch_t **b) {
  plan *p;
  bool took = false;
  if (!c || c->policy != FO_DIST_CACHE_LOOKAHEAD || !c->plans || j < 0) return false;
  pthread_mutex_lock(&c->mu);
  p = &c->plans[j % (c->K + 1)];
  /* another thread samples this very batch ahead: wait for it rather than sample it twice (it
   * ends, with the batch or an error, within the transport's deadline) */
  while (p->busy && p->busy_j == j) pthread_cond_wait(&c->cv, &c->mu);
  if (c->started_epoch != epoch) { /* no gather of the old epoch runs now */
    c->started_epoch = epoch;
    memset(c->started, 0, (size_t)c->n_started);
    c->lo = 0;
    for (int32_t i = 0; i <= c->K; i++) c->plans[i].in_use = false;
  }
  if (j < c->n_started) c->started[j] = 1;
  while (c->lo < c->n_started && c->started[c->lo]) c->lo++;
  pthread_cond_broadcast(&c->work_cv); /* the window moved */
  if (!p->busy && p->has_b && p->j == j && p->epoch == epoch) {
    fo_batch_t *t = *b;
    *b = p->b;
    p->b = t;
    p->has_b = false;
    p->in_use = p->n_pf > 0; /* until this batch's gather copies the rows fetched ahead */
    took = true;
    if (fo__cur_batch_stats) { /* the batch's own traffic, made ahead */
      fo_dist_batch_stats *s = fo__cur_batch_stats;
      for (int h = 0; h < 64; h++) {
        s->hop_requests[h] += p->traffic.hop_requests[h];
        s->hop_bytes[h] += p->traffic.hop_bytes[h];
        s->hop_edges[h] += p->traffic.hop_edges[h];
      }
      s->fetch_requests += p->traffic.fetch_requests;
      s->fetch_bytes += p->traffic.fetch_bytes;
      s->remote_rows += p->traffic.remote_rows;
    }
  }
  pthread_mutex_unlock(&c->mu);
  return took;
}

int fo__dist_cache_gather(fo__dist_cache *c, const int64_t *nodes, int64_t n, void *x,
                          int64_t row_bytes, int64_t *y, int64_t n_y) {
  const fo_dataset_t *d = c->d;
  const int me = c->dd->machine;
  const int64_t row = c->xb + (c->y ? 8 : 0), n1 = n ? n : 1;
  const bool la = c->policy == FO_DIST_CACHE_LOOKAHEAD;
  int64_t m = 0, hits = 0, nf = 0, *miss, *pos, *my = NULL, *fetched = NULL;
  unsigned char *mx = NULL, *fetched_rows = NULL;
  plan *pl = NULL;
  int64_t q = 0;
  int rc = FO_OK;
  /* a gather the cache was not made for (features or labels differ): the plain one */
  if ((x != NULL) != (c->xb > 0) || (x && row_bytes != c->xb) || (y != NULL) != c->y)
    return c->plain(c->plain_ctx, nodes, n, x, row_bytes, y, n_y);
  /* per-call scratch: several threads gather at once */
  miss = fo__malloc_n(n1, sizeof *miss);
  pos = fo__malloc_n(n1, sizeof *pos);
  if (x) mx = fo__malloc_n(n1, (size_t)c->xb);
  if (y) my = fo__malloc_n(n1, sizeof *my);
  if (la) {
    fetched = fo__malloc_n(n1, sizeof *fetched);
    fetched_rows = fo__malloc_n(n1, (size_t)row);
  }
  if (!miss || !pos || (x && !mx) || (y && !my) || (la && (!fetched || !fetched_rows))) {
    rc = FO_FAIL(FO_ENOMEM, "cache gather of %lld rows", (long long)n);
    goto out;
  }
  /* hits are copied out under the lock (lookahead changes the store; static fills do not) */
  if (la) {
    pthread_mutex_lock(&c->mu);
    if (fo__cur_batch_pos && c->plans) { /* rows a pipelining thread fetched ahead */
      plan *p = &c->plans[fo__cur_batch_pos->local_index % (c->K + 1)];
      if (p->in_use && p->j == fo__cur_batch_pos->local_index && p->epoch == fo__cur_batch_pos->epoch)
        pl = p;
    }
  }
  for (int64_t i = 0; i < n; i++) {
    int64_t v = nodes[i], s;
    /* the rows fetched ahead are those of the batch's remote nodes in batch order */
    if (pl && q < pl->n_pf && pl->pf[q] == v) {
      const unsigned char *r = pl->rows + q * row;
      if (x) memcpy((unsigned char *)x + i * c->xb, r, (size_t)c->xb);
      if (y && i < n_y) memcpy(&y[i], r + c->xb, 8);
      fetched[nf] = v; /* for Belady's step, as if fetched now */
      memcpy(fetched_rows + nf * row, r, (size_t)row);
      nf++;
      q++;
      continue;
    }
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
  if (pl) {
    pl->in_use = false; /* its slot may be planned again */
    pthread_cond_broadcast(&c->work_cv);
    __atomic_fetch_add(&fo__cache_rows_ahead, q, __ATOMIC_RELAXED);
  }
  if (la) pthread_mutex_unlock(&c->mu);
  /* the misses, in one request per remote machine, without the lock */
  if (la && fo__cache_fetch_hook) fo__cache_fetch_hook();
  if ((rc = c->plain(c->plain_ctx, miss, m, mx, c->xb, my, m)) != FO_OK) goto out;
  for (int64_t t = 0; t < m; t++) {
    if (x) memcpy((unsigned char *)x + pos[t] * c->xb, mx + t * c->xb, (size_t)c->xb);
    if (y && pos[t] < n_y) y[pos[t]] = my[t];
  }
  /* Belady's step over the fetched remote rows, with the next uses of the batches ahead */
  if (la && fo__cur_batch_pos) {
    for (int64_t t = 0; t < m; t++) {
      if (fo__owner(d, miss[t]) == me) continue;
      fetched[nf] = miss[t];
      if (x) memcpy(fetched_rows + nf * row, mx + t * c->xb, (size_t)c->xb);
      if (y) memcpy(fetched_rows + nf * row + c->xb, &my[t], 8);
      nf++;
    }
    const int64_t *fa[1] = {fetched};
    const unsigned char *ra[1] = {fetched_rows};
    if ((rc = lookahead_step(c, fo__cur_batch_pos->epoch, fo__cur_batch_pos->local_index, fa, ra,
                             &nf)) != FO_OK)
      goto out;
  }
  if (fo__cur_batch_stats) {
    fo__cur_batch_stats->remote_rows += hits; /* the plain gather counted the misses */
    fo__cur_batch_stats->cache_hits += hits;
    fo__cur_batch_stats->cache_bytes_saved += hits * row;
  }
out:
  free(miss);
  free(pos);
  free(mx);
  free(my);
  free(fetched);
  free(fetched_rows);
  return rc;
}

int fo__dist_cache_gather_typed(fo__dist_cache *c, const fo_batch_t *b, unsigned char *const *x,
                                const int64_t *row_bytes, int32_t seed_type, int64_t *y, int64_t n_y) {
  const fo_dataset_t *d = c->d;
  const int me = c->dd->machine;
  const int32_t T = c->T;
  const bool la = c->policy == FO_DIST_CACHE_LOOKAHEAD;
  bool same = seed_type == c->seed_type && (y != NULL) == c->yt[seed_type];
  const int64_t **node = calloc((size_t)T, sizeof *node);
  int64_t *nt_n = calloc((size_t)T, sizeof *nt_n), *m = calloc((size_t)T, sizeof *m);
  int64_t *nf = calloc((size_t)T, sizeof *nf);
  int64_t **miss = calloc((size_t)T, sizeof *miss), **pos = calloc((size_t)T, sizeof *pos);
  int64_t **fetched = calloc((size_t)T, sizeof *fetched), *my = NULL, hits = 0, saved = 0;
  unsigned char **mx = calloc((size_t)T, sizeof *mx), **frows = calloc((size_t)T, sizeof *frows);
  int64_t *pstart = NULL, *pbase = NULL, n_ahead = 0;
  plan *pl = NULL;
  int rc = FO_OK;
  if (!node || !nt_n || !m || !nf || !miss || !pos || !fetched || !mx || !frows) {
    rc = FO_FAIL(FO_ENOMEM, "cache gather");
    goto out;
  }
  for (int32_t t = 0; t < T; t++) {
    const fo_batch_t *nb = fo_batch_node_type(b, t);
    node[t] = nb->node;
    nt_n[t] = x[t] ? nb->n_nodes : (y && t == seed_type ? n_y : 0);
    if (nt_n[t] && ((x[t] != NULL) != (c->xbt[t] > 0) || (x[t] && row_bytes[t] != c->xbt[t])))
      same = false;
  }
  /* a gather the cache was not made for (features or labels differ): the plain one */
  if (!same) {
    rc = c->plain_t(c->plain_ctx, node, nt_n, x, row_bytes, seed_type, y, n_y);
    goto out;
  }
  for (int32_t t = 0; t < T; t++) {
    const int64_t n1 = nt_n[t] ? nt_n[t] : 1;
    if (!nt_n[t]) continue;
    if (!(miss[t] = fo__malloc_n(n1, sizeof **miss)) || !(pos[t] = fo__malloc_n(n1, sizeof **pos)) ||
        (x[t] && !(mx[t] = fo__malloc_n(n1, (size_t)c->xbt[t]))) ||
        (la && (!(fetched[t] = fo__malloc_n(n1, sizeof **fetched)) ||
                !(frows[t] = fo__malloc_n(n1, (size_t)c->rowt[t]))))) {
      rc = FO_FAIL(FO_ENOMEM, "cache gather of %lld rows", (long long)nt_n[t]);
      goto out;
    }
  }
  if (y && !(my = fo__malloc_n(nt_n[seed_type] ? nt_n[seed_type] : 1, sizeof *my))) {
    rc = FO_FAIL(FO_ENOMEM, "cache gather of %lld labels", (long long)nt_n[seed_type]);
    goto out;
  }
  /* hits are copied out under the lock (lookahead changes the stores; static fills do not) */
  if (la) {
    pthread_mutex_lock(&c->mu);
    if (fo__cur_batch_pos && c->plans) { /* rows a pipelining thread fetched ahead */
      plan *p = &c->plans[fo__cur_batch_pos->local_index % (c->K + 1)];
      if (p->in_use && p->j == fo__cur_batch_pos->local_index && p->epoch == fo__cur_batch_pos->epoch) {
        if (!(pstart = fo__malloc_n((int64_t)T + 1, sizeof *pstart)) || !(pbase = fo__malloc_n(T, sizeof *pbase))) {
          pthread_mutex_unlock(&c->mu);
          rc = FO_FAIL(FO_ENOMEM, "cache gather");
          goto out;
        }
        pl = p;
        plan_blocks(c, pl, pstart, pbase);
      }
    }
  }
  for (int32_t t = 0; t < T; t++) {
    const fo_dataset_t *v = fo_dataset_node_data(d, t);
    const fo__rcache *rc_t = c->rcs[t];
    const int64_t xb = c->xbt[t];
    int64_t q = pl ? pstart[t] : 0;
    for (int64_t i = 0; i < nt_n[t]; i++) {
      const int64_t u = node[t][i];
      int64_t s;
      /* the rows fetched ahead are those of the batch's remote nodes of type t in batch order */
      if (pl && q < pstart[t + 1] && pl->pf[q] == u * T + t) {
        const unsigned char *r = pl->rows + pbase[t] + (q - pstart[t]) * c->rowt[t];
        if (x[t]) memcpy(x[t] + i * xb, r, (size_t)xb);
        if (y && t == seed_type && i < n_y) memcpy(&y[i], r + xb, 8);
        if (rc_t) { /* for Belady's step, as if fetched now */
          fetched[t][nf[t]] = u * T + t;
          memcpy(frows[t] + nf[t] * c->rowt[t], r, (size_t)c->rowt[t]);
          nf[t]++;
        }
        q++;
        n_ahead++;
        continue;
      }
      if (rc_t && u >= 0 && u < v->n_nodes && fo__owner(v, u) != me &&
          (s = fo__rcache_find(rc_t, u * T + t)) >= 0) {
        const unsigned char *r = fo__rcache_row(rc_t, s);
        if (x[t]) memcpy(x[t] + i * xb, r, (size_t)xb);
        if (y && t == seed_type && i < n_y) memcpy(&y[i], r + xb, 8);
        hits++;
        saved += c->rowt[t];
        continue;
      }
      miss[t][m[t]] = u;
      pos[t][m[t]++] = i;
    }
  }
  if (pl) {
    pl->in_use = false; /* its slot may be planned again */
    pthread_cond_broadcast(&c->work_cv);
    __atomic_fetch_add(&fo__cache_rows_ahead, n_ahead, __ATOMIC_RELAXED);
  }
  if (la) pthread_mutex_unlock(&c->mu);
  /* the misses of every type, in one request per remote machine, without the lock */
  if (la && fo__cache_fetch_hook) fo__cache_fetch_hook();
  if ((rc = c->plain_t(c->plain_ctx, (const int64_t *const *)miss, m, mx, c->xbt, seed_type, my,
                       y ? m[seed_type] : 0)) != FO_OK)
    goto out;
  for (int32_t t = 0; t < T; t++)
    for (int64_t q = 0; q < m[t]; q++) {
      if (x[t]) memcpy(x[t] + pos[t][q] * c->xbt[t], mx[t] + q * c->xbt[t], (size_t)c->xbt[t]);
      if (y && t == seed_type && pos[t][q] < n_y) y[pos[t][q]] = my[q];
    }
  /* Belady's step over the fetched remote rows of each type, with the next uses of the batches
   * ahead */
  if (la && fo__cur_batch_pos) {
    for (int32_t t = 0; t < T; t++) {
      const fo_dataset_t *v = fo_dataset_node_data(d, t);
      if (!c->rcs[t]) continue;
      for (int64_t q = 0; q < m[t]; q++) {
        unsigned char *r = frows[t] + nf[t] * c->rowt[t];
        if (fo__owner(v, miss[t][q]) == me) continue;
        fetched[t][nf[t]] = miss[t][q] * T + t;
        if (x[t]) memcpy(r, mx[t] + q * c->xbt[t], (size_t)c->xbt[t]);
        if (c->yt[t]) memcpy(r + c->xbt[t], &my[q], 8);
        nf[t]++;
      }
    }
    if ((rc = lookahead_step(c, fo__cur_batch_pos->epoch, fo__cur_batch_pos->local_index,
                             (const int64_t *const *)fetched, (const unsigned char *const *)frows,
                             nf)) != FO_OK)
      goto out;
  }
  if (fo__cur_batch_stats) {
    fo__cur_batch_stats->remote_rows += hits; /* the plain gather counted the misses */
    fo__cur_batch_stats->cache_hits += hits;
    fo__cur_batch_stats->cache_bytes_saved += saved;
  }
out:
  for (int32_t t = 0; t < T; t++) {
    if (miss) free(miss[t]);
    if (pos) free(pos[t]);
    if (mx) free(mx[t]);
    if (fetched) free(fetched[t]);
    if (frows) free(frows[t]);
  }
  free(node);
  free(nt_n);
  free(m);
  free(nf);
  free(miss);
  free(pos);
  free(fetched);
  free(mx);
  free(frows);
  free(my);
  free(pstart);
  free(pbase);
  return rc;
}
