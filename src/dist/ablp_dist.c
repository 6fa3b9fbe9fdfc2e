/*
 * dist/ablp_dist.c: anchor-based link prediction over a distributed dataset
 * (fo_dist_ablp_loader_create in include/fanout/dist.h): the LABEL lookup (supervision rows of
 * the anchors other machines own, one request per remote machine per batch), its server side,
 * and the options every process must share.
 */
#include "dist/dist_internal.h"
#include "sample/ablp_internal.h"

/* ---- the rows' answers, in the part that owns them ------------------------------------------ */

/* Anchors a[0..n)'s rows of label type `ty` from `d`'s part `part` (open here): counts into
 * cnt[0..n), ids appended to *ids (from *n_ids on). Every anchor must be owned by `part`. */
static int scan_rows(const fo_dataset_t *d, int32_t part, int32_t ty, const int64_t *a, int64_t n,
                     int64_t *cnt, int64_t **ids, int64_t *cap_ids, int64_t *n_ids) {
  fo__label_rows lr;
  int rc;
  if ((rc = fo__label_rows_init(d, ty, &lr)) != FO_OK) return rc;
  for (int64_t i = 0; i < n; i++) {
    const fo_topology *t;
    int64_t x, y;
    if (lr.book && fo__owner(lr.book, a[i]) != part) {
      rc = FO_FAIL(FO_EINVAL, "label lookup for part %d: anchor %lld of '%s' is owned by part %d",
                   (int)part, (long long)a[i], lr.name, fo__owner(lr.book, a[i]));
      break;
    }
    if ((rc = fo__label_rows_get(&lr, a[i], &t, &x, &y)) != FO_OK ||
        (rc = fo__grow(ids, cap_ids, *n_ids + (y - x) + 1, sizeof **ids, "label lookup")) != FO_OK)
      break;
    for (int64_t p = x; p < y; p++) (*ids)[(*n_ids)++] = fo__label_rows_at(t, p);
    cnt[i] = y - x;
  }
  fo__label_rows_fini(&lr);
  return rc;
}

int fo__server_label(fo__server *sv, const void *msg, size_t len) {
  fo__label_req r;
  fo__label_res res;
  int64_t n_ids = 0, n_p;
  int rc;
  if ((rc = fo__dec_label_req(msg, len, sv->d, &r)) != FO_OK) return rc;
  if (r.part != sv->part)
    return FO_FAIL(FO_EINVAL, "label request for part %d reached the server of part %d", (int)r.part,
                   (int)sv->part);
  if ((rc = fo__grow(&sv->acount, &sv->cap_acount, 2 * r.n + 1, sizeof *sv->acount, "label request")) != FO_OK)
    return rc;
  memset(sv->acount, 0, (size_t)(2 * r.n + 1) * sizeof *sv->acount);
  if ((rc = scan_rows(sv->d, sv->part, r.P, r.anchors, r.n, sv->acount, &sv->aid, &sv->cap_aid,
                      &n_ids)) != FO_OK)
    return rc;
  n_p = n_ids;
  if (r.N >= 0 && (rc = scan_rows(sv->d, sv->part, r.N, r.anchors, r.n, sv->acount + r.n, &sv->aid,
                                  &sv->cap_aid, &n_ids)) != FO_OK)
    return rc;
  if (sv->max_answer_words && 5 + 2 * r.n + n_ids > sv->max_answer_words)
    return FO_FAIL(FO_ERANGE, "label answer of %lld bytes exceeds max_message_bytes %lld",
                   (long long)(8 * (5 + 2 * r.n + n_ids)), (long long)(8 * sv->max_answer_words));
  res.n = r.n;
  res.n_p = n_p;
  res.n_n = n_ids - n_p;
  res.pcount = sv->acount;
  res.ncount = sv->acount + r.n;
  res.pid = sv->aid;
  res.nid = sv->aid + n_p;
  return fo__enc_label_res(&sv->out, &res);
}

/* ---- the asking side ------------------------------------------------------------------------ */

typedef struct label_ctx {
  fo_dist_t *dd;
  const fo_dataset_t *d;
  int P;
  fo__call *calls;             /* [P] */
  int32_t *owner;              /* [n] each anchor's machine */
  int64_t *packed, *cnt, *start, *at, *pat, *nat;
  int64_t cap_owner, cap_packed;
  int64_t *lcnt, *lid;         /* this machine's anchors' rows: counts [2 n], ids */
  int64_t cap_lcnt, cap_lid;
  fo__label_res *res;          /* [P] */
  int64_t *poff, *noff, *pid, *nid; /* the answer in anchor order */
  int64_t cap_poff, cap_noff, cap_pid, cap_nid;
} label_ctx;

static void label_ctx_free(void *p) {
  label_ctx *c = p;
  if (!c) return;
  for (int k = 0; c->calls && k < c->P; k++) {
    fo__buf_free(&c->calls[k].req);
    free(c->calls[k].resp);
  }
  free(c->calls);
  free(c->owner);
  free(c->packed);
  free(c->cnt);
  free(c->start);
  free(c->at);
  free(c->pat);
  free(c->nat);
  free(c->lcnt);
  free(c->lid);
  free(c->res);
  free(c->poff);
  free(c->noff);
  free(c->pid);
  free(c->nid);
  free(c);
}

/* fo__ablp_remote.rows: this machine's anchors read here, every other machine's in one LABEL
 * request, the answers put back in anchor order. */
static int label_rows(void *ctx, int32_t Pt, int32_t Nt, const int64_t *anchor, int64_t n,
                      const int64_t **poff, const int64_t **pid, const int64_t **noff,
                      const int64_t **nid) {
  label_ctx *c = ctx;
  const fo_dataset_t *d = c->d;
  const int P = c->P, me = c->dd->machine;
  const char *msg;
  fo_edge_type ty;
  const fo_dataset_t *book;
  int64_t n_dst, nl = 0, nlp, tp = 0, tn = 0, bytes = 0;
  int n_calls = 0, rc;
  if ((rc = fo_dataset_label_edge_type(d, Pt, &ty)) != FO_OK) return rc;
  book = fo_dataset_node_data(d, ty.src_type);
  n_dst = fo_dataset_num_nodes(fo_dataset_node_data(d, ty.dst_type));
  if ((rc = fo__grow(&c->owner, &c->cap_owner, n + 1, sizeof *c->owner, "label lookup")) != FO_OK ||
      (rc = fo__grow(&c->packed, &c->cap_packed, n + 1, sizeof *c->packed, "label lookup")) != FO_OK ||
      (rc = fo__grow(&c->lcnt, &c->cap_lcnt, 2 * n + 2, sizeof *c->lcnt, "label lookup")) != FO_OK ||
      (rc = fo__grow(&c->poff, &c->cap_poff, n + 1, sizeof *c->poff, "label lookup")) != FO_OK ||
      (rc = fo__grow(&c->noff, &c->cap_noff, n + 1, sizeof *c->noff, "label lookup")) != FO_OK)
    return rc;
  memset(c->cnt, 0, (size_t)P * sizeof *c->cnt);
  for (int64_t i = 0; i < n; i++) {
    int k;
    if (anchor[i] < 0 || anchor[i] >= fo_dataset_num_nodes(book))
      return FO_FAIL(FO_ERANGE, "label lookup: anchor %lld is not a node of type '%s'",
                     (long long)anchor[i], fo_dataset_node_type_name(d, ty.src_type));
    k = fo__owner(book, anchor[i]);
    if (FO_UNLIKELY(k < 0 || k >= P))
      return FO_FAIL(FO_EFORMAT, "partition book: anchor %lld is in part %d of %d",
                     (long long)anchor[i], k, P);
    c->owner[i] = k;
    c->cnt[k]++;
  }
  for (int k = 0, at = 0; k < P; k++) {
    c->start[k] = at;
    c->at[k] = at;
    at += (int)c->cnt[k];
  }
  for (int64_t i = 0; i < n; i++) c->packed[c->at[c->owner[i]]++] = anchor[i];
  /* every other machine with anchors: one request */
  for (int k = 0; k < P; k++) {
    fo__label_req q;
    if (k == me || !c->cnt[k]) continue;
    q.part = k;
    q.P = Pt;
    q.N = Nt;
    q.n = c->cnt[k];
    q.anchors = c->packed + c->start[k];
    c->calls[n_calls].machine = k;
    if ((rc = fo__enc_label_req(&c->calls[n_calls].req, &q)) != FO_OK) return rc;
    n_calls++;
  }
  if (n_calls) {
    if (fo_dist_failed(c->dd, &msg)) return fo_set_error(c->dd->fail_rc ? c->dd->fail_rc : FO_EMPI, msg);
    rc = c->dd->ops->exchange(c->dd, c->calls, n_calls);
    for (int i = 0; i < n_calls; i++) bytes += c->calls[i].req.n * 8 + (int64_t)c->calls[i].resp_len;
    if (fo__cur_batch_stats) {
      fo__cur_batch_stats->label_requests += n_calls;
      fo__cur_batch_stats->label_bytes += bytes;
    }
    if (rc != FO_OK) return fo__dist_fail(c->dd, rc);
  }
  /* this machine's anchors (the exchange has returned) */
  memset(c->lcnt, 0, (size_t)(2 * n + 2) * sizeof *c->lcnt);
  if (c->cnt[me] &&
      (rc = scan_rows(d, me, Pt, c->packed + c->start[me], c->cnt[me], c->lcnt, &c->lid, &c->cap_lid,
                      &nl)) != FO_OK)
    return rc;
  nlp = nl;
  if (c->cnt[me] && Nt >= 0 &&
      (rc = scan_rows(d, me, Nt, c->packed + c->start[me], c->cnt[me], c->lcnt + c->cnt[me], &c->lid,
                      &c->cap_lid, &nl)) != FO_OK)
    return rc;
  memset(c->res, 0, (size_t)P * sizeof *c->res);
  c->res[me].n = c->cnt[me];
  c->res[me].n_p = nlp;
  c->res[me].n_n = nl - nlp;
  c->res[me].pcount = c->lcnt;
  c->res[me].ncount = c->lcnt + c->cnt[me];
  c->res[me].pid = c->lid;
  c->res[me].nid = c->lid + nlp;
  for (int j = 0; j < n_calls; j++) {
    const int k = c->calls[j].machine;
    if ((rc = fo__dec_label_res(c->calls[j].resp, c->calls[j].resp_len, c->cnt[k], Nt >= 0, n_dst,
                                &c->res[k])) != FO_OK)
      return fo__dist_fail(c->dd, fo__context(rc, "label lookup answer of machine %d", k));
  }
  for (int k = 0; k < P; k++) {
    c->at[k] = 0;  /* next anchor of k's answer */
    c->pat[k] = 0; /* next positive id of k's answer */
    c->nat[k] = 0; /* next negative id */
    tp += c->res[k].n_p;
    tn += c->res[k].n_n;
  }
  if ((rc = fo__grow(&c->pid, &c->cap_pid, tp + 1, sizeof *c->pid, "label lookup")) != FO_OK ||
      (rc = fo__grow(&c->nid, &c->cap_nid, tn + 1, sizeof *c->nid, "label lookup")) != FO_OK)
    return rc;
  c->poff[0] = c->noff[0] = 0;
  for (int64_t i = 0; i < n; i++) {
    const int k = c->owner[i];
    const fo__label_res *r = &c->res[k];
    const int64_t a = r->pcount[c->at[k]], b = r->ncount[c->at[k]];
    c->at[k]++;
    memcpy(c->pid + c->poff[i], r->pid + c->pat[k], (size_t)a * sizeof *c->pid);
    memcpy(c->nid + c->noff[i], r->nid + c->nat[k], (size_t)b * sizeof *c->nid);
    c->pat[k] += a;
    c->nat[k] += b;
    c->poff[i + 1] = c->poff[i] + a;
    c->noff[i + 1] = c->noff[i] + b;
  }
  *poff = c->poff;
  *noff = c->noff;
  *pid = c->pid;
  *nid = c->nid;
  return FO_OK;
}

static int label_make_sampler(void *ctx, const fo_dataset_t *d, const fo_sampler_opts *o,
                              fo_sampler_t **out) {
  return fo_dist_sampler_create(((label_ctx *)ctx)->dd, d, o, out);
}

static int label_ctx_new(fo_dist_t *dd, const fo_dataset_t *d, label_ctx **out) {
  label_ctx *c = calloc(1, sizeof *c);
  const int P = fo_dataset_num_parts(d);
  *out = NULL;
  if (!c) return FO_FAIL(FO_ENOMEM, "distributed ABLP loader");
  c->dd = dd;
  c->d = d;
  c->P = P;
  if (!(c->calls = calloc((size_t)P, sizeof *c->calls)) || !(c->cnt = calloc((size_t)P, sizeof *c->cnt)) ||
      !(c->start = calloc((size_t)P, sizeof *c->start)) || !(c->at = calloc((size_t)P, sizeof *c->at)) ||
      !(c->pat = calloc((size_t)P, sizeof *c->pat)) || !(c->nat = calloc((size_t)P, sizeof *c->nat)) ||
      !(c->res = calloc((size_t)P, sizeof *c->res))) {
    label_ctx_free(c);
    return FO_FAIL(FO_ENOMEM, "distributed ABLP loader");
  }
  *out = c;
  return FO_OK;
}

/* ---- the distributed ABLP loader ------------------------------------------------------------ */

typedef struct aload_ctx {
  fo_dist_t *dd;
  const fo_dataset_t *d;
  fo__dist_batch_gather *g; /* the feature gather (through the cache when cache_bytes > 0) */
} aload_ctx;

static void aload_free(void *ctx) {
  aload_ctx *c = ctx;
  if (!c) return;
  fo__dist_batch_gather_free(c->g);
  free(c);
}

/* Local placement: an anchor belongs to the machine owning it (its supervision rows are then
 * read at home). */
static int32_t aload_owner(void *ctx, int32_t anchor_type, int64_t a) {
  aload_ctx *c = ctx;
  const fo_dataset_t *v = fo_dataset_node_data(c->d, anchor_type);
  return v && a >= 0 && a < fo_dataset_num_nodes(v) ? (int32_t)fo__owner(v, a) : -1;
}

/* A pipelining thread's lookup (fo__ablp_loader_dist.make_remote): a context of its own. */
static int aload_make_remote(void *ctx, fo__ablp_remote *r) {
  const aload_ctx *c = ctx;
  label_ctx *lc;
  int rc;
  memset(r, 0, sizeof *r);
  if ((rc = label_ctx_new(c->dd, c->d, &lc)) != FO_OK) return rc;
  r->ctx = lc;
  r->make_sampler = label_make_sampler;
  r->rows = label_rows;
  r->free_ctx = label_ctx_free;
  return FO_OK;
}

static int aload_gather(void *ctx, const fo_batch_t *b, unsigned char *const *x, const int64_t *row_bytes) {
  aload_ctx *c = ctx;
  return fo__dist_batch_gather_run(c->g, b, x, row_bytes);
}

/* The feature cache's view of ABLP loaders (its pass and look-ahead, fo__seq_ops). */
static int aseq_next(void *L, const fo_batch_t **b) {
  fo_ablp_loader_batch_t *ab;
  const int rc = fo_ablp_loader_next(L, &ab);
  *b = rc == FO_OK && ab ? ab->ablp->sample : NULL;
  return rc;
}
static int aseq_start(void *L, uint64_t epoch) { return fo_ablp_loader_start_epoch(L, epoch); }
static int64_t aseq_num(const void *L) { return fo_ablp_loader_num_batches(L); }
static void aseq_traffic(const void *L, fo_dist_batch_stats *out) { fo__ablp_loader_traffic(L, out); }
static void aseq_destroy(void *L) { fo_ablp_loader_destroy(L); }
static const fo__seq_ops aseq_ops = {aseq_next, aseq_start, aseq_num, aseq_traffic, aseq_destroy};

/* What the cache's loaders are made of: the loader's options and placement. */
typedef struct aseq_arg {
  fo_dist_t *dd;
  const fo_dataset_t *d;
  const fo_ablp_loader_opts *o;
  const fo__ablp_loader_dist *ld;
} aseq_arg;

static int aseq_make(void *arg, uint64_t epoch, void **out) {
  const aseq_arg *a = arg;
  fo_ablp_loader_opts o = *a->o;
  fo__ablp_loader_dist ld = *a->ld;
  fo__ablp_remote r;
  label_ctx *lc;
  aload_ctx *ac;
  int rc;
  *out = NULL;
  o.features = false;
  o.epoch = epoch;
  if ((rc = label_ctx_new(a->dd, a->d, &lc)) != FO_OK) return rc;
  if (!(ac = calloc(1, sizeof *ac))) {
    label_ctx_free(lc);
    return FO_FAIL(FO_ENOMEM, "distributed ABLP loader");
  }
  ac->dd = a->dd;
  ac->d = a->d;
  memset(&r, 0, sizeof r);
  r.ctx = lc;
  r.make_sampler = label_make_sampler;
  r.rows = label_rows;
  r.free_ctx = label_ctx_free;
  ld.ctx = ac;
  ld.gather = fo__dist_no_gather;
  return fo__ablp_loader_create_remote(a->d, &o, &r, &ld, (fo_ablp_loader_t **)out);
}

/* FNV-1a 64 of n bytes. */
static uint64_t bytes_digest(const void *p, int64_t n) {
  uint64_t h = UINT64_C(1469598103934665603);
  for (int64_t i = 0; i < n; i++) h = (h ^ ((const unsigned char *)p)[i]) * UINT64_C(1099511628211);
  return h;
}

enum { K_FANOUTS, K_ET_FANOUTS, K_REPLACE, K_EDGE_DIR, K_DISJOINT, K_SEED, K_WEIGHTED, K_TEMPORAL,
       K_SUP, K_NEGT, K_NO_HARD, K_RANDOM, K_STRICT, K_BATCH, K_INPUT, K_SHUFFLE, K_DROP_LAST,
       K_EPOCH, K_FEATURES, K_TAIL, K_PLACEMENT, K_CACHE, K_POLICY, K_LOOKAHEAD, K_N };

/* The ABLP loader's options that decide which batches a process makes, compared between the
 * processes (fo_dist_check_same); the anchors by count and digest. */
static int check_ablp_opts(fo_dist_t *dd, const fo_dataset_t *d, const fo_ablp_loader_opts *o,
                           const fo_dist_loader_opts *dlo) {
  static const char *const names[K_N] = {"fanouts", "edge_type_fanouts", "replace", "edge_dir",
    "disjoint", "seed", "weighted", "temporal", "supervision_edge_type", "negative_edge_type",
    "no_hard_negatives", "num_random_negatives", "strict", "batch_size", "input_nodes", "shuffle",
    "drop_last", "epoch", "features", "tail", "seed_placement", "cache_bytes", "cache_policy",
    "lookahead"};
  char text[K_N][FO__SAME_TEXT + 16];
  fo_dist_option opts[K_N];
  const fo_sampler_opts *so = &o->ablp.sampler;
  const int32_t hops = so->n_hops < 0 ? 0 : so->n_hops > 64 ? 64 : so->n_hops;
  const int64_t na = o->n_input_nodes > 0 && o->input_nodes ? o->n_input_nodes : 0;
  size_t at = 0;
  text[K_FANOUTS][0] = '\0';
  if (!so->fanouts) snprintf(text[K_FANOUTS], sizeof text[0], "(none)");
  for (int32_t h = 0; so->fanouts && h < hops && at < sizeof text[0] - 12; h++)
    at += (size_t)snprintf(text[K_FANOUTS] + at, sizeof text[0] - at, "%s%d", h ? "," : "",
                           (int)so->fanouts[h]);
  if (so->fanouts && !hops) snprintf(text[K_FANOUTS], sizeof text[0], "(%d hops)", (int)so->n_hops);
  if (!so->edge_type_fanouts) {
    snprintf(text[K_ET_FANOUTS], sizeof text[0], "(none)");
  } else {
    const int64_t n = (int64_t)(fo_dataset_num_edge_types(d) > 0 ? fo_dataset_num_edge_types(d) : 1) * hops;
    snprintf(text[K_ET_FANOUTS], sizeof text[0], "%lld values (digest %016llx)", (long long)n,
             (unsigned long long)bytes_digest(so->edge_type_fanouts, n * 4));
  }
  snprintf(text[K_REPLACE], sizeof text[0], "%s", so->replace ? "true" : "false");
  snprintf(text[K_EDGE_DIR], sizeof text[0], "%s", so->edge_dir == FO_EDGE_DIR_IN ? "in" : "out");
  snprintf(text[K_DISJOINT], sizeof text[0], "%s", so->disjoint ? "true" : "false");
  snprintf(text[K_SEED], sizeof text[0], "%llu", (unsigned long long)so->seed);
  snprintf(text[K_WEIGHTED], sizeof text[0], "%s", so->weighted ? "true" : "false");
  snprintf(text[K_TEMPORAL], sizeof text[0], "%d, %s time%s, window %lld", (int)so->temporal,
           so->time_attr == FO_TIME_ATTR_NODE ? "node" : "edge", so->time_strict ? ", strict" : "",
           (long long)so->time_window);
  snprintf(text[K_SUP], sizeof text[0], "%.*s", FO__SAME_TEXT,
           o->ablp.supervision_edge_type ? o->ablp.supervision_edge_type : "(only)");
  snprintf(text[K_NEGT], sizeof text[0], "%.*s", FO__SAME_TEXT,
           o->ablp.negative_edge_type ? o->ablp.negative_edge_type : "(only)");
  snprintf(text[K_NO_HARD], sizeof text[0], "%s", o->ablp.no_hard_negatives ? "true" : "false");
  snprintf(text[K_RANDOM], sizeof text[0], "%lld", (long long)o->ablp.num_random_negatives);
  snprintf(text[K_STRICT], sizeof text[0], "%s", o->ablp.strict ? "true" : "false");
  snprintf(text[K_BATCH], sizeof text[0], "%lld", (long long)o->batch_size);
  snprintf(text[K_INPUT], sizeof text[0], "%lld anchors (digest %016llx)", (long long)na,
           (unsigned long long)bytes_digest(o->input_nodes, na * 8));
  snprintf(text[K_SHUFFLE], sizeof text[0], "%s", o->shuffle ? "true" : "false");
  snprintf(text[K_DROP_LAST], sizeof text[0], "%s", o->drop_last ? "true" : "false");
  snprintf(text[K_EPOCH], sizeof text[0], "%llu", (unsigned long long)o->epoch);
  snprintf(text[K_FEATURES], sizeof text[0], "%s", o->features ? "true" : "false");
  snprintf(text[K_TAIL], sizeof text[0], "%d", (int)dlo->tail);
  snprintf(text[K_PLACEMENT], sizeof text[0], "%s", dlo->seed_placement == FO_DIST_SEEDS_LOCAL ? "local" : "global");
  snprintf(text[K_CACHE], sizeof text[0], "%lld", (long long)dlo->cache_bytes);
  snprintf(text[K_POLICY], sizeof text[0], "%d", (int)dlo->cache_policy);
  snprintf(text[K_LOOKAHEAD], sizeof text[0], "%d", (int)dlo->lookahead);
  for (int i = 0; i < K_N; i++) {
    opts[i].name = names[i];
    opts[i].value = text[i];
  }
  return fo_dist_check_same(dd, "create distributed ABLP loader", opts, K_N);
}

int fo_dist_ablp_loader_create(fo_dist_t *dd, const fo_dataset_t *d, const fo_ablp_loader_opts *o,
                               const fo_dist_loader_opts *dlo, fo_ablp_loader_t **out) {
  fo_dist_loader_opts def;
  fo__ablp_remote r;
  fo__ablp_loader_dist ld;
  aseq_arg asa;
  label_ctx *lc;
  aload_ctx *ac;
  int rc;
  if (out) *out = NULL;
  if (!dd || !d || !o || !out)
    return FO_FAIL(FO_EINVAL, "create distributed ABLP loader: context, dataset, options or out is NULL");
  if (!dlo) {
    fo_dist_loader_opts_init(&def);
    dlo = &def;
  }
  if ((unsigned)dlo->tail > FO_DIST_TAIL_PAD ||
      (dlo->seed_placement != FO_DIST_SEEDS_GLOBAL && dlo->seed_placement != FO_DIST_SEEDS_LOCAL))
    return FO_FAIL(FO_EINVAL, "create distributed ABLP loader: tail %d or seed placement %d is not "
                   "one of fo_dist_tail / fo_dist_seed_placement", (int)dlo->tail,
                   (int)dlo->seed_placement);
  /* the same options everywhere first, so that processes fail together */
  if ((rc = check_ablp_opts(dd, d, o, dlo)) != FO_OK) return rc;
  /* pipeline is not compared (batches are the same with any): checked here, as the node
   * loader checks it */
  if (dlo->pipeline < 0 || dlo->pipeline > 64)
    return FO_FAIL(FO_EINVAL, "create distributed ABLP loader: pipeline %d is not in 0..64",
                   (int)dlo->pipeline);
  if (dlo->pipeline > 0 && (dlo->cache_policy != FO_DIST_CACHE_LOOKAHEAD || dlo->cache_bytes <= 0))
    return FO_FAIL(FO_EINVAL, "create distributed ABLP loader: pipeline %d needs cache_policy "
                   "lookahead with cache_bytes > 0", (int)dlo->pipeline);
  if (fo_dataset_num_parts(d) != dd->n_machines || !fo_dataset_part(d, dd->machine))
    return FO_FAIL(FO_EINVAL, "create distributed ABLP loader: '%s' is not a dataset of %d parts "
                   "with part %d open (fo_dist_open_dataset)", fo_dataset_path(d),
                   (int)dd->n_machines, (int)dd->machine);
  if ((rc = label_ctx_new(dd, d, &lc)) != FO_OK) return fo__context(rc, "create distributed ABLP loader");
  if (!(ac = calloc(1, sizeof *ac))) {
    label_ctx_free(lc);
    return FO_FAIL(FO_ENOMEM, "distributed ABLP loader");
  }
  ac->dd = dd;
  ac->d = d;
  memset(&r, 0, sizeof r);
  r.ctx = lc;
  r.make_sampler = label_make_sampler;
  r.rows = label_rows;
  r.free_ctx = label_ctx_free;
  memset(&ld, 0, sizeof ld);
  ld.ctx = ac;
  ld.gather = aload_gather;
  ld.shard = dd->rank;
  ld.n_shards = dd->size;
  ld.tail = (int)dlo->tail;
  ld.local_seeds = dlo->seed_placement == FO_DIST_SEEDS_LOCAL;
  ld.machine = dd->machine;
  ld.n_machines = dd->n_machines;
  ld.local_rank = dd->local_rank;
  ld.local_size = dd->local_size;
  ld.owner = aload_owner;
  ld.free_ctx = aload_free;
  ld.pipeline = dlo->pipeline;
  ld.make_remote = aload_make_remote;
  if ((rc = fo__ablp_loader_create_remote(d, o, &r, &ld, out)) != FO_OK) return rc;
  /* the feature gather (its cache's pass and look-ahead loaders are this loader's copies) */
  asa.dd = dd;
  asa.d = d;
  asa.o = o;
  asa.ld = &ld;
  if ((rc = fo__dist_batch_gather_new(dd, d, dlo,
                                      o->ablp.sampler.edge_dir, o->features, o->epoch, &aseq_ops,
                                      aseq_make, &asa, "create distributed ABLP loader",
                                      &ac->g)) != FO_OK) {
    fo_ablp_loader_destroy(*out);
    *out = NULL;
  }
  return rc;
}

void fo_dist_ablp_loader_stats(const fo_ablp_loader_t *L, fo_dist_batch_stats *out) {
  if (!out) return;
  fo__ablp_loader_traffic(L, out);
}
