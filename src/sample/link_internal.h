/*
 * sample/link_internal.h: the link sampler over a distributed dataset (a part not open in this
 * process). The dist layer (dist/link_dist.c) gives the link sampler its hop sampler and a
 * batched membership / position lookup; link.c keeps the rules (streams, redraws, exclusion)
 * and calls the lookup once per redraw round and once for the exclusion, so every remote
 * machine gets at most one request per round.
 */
#ifndef FO_LINK_INTERNAL_H
#define FO_LINK_INTERNAL_H

#include "fanout/dist.h"
#include "fanout/link.h"

/* A lookup pair: three words, (etype | want_positions << 32 | out << 34, row, nbr): the CSC row
 * `row` (a node of et's dst type) of edge type et, searched for neighbor `nbr` (a node of its
 * src type); with FO__LINK_OUT the CSR row `row` (a node of the src type) searched for `nbr` (a
 * node of the dst type): exclusion under edge_dir out, whose positions are the CSR's. */
#define FO__LINK_WANT_POS (INT64_C(1) << 32)
#define FO__LINK_OUT (INT64_C(1) << 34)

typedef struct fo__link_remote {
  void *ctx;
  /* the node sampler of the link sampler (a distributed one) */
  int (*make_sampler)(void *ctx, const fo_dataset_t *d, const fo_sampler_opts *o, fo_sampler_t **out);
  /* For pairs[3 i .. 3 i + 3), i < n: count[i] = the positions of nbr in the row (want
   * positions: all of them, appended to *pos in pair order, ascending per pair, positions of
   * the owning part's CSC; else 0 or 1: whether it is an edge). Rows of this machine's part are
   * read here, every other machine's in one request per machine (none for a machine without
   * pairs). *pos grows (fo__grow with *cap_pos); *n_pos receives the positions' total. */
  int (*check)(void *ctx, const int64_t *pairs, int64_t n, int64_t *count, int64_t **pos,
               int64_t *cap_pos, int64_t *n_pos);
  void (*free_ctx)(void *ctx); /* with the sampler (or when its creation fails); may be NULL */
} fo__link_remote;

/* fo_link_sampler_create over a distributed dataset: parts need not be open here; the hops
 * come from r->make_sampler, strict negatives and exclusion ask r->check. Strict negatives
 * read CSC rows only (no exact fallback: a negative whose FO_LINK_REDRAWS candidates were all
 * edges is missing, as over parts without CSR); exclusion reads the rows of the sampler's
 * edge_dir (FO__LINK_OUT: CSR rows). r is copied; its
 * ctx is the sampler's from the call on (freed on failure too). */
int fo__link_sampler_create_remote(const fo_dataset_t *d, const fo_link_opts *o,
                                   const fo__link_remote *r, fo_link_sampler_t **out);

/* ---- the link loader over a distributed dataset (loader/link.c) ----------------------------
 * Which batches this process makes, and where its feature rows come from. Global placement:
 * batch b of the epoch (the single-process loader's) for b = shard + i n_shards (tail keep:
 * while b < batches; drop: i < floor(batches / n_shards); pad: i < ceil(...), b wrapping to the
 * epoch's start). Local placement: the seed edges whose owner() is `machine`, in the epoch's
 * order, cut into machine batches j; this process makes those with j mod local_size ==
 * local_rank, batch index j n_machines + machine; `tail` over every machine's ranks as the node
 * loader's (fo__local_seed_plan: drop the fewest, pad the most any rank has, wrapping). */
typedef struct fo__link_loader_dist {
  void *ctx;
  int (*gather)(void *ctx, const fo_batch_t *b, unsigned char *const *x, const int64_t *row_bytes);
  int32_t shard, n_shards;
  int tail;                   /* 0 keep, 1 drop, 2 pad (fo_dist_tail) */
  bool local_seeds;
  int32_t machine, n_machines, local_rank, local_size;
  int32_t (*owner)(void *ctx, int64_t src, int64_t dst); /* the seed edge's machine */
  /* Pipelining (fo_dist_loader_opts.pipeline > 0): that many threads sample the epoch's next
   * batches ahead (fo__pipe), each with a link sampler of its own over make_remote's lookup
   * (a context of its own, freed with that sampler); the gather stays on next()'s thread. */
  int32_t pipeline;
  int (*make_remote)(void *ctx, fo__link_remote *out);
  void (*free_ctx)(void *ctx); /* with the loader (or when its creation fails); may be NULL */
} fo__link_loader_dist;

/* fo_link_loader_create over a distributed dataset: the link sampler of `lr`
 * (fo__link_sampler_create_remote), batches and rows as `ld` says. Both contexts are the
 * loader's from the call on (freed on failure too). */
int fo__link_loader_create_remote(const fo_dataset_t *d, const fo_link_loader_opts *o,
                                  const fo__link_remote *lr, const fo__link_loader_dist *ld,
                                  fo_link_loader_t **out);
/* The traffic of the loader's last batch (zero for a loader of fo_link_loader_create). */
void fo__link_loader_traffic(const fo_link_loader_t *L, fo_dist_batch_stats *out);

#endif
