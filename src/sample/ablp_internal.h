/*
 * sample/ablp_internal.h: the ABLP sampler and loader over a distributed dataset (the anchors'
 * parts need not be open in this process). The dist layer (dist/ablp_dist.c) gives the ABLP
 * sampler its hop sampler and a batched supervision-row lookup; ablp.c keeps the rules (seed
 * order, label columns, random negatives) and calls the lookup once per batch, so every
 * remote machine gets at most one LABEL request per batch.
 */
#ifndef FO_ABLP_INTERNAL_H
#define FO_ABLP_INTERNAL_H

#include "fanout/ablp.h"
#include "fanout/dist.h"

typedef struct fo__ablp_remote {
  void *ctx;
  /* the node sampler of the ABLP sampler (a distributed one) */
  int (*make_sampler)(void *ctx, const fo_dataset_t *d, const fo_sampler_opts *o, fo_sampler_t **out);
  /* The rows of labels-only types P and (N >= 0) N of the distinct anchors anchor[0..n): anchor
   * i's positives are pid[poff[i] .. poff[i + 1]), its hard negatives nid[noff[i] ..
   * noff[i + 1]) (N < 0: noff all 0), in stored row order, ids checked against the label node
   * type. This machine's rows are read here, every other machine's in one request per machine
   * (none for a machine without anchors). The arrays are the context's, valid until its next
   * call. */
  int (*rows)(void *ctx, int32_t P, int32_t N, const int64_t *anchor, int64_t n,
              const int64_t **poff, const int64_t **pid, const int64_t **noff, const int64_t **nid);
  void (*free_ctx)(void *ctx); /* with the sampler (or when its creation fails); may be NULL */
} fo__ablp_remote;

/* fo_ablp_sampler_create over a distributed dataset: the hops come from r->make_sampler, the
 * supervision rows from r->rows. r is copied; its ctx is the sampler's from the call on (freed
 * on failure too). */
int fo__ablp_sampler_create_remote(const fo_dataset_t *d, const fo_ablp_opts *o,
                                   const fo__ablp_remote *r, fo_ablp_sampler_t **out);

/* The ABLP loader over a distributed dataset (loader/ablp.c), global placement: this process
 * makes batch b of the epoch (the single-process loader's) for b = shard + i n_shards (tail
 * keep: while b < batches; drop: i < floor(batches / n_shards); pad: i < ceil(...), b wrapping
 * to the epoch's start); its feature rows come from gather. */
typedef struct fo__ablp_loader_dist {
  void *ctx;
  int (*gather)(void *ctx, const fo_batch_t *b, unsigned char *const *x, const int64_t *row_bytes);
  int32_t shard, n_shards;
  int tail;                    /* 0 keep, 1 drop, 2 pad (fo_dist_tail) */
  /* Local placement (as fo__link_loader_dist): the anchors whose owner() is `machine`, in the
   * epoch's order, cut into machine batches j; this process makes those with j mod local_size
   * == local_rank, batch index j n_machines + machine; `tail` as the node loader's
   * (fo__local_seed_plan). */
  bool local_seeds;
  int32_t machine, n_machines, local_rank, local_size;
  int32_t (*owner)(void *ctx, int32_t anchor_type, int64_t anchor); /* the anchor's machine */
  /* Pipelining (as fo__link_loader_dist): `pipeline` threads sample ahead, each with an ABLP
   * sampler of its own over make_remote's lookup (a context of its own). */
  int32_t pipeline;
  int (*make_remote)(void *ctx, fo__ablp_remote *out);
  void (*free_ctx)(void *ctx); /* with the loader (or when its creation fails); may be NULL */
} fo__ablp_loader_dist;

/* fo_ablp_loader_create over a distributed dataset: the sampler of `ar`, batches and rows as
 * `ld` says. Both contexts are the loader's from the call on (freed on failure too). */
int fo__ablp_loader_create_remote(const fo_dataset_t *d, const fo_ablp_loader_opts *o,
                                  const fo__ablp_remote *ar, const fo__ablp_loader_dist *ld,
                                  fo_ablp_loader_t **out);
/* The traffic of the loader's last batch (zero for a loader of fo_ablp_loader_create). */
void fo__ablp_loader_traffic(const fo_ablp_loader_t *L, fo_dist_batch_stats *out);

#endif
