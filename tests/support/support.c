/*
 * tests/support/support.c: temp dirs, paths, data locations and test seeds.
 */
#include "support.h"

#include "store/store_internal.h"

#include <jansson.h>
#include <xxhash.h>

#include <dirent.h>
#include <math.h>
#include <sys/stat.h>
#include <unistd.h>

char *fot_tmpdir(void) {
  const char *base = getenv("TMPDIR");
  char *p = malloc(4096);
  snprintf(p, 4096, "%s/fanout-test-XXXXXX", base && *base ? base : "/tmp");
  if (!mkdtemp(p)) {
    perror("mkdtemp");
    abort();
  }
  return p;
}

static void rmtree(const char *path) {
  struct stat st;
  if (lstat(path, &st) != 0) return;
  if (S_ISDIR(st.st_mode)) {
    DIR *d = opendir(path);
    struct dirent *de;
    while (d && (de = readdir(d)) != NULL) {
      char *c;
      if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, "..")) continue;
      c = fot_path(path, de->d_name);
      rmtree(c);
      free(c);
    }
    if (d) closedir(d);
    rmdir(path);
  } else {
    unlink(path);
  }
}

void fot_rmtree(char *path) {
  if (!path) return;
  rmtree(path);
  free(path);
}

char *fot_path(const char *dir, const char *name) {
  size_t n = strlen(dir) + strlen(name) + 2;
  char *p = malloc(n);
  snprintf(p, n, "%s/%s", dir, name);
  return p;
}

void fot_write_file(const char *path, const char *text) {
  FILE *f = fopen(path, "wb");
  if (!f) fail_msg("cannot write %s", path);
  fwrite(text, 1, strlen(text), f);
  fclose(f);
}

const char *fot_data_dir(void) { return FO_TEST_DATA_DIR; }

const char *fot_shared_data_dir(void) {
  static char buf[4096];
  const char *env = getenv("FO_SHARED_DATA");
  struct stat st;
  snprintf(buf, sizeof buf, "%s", env && *env ? env : FO_TEST_SHARED_DATA);
  if (stat(buf, &st) != 0 || !S_ISDIR(st.st_mode)) return NULL;
  return buf;
}

uint64_t fot_seed(uint64_t fallback) {
  const char *s = getenv("FO_TEST_SEED");
  return s && *s ? strtoull(s, NULL, 10) : fallback;
}

void fot_note_seed(uint64_t seed) {
  printf("FO_TEST_SEED=%llu\n", (unsigned long long)seed);
  fflush(stdout);
}

uint64_t fot_rand(uint64_t *state) {
  uint64_t z = (*state += UINT64_C(0x9E3779B97F4A7C15));
  z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
  z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
  return z ^ (z >> 31);
}

void fot_write_bytes(const char *path, const void *buf, size_t len) {
  FILE *fp = fopen(path, "wb");
  if (!fp) fail_msg("cannot write %s", path);
  if (len && fwrite(buf, 1, len, fp) != len) fail_msg("short write of %s", path);
  fclose(fp);
}

char *fot_read_file(const char *path, size_t *len) {
  FILE *fp = fopen(path, "rb");
  char *buf;
  long n;
  if (!fp) fail_msg("cannot read %s", path);
  fseek(fp, 0, SEEK_END);
  n = ftell(fp);
  fseek(fp, 0, SEEK_SET);
  buf = malloc((size_t)n + 1);
  if (fread(buf, 1, (size_t)n, fp) != (size_t)n) fail_msg("short read of %s", path);
  buf[n] = '\0';
  fclose(fp);
  *len = (size_t)n;
  return buf;
}

void fot_write_npy(const char *path, const char *descr, int ndim, const int64_t *shape,
                   const void *data, size_t nbytes) {
  char hdr[512];
  size_t hl = fo__npy_format(hdr, sizeof hdr, descr, ndim, shape);
  FILE *f = fopen(path, "wb");
  if (!hl) fail_msg("npy header for %s does not fit", path);
  if (!f) fail_msg("cannot write %s", path);
  if (fwrite(hdr, 1, hl, f) != hl || (nbytes && fwrite(data, 1, nbytes, f) != nbytes))
    fail_msg("short write of %s", path);
  fclose(f);
}

void fot_set_array_elem(const char *dir, const char *name, int64_t i, int64_t v, bool fix_checksum) {
  char file[256], *path, *buf;
  size_t len;
  fo__npy_header h;
  unsigned char *data;
  snprintf(file, sizeof file, "%s.npy", name);
  path = fot_path(dir, file);
  buf = fot_read_file(path, &len);
  if (fo__npy_parse(buf, len, &h) != FO_OK) fail_msg("%s: %s", path, fo_last_error());
  if (i < 0 || i >= h.count) fail_msg("%s: element %lld out of range", path, (long long)i);
  data = (unsigned char *)buf + h.data_offset;
  if (h.itemsize == 4) {
    int32_t x = (int32_t)v;
    memcpy(data + i * 4, &x, 4);
  } else {
    if (h.itemsize != 8) fail_msg("%s: not an int32/int64 array", path);
    memcpy(data + i * 8, &v, 8);
  }
  fot_write_bytes(path, buf, len);
  if (fix_checksum) {
    char hex[17], *mpath = fot_path(dir, FO_MANIFEST);
    json_error_t err;
    json_t *root = json_load_file(mpath, JSON_PRESERVE_ORDER, &err), *e;
    size_t k;
    bool found = false;
    if (!root) fail_msg("%s: %s", mpath, err.text);
    snprintf(hex, sizeof hex, "%016llx",
             (unsigned long long)XXH64(data, (size_t)(h.count * h.itemsize), 0));
    json_array_foreach(json_object_get(root, "arrays"), k, e) {
      if (!strcmp(json_string_value(json_object_get(e, "name")), name)) {
        json_object_set_new(e, "xxh64", json_string(hex));
        found = true;
      }
    }
    if (!found) fail_msg("manifest has no array '%s'", name);
    if (json_dump_file(root, mpath, JSON_INDENT(2) | JSON_PRESERVE_ORDER) != 0)
      fail_msg("write %s", mpath);
    json_decref(root);
    free(mpath);
  }
  free(buf);
  free(path);
}

void fot_dist_same(const fo_dataset_t *d, const fo_dataset_t *pd, int P, const fo_loader_opts *o) {
  fo_loader_t *L0, *L[4];
  fo_dist_t *dd[4];
  fo_loader_batch_t *bt;
  uint64_t want[128];
  int64_t nw = 0, total = 0, hops = 0;
  assert_in_range(P, 1, 4);
  assert_fo_ok(fo_loader_create(d, o, &L0));
  while (nw < 128 && fo_loader_next(L0, &bt) == FO_OK && bt) {
    want[nw++] = fo_loader_batch_digest(bt);
    fo_loader_release(L0, bt);
  }
  fo_loader_destroy(L0);
  for (int r = 0; r < P; r++) {
    assert_fo_ok(fo_dist_init_local(pd, r, NULL, &dd[r]));
    assert_fo_ok(fo_dist_loader_create(dd[r], pd, o, FO_DIST_TAIL_KEEP, &L[r]));
    total += fo_loader_num_batches(L[r]);
  }
  assert_int_equal(total, nw);
  for (int64_t b = 0; b < total; b++) {
    assert_fo_ok(fo_loader_next(L[b % P], &bt));
    assert_non_null(bt);
    assert_int_equal(bt->index, b);
    if (fo_loader_batch_digest(bt) != want[b])
      fail_msg("batch %lld differs from the plain loader's", (long long)b);
    fo_loader_release(L[b % P], bt);
  }
  for (int r = 0; r < P; r++) {
    fo_dist_stats ds;
    fo_dist_get_stats(dd[r], &ds);
    for (int h = 0; h < 2; h++) hops += ds.hop_requests[h];
    fo_loader_destroy(L[r]);
    assert_fo_ok(fo_dist_finalize(dd[r]));
  }
  if (P > 1) assert_true(hops > 0); /* one machine asks no one */
}

/* Chi-square statistic of counts against expected counts, pooling categories expected < 5. */
double fot_chi2(const double *count, const double *expect, int k, int *df) {
  double x = 0, pc = 0, pe = 0;
  int cats = 0;
  for (int i = 0; i < k; i++) {
    if (expect[i] < 5) {
      pc += count[i];
      pe += expect[i];
      continue;
    }
    x += (count[i] - expect[i]) * (count[i] - expect[i]) / expect[i];
    cats++;
  }
  if (pe > 0) {
    x += (pc - pe) * (pc - pe) / pe;
    cats++;
  }
  *df = cats - 1;
  return x;
}

/* Upper 1e-6 quantile of chi-square(df), Wilson-Hilferty, generous for df >= 1. */
double fot_chi2_limit(int df) {
  const double z = 4.9, a = 2.0 / (9.0 * df);
  double c = 1 - a + z * sqrt(a);
  return df * c * c * c + 5;
}
