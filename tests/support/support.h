/*
 * tests/support/support.h: helpers for fanout's cmocka tests: temporary directories, tiny
 * graph fixtures turned into datasets, the slow reference sampler, a batch invariant checker,
 * and status/message assertions.
 */
#ifndef FO_TEST_SUPPORT_H
#define FO_TEST_SUPPORT_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <fanout/fanout.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Exit code that CTest reports as "skipped" (SKIP_RETURN_CODE). */
#define FOT_SKIP 77

/* assert_fo_ok(expr): expr must return FO_OK; otherwise fail with the status and message. */
#define assert_fo_ok(expr)                                                                    \
  do {                                                                                        \
    int fot_rc_ = (expr);                                                                     \
    if (fot_rc_ != FO_OK)                                                                     \
      fail_msg("%s returned %s: %s", #expr, fo_status_name(fot_rc_), fo_last_error());       \
  } while (0)

/* assert_fo_error(expr, code, substring): expr must fail with `code` and a message containing
 * `substring` (the message must name the bad value). */
#define assert_fo_error(expr, code, substr)                                                   \
  do {                                                                                        \
    int fot_rc_ = (expr);                                                                     \
    if (fot_rc_ != (code))                                                                    \
      fail_msg("%s returned %s, expected %s (message: %s)", #expr, fo_status_name(fot_rc_),   \
               fo_status_name(code), fo_last_error());                                        \
    if (!strstr(fo_last_error(), (substr)))                                                   \
      fail_msg("%s: message '%s' lacks '%s'", #expr, fo_last_error(), (substr));              \
  } while (0)

/* A fresh directory "$TMPDIR/fanout-test-XXXXXX" (malloc'ed path). */
char *fot_tmpdir(void);
/* rm -rf path, then free(path). Accepts NULL. */
void fot_rmtree(char *path);
/* "<dir>/<name>" (malloc'ed). */
char *fot_path(const char *dir, const char *name);
/* Write `text` to a file. */
void fot_write_file(const char *path, const char *text);
/* Write len bytes to a file. */
void fot_write_bytes(const char *path, const void *buf, size_t len);
/* The whole file (malloc'ed, NUL-terminated) and its length. */
char *fot_read_file(const char *path, size_t *len);
/* Write a C-order .npy file (numpy format 1.0) with `nbytes` of data. */
void fot_write_npy(const char *path, const char *descr, int ndim, const int64_t *shape,
                   const void *data, size_t nbytes);
/* Set element i of the 1-D int32/int64 array `name` of dataset `dir` to v, in its .npy file;
 * with `fix_checksum` also store the new data's xxh64 in the manifest, so that the dataset still
 * opens (to corrupt a value behind the checksum). */
void fot_set_array_elem(const char *dir, const char *name, int64_t i, int64_t v, bool fix_checksum);

/* Shipped data dir (repo data/) and the optional ../shared/data dir (NULL when absent). */
const char *fot_data_dir(void);
const char *fot_shared_data_dir(void);

/* Test seed: FO_TEST_SEED from the environment, else `fallback`. Printed by fot_note_seed. */
uint64_t fot_seed(uint64_t fallback);
/* Print "FO_TEST_SEED=<seed>" (call before a randomized case so a failure can be rerun). */
void fot_note_seed(uint64_t seed);
/* SplitMix64 step: a small deterministic generator for test inputs (not the library's RNG). */
uint64_t fot_rand(uint64_t *state);

/* ---- fixtures (graphs.c) ------------------------------------------------------------------- */

typedef struct fot_edges {
  int64_t *src, *dst;
  int64_t m;   /* edges */
  int64_t n;   /* nodes (ids 0..n-1) */
} fot_edges;

void fot_edges_free(fot_edges *e);
void fot_edges_add(fot_edges *e, int64_t s, int64_t d);
/* PyG's cycle_graph(n): edges i <-> (i+1) mod n in both directions (2n edges). */
void fot_cycle(int64_t n, fot_edges *e);
/* Path 0 - 1 - ... - n-1, both directions. */
void fot_path_graph(int64_t n, fot_edges *e);
/* Star: center 0 and leaves 1..k, both directions. */
void fot_star(int64_t k, fot_edges *e);
/* Complete graph K_n without self loops, both directions. */
void fot_clique(int64_t n, fot_edges *e);
/* Two cliques K_a on 0..a-1 and K_b on a..a+b-1, joined by the edge (0, a) both ways. */
void fot_two_cliques(int64_t a, int64_t b, fot_edges *e);
/* A random directed multigraph: n nodes, m edges, self loops and repeats allowed. */
void fot_random(int64_t n, int64_t m, uint64_t seed, fot_edges *e);

/* Import `e` (csc and/or csr, index width `index_dtype`) into a fresh temp dir and open it.
 * *dir_out receives the temp dir (remove with fot_rmtree). */
void fot_dataset(const fot_edges *e, bool csc, bool csr, fo_index_dtype index_dtype,
                 char **dir_out, fo_dataset_t **d_out);

/* A dataset in a temp dir of its own (a fixture): dir = tmp/g; fot_ds_close removes it all. */
typedef struct fot_ds {
  const char *name; /* for messages (optional) */
  char *tmp, *dir;
  fo_dataset_t *d;
} fot_ds;

/* A fresh temp dir; import `inputs` with `o` into tmp/g and open it (asserts on failure). */
void fot_ds_import(fot_ds *g, const char *const *inputs, int n, const fo_import_opts *o);
/* Node data for fot_ds_edges: float32 features [n, dim], int64 labels [n] and the splits
 * train, val and test (members in order; any may be empty). */
typedef struct fot_nodedata {
  const float *x;
  int64_t dim;
  const int64_t *y;
  const int64_t *train, *val, *test;
  int64_t n_train, n_val, n_test;
} fot_nodedata;

/* A fresh temp dir; with `nd`, its arrays written there as .npy files and named in `o`
 * (features, labels, splits); import `e` with `o` into tmp/g and open it (asserts). */
void fot_ds_edges(fot_ds *g, const fot_edges *e, const fot_nodedata *nd, fo_import_opts *o);
/* Cora shipped in data/ (planetoid, undirected: 2708 nodes, 10556 edges), features stored as
 * `fdt`. */
void fot_ds_cora(fot_ds *g, fo_feature_dtype fdt);
/* Close the dataset, remove the temp dir, zero *g. */
void fot_ds_close(fot_ds *g);

/* ---- reference sampler (ref_sampler.c) ----------------------------------------------------- */

/* The slow, obviously-right sampler: the textbook nested loop, one frontier node at a time,
 * linear-time id lookups, the same random streams as the library (the spec in sampler.h). */
typedef struct fot_ref_batch {
  int64_t n_nodes, n_edges, n_hops;
  int64_t *node, *row, *col, *edge, *batch;
  int64_t nsn[65], nse[64];
} fot_ref_batch;

int fot_ref_sample(const fo_dataset_t *d, const fo_sampler_opts *o, const int64_t *seeds,
                   int64_t n_seeds, uint64_t epoch, uint64_t batch_index, fot_ref_batch *out);
void fot_ref_free(fot_ref_batch *b);
/* fail_msg unless `b` equals `r` exactly. */
void fot_assert_same_batch(const fo_batch_t *b, const fot_ref_batch *r);

/* ---- temporal reference (ref_temporal.c) --------------------------------------------------- */
/* Whether time x is eligible at seed time t under o's strict/window rules. */
bool fot_time_eligible(const fo_sampler_opts *o, int64_t x, int64_t t);
/* The reference of fo_sampler_sample_at (version-1 datasets): seed_time NULL = node times. */
int fot_ref_sample_temporal(const fo_dataset_t *d, const fo_sampler_opts *o, const int64_t *seeds,
                            const int64_t *seed_time, int64_t n_seeds, uint64_t epoch,
                            uint64_t batch_index, fot_ref_batch *out);

/* Check the invariants of a batch without knowing the random draws: seeds first; every (row,
 * col) pair is an edge of the graph with the reported edge id; per node exactly the expected
 * number of edges (min(fanout, deg) distinct without replacement, fanout draws with); hop-k
 * nodes appear at hop k; local ids a bijection onto distinct (node[, batch]) pairs; counts sum
 * up. Returns NULL when all hold, else a message (static buffer). */
const char *fot_check_batch(const fo_dataset_t *d, const fo_sampler_opts *o, const int64_t *seeds,
                            int64_t n_seeds, const fo_batch_t *b);

/* ---- typed datasets and the typed reference (typed.c) ------------------------------------- */

#define FOT_MAX_TYPES 128

/* One edge type of a typed test dataset: its canonical triple and its edges (ids local to the
 * src and dst types), in input order. */
typedef struct fot_typed_et {
  const char *src, *rel, *dst;
  const fot_edges *e;
} fot_typed_et;

/* Write a format-version-2 dataset dir/name (returned, free it) with node types nt_names[n_nt]
 * of nt_counts nodes and the given edge types: per type a CSC (stable by dst, edge ids = CSC
 * positions, edge_orig) and/or a CSR (stable by src, csr_eid when the CSC is there). Node data:
 * every type has float32 features x[v] = (t, v); type 0 has labels v % 3 and a split "train"
 * of all its nodes. */
char *fot_typed_dataset(const char *dir, const char *name, int n_nt, const char *const *nt_names,
                        const int64_t *nt_counts, int n_et, const fot_typed_et *ets, bool csc,
                        bool csr);

/* The reference of fo_sampler_sample_typed: one fot_ref_batch per node type (node, batch, nsn)
 * and per edge type (row, col, edge, nse). */
typedef struct fot_ref_typed {
  int32_t n_nt, n_et;
  fot_ref_batch nt[FOT_MAX_TYPES], et[FOT_MAX_TYPES];
} fot_ref_typed;

int fot_ref_sample_typed(const fo_dataset_t *d, const fo_sampler_opts *o, int32_t seed_type,
                         const int64_t *seeds, int64_t n_seeds, uint64_t epoch,
                         uint64_t batch_index, fot_ref_typed *out);
void fot_ref_typed_free(fot_ref_typed *r);
/* fail_msg unless the typed batch `b` equals `r` exactly. */
void fot_assert_same_typed(const fo_batch_t *b, const fot_ref_typed *r);
/* Invariants of a typed batch (seeds first, ids in range per type, local ids a bijection per
 * type, every edge exists in its edge type with its id, counts sum up); NULL when all hold. */
const char *fot_check_typed(const fo_dataset_t *d, const fo_sampler_opts *o, int32_t seed_type,
                            const int64_t *seeds, int64_t n_seeds, const fo_batch_t *b);

/* The distributed path in one process (fo_dist_init_local, P <= 4 machines over the
 * partitioned pd): batch b, taken from machine b mod P's loader (tail kept), has index b and
 * the digest of batch b of the plain loader over d with the same options o (at most 128
 * batches); with P > 1 remote machines were asked (hop requests counted). Fails the test
 * otherwise. */
void fot_dist_same(const fo_dataset_t *d, const fo_dataset_t *pd, int P, const fo_loader_opts *o);


/* Chi-square statistic of count[k] against expect[k], pooling the categories expected < 5 into
 * one; *df = categories - 1. */
double fot_chi2(const double *count, const double *expect, int k, int *df);
/* Upper 1e-6 quantile of chi-square(df) (Wilson-Hilferty, + 5: generous for df >= 1). */
double fot_chi2_limit(int df);

#endif
