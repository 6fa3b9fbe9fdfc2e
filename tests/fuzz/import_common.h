/* tests/fuzz/import_common.h: running one importer's parser (io/io_internal.h) on fuzz input. */
#ifndef FO_FUZZ_IMPORT_COMMON_H
#define FO_FUZZ_IMPORT_COMMON_H

#include "fuzz.h"
#include "io/io_internal.h"

#include <float.h>
#include <stdio.h>
#include <stdlib.h>

typedef int (*fz_parser)(const char *const *inputs, int n_inputs, const fo_import_opts *o,
                         fo__graph_input *in);

/* Every failure must come with a message (the promise: bad input gets a clear error). */
static inline void fz_check_status(int rc) {
  if (rc == FO_OK) return;
  if (rc == FO_EINTERNAL || !fo_last_error() || !fo_last_error()[0]) {
    fprintf(stderr, "status %s without a usable message: '%s'\n", fo_status_name(rc),
            fo_last_error() ? fo_last_error() : "(null)");
    abort();
  }
}

/* Parse, check the result's basic facts, free it (as fo_import's free_input does). */
static inline int fz_parse(fz_parser parse, const char *const *inputs, int n, const fo_import_opts *o) {
  fo__graph_input in;
  int rc;
  memset(&in, 0, sizeof in);
  in.n_nodes = -1;
  rc = parse(inputs, n, o, &in);
  if (rc == FO_OK && in.edges.n > 0 && (!in.edges.src || !in.edges.dst)) abort();
  if (rc == FO_OK && !o->relabel)
    for (int64_t i = 0; i < in.edges.n; i++)
      if (in.edges.src[i] < 0 || in.edges.dst[i] < 0) abort(); /* negative ids are refused */
  /* a value column gives one value per edge, weights finite and >= 0 */
  if (rc == FO_OK && ((o->time_column >= 0 && !in.time) || (o->weight_column >= 0 && !in.weight)))
    abort();
  for (int64_t i = 0; rc == FO_OK && in.weight && i < in.edges.n; i++)
    if (!(in.weight[i] >= 0) || in.weight[i] > DBL_MAX) abort();
  fz_check_status(rc);
  fo__edges_free(&in.edges);
  fo__node_data_free(&in.node);
  fo__strmap_destroy(in.orig_str);
  json_decref(in.provenance);
  free(in.weight);
  free(in.time);
  return rc;
}

#endif
