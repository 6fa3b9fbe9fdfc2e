/*
 * Harness "typed_manifest": a format_version 2 fanout.json (store/dataset.c: node_types,
 * edge_types, their prefixes, counts, per-type node data and topologies) and the weighted
 * topology's keys ("weight", "weight_alias"), over the real arrays of the typed and weighted
 * Cora fixtures (fixture.h).
 * Input: byte 0: which manifest (bit 0: the typed fixture's, else the weighted one's) and reader
 * flags (the rest, shifted into readers.c's flags with bit 9, weighted sampling, set from bit
 * 1); then the manifest's text.
 * Promise: any manifest gives FO_OK or a status with a message naming the key or file; one
 * that opens is safe for every reader that runs on it (readers.c, typed readers included).
 */
#include "fixture.h"
#include "fuzz.h"

#include <fanout/fanout.h>

#include <stdio.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fz_in in = {data, size};
  unsigned sel = fz_u8(&in);
  int fixture = (sel & 1) ? 4 : 3;
  const char *work = fz_path(6, "work");
  char p[2048];
  fo_dataset_t *d = NULL;
  int rc;
  fz_rm_rf(work);
  fz_copy_tree(fz_fixture(fixture), work, true);
  snprintf(p, sizeof p, "%s/fanout.json", work);
  unlink(p);
  fz_write(p, in.p, in.n);
  rc = fo_dataset_open(work, NULL, &d);
  if (rc != FO_OK && !fo_last_error()[0]) __builtin_trap();
  fo_dataset_close(d);
  if (rc == FO_OK) fz_run_readers(work, ((sel >> 2) & 0x3f) | ((sel & 2) ? 1u << 9 : 0));
  return 0;
}
