/*
 * sample/idmap.c: set-up, reset and growth of the inducer's id map (the lookups are inline in
 * sample_internal.h). See there for the two layouts.
 */
#include "sample/sample_internal.h"

#include <sys/mman.h>

#define HUGE_2M ((size_t)2 << 20)

/* Zeroed memory for the map, advised for transparent huge pages: its accesses are random, and
 * with 4 KiB pages nearly every lookup would also miss the TLB. */
static void *map_alloc(size_t bytes) {
  size_t len = (bytes + HUGE_2M - 1) / HUGE_2M * HUGE_2M;
  void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) return NULL;
#ifdef MADV_HUGEPAGE
  madvise(p, len, MADV_HUGEPAGE);
#endif
  return p;
}

static void map_free(void *p, size_t bytes) {
  if (p) munmap(p, (bytes + HUGE_2M - 1) / HUGE_2M * HUGE_2M);
}

int fo__idmap_init(fo__idmap *m, int64_t n_keys, int64_t dense_limit_bytes) {
  memset(m, 0, sizeof *m);
  m->gen = 1;
  if (n_keys >= 0 && n_keys <= dense_limit_bytes / 4 && n_keys <= UINT32_MAX) {
    if (!(m->dense = map_alloc((size_t)(n_keys ? n_keys : 1) * sizeof *m->dense)))
      return FO_FAIL(FO_ENOMEM, "dense id map of %lld nodes", (long long)n_keys);
    m->n_dense = n_keys;
    return FO_OK;
  }
  m->mask = 1023;
  m->shift = 64 - 10;
  if (!(m->slots = map_alloc((m->mask + 1) * sizeof *m->slots)))
    return FO_FAIL(FO_ENOMEM, "id map");
  return FO_OK;
}

void fo__idmap_fini(fo__idmap *m) {
  map_free(m->dense, (size_t)(m->n_dense ? m->n_dense : 1) * sizeof *m->dense);
  map_free(m->slots, m->slots ? (m->mask + 1) * sizeof *m->slots : 0);
  memset(m, 0, sizeof *m);
}

void fo__idmap_reset(fo__idmap *m) {
  m->count = 0;
  if (++m->gen != 0) return;
  /* wrapped: stale entries could match generation 0 again, so wipe once */
  if (m->slots) memset(m->slots, 0, (size_t)(m->mask + 1) * sizeof *m->slots);
  m->gen = 1;
}

int fo__idmap_reserve(fo__idmap *m, int64_t more) {
  uint64_t n_slots, need;
  fo__idslot *old, *slots;
  uint64_t old_n;
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
  if (!(slots = map_alloc(n_slots * sizeof *slots)))
    return FO_FAIL(FO_ENOMEM, "id map of %llu slots", (unsigned long long)n_slots);
  old = m->slots;
  old_n = m->mask + 1;
  {
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
  map_free(old, (size_t)old_n * sizeof *old);
  return FO_OK;
}
