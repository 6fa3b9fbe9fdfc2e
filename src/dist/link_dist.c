/*
 * dist/link_dist.c: link sampling over a distributed dataset (fo_dist_link_sampler_create,
 * fo_dist_link_loader_create in include/fanout/dist.h): the LINK lookup (strict-negative
 * membership and seed-edge exclusion positions of rows other machines own, one request per
 * remote machine per round), its server side, and the options every process must share.
 */
#include "dist/dist_internal.h"
#include "sample/link_internal.h"

#include <math.h>

/* ---- the rows' answers, in the part that owns them ------------------------------------------ */

int fo__link_scan(const fo_dataset_t *d, int32_t part, const int64_t *pairs, int64_t n,
                  int64_t *count, int64_t **pos, int64_t *cap_pos, int64_t *n_pos) {
  const fo_dataset_t *pd = fo_dataset_part(d, part);
  int64_t last_key = -1;
  fo_topology t;
  fo_edge_type ty;
  int rc;
  *n_pos = 0;
  memset(&t, 0, sizeof t);
  if (!pd) return FO_FAIL(FO_EINVAL, "link lookup: part %d of '%s' is not open here", (int)part, d->path);
  for (int64_t i = 0; i < n; i++) {
    const int32_t et = (int32_t)(pairs[3 * i] & 0xffffffff);
    const bool want = pairs[3 * i] & FO__LINK_WANT_POS, out = pairs[3 * i] & FO__LINK_OUT;
    const int64_t row = pairs[3 * i + 1], nbr = pairs[3 * i + 2], key = 2 * (int64_t)et + out;
    int64_t r, a, b, c = 0;
    int32_t rt;
    int k;
    if (key != last_key) {
      if ((rc = fo_dataset_edge_type(d, et, &ty)) != FO_OK) return rc;
      if ((rc = fo_dataset_edge_topology(pd, et, out ? FO_EDGE_DIR_OUT : FO_EDGE_DIR_IN, &t)) != FO_OK)
        return FO_FAIL(FO_EINVAL, "link lookup: part %d of '%s' stores no %s of edge type '%s' "
                       "(strict negatives read the parts' CSC rows, exclusion those of the "
                       "sampler's edge_dir)", (int)part, d->path, out ? "CSR" : "CSC", ty.name);
      last_key = key;
    }
    rt = out ? ty.src_type : ty.dst_type; /* the row's node type */
    if ((rc = fo_dataset_node_part(fo_dataset_node_data(d, rt), row, &k, &r)) != FO_OK) return rc;
    if (k != part)
      return FO_FAIL(FO_EINVAL, "link lookup for part %d: node %lld of node type '%s' is owned by "
                     "part %d", (int)part, (long long)row, fo_dataset_node_type_name(d, rt), k);
    if (r < 0 || r >= t.n_rows)
      return FO_FAIL(FO_EFORMAT, "link lookup: part %d: node %lld maps to row %lld of %lld", (int)part,
                     (long long)row, (long long)r, (long long)t.n_rows);
    a = t.indptr[r];
    b = t.indptr[r + 1];
    if (FO_UNLIKELY(a < 0 || b < a || b > t.n_edges))
      return FO_FAIL(FO_EFORMAT, "%s[%lld..%lld] = %lld, %lld is not a valid row in [0, %lld]",
                     t.indptr_name, (long long)r, (long long)(r + 1), (long long)a, (long long)b,
                     (long long)t.n_edges);
    if (want && (rc = fo__grow(pos, cap_pos, *n_pos + (b - a) + 1, sizeof **pos, "link lookup")) != FO_OK)
      return rc;
    for (int64_t p = a; p < b; p++) {
      const int64_t v = t.indices_bytes == 4 ? (int64_t)((const int32_t *)t.indices)[p]
                                             : ((const int64_t *)t.indices)[p];
      if (v != nbr) continue;
      if (!want) {
        c = 1;
        break;
      }
      (*pos)[(*n_pos)++] = p;
      c++;
    }
    count[i] = c;
  }
  return FO_OK;
}

int fo__server_link(fo__server *sv, const void *msg, size_t len) {
  fo__link_req r;
  fo__link_res res;
  int64_t n_pos = 0;
  int rc;
  if ((rc = fo__dec_link_req(msg, len, sv->d, &r)) != FO_OK) return rc;
  if (r.part != sv->part)
    return FO_FAIL(FO_EINVAL, "link request for part %d reached the server of part %d", (int)r.part,
                   (int)sv->part);
  if ((rc = fo__grow(&sv->lcount, &sv->cap_lcount, r.n + 1, sizeof *sv->lcount, "link request")) != FO_OK ||
      (rc = fo__link_scan(sv->d, sv->part, r.pairs, r.n, sv->lcount, &sv->lpos, &sv->cap_lpos,
                          &n_pos)) != FO_OK)
    return rc;
  if (sv->max_answer_words && 4 + r.n + n_pos > sv->max_answer_words)
    return FO_FAIL(FO_ERANGE, "link answer of %lld bytes exceeds max_message_bytes %lld",
                   (long long)(8 * (4 + r.n + n_pos)), (long long)(8 * sv->max_answer_words));
  res.n = r.n;
  res.n_pos = n_pos;
  res.counts = sv->lcount;
  res.pos = sv->lpos;
  return fo__enc_link_res(&sv->out, &res);
}

/* ---- the asking side ------------------------------------------------------------------------ */

typedef struct link_ctx {
  fo_dist_t *dd;
  const fo_dataset_t *d;
  int P;
  fo__call *calls;            /* [P] */
  int32_t *owner;             /* [n] each pair's machine */
  int64_t *packed, *cnt, *start, *at, *pat;
  int64_t cap_owner, cap_packed;
  int64_t *lcount, *lpos;     /* this machine's pairs' answers */
  int64_t cap_lcount, cap_lpos;
  fo__link_res *res;          /* [P] */
} link_ctx;

static void link_ctx_free(void *p) {
  link_ctx *c = p;
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
  free(c->lcount);
  free(c->lpos);
  free(c->res);
  free(c);
}

static int link_ctx_new(fo_dist_t *dd, const fo_dataset_t *d, link_ctx **out) {
  link_ctx *c = calloc(1, sizeof *c);
  const int P = fo_dataset_num_parts(d);
  *out = NULL;
  if (!c) return FO_FAIL(FO_ENOMEM, "distributed link sampler");
  c->dd = dd;
  c->d = d;
  c->P = P;
  if (!(c->calls = calloc((size_t)P, sizeof *c->calls)) || !(c->cnt = calloc((size_t)P, sizeof *c->cnt)) ||
      !(c->start = calloc((size_t)P, sizeof *c->start)) || !(c->at = calloc((size_t)P, sizeof *c->at)) ||
      !(c->pat = calloc((size_t)P, sizeof *c->pat)) || !(c->res = calloc((size_t)P, sizeof *c->res))) {
    link_ctx_free(c);
    return FO_FAIL(FO_ENOMEM, "distributed link sampler");
  }
  *out = c;
  return FO_OK;
}

/* Exchange the LINK calls[0..n) with the deadline, counted in the batch's traffic. */
static int link_exchange(fo_dist_t *dd, fo__call *calls, int n) {
  const char *msg;
  int64_t bytes = 0;
  int rc;
  if (fo_dist_failed(dd, &msg)) return fo_set_error(dd->fail_rc ? dd->fail_rc : FO_EMPI, msg);
  rc = dd->ops->exchange(dd, calls, n);
  for (int i = 0; i < n; i++) bytes += calls[i].req.n * 8 + (int64_t)calls[i].resp_len;
  if (fo__cur_batch_stats) {
    fo__cur_batch_stats->link_requests += n;
    fo__cur_batch_stats->link_bytes += bytes;
    fo__cur_batch_stats->link_rounds++;
  }
  if (rc != FO_OK) return fo__dist_fail(dd, rc);
  return FO_OK;
}

/* fo__link_remote.check: this machine's rows read here, every other machine's pairs in one
 * LINK request, the answers put back in pair order. */
static int link_check(void *ctx, const int64_t *pairs, int64_t n, int64_t *count, int64_t **pos,
                      int64_t *cap_pos, int64_t *n_pos) {
  link_ctx *c = ctx;
  const fo_dataset_t *d = c->d;
  const int P = c->P, me = c->dd->machine;
  int32_t last_et = -1;
  fo_edge_type ty;
  int64_t nl = 0, total_pos = 0;
  int n_calls = 0, rc;
  *n_pos = 0;
  if ((rc = fo__grow(&c->owner, &c->cap_owner, n + 1, sizeof *c->owner, "link lookup")) != FO_OK ||
      (rc = fo__grow(&c->packed, &c->cap_packed, 3 * n + 1, sizeof *c->packed, "link lookup")) != FO_OK ||
      (rc = fo__grow(&c->lcount, &c->cap_lcount, n + 1, sizeof *c->lcount, "link lookup")) != FO_OK)
    return rc;
  memset(c->cnt, 0, (size_t)P * sizeof *c->cnt);
  for (int64_t i = 0; i < n; i++) {
    const int32_t et = (int32_t)(pairs[3 * i] & 0xffffffff);
    const fo_dataset_t *v;
    int32_t rt;
    int k;
    if (et != last_et) {
      if ((rc = fo_dataset_edge_type(d, et, &ty)) != FO_OK) return rc;
      last_et = et;
    }
    /* the book only (the row's part need not be open here); a CSR row is a source's */
    rt = pairs[3 * i] & FO__LINK_OUT ? ty.src_type : ty.dst_type;
    v = fo_dataset_node_data(d, rt);
    if (!v || pairs[3 * i + 1] < 0 || pairs[3 * i + 1] >= fo_dataset_num_nodes(v))
      return FO_FAIL(FO_ERANGE, "link lookup: node %lld is not a node of type '%s'",
                     (long long)pairs[3 * i + 1], fo_dataset_node_type_name(d, rt));
    k = fo__owner(v, pairs[3 * i + 1]);
    if (FO_UNLIKELY(k < 0 || k >= P))
      return FO_FAIL(FO_EFORMAT, "partition book: node %lld is in part %d of %d",
                     (long long)pairs[3 * i + 1], k, P);
    c->owner[i] = k;
    c->cnt[k]++;
  }
  for (int k = 0, at = 0; k < P; k++) {
    c->start[k] = at;
    c->at[k] = at;
    at += (int)c->cnt[k];
  }
  for (int64_t i = 0; i < n; i++) {
    int64_t *w = c->packed + 3 * c->at[c->owner[i]]++;
    w[0] = pairs[3 * i];
    w[1] = pairs[3 * i + 1];
    w[2] = pairs[3 * i + 2];
  }
  /* every other machine with pairs: one request */
  for (int k = 0; k < P; k++) {
    fo__link_req q;
    if (k == me || !c->cnt[k]) continue;
    q.part = k;
    q.n = c->cnt[k];
    q.pairs = c->packed + 3 * c->start[k];
    c->calls[n_calls].machine = k;
    if ((rc = fo__enc_link_req(&c->calls[n_calls].req, &q)) != FO_OK) return rc;
    n_calls++;
  }
  if (n_calls && (rc = link_exchange(c->dd, c->calls, n_calls)) != FO_OK) return rc;
  /* this machine's rows (while the others answered: the exchange has returned) */
  if (c->cnt[me] &&
      (rc = fo__link_scan(d, me, c->packed + 3 * c->start[me], c->cnt[me], c->lcount, &c->lpos,
                          &c->cap_lpos, &nl)) != FO_OK)
    return rc;
  memset(c->res, 0, (size_t)P * sizeof *c->res);
  c->res[me].n = c->cnt[me];
  c->res[me].n_pos = nl;
  c->res[me].counts = c->lcount;
  c->res[me].pos = c->lpos;
  for (int j = 0; j < n_calls; j++) {
    const int k = c->calls[j].machine;
    if ((rc = fo__dec_link_res(c->calls[j].resp, c->calls[j].resp_len, c->packed + 3 * c->start[k],
                               c->cnt[k], &c->res[k])) != FO_OK)
      return fo__dist_fail(c->dd, fo__context(rc, "link lookup answer of machine %d", k));
  }
  for (int k = 0; k < P; k++) {
    c->at[k] = 0;  /* next pair of k's answer */
    c->pat[k] = 0; /* next position of k's answer */
    total_pos += c->res[k].n_pos;
  }
  if ((rc = fo__grow(pos, cap_pos, total_pos + 1, sizeof **pos, "link lookup")) != FO_OK) return rc;
  for (int64_t i = 0; i < n; i++) {
    const int k = c->owner[i];
    const fo__link_res *r = &c->res[k];
    const int64_t cn = r->counts[c->at[k]++];
    count[i] = cn;
    if (pairs[3 * i] & FO__LINK_WANT_POS) {
      memcpy(*pos + *n_pos, r->pos + c->pat[k], (size_t)cn * sizeof **pos);
      *n_pos += cn;
      c->pat[k] += cn;
    }
  }
  return FO_OK;
}

static int link_make_sampler(void *ctx, const fo_dataset_t *d, const fo_sampler_opts *o,
                             fo_sampler_t **out) {
  return fo_dist_sampler_create(((link_ctx *)ctx)->dd, d, o, out);
}

static int remote_of(fo_dist_t *dd, const fo_dataset_t *d, fo__link_remote *r) {
  link_ctx *c;
  int rc;
  if (!dd || !d) return FO_FAIL(FO_EINVAL, "distributed link sampler: context or dataset is NULL");
  if (fo_dataset_num_parts(d) != dd->n_machines || !fo_dataset_part(d, dd->machine))
    return FO_FAIL(FO_EINVAL, "distributed link sampler: '%s' is not a dataset of %d parts with "
                   "part %d open (fo_dist_open_dataset)", fo_dataset_path(d), (int)dd->n_machines,
                   (int)dd->machine);
  if ((rc = link_ctx_new(dd, d, &c)) != FO_OK) return rc;
  r->ctx = c;
  r->make_sampler = link_make_sampler;
  r->check = link_check;
  r->free_ctx = link_ctx_free;
  return FO_OK;
}

int fo_dist_link_sampler_create(fo_dist_t *dd, const fo_dataset_t *d, const fo_link_opts *o,
                                fo_link_sampler_t **out) {
  fo__link_remote r;
  int rc;
  if (out) *out = NULL;
  if (!o || !out) return FO_FAIL(FO_EINVAL, "create distributed link sampler: options or out is NULL");
  if ((rc = remote_of(dd, d, &r)) != FO_OK) return fo__context(rc, "create distributed link sampler");
  return fo__link_sampler_create_remote(d, o, &r, out);
}

/* ---- the distributed link loader ------------------------------------------------------------ */

typedef struct lload_ctx {
  fo_dist_t *dd;
  const fo_dataset_t *d;
  int32_t dst_type;
  fo__dist_batch_gather *g; /* the feature gather (through the cache when cache_bytes > 0) */
} lload_ctx;

static int lload_gather(void *ctx, const fo_batch_t *b, unsigned char *const *x, const int64_t *row_bytes) {
  lload_ctx *c = ctx;
  return fo__dist_batch_gather_run(c->g, b, x, row_bytes);
}

/* The feature cache's view of link loaders (its pass and look-ahead, fo__seq_ops). */
static int lseq_next(void *L, const fo_batch_t **b) {
  fo_link_loader_batch_t *lb;
  const int rc = fo_link_loader_next(L, &lb);
  *b = rc == FO_OK && lb ? lb->link->sample : NULL;
  return rc;
}
static int lseq_start(void *L, uint64_t epoch) { return fo_link_loader_start_epoch(L, epoch); }
static int64_t lseq_num(const void *L) { return fo_link_loader_num_batches(L); }
static void lseq_traffic(const void *L, fo_dist_batch_stats *out) { fo__link_loader_traffic(L, out); }
static void lseq_destroy(void *L) { fo_link_loader_destroy(L); }
static const fo__seq_ops lseq_ops = {lseq_next, lseq_start, lseq_num, lseq_traffic, lseq_destroy};

/* What the cache's loaders are made of: the loader's options and placement. */
typedef struct lseq_arg {
  fo_dist_t *dd;
  const fo_dataset_t *d;
  const fo_link_loader_opts *o;
  const fo__link_loader_dist *ld;
  int32_t dst_type;
} lseq_arg;

static int lseq_make(void *arg, uint64_t epoch, void **out) {
  const lseq_arg *a = arg;
  fo_link_loader_opts o = *a->o;
  fo__link_loader_dist ld = *a->ld;
  fo__link_remote r;
  lload_ctx *lc;
  int rc;
  *out = NULL;
  o.features = false;
  o.epoch = epoch;
  if ((rc = remote_of(a->dd, a->d, &r)) != FO_OK) return rc;
  if (!(lc = calloc(1, sizeof *lc))) {
    link_ctx_free(r.ctx);
    return FO_FAIL(FO_ENOMEM, "distributed link loader");
  }
  lc->dd = a->dd;
  lc->d = a->d;
  lc->dst_type = a->dst_type;
  ld.ctx = lc;
  ld.gather = fo__dist_no_gather;
  return fo__link_loader_create_remote(a->d, &o, &r, &ld, (fo_link_loader_t **)out);
}

static void lload_free(void *ctx) {
  lload_ctx *c = ctx;
  if (!c) return;
  fo__dist_batch_gather_free(c->g);
  free(c);
}

/* A pipelining thread's lookup (fo__link_loader_dist.make_remote): a context of its own. */
static int lload_make_remote(void *ctx, fo__link_remote *r) {
  const lload_ctx *c = ctx;
  return remote_of(c->dd, c->d, r);
}

/* Local placement: a seed edge belongs to the machine owning its destination, whose CSC row
 * holds the edge (its exclusion positions are then read at home). */
static int32_t lload_owner(void *ctx, int64_t src, int64_t dst) {
  lload_ctx *c = ctx;
  const fo_dataset_t *v = fo_dataset_node_data(c->d, c->dst_type);
  (void)src;
  return v && dst >= 0 && dst < fo_dataset_num_nodes(v) ? (int32_t)fo__owner(v, dst) : -1;
}

/* FNV-1a 64 of n bytes. */
static uint64_t bytes_digest(const void *p, int64_t n) {
  uint64_t h = UINT64_C(1469598103934665603);
  for (int64_t i = 0; i < n; i++) h = (h ^ ((const unsigned char *)p)[i]) * UINT64_C(1099511628211);
  return h;
}

enum { K_FANOUTS, K_ET_FANOUTS, K_REPLACE, K_EDGE_DIR, K_DISJOINT, K_SEED, K_WEIGHTED, K_TEMPORAL,
       K_EDGE_TYPE, K_NEG, K_STRICT, K_EXCLUDE, K_BATCH, K_EDGES, K_LABELS, K_TIMES, K_SPLIT,
       K_SHUFFLE, K_DROP_LAST, K_EPOCH, K_FEATURES, K_TAIL, K_PLACEMENT, K_CACHE, K_POLICY, K_LOOKAHEAD, K_N };

/* The link loader's options that decide which batches a process makes, compared between the
 * processes (fo_dist_check_same); seed edges, labels and times by count and digest. */
static int check_link_opts(fo_dist_t *dd, const fo_dataset_t *d, const fo_link_loader_opts *o,
                           const fo_dist_loader_opts *dlo) {
  static const char *const names[K_N] = {"fanouts", "edge_type_fanouts", "replace", "edge_dir",
    "disjoint", "seed", "weighted", "temporal", "edge_type", "neg_sampling", "strict",
    "exclude_seed_edges", "batch_size", "edge_label_index", "edge_label", "edge_label_time",
    "edge_split", "shuffle", "drop_last", "epoch", "features", "tail", "seed_placement",
    "cache_bytes", "cache_policy", "lookahead"};
  static const char *const negs[] = {"none", "binary", "triplet"};
  char text[K_N][FO__SAME_TEXT + 16];
  fo_dist_option opts[K_N];
  const fo_sampler_opts *so = &o->link.sampler;
  const int32_t hops = so->n_hops < 0 ? 0 : so->n_hops > 64 ? 64 : so->n_hops;
  const int64_t ne = o->n_edges > 0 && o->edge_label_index ? o->n_edges : 0;
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
  snprintf(text[K_EDGE_TYPE], sizeof text[0], "%.*s", FO__SAME_TEXT,
           o->link.edge_type ? o->link.edge_type : "(only)");
  if ((unsigned)o->link.neg <= FO_NEG_TRIPLET)
    snprintf(text[K_NEG], sizeof text[0], "%s %.17g", negs[o->link.neg],
             o->link.neg == FO_NEG_NONE ? 0.0 : o->link.neg_amount);
  else snprintf(text[K_NEG], sizeof text[0], "%d", (int)o->link.neg);
  snprintf(text[K_STRICT], sizeof text[0], "%s", o->link.strict ? "true" : "false");
  snprintf(text[K_EXCLUDE], sizeof text[0], "%s", o->link.exclude_seed_edges ? "true" : "false");
  snprintf(text[K_BATCH], sizeof text[0], "%lld", (long long)o->batch_size);
  snprintf(text[K_EDGES], sizeof text[0], "%lld edges (digest %016llx)", (long long)ne,
           (unsigned long long)bytes_digest(o->edge_label_index, 2 * ne * 8));
  if (o->edge_label)
    snprintf(text[K_LABELS], sizeof text[0], "digest %016llx",
             (unsigned long long)bytes_digest(o->edge_label, ne * 8));
  else snprintf(text[K_LABELS], sizeof text[0], "(none)");
  if (o->edge_label_time)
    snprintf(text[K_TIMES], sizeof text[0], "digest %016llx",
             (unsigned long long)bytes_digest(o->edge_label_time, ne * 8));
  else snprintf(text[K_TIMES], sizeof text[0], "(none)");
  snprintf(text[K_SPLIT], sizeof text[0], "%.*s", FO__SAME_TEXT, o->edge_split ? o->edge_split : "(none)");
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
  return fo_dist_check_same(dd, "create distributed link loader", opts, K_N);
}

int fo_dist_link_loader_create(fo_dist_t *dd, const fo_dataset_t *d, const fo_link_loader_opts *o,
                               const fo_dist_loader_opts *dlo, fo_link_loader_t **out) {
  fo_dist_loader_opts def;
  fo__link_remote r;
  fo__link_loader_dist ld;
  lseq_arg lsa;
  lload_ctx *lc;
  int32_t et;
  int rc;
  if (out) *out = NULL;
  if (!dd || !d || !o || !out)
    return FO_FAIL(FO_EINVAL, "create distributed link loader: context, dataset, options or out is NULL");
  if (!dlo) {
    fo_dist_loader_opts_init(&def);
    dlo = &def;
  }
  if ((unsigned)dlo->tail > FO_DIST_TAIL_PAD ||
      (dlo->seed_placement != FO_DIST_SEEDS_GLOBAL && dlo->seed_placement != FO_DIST_SEEDS_LOCAL))
    return FO_FAIL(FO_EINVAL, "create distributed link loader: tail %d or seed placement %d is not "
                   "one of fo_dist_tail / fo_dist_seed_placement", (int)dlo->tail,
                   (int)dlo->seed_placement);
  /* the same options everywhere first, so that processes fail together */
  if ((rc = check_link_opts(dd, d, o, dlo)) != FO_OK) return rc;
  /* pipeline is not compared (batches are the same with any): checked here, as the node
   * loader checks it */
  if (dlo->pipeline < 0 || dlo->pipeline > 64)
    return FO_FAIL(FO_EINVAL, "create distributed link loader: pipeline %d is not in 0..64",
                   (int)dlo->pipeline);
  if (dlo->pipeline > 0 && (dlo->cache_policy != FO_DIST_CACHE_LOOKAHEAD || dlo->cache_bytes <= 0))
    return FO_FAIL(FO_EINVAL, "create distributed link loader: pipeline %d needs cache_policy "
                   "lookahead with cache_bytes > 0", (int)dlo->pipeline);
  if (o->link.edge_type) {
    et = fo_dataset_edge_type_find(d, o->link.edge_type);
  } else {
    et = fo_dataset_num_edge_types(d) == 1 ? 0 : -1;
  }
  if ((rc = remote_of(dd, d, &r)) != FO_OK) return fo__context(rc, "create distributed link loader");
  if (!(lc = calloc(1, sizeof *lc))) {
    link_ctx_free(r.ctx);
    return FO_FAIL(FO_ENOMEM, "distributed link loader");
  }
  lc->dd = dd;
  lc->d = d;
  lc->dst_type = 0;
  if (et >= 0) {
    fo_edge_type ty;
    if (fo_dataset_edge_type(d, et, &ty) == FO_OK) lc->dst_type = ty.dst_type;
  }
  memset(&ld, 0, sizeof ld);
  ld.ctx = lc;
  ld.gather = lload_gather;
  ld.shard = dd->rank;
  ld.n_shards = dd->size;
  ld.tail = (int)dlo->tail;
  ld.local_seeds = dlo->seed_placement == FO_DIST_SEEDS_LOCAL;
  ld.machine = dd->machine;
  ld.n_machines = dd->n_machines;
  ld.local_rank = dd->local_rank;
  ld.local_size = dd->local_size;
  ld.owner = lload_owner;
  ld.free_ctx = lload_free;
  ld.pipeline = dlo->pipeline;
  ld.make_remote = lload_make_remote;
  if ((rc = fo__link_loader_create_remote(d, o, &r, &ld, out)) != FO_OK) return rc;
  /* the feature gather (its cache's pass and look-ahead loaders are this loader's copies) */
  lsa.dd = dd;
  lsa.d = d;
  lsa.o = o;
  lsa.ld = &ld;
  lsa.dst_type = lc->dst_type;
  if ((rc = fo__dist_batch_gather_new(dd, d, dlo,
                                      o->link.sampler.edge_dir, o->features, o->epoch, &lseq_ops,
                                      lseq_make, &lsa, "create distributed link loader",
                                      &lc->g)) != FO_OK) {
    fo_link_loader_destroy(*out);
    *out = NULL;
  }
  return rc;
}

void fo_dist_link_loader_stats(const fo_link_loader_t *L, fo_dist_batch_stats *out) {
  if (!out) return;
  fo__link_loader_traffic(L, out);
}
