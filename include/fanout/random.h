/*
 * fanout/random.h: the library's seeded randomness that callers can use directly.
 *
 * All of fanout's random choices come from Random123's Philox4x64-10 counter-based generator
 * (Salmon et al., SC 2011): a stream is named by a key and a counter, never by a hidden state,
 * so every result is a pure function of its inputs.
 */
#ifndef FANOUT_RANDOM_H
#define FANOUT_RANDOM_H

#include "common.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * A uniformly random permutation of 0..n-1 (Fisher-Yates, Durstenfeld 1964), drawn from the
 * Philox stream keyed by (seed, epoch): the seed order of a shuffled epoch, the same on every
 * machine and run.
 *
 * @param n     number of elements, >= 0.
 * @param seed  user seed; @param epoch  epoch number (a new epoch gives a new order).
 * @param out   [n] caller buffer, overwritten with the permutation.
 * @return FO_OK; FO_EINVAL if n < 0 or out is NULL with n > 0.
 * Thread-safety: any thread. Cost: O(n) time, one random draw per element.
 */
FO_API int fo_random_permutation(int64_t n, uint64_t seed, uint64_t epoch, int64_t *out);

#ifdef __cplusplus
}
#endif
#endif
