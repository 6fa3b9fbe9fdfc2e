/*
 * dist/dist.c: the distributed context: ranks, failure state, counters, opening this process's
 * part, and the samplers and loaders that reach other machines' parts through the transport
 * (in-process: local.c; MPI: mpi.c).
 *
 * A distributed sampler is an ordinary sampler over the partitioned dataset (with this machine's
 * part open) plus a remote hook: per hop, one request per remote part that has frontier nodes,
 * all sent before any answer is awaited. A distributed loader is an ordinary loader whose
 * samplers are distributed, whose feature rows and labels of remote nodes come in one request
 * per remote machine per batch, and which produces the epoch's batches b with
 * b mod (number of processes) == this process's rank.
 */
#include "dist/dist_internal.h"

#include <math.h>

void fo_dist_opts_init(fo_dist_opts *o) {
  memset(o, 0, sizeof *o);
  o->procs_per_machine = 0;
  o->deadline_s = 600.0;
  o->init_worker = false;
  fo_worker_opts_init(&o->worker);
}

int fo__dist_new(fo_dist_t **out, const fo_dist_opts *o) {
  fo_dist_t *dd;
  *out = NULL;
  if (!(o->deadline_s > 0) || !isfinite(o->deadline_s))
    return FO_FAIL(FO_EINVAL, "deadline %g s is not a finite number > 0", o->deadline_s);
  if (!(dd = calloc(1, sizeof *dd))) return FO_FAIL(FO_ENOMEM, "distributed context");
  pthread_mutex_init(&dd->mu, NULL);
  dd->deadline_s = o->deadline_s;
  *out = dd;
  return FO_OK;
}

void fo__dist_free(fo_dist_t *dd) {
  if (!dd) return;
  pthread_mutex_destroy(&dd->mu);
  free(dd);
}

int fo__dist_fail(fo_dist_t *dd, int rc) {
  bool first = false;
  pthread_mutex_lock(&dd->mu);
  if (!dd->failed) {
    dd->failed = true;
    dd->fail_rc = rc;
    snprintf(dd->fail_msg, sizeof dd->fail_msg, "%s", fo_last_error());
    first = true;
  }
  pthread_mutex_unlock(&dd->mu);
  if (first && dd->ops && dd->ops->failed) dd->ops->failed(dd);
  return rc;
}

bool fo_dist_failed(const fo_dist_t *dd, const char **message) {
  fo_dist_t *m = (fo_dist_t *)dd;
  bool f;
  pthread_mutex_lock(&m->mu);
  f = m->failed;
  pthread_mutex_unlock(&m->mu);
  if (message) *message = f ? dd->fail_msg : "";
  return f;
}

int fo_dist_status(const fo_dist_t *dd) {
  fo_dist_t *m = (fo_dist_t *)dd;
  bool f;
  int rc;
  if (!dd) return FO_OK;
  pthread_mutex_lock(&m->mu);
  f = m->failed;
  rc = m->fail_rc < 0 ? m->fail_rc : FO_EMPI;
  pthread_mutex_unlock(&m->mu);
  return f ? fo_set_error(rc, dd->fail_msg) : FO_OK;
}

int fo_dist_finalize(fo_dist_t *dd) {
  const char *msg;
  int rc = FO_OK;
  if (!dd) return FO_OK;
  if (fo_dist_failed(dd, &msg)) /* no barrier: the others know (or will not come) */
    rc = fo_set_error(dd->fail_rc < 0 ? dd->fail_rc : FO_EMPI, msg);
  else if (dd->ops && dd->ops->barrier)
    rc = dd->ops->barrier(dd);
  if (dd->ops && dd->ops->fini) dd->ops->fini(dd);
  fo__dist_free(dd);
  return rc;
}

int32_t fo_dist_machine_rank(const fo_dist_t *dd) { return dd->machine; }
int32_t fo_dist_num_machines(const fo_dist_t *dd) { return dd->n_machines; }
int32_t fo_dist_local_rank(const fo_dist_t *dd) { return dd->local_rank; }
int32_t fo_dist_local_size(const fo_dist_t *dd) { return dd->local_size; }
int32_t fo_dist_rank(const fo_dist_t *dd) { return dd->rank; }
int32_t fo_dist_size(const fo_dist_t *dd) { return dd->size; }

void fo_dist_batch_stats_get(const fo_loader_batch_t *b, fo_dist_batch_stats *out) {
  const fo_dist_batch_stats *s = fo__loader_batch_stats(b);
  if (s) *out = *s;
  else memset(out, 0, sizeof *out);
}

void fo_dist_get_stats(fo_dist_t *dd, fo_dist_stats *out) {
  pthread_mutex_lock(&dd->mu);
  *out = dd->stats;
  pthread_mutex_unlock(&dd->mu);
}

int fo_dist_abort_status(fo_dist_t *dd, int status, const char *reason) {
  char msg[sizeof dd->fail_msg];
  int rc;
  if (!dd) return FO_FAIL(FO_EINVAL, "dist abort: no context");
  if (status >= 0 || status < FO_EINTERNAL)
    return FO_FAIL(FO_EINVAL, "dist abort: status %d is not a fanout error code", status);
  (void)FO_FAIL(status, "rank %d (machine %d, local rank %d) stopped the job: %s",
                (int)dd->rank, (int)dd->machine, (int)dd->local_rank, reason ? reason : "");
  fo__dist_fail(dd, status);
  pthread_mutex_lock(&dd->mu); /* the context's failure: this one, or an earlier one */
  rc = dd->fail_rc;
  memcpy(msg, dd->fail_msg, sizeof msg);
  pthread_mutex_unlock(&dd->mu);
  return fo_set_error(rc, msg);
}

int fo_dist_abort(fo_dist_t *dd, const char *reason) {
  return fo_dist_abort_status(dd, FO_ECANCELED, reason);
}

/* The first dataset's open failed: this process cannot serve its part, so the context fails
 * and the other processes hear it now instead of at their deadline. */
static int open_failed(fo_dist_t *dd, int rc) {
  if (!dd->d) fo__dist_fail(dd, rc);
  return rc;
}

int fo_dist_open_dataset(fo_dist_t *dd, const char *path, const fo_dataset_opts *o,
                         fo_dataset_t **out) {
  fo_dataset_opts po;
  int rc, np;
  *out = NULL;
  if (o) po = *o;
  else fo_dataset_opts_init(&po);
  po.part = dd->machine;
  if ((rc = fo_dataset_open(path, &po, out)) != FO_OK) return open_failed(dd, rc);
  if ((np = (*out)->n_parts) != dd->n_machines) {
    if (!np)
      rc = FO_FAIL(FO_EINVAL, "open dataset '%s': not a partitioned dataset (`fanout partition "
                   "-n %d` makes one part per machine)", path, (int)dd->n_machines);
    else
      rc = FO_FAIL(FO_EINVAL, "open dataset '%s': it has %d part%s, the job has %d machine%s "
                   "(machine m serves part m%s)", path, np, np == 1 ? "" : "s",
                   (int)dd->n_machines, dd->n_machines == 1 ? "" : "s",
                   dd->n_machines == 1 ? "; procs_per_machine, --procs-per-machine in the "
                                         "CLI, makes one host act as several" : "");
    fo_dataset_close(*out);
    *out = NULL;
    return open_failed(dd, rc);
  }
  /* the first dataset opened is the one this process serves to its group (until finalize) */
  if (!dd->d) {
    dd->d = *out;
    if (dd->ops && dd->ops->serve) dd->ops->serve(dd);
  }
  return FO_OK;
}

/* ---- distributed samplers ------------------------------------------------------------------- */

typedef struct remote_ctx {
  fo_dist_t *dd;
  const fo_dataset_t *d; /* typed datasets: the ids' bounds per type */
  int64_t n_nodes, n_edges;
  fo__call *calls;
  int n_calls;
} remote_ctx;

static void remote_free(void *ctx) {
  remote_ctx *rc = ctx;
  if (!rc) return;
  for (int i = 0; i < rc->n_calls; i++) {
    fo__buf_free(&rc->calls[i].req);
    free(rc->calls[i].resp);
  }
  free(rc->calls);
  free(rc);
}

static int grow_calls(remote_ctx *c, int n) {
  fo__call *nc;
  if (n <= c->n_calls) return FO_OK;
  if (!(nc = realloc(c->calls, (size_t)n * sizeof *nc))) return FO_FAIL(FO_ENOMEM, "calls");
  memset(nc + c->n_calls, 0, (size_t)(n - c->n_calls) * sizeof *nc);
  c->calls = nc;
  c->n_calls = n;
  return FO_OK;
}

static const char *const kind_names[] = {"?", "hop", "fetch"};

/* Exchange calls[0..n) and account for them (hop >= 0: hop requests; -1: fetches). */
static int exchange(fo_dist_t *dd, fo__call *calls, int n, int hop) {
  const char *msg;
  int64_t bytes = 0;
  int rc;
  if (fo_dist_failed(dd, &msg))
    return fo_set_error(dd->fail_rc ? dd->fail_rc : FO_EMPI, msg);
  rc = dd->ops->exchange(dd, calls, n);
  for (int i = 0; i < n; i++) bytes += calls[i].req.n * 8 + (int64_t)calls[i].resp_len;
  pthread_mutex_lock(&dd->mu);
  if (hop >= 0 && hop < 64) {
    dd->stats.hop_requests[hop] += n;
    dd->stats.hop_bytes[hop] += bytes;
  } else {
    dd->stats.fetch_requests += n;
    dd->stats.fetch_bytes += bytes;
  }
  pthread_mutex_unlock(&dd->mu);
  if (fo__cur_batch_stats) { /* the batch being produced on this thread */
    fo_dist_batch_stats *bs = fo__cur_batch_stats;
    if (hop >= 0 && hop < 64) {
      bs->hop_requests[hop] += n;
      bs->hop_bytes[hop] += bytes;
    } else {
      bs->fetch_requests += n;
      bs->fetch_bytes += bytes;
    }
  }
  if (rc != FO_OK) return fo__dist_fail(dd, rc);
  (void)kind_names;
  return FO_OK;
}

/* Typed: reqs come part by part (edge types ascending within a part); each part's groups go
 * in one HOPS message, and res[i] answers reqs[i]. */
static int remote_hops_typed(remote_ctx *c, const fo__hop_req *reqs, int n, fo__hop_res *res) {
  int n_calls = 0, rc;
  if ((rc = grow_calls(c, n)) != FO_OK) return rc;
  for (int i = 0; i < n;) {
    int j = i;
    while (j < n && reqs[j].part == reqs[i].part) j++;
    c->calls[n_calls].machine = reqs[i].part;
    if ((rc = fo__enc_hops_req(&c->calls[n_calls].req, reqs + i, (int32_t)(j - i))) != FO_OK)
      return rc;
    n_calls++;
    i = j;
  }
  if ((rc = exchange(c->dd, c->calls, n_calls, n ? reqs[0].hop : 0)) != FO_OK) return rc;
  for (int i = 0, call = 0; i < n; call++) {
    int j = i;
    while (j < n && reqs[j].part == reqs[i].part) j++;
    if ((rc = fo__dec_hops_res(c->calls[call].resp, c->calls[call].resp_len, c->d, reqs + i,
                               (int32_t)(j - i), res + i)) != FO_OK)
      return fo__dist_fail(c->dd, fo__context(rc, "hop %d answer of machine %d", (int)reqs[i].hop,
                                               (int)reqs[i].part));
    i = j;
  }
  if (fo__cur_batch_stats && n && reqs[0].hop >= 0 && reqs[0].hop < 64)
    for (int i = 0; i < n; i++) fo__cur_batch_stats->hop_edges[reqs[0].hop] += res[i].n_edges;
  return FO_OK;
}

static int remote_hop(void *ctx, const fo__hop_req *reqs, int n, fo__hop_res *res) {
  remote_ctx *c = ctx;
  int rc;
  if (c->d->typed) return remote_hops_typed(c, reqs, n, res);
  if ((rc = grow_calls(c, n)) != FO_OK) return rc;
  for (int i = 0; i < n; i++) {
    c->calls[i].machine = reqs[i].part;
    if ((rc = fo__enc_hop_req(&c->calls[i].req, &reqs[i])) != FO_OK) return rc;
  }
  if ((rc = exchange(c->dd, c->calls, n, n ? reqs[0].hop : 0)) != FO_OK) return rc;
  for (int i = 0; i < n; i++)
    if ((rc = fo__dec_hop_res(c->calls[i].resp, c->calls[i].resp_len, c->n_nodes, c->n_edges,
                              &res[i])) != FO_OK)
      return fo__dist_fail(c->dd, fo__context(rc, "hop %d answer of machine %d", (int)reqs[i].hop,
                                               (int)reqs[i].part));
  if (fo__cur_batch_stats && n && reqs[0].hop >= 0 && reqs[0].hop < 64)
    for (int i = 0; i < n; i++) fo__cur_batch_stats->hop_edges[reqs[0].hop] += res[i].n_edges;
  return FO_OK;
}

int fo_dist_sampler_create(fo_dist_t *dd, const fo_dataset_t *d, const fo_sampler_opts *o,
                           fo_sampler_t **out) {
  fo__remote r;
  remote_ctx *c;
  int rc;
  *out = NULL;
  if ((rc = fo_sampler_create(d, o, out)) != FO_OK) return rc;
  if (!(c = calloc(1, sizeof *c))) {
    fo_sampler_destroy(*out);
    *out = NULL;
    return FO_FAIL(FO_ENOMEM, "distributed sampler");
  }
  c->dd = dd;
  c->d = d;
  c->n_nodes = d->n_nodes;
  c->n_edges = d->n_edges;
  r.ctx = c;
  r.hop = remote_hop;
  r.free_ctx = remote_free;
  if ((rc = fo__sampler_set_remote(*out, &r, dd->machine)) != FO_OK) {
    remote_free(c);
    fo_sampler_destroy(*out);
    *out = NULL;
    return fo__context(rc, "create distributed sampler");
  }
  return FO_OK;
}

/* ---- options every process must share ----------------------------------------------------- */

uint64_t fo__same_digest(const char *name, const char *value) {
  uint64_t h = UINT64_C(1469598103934665603);
  for (const unsigned char *p = (const unsigned char *)name; *p; p++) h = (h ^ *p) * UINT64_C(1099511628211);
  h = (h ^ 0xffu) * UINT64_C(1099511628211); /* the separator: no name or value byte */
  for (const unsigned char *p = (const unsigned char *)value; *p; p++) h = (h ^ *p) * UINT64_C(1099511628211);
  return h;
}

int fo_dist_check_same(fo_dist_t *dd, const char *what, const fo_dist_option *opts, int n) {
  if (!what) what = "check options";
  if (!dd) return FO_FAIL(FO_EINVAL, "%s: no context", what);
  if (n < 0 || n > FO__SAME_MAX || (n && !opts))
    return FO_FAIL(FO_EINVAL, "%s: %d options to compare, not 0..%d", what, n, FO__SAME_MAX);
  for (int i = 0; i < n; i++)
    if (!opts[i].name || !opts[i].value)
      return FO_FAIL(FO_EINVAL, "%s: option %d has a NULL name or value", what, i);
  if (!dd->ops || !dd->ops->check_same) return FO_OK;
  return dd->ops->check_same(dd, what, opts, n);
}

/* The loader options that decide which batches a process makes, as text (enough of each for a
 * message; input nodes by count and digest). */
enum { L_FANOUTS, L_REPLACE, L_EDGE_DIR, L_DISJOINT, L_SEED, L_BATCH, L_INPUT, L_SPLIT,
       L_SHUFFLE, L_DROP_LAST, L_EPOCH, L_FEATURES, L_LABELS, L_TAIL, L_INPUT_TYPE,
       L_ET_FANOUTS, L_WEIGHTED, L_TEMPORAL, L_INPUT_TIME, L_N };

/* FNV-1a 64 of n bytes. */
static uint64_t bytes_digest(const void *p, int64_t n) {
  uint64_t h = UINT64_C(1469598103934665603);
  for (int64_t i = 0; i < n; i++) h = (h ^ ((const unsigned char *)p)[i]) * UINT64_C(1099511628211);
  return h;
}

static int check_loader_opts(fo_dist_t *dd, const fo_dataset_t *d, const fo_loader_opts *o,
                             fo_dist_tail tail) {
  static const char *const names[L_N] = {"fanouts", "replace", "edge_dir", "disjoint", "seed",
    "batch_size", "input_nodes", "split", "shuffle", "drop_last", "epoch", "features", "labels",
    "tail", "input_type", "edge_type_fanouts", "weighted", "temporal", "input_time"};
  static const char *const strategies[] = {"none", "uniform", "last"};
  static const char *const tails[] = {"keep", "drop", "pad"};
  char text[L_N][FO__SAME_TEXT + 16];
  fo_dist_option opts[L_N];
  size_t at = 0;
  const int32_t hops = o->sampler.n_hops < 0 ? 0 : o->sampler.n_hops > 64 ? 64 : o->sampler.n_hops;
  text[L_FANOUTS][0] = '\0';
  if (!o->sampler.fanouts) snprintf(text[L_FANOUTS], sizeof text[0], "(none)");
  for (int32_t h = 0; o->sampler.fanouts && h < hops && at < sizeof text[0] - 12; h++)
    at += (size_t)snprintf(text[L_FANOUTS] + at, sizeof text[0] - at, "%s%d", h ? "," : "",
                           (int)o->sampler.fanouts[h]);
  if (o->sampler.fanouts && !hops) snprintf(text[L_FANOUTS], sizeof text[0], "(%d hops)", (int)o->sampler.n_hops);
  snprintf(text[L_REPLACE], sizeof text[0], "%s", o->sampler.replace ? "true" : "false");
  snprintf(text[L_EDGE_DIR], sizeof text[0], "%s", o->sampler.edge_dir == FO_EDGE_DIR_IN ? "in"
           : o->sampler.edge_dir == FO_EDGE_DIR_OUT ? "out" : "?");
  snprintf(text[L_DISJOINT], sizeof text[0], "%s", o->sampler.disjoint ? "true" : "false");
  snprintf(text[L_SEED], sizeof text[0], "%llu", (unsigned long long)o->sampler.seed);
  snprintf(text[L_BATCH], sizeof text[0], "%lld", (long long)o->batch_size);
  if (!o->input_nodes) {
    snprintf(text[L_INPUT], sizeof text[0], "(none)");
  } else {
    snprintf(text[L_INPUT], sizeof text[0], "%lld nodes (digest %016llx)",
             (long long)o->n_input_nodes, (unsigned long long)bytes_digest(o->input_nodes,
             o->n_input_nodes > 0 ? o->n_input_nodes * 8 : 0));
  }
  snprintf(text[L_SPLIT], sizeof text[0], "%s", o->split ? o->split : "(none)");
  snprintf(text[L_SHUFFLE], sizeof text[0], "%s", o->shuffle ? "true" : "false");
  snprintf(text[L_DROP_LAST], sizeof text[0], "%s", o->drop_last ? "true" : "false");
  snprintf(text[L_EPOCH], sizeof text[0], "%llu", (unsigned long long)o->epoch);
  snprintf(text[L_FEATURES], sizeof text[0], "%s", o->features ? "true" : "false");
  snprintf(text[L_LABELS], sizeof text[0], "%s", o->labels ? "true" : "false");
  if ((unsigned)tail <= FO_DIST_TAIL_PAD) snprintf(text[L_TAIL], sizeof text[0], "%s", tails[tail]);
  else snprintf(text[L_TAIL], sizeof text[0], "%d", (int)tail);
  snprintf(text[L_INPUT_TYPE], sizeof text[0], "%s", o->input_type ? o->input_type : "(none)");
  if (!o->sampler.edge_type_fanouts) {
    snprintf(text[L_ET_FANOUTS], sizeof text[0], "(none)");
  } else { /* [n_edge_types * n_hops] of the dataset (one edge type for version 1) */
    int64_t n = (int64_t)(d->n_etypes > 0 ? d->n_etypes : 1) * hops;
    snprintf(text[L_ET_FANOUTS], sizeof text[0], "%lld values (digest %016llx)", (long long)n,
             (unsigned long long)bytes_digest(o->sampler.edge_type_fanouts, n * 4));
  }
  snprintf(text[L_WEIGHTED], sizeof text[0], "%s", o->sampler.weighted ? "true" : "false");
  if ((unsigned)o->sampler.temporal > FO_TEMPORAL_LAST)
    snprintf(text[L_TEMPORAL], sizeof text[0], "%d", (int)o->sampler.temporal);
  else if (o->sampler.temporal == FO_TEMPORAL_NONE)
    snprintf(text[L_TEMPORAL], sizeof text[0], "none");
  else
    snprintf(text[L_TEMPORAL], sizeof text[0], "%s, %s time%s, window %lld",
             strategies[o->sampler.temporal], o->sampler.time_attr == FO_TIME_ATTR_NODE ? "node" : "edge",
             o->sampler.time_strict ? ", strict" : "", (long long)o->sampler.time_window);
  if (!o->input_time || !o->input_nodes) {
    snprintf(text[L_INPUT_TIME], sizeof text[0], "(none)");
  } else {
    snprintf(text[L_INPUT_TIME], sizeof text[0], "%lld times (digest %016llx)",
             (long long)o->n_input_nodes, (unsigned long long)bytes_digest(o->input_time,
             o->n_input_nodes > 0 ? o->n_input_nodes * 8 : 0));
  }
  for (int i = 0; i < L_N; i++) {
    opts[i].name = names[i];
    opts[i].value = text[i];
  }
  return fo_dist_check_same(dd, "create distributed loader", opts, L_N);
}

/* ---- distributed loaders -------------------------------------------------------------------- */

typedef struct loader_ctx {
  fo_dist_t *dd;
  const fo_dataset_t *d;
  fo__dist_cache *cache; /* NULL: none (cache.c) */
  int32_t seed_type;     /* typed datasets: the input nodes' type (seed placement local) */
} loader_ctx;

static void loader_ctx_free(void *ctx) {
  loader_ctx *c = ctx;
  if (!c) return;
  fo__dist_cache_destroy(c->cache);
  free(c);
}

static int gather_plain(void *ctx, const int64_t *nodes, int64_t n, void *x, int64_t row_bytes,
                        int64_t *y, int64_t n_y);

static int gather(void *ctx, const int64_t *nodes, int64_t n, void *x, int64_t row_bytes,
                  int64_t *y, int64_t n_y) {
  loader_ctx *c = ctx;
  if (c->cache) return fo__dist_cache_gather(c->cache, nodes, n, x, row_bytes, y, n_y);
  return gather_plain(ctx, nodes, n, x, row_bytes, y, n_y);
}

static bool take_sampled(void *ctx, uint64_t epoch, int64_t j, fo_batch_t **b) {
  return fo__dist_cache_take(((loader_ctx *)ctx)->cache, epoch, j, b);
}

static int prepare(void *ctx, fo_loader_t *L) {
  loader_ctx *c = ctx;
  return c->cache ? fo__dist_cache_prepare(c->cache, L) : FO_OK;
}

static int make_sampler(void *ctx, const fo_dataset_t *d, const fo_sampler_opts *o,
                        fo_sampler_t **out) {
  loader_ctx *c = ctx;
  return fo_dist_sampler_create(c->dd, d, o, out);
}

static int sole_bad_node(int64_t v, const fo_dataset_t *d) {
  return FO_FAIL(FO_EFORMAT, "distributed gather: node %lld is not a node id in [0, %lld)",
                 (long long)v, (long long)d->n_nodes);
}

/* x and y of nodes[0..n): this machine's rows directly, every other machine's in one request. */
static int gather_plain(void *ctx, const int64_t *nodes, int64_t n, void *x, int64_t row_bytes,
                        int64_t *y, int64_t n_y) {
  loader_ctx *c = ctx;
  const fo_dataset_t *d = c->d;
  const int P = d->n_parts, me = c->dd->machine;
  const fo_dataset_t *mine = d->parts[me];
  int64_t *cnt = NULL, *start = NULL, *packed = NULL, *pos = NULL;
  fo__call *calls = NULL;
  int n_calls = 0, rc = FO_OK;
  fo_features f;
  const int64_t *ly = NULL;
  int64_t lny, lnc;
  if (x && (rc = fo_dataset_features(mine, &f)) != FO_OK) return rc;
  if (y && (rc = fo_dataset_labels(mine, &ly, &lny, &lnc)) != FO_OK) return rc;
  if (P == 1 && me == 0 && fo__sole_part(d)) {
    /* one machine, its part the whole graph: node v is row v, every row local, nothing to ask
     * (the plain dataset's gather, each node checked against [0, n_nodes)) */
    const int64_t bad = x ? fo__copy_rows_direct(x, (const unsigned char *)f.data, nodes, n,
                                                 (size_t)row_bytes, d->n_nodes) : -1;
    if (bad < 0 && y)
      for (int64_t i = 0; i < n && i < n_y; i++) {
        if (FO_UNLIKELY((uint64_t)nodes[i] >= (uint64_t)d->n_nodes)) return sole_bad_node(nodes[i], d);
        y[i] = ly[nodes[i]];
      }
    if (bad >= 0) return sole_bad_node(nodes[bad], d);
    return FO_OK;
  }
  cnt = calloc((size_t)P + 1, sizeof *cnt);
  start = calloc((size_t)P + 1, sizeof *start);
  packed = fo__malloc_n(n, sizeof *packed);
  pos = fo__malloc_n(n, sizeof *pos);
  calls = calloc((size_t)P, sizeof *calls);
  if (!cnt || !start || !packed || !pos || !calls) {
    rc = FO_FAIL(FO_ENOMEM, "distributed gather");
    goto out;
  }
  for (int64_t i = 0; i < n; i++) {
    /* the last hop's nodes were never expanded: their book entries are read here first */
    int k = nodes[i] >= 0 && nodes[i] < d->n_nodes ? fo__owner(d, nodes[i]) : -1;
    if (FO_UNLIKELY(k < 0 || k >= P)) {
      rc = FO_FAIL(FO_EFORMAT, "distributed gather: node %lld has book entry %d, not a part in "
                   "[0, %d)", (long long)nodes[i], k, P);
      goto out;
    }
    cnt[k]++;
  }
  for (int k = 0; k < P; k++) start[k + 1] = start[k] + cnt[k];
  if (fo__cur_batch_stats) fo__cur_batch_stats->remote_rows += n - cnt[me];
  for (int64_t i = 0; i < n; i++) {
    int k = fo__owner(d, nodes[i]);
    pos[i] = start[k]++;
    packed[pos[i]] = nodes[i];
  }
  for (int k = P; k > 0; k--) start[k] = start[k - 1];
  start[0] = 0;
  for (int k = 0; k < P; k++) {
    fo__fetch_req r;
    if (k == me || !cnt[k]) continue;
    r.x = x != NULL;
    r.y = y != NULL;
    r.part = k;
    r.n = cnt[k];
    r.nodes = packed + start[k];
    calls[n_calls].machine = k;
    if ((rc = fo__enc_fetch_req(&calls[n_calls].req, &r)) != FO_OK) goto out;
    n_calls++;
  }
  if (n_calls && (rc = exchange(c->dd, calls, n_calls, -1)) != FO_OK) goto out;
  /* local rows, a chunk of addresses at a time (fo__copy_rows prefetches them) */
  for (int64_t i0 = 0; i0 < n; i0 += FO__COPY_CHUNK) {
    unsigned char *dst[FO__COPY_CHUNK];
    const unsigned char *src[FO__COPY_CHUNK];
    const int64_t i1 = n - i0 < FO__COPY_CHUNK ? n : i0 + FO__COPY_CHUNK;
    int64_t m = 0;
    for (int64_t i = i0; i < i1; i++) {
      int64_t v = nodes[i], row;
      if (fo__owner(d, v) != me) continue;
      row = fo__owner_row(d, me, v);
      if (FO_UNLIKELY(row < 0 || row >= mine->n_rows)) {
        rc = FO_FAIL(FO_EFORMAT, "part %d: node %lld maps to row %lld of %lld (row_rank[%lld])", me,
                     (long long)v, (long long)row, (long long)mine->n_rows,
                     (long long)(v / FO_RANK_BLOCK));
        goto out;
      }
      if (x) {
        dst[m] = (unsigned char *)x + i * row_bytes;
        src[m++] = (const unsigned char *)f.data + row * row_bytes;
      }
      if (y && i < n_y) y[i] = ly[row];
    }
    fo__copy_rows(dst, src, m, (size_t)row_bytes);
  }
  /* remote rows */
  for (int j = 0; j < n_calls; j++) {
    fo__fetch_res res;
    int k = calls[j].machine;
    if ((rc = fo__dec_fetch_res(calls[j].resp, calls[j].resp_len, cnt[k], &res)) != FO_OK) {
      rc = fo__dist_fail(c->dd, fo__context(rc, "features from machine %d", k));
      goto out;
    }
    if ((x && (!res.x || res.row_bytes != row_bytes)) || (y && !res.y)) {
      rc = fo__dist_fail(c->dd, FO_FAIL(FO_EFORMAT, "machine %d sent %lld-byte rows, expected %lld",
                                        k, (long long)res.row_bytes, (long long)row_bytes));
      goto out;
    }
    for (int64_t i = 0; i < n; i++) {
      int64_t at;
      if (fo__owner(d, nodes[i]) != k) continue;
      at = pos[i] - start[k];
      if (x) memcpy((char *)x + i * row_bytes, res.x + at * row_bytes, (size_t)row_bytes);
      if (y && i < n_y) y[i] = res.y[at];
    }
  }
out:
  for (int j = 0; calls && j < P; j++) {
    fo__buf_free(&calls[j].req);
    free(calls[j].resp);
  }
  free(calls);
  free(cnt);
  free(start);
  free(packed);
  free(pos);
  return rc;
}

static int gather_typed(void *ctx, const fo_batch_t *b, unsigned char *const *x,
                        const int64_t *row_bytes, int32_t seed_type, int64_t *y, int64_t n_y);
static int gather_typed_nodes(void *ctx, const int64_t *const *node, const int64_t *n,
                              unsigned char *const *x, const int64_t *row_bytes, int32_t seed_type,
                              int64_t *y, int64_t n_y);

int fo__dist_gather_batch(fo_dist_t *dd, const fo_dataset_t *d, const fo_batch_t *b,
                          unsigned char *const *x, const int64_t *row_bytes) {
  loader_ctx c = {dd, d, NULL, 0};
  if (d->typed) return gather_typed(&c, b, x, row_bytes, -1, NULL, 0);
  if (!x[0]) return FO_OK;
  return gather_plain(&c, b->node, b->n_nodes, x[0], row_bytes[0], NULL, 0);
}

/* ---- the link and ABLP loaders' gather through the cache ---------------------------------- */

struct fo__seq_source {
  const fo__seq_ops *ops;
  void *pass, *ahead;
  fo__cache_source src;
  bool begun;      /* ahead has started `epoch` */
  uint64_t epoch;
  int64_t next;    /* ahead's next batch of the epoch */
};

/* Run `ahead` or `pass` for one batch with the current batch's counters and place kept: its
 * traffic is the look-ahead's (ahead_requests, ahead_bytes of the current batch). */
static int seq_next(fo__seq_source *q, void *L, const fo_batch_t **b) {
  fo_dist_batch_stats *cur = fo__cur_batch_stats, st;
  const fo__batch_pos *pos = fo__cur_batch_pos;
  int rc = q->ops->next(L, b);
  fo__cur_batch_stats = cur;
  fo__cur_batch_pos = pos;
  if (rc != FO_OK) rc = fo__context(rc, "the cache's %s loader", L == q->pass ? "pass" : "look-ahead");
  if (cur) {
    q->ops->traffic(L, &st);
    for (int h = 0; h < 64; h++) {
      cur->ahead_requests += st.hop_requests[h];
      cur->ahead_bytes += st.hop_bytes[h];
    }
    cur->ahead_requests += st.link_requests + st.label_requests;
    cur->ahead_bytes += st.link_bytes + st.label_bytes;
  }
  return rc;
}

static int seq_pass(void *ctx, int64_t j, const fo_batch_t **b) {
  fo__seq_source *q = ctx;
  (void)j; /* called in order: the pass loader's next batch is batch j */
  return seq_next(q, q->pass, b);
}

/* `ahead` at the start of batch t of `epoch` (restarted when it has gone past t). */
static int seq_sync(fo__seq_source *q, uint64_t epoch, int64_t t) {
  int rc;
  if (q->begun && q->epoch == epoch && q->next <= t) return FO_OK;
  if ((rc = q->ops->start_epoch(q->ahead, epoch)) != FO_OK) return rc;
  q->begun = true;
  q->epoch = epoch;
  q->next = 0;
  return FO_OK;
}

static int seq_ahead(void *ctx, uint64_t epoch, int64_t t, const fo_batch_t **b) {
  fo__seq_source *q = ctx;
  int rc;
  *b = NULL;
  if ((rc = seq_sync(q, epoch, t)) != FO_OK) return rc;
  while (q->next <= t) {
    if ((rc = seq_next(q, q->ahead, b)) != FO_OK || !*b) return rc;
    q->next++;
  }
  return FO_OK;
}

static int64_t seq_num_batches(void *ctx, uint64_t epoch) {
  fo__seq_source *q = ctx;
  if (seq_sync(q, epoch, q->begun && q->epoch == epoch ? q->next : 0) != FO_OK) return 0;
  return q->ops->num_batches(q->ahead);
}

static void seq_free(fo__seq_source *q) {
  if (!q) return;
  if (q->pass) q->ops->destroy(q->pass);
  if (q->ahead) q->ops->destroy(q->ahead);
  free(q);
}

struct fo__dist_batch_gather {
  loader_ctx c;
  fo__seq_source *q; /* frequency and lookahead */
};

int fo__dist_no_gather(void *ctx, const fo_batch_t *b, unsigned char *const *x, const int64_t *row_bytes) {
  (void)ctx, (void)b, (void)x, (void)row_bytes;
  return FO_OK;
}

int fo__dist_batch_gather_new(fo_dist_t *dd, const fo_dataset_t *d, const fo_dist_loader_opts *dlo,
                              fo_edge_dir dir, bool features, uint64_t epoch, const fo__seq_ops *ops,
                              fo__seq_make_fn make, void *arg, const char *what,
                              fo__dist_batch_gather **out) {
  const int64_t cache_bytes = dlo->cache_bytes;
  const int policy = (int)dlo->cache_policy;
  const bool cached = cache_bytes > 0 && features && d->parts && d->parts[dd->machine];
  fo__dist_batch_gather *g = NULL;
  fo__seq_source *q = NULL;
  int rc = FO_OK;
  *out = NULL;
  if (cache_bytes < 0)
    return FO_FAIL(FO_EINVAL, "%s: cache_bytes %lld is negative", what, (long long)cache_bytes);
  if ((unsigned)policy > FO_DIST_CACHE_LOOKAHEAD)
    return FO_FAIL(FO_EINVAL, "%s: unknown cache_policy %d (degree 0, frequency 1, lookahead 2)",
                   what, policy);
  if (policy == FO_DIST_CACHE_LOOKAHEAD && (dlo->lookahead < 1 || dlo->lookahead > 1024))
    return FO_FAIL(FO_EINVAL, "%s: lookahead %d is not in 1..1024", what, (int)dlo->lookahead);
  if (!(g = calloc(1, sizeof *g))) return FO_FAIL(FO_ENOMEM, "%s", what);
  g->c.dd = dd;
  g->c.d = d;
  g->c.seed_type = 0; /* no labels gathered: the seed type only keys the cache's label store */
  if (cached && (rc = fo__dist_cache_create(dd, d, cache_bytes, policy, dlo->lookahead, 0, true,
                                            false, gather_plain, gather_typed_nodes, 0, &g->c,
                                            &g->c.cache)) != FO_OK)
    goto fail;
  if (g->c.cache && policy == FO_DIST_CACHE_DEGREE) {
    rc = fo__dist_cache_prepare_degree(g->c.cache, dir);
  } else if (g->c.cache) { /* the pass (frequency; typed lookahead's split), the look-ahead */
    if (!(q = calloc(1, sizeof *q))) {
      rc = FO_FAIL(FO_ENOMEM, "feature cache's batches");
      goto fail;
    }
    q->ops = ops;
    q->src.ctx = q;
    q->src.pass = seq_pass;
    q->src.ahead = seq_ahead;
    q->src.num_batches = seq_num_batches;
    if ((policy == FO_DIST_CACHE_FREQUENCY || d->typed) &&
        (rc = make(arg, epoch + (UINT64_C(1) << 62), &q->pass)) != FO_OK)
      goto fail;
    if (policy == FO_DIST_CACHE_LOOKAHEAD && (rc = make(arg, epoch, &q->ahead)) != FO_OK) goto fail;
    q->src.n_pass = q->pass ? ops->num_batches(q->pass) : 0;
    rc = fo__dist_cache_prepare_source(g->c.cache, &q->src, dir);
    /* the pass served the fill; the look-ahead's loader stays while the cache plans with it */
    if (q->pass) ops->destroy(q->pass);
    q->pass = NULL;
  }
  if (rc != FO_OK) goto fail;
  g->q = q;
  *out = g;
  return FO_OK;
fail:
  fo__dist_cache_destroy(g->c.cache);
  seq_free(q);
  free(g);
  return fo__context(rc, "%s", what);
}

int fo__dist_batch_gather_run(fo__dist_batch_gather *g, const fo_batch_t *b, unsigned char *const *x,
                              const int64_t *row_bytes) {
  if (!g->c.cache) return fo__dist_gather_batch(g->c.dd, g->c.d, b, x, row_bytes);
  if (g->c.d->typed) return gather_typed(&g->c, b, x, row_bytes, 0, NULL, 0);
  if (!x[0]) return FO_OK;
  return gather(&g->c, b->node, b->n_nodes, x[0], row_bytes[0], NULL, 0);
}

void fo__dist_batch_gather_free(fo__dist_batch_gather *g) {
  if (!g) return;
  fo__dist_cache_destroy(g->c.cache);
  seq_free(g->q);
  free(g);
}

void fo_dist_loader_opts_init(fo_dist_loader_opts *o) {
  memset(o, 0, sizeof *o);
  o->tail = FO_DIST_TAIL_KEEP;
  o->seed_placement = FO_DIST_SEEDS_GLOBAL;
  o->cache_bytes = 0;
  o->cache_policy = FO_DIST_CACHE_DEGREE;
  o->lookahead = 8;
  o->pipeline = 0;
}

/* The fo_dist_loader_opts fields every process must share (after check_loader_opts, which
 * covers the sampler's and loader's options, weighted, temporal and input_time included). */
static int check_dist_loader_opts(fo_dist_t *dd, const fo_dist_loader_opts *lo) {
  char sp[32], cb[32], cp[32], la[32];
  fo_dist_option opts[4] = {{"seed_placement", sp}, {"cache_bytes", cb}, {"cache_policy", cp},
                            {"lookahead", la}};
  if (lo->seed_placement == FO_DIST_SEEDS_GLOBAL) snprintf(sp, sizeof sp, "global");
  else if (lo->seed_placement == FO_DIST_SEEDS_LOCAL) snprintf(sp, sizeof sp, "local");
  else snprintf(sp, sizeof sp, "%d", (int)lo->seed_placement);
  snprintf(cb, sizeof cb, "%lld", (long long)lo->cache_bytes);
  if ((unsigned)lo->cache_policy <= FO_DIST_CACHE_LOOKAHEAD)
    snprintf(cp, sizeof cp, "%s", fo__cache_policy_name((int)lo->cache_policy));
  else snprintf(cp, sizeof cp, "%d", (int)lo->cache_policy);
  snprintf(la, sizeof la, "%d", (int)lo->lookahead);
  return fo_dist_check_same(dd, "create distributed loader", opts, 4);
}

static int32_t owner_of(void *ctx, int64_t v) {
  const loader_ctx *c = ctx;
  /* typed: v is an id of the input node type, owned through that type's book */
  const fo_dataset_t *d = c->d->typed ? fo_dataset_node_data(c->d, c->seed_type) : c->d;
  return d && v >= 0 && v < d->n_nodes ? (int32_t)fo__owner(d, v) : -1;
}

/* Typed: every node type's feature rows (and the seed type's labels) of a batch, through the
 * cache when there is one. */
static int gather_typed(void *ctx, const fo_batch_t *b, unsigned char *const *x,
                        const int64_t *row_bytes, int32_t seed_type, int64_t *y, int64_t n_y) {
  loader_ctx *c = ctx;
  const int32_t T = c->d->n_ntypes;
  const int64_t **node;
  int64_t *n;
  int rc;
  if (c->cache) return fo__dist_cache_gather_typed(c->cache, b, x, row_bytes, seed_type, y, n_y);
  node = calloc((size_t)T, sizeof *node);
  n = calloc((size_t)T, sizeof *n);
  if (!node || !n) {
    free(node);
    free(n);
    return FO_FAIL(FO_ENOMEM, "distributed gather");
  }
  for (int32_t t = 0; t < T; t++) {
    const fo_batch_t *nb = fo_batch_node_type(b, t);
    node[t] = nb->node;
    n[t] = x[t] ? nb->n_nodes : (y && t == seed_type ? n_y : 0);
  }
  rc = gather_typed_nodes(ctx, node, n, x, row_bytes, seed_type, y, n_y);
  free(node);
  free(n);
  return rc;
}

/* Typed: the rows of node[t][0..n[t]) of every node type t (x[t] when x[t]; the seed type's
 * labels y[i], i < n_y, when y): this machine's rows directly, every other machine's in ONE
 * request (a group per node type). */
static int gather_typed_nodes(void *ctx, const int64_t *const *node_of, const int64_t *n_of,
                              unsigned char *const *x, const int64_t *row_bytes, int32_t seed_type,
                              int64_t *y, int64_t n_y) {
  loader_ctx *c = ctx;
  const fo_dataset_t *d = c->d;
  const int P = d->n_parts, me = c->dd->machine;
  const int32_t T = d->n_ntypes;
  int64_t *cnt = NULL, *start = NULL, *pos = NULL, *packed = NULL, *nt_n = NULL, *nt_off = NULL;
  int64_t total = 0;
  fo__call *calls = NULL;
  fo__fetch_req *groups = NULL;
  fo__fetch_res *res = NULL;
  int32_t *gtype = NULL;
  int n_calls = 0, rc = FO_OK;
  bool sole = P == 1 && me == 0;
  for (int32_t t = 0; sole && t < T; t++) sole = fo__sole_part(fo_dataset_node_data(d, t));
  if (sole) {
    /* one machine, its part every node of every type: node v of type t is row v of that type's
     * rows in the part, nothing to ask (gather_plain's shortcut, per node type) */
    for (int32_t t = 0; t < T; t++) {
      const fo_dataset_t *v = fo_dataset_node_data(d, t), *mine = v->parts[0];
      const int64_t *node = node_of[t];
      const bool want_y = y && t == seed_type;
      fo_features f;
      const int64_t *ly = NULL;
      int64_t lny, lnc, bad = -1;
      if (!n_of[t] || (!x[t] && !want_y)) continue;
      if (x[t] && (rc = fo_dataset_features(mine, &f)) != FO_OK) return rc;
      if (want_y && (rc = fo_dataset_labels(mine, &ly, &lny, &lnc)) != FO_OK) return rc;
      if (x[t])
        bad = fo__copy_rows_direct(x[t], (const unsigned char *)f.data, node, n_of[t],
                                   (size_t)row_bytes[t], v->n_nodes);
      for (int64_t i = 0; bad < 0 && want_y && i < n_of[t] && i < n_y; i++) {
        if (FO_UNLIKELY((uint64_t)node[i] >= (uint64_t)v->n_nodes)) bad = i;
        else y[i] = ly[node[i]];
      }
      if (bad >= 0)
        return FO_FAIL(FO_EFORMAT, "distributed gather: node %lld of node type '%s' is not a node "
                       "id in [0, %lld)", (long long)node[bad], fo_dataset_node_type_name(d, t),
                       (long long)v->n_nodes);
    }
    return FO_OK;
  }
  /* per node type: how many of its nodes are gathered (all with x, the seeds for y only) */
  if (!(nt_n = calloc((size_t)T, sizeof *nt_n)) || !(nt_off = calloc((size_t)T + 1, sizeof *nt_off)) ||
      !(cnt = calloc((size_t)P * (size_t)T, sizeof *cnt)) ||
      !(start = calloc((size_t)P * (size_t)T + 1, sizeof *start)) ||
      !(calls = calloc((size_t)P, sizeof *calls)) || !(groups = calloc((size_t)T, sizeof *groups)) ||
      !(res = calloc((size_t)T, sizeof *res)) || !(gtype = calloc((size_t)T, sizeof *gtype))) {
    rc = FO_FAIL(FO_ENOMEM, "distributed gather");
    goto out;
  }
  for (int32_t t = 0; t < T; t++) {
    nt_n[t] = n_of[t];
    nt_off[t + 1] = nt_off[t] + nt_n[t];
  }
  total = nt_off[T];
  if (!(pos = fo__malloc_n(total + 1, sizeof *pos)) || !(packed = fo__malloc_n(total + 1, sizeof *packed))) {
    rc = FO_FAIL(FO_ENOMEM, "distributed gather");
    goto out;
  }
  /* owners; groups g = part * T + type, packed in that order */
  for (int32_t t = 0; t < T; t++) {
    const fo_dataset_t *v = fo_dataset_node_data(d, t);
    const int64_t *node = node_of[t];
    for (int64_t i = 0; i < nt_n[t]; i++) {
      int k = node[i] >= 0 && node[i] < v->n_nodes ? fo__owner(v, node[i]) : -1;
      if (FO_UNLIKELY(k < 0 || k >= P)) {
        rc = FO_FAIL(FO_EFORMAT, "distributed gather: node %lld of node type '%s' has book entry "
                     "%d, not a part in [0, %d)", (long long)node[i], fo_dataset_node_type_name(d, t), k, P);
        goto out;
      }
      cnt[(int64_t)k * T + t]++;
    }
  }
  for (int64_t g = 0; g < (int64_t)P * T; g++) start[g + 1] = start[g] + cnt[g];
  for (int32_t t = 0; t < T; t++) {
    const fo_dataset_t *v = fo_dataset_node_data(d, t);
    const int64_t *node = node_of[t];
    for (int64_t i = 0; i < nt_n[t]; i++) {
      const int64_t g = (int64_t)fo__owner(v, node[i]) * T + t;
      pos[nt_off[t] + i] = start[g]++;
      packed[pos[nt_off[t] + i]] = node[i];
    }
  }
  for (int64_t g = (int64_t)P * T; g > 0; g--) start[g] = start[g - 1];
  start[0] = 0;
  for (int k = 0; k < P; k++) {
    int32_t G = 0;
    if (k == me) continue;
    for (int32_t t = 0; t < T; t++) {
      const int64_t g = (int64_t)k * T + t;
      if (!cnt[g]) continue;
      groups[G].x = x[t] != NULL;
      groups[G].y = y && t == seed_type;
      groups[G].part = k;
      groups[G].n = cnt[g];
      groups[G].nodes = packed + start[g];
      gtype[G++] = t;
    }
    if (!G) continue;
    if (fo__cur_batch_stats)
      for (int32_t q = 0; q < G; q++) fo__cur_batch_stats->remote_rows += groups[q].n;
    calls[n_calls].machine = k;
    if ((rc = fo__enc_fetches_req(&calls[n_calls].req, k, groups, gtype, G)) != FO_OK) goto out;
    n_calls++;
  }
  if (n_calls && (rc = exchange(c->dd, calls, n_calls, -1)) != FO_OK) goto out;
  /* local rows */
  for (int32_t t = 0; t < T; t++) {
    const fo_dataset_t *v = fo_dataset_node_data(d, t), *mine = v->parts[me];
    const int64_t *node = node_of[t], rb = row_bytes[t];
    fo_features f;
    const int64_t *ly = NULL;
    int64_t lny, lnc;
    const bool want_y = y && t == seed_type;
    if (!cnt[(int64_t)me * T + t]) continue;
    if (x[t] && (rc = fo_dataset_features(mine, &f)) != FO_OK) goto out;
    if (want_y && (rc = fo_dataset_labels(mine, &ly, &lny, &lnc)) != FO_OK) goto out;
    for (int64_t i0 = 0; i0 < nt_n[t]; i0 += FO__COPY_CHUNK) {
      unsigned char *dst[FO__COPY_CHUNK];
      const unsigned char *src[FO__COPY_CHUNK];
      const int64_t i1 = nt_n[t] - i0 < FO__COPY_CHUNK ? nt_n[t] : i0 + FO__COPY_CHUNK;
      int64_t m = 0;
      for (int64_t i = i0; i < i1; i++) {
        int64_t u = node[i], row;
        if (fo__owner(v, u) != me) continue;
        row = fo__owner_row(v, me, u);
        if (FO_UNLIKELY(row < 0 || row >= mine->n_rows)) {
          rc = FO_FAIL(FO_EFORMAT, "part %d: node %lld of node type '%s' maps to row %lld of %lld",
                       me, (long long)u, fo_dataset_node_type_name(d, t), (long long)row,
                       (long long)mine->n_rows);
          goto out;
        }
        if (x[t]) {
          dst[m] = x[t] + i * rb;
          src[m++] = (const unsigned char *)f.data + row * rb;
        }
        if (want_y && i < n_y) y[i] = ly[row];
      }
      if (x[t]) fo__copy_rows(dst, src, m, (size_t)rb);
    }
  }
  /* remote rows: decode each machine's answer against the groups it was asked */
  for (int j = 0; j < n_calls; j++) {
    const int k = calls[j].machine;
    int32_t G = 0;
    for (int32_t t = 0; t < T; t++) {
      const int64_t g = (int64_t)k * T + t;
      if (!cnt[g]) continue;
      groups[G].x = x[t] != NULL;
      groups[G].y = y && t == seed_type;
      groups[G].n = cnt[g];
      gtype[G++] = t;
    }
    if ((rc = fo__dec_fetches_res(calls[j].resp, calls[j].resp_len, groups, G, res)) != FO_OK) {
      rc = fo__dist_fail(c->dd, fo__context(rc, "features from machine %d", k));
      goto out;
    }
    for (int32_t q = 0; q < G; q++) {
      const int32_t t = gtype[q];
      const fo_dataset_t *v = fo_dataset_node_data(d, t);
      const int64_t *node = node_of[t], rb = row_bytes[t];
      if (x[t] && res[q].row_bytes != rb) {
        rc = fo__dist_fail(c->dd, FO_FAIL(FO_EFORMAT, "machine %d sent %lld-byte rows of node type "
                                          "'%s', expected %lld", k, (long long)res[q].row_bytes,
                                          fo_dataset_node_type_name(d, t), (long long)rb));
        goto out;
      }
      for (int64_t i = 0; i < nt_n[t]; i++) {
        int64_t at;
        if (fo__owner(v, node[i]) != k) continue;
        at = pos[nt_off[t] + i] - start[(int64_t)k * T + t];
        if (x[t]) memcpy(x[t] + i * rb, res[q].x + at * rb, (size_t)rb);
        if (y && t == seed_type && i < n_y) y[i] = res[q].y[at];
      }
    }
  }
out:
  for (int j = 0; calls && j < P; j++) {
    fo__buf_free(&calls[j].req);
    free(calls[j].resp);
  }
  free(calls);
  free(cnt);
  free(start);
  free(pos);
  free(packed);
  free(nt_n);
  free(nt_off);
  free(groups);
  free(res);
  free(gtype);
  return rc;
}

int fo_dist_loader_create(fo_dist_t *dd, const fo_dataset_t *d, const fo_loader_opts *o,
                          fo_dist_tail tail, fo_loader_t **out) {
  fo_dist_loader_opts lo;
  fo_dist_loader_opts_init(&lo);
  lo.tail = tail;
  return fo_dist_loader_create_ex(dd, d, o, &lo, out);
}

int fo_dist_loader_create_ex(fo_dist_t *dd, const fo_dataset_t *d, const fo_loader_opts *o,
                             const fo_dist_loader_opts *dopts, fo_loader_t **out) {
  fo__loader_hooks h;
  fo_dist_loader_opts lo;
  loader_ctx *c;
  fo_dist_tail tail;
  int rc;
  *out = NULL;
  if (!dd || !d || !o) return FO_FAIL(FO_EINVAL, "create distributed loader: dd, d or o is NULL");
  if (dopts) lo = *dopts;
  else fo_dist_loader_opts_init(&lo);
  tail = lo.tail;
  /* first, before anything that may fail on one process only: the others wait here */
  if ((rc = check_loader_opts(dd, d, o, tail)) != FO_OK) return rc;
  if ((rc = check_dist_loader_opts(dd, &lo)) != FO_OK) return rc;
  if ((unsigned)tail > FO_DIST_TAIL_PAD) return FO_FAIL(FO_EINVAL, "unknown tail mode %d", (int)tail);
  if ((unsigned)lo.seed_placement > FO_DIST_SEEDS_LOCAL)
    return FO_FAIL(FO_EINVAL, "create distributed loader: unknown seed_placement %d (global 0, "
                   "local 1)", (int)lo.seed_placement);
  if (lo.cache_bytes < 0)
    return FO_FAIL(FO_EINVAL, "create distributed loader: cache_bytes %lld is negative",
                   (long long)lo.cache_bytes);
  if ((unsigned)lo.cache_policy > FO_DIST_CACHE_LOOKAHEAD)
    return FO_FAIL(FO_EINVAL, "create distributed loader: unknown cache_policy %d (degree 0, "
                   "frequency 1, lookahead 2)", (int)lo.cache_policy);
  if (lo.lookahead < 1 || lo.lookahead > 1024)
    return FO_FAIL(FO_EINVAL, "create distributed loader: lookahead %d is not in 1..1024",
                   (int)lo.lookahead);
  if (lo.pipeline < 0 || lo.pipeline > 64)
    return FO_FAIL(FO_EINVAL, "create distributed loader: pipeline %d is not in 0..64",
                   (int)lo.pipeline);
  if (lo.pipeline > 0 && (lo.cache_policy != FO_DIST_CACHE_LOOKAHEAD || lo.cache_bytes <= 0))
    return FO_FAIL(FO_EINVAL, "create distributed loader: pipeline %d needs cache_policy "
                   "lookahead with cache_bytes > 0 (its threads fill the look-ahead's plans)",
                   (int)lo.pipeline);
  /* the context outlives the loader: keep one per (dd, d) pair inside dd */
  if (!(c = calloc(1, sizeof *c))) return FO_FAIL(FO_ENOMEM, "distributed loader");
  c->dd = dd;
  c->d = d;
  /* an unknown input type fails in the loader's set-up, before any owner is asked */
  if (d->typed && o->input_type && (c->seed_type = fo_dataset_node_type_find(d, o->input_type)) < 0)
    c->seed_type = 0;
  if (lo.cache_bytes > 0 && d->parts && d->parts[dd->machine] &&
      (rc = fo__dist_cache_create(dd, d, lo.cache_bytes, (int)lo.cache_policy, lo.lookahead, lo.pipeline,
                                  o->features, o->labels, gather_plain, gather_typed_nodes,
                                  c->seed_type, c, &c->cache)) != FO_OK) {
    free(c);
    return fo__context(rc, "create distributed loader");
  }
  memset(&h, 0, sizeof h);
  h.ctx = c;
  h.make_sampler = make_sampler;
  h.gather = gather;
  h.prepare = prepare;
  h.take_sampled = lo.cache_policy == FO_DIST_CACHE_LOOKAHEAD ? take_sampled : NULL;
  h.gather_typed = d->typed ? gather_typed : NULL;
  h.shard = dd->rank;
  h.n_shards = dd->size;
  h.tail = tail == FO_DIST_TAIL_DROP ? FO__TAIL_DROP : tail == FO_DIST_TAIL_PAD ? FO__TAIL_PAD : FO__TAIL_KEEP;
  if (lo.seed_placement == FO_DIST_SEEDS_LOCAL) {
    h.local_seeds = true;
    h.machine = dd->machine;
    h.n_machines = dd->n_machines;
    h.local_rank = dd->local_rank;
    h.local_size = dd->local_size;
    h.owner = owner_of;
    h.shard = 0;
    h.n_shards = 1;
  }
  h.free_ctx = loader_ctx_free;
  rc = fo__loader_create(d, o, &h, out);
  if (rc != FO_OK) return fo__context(rc, "create distributed loader");
  return FO_OK;
}
