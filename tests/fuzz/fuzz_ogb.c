/*
 * Harness "ogb": the OGB importer's CSV readers (io/ogb.c) through fo_import on a directory
 * written from the input: the homogeneous layout (num-node-list, num-edge-list, edge.csv,
 * splits, labels, features, node_year) or the heterogeneous one (ogbn-mag's num-node-dict with
 * its header, triplet-type-list, a relation's edge.csv and num-edge-list, per-type split,
 * labels and features).
 * Input: one option byte (bit 0: heterogeneous layout, 1: gzip the files, 2 undirected,
 * 3 reverse_edges (heterogeneous), 4 CSR as well), then up to 7 sections separated by NUL
 * bytes, each a file's content (an empty or missing section: no file):
 *   homogeneous:   raw/num-node-list, raw/num-edge-list, raw/edge, split/s/train,
 *                  raw/node-label, raw/node-feat, raw/node_year (all .csv.gz)
 *   heterogeneous: raw/num-node-dict, raw/triplet-type-list, raw/relations/a___r___b/edge,
 *                  raw/relations/a___r___b/num-edge-list, split/s/b/train,
 *                  raw/node-label/b/node-label, raw/node-feat/a/node-feat (all .csv.gz)
 * Promise: any files give FO_OK or a status with a message (naming file and line for bad
 * text); an import that succeeds writes a dataset that opens and verifies; a failed one leaves
 * nothing behind.
 */
#include "fuzz.h"

#include <fanout/fanout.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <zlib.h>

/* gzip-compress p[n] into a malloc'd buffer. A 512-byte window and memLevel 1 keep deflate's
 * state at a few KiB (the defaults allocate about 256 KiB, which ASan maps and unmaps on every
 * input); the reader sees the same text either way. */
static void *gz(const uint8_t *p, size_t n, size_t *out) {
  uLong cap;
  unsigned char *b;
  z_stream z;
  memset(&z, 0, sizeof z);
  if (deflateInit2(&z, 1, Z_DEFLATED, 9 + 16, 1, Z_DEFAULT_STRATEGY) != Z_OK) abort();
  cap = deflateBound(&z, (uLong)n);
  if (!(b = malloc(cap))) abort();
  z.next_in = (Bytef *)p;
  z.avail_in = (uInt)n;
  z.next_out = b;
  z.avail_out = (uInt)cap;
  if (deflate(&z, Z_FINISH) != Z_STREAM_END) abort();
  *out = z.total_out;
  deflateEnd(&z);
  return b;
}

static void mkdirs(const char *path) {
  char p[2048];
  snprintf(p, sizeof p, "%s", path);
  for (char *s = strchr(p + 1, '/'); s; s = strchr(s + 1, '/')) {
    *s = '\0';
    mkdir(p, 0755);
    *s = '/';
  }
}

/* The counts of num-node-list / num-node-dict / num-edge-list are the dataset's word for its
 * size and drive allocations (per-node arrays of the builder, features [n, D]): this harness
 * runs as on a machine with 256 MiB to spare (FO_MEM_AVAILABLE), so that a count too big for
 * it must be FO_ENOMEM with the size, checked before allocating, rather than libFuzzer's 2 GB
 * malloc or RSS limit. */
int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc;
  (void)argv;
  setenv("FO_MEM_AVAILABLE", "268435456", 0);
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static const char *const homo[7] = {"raw/num-node-list", "raw/num-edge-list", "raw/edge",
                                      "split/s/train", "raw/node-label", "raw/node-feat",
                                      "raw/node_year"};
  static const char *const hetero[7] = {"raw/num-node-dict", "raw/triplet-type-list",
                                        "raw/relations/a___r___b/edge",
                                        "raw/relations/a___r___b/num-edge-list", "split/s/b/train",
                                        "raw/node-label/b/node-label", "raw/node-feat/a/node-feat"};
  fz_in in = {data, size};
  uint8_t flags = fz_u8(&in);
  const char *const *names = (flags & 1) ? hetero : homo;
  const char *dir = fz_path(4, "ogb"), *out = fz_path(5, "out");
  const char *inputs[1] = {dir};
  fo_import_opts o;
  struct stat st;
  int rc;
  fz_rm_rf(dir);
  fz_rm_rf(out);
  mkdir(dir, 0755);
  for (int k = 0; k < 7 && in.p; k++) {
    const uint8_t *cut = memchr(in.p, 0, in.n);
    size_t len = cut ? (size_t)(cut - in.p) : in.n;
    char path[2048];
    snprintf(path, sizeof path, "%s/%s.csv.gz", dir, names[k]);
    if (len == 0) {
      /* no file */
    } else if (mkdirs(path), flags & 2) {
      size_t zn;
      void *z = gz(in.p, len, &zn);
      fz_write(path, z, zn);
      free(z);
    } else {
      fz_write(path, in.p, len);
    }
    if (!cut) break;
    in.n -= len + 1;
    in.p = cut + 1;
  }
  fo_import_opts_init(&o);
  o.format = FO_FORMAT_OGB;
  o.undirected = flags & 4;
  o.reverse_edges = (flags & 1) && (flags & 8);
  o.csr = flags & 16;
  rc = fo_import(inputs, 1, out, &o, NULL);
  if (rc != FO_OK) {
    if (!fo_last_error()[0]) __builtin_trap();
    if (stat(out, &st) == 0) abort(); /* nothing may be left */
  } else {
    fo_dataset_t *d = NULL;
    if (fo_dataset_open(out, NULL, &d) != FO_OK) {
      fprintf(stderr, "an OGB import's dataset does not open: %s\n", fo_last_error());
      abort();
    }
    if (fo_dataset_verify(d) != FO_OK) {
      fprintf(stderr, "an OGB import's dataset does not verify: %s\n", fo_last_error());
      abort();
    }
    fo_dataset_close(d);
  }
  fz_rm_rf(out);
  return 0;
}
