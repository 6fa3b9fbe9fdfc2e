/*
 * tests/support/ref_temporal.c: the reference of temporal sampling (fo_sampler_opts.temporal),
 * written for obviousness: one tree per seed; for each frontier node, scan its whole row and
 * list the eligible positions in stored order (edge time, or the neighbor's node time, within
 * [t - window, t], strict: below t); "last" orders that list by (time, position) and takes its
 * end; "uniform" picks from the list exactly as the reference sampler picks from a row (the
 * node's stream, Floyd's k-subset or independent draws), so a correct kernel matches it edge
 * for edge.
 */
#include "support.h"

#include "sample/sample_internal.h"

static int64_t ld(const void *a, int bytes, int64_t i) {
  return bytes == 4 ? (int64_t)((const int32_t *)a)[i] : ((const int64_t *)a)[i];
}

static void push(int64_t **a, int64_t n, int64_t v) {
  if ((n & (n - 1)) == 0) *a = realloc(*a, (size_t)(n ? 2 * n : 1) * sizeof **a);
  (*a)[n] = v;
}

bool fot_time_eligible(const fo_sampler_opts *o, int64_t x, int64_t t) {
  if (o->time_strict ? !(x < t) : !(x <= t)) return false;
  if (o->time_window >= 0 && (double)x < (double)t - (double)o->time_window) return false;
  return true;
}

int fot_ref_sample_temporal(const fo_dataset_t *d, const fo_sampler_opts *o, const int64_t *seeds,
                            const int64_t *seed_time, int64_t n_seeds, uint64_t epoch,
                            uint64_t batch_index, fot_ref_batch *out) {
  fo_topology t;
  const int64_t *nt = NULL;
  int64_t n_nt = 0, begin = 0, end = n_seeds, N = 0, E = 0;
  int rc;
  memset(out, 0, sizeof *out);
  if ((rc = fo_dataset_topology(d, o->edge_dir, &t)) != FO_OK) return rc;
  if ((rc = fo_dataset_node_time(d, &nt, &n_nt)) != FO_OK && (o->time_attr == FO_TIME_ATTR_NODE || !seed_time))
    return rc;
  fo_clear_error();
  if (o->time_attr == FO_TIME_ATTR_EDGE && !t.time) return FO_EINVAL;
  for (int64_t i = 0; i < n_seeds; i++) {
    push(&out->node, N, seeds[i]);
    push(&out->batch, N, i);
    N++;
  }
  out->nsn[0] = n_seeds;
  for (int hop = 0; hop < o->n_hops; hop++) {
    const int32_t f = o->fanouts[hop];
    const int64_t e_hop = E;
    for (int64_t i = begin; i < end; i++) {
      const int64_t v = out->node[i], a = t.indptr[v], deg0 = t.indptr[v + 1] - a;
      const int64_t tree = out->batch[i];
      const int64_t tt = seed_time ? seed_time[tree] : nt[seeds[tree]];
      int64_t *el = NULL, *key = NULL, deg = 0, *pos = NULL, k = 0;
      fo__rng r;
      uint64_t tag = (uint64_t)hop | ((uint64_t)tree + 1) << 8;
      for (int64_t j = 0; j < deg0; j++) {
        const int64_t p = a + j;
        const int64_t x = o->time_attr == FO_TIME_ATTR_NODE ? nt[ld(t.indices, t.indices_bytes, p)] : t.time[p];
        if (!fot_time_eligible(o, x, tt)) continue;
        push(&el, deg, p);
        push(&key, deg, x);
        deg++;
      }
      fo__rng_init(&r, o->seed, epoch, batch_index, tag, (uint64_t)v);
      if (o->temporal == FO_TEMPORAL_LAST) {
        /* insertion sort by (time, position), then the last min(f, deg) */
        for (int64_t x = 1; x < deg; x++)
          for (int64_t y = x; y > 0 && (key[y - 1] > key[y] || (key[y - 1] == key[y] && el[y - 1] > el[y])); y--) {
            int64_t s1 = key[y], s2 = el[y];
            key[y] = key[y - 1];
            el[y] = el[y - 1];
            key[y - 1] = s1;
            el[y - 1] = s2;
          }
        for (int64_t j = (f < 0 || f > deg) ? 0 : deg - f; j < deg; j++) push(&pos, k++, el[j]);
      } else if (f < 0 || (!o->replace && f >= deg)) {
        for (int64_t j = 0; j < deg; j++) push(&pos, k++, el[j]);
      } else if (o->replace) {
        for (int64_t j = 0; deg > 0 && j < f; j++) push(&pos, k++, el[(int64_t)fo__rng_below(&r, (uint64_t)deg)]);
      } else {
        int64_t *off = NULL;
        for (int64_t j = deg - f; j < deg; j++) {
          int64_t x = (int64_t)fo__rng_below(&r, (uint64_t)j + 1);
          bool seen = false;
          for (int64_t q = 0; q < k; q++) seen |= off[q] == x;
          push(&off, k, seen ? j : x);
          k++;
        }
        for (int64_t q = 0; q < k; q++) {
          int64_t dummy = q;
          push(&pos, dummy, el[off[q]]);
        }
        free(off);
      }
      for (int64_t q = 0; q < k; q++) {
        int64_t p = pos[q], u = ld(t.indices, t.indices_bytes, p), local = -1;
        for (int64_t x = 0; x < N && local < 0; x++)
          if (out->node[x] == u && out->batch[x] == tree) local = x;
        if (local < 0) {
          push(&out->node, N, u);
          push(&out->batch, N, tree);
          local = N++;
        }
        push(&out->row, E, local);
        push(&out->col, E, i);
        push(&out->edge, E, t.eid ? ld(t.eid, t.eid_bytes, p) : p);
        E++;
      }
      free(pos);
      free(el);
      free(key);
    }
    out->nse[hop] = E - e_hop;
    out->nsn[hop + 1] = N - end;
    begin = end;
    end = N;
  }
  out->n_nodes = N;
  out->n_edges = E;
  out->n_hops = o->n_hops;
  return FO_OK;
}
