/*
 * loader/loader_internal.h: feature and label gather, shared by the loader (and later the
 * distributed loader).
 */
#ifndef FO_LOADER_INTERNAL_H
#define FO_LOADER_INTERNAL_H

#include "core/internal.h"

/* Where a batch's x and y come from; x/y NULL when not gathered. */
typedef struct fo__gather {
  const unsigned char *x; /* [n_rows, dim]; for a partitioned dataset: non-NULL marks "gather" */
  int64_t n_rows, dim, itemsize, row_bytes;
  const char *dtype;
  const int64_t *y;       /* [n_rows]; likewise */
  /* a partitioned dataset: every part's rows, found through the book */
  const fo_dataset_t *pd;
  const unsigned char **part_x;
  const int64_t **part_y;
} fo__gather;

void fo__gather_fini(fo__gather *g);
/* y[i] = label of node[i] for i < n. Over a partitioned dataset every node's part and row are
 * checked (fo__locate): FO_EFORMAT naming the book or rank directory, never a wild read. */
int fo__gather_labels(const fo__gather *g, const int64_t *node, int64_t n, int64_t *y);

/* Set up from the dataset: features when `features` and the dataset has them, labels likewise. */
int fo__gather_init(fo__gather *g, const fo_dataset_t *d, bool features, bool labels);

/* dst[i, :] = x[node[i], :] for i < n (rows of g->row_bytes). Node ids come from the sampler,
 * which checked them against [0, n); over a partitioned dataset each node's part and row are
 * checked as in fo__gather_labels (the last hop's nodes were never expanded, so nothing else
 * looked their rows up). */
int fo__gather_rows(const fo__gather *g, const int64_t *node, int64_t n, void *dst);

/* Rows whose addresses are looked up (partitioned datasets, the dist layer) are copied in
 * chunks of FO__COPY_CHUNK: first every address of the chunk, then fo__copy_rows. */
#define FO__COPY_CHUNK 256
/* memcpy(dst[i], src[i], row_bytes) for i < n, prefetching the rows a few ahead (random rows
 * are cache misses; the addresses known in advance let them overlap). */
void fo__copy_rows(unsigned char *const *dst, const unsigned char *const *src, int64_t n,
                   size_t row_bytes);

/* dst[i, :] = x[node[i], :] for i < n (rows of row_bytes, prefetched as in fo__gather_rows),
 * each node checked against [0, n_rows) first: returns -1, or the index of the first node out
 * of range (rows before it copied). For rows addressed by node id directly (the dist layer's
 * one-part gather, fo__sole_part). */
int64_t fo__copy_rows_direct(unsigned char *dst, const unsigned char *x, const int64_t *node,
                             int64_t n, size_t row_bytes, int64_t n_rows);

/* ---- loaders of the dist layer ---------------------------------------------------------- */

/* How a distributed loader differs: its samplers come from make_sampler, its feature rows and
 * labels from gather, and it produces only the epoch's global batches b with
 * b mod n_shards == shard (tail: FO__TAIL_KEEP their natural count, FO__TAIL_DROP
 * floor(batches / n_shards) each, FO__TAIL_PAD ceil(...) each, wrapping to the epoch's start). */
enum { FO__TAIL_KEEP = 0, FO__TAIL_DROP = 1, FO__TAIL_PAD = 2 };

typedef struct fo__loader_hooks {
  void *ctx;
  int (*make_sampler)(void *ctx, const fo_dataset_t *d, const fo_sampler_opts *o, fo_sampler_t **out);
  /* x[i] (row_bytes each, when x) and y[i] (for i < n_y, when y) of nodes[0..n) */
  int (*gather)(void *ctx, const int64_t *nodes, int64_t n, void *x, int64_t row_bytes, int64_t *y,
                int64_t n_y);
  /* typed datasets (instead of gather): for every node type t with x[t] (rows of row_bytes[t])
   * the rows of b's nodes of type t, and y[i] (i < n_y, when y) of the seed type's nodes */
  int (*gather_typed)(void *ctx, const fo_batch_t *b, unsigned char *const *x,
                      const int64_t *row_bytes, int32_t seed_type, int64_t *y, int64_t n_y);
  int32_t shard, n_shards;
  int tail;
  /* Seed placement "local" (instead of shards): the loader keeps the input nodes that machine
   * `machine` owns (owner(), checked to be in [0, n_machines)), in the epoch's order, cuts them
   * into batches (machine batch j = the j-th batch_size of them) and produces machine batches
   * j with j mod local_size == local_rank; their index (the random streams' batch key) is
   * j * n_machines + machine. `tail` as for shards, over every machine's ranks: DROP the least,
   * PAD the most batches any rank of any machine has (a machine without seeds cannot pad). */
  bool local_seeds;
  int32_t machine, n_machines, local_rank, local_size;
  int32_t (*owner)(void *ctx, int64_t node);
  /* Optional: called once the loader is set up (its first epoch's order made), before its
   * worker threads start; a failure fails the creation. */
  int (*prepare)(void *ctx, fo_loader_t *L);
  /* Optional: batch local_index of `epoch` already sampled (a cache's look-ahead): swap its
   * topology into *b and return true, or false (the loader samples it). Not for temporal
   * samplers. */
  bool (*take_sampled)(void *ctx, uint64_t epoch, int64_t local_index, fo_batch_t **b);
  void (*free_ctx)(void *ctx); /* called when the loader is destroyed (or its creation fails) */
} fo__loader_hooks;

/* The dist layer's traffic counters of the batch being produced on this thread (NULL outside
 * a loader's produce): exchanges add to it. */
/* Seed placement local, shared by the node, link and ABLP loaders: cnt[m] seeds of machine m
 * (m < n_machines), cut into batches of bs (the last partial one kept unless drop_last); each
 * machine's batches dealt to its local_size ranks (machine batch j to local rank j mod
 * local_size). *machine_batches receives this machine's count; *n_batches this rank's: tail
 * FO__TAIL_KEEP its natural count, FO__TAIL_DROP the fewest, FO__TAIL_PAD the most any rank of
 * any machine has (its j-th batch is then machine batch fo__local_seed_batch(j, ...), wrapping).
 * A function of cnt and the options only, so every process computes every rank's count.
 * Errors: FO_EINVAL for pad when some machine owns no seed (`what` names them). */
int fo__local_seed_plan(const int64_t *cnt, int32_t n_machines, int32_t machine, int32_t local_rank,
                        int32_t local_size, int64_t bs, bool drop_last, int tail, int64_t n_seeds,
                        const char *what, int64_t *machine_batches, int64_t *n_batches);
/* This rank's j-th batch under seed placement local: its machine batch (its random-stream
 * index is machine batch * n_machines + machine). */
static inline int64_t fo__local_seed_batch(int64_t j, int32_t local_rank, int32_t local_size,
                                           int64_t machine_batches) {
  return (local_rank + j * local_size) % (machine_batches ? machine_batches : 1);
}

/* ---- the link and ABLP loaders' shared parts (loader/seedbatch.c) ------------------------- */

/* A distributed link or ABLP loader's seeds (seed edges, anchors) dealt into this process's
 * batches of an epoch, as fo__loader_hooks deals the node loader's: shards (batch b of the
 * epoch's order when b mod n_shards == shard, `tail` as there) or seed placement local
 * (owner[i] the machine of seed i, set by the caller: this machine's seeds in the epoch's
 * order, cut into machine batches, dealt to its local ranks, as fo__local_seed_plan). */
typedef struct fo__seed_deal {
  int32_t shard, n_shards;
  int tail;
  bool local_seeds;
  int32_t machine, n_machines, local_rank, local_size;
  int32_t *owner;             /* local placement: [n] each seed's machine (malloc, the deal's) */
  int64_t *sel;               /* local placement: this machine's seeds in the epoch's order */
  int64_t local_mb, local_nb; /* local placement: this machine's batches, this rank's */
  int64_t *list, n_list;      /* the epoch's batches: list[3 i ..] = {offset into the base the
                                 run returned, seeds, batch index (its random streams' key)} */
} fo__seed_deal;
/* Allocate for n seeds in batches of bs and (local placement: owner[] filled, each in
 * [0, n_machines)) plan this rank's batches; `what` names the seeds in errors. FO_ENOMEM, or
 * fo__local_seed_plan's FO_EINVAL. fo__seed_deal_fini frees, also after a failure. */
int fo__seed_deal_init(fo__seed_deal *sd, int64_t n, int64_t bs, bool drop_last, const char *what);
void fo__seed_deal_fini(fo__seed_deal *sd);
/* Deal the epoch whose seed order is order[0..n): fills list / n_list and returns the array
 * the list's offsets index (order, or sd->sel for local placement). O(n). */
const int64_t *fo__seed_deal_run(fo__seed_deal *sd, const int64_t *order, int64_t n, int64_t bs,
                                 bool drop_last);

/* Every node type's feature rows of a batch (the link and ABLP loaders' batches). */
typedef struct fo__batch_x {
  int32_t T;                  /* node types */
  fo__gather *g;              /* [T] */
  unsigned char **x;          /* [T] the rows of the last batch (NULL: the type has none) */
  int64_t *cap_x;             /* [T] bytes allocated in x[t] */
  int64_t *row_bytes;         /* [T + 1] g[t].row_bytes, 0 for a type without features */
  fo_loader_features *pub;    /* [T] what the loader's batch shows */
} fo__batch_x;
/* Set up for every node type of d (features when `features` and the type has them); `what`
 * names the loader in FO_ENOMEM. Errors of fo__gather_init. fo__batch_x_fini frees (NULL-safe
 * after a failure). */
int fo__batch_x_init(fo__batch_x *bx, const fo_dataset_t *d, bool features, const char *what);
void fo__batch_x_fini(fo__batch_x *bx);
/* The rows of every node type of s into x / pub: gathered here (gather NULL; see
 * fo__gather_rows for its checks), or by gather(ctx, s, x, row_bytes) for every type at once
 * (a distributed loader's hook). Errors: FO_ENOMEM, or the gather's. */
int fo__batch_x_fill(fo__batch_x *bx, const fo_batch_t *s,
                     int (*gather)(void *ctx, const fo_batch_t *b, unsigned char *const *x,
                                   const int64_t *row_bytes),
                     void *ctx);
/* Add s's subgraph (every node type's nodes, every edge type's row, col, edge) and the
 * feature rows x[0..n_types) (NULL x: none) to a batch digest. */
struct XXH64_state_s;
void fo__digest_sample(struct XXH64_state_s *st, const fo_batch_t *s, const fo_loader_features *x,
                       int32_t n_types);

extern _Thread_local fo_dist_batch_stats *fo__cur_batch_stats;
/* The batch being produced on this thread: its epoch and this loader's batch number j (NULL
 * outside produce). */
typedef struct fo__batch_pos {
  uint64_t epoch;
  int64_t local_index;
} fo__batch_pos;
extern _Thread_local const fo__batch_pos *fo__cur_batch_pos;

/* ---- pipelining of the distributed link and ABLP loaders (loader/pipe.c) ----------------- */

/* D threads sample the batches next .. next + D - 1 of the epoch ahead, into a ring of D slots.
 * sample(owner, worker, t, item): batch t of the current epoch into item, with one thread's
 * worker state (its own sampler), its traffic counted in fo__cur_batch_stats (set by the pipe);
 * on failure its message is kept for fo__pipe_take. */
typedef int (*fo__pipe_sample_fn)(void *owner, void *worker, int64_t t, void *item);
typedef struct fo__pipe fo__pipe;
/* n_workers threads, workers[i] the state of thread i, items[0..n_workers) the slots' batch
 * objects (the pipe's from then on: fo__pipe_take swaps them with the loader's). The threads
 * wait for fo__pipe_begin. Errors: FO_EINVAL, FO_ENOMEM, FO_EIO (a thread did not start); the
 * items and workers stay the caller's then. */
int fo__pipe_create(int32_t n_workers, void *owner, void *const *workers, void *const *items,
                    fo__pipe_sample_fn sample, const char *what, fo__pipe **out);
/* Start an epoch of n_batches (after fo__pipe_halt, or first): the threads sample from 0 on. */
void fo__pipe_begin(fo__pipe *p, int64_t n_batches);
/* No thread samples from the return on (the ones sampling are waited for): the loader may
 * change its order. NULL-safe. */
void fo__pipe_halt(fo__pipe *p);
/* Batch t (the next one, in order): waits for its thread, swaps its batch object with *item,
 * copies its traffic into *traffic (when not NULL) and returns its status (its message then
 * this thread's). FO_EINTERNAL for a batch out of order or while halted. */
int fo__pipe_take(fo__pipe *p, int64_t t, void **item, fo_dist_batch_stats *traffic);
/* Stop and join the threads, free_item(item) every slot's batch object (when free_item).
 * NULL-safe. */
void fo__pipe_destroy(fo__pipe *p, void (*free_item)(void *item));

/* Another epoch's input order, for fo__loader_batch_seeds (zero-initialize; free with
 * fo__seed_scratch_fini). */
typedef struct fo__seed_scratch {
  bool own;   /* set by the caller: always make the order here, even of the current epoch (a
                 thread that is not one of the loader's workers: the current order may change
                 under it) */
  bool valid;
  uint64_t epoch;
  int64_t *order, *mine, n_mine;
} fo__seed_scratch;
void fo__seed_scratch_fini(fo__seed_scratch *sc);

/* The seeds (*k <= batch_size of them, into seeds[]) and index of this loader's batch j of
 * `epoch`: of the current epoch from the loader's own order (call it only while that epoch is
 * current), of another from `sc` (made on first use). j must be < fo_loader_num_batches. */
int fo__loader_batch_seeds(const fo_loader_t *L, uint64_t epoch, int64_t j, fo__seed_scratch *sc,
                           int64_t *seeds, int64_t *k, int64_t *index);
/* The loader's sampler options, batch size and current epoch. */
const fo_sampler_opts *fo__loader_sampler_opts(const fo_loader_t *L);
int64_t fo__loader_batch_size(const fo_loader_t *L);
uint64_t fo__loader_epoch(const fo_loader_t *L);

/* The counters of a batch handed out by a loader (NULL for NULL). */
const fo_dist_batch_stats *fo__loader_batch_stats(const fo_loader_batch_t *b);

int fo__loader_create(const fo_dataset_t *d, const fo_loader_opts *o, const fo__loader_hooks *h,
                      fo_loader_t **out);

#endif
