/*
 * Harness "npy_edges": the edge_index .npy importer (io/npy_edges.c, fo__parse_npy_edges).
 * Input: one option byte (bit 0 relabel, bit 1 num_nodes 5000), then the .npy file's bytes.
 * Promise: any file gives FO_OK or FO_EFORMAT/FO_ERANGE with a message; the data is never read
 * past the file (the header's shape is checked against the file size first).
 */
#include "import_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fo_import_opts o;
  fz_in in = {data, size};
  uint8_t flags = fz_u8(&in);
  const char *file;
  fo_import_opts_init(&o);
  o.format = FO_FORMAT_NPY;
  o.relabel = flags & 1;
  if (!o.relabel && (flags & 2)) o.num_nodes = 5000;
  file = fz_memfile(0, in.p, in.n);
  fz_parse(fo__parse_npy_edges, &file, 1, &o);
  return 0;
}
