/*
 * loader/seedbatch.c: what the link loader (loader/link.c) and the ABLP loader
 * (loader/ablp.c) share: dealing an epoch's seeds (seed edges, anchors) into this process's
 * batches, every node type's feature rows of a batch, and the digest of a batch's subgraph.
 */
#include "loader/loader_internal.h"

#define XXH_STATIC_LINKING_ONLY /* XXH64_state_t */
#include <xxhash.h>

int fo__seed_deal_init(fo__seed_deal *sd, int64_t n, int64_t bs, bool drop_last, const char *what) {
  int64_t *cnt;
  int rc;
  sd->sel = NULL;
  sd->list = NULL;
  sd->n_list = sd->local_mb = sd->local_nb = 0;
  /* at most one batch of the list per batch of the epoch (pad: ceil(batches / shards)) */
  if (!(sd->list = fo__malloc_n(3 * (n / bs + 2), sizeof *sd->list)))
    return FO_FAIL(FO_ENOMEM, "%lld %s", (long long)n, what);
  if (!sd->local_seeds) return FO_OK;
  if (!(sd->sel = fo__malloc_n(n + 1, sizeof *sd->sel)) ||
      !(cnt = calloc((size_t)sd->n_machines, sizeof *cnt)))
    return FO_FAIL(FO_ENOMEM, "%lld %s", (long long)n, what);
  for (int64_t i = 0; i < n; i++) cnt[sd->owner[i]]++;
  rc = fo__local_seed_plan(cnt, sd->n_machines, sd->machine, sd->local_rank, sd->local_size, bs,
                           drop_last, sd->tail, n, what, &sd->local_mb, &sd->local_nb);
  free(cnt);
  return rc;
}

void fo__seed_deal_fini(fo__seed_deal *sd) {
  free(sd->owner);
  free(sd->sel);
  free(sd->list);
  sd->owner = NULL;
  sd->sel = sd->list = NULL;
}

const int64_t *fo__seed_deal_run(fo__seed_deal *sd, const int64_t *order, int64_t n, int64_t bs,
                                 bool drop_last) {
  const int64_t *base = order;
  int64_t cnt = 0;
  if (sd->local_seeds) {
    /* this machine's seeds in the epoch's order, dealt as the node loader deals its inputs */
    int64_t m = 0;
    for (int64_t i = 0; i < n; i++)
      if (sd->owner[order[i]] == sd->machine) sd->sel[m++] = order[i];
    n = m;
    base = sd->sel;
    for (int64_t j = 0; j < sd->local_nb && sd->local_mb > 0; j++) {
      const int64_t mb = fo__local_seed_batch(j, sd->local_rank, sd->local_size, sd->local_mb);
      int64_t *e = sd->list + 3 * cnt++;
      e[0] = mb * bs;
      e[1] = n - mb * bs < bs ? n - mb * bs : bs;
      e[2] = mb * sd->n_machines + sd->machine;
    }
  } else {
    const int64_t R = sd->n_shards, nb = n / bs + (!drop_last && n % bs != 0);
    const int64_t want = sd->tail == FO__TAIL_DROP ? nb / R
                         : sd->tail == FO__TAIL_PAD ? (nb + R - 1) / R
                                                    : (nb > sd->shard ? (nb - sd->shard + R - 1) / R : 0);
    for (int64_t i = 0; i < want && nb > 0; i++) {
      const int64_t b = (sd->shard + i * R) % nb;
      int64_t *e = sd->list + 3 * cnt++;
      e[0] = b * bs;
      e[1] = n - b * bs < bs ? n - b * bs : bs;
      e[2] = b;
    }
  }
  sd->n_list = cnt;
  return base;
}

int fo__batch_x_init(fo__batch_x *bx, const fo_dataset_t *d, bool features, const char *what) {
  const int32_t T = fo_dataset_num_node_types(d);
  int rc;
  memset(bx, 0, sizeof *bx);
  bx->T = T;
  if (!(bx->g = calloc((size_t)T, sizeof *bx->g)) || !(bx->x = calloc((size_t)T, sizeof *bx->x)) ||
      !(bx->cap_x = calloc((size_t)T, sizeof *bx->cap_x)) ||
      !(bx->pub = calloc((size_t)T, sizeof *bx->pub)) ||
      !(bx->row_bytes = calloc((size_t)T + 1, sizeof *bx->row_bytes)))
    return FO_FAIL(FO_ENOMEM, "%s", what);
  for (int32_t t = 0; t < T; t++) {
    if ((rc = fo__gather_init(&bx->g[t], fo_dataset_node_data(d, t), features, false)) != FO_OK)
      return rc;
    bx->row_bytes[t] = bx->g[t].x ? bx->g[t].row_bytes : 0;
  }
  return FO_OK;
}

void fo__batch_x_fini(fo__batch_x *bx) {
  for (int32_t t = 0; bx->g && t < bx->T; t++) fo__gather_fini(&bx->g[t]);
  for (int32_t t = 0; bx->x && t < bx->T; t++) free(bx->x[t]);
  free(bx->g);
  free(bx->x);
  free(bx->cap_x);
  free(bx->pub);
  free(bx->row_bytes);
  memset(bx, 0, sizeof *bx);
}

int fo__batch_x_fill(fo__batch_x *bx, const fo_batch_t *s,
                     int (*gather)(void *ctx, const fo_batch_t *b, unsigned char *const *x,
                                   const int64_t *row_bytes),
                     void *ctx) {
  int rc = FO_OK;
  for (int32_t t = 0; t < bx->T && rc == FO_OK; t++) {
    const fo__gather *g = &bx->g[t];
    const fo_batch_t *nb = fo_batch_node_type(s, t);
    fo_loader_features *f = &bx->pub[t];
    memset(f, 0, sizeof *f);
    if (!g->x) continue;
    rc = fo__grow(&bx->x[t], &bx->cap_x[t], nb->n_nodes * g->row_bytes + 1, 1, "batch features");
    if (rc == FO_OK && !gather) rc = fo__gather_rows(g, nb->node, nb->n_nodes, bx->x[t]);
    f->x = bx->x[t];
    f->dim = g->dim;
    f->itemsize = g->itemsize;
    f->dtype = g->dtype;
  }
  if (rc == FO_OK && gather) {
    /* every type's rows: this machine's here, the others' in one request per machine */
    unsigned char *xs[256], **xp = bx->T <= 256 ? xs : calloc((size_t)bx->T, sizeof *xp);
    if (!xp) return FO_FAIL(FO_ENOMEM, "batch features");
    for (int32_t t = 0; t < bx->T; t++) xp[t] = bx->g[t].x ? bx->x[t] : NULL;
    rc = gather(ctx, s, xp, bx->row_bytes);
    if (xp != xs) free(xp);
  }
  return rc;
}

void fo__digest_sample(struct XXH64_state_s *st, const fo_batch_t *s, const fo_loader_features *x,
                       int32_t n_types) {
  const int32_t T = s->typed ? s->n_node_types : 1, E = s->typed ? s->n_edge_types : 1;
  for (int32_t t = 0; t < T; t++) {
    const fo_batch_t *nb = fo_batch_node_type(s, t);
    XXH64_update(st, nb->node, (size_t)nb->n_nodes * sizeof *nb->node);
  }
  for (int32_t t = 0; t < E; t++) {
    const fo_batch_t *eb = fo_batch_edge_type(s, t);
    XXH64_update(st, eb->row, (size_t)eb->n_edges * sizeof *eb->row);
    XXH64_update(st, eb->col, (size_t)eb->n_edges * sizeof *eb->col);
    XXH64_update(st, eb->edge, (size_t)eb->n_edges * sizeof *eb->edge);
  }
  for (int32_t t = 0; x && t < n_types; t++)
    if (x[t].x)
      XXH64_update(st, x[t].x, (size_t)(fo_batch_node_type(s, t)->n_nodes * x[t].dim * x[t].itemsize));
}
