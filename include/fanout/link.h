/*
 * fanout/link.h: link-prediction mini-batches (PyG `LinkNeighborLoader` semantics): seed edges
 * of one edge type, random negatives that are never edges (strict), the seed edges made
 * ineligible for their own batch's neighborhoods, and the endpoints' multi-hop neighborhoods
 * sampled by the node sampler (sampler.h) in one call.
 *
 * A batch of B seed edges (src[i], dst[i]) of edge type et = (S, r, D):
 *  1. Negatives (optional, PyG's `NegativeSampling`):
 *     - binary, amount r > 0: ceil(r * B) pairs (u', v'), u' uniform over the S nodes, v' as
 *       below for u', appended after the positives with label 0;
 *     - triplet, amount k (an integer >= 1): for every positive i, k destinations v' for
 *       u = src[i], as below (PyG's `src_index`, `dst_pos_index`, `dst_neg_index`).
 *     A destination for u is uniform over the D nodes; strict (the default): uniform over the
 *     D nodes v' such that (u, v') is not an edge of et ("allowed destinations"). Candidates
 *     are drawn uniformly and rejected while (u, v') is an edge, up to FO_LINK_REDRAWS draws;
 *     after that, if the dataset stores et's CSR, u's distinct out-neighbors are sorted and the
 *     destination is drawn exactly among the n_D - deg'(u) others (O(deg log deg), once per
 *     such negative; the result is still uniform over allowed destinations); a u adjacent to
 *     every D node (or, without a CSR, one whose FO_LINK_REDRAWS candidates were all edges)
 *     gets no such negative: it is left out (binary) or marked -1 (triplet) and counted in
 *     n_neg_missing. Membership of (u, v') is checked by scanning the shorter of u's CSR row
 *     and v''s CSC row of et (whichever are stored; rows keep input order, unsorted): O(min
 *     degree) per candidate.
 *     Randomness: negative j (binary: j-th pair; triplet: j = i * k + q) draws from the
 *     Philox stream keyed (seed, epoch) with counter (batch index, FO_RNG_TAG_LINK | et, j):
 *     the same streams the sampler keys, with a tag no hop uses.
 *  2. Node seeds: per node type, every endpoint (positives, then negatives; PyG's order of
 *     concatenation: all src (positive, negative), then all dst (positive, negative), for a
 *     homogeneous edge type one list), deduplicated in order of first appearance; sampled by
 *     fo_sampler_sample_hetero (same batch index and epoch), so endpoint k of a node type is
 *     local node k of that type.
 *  3. Seed-edge exclusion (exclude_seed_edges): every edge of et from src[i] to dst[i] for a
 *     positive seed i (all copies of a multi-edge), and its reverse where the dataset defines
 *     one: every edge dst[i] -> src[i] of et when S == D and the dataset was imported with
 *     --undirected, and every such edge of the reverse type (D, rev_r, S) (or (D, r', S) when
 *     r = "rev_" + r') when the dataset has it (--reverse-edges). These edge positions are
 *     ineligible in every hop: the sampler draws among the row's other positions (the kernel
 *     sees a row of deg - x and its picks are mapped past the x excluded positions), so the
 *     fanout is met from the other neighbors and the law over them is the uniform one. They lie
 *     in the rows of the seed edges' endpoints, which are expanded at hop 0 only (each node is
 *     expanded once per edge type outside disjoint mode). Negatives are not excluded.
 *     Temporal (uniform, last; edge or node time): the eligible edges of a row are its time
 *     prefix (or window) at the tree's time, minus the excluded positions inside it, so uniform
 *     picks (with or without replacement) are uniform over eligible minus excluded and `last`
 *     takes the fanout most recent eligible non-excluded edges (a row whose eligible edges are
 *     all excluded gives none). Weighted (plain, or temporal uniform): an excluded edge has
 *     weight 0, never drawn, the others keep their relative probabilities (with replacement
 *     w_j / sum of the other (eligible) weights; without, successive sampling over them,
 *     min(fanout, positive others) edges); fanout -1 takes every other (eligible) edge. A row
 *     holding excluded positions is drawn by an exact O(deg) pass (prefix sums, or
 *     Efraimidis-Spirakis keys), the rest by the alias kernels as without exclusion. Cost per
 *     seed edge and excluded type: a scan of the shorter of the row holding it (edge_dir in:
 *     dst's CSC row) and, when the CSR with its eid is stored, src's CSR row (csr_eid gives the
 *     CSC positions): O(min degree), int32 indices compared 16 at a time; edge_dir out scans
 *     the CSR row; plus a sort of the batch's pairs, O(B log B), and of each row's x positions.
 *
 * Output (fo_link_batch_t): the node batch, and in local ids (index into node[] of the src
 * type, resp. the dst type) edge_label_index [2, n_label] with edge_label [n_label] (positives'
 * labels, or 1, then 0 for binary negatives; for triplet the positives only), and for triplet
 * src_index [B], dst_pos_index [B], dst_neg_index [B, k]. A batch is a pure function of (dataset, options, seed edges, epoch,
 * batch index): bit-identical across runs, threads and processes.
 *
 * Disjoint and temporal mode (fo_sampler_opts.disjoint, .temporal; PyG's semantics, where
 * edge_label_time makes sampling disjoint): endpoints are not deduplicated. Every endpoint
 * occurrence is a seed of its own tree, in the order of step 2 (homogeneous: src of positives,
 * src of binary negatives, dst of positives, dst of negatives; typed: per node type in that
 * order), so the local ids in edge_label_index (and the triplet indices) are those positions
 * and batch->batch of a node gives the position of its tree's endpoint. Temporal: seed edge i
 * carries time[i] (fo_link_sampler_sample_at, PyG's edge_label_time) and both its endpoints'
 * trees hold only edges eligible at time[i] (fo_sampler_opts.temporal: <= time, < with
 * time_strict, window); a negative takes its positive's time (binary negative j: positive
 * j mod B's, triplet j = i k + q: positive i's), as PyG does. Negatives are drawn as above,
 * not restricted in time. Exclusion applies in every hop in disjoint mode.
 *
 * Partitioned datasets with every part open in this process: strict-negative checks and
 * exclusion read each row in the part that owns it (found through the book), so batches equal
 * the unpartitioned dataset's. Parts store CSC rows only (a homogeneous partition), so the
 * exact strict fallback (which needs the CSR) is not used there, as on a plain dataset without
 * a CSR; the reverse of an undirected import is excluded since `fanout partition` records the
 * import's --undirected in the partitioned manifest (provenance.options).
 *
 * Distributed datasets (a part not open in this process): fo_link_sampler_create refuses them
 * (FO_ENOSYS); fo_dist_link_sampler_create and fo_dist_link_loader_create (dist.h) sample them
 * with the same batches, exclusion included in every mode (edge_dir in and out, weighted,
 * temporal).
 *
 * Thread-safety: a link sampler is used by one thread at a time; any number share one dataset.
 */
#ifndef FANOUT_LINK_H
#define FANOUT_LINK_H

#include "common.h"
#include "dataset.h"
#include "sampler.h"
#include "loader.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Uniform candidates tried for a strict negative before the exact fallback. */
#define FO_LINK_REDRAWS 32

typedef enum fo_neg_mode {
  FO_NEG_NONE = 0,    /**< no negatives */
  FO_NEG_BINARY = 1,  /**< PyG NegativeSampling("binary", amount) */
  FO_NEG_TRIPLET = 2  /**< PyG NegativeSampling("triplet", amount) */
} fo_neg_mode;

typedef struct fo_link_opts {
  fo_sampler_opts sampler;   /**< as fo_sampler_create (fanouts copied); disjoint: FO_ENOSYS */
  const char *edge_type;     /**< the seed edges' type, "src__rel__dst" or a relation name alone
                                  when unambiguous; NULL (default): the only edge type (an error
                                  when there are several). Borrowed for create. */
  fo_neg_mode neg;           /**< default FO_NEG_NONE */
  double neg_amount;         /**< binary: ratio r > 0; triplet: k, an integer in 1..2^20;
                                  default 1 */
  bool strict;               /**< negatives are never edges of the edge type; default true */
  bool exclude_seed_edges;   /**< make seed edges (and reverses) ineligible; default false */
} fo_link_opts;

typedef struct fo_link_batch {
  fo_batch_t *sample;        /**< the node batch (sampler.h), typed as the dataset is */
  int32_t edge_type, src_type, dst_type;
  int64_t n_pos;             /**< B, the seed edges */
  int64_t n_label;           /**< columns of edge_label_index: B + n_neg (binary) or B */
  int64_t *edge_label_index; /**< [2, n_label] C order: row 0 local src ids, row 1 local dst */
  int64_t *edge_label;       /**< [n_label] */
  int64_t *src_index;        /**< triplet: [B] local src ids; NULL otherwise */
  int64_t *dst_pos_index;    /**< triplet: [B] local dst ids */
  int64_t *dst_neg_index;    /**< triplet: [B, k] local dst ids, -1 where missing */
  int64_t k;                 /**< triplet: negatives per positive; 0 otherwise */
  int64_t n_neg;             /**< negatives drawn */
  int64_t n_neg_missing;     /**< negatives asked for but not found (strict, see above) */
  int64_t n_excluded;        /**< edge positions made ineligible (exclude_seed_edges) */
  /* internal: capacities */
  int64_t cap_label, cap_trip;
} fo_link_batch_t;

typedef struct fo_link_sampler fo_link_sampler_t;

/** Write the defaults into `o`. Cost: O(1). */
FO_API void fo_link_opts_init(fo_link_opts *o);

/**
 * Create a link sampler over `d`.
 * @return FO_OK; FO_EINVAL for a NULL argument, an unknown or ambiguous edge type (message
 *         names it and lists the types), an unknown neg mode, a negative amount <= 0 (or not an
 *         integer in 1..2^20 for triplet), strict negatives or exclusion without the topology
 *         they read (strict: et's CSR or CSC; message names the import option), sampler
 *         options as fo_sampler_create; FO_ENOSYS for a partitioned dataset with a part not
 *         open here (message names it);
 *         FO_EINVAL when the owning part of a row lacks a direction it needs; FO_ENOMEM.
 * Thread-safety: any thread. Cost: O(n_hops + manifest) .
 */
FO_API int fo_link_sampler_create(const fo_dataset_t *d, const fo_link_opts *o,
                                  fo_link_sampler_t **out);

/** Index of the seed edges' edge type. Cost: O(1). */
FO_API int32_t fo_link_sampler_edge_type(const fo_link_sampler_t *s);

/** Free. Accepts NULL. */
FO_API void fo_link_sampler_destroy(fo_link_sampler_t *s);

/**
 * Sample the batch of seed edges (src[i], dst[i]), i < n (node ids of the edge type's src and
 * dst node types), with optional labels `label` [n] (NULL: every positive is labelled 1).
 * @param out  reset and filled (see fo_link_batch_t); valid until its next use.
 * @return FO_OK; FO_EINVAL for NULL arrays with n > 0 or n < 0; FO_ERANGE for an endpoint out
 *         of range (message gives the position, the value and the node type); as
 *         fo_sampler_sample_hetero otherwise. On error `out` is empty but valid.
 * Thread-safety: as the sampler. Cost: the node batch's, plus the negatives' membership
 * checks (O(min degree) each, expected O(1) candidates for sparse graphs), plus the exclusion
 * (O(degree) per endpoint row of a seed edge).
 */
FO_API int fo_link_sampler_sample(fo_link_sampler_t *s, const fo_nid_t *src, const fo_nid_t *dst,
                                  const int64_t *label, int64_t n, uint64_t epoch,
                                  uint64_t batch_index, fo_link_batch_t *out);

/**
 * fo_link_sampler_sample with the seed edges' times `time` [n] (PyG's edge_label_time) for a
 * temporal sampler (see "Disjoint and temporal mode" above); `time` must be NULL for other
 * samplers. @return as fo_link_sampler_sample; FO_EINVAL for a temporal sampler without times
 * (n > 0) or times for a sampler that is not temporal. fo_link_sampler_sample is this with
 * time NULL.
 */
FO_API int fo_link_sampler_sample_at(fo_link_sampler_t *s, const fo_nid_t *src, const fo_nid_t *dst,
                                     const int64_t *label, const int64_t *time, int64_t n,
                                     uint64_t epoch, uint64_t batch_index, fo_link_batch_t *out);

/** Create an empty link batch. @return FO_OK; FO_ENOMEM. */
FO_API int fo_link_batch_create(fo_link_batch_t **out);
/** Free a link batch. Accepts NULL. */
FO_API void fo_link_batch_destroy(fo_link_batch_t *b);

/**
 * Whether (u, v) is an edge of edge type et of `d` (scanning the shorter of u's CSR row and
 * v's CSC row, whichever are stored). @return 1 yes, 0 no, or a negative status: FO_ERANGE for
 * et, u or v out of range; FO_EINVAL without CSR and CSC. Cost: O(min degree).
 */
FO_API int fo_link_has_edge(const fo_dataset_t *d, int32_t et, fo_nid_t u, fo_nid_t v);

/* ---- the link loader: epochs of link batches ------------------------------------------------ */

/**
 * An epoch splits the seed edges into ceil(n / batch_size) batches (floor with drop_last), in
 * input order or, with shuffle, in the order fo_random_permutation(n, seed, epoch). Batch b of
 * epoch e is fo_link_sampler_sample(its seed edges, labels, e, b) plus the feature rows of every
 * node type's nodes: a pure function of (dataset, options, epoch, b). Binary negatives with
 * labels whose minimum is 0 shift every label by one, so 0 means "negative" (PyG's
 * LinkLoader). Batches are made inside next() on the caller's thread (no worker threads yet).
 */
typedef struct fo_link_loader_opts {
  fo_link_opts link;           /**< the link sampler's options (copied) */
  int64_t batch_size;          /**< seed edges per batch, >= 1; default 1 */
  const fo_nid_t *edge_label_index; /**< [2, n_edges] C order (row 0 src, row 1 dst), copied */
  int64_t n_edges;             /**< default 0 */
  const int64_t *edge_label;   /**< [n_edges] or NULL (all 1); copied */
  const int64_t *edge_label_time; /**< [n_edges] the seed edges' times (temporal samplers
                                    only, then required; with edge_split: NULL takes each
                                    split edge's stored edge time); copied. Default NULL */
  const char *edge_split;      /**< seed edges from this stored edge split of link.edge_type
                                    (import --edge-split; fo_dataset_edge_split) instead of
                                    edge_label_index, which must then be unset (n_edges 0,
                                    edge_label NULL); every label is 1 and input_id gives
                                    positions in the split. Default NULL. Borrowed for create */
  bool shuffle, drop_last;     /**< default false */
  uint64_t epoch;              /**< the first epoch; default 0 */
  bool features;               /**< gather x of every node type that has features; default true */
} fo_link_loader_opts;

typedef struct fo_link_loader_batch {
  uint64_t epoch;
  int64_t index;               /**< batch index in its epoch */
  const fo_link_batch_t *link; /**< node batch and labels */
  const int64_t *input_id;     /**< [n_pos] position of each seed edge in edge_label_index
                                    (or in the edge split) */
  int32_t n_node_types;
  const fo_loader_features *x; /**< [n_node_types] feature rows of each type's nodes (x NULL
                                    for a type without features or when not gathered) */
} fo_link_loader_batch_t;

typedef struct fo_link_loader fo_link_loader_t;

/** Defaults into `o` (the link part as fo_link_opts_init). Cost: O(1). */
FO_API void fo_link_loader_opts_init(fo_link_loader_opts *o);

/**
 * Create a link loader over `d` (its first epoch is o->epoch).
 * @return FO_OK; FO_EINVAL for batch_size < 1, n_edges < 0, edge_label_index NULL with
 *         n_edges > 0, edge_label_time for a sampler that is not temporal, a temporal one
 *         without edge_label_time (and, with edge_split, without stored edge times of the
 *         edge type), edge_split with edge_label_index, n_edges or edge_label, an edge split
 *         the edge type does not have (message lists those it has), link options as
 *         fo_link_sampler_create; FO_ERANGE for a seed edge whose
 *         endpoints are not ids of the edge type's node types (message gives its position);
 *         FO_ENOMEM. Cost: O(n_edges).
 */
FO_API int fo_link_loader_create(const fo_dataset_t *d, const fo_link_loader_opts *o,
                                 fo_link_loader_t **out);
/** Free. Accepts NULL. */
FO_API void fo_link_loader_destroy(fo_link_loader_t *L);
/** Batches per epoch. Cost: O(1). */
FO_API int64_t fo_link_loader_num_batches(const fo_link_loader_t *L);
/** Index of the seed edges' edge type. Cost: O(1). */
FO_API int32_t fo_link_loader_edge_type(const fo_link_loader_t *L);
/**
 * The next batch of the current epoch (made now), or *out NULL when the epoch is over. The
 * batch stays valid until the next call, start_epoch or destroy.
 * @return FO_OK; as fo_link_sampler_sample on error (the batch is skipped).
 * Thread-safety: one thread at a time. Cost: one link batch and its feature rows.
 */
FO_API int fo_link_loader_next(fo_link_loader_t *L, fo_link_loader_batch_t **out);
/** Start `epoch` (reshuffled when shuffle) at batch 0. @return FO_OK. Cost: O(n_edges). */
FO_API int fo_link_loader_start_epoch(fo_link_loader_t *L, uint64_t epoch);

/**
 * XXH64 digest of a link loader batch: one XXH64 (seed 0) stream over every node type's node
 * ids, every edge type's row, col and edge, the feature rows gathered, then edge_label_index and
 * edge_label (binary / none) or src_index, dst_pos_index and dst_neg_index (triplet), then
 * input_id, all as native int64 bytes. Equal batches give equal digests on any thread count.
 * Cost: O(batch bytes).
 */
FO_API uint64_t fo_link_loader_batch_digest(const fo_link_loader_batch_t *b);

#ifdef __cplusplus
}
#endif
#endif
