/*
 * ABLP (include/fanout/ablp.h) and labels-only edge types (dataset.h, format_version 3):
 * y_positive / y_negative / random negatives exact on a tiny graph; on DBLP with a held-out
 * tenth of paper-author edges as supervision, exhaustively over every author: no label edge is
 * a sampled edge, and every ABLP batch equals the node sampler's batch of the same seeds on the
 * dataset imported without the supervision edges; strict random negatives; determinism across
 * threads; the loader; and every error of the importer, the manifest reader and the sampler.
 */
#include "support.h"

#include "fanout/ablp.h"
#include "fanout/dist.h"
#include "fanout/import.h"
#include "fanout/link.h"

#include <jansson.h>
#include <pthread.h>
#include <sys/stat.h>

/* ---- the tiny graph ------------------------------------------------------------------------ */

/* users 0..2, items 0..2; buys: 0-0 0-1 1-1 2-2; likes (positive): 0-2 1-0 0-1(dup-free);
 * dislikes (negative): 0-1 2-0. */
typedef struct tiny {
  char *tmp, *dir;
  fo_dataset_t *d;
} tiny;

static void tiny_open(tiny *t, bool negatives, bool reverse) {
  char *buys, *pos, *neg;
  fo_import_edge_type et[1];
  fo_import_label_edges le[2];
  fo_import_opts o;
  t->tmp = fot_tmpdir();
  buys = fot_path(t->tmp, "buys.txt");
  pos = fot_path(t->tmp, "pos.txt");
  neg = fot_path(t->tmp, "neg.txt");
  fot_write_file(buys, "0 0\n0 1\n1 1\n2 2\n");
  fot_write_file(pos, "0 2\n1 0\n");
  fot_write_file(neg, "0 1\n2 0\n");
  et[0] = (fo_import_edge_type){"user", "buys", "item", buys};
  le[0] = (fo_import_label_edges){"user__likes__item", pos, false};
  le[1] = (fo_import_label_edges){"user__dislikes__item", neg, true};
  fo_import_opts_init(&o);
  o.edge_types = et;
  o.n_edge_types = 1;
  o.label_edges = le;
  o.n_label_edges = negatives ? 2 : 1;
  o.reverse_edges = reverse;
  t->dir = fot_path(t->tmp, "ds");
  assert_fo_ok(fo_import(NULL, 0, t->dir, &o, NULL));
  assert_fo_ok(fo_dataset_open(t->dir, NULL, &t->d));
  free(buys);
  free(pos);
  free(neg);
}

static void tiny_close(tiny *t) {
  fo_dataset_close(t->d);
  fot_rmtree(t->tmp);
  free(t->dir);
}

static void labels_only_types(void **state) {
  tiny t;
  fo_edge_type ty;
  char *man;
  size_t mlen;
  (void)state;
  tiny_open(&t, true, true);
  /* traversed: buys and rev_buys; labels only: likes, dislikes, in their own table */
  assert_int_equal(fo_dataset_num_edge_types(t.d), 2);
  assert_int_equal(fo_dataset_num_label_edge_types(t.d), 2);
  assert_int_equal(fo_dataset_num_edges(t.d), 8);
  assert_int_equal(fo_dataset_edge_type_find(t.d, "likes"), -1);
  assert_int_equal(fo_dataset_edge_type_find(t.d, "user__likes__item"), -1);
  assert_int_equal(fo_dataset_label_edge_type_find(t.d, "likes"), 0);
  assert_int_equal(fo_dataset_label_edge_type_find(t.d, "user__dislikes__item"), 1);
  assert_fo_ok(fo_dataset_label_edge_type(t.d, 0, &ty));
  assert_string_equal(ty.name, "user__likes__item");
  assert_int_equal(ty.label, FO_LABEL_POSITIVE);
  assert_int_equal(ty.n_edges, 2);
  assert_fo_ok(fo_dataset_label_edge_type(t.d, 1, &ty));
  assert_int_equal(ty.label, FO_LABEL_NEGATIVE);
  assert_fo_ok(fo_dataset_edge_type(t.d, 1, &ty));
  assert_string_equal(ty.name, "item__rev_buys__user");
  assert_int_equal(ty.label, 0);
  assert_fo_error(fo_dataset_label_edge_type(t.d, 2, &ty), FO_ERANGE, "labels-only edge type 2");
  assert_fo_ok(fo_dataset_verify(t.d));
  /* version 3, flagged types */
  {
    char *p = fot_path(t.dir, "fanout.json");
    man = fot_read_file(p, &mlen);
    free(p);
  }
  assert_non_null(strstr(man, "\"format_version\": 3"));
  assert_non_null(strstr(man, "\"labels_only\": true"));
  assert_non_null(strstr(man, "\"label\": \"negative\""));
  free(man);
  tiny_close(&t);
}

/* A version-2 manifest with a labels_only type would be traversed by a version-2 reader: it
 * is refused; version 3 without any labels-only type opens; bad flags are errors. */
static void manifest_versions(void **state) {
  tiny t;
  char *p, *man, *bad, *at;
  size_t mlen;
  fo_dataset_t *d;
  (void)state;
  tiny_open(&t, true, false);
  p = fot_path(t.dir, "fanout.json");
  man = fot_read_file(p, &mlen);
  bad = strdup(man);
  at = strstr(bad, "\"format_version\": 3");
  at[18] = '2';
  fot_write_file(p, bad);
  assert_fo_error(fo_dataset_open(t.dir, NULL, &d), FO_EFORMAT,
                  "is labels_only in a format_version 2 manifest");
  assert_null(d);
  free(bad);
  bad = strdup(man);
  at = strstr(bad, "\"label\": \"negative\"");
  memcpy(at, "\"label\": \"maybe!!!\"", 19);
  fot_write_file(p, bad);
  assert_fo_error(fo_dataset_open(t.dir, NULL, &d), FO_EFORMAT, "is not \"positive\" or \"negative\"");
  free(bad);
  bad = strdup(man);
  at = strstr(bad, "\"format_version\": 3");
  at[18] = '4';
  fot_write_file(p, bad);
  assert_fo_error(fo_dataset_open(t.dir, NULL, &d), FO_EFORMAT, "unsupported format_version 4");
  free(bad);
  fot_write_file(p, man);
  assert_fo_ok(fo_dataset_open(t.dir, NULL, &d));
  fo_dataset_close(d);
  free(man);
  free(p);
  tiny_close(&t);
}

static void tiny_exact(void **state) {
  tiny t;
  fo_ablp_opts o;
  fo_ablp_sampler_t *s;
  fo_ablp_batch_t *b;
  const fo_batch_t *U, *I;
  int32_t f[1] = {0};
  int64_t anchors[3] = {0, 1, 0};
  (void)state;
  tiny_open(&t, true, true);
  fo_ablp_opts_init(&o);
  o.sampler.fanouts = f;
  o.sampler.n_hops = 1;
  assert_fo_ok(fo_ablp_sampler_create(t.d, &o, &s));
  assert_int_equal(fo_ablp_sampler_positive_type(s), 0);
  assert_int_equal(fo_ablp_sampler_negative_type(s), 1); /* the only negative type, by default */
  assert_fo_ok(fo_ablp_batch_create(&b));
  assert_fo_ok(fo_ablp_sampler_sample(s, anchors, 3, 0, 0, b));
  U = fo_batch_node_type(b->sample, b->anchor_type);
  I = fo_batch_node_type(b->sample, b->label_type);
  /* seeds: users 0, 1 (anchors, deduplicated); items 2, 0 (positives), 1 (hard negative) */
  assert_int_equal(U->n_seeds, 2);
  assert_int_equal(U->node[0], 0);
  assert_int_equal(U->node[1], 1);
  assert_int_equal(I->n_seeds, 3);
  assert_int_equal(I->node[0], 2);
  assert_int_equal(I->node[1], 0);
  assert_int_equal(I->node[2], 1);
  assert_int_equal(b->n_anchors, 3);
  assert_int_equal(b->n_distinct, 2);
  assert_int_equal(b->anchor_index[0], 0);
  assert_int_equal(b->anchor_index[1], 1);
  assert_int_equal(b->anchor_index[2], 0);
  assert_int_equal(b->n_pos, 2);
  {
    const int64_t want[4] = {0, 1, 0, 1}; /* (user 0, item 2), (user 1, item 0) */
    assert_memory_equal(b->y_positive, want, sizeof want);
  }
  assert_int_equal(b->n_neg, 1);
  assert_int_equal(b->y_negative[0], 0);
  assert_int_equal(b->y_negative[1], 2); /* (user 0, item 1); user 2's is not in the batch */
  assert_int_equal(b->k, 0);
  /* fanout 0: no sampled edges at all, of any type */
  assert_int_equal(b->sample->n_edges, 0);
  assert_int_equal(b->sample->n_edge_types, 2);
  /* without hard negatives */
  fo_ablp_sampler_destroy(s);
  o.no_hard_negatives = true;
  assert_fo_ok(fo_ablp_sampler_create(t.d, &o, &s));
  assert_int_equal(fo_ablp_sampler_negative_type(s), -1);
  assert_fo_ok(fo_ablp_sampler_sample(s, anchors, 3, 0, 0, b));
  assert_int_equal(b->n_neg, 0);
  assert_int_equal(fo_batch_node_type(b->sample, b->label_type)->n_seeds, 2);
  fo_ablp_sampler_destroy(s);
  /* an empty batch */
  o.no_hard_negatives = false;
  assert_fo_ok(fo_ablp_sampler_create(t.d, &o, &s));
  assert_fo_ok(fo_ablp_sampler_sample(s, NULL, 0, 0, 0, b));
  assert_int_equal(b->n_pos + b->n_neg + b->n_anchors + b->sample->n_nodes, 0);
  fo_ablp_sampler_destroy(s);
  fo_ablp_batch_destroy(b);
  tiny_close(&t);
}

/* Strict random negatives are never positives; user 0 likes 2 of 3 items, so every random
 * negative of user 0 is item 0 or 1, and with all 3 items liked there is none (-1). */
static void random_negatives(void **state) {
  tiny t;
  char *pos, *buys, *dir2;
  fo_ablp_opts o;
  fo_ablp_sampler_t *s;
  fo_ablp_batch_t *b;
  int32_t f[1] = {1};
  int64_t anchors[3] = {0, 1, 2}, count[3][3] = {{0}};
  (void)state;
  tiny_open(&t, false, false);
  fo_ablp_opts_init(&o);
  o.sampler.fanouts = f;
  o.sampler.n_hops = 1;
  o.num_random_negatives = 50;
  assert_fo_ok(fo_ablp_sampler_create(t.d, &o, &s));
  assert_fo_ok(fo_ablp_batch_create(&b));
  for (uint64_t bi = 0; bi < 40; bi++) {
    const fo_batch_t *I;
    assert_fo_ok(fo_ablp_sampler_sample(s, anchors, 3, 0, bi, b));
    I = fo_batch_node_type(b->sample, b->label_type);
    assert_int_equal(b->k, 50);
    assert_int_equal(b->n_random_missing, 0);
    for (int i = 0; i < 3; i++)
      for (int q = 0; q < 50; q++) {
        const int64_t l = b->random_negative[i * 50 + q];
        assert_true(l >= 0 && l < I->n_seeds);
        count[i][I->node[l]]++;
      }
  }
  /* user 0 likes item 2, user 1 item 0, user 2 nothing */
  assert_int_equal(count[0][2], 0);
  assert_int_equal(count[1][0], 0);
  for (int v = 0; v < 3; v++) assert_true(count[2][v] > 500); /* uniform over 3: 666 expected */
  assert_true(count[0][0] > 850 && count[0][1] > 850);     /* 1000 each expected */
  fo_ablp_sampler_destroy(s);
  /* non-strict: positives may be drawn */
  o.strict = false;
  assert_fo_ok(fo_ablp_sampler_create(t.d, &o, &s));
  assert_fo_ok(fo_ablp_sampler_sample(s, anchors, 1, 0, 0, b));
  {
    const fo_batch_t *I = fo_batch_node_type(b->sample, b->label_type);
    int64_t hits = 0;
    for (int q = 0; q < 50; q++) hits += I->node[b->random_negative[q]] == 2;
    assert_true(hits > 0);
  }
  fo_ablp_sampler_destroy(s);
  tiny_close(&t);
  /* an anchor adjacent to every item in its positives: no strict negative */
  t.tmp = fot_tmpdir();
  buys = fot_path(t.tmp, "buys.txt");
  pos = fot_path(t.tmp, "pos.txt");
  fot_write_file(buys, "0 0\n1 2\n");
  fot_write_file(pos, "0 0\n0 1\n0 2\n1 1\n");
  {
    fo_import_edge_type et[1] = {{"user", "buys", "item", buys}};
    fo_import_label_edges le[1] = {{"user__likes__item", pos, false}};
    fo_import_opts io;
    fo_import_opts_init(&io);
    io.edge_types = et;
    io.n_edge_types = 1;
    io.label_edges = le;
    io.n_label_edges = 1;
    dir2 = fot_path(t.tmp, "ds");
    assert_fo_ok(fo_import(NULL, 0, dir2, &io, NULL));
    assert_fo_ok(fo_dataset_open(dir2, NULL, &t.d));
    t.dir = dir2;
  }
  o.strict = true;
  o.num_random_negatives = 4;
  assert_fo_ok(fo_ablp_sampler_create(t.d, &o, &s));
  assert_fo_ok(fo_ablp_sampler_sample(s, anchors, 2, 0, 0, b));
  for (int q = 0; q < 4; q++) assert_int_equal(b->random_negative[q], -1);
  for (int q = 0; q < 4; q++) {
    const fo_batch_t *I = fo_batch_node_type(b->sample, b->label_type);
    assert_true(b->random_negative[4 + q] >= 0);
    assert_int_not_equal(I->node[b->random_negative[4 + q]], 1);
  }
  assert_int_equal(b->n_random_missing, 4);
  fo_ablp_sampler_destroy(s);
  fo_ablp_batch_destroy(b);
  free(buys);
  free(pos);
  tiny_close(&t);
}

/* Anchors and label nodes of one node type: one seed list (anchors first), and a strict random
 * negative is neither a positive nor the anchor itself. */
static void same_type(void **state) {
  char *tmp = fot_tmpdir(), *knows = fot_path(tmp, "knows.txt"), *fr = fot_path(tmp, "fr.txt");
  char *dir = fot_path(tmp, "ds");
  fo_import_edge_type et[1] = {{"p", "knows", "p", knows}};
  fo_import_label_edges le[1] = {{"p__friend__p", fr, false}};
  fo_import_opts io;
  fo_dataset_t *d;
  fo_ablp_opts o;
  fo_ablp_sampler_t *s;
  fo_ablp_batch_t *b;
  int32_t f[1] = {0};
  int64_t anchors[2] = {0, 1};
  (void)state;
  fot_write_file(knows, "0 1\n1 2\n2 3\n");
  fot_write_file(fr, "0 3\n1 0\n1 2\n1 3\n"); /* p1's positives and itself cover all 4 */
  fo_import_opts_init(&io);
  io.edge_types = et;
  io.n_edge_types = 1;
  io.label_edges = le;
  io.n_label_edges = 1;
  assert_fo_ok(fo_import(NULL, 0, dir, &io, NULL));
  assert_fo_ok(fo_dataset_open(dir, NULL, &d));
  fo_ablp_opts_init(&o);
  o.sampler.fanouts = f;
  o.sampler.n_hops = 1;
  o.num_random_negatives = 40;
  assert_fo_ok(fo_ablp_sampler_create(d, &o, &s));
  assert_fo_ok(fo_ablp_batch_create(&b));
  assert_fo_ok(fo_ablp_sampler_sample(s, anchors, 2, 0, 0, b));
  {
    const fo_batch_t *P = fo_batch_node_type(b->sample, 0);
    const int64_t want_nodes[4] = {0, 1, 3, 2}, want_y[8] = {0, 1, 1, 1, 2, 0, 3, 2};
    assert_int_equal(P->n_seeds, 4);
    assert_memory_equal(P->node, want_nodes, sizeof want_nodes);
    assert_int_equal(b->n_pos, 4);
    assert_memory_equal(b->y_positive, want_y, sizeof want_y);
    for (int q = 0; q < 40; q++) {
      const int64_t v = P->node[b->random_negative[q]];
      assert_true(v == 1 || v == 2); /* anchor 0: not itself, not its positive 3 */
      assert_int_equal(b->random_negative[40 + q], -1);
    }
    assert_int_equal(b->n_random_missing, 40);
  }
  fo_ablp_sampler_destroy(s);
  fo_ablp_batch_destroy(b);
  fo_dataset_close(d);
  free(knows);
  free(fr);
  free(dir);
  fot_rmtree(tmp);
}

/* A dataset of the tiny graph with the labels-only types `le` (files written from `text`). */
static fo_dataset_t *labels_ds(const char *tmp, const char *name, fo_import_label_edges *le,
                               const char *const *text, int n) {
  char *buys = fot_path(tmp, "buys.txt"), *dir = fot_path(tmp, name);
  fo_import_edge_type et[1] = {{"user", "buys", "item", buys}};
  char *files[4];
  fo_import_opts o;
  fo_dataset_t *d = NULL;
  fot_write_file(buys, "0 0\n0 1\n1 1\n2 2\n");
  for (int i = 0; i < n; i++) {
    char f[32];
    snprintf(f, sizeof f, "%s-%d.txt", name, i);
    files[i] = fot_path(tmp, f);
    fot_write_file(files[i], text[i]);
    le[i].path = files[i];
  }
  fo_import_opts_init(&o);
  o.edge_types = et;
  o.n_edge_types = 1;
  o.label_edges = le;
  o.n_label_edges = n;
  assert_fo_ok(fo_import(NULL, 0, dir, &o, NULL));
  assert_fo_ok(fo_dataset_open(dir, NULL, &d));
  for (int i = 0; i < n; i++) free(files[i]);
  free(buys);
  free(dir);
  return d;
}

/* Which negative type is read is never silent: several from A to L, or only ones that join
 * other node types, are errors unless one is named or none asked for; a dataset with negatives
 * only has no supervision; no_hard_negatives and a named negative type contradict. */
static void label_type_choice(void **state) {
  char *tmp = fot_tmpdir();
  int32_t f[1] = {2};
  fo_ablp_opts o;
  fo_ablp_sampler_t *s = NULL;
  fo_dataset_t *d;
  (void)state;
  fo_ablp_opts_init(&o);
  o.sampler.fanouts = f;
  o.sampler.n_hops = 1;
  {
    fo_import_label_edges le[1] = {{"user__dislikes__item", NULL, true}};
    const char *text[1] = {"0 1\n"};
    d = labels_ds(tmp, "negonly", le, text, 1);
    assert_fo_error(fo_ablp_sampler_create(d, &o, &s), FO_EINVAL,
                    "has no positive labels-only edge type, only negative ones");
    assert_null(s);
    fo_dataset_close(d);
  }
  {
    fo_import_label_edges le[2] = {{"user__likes__item", NULL, false},
                                   {"item__dislikedby__user", NULL, true}};
    const char *text[2] = {"0 2\n", "1 0\n"};
    d = labels_ds(tmp, "reverse", le, text, 2);
    assert_fo_error(fo_ablp_sampler_create(d, &o, &s), FO_EINVAL,
                    "'item__dislikedby__user' does not join the supervision edge type's node types "
                    "('user' to 'item'), so its hard negatives would go unused");
    o.no_hard_negatives = true;
    assert_fo_ok(fo_ablp_sampler_create(d, &o, &s));
    assert_int_equal(fo_ablp_sampler_negative_type(s), -1);
    fo_ablp_sampler_destroy(s);
    o.negative_edge_type = "dislikedby";
    assert_fo_error(fo_ablp_sampler_create(d, &o, &s), FO_EINVAL,
                    "no hard negatives asked for, but negative edge type 'dislikedby' named");
    o.no_hard_negatives = false;
    assert_fo_error(fo_ablp_sampler_create(d, &o, &s), FO_EINVAL, "does not join the node types");
    o.negative_edge_type = NULL;
    fo_dataset_close(d);
  }
  {
    fo_import_label_edges le[3] = {{"user__likes__item", NULL, false},
                                   {"user__dislikes__item", NULL, true},
                                   {"user__returned__item", NULL, true}};
    const char *text[3] = {"0 2\n", "0 1\n", "2 0\n"};
    d = labels_ds(tmp, "two", le, text, 3);
    assert_fo_error(fo_ablp_sampler_create(d, &o, &s), FO_EINVAL,
                    "has 2 negative labels-only edge types from 'user' to 'item': name the "
                    "negative edge type, or ask for no hard negatives");
    o.negative_edge_type = "returned";
    assert_fo_ok(fo_ablp_sampler_create(d, &o, &s));
    assert_int_equal(fo_ablp_sampler_negative_type(s), fo_dataset_label_edge_type_find(d, "returned"));
    fo_ablp_sampler_destroy(s);
    o.negative_edge_type = NULL;
    fo_dataset_close(d);
  }
  fot_rmtree(tmp);
}

static void errors(void **state) {
  tiny t;
  fo_ablp_opts o;
  fo_ablp_sampler_t *s;
  fo_ablp_batch_t *b;
  int32_t f[1] = {2};
  int64_t bad[2] = {0, 3};
  (void)state;
  tiny_open(&t, true, true);
  fo_ablp_opts_init(&o);
  o.sampler.fanouts = f;
  o.sampler.n_hops = 1;
  o.supervision_edge_type = "buys";
  assert_fo_error(fo_ablp_sampler_create(t.d, &o, &s), FO_EINVAL,
                  "'buys' is an edge type the sampler traverses, not a labels-only");
  assert_null(s);
  o.supervision_edge_type = "nope";
  assert_fo_error(fo_ablp_sampler_create(t.d, &o, &s), FO_EINVAL,
                  "'nope' is not a labels-only edge type");
  o.supervision_edge_type = "dislikes";
  assert_fo_error(fo_ablp_sampler_create(t.d, &o, &s), FO_EINVAL, "holds negative labels, not positive");
  o.supervision_edge_type = "likes";
  o.negative_edge_type = "likes";
  assert_fo_error(fo_ablp_sampler_create(t.d, &o, &s), FO_EINVAL, "holds positive labels, not negative");
  o.negative_edge_type = NULL;
  o.num_random_negatives = -1;
  assert_fo_error(fo_ablp_sampler_create(t.d, &o, &s), FO_EINVAL, "num_random_negatives -1");
  o.num_random_negatives = 0;
  o.sampler.disjoint = true;
  assert_fo_error(fo_ablp_sampler_create(t.d, &o, &s), FO_ENOSYS, "disjoint");
  o.sampler.disjoint = false;
  {
    /* a labels-only type is not a seed edge type of the link sampler, and says so */
    fo_link_opts lo;
    fo_link_sampler_t *ls = NULL;
    fo_link_opts_init(&lo);
    lo.sampler.fanouts = f;
    lo.sampler.n_hops = 1;
    lo.edge_type = "likes";
    assert_fo_error(fo_link_sampler_create(t.d, &lo, &ls), FO_EINVAL,
                    "edge type 'likes' is a labels-only (supervision) edge type of");
    assert_null(ls);
  }
  assert_fo_ok(fo_ablp_sampler_create(t.d, &o, &s));
  assert_fo_ok(fo_ablp_batch_create(&b));
  assert_fo_error(fo_ablp_sampler_sample(s, bad, 2, 0, 0, b), FO_ERANGE,
                  "anchor 3 (index 1) is not a node id of type 'user' in [0, 3)");
  assert_int_equal(b->n_anchors + b->n_pos, 0);
  assert_fo_error(fo_ablp_sampler_sample(s, NULL, 2, 0, 0, b), FO_EINVAL, "anchors are NULL");
  {
    fo_ablp_loader_opts lo;
    fo_ablp_loader_t *L;
    fo_ablp_loader_opts_init(&lo);
    lo.ablp = o;
    lo.input_nodes = bad;
    lo.n_input_nodes = 2;
    assert_fo_error(fo_ablp_loader_create(t.d, &lo, &L), FO_ERANGE,
                    "anchor 3 (input_nodes[1]) is not a node id of type 'user'");
    lo.batch_size = 0;
    assert_fo_error(fo_ablp_loader_create(t.d, &lo, &L), FO_EINVAL, "batch_size 0");
  }
  fo_ablp_sampler_destroy(s);
  fo_ablp_batch_destroy(b);
  tiny_close(&t);
  /* a dataset without supervision types */
  {
    fot_edges e;
    char *dir;
    fo_dataset_t *d;
    fot_cycle(6, &e);
    fot_dataset(&e, true, false, FO_INDEX_AUTO, &dir, &d);
    o.supervision_edge_type = NULL;
    assert_fo_error(fo_ablp_sampler_create(d, &o, &s), FO_EINVAL, "has no labels-only (supervision) edge types");
    fo_dataset_close(d);
    fot_rmtree(dir);
    fot_edges_free(&e);
  }
}

/* Importer errors: code, message naming file/line/value, nothing written. */
/* The last warning logged (empty_label_files). */
static char last_warn[512];
static void keep_warning(fo_log_level level, const char *file, int lineno, const char *line,
                         void *userdata) {
  (void)file;
  (void)lineno;
  (void)userdata;
  if (level == FO_LOG_WARN) snprintf(last_warn, sizeof last_warn, "%s", line);
}

/* An empty supervision file: positives are an error naming the file and type; hard negatives
 * a warning, stored empty (the sampler takes the type, no anchor gets a hard negative). */
static void empty_label_files(void **state) {
  char *tmp = fot_tmpdir(), *buys = fot_path(tmp, "buys.txt"), *pos = fot_path(tmp, "pos.txt");
  char *neg = fot_path(tmp, "neg.txt"), *out = fot_path(tmp, "out");
  fo_import_edge_type et[1] = {{"user", "buys", "item", buys}};
  fo_import_label_edges le[2] = {{"user__likes__item", pos, false},
                                 {"user__dislikes__item", neg, true}};
  const int64_t anchors[2] = {0, 1};
  const int32_t f[1] = {1};
  fo_import_opts o;
  fo_ablp_opts ao;
  fo_ablp_sampler_t *s;
  fo_ablp_batch_t *b;
  fo_dataset_t *d;
  fo_edge_type ty;
  struct stat st;
  (void)state;
  fot_write_file(buys, "0 0\n0 1\n1 1\n2 2\n");
  fot_write_file(pos, "");
  fot_write_file(neg, "0 1\n");
  fo_import_opts_init(&o);
  o.edge_types = et;
  o.n_edge_types = 1;
  o.label_edges = le;
  o.n_label_edges = 2;
  assert_fo_error(fo_import(NULL, 0, out, &o, NULL), FO_EFORMAT,
                  "labels-only (supervision) edge type 'user__likes__item': '");
  assert_non_null(strstr(fo_last_error(), "pos.txt' has no edges: no anchor would have a positive label"));
  assert_int_equal(stat(out, &st), -1); /* nothing written */
  /* comments only count as empty too */
  fot_write_file(pos, "# none\n");
  assert_fo_error(fo_import(NULL, 0, out, &o, NULL), FO_EFORMAT, "pos.txt' has no edges");
  /* empty hard negatives: a warning, the type stored with no edges */
  fot_write_file(pos, "0 2\n1 0\n");
  fot_write_file(neg, "");
  last_warn[0] = '\0';
  fo_log_set_handler(keep_warning, NULL);
  assert_fo_ok(fo_import(NULL, 0, out, &o, NULL));
  fo_log_set_handler(NULL, NULL);
  assert_non_null(strstr(last_warn, "hard-negative (supervision) edge type 'user__dislikes__item': '"));
  assert_non_null(strstr(last_warn, "neg.txt' has no edges: stored empty"));
  assert_fo_ok(fo_dataset_open(out, NULL, &d));
  assert_int_equal(fo_dataset_num_label_edge_types(d), 2);
  assert_fo_ok(fo_dataset_label_edge_type(d, 1, &ty));
  assert_int_equal(ty.n_edges, 0);
  assert_int_equal(ty.label, FO_LABEL_NEGATIVE);
  fo_ablp_opts_init(&ao);
  ao.sampler.fanouts = f;
  ao.sampler.n_hops = 1;
  assert_fo_ok(fo_ablp_sampler_create(d, &ao, &s));
  assert_int_equal(fo_ablp_sampler_negative_type(s), 1);
  assert_fo_ok(fo_ablp_batch_create(&b));
  assert_fo_ok(fo_ablp_sampler_sample(s, anchors, 2, 0, 0, b));
  assert_int_equal(b->n_pos, 2);
  assert_int_equal(b->n_neg, 0);
  fo_ablp_batch_destroy(b);
  fo_ablp_sampler_destroy(s);
  fo_dataset_close(d);
  free(buys);
  free(pos);
  free(neg);
  free(out);
  fot_rmtree(tmp);
}

static void import_errors(void **state) {
  char *tmp = fot_tmpdir(), *buys = fot_path(tmp, "buys.txt"), *pos = fot_path(tmp, "pos.txt");
  char *out = fot_path(tmp, "out"), *typed = fot_path(tmp, "typed.txt");
  fo_import_edge_type et[1] = {{"user", "buys", "item", buys}};
  fo_import_label_edges le[1] = {{"user__likes__item", pos, false}};
  fo_import_opts o;
  struct stat st;
  (void)state;
  fot_write_file(buys, "0 0\n0 1\n1 1\n2 2\n");
  fo_import_opts_init(&o);
  o.edge_types = et;
  o.n_edge_types = 1;
  o.label_edges = le;
  o.n_label_edges = 1;
  fot_write_file(pos, "0 2\n1 3\n");
  assert_fo_error(fo_import(NULL, 0, out, &o, NULL), FO_ERANGE,
                  "pos.txt:2: node id 3 is not a node of type 'item' (the graph has 3");
  fot_write_file(pos, "0 2\n-1 0\n");
  assert_fo_error(fo_import(NULL, 0, out, &o, NULL), FO_ERANGE, "pos.txt:2: node id -1 of type 'user' is negative");
  fot_write_file(pos, "0 2\nx 0\n");
  assert_fo_error(fo_import(NULL, 0, out, &o, NULL), FO_EFORMAT, "pos.txt:2");
  fot_write_file(pos, "0 2\n");
  le[0].edge_type = "user__likes__shop";
  assert_fo_error(fo_import(NULL, 0, out, &o, NULL), FO_EINVAL,
                  "--supervision-edges user__likes__shop=");
  assert_fo_error(fo_import(NULL, 0, out, &o, NULL), FO_EINVAL, "node type 'shop' is not a node type");
  le[0].edge_type = "user__buys__item";
  assert_fo_error(fo_import(NULL, 0, out, &o, NULL), FO_EINVAL, "edge type 'user__buys__item' is given already");
  le[0].edge_type = "user_likes_item";
  assert_fo_error(fo_import(NULL, 0, out, &o, NULL), FO_EINVAL, "is not SRC__REL__DST");
  le[0].edge_type = "user__likes__item";
  le[0].path = typed;
  assert_fo_error(fo_import(NULL, 0, out, &o, NULL), FO_EIO, "typed.txt");
  le[0].path = pos;
  /* string ids: an id in no graph edge */
  o.string_ids = true;
  fot_write_file(pos, "0 2\n1 zz\n");
  assert_fo_error(fo_import(NULL, 0, out, &o, NULL), FO_ERANGE,
                  "pos.txt:2: node id 'zz' is not a node of type 'item'");
  o.string_ids = false;
  assert_int_equal(stat(out, &st), -1); /* nothing written */
  /* untyped import */
  {
    fo_import_opts u;
    const char *in[1] = {buys};
    fo_import_opts_init(&u);
    u.label_edges = le;
    u.n_label_edges = 1;
    assert_fo_error(fo_import(in, 1, out, &u, NULL), FO_EINVAL, "--supervision-edges: supervision "
                    "edge types need a typed import");
  }
  /* the per-type form: --labels-only marks an --edge-type as supervision (ids never add nodes) */
  {
    fo_import_edge_type two[2] = {{"user", "buys", "item", buys}, {"user", "likes", "item", pos}};
    fo_import_opts u = o;
    fo_dataset_t *d;
    u.edge_types = two;
    u.n_edge_types = 2;
    u.n_label_edges = 0;
    u.labels_only = "likes";
    fot_write_file(pos, "0 2\n2 7\n");
    assert_fo_error(fo_import(NULL, 0, out, &u, NULL), FO_ERANGE,
                    "pos.txt:2: node id 7 is not a node of type 'item'");
    fot_write_file(pos, "0 2\n2 1\n");
    assert_fo_ok(fo_import(NULL, 0, out, &u, NULL));
    assert_fo_ok(fo_dataset_open(out, NULL, &d));
    assert_int_equal(fo_dataset_num_edge_types(d), 1);
    assert_int_equal(fo_dataset_num_label_edge_types(d), 1);
    assert_int_equal(fo_dataset_label_edge_type_find(d, "user__likes__item"), 0);
    fo_dataset_close(d);
    fot_rmtree(strdup(out));
  }
  /* the one-file form: --labels-only marks a relation; every type labels-only is an error */
  fot_write_file(typed, "u0 buys i0\nu0 likes i1\nu1 hates i0\n");
  {
    fo_import_opts u;
    const char *in[1] = {typed};
    fo_dataset_t *d;
    fo_edge_type ty;
    fo_import_opts_init(&u);
    u.edge_type_column = 1;
    u.src_column = 0;
    u.dst_column = 2;
    u.string_ids = true;
    u.default_node_type = "x";
    u.labels_only = "likes,buys,hates";
    assert_fo_error(fo_import(in, 1, out, &u, NULL), FO_EINVAL, "every edge type is labels-only");
    u.labels_only = "likes";
    u.negative_labels = "likes";
    assert_fo_error(fo_import(in, 1, out, &u, NULL), FO_EINVAL,
                    "relation 'likes' is in both --labels-only and --negative-labels");
    u.negative_labels = "hates";
    assert_fo_ok(fo_import(in, 1, out, &u, NULL));
    assert_fo_ok(fo_dataset_open(out, NULL, &d));
    assert_int_equal(fo_dataset_num_edge_types(d), 1);
    assert_int_equal(fo_dataset_num_label_edge_types(d), 2);
    assert_fo_ok(fo_dataset_label_edge_type(d, 1, &ty));
    assert_string_equal(ty.name, "x__hates__x");
    assert_int_equal(ty.label, FO_LABEL_NEGATIVE);
    assert_fo_ok(fo_dataset_verify(d));
    fo_dataset_close(d);
  }
  free(buys);
  free(pos);
  free(out);
  free(typed);
  fot_rmtree(tmp);
}

/* ---- DBLP: a held-out tenth of paper-author edges as supervision -------------------------- */

typedef struct dblp_fx {
  bool negatives; /* set before dblp_open: every 10th line at offset 7 also as hard negatives */
  char *tmp;
  fo_dataset_t *with, *without;
  int64_t *hs, *hd, n_held; /* held-out (author, paper) pairs, sorted */
} dblp_fx;

static int cmp_pair(const void *a, const void *b) {
  const int64_t *x = a, *y = b;
  if (x[0] != y[0]) return (x[0] > y[0]) - (x[0] < y[0]);
  return (x[1] > y[1]) - (x[1] < y[1]);
}

/* Writes graph.tsv (9 of 10 paper-author lines), held.tsv (author paper, every 10th) from the
 * shared DBLP, and imports with and without the held-out lines as supervision. false: skip. */
static bool dblp_open(dblp_fx *fx) {
  const char *sd = fot_shared_data_dir();
  char *pa, *cmd, *graph, *held, *pt, *dw, *dwo, *negf;
  size_t len;
  char *text, *line, *save = NULL;
  FILE *gf, *hf, *nf;
  int64_t cap = 4096, i = 0;
  if (!sd) return false;
  pa = fot_path(sd, "dblp-hetero/dblp_paper_author.tsv.gz");
  pt = fot_path(sd, "dblp-hetero/dblp_paper_term.tsv.gz");
  if (!(gf = fopen(pa, "rb"))) {
    free(pa);
    free(pt);
    return false;
  }
  fclose(gf);
  fx->tmp = fot_tmpdir();
  graph = fot_path(fx->tmp, "graph.tsv");
  held = fot_path(fx->tmp, "held.tsv");
  len = strlen(pa) + strlen(fx->tmp) + 64;
  cmd = malloc(len);
  snprintf(cmd, len, "gzip -dc '%s' > '%s/all.tsv'", pa, fx->tmp);
  assert_int_equal(system(cmd), 0);
  free(cmd);
  {
    char *all = fot_path(fx->tmp, "all.tsv");
    text = fot_read_file(all, &len);
    free(all);
  }
  negf = fot_path(fx->tmp, "neg.tsv");
  gf = fopen(graph, "w");
  hf = fopen(held, "w");
  nf = fopen(negf, "w");
  fx->hs = malloc((size_t)cap * 2 * sizeof *fx->hs);
  for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save), i++) {
    long long p, a;
    if (line[0] == '#' || sscanf(line, "%lld %lld", &p, &a) != 2) continue;
    if (i % 10 == 3) {
      fprintf(hf, "%lld\t%lld\n", a, p);
      if (fx->n_held == cap) fx->hs = realloc(fx->hs, (size_t)(cap *= 2) * 2 * sizeof *fx->hs);
      fx->hs[2 * fx->n_held] = a;
      fx->hs[2 * fx->n_held++ + 1] = p;
    } else {
      fprintf(gf, "%lld\t%lld\n", p, a);
      if (i % 10 == 7) fprintf(nf, "%lld\t%lld\n", a, p);
    }
  }
  fclose(gf);
  fclose(hf);
  fclose(nf);
  free(text);
  qsort(fx->hs, (size_t)fx->n_held, 2 * sizeof *fx->hs, cmp_pair);
  {
    fo_import_edge_type et[2] = {{"paper", "writes", "author", graph}, {"paper", "has_term", "term", pt}};
    fo_import_node_type nt[3] = {{"paper", 14328, NULL, NULL, NULL, NULL},
                                 {"author", 4057, NULL, NULL, NULL, NULL},
                                 {"term", 7723, NULL, NULL, NULL, NULL}};
    fo_import_label_edges le[2] = {{"author__writes_label__paper", held, false},
                                   {"author__not_writes__paper", negf, true}};
    fo_import_opts o;
    fo_import_opts_init(&o);
    o.edge_types = et;
    o.n_edge_types = 2;
    o.node_type_opts = nt;
    o.n_node_type_opts = 3;
    o.reverse_edges = true;
    dw = fot_path(fx->tmp, "with");
    dwo = fot_path(fx->tmp, "without");
    assert_fo_ok(fo_import(NULL, 0, dwo, &o, NULL));
    o.label_edges = le;
    o.n_label_edges = fx->negatives ? 2 : 1;
    assert_fo_ok(fo_import(NULL, 0, dw, &o, NULL));
    assert_fo_ok(fo_dataset_open(dw, NULL, &fx->with));
    assert_fo_ok(fo_dataset_open(dwo, NULL, &fx->without));
  }
  free(pa);
  free(pt);
  free(graph);
  free(held);
  free(negf);
  free(dw);
  free(dwo);
  return true;
}

static void dblp_close(dblp_fx *fx) {
  fo_dataset_close(fx->with);
  fo_dataset_close(fx->without);
  free(fx->hs);
  fot_rmtree(fx->tmp);
}

/* Every author as an anchor, 2 hops of all neighbors: no held-out (label) pair is a sampled
 * edge of writes or rev_writes, every batch equals the node sampler's on the dataset without
 * supervision edges for the same seeds, and y_positive is exactly each anchor's held pairs. */
static void dblp_never_traversed(void **state) {
  dblp_fx fx = {0};
  fo_ablp_opts o;
  fo_ablp_sampler_t *s;
  fo_sampler_t *ref;
  fo_ablp_batch_t *b;
  fo_batch_t *rb;
  int32_t f[2] = {-1, -1};
  int64_t anchors[512], total_pos = 0, total_edges = 0;
  int32_t w, rw;
  (void)state;
  if (!dblp_open(&fx)) skip();
  w = fo_dataset_edge_type_find(fx.with, "paper__writes__author");
  rw = fo_dataset_edge_type_find(fx.with, "author__rev_writes__paper");
  assert_true(w >= 0 && rw >= 0);
  assert_int_equal(fo_dataset_num_edge_types(fx.with), fo_dataset_num_edge_types(fx.without));
  fo_ablp_opts_init(&o);
  o.sampler.fanouts = f;
  o.sampler.n_hops = 2;
  o.supervision_edge_type = "writes_label";
  assert_fo_ok(fo_ablp_sampler_create(fx.with, &o, &s));
  assert_fo_ok(fo_sampler_create(fx.without, &o.sampler, &ref));
  assert_fo_ok(fo_ablp_batch_create(&b));
  assert_fo_ok(fo_batch_create(&rb));
  for (int64_t a0 = 0; a0 < 4057; a0 += 512) {
    const int64_t n = 4057 - a0 < 512 ? 4057 - a0 : 512;
    const fo_batch_t *A, *P;
    for (int64_t i = 0; i < n; i++) anchors[i] = a0 + i;
    assert_fo_ok(fo_ablp_sampler_sample(s, anchors, n, 3, (uint64_t)(a0 / 512), b));
    A = fo_batch_node_type(b->sample, b->anchor_type);
    P = fo_batch_node_type(b->sample, b->label_type);
    /* the node sampler over the dataset without supervision: the same batch */
    {
      const int32_t T = fo_dataset_num_node_types(fx.with);
      const int64_t *seeds[8];
      int64_t ns[8];
      for (int32_t t = 0; t < T; t++) {
        const fo_batch_t *nb = fo_batch_node_type(b->sample, t);
        seeds[t] = nb->node;
        ns[t] = nb->n_seeds;
      }
      assert_fo_ok(fo_sampler_sample_hetero(ref, seeds, ns, 3, (uint64_t)(a0 / 512), rb));
      assert_int_equal(rb->n_nodes, b->sample->n_nodes);
      assert_int_equal(rb->n_edges, b->sample->n_edges);
      for (int32_t t = 0; t < T; t++) {
        const fo_batch_t *x = fo_batch_node_type(rb, t), *y = fo_batch_node_type(b->sample, t);
        assert_int_equal(x->n_nodes, y->n_nodes);
        assert_memory_equal(x->node, y->node, (size_t)x->n_nodes * sizeof *x->node);
      }
      for (int32_t et = 0; et < rb->n_edge_types; et++) {
        const fo_batch_t *x = fo_batch_edge_type(rb, et), *y = fo_batch_edge_type(b->sample, et);
        assert_int_equal(x->n_edges, y->n_edges);
        assert_memory_equal(x->edge, y->edge, (size_t)x->n_edges * sizeof *x->edge);
        assert_memory_equal(x->row, y->row, (size_t)x->n_edges * sizeof *x->row);
        assert_memory_equal(x->col, y->col, (size_t)x->n_edges * sizeof *x->col);
      }
    }
    /* no sampled writes / rev_writes edge is a held-out pair */
    for (int k = 0; k < 2; k++) {
      const fo_batch_t *eb = fo_batch_edge_type(b->sample, k ? rw : w);
      for (int64_t e = 0; e < eb->n_edges; e++) {
        /* edge_dir in: row = neighbor (src), col = the node it was sampled for (dst) */
        const int64_t src = k ? A->node[eb->row[e]] : P->node[eb->row[e]];
        const int64_t dst = k ? P->node[eb->col[e]] : A->node[eb->col[e]];
        const int64_t key[2] = {k ? src : dst, k ? dst : src}; /* (author, paper) */
        assert_null(bsearch(key, fx.hs, (size_t)fx.n_held, 2 * sizeof *fx.hs, cmp_pair));
      }
      total_edges += eb->n_edges;
    }
    /* y_positive: exactly the anchors' held-out pairs */
    {
      int64_t want = 0;
      for (int64_t i = 0; i < n; i++) {
        const int64_t key[2] = {anchors[i], 0};
        int64_t lo = 0, hi = fx.n_held;
        while (lo < hi) {
          const int64_t mid = (lo + hi) / 2;
          if (cmp_pair(&fx.hs[2 * mid], key) < 0) lo = mid + 1;
          else hi = mid;
        }
        while (lo < fx.n_held && fx.hs[2 * lo] == anchors[i]) want++, lo++;
      }
      assert_int_equal(b->n_pos, want);
      for (int64_t j = 0; j < b->n_pos; j++) {
        const int64_t key[2] = {A->node[b->y_positive[j]], P->node[b->y_positive[b->n_pos + j]]};
        assert_true(b->y_positive[b->n_pos + j] < P->n_seeds);
        assert_non_null(bsearch(key, fx.hs, (size_t)fx.n_held, 2 * sizeof *fx.hs, cmp_pair));
      }
      total_pos += b->n_pos;
    }
  }
  assert_int_equal(total_pos, fx.n_held);
  print_message("DBLP: %lld label edges over 4057 anchors, %lld sampled writes/rev_writes edges, "
                "none a label edge\n", (long long)total_pos, (long long)total_edges);
  fo_ablp_sampler_destroy(s);
  fo_sampler_destroy(ref);
  fo_ablp_batch_destroy(b);
  fo_batch_destroy(rb);
  dblp_close(&fx);
}

/* ---- determinism across threads ------------------------------------------------------------ */

typedef struct job {
  const fo_dataset_t *d;
  uint64_t digest;
  int rc;
} job;

static uint64_t mix(uint64_t h, const void *p, size_t n) {
  const unsigned char *c = p;
  for (size_t i = 0; i < n; i++) h = (h ^ c[i]) * UINT64_C(1099511628211);
  return h;
}

static void *run_job(void *arg) {
  job *j = arg;
  fo_ablp_opts o;
  fo_ablp_sampler_t *s = NULL;
  fo_ablp_batch_t *b = NULL;
  int32_t f[2] = {3, 2};
  int64_t anchors[64];
  uint64_t h = UINT64_C(1469598103934665603);
  fo_ablp_opts_init(&o);
  o.sampler.fanouts = f;
  o.sampler.n_hops = 2;
  o.sampler.seed = 11;
  o.num_random_negatives = 3;
  if ((j->rc = fo_ablp_sampler_create(j->d, &o, &s)) != FO_OK ||
      (j->rc = fo_ablp_batch_create(&b)) != FO_OK)
    goto out;
  for (uint64_t bi = 0; bi < 16; bi++) {
    for (int i = 0; i < 64; i++) anchors[i] = (int64_t)((bi * 64 + (uint64_t)i) * 37 % 4057);
    if ((j->rc = fo_ablp_sampler_sample(s, anchors, 64, 1, bi, b)) != FO_OK) goto out;
    for (int32_t t = 0; t < b->sample->n_node_types; t++) {
      const fo_batch_t *nb = fo_batch_node_type(b->sample, t);
      h = mix(h, nb->node, (size_t)nb->n_nodes * sizeof *nb->node);
    }
    for (int32_t et = 0; et < b->sample->n_edge_types; et++) {
      const fo_batch_t *eb = fo_batch_edge_type(b->sample, et);
      h = mix(h, eb->edge, (size_t)eb->n_edges * sizeof *eb->edge);
    }
    h = mix(h, b->y_positive, (size_t)(2 * b->n_pos) * sizeof *b->y_positive);
    h = mix(h, b->random_negative, (size_t)(b->n_anchors * b->k) * sizeof *b->random_negative);
  }
out:
  fo_ablp_sampler_destroy(s);
  fo_ablp_batch_destroy(b);
  j->digest = h;
  return NULL;
}

static void threads(void **state) {
  dblp_fx fx = {0};
  job jobs[3];
  pthread_t th[2];
  (void)state;
  if (!dblp_open(&fx)) skip();
  for (int i = 0; i < 3; i++) jobs[i] = (job){fx.with, 0, 0};
  run_job(&jobs[0]);
  for (int i = 0; i < 2; i++) assert_int_equal(pthread_create(&th[i], NULL, run_job, &jobs[i + 1]), 0);
  for (int i = 0; i < 2; i++) pthread_join(th[i], NULL);
  for (int i = 0; i < 3; i++) {
    if (jobs[i].rc != FO_OK) fail_msg("job %d: %s", i, fo_status_name(jobs[i].rc));
    assert_true(jobs[i].digest == jobs[0].digest);
  }
  dblp_close(&fx);
}

/* ---- partitioned datasets (format_version 3 parts carry the supervision rows) --------------- */

/* FNV-1a over everything an ABLP batch holds: per node type its nodes and seed count, per edge
 * type its edges with their local endpoints, the anchors' local ids, y_positive, y_negative and
 * the random negatives. */
static uint64_t ablp_digest(uint64_t h, const fo_ablp_batch_t *b) {
  for (int32_t t = 0; t < b->sample->n_node_types; t++) {
    const fo_batch_t *nb = fo_batch_node_type(b->sample, t);
    h = mix(h, &nb->n_seeds, sizeof nb->n_seeds);
    h = mix(h, nb->node, (size_t)nb->n_nodes * sizeof *nb->node);
  }
  for (int32_t et = 0; et < b->sample->n_edge_types; et++) {
    const fo_batch_t *eb = fo_batch_edge_type(b->sample, et);
    h = mix(h, eb->edge, (size_t)eb->n_edges * sizeof *eb->edge);
    h = mix(h, eb->row, (size_t)eb->n_edges * sizeof *eb->row);
    h = mix(h, eb->col, (size_t)eb->n_edges * sizeof *eb->col);
  }
  h = mix(h, b->anchor_index, (size_t)b->n_anchors * sizeof *b->anchor_index);
  h = mix(h, &b->n_pos, sizeof b->n_pos);
  h = mix(h, b->y_positive, (size_t)(2 * b->n_pos) * sizeof *b->y_positive);
  h = mix(h, &b->n_neg, sizeof b->n_neg);
  h = mix(h, b->y_negative, (size_t)(2 * b->n_neg) * sizeof *b->y_negative);
  h = mix(h, b->random_negative, (size_t)(b->n_anchors * b->k) * sizeof *b->random_negative);
  return h;
}

static char *partition_into(const char *in, const char *tmp, const char *name,
                            fo_partition_method m, int32_t P) {
  fo_partition_opts o;
  char *out = fot_path(tmp, name);
  fo_partition_opts_init(&o);
  o.n_parts = P;
  o.method = m;
  o.seed = 5;
  assert_fo_ok(fo_partition(in, out, &o, NULL));
  return out;
}

/* The digest of the ABLP batches of anchors (n of them, in batches of bs) over d. */
static uint64_t ablp_run(const fo_dataset_t *d, const fo_ablp_opts *o, const int64_t *anchors,
                         int64_t n, int64_t bs) {
  fo_ablp_sampler_t *s;
  fo_ablp_batch_t *b;
  uint64_t h = UINT64_C(1469598103934665603);
  assert_fo_ok(fo_ablp_sampler_create(d, o, &s));
  assert_fo_ok(fo_ablp_batch_create(&b));
  for (int64_t i = 0; i < n; i += bs) {
    assert_fo_ok(fo_ablp_sampler_sample(s, anchors + i, n - i < bs ? n - i : bs, 2,
                                        (uint64_t)(i / bs), b));
    h = ablp_digest(h, b);
  }
  fo_ablp_sampler_destroy(s);
  fo_ablp_batch_destroy(b);
  return h;
}

/* The tiny graph in 1, 2 and 3 parts (range and hash): every part holds exactly its anchors'
 * supervision rows, the parts verify, and the ABLP batches are the unpartitioned ones, field
 * for field, with y_positive / y_negative as tiny_exact gives them. */
/* The distributed ABLP loader in one process (fo_dist_init_local: the LABEL requests encoded,
 * served and decoded in-process): one loader per machine over the tiny graph's 2 and 3 parts
 * (range, hash); every batch (tail keep: batch b on machine b mod P) has the plain loader's
 * digest, no batch sends more than P - 1 LABEL requests and some send one; options that differ
 * are compared only between processes (one here), so a bad option is the plain loader's error. */
static void dist_local(void **state) {
  tiny t;
  fo_ablp_loader_opts o;
  fo_ablp_loader_t *L;
  fo_ablp_loader_batch_t *b;
  int32_t f[2] = {-1, 1};
  const int64_t anchors[7] = {0, 1, 0, 2, 1, 2, 2};
  uint64_t want[8];
  int64_t nb = 0;
  (void)state;
  tiny_open(&t, true, true);
  fo_ablp_loader_opts_init(&o);
  o.ablp.sampler.fanouts = f;
  o.ablp.sampler.n_hops = 2;
  o.ablp.num_random_negatives = 2;
  o.batch_size = 2;
  o.shuffle = true;
  o.input_nodes = anchors;
  o.n_input_nodes = 7;
  assert_fo_ok(fo_ablp_loader_create(t.d, &o, &L));
  while (fo_ablp_loader_next(L, &b) == FO_OK && b) want[nb++] = fo_ablp_loader_batch_digest(b);
  fo_ablp_loader_destroy(L);
  assert_int_equal(nb, 4);
  for (int m = 0; m < 2; m++)
    for (int32_t P = 2; P <= 3; P++) {
      char name[16];
      char *pdir;
      fo_dataset_t *pd;
      int64_t labels = 0, seen = 0;
      snprintf(name, sizeof name, "d%d%d", m, (int)P);
      pdir = partition_into(t.dir, t.tmp, name, m ? FO_PARTITION_HASH : FO_PARTITION_RANGE, P);
      assert_fo_ok(fo_dataset_open(pdir, NULL, &pd));
      for (int32_t r = 0; r < P; r++) {
        fo_dist_t *dd;
        fo_dist_batch_stats bs;
        int64_t i = 0;
        assert_fo_ok(fo_dist_init_local(pd, r, NULL, &dd));
        assert_fo_ok(fo_dist_ablp_loader_create(dd, pd, &o, NULL, &L));
        assert_int_equal(fo_ablp_sampler_anchor_type(fo_ablp_loader_sampler(L)), 0);
        while (fo_ablp_loader_next(L, &b) == FO_OK && b) {
          assert_int_equal(b->index, r + i * P);
          if (fo_ablp_loader_batch_digest(b) != want[b->index])
            fail_msg("%s, machine %d: batch %lld differs from the plain loader's", name, (int)r,
                     (long long)b->index);
          fo_dist_ablp_loader_stats(L, &bs);
          assert_true(bs.label_requests <= P - 1);
          labels += bs.label_requests;
          i++;
          seen++;
        }
        fo_ablp_loader_destroy(L);
        assert_fo_ok(fo_dist_finalize(dd));
      }
      assert_int_equal(seen, 4);
      assert_true(labels > 0);
      {
        /* seed placement local: every anchor position once over the machines (tail keep), each
         * batch on machine index mod P, and a cache of every policy (lookahead planning 2
         * batches ahead, a budget of a few rows) gives the same digests, over 2 epochs; so do
         * lookahead with pipelining threads (2 and 3: more threads than this rank's batches),
         * and a pipelined loader's per-batch traffic is the unpipelined one's */
        int taken[7] = {0};
        for (int32_t r = 0; r < P; r++) {
          fo_dist_t *dd;
          fo_dist_loader_opts dlo;
          fo_ablp_loader_t *Lc[5];
          fo_ablp_loader_batch_t *bc;
          assert_fo_ok(fo_dist_init_local(pd, r, NULL, &dd));
          fo_dist_loader_opts_init(&dlo);
          dlo.seed_placement = FO_DIST_SEEDS_LOCAL;
          assert_fo_ok(fo_dist_ablp_loader_create(dd, pd, &o, &dlo, &L));
          dlo.cache_bytes = 64;
          dlo.lookahead = 2;
          for (int q = 0; q < 5; q++) {
            dlo.cache_policy = q < 3 ? (fo_dist_cache_policy)q : FO_DIST_CACHE_LOOKAHEAD;
            dlo.pipeline = q < 3 ? 0 : q - 1;
            assert_fo_ok(fo_dist_ablp_loader_create(dd, pd, &o, &dlo, &Lc[q]));
          }
          for (int ep = 0; ep < 2; ep++) {
            fo_dist_batch_stats s2, s3;
            assert_fo_ok(fo_ablp_loader_start_epoch(L, (uint64_t)ep));
            for (int q = 0; q < 5; q++) assert_fo_ok(fo_ablp_loader_start_epoch(Lc[q], (uint64_t)ep));
            while (fo_ablp_loader_next(L, &b) == FO_OK && b) {
              const uint64_t dg = fo_ablp_loader_batch_digest(b);
              if (ep == 0) {
                assert_int_equal(b->index % P, r);
                for (int64_t i = 0; i < b->ablp->n_anchors; i++) {
                  assert_in_range(b->input_id[i], 0, 6);
                  taken[b->input_id[i]]++;
                }
              }
              for (int q = 0; q < 5; q++) {
                assert_fo_ok(fo_ablp_loader_next(Lc[q], &bc));
                assert_non_null(bc);
                assert_int_equal(bc->index, b->index);
                if (fo_ablp_loader_batch_digest(bc) != dg)
                  fail_msg("%s, machine %d, epoch %d, loader %d: batch %lld differs", name, (int)r,
                           ep, q, (long long)b->index);
              }
              fo_dist_ablp_loader_stats(Lc[2], &s2);
              fo_dist_ablp_loader_stats(Lc[3], &s3);
              assert_int_equal(s3.label_requests, s2.label_requests);
              assert_int_equal(s3.label_bytes, s2.label_bytes);
              assert_int_equal(s3.remote_rows, s2.remote_rows);
              assert_int_equal(s3.cache_hits, s2.cache_hits);
              assert_int_equal(s3.ahead_requests, s2.ahead_requests);
              for (int h = 0; h < 2; h++) assert_int_equal(s3.hop_requests[h], s2.hop_requests[h]);
            }
            for (int q = 0; q < 5; q++) {
              assert_fo_ok(fo_ablp_loader_next(Lc[q], &bc));
              assert_null(bc);
            }
          }
          {
            /* a pipelined restart in mid-epoch (its threads ahead), then as the unpipelined */
            fo_ablp_loader_batch_t *bp;
            assert_fo_ok(fo_ablp_loader_start_epoch(Lc[4], 7));
            assert_fo_ok(fo_ablp_loader_next(Lc[4], &bp));
            assert_fo_ok(fo_ablp_loader_start_epoch(Lc[4], 8));
            assert_fo_ok(fo_ablp_loader_start_epoch(Lc[2], 8));
            assert_fo_ok(fo_ablp_loader_next(Lc[2], &bc));
            assert_fo_ok(fo_ablp_loader_next(Lc[4], &bp));
            assert_true((bc == NULL) == (bp == NULL));
            if (bc) assert_true(fo_ablp_loader_batch_digest(bp) == fo_ablp_loader_batch_digest(bc));
          }
          fo_ablp_loader_destroy(L);
          for (int q = 0; q < 5; q++) fo_ablp_loader_destroy(Lc[q]);
          assert_fo_ok(fo_dist_finalize(dd));
        }
        for (int i = 0; i < 7; i++) assert_int_equal(taken[i], 1);
      }
      {
        /* an unknown supervision type: the sampler's error; pipelining without a lookahead
         * cache, or beyond 64 threads: FO_EINVAL */
        fo_dist_t *dd;
        fo_ablp_loader_opts bad = o;
        fo_dist_loader_opts dlo;
        assert_fo_ok(fo_dist_init_local(pd, 0, NULL, &dd));
        bad.ablp.supervision_edge_type = "nope";
        assert_fo_error(fo_dist_ablp_loader_create(dd, pd, &bad, NULL, &L), FO_EINVAL,
                        "'nope' is not a labels-only edge type");
        fo_dist_loader_opts_init(&dlo);
        dlo.pipeline = 1;
        assert_fo_error(fo_dist_ablp_loader_create(dd, pd, &o, &dlo, &L), FO_EINVAL,
                        "pipeline 1 needs cache_policy lookahead");
        dlo.cache_policy = FO_DIST_CACHE_LOOKAHEAD;
        assert_fo_error(fo_dist_ablp_loader_create(dd, pd, &o, &dlo, &L), FO_EINVAL,
                        "with cache_bytes > 0");
        dlo.cache_bytes = 64;
        dlo.pipeline = 65;
        assert_fo_error(fo_dist_ablp_loader_create(dd, pd, &o, &dlo, &L), FO_EINVAL,
                        "pipeline 65 is not in 0..64");
        assert_fo_error(fo_dist_ablp_loader_create(dd, t.d, &o, NULL, &L), FO_EINVAL,
                        "is not a dataset of");
        assert_fo_ok(fo_dist_finalize(dd));
      }
      fo_dataset_close(pd);
      free(pdir);
    }
  tiny_close(&t);
}

static void partitioned_tiny(void **state) {
  tiny t;
  fo_ablp_opts o;
  fo_ablp_batch_t *want, *got;
  fo_ablp_sampler_t *s;
  int32_t f[2] = {-1, 1};
  int64_t anchors[4] = {0, 1, 0, 2};
  (void)state;
  tiny_open(&t, true, true);
  fo_ablp_opts_init(&o);
  o.sampler.fanouts = f;
  o.sampler.n_hops = 2;
  o.num_random_negatives = 2;
  assert_fo_ok(fo_ablp_batch_create(&want));
  assert_fo_ok(fo_ablp_batch_create(&got));
  assert_fo_ok(fo_ablp_sampler_create(t.d, &o, &s));
  assert_fo_ok(fo_ablp_sampler_sample(s, anchors, 4, 1, 7, want));
  fo_ablp_sampler_destroy(s);
  for (int m = 0; m < 2; m++)
    for (int32_t P = 1; P <= 3; P++) {
      char name[16];
      char *pdir;
      fo_dataset_t *pd;
      fo_edge_type ty;
      int64_t held[2] = {0, 0};
      snprintf(name, sizeof name, "p%d%d", m, (int)P);
      pdir = partition_into(t.dir, t.tmp, name, m ? FO_PARTITION_HASH : FO_PARTITION_RANGE, P);
      assert_fo_ok(fo_dataset_open(pdir, NULL, &pd));
      assert_fo_ok(fo_dataset_verify(pd));
      assert_int_equal(fo_dataset_num_label_edge_types(pd), 2);
      assert_int_equal(fo_dataset_num_edge_types(pd), 2); /* buys, rev_buys: still traversed only */
      assert_fo_ok(fo_dataset_label_edge_type(pd, 1, &ty));
      assert_string_equal(ty.name, "user__dislikes__item");
      assert_int_equal(ty.label, FO_LABEL_NEGATIVE);
      assert_int_equal(ty.n_edges, 2);
      for (int k = 0; k < P; k++) {
        /* each part: the CSR rows of the users it owns, no CSC */
        const fo_dataset_t *pk = fo_dataset_part(pd, k);
        const fo_dataset_t *users = fo_dataset_node_data(pk, 0);
        fo_topology lt;
        for (int32_t i = 0; i < 2; i++) {
          assert_fo_ok(fo_dataset_label_edge_topology(pk, i, FO_EDGE_DIR_OUT, &lt));
          assert_int_equal(lt.n_rows, fo_dataset_num_rows(users));
          held[i] += lt.n_edges;
          assert_fo_error(fo_dataset_label_edge_topology(pk, i, FO_EDGE_DIR_IN, &lt), FO_EINVAL,
                          "has no CSC");
        }
      }
      assert_int_equal(held[0], 2);
      assert_int_equal(held[1], 2);
      {
        fo_topology lt;
        assert_fo_error(fo_dataset_label_edge_topology(pd, 0, FO_EDGE_DIR_OUT, &lt), FO_EINVAL,
                        "are in its parts");
      }
      assert_fo_ok(fo_ablp_sampler_create(pd, &o, &s));
      assert_fo_ok(fo_ablp_sampler_sample(s, anchors, 4, 1, 7, got));
      assert_int_equal(got->n_pos, 2);
      {
        const int64_t yp[4] = {0, 1, 0, 1}, yn[4] = {0, 2, 2, 1}; /* (user 0, item 1), (user 2, item 0) */
        const fo_batch_t *I = fo_batch_node_type(got->sample, got->label_type);
        assert_memory_equal(got->y_positive, yp, sizeof yp);
        assert_int_equal(got->n_neg, 2);
        assert_memory_equal(got->y_negative, yn, sizeof yn);
        assert_int_equal(I->node[0], 2);
        assert_int_equal(I->node[1], 0);
        assert_int_equal(I->node[2], 1);
      }
      assert_true(ablp_digest(1, got) == ablp_digest(1, want));
      for (int32_t tt = 0; tt < 2; tt++) {
        const fo_batch_t *x = fo_batch_node_type(want->sample, tt), *y = fo_batch_node_type(got->sample, tt);
        assert_int_equal(x->n_nodes, y->n_nodes);
        assert_memory_equal(x->node, y->node, (size_t)x->n_nodes * sizeof *x->node);
      }
      assert_memory_equal(got->random_negative, want->random_negative, 8 * sizeof *got->random_negative);
      fo_ablp_sampler_destroy(s);
      /* a part opened on its own is refused by name */
      if (m == 0 && P == 2) {
        char *p0 = fot_path(pdir, "part-0");
        fo_dataset_t *d0;
        assert_fo_ok(fo_dataset_open(p0, NULL, &d0));
        assert_fo_error(fo_ablp_sampler_create(d0, &o, &s), FO_EINVAL,
                        "is one part of a partitioned dataset");
        fo_dataset_close(d0);
        free(p0);
      }
      fo_dataset_close(pd);
      free(pdir);
    }
  fo_ablp_batch_destroy(want);
  fo_ablp_batch_destroy(got);
  tiny_close(&t);
}

/* Manifests: a partitioned dataset with supervision types is format_version 3, top and parts;
 * one relabelled 2 (what a reader of version 2 would see) is refused, so is a part that lacks
 * the supervision types (an older partition's part), and a partition of a dataset without
 * them stays version 2 and ABLP over it names the cause. */
static void partitioned_manifests(void **state) {
  tiny t;
  char *pdir, *p, *man, *bad, *at, *p1, *man1;
  size_t mlen;
  fo_dataset_t *d;
  fo_ablp_opts o;
  fo_ablp_sampler_t *s;
  int32_t f[1] = {1};
  (void)state;
  tiny_open(&t, true, false);
  pdir = partition_into(t.dir, t.tmp, "p", FO_PARTITION_HASH, 2);
  p = fot_path(pdir, "fanout.json");
  man = fot_read_file(p, &mlen);
  assert_non_null(strstr(man, "\"format_version\": 3"));
  assert_non_null(strstr(man, "\"labels_only\": true"));
  bad = strdup(man);
  at = strstr(bad, "\"format_version\": 3");
  at[18] = '2';
  fot_write_file(p, bad);
  assert_fo_error(fo_dataset_open(pdir, NULL, &d), FO_EFORMAT,
                  "is labels_only in a format_version 2 manifest");
  free(bad);
  fot_write_file(p, man);
  /* part 1 without its supervision types: the top level lists them, the part does not */
  p1 = fot_path(pdir, "part-1/fanout.json");
  man1 = fot_read_file(p1, &mlen);
  {
    json_error_t je;
    json_t *root = json_loads(man1, 0, &je), *ets = json_object_get(root, "edge_types");
    char *text;
    assert_non_null(root);
    while (json_array_size(ets) > 1) json_array_remove(ets, json_array_size(ets) - 1);
    json_object_set_new(root, "format_version", json_integer(2));
    text = json_dumps(root, JSON_INDENT(1));
    fot_write_file(p1, text);
    free(text);
    json_decref(root);
  }
  assert_fo_error(fo_dataset_open(pdir, NULL, &d), FO_EFORMAT,
                  "its labels-only (supervision) edge types or their CSR rows differ (0 in the part, 2 listed)");
  fot_write_file(p1, man1);
  assert_fo_ok(fo_dataset_open(pdir, NULL, &d));
  fo_dataset_close(d);
  free(man1);
  free(p1);
  free(man);
  free(p);
  free(pdir);
  tiny_close(&t);
  /* without supervision types: version 2, as before */
  {
    fot_edges e = {0};
    fot_ds g;
    fo_import_opts io;
    fot_cycle(6, &e);
    fo_import_opts_init(&io);
    fot_ds_edges(&g, &e, NULL, &io);
    pdir = partition_into(g.dir, g.tmp, "p", FO_PARTITION_HASH, 2);
    p = fot_path(pdir, "fanout.json");
    man = fot_read_file(p, &mlen);
    assert_null(strstr(man, "\"format_version\": 3"));
    assert_fo_ok(fo_dataset_open(pdir, NULL, &d));
    fo_ablp_opts_init(&o);
    o.sampler.fanouts = f;
    o.sampler.n_hops = 1;
    assert_fo_error(fo_ablp_sampler_create(d, &o, &s), FO_EINVAL,
                    "partitions made before format_version 3 did not carry them");
    fo_dataset_close(d);
    free(man);
    free(p);
    free(pdir);
    fot_edges_free(&e);
    fot_ds_close(&g);
  }
}

/* DBLP with held-out positives and hard negatives, in 2 and 3 parts (hash, range): every
 * author as an anchor, 2 hops, 3 strict random negatives each: the digest of every batch field
 * equals the unpartitioned one's, and 3 threads over the 3-part dataset agree with it. */
static void partitioned_dblp(void **state) {
  dblp_fx fx = {0};
  fo_ablp_opts o;
  int32_t f[2] = {4, 3};
  int64_t *anchors = malloc(4057 * sizeof *anchors);
  uint64_t want;
  (void)state;
  fx.negatives = true;
  if (!dblp_open(&fx)) {
    free(anchors);
    skip();
  }
  for (int64_t i = 0; i < 4057; i++) anchors[i] = (i * 1237) % 4057; /* every author, mixed */
  fo_ablp_opts_init(&o);
  o.sampler.fanouts = f;
  o.sampler.n_hops = 2;
  o.sampler.seed = 17;
  o.supervision_edge_type = "writes_label";
  o.num_random_negatives = 3;
  want = ablp_run(fx.with, &o, anchors, 4057, 256);
  {
    /* the held-out edges appear as y_positive and the hard negatives as y_negative */
    fo_ablp_sampler_t *s;
    fo_ablp_batch_t *b;
    int64_t pos = 0, neg = 0;
    assert_fo_ok(fo_ablp_sampler_create(fx.with, &o, &s));
    assert_int_equal(fo_ablp_sampler_negative_type(s), 1);
    assert_fo_ok(fo_ablp_batch_create(&b));
    for (int64_t i = 0; i < 4057; i += 1024) {
      assert_fo_ok(fo_ablp_sampler_sample(s, anchors + i, 4057 - i < 1024 ? 4057 - i : 1024, 0, 0, b));
      pos += b->n_pos;
      neg += b->n_neg;
    }
    assert_int_equal(pos, fx.n_held);
    assert_true(neg > 1000);
    fo_ablp_sampler_destroy(s);
    fo_ablp_batch_destroy(b);
  }
  {
    char *with = fot_path(fx.tmp, "with");
    for (int m = 0; m < 2; m++)
      for (int32_t P = 2; P <= 3; P++) {
        char name[16];
        char *pdir;
        fo_dataset_t *pd;
        uint64_t got;
        snprintf(name, sizeof name, "p%d%d", m, (int)P);
        pdir = partition_into(with, fx.tmp, name, m ? FO_PARTITION_RANGE : FO_PARTITION_HASH, P);
        assert_fo_ok(fo_dataset_open(pdir, NULL, &pd));
        got = ablp_run(pd, &o, anchors, 4057, 256);
        print_message("DBLP ABLP, %s %d parts: digest %016llx (unpartitioned %016llx)\n",
                      m ? "range" : "hash", (int)P, (unsigned long long)got, (unsigned long long)want);
        assert_true(got == want);
        if (P == 3 && !m) {
          /* threads over the parts: run_job's batches, the unpartitioned dataset's digest */
          job jobs[3];
          pthread_t th[2];
          jobs[0] = (job){fx.with, 0, 0};
          run_job(&jobs[0]);
          for (int i = 1; i < 3; i++) jobs[i] = (job){pd, 0, 0};
          for (int i = 0; i < 2; i++)
            assert_int_equal(pthread_create(&th[i], NULL, run_job, &jobs[i + 1]), 0);
          for (int i = 0; i < 2; i++) pthread_join(th[i], NULL);
          for (int i = 0; i < 3; i++) {
            if (jobs[i].rc != FO_OK) fail_msg("job %d: %s", i, fo_status_name(jobs[i].rc));
            assert_true(jobs[i].digest == jobs[0].digest);
          }
        }
        fo_dataset_close(pd);
        free(pdir);
      }
    free(with);
  }
  dblp_close(&fx);
  free(anchors);
}

/* ---- the loader ------------------------------------------------------------------------------ */

static void loader(void **state) {
  tiny t;
  fo_ablp_loader_opts lo;
  fo_ablp_loader_t *L;
  fo_ablp_loader_batch_t *lb;
  int32_t f[1] = {1};
  int64_t anchors[5] = {2, 0, 1, 1, 0}, seen = 0;
  (void)state;
  tiny_open(&t, true, true);
  fo_ablp_loader_opts_init(&lo);
  lo.ablp.sampler.fanouts = f;
  lo.ablp.sampler.n_hops = 1;
  lo.input_nodes = anchors;
  lo.n_input_nodes = 5;
  lo.batch_size = 2;
  lo.shuffle = true;
  assert_fo_ok(fo_ablp_loader_create(t.d, &lo, &L));
  assert_int_equal(fo_ablp_loader_num_batches(L), 3);
  for (;;) {
    assert_fo_ok(fo_ablp_loader_next(L, &lb));
    if (!lb) break;
    for (int64_t i = 0; i < lb->ablp->n_anchors; i++) {
      const fo_batch_t *U = fo_batch_node_type(lb->ablp->sample, lb->ablp->anchor_type);
      assert_int_equal(U->node[lb->ablp->anchor_index[i]], anchors[lb->input_id[i]]);
      seen |= (int64_t)1 << lb->input_id[i];
    }
    assert_int_equal(lb->n_node_types, 2);
  }
  assert_int_equal(seen, 31);
  fo_ablp_loader_destroy(L);
  tiny_close(&t);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(labels_only_types), cmocka_unit_test(manifest_versions),
      cmocka_unit_test(tiny_exact),        cmocka_unit_test(random_negatives),
      cmocka_unit_test(same_type),
      cmocka_unit_test(errors),            cmocka_unit_test(import_errors),
      cmocka_unit_test(empty_label_files),
      cmocka_unit_test(label_type_choice),
      cmocka_unit_test(dblp_never_traversed), cmocka_unit_test(threads),
      cmocka_unit_test(loader),
      cmocka_unit_test(partitioned_tiny), cmocka_unit_test(partitioned_manifests),
      cmocka_unit_test(partitioned_dblp), cmocka_unit_test(dist_local),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
