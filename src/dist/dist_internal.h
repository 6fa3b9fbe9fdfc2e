/*
 * dist/dist_internal.h: the distributed context, the wire format of its requests, the server
 * that answers them, and the transport interface (in-process: local.c; MPI: mpi.c).
 */
#ifndef FO_DIST_INTERNAL_H
#define FO_DIST_INTERNAL_H

#include "core/internal.h"
#include "loader/loader_internal.h"
#include "sample/sample_internal.h"
#include "store/store_internal.h"

#include <pthread.h>

/* ---- wire format (codec.c) -----------------------------------------------------------------
 *
 * Every message is a sequence of little-endian 64-bit words (so arrays inside are 8-aligned):
 *   word 0: magic FO_MSG_MAGIC | kind << 32;  word 1: payload words that follow.
 * HOP request:   seed, epoch, batch, hop, fanout (as int64), flags (1 replace, 2 disjoint,
 *                8 weighted, 16 temporal), part, n, [temporal: mode (strategy 1 uniform / 2
 *                last | 256 node times | 512 strict), window (-1 none)], nodes[n], trees[n]
 *                (disjoint only), times[n] (temporal only: the time bounding each node, its
 *                tree's seed time; a temporal request is disjoint).
 * Flag 32 (HOP and HOPS, link sampling's seed-edge exclusion): after a request's (a group's)
 *                node arrays: n_x, xcount[n], xpos[n_x] (positions each node's row must skip,
 *                ascending per node; fo__hop_req.xcount, .xpos).
 * HOP response:  n, E, counts[n], nbr[E], eid[E].
 * FETCH request: flags (1 x, 2 y), part, n, nodes[n].
 * FETCH response: n, row_bytes, x (n * row_bytes bytes, padded to words), y[n] (when asked).
 * ERROR response: status, message length, message bytes (padded).
 * Typed datasets (one message per machine per hop, and per batch, for every type):
 * HOPS request:  seed, epoch, batch, hop, flags (1 replace, 2 disjoint, 4 edge_dir out,
 *                8 weighted, 16 temporal), part, G, [temporal: mode, window as in HOP], then G
 *                groups in increasing edge type: etype, fanout, n, nodes[n] (ids local to the
 *                frontier's node type), trees[n] (disjoint only), times[n] (temporal only).
 * The server answers with the kernel of the request's mode (fo__sampler_hop), so a weighted or
 * temporal sampler's remote hops draw what its local kernel would; a part that lacks what the
 * mode needs (weights, edge times, node times) answers with an ERROR naming it.
 * HOPS response: G, then per group: n, E, counts[n], nbr[E], eid[E] (ids of the edge type).
 * FETCHES request: part, G, then G groups in increasing node type: ntype, flags (1 x, 2 y), n,
 *                nodes[n].
 * FETCHES response: G, then per group: n, row_bytes, has_x, has_y, x (padded), y[n].
 * Link sampling (dist/link_dist.c: strict-negative membership and seed-edge exclusion of rows
 * another machine owns; one message per remote machine per redraw round):
 * LINK request:  part, n, then n pairs of 3 words: etype | want << 32 (want: 1 = every
 *                position, 0 = membership only), row (a node of the edge type's dst type: its
 *                CSC row), nbr (a node of its src type).
 * LINK response: n, n_pos, counts[n] (want: how many positions; else 0 or 1, whether the pair
 *                is an edge), pos[n_pos] (the want pairs' positions in pair order, ascending per
 *                pair: positions of the part's CSC, as its hop kernel sees them).
 * ABLP (dist/ablp_dist.c: supervision rows of anchors another machine owns; one message per
 * remote machine per batch):
 * LABEL request:  part, P, N (labels-only edge type indices; N = -1: no hard negatives), n,
 *                anchors[n] (ids of P's source node type, owned by the part).
 * LABEL response: n, n_p, n_n, pcount[n], ncount[n], pid[n_p], nid[n_n] (each anchor's row of
 *                P, then of N, in stored order; ids of P's destination node type).
 * Decoders check the magic, the kind, every count against the message length and the ids
 * against the graph: a malformed message is FO_EFORMAT, never a crash. */
#define FO_MSG_MAGIC UINT64_C(0x4d4f4631) /* "1FOM" */
enum { FO_MSG_HOP = 1, FO_MSG_FETCH = 2, FO_MSG_HOP_RESP = 3, FO_MSG_FETCH_RESP = 4,
       FO_MSG_ERROR = 5, FO_MSG_HOPS = 6, FO_MSG_HOPS_RESP = 7, FO_MSG_FETCHES = 8,
       FO_MSG_FETCHES_RESP = 9, FO_MSG_LINK = 10, FO_MSG_LINK_RESP = 11,
       FO_MSG_LABEL = 12, FO_MSG_LABEL_RESP = 13 };

typedef struct fo__buf {
  int64_t *w; /* words */
  int64_t n, cap;
} fo__buf;

void fo__buf_free(fo__buf *b);

typedef struct fo__fetch_req {
  bool x, y;
  int32_t part;
  int64_t n;
  const int64_t *nodes;
} fo__fetch_req;

typedef struct fo__fetch_res {
  int64_t n, row_bytes;
  const unsigned char *x; /* [n * row_bytes] or NULL */
  const int64_t *y;       /* [n] or NULL */
} fo__fetch_res;

int fo__enc_hop_req(fo__buf *b, const fo__hop_req *r);
int fo__enc_hop_res(fo__buf *b, const fo__hop_res *r);
int fo__enc_fetch_req(fo__buf *b, const fo__fetch_req *r);
int fo__enc_fetch_res(fo__buf *b, const fo__fetch_res *r);
int fo__enc_error(fo__buf *b, int status, const char *msg);

/* Typed: groups of one machine's hop (fo__hop_req.etype, .out; the other fields shared) and
 * fetch; the responses are built group by group (begin, then add per group). Decoders check
 * every id against its type's count in `d` (the partitioned dataset) and at most max_groups. */
int fo__enc_hops_req(fo__buf *b, const fo__hop_req *groups, int32_t n_groups);
int fo__dec_hops_req(const void *msg, size_t len, const fo_dataset_t *d, fo__hop_req *groups,
                     int32_t max_groups, int32_t *n_groups);
int fo__enc_hops_res_begin(fo__buf *b);
int fo__enc_hops_res_add(fo__buf *b, const fo__hop_res *r);
int fo__dec_hops_res(const void *msg, size_t len, const fo_dataset_t *d, const fo__hop_req *groups,
                     int32_t n_groups, fo__hop_res *res);
int fo__enc_fetches_req(fo__buf *b, int32_t part, const fo__fetch_req *groups, const int32_t *ntype,
                        int32_t n_groups);
int fo__dec_fetches_req(const void *msg, size_t len, const fo_dataset_t *d, fo__fetch_req *groups,
                        int32_t *ntype, int32_t max_groups, int32_t *n_groups);
int fo__enc_fetches_res_begin(fo__buf *b);
int fo__enc_fetches_res_add(fo__buf *b, const fo__fetch_res *r);
int fo__dec_fetches_res(const void *msg, size_t len, const fo__fetch_req *groups, int32_t n_groups,
                        fo__fetch_res *res);

/* LINK: pairs are a view into the message (3 words each, as above). */
typedef struct fo__link_req {
  int32_t part;
  int64_t n;
  const int64_t *pairs;
} fo__link_req;
typedef struct fo__link_res {
  int64_t n, n_pos;
  const int64_t *counts, *pos;
} fo__link_res;
int fo__enc_link_req(fo__buf *b, const fo__link_req *r);
/* Checks the part, each pair's edge type, flag and ids against `d` (the partitioned dataset). */
int fo__dec_link_req(const void *msg, size_t len, const fo_dataset_t *d, fo__link_req *r);
int fo__enc_link_res(fo__buf *b, const fo__link_res *r);
/* Checks n against the request (`pairs`, want_n of them), the counts (membership ones <= 1),
 * their sum, and each want pair's positions (>= 0, strictly ascending). An ERROR message sets
 * its error. */
int fo__dec_link_res(const void *msg, size_t len, const int64_t *pairs, int64_t want_n,
                     fo__link_res *r);

/* LABEL: anchors and rows are views into the message. */
typedef struct fo__label_req {
  int32_t part, P, N;
  int64_t n;
  const int64_t *anchors;
} fo__label_req;
typedef struct fo__label_res {
  int64_t n, n_p, n_n;
  const int64_t *pcount, *ncount, *pid, *nid;
} fo__label_res;
int fo__enc_label_req(fo__buf *b, const fo__label_req *r);
/* Checks the part, P (a positive labels-only type of `d`), N (-1 or a negative one from P's
 * source to its destination type) and every anchor id against `d` (the partitioned dataset). */
int fo__dec_label_req(const void *msg, size_t len, const fo_dataset_t *d, fo__label_req *r);
int fo__enc_label_res(fo__buf *b, const fo__label_res *r);
/* Checks n against want_n, the counts (>= 0, N < 0: all 0) against n_p and n_n, and every id
 * against [0, n_dst). An ERROR message sets its error. */
int fo__dec_label_res(const void *msg, size_t len, int64_t want_n, bool want_neg, int64_t n_dst,
                      fo__label_res *r);

/* Kind of a message (FO_MSG_*), or FO_EFORMAT. */
int fo__msg_kind(const void *msg, size_t len);
/* Decoders: views into `msg` (8-aligned); n_nodes / n_edges bound the ids. */
int fo__dec_hop_req(const void *msg, size_t len, int64_t n_nodes, int32_t n_parts, fo__hop_req *r);
int fo__dec_hop_res(const void *msg, size_t len, int64_t n_nodes, int64_t n_edges, fo__hop_res *r);
int fo__dec_fetch_req(const void *msg, size_t len, int64_t n_nodes, int32_t n_parts, fo__fetch_req *r);
int fo__dec_fetch_res(const void *msg, size_t len, int64_t want_n, fo__fetch_res *r);
/* An ERROR message: sets this thread's error (status and message) and returns the status;
 * FO_EFORMAT when it is malformed. */
int fo__dec_error(const void *msg, size_t len);

/* ---- the server (server.c) ------------------------------------------------------------------ */

/* Answers requests for one part from a dataset that has it open. One per serving thread. */
typedef struct fo__server {
  const fo_dataset_t *d;
  int32_t part;
  fo_sampler_t *s;    /* one-hop kernel over the part */
  fo_sampler_t *s_out; /* typed datasets: the kernel of edge_dir out (made when first asked) */
  fo__hop_req *groups; /* typed: [n_etypes] a request's groups */
  fo__fetch_req *fgroups; /* typed: [n_ntypes] */
  int32_t *fntype;
  fo_batch_t *scratch;
  fo__buf out;
  unsigned char *xbuf;
  int64_t cap_x;
  int64_t *ybuf;
  int64_t cap_y;
  int64_t max_answer_words; /* 0: no limit; else a hop request with replacement whose answer
                               could exceed it (n x fanout edges) is refused before sampling */
  int64_t *lcount, *lpos;   /* LINK answers (link_dist.c) */
  int64_t cap_lcount, cap_lpos;
  int64_t *acount, *aid;    /* LABEL answers (ablp_dist.c): counts [2n], ids */
  int64_t cap_acount, cap_aid;
} fo__server;

int fo__server_init(fo__server *sv, const fo_dataset_t *d, int32_t part);
void fo__server_fini(fo__server *sv);
/* Answer one request: sv->out receives the response (an ERROR message when the request fails).
 * Returns FO_OK when a response was made (even an error response). */
int fo__server_answer(fo__server *sv, const void *msg, size_t len);
/* A LABEL request (ablp_dist.c): every anchor's supervision rows read in this server's part. */
int fo__server_label(fo__server *sv, const void *msg, size_t len);
/* A LINK request (link_dist.c): every pair's row read in this server's part. */
int fo__server_link(fo__server *sv, const void *msg, size_t len);
/* The pairs' answers (as a LINK response's counts and positions) from part `part` of `d`,
 * open here: every row must be owned by it (FO_EINVAL otherwise; FO_EFORMAT for a corrupt
 * row). *pos grows with fo__grow; *n_pos the total. */
int fo__link_scan(const fo_dataset_t *d, int32_t part, const int64_t *pairs, int64_t n,
                  int64_t *count, int64_t **pos, int64_t *cap_pos, int64_t *n_pos);
/* The feature rows of every node type's nodes of batch b (x[t] NULL: type t not gathered; rows
 * of row_bytes[t]): this machine's directly, the others in one request per machine (dist.c,
 * the distributed loaders' gather). */
int fo__dist_gather_batch(fo_dist_t *dd, const fo_dataset_t *d, const fo_batch_t *b,
                          unsigned char *const *x, const int64_t *row_bytes);
/* A loader that makes its batches one after another (the link and ABLP loaders over a
 * distributed dataset), as the feature cache's source of batches (fo__seq_source). */
typedef struct fo__seq_ops {
  int (*next)(void *L, const fo_batch_t **b); /* its next batch's node batch (NULL: the end) */
  int (*start_epoch)(void *L, uint64_t epoch);
  int64_t (*num_batches)(const void *L); /* in its current epoch */
  void (*traffic)(const void *L, fo_dist_batch_stats *out); /* of its last batch */
  void (*destroy)(void *L);
} fo__seq_ops;
typedef struct fo__seq_source fo__seq_source;
/* Makes a loader of the same options and seeds as the one being made, in `epoch`, that gathers
 * no rows (its batch gather: fo__dist_no_gather). */
typedef int (*fo__seq_make_fn)(void *arg, uint64_t epoch, void **L);
int fo__dist_no_gather(void *ctx, const fo_batch_t *b, unsigned char *const *x, const int64_t *row_bytes);
/* The same gather through a remote feature cache (the node loader's, cache.c), for the link
 * and ABLP loaders: *out holds a cache of cache_bytes filled by `policy` and gathers batch b's
 * feature rows (no labels) through it; *out is a plain gather when cache_bytes is 0 or no row
 * fits. degree: remote nodes by their edges into this part, in the sampler's direction `dir`.
 * frequency: by how often they are in up to 32 batches of a loader make() makes in epoch +
 * 2^62 (destroyed after the fill; typed lookahead splits its budget with it too). lookahead:
 * Belady's rule with the next uses of the dlo->lookahead batches after the current one (the batch's
 * place: fo__cur_batch_pos), taken from a loader make() makes that runs ahead of the loader
 * (batch t of an epoch is the loader's batch t; each batch is sampled twice, once ahead). ops
 * describes make's loaders. fo__dist_batch_gather_free(NULL) does nothing. */
typedef struct fo__dist_batch_gather fo__dist_batch_gather;
int fo__dist_batch_gather_new(fo_dist_t *dd, const fo_dataset_t *d, const fo_dist_loader_opts *dlo,
                              fo_edge_dir dir, bool features, uint64_t epoch, const fo__seq_ops *ops,
                              fo__seq_make_fn make, void *arg, const char *what,
                              fo__dist_batch_gather **out);
int fo__dist_batch_gather_run(fo__dist_batch_gather *g, const fo_batch_t *b, unsigned char *const *x,
                              const int64_t *row_bytes);
void fo__dist_batch_gather_free(fo__dist_batch_gather *g);

/* ---- the context and its transports ------------------------------------------------------- */

typedef struct fo__call {
  int32_t machine;    /* peer machine (its group peer answers) */
  fo__buf req;
  void *resp;         /* response bytes, owned by the call until the next use */
  size_t resp_len;
  size_t resp_cap;
  void *handle;       /* transport's */
} fo__call;

typedef struct fo__transport_ops {
  /* Send calls[i].req to calls[i].machine for every i, then wait for all answers (or the
   * deadline): calls[i].resp receives each. */
  int (*exchange)(fo_dist_t *dd, fo__call *calls, int n);
  int (*barrier)(fo_dist_t *dd);
  void (*fini)(fo_dist_t *dd);
  /* Optional (NULL: nothing to do). serve: fo_dist_open_dataset has just set dd->d, the dataset
   * this process answers its group's requests from. failed: the context's first failure has
   * just been recorded by fo__dist_fail (dd->fail_rc, dd->fail_msg): tell the other processes. */
  void (*serve)(fo_dist_t *dd);
  void (*failed)(fo_dist_t *dd);
  /* Optional (NULL: one process, nothing to compare): fo_dist_check_same's collective part
   * (arguments checked). */
  int (*check_same)(fo_dist_t *dd, const char *what, const fo_dist_option *opts, int n);
} fo__transport_ops;

struct fo_dist {
  const fo__transport_ops *ops;
  void *impl;                 /* the transport's state */
  int32_t machine, n_machines, local_rank, local_size, rank, size;
  double deadline_s;
  const fo_dataset_t *d;      /* the dataset this process serves (set by open/init) */
  pthread_mutex_t mu;         /* failure state and counters */
  bool failed;
  int fail_rc;
  char fail_msg[1024];
  fo_dist_stats stats;
};

/* Record the context's first failure (this thread's current message), tell the transport
 * (ops->failed) if it is the first, and return rc. */
int fo__dist_fail(fo_dist_t *dd, int rc);
/* Common set-up of a context. */
int fo__dist_new(fo_dist_t **out, const fo_dist_opts *o);
void fo__dist_free(fo_dist_t *dd);

extern const fo__transport_ops fo__local_ops;

/* ---- the remote feature cache (cache.c) ------------------------------------------------------ */

/* The row store: up to `cap` rows of row_bytes each (x, then the label as int64) keyed by node
 * id. Not thread-safe (the loader's cache serializes what changes it). */
typedef struct fo__rcache fo__rcache;
int fo__rcache_create(int64_t cap, int64_t row_bytes, fo__rcache **out);
void fo__rcache_destroy(fo__rcache *c);
int64_t fo__rcache_rows(const fo__rcache *c);
int64_t fo__rcache_capacity(const fo__rcache *c);
int64_t fo__rcache_find(const fo__rcache *c, int64_t v); /* its slot, or -1 */
const unsigned char *fo__rcache_row(const fo__rcache *c, int64_t slot);
/* Append rows of nodes[0..n) (unique, not held) while there is room. */
void fo__rcache_insert(fo__rcache *c, const int64_t *nodes, const unsigned char *rows, int64_t n);

/* Next uses: node -> the first batch (of those ahead) that needs it. */
typedef struct fo__nextuse {
  int64_t *key, *val;
  int64_t cap, n;
} fo__nextuse;
void fo__nextuse_clear(fo__nextuse *m);
void fo__nextuse_free(fo__nextuse *m);
/* Record use t of v unless an earlier one is recorded (put uses in increasing t). */
int fo__nextuse_put_first(fo__nextuse *m, int64_t v, int64_t t);
int64_t fo__nextuse_get(const fo__nextuse *m, int64_t v); /* INT64_MAX: none ahead */

/* Belady's step after a batch: of the held rows and the n rows just fetched (fetched[i], its
 * row at rows + i * row_bytes), keep the `cap` whose next use (nu) is soonest; on equal next
 * uses held rows stay first, then lower node ids. A fetched row needed later than every kept
 * row is not admitted. */
int fo__rcache_belady(fo__rcache *c, const int64_t *fetched, const unsigned char *rows, int64_t n,
                      const fo__nextuse *nu);

/* A distributed loader's cache of remote rows. */
typedef int (*fo__gather_fn)(void *ctx, const int64_t *nodes, int64_t n, void *x, int64_t row_bytes,
                             int64_t *y, int64_t n_y);
/* Typed: for every node type t, the rows of nodes[t][0..n[t]) (ids of type t): x[t] (rows of
 * row_bytes[t]) when x[t], and y[i] (i < n_y, when y) of the seed type's nodes; every remote
 * machine's rows of all types in one request (dist.c). */
typedef int (*fo__gather_typed_fn)(void *ctx, const int64_t *const *nodes, const int64_t *n,
                                   unsigned char *const *x, const int64_t *row_bytes,
                                   int32_t seed_type, int64_t *y, int64_t n_y);
typedef struct fo__dist_cache fo__dist_cache;
const char *fo__cache_policy_name(int policy);
/* *out = NULL (and FO_OK) when no row fits in cache_bytes or nothing is gathered. Typed
 * datasets (plain_typed, seed_type: the loader's input node type): one store per node type,
 * keyed by (node type, id) as id * n_types + type; the byte budget is split between the types
 * in fo__dist_cache_prepare (docs/DIST.md). */
int fo__dist_cache_create(fo_dist_t *dd, const fo_dataset_t *d, int64_t cache_bytes, int policy,
                          int32_t lookahead, int32_t pipeline, bool features, bool labels,
                          fo__gather_fn plain, fo__gather_typed_fn plain_typed, int32_t seed_type,
                          void *plain_ctx, fo__dist_cache **out);
void fo__dist_cache_destroy(fo__dist_cache *c);
int64_t fo__dist_cache_rows(const fo__dist_cache *c); /* capacity in rows (all node types) */
/* The static fills (degree, frequency); lookahead: its sampler, and its `pipeline` threads
 * that sample the batches ahead (none: each gather plans the batches after its own). Before
 * the loader's threads. */
int fo__dist_cache_prepare(fo__dist_cache *c, fo_loader_t *L);
/* The degree fill without a node loader (the link and ABLP loaders): `dir` the sampler's edge
 * direction. FO_EINVAL for another policy. */
int fo__dist_cache_prepare_degree(fo__dist_cache *c, fo_edge_dir dir);
/* Batches of a loader other than the node loader: pass(ctx, j, &b), j < n_pass: the node batch
 * of frequency's pre-sampling pass batch j (called for j = 0, 1, ... in order); ahead(ctx,
 * epoch, t, &b): the loader's batch t of `epoch` (b NULL past the end); num_batches(ctx,
 * epoch): the loader's batches in that epoch. b is valid until the next call. No pipelining
 * threads and no take: the loader samples its batches itself. */
typedef struct fo__cache_source {
  void *ctx;
  int64_t n_pass;
  int (*pass)(void *ctx, int64_t j, const fo_batch_t **b);
  int (*ahead)(void *ctx, uint64_t epoch, int64_t t, const fo_batch_t **b);
  int64_t (*num_batches)(void *ctx, uint64_t epoch);
} fo__cache_source;
/* Every policy's fill (or, lookahead, its plans) from src (kept by c until destroyed). */
int fo__dist_cache_prepare_source(fo__dist_cache *c, const fo__cache_source *src, fo_edge_dir dir);
/* The loader's gather through the cache (hits from it, the rest through `plain`). Any number
 * of loader threads at once: lookahead copies hits and changes the store under the cache's
 * mutex, but fetches the misses and samples the batches ahead without it. */
int fo__dist_cache_gather(fo__dist_cache *c, const int64_t *nodes, int64_t n, void *x,
                          int64_t row_bytes, int64_t *y, int64_t n_y);
/* Typed (the loader's gather_typed hook): every node type's rows of batch b through the
 * cache's store of that type, the misses of all types through plain_typed in one request per
 * remote machine; locking as fo__dist_cache_gather. */
int fo__dist_cache_gather_typed(fo__dist_cache *c, const fo_batch_t *b, unsigned char *const *x,
                                const int64_t *row_bytes, int32_t seed_type, int64_t *y, int64_t n_y);
/* Lookahead: when batch j of `epoch` (this loader's numbering) was sampled ahead and not yet
 * taken, swap its topology into *b (the plan keeps *b's old batch), add that sampling's hop
 * traffic to the current batch's counters and return true; false otherwise (and for the other
 * policies, or c NULL). The topology is the one fo_sampler_sample gives for the batch's seeds,
 * epoch and index: the loader need not sample it again. */
bool fo__dist_cache_take(fo__dist_cache *c, uint64_t epoch, int64_t j, fo_batch_t **b);
/* Tests only (NULL otherwise): called by a lookahead gather right before it fetches its misses,
 * with no lock of the cache held. */
extern void (*fo__cache_fetch_hook)(void);
/* Tests only: rows the gathers copied from a pipelining thread's prefetch, all caches of the
 * process together (__atomic). */
extern int64_t fo__cache_rows_ahead;

/* fo_dist_check_same: the most options, and how much of a value a message shows. */
#define FO__SAME_MAX 64
#define FO__SAME_TEXT 200
/* 64-bit FNV-1a of name, a 0 byte, and value. */
uint64_t fo__same_digest(const char *name, const char *value);

#endif
