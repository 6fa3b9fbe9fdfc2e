/*
 * partition/partition_internal.h: what partition.c and metis.c share.
 */
#ifndef FO_PARTITION_INTERNAL_H
#define FO_PARTITION_INTERNAL_H

#include "core/internal.h"

#include <jansson.h>

/* The report of assignment part[n] over the CSC `t` (train[n]: membership, or NULL). */
int fo__partition_quality(const fo_topology *t, const int32_t *part, int32_t P, const uint8_t *train,
                          fo_partition_report *rep);
/* Fill the ratios of a report from its per-part counts. */
void fo__partition_summarize(fo_partition_report *rep);
/* METIS k-way on the symmetrized graph of `t` (self loops and repeats dropped), balancing node
 * counts, and train counts too when `train` is given. FO_ENOSYS if libmetis cannot be loaded. */
int fo__partition_metis(const fo_topology *t, int32_t P, const uint8_t *train, uint64_t seed,
                        int32_t *part);
/* Hash: part[v] for v < n, a keyed hash of v. Range: P contiguous ranges of equal node counts,
 * or of equal counts of `weight` (0/1 per node, total total_weight) when given; bounds[P + 1]. */
void fo__partition_assign_hash(int64_t n, int32_t P, uint64_t seed, int32_t *part);
void fo__partition_assign_range(int64_t n, int32_t P, const uint8_t *weight, int64_t total_weight,
                                int64_t *bounds, int32_t *part);
/* The manifest's "quality" object of a report (a new reference). */
json_t *fo__partition_report_json(const fo_partition_report *r);
/* The provenance of a partitioned dataset written from `d`: tool, input, parts, method, balance,
 * seed, and "options" {"undirected": true} when `d` was imported with --undirected (the link
 * sampler's seed-edge exclusion reads it). New reference. */
json_t *fo__partition_provenance(const fo_dataset_t *d, const char *in_dir, int parts,
                                 const char *method, const char *balance, uint64_t seed);
/* Partition the typed dataset `d` (opened from in_dir, structure checked, options checked)
 * into out_dir (typed.c). */
int fo__partition_typed(const fo_dataset_t *d, const char *in_dir, const char *out_dir,
                        const fo_partition_opts *o, fo_partition_report *rep, fo__progress *prog);
/* fo_partition_quality of an opened typed partitioned dataset (typed.c). */
int fo__partition_quality_typed(const fo_dataset_t *d, fo_partition_report *rep);
/* A part's copy of one direction's per-position arrays (edge times, weights, alias tables and
 * any later per-edge key of the manifest entry `src`) for rows[0..nr) of `t`: arrays
 * "<prefix><key>" of pw, named in the part's entry `dst` (partition.c). */
struct fo__writer;
int fo__part_edge_arrays(const fo_dataset_t *d, json_t *src, const fo_topology *t,
                         const int64_t *rows, int64_t nr, struct fo__writer *pw, const char *prefix,
                         json_t *dst);
/* The edge splits of edge type et of the unpartitioned `d`, whole, into the top level of the
 * partitioned dataset: per split its ids "<prefix>edge_split.<name>" (int64 [k], as stored) and
 * their endpoints "<prefix>edge_split.<name>.ends" (int64 [2, k]: src, dst), named in `obj`'s
 * "edge_splits" and "edge_split_ends" (docs/FORMAT.md). Nothing without splits. O(k log n). */
int fo__part_edge_splits(const fo_dataset_t *d, int32_t et, struct fo__writer *w,
                         const char *prefix, json_t *obj);
/* A fresh random id for one partitioning run: 16 lower-case hex digits and a NUL. */
void fo__partition_id(char out[17]);

#endif
