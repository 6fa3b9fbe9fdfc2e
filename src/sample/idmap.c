/*
 * sample/idmap.c: set-up, reset and growth of the inducer's id map (the lookups are inline in
 * sample_internal.h). See there for the two layouts.
 */
#include "sample/sample_internal.h"

int fo__idmap_init(fo__idmap *m, int64_t n_keys, int64_t dense_limit_bytes) {
  memset(m, 0, sizeof *m);
  m->gen = 1;
  if (n_keys >= 0 && n_keys <= dense_limit_bytes / 8) {
    if (!(m->dense = fo__calloc_n(n_keys ? n_keys : 1, sizeof *m->dense)))
      return FO_FAIL(FO_ENOMEM, "dense id map of %lld nodes", (long long)n_keys);
    m->n_dense = n_keys;
    return FO_OK;
  }
  m->mask = 1023;
  m->shift = 64 - 10;
  if (!(m->slots = calloc(m->mask + 1, sizeof *m->slots)))
    return FO_FAIL(FO_ENOMEM, "id map");
  return FO_OK;
}

void fo__idmap_fini(fo__idmap *m) {
  free(m->dense);
  free(m->slots);
  memset(m, 0, sizeof *m);
}

void fo__idmap_reset(fo__idmap *m) {
  m->count = 0;
  if (++m->gen != 0) return;
  /* wrapped: stale entries could match generation 0 again, so wipe once */
  if (m->dense) memset(m->dense, 0, (size_t)(m->n_dense ? m->n_dense : 1) * sizeof *m->dense);
  if (m->slots) memset(m->slots, 0, (size_t)(m->mask + 1) * sizeof *m->slots);
  m->gen = 1;
}

int fo__idmap_reserve(fo__idmap *m, int64_t more) {
  uint64_t n_slots, need;
  fo__idslot *old, *slots;
  int shift;
  if (m->dense) return FO_OK;
  need = (uint64_t)(m->count + more) * 2;
  if (need <= m->mask + 1) return FO_OK;
  n_slots = m->mask + 1;
  shift = m->shift;
  while (n_slots < need) {
    if (n_slots > ((uint64_t)1 << 40)) return FO_FAIL(FO_ENOMEM, "id map of %llu slots", (unsigned long long)n_slots);
    n_slots *= 2;
    shift--;
  }
  if (!(slots = calloc(n_slots, sizeof *slots)))
    return FO_FAIL(FO_ENOMEM, "id map of %llu slots", (unsigned long long)n_slots);
  old = m->slots;
  {
    uint64_t old_n = m->mask + 1;
    uint32_t gen = m->gen;
    m->slots = slots;
    m->mask = n_slots - 1;
    m->shift = shift;
    m->gen = 1;
    for (uint64_t i = 0; i < old_n; i++) {
      if (old[i].gen != gen) continue;
      for (uint64_t h = fo__idmap_hash(m, old[i].key);; h = (h + 1) & m->mask)
        if (m->slots[h].gen != 1) {
          m->slots[h].key = old[i].key;
          m->slots[h].val = old[i].val;
          m->slots[h].gen = 1;
          break;
        }
    }
  }
  free(old);
  return FO_OK;
}
