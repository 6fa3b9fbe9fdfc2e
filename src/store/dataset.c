/*
 * store/dataset.c: open a dataset directory read-only.
 *
 * Opening parses fanout.json (jansson), memory-maps every listed .npy file read-only and checks,
 * per array, that the .npy header agrees with the manifest (dtype, C order, shape) and that the
 * file holds exactly header + data bytes; then it builds the topology views and checks the two
 * O(1) facts indptr[0] == 0 and indptr[n] == m. Nothing else is read, so opening costs O(number
 * of arrays) whatever the graph's size; fo_dataset_verify() (verify.c) reads everything.
 * Every check failure is FO_EFORMAT naming the file and the value, never a crash.
 */
#include "store/store_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define MANIFEST_MAX_BYTES (64u << 20)
#define HUGE_2M ((size_t)2 << 20)

void fo_dataset_opts_init(fo_dataset_opts *o) {
  memset(o, 0, sizeof *o);
  o->load = FO_LOAD_MMAP;
  o->part = -1;
}

int fo__map_file(const char *path, fo__map *m) {
  struct stat st;
  int fd;
  memset(m, 0, sizeof *m);
  /* O_NONBLOCK: a FIFO in the dataset must not block the open; it is refused below */
  fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return FO_FAIL_ERRNO("open '%s'", path);
  if (fstat(fd, &st) != 0) {
    int rc = FO_FAIL_ERRNO("stat '%s'", path);
    close(fd);
    return rc;
  }
  if (!S_ISREG(st.st_mode)) {
    close(fd);
    return FO_FAIL(FO_EFORMAT, "'%s' is not a regular file", path);
  }
  if (st.st_size == 0) {
    close(fd);
    return FO_OK; /* empty: addr NULL, len 0 */
  }
  m->addr = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_SHARED, fd, 0);
  if (m->addr == MAP_FAILED) {
    int rc = FO_FAIL_ERRNO("mmap '%s'", path);
    m->addr = NULL;
    close(fd);
    return rc;
  }
  m->len = (size_t)st.st_size;
  close(fd);
  return FO_OK;
}

/* The size of the anonymous copy of `len` bytes (copy_to_hugepages): whole 2 MiB huge pages
 * from 2 MiB on, whole pages below. */
static size_t anon_size(size_t len) {
  const size_t unit = len >= HUGE_2M ? HUGE_2M : (size_t)sysconf(_SC_PAGESIZE);
  return (len + unit - 1) / unit * unit;
}

void fo__unmap(fo__map *m) {
  if (m->addr) munmap(m->addr, m->anon ? anon_size(m->len) : m->len);
  memset(m, 0, sizeof *m);
}

/* Replace a file mapping by an anonymous copy advised for transparent huge pages. */
static int copy_to_hugepages(fo__array *a) {
  /* arrays under 2 MiB get pages, not a 2 MiB huge page each (a typed dataset has many small
   * ones: each would cost a zeroed huge page) */
  size_t len = a->map.len, alloc = anon_size(len);
  size_t off = (size_t)((const char *)a->data - (const char *)a->map.addr);
  void *mem;
  if (!len || a->map.anon) return FO_OK; /* empty, or already copied (named twice) */
  mem = mmap(NULL, alloc, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (mem == MAP_FAILED) return FO_FAIL(FO_ENOMEM, "huge-page copy of '%s' (%zu bytes)", a->file, len);
#ifdef MADV_HUGEPAGE
  if (len >= HUGE_2M) madvise(mem, alloc, MADV_HUGEPAGE);
#endif
  memcpy(mem, a->map.addr, len);
  mprotect(mem, alloc, PROT_READ);
  munmap(a->map.addr, a->map.len);
  a->map.addr = mem;
  a->map.anon = true;
  a->data = (const char *)mem + off;
  return FO_OK;
}

static int read_manifest(const char *path, char **out) {
  char *file;
  size_t n = strlen(path) + sizeof(FO_MANIFEST) + 2;
  FILE *f;
  char *text = NULL;
  long size;
  int rc = FO_OK;
  *out = NULL;
  if (!(file = malloc(n))) return FO_FAIL(FO_ENOMEM, "manifest path");
  snprintf(file, n, "%s/%s", path, FO_MANIFEST);
  {
    /* a regular file, not a directory or FIFO (whose open or read could block) */
    struct stat mst;
    if (stat(file, &mst) == 0 && !S_ISREG(mst.st_mode)) {
      rc = FO_FAIL(FO_EFORMAT, "'%s' is not a regular file", file);
      free(file);
      return rc;
    }
  }
  f = fopen(file, "rb");
  if (!f) {
    /* ENOTDIR: `path` is a file, so "<path>/fanout.json" cannot exist either. */
    if (errno == ENOENT || errno == ENOTDIR) {
      struct stat st;
      if (stat(path, &st) != 0)
        rc = FO_FAIL_ERRNO("cannot access it");
      else if (!S_ISDIR(st.st_mode))
        rc = FO_FAIL(FO_EINVAL, "'%s' is not a directory", path);
      else
        rc = FO_FAIL(FO_EINVAL, "'%s' is not a fanout dataset (no %s)", path, FO_MANIFEST);
    } else {
      rc = FO_FAIL_ERRNO("open '%s'", file);
    }
    free(file);
    return rc;
  }
  if (fseek(f, 0, SEEK_END) != 0 || (size = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0) {
    rc = FO_FAIL_ERRNO("read '%s'", file);
  } else if ((unsigned long)size > MANIFEST_MAX_BYTES) {
    rc = FO_FAIL(FO_EFORMAT, "%s: %ld bytes is too large for a manifest", file, size);
  } else if (!(text = malloc((size_t)size + 1))) {
    rc = FO_FAIL(FO_ENOMEM, "read '%s'", file);
  } else if (fread(text, 1, (size_t)size, f) != (size_t)size) {
    rc = FO_FAIL_ERRNO("read '%s'", file);
  } else {
    text[size] = '\0';
    *out = text;
    text = NULL;
  }
  free(text);
  fclose(f);
  free(file);
  return rc;
}

static bool valid_name(const char *s) {
  if (!*s || strlen(s) > 200) return false;
  for (; *s; s++)
    if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
          *s == '_' || *s == '-' || *s == '.'))
      return false;
  return true;
}

static int json_int(json_t *obj, const char *key, int64_t *out) {
  json_t *v = json_object_get(obj, key);
  if (!v) return FO_FAIL(FO_EFORMAT, "missing '%s'", key);
  if (!json_is_integer(v) || json_integer_value(v) < 0)
    return FO_FAIL(FO_EFORMAT, "'%s' is not a non-negative integer", key);
  *out = (int64_t)json_integer_value(v);
  return FO_OK;
}

/* Parse one entry of "arrays" and map its file. */
static int load_array(fo_dataset_t *d, json_t *e, int64_t idx, fo__array *a) {
  json_t *name = json_object_get(e, "name"), *file = json_object_get(e, "file");
  json_t *dtype = json_object_get(e, "dtype"), *shape = json_object_get(e, "shape");
  json_t *xx = json_object_get(e, "xxh64");
  fo__npy_header h;
  char *path;
  size_t n;
  int rc;
  if (!json_is_string(name) || !valid_name(json_string_value(name)))
    return FO_FAIL(FO_EFORMAT, "arrays[%lld]: bad or missing 'name'", (long long)idx);
  if (!json_is_string(file) || !valid_name(json_string_value(file)) ||
      !strcmp(json_string_value(file), ".") || !strcmp(json_string_value(file), ".."))
    return FO_FAIL(FO_EFORMAT, "array '%s': bad or missing 'file'", json_string_value(name));
  if (!json_is_string(dtype) || !json_is_array(shape) || json_array_size(shape) < 1 ||
      json_array_size(shape) > 2 || !json_is_string(xx) || strlen(json_string_value(xx)) != 16)
    return FO_FAIL(FO_EFORMAT, "array '%s': bad 'dtype', 'shape' or 'xxh64'",
                   json_string_value(name));
  a->name = fo__strdup(json_string_value(name));
  a->file = fo__strdup(json_string_value(file));
  a->dtype = fo__strdup(json_string_value(dtype));
  if (!a->name || !a->file || !a->dtype) return FO_FAIL(FO_ENOMEM, "array entry");
  a->ndim = (int)json_array_size(shape);
  for (int i = 0; i < a->ndim; i++) {
    json_t *s = json_array_get(shape, (size_t)i);
    if (!json_is_integer(s) || json_integer_value(s) < 0)
      return FO_FAIL(FO_EFORMAT, "array '%s': shape[%d] is not a non-negative integer", a->name, i);
    a->shape[i] = (int64_t)json_integer_value(s);
  }
  {
    char *end;
    errno = 0;
    a->xxh64 = strtoull(json_string_value(xx), &end, 16);
    if (*end || errno) return FO_FAIL(FO_EFORMAT, "array '%s': bad xxh64 '%s'", a->name,
                                      json_string_value(xx));
  }
  if ((rc = fo__npy_descr_itemsize(a->dtype, &a->itemsize)) != FO_OK)
    return fo__context(rc, "array '%s'", a->name);
  n = strlen(d->path) + strlen(a->file) + 2;
  if (!(path = malloc(n))) return FO_FAIL(FO_ENOMEM, "array path");
  snprintf(path, n, "%s/%s", d->path, a->file);
  rc = fo__map_file(path, &a->map);
  free(path);
  if (rc != FO_OK) return rc;
  if ((rc = fo__npy_parse(a->map.addr, a->map.len, &h)) != FO_OK)
    return fo__context(rc, "%s", a->file);
  if (strcmp(h.descr, a->dtype) != 0)
    return FO_FAIL(FO_EFORMAT, "%s: dtype '%s' but the manifest says '%s'", a->file, h.descr,
                   a->dtype);
  if (h.fortran_order && h.ndim > 1)
    return FO_FAIL(FO_EFORMAT, "%s: Fortran order is not supported", a->file);
  if (h.ndim != a->ndim || h.shape[0] != a->shape[0] || (a->ndim == 2 && h.shape[1] != a->shape[1]))
    return FO_FAIL(FO_EFORMAT, "%s: shape in the file differs from the manifest", a->file);
  a->nbytes = h.count * h.itemsize;
  if ((uint64_t)a->map.len != h.data_offset + (uint64_t)a->nbytes)
    return FO_FAIL(FO_EFORMAT, "%s: file has %zu bytes, its header and shape need %llu%s",
                   a->file, a->map.len, (unsigned long long)(h.data_offset + (uint64_t)a->nbytes),
                   (uint64_t)a->map.len < h.data_offset + (uint64_t)a->nbytes ? " (truncated)" : "");
  if (h.data_offset % 8 != 0)
    return FO_FAIL(FO_EFORMAT, "%s: data offset %zu is not 8-byte aligned", a->file, h.data_offset);
  a->data = (const char *)a->map.addr + h.data_offset;
  return FO_OK;
}

const fo__array *fo__dataset_find(const fo_dataset_t *d, const char *name) {
  for (int64_t i = 0; i < d->n_arrays; i++)
    if (!strcmp(d->arrays[i].name, name)) return &d->arrays[i];
  return NULL;
}

static bool is_int_dtype(const fo__array *a, bool allow32) {
  return !strcmp(a->dtype, "<i8") || (allow32 && !strcmp(a->dtype, "<i4"));
}

/* Build the view of one direction from manifest entry `t` ({"indptr":..,"indices":..[,"eid":..]}). */
static int load_topology(fo_dataset_t *d, json_t *t, fo_edge_dir dir, const char *label,
                         fo_load_mode load, int64_t n_rows, int64_t n_nbr) {
  fo_topology *v = &d->topo[dir];
  const fo__array *ip, *ix, *ei = NULL, *wa = NULL, *wc = NULL;
  json_t *jp = json_object_get(t, "indptr"), *jx = json_object_get(t, "indices");
  json_t *je = json_object_get(t, "eid"), *jw = json_object_get(t, "weight");
  json_t *jc = json_object_get(t, "weight_alias"), *jm = json_object_get(t, "num_edges");
  json_t *jt = json_object_get(t, "time"), *jr = json_object_get(t, "row_eid");
  const fo__array *tm = NULL, *re = NULL;
  const int64_t *p;
  /* one part of a typed partitioned dataset: its CSR (rows of owned source nodes) holds other
   * edges than its CSC and says how many */
  const int64_t m = jm && json_is_integer(jm) ? (int64_t)json_integer_value(jm) : d->n_edges;
  if (!json_is_string(jp) || !json_is_string(jx) || (je && !json_is_string(je)) ||
      (jm && (!json_is_integer(jm) || m < 0 || m > d->edge_id_bound)))
    return FO_FAIL(FO_EFORMAT, "topology '%s': needs 'indptr' and 'indices' names%s", label,
                   jm ? " and a 'num_edges' within the edge ids" : "");
  ip = fo__dataset_find(d, json_string_value(jp));
  ix = fo__dataset_find(d, json_string_value(jx));
  if (je) ei = fo__dataset_find(d, json_string_value(je));
  if ((jw && !json_is_string(jw)) || (jc && !json_is_string(jc)) || !jw != !jc)
    return FO_FAIL(FO_EFORMAT, "topology '%s': 'weight' and 'weight_alias' must both be array "
                   "names, or both absent", label);
  if (jw) wa = fo__dataset_find(d, json_string_value(jw));
  if (jc) wc = fo__dataset_find(d, json_string_value(jc));
  if (jt && !json_is_string(jt))
    return FO_FAIL(FO_EFORMAT, "topology '%s': 'time' must be an array name", label);
  {
    json_t *jo = json_object_get(t, "row_order");
    if (jo && !(json_is_string(jo) && !strcmp(json_string_value(jo), "node_time")))
      return FO_FAIL(FO_EFORMAT, "topology '%s': 'row_order' must be \"node_time\" (or absent)", label);
    v->rows_by_node_time = jo != NULL;
  }
  if (jt) tm = fo__dataset_find(d, json_string_value(jt));
  if (jr && (!json_is_string(jr) || !je))
    return FO_FAIL(FO_EFORMAT, "topology '%s': 'row_eid' must be an array name, beside 'eid'", label);
  if (jr) re = fo__dataset_find(d, json_string_value(jr));
  if (!ip || !ix || (je && !ei) || (jw && !wa) || (jc && !wc) || (jt && !tm) || (jr && !re))
    return FO_FAIL(FO_EFORMAT, "topology '%s': names an array that is not listed", label);
  if (wa && ((strcmp(wa->dtype, "<f4") && strcmp(wa->dtype, "<f8")) || wa->ndim != 1 ||
             wa->shape[0] != m))
    return FO_FAIL(FO_EFORMAT, "%s: edge weights must be float32 or float64 [%lld], are %s [%lld]",
                   wa->file, (long long)m, wa->dtype, (long long)wa->shape[0]);
  if (wc && (strcmp(wc->dtype, "<i8") || wc->ndim != 1 || wc->shape[0] != m))
    return FO_FAIL(FO_EFORMAT, "%s: weight alias tables must be int64 [%lld], are %s [%lld]",
                   wc->file, (long long)m, wc->dtype, (long long)wc->shape[0]);
  if (tm && (strcmp(tm->dtype, "<i8") || tm->ndim != 1 || tm->shape[0] != m))
    return FO_FAIL(FO_EFORMAT, "%s: edge times must be int64 [%lld], are %s [%lld]", tm->file,
                   (long long)m, tm->dtype, (long long)tm->shape[0]);
  if (!is_int_dtype(ip, false) || ip->ndim != 1 || ip->shape[0] != n_rows + 1)
    return FO_FAIL(FO_EFORMAT, "%s: must be int64 [%lld], is %s [%lld]", ip->file,
                   (long long)(n_rows + 1), ip->dtype, (long long)ip->shape[0]);
  if (!is_int_dtype(ix, true) || ix->ndim != 1 || ix->shape[0] != m)
    return FO_FAIL(FO_EFORMAT, "%s: must be int32 or int64 [%lld], is %s [%lld]", ix->file,
                   (long long)m, ix->dtype, (long long)ix->shape[0]);
  if (ei && (!is_int_dtype(ei, true) || ei->ndim != 1 || ei->shape[0] != m))
    return FO_FAIL(FO_EFORMAT, "%s: must be int32 or int64 [%lld]", ei->file, (long long)m);
  if (re && (strcmp(re->dtype, "<i8") || re->ndim != 1 || re->shape[0] != n_rows))
    return FO_FAIL(FO_EFORMAT, "%s: row edge ids must be int64 [%lld], are %s [%lld]", re->file,
                   (long long)n_rows, re->dtype, (long long)re->shape[0]);
  if (load == FO_LOAD_HUGEPAGE) {
    int rc;
    if ((rc = copy_to_hugepages((fo__array *)ip)) != FO_OK ||
        (rc = copy_to_hugepages((fo__array *)ix)) != FO_OK ||
        (ei && (rc = copy_to_hugepages((fo__array *)ei)) != FO_OK))
      return rc;
  }
  p = ip->data;
  if (p[0] != 0 || p[n_rows] != m)
    return FO_FAIL(FO_EFORMAT, "%s: indptr[0] = %lld and indptr[%lld] = %lld, expected 0 and %lld",
                   ip->file, (long long)p[0], (long long)n_rows, (long long)p[n_rows],
                   (long long)m);
  v->dir = dir;
  v->n_nodes = n_nbr;
  v->n_edges = m;
  v->n_rows = n_rows;
  v->row_nodes = d->row_nodes ? d->row_nodes->data : NULL;
  v->edge_id_bound = d->edge_id_bound;
  v->indptr = p;
  v->indices = ix->data;
  v->indices_bytes = (int)ix->itemsize;
  v->eid = ei ? ei->data : NULL;
  v->eid_bytes = ei ? (int)ei->itemsize : 0;
  v->indptr_name = ip->name;
  v->indices_name = ix->name;
  v->eid_name = ei ? ei->name : NULL;
  v->row_eid = re ? re->data : NULL; /* each row's first id: checked per row where it is used */
  v->row_eid_name = re ? re->name : NULL;
  v->weight = wa ? wa->data : NULL;
  v->weight_bytes = wa ? (int)wa->itemsize : 0;
  v->weight_name = wa ? wa->name : NULL;
  v->weight_alias = wc ? wc->data : NULL;
  v->weight_alias_name = wc ? wc->name : NULL;
  v->time = tm ? tm->data : NULL;
  v->time_name = tm ? tm->name : NULL;
  if (v->rows_by_node_time && tm)
    return FO_FAIL(FO_EFORMAT, "topology '%s': rows ordered by node time and edge times both", label);
  d->has_topo[dir] = true;
  return FO_OK;
}

/* The array named by `obj[key]`: NULL with *rc = FO_OK when the key is absent, NULL with
 * *rc = FO_EFORMAT when it names no listed array. */
static const fo__array *named_array(const fo_dataset_t *d, json_t *obj, const char *key,
                                    const char *where, int *rc) {
  json_t *v = json_object_get(obj, key);
  const fo__array *a;
  *rc = FO_OK;
  if (!v) return NULL;
  a = json_is_string(v) ? fo__dataset_find(d, json_string_value(v)) : NULL;
  if (!a) *rc = FO_FAIL(FO_EFORMAT, "%s: '%s.%s' does not name a listed array", FO_MANIFEST, where, key);
  return a;
}

static const struct {
  const char *name, *descr;
  int64_t itemsize;
} feature_dtypes[] = {{"float32", "<f4", 4}, {"float16", "<f2", 2}, {"bfloat16", "<u2", 2},
                      {"uint8", "|u1", 1}};

/* "features", "labels" and "splits" (all optional). */
static int parse_node_data(fo_dataset_t *d, json_t *root, fo_load_mode load) {
  json_t *jf = json_object_get(root, "features"), *jl = json_object_get(root, "labels");
  json_t *js = json_object_get(root, "splits");
  int rc;
  if (jf) {
    json_t *dt = json_object_get(jf, "dtype");
    int k = -1;
    if (!json_is_object(jf) || !json_is_string(dt))
      return FO_FAIL(FO_EFORMAT, "%s: 'features' needs 'array' and 'dtype'", FO_MANIFEST);
    for (int i = 0; i < 4; i++)
      if (!strcmp(json_string_value(dt), feature_dtypes[i].name)) k = i;
    if (k < 0)
      return FO_FAIL(FO_EFORMAT, "%s: feature dtype '%s' is not float32, float16, bfloat16 or uint8",
                     FO_MANIFEST, json_string_value(dt));
    d->x = named_array(d, jf, "array", "features", &rc);
    if (rc != FO_OK) return rc;
    if (!d->x || d->x->ndim != 2 || d->x->shape[0] != d->n_rows ||
        strcmp(d->x->dtype, feature_dtypes[k].descr) != 0)
      return FO_FAIL(FO_EFORMAT, "%s: features must be a %s ('%s') array of shape [%lld, D]",
                     FO_MANIFEST, feature_dtypes[k].name, feature_dtypes[k].descr,
                     (long long)d->n_rows);
    snprintf(d->x_dtype, sizeof d->x_dtype, "%s", feature_dtypes[k].name);
    if (load == FO_LOAD_HUGEPAGE && (rc = copy_to_hugepages((fo__array *)d->x)) != FO_OK) return rc;
    d->x_scale = named_array(d, jf, "scale", "features", &rc);
    if (rc != FO_OK) return rc;
    d->x_offset = named_array(d, jf, "offset", "features", &rc);
    if (rc != FO_OK) return rc;
    if (strcmp(d->x_dtype, "uint8") == 0 ? !(d->x_scale && d->x_offset) : (d->x_scale || d->x_offset))
      return FO_FAIL(FO_EFORMAT, "%s: uint8 features need 'scale' and 'offset' (and only they)",
                     FO_MANIFEST);
    for (int i = 0; i < 2; i++) {
      const fo__array *a = i ? d->x_offset : d->x_scale;
      if (a && (a->ndim != 1 || a->shape[0] != d->x->shape[1] || strcmp(a->dtype, "<f4")))
        return FO_FAIL(FO_EFORMAT, "%s: feature %s must be float32 [%lld]", FO_MANIFEST,
                       i ? "offset" : "scale", (long long)d->x->shape[1]);
    }
  }
  if (jl) {
    json_t *nc = json_object_get(jl, "num_classes");
    if (!json_is_object(jl)) return FO_FAIL(FO_EFORMAT, "%s: 'labels' is not an object", FO_MANIFEST);
    d->y = named_array(d, jl, "array", "labels", &rc);
    if (rc != FO_OK) return rc;
    if (!d->y || d->y->ndim != 1 || d->y->shape[0] != d->n_rows || strcmp(d->y->dtype, "<i8"))
      return FO_FAIL(FO_EFORMAT, "%s: labels must be int64 [%lld]", FO_MANIFEST, (long long)d->n_rows);
    if (nc && (!json_is_integer(nc) || json_integer_value(nc) < 0 ||
               json_integer_value(nc) > INT32_MAX))
      return FO_FAIL(FO_EFORMAT, "%s: labels 'num_classes' must be an integer in 0..%d",
                     FO_MANIFEST, INT32_MAX);
    d->num_classes = nc ? (int64_t)json_integer_value(nc) : 0;
  }
  if (json_object_get(root, "node_time")) {
    d->node_time = named_array(d, root, "node_time", "node_time", &rc);
    if (rc != FO_OK) return rc;
    if (!d->node_time || d->node_time->ndim != 1 || d->node_time->shape[0] != d->n_rows ||
        strcmp(d->node_time->dtype, "<i8"))
      return FO_FAIL(FO_EFORMAT, "%s: node_time must name an int64 [%lld] array", FO_MANIFEST,
                     (long long)d->n_rows);
  }
  if (js) {
    const char *key;
    json_t *v;
    if (!json_is_object(js)) return FO_FAIL(FO_EFORMAT, "%s: 'splits' is not an object", FO_MANIFEST);
    if (!(d->splits = calloc(json_object_size(js) + 1, sizeof *d->splits)))
      return FO_FAIL(FO_ENOMEM, "splits");
    json_object_foreach(js, key, v) {
      const fo__array *a = json_is_string(v) ? fo__dataset_find(d, json_string_value(v)) : NULL;
      if (!a || a->ndim != 1 || strcmp(a->dtype, "<i8"))
        return FO_FAIL(FO_EFORMAT, "%s: split '%s' must name an int64 [k] array", FO_MANIFEST, key);
      if (!(d->splits[d->n_splits].name = fo__strdup(key))) return FO_FAIL(FO_ENOMEM, "splits");
      d->splits[d->n_splits++].ids = a;
    }
  }
  return FO_OK;
}

/* One part of a partitioned dataset: "row_nodes" (int64 [num_rows], the node of each row,
 * ascending) and "row_rank" (uint32 [ceil(num_nodes / 64) + 1], rows of nodes before each block
 * of 64; absent for range partitions). */
static int parse_rows(fo_dataset_t *d, json_t *root) {
  int rc;
  d->row_nodes = named_array(d, root, "row_nodes", "part", &rc);
  if (rc != FO_OK) return rc;
  d->row_rank = named_array(d, root, "row_rank", "part", &rc);
  if (rc != FO_OK) return rc;
  if (!d->row_nodes || d->row_nodes->ndim != 1 || d->row_nodes->shape[0] != d->n_rows ||
      strcmp(d->row_nodes->dtype, "<i8"))
    return FO_FAIL(FO_EFORMAT, "%s: 'row_nodes' must name an int64 [%lld] array", FO_MANIFEST,
                   (long long)d->n_rows);
  if (d->row_rank && (d->row_rank->ndim != 1 || strcmp(d->row_rank->dtype, "<u4") ||
                      d->row_rank->shape[0] != (d->n_nodes + FO_RANK_BLOCK - 1) / FO_RANK_BLOCK + 1))
    return FO_FAIL(FO_EFORMAT, "%s: 'row_rank' must name a uint32 [%lld] array", FO_MANIFEST,
                   (long long)((d->n_nodes + FO_RANK_BLOCK - 1) / FO_RANK_BLOCK + 1));
  return FO_OK;
}

/* "node_orig": the input's id of every node, optional: the name of an int64 or fixed-width
 * bytes array (|S<w>, the layout before 0.2), or {"offsets": int64 [n + 1], "bytes": uint8
 * [total]} (string ids as offsets + bytes). Checked here in O(1): offsets[0] == 0 and
 * offsets[n] == total; each access checks its own two offsets. */
static int parse_node_orig(fo_dataset_t *d, json_t *root) {
  json_t *orig = json_object_get(root, "node_orig");
  const fo__array *a;
  if (!orig) return FO_OK;
  if (json_is_object(orig)) {
    int rc;
    const fo__array *off = named_array(d, orig, "offsets", "node_orig", &rc), *bytes;
    if (rc != FO_OK) return rc;
    bytes = named_array(d, orig, "bytes", "node_orig", &rc);
    if (rc != FO_OK) return rc;
    if (!off || !bytes || off->ndim != 1 || off->shape[0] != d->n_nodes + 1 ||
        strcmp(off->dtype, "<i8") || bytes->ndim != 1 || strcmp(bytes->dtype, "|u1"))
      return FO_FAIL(FO_EFORMAT, "%s: 'node_orig' needs 'offsets' (int64 [%lld]) and 'bytes' "
                     "(uint8 [k])", FO_MANIFEST, (long long)(d->n_nodes + 1));
    {
      const int64_t *o = off->data;
      if (o[0] != 0 || o[d->n_nodes] != bytes->shape[0])
        return FO_FAIL(FO_EFORMAT, "%s: offsets[0] = %lld and offsets[%lld] = %lld, expected 0 "
                       "and %lld (the bytes)", off->file, (long long)o[0], (long long)d->n_nodes,
                       (long long)o[d->n_nodes], (long long)bytes->shape[0]);
    }
    d->node_orig = bytes;
    d->node_orig_off = off;
    d->orig_kind = FO_ORIG_STRING;
    return FO_OK;
  }
  a = json_is_string(orig) ? fo__dataset_find(d, json_string_value(orig)) : NULL;
  if (!a || a->ndim != 1 || a->shape[0] != d->n_nodes ||
      !(!strcmp(a->dtype, "<i8") || a->dtype[1] == 'S'))
    return FO_FAIL(FO_EFORMAT, "%s: 'node_orig' must name an int64 or bytes array of %lld nodes",
                   FO_MANIFEST, (long long)d->n_nodes);
  d->node_orig = a;
  d->orig_kind = a->dtype[1] == 'S' ? FO_ORIG_STRING : FO_ORIG_INT64;
  return FO_OK;
}

/* Part k, just opened, belongs to this partitioning: the top level lists each part once, the
 * part's "part" says it is part k of num_parts, and (datasets written since partition ids
 * exist) its "partition_id" equals the top level's. Parts copied in from another run of
 * `fanout partition`, or one part listed twice, are refused here, before any reader uses the
 * rows they would give. O(number of parts) per part. */
static int check_part_identity(const fo_dataset_t *d, json_t *root, int64_t k, const char *name) {
  json_t *jp = json_object_get(root, "parts"), *top_id = json_object_get(root, "partition_id");
  json_t *pm, *pk, *pid, *idx, *of;
  json_error_t jerr;
  int rc = FO_OK;
  for (int64_t j = 0; j < k; j++) {
    json_t *o = json_array_get(jp, (size_t)j);
    if (json_is_string(o) && !strcmp(json_string_value(o), name))
      return FO_FAIL(FO_EFORMAT, "%s: 'parts' lists '%s' twice (parts[%lld] and parts[%lld])",
                     FO_MANIFEST, name, (long long)j, (long long)k);
  }
  if (top_id && !json_is_string(top_id))
    return FO_FAIL(FO_EFORMAT, "%s: 'partition_id' is not a string", FO_MANIFEST);
  if (!(pm = json_loads(d->parts[k]->manifest_text, 0, &jerr)))
    return FO_FAIL(FO_EFORMAT, "part %lld ('%s'): manifest: %s", (long long)k, name, jerr.text);
  pk = json_object_get(pm, "part");
  pid = json_object_get(pm, "partition_id");
  idx = json_object_get(pk, "index");
  of = json_object_get(pk, "of");
  if (pk && (!json_is_integer(idx) || !json_is_integer(of) || json_integer_value(idx) != k ||
             json_integer_value(of) != d->n_parts))
    rc = FO_FAIL(FO_EFORMAT, "part %lld ('%s') says it is part %lld of %lld, the top level lists "
                 "it as part %lld of %d", (long long)k, name,
                 json_is_integer(idx) ? (long long)json_integer_value(idx) : -1LL,
                 json_is_integer(of) ? (long long)json_integer_value(of) : -1LL, (long long)k,
                 d->n_parts);
  else if (top_id && (!json_is_string(pid) || strcmp(json_string_value(pid), json_string_value(top_id))))
    rc = FO_FAIL(FO_EFORMAT, "part %lld ('%s') comes from another partitioning: its partition_id "
                 "is %s, the dataset's is %s (parts of different `fanout partition` runs mixed "
                 "in one directory)", (long long)k, name,
                 json_is_string(pid) ? json_string_value(pid) : "missing", json_string_value(top_id));
  else if (!top_id && pid)
    rc = FO_FAIL(FO_EFORMAT, "part %lld ('%s') has partition_id %s, the dataset has none (parts "
                 "of different `fanout partition` runs mixed in one directory)", (long long)k, name,
                 json_is_string(pid) ? json_string_value(pid) : "?");
  json_decref(pm);
  return rc;
}

/* The row map of an array book: book_row[v] = the nodes of v's part below v, i.e. v's row in
 * its part (parts store their owned nodes ascending). One pass over the book, 4 bytes per node;
 * entries naming no part (>= np) get row 0 (fo__owner rejects them before any row is used) and
 * are counted in book_stray. book_count[k]: the nodes the book gives part k (checked against
 * each part's rows at open).
 * Without it (ids beyond uint32) fo__owner_row scans the rank directory. */
static int build_book_row(fo_dataset_t *d, int64_t np) {
  const int64_t n = d->n_nodes;
  uint32_t *cnt, *row;
  if (n > (int64_t)UINT32_MAX) return FO_OK;
  if (!(cnt = calloc((size_t)np, sizeof *cnt)) || !(row = malloc((size_t)(n ? n : 1) * sizeof *row))) {
    free(cnt);
    return FO_FAIL(FO_ENOMEM, "book row map (%lld nodes)", (long long)n);
  }
  if (d->book->itemsize == 1) {
    const uint8_t *b = d->book->data;
    for (int64_t v = 0; v < n; v++) row[v] = b[v] < np ? cnt[b[v]]++ : 0;
  } else {
    const uint16_t *b = d->book->data;
    for (int64_t v = 0; v < n; v++) row[v] = b[v] < np ? cnt[b[v]]++ : 0;
  }
  d->book_stray = n;
  for (int64_t k = 0; k < np; k++) d->book_stray -= cnt[k];
  d->book_row = row;
  d->book_count = cnt;
  return FO_OK;
}

/* The book of a partitioned dataset (or of one node type of a typed one: `d` is then the node
 * type's view, d->n_nodes its node count): "kind" "range" with P + 1 "bounds", or "array" naming
 * a uint8/uint16 [n] array. */
static int parse_book(fo_dataset_t *d, json_t *jb, int64_t np) {
  json_t *kind;
  int rc;
  kind = json_object_get(jb, "kind");
  if (json_is_string(kind) && !strcmp(json_string_value(kind), "range")) {
    json_t *jbd = json_object_get(jb, "bounds");
    d->book_kind = FO_BOOK_RANGE;
    if (!json_is_array(jbd) || (int64_t)json_array_size(jbd) != np + 1)
      return FO_FAIL(FO_EFORMAT, "%s: range book needs %lld 'bounds'", FO_MANIFEST, (long long)(np + 1));
    if (!(d->bounds = malloc((size_t)(np + 1) * sizeof *d->bounds))) return FO_FAIL(FO_ENOMEM, "book");
    for (int64_t k = 0; k <= np; k++) {
      json_t *b = json_array_get(jbd, (size_t)k);
      d->bounds[k] = json_is_integer(b) ? (int64_t)json_integer_value(b) : -1;
      if (d->bounds[k] < (k ? d->bounds[k - 1] : 0) || (k == 0 && d->bounds[0] != 0) ||
          (k == np && d->bounds[k] != d->n_nodes))
        return FO_FAIL(FO_EFORMAT, "%s: range bounds must rise from 0 to %lld (bounds[%lld])",
                       FO_MANIFEST, (long long)d->n_nodes, (long long)k);
    }
  } else if (json_is_string(kind) && !strcmp(json_string_value(kind), "array")) {
    d->book_kind = FO_BOOK_ARRAY;
    d->book = named_array(d, jb, "array", "book", &rc);
    if (rc != FO_OK) return rc;
    if (!d->book || d->book->ndim != 1 || d->book->shape[0] != d->n_nodes ||
        !(!strcmp(d->book->dtype, "|u1") || !strcmp(d->book->dtype, "<u2")) ||
        (d->book->itemsize == 1 && np > 256))
      return FO_FAIL(FO_EFORMAT, "%s: the book must be uint8 (up to 256 parts) or uint16 [%lld]",
                     FO_MANIFEST, (long long)d->n_nodes);
    if ((rc = build_book_row(d, np)) != FO_OK) return rc;
  } else {
    return FO_FAIL(FO_EFORMAT, "%s: book 'kind' is not \"array\" or \"range\"", FO_MANIFEST);
  }
  return FO_OK;
}

/* Part k's rows against the nodes the array book gives it (book_count, built with the row
 * map): a book or a part from elsewhere would put rows where the part has none. */
static int check_book_count(const fo_dataset_t *w, int64_t k, const fo_dataset_t *p, const char *type) {
  if (!w->book_count || p->n_rows == (int64_t)w->book_count[k]) return FO_OK;
  return FO_FAIL(FO_EFORMAT, "the book%s%s%s gives part %lld %lld nodes, the part ('%s') has "
                 "%lld rows", type ? " of node type '" : "", type ? type : "", type ? "'" : "",
                 (long long)k, (long long)w->book_count[k], p->path, (long long)p->n_rows);
}

static int parse_typed(fo_dataset_t *d, json_t *root, fo_load_mode load);
static int check_typed_part(fo_dataset_t *d, int64_t k);

/* A partitioned dataset: the book, then every part opened as a dataset of its own. A typed one
 * (format_version 2) has a book per node type; parse_typed reads the types, and each node
 * type's view becomes a partitioned dataset of its own (book, parts = the parts' views of that
 * node type), so fo__owner and fo__owner_row work on it unchanged. */
static int parse_partitioned(fo_dataset_t *d, json_t *root, fo_load_mode load, int32_t only) {
  json_t *jp = json_object_get(root, "parts"), *jb = json_object_get(root, "book");
  json_t *jm = json_object_get(root, "method");
  fo_dataset_opts po;
  int64_t np;
  int rc;
  const bool typed = d->format_version >= FO_FORMAT_VERSION_TYPED;
  if (!json_is_array(jp) || json_array_size(jp) < 1 || json_array_size(jp) > 65536 ||
      (!typed && !json_is_object(jb)) || !json_is_string(jm))
    return FO_FAIL(FO_EFORMAT, "%s: a partitioned dataset needs 'parts' (1..65536 names), "
                   "'book' (per node type when typed) and 'method'", FO_MANIFEST);
  np = (int64_t)json_array_size(jp);
  {
    /* written by every partitioner; the parts listed are what is opened, so they must agree */
    json_t *jn = json_object_get(root, "num_parts");
    if (jn && (!json_is_integer(jn) || json_integer_value(jn) != np))
      return json_is_integer(jn) ?
          FO_FAIL(FO_EFORMAT, "%s: 'num_parts' is %lld, but 'parts' lists %lld", FO_MANIFEST,
                  (long long)json_integer_value(jn), (long long)np) :
          FO_FAIL(FO_EFORMAT, "%s: 'num_parts' is not an integer", FO_MANIFEST);
  }
  snprintf(d->method, sizeof d->method, "%s", json_string_value(jm));
  {
    json_t *ts = json_object_get(root, "train_split");
    snprintf(d->train_split, sizeof d->train_split, "%s", json_is_string(ts) ? json_string_value(ts) : "train");
  }
  if (typed) {
    /* node types with their books and splits, edge types with their counts */
    d->n_parts = (int)np; /* parse_typed gives every node type's view the parts */
    d->only_part = only;
    if ((rc = parse_typed(d, root, load)) != FO_OK) return rc;
  } else if ((rc = parse_book(d, jb, np)) != FO_OK) {
    return rc;
  }
  if (!(d->parts = calloc((size_t)np, sizeof *d->parts))) return FO_FAIL(FO_ENOMEM, "parts");
  d->n_parts = (int)np;
  if (only >= np)
    return FO_FAIL(FO_EINVAL, "part %d asked for, the dataset has %lld parts", (int)only, (long long)np);
  d->only_part = only;
  fo_dataset_opts_init(&po);
  po.load = load;
  for (int64_t k = 0; k < np; k++) {
    if (only >= 0 && k != only) continue;
    json_t *name = json_array_get(jp, (size_t)k);
    char *path;
    size_t len;
    if (!json_is_string(name) || !valid_name(json_string_value(name)))
      return FO_FAIL(FO_EFORMAT, "%s: parts[%lld] is not a directory name", FO_MANIFEST, (long long)k);
    len = strlen(d->path) + strlen(json_string_value(name)) + 2;
    if (!(path = malloc(len))) return FO_FAIL(FO_ENOMEM, "part path");
    snprintf(path, len, "%s/%s", d->path, json_string_value(name));
    rc = fo_dataset_open(path, &po, &d->parts[k]);
    free(path);
    if (rc != FO_OK) return rc;
    if ((rc = check_part_identity(d, root, k, json_string_value(name))) != FO_OK) return rc;
    if (typed) {
      if ((rc = check_typed_part(d, k)) != FO_OK) return rc;
      continue;
    }
    {
      const fo_dataset_t *p = d->parts[k];
      if (p->n_parts || p->n_nodes != d->n_nodes || p->edge_id_bound != d->n_edges ||
          !p->row_nodes || !p->has_topo[FO_EDGE_DIR_IN] ||
          (d->book_kind == FO_BOOK_ARRAY && !p->row_rank) ||
          (d->book_kind == FO_BOOK_RANGE && p->n_rows != d->bounds[k + 1] - d->bounds[k]))
        return FO_FAIL(FO_EFORMAT, "part %lld ('%s') does not belong to this partitioned dataset "
                       "(nodes, edge ids, rows or rank directory differ)", (long long)k, p->path);
    }
    if ((rc = check_book_count(d, k, d->parts[k], NULL)) != FO_OK) return rc;
  }
  if (typed) return FO_OK; /* node data is per node type */
  if ((rc = parse_node_orig(d, root)) != FO_OK || (rc = fo__parse_edge_splits(d, root, true)) != FO_OK)
    return rc;
  return parse_node_data(d, root, load);
}

static int parse_edges(fo_dataset_t *d, json_t *root, fo_load_mode load, int64_t csc_rows,
                       int64_t csc_nbr, int64_t csr_rows, int64_t csr_nbr);

/* ---- types ---------------------------------------------------------------------------------- */

bool fo__type_name_ok(const char *s, bool relation) {
  size_t n = strlen(s);
  if (n < 1 || n > FO_TYPE_NAME_MAX || strstr(s, "__") || s[0] == '_' || s[n - 1] == '_')
    return false;
  for (; *s; s++)
    if (*s <= ' ' || *s > '~' || strchr(relation ? ",:\"/" : ",=:\"\\/", *s)) return false;
  return true;
}

/* A version-1 dataset: one node type and one edge type, both the dataset itself. */
static int one_type(fo_dataset_t *d) {
  if (!(d->ntypes = calloc(1, sizeof *d->ntypes)) || !(d->etypes = calloc(1, sizeof *d->etypes)) ||
      !(d->ntypes[0].name = fo__strdup("node")) || !(d->etypes[0].name = fo__strdup("node__to__node")) ||
      !(d->etypes[0].src = fo__strdup("node")) || !(d->etypes[0].rel = fo__strdup("to")) ||
      !(d->etypes[0].dst = fo__strdup("node")))
    return FO_FAIL(FO_ENOMEM, "types");
  d->n_ntypes = d->n_etypes = 1;
  d->ntypes[0].view = d->etypes[0].view = d;
  return FO_OK;
}

/* A view of `d` sharing its arrays. */
static fo_dataset_t *new_view(fo_dataset_t *d) {
  fo_dataset_t *v = calloc(1, sizeof *v);
  if (!v) return NULL;
  if (!(v->path = fo__strdup(d->path))) {
    free(v);
    return NULL;
  }
  v->is_view = true;
  v->format_version = d->format_version;
  v->arrays = d->arrays;
  v->n_arrays = d->n_arrays;
  return v;
}

static int type_string(json_t *obj, const char *key, const char *where, int64_t i, char **out) {
  json_t *v = json_object_get(obj, key);
  if (!json_is_string(v) || !fo__type_name_ok(json_string_value(v), !strcmp(key, "rel")))
    return FO_FAIL(FO_EFORMAT, "%s: %s[%lld]: '%s' is missing or not a valid type name "
                   "(1..%d printable bytes, no whitespace, ',', ':', quote, '/', '__', leading or "
                   "trailing '_'; in node types also no '=' or '\\')",
                   FO_MANIFEST, where, (long long)i, key, FO_TYPE_NAME_MAX);
  if (!(*out = fo__strdup(json_string_value(v)))) return FO_FAIL(FO_ENOMEM, "types");
  return FO_OK;
}

/* An edge type's "labels_only" flag (format_version 3, docs/FORMAT.md): absent or false for a
 * traversed type; true with "label": "positive" or "negative" for a supervision type. A
 * version-2 manifest must not have it: a reader of version 2 would traverse the type. */
static int label_flag(const fo_dataset_t *d, json_t *t, const char *name, int32_t *label) {
  json_t *lo = json_object_get(t, "labels_only"), *jl = json_object_get(t, "label");
  const char *l;
  *label = 0;
  if (!lo && !jl) return FO_OK;
  if (lo && !json_is_boolean(lo))
    return FO_FAIL(FO_EFORMAT, "%s: edge type '%s': 'labels_only' is not true or false", FO_MANIFEST, name);
  if (!json_is_true(lo)) {
    if (jl)
      return FO_FAIL(FO_EFORMAT, "%s: edge type '%s' has 'label' but is not labels_only",
                     FO_MANIFEST, name);
    return FO_OK;
  }
  if (d->format_version < FO_FORMAT_VERSION_LABELS)
    return FO_FAIL(FO_EFORMAT, "%s: edge type '%s' is labels_only in a format_version %d "
                   "manifest (labels-only edge types need format_version 3)", FO_MANIFEST, name,
                   d->format_version);
  l = json_is_string(jl) ? json_string_value(jl) : "";
  if (!strcmp(l, "positive")) *label = FO_LABEL_POSITIVE;
  else if (!strcmp(l, "negative")) *label = FO_LABEL_NEGATIVE;
  else
    return FO_FAIL(FO_EFORMAT, "%s: labels-only edge type '%s': 'label' is not \"positive\" or "
                   "\"negative\"", FO_MANIFEST, name);
  return FO_OK;
}

/* Move the labels-only edge types behind the traversed ones (keeping both orders), so edge
 * type indices 0..n_etypes-1 are the traversed types the sampler sees and the labels-only ones
 * are a separate table no hop driver ever iterates. */
static int labels_last(fo_dataset_t *d) {
  const int32_t n = d->n_etypes;
  int32_t k = 0, nl = 0;
  struct fo__etype *tmp;
  for (int32_t i = 0; i < n; i++) nl += d->etypes[i].label != 0;
  if (!nl) return FO_OK;
  if (nl == n)
    return FO_FAIL(FO_EFORMAT, "%s: every edge type is labels_only: a typed dataset needs a "
                   "traversed edge type", FO_MANIFEST);
  if (!(tmp = malloc((size_t)n * sizeof *tmp))) return FO_FAIL(FO_ENOMEM, "types");
  for (int32_t i = 0; i < n; i++)
    if (!d->etypes[i].label) tmp[k++] = d->etypes[i];
  for (int32_t i = 0; i < n; i++)
    if (d->etypes[i].label) tmp[k++] = d->etypes[i];
  memcpy(d->etypes, tmp, (size_t)n * sizeof *tmp);
  free(tmp);
  d->n_etypes = n - nl;
  d->n_ltypes = nl;
  return FO_OK;
}

/* "node_types" and "edge_types" of a version-2 manifest (docs/FORMAT.md), of a typed dataset,
 * of the top level of a typed partitioned one, or of one of its parts. */
static int parse_typed(fo_dataset_t *d, json_t *root, fo_load_mode load) {
  json_t *jn = json_object_get(root, "node_types"), *je = json_object_get(root, "edge_types");
  int64_t sum_n = 0, sum_m = 0;
  /* top: the top level of a typed partitioned dataset (books, no topology); part: one part of
   * it (rows per node type, global edge ids per edge type) */
  const bool top = d->n_parts > 0, part = json_object_get(root, "part") != NULL;
  int rc;
  if (!json_is_array(jn) || json_array_size(jn) < 1 || json_array_size(jn) > 65535 ||
      !json_is_array(je) || json_array_size(je) < 1 || json_array_size(je) > 32767)
    return FO_FAIL(FO_EFORMAT, "%s: a typed dataset needs 'node_types' (1..65535) and "
                   "'edge_types' (1..32767) lists", FO_MANIFEST);
  if (json_object_get(root, "topology") || json_object_get(root, "features") ||
      json_object_get(root, "labels") || json_object_get(root, "splits"))
    return FO_FAIL(FO_EFORMAT, "%s: a typed dataset keeps topology and node data per type, not "
                   "at the top level", FO_MANIFEST);
  d->typed = true;
  if (!(d->ntypes = calloc(json_array_size(jn), sizeof *d->ntypes)) ||
      !(d->etypes = calloc(json_array_size(je), sizeof *d->etypes)))
    return FO_FAIL(FO_ENOMEM, "types");
  for (size_t i = 0; i < json_array_size(jn); i++) {
    json_t *t = json_array_get(jn, i);
    struct fo__ntype *nt = &d->ntypes[i];
    fo_dataset_t *v;
    if (!json_is_object(t)) return FO_FAIL(FO_EFORMAT, "%s: node_types[%zu] is not an object", FO_MANIFEST, i);
    if ((rc = type_string(t, "name", "node_types", (int64_t)i, &nt->name)) != FO_OK) return rc;
    d->n_ntypes++;
    for (size_t j = 0; j < i; j++)
      if (!strcmp(d->ntypes[j].name, nt->name))
        return FO_FAIL(FO_EFORMAT, "%s: node type '%s' is listed twice", FO_MANIFEST, nt->name);
    if (!(nt->view = v = new_view(d))) return FO_FAIL(FO_ENOMEM, "types");
    if ((rc = json_int(t, "num_nodes", &v->n_nodes)) != FO_OK || v->n_nodes > INT64_MAX / 4 - sum_n)
      return fo__context(rc ? rc : FO_FAIL(FO_EFORMAT, "too many nodes"), "%s: node type '%s'",
                         FO_MANIFEST, nt->name);
    v->n_rows = v->n_nodes;
    sum_n += v->n_nodes;
    if (top && (!(v->parts = calloc((size_t)d->n_parts, sizeof *v->parts)) ||
                !json_is_object(json_object_get(t, "book"))))
      return v->parts ? FO_FAIL(FO_EFORMAT, "%s: node type '%s' has no 'book'", FO_MANIFEST, nt->name)
                      : FO_FAIL(FO_ENOMEM, "parts");
    if (top) {
      v->n_parts = d->n_parts;
      v->only_part = d->only_part;
      if ((rc = parse_book(v, json_object_get(t, "book"), d->n_parts)) != FO_OK)
        return fo__context(rc, "node type '%s'", nt->name);
    }
    if (part && (rc = json_int(t, "num_rows", &v->n_rows)) == FO_OK && v->n_rows > v->n_nodes)
      rc = FO_FAIL(FO_EFORMAT, "num_rows %lld > num_nodes %lld", (long long)v->n_rows,
                   (long long)v->n_nodes);
    if ((part && (rc != FO_OK || (rc = parse_rows(v, t)) != FO_OK)) ||
        (rc = parse_node_orig(v, t)) != FO_OK || (rc = parse_node_data(v, t, load)) != FO_OK)
      return fo__context(rc, "node type '%s'", nt->name);
  }
  for (size_t i = 0; i < json_array_size(je); i++) {
    json_t *t = json_array_get(je, i), *jname;
    struct fo__etype *et = &d->etypes[i];
    fo_dataset_t *v;
    int64_t ns, nd;
    char *full;
    size_t len;
    if (!json_is_object(t)) return FO_FAIL(FO_EFORMAT, "%s: edge_types[%zu] is not an object", FO_MANIFEST, i);
    d->n_etypes++;
    if ((rc = type_string(t, "src", "edge_types", (int64_t)i, &et->src)) != FO_OK ||
        (rc = type_string(t, "rel", "edge_types", (int64_t)i, &et->rel)) != FO_OK ||
        (rc = type_string(t, "dst", "edge_types", (int64_t)i, &et->dst)) != FO_OK)
      return rc;
    len = strlen(et->src) + strlen(et->rel) + strlen(et->dst) + 5;
    if (!(et->name = full = malloc(len))) return FO_FAIL(FO_ENOMEM, "types");
    snprintf(full, len, "%s__%s__%s", et->src, et->rel, et->dst);
    jname = json_object_get(t, "name");
    if (jname && !(json_is_string(jname) && !strcmp(json_string_value(jname), full)))
      return FO_FAIL(FO_EFORMAT, "%s: edge_types[%zu]: 'name' is not '%s'", FO_MANIFEST, i, full);
    et->src_t = fo_dataset_node_type_find(d, et->src);
    et->dst_t = fo_dataset_node_type_find(d, et->dst);
    if (et->src_t < 0 || et->dst_t < 0)
      return FO_FAIL(FO_EFORMAT, "%s: edge type '%s': node type '%s' is not listed", FO_MANIFEST,
                     full, et->src_t < 0 ? et->src : et->dst);
    for (size_t j = 0; j < i; j++)
      if (!strcmp(d->etypes[j].name, full))
        return FO_FAIL(FO_EFORMAT, "%s: edge type '%s' is listed twice", FO_MANIFEST, full);
    if ((rc = label_flag(d, t, full, &et->label)) != FO_OK) return rc;
    if (!(et->view = v = new_view(d))) return FO_FAIL(FO_ENOMEM, "types");
    if ((rc = json_int(t, "num_edges", &v->n_edges)) != FO_OK || v->n_edges > INT64_MAX / 4 - sum_m)
      return fo__context(rc ? rc : FO_FAIL(FO_EFORMAT, "too many edges"), "%s: edge type '%s'",
                         FO_MANIFEST, full);
    if (!et->label) sum_m += v->n_edges; /* num_edges counts the traversed types only */
    v->edge_id_bound = v->n_edges;
    ns = d->ntypes[et->src_t].view->n_nodes;
    nd = d->ntypes[et->dst_t].view->n_nodes;
    v->n_nodes = v->n_rows = nd; /* unused for edge views but kept in range */
    if (top) { /* the topology is in the parts; the edge splits with their endpoints here */
      if ((rc = fo__parse_edge_splits(v, t, true)) != FO_OK)
        return fo__context(rc, "edge type '%s'", full);
      continue;
    }
    if (part && ((rc = json_int(t, "edge_id_bound", &v->edge_id_bound)) != FO_OK ||
                 v->edge_id_bound < v->n_edges))
      return fo__context(rc ? rc : FO_FAIL(FO_EFORMAT, "edge_id_bound %lld < num_edges %lld",
                                           (long long)v->edge_id_bound, (long long)v->n_edges),
                         "%s: edge type '%s'", FO_MANIFEST, full);
    {
      /* a part's CSC has a row per owned dst node, its CSR one per owned src node */
      const fo_dataset_t *vs = d->ntypes[et->src_t].view, *vd = d->ntypes[et->dst_t].view;
      if ((rc = parse_edges(v, t, load, vd->n_rows, ns, vs->n_rows, nd)) != FO_OK)
        return fo__context(rc, "edge type '%s'", full);
      if (part) {
        v->topo[FO_EDGE_DIR_IN].row_nodes = vd->row_nodes->data;
        v->topo[FO_EDGE_DIR_OUT].row_nodes = vs->row_nodes->data;
      }
    }
  }
  if ((rc = labels_last(d)) != FO_OK) return rc;
  if (sum_n != d->n_nodes || sum_m != d->n_edges)
    return FO_FAIL(FO_EFORMAT, "%s: num_nodes %lld and num_edges %lld are not the sums over the "
                   "types (%lld, %lld)", FO_MANIFEST, (long long)d->n_nodes, (long long)d->n_edges,
                   (long long)sum_n, (long long)sum_m);
  return FO_OK;
}

static void close_view(fo_dataset_t *v) {
  free(v->parts); /* a typed partitioned dataset's node type: the views it points to are the parts' */
  free(v->bounds);
  free(v->book_row);
  free(v->book_count);
  for (int64_t i = 0; i < v->n_splits; i++) free(v->splits[i].name);
  free(v->splits);
  fo__free_edge_splits(v);
  free(v->path);
  free(v);
}

/* Part k of a typed partitioned dataset, just opened: the same node and edge types with the same
 * counts, rows per node type matching that type's book, a CSC per edge type with global edge
 * ids; then each node type's view of the whole points at the part's view of that type. */
static int check_typed_part(fo_dataset_t *d, int64_t k) {
  const fo_dataset_t *p = d->parts[k];
  bool ok = p->typed && !p->n_parts && p->n_ntypes == d->n_ntypes && p->n_etypes == d->n_etypes &&
            p->n_nodes == d->n_nodes;
  for (int32_t t = 0; ok && t < d->n_ntypes; t++) {
    fo_dataset_t *w = d->ntypes[t].view;
    const fo_dataset_t *pv = p->ntypes[t].view;
    ok = !strcmp(p->ntypes[t].name, d->ntypes[t].name) && pv->n_nodes == w->n_nodes &&
         pv->row_nodes && (w->book_kind != FO_BOOK_ARRAY || pv->row_rank) &&
         (w->book_kind != FO_BOOK_RANGE || pv->n_rows == w->bounds[k + 1] - w->bounds[k]);
    if (ok) w->parts[k] = (fo_dataset_t *)pv;
  }
  for (int32_t et = 0; ok && et < d->n_etypes; et++) {
    const fo_dataset_t *pv = p->etypes[et].view;
    ok = !strcmp(p->etypes[et].name, d->etypes[et].name) &&
         pv->edge_id_bound == d->etypes[et].view->n_edges && pv->has_topo[FO_EDGE_DIR_IN] &&
         pv->topo[FO_EDGE_DIR_IN].eid &&
         (!pv->has_topo[FO_EDGE_DIR_OUT] || pv->topo[FO_EDGE_DIR_OUT].eid);
  }
  if (!ok)
    return FO_FAIL(FO_EFORMAT, "part %lld ('%s') does not belong to this partitioned dataset "
                   "(node or edge types, nodes, edge ids, rows or rank directories differ)",
                   (long long)k, p->path);
  /* labels-only types (format_version 3): the same types, each with the CSR rows of the part's
   * anchors and global edge ids */
  ok = p->n_ltypes == d->n_ltypes;
  for (int32_t i = 0; ok && i < d->n_ltypes; i++) {
    const struct fo__etype *pe = &p->etypes[p->n_etypes + i], *de = &d->etypes[d->n_etypes + i];
    ok = !strcmp(pe->name, de->name) && pe->label == de->label &&
         pe->view->edge_id_bound == de->view->n_edges && pe->view->has_topo[FO_EDGE_DIR_OUT] &&
         pe->view->topo[FO_EDGE_DIR_OUT].eid;
  }
  if (!ok)
    return FO_FAIL(FO_EFORMAT, "part %lld ('%s') does not belong to this partitioned dataset: its "
                   "labels-only (supervision) edge types or their CSR rows differ (%d in the part, "
                   "%d listed)", (long long)k, p->path, (int)p->n_ltypes, (int)d->n_ltypes);
  for (int32_t t = 0; t < d->n_ntypes; t++) {
    int rc = check_book_count(d->ntypes[t].view, k, p->ntypes[t].view, d->ntypes[t].name);
    if (rc != FO_OK) return rc;
  }
  return FO_OK;
}

/* "topology", "edge_orig" and "edge_ids" of `obj` (the root of a version-1 manifest, or one edge
 * type of a version-2 one): the CSC has csc_rows rows with neighbor ids below csc_nbr, the CSR
 * csr_rows rows with neighbor ids below csr_nbr. */
static int parse_edges(fo_dataset_t *d, json_t *root, fo_load_mode load, int64_t csc_rows,
                       int64_t csc_nbr, int64_t csr_rows, int64_t csr_nbr) {
  json_t *topo;
  int rc = FO_OK;
  topo = json_object_get(root, "topology");
  if (!json_is_object(topo)) {
    rc = FO_FAIL(FO_EFORMAT, "%s: missing 'topology'", FO_MANIFEST);
    return rc;
  }
  if (json_object_get(topo, "csc") &&
      (rc = load_topology(d, json_object_get(topo, "csc"), FO_EDGE_DIR_IN, "csc", load, csc_rows, csc_nbr)) != FO_OK)
    return rc;
  if (json_object_get(topo, "csr") &&
      (rc = load_topology(d, json_object_get(topo, "csr"), FO_EDGE_DIR_OUT, "csr", load, csr_rows, csr_nbr)) != FO_OK)
    return rc;
  if (!d->has_topo[0] && !d->has_topo[1]) {
    rc = FO_FAIL(FO_EFORMAT, "%s: 'topology' has neither 'csc' nor 'csr'", FO_MANIFEST);
    return rc;
  }
  /* The edge-id direction stores no eid array; the other one must. */
  for (int dir = 0; dir < 2; dir++)
    if (d->has_topo[dir] && !d->topo[dir].eid && d->has_topo[!dir] && !d->topo[!dir].eid) {
      rc = FO_FAIL(FO_EFORMAT, "%s: both csc and csr lack an 'eid' array", FO_MANIFEST);
      return rc;
    }
  {
    /* "edge_orig" (optional) names an int32/int64 [m] array; "edge_ids" says which direction's
     * positions are the edge ids */
    json_t *eo = json_object_get(root, "edge_orig"), *ei = json_object_get(root, "edge_ids");
    const fo__array *a = NULL;
    if (eo) a = json_is_string(eo) ? fo__dataset_find(d, json_string_value(eo)) : NULL;
    if (eo && (!a || a->ndim != 1 || a->shape[0] != d->n_edges || !is_int_dtype(a, true))) {
      rc = FO_FAIL(FO_EFORMAT, "%s: 'edge_orig' must name an int32 or int64 [%lld] array",
                   FO_MANIFEST, (long long)d->n_edges);
      return rc;
    }
    d->edge_orig = a;
    if (ei && !(json_is_string(ei) && (!strcmp(json_string_value(ei), "csc") ||
                                       !strcmp(json_string_value(ei), "csr") ||
                                       !strcmp(json_string_value(ei), "global")))) {
      rc = FO_FAIL(FO_EFORMAT, "%s: 'edge_ids' is not \"csc\", \"csr\" or \"global\"", FO_MANIFEST);
      return rc;
    }
  }
  return fo__parse_edge_splits(d, root, false);
}

static int parse_manifest(fo_dataset_t *d, fo_load_mode load, int32_t only) {
  json_error_t jerr;
  json_t *root, *arrays, *fmt, *ver, *jr;
  bool partitioned = false;
  int rc = FO_OK;
  root = json_loads(d->manifest_text, 0, &jerr);
  if (!root)
    return FO_FAIL(FO_EFORMAT, "%s: line %d: %s", FO_MANIFEST, jerr.line, jerr.text);
  if (!json_is_object(root)) {
    rc = FO_FAIL(FO_EFORMAT, "%s: not a JSON object", FO_MANIFEST);
    goto out;
  }
  fmt = json_object_get(root, "format");
  ver = json_object_get(root, "format_version");
  if (json_is_string(fmt) && !strcmp(json_string_value(fmt), FO_PARTITIONED_NAME)) {
    partitioned = true;
  } else if (!json_is_string(fmt) || strcmp(json_string_value(fmt), FO_FORMAT_NAME) != 0) {
    rc = FO_FAIL(FO_EFORMAT, "%s: 'format' is not \"%s\" or \"%s\"", FO_MANIFEST, FO_FORMAT_NAME,
                 FO_PARTITIONED_NAME);
    goto out;
  }
  if (!json_is_integer(ver) || json_integer_value(ver) < FO_FORMAT_VERSION ||
      json_integer_value(ver) > FO_FORMAT_VERSION_LABELS) {
    rc = FO_FAIL(FO_EFORMAT, "%s: unsupported format_version %lld (this fanout reads %d, 2 and 3)",
                 FO_MANIFEST, json_is_integer(ver) ? (long long)json_integer_value(ver) : -1LL,
                 FO_FORMAT_VERSION);
    goto out;
  }
  d->format_version = (int)json_integer_value(ver);
  if ((d->format_version >= FO_FORMAT_VERSION_TYPED) != (json_object_get(root, "node_types") != NULL)) {
    rc = FO_FAIL(FO_EFORMAT, "%s: format_version %d %s 'node_types'", FO_MANIFEST,
                 d->format_version, d->format_version == FO_FORMAT_VERSION ? "has" : "lacks");
    goto out;
  }
  if ((rc = json_int(root, "num_nodes", &d->n_nodes)) != FO_OK ||
      (rc = json_int(root, "num_edges", &d->n_edges)) != FO_OK) {
    rc = fo__context(rc, "%s", FO_MANIFEST);
    goto out;
  }
  if (d->n_nodes == INT64_MAX) {
    rc = FO_FAIL(FO_EFORMAT, "%s: num_nodes too large", FO_MANIFEST);
    goto out;
  }
  d->n_rows = d->n_nodes;
  d->edge_id_bound = d->n_edges;
  if ((jr = json_object_get(root, "num_rows")) &&
      ((rc = json_int(root, "num_rows", &d->n_rows)) != FO_OK ||
       (rc = json_int(root, "edge_id_bound", &d->edge_id_bound)) != FO_OK ||
       d->n_rows > d->n_nodes || d->edge_id_bound < d->n_edges)) {
    rc = FO_FAIL(FO_EFORMAT, "%s: bad 'num_rows' %lld or 'edge_id_bound' %lld for %lld nodes and "
                 "%lld edges", FO_MANIFEST, (long long)d->n_rows, (long long)d->edge_id_bound,
                 (long long)d->n_nodes, (long long)d->n_edges);
    goto out;
  }
  arrays = json_object_get(root, "arrays");
  if (!json_is_array(arrays)) {
    rc = FO_FAIL(FO_EFORMAT, "%s: missing 'arrays' list", FO_MANIFEST);
    goto out;
  }
  d->n_arrays = (int64_t)json_array_size(arrays);
  if (!(d->arrays = calloc((size_t)d->n_arrays + 1, sizeof *d->arrays))) {
    rc = FO_FAIL(FO_ENOMEM, "array table");
    goto out;
  }
  for (int64_t i = 0; i < d->n_arrays; i++) {
    json_t *e = json_array_get(arrays, (size_t)i);
    if (!json_is_object(e)) {
      rc = FO_FAIL(FO_EFORMAT, "%s: arrays[%lld] is not an object", FO_MANIFEST, (long long)i);
      goto out;
    }
    if ((rc = load_array(d, e, i, &d->arrays[i])) != FO_OK) goto out;
    for (int64_t j = 0; j < i; j++)
      if (!strcmp(d->arrays[j].name, d->arrays[i].name)) {
        rc = FO_FAIL(FO_EFORMAT, "%s: array '%s' listed twice", FO_MANIFEST, d->arrays[i].name);
        goto out;
      }
  }
  if (partitioned) {
    if ((rc = parse_partitioned(d, root, load, only)) == FO_OK && !d->typed) rc = one_type(d);
    goto out;
  }
  if (d->format_version >= FO_FORMAT_VERSION_TYPED) {
    rc = jr ? FO_FAIL(FO_EFORMAT, "%s: a typed dataset cannot be one part of a partitioned one",
                      FO_MANIFEST)
            : parse_typed(d, root, load);
    goto out;
  }
  if (jr && (rc = parse_rows(d, root)) != FO_OK) goto out;
  if ((rc = parse_edges(d, root, load, d->n_rows, d->n_nodes, d->n_rows, d->n_nodes)) != FO_OK) goto out;
  if ((rc = parse_node_orig(d, root)) != FO_OK) goto out;
  if ((rc = parse_node_data(d, root, load)) != FO_OK) goto out;
  rc = one_type(d);
out:
  json_decref(root);
  return rc;
}

int fo_dataset_open(const char *path, const fo_dataset_opts *o, fo_dataset_t **out) {
  fo_dataset_opts defaults;
  fo_dataset_t *d;
  int rc;
  if (out) *out = NULL;
  if (!out) return FO_FAIL(FO_EINVAL, "out is NULL");
  if (!path) return FO_FAIL(FO_EINVAL, "path is NULL");
  if (!o) {
    fo_dataset_opts_init(&defaults);
    o = &defaults;
  }
  if (o->load != FO_LOAD_MMAP && o->load != FO_LOAD_HUGEPAGE)
    return FO_FAIL(FO_EINVAL, "open dataset '%s': unknown load mode %d", path, (int)o->load);
  if (!(d = calloc(1, sizeof *d))) return FO_FAIL(FO_ENOMEM, "dataset handle");
  if (!(d->path = fo__strdup(path))) {
    rc = FO_FAIL(FO_ENOMEM, "dataset path");
    goto fail;
  }
  if ((rc = read_manifest(path, &d->manifest_text)) != FO_OK) goto fail;
  if ((rc = parse_manifest(d, o->load, o->part < 0 ? -1 : o->part)) != FO_OK) goto fail;
  *out = d;
  return FO_OK;
fail:
  fo_dataset_close(d);
  return fo__context(rc, "open dataset '%s'", path);
}

void fo_dataset_close(fo_dataset_t *d) {
  if (!d || d->is_view) return;
  for (int32_t t = 0; d->ntypes && t < d->n_ntypes; t++) {
    if (d->ntypes[t].view && d->ntypes[t].view != d) close_view(d->ntypes[t].view);
    free(d->ntypes[t].name);
  }
  for (int32_t t = 0; d->etypes && t < d->n_etypes + d->n_ltypes; t++) {
    if (d->etypes[t].view && d->etypes[t].view != d) close_view(d->etypes[t].view);
    free(d->etypes[t].name);
    free(d->etypes[t].src);
    free(d->etypes[t].rel);
    free(d->etypes[t].dst);
  }
  free(d->ntypes);
  free(d->etypes);
  for (int64_t i = 0; d->arrays && i < d->n_arrays; i++) {
    fo__unmap(&d->arrays[i].map);
    free(d->arrays[i].name);
    free(d->arrays[i].file);
    free(d->arrays[i].dtype);
  }
  free(d->arrays);
  for (int i = 0; d->parts && i < d->n_parts; i++) fo_dataset_close(d->parts[i]);
  free(d->parts);
  free(d->bounds);
  free(d->book_row);
  free(d->book_count);
  for (int64_t i = 0; i < d->n_splits; i++) free(d->splits[i].name);
  free(d->splits);
  fo__free_edge_splits(d);
  free(d->manifest_text);
  free(d->path);
  free(d);
}

int64_t fo_dataset_num_nodes(const fo_dataset_t *d) { return d->n_nodes; }
int64_t fo_dataset_num_edges(const fo_dataset_t *d) { return d->n_edges; }
const char *fo_dataset_path(const fo_dataset_t *d) { return d->path; }
const char *fo_dataset_manifest(const fo_dataset_t *d) { return d->manifest_text; }

bool fo_dataset_has_topology(const fo_dataset_t *d, fo_edge_dir dir) {
  if (dir != FO_EDGE_DIR_IN && dir != FO_EDGE_DIR_OUT) return false;
  if (!d->typed) return d->has_topo[dir];
  if (d->n_parts) return fo_dataset_has_topology(fo__first_part(d), dir);
  for (int32_t t = 0; t < d->n_etypes; t++)
    if (!d->etypes[t].view->has_topo[dir]) return false;
  return true;
}

int fo_dataset_num_parts(const fo_dataset_t *d) { return d->n_parts; }
int64_t fo_dataset_num_rows(const fo_dataset_t *d) { return d->n_rows; }

const fo_dataset_t *fo_dataset_part(const fo_dataset_t *d, int k) {
  return k >= 0 && k < d->n_parts ? d->parts[k] : NULL;
}

const char *fo_dataset_partition_method(const fo_dataset_t *d) { return d->method; }

int fo__locate(const fo_dataset_t *d, int64_t v, int *part, int64_t *row) {
  const fo_dataset_t *p;
  int64_t r;
  int k;
  if (d->typed)
    return FO_FAIL(FO_EINVAL, "dataset '%s' is typed: a node's part is per node type (the node "
                   "type's fo_dataset_node_data)", d->path);
  if (v < 0 || v >= d->n_nodes)
    return FO_FAIL(FO_ERANGE, "node %lld not in [0, %lld)", (long long)v, (long long)d->n_nodes);
  k = fo__owner(d, v);
  if (FO_UNLIKELY(k < 0 || k >= d->n_parts))
    return FO_FAIL(FO_EFORMAT, "book entry of node %lld is %d, not a part in [0, %d)", (long long)v,
                   k, d->n_parts);
  if (FO_UNLIKELY(!(p = d->parts[k])))
    return FO_FAIL(FO_EINVAL, "node %lld belongs to part %d, which is not open here", (long long)v, k);
  r = fo__owner_row(d, k, v);
  if (FO_UNLIKELY(r < 0 || r >= p->n_rows))
    return FO_FAIL(FO_EFORMAT, "part %d: node %lld maps to row %lld of %lld (%s[%lld] of '%s')", k,
                   (long long)v, (long long)r, (long long)p->n_rows,
                   d->book_kind == FO_BOOK_RANGE ? "bounds" : "row_rank",
                   (long long)(d->book_kind == FO_BOOK_RANGE ? k : v / FO_RANK_BLOCK), p->path);
  *part = k;
  *row = r;
  return FO_OK;
}

int fo_dataset_node_part(const fo_dataset_t *d, fo_nid_t v, int *part, int64_t *row) {
  if (!d->n_parts) return FO_FAIL(FO_EINVAL, "dataset '%s' is not partitioned", d->path);
  return fo__locate(d, v, part, row);
}

int fo_dataset_topology(const fo_dataset_t *d, fo_edge_dir dir, fo_topology *out) {
  if (dir != FO_EDGE_DIR_IN && dir != FO_EDGE_DIR_OUT)
    return FO_FAIL(FO_EINVAL, "unknown edge direction %d", (int)dir);
  if (d->n_parts)
    return FO_FAIL(FO_EINVAL, "dataset '%s' is partitioned (%d parts): its topology is in its "
                   "parts (fo_dataset_part)", d->path, d->n_parts);
  if (d->typed)
    return FO_FAIL(FO_EINVAL, "dataset '%s' is typed (%d edge types): its topology is per edge "
                   "type (fo_dataset_edge_topology)", d->path, (int)d->n_etypes);
  if (!d->has_topo[dir])
    return FO_FAIL(FO_EINVAL, "dataset '%s' has no %s (in-neighbors need a CSC: import with "
                   "--csc; out-neighbors need a CSR: import with --csr)",
                   d->path, dir == FO_EDGE_DIR_IN ? "CSC" : "CSR");
  *out = d->topo[dir];
  return FO_OK;
}

int64_t fo_dataset_num_arrays(const fo_dataset_t *d) { return d->n_arrays; }

static void fill_info(const fo__array *a, fo_array_info *out) {
  out->name = a->name;
  out->file = a->file;
  out->dtype = a->dtype;
  out->ndim = a->ndim;
  out->shape[0] = a->shape[0];
  out->shape[1] = a->ndim > 1 ? a->shape[1] : 0;
  out->itemsize = a->itemsize;
  out->nbytes = a->nbytes;
  out->xxh64 = a->xxh64;
  out->data = a->data;
}

int fo_dataset_array_at(const fo_dataset_t *d, int64_t i, fo_array_info *out) {
  if (i < 0 || i >= d->n_arrays)
    return FO_FAIL(FO_ERANGE, "array index %lld not in [0, %lld)", (long long)i,
                   (long long)d->n_arrays);
  fill_info(&d->arrays[i], out);
  return FO_OK;
}

int fo_dataset_array(const fo_dataset_t *d, const char *name, fo_array_info *out) {
  const fo__array *a = name ? fo__dataset_find(d, name) : NULL;
  if (!a) return FO_FAIL(FO_EINVAL, "dataset '%s' has no array '%s'", d->path, name ? name : "(null)");
  fill_info(a, out);
  return FO_OK;
}

fo_orig_kind fo_dataset_node_orig_kind(const fo_dataset_t *d) { return d->orig_kind; }

int fo_dataset_node_orig_int(const fo_dataset_t *d, fo_nid_t v, int64_t *out) {
  if (v < 0 || v >= d->n_nodes)
    return FO_FAIL(FO_ERANGE, "node %lld not in [0, %lld)", (long long)v, (long long)d->n_nodes);
  if (d->orig_kind == FO_ORIG_STRING)
    return FO_FAIL(FO_EINVAL, "original node ids of '%s' are strings", d->path);
  *out = d->orig_kind == FO_ORIG_INT64 ? ((const int64_t *)d->node_orig->data)[v] : v;
  return FO_OK;
}

int fo_dataset_node_orig_str(const fo_dataset_t *d, fo_nid_t v, const char **s, size_t *len) {
  const char *p;
  size_t w, n = 0;
  if (v < 0 || v >= d->n_nodes)
    return FO_FAIL(FO_ERANGE, "node %lld not in [0, %lld)", (long long)v, (long long)d->n_nodes);
  if (d->orig_kind != FO_ORIG_STRING)
    return FO_FAIL(FO_EINVAL, "original node ids of '%s' are not strings", d->path);
  if (d->node_orig_off) {
    const int64_t *o = d->node_orig_off->data;
    if (o[v] < 0 || o[v + 1] < o[v] || o[v + 1] > d->node_orig->shape[0])
      return FO_FAIL(FO_EFORMAT, "%s[%lld..%lld] = %lld, %lld is not a range of the %lld id bytes",
                     d->node_orig_off->name, (long long)v, (long long)(v + 1), (long long)o[v],
                     (long long)o[v + 1], (long long)d->node_orig->shape[0]);
    *s = (const char *)d->node_orig->data + o[v];
    *len = (size_t)(o[v + 1] - o[v]);
    return FO_OK;
  }
  w = (size_t)d->node_orig->itemsize;
  p = (const char *)d->node_orig->data + (size_t)v * w;
  while (n < w && p[n]) n++;
  *s = p;
  *len = n;
  return FO_OK;
}

static int degree_stats(const fo_topology *tp, fo_degree_stats *out);

int fo_dataset_degree_stats(const fo_dataset_t *d, fo_edge_dir dir, fo_degree_stats *out) {
  fo_topology t;
  int rc = fo_dataset_topology(d, dir, &t);
  memset(out, 0, sizeof *out);
  if (rc != FO_OK) return rc;
  return degree_stats(&t, out);
}

int fo_dataset_edge_degree_stats(const fo_dataset_t *d, int32_t et, fo_edge_dir dir,
                                 fo_degree_stats *out) {
  fo_topology t;
  int rc = fo_dataset_edge_topology(d, et, dir, &t);
  memset(out, 0, sizeof *out);
  if (rc != FO_OK) return rc;
  return degree_stats(&t, out);
}

static int degree_stats(const fo_topology *tp, fo_degree_stats *out) {
  const fo_topology t = *tp;
  out->min = t.n_rows ? INT64_MAX : 0;
  for (int64_t v = 0; v < t.n_rows; v++) {
    int64_t deg = t.indptr[v + 1] - t.indptr[v];
    if (deg < 0)
      return FO_FAIL(FO_EFORMAT, "%s: indptr decreases at position %lld (%lld > %lld)",
                     t.indptr_name, (long long)v, (long long)t.indptr[v], (long long)t.indptr[v + 1]);
    if (deg < out->min) out->min = deg;
    if (v == 0 || deg > out->max) {
      out->max = deg;
      out->argmax = v;
    }
    if (!deg) out->n_zero++;
  }
  out->mean = t.n_rows ? (double)t.n_edges / (double)t.n_rows : 0.0;
  return FO_OK;
}

bool fo_dataset_has_features(const fo_dataset_t *d) {
  return d->n_parts ? fo__first_part(d)->x != NULL : d->x != NULL;
}

int fo_dataset_features(const fo_dataset_t *d, fo_features *out) {
  memset(out, 0, sizeof *out);
  if (d->n_parts)
    return FO_FAIL(FO_EINVAL, "dataset '%s' is partitioned: its features are in its parts", d->path);
  if (d->typed)
    return FO_FAIL(FO_EINVAL, "dataset '%s' is typed: its node features are per node type (fo_dataset_node_data)", d->path);
  if (!d->x)
    return FO_FAIL(FO_EINVAL, "dataset '%s' has no node features (import with --features, or "
                   "planetoid content)", d->path);
  out->data = d->x->data;
  out->n_rows = d->x->shape[0];
  out->dim = d->x->shape[1];
  out->itemsize = d->x->itemsize;
  out->dtype = d->x_dtype;
  out->scale = d->x_scale ? d->x_scale->data : NULL;
  out->offset = d->x_offset ? d->x_offset->data : NULL;
  return FO_OK;
}

int fo_dataset_node_time(const fo_dataset_t *d, const int64_t **t, int64_t *n) {
  if (!d || !t || !n) return FO_FAIL(FO_EINVAL, "node time: NULL argument");
  *t = NULL;
  *n = 0;
  if (d->typed)
    return FO_FAIL(FO_EINVAL, "dataset '%s' is typed: its node times are per node type "
                   "(fo_dataset_node_data)", d->path);
  if (!d->node_time)
    return FO_FAIL(FO_EINVAL, "dataset '%s' has no node times (import with --node-time)", d->path);
  *t = d->node_time->data;
  *n = d->node_time->shape[0];
  return FO_OK;
}

bool fo_dataset_has_labels(const fo_dataset_t *d) {
  return d->n_parts ? fo__first_part(d)->y != NULL : d->y != NULL;
}

int fo_dataset_labels(const fo_dataset_t *d, const int64_t **y, int64_t *n, int64_t *num_classes) {
  if (d->n_parts)
    return FO_FAIL(FO_EINVAL, "dataset '%s' is partitioned: its labels are in its parts", d->path);
  if (d->typed)
    return FO_FAIL(FO_EINVAL, "dataset '%s' is typed: its node labels are per node type (fo_dataset_node_data)", d->path);
  if (!d->y)
    return FO_FAIL(FO_EINVAL, "dataset '%s' has no node labels (import with --labels, or "
                   "planetoid content)", d->path);
  *y = d->y->data;
  *n = d->y->shape[0];
  if (num_classes) *num_classes = d->num_classes;
  return FO_OK;
}

int64_t fo_dataset_num_splits(const fo_dataset_t *d) { return d->n_splits; }

const char *fo_dataset_split_name(const fo_dataset_t *d, int64_t i) {
  return i >= 0 && i < d->n_splits ? d->splits[i].name : NULL;
}

int fo_dataset_split(const fo_dataset_t *d, const char *name, const int64_t **ids, int64_t *n) {
  char have[256];
  size_t len = 0;
  for (int64_t i = 0; i < d->n_splits; i++)
    if (name && !strcmp(d->splits[i].name, name)) {
      *ids = d->splits[i].ids->data;
      *n = d->splits[i].ids->shape[0];
      return FO_OK;
    }
  have[0] = '\0';
  for (int64_t i = 0; i < d->n_splits && len < sizeof have; i++)
    len += (size_t)snprintf(have + len, sizeof have - len, "%s%s", i ? ", " : "", d->splits[i].name);
  return FO_FAIL(FO_EINVAL, "dataset '%s' has no split '%s' (%s%s)", d->path, name ? name : "(null)",
                 d->n_splits ? "it has: " : "it has none", have);
}

bool fo_dataset_is_typed(const fo_dataset_t *d) { return d->typed; }
int32_t fo_dataset_num_node_types(const fo_dataset_t *d) { return d->n_ntypes; }
int32_t fo_dataset_num_edge_types(const fo_dataset_t *d) { return d->n_etypes; }

const char *fo_dataset_node_type_name(const fo_dataset_t *d, int32_t t) {
  return t >= 0 && t < d->n_ntypes ? d->ntypes[t].name : NULL;
}

int32_t fo_dataset_node_type_find(const fo_dataset_t *d, const char *name) {
  for (int32_t t = 0; name && t < d->n_ntypes; t++)
    if (d->ntypes[t].name && !strcmp(d->ntypes[t].name, name)) return t;
  return -1;
}

int fo_dataset_edge_type(const fo_dataset_t *d, int32_t et, fo_edge_type *out) {
  const struct fo__etype *e;
  if (et < 0 || et >= d->n_etypes)
    return FO_FAIL(FO_ERANGE, "edge type %d not in [0, %d)", (int)et, (int)d->n_etypes);
  e = &d->etypes[et];
  out->name = e->name;
  out->src = e->src;
  out->rel = e->rel;
  out->dst = e->dst;
  out->src_type = e->src_t;
  out->dst_type = e->dst_t;
  out->n_edges = e->view->n_edges;
  out->label = 0;
  return FO_OK;
}

int32_t fo_dataset_edge_type_find(const fo_dataset_t *d, const char *name) {
  int32_t found = -1;
  if (!name) return -1;
  for (int32_t t = 0; t < d->n_etypes; t++)
    if (d->etypes[t].name && !strcmp(d->etypes[t].name, name)) return t;
  for (int32_t t = 0; t < d->n_etypes; t++)
    if (d->etypes[t].rel && !strcmp(d->etypes[t].rel, name)) {
      if (found >= 0) return -2;
      found = t;
    }
  return found;
}

int fo_dataset_edge_topology(const fo_dataset_t *d, int32_t et, fo_edge_dir dir, fo_topology *out) {
  const fo_dataset_t *v;
  if (et < 0 || et >= d->n_etypes)
    return FO_FAIL(FO_ERANGE, "edge type %d not in [0, %d)", (int)et, (int)d->n_etypes);
  v = d->etypes[et].view;
  if (v == d) return fo_dataset_topology(d, dir, out);
  if (dir != FO_EDGE_DIR_IN && dir != FO_EDGE_DIR_OUT)
    return FO_FAIL(FO_EINVAL, "unknown edge direction %d", (int)dir);
  if (!v->has_topo[dir])
    return FO_FAIL(FO_EINVAL, "dataset '%s': edge type '%s' has no %s (in-neighbors need a CSC: "
                   "import with --csc; out-neighbors need a CSR: import with --csr)", d->path,
                   d->etypes[et].name, dir == FO_EDGE_DIR_IN ? "CSC" : "CSR");
  *out = v->topo[dir];
  return FO_OK;
}

int32_t fo_dataset_num_label_edge_types(const fo_dataset_t *d) { return d->n_ltypes; }

int fo_dataset_label_edge_type(const fo_dataset_t *d, int32_t i, fo_edge_type *out) {
  const struct fo__etype *e;
  if (i < 0 || i >= d->n_ltypes)
    return FO_FAIL(FO_ERANGE, "labels-only edge type %d not in [0, %d)", (int)i, (int)d->n_ltypes);
  e = &d->etypes[d->n_etypes + i];
  out->name = e->name;
  out->src = e->src;
  out->rel = e->rel;
  out->dst = e->dst;
  out->src_type = e->src_t;
  out->dst_type = e->dst_t;
  out->n_edges = e->view->n_edges;
  out->label = e->label;
  return FO_OK;
}

int32_t fo_dataset_label_edge_type_find(const fo_dataset_t *d, const char *name) {
  int32_t found = -1;
  if (!name) return -1;
  for (int32_t i = 0; i < d->n_ltypes; i++)
    if (!strcmp(d->etypes[d->n_etypes + i].name, name)) return i;
  for (int32_t i = 0; i < d->n_ltypes; i++)
    if (!strcmp(d->etypes[d->n_etypes + i].rel, name)) {
      if (found >= 0) return -2;
      found = i;
    }
  return found;
}

int fo_dataset_label_edge_topology(const fo_dataset_t *d, int32_t i, fo_edge_dir dir,
                                   fo_topology *out) {
  const fo_dataset_t *v;
  if (i < 0 || i >= d->n_ltypes)
    return FO_FAIL(FO_ERANGE, "labels-only edge type %d not in [0, %d)", (int)i, (int)d->n_ltypes);
  if (dir != FO_EDGE_DIR_IN && dir != FO_EDGE_DIR_OUT)
    return FO_FAIL(FO_EINVAL, "unknown edge direction %d", (int)dir);
  v = d->etypes[d->n_etypes + i].view;
  if (d->n_parts)
    return FO_FAIL(FO_EINVAL, "dataset '%s' is partitioned: the rows of labels-only edge type '%s' "
                   "are in its parts (fo_dataset_part)", d->path, d->etypes[d->n_etypes + i].name);
  if (!v->has_topo[dir])
    return FO_FAIL(FO_EINVAL, "dataset '%s': labels-only edge type '%s' has no %s", d->path,
                   d->etypes[d->n_etypes + i].name, dir == FO_EDGE_DIR_IN ? "CSC" : "CSR");
  *out = v->topo[dir];
  return FO_OK;
}

const fo_dataset_t *fo_dataset_node_data(const fo_dataset_t *d, int32_t t) {
  return t >= 0 && t < d->n_ntypes ? d->ntypes[t].view : NULL;
}
