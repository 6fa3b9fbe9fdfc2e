/*
 * tests/unit/test_reliability.c: what fanout guarantees on bad input (docs/RELIABILITY.md),
 * one test per class of issue 14 that this file guards:
 *   - readers that trust arrays: the partitioner on out-of-range indptr / indices / edge ids /
 *     labels (FO_EFORMAT naming the array and position, nothing written), the feature and label
 *     gather over a part whose rank directory is corrupt (FO_EFORMAT, never a wild read);
 *   - parts that do not belong together: parts of two partitionings in one directory, a part
 *     listed twice, a part that says it is another part, a 'num_parts' that is not the parts
 *     listed (refused on open);
 *   - outputs that would replace their input (partition X -o X, an output containing the input);
 *   - stale temporary directories of dead writers (removed by the next run to the same output);
 *   - writers that accept what readers reject (labels, non-finite and out-of-range features).
 * Corruptions keep the manifest's checksum right (fot_set_array_elem(..., true)) so that they
 * reach the reader rather than the checksum check.
 */
#include "support.h"

#include "store/store_internal.h"

#include <dirent.h>
#include <math.h>
#include <errno.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static bool exists(const char *p) {
  struct stat st;
  return lstat(p, &st) == 0;
}

/* Names in `dir` other than . and ..; the first copied to first[cap]. */
static int count_entries(const char *dir, char *first, size_t cap) {
  DIR *dh = opendir(dir);
  struct dirent *de;
  int n = 0;
  if (first && cap) first[0] = '\0';
  if (!dh) return -1;
  while ((de = readdir(dh)) != NULL) {
    if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, "..")) continue;
    if (!n && first) snprintf(first, cap, "%s", de->d_name);
    n++;
  }
  closedir(dh);
  return n;
}

/* A 2-cycle-rich random graph of 300 nodes imported with a CSC into tmp/g. */
static void small_graph(fot_ds *g) {
  fot_edges e = {0};
  fo_import_opts o;
  fot_random(300, 1500, 7, &e);
  fo_import_opts_init(&o);
  o.csc = true;
  fot_ds_edges(g, &e, NULL, &o);
  fot_edges_free(&e);
}

static void partition_into(const char *in, const char *out, int32_t P, uint64_t seed) {
  fo_partition_opts po;
  fo_partition_opts_init(&po);
  po.n_parts = P;
  po.seed = seed;
  assert_fo_ok(fo_partition(in, out, &po, NULL));
}

/* ---- class 1: readers that trust arrays ---------------------------------------------------- */

/* fo_partition on a dataset with one corrupt entry (checksum kept right) fails with FO_EFORMAT
 * naming the array and the position, and writes nothing. */
static void expect_partition_refuses(const char *array, int64_t pos, int64_t value,
                                     const char *substr) {
  fot_ds g = {0};
  fo_partition_opts po;
  char *out, first[256];
  small_graph(&g);
  fo_dataset_close(g.d);
  g.d = NULL;
  fot_set_array_elem(g.dir, array, pos, value, true);
  out = fot_path(g.tmp, "parts");
  fo_partition_opts_init(&po);
  po.n_parts = 3;
  for (int m = 0; m < 2; m++) {
    po.method = m ? FO_PARTITION_RANGE : FO_PARTITION_HASH;
    assert_fo_error(fo_partition(g.dir, out, &po, NULL), FO_EFORMAT, substr);
    assert_false(exists(out));
  }
  /* nothing but the dataset itself in tmp (no temporary directory left behind) */
  assert_int_equal(count_entries(g.tmp, first, sizeof first), 1);
  free(out);
  fot_ds_close(&g);
}

static void partition_checks_arrays(void **state) {
  (void)state;
  expect_partition_refuses("csc_indices", 17, 1000000, "csc_indices[17] = 1000000");
  expect_partition_refuses("csc_indices", 3, -5, "csc_indices[3] = -5");
  expect_partition_refuses("csc_indptr", 40, 1 << 30, "csc_indptr");
  expect_partition_refuses("csc_indptr", 40, -7, "csc_indptr");
}

/* fo_partition_quality on a partitioned dataset whose part has a corrupt indptr. */
static void quality_checks_parts(void **state) {
  fot_ds g = {0};
  char *out, *p1;
  fo_dataset_t *pd;
  fo_partition_report rep;
  (void)state;
  small_graph(&g);
  out = fot_path(g.tmp, "parts");
  partition_into(g.dir, out, 2, 0);
  p1 = fot_path(out, "part-1");
  /* indptr[1] beyond the part's edges: open checks only indptr[0] and indptr[n] */
  fot_set_array_elem(p1, "csc_indptr", 1, 1 << 28, true);
  assert_fo_ok(fo_dataset_open(out, NULL, &pd));
  assert_fo_error(fo_partition_quality(pd, &rep), FO_EFORMAT, "part 1: csc_indptr[0..1]");
  assert_null(rep.parts);
  fo_dataset_close(pd);
  free(p1);
  free(out);
  fot_ds_close(&g);
}

/* Corrupt the rank directory of part 1 so that nodes of a block would map past the part's rows:
 * rows now come from the row map built from the book at open, so fo_dataset_node_part and the
 * loader's gather of features and labels (nodes of the last hop are never expanded by the
 * sampler) give the rows of a clean copy, and fo_dataset_verify names the mismatch (a book
 * whose counts differ from the parts is refused at open: test_partition, cli reliability). */
static void gather_checks_rows(void **state) {
  fot_ds g = {0};
  char *out, *p1, *clean;
  fo_dataset_t *pd, *pc;
  fo_loader_opts lo;
  fo_loader_t *L;
  fo_loader_batch_t *b;
  const int32_t fan[2] = {5, 5};
  int k, kc;
  int64_t r, rcl;
  (void)state;
  fot_ds_cora(&g, FO_FEATURES_FLOAT32);
  out = fot_path(g.tmp, "parts");
  clean = fot_path(g.tmp, "clean");
  partition_into(g.dir, out, 2, 0);
  partition_into(g.dir, clean, 2, 0);
  /* a block of part 1 in the middle: its entry jumps far beyond the part */
  p1 = fot_path(out, "part-1");
  fot_set_array_elem(p1, "row_rank", 20, 0x7fffffff, true);
  assert_fo_ok(fo_dataset_open(out, NULL, &pd));
  assert_fo_ok(fo_dataset_open(clean, NULL, &pc));
  for (int64_t v = 20 * FO_RANK_BLOCK; v < 21 * FO_RANK_BLOCK; v++) {
    assert_fo_ok(fo_dataset_node_part(pd, v, &k, &r));
    assert_fo_ok(fo_dataset_node_part(pc, v, &kc, &rcl));
    assert_int_equal(k, kc);
    assert_int_equal(r, rcl);
  }
  fo_dataset_close(pc);
  /* a loader over all nodes with features and labels: every batch as over a clean copy */
  fo_loader_opts_init(&lo);
  lo.sampler.fanouts = fan;
  lo.sampler.n_hops = 2;
  lo.batch_size = 64;
  lo.num_workers = 0;
  lo.features = true;
  lo.labels = true;
  assert_fo_ok(fo_loader_create(pd, &lo, &L));
  for (int64_t i = 0; i < fo_loader_num_batches(L); i++) {
    assert_fo_ok(fo_loader_next(L, &b));
    fo_loader_release(L, b);
  }
  fo_loader_destroy(L);
  assert_fo_error(fo_dataset_verify(pd), FO_EFORMAT, "but the book says part 1");
  fo_dataset_close(pd);
  free(p1);
  free(out);
  free(clean);
  fot_ds_close(&g);
}

/* The sampler's unchecked row lookups (sampler.c parts_modes) stand on open's validation: a
 * book entry naming no part (possible with one part open: the other parts' counts are not
 * seen) keeps the checked pass, which refuses the node naming the book (FO_EFORMAT), and a
 * node of a part not open here is refused by the one check the one-part pass keeps. */
static void book_stray_checked(void **state) {
  fot_ds g = {0};
  char *out;
  fo_dataset_t *d;
  fo_dataset_opts op;
  fo_sampler_opts so;
  fo_sampler_t *s;
  fo_batch_t *b;
  const int32_t fan[2] = {5, 5};
  int k;
  int64_t r, v = -1, w = -1;
  (void)state;
  fot_ds_cora(&g, FO_FEATURES_FLOAT32);
  out = fot_path(g.tmp, "parts");
  partition_into(g.dir, out, 2, 0);
  assert_fo_ok(fo_dataset_open(out, NULL, &d));
  for (int64_t u = 0; u < fo_dataset_num_nodes(d) && (v < 0 || w < 0); u++) {
    assert_fo_ok(fo_dataset_node_part(d, u, &k, &r));
    if (k == 1 && v < 0) v = u;
    if (k == 0 && w < 0) w = u;
  }
  fo_dataset_close(d);
  assert_true(v >= 0 && w >= 0);
  fo_dataset_opts_init(&op);
  op.part = 0;
  fo_sampler_opts_init(&so);
  so.fanouts = fan;
  so.n_hops = 2;
  assert_fo_ok(fo_batch_create(&b));
  /* clean, part 0 open: v (part 1) refused by the one-part pass's owner check */
  assert_fo_ok(fo_dataset_open(out, &op, &d));
  assert_fo_ok(fo_sampler_create(d, &so, &s));
  assert_fo_error(fo_sampler_sample(s, &v, 1, 0, 0, b), FO_EINVAL, "which is not open here");
  fo_sampler_destroy(s);
  fo_dataset_close(d);
  /* v's book entry names part 9 of 2: open passes (part 0's count is unchanged) */
  {
    /* the uint8 book's byte (open reads no checksum; verify would name the file) */
    char *bp = fot_path(out, "book.npy"), *buf;
    size_t len;
    fo__npy_header h;
    buf = fot_read_file(bp, &len);
    assert_fo_ok(fo__npy_parse(buf, len, &h));
    assert_int_equal(h.itemsize, 1);
    buf[h.data_offset + (size_t)v] = 9;
    fot_write_bytes(bp, buf, len);
    free(buf);
    free(bp);
  }
  assert_fo_ok(fo_dataset_open(out, &op, &d));
  assert_int_equal(d->book_stray, 1);
  assert_fo_ok(fo_sampler_create(d, &so, &s));
  assert_fo_error(fo_sampler_sample(s, &v, 1, 0, 0, b), FO_EFORMAT, "is in part 9 of 2");
  fo_sampler_destroy(s);
  fo_dataset_close(d);
  fo_batch_destroy(b);
  free(out);
  fot_ds_close(&g);
}

/* ---- class 2: parts that do not belong together ------------------------------------------- */

static void mixed_parts_refused(void **state) {
  fot_ds g = {0};
  char *a, *b, *a1, *b1, cmd[4096];
  fo_dataset_t *pd = NULL;
  json_t *root;
  json_error_t jerr;
  char *mpath;
  (void)state;
  small_graph(&g);
  a = fot_path(g.tmp, "a");
  b = fot_path(g.tmp, "b");
  /* the same options twice: the same nodes per part, so only the partition id tells them apart */
  partition_into(g.dir, a, 2, 0);
  partition_into(g.dir, b, 2, 0);
  assert_fo_ok(fo_dataset_open(a, NULL, &pd));
  fo_dataset_close(pd);
  a1 = fot_path(a, "part-1");
  b1 = fot_path(b, "part-1");
  snprintf(cmd, sizeof cmd, "rm -rf '%s' && cp -r '%s' '%s'", a1, b1, a1);
  assert_int_equal(system(cmd), 0);
  assert_fo_error(fo_dataset_open(a, NULL, &pd), FO_EFORMAT, "another partitioning");
  assert_null(pd);
  assert_non_null(strstr(fo_last_error(), "part 1"));
  /* one part listed twice */
  mpath = fot_path(b, FO_MANIFEST);
  root = json_load_file(mpath, JSON_PRESERVE_ORDER, &jerr);
  assert_non_null(root);
  json_array_set_new(json_object_get(root, "parts"), 1, json_string("part-0"));
  assert_int_equal(json_dump_file(root, mpath, JSON_INDENT(2) | JSON_PRESERVE_ORDER), 0);
  json_decref(root);
  assert_fo_error(fo_dataset_open(b, NULL, &pd), FO_EFORMAT, "lists 'part-0' twice");
  /* parts swapped: part-0 says it is part 1 */
  root = json_load_file(mpath, JSON_PRESERVE_ORDER, &jerr);
  json_array_set_new(json_object_get(root, "parts"), 0, json_string("part-1"));
  json_array_set_new(json_object_get(root, "parts"), 1, json_string("part-0"));
  assert_int_equal(json_dump_file(root, mpath, JSON_INDENT(2) | JSON_PRESERVE_ORDER), 0);
  json_decref(root);
  assert_fo_error(fo_dataset_open(b, NULL, &pd), FO_EFORMAT, "says it is part 1 of 2");
  /* 'num_parts' that is not the parts listed (it was never read: opened as 2 parts) */
  root = json_load_file(mpath, JSON_PRESERVE_ORDER, &jerr);
  json_array_set_new(json_object_get(root, "parts"), 0, json_string("part-0"));
  json_array_set_new(json_object_get(root, "parts"), 1, json_string("part-1"));
  json_object_set_new(root, "num_parts", json_integer(3));
  assert_int_equal(json_dump_file(root, mpath, JSON_INDENT(2) | JSON_PRESERVE_ORDER), 0);
  json_decref(root);
  assert_fo_error(fo_dataset_open(b, NULL, &pd), FO_EFORMAT, "'num_parts' is 3, but 'parts' lists 2");
  assert_null(pd);
  free(mpath);
  free(a1);
  free(b1);
  free(a);
  free(b);
  fot_ds_close(&g);
}


/* ---- class 4: outputs that would replace their input -------------------------------------- */

static void output_is_input_refused(void **state) {
  fot_ds g = {0};
  fo_partition_opts po;
  fo_import_opts io;
  char *inner, *edges, *link, *dotdot;
  const char *in1[1];
  fo_dataset_t *d;
  (void)state;
  small_graph(&g);
  fo_partition_opts_init(&po);
  po.n_parts = 2;
  po.force = true;
  /* partition X -o X --force: the same directory, also through another spelling and a link */
  assert_fo_error(fo_partition(g.dir, g.dir, &po, NULL), FO_EINVAL, "is the input dataset");
  dotdot = malloc(strlen(g.dir) + 16);
  sprintf(dotdot, "%s/../g/", g.dir);
  assert_fo_error(fo_partition(g.dir, dotdot, &po, NULL), FO_EINVAL, "is the input dataset");
  link = fot_path(g.tmp, "link");
  assert_int_equal(symlink(g.dir, link), 0);
  assert_fo_error(fo_partition(link, g.dir, &po, NULL), FO_EINVAL, "is the input dataset");
  /* an output inside the input, and one that contains it */
  inner = fot_path(g.dir, "parts");
  assert_fo_error(fo_partition(g.dir, inner, &po, NULL), FO_EINVAL, "is inside the input");
  assert_false(exists(inner));
  /* the input dataset is intact */
  assert_fo_ok(fo_dataset_open(g.dir, NULL, &d));
  assert_fo_ok(fo_dataset_verify(d));
  fo_dataset_close(d);
  /* import of a file inside the output, with --force: replacing the output deletes the input */
  edges = fot_path(g.dir, "edges.txt");
  fot_write_file(edges, "0 1\n1 2\n");
  fo_import_opts_init(&io);
  io.force = true;
  in1[0] = edges;
  assert_fo_error(fo_import(in1, 1, g.dir, &io, NULL), FO_EINVAL, "contains the input");
  assert_true(exists(edges));
  io.features = edges;
  in1[0] = "/nonexistent-edges";
  assert_fo_error(fo_import(in1, 1, g.dir, &io, NULL), FO_EINVAL, "contains the features file");
  io.features = NULL;
  io.splits = "train=/nonexistent,val=";
  {
    char sp[4200];
    snprintf(sp, sizeof sp, "train=%s", edges);
    io.splits = sp;
    in1[0] = "/nonexistent-edges";
    assert_fo_error(fo_import(in1, 1, g.dir, &io, NULL), FO_EINVAL, "contains the split file");
  }
  free(edges);
  free(inner);
  free(link);
  free(dotdot);
  fot_ds_close(&g);
}

/* ---- class 5: interrupted writers ---------------------------------------------------------- */

static void stale_temporaries_removed(void **state) {
  fot_ds g = {0};
  char name[256], *dead, *alive, *remote, *junk, host[256] = "";
  fo_import_opts io;
  fot_edges e = {0};
  pid_t pid;
  int status;
  (void)state;
  small_graph(&g);
  fo_dataset_close(g.d);
  g.d = NULL;
  /* a pid that is certainly gone: a child that has exited and been reaped */
  pid = fork();
  assert_true(pid >= 0);
  if (pid == 0) _exit(0);
  assert_int_equal(waitpid(pid, &status, 0), pid);
  snprintf(name, sizeof name, ".g.tmp-%d-0-beef", (int)pid);
  dead = fot_path(g.tmp, name);
  assert_int_equal(mkdir(dead, 0777), 0);
  junk = fot_path(dead, "csc_indptr.npy");
  fot_write_file(junk, "half-written");
  /* a live writer (this test's parent process) keeps its directory */
  snprintf(name, sizeof name, ".g.tmp-%d-0-beef", (int)getppid());
  alive = fot_path(g.tmp, name);
  assert_int_equal(mkdir(alive, 0777), 0);
  /* a dead pid on another host (a shared file system) is not ours to judge */
  snprintf(name, sizeof name, ".g.tmp-%d-1-beef", (int)pid);
  remote = fot_path(g.tmp, name);
  assert_int_equal(mkdir(remote, 0777), 0);
  {
    char *owner = fot_path(remote, ".fanout-owner");
    char text[300];
    gethostname(host, sizeof host - 1);
    snprintf(text, sizeof text, "%d not-%s\n", (int)pid, host);
    fot_write_file(owner, text);
    free(owner);
  }
  /* the next import to the same output removes the dead writer's directory */
  fot_cycle(10, &e);
  fo_import_opts_init(&io);
  io.force = true;
  assert_fo_ok(fo_import_edges(e.src, e.dst, e.m, g.dir, &io, NULL));
  assert_false(exists(dead));
  assert_true(exists(alive));
  assert_true(exists(remote));
  /* the owner record does not end up in the published dataset */
  {
    char *owner = fot_path(g.dir, ".fanout-owner");
    assert_false(exists(owner));
    free(owner);
  }
  fot_edges_free(&e);
  free(junk);
  free(dead);
  free(alive);
  free(remote);
  fot_ds_close(&g);
}

/* ---- class 3: writers that accept what readers reject ------------------------------------- */

/* Import a 10-node cycle with node data files written into tmp; expect `code` and `substr`
 * (FO_OK: the dataset must then open). */
static void import_nodedata(const char *what, const char *descr, const void *data, size_t nbytes,
                            int64_t dim, fo_feature_dtype fdt, bool allow, int code,
                            const char *substr) {
  char *tmp = fot_tmpdir(), *file = fot_path(tmp, "data.npy"), *out = fot_path(tmp, "g");
  fot_edges e = {0};
  fo_import_opts io;
  const int64_t shape[2] = {10, dim};
  fot_cycle(10, &e);
  fot_write_npy(file, descr, dim ? 2 : 1, shape, data, nbytes);
  fo_import_opts_init(&io);
  if (!strcmp(what, "features")) io.features = file;
  else io.labels = file;
  io.feature_dtype = fdt;
  io.allow_nonfinite = allow;
  if (code == FO_OK) {
    fo_dataset_t *d;
    assert_fo_ok(fo_import_edges(e.src, e.dst, e.m, out, &io, NULL));
    assert_fo_ok(fo_dataset_open(out, NULL, &d));
    assert_fo_ok(fo_dataset_verify(d));
    fo_dataset_close(d);
  } else {
    assert_fo_error(fo_import_edges(e.src, e.dst, e.m, out, &io, NULL), code, substr);
    assert_non_null(strstr(fo_last_error(), file));
    assert_false(exists(out));
  }
  fot_edges_free(&e);
  free(file);
  free(out);
  fot_rmtree(tmp);
}

static void import_checks_values(void **state) {
  int64_t y[10] = {0, 1, 2, 1, 0, -1, 2, 1, 0, 1};
  float x[20];
  double xd[20];
  (void)state;
  /* a label of 2^40 would give num_classes 2^40 + 1, which no reader accepts */
  y[4] = (int64_t)1 << 40;
  import_nodedata("labels", "<i8", y, sizeof y, 0, FO_FEATURES_AUTO, false, FO_ERANGE,
                  "entry 4 is 1099511627776");
  y[4] = INT32_MAX;
  import_nodedata("labels", "<i8", y, sizeof y, 0, FO_FEATURES_AUTO, false, FO_ERANGE, "entry 4");
  y[4] = -2;
  import_nodedata("labels", "<i8", y, sizeof y, 0, FO_FEATURES_AUTO, false, FO_ERANGE, "entry 4 is -2");
  y[4] = INT32_MAX - 1; /* the largest class id a reader takes */
  import_nodedata("labels", "<i8", y, sizeof y, 0, FO_FEATURES_AUTO, false, FO_OK, NULL);
  /* NaN and infinity refused by default, kept with allow_nonfinite */
  for (int i = 0; i < 20; i++) x[i] = (float)i;
  x[7] = NAN;
  import_nodedata("features", "<f4", x, sizeof x, 2, FO_FEATURES_AUTO, false, FO_ERANGE,
                  "row 3, column 1 is nan");
  import_nodedata("features", "<f4", x, sizeof x, 2, FO_FEATURES_AUTO, true, FO_OK, NULL);
  x[7] = -INFINITY;
  import_nodedata("features", "<f4", x, sizeof x, 2, FO_FEATURES_FLOAT16, false, FO_ERANGE,
                  "row 3, column 1 is -inf");
  /* float64 beyond float32, and float32 beyond float16, reported as out of range */
  for (int i = 0; i < 20; i++) xd[i] = i;
  xd[13] = 1e300;
  import_nodedata("features", "<f8", xd, sizeof xd, 2, FO_FEATURES_AUTO, false, FO_ERANGE,
                  "row 6, column 1: float64 value 1e+300 is outside float32's range");
  import_nodedata("features", "<f8", xd, sizeof xd, 2, FO_FEATURES_AUTO, true, FO_OK, NULL);
  xd[13] = 1e5;
  import_nodedata("features", "<f8", xd, sizeof xd, 2, FO_FEATURES_FLOAT16, false, FO_ERANGE,
                  "row 6, column 1: value 100000 is outside float16's range");
  import_nodedata("features", "<f8", xd, sizeof xd, 2, FO_FEATURES_FLOAT32, false, FO_OK, NULL);
}

/* The Planetoid split over a label of 2^40 (loop bound before the fix: over ten minutes). */
static void planetoid_label_bound(void **state) {
  char *tmp = fot_tmpdir(), *lab = fot_path(tmp, "y.npy"), *out = fot_path(tmp, "g");
  char *content = fot_path(fot_data_dir(), "cora/cora.content.gz");
  char *cites = fot_path(fot_data_dir(), "cora/cora.cites");
  const char *in[2] = {content, cites};
  int64_t *y = calloc(2708, sizeof *y);
  const int64_t n = 2708;
  fo_import_opts io;
  uint64_t t0;
  (void)state;
  y[100] = (int64_t)1 << 40;
  fot_write_npy(lab, "<i8", 1, &n, y, 2708 * sizeof *y);
  fo_import_opts_init(&io);
  io.format = FO_FORMAT_PLANETOID;
  io.labels = lab;
  t0 = fo__now_ns();
  assert_fo_error(fo_import(in, 2, out, &io, NULL), FO_ERANGE, "entry 100 is 1099511627776");
  assert_true(fo__now_ns() - t0 < 30ull * 1000000000ull);
  assert_false(exists(out));
  /* labels with a gap (classes 0 and 1000000): the split is quick and the dataset opens */
  y[100] = 1000000;
  fot_write_npy(lab, "<i8", 1, &n, y, 2708 * sizeof *y);
  assert_fo_ok(fo_import(in, 2, out, &io, NULL));
  {
    fo_dataset_t *d;
    const int64_t *tr;
    int64_t ntr;
    assert_fo_ok(fo_dataset_open(out, NULL, &d));
    assert_fo_ok(fo_dataset_verify(d));
    assert_fo_ok(fo_dataset_split(d, "train", &tr, &ntr));
    assert_int_equal(ntr, 21); /* 20 of class 0 and the one node of class 1000000 */
    fo_dataset_close(d);
  }
  free(y);
  free(content);
  free(cites);
  free(lab);
  free(out);
  fot_rmtree(tmp);
}

/* ---- class 6: resource exhaustion ---------------------------------------------------------- */

static void memory_checked_up_front(void **state) {
  fot_edges e = {0};
  fo_import_opts io;
  char *tmp = fot_tmpdir(), *out = fot_path(tmp, "g");
  fot_ds g = {0};
  fo_sampler_opts so;
  fo_sampler_t *s;
  fo_batch_t *b;
  const int32_t fan[1] = {INT32_MAX};
  int64_t seed = 0;
  (void)state;
  /* a huge --num-nodes: the per-node arrays would need terabytes */
  fot_cycle(10, &e);
  fo_import_opts_init(&io);
  io.num_nodes = (int64_t)1 << 40;
  assert_fo_error(fo_import_edges(e.src, e.dst, e.m, out, &io, NULL), FO_ENOMEM, "needs");
  assert_non_null(strstr(fo_last_error(), "GiB available"));
  assert_false(exists(out));
  /* the same for a typed import's --num-nodes TYPE=N (it was FO_ENOMEM without the size) */
  {
    char *ef = fot_path(tmp, "typed.txt");
    FILE *f = fopen(ef, "w");
    fo_import_edge_type et = {"a", "r", "b", ef};
    fo_import_node_type nt = {.name = "a", .num_nodes = (int64_t)1 << 40};
    assert_non_null(f);
    fputs("0 1\n1 2\n", f);
    fclose(f);
    fo_import_opts_init(&io);
    io.edge_types = &et;
    io.n_edge_types = 1;
    io.node_type_opts = &nt;
    io.n_node_type_opts = 1;
    assert_fo_error(fo_import(NULL, 0, out, &io, NULL), FO_ENOMEM,
                    "typed import: 2 node types (node type 'a' has 1099511627776 nodes) needs");
    assert_non_null(strstr(fo_last_error(), "GiB available"));
    assert_false(exists(out));
    free(ef);
  }
  /* a fanout of 2^31 - 1 with replacement: 2^31 edges per seed (48 GiB); the machine is told
   * to have 1 GB so that the test does not depend on its size */
  small_graph(&g);
  fo_sampler_opts_init(&so);
  so.fanouts = fan;
  so.n_hops = 1;
  so.replace = true;
  assert_fo_ok(fo_sampler_create(g.d, &so, &s));
  assert_fo_ok(fo_batch_create(&b));
  setenv("FO_MEM_AVAILABLE", "1000000000", 1);
  assert_fo_error(fo_sampler_sample(s, &seed, 1, 0, 0, b), FO_ENOMEM, "batch edges needs");
  unsetenv("FO_MEM_AVAILABLE");
  fo_batch_destroy(b);
  fo_sampler_destroy(s);
  fot_ds_close(&g);
  fot_edges_free(&e);
  free(out);
  fot_rmtree(tmp);
}

/* One very long string id does not make every id that long on disk (offsets + bytes), the ids
 * read back, a corrupt offset is FO_EFORMAT at access, and the old fixed-width layout opens. */
static void string_ids_offsets(void **state) {
  char *tmp = fot_tmpdir(), *edges = fot_path(tmp, "e.txt"), *out = fot_path(tmp, "g");
  char *longid = malloc(100001), *text = malloc(100100);
  const char *in[1] = {edges};
  fo_import_opts io;
  fo_dataset_t *d;
  fo_array_info a;
  const char *s;
  size_t len;
  (void)state;
  memset(longid, 'z', 100000);
  longid[100000] = '\0';
  snprintf(text, 100100, "a b\nb %s\nc a\n", longid);
  fot_write_file(edges, text);
  fo_import_opts_init(&io);
  io.string_ids = true;
  assert_fo_ok(fo_import(in, 1, out, &io, NULL));
  assert_fo_ok(fo_dataset_open(out, NULL, &d));
  assert_int_equal(fo_dataset_node_orig_kind(d), FO_ORIG_STRING);
  assert_fo_ok(fo_dataset_array(d, "node_orig_bytes", &a));
  assert_int_equal(a.nbytes, 3 + 100000); /* not 4 x 100000 */
  assert_fo_ok(fo_dataset_node_orig_str(d, 2, &s, &len));
  assert_int_equal(len, 100000);
  assert_fo_ok(fo_dataset_node_orig_str(d, 3, &s, &len));
  assert_int_equal(len, 1);
  assert_memory_equal(s, "c", 1);
  assert_fo_ok(fo_dataset_verify(d));
  fo_dataset_close(d);
  /* a corrupt offset: refused when that id is read, and by verify */
  fot_set_array_elem(out, "node_orig_offsets", 2, 1 << 30, true);
  assert_fo_ok(fo_dataset_open(out, NULL, &d));
  assert_fo_error(fo_dataset_node_orig_str(d, 1, &s, &len), FO_EFORMAT, "node_orig_offsets[1..2]");
  assert_fo_error(fo_dataset_verify(d), FO_EFORMAT, "node_orig_offsets");
  fo_dataset_close(d);
  /* offsets[n] must be the byte count: checked on open */
  fot_set_array_elem(out, "node_orig_offsets", 4, 7, false);
  assert_fo_error(fo_dataset_open(out, NULL, &d), FO_EFORMAT, "offsets[4] = 7");
  free(longid);
  free(text);
  free(edges);
  free(out);
  fot_rmtree(tmp);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(partition_checks_arrays),
      cmocka_unit_test(quality_checks_parts),
      cmocka_unit_test(gather_checks_rows),
      cmocka_unit_test(book_stray_checked),
      cmocka_unit_test(mixed_parts_refused),
      cmocka_unit_test(output_is_input_refused),
      cmocka_unit_test(stale_temporaries_removed),
      cmocka_unit_test(import_checks_values),
      cmocka_unit_test(planetoid_label_bound),
      cmocka_unit_test(memory_checked_up_front),
      cmocka_unit_test(string_ids_offsets),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
