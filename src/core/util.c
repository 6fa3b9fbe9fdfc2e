/*
 * core/util.c: small helpers every module uses: checked allocation and growth, a monotonic
 * clock, recursive removal (for failed imports), fsync, and the xxh64 wrapper.
 */
#include "core/internal.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <xxhash.h>

void *fo__malloc_n(int64_t n, size_t elem) {
  if (n < 0 || (elem && (uint64_t)n > SIZE_MAX / elem)) return NULL;
  if (fo__mem_check((uint64_t)n * elem, "allocation") != FO_OK) return NULL;
  return malloc(n ? (size_t)n * elem : 1);
}

void *fo__calloc_n(int64_t n, size_t elem) {
  if (n < 0 || (elem && (uint64_t)n > SIZE_MAX / elem)) return NULL;
  if (fo__mem_check((uint64_t)n * elem, "allocation") != FO_OK) return NULL;
  return calloc(n ? (size_t)n : 1, elem ? elem : 1);
}

int fo__grow(void *pp, int64_t *cap, int64_t need, size_t elem, const char *what) {
  void **p = (void **)pp;
  int64_t ncap;
  void *np;
  if (need <= *cap) return FO_OK;
  ncap = *cap < 16 ? 16 : *cap;
  while (ncap < need) {
    if (ncap > INT64_MAX / 2) {
      ncap = need;
      break;
    }
    ncap *= 2;
  }
  if ((uint64_t)ncap > SIZE_MAX / elem)
    return FO_FAIL(FO_ENOMEM, "%s: %lld elements of %zu bytes overflow", what, (long long)ncap,
                   elem);
  if ((uint64_t)need * elem >= ((uint64_t)64 << 20) &&
      fo__mem_check((uint64_t)need * elem, what) != FO_OK)
    return FO_ENOMEM;
  np = realloc(*p, (size_t)ncap * elem);
  if (!np)
    return FO_FAIL(FO_ENOMEM, "%s: cannot allocate %lld bytes", what,
                   (long long)ncap * (long long)elem);
  *p = np;
  *cap = ncap;
  return FO_OK;
}

/* Bytes the kernel can still hand out without the OOM killer: MemAvailable + SwapFree; 0 when
 * unknown. FO_MEM_AVAILABLE (bytes) overrides it, for tests. */
static uint64_t mem_available(void) {
  const char *env = getenv("FO_MEM_AVAILABLE");
  FILE *f;
  char line[256];
  uint64_t avail = 0, swap = 0;
  bool have = false;
  if (env && *env) return strtoull(env, NULL, 10);
  if ((f = fopen("/proc/meminfo", "r"))) {
    while (fgets(line, sizeof line, f)) {
      unsigned long long kb;
      if (sscanf(line, "MemAvailable: %llu kB", &kb) == 1) {
        avail = (uint64_t)kb * 1024;
        have = true;
      } else if (sscanf(line, "SwapFree: %llu kB", &kb) == 1) {
        swap = (uint64_t)kb * 1024;
      }
    }
    fclose(f);
  }
  if (!have) {
    long pages = sysconf(_SC_AVPHYS_PAGES), psz = sysconf(_SC_PAGESIZE);
    if (pages > 0 && psz > 0) avail = (uint64_t)pages * (uint64_t)psz;
  }
  return avail + swap;
}

int fo__mem_check(uint64_t bytes, const char *what) {
  uint64_t avail;
  if (bytes < ((uint64_t)64 << 20)) return FO_OK;
  avail = mem_available();
  if (avail && bytes > avail)
    return FO_FAIL(FO_ENOMEM, "%s needs %llu bytes (%.1f GiB), the machine has %.1f GiB available",
                   what, (unsigned long long)bytes, (double)bytes / 1073741824.0,
                   (double)avail / 1073741824.0);
  return FO_OK;
}

char *fo__strdup(const char *s) {
  size_t n = strlen(s) + 1;
  char *d = malloc(n);
  if (d) memcpy(d, s, n);
  return d;
}

uint64_t fo__now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

uint64_t fo__xxh64(const void *data, size_t len) { return XXH64(data, len, 0); }

int fo__remove_tree(const char *path) {
  struct stat st;
  DIR *dir;
  struct dirent *de;
  int rc = FO_OK;
  if (lstat(path, &st) != 0) {
    if (errno == ENOENT) return FO_OK;
    return FO_FAIL_ERRNO("remove '%s'", path);
  }
  if (!S_ISDIR(st.st_mode)) {
    if (unlink(path) != 0 && errno != ENOENT) return FO_FAIL_ERRNO("remove '%s'", path);
    return FO_OK;
  }
  dir = opendir(path);
  if (!dir) return FO_FAIL_ERRNO("open directory '%s'", path);
  while ((de = readdir(dir)) != NULL) {
    size_t n;
    char *child;
    if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, "..")) continue;
    n = strlen(path) + strlen(de->d_name) + 2;
    child = malloc(n);
    if (!child) {
      rc = FO_FAIL(FO_ENOMEM, "remove '%s'", path);
      break;
    }
    snprintf(child, n, "%s/%s", path, de->d_name);
    rc = fo__remove_tree(child);
    free(child);
    if (rc != FO_OK) break;
  }
  closedir(dir);
  if (rc == FO_OK && rmdir(path) != 0 && errno != ENOENT)
    rc = FO_FAIL_ERRNO("remove directory '%s'", path);
  return rc;
}

int fo__fsync_path(const char *path) {
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return FO_FAIL_ERRNO("open '%s'", path);
  if (fsync(fd) != 0 && errno != EINVAL) {
    int rc = FO_FAIL_ERRNO("fsync '%s'", path);
    close(fd);
    return rc;
  }
  close(fd);
  return FO_OK;
}
