/*
 * Harness "mtx": the Matrix Market coordinate parser (io/mtx.c, fo__parse_mtx).
 * Input: one option byte (bit 0 relabel, bit 1 num_nodes 5000, bit 2 values as weights:
 * --weight-col 2), then the file's bytes.
 * Promise: any bytes give FO_OK or a status with a message naming the file; never a crash.
 */
#include "import_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fo_import_opts o;
  fz_in in = {data, size};
  uint8_t flags = fz_u8(&in);
  const char *file;
  fo_import_opts_init(&o);
  o.format = FO_FORMAT_MTX;
  o.relabel = flags & 1;
  if (!o.relabel && (flags & 2)) o.num_nodes = 5000;
  if (flags & 4) o.weight_column = 2;
  file = fz_memfile(0, in.p, in.n);
  fz_parse(fo__parse_mtx, &file, 1, &o);
  return 0;
}
