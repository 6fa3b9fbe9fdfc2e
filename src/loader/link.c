/*
 * loader/link.c: the link loader (include/fanout/link.h): seed-edge batching and shuffling,
 * PyG's label shift, the link sampler, the feature gather of every node type.
 */
#include "fanout/link.h"

#include "loader/loader_internal.h"

struct fo_link_loader {
  const fo_dataset_t *d;
  fo_link_loader_opts o;
  int32_t *fanouts, *et_fanouts;
  int64_t n, *src, *dst, *label, *order;
  int64_t *bsrc, *bdst, *blabel;
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
  free(L);
}

static int set_order(fo_link_loader_t *L, uint64_t epoch) {
  L->epoch = epoch;
  L->next = 0;
  if (L->o.shuffle) return fo_random_permutation(L->n, L->o.link.sampler.seed, epoch, L->order);
  for (int64_t i = 0; i < L->n; i++) L->order[i] = i;
  return FO_OK;
}

int fo_link_loader_create(const fo_dataset_t *d, const fo_link_loader_opts *o, fo_link_loader_t **out) {
  fo_link_loader_t *L;
  const int64_t bs = o ? o->batch_size : 0;
  int rc;
  if (out) *out = NULL;
  if (!d || !o || !out) return FO_FAIL(FO_EINVAL, "create link loader: dataset, options or out is NULL");
  if (bs < 1) return FO_FAIL(FO_EINVAL, "create link loader: batch_size %lld is not >= 1", (long long)bs);
  if (o->n_edges < 0)
    return FO_FAIL(FO_EINVAL, "create link loader: n_edges %lld is negative", (long long)o->n_edges);
  if (o->n_edges > 0 && !o->edge_label_index)
    return FO_FAIL(FO_EINVAL, "create link loader: edge_label_index is NULL with %lld edges",
                   (long long)o->n_edges);
  if (!(L = calloc(1, sizeof *L))) return FO_FAIL(FO_ENOMEM, "link loader");
  L->d = d;
  L->o = *o;
  L->o.edge_label_index = NULL;
  L->o.edge_label = NULL;
  L->o.link.edge_type = NULL;
  L->n = o->n_edges;
  L->T = fo_dataset_num_node_types(d);
  if ((rc = fo_link_sampler_create(d, &o->link, &L->s)) != FO_OK) goto fail;
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
  if (L->n) {
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
  if ((rc = set_order(L, o->epoch)) != FO_OK) goto fail;
  *out = L;
  return FO_OK;
fail:
  fo_link_loader_destroy(L);
  return fo__context(rc, "create link loader");
}

int64_t fo_link_loader_num_batches(const fo_link_loader_t *L) { return L ? L->n_batches : 0; }

int fo_link_loader_start_epoch(fo_link_loader_t *L, uint64_t epoch) { return set_order(L, epoch); }

int fo_link_loader_next(fo_link_loader_t *L, fo_link_loader_batch_t **out) {
  const int64_t bs = L->o.batch_size;
  int64_t index, off, k;
  int rc;
  *out = NULL;
  if (L->next >= L->n_batches) return FO_OK;
  index = L->next++;
  off = index * bs;
  k = L->n - off < bs ? L->n - off : bs;
  for (int64_t i = 0; i < k; i++) {
    const int64_t p = L->order[off + i];
    L->bsrc[i] = L->src[p];
    L->bdst[i] = L->dst[p];
    if (L->label) L->blabel[i] = L->label[p];
  }
  if ((rc = fo_link_sampler_sample(L->s, L->bsrc, L->bdst, L->label ? L->blabel : NULL, k, L->epoch,
                                   (uint64_t)index, L->b)) != FO_OK)
    return rc;
  for (int32_t t = 0; t < L->T; t++) {
    const fo__gather *g = &L->g[t];
    const fo_batch_t *nb = fo_batch_node_type(L->b->sample, t);
    fo_loader_features *f = &L->pub_x[t];
    memset(f, 0, sizeof *f);
    if (!g->x) continue;
    if ((rc = fo__grow(&L->x[t], &L->cap_x[t], nb->n_nodes * g->row_bytes + 1, 1, "batch features")) != FO_OK ||
        (rc = fo__gather_rows(g, nb->node, nb->n_nodes, L->x[t])) != FO_OK)
      return fo__context(rc, "link batch %lld", (long long)index);
    f->x = L->x[t];
    f->dim = g->dim;
    f->itemsize = g->itemsize;
    f->dtype = g->dtype;
  }
  L->pub.epoch = L->epoch;
  L->pub.index = index;
  L->pub.link = L->b;
  L->pub.input_id = L->order + off;
  L->pub.n_node_types = L->T;
  L->pub.x = L->pub_x;
  *out = &L->pub;
  return FO_OK;
}
