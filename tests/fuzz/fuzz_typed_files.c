/*
 * Harness "typed_files": the typed importer's per-type-file form (io/typed.c: one edge list per
 * edge type, the CLI's --edge-type SRC,REL,DST FILE), with a node type's node_ids list, a
 * type's fixed num_nodes and an edge type's weights, then the typed writer through fo_import.
 * Edge types (DBLP's, plus a paper-paper type): 0 paper,writtenby,author; 1 paper,in,conference;
 * 2 paper,has,term; 3 paper,cites,paper.
 * Input: byte 0 (bit 0 string_ids, 1 reverse_edges, 2 undirected, 3 dedup, 4 CSR as well,
 * 5 a node_ids file for "paper", 6 num_nodes of "conference" = 16 + (byte 1 >> 3) % 8, 7
 * weights for the first edge type); byte 1 (bits 0-1: edge types - 1, bit 2
 * remove_self_loops; the first edge type used is byte 1 >> 6, the others follow mod 4); then
 * NUL-separated sections: each edge type's file, the node_ids file; then the weights (the rest
 * of the input: raw little-endian float32 values, written as a .npy of that length).
 * Promise: any input gives FO_OK or a status with a message; an import that succeeds writes a
 * dataset that opens and verifies, with the node and edge type counts of the report; a failed
 * one leaves nothing behind.
 */
#include "fuzz.h"
#include "store/store_internal.h"

#include <fanout/fanout.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const char *const g_types[4][3] = {
    {"paper", "writtenby", "author"}, {"paper", "in", "conference"}, {"paper", "has", "term"}, {"paper", "cites", "paper"}};

/* The next NUL-separated section of the input (the rest when there is no NUL). */
static void section(fz_in *in, const uint8_t **p, size_t *n) {
  const uint8_t *cut = memchr(in->p, 0, in->n);
  *p = in->p;
  *n = cut ? (size_t)(cut - in->p) : in->n;
  in->p += *n + (cut ? 1 : 0);
  in->n -= *n + (cut ? 1 : 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fz_in in = {data, size};
  uint8_t flags = fz_u8(&in), sel = fz_u8(&in);
  int n_et = 1 + (sel & 3), first = sel >> 6;
  fo_import_edge_type et[4];
  fo_import_node_type nt[2];
  fo_import_edge_weight ew;
  char ew_name[64];
  const char *out = fz_path(5, "out");
  fo_import_opts o;
  fo_import_report rep;
  struct stat st;
  const uint8_t *p;
  size_t n;
  int rc, n_nt = 0;
  fo_import_opts_init(&o);
  for (int i = 0; i < n_et; i++) {
    int t = (first + i) % 4;
    section(&in, &p, &n);
    et[i].src = g_types[t][0];
    et[i].rel = g_types[t][1];
    et[i].dst = g_types[t][2];
    et[i].path = fz_memfile(i, p, n);
  }
  if (flags & 32) {
    section(&in, &p, &n);
    memset(&nt[n_nt], 0, sizeof nt[n_nt]);
    nt[n_nt].name = "paper";
    nt[n_nt].num_nodes = -1;
    nt[n_nt++].node_ids = fz_memfile(4, p, n);
  }
  if (flags & 64) { /* also when no edge type has conferences: an error to report */
    memset(&nt[n_nt], 0, sizeof nt[n_nt]);
    nt[n_nt].name = "conference";
    nt[n_nt++].num_nodes = 16 + ((sel >> 3) & 7); /* DBLP has 20 conferences */
  }
  if (flags & 128) {
    char hdr[256];
    int64_t shape[1];
    size_t hl;
    unsigned char *b;
    p = in.p; /* the rest of the input (float bytes hold NULs) */
    n = in.n;
    shape[0] = (int64_t)(n / 4);
    hl = fo__npy_format(hdr, sizeof hdr, "<f4", 1, shape);
    if (!(b = malloc(hl + n / 4 * 4 + 1))) abort();
    memcpy(b, hdr, hl);
    memcpy(b + hl, p, n / 4 * 4);
    snprintf(ew_name, sizeof ew_name, "%s__%s__%s", et[0].src, et[0].rel, et[0].dst);
    ew.edge_type = ew_name;
    ew.path = fz_memfile(5, b, hl + n / 4 * 4);
    free(b);
    o.edge_weights = &ew;
    o.n_edge_weights = 1;
  }
  o.edge_types = et;
  o.n_edge_types = n_et;
  o.node_type_opts = n_nt ? nt : NULL;
  o.n_node_type_opts = n_nt;
  o.string_ids = flags & 1;
  o.reverse_edges = flags & 2;
  o.undirected = flags & 4;
  o.dedup = flags & 8;
  o.csr = flags & 16;
  o.remove_self_loops = sel & 4;
  o.force = true;
  fz_rm_rf(out);
  rc = fo_import(NULL, 0, out, &o, &rep);
  if (getenv("FO_FUZZ_VERBOSE")) fprintf(stderr, "typed_files: %s %s\n", fo_status_name(rc), rc ? fo_last_error() : "");
  if (rc != FO_OK) {
    if (rc == FO_EINTERNAL || !fo_last_error()[0]) {
      fprintf(stderr, "status %s without a usable message: '%s'\n", fo_status_name(rc), fo_last_error());
      abort();
    }
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
    if (fo_dataset_num_nodes(d) != rep.n_nodes || fo_dataset_num_edge_types(d) != rep.n_edge_types ||
        fo_dataset_num_node_types(d) != rep.n_node_types)
      abort();
    fo_dataset_close(d);
  }
  fz_rm_rf(out);
  return 0;
}
