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
  int32_t T;
  fo__gather *g;
  unsigned char **x;
  int64_t *cap_x;
  fo_loader_features *pub_x;
  fo_link_loader_batch_t pub;
  /* distributed (fo__link_loader_create_remote): this process's batches of the epoch, list[i] =
   * {offset into base, seed edges, batch index}, base = order (global placement) or sel (the
   * order restricted to this machine's seed edges, local placement) */
  bool remote;
  fo__link_loader_dist ld;
  int32_t *sowner;           /* local placement: [n] each seed edge's machine */
  int64_t *sel, *list, n_list, *rb;
  int64_t local_mb, local_nb; /* local placement: this machine's batches, this rank's */
  const int64_t *base;
  fo_dist_batch_stats traffic;
};

void fo_link_loader_opts_init(fo_link_loader_opts *o) {
  memset(o, 0, sizeof *o);
  fo_link_opts_init(&o->link);
  o->batch_size = 1;
  o->features = true;
}

void fo_link_loader_destroy(fo_link_loader_t *L) {
  if (!L) return;
  fo_link_sampler_destroy(L->s);
  fo_link_batch_destroy(L->b);
  for (int32_t t = 0; L->g && t < L->T; t++) fo__gather_fini(&L->g[t]);
  for (int32_t t = 0; L->x && t < L->T; t++) free(L->x[t]);
  free(L->g);
  free(L->x);
  free(L->cap_x);
  free(L->pub_x);
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
  free(L->sowner);
  free(L->sel);
  free(L->list);
  free(L->rb);
  if (L->remote && L->ld.free_ctx) L->ld.free_ctx(L->ld.ctx);
  free(L);
}

/* Distributed: this process's batches of the epoch whose order L->order holds (see
 * fo__link_loader_dist). */
static int deal(fo_link_loader_t *L) {
  const int64_t bs = L->o.batch_size;
  const fo__link_loader_dist *ld = &L->ld;
  int64_t n = L->n, nb, cnt = 0;
  L->n_list = 0;
  L->base = L->order;
  if (ld->local_seeds) {
    int64_t m = 0;
    for (int64_t i = 0; i < L->n; i++)
      if (L->sowner[L->order[i]] == ld->machine) L->sel[m++] = L->order[i];
    n = m;
    L->base = L->sel;
  }
  nb = n / bs + (!L->o.drop_last && n % bs != 0);
  if (ld->local_seeds) {
    /* the node loader's plan (fo__local_seed_plan): tail keep, drop or pad over every rank */
    for (int64_t j = 0; j < L->local_nb && L->local_mb > 0; j++) {
      const int64_t mb = fo__local_seed_batch(j, ld->local_rank, ld->local_size, L->local_mb);
      int64_t *e = L->list + 3 * cnt++;
      e[0] = mb * bs;
      e[1] = n - mb * bs < bs ? n - mb * bs : bs;
      e[2] = mb * ld->n_machines + ld->machine;
    }
  } else {
    const int64_t R = ld->n_shards;
    const int64_t want = ld->tail == FO__TAIL_DROP ? nb / R
                         : ld->tail == FO__TAIL_PAD ? (nb + R - 1) / R
                                                    : (nb > ld->shard ? (nb - ld->shard + R - 1) / R : 0);
    for (int64_t i = 0; i < want && nb > 0; i++) {
      const int64_t b = (ld->shard + i * R) % nb;
      int64_t *e = L->list + 3 * cnt++;
      e[0] = b * bs;
      e[1] = n - b * bs < bs ? n - b * bs : bs;
      e[2] = b;
    }
  }
  L->n_list = cnt;
  L->n_batches = cnt;
  return FO_OK;
}

static int set_order(fo_link_loader_t *L, uint64_t epoch) {
  int rc = FO_OK;
  L->epoch = epoch;
  L->next = 0;
  if (L->o.shuffle) rc = fo_random_permutation(L->n, L->o.link.sampler.seed, epoch, L->order);
  else
    for (int64_t i = 0; i < L->n; i++) L->order[i] = i;
  if (rc == FO_OK && L->remote) rc = deal(L);
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
  L->T = fo_dataset_num_node_types(d);
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
        rc = FO_FAIL(FO_ERANGE, "create link loader: seed edge %lld (%lld, %lld) is not a pair of "
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
      if (!t.time) {
        rc = FO_FAIL(FO_EINVAL, "create link loader: temporal sampling over edge split '%s' needs "
                     "edge_label_time or the edge times of '%s' (import --edge-time or --time-col)",
                     o->edge_split, ty.name);
        goto fail;
      }
      for (int64_t i = 0; i < L->n; i++) L->time[i] = t.time[split_eids[i]];
    } else if (L->n) {
      rc = FO_FAIL(FO_EINVAL, "create link loader: temporal sampling needs edge_label_time (the "
                   "seed edges' times)");
      goto fail;
    }
  } else if (o->edge_label_time) {
    rc = FO_FAIL(FO_EINVAL, "create link loader: edge_label_time given, but the sampler is not "
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
  if (!(L->g = calloc((size_t)L->T, sizeof *L->g)) || !(L->x = calloc((size_t)L->T, sizeof *L->x)) ||
      !(L->cap_x = calloc((size_t)L->T, sizeof *L->cap_x)) ||
      !(L->pub_x = calloc((size_t)L->T, sizeof *L->pub_x))) {
    rc = FO_FAIL(FO_ENOMEM, "link loader");
    goto fail;
  }
  for (int32_t t = 0; t < L->T; t++)
    if ((rc = fo__gather_init(&L->g[t], fo_dataset_node_data(d, t), o->features, false)) != FO_OK)
      goto fail;
  L->n_batches = L->n / bs + (!o->drop_last && L->n % bs != 0);
  if (L->remote) {
    /* at most one batch of the list per batch of the epoch (pad: ceil(batches / shards)) */
    if (!(L->list = fo__malloc_n(3 * (L->n_batches + 1), sizeof *L->list)) ||
        !(L->rb = calloc((size_t)L->T + 1, sizeof *L->rb)) ||
        (L->ld.local_seeds && (!(L->sel = fo__malloc_n(L->n + 1, sizeof *L->sel)) ||
                               !(L->sowner = fo__malloc_n(L->n + 1, sizeof *L->sowner))))) {
      rc = FO_FAIL(FO_ENOMEM, "link loader");
      goto fail;
    }
    for (int64_t i = 0; L->ld.local_seeds && i < L->n; i++) {
      L->sowner[i] = L->ld.owner(L->ld.ctx, L->src[i], L->dst[i]);
      if (L->sowner[i] < 0 || L->sowner[i] >= L->ld.n_machines) {
        rc = FO_FAIL(FO_EFORMAT, "create link loader: seed edge %lld (%lld, %lld) has owner %d, "
                     "not a machine in [0, %d)", (long long)i, (long long)L->src[i],
                     (long long)L->dst[i], (int)L->sowner[i], (int)L->ld.n_machines);
        goto fail;
      }
    }
    if (L->ld.local_seeds) {
      int64_t *cnt = calloc((size_t)L->ld.n_machines, sizeof *cnt);
      if (!cnt) {
        rc = FO_FAIL(FO_ENOMEM, "link loader");
        goto fail;
      }
      for (int64_t i = 0; i < L->n; i++) cnt[L->sowner[i]]++;
      rc = fo__local_seed_plan(cnt, L->ld.n_machines, L->ld.machine, L->ld.local_rank,
                               L->ld.local_size, bs, o->drop_last, L->ld.tail, L->n, "seed edges",
                               &L->local_mb, &L->local_nb);
      free(cnt);
      if (rc != FO_OK) goto fail;
    }
    for (int32_t t = 0; t < L->T; t++) L->rb[t] = L->g[t].x ? L->g[t].row_bytes : 0;
  }
  if ((rc = set_order(L, o->epoch)) != FO_OK) goto fail;
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
  if (L->remote) {
    const int64_t *e = L->list + 3 * L->next++;
    off = e[0];
    k = e[1];
    index = e[2];
    memset(&L->traffic, 0, sizeof L->traffic);
    fo__cur_batch_stats = &L->traffic;
  } else {
    index = L->next++;
    off = index * bs;
    k = L->n - off < bs ? L->n - off : bs;
    L->base = L->order;
  }
  for (int64_t i = 0; i < k; i++) {
    const int64_t p = L->base[off + i];
    L->bsrc[i] = L->src[p];
    L->bdst[i] = L->dst[p];
    if (L->label) L->blabel[i] = L->label[p];
    if (L->time) L->btime[i] = L->time[p];
  }
  rc = fo_link_sampler_sample_at(L->s, L->bsrc, L->bdst, L->label ? L->blabel : NULL,
                                 L->time ? L->btime : NULL, k, L->epoch, (uint64_t)index, L->b);
  if (rc == FO_OK && L->remote) {
    /* every type's rows: this machine's here, the others' in one request per machine */
    for (int32_t t = 0; t < L->T && rc == FO_OK; t++) {
      const fo_batch_t *nb = fo_batch_node_type(L->b->sample, t);
      if (L->g[t].x)
        rc = fo__grow(&L->x[t], &L->cap_x[t], nb->n_nodes * L->g[t].row_bytes + 1, 1, "batch features");
    }
    if (rc == FO_OK) {
      unsigned char *xs[256], **xp = L->T <= 256 ? xs : calloc((size_t)L->T, sizeof *xp);
      if (!xp) rc = FO_FAIL(FO_ENOMEM, "batch features");
      for (int32_t t = 0; xp && t < L->T; t++) xp[t] = L->g[t].x ? L->x[t] : NULL;
      /* the batch's place (the look-ahead cache plans the batches after it) */
      const fo__batch_pos pos = {L->epoch, L->next - 1};
      fo__cur_batch_pos = &pos;
      if (xp) rc = L->ld.gather(L->ld.ctx, L->b->sample, xp, L->rb);
      fo__cur_batch_pos = NULL;
      if (xp && xp != xs) free(xp);
    }
  }
  if (L->remote) fo__cur_batch_stats = NULL;
  if (rc != FO_OK) return L->remote ? fo__context(rc, "link batch %lld", (long long)index) : rc;
  for (int32_t t = 0; t < L->T; t++) {
    const fo__gather *g = &L->g[t];
    const fo_batch_t *nb = fo_batch_node_type(L->b->sample, t);
    fo_loader_features *f = &L->pub_x[t];
    memset(f, 0, sizeof *f);
    if (!g->x) continue;
    if (!L->remote &&
        ((rc = fo__grow(&L->x[t], &L->cap_x[t], nb->n_nodes * g->row_bytes + 1, 1, "batch features")) != FO_OK ||
         (rc = fo__gather_rows(g, nb->node, nb->n_nodes, L->x[t])) != FO_OK))
      return fo__context(rc, "link batch %lld", (long long)index);
    f->x = L->x[t];
    f->dim = g->dim;
    f->itemsize = g->itemsize;
    f->dtype = g->dtype;
  }
  L->pub.epoch = L->epoch;
  L->pub.index = index;
  L->pub.link = L->b;
  L->pub.input_id = L->base + off;
  L->pub.n_node_types = L->T;
  L->pub.x = L->pub_x;
  *out = &L->pub;
  return FO_OK;
}

uint64_t fo_link_loader_batch_digest(const fo_link_loader_batch_t *b) {
  XXH64_state_t st;
  const fo_link_batch_t *lb = b->link;
  const fo_batch_t *s = lb->sample;
  const int32_t T = s->typed ? s->n_node_types : 1, E = s->typed ? s->n_edge_types : 1;
  XXH64_reset(&st, 0);
  for (int32_t t = 0; t < T; t++) {
    const fo_batch_t *nb = fo_batch_node_type(s, t);
    XXH64_update(&st, nb->node, (size_t)nb->n_nodes * sizeof *nb->node);
  }
  for (int32_t t = 0; t < E; t++) {
    const fo_batch_t *eb = fo_batch_edge_type(s, t);
    XXH64_update(&st, eb->row, (size_t)eb->n_edges * sizeof *eb->row);
    XXH64_update(&st, eb->col, (size_t)eb->n_edges * sizeof *eb->col);
    XXH64_update(&st, eb->edge, (size_t)eb->n_edges * sizeof *eb->edge);
  }
  for (int32_t t = 0; b->x && t < b->n_node_types; t++)
    if (b->x[t].x)
      XXH64_update(&st, b->x[t].x, (size_t)(fo_batch_node_type(s, t)->n_nodes * b->x[t].dim *
                                            b->x[t].itemsize));
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
