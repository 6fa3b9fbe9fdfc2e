/*
 * tests/unit/test_reliability.c: what fanout guarantees on bad input (docs/RELIABILITY.md),
 * one test per class of issue 14 that this file guards:
 *   - readers that trust arrays: the partitioner on out-of-range indptr / indices / edge ids /
 *     labels (FO_EFORMAT naming the array and position, nothing written), the feature and label
 *     gather over a part whose rank directory is corrupt (FO_EFORMAT, never a wild read);
 *   - parts that do not belong together: parts of two partitionings in one directory, a part
 *     listed twice, a part that says it is another part (refused on open);
 *   - outputs that would replace their input (partition X -o X, an output containing the input);
 *   - stale temporary directories of dead writers (removed by the next run to the same output);
 *   - writers that accept what readers reject (labels, non-finite and out-of-range features).
 * Corruptions keep the manifest's checksum right (fot_set_array_elem(..., true)) so that they
 * reach the reader rather than the checksum check.
 */
#include "support.h"

#include "store/store_internal.h"

#include <dirent.h>
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

/* Corrupt the rank directory of part 1 so that nodes of a block map past the part's rows: the
 * gather of features and labels (nodes of the last hop are never expanded by the sampler) and
 * fo_dataset_node_part fail with FO_EFORMAT naming row_rank, never read outside the part. */
static void gather_checks_rows(void **state) {
  fot_ds g = {0};
  char *out, *p1;
  fo_dataset_t *pd;
  fo_loader_opts lo;
  fo_loader_t *L;
  fo_loader_batch_t *b;
  const int32_t fan[2] = {5, 5};
  int k, rc = FO_OK;
  int64_t r, bad = -1, n;
  (void)state;
  fot_ds_cora(&g, FO_FEATURES_FLOAT32);
  out = fot_path(g.tmp, "parts");
  partition_into(g.dir, out, 2, 0);
  /* a block of part 1 in the middle: its entry jumps far beyond the part */
  p1 = fot_path(out, "part-1");
  fot_set_array_elem(p1, "row_rank", 20, 0x7fffffff, true);
  assert_fo_ok(fo_dataset_open(out, NULL, &pd));
  n = fo_dataset_num_nodes(pd);
  for (int64_t v = 20 * FO_RANK_BLOCK; v < 21 * FO_RANK_BLOCK && bad < 0; v++) {
    rc = fo_dataset_node_part(pd, v, &k, &r);
    if (rc != FO_OK) bad = v;
  }
  assert_true(bad >= 0);
  assert_int_equal(rc, FO_EFORMAT);
  assert_non_null(strstr(fo_last_error(), "row_rank[20]"));
  /* a loader over all nodes with features and labels: some batch reaches that block */
  fo_loader_opts_init(&lo);
  lo.sampler.fanouts = fan;
  lo.sampler.n_hops = 2;
  lo.batch_size = 64;
  lo.num_workers = 0;
  assert_fo_ok(fo_loader_create(pd, &lo, &L));
  rc = FO_OK;
  for (int64_t i = 0; i < fo_loader_num_batches(L) && rc == FO_OK; i++) {
    rc = fo_loader_next(L, &b);
    if (rc == FO_OK) fo_loader_release(L, b);
  }
  assert_int_equal(rc, FO_EFORMAT);
  assert_non_null(strstr(fo_last_error(), "row_rank[20]"));
  fo_loader_destroy(L);
  fo_dataset_close(pd);
  (void)n;
  free(p1);
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
  free(mpath);
  free(a1);
  free(b1);
  free(a);
  free(b);
  fot_ds_close(&g);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(partition_checks_arrays),
      cmocka_unit_test(quality_checks_parts),
      cmocka_unit_test(gather_checks_rows),
      cmocka_unit_test(mixed_parts_refused),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
