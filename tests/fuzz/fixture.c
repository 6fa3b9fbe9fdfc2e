/* tests/fuzz/fixture.c: the Cora fixtures (fixture.h) and the reader sweep. */
#include "fixture.h"
#include "fuzz.h"

#include <fanout/fanout.h>

#include "store/store_internal.h"

#include <jansson.h>
#include <zlib.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef FO_FUZZ_DATA_DIR
#error "FO_FUZZ_DATA_DIR (the data/ directory of the repository) must be defined"
#endif

static char g_fix[FZ_N_ALL_FIXTURES][512];

static void must(int rc, const char *what) {
  if (rc != FO_OK) fz_die(what, fo_last_error());
}

/* "coraw": Cora's cites as an edge list with a weight per input edge (1 + (i * 7919) % 13, a
 * few of them 0), relabeled, undirected, CSC + CSR: the "weight" and "weight_alias" arrays. */
static void weighted_fixture(const char *out) {
  const char *cites = FO_FUZZ_DATA_DIR "/cora/cora.cites";
  char npy[1024];
  size_t n = 0, m = 0;
  unsigned char *text = fz_read(cites, &n);
  float *w;
  char hdr[256];
  size_t hl;
  int64_t shape[1];
  fo_import_opts io;
  if (!text) fz_die("read", cites);
  for (size_t i = 0; i < n; i++) m += text[i] == '\n';
  free(text);
  if (!(w = malloc(m * sizeof *w))) fz_die("malloc", "weights");
  for (size_t i = 0; i < m; i++) w[i] = (float)((i * 7919) % 13) * (i % 97 == 5 ? 0.0f : 1.0f) + (i % 3 ? 1.0f : 0.0f);
  shape[0] = (int64_t)m;
  hl = fo__npy_format(hdr, sizeof hdr, "<f4", 1, shape);
  snprintf(npy, sizeof npy, "%s/coraw-weights.npy", fz_tmpdir());
  {
    unsigned char *b = malloc(hl + m * sizeof *w);
    memcpy(b, hdr, hl);
    memcpy(b + hl, w, m * sizeof *w);
    fz_write(npy, b, hl + m * sizeof *w);
    free(b);
  }
  free(w);
  fo_import_opts_init(&io);
  io.undirected = true;
  io.relabel = true; /* 2708 nodes, not Cora's raw paper ids up to 1155073 */
  io.csc = io.csr = true;
  io.edge_weight = npy;
  must(fo_import(&cites, 1, out, &io, NULL), "import weighted Cora fixture");
  unlink(npy);
}

/* "typed": Cora as a typed dataset in the one-file form: "paper cites paper" from the cites
 * file and "paper has_class class" from the content file's classes (string ids; node types
 * from a --node-types file), --reverse-edges, CSC + CSR. */
static void typed_fixture(const char *out, bool labels) {
  char edges[1024], types[1024];
  FILE *fe = NULL, *ft = NULL;
  gzFile gz = gzopen(FO_FUZZ_DATA_DIR "/cora/cora.content.gz", "rb");
  unsigned char *cites;
  size_t n;
  char line[1 << 16];
  const char *in[1] = {edges};
  fo_import_opts io;
  snprintf(edges, sizeof edges, "%s/typed-edges.txt", fz_tmpdir());
  snprintf(types, sizeof types, "%s/typed-types.txt", fz_tmpdir());
  if (!gz || !(fe = fopen(edges, "w")) || !(ft = fopen(types, "w"))) fz_die("typed fixture", edges);
  while (gzgets(gz, line, sizeof line)) {
    char *id_end = strchr(line, '\t'), *cls = strrchr(line, '\t');
    if (!id_end || !cls) continue;
    *id_end = '\0';
    cls[strcspn(cls, "\r\n")] = '\0';
    fprintf(ft, "%s\tpaper\n", line);
    fprintf(fe, "%s has_class C_%s\n", line, cls + 1);
    if (labels) {
      /* "typedl": supervision of papers by classes, labels-only (never traversed) */
      const unsigned h = (unsigned)strlen(line) * 31u + (unsigned char)line[0] + (unsigned char)cls[1];
      if (h % 3 == 0) fprintf(fe, "%s likes C_%s\n", line, cls + 1);
      if (h % 5 == 1) fprintf(fe, "%s dislikes C_%s\n", line, cls + 1);
    }
  }
  gzclose(gz);
  if (!(cites = fz_read(FO_FUZZ_DATA_DIR "/cora/cora.cites", &n))) fz_die("read", "cora.cites");
  for (char *p = (char *)cites, *e; *p; p = e + 1) {
    char a[64], b[64];
    if (!(e = strchr(p, '\n'))) break;
    if (sscanf(p, "%63s %63s", a, b) == 2) fprintf(fe, "%s cites %s\n", b, a);
  }
  free(cites);
  fclose(fe);
  fclose(ft);
  fo_import_opts_init(&io);
  io.string_ids = true;
  io.src_column = 0;
  io.edge_type_column = 1;
  io.dst_column = 2;
  io.node_types = types;
  io.default_node_type = "class";
  io.reverse_edges = true;
  io.csc = io.csr = true;
  if (labels) {
    io.labels_only = "likes";
    io.negative_labels = "dislikes";
  }
  must(fo_import(in, 1, out, &io, NULL), "import typed Cora fixture");
  unlink(edges);
  unlink(types);
}

/* Write int64 `v[n]` as a .npy file at `path`. */
static void write_i64(const char *path, const int64_t *v, int64_t n) {
  char hdr[256];
  int64_t shape[1] = {n};
  size_t hl = fo__npy_format(hdr, sizeof hdr, "<i8", 1, shape);
  unsigned char *b = malloc(hl + (size_t)n * 8 + 1);
  if (!b) fz_die("malloc", path);
  memcpy(b, hdr, hl);
  memcpy(b + hl, v, (size_t)n * 8);
  fz_write(path, b, hl + (size_t)n * 8);
  free(b);
}

static int cmp_i64(const void *a, const void *b) {
  int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
  return (x > y) - (x < y);
}

/* "corat" (edge_times) / "coran" (!edge_times): Cora's cites relabeled to 0..2707, undirected,
 * CSC + CSR, with node times (1000 + (v * 31) % 5000) and, for "corat", a time per input edge
 * (1000 + (i * 7919) % 5000; rows then sorted by time: "time" arrays); "coran" has node times
 * only, so its rows are ordered by neighbor time ("row_order": "node_time"). */
static void temporal_fixture(const char *out, bool edge_times) {
  const char *cites = FO_FUZZ_DATA_DIR "/cora/cora.cites";
  char et[1024], nt[1024];
  size_t len = 0, m = 0, n = 0;
  unsigned char *text = fz_read(cites, &len);
  int64_t *ids, *t;
  fo_import_opts io;
  if (!text) fz_die("read", cites);
  for (size_t i = 0; i < len; i++) m += text[i] == '\n';
  if (!(ids = malloc(2 * m * sizeof *ids)) || !(t = malloc(2 * m * sizeof *t))) fz_die("malloc", "times");
  {
    char *p = (char *)text;
    for (size_t i = 0; i < 2 * m; i++) ids[i] = strtoll(p, &p, 10);
  }
  free(text);
  qsort(ids, 2 * m, sizeof *ids, cmp_i64);
  for (size_t i = 0; i < 2 * m; i++)
    if (!i || ids[i] != ids[i - 1]) n++;
  free(ids);
  snprintf(et, sizeof et, "%s/corat-edge-time.npy", fz_tmpdir());
  snprintf(nt, sizeof nt, "%s/corat-node-time.npy", fz_tmpdir());
  for (size_t i = 0; i < m; i++) t[i] = 1000 + (int64_t)((i * 7919) % 5000);
  write_i64(et, t, (int64_t)m);
  for (size_t v = 0; v < n; v++) t[v] = 1000 + (int64_t)((v * 31) % 5000);
  write_i64(nt, t, (int64_t)n);
  free(t);
  fo_import_opts_init(&io);
  io.undirected = true;
  io.relabel = true;
  io.csc = io.csr = true;
  io.edge_time = edge_times ? et : NULL;
  io.node_time = nt;
  must(fo_import(&cites, 1, out, &io, NULL), "import temporal Cora fixture");
  unlink(et);
  unlink(nt);
}

/* Cora's content file with only the first FZ_CORA_DIM of its 1433 feature columns (the id, those
 * columns, the class): the readers touch every byte of the features (verify, huge-page loads,
 * partition), and 2708 x 1433 of them made each input cost milliseconds more without reaching
 * any other code. */
#define FZ_CORA_DIM 24
static void trimmed_content(const char *out) {
  gzFile gz = gzopen(FO_FUZZ_DATA_DIR "/cora/cora.content.gz", "rb");
  FILE *f = fopen(out, "w");
  char line[1 << 16];
  if (!gz || !f) fz_die("trim Cora's content", out);
  while (gzgets(gz, line, sizeof line)) {
    char *cls = strrchr(line, '\t'), *p = line;
    if (!cls) continue;
    for (int c = 0; c <= FZ_CORA_DIM && (p = strchr(p + 1, '\t')); c++) {}
    if (!p || p >= cls) fz_die("trim Cora's content", "a short line");
    fprintf(f, "%.*s%s", (int)(p - line), line, cls);
  }
  gzclose(gz);
  fclose(f);
}

const char *fz_fixture(int k) {
  if (!g_fix[0][0]) {
    char content[1024];
    const char *in[2] = {content, FO_FUZZ_DATA_DIR "/cora/cora.cites"};
    fo_import_opts io;
    fo_partition_opts po;
    char path[FZ_N_ALL_FIXTURES][512];
    const char *names[FZ_N_ALL_FIXTURES] = {"cora", "cora2", "cora3", "coraw", "typed", "typed2", "corat", "coran",
                                              "typedl", "typedl2"};
    for (int i = 0; i < FZ_N_ALL_FIXTURES; i++) snprintf(path[i], sizeof path[i], "%s/fixture-%s", fz_tmpdir(), names[i]);
    snprintf(content, sizeof content, "%s/cora.content", fz_tmpdir());
    trimmed_content(content);
    fo_import_opts_init(&io);
    io.format = FO_FORMAT_PLANETOID;
    io.undirected = true;
    io.csc = io.csr = true;
    io.feature_dtype = FO_FEATURES_UINT8;
    must(fo_import(in, 2, path[0], &io, NULL), "import Cora fixture");
    unlink(content);
    fo_partition_opts_init(&po);
    po.n_parts = 2;
    po.method = FO_PARTITION_HASH;
    must(fo_partition(path[0], path[1], &po, NULL), "partition Cora fixture (2, hash)");
    po.n_parts = 3;
    po.method = FO_PARTITION_RANGE;
    must(fo_partition(path[0], path[2], &po, NULL), "partition Cora fixture (3, range)");
    weighted_fixture(path[3]);
    typed_fixture(path[4], false);
    po.n_parts = 2;
    po.method = FO_PARTITION_HASH;
    must(fo_partition(path[4], path[5], &po, NULL), "partition typed Cora fixture (2, hash)");
    temporal_fixture(path[6], true);
    temporal_fixture(path[7], false);
    typed_fixture(path[8], true);
    must(fo_partition(path[8], path[9], &po, NULL), "partition typed Cora fixture with labels (2, hash)");
    for (int i = 0; i < FZ_N_ALL_FIXTURES; i++) memcpy(g_fix[i], path[i], sizeof g_fix[i]);
  }
  return g_fix[k];
}


void fz_rehash(const char *dir) {
  char mpath[1024];
  json_t *root, *arrays, *parts, *e;
  size_t i;
  snprintf(mpath, sizeof mpath, "%s/%s", dir, FO_MANIFEST);
  if (!(root = json_load_file(mpath, 0, NULL))) return;
  arrays = json_object_get(root, "arrays");
  json_array_foreach(arrays, i, e) {
    json_t *file = json_object_get(e, "file");
    char apath[2048];
    unsigned char *b;
    size_t n;
    fo__npy_header h;
    struct stat st;
    if (!json_is_string(file) || strchr(json_string_value(file), '/')) continue;
    snprintf(apath, sizeof apath, "%s/%s", dir, json_string_value(file));
    if (stat(apath, &st) == 0 && st.st_nlink > 1) continue; /* the fixture's, unchanged */
    if (!(b = fz_read(apath, &n))) continue;
    if (fo__npy_parse(b, n, &h) == FO_OK && h.data_offset <= n) {
      char hex[17];
      snprintf(hex, sizeof hex, "%016llx", (unsigned long long)fo__xxh64(b + h.data_offset, n - h.data_offset));
      json_object_set_new(e, "xxh64", json_string(hex));
    }
    free(b);
  }
  parts = json_object_get(root, "parts");
  json_array_foreach(parts, i, e) {
    char sub[1024];
    if (!json_is_string(e) || strchr(json_string_value(e), '/') || !strcmp(json_string_value(e), "..")) continue;
    snprintf(sub, sizeof sub, "%s/%s", dir, json_string_value(e));
    fz_rehash(sub);
  }
  {
    char *text = json_dumps(root, JSON_INDENT(2));
    if (text) {
      unlink(mpath); /* may be a hard link to the fixture */
      fz_write(mpath, text, strlen(text));
      free(text);
    }
  }
  json_decref(root);
}
