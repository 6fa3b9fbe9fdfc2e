/*
 * io/nodedata.c: node features, labels and splits on their way into a dataset: reading them
 * from .npy files (--features, --labels, --split), the standard Planetoid split, checking them
 * against the graph, converting features to the stored dtype (float32, float16, bfloat16 or
 * per-column uint8 quantization) and writing them.
 *
 * Features are staged as float32 [n, D]: every input dtype converts to it exactly except
 * float64 (rounded), and every output dtype is computed from it.
 */
#include "io/io_internal.h"
#include "core/rng.h"
#include "store/store_internal.h"

#include <float.h>
#include <math.h>

void fo__node_data_free(fo__node_data *nd) {
  free(nd->x);
  free(nd->y);
  free(nd->t);
  for (int i = 0; i < nd->n_splits; i++) free(nd->splits[i].ids);
  for (int i = 0; i < nd->n_arrays; i++) free(nd->arrays[i].v);
  memset(nd, 0, sizeof *nd);
}

/* ---- half and bfloat16 ------------------------------------------------------------------ */

static float half_to_float(uint16_t h) {
  uint32_t sign = (uint32_t)(h >> 15) << 31, exp = (h >> 10) & 0x1f, man = h & 0x3ff, bits;
  float f;
  if (exp == 0) {
    f = ldexpf((float)man, -24); /* zero or subnormal */
    return sign ? -f : f;
  }
  if (exp == 31) bits = sign | 0x7f800000u | (man << 13); /* inf or nan */
  else bits = sign | ((exp + 112) << 23) | (man << 13);
  memcpy(&f, &bits, 4);
  return f;
}

/* float -> IEEE half, round to nearest even, overflow to inf, NaN kept. */
static uint16_t float_to_half(float f) {
  uint32_t x, sign, man;
  int32_t exp;
  memcpy(&x, &f, 4);
  sign = (x >> 16) & 0x8000u;
  exp = (int32_t)((x >> 23) & 0xff) - 127 + 15;
  man = x & 0x7fffffu;
  if (((x >> 23) & 0xff) == 0xff) return (uint16_t)(sign | 0x7c00u | (man ? 0x200u : 0));
  if (exp >= 31) return (uint16_t)(sign | 0x7c00u);
  if (exp <= 0) {
    /* subnormal half (or zero): shift the implicit bit in, round to nearest even */
    uint32_t m, shift, r, half, rest;
    if (exp < -10) return (uint16_t)sign;
    m = man | 0x800000u;
    shift = (uint32_t)(14 - exp);
    r = m >> shift;
    half = 1u << (shift - 1);
    rest = m & ((1u << shift) - 1);
    if (rest > half || (rest == half && (r & 1))) r++;
    return (uint16_t)(sign | r);
  }
  {
    uint32_t r = ((uint32_t)exp << 10) | (man >> 13), rest = man & 0x1fffu;
    if (rest > 0x1000u || (rest == 0x1000u && (r & 1))) r++; /* may carry into exp: correct */
    return (uint16_t)(sign | r);
  }
}

static uint16_t float_to_bfloat16(float f) {
  uint32_t x;
  memcpy(&x, &f, 4);
  if ((x & 0x7f800000u) == 0x7f800000u && (x & 0x7fffffu)) return (uint16_t)((x >> 16) | 0x40u);
  x += 0x7fffu + ((x >> 16) & 1); /* round to nearest even */
  return (uint16_t)(x >> 16);
}

/* ---- reading .npy inputs ---------------------------------------------------------------- */

/* Map `path`, parse its header; the caller unmaps. */
static int open_npy(const char *path, const char *what, fo__map *m, fo__npy_header *h) {
  int rc;
  if ((rc = fo__map_file(path, m)) != FO_OK) return fo__context(rc, "%s", what);
  if ((rc = fo__npy_parse(m->addr, m->len, h)) != FO_OK) {
    fo__unmap(m);
    return fo__context(rc, "%s '%s'", what, path);
  }
  if ((uint64_t)m->len != h->data_offset + (uint64_t)(h->count * h->itemsize)) {
    fo__unmap(m);
    return FO_FAIL(FO_EFORMAT, "%s '%s': file has %zu bytes, header and shape need %llu", what,
                   path, m->len, (unsigned long long)(h->data_offset + (uint64_t)(h->count * h->itemsize)));
  }
  if (h->fortran_order && h->ndim > 1) {
    fo__unmap(m);
    return FO_FAIL(FO_EFORMAT, "%s '%s': Fortran order is not supported (save a C-order array)",
                   what, path);
  }
  return FO_OK;
}

/* An int64 or int32 array [k] (or [k, c] if cols is not NULL) as int64. */
static int read_ints(const char *path, const char *what, int64_t **out, int64_t *n, int64_t *cols) {
  fo__map m;
  fo__npy_header h;
  const unsigned char *p;
  int rc = open_npy(path, what, &m, &h);
  if (rc != FO_OK) return rc;
  if ((h.ndim != 1 && (!cols || h.ndim != 2)) || (strcmp(h.descr, "<i8") && strcmp(h.descr, "<i4"))) {
    rc = FO_FAIL(FO_EFORMAT, "%s '%s': must be a %s int64 or int32 array, is %s with %d dimensions",
                 what, path, cols ? "1-D or 2-D" : "1-D", h.descr, h.ndim);
    goto out;
  }
  if (!(*out = fo__malloc_n(h.count, sizeof **out))) {
    rc = FO_FAIL(FO_ENOMEM, "%s '%s'", what, path);
    goto out;
  }
  if (cols) *cols = h.ndim == 2 ? h.shape[1] : 0;
  p = (const unsigned char *)m.addr + h.data_offset;
  for (int64_t i = 0; i < h.count; i++) {
    if (h.itemsize == 4) {
      int32_t v;
      memcpy(&v, p + 4 * i, 4);
      (*out)[i] = v;
    } else {
      memcpy(&(*out)[i], p + 8 * i, 8);
    }
  }
  *n = h.shape[0];
out:
  fo__unmap(&m);
  return rc;
}

static int read_ids(const char *path, const char *what, int64_t **out, int64_t *n) {
  return read_ints(path, what, out, n, NULL);
}

static int read_features(fo__node_data *nd, const char *path) {
  fo__map m;
  fo__npy_header h;
  const unsigned char *p;
  int64_t cnt;
  int rc = open_npy(path, "features", &m, &h);
  if (rc != FO_OK) return rc;
  if (h.ndim != 2) {
    rc = FO_FAIL(FO_EFORMAT, "features '%s': must have shape (n_nodes, D), has %d dimensions",
                 path, h.ndim);
    goto out;
  }
  if (!strcmp(h.descr, "<f4")) nd->x_src = FO_FEATURES_FLOAT32;
  else if (!strcmp(h.descr, "<f8")) nd->x_src = FO_FEATURES_FLOAT32;
  else if (!strcmp(h.descr, "<f2")) nd->x_src = FO_FEATURES_FLOAT16;
  else if (!strcmp(h.descr, "|u1")) nd->x_src = FO_FEATURES_UINT8;
  else {
    rc = FO_FAIL(FO_EFORMAT, "features '%s': dtype '%s' is not float32, float16, float64 or uint8",
                 path, h.descr);
    goto out;
  }
  cnt = h.count;
  free(nd->x);
  if (!(nd->x = fo__malloc_n(cnt, sizeof *nd->x))) {
    rc = FO_FAIL(FO_ENOMEM, "features '%s': %lld values", path, (long long)cnt);
    goto out;
  }
  p = (const unsigned char *)m.addr + h.data_offset;
  for (int64_t i = 0; i < cnt; i++) {
    switch (h.itemsize) {
    case 8: {
      double v;
      memcpy(&v, p + 8 * i, 8);
      if (!nd->allow_nonfinite && isfinite(v) && fabs(v) > (double)FLT_MAX) {
        rc = FO_FAIL(FO_ERANGE, "features '%s': row %lld, column %lld: float64 value %g is "
                     "outside float32's range (+-%g; --allow-nonfinite stores it as infinity)",
                     path, (long long)(i / h.shape[1]), (long long)(i % h.shape[1]), v,
                     (double)FLT_MAX);
        goto out;
      }
      nd->x[i] = (float)v;
      break;
    }
    case 4: memcpy(&nd->x[i], p + 4 * i, 4); break;
    case 2: {
      uint16_t v;
      memcpy(&v, p + 2 * i, 2);
      nd->x[i] = half_to_float(v);
      break;
    }
    default: nd->x[i] = (float)p[i]; break;
    }
  }
  nd->x_rows = h.shape[0];
  nd->x_dim = h.shape[1];
out:
  fo__unmap(&m);
  return rc;
}

static bool valid_split_name(const char *s, size_t n) {
  if (n == 0 || n >= 32) return false;
  for (size_t i = 0; i < n; i++)
    if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') || (s[i] >= '0' && s[i] <= '9') || s[i] == '_'))
      return false;
  return true;
}

/* "NAME=FILE.npy,..." of `opt` into splits (kind 0), per-node arrays (1) or other arrays (2). */
static int load_list(fo__node_data *nd, const char *spec, const char *opt, int kind) {
  const char *p = spec;
  int rc;
  while (*p) {
    const char *comma = strchr(p, ','), *eq = strchr(p, '=');
    size_t len = comma ? (size_t)(comma - p) : strlen(p), nlen;
    char path[4096], name[32];
    if (!eq || eq > p + len || !valid_split_name(p, (size_t)(eq - p)))
      return FO_FAIL(FO_EINVAL, "%s: '%.*s' is not NAME=FILE.npy (NAME of letters, digits, '_', "
                     "up to 31)", opt, (int)len, p);
    nlen = (size_t)(eq - p);
    snprintf(name, sizeof name, "%.*s", (int)nlen, p);
    snprintf(path, sizeof path, "%.*s", (int)(p + len - eq - 1), eq + 1);
    if (kind == 0) {
      if (nd->n_splits == FO_MAX_SPLITS) return FO_FAIL(FO_EINVAL, "%s: more than %d splits", opt, FO_MAX_SPLITS);
      for (int i = 0; i < nd->n_splits; i++)
        if (!strcmp(nd->splits[i].name, name)) return FO_FAIL(FO_EINVAL, "%s: split '%s' given twice", opt, name);
      snprintf(nd->splits[nd->n_splits].name, sizeof nd->splits[0].name, "%s", name);
      if ((rc = read_ids(path, "split", &nd->splits[nd->n_splits].ids, &nd->splits[nd->n_splits].n)) != FO_OK)
        return rc;
      nd->n_splits++;
    } else {
      static const char *const taken[] = {"x", "y", "x_scale", "x_offset", "node_orig", "edge_orig"};
      bool dup = false;
      if (nd->n_arrays == FO_MAX_ARRAYS)
        return FO_FAIL(FO_EINVAL, "%s: more than %d arrays", opt, FO_MAX_ARRAYS);
      for (int i = 0; i < nd->n_arrays; i++) dup |= !strcmp(nd->arrays[i].name, name);
      for (size_t i = 0; i < sizeof taken / sizeof taken[0]; i++) dup |= !strcmp(taken[i], name);
      dup |= !strncmp(name, "csc_", 4) || !strncmp(name, "csr_", 4) ||
             (nlen > 4 && !strcmp(name + nlen - 4, "_idx"));
      if (dup)
        return FO_FAIL(FO_EINVAL, "%s: array name '%s' is taken (given twice, or a name fanout "
                       "uses itself)", opt, name);
      snprintf(nd->arrays[nd->n_arrays].name, sizeof nd->arrays[0].name, "%s", name);
      nd->arrays[nd->n_arrays].per_node = kind == 1;
      if ((rc = read_ints(path, opt, &nd->arrays[nd->n_arrays].v, &nd->arrays[nd->n_arrays].n,
                          kind == 2 ? &nd->arrays[nd->n_arrays].cols : NULL)) != FO_OK)
        return rc;
      nd->arrays[nd->n_arrays].source = NULL;
      nd->n_arrays++;
    }
    p += len;
    if (*p == ',') p++;
  }
  return FO_OK;
}

int fo__node_times_load(fo__node_data *nd, const char *path) {
  free(nd->t);
  nd->t = NULL;
  nd->t_source = path;
  return read_ids(path, "--node-time", &nd->t, &nd->t_rows);
}

int fo__node_data_load(fo__node_data *nd, const fo_import_opts *o) {
  int rc;
  nd->allow_nonfinite = o->allow_nonfinite;
  if ((rc = fo__node_data_load_files(nd, o->features, o->labels, o->splits)) != FO_OK) return rc;
  if (o->node_time && (rc = fo__node_times_load(nd, o->node_time)) != FO_OK) return rc;
  if (o->node_arrays && (rc = load_list(nd, o->node_arrays, "--node-array", 1)) != FO_OK) return rc;
  if (o->arrays && (rc = load_list(nd, o->arrays, "--array", 2)) != FO_OK) return rc;
  return FO_OK;
}

int fo__node_data_load_files(fo__node_data *nd, const char *features, const char *labels,
                             const char *splits) {
  int rc;
  if (features && (rc = read_features(nd, features)) != FO_OK) return rc;
  if (labels) {
    free(nd->y);
    nd->y = NULL;
    if ((rc = read_ids(labels, "labels", &nd->y, &nd->y_rows)) != FO_OK) return rc;
    if ((rc = fo__node_data_check_labels(nd, labels)) != FO_OK) return rc;
  }
  if (splits) {
    for (int i = 0; i < nd->n_splits; i++) free(nd->splits[i].ids);
    nd->n_splits = 0;
    if ((rc = load_list(nd, splits, "--split", 0)) != FO_OK) return rc;
  }
  return FO_OK;
}

int fo__node_data_check_labels(const fo__node_data *nd, const char *what) {
  for (int64_t v = 0; v < nd->y_rows; v++)
    if (nd->y[v] < -1 || nd->y[v] >= FO_MAX_CLASSES)
      return FO_FAIL(FO_ERANGE, "labels '%s': entry %lld is %lld (expected -1 or a class id in "
                     "[0, %lld))", what, (long long)v, (long long)nd->y[v],
                     (long long)FO_MAX_CLASSES);
  return FO_OK;
}

/* ---- the Planetoid split ---------------------------------------------------------------- */

static int cmp_i64(const void *a, const void *b) {
  int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
  return (x > y) - (x < y);
}

/* (label, node) pairs in ascending order: the members of each class, ascending. */
static int cmp_pair(const void *a, const void *b) {
  const int64_t *p = a, *q = b;
  return p[0] != q[0] ? (p[0] > q[0]) - (p[0] < q[0]) : (p[1] > q[1]) - (p[1] < q[1]);
}

int fo__node_data_planetoid_split(fo__node_data *nd, uint64_t seed) {
  static const char *names[3] = {"train", "val", "test"};
  const int64_t per_class = 20, n_val = 500, n_test = 1000, n = nd->y_rows;
  int64_t n_classes = 0, *cand = NULL, *perm = NULL, *ids[3] = {NULL, NULL, NULL}, cnt[3] = {0, 0, 0};
  uint8_t *in_train = NULL;
  int rc = FO_OK;
  if ((rc = fo__node_data_check_labels(nd, "(planetoid)")) != FO_OK) return rc;
  for (int64_t v = 0; v < n; v++)
    if (nd->y[v] + 1 > n_classes) n_classes = nd->y[v] + 1;
  cand = fo__malloc_n(n, sizeof *cand);
  perm = fo__malloc_n(n, sizeof *perm);
  in_train = fo__calloc_n(n, 1);
  for (int i = 0; i < 3; i++) ids[i] = fo__malloc_n(n, sizeof *ids[i]);
  if (!cand || !perm || !in_train || !ids[0] || !ids[1] || !ids[2]) {
    rc = FO_FAIL(FO_ENOMEM, "planetoid split");
    goto out;
  }
  /* per class, in class order: its members ascending, permuted by the class's stream. The
   * classes are visited through the nodes sorted by (label, id), not by a loop over 0..max
   * label, so that a label value cannot drive the work (a label of 2^30 costs nothing extra);
   * classes without members draw nothing, so the split is the one the loop over classes gave. */
  {
    int64_t *pairs = fo__malloc_n(n, 2 * sizeof *pairs), m = 0;
    if (!pairs) {
      rc = FO_FAIL(FO_ENOMEM, "planetoid split");
      goto out;
    }
    for (int64_t v = 0; v < n; v++)
      if (nd->y[v] >= 0) {
        pairs[2 * m] = nd->y[v];
        pairs[2 * m++ + 1] = v;
      }
    qsort(pairs, (size_t)m, 2 * sizeof *pairs, cmp_pair);
    for (int64_t a = 0; a < m;) {
      const int64_t c = pairs[2 * a];
      int64_t k = 0;
      while (a + k < m && pairs[2 * (a + k)] == c) {
        cand[k] = pairs[2 * (a + k) + 1];
        k++;
      }
      fo__permutation(k, seed, 0, FO_RNG_TAG_SPLIT, (uint64_t)c, perm);
      for (int64_t i = 0; i < k && i < per_class; i++) {
        ids[0][cnt[0]++] = cand[perm[i]];
        in_train[cand[perm[i]]] = 1;
      }
      a += k;
    }
    free(pairs);
  }
  {
    int64_t k = 0;
    for (int64_t v = 0; v < n; v++)
      if (nd->y[v] >= 0 && !in_train[v]) cand[k++] = v;
    fo__permutation(k, seed, 0, FO_RNG_TAG_SPLIT, (uint64_t)n_classes, perm);
    for (int64_t i = 0; i < k && i < n_val + n_test; i++) {
      int s = i < n_val ? 1 : 2;
      ids[s][cnt[s]++] = cand[perm[i]];
    }
  }
  for (int i = 0; i < nd->n_splits; i++) free(nd->splits[i].ids);
  nd->n_splits = 3;
  for (int i = 0; i < 3; i++) {
    qsort(ids[i], (size_t)cnt[i], sizeof *ids[i], cmp_i64);
    snprintf(nd->splits[i].name, sizeof nd->splits[i].name, "%s", names[i]);
    nd->splits[i].ids = ids[i];
    nd->splits[i].n = cnt[i];
    ids[i] = NULL;
  }
out:
  free(cand);
  free(perm);
  free(in_train);
  for (int i = 0; i < 3; i++) free(ids[i]);
  return rc;
}

/* ---- check, convert, write -------------------------------------------------------------- */

static bool all_small_ints(const float *x, int64_t rows, int64_t dim, int64_t j) {
  for (int64_t i = 0; i < rows; i++) {
    float v = x[i * dim + j];
    if (!(v >= 0 && v <= 255) || v != floorf(v)) return false;
  }
  return true;
}

static int write_features(fo__node_data *nd, fo_feature_dtype dt, const char *prefix,
                          const char *src, bool allow, fo__writer *w, json_t *man) {
  const int64_t rows = nd->x_rows, dim = nd->x_dim, cnt = rows * dim;
  const int64_t shape[2] = {rows, dim};
  const char *name = NULL, *descr = NULL;
  void *buf = NULL;
  float *scale = NULL, *offset = NULL;
  int rc = FO_OK;
  json_t *jf;
  char ax[48], as[48], ao[48];
  if (dt == FO_FEATURES_AUTO) dt = nd->x_src ? nd->x_src : FO_FEATURES_FLOAT32;
  for (int64_t i = 0; i < cnt; i++)
    if (!isfinite(nd->x[i]) && dt == FO_FEATURES_UINT8)
      return FO_FAIL(FO_ERANGE, "features: value at row %lld, column %lld is not finite (uint8 "
                     "quantization needs finite values)", (long long)(i / dim), (long long)(i % dim));
  switch (dt) {
  case FO_FEATURES_FLOAT16:
  case FO_FEATURES_BFLOAT16: {
    uint16_t *h = fo__malloc_n(cnt, sizeof *h);
    if (!h) return FO_FAIL(FO_ENOMEM, "features");
    for (int64_t i = 0; i < cnt; i++) {
      h[i] = dt == FO_FEATURES_FLOAT16 ? float_to_half(nd->x[i]) : float_to_bfloat16(nd->x[i]);
      /* a finite value that rounds to infinity is outside the stored dtype's range */
      if (!allow && isfinite(nd->x[i]) &&
          (h[i] & 0x7fffu) == (dt == FO_FEATURES_FLOAT16 ? 0x7c00u : 0x7f80u)) {
        free(h);
        return FO_FAIL(FO_ERANGE, "features '%s': row %lld, column %lld: value %g is outside "
                       "%s's range (+-%g; --allow-nonfinite stores it as infinity)", src, (long long)(i / dim), (long long)(i % dim),
                       (double)nd->x[i], dt == FO_FEATURES_FLOAT16 ? "float16" : "bfloat16",
                       dt == FO_FEATURES_FLOAT16 ? 65504.0 : 3.3895313892515355e38);
      }
    }
    buf = h;
    name = dt == FO_FEATURES_FLOAT16 ? "float16" : "bfloat16";
    descr = dt == FO_FEATURES_FLOAT16 ? "<f2" : "<u2";
    break;
  }
  case FO_FEATURES_UINT8: {
    uint8_t *q = fo__malloc_n(cnt, 1);
    scale = fo__malloc_n(dim, sizeof *scale);
    offset = fo__malloc_n(dim, sizeof *offset);
    if (!q || !scale || !offset) {
      free(q);
      rc = FO_FAIL(FO_ENOMEM, "features");
      goto out;
    }
    for (int64_t j = 0; j < dim; j++) {
      float lo = INFINITY, hi = -INFINITY;
      if (all_small_ints(nd->x, rows, dim, j)) {
        scale[j] = 1.0f;
        offset[j] = 0.0f;
      } else {
        for (int64_t i = 0; i < rows; i++) {
          float v = nd->x[i * dim + j];
          if (v < lo) lo = v;
          if (v > hi) hi = v;
        }
        /* in double: hi - lo may exceed the float range when the scale does not */
        offset[j] = lo;
        scale[j] = hi > lo ? (float)(((double)hi - (double)lo) / 255.0) : 1.0f;
      }
      for (int64_t i = 0; i < rows; i++) {
        double t = ((double)nd->x[i * dim + j] - (double)offset[j]) / (double)scale[j];
        q[i * dim + j] = (uint8_t)(t <= 0 ? 0 : t >= 255 ? 255 : lrint(t));
      }
    }
    buf = q;
    name = "uint8";
    descr = "|u1";
    break;
  }
  default:
    name = "float32";
    descr = "<f4";
    break;
  }
  snprintf(ax, sizeof ax, "%sx", prefix);
  snprintf(as, sizeof as, "%sx_scale", prefix);
  snprintf(ao, sizeof ao, "%sx_offset", prefix);
  if ((rc = fo__writer_add(w, ax, descr, 2, shape, buf ? buf : nd->x)) != FO_OK) goto out;
  jf = json_pack("{s:s, s:s}", "array", ax, "dtype", name);
  if (scale) {
    if ((rc = fo__writer_add(w, as, "<f4", 1, &dim, scale)) != FO_OK ||
        (rc = fo__writer_add(w, ao, "<f4", 1, &dim, offset)) != FO_OK) {
      json_decref(jf);
      goto out;
    }
    json_object_set_new(jf, "scale", json_string(as));
    json_object_set_new(jf, "offset", json_string(ao));
  }
  json_object_set_new(man, "features", jf);
out:
  free(buf);
  free(scale);
  free(offset);
  return rc;
}

int fo__node_data_write(fo__node_data *nd, int64_t n, const fo_import_opts *o, fo__writer *w,
                        json_t *man) {
  return fo__node_data_write_as(nd, n, NULL, o->features ? o->features : "(planetoid)",
                                o->labels ? o->labels : "(planetoid)", o->feature_dtype, w, man);
}

/* prefix NULL: version 1 names ("x", "y", "<split>_idx"); else "<prefix>x", "<prefix>y",
 * "<prefix>split.<split>" */
int fo__node_data_write_as(fo__node_data *nd, int64_t n, const char *prefix, const char *features,
                           const char *labels, fo_feature_dtype dt, fo__writer *w, json_t *man) {
  int rc;
  char ay[48];
  snprintf(ay, sizeof ay, "%sy", prefix ? prefix : "");
  if (nd->x) {
    if (nd->x_rows != n)
      return FO_FAIL(FO_EINVAL, "features '%s' have %lld rows, the graph has %lld nodes",
                     features, (long long)nd->x_rows, (long long)n);
    if (!nd->allow_nonfinite)
      for (int64_t i = 0; i < nd->x_rows * nd->x_dim; i++)
        if (FO_UNLIKELY(!isfinite(nd->x[i])))
          return FO_FAIL(FO_ERANGE, "features '%s': row %lld, column %lld is %g (NaN and infinite "
                         "values are refused; --allow-nonfinite keeps them)", features,
                         (long long)(i / nd->x_dim), (long long)(i % nd->x_dim), (double)nd->x[i]);
    if ((rc = write_features(nd, dt, prefix ? prefix : "", features, nd->allow_nonfinite, w, man)) != FO_OK)
      return rc;
  }
  if (nd->y) {
    int64_t k = 0;
    if (nd->y_rows != n)
      return FO_FAIL(FO_EINVAL, "labels '%s' have %lld entries, the graph has %lld nodes",
                     labels, (long long)nd->y_rows, (long long)n);
    for (int64_t v = 0; v < n; v++) {
      if (nd->y[v] < -1 || nd->y[v] >= FO_MAX_CLASSES)
        return FO_FAIL(FO_ERANGE, "labels: label of node %lld is %lld (expected -1 or a class id "
                       "in [0, %lld))", (long long)v, (long long)nd->y[v], (long long)FO_MAX_CLASSES);
      if (nd->y[v] + 1 > k) k = nd->y[v] + 1;
    }
    if ((rc = fo__writer_add(w, ay, "<i8", 1, &n, nd->y)) != FO_OK) return rc;
    json_object_set_new(man, "labels", json_pack("{s:s, s:I}", "array", ay, "num_classes", (json_int_t)k));
  }
  if (nd->t) {
    char at[48];
    if (nd->t_rows != n)
      return FO_FAIL(FO_EINVAL, "--node-time '%s' has %lld entries, the graph%s has %lld nodes",
                     nd->t_source ? nd->t_source : "", (long long)nd->t_rows,
                     prefix ? "'s node type" : "", (long long)n);
    snprintf(at, sizeof at, "%snode_time", prefix ? prefix : "");
    if ((rc = fo__writer_add(w, at, "<i8", 1, &n, nd->t)) != FO_OK) return rc;
    json_object_set_new(man, "node_time", json_string(at));
  }
  if (nd->n_splits) {
    json_t *js = json_object();
    json_object_set_new(man, "splits", js);
    for (int i = 0; i < nd->n_splits; i++) {
      char arr[64];
      for (int64_t j = 0; j < nd->splits[i].n; j++)
        if (nd->splits[i].ids[j] < 0 || nd->splits[i].ids[j] >= n)
          return FO_FAIL(FO_ERANGE, "split '%s': entry %lld is %lld, not a node id in [0, %lld)",
                         nd->splits[i].name, (long long)j, (long long)nd->splits[i].ids[j], (long long)n);
      if (prefix) snprintf(arr, sizeof arr, "%ssplit.%s", prefix, nd->splits[i].name);
      else snprintf(arr, sizeof arr, "%s_idx", nd->splits[i].name);
      if ((rc = fo__writer_add(w, arr, "<i8", 1, &nd->splits[i].n, nd->splits[i].ids)) != FO_OK) return rc;
      json_object_set_new(js, nd->splits[i].name, json_string(arr));
    }
  }
  for (int i = 0; i < nd->n_arrays; i++) {
    const char *key = nd->arrays[i].per_node ? "node_data" : "extra";
    int64_t shape[2] = {nd->arrays[i].n, nd->arrays[i].cols};
    json_t *ja = json_object_get(man, key);
    if (nd->arrays[i].per_node && nd->arrays[i].n != n)
      return FO_FAIL(FO_EINVAL, "node array '%s' (%s) has %lld entries, the graph has %lld nodes",
                     nd->arrays[i].name, nd->arrays[i].source ? nd->arrays[i].source : "--node-array",
                     (long long)nd->arrays[i].n, (long long)n);
    if ((rc = fo__writer_add(w, nd->arrays[i].name, "<i8", shape[1] ? 2 : 1, shape, nd->arrays[i].v)) != FO_OK)
      return rc;
    if (!ja) json_object_set_new(man, key, ja = json_object());
    json_object_set_new(ja, nd->arrays[i].name, json_string(nd->arrays[i].name));
  }
  return FO_OK;
}
