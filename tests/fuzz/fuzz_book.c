/*
 * Harness "book": the partition book and the parts' rank directories of a partitioned dataset
 * (store_internal.h fo__owner / fo__owner_row, fo_dataset_node_part, the sampler's routing,
 * fo_dataset_verify's book checks). Fixture: Cora in 2 hash parts ("cora2", uint8 book).
 * Input: byte 0: reader flags; then records {array u8 (mod 3: book, row_rank of part 0, of
 * part 1), offset u16 LE, len u8, bytes[len]} XORed into that array's data (after its .npy
 * header); the manifests' xxh64 are then recomputed, so verify must catch the corruption by
 * its content.
 * Promise: a book entry that names no part, a rank directory that does not count the book,
 * give FO_EFORMAT (open, verify, node_part, sampling), never a crash; a dataset that verifies
 * is safe for every reader.
 */
#include "fixture.h"
#include "fuzz.h"
#include "store/store_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *const g_arrays[3] = {"book.npy", "part-0/row_rank.npy", "part-1/row_rank.npy"};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fz_in in = {data, size};
  unsigned flags = fz_u8(&in);
  unsigned char *b[3] = {NULL, NULL, NULL};
  size_t n[3] = {0, 0, 0}, off[3] = {0, 0, 0};
  const char *work = fz_path(6, "work");
  while (in.n >= 4) {
    int a = fz_u8(&in) % 3;
    size_t at = fz_u8(&in);
    size_t len;
    at |= (size_t)fz_u8(&in) << 8;
    len = fz_u8(&in);
    if (len > in.n) len = in.n;
    if (!b[a]) {
      char p[2048];
      fo__npy_header h;
      snprintf(p, sizeof p, "%s/%s", fz_fixture(1), g_arrays[a]);
      if (!(b[a] = fz_read(p, &n[a])) || fo__npy_parse(b[a], n[a], &h) != FO_OK) fz_die("fixture array", p);
      off[a] = h.data_offset;
    }
    if (n[a] > off[a])
      for (size_t i = 0; i < len; i++) b[a][off[a] + (at + i) % (n[a] - off[a])] ^= in.p[i];
    in.p += len;
    in.n -= len;
  }
  fz_rm_rf(work);
  fz_copy_tree(fz_fixture(1), work, true);
  for (int a = 0; a < 3; a++) {
    char p[2048];
    if (!b[a]) continue;
    snprintf(p, sizeof p, "%s/%s", work, g_arrays[a]);
    unlink(p);
    fz_write(p, b[a], n[a]);
    free(b[a]);
  }
  fz_rehash(work);
  fz_run_readers(work, flags);
  return 0;
}
