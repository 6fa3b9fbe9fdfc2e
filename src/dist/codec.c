/*
 * dist/codec.c: encoding and checked decoding of the distributed requests and responses (the
 * wire format is described in dist_internal.h). Decoders never trust a length, a count or an id:
 * each is checked against the message's size and the graph before anything is read.
 */
#include "dist/dist_internal.h"
#include "sample/link_internal.h"

void fo__buf_free(fo__buf *b) {
  free(b->w);
  memset(b, 0, sizeof *b);
}

static int put_begin(fo__buf *b, int kind, int64_t payload) {
  int rc;
  b->n = 0;
  if (payload < 0 || payload > INT64_MAX / 16) return FO_FAIL(FO_ERANGE, "message too large");
  if ((rc = fo__grow(&b->w, &b->cap, payload + 2, sizeof *b->w, "message")) != FO_OK) return rc;
  b->w[b->n++] = (int64_t)(FO_MSG_MAGIC | (uint64_t)kind << 32);
  b->w[b->n++] = payload;
  return FO_OK;
}

static void put(fo__buf *b, int64_t v) { b->w[b->n++] = v; }

static void put_array(fo__buf *b, const int64_t *a, int64_t n) {
  if (n) memcpy(b->w + b->n, a, (size_t)n * sizeof *a);
  b->n += n;
}

static int64_t words_for(int64_t bytes) { return (bytes + 7) / 8; }

/* The mode flags of a hop request (HOP and HOPS: 8 weighted, 16 temporal) and its temporal
 * words: the strategy | time_node << 8 | strict << 9, and the window. */
#define HOP_WEIGHTED 8
#define HOP_TEMPORAL 16
static int64_t mode_flags(const fo__hop_req *r) {
  return (r->weighted ? HOP_WEIGHTED : 0) | (r->temporal ? HOP_TEMPORAL : 0);
}
static void put_mode(fo__buf *b, const fo__hop_req *r) {
  if (!r->temporal) return;
  put(b, r->temporal | (r->time_node ? 1 << 8 : 0) | (r->strict ? 1 << 9 : 0));
  put(b, r->window);
}
/* Seed-edge exclusion (flag 32, HOP and HOPS: after a request's / group's node arrays): n_x,
 * xcount[n], xpos[n_x]. */
#define HOP_EXCL 32
static int64_t excl_sum(const fo__hop_req *r) {
  int64_t s = 0;
  for (int64_t i = 0; r->xcount && i < r->n; i++) s += r->xcount[i];
  return s;
}
static int64_t excl_words(const fo__hop_req *r) { return r->xcount ? 1 + r->n + excl_sum(r) : 0; }
static void put_excl(fo__buf *b, const fo__hop_req *r) {
  int64_t nx;
  if (!r->xcount) return;
  nx = excl_sum(r);
  put(b, nx);
  put_array(b, r->xcount, r->n);
  put_array(b, r->xpos, nx);
}
/* The exclusion block at p[0..avail) of a request of n nodes into r; *used its words. */
static int get_excl(const int64_t *p, int64_t avail, int64_t n, fo__hop_req *r, int64_t *used) {
  int64_t nx, sum = 0;
  if (avail < 1 + n || (nx = p[0]) < 0 || nx > avail - 1 - n)
    return FO_FAIL(FO_EFORMAT, "malformed hop request: exclusion block of %lld words for %lld nodes",
                   (long long)avail, (long long)n);
  r->xcount = p + 1;
  r->xpos = p + 1 + n;
  for (int64_t i = 0; i < n; i++) {
    const int64_t c = r->xcount[i];
    if (c < 0 || c > nx - sum)
      return FO_FAIL(FO_EFORMAT, "malformed hop request: %lld excluded positions", (long long)c);
    for (int64_t q = sum; q < sum + c; q++)
      if (r->xpos[q] < 0 || (q > sum && r->xpos[q] <= r->xpos[q - 1]))
        return FO_FAIL(FO_EFORMAT, "malformed hop request: excluded position %lld", (long long)r->xpos[q]);
    sum += c;
  }
  if (sum != nx)
    return FO_FAIL(FO_EFORMAT, "malformed hop request: %lld excluded positions, %lld counted",
                   (long long)nx, (long long)sum);
  *used = 1 + n + nx;
  return FO_OK;
}

/* Words per node of a request: node, tree (disjoint), time (temporal). */
static int64_t node_words(const fo__hop_req *r) { return 1 + (r->disjoint ? 1 : 0) + (r->temporal ? 1 : 0); }

/* Decode the temporal words at p[0..1] into r (flags already read); a temporal request is
 * disjoint (one tree per seed and its time). */
static int get_mode(const int64_t *p, fo__hop_req *r) {
  const int64_t st = p[0] & 0xff;
  if ((p[0] & ~(int64_t)0x3ff) || st < 1 || st > FO_TEMPORAL_LAST || p[1] < -1 || !r->disjoint)
    return FO_FAIL(FO_EFORMAT, "malformed hop request: temporal mode %lld, window %lld%s",
                   (long long)p[0], (long long)p[1], r->disjoint ? "" : ", not disjoint");
  r->temporal = (int32_t)st;
  r->time_node = p[0] >> 8 & 1;
  r->strict = p[0] >> 9 & 1;
  r->window = p[1];
  return FO_OK;
}

int fo__enc_hop_req(fo__buf *b, const fo__hop_req *r) {
  int rc = put_begin(b, FO_MSG_HOP, 8 + (r->temporal ? 2 : 0) + r->n * node_words(r) + excl_words(r));
  if (rc != FO_OK) return rc;
  put(b, (int64_t)r->seed);
  put(b, (int64_t)r->epoch);
  put(b, (int64_t)r->batch);
  put(b, r->hop);
  put(b, r->fanout);
  put(b, (r->replace ? 1 : 0) | (r->disjoint ? 2 : 0) | mode_flags(r) | (r->xcount ? HOP_EXCL : 0));
  put(b, r->part);
  put(b, r->n);
  put_mode(b, r);
  put_array(b, r->nodes, r->n);
  if (r->disjoint) put_array(b, r->trees, r->n);
  if (r->temporal) put_array(b, r->times, r->n);
  put_excl(b, r);
  return FO_OK;
}

int fo__enc_hop_res(fo__buf *b, const fo__hop_res *r) {
  int rc = put_begin(b, FO_MSG_HOP_RESP, 2 + r->n + 2 * r->n_edges);
  if (rc != FO_OK) return rc;
  put(b, r->n);
  put(b, r->n_edges);
  put_array(b, r->counts, r->n);
  put_array(b, r->nbr, r->n_edges);
  put_array(b, r->eid, r->n_edges);
  return FO_OK;
}

int fo__enc_fetch_req(fo__buf *b, const fo__fetch_req *r) {
  int rc = put_begin(b, FO_MSG_FETCH, 3 + r->n);
  if (rc != FO_OK) return rc;
  put(b, (r->x ? 1 : 0) | (r->y ? 2 : 0));
  put(b, r->part);
  put(b, r->n);
  put_array(b, r->nodes, r->n);
  return FO_OK;
}

int fo__enc_fetch_res(fo__buf *b, const fo__fetch_res *r) {
  int64_t xw = r->x ? words_for(r->n * r->row_bytes) : 0;
  int rc = put_begin(b, FO_MSG_FETCH_RESP, 4 + xw + (r->y ? r->n : 0));
  if (rc != FO_OK) return rc;
  put(b, r->n);
  put(b, r->row_bytes);
  put(b, r->x ? 1 : 0);
  put(b, r->y ? 1 : 0);
  if (xw) {
    b->w[b->n + xw - 1] = 0; /* padding */
    memcpy(b->w + b->n, r->x, (size_t)(r->n * r->row_bytes));
    b->n += xw;
  }
  if (r->y) put_array(b, r->y, r->n);
  return FO_OK;
}

int fo__enc_error(fo__buf *b, int status, const char *msg) {
  int64_t len = (int64_t)strlen(msg), mw = words_for(len);
  int rc = put_begin(b, FO_MSG_ERROR, 2 + mw);
  if (rc != FO_OK) return rc;
  put(b, status);
  put(b, len);
  if (mw) {
    b->w[b->n + mw - 1] = 0;
    memcpy(b->w + b->n, msg, (size_t)len);
    b->n += mw;
  }
  return FO_OK;
}

/* The payload of a message of `kind`: *p words, *np of them. */
static int open_msg(const void *msg, size_t len, int kind, const int64_t **p, int64_t *np) {
  const int64_t *w = msg;
  if (!msg || ((uintptr_t)msg & 7) || len % 8 || len < 16)
    return FO_FAIL(FO_EFORMAT, "malformed message: %zu bytes", len);
  if ((uint64_t)w[0] != (FO_MSG_MAGIC | (uint64_t)kind << 32))
    return FO_FAIL(FO_EFORMAT, "malformed message: header %016llx, expected kind %d",
                   (unsigned long long)w[0], kind);
  if (w[1] < 0 || (uint64_t)w[1] != len / 8 - 2)
    return FO_FAIL(FO_EFORMAT, "malformed message: says %lld words, has %zu", (long long)w[1],
                   len / 8 - 2);
  *p = w + 2;
  *np = w[1];
  return FO_OK;
}

int fo__msg_kind(const void *msg, size_t len) {
  const int64_t *w = msg;
  uint64_t h;
  if (!msg || ((uintptr_t)msg & 7) || len % 8 || len < 16)
    return FO_FAIL(FO_EFORMAT, "malformed message: %zu bytes", len);
  h = (uint64_t)w[0];
  if ((h & 0xffffffffu) != FO_MSG_MAGIC || (h >> 32) < FO_MSG_HOP || (h >> 32) > FO_MSG_LABEL_RESP)
    return FO_FAIL(FO_EFORMAT, "malformed message: header %016llx", (unsigned long long)h);
  return (int)(h >> 32);
}

static int check_nodes(const int64_t *a, int64_t n, int64_t n_nodes, const char *what) {
  for (int64_t i = 0; i < n; i++)
    if (a[i] < 0 || a[i] >= n_nodes)
      return FO_FAIL(FO_EFORMAT, "malformed message: %s[%lld] = %lld is not a node id",
                     what, (long long)i, (long long)a[i]);
  return FO_OK;
}

int fo__dec_hop_req(const void *msg, size_t len, int64_t n_nodes, int32_t n_parts, fo__hop_req *r) {
  const int64_t *p;
  int64_t np, n;
  int rc;
  memset(r, 0, sizeof *r);
  if ((rc = open_msg(msg, len, FO_MSG_HOP, &p, &np)) != FO_OK) return rc;
  if (np < 8) return FO_FAIL(FO_EFORMAT, "malformed hop request: %lld words", (long long)np);
  n = p[7];
  r->disjoint = p[5] & 2;
  r->weighted = p[5] & HOP_WEIGHTED;
  if (p[3] < 0 || p[3] >= 64 || p[4] < -1 || p[4] > INT32_MAX ||
      p[5] & ~(3 | HOP_WEIGHTED | HOP_TEMPORAL | HOP_EXCL) || p[6] < 0 || p[6] >= n_parts)
    return FO_FAIL(FO_EFORMAT, "malformed hop request: hop %lld, fanout %lld, flags %lld, part %lld",
                   (long long)p[3], (long long)p[4], (long long)p[5], (long long)p[6]);
  if (p[5] & HOP_TEMPORAL) {
    if (np < 10) return FO_FAIL(FO_EFORMAT, "malformed hop request: %lld words", (long long)np);
    if ((rc = get_mode(p + 8, r)) != FO_OK) return rc;
  }
  {
    const int64_t head = 8 + (r->temporal ? 2 : 0), per = node_words(r);
    const bool excl = p[5] & HOP_EXCL;
    int64_t used = 0;
    if (n < 0 || n > (np - head) / per || (!excl && np - head != n * per))
      return FO_FAIL(FO_EFORMAT, "malformed hop request: %lld nodes in %lld words", (long long)n,
                     (long long)np);
    if (excl && ((rc = get_excl(p + head + n * per, np - head - n * per, n, r, &used)) != FO_OK ||
                 used != np - head - n * per))
      return rc != FO_OK ? rc : FO_FAIL(FO_EFORMAT, "malformed hop request: words after the exclusion");
    p += head - 8; /* the node arrays follow the temporal words */
  }
  {
    const int64_t *h = (const int64_t *)msg + 2; /* the fixed header */
    r->seed = (uint64_t)h[0];
    r->epoch = (uint64_t)h[1];
    r->batch = (uint64_t)h[2];
    r->hop = (int32_t)h[3];
    r->fanout = (int32_t)h[4];
    r->replace = h[5] & 1;
    r->part = (int32_t)h[6];
  }
  r->n = n;
  r->nodes = p + 8;
  r->trees = r->disjoint ? p + 8 + n : NULL;
  r->times = r->temporal ? p + 8 + 2 * n : NULL;
  if ((rc = check_nodes(r->nodes, n, n_nodes, "nodes")) != FO_OK) return rc;
  for (int64_t i = 0; r->trees && i < n; i++)
    if (r->trees[i] < 0 || r->trees[i] >= ((int64_t)1 << 55))
      return FO_FAIL(FO_EFORMAT, "malformed hop request: tree %lld", (long long)r->trees[i]);
  return FO_OK;
}

int fo__dec_hop_res(const void *msg, size_t len, int64_t n_nodes, int64_t n_edges, fo__hop_res *r) {
  const int64_t *p;
  int64_t np, n, E, sum = 0;
  int rc;
  memset(r, 0, sizeof *r);
  if (fo__msg_kind(msg, len) == FO_MSG_ERROR) return fo__dec_error(msg, len);
  if ((rc = open_msg(msg, len, FO_MSG_HOP_RESP, &p, &np)) != FO_OK) return rc;
  if (np < 2) return FO_FAIL(FO_EFORMAT, "malformed hop response: %lld words", (long long)np);
  n = p[0];
  E = p[1];
  if (n < 0 || E < 0 || n > np || E > np || 2 + n + 2 * E != np)
    return FO_FAIL(FO_EFORMAT, "malformed hop response: %lld nodes, %lld edges in %lld words",
                   (long long)n, (long long)E, (long long)np);
  r->n = n;
  r->n_edges = E;
  r->counts = p + 2;
  r->nbr = p + 2 + n;
  r->eid = p + 2 + n + E;
  for (int64_t i = 0; i < n; i++) {
    if (r->counts[i] < 0 || r->counts[i] > E)
      return FO_FAIL(FO_EFORMAT, "malformed hop response: count %lld", (long long)r->counts[i]);
    sum += r->counts[i];
  }
  if (sum != E) return FO_FAIL(FO_EFORMAT, "malformed hop response: counts sum to %lld, %lld edges", (long long)sum, (long long)E);
  if ((rc = check_nodes(r->nbr, E, n_nodes, "neighbors")) != FO_OK) return rc;
  for (int64_t e = 0; e < E; e++)
    if (r->eid[e] < 0 || r->eid[e] >= n_edges)
      return FO_FAIL(FO_EFORMAT, "malformed hop response: edge id %lld", (long long)r->eid[e]);
  return FO_OK;
}

int fo__dec_fetch_req(const void *msg, size_t len, int64_t n_nodes, int32_t n_parts, fo__fetch_req *r) {
  const int64_t *p;
  int64_t np;
  int rc;
  memset(r, 0, sizeof *r);
  if ((rc = open_msg(msg, len, FO_MSG_FETCH, &p, &np)) != FO_OK) return rc;
  if (np < 3 || p[0] & ~3 || p[1] < 0 || p[1] >= n_parts || p[2] < 0 || p[2] != np - 3)
    return FO_FAIL(FO_EFORMAT, "malformed fetch request");
  r->x = p[0] & 1;
  r->y = p[0] & 2;
  r->part = (int32_t)p[1];
  r->n = p[2];
  r->nodes = p + 3;
  return check_nodes(r->nodes, r->n, n_nodes, "nodes");
}

int fo__dec_fetch_res(const void *msg, size_t len, int64_t want_n, fo__fetch_res *r) {
  const int64_t *p;
  int64_t np, n, rb, xw;
  int rc;
  memset(r, 0, sizeof *r);
  if (fo__msg_kind(msg, len) == FO_MSG_ERROR) return fo__dec_error(msg, len);
  if ((rc = open_msg(msg, len, FO_MSG_FETCH_RESP, &p, &np)) != FO_OK) return rc;
  if (np < 4) return FO_FAIL(FO_EFORMAT, "malformed fetch response");
  n = p[0];
  rb = p[1];
  if (n != want_n || rb < 0 || rb > ((int64_t)1 << 30) || (p[2] & ~1) || (p[3] & ~1) ||
      (n && rb > (INT64_MAX / 2) / n))
    return FO_FAIL(FO_EFORMAT, "malformed fetch response: %lld rows of %lld bytes (asked %lld)",
                   (long long)n, (long long)rb, (long long)want_n);
  xw = p[2] ? words_for(n * rb) : 0;
  if (4 + xw + (p[3] ? n : 0) != np) return FO_FAIL(FO_EFORMAT, "malformed fetch response: size");
  r->n = n;
  r->row_bytes = rb;
  r->x = p[2] ? (const unsigned char *)(p + 4) : NULL;
  r->y = p[3] ? p + 4 + xw : NULL;
  return FO_OK;
}

int fo__dec_error(const void *msg, size_t len) {
  const int64_t *p;
  int64_t np, status, mlen;
  char text[1024];
  int rc;
  if ((rc = open_msg(msg, len, FO_MSG_ERROR, &p, &np)) != FO_OK) return rc;
  if (np < 2) return FO_FAIL(FO_EFORMAT, "malformed error response");
  status = p[0];
  mlen = p[1];
  if (status >= 0 || status < FO_EINTERNAL || mlen < 0 || 2 + words_for(mlen) != np)
    return FO_FAIL(FO_EFORMAT, "malformed error response");
  snprintf(text, sizeof text, "%.*s", (int)(mlen < 1000 ? mlen : 1000), (const char *)(p + 2));
  return fo_set_error((int)status, text);
}

/* ---- typed datasets: every edge type's (node type's) groups in one message ------------------ */

/* Nodes of the frontier (in) or neighbor side of edge type et in direction `out`. */
static int64_t side_nodes(const fo_dataset_t *d, int32_t et, bool out, bool frontier) {
  fo_edge_type ty;
  fo_dataset_edge_type(d, et, &ty);
  return fo_dataset_num_nodes(fo_dataset_node_data(d, (out == frontier) ? ty.src_type : ty.dst_type));
}

int fo__enc_hops_req(fo__buf *b, const fo__hop_req *g, int32_t n_groups) {
  int64_t payload = 7 + (g[0].temporal ? 2 : 0);
  bool ex = false; /* the exclusion block: in every group when any group has one */
  int rc;
  for (int32_t i = 0; i < n_groups; i++) ex |= g[i].xcount != NULL;
  for (int32_t i = 0; i < n_groups; i++)
    payload += 3 + g[i].n * node_words(&g[0]) + (ex ? 1 + g[i].n + excl_sum(&g[i]) : 0);
  if ((rc = put_begin(b, FO_MSG_HOPS, payload)) != FO_OK) return rc;
  put(b, (int64_t)g[0].seed);
  put(b, (int64_t)g[0].epoch);
  put(b, (int64_t)g[0].batch);
  put(b, g[0].hop);
  put(b, (g[0].replace ? 1 : 0) | (g[0].disjoint ? 2 : 0) | (g[0].out ? 4 : 0) | mode_flags(&g[0]) |
         (ex ? HOP_EXCL : 0));
  put(b, g[0].part);
  put(b, n_groups);
  put_mode(b, &g[0]);
  for (int32_t i = 0; i < n_groups; i++) {
    put(b, g[i].etype);
    put(b, g[i].fanout);
    put(b, g[i].n);
    put_array(b, g[i].nodes, g[i].n);
    if (g[0].disjoint) put_array(b, g[i].trees, g[i].n);
    if (g[0].temporal) put_array(b, g[i].times, g[i].n);
    if (ex) {
      const int64_t nx = excl_sum(&g[i]);
      put(b, nx);
      for (int64_t j = 0; j < g[i].n; j++) put(b, g[i].xcount ? g[i].xcount[j] : 0);
      put_array(b, g[i].xpos, g[i].xcount ? nx : 0);
    }
  }
  return FO_OK;
}

int fo__dec_hops_req(const void *msg, size_t len, const fo_dataset_t *d, fo__hop_req *g,
                     int32_t max_groups, int32_t *n_groups) {
  const int64_t *p;
  int64_t np, at = 7, per;
  int32_t G;
  fo__hop_req mode;
  int rc;
  *n_groups = 0;
  if ((rc = open_msg(msg, len, FO_MSG_HOPS, &p, &np)) != FO_OK) return rc;
  if (np < 7) return FO_FAIL(FO_EFORMAT, "malformed hop request: %lld words", (long long)np);
  if (p[3] < 0 || p[3] >= 64 || p[4] & ~(7 | HOP_WEIGHTED | HOP_TEMPORAL | HOP_EXCL) || p[5] < 0 ||
      p[5] >= d->n_parts || p[6] < 0 || p[6] > max_groups)
    return FO_FAIL(FO_EFORMAT, "malformed hop request: hop %lld, flags %lld, part %lld, %lld "
                   "edge types", (long long)p[3], (long long)p[4], (long long)p[5], (long long)p[6]);
  memset(&mode, 0, sizeof mode);
  mode.disjoint = p[4] & 2;
  mode.weighted = p[4] & HOP_WEIGHTED;
  if (p[4] & HOP_TEMPORAL) {
    if (np < 9) return FO_FAIL(FO_EFORMAT, "malformed hop request: %lld words", (long long)np);
    if ((rc = get_mode(p + 7, &mode)) != FO_OK) return rc;
    at = 9;
  }
  per = node_words(&mode);
  G = (int32_t)p[6];
  for (int32_t i = 0; i < G; i++) {
    fo__hop_req *r = &g[i];
    int64_t n, et, bound;
    memset(r, 0, sizeof *r);
    r->seed = (uint64_t)p[0];
    r->epoch = (uint64_t)p[1];
    r->batch = (uint64_t)p[2];
    r->hop = (int32_t)p[3];
    r->replace = p[4] & 1;
    r->disjoint = p[4] & 2;
    r->out = p[4] & 4;
    r->part = (int32_t)p[5];
    r->weighted = mode.weighted;
    r->temporal = mode.temporal;
    r->time_node = mode.time_node;
    r->strict = mode.strict;
    r->window = mode.window;
    if (np - at < 3) return FO_FAIL(FO_EFORMAT, "malformed hop request: group %d cut short", (int)i);
    et = p[at];
    n = p[at + 2];
    if (et < 0 || et >= d->n_etypes || (i && et <= g[i - 1].etype) || p[at + 1] < -1 ||
        p[at + 1] > INT32_MAX || n < 0 || n > (np - at - 3) / per)
      return FO_FAIL(FO_EFORMAT, "malformed hop request: group %d: edge type %lld, fanout %lld, "
                     "%lld nodes", (int)i, (long long)et, (long long)p[at + 1], (long long)n);
    r->etype = (int32_t)et;
    r->fanout = (int32_t)p[at + 1];
    r->n = n;
    r->nodes = p + at + 3;
    r->trees = r->disjoint ? p + at + 3 + n : NULL;
    r->times = r->temporal ? p + at + 3 + 2 * n : NULL;
    at += 3 + n * per;
    if (p[4] & HOP_EXCL) {
      int64_t used;
      if ((rc = get_excl(p + at, np - at, n, r, &used)) != FO_OK) return rc;
      at += used;
    }
    bound = side_nodes(d, r->etype, r->out, true);
    if ((rc = check_nodes(r->nodes, n, bound, "nodes")) != FO_OK) return rc;
    for (int64_t j = 0; r->trees && j < n; j++)
      if (r->trees[j] < 0 || r->trees[j] >= ((int64_t)1 << 55))
        return FO_FAIL(FO_EFORMAT, "malformed hop request: tree %lld", (long long)r->trees[j]);
  }
  if (at != np)
    return FO_FAIL(FO_EFORMAT, "malformed hop request: %lld words after the groups", (long long)(np - at));
  *n_groups = G;
  return FO_OK;
}

int fo__enc_hops_res_begin(fo__buf *b) {
  int rc = put_begin(b, FO_MSG_HOPS_RESP, 1);
  if (rc == FO_OK) put(b, 0);
  return rc;
}

int fo__enc_hops_res_add(fo__buf *b, const fo__hop_res *r) {
  const int64_t words = 2 + r->n + 2 * r->n_edges;
  int rc;
  if (words > INT64_MAX / 16 - b->n) return FO_FAIL(FO_ERANGE, "message too large");
  if ((rc = fo__grow(&b->w, &b->cap, b->n + words, sizeof *b->w, "message")) != FO_OK) return rc;
  put(b, r->n);
  put(b, r->n_edges);
  put_array(b, r->counts, r->n);
  put_array(b, r->nbr, r->n_edges);
  put_array(b, r->eid, r->n_edges);
  b->w[1] += words; /* payload words */
  b->w[2]++;        /* groups */
  return FO_OK;
}

int fo__dec_hops_res(const void *msg, size_t len, const fo_dataset_t *d, const fo__hop_req *g,
                     int32_t n_groups, fo__hop_res *res) {
  const int64_t *p;
  int64_t np, at = 1;
  int rc;
  if (fo__msg_kind(msg, len) == FO_MSG_ERROR) return fo__dec_error(msg, len);
  if ((rc = open_msg(msg, len, FO_MSG_HOPS_RESP, &p, &np)) != FO_OK) return rc;
  if (np < 1 || p[0] != n_groups)
    return FO_FAIL(FO_EFORMAT, "malformed hop response: %lld edge types, asked %d",
                   np < 1 ? -1LL : (long long)p[0], (int)n_groups);
  for (int32_t i = 0; i < n_groups; i++) {
    fo__hop_res *r = &res[i];
    int64_t n, E, sum = 0, nb, m;
    fo_edge_type ty;
    memset(r, 0, sizeof *r);
    if (np - at < 2) return FO_FAIL(FO_EFORMAT, "malformed hop response: group %d cut short", (int)i);
    n = p[at];
    E = p[at + 1];
    if (n != g[i].n || E < 0 || E > (np - at - 2 - n) / 2)
      return FO_FAIL(FO_EFORMAT, "malformed hop response: group %d: %lld nodes (asked %lld), %lld "
                     "edges", (int)i, (long long)n, (long long)g[i].n, (long long)E);
    r->n = n;
    r->n_edges = E;
    r->counts = p + at + 2;
    r->nbr = r->counts + n;
    r->eid = r->nbr + E;
    at += 2 + n + 2 * E;
    for (int64_t j = 0; j < n; j++) {
      if (r->counts[j] < 0 || r->counts[j] > E)
        return FO_FAIL(FO_EFORMAT, "malformed hop response: count %lld", (long long)r->counts[j]);
      sum += r->counts[j];
    }
    if (sum != E)
      return FO_FAIL(FO_EFORMAT, "malformed hop response: counts sum to %lld, %lld edges",
                     (long long)sum, (long long)E);
    nb = side_nodes(d, g[i].etype, g[i].out, false);
    fo_dataset_edge_type(d, g[i].etype, &ty);
    m = ty.n_edges;
    if ((rc = check_nodes(r->nbr, E, nb, "neighbors")) != FO_OK) return rc;
    for (int64_t e = 0; e < E; e++)
      if (r->eid[e] < 0 || r->eid[e] >= m)
        return FO_FAIL(FO_EFORMAT, "malformed hop response: edge id %lld", (long long)r->eid[e]);
  }
  if (at != np) return FO_FAIL(FO_EFORMAT, "malformed hop response: size");
  return FO_OK;
}

int fo__enc_fetches_req(fo__buf *b, int32_t part, const fo__fetch_req *g, const int32_t *ntype,
                        int32_t n_groups) {
  int64_t payload = 2;
  int rc;
  for (int32_t i = 0; i < n_groups; i++) payload += 3 + g[i].n;
  if ((rc = put_begin(b, FO_MSG_FETCHES, payload)) != FO_OK) return rc;
  put(b, part);
  put(b, n_groups);
  for (int32_t i = 0; i < n_groups; i++) {
    put(b, ntype[i]);
    put(b, (g[i].x ? 1 : 0) | (g[i].y ? 2 : 0));
    put(b, g[i].n);
    put_array(b, g[i].nodes, g[i].n);
  }
  return FO_OK;
}

int fo__dec_fetches_req(const void *msg, size_t len, const fo_dataset_t *d, fo__fetch_req *g,
                        int32_t *ntype, int32_t max_groups, int32_t *n_groups) {
  const int64_t *p;
  int64_t np, at = 2;
  int rc;
  *n_groups = 0;
  if ((rc = open_msg(msg, len, FO_MSG_FETCHES, &p, &np)) != FO_OK) return rc;
  if (np < 2 || p[0] < 0 || p[0] >= d->n_parts || p[1] < 0 || p[1] > max_groups)
    return FO_FAIL(FO_EFORMAT, "malformed fetch request");
  for (int32_t i = 0; i < (int32_t)p[1]; i++) {
    int64_t t, n;
    if (np - at < 3) return FO_FAIL(FO_EFORMAT, "malformed fetch request: group %d cut short", (int)i);
    t = p[at];
    n = p[at + 2];
    if (t < 0 || t >= d->n_ntypes || (i && t <= ntype[i - 1]) || p[at + 1] & ~3 || n < 0 ||
        n > np - at - 3)
      return FO_FAIL(FO_EFORMAT, "malformed fetch request: group %d: node type %lld, %lld nodes",
                     (int)i, (long long)t, (long long)n);
    ntype[i] = (int32_t)t;
    g[i].x = p[at + 1] & 1;
    g[i].y = p[at + 1] & 2;
    g[i].part = (int32_t)p[0];
    g[i].n = n;
    g[i].nodes = p + at + 3;
    at += 3 + n;
    if ((rc = check_nodes(g[i].nodes, n, fo_dataset_num_nodes(fo_dataset_node_data(d, (int32_t)t)),
                          "nodes")) != FO_OK)
      return rc;
  }
  if (at != np) return FO_FAIL(FO_EFORMAT, "malformed fetch request: size");
  *n_groups = (int32_t)p[1];
  return FO_OK;
}

int fo__enc_fetches_res_begin(fo__buf *b) {
  int rc = put_begin(b, FO_MSG_FETCHES_RESP, 1);
  if (rc == FO_OK) put(b, 0);
  return rc;
}

int fo__enc_fetches_res_add(fo__buf *b, const fo__fetch_res *r) {
  const int64_t xw = r->x ? words_for(r->n * r->row_bytes) : 0, words = 4 + xw + (r->y ? r->n : 0);
  int rc;
  if (words > INT64_MAX / 16 - b->n) return FO_FAIL(FO_ERANGE, "message too large");
  if ((rc = fo__grow(&b->w, &b->cap, b->n + words, sizeof *b->w, "message")) != FO_OK) return rc;
  put(b, r->n);
  put(b, r->row_bytes);
  put(b, r->x ? 1 : 0);
  put(b, r->y ? 1 : 0);
  if (xw) {
    b->w[b->n + xw - 1] = 0; /* padding */
    memcpy(b->w + b->n, r->x, (size_t)(r->n * r->row_bytes));
    b->n += xw;
  }
  if (r->y) put_array(b, r->y, r->n);
  b->w[1] += words;
  b->w[2]++;
  return FO_OK;
}

int fo__dec_fetches_res(const void *msg, size_t len, const fo__fetch_req *g, int32_t n_groups,
                        fo__fetch_res *res) {
  const int64_t *p;
  int64_t np, at = 1;
  int rc;
  if (fo__msg_kind(msg, len) == FO_MSG_ERROR) return fo__dec_error(msg, len);
  if ((rc = open_msg(msg, len, FO_MSG_FETCHES_RESP, &p, &np)) != FO_OK) return rc;
  if (np < 1 || p[0] != n_groups) return FO_FAIL(FO_EFORMAT, "malformed fetch response: groups");
  for (int32_t i = 0; i < n_groups; i++) {
    int64_t n, rb, xw;
    if (np - at < 4) return FO_FAIL(FO_EFORMAT, "malformed fetch response: group %d cut short", (int)i);
    n = p[at];
    rb = p[at + 1];
    if (n != g[i].n || rb < 0 || rb > ((int64_t)1 << 30) || (p[at + 2] & ~1) || (p[at + 3] & ~1) ||
        (n && rb > (INT64_MAX / 2) / n) || (p[at + 2] != 0) != g[i].x || (p[at + 3] != 0) != g[i].y)
      return FO_FAIL(FO_EFORMAT, "malformed fetch response: group %d: %lld rows of %lld bytes "
                     "(asked %lld)", (int)i, (long long)n, (long long)rb, (long long)g[i].n);
    xw = p[at + 2] ? words_for(n * rb) : 0;
    if (4 + xw + (p[at + 3] ? n : 0) > np - at) return FO_FAIL(FO_EFORMAT, "malformed fetch response: size");
    res[i].n = n;
    res[i].row_bytes = rb;
    res[i].x = p[at + 2] ? (const unsigned char *)(p + at + 4) : NULL;
    res[i].y = p[at + 3] ? p + at + 4 + xw : NULL;
    at += 4 + xw + (p[at + 3] ? n : 0);
  }
  if (at != np) return FO_FAIL(FO_EFORMAT, "malformed fetch response: size");
  return FO_OK;
}

/* ---- LINK: membership and positions of (row, neighbor) pairs ------------------------------- */

int fo__enc_link_req(fo__buf *b, const fo__link_req *r) {
  int rc;
  if (r->n < 0 || r->n > INT64_MAX / 64) return FO_FAIL(FO_ERANGE, "link request: %lld pairs", (long long)r->n);
  if ((rc = put_begin(b, FO_MSG_LINK, 2 + 3 * r->n)) != FO_OK) return rc;
  put(b, r->part);
  put(b, r->n);
  put_array(b, r->pairs, 3 * r->n);
  return FO_OK;
}

int fo__dec_link_req(const void *msg, size_t len, const fo_dataset_t *d, fo__link_req *r) {
  const int64_t *p;
  int64_t np, n;
  const int32_t E = fo_dataset_num_edge_types(d);
  int rc;
  memset(r, 0, sizeof *r);
  if ((rc = open_msg(msg, len, FO_MSG_LINK, &p, &np)) != FO_OK) return rc;
  if (np < 2 || p[0] < 0 || p[0] >= fo_dataset_num_parts(d))
    return FO_FAIL(FO_EFORMAT, "malformed link request: %lld words, part %lld", (long long)np,
                   np >= 1 ? (long long)p[0] : -1LL);
  n = p[1];
  if (n < 0 || n > np / 3 || 2 + 3 * n != np)
    return FO_FAIL(FO_EFORMAT, "malformed link request: %lld pairs in %lld words", (long long)n,
                   (long long)np);
  for (int64_t i = 0; i < n; i++) {
    const int64_t w = p[2 + 3 * i], row = p[3 + 3 * i], nbr = p[4 + 3 * i];
    const int64_t et = w & 0xffffffff;
    fo_edge_type ty;
    bool out;
    if ((w & ~(int64_t)(0xffffffff | FO__LINK_WANT_POS | FO__LINK_OUT)) || et >= E ||
        fo_dataset_edge_type(d, (int32_t)et, &ty) != FO_OK)
      return FO_FAIL(FO_EFORMAT, "malformed link request: pair %lld has word %lld (edge types: %d)",
                     (long long)i, (long long)w, (int)E);
    out = (w & FO__LINK_OUT) != 0; /* a CSR row: (src, dst) */
    if (row < 0 || row >= fo_dataset_num_nodes(fo_dataset_node_data(d, out ? ty.src_type : ty.dst_type)) ||
        nbr < 0 || nbr >= fo_dataset_num_nodes(fo_dataset_node_data(d, out ? ty.dst_type : ty.src_type)))
      return FO_FAIL(FO_EFORMAT, "malformed link request: pair %lld (%lld, %lld) is not a (%s) "
                     "pair of edge type '%s'", (long long)i, (long long)row, (long long)nbr,
                     out ? "src, dst" : "dst, src", ty.name);
  }
  r->part = (int32_t)p[0];
  r->n = n;
  r->pairs = p + 2;
  return FO_OK;
}

int fo__enc_link_res(fo__buf *b, const fo__link_res *r) {
  int rc;
  if (r->n < 0 || r->n_pos < 0 || r->n > INT64_MAX / 64 || r->n_pos > INT64_MAX / 64)
    return FO_FAIL(FO_ERANGE, "link response: %lld pairs, %lld positions", (long long)r->n,
                   (long long)r->n_pos);
  if ((rc = put_begin(b, FO_MSG_LINK_RESP, 2 + r->n + r->n_pos)) != FO_OK) return rc;
  put(b, r->n);
  put(b, r->n_pos);
  put_array(b, r->counts, r->n);
  put_array(b, r->pos, r->n_pos);
  return FO_OK;
}

int fo__dec_link_res(const void *msg, size_t len, const int64_t *pairs, int64_t want_n,
                     fo__link_res *r) {
  const int64_t *p;
  int64_t np, n, npos, sum = 0;
  int rc;
  memset(r, 0, sizeof *r);
  if (fo__msg_kind(msg, len) == FO_MSG_ERROR) return fo__dec_error(msg, len);
  if ((rc = open_msg(msg, len, FO_MSG_LINK_RESP, &p, &np)) != FO_OK) return rc;
  if (np < 2) return FO_FAIL(FO_EFORMAT, "malformed link response: %lld words", (long long)np);
  n = p[0];
  npos = p[1];
  if (n != want_n || n < 0 || npos < 0 || n > np || npos > np || 2 + n + npos != np)
    return FO_FAIL(FO_EFORMAT, "malformed link response: %lld pairs (asked %lld), %lld positions "
                   "in %lld words", (long long)n, (long long)want_n, (long long)npos, (long long)np);
  r->n = n;
  r->n_pos = npos;
  r->counts = p + 2;
  r->pos = p + 2 + n;
  for (int64_t i = 0; i < n; i++) {
    const int64_t c = r->counts[i];
    const bool want = pairs && (pairs[3 * i] & ((int64_t)1 << 32));
    if (c < 0 || (want && c > npos - sum) || (!want && c > 1))
      return FO_FAIL(FO_EFORMAT, "malformed link response: pair %lld has count %lld", (long long)i,
                     (long long)c);
    if (want)
      for (int64_t q = sum; q < sum + c; q++)
        if (r->pos[q] < 0 || (q > sum && r->pos[q] <= r->pos[q - 1]))
          return FO_FAIL(FO_EFORMAT, "malformed link response: pair %lld: position %lld", (long long)i,
                         (long long)r->pos[q]);
    if (want) sum += c;
  }
  if (sum != npos)
    return FO_FAIL(FO_EFORMAT, "malformed link response: counts give %lld positions, %lld sent",
                   (long long)sum, (long long)npos);
  return FO_OK;
}

/* ---- LABEL: supervision rows of anchors (ABLP) --------------------------------------------- */

int fo__enc_label_req(fo__buf *b, const fo__label_req *r) {
  int rc;
  if (r->n < 0 || r->n > INT64_MAX / 64) return FO_FAIL(FO_ERANGE, "label request: %lld anchors", (long long)r->n);
  if ((rc = put_begin(b, FO_MSG_LABEL, 4 + r->n)) != FO_OK) return rc;
  put(b, r->part);
  put(b, r->P);
  put(b, r->N);
  put(b, r->n);
  put_array(b, r->anchors, r->n);
  return FO_OK;
}

int fo__dec_label_req(const void *msg, size_t len, const fo_dataset_t *d, fo__label_req *r) {
  const int64_t *p;
  int64_t np, n, nA;
  const int32_t NL = fo_dataset_num_label_edge_types(d);
  fo_edge_type tp, tn;
  int rc;
  memset(r, 0, sizeof *r);
  if ((rc = open_msg(msg, len, FO_MSG_LABEL, &p, &np)) != FO_OK) return rc;
  if (np < 4 || p[0] < 0 || p[0] >= fo_dataset_num_parts(d) || p[1] < 0 || p[1] >= NL ||
      p[2] < -1 || p[2] >= NL)
    return FO_FAIL(FO_EFORMAT, "malformed label request: %lld words, part %lld, types %lld, %lld",
                   (long long)np, np >= 1 ? (long long)p[0] : -1LL, np >= 2 ? (long long)p[1] : -1LL,
                   np >= 3 ? (long long)p[2] : -1LL);
  if (fo_dataset_label_edge_type(d, (int32_t)p[1], &tp) != FO_OK || tp.label != FO_LABEL_POSITIVE)
    return FO_FAIL(FO_EFORMAT, "malformed label request: type %lld is not a positive labels-only type",
                   (long long)p[1]);
  if (p[2] >= 0 && (fo_dataset_label_edge_type(d, (int32_t)p[2], &tn) != FO_OK ||
                    tn.label != FO_LABEL_NEGATIVE || tn.src_type != tp.src_type ||
                    tn.dst_type != tp.dst_type))
    return FO_FAIL(FO_EFORMAT, "malformed label request: type %lld is not a negative labels-only "
                   "type of '%s''s node types", (long long)p[2], tp.name);
  n = p[3];
  if (n < 0 || n > np || 4 + n != np)
    return FO_FAIL(FO_EFORMAT, "malformed label request: %lld anchors in %lld words", (long long)n,
                   (long long)np);
  nA = fo_dataset_num_nodes(fo_dataset_node_data(d, tp.src_type));
  if ((rc = check_nodes(p + 4, n, nA, "anchors")) != FO_OK) return rc;
  r->part = (int32_t)p[0];
  r->P = (int32_t)p[1];
  r->N = (int32_t)p[2];
  r->n = n;
  r->anchors = p + 4;
  return FO_OK;
}

int fo__enc_label_res(fo__buf *b, const fo__label_res *r) {
  int rc;
  if (r->n < 0 || r->n_p < 0 || r->n_n < 0 || r->n > INT64_MAX / 64 || r->n_p > INT64_MAX / 64 ||
      r->n_n > INT64_MAX / 64)
    return FO_FAIL(FO_ERANGE, "label response: %lld anchors, %lld + %lld ids", (long long)r->n,
                   (long long)r->n_p, (long long)r->n_n);
  if ((rc = put_begin(b, FO_MSG_LABEL_RESP, 3 + 2 * r->n + r->n_p + r->n_n)) != FO_OK) return rc;
  put(b, r->n);
  put(b, r->n_p);
  put(b, r->n_n);
  put_array(b, r->pcount, r->n);
  put_array(b, r->ncount, r->n);
  put_array(b, r->pid, r->n_p);
  put_array(b, r->nid, r->n_n);
  return FO_OK;
}

int fo__dec_label_res(const void *msg, size_t len, int64_t want_n, bool want_neg, int64_t n_dst,
                      fo__label_res *r) {
  const int64_t *p;
  int64_t np, n, npp, nn, sp = 0, sn = 0;
  int rc;
  memset(r, 0, sizeof *r);
  if (fo__msg_kind(msg, len) == FO_MSG_ERROR) return fo__dec_error(msg, len);
  if ((rc = open_msg(msg, len, FO_MSG_LABEL_RESP, &p, &np)) != FO_OK) return rc;
  if (np < 3) return FO_FAIL(FO_EFORMAT, "malformed label response: %lld words", (long long)np);
  n = p[0];
  npp = p[1];
  nn = p[2];
  if (n != want_n || n < 0 || npp < 0 || nn < 0 || n > np / 2 || npp > np || nn > np ||
      3 + 2 * n + npp + nn != np)
    return FO_FAIL(FO_EFORMAT, "malformed label response: %lld anchors (asked %lld), %lld + %lld "
                   "ids in %lld words", (long long)n, (long long)want_n, (long long)npp,
                   (long long)nn, (long long)np);
  r->n = n;
  r->n_p = npp;
  r->n_n = nn;
  r->pcount = p + 3;
  r->ncount = p + 3 + n;
  r->pid = p + 3 + 2 * n;
  r->nid = r->pid + npp;
  for (int64_t i = 0; i < n; i++) {
    const int64_t a = r->pcount[i], b = r->ncount[i];
    if (a < 0 || a > npp - sp || b < 0 || b > nn - sn || (!want_neg && b))
      return FO_FAIL(FO_EFORMAT, "malformed label response: anchor %lld has counts %lld, %lld",
                     (long long)i, (long long)a, (long long)b);
    sp += a;
    sn += b;
  }
  if (sp != npp || sn != nn)
    return FO_FAIL(FO_EFORMAT, "malformed label response: counts give %lld + %lld ids, %lld + %lld "
                   "sent", (long long)sp, (long long)sn, (long long)npp, (long long)nn);
  if ((rc = check_nodes(r->pid, npp, n_dst, "positives")) != FO_OK ||
      (rc = check_nodes(r->nid, nn, n_dst, "negatives")) != FO_OK)
    return rc;
  return FO_OK;
}
