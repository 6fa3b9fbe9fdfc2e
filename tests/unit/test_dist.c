/*
 * tests/unit/test_dist.c: the distributed code path in one process (fo_dist_init_local: every
 * request encoded, served by its part's server, decoded): distributed samplers and loaders give
 * exactly the batches of the unpartitioned dataset, for every machine and method; the wire
 * decoders refuse malformed messages (fuzzed) without crashing.
 */
#include "support.h"

#include "dist/dist_internal.h"
#include "sample/link_internal.h" /* FO__LINK_WANT_POS */

#include <math.h>

typedef struct graph {
  char *tmp;
  fo_dataset_t *plain, *parts[3]; /* hash, range, metis partitions (all parts open) */
} graph;

static graph G;

static int setup(void **state) {
  fo_import_opts io;
  fo_partition_opts po;
  const char *methods[3] = {"hash", "range", "metis"};
  char *cora = NULL, *content, *cites;
  (void)state;
  G.tmp = fot_tmpdir();
  cora = fot_path(G.tmp, "cora");
  content = fot_path(fot_data_dir(), "cora/cora.content.gz");
  cites = fot_path(fot_data_dir(), "cora/cora.cites");
  fo_import_opts_init(&io);
  io.format = FO_FORMAT_PLANETOID;
  io.undirected = true;
  if (fo_import((const char *const[]){content, cites}, 2, cora, &io, NULL) != FO_OK) return -1;
  if (fo_dataset_open(cora, NULL, &G.plain) != FO_OK) return -1;
  for (int m = 0; m < 3; m++) {
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
  fo_dataset_close(G.plain);
  for (int m = 0; m < 3; m++) fo_dataset_close(G.parts[m]);
  fot_rmtree(G.tmp);
  return 0;
}

static void same_batch(const fo_batch_t *a, const fo_batch_t *b) {
  assert_int_equal(a->n_nodes, b->n_nodes);
  assert_int_equal(a->n_edges, b->n_edges);
  assert_memory_equal(a->node, b->node, (size_t)a->n_nodes * 8);
  assert_memory_equal(a->row, b->row, (size_t)a->n_edges * 8);
  assert_memory_equal(a->col, b->col, (size_t)a->n_edges * 8);
  assert_memory_equal(a->edge, b->edge, (size_t)a->n_edges * 8);
  if (a->disjoint) assert_memory_equal(a->batch, b->batch, (size_t)a->n_nodes * 8);
}

/* Distributed samplers on every machine equal the plain sampler, for many random batches. */
static void sampler_equals_plain(void **state) {
  uint64_t st = fot_seed(7);
  (void)state;
  fot_note_seed(st);
  for (int m = 0; m < 3; m++)
    for (int machine = 0; machine < 3; machine++) {
      fo_dist_t *dd;
      assert_fo_ok(fo_dist_init_local(G.parts[m], machine, NULL, &dd));
      for (int c = 0; c < 12; c++) {
        fo_sampler_opts o;
        fo_sampler_t *ps, *ds;
        fo_batch_t *pb, *db;
        int32_t fans[3];
        int64_t seeds[40], n = 1 + (int64_t)(fot_rand(&st) % 40);
        fo_sampler_opts_init(&o);
        o.n_hops = 1 + (int32_t)(fot_rand(&st) % 3);
        for (int h = 0; h < o.n_hops; h++) fans[h] = (int32_t)(fot_rand(&st) % 8) - 1;
        o.fanouts = fans;
        o.replace = fot_rand(&st) % 2;
        o.disjoint = fot_rand(&st) % 2;
        o.seed = fot_rand(&st) % 5;
        for (int64_t i = 0; i < n; i++) seeds[i] = (int64_t)(fot_rand(&st) % 2708);
        assert_fo_ok(fo_sampler_create(G.plain, &o, &ps));
        assert_fo_ok(fo_dist_sampler_create(dd, G.parts[m], &o, &ds));
        assert_fo_ok(fo_batch_create(&pb));
        assert_fo_ok(fo_batch_create(&db));
        assert_fo_ok(fo_sampler_sample(ps, seeds, n, 3, (uint64_t)c, pb));
        assert_fo_ok(fo_sampler_sample(ds, seeds, n, 3, (uint64_t)c, db));
        same_batch(pb, db);
        fo_batch_destroy(pb);
        fo_batch_destroy(db);
        fo_sampler_destroy(ps);
        fo_sampler_destroy(ds);
      }
      {
        fo_dist_stats s;
        fo_dist_get_stats(dd, &s);
        assert_true(s.hop_requests[0] > 0); /* remote parts were really asked */
        assert_true(s.served == s.hop_requests[0] + s.hop_requests[1] + s.hop_requests[2]);
      }
      assert_fo_ok(fo_dist_finalize(dd));
    }
}

static uint64_t plain_digest(const fo_loader_opts *o) {
  fo_loader_t *L;
  fo_loader_batch_t *b;
  uint64_t d[64];
  int64_t n = 0;
  assert_fo_ok(fo_loader_create(G.plain, o, &L));
  while (fo_loader_next(L, &b) == FO_OK && b) {
    d[n++] = fo_loader_batch_digest(b);
    fo_loader_release(L, b);
  }
  fo_loader_destroy(L);
  return fo_digest_sequence(d, n);
}

/* One distributed loader per machine, their batches merged by global index, equal the plain
 * loader's epoch (features and labels included). */
static void loaders_equal_plain(void **state) {
  fo_loader_opts o;
  (void)state;
  fo_loader_opts_init(&o);
  o.sampler.fanouts = (const int32_t[]){5, 5};
  o.sampler.n_hops = 2;
  o.batch_size = 16;
  o.split = "train";
  o.shuffle = true;
  o.sampler.seed = 11;
  o.num_workers = 2;
  for (int m = 0; m < 3; m++) {
    uint64_t want = plain_digest(&o), d[64];
    int64_t total = 0, nb = 0;
    fo_dist_t *dd[3];
    fo_loader_t *L[3];
    for (int r = 0; r < 3; r++) {
      assert_fo_ok(fo_dist_init_local(G.parts[m], r, NULL, &dd[r]));
      assert_fo_ok(fo_dist_loader_create(dd[r], G.parts[m], &o, FO_DIST_TAIL_KEEP, &L[r]));
      total += fo_loader_num_batches(L[r]);
    }
    assert_int_equal(total, 9); /* ceil(140 / 16) */
    for (int64_t b = 0; b < total; b++) {
      fo_loader_batch_t *bt;
      assert_fo_ok(fo_loader_next(L[b % 3], &bt));
      assert_non_null(bt);
      assert_int_equal(bt->index, b);
      assert_non_null(bt->x);
      d[nb++] = fo_loader_batch_digest(bt);
      fo_loader_release(L[b % 3], bt);
    }
    assert_true(fo_digest_sequence(d, nb) == want);
    for (int r = 0; r < 3; r++) {
      fo_loader_destroy(L[r]);
      assert_fo_ok(fo_dist_finalize(dd[r]));
    }
  }
}

/* Tail modes: drop gives floor(9 / 3) = 3 each, pad ceil(9 / 3) = 3; with 2 machines... use 3. */
static void tail_modes(void **state) {
  fo_loader_opts o;
  fo_dist_t *dd;
  fo_loader_t *L;
  (void)state;
  fo_loader_opts_init(&o);
  o.sampler.fanouts = (const int32_t[]){2};
  o.sampler.n_hops = 1;
  o.batch_size = 32; /* 140 train nodes: 5 batches over 3 ranks */
  o.split = "train";
  assert_fo_ok(fo_dist_init_local(G.parts[0], 2, NULL, &dd));
  assert_fo_ok(fo_dist_loader_create(dd, G.parts[0], &o, FO_DIST_TAIL_KEEP, &L));
  assert_int_equal(fo_loader_num_batches(L), 1); /* batches 2 */
  fo_loader_destroy(L);
  assert_fo_ok(fo_dist_loader_create(dd, G.parts[0], &o, FO_DIST_TAIL_DROP, &L));
  assert_int_equal(fo_loader_num_batches(L), 1);
  fo_loader_destroy(L);
  assert_fo_ok(fo_dist_loader_create(dd, G.parts[0], &o, FO_DIST_TAIL_PAD, &L));
  assert_int_equal(fo_loader_num_batches(L), 2); /* batches 2 and (2 + 3) mod 5 = 0 */
  {
    fo_loader_batch_t *b;
    assert_fo_ok(fo_loader_next(L, &b));
    assert_int_equal(b->index, 2);
    fo_loader_release(L, b);
    assert_fo_ok(fo_loader_next(L, &b));
    assert_int_equal(b->index, 0);
    fo_loader_release(L, b);
  }
  fo_loader_destroy(L);
  assert_fo_error(fo_dist_loader_create(dd, G.parts[0], &o, (fo_dist_tail)7, &L), FO_EINVAL, "tail");
  assert_fo_ok(fo_dist_finalize(dd));
}

/* A server refuses a request for another part with an ERROR answer the caller reports. */
static void server_refuses_foreign_nodes(void **state) {
  fo__server sv;
  fo__buf b = {0};
  fo__hop_req r = {0};
  int64_t v = 0;
  int owner;
  int64_t row;
  (void)state;
  assert_fo_ok(fo_dataset_node_part(G.parts[0], v, &owner, &row));
  assert_fo_ok(fo__server_init(&sv, G.parts[0], (owner + 1) % 3));
  r.part = (owner + 1) % 3;
  r.hop = 0;
  r.fanout = 3;
  r.n = 1;
  r.nodes = &v;
  assert_fo_ok(fo__enc_hop_req(&b, &r));
  assert_fo_ok(fo__server_answer(&sv, b.w, (size_t)b.n * 8));
  assert_int_equal(fo__msg_kind(sv.out.w, (size_t)sv.out.n * 8), FO_MSG_ERROR);
  {
    fo__hop_res res;
    assert_fo_error(fo__dec_hop_res(sv.out.w, (size_t)sv.out.n * 8, 2708, 10556, &res), FO_EINVAL,
                    "owned by another part");
  }
  fo__buf_free(&b);
  fo__server_fini(&sv);
}

/* A hop request with replacement whose answer could pass the server's limit (the transport's
 * max_message_bytes) is refused before sampling, with both sizes; under it, it is answered. */
static void server_refuses_oversize_draws(void **state) {
  fo__server sv;
  fo__buf b = {0};
  fo__hop_req r = {0};
  int64_t v = 0, row;
  int owner;
  (void)state;
  assert_fo_ok(fo_dataset_node_part(G.parts[0], v, &owner, &row));
  assert_fo_ok(fo__server_init(&sv, G.parts[0], owner));
  sv.max_answer_words = 4096 / 8;
  r.part = owner;
  r.fanout = 1 << 30;
  r.replace = true;
  r.n = 1;
  r.nodes = &v;
  assert_fo_ok(fo__enc_hop_req(&b, &r));
  assert_fo_ok(fo__server_answer(&sv, b.w, (size_t)b.n * 8));
  assert_int_equal(fo__msg_kind(sv.out.w, (size_t)sv.out.n * 8), FO_MSG_ERROR);
  {
    fo__hop_res res;
    assert_fo_error(fo__dec_hop_res(sv.out.w, (size_t)sv.out.n * 8, 2708, 10556, &res), FO_ERANGE,
                    "fanout 1073741824 and replacement: its answer could hold 1073741824 edges, "
                    "more than the transport's limit of 4096 bytes");
  }
  r.fanout = 10;
  fo__buf_free(&b);
  assert_fo_ok(fo__enc_hop_req(&b, &r));
  assert_fo_ok(fo__server_answer(&sv, b.w, (size_t)b.n * 8));
  assert_int_equal(fo__msg_kind(sv.out.w, (size_t)sv.out.n * 8), FO_MSG_HOP_RESP);
  fo__buf_free(&b);
  fo__server_fini(&sv);
}

/* Weighted and temporal hop requests: the mode and the per-node times round-trip; a malformed
 * mode is FO_EFORMAT; a part without what the mode needs (Cora has no weights or times) answers
 * with an ERROR naming it, which the caller reports. */
static void mode_requests(void **state) {
  fo__server sv;
  fo__buf b = {0};
  fo__hop_req r = {0}, d;
  fo__hop_res res;
  int64_t v = 0, tree = 3, t = 1234, row;
  int owner;
  (void)state;
  assert_fo_ok(fo_dataset_node_part(G.parts[0], v, &owner, &row));
  r.part = owner;
  r.fanout = 4;
  r.disjoint = true;
  r.n = 1;
  r.nodes = &v;
  r.trees = &tree;
  r.temporal = FO_TEMPORAL_LAST;
  r.time_node = true;
  r.strict = true;
  r.window = 77;
  r.times = &t;
  assert_fo_ok(fo__enc_hop_req(&b, &r));
  assert_fo_ok(fo__dec_hop_req(b.w, (size_t)b.n * 8, 2708, 3, &d));
  assert_int_equal(d.temporal, FO_TEMPORAL_LAST);
  assert_true(d.time_node && d.strict && d.disjoint && !d.weighted);
  assert_int_equal(d.window, 77);
  assert_int_equal(d.n, 1);
  assert_int_equal(d.trees[0], 3);
  assert_int_equal(d.times[0], 1234);
  /* the mode word's strategy, its unknown bits, the window; temporal without trees */
  b.w[2 + 8] = 3;
  assert_fo_error(fo__dec_hop_req(b.w, (size_t)b.n * 8, 2708, 3, &d), FO_EFORMAT, "temporal mode 3");
  b.w[2 + 8] = 1 | 1 << 12;
  assert_fo_error(fo__dec_hop_req(b.w, (size_t)b.n * 8, 2708, 3, &d), FO_EFORMAT, "malformed hop request: temporal mode");
  b.w[2 + 8] = 1;
  b.w[2 + 9] = -2;
  assert_fo_error(fo__dec_hop_req(b.w, (size_t)b.n * 8, 2708, 3, &d), FO_EFORMAT, "window -2");
  b.w[2 + 9] = -1;
  b.w[2 + 5] &= ~2;
  assert_fo_error(fo__dec_hop_req(b.w, (size_t)b.n * 8, 2708, 3, &d), FO_EFORMAT, "not disjoint");
  b.w[2 + 5] |= 2;
  assert_fo_error(fo__dec_hop_req(b.w, (size_t)b.n * 8 - 8, 2708, 3, &d), FO_EFORMAT, "malformed");
  /* the server of a part without times or weights names what is missing */
  assert_fo_ok(fo__server_init(&sv, G.parts[0], owner));
  for (int k = 0; k < 3; k++) {
    static const char *const want[] = {"edge-time temporal one-hop request, but part",
                                       "node-time temporal one-hop request, but",
                                       "weighted one-hop request, but part"};
    r.temporal = k < 2 ? FO_TEMPORAL_UNIFORM : FO_TEMPORAL_NONE;
    r.time_node = k == 1;
    r.weighted = k == 2;
    r.times = k < 2 ? &t : NULL;
    fo__buf_free(&b);
    assert_fo_ok(fo__enc_hop_req(&b, &r));
    assert_fo_ok(fo__server_answer(&sv, b.w, (size_t)b.n * 8));
    assert_int_equal(fo__msg_kind(sv.out.w, (size_t)sv.out.n * 8), FO_MSG_ERROR);
    assert_fo_error(fo__dec_hop_res(sv.out.w, (size_t)sv.out.n * 8, 2708, 10556, &res), FO_EINVAL, want[k]);
  }
  fo__buf_free(&b);
  fo__server_fini(&sv);
}

/* The LINK request (strict-negative membership, exclusion positions) and its response: a valid
 * pair round-trips; every malformed one (cut short, wrong kind, part, counts, edge type, flag
 * bits, ids out of range, counts and positions that do not add up) is FO_EFORMAT naming what is
 * wrong; a server asked for another part's rows answers with an ERROR naming them. */
static void link_messages(void **state) {
  fo__server sv;
  fo__buf b = {0}, rb = {0};
  fo__link_req r = {0}, d;
  fo__link_res res = {0}, dr;
  int64_t pairs[6], counts[2] = {2, 1}, pos[2] = {3, 9}, v0 = -1, v1 = -1;
  int owner;
  const size_t len_of_req = (2 + 2 + 6) * 8, len_of_res = (2 + 2 + 2 + 2) * 8;
  (void)state;
  /* two nodes of part 0 (rows) and two of another part (neighbors: any node id) */
  for (int64_t v = 0; v < 2708 && (v0 < 0 || v1 < 0); v++) {
    int64_t row;
    assert_fo_ok(fo_dataset_node_part(G.parts[0], v, &owner, &row));
    if (owner == 0 && v0 < 0) v0 = v;
    else if (owner == 0 && v1 < 0) v1 = v;
  }
  /* pair 0: positions wanted (exclusion); pair 1: membership only (strict negatives) */
  pairs[0] = 0 | FO__LINK_WANT_POS;
  pairs[1] = v0;
  pairs[2] = 6;
  pairs[3] = 0;
  pairs[4] = v1;
  pairs[5] = 8;
  r.part = 0;
  r.n = 2;
  r.pairs = pairs;
  assert_fo_ok(fo__enc_link_req(&b, &r));
  assert_int_equal((size_t)b.n * 8, len_of_req);
  assert_fo_ok(fo__dec_link_req(b.w, len_of_req, G.parts[0], &d));
  assert_int_equal(d.part, 0);
  assert_int_equal(d.n, 2);
  assert_memory_equal(d.pairs, pairs, sizeof pairs);
  /* cut short: by a word (the header's count disagrees), below a header, misaligned */
  assert_fo_error(fo__dec_link_req(b.w, len_of_req - 8, G.parts[0], &d), FO_EFORMAT,
                  "malformed message: says 8 words, has 7");
  assert_fo_error(fo__dec_link_req(b.w, 8, G.parts[0], &d), FO_EFORMAT, "malformed message: 8 bytes");
  assert_fo_error(fo__dec_link_req(b.w, len_of_req - 3, G.parts[0], &d), FO_EFORMAT,
                  "malformed message: 77 bytes");
  /* cut short consistently (header says 7 words): the pair count no longer fits */
  b.w[1] = 7;
  assert_fo_error(fo__dec_link_req(b.w, len_of_req - 8, G.parts[0], &d), FO_EFORMAT,
                  "malformed link request: 2 pairs in 7 words");
  b.w[1] = 8;
  /* another kind of message */
  b.w[0] = (int64_t)(FO_MSG_MAGIC | (uint64_t)FO_MSG_HOP << 32);
  assert_fo_error(fo__dec_link_req(b.w, len_of_req, G.parts[0], &d), FO_EFORMAT, "expected kind 10");
  b.w[0] = (int64_t)(FO_MSG_MAGIC | (uint64_t)FO_MSG_LINK << 32);
  /* the part: not one of the 3 */
  b.w[2] = 3;
  assert_fo_error(fo__dec_link_req(b.w, len_of_req, G.parts[0], &d), FO_EFORMAT,
                  "malformed link request: 8 words, part 3");
  b.w[2] = -1;
  assert_fo_error(fo__dec_link_req(b.w, len_of_req, G.parts[0], &d), FO_EFORMAT, "part -1");
  b.w[2] = 0;
  /* wrong pair counts */
  for (int k = 0; k < 3; k++) {
    static const int64_t bad[3] = {3, 1, -1};
    static const char *const want[3] = {"3 pairs in 8 words", "1 pairs in 8 words", "-1 pairs in 8 words"};
    b.w[3] = bad[k];
    assert_fo_error(fo__dec_link_req(b.w, len_of_req, G.parts[0], &d), FO_EFORMAT, want[k]);
  }
  b.w[3] = 2;
  /* a pair's edge type (Cora has one), an unknown flag bit */
  b.w[4 + 3] = 1;
  assert_fo_error(fo__dec_link_req(b.w, len_of_req, G.parts[0], &d), FO_EFORMAT,
                  "malformed link request: pair 1 has word 1 (edge types: 1)");
  b.w[4 + 3] = INT64_C(1) << 33;
  assert_fo_error(fo__dec_link_req(b.w, len_of_req, G.parts[0], &d), FO_EFORMAT, "pair 1 has word 8589934592");
  b.w[4 + 3] = -1;
  assert_fo_error(fo__dec_link_req(b.w, len_of_req, G.parts[0], &d), FO_EFORMAT, "pair 1 has word -1");
  b.w[4 + 3] = 0;
  /* ids out of range: the row (a dst node), the neighbor (a src node) */
  b.w[4 + 1] = 2708;
  assert_fo_error(fo__dec_link_req(b.w, len_of_req, G.parts[0], &d), FO_EFORMAT,
                  "pair 0 (2708, 6) is not a (dst, src) pair of edge type");
  b.w[4 + 1] = v0;
  b.w[4 + 5] = -1;
  assert_fo_error(fo__dec_link_req(b.w, len_of_req, G.parts[0], &d), FO_EFORMAT, "(dst, src) pair");
  b.w[4 + 5] = INT64_MAX;
  assert_fo_error(fo__dec_link_req(b.w, len_of_req, G.parts[0], &d), FO_EFORMAT, "pair 1 (");
  b.w[4 + 5] = 8;
  assert_fo_ok(fo__dec_link_req(b.w, len_of_req, G.parts[0], &d));
  /* a CSR row's pair (exclusion under edge_dir out): (src, dst), checked as such */
  b.w[4 + 0] = FO__LINK_WANT_POS | FO__LINK_OUT;
  assert_fo_ok(fo__dec_link_req(b.w, len_of_req, G.parts[0], &d));
  b.w[4 + 1] = 2708;
  assert_fo_error(fo__dec_link_req(b.w, len_of_req, G.parts[0], &d), FO_EFORMAT,
                  "pair 0 (2708, 6) is not a (src, dst) pair of edge type");
  b.w[4 + 1] = v0;
  b.w[4 + 0] = FO__LINK_WANT_POS;

  /* the response: pair 0 found twice (positions 3, 9), pair 1 a member */
  res.n = 2;
  res.n_pos = 2;
  res.counts = counts;
  res.pos = pos;
  assert_fo_ok(fo__enc_link_res(&rb, &res));
  assert_int_equal((size_t)rb.n * 8, len_of_res);
  assert_fo_ok(fo__dec_link_res(rb.w, len_of_res, pairs, 2, &dr));
  assert_int_equal(dr.n, 2);
  assert_int_equal(dr.n_pos, 2);
  assert_int_equal(dr.counts[0], 2);
  assert_int_equal(dr.pos[1], 9);
  assert_fo_error(fo__dec_link_res(rb.w, len_of_res - 8, pairs, 2, &dr), FO_EFORMAT, "says 6 words, has 5");
  assert_fo_error(fo__dec_link_res(rb.w, 12, pairs, 2, &dr), FO_EFORMAT, "malformed message: 12 bytes");
  rb.w[1] = 1;
  assert_fo_error(fo__dec_link_res(rb.w, 24, pairs, 2, &dr), FO_EFORMAT, "malformed link response: 1 words");
  rb.w[1] = 6;
  /* not the answer to a request of 3 (or 1) pairs */
  assert_fo_error(fo__dec_link_res(rb.w, len_of_res, pairs, 3, &dr), FO_EFORMAT,
                  "malformed link response: 2 pairs (asked 3), 2 positions in 6 words");
  assert_fo_error(fo__dec_link_res(rb.w, len_of_res, pairs, 1, &dr), FO_EFORMAT, "(asked 1)");
  rb.w[0] = (int64_t)(FO_MSG_MAGIC | (uint64_t)FO_MSG_LINK << 32);
  assert_fo_error(fo__dec_link_res(rb.w, len_of_res, pairs, 2, &dr), FO_EFORMAT, "expected kind 11");
  rb.w[0] = (int64_t)(FO_MSG_MAGIC | (uint64_t)FO_MSG_LINK_RESP << 32);
  /* position count that does not fit the words */
  rb.w[3] = 3;
  assert_fo_error(fo__dec_link_res(rb.w, len_of_res, pairs, 2, &dr), FO_EFORMAT, "3 positions in 6 words");
  rb.w[3] = -1;
  assert_fo_error(fo__dec_link_res(rb.w, len_of_res, pairs, 2, &dr), FO_EFORMAT, "-1 positions");
  rb.w[3] = 2;
  /* counts: negative, more positions than sent, a membership count above 1 */
  rb.w[4] = -1;
  assert_fo_error(fo__dec_link_res(rb.w, len_of_res, pairs, 2, &dr), FO_EFORMAT,
                  "malformed link response: pair 0 has count -1");
  rb.w[4] = 3;
  assert_fo_error(fo__dec_link_res(rb.w, len_of_res, pairs, 2, &dr), FO_EFORMAT, "pair 0 has count 3");
  rb.w[4] = 2;
  rb.w[5] = 2;
  assert_fo_error(fo__dec_link_res(rb.w, len_of_res, pairs, 2, &dr), FO_EFORMAT, "pair 1 has count 2");
  /* counts and positions that do not add up: pair 0 found once, 2 positions sent */
  rb.w[4] = 1;
  rb.w[5] = 1;
  assert_fo_error(fo__dec_link_res(rb.w, len_of_res, pairs, 2, &dr), FO_EFORMAT,
                  "malformed link response: counts give 1 positions, 2 sent");
  rb.w[4] = 2;
  /* positions: negative, not ascending, repeated */
  rb.w[6] = -5;
  assert_fo_error(fo__dec_link_res(rb.w, len_of_res, pairs, 2, &dr), FO_EFORMAT,
                  "malformed link response: pair 0: position -5");
  rb.w[6] = 9;
  rb.w[7] = 3;
  assert_fo_error(fo__dec_link_res(rb.w, len_of_res, pairs, 2, &dr), FO_EFORMAT, "pair 0: position 3");
  rb.w[7] = 9;
  assert_fo_error(fo__dec_link_res(rb.w, len_of_res, pairs, 2, &dr), FO_EFORMAT, "pair 0: position 9");
  rb.w[6] = 3;
  assert_fo_ok(fo__dec_link_res(rb.w, len_of_res, pairs, 2, &dr));
  /* without the request's pairs every pair is a membership one: a count of 2 is refused */
  assert_fo_error(fo__dec_link_res(rb.w, len_of_res, NULL, 2, &dr), FO_EFORMAT, "pair 0 has count 2");

  /* the server: its own part's rows are answered; another part's request or row, with an ERROR
   * that the response decoder raises */
  assert_fo_ok(fo__server_init(&sv, G.parts[0], 0));
  assert_fo_ok(fo__server_answer(&sv, b.w, len_of_req));
  assert_int_equal(fo__msg_kind(sv.out.w, (size_t)sv.out.n * 8), FO_MSG_LINK_RESP);
  assert_fo_ok(fo__dec_link_res(sv.out.w, (size_t)sv.out.n * 8, pairs, 2, &dr));
  b.w[2] = 1;
  assert_fo_ok(fo__server_answer(&sv, b.w, len_of_req));
  assert_int_equal(fo__msg_kind(sv.out.w, (size_t)sv.out.n * 8), FO_MSG_ERROR);
  assert_fo_error(fo__dec_link_res(sv.out.w, (size_t)sv.out.n * 8, pairs, 2, &dr), FO_EINVAL,
                  "link request for part 1 reached the server of part 0");
  b.w[2] = 0;
  for (int64_t v = 0; v < 2708; v++) {
    int64_t row;
    assert_fo_ok(fo_dataset_node_part(G.parts[0], v, &owner, &row));
    if (owner != 0) {
      char want[64];
      b.w[4 + 4] = v;
      snprintf(want, sizeof want, "node %lld of node type", (long long)v);
      assert_fo_ok(fo__server_answer(&sv, b.w, len_of_req));
      assert_fo_error(fo__dec_link_res(sv.out.w, (size_t)sv.out.n * 8, pairs, 2, &dr), FO_EINVAL, want);
      assert_fo_error(fo__dec_link_res(sv.out.w, (size_t)sv.out.n * 8, pairs, 2, &dr), FO_EINVAL,
                      "is owned by part");
      break;
    }
  }
  fo__buf_free(&b);
  fo__buf_free(&rb);
  fo__server_fini(&sv);
}

/* Fuzz: random mutations and truncations of valid messages never crash a decoder or server. */
static void decoder_fuzz(void **state) {
  fo__server sv;
  fo__buf req = {0}, resp = {0};
  fo__hop_req r = {0};
  fo__hop_res hr;
  fo__fetch_req fr = {0};
  int64_t nodes[5] = {0, 1, 2, 3, 4}, counts[5] = {1, 0, 2, 0, 1}, nbr[4] = {5, 6, 7, 8},
          eid[4] = {1, 2, 3, 4};
  uint64_t st = fot_seed(99);
  int64_t *copy;
  (void)state;
  assert_fo_ok(fo__server_init(&sv, G.parts[0], 0));
  r.fanout = 2;
  r.n = 5;
  r.nodes = nodes;
  assert_fo_ok(fo__enc_hop_req(&req, &r));
  hr.n = 5;
  hr.n_edges = 4;
  hr.counts = counts;
  hr.nbr = nbr;
  hr.eid = eid;
  assert_fo_ok(fo__enc_hop_res(&resp, &hr));
  fr.x = fr.y = true;
  fr.n = 5;
  fr.nodes = nodes;
  copy = malloc(4096);
  for (int it = 0; it < 20000; it++) {
    const fo__buf *src = it % 3 == 0 ? &req : &resp;
    size_t words = (size_t)src->n, len;
    memcpy(copy, src->w, words * 8);
    /* flip a few words or cut the message */
    for (int k = 0; k < 1 + (int)(fot_rand(&st) % 3); k++) {
      size_t at = (size_t)(fot_rand(&st) % words);
      switch (fot_rand(&st) % 4) {
      case 0: copy[at] = (int64_t)fot_rand(&st); break;
      case 1: copy[at] = -1; break;
      case 2: copy[at] ^= 1; break;
      default: copy[at] = INT64_MAX; break;
      }
    }
    len = fot_rand(&st) % 4 == 0 ? (size_t)(fot_rand(&st) % (words * 8 + 1)) : words * 8;
    if (src == &req) {
      fo__hop_req d;
      (void)fo__dec_hop_req(copy, len, 2708, 3, &d);
      (void)fo__server_answer(&sv, copy, len);
    } else {
      (void)fo__dec_hop_res(copy, len, 2708, 10556, &hr);
    }
  }
  /* and the untouched messages still decode */
  {
    fo__hop_req d;
    assert_fo_ok(fo__dec_hop_req(req.w, (size_t)req.n * 8, 2708, 3, &d));
    assert_int_equal(d.n, 5);
    assert_fo_ok(fo__dec_hop_res(resp.w, (size_t)resp.n * 8, 2708, 10556, &hr));
    assert_int_equal(hr.n_edges, 4);
    assert_fo_error(fo__dec_hop_res(resp.w, (size_t)resp.n * 8 - 8, 2708, 10556, &hr), FO_EFORMAT,
                    "malformed");
    assert_fo_error(fo__dec_hop_res(resp.w, (size_t)resp.n * 8, 2708, 3, &hr), FO_EFORMAT,
                    "edge id");
  }
  free(copy);
  fo__buf_free(&req);
  fo__buf_free(&resp);
  fo__server_fini(&sv);
}

/* fo_dataset_node_part on a dataset opened with one part (as a rank opens it): the owner of any
 * node of the open part and its row, and FO_EINVAL (not a crash) for another part's node (under
 * an array book its row is in the closed part's rank directory). */
static void node_part_one_part_open(void **state) {
  fo_dataset_opts o;
  fo_dataset_t *d1 = NULL;
  bool seen[2] = {false, false};
  (void)state;
  fo_dataset_opts_init(&o);
  o.part = 0;
  assert_fo_ok(fo_dataset_open(fo_dataset_path(G.parts[0]), &o, &d1)); /* hash: array book */
  for (int64_t v = 0; v < fo_dataset_num_nodes(d1); v++) {
    int k, k1;
    int64_t r, r1;
    assert_fo_ok(fo_dataset_node_part(G.parts[0], v, &k, &r));
    if (k == 0) {
      assert_fo_ok(fo_dataset_node_part(d1, v, &k1, &r1));
      assert_int_equal(r1, r);
      seen[0] = true;
    } else {
      assert_fo_error(fo_dataset_node_part(d1, v, &k1, &r1), FO_EINVAL, "which is not open");
      seen[1] = true;
      k1 = k;
    }
    assert_int_equal(k1, k);
  }
  assert_true(seen[0] && seen[1]);
  fo_dataset_close(d1);
}

/* One part holding the whole graph (fo__sole_part, the one-machine `--dist` run), under an
 * array book (hash) and a range book (range): the distributed sampler and loader (features and
 * labels: the gather reading row v directly) and the in-process loader equal the plain dataset;
 * several parts are not "sole"; a node id out of range in the gather is refused by name. */
static void one_part_whole_graph(void **state) {
  const char *methods[2] = {"hash", "range"};
  fo_loader_opts o;
  (void)state;
  fo_loader_opts_init(&o);
  o.sampler.fanouts = (const int32_t[]){5, 5};
  o.sampler.n_hops = 2;
  o.batch_size = 16;
  o.split = "train";
  o.shuffle = true;
  o.sampler.seed = 11;
  o.num_workers = 2;
  for (int m = 0; m < 3; m++) assert_false(fo__sole_part(G.parts[m]));
  for (int m = 0; m < 2; m++) {
    fo_partition_opts po;
    fo_dataset_t *d1 = NULL;
    fo_dist_t *dd;
    fo_loader_t *L;
    fo_loader_batch_t *bt;
    uint64_t want = plain_digest(&o), d[64];
    int64_t nb = 0;
    char name[32], *out;
    snprintf(name, sizeof name, "one-%s", methods[m]);
    out = fot_path(G.tmp, name);
    fo_partition_opts_init(&po);
    po.n_parts = 1;
    assert_fo_ok(fo_partition_method_parse(methods[m], &po.method));
    assert_fo_ok(fo_partition(fo_dataset_path(G.plain), out, &po, NULL));
    assert_fo_ok(fo_dataset_open(out, NULL, &d1));
    free(out);
    assert_true(fo__sole_part(d1));
    assert_int_equal(d1->book_kind, m == 0 ? FO_BOOK_ARRAY : FO_BOOK_RANGE);
    /* the in-process loader over the one part */
    assert_fo_ok(fo_loader_create(d1, &o, &L));
    while (fo_loader_next(L, &bt) == FO_OK && bt) {
      assert_non_null(bt->x);
      d[nb++] = fo_loader_batch_digest(bt);
      fo_loader_release(L, bt);
    }
    fo_loader_destroy(L);
    assert_int_equal(nb, 9);
    assert_true(fo_digest_sequence(d, nb) == want);
    /* the distributed loader, one machine */
    nb = 0;
    assert_fo_ok(fo_dist_init_local(d1, 0, NULL, &dd));
    assert_fo_ok(fo_dist_loader_create(dd, d1, &o, FO_DIST_TAIL_KEEP, &L));
    while (fo_loader_next(L, &bt) == FO_OK && bt) {
      assert_non_null(bt->x);
      assert_non_null(bt->y);
      d[nb++] = fo_loader_batch_digest(bt);
      fo_loader_release(L, bt);
    }
    fo_loader_destroy(L);
    assert_int_equal(nb, 9);
    assert_true(fo_digest_sequence(d, nb) == want);
    { /* the distributed sampler, and the gather refusing a node id out of range */
      fo_sampler_t *ps, *ds;
      fo_batch_t *pb, *db;
      fo_features f;
      int64_t seeds[3] = {0, 1000, 2707}, rb;
      unsigned char *x;
      assert_fo_ok(fo_sampler_create(G.plain, &o.sampler, &ps));
      assert_fo_ok(fo_dist_sampler_create(dd, d1, &o.sampler, &ds));
      assert_fo_ok(fo_batch_create(&pb));
      assert_fo_ok(fo_batch_create(&db));
      assert_fo_ok(fo_sampler_sample(ps, seeds, 3, 0, 5, pb));
      assert_fo_ok(fo_sampler_sample(ds, seeds, 3, 0, 5, db));
      same_batch(pb, db);
      assert_fo_ok(fo_dataset_features(d1->parts[0], &f));
      rb = f.dim * f.itemsize;
      x = malloc((size_t)(db->n_nodes * rb));
      assert_non_null(x);
      assert_fo_ok(fo__dist_gather_batch(dd, d1, db, (unsigned char *const[]){x}, &rb));
      assert_memory_equal(x + rb, (const unsigned char *)f.data + db->node[1] * rb, (size_t)rb);
      db->node[1] = 2708;
      assert_fo_error(fo__dist_gather_batch(dd, d1, db, (unsigned char *const[]){x}, &rb), FO_EFORMAT,
                      "distributed gather: node 2708 is not a node id in [0, 2708)");
      free(x);
      fo_batch_destroy(pb);
      fo_batch_destroy(db);
      fo_sampler_destroy(ps);
      fo_sampler_destroy(ds);
    }
    assert_fo_ok(fo_dist_finalize(dd));
    fo_dataset_close(d1);
  }
}

/* dist_hop's check of every answer edge (two unsigned compares, one branch): a remote hook
 * answering a neighbor or edge id out of range, negative or at the bound, is FO_EFORMAT naming
 * the part and the edge; an answer in range is taken as sent. */
typedef struct fake_remote {
  int64_t nbr, eid, counts[64], nbrs[64], eids[64];
} fake_remote;

static int fake_hop(void *ctx, const fo__hop_req *reqs, int n, fo__hop_res *res) {
  fake_remote *f = ctx;
  for (int i = 0; i < n; i++) {
    assert_true(reqs[i].n <= 64);
    for (int64_t j = 0; j < reqs[i].n; j++) {
      f->counts[j] = 1;
      f->nbrs[j] = f->nbr;
      f->eids[j] = f->eid;
    }
    res[i].n = res[i].n_edges = reqs[i].n;
    res[i].counts = f->counts;
    res[i].nbr = f->nbrs;
    res[i].eid = f->eids;
  }
  return FO_OK;
}

static void dist_hop_checks_answers(void **state) {
  const int64_t N = fo_dataset_num_nodes(G.plain), M = fo_dataset_num_edges(G.plain);
  const int64_t bad[4][2] = {{-1, 0}, {N, 0}, {0, -1}, {0, M}};
  fo_sampler_opts so;
  int32_t fan[1] = {2};
  int64_t seed = -1;
  (void)state;
  for (int64_t v = 0; v < N && seed < 0; v++) {
    int k;
    int64_t r;
    assert_fo_ok(fo_dataset_node_part(G.parts[0], v, &k, &r));
    if (k == 1) seed = v;
  }
  assert_true(seed >= 0);
  fo_sampler_opts_init(&so);
  so.fanouts = fan;
  so.n_hops = 1;
  for (int c = 0; c < 5; c++) {
    fake_remote f = {0};
    fo__remote r = {&f, fake_hop, NULL};
    fo_sampler_t *s;
    fo_batch_t *b;
    char want[96];
    f.nbr = c < 4 ? bad[c][0] : 5;
    f.eid = c < 4 ? bad[c][1] : 7;
    assert_fo_ok(fo_sampler_create(G.parts[0], &so, &s));
    assert_fo_ok(fo__sampler_set_remote(s, &r, 0));
    assert_fo_ok(fo_batch_create(&b));
    if (c < 4) {
      snprintf(want, sizeof want, "part 1 sent edge (%lld, id %lld) out of range", (long long)f.nbr,
               (long long)f.eid);
      assert_fo_error(fo_sampler_sample(s, &seed, 1, 0, 0, b), FO_EFORMAT, want);
    } else {
      assert_fo_ok(fo_sampler_sample(s, &seed, 1, 0, 0, b));
      assert_int_equal(b->n_edges, 1);
      assert_int_equal(b->node[b->row[0]], 5);
      assert_int_equal(b->edge[0], 7);
    }
    fo_batch_destroy(b);
    fo_sampler_destroy(s);
  }
}

static void errors(void **state) {
  fo_dist_t *dd;
  (void)state;
  assert_fo_error(fo_dist_init_local(G.plain, 0, NULL, &dd), FO_EINVAL, "partitioned");
  assert_null(dd);
  assert_fo_error(fo_dist_init_local(G.parts[0], 3, NULL, &dd), FO_EINVAL, "machine 3");
  {
    fo_dist_opts o;
    fo_dist_opts_init(&o);
    o.deadline_s = 0;
    assert_fo_error(fo_dist_init_local(G.parts[0], 0, &o, &dd), FO_EINVAL, "deadline");
    o.deadline_s = INFINITY;
    assert_fo_error(fo_dist_init_local(G.parts[0], 0, &o, &dd), FO_EINVAL, "finite");
  }
  assert_fo_error(fo_dist_abort(NULL, "x"), FO_EINVAL, "no context");
  { /* fo_dist_abort: the context fails with its message; remote calls and finalize report it */
    fo_sampler_opts so;
    fo_sampler_t *s = NULL;
    fo_batch_t *b = NULL;
    const char *msg = NULL;
    int32_t fan[1] = {-1};
    int64_t seeds[64];
    assert_int_equal(fo_dist_init_local(G.parts[0], 0, NULL, &dd), FO_OK);
    assert_false(fo_dist_failed(dd, &msg));
    assert_int_equal(fo_dist_status(dd), FO_OK);
    assert_int_equal(fo_dist_status(NULL), FO_OK);
    assert_fo_error(fo_dist_abort(dd, "an exception"), FO_ECANCELED,
                    "rank 0 (machine 0, local rank 0) stopped the job: an exception");
    assert_true(fo_dist_failed(dd, &msg));
    assert_non_null(strstr(msg, "stopped the job: an exception"));
    fo_set_error(FO_EIO, "something else");
    assert_fo_error(fo_dist_status(dd), FO_ECANCELED, "stopped the job: an exception");
    assert_fo_error(fo_dist_abort(dd, "twice"), FO_ECANCELED, "stopped the job: an exception");
    fo_sampler_opts_init(&so);
    so.fanouts = fan;
    so.n_hops = 1;
    assert_int_equal(fo_dist_sampler_create(dd, G.parts[0], &so, &s), FO_OK);
    assert_int_equal(fo_batch_create(&b), FO_OK);
    for (int i = 0; i < 64; i++) seeds[i] = i; /* some owned by other parts: a remote call */
    assert_fo_error(fo_sampler_sample(s, seeds, 64, 0, 0, b), FO_ECANCELED, "an exception");
    fo_batch_destroy(b);
    fo_sampler_destroy(s);
    assert_fo_error(fo_dist_finalize(dd), FO_ECANCELED, "an exception");
  }
  { /* fo_dist_abort_status: the failure keeps the status it is given */
    assert_int_equal(fo_dist_init_local(G.parts[0], 0, NULL, &dd), FO_OK);
    assert_fo_error(fo_dist_abort_status(NULL, FO_EFORMAT, "x"), FO_EINVAL, "no context");
    assert_fo_error(fo_dist_abort_status(dd, 0, "x"), FO_EINVAL, "status 0 is not");
    assert_fo_error(fo_dist_abort_status(dd, FO_EINTERNAL - 1, "x"), FO_EINVAL, "not a fanout");
    assert_false(fo_dist_failed(dd, NULL));
    assert_fo_error(fo_dist_abort_status(dd, FO_EFORMAT, "a corrupt part"), FO_EFORMAT,
                    "rank 0 (machine 0, local rank 0) stopped the job: a corrupt part");
    assert_fo_error(fo_dist_status(dd), FO_EFORMAT, "stopped the job: a corrupt part");
    assert_fo_error(fo_dist_abort(dd, "later"), FO_EFORMAT, "a corrupt part");
    assert_fo_error(fo_dist_finalize(dd), FO_EFORMAT, "a corrupt part");
  }
#ifndef FO_WITH_MPI
  {
    int comm = 0;
    assert_fo_error(fo_dist_init_mpi(&comm, NULL, &dd), FO_ENOSYS, "without MPI");
  }
#else
  { /* MPI is not initialized in this process (tests/mpi/ runs the MPI transport) */
    int comm = 0;
    assert_fo_error(fo_dist_init_mpi(&comm, NULL, &dd), FO_EINVAL, "MPI is not initialized");
    assert_null(dd);
  }
#endif
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(sampler_equals_plain), cmocka_unit_test(loaders_equal_plain),
      cmocka_unit_test(tail_modes),           cmocka_unit_test(server_refuses_foreign_nodes),
      cmocka_unit_test(server_refuses_oversize_draws), cmocka_unit_test(mode_requests),
      cmocka_unit_test(link_messages),
      cmocka_unit_test(decoder_fuzz),         cmocka_unit_test(errors),
      cmocka_unit_test(node_part_one_part_open), cmocka_unit_test(one_part_whole_graph),
      cmocka_unit_test(dist_hop_checks_answers),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
