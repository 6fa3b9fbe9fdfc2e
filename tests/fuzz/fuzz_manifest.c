/*
 * Harness "manifest": fanout.json parsing and validation in fo_dataset_open (store/dataset.c:
 * parse_manifest, load_array, load_topology, parse_node_data, parse_rows, parse_partitioned),
 * over the real arrays of the Cora fixtures (fixture.h).
 * Input: byte 0: which manifest (mod 4: the single dataset's, the 2-part one's top level, its
 * part 0's, the 3-part range one's top level) and reader flags; then the manifest's text.
 * Promise: any manifest gives FO_OK or FO_EFORMAT/FO_EINVAL with a message naming the key or
 * file; one that opens is safe for every reader that runs on it (readers.c).
 */
#include "fixture.h"
#include "fuzz.h"

#include <fanout/fanout.h>

#include <stdio.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static const struct {
    int fixture;
    const char *file;
  } targets[4] = {{0, "fanout.json"}, {1, "fanout.json"}, {1, "part-0/fanout.json"}, {2, "fanout.json"}};
  fz_in in = {data, size};
  unsigned sel = fz_u8(&in);
  int t = sel % 4;
  const char *work = fz_path(6, "work");
  char p[2048];
  fo_dataset_t *d = NULL;
  int rc;
  fz_rm_rf(work);
  fz_copy_tree(fz_fixture(targets[t].fixture), work, true);
  snprintf(p, sizeof p, "%s/%s", work, targets[t].file);
  unlink(p);
  fz_write(p, in.p, in.n);
  rc = fo_dataset_open(work, NULL, &d);
  if (rc != FO_OK && !fo_last_error()[0]) __builtin_trap();
  fo_dataset_close(d);
  if (rc == FO_OK) fz_run_readers(work, sel >> 2);
  return 0;
}
