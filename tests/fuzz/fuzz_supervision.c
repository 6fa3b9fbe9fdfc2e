/*
 * Harness "supervision": the typed importer's labels-only edge types (io/typed.c,
 * --supervision-edges / --supervision-negatives, read after the graph so that their ids must be
 * graph nodes), then, on success, the ABLP sampler (sample/ablp.c) over every anchor.
 * Input: one option byte (bit 0 string_ids, 1 reverse_edges, 2 dedup, 3 with negatives, 4 random
 * negatives, 5 --num-nodes user=4), then three NUL-separated files: the graph's edge list
 * (user__buys__item), the positives (user__likes__item), the negatives (user__hates__item).
 * Promise: any input gives FO_OK or a status with a message and leaves nothing behind on
 * failure; a dataset that imports opens, verifies, and every ABLP batch's labels are local ids
 * of seeds whose global ids are the supervision edges' endpoints.
 * Bounds: the import runs as on a machine with 256 MiB to spare (FO_MEM_AVAILABLE), so that a
 * node id too big for it is FO_ENOMEM, checked before allocating, not libFuzzer's 2 GB limit;
 * the batch takes the MAX_ANCHORS highest anchor ids (a two-edge input naming node 7,715,711
 * made one batch of 7.7 M anchors: 24 s and 1.6 GB under ASan, all of it outside the parser).
 */
#include "fuzz.h"

#include <fanout/fanout.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

enum { MAX_ANCHORS = 256 };

static const uint8_t *part(fz_in *in, size_t *n) {
  const uint8_t *p = in->p, *cut = memchr(in->p, 0, in->n);
  *n = cut ? (size_t)(cut - in->p) : in->n;
  in->p += *n + (cut ? 1 : 0);
  in->n -= *n + (cut ? 1 : 0);
  return p;
}

static void check_ablp(const fo_dataset_t *d, uint8_t flags) {
  fo_ablp_opts o;
  fo_ablp_sampler_t *s = NULL;
  fo_ablp_batch_t *b = NULL;
  int32_t f[2] = {2, -1};
  int64_t n, m, want = 0;
  int64_t *anchors;
  fo_topology pos;
  fo_ablp_opts_init(&o);
  o.sampler.fanouts = f;
  o.sampler.n_hops = 2;
  o.num_random_negatives = (flags & 16) ? 3 : 0;
  if (fo_ablp_sampler_create(d, &o, &s) != FO_OK || fo_ablp_batch_create(&b) != FO_OK) abort();
  n = fo_dataset_num_nodes(fo_dataset_node_data(d, fo_ablp_sampler_anchor_type(s)));
  if (fo_dataset_label_edge_topology(d, fo_ablp_sampler_positive_type(s), FO_EDGE_DIR_OUT, &pos) != FO_OK)
    abort();
  m = n < MAX_ANCHORS ? n : MAX_ANCHORS;
  if (!(anchors = malloc((size_t)(m + 1) * sizeof *anchors))) abort();
  for (int64_t i = 0; i < m; i++) {
    anchors[i] = n - 1 - i;
    want += pos.indptr[n - i] - pos.indptr[n - 1 - i];
  }
  if (fo_ablp_sampler_sample(s, anchors, m, 0, 0, b) != FO_OK) {
    fprintf(stderr, "ABLP batch failed on an imported dataset: %s\n", fo_last_error());
    abort();
  }
  {
    const fo_batch_t *A = fo_batch_node_type(b->sample, b->anchor_type);
    const fo_batch_t *L = fo_batch_node_type(b->sample, b->label_type);
    for (int64_t j = 0; j < b->n_pos; j++) {
      const int64_t a = b->y_positive[j], l = b->y_positive[b->n_pos + j];
      bool found = false;
      if (a < 0 || a >= A->n_seeds || l < 0 || l >= L->n_seeds) abort();
      for (int64_t p = pos.indptr[A->node[a]]; p < pos.indptr[A->node[a] + 1] && !found; p++)
        found = (pos.indices_bytes == 4 ? ((const int32_t *)pos.indices)[p]
                                        : ((const int64_t *)pos.indices)[p]) == L->node[l];
      if (!found) abort();
    }
    if (b->n_pos != want) abort(); /* every positive of every anchor is in the batch */
    for (int64_t j = 0; j < b->n_anchors * b->k; j++)
      if (b->random_negative[j] < -1 || b->random_negative[j] >= L->n_seeds) abort();
  }
  free(anchors);
  fo_ablp_batch_destroy(b);
  fo_ablp_sampler_destroy(s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fz_in in = {data, size};
  const uint8_t flags = fz_u8(&in);
  size_t n0, n1, n2;
  const uint8_t *p0 = part(&in, &n0), *p1 = part(&in, &n1), *p2 = part(&in, &n2);
  const char *graph = fz_memfile(0, p0, n0), *pos = fz_memfile(1, p1, n1);
  const char *neg = fz_memfile(2, p2, n2);
  const char *out = fz_path(5, "out");
  fo_import_edge_type et[1] = {{"user", "buys", "item", graph}};
  fo_import_label_edges le[2] = {{"user__likes__item", pos, false}, {"user__hates__item", neg, true}};
  fo_import_node_type nt[1] = {{"user", 4, NULL, NULL, NULL, NULL}};
  fo_import_opts o;
  struct stat st;
  int rc;
  setenv("FO_MEM_AVAILABLE", "268435456", 0);
  fo_import_opts_init(&o);
  o.edge_types = et;
  o.n_edge_types = 1;
  o.label_edges = le;
  o.n_label_edges = (flags & 8) ? 2 : 1;
  o.string_ids = flags & 1;
  o.reverse_edges = flags & 2;
  o.dedup = flags & 4;
  if ((flags & 32) && !o.string_ids) {
    o.node_type_opts = nt;
    o.n_node_type_opts = 1;
  }
  o.force = true;
  fz_rm_rf(out);
  rc = fo_import(NULL, 0, out, &o, NULL);
  if (rc != FO_OK) {
    if (!fo_last_error()[0]) __builtin_trap();
    if (stat(out, &st) == 0) abort(); /* nothing may be left */
  } else {
    fo_dataset_t *d = NULL;
    if (fo_dataset_open(out, NULL, &d) != FO_OK || fo_dataset_verify(d) != FO_OK) {
      fprintf(stderr, "a supervision import's dataset does not open or verify: %s\n", fo_last_error());
      abort();
    }
    if (fo_dataset_num_label_edge_types(d) != o.n_label_edges) abort();
    check_ablp(d, flags);
    fo_dataset_close(d);
  }
  fz_rm_rf(out);
  return 0;
}
