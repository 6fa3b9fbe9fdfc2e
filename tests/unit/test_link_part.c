/*
 * Link sampler and loader over a partitioned dataset, in process (every part open): strict
 * negatives and seed-edge exclusion read their rows in the owning parts, and every batch's
 * digest equals the unpartitioned dataset's (2 and 4 parts, hash, range and METIS; binary and
 * triplet negatives; disjoint; exclusion with the reverse of an undirected import, which the
 * partitioned manifest records). A part not open here (a distributed run) is FO_ENOSYS, said
 * clearly. The distributed link loader in one process (fo_dist_init_local) with pipelining
 * threads gives the unpipelined loader's batches and traffic.
 */
#include "support.h"

#include "fanout/dist.h"
#include "fanout/link.h"
#include "fanout/partition.h"

#include <string.h>

#define N 300
#define M 1500
#define N_SEEDS 400

/* Every batch's digest (and n_excluded) over `d`, into dig / nx [n_batches]. */
static int64_t run_loader(const fo_dataset_t *d, const fo_link_loader_opts *lo, uint64_t *dig,
                          int64_t *nx) {
  fo_link_loader_t *L;
  fo_link_loader_batch_t *b;
  int64_t nb = 0;
  assert_fo_ok(fo_link_loader_create(d, lo, &L));
  for (;;) {
    assert_fo_ok(fo_link_loader_next(L, &b));
    if (!b) break;
    dig[nb] = fo_link_loader_batch_digest(b);
    nx[nb++] = b->link->n_excluded;
  }
  fo_link_loader_destroy(L);
  return nb;
}

static void digests_equal(void **state) {
  fot_edges e;
  fot_ds g = {0};
  fo_import_opts io;
  fot_nodedata nd = {0};
  float *x = malloc((size_t)N * 4 * sizeof *x);
  int64_t *y = malloc((size_t)N * sizeof *y), train[N / 2];
  int64_t eli[2 * N_SEEDS];
  int32_t f[2] = {5, 3};
  uint64_t st = 7;
  (void)state;
  fot_random(N, M, 11, &e);
  for (int64_t i = 0; i < N * 4; i++) x[i] = (float)(i % 17) * 0.5f;
  for (int64_t i = 0; i < N; i++) y[i] = i % 3;
  for (int64_t i = 0; i < N / 2; i++) train[i] = 2 * i;
  nd.x = x;
  nd.dim = 4;
  nd.y = y;
  nd.train = train;
  nd.n_train = N / 2;
  fo_import_opts_init(&io);
  io.undirected = true;
  io.csr = false; /* parts hold CSC rows only: the plain dataset the same */
  fot_ds_edges(&g, &e, &nd, &io);
  for (int64_t i = 0; i < N_SEEDS; i++) {
    const uint64_t k = fot_rand(&st) % (uint64_t)e.m;
    eli[i] = e.src[k];
    eli[N_SEEDS + i] = e.dst[k];
  }
  for (int cfg = 0; cfg < 4; cfg++) {
    /* 0: binary strict + exclusion; 1: triplet strict + exclusion; 2: disjoint binary +
     * exclusion; 3: binary, not strict, no exclusion */
    fo_link_loader_opts lo;
    uint64_t d0[64], d1[64];
    int64_t x0[64], x1[64], nb0, excluded = 0;
    fo_link_loader_opts_init(&lo);
    lo.link.sampler.fanouts = f;
    lo.link.sampler.n_hops = 2;
    lo.link.sampler.seed = 5;
    lo.link.sampler.disjoint = cfg == 2;
    lo.link.neg = cfg == 1 ? FO_NEG_TRIPLET : FO_NEG_BINARY;
    lo.link.neg_amount = cfg == 1 ? 3 : 1.0;
    lo.link.strict = cfg != 3;
    lo.link.exclude_seed_edges = cfg != 3;
    lo.edge_label_index = eli;
    lo.n_edges = N_SEEDS;
    lo.batch_size = 32;
    lo.shuffle = true;
    nb0 = run_loader(g.d, &lo, d0, x0);
    assert_int_equal(nb0, (N_SEEDS + 31) / 32);
    for (int64_t b = 0; b < nb0; b++) excluded += x0[b];
    if (cfg != 3 && excluded < 3 * N_SEEDS / 2) /* each seed edge and its reverse, less repeats */
      fail_msg("config %d: %lld excluded", cfg, (long long)excluded);
    for (int method = 0; method < 3; method++)
      for (int P = 2; P <= 4; P += 2) {
        fo_partition_opts po;
        fo_partition_report rep;
        fo_dataset_t *pd;
        char name[32], *pdir;
        int rc;
        snprintf(name, sizeof name, "p%d_%d_%d", cfg, method, P);
        pdir = fot_path(g.tmp, name);
        fo_partition_opts_init(&po);
        po.n_parts = P;
        po.method = (fo_partition_method)method;
        rc = fo_partition(g.dir, pdir, &po, &rep);
        if (rc == FO_ENOSYS && method == FO_PARTITION_METIS) { /* built without METIS */
          free(pdir);
          continue;
        }
        assert_fo_ok(rc);
        fo_partition_report_free(&rep);
        assert_fo_ok(fo_dataset_open(pdir, NULL, &pd));
        assert_int_equal(fo_dataset_num_parts(pd), P);
        /* the partitioned manifest records the import's --undirected */
        assert_non_null(strstr(fo_dataset_manifest(pd), "\"undirected\""));
        assert_int_equal(run_loader(pd, &lo, d1, x1), nb0);
        for (int64_t b = 0; b < nb0; b++) {
          assert_int_equal(x1[b], x0[b]);
          if (d1[b] != d0[b])
            fail_msg("config %d, method %d, %d parts: batch %lld digest %016llx, unpartitioned "
                     "%016llx", cfg, method, P, (long long)b, (unsigned long long)d1[b],
                     (unsigned long long)d0[b]);
        }
        fo_dataset_close(pd);
        free(pdir);
      }
  }
  fot_ds_close(&g);
  fot_edges_free(&e);
  free(x);
  free(y);
}

/* The distributed link loader over 2 parts (hash, range) in one process (fo_dist_init_local),
 * a lookahead cache of a few rows: pipelining threads (1, 2, 3) give every batch of 2 epochs
 * the digest of the loader without them, and the same traffic per batch (strict negatives,
 * exclusion, hops, features); a start_epoch in mid-epoch and a destroy with batches still
 * ahead end the threads cleanly. */
static void dist_pipelined(void **state) {
  fot_edges e;
  fot_ds g = {0};
  fo_import_opts io;
  fot_nodedata nd = {0};
  float *x = malloc((size_t)N * 4 * sizeof *x);
  int64_t *y = malloc((size_t)N * sizeof *y), eli[2 * N_SEEDS];
  int32_t f[2] = {5, 3};
  uint64_t st = 9;
  (void)state;
  fot_random(N, M, 13, &e);
  for (int64_t i = 0; i < N * 4; i++) x[i] = (float)(i % 19) * 0.25f;
  for (int64_t i = 0; i < N; i++) y[i] = i % 2;
  nd.x = x;
  nd.dim = 4;
  nd.y = y;
  fo_import_opts_init(&io);
  io.undirected = true;
  io.csr = false;
  fot_ds_edges(&g, &e, &nd, &io);
  for (int64_t i = 0; i < N_SEEDS; i++) {
    const uint64_t k = fot_rand(&st) % (uint64_t)e.m;
    eli[i] = e.src[k];
    eli[N_SEEDS + i] = e.dst[k];
  }
  for (int method = 0; method < 2; method++) {
    fo_partition_opts po;
    fo_partition_report rep;
    fo_dataset_t *pd;
    char name[32], *pdir;
    snprintf(name, sizeof name, "dp%d", method);
    pdir = fot_path(g.tmp, name);
    fo_partition_opts_init(&po);
    po.n_parts = 2;
    po.method = (fo_partition_method)method;
    assert_fo_ok(fo_partition(g.dir, pdir, &po, &rep));
    fo_partition_report_free(&rep);
    assert_fo_ok(fo_dataset_open(pdir, NULL, &pd));
    for (int cfg = 0; cfg < 2; cfg++)
      for (int32_t r = 0; r < 2; r++) {
        fo_link_loader_opts lo;
        fo_dist_loader_opts dlo;
        fo_dist_t *dd;
        fo_link_loader_t *L[4];
        int64_t seen = 0;
        fo_link_loader_opts_init(&lo);
        lo.link.sampler.fanouts = f;
        lo.link.sampler.n_hops = 2;
        lo.link.sampler.seed = 3;
        lo.link.neg = cfg ? FO_NEG_TRIPLET : FO_NEG_BINARY;
        lo.link.neg_amount = cfg ? 2 : 1.0;
        lo.link.strict = true;
        lo.link.exclude_seed_edges = true;
        lo.edge_label_index = eli;
        lo.n_edges = N_SEEDS;
        lo.batch_size = 24;
        lo.shuffle = true;
        assert_fo_ok(fo_dist_init_local(pd, r, NULL, &dd));
        fo_dist_loader_opts_init(&dlo);
        dlo.cache_bytes = 40 * 16;
        dlo.cache_policy = FO_DIST_CACHE_LOOKAHEAD;
        dlo.lookahead = 3;
        for (int q = 0; q < 4; q++) {
          dlo.pipeline = q;
          assert_fo_ok(fo_dist_link_loader_create(dd, pd, &lo, &dlo, &L[q]));
        }
        for (int ep = 0; ep < 2; ep++) {
          for (int q = 0; q < 4; q++) assert_fo_ok(fo_link_loader_start_epoch(L[q], (uint64_t)ep));
          for (;;) {
            fo_link_loader_batch_t *b, *bp;
            fo_dist_batch_stats s0, sp;
            uint64_t dg;
            assert_fo_ok(fo_link_loader_next(L[0], &b));
            if (!b) break;
            dg = fo_link_loader_batch_digest(b);
            fo_dist_link_loader_stats(L[0], &s0);
            seen++;
            for (int q = 1; q < 4; q++) {
              assert_fo_ok(fo_link_loader_next(L[q], &bp));
              assert_non_null(bp);
              assert_int_equal(bp->index, b->index);
              if (fo_link_loader_batch_digest(bp) != dg)
                fail_msg("method %d, config %d, machine %d, epoch %d, pipeline %d: batch %lld "
                         "differs", method, cfg, (int)r, ep, q, (long long)b->index);
              fo_dist_link_loader_stats(L[q], &sp);
              assert_int_equal(sp.link_requests, s0.link_requests);
              assert_int_equal(sp.link_bytes, s0.link_bytes);
              assert_int_equal(sp.hop_requests[0], s0.hop_requests[0]);
              assert_int_equal(sp.hop_bytes[1], s0.hop_bytes[1]);
              assert_int_equal(sp.remote_rows, s0.remote_rows);
              assert_int_equal(sp.fetch_bytes, s0.fetch_bytes);
              assert_int_equal(sp.cache_hits, s0.cache_hits);
              assert_int_equal(sp.ahead_bytes, s0.ahead_bytes);
            }
          }
          for (int q = 1; q < 4; q++) {
            fo_link_loader_batch_t *bp;
            assert_fo_ok(fo_link_loader_next(L[q], &bp));
            assert_null(bp);
          }
        }
        assert_true(seen > 4);
        /* a restart in mid-epoch, then a destroy with the threads ahead */
        {
          fo_link_loader_batch_t *b, *bp;
          assert_fo_ok(fo_link_loader_start_epoch(L[0], 5));
          assert_fo_ok(fo_link_loader_start_epoch(L[3], 5));
          assert_fo_ok(fo_link_loader_next(L[3], &bp));
          assert_fo_ok(fo_link_loader_start_epoch(L[3], 6));
          assert_fo_ok(fo_link_loader_start_epoch(L[0], 6));
          assert_fo_ok(fo_link_loader_next(L[0], &b));
          assert_fo_ok(fo_link_loader_next(L[3], &bp));
          assert_non_null(b);
          assert_non_null(bp);
          assert_true(fo_link_loader_batch_digest(bp) == fo_link_loader_batch_digest(b));
        }
        for (int q = 0; q < 4; q++) fo_link_loader_destroy(L[q]);
        {
          /* pipelining needs the lookahead cache */
          fo_link_loader_t *Lb;
          dlo.pipeline = 2;
          dlo.cache_policy = FO_DIST_CACHE_FREQUENCY;
          assert_fo_error(fo_dist_link_loader_create(dd, pd, &lo, &dlo, &Lb), FO_EINVAL,
                          "pipeline 2 needs cache_policy lookahead with cache_bytes > 0");
          dlo.cache_policy = FO_DIST_CACHE_LOOKAHEAD;
          dlo.pipeline = -1;
          assert_fo_error(fo_dist_link_loader_create(dd, pd, &lo, &dlo, &Lb), FO_EINVAL,
                          "pipeline -1 is not in 0..64");
        }
        assert_fo_ok(fo_dist_finalize(dd));
      }
    fo_dataset_close(pd);
    free(pdir);
  }
  {
    /* a corrupt part: a pipelining thread's batch fails with the server's error (its message,
     * the batch named), no hang; the destroy after it joins the threads */
    fo_partition_opts po;
    fo_partition_report rep;
    fo_dataset_t *pd;
    fo_link_loader_opts lo;
    fo_dist_loader_opts dlo;
    fo_link_loader_t *L;
    fo_link_loader_batch_t *b;
    fo_dist_t *dd;
    char *pdir = fot_path(g.tmp, "bad"), *p1 = fot_path(pdir, "part-1");
    int rc = FO_OK;
    fo_partition_opts_init(&po);
    po.n_parts = 2;
    assert_fo_ok(fo_partition(g.dir, pdir, &po, &rep));
    fo_partition_report_free(&rep);
    for (int64_t i = 0; i < 40; i++) fot_set_array_elem(p1, "csc_indices", i, 1000000, true);
    assert_fo_ok(fo_dataset_open(pdir, NULL, &pd));
    fo_link_loader_opts_init(&lo);
    lo.link.sampler.fanouts = (const int32_t[]){-1, -1};
    lo.link.sampler.n_hops = 2;
    lo.link.neg = FO_NEG_BINARY;
    lo.link.neg_amount = 1.0;
    lo.edge_label_index = eli;
    lo.n_edges = N_SEEDS;
    lo.batch_size = 64;
    fo_dist_loader_opts_init(&dlo);
    dlo.cache_bytes = 1 << 16;
    dlo.cache_policy = FO_DIST_CACHE_LOOKAHEAD;
    dlo.pipeline = 2;
    assert_fo_ok(fo_dist_init_local(pd, 0, NULL, &dd));
    assert_fo_ok(fo_dist_link_loader_create(dd, pd, &lo, &dlo, &L));
    while (rc == FO_OK && (rc = fo_link_loader_next(L, &b)) == FO_OK && b) {}
    assert_int_equal(rc, FO_EFORMAT);
    assert_int_equal(strncmp(fo_last_error(), "link batch 0: sample batch 0: hop 0 answer of machine 1", 55), 0);
    assert_non_null(strstr(fo_last_error(), "machine serving part 1"));
    fo_link_loader_destroy(L);
    assert_int_equal(fo_dist_finalize(dd), FO_EFORMAT);
    fo_dataset_close(pd);
    free(p1);
    free(pdir);
  }
  fot_ds_close(&g);
  fot_edges_free(&e);
  free(x);
  free(y);
}

/* Only part 0 open (a machine of a distributed run): not yet, said clearly. */
static void part_not_open(void **state) {
  fot_edges e;
  fot_ds g = {0};
  fo_import_opts io;
  fo_partition_opts po;
  fo_partition_report rep;
  fo_dataset_opts dopt;
  fo_dataset_t *pd;
  fo_link_opts o;
  fo_link_sampler_t *ls = NULL;
  int32_t f[1] = {2};
  char *pdir;
  (void)state;
  fot_random(40, 100, 3, &e);
  fo_import_opts_init(&io);
  fot_ds_edges(&g, &e, NULL, &io);
  pdir = fot_path(g.tmp, "parts");
  fo_partition_opts_init(&po);
  po.n_parts = 2;
  assert_fo_ok(fo_partition(g.dir, pdir, &po, &rep));
  fo_partition_report_free(&rep);
  /* not imported --undirected: the partitioned manifest says nothing of it */
  assert_fo_ok(fo_dataset_open(pdir, NULL, &pd));
  assert_null(strstr(fo_dataset_manifest(pd), "\"undirected\""));
  fo_dataset_close(pd);
  fo_dataset_opts_init(&dopt);
  dopt.part = 0;
  assert_fo_ok(fo_dataset_open(pdir, &dopt, &pd));
  fo_link_opts_init(&o);
  o.sampler.fanouts = f;
  o.sampler.n_hops = 1;
  o.neg = FO_NEG_BINARY;
  assert_fo_error(fo_link_sampler_create(pd, &o, &ls), FO_ENOSYS,
                  "part 1 is not open here (link sampling across machines");
  assert_null(ls);
  fo_dataset_close(pd);
  free(pdir);
  fot_ds_close(&g);
  fot_edges_free(&e);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(digests_equal),
      cmocka_unit_test(part_not_open),
      cmocka_unit_test(dist_pipelined),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
