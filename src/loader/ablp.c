/*
 * loader/ablp.c: the ABLP loader (include/fanout/ablp.h): anchor batching and shuffling, the
 * ABLP sampler, the feature gather of every node type (as loader/link.c does for seed edges).
 */
#include "fanout/ablp.h"

#include "loader/loader_internal.h"

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
  free(L);
}

static int set_order(fo_ablp_loader_t *L, uint64_t epoch) {
  L->epoch = epoch;
  L->next = 0;
  if (L->o.shuffle) return fo_random_permutation(L->n, L->o.ablp.sampler.seed, epoch, L->order);
  for (int64_t i = 0; i < L->n; i++) L->order[i] = i;
  return FO_OK;
}

int fo_ablp_loader_create(const fo_dataset_t *d, const fo_ablp_loader_opts *o, fo_ablp_loader_t **out) {
  fo_ablp_loader_t *L;
  const int64_t bs = o ? o->batch_size : 0;
  int rc;
  if (out) *out = NULL;
  if (!d || !o || !out) return FO_FAIL(FO_EINVAL, "create ABLP loader: dataset, options or out is NULL");
  if (bs < 1) return FO_FAIL(FO_EINVAL, "create ABLP loader: batch_size %lld is not >= 1", (long long)bs);
  if (o->n_input_nodes < 0)
    return FO_FAIL(FO_EINVAL, "create ABLP loader: n_input_nodes %lld is negative",
                   (long long)o->n_input_nodes);
  if (o->n_input_nodes > 0 && !o->input_nodes)
    return FO_FAIL(FO_EINVAL, "create ABLP loader: input_nodes is NULL with %lld anchors",
                   (long long)o->n_input_nodes);
  if (!(L = calloc(1, sizeof *L))) return FO_FAIL(FO_ENOMEM, "ABLP loader");
  L->d = d;
  L->o = *o;
  L->o.input_nodes = NULL;
  L->o.ablp.supervision_edge_type = L->o.ablp.negative_edge_type = NULL;
  L->n = o->n_input_nodes;
  L->T = fo_dataset_num_node_types(d);
  if ((rc = fo_ablp_sampler_create(d, &o->ablp, &L->s)) != FO_OK) goto fail;
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
        rc = FO_FAIL(FO_ERANGE, "create ABLP loader: anchor %lld (input_nodes[%lld]) is not a node "
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
  if ((rc = set_order(L, o->epoch)) != FO_OK) goto fail;
  *out = L;
  return FO_OK;
fail:
  fo_ablp_loader_destroy(L);
  return fo__context(rc, "create ABLP loader");
}

int64_t fo_ablp_loader_num_batches(const fo_ablp_loader_t *L) { return L ? L->n_batches : 0; }

int fo_ablp_loader_start_epoch(fo_ablp_loader_t *L, uint64_t epoch) { return set_order(L, epoch); }

int fo_ablp_loader_next(fo_ablp_loader_t *L, fo_ablp_loader_batch_t **out) {
  const int64_t bs = L->o.batch_size;
  int64_t index, off, k;
  int rc;
  *out = NULL;
  if (L->next >= L->n_batches) return FO_OK;
  index = L->next++;
  off = index * bs;
  k = L->n - off < bs ? L->n - off : bs;
  for (int64_t i = 0; i < k; i++) L->banchor[i] = L->anchor[L->order[off + i]];
  if ((rc = fo_ablp_sampler_sample(L->s, L->banchor, k, L->epoch, (uint64_t)index, L->b)) != FO_OK)
    return rc;
  for (int32_t t = 0; t < L->T; t++) {
    const fo__gather *g = &L->g[t];
    const fo_batch_t *nb = fo_batch_node_type(L->b->sample, t);
    fo_loader_features *f = &L->pub_x[t];
    memset(f, 0, sizeof *f);
    if (!g->x) continue;
    if ((rc = fo__grow(&L->x[t], &L->cap_x[t], nb->n_nodes * g->row_bytes + 1, 1, "batch features")) != FO_OK ||
        (rc = fo__gather_rows(g, nb->node, nb->n_nodes, L->x[t])) != FO_OK)
      return fo__context(rc, "ABLP batch %lld", (long long)index);
    f->x = L->x[t];
    f->dim = g->dim;
    f->itemsize = g->itemsize;
    f->dtype = g->dtype;
  }
  L->pub.epoch = L->epoch;
  L->pub.index = index;
  L->pub.ablp = L->b;
  L->pub.input_id = L->order + off;
  L->pub.n_node_types = L->T;
  L->pub.x = L->pub_x;
  *out = &L->pub;
  return FO_OK;
}
