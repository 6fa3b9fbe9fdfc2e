/*
 * core/rng.h: counter-based random streams (Random123 Philox4x64-10) and exact uniform
 * integers, for every random choice in fanout (neighbor sampling, shuffles, splits).
 */
#ifndef FO_CORE_RNG_H
#define FO_CORE_RNG_H

#include "core/internal.h"

#include <Random123/philox.h>

__extension__ typedef unsigned __int128 fo__u128;

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

/* out[0..n) = a uniformly random permutation of 0..n-1 (Fisher-Yates) from the stream with key
 * (seed, epoch) and counter (0, tag, stream, block). */
void fo__permutation(int64_t n, uint64_t seed, uint64_t epoch, uint64_t tag, uint64_t stream,
                     int64_t *out);

/* Counter tags (second counter word) reserved for streams other than hop sampling (whose tag
 * is the hop | seed index << 8, far below these). */
#define FO_RNG_TAG_PERMUTATION (UINT64_C(1) << 63)
#define FO_RNG_TAG_SPLIT (UINT64_C(1) << 62)

#endif
