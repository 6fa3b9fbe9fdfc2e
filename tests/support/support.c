/*
 * tests/support/support.c: temp dirs, paths, data locations and test seeds.
 */
#include "support.h"

#include <dirent.h>
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
