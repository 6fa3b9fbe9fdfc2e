/*
 * sample/sample_internal.h: the inducer's id map and the per-node random streams.
 */
#ifndef FO_SAMPLE_INTERNAL_H
#define FO_SAMPLE_INTERNAL_H

#include "core/internal.h"

#include <Random123/philox.h>

__extension__ typedef unsigned __int128 fo__u128;

/* ---- id map (idmap.c): global key -> local id, reset per batch in O(1) ---------------------
 *
 * Two layouts behind one interface. Dense: one 8-byte entry per possible key (keys < n_dense),
 * (generation << 32 | local id): one memory access per lookup, n * 8 bytes. Hash: open
 * addressing with linear probing over 16-byte slots {key, generation, local id}, Fibonacci
 * hashing, load factor <= 1/2. Both are cleared by bumping the generation (a full wipe only when
 * it wraps after 2^32 - 1 batches), so a reset costs O(1).
 */
typedef struct fo__idslot {
  int64_t key;
  uint32_t gen;
  uint32_t val;
} fo__idslot;

typedef struct fo__idmap {
  uint64_t *dense;    /* [n_dense] or NULL */
  int64_t n_dense;
  fo__idslot *slots;  /* [mask + 1] or NULL */
  uint64_t mask;
  int shift;          /* 64 - log2(slots) */
  uint32_t gen;
  int64_t count;      /* keys inserted since the last reset */
} fo__idmap;

/* Dense when n_keys * 8 bytes <= dense_limit_bytes, hash otherwise. */
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

/* The local id of `key`, inserting `val` if the key is new in this batch (then *inserted). */
static inline uint32_t fo__idmap_insert(fo__idmap *m, int64_t key, uint32_t val, bool *inserted) {
  if (m->dense) {
    uint64_t e = m->dense[key];
    if ((uint32_t)(e >> 32) == m->gen) {
      *inserted = false;
      return (uint32_t)e;
    }
    m->dense[key] = (uint64_t)m->gen << 32 | val;
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

/* ---- random streams ------------------------------------------------------------------------ */

typedef struct fo__rng {
  philox4x64_key_t key;
  philox4x64_ctr_t ctr;
  uint32_t out[8]; /* the last block, as eight 32-bit words: v[0] low, v[0] high, v[1] low ... */
  int used;        /* words of `out` consumed; 8 = empty */
} fo__rng;

/* The stream of one node expansion: key (seed, epoch), counter (batch, tag, node, block). */
static inline void fo__rng_init(fo__rng *r, uint64_t seed, uint64_t epoch, uint64_t batch,
                                uint64_t tag, uint64_t node) {
  r->key.v[0] = seed;
  r->key.v[1] = epoch;
  r->ctr.v[0] = batch;
  r->ctr.v[1] = tag;
  r->ctr.v[2] = node;
  r->ctr.v[3] = 0;
  r->used = 8;
}

/* Next 32 random bits: one Philox4x64-10 block (counter block = 0, 1, 2, ...) gives eight. */
static inline __attribute__((always_inline)) uint32_t fo__rng_next32(fo__rng *r) {
  if (r->used == 8) {
    philox4x64_ctr_t b = philox4x64(r->ctr, r->key);
    r->ctr.v[3]++;
    for (int i = 0; i < 4; i++) {
      r->out[2 * i] = (uint32_t)b.v[i];
      r->out[2 * i + 1] = (uint32_t)(b.v[i] >> 32);
    }
    r->used = 0;
  }
  return r->out[r->used++];
}

/*
 * Exactly uniform integer in [0, range), range >= 1: Lemire's multiply-shift with rejection
 * (Lemire 2019). Ranges up to 2^32 use one 32-bit word per try, larger ones two (low word
 * first). The rejection loop runs again with probability < range / 2^32 (or / 2^64).
 */
static inline __attribute__((always_inline)) uint64_t fo__rng_below(fo__rng *r, uint64_t range) {
  if (FO_LIKELY(range <= UINT64_C(0x100000000))) {
    uint64_t p = (uint64_t)fo__rng_next32(r) * range;
    uint32_t lo = (uint32_t)p;
    if (FO_UNLIKELY(lo < range)) {
      uint32_t t = (uint32_t)((UINT64_C(0x100000000) - range) % range);
      while (lo < t) {
        p = (uint64_t)fo__rng_next32(r) * range;
        lo = (uint32_t)p;
      }
    }
    return p >> 32;
  } else {
    uint64_t x = fo__rng_next32(r);
    fo__u128 p;
    uint64_t lo;
    x |= (uint64_t)fo__rng_next32(r) << 32;
    p = (fo__u128)x * range;
    lo = (uint64_t)p;
    if (lo < range) {
      uint64_t t = (0 - range) % range;
      while (lo < t) {
        x = fo__rng_next32(r);
        x |= (uint64_t)fo__rng_next32(r) << 32;
        p = (fo__u128)x * range;
        lo = (uint64_t)p;
      }
    }
    return (uint64_t)(p >> 64);
  }
}

#endif
