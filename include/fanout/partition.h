/*
 * fanout/partition.h: cutting a dataset into parts, one per machine, and judging the cut.
 *
 * A partitioned dataset is a directory (format "fanout-partitioned", docs/FORMAT.md) holding the
 * partition book, the splits of the whole graph and one subdirectory `part-<k>` per part. Part k
 * is itself a dataset: for the nodes it owns (its rows, ascending) it stores their full in-neighbor
 * lists (CSC, global neighbor ids, each list in the order of the unpartitioned dataset), the global
 * edge id of every entry, their features, labels and split members. Node ids never change, so
 * fo_dataset_open() on the directory opens all parts and samplers and loaders over it give the
 * same batches, bit for bit, as over the unpartitioned dataset.
 *
 * The book is small: the part of every node as uint8 (P <= 256) or uint16 (P <= 65536), plus per
 * part a rank directory (uint32 per 64 nodes: 1/16 byte per node) to find a node's row; a range
 * partition stores only its P + 1 bounds. GLT keeps 8 bytes per node and per edge instead.
 *
 * Methods: hash (a node's part is a keyed hash of its id: a random cut), range (contiguous id
 * ranges of equal size, or of equal train-node counts with FO_BALANCE_TRAIN), and METIS k-way
 * (Karypis & Kumar, "A fast and high quality multilevel scheme for partitioning irregular
 * graphs", SIAM J. Sci. Comput. 1998) on the symmetrized graph, minimizing the edge cut with
 * balanced node counts, or balanced node and train-node counts (two vertex weights) with
 * FO_BALANCE_TRAIN. libmetis is loaded at run time (dlopen "libmetis.so.5", or the path in the
 * environment variable FO_METIS_LIBRARY), so fanout builds and runs without it. libmetis prints
 * some diagnostics on stdout; while it runs, the process's stdout (fd 1) is pointed at stderr
 * (METIS calls are serialized). P = 1 needs no METIS. With P close to the node count METIS
 * may leave parts empty; range partitions keep every part non-empty when they can.
 *
 * Typed datasets (format version 2): a book per node type (each in one of the two forms above,
 * over the type's own ids), hash and range per node type, METIS on the graph of all node and
 * edge types together (global ids offset_t + i, every edge type's edges, symmetrized; train
 * membership of every type's split `train_split`). Each part is a typed dataset holding, for the
 * nodes it owns of each node type, their rows of every edge type: the CSC rows of destination
 * nodes and, when the input has a CSR, the CSR rows of source nodes (so edge_dir out works over
 * the parts), with the edge type's edge ids, and per node type their features, labels and split
 * members. Labels-only (supervision) edge types (format_version 3) go with their anchors: each
 * part holds the CSR rows of the source nodes it owns, never a CSC, in the part's own labels-only
 * table, so the ABLP sampler (ablp.h) reads them and the node sampler never sees them; top level
 * and parts are then format_version 3. fo_dataset_node_data(d, t) of the opened dataset is then
 * partitioned too
 * (fo_dataset_num_parts, fo_dataset_node_part, fo_dataset_part give type t's book and parts).
 * The report holds the totals over the types; the manifest's "quality" adds per-part counts
 * per node type and edge type. One-type datasets are written exactly as before.
 */
#ifndef FANOUT_PARTITION_H
#define FANOUT_PARTITION_H

#include "common.h"
#include "dataset.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum fo_partition_method {
  FO_PARTITION_HASH = 0,
  FO_PARTITION_RANGE = 1,
  FO_PARTITION_METIS = 2
} fo_partition_method;

typedef enum fo_partition_balance {
  FO_BALANCE_NODES = 0, /**< equal node counts */
  FO_BALANCE_TRAIN = 1  /**< equal train-node counts too (range: only them) */
} fo_partition_balance;

typedef struct fo_partition_opts {
  int32_t n_parts;              /**< P, 1..65536 and <= number of nodes; default 0 = must be set */
  fo_partition_method method;   /**< default FO_PARTITION_HASH */
  fo_partition_balance balance; /**< default FO_BALANCE_NODES */
  const char *train_split;      /**< split whose nodes FO_BALANCE_TRAIN balances and the report
                                     counts; default "train" */
  uint64_t seed;                /**< hash key and METIS seed; default 0 */
  bool force;                   /**< replace an existing output dataset; default false */
  bool progress;                /**< progress on stderr when it is a terminal; default false */
  const volatile int *cancel;   /**< stop with FO_ECANCELED when it becomes non-zero */
} fo_partition_opts;

/** Counts of one part. */
typedef struct fo_partition_part {
  int64_t nodes;       /**< nodes owned */
  int64_t edges;       /**< in-edges of the owned nodes (rows of its CSC) */
  int64_t train_nodes; /**< owned members of the train split */
  int64_t halo_nodes;  /**< distinct in-neighbors of owned nodes owned by other parts */
} fo_partition_part;

/** Quality of a partition. */
typedef struct fo_partition_report {
  int32_t n_parts;
  int64_t n_nodes, n_edges, train_nodes;
  int64_t cut_edges;     /**< edges whose endpoints are owned by different parts */
  double edge_cut;       /**< cut_edges / n_edges (0 for no edges) */
  double replication;    /**< (sum over parts of nodes + halo_nodes) / n_nodes */
  double node_balance;   /**< max part nodes / mean part nodes */
  double train_balance;  /**< max part train nodes / mean (1 when there are none) */
  fo_partition_part *parts; /**< [n_parts], owned by the report: fo_partition_report_free */
} fo_partition_report;

/** Write the defaults into `o`. Cost: O(1). */
FO_API void fo_partition_opts_init(fo_partition_opts *o);

/** Parse "hash", "range" or "metis". FO_EINVAL names a bad one. */
FO_API int fo_partition_method_parse(const char *name, fo_partition_method *out);

/**
 * Partition the dataset `in_dir` (a plain dataset with a CSC, typed or not) into `out_dir`, atomically like an
 * import (built in a hidden temporary directory, renamed at the end; nothing left on failure).
 *
 * @param rep  if not NULL, filled with the quality of the partition (free with
 *             fo_partition_report_free); zeroed on failure.
 * @return FO_OK; FO_EINVAL for bad options (P < 1, P > nodes or 65536, a missing train split
 *         with FO_BALANCE_TRAIN (typed: no node type has it), an existing out_dir without force, a
 *         partitioned or CSC-less input (typed: an edge type without a CSC); the message names
 *         the value); FO_ENOSYS when METIS is asked for and libmetis
 *         cannot be loaded (message names the library); FO_ERANGE when the graph is too large
 *         for METIS's 32-bit indices; FO_EFORMAT for a corrupt input; FO_EIO; FO_ENOMEM;
 *         FO_ECANCELED.
 * Memory: the input is memory-mapped; the peak is about one part's arrays plus 2 x 4 bytes per
 * node, plus for METIS the symmetrized graph (4 bytes per node and 8 per edge).
 * Thread-safety: any thread. Cost: O(P n + m) (the rank directories and the per-part scan),
 * plus METIS.
 */
FO_API int fo_partition(const char *in_dir, const char *out_dir, const fo_partition_opts *o,
                        fo_partition_report *rep);

/**
 * The quality report of an opened partitioned dataset (as fo_partition computed it; recomputed
 * from the parts). @return FO_OK; FO_EINVAL if `d` is not partitioned; FO_ENOMEM.
 * Cost: O(n + m) reads, 1 bit per node per part in turn.
 */
FO_API int fo_partition_quality(const fo_dataset_t *d, fo_partition_report *rep);

/** Free the report's arrays (the struct itself is the caller's). Accepts NULL. */
FO_API void fo_partition_report_free(fo_partition_report *rep);

#ifdef __cplusplus
}
#endif
#endif
