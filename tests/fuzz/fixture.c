/* tests/fuzz/fixture.c: the Cora fixtures (fixture.h) and the reader sweep. */
#include "fixture.h"
#include "fuzz.h"

#include <fanout/fanout.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef FO_FUZZ_DATA_DIR
#error "FO_FUZZ_DATA_DIR (the data/ directory of the repository) must be defined"
#endif

static char g_fix[FZ_N_FIXTURES][512];

static void must(int rc, const char *what) {
  if (rc != FO_OK) fz_die(what, fo_last_error());
}

const char *fz_fixture(int k) {
  if (!g_fix[0][0]) {
    const char *in[2] = {FO_FUZZ_DATA_DIR "/cora/cora.content.gz", FO_FUZZ_DATA_DIR "/cora/cora.cites"};
    fo_import_opts io;
    fo_partition_opts po;
    char path[FZ_N_FIXTURES][512];
    const char *names[FZ_N_FIXTURES] = {"cora", "cora2", "cora3"};
    for (int i = 0; i < FZ_N_FIXTURES; i++) snprintf(path[i], sizeof path[i], "%s/fixture-%s", fz_tmpdir(), names[i]);
    fo_import_opts_init(&io);
    io.format = FO_FORMAT_PLANETOID;
    io.undirected = true;
    io.csc = io.csr = true;
    io.feature_dtype = FO_FEATURES_UINT8;
    must(fo_import(in, 2, path[0], &io, NULL), "import Cora fixture");
    fo_partition_opts_init(&po);
    po.n_parts = 2;
    po.method = FO_PARTITION_HASH;
    must(fo_partition(path[0], path[1], &po, NULL), "partition Cora fixture (2, hash)");
    po.n_parts = 3;
    po.method = FO_PARTITION_RANGE;
    must(fo_partition(path[0], path[2], &po, NULL), "partition Cora fixture (3, range)");
    for (int i = 0; i < FZ_N_FIXTURES; i++) memcpy(g_fix[i], path[i], sizeof g_fix[i]);
  }
  return g_fix[k];
}

#include "store/store_internal.h"

#include <jansson.h>

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
    if (!json_is_string(file) || strchr(json_string_value(file), '/')) continue;
    snprintf(apath, sizeof apath, "%s/%s", dir, json_string_value(file));
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
