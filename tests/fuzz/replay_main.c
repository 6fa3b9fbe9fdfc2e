/*
 * tests/fuzz/replay_main.c: a main() for a fuzz harness without libFuzzer. Runs
 * LLVMFuzzerTestOneInput once over every regular file of each directory (or file) named on the
 * command line, in name order, and prints how many it ran. Missing directories are skipped
 * (a harness may have no regressions yet). Exit 0 unless an input crashes the harness.
 */
#include "fuzz.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

__attribute__((weak)) int LLVMFuzzerInitialize(int *argc, char ***argv);

static int run_file(const char *path) {
  size_t n;
  unsigned char *b = fz_read(path, &n);
  if (!b) {
    fprintf(stderr, "replay: cannot read %s\n", path);
    return -1;
  }
  LLVMFuzzerTestOneInput(b, n);
  free(b);
  return 1;
}

static int by_name(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(int argc, char **argv) {
  long runs = 0;
  if (LLVMFuzzerInitialize) LLVMFuzzerInitialize(&argc, &argv);
  for (int i = 1; i < argc; i++) {
    struct stat st;
    DIR *dir;
    struct dirent *e;
    char **names = NULL;
    size_t n = 0, cap = 0;
    if (stat(argv[i], &st) != 0) continue;
    if (!S_ISDIR(st.st_mode)) {
      if (run_file(argv[i]) < 0) return 1;
      runs++;
      continue;
    }
    if (!(dir = opendir(argv[i]))) continue;
    while ((e = readdir(dir))) {
      if (e->d_name[0] == '.') continue;
      if (n == cap && !(names = realloc(names, (cap = cap * 2 + 64) * sizeof *names))) return 1;
      if (!(names[n] = malloc(strlen(argv[i]) + strlen(e->d_name) + 2))) return 1;
      sprintf(names[n++], "%s/%s", argv[i], e->d_name);
    }
    closedir(dir);
    qsort(names, n, sizeof *names, by_name);
    for (size_t k = 0; k < n; k++) {
      if (stat(names[k], &st) == 0 && S_ISREG(st.st_mode)) {
        if (getenv("FO_REPLAY_VERBOSE")) fprintf(stderr, "replay: %s\n", names[k]);
        if (run_file(names[k]) < 0) return 1;
        runs++;
      }
      free(names[k]);
    }
    free(names);
  }
  printf("replayed %ld inputs\n", runs);
  return 0;
}
