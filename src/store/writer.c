/*
 * store/writer.c: write a dataset directory atomically.
 *
 * The writer builds the dataset in a hidden temporary directory beside the target
 * (".<name>.tmp-XXXXXX", same file system), writes each array as a .npy file while computing
 * its xxh64, then writes fanout.json, fsyncs the files and the directory, and renames the
 * directory into place. Replacing an existing dataset (force) swaps the two directories with
 * renameat2(RENAME_EXCHANGE) and then removes the old one, so readers see either the old or the
 * new dataset, never a mix. Any failure removes the temporary directory: a failed import leaves
 * nothing behind.
 */
#include "store/store_internal.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <signal.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>

#define CHUNK_ELEMS (1 << 17)

struct fo__writer {
  char *out_dir;
  char *tmp_dir;
  char *parent;
  bool force;
  bool is_sub; /* a subdirectory of another writer's temporary directory */
  json_t *manifest;
  json_t *arrays;
  const volatile int *cancel;
};

#define WRITE_CHUNK ((size_t)16 << 20)

void fo__writer_set_cancel(fo__writer *w, const volatile int *cancel) { w->cancel = cancel; }

static bool writer_cancelled(const fo__writer *w) { return w->cancel && *w->cancel; }

static char *path_join(const char *a, const char *b) {
  size_t n = strlen(a) + strlen(b) + 2;
  char *p = malloc(n);
  if (p) snprintf(p, n, "%s/%s", a, b);
  return p;
}

/* --force may only replace a dataset (a directory with fanout.json) or an empty directory. */
static bool replaceable(const char *dir, const struct stat *st) {
  char *m;
  struct stat ms;
  bool ok;
  DIR *dh;
  struct dirent *de;
  if (!S_ISDIR(st->st_mode)) return false;
  if ((m = path_join(dir, FO_MANIFEST)) == NULL) return false;
  ok = stat(m, &ms) == 0 && S_ISREG(ms.st_mode);
  free(m);
  if (ok) return true;
  if (!(dh = opendir(dir))) return false;
  ok = true;
  while ((de = readdir(dh)) != NULL)
    if (strcmp(de->d_name, ".") && strcmp(de->d_name, "..")) ok = false;
  closedir(dh);
  return ok;
}

/* Does `real` (an absolute, resolved path) or one of its ancestors have device and inode
 * (dev, ino)? Compared by st_dev/st_ino rather than by name, so bind mounts and hard-linked
 * files count too. */
static bool has_ancestor(const char *real, dev_t dev, ino_t ino) {
  char *p = fo__strdup(real), *slash;
  struct stat st;
  bool found = false;
  if (!p) return false;
  for (;;) {
    if (stat(*p ? p : "/", &st) == 0 && st.st_dev == dev && st.st_ino == ino) {
      found = true;
      break;
    }
    if (!*p || !(slash = strrchr(p, '/'))) break;
    *slash = '\0';
  }
  free(p);
  return found;
}

/* The resolved path of `path`, which need not exist yet: realpath of the path, or of its
 * parent directory joined with its last component. NULL if neither resolves. */
static char *resolve_maybe_new(const char *path) {
  char *r = realpath(path, NULL), *c1, *c2, *pr;
  size_t n;
  if (r) return r;
  c1 = fo__strdup(path);
  c2 = fo__strdup(path);
  if (!c1 || !c2) {
    free(c1);
    free(c2);
    return NULL;
  }
  for (n = strlen(c1); n > 1 && c1[n - 1] == '/'; n--) c1[n - 1] = c2[n - 1] = '\0';
  pr = realpath(dirname(c1), NULL);
  if (pr) {
    const char *base = basename(c2);
    n = strlen(pr) + strlen(base) + 2;
    if ((r = malloc(n))) snprintf(r, n, "%s/%s", strcmp(pr, "/") ? pr : "", base);
    free(pr);
  }
  free(c1);
  free(c2);
  return r;
}

int fo__writer_check_input(const char *out_dir, const char *input, const char *what) {
  char *in_real, *out_real;
  struct stat in_st, out_st;
  int rc = FO_OK;
  if (!out_dir || !input || stat(input, &in_st) != 0) return FO_OK; /* reading reports it */
  if (!(in_real = realpath(input, NULL))) return FO_OK;
  if (!(out_real = resolve_maybe_new(out_dir))) {
    free(in_real);
    return FO_OK;
  }
  if (stat(out_real, &out_st) == 0 && in_st.st_dev == out_st.st_dev && in_st.st_ino == out_st.st_ino)
    rc = FO_FAIL(FO_EINVAL, "output '%s' is the %s '%s': writing it would destroy what is read "
                 "(choose another output)", out_dir, what, input);
  else if (stat(out_real, &out_st) == 0 && S_ISDIR(out_st.st_mode) &&
           has_ancestor(in_real, out_st.st_dev, out_st.st_ino))
    rc = FO_FAIL(FO_EINVAL, "output '%s' contains the %s '%s': replacing it would delete the "
                 "input (choose another output)", out_dir, what, input);
  else if (S_ISDIR(in_st.st_mode) && has_ancestor(out_real, in_st.st_dev, in_st.st_ino))
    rc = FO_FAIL(FO_EINVAL, "output '%s' is inside the %s '%s' (choose an output outside it)",
                 out_dir, what, input);
  free(in_real);
  free(out_real);
  return rc;
}

#define OWNER_FILE ".fanout-owner" /* "<pid> <host>\n" of the writing process */

/* Temporary directories ".<base>.tmp-<pid>-..." in `parent` left by writers that died (SIGKILL,
 * power loss): removed when their pid is not a running process (kill(pid, 0) gives ESRCH) and,
 * when they record one, their host is this host (a directory shared over a network file system
 * may belong to a live writer elsewhere). A live pid keeps its directory even if the pid was
 * reused by another program: stale directories are then removed by a later run. Failures to
 * remove are not errors (the new run does not need the space back). */
static void remove_stale(const char *parent, const char *base) {
  char prefix[300], host[256] = "", *path;
  DIR *dh;
  struct dirent *de;
  size_t plen;
  if (gethostname(host, sizeof host - 1) != 0) host[0] = '\0';
  snprintf(prefix, sizeof prefix, ".%s.tmp-", base);
  plen = strlen(prefix);
  if (!(dh = opendir(parent))) return;
  while ((de = readdir(dh)) != NULL) {
    char *end, ohost[256];
    long pid;
    FILE *f;
    if (strncmp(de->d_name, prefix, plen) != 0) continue;
    errno = 0;
    pid = strtol(de->d_name + plen, &end, 10);
    if (errno || end == de->d_name + plen || *end != '-' || pid <= 0 || pid > INT32_MAX ||
        pid == (long)getpid())
      continue;
    if (kill((pid_t)pid, 0) == 0 || errno != ESRCH) continue; /* alive (or not ours to ask) */
    if (!(path = path_join(parent, de->d_name))) continue;
    {
      char *owner = path_join(path, OWNER_FILE);
      long opid = 0;
      bool other_host = false;
      if (owner && (f = fopen(owner, "r"))) {
        if (fscanf(f, "%ld %255s", &opid, ohost) == 2 && strcmp(ohost, host) != 0) other_host = true;
        fclose(f);
      }
      free(owner);
      if (other_host) {
        free(path);
        continue;
      }
    }
    {
      char saved[1024];
      snprintf(saved, sizeof saved, "%s", fo_last_error());
      if (fo__remove_tree(path) == FO_OK)
        FO_LOG(FO_LOG_INFO, "removed '%s', left by process %ld, which is gone", path, pid);
      fo_set_error(FO_OK, saved);
    }
    free(path);
  }
  closedir(dh);
}

/* Record who writes `tmp_dir` (see remove_stale). */
static int write_owner(const char *tmp_dir) {
  char host[256] = "", *owner = path_join(tmp_dir, OWNER_FILE);
  FILE *f;
  int rc = FO_OK;
  if (!owner) return FO_FAIL(FO_ENOMEM, "writer");
  if (gethostname(host, sizeof host - 1) != 0 || !host[0]) snprintf(host, sizeof host, "unknown");
  if (!(f = fopen(owner, "w")) || fprintf(f, "%ld %s\n", (long)getpid(), host) < 0)
    rc = FO_FAIL_ERRNO("write '%s'", owner);
  if (f && fclose(f) != 0 && rc == FO_OK) rc = FO_FAIL_ERRNO("write '%s'", owner);
  free(owner);
  return rc;
}

int fo__writer_begin(const char *out_dir, bool force, fo__writer **out) {
  fo__writer *w;
  struct stat st;
  char *copy1 = NULL, *copy2 = NULL, *tmpl = NULL;
  int rc;
  size_t n;
  *out = NULL;
  if (!out_dir || !*out_dir) return FO_FAIL(FO_EINVAL, "output directory is empty");
  if (lstat(out_dir, &st) == 0) {
    if (!force)
      return FO_FAIL(FO_EINVAL, "output '%s' already exists (use --force to replace it)", out_dir);
    if (S_ISLNK(st.st_mode))
      return FO_FAIL(FO_EINVAL, "refusing to replace '%s': it is a symbolic link (give the "
                     "dataset's real path)", out_dir);
    if (!replaceable(out_dir, &st))
      return FO_FAIL(FO_EINVAL, "refusing to replace '%s': not a fanout dataset", out_dir);
  }
  if (!(w = calloc(1, sizeof *w))) return FO_FAIL(FO_ENOMEM, "writer");
  w->force = force;
  copy1 = fo__strdup(out_dir);
  copy2 = fo__strdup(out_dir);
  w->out_dir = fo__strdup(out_dir);
  if (!copy1 || !copy2 || !w->out_dir) {
    rc = FO_FAIL(FO_ENOMEM, "writer");
    goto fail;
  }
  /* strip trailing slashes so basename is the directory's own name */
  for (n = strlen(w->out_dir); n > 1 && w->out_dir[n - 1] == '/'; n--) w->out_dir[n - 1] = '\0';
  free(copy1);
  free(copy2);
  copy1 = fo__strdup(w->out_dir);
  copy2 = fo__strdup(w->out_dir);
  if (!copy1 || !copy2 || !(w->parent = fo__strdup(dirname(copy1)))) {
    rc = FO_FAIL(FO_ENOMEM, "writer");
    goto fail;
  }
  if (stat(w->parent, &st) != 0 || !S_ISDIR(st.st_mode)) {
    rc = FO_FAIL(FO_EINVAL, "output '%s': parent directory '%s' does not exist", out_dir, w->parent);
    goto fail;
  }
  n = strlen(w->parent) + strlen(basename(copy2)) + 48;
  if (!(tmpl = malloc(n))) {
    rc = FO_FAIL(FO_ENOMEM, "writer");
    goto fail;
  }
  remove_stale(w->parent, basename(copy2));
  /* A unique hidden name made with mkdir(0777), not mkdtemp (always 0700): the dataset gets
   * the permissions the caller's umask allows, like any directory it creates. */
  {
    static unsigned counter;
    uint64_t salt = fo__now_ns() ^ ((uint64_t)getpid() << 32);
    int tries = 0;
    for (;;) {
      unsigned c = __atomic_fetch_add(&counter, 1, __ATOMIC_RELAXED);
      snprintf(tmpl, n, "%s/.%s.tmp-%d-%u-%04x", w->parent, basename(copy2), (int)getpid(), c,
               (unsigned)((salt >> (tries % 48)) & 0xffff));
      if (mkdir(tmpl, 0777) == 0) break;
      if (errno != EEXIST || ++tries > 100) {
        rc = FO_FAIL_ERRNO("create temporary directory '%s'", tmpl);
        free(tmpl);
        goto fail;
      }
    }
  }
  w->tmp_dir = tmpl;
  if ((rc = write_owner(w->tmp_dir)) != FO_OK) goto fail;
  w->manifest = json_object();
  w->arrays = json_array();
  if (!w->manifest || !w->arrays) {
    rc = FO_FAIL(FO_ENOMEM, "manifest");
    goto fail;
  }
  json_object_set_new(w->manifest, "format", json_string(FO_FORMAT_NAME));
  json_object_set_new(w->manifest, "format_version", json_integer(FO_FORMAT_VERSION));
  free(copy1);
  free(copy2);
  *out = w;
  return FO_OK;
fail:
  free(copy1);
  free(copy2);
  fo__writer_abort(w);
  return rc;
}

json_t *fo__writer_manifest(fo__writer *w) { return w->manifest; }

int fo__writer_begin_sub(fo__writer *parent, const char *name, fo__writer **out) {
  fo__writer *w;
  *out = NULL;
  if (!(w = calloc(1, sizeof *w))) return FO_FAIL(FO_ENOMEM, "writer");
  w->is_sub = true;
  w->cancel = parent->cancel;
  w->tmp_dir = path_join(parent->tmp_dir, name);
  w->manifest = json_object();
  w->arrays = json_array();
  if (!w->tmp_dir || !w->manifest || !w->arrays) {
    fo__writer_abort(w);
    return FO_FAIL(FO_ENOMEM, "writer");
  }
  if (mkdir(w->tmp_dir, 0755) != 0) {
    int rc = FO_FAIL_ERRNO("create '%s'", w->tmp_dir);
    fo__writer_abort(w);
    return rc;
  }
  json_object_set_new(w->manifest, "format", json_string(FO_FORMAT_NAME));
  json_object_set_new(w->manifest, "format_version", json_integer(FO_FORMAT_VERSION));
  *out = w;
  return FO_OK;
}

static int write_all(int fd, const void *buf, size_t len, const char *path) {
  const char *p = buf;
  while (len) {
    ssize_t k = write(fd, p, len);
    if (k < 0) {
      if (errno == EINTR) continue;
      return FO_FAIL_ERRNO("write '%s'", path);
    }
    p += k;
    len -= (size_t)k;
  }
  return FO_OK;
}

/* Open "<tmp>/<name>.npy", write its header; returns fd or -1 (message set). */
static int open_array(fo__writer *w, const char *name, const char *descr, int ndim,
                      const int64_t *shape, char **path_out, int *rc_out) {
  char hdr[4096], *file, *path;
  size_t hlen;
  int fd;
  size_t n = strlen(name) + 5;
  *rc_out = FO_OK;
  if (!(file = malloc(n))) {
    *rc_out = FO_FAIL(FO_ENOMEM, "array '%s'", name);
    return -1;
  }
  snprintf(file, n, "%s.npy", name);
  path = path_join(w->tmp_dir, file);
  free(file);
  if (!path) {
    *rc_out = FO_FAIL(FO_ENOMEM, "array '%s'", name);
    return -1;
  }
  hlen = fo__npy_format(hdr, sizeof hdr, descr, ndim, shape);
  if (!hlen) {
    *rc_out = FO_FAIL(FO_EINTERNAL, "array '%s': npy header does not fit", name);
    free(path);
    return -1;
  }
  fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) {
    *rc_out = FO_FAIL_ERRNO("create '%s'", path);
    free(path);
    return -1;
  }
  if ((*rc_out = write_all(fd, hdr, hlen, path)) != FO_OK) {
    close(fd);
    free(path);
    return -1;
  }
  *path_out = path;
  return fd;
}

static int close_array(fo__writer *w, int fd, char *path, const char *name, const char *descr,
                       int ndim, const int64_t *shape, uint64_t hash) {
  json_t *e, *sh;
  char hex[17];
  char *file;
  size_t n;
  int rc = FO_OK;
  if (writer_cancelled(w)) rc = FO_FAIL(FO_ECANCELED, "interrupted while writing '%s'", name);
  else if (fsync(fd) != 0 && errno != EINVAL) rc = FO_FAIL_ERRNO("fsync '%s'", path);
  if (close(fd) != 0 && rc == FO_OK) rc = FO_FAIL_ERRNO("close '%s'", path);
  free(path);
  if (rc != FO_OK) return rc;
  n = strlen(name) + 5;
  if (!(file = malloc(n))) return FO_FAIL(FO_ENOMEM, "manifest");
  snprintf(file, n, "%s.npy", name);
  snprintf(hex, sizeof hex, "%016llx", (unsigned long long)hash);
  sh = json_array();
  for (int i = 0; i < ndim; i++) json_array_append_new(sh, json_integer(shape[i]));
  e = json_pack("{s:s, s:s, s:s, s:o, s:s}", "name", name, "file", file, "dtype", descr,
                "shape", sh, "xxh64", hex);
  free(file);
  if (!e || json_array_append_new(w->arrays, e) != 0) return FO_FAIL(FO_ENOMEM, "manifest");
  return FO_OK;
}

int fo__writer_add(fo__writer *w, const char *name, const char *descr, int ndim,
                   const int64_t *shape, const void *data) {
  int64_t itemsize, count = 1;
  char *path = NULL;
  int rc, fd;
  const char *p = data;
  uint64_t left, hash;
  if ((rc = fo__npy_descr_itemsize(descr, &itemsize)) != FO_OK) return rc;
  for (int i = 0; i < ndim; i++) count *= shape[i];
  fd = open_array(w, name, descr, ndim, shape, &path, &rc);
  if (fd < 0) return rc;
  left = (uint64_t)count * (uint64_t)itemsize;
  {
    XXH64_state_t *st = XXH64_createState();
    if (!st) {
      close(fd);
      free(path);
      return FO_FAIL(FO_ENOMEM, "array '%s'", name);
    }
    XXH64_reset(st, 0);
    while (left) {
      size_t k = left > WRITE_CHUNK ? WRITE_CHUNK : (size_t)left;
      if (writer_cancelled(w)) rc = FO_FAIL(FO_ECANCELED, "interrupted while writing '%s'", name);
      else if ((rc = write_all(fd, p, k, path)) == FO_OK) XXH64_update(st, p, k);
      if (rc != FO_OK) {
        XXH64_freeState(st);
        close(fd);
        free(path);
        return rc;
      }
      p += k;
      left -= k;
    }
    hash = XXH64_digest(st);
    XXH64_freeState(st);
  }
  return close_array(w, fd, path, name, descr, ndim, shape, hash);
}

int fo__writer_add_i64(fo__writer *w, const char *name, int width, const int64_t *data,
                       int64_t n) {
  int32_t *buf;
  XXH64_state_t *st;
  char *path = NULL;
  int rc = FO_OK, fd;
  /* the conversion buffer holds min(n, CHUNK_ELEMS) values: a small array does not allocate
   * (and, under ASan, map, poison and unmap) 512 KiB */
  const int64_t chunk = n < 1 ? 1 : n < CHUNK_ELEMS ? n : CHUNK_ELEMS;
  if (width == 8) return fo__writer_add(w, name, "<i8", 1, &n, data);
  if (width != 4) return FO_FAIL(FO_EINTERNAL, "array '%s': width %d", name, width);
  if (!(buf = malloc((size_t)chunk * sizeof *buf))) return FO_FAIL(FO_ENOMEM, "array '%s'", name);
  if (!(st = XXH64_createState())) {
    free(buf);
    return FO_FAIL(FO_ENOMEM, "array '%s'", name);
  }
  XXH64_reset(st, 0);
  fd = open_array(w, name, "<i4", 1, &n, &path, &rc);
  if (fd < 0) goto out;
  for (int64_t i = 0; i < n && rc == FO_OK; i += chunk) {
    int64_t k = n - i < chunk ? n - i : chunk;
    if (writer_cancelled(w)) {
      rc = FO_FAIL(FO_ECANCELED, "interrupted while writing '%s'", name);
      break;
    }
    for (int64_t j = 0; j < k; j++) {
      int64_t v = data[i + j];
      if (v < INT32_MIN || v > INT32_MAX) {
        rc = FO_FAIL(FO_ERANGE, "array '%s': value %lld at %lld does not fit in int32", name,
                     (long long)v, (long long)(i + j));
        break;
      }
      buf[j] = (int32_t)v;
    }
    if (rc == FO_OK) {
      XXH64_update(st, buf, (size_t)k * sizeof *buf);
      rc = write_all(fd, buf, (size_t)k * sizeof *buf, path);
    }
  }
  if (rc != FO_OK) {
    close(fd);
    free(path);
    goto out;
  }
  rc = close_array(w, fd, path, name, "<i4", 1, &n, XXH64_digest(st));
out:
  XXH64_freeState(st);
  free(buf);
  return rc;
}

int fo__writer_commit(fo__writer *w) {
  char *mpath = NULL;
  int rc = FO_OK;
  if (writer_cancelled(w)) {
    rc = FO_FAIL(FO_ECANCELED, "interrupted before publishing");
    goto fail;
  }
  json_object_set(w->manifest, "arrays", w->arrays);
  if (!(mpath = path_join(w->tmp_dir, FO_MANIFEST))) {
    rc = FO_FAIL(FO_ENOMEM, "manifest");
    goto fail;
  }
  if (json_dump_file(w->manifest, mpath, JSON_INDENT(2) | JSON_PRESERVE_ORDER) != 0) {
    rc = FO_FAIL_ERRNO("write '%s'", mpath);
    goto fail;
  }
  if ((rc = fo__fsync_path(mpath)) != FO_OK || (rc = fo__fsync_path(w->tmp_dir)) != FO_OK)
    goto fail;
  if (!w->is_sub) {
    char *owner = path_join(w->tmp_dir, OWNER_FILE);
    if (!owner || unlink(owner) != 0) {
      rc = owner ? FO_FAIL_ERRNO("remove '%s'", owner) : FO_FAIL(FO_ENOMEM, "writer");
      free(owner);
      goto fail;
    }
    free(owner);
  }
  if (w->is_sub) {
    /* published with the parent; keep the directory */
    free(w->tmp_dir);
    w->tmp_dir = NULL;
    free(mpath);
    fo__writer_abort(w);
    return FO_OK;
  }
  if (rename(w->tmp_dir, w->out_dir) != 0) {
    if (!(w->force && (errno == ENOTEMPTY || errno == EEXIST || errno == ENOTDIR || errno == EISDIR))) {
      rc = FO_FAIL_ERRNO("rename '%s' to '%s'", w->tmp_dir, w->out_dir);
      goto fail;
    }
    /* Replace: swap atomically, then remove the old dataset (now at tmp_dir). */
    if (renameat2(AT_FDCWD, w->tmp_dir, AT_FDCWD, w->out_dir, RENAME_EXCHANGE) != 0) {
      rc = FO_FAIL_ERRNO("replace '%s'", w->out_dir);
      goto fail;
    }
  }
  fo__fsync_path(w->parent);
  free(mpath);
  /* tmp_dir is now either gone (renamed) or holds the replaced dataset: remove it. */
  fo__writer_abort(w);
  return FO_OK;
fail:
  free(mpath);
  fo__writer_abort(w);
  return rc;
}

void fo__writer_abort(fo__writer *w) {
  if (!w) return;
  if (w->tmp_dir) {
    char saved[1024];
    /* keep the caller's error message if removal fails too */
    snprintf(saved, sizeof saved, "%s", fo_last_error());
    fo__remove_tree(w->tmp_dir);
    fo_set_error(FO_OK, saved);
  }
  json_decref(w->manifest);
  json_decref(w->arrays);
  free(w->tmp_dir);
  free(w->parent);
  free(w->out_dir);
  free(w);
}
