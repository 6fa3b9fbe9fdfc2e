/*
 * Harness "typed_import": the typed importer's one-file form (io/typed.c, parse_one_file):
 * a typed edge list with a relation column and a --node-types file, then the typed writer
 * (per edge type build, reverse types, node_orig per type) through fo_import.
 * Input: one option byte (bit 0 string_ids, 1 reverse_edges, 2 undirected, 3 dedup,
 * 4 --default-node-type "other", 5 CSR as well, 6-7 column layout: src rel dst / src dst rel /
 * rel src dst / dst rel src), then the edge list's bytes, a NUL, the node-types file's bytes
 * ("node_id<TAB>type" lines).
 * Promise: any input gives FO_OK or a status with a message; an import that succeeds writes a
 * dataset that opens and verifies; a failed one leaves nothing behind.
 */
#include "fuzz.h"

#include <fanout/fanout.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static const int32_t layouts[4][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {2, 1, 0}}; /* src, rel, dst */
  fz_in in = {data, size};
  uint8_t flags = fz_u8(&in);
  const uint8_t *cut = memchr(in.p, 0, in.n);
  size_t n0 = cut ? (size_t)(cut - in.p) : in.n;
  const char *edges = fz_memfile(0, in.p, n0);
  const char *types = cut ? fz_memfile(1, cut + 1, in.n - n0 - 1) : NULL;
  const char *out = fz_path(5, "out");
  const char *inputs[1] = {edges};
  fo_import_opts o;
  fo_import_report rep;
  struct stat st;
  int rc;
  fo_import_opts_init(&o);
  o.string_ids = flags & 1;
  o.reverse_edges = flags & 2;
  o.undirected = flags & 4;
  o.dedup = flags & 8;
  o.default_node_type = (flags & 16) ? "other" : NULL;
  o.csr = flags & 32;
  o.src_column = layouts[flags >> 6][0];
  o.edge_type_column = layouts[flags >> 6][1];
  o.dst_column = layouts[flags >> 6][2];
  o.node_types = types;
  o.force = true;
  fz_rm_rf(out);
  rc = fo_import(inputs, 1, out, &o, &rep);
  if (rc != FO_OK) {
    if (!fo_last_error()[0]) __builtin_trap();
    if (stat(out, &st) == 0) abort(); /* nothing may be left */
  } else {
    fo_dataset_t *d = NULL;
    if (fo_dataset_open(out, NULL, &d) != FO_OK) {
      fprintf(stderr, "a typed import's dataset does not open: %s\n", fo_last_error());
      abort();
    }
    if (fo_dataset_verify(d) != FO_OK) {
      fprintf(stderr, "a typed import's dataset does not verify: %s\n", fo_last_error());
      abort();
    }
    if (fo_dataset_num_nodes(d) != rep.n_nodes || fo_dataset_num_edge_types(d) != rep.n_edge_types) abort();
    fo_dataset_close(d);
  }
  fz_rm_rf(out);
  return 0;
}
