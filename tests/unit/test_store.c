/*
 * tests/unit/test_store.c: the dataset store: fo_dataset_open on good datasets and on every kind
 * of broken one (code and message), fo_dataset_verify against corruptions that open cannot see
 * (checksums, ranges, monotonicity, permutations, CSC/CSR agreement), the sampler on a corrupt
 * dataset (FO_EFORMAT naming the array and position, never a crash), the getters, huge-page
 * loading, and numpy's reading of every array (skipped when numpy is absent).
 *
 * Corruptions are made by rewriting .npy data and, where the test wants open (or the checksum
 * check) to pass, also the manifest's xxh64 (XXH64, seed 0, over the data bytes).
 */
#include "support.h"

#include "store/store_internal.h"

#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>

/* ---- helpers ------------------------------------------------------------------------------- */

/* The 7-edge graph used throughout: node 4 is isolated.
 *   input:  0:0->1 1:0->2 2:1->2 3:2->0 4:3->2 5:2->3 6:1->0
 *   CSC:    indptr [0,2,3,6,7,7], indices [2,1,0,0,1,3,2]
 *   CSR:    indptr [0,2,4,6,7,7], indices [1,2,2,0,0,3,2], eid [2,3,4,1,0,6,5] */
static const int64_t G_SRC[] = {0, 0, 1, 2, 3, 2, 1};
static const int64_t G_DST[] = {1, 2, 2, 0, 2, 3, 0};
#define G_M 7
#define G_N 5

typedef struct fixture {
  char *tmp; /* temp dir (removed at the end) */
  char *dir; /* tmp/g: the dataset */
} fixture;

static void fixture_make(fixture *f, const int64_t *src, const int64_t *dst, int64_t m, int64_t n,
                         bool csc, bool csr, fo_index_dtype dt) {
  fo_import_opts o;
  fo_import_opts_init(&o);
  o.csc = csc;
  o.csr = csr;
  o.index_dtype = dt;
  o.num_nodes = n;
  f->tmp = fot_tmpdir();
  f->dir = fot_path(f->tmp, "g");
  assert_fo_ok(fo_import_edges(src, dst, m, f->dir, &o, NULL));
}

static void fixture_g(fixture *f, bool csc, bool csr) {
  fixture_make(f, G_SRC, G_DST, G_M, G_N, csc, csr, FO_INDEX_AUTO);
}

static void fixture_free(fixture *f) {
  free(f->dir);
  fot_rmtree(f->tmp);
  f->dir = f->tmp = NULL;
}

static json_t *manifest_load(const char *dir) {
  char *p = fot_path(dir, FO_MANIFEST);
  json_error_t err;
  json_t *root = json_load_file(p, JSON_PRESERVE_ORDER, &err);
  if (!root) fail_msg("%s: %s", p, err.text);
  free(p);
  return root;
}

static void manifest_save(const char *dir, json_t *root) {
  char *p = fot_path(dir, FO_MANIFEST);
  if (json_dump_file(root, p, JSON_INDENT(2) | JSON_PRESERVE_ORDER) != 0) fail_msg("write %s", p);
  free(p);
  json_decref(root);
}

/* The manifest entry of array `name` (borrowed from root). */
static json_t *manifest_array(json_t *root, const char *name) {
  json_t *arrays = json_object_get(root, "arrays"), *e;
  size_t i;
  json_array_foreach(arrays, i, e) {
    if (!strcmp(json_string_value(json_object_get(e, "name")), name)) return e;
  }
  fail_msg("manifest has no array '%s'", name);
  return NULL;
}

/* Set field `key` of array `name`'s manifest entry. */
static void manifest_set_field(const char *dir, const char *name, const char *key, json_t *val) {
  json_t *root = manifest_load(dir);
  json_object_set_new(manifest_array(root, name), key, val);
  manifest_save(dir, root);
}

/* Set a top-level manifest key (val NULL: delete it). */
static void manifest_set_top(const char *dir, const char *key, json_t *val) {
  json_t *root = manifest_load(dir);
  if (val) json_object_set_new(root, key, val);
  else json_object_del(root, key);
  manifest_save(dir, root);
}

static int64_t elem(const fo_array_info *a, int64_t i) {
  if (a->itemsize == 4) return ((const int32_t *)a->data)[i];
  return ((const int64_t *)a->data)[i];
}

static int64_t array_elem(const fo_dataset_t *d, const char *name, int64_t i) {
  fo_array_info a;
  assert_fo_ok(fo_dataset_array(d, name, &a));
  assert_true(i >= 0 && i < a.shape[0]);
  return elem(&a, i);
}

static fo_dataset_t *open_ok(const char *dir) {
  fo_dataset_t *d = NULL;
  assert_fo_ok(fo_dataset_open(dir, NULL, &d));
  assert_non_null(d);
  return d;
}

/* fo_dataset_open must fail with `code`, a message containing `want`, and *out NULL. */
static void open_fails(const char *dir, int code, const char *want) {
  fo_dataset_t *d = (fo_dataset_t *)&d; /* garbage: open must reset it */
  assert_fo_error(fo_dataset_open(dir, NULL, &d), code, want);
  assert_null(d);
}

/* Open, then verify must fail with FO_EFORMAT and `want`. */
static void verify_fails(const char *dir, const char *want) {
  fo_dataset_t *d = open_ok(dir);
  assert_fo_error(fo_dataset_verify(d), FO_EFORMAT, want);
  assert_non_null(strstr(fo_last_error(), "verify '"));
  fo_dataset_close(d);
}

/* ---- opening good datasets ----------------------------------------------------------------- */

static void open_good_datasets(void **state) {
  static const struct {
    bool csc, csr;
    fo_index_dtype dt;
  } cases[] = {{true, false, FO_INDEX_AUTO},  {false, true, FO_INDEX_AUTO},
               {true, true, FO_INDEX_AUTO},   {true, true, FO_INDEX_INT64},
               {true, true, FO_INDEX_INT32}};
  (void)state;
  for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
    fixture f;
    fo_dataset_t *d;
    fo_topology t;
    fixture_make(&f, G_SRC, G_DST, G_M, G_N, cases[c].csc, cases[c].csr, cases[c].dt);
    d = open_ok(f.dir);
    assert_int_equal(fo_dataset_num_nodes(d), G_N);
    assert_int_equal(fo_dataset_num_edges(d), G_M);
    assert_string_equal(fo_dataset_path(d), f.dir);
    assert_non_null(strstr(fo_dataset_manifest(d), "\"fanout-dataset\""));
    assert_int_equal(fo_dataset_has_topology(d, FO_EDGE_DIR_IN), cases[c].csc);
    assert_int_equal(fo_dataset_has_topology(d, FO_EDGE_DIR_OUT), cases[c].csr);
    assert_false(fo_dataset_has_topology(d, (fo_edge_dir)7));
    if (cases[c].csc) {
      static const int64_t ip[] = {0, 2, 3, 6, 7, 7}, ix[] = {2, 1, 0, 0, 1, 3, 2};
      assert_fo_ok(fo_dataset_topology(d, FO_EDGE_DIR_IN, &t));
      assert_int_equal(t.dir, FO_EDGE_DIR_IN);
      assert_int_equal(t.n_nodes, G_N);
      assert_int_equal(t.n_edges, G_M);
      assert_int_equal(t.indices_bytes, cases[c].dt == FO_INDEX_INT64 ? 8 : 4);
      assert_null(t.eid);
      assert_int_equal(t.eid_bytes, 0);
      assert_string_equal(t.indices_name, "csc_indices");
      assert_string_equal(t.indptr_name, "csc_indptr");
      assert_memory_equal(t.indptr, ip, sizeof ip);
      for (int i = 0; i < G_M; i++)
        assert_int_equal(t.indices_bytes == 4 ? ((const int32_t *)t.indices)[i]
                                              : ((const int64_t *)t.indices)[i],
                         ix[i]);
    } else {
      assert_fo_error(fo_dataset_topology(d, FO_EDGE_DIR_IN, &t), FO_EINVAL, "--csc");
    }
    if (cases[c].csr) {
      static const int64_t ip[] = {0, 2, 4, 6, 7, 7}, ix[] = {1, 2, 2, 0, 0, 3, 2};
      static const int64_t eid[] = {2, 3, 4, 1, 0, 6, 5};
      assert_fo_ok(fo_dataset_topology(d, FO_EDGE_DIR_OUT, &t));
      assert_int_equal(t.dir, FO_EDGE_DIR_OUT);
      assert_string_equal(t.indices_name, "csr_indices");
      assert_memory_equal(t.indptr, ip, sizeof ip);
      for (int i = 0; i < G_M; i++)
        assert_int_equal(t.indices_bytes == 4 ? ((const int32_t *)t.indices)[i]
                                              : ((const int64_t *)t.indices)[i],
                         ix[i]);
      if (cases[c].csc) {
        assert_non_null(t.eid);
        assert_string_equal(t.eid_name, "csr_eid");
        for (int i = 0; i < G_M; i++)
          assert_int_equal(t.eid_bytes == 4 ? ((const int32_t *)t.eid)[i]
                                            : ((const int64_t *)t.eid)[i],
                           eid[i]);
      } else {
        assert_null(t.eid); /* CSR positions are the edge ids */
      }
    } else {
      assert_fo_error(fo_dataset_topology(d, FO_EDGE_DIR_OUT, &t), FO_EINVAL, "--csr");
    }
    assert_fo_error(fo_dataset_topology(d, (fo_edge_dir)2, &t), FO_EINVAL, "direction 2");
    assert_fo_ok(fo_dataset_verify(d));
    fo_dataset_close(d);
    fixture_free(&f);
  }
}

static void open_empty_graph(void **state) {
  fixture f;
  fo_dataset_t *d;
  fo_degree_stats st;
  (void)state;
  fixture_make(&f, NULL, NULL, 0, 3, true, true, FO_INDEX_AUTO);
  d = open_ok(f.dir);
  assert_int_equal(fo_dataset_num_nodes(d), 3);
  assert_int_equal(fo_dataset_num_edges(d), 0);
  assert_fo_ok(fo_dataset_verify(d));
  assert_fo_ok(fo_dataset_degree_stats(d, FO_EDGE_DIR_IN, &st));
  assert_int_equal(st.max, 0);
  assert_int_equal(st.n_zero, 3);
  fo_dataset_close(d);
  fixture_free(&f);
  /* No nodes at all. */
  fixture_make(&f, NULL, NULL, 0, 0, true, false, FO_INDEX_AUTO);
  d = open_ok(f.dir);
  assert_int_equal(fo_dataset_num_nodes(d), 0);
  assert_fo_ok(fo_dataset_verify(d));
  assert_fo_ok(fo_dataset_degree_stats(d, FO_EDGE_DIR_IN, &st));
  assert_int_equal(st.min, 0);
  assert_int_equal(st.max, 0);
  assert_true(st.mean == 0.0);
  fo_dataset_close(d);
  fixture_free(&f);
}

static void open_bad_arguments(void **state) {
  fo_dataset_t *d = (fo_dataset_t *)&d;
  fo_dataset_opts o;
  fixture f;
  (void)state;
  assert_fo_error(fo_dataset_open(NULL, NULL, &d), FO_EINVAL, "path is NULL");
  assert_null(d);
  assert_fo_error(fo_dataset_open("x", NULL, NULL), FO_EINVAL, "out is NULL");
  fixture_g(&f, true, false);
  fo_dataset_opts_init(&o);
  assert_int_equal(o.load, FO_LOAD_MMAP);
  o.load = (fo_load_mode)9;
  d = (fo_dataset_t *)&d;
  assert_fo_error(fo_dataset_open(f.dir, &o, &d), FO_EINVAL, "unknown load mode 9");
  assert_null(d);
  fo_dataset_close(NULL);
  fixture_free(&f);
}

/* ---- open: every error path ---------------------------------------------------------------- */

static void open_path_errors(void **state) {
  char *tmp = fot_tmpdir(), *missing = fot_path(tmp, "nope"), *file = fot_path(tmp, "file");
  char *empty = fot_path(tmp, "empty");
  (void)state;
  /* Missing path: the OS error, with the path. */
  open_fails(missing, FO_EIO, "No such file or directory");
  assert_non_null(strstr(fo_last_error(), missing));
  assert_non_null(strstr(fo_last_error(), "open dataset '"));
  /* A regular file is not a directory. */
  fot_write_file(file, "hello\n");
  open_fails(file, FO_EINVAL, "is not a directory");
  assert_non_null(strstr(fo_last_error(), file));
  /* A directory without fanout.json. */
  assert_int_equal(mkdir(empty, 0755), 0);
  open_fails(empty, FO_EINVAL, "is not a fanout dataset (no fanout.json)");
  free(missing);
  free(file);
  free(empty);
  fot_rmtree(tmp);
}

static void open_manifest_errors(void **state) {
  fixture f;
  char *mpath;
  (void)state;
  fixture_g(&f, true, true);
  mpath = fot_path(f.dir, FO_MANIFEST);

  fot_write_file(mpath, "{\"format\": \"fanout-dataset\",\n \"format_version\": 1,\n oops }");
  open_fails(f.dir, FO_EFORMAT, "fanout.json: line 3");
  fot_write_file(mpath, "");
  open_fails(f.dir, FO_EFORMAT, "fanout.json: line");
  fot_write_file(mpath, "[1, 2, 3]");
  open_fails(f.dir, FO_EFORMAT, "not a JSON object");
  fixture_free(&f);

  fixture_g(&f, true, true);
  manifest_set_top(f.dir, "format", json_string("other-dataset"));
  open_fails(f.dir, FO_EFORMAT, "'format' is not \"fanout-dataset\"");
  manifest_set_top(f.dir, "format", NULL);
  open_fails(f.dir, FO_EFORMAT, "'format' is not");
  manifest_set_top(f.dir, "format", json_string("fanout-dataset"));
  manifest_set_top(f.dir, "format_version", json_integer(4));
  open_fails(f.dir, FO_EFORMAT, "unsupported format_version 4");
  manifest_set_top(f.dir, "format_version", json_integer(3)); /* typed with labels-only types */
  open_fails(f.dir, FO_EFORMAT, "format_version 3 lacks 'node_types'");
  manifest_set_top(f.dir, "format_version", json_integer(2));
  open_fails(f.dir, FO_EFORMAT, "format_version 2 lacks 'node_types'");
  manifest_set_top(f.dir, "format_version", json_string("1"));
  open_fails(f.dir, FO_EFORMAT, "unsupported format_version");
  manifest_set_top(f.dir, "format_version", json_integer(1));
  /* Counts. */
  manifest_set_top(f.dir, "num_nodes", NULL);
  open_fails(f.dir, FO_EFORMAT, "missing 'num_nodes'");
  manifest_set_top(f.dir, "num_nodes", json_integer(-5));
  open_fails(f.dir, FO_EFORMAT, "'num_nodes' is not a non-negative integer");
  manifest_set_top(f.dir, "num_nodes", json_integer(INT64_MAX));
  open_fails(f.dir, FO_EFORMAT, "num_nodes too large");
  /* num_nodes disagreeing with indptr's length. */
  manifest_set_top(f.dir, "num_nodes", json_integer(G_N + 1));
  open_fails(f.dir, FO_EFORMAT, "csc_indptr.npy: must be int64 [7], is <i8 [6]");
  manifest_set_top(f.dir, "num_nodes", json_integer(G_N));
  manifest_set_top(f.dir, "num_edges", json_real(7.0));
  open_fails(f.dir, FO_EFORMAT, "'num_edges' is not a non-negative integer");
  manifest_set_top(f.dir, "num_edges", json_integer(G_M + 1));
  open_fails(f.dir, FO_EFORMAT, "csc_indices.npy: must be int32 or int64 [8]");
  manifest_set_top(f.dir, "num_edges", json_integer(G_M));
  /* Structure. */
  manifest_set_top(f.dir, "arrays", json_object());
  open_fails(f.dir, FO_EFORMAT, "missing 'arrays' list");
  fixture_free(&f);

  fixture_g(&f, true, true);
  {
    json_t *root = manifest_load(f.dir);
    json_array_append_new(json_object_get(root, "arrays"), json_integer(3));
    manifest_save(f.dir, root);
  }
  open_fails(f.dir, FO_EFORMAT, "arrays[6] is not an object");
  fixture_free(&f);

  fixture_g(&f, true, true);
  {
    json_t *root = manifest_load(f.dir), *arrays = json_object_get(root, "arrays");
    json_array_append(arrays, json_array_get(arrays, 0));
    manifest_save(f.dir, root);
  }
  open_fails(f.dir, FO_EFORMAT, "array 'csc_indptr' listed twice");
  fixture_free(&f);

  fixture_g(&f, true, true);
  manifest_set_top(f.dir, "topology", NULL);
  open_fails(f.dir, FO_EFORMAT, "missing 'topology'");
  manifest_set_top(f.dir, "topology", json_object());
  open_fails(f.dir, FO_EFORMAT, "neither 'csc' nor 'csr'");
  manifest_set_top(f.dir, "topology",
                   json_pack("{s:{s:s, s:s}}", "csc", "indptr", "csc_indptr", "indices", "nothere"));
  open_fails(f.dir, FO_EFORMAT, "topology 'csc': names an array that is not listed");
  manifest_set_top(f.dir, "topology", json_pack("{s:{s:s}}", "csc", "indptr", "csc_indptr"));
  open_fails(f.dir, FO_EFORMAT, "topology 'csc': needs 'indptr' and 'indices'");
  /* indices used as indptr: wrong dtype and length. */
  manifest_set_top(f.dir, "topology",
                   json_pack("{s:{s:s, s:s}}", "csc", "indptr", "csc_indices", "indices", "csc_indices"));
  open_fails(f.dir, FO_EFORMAT, "csc_indices.npy: must be int64 [6], is <i4 [7]");
  /* Both directions without an eid array: edge ids undefined. */
  manifest_set_top(f.dir, "topology",
                   json_pack("{s:{s:s, s:s}, s:{s:s, s:s}}", "csc", "indptr", "csc_indptr", "indices",
                             "csc_indices", "csr", "indptr", "csr_indptr", "indices", "csr_indices"));
  open_fails(f.dir, FO_EFORMAT, "both csc and csr lack an 'eid' array");
  /* eid that is not an edge-length integer array. */
  manifest_set_top(f.dir, "topology",
                   json_pack("{s:{s:s, s:s, s:s}}", "csr", "indptr", "csr_indptr", "indices",
                             "csr_indices", "eid", "csr_indptr"));
  open_fails(f.dir, FO_EFORMAT, "csr_indptr.npy: must be int32 or int64 [7]");
  fixture_free(&f);

  /* node_orig must name an int64 or bytes array of n entries. */
  fixture_g(&f, true, true);
  manifest_set_top(f.dir, "node_orig", json_string("csc_indices"));
  open_fails(f.dir, FO_EFORMAT, "'node_orig' must name an int64 or bytes array of 5 nodes");
  manifest_set_top(f.dir, "node_orig", json_string("missing_array"));
  open_fails(f.dir, FO_EFORMAT, "'node_orig' must name");
  manifest_set_top(f.dir, "node_orig", json_integer(1));
  open_fails(f.dir, FO_EFORMAT, "'node_orig' must name");
  free(mpath);
  fixture_free(&f);
}

static void open_array_entry_errors(void **state) {
  fixture f;
  (void)state;
  fixture_g(&f, true, true);
  /* A file outside the directory is never opened. */
  manifest_set_field(f.dir, "csc_indices", "file", json_string("../g/csc_indices.npy"));
  open_fails(f.dir, FO_EFORMAT, "array 'csc_indices': bad or missing 'file'");
  manifest_set_field(f.dir, "csc_indices", "file", json_string("sub/csc_indices.npy"));
  open_fails(f.dir, FO_EFORMAT, "array 'csc_indices': bad or missing 'file'");
  manifest_set_field(f.dir, "csc_indices", "file", json_string("/etc/passwd"));
  open_fails(f.dir, FO_EFORMAT, "array 'csc_indices': bad or missing 'file'");
  manifest_set_field(f.dir, "csc_indices", "file", json_string(".."));
  open_fails(f.dir, FO_EFORMAT, "array 'csc_indices': bad or missing 'file'");
  manifest_set_field(f.dir, "csc_indices", "file", json_string("."));
  open_fails(f.dir, FO_EFORMAT, "array 'csc_indices': bad or missing 'file'");
  manifest_set_field(f.dir, "csc_indices", "file", json_string(""));
  open_fails(f.dir, FO_EFORMAT, "array 'csc_indices': bad or missing 'file'");
  manifest_set_field(f.dir, "csc_indices", "file", json_integer(4));
  open_fails(f.dir, FO_EFORMAT, "array 'csc_indices': bad or missing 'file'");
  manifest_set_field(f.dir, "csc_indices", "file", json_string("csc_indices.npy"));
  /* Names. */
  manifest_set_field(f.dir, "csc_indices", "name", json_string("a/b"));
  open_fails(f.dir, FO_EFORMAT, "arrays[1]: bad or missing 'name'");
  fixture_free(&f);

  fixture_g(&f, true, true);
  manifest_set_field(f.dir, "csc_indices", "xxh64", json_string("123"));
  open_fails(f.dir, FO_EFORMAT, "array 'csc_indices': bad 'dtype', 'shape' or 'xxh64'");
  manifest_set_field(f.dir, "csc_indices", "xxh64", json_string("zzzzzzzzzzzzzzzz"));
  open_fails(f.dir, FO_EFORMAT, "bad xxh64 'zzzzzzzzzzzzzzzz'");
  fixture_free(&f);

  fixture_g(&f, true, true);
  manifest_set_field(f.dir, "csc_indices", "shape", json_pack("[i, i, i]", 1, 2, 3));
  open_fails(f.dir, FO_EFORMAT, "bad 'dtype', 'shape' or 'xxh64'");
  manifest_set_field(f.dir, "csc_indices", "shape", json_pack("[i]", -7));
  open_fails(f.dir, FO_EFORMAT, "array 'csc_indices': shape[0] is not a non-negative integer");
  manifest_set_field(f.dir, "csc_indices", "shape", json_pack("[i]", 7));
  manifest_set_field(f.dir, "csc_indices", "dtype", json_string("<c8"));
  open_fails(f.dir, FO_EFORMAT, "array 'csc_indices': unsupported dtype '<c8'");
  fixture_free(&f);
}

static void open_npy_file_errors(void **state) {
  fixture f;
  char *path;
  char *buf;
  size_t len;
  (void)state;
  /* The array's file is missing. */
  fixture_g(&f, true, true);
  path = fot_path(f.dir, "csc_indices.npy");
  assert_int_equal(unlink(path), 0);
  open_fails(f.dir, FO_EIO, "No such file or directory");
  assert_non_null(strstr(fo_last_error(), path));
  /* A directory in its place. */
  assert_int_equal(mkdir(path, 0755), 0);
  open_fails(f.dir, FO_EFORMAT, "is not a regular file");
  assert_int_equal(rmdir(path), 0);
  /* An empty file. */
  fot_write_file(path, "");
  open_fails(f.dir, FO_EFORMAT, "csc_indices.npy: not an .npy file (bad magic)");
  free(path);
  fixture_free(&f);

  /* Truncated: shorter than header + shape say; and longer. */
  fixture_g(&f, true, true);
  path = fot_path(f.dir, "csc_indices.npy");
  buf = fot_read_file(path, &len);
  assert_int_equal(len, 128 + 7 * 4);
  fot_write_bytes(path, buf, len - 3);
  open_fails(f.dir, FO_EFORMAT, "csc_indices.npy: file has 153 bytes, its header and shape need 156 (truncated)");
  fot_write_bytes(path, buf, 100); /* inside the header */
  open_fails(f.dir, FO_EFORMAT, "csc_indices.npy: truncated .npy header");
  {
    char *big = calloc(1, len + 8);
    memcpy(big, buf, len);
    fot_write_bytes(path, big, len + 8);
    free(big);
  }
  open_fails(f.dir, FO_EFORMAT, "csc_indices.npy: file has 164 bytes, its header and shape need 156");
  /* Bad magic. */
  buf[1] = 'X';
  fot_write_bytes(path, buf, len);
  open_fails(f.dir, FO_EFORMAT, "csc_indices.npy: not an .npy file (bad magic)");
  free(buf);
  free(path);
  fixture_free(&f);
}

/* Replace the .npy header of array `name` (data kept) by one built from `dict`, padded so the
 * header is `total` bytes long. */
static void rewrite_header(const char *dir, const char *name, const char *dict, size_t total) {
  char file[256], *path, *buf, *out;
  size_t len, dl = strlen(dict);
  fo__npy_header h;
  snprintf(file, sizeof file, "%s.npy", name);
  path = fot_path(dir, file);
  buf = fot_read_file(path, &len);
  assert_fo_ok(fo__npy_parse(buf, len, &h));
  assert_true(10 + dl + 1 <= total);
  out = malloc(total + len - h.data_offset);
  memcpy(out, "\x93NUMPY\x01\x00", 8);
  out[8] = (char)((total - 10) & 0xff);
  out[9] = (char)((total - 10) >> 8);
  memcpy(out + 10, dict, dl);
  memset(out + 10 + dl, ' ', total - 10 - dl - 1);
  out[total - 1] = '\n';
  memcpy(out + total, buf + h.data_offset, len - h.data_offset);
  fot_write_bytes(path, out, total + len - h.data_offset);
  free(out);
  free(buf);
  free(path);
}

static void open_header_disagrees(void **state) {
  fixture f;
  (void)state;
  /* dtype in the .npy differs from the manifest. */
  fixture_g(&f, true, true);
  manifest_set_field(f.dir, "csc_indptr", "dtype", json_string("<u8"));
  open_fails(f.dir, FO_EFORMAT, "csc_indptr.npy: dtype '<i8' but the manifest says '<u8'");
  fixture_free(&f);
  fixture_g(&f, true, true);
  rewrite_header(f.dir, "csc_indices", "{'descr': '<u4', 'fortran_order': False, 'shape': (7,), }", 128);
  open_fails(f.dir, FO_EFORMAT, "csc_indices.npy: dtype '<u4' but the manifest says '<i4'");
  fixture_free(&f);
  /* shape differs. */
  fixture_g(&f, true, true);
  manifest_set_field(f.dir, "csc_indices", "shape", json_pack("[i]", 6));
  open_fails(f.dir, FO_EFORMAT, "csc_indices.npy: shape in the file differs from the manifest");
  manifest_set_field(f.dir, "csc_indices", "shape", json_pack("[i, i]", 7, 1));
  open_fails(f.dir, FO_EFORMAT, "csc_indices.npy: shape in the file differs from the manifest");
  fixture_free(&f);
  fixture_g(&f, true, true);
  rewrite_header(f.dir, "csc_indices", "{'descr': '<i4', 'fortran_order': False, 'shape': (1, 7), }", 128);
  open_fails(f.dir, FO_EFORMAT, "csc_indices.npy: shape in the file differs from the manifest");
  /* Fortran order in 2-D (1-D Fortran is the same bytes and fine). */
  manifest_set_field(f.dir, "csc_indices", "shape", json_pack("[i, i]", 1, 7));
  rewrite_header(f.dir, "csc_indices", "{'descr': '<i4', 'fortran_order': True, 'shape': (1, 7), }", 128);
  open_fails(f.dir, FO_EFORMAT, "csc_indices.npy: Fortran order is not supported");
  fixture_free(&f);
  fixture_g(&f, true, true);
  rewrite_header(f.dir, "csc_indices", "{'descr': '<i4', 'fortran_order': True, 'shape': (7,), }", 128);
  fo_dataset_close(open_ok(f.dir));
  /* Data not 8-byte aligned. */
  rewrite_header(f.dir, "csc_indices", "{'descr': '<i4', 'fortran_order': False, 'shape': (7,), }", 124);
  open_fails(f.dir, FO_EFORMAT, "csc_indices.npy: data offset 124 is not 8-byte aligned");
  fixture_free(&f);
}

static void open_indptr_ends(void **state) {
  fixture f;
  (void)state;
  fixture_g(&f, true, true);
  fot_set_array_elem(f.dir, "csc_indptr", 0, 1, false);
  open_fails(f.dir, FO_EFORMAT, "csc_indptr.npy: indptr[0] = 1 and indptr[5] = 7, expected 0 and 7");
  fot_set_array_elem(f.dir, "csc_indptr", 0, 0, false);
  fo_dataset_close(open_ok(f.dir));
  fot_set_array_elem(f.dir, "csr_indptr", 5, 6, true); /* even with a matching checksum */
  open_fails(f.dir, FO_EFORMAT, "csr_indptr.npy: indptr[0] = 0 and indptr[5] = 6, expected 0 and 7");
  fot_set_array_elem(f.dir, "csr_indptr", 5, 8, false);
  open_fails(f.dir, FO_EFORMAT, "indptr[5] = 8");
  fot_set_array_elem(f.dir, "csr_indptr", 5, -1, false);
  open_fails(f.dir, FO_EFORMAT, "indptr[5] = -1");
  fixture_free(&f);
}

/* ---- verify -------------------------------------------------------------------------------- */

static void verify_good(void **state) {
  fixture f;
  fot_edges e;
  fo_dataset_t *d;
  char *dir;
  (void)state;
  fixture_g(&f, true, true);
  d = open_ok(f.dir);
  fo_clear_error();
  assert_fo_ok(fo_dataset_verify(d));
  fo_dataset_close(d);
  fixture_free(&f);
  /* A random multigraph with self loops and repeats, int64 indices, both directions. */
  fot_random(50, 400, 7, &e);
  fot_dataset(&e, true, true, FO_INDEX_INT64, &dir, &d);
  assert_fo_ok(fo_dataset_verify(d));
  fo_dataset_close(d);
  fot_rmtree(dir);
  fot_edges_free(&e);
}

static void verify_checksum(void **state) {
  fixture f;
  char *path, *buf;
  size_t len;
  fo_dataset_t *d;
  (void)state;
  fixture_g(&f, true, true);
  /* One flipped bit in csc_indices' data: open passes (it reads no data), verify does not. */
  path = fot_path(f.dir, "csc_indices.npy");
  buf = fot_read_file(path, &len);
  buf[128 + 9] ^= 0x01; /* csc_indices[2]: 0 -> 256 */
  fot_write_bytes(path, buf, len);
  d = open_ok(f.dir);
  assert_fo_error(fo_dataset_verify(d), FO_EFORMAT, "csc_indices.npy: xxh64 ");
  assert_non_null(strstr(fo_last_error(), ", manifest says "));
  fo_dataset_close(d);
  /* A flipped bit in the header's padding changes nothing: the hash covers only the data. */
  buf[128 + 9] ^= 0x01;
  assert_int_equal(buf[120], ' ');
  buf[120] = '\t';
  fot_write_bytes(path, buf, len);
  d = open_ok(f.dir);
  assert_fo_ok(fo_dataset_verify(d));
  fo_dataset_close(d);
  free(buf);
  free(path);
  /* A wrong checksum in the manifest is caught too. */
  manifest_set_field(f.dir, "csr_eid", "xxh64", json_string("0123456789abcdef"));
  verify_fails(f.dir, "csr_eid.npy: xxh64 ");
  assert_non_null(strstr(fo_last_error(), "manifest says 0123456789abcdef"));
  fixture_free(&f);
}

static void verify_index_range(void **state) {
  fixture f;
  (void)state;
  fixture_g(&f, true, true);
  fot_set_array_elem(f.dir, "csc_indices", 3, 99, true);
  verify_fails(f.dir, "csc_indices[3] = 99 is not a node id in [0, 5)");
  fot_set_array_elem(f.dir, "csc_indices", 3, -1, true);
  verify_fails(f.dir, "csc_indices[3] = -1 is not a node id in [0, 5)");
  fot_set_array_elem(f.dir, "csc_indices", 3, 5, true);
  verify_fails(f.dir, "csc_indices[3] = 5 is not a node id in [0, 5)");
  fot_set_array_elem(f.dir, "csc_indices", 3, 0, true);
  fot_set_array_elem(f.dir, "csr_indices", 6, 5, true);
  verify_fails(f.dir, "csr_indices[6] = 5 is not a node id in [0, 5)");
  fixture_free(&f);
  /* int64 indices: a value past int32 too. */
  fixture_make(&f, G_SRC, G_DST, G_M, G_N, true, false, FO_INDEX_INT64);
  fot_set_array_elem(f.dir, "csc_indices", 6, (int64_t)1 << 40, true);
  verify_fails(f.dir, "csc_indices[6] = 1099511627776 is not a node id in [0, 5)");
  fixture_free(&f);
}

static void verify_indptr_decreases(void **state) {
  fixture f;
  fo_dataset_t *d;
  fo_degree_stats st;
  (void)state;
  fixture_g(&f, true, true);
  /* [0,2,3,6,7,7] -> [0,2,1,6,7,7]: ends intact so open passes. */
  fot_set_array_elem(f.dir, "csc_indptr", 2, 1, true);
  verify_fails(f.dir, "csc_indptr: decreases at position 1 (2 > 1)");
  d = open_ok(f.dir);
  assert_fo_error(fo_dataset_degree_stats(d, FO_EDGE_DIR_IN, &st), FO_EFORMAT,
                  "csc_indptr: indptr decreases at position 1 (2 > 1)");
  assert_fo_ok(fo_dataset_degree_stats(d, FO_EDGE_DIR_OUT, &st));
  fo_dataset_close(d);
  fot_set_array_elem(f.dir, "csc_indptr", 2, 3, true);
  fot_set_array_elem(f.dir, "csr_indptr", 4, 8, true); /* [0,2,4,6,8,7] */
  verify_fails(f.dir, "csr_indptr: decreases at position 4 (8 > 7)");
  fixture_free(&f);
}

static void verify_eid_permutation(void **state) {
  fixture f;
  (void)state;
  fixture_g(&f, true, true);
  /* csr_eid = [2,3,4,1,0,6,5] */
  fot_set_array_elem(f.dir, "csr_eid", 1, 2, true);
  verify_fails(f.dir, "csr_eid[1] = 2: repeated (not a permutation)");
  fot_set_array_elem(f.dir, "csr_eid", 1, 3, true);
  fot_set_array_elem(f.dir, "csr_eid", 6, 7, true);
  verify_fails(f.dir, "csr_eid[6] = 7: not an edge id");
  fot_set_array_elem(f.dir, "csr_eid", 6, -3, true);
  verify_fails(f.dir, "csr_eid[6] = -3: not an edge id");
  fot_set_array_elem(f.dir, "csr_eid", 6, 5, true);
  fo_dataset_close(open_ok(f.dir));
  fixture_free(&f);
}

static void verify_csc_csr_agree(void **state) {
  fixture f;
  (void)state;
  fixture_g(&f, true, true);
  /* A different (valid) target in the CSR: row 0 = [1, 2] -> [3, 2]. */
  fot_set_array_elem(f.dir, "csr_indices", 0, 3, true);
  verify_fails(f.dir, "csr_eid[0] = 2: edge (0, 3) differs in csc_indices");
  fot_set_array_elem(f.dir, "csr_indices", 0, 1, true);
  fo_dataset_close(open_ok(f.dir));
  /* Still a permutation, but two edge ids swapped: [2,3,...] -> [3,2,...]. */
  fot_set_array_elem(f.dir, "csr_eid", 0, 3, true);
  fot_set_array_elem(f.dir, "csr_eid", 1, 2, true);
  verify_fails(f.dir, "csr_eid[0] = 3: edge (0, 1) differs in csc_indices");
  fot_set_array_elem(f.dir, "csr_eid", 0, 2, true);
  fot_set_array_elem(f.dir, "csr_eid", 1, 3, true);
  /* A different source in the CSC: column 2 = [0,1,3] -> [0,1,2]. */
  fot_set_array_elem(f.dir, "csc_indices", 5, 2, true);
  verify_fails(f.dir, "differs in csc_indices");
  fixture_free(&f);
}

/* ---- the sampler on a corrupt dataset ------------------------------------------------------ */

static int sample_path(fo_dataset_t *d, int32_t hops, fo_edge_dir dir, fo_batch_t *b) {
  int32_t fan[16];
  fo_sampler_opts so;
  fo_sampler_t *s;
  int64_t seed = 0;
  int rc;
  for (int i = 0; i < 16; i++) fan[i] = -1;
  fo_sampler_opts_init(&so);
  so.fanouts = fan;
  so.n_hops = hops;
  so.edge_dir = dir;
  assert_fo_ok(fo_sampler_create(d, &so, &s));
  rc = fo_sampler_sample(s, &seed, 1, 0, 0, b);
  fo_sampler_destroy(s);
  return rc;
}

static void sampler_on_corrupt_indices(void **state) {
  fot_edges e;
  fixture f;
  fo_dataset_t *d;
  fo_batch_t *b;
  int64_t pos;
  char want[128];
  (void)state;
  /* Path 0-1-...-9 both ways; node 9's only in-neighbor (8) becomes 1000. */
  fot_path_graph(10, &e);
  for (int dt = 0; dt < 2; dt++) {
    fixture_make(&f, e.src, e.dst, e.m, e.n, true, true, dt ? FO_INDEX_INT64 : FO_INDEX_INT32);
    d = open_ok(f.dir);
    pos = array_elem(d, "csc_indptr", 9);
    assert_int_equal(array_elem(d, "csc_indices", pos), 8);
    fo_dataset_close(d);
    fot_set_array_elem(f.dir, "csc_indices", pos, dt ? -1000 : 1000, true);
    d = open_ok(f.dir); /* opening cannot see it */
    assert_fo_ok(fo_batch_create(&b));
    /* Nine hops discover node 9 but never read its column. */
    assert_fo_ok(sample_path(d, 9, FO_EDGE_DIR_IN, b));
    assert_int_equal(b->n_nodes, 10);
    /* The tenth hop reads it. */
    snprintf(want, sizeof want, "csc_indices[%lld] = %d is not a node id in [0, 10)",
             (long long)pos, dt ? -1000 : 1000);
    assert_fo_error(sample_path(d, 10, FO_EDGE_DIR_IN, b), FO_EFORMAT, want);
    /* The CSR was not touched: out-neighbors still work. */
    assert_fo_ok(sample_path(d, 10, FO_EDGE_DIR_OUT, b));
    assert_int_equal(b->n_nodes, 10);
    assert_fo_error(fo_dataset_verify(d), FO_EFORMAT, "csc_indices");
    fo_batch_destroy(b);
    fo_dataset_close(d);
    fixture_free(&f);
  }
  fot_edges_free(&e);
}

static void sampler_on_corrupt_eid_and_indptr(void **state) {
  fot_edges e;
  fixture f;
  fo_dataset_t *d;
  fo_batch_t *b;
  int64_t pos;
  char want[128];
  (void)state;
  fot_path_graph(10, &e);
  fixture_make(&f, e.src, e.dst, e.m, e.n, true, true, FO_INDEX_AUTO);
  d = open_ok(f.dir);
  pos = array_elem(d, "csr_indptr", 7);
  fo_dataset_close(d);
  /* csr_eid past the edge count in node 7's row. */
  fot_set_array_elem(f.dir, "csr_eid", pos, 5000, true);
  d = open_ok(f.dir);
  assert_fo_ok(fo_batch_create(&b));
  snprintf(want, sizeof want, "csr_eid[%lld] = 5000 is not an edge id in [0, 18)", (long long)pos);
  assert_fo_error(sample_path(d, 10, FO_EDGE_DIR_OUT, b), FO_EFORMAT, want);
  assert_fo_ok(sample_path(d, 10, FO_EDGE_DIR_IN, b));
  fo_dataset_close(d);
  /* csc_indptr: node 5's row end past m (the final entry stays m, so open passes). */
  fot_set_array_elem(f.dir, "csc_indptr", 6, 1000, true);
  d = open_ok(f.dir);
  assert_fo_error(sample_path(d, 10, FO_EDGE_DIR_IN, b), FO_EFORMAT, "csc_indptr[5..6]");
  assert_non_null(strstr(fo_last_error(), "is not a valid row"));
  fo_dataset_close(d);
  fo_batch_destroy(b);
  fixture_free(&f);
  fot_edges_free(&e);
}

/* ---- getters ------------------------------------------------------------------------------- */

static void array_getters(void **state) {
  fixture f;
  fo_dataset_t *d;
  fo_array_info a, b;
  int64_t n;
  (void)state;
  fixture_g(&f, true, true);
  d = open_ok(f.dir);
  n = fo_dataset_num_arrays(d);
  /* csc_indptr, csc_indices, csr_indptr, csr_indices, csr_eid, edge_orig */
  assert_int_equal(n, 6);
  for (int64_t i = 0; i < n; i++) {
    char file[64], hex[17];
    assert_fo_ok(fo_dataset_array_at(d, i, &a));
    assert_fo_ok(fo_dataset_array(d, a.name, &b));
    assert_ptr_equal(a.name, b.name);
    assert_ptr_equal(a.data, b.data);
    assert_string_equal(a.dtype, b.dtype);
    assert_int_equal(a.nbytes, b.nbytes);
    assert_int_equal(a.xxh64, b.xxh64);
    snprintf(file, sizeof file, "%s.npy", a.name);
    assert_string_equal(a.file, file);
    assert_int_equal(a.ndim, 1);
    assert_int_equal(a.shape[1], 0);
    assert_int_equal(a.nbytes, a.shape[0] * a.itemsize);
    assert_int_equal(a.xxh64, XXH64(a.data, (size_t)a.nbytes, 0));
    snprintf(hex, sizeof hex, "%016llx", (unsigned long long)a.xxh64);
    assert_non_null(strstr(fo_dataset_manifest(d), hex));
    assert_int_equal((uintptr_t)a.data % 8, 0);
  }
  assert_fo_ok(fo_dataset_array_at(d, 0, &a));
  assert_string_equal(a.name, "csc_indptr");
  assert_string_equal(a.dtype, "<i8");
  assert_int_equal(a.shape[0], G_N + 1);
  assert_int_equal(a.itemsize, 8);
  assert_fo_ok(fo_dataset_array(d, "csc_indices", &a));
  assert_string_equal(a.dtype, "<i4");
  assert_int_equal(a.shape[0], G_M);
  assert_int_equal(a.itemsize, 4);
  assert_fo_ok(fo_dataset_array(d, "edge_orig", &a));
  {
    static const int64_t want[] = {3, 6, 0, 1, 2, 4, 5};
    for (int i = 0; i < G_M; i++) assert_int_equal(elem(&a, i), want[i]);
  }
  assert_fo_error(fo_dataset_array_at(d, n, &a), FO_ERANGE, "array index 6 not in [0, 6)");
  assert_fo_error(fo_dataset_array_at(d, -1, &a), FO_ERANGE, "array index -1 not in [0, 6)");
  assert_fo_error(fo_dataset_array(d, "nope", &a), FO_EINVAL, "has no array 'nope'");
  assert_fo_error(fo_dataset_array(d, NULL, &a), FO_EINVAL, "has no array");
  fo_dataset_close(d);
  fixture_free(&f);
}

static void extra_2d_array(void **state) {
  /* An extra 2-D C-order array listed in the manifest opens and is described. */
  fixture f;
  fo_dataset_t *d;
  fo_array_info a;
  char hdr[128], *path;
  int64_t shape[2] = {3, 2};
  float data[6] = {1, 2, 3, 4, 5, 6};
  FILE *fp;
  char hex[17];
  json_t *root;
  (void)state;
  fixture_g(&f, true, false);
  assert_int_equal(fo__npy_format(hdr, sizeof hdr, "<f4", 2, shape), 128);
  path = fot_path(f.dir, "feat.npy");
  fp = fopen(path, "wb");
  fwrite(hdr, 1, 128, fp);
  fwrite(data, 1, sizeof data, fp);
  fclose(fp);
  free(path);
  root = manifest_load(f.dir);
  snprintf(hex, sizeof hex, "%016llx", (unsigned long long)XXH64(data, sizeof data, 0));
  json_array_append_new(json_object_get(root, "arrays"),
                        json_pack("{s:s, s:s, s:s, s:[i, i], s:s}", "name", "feat", "file",
                                  "feat.npy", "dtype", "<f4", "shape", 3, 2, "xxh64", hex));
  manifest_save(f.dir, root);
  d = open_ok(f.dir);
  assert_fo_ok(fo_dataset_array(d, "feat", &a));
  assert_int_equal(a.ndim, 2);
  assert_int_equal(a.shape[0], 3);
  assert_int_equal(a.shape[1], 2);
  assert_int_equal(a.itemsize, 4);
  assert_int_equal(a.nbytes, 24);
  assert_memory_equal(a.data, data, sizeof data);
  assert_fo_ok(fo_dataset_verify(d));
  fo_dataset_close(d);
  /* The second dimension is checked too: (3, 2) in the file, [3, 3] in the manifest. */
  manifest_set_field(f.dir, "feat", "shape", json_pack("[i, i]", 3, 3));
  open_fails(f.dir, FO_EFORMAT, "feat.npy: shape in the file differs from the manifest");
  manifest_set_field(f.dir, "feat", "shape", json_pack("[i, i]", 2, 3));
  open_fails(f.dir, FO_EFORMAT, "feat.npy: shape in the file differs from the manifest");
  fixture_free(&f);
}

static void node_orig_kinds(void **state) {
  fixture f;
  fo_dataset_t *d;
  int64_t v;
  const char *s;
  size_t len;
  fo_import_opts o;
  (void)state;
  /* Identity. */
  fixture_g(&f, true, false);
  d = open_ok(f.dir);
  assert_int_equal(fo_dataset_node_orig_kind(d), FO_ORIG_IDENTITY);
  assert_fo_ok(fo_dataset_node_orig_int(d, 3, &v));
  assert_int_equal(v, 3);
  assert_fo_error(fo_dataset_node_orig_int(d, 5, &v), FO_ERANGE, "node 5 not in [0, 5)");
  assert_fo_error(fo_dataset_node_orig_int(d, -1, &v), FO_ERANGE, "node -1 not in [0, 5)");
  assert_fo_error(fo_dataset_node_orig_str(d, 0, &s, &len), FO_EINVAL, "are not strings");
  fo_dataset_close(d);
  fixture_free(&f);

  /* int64 (relabel). */
  {
    static const int64_t src[] = {1000, -7, 42}, dst[] = {42, 1000, 1000};
    fo_import_opts_init(&o);
    o.relabel = true;
    f.tmp = fot_tmpdir();
    f.dir = fot_path(f.tmp, "g");
    assert_fo_ok(fo_import_edges(src, dst, 3, f.dir, &o, NULL));
    d = open_ok(f.dir);
    assert_int_equal(fo_dataset_num_nodes(d), 3);
    assert_int_equal(fo_dataset_node_orig_kind(d), FO_ORIG_INT64);
    assert_fo_ok(fo_dataset_node_orig_int(d, 0, &v));
    assert_int_equal(v, -7);
    assert_fo_ok(fo_dataset_node_orig_int(d, 1, &v));
    assert_int_equal(v, 42);
    assert_fo_ok(fo_dataset_node_orig_int(d, 2, &v));
    assert_int_equal(v, 1000);
    assert_fo_error(fo_dataset_node_orig_int(d, 3, &v), FO_ERANGE, "node 3 not in [0, 3)");
    assert_fo_error(fo_dataset_node_orig_str(d, 0, &s, &len), FO_EINVAL, "are not strings");
    fo_dataset_close(d);
    fixture_free(&f);
  }

  /* Strings (planetoid). */
  {
    char *content, *cites;
    const char *inputs[2];
    f.tmp = fot_tmpdir();
    f.dir = fot_path(f.tmp, "g");
    content = fot_path(f.tmp, "t.content");
    cites = fot_path(f.tmp, "t.cites");
    fot_write_file(content, "alpha\t1\t0\tA\nb\t0\t1\tB\nlongest_id\t1\t1\tA\n");
    fot_write_file(cites, "alpha\tb\nb\tlongest_id\n");
    inputs[0] = content;
    inputs[1] = cites;
    fo_import_opts_init(&o);
    o.format = FO_FORMAT_PLANETOID;
    assert_fo_ok(fo_import(inputs, 2, f.dir, &o, NULL));
    d = open_ok(f.dir);
    assert_int_equal(fo_dataset_node_orig_kind(d), FO_ORIG_STRING);
    assert_fo_ok(fo_dataset_node_orig_str(d, 0, &s, &len));
    assert_int_equal(len, 5);
    assert_memory_equal(s, "alpha", 5);
    assert_fo_ok(fo_dataset_node_orig_str(d, 1, &s, &len));
    assert_int_equal(len, 1);
    assert_memory_equal(s, "b", 1);
    assert_fo_ok(fo_dataset_node_orig_str(d, 2, &s, &len));
    assert_int_equal(len, 10); /* the full width: no NUL after it */
    assert_memory_equal(s, "longest_id", 10);
    assert_fo_error(fo_dataset_node_orig_str(d, 3, &s, &len), FO_ERANGE, "node 3 not in [0, 3)");
    assert_fo_error(fo_dataset_node_orig_int(d, 0, &v), FO_EINVAL, "are strings");
    {
      /* offsets + bytes: 16 bytes for the 3 ids, not 3 x 10 */
      fo_array_info a;
      assert_fo_ok(fo_dataset_array(d, "node_orig_bytes", &a));
      assert_string_equal(a.dtype, "|u1");
      assert_int_equal(a.shape[0], 16);
    }
    fo_dataset_close(d);
    {
      /* the fixed-width layout of datasets written before 0.2 still opens and reads the same */
      static const char fixed[30] = "alpha\0\0\0\0\0b\0\0\0\0\0\0\0\0\0longest_id";
      const int64_t shape[1] = {3};
      char *npy = fot_path(f.dir, "node_orig.npy"), hex[17];
      json_t *root = manifest_load(f.dir);
      fot_write_npy(npy, "|S10", 1, shape, fixed, sizeof fixed);
      snprintf(hex, sizeof hex, "%016llx", (unsigned long long)fo__xxh64(fixed, sizeof fixed));
      json_array_append_new(json_object_get(root, "arrays"),
                            json_pack("{s:s, s:s, s:s, s:[i], s:s}", "name", "node_orig", "file",
                                      "node_orig.npy", "dtype", "|S10", "shape", 3, "xxh64", hex));
      json_object_set_new(root, "node_orig", json_string("node_orig"));
      manifest_save(f.dir, root);
      d = open_ok(f.dir);
      assert_int_equal(fo_dataset_node_orig_kind(d), FO_ORIG_STRING);
      assert_fo_ok(fo_dataset_node_orig_str(d, 0, &s, &len));
      assert_int_equal(len, 5);
      assert_memory_equal(s, "alpha", 5);
      assert_fo_ok(fo_dataset_node_orig_str(d, 2, &s, &len));
      assert_int_equal(len, 10); /* the full width: no NUL after it */
      assert_memory_equal(s, "longest_id", 10);
      assert_fo_ok(fo_dataset_verify(d));
      fo_dataset_close(d);
      free(npy);
    }
    free(content);
    free(cites);
    fixture_free(&f);
  }
}

static void degree_stats(void **state) {
  fixture f;
  fo_dataset_t *d;
  fo_degree_stats st;
  (void)state;
  fixture_g(&f, true, true);
  d = open_ok(f.dir);
  /* in-degrees [2,1,3,1,0] */
  assert_fo_ok(fo_dataset_degree_stats(d, FO_EDGE_DIR_IN, &st));
  assert_int_equal(st.min, 0);
  assert_int_equal(st.max, 3);
  assert_int_equal(st.argmax, 2);
  assert_int_equal(st.n_zero, 1);
  assert_true(st.mean > 1.3999 && st.mean < 1.4001);
  /* out-degrees [2,2,2,1,0]: the smallest id with the maximum */
  assert_fo_ok(fo_dataset_degree_stats(d, FO_EDGE_DIR_OUT, &st));
  assert_int_equal(st.min, 0);
  assert_int_equal(st.max, 2);
  assert_int_equal(st.argmax, 0);
  assert_int_equal(st.n_zero, 1);
  fo_dataset_close(d);
  fixture_free(&f);
  fixture_g(&f, false, true);
  d = open_ok(f.dir);
  assert_fo_error(fo_dataset_degree_stats(d, FO_EDGE_DIR_IN, &st), FO_EINVAL, "--csc");
  fo_dataset_close(d);
  fixture_free(&f);
  /* A star: center 0 has degree k in both directions. */
  {
    fot_edges e;
    char *dir;
    fot_star(9, &e);
    fot_dataset(&e, true, true, FO_INDEX_AUTO, &dir, &d);
    assert_fo_ok(fo_dataset_degree_stats(d, FO_EDGE_DIR_IN, &st));
    assert_int_equal(st.max, 9);
    assert_int_equal(st.argmax, 0);
    assert_int_equal(st.min, 1);
    assert_int_equal(st.n_zero, 0);
    assert_true(st.mean > 1.7999 && st.mean < 1.8001);
    fo_dataset_close(d);
    fot_rmtree(dir);
    fot_edges_free(&e);
  }
}

static void hugepage_same_contents(void **state) {
  fot_edges e;
  fixture f;
  fo_dataset_t *dm, *dh;
  fo_dataset_opts o;
  (void)state;
  fot_random(3000, 20000, 11, &e);
  fixture_make(&f, e.src, e.dst, e.m, e.n, true, true, FO_INDEX_AUTO);
  dm = open_ok(f.dir);
  fo_dataset_opts_init(&o);
  o.load = FO_LOAD_HUGEPAGE;
  assert_fo_ok(fo_dataset_open(f.dir, &o, &dh));
  assert_int_equal(fo_dataset_num_arrays(dm), fo_dataset_num_arrays(dh));
  for (int64_t i = 0; i < fo_dataset_num_arrays(dm); i++) {
    fo_array_info a, b;
    assert_fo_ok(fo_dataset_array_at(dm, i, &a));
    assert_fo_ok(fo_dataset_array_at(dh, i, &b));
    assert_string_equal(a.name, b.name);
    assert_int_equal(a.nbytes, b.nbytes);
    assert_memory_equal(a.data, b.data, (size_t)a.nbytes);
  }
  for (int dir = 0; dir < 2; dir++) {
    fo_topology tm, th;
    fo_degree_stats sm, sh;
    assert_fo_ok(fo_dataset_topology(dm, (fo_edge_dir)dir, &tm));
    assert_fo_ok(fo_dataset_topology(dh, (fo_edge_dir)dir, &th));
    assert_memory_equal(tm.indptr, th.indptr, (size_t)(e.n + 1) * 8);
    assert_memory_equal(tm.indices, th.indices, (size_t)e.m * (size_t)tm.indices_bytes);
    assert_fo_ok(fo_dataset_degree_stats(dm, (fo_edge_dir)dir, &sm));
    assert_fo_ok(fo_dataset_degree_stats(dh, (fo_edge_dir)dir, &sh));
    assert_memory_equal(&sm, &sh, sizeof sm);
  }
  assert_fo_ok(fo_dataset_verify(dh));
  /* The same batch from both. */
  {
    int32_t fan[2] = {5, 5};
    int64_t seeds[3] = {0, 17, 2999};
    fo_sampler_opts so;
    fo_sampler_t *sm, *sh;
    fo_batch_t *bm, *bh;
    fo_sampler_opts_init(&so);
    so.fanouts = fan;
    so.n_hops = 2;
    assert_fo_ok(fo_sampler_create(dm, &so, &sm));
    assert_fo_ok(fo_sampler_create(dh, &so, &sh));
    assert_fo_ok(fo_batch_create(&bm));
    assert_fo_ok(fo_batch_create(&bh));
    assert_fo_ok(fo_sampler_sample(sm, seeds, 3, 1, 2, bm));
    assert_fo_ok(fo_sampler_sample(sh, seeds, 3, 1, 2, bh));
    assert_int_equal(bm->n_nodes, bh->n_nodes);
    assert_int_equal(bm->n_edges, bh->n_edges);
    assert_memory_equal(bm->node, bh->node, (size_t)bm->n_nodes * 8);
    assert_memory_equal(bm->edge, bh->edge, (size_t)bm->n_edges * 8);
    fo_batch_destroy(bm);
    fo_batch_destroy(bh);
    fo_sampler_destroy(sm);
    fo_sampler_destroy(sh);
  }
  fo_dataset_close(dm);
  fo_dataset_close(dh);
  /* Huge-page loading still checks indptr's ends. */
  fot_set_array_elem(f.dir, "csc_indptr", 0, 3, true);
  assert_fo_error(fo_dataset_open(f.dir, &o, &dh), FO_EFORMAT, "indptr[0] = 3");
  fixture_free(&f);
  fot_edges_free(&e);
}

/* ---- numpy reads every array --------------------------------------------------------------- */

static const char NUMPY_CHECK[] =
    "import json, os, sys\n"
    "import numpy as np\n"
    "d = sys.argv[1]\n"
    "m = json.load(open(os.path.join(d, 'fanout.json')))\n"
    "assert m['format'] == 'fanout-dataset', m['format']\n"
    "names = set()\n"
    "for a in m['arrays']:\n"
    "    x = np.load(os.path.join(d, a['file']), mmap_mode='r')\n"
    "    assert isinstance(x, np.memmap), a['name']\n"
    "    assert x.dtype == np.dtype(a['dtype']), (a['name'], x.dtype, a['dtype'])\n"
    "    assert list(x.shape) == a['shape'], (a['name'], x.shape, a['shape'])\n"
    "    assert x.flags['C_CONTIGUOUS'], a['name']\n"
    "    names.add(a['name'])\n"
    "n, e = m['num_nodes'], m['num_edges']\n"
    "for k in ('csc', 'csr'):\n"
    "    t = m['topology'].get(k)\n"
    "    if not t:\n"
    "        continue\n"
    "    ip = np.load(os.path.join(d, t['indptr'] + '.npy'), mmap_mode='r')\n"
    "    ix = np.load(os.path.join(d, t['indices'] + '.npy'), mmap_mode='r')\n"
    "    assert ip[0] == 0 and ip[-1] == e and (np.diff(ip) >= 0).all(), k\n"
    "    assert e == 0 or (ix.min() >= 0 and ix.max() < n), k\n"
    "    if 'eid' in t:\n"
    "        eid = np.load(os.path.join(d, t['eid'] + '.npy'), mmap_mode='r')\n"
    "        assert (np.sort(eid) == np.arange(e)).all(), k\n"
    "if 'node_orig' in m:\n"
    "    no = m['node_orig']\n"
    "    assert all(x in names for x in (no.values() if isinstance(no, dict) else [no]))\n"
    "    if isinstance(no, dict):\n"
    "        off = np.load(os.path.join(d, no['offsets'] + '.npy'), mmap_mode='r')\n"
    "        by = np.load(os.path.join(d, no['bytes'] + '.npy'), mmap_mode='r')\n"
    "        assert off[0] == 0 and off[-1] == len(by) and (np.diff(off) >= 0).all()\n"
    "print('numpy-ok', len(m['arrays']))\n";

static bool have_numpy(void) {
  if (access("/usr/bin/python3", X_OK) != 0) return false;
  return system("/usr/bin/python3 -c 'import numpy' >/dev/null 2>&1") == 0;
}

static void numpy_reads_arrays(void **state) {
  char *tmp, *script, cmd[8192];
  fot_edges e;
  fo_import_opts o;
  (void)state;
  if (!have_numpy()) {
    skip();
    return;
  }
  tmp = fot_tmpdir();
  script = fot_path(tmp, "check.py");
  fot_write_file(script, NUMPY_CHECK);
  fot_random(200, 1500, 5, &e);
  for (int c = 0; c < 4; c++) {
    char name[32], *dir;
    int rc;
    snprintf(name, sizeof name, "g%d", c);
    dir = fot_path(tmp, name);
    fo_import_opts_init(&o);
    o.csr = c != 1;
    o.csc = c != 2;
    o.index_dtype = c == 3 ? FO_INDEX_INT64 : FO_INDEX_AUTO;
    o.relabel = c == 3;
    assert_fo_ok(fo_import_edges(e.src, e.dst, e.m, dir, &o, NULL));
    snprintf(cmd, sizeof cmd, "/usr/bin/python3 '%s' '%s' >/dev/null", script, dir);
    rc = system(cmd);
    if (rc != 0) fail_msg("numpy check failed (%d) on %s", rc, dir);
    free(dir);
  }
  /* String ids. */
  {
    char *content = fot_path(tmp, "s.content"), *cites = fot_path(tmp, "s.cites");
    char *dir = fot_path(tmp, "gs");
    const char *inputs[2] = {content, cites};
    fot_write_file(content, "p1\t0\tA\npaper_two\t1\tB\n");
    fot_write_file(cites, "p1\tpaper_two\np1\tonly_cited\n");
    fo_import_opts_init(&o);
    o.format = FO_FORMAT_PLANETOID;
    o.csr = true;
    assert_fo_ok(fo_import(inputs, 2, dir, &o, NULL));
    snprintf(cmd, sizeof cmd, "/usr/bin/python3 '%s' '%s' >/dev/null", script, dir);
    if (system(cmd) != 0) fail_msg("numpy check failed on %s", dir);
    free(content);
    free(cites);
    free(dir);
  }
  /* The check can fail: a truncated array is refused by numpy too. */
  {
    char *dir = fot_path(tmp, "g0"), *path = fot_path(dir, "csc_indices.npy");
    size_t len;
    char *buf = fot_read_file(path, &len);
    fot_write_bytes(path, buf, len - 4);
    snprintf(cmd, sizeof cmd, "/usr/bin/python3 '%s' '%s' >/dev/null 2>&1", script, dir);
    assert_int_not_equal(system(cmd), 0);
    free(buf);
    free(path);
    free(dir);
  }
  fot_edges_free(&e);
  free(script);
  fot_rmtree(tmp);
}

/* fo__writer_add_i64 with width 4 converts through a buffer of min(n, 2^17) values: arrays of
 * 0, 3 and 2^17 + 5 values (two chunks, the second short) come out exact, and a value out of
 * int32 range in the second chunk is FO_ERANGE naming its position. */
static void writer_i64_chunks(void **state) {
  const int64_t ns[3] = {0, 3, ((int64_t)1 << 17) + 5};
  const char *names[3] = {"a", "b", "c"};
  char *tmp = fot_tmpdir(), *out = fot_path(tmp, "w");
  int64_t *v = malloc((size_t)ns[2] * sizeof *v);
  fo__writer *w;
  (void)state;
  assert_non_null(v);
  for (int64_t i = 0; i < ns[2]; i++) v[i] = i * 7 - 3;
  assert_fo_ok(fo__writer_begin(out, false, &w));
  for (int k = 0; k < 3; k++) assert_fo_ok(fo__writer_add_i64(w, names[k], 4, v, ns[k]));
  assert_fo_ok(fo__writer_commit(w));
  for (int k = 0; k < 3; k++) {
    char hdr[256], file[16];
    size_t hl = fo__npy_format(hdr, sizeof hdr, "<i4", 1, &ns[k]), len;
    char *path, *b;
    snprintf(file, sizeof file, "%s.npy", names[k]);
    path = fot_path(out, file);
    b = fot_read_file(path, &len);
    assert_int_equal(len, hl + (size_t)ns[k] * 4);
    assert_memory_equal(b, hdr, hl);
    for (int64_t i = 0; i < ns[k]; i++) {
      int32_t x;
      memcpy(&x, b + hl + i * 4, 4);
      if (x != (int32_t)(i * 7 - 3)) fail_msg("%s[%lld] = %d", names[k], (long long)i, (int)x);
    }
    free(b);
    free(path);
  }
  v[((int64_t)1 << 17) + 2] = (int64_t)INT32_MAX + 1;
  assert_fo_ok(fo__writer_begin(out, true, &w));
  assert_int_equal(fo__writer_add_i64(w, "c", 4, v, ns[2]), FO_ERANGE);
  assert_non_null(strstr(fo_last_error(), "array 'c': value 2147483648 at 131074 does not fit in int32"));
  fo__writer_abort(w);
  free(v);
  free(out);
  fot_rmtree(tmp);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(open_good_datasets),
      cmocka_unit_test(open_empty_graph),
      cmocka_unit_test(open_bad_arguments),
      cmocka_unit_test(open_path_errors),
      cmocka_unit_test(open_manifest_errors),
      cmocka_unit_test(open_array_entry_errors),
      cmocka_unit_test(open_npy_file_errors),
      cmocka_unit_test(open_header_disagrees),
      cmocka_unit_test(open_indptr_ends),
      cmocka_unit_test(verify_good),
      cmocka_unit_test(verify_checksum),
      cmocka_unit_test(verify_index_range),
      cmocka_unit_test(verify_indptr_decreases),
      cmocka_unit_test(verify_eid_permutation),
      cmocka_unit_test(verify_csc_csr_agree),
      cmocka_unit_test(sampler_on_corrupt_indices),
      cmocka_unit_test(sampler_on_corrupt_eid_and_indptr),
      cmocka_unit_test(array_getters),
      cmocka_unit_test(extra_2d_array),
      cmocka_unit_test(node_orig_kinds),
      cmocka_unit_test(degree_stats),
      cmocka_unit_test(hugepage_same_contents),
      cmocka_unit_test(numpy_reads_arrays),
      cmocka_unit_test(writer_i64_chunks),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
