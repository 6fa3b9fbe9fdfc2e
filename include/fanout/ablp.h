/*
 * fanout/ablp.h: anchor-based link prediction batches (GiGL's `DistABLPLoader` semantics):
 * anchors are node seeds of one node type; each anchor's positive and hard-negative
 * supervision edges are read from labels-only edge types of the dataset (dataset.h,
 * docs/FORMAT.md format_version 3), which the sampler never traverses; the anchors and their
 * label nodes are sampled together by the node sampler (sampler.h) in one call.
 *
 * Supervision edge types. A labels-only edge type P = (A, r, L) holds the positive label
 * edges a -> l (anchor a of node type A, label node l of node type L); an optional labels-only
 * type N = (A, r', L) holds hard negatives. They are a table apart from the traversed edge
 * types (fo_dataset_label_edge_type), so no edge type index of the sampler, of its options
 * (edge_type_fanouts) or of a batch can name one: the hop driver iterates the traversed types
 * only, and a label edge can never be a sampled edge (GiGL issue #154 was the opposite). The
 * CLI and Python refuse a supervision type used as a fanout key by name.
 *
 * A batch of n anchors (anchor[i], ids of A, duplicates allowed):
 *  1. Node seeds: per node type, in this order and deduplicated in order of first appearance:
 *     the anchors; each distinct anchor's positive label nodes (its CSR row of P, in row order:
 *     the order of its lines in the supervision file); its hard negatives (row of N); the
 *     random negatives (below). When A == L they share one list, anchors first. So distinct
 *     anchor k (in order of first appearance) is local node k of type A.
 *  2. Random negatives (num_random_negatives = k > 0): for every given anchor i, k label nodes
 *     v uniform over the L nodes; strict (the default): uniform over the L nodes v such that
 *     (anchor[i], v) is not a positive supervision edge and, when A == L, v is not the anchor
 *     itself (candidates drawn uniformly and
 *     rejected while (a, v) is in a's row of P, up to FO_LINK_REDRAWS draws, then an exact draw
 *     among the nL - deg'(a) others; an anchor whose positives cover every L node gets -1).
 *     Negative j = i * k + q draws from the Philox stream keyed (seed, epoch) with counter
 *     (batch index, FO_RNG_TAG_ABLP | P, j). Hard negatives are not excluded from them.
 *  3. fo_sampler_sample_hetero(seeds, epoch, batch index).
 * Output (fo_ablp_batch_t), local ids (index into node[] of a type's node batch):
 *  - anchor_index [n]: the local id of each given anchor;
 *  - y_positive [2, n_pos] (C order): row 0 the local anchor id, row 1 the local label node id,
 *    one column per stored positive edge of the distinct anchors, anchors in order of first
 *    appearance, each anchor's in row order (a multi-edge stored twice appears twice);
 *  - y_negative [2, n_neg]: the same for the hard negatives (n_neg 0 without N);
 *  - random_negative [n, k]: local ids of type L, -1 where none exists (strict).
 * A batch is a pure function of (dataset, options, anchors, epoch, batch index): bit-identical
 * across runs, threads and processes.
 *
 * Partitioned datasets (partition.h, format_version 3): each anchor's rows are read from the
 * part that owns it (its type's book), so the batches are those of the unpartitioned dataset,
 * bit for bit. A part not open in this process (fo_dataset_opts.part, MPI) is FO_EINVAL naming
 * the anchor and the part; partitions made before format_version 3 carry no labels-only types
 * (FO_EINVAL, the message says to partition again). One part opened alone is FO_EINVAL.
 *
 * Not supported (FO_ENOSYS): disjoint mode, temporal sampling.
 *
 * Thread-safety: an ABLP sampler is used by one thread at a time; any number share a dataset.
 */
#ifndef FANOUT_ABLP_H
#define FANOUT_ABLP_H

#include "common.h"
#include "dataset.h"
#include "loader.h"
#include "sampler.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Largest num_random_negatives per anchor. */
#define FO_ABLP_MAX_RANDOM_NEGATIVES (INT64_C(1) << 20)

typedef struct fo_ablp_opts {
  fo_sampler_opts sampler;            /**< as fo_sampler_create (fanouts copied); disjoint and
                                           temporal: FO_ENOSYS */
  const char *supervision_edge_type;  /**< the positive labels-only edge type, "A__r__L" or its
                                           relation alone when unambiguous; NULL (default): the
                                           dataset's only positive labels-only type. Borrowed
                                           for create. */
  const char *negative_edge_type;     /**< the hard-negative labels-only type (same A and L);
                                           NULL (default): the only negative labels-only type
                                           from A to L; none if the dataset has no negative
                                           type; FO_EINVAL if it has several from A to L, or
                                           only ones that join other node types (their
                                           negatives would go unused) */
  bool no_hard_negatives;             /**< read no hard negatives even when a negative type
                                           exists; default false; FO_EINVAL together with a
                                           negative_edge_type */
  int64_t num_random_negatives;       /**< k random negatives per anchor, 0..2^20; default 0 */
  bool strict;                        /**< random negatives are never positives; default true */
} fo_ablp_opts;

typedef struct fo_ablp_batch {
  fo_batch_t *sample;         /**< the node batch (sampler.h), typed */
  int32_t anchor_type;        /**< node type A */
  int32_t label_type;         /**< node type L */
  int32_t positive_type;      /**< labels-only edge type index of P (fo_dataset_label_edge_type) */
  int32_t negative_type;      /**< of N, or -1 */
  int64_t n_anchors;          /**< n, as given */
  int64_t n_distinct;         /**< distinct anchors: local ids 0..n_distinct-1 of type A */
  int64_t *anchor_index;      /**< [n_anchors] */
  int64_t n_pos;
  int64_t *y_positive;        /**< [2, n_pos] C order */
  int64_t n_neg;
  int64_t *y_negative;        /**< [2, n_neg] C order */
  int64_t k;                  /**< random negatives per anchor */
  int64_t *random_negative;   /**< [n_anchors, k] local ids of type L, -1 where missing */
  int64_t n_random_missing;   /**< -1 entries in random_negative */
  /* internal: capacities */
  int64_t cap_anchor, cap_pos, cap_neg, cap_rand;
} fo_ablp_batch_t;

typedef struct fo_ablp_sampler fo_ablp_sampler_t;

/** Write the defaults into `o`. Cost: O(1). */
FO_API void fo_ablp_opts_init(fo_ablp_opts *o);

/**
 * Create an ABLP sampler over `d`.
 * @return FO_OK; FO_EINVAL for a NULL argument, a dataset without labels-only edge types, an
 *         unknown, ambiguous or wrong-kind supervision or negative type (message names it and
 *         lists the labels-only types; a traversed edge type named as supervision is refused
 *         the same way), a negative type whose node types differ from the positive one's,
 *         num_random_negatives outside 0..2^20, sampler options as fo_sampler_create;
 *         FO_ENOSYS for disjoint or temporal sampling; FO_ENOMEM.
 * Thread-safety: any thread. Cost: O(n_hops + edge types).
 */
FO_API int fo_ablp_sampler_create(const fo_dataset_t *d, const fo_ablp_opts *o,
                                  fo_ablp_sampler_t **out);

/** Free. Accepts NULL. */
FO_API void fo_ablp_sampler_destroy(fo_ablp_sampler_t *s);

/** The anchor node type A. Cost: O(1). */
FO_API int32_t fo_ablp_sampler_anchor_type(const fo_ablp_sampler_t *s);
/** The labels-only edge type index of the positives P (fo_dataset_label_edge_type). O(1). */
FO_API int32_t fo_ablp_sampler_positive_type(const fo_ablp_sampler_t *s);
/** That of the hard negatives N, or -1 without. Cost: O(1). */
FO_API int32_t fo_ablp_sampler_negative_type(const fo_ablp_sampler_t *s);

/**
 * Sample the batch of anchors anchor[i], i < n (ids of the anchor node type).
 * @param out  reset and filled (see fo_ablp_batch_t); valid until its next use.
 * @return FO_OK; FO_EINVAL for anchor NULL with n > 0, or n < 0; FO_ERANGE for an anchor out of
 *         range (message gives position, value and node type); FO_EFORMAT for a corrupt row of
 *         a supervision type (message names the array and position); as
 *         fo_sampler_sample_hetero otherwise. On error `out` is empty but valid.
 * Thread-safety: as the sampler. Cost: the node batch's, plus O(label edges of the anchors),
 * plus per random negative O(degree in P) per candidate (expected O(1) candidates).
 */
FO_API int fo_ablp_sampler_sample(fo_ablp_sampler_t *s, const fo_nid_t *anchor, int64_t n,
                                  uint64_t epoch, uint64_t batch_index, fo_ablp_batch_t *out);

/** Create an empty ABLP batch. @return FO_OK; FO_ENOMEM. */
FO_API int fo_ablp_batch_create(fo_ablp_batch_t **out);
/** Free an ABLP batch. Accepts NULL. */
FO_API void fo_ablp_batch_destroy(fo_ablp_batch_t *b);

/* ---- the ABLP loader: epochs of ABLP batches ------------------------------------------------ */

/**
 * An epoch splits the anchors (input_nodes) into ceil(n / batch_size) batches (floor with
 * drop_last), in input order or, with shuffle, in the order fo_random_permutation(n, seed,
 * epoch). Batch b of epoch e is fo_ablp_sampler_sample(its anchors, e, b) plus the feature rows
 * of every node type's nodes. Batches are made inside next() on the caller's thread.
 */
typedef struct fo_ablp_loader_opts {
  fo_ablp_opts ablp;           /**< the sampler's options (copied) */
  int64_t batch_size;          /**< anchors per batch, >= 1; default 1 */
  const fo_nid_t *input_nodes; /**< [n_input_nodes] anchors (ids of the anchor type), copied */
  int64_t n_input_nodes;       /**< default 0 */
  bool shuffle, drop_last;     /**< default false */
  uint64_t epoch;              /**< the first epoch; default 0 */
  bool features;               /**< gather x of every node type that has features; default true */
} fo_ablp_loader_opts;

typedef struct fo_ablp_loader_batch {
  uint64_t epoch;
  int64_t index;                /**< batch index in its epoch */
  const fo_ablp_batch_t *ablp;  /**< node batch and labels */
  const int64_t *input_id;      /**< [n_anchors] position of each anchor in input_nodes */
  int32_t n_node_types;
  const fo_loader_features *x;  /**< [n_node_types] feature rows (x NULL without features) */
} fo_ablp_loader_batch_t;

typedef struct fo_ablp_loader fo_ablp_loader_t;

/** Defaults into `o` (the sampler part as fo_ablp_opts_init). Cost: O(1). */
FO_API void fo_ablp_loader_opts_init(fo_ablp_loader_opts *o);

/**
 * Create an ABLP loader over `d` (its first epoch is o->epoch).
 * @return FO_OK; FO_EINVAL for batch_size < 1, n_input_nodes < 0, input_nodes NULL with
 *         n_input_nodes > 0, sampler options as fo_ablp_sampler_create; FO_ERANGE for an anchor
 *         that is not an id of the anchor type (message gives its position and value);
 *         FO_ENOMEM. Cost: O(n_input_nodes).
 */
FO_API int fo_ablp_loader_create(const fo_dataset_t *d, const fo_ablp_loader_opts *o,
                                 fo_ablp_loader_t **out);
/** Free. Accepts NULL. */
FO_API void fo_ablp_loader_destroy(fo_ablp_loader_t *L);
/** Batches per epoch (this process's, for a loader of fo_dist_ablp_loader_create). O(1). */
FO_API int64_t fo_ablp_loader_num_batches(const fo_ablp_loader_t *L);
/** The loader's ABLP sampler (for fo_ablp_sampler_anchor_type and the type getters), owned by
 *  the loader. Cost: O(1). */
FO_API const fo_ablp_sampler_t *fo_ablp_loader_sampler(const fo_ablp_loader_t *L);
/**
 * The next batch of the current epoch (made now), or *out NULL when the epoch is over. The
 * batch stays valid until the next call, start_epoch or destroy.
 * @return FO_OK; as fo_ablp_sampler_sample on error (the batch is skipped).
 * Thread-safety: one thread at a time. Cost: one ABLP batch and its feature rows.
 */
FO_API int fo_ablp_loader_next(fo_ablp_loader_t *L, fo_ablp_loader_batch_t **out);
/** Start `epoch` (reshuffled when shuffle) at batch 0. @return FO_OK. Cost: O(n_input_nodes). */
FO_API int fo_ablp_loader_start_epoch(fo_ablp_loader_t *L, uint64_t epoch);

/**
 * XXH64 digest of an ABLP loader batch: one XXH64 (seed 0) stream over every node type's node
 * ids, every edge type's row, col and edge ids, every gathered feature block (node type order),
 * anchor_index, y_positive, y_negative, random_negative and input_id, all as native int64
 * bytes. Equal batches give equal digests (single process, in-process parts, MPI: the loaders
 * of fo_ablp_loader_create and fo_dist_ablp_loader_create). Cost: O(batch size in bytes).
 */
FO_API uint64_t fo_ablp_loader_batch_digest(const fo_ablp_loader_batch_t *b);

#ifdef __cplusplus
}
#endif
#endif
