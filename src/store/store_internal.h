/*
 * store/store_internal.h: the .npy codec, file mapping, the dataset's internal layout and the
 * dataset writer (used by the importers). See docs/FORMAT.md for the on-disk format.
 */
#ifndef FO_STORE_INTERNAL_H
#define FO_STORE_INTERNAL_H

#include "core/internal.h"

#include <jansson.h>

#define FO_FORMAT_NAME "fanout-dataset"
#define FO_FORMAT_VERSION 1        /* one-type datasets */
#define FO_FORMAT_VERSION_TYPED 2  /* typed datasets */
#define FO_FORMAT_VERSION_LABELS 3 /* typed datasets with labels-only (supervision) edge types */
#define FO_MANIFEST "fanout.json"

/* ---- .npy (npy.c) -------------------------------------------------------------------------- */

#define FO_NPY_MAX_DIMS 4

typedef struct fo__npy_header {
  char descr[24];      /* e.g. "<i8", "|S12" */
  bool fortran_order;
  int ndim;
  int64_t shape[FO_NPY_MAX_DIMS];
  int64_t itemsize;
  int64_t count;       /* product of shape */
  size_t data_offset;  /* bytes from the start of the file to the data */
} fo__npy_header;

/* Parse an .npy header from the first `len` bytes of a file (len may exceed the header).
 * FO_EFORMAT with a message saying what is wrong (the caller adds the file name). Accepts
 * format versions 1.x, 2.x, 3.x; descr must be a simple little-endian or byte-sized type. */
int fo__npy_parse(const void *buf, size_t len, fo__npy_header *h);

/* Bytes per element of a simple descr ("<i4" = 4, "|S12" = 12); FO_EFORMAT if unsupported. */
int fo__npy_descr_itemsize(const char *descr, int64_t *itemsize);

/* Format a version-1.0 header for (descr, C order, shape) into buf, padded with spaces and a
 * final newline so that the data starts at a multiple of 64 bytes. Returns the header length
 * in bytes, or 0 if it does not fit in cap. */
size_t fo__npy_format(char *buf, size_t cap, const char *descr, int ndim, const int64_t *shape);

/* ---- file mapping (dataset.c) -------------------------------------------------------------- */

typedef struct fo__map {
  void *addr;
  size_t len;
  bool anon; /* anonymous copy (huge pages) rather than a file mapping */
} fo__map;

int fo__map_file(const char *path, fo__map *m);
void fo__unmap(fo__map *m);

/* ---- the open dataset (dataset.c) ---------------------------------------------------------- */

typedef struct fo__array {
  char *name, *file, *dtype;
  int ndim;
  int64_t shape[2];
  int64_t itemsize, nbytes;
  uint64_t xxh64;
  fo__map map;
  const void *data;
} fo__array;

#define FO_PARTITIONED_NAME "fanout-partitioned"
#define FO_RANK_BLOCK 64 /* nodes per entry of a part's rank directory */

/* How a partitioned dataset assigns nodes to parts. */
typedef enum fo__book_kind { FO_BOOK_ARRAY = 0, FO_BOOK_RANGE = 1 } fo__book_kind;

struct fo_dataset {
  char *path;
  char *manifest_text;
  int64_t n_nodes, n_edges;
  /* rows of the topology and node data: n_nodes, or for one part of a partitioned dataset the
   * nodes it owns (row r is node row_nodes[r]); edge ids lie in [0, edge_id_bound) */
  int64_t n_rows, edge_id_bound;
  const fo__array *row_nodes, *row_rank;
  /* a partitioned dataset (format "fanout-partitioned"): its parts, opened, and the book */
  int n_parts;
  fo_dataset_t **parts;   /* [n_parts]; NULL for parts not opened (only_part) */
  int32_t only_part;      /* -1: all parts opened */
  char method[16];
  char train_split[64];   /* the split counted as train nodes in the quality report */
  fo__book_kind book_kind;
  const fo__array *book;  /* uint8/uint16 [n_nodes] (FO_BOOK_ARRAY) */
  /* FO_BOOK_ARRAY: the row of every node in the part owning it, built from the book at open
   * (a node's rank among its part's nodes, ascending: what the parts' row_rank directories
   * encode), so fo__owner_row is one load; NULL when n_nodes >= 2^32 (rank scan then) */
  uint32_t *book_row;
  uint32_t *book_count; /* [n_parts] with book_row: the nodes the book gives each part */
  /* with book_row: the book's entries naming no part (>= n_parts; fo__owner returns them and
   * the checked lookups refuse them). Zero, with every open part's rows equal to book_count,
   * is what lets the sampler's row lookups go unchecked (sampler.c parts_exact). */
  int64_t book_stray;
  int64_t *bounds;        /* [n_parts + 1] (FO_BOOK_RANGE) */
  fo__array *arrays;
  int64_t n_arrays;
  bool has_topo[2];
  fo_topology topo[2];
  fo_orig_kind orig_kind;
  const fo__array *node_orig;     /* int64 [n], |S<w> [n], or the bytes of node_orig_off */
  const fo__array *node_orig_off; /* string ids as offsets + bytes: int64 [n + 1], else NULL */
  const fo__array *edge_orig; /* optional */
  /* node data (absent: NULL) */
  const fo__array *x, *x_scale, *x_offset, *y;
  const fo__array *node_time; /* int64 [n_rows] (manifest "node_time"), or NULL */
  char x_dtype[16];
  int64_t num_classes;
  struct {
    char *name;
    const fo__array *ids;
  } *splits;
  int64_t n_splits;
  /* edge splits of this edge type's view (manifest "edge_splits", edge_split.c) */
  struct fo__edge_split *edge_splits;
  int64_t n_edge_splits;
  /* Types (format_version 2; a version-1 dataset has one of each, whose view is the dataset
   * itself). A node type's view holds its node data (n_nodes = n_rows = n_t); an edge type's
   * view holds its topology (n_edges, topo[], edge_orig). Views share the arrays of the dataset
   * that owns them (is_view: close frees only what the view allocated). */
  int format_version;
  bool typed, is_view;
  int32_t n_ntypes, n_etypes;
  int32_t n_ltypes; /* labels-only (supervision) edge types: etypes[n_etypes .. n_etypes + n_ltypes) */
  struct fo__ntype {
    char *name;
    fo_dataset_t *view;
  } *ntypes;
  struct fo__etype {
    char *name, *src, *rel, *dst;
    int32_t src_t, dst_t;
    int32_t label;    /* 0: traversed; FO_LABEL_POSITIVE or FO_LABEL_NEGATIVE: labels only */
    fo_dataset_t *view;
  } *etypes;
};

#define FO_TYPE_NAME_MAX 64

/* Whether `s` is a valid node type name or, with `relation`, relation name (which may also
 * contain '=' and backslash); docs/FORMAT.md, version 2. */
bool fo__type_name_ok(const char *s, bool relation);

/* edge_split.c: "edge_splits" of `obj` (version-1 root or one edge type's entry of a version-2
 * manifest), each an int64 [k] array of edge ids in [0, d->n_edges), checked here: O(k). `top`:
 * the top level of a partitioned dataset, whose "edge_split_ends" also names per split an int64
 * [2, k] array of the edges' (src, dst) (the parts cannot map edge ids to endpoints cheaply). */
struct fo__edge_split {
  char *name;
  const fo__array *ids;
  const fo__array *ends; /* top level of a partitioned dataset: int64 [2, k], else NULL */
};
int fo__parse_edge_splits(fo_dataset_t *d, json_t *obj, bool top);
/* The stored endpoints of edge split `name` of edge type et of a partitioned dataset: *ends
 * int64 [2, k] (row 0 src, row 1 dst, in split order). FO_EINVAL as fo_dataset_edge_split, or
 * when d is not partitioned. Cost: O(splits). */
int fo__edge_split_ends(const fo_dataset_t *d, int32_t et, const char *name, const int64_t **ends);
void fo__free_edge_splits(fo_dataset_t *d);

/* The array called `name`, or NULL. */
const fo__array *fo__dataset_find(const fo_dataset_t *d, const char *name);

/* The first opened part of a partitioned dataset. */
static inline int fo__first_part_index(const fo_dataset_t *d) {
  return d->only_part >= 0 ? d->only_part : 0;
}
static inline const fo_dataset_t *fo__first_part(const fo_dataset_t *d) {
  return d->parts[fo__first_part_index(d)];
}

/* Part owning node v (0 <= v < n_nodes) of a partitioned dataset, and its row there. */
static inline int fo__owner(const fo_dataset_t *d, int64_t v) {
  if (d->book_kind == FO_BOOK_RANGE) {
    int lo = 0, hi = d->n_parts - 1;
    while (lo < hi) {
      int mid = (lo + hi + 1) / 2;
      if (d->bounds[mid] <= v) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }
  return d->book->itemsize == 1 ? ((const uint8_t *)d->book->data)[v]
                                : ((const uint16_t *)d->book->data)[v];
}

/* Row of node v in part k (which owns it): bounds offset, the row map built at open, or (no
 * row map) the rank directory entry of v's block plus the nodes of part k before v within the
 * block. */
static inline int64_t fo__rank_row(const fo_dataset_t *d, int k, int64_t v);
static inline int64_t fo__owner_row(const fo_dataset_t *d, int k, int64_t v) {
  if (d->book_kind == FO_BOOK_RANGE) return v - d->bounds[k];
  if (FO_LIKELY(d->book_row != NULL)) return (int64_t)d->book_row[v];
  return fo__rank_row(d, k, v);
}

/* Whether partitioned dataset d is one part holding the whole graph, open here, so that node v
 * is row v of part 0 for every v in [0, n_nodes): a range book [0, n_nodes), or an array book
 * with its row map, no entry naming no part and all n_nodes given to part 0, and the part's rows
 * equal to n_nodes (what open validated; O(1)). Then the owner split and the row lookups of the
 * gathers can be skipped: one part, every node local (the one-machine `--dist` run). */
static inline bool fo__sole_part(const fo_dataset_t *d) {
  if (d->n_parts != 1 || !d->parts || !d->parts[0] || d->parts[0]->n_rows != d->n_nodes) return false;
  if (d->book_kind == FO_BOOK_RANGE)
    return d->bounds && d->bounds[0] == 0 && d->bounds[1] == d->n_nodes;
  return d->book_row && d->book_count && d->book_stray == 0 && (int64_t)d->book_count[0] == d->n_nodes;
}

/* Row of node v in part k of an array book through part k's rank directory (what verify checks
 * the row map and the directory against). */
static inline int64_t fo__rank_row(const fo_dataset_t *d, int k, int64_t v) {
  const fo_dataset_t *p = d->parts[k];
  int64_t b, r;
  b = v / FO_RANK_BLOCK;
  r = (int64_t)((const uint32_t *)p->row_rank->data)[b];
  if (d->book->itemsize == 1) {
    /* count the bytes equal to k before v in its block, eight at a time: a byte of x is zero
     * exactly when the top bit of ~((x & 0x7f..) + 0x7f.. | x | 0x7f..) is set */
    const uint8_t *bk = (const uint8_t *)d->book->data;
    const uint64_t lo7 = UINT64_C(0x7f7f7f7f7f7f7f7f), kk = UINT64_C(0x0101010101010101) * (uint8_t)k;
    int64_t u = b * FO_RANK_BLOCK;
    for (; u + 8 <= v; u += 8) {
      uint64_t w, x, z;
      memcpy(&w, bk + u, 8);
      x = w ^ kk;
      z = ~(((x & lo7) + lo7) | x | lo7) >> 7; /* 1 in each matching byte */
      r += (int64_t)((z * UINT64_C(0x0101010101010101)) >> 56);
    }
    for (; u < v; u++) r += bk[u] == k;
  } else {
    const uint16_t *bk = (const uint16_t *)d->book->data;
    for (int64_t u = b * FO_RANK_BLOCK; u < v; u++) r += bk[u] == k;
  }
  return r;
}

/* The structural half of fo_dataset_verify (verify.c), without the checksums: indptr monotone,
 * indices and edge ids in range, eid arrays permutations, both directions the same edges,
 * labels, splits, row_nodes and edge_orig in range. For readers that walk every array anyway
 * (the partitioner): FO_EFORMAT naming the array and position. Cost: O(n + m). */
int fo__dataset_check_structure(const fo_dataset_t *d);

/* Part and row of node v of a partitioned dataset, checked: FO_ERANGE if v is not a node id,
 * FO_EFORMAT (naming the book or the rank directory and the position) if the book gives no
 * part or the row is not one of the part's rows, FO_EINVAL if the owning part is not open.
 * Cost: O(1) (at most 64 book entries). */
int fo__locate(const fo_dataset_t *d, int64_t v, int *part, int64_t *row);

/* ---- supervision rows (label_rows.c) -------------------------------------------------------- */

/* The rows of labels-only edge type i by anchor (source node): the one reader of supervision
 * edges (ABLP, over plain and partitioned datasets). Unpartitioned: the type's CSR. Partitioned:
 * the CSR rows each open part holds for the anchors it owns, found through the anchor type's
 * book. Immutable after init (any thread may read). */
typedef struct fo__label_rows {
  const fo_dataset_t *book; /* the anchor type's view of a partitioned dataset, or NULL */
  int n_shards;
  fo_topology *shards;      /* [n_shards]: per part (indptr NULL: not open here), or &whole */
  fo_topology whole;
  int64_t n_dst;            /* label node ids lie in [0, n_dst) */
  const char *name;         /* the type's name, for messages */
} fo__label_rows;

/* FO_OK; FO_ERANGE for i out of range; FO_EINVAL for a type without a CSR, or a dataset that is
 * one part opened alone; FO_ENOMEM. Cost: O(parts). */
int fo__label_rows_init(const fo_dataset_t *d, int32_t i, fo__label_rows *r);
void fo__label_rows_fini(fo__label_rows *r);

/* Label node p of a row (a position of *t). */
static inline int64_t fo__label_rows_at(const fo_topology *t, int64_t p) {
  return t->indices_bytes == 4 ? (int64_t)((const int32_t *)t->indices)[p]
                               : ((const int64_t *)t->indices)[p];
}

/* Anchor u's row: its label nodes are fo__label_rows_at(*t, p) for p in [*a, *b), in stored
 * order (the supervision file's). Checked: FO_ERANGE for u not an anchor id; FO_EINVAL if its
 * part is not open here; FO_EFORMAT (naming the array and position) for a book entry, row or
 * label node id out of range. Cost: O(1) plus O(row length) for the id check. */
int fo__label_rows_get(const fo__label_rows *r, int64_t u, const fo_topology **t, int64_t *a,
                       int64_t *b);

/* ---- the dataset writer (writer.c) --------------------------------------------------------- */

typedef struct fo__writer fo__writer;

/* Refuse an output that would replace or hold what is read: FO_EINVAL (message names both and
 * says which) when `out_dir` is `input` (same device and inode), contains it (replacing the
 * output would delete the input), or lies inside the input directory. Paths are compared after
 * resolving symbolic links, and by st_dev/st_ino along the ancestors. An `input` that does not
 * exist passes (its reader reports it). `what` names the input in the message ("input",
 * "features file"). Cost: one stat per path component. */
int fo__writer_check_input(const char *out_dir, const char *input, const char *what);

/* Create a hidden temporary directory beside `out_dir` to build a dataset in. Fails with
 * FO_EINVAL if `out_dir` exists and !force. */
int fo__writer_begin(const char *out_dir, bool force, fo__writer **out);

/* Poll `cancel` (may be NULL) while writing: an array write stops with FO_ECANCELED within one
 * chunk (16 MiB) of the flag becoming non-zero, and commit refuses to publish. */
void fo__writer_set_cancel(fo__writer *w, const volatile int *cancel);

/* Write array `name` (file "<name>.npy") with numpy `descr`, C order, shape[ndim] from `data`
 * (product(shape) * itemsize bytes), compute its xxh64 and record it in the manifest. */
int fo__writer_add(fo__writer *w, const char *name, const char *descr, int ndim,
                   const int64_t *shape, const void *data);

/* Write int64 values `data[n]` as a 1-D array of `width` bytes (4: "<i4", 8: "<i8").
 * FO_ERANGE if a value does not fit in int32. */
int fo__writer_add_i64(fo__writer *w, const char *name, int width, const int64_t *data,
                       int64_t n);

/* The manifest being built: the caller sets num_nodes, num_edges, topology, provenance ...
 * (the writer owns it and adds "format", "format_version" and "arrays"). */
json_t *fo__writer_manifest(fo__writer *w);

/* A writer for the subdirectory `name` of `parent`'s directory (a part of a partitioned
 * dataset): it writes its own arrays and manifest; its commit only writes the manifest, and the
 * parent's commit publishes everything at once. */
int fo__writer_begin_sub(fo__writer *parent, const char *name, fo__writer **out);

/* Write fanout.json, fsync, and rename the temporary directory to `out_dir` (replacing an
 * existing one when `force`). Frees `w` whatever the outcome; on failure nothing is left. */
int fo__writer_commit(fo__writer *w);

/* Remove the temporary directory and free `w`. Accepts NULL. */
void fo__writer_abort(fo__writer *w);

#endif
