/*
 * tests/support/ref_sampler.c: the reference sampler and the batch invariant checker.
 *
 * The reference is the textbook loop, written for obviousness, not speed: frontier node by
 * frontier node, pick positions (all, with replacement, or Floyd's k-subset) from the node's
 * own random stream exactly as sampler.h specifies, and give each neighbor a local id by a
 * linear search over the nodes found so far.
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

int fot_ref_sample(const fo_dataset_t *d, const fo_sampler_opts *o, const int64_t *seeds,
                   int64_t n_seeds, uint64_t epoch, uint64_t batch_index, fot_ref_batch *out) {
  fo_topology t;
  int64_t begin = 0, end = n_seeds, N = 0, E = 0;
  int rc;
  memset(out, 0, sizeof *out);
  if ((rc = fo_dataset_topology(d, o->edge_dir, &t)) != FO_OK) return rc;
  for (int64_t i = 0; i < n_seeds; i++) {
    push(&out->node, N, seeds[i]);
    push(&out->batch, N, i);
    N++;
  }
  out->nsn[0] = n_seeds;
  for (int hop = 0; hop < o->n_hops; hop++) {
    int32_t f = o->fanouts[hop];
    int64_t e_hop = E;
    for (int64_t i = begin; i < end; i++) {
      int64_t v = out->node[i], a = t.indptr[v], deg = t.indptr[v + 1] - a;
      int64_t *pos = NULL, k = 0;
      fo__rng r;
      uint64_t tag = (uint64_t)hop;
      if (o->disjoint) tag |= ((uint64_t)out->batch[i] + 1) << 8;
      fo__rng_init(&r, o->seed, epoch, batch_index, tag, (uint64_t)v);
      if (f < 0 || (!o->replace && f >= deg)) {
        for (int64_t j = 0; j < deg; j++) push(&pos, k++, a + j);
      } else if (o->replace) {
        for (int64_t j = 0; deg > 0 && j < f; j++) push(&pos, k++, a + (int64_t)fo__rng_below(&r, (uint64_t)deg));
      } else {
        for (int64_t j = deg - f; j < deg; j++) {
          int64_t x = (int64_t)fo__rng_below(&r, (uint64_t)j + 1);
          bool seen = false;
          for (int64_t q = 0; q < k; q++) seen |= pos[q] == a + x;
          push(&pos, k, a + (seen ? j : x));
          k++;
        }
      }
      for (int64_t q = 0; q < k; q++) {
        int64_t p = pos[q], u = ld(t.indices, t.indices_bytes, p), local = -1;
        int64_t tree = out->batch[i];
        for (int64_t x = 0; x < N && local < 0; x++)
          if (out->node[x] == u && (!o->disjoint || out->batch[x] == tree)) local = x;
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
    }
    out->nse[hop] = E - e_hop;
    out->nsn[hop + 1] = N - end;
    begin = end;
    end = N;
  }
  out->n_nodes = N;
  out->n_edges = E;
  out->n_hops = o->n_hops;
  if (!o->disjoint) {
    free(out->batch);
    out->batch = NULL;
  }
  return FO_OK;
}

void fot_ref_free(fot_ref_batch *b) {
  free(b->node);
  free(b->row);
  free(b->col);
  free(b->edge);
  free(b->batch);
  memset(b, 0, sizeof *b);
}

static void same_array(const char *what, const int64_t *a, const int64_t *b, int64_t n) {
  for (int64_t i = 0; i < n; i++)
    if (a[i] != b[i])
      fail_msg("%s[%lld]: sampler %lld, reference %lld", what, (long long)i, (long long)a[i],
               (long long)b[i]);
}

void fot_assert_same_batch(const fo_batch_t *b, const fot_ref_batch *r) {
  if (b->n_nodes != r->n_nodes || b->n_edges != r->n_edges)
    fail_msg("sizes differ: sampler %lld nodes %lld edges, reference %lld nodes %lld edges",
             (long long)b->n_nodes, (long long)b->n_edges, (long long)r->n_nodes,
             (long long)r->n_edges);
  same_array("node", b->node, r->node, r->n_nodes);
  same_array("row", b->row, r->row, r->n_edges);
  same_array("col", b->col, r->col, r->n_edges);
  same_array("edge", b->edge, r->edge, r->n_edges);
  same_array("num_sampled_nodes", b->num_sampled_nodes, r->nsn, r->n_hops + 1);
  same_array("num_sampled_edges", b->num_sampled_edges, r->nse, r->n_hops);
  if (r->batch) same_array("batch", b->batch, r->batch, r->n_nodes);
}

static char msg[512];
#define BAD(...) (snprintf(msg, sizeof msg, __VA_ARGS__), msg)

const char *fot_check_batch(const fo_dataset_t *d, const fo_sampler_opts *o, const int64_t *seeds,
                            int64_t n_seeds, const fo_batch_t *b) {
  fo_topology t;
  int64_t *pos_of = NULL, sum = 0, N = b->n_nodes, E = b->n_edges;
  int64_t fb = 0, fe = n_seeds, e0 = 0;
  const char *res = NULL;
  if (fo_dataset_topology(d, o->edge_dir, &t) != FO_OK) return BAD("no topology");
  if (b->n_seeds != n_seeds || N < n_seeds) return BAD("n_seeds/n_nodes wrong");
  for (int64_t i = 0; i < n_seeds; i++)
    if (b->node[i] != seeds[i]) return BAD("node[%lld] = %lld is not seed %lld", (long long)i, (long long)b->node[i], (long long)seeds[i]);
  for (int h = 0; h <= o->n_hops; h++) sum += b->num_sampled_nodes[h];
  if (sum != N) return BAD("num_sampled_nodes sums to %lld, not %lld", (long long)sum, (long long)N);
  sum = 0;
  for (int h = 0; h < o->n_hops; h++) sum += b->num_sampled_edges[h];
  if (sum != E) return BAD("num_sampled_edges sums to %lld, not %lld", (long long)sum, (long long)E);
  /* distinct (node, tree) beyond the seeds, and no later node equals a seed of its tree */
  for (int64_t i = n_seeds; i < N; i++) {
    if (b->node[i] < 0 || b->node[i] >= t.n_nodes) return BAD("node[%lld] out of range", (long long)i);
    for (int64_t j = 0; j < i; j++)
      if (b->node[j] == b->node[i] && (!o->disjoint || b->batch[j] == b->batch[i]))
        return BAD("node %lld appears at %lld and %lld", (long long)b->node[i], (long long)j, (long long)i);
  }
  if (o->disjoint)
    for (int64_t i = 0; i < n_seeds; i++)
      if (b->batch[i] != i) return BAD("batch[%lld] = %lld for a seed", (long long)i, (long long)b->batch[i]);
  /* position of every edge id */
  pos_of = malloc((size_t)(t.n_edges ? t.n_edges : 1) * sizeof *pos_of);
  for (int64_t p = 0; p < t.n_edges; p++) pos_of[t.eid ? ld(t.eid, t.eid_bytes, p) : p] = p;
  for (int hop = 0; hop < o->n_hops && !res; hop++) {
    int64_t e1 = e0 + b->num_sampled_edges[hop], next_new = fe;
    int32_t f = o->fanouts[hop];
    for (int64_t e = e0; e < e1 && !res; e++) {
      int64_t r = b->row[e], c = b->col[e], id = b->edge[e], p;
      if (c < fb || c >= fe) res = BAD("hop %d edge %lld: col %lld not in the frontier [%lld, %lld)", hop, (long long)e, (long long)c, (long long)fb, (long long)fe);
      else if (r < 0 || r >= fe + b->num_sampled_nodes[hop + 1]) res = BAD("hop %d edge %lld: row %lld out of range", hop, (long long)e, (long long)r);
      else if (id < 0 || id >= t.n_edges) res = BAD("edge id %lld out of range", (long long)id);
      else {
        p = pos_of[id];
        if (p < t.indptr[b->node[c]] || p >= t.indptr[b->node[c] + 1] || ld(t.indices, t.indices_bytes, p) != b->node[r])
          res = BAD("hop %d edge %lld: (%lld <- %lld, id %lld) is not an edge of the graph", hop, (long long)e, (long long)b->node[c], (long long)b->node[r], (long long)id);
        else if (o->disjoint && b->batch[r] != b->batch[c])
          res = BAD("edge %lld crosses trees", (long long)e);
        else if (r >= fe) {
          if (r > next_new) res = BAD("hop %d: node %lld discovered before %lld", hop, (long long)r, (long long)next_new);
          else if (r == next_new) next_new++;
        }
      }
    }
    if (!res && next_new != fe + b->num_sampled_nodes[hop + 1]) res = BAD("hop %d: new nodes never reached by an edge", hop);
    /* per frontier node: the right number of edges, distinct without replacement */
    for (int64_t i = fb; i < fe && !res; i++) {
      int64_t v = b->node[i], deg = t.indptr[v + 1] - t.indptr[v], cnt = 0, want;
      want = f < 0 ? deg : o->replace ? (deg ? f : 0) : (deg < f ? deg : f);
      for (int64_t e = e0; e < e1; e++) {
        if (b->col[e] != i) continue;
        cnt++;
        if (!o->replace)
          for (int64_t e2 = e0; e2 < e; e2++)
            if (b->col[e2] == i && b->edge[e2] == b->edge[e]) {
              res = BAD("hop %d node %lld: edge id %lld sampled twice without replacement", hop, (long long)v, (long long)b->edge[e]);
              break;
            }
      }
      if (!res && cnt != want) res = BAD("hop %d node %lld (degree %lld): %lld edges, expected %lld", hop, (long long)v, (long long)deg, (long long)cnt, (long long)want);
    }
    e0 = e1;
    fb = fe;
    fe += b->num_sampled_nodes[hop + 1];
  }
  free(pos_of);
  return res;
}
