/*
 * io/strmap.c: interning of string node ids (Planetoid paper ids such as
 * "bradshaw97introduction"): an open-addressing hash table (linear probing, XXH64 of the
 * bytes, load <= 1/2) over an append-only byte arena, so ids come out dense and in order of
 * first insertion.
 */
#include "io/io_internal.h"

#include <xxhash.h>

struct fo__strmap {
  char *arena;
  int64_t arena_len, arena_cap;
  int64_t *offs;     /* [count + 1] start of string i in the arena */
  int64_t count, offs_cap;
  int64_t *slots;    /* id or -1 */
  int64_t n_slots;   /* power of two */
  size_t max_len;
};

int fo__strmap_create(fo__strmap **out) {
  fo__strmap *m = calloc(1, sizeof *m);
  *out = NULL;
  if (!m) return FO_FAIL(FO_ENOMEM, "string id table");
  m->n_slots = 1024;
  m->slots = malloc((size_t)m->n_slots * sizeof *m->slots);
  m->offs_cap = 1024;
  m->offs = malloc((size_t)m->offs_cap * sizeof *m->offs);
  if (!m->slots || !m->offs) {
    fo__strmap_destroy(m);
    return FO_FAIL(FO_ENOMEM, "string id table");
  }
  memset(m->slots, 0xff, (size_t)m->n_slots * sizeof *m->slots);
  m->offs[0] = 0;
  *out = m;
  return FO_OK;
}

void fo__strmap_destroy(fo__strmap *m) {
  if (!m) return;
  free(m->arena);
  free(m->offs);
  free(m->slots);
  free(m);
}

int64_t fo__strmap_count(const fo__strmap *m) { return m->count; }
size_t fo__strmap_max_len(const fo__strmap *m) { return m->max_len; }

/* String i's bytes; the arena is NULL while every string so far is empty. */
static const char *str_at(const fo__strmap *m, int64_t i) {
  return m->arena ? m->arena + m->offs[i] : "";
}

const char *fo__strmap_str(const fo__strmap *m, int64_t i, size_t *len) {
  *len = (size_t)(m->offs[i + 1] - m->offs[i]);
  return str_at(m, i);
}

static int rehash(fo__strmap *m) {
  int64_t ns = m->n_slots * 2;
  int64_t *slots = malloc((size_t)ns * sizeof *slots);
  if (!slots) return FO_FAIL(FO_ENOMEM, "string id table");
  memset(slots, 0xff, (size_t)ns * sizeof *slots);
  for (int64_t i = 0; i < m->count; i++) {
    size_t len = (size_t)(m->offs[i + 1] - m->offs[i]);
    uint64_t h = XXH64(str_at(m, i), len, 0) & (uint64_t)(ns - 1);
    while (slots[h] >= 0) h = (h + 1) & (uint64_t)(ns - 1);
    slots[h] = i;
  }
  free(m->slots);
  m->slots = slots;
  m->n_slots = ns;
  return FO_OK;
}

int fo__strmap_get(fo__strmap *m, const char *s, size_t len, bool add, int64_t *id, bool *added) {
  uint64_t mask = (uint64_t)(m->n_slots - 1), h = XXH64(s, len, 0) & mask;
  int rc;
  if (added) *added = false;
  for (;;) {
    int64_t i = m->slots[h];
    if (i < 0) break;
    if ((size_t)(m->offs[i + 1] - m->offs[i]) == len && !memcmp(str_at(m, i), s, len)) {
      *id = i;
      return FO_OK;
    }
    h = (h + 1) & mask;
  }
  if (!add) {
    *id = -1;
    return FO_OK;
  }
  if ((rc = fo__grow(&m->arena, &m->arena_cap, m->arena_len + (int64_t)len, 1, "string ids")) != FO_OK)
    return rc;
  if ((rc = fo__grow(&m->offs, &m->offs_cap, m->count + 2, sizeof *m->offs, "string ids")) != FO_OK)
    return rc;
  if (len) memcpy(m->arena + m->arena_len, s, len);
  m->arena_len += (int64_t)len;
  m->slots[h] = m->count;
  *id = m->count++;
  m->offs[m->count] = m->arena_len;
  if (len > m->max_len) m->max_len = len;
  if (added) *added = true;
  if (m->count * 2 > m->n_slots && (rc = rehash(m)) != FO_OK) return rc;
  return FO_OK;
}
