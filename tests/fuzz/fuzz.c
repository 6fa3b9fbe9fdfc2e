/* tests/fuzz/fuzz.c: helpers of the fuzz harnesses (see fuzz.h). */
#include "fuzz.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

static char g_dir[256];
static pid_t g_owner;

void fz_die(const char *what, const char *detail) {
  fprintf(stderr, "fuzz harness: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
  abort();
}

static int rm_one(const char *p, const struct stat *st, int flag, struct FTW *ftw) {
  (void)st;
  (void)flag;
  (void)ftw;
  remove(p);
  return 0;
}

void fz_rm_rf(const char *path) { nftw(path, rm_one, 16, FTW_DEPTH | FTW_PHYS); }

static void cleanup(void) {
  if (getenv("FO_FUZZ_KEEP")) {
    fprintf(stderr, "fuzz harness: kept %s\n", g_dir);
    return;
  }
  if (g_dir[0] && getpid() == g_owner) fz_rm_rf(g_dir);
}

const char *fz_tmpdir(void) {
  if (!g_dir[0]) {
    struct stat st;
    const char *base = getenv("FO_FUZZ_TMPDIR");
    if (!base) base = stat("/dev/shm", &st) == 0 && S_ISDIR(st.st_mode) ? "/dev/shm" : getenv("TMPDIR");
    if (!base) base = "/tmp";
    snprintf(g_dir, sizeof g_dir, "%s/fo-fuzz-XXXXXX", base);
    if (!mkdtemp(g_dir)) fz_die("mkdtemp", strerror(errno));
    g_owner = getpid();
    atexit(cleanup);
  }
  return g_dir;
}

const char *fz_path(int slot, const char *name) {
  static char buf[8][512];
  snprintf(buf[slot & 7], sizeof buf[0], "%s/%s", fz_tmpdir(), name);
  return buf[slot & 7];
}

void fz_write(const char *path, const void *data, size_t n) {
  int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  const char *p = data;
  if (fd < 0) fz_die("create", path);
  while (n) {
    ssize_t k = write(fd, p, n);
    if (k <= 0) fz_die("write", path);
    p += k;
    n -= (size_t)k;
  }
  close(fd);
}

const char *fz_memfile(int slot, const void *data, size_t n) {
  static int fds[8] = {-1, -1, -1, -1, -1, -1, -1, -1};
  static char paths[8][64];
  const char *p = data;
  size_t off = 0;
  slot &= 7;
  if (fds[slot] < 0) {
    if ((fds[slot] = memfd_create("fo-fuzz", MFD_CLOEXEC)) < 0) fz_die("memfd_create", strerror(errno));
    snprintf(paths[slot], sizeof paths[slot], "/proc/self/fd/%d", fds[slot]);
  }
  if (ftruncate(fds[slot], 0) != 0) fz_die("ftruncate", strerror(errno));
  while (off < n) {
    ssize_t k = pwrite(fds[slot], p + off, n - off, (off_t)off);
    if (k <= 0) fz_die("pwrite", strerror(errno));
    off += (size_t)k;
  }
  return paths[slot];
}

unsigned char *fz_read(const char *path, size_t *n) {
  FILE *f = fopen(path, "rb");
  unsigned char *buf = NULL;
  size_t cap = 0, len = 0;
  if (!f) return NULL;
  for (;;) {
    if (len + 65536 + 1 > cap) {
      cap = (len + 65536 + 1) * 2;
      if (!(buf = realloc(buf, cap))) fz_die("read", "out of memory");
    }
    size_t k = fread(buf + len, 1, cap - len - 1, f);
    len += k;
    if (k == 0) break;
  }
  fclose(f);
  buf[len] = 0;
  *n = len;
  return buf;
}

void fz_copy_tree(const char *src, const char *dst, bool link_files) {
  DIR *dir = opendir(src);
  struct dirent *e;
  if (!dir) fz_die("opendir", src);
  if (mkdir(dst, 0755) != 0) fz_die("mkdir", dst);
  while ((e = readdir(dir))) {
    char s[1024], d[1024];
    struct stat st;
    if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
    snprintf(s, sizeof s, "%s/%s", src, e->d_name);
    snprintf(d, sizeof d, "%s/%s", dst, e->d_name);
    if (lstat(s, &st) != 0) fz_die("lstat", s);
    if (S_ISDIR(st.st_mode)) {
      fz_copy_tree(s, d, link_files);
    } else if (!link_files || link(s, d) != 0) {
      size_t n;
      unsigned char *b = fz_read(s, &n);
      if (!b) fz_die("read", s);
      fz_write(d, b, n);
      free(b);
    }
  }
  closedir(dir);
}
