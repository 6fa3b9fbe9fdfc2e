/*
 * loader/link.c: the link loader (include/fanout/link.h): seed-edge batching and shuffling,
 * PyG's label shift, the link sampler, the feature gather of every node type.
 */
#include "fanout/link.h"

#include "loader/loader_internal.h"
#include "sample/link_internal.h"
#include "store/store_internal.h"

#define XXH_STATIC_LINKING_ONLY /* XXH64_state_t on the stack */
#include <xxhash.h>

struct fo_link_loader {
  const fo_dataset_t *d;
  fo_link_loader_opts o;
  int32_t *fanouts, *et_fanouts;
  int64_t n, *src, *dst, *label, *order;
  int64_t *bsrc, *bdst, *blabel;
  int64_t *time, *btime;     /* temporal: [n] seed edge times, [batch] this batch's */
  int64_t n_batches, next;
  uint64_t epoch;
  fo_link_sampler_t *s;
  fo_link_batch_t *b;
  fo__batch_x bx;
  fo_link_loader_batch_t pub;
  /* distributed (fo__link_loader_create_remote): this process's batches of the epoch in
   * sd.list ({offset into base, seed edges, batch index}, fo__seed_deal), base = order (global
   * placement) or sd.sel (the order restricted to this machine's seed edges, local placement) */
  bool remote;
  fo__link_loader_dist ld;
  fo__seed_deal sd;
  const int64_t *base;
  fo_dist_batch_stats traffic;
  /* pipelining (ld.pipeline > 0): its threads' states, the ring of batches sampled ahead */
  struct lworker *w;
  int32_t n_w;
  fo__pipe *pipe;
};

/* A pipelining thread's state: its own sampler and seed buffers. */
typedef struct lworker {
  fo_link_sampler_t *s;
  int64_t *bsrc, *bdst, *blabel, *btime;
} lworker;

void fo_link_loader_opts_init(fo_link_loader_opts *o) {
  memset(o, 0, sizeof *o);
  fo_link_opts_init(&o->link);
  o->batch_size = 1;
  o->features = true;
}

static void free_batch(void *b) { fo_link_batch_destroy(b); }

void fo_link_loader_destroy(fo_link_loader_t *L) {
  if (!L) return;
  fo__pipe_destroy(L->pipe, free_batch); /* first: its threads read the loader */
  for (int32_t i = 0; L->w && i < L->n_w; i++) {
    fo_link_sampler_destroy(L->w[i].s);
    free(L->w[i].bsrc);
    free(L->w[i].bdst);
    free(L->w[i].blabel);
    free(L->w[i].btime);
  }
  free(L->w);
  fo_link_sampler_destroy(L->s);
  fo_link_batch_destroy(L->b);
  fo__batch_x_fini(&L->bx);
  fo__seed_deal_fini(&L->sd);
  free(L->fanouts);
  free(L->et_fanouts);
  free(L->src);
  free(L->dst);
  free(L->label);
  free(L->order);
  free(L->bsrc);
  free(L->bdst);
  free(L->blabel);
  free(L->time);
  free(L->btime);
  if (L->remote && L->ld.free_ctx) L->ld.free_ctx(L->ld.ctx);
  free(L);
}

static int set_order(fo_link_loader_t *L, uint64_t epoch) {
  int rc = FO_OK;
  fo__pipe_halt(L->pipe); /* its threads read the order */
  L->epoch = epoch;
  L->next = 0;
  if (L->o.shuffle) rc = fo_random_permutation(L->n, L->o.link.sampler.seed, epoch, L->order);
  else
    for (int64_t i = 0; i < L->n; i++) L->order[i] = i;
  if (rc == FO_OK && L->remote) {
    L->base = fo__seed_deal_run(&L->sd, L->order, L->n, L->o.batch_size, L->o.drop_last);
    L->n_batches = L->sd.n_list;
  }
  if (rc == FO_OK && L->pipe) fo__pipe_begin(L->pipe, L->n_batches);
  return rc;
}

/* A distributed loader's batch t of the epoch: its seed edges (labels, times) into the
 * buffers, its offset into base and its index; returns its seed edges' count. */
static int64_t remote_seeds(const fo_link_loader_t *L, int64_t t, int64_t *bsrc, int64_t *bdst,
                            int64_t *blabel, int64_t *btime, int64_t *off, int64_t *index) {
  const int64_t *e = L->sd.list + 3 * t;
  const int64_t k = e[1];
  *off = e[0];
  *index = e[2];
  for (int64_t i = 0; i < k; i++) {
    const int64_t p = L->base[*off + i];
    bsrc[i] = L->src[p];
    bdst[i] = L->dst[p];
    if (L->label) blabel[i] = L->label[p];
    if (L->time) btime[i] = L->time[p];
  }
  return k;
}

/* fo__pipe's sample: batch t with thread state w (the loader only read). */
static int pipe_sample(void *owner, void *worker, int64_t t, void *item) {
  const fo_link_loader_t *L = owner;
  lworker *w = worker;
  int64_t off, index;
  const int64_t k = remote_seeds(L, t, w->bsrc, w->bdst, w->blabel, w->btime, &off, &index);
  return fo_link_sampler_sample_at(w->s, w->bsrc, w->bdst, L->label ? w->blabel : NULL,
                                   L->time ? w->btime : NULL, k, L->epoch, (uint64_t)index, item);
}

/* Pipelining: n threads, each with a sampler of its own, and the ring's batches. */
static int pipe_start(fo_link_loader_t *L, const fo_link_opts *lo, int32_t n) {
  const int64_t bs = L->o.batch_size, m = bs < L->n ? bs : L->n + 1;
  void *ws[64], *items[64] = {NULL};
  int rc = FO_OK;
  if (n < 1 || n > 64) return FO_FAIL(FO_EINVAL, "pipeline %d is not in 0..64", (int)n);
  if (!L->ld.make_remote) return FO_FAIL(FO_EINVAL, "pipelining: no lookup for the threads' samplers");
  if (!(L->w = calloc((size_t)n, sizeof *L->w))) return FO_FAIL(FO_ENOMEM, "link loader pipelining");
  L->n_w = n;
  for (int32_t i = 0; rc == FO_OK && i < n; i++) {
    fo__link_remote r;
    fo_link_batch_t *b = NULL;
    lworker *w = &L->w[i];
    if ((rc = L->ld.make_remote(L->ld.ctx, &r)) != FO_OK ||
        (rc = fo__link_sampler_create_remote(L->d, lo, &r, &w->s)) != FO_OK ||
        (rc = fo_link_batch_create(&b)) != FO_OK)
      break;
    items[i] = b;
    w->bsrc = fo__malloc_n(m, sizeof *w->bsrc);
    w->bdst = fo__malloc_n(m, sizeof *w->bdst);
    w->blabel = fo__malloc_n(m, sizeof *w->blabel);
    w->btime = fo__malloc_n(m, sizeof *w->btime);
    if (!w->bsrc || !w->bdst || !w->blabel || !w->btime)
      rc = FO_FAIL(FO_ENOMEM, "link loader pipelining");
    ws[i] = w;
  }
  if (rc == FO_OK) rc = fo__pipe_create(n, L, ws, items, pipe_sample, "link loader", &L->pipe);
  if (rc != FO_OK)
    for (int32_t i = 0; i < n; i++) fo_link_batch_destroy(items[i]);
  return rc;
}

static int create(const fo_dataset_t *d, const fo_link_loader_opts *o, const fo__link_remote *lr,
                  const fo__link_loader_dist *ld, fo_link_loader_t **out);

int fo_link_loader_create(const fo_dataset_t *d, const fo_link_loader_opts *o, fo_link_loader_t **out) {
  return create(d, o, NULL, NULL, out);
}

int fo__link_loader_create_remote(const fo_dataset_t *d, const fo_link_loader_opts *o,
                                  const fo__link_remote *lr, const fo__link_loader_dist *ld,
                                  fo_link_loader_t **out) {
  return create(d, o, lr, ld, out);
}

void fo__link_loader_traffic(const fo_link_loader_t *L, fo_dist_batch_stats *out) {
  if (L && L->remote) *out = L->traffic;
  else memset(out, 0, sizeof *out);
}

static int create(const fo_dataset_t *d, const fo_link_loader_opts *o, const fo__link_remote *lr,
                  const fo__link_loader_dist *ld, fo_link_loader_t **out) {
  fo_link_loader_t *L;
  const int64_t bs = o ? o->batch_size : 0;
  const int64_t *split_eids = NULL;
  int rc;
  if (out) *out = NULL;
  if (lr && (!d || !o || !out || bs < 1 || o->n_edges < 0 || (o->n_edges > 0 && !o->edge_label_index) ||
             (o->edge_split && (o->n_edges || o->edge_label_index || o->edge_label)))) {
    /* the checks below fail: the contexts are freed first */
    if (lr->free_ctx) lr->free_ctx(lr->ctx);
    if (ld->free_ctx) ld->free_ctx(ld->ctx);
    lr = NULL;
    ld = NULL;
  }
  if (!d || !o || !out) return FO_FAIL(FO_EINVAL, "create link loader: dataset, options or out is NULL");
  if (bs < 1) return FO_FAIL(FO_EINVAL, "create link loader: batch_size %lld is not >= 1", (long long)bs);
  if (o->n_edges < 0)
    return FO_FAIL(FO_EINVAL, "create link loader: n_edges %lld is negative", (long long)o->n_edges);
  if (o->n_edges > 0 && !o->edge_label_index)
    return FO_FAIL(FO_EINVAL, "create link loader: edge_label_index is NULL with %lld edges",
                   (long long)o->n_edges);
  if (o->edge_split && (o->n_edges || o->edge_label_index || o->edge_label))
    return FO_FAIL(FO_EINVAL, "create link loader: edge split '%s' and edge_label_index or "
                   "edge_label both given: use one", o->edge_split);
  if (!(L = calloc(1, sizeof *L))) {
    if (lr && lr->free_ctx) lr->free_ctx(lr->ctx);
    if (ld && ld->free_ctx) ld->free_ctx(ld->ctx);
    return FO_FAIL(FO_ENOMEM, "link loader");
  }
  if (ld) {
    L->remote = true;
    L->ld = *ld;
  }
  L->d = d;
  L->o = *o;
  L->o.edge_label_index = NULL;
  L->o.edge_label = NULL;
  L->o.link.edge_type = NULL;
  L->o.edge_split = NULL;
  L->o.edge_label_time = NULL;
  L->n = o->n_edges;
  if ((rc = lr ? fo__link_sampler_create_remote(d, &o->link, lr, &L->s)
                : fo_link_sampler_create(d, &o->link, &L->s)) != FO_OK)
    goto fail;
  if (o->edge_split) {
    const int64_t *eids;
    if ((rc = fo_dataset_edge_split(d, fo_link_sampler_edge_type(L->s), o->edge_split, &eids,
                                    &L->n)) != FO_OK)
      goto fail;
    split_eids = eids;
  }
  if ((rc = fo_link_batch_create(&L->b)) != FO_OK) goto fail;
  L->src = fo__malloc_n(L->n + 1, sizeof *L->src);
  L->dst = fo__malloc_n(L->n + 1, sizeof *L->dst);
  L->order = fo__malloc_n(L->n + 1, sizeof *L->order);
  L->bsrc = fo__malloc_n(bs < L->n ? bs : L->n + 1, sizeof *L->bsrc);
  L->bdst = fo__malloc_n(bs < L->n ? bs : L->n + 1, sizeof *L->bdst);
  L->blabel = fo__malloc_n(bs < L->n ? bs : L->n + 1, sizeof *L->blabel);
  if (!L->src || !L->dst || !L->order || !L->bsrc || !L->bdst || !L->blabel) {
    rc = FO_FAIL(FO_ENOMEM, "link loader: %lld seed edges", (long long)L->n);
    goto fail;
  }
  if (split_eids && fo_dataset_num_parts(d)) {
    /* a partitioned dataset stores each split's endpoints beside it (docs/FORMAT.md) */
    const int64_t *ends;
    if ((rc = fo__edge_split_ends(d, fo_link_sampler_edge_type(L->s), o->edge_split, &ends)) != FO_OK)
      goto fail;
    if (L->n) {
      memcpy(L->src, ends, (size_t)L->n * sizeof *L->src);
      memcpy(L->dst, ends + L->n, (size_t)L->n * sizeof *L->dst);
    }
  } else if (split_eids) {
    if ((rc = fo_dataset_edge_endpoints(d, fo_link_sampler_edge_type(L->s), split_eids, L->n,
                                        L->src, L->dst)) != FO_OK)
      goto fail;
  } else if (L->n) {
    memcpy(L->src, o->edge_label_index, (size_t)L->n * sizeof *L->src);
    memcpy(L->dst, o->edge_label_index + L->n, (size_t)L->n * sizeof *L->dst);
  }
  {
    /* the endpoints' ranges, checked once here (the sampler checks them again per batch) */
    fo_edge_type ty;
    const int32_t et = fo_link_sampler_edge_type(L->s);
    int64_t nS, nD;
    fo_dataset_edge_type(d, et, &ty);
    nS = fo_dataset_num_nodes(fo_dataset_node_data(d, ty.src_type));
    nD = fo_dataset_num_nodes(fo_dataset_node_data(d, ty.dst_type));
    for (int64_t i = 0; i < L->n; i++)
      if (L->src[i] < 0 || L->src[i] >= nS || L->dst[i] < 0 || L->dst[i] >= nD) {
        rc = FO_FAIL(FO_ERANGE, "seed edge %lld (%lld, %lld) is not a pair of "
                     "node ids of edge type '%s' (%lld x %lld)", (long long)i, (long long)L->src[i],
                     (long long)L->dst[i], ty.name, (long long)nS, (long long)nD);
        goto fail;
      }
  }
  if (o->link.sampler.temporal != FO_TEMPORAL_NONE) {
    if (!(L->time = fo__malloc_n(L->n + 1, sizeof *L->time)) ||
        !(L->btime = fo__malloc_n(bs < L->n ? bs : L->n + 1, sizeof *L->btime))) {
      rc = FO_FAIL(FO_ENOMEM, "link loader: seed edge times");
      goto fail;
    }
    if (o->edge_label_time) {
      memcpy(L->time, o->edge_label_time, (size_t)L->n * sizeof *L->time);
    } else if (split_eids) {
      /* a stored split: each edge's stored time (edge ids are positions of the id direction) */
      const int32_t et = fo_link_sampler_edge_type(L->s);
      fo_topology t;
      fo_edge_type ty;
      fo_dataset_edge_type(d, et, &ty);
      if ((fo_dataset_edge_topology(d, et, FO_EDGE_DIR_IN, &t) != FO_OK || t.eid) &&
          fo_dataset_edge_topology(d, et, FO_EDGE_DIR_OUT, &t) != FO_OK)
        t.time = NULL;
      fo_clear_error();
      if (fo_dataset_num_parts(d)) {
        /* the parts hold the edges' times by part, the top level only the split's endpoints */
        rc = FO_FAIL(FO_EINVAL, "temporal sampling over edge split '%s' of partitioned dataset "
                     "'%s' needs edge_label_time (partitions do not carry the split's edge times "
                     "yet; give them, or sample the unpartitioned dataset)", o->edge_split,
                     fo_dataset_path(d));
        goto fail;
      }
      if (!t.time) {
        rc = FO_FAIL(FO_EINVAL, "temporal sampling over edge split '%s' needs edge_label_time or "
                     "the edge times of '%s' (import --edge-time or --time-col)", o->edge_split,
                     ty.name);
        goto fail;
      }
      for (int64_t i = 0; i < L->n; i++) L->time[i] = t.time[split_eids[i]];
    } else if (L->n) {
      rc = FO_FAIL(FO_EINVAL, "temporal sampling needs edge_label_time (the "
                   "seed edges' times)");
      goto fail;
    }
  } else if (o->edge_label_time) {
    rc = FO_FAIL(FO_EINVAL, "edge_label_time given, but the sampler is not "
                 "temporal (set temporal uniform or last)");
    goto fail;
  }
  if (o->edge_label) {
    int64_t mn = INT64_MAX;
    if (!(L->label = fo__malloc_n(L->n + 1, sizeof *L->label))) {
      rc = FO_FAIL(FO_ENOMEM, "link loader labels");
      goto fail;
    }
    for (int64_t i = 0; i < L->n; i++) mn = o->edge_label[i] < mn ? o->edge_label[i] : mn;
    /* PyG: with binary negatives, labels starting at 0 move up so that 0 means negative */
    for (int64_t i = 0; i < L->n; i++)
      L->label[i] = o->edge_label[i] + (o->link.neg == FO_NEG_BINARY && mn == 0);
  }
  if ((rc = fo__batch_x_init(&L->bx, d, o->features, "link loader")) != FO_OK) goto fail;
  L->n_batches = L->n / bs + (!o->drop_last && L->n % bs != 0);
  if (L->remote) {
    L->sd = (fo__seed_deal){.shard = L->ld.shard, .n_shards = L->ld.n_shards, .tail = L->ld.tail,
                            .local_seeds = L->ld.local_seeds, .machine = L->ld.machine,
                            .n_machines = L->ld.n_machines, .local_rank = L->ld.local_rank,
                            .local_size = L->ld.local_size};
    if (L->ld.local_seeds && !(L->sd.owner = fo__malloc_n(L->n + 1, sizeof *L->sd.owner))) {
      rc = FO_FAIL(FO_ENOMEM, "link loader");
      goto fail;
    }
    for (int64_t i = 0; L->ld.local_seeds && i < L->n; i++) {
      L->sd.owner[i] = L->ld.owner(L->ld.ctx, L->src[i], L->dst[i]);
      if (L->sd.owner[i] < 0 || L->sd.owner[i] >= L->ld.n_machines) {
        rc = FO_FAIL(FO_EFORMAT, "seed edge %lld (%lld, %lld) has owner %d, "
                     "not a machine in [0, %d)", (long long)i, (long long)L->src[i],
                     (long long)L->dst[i], (int)L->sd.owner[i], (int)L->ld.n_machines);
        goto fail;
      }
    }
    if ((rc = fo__seed_deal_init(&L->sd, L->n, bs, o->drop_last, "seed edges")) != FO_OK) goto fail;
  }
  if ((rc = set_order(L, o->epoch)) != FO_OK) goto fail;
  if (L->remote && L->ld.pipeline > 0) {
    if ((rc = pipe_start(L, &o->link, L->ld.pipeline)) != FO_OK) goto fail;
    fo__pipe_begin(L->pipe, L->n_batches);
  }
  *out = L;
  return FO_OK;
fail:
  fo_link_loader_destroy(L);
  return fo__context(rc, "create link loader");
}

int64_t fo_link_loader_num_batches(const fo_link_loader_t *L) { return L ? L->n_batches : 0; }

int32_t fo_link_loader_edge_type(const fo_link_loader_t *L) { return fo_link_sampler_edge_type(L->s); }

int fo_link_loader_start_epoch(fo_link_loader_t *L, uint64_t epoch) { return set_order(L, epoch); }

int fo_link_loader_next(fo_link_loader_t *L, fo_link_loader_batch_t **out) {
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
      k = remote_seeds(L, L->next++, L->bsrc, L->bdst, L->blabel, L->btime, &off, &index);
      memset(&L->traffic, 0, sizeof L->traffic);
      fo__cur_batch_stats = &L->traffic;
    } else {
      index = L->next++;
      off = index * bs;
      k = L->n - off < bs ? L->n - off : bs;
      L->base = L->order;
      for (int64_t i = 0; i < k; i++) {
        const int64_t p = L->base[off + i];
        L->bsrc[i] = L->src[p];
        L->bdst[i] = L->dst[p];
        if (L->label) L->blabel[i] = L->label[p];
        if (L->time) L->btime[i] = L->time[p];
      }
    }
    rc = fo_link_sampler_sample_at(L->s, L->bsrc, L->bdst, L->label ? L->blabel : NULL,
                                   L->time ? L->btime : NULL, k, L->epoch, (uint64_t)index, L->b);
  }
  /* a sampling failure already names the batch (the sampler's context) */
  if (rc != FO_OK && !L->remote) return rc;
  if (rc == FO_OK) {
    /* the batch's place (the look-ahead cache plans the batches after it) */
    const fo__batch_pos pos = {L->epoch, L->next - 1};
    if (L->remote) fo__cur_batch_pos = &pos;
    rc = fo__batch_x_fill(&L->bx, L->b->sample, L->remote ? L->ld.gather : NULL, L->ld.ctx);
    if (L->remote) fo__cur_batch_pos = NULL;
    if (rc != FO_OK) rc = fo__context(rc, "link batch %lld", (long long)index);
  }
  if (L->remote) fo__cur_batch_stats = NULL;
  if (rc != FO_OK) return rc;
  L->pub.epoch = L->epoch;
  L->pub.index = index;
  L->pub.link = L->b;
  L->pub.input_id = L->base + off;
  L->pub.n_node_types = L->bx.T;
  L->pub.x = L->bx.pub;
  *out = &L->pub;
  return FO_OK;
}

uint64_t fo_link_loader_batch_digest(const fo_link_loader_batch_t *b) {
  XXH64_state_t st;
  const fo_link_batch_t *lb = b->link;
  XXH64_reset(&st, 0);
  fo__digest_sample(&st, lb->sample, b->x, b->n_node_types);
  if (lb->k) {
    XXH64_update(&st, lb->src_index, (size_t)lb->n_pos * sizeof *lb->src_index);
    XXH64_update(&st, lb->dst_pos_index, (size_t)lb->n_pos * sizeof *lb->dst_pos_index);
    XXH64_update(&st, lb->dst_neg_index, (size_t)(lb->n_pos * lb->k) * sizeof *lb->dst_neg_index);
  } else {
    XXH64_update(&st, lb->edge_label_index, (size_t)(2 * lb->n_label) * sizeof *lb->edge_label_index);
    XXH64_update(&st, lb->edge_label, (size_t)lb->n_label * sizeof *lb->edge_label);
  }
  XXH64_update(&st, b->input_id, (size_t)lb->n_pos * sizeof *b->input_id);
  return XXH64_digest(&st);
}
