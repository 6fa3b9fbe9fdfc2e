/*
 * sample/sample_internal.h: the inducer's id map and the per-node random streams.
 */
#ifndef FO_SAMPLE_INTERNAL_H
#define FO_SAMPLE_INTERNAL_H

#include "core/internal.h"
#include "core/rng.h"

/* ---- id map (idmap.c): global key -> local id, reset per batch in O(1) ---------------------
 *
 * Two layouts behind one interface. Dense: one 4-byte entry per possible key (keys < n_dense):
 * the local id the key had when it was last inserted, valid only if it is below the batch's node
 * count and the batch's node list holds the key there (node[local] == key), so nothing is ever
 * cleared and stale entries are harmless; n * 4 bytes, and the check reads node[], which is
 * small and cache-resident. Hash: open addressing with linear probing over 16-byte slots
 * {key, generation, local id}, Fibonacci hashing, load factor <= 1/2, cleared by bumping the
 * generation (a full wipe only when it wraps after 2^32 - 1 batches). A reset costs O(1).
 */
typedef struct fo__idslot {
  int64_t key;
  uint32_t gen;
  uint32_t val;
} fo__idslot;

typedef struct fo__idmap {
  uint32_t *dense;    /* [n_dense] or NULL */
  int64_t n_dense;
  fo__idslot *slots;  /* [mask + 1] or NULL */
  uint64_t mask;
  int shift;          /* 64 - log2(slots) */
  uint32_t gen;
  int64_t count;      /* keys inserted since the last reset */
} fo__idmap;

/* Dense when n_keys * 4 bytes <= dense_limit_bytes, hash otherwise. */
int fo__idmap_init(fo__idmap *m, int64_t n_keys, int64_t dense_limit_bytes);
void fo__idmap_fini(fo__idmap *m);
/* Start a new batch: forget every key. O(1) (amortised). */
void fo__idmap_reset(fo__idmap *m);
/* Make room for `more` insertions without growing during them (hash layout). */
int fo__idmap_reserve(fo__idmap *m, int64_t more);

static inline uint64_t fo__idmap_hash(const fo__idmap *m, int64_t key) {
  return ((uint64_t)key * UINT64_C(0x9E3779B97F4A7C15)) >> m->shift;
}

static inline void fo__idmap_prefetch(const fo__idmap *m, int64_t key) {
  if (m->dense)
    __builtin_prefetch(&m->dense[key], 1, 1);
  else
    __builtin_prefetch(&m->slots[fo__idmap_hash(m, key)], 1, 1);
}

/* The local id of `key`, inserting `val` if the key is new in this batch (then *inserted).
 * `val` is the batch's node count so far and node[0..val) its node list (the dense layout
 * checks its entry against it). */
static inline uint32_t fo__idmap_insert(fo__idmap *m, int64_t key, uint32_t val,
                                        const int64_t *node, bool *inserted) {
  if (m->dense) {
    uint32_t l = m->dense[key];
    if (l < val && node[l] == key) {
      *inserted = false;
      return l;
    }
    m->dense[key] = val;
    m->count++;
    *inserted = true;
    return val;
  }
  for (uint64_t h = fo__idmap_hash(m, key);; h = (h + 1) & m->mask) {
    fo__idslot *s = &m->slots[h];
    if (s->gen != m->gen) {
      s->key = key;
      s->gen = m->gen;
      s->val = val;
      m->count++;
      *inserted = true;
      return val;
    }
    if (s->key == key) {
      *inserted = false;
      return s->val;
    }
  }
}

/* ---- one hop over one part, and remote parts (used by the dist layer) ---------------------- */

/* One hop for a list of nodes all owned by one part: the batch key, the hop and its fanout, and
 * per node its tree (seed index) in disjoint mode. */
typedef struct fo__hop_req {
  uint64_t seed, epoch, batch;
  int32_t hop, fanout;
  bool replace, disjoint;
  int32_t part;          /* the part owning every node */
  int32_t etype;         /* typed datasets: the edge type (0 otherwise), part of the random key */
  bool out;              /* typed datasets: edge_dir out (nodes of the edge type's src type) */
  int64_t n;
  const int64_t *nodes;  /* [n] global ids */
  const int64_t *trees;  /* [n] when disjoint, else NULL */
  /* the sampler's mode, so that the one-hop kernel answering is the asking sampler's: weighted
   * draws; temporal (fo_temporal_strategy, 0 none: then disjoint) with its time attribute
   * (node times or edge times), strictness and window (-1 none), and per node the time bounding
   * it (its tree's seed time) */
  bool weighted;
  int32_t temporal;
  bool time_node, strict;
  int64_t window;
  const int64_t *times;  /* [n] when temporal, else NULL */
  /* link sampling's seed-edge exclusion (fo__exclusion) of these nodes' rows: xcount[n]
   * ineligible positions per node, xpos their concatenation (ascending per node, positions of
   * the part's topology); NULL when none: the kernel draws among each row's other positions */
  const int64_t *xcount, *xpos;
} fo__hop_req;

/* Its result: per node the number of sampled edges, then every edge's neighbor and global edge
 * id, node by node in request order. The arrays belong to whoever produced them. */
typedef struct fo__hop_res {
  int64_t n, n_edges;
  const int64_t *counts, *nbr, *eid;
} fo__hop_res;

/* Where a sampler gets the hops of parts it does not hold: hop() is called once per hop with a
 * request per remote part that has frontier nodes (requests to different parts may proceed at
 * the same time); res[i] answers reqs[i] and stays valid until the next call. */
typedef struct fo__remote {
  void *ctx;
  int (*hop)(void *ctx, const fo__hop_req *reqs, int n_reqs, fo__hop_res *res);
  void (*free_ctx)(void *ctx); /* called when the sampler is destroyed; may be NULL */
} fo__remote;

/* Make `s` (over a partitioned dataset with part `local_part` open) send other parts' nodes to
 * `r`. */
int fo__sampler_set_remote(fo_sampler_t *s, const fo__remote *r, int32_t local_part);

/* The one-hop kernel: sample `req` (nodes of a part open in `s`'s dataset) into `scratch`, and
 * describe the result in *res (arrays inside scratch and s, valid until their next use). The
 * same draws as fo_sampler_sample makes for those nodes. */
int fo__sampler_hop(fo_sampler_t *s, const fo__hop_req *req, fo_batch_t *scratch, fo__hop_res *res);

/* ---- ineligible positions (link sampling's seed-edge exclusion) -----------------------------
 *
 * Per edge type et (n_etypes entries, in the direction the sampler reads): n_rows[et] rows that
 * hold ineligible edge positions, row_node[et] ascending; the positions of row k are
 * pos[et][off[et][k] .. off[et][k + 1]), ascending, absolute positions in that topology. While
 * set, every expansion of such a row draws among its other positions: the kernel sees the row
 * with deg - x positions and its picks are mapped past the excluded ones (a separate step after
 * the kernel, over the positions inside the row bounds the row source gave). Outside disjoint
 * mode only hop 0 is looked at (a node is expanded once per edge type; the rows are the seeds').
 * Borrowed until cleared with NULL. Weighted sampling ignores it (the link sampler refuses). */
typedef struct fo__exclusion {
  const int64_t *const *row_node;
  const int64_t *const *off;
  const int64_t *const *pos;
  const int64_t *n_rows;
} fo__exclusion;

void fo__sampler_set_exclusion(fo_sampler_t *s, const fo__exclusion *x);

/* ---- alias draws (the weighted kernels, sampler.c) -------------------------------------------
 *
 * Draws proportional to weight from a row's stored alias table `al[deg]` (Walker 1977; entry
 * alias_offset << 32 | threshold, FORMAT.md): a uniform offset j, then a coin that keeps j with
 * probability threshold_j / 2^32 and takes j's alias otherwise. FO_ALIAS_CHUNK draws at a time,
 * so that their entries are fetched in parallel: fo__alias_pick draws the offsets (and block
 * words, below) and prefetches the entries, fo__alias_resolve reads them; out[0..n) receive row
 * offsets, -1 if an entry is corrupt (alias offset outside the row).
 *
 * One 32-bit word per draw carries both the offset and the coin, exactly: the law is that of an
 * independent uniform offset and 32-bit coin (j kept with probability exactly threshold_j /
 * 2^32), with no rounding added. With L = floor(2^32 / deg) and t = 2^32 - L deg (once per row,
 * fo__alias_row_init: one 32-bit division): m = x deg for a uniform 32-bit word x, redrawn while
 * lo = m mod 2^32 < t (Lemire 2019; t < deg, so lo >= deg accepts without looking at t), and
 * j = m >> 32. Given j, the accepted lo are the L members of one residue class mod deg in
 * [t, 2^32), one in each block [t + k deg, t + (k + 1) deg), k = 0..L-1: the block index k of
 * d = lo - t is uniform in [0, L) for every j. With P = threshold_j L (64 bits) and
 * K = floor(P / 2^32) < L: keep j if k < K (d < K deg), take the alias if k > K
 * (d >= (K + 1) deg), and in block K (probability 1 / L = about deg / 2^32, the only band where
 * lo alone cannot decide) draw a second word c and keep j iff c < P mod 2^32. So P(keep | j) =
 * K / L + (P mod 2^32) / (2^32 L) = P / (2^32 L) = threshold_j / 2^32 exactly. A zero threshold
 * (zero-weight edge) gives P = 0: never kept. Rows of more than 2^31 edges have L = 1, and every
 * draw takes the second word (the two-word draw); rows of more than 2^32 edges take the offset
 * from fo__rng_below's two words (d = 0, L = 1). Cost per draw: the word, three multiplications
 * and the entry's random read; 1 + 1 / L words on average (+ Lemire's redraws, probability
 * t / 2^32 < deg / 2^32). test_weighted.c checks the law exhaustively over each block of rows
 * with small L. */
#define FO_ALIAS_CHUNK 16
typedef struct fo__aliasrow {
  const int64_t *al;
  int64_t deg;
  uint64_t L;  /* floor(2^32 / deg), 1 above 2^32 */
  uint32_t t;  /* 2^32 - L deg: Lemire's rejection bound (0 above 2^32) */
} fo__aliasrow;

static inline __attribute__((always_inline)) void fo__alias_row_init(fo__aliasrow *a,
                                                                   const int64_t *al, int64_t deg) {
  a->al = al;
  a->deg = deg;
  if (deg > 0 && deg < (int64_t)UINT32_MAX) {
    /* 32-bit division: 2^32 = q deg + rem + 1 */
    const uint32_t q = UINT32_MAX / (uint32_t)deg, rem = UINT32_MAX - q * (uint32_t)deg;
    a->L = rem + 1 == (uint32_t)deg ? (uint64_t)q + 1 : q;
    a->t = rem + 1 == (uint32_t)deg ? 0 : rem + 1;
  } else {
    a->L = 1;
    a->t = deg == (int64_t)UINT32_MAX ? 1 : 0;
  }
}

static inline __attribute__((always_inline)) void fo__alias_pick(fo__rng *r, const fo__aliasrow *a,
                                                               int64_t n, int64_t *out,
                                                               uint32_t *d) {
  const uint64_t deg = (uint64_t)a->deg;
  if (FO_UNLIKELY(deg > UINT64_C(0x100000000))) {
    for (int64_t q = 0; q < n; q++) {
      out[q] = (int64_t)fo__rng_below(r, deg);
      d[q] = 0;
    }
    return;
  }
  for (int64_t q = 0; q < n; q++) {
    uint64_t p = (uint64_t)fo__rng_next32(r) * deg;
    if (FO_UNLIKELY((uint32_t)p < (uint32_t)deg))
      while ((uint32_t)p < a->t) p = (uint64_t)fo__rng_next32(r) * deg;
    out[q] = (int64_t)(p >> 32);
    d[q] = (uint32_t)p - a->t;
    __builtin_prefetch(&a->al[out[q]], 0, 3);
  }
}

/* The draw at offset j with block word d (fo__alias_pick): the row offset drawn, -1 if corrupt. */
static inline __attribute__((always_inline)) int64_t fo__alias_one(fo__rng *r, const fo__aliasrow *a,
                                                                  int64_t j, uint32_t d) {
  const uint64_t en = (uint64_t)a->al[j];
  const uint64_t P = (uint64_t)(uint32_t)en * a->L, Kd = (P >> 32) * (uint64_t)a->deg;
  int64_t k = (uint64_t)d < Kd ? j : (int64_t)(en >> 32);
  if (FO_UNLIKELY((uint64_t)d - Kd < (uint64_t)a->deg)) /* block K: a second word decides */
    k = fo__rng_next32(r) < (uint32_t)P ? j : (int64_t)(en >> 32);
  return k < a->deg ? k : -1;
}

static inline __attribute__((always_inline)) void fo__alias_resolve(fo__rng *r, const fo__aliasrow *a,
                                                                  int64_t n, const uint32_t *d,
                                                                  int64_t *out) {
  for (int64_t q = 0; q < n; q++) out[q] = fo__alias_one(r, a, out[q], d[q]);
}

static inline __attribute__((always_inline)) void fo__alias_draws(fo__rng *r, const fo__aliasrow *a,
                                                                int64_t n, int64_t *out) {
  uint32_t d[FO_ALIAS_CHUNK];
  fo__alias_pick(r, a, n, out, d);
  fo__alias_resolve(r, a, n, d, out);
}

#endif
