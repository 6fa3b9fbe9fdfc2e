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
  int32_t T;
  fo__gather *g;
  unsigned char **x;
  int64_t *cap_x;
  fo_loader_features *pub_x;
  fo_ablp_loader_batch_t pub;
  /* distributed (fo__ablp_loader_create_remote): this process's batches of the epoch, list[i]
   * = {offset into order, anchors, batch index} */
  bool remote;
  fo__ablp_loader_dist ld;
  int64_t *list, n_list, *rb;
  int32_t *aowner;            /* local placement: [n] each anchor's machine */
  int64_t *sel;               /* local placement: this machine's anchors in the epoch's order */
  int64_t local_mb, local_nb; /* local placement: this machine's batches, this rank's */
  const int64_t *base;        /* order or sel */
  fo_dist_batch_stats traffic;
};

void fo_ablp_loader_opts_init(fo_ablp_loader_opts *o) {
  memset(o, 0, sizeof *o);
  fo_ablp_opts_init(&o->ablp);
  o->batch_size = 1;
  o->features = true;
}

void fo_ablp_loader_destroy(fo_ablp_loader_t *L) {
  if (!L) return;
  fo_ablp_sampler_destroy(L->s);
  fo_ablp_batch_destroy(L->b);
  for (int32_t t = 0; L->g && t < L->T; t++) fo__gather_fini(&L->g[t]);
  for (int32_t t = 0; L->x && t < L->T; t++) free(L->x[t]);
  free(L->g);
  free(L->x);
  free(L->cap_x);
  free(L->pub_x);
  free(L->anchor);
  free(L->order);
  free(L->banchor);
  free(L->list);
  free(L->rb);
  free(L->aowner);
  free(L->sel);
  if (L->remote && L->ld.free_ctx) L->ld.free_ctx(L->ld.ctx);
  free(L);
}

/* Distributed: this process's batches of the epoch (see fo__ablp_loader_dist). */
static void deal(fo_ablp_loader_t *L) {
  const int64_t bs = L->o.batch_size, R = L->ld.n_shards;
  int64_t n = L->n, cnt = 0;
  L->base = L->order;
  if (L->ld.local_seeds) {
    /* this machine's anchors in the epoch's order, dealt as the node loader deals its inputs */
    int64_t m = 0;
    for (int64_t i = 0; i < L->n; i++)
      if (L->aowner[L->order[i]] == L->ld.machine) L->sel[m++] = L->order[i];
    n = m;
    L->base = L->sel;
    for (int64_t j = 0; j < L->local_nb && L->local_mb > 0; j++) {
      const int64_t mb = fo__local_seed_batch(j, L->ld.local_rank, L->ld.local_size, L->local_mb);
      int64_t *e = L->list + 3 * cnt++;
      e[0] = mb * bs;
      e[1] = n - mb * bs < bs ? n - mb * bs : bs;
      e[2] = mb * L->ld.n_machines + L->ld.machine;
    }
  } else {
    const int64_t nb = n / bs + (!L->o.drop_last && n % bs != 0);
    const int64_t want = L->ld.tail == FO__TAIL_DROP ? nb / R
                         : L->ld.tail == FO__TAIL_PAD ? (nb + R - 1) / R
                                                      : (nb > L->ld.shard ? (nb - L->ld.shard + R - 1) / R : 0);
    for (int64_t i = 0; i < want && nb > 0; i++) {
      const int64_t b = (L->ld.shard + i * R) % nb;
      int64_t *e = L->list + 3 * cnt++;
      e[0] = b * bs;
      e[1] = n - b * bs < bs ? n - b * bs : bs;
      e[2] = b;
    }
  }
  L->n_list = cnt;
  L->n_batches = cnt;
}

static int set_order(fo_ablp_loader_t *L, uint64_t epoch) {
  L->epoch = epoch;
  L->next = 0;
  if (L->o.shuffle) {
    const int rc = fo_random_permutation(L->n, L->o.ablp.sampler.seed, epoch, L->order);
    if (rc != FO_OK) return rc;
  } else {
    for (int64_t i = 0; i < L->n; i++) L->order[i] = i;
  }
  if (L->remote) deal(L);
  return FO_OK;
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
  L->T = fo_dataset_num_node_types(d);
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
  if (!(L->g = calloc((size_t)L->T, sizeof *L->g)) || !(L->x = calloc((size_t)L->T, sizeof *L->x)) ||
      !(L->cap_x = calloc((size_t)L->T, sizeof *L->cap_x)) ||
      !(L->pub_x = calloc((size_t)L->T, sizeof *L->pub_x))) {
    rc = FO_FAIL(FO_ENOMEM, "ABLP loader");
    goto fail;
  }
  for (int32_t t = 0; t < L->T; t++)
    if ((rc = fo__gather_init(&L->g[t], fo_dataset_node_data(d, t), o->features, false)) != FO_OK)
      goto fail;
  L->n_batches = L->n / bs + (!o->drop_last && L->n % bs != 0);
  if (L->remote) {
    /* at most one batch of the list per batch of the epoch (pad: ceil(batches / shards)) */
    if (!(L->list = fo__malloc_n(3 * (L->n_batches + 1), sizeof *L->list)) ||
        !(L->rb = calloc((size_t)L->T + 1, sizeof *L->rb))) {
      rc = FO_FAIL(FO_ENOMEM, "ABLP loader");
      goto fail;
    }
    if (L->ld.local_seeds) {
      int64_t *cnt;
      if (L->ld.n_machines < 1 || L->ld.local_size < 1 || L->ld.machine < 0 ||
          L->ld.machine >= L->ld.n_machines || L->ld.local_rank < 0 ||
          L->ld.local_rank >= L->ld.local_size || !L->ld.owner) {
        rc = FO_FAIL(FO_EINVAL, "seed placement local: machine %d of %d, local rank %d of %d",
                     (int)L->ld.machine, (int)L->ld.n_machines, (int)L->ld.local_rank,
                     (int)L->ld.local_size);
        goto fail;
      }
      if (!(L->aowner = fo__malloc_n(L->n + 1, sizeof *L->aowner)) ||
          !(L->sel = fo__malloc_n(L->n + 1, sizeof *L->sel)) ||
          !(cnt = calloc((size_t)L->ld.n_machines, sizeof *cnt))) {
        rc = FO_FAIL(FO_ENOMEM, "ABLP loader: %lld anchors", (long long)L->n);
        goto fail;
      }
      for (int64_t i = 0; i < L->n; i++) {
        L->aowner[i] = L->ld.owner(L->ld.ctx, fo_ablp_sampler_anchor_type(L->s), L->anchor[i]);
        if (L->aowner[i] < 0 || L->aowner[i] >= L->ld.n_machines) {
          rc = FO_FAIL(FO_EFORMAT, "create ABLP loader: anchor %lld has owner %d, not a machine in "
                       "[0, %d)", (long long)L->anchor[i], (int)L->aowner[i], (int)L->ld.n_machines);
          free(cnt);
          goto fail;
        }
        cnt[L->aowner[i]]++;
      }
      rc = fo__local_seed_plan(cnt, L->ld.n_machines, L->ld.machine, L->ld.local_rank,
                               L->ld.local_size, bs, o->drop_last, L->ld.tail, L->n, "anchors",
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
  }
  if (!L->remote) L->base = L->order;
  for (int64_t i = 0; i < k; i++) L->banchor[i] = L->anchor[L->base[off + i]];
  rc = fo_ablp_sampler_sample(L->s, L->banchor, k, L->epoch, (uint64_t)index, L->b);
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
  if (rc != FO_OK) return L->remote ? fo__context(rc, "ABLP batch %lld", (long long)index) : rc;
  for (int32_t t = 0; t < L->T; t++) {
    const fo__gather *g = &L->g[t];
    const fo_batch_t *nb = fo_batch_node_type(L->b->sample, t);
    fo_loader_features *f = &L->pub_x[t];
    memset(f, 0, sizeof *f);
    if (!g->x) continue;
    if (!L->remote &&
        ((rc = fo__grow(&L->x[t], &L->cap_x[t], nb->n_nodes * g->row_bytes + 1, 1, "batch features")) != FO_OK ||
         (rc = fo__gather_rows(g, nb->node, nb->n_nodes, L->x[t])) != FO_OK))
      return fo__context(rc, "ABLP batch %lld", (long long)index);
    f->x = L->x[t];
    f->dim = g->dim;
    f->itemsize = g->itemsize;
    f->dtype = g->dtype;
  }
  L->pub.epoch = L->epoch;
  L->pub.index = index;
  L->pub.ablp = L->b;
  L->pub.input_id = L->base + off;
  L->pub.n_node_types = L->T;
  L->pub.x = L->pub_x;
  *out = &L->pub;
  return FO_OK;
}

uint64_t fo_ablp_loader_batch_digest(const fo_ablp_loader_batch_t *b) {
  XXH64_state_t st;
  const fo_ablp_batch_t *ab = b->ablp;
  const fo_batch_t *s = ab->sample;
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
  XXH64_update(&st, ab->anchor_index, (size_t)ab->n_anchors * sizeof *ab->anchor_index);
  XXH64_update(&st, ab->y_positive, (size_t)(2 * ab->n_pos) * sizeof *ab->y_positive);
  XXH64_update(&st, ab->y_negative, (size_t)(2 * ab->n_neg) * sizeof *ab->y_negative);
  XXH64_update(&st, ab->random_negative, (size_t)(ab->n_anchors * ab->k) * sizeof *ab->random_negative);
  XXH64_update(&st, b->input_id, (size_t)ab->n_anchors * sizeof *b->input_id);
  return XXH64_digest(&st);
}
