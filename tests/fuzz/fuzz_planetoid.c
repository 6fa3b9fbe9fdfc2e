/*
 * Harness "planetoid": the LINQS Planetoid parser (io/planetoid.c, fo__parse_planetoid) and the
 * standard split drawn from its labels (fo__node_data_planetoid_split), as fo_import runs them.
 * Input: one option byte (bit 0 drop_unknown, bit 1 uint8 features, bit 2 cites file first),
 * then the .content bytes, a NUL, the .cites bytes.
 * Promise: any pair of files gives FO_OK or a status with a message naming file and line; the
 * features and labels come out with one row per node.
 */
#include "import_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fo_import_opts o;
  fo__graph_input g;
  fz_in in = {data, size};
  uint8_t flags = fz_u8(&in);
  const uint8_t *cut = memchr(in.p, 0, in.n);
  size_t n0 = cut ? (size_t)(cut - in.p) : in.n;
  const char *files[2];
  int rc;
  fo_import_opts_init(&o);
  o.format = FO_FORMAT_PLANETOID;
  o.drop_unknown = flags & 1;
  if (flags & 2) o.feature_dtype = FO_FEATURES_UINT8;
  files[0] = fz_path(0, "g.content");
  files[1] = fz_path(1, "g.cites");
  fz_write(files[0], in.p, n0);
  fz_write(files[1], cut ? cut + 1 : in.p, cut ? in.n - n0 - 1 : 0);
  if (flags & 4) {
    const char *t = files[0];
    files[0] = files[1];
    files[1] = t;
  }
  memset(&g, 0, sizeof g);
  g.n_nodes = -1;
  rc = fo__parse_planetoid(files, 2, &o, &g);
  if (rc == FO_OK) {
    int64_t n = fo__strmap_count(g.orig_str);
    if ((g.node.x && g.node.x_rows != n) || (g.node.y && g.node.y_rows != n)) abort();
    for (int64_t i = 0; i < g.edges.n; i++)
      if (g.edges.src[i] < 0 || g.edges.src[i] >= n || g.edges.dst[i] < 0 || g.edges.dst[i] >= n)
        abort();
    if (g.node.y) rc = fo__node_data_planetoid_split(&g.node, flags);
  }
  fz_check_status(rc);
  fo__edges_free(&g.edges);
  fo__node_data_free(&g.node);
  fo__strmap_destroy(g.orig_str);
  json_decref(g.provenance);
  return 0;
}
