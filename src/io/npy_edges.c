/*
 * io/npy_edges.c: a PyG-style `edge_index` saved with numpy.save: shape [2, E], int32 or int64,
 * C or Fortran order; row 0 holds the sources, row 1 the targets. The file is memory-mapped
 * and checked (header, size) with the same .npy codec the store uses.
 */
#include "io/io_internal.h"
#include "store/store_internal.h"

#include <math.h>

int fo__parse_npy_edges(const char *const *inputs, int n_inputs, const fo_import_opts *o,
                        fo__graph_input *in) {
  fo__map map;
  fo__npy_header h;
  const char *path;
  const unsigned char *data;
  int rc, w;
  int64_t e;
  if (n_inputs != 1) return FO_FAIL(FO_EINVAL, "npy takes one edge_index file, got %d", n_inputs);
  path = inputs[0];
  if ((rc = fo__map_file(path, &map)) != FO_OK) return rc;
  if ((rc = fo__npy_parse(map.addr, map.len, &h)) != FO_OK) {
    rc = fo__context(rc, "%s", path);
    goto out;
  }
  if (strcmp(h.descr, "<i4") && strcmp(h.descr, "<i8")) {
    rc = FO_FAIL(FO_EFORMAT, "%s: dtype '%s', expected int32 ('<i4') or int64 ('<i8')", path, h.descr);
    goto out;
  }
  if (h.ndim != 2 || h.shape[0] != 2) {
    char shape[96];
    int k = snprintf(shape, sizeof shape, "(");
    for (int i = 0; i < h.ndim && k > 0 && (size_t)k < sizeof shape; i++)
      k += snprintf(shape + k, sizeof shape - (size_t)k, i ? ", %lld" : "%lld", (long long)h.shape[i]);
    if (k > 0 && (size_t)k < sizeof shape) snprintf(shape + k, sizeof shape - (size_t)k, ")");
    rc = FO_FAIL(FO_EFORMAT, "%s: shape must be (2, E), is %s", path, shape);
    goto out;
  }
  if ((uint64_t)map.len != h.data_offset + (uint64_t)(h.count * h.itemsize)) {
    rc = FO_FAIL(FO_EFORMAT, "%s: file has %zu bytes, header and shape need %llu", path, map.len,
                 (unsigned long long)(h.data_offset + (uint64_t)(h.count * h.itemsize)));
    goto out;
  }
  e = h.shape[1];
  w = (int)h.itemsize;
  data = (const unsigned char *)map.addr + h.data_offset;
  if ((rc = fo__edges_reserve(&in->edges, e)) != FO_OK) goto out;
  for (int64_t i = 0; i < e; i++) {
    int64_t v[2];
    for (int r = 0; r < 2; r++) {
      /* C order: element (r, i) at r*E + i; Fortran order: at i*2 + r */
      int64_t at = h.fortran_order ? i * 2 + r : r * e + i;
      if (w == 4) {
        int32_t x;
        memcpy(&x, data + at * 4, 4);
        v[r] = x;
      } else {
        memcpy(&v[r], data + at * 8, 8);
      }
      if (!o->relabel && v[r] < 0) {
        rc = FO_FAIL(FO_ERANGE, "%s: edge_index[%d, %lld] = %lld is negative", path, r,
                     (long long)i, (long long)v[r]);
        goto out;
      }
      if (o->num_nodes >= 0 && v[r] >= o->num_nodes) {
        rc = FO_FAIL(FO_ERANGE, "%s: edge_index[%d, %lld] = %lld is >= --num-nodes %lld", path, r,
                     (long long)i, (long long)v[r], (long long)o->num_nodes);
        goto out;
      }
      if (v[r] == INT64_MAX) {
        rc = FO_FAIL(FO_ERANGE, "%s: edge_index[%d, %lld] is too large", path, r, (long long)i);
        goto out;
      }
    }
    in->edges.src[i] = v[0];
    in->edges.dst[i] = v[1];
  }
  in->edges.n = e;
out:
  fo__unmap(&map);
  return rc;
}

int fo__edge_weights_load(fo__graph_input *in, const char *path) {
  fo__map map;
  fo__npy_header h;
  const unsigned char *data;
  int rc, w;
  if ((rc = fo__map_file(path, &map)) != FO_OK) return fo__context(rc, "--edge-weight");
  if ((rc = fo__npy_parse(map.addr, map.len, &h)) != FO_OK) {
    rc = fo__context(rc, "--edge-weight %s", path);
    goto out;
  }
  if (strcmp(h.descr, "<f4") && strcmp(h.descr, "<f8")) {
    rc = FO_FAIL(FO_EFORMAT, "--edge-weight %s: dtype '%s', expected float32 ('<f4') or float64 "
                 "('<f8')", path, h.descr);
    goto out;
  }
  if (h.ndim != 1 || h.shape[0] != in->edges.n) {
    rc = FO_FAIL(FO_EFORMAT, "--edge-weight %s: shape must be (%lld,), one weight per input edge, "
                 "is %s%lld%s", path, (long long)in->edges.n, h.ndim == 1 ? "(" : "ndim ",
                 h.ndim == 1 ? (long long)h.shape[0] : (long long)h.ndim, h.ndim == 1 ? ",)" : "");
    goto out;
  }
  if ((uint64_t)map.len != h.data_offset + (uint64_t)(h.count * h.itemsize)) {
    rc = FO_FAIL(FO_EFORMAT, "--edge-weight %s: file has %zu bytes, header and shape need %llu",
                 path, map.len, (unsigned long long)(h.data_offset + (uint64_t)(h.count * h.itemsize)));
    goto out;
  }
  w = (int)h.itemsize;
  data = (const unsigned char *)map.addr + h.data_offset;
  if (!(in->weight = fo__malloc_n(in->edges.n ? in->edges.n : 1, sizeof *in->weight))) {
    rc = FO_FAIL(FO_ENOMEM, "--edge-weight: %lld weights", (long long)in->edges.n);
    goto out;
  }
  for (int64_t i = 0; i < in->edges.n; i++) {
    double x;
    if (w == 4) {
      float f;
      memcpy(&f, data + i * 4, 4);
      x = f;
    } else {
      memcpy(&x, data + i * 8, 8);
    }
    if (!isfinite(x) || x < 0) {
      rc = FO_FAIL(FO_ERANGE, "--edge-weight %s: weight[%lld] = %g is %s (weights must be finite "
                   "and >= 0)", path, (long long)i, x, isnan(x) ? "NaN" : x < 0 ? "negative" : "infinite");
      goto out;
    }
    in->weight[i] = x;
  }
  in->weight_bytes = w;
out:
  if (rc != FO_OK) {
    free(in->weight);
    in->weight = NULL;
  }
  fo__unmap(&map);
  return rc;
}

int fo__edge_times_load(fo__graph_input *in, const char *path) {
  fo__map map;
  fo__npy_header h;
  const unsigned char *data;
  int rc;
  if ((rc = fo__map_file(path, &map)) != FO_OK) return fo__context(rc, "--edge-time");
  if ((rc = fo__npy_parse(map.addr, map.len, &h)) != FO_OK) {
    rc = fo__context(rc, "--edge-time %s", path);
    goto out;
  }
  if (strcmp(h.descr, "<i8") && strcmp(h.descr, "<i4")) {
    rc = FO_FAIL(FO_EFORMAT, "--edge-time %s: dtype '%s', expected int64 ('<i8') or int32 ('<i4')",
                 path, h.descr);
    goto out;
  }
  if (h.ndim != 1 || h.shape[0] != in->edges.n) {
    rc = FO_FAIL(FO_EFORMAT, "--edge-time %s: shape must be (%lld,), one time per input edge, "
                 "is %s%lld%s", path, (long long)in->edges.n, h.ndim == 1 ? "(" : "ndim ",
                 h.ndim == 1 ? (long long)h.shape[0] : (long long)h.ndim, h.ndim == 1 ? ",)" : "");
    goto out;
  }
  if ((uint64_t)map.len != h.data_offset + (uint64_t)(h.count * h.itemsize)) {
    rc = FO_FAIL(FO_EFORMAT, "--edge-time %s: file has %zu bytes, header and shape need %llu",
                 path, map.len, (unsigned long long)(h.data_offset + (uint64_t)(h.count * h.itemsize)));
    goto out;
  }
  data = (const unsigned char *)map.addr + h.data_offset;
  free(in->time);
  if (!(in->time = fo__malloc_n(in->edges.n ? in->edges.n : 1, sizeof *in->time))) {
    rc = FO_FAIL(FO_ENOMEM, "--edge-time: %lld times", (long long)in->edges.n);
    goto out;
  }
  for (int64_t i = 0; i < in->edges.n; i++) {
    if (h.itemsize == 4) {
      int32_t v;
      memcpy(&v, data + i * 4, 4);
      in->time[i] = v;
    } else {
      memcpy(&in->time[i], data + i * 8, 8);
    }
  }
out:
  fo__unmap(&map);
  return rc;
}
