/*
 * io/ogb.c: an Open Graph Benchmark dataset directory, as OGB's download unpacks it (e.g.
 * dataset/ogbn_arxiv), read without OGB, pandas or torch.
 *
 * The layout follows OGB's own reader, snap-stanford/ogb: ogb/io/read_graph_raw.py
 * (read_csv_graph_raw, read_csv_heterograph_raw, read_binary_graph_raw), ogb/io/README.md, and
 * ogb/nodeproppred/dataset.py / ogb/linkproppred/dataset.py (get_idx_split, get_edge_split)
 * with their master.csv files. Every file is a headerless CSV, gzip-compressed:
 *
 *   raw/edge.csv.gz           "src,dst" per line: the edges, as stored (one direction for the
 *                             datasets OGB marks add_inverse_edge; see --undirected)
 *   raw/num-node-list.csv.gz  one line per graph with its node count (node and link
 *   raw/num-edge-list.csv.gz  prediction datasets hold exactly one graph)
 *   raw/node-feat.csv.gz      optional, D comma-separated numbers per node -> "x"
 *   raw/node-label.csv.gz     optional, one label per node (empty or "nan" = none) -> "y"
 *   raw/node_<name>.csv.gz    optional, one integer per node (OGB's "additional node files":
 *                             node_year, node_species) -> node-data array "node_<name>"
 *   split/<scheme>/{train,valid,test}.csv.gz  node ids -> splits "train", "val", "test"
 *                             (OGB's "valid" is stored under fanout's name "val"; a file
 *                             called val.csv.gz is read the same way)
 *
 * The heterogeneous layout (ogbn-mag; read_csv_heterograph_raw, read_node_label_hetero and
 * read_nodesplitidx_split_hetero in OGB's read_graph_raw.py) becomes a typed dataset through
 * typed.c's writer (fo__import_ogb_typed, below):
 *
 *   raw/num-node-dict.csv.gz  a header line of node types, then their counts (one graph)
 *   raw/triplet-type-list.csv.gz  "head,relation,tail" lines (else: raw/relations/'s names)
 *   raw/relations/<h>___<r>___<t>/edge.csv.gz, num-edge-list.csv.gz
 *   raw/node-feat/<type>/node-feat.csv.gz, raw/node-label/<type>/node-label.csv.gz
 *   split/<scheme>/<type>/{train,valid,test}.csv.gz
 *
 * The binary layouts are refused with FO_ENOSYS and a message saying what to do:
 * ogbn-papers100M's raw/data.npz (the Python importer converts it) and raw/edge_index_dict.npz. Link prediction splits (split/<scheme>/{train,valid,test}.pt) are torch pickles:
 * they are skipped here with a warning (the Python importer reads them when torch is there).
 *
 * Errors name the file and line. Memory: the edge list (16 bytes per edge) plus the features
 * staged as float32, then what the builder needs.
 */
#include "io/io_internal.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <sys/stat.h>

#define OGB_PATH 4096

static bool exists(const char *path) {
  struct stat st;
  return stat(path, &st) == 0;
}

static bool is_dir(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* path = dir + "/" + rel; FO_EINVAL if it does not fit. */
static int join(char *path, const char *dir, const char *rel) {
  int k = snprintf(path, OGB_PATH, "%s/%s", dir, rel);
  if (k < 0 || k >= OGB_PATH) return FO_FAIL(FO_EINVAL, "path '%s/%s' is too long", dir, rel);
  return FO_OK;
}

/* Shared state of one OGB import: the files' total size, for one progress bar over all. */
typedef struct ogb_ctx {
  const fo_import_opts *o;
  fo__progress prog;
  uint64_t done; /* bytes of the files read so far */
  const char *count_of; /* where the node count came from, for messages ("num-node-list.csv.gz") */
} ogb_ctx;

static int open_file(ogb_ctx *c, fo__reader *r, const char *path) {
  int rc = fo__reader_open(r, path);
  if (rc != FO_OK) return rc;
  r->progress = &c->prog;
  r->progress_base = &c->done;
  r->cancel = c->o->cancel;
  return FO_OK;
}

static void close_file(ogb_ctx *c, fo__reader *r) {
  c->done += r->file_bytes;
  fo__reader_close(r);
}

/* The number of comma-separated fields of a line. */
static int64_t count_fields(const char *line, size_t len) {
  int64_t k = 1;
  for (size_t i = 0; i < len; i++) k += line[i] == ',';
  return k;
}

static void trim(const char **s, size_t *len) {
  while (*len && (**s == ' ' || **s == '\t')) (*s)++, (*len)--;
  while (*len && ((*s)[*len - 1] == ' ' || (*s)[*len - 1] == '\t')) (*len)--;
}

static int bad_int(const fo__reader *r, const char *what, const char *s, size_t len) {
  return FO_FAIL(FO_EFORMAT, "%s:%lld: %s '%.*s' is not an integer", r->path, (long long)r->lineno,
                 what, (int)(len > 40 ? 40 : len), s);
}

/* A file of one non-negative integer per line (num-node-list, num-edge-list): the single line
 * of a one-graph dataset. */
static int read_count(ogb_ctx *c, const char *path, const char *what, int64_t *out) {
  fo__reader r;
  char *line;
  size_t len;
  int64_t lines = 0;
  int k, rc;
  if ((rc = open_file(c, &r, path)) != FO_OK) return rc;
  while ((k = fo__reader_next(&r, &line, &len)) == 1) {
    const char *s = line;
    size_t n = len;
    trim(&s, &n);
    if (n == 0) continue;
    if (++lines > 1) {
      rc = FO_FAIL(FO_EINVAL, "%s:%lld: more than one graph (a graph property prediction dataset); "
                   "fanout imports node and link prediction datasets, which hold one graph",
                   path, (long long)r.lineno);
      break;
    }
    if (!fo__parse_i64(s, n, out)) {
      rc = bad_int(&r, what, s, n);
      break;
    }
    if (*out < 0) {
      rc = FO_FAIL(FO_EFORMAT, "%s:%lld: %s %lld is negative", path, (long long)r.lineno, what,
                   (long long)*out);
      break;
    }
  }
  if (k < 0 && rc == FO_OK) rc = k;
  if (rc == FO_OK && lines == 0) rc = FO_FAIL(FO_EFORMAT, "%s: empty, expected the %s", path, what);
  close_file(c, &r);
  return rc;
}

/* raw/edge.csv.gz: "src,dst" lines, ids in [0, n_src) x [0, n_dst) (the counts of s_of, d_of). */
static int read_edges(ogb_ctx *c, const char *path, int64_t n_src, int64_t n_dst, const char *s_of,
                      const char *d_of, int64_t m, fo__edges *e) {
  fo__reader r;
  char *line;
  size_t len;
  int k, rc;
  uint64_t fb = fo__file_bytes(path);
  /* num-edge-list's count reserves the arrays only as far as the file could hold it (at most
   * 64 times its size in "s,d\n" lines of 4 bytes): a count that a small file contradicts
   * allocates nothing big, and fails below with both numbers; beyond that, the arrays grow */
  if ((rc = fo__edges_reserve(e, fb && (uint64_t)m / 16 > fb ? (int64_t)(fb * 16) : m)) != FO_OK)
    return rc;
  if ((rc = open_file(c, &r, path)) != FO_OK) return rc;
  while ((k = fo__reader_next(&r, &line, &len)) == 1) {
    const char *comma = memchr(line, ',', len), *a = line, *b;
    size_t alen, blen;
    int64_t s, d;
    if (len == 0) continue;
    if (!comma || memchr(comma + 1, ',', len - (size_t)(comma + 1 - line))) {
      rc = FO_FAIL(FO_EFORMAT, "%s:%lld: expected 'src,dst', got '%.*s'", path,
                   (long long)r.lineno, (int)(len > 60 ? 60 : len), line);
      break;
    }
    alen = (size_t)(comma - line);
    b = comma + 1;
    blen = len - alen - 1;
    trim(&a, &alen);
    trim(&b, &blen);
    if (!fo__parse_i64(a, alen, &s)) {
      rc = bad_int(&r, "node id", a, alen);
      break;
    }
    if (!fo__parse_i64(b, blen, &d)) {
      rc = bad_int(&r, "node id", b, blen);
      break;
    }
    if (s < 0 || d < 0 || s >= n_src || d >= n_dst) {
      bool bad_s = s < 0 || s >= n_src;
      rc = FO_FAIL(FO_ERANGE, "%s:%lld: node id %lld is not in [0, %lld) (%s)", path,
                   (long long)r.lineno, (long long)(bad_s ? s : d),
                   (long long)(bad_s ? n_src : n_dst), bad_s ? s_of : d_of);
      break;
    }
    if (e->n == m) {
      rc = FO_FAIL(FO_EFORMAT, "%s:%lld: more edges than the %lld of num-edge-list.csv.gz", path,
                   (long long)r.lineno, (long long)m);
      break;
    }
    if ((rc = fo__edges_push(e, s, d)) != FO_OK) break;
  }
  if (k < 0 && rc == FO_OK) rc = k;
  if (rc == FO_OK && e->n != m)
    rc = FO_FAIL(FO_EFORMAT, "%s: %lld edges, but num-edge-list.csv.gz says %lld", path,
                 (long long)e->n, (long long)m);
  close_file(c, &r);
  return rc;
}

/* raw/node-feat.csv.gz: n lines of D numbers. */
static int read_features(ogb_ctx *c, const char *path, int64_t n, fo__node_data *nd) {
  fo__reader r;
  char *line;
  size_t len;
  int64_t rows = 0, dim = -1;
  int k, rc;
  if ((rc = open_file(c, &r, path)) != FO_OK) return rc;
  while ((k = fo__reader_next(&r, &line, &len)) == 1) {
    char *p = line, *end = line + len;
    if (len == 0) continue;
    if (dim < 0) {
      dim = count_fields(line, len);
      if (!(nd->x = fo__malloc_n(n * dim, sizeof *nd->x))) {
        rc = FO_FAIL(FO_ENOMEM, "%s: features [%lld, %lld]", path, (long long)n, (long long)dim);
        break;
      }
      nd->x_dim = dim;
    } else if (count_fields(line, len) != dim) {
      rc = FO_FAIL(FO_EFORMAT, "%s:%lld: %lld values, but line 1 has %lld", path,
                   (long long)r.lineno, (long long)count_fields(line, len), (long long)dim);
      break;
    }
    if (rows == n) {
      rc = FO_FAIL(FO_EFORMAT, "%s:%lld: more rows than the %lld nodes of %s", path,
                   (long long)r.lineno, (long long)n, c->count_of);
      break;
    }
    for (int64_t j = 0; j < dim; j++) {
      char *comma = memchr(p, ',', (size_t)(end - p)), *stop;
      size_t tlen = comma ? (size_t)(comma - p) : (size_t)(end - p);
      p[tlen] = '\0';
      nd->x[rows * dim + j] = strtof(p, &stop);
      while (*stop == ' ' || *stop == '\t') stop++;
      if (stop != p + tlen || tlen == 0) {
        rc = FO_FAIL(FO_EFORMAT, "%s:%lld: value %lld is '%.*s', not a number", path,
                     (long long)r.lineno, (long long)j, (int)(tlen > 40 ? 40 : tlen), p);
        break;
      }
      p += tlen + 1;
    }
    if (rc != FO_OK) break;
    rows++;
  }
  if (k < 0 && rc == FO_OK) rc = k;
  if (rc == FO_OK && rows != n)
    rc = FO_FAIL(FO_EFORMAT, "%s: %lld rows, but the graph has %lld nodes (%s)", path,
                 (long long)rows, (long long)n, c->count_of);
  if (rc == FO_OK) {
    nd->x_rows = n;
    nd->x_src = FO_FEATURES_FLOAT32;
  }
  close_file(c, &r);
  return rc;
}

/* A per-node column: n lines of one value. Labels accept "nan" or an empty line (no label,
 * -1) and integral floats ("3.0", as pandas writes a column that held NaN). */
static int read_column(ogb_ctx *c, const char *path, int64_t n, bool label, int64_t **out) {
  fo__reader r;
  char *line;
  size_t len;
  int64_t rows = 0, *v;
  int k, rc;
  if (!(v = fo__malloc_n(n, sizeof *v))) return FO_FAIL(FO_ENOMEM, "%s: [%lld]", path, (long long)n);
  if ((rc = open_file(c, &r, path)) != FO_OK) {
    free(v);
    return rc;
  }
  while ((k = fo__reader_next(&r, &line, &len)) == 1) {
    const char *s = line;
    size_t sl = len;
    int64_t x;
    trim(&s, &sl);
    if (rows == n) {
      if (sl == 0) continue; /* a final empty line */
      rc = FO_FAIL(FO_EFORMAT, "%s:%lld: more lines than the %lld nodes of %s", path,
                   (long long)r.lineno, (long long)n, c->count_of);
      break;
    }
    if (memchr(s, ',', sl)) {
      rc = FO_FAIL(FO_EINVAL, "%s:%lld: %lld columns: fanout stores one %s per node (multi-task "
                   "labels such as ogbn-proteins' are not supported)", path, (long long)r.lineno,
                   (long long)count_fields(s, sl), label ? "label" : "value");
      break;
    }
    if (fo__parse_i64(s, sl, &x)) {
      if (label && x < 0) {
        rc = FO_FAIL(FO_ERANGE, "%s:%lld: label %lld is negative", path, (long long)r.lineno,
                     (long long)x);
        break;
      }
    } else if (label && (sl == 0 || (sl == 3 && !strncasecmp(s, "nan", 3)))) {
      x = -1;
    } else {
      char *stop = NULL;
      double f = label && sl ? strtod(s, &stop) : NAN;
      if (!label || stop != s + sl || f != floor(f) || f < 0 || f > 9.0e15) {
        rc = bad_int(&r, label ? "label" : "value", s, sl);
        break;
      }
      x = (int64_t)f;
    }
    v[rows++] = x;
  }
  if (k < 0 && rc == FO_OK) rc = k;
  if (rc == FO_OK && rows != n)
    rc = FO_FAIL(FO_EFORMAT, "%s: %lld lines, but the graph has %lld nodes (%s)", path,
                 (long long)rows, (long long)n, c->count_of);
  close_file(c, &r);
  if (rc != FO_OK) free(v);
  else *out = v;
  return rc;
}

/* split/<scheme>/<name>.csv.gz: node ids, one per line. */
static int read_split(ogb_ctx *c, const char *path, int64_t n, int64_t **out, int64_t *count) {
  fo__reader r;
  char *line;
  size_t len;
  int64_t k_ids = 0, cap = 0, *ids = NULL;
  int k, rc;
  if ((rc = open_file(c, &r, path)) != FO_OK) return rc;
  while ((k = fo__reader_next(&r, &line, &len)) == 1) {
    const char *s = line;
    size_t sl = len;
    int64_t v;
    trim(&s, &sl);
    if (sl == 0) continue;
    if (!fo__parse_i64(s, sl, &v)) {
      rc = bad_int(&r, "node id", s, sl);
      break;
    }
    if (v < 0 || v >= n) {
      rc = FO_FAIL(FO_ERANGE, "%s:%lld: node id %lld is not in [0, %lld) (%s)", path,
                   (long long)r.lineno, (long long)v, (long long)n, c->count_of);
      break;
    }
    if ((rc = fo__grow(&ids, &cap, k_ids + 1, sizeof *ids, "split")) != FO_OK) break;
    ids[k_ids++] = v;
  }
  if (k < 0 && rc == FO_OK) rc = k;
  close_file(c, &r);
  if (rc != FO_OK) {
    free(ids);
    return rc;
  }
  *out = ids;
  *count = k_ids;
  return FO_OK;
}

/* The split directory: none, or exactly one scheme (OGB ships one per dataset). */
static int find_scheme(const char *dir, char *scheme, size_t cap, bool *found) {
  char path[OGB_PATH];
  DIR *d;
  struct dirent *ent;
  int rc, n = 0;
  *found = false;
  if ((rc = join(path, dir, "split")) != FO_OK) return rc;
  if (!is_dir(path)) return FO_OK;
  if (!(d = opendir(path))) return FO_FAIL_ERRNO("open '%s'", path);
  while ((ent = readdir(d))) {
    char sub[OGB_PATH];
    if (ent->d_name[0] == '.') continue;
    if (snprintf(sub, sizeof sub, "%s/%s", path, ent->d_name) >= (int)sizeof sub || !is_dir(sub)) continue;
    if (n++ == 0) {
      snprintf(scheme, cap, "%s", ent->d_name);
    } else {
      rc = FO_FAIL(FO_EINVAL, "'%s' holds more than one split scheme ('%s', '%s'): keep the one "
                   "to import, or give the splits as .npy files with --split", path, scheme,
                   ent->d_name);
      break;
    }
  }
  closedir(d);
  if (rc == FO_OK && n == 1) *found = true;
  return rc;
}

static int read_splits(ogb_ctx *c, const char *dir, int64_t n, fo__node_data *nd) {
  /* OGB's file stems, and the split names fanout stores them under */
  static const char *const stems[][2] = {{"train", "train"}, {"valid", "val"}, {"val", "val"},
                                         {"test", "test"}};
  char scheme[256], sdir[OGB_PATH], path[OGB_PATH + 16];
  bool found, torch_files = false;
  int rc;
  if ((rc = find_scheme(dir, scheme, sizeof scheme, &found)) != FO_OK || !found) return rc;
  if (snprintf(sdir, sizeof sdir, "%s/split/%s", dir, scheme) >= (int)sizeof sdir - 16)
    return FO_FAIL(FO_EINVAL, "path '%s/split/%s' is too long", dir, scheme);
  for (size_t i = 0; i < sizeof stems / sizeof stems[0]; i++) {
    static const char *const ext[] = {".csv.gz", ".csv"};
    bool have = false;
    for (int j = 0; j < nd->n_splits; j++)
      if (!strcmp(nd->splits[j].name, stems[i][1])) have = true;
    for (int e = 0; e < 2 && !have; e++) {
      snprintf(path, sizeof path, "%s/%s%s", sdir, stems[i][0], ext[e]);
      if (!exists(path)) continue;
      snprintf(nd->splits[nd->n_splits].name, sizeof nd->splits[0].name, "%s", stems[i][1]);
      if ((rc = read_split(c, path, n, &nd->splits[nd->n_splits].ids, &nd->splits[nd->n_splits].n)) != FO_OK)
        return rc;
      nd->n_splits++;
      have = true;
    }
    snprintf(path, sizeof path, "%s/%s.pt", sdir, stems[i][0]);
    if (exists(path)) torch_files = true;
  }
  if (torch_files && nd->n_splits == 0 && !c->o->arrays) /* Python passes what it read */
    FO_LOG(FO_LOG_WARN, "%s: link prediction splits (train/valid/test.pt) are torch pickles: not "
           "imported here; fanout.import_dataset(..., format=\"ogb\") in Python reads them", sdir);
  else if (nd->n_splits == 0)
    FO_LOG(FO_LOG_WARN, "%s: no train/valid/test.csv.gz: no splits imported", sdir);
  return FO_OK;
}

/* raw/node_<name>.csv.gz: OGB's additional node files, kept as int64 node-data arrays. */
static int read_node_arrays(ogb_ctx *c, const char *raw, int64_t n, fo__node_data *nd) {
  DIR *d;
  struct dirent *ent;
  char names[FO_MAX_ARRAYS][32];
  int k = 0, rc = FO_OK;
  if (!(d = opendir(raw))) return FO_FAIL_ERRNO("open '%s'", raw);
  while ((ent = readdir(d))) {
    size_t len = strlen(ent->d_name);
    if (strncmp(ent->d_name, "node_", 5) || len < 12 || strcmp(ent->d_name + len - 7, ".csv.gz"))
      continue;
    if (len - 7 >= sizeof names[0] || k == FO_MAX_ARRAYS / 2) {
      rc = FO_FAIL(FO_EINVAL, "%s/%s: too many node files or too long a name", raw, ent->d_name);
      break;
    }
    snprintf(names[k++], sizeof names[0], "%.*s", (int)(len - 7), ent->d_name);
  }
  closedir(d);
  /* sorted, so that imports do not depend on the directory order */
  for (int i = 1; i < k; i++)
    for (int j = i; j > 0 && strcmp(names[j - 1], names[j]) > 0; j--) {
      char t[32];
      memcpy(t, names[j], 32);
      memcpy(names[j], names[j - 1], 32);
      memcpy(names[j - 1], t, 32);
    }
  for (int i = 0; i < k && rc == FO_OK; i++) {
    char file[48], path[OGB_PATH];
    snprintf(file, sizeof file, "%s.csv.gz", names[i]);
    if ((rc = join(path, raw, file)) != FO_OK) break;
    if ((rc = read_column(c, path, n, false, &nd->arrays[nd->n_arrays].v)) != FO_OK) break;
    snprintf(nd->arrays[nd->n_arrays].name, sizeof nd->arrays[0].name, "%s", names[i]);
    nd->arrays[nd->n_arrays].n = n;
    nd->arrays[nd->n_arrays].per_node = true;
    nd->n_arrays++;
    /* node_year is also the node time (temporal sampling, --time node), as --node-time would
     * make it; a --node-time given with the import wins */
    if (!strcmp(names[i], "node_year") && !nd->t) {
      if (!(nd->t = malloc((size_t)(n > 0 ? n : 1) * sizeof *nd->t))) {
        rc = FO_FAIL(FO_ENOMEM, "node_year as node time: %lld nodes", (long long)n);
        break;
      }
      memcpy(nd->t, nd->arrays[nd->n_arrays - 1].v, (size_t)n * sizeof *nd->t);
      nd->t_rows = n;
      nd->t_source = "raw/node_year.csv.gz";
    }
  }
  return rc;
}

/* Total bytes of the files the import reads, for the progress bar. */
static uint64_t total_bytes(const char *dir) {
  static const char *const files[] = {"raw/edge.csv.gz", "raw/node-feat.csv.gz", "raw/node-label.csv.gz",
                                      "raw/node_year.csv.gz"};
  char path[OGB_PATH];
  uint64_t t = 0;
  for (size_t i = 0; i < sizeof files / sizeof files[0]; i++)
    if (join(path, dir, files[i]) == FO_OK) t += fo__file_bytes(path);
  return t;
}

/* ---- the heterogeneous layout (ogbn-mag) ------------------------------------------------ */

static const char *const typed_markers[] = {"raw/triplet-type-list.csv.gz", "raw/num-node-dict.csv.gz",
                                            "raw/relations"};

bool fo__ogb_is_typed(const char *dir) {
  char path[OGB_PATH];
  for (size_t i = 0; i < sizeof typed_markers / sizeof typed_markers[0]; i++)
    if (join(path, dir, typed_markers[i]) == FO_OK && exists(path)) return true;
  return false;
}

typedef struct ogb_typed {
  fo__typed_graph g;
  int64_t cap_nt, cap_et;
  char (*count_of)[128]; /* [n_nt] "'paper' in num-node-dict.csv.gz", for messages */
  char **files;          /* feature and label paths the graph borrows */
  int n_files;
  int64_t cap_files;
} ogb_typed;

static void ogb_typed_free(ogb_typed *T) {
  for (int t = 0; t < T->g.n_nt; t++) fo__node_data_free(&T->g.nt[t].nd);
  for (int k = 0; k < T->g.n_et; k++) fo__edges_free(&T->g.et[k].edges);
  for (int i = 0; i < T->n_files; i++) free(T->files[i]);
  free(T->files);
  free(T->g.nt);
  free(T->g.et);
  free(T->count_of);
  json_decref(T->g.provenance);
}

static const char *keep_path(ogb_typed *T, const char *path) {
  char *p;
  if (fo__grow(&T->files, &T->cap_files, T->n_files + 1, sizeof *T->files, "paths") != FO_OK ||
      !(p = strdup(path)))
    return "(unknown file)";
  return T->files[T->n_files++] = p;
}

static int find_ntype(const ogb_typed *T, const char *s, size_t len) {
  for (int t = 0; t < T->g.n_nt; t++)
    if (strlen(T->g.nt[t].name) == len && !memcmp(T->g.nt[t].name, s, len)) return t;
  return -1;
}

/* The next comma-separated field of line[*i..len), trimmed; false at the end of the line. */
static bool next_field(const char *line, size_t len, size_t *i, const char **f, size_t *flen) {
  const char *comma;
  if (*i > len) return false;
  *f = line + *i;
  comma = memchr(*f, ',', len - *i);
  *flen = comma ? (size_t)(comma - *f) : len - *i;
  *i += *flen + 1;
  trim(f, flen);
  return true;
}

/* raw/num-node-dict.csv.gz: a header line of node types, then one line of their counts (one
 * graph). The node types are numbered in sorted order, as OGB's reader sorts them. */
static int read_node_dict(ogb_ctx *c, ogb_typed *T, const char *path) {
  fo__reader r;
  char *line;
  size_t len;
  int64_t lines = 0;
  int k, rc = FO_OK;
  if ((rc = open_file(c, &r, path)) != FO_OK) return rc;
  while (rc == FO_OK && (k = fo__reader_next(&r, &line, &len)) == 1) {
    const char *f;
    size_t fl, i = 0;
    int col = 0;
    if (len == 0 || (trim((const char **)&line, &len), len == 0)) continue;
    if (++lines > 2) {
      rc = FO_FAIL(FO_EINVAL, "%s:%lld: more than one graph (a graph property prediction dataset); "
                   "fanout imports node and link prediction datasets, which hold one graph",
                   path, (long long)r.lineno);
      break;
    }
    while (rc == FO_OK && next_field(line, len, &i, &f, &fl)) {
      if (lines == 1) {
        fo__typed_node *nt;
        if (!fo__valid_type_name(f, fl, false)) {
          rc = FO_FAIL(FO_EFORMAT, "%s:%lld: node type '%.*s' is not a valid name (docs/FORMAT.md)",
                       path, (long long)r.lineno, (int)(fl > 70 ? 70 : fl), f);
          break;
        }
        if (find_ntype(T, f, fl) >= 0) {
          rc = FO_FAIL(FO_EFORMAT, "%s:%lld: node type '%.*s' is listed twice", path,
                       (long long)r.lineno, (int)fl, f);
          break;
        }
        if ((rc = fo__grow(&T->g.nt, &T->cap_nt, T->g.n_nt + 1, sizeof *T->g.nt, "node types")) != FO_OK)
          break;
        nt = &T->g.nt[T->g.n_nt++];
        memset(nt, 0, sizeof *nt);
        memcpy(nt->name, f, fl);
        nt->n = -1;
      } else {
        int64_t v;
        if (col >= T->g.n_nt) {
          rc = FO_FAIL(FO_EFORMAT, "%s:%lld: %d counts, but the header names %d node types", path,
                       (long long)r.lineno, col + 1, T->g.n_nt);
          break;
        }
        if (!fo__parse_i64(f, fl, &v)) {
          rc = bad_int(&r, "node count", f, fl);
          break;
        }
        if (v < 0) {
          rc = FO_FAIL(FO_EFORMAT, "%s:%lld: node count %lld of '%s' is negative", path,
                       (long long)r.lineno, (long long)v, T->g.nt[col].name);
          break;
        }
        T->g.nt[col].n = v;
      }
      col++;
    }
    if (rc == FO_OK && lines == 2 && col != T->g.n_nt)
      rc = FO_FAIL(FO_EFORMAT, "%s:%lld: %d counts, but the header names %d node types", path,
                   (long long)r.lineno, col, T->g.n_nt);
  }
  if (k < 0 && rc == FO_OK) rc = k;
  if (rc == FO_OK && lines < 2)
    rc = FO_FAIL(FO_EFORMAT, "%s: expected a header line of node types and a line of their counts, "
                 "got %lld line%s", path, (long long)lines, lines == 1 ? "" : "s");
  close_file(c, &r);
  if (rc != FO_OK) return rc;
  /* sorted by name; names are unique */
  for (int i = 1; i < T->g.n_nt; i++)
    for (int j = i; j > 0 && strcmp(T->g.nt[j - 1].name, T->g.nt[j].name) > 0; j--) {
      fo__typed_node t = T->g.nt[j];
      T->g.nt[j] = T->g.nt[j - 1];
      T->g.nt[j - 1] = t;
    }
  if (!(T->count_of = fo__calloc_n(T->g.n_nt, sizeof *T->count_of)))
    return FO_FAIL(FO_ENOMEM, "node types");
  for (int t = 0; t < T->g.n_nt; t++)
    snprintf(T->count_of[t], sizeof T->count_of[0], "'%s' in num-node-dict.csv.gz", T->g.nt[t].name);
  return FO_OK;
}

/* Add the edge type (src, rel, dst) from text; `where` for messages. */
static int add_triplet(ogb_typed *T, const char *h, size_t hl, const char *rel, size_t rl,
                       const char *tl_, size_t tl, const char *where, int64_t line) {
  int s = find_ntype(T, h, hl), d = find_ntype(T, tl_, tl), rc;
  fo__typed_edge *e;
  char at[OGB_PATH + 32];
  if (line > 0) snprintf(at, sizeof at, "%s:%lld", where, (long long)line);
  else snprintf(at, sizeof at, "%s", where);
  if (s < 0 || d < 0) {
    const char *bad = s < 0 ? h : tl_;
    size_t bl = s < 0 ? hl : tl;
    return FO_FAIL(FO_EFORMAT, "%s: node type '%.*s' is not in num-node-dict.csv.gz", at,
                   (int)(bl > 70 ? 70 : bl), bad);
  }
  if (!fo__valid_type_name(rel, rl, true))
    return FO_FAIL(FO_EFORMAT, "%s: relation '%.*s' is not a valid name (docs/FORMAT.md)",
                   at, (int)(rl > 70 ? 70 : rl), rel);
  for (int k = 0; k < T->g.n_et; k++)
    if (T->g.et[k].src == s && T->g.et[k].dst == d && strlen(T->g.et[k].rel) == rl &&
        !memcmp(T->g.et[k].rel, rel, rl))
      return FO_FAIL(FO_EFORMAT, "%s: edge type %.*s___%.*s___%.*s is listed twice", at,
                     (int)hl, h, (int)rl, rel, (int)tl, tl_);
  if ((rc = fo__grow(&T->g.et, &T->cap_et, T->g.n_et + 1, sizeof *T->g.et, "edge types")) != FO_OK)
    return rc;
  e = &T->g.et[T->g.n_et++];
  memset(e, 0, sizeof *e);
  e->src = s;
  e->dst = d;
  memcpy(e->rel, rel, rl);
  return FO_OK;
}

/* raw/triplet-type-list.csv.gz ("head,relation,tail" lines), or else the directories of
 * raw/relations/ ("head___relation___tail"). Sorted as OGB's reader sorts them. */
static int read_triplets(ogb_ctx *c, ogb_typed *T, const char *dir) {
  char path[OGB_PATH];
  int rc;
  if ((rc = join(path, dir, "raw/triplet-type-list.csv.gz")) != FO_OK) return rc;
  if (exists(path)) {
    fo__reader r;
    char *line;
    size_t len;
    int k;
    if ((rc = open_file(c, &r, path)) != FO_OK) return rc;
    while (rc == FO_OK && (k = fo__reader_next(&r, &line, &len)) == 1) {
      const char *f[3];
      size_t fl[3], i = 0;
      int n = 0;
      if (len == 0) continue;
      while (n < 4 && next_field(line, len, &i, &f[n < 3 ? n : 2], &fl[n < 3 ? n : 2])) n++;
      if (n != 3) {
        rc = FO_FAIL(FO_EFORMAT, "%s:%lld: expected 'head,relation,tail', got '%.*s'", path,
                     (long long)r.lineno, (int)(len > 60 ? 60 : len), line);
        break;
      }
      rc = add_triplet(T, f[0], fl[0], f[1], fl[1], f[2], fl[2], path, r.lineno);
    }
    if (k < 0 && rc == FO_OK) rc = k;
    close_file(c, &r);
  } else {
    DIR *d;
    struct dirent *ent;
    if ((rc = join(path, dir, "raw/relations")) != FO_OK) return rc;
    if (!(d = opendir(path))) return FO_FAIL_ERRNO("open '%s'", path);
    while (rc == FO_OK && (ent = readdir(d))) {
      const char *nm = ent->d_name, *a, *b;
      if (nm[0] == '.') continue;
      a = strstr(nm, "___");
      b = a ? strstr(a + 3, "___") : NULL;
      if (!b || strstr(b + 3, "___")) {
        rc = FO_FAIL(FO_EFORMAT, "%s/%s: not an edge type directory 'head___relation___tail'",
                     path, nm);
        break;
      }
      char where[OGB_PATH + 256];
      snprintf(where, sizeof where, "%s/%s", path, nm);
      rc = add_triplet(T, nm, (size_t)(a - nm), a + 3, (size_t)(b - a - 3), b + 3, strlen(b + 3),
                       where, 0);
    }
    closedir(d);
  }
  if (rc != FO_OK) return rc;
  if (T->g.n_et == 0)
    return FO_FAIL(FO_EFORMAT, "'%s': no edge types (%s)", dir, exists(path) && !is_dir(path)
                   ? "raw/triplet-type-list.csv.gz is empty" : "raw/relations is empty");
  for (int i = 1; i < T->g.n_et; i++)
    for (int j = i; j > 0; j--) {
      fo__typed_edge *x = &T->g.et[j - 1], *y = &T->g.et[j], t;
      int cmp = strcmp(T->g.nt[x->src].name, T->g.nt[y->src].name);
      if (!cmp) cmp = strcmp(x->rel, y->rel);
      if (!cmp) cmp = strcmp(T->g.nt[x->dst].name, T->g.nt[y->dst].name);
      if (cmp <= 0) break;
      t = *x, *x = *y, *y = t;
    }
  return FO_OK;
}

/* Files of a directory besides the ones named in `known` (NULL-terminated): warn once. */
static void warn_extra_files(const char *dir, const char *const *known, const char *why) {
  DIR *d = opendir(dir);
  struct dirent *ent;
  char list[256] = "";
  if (!d) return;
  while ((ent = readdir(d))) {
    bool k = ent->d_name[0] == '.';
    for (int i = 0; known[i] && !k; i++) k = !strcmp(ent->d_name, known[i]);
    if (!k && strlen(list) + strlen(ent->d_name) + 3 < sizeof list)
      snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", *list ? ", " : "", ent->d_name);
  }
  closedir(d);
  if (*list) FO_LOG(FO_LOG_WARN, "%s: %s not imported (%s)", dir, list, why);
}

/* A directory of per-type subdirectories (raw/node-feat, raw/node-label, split/<scheme>):
 * every subdirectory must be a node type. */
static int check_type_dirs(const ogb_typed *T, const char *path) {
  DIR *d;
  struct dirent *ent;
  int rc = FO_OK;
  if (!is_dir(path)) return FO_OK;
  if (!(d = opendir(path))) return FO_FAIL_ERRNO("open '%s'", path);
  while ((ent = readdir(d))) {
    char sub[OGB_PATH];
    if (ent->d_name[0] == '.') continue;
    if (snprintf(sub, sizeof sub, "%s/%s", path, ent->d_name) >= (int)sizeof sub || !is_dir(sub)) continue;
    if (find_ntype(T, ent->d_name, strlen(ent->d_name)) < 0) {
      rc = FO_FAIL(FO_EFORMAT, "%s: node type '%s' is not in num-node-dict.csv.gz", sub, ent->d_name);
      break;
    }
  }
  closedir(d);
  return rc;
}

/* The splits of one node type from sdir/{train,valid,test}.csv.gz. */
static int read_type_splits(ogb_ctx *c, const char *sdir, int64_t n, fo__node_data *nd) {
  static const char *const stems[][2] = {{"train", "train"}, {"valid", "val"}, {"val", "val"},
                                         {"test", "test"}};
  char path[OGB_PATH + 16];
  int rc;
  for (size_t i = 0; i < sizeof stems / sizeof stems[0]; i++) {
    bool have = false;
    for (int j = 0; j < nd->n_splits; j++) have |= !strcmp(nd->splits[j].name, stems[i][1]);
    if (have) continue;
    if (snprintf(path, sizeof path, "%s/%s.csv.gz", sdir, stems[i][0]) >= (int)sizeof path)
      return FO_FAIL(FO_EINVAL, "path '%s' is too long", sdir);
    if (!exists(path)) continue;
    snprintf(nd->splits[nd->n_splits].name, sizeof nd->splits[0].name, "%s", stems[i][1]);
    if ((rc = read_split(c, path, n, &nd->splits[nd->n_splits].ids, &nd->splits[nd->n_splits].n)) != FO_OK)
      return rc;
    nd->n_splits++;
  }
  return FO_OK;
}

/* split/<scheme>/<type>/{train,valid,test}.csv.gz (OGB's per-type form, ogbn-mag), or
 * split/<scheme>/{train,...}.csv.gz for the one node type with labels. */
static int read_typed_splits(ogb_ctx *c, ogb_typed *T, const char *dir) {
  char scheme[256], sdir[OGB_PATH], path[OGB_PATH + 16];
  bool found, flat = false;
  int rc, labeled = -1, n_labeled = 0;
  if ((rc = find_scheme(dir, scheme, sizeof scheme, &found)) != FO_OK || !found) return rc;
  if (snprintf(sdir, sizeof sdir, "%s/split/%s", dir, scheme) >= (int)sizeof sdir - 80)
    return FO_FAIL(FO_EINVAL, "path '%s/split/%s' is too long", dir, scheme);
  if ((rc = check_type_dirs(T, sdir)) != FO_OK) return rc;
  for (int t = 0; t < T->g.n_nt; t++) {
    if (T->g.nt[t].nd.y) labeled = t, n_labeled++;
    if (snprintf(path, sizeof path, "%s/%s", sdir, T->g.nt[t].name) >= (int)sizeof path ||
        !is_dir(path))
      continue;
    c->count_of = T->count_of[t];
    if ((rc = read_type_splits(c, path, T->g.nt[t].n, &T->g.nt[t].nd)) != FO_OK) return rc;
  }
  for (size_t i = 0; i < 3 && !flat; i++) {
    static const char *const stems[] = {"train", "valid", "test"};
    snprintf(path, sizeof path, "%s/%s.csv.gz", sdir, stems[i]);
    flat = exists(path);
  }
  if (!flat) return FO_OK;
  if (n_labeled != 1)
    return FO_FAIL(FO_EINVAL, "%s: train/valid/test.csv.gz hold the splits of one node type, but "
                   "%d node types have labels: put them in %s/<type>/ (OGB's per-type form)",
                   sdir, n_labeled, sdir);
  if (T->g.nt[labeled].nd.n_splits)
    return FO_FAIL(FO_EINVAL, "%s: splits for node type '%s' both in %s/ and in %s/%s/", sdir,
                   T->g.nt[labeled].name, sdir, sdir, T->g.nt[labeled].name);
  c->count_of = T->count_of[labeled];
  return read_type_splits(c, sdir, T->g.nt[labeled].n, &T->g.nt[labeled].nd);
}

static uint64_t typed_total_bytes(const ogb_typed *T, const char *dir) {
  char path[OGB_PATH];
  uint64_t t = 0;
  for (int k = 0; k < T->g.n_et; k++) {
    const fo__typed_edge *e = &T->g.et[k];
    if (snprintf(path, sizeof path, "%s/raw/relations/%s___%s___%s/edge.csv.gz", dir,
                 T->g.nt[e->src].name, e->rel, T->g.nt[e->dst].name) < (int)sizeof path)
      t += fo__file_bytes(path);
  }
  for (int i = 0; i < T->g.n_nt; i++) {
    if (snprintf(path, sizeof path, "%s/raw/node-feat/%s/node-feat.csv.gz", dir, T->g.nt[i].name) <
        (int)sizeof path)
      t += fo__file_bytes(path);
  }
  return t;
}

int fo__import_ogb_typed(const char *dir, const char *out_dir, const fo_import_opts *o,
                         fo_import_report *rep) {
  static const char *const rel_files[] = {"edge.csv.gz", "num-edge-list.csv.gz", NULL};
  static const char *const feat_files[] = {"node-feat.csv.gz", NULL};
  char path[OGB_PATH], sub[OGB_PATH];
  ogb_ctx c;
  ogb_typed T;
  int rc;
  const char *input[1] = {dir};
  if (o->relabel || o->num_nodes >= 0 || o->features || o->labels || o->splits || o->node_arrays ||
      o->arrays || o->n_node_type_opts)
    return FO_FAIL(FO_EINVAL, "'%s' is a heterogeneous OGB dataset: its node counts, features, "
                   "labels and splits come from the directory (no %s)", dir,
                   o->relabel ? "--relabel" : o->num_nodes >= 0 ? "--num-nodes" : o->features
                   ? "--features" : o->labels ? "--labels" : o->splits ? "--split" : o->node_arrays
                   ? "--node-array" : o->arrays ? "--array" : "per-type options");
  if (join(path, dir, "raw/edge_index_dict.npz") == FO_OK && exists(path))
    return FO_FAIL(FO_ENOSYS, "'%s' is a binary heterogeneous OGB dataset (raw/edge_index_dict.npz): "
                   "fanout reads the CSV layout of heterogeneous datasets only", dir);
  memset(&c, 0, sizeof c);
  memset(&T, 0, sizeof T);
  c.o = o;
  if ((rc = join(path, dir, "raw/num-node-dict.csv.gz")) != FO_OK) return rc;
  if (!exists(path))
    return FO_FAIL(FO_EINVAL, "'%s' is a heterogeneous OGB dataset but has no raw/num-node-dict.csv.gz",
                   dir);
  fo__progress_start(&c.prog, o->progress, "import", 0);
  if ((rc = read_node_dict(&c, &T, path)) != FO_OK || (rc = read_triplets(&c, &T, dir)) != FO_OK)
    goto out;
  c.prog.total = typed_total_bytes(&T, dir);
  for (int k = 0; k < T.g.n_et; k++) {
    fo__typed_edge *e = &T.g.et[k];
    int64_t m = 0;
    if (snprintf(sub, sizeof sub, "%s/raw/relations/%s___%s___%s", dir, T.g.nt[e->src].name,
                 e->rel, T.g.nt[e->dst].name) >= (int)sizeof sub - 32) {
      rc = FO_FAIL(FO_EINVAL, "path '%s' is too long", sub);
      goto out;
    }
    if ((rc = join(path, sub, "num-edge-list.csv.gz")) != FO_OK ||
        (rc = read_count(&c, path, "edge count", &m)) != FO_OK ||
        (rc = join(path, sub, "edge.csv.gz")) != FO_OK ||
        (rc = read_edges(&c, path, T.g.nt[e->src].n, T.g.nt[e->dst].n, T.count_of[e->src],
                         T.count_of[e->dst], m, &e->edges)) != FO_OK)
      goto out;
    warn_extra_files(sub, rel_files, "fanout has no edge data for typed datasets yet");
  }
  if ((rc = join(sub, dir, "raw/node-feat")) != FO_OK || (rc = check_type_dirs(&T, sub)) != FO_OK ||
      (rc = join(sub, dir, "raw/node-label")) != FO_OK || (rc = check_type_dirs(&T, sub)) != FO_OK)
    goto out;
  for (int t = 0; t < T.g.n_nt; t++) {
    fo__typed_node *nt = &T.g.nt[t];
    c.count_of = T.count_of[t];
    if (snprintf(sub, sizeof sub, "%s/raw/node-feat/%s", dir, nt->name) >= (int)sizeof sub - 32) {
      rc = FO_FAIL(FO_EINVAL, "path '%s' is too long", sub);
      goto out;
    }
    if ((rc = join(path, sub, "node-feat.csv.gz")) != FO_OK) goto out;
    if (exists(path)) {
      if ((rc = read_features(&c, path, nt->n, &nt->nd)) != FO_OK) goto out;
      nt->x_file = keep_path(&T, path);
    }
    /* node_year.csv.gz and other additional node files: node time comes with temporal support */
    warn_extra_files(sub, feat_files, "additional node files of typed datasets are not imported yet");
    if (snprintf(path, sizeof path, "%s/raw/node-label/%s/node-label.csv.gz", dir, nt->name) >=
        (int)sizeof path) {
      rc = FO_FAIL(FO_EINVAL, "path '%s' is too long", sub);
      goto out;
    }
    if (exists(path)) {
      if ((rc = read_column(&c, path, nt->n, true, &nt->nd.y)) != FO_OK) goto out;
      nt->nd.y_rows = nt->n;
      nt->y_file = keep_path(&T, path);
    }
  }
  if ((rc = read_typed_splits(&c, &T, dir)) != FO_OK) goto out;
  fo__progress_end(&c.prog);
  T.g.provenance = fo__provenance("ogb", input, 1, o);
  json_object_set_new(json_object_get(T.g.provenance, "options"), "reverse_edges",
                      json_boolean(o->reverse_edges));
  rc = fo__import_typed_graph(&T.g, out_dir, o, rep);
out:
  fo__progress_end(&c.prog);
  ogb_typed_free(&T);
  return rc;
}

int fo__parse_ogb(const char *const *inputs, int n_inputs, const fo_import_opts *o,
                  fo__graph_input *in) {
  const char *dir = inputs[0];
  char raw[OGB_PATH], path[OGB_PATH];
  ogb_ctx c;
  int64_t n = 0, m = 0;
  int rc;
  if (n_inputs != 1)
    return FO_FAIL(FO_EINVAL, "--format ogb takes one input, the dataset directory (got %d)", n_inputs);
  if (!is_dir(dir))
    return FO_FAIL(FO_EINVAL, "'%s' is not a directory: --format ogb takes the dataset directory "
                   "that OGB's download unpacks (e.g. dataset/ogbn_arxiv)", dir);
  if ((rc = join(raw, dir, "raw")) != FO_OK) return rc;
  if ((rc = join(path, dir, "raw/edge_index_dict.npz")) != FO_OK) return rc;
  if (exists(path))
    return FO_FAIL(FO_ENOSYS, "'%s' is a binary heterogeneous OGB dataset (raw/edge_index_dict.npz): "
                   "fanout reads the CSV layout of heterogeneous datasets only", dir);
  if ((rc = join(path, dir, "raw/edge.csv.gz")) != FO_OK) return rc;
  if (!exists(path)) {
    char npz[OGB_PATH];
    if ((rc = join(npz, dir, "raw/data.npz")) != FO_OK) return rc;
    if (exists(npz))
      return FO_FAIL(FO_ENOSYS, "'%s' is a binary OGB dataset (raw/data.npz, as ogbn-papers100M): "
                     "the C importer reads the CSV layout only; use fanout.import_dataset('%s', OUT, "
                     "format=\"ogb\") from Python (it converts data.npz with numpy), see docs/IMPORT.md",
                     dir, dir);
    return FO_FAIL(FO_EINVAL, "'%s' is not an OGB dataset directory: no raw/edge.csv.gz", dir);
  }
  if (o->relabel || o->num_nodes >= 0)
    return FO_FAIL(FO_EINVAL, "--format ogb takes the node count from raw/num-node-list.csv.gz: "
                   "no --relabel or --num-nodes");
  if (o->reverse_edges)
    return FO_FAIL(FO_EINVAL, "--reverse-edges: '%s' is a homogeneous OGB dataset (one node type, "
                   "one edge type); reverse types apply to heterogeneous ones (ogbn-mag)", dir);
  memset(&c, 0, sizeof c);
  c.o = o;
  c.count_of = "num-node-list.csv.gz";
  fo__progress_start(&c.prog, o->progress, "import", total_bytes(dir));
  if ((rc = join(path, dir, "raw/num-node-list.csv.gz")) != FO_OK ||
      (rc = read_count(&c, path, "node count", &n)) != FO_OK)
    goto out;
  if ((rc = join(path, dir, "raw/num-edge-list.csv.gz")) != FO_OK ||
      (rc = read_count(&c, path, "edge count", &m)) != FO_OK)
    goto out;
  if ((rc = join(path, dir, "raw/edge.csv.gz")) != FO_OK ||
      (rc = read_edges(&c, path, n, n, c.count_of, c.count_of, m, &in->edges)) != FO_OK)
    goto out;
  in->n_nodes = n;
  if ((rc = join(path, dir, "raw/node-feat.csv.gz")) != FO_OK) goto out;
  if (exists(path) && (rc = read_features(&c, path, n, &in->node)) != FO_OK) goto out;
  if ((rc = join(path, dir, "raw/node-label.csv.gz")) != FO_OK) goto out;
  if (exists(path)) {
    if ((rc = read_column(&c, path, n, true, &in->node.y)) != FO_OK) goto out;
    in->node.y_rows = n;
  }
  if ((rc = read_node_arrays(&c, raw, n, &in->node)) != FO_OK) goto out;
  if (!o->splits) rc = read_splits(&c, dir, n, &in->node);
out:
  fo__progress_end(&c.prog);
  return rc;
}
