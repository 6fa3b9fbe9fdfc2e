/*
 * Harness "edgelist": the SNAP-style edge list parser (io/edgelist.c, fo__parse_edgelist).
 * Input: one option byte (bit 0 string_ids, 1 relabel, 2 num_nodes 5000, 3 columns 1,0,
 * 4 two files, 5 gzip the text, 6 a time column 2 (--time-col; 7: --time-format iso8601),
 * 7 without 6: a weight column 2 (--weight-col)), then the file's bytes (with bit 4: split at
 * the first NUL into two files).
 * Promise: any bytes give FO_OK or a status with a message; never a crash; without relabel no
 * negative id comes out.
 */
#include "import_common.h"

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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fo_import_opts o;
  fz_in in = {data, size};
  uint8_t flags = fz_u8(&in);
  const char *files[2];
  int nf = 1;
  fo_import_opts_init(&o);
  o.string_ids = flags & 1;
  o.relabel = !o.string_ids && (flags & 2);
  if (!o.string_ids && !o.relabel && (flags & 4)) o.num_nodes = 5000;
  if (flags & 8) {
    o.src_column = 1;
    o.dst_column = 0;
  }
  if (flags & 64) {
    o.time_column = 2;
    o.time_format = (flags & 128) ? FO_TIME_ISO8601 : FO_TIME_UNIX;
  } else if (flags & 128) {
    o.weight_column = 2;
  }
  {
    const uint8_t *cut = (flags & 16) ? memchr(in.p, 0, in.n) : NULL;
    size_t n0 = cut ? (size_t)(cut - in.p) : in.n;
    const uint8_t *parts[2] = {in.p, cut ? cut + 1 : NULL};
    size_t lens[2] = {n0, cut ? in.n - n0 - 1 : 0};
    nf = cut ? 2 : 1;
    for (int i = 0; i < nf; i++) {
      if (flags & 32) {
        size_t zn;
        void *z = gz(parts[i], lens[i], &zn);
        files[i] = fz_memfile(i, z, zn);
        free(z);
      } else {
        files[i] = fz_memfile(i, parts[i], lens[i]);
      }
    }
  }
  fz_parse(fo__parse_edgelist, files, nf, &o);
  return 0;
}
