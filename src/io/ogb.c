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
 * Other layouts are recognised and refused with FO_ENOSYS and a message saying what to do:
 * the heterogeneous one (ogbn-mag: raw/triplet-type-list.csv.gz, raw/num-node-dict.csv.gz,
 * raw/relations/<src>___<rel>___<dst>/) until typed datasets exist (parse_typed is where that
 * reader goes), and the binary one (ogbn-papers100M: raw/data.npz), which the Python importer
 * converts. Link prediction splits (split/<scheme>/{train,valid,test}.pt) are torch pickles:
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

/* raw/edge.csv.gz: "src,dst" lines, ids in [0, n). */
static int read_edges(ogb_ctx *c, const char *path, int64_t n, int64_t m, fo__edges *e) {
  fo__reader r;
  char *line;
  size_t len;
  int k, rc;
  if ((rc = fo__edges_reserve(e, m)) != FO_OK) return rc;
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
    if (s < 0 || d < 0 || s >= n || d >= n) {
      rc = FO_FAIL(FO_ERANGE, "%s:%lld: node id %lld is not in [0, %lld) (num-node-list.csv.gz)",
                   path, (long long)r.lineno, (long long)(s < 0 || s >= n ? s : d), (long long)n);
      break;
    }
    if (e->n == m) {
      rc = FO_FAIL(FO_EFORMAT, "%s:%lld: more edges than the %lld of num-edge-list.csv.gz", path,
                   (long long)r.lineno, (long long)m);
      break;
    }
    e->src[e->n] = s;
    e->dst[e->n] = d;
    e->n++;
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
      rc = FO_FAIL(FO_EFORMAT, "%s:%lld: more rows than the %lld nodes of num-node-list.csv.gz",
                   path, (long long)r.lineno, (long long)n);
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
    rc = FO_FAIL(FO_EFORMAT, "%s: %lld rows, but the graph has %lld nodes (num-node-list.csv.gz)",
                 path, (long long)rows, (long long)n);
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
      rc = FO_FAIL(FO_EFORMAT, "%s:%lld: more lines than the %lld nodes of num-node-list.csv.gz",
                   path, (long long)r.lineno, (long long)n);
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
    rc = FO_FAIL(FO_EFORMAT, "%s: %lld lines, but the graph has %lld nodes (num-node-list.csv.gz)",
                 path, (long long)rows, (long long)n);
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
      rc = FO_FAIL(FO_ERANGE, "%s:%lld: node id %lld is not in [0, %lld)", path,
                   (long long)r.lineno, (long long)v, (long long)n);
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

/* The heterogeneous layout (ogbn-mag). Typed datasets will be read here: num-node-dict gives
 * the node types, triplet-type-list the relations, relations/<triplet>/ their edges,
 * node-feat/<type>/ and node-label/<type>/ the node data, split/<scheme>/<type>/ the splits. */
static int parse_typed(const char *dir, const char *marker) {
  return FO_FAIL(FO_ENOSYS, "'%s' is a heterogeneous OGB dataset (%s, as ogbn-mag): typed OGB "
                 "datasets need typed dataset support, which fanout does not have yet", dir, marker);
}

int fo__parse_ogb(const char *const *inputs, int n_inputs, const fo_import_opts *o,
                  fo__graph_input *in) {
  static const char *const typed_markers[] = {"raw/triplet-type-list.csv.gz", "raw/num-node-dict.csv.gz",
                                              "raw/relations", "raw/edge_index_dict.npz"};
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
  for (size_t i = 0; i < sizeof typed_markers / sizeof typed_markers[0]; i++) {
    if ((rc = join(path, dir, typed_markers[i])) != FO_OK) return rc;
    if (exists(path)) return parse_typed(dir, typed_markers[i]);
  }
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
  memset(&c, 0, sizeof c);
  c.o = o;
  fo__progress_start(&c.prog, o->progress, "import", total_bytes(dir));
  if ((rc = join(path, dir, "raw/num-node-list.csv.gz")) != FO_OK ||
      (rc = read_count(&c, path, "node count", &n)) != FO_OK)
    goto out;
  if ((rc = join(path, dir, "raw/num-edge-list.csv.gz")) != FO_OK ||
      (rc = read_count(&c, path, "edge count", &m)) != FO_OK)
    goto out;
  if ((rc = join(path, dir, "raw/edge.csv.gz")) != FO_OK ||
      (rc = read_edges(&c, path, n, m, &in->edges)) != FO_OK)
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
