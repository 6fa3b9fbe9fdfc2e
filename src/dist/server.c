/*
 * dist/server.c: answering other processes' requests from this machine's part: one-hop sampling
 * with the sampler's own kernel (so the draws are those of single-process sampling), and
 * feature/label rows. A request that fails (a malformed message, a node of another part, a
 * corrupt dataset) is answered with an ERROR message carrying the status and text, so the
 * caller reports it instead of waiting.
 */
#include "dist/dist_internal.h"

int fo__server_init(fo__server *sv, const fo_dataset_t *d, int32_t part) {
  fo_sampler_opts so;
  int rc;
  memset(sv, 0, sizeof *sv);
  sv->d = d;
  sv->part = part;
  if (!d->n_parts || part < 0 || part >= d->n_parts || !d->parts[part])
    return FO_FAIL(FO_EINVAL, "server: part %d of '%s' is not open", (int)part, d->path);
  fo_sampler_opts_init(&so);
  so.fanouts = (const int32_t[]){-1};
  so.n_hops = 1;
  if ((rc = fo_sampler_create(d, &so, &sv->s)) != FO_OK) return rc;
  if ((rc = fo_batch_create(&sv->scratch)) != FO_OK) {
    fo_sampler_destroy(sv->s);
    return rc;
  }
  return FO_OK;
}

void fo__server_fini(fo__server *sv) {
  fo_sampler_destroy(sv->s);
  fo_sampler_destroy(sv->s_out);
  free(sv->groups);
  free(sv->fgroups);
  free(sv->fntype);
  fo_batch_destroy(sv->scratch);
  fo__buf_free(&sv->out);
  free(sv->xbuf);
  free(sv->ybuf);
  free(sv->lcount);
  free(sv->lpos);
  free(sv->acount);
  free(sv->aid);
  memset(sv, 0, sizeof *sv);
}

static int answer_hop(fo__server *sv, const void *msg, size_t len) {
  fo__hop_req r;
  fo__hop_res res;
  int rc;
  if (sv->d->typed) /* its book and rows are per type: typed requests (HOPS) only */
    return FO_FAIL(FO_EINVAL, "one-type hop request, but '%s' is typed", sv->d->path);
  if ((rc = fo__dec_hop_req(msg, len, sv->d->n_nodes, sv->d->n_parts, &r)) != FO_OK) return rc;
  if (r.part != sv->part)
    return FO_FAIL(FO_EINVAL, "hop request for part %d reached the server of part %d", (int)r.part,
                   (int)sv->part);
  /* with replacement every node of degree > 0 gets exactly `fanout` edges: refuse what the
   * transport could not carry before sampling (and allocating) it */
  if (r.replace && sv->max_answer_words > 0 && r.fanout > 0 &&
      r.n > (sv->max_answer_words / 2 - r.n - 16) / r.fanout)
    return FO_FAIL(FO_ERANGE, "hop request for %lld nodes with fanout %d and replacement: its "
                   "answer could hold %lld edges, more than the transport's limit of %lld bytes "
                   "(max_message_bytes) carries: ask for fewer nodes or a smaller fanout",
                   (long long)r.n, (int)r.fanout, (long long)r.n * r.fanout,
                   (long long)sv->max_answer_words * 8);
  if ((rc = fo__sampler_hop(sv->s, &r, sv->scratch, &res)) != FO_OK) return rc;
  return fo__enc_hop_res(&sv->out, &res);
}

static int answer_fetch(fo__server *sv, const void *msg, size_t len) {
  const fo_dataset_t *p = sv->d->parts[sv->part];
  fo__fetch_req r;
  fo__fetch_res res;
  fo_features f;
  const int64_t *y = NULL;
  int64_t rb = 0, ny, nc;
  int rc;
  if (sv->d->typed) /* no top-level book, features or labels: typed requests (FETCHES) only */
    return FO_FAIL(FO_EINVAL, "one-type fetch request, but '%s' is typed", sv->d->path);
  if ((rc = fo__dec_fetch_req(msg, len, sv->d->n_nodes, sv->d->n_parts, &r)) != FO_OK) return rc;
  if (r.part != sv->part)
    return FO_FAIL(FO_EINVAL, "fetch request for part %d reached the server of part %d",
                   (int)r.part, (int)sv->part);
  memset(&res, 0, sizeof res);
  res.n = r.n;
  if (r.x) {
    if ((rc = fo_dataset_features(p, &f)) != FO_OK) return rc;
    rb = f.dim * f.itemsize;
    if ((rc = fo__grow(&sv->xbuf, &sv->cap_x, r.n * rb + 1, 1, "fetch rows")) != FO_OK) return rc;
  }
  if (r.y) {
    if ((rc = fo_dataset_labels(p, &y, &ny, &nc)) != FO_OK) return rc;
    if ((rc = fo__grow(&sv->ybuf, &sv->cap_y, r.n + 1, sizeof *sv->ybuf, "fetch labels")) != FO_OK)
      return rc;
  }
  /* a chunk of checked addresses at a time, then the rows (fo__copy_rows prefetches them) */
  for (int64_t i0 = 0; i0 < r.n; i0 += FO__COPY_CHUNK) {
    unsigned char *dst[FO__COPY_CHUNK];
    const unsigned char *src[FO__COPY_CHUNK];
    const int64_t m = r.n - i0 < FO__COPY_CHUNK ? r.n - i0 : FO__COPY_CHUNK;
    for (int64_t j = 0; j < m; j++) {
      int64_t v = r.nodes[i0 + j], row;
      if (fo__owner(sv->d, v) != sv->part)
        return FO_FAIL(FO_EINVAL, "fetch request for part %d: node %lld is owned by part %d",
                       (int)sv->part, (long long)v, fo__owner(sv->d, v));
      row = fo__owner_row(sv->d, sv->part, v);
      if (row < 0 || row >= p->n_rows)
        return FO_FAIL(FO_EFORMAT, "part %d: node %lld maps to row %lld of %lld", (int)sv->part,
                       (long long)v, (long long)row, (long long)p->n_rows);
      if (r.x) {
        dst[j] = sv->xbuf + (i0 + j) * rb;
        src[j] = (const unsigned char *)f.data + row * rb;
      }
      if (r.y) sv->ybuf[i0 + j] = y[row];
    }
    if (r.x) fo__copy_rows(dst, src, m, (size_t)rb);
  }
  res.row_bytes = rb;
  res.x = r.x ? sv->xbuf : NULL;
  res.y = r.y ? sv->ybuf : NULL;
  return fo__enc_fetch_res(&sv->out, &res);
}

/* Typed: one hop of every edge type's groups; the sampler of the request's direction (the one
 * for edge_dir out is made at its first request). */
static int answer_hops(fo__server *sv, const void *msg, size_t len) {
  const fo_dataset_t *d = sv->d;
  fo_sampler_t *s;
  int32_t G;
  int rc;
  if (!d->typed) return FO_FAIL(FO_EINVAL, "typed hop request, but '%s' is not typed", d->path);
  if (!sv->groups && !(sv->groups = calloc((size_t)d->n_etypes, sizeof *sv->groups)))
    return FO_FAIL(FO_ENOMEM, "hop request");
  if ((rc = fo__dec_hops_req(msg, len, d, sv->groups, d->n_etypes, &G)) != FO_OK) return rc;
  if (G && sv->groups[0].part != sv->part)
    return FO_FAIL(FO_EINVAL, "hop request for part %d reached the server of part %d",
                   (int)sv->groups[0].part, (int)sv->part);
  /* with replacement, as answer_hop: refuse an answer the transport could not carry (all the
   * groups together) before sampling and allocating it */
  if (G && sv->groups[0].replace && sv->max_answer_words > 0) {
    int64_t left = sv->max_answer_words - 16;
    for (int32_t i = 0; i < G; i++) {
      const fo__hop_req *r = &sv->groups[i];
      const int64_t per = r->fanout > 0 ? 2 * (int64_t)r->fanout + 1 : 1;
      if (left < 2 || r->n > (left - 2) / per)
        return FO_FAIL(FO_ERANGE, "hop request for %lld nodes of edge type %d with fanout %d and "
                       "replacement: its answer could hold %lld edges, more than the transport's "
                       "limit of %lld bytes (max_message_bytes) carries: ask for fewer nodes or a "
                       "smaller fanout", (long long)r->n, (int)r->etype, (int)r->fanout,
                       (long long)r->n * (r->fanout > 0 ? r->fanout : 0),
                       (long long)sv->max_answer_words * 8);
      left -= 2 + r->n * per;
    }
  }
  if (G && sv->groups[0].out && !sv->s_out) {
    fo_sampler_opts so;
    fo_sampler_opts_init(&so);
    so.fanouts = (const int32_t[]){-1};
    so.n_hops = 1;
    so.edge_dir = FO_EDGE_DIR_OUT;
    if ((rc = fo_sampler_create(d, &so, &sv->s_out)) != FO_OK) return rc;
  }
  s = G && sv->groups[0].out ? sv->s_out : sv->s;
  if ((rc = fo__enc_hops_res_begin(&sv->out)) != FO_OK) return rc;
  for (int32_t i = 0; i < G; i++) {
    fo__hop_res res;
    if ((rc = fo__sampler_hop(s, &sv->groups[i], sv->scratch, &res)) != FO_OK ||
        (rc = fo__enc_hops_res_add(&sv->out, &res)) != FO_OK)
      return fo__context(rc, "edge type %d", (int)sv->groups[i].etype);
  }
  return FO_OK;
}

/* Typed: feature rows and labels of every node type's group, from this part's views. */
static int answer_fetches(fo__server *sv, const void *msg, size_t len) {
  const fo_dataset_t *d = sv->d;
  fo__fetch_req *g;
  int32_t *ntype, G;
  int rc;
  if (!d->typed) return FO_FAIL(FO_EINVAL, "typed fetch request, but '%s' is not typed", d->path);
  if (!sv->fgroups && (!(sv->fgroups = calloc((size_t)d->n_ntypes, sizeof *sv->fgroups)) ||
                       !(sv->fntype = calloc((size_t)d->n_ntypes, sizeof *sv->fntype))))
    return FO_FAIL(FO_ENOMEM, "fetch request");
  g = sv->fgroups;
  ntype = sv->fntype;
  if ((rc = fo__dec_fetches_req(msg, len, d, g, ntype, d->n_ntypes, &G)) != FO_OK) return rc;
  if (G && g[0].part != sv->part)
    return FO_FAIL(FO_EINVAL, "fetch request for part %d reached the server of part %d",
                   (int)g[0].part, (int)sv->part);
  if ((rc = fo__enc_fetches_res_begin(&sv->out)) != FO_OK) return rc;
  for (int32_t i = 0; i < G; i++) {
    const fo_dataset_t *v = fo_dataset_node_data(d, ntype[i]), *p = v->parts[sv->part];
    fo__fetch_res res;
    fo_features f;
    const int64_t *y = NULL;
    int64_t rb = 0, ny, nc;
    memset(&res, 0, sizeof res);
    res.n = g[i].n;
    if (g[i].x) {
      if ((rc = fo_dataset_features(p, &f)) != FO_OK) return rc;
      rb = f.dim * f.itemsize;
      if ((rc = fo__grow(&sv->xbuf, &sv->cap_x, g[i].n * rb + 1, 1, "fetch rows")) != FO_OK) return rc;
    }
    if (g[i].y) {
      if ((rc = fo_dataset_labels(p, &y, &ny, &nc)) != FO_OK) return rc;
      if ((rc = fo__grow(&sv->ybuf, &sv->cap_y, g[i].n + 1, sizeof *sv->ybuf, "fetch labels")) != FO_OK)
        return rc;
    }
    for (int64_t i0 = 0; i0 < g[i].n; i0 += FO__COPY_CHUNK) {
      unsigned char *dst[FO__COPY_CHUNK];
      const unsigned char *src[FO__COPY_CHUNK];
      const int64_t m = g[i].n - i0 < FO__COPY_CHUNK ? g[i].n - i0 : FO__COPY_CHUNK;
      for (int64_t j = 0; j < m; j++) {
        int64_t u = g[i].nodes[i0 + j], row;
        if (fo__owner(v, u) != sv->part)
          return FO_FAIL(FO_EINVAL, "fetch request for part %d: node %lld of node type '%s' is "
                         "owned by part %d", (int)sv->part, (long long)u,
                         fo_dataset_node_type_name(d, ntype[i]), fo__owner(v, u));
        row = fo__owner_row(v, sv->part, u);
        if (row < 0 || row >= p->n_rows)
          return FO_FAIL(FO_EFORMAT, "part %d: node %lld of node type '%s' maps to row %lld of %lld",
                         (int)sv->part, (long long)u, fo_dataset_node_type_name(d, ntype[i]),
                         (long long)row, (long long)p->n_rows);
        if (g[i].x) {
          dst[j] = sv->xbuf + (i0 + j) * rb;
          src[j] = (const unsigned char *)f.data + row * rb;
        }
        if (g[i].y) sv->ybuf[i0 + j] = y[row];
      }
      if (g[i].x) fo__copy_rows(dst, src, m, (size_t)rb);
    }
    res.row_bytes = rb;
    res.x = g[i].x ? sv->xbuf : NULL;
    res.y = g[i].y ? sv->ybuf : NULL;
    if ((rc = fo__enc_fetches_res_add(&sv->out, &res)) != FO_OK) return rc;
  }
  return FO_OK;
}

int fo__server_answer(fo__server *sv, const void *msg, size_t len) {
  int kind = fo__msg_kind(msg, len), rc;
  if (kind == FO_MSG_HOP) rc = answer_hop(sv, msg, len);
  else if (kind == FO_MSG_FETCH) rc = answer_fetch(sv, msg, len);
  else if (kind == FO_MSG_HOPS) rc = answer_hops(sv, msg, len);
  else if (kind == FO_MSG_FETCHES) rc = answer_fetches(sv, msg, len);
  else if (kind == FO_MSG_LINK) rc = fo__server_link(sv, msg, len);
  else if (kind == FO_MSG_LABEL) rc = fo__server_label(sv, msg, len);
  else if (kind < 0) rc = kind;
  else rc = FO_FAIL(FO_EFORMAT, "malformed request: kind %d is not a request", kind);
  if (rc != FO_OK) {
    char text[1024];
    snprintf(text, sizeof text, "machine serving part %d: %s", (int)sv->part, fo_last_error());
    return fo__enc_error(&sv->out, rc, text);
  }
  return FO_OK;
}
