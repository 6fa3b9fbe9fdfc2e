/*
 * tests/unit/test_dist_scale.c: distributed loaders in one process (fo_dist_init_local): seed
 * placement local (each machine batches the seeds it owns; pure function of the batch index;
 * tails), per-batch traffic counters (only the batch's own requests, whatever was sampled
 * ahead).
 */
#include "support.h"

#include "dist/dist_internal.h"

#include <errno.h>
#include <pthread.h>
#include <time.h>

typedef struct graph {
  char *tmp;
  fo_dataset_t *parts[2]; /* Cora in 3 parts: hash, metis (all parts open) */
} graph;

static graph G;

static int setup(void **state) {
  fo_import_opts io;
  fo_partition_opts po;
  const char *methods[2] = {"hash", "metis"};
  char *cora, *content, *cites;
  (void)state;
  G.tmp = fot_tmpdir();
  cora = fot_path(G.tmp, "cora");
  content = fot_path(fot_data_dir(), "cora/cora.content.gz");
  cites = fot_path(fot_data_dir(), "cora/cora.cites");
  fo_import_opts_init(&io);
  io.format = FO_FORMAT_PLANETOID;
  io.undirected = true;
  if (fo_import((const char *const[]){content, cites}, 2, cora, &io, NULL) != FO_OK) return -1;
  for (int m = 0; m < 2; m++) {
    char name[32], *out;
    snprintf(name, sizeof name, "p%d", m);
    out = fot_path(G.tmp, name);
    fo_partition_opts_init(&po);
    po.n_parts = 3;
    fo_partition_method_parse(methods[m], &po.method);
    if (fo_partition(cora, out, &po, NULL) != FO_OK || fo_dataset_open(out, NULL, &G.parts[m]) != FO_OK) {
      free(out);
      return -1;
    }
    free(out);
  }
  free(cora);
  free(content);
  free(cites);
  return 0;
}

static int teardown(void **state) {
  (void)state;
  for (int m = 0; m < 2; m++) fo_dataset_close(G.parts[m]);
  fot_rmtree(G.tmp);
  return 0;
}

static const int32_t FANOUTS[2] = {5, 5};

static void base_opts(fo_loader_opts *o) {
  fo_loader_opts_init(o);
  o->sampler.fanouts = FANOUTS;
  o->sampler.n_hops = 2;
  o->batch_size = 16;
  o->shuffle = true;
  o->sampler.seed = 11;
}

/* One machine's epoch: digest of its batch sequence; its seeds marked in seen[] (each once);
 * every seed is owned by the machine, every index is j * 3 + machine, hop 0 asks nobody. */
static uint64_t local_epoch(const fo_dataset_t *d, int machine, const fo_loader_opts *o,
                            fo_dist_tail tail, int64_t *n_batches, char *seen) {
  fo_dist_loader_opts dlo;
  fo_dist_t *dd;
  fo_loader_t *L;
  fo_loader_batch_t *b;
  uint64_t dg[256];
  int64_t n = 0;
  fo_dist_loader_opts_init(&dlo);
  dlo.seed_placement = FO_DIST_SEEDS_LOCAL;
  dlo.tail = tail;
  assert_fo_ok(fo_dist_init_local(d, machine, NULL, &dd));
  assert_fo_ok(fo_dist_loader_create_ex(dd, d, o, &dlo, &L));
  while (fo_loader_next(L, &b) == FO_OK && b) {
    fo_dist_batch_stats st;
    assert_true(n < 256);
    assert_int_equal(b->index, n * 3 + machine);
    for (int64_t i = 0; i < b->batch_size; i++) {
      int64_t v = b->sample->node[i];
      assert_int_equal(fo__owner(d, v), machine);
      if (seen && tail == FO_DIST_TAIL_KEEP) {
        assert_int_equal(seen[v], 0);
        seen[v] = 1;
      }
    }
    fo_dist_batch_stats_get(b, &st);
    assert_int_equal(st.hop_requests[0], 0); /* the seeds are this machine's */
    dg[n++] = fo_loader_batch_digest(b);
    fo_loader_release(L, b);
  }
  assert_int_equal(n, fo_loader_num_batches(L));
  fo_loader_destroy(L);
  assert_fo_ok(fo_dist_finalize(dd));
  *n_batches = n;
  return fo_digest_sequence(dg, n);
}

/* Seed placement local: every train node in exactly one batch of the machine that owns it; the
 * same batches for 0 and 2 loader threads and on a rerun; a different epoch differs. */
static void local_seeds_cover_and_repeat(void **state) {
  fo_loader_opts o;
  (void)state;
  base_opts(&o);
  o.split = "train";
  for (int m = 0; m < 2; m++) {
    const fo_dataset_t *d = G.parts[m];
    char *seen = calloc((size_t)d->n_nodes, 1);
    const int64_t *train;
    int64_t n_train, covered = 0, total = 0;
    assert_fo_ok(fo_dataset_split(d, "train", &train, &n_train));
    for (int r = 0; r < 3; r++) {
      int64_t nb0, nb2, nb3;
      uint64_t a, b, c;
      o.num_workers = 0;
      a = local_epoch(d, r, &o, FO_DIST_TAIL_KEEP, &nb0, seen);
      o.num_workers = 2;
      o.prefetch = 5;
      b = local_epoch(d, r, &o, FO_DIST_TAIL_KEEP, &nb2, NULL);
      c = local_epoch(d, r, &o, FO_DIST_TAIL_KEEP, &nb3, NULL);
      assert_int_equal(nb0, nb2);
      assert_true(a == b && b == c);
      o.epoch = 1;
      if (nb0 > 0) assert_true(local_epoch(d, r, &o, FO_DIST_TAIL_KEEP, &nb3, NULL) != a);
      o.epoch = 0;
      o.prefetch = 0;
      total += nb0;
    }
    for (int64_t i = 0; i < n_train; i++) covered += seen[train[i]];
    assert_int_equal(covered, n_train);
    assert_true(total >= 9); /* ceil(140 / 16) at the least: every machine cuts its own */
    free(seen);
  }
}

/* Tails over machines of unequal seed counts: drop gives every rank the fewest, pad the most;
 * a machine without input nodes cannot pad. */
static void local_seeds_tails(void **state) {
  fo_loader_opts o;
  int64_t cnt[3] = {0, 0, 0}, nb[3], lo = INT64_MAX, hi = 0, n;
  const fo_dataset_t *d = G.parts[0];
  const int64_t *train;
  int64_t n_train;
  (void)state;
  base_opts(&o);
  o.split = "train";
  o.num_workers = 1;
  assert_fo_ok(fo_dataset_split(d, "train", &train, &n_train));
  for (int64_t i = 0; i < n_train; i++) cnt[fo__owner(d, train[i])]++;
  for (int r = 0; r < 3; r++) {
    nb[r] = (cnt[r] + 15) / 16;
    if (nb[r] < lo) lo = nb[r];
    if (nb[r] > hi) hi = nb[r];
  }
  assert_true(lo < hi); /* hash parts of 140 nodes: unequal */
  for (int r = 0; r < 3; r++) {
    (void)local_epoch(d, r, &o, FO_DIST_TAIL_KEEP, &n, NULL);
    assert_int_equal(n, nb[r]);
    (void)local_epoch(d, r, &o, FO_DIST_TAIL_DROP, &n, NULL);
    assert_int_equal(n, lo);
  }
  for (int r = 0; r < 3; r++) { /* pad: indexes wrap to the machine's first batches */
    fo_dist_loader_opts dlo;
    fo_dist_t *dd;
    fo_loader_t *L;
    fo_loader_batch_t *b;
    int64_t j = 0;
    fo_dist_loader_opts_init(&dlo);
    dlo.seed_placement = FO_DIST_SEEDS_LOCAL;
    dlo.tail = FO_DIST_TAIL_PAD;
    assert_fo_ok(fo_dist_init_local(d, r, NULL, &dd));
    assert_fo_ok(fo_dist_loader_create_ex(dd, d, &o, &dlo, &L));
    assert_int_equal(fo_loader_num_batches(L), hi);
    while (fo_loader_next(L, &b) == FO_OK && b) {
      assert_int_equal(b->index, (j % nb[r]) * 3 + r);
      j++;
      fo_loader_release(L, b);
    }
    assert_int_equal(j, hi);
    fo_loader_destroy(L);
    assert_fo_ok(fo_dist_finalize(dd));
  }
  { /* input nodes all owned by machine 0: machine 1 has nothing to pad with */
    int64_t own[8], k = 0;
    fo_dist_loader_opts dlo;
    fo_dist_t *dd;
    fo_loader_t *L = NULL;
    for (int64_t v = 0; v < d->n_nodes && k < 8; v++)
      if (fo__owner(d, v) == 0) own[k++] = v;
    o.split = NULL;
    o.input_nodes = own;
    o.n_input_nodes = k;
    fo_dist_loader_opts_init(&dlo);
    dlo.seed_placement = FO_DIST_SEEDS_LOCAL;
    dlo.tail = FO_DIST_TAIL_PAD;
    for (int r = 0; r < 3; r++) { /* every machine knows */
      assert_fo_ok(fo_dist_init_local(d, r, NULL, &dd));
      assert_fo_error(fo_dist_loader_create_ex(dd, d, &o, &dlo, &L), FO_EINVAL,
                      "machine 1 owns none of the 8 input nodes");
      assert_null(L);
      assert_fo_ok(fo_dist_finalize(dd));
    }
    assert_fo_ok(fo_dist_init_local(d, 1, NULL, &dd));
    dlo.tail = FO_DIST_TAIL_KEEP;
    assert_fo_ok(fo_dist_loader_create_ex(dd, d, &o, &dlo, &L));
    assert_int_equal(fo_loader_num_batches(L), 0);
    fo_loader_destroy(L);
    dlo.seed_placement = (fo_dist_seed_placement)5;
    assert_fo_error(fo_dist_loader_create_ex(dd, d, &o, &dlo, &L), FO_EINVAL,
                    "unknown seed_placement 5");
    assert_fo_ok(fo_dist_finalize(dd));
  }
}

/* Per-batch counters: a batch's requests and bytes are its own, equal whether the loader
 * samples ahead (2 threads, prefetch 6, one batch consumed) or not (on the caller's thread);
 * the context's totals also count what was sampled ahead. */
static void batch_stats_count_kept_batches(void **state) {
  fo_loader_opts o;
  fo_dist_batch_stats want, got;
  fo_dist_stats tot;
  fo_dist_t *dd;
  fo_loader_t *L;
  fo_loader_batch_t *b;
  int64_t sum = 0;
  (void)state;
  base_opts(&o);
  o.num_workers = 0;
  assert_fo_ok(fo_dist_init_local(G.parts[0], 1, NULL, &dd));
  assert_fo_ok(fo_dist_loader_create(dd, G.parts[0], &o, FO_DIST_TAIL_KEEP, &L));
  assert_fo_ok(fo_loader_next(L, &b));
  fo_dist_batch_stats_get(b, &want);
  fo_loader_release(L, b);
  fo_loader_destroy(L);
  assert_int_equal(want.hop_requests[0], 2); /* 16 seeds of a shuffle: both other machines */
  assert_true(want.hop_bytes[0] > 0 && want.hop_edges[0] > 0 && want.hop_requests[1] == 2);
  assert_int_equal(want.fetch_requests, 2);
  assert_true(want.fetch_bytes > 0 && want.remote_rows > 0 && want.cache_hits == 0);
  fo_dist_get_stats(dd, &tot);
  assert_true(tot.hop_requests[0] == 2);
  assert_fo_ok(fo_dist_finalize(dd));

  o.num_workers = 2;
  o.prefetch = 6;
  assert_fo_ok(fo_dist_init_local(G.parts[0], 1, NULL, &dd));
  assert_fo_ok(fo_dist_loader_create(dd, G.parts[0], &o, FO_DIST_TAIL_KEEP, &L));
  assert_fo_ok(fo_loader_next(L, &b));
  fo_dist_batch_stats_get(b, &got);
  assert_memory_equal(&want, &got, sizeof want);
  for (int i = 0; i < 10000; i++) { /* let the workers sample ahead (at most 10 s) */
    fo_loader_stats ls;
    struct timespec ts = {0, 1000000};
    fo_loader_get_stats(L, &ls);
    if (ls.batches >= 4) break;
    nanosleep(&ts, NULL);
  }
  fo_loader_release(L, b);
  fo_loader_destroy(L);
  fo_dist_get_stats(dd, &tot);
  for (int h = 0; h < 2; h++) sum += tot.hop_requests[h];
  assert_true(sum > want.hop_requests[0] + want.hop_requests[1]); /* batches sampled ahead */
  assert_fo_ok(fo_dist_finalize(dd));
}

/* Belady's rule, driven as the loader drives it: at step j node seq[j] is needed (a hit, or a
 * miss fetched), then the rows kept are chosen with the next uses of steps j+1 .. j+window.
 * Returns the misses; held[j] (when not NULL) is the set held after step j (bit u = node u). */
static int64_t run_belady(const int64_t *seq, int64_t n, int64_t cap, int64_t window, int64_t *held) {
  fo__rcache *c;
  fo__nextuse nu = {0};
  int64_t misses = 0;
  unsigned char row[8];
  assert_fo_ok(fo__rcache_create(cap, 8, &c));
  for (int64_t j = 0; j < n; j++) {
    int64_t v = seq[j], s = fo__rcache_find(c, v), val = v * 100;
    if (s >= 0) {
      int64_t got;
      memcpy(&got, fo__rcache_row(c, s), 8);
      assert_int_equal(got, v * 100); /* the row is the node's */
    } else {
      misses++;
    }
    fo__nextuse_clear(&nu);
    for (int64_t t = j + 1; t <= j + window && t < n; t++) assert_fo_ok(fo__nextuse_put_first(&nu, seq[t], t));
    memcpy(row, &val, 8);
    assert_fo_ok(fo__rcache_belady(c, &v, row, s >= 0 ? 0 : 1, &nu));
    assert_true(fo__rcache_rows(c) <= cap);
    if (held) {
      held[j] = 0;
      for (int64_t u = 0; u < 63; u++)
        if (fo__rcache_find(c, u) >= 0) held[j] |= INT64_C(1) << u;
    }
  }
  fo__nextuse_free(&nu);
  fo__rcache_destroy(c);
  return misses;
}

/* The classic reference string 1 2 3 4 1 2 5 1 2 3 4 5 with 3 rows: 7 misses, the optimum
 * (exhaustive search over every admission and eviction gives 7 too); Belady never admits 4 or
 * 5 there (each is needed later than 1, 2 and 3), so {1, 2, 3} stays. A row needed again soon
 * is admitted in place of rows never needed again, and without look-ahead it is not. */
static void belady_exact(void **state) {
  static const int64_t seq[12] = {1, 2, 3, 4, 1, 2, 5, 1, 2, 3, 4, 5};
  static const int64_t want[12] = {0x2, 0x6, 0xe, 0xe, 0xe, 0xe, 0xe, 0xe, 0xe, 0xe, 0xe, 0xe};
  static const int64_t hot[7] = {1, 2, 3, 4, 4, 4, 4};
  int64_t held[12];
  (void)state;
  assert_int_equal(run_belady(seq, 12, 3, 100, held), 7);
  for (int j = 0; j < 12; j++)
    if (held[j] != want[j])
      fail_msg("step %d holds 0x%llx, expected 0x%llx", j, (unsigned long long)held[j],
               (unsigned long long)want[j]);
  assert_int_equal(run_belady(seq, 12, 5, 100, NULL), 5); /* room for all: first uses only */
  assert_int_equal(run_belady(hot, 7, 3, 100, held), 4);  /* 4 replaces 3 (ties: lower ids stay) */
  assert_int_equal(held[3], 0x16);
  assert_int_equal(run_belady(hot, 7, 3, 0, NULL), 7);    /* no look-ahead: 1, 2, 3 stay */
  assert_int_equal(run_belady(hot, 7, 3, 1, NULL), 4);    /* one batch ahead is enough */
}

/* Loaders with a cache of each policy give the batches of a loader without one (digests of the
 * epoch, global and local seeds, 0 and 2 threads, and 4 for lookahead), with hits; a bad cache
 * option fails. */
static void cache_keeps_batches(void **state) {
  const fo_dist_cache_policy pols[3] = {FO_DIST_CACHE_DEGREE, FO_DIST_CACHE_FREQUENCY,
                                        FO_DIST_CACHE_LOOKAHEAD};
  fo_loader_opts o;
  (void)state;
  base_opts(&o);
  o.batch_size = 64;
  for (int sp = 0; sp < 2; sp++)
    for (int r = 0; r < 3; r++) {
      uint64_t want = 0;
      for (int p = -1; p < 3; p++)
        for (int t = 0; t <= (p == 2 ? 4 : 2); t += 2) { /* 4 threads: lookahead only */
          fo_dist_loader_opts dlo;
          fo_dist_t *dd;
          fo_loader_t *L;
          fo_loader_batch_t *b;
          uint64_t dg[64];
          int64_t n = 0, hits = 0, rows = 0, saved = 0;
          fo_dist_loader_opts_init(&dlo);
          dlo.seed_placement = sp ? FO_DIST_SEEDS_LOCAL : FO_DIST_SEEDS_GLOBAL;
          if (p >= 0) {
            dlo.cache_bytes = 200 * (1433 * 4 + 8); /* 200 rows of Cora */
            dlo.cache_policy = pols[p];
            dlo.lookahead = 4;
          }
          o.num_workers = t;
          assert_fo_ok(fo_dist_init_local(G.parts[1], r, NULL, &dd));
          assert_fo_ok(fo_dist_loader_create_ex(dd, G.parts[1], &o, &dlo, &L));
          while (fo_loader_next(L, &b) == FO_OK && b && n < 64) {
            fo_dist_batch_stats st;
            fo_dist_batch_stats_get(b, &st);
            hits += st.cache_hits;
            rows += st.remote_rows;
            saved += st.cache_bytes_saved;
            if (p != 2) assert_int_equal(st.ahead_requests, 0);
            dg[n++] = fo_loader_batch_digest(b);
            fo_loader_release(L, b);
          }
          fo_loader_destroy(L);
          assert_fo_ok(fo_dist_finalize(dd));
          if (p < 0 && t == 0) want = fo_digest_sequence(dg, n);
          else assert_true(fo_digest_sequence(dg, n) == want);
          if (p < 0) assert_int_equal(hits, 0);
          else {
            assert_true(hits > 0 && hits <= rows);
            assert_int_equal(saved, hits * (1433 * 4 + 8));
          }
        }
    }
  {
    fo_dist_loader_opts dlo;
    fo_dist_t *dd;
    fo_loader_t *L = NULL;
    assert_fo_ok(fo_dist_init_local(G.parts[0], 0, NULL, &dd));
    fo_dist_loader_opts_init(&dlo);
    dlo.cache_bytes = -1;
    assert_fo_error(fo_dist_loader_create_ex(dd, G.parts[0], &o, &dlo, &L), FO_EINVAL,
                    "cache_bytes -1 is negative");
    dlo.cache_bytes = 1 << 20;
    dlo.cache_policy = (fo_dist_cache_policy)9;
    assert_fo_error(fo_dist_loader_create_ex(dd, G.parts[0], &o, &dlo, &L), FO_EINVAL,
                    "unknown cache_policy 9");
    dlo.cache_policy = FO_DIST_CACHE_LOOKAHEAD;
    dlo.lookahead = 0;
    assert_fo_error(fo_dist_loader_create_ex(dd, G.parts[0], &o, &dlo, &L), FO_EINVAL,
                    "lookahead 0 is not in 1..1024");
    assert_null(L);
    assert_fo_ok(fo_dist_finalize(dd));
  }
}

/* A rendezvous of two lookahead gathers right before their fetches (fo__cache_fetch_hook): met
 * only if one gather's fetch does not shut the other out of the cache. A thread waits at most
 * 10 s for a partner; after one such wait nobody waits again (rv_met -1). */
static pthread_mutex_t rv_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t rv_cv = PTHREAD_COND_INITIALIZER;
static int rv_in, rv_met;

static void rendezvous(void) {
  struct timespec until;
  pthread_mutex_lock(&rv_mu);
  if (!rv_met && ++rv_in >= 2) {
    rv_met = 1;
    pthread_cond_broadcast(&rv_cv);
  } else if (!rv_met) {
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += 10;
    while (!rv_met)
      if (pthread_cond_timedwait(&rv_cv, &rv_mu, &until) == ETIMEDOUT) {
        if (!rv_met) rv_met = -1;
        break;
      }
    rv_in--;
  }
  pthread_mutex_unlock(&rv_mu);
}

/* The lookahead cache fetches its misses without its lock: two loader threads are in their
 * fetches at once (the fix of a lock held across the remote fetch, which ran the loader at one
 * thread's speed); the batches stay those of a loader without a cache, and the topologies
 * sampled ahead are used, not sampled again. */
static void lookahead_fetches_overlap(void **state) {
  fo_loader_opts o;
  uint64_t want = 0;
  int64_t hops[2] = {0, 0};
  (void)state;
  base_opts(&o);
  o.batch_size = 64;
  for (int p = 0; p < 2; p++) {
    fo_dist_loader_opts dlo;
    fo_dist_t *dd;
    fo_loader_t *L;
    fo_loader_batch_t *b;
    uint64_t dg[64];
    int64_t n = 0;
    fo_dist_loader_opts_init(&dlo);
    if (p) {
      dlo.cache_bytes = 100 * (1433 * 4 + 8);
      dlo.cache_policy = FO_DIST_CACHE_LOOKAHEAD;
      dlo.lookahead = 3;
      fo__cache_fetch_hook = rendezvous;
    }
    o.num_workers = 2;
    assert_fo_ok(fo_dist_init_local(G.parts[1], 1, NULL, &dd));
    assert_fo_ok(fo_dist_loader_create_ex(dd, G.parts[1], &o, &dlo, &L));
    while (fo_loader_next(L, &b) == FO_OK && b && n < 64) {
      dg[n++] = fo_loader_batch_digest(b);
      fo_loader_release(L, b);
    }
    fo_loader_destroy(L);
    fo__cache_fetch_hook = NULL;
    {
      fo_dist_stats ds;
      fo_dist_get_stats(dd, &ds);
      for (int h = 0; h < 2; h++) hops[p] += ds.hop_requests[h];
    }
    assert_fo_ok(fo_dist_finalize(dd));
    if (!p) want = fo_digest_sequence(dg, n);
    else assert_true(fo_digest_sequence(dg, n) == want);
  }
  assert_int_equal(rv_met, 1);
  /* each batch sampled exactly once: the loader takes the topology sampled ahead, or waits for
   * the thread sampling it (sampling each batch twice made twice the hop requests) */
  if (!(hops[0] > 0 && hops[1] == hops[0]))
    fail_msg("hop requests %lld with lookahead, %lld without", (long long)hops[1], (long long)hops[0]);
}

/* Pipelining threads (pipeline 1 and 3, one loader thread and none, two epochs): the batches
 * of a loader without a cache, each sampled exactly once (hop requests equal), its remote rows
 * counted once whether hits, fetched ahead by those threads or fetched, and a context
 * that fails mid-epoch fails the loader with its error, not a hang; bad values are refused. */
static void pipeline_keeps_batches(void **state) {
  fo_loader_opts o;
  uint64_t want = 0;
  int64_t want_hops = 0, want_rows = 0;
  (void)state;
  base_opts(&o);
  o.batch_size = 64;
  for (int p = 0; p <= 3; p += p ? 2 : 1)
    for (int t = 0; t <= 1; t++) {
      fo_dist_loader_opts dlo;
      fo_dist_t *dd;
      fo_loader_t *L;
      fo_loader_batch_t *b;
      fo_dist_stats ds;
      uint64_t dg[128];
      int64_t n = 0, hops = 0, rows = 0, hits = 0;
      fo_dist_loader_opts_init(&dlo);
      if (p) {
        dlo.cache_bytes = 100 * (1433 * 4 + 8);
        dlo.cache_policy = FO_DIST_CACHE_LOOKAHEAD;
        dlo.lookahead = 4;
        dlo.pipeline = p;
      }
      o.num_workers = t;
      assert_fo_ok(fo_dist_init_local(G.parts[1], 2, NULL, &dd));
      assert_fo_ok(fo_dist_loader_create_ex(dd, G.parts[1], &o, &dlo, &L));
      for (uint64_t e = 0; e < 2; e++) {
        if (e) assert_fo_ok(fo_loader_start_epoch(L, e));
        while (fo_loader_next(L, &b) == FO_OK && b && n < 128) {
          fo_dist_batch_stats bs;
          fo_dist_batch_stats_get(b, &bs);
          rows += bs.remote_rows;
          hits += bs.cache_hits;
          dg[n++] = fo_loader_batch_digest(b);
          fo_loader_release(L, b);
        }
      }
      fo_loader_destroy(L);
      fo_dist_get_stats(dd, &ds);
      for (int h = 0; h < 2; h++) hops += ds.hop_requests[h];
      assert_fo_ok(fo_dist_finalize(dd));
      if (!p && !t) {
        want = fo_digest_sequence(dg, n);
        want_hops = hops;
        want_rows = rows;
      } else {
        assert_true(fo_digest_sequence(dg, n) == want);
        /* every remote row counted once with its batch: a hit, fetched ahead, or fetched */
        assert_int_equal(rows, want_rows);
        if (p) assert_true(hits > 0);
        if (hops != want_hops)
          fail_msg("pipeline %d, %d threads: %lld hop requests, %lld without", p, t, (long long)hops,
                   (long long)want_hops);
      }
    }
  {
    fo_dist_loader_opts dlo;
    fo_dist_t *dd;
    fo_loader_t *L = NULL;
    fo_loader_batch_t *b;
    int rc = FO_OK;
    assert_fo_ok(fo_dist_init_local(G.parts[1], 0, NULL, &dd));
    fo_dist_loader_opts_init(&dlo);
    dlo.pipeline = 2;
    assert_fo_error(fo_dist_loader_create_ex(dd, G.parts[1], &o, &dlo, &L), FO_EINVAL,
                    "pipeline 2 needs cache_policy lookahead");
    dlo.cache_policy = FO_DIST_CACHE_LOOKAHEAD;
    dlo.cache_bytes = 1 << 20;
    dlo.pipeline = 65;
    assert_fo_error(fo_dist_loader_create_ex(dd, G.parts[1], &o, &dlo, &L), FO_EINVAL,
                    "pipeline 65 is not in 0..64");
    dlo.pipeline = 2;
    o.num_workers = 1;
    assert_fo_ok(fo_dist_loader_create_ex(dd, G.parts[1], &o, &dlo, &L));
    assert_fo_ok(fo_loader_next(L, &b));
    assert_non_null(b);
    fo_loader_release(L, b);
    assert_int_equal(fo_dist_abort(dd, "test stops here"), FO_ECANCELED);
    while (rc == FO_OK && (rc = fo_loader_next(L, &b)) == FO_OK && b) fo_loader_release(L, b);
    assert_int_equal(rc, FO_ECANCELED);
    assert_non_null(strstr(fo_last_error(), "test stops here"));
    fo_loader_destroy(L);
    assert_int_equal(fo_dist_finalize(dd), FO_ECANCELED);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(local_seeds_cover_and_repeat),
      cmocka_unit_test(local_seeds_tails),
      cmocka_unit_test(batch_stats_count_kept_batches),
      cmocka_unit_test(belady_exact),
      cmocka_unit_test(cache_keeps_batches),
      cmocka_unit_test(lookahead_fetches_overlap),
      cmocka_unit_test(pipeline_keeps_batches),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
