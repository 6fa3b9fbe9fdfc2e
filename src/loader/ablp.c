/*
 * loader/ablp.c: the ABLP loader (include/fanout/ablp.h): anchor batching and shuffling, the
 * ABLP sampler, the feature gather of every node type (as loader/link.c does for seed edges).
 */
#include "fanout/ablp.h"

#include "loader/loader_internal.h"
#include "sample/ablp_internal.h"

#define XXH_STATIC_LINKING_ONLY /* XXH64_state_t on the stack */
#include <xxhash.h>

struct fo_ablp_loader {
  const fo_dataset_t *d;
  fo_ablp_loader_opts o;
  int64_t n, *anchor, *order, *banchor;
  int64_t n_batches, next;
  uint64_t epoch;
  fo_ablp_sampler_t *s;
  fo_ablp_batch_t *b;
  fo__batch_x bx;
  fo_ablp_loader_batch_t pub;
  /* distributed (fo__ablp_loader_create_remote): this process's batches of the epoch in
   * sd.list ({offset into base, anchors, batch index}, fo__seed_deal) */
  bool remote;
  fo__ablp_loader_dist ld;
  fo__seed_deal sd;
  const int64_t *base;        /* order or sd.sel */
  fo_dist_batch_stats traffic;
  /* pipelining (ld.pipeline > 0): its threads' states, the ring of batches sampled ahead */
  struct aworker *w;
  int32_t n_w;
  fo__pipe *pipe;
};

/* A pipelining thread's state: its own sampler and anchor buffer. */
typedef struct aworker {
  fo_ablp_sampler_t *s;
  int64_t *banchor;
} aworker;

void fo_ablp_loader_opts_init(fo_ablp_loader_opts *o) {
  memset(o, 0, sizeof *o);
  fo_ablp_opts_init(&o->ablp);
  o->batch_size = 1;
  o->features = true;
}

static void free_batch(void *b) { fo_ablp_batch_destroy(b); }

void fo_ablp_loader_destroy(fo_ablp_loader_t *L) {
  if (!L) return;
  fo__pipe_destroy(L->pipe, free_batch); /* first: its threads read the loader */
  for (int32_t i = 0; L->w && i < L->n_w; i++) {
    fo_ablp_sampler_destroy(L->w[i].s);
    free(L->w[i].banchor);
  }
  free(L->w);
  fo_ablp_sampler_destroy(L->s);
  fo_ablp_batch_destroy(L->b);
  fo__batch_x_fini(&L->bx);
  fo__seed_deal_fini(&L->sd);
  free(L->anchor);
  free(L->order);
  free(L->banchor);
  if (L->remote && L->ld.free_ctx) L->ld.free_ctx(L->ld.ctx);
  free(L);
}

static int set_order(fo_ablp_loader_t *L, uint64_t epoch) {
  fo__pipe_halt(L->pipe); /* its threads read the order */
  L->epoch = epoch;
  L->next = 0;
  if (L->o.shuffle) {
    const int rc = fo_random_permutation(L->n, L->o.ablp.sampler.seed, epoch, L->order);
    if (rc != FO_OK) return rc;
  } else {
    for (int64_t i = 0; i < L->n; i++) L->order[i] = i;
  }
  if (L->remote) {
    L->base = fo__seed_deal_run(&L->sd, L->order, L->n, L->o.batch_size, L->o.drop_last);
    L->n_batches = L->sd.n_list;
  }
  if (L->pipe) fo__pipe_begin(L->pipe, L->n_batches);
  return FO_OK;
}

/* A distributed loader's batch t of the epoch: its anchors into banchor, its offset into base
 * and its index; returns its anchors' count. */
static int64_t remote_seeds(const fo_ablp_loader_t *L, int64_t t, int64_t *banchor, int64_t *off,
                            int64_t *index) {
  const int64_t *e = L->sd.list + 3 * t;
  const int64_t k = e[1];
  *off = e[0];
  *index = e[2];
  for (int64_t i = 0; i < k; i++) banchor[i] = L->anchor[L->base[*off + i]];
  return k;
}

/* fo__pipe's sample: batch t with thread state w (the loader only read). */
static int pipe_sample(void *owner, void *worker, int64_t t, void *item) {
  const fo_ablp_loader_t *L = owner;
  aworker *w = worker;
  int64_t off, index;
  const int64_t k = remote_seeds(L, t, w->banchor, &off, &index);
  return fo_ablp_sampler_sample(w->s, w->banchor, k, L->epoch, (uint64_t)index, item);
}

/* Pipelining: n threads, each with a sampler of its own, and the ring's batches. */
static int pipe_start(fo_ablp_loader_t *L, const fo_ablp_opts *ao, int32_t n) {
  const int64_t bs = L->o.batch_size, m = bs < L->n ? bs : L->n + 1;
  void *ws[64], *items[64] = {NULL};
  int rc = FO_OK;
  if (n < 1 || n > 64) return FO_FAIL(FO_EINVAL, "pipeline %d is not in 0..64", (int)n);
  if (!L->ld.make_remote) return FO_FAIL(FO_EINVAL, "pipelining: no lookup for the threads' samplers");
  if (!(L->w = calloc((size_t)n, sizeof *L->w))) return FO_FAIL(FO_ENOMEM, "ABLP loader pipelining");
  L->n_w = n;
  for (int32_t i = 0; rc == FO_OK && i < n; i++) {
    fo__ablp_remote r;
    fo_ablp_batch_t *b = NULL;
    aworker *w = &L->w[i];
    if ((rc = L->ld.make_remote(L->ld.ctx, &r)) != FO_OK ||
        (rc = fo__ablp_sampler_create_remote(L->d, ao, &r, &w->s)) != FO_OK ||
        (rc = fo_ablp_batch_create(&b)) != FO_OK)
      break;
    items[i] = b;
    if (!(w->banchor = fo__malloc_n(m, sizeof *w->banchor)))
      rc = FO_FAIL(FO_ENOMEM, "ABLP loader pipelining");
    ws[i] = w;
  }
  if (rc == FO_OK) rc = fo__pipe_create(n, L, ws, items, pipe_sample, "ABLP loader", &L->pipe);
  if (rc != FO_OK)
    for (int32_t i = 0; i < n; i++) fo_ablp_batch_destroy(items[i]);
  return rc;
}

static int create(const fo_dataset_t *d, const fo_ablp_loader_opts *o, const fo__ablp_remote *ar,
                  const fo__ablp_loader_dist *ld, fo_ablp_loader_t **out);

int fo_ablp_loader_create(const fo_dataset_t *d, const fo_ablp_loader_opts *o, fo_ablp_loader_t **out) {
  return create(d, o, NULL, NULL, out);
}

int fo__ablp_loader_create_remote(const fo_dataset_t *d, const fo_ablp_loader_opts *o,
                                  const fo__ablp_remote *ar, const fo__ablp_loader_dist *ld,
                                  fo_ablp_loader_t **out) {
  return create(d, o, ar, ld, out);
}

void fo__ablp_loader_traffic(const fo_ablp_loader_t *L, fo_dist_batch_stats *out) {
  if (L && L->remote) *out = L->traffic;
  else if (out) memset(out, 0, sizeof *out);
}

static int create(const fo_dataset_t *d, const fo_ablp_loader_opts *o, const fo__ablp_remote *ar,
                  const fo__ablp_loader_dist *ld, fo_ablp_loader_t **out) {
  fo_ablp_loader_t *L;
  const int64_t bs = o ? o->batch_size : 0;
  bool ar_taken = false;
  int rc;
  if (out) *out = NULL;
  if (!d || !o || !out) {
    rc = FO_FAIL(FO_EINVAL, "create ABLP loader: dataset, options or out is NULL");
    goto early;
  }
  if (bs < 1) {
    rc = FO_FAIL(FO_EINVAL, "create ABLP loader: batch_size %lld is not >= 1", (long long)bs);
    goto early;
  }
  if (o->n_input_nodes < 0) {
    rc = FO_FAIL(FO_EINVAL, "create ABLP loader: n_input_nodes %lld is negative",
                 (long long)o->n_input_nodes);
    goto early;
  }
  if (o->n_input_nodes > 0 && !o->input_nodes) {
    rc = FO_FAIL(FO_EINVAL, "create ABLP loader: input_nodes is NULL with %lld anchors",
                 (long long)o->n_input_nodes);
    goto early;
  }
  if (!(L = calloc(1, sizeof *L))) {
    rc = FO_FAIL(FO_ENOMEM, "ABLP loader");
    goto early;
  }
  if (ld) {
    L->remote = true;
    L->ld = *ld;
    ld = NULL; /* the loader's now */
  }
  L->d = d;
  L->o = *o;
  L->o.input_nodes = NULL;
  L->o.ablp.supervision_edge_type = L->o.ablp.negative_edge_type = NULL;
  L->n = o->n_input_nodes;
  ar_taken = ar != NULL;
  if ((rc = ar ? fo__ablp_sampler_create_remote(d, &o->ablp, ar, &L->s)
               : fo_ablp_sampler_create(d, &o->ablp, &L->s)) != FO_OK)
    goto fail;
  if ((rc = fo_ablp_batch_create(&L->b)) != FO_OK) goto fail;
  L->anchor = fo__malloc_n(L->n + 1, sizeof *L->anchor);
  L->order = fo__malloc_n(L->n + 1, sizeof *L->order);
  L->banchor = fo__malloc_n(bs < L->n ? bs : L->n + 1, sizeof *L->banchor);
  if (!L->anchor || !L->order || !L->banchor) {
    rc = FO_FAIL(FO_ENOMEM, "ABLP loader: %lld anchors", (long long)L->n);
    goto fail;
  }
  if (L->n) memcpy(L->anchor, o->input_nodes, (size_t)L->n * sizeof *L->anchor);
  {
    /* the anchors' range, checked once here (the sampler checks them again per batch) */
    const int32_t A = fo_ablp_sampler_anchor_type(L->s);
    const int64_t nA = fo_dataset_num_nodes(fo_dataset_node_data(d, A));
    for (int64_t i = 0; i < L->n; i++)
      if (L->anchor[i] < 0 || L->anchor[i] >= nA) {
        rc = FO_FAIL(FO_ERANGE, "anchor %lld (input_nodes[%lld]) is not a node "
                     "id of type '%s' in [0, %lld)", (long long)L->anchor[i], (long long)i,
                     fo_dataset_node_type_name(d, A), (long long)nA);
        goto fail;
      }
  }
  if ((rc = fo__batch_x_init(&L->bx, d, o->features, "ABLP loader")) != FO_OK) goto fail;
  L->n_batches = L->n / bs + (!o->drop_last && L->n % bs != 0);
  if (L->remote) {
    L->sd = (fo__seed_deal){.shard = L->ld.shard, .n_shards = L->ld.n_shards, .tail = L->ld.tail,
                            .local_seeds = L->ld.local_seeds, .machine = L->ld.machine,
                            .n_machines = L->ld.n_machines, .local_rank = L->ld.local_rank,
                            .local_size = L->ld.local_size};
    if (L->ld.local_seeds) {
      if (L->ld.n_machines < 1 || L->ld.local_size < 1 || L->ld.machine < 0 ||
          L->ld.machine >= L->ld.n_machines || L->ld.local_rank < 0 ||
          L->ld.local_rank >= L->ld.local_size || !L->ld.owner) {
        rc = FO_FAIL(FO_EINVAL, "seed placement local: machine %d of %d, local rank %d of %d",
                     (int)L->ld.machine, (int)L->ld.n_machines, (int)L->ld.local_rank,
                     (int)L->ld.local_size);
        goto fail;
      }
      if (!(L->sd.owner = fo__malloc_n(L->n + 1, sizeof *L->sd.owner))) {
        rc = FO_FAIL(FO_ENOMEM, "ABLP loader: %lld anchors", (long long)L->n);
        goto fail;
      }
      for (int64_t i = 0; i < L->n; i++) {
        L->sd.owner[i] = L->ld.owner(L->ld.ctx, fo_ablp_sampler_anchor_type(L->s), L->anchor[i]);
        if (L->sd.owner[i] < 0 || L->sd.owner[i] >= L->ld.n_machines) {
          rc = FO_FAIL(FO_EFORMAT, "create ABLP loader: anchor %lld has owner %d, not a machine in "
                       "[0, %d)", (long long)L->anchor[i], (int)L->sd.owner[i], (int)L->ld.n_machines);
          goto fail;
        }
      }
    }
    if ((rc = fo__seed_deal_init(&L->sd, L->n, bs, o->drop_last, "anchors")) != FO_OK) goto fail;
  }
  if ((rc = set_order(L, o->epoch)) != FO_OK) goto fail;
  if (L->remote && L->ld.pipeline > 0) {
    if ((rc = pipe_start(L, &o->ablp, L->ld.pipeline)) != FO_OK) goto fail;
    fo__pipe_begin(L->pipe, L->n_batches);
  }
  *out = L;
  return FO_OK;
fail:
  fo_ablp_loader_destroy(L);
  return fo__context(rc, "create ABLP loader");
early:
  if (ar && !ar_taken && ar->free_ctx) ar->free_ctx(ar->ctx);
  if (ld && ld->free_ctx) ld->free_ctx(ld->ctx);
  return rc;
}

int64_t fo_ablp_loader_num_batches(const fo_ablp_loader_t *L) { return L ? L->n_batches : 0; }

const fo_ablp_sampler_t *fo_ablp_loader_sampler(const fo_ablp_loader_t *L) { return L ? L->s : NULL; }

int fo_ablp_loader_start_epoch(fo_ablp_loader_t *L, uint64_t epoch) { return set_order(L, epoch); }

int fo_ablp_loader_next(fo_ablp_loader_t *L, fo_ablp_loader_batch_t **out) {
  const int64_t bs = L->o.batch_size;
  int64_t index, off, k;
  int rc;
  *out = NULL;
  if (L->next >= L->n_batches) return FO_OK;
  if (L->pipe) {
    /* sampled ahead by a pipelining thread (its traffic the batch's); the gather here */
    const int64_t *e = L->sd.list + 3 * L->next;
    void *b = L->b;
    off = e[0];
    index = e[2];
    rc = fo__pipe_take(L->pipe, L->next++, &b, &L->traffic);
    L->b = b;
    fo__cur_batch_stats = &L->traffic;
  } else {
    if (L->remote) {
      k = remote_seeds(L, L->next++, L->banchor, &off, &index);
      memset(&L->traffic, 0, sizeof L->traffic);
      fo__cur_batch_stats = &L->traffic;
    } else {
      index = L->next++;
      off = index * bs;
      k = L->n - off < bs ? L->n - off : bs;
      L->base = L->order;
      for (int64_t i = 0; i < k; i++) L->banchor[i] = L->anchor[L->base[off + i]];
    }
    rc = fo_ablp_sampler_sample(L->s, L->banchor, k, L->epoch, (uint64_t)index, L->b);
  }
  /* a sampling failure already names the batch (the sampler's context) */
  if (rc != FO_OK && !L->remote) return rc;
  if (rc == FO_OK) {
    /* the batch's place (the look-ahead cache plans the batches after it) */
    const fo__batch_pos pos = {L->epoch, L->next - 1};
    if (L->remote) fo__cur_batch_pos = &pos;
    rc = fo__batch_x_fill(&L->bx, L->b->sample, L->remote ? L->ld.gather : NULL, L->ld.ctx);
    if (L->remote) fo__cur_batch_pos = NULL;
    if (rc != FO_OK) rc = fo__context(rc, "ABLP batch %lld", (long long)index);
  }
  if (L->remote) fo__cur_batch_stats = NULL;
  if (rc != FO_OK) return rc;
  L->pub.epoch = L->epoch;
  L->pub.index = index;
  L->pub.ablp = L->b;
  L->pub.input_id = L->base + off;
  L->pub.n_node_types = L->bx.T;
  L->pub.x = L->bx.pub;
  *out = &L->pub;
  return FO_OK;
}

uint64_t fo_ablp_loader_batch_digest(const fo_ablp_loader_batch_t *b) {
  XXH64_state_t st;
  const fo_ablp_batch_t *ab = b->ablp;
  XXH64_reset(&st, 0);
  fo__digest_sample(&st, ab->sample, b->x, b->n_node_types);
  XXH64_update(&st, ab->anchor_index, (size_t)ab->n_anchors * sizeof *ab->anchor_index);
  XXH64_update(&st, ab->y_positive, (size_t)(2 * ab->n_pos) * sizeof *ab->y_positive);
  XXH64_update(&st, ab->y_negative, (size_t)(2 * ab->n_neg) * sizeof *ab->y_negative);
  XXH64_update(&st, ab->random_negative, (size_t)(ab->n_anchors * ab->k) * sizeof *ab->random_negative);
  XXH64_update(&st, b->input_id, (size_t)ab->n_anchors * sizeof *b->input_id);
  return XXH64_digest(&st);
}
