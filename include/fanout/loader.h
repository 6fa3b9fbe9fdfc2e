/*
 * fanout/loader.h: the neighbor loader (PyG `NeighborLoader`): epochs of training-ready
 * mini-batches, sampled by worker threads ahead of the consumer, in a reproducible order.
 *
 * An epoch splits the input nodes (an id array, a dataset split such as "train", or all nodes)
 * into ceil(n / batch_size) batches (floor with drop_last), in input order or, with shuffle, in
 * the order of fo_random_permutation(n, seed, epoch). Batch b of epoch e is
 * fo_sampler_sample(seeds of b, epoch e, batch index b) plus, when gathered, the feature rows
 * of its nodes (`x`) and the labels of its seeds (`y`): a pure function of (dataset, options,
 * epoch, b). So the sequence of batches is bit-identical for any number of worker threads.
 *
 * Threads: `num_workers` threads sample batches b, b+1, ... up to `prefetch` batches ahead of
 * the consumer into recycled batch slots and block on condition variables (they never poll).
 * fo_loader_next() hands the batches out strictly in order. A worker's error (a corrupt array,
 * out of memory) travels with its batch: next() returns its status and sets its message on the
 * consumer's thread. Nothing blocks forever: a consumer holding many batches makes the loader
 * add slots rather than wait, and fo_loader_destroy() stops the workers even mid-epoch.
 *
 * Memory: (prefetch + batches held by the consumer) slots, each growing to the largest batch
 * it has held: nodes x (8 + feature row bytes) + edges x 24 bytes + seeds x 16 bytes, plus
 * per worker a sampler (its id map: 8 bytes per dataset node when the dense layout applies).
 * In steady state nothing is allocated.
 *
 * Thread-safety: one consumer thread calls next/release/start_epoch/destroy (or several,
 * serialized by the caller); the loader's own threads are internal.
 */
#ifndef FANOUT_LOADER_H
#define FANOUT_LOADER_H

#include "common.h"
#include "dataset.h"
#include "sampler.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct fo_loader fo_loader_t;

typedef struct fo_loader_opts {
  fo_sampler_opts sampler;     /**< fanouts, hops, replace, edge_dir, disjoint, seed (the seed
                                    also drives the shuffle); fanouts are copied */
  int64_t batch_size;          /**< seeds per batch, >= 1; default 1 */
  const fo_nid_t *input_nodes; /**< [n_input_nodes] seed pool (copied); NULL: `split`;
                                    giving both is FO_EINVAL */
  int64_t n_input_nodes;
  const char *split;           /**< with input_nodes NULL: a split of the dataset ("train",
                                    "val", "test"), or NULL for all nodes; default NULL */
  bool shuffle;                /**< reshuffle the input nodes each epoch; default false */
  bool drop_last;              /**< drop a last, smaller batch; default false */
  int32_t num_workers;         /**< sampling threads, 0..256; 0 samples inside next() on the
                                    caller's thread; default: the thread budget set by
                                    fo_worker_init (worker.h), or 1 without it */
  int32_t prefetch;            /**< batches sampled ahead of the consumer, 1..65536 (one slot
                                    each is allocated up front); default 0 = 2 x num_workers
                                    (at least 1) */
  uint64_t epoch;              /**< the first epoch; default 0 */
  bool features;               /**< gather x when the dataset has features; default true */
  bool labels;                 /**< gather y when the dataset has labels; default true */
  const int64_t *input_time;   /**< temporal samplers (sampler.temporal): [n_input_nodes] the
                                    seed time of each input node (PyG's input_time; copied);
                                    NULL (default): each seed's node time. Needs input_nodes
                                    (FO_EINVAL otherwise, or for a non-temporal sampler). */
  const char *input_type;      /**< typed datasets: the node type of the input nodes (PyG's
                                    `input_nodes=(type, ids)`); input_nodes, split and labels
                                    are that type's. NULL (default): the only node type, and an
                                    error if the dataset has several. Borrowed for create. */
} fo_loader_opts;

/** The gathered features of one node type in a typed batch. */
typedef struct fo_loader_features {
  const void *x;               /**< [n_nodes of the type, dim] rows of that type's `node`, as
                                    stored; NULL when the type has no features (or D = 0) */
  int64_t dim, itemsize;
  const char *dtype;
} fo_loader_features;

/** One training-ready batch. Owned by the loader; valid until fo_loader_release() on it (or
 *  fo_loader_destroy()). Callers read, never write, it. */
typedef struct fo_loader_batch {
  uint64_t epoch;
  int64_t index;               /**< batch index within the epoch, 0-based */
  const fo_batch_t *sample;    /**< node, row, col, edge, batch, num_sampled_* (sampler.h) */
  int64_t batch_size;          /**< seeds in this batch = sample->n_seeds */
  const int64_t *input_id;     /**< [batch_size] position of each seed in the input nodes */
  const void *x;               /**< [sample->n_nodes, x_dim] feature rows of `node` in the
                                    dataset's dtype, C order; NULL when not gathered (or D = 0) */
  int64_t x_dim;               /**< D */
  int64_t x_itemsize;          /**< bytes per feature element */
  const char *x_dtype;         /**< "float32", "float16", "bfloat16" or "uint8" */
  const int64_t *y;            /**< [batch_size] labels of the seeds (-1: none); NULL when
                                    not gathered */
  int32_t n_node_types;        /**< 1 for a version-1 dataset */
  const fo_loader_features *x_types; /**< typed datasets: [n_node_types] features per node type
                                    (PyG's x_dict; `x` above is then NULL); version 1: NULL */
  int32_t input_type;          /**< node type of the seeds (0 for version 1) */
  const int64_t *input_time;   /**< temporal samplers: [batch_size] the time of each seed (its
                                    tree's bound: input_time, or its node time); else NULL */
} fo_loader_batch_t;

/** Write the defaults into `o` (the sampler part as fo_sampler_opts_init; num_workers from
 *  fo_worker_thread_budget()). Cost: O(1). */
FO_API void fo_loader_opts_init(fo_loader_opts *o);

/**
 * Create a loader over `d` and start its first epoch (`o->epoch`).
 *
 * @param d    dataset; borrowed, must outlive the loader.
 * @param o    options (copied, including fanouts and input nodes).
 * @param out  receives the loader, NULL on failure.
 * @return FO_OK; FO_EINVAL for bad options (batch_size < 1, num_workers outside 0..256,
 *         prefetch outside 0..65536, both input_nodes and split, a missing split, sampler
 *         options as fo_sampler_create; the message names the option); FO_ERANGE if an input node is not a node id (message gives its
 *         position and value); FO_ENOMEM; FO_EIO if a thread cannot be started.
 * Thread-safety: any thread. Cost: O(n_input_nodes) plus starting the threads.
 */
FO_API int fo_loader_create(const fo_dataset_t *d, const fo_loader_opts *o, fo_loader_t **out);

/**
 * Stop the workers (waiting for the batches in progress, at most one per worker), join them
 * and free everything, including batches the consumer still holds. Accepts NULL. Safe at any
 * point of an epoch.
 */
FO_API void fo_loader_destroy(fo_loader_t *L);

/** Batches per epoch: ceil(n / batch_size), or floor with drop_last. Cost: O(1). */
FO_API int64_t fo_loader_num_batches(const fo_loader_t *L);

/** Number of input nodes (seeds per epoch before drop_last). Cost: O(1). */
FO_API int64_t fo_loader_num_inputs(const fo_loader_t *L);

/**
 * The next batch of the current epoch, in order, waiting for it if it is not ready.
 *
 * @param out  receives the batch, or NULL when the epoch is over (then the return is FO_OK).
 *             Release it with fo_loader_release() when done.
 * @return FO_OK; else the status of the worker that failed on this batch (FO_EFORMAT for a
 *         corrupt dataset, FO_ENOMEM, ...) with its message set on this thread; *out is then
 *         NULL, the batch is skipped and the next call returns the following one.
 * Thread-safety: the consumer's thread. Cost: waits for sampling; O(1) otherwise.
 */
FO_API int fo_loader_next(fo_loader_t *L, fo_loader_batch_t **out);

/**
 * fo_loader_next, waiting at most `timeout_s` seconds for the batch: for a caller that must
 * stay responsive while a batch is late (the Python iterator checks for Ctrl-C between
 * waits). When the time passes first, *out is NULL, *waited is set and FO_OK is returned: the
 * batch is still coming, call again. With no worker threads the batch is made in the call
 * and the timeout does not apply.
 * @param waited  set to whether the call gave up waiting (may be NULL).
 * @return as fo_loader_next; FO_EINVAL for a timeout that is not in [0, 1e9].
 * Thread-safety: the consumer's thread. Cost: as fo_loader_next, at most the timeout.
 */
FO_API int fo_loader_next_timed(fo_loader_t *L, fo_loader_batch_t **out, double timeout_s,
                                bool *waited);

/** Give a batch back for reuse. Accepts NULL. Cost: O(1). */
FO_API void fo_loader_release(fo_loader_t *L, fo_loader_batch_t *b);

/**
 * Abandon the current epoch and start `epoch`: batches not yet handed out are discarded
 * (workers finish or drop what they are doing), the input order is reshuffled when `shuffle`
 * (deterministically from (seed, epoch)), and next() starts again at batch 0. Batches the
 * consumer holds stay valid until released.
 * @return FO_OK. Cost: O(n_input_nodes) for the shuffle.
 */
FO_API int fo_loader_start_epoch(fo_loader_t *L, uint64_t epoch);

/** Time accounting of a loader since its creation (all threads together). */
typedef struct fo_loader_stats {
  int64_t batches;       /**< batches produced (including dropped and failed ones) */
  int64_t sample_ns;     /**< time spent in fo_sampler_sample */
  int64_t gather_ns;     /**< time spent gathering x and y */
  int64_t gather_bytes;  /**< bytes of x and y gathered */
  int64_t wait_ns;       /**< time the consumer waited inside fo_loader_next */
} fo_loader_stats;

/** Read the counters (consistent snapshot). Thread-safety: consumer thread. Cost: O(1). */
FO_API void fo_loader_get_stats(fo_loader_t *L, fo_loader_stats *out);

/**
 * XXH64 digest of a batch: one XXH64 (seed 0) stream over the bytes of node, row, col, edge,
 * x and y, in this order (absent arrays contribute nothing); for a typed batch: every node
 * type's node, then every edge type's row, col, edge, then every node type's x, then y.
 * Cost: O(batch bytes).
 */
FO_API uint64_t fo_loader_batch_digest(const fo_loader_batch_t *b);

/**
 * Digest of a sequence of batch digests (an epoch): XXH64 (seed 0) over the digests as
 * little-endian uint64 values, in order. Cost: O(n).
 */
FO_API uint64_t fo_digest_sequence(const uint64_t *digests, int64_t n);

#ifdef __cplusplus
}
#endif
#endif
