/*
 * Harness "npy_header": the .npy header parser (store/npy.c, fo__npy_parse) every array of a
 * dataset and the npy importer go through, and fo__npy_format's output read back.
 * Input: the first bytes of a file.
 * Promise: never reads past `len`; on FO_OK the header is consistent: 1..4 dims, count is the
 * product of the shape without overflow, itemsize matches descr, the data offset lies within
 * the bytes given (the reader then checks the file size against count * itemsize).
 */
#include "fuzz.h"
#include "store/store_internal.h"

#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fo__npy_header h;
  /* an exact-size heap copy, so ASan sees any read past the end */
  uint8_t *b = malloc(size ? size : 1);
  int rc;
  memcpy(b, data, size);
  rc = fo__npy_parse(b, size, &h);
  if (rc == FO_OK) {
    int64_t count = 1, isz;
    if (h.ndim < 0 || h.ndim > FO_NPY_MAX_DIMS || h.data_offset > size) abort();
    for (int i = 0; i < h.ndim; i++) {
      if (h.shape[i] < 0) abort();
      if (h.shape[i] && count > INT64_MAX / h.shape[i]) abort();
      count *= h.shape[i];
    }
    if (count != h.count) abort();
    if (fo__npy_descr_itemsize(h.descr, &isz) != FO_OK || isz != h.itemsize) abort();
    if (h.itemsize && h.count > INT64_MAX / h.itemsize) abort(); /* count * itemsize is used */
    if (h.ndim <= 2 && !h.fortran_order) {
      /* what we write, we read back the same */
      char out[256];
      fo__npy_header h2;
      size_t k = fo__npy_format(out, sizeof out, h.descr, h.ndim, h.shape);
      if (k) {
        if (fo__npy_parse(out, k, &h2) != FO_OK || strcmp(h2.descr, h.descr) || h2.ndim != h.ndim ||
            h2.count != h.count || h2.data_offset != k || k % 64)
          abort();
      }
    }
  } else if (!fo_last_error()[0]) {
    abort();
  }
  free(b);
  return 0;
}
