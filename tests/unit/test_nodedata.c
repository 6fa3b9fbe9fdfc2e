/*
 * tests/unit/test_nodedata.c: node data on import (include/fanout/import.h, dataset.h):
 * --features .npy in float32, float16, float64 and uint8, stored as each feature dtype (float32,
 * float16 and bfloat16 rounded to nearest even, per-column uint8 quantization); --labels int32 and
 * int64 with -1; --split files; every error (code and message, nothing left behind); the
 * Planetoid node data of Cora and CiteSeer (features, class labels, the standard split) and its
 * overrides; fo_dataset_verify on node data.
 *
 * The float16 and float32 expectations are numpy's (1.24), computed once and pasted:
 *   np.array(F16_IN, np.uint32).view(np.float32).astype(np.float16).view(np.uint16)
 *   np.array(F64_IN, np.uint64).view(np.float64).astype(np.float32).view(np.uint32)
 *   np.array(H2F_IN, np.uint16).view(np.float16).astype(np.float32).view(np.uint32)
 * bfloat16 (numpy has none) from the float32 bits by integer round-half-even on the low 16 bits.
 * The inputs cover zeros, ties to even, the largest finite values and the first that overflow,
 * subnormals (ties included), infinities and NaNs.
 */
#include "support.h"

#include "store/store_internal.h"

#include <math.h>
#include <sys/stat.h>
#include <xxhash.h>

#define N_OF(a) ((int64_t)(sizeof(a) / sizeof((a)[0])))

/* ---- numpy's results ---------------------------------------------------------------------- */

/* float32 bits -> float16 bits (numpy astype(np.float16)) */
static const uint32_t F16_IN[54] = {
    0x00000000u, 0x80000000u, 0x3f800000u, 0xbf800000u, 0x3dcccccdu, 0x3eaaaaabu,
    0xc0200000u, 0x40490fdbu, 0x447a1333u, 0x45001000u, 0x45003000u, 0x45002000u,
    0x477fe000u, 0x477fef00u, 0x477ff000u, 0xc77ff000u, 0x4788b800u, 0x49742400u,
    0xc9742400u, 0x322bcc77u, 0xb22bcc77u, 0x38800000u, 0x387ff000u, 0x33800000u,
    0x33000000u, 0x33c00000u, 0x34200000u, 0x33e00000u, 0x33000001u, 0xb3800000u,
    0x387ba882u, 0x3727c5acu, 0x387fc000u, 0x387fe000u, 0x387fa000u, 0x3f801000u,
    0x3f803000u, 0x3f801008u, 0x3f800800u, 0x7f800000u, 0xff800000u, 0x7fc00000u,
    0xffc00000u, 0x7f800001u, 0x00000001u, 0x80000001u, 0x7f7fffffu, 0x38800000u,
    0x387fe000u, 0x387ff000u, 0x33800000u, 0x33000000u, 0x33000001u, 0x337fffffu,
};
static const uint16_t F16_OUT[54] = {
    0x0000u, 0x8000u, 0x3c00u, 0xbc00u, 0x2e66u, 0x3555u, 0xc100u, 0x4248u,
    0x63d1u, 0x6800u, 0x6802u, 0x6801u, 0x7bffu, 0x7bffu, 0x7c00u, 0xfc00u,
    0x7c00u, 0x7c00u, 0xfc00u, 0x0000u, 0x8000u, 0x0400u, 0x0400u, 0x0001u,
    0x0000u, 0x0002u, 0x0002u, 0x0002u, 0x0001u, 0x8001u, 0x03efu, 0x00a8u,
    0x03ffu, 0x0400u, 0x03feu, 0x3c00u, 0x3c02u, 0x3c01u, 0x3c00u, 0x7c00u,
    0xfc00u, 0x7e00u, 0xfe00u, 0x7c01u, 0x0000u, 0x8000u, 0x7c00u, 0x0400u,
    0x0400u, 0x0400u, 0x0001u, 0x0000u, 0x0001u, 0x0001u,
};

/* float32 bits -> bfloat16 bits (round half to even on the low 16 bits); 0xffff: a NaN */
static const uint32_t BF16_IN[62] = {
    0x00000000u, 0x80000000u, 0x3f800000u, 0xbf800000u, 0x3dcccccdu, 0x3eaaaaabu,
    0xc0200000u, 0x40490fdbu, 0x447a1333u, 0x45001000u, 0x45003000u, 0x45002000u,
    0x477fe000u, 0x477fef00u, 0x477ff000u, 0xc77ff000u, 0x4788b800u, 0x49742400u,
    0xc9742400u, 0x322bcc77u, 0xb22bcc77u, 0x38800000u, 0x387ff000u, 0x33800000u,
    0x33000000u, 0x33c00000u, 0x34200000u, 0x33e00000u, 0x33000001u, 0xb3800000u,
    0x387ba882u, 0x3727c5acu, 0x387fc000u, 0x387fe000u, 0x387fa000u, 0x3f801000u,
    0x3f803000u, 0x3f801008u, 0x3f800800u, 0x7f800000u, 0xff800000u, 0x7fc00000u,
    0xffc00000u, 0x7f800001u, 0x00000001u, 0x80000001u, 0x7f7fffffu, 0x38800000u,
    0x387fe000u, 0x387ff000u, 0x33800000u, 0x33000000u, 0x33000001u, 0x337fffffu,
    0x3f808000u, 0x3f818000u, 0x3f808001u, 0x00008000u, 0x00018000u, 0x7f7f8000u,
    0x7f7f7fffu, 0xbf808000u,
};
static const uint16_t BF16_OUT[62] = {
    0x0000u, 0x8000u, 0x3f80u, 0xbf80u, 0x3dcdu, 0x3eabu, 0xc020u, 0x4049u,
    0x447au, 0x4500u, 0x4500u, 0x4500u, 0x4780u, 0x4780u, 0x4780u, 0xc780u,
    0x4789u, 0x4974u, 0xc974u, 0x322cu, 0xb22cu, 0x3880u, 0x3880u, 0x3380u,
    0x3300u, 0x33c0u, 0x3420u, 0x33e0u, 0x3300u, 0xb380u, 0x387cu, 0x3728u,
    0x3880u, 0x3880u, 0x3880u, 0x3f80u, 0x3f80u, 0x3f80u, 0x3f80u, 0x7f80u,
    0xff80u, 0xffffu, 0xffffu, 0xffffu, 0x0000u, 0x8000u, 0x7f80u, 0x3880u,
    0x3880u, 0x3880u, 0x3380u, 0x3300u, 0x3300u, 0x3380u, 0x3f80u, 0x3f82u,
    0x3f81u, 0x0000u, 0x0002u, 0x7f80u, 0x7f7fu, 0xbf80u,
};

/* float64 -> float32 (numpy astype(np.float32)) */
static const uint64_t F64_IN[] = {
  UINT64_C(0x3fb999999999999a) /* 0.1 */,
  UINT64_C(0x3fd5555555555555) /* 0.3333333333333333 */,
  UINT64_C(0xc004000000000000) /* -2.5 */,
  UINT64_C(0x7e37e43c8800759c) /* 1e+300 */,
  UINT64_C(0xfe37e43c8800759c) /* -1e+300 */,
  UINT64_C(0x358dee7a4ad4b81f) /* 1e-50 */,
  UINT64_C(0x47effffff0000000) /* 3.4028235677973366e+38 */,
  UINT64_C(0x47efffffe0000000) /* 3.4028234663852886e+38 */,
  UINT64_C(0x3690000000000000) /* 7.006492321624085e-46 */,
  UINT64_C(0x3698000000000000) /* 1.0509738482436128e-45 */,
  UINT64_C(0x36a8000000000000) /* 2.1019476964872256e-45 */,
  UINT64_C(0x4170000010000000) /* 16777217.0 */,
  UINT64_C(0x4170000030000000) /* 16777219.0 */,
  UINT64_C(0x37a16c262777579c) /* 1e-40 */,
  UINT64_C(0x40fe240c9fbe76c9) /* 123456.789 */,
  UINT64_C(0x8000000000000000) /* -0.0 */,
  UINT64_C(0x7ff0000000000000) /* inf */,
  UINT64_C(0x401c000000000000) /* 7.0 */
};
static const uint32_t F64_OUT[] = {
  0x3dcccccdu,
  0x3eaaaaabu,
  0xc0200000u,
  0x7f800000u,
  0xff800000u,
  0x00000000u,
  0x7f800000u,
  0x7f7fffffu,
  0x00000000u,
  0x00000001u,
  0x00000002u,
  0x4b800000u,
  0x4b800002u,
  0x000116c2u,
  0x47f12065u,
  0x80000000u,
  0x7f800000u,
  0x40e00000u
};

/* float16 bits -> float32 bits (numpy astype(np.float32)) */
static const uint16_t H2F_IN[] = {0x0001u, 0x03ffu, 0x0400u, 0x3c00u, 0x7bffu, 0x7c00u, 0xfc00u, 0x8001u, 0x3555u, 0xc100u};
static const uint32_t H2F_OUT[] = {0x33800000u, 0x387fc000u, 0x38800000u, 0x3f800000u, 0x477fe000u, 0x7f800000u, 0xff800000u, 0xb3800000u, 0x3eaaa000u, 0xc0200000u};

/* ---- fixtures ------------------------------------------------------------------------------ */

/* A scratch directory for input files and imported datasets (named g0, g1, ...). */
typedef struct fx {
  char *tmp;
  int n_out;
  fot_edges e; /* the graph imported by import_graph: cycle(n) */
} fx;

static void fx_init(fx *f, int64_t n) {
  memset(f, 0, sizeof *f);
  f->tmp = fot_tmpdir();
  fot_cycle(n, &f->e);
}

static void fx_free(fx *f) {
  fot_rmtree(f->tmp);
  fot_edges_free(&f->e);
}

/* Write an .npy file `name` into the scratch dir; returns its path (malloc'ed). */
static char *npy(fx *f, const char *name, const char *descr, int ndim, const int64_t *shape,
                 const void *data, size_t nbytes) {
  char hdr[256], *path = fot_path(f->tmp, name);
  size_t hl = fo__npy_format(hdr, sizeof hdr, descr, ndim, shape);
  FILE *fp = fopen(path, "wb");
  assert_true(hl > 0);
  if (!fp) fail_msg("cannot write %s", path);
  if (fwrite(hdr, 1, hl, fp) != hl || (nbytes && fwrite(data, 1, nbytes, fp) != nbytes))
    fail_msg("short write of %s", path);
  fclose(fp);
  return path;
}

static char *next_out(fx *f) {
  char name[32];
  snprintf(name, sizeof name, "g%d", f->n_out++);
  return fot_path(f->tmp, name);
}

static bool exists(const char *path) {
  struct stat st;
  return stat(path, &st) == 0;
}

/* Import the cycle with options `o` into a new dir and open it. *dir_out (optional) gets the dir. */
static fo_dataset_t *import_graph(fx *f, const fo_import_opts *o, char **dir_out) {
  char *out = next_out(f);
  fo_import_opts oo = *o;
  fo_dataset_t *d = NULL;
  oo.num_nodes = f->e.n;
  /* the conversion tests store infinities, NaNs and values past the target's range on purpose
   * (refused by default: test_reliability.c) */
  oo.allow_nonfinite = true;
  assert_fo_ok(fo_import_edges(f->e.src, f->e.dst, f->e.m, out, &oo, NULL));
  assert_fo_ok(fo_dataset_open(out, NULL, &d));
  if (dir_out) *dir_out = out;
  else free(out);
  return d;
}

/* The import must fail with `code` and `want` in the message, leaving no dataset behind. */
static void import_graph_fails(fx *f, const fo_import_opts *o, int code, const char *want) {
  char *out = next_out(f);
  fo_import_opts oo = *o;
  oo.num_nodes = f->e.n;
  assert_fo_error(fo_import_edges(f->e.src, f->e.dst, f->e.m, out, &oo, NULL), code, want);
  if (exists(out)) fail_msg("a failed import left %s behind", out);
  free(out);
}

static fo_import_opts opts_features(const char *features, fo_feature_dtype fdt) {
  fo_import_opts o;
  fo_import_opts_init(&o);
  o.features = features;
  o.feature_dtype = fdt;
  return o;
}

static void features_of(const fo_dataset_t *d, fo_features *x, const char *dtype, int64_t rows,
                        int64_t dim, int64_t itemsize) {
  assert_true(fo_dataset_has_features(d));
  assert_fo_ok(fo_dataset_features(d, x));
  assert_string_equal(x->dtype, dtype);
  assert_int_equal(x->n_rows, rows);
  assert_int_equal(x->dim, dim);
  assert_int_equal(x->itemsize, itemsize);
  if (!strcmp(dtype, "uint8")) {
    assert_non_null(x->scale);
    assert_non_null(x->offset);
  } else {
    assert_null(x->scale);
    assert_null(x->offset);
  }
}

static uint32_t f32_bits(float v) {
  uint32_t b;
  memcpy(&b, &v, 4);
  return b;
}

static float bits_f32(uint32_t b) {
  float v;
  memcpy(&v, &b, 4);
  return v;
}

static bool half_is_nan(uint16_t h) { return (h & 0x7c00u) == 0x7c00u && (h & 0x3ffu); }

/* ---- corrupting an array (as in test_store.c) ---------------------------------------------- */

/* Set element i of the int64 array `name` of dataset `dir` to v; fix the manifest's xxh64. */
/* ---- features: float32, float64, float16 inputs ---------------------------------------------- */

static void features_float32_kept(void **state) {
  fx f;
  float x[6 * 4];
  int64_t shape[2] = {6, 4};
  char *p;
  uint64_t st = 3;
  (void)state;
  fx_init(&f, 6);
  for (int i = 0; i < 24; i++) x[i] = (float)((int64_t)(fot_rand(&st) % 20001) - 10000) / 37.0f;
  x[5] = bits_f32(0x7f800000u);  /* inf */
  x[6] = bits_f32(0x00000003u);  /* a subnormal */
  x[7] = bits_f32(0x7fc00001u);  /* NaN with a payload */
  x[8] = bits_f32(0x80000000u);  /* -0 */
  p = npy(&f, "x.npy", "<f4", 2, shape, x, sizeof x);
  for (int t = 0; t < 2; t++) { /* auto and explicit float32: the bytes as given */
    fo_import_opts o = opts_features(p, t ? FO_FEATURES_FLOAT32 : FO_FEATURES_AUTO);
    fo_dataset_t *d = import_graph(&f, &o, NULL);
    fo_features xf;
    fo_array_info a;
    features_of(d, &xf, "float32", 6, 4, 4);
    assert_memory_equal(xf.data, x, sizeof x);
    assert_fo_ok(fo_dataset_array(d, "x", &a));
    assert_string_equal(a.dtype, "<f4");
    assert_fo_error(fo_dataset_array(d, "x_scale", &a), FO_EINVAL, "x_scale");
    assert_false(fo_dataset_has_labels(d));
    assert_int_equal(fo_dataset_num_splits(d), 0);
    assert_fo_ok(fo_dataset_verify(d));
    fo_dataset_close(d);
  }
  free(p);
  fx_free(&f);
}

static void features_float64_to_float32(void **state) {
  fx f;
  int64_t shape[2] = {6, 3};
  char *p;
  (void)state;
  assert_int_equal(N_OF(F64_IN), 18);
  fx_init(&f, 6);
  p = npy(&f, "x64.npy", "<f8", 2, shape, F64_IN, sizeof F64_IN);
  for (int t = 0; t < 2; t++) {
    fo_import_opts o = opts_features(p, t ? FO_FEATURES_FLOAT32 : FO_FEATURES_AUTO);
    fo_dataset_t *d = import_graph(&f, &o, NULL);
    fo_features xf;
    const uint32_t *got;
    features_of(d, &xf, "float32", 6, 3, 4);
    got = xf.data;
    for (int i = 0; i < 18; i++)
      if (got[i] != F64_OUT[i])
        fail_msg("float64 %016llx -> float32 %08x, numpy gives %08x", (unsigned long long)F64_IN[i],
                 got[i], F64_OUT[i]);
    fo_dataset_close(d);
  }
  /* float64 -> float16 goes through float32 (staged), here without double-rounding cases */
  {
    static const double v[6] = {0.5, -3.25, 65504.0, 1e10, 0.0009765625, -1e-9};
    static const uint16_t want[6] = {0x3800u, 0xc280u, 0x7bffu, 0x7c00u, 0x1400u, 0x8000u};
    int64_t s1[2] = {6, 1};
    char *p1 = npy(&f, "x64b.npy", "<f8", 2, s1, v, sizeof v);
    fo_import_opts o = opts_features(p1, FO_FEATURES_FLOAT16);
    fo_dataset_t *d = import_graph(&f, &o, NULL);
    fo_features xf;
    features_of(d, &xf, "float16", 6, 1, 2);
    assert_memory_equal(xf.data, want, sizeof want);
    fo_dataset_close(d);
    free(p1);
  }
  free(p);
  fx_free(&f);
}

static void features_float32_to_float16(void **state) {
  fx f;
  int64_t shape[2] = {6, 9};
  char *p;
  (void)state;
  assert_int_equal(N_OF(F16_IN), 54);
  fx_init(&f, 6);
  p = npy(&f, "x.npy", "<f4", 2, shape, F16_IN, sizeof F16_IN);
  {
    fo_import_opts o = opts_features(p, FO_FEATURES_FLOAT16);
    fo_dataset_t *d = import_graph(&f, &o, NULL);
    fo_features xf;
    fo_array_info a;
    const uint16_t *got;
    features_of(d, &xf, "float16", 6, 9, 2);
    assert_fo_ok(fo_dataset_array(d, "x", &a));
    assert_string_equal(a.dtype, "<f2");
    got = xf.data;
    for (int i = 0; i < 54; i++) {
      if (half_is_nan(F16_OUT[i])) { /* NaN stays NaN (the payload may differ), sign kept */
        if (!half_is_nan(got[i]) || (got[i] & 0x8000u) != (F16_OUT[i] & 0x8000u))
          fail_msg("float32 %08x (NaN) -> float16 %04x, not a NaN of the same sign", F16_IN[i], got[i]);
      } else if (got[i] != F16_OUT[i]) {
        fail_msg("float32 %08x (%g) -> float16 %04x, numpy gives %04x", F16_IN[i],
                 (double)bits_f32(F16_IN[i]), got[i], F16_OUT[i]);
      }
    }
    fo_dataset_close(d);
  }
  free(p);
  fx_free(&f);
}

/* float16 input: every one of the 65536 bit patterns, kept as float16 (auto) bit for bit
 * (NaNs stay NaNs), and widened to float32 exactly. */
static void features_float16_input(void **state) {
  fx f;
  int64_t shape[2] = {64, 1024};
  uint16_t *h = malloc(65536 * 2);
  char *p;
  (void)state;
  for (uint32_t i = 0; i < 65536; i++) h[i] = (uint16_t)i;
  fx_init(&f, 64);
  p = npy(&f, "x16.npy", "<f2", 2, shape, h, 65536 * 2);
  {
    fo_import_opts o = opts_features(p, FO_FEATURES_AUTO);
    fo_dataset_t *d = import_graph(&f, &o, NULL);
    fo_features xf;
    const uint16_t *got;
    features_of(d, &xf, "float16", 64, 1024, 2);
    got = xf.data;
    for (uint32_t i = 0; i < 65536; i++) {
      bool ok = half_is_nan((uint16_t)i) ? half_is_nan(got[i]) && (got[i] & 0x8000u) == (i & 0x8000u)
                                         : got[i] == i;
      if (!ok) fail_msg("float16 %04x stored as %04x", i, got[i]);
    }
    fo_dataset_close(d);
  }
  {
    fo_import_opts o = opts_features(p, FO_FEATURES_FLOAT32);
    fo_dataset_t *d = import_graph(&f, &o, NULL);
    fo_features xf;
    const float *got;
    features_of(d, &xf, "float32", 64, 1024, 4);
    got = xf.data;
    for (int i = 0; i < N_OF(H2F_IN); i++)
      if (f32_bits(got[H2F_IN[i]]) != H2F_OUT[i])
        fail_msg("float16 %04x -> float32 %08x, numpy gives %08x", H2F_IN[i],
                 f32_bits(got[H2F_IN[i]]), H2F_OUT[i]);
    for (uint32_t i = 0; i < 65536; i++) { /* the value of every pattern, from its definition */
      uint32_t e = (i >> 10) & 0x1f, m = i & 0x3ff;
      double v = e == 0 ? ldexp((double)m, -24) : e == 31 ? (m ? NAN : INFINITY)
                                                          : ldexp((double)(1024 + m), (int)e - 25);
      if (i & 0x8000u) v = -v;
      if (isnan(v) ? !isnan(got[i]) : (double)got[i] != v || !signbit(got[i]) != !signbit(v))
        fail_msg("float16 %04x -> float32 %g, expected %g", i, (double)got[i], v);
    }
    fo_dataset_close(d);
  }
  free(p);
  free(h);
  fx_free(&f);
}

static void features_bfloat16(void **state) {
  fx f;
  uint32_t in[66];
  int64_t shape[2] = {6, 11};
  char *p;
  (void)state;
  assert_int_equal(N_OF(BF16_IN), 62);
  memset(in, 0, sizeof in);
  memcpy(in, BF16_IN, sizeof BF16_IN);
  fx_init(&f, 6);
  p = npy(&f, "x.npy", "<f4", 2, shape, in, sizeof in);
  {
    fo_import_opts o = opts_features(p, FO_FEATURES_BFLOAT16);
    fo_dataset_t *d = import_graph(&f, &o, NULL);
    fo_features xf;
    fo_array_info a;
    const uint16_t *got;
    features_of(d, &xf, "bfloat16", 6, 11, 2);
    assert_fo_ok(fo_dataset_array(d, "x", &a));
    assert_string_equal(a.dtype, "<u2"); /* stored as bits */
    got = xf.data;
    for (int i = 0; i < 66; i++) {
      uint16_t want = i < 62 ? BF16_OUT[i] : 0;
      if (want == 0xffffu) { /* NaN: exponent all ones, mantissa not zero, sign kept */
        if ((got[i] & 0x7f80u) != 0x7f80u || !(got[i] & 0x7fu) ||
            (got[i] & 0x8000u) != ((in[i] >> 16) & 0x8000u))
          fail_msg("float32 %08x (NaN) -> bfloat16 %04x, not a NaN of the same sign", in[i], got[i]);
      } else if (got[i] != want) {
        fail_msg("float32 %08x (%g) -> bfloat16 %04x, expected %04x", in[i], (double)bits_f32(in[i]),
                 got[i], want);
      }
    }
    fo_dataset_close(d);
  }
  free(p);
  fx_free(&f);
}

/* ---- features: uint8 ------------------------------------------------------------------------ */

/* Column j of the [6, 8] test matrix:
 *  0: 0..5 (integers in 0..255: exact)         1: 0, 255, 17, 3, 200, 128 (exact)
 *  2: -3..2 (negative integers: quantized)     3: reals in [-1.7, 3.9]
 *  4: constant 0.5                              5: integers with a 256 (quantized)
 *  6: integers 0..255 and one 2.5 (quantized)   7: reals in [-1e6, 1e6] */
static const float U8_X[6][8] = {
    {0, 0, -3, -1.7f, 0.5f, 0, 0, -1e6f},
    {1, 255, -2, 3.9f, 0.5f, 256, 255, 1e6f},
    {2, 17, -1, 0.123f, 0.5f, 7, 2.5f, 12345.678f},
    {3, 3, 0, 1.0f, 0.5f, 1, 100, -0.001f},
    {4, 200, 1, -0.4f, 0.5f, 2, 3, 999999.0f},
    {5, 128, 2, 2.2f, 0.5f, 3, 4, -54321.5f}};

static void features_uint8_quantized(void **state) {
  fx f;
  int64_t shape[2] = {6, 8};
  char *p;
  (void)state;
  fx_init(&f, 6);
  p = npy(&f, "x.npy", "<f4", 2, shape, U8_X, sizeof U8_X);
  {
    fo_import_opts o = opts_features(p, FO_FEATURES_UINT8);
    char *dir;
    fo_dataset_t *d = import_graph(&f, &o, &dir);
    fo_features xf;
    fo_array_info a;
    const uint8_t *q;
    features_of(d, &xf, "uint8", 6, 8, 1);
    assert_fo_ok(fo_dataset_array(d, "x_scale", &a));
    assert_string_equal(a.dtype, "<f4");
    assert_int_equal(a.shape[0], 8);
    assert_fo_ok(fo_dataset_array(d, "x_offset", &a));
    assert_int_equal(a.shape[0], 8);
    q = xf.data;
    for (int j = 0; j < 8; j++) {
      float lo = U8_X[0][j], hi = U8_X[0][j];
      bool exact = j == 0 || j == 1;
      for (int i = 1; i < 6; i++) {
        if (U8_X[i][j] < lo) lo = U8_X[i][j];
        if (U8_X[i][j] > hi) hi = U8_X[i][j];
      }
      if (exact) {
        assert_true(xf.scale[j] == 1.0f);
        assert_true(xf.offset[j] == 0.0f);
        for (int i = 0; i < 6; i++) assert_int_equal(q[i * 8 + j], (int)U8_X[i][j]);
        continue;
      }
      if (j != 4) { /* a real range: offset = min, scale = (max - min) / 255 */
        assert_true(xf.offset[j] == lo);
        assert_true(fabs((double)xf.scale[j] - ((double)hi - lo) / 255.0) <=
                    1e-6 * ((double)hi - lo) / 255.0);
      }
      for (int i = 0; i < 6; i++) {
        double deq = (double)q[i * 8 + j] * xf.scale[j] + xf.offset[j], v = U8_X[i][j];
        double tol = xf.scale[j] / 2.0 * (1 + 1e-5) + 1e-6 * fabs(v);
        if (fabs(deq - v) > tol)
          fail_msg("column %d row %d: %g dequantizes to %g (scale %g, offset %g)", j, i, v, deq,
                   (double)xf.scale[j], (double)xf.offset[j]);
        if (j != 4 && U8_X[i][j] == lo) assert_int_equal(q[i * 8 + j], 0);
        if (j != 4 && U8_X[i][j] == hi) assert_int_equal(q[i * 8 + j], 255);
      }
    }
    assert_fo_ok(fo_dataset_verify(d));
    fo_dataset_close(d);
    free(dir);
  }
  /* a non-finite value cannot be quantized */
  {
    float bad[6][1] = {{0}, {1}, {INFINITY}, {2}, {3}, {4}};
    int64_t s1[2] = {6, 1};
    char *pb = npy(&f, "bad.npy", "<f4", 2, s1, bad, sizeof bad);
    fo_import_opts o = opts_features(pb, FO_FEATURES_UINT8);
    import_graph_fails(&f, &o, FO_ERANGE, "row 2, column 0 is inf");
    o.allow_nonfinite = true; /* kept as float, but uint8 cannot hold it */
    import_graph_fails(&f, &o, FO_ERANGE, "row 2, column 0 is not finite");
    bad[2][0] = NAN;
    free(pb);
    pb = npy(&f, "bad2.npy", "<f4", 2, s1, bad, sizeof bad);
    o = opts_features(pb, FO_FEATURES_UINT8);
    import_graph_fails(&f, &o, FO_ERANGE, "row 2, column 0 is nan");
    free(pb);
  }
  free(p);
  fx_free(&f);
}

/* A column whose range max - min exceeds FLT_MAX (all values finite): the scale is
 * (max - min) / 255, about 2.4e36, finite, and every value dequantizes within scale / 2.
 * (Computed in float32, max - min once overflowed to inf and every value dequantized to NaN.) */
static void features_uint8_huge_range(void **state) {
  static const float x[6][1] = {{-3e38f}, {3e38f}, {0.0f}, {1.0f}, {-1e38f}, {2e38f}};
  fx f;
  int64_t shape[2] = {6, 1};
  char *p;
  (void)state;
  fx_init(&f, 6);
  p = npy(&f, "x.npy", "<f4", 2, shape, x, sizeof x);
  {
    fo_import_opts o = opts_features(p, FO_FEATURES_UINT8);
    fo_dataset_t *d = import_graph(&f, &o, NULL);
    fo_features xf;
    const uint8_t *q;
    char why[256] = "";
    features_of(d, &xf, "uint8", 6, 1, 1);
    q = xf.data;
    if (!isfinite(xf.scale[0]) || fabs((double)xf.scale[0] - 6e38 / 255.0) > 1e-5 * 6e38 / 255.0)
      snprintf(why, sizeof why, "scale %g, expected (max - min) / 255 = %g", (double)xf.scale[0],
               6e38 / 255.0);
    else if (xf.offset[0] != -3e38f || q[0] != 0 || q[1] != 255)
      snprintf(why, sizeof why, "offset %g (expected -3e38), q[min] %d, q[max] %d",
               (double)xf.offset[0], q[0], q[1]);
    for (int i = 0; i < 6 && !why[0]; i++) {
      double deq = (double)q[i] * xf.scale[0] + xf.offset[0];
      if (!(fabs(deq - x[i][0]) <= xf.scale[0] / 2.0 * (1 + 1e-5)))
        snprintf(why, sizeof why, "row %d: %g dequantizes to %g (scale %g)", i, (double)x[i][0],
                 deq, (double)xf.scale[0]);
    }
    fo_dataset_close(d);
    if (why[0]) {
      free(p);
      fx_free(&f);
      fail_msg("%s", why);
    }
  }
  free(p);
  fx_free(&f);
}

/* uint8 input: kept as uint8 (auto) with scale 1, offset 0, or widened exactly. */
static void features_uint8_input(void **state) {
  fx f;
  uint8_t x[6][5];
  int64_t shape[2] = {6, 5};
  char *p;
  (void)state;
  for (int i = 0; i < 6; i++)
    for (int j = 0; j < 5; j++) x[i][j] = (uint8_t)(i * 51 + j * 7);
  x[5][4] = 255;
  fx_init(&f, 6);
  p = npy(&f, "x8.npy", "|u1", 2, shape, x, sizeof x);
  {
    fo_import_opts o = opts_features(p, FO_FEATURES_AUTO);
    fo_dataset_t *d = import_graph(&f, &o, NULL);
    fo_features xf;
    features_of(d, &xf, "uint8", 6, 5, 1);
    assert_memory_equal(xf.data, x, sizeof x);
    for (int j = 0; j < 5; j++) {
      assert_true(xf.scale[j] == 1.0f);
      assert_true(xf.offset[j] == 0.0f);
    }
    fo_dataset_close(d);
  }
  {
    fo_import_opts o = opts_features(p, FO_FEATURES_FLOAT32);
    fo_dataset_t *d = import_graph(&f, &o, NULL);
    fo_features xf;
    const float *got;
    features_of(d, &xf, "float32", 6, 5, 4);
    got = xf.data;
    for (int i = 0; i < 30; i++) assert_true(got[i] == (float)((const uint8_t *)x)[i]);
    fo_dataset_close(d);
  }
  {
    fo_import_opts o = opts_features(p, FO_FEATURES_FLOAT16);
    fo_dataset_t *d = import_graph(&f, &o, NULL);
    fo_features xf;
    const uint16_t *got;
    features_of(d, &xf, "float16", 6, 5, 2);
    got = xf.data;
    assert_int_equal(got[0], 0x0000); /* 0 */
    assert_int_equal(got[29], 0x5bf8); /* 255 */
    assert_int_equal(got[1], 0x4700);  /* 7 */
    fo_dataset_close(d);
  }
  free(p);
  fx_free(&f);
}

/* D = 0 ("may be 0" in dataset.h): accepted, stored, read back. */
static void features_zero_columns(void **state) {
  fx f;
  int64_t shape[2] = {6, 0};
  char *p;
  (void)state;
  fx_init(&f, 6);
  p = npy(&f, "x0.npy", "<f4", 2, shape, NULL, 0);
  {
    fo_import_opts o = opts_features(p, FO_FEATURES_AUTO);
    fo_dataset_t *d = import_graph(&f, &o, NULL);
    fo_features xf;
    features_of(d, &xf, "float32", 6, 0, 4);
    assert_fo_ok(fo_dataset_verify(d));
    fo_dataset_close(d);
  }
  free(p);
  fx_free(&f);
}

/* ---- labels and splits ------------------------------------------------------------------------ */

static void labels_int64_int32(void **state) {
  static const int64_t y64[6] = {2, -1, 0, 4, -1, 2};
  static const int32_t y32[6] = {-1, 1, 1, 0, -1, 3};
  static const int64_t none[6] = {-1, -1, -1, -1, -1, -1};
  fx f;
  int64_t n = 6;
  char *p64, *p32, *pn;
  (void)state;
  fx_init(&f, 6);
  p64 = npy(&f, "y64.npy", "<i8", 1, &n, y64, sizeof y64);
  p32 = npy(&f, "y32.npy", "<i4", 1, &n, y32, sizeof y32);
  pn = npy(&f, "yn.npy", "<i8", 1, &n, none, sizeof none);
  for (int t = 0; t < 3; t++) {
    fo_import_opts o;
    fo_dataset_t *d;
    const int64_t *y;
    int64_t cnt, k;
    fo_array_info a;
    fo_import_opts_init(&o);
    o.labels = t == 0 ? p64 : t == 1 ? p32 : pn;
    d = import_graph(&f, &o, NULL);
    assert_true(fo_dataset_has_labels(d));
    assert_false(fo_dataset_has_features(d));
    assert_fo_ok(fo_dataset_labels(d, &y, &cnt, &k));
    assert_int_equal(cnt, 6);
    for (int i = 0; i < 6; i++)
      assert_int_equal(y[i], t == 0 ? y64[i] : t == 1 ? (int64_t)y32[i] : -1);
    assert_int_equal(k, t == 0 ? 5 : t == 1 ? 4 : 0); /* max label + 1 */
    assert_fo_ok(fo_dataset_array(d, "y", &a));
    assert_string_equal(a.dtype, "<i8");
    assert_fo_ok(fo_dataset_verify(d));
    fo_dataset_close(d);
  }
  free(p64);
  free(p32);
  free(pn);
  fx_free(&f);
}

static void splits_files(void **state) {
  static const int64_t a[3] = {5, 0, 3};
  static const int32_t b[2] = {1, 2};
  fx f;
  int64_t na = 3, nb = 2, ne = 0;
  char *pa, *pb, *pe, spec[8192];
  (void)state;
  fx_init(&f, 6);
  pa = npy(&f, "a.npy", "<i8", 1, &na, a, sizeof a);
  pb = npy(&f, "b.npy", "<i4", 1, &nb, b, sizeof b);
  pe = npy(&f, "e.npy", "<i8", 1, &ne, NULL, 0);
  {
    fo_import_opts o;
    fo_dataset_t *d;
    const int64_t *ids;
    int64_t n;
    fo_import_opts_init(&o);
    snprintf(spec, sizeof spec, "train=%s,val=%s", pa, pb);
    o.splits = spec;
    d = import_graph(&f, &o, NULL);
    assert_int_equal(fo_dataset_num_splits(d), 2);
    assert_string_equal(fo_dataset_split_name(d, 0), "train");
    assert_string_equal(fo_dataset_split_name(d, 1), "val");
    assert_null(fo_dataset_split_name(d, 2));
    assert_fo_ok(fo_dataset_split(d, "train", &ids, &n));
    assert_int_equal(n, 3);
    assert_memory_equal(ids, a, sizeof a); /* in stored (given) order */
    assert_fo_ok(fo_dataset_split(d, "val", &ids, &n));
    assert_int_equal(n, 2);
    assert_int_equal(ids[0], 1);
    assert_int_equal(ids[1], 2);
    assert_fo_error(fo_dataset_split(d, "test", &ids, &n), FO_EINVAL, "train, val");
    {
      fo_array_info ai;
      assert_fo_ok(fo_dataset_array(d, "train_idx", &ai));
      assert_string_equal(ai.dtype, "<i8");
      assert_fo_ok(fo_dataset_array(d, "val_idx", &ai));
    }
    assert_fo_ok(fo_dataset_verify(d));
    fo_dataset_close(d);
  }
  { /* names of letters, digits and '_'; an empty split; eight splits */
    fo_import_opts o;
    fo_dataset_t *d;
    const int64_t *ids;
    int64_t n;
    size_t len = 0;
    fo_import_opts_init(&o);
    for (int i = 0; i < 7; i++)
      len += (size_t)snprintf(spec + len, sizeof spec - len, "Fold_%d=%s,", i, pa);
    snprintf(spec + len, sizeof spec - len, "empty=%s", pe);
    o.splits = spec;
    d = import_graph(&f, &o, NULL);
    assert_int_equal(fo_dataset_num_splits(d), 8);
    assert_fo_ok(fo_dataset_split(d, "Fold_6", &ids, &n));
    assert_int_equal(n, 3);
    assert_fo_ok(fo_dataset_split(d, "empty", &ids, &n));
    assert_int_equal(n, 0);
    assert_fo_ok(fo_dataset_verify(d));
    fo_dataset_close(d);
  }
  free(pa);
  free(pb);
  free(pe);
  fx_free(&f);
}

/* With relabel, node data is indexed by the new ids ("row v for node v (after relabel)"):
 * edges among ids 10, 20, 30 make nodes 0, 1, 2, so features and labels have 3 rows and split
 * entries are new ids; through fo_import (an edge-list file) as through fo_import_edges. */
static void node_data_after_relabel(void **state) {
  static const float x3[3][2] = {{1, 2}, {3, 4}, {5, 6}};
  static const int64_t y3[3] = {1, -1, 0}, tr[2] = {2, 0};
  static const float x31[31][2] = {{0}};
  fx f;
  int64_t s32[2] = {3, 2}, s312[2] = {31, 2}, n3 = 3, n2 = 2;
  char *px, *px31, *py, *ptr, *edges, *out, spec[4096];
  const char *inputs[1];
  fo_import_opts o;
  fo_dataset_t *d;
  fo_features xf;
  const int64_t *y, *ids;
  int64_t n, k, orig;
  (void)state;
  fx_init(&f, 6);
  px = npy(&f, "x3.npy", "<f4", 2, s32, x3, sizeof x3);
  px31 = npy(&f, "x31.npy", "<f4", 2, s312, x31, sizeof x31);
  py = npy(&f, "y3.npy", "<i8", 1, &n3, y3, sizeof y3);
  ptr = npy(&f, "tr.npy", "<i8", 1, &n2, tr, sizeof tr);
  edges = fot_path(f.tmp, "e.txt");
  fot_write_file(edges, "30 10\n10 20\n");
  inputs[0] = edges;
  fo_import_opts_init(&o);
  o.relabel = true;
  o.features = px;
  o.labels = py;
  snprintf(spec, sizeof spec, "train=%s", ptr);
  o.splits = spec;
  out = next_out(&f);
  assert_fo_ok(fo_import(inputs, 1, out, &o, NULL));
  assert_fo_ok(fo_dataset_open(out, NULL, &d));
  assert_int_equal(fo_dataset_num_nodes(d), 3);
  assert_fo_ok(fo_dataset_node_orig_int(d, 2, &orig));
  assert_int_equal(orig, 30);
  features_of(d, &xf, "float32", 3, 2, 4);
  assert_memory_equal(xf.data, x3, sizeof x3);
  assert_fo_ok(fo_dataset_labels(d, &y, &n, &k));
  assert_memory_equal(y, y3, sizeof y3);
  assert_fo_ok(fo_dataset_split(d, "train", &ids, &n));
  assert_memory_equal(ids, tr, sizeof tr);
  assert_fo_ok(fo_dataset_verify(d));
  fo_dataset_close(d);
  free(out);
  /* 31 rows (indexed by the old ids) do not fit the 3 relabeled nodes */
  o.features = px31;
  o.labels = NULL;
  o.splits = NULL;
  out = next_out(&f);
  assert_fo_error(fo_import(inputs, 1, out, &o, NULL), FO_EINVAL, "have 31 rows, the graph has 3 nodes");
  assert_false(exists(out));
  free(out);
  free(px);
  free(px31);
  free(py);
  free(ptr);
  free(edges);
  fx_free(&f);
}

/* ---- errors -------------------------------------------------------------------------------- */

static void node_data_errors(void **state) {
  fx f;
  float x5[5][2] = {{0}}, x6[6][2] = {{0}};
  int64_t y5[5] = {0, 0, 0, 0, 0}, ybad[6] = {0, 1, -2, 0, 0, 0}, y6[6] = {0};
  int64_t ids_bad[3] = {0, 6, 1}, ids_neg[2] = {-1, 0}, ids_ok[2] = {0, 1};
  double yf[6] = {0};
  int64_t s52[2] = {5, 2}, s62[2] = {6, 2}, n5 = 5, n6 = 6, n3 = 3, n2 = 2, s61[2] = {6, 1};
  int64_t s612[3] = {6, 1, 2};
  int64_t i8[6][2] = {{0}};
  char *px5, *px6, *py5, *pybad, *py6, *pbad, *pneg, *pok, *pyf, *p1d, *pi8, *pfort, *ptrunc,
      *p3d, *py2d, *pf16s, spec[8192];
  fo_import_opts o;
  (void)state;
  fx_init(&f, 6);
  px5 = npy(&f, "x5.npy", "<f4", 2, s52, x5, sizeof x5);
  px6 = npy(&f, "x6.npy", "<f4", 2, s62, x6, sizeof x6);
  py5 = npy(&f, "y5.npy", "<i8", 1, &n5, y5, sizeof y5);
  pybad = npy(&f, "ybad.npy", "<i8", 1, &n6, ybad, sizeof ybad);
  py6 = npy(&f, "y6.npy", "<i8", 1, &n6, y6, sizeof y6);
  pbad = npy(&f, "ids_bad.npy", "<i8", 1, &n3, ids_bad, sizeof ids_bad);
  pneg = npy(&f, "ids_neg.npy", "<i8", 1, &n2, ids_neg, sizeof ids_neg);
  pok = npy(&f, "ids_ok.npy", "<i8", 1, &n2, ids_ok, sizeof ids_ok);
  pyf = npy(&f, "yf.npy", "<f8", 1, &n6, yf, sizeof yf);
  p1d = npy(&f, "x1d.npy", "<f4", 1, &n6, x6, 6 * 4);
  pi8 = npy(&f, "xi8.npy", "<i8", 2, s62, i8, sizeof i8);
  p3d = npy(&f, "x3d.npy", "<f4", 3, s612, x6, sizeof x6);
  py2d = npy(&f, "y2d.npy", "<i8", 2, s61, y6, sizeof y6);
  pf16s = npy(&f, "x16.npy", "<f2", 2, s62, x6, 6 * 2 * 2);
  { /* Fortran order: numpy's header with 'fortran_order': True */
    char hdr[256], *pos;
    size_t hl = fo__npy_format(hdr, sizeof hdr, "<f4", 2, s62);
    FILE *fp;
    pfort = fot_path(f.tmp, "xf.npy");
    hdr[hl] = '\0';
    pos = strstr(hdr + 10, "False,"); /* after the magic and length (which hold NULs) */
    assert_non_null(pos);
    memcpy(pos, "True, ", 6);
    fp = fopen(pfort, "wb");
    fwrite(hdr, 1, hl, fp);
    fwrite(x6, 1, sizeof x6, fp);
    fclose(fp);
  }
  { /* truncated: the header promises 6 x 2 float32, the file holds 11 */
    char hdr[256];
    size_t hl = fo__npy_format(hdr, sizeof hdr, "<f4", 2, s62);
    FILE *fp;
    ptrunc = fot_path(f.tmp, "xt.npy");
    fp = fopen(ptrunc, "wb");
    fwrite(hdr, 1, hl, fp);
    fwrite(x6, 1, sizeof x6 - 4, fp);
    fclose(fp);
  }

  o = opts_features(px5, FO_FEATURES_AUTO);
  import_graph_fails(&f, &o, FO_EINVAL, "have 5 rows, the graph has 6 nodes");
  o = opts_features(px5, FO_FEATURES_UINT8);
  import_graph_fails(&f, &o, FO_EINVAL, "5 rows");
  o = opts_features(p1d, FO_FEATURES_AUTO);
  import_graph_fails(&f, &o, FO_EFORMAT, "must have shape (n_nodes, D), has 1 dimensions");
  o = opts_features(p3d, FO_FEATURES_AUTO);
  import_graph_fails(&f, &o, FO_EFORMAT, "has 3 dimensions");
  o = opts_features(pi8, FO_FEATURES_AUTO);
  import_graph_fails(&f, &o, FO_EFORMAT, "dtype '<i8' is not float32, float16, float64 or uint8");
  {
    char *pbe = npy(&f, "xbe.npy", ">f4", 2, s62, x6, sizeof x6);
    o = opts_features(pbe, FO_FEATURES_AUTO);
    import_graph_fails(&f, &o, FO_EFORMAT, ">f4");
    free(pbe);
  }
  o = opts_features(pfort, FO_FEATURES_AUTO);
  import_graph_fails(&f, &o, FO_EFORMAT, "Fortran order is not supported");
  o = opts_features(ptrunc, FO_FEATURES_AUTO);
  import_graph_fails(&f, &o, FO_EFORMAT, "file has");
  o = opts_features(pf16s, FO_FEATURES_AUTO); /* a good control: the same shape in float16 */
  fo_dataset_close(import_graph(&f, &o, NULL));
  {
    char *missing = fot_path(f.tmp, "missing.npy");
    o = opts_features(missing, FO_FEATURES_AUTO);
    import_graph_fails(&f, &o, FO_EIO, "missing.npy");
    free(missing);
  }
  o = opts_features(px6, (fo_feature_dtype)9);
  import_graph_fails(&f, &o, FO_EINVAL, "feature dtype 9");

  fo_import_opts_init(&o);
  o.labels = py5;
  import_graph_fails(&f, &o, FO_EINVAL, "have 5 entries, the graph has 6 nodes");
  o.labels = pybad;
  import_graph_fails(&f, &o, FO_ERANGE, "entry 2 is -2");
  o.labels = pyf;
  import_graph_fails(&f, &o, FO_EFORMAT, "1-D int64 or int32");
  o.labels = py2d;
  import_graph_fails(&f, &o, FO_EFORMAT, "2 dimensions");

  fo_import_opts_init(&o);
  snprintf(spec, sizeof spec, "train=%s", pbad);
  o.splits = spec;
  import_graph_fails(&f, &o, FO_ERANGE, "split 'train': entry 1 is 6, not a node id in [0, 6)");
  snprintf(spec, sizeof spec, "val=%s", pneg);
  import_graph_fails(&f, &o, FO_ERANGE, "entry 0 is -1");
  snprintf(spec, sizeof spec, "train%s", pok);
  import_graph_fails(&f, &o, FO_EINVAL, "is not NAME=FILE.npy");
  snprintf(spec, sizeof spec, "train=%s,val", pok);
  import_graph_fails(&f, &o, FO_EINVAL, "'val' is not NAME=FILE.npy");
  snprintf(spec, sizeof spec, "tr-ain=%s", pok);
  import_graph_fails(&f, &o, FO_EINVAL, "is not NAME=FILE.npy");
  snprintf(spec, sizeof spec, "=%s", pok);
  import_graph_fails(&f, &o, FO_EINVAL, "is not NAME=FILE.npy");
  snprintf(spec, sizeof spec, "train=%s,train=%s", pok, pok);
  import_graph_fails(&f, &o, FO_EINVAL, "split 'train' given twice");
  {
    size_t len = 0;
    for (int i = 0; i < 9; i++)
      len += (size_t)snprintf(spec + len, sizeof spec - len, "%ss%d=%s", i ? "," : "", i, pok);
    import_graph_fails(&f, &o, FO_EINVAL, "more than 8 splits");
  }
  snprintf(spec, sizeof spec, "train=%s", py2d);
  import_graph_fails(&f, &o, FO_EFORMAT, "1-D int64 or int32");

  free(px5);
  free(px6);
  free(py5);
  free(pybad);
  free(py6);
  free(pbad);
  free(pneg);
  free(pok);
  free(pyf);
  free(p1d);
  free(pi8);
  free(pfort);
  free(ptrunc);
  free(p3d);
  free(py2d);
  free(pf16s);
  fx_free(&f);
}

/* ---- Planetoid --------------------------------------------------------------------------------- */

/* Import data/<name>/<name>.content.gz + .cites into tmp/<out>; options from `o`. */
static fo_dataset_t *import_planetoid(const char *tmp, const char *name, const char *out,
                                      fo_import_opts *o, char **dir_out) {
  char rel[256], *content, *cites, *dir = fot_path(tmp, out);
  const char *inputs[2];
  fo_dataset_t *d = NULL;
  snprintf(rel, sizeof rel, "%s/%s.content.gz", name, name);
  content = fot_path(fot_data_dir(), rel);
  snprintf(rel, sizeof rel, "%s/%s.cites", name, name);
  cites = fot_path(fot_data_dir(), rel);
  inputs[0] = content;
  inputs[1] = cites;
  o->format = FO_FORMAT_PLANETOID;
  assert_fo_ok(fo_import(inputs, 2, dir, o, NULL));
  assert_fo_ok(fo_dataset_open(dir, NULL, &d));
  free(content);
  free(cites);
  if (dir_out) *dir_out = dir;
  else free(dir);
  return d;
}

static void split_of(const fo_dataset_t *d, const char *name, const int64_t **ids, int64_t *n) {
  assert_fo_ok(fo_dataset_split(d, name, ids, n));
}

/* The standard split: `per_class` x C train nodes (per_class of each class), 500 val, 1000
 * test, pairwise disjoint, all labeled, each sorted ascending (strictly: no repeats). */
static void check_standard_split(const fo_dataset_t *d, int64_t C) {
  static const char *names[3] = {"train", "val", "test"};
  const int64_t want[3] = {20 * C, 500, 1000};
  const int64_t *y, *ids;
  int64_t n, cnt, k;
  uint8_t *in;
  int64_t per_class[16] = {0};
  assert_fo_ok(fo_dataset_labels(d, &y, &n, &k));
  in = calloc((size_t)n, 1);
  assert_int_equal(fo_dataset_num_splits(d), 3);
  for (int s = 0; s < 3; s++) {
    assert_string_equal(fo_dataset_split_name(d, s), names[s]);
    split_of(d, names[s], &ids, &cnt);
    assert_int_equal(cnt, want[s]);
    for (int64_t i = 0; i < cnt; i++) {
      assert_true(ids[i] >= 0 && ids[i] < n);
      if (i) assert_true(ids[i - 1] < ids[i]);
      assert_true(y[ids[i]] >= 0 && y[ids[i]] < C);
      if (in[ids[i]]) fail_msg("node %lld is in two splits", (long long)ids[i]);
      in[ids[i]] = (uint8_t)(s + 1);
      if (s == 0) per_class[y[ids[i]]]++;
    }
  }
  for (int64_t c = 0; c < C; c++) assert_int_equal(per_class[c], 20);
  free(in);
}

static void planetoid_cora(void **state) {
  static const int64_t counts[7] = {298, 418, 818, 426, 217, 180, 351};
  char *tmp = fot_tmpdir();
  fo_import_opts o;
  fo_dataset_t *d, *d2, *d3;
  fo_features xf;
  const int64_t *y, *t1, *t2, *t3;
  int64_t n, k, c[7] = {0}, ones = 0, n1, n2, n3;
  (void)state;
  fo_import_opts_init(&o);
  o.undirected = true;
  d = import_planetoid(tmp, "cora", "a", &o, NULL);
  assert_int_equal(fo_dataset_num_nodes(d), 2708);
  features_of(d, &xf, "float32", 2708, 1433, 4);
  for (int64_t i = 0; i < 2708 * 1433; i++) {
    float v = ((const float *)xf.data)[i];
    if (v == 1.0f) ones++;
    else if (v != 0.0f) fail_msg("cora x[%lld] = %g, not 0 or 1", (long long)i, (double)v);
  }
  assert_int_equal(ones, 49216);
  assert_fo_ok(fo_dataset_labels(d, &y, &n, &k));
  assert_int_equal(n, 2708);
  assert_int_equal(k, 7);
  for (int64_t v = 0; v < n; v++) {
    assert_true(y[v] >= 0 && y[v] < 7); /* all labeled */
    c[y[v]]++;
  }
  assert_memory_equal(c, counts, sizeof counts);
  check_standard_split(d, 7);
  assert_fo_ok(fo_dataset_verify(d));
  /* the same split_seed: the same split; another: a different one */
  d2 = import_planetoid(tmp, "cora", "b", &o, NULL);
  o.split_seed = 1;
  d3 = import_planetoid(tmp, "cora", "c", &o, NULL);
  check_standard_split(d3, 7);
  for (int s = 0; s < 3; s++) {
    const char *name = s == 0 ? "train" : s == 1 ? "val" : "test";
    split_of(d, name, &t1, &n1);
    split_of(d2, name, &t2, &n2);
    split_of(d3, name, &t3, &n3);
    assert_int_equal(n1, n2);
    assert_memory_equal(t1, t2, (size_t)n1 * 8);
    assert_int_equal(n1, n3);
    assert_memory_not_equal(t1, t3, (size_t)n1 * 8);
  }
  fo_dataset_close(d);
  fo_dataset_close(d2);
  fo_dataset_close(d3);
  /* uint8: the 0/1 words are integer columns, stored exactly */
  o.split_seed = 0;
  o.feature_dtype = FO_FEATURES_UINT8;
  d = import_planetoid(tmp, "cora", "d", &o, NULL);
  features_of(d, &xf, "uint8", 2708, 1433, 1);
  ones = 0;
  for (int64_t i = 0; i < 2708 * 1433; i++) {
    uint8_t q = ((const uint8_t *)xf.data)[i];
    assert_true(q <= 1);
    ones += q;
  }
  assert_int_equal(ones, 49216);
  for (int j = 0; j < 1433; j++) {
    assert_true(xf.scale[j] == 1.0f);
    assert_true(xf.offset[j] == 0.0f);
  }
  assert_fo_ok(fo_dataset_verify(d));
  fo_dataset_close(d);
  fot_rmtree(tmp);
}

static void planetoid_citeseer(void **state) {
  static const int64_t counts[6] = {249, 596, 701, 508, 668, 590};
  char *tmp = fot_tmpdir();
  fo_import_opts o;
  fo_dataset_t *d;
  fo_features xf;
  const int64_t *y, *ids;
  int64_t n, k, c[6] = {0}, cnt;
  (void)state;
  fo_import_opts_init(&o);
  o.undirected = true;
  d = import_planetoid(tmp, "citeseer", "a", &o, NULL);
  assert_int_equal(fo_dataset_num_nodes(d), 3327);
  features_of(d, &xf, "float32", 3327, 3703, 4);
  assert_fo_ok(fo_dataset_labels(d, &y, &n, &k));
  assert_int_equal(k, 6);
  for (int64_t v = 0; v < 3312; v++) {
    assert_true(y[v] >= 0 && y[v] < 6);
    c[y[v]]++;
  }
  assert_memory_equal(c, counts, sizeof counts);
  for (int64_t v = 3312; v < 3327; v++) { /* the 15 cited-only nodes */
    const float *row = (const float *)xf.data + v * 3703;
    assert_int_equal(y[v], -1);
    for (int j = 0; j < 3703; j++)
      if (row[j] != 0.0f) fail_msg("cited-only node %lld has feature %d = %g", (long long)v, j, (double)row[j]);
  }
  check_standard_split(d, 6); /* all labeled: the 15 are in no split */
  for (int s = 0; s < 3; s++) {
    split_of(d, s == 0 ? "train" : s == 1 ? "val" : "test", &ids, &cnt);
    for (int64_t i = 0; i < cnt; i++) assert_true(ids[i] < 3312);
  }
  assert_fo_ok(fo_dataset_verify(d));
  fo_dataset_close(d);
  /* drop_unknown: the 15 are not added; every node has a label and features */
  o.drop_unknown = true;
  d = import_planetoid(tmp, "citeseer", "b", &o, NULL);
  assert_int_equal(fo_dataset_num_nodes(d), 3312);
  features_of(d, &xf, "float32", 3312, 3703, 4);
  assert_fo_ok(fo_dataset_labels(d, &y, &n, &k));
  assert_int_equal(n, 3312);
  for (int64_t v = 0; v < n; v++) assert_true(y[v] >= 0 && y[v] < 6);
  check_standard_split(d, 6);
  fo_dataset_close(d);
  fot_rmtree(tmp);
}

/* --labels, --split and --features given with planetoid replace its own. */
static void planetoid_overrides(void **state) {
  char *tmp = fot_tmpdir();
  fx f;
  int64_t *y = malloc(2708 * 8), n = 2708, ntr = 4, s2[2] = {2708, 3};
  int64_t train[4] = {2707, 5, 9, 0};
  float *x = calloc(2708 * 3, sizeof *x);
  char *py, *ptr, *px, spec[4096];
  fo_import_opts o;
  fo_dataset_t *d;
  const int64_t *yy, *ids;
  int64_t cnt, k;
  fo_features xf;
  (void)state;
  memset(&f, 0, sizeof f);
  f.tmp = tmp;
  for (int64_t v = 0; v < 2708; v++) y[v] = v % 4 == 3 ? -1 : v % 3;
  for (int64_t i = 0; i < 2708 * 3; i++) x[i] = (float)i;
  py = npy(&f, "y.npy", "<i8", 1, &n, y, (size_t)n * 8);
  ptr = npy(&f, "tr.npy", "<i8", 1, &ntr, train, sizeof train);
  px = npy(&f, "x.npy", "<f4", 2, s2, x, 2708 * 3 * sizeof *x);
  /* --labels: these labels, and the standard split drawn from them (3 classes) */
  fo_import_opts_init(&o);
  o.labels = py;
  d = import_planetoid(tmp, "cora", "a", &o, NULL);
  assert_fo_ok(fo_dataset_labels(d, &yy, &cnt, &k));
  assert_memory_equal(yy, y, 2708 * 8);
  assert_int_equal(k, 3);
  features_of(d, &xf, "float32", 2708, 1433, 4); /* its own features stay */
  check_standard_split(d, 3);
  fo_dataset_close(d);
  /* --split: only these splits; the labels stay planetoid's */
  fo_import_opts_init(&o);
  snprintf(spec, sizeof spec, "train=%s", ptr);
  o.splits = spec;
  d = import_planetoid(tmp, "cora", "b", &o, NULL);
  assert_int_equal(fo_dataset_num_splits(d), 1);
  split_of(d, "train", &ids, &cnt);
  assert_int_equal(cnt, 4);
  assert_memory_equal(ids, train, sizeof train);
  assert_fo_error(fo_dataset_split(d, "val", &ids, &cnt), FO_EINVAL, "train");
  assert_fo_ok(fo_dataset_labels(d, &yy, &cnt, &k));
  assert_int_equal(k, 7);
  fo_dataset_close(d);
  /* --features: these features */
  fo_import_opts_init(&o);
  o.features = px;
  d = import_planetoid(tmp, "cora", "c", &o, NULL);
  features_of(d, &xf, "float32", 2708, 3, 4);
  assert_memory_equal(xf.data, x, 2708 * 3 * sizeof *x);
  check_standard_split(d, 7);
  fo_dataset_close(d);
  free(y);
  free(x);
  free(py);
  free(ptr);
  free(px);
  fot_rmtree(tmp);
}

/* ---- verify ------------------------------------------------------------------------------------ */

static void verify_node_data(void **state) {
  fx f;
  int64_t y[6] = {0, 1, -1, 2, 0, 1}, tr[3] = {0, 2, 4}, n6 = 6, n3 = 3;
  char *py, *ptr, *dir, spec[4096];
  fo_import_opts o;
  fo_dataset_t *d;
  (void)state;
  fx_init(&f, 6);
  py = npy(&f, "y.npy", "<i8", 1, &n6, y, sizeof y);
  ptr = npy(&f, "tr.npy", "<i8", 1, &n3, tr, sizeof tr);
  fo_import_opts_init(&o);
  o.labels = py;
  snprintf(spec, sizeof spec, "train=%s", ptr);
  o.splits = spec;
  d = import_graph(&f, &o, &dir);
  assert_fo_ok(fo_dataset_verify(d));
  fo_dataset_close(d);
  /* a split entry out of range (checksum fixed: only the range check sees it) */
  fot_set_array_elem(dir, "train_idx", 1, 6, true);
  assert_fo_ok(fo_dataset_open(dir, NULL, &d));
  assert_fo_error(fo_dataset_verify(d), FO_EFORMAT, "train_idx[1] = 6 is not a node id in [0, 6)");
  fo_dataset_close(d);
  fot_set_array_elem(dir, "train_idx", 1, -3, true);
  assert_fo_ok(fo_dataset_open(dir, NULL, &d));
  assert_fo_error(fo_dataset_verify(d), FO_EFORMAT, "train_idx[1] = -3");
  fo_dataset_close(d);
  fot_set_array_elem(dir, "train_idx", 1, 2, true);
  assert_fo_ok(fo_dataset_open(dir, NULL, &d));
  assert_fo_ok(fo_dataset_verify(d));
  fo_dataset_close(d);
  /* a label < -1 */
  fot_set_array_elem(dir, "y", 4, -2, true);
  assert_fo_ok(fo_dataset_open(dir, NULL, &d));
  assert_fo_error(fo_dataset_verify(d), FO_EFORMAT, "y[4] = -2 is not a label");
  fo_dataset_close(d);
  free(dir);
  free(py);
  free(ptr);
  fx_free(&f);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(features_float32_kept),
      cmocka_unit_test(features_float64_to_float32),
      cmocka_unit_test(features_float32_to_float16),
      cmocka_unit_test(features_float16_input),
      cmocka_unit_test(features_bfloat16),
      cmocka_unit_test(features_uint8_quantized),
      cmocka_unit_test(features_uint8_huge_range),
      cmocka_unit_test(features_uint8_input),
      cmocka_unit_test(features_zero_columns),
      cmocka_unit_test(labels_int64_int32),
      cmocka_unit_test(splits_files),
      cmocka_unit_test(node_data_after_relabel),
      cmocka_unit_test(node_data_errors),
      cmocka_unit_test(planetoid_cora),
      cmocka_unit_test(planetoid_citeseer),
      cmocka_unit_test(planetoid_overrides),
      cmocka_unit_test(verify_node_data),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
