/*
 * core/rng.c: public uses of the random streams of core/rng.h.
 */
#include "core/rng.h"

void fo__permutation(int64_t n, uint64_t seed, uint64_t epoch, uint64_t tag, uint64_t stream,
                     int64_t *out) {
  fo__rng r;
  fo__rng_init(&r, seed, epoch, 0, tag, stream);
  for (int64_t i = 0; i < n; i++) out[i] = i;
  for (int64_t i = n - 1; i > 0; i--) {
    int64_t j = (int64_t)fo__rng_below(&r, (uint64_t)i + 1), tmp = out[i];
    out[i] = out[j];
    out[j] = tmp;
  }
}

int fo_random_permutation(int64_t n, uint64_t seed, uint64_t epoch, int64_t *out) {
  if (n < 0 || (n > 0 && !out))
    return FO_FAIL(FO_EINVAL, "permutation of %lld elements into %p", (long long)n, (void *)out);
  fo__permutation(n, seed, epoch, FO_RNG_TAG_PERMUTATION, 0, out);
  return FO_OK;
}
