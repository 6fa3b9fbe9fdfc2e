/*
 * Harness "book": the partition book and the parts' rank directories of a partitioned dataset
 * (store_internal.h fo__owner / fo__owner_row, fo_dataset_node_part, the sampler's routing,
 * fo_dataset_verify's book checks). Fixtures: Cora in 2 hash parts ("cora2", uint8 book) and
 * typed Cora in 2 hash parts ("typed2", a book and rank directories per node type).
 * Input: byte 0: reader flags; then records {array u8 (mod 9: 0-2 cora2's book, row_rank of
 * part 0, of part 1; 3-8 typed2's paper and class books and their row_rank in parts 0 and 1),
 * offset u16 LE, len u8, bytes[len]} XORed into that array's data (after its .npy header);
 * the first record picks the fixture, records on the other fixture's arrays are skipped; the
 * manifests' xxh64 are then recomputed, so verify must catch the corruption by its content.
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

#define N_ARRAYS 9
static const char *const g_arrays[N_ARRAYS] = {
    "book.npy",          "part-0/row_rank.npy",    "part-1/row_rank.npy",
    "n0.book.npy",       "n1.book.npy",            "part-0/n0.row_rank.npy",
    "part-1/n0.row_rank.npy", "part-0/n1.row_rank.npy", "part-1/n1.row_rank.npy"};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fz_in in = {data, size};
  unsigned flags = fz_u8(&in);
  unsigned char *b[N_ARRAYS] = {NULL};
  size_t n[N_ARRAYS] = {0}, off[N_ARRAYS] = {0};
  const char *work = fz_path(6, "work");
  int fx = -1;
  while (in.n >= 4) {
    int a = fz_u8(&in) % N_ARRAYS;
    size_t at = fz_u8(&in);
    size_t len;
    at |= (size_t)fz_u8(&in) << 8;
    len = fz_u8(&in);
    if (len > in.n) len = in.n;
    if (fx < 0) fx = a < 3 ? 1 : 5;
    if ((a < 3) != (fx == 1)) {
      in.p += len;
      in.n -= len;
      continue;
    }
    if (!b[a]) {
      char p[2048];
      fo__npy_header h;
      snprintf(p, sizeof p, "%s/%s", fz_fixture(fx), g_arrays[a]);
      if (!(b[a] = fz_read(p, &n[a])) || fo__npy_parse(b[a], n[a], &h) != FO_OK) fz_die("fixture array", p);
      off[a] = h.data_offset;
    }
    if (n[a] > off[a])
      for (size_t i = 0; i < len; i++) b[a][off[a] + (at + i) % (n[a] - off[a])] ^= in.p[i];
    in.p += len;
    in.n -= len;
  }
  if (fx < 0) fx = 1;
  fz_rm_rf(work);
  fz_copy_tree(fz_fixture(fx), work, true);
  for (int a = 0; a < N_ARRAYS; a++) {
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
