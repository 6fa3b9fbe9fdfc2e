/*
 * fanout/sampler.h: multi-hop node-wise neighbor sampling (GraphSAGE, Hamilton et al. 2017,
 * "Inductive Representation Learning on Large Graphs"), with the output contract of PyG's
 * `SamplerOutput` (see docs/ARCHITECTURE.md, "Batch").
 *
 * Hop by hop, every node of the frontier (the seeds, then each hop's new nodes) draws up to
 * fanout[hop] of its neighbors (in-neighbors for FO_EDGE_DIR_IN, out-neighbors for
 * FO_EDGE_DIR_OUT):
 *  - fanout -1: all neighbors, in stored order; 0: none.
 *  - without replacement: exactly min(fanout, degree) distinct edge positions, uniform over the
 *    k-subsets (Robert Floyd's algorithm, Bentley & Floyd, "A sample of brilliance", CACM 1987);
 *    when fanout >= degree all neighbors are taken, in stored order.
 *  - with replacement: exactly `fanout` independent uniform draws, none for a node of degree 0.
 * Multi-edges and self-loops are ordinary edges. The inducer then gives every distinct node a
 * local id (its index in `node`) in discovery order: seeds first, then each hop's new nodes in
 * the order their first edge was sampled.
 *
 * Duplicate seeds keep their own positions: seed i is node[i] for every i, and each copy is
 * expanded (with the same random stream, so non-disjoint copies draw the same neighbors);
 * a neighbor equal to a duplicated seed maps to its first position.
 *
 * Disjoint mode (PyG `disjoint=True`): each seed grows its own tree; a node reached from two
 * seeds appears twice, and `batch[i]` is the index of the seed node i belongs to.
 *
 * Randomness: every draw comes from Random123's Philox4x64-10 (Salmon et al., "Parallel random
 * numbers: as easy as 1, 2, 3", SC 2011) with key (seed, epoch) and counter (batch index,
 * hop | (seed index + 1) << 8 in disjoint mode, global id of the node expanded, block), and
 * Lemire's multiply-shift with rejection for an exact uniform integer ("Fast random integer
 * generation in an interval", ACM TOMACS 2019). A batch is therefore a pure function of
 * (dataset, options, seeds, epoch, batch index): bit-identical across runs, threads and
 * processes.
 *
 * Thread-safety: a sampler is used by one thread at a time; any number of samplers may share one
 * dataset concurrently. A batch is written by one sampler call at a time.
 */
#ifndef FANOUT_SAMPLER_H
#define FANOUT_SAMPLER_H

#include "common.h"
#include "dataset.h"
#include "random.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct fo_sampler fo_sampler_t;

/** Temporal sampling (fo_sampler_opts.temporal): which eligible edges a node takes. */
typedef enum fo_temporal_strategy {
  FO_TEMPORAL_NONE = 0,    /**< no time constraint (default) */
  FO_TEMPORAL_UNIFORM = 1, /**< uniform among the eligible edges, with or without replacement
                                (PyG temporal_strategy="uniform") */
  FO_TEMPORAL_LAST = 2     /**< the min(fanout, eligible) most recent eligible edges, in
                                stored (time-ascending) order; deterministic, `replace` ignored
                                (PyG temporal_strategy="last") */
} fo_temporal_strategy;

/** What a time constraint compares (PyG time_attr): edge times or neighbor node times. */
typedef enum fo_time_attr {
  FO_TIME_ATTR_EDGE = 0,   /**< edge e is eligible iff edge_time[e] <= t (the "time" arrays,
                                import --edge-time / --time-col) */
  FO_TIME_ATTR_NODE = 1    /**< the edge to neighbor u is eligible iff node_time[u] <= t
                                (import --node-time; typed: the neighbor type's node times) */
} fo_time_attr;

typedef struct fo_sampler_opts {
  const int32_t *fanouts; /**< [n_hops] per-hop fanout, -1 = all, 0 = none; copied by create */
  int32_t n_hops;         /**< number of hops, 1..64; default 0 = must be set */
  bool replace;           /**< sample with replacement; default false */
  fo_edge_dir edge_dir;   /**< default FO_EDGE_DIR_IN (needs the CSC; OUT needs the CSR) */
  bool disjoint;          /**< one tree per seed, fills batch->batch; default false */
  uint64_t seed;          /**< user seed of the random streams; default 0 */
  const int32_t *edge_type_fanouts; /**< typed datasets: [n_edge_types * n_hops], entry
                               [et * n_hops + h] the fanout of edge type et at hop h (PyG's
                               `num_neighbors={edge_type: [...]}`); NULL (default): `fanouts`
                               for every edge type. Copied by create. */
  bool weighted;          /**< draw neighbors by edge weight (the dataset's "weight" arrays,
                               import --edge-weight; typed: per edge type, and every edge
                               type sampled needs them); default false (uniform). With
                               replacement: each draw picks edge j with probability
                               w_j / sum(w) of the row, none for a row of zero weights;
                               without: successive sampling (torch.multinomial
                               replacement=False): exactly min(fanout, #edges with w > 0)
                               distinct edges, zero-weight edges never, in pick order (all
                               positive edges in stored order when they all fit); fanout -1:
                               all neighbors, weights ignored. O(1) per draw from the alias
                               tables stored at import (probabilities to 2^-32); without
                               replacement repeats are redrawn, and rows of degree <= 1.25 x
                               fanout (or with piled-up repeats) use Efraimidis-Spirakis keys,
                               O(deg log fanout). A draw takes one 32-bit random word for
                               both the offset and the coin (a second with probability about
                               deg / 2^32; exact, docs/ARCHITECTURE.md).
                               Partitioned datasets (parts carry their rows' weights and alias
                               tables) and fo_dist (the one-hop requests say weighted) give
                               the unpartitioned batches. */
  /* ---- temporal sampling (PyG NeighborSampler time_attr / temporal_strategy) ------------ */
  fo_temporal_strategy temporal; /**< default FO_TEMPORAL_NONE. Otherwise every seed carries a
                               time t (fo_sampler_sample_at: seed_time, or by default the seed's
                               node time) and every node of seed i's tree is expanded with
                               seed i's t: sampling is disjoint (one tree per seed, as PyG
                               forces for temporal sampling), whatever `disjoint` says. Only
                               eligible edges are drawn (time_attr, time_strict, time_window);
                               fanout -1 takes all eligible edges. Edge-time mode narrows each
                               row to its eligible range [lo, hi) by two lower-bound searches
                               (one without a window; rows are sorted by time at import):
                               interpolation from the row's first and last times, a second
                               probe by the same slope, then a scan of at most 16 positions and
                               a binary search past it (Van Sandt et al., SIGMOD 2019, "slope
                               reuse"): about 6 reads per node on evenly spread times, at most
                               20 + log2(deg) on any; the positions are those of a binary
                               search. Then it runs the uniform kernel (or takes the last k) on
                               the narrowed row: no extra memory. Node-time mode: the same
                               searches through node_time[indices[p]] when rows are ordered by neighbor
                               time (fo_topology.rows_by_node_time: imports with node times
                               and no edge times), else a filter pass over each row: O(deg)
                               per node, one 8-byte scratch entry per edge of the row ("last":
                               plus a sort by neighbor time, O(e log e) for e eligible). Errors: FO_EINVAL if the
                               dataset lacks the times (message names the edge or node type
                               and the import option), FO_EINVAL for `weighted` with "last".
                               With `weighted` (uniform strategy): draws by weight among the
                               eligible edges (the whole row's alias draws, ineligible ones
                               rejected; an exact pass over the eligible range when the
                               rejections exceed 2 fanout + 8); node-time mode over rows not
                               ordered by neighbor time: an exact pass over the filtered
                               eligible edges (prefix sums and a binary search per draw, a
                               repeat drawn again without replacement; Efraimidis-Spirakis
                               keys for short rows and after 2 fanout + 8 repeats),
                               O(eligible) per node. Partitioned datasets
                               (edge times in the parts, node times whole at the top level) and
                               fo_dist (each one-hop request carries the mode and every node's
                               time bound) give the unpartitioned batches. */
  fo_time_attr time_attr; /**< default FO_TIME_ATTR_EDGE */
  bool time_strict;       /**< eligible iff time < t instead of <= t; default false */
  int64_t time_window;    /**< >= 0: also time >= t - window (a window of `window` time units
                               ending at t, both ends as above); default -1 (no lower bound) */
} fo_sampler_opts;

/**
 * One sampled mini-batch (PyG SamplerOutput). Arrays are owned by the batch, valid until the
 * batch's next use by a sampler or fo_batch_destroy(); callers read, never write, the fields.
 */
typedef struct fo_batch {
  int64_t n_seeds;  /**< number of seeds (the first n_seeds entries of node) */
  int64_t n_nodes;  /**< N */
  int64_t n_edges;  /**< E */
  int32_t n_hops;
  bool disjoint;
  int64_t *node;    /**< [N] global node ids: seeds first, then each hop's new nodes */
  int64_t *row;     /**< [E] local index (into node) of the neighbor: message source */
  int64_t *col;     /**< [E] local index of the node it was sampled for: message target */
  int64_t *edge;    /**< [E] global edge id (see dataset.h) of each sampled edge */
  int64_t *batch;   /**< [N] disjoint mode: index of each node's seed; NULL otherwise */
  int64_t *num_sampled_nodes; /**< [n_hops+1]: seeds, then new nodes per hop */
  int64_t *num_sampled_edges; /**< [n_hops]: edges sampled per hop */
  /** Typed datasets (PyG HeteroSamplerOutput): `typed` is true, n_seeds / n_nodes / n_edges
   *  are totals over the types, and the arrays above are NOT filled: read each node type's and
   *  edge type's part with fo_batch_node_type() / fo_batch_edge_type(). For a version-1
   *  dataset typed is false, n_node_types = n_edge_types = 1 and both accessors give the batch
   *  itself. */
  bool typed;
  int32_t n_node_types, n_edge_types;
  /* Internal: capacities of the arrays above (elements), and the typed sub-batches. */
  int64_t cap_nodes, cap_batch, cap_edges, cap_hops;
  struct fo_batch **types;
  int64_t cap_types;
} fo_batch_t;

/** Write the defaults into `o`. Cost: O(1). */
FO_API void fo_sampler_opts_init(fo_sampler_opts *o);

/**
 * Create a sampler over dataset `d`.
 *
 * @param d    the dataset; borrowed, must outlive the sampler.
 * @param o    options; `fanouts` is copied.
 * @param out  receives the sampler, or NULL on failure.
 * @return FO_OK; FO_EINVAL if o or o->fanouts is NULL, n_hops is outside 1..64, a fanout is
 *         < -1 (message gives the hop, the value and for edge_type_fanouts the edge type), or
 *         the dataset (any edge type of a typed one) lacks the topology that edge_dir needs,
 *         or `weighted` is set and it stores no weights for that topology (message names the
 *         edge type and --edge-weight; a partitioned dataset: the part); FO_ENOMEM.
 * Thread-safety: any thread. Cost: O(n_hops); the scratch grows on first use.
 */
FO_API int fo_sampler_create(const fo_dataset_t *d, const fo_sampler_opts *o,
                             fo_sampler_t **out);

/** Free a sampler. Accepts NULL. */
FO_API void fo_sampler_destroy(fo_sampler_t *s);

/**
 * Sample the multi-hop neighborhood of `seeds` into `out`.
 *
 * @param s            sampler; one thread at a time.
 * @param seeds        [n_seeds] global node ids, each in [0, n); borrowed for the call.
 * @param n_seeds      >= 0; 0 gives an empty batch (num_sampled_* all zero).
 * @param epoch        epoch number, part of the random key.
 * @param batch_index  index of the batch within its epoch, part of the random key.
 * @param out          reset, then filled (see fo_batch_t).
 * @return FO_OK; FO_EINVAL if seeds is NULL with n_seeds > 0 or n_seeds < 0; FO_ERANGE if a
 *         seed is not in [0, n) (message gives its index and value), or a batch would exceed
 *         2^32 - 1 nodes, or in disjoint mode n * n_seeds exceeds 2^63; FO_EFORMAT if the
 *         dataset is corrupt where it was read (message names the array and position);
 *         FO_ENOMEM. On error `out` is empty (n_nodes = n_edges = 0) but valid.
 * Thread-safety: as the sampler. Cost: O(sum over hops of frontier size x fanout) expected;
 * no allocation once the sampler's scratch and `out` have grown to the batch's size.
 */
FO_API int fo_sampler_sample(fo_sampler_t *s, const fo_nid_t *seeds, int64_t n_seeds,
                             uint64_t epoch, uint64_t batch_index, fo_batch_t *out);

/**
 * Sample the multi-hop neighborhood of `seeds`, nodes of node type `node_type` (PyG's
 * `input_nodes=(type, ids)`), in a typed dataset (a version-1 dataset has node type 0 only).
 *
 * Hop h expands, for every edge type whose frontier type has frontier nodes (edge_dir in: the
 * dst type, neighbors among the src type; out: the src type, neighbors among the dst type),
 * those nodes' neighbors along that edge type, with that edge type's fanout at hop h; edge
 * types run in dataset order, and the frontier of hop h + 1 is, per node type, the nodes hop h
 * added. Draws of node v along edge type et come from the stream keyed as fo_sampler_sample's
 * with et added to the counter (et 0 draws exactly what a version-1 dataset draws).
 *
 * Output, per node type t (fo_batch_node_type(out, t)): node[n_nodes] (ids of type t; for the
 * seed type the seeds first), n_seeds (the seeds for the seed type, 0 otherwise),
 * num_sampled_nodes[n_hops + 1], batch[] in disjoint mode; per edge type et
 * (fo_batch_edge_type(out, et)): row, col, edge [n_edges] and num_sampled_edges[n_hops], with
 * row indexing the neighbor type's node[] (src for edge_dir in) and col the frontier type's
 * (dst for in), edge the edge type's own edge ids.
 *
 * @return as fo_sampler_sample; also FO_EINVAL if node_type is out of range, FO_ERANGE if a seed
 *         is not an id of that node type (message names the type).
 * Thread-safety and cost: as fo_sampler_sample (per edge type and hop, the frontier size times
 * the fanout).
 */
FO_API int fo_sampler_sample_typed(fo_sampler_t *s, int32_t node_type, const fo_nid_t *seeds,
                                   int64_t n_seeds, uint64_t epoch, uint64_t batch_index,
                                   fo_batch_t *out);

/**
 * Sample from seeds of several node types at once (PyG's input dict; link prediction seeds
 * both endpoint types): `seeds[t]` [n_seeds[t]] are seeds of node type t, for every node type
 * t of the dataset (n_seeds[t] = 0 and seeds[t] NULL for types without seeds). Each type's seeds
 * come first in its node list, in the order given; in disjoint mode seed k of the
 * concatenation in type order is tree k. With seeds of one type this is
 * fo_sampler_sample_typed.
 * @param seeds    [n_node_types] arrays, borrowed for the call.
 * @param n_seeds  [n_node_types] counts, each >= 0.
 * @return as fo_sampler_sample_typed; FO_EINVAL if seeds or n_seeds is NULL, a count is
 *         negative, or a non-empty type's seeds are NULL.
 * Thread-safety and cost: as fo_sampler_sample.
 */
FO_API int fo_sampler_sample_hetero(fo_sampler_t *s, const fo_nid_t *const *seeds,
                                    const int64_t *n_seeds, uint64_t epoch, uint64_t batch_index,
                                    fo_batch_t *out);

/**
 * Temporal sampling (fo_sampler_opts.temporal): fo_sampler_sample_typed with a time per seed.
 * Seed i's tree (its own neighborhood: temporal sampling is disjoint) contains only edges
 * eligible at seed_time[i] (see fo_sampler_opts.temporal); batch->batch gives each node's tree.
 * @param seed_time  [n_seeds] int64 times, borrowed for the call; NULL: each seed's node time
 *                   (the seeds' node type's node_time array).
 * @return as fo_sampler_sample_typed; FO_EINVAL if the sampler is not temporal, or seed_time
 *         is NULL and the seeds' node type has no node times (message names --seed-time and
 *         --node-time). fo_sampler_sample / _typed / _hetero on a temporal sampler use the node
 *         times the same way.
 * Thread-safety: as fo_sampler_sample. Cost: as fo_sampler_sample plus, per frontier node,
 * O(log deg) (edge time) or O(deg) (node time).
 */
FO_API int fo_sampler_sample_at(fo_sampler_t *s, int32_t node_type, const fo_nid_t *seeds,
                                const int64_t *seed_time, int64_t n_seeds, uint64_t epoch,
                                uint64_t batch_index, fo_batch_t *out);

/**
 * fo_sampler_sample_hetero with seed times: `seed_time[t]` [n_seeds[t]] the times of type t's
 * seeds (seed_time NULL, or seed_time[t] NULL: their node times). Errors as
 * fo_sampler_sample_at.
 */
FO_API int fo_sampler_sample_hetero_at(fo_sampler_t *s, const fo_nid_t *const *seeds,
                                       const int64_t *const *seed_time, const int64_t *n_seeds,
                                       uint64_t epoch, uint64_t batch_index, fo_batch_t *out);

/**
 * The part of batch `b` that belongs to node type t (typed: a sub-batch whose n_seeds,
 * n_nodes, node, batch and num_sampled_nodes are that type's; version 1: `b` itself, t = 0).
 * Owned by `b`, valid until its next use or destroy. NULL when t is out of range. Cost: O(1).
 */
FO_API const fo_batch_t *fo_batch_node_type(const fo_batch_t *b, int32_t t);

/**
 * The part of batch `b` that belongs to edge type et (typed: a sub-batch whose n_edges, row,
 * col, edge and num_sampled_edges are that type's; version 1: `b` itself, et = 0). Owned by
 * `b`, valid until its next use or destroy. NULL when et is out of range. Cost: O(1).
 */
FO_API const fo_batch_t *fo_batch_edge_type(const fo_batch_t *b, int32_t et);

/**
 * Create an empty batch. @return FO_OK; FO_ENOMEM. `*out` is NULL on failure.
 */
FO_API int fo_batch_create(fo_batch_t **out);

/** Free a batch and its arrays. Accepts NULL. */
FO_API void fo_batch_destroy(fo_batch_t *b);


#ifdef __cplusplus
}
#endif
#endif
