/*
 * Weighted link sampling with seed-edge exclusion (include/fanout/link.h, step 3): an excluded
 * edge behaves as an edge of weight 0 (never drawn) and the others keep their relative
 * probabilities. Chi-square tests against exact probabilities on a small star, with
 * replacement (w_j / sum of the non-excluded weights) and without (the exact 2-subset
 * probabilities of successive sampling), plain and temporal (weights among the eligible,
 * non-excluded edges); fanout -1 and zero weights exactly.
 */
#include "support.h"

#include <math.h>
#include <string.h>

#include "fanout/link.h"

/* In-edges of node 0 from 1..7 (input order), weights 1, 2, 4, 8, 16, 1000, 0, times 1..7.
 * The seed edges 6 -> 0 (the heavy one) and 3 -> 0 exclude those two. */
#define K 7
static const int64_t WS[K] = {1, 2, 3, 4, 5, 6, 7}, WD[K] = {0, 0, 0, 0, 0, 0, 0};
static const float WW[K] = {1, 2, 4, 8, 16, 1000, 0};
static const int64_t WT[K] = {1, 2, 3, 4, 5, 6, 7};
static const int64_t SS[2] = {6, 3}, SD[2] = {0, 0};

static void star(const char *tmp, bool times, fo_dataset_t **d) {
  char *g = fot_path(tmp, times ? "gt" : "g"), *wp = fot_path(tmp, "w.npy"), *tp = fot_path(tmp, "t.npy");
  const int64_t n = K;
  fo_import_opts io;
  fot_write_npy(wp, "<f4", 1, &n, WW, sizeof WW);
  fot_write_npy(tp, "<i8", 1, &n, WT, sizeof WT);
  fo_import_opts_init(&io);
  io.edge_weight = wp;
  if (times) io.edge_time = tp;
  if (fo_import_edges(WS, WD, K, g, &io, NULL) != FO_OK) fail_msg("%s", fo_last_error());
  assert_int_equal(fo_dataset_open(g, NULL, d), FO_OK);
  free(g);
  free(wp);
  free(tp);
}

static void opts(fo_link_opts *o, int32_t *f, int32_t fanout, bool replace, bool temporal) {
  fo_link_opts_init(o);
  f[0] = fanout;
  o->sampler.fanouts = f;
  o->sampler.n_hops = 1;
  o->sampler.weighted = true;
  o->sampler.replace = replace;
  o->sampler.seed = 5;
  if (temporal) o->sampler.temporal = FO_TEMPORAL_UNIFORM;
  o->exclude_seed_edges = true;
}

/* The in-neighbors of node 0 sampled in a batch (seed edges SS -> SD at time t), in order. */
static int64_t draws(fo_link_sampler_t *ls, fo_link_batch_t *lb, bool temporal, int64_t t,
                     uint64_t batch, int64_t *nbr) {
  const int64_t T[2] = {t, t};
  const fo_batch_t *b;
  int64_t n = 0;
  int rc = temporal ? fo_link_sampler_sample_at(ls, SS, SD, NULL, T, 2, 0, batch, lb)
                    : fo_link_sampler_sample(ls, SS, SD, NULL, 2, 0, batch, lb);
  if (rc != FO_OK) fail_msg("%s", fo_last_error());
  b = lb->sample;
  for (int64_t e = 0; e < b->n_edges; e++) {
    assert_int_equal(b->node[b->col[e]], 0); /* 3 and 6 have no in-edges */
    /* temporal is disjoint: the trees 6, 3, 0, 0; the first tree of 0 (both are excluded the same) */
    if (b->batch && b->batch[b->col[e]] != 2) continue;
    nbr[n++] = b->node[b->row[e]];
  }
  return n;
}

/* Every non-excluded neighbor with fanout -1 (weights ignored: the zero-weight 7 too); the
 * zero-weight edge and the excluded ones never drawn; plain and temporal. */
static void exact(void **state) {
  char *tmp = fot_tmpdir();
  fo_dataset_t *d, *dt;
  (void)state;
  star(tmp, false, &d);
  star(tmp, true, &dt);
  for (int temporal = 0; temporal < 2; temporal++) {
    fo_link_opts o;
    fo_link_sampler_t *ls;
    fo_link_batch_t *lb;
    int32_t f[1];
    int64_t nbr[64], n;
    opts(&o, f, -1, false, temporal);
    assert_int_equal(fo_link_sampler_create(temporal ? dt : d, &o, &ls), FO_OK);
    assert_int_equal(fo_link_batch_create(&lb), FO_OK);
    n = draws(ls, lb, temporal, 7, 0, nbr);
    {
      const int64_t want[5] = {1, 2, 4, 5, 7};
      assert_int_equal(n, 5);
      for (int i = 0; i < 5; i++) assert_int_equal(nbr[i], want[i]);
    }
    if (temporal) {
      /* t = 3: eligible 1, 2, 3; 3 excluded */
      n = draws(ls, lb, true, 3, 0, nbr);
      assert_int_equal(n, 2);
      assert_int_equal(nbr[0], 1);
      assert_int_equal(nbr[1], 2);
    }
    fo_link_batch_destroy(lb);
    fo_link_sampler_destroy(ls);
    /* without replacement, fanout 6 > the 4 positive non-excluded weights: exactly those */
    opts(&o, f, 6, false, temporal);
    assert_int_equal(fo_link_sampler_create(temporal ? dt : d, &o, &ls), FO_OK);
    assert_int_equal(fo_link_batch_create(&lb), FO_OK);
    for (uint64_t b = 0; b < 50; b++) {
      bool seen[8] = {false};
      n = draws(ls, lb, temporal, 7, b, nbr);
      assert_int_equal(n, 4);
      for (int i = 0; i < 4; i++) seen[nbr[i]] = true;
      assert_true(seen[1] && seen[2] && seen[4] && seen[5]);
    }
    /* every eligible position excluded (t = 1 leaves 1 only, and 1 -> 0 is the seed): no draws */
    if (temporal) {
      const int64_t S1[1] = {1}, D1[1] = {0}, T1[1] = {1};
      assert_int_equal(fo_link_sampler_sample_at(ls, S1, D1, NULL, T1, 1, 0, 0, lb), FO_OK);
      assert_int_equal(lb->sample->n_edges, 0);
    }
    fo_link_batch_destroy(lb);
    fo_link_sampler_destroy(ls);
  }
  fo_dataset_close(d);
  fo_dataset_close(dt);
  fot_rmtree(tmp);
}

/* With replacement: each draw is j with probability w_j / sum of the non-excluded (eligible)
 * weights. Without replacement, fanout 2: the unordered pair {a, b} with the successive-sampling
 * probability w_a / W * w_b / (W - w_a) + w_b / W * w_a / (W - w_b). Temporal at t = 5 (6, 7
 * ineligible) gives the same law as plain (the excluded 6 and the zero-weight 7 are never
 * drawn either way), with the exclusion inside the eligible prefix (3). */
static void chi_square(void **state) {
  char *tmp = fot_tmpdir();
  fo_dataset_t *d, *dt;
  const int64_t live[4] = {1, 2, 4, 5};
  const double W = 1 + 2 + 8 + 16;
  (void)state;
  star(tmp, false, &d);
  star(tmp, true, &dt);
  for (int mode = 0; mode < 4; mode++) {
    const bool temporal = mode >= 2, replace = !(mode & 1);
    const uint64_t N = 20000;
    fo_link_opts o;
    fo_link_sampler_t *ls;
    fo_link_batch_t *lb;
    int32_t f[1];
    double count[16] = {0}, expect[16] = {0}, x;
    int df, k;
    opts(&o, f, replace ? 3 : 2, replace, temporal);
    assert_int_equal(fo_link_sampler_create(temporal ? dt : d, &o, &ls), FO_OK);
    assert_int_equal(fo_link_batch_create(&lb), FO_OK);
    for (uint64_t b = 0; b < N; b++) {
      int64_t nbr[8], n = draws(ls, lb, temporal, 5, b, nbr), c[2];
      assert_int_equal(n, replace ? 3 : 2);
      for (int64_t i = 0; i < n; i++) {
        int j = 0;
        while (j < 4 && live[j] != nbr[i]) j++;
        if (j == 4) fail_msg("mode %d: neighbor %lld drawn", mode, (long long)nbr[i]);
        if (replace) count[j]++;
        else c[i] = j;
      }
      if (!replace) {
        const int64_t a = c[0] < c[1] ? c[0] : c[1], bb = c[0] < c[1] ? c[1] : c[0];
        assert_true(a != bb);
        count[a * 4 + bb]++;
      }
    }
    if (replace) {
      for (int j = 0; j < 4; j++) expect[j] = 3.0 * N * WW[live[j] - 1] / W;
      k = 4;
    } else {
      for (int a = 0; a < 4; a++)
        for (int bb = a + 1; bb < 4; bb++) {
          const double wa = WW[live[a] - 1], wb = WW[live[bb] - 1];
          expect[a * 4 + bb] = N * (wa / W * wb / (W - wa) + wb / W * wa / (W - wb));
        }
      /* pack the 6 pairs */
      k = 0;
      for (int a = 0; a < 4; a++)
        for (int bb = a + 1; bb < 4; bb++) {
          count[k] = count[a * 4 + bb];
          expect[k] = expect[a * 4 + bb];
          k++;
        }
    }
    x = fot_chi2(count, expect, k, &df);
    if (x > fot_chi2_limit(df))
      fail_msg("mode %d: chi2 %.1f > %.1f (df %d)", mode, x, fot_chi2_limit(df), df);
    fo_link_batch_destroy(lb);
    fo_link_sampler_destroy(ls);
  }
  fo_dataset_close(d);
  fo_dataset_close(dt);
  fot_rmtree(tmp);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(exact),
      cmocka_unit_test(chi_square),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
