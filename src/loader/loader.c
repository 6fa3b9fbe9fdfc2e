/*
 * loader/loader.c: the neighbor loader: seed batching, worker threads, a bounded window of
 * batches in flight, feature and label gather, in-order hand-out.
 *
 * State (under one mutex): the epoch's batch count, `next_job` (the next batch index a worker
 * will take), `next_out` (the next index the consumer will get) and a pool of slots, each FREE,
 * BUSY (a worker fills it), READY (filled, waiting for its turn) or HELD (handed out). A worker
 * takes batch `next_job` when it is within `prefetch` of `next_out` and a FREE slot exists,
 * fills the slot without the lock, and marks it READY; next() waits until the slot holding
 * `next_out` is READY. Workers wait on `work_cv`, the consumer on `ready_cv`; nobody polls.
 * If the consumer holds every slot, next() adds one instead of waiting, so holding batches
 * never deadlocks. An epoch restart bumps `gen`, so late results of the old epoch are dropped.
 *
 * Each slot owns its fo_batch_t and x/y/input_id buffers, which grow to the largest batch seen
 * and are then reused. Each worker owns a fo_sampler_t. With num_workers == 0 next() fills a
 * slot itself on the caller's thread.
 */
#include "loader/loader_internal.h"

#include <errno.h>
#include <time.h>

#include <pthread.h>
#define XXH_STATIC_LINKING_ONLY /* XXH64_state_t on the stack */
#include <xxhash.h>

#define MAX_WORKERS 256
#define MAX_PREFETCH 65536

enum { SLOT_FREE, SLOT_BUSY, SLOT_READY, SLOT_HELD };

typedef struct slot {
  fo_loader_batch_t pub; /* first: fo__loader_batch_stats finds the slot from it */
  fo_dist_batch_stats traffic; /* the dist layer's counters of this batch */
  int state;
  int64_t index;
  uint64_t gen;
  int rc;
  char *msg;           /* worker's error message (malloc'ed) or NULL */
  fo_batch_t *b;
  int64_t *input_id, *y;
  int64_t cap_seeds;
  int64_t *time;       /* temporal: [batch_size] seed times */
  int64_t cap_time;
  unsigned char *x;
  int64_t cap_x_bytes;
  /* typed datasets: x per node type */
  unsigned char **xt;
  int64_t *cap_xt;
  fo_loader_features *pub_x;
  int32_t n_types;
} slot;

typedef struct worker {
  fo_loader_t *L;
  pthread_t thread;
  fo_sampler_t *s;
  bool started;
} worker;

struct fo_loader {
  const fo_dataset_t *d;
  fo_loader_opts o;
  int32_t *fanouts;
  int64_t *inputs;      /* [n_inputs] node ids */
  int64_t *input_time;  /* [n_inputs] seed times (temporal, given), or NULL */
  int64_t n_inputs;
  int64_t *order;       /* [n_inputs] positions into inputs, this epoch's order */
  fo__gather g;         /* feature/label sources (NULL parts when not gathered) */
  /* typed datasets: the seeds' node type, and one gather per node type (labels only for the
   * seeds' type) */
  bool typed;
  int32_t seed_type, n_types;
  fo__gather *gt;
  int32_t *etype_fanouts;

  pthread_mutex_t mu;
  pthread_cond_t work_cv, ready_cv;
  bool stop;
  uint64_t epoch, gen;
  int64_t n_batches, next_job, next_out;
  slot **slots;
  int64_t n_slots;

  worker *workers;
  int32_t n_workers;
  fo_loader_stats stats;  /* under mu */
  fo__loader_hooks hooks; /* distributed loaders; zero otherwise */
  int64_t epoch_batches;  /* batches of the whole epoch (all shards) */
  /* seed placement local (hooks.local_seeds): each input's machine, the inputs this machine
   * owns in this epoch's order (positions into inputs), and this machine's batch count */
  int32_t *input_machine;
  int64_t *mine, n_mine, machine_batches;
  fo_sampler_t *own_sampler; /* num_workers == 0 */
};

void fo_loader_opts_init(fo_loader_opts *o) {
  memset(o, 0, sizeof *o);
  fo_sampler_opts_init(&o->sampler);
  o->batch_size = 1;
  o->input_nodes = NULL;
  o->n_input_nodes = 0;
  o->split = NULL;
  o->shuffle = false;
  o->drop_last = false;
  o->num_workers = fo_worker_thread_budget() > 0 ? fo_worker_thread_budget() : 1;
  if (o->num_workers > MAX_WORKERS) o->num_workers = MAX_WORKERS;
  o->prefetch = 0;
  o->epoch = 0;
  o->features = true;
  o->labels = true;
}

/* ---- producing one batch (any thread, no lock) ------------------------------------------- */

static int grow_slot(slot *sl, int64_t n_seeds, int64_t x_bytes) {
  int rc;
  if (n_seeds > sl->cap_seeds) {
    int64_t c1 = sl->cap_seeds, c2 = sl->cap_seeds;
    if ((rc = fo__grow(&sl->input_id, &c1, n_seeds, sizeof *sl->input_id, "batch seeds")) != FO_OK ||
        (rc = fo__grow(&sl->y, &c2, n_seeds, sizeof *sl->y, "batch labels")) != FO_OK)
      return rc;
    sl->cap_seeds = c1 < c2 ? c1 : c2;
  }
  if (x_bytes > sl->cap_x_bytes &&
      (rc = fo__grow(&sl->x, &sl->cap_x_bytes, x_bytes, 1, "batch features")) != FO_OK)
    return rc;
  return FO_OK;
}

/* The gather of a typed batch: each node type's feature rows, the seeds' labels. */
static int produce_typed(fo_loader_t *L, slot *sl, uint64_t epoch, int64_t index, int64_t k,
                         uint64_t t1, fo_loader_stats *st) {
  int64_t bytes_all = 0;
  int rc;
  for (int32_t t = 0; t < L->n_types; t++) {
    const fo__gather *g = &L->gt[t];
    const fo_batch_t *nb = fo_batch_node_type(sl->b, t);
    fo_loader_features *f = &sl->pub_x[t];
    memset(f, 0, sizeof *f);
    if (!g->x) continue;
    if (nb->n_nodes > INT64_MAX / g->row_bytes)
      return FO_FAIL(FO_ERANGE, "batch %lld: feature rows overflow", (long long)index);
    if ((rc = fo__grow(&sl->xt[t], &sl->cap_xt[t], nb->n_nodes * g->row_bytes + 1, 1,
                       "batch features")) != FO_OK)
      return rc;
    /* distributed: every type's rows in one request per machine, below */
    if (!L->hooks.gather_typed && (rc = fo__gather_rows(g, nb->node, nb->n_nodes, sl->xt[t])) != FO_OK)
      return rc;
    f->x = sl->xt[t];
    f->dim = g->dim;
    f->itemsize = g->itemsize;
    f->dtype = g->dtype;
    bytes_all += nb->n_nodes * g->row_bytes;
  }
  if (L->hooks.gather_typed) {
    unsigned char **xp = calloc((size_t)L->n_types, sizeof *xp);
    int64_t *rp = calloc((size_t)L->n_types, sizeof *rp);
    if (!xp || !rp) {
      free(xp);
      free(rp);
      return FO_FAIL(FO_ENOMEM, "gather");
    }
    for (int32_t t = 0; t < L->n_types; t++) {
      xp[t] = sl->pub_x[t].x ? sl->xt[t] : NULL;
      rp[t] = L->gt[t].row_bytes;
    }
    rc = L->hooks.gather_typed(L->hooks.ctx, sl->b, xp, rp, L->seed_type,
                               L->gt[L->seed_type].y ? sl->y : NULL, k);
    free(xp);
    free(rp);
    if (rc != FO_OK) return rc;
  } else if (L->gt[L->seed_type].y &&
             (rc = fo__gather_labels(&L->gt[L->seed_type], fo_batch_node_type(sl->b, L->seed_type)->node,
                                     k, sl->y)) != FO_OK) {
    return rc;
  }
  st->gather_ns += (int64_t)(fo__now_ns() - t1);
  st->gather_bytes += bytes_all + (L->gt[L->seed_type].y ? k * 8 : 0);
  sl->pub.epoch = epoch;
  sl->pub.index = index;
  sl->pub.sample = sl->b;
  sl->pub.batch_size = k;
  sl->pub.input_id = sl->input_id;
  sl->pub.x = NULL;
  sl->pub.x_dim = sl->pub.x_itemsize = 0;
  sl->pub.x_dtype = NULL;
  sl->pub.y = L->gt[L->seed_type].y ? sl->y : NULL;
  sl->pub.n_node_types = L->n_types;
  sl->pub.x_types = sl->pub_x;
  sl->pub.input_type = L->seed_type;
  return FO_OK;
}

_Thread_local fo_dist_batch_stats *fo__cur_batch_stats;
_Thread_local const fo__batch_pos *fo__cur_batch_pos;

const fo_dist_batch_stats *fo__loader_batch_stats(const fo_loader_batch_t *b) {
  return b ? &((const slot *)(const void *)b)->traffic : NULL;
}

static int produce_batch(fo_loader_t *L, fo_sampler_t *s, slot *sl, uint64_t epoch,
                         int64_t local_index, fo_loader_stats *st);

/* Where this loader's batch j lies: its index, its offset into the epoch's order (of `avail`
 * inputs: all, or this machine's with local seeds) and its seed count. */
static void batch_place(const fo_loader_t *L, int64_t j, int64_t avail, int64_t *index,
                        int64_t *off, int64_t *k) {
  /* this loader's batch j is the epoch's batch shard + j * n_shards (wrapping when padded);
   * with local seeds, machine batch local_rank + j * local_size of this machine's inputs */
  const bool local = L->hooks.local_seeds;
  const int64_t bs = L->o.batch_size;
  const int64_t mb = local ? fo__local_seed_batch(j, L->hooks.local_rank, L->hooks.local_size,
                                                  L->machine_batches)
                           : 0;
  *index = local ? mb * L->hooks.n_machines + L->hooks.machine
           : L->hooks.n_shards > 1 ? (L->hooks.shard + j * L->hooks.n_shards) % L->epoch_batches
                                   : j;
  *off = (local ? mb : *index) * bs;
  *k = avail - *off < bs ? avail - *off : bs;
}

void fo__seed_scratch_fini(fo__seed_scratch *sc) {
  free(sc->order);
  free(sc->mine);
  memset(sc, 0, sizeof *sc);
}

int fo__loader_batch_seeds(const fo_loader_t *L, uint64_t epoch, int64_t j, fo__seed_scratch *sc,
                           int64_t *seeds, int64_t *k, int64_t *index) {
  const bool local = L->hooks.local_seeds;
  const int64_t *order = local ? L->mine : L->order;
  int64_t avail = local ? L->n_mine : L->n_inputs, off;
  if (sc->own || epoch != L->epoch) {
    if (!sc->valid || sc->epoch != epoch) {
      int rc;
      if (!sc->order && !(sc->order = fo__malloc_n(L->n_inputs, sizeof *sc->order)))
        return FO_FAIL(FO_ENOMEM, "seed order");
      if (local && !sc->mine && !(sc->mine = fo__malloc_n(L->n_inputs, sizeof *sc->mine)))
        return FO_FAIL(FO_ENOMEM, "seed order");
      if (L->o.shuffle) {
        if ((rc = fo_random_permutation(L->n_inputs, L->o.sampler.seed, epoch, sc->order)) != FO_OK)
          return rc;
      } else {
        for (int64_t i = 0; i < L->n_inputs; i++) sc->order[i] = i;
      }
      sc->n_mine = 0;
      for (int64_t i = 0; local && i < L->n_inputs; i++)
        if (L->input_machine[sc->order[i]] == L->hooks.machine) sc->mine[sc->n_mine++] = sc->order[i];
      sc->valid = true;
      sc->epoch = epoch;
    }
    order = local ? sc->mine : sc->order;
    avail = local ? sc->n_mine : L->n_inputs;
  }
  batch_place(L, j, avail, index, &off, k);
  for (int64_t i = 0; i < *k; i++) seeds[i] = L->inputs[order[off + i]];
  return FO_OK;
}

const fo_sampler_opts *fo__loader_sampler_opts(const fo_loader_t *L) { return &L->o.sampler; }
int64_t fo__loader_batch_size(const fo_loader_t *L) { return L->o.batch_size; }
uint64_t fo__loader_epoch(const fo_loader_t *L) { return L->epoch; }

/* Fill `sl` with batch `index` of epoch `epoch` using sampler `s`; add its timings to *st. The
 * dist layer's exchanges on this thread meanwhile count into the slot's traffic. */
static int produce(fo_loader_t *L, fo_sampler_t *s, slot *sl, uint64_t epoch, int64_t local_index,
                   fo_loader_stats *st) {
  fo__batch_pos pos = {epoch, local_index};
  int rc;
  memset(&sl->traffic, 0, sizeof sl->traffic);
  fo__cur_batch_stats = &sl->traffic;
  fo__cur_batch_pos = &pos;
  rc = produce_batch(L, s, sl, epoch, local_index, st);
  fo__cur_batch_stats = NULL;
  fo__cur_batch_pos = NULL;
  return rc;
}

static int produce_batch(fo_loader_t *L, fo_sampler_t *s, slot *sl, uint64_t epoch,
                         int64_t local_index, fo_loader_stats *st) {
  int64_t index, off, k;
  const int64_t *order = L->hooks.local_seeds ? L->mine : L->order;
  int64_t *seeds;
  uint64_t t0, t1;
  int rc;
  batch_place(L, local_index, L->hooks.local_seeds ? L->n_mine : L->n_inputs, &index, &off, &k);
  if ((rc = grow_slot(sl, k, 0)) != FO_OK) return rc;
  /* the seeds go through y's buffer first (sample copies them into node[0..k)) */
  seeds = sl->y;
  for (int64_t i = 0; i < k; i++) {
    sl->input_id[i] = order[off + i];
    seeds[i] = L->inputs[sl->input_id[i]];
  }
  sl->pub.input_time = NULL;
  if (L->o.sampler.temporal != FO_TEMPORAL_NONE) {
    /* the seeds' times: given per input node, or their node times */
    const fo_dataset_t *nd = fo_dataset_node_data(L->d, L->seed_type);
    const int64_t *nt = NULL;
    int64_t n_nt = 0;
    if ((rc = fo__grow(&sl->time, &sl->cap_time, k + 1, sizeof *sl->time, "batch seed times")) != FO_OK)
      return rc;
    if (!L->input_time && fo_dataset_num_parts(L->d) == 0 && fo_dataset_node_time(nd, &nt, &n_nt) != FO_OK)
      nt = NULL; /* the sampler names what is missing */
    for (int64_t i = 0; i < k; i++)
      sl->time[i] = L->input_time ? L->input_time[sl->input_id[i]] : nt ? nt[seeds[i]] : 0;
    sl->pub.input_time = L->input_time || nt ? sl->time : NULL;
  }
  t0 = fo__now_ns();
  if (L->o.sampler.temporal == FO_TEMPORAL_NONE && L->hooks.take_sampled &&
      L->hooks.take_sampled(L->hooks.ctx, epoch, local_index, &sl->b))
    rc = FO_OK; /* sampled ahead (the dist layer's look-ahead): the same topology */
  else
    rc = L->o.sampler.temporal != FO_TEMPORAL_NONE
             ? fo_sampler_sample_at(s, L->seed_type, seeds, sl->pub.input_time, k, epoch,
                                    (uint64_t)index, sl->b)
             : fo_sampler_sample_typed(s, L->seed_type, seeds, k, epoch, (uint64_t)index, sl->b);
  t1 = fo__now_ns();
  st->batches++;
  st->sample_ns += (int64_t)(t1 - t0);
  if (rc != FO_OK) return rc;
  if (L->typed) return produce_typed(L, sl, epoch, index, k, t1, st);
  if (L->g.x) {
    int64_t bytes;
    if (sl->b->n_nodes > INT64_MAX / L->g.row_bytes)
      return FO_FAIL(FO_ERANGE, "batch %lld: feature rows overflow", (long long)index);
    bytes = sl->b->n_nodes * L->g.row_bytes;
    if ((rc = grow_slot(sl, k, bytes)) != FO_OK) return rc;
    if (!L->hooks.gather && (rc = fo__gather_rows(&L->g, sl->b->node, sl->b->n_nodes, sl->x)) != FO_OK)
      return rc;
  }
  if (L->hooks.gather) {
    if ((L->g.x || L->g.y) &&
        (rc = L->hooks.gather(L->hooks.ctx, sl->b->node, L->g.x ? sl->b->n_nodes : k,
                              L->g.x ? sl->x : NULL, L->g.row_bytes, L->g.y ? sl->y : NULL, k)) != FO_OK)
      return rc;
  } else if (L->g.y && (rc = fo__gather_labels(&L->g, sl->b->node, k, sl->y)) != FO_OK) {
    return rc;
  }
  st->gather_ns += (int64_t)(fo__now_ns() - t1);
  st->gather_bytes += (L->g.x ? sl->b->n_nodes * L->g.row_bytes : 0) + (L->g.y ? k * 8 : 0);
  sl->pub.epoch = epoch;
  sl->pub.index = index;
  sl->pub.sample = sl->b;
  sl->pub.batch_size = k;
  sl->pub.input_id = sl->input_id;
  sl->pub.x = L->g.x ? sl->x : NULL;
  sl->pub.x_dim = L->g.x ? L->g.dim : 0;
  sl->pub.x_itemsize = L->g.x ? L->g.itemsize : 0;
  sl->pub.x_dtype = L->g.x ? L->g.dtype : NULL;
  sl->pub.y = L->g.y ? sl->y : NULL;
  sl->pub.n_node_types = 1;
  sl->pub.x_types = NULL;
  sl->pub.input_type = 0;
  return FO_OK;
}

static void record(slot *sl, int rc) {
  free(sl->msg);
  sl->msg = NULL;
  sl->rc = rc;
  if (rc != FO_OK) sl->msg = fo__strdup(fo_last_error());
}

/* ---- slots and workers ------------------------------------------------------------------- */

static slot *slot_new(int32_t n_types) {
  slot *sl = calloc(1, sizeof *sl);
  if (!sl) return NULL;
  if (n_types > 0 && (!(sl->xt = calloc((size_t)n_types, sizeof *sl->xt)) ||
                      !(sl->cap_xt = calloc((size_t)n_types, sizeof *sl->cap_xt)) ||
                      !(sl->pub_x = calloc((size_t)n_types, sizeof *sl->pub_x)))) {
    free(sl->xt);
    free(sl->cap_xt);
    free(sl);
    return NULL;
  }
  sl->n_types = n_types;
  if (fo_batch_create(&sl->b) != FO_OK) {
    free(sl);
    return NULL;
  }
  return sl;
}

static void slot_free(slot *sl) {
  if (!sl) return;
  fo_batch_destroy(sl->b);
  for (int32_t t = 0; sl->xt && t < sl->n_types; t++) free(sl->xt[t]);
  free(sl->xt);
  free(sl->cap_xt);
  free(sl->pub_x);
  free(sl->input_id);
  free(sl->time);
  free(sl->y);
  free(sl->x);
  free(sl->msg);
  free(sl);
}

/* Add a FREE slot (lock held). */
static int add_slot(fo_loader_t *L) {
  slot **ns = realloc(L->slots, (size_t)(L->n_slots + 1) * sizeof *ns);
  if (!ns) return FO_FAIL(FO_ENOMEM, "loader slot table");
  L->slots = ns;
  if (!(L->slots[L->n_slots] = slot_new(L->typed ? L->n_types : 0)))
    return FO_FAIL(FO_ENOMEM, "loader batch slot");
  L->n_slots++;
  return FO_OK;
}

static slot *find_state(fo_loader_t *L, int state) {
  for (int64_t i = 0; i < L->n_slots; i++)
    if (L->slots[i]->state == state) return L->slots[i];
  return NULL;
}

static slot *find_ready(fo_loader_t *L, int64_t index) {
  for (int64_t i = 0; i < L->n_slots; i++)
    if (L->slots[i]->state == SLOT_READY && L->slots[i]->index == index) return L->slots[i];
  return NULL;
}

/* Whether a worker may take batch next_job now (lock held). */
static bool job_available(const fo_loader_t *L) {
  return L->next_job < L->n_batches && L->next_job < L->next_out + L->o.prefetch;
}

static void add_stats(fo_loader_stats *a, const fo_loader_stats *b) {
  a->batches += b->batches;
  a->sample_ns += b->sample_ns;
  a->gather_ns += b->gather_ns;
  a->gather_bytes += b->gather_bytes;
  a->wait_ns += b->wait_ns;
}

static void *worker_main(void *arg) {
  worker *w = arg;
  fo_loader_t *L = w->L;
  fo_loader_stats st;
  pthread_mutex_lock(&L->mu);
  for (;;) {
    slot *sl = NULL;
    int64_t index;
    uint64_t gen, epoch;
    int rc;
    while (!L->stop && !(job_available(L) && (sl = find_state(L, SLOT_FREE)) != NULL))
      pthread_cond_wait(&L->work_cv, &L->mu);
    if (L->stop) break;
    index = L->next_job++;
    gen = L->gen;
    epoch = L->epoch;
    sl->state = SLOT_BUSY;
    sl->index = index;
    sl->gen = gen;
    pthread_mutex_unlock(&L->mu);

    memset(&st, 0, sizeof st);
    rc = produce(L, w->s, sl, epoch, index, &st);
    record(sl, rc);

    pthread_mutex_lock(&L->mu);
    add_stats(&L->stats, &st);
    if (sl->gen != L->gen) {
      sl->state = SLOT_FREE; /* the epoch was restarted meanwhile: drop it */
      pthread_cond_broadcast(&L->work_cv);
    } else {
      sl->state = SLOT_READY;
    }
    pthread_cond_broadcast(&L->ready_cv); /* next() and start_epoch() wait for this */
  }
  pthread_mutex_unlock(&L->mu);
  return NULL;
}

/* ---- public API ---------------------------------------------------------------------------- */

/* ---- seed placement local ----------------------------------------------------------------- */

int fo__local_seed_plan(const int64_t *cnt, int32_t n_machines, int32_t machine, int32_t local_rank,
                        int32_t local_size, int64_t bs, bool drop_last, int tail, int64_t n_seeds,
                        const char *what, int64_t *machine_batches, int64_t *n_batches) {
  const int64_t Ls = local_size;
  int64_t lo = INT64_MAX, hi = 0, mine = 0;
  int32_t empty = -1; /* the first machine without a batch */
  for (int32_t m = 0; m < n_machines; m++) {
    const int64_t nb = cnt[m] / bs + (!drop_last && cnt[m] % bs != 0);
    if (m == machine) mine = nb;
    if (!nb && empty < 0) empty = m;
    if (nb / Ls < lo) lo = nb / Ls;                                   /* the fewest of a rank */
    if (nb / Ls + (nb % Ls != 0) > hi) hi = nb / Ls + (nb % Ls != 0); /* the most */
  }
  *machine_batches = mine;
  switch (tail) {
  case FO__TAIL_DROP: *n_batches = lo; break;
  case FO__TAIL_PAD:
    if (hi > 0 && empty >= 0) /* every process sees it: all fail alike */
      return FO_FAIL(FO_EINVAL, "seed placement local with tail pad: machine %d owns none of the "
                     "%lld %s, so its ranks have no batch to repeat (use tail keep or drop, or "
                     "seed placement global)", (int)empty, (long long)n_seeds, what);
    *n_batches = hi;
    break;
  default: *n_batches = mine / Ls + (local_rank < mine % Ls);
  }
  return FO_OK;
}

/* Each input's machine, and the per-rank batch count: every count is a function of the input
 * nodes and the partition book only (not of the epoch's order), so every process computes
 * every machine's. */
static int setup_local_seeds(fo_loader_t *L) {
  const fo__loader_hooks *h = &L->hooks;
  const int64_t bs = L->o.batch_size, Ls = h->local_size;
  int64_t *cnt;
  int rc = FO_OK;
  if (h->n_machines < 1 || Ls < 1 || h->machine < 0 || h->machine >= h->n_machines ||
      h->local_rank < 0 || h->local_rank >= Ls || !h->owner)
    return FO_FAIL(FO_EINVAL, "seed placement local: machine %d of %d, local rank %d of %d",
                   (int)h->machine, (int)h->n_machines, (int)h->local_rank, (int)Ls);
  L->input_machine = fo__malloc_n(L->n_inputs, sizeof *L->input_machine);
  L->mine = fo__malloc_n(L->n_inputs, sizeof *L->mine);
  cnt = calloc((size_t)h->n_machines, sizeof *cnt);
  if (!L->input_machine || !L->mine || !cnt) {
    free(cnt);
    return FO_FAIL(FO_ENOMEM, "seed placement local: %lld input nodes", (long long)L->n_inputs);
  }
  for (int64_t i = 0; i < L->n_inputs; i++) {
    int32_t m = h->owner(h->ctx, L->inputs[i]);
    if (m < 0 || m >= h->n_machines) {
      rc = FO_FAIL(FO_EFORMAT, "seed placement local: input node %lld has book entry %d, not a "
                   "machine in [0, %d)", (long long)L->inputs[i], (int)m, (int)h->n_machines);
      goto out;
    }
    L->input_machine[i] = m;
    cnt[m]++;
  }
  rc = fo__local_seed_plan(cnt, h->n_machines, h->machine, h->local_rank, (int32_t)Ls, bs, L->o.drop_last,
                           h->tail, L->n_inputs, "input nodes", &L->machine_batches, &L->n_batches);
  if (rc != FO_OK) goto out;
  L->epoch_batches = L->machine_batches;
out:
  free(cnt);
  return rc;
}

/* This machine's inputs in the epoch's order (after set_order). */
static void order_local_seeds(fo_loader_t *L) {
  int64_t k = 0;
  for (int64_t i = 0; i < L->n_inputs; i++)
    if (L->input_machine[L->order[i]] == L->hooks.machine) L->mine[k++] = L->order[i];
  L->n_mine = k;
}

static int64_t count_batches(fo_loader_t *L) {
  const int64_t bs = L->o.batch_size, S = L->hooks.n_shards > 1 ? L->hooks.n_shards : 1;
  if (L->hooks.local_seeds) return L->n_batches; /* setup_local_seeds counted them */
  const int64_t nb = L->n_inputs / bs + (!L->o.drop_last && L->n_inputs % bs != 0);
  L->epoch_batches = nb;
  if (S == 1) return nb;
  switch (L->hooks.tail) {
  case FO__TAIL_DROP: return nb / S;
  case FO__TAIL_PAD: return nb ? nb / S + (nb % S != 0) : 0;
  default: return nb / S + (L->hooks.shard < nb % S);
  }
}

static int set_order(fo_loader_t *L, uint64_t epoch) {
  int rc;
  if (L->o.shuffle) {
    if ((rc = fo_random_permutation(L->n_inputs, L->o.sampler.seed, epoch, L->order)) != FO_OK)
      return rc;
  } else {
    for (int64_t i = 0; i < L->n_inputs; i++) L->order[i] = i;
  }
  if (L->hooks.local_seeds) order_local_seeds(L);
  return FO_OK;
}

static int check_opts(const fo_loader_opts *o) {
  if (o->batch_size < 1) return FO_FAIL(FO_EINVAL, "batch_size %lld is not >= 1", (long long)o->batch_size);
  if (o->num_workers < 0 || o->num_workers > MAX_WORKERS)
    return FO_FAIL(FO_EINVAL, "num_workers %d is not in 0..%d", (int)o->num_workers, MAX_WORKERS);
  if (o->prefetch < 0 || o->prefetch > MAX_PREFETCH)
    return FO_FAIL(FO_EINVAL, "prefetch %d is not in 0..%d", (int)o->prefetch, MAX_PREFETCH);
  if (o->n_input_nodes < 0)
    return FO_FAIL(FO_EINVAL, "n_input_nodes %lld is negative", (long long)o->n_input_nodes);
  if (o->n_input_nodes > 0 && !o->input_nodes)
    return FO_FAIL(FO_EINVAL, "input_nodes is NULL with n_input_nodes %lld", (long long)o->n_input_nodes);
  if (o->input_nodes && o->split)
    return FO_FAIL(FO_EINVAL, "give input_nodes or split '%s', not both", o->split);
  return FO_OK;
}

static int load_inputs(fo_loader_t *L) {
  const fo_dataset_t *nd = fo_dataset_node_data(L->d, L->seed_type);
  const int64_t n = fo_dataset_num_nodes(nd);
  const int64_t *src = NULL;
  int64_t cnt;
  int rc;
  if (L->o.input_nodes) {
    src = L->o.input_nodes;
    cnt = L->o.n_input_nodes;
  } else if (L->o.split) {
    if ((rc = fo_dataset_split(nd, L->o.split, &src, &cnt)) != FO_OK)
      return L->typed ? fo__context(rc, "node type '%s'", fo_dataset_node_type_name(L->d, L->seed_type))
                      : rc;
  } else {
    cnt = n;
  }
  L->n_inputs = cnt;
  L->inputs = fo__malloc_n(cnt, sizeof *L->inputs);
  L->order = fo__malloc_n(cnt, sizeof *L->order);
  if (!L->inputs || !L->order) return FO_FAIL(FO_ENOMEM, "%lld input nodes", (long long)cnt);
  for (int64_t i = 0; i < cnt; i++) {
    int64_t v = src ? src[i] : i;
    if (v < 0 || v >= n)
      return FO_FAIL(FO_ERANGE, "input node %lld (position %lld%s%s) is not a node id in [0, %lld)%s%s%s",
                     (long long)v, (long long)i, L->o.split ? " of split " : "",
                     L->o.split ? L->o.split : "", (long long)n, L->typed ? " of node type '" : "",
                     L->typed ? fo_dataset_node_type_name(L->d, L->seed_type) : "",
                     L->typed ? "'" : "");
    L->inputs[i] = v;
  }
  if (L->o.input_time) {
    if (!L->o.input_nodes)
      return FO_FAIL(FO_EINVAL, "input_time needs input_nodes (one time per input node)");
    if (L->o.sampler.temporal == FO_TEMPORAL_NONE)
      return FO_FAIL(FO_EINVAL, "input_time given, but the sampler is not temporal (set "
                     "temporal uniform or last)");
    if (!(L->input_time = fo__malloc_n(cnt, sizeof *L->input_time)))
      return FO_FAIL(FO_ENOMEM, "%lld input times", (long long)cnt);
    if (cnt) memcpy(L->input_time, L->o.input_time, (size_t)cnt * sizeof *L->input_time);
  }
  return FO_OK;
}

static void stop_workers(fo_loader_t *L) {
  pthread_mutex_lock(&L->mu);
  L->stop = true;
  pthread_cond_broadcast(&L->work_cv);
  pthread_mutex_unlock(&L->mu);
  for (int32_t i = 0; i < L->n_workers; i++)
    if (L->workers[i].started) pthread_join(L->workers[i].thread, NULL);
}

void fo_loader_destroy(fo_loader_t *L) {
  if (!L) return;
  if (L->workers) stop_workers(L);
  for (int32_t i = 0; L->workers && i < L->n_workers; i++) fo_sampler_destroy(L->workers[i].s);
  free(L->workers);
  fo_sampler_destroy(L->own_sampler);
  for (int64_t i = 0; i < L->n_slots; i++) slot_free(L->slots[i]);
  free(L->slots);
  pthread_cond_destroy(&L->work_cv);
  pthread_cond_destroy(&L->ready_cv);
  pthread_mutex_destroy(&L->mu);
  fo__gather_fini(&L->g);
  for (int32_t t = 0; L->gt && t < L->n_types; t++) fo__gather_fini(&L->gt[t]);
  free(L->gt);
  free(L->etype_fanouts);
  if (L->hooks.free_ctx) L->hooks.free_ctx(L->hooks.ctx);
  free(L->fanouts);
  free(L->inputs);
  free(L->input_time);
  free(L->order);
  free(L->input_machine);
  free(L->mine);
  free(L);
}

int fo_loader_create(const fo_dataset_t *d, const fo_loader_opts *o, fo_loader_t **out) {
  return fo__loader_create(d, o, NULL, out);
}

/* The seeds' node type, a copy of the per-edge-type fanouts, the per-type gathers. */
static int setup_types(fo_loader_t *L, const fo_loader_opts *o) {
  const fo_dataset_t *d = L->d;
  L->typed = fo_dataset_is_typed(d);
  L->n_types = fo_dataset_num_node_types(d);
  L->seed_type = 0;
  L->o.input_type = NULL; /* borrowed string: not kept */
  if (o->input_type) {
    if ((L->seed_type = fo_dataset_node_type_find(d, o->input_type)) < 0) {
      char have[256];
      size_t len = 0;
      have[0] = '\0';
      for (int32_t t = 0; t < L->n_types && len < sizeof have; t++)
        len += (size_t)snprintf(have + len, sizeof have - len, "%s%s", t ? ", " : "",
                                fo_dataset_node_type_name(d, t));
      return FO_FAIL(FO_EINVAL, "input_type '%s' is not a node type of '%s' (it has: %s)",
                     o->input_type, fo_dataset_path(d), have);
    }
  } else if (L->n_types > 1) {
    return FO_FAIL(FO_EINVAL, "dataset '%s' has %d node types: set input_type (the node type of "
                   "the input nodes)", fo_dataset_path(d), (int)L->n_types);
  }
  if (o->sampler.edge_type_fanouts && o->sampler.n_hops > 0 && o->sampler.n_hops <= 64) {
    size_t n = (size_t)fo_dataset_num_edge_types(d) * (size_t)o->sampler.n_hops;
    if (!(L->etype_fanouts = malloc(n * sizeof *L->etype_fanouts)))
      return FO_FAIL(FO_ENOMEM, "fanouts");
    memcpy(L->etype_fanouts, o->sampler.edge_type_fanouts, n * sizeof *L->etype_fanouts);
    L->o.sampler.edge_type_fanouts = L->etype_fanouts;
  }
  if (L->typed && !(L->gt = calloc((size_t)L->n_types, sizeof *L->gt)))
    return FO_FAIL(FO_ENOMEM, "gather");
  if (L->typed && L->hooks.make_sampler && !L->hooks.gather_typed)
    return FO_FAIL(FO_ENOSYS, "distributed sampling of typed datasets needs the typed gather");
  return FO_OK;
}

static int make_sampler(fo_loader_t *L, fo_sampler_t **out) {
  if (L->hooks.make_sampler) return L->hooks.make_sampler(L->hooks.ctx, L->d, &L->o.sampler, out);
  return fo_sampler_create(L->d, &L->o.sampler, out);
}

int fo__loader_create(const fo_dataset_t *d, const fo_loader_opts *o, const fo__loader_hooks *h,
                      fo_loader_t **out) {
  fo_loader_t *L;
  int rc;
  if (out) *out = NULL;
  if (!out || !d || !o) return FO_FAIL(FO_EINVAL, "create loader: dataset, options or out is NULL");
  if ((rc = check_opts(o)) != FO_OK) return fo__context(rc, "create loader");
  if (!(L = calloc(1, sizeof *L))) {
    if (h && h->free_ctx) h->free_ctx(h->ctx);
    return FO_FAIL(FO_ENOMEM, "create loader");
  }
  pthread_mutex_init(&L->mu, NULL);
  pthread_cond_init(&L->work_cv, NULL);
  pthread_cond_init(&L->ready_cv, NULL);
  L->d = d;
  L->o = *o;
  if (h) L->hooks = *h;
  L->o.input_nodes = NULL; /* copied into L->inputs */
  if (L->o.prefetch == 0) L->o.prefetch = o->num_workers > 0 ? 2 * o->num_workers : 1;
  if (o->sampler.fanouts && o->sampler.n_hops > 0 && o->sampler.n_hops <= 64) {
    if (!(L->fanouts = malloc((size_t)o->sampler.n_hops * sizeof *L->fanouts))) {
      rc = FO_FAIL(FO_ENOMEM, "fanouts");
      goto fail;
    }
    memcpy(L->fanouts, o->sampler.fanouts, (size_t)o->sampler.n_hops * sizeof *L->fanouts);
    L->o.sampler.fanouts = L->fanouts;
  }
  if ((rc = setup_types(L, o)) != FO_OK) goto fail;
  L->o.input_nodes = o->input_nodes;
  rc = load_inputs(L);
  L->o.input_nodes = NULL;
  L->o.input_time = NULL; /* copied into L->input_time */
  L->o.split = NULL; /* borrowed string: not kept */
  if (rc != FO_OK) goto fail;
  if (!L->typed && (rc = fo__gather_init(&L->g, d, o->features, o->labels)) != FO_OK) goto fail;
  for (int32_t t = 0; L->typed && t < L->n_types; t++)
    if ((rc = fo__gather_init(&L->gt[t], fo_dataset_node_data(d, t), o->features,
                              o->labels && t == L->seed_type)) != FO_OK)
      goto fail;
  L->epoch = o->epoch;
  if (L->hooks.local_seeds && (rc = setup_local_seeds(L)) != FO_OK) goto fail;
  L->n_batches = count_batches(L);
  if ((rc = set_order(L, L->epoch)) != FO_OK) goto fail;
  /* validate the sampler options once, on the consumer's thread */
  if ((rc = make_sampler(L, &L->own_sampler)) != FO_OK) goto fail;
  for (int32_t i = 0; i < L->o.prefetch; i++)
    if ((rc = add_slot(L)) != FO_OK) goto fail;
  if (L->hooks.prepare && (rc = L->hooks.prepare(L->hooks.ctx, L)) != FO_OK) goto fail;
  if (o->num_workers > 0) {
    if (!(L->workers = calloc((size_t)o->num_workers, sizeof *L->workers))) {
      rc = FO_FAIL(FO_ENOMEM, "workers");
      goto fail;
    }
    L->n_workers = o->num_workers;
    for (int32_t i = 0; i < L->n_workers; i++) {
      L->workers[i].L = L;
      if ((rc = make_sampler(L, &L->workers[i].s)) != FO_OK) goto fail;
    }
    for (int32_t i = 0; i < L->n_workers; i++) {
      int err = pthread_create(&L->workers[i].thread, NULL, worker_main, &L->workers[i]);
      if (err) {
        rc = FO_FAIL(FO_EIO, "start loader thread %d: %s", (int)i, strerror(err));
        goto fail;
      }
      L->workers[i].started = true;
    }
  }
  *out = L;
  return FO_OK;
fail:
  fo_loader_destroy(L);
  return fo__context(rc, "create loader");
}

int64_t fo_loader_num_batches(const fo_loader_t *L) { return L->n_batches; }
int64_t fo_loader_num_inputs(const fo_loader_t *L) { return L->n_inputs; }

/* Hand out slot `sl` (lock held), turning a worker error into this thread's error. */
static int hand_out(fo_loader_t *L, slot *sl, fo_loader_batch_t **out) {
  int rc = sl->rc;
  L->next_out++;
  pthread_cond_broadcast(&L->work_cv); /* the window moved */
  if (rc != FO_OK) {
    fo_set_error(rc, sl->msg ? sl->msg : "");
    sl->state = SLOT_FREE;
    return rc;
  }
  sl->state = SLOT_HELD;
  *out = &sl->pub;
  return FO_OK;
}

/* fo_loader_next, waiting at most until `limit` (CLOCK_REALTIME, the condition variable's
 * clock) when `limit` is not NULL; *waited (if not NULL) says whether it gave up. */
static int next_batch(fo_loader_t *L, fo_loader_batch_t **out, const struct timespec *limit,
                      bool *waited) {
  int rc = FO_OK;
  *out = NULL;
  if (waited) *waited = false;
  pthread_mutex_lock(&L->mu);
  if (L->next_out >= L->n_batches) {
    pthread_mutex_unlock(&L->mu);
    return FO_OK;
  }
  if (L->n_workers == 0) {
    /* synchronous: fill a slot here */
    slot *sl = find_state(L, SLOT_FREE);
    if (!sl && (rc = add_slot(L)) == FO_OK) sl = L->slots[L->n_slots - 1];
    if (sl) {
      int64_t index = L->next_out;
      fo_loader_stats st;
      sl->state = SLOT_BUSY;
      pthread_mutex_unlock(&L->mu);
      memset(&st, 0, sizeof st);
      rc = produce(L, L->own_sampler, sl, L->epoch, index, &st);
      record(sl, rc);
      pthread_mutex_lock(&L->mu);
      add_stats(&L->stats, &st);
      sl->index = index;
      rc = hand_out(L, sl, out);
    }
    pthread_mutex_unlock(&L->mu);
    return rc;
  }
  for (;;) {
    slot *sl = find_ready(L, L->next_out);
    uint64_t t0;
    if (sl) {
      rc = hand_out(L, sl, out);
      break;
    }
    /* the awaited batch is not even taken and no slot is free: the consumer holds them all */
    if (L->next_job <= L->next_out && !find_state(L, SLOT_FREE)) {
      if ((rc = add_slot(L)) != FO_OK) break;
      pthread_cond_broadcast(&L->work_cv);
    }
    t0 = fo__now_ns();
    if (!limit) {
      pthread_cond_wait(&L->ready_cv, &L->mu);
    } else if (pthread_cond_timedwait(&L->ready_cv, &L->mu, limit) == ETIMEDOUT &&
               !find_ready(L, L->next_out)) {
      L->stats.wait_ns += (int64_t)(fo__now_ns() - t0);
      if (waited) *waited = true;
      break;
    }
    L->stats.wait_ns += (int64_t)(fo__now_ns() - t0);
  }
  pthread_mutex_unlock(&L->mu);
  return rc;
}

int fo_loader_next(fo_loader_t *L, fo_loader_batch_t **out) {
  return next_batch(L, out, NULL, NULL);
}

int fo_loader_next_timed(fo_loader_t *L, fo_loader_batch_t **out, double timeout_s,
                         bool *waited) {
  struct timespec limit;
  double whole;
  *out = NULL;
  if (waited) *waited = false;
  if (!(timeout_s >= 0) || timeout_s > 1e9)
    return FO_FAIL(FO_EINVAL, "loader next: timeout %g s is not in [0, 1e9]", timeout_s);
  clock_gettime(CLOCK_REALTIME, &limit);
  whole = (double)(time_t)timeout_s;
  limit.tv_sec += (time_t)whole;
  limit.tv_nsec += (long)((timeout_s - whole) * 1e9);
  if (limit.tv_nsec >= 1000000000L) {
    limit.tv_sec++;
    limit.tv_nsec -= 1000000000L;
  }
  return next_batch(L, out, &limit, waited);
}

void fo_loader_get_stats(fo_loader_t *L, fo_loader_stats *out) {
  pthread_mutex_lock(&L->mu);
  *out = L->stats;
  pthread_mutex_unlock(&L->mu);
}

void fo_loader_release(fo_loader_t *L, fo_loader_batch_t *b) {
  if (!L || !b) return;
  pthread_mutex_lock(&L->mu);
  for (int64_t i = 0; i < L->n_slots; i++)
    if (&L->slots[i]->pub == b && L->slots[i]->state == SLOT_HELD) {
      L->slots[i]->state = SLOT_FREE;
      pthread_cond_broadcast(&L->work_cv);
      break;
    }
  pthread_mutex_unlock(&L->mu);
}

int fo_loader_start_epoch(fo_loader_t *L, uint64_t epoch) {
  int rc;
  pthread_mutex_lock(&L->mu);
  /* Busy workers read `order`, which is about to change: let them finish; bumping the
   * generation first makes them drop what they produce. */
  L->gen++;
  while (find_state(L, SLOT_BUSY) != NULL) pthread_cond_wait(&L->ready_cv, &L->mu);
  for (int64_t i = 0; i < L->n_slots; i++)
    if (L->slots[i]->state == SLOT_READY) L->slots[i]->state = SLOT_FREE;
  L->gen++;
  L->epoch = epoch;
  L->next_job = L->next_out = 0;
  rc = set_order(L, epoch);
  pthread_cond_broadcast(&L->work_cv);
  pthread_mutex_unlock(&L->mu);
  return rc;
}

uint64_t fo_loader_batch_digest(const fo_loader_batch_t *b) {
  XXH64_state_t st;
  const fo_batch_t *s = b->sample;
  XXH64_reset(&st, 0);
  if (s->typed) {
    for (int32_t t = 0; t < s->n_node_types; t++) {
      const fo_batch_t *nb = fo_batch_node_type(s, t);
      XXH64_update(&st, nb->node, (size_t)nb->n_nodes * sizeof *nb->node);
    }
    for (int32_t t = 0; t < s->n_edge_types; t++) {
      const fo_batch_t *eb = fo_batch_edge_type(s, t);
      XXH64_update(&st, eb->row, (size_t)eb->n_edges * sizeof *eb->row);
      XXH64_update(&st, eb->col, (size_t)eb->n_edges * sizeof *eb->col);
      XXH64_update(&st, eb->edge, (size_t)eb->n_edges * sizeof *eb->edge);
    }
    for (int32_t t = 0; b->x_types && t < b->n_node_types; t++)
      if (b->x_types[t].x)
        XXH64_update(&st, b->x_types[t].x, (size_t)(fo_batch_node_type(s, t)->n_nodes *
                                                    b->x_types[t].dim * b->x_types[t].itemsize));
    if (b->y) XXH64_update(&st, b->y, (size_t)b->batch_size * sizeof *b->y);
    return XXH64_digest(&st);
  }
  XXH64_update(&st, s->node, (size_t)s->n_nodes * sizeof *s->node);
  XXH64_update(&st, s->row, (size_t)s->n_edges * sizeof *s->row);
  XXH64_update(&st, s->col, (size_t)s->n_edges * sizeof *s->col);
  XXH64_update(&st, s->edge, (size_t)s->n_edges * sizeof *s->edge);
  if (b->x) XXH64_update(&st, b->x, (size_t)(s->n_nodes * b->x_dim * b->x_itemsize));
  if (b->y) XXH64_update(&st, b->y, (size_t)b->batch_size * sizeof *b->y);
  return XXH64_digest(&st);
}

uint64_t fo_digest_sequence(const uint64_t *digests, int64_t n) {
  XXH64_state_t st;
  XXH64_reset(&st, 0);
  for (int64_t i = 0; i < n; i++) {
    unsigned char le[8];
    for (int j = 0; j < 8; j++) le[j] = (unsigned char)(digests[i] >> (8 * j));
    XXH64_update(&st, le, 8);
  }
  return XXH64_digest(&st);
}
