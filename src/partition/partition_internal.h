/*
 * partition/partition_internal.h: what partition.c and metis.c share.
 */
#ifndef FO_PARTITION_INTERNAL_H
#define FO_PARTITION_INTERNAL_H

#include "core/internal.h"

/* The report of assignment part[n] over the CSC `t` (train[n]: membership, or NULL). */
int fo__partition_quality(const fo_topology *t, const int32_t *part, int32_t P, const uint8_t *train,
                          fo_partition_report *rep);
/* Fill the ratios of a report from its per-part counts. */
void fo__partition_summarize(fo_partition_report *rep);
/* METIS k-way on the symmetrized graph of `t` (self loops and repeats dropped), balancing node
 * counts, and train counts too when `train` is given. FO_ENOSYS if libmetis cannot be loaded. */
int fo__partition_metis(const fo_topology *t, int32_t P, const uint8_t *train, uint64_t seed,
                        int32_t *part);
/* A fresh random id for one partitioning run: 16 lower-case hex digits and a NUL. */
void fo__partition_id(char out[17]);

#endif
