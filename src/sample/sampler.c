/*
 * sample/sampler.c: multi-hop node-wise neighbor sampling and the inducer.
 *
 * One hop runs in three passes over the frontier (the nodes whose neighbors are drawn):
 *  A0. read each frontier node's row bounds from indptr (checked), prefetching a few nodes
 *      ahead, and count the edges the hop will produce, so the output grows once per hop;
 *  A1. draw each node's neighbors (all, with or without replacement) and append the edges with
 *      `row` temporarily holding the neighbor's *global* id, prefetching rows ahead;
 *  B.  the inducer: walk the hop's edges in order, map each neighbor to its local id (inserting
 *      new nodes at the end of `node` in discovery order) while prefetching the id map's slots
 *      of the edges a little ahead, and overwrite `row` with the local id.
 * Splitting the hop this way turns the two dependent random loads of the textbook loop (row,
 * then id map) into independent streams that prefetching can overlap. The result is the same as
 * the textbook loop's, node for node.
 *
 * Every random draw for node v at hop h comes from v's own Philox stream (sample_internal.h),
 * so results do not depend on the order nodes are processed in.
 */
#include "sample/sample_internal.h"
#include "store/store_internal.h"

#include <math.h>

#define MAX_HOPS 64
#define PF_GATHER 96    /* prefetch distance (edges) for neighbor reads */
#define PF_PTR 32       /* prefetch distance (nodes) for indptr */
#define PF_MAP 64       /* prefetch distance (edges) for the id map */
#define DENSE_MAP_LIMIT ((int64_t)256 << 20) /* bytes: dense id map up to 64 M nodes */
#define FLOYD_LINEAR_MAX 32

typedef struct rowspan {
  int64_t start, deg;
  int64_t shard; /* partitioned datasets: the part holding the row */
  int64_t eoff;  /* partitioned datasets with row_eid: edge id = position + eoff */
  int64_t n;     /* edges choose_positions emitted for the row (valid while s->runs >= 0) */
} rowspan;

/* What open's validation guarantees of an edge type's parts (parts_modes), which selects the
 * variants of passes A0 and A2 over them: PM_EXACT, the row lookups need no checks (below);
 * PM_U8 / PM_U16 with it, a uint8 / uint16 array book and its row map (neither: range bounds);
 * PM_ONE, exactly one part is open here (s->pone: a distributed rank), else all are; PM_RE,
 * every open part has row_eid (edge id = position + the row's offset); PM_SOLE, the dataset has
 * one part (the book gives it every node, so the row map is the identity). */
#define PM_EXACT 1
#define PM_U8 2
#define PM_U16 4
#define PM_ONE 8
#define PM_RE 16
#define PM_SOLE 32 /* with PM_EXACT and PM_RE: one part, the whole graph (node v is its row v) */

/* What one hop's draws depend on, besides the node: the batch's key and the hop's fanout. */
typedef struct hop_params hop_params;
struct hop_params {
  int hop;
  int32_t etype;  /* edge type, part of the random key */
  int32_t fanout;
  bool replace, disjoint;
  uint64_t seed, epoch, batch;
};

typedef struct fo_sampler fo_sampler;

/* A distributed sampler's scratch over a typed dataset (dist_hops_typed): per edge type the
 * frontier's owners (at off[et]), per (part, edge type) group g = part * E + et its nodes
 * (count, start in nodes/trees), its answer (by[g]: a remote res, or local[et] for this
 * machine's part). */
typedef struct fo__dist_typed {
  int64_t *off;                  /* [E] */
  int32_t *owner;
  int64_t cap_owner;
  int64_t *nodes, *trees, *times;
  int64_t cap_nodes, cap_trees, cap_times;
  int64_t *count, *start;        /* [E * P] */
  const fo__hop_res **by;        /* [E * P] */
  fo__hop_req *reqs;             /* [E * P] remote groups, part by part */
  fo__hop_res *res;              /* [E * P] */
  int64_t *req_group;            /* [E * P] group of reqs[i] */
  fo__hop_res *local;            /* [E] */
  fo_batch_t **scratch;          /* [E] the local groups' kernel output */
  int64_t **lcounts, *cap_lcounts; /* [E] */
} fo__dist_typed;
/* The one-hop kernel: choose the edge positions of frontier [fb, fe) (row bounds in s->rows)
 * and append them to out->edge (as positions) and out->col. One per sampling mode, picked once
 * at create (kernel table below); `t` is the edge type's topology (weights for weighted). */
typedef int (*choose_fn)(fo_sampler *s, const fo_topology *t, const fo_batch_t *fr,
                         fo_batch_t *out, int64_t fb, int64_t fe, const struct hop_params *hp);

/* A weighted kernel's per-row scratch: an Efraimidis-Spirakis key and its offset in the row. */
typedef struct wkey {
  double key;
  int64_t off;
} wkey;

static int choose_uniform(fo_sampler *s, const fo_topology *t, const fo_batch_t *fr,
                          fo_batch_t *out, int64_t fb, int64_t fe, const hop_params *hp);
static int choose_weighted(fo_sampler *s, const fo_topology *t, const fo_batch_t *fr,
                           fo_batch_t *out, int64_t fb, int64_t fe, const hop_params *hp);
static int choose_temporal(fo_sampler *s, const fo_topology *t, const fo_batch_t *fr,
                           fo_batch_t *out, int64_t fb, int64_t fe, const hop_params *hp);

struct fo_sampler {
  const fo_dataset_t *d;
  choose_fn choose;
  fo_topology t;
  /* a partitioned dataset opened in one process: every part's CSC (NULL otherwise); typed:
   * [n_etypes * n_shards], edge type et's parts at shards + et * n_shards, found through the
   * book of its frontier node type (ebook[et]). pbook, pshards, pwhole: the edge type of the
   * current pass (the book, its parts' topologies, the whole edge type's counts). */
  fo_topology *shards;
  int n_shards;
  const fo_dataset_t **ebook;
  const fo_dataset_t *pbook;
  const fo_topology *pshards, *pwhole;
  /* per edge type, what open validated of its parts (parts_modes, PM_*), and the current edge
   * type's (parts_select); the one open part (PM_ONE); the rows whose edge counts the last
   * choose_positions left in rows[].n (-1: none, the gather follows col) */
  uint8_t *pmodes, pmode;
  int pone;
  int64_t runs;
  /* distributed: parts other than local_part through `remote` */
  fo__remote remote;
  bool dist;
  bool dist_sole;        /* typed, one machine whose part holds every node of every type */
  int32_t local_part;
  fo_batch_t *scratch;   /* the local part's one-hop results */
  int64_t *group;        /* [frontier] requests' node lists, grouped by part */
  int64_t *group_trees;
  int64_t *group_times;  /* temporal: [frontier] each grouped node's tree time */
  int64_t cap_group, cap_group_trees, cap_group_times;
  int64_t *cursor;       /* [parts] next edge of each part's result during assembly */
  int64_t *gcount;       /* [parts] nodes of each part in this hop's frontier */
  fo__hop_req *reqs;
  fo__hop_res *res;
  const fo__hop_res **by_part; /* [parts] */
  fo__dist_typed ty;     /* typed datasets: every edge type's groups of one hop */
  int32_t *fowner;       /* [frontier] owner of each frontier node */
  int64_t cap_fowner;
  int64_t *counts;       /* [request] edges per node of the one-hop kernel */
  int64_t cap_counts;
  int32_t *fanouts;      /* [n_etypes * n_hops]: row et holds edge type et's fanouts */
  int32_t n_hops;
  bool replace, disjoint;
  fo_edge_dir dir;
  uint64_t seed;
  /* types: a version-1 dataset has one of each (topos[0] aliases t, maps[0] is map) */
  bool typed;
  int32_t n_ntypes, n_etypes;
  fo_topology *topos;    /* [n_etypes] the direction sampled of each edge type */
  int32_t *front_t;      /* [n_etypes] node type of the frontier (dst for in, src for out) */
  int32_t *nbr_t;        /* [n_etypes] node type of the neighbors */
  fo__idmap *maps;       /* [n_ntypes] */
  int64_t *hop_fb, *hop_fe; /* [n_ntypes] frontier of the current hop, per node type */
  const fo_nid_t **seed_ptr; /* [n_ntypes] fo_sampler_sample_typed's seeds by type */
  int64_t *seed_n;
  bool maps_ready;
  /* scratch, grown as needed and kept across batches */
  rowspan *rows;   /* [frontier] row start and length */
  int64_t cap_rows;
  int64_t *pset;   /* open-addressing set for large fanouts */
  int64_t cap_pset;
  wkey *heap;      /* weighted without replacement: [fanout] min-heap of the best keys */
  int64_t cap_heap;
  bool weighted;
  /* seed-edge exclusion applied inside the temporal kernel (set by the single-process hop
   * driver around its choose call for a temporal or weighted sampler: s->excl for that hop's
   * edge type; read by choose_temporal; plain weighted goes through weighted_excl instead) */
  bool kx;
  /* link sampling: ineligible positions (sample_internal.h), and this hop's rows that hold some */
  const fo__exclusion *excl;
  struct xrow { int64_t i, p0, x, start; } *xl;
  int64_t cap_xl, n_xl;
  uint64_t *xbits;            /* exclude_rows: bit v set for excluded row node v (all 0 between
                                 calls) */
  int64_t cap_xbits;          /* its words */
  /* distributed: the exclusion of a hop's groups (fo__hop_req.xcount, .xpos), per part start */
  int64_t *gx_count, *gx_pos, *gx_start;
  int64_t cap_gx_count, cap_gx_pos, cap_gx_start;
  /* a weighted or temporal one-hop request's excluded positions as an exclusion table of its
   * edge type (req_exclusion): rows, offsets, positions; [n_etypes] views, only etype's set */
  fo__exclusion rx;
  int64_t *rx_node, *rx_off, *rx_pos, *rx_n;
  struct rxkey { int64_t node, i, at; } *rx_key;
  int64_t cap_rx_node, cap_rx_off, cap_rx_pos, cap_rx_key;
  const int64_t **rx_nodep, **rx_offp, **rx_posp;
  /* temporal sampling: strategy, mode, bounds; per-type node times; per-tree times */
  fo_temporal_strategy temporal;
  bool time_node, strict;
  int64_t window;              /* -1: none */
  const int64_t **ntype_time;  /* [n_ntypes] node times of each node type, or NULL entries */
  int64_t *tree_time;          /* [n_seeds] time of each tree (seed) of the batch */
  int64_t cap_tree_time;
  const int64_t *const *seed_time_in; /* [n_ntypes] the call's seed times (entries may be NULL) */
  int64_t *elig;               /* node-time mode: the eligible positions of the hop's rows */
  const int64_t *req_time;     /* fo__sampler_hop: [n] the request's time of each node, or NULL */
  int64_t cap_elig;
  rowspan *wrows;              /* weighted temporal: the hop's whole rows (before narrowing) */
  int64_t cap_wrows;
  double *cum;                 /* weighted temporal with replacement: a range's prefix sums */
  int64_t cap_cum;
};

void fo_sampler_opts_init(fo_sampler_opts *o) {
  memset(o, 0, sizeof *o);
  o->fanouts = NULL;
  o->n_hops = 0;
  o->replace = false;
  o->edge_dir = FO_EDGE_DIR_IN;
  o->disjoint = false;
  o->seed = 0;
  o->edge_type_fanouts = NULL;
  o->weighted = false;
  o->temporal = FO_TEMPORAL_NONE;
  o->time_attr = FO_TIME_ATTR_EDGE;
  o->time_strict = false;
  o->time_window = -1;
}

static int check_opts(const fo_dataset_t *d, const fo_sampler_opts *o) {
  if (!d) return FO_FAIL(FO_EINVAL, "dataset is NULL");
  if (!o) return FO_FAIL(FO_EINVAL, "sampler options are NULL (fanouts must be set)");
  if (o->n_hops < 1 || o->n_hops > MAX_HOPS)
    return FO_FAIL(FO_EINVAL, "number of hops %d is not in 1..%d", (int)o->n_hops, MAX_HOPS);
  if (!o->fanouts) return FO_FAIL(FO_EINVAL, "fanouts is NULL with %d hops", (int)o->n_hops);
  for (int h = 0; h < o->n_hops; h++)
    if (o->fanouts[h] < -1)
      return FO_FAIL(FO_EINVAL, "fanouts[%d] = %d (hop %d) is not -1 (all) or >= 0", h,
                     (int)o->fanouts[h], h);
  for (int32_t et = 0; o->edge_type_fanouts && et < fo_dataset_num_edge_types(d); et++)
    for (int h = 0; h < o->n_hops; h++)
      if (o->edge_type_fanouts[et * o->n_hops + h] < -1) {
        fo_edge_type ty;
        fo_dataset_edge_type(d, et, &ty);
        return FO_FAIL(FO_EINVAL, "fanout of edge type '%s' at hop %d is %d, not -1 (all) or >= 0",
                       ty.name, h, (int)o->edge_type_fanouts[et * o->n_hops + h]);
      }
  if (o->edge_dir != FO_EDGE_DIR_IN && o->edge_dir != FO_EDGE_DIR_OUT)
    return FO_FAIL(FO_EINVAL, "unknown edge direction %d", (int)o->edge_dir);
  if ((unsigned)o->temporal > FO_TEMPORAL_LAST)
    return FO_FAIL(FO_EINVAL, "unknown temporal strategy %d (none, uniform or last)", (int)o->temporal);
  if ((unsigned)o->time_attr > FO_TIME_ATTR_NODE)
    return FO_FAIL(FO_EINVAL, "unknown time attribute %d (edge or node)", (int)o->time_attr);
  if (o->time_window < -1)
    return FO_FAIL(FO_EINVAL, "time window %lld is not >= 0 (or -1: none)", (long long)o->time_window);
  if (o->temporal == FO_TEMPORAL_NONE && (o->time_strict || o->time_window >= 0))
    return FO_FAIL(FO_EINVAL, "%s applies to temporal sampling only (temporal uniform or last)",
                   o->time_strict ? "strict time" : "a time window");
  if (o->temporal == FO_TEMPORAL_LAST && o->weighted)
    return FO_FAIL(FO_EINVAL, "weighted applies to temporal uniform, not last (the most recent "
                   "edges, deterministic)");
  return FO_OK;
}

/* Each edge type's PM_* mode (read_rows_sharded), from what open validated, O(parts) per edge
 * type: PM_EXACT when the frontier type's book has range bounds, or an array book with its row
 * map and no entry naming no part, and every open part's CSC has as many rows as the book gives
 * that part, and either every part is open or exactly one (PM_ONE, s->pone); PM_RE when every
 * open part has row_eid. Any other dataset keeps the checked lookups. */
static int parts_modes(fo_sampler_t *s) {
  const int P = s->n_shards;
  if (!(s->pmodes = calloc(s->n_etypes > 0 ? (size_t)s->n_etypes : 1, 1))) return FO_FAIL(FO_ENOMEM, "sampler");
  for (int32_t et = 0; et < s->n_etypes; et++) {
    const fo_dataset_t *b = s->ebook ? s->ebook[et] : s->d;
    const fo_topology *sh = s->shards + (size_t)et * (size_t)P;
    int n_open = 0, one = -1;
    bool exact = b->book_kind == FO_BOOK_RANGE ? b->bounds != NULL
                                                : b->book && b->book_row && b->book_count && !b->book_stray;
    bool re = true;
    for (int k = 0; k < P; k++) {
      int64_t rows;
      if (!sh[k].indptr) continue; /* not open here */
      n_open++;
      one = k;
      rows = b->book_kind == FO_BOOK_RANGE ? (b->bounds ? b->bounds[k + 1] - b->bounds[k] : -1)
                                           : (b->book_count ? (int64_t)b->book_count[k] : -1);
      if (sh[k].n_rows != rows) exact = false;
      /* read_rows_exact's unsigned row_eid compare needs every row's degree <= m */
      if (sh[k].n_edges < 0 || sh[k].n_edges > s->topos[et].n_edges) exact = false;
      if (!sh[k].row_eid) re = false;
    }
    if (n_open == 0 || (n_open != P && n_open != 1)) exact = false;
    if (!exact) continue; /* 0: read_rows_checked, gather_sharded */
    s->pmodes[et] = (uint8_t)(PM_EXACT | (b->book_kind == FO_BOOK_RANGE ? 0 : b->book->itemsize == 1 ? PM_U8 : PM_U16) |
                              (n_open != P ? PM_ONE : 0) | (re ? PM_RE : 0));
    if (P == 1 && re) s->pmodes[et] |= PM_SOLE;
    if (n_open != P) {
      if (s->pone >= 0 && s->pone != one) { s->pmodes[et] = 0; continue; }
      s->pone = one;
    }
  }
  return FO_OK;
}

/* A typed partitioned dataset: per edge type, every open part's topology in the sampled
 * direction (parts hold the CSC rows of the destination nodes they own and the CSR rows of the
 * source nodes they own), the book of the frontier's node type, and the whole edge type's
 * counts in topos[et] (no arrays: the rows are in the parts). */
static int typed_parts(fo_sampler_t *s, const fo_sampler_opts *o) {
  const fo_dataset_t *d = s->d;
  const int P = d->n_parts, E = s->n_etypes;
  const int first = fo__first_part_index(d);
  if (!(s->shards = calloc((size_t)E * (size_t)P, sizeof *s->shards)) ||
      !(s->ebook = calloc((size_t)E, sizeof *s->ebook)))
    return FO_FAIL(FO_ENOMEM, "sampler");
  s->n_shards = P;
  for (int32_t et = 0; et < E; et++) {
    fo_edge_type ty;
    fo_topology *sh = s->shards + (size_t)et * (size_t)P, *w = &s->topos[et];
    fo_dataset_edge_type(d, et, &ty);
    s->ebook[et] = fo_dataset_node_data(d, s->front_t[et]);
    for (int k = 0; k < P; k++) {
      int rc;
      if (!d->parts[k]) continue; /* not open here: reachable only through fo_dist */
      if ((rc = fo_dataset_edge_topology(d->parts[k], et, o->edge_dir, &sh[k])) != FO_OK)
        return fo__context(rc, "part %d", k);
      if (!sh[k].eid || sh[k].indices_bytes != sh[first].indices_bytes ||
          sh[k].eid_bytes != sh[first].eid_bytes)
        return FO_FAIL(FO_EFORMAT, "part %d of '%s', edge type '%s': index or edge-id width "
                       "differs from part %d, or no edge ids", k, d->path, ty.name, first);
    }
    memset(w, 0, sizeof *w);
    w->dir = o->edge_dir;
    w->n_nodes = fo_dataset_num_nodes(fo_dataset_node_data(d, s->nbr_t[et]));
    w->n_rows = fo_dataset_num_nodes(s->ebook[et]);
    w->n_edges = w->edge_id_bound = ty.n_edges;
  }
  s->pbook = s->ebook[0];
  s->pshards = s->shards;
  s->pwhole = &s->topos[0];
  return FO_OK;
}

/* Per-type tables: each edge type's topology in the sampled direction, its frontier and
 * neighbor node types, its fanouts; one id map per node type. A version-1 dataset has one of
 * each, topos[0] being s->t. */
static int setup_types(fo_sampler_t *s, const fo_sampler_opts *o) {
  const fo_dataset_t *d = s->d;
  const int32_t T = fo_dataset_num_node_types(d), E = fo_dataset_num_edge_types(d);
  int rc;
  s->typed = fo_dataset_is_typed(d);
  s->n_ntypes = T;
  s->n_etypes = E;
  if (!(s->topos = calloc((size_t)E, sizeof *s->topos)) ||
      !(s->front_t = calloc((size_t)E, sizeof *s->front_t)) ||
      !(s->nbr_t = calloc((size_t)E, sizeof *s->nbr_t)) ||
      !(s->maps = calloc((size_t)T, sizeof *s->maps)) ||
      !(s->hop_fb = calloc((size_t)T, sizeof *s->hop_fb)) ||
      !(s->hop_fe = calloc((size_t)T, sizeof *s->hop_fe)) ||
      !(s->seed_ptr = calloc((size_t)T, sizeof *s->seed_ptr)) ||
      !(s->seed_n = calloc((size_t)T, sizeof *s->seed_n)) ||
      !(s->fanouts = malloc((size_t)E * (size_t)o->n_hops * sizeof *s->fanouts)))
    return FO_FAIL(FO_ENOMEM, "sampler types");
  for (int32_t et = 0; et < E; et++) {
    fo_edge_type ty;
    fo_dataset_edge_type(d, et, &ty);
    memcpy(s->fanouts + (size_t)et * (size_t)o->n_hops,
           o->edge_type_fanouts ? o->edge_type_fanouts + (size_t)et * (size_t)o->n_hops : o->fanouts,
           (size_t)o->n_hops * sizeof *s->fanouts);
    s->front_t[et] = o->edge_dir == FO_EDGE_DIR_IN ? ty.dst_type : ty.src_type;
    s->nbr_t[et] = o->edge_dir == FO_EDGE_DIR_IN ? ty.src_type : ty.dst_type;
    if (!s->typed) {
      s->topos[et] = s->t;
    } else if (d->n_parts) {
      continue; /* typed_parts below */
    } else if ((rc = fo_dataset_edge_topology(d, et, o->edge_dir, &s->topos[et])) != FO_OK) {
      return rc;
    } else if (s->topos[et].row_nodes) {
      return FO_FAIL(FO_EINVAL, "'%s' is one part of a partitioned dataset: sample through the "
                     "partitioned dataset's directory", d->path);
    }
  }
  if (s->typed && d->n_parts) return typed_parts(s, o);
  s->pbook = d;
  s->pshards = s->shards;
  s->pwhole = &s->topos[0];
  return FO_OK;
}

/* Temporal sampling: the times every edge type needs (edge times in the sampled direction, or
 * the neighbor type's node times), and each node type's node times (seeds' default times). */
static int setup_temporal(fo_sampler_t *s) {
  const fo_dataset_t *d = s->d;
  if (!(s->ntype_time = calloc((size_t)s->n_ntypes, sizeof *s->ntype_time)))
    return FO_FAIL(FO_ENOMEM, "sampler types");
  /* a partitioned dataset's node times are whole, at its top level (beside the book) */
  for (int32_t t = 0; t < s->n_ntypes; t++) {
    const fo_dataset_t *v = fo_dataset_node_data(d, t);
    s->ntype_time[t] = v && v->node_time && v->node_time->shape[0] == v->n_nodes ? v->node_time->data : NULL;
  }
  if (s->shards) {
    /* every open part of an edge type orders its rows as the input did (partition copies rows);
     * also for a non-temporal sampler: it may answer temporal one-hop requests (fo__sampler_hop) */
    for (int32_t et = 0; et < s->n_etypes; et++) {
      const fo_topology *sh = s->shards + (size_t)et * (size_t)s->n_shards;
      const int first = fo__first_part_index(d);
      for (int k = 0; k < s->n_shards; k++)
        if (d->parts[k] && sh[k].rows_by_node_time != sh[first].rows_by_node_time)
          return FO_FAIL(FO_EFORMAT, "parts %d and %d of '%s' order their rows differently (by node "
                         "time or not)", first, k, d->path);
      s->topos[et].rows_by_node_time = sh[first].rows_by_node_time;
    }
  }
  if (s->temporal == FO_TEMPORAL_NONE) return FO_OK;
  if (s->time_node) {
    for (int32_t et = 0; et < s->n_etypes; et++)
      if (!s->ntype_time[s->nbr_t[et]])
        return FO_FAIL(FO_EINVAL, "node-time temporal sampling, but dataset '%s' has no node times%s%s%s "
                       "(import with --node-time)", d->path, s->typed ? " for node type '" : "",
                       s->typed ? fo_dataset_node_type_name(d, s->nbr_t[et]) : "", s->typed ? "'" : "");
    return FO_OK;
  }
  if (s->shards) {
    for (int32_t et = 0; et < s->n_etypes; et++)
      for (int k = 0; k < s->n_shards; k++)
        if (d->parts[k] && !s->shards[(size_t)et * (size_t)s->n_shards + (size_t)k].time) {
          fo_edge_type ty;
          fo_dataset_edge_type(d, et, &ty);
          return FO_FAIL(FO_EINVAL, "edge-time temporal sampling, but part %d of '%s'%s%s%s stores "
                         "no edge times (import with --edge-time or --time-col, then partition)", k,
                         d->path, s->typed ? " (edge type '" : "", s->typed ? ty.name : "",
                         s->typed ? "')" : "");
        }
    return FO_OK;
  }
  for (int32_t et = 0; et < s->n_etypes; et++)
    if (!s->topos[et].time) {
      fo_edge_type ty;
      fo_dataset_edge_type(d, et, &ty);
      return FO_FAIL(FO_EINVAL, "edge-time temporal sampling, but dataset '%s'%s%s%s stores no edge "
                     "times for its %s (import with --edge-time or --time-col)", d->path,
                     s->typed ? " (edge type '" : "", s->typed ? ty.name : "", s->typed ? "')" : "",
                     s->dir == FO_EDGE_DIR_IN ? "CSC" : "CSR");
    }
  return FO_OK;
}

int fo_sampler_create(const fo_dataset_t *d, const fo_sampler_opts *o, fo_sampler_t **out) {
  fo_sampler_t *s;
  int rc;
  if (out) *out = NULL;
  if (!out) return FO_FAIL(FO_EINVAL, "create sampler: out is NULL");
  if ((rc = check_opts(d, o)) != FO_OK) return fo__context(rc, "create sampler");
  if (!(s = calloc(1, sizeof *s))) return FO_FAIL(FO_ENOMEM, "sampler");
  if (d->n_parts && !fo_dataset_is_typed(d)) {
    /* every part's rows, found through the book */
    if (o->edge_dir != FO_EDGE_DIR_IN) {
      free(s);
      return FO_FAIL(FO_EINVAL, "create sampler: partitioned dataset '%s' stores in-neighbors "
                     "only (edge_dir in)", d->path);
    }
    if (!(s->shards = calloc((size_t)d->n_parts, sizeof *s->shards))) {
      free(s);
      return FO_FAIL(FO_ENOMEM, "sampler");
    }
    s->n_shards = d->n_parts;
    for (int k = 0; k < d->n_parts; k++) {
      if (!d->parts[k]) continue; /* not open here: reachable only through fo_dist */
      rc = fo_dataset_topology(d->parts[k], FO_EDGE_DIR_IN, &s->shards[k]);
      if (rc == FO_OK && (!s->shards[k].eid ||
                          s->shards[k].indices_bytes != s->shards[fo__first_part_index(d)].indices_bytes ||
                          s->shards[k].eid_bytes != s->shards[fo__first_part_index(d)].eid_bytes))
        rc = FO_FAIL(FO_EFORMAT, "part %d of '%s': index or edge-id width differs from part 0, or "
                     "no edge ids", k, d->path);
      if (rc != FO_OK) {
        free(s->shards);
        free(s);
        return fo__context(rc, "create sampler");
      }
    }
    s->t.n_nodes = d->n_nodes;
    s->t.n_edges = d->n_edges;
    s->t.n_rows = d->n_nodes;
    s->t.edge_id_bound = d->n_edges;
  } else if (fo_dataset_is_typed(d)) {
    /* every edge type's topology (or, partitioned, every part's of it): setup_types */
  } else if ((rc = fo_dataset_topology(d, o->edge_dir, &s->t)) != FO_OK) {
    free(s);
    return fo__context(rc, "create sampler");
  } else if (s->t.row_nodes) {
    free(s);
    return FO_FAIL(FO_EINVAL, "create sampler: '%s' is one part of a partitioned dataset: sample "
                   "through the partitioned dataset's directory", d->path);
  }
  s->d = d;
  s->n_hops = o->n_hops;
  s->replace = o->replace;
  s->disjoint = o->disjoint;
  s->dir = o->edge_dir;
  s->seed = o->seed;
  s->weighted = o->weighted;
  s->choose = o->temporal != FO_TEMPORAL_NONE ? choose_temporal
              : o->weighted                      ? choose_weighted
                                                 : choose_uniform; /* the kernel table */
  s->temporal = o->temporal;
  s->time_node = o->time_attr == FO_TIME_ATTR_NODE;
  s->strict = o->time_strict;
  s->window = o->time_window;
  if (o->temporal != FO_TEMPORAL_NONE) s->disjoint = true; /* a tree per seed and its time */
  s->pone = -1;
  s->runs = -1;
  if ((rc = setup_types(s, o)) != FO_OK || (rc = setup_temporal(s)) != FO_OK ||
      (s->shards && (rc = parts_modes(s)) != FO_OK)) {
    fo_sampler_destroy(s);
    return fo__context(rc, "create sampler");
  }
  if (o->weighted) {
    for (int32_t et = 0; s->shards && et < s->n_etypes; et++)
      for (int k = 0; k < s->n_shards; k++)
        if (d->parts[k] && !s->shards[(size_t)et * (size_t)s->n_shards + (size_t)k].weight) {
          fo_edge_type ty;
          fo_dataset_edge_type(d, et, &ty);
          rc = FO_FAIL(FO_EINVAL, "create sampler: weighted sampling, but part %d of '%s'%s%s%s "
                       "stores no edge weights for its %s (import with --edge-weight, then "
                       "partition)", k, d->path, s->typed ? " (edge type '" : "",
                       s->typed ? ty.name : "", s->typed ? "')" : "",
                       o->edge_dir == FO_EDGE_DIR_IN ? "CSC" : "CSR");
          fo_sampler_destroy(s);
          return rc;
        }
    for (int32_t et = 0; !s->shards && et < s->n_etypes; et++)
      if (!s->topos[et].weight) {
        fo_edge_type ty;
        fo_dataset_edge_type(d, et, &ty);
        rc = FO_FAIL(FO_EINVAL, "create sampler: weighted sampling, but dataset '%s'%s%s%s stores "
                     "no edge weights for its %s (import with --edge-weight)", d->path,
                     s->typed ? " (edge type '" : "", s->typed ? ty.name : "", s->typed ? "')" : "",
                     o->edge_dir == FO_EDGE_DIR_IN ? "CSC" : "CSR");
        fo_sampler_destroy(s);
        return rc;
      }
  }
  *out = s;
  return FO_OK;
}

void fo_sampler_destroy(fo_sampler_t *s) {
  if (!s) return;
  for (int32_t t = 0; s->maps_ready && t < s->n_ntypes; t++) fo__idmap_fini(&s->maps[t]);
  free(s->maps);
  free(s->topos);
  free(s->front_t);
  free(s->nbr_t);
  free(s->hop_fb);
  free(s->hop_fe);
  free(s->seed_ptr);
  free(s->seed_n);
  if (s->dist && s->remote.free_ctx) s->remote.free_ctx(s->remote.ctx);
  fo_batch_destroy(s->scratch);
  for (int32_t et = 0; s->ty.scratch && et < s->n_etypes; et++) fo_batch_destroy(s->ty.scratch[et]);
  for (int32_t et = 0; s->ty.lcounts && et < s->n_etypes; et++) free(s->ty.lcounts[et]);
  free(s->ty.off);
  free(s->ty.owner);
  free(s->ty.nodes);
  free(s->ty.trees);
  free(s->ty.times);
  free(s->group_times);
  free(s->ty.count);
  free(s->ty.start);
  free(s->ty.by);
  free(s->ty.reqs);
  free(s->ty.res);
  free(s->ty.req_group);
  free(s->ty.local);
  free(s->ty.scratch);
  free(s->ty.lcounts);
  free(s->ty.cap_lcounts);
  free(s->by_part);
  free(s->fowner);
  free(s->counts);
  free(s->group);
  free(s->group_trees);
  free(s->cursor);
  free(s->gcount);
  free(s->reqs);
  free(s->res);
  free(s->shards);
  free(s->ebook);
  free(s->pmodes);
  free(s->fanouts);
  free(s->rows);
  free(s->pset);
  free(s->heap);
  free(s->wrows);
  free(s->cum);
  free(s->xl);
  free(s->xbits);
  free(s->gx_count);
  free(s->gx_pos);
  free(s->rx_node);
  free(s->rx_off);
  free(s->rx_pos);
  free(s->rx_key);
  free(s->rx_n);
  free(s->rx_nodep);
  free(s->rx_offp);
  free(s->rx_posp);
  free(s->gx_start);
  free(s->ntype_time);
  free(s->tree_time);
  free(s->elig);
  free(s);
}

int fo_batch_create(fo_batch_t **out) {
  fo_batch_t *b;
  if (!out) return FO_FAIL(FO_EINVAL, "out is NULL");
  *out = NULL;
  if (!(b = calloc(1, sizeof *b))) return FO_FAIL(FO_ENOMEM, "batch");
  *out = b;
  return FO_OK;
}

void fo_batch_destroy(fo_batch_t *b) {
  if (!b) return;
  free(b->node);
  free(b->row);
  free(b->col);
  free(b->edge);
  free(b->batch);
  free(b->num_sampled_nodes);
  free(b->num_sampled_edges);
  for (int64_t k = 0; k < b->cap_types; k++) fo_batch_destroy(b->types[k]);
  free(b->types);
  free(b);
}

const fo_batch_t *fo_batch_node_type(const fo_batch_t *b, int32_t t) {
  if (!b || t < 0 || t >= (b->typed ? b->n_node_types : 1)) return NULL;
  return b->typed ? b->types[t] : b;
}

const fo_batch_t *fo_batch_edge_type(const fo_batch_t *b, int32_t et) {
  if (!b || et < 0 || et >= (b->typed ? b->n_edge_types : 1)) return NULL;
  return b->typed ? b->types[b->n_node_types + et] : b;
}

static void batch_clear(fo_batch_t *b) {
  b->n_seeds = b->n_nodes = b->n_edges = 0;
  b->n_hops = 0;
  for (int64_t k = 0; k < b->cap_types; k++)
    if (b->types[k]) batch_clear(b->types[k]);
}

static int batch_nodes(fo_batch_t *b, int64_t need, bool disjoint) {
  int rc;
  if ((rc = fo__grow(&b->node, &b->cap_nodes, need, sizeof *b->node, "batch nodes")) != FO_OK)
    return rc;
  if (disjoint &&
      (rc = fo__grow(&b->batch, &b->cap_batch, need, sizeof *b->batch, "batch nodes")) != FO_OK)
    return rc;
  return FO_OK;
}

static int batch_edges(fo_batch_t *b, int64_t need) {
  int64_t c1 = b->cap_edges, c2 = b->cap_edges, c3 = b->cap_edges;
  int rc;
  if (need <= b->cap_edges) return FO_OK;
  /* the three arrays together (a fanout of 2^31 with replacement asks 2^31 edges per node) */
  if (need > INT64_MAX / 24)
    return FO_FAIL(FO_ENOMEM, "batch edges: %lld edges overflow", (long long)need);
  if ((rc = fo__mem_check((uint64_t)need * 24, "batch edges")) != FO_OK)
    return fo__context(rc, "%lld sampled edges (fanouts x frontier)", (long long)need);
  if ((rc = fo__grow(&b->row, &c1, need, sizeof *b->row, "batch edges")) != FO_OK ||
      (rc = fo__grow(&b->col, &c2, c1, sizeof *b->col, "batch edges")) != FO_OK ||
      (rc = fo__grow(&b->edge, &c3, c1, sizeof *b->edge, "batch edges")) != FO_OK)
    return rc;
  b->cap_edges = c1;
  return FO_OK;
}

static inline int64_t load_ix(const void *a, int bytes, int64_t i) {
  return bytes == 4 ? (int64_t)((const int32_t *)a)[i] : ((const int64_t *)a)[i];
}

static int bad_index(const fo_topology *t, int64_t pos, int64_t u) {
  return FO_FAIL(FO_EFORMAT, "%s[%lld] = %lld is not a node id in [0, %lld)", t->indices_name,
                 (long long)pos, (long long)u, (long long)t->n_nodes);
}

static int bad_eid(const fo_topology *t, int64_t pos, int64_t e) {
  return FO_FAIL(FO_EFORMAT, "%s[%lld] = %lld is not an edge id in [0, %lld)", t->eid_name,
                 (long long)pos, (long long)e, (long long)t->edge_id_bound);
}

/* Robert Floyd's k-subset of [0, deg): k distinct offsets, uniform over k-subsets. */
/* Writes out[i] = start + offset of pick i (the edge positions), for i < k. */
static int floyd(fo_sampler_t *s, fo__rng *r, int64_t deg, int64_t k, int64_t *out, int64_t start) {
  int64_t *p = out;
  int64_t cnt = 0;
  if (deg <= 64) {
    /* small rows: the picked offsets as a bit mask, branch-free */
    uint64_t mask = 0;
    for (int64_t j = deg - k; j < deg; j++) {
      int64_t t = (int64_t)fo__rng_below(r, (uint64_t)j + 1);
      int64_t pick = (mask >> t & 1) ? j : t;
      mask |= UINT64_C(1) << pick;
      p[cnt++] = start + pick;
    }
    return FO_OK;
  }
  if (k <= FLOYD_LINEAR_MAX) {
    /* few picks from a long row: a 64-bit filter of (offset mod 64) rules out most repeats,
     * the linear scan settles the rest */
    uint64_t filter = 0;
    for (int64_t j = deg - k; j < deg; j++) {
      int64_t t = (int64_t)fo__rng_below(r, (uint64_t)j + 1), pick;
      bool dup = false;
      if (filter >> (t & 63) & 1)
        for (int64_t q = 0; q < cnt; q++) dup |= p[q] == start + t;
      pick = dup ? j : t;
      filter |= UINT64_C(1) << (pick & 63);
      p[cnt++] = start + pick;
    }
    return FO_OK;
  }
  {
    /* larger k: a set of picked offsets, open addressing, cleared per node */
    int64_t size = 1;
    int rc;
    while (size < 2 * k) size *= 2;
    if ((rc = fo__grow(&s->pset, &s->cap_pset, size, sizeof *s->pset, "sampler scratch")) != FO_OK)
      return rc;
    memset(s->pset, 0xff, (size_t)size * sizeof *s->pset);
    for (int64_t j = deg - k; j < deg; j++) {
      int64_t t = (int64_t)fo__rng_below(r, (uint64_t)j + 1), pick = t;
      uint64_t h = ((uint64_t)t * UINT64_C(0x9E3779B97F4A7C15)) & (uint64_t)(size - 1);
      while (s->pset[h] >= 0 && s->pset[h] != t) h = (h + 1) & (uint64_t)(size - 1);
      if (s->pset[h] == t) {
        pick = j;
        h = ((uint64_t)j * UINT64_C(0x9E3779B97F4A7C15)) & (uint64_t)(size - 1);
        while (s->pset[h] >= 0) h = (h + 1) & (uint64_t)(size - 1);
      }
      s->pset[h] = pick;
      p[cnt++] = start + pick;
    }
    return FO_OK;
  }
}

/* Number of edges node of degree `deg` yields at a hop with fanout `f`. */
static inline int64_t edges_for(int64_t deg, int32_t f, bool replace) {
  if (f < 0) return deg;
  if (replace) return deg ? f : 0;
  return deg < f ? deg : f;
}

/*
 * Pass A1 for one hop: choose the edge positions of every frontier node in [fb, fe) (row bounds
 * in s->rows) and append them to out->edge (as positions, for now) and out->col. Reads nothing
 * but the frontier's row bounds: the random work is pure computation.
 */
static int choose_positions(fo_sampler_t *s, const fo_batch_t *fr, fo_batch_t *out, int64_t fb,
                            int64_t fe, const hop_params *hp) {
  const int32_t f = hp->fanout;
  const bool replace = hp->replace;
  int64_t E = out->n_edges;
  int64_t *col = out->col, *pos = out->edge;
  int rc;
  for (int64_t i = fb; i < fe; i++) {
    const int64_t start = s->rows[i - fb].start, deg = s->rows[i - fb].deg;
    const int64_t k = edges_for(deg, f, replace);
    fo__rng r;
    uint64_t tag;
    s->rows[i - fb].n = k;
    if (k == 0) continue;
    if (f < 0 || (k == deg && !replace)) {
      /* Case 1: all neighbors, in stored order (fanout -1, or >= degree without replacement). */
      for (int64_t j = 0; j < deg; j++) {
        pos[E + j] = start + j;
        col[E + j] = i;
      }
      E += deg;
      continue;
    }
    tag = (uint64_t)hp->hop | (uint64_t)hp->etype << 48;
    if (hp->disjoint) tag |= ((uint64_t)fr->batch[i] + 1) << 8;
    fo__rng_init(&r, hp->seed, hp->epoch, hp->batch, tag, (uint64_t)fr->node[i]);
    if (replace) {
      /* Case 2: with replacement, k independent uniform draws. */
      for (int64_t j = 0; j < k; j++) {
        pos[E + j] = start + (int64_t)fo__rng_below(&r, (uint64_t)deg);
        col[E + j] = i;
      }
    } else {
      /* Case 3: without replacement, k < degree: Floyd's k-subset. */
      if ((rc = floyd(s, &r, deg, k, pos + E, start)) != FO_OK) return rc;
      for (int64_t j = 0; j < k; j++) col[E + j] = i;
    }
    E += k;
  }
  out->n_edges = E;
  s->runs = fe - fb; /* rows[].n: the partitioned gather walks rows, not col */
  return FO_OK;
}

/* The uniform kernel through the kernel table (the topology is not needed: positions only). */
static int choose_uniform(fo_sampler_t *s, const fo_topology *t, const fo_batch_t *fr,
                          fo_batch_t *out, int64_t fb, int64_t fe, const hop_params *hp) {
  (void)t;
  return choose_positions(s, fr, out, fb, fe, hp);
}

/* The topology holding a frontier row: its part's (a partitioned dataset opened here, or the
 * one-hop server), else the edge type's own. */
static inline const fo_topology *row_topo(const fo_sampler_t *s, const fo_topology *t, const rowspan *r) {
  return s->shards ? &s->pshards[r->shard] : t;
}

static inline double load_w(const fo_topology *t, int64_t p) {
  return t->weight_bytes == 4 ? (double)((const float *)t->weight)[p] : ((const double *)t->weight)[p];
}

/* A uniform double in (0, 1]: 53 random bits from two 32-bit words (high word first). */
static inline double rng_unit(fo__rng *r) {
  uint64_t hi = fo__rng_next32(r) >> 6, lo = fo__rng_next32(r) >> 5; /* 26 + 27 bits */
  return ((double)(hi << 27 | lo) + 1.0) * 0x1p-53;
}

static inline void heap_down(wkey *h, int64_t n, int64_t i) {
  for (;;) {
    int64_t l = 2 * i + 1, m = i;
    if (l < n && h[l].key < h[m].key) m = l;
    if (l + 1 < n && h[l + 1].key < h[m].key) m = l + 1;
    if (m == i) return;
    wkey x = h[i];
    h[i] = h[m];
    h[m] = x;
    i = m;
  }
}

/* Offers (key, off) to the min-heap h[0..*n) that keeps the cap largest keys (Efraimidis-
 * Spirakis: the cap edges with the largest keys are the sample): pushed while *n < cap,
 * otherwise it replaces the smallest key if larger. */
static inline void heap_offer(wkey *h, int64_t *n, int64_t cap, double key, int64_t off) {
  if (*n < cap) {
    int64_t c = (*n)++;
    h[c].key = key;
    h[c].off = off;
    while (c > 0 && h[(c - 1) / 2].key > h[c].key) {
      wkey x = h[c];
      h[c] = h[(c - 1) / 2];
      h[(c - 1) / 2] = x;
      c = (c - 1) / 2;
    }
  } else if (key > h[0].key) {
    h[0].key = key;
    h[0].off = off;
    heap_down(h, *n, 0);
  }
}

static int bad_alias(const fo_topology *t, int64_t start, int64_t deg) {
  return FO_FAIL(FO_EFORMAT, "%s[%lld..%lld]: an alias offset lies outside its row",
                 t->weight_alias_name, (long long)start, (long long)(start + deg));
}

/* Whether row offset j is among the k picks at p[0..k) (positions start + offset); `set`
 * (size a power of two, or 0 for a linear scan) mirrors them. */
static inline bool picked(const int64_t *p, int64_t k, int64_t start, int64_t j, const int64_t *set,
                          int64_t size) {
  if (!size) {
    bool dup = false;
    for (int64_t q = 0; q < k; q++) dup |= p[q] == start + j;
    return dup;
  }
  for (uint64_t h = ((uint64_t)j * UINT64_C(0x9E3779B97F4A7C15)) & (uint64_t)(size - 1);;
       h = (h + 1) & (uint64_t)(size - 1)) {
    if (set[h] < 0) return false;
    if (set[h] == j) return true;
  }
}

static inline void set_add(int64_t *set, int64_t size, int64_t j) {
  uint64_t h = ((uint64_t)j * UINT64_C(0x9E3779B97F4A7C15)) & (uint64_t)(size - 1);
  while (set[h] >= 0) h = (h + 1) & (uint64_t)(size - 1);
  set[h] = j;
}

/* The rest of a without-replacement pick (weighted_node, weighted_window_node): offsets [a, b)
 * of the row at `start` are the candidates, k picks are at pos[*E_io ..) (mirrored in s->pset
 * when set_size > 0), f = fanout. When every positive candidate fits the fanout they are all
 * taken in stored order (earlier picks are among them); otherwise the missing picks come from
 * Efraimidis-Spirakis keys log(U_j) / w_j over the unpicked positive candidates, the largest
 * first (one draw per such candidate, in row order). */
static int weighted_rest(fo_sampler_t *s, const fo_topology *t, fo_batch_t *out, int64_t i,
                         int64_t start, int64_t a, int64_t b, int32_t f, fo__rng *r, int64_t k,
                         int64_t set_size, int64_t *E_io) {
  int64_t E = *E_io;
  int64_t *col = out->col, *pos = out->edge;
  int rc;
  {
    int64_t npos = 0, want = f - k, n = 0;
    wkey *h;
    for (int64_t j = a; j < b; j++) npos += load_w(t, start + j) > 0;
    if (npos <= f) {
      /* every positive edge: stored order (earlier picks are among them) */
      for (int64_t j = a; j < b; j++)
        if (load_w(t, start + j) > 0) {
          pos[E] = start + j;
          col[E++] = i;
        }
      *E_io = E;
      return FO_OK;
    }
    if ((rc = fo__grow(&s->heap, &s->cap_heap, want, sizeof *s->heap, "sampler scratch")) != FO_OK)
      return rc;
    h = s->heap;
    for (int64_t j = a; j < b; j++) {
      const double wj = load_w(t, start + j);
      double key;
      if (!(wj > 0) || (k && picked(pos + E, k, start, j, s->pset, set_size))) continue;
      key = log(rng_unit(r)) / wj;
      heap_offer(h, &n, want, key, j);
    }
    /* pop the smallest first: fill from the end, so the picks follow by decreasing key */
    for (int64_t q = k + n - 1; q >= k; q--) {
      pos[E + q] = start + h[0].off;
      h[0] = h[--n];
      heap_down(h, n, 0);
    }
    for (int64_t q = 0; q < f; q++) col[E + q] = i;
    *E_io = E + f;
    return FO_OK;
  }
}

/*
 * The weighted kernel (PyG / torch.multinomial semantics), per frontier node, on the row's
 * stored weights and alias table (written at import, so nothing is built at open and no draw
 * scans the row):
 *  - fanout -1: all neighbors in stored order, weights ignored (as uniform);
 *  - with replacement: `fanout` independent draws, edge j with probability w_j / sum(w) (to
 *    the alias table's 2^-32 thresholds): one 32-bit word each for the offset and the coin
 *    (a second one with probability about deg / 2^32: fo__alias_one, exact), O(1); none
 *    for an all-zero row;
 *  - without replacement: successive sampling (each pick proportional to weight among the
 *    edges not picked yet), so exactly min(fanout, #edges with w > 0) distinct edges and never
 *    a zero-weight one, in pick order. Picks are drawn as with replacement and a repeat is
 *    drawn again (given the picks so far, an accepted draw is proportional to the remaining
 *    weight: exactly the next successive pick). When the row is short (deg <= 1.25 fanout:
 *    redraws_pay) or repeats pile up (more than 2 fanout + 8), the remaining picks come from
 *    Efraimidis-Spirakis keys log(U_j) / w_j over the unpicked positive edges (ES 2006), the
 *    largest first: the same law, O(deg log fanout). When all positive edges fit the fanout
 *    they are taken in stored order.
 * Draws come from the node's stream as in the uniform kernel.
 */
/* Whether picks without replacement from `deg` candidates are drawn from the alias table with
 * repeats redrawn (true), or taken by keys over the whole row (weighted_rest): redraws when
 * deg > 1.25 fanout. Picking f of deg candidates of equal weight takes about
 * deg ln(deg / (deg - f)) draws, 2.0 f at deg = 1.25 f, of ~45 instructions each, against a
 * key (~150 instructions: a 53-bit uniform and a log) for each of the deg candidates; skewed
 * weights pile repeats up, and after 2 fanout + 8 of them the keys take the rest. Depends on
 * the data only, not on draws, so the law is unchanged either way (callgrind on R-MAT 18,
 * [15,10,5]: 214.3 instructions per sampled edge at deg > 2 fanout, 208.3 at 1.5, 206.6 at
 * 1.25 and at 1). */
static inline bool redraws_pay(int64_t deg, int32_t f) { return 4 * deg > 5 * (int64_t)f; }

/* How many frontier nodes ahead the weighted kernel starts a node's draws (wpre). */
#define W_AHEAD 8

/* A frontier node's draws started W_AHEAD nodes early: its stream, its row's alias constants,
 * and its first chunk of alias candidates (offsets and block words, entries prefetched),
 * exactly the draws choose_weighted would make first, so starting early changes no result. */
typedef struct wpre {
  fo__rng r;
  fo__aliasrow a;
  int64_t n; /* candidates drawn (0: none; the row is read in stored order or by keys) */
  int64_t cand[FO_ALIAS_CHUNK];
  uint32_t d[FO_ALIAS_CHUNK];
} wpre;

static inline void weighted_pre(const fo_topology *t, const rowspan *rw, const fo_batch_t *fr,
                                int64_t i, const hop_params *hp, wpre *w) {
  const int64_t start = rw->start, deg = rw->deg;
  const int32_t f = hp->fanout;
  uint64_t tag;
  w->n = 0;
  if (deg == 0 || f <= 0) return;
  __builtin_prefetch(&t->weight_alias[start], 0, 3); /* entry 0: is the row all zero? */
  tag = (uint64_t)hp->hop | (uint64_t)hp->etype << 48;
  if (hp->disjoint) tag |= ((uint64_t)fr->batch[i] + 1) << 8;
  fo__rng_init(&w->r, hp->seed, hp->epoch, hp->batch, tag, (uint64_t)fr->node[i]);
  if (hp->replace || redraws_pay(deg, f)) {
    w->n = f < FO_ALIAS_CHUNK ? f : FO_ALIAS_CHUNK;
    fo__alias_row_init(&w->a, t->weight_alias + start, deg);
    fo__alias_pick(&w->r, &w->a, w->n, w->cand, w->d);
  } else {
    /* read whole by keys or in stored order: its weights (at most 1.25 fanout of them) */
    const char *wp = (const char *)t->weight + start * t->weight_bytes;
    for (int64_t o = 0; o < deg * t->weight_bytes; o += 64) __builtin_prefetch(wp + o, 0, 3);
  }
}

/* One frontier node of choose_weighted: appends its edges at *E (positions and col). */
static int weighted_node(fo_sampler_t *s, const fo_topology *t, fo_batch_t *out, int64_t i,
                         const rowspan *rw, const hop_params *hp, wpre *w, int64_t *E_io) {
  const int32_t f = hp->fanout;
  const int64_t start = rw->start, deg = rw->deg;
  const int64_t *al = t->weight_alias + start;
  int64_t E = *E_io;
  int64_t *col = out->col, *pos = out->edge;
  int64_t k = 0, set_size = 0;
  fo__rng *r = &w->r;
  int rc;
  if (deg == 0 || f == 0) return FO_OK;
  if (f < 0) {
    for (int64_t j = 0; j < deg; j++) {
      pos[E + j] = start + j;
      col[E + j] = i;
    }
    *E_io = E + deg;
    return FO_OK;
  }
  if (al[0] == 0) return FO_OK; /* entry 0 is 0 only in a row without positive weights */
  if (hp->replace) {
    for (int64_t q = 0; q < f; q += FO_ALIAS_CHUNK) {
      const int64_t n = f - q < FO_ALIAS_CHUNK ? f - q : FO_ALIAS_CHUNK;
      int64_t *j = w->cand;
      if (q == 0)
        fo__alias_resolve(r, &w->a, n, w->d, j); /* the first chunk: drawn by weighted_pre */
      else
        fo__alias_draws(r, &w->a, n, j);
      for (int64_t c = 0; c < n; c++) {
        if (FO_UNLIKELY(j[c] < 0)) return bad_alias(t, start, deg);
        pos[E + q + c] = start + j[c];
        col[E + q + c] = i;
      }
    }
    *E_io = E + f;
    return FO_OK;
  }
  if (redraws_pay(deg, f) && f <= FLOYD_LINEAR_MAX) {
    /* successive picks by redrawing repeats; the picked offsets in a 256-bit filter (offset
     * mod 256: exact for rows up to 256 edges, a scan of the picks settles a hit otherwise).
     * Branch-free in the common case: every candidate is written at pos[E + k], kept when new. */
    const int64_t lim = 2 * (int64_t)f + 8;
    int64_t rejects = 0;
    uint64_t filt[4] = {0, 0, 0, 0};
    int64_t *pp = pos + E, *cc = col + E;
    bool first = true;
    while (k < f && rejects <= lim) {
      /* as many draws as picks are missing, fetched together, then taken in order (a chunk
       * never overfills: n <= f - k) */
      const int64_t n = f - k < FO_ALIAS_CHUNK ? f - k : FO_ALIAS_CHUNK;
      if (!first) fo__alias_pick(r, &w->a, n, w->cand, w->d);
      first = false; /* the first chunk was drawn by weighted_pre */
      for (int64_t c = 0; c < n; c++) {
        const int64_t j = fo__alias_one(r, &w->a, w->cand[c], w->d[c]);
        uint64_t *fw = &filt[j >> 6 & 3];
        const uint64_t bit = UINT64_C(1) << (j & 63);
        bool dup, live = rejects <= lim, acc;
        if (FO_UNLIKELY(j < 0)) return bad_alias(t, start, deg);
        dup = (*fw & bit) && (deg <= 256 || picked(pp, k, start, j, NULL, 0));
        acc = live & !dup;
        pp[k] = start + j;
        cc[k] = i;
        k += acc;
        rejects += live & dup;
        *fw |= acc ? bit : 0;
      }
    }
    if (k == f) {
      *E_io = E + f;
      return FO_OK;
    }
  } else if (redraws_pay(deg, f)) {
    /* the same for large fanouts, the picks in an open-addressing set */
    int64_t rejects = 0;
    bool first = true;
    for (set_size = 1; set_size < 2 * (int64_t)f;) set_size *= 2;
    if ((rc = fo__grow(&s->pset, &s->cap_pset, set_size, sizeof *s->pset, "sampler scratch")) != FO_OK)
      return rc;
    memset(s->pset, 0xff, (size_t)set_size * sizeof *s->pset);
    while (k < f && rejects <= 2 * (int64_t)f + 8) {
      const int64_t n = f - k < FO_ALIAS_CHUNK ? f - k : FO_ALIAS_CHUNK;
      int64_t *cand = w->cand;
      if (first)
        fo__alias_resolve(r, &w->a, n, w->d, cand); /* drawn by weighted_pre */
      else
        fo__alias_draws(r, &w->a, n, cand);
      first = false;
      for (int64_t c = 0; c < n && k < f && rejects <= 2 * (int64_t)f + 8; c++) {
        const int64_t j = cand[c];
        if (FO_UNLIKELY(j < 0)) return bad_alias(t, start, deg);
        if (picked(pos + E, k, start, j, s->pset, set_size)) {
          rejects++;
          continue;
        }
        set_add(s->pset, set_size, j);
        pos[E + k++] = start + j;
      }
    }
    if (k == f) {
      for (int64_t q = 0; q < f; q++) col[E + q] = i;
      *E_io = E + f;
      return FO_OK;
    }
  }
  return weighted_rest(s, t, out, i, start, 0, deg, f, r, k, set_size, E_io);
}

static int choose_weighted(fo_sampler_t *s, const fo_topology *t, const fo_batch_t *fr,
                           fo_batch_t *out, int64_t fb, int64_t fe, const hop_params *hp) {
  /* a software pipeline: node i + W_AHEAD's stream, first draws and prefetches start while
   * node i's are resolved */
  wpre ring[W_AHEAD];
  int64_t E = out->n_edges;
  int rc;
  for (int64_t a = 0; a < W_AHEAD && fb + a < fe; a++)
    weighted_pre(row_topo(s, t, &s->rows[a]), &s->rows[a], fr, fb + a, hp, &ring[a]);
  for (int64_t i = fb; i < fe; i++) {
    wpre *w = &ring[(i - fb) % W_AHEAD];
    const rowspan *rw = &s->rows[i - fb];
    if ((rc = weighted_node(s, row_topo(s, t, rw), out, i, rw, hp, w, &E)) != FO_OK)
      return rc;
    if (i + W_AHEAD < fe) {
      const rowspan *ra = &s->rows[i + W_AHEAD - fb];
      weighted_pre(row_topo(s, t, ra), ra, fr, i + W_AHEAD, hp, w);
    }
  }
  out->n_edges = E;
  return FO_OK;
}

/* Weighted temporal sampling (temporal uniform + weighted), one frontier node: the draws are
 * made among the eligible offsets [wa, wb) of the whole row [start, start + deg) by weight.
 * The row's alias table covers the whole row, so a draw outside [wa, wb) (or, without
 * replacement, a repeat) is rejected and drawn again: given the accepted picks so far, an
 * accepted draw is proportional to weight among the eligible edges not picked yet, exactly
 * the law of a draw from the eligible range alone (with replacement: w_j / sum of eligible
 * w; without: the next successive pick). More than max(2 fanout + 8, 2 x range length)
 * rejections (an eligible range holding little of the row's weight: the redraws then cost about
 * what the pass costs), or without replacement a range of at most 1.25 fanout edges
 * (redraws_pay), or a range so small a part of the row that redraws would cost more than the pass (by count: 2 (wb -
 * wa)^2 < fanout deg; this depends on the data, not on draws, so the law is unchanged), take
 * an exact pass over the range: prefix sums and a binary search per
 * remaining draw (with replacement), or weighted_rest's Efraimidis-Spirakis keys (without).
 * Draws come from the node's stream (as choose_weighted: tree-tagged, temporal is disjoint). */
static int weighted_window_node(fo_sampler_t *s, const fo_topology *t, const fo_batch_t *fr,
                                fo_batch_t *out, int64_t i, int64_t start, int64_t deg,
                                int64_t wa, int64_t wb, const hop_params *hp, int64_t *E_io) {
  const int32_t f = hp->fanout;
  const int64_t *al = t->weight_alias + start;
  /* the redraws allowed: about what the exact pass over the range would cost */
  const int64_t lim = 2 * (wb - wa) > 2 * (int64_t)f + 8 ? 2 * (wb - wa) : 2 * (int64_t)f + 8;
  int64_t E = *E_io, k = 0, rejects = 0, set_size = 0;
  int64_t *col = out->col, *pos = out->edge;
  uint64_t tag;
  fo__rng r;
  int rc;
  if (wb <= wa || f == 0) return FO_OK;
  if (f < 0) {
    /* all eligible neighbors in stored order, weights ignored (as uniform) */
    for (int64_t j = wa; j < wb; j++) {
      pos[E] = start + j;
      col[E++] = i;
    }
    *E_io = E;
    return FO_OK;
  }
  if (al[0] == 0) return FO_OK; /* entry 0 is 0 only in a row without positive weights */
  tag = (uint64_t)hp->hop | (uint64_t)hp->etype << 48 | ((uint64_t)fr->batch[i] + 1) << 8;
  fo__rng_init(&r, hp->seed, hp->epoch, hp->batch, tag, (uint64_t)fr->node[i]);
  /* redraw only when that is likely cheaper than the pass: with acceptance p ~ (wb - wa) / deg
   * (by count), f / p draws of ~50 instructions against (wb - wa) keys of ~100 */
  if ((hp->replace || redraws_pay(wb - wa, f)) &&
      2.0 * (double)(wb - wa) * (double)(wb - wa) >= (double)f * (double)deg) {
    fo__aliasrow ar;
    fo__alias_row_init(&ar, al, deg);
    if (!hp->replace) {
      for (set_size = 1; set_size < 2 * (int64_t)f;) set_size *= 2;
      if ((rc = fo__grow(&s->pset, &s->cap_pset, set_size, sizeof *s->pset, "sampler scratch")) != FO_OK)
        return rc;
      memset(s->pset, 0xff, (size_t)set_size * sizeof *s->pset);
    }
    while (k < f && rejects <= lim) {
      int64_t cand[FO_ALIAS_CHUNK];
      const int64_t n = f - k < FO_ALIAS_CHUNK ? f - k : FO_ALIAS_CHUNK;
      fo__alias_draws(&r, &ar, n, cand);
      for (int64_t c = 0; c < n && k < f && rejects <= lim; c++) {
        const int64_t j = cand[c];
        if (FO_UNLIKELY(j < 0)) return bad_alias(t, start, deg);
        if (j < wa || j >= wb || (!hp->replace && picked(pos + E, k, start, j, s->pset, set_size))) {
          rejects++;
          continue;
        }
        if (!hp->replace) set_add(s->pset, set_size, j);
        pos[E + k++] = start + j;
      }
    }
    if (k == f) {
      for (int64_t q = 0; q < f; q++) col[E + q] = i;
      *E_io = E + f;
      return FO_OK;
    }
  }
  if (!hp->replace) return weighted_rest(s, t, out, i, start, wa, wb, f, &r, k, set_size, E_io);
  {
    /* with replacement, the remaining draws by the range's prefix sums: the first offset whose
     * sum reaches U * total, U uniform in (0, 1] (a zero-weight edge never does) */
    const int64_t n = wb - wa;
    double total = 0;
    if ((rc = fo__grow(&s->cum, &s->cap_cum, n, sizeof *s->cum, "sampler scratch")) != FO_OK)
      return rc;
    for (int64_t j = 0; j < n; j++) s->cum[j] = total += load_w(t, start + wa + j);
    if (!(total > 0)) return FO_OK; /* no positive eligible weight: no draws (k is 0) */
    for (; k < f; k++) {
      const double u = rng_unit(&r) * total;
      int64_t lo = 0, hi = n - 1;
      while (lo < hi) {
        const int64_t mid = lo + (hi - lo) / 2;
        if (s->cum[mid] >= u) hi = mid;
        else lo = mid + 1;
      }
      pos[E + k] = start + wa + lo;
    }
    for (int64_t q = 0; q < f; q++) col[E + q] = i;
    *E_io = E + f;
    return FO_OK;
  }
}

/* Weighted temporal: the hop's rows narrowed (s->rows) inside their whole rows (s->wrows). */
static int choose_weighted_window(fo_sampler_t *s, const fo_topology *t, const fo_batch_t *fr,
                                  fo_batch_t *out, int64_t fb, int64_t fe, const hop_params *hp) {
  int64_t E = out->n_edges;
  int rc;
  for (int64_t i = fb; i < fe; i++) {
    const rowspan *w = &s->wrows[i - fb], *r = &s->rows[i - fb];
    const int64_t wa = r->start - w->start;
    if ((rc = weighted_window_node(s, row_topo(s, t, r), fr, out, i, w->start, w->deg, wa, wa + r->deg, hp, &E)) != FO_OK)
      return rc;
  }
  out->n_edges = E;
  return FO_OK;
}

/* Weighted node-time sampling over rows in input order (narrow_node_time's filter pass): each
 * narrowed row r is the range [r.start, r.start + r.deg) of s->elig, holding the row positions
 * of its eligible edges, whose weights are read through it. An exact pass per row: with
 * replacement, prefix sums of the eligible weights and a binary search per draw (the first
 * eligible edge whose sum reaches U * total, U uniform in (0, 1]: edge j with probability
 * w_j / sum of eligible w, a zero weight never); without replacement, every positive eligible
 * edge when they fit the fanout (in stored order), else Efraimidis-Spirakis keys log(U_j) / w_j
 * over the positive eligible edges, the f largest, in decreasing key order (ES 2006: the law
 * of successive sampling). fanout -1: every eligible edge, weights ignored. Writes positions
 * into s->elig (choose_temporal maps them back). O(eligible) per row; the node's stream is
 * weighted_window_node's (tree-tagged). */
static int choose_weighted_elig(fo_sampler_t *s, const fo_topology *t, const fo_batch_t *fr,
                                fo_batch_t *out, int64_t fb, int64_t fe, const hop_params *hp) {
  const int32_t f = hp->fanout;
  int64_t E = out->n_edges;
  int64_t *col = out->col, *pos = out->edge;
  int rc;
  for (int64_t i = fb; i < fe; i++) {
    const rowspan *rw = &s->rows[i - fb];
    const fo_topology *rt = row_topo(s, t, rw);
    const int64_t a = rw->start, n = rw->deg;
    const int64_t *el = s->elig + a;
    int64_t npos = 0;
    uint64_t tag;
    fo__rng r;
    if (n == 0 || f == 0) continue;
    if (f < 0) {
      for (int64_t j = 0; j < n; j++) {
        pos[E] = a + j;
        col[E++] = i;
      }
      continue;
    }
    tag = (uint64_t)hp->hop | (uint64_t)hp->etype << 48;
    if (hp->disjoint) tag |= ((uint64_t)fr->batch[i] + 1) << 8;
    fo__rng_init(&r, hp->seed, hp->epoch, hp->batch, tag, (uint64_t)fr->node[i]);
    if (hp->replace) {
      double total = 0;
      if ((rc = fo__grow(&s->cum, &s->cap_cum, n, sizeof *s->cum, "sampler scratch")) != FO_OK)
        return rc;
      for (int64_t j = 0; j < n; j++) s->cum[j] = total += load_w(rt, el[j]);
      if (!(total > 0)) continue; /* no positive eligible weight: no draws */
      for (int32_t q = 0; q < f; q++) {
        const double u = rng_unit(&r) * total;
        int64_t lo = 0, hi = n - 1;
        while (lo < hi) {
          const int64_t mid = lo + (hi - lo) / 2;
          if (s->cum[mid] >= u) hi = mid;
          else lo = mid + 1;
        }
        pos[E] = a + lo;
        col[E++] = i;
      }
      continue;
    }
    for (int64_t j = 0; j < n; j++) npos += load_w(rt, el[j]) > 0;
    if (npos <= f) {
      for (int64_t j = 0; j < n; j++)
        if (load_w(rt, el[j]) > 0) {
          pos[E] = a + j;
          col[E++] = i;
        }
      continue;
    }
    {
      wkey *h;
      int64_t m = 0, k = 0;
      if (npos > 2 * (int64_t)f && f <= FLOYD_LINEAR_MAX) {
        /* successive picks by prefix sums, a repeat drawn again (given the picks so far, an
         * accepted draw is proportional to weight among the unpicked edges: the next
         * successive pick); after 2 fanout + 8 repeats the keys below take the rest */
        double total = 0;
        int64_t rejects = 0;
        if ((rc = fo__grow(&s->cum, &s->cap_cum, n, sizeof *s->cum, "sampler scratch")) != FO_OK)
          return rc;
        for (int64_t j = 0; j < n; j++) s->cum[j] = total += load_w(rt, el[j]);
        while (k < f && rejects <= 2 * (int64_t)f + 8) {
          const double u = rng_unit(&r) * total;
          int64_t lo = 0, hi = n - 1;
          while (lo < hi) {
            const int64_t mid = lo + (hi - lo) / 2;
            if (s->cum[mid] >= u) hi = mid;
            else lo = mid + 1;
          }
          if (picked(pos + E, k, a, lo, NULL, 0)) rejects++;
          else pos[E + k++] = a + lo;
        }
      }
      if ((rc = fo__grow(&s->heap, &s->cap_heap, f, sizeof *s->heap, "sampler scratch")) != FO_OK)
        return rc;
      h = s->heap;
      for (int64_t j = 0; k < f && j < n; j++) {
        const double wj = load_w(rt, el[j]);
        double key;
        if (!(wj > 0) || (k && picked(pos + E, k, a, j, NULL, 0))) continue;
        key = log(rng_unit(&r)) / wj;
        heap_offer(h, &m, f - k, key, j);
      }
      for (int64_t q = k + m - 1; q >= k; q--) { /* smallest key first, written from the end */
        pos[E + q] = a + h[0].off;
        h[0] = h[--m];
        heap_down(h, m, 0);
      }
      for (int64_t q = 0; q < f; q++) col[E + q] = i;
      E += f;
    }
  }
  out->n_edges = E;
  return FO_OK;
}

/* ---- temporal kernels ------------------------------------------------------------------------
 *
 * A temporal kernel is two steps: narrow each frontier row to its eligible edges at the time of
 * the node's tree (a separate pass over s->rows, so that later remaps of positions inside the
 * narrowed row compose with it), then run the uniform kernel (choose_positions, unchanged) or
 * take the last k on the narrowed rows.
 *  - edge-time mode: rows are sorted by time (import), so the eligible edges of time t are the
 *    range [lo, hi) of positions with t - window <= time (<) <= t: two lower-bound searches
 *    (search_group: interpolation, a bounded scan, a binary search past it), and the narrowed
 *    row is that range of real positions;
 *  - node-time mode: rows are in input order, so a filter pass writes the eligible positions of
 *    every frontier row to s->elig and the narrowed row is a range of s->elig; after the
 *    kernel, positions are mapped back through s->elig ("last" first sorts each row's eligible
 *    positions by neighbor time, ties by position, so the most recent are at its end).
 */

/* The time bounding frontier node i: its tree's, or (the one-hop server) the request's. */
static inline int64_t tree_time_of(const fo_sampler_t *s, const fo_batch_t *fr, int64_t i) {
  return s->req_time ? s->req_time[i] : s->tree_time[fr->batch[i]];
}

/* The eligible times of tree time t: [lo, hi] (inclusive; strict: hi = t - 1). */
static inline void time_bounds(const fo_sampler_t *s, int64_t t, int64_t *lo, int64_t *hi) {
  *hi = s->strict ? (t == INT64_MIN ? INT64_MIN : t - 1) : t;
  if (s->strict && t == INT64_MIN) *lo = INT64_MAX; /* nothing is before INT64_MIN */
  else if (s->window < 0) *lo = INT64_MIN;
  else *lo = t < INT64_MIN + s->window ? INT64_MIN : t - s->window;
}

/* Edge-time narrowing, NARROW_GROUP rows at a time. Each row's search (the first position
 * whose time is >= key) is an interpolation search with the slope kept from the first probe
 * ("slope reuse interpolation", Van Sandt, Chronis and Patel, SIGMOD 2019; interpolation
 * search: Peterson 1957, O(log log deg) expected probes on evenly spread times): read the
 * row's first and last times (a row entirely before or after the key ends there), probe at
 * the key's position interpolated between them, probe again at the first probe's position
 * moved by (key - its time) x the row's positions per time unit, then step one position at a
 * time from there (at most NARROW_SCAN steps; past that a binary search of the range still
 * open, so that a row whose times are not spread evenly costs at most 4 + NARROW_SCAN +
 * log2(deg) probes). Rows of at most NARROW_LIN edges are counted through. The searches of a
 * group advance in lock step, stage by stage, each stage's probes prefetched by the stage
 * before, so that the cache misses of one row's search overlap with the other rows'. The
 * result is the binary search's lower bound whatever the probes: the same positions. */
#define NARROW_GROUP 16
#define NARROW_LIN 8
#define NARROW_SCAN 16

/* The first position in [l, r) whose time is >= key, or r, by counting (short ranges). */
static inline int64_t count_below(const int64_t *tm, int64_t l, int64_t r, int64_t key) {
  int64_t c = l;
  for (int64_t p = l; p < r; p++) c += tm[p] < key;
  return c;
}

/* The first position in [l, r) whose time is >= key, or r: branch-free binary search. */
static int64_t lower_bound_range(const int64_t *tm, int64_t l, int64_t r, int64_t key) {
  const int64_t *p = tm + l;
  int64_t len = r - l;
  while (len > 1) {
    const int64_t half = len >> 1;
    p += p[half - 1] < key ? half : 0;
    len -= half;
  }
  return (p - tm) + (len == 1 && *p < key);
}

/* The probe p + x clamped to [l, r - 1] (x: a position offset as a double, any value). */
static inline int64_t clamp_probe(int64_t p, double x, int64_t l, int64_t r) {
  const double lo = (double)(l - p), hi = (double)(r - 1 - p);
  x = x > lo ? x : lo; /* NaN cannot occur (finite slope), but a far guess can */
  x = x < hi ? x : hi;
  return p + (int64_t)x;
}

static inline void search_group(const int64_t *const *tm, int64_t *a, int64_t *b, const int64_t *key,
                                int n) {
  /* per searching row: [l, r) the positions not yet known to be < key (before l) or >= key
   * (from r on), p the next probe, sl positions per time unit */
  int64_t l[NARROW_GROUP], r[NARROW_GROUP], p[NARROW_GROUP];
  double sl[NARROW_GROUP];
  int8_t act[NARROW_GROUP];
  int na = 0, nb = 0;
  for (int q = 0; q < n; q++)
    if (b[q] > a[q]) {
      __builtin_prefetch(&tm[q][a[q]], 0, 0);
      __builtin_prefetch(&tm[q][b[q] - 1], 0, 0);
    }
  /* stage 1: the ends of each row, then the interpolated probe */
  for (int q = 0; q < n; q++) {
    const int64_t *t = tm[q], lq = a[q], rq = b[q], k = key[q];
    if (rq - lq <= NARROW_LIN) {
      a[q] = count_below(t, lq, rq, k);
      continue;
    }
    const int64_t t0 = t[lq], t1 = t[rq - 1];
    if (t1 < k) a[q] = rq;       /* the whole row is before the key */
    else if (t0 >= k) a[q] = lq; /* none of it */
    else if (rq - lq - 2 <= NARROW_LIN) a[q] = count_below(t, lq + 1, rq - 1, k);
    else {
      /* t0 at lq, t1 at rq - 1 (>= key): [lq + 1, rq - 1) open */
      const double dt = (double)t1 - (double)t0, s = (double)(rq - 1 - lq) / (dt > 1 ? dt : 1);
      l[q] = lq + 1;
      r[q] = rq - 1;
      sl[q] = s;
      p[q] = clamp_probe(lq, ((double)k - (double)t0) * s, l[q], r[q]);
      __builtin_prefetch(&t[p[q]], 0, 0);
      act[na++] = (int8_t)q;
    }
  }
  /* stage 2: the first probe narrows the range; the second is moved from it by the slope */
  for (int i = 0; i < na; i++) {
    const int q = act[i];
    const int64_t *t = tm[q], pq = p[q], v = t[pq], k = key[q];
    if (v < k) l[q] = pq + 1;
    else r[q] = pq;
    if (r[q] - l[q] <= NARROW_LIN) a[q] = count_below(t, l[q], r[q], k);
    else {
      p[q] = clamp_probe(pq, ((double)k - (double)v) * sl[q], l[q], r[q]);
      __builtin_prefetch(&t[p[q]], 0, 0);
      act[nb++] = (int8_t)q;
    }
  }
  /* stage 3: step from the second probe towards the answer */
  for (int i = 0; i < nb; i++) {
    const int q = act[i];
    const int64_t *t = tm[q], k = key[q], lq = l[q], rq = r[q];
    int64_t x = p[q];
    if (t[x] < k) {
      const int64_t stop = rq - x > NARROW_SCAN ? x + NARROW_SCAN : rq;
      for (x++; x < stop && t[x] < k; x++) {}
      a[q] = x < rq && t[x] < k ? lower_bound_range(t, x + 1, rq, k) : x;
    } else {
      const int64_t stop = x - lq > NARROW_SCAN ? x - NARROW_SCAN : lq;
      for (; x > stop && t[x - 1] >= k; x--) {}
      a[q] = x > lq && t[x - 1] >= k ? lower_bound_range(t, lq, x - 1, k) : x;
    }
  }
}

/* The search bounds of frontier rows [g0, g0 + n) (s->rows[i - fb]) in the plain case (inclusive,
 * no window, the trees' times; as time_bounds then): [a, b) the row and key t + 1, or at t =
 * INT64_MAX the whole row, an empty search. Returns false (no window). */
static inline bool plain_bounds(const fo_sampler_t *s, const fo_batch_t *fr, int64_t g0, int64_t fb, int n,
                                int64_t *a, int64_t *b, int64_t *key) {
  const int64_t *tt = s->tree_time, *bat = fr->batch;
  const rowspan *rows = s->rows + (g0 - fb);
  for (int q = 0; q < n; q++) {
    const int64_t t = tt[bat[g0 + q]], st = rows[q].start, e = st + rows[q].deg;
    key[q] = t == INT64_MAX ? INT64_MAX : t + 1;
    a[q] = t == INT64_MAX ? e : st;
    b[q] = e;
  }
  return false;
}

static int narrow_edge_time(fo_sampler_t *s, const fo_topology *t, const fo_batch_t *fr,
                            int64_t fb, int64_t fe) {
  const bool plain = !s->strict && s->window < 0 && !s->req_time;
  for (int64_t g0 = fb; g0 < fe; g0 += NARROW_GROUP) {
    const int n = (int)(fe - g0 < NARROW_GROUP ? fe - g0 : NARROW_GROUP);
    const int64_t *tm[NARROW_GROUP];
    int64_t a[NARROW_GROUP], b[NARROW_GROUP], key[NARROW_GROUP], lo[NARROW_GROUP], end[NARROW_GROUP];
    bool win = false;
    if (plain) win = plain_bounds(s, fr, g0, fb, n, a, b, key);
    else
      for (int q = 0; q < n; q++) {
        const rowspan *r = &s->rows[g0 + q - fb];
        int64_t hi;
        time_bounds(s, tree_time_of(s, fr, g0 + q), &lo[q], &hi);
        a[q] = r->start;
        b[q] = r->start + r->deg;
        if (lo[q] > hi) b[q] = a[q]; /* nothing eligible: an empty search */
        key[q] = hi == INT64_MAX ? INT64_MAX : hi + 1;
        if (hi == INT64_MAX) a[q] = b[q]; /* everything up to the row's end */
        win |= lo[q] != INT64_MIN;
      }
    if (s->shards)
      for (int q = 0; q < n; q++) tm[q] = row_topo(s, t, &s->rows[g0 + q - fb])->time;
    else
      for (int q = 0; q < n; q++) tm[q] = t->time;
    /* the end of the eligible range: the first position with time > hi */
    search_group(tm, a, b, key, n);
    if (!win) { /* the range starts at the row */
      for (int q = 0; q < n; q++) s->rows[g0 + q - fb].deg = a[q] - s->rows[g0 + q - fb].start;
      continue;
    }
    for (int q = 0; q < n; q++) {
      const rowspan *r = &s->rows[g0 + q - fb];
      end[q] = a[q];
      a[q] = r->start;
      b[q] = end[q];
      key[q] = lo[q];
      if (lo[q] == INT64_MIN) b[q] = a[q]; /* no window: the range starts at the row */
    }
    /* with a window, its start: the first position with time >= lo */
    if (win) search_group(tm, a, b, key, n);
    for (int q = 0; q < n; q++) {
      rowspan *r = &s->rows[g0 + q - fb];
      const int64_t start = lo[q] == INT64_MIN ? r->start : a[q];
      r->deg = end[q] - start;
      r->start = start;
    }
  }
  return FO_OK;
}

typedef struct tpos {
  int64_t time, pos;
} tpos;

static int cmp_tpos(const void *x, const void *y) {
  const tpos *a = x, *b = y;
  if (a->time != b->time) return a->time < b->time ? -1 : 1;
  return (a->pos > b->pos) - (a->pos < b->pos);
}

/* Node-time narrowing of rows ordered by neighbor node time (import with node times and no
 * edge times): the search of search_group (interpolation from the row's ends, a second probe
 * by the slope, a bounded scan, a binary search past it) through node_time[indices[p]], each
 * probe two dependent reads: a stage reads the probes' neighbors (prefetched by the stage
 * before) and prefetches their times, the next compares, so that both misses of each probe
 * overlap across the group's rows. A neighbor id out of range fails (after the group). */

/* A neighbor id at position p of indices ix (IB: 4 or 8 bytes, 0: ib at run time). */
static inline __attribute__((always_inline)) int64_t ix_at(const void *ix, const int IB, int ib, int64_t p) {
  if (IB == 4 || (IB == 0 && ib == 4)) return ((const int32_t *)ix)[p];
  return ((const int64_t *)ix)[p];
}

/* The ids and times a node-time search reads: a row's indices (its part's), node times. */
typedef struct nt_src {
  const void *ix;
  uint64_t n; /* node ids are in [0, n) */
  int ib;
} nt_src;

/* node_time[indices[p]]; an id out of range sets *bad (and reads node 0's time) */
static inline __attribute__((always_inline)) int64_t nbr_time(const nt_src *r, const int IB, const int64_t *nt,
                                                              int64_t p, bool *bad) {
  const int64_t u = ix_at(r->ix, IB, r->ib, p);
  const bool ok = (uint64_t)u < r->n;
  *bad |= !ok;
  return nt[ok ? u : 0];
}

/* As count_below and lower_bound_range, through the neighbors' times. */
static inline __attribute__((always_inline)) int64_t count_below_nt(const nt_src *r, const int IB, const int64_t *nt,
                                                                    int64_t l, int64_t e, int64_t key, bool *bad) {
  int64_t c = l;
  for (int64_t p = l; p < e; p++) c += nbr_time(r, IB, nt, p, bad) < key;
  return c;
}

/* (bad: returned in bit 63 of the result, so that the caller's flag stays in a register) */
static __attribute__((noinline)) uint64_t lower_bound_range_nt(const nt_src *r, const int64_t *nt, int64_t l,
                                                               int64_t e, int64_t key) {
  int64_t p = l, len = e - l;
  bool bad = false;
  while (len > 1) {
    const int64_t half = len >> 1;
    p += nbr_time(r, 0, nt, p + half - 1, &bad) < key ? half : 0;
    len -= half;
  }
  p += len == 1 && nbr_time(r, 0, nt, p, &bad) < key;
  return (uint64_t)p | (uint64_t)bad << 63;
}

/* lower_bound_range_nt's position, its bad flag or-ed into *bad */
static inline int64_t lb_nt(const nt_src *r, const int64_t *nt, int64_t l, int64_t e, int64_t key, bool *bad) {
  const uint64_t x = lower_bound_range_nt(r, nt, l, e, key);
  *bad |= x >> 63;
  return (int64_t)(x & ~(UINT64_C(1) << 63));
}

/* The first bad neighbor id of the group's rows s->rows[g0 - fb, + n) (before narrowing: called
 * when a search saw one). */
static int bad_in_group(const fo_sampler_t *s, const fo_topology *const *tq, int64_t g0, int64_t fb, int n) {
  for (int q = 0; q < n; q++) {
    const rowspan *r = &s->rows[g0 + q - fb];
    for (int64_t p = r->start; p < r->start + r->deg; p++) {
      const int64_t u = load_ix(tq[q]->indices, tq[q]->indices_bytes, p);
      if ((uint64_t)u >= (uint64_t)tq[q]->n_nodes) return bad_index(tq[q], p, u);
    }
  }
  return FO_FAIL(FO_EFORMAT, "a neighbor id out of range in a node-time search"); /* not reached */
}

#define RSQ (ONE ? &one : &rs[q])
static inline __attribute__((always_inline)) bool search_group_nt_ib(const fo_topology *const *tq, const int64_t *nt,
                                                                    int64_t *a, int64_t *b, const int64_t *key, int n,
                                                                    const int IB, const int ONE) {
  /* ONE: every row of the group in one topology (not partitioned): its fields in registers */
  nt_src rs[NARROW_GROUP], one = {tq[0]->indices, (uint64_t)tq[0]->n_nodes, tq[0]->indices_bytes};
  int64_t l[NARROW_GROUP], r[NARROW_GROUP], p[NARROW_GROUP], u0[NARROW_GROUP], u1[NARROW_GROUP];
  double sl[NARROW_GROUP];
  int8_t act[NARROW_GROUP];
  int na = 0, nb = 0;
  bool bad = false;
  for (int q = 0; q < n; q++) {
    const int64_t lq = a[q], rq = b[q];
    if (!ONE) {
      RSQ->ix = tq[q]->indices;
      RSQ->n = (uint64_t)tq[q]->n_nodes;
      RSQ->ib = tq[q]->indices_bytes;
    }
    if (rq > lq) {
      __builtin_prefetch((const char *)RSQ->ix + lq * (IB ? IB : RSQ->ib), 0, 0);
      __builtin_prefetch((const char *)RSQ->ix + (rq - 1) * (IB ? IB : RSQ->ib), 0, 0);
    }
  }
  /* stage 1: the neighbors at the row's ends; their times prefetched */
  for (int q = 0; q < n; q++) {
    if (b[q] - a[q] <= NARROW_LIN) continue;
    const int64_t x0 = ix_at(RSQ->ix, IB, RSQ->ib, a[q]), x1 = ix_at(RSQ->ix, IB, RSQ->ib, b[q] - 1);
    const bool ok = (uint64_t)x0 < RSQ->n && (uint64_t)x1 < RSQ->n;
    bad |= !ok;
    u0[q] = ok ? x0 : 0;
    u1[q] = ok ? x1 : 0;
    __builtin_prefetch(&nt[u0[q]], 0, 0);
    __builtin_prefetch(&nt[u1[q]], 0, 0);
  }
  /* stage 2: the ends' times, then the interpolated probe (its neighbor prefetched) */
  for (int q = 0; q < n; q++) {
    const int64_t lq = a[q], rq = b[q], k = key[q];
    if (rq - lq <= NARROW_LIN) {
      a[q] = count_below_nt(RSQ, IB, nt, lq, rq, k, &bad);
      continue;
    }
    const int64_t t0 = nt[u0[q]], t1 = nt[u1[q]];
    if (t1 < k) a[q] = rq;
    else if (t0 >= k) a[q] = lq;
    else if (rq - lq - 2 <= NARROW_LIN) a[q] = count_below_nt(RSQ, IB, nt, lq + 1, rq - 1, k, &bad);
    else {
      const double dt = (double)t1 - (double)t0, s = (double)(rq - 1 - lq) / (dt > 1 ? dt : 1);
      const int64_t pq = clamp_probe(lq, ((double)k - (double)t0) * s, lq + 1, rq - 1);
      l[q] = lq + 1;
      r[q] = rq - 1;
      sl[q] = s;
      p[q] = pq;
      __builtin_prefetch((const char *)RSQ->ix + pq * (IB ? IB : RSQ->ib), 0, 0);
      act[na++] = (int8_t)q;
    }
  }
  /* stage 3: the probes' neighbors; their times prefetched */
  for (int i = 0; i < na; i++) {
    const int q = act[i];
    const int64_t x = ix_at(RSQ->ix, IB, RSQ->ib, p[q]);
    const bool ok = (uint64_t)x < RSQ->n;
    bad |= !ok;
    u0[q] = ok ? x : 0;
    __builtin_prefetch(&nt[u0[q]], 0, 0);
  }
  /* stage 4: the first probe narrows the range; the second is moved from it by the slope */
  for (int i = 0; i < na; i++) {
    const int q = act[i];
    const int64_t pq = p[q], v = nt[u0[q]], k = key[q];
    int64_t lq = l[q], rq = r[q];
    if (v < k) lq = pq + 1;
    else rq = pq;
    if (rq - lq <= NARROW_LIN) a[q] = count_below_nt(RSQ, IB, nt, lq, rq, k, &bad);
    else {
      const int64_t np = clamp_probe(pq, ((double)k - (double)v) * sl[q], lq, rq);
      l[q] = lq;
      r[q] = rq;
      p[q] = np;
      __builtin_prefetch((const char *)RSQ->ix + np * (IB ? IB : RSQ->ib), 0, 0);
      act[nb++] = (int8_t)q;
    }
  }
  /* stage 5: the second probes' neighbors; their times prefetched */
  for (int i = 0; i < nb; i++) {
    const int q = act[i];
    const int64_t x = ix_at(RSQ->ix, IB, RSQ->ib, p[q]);
    const bool ok = (uint64_t)x < RSQ->n;
    bad |= !ok;
    u0[q] = ok ? x : 0;
    __builtin_prefetch(&nt[u0[q]], 0, 0);
  }
  /* stage 6: step from the second probe towards the answer */
  for (int i = 0; i < nb; i++) {
    const int q = act[i];
    const nt_src *rq_ = RSQ;
    const int64_t k = key[q], lq = l[q], rq = r[q];
    int64_t x = p[q];
    if (nt[u0[q]] < k) {
      const int64_t stop = rq - x > NARROW_SCAN ? x + NARROW_SCAN : rq;
      for (x++; x < stop && nbr_time(rq_, IB, nt, x, &bad) < k; x++) {}
      a[q] = x < rq && nbr_time(rq_, IB, nt, x, &bad) < k ? lb_nt(rq_, nt, x + 1, rq, k, &bad) : x;
    } else {
      const int64_t stop = x - lq > NARROW_SCAN ? x - NARROW_SCAN : lq;
      for (; x > stop && nbr_time(rq_, IB, nt, x - 1, &bad) >= k; x--) {}
      a[q] = x > lq && nbr_time(rq_, IB, nt, x - 1, &bad) >= k ? lb_nt(rq_, nt, lq, x - 1, k, &bad) : x;
    }
  }
  return bad;
}
#undef RSQ

/* true: a neighbor id out of range was read (the caller reports it: bad_in_group) */
static bool search_group_nt(const fo_topology *const *tq, const int64_t *nt, int64_t *a, int64_t *b,
                            const int64_t *key, int n) {
  bool one = n > 0;
  for (int q = 1; q < n; q++) one &= tq[q] == tq[0];
  /* one topology (not partitioned), by index width; else each row's own, width read per row */
  if (one && tq[0]->indices_bytes == 4) return search_group_nt_ib(tq, nt, a, b, key, n, 4, 1);
  if (one && tq[0]->indices_bytes == 8) return search_group_nt_ib(tq, nt, a, b, key, n, 8, 1);
  return n ? search_group_nt_ib(tq, nt, a, b, key, n, 0, 0) : false;
}

/* Node-time narrowing of rows ordered by neighbor node time, NARROW_GROUP rows at a time (as
 * narrow_edge_time): the end of each eligible range (first neighbor time > hi), then with a
 * window its start (first neighbor time >= lo). */
static int narrow_node_time_sorted(fo_sampler_t *s, const fo_topology *t, const fo_batch_t *fr,
                                   int64_t fb, int64_t fe, const int64_t *nt) {
  const bool plain = !s->strict && s->window < 0 && !s->req_time;
  for (int64_t g0 = fb; g0 < fe; g0 += NARROW_GROUP) {
    const int n = (int)(fe - g0 < NARROW_GROUP ? fe - g0 : NARROW_GROUP);
    const fo_topology *tq[NARROW_GROUP];
    int64_t a[NARROW_GROUP], b[NARROW_GROUP], key[NARROW_GROUP], lo[NARROW_GROUP], end[NARROW_GROUP];
    bool win = false;
    if (plain) win = plain_bounds(s, fr, g0, fb, n, a, b, key);
    else
      for (int q = 0; q < n; q++) {
        const rowspan *r = &s->rows[g0 + q - fb];
        int64_t hi;
        time_bounds(s, tree_time_of(s, fr, g0 + q), &lo[q], &hi);
        a[q] = r->start;
        b[q] = r->start + r->deg;
        if (lo[q] > hi) b[q] = a[q]; /* nothing eligible: an empty search */
        key[q] = hi == INT64_MAX ? INT64_MAX : hi + 1;
        if (hi == INT64_MAX) a[q] = b[q]; /* everything up to the row's end */
        win |= lo[q] != INT64_MIN;
      }
    for (int q = 0; q < n; q++) tq[q] = row_topo(s, t, &s->rows[g0 + q - fb]);
    if (search_group_nt(tq, nt, a, b, key, n)) return bad_in_group(s, tq, g0, fb, n);
    if (!win) { /* the range starts at the row */
      for (int q = 0; q < n; q++) s->rows[g0 + q - fb].deg = a[q] - s->rows[g0 + q - fb].start;
      continue;
    }
    for (int q = 0; q < n; q++) {
      const rowspan *r = &s->rows[g0 + q - fb];
      end[q] = a[q];
      a[q] = r->start;
      b[q] = end[q];
      key[q] = lo[q];
      if (lo[q] == INT64_MIN) b[q] = a[q]; /* no window: the range starts at the row */
    }
    if (win && search_group_nt(tq, nt, a, b, key, n)) return bad_in_group(s, tq, g0, fb, n);
    for (int q = 0; q < n; q++) {
      rowspan *r = &s->rows[g0 + q - fb];
      const int64_t start = lo[q] == INT64_MIN ? r->start : a[q];
      r->deg = end[q] - start;
      r->start = start;
    }
  }
  return FO_OK;
}

static int narrow_node_time(fo_sampler_t *s, const fo_topology *t, const fo_batch_t *fr,
                            int64_t fb, int64_t fe, const hop_params *hp) {
  const int64_t *nt = s->ntype_time[s->nbr_t[hp->etype]];
  const uint64_t n = (uint64_t)t->n_nodes;
  int64_t total = 0, at = 0;
  int rc;
  if (t->rows_by_node_time) return narrow_node_time_sorted(s, t, fr, fb, fe, nt);
  for (int64_t i = fb; i < fe; i++) total += s->rows[i - fb].deg;
  /* [0, total): eligible positions; "last": then 2 total for the (time, position) sort */
  if ((rc = fo__grow(&s->elig, &s->cap_elig, (s->temporal == FO_TEMPORAL_LAST ? 3 : 1) * total + 1,
                     sizeof *s->elig, "sampler scratch")) != FO_OK)
    return rc;
  for (int64_t i = fb; i < fe; i++) {
    rowspan *r = &s->rows[i - fb];
    const fo_topology *rt = row_topo(s, t, r);
    const int64_t a = at;
    int64_t lo, hi;
    time_bounds(s, tree_time_of(s, fr, i), &lo, &hi);
    for (int64_t p = r->start; p < r->start + r->deg; p++) {
      const int64_t u = load_ix(rt->indices, rt->indices_bytes, p);
      int64_t tu;
      if (FO_UNLIKELY((uint64_t)u >= n)) return bad_index(rt, p, u);
      tu = nt[u];
      s->elig[at] = p;
      at += tu >= lo && tu <= hi;
    }
    r->start = a;
    r->deg = at - a;
    if (s->temporal == FO_TEMPORAL_LAST && r->deg > 1) {
      /* by (neighbor time, position), in the scratch past the eligible positions */
      tpos *tp = (tpos *)(void *)(s->elig + total);
      int64_t k = 0;
      for (int64_t q = a; q < at; q++, k++) {
        tp[k].pos = s->elig[q];
        tp[k].time = nt[load_ix(rt->indices, rt->indices_bytes, s->elig[q])];
      }
      qsort(tp, (size_t)k, sizeof *tp, cmp_tpos);
      for (int64_t q = 0; q < k; q++) s->elig[a + q] = tp[q].pos;
    }
  }
  return FO_OK;
}

/* "last": the min(fanout, eligible) last positions of each narrowed row, in row order. */
static void take_last(fo_sampler_t *s, fo_batch_t *out, int64_t fb, int64_t fe, const hop_params *hp) {
  int64_t E = out->n_edges;
  for (int64_t i = fb; i < fe; i++) {
    const int64_t start = s->rows[i - fb].start, deg = s->rows[i - fb].deg;
    const int64_t k = hp->fanout < 0 || hp->fanout > deg ? deg : hp->fanout;
    s->rows[i - fb].n = k; /* for remap_pos (exclusion), not the gather: s->runs stays -1 */
    for (int64_t j = 0; j < k; j++) {
      out->edge[E + j] = start + deg - k + j;
      out->col[E + j] = i;
    }
    E += k;
  }
  out->n_edges = E;
}

static int exclude_rows(fo_sampler_t *s, int32_t et, const fo_batch_t *fr, int64_t fb, int64_t fe,
                        const hop_params *hp, int64_t *n_new);
static void remap_excluded(fo_sampler_t *s, int32_t et, fo_batch_t *eb, int64_t fb, int64_t e0,
                           int64_t e1);
static int exclude_elig(fo_sampler_t *s, int32_t et, const fo_batch_t *fr, int64_t fb, int64_t fe);
static int weighted_excl(fo_sampler_t *s, const fo_topology *t, const fo_batch_t *fr,
                         fo_batch_t *out, int64_t fb, int64_t fe, const hop_params *hp,
                         choose_fn fast);

/* Seed-edge exclusion in a temporal hop (s->kx): applied to the narrowed rows, so the eligible
 * edges are the time prefix (or window) minus the excluded positions inside it. Rows that are
 * ranges of real positions (edge-time, node-time over rows sorted by node time) are shortened by
 * exclude_rows and their picks mapped past the excluded positions after the kernel (uniform and
 * "last" alike: "last" then takes the most recent non-excluded eligible edges); rows that are
 * ranges of s->elig (node-time over rows in input order) lose their excluded entries
 * (exclude_elig); weighted rows holding excluded positions are drawn by weighted_excl. */
static int choose_temporal(fo_sampler_t *s, const fo_topology *t, const fo_batch_t *fr,
                           fo_batch_t *out, int64_t fb, int64_t fe, const hop_params *hp) {
  const int64_t e0 = out->n_edges;
  const bool in_elig = s->time_node && !t->rows_by_node_time;
  const bool kx = s->kx;
  int rc;
  if (s->weighted) {
    /* weighted: the whole rows too (the alias tables cover them) */
    if ((rc = fo__grow(&s->wrows, &s->cap_wrows, fe - fb, sizeof *s->wrows, "sampler scratch")) != FO_OK)
      return rc;
    memcpy(s->wrows, s->rows, (size_t)(fe - fb) * sizeof *s->rows);
  }
  /* step 1: narrow the rows to their eligible edges */
  if ((rc = s->time_node ? narrow_node_time(s, t, fr, fb, fe, hp) : narrow_edge_time(s, t, fr, fb, fe)) != FO_OK)
    return rc;
  /* seed-edge exclusion inside the narrowed rows */
  s->n_xl = 0;
  if (kx) {
    int64_t unused = 0;
    if (in_elig) rc = exclude_elig(s, hp->etype, fr, fb, fe);
    else if (!s->weighted) rc = exclude_rows(s, hp->etype, fr, fb, fe, hp, &unused);
    if (rc != FO_OK) return rc;
  }
  /* step 2: the kernel on the narrowed rows */
  if (s->temporal == FO_TEMPORAL_LAST) take_last(s, out, fb, fe, hp);
  else if (s->weighted) {
    /* node-time mode over rows in input order: the eligible positions are scattered */
    if ((rc = in_elig ? choose_weighted_elig(s, t, fr, out, fb, fe, hp)
              : kx    ? weighted_excl(s, t, fr, out, fb, fe, hp, choose_weighted_window)
                      : choose_weighted_window(s, t, fr, out, fb, fe, hp)) != FO_OK)
      return rc;
  } else if ((rc = choose_positions(s, fr, out, fb, fe, hp)) != FO_OK) return rc;
  /* node-time mode over rows in input order: back from the scratch to row positions */
  if (in_elig)
    for (int64_t e = e0; e < out->n_edges; e++) out->edge[e] = s->elig[out->edge[e]];
  if (kx && s->n_xl) {
    /* "last" recorded rows[].n too: the remap visits only the excluded rows' edges */
    const int64_t runs0 = s->runs;
    if (s->temporal == FO_TEMPORAL_LAST) s->runs = fe - fb;
    remap_excluded(s, hp->etype, out, fb, e0, out->n_edges);
    s->runs = runs0;
  }
  s->n_xl = 0;
  return FO_OK;
}

/*
 * Pass A2: for the hop's edges [e0, e1), read the neighbor at each chosen position into `row`
 * (a global id, checked) and turn the position into the edge id (through eid when stored),
 * prefetching PF_GATHER edges ahead. IB/EB: byte widths of indices/eid (EB 0: no eid array).
 */
static inline __attribute__((always_inline)) int gather(const fo_topology *t, fo_batch_t *out,
                                                        int64_t e0, int64_t e1, const int IB,
                                                        const int EB) {
  const void *ix = t->indices, *eid = t->eid;
  const uint64_t n = (uint64_t)t->n_nodes, m = (uint64_t)t->n_edges;
  int64_t *row = out->row, *edge = out->edge;
  for (int64_t e = e0; e < e1; e++) {
    int64_t p = edge[e], u;
    if (e + PF_GATHER < e1) {
      int64_t q = edge[e + PF_GATHER];
      __builtin_prefetch((const char *)ix + q * IB, 0, 3);
      if (EB) __builtin_prefetch((const char *)eid + q * EB, 0, 3);
    }
    u = load_ix(ix, IB, p);
    if (FO_UNLIKELY((uint64_t)u >= n)) return bad_index(t, p, u);
    row[e] = u;
    if (EB) {
      int64_t id = load_ix(eid, EB, p);
      if (FO_UNLIKELY((uint64_t)id >= m)) return bad_eid(t, p, id);
      edge[e] = id;
    }
  }
  return FO_OK;
}

static int gather_any(const fo_topology *t, fo_batch_t *out, int64_t e0, int64_t e1) {
  const int ib = t->indices_bytes, eb = t->eid ? t->eid_bytes : 0;
  if (ib == 4 && eb == 0) return gather(t, out, e0, e1, 4, 0);
  if (ib == 8 && eb == 0) return gather(t, out, e0, e1, 8, 0);
  if (ib == 4 && eb == 4) return gather(t, out, e0, e1, 4, 4);
  if (ib == 4 && eb == 8) return gather(t, out, e0, e1, 4, 8);
  if (ib == 8 && eb == 4) return gather(t, out, e0, e1, 8, 4);
  return gather(t, out, e0, e1, 8, 8);
}

static int bad_row_eid(const fo_sampler_t *s, const fo_topology *t, int k, int64_t r, int64_t id,
                       int64_t deg) {
  return FO_FAIL(FO_EFORMAT, "part %d: %s[%lld] = %lld: the row's edge ids (%lld of them) do not "
                 "lie in [0, %lld)", k, t->row_eid_name, (long long)r, (long long)id,
                 (long long)deg, (long long)s->pwhole->n_edges);
}

/* Pass A0 over a partitioned dataset, in two sweeps so both random lookups are prefetched:
 * first each node's part and row (book and row map: two independent loads), then its bounds in
 * that part's CSC. This one checks every lookup, for what open's validation does not cover (no
 * row map: rank directory scans; book entries naming no part; an open part whose rows are not
 * the book's count for it; parts with and without row_eid mixed). */
static int read_rows_checked(fo_sampler_t *s, const fo_batch_t *out, int64_t fb, int64_t fe,
                             const hop_params *hp, int64_t *n_out) {
  const fo_dataset_t *d = s->pbook; /* the dataset, or the frontier's node type (typed) */
  const fo_topology *shards = s->pshards;
  const int32_t f = hp->fanout;
  const int64_t *node = out->node, m = s->pwhole->n_edges;
  int64_t total = 0;
  for (int64_t i = fb; i < fe; i++) {
    int64_t v = node[i], r;
    int k;
    if (i + PF_PTR < fe && d->book) {
      const int64_t q = node[i + PF_PTR];
      __builtin_prefetch((const char *)d->book->data + q * d->book->itemsize, 0, 3);
      if (d->book_row) __builtin_prefetch(&d->book_row[q], 0, 3);
    }
    k = fo__owner(d, v);
    if (FO_UNLIKELY(k < 0 || k >= s->n_shards))
      return FO_FAIL(FO_EFORMAT, "partition book: node %lld is in part %d of %d", (long long)v, k,
                     s->n_shards);
    if (FO_UNLIKELY(!shards[k].indptr))
      return FO_FAIL(FO_EINVAL, "node %lld belongs to part %d, which is not open here", (long long)v, k);
    r = fo__owner_row(d, k, v); /* book and rank directories: checked by fo_dataset_verify */
    if (FO_UNLIKELY(r < 0 || r >= shards[k].n_rows))
      return FO_FAIL(FO_EFORMAT, "part %d: node %lld maps to row %lld of %lld (%s[%lld])", k,
                     (long long)v, (long long)r, (long long)shards[k].n_rows,
                     d->book_kind == FO_BOOK_RANGE ? "bounds" : "row_rank",
                     (long long)(d->book_kind == FO_BOOK_RANGE ? k : v / FO_RANK_BLOCK));
    s->rows[i - fb].shard = k;
    s->rows[i - fb].start = r;
  }
  for (int64_t i = fb; i < fe; i++) {
    rowspan *rs = &s->rows[i - fb];
    const fo_topology *t = &shards[rs->shard];
    int64_t r = rs->start, a, b;
    if (i + PF_PTR < fe) {
      const rowspan *q = &s->rows[i + PF_PTR - fb];
      __builtin_prefetch(&shards[q->shard].indptr[q->start], 0, 3);
      if (shards[q->shard].row_eid) __builtin_prefetch(&shards[q->shard].row_eid[q->start], 0, 3);
    }
    a = t->indptr[r];
    b = t->indptr[r + 1];
    if (FO_UNLIKELY(a < 0 || b < a || b > t->n_edges))
      return FO_FAIL(FO_EFORMAT, "part %d: %s[%lld..%lld] = %lld, %lld is not a valid row in [0, %lld]",
                     (int)rs->shard, t->indptr_name, (long long)r, (long long)(r + 1), (long long)a,
                     (long long)b, (long long)t->n_edges);
    if (t->row_eid) {
      /* the row's edge ids row_eid[r] .. + deg - 1, all below the edge-id bound */
      const int64_t id = t->row_eid[r];
      if (FO_UNLIKELY(id < 0 || id > m - (b - a))) return bad_row_eid(s, t, (int)rs->shard, r, id, b - a);
      rs->eoff = id - a;
    }
    rs->start = a;
    rs->deg = b - a;
    total += edges_for(b - a, f, hp->replace);
  }
  *n_out = total;
  return FO_OK;
}

/* Pass A0 over parts whose lookups open's validation covers (PM_EXACT): BOOK is the book's form
 * (0: range bounds, owner by binary search over P + 1 bounds, row = v - bounds[k]; 1 / 2: a
 * uint8 / uint16 array book and its row map, two independent loads), ONE whether only part
 * s->pone is open (a node of another part is refused: the one check left per node; otherwise
 * every part is open), RE whether every part has row_eid. What read_rows_checked tests per
 * node and the validation makes true: the book names a part (book_stray = 0; range bounds
 * always do), the row is below the part's row count (every open part's rows equal the book's
 * count for it, and the row map counts the part's nodes below v), the part is open. The row's
 * bounds and first edge id come from the part's own files and stay checked per row. */
/* read_rows_exact's first sweep for node i: its part and row (no check but ONE's). */
static inline __attribute__((always_inline)) int exact_owner(const fo_dataset_t *d, const void *book,
                                                             const uint32_t *brow, int64_t v,
                                                             rowspan *rs, const int BOOK,
                                                             const bool ONE, int one) {
  int64_t r;
  int k;
  if (BOOK == 0) {
    k = fo__owner(d, v);
    r = v - d->bounds[k];
  } else {
    k = BOOK == 1 ? ((const uint8_t *)book)[v] : ((const uint16_t *)book)[v];
    r = (int64_t)brow[v];
  }
  if (ONE && FO_UNLIKELY(k != one))
    return FO_FAIL(FO_EINVAL, "node %lld belongs to part %d, which is not open here", (long long)v, k);
  rs->shard = k;
  rs->start = r;
  return FO_OK;
}

/* read_rows_exact's second sweep for one row: its bounds (and first edge id) in its part,
 * checked; returns its edge count in *k or an error. */
static inline __attribute__((always_inline)) int exact_bounds(const fo_sampler_t *s, rowspan *rs,
                                                              const fo_topology *t, int64_t m,
                                                              const bool RE) {
  const int64_t r = rs->start;
  const int64_t a = t->indptr[r], b = t->indptr[r + 1];
  /* 0 <= a <= b <= n_edges as two unsigned compares (a negative a or b is above either) */
  if (FO_UNLIKELY((uint64_t)a > (uint64_t)b || (uint64_t)b > (uint64_t)t->n_edges))
    return FO_FAIL(FO_EFORMAT, "part %d: %s[%lld..%lld] = %lld, %lld is not a valid row in [0, %lld]",
                   (int)rs->shard, t->indptr_name, (long long)r, (long long)(r + 1), (long long)a,
                   (long long)b, (long long)t->n_edges);
  if (RE) {
    /* 0 <= id <= m - deg as one unsigned compare: deg <= the part's n_edges <= m (parts_modes
     * requires it), so m - deg >= 0 */
    const int64_t id = t->row_eid[r];
    if (FO_UNLIKELY((uint64_t)id > (uint64_t)(m - (b - a)))) return bad_row_eid(s, t, (int)rs->shard, r, id, b - a);
    rs->eoff = id - a;
  }
  rs->start = a;
  rs->deg = b - a;
  return FO_OK;
}

static inline __attribute__((always_inline)) int read_rows_exact(fo_sampler_t *s, const fo_batch_t *out,
                                                                 int64_t fb, int64_t fe,
                                                                 const hop_params *hp, int64_t *n_out,
                                                                 const int BOOK, const bool ONE,
                                                                 const bool RE) {
  const fo_dataset_t *d = s->pbook;
  const fo_topology *shards = s->pshards;
  const int32_t f = hp->fanout;
  const bool replace = hp->replace;
  const int64_t *node = out->node, m = s->pwhole->n_edges;
  const void *book = BOOK ? d->book->data : NULL;
  const uint32_t *brow = d->book_row;
  const int one = s->pone;
  /* each sweep in two loops: up to fp, prefetching PF_PTR nodes ahead without a bound check,
   * then the rest */
  const int64_t fp = fe - fb > PF_PTR ? fe - PF_PTR : fb;
  rowspan *rows = s->rows; /* rows[i - fb] for frontier node i */
  int64_t total = 0, i;
  int rc;
  for (i = fb; i < fp; i++) {
    if (BOOK) {
      const int64_t q = node[i + PF_PTR];
      __builtin_prefetch((const char *)book + q * BOOK, 0, 3);
      __builtin_prefetch(&brow[q], 0, 3);
    }
    if ((rc = exact_owner(d, book, brow, node[i], &rows[i - fb], BOOK, ONE, one)) != FO_OK) return rc;
  }
  for (; i < fe; i++)
    if ((rc = exact_owner(d, book, brow, node[i], &rows[i - fb], BOOK, ONE, one)) != FO_OK) return rc;
  for (i = fb; i < fp; i++) {
    rowspan *rs = &rows[i - fb];
    const rowspan *q = &rows[i - fb + PF_PTR];
    const fo_topology *tq = &shards[ONE ? one : q->shard];
    __builtin_prefetch(&tq->indptr[q->start], 0, 3);
    if (RE) __builtin_prefetch(&tq->row_eid[q->start], 0, 3);
    if ((rc = exact_bounds(s, rs, &shards[ONE ? one : rs->shard], m, RE)) != FO_OK) return rc;
    total += edges_for(rs->deg, f, replace);
  }
  for (; i < fe; i++) {
    rowspan *rs = &rows[i - fb];
    if ((rc = exact_bounds(s, rs, &shards[ONE ? one : rs->shard], m, RE)) != FO_OK) return rc;
    total += edges_for(rs->deg, f, replace);
  }
  *n_out = total;
  return FO_OK;
}

/* Pass A0 over a dataset of one part with row_eid (PM_SOLE): node v is row v of part 0 (the
 * book gives the part every node, and its rows equal their count), so this is read_rows with
 * the row's first edge id, one sweep. */
static int read_rows_sole(fo_sampler_t *s, const fo_batch_t *out, int64_t fb, int64_t fe,
                          const hop_params *hp, int64_t *n_out) {
  const fo_topology *t = &s->pshards[0];
  const int64_t *indptr = t->indptr, *reid = t->row_eid, *node = out->node, m = s->pwhole->n_edges;
  const uint64_t ne = (uint64_t)t->n_edges;
  const int32_t f = hp->fanout;
  const bool replace = hp->replace;
  rowspan *rows = s->rows;
  int64_t total = 0;
  for (int64_t i = fb; i < fe; i++) {
    const int64_t v = node[i];
    int64_t a, b, id;
    rowspan *rs = &rows[i - fb];
    if (i + PF_PTR < fe) {
      const int64_t q = node[i + PF_PTR];
      __builtin_prefetch(&indptr[q], 0, 3);
      __builtin_prefetch(&reid[q], 0, 3);
    }
    a = indptr[v];
    b = indptr[v + 1];
    if (FO_UNLIKELY((uint64_t)a > (uint64_t)b || (uint64_t)b > ne))
      return FO_FAIL(FO_EFORMAT, "part 0: %s[%lld..%lld] = %lld, %lld is not a valid row in [0, %lld]",
                     t->indptr_name, (long long)v, (long long)(v + 1), (long long)a, (long long)b,
                     (long long)t->n_edges);
    id = reid[v];
    /* as in read_rows_exact: m - deg >= 0 (parts_modes), one unsigned compare */
    if (FO_UNLIKELY((uint64_t)id > (uint64_t)(m - (b - a)))) return bad_row_eid(s, t, 0, v, id, b - a);
    rs->shard = 0;
    rs->eoff = id - a;
    rs->start = a;
    rs->deg = b - a;
    total += edges_for(b - a, f, replace);
  }
  *n_out = total;
  return FO_OK;
}

/* Pass A0 over the current edge type's parts (parts_select): the exact variant of its mode, or
 * the checked one. Returns the hop's edge count in *n_out. */
static int read_rows_sharded(fo_sampler_t *s, const fo_batch_t *out, int64_t fb, int64_t fe,
                             const hop_params *hp, int64_t *n_out) {
  s->runs = -1; /* until choose_positions records the rows' edge counts */
  if (s->pmode & PM_SOLE) return read_rows_sole(s, out, fb, fe, hp, n_out);
  switch (s->pmode) {
  case PM_EXACT | PM_U8 | PM_RE: return read_rows_exact(s, out, fb, fe, hp, n_out, 1, false, true);
  case PM_EXACT | PM_U8 | PM_RE | PM_ONE: return read_rows_exact(s, out, fb, fe, hp, n_out, 1, true, true);
  case PM_EXACT | PM_U16 | PM_RE: return read_rows_exact(s, out, fb, fe, hp, n_out, 2, false, true);
  case PM_EXACT | PM_U16 | PM_RE | PM_ONE: return read_rows_exact(s, out, fb, fe, hp, n_out, 2, true, true);
  case PM_EXACT | PM_RE: return read_rows_exact(s, out, fb, fe, hp, n_out, 0, false, true);
  case PM_EXACT | PM_RE | PM_ONE: return read_rows_exact(s, out, fb, fe, hp, n_out, 0, true, true);
  case PM_EXACT | PM_U8: return read_rows_exact(s, out, fb, fe, hp, n_out, 1, false, false);
  case PM_EXACT | PM_U8 | PM_ONE: return read_rows_exact(s, out, fb, fe, hp, n_out, 1, true, false);
  case PM_EXACT | PM_U16: return read_rows_exact(s, out, fb, fe, hp, n_out, 2, false, false);
  case PM_EXACT | PM_U16 | PM_ONE: return read_rows_exact(s, out, fb, fe, hp, n_out, 2, true, false);
  case PM_EXACT: return read_rows_exact(s, out, fb, fe, hp, n_out, 0, false, false);
  case PM_EXACT | PM_ONE: return read_rows_exact(s, out, fb, fe, hp, n_out, 0, true, false);
  default: return read_rows_checked(s, out, fb, fe, hp, n_out);
  }
}

/* Pass A2 over a partitioned dataset: neighbors and global edge ids from each edge's part
 * (all parts share one index width IB and edge-id width EB). The kernels emit a row's edges
 * together, so the part's arrays are looked up when the row changes, not per edge; two cursors,
 * the gather and its prefetch PF_GATHER edges ahead, each keep their own row (any order of col
 * stays correct, only slower). Used after the kernels that do not record rows[].n (weighted,
 * temporal last) and over parts without row_eid; otherwise gather_runs. */
static inline __attribute__((always_inline)) int gather_sharded(fo_sampler_t *s, fo_batch_t *out,
                                                                int64_t fb, int64_t e0, int64_t e1,
                                                                const int IB, const int EB) {
  int64_t *row = out->row, *edge = out->edge;
  const int64_t *col = out->col;
  const uint64_t n = (uint64_t)s->pwhole->n_nodes, m = (uint64_t)s->pwhole->n_edges;
  const fo_topology *sh = s->pshards, *t = NULL;
  const rowspan *rows = s->rows;
  const char *ix = NULL, *eid = NULL, *qix = NULL, *qeid = NULL;
  int64_t cur = -1, qcur = -1, eoff = 0;
  for (int64_t e = e0; e < e1; e++) {
    int64_t p = edge[e], u, id;
    if (e + PF_GATHER < e1) {
      const int64_t qc = col[e + PF_GATHER], q = edge[e + PF_GATHER];
      if (qc != qcur) {
        const fo_topology *tq = &sh[rows[qc - fb].shard];
        qcur = qc;
        qix = tq->indices;
        qeid = tq->row_eid ? NULL : tq->eid;
      }
      __builtin_prefetch(qix + q * IB, 0, 3);
      if (qeid) __builtin_prefetch(qeid + q * EB, 0, 3);
    }
    if (col[e] != cur) {
      cur = col[e];
      t = &sh[rows[cur - fb].shard];
      ix = t->indices;
      eid = t->row_eid ? NULL : t->eid; /* row_eid: ids by offset, checked per row in pass A0 */
      eoff = rows[cur - fb].eoff;
    }
    u = load_ix(ix, IB, p);
    if (FO_UNLIKELY((uint64_t)u >= n)) return bad_index(t, p, u);
    if (eid) {
      id = load_ix(eid, EB, p);
      if (FO_UNLIKELY((uint64_t)id >= m)) return bad_eid(t, p, id);
    } else {
      id = p + eoff;
    }
    row[e] = u;
    edge[e] = id;
  }
  return FO_OK;
}

/* Pass A2 row by row, after choose_positions recorded each row's edge count (rows[].n, the
 * frontier's nr rows in order, their edges from e0 on) over parts that all have row_eid: per
 * edge one index load, its check and two stores (neighbor, position + the row's edge-id
 * offset); the part's arrays once per row. ONE (a single part: PM_ONE, PM_SOLE): the plain
 * gather's prefetch PF_GATHER edges ahead in that part; else the prefetch walks whole rows
 * ahead, each in its own part, until it is PF_GATHER edges past the
 * row being gathered (both read positions not yet overwritten). */
static inline __attribute__((always_inline)) int gather_runs(fo_sampler_t *s, fo_batch_t *out,
                                                             int64_t e0, int64_t e1, int64_t nr,
                                                             const int IB, const bool ONE) {
  int64_t *row = out->row, *edge = out->edge;
  const uint64_t n = (uint64_t)s->pwhole->n_nodes;
  const fo_topology *sh = s->pshards;
  const rowspan *rows = s->rows;
  const int pone = (s->pmode & PM_SOLE) ? 0 : s->pone;
  const char *const ix1 = ONE ? sh[pone].indices : NULL;
  int64_t e = e0, qe = e0, qi = 0;
  for (int64_t i = 0; i < nr; i++) {
    const rowspan *rs = &rows[i];
    const int64_t end = e + rs->n, eoff = rs->eoff;
    const char *ix = ONE ? ix1 : sh[rs->shard].indices;
    if (ONE) {
      /* one part: the plain gather's prefetch, PF_GATHER edges ahead */
      for (; e < end; e++) {
        const int64_t p = edge[e], u = load_ix(ix, IB, p);
        if (e + PF_GATHER < e1) __builtin_prefetch(ix + edge[e + PF_GATHER] * IB, 0, 3);
        if (FO_UNLIKELY((uint64_t)u >= n)) return bad_index(&sh[pone], p, u);
        row[e] = u;
        edge[e] = p + eoff;
      }
      continue;
    }
    for (; qi < nr && qe < end + PF_GATHER; qi++) {
      const char *qix = sh[rows[qi].shard].indices;
      for (const int64_t qend = qe + rows[qi].n; qe < qend; qe++) __builtin_prefetch(qix + edge[qe] * IB, 0, 3);
    }
    for (; e < end; e++) {
      const int64_t p = edge[e], u = load_ix(ix, IB, p);
      if (FO_UNLIKELY((uint64_t)u >= n)) return bad_index(&sh[rs->shard], p, u);
      row[e] = u;
      edge[e] = p + eoff;
    }
  }
  return FO_OK;
}

static int gather_sharded_any(fo_sampler_t *s, fo_batch_t *out, int64_t fb, int64_t e0, int64_t e1) {
  const int first = fo__first_part_index(s->d);
  const int ib = s->pshards[first].indices_bytes, eb = s->pshards[first].eid_bytes;
  const int64_t runs = s->runs;
  s->runs = -1;
  if (runs >= 0 && (s->pmode & (PM_EXACT | PM_RE)) == (PM_EXACT | PM_RE)) {
    /* the kernel's rows, in order, from e0 (its edges end at e1) */
    const bool one = (s->pmode & (PM_ONE | PM_SOLE)) != 0;
    (void)fb;
    if (ib == 4) return one ? gather_runs(s, out, e0, e1, runs, 4, true) : gather_runs(s, out, e0, e1, runs, 4, false);
    return one ? gather_runs(s, out, e0, e1, runs, 8, true) : gather_runs(s, out, e0, e1, runs, 8, false);
  }
  if (ib == 4 && eb == 4) return gather_sharded(s, out, fb, e0, e1, 4, 4);
  if (ib == 4 && eb == 8) return gather_sharded(s, out, fb, e0, e1, 4, 8);
  if (ib == 8 && eb == 4) return gather_sharded(s, out, fb, e0, e1, 8, 4);
  return gather_sharded(s, out, fb, e0, e1, 8, 8);
}

static int read_rows(fo_sampler_t *s, const fo_topology *t, const fo_batch_t *out, int64_t fb,
                     int64_t fe, const hop_params *hp, int64_t *n_out) {
  const int64_t *indptr = t->indptr, *node = out->node;
  const int32_t f = hp->fanout;
  int64_t total = 0;
  for (int64_t i = fb; i < fe; i++) {
    int64_t v = node[i], a, b;
    if (i + PF_PTR < fe) __builtin_prefetch(&indptr[node[i + PF_PTR]], 0, 3);
    a = indptr[v];
    b = indptr[v + 1];
    if (FO_UNLIKELY(a < 0 || b < a || b > t->n_edges))
      return FO_FAIL(FO_EFORMAT, "%s[%lld..%lld] = %lld, %lld is not a valid row in [0, %lld]",
                     t->indptr_name, (long long)v, (long long)(v + 1), (long long)a, (long long)b,
                     (long long)t->n_edges);
    s->rows[i - fb].start = a;
    s->rows[i - fb].deg = b - a;
    total += edges_for(b - a, f, hp->replace);
  }
  *n_out = total;
  return FO_OK;
}

/*
 * Row sources: where the rows of one edge type live. `rows` is pass A0 (bounds of the
 * frontier's rows, checked, and the hop's edge count), `gather` pass A2 (neighbor ids and edge
 * ids at the positions the kernel chose). A local CSC/CSR and the parts of a partitioned
 * dataset opened in this process are the two here; another machine is the dist layer's
 * fo__remote, used by dist_hop for the parts this process does not hold.
 */
typedef struct row_source {
  int (*rows)(fo_sampler_t *s, const fo_topology *t, const fo_batch_t *fr, int64_t fb, int64_t fe,
              const hop_params *hp, int64_t *n_out);
  int (*gather)(fo_sampler_t *s, const fo_topology *t, fo_batch_t *eb, int64_t fb, int64_t e0,
                int64_t e1);
} row_source;

static int local_gather(fo_sampler_t *s, const fo_topology *t, fo_batch_t *eb, int64_t fb,
                        int64_t e0, int64_t e1) {
  (void)fb;
  return gather_any(t, eb, e0, e1);
}

/* The parts of edge type et (t = &s->topos[et]) for the passes that follow. */
static void parts_select(fo_sampler_t *s, int32_t et) {
  s->pbook = s->ebook ? s->ebook[et] : s->d;
  s->pshards = s->shards + (size_t)et * (size_t)s->n_shards;
  s->pwhole = &s->topos[et];
  s->pmode = s->pmodes[et];
}

static int parts_rows(fo_sampler_t *s, const fo_topology *t, const fo_batch_t *fr, int64_t fb,
                      int64_t fe, const hop_params *hp, int64_t *n_out) {
  parts_select(s, (int32_t)(t - s->topos)); /* every part's topology is in s->shards */
  return read_rows_sharded(s, fr, fb, fe, hp, n_out);
}

static int parts_gather(fo_sampler_t *s, const fo_topology *t, fo_batch_t *eb, int64_t fb,
                        int64_t e0, int64_t e1) {
  parts_select(s, (int32_t)(t - s->topos));
  return gather_sharded_any(s, eb, fb, e0, e1);
}

static const row_source LOCAL_ROWS = {read_rows, local_gather};
static const row_source PART_ROWS = {parts_rows, parts_gather};

/* ---- ineligible positions (fo__exclusion) -------------------------------------------------
 * Before the kernel: every frontier row of edge type et holding x ineligible positions inside
 * its bounds [start, start + deg) is shortened to deg - x (the hop's edge count follows) and
 * remembered; after the kernel, remap_excluded maps each pick of such a row past the ineligible
 * positions (the j-th eligible position of the row for a pick at offset j), keeping the
 * kernel's loop free of the rule. */
void fo__sampler_set_exclusion(fo_sampler_t *s, const fo__exclusion *x) { s->excl = x; }

static int exclude_rows(fo_sampler_t *s, int32_t et, const fo_batch_t *fr, int64_t fb, int64_t fe,
                        const hop_params *hp, int64_t *n_new) {
  const fo__exclusion *x = s->excl;
  const int64_t nr = x->n_rows[et], *rn = x->row_node[et], *off = x->off[et], *pos = x->pos[et];
  uint64_t *bits;
  uint64_t top;
  int rc = FO_OK;
  s->n_xl = 0;
  s->runs = -1; /* remap_pos walks rows[].n only when the kernel (choose_positions) records it */
  if (!nr) return FO_OK;
  /* A bitmap of the excluded rows' nodes (rn is sorted, its last the largest), set here and
   * cleared before returning: most frontier nodes are no excluded row (temporal link sampling
   * looks every node of every hop up), and one bit says so where a binary search over the
   * rows took ~20 instructions. */
  top = (uint64_t)rn[nr - 1];
  if ((int64_t)(top >> 6) + 1 > s->cap_xbits) {
    free(s->xbits);
    s->cap_xbits = 0;
    if (!(s->xbits = calloc((size_t)(top >> 6) + 1, sizeof *s->xbits)))
      return FO_FAIL(FO_ENOMEM, "sampler scratch: exclusion bitmap of %lld nodes", (long long)top + 1);
    s->cap_xbits = (int64_t)(top >> 6) + 1;
  }
  bits = s->xbits;
  for (int64_t k = 0; k < nr; k++) bits[(uint64_t)rn[k] >> 6] |= (uint64_t)1 << ((uint64_t)rn[k] & 63);
  for (int64_t i = fb; i < fe; i++) {
    const int64_t v = fr->node[i];
    int64_t lo = 0, len = nr, a, b;
    rowspan *r = &s->rows[i - fb];
    if ((uint64_t)v > top || !((bits[(uint64_t)v >> 6] >> ((uint64_t)v & 63)) & 1)) continue;
    /* the last row node <= v, without a branch per step */
    while (len > 1) {
      const int64_t half = len / 2;
      lo = rn[lo + half] <= v ? lo + half : lo;
      len -= half;
    }
    assert(rn[lo] == v); /* the bit is set for row nodes only */
    /* the ineligible positions inside the row's bounds */
    for (a = off[lo]; a < off[lo + 1] && pos[a] < r->start; a++) {}
    for (b = a; b < off[lo + 1] && pos[b] < r->start + r->deg; b++) {}
    if (a == b) continue;
    if ((rc = fo__grow(&s->xl, &s->cap_xl, s->n_xl + 1, sizeof *s->xl, "sampler scratch")) != FO_OK)
      break;
    *n_new -= edges_for(r->deg, hp->fanout, hp->replace) -
              edges_for(r->deg - (b - a), hp->fanout, hp->replace);
    r->deg -= b - a;
    s->xl[s->n_xl++] = (struct xrow){i, a, b - a, r->start};
  }
  for (int64_t k = 0; k < nr; k++) bits[(uint64_t)rn[k] >> 6] = 0;
  return rc;
}

/* exclude_rows for a one-hop request's own positions (req->xcount, fo__sampler_hop). */
static int exclude_req(fo_sampler_t *s, const fo__hop_req *req, const hop_params *hp, int64_t *n_new) {
  int rc;
  s->n_xl = 0;
  s->runs = -1; /* as in exclude_rows */
  for (int64_t i = 0, off = 0; i < req->n; off += req->xcount[i], i++) {
    const int64_t c = req->xcount[i], *pos = req->xpos;
    rowspan *r = &s->rows[i];
    int64_t a, b;
    if (!c) continue;
    for (a = off; a < off + c && pos[a] < r->start; a++) {}
    for (b = a; b < off + c && pos[b] < r->start + r->deg; b++) {}
    if (a == b) continue;
    if ((rc = fo__grow(&s->xl, &s->cap_xl, s->n_xl + 1, sizeof *s->xl, "sampler scratch")) != FO_OK)
      return rc;
    *n_new -= edges_for(r->deg, hp->fanout, hp->replace) -
              edges_for(r->deg - (b - a), hp->fanout, hp->replace);
    r->deg -= b - a;
    s->xl[s->n_xl++] = (struct xrow){i, a, b - a, r->start};
  }
  return FO_OK;
}

static void remap_pos(fo_sampler_t *s, const int64_t *pos, fo_batch_t *eb, int64_t fb, int64_t e0,
                      int64_t e1);

static void remap_excluded(fo_sampler_t *s, int32_t et, fo_batch_t *eb, int64_t fb, int64_t e0,
                           int64_t e1) {
  remap_pos(s, s->excl->pos[et], eb, fb, e0, e1);
}

/* Each pick of an excluded row (s->xl) mapped past the row's ineligible positions pos[..]
 * (the frontier rows start at fb). When choose_positions recorded every row's edge count
 * (s->runs >= 0) only the excluded rows' edges are visited, found by those counts, and a row
 * with one ineligible position (the usual case) is remapped without a branch; otherwise the
 * walk goes over every edge's col. */
static void remap_pos(fo_sampler_t *s, const int64_t *pos, fo_batch_t *eb, int64_t fb, int64_t e0,
                      int64_t e1) {
  const int64_t *col = eb->col;
  int64_t *p = eb->edge;
  if (s->runs >= 0) {
    int64_t e = e0, i = fb;
    for (int64_t k = 0; k < s->n_xl; k++) {
      const struct xrow *r = &s->xl[k];
      int64_t n;
      for (; i < r->i; i++) e += s->rows[i - fb].n;
      n = s->rows[i - fb].n;
      if (r->x == 1) {
        const int64_t q = pos[r->p0];
        for (int64_t j = e; j < e + n; j++) p[j] += p[j] >= q;
      } else {
        for (int64_t j = e; j < e + n; j++) {
          int64_t o = p[j];
          for (int64_t q = r->p0; q < r->p0 + r->x && pos[q] <= o; q++) o++;
          p[j] = o;
        }
      }
      e += n;
      i++;
    }
    return;
  }
  for (int64_t e = e0, k = 0; e < e1 && k < s->n_xl; e++) {
    while (k < s->n_xl && s->xl[k].i < col[e]) k++;
    if (k == s->n_xl || s->xl[k].i != col[e]) continue;
    {
      const struct xrow *r = &s->xl[k];
      int64_t o = p[e];
      for (int64_t q = r->p0; q < r->p0 + r->x && pos[q] <= o; q++) o++;
      p[e] = o;
    }
  }
}

/* The ineligible positions of row node v (edge type et): pos[*a, *b) of s->excl, or false. */
static bool excl_find(const fo__exclusion *x, int32_t et, int64_t v, int64_t *a, int64_t *b) {
  const int64_t nr = x->n_rows[et], *rn = x->row_node[et];
  int64_t lo = 0, len = nr;
  if (!nr) return false;
  while (len > 1) {
    const int64_t half = len / 2;
    lo = rn[lo + half] <= v ? lo + half : lo;
    len -= half;
  }
  if (rn[lo] != v) return false;
  *a = x->off[et][lo];
  *b = x->off[et][lo + 1];
  return true;
}

/* Node-time narrowed rows (ranges of s->elig, narrow_node_time): every excluded position of the
 * row's node dropped from its eligible entries, order kept ("last" keeps its time order).
 * O(eligible x excluded) per row holding some, the usual excluded count being 1. */
static int exclude_elig(fo_sampler_t *s, int32_t et, const fo_batch_t *fr, int64_t fb, int64_t fe) {
  const int64_t *pos = s->excl->pos[et];
  for (int64_t i = fb; i < fe; i++) {
    rowspan *r = &s->rows[i - fb];
    int64_t a, b, j = r->start;
    if (!r->deg || !excl_find(s->excl, et, fr->node[i], &a, &b)) continue;
    for (int64_t q = r->start; q < r->start + r->deg; q++) {
      const int64_t p = s->elig[q];
      bool x = false;
      for (int64_t c = a; c < b; c++) x |= pos[c] == p;
      s->elig[j] = p;
      j += !x;
    }
    r->deg = j - r->start;
  }
  return FO_OK;
}

/* Weighted sampling with seed-edge exclusion: an excluded edge is an edge of weight 0. The rows
 * holding excluded positions (exclude_rows finds them inside the rows' bounds, the narrowed ones
 * when temporal) are drawn one by one by the exact pass of choose_weighted_elig over their other
 * positions (prefix sums with replacement, Efraimidis-Spirakis keys without: the law of the
 * weighted kernels over the row with those weights set to 0); the rows between them by `fast`
 * (choose_weighted, choose_weighted_window), unchanged. Edges stay in frontier order. Cost: the
 * exact pass is O(deg) per excluded row (a seed's endpoints), the rest as without exclusion. */
static int weighted_excl(fo_sampler_t *s, const fo_topology *t, const fo_batch_t *fr,
                         fo_batch_t *out, int64_t fb, int64_t fe, const hop_params *hp,
                         choose_fn fast) {
  rowspan *const rows0 = s->rows, *const wrows0 = s->wrows;
  const int64_t *pos = s->excl->pos[hp->etype];
  int64_t unused = 0, prev = fb;
  int rc;
  if ((rc = exclude_rows(s, hp->etype, fr, fb, fe, hp, &unused)) != FO_OK) return rc;
  for (int64_t k = 0; k <= s->n_xl; k++) {
    const int64_t i = k < s->n_xl ? s->xl[k].i : fe;
    if (i > prev) {
      /* the kernels index rows (and wrows) from their first frontier node */
      s->rows = rows0 + (prev - fb);
      if (wrows0) s->wrows = wrows0 + (prev - fb);
      rc = fast(s, t, fr, out, prev, i, hp);
      s->rows = rows0;
      s->wrows = wrows0;
      if (rc != FO_OK) break;
    }
    if (k == s->n_xl) break;
    {
      const struct xrow *x = &s->xl[k];
      const rowspan *r = &rows0[i - fb];
      const int64_t full = r->deg + x->x, e1 = out->n_edges; /* exclude_rows shortened deg */
      rowspan one = *r;
      int64_t j = 0;
      if ((rc = fo__grow(&s->elig, &s->cap_elig, full + 1, sizeof *s->elig, "sampler scratch")) != FO_OK)
        break;
      for (int64_t p = r->start, q = x->p0; p < r->start + full; p++) {
        if (q < x->p0 + x->x && pos[q] == p) {
          q++;
          continue;
        }
        s->elig[j++] = p;
      }
      one.start = 0;
      one.deg = j;
      s->rows = &one;
      rc = choose_weighted_elig(s, t, fr, out, i, i + 1, hp);
      s->rows = rows0;
      if (rc != FO_OK) break;
      for (int64_t e = e1; e < out->n_edges; e++) out->edge[e] = s->elig[out->edge[e]];
    }
    prev = i + 1;
  }
  s->n_xl = 0; /* nothing left to remap */
  s->runs = -1;
  return rc;
}

/* Pass B: map the global ids in row[eb..ee) to local ids, appending new nodes. */
/* `nb` receives the new nodes (the neighbors' node type), `fr` is the frontier's (col's) node
 * type, whose trees the neighbors join in disjoint mode, and `out` holds the edges. */
static int induce(fo__idmap *map, bool disjoint, fo_batch_t *nb, const fo_batch_t *fr,
                  fo_batch_t *out, int64_t eb, int64_t ee, int64_t n_seeds) {
  int64_t *row = out->row, *node = nb->node;
  int64_t N = nb->n_nodes;
  if (map->dense) {
    /* Dense layout, branch-free: whether a neighbor is new is a coin flip to the branch
     * predictor, and every mispredict would throw away the loads in flight. The entry and
     * node[N] are written unconditionally (node has one slot of slack for that). */
    uint32_t *dense = map->dense;
    for (int64_t e = eb; e < ee; e++) {
      int64_t u = row[e], l, local;
      bool hit;
      if (e + PF_MAP < ee) __builtin_prefetch(&dense[row[e + PF_MAP]], 1, 1);
      l = dense[u];
      hit = (l < N) & (node[l < N ? l : N] == u);
      local = hit ? l : N;
      dense[u] = (uint32_t)local;
      node[N] = u;
      N += !hit;
      row[e] = local;
    }
  } else if (!disjoint) {
    for (int64_t e = eb; e < ee; e++) {
      int64_t u = row[e];
      bool ins;
      uint32_t local;
      if (e + PF_MAP < ee) fo__idmap_prefetch(map, row[e + PF_MAP]);
      local = fo__idmap_insert(map, u, (uint32_t)N, node, &ins);
      if (ins) node[N++] = u;
      row[e] = local;
    }
  } else {
    const int64_t *col = out->col, *ftree = fr->batch;
    int64_t *bat = nb->batch;
    for (int64_t e = eb; e < ee; e++) {
      int64_t u = row[e], tree = ftree[col[e]], key = u * n_seeds + tree;
      bool ins;
      uint32_t local;
      if (e + PF_MAP < ee) fo__idmap_prefetch(map, row[e + PF_MAP] * n_seeds + ftree[col[e + PF_MAP]]);
      local = fo__idmap_insert(map, key, (uint32_t)N, node, &ins);
      if (ins) {
        node[N] = u;
        bat[N] = tree;
        N++;
      }
      row[e] = local;
    }
  }
  nb->n_nodes = N;
  return FO_OK;
}

int fo__sampler_set_remote(fo_sampler_t *s, const fo__remote *r, int32_t local_part) {
  const fo_dataset_t *d = s->d;
  if (!d->n_parts || local_part < 0 || local_part >= d->n_parts || !d->parts[local_part])
    return FO_FAIL(FO_EINVAL, "distributed sampling needs a partitioned dataset with part %d open",
                   (int)local_part);
  if (!(s->cursor = calloc((size_t)d->n_parts, sizeof *s->cursor)) ||
      !(s->gcount = calloc((size_t)d->n_parts, sizeof *s->gcount)) ||
      !(s->reqs = calloc((size_t)d->n_parts, sizeof *s->reqs)) ||
      !(s->res = calloc((size_t)d->n_parts, sizeof *s->res)) ||
      !(s->by_part = calloc((size_t)d->n_parts, sizeof *s->by_part)))
    return FO_FAIL(FO_ENOMEM, "distributed sampler");
  if (fo_batch_create(&s->scratch) != FO_OK) return FO_FAIL(FO_ENOMEM, "distributed sampler");
  if (s->typed) {
    fo__dist_typed *ty = &s->ty;
    const size_t EP = (size_t)s->n_etypes * (size_t)d->n_parts, E = (size_t)s->n_etypes;
    if (!(ty->off = calloc(E, sizeof *ty->off)) || !(ty->count = calloc(EP, sizeof *ty->count)) ||
        !(ty->start = calloc(EP, sizeof *ty->start)) || !(ty->by = calloc(EP, sizeof *ty->by)) ||
        !(ty->reqs = calloc(EP, sizeof *ty->reqs)) || !(ty->res = calloc(EP, sizeof *ty->res)) ||
        !(ty->req_group = calloc(EP, sizeof *ty->req_group)) ||
        !(ty->local = calloc(E, sizeof *ty->local)) ||
        !(ty->scratch = calloc(E, sizeof *ty->scratch)) ||
        !(ty->lcounts = calloc(E, sizeof *ty->lcounts)) ||
        !(ty->cap_lcounts = calloc(E, sizeof *ty->cap_lcounts)))
      return FO_FAIL(FO_ENOMEM, "distributed sampler");
    for (size_t et = 0; et < E; et++)
      if (fo_batch_create(&ty->scratch[et]) != FO_OK) return FO_FAIL(FO_ENOMEM, "distributed sampler");
  }
  s->remote = *r;
  s->local_part = local_part;
  s->dist = true;
  /* typed over one part that holds every node of every type (fo__sole_part of each node type's
   * book, O(types)): nothing is remote, so the hops run as over in-process parts (the same
   * passes and batches) instead of packing groups for dist_hops_typed; the one-type sampler's
   * dist_hop has the same shortcut per hop (all_local) */
  s->dist_sole = s->typed && d->n_parts == 1 && local_part == 0;
  for (int32_t t = 0; s->dist_sole && t < fo_dataset_num_node_types(d); t++)
    s->dist_sole = fo__sole_part(fo_dataset_node_data(d, t));
  return FO_OK;
}

/* What a one-hop request's mode needs of the part answering it: weights, edge times in the
 * sampled direction, or the neighbors' node times; a temporal request names its times. */
static int hop_mode_check(const fo_sampler_t *s, const fo__hop_req *req) {
  const fo_topology *sh = &s->pshards[req->part];
  const fo_dataset_t *d = s->d;
  fo_edge_type ty;
  fo_dataset_edge_type(d, req->etype, &ty);
  if ((unsigned)req->temporal > FO_TEMPORAL_LAST || req->window < -1 ||
      (req->temporal && (!req->times || !req->disjoint)) ||
      (req->temporal && req->weighted &&
       (req->temporal == FO_TEMPORAL_LAST || (req->time_node && !s->topos[req->etype].rows_by_node_time))))
    return FO_FAIL(FO_EINVAL, "one-hop request: temporal mode %d (window %lld, %s, %s): not one "
                   "this kernel answers", (int)req->temporal, (long long)req->window,
                   req->times ? "times" : "no times", req->weighted ? "weighted" : "unweighted");
  if (req->weighted && !sh->weight)
    return FO_FAIL(FO_EINVAL, "weighted one-hop request, but part %d of '%s'%s%s%s stores no edge "
                   "weights (import with --edge-weight, then partition)", (int)req->part, d->path,
                   s->typed ? " (edge type '" : "", s->typed ? ty.name : "", s->typed ? "')" : "");
  if (req->temporal && !req->time_node && !sh->time)
    return FO_FAIL(FO_EINVAL, "edge-time temporal one-hop request, but part %d of '%s'%s%s%s "
                   "stores no edge times (import with --edge-time or --time-col, then partition)",
                   (int)req->part, d->path, s->typed ? " (edge type '" : "", s->typed ? ty.name : "",
                   s->typed ? "')" : "");
  if (req->temporal && req->time_node && !s->ntype_time[s->nbr_t[req->etype]])
    return FO_FAIL(FO_EINVAL, "node-time temporal one-hop request, but '%s' has no node times%s%s%s "
                   "(import with --node-time, then partition)", d->path,
                   s->typed ? " for node type '" : "",
                   s->typed ? fo_dataset_node_type_name(d, s->nbr_t[req->etype]) : "",
                   s->typed ? "'" : "");
  return FO_OK;
}

/* req_exclusion's order: by node id, then request index. */
static int cmp_rx(const void *a, const void *b) {
  const struct rxkey *x = a, *y = b;
  if (x->node != y->node) return x->node < y->node ? -1 : 1;
  return (x->i > y->i) - (x->i < y->i);
}

/* A weighted or temporal one-hop request's excluded positions (req->xcount, xpos) as the
 * exclusion table s->rx of its edge type (rows ascending, one per distinct node: a node that
 * comes several times, in disjoint trees, has the same positions each time), so that the
 * kernels of the single-process driver apply them (kx). */
static int req_exclusion(fo_sampler_t *s, const fo__hop_req *req) {
  const int32_t E = s->n_etypes > 0 ? s->n_etypes : 1;
  int64_t m = 0, nr = 0, np = 0;
  int rc;
  if ((!s->rx_n && !(s->rx_n = calloc((size_t)E, sizeof *s->rx_n))) ||
      (!s->rx_nodep && !(s->rx_nodep = calloc((size_t)E, sizeof *s->rx_nodep))) ||
      (!s->rx_offp && !(s->rx_offp = calloc((size_t)E, sizeof *s->rx_offp))) ||
      (!s->rx_posp && !(s->rx_posp = calloc((size_t)E, sizeof *s->rx_posp))))
    return FO_FAIL(FO_ENOMEM, "sampler scratch");
  if ((rc = fo__grow(&s->rx_key, &s->cap_rx_key, req->n + 1, sizeof *s->rx_key, "sampler scratch")) != FO_OK ||
      (rc = fo__grow(&s->rx_node, &s->cap_rx_node, req->n + 1, sizeof *s->rx_node, "sampler scratch")) != FO_OK ||
      (rc = fo__grow(&s->rx_off, &s->cap_rx_off, req->n + 2, sizeof *s->rx_off, "sampler scratch")) != FO_OK)
    return rc;
  /* the nodes holding some, with their first position in xpos */
  for (int64_t i = 0, at = 0; i < req->n; at += req->xcount[i], i++)
    if (req->xcount[i]) s->rx_key[m++] = (struct rxkey){req->nodes[i], i, at};
  if (m > 1) qsort(s->rx_key, (size_t)m, sizeof *s->rx_key, cmp_rx);
  s->rx_off[0] = 0;
  for (int64_t q = 0; q < m; q++) {
    const int64_t i = s->rx_key[q].i, c = req->xcount[i];
    if (nr && s->rx_node[nr - 1] == req->nodes[i]) continue;
    if ((rc = fo__grow(&s->rx_pos, &s->cap_rx_pos, np + c + 1, sizeof *s->rx_pos, "sampler scratch")) != FO_OK)
      return rc;
    memcpy(s->rx_pos + np, req->xpos + s->rx_key[q].at, (size_t)c * sizeof *s->rx_pos);
    np += c;
    s->rx_node[nr++] = req->nodes[i];
    s->rx_off[nr] = np;
  }
  memset(s->rx_n, 0, (size_t)E * sizeof *s->rx_n);
  s->rx_n[req->etype] = nr;
  s->rx_nodep[req->etype] = s->rx_node;
  s->rx_offp[req->etype] = s->rx_off;
  s->rx_posp[req->etype] = s->rx_pos;
  s->rx.row_node = s->rx_nodep;
  s->rx.off = s->rx_offp;
  s->rx.pos = s->rx_posp;
  s->rx.n_rows = s->rx_n;
  return FO_OK;
}

int fo__sampler_hop(fo_sampler_t *s, const fo__hop_req *req, fo_batch_t *sb, fo__hop_res *res) {
  const hop_params hp = {req->hop, req->etype, req->fanout, req->replace, req->disjoint, req->seed,
                         req->epoch, req->batch};
  int64_t total = 0, n_front;
  int rc;
  memset(res, 0, sizeof *res);
  if (!s->shards) return FO_FAIL(FO_EINVAL, "one-hop kernel: the dataset is not partitioned");
  if (req->n < 0 || req->fanout < -1 || req->hop < 0 || req->hop >= MAX_HOPS)
    return FO_FAIL(FO_EINVAL, "one-hop request: %lld nodes, fanout %d, hop %d", (long long)req->n,
                   (int)req->fanout, (int)req->hop);
  if (req->etype < 0 || req->etype >= s->n_etypes || req->out != (s->dir == FO_EDGE_DIR_OUT))
    return FO_FAIL(FO_EINVAL, "one-hop request: edge type %d (of %d), edge_dir %s: not this "
                   "kernel's", (int)req->etype, (int)s->n_etypes, req->out ? "out" : "in");
  parts_select(s, req->etype); /* the book of the frontier's node type, the edge type's parts */
  n_front = s->pbook->n_nodes;
  for (int64_t i = 0; i < req->n; i++) {
    int64_t v = req->nodes[i];
    if (v < 0 || v >= n_front || fo__owner(s->pbook, v) != req->part)
      return FO_FAIL(FO_EINVAL, "one-hop request for part %d: node %lld (index %lld) is %s",
                     (int)req->part, (long long)v, (long long)i,
                     v < 0 || v >= n_front ? "not a node id" : "owned by another part");
  }
  sb->n_seeds = sb->n_nodes = sb->n_edges = 0;
  if ((rc = batch_nodes(sb, req->n, req->disjoint)) != FO_OK ||
      (rc = fo__grow(&s->rows, &s->cap_rows, req->n, sizeof *s->rows, "sampler scratch")) != FO_OK)
    return rc;
  if (req->n) memcpy(sb->node, req->nodes, (size_t)req->n * sizeof *sb->node);
  if (req->disjoint && req->n) memcpy(sb->batch, req->trees, (size_t)req->n * sizeof *sb->batch);
  sb->n_nodes = req->n;
  if ((rc = hop_mode_check(s, req)) != FO_OK) return rc;
  if ((rc = read_rows_sharded(s, sb, 0, req->n, &hp, &total)) != FO_OK) return rc;
  s->n_xl = 0;
  /* excluded positions: uniform rows shortened here, weighted and temporal kernels apply them
   * themselves (kx), as in the single-process driver */
  const bool kx = req->xcount && (req->weighted || req->temporal);
  if (kx && (rc = req_exclusion(s, req)) != FO_OK) return rc;
  if (req->xcount && !kx && (rc = exclude_req(s, req, &hp, &total)) != FO_OK) return rc;
  if ((rc = batch_edges(sb, total)) != FO_OK) return rc;
  {
    const fo__exclusion *x0 = s->excl;
    /* the request's mode: the kernel the asking sampler runs locally (weighted, temporal with
     * the request's per-node times), then this sampler's own mode back */
    const fo_temporal_strategy t0 = s->temporal;
    const bool w0 = s->weighted, n0 = s->time_node, st0 = s->strict;
    const int64_t win0 = s->window;
    s->temporal = (fo_temporal_strategy)req->temporal;
    s->weighted = req->weighted;
    s->time_node = req->time_node;
    s->strict = req->strict;
    s->window = req->window;
    s->req_time = req->times;
    if (kx) {
      s->excl = &s->rx;
      s->kx = true;
    }
    rc = req->temporal ? choose_temporal(s, &s->topos[req->etype], sb, sb, 0, req->n, &hp)
         : kx ? weighted_excl(s, &s->topos[req->etype], sb, sb, 0, req->n, &hp, choose_weighted)
         : req->weighted ? choose_weighted(s, &s->topos[req->etype], sb, sb, 0, req->n, &hp)
                         : choose_positions(s, sb, sb, 0, req->n, &hp);
    s->excl = x0;
    s->kx = false;
    s->temporal = t0;
    s->weighted = w0;
    s->time_node = n0;
    s->strict = st0;
    s->window = win0;
    s->req_time = NULL;
    if (rc == FO_OK && req->xcount && !kx && s->n_xl) remap_pos(s, req->xpos, sb, 0, 0, sb->n_edges);
    if (rc != FO_OK || (rc = gather_sharded_any(s, sb, 0, 0, sb->n_edges)) != FO_OK) return rc;
  }
  /* counts per node from col (edges come node by node) */
  if ((rc = fo__grow(&s->counts, &s->cap_counts, req->n, sizeof *s->counts, "sampler scratch")) != FO_OK)
    return rc;
  if (req->n) memset(s->counts, 0, (size_t)req->n * sizeof *s->counts); /* NULL when n = 0 */
  for (int64_t e = 0; e < sb->n_edges; e++) s->counts[sb->col[e]]++;
  res->n = req->n;
  res->n_edges = sb->n_edges;
  res->counts = s->counts;
  res->nbr = sb->row;
  res->eid = sb->edge;
  return FO_OK;
}

/* A request's mode: the sampler's (times: the nodes' tree times when temporal). */
static void req_mode(const fo_sampler_t *s, fo__hop_req *r, const int64_t *times) {
  r->weighted = s->weighted;
  r->temporal = (int32_t)s->temporal;
  r->time_node = s->time_node;
  r->strict = s->strict;
  r->window = s->window;
  r->times = s->temporal != FO_TEMPORAL_NONE ? times : NULL;
}

/* The ineligible positions (s->excl, edge type et) of nodes[0..n): counts at s->gx_count[at..],
 * positions appended at s->gx_pos[*n_pos..] (a remote hop request carries them). */
static int group_excl(fo_sampler_t *s, int32_t et, const int64_t *nodes, int64_t n, int64_t at,
                      int64_t *n_pos) {
  const fo__exclusion *x = s->excl;
  const int64_t nr = x->n_rows[et], *rn = x->row_node[et], *off = x->off[et], *pos = x->pos[et];
  int rc;
  if ((rc = fo__grow(&s->gx_count, &s->cap_gx_count, at + n + 1, sizeof *s->gx_count, "sampler scratch")) != FO_OK)
    return rc;
  for (int64_t i = 0; i < n; i++) {
    const int64_t v = nodes[i];
    int64_t lo = 0, hi = nr, c = 0;
    while (lo < hi) {
      int64_t mid = lo + (hi - lo) / 2;
      if (rn[mid] < v) lo = mid + 1;
      else hi = mid;
    }
    if (lo < nr && rn[lo] == v) c = off[lo + 1] - off[lo];
    s->gx_count[at + i] = c;
    if (!c) continue;
    if ((rc = fo__grow(&s->gx_pos, &s->cap_gx_pos, *n_pos + c + 1, sizeof *s->gx_pos, "sampler scratch")) != FO_OK)
      return rc;
    memcpy(s->gx_pos + *n_pos, pos + off[lo], (size_t)c * sizeof *pos);
    *n_pos += c;
  }
  return FO_OK;
}

/* One hop of a distributed sampler: the frontier split by owner, the local part's nodes sampled
 * in place, every other part asked once (fo__remote), the results put back together in frontier
 * order: the same edges, in the same order, as the single-process passes append. */
static int dist_hop(fo_sampler_t *s, fo_batch_t *out, int64_t fb, int64_t fe, const hop_params *hp,
                    int64_t *n_new) {
  const fo_dataset_t *d = s->d;
  const int P = d->n_parts;
  const int64_t nf = fe - fb, e0 = out->n_edges;
  /* seed-edge exclusion (link sampling): as the single-process passes apply it (requests carry
   * the positions in every mode; uniform rows are shortened before the kernel, weighted and
   * temporal kernels apply them themselves, kx) */
  const bool excl = s->excl && (hp->hop == 0 || s->disjoint) && s->excl->n_rows[hp->etype] > 0;
  const bool kx = excl && (s->weighted || s->temporal != FO_TEMPORAL_NONE);
  int64_t total = 0, *start;
  int n_req = 0, rc;
  fo__hop_res local;
  memset(&local, 0, sizeof local);
  /* one part holding the whole graph (fo__sole_part: every book entry names it, O(1)): every
   * node is local, so the owner split below would only find that out */
  if (P == 1 && s->local_part == 0 && fo__sole_part(d)) goto all_local;
  if ((rc = fo__grow(&s->group, &s->cap_group, nf + 1, sizeof *s->group, "sampler scratch")) != FO_OK ||
      (rc = fo__grow(&s->fowner, &s->cap_fowner, nf + 1, sizeof *s->fowner, "sampler scratch")) != FO_OK)
    return rc;
  if (hp->disjoint && (rc = fo__grow(&s->group_trees, &s->cap_group_trees, nf + 1,
                                      sizeof *s->group_trees, "sampler scratch")) != FO_OK)
    return rc;
  if (s->temporal != FO_TEMPORAL_NONE &&
      (rc = fo__grow(&s->group_times, &s->cap_group_times, nf + 1, sizeof *s->group_times,
                     "sampler scratch")) != FO_OK)
    return rc;
  /* owners, and the nodes of each part packed in frontier order */
  memset(s->gcount, 0, (size_t)P * sizeof *s->gcount);
  for (int64_t i = fb; i < fe; i++) {
    int k = fo__owner(d, out->node[i]);
    if (FO_UNLIKELY(k < 0 || k >= P))
      return FO_FAIL(FO_EFORMAT, "partition book: node %lld is in part %d of %d",
                     (long long)out->node[i], k, P);
    s->fowner[i - fb] = k;
    s->gcount[k]++;
  }
  if (s->gcount[s->local_part] == nf) {
    /* every node local (one machine, or a hop that stays home): the local part's group is the
     * frontier itself in frontier order, so fo__sampler_hop's passes (the sampler's own kernel:
     * uniform, weighted or temporal) run on `out` directly, without packing the group, asking
     * anyone or copying the answer back */
    int64_t n_out;
  all_local:
    n_out = 0;
    parts_select(s, hp->etype);
    if ((rc = read_rows_sharded(s, out, fb, fe, hp, &n_out)) != FO_OK) return rc;
    s->n_xl = 0;
    if (excl && !kx && (rc = exclude_rows(s, hp->etype, out, fb, fe, hp, &n_out)) != FO_OK) return rc;
    if (n_out > INT64_MAX / 4 - e0) return FO_FAIL(FO_ERANGE, "batch too large: %lld edges", (long long)n_out);
    if ((rc = batch_edges(out, e0 + n_out)) != FO_OK) return rc;
    s->kx = kx;
    rc = kx && s->temporal == FO_TEMPORAL_NONE
             ? weighted_excl(s, &s->topos[hp->etype], out, out, fb, fe, hp, choose_weighted)
             : s->choose(s, &s->topos[hp->etype], out, out, fb, fe, hp);
    s->kx = false;
    if (rc != FO_OK) return rc;
    if (excl && !kx && s->n_xl) remap_excluded(s, hp->etype, out, fb, e0, out->n_edges);
    if ((rc = gather_sharded_any(s, out, fb, e0, out->n_edges)) != FO_OK) return rc;
    *n_new = out->n_edges - e0;
    return FO_OK;
  }
  start = s->cursor; /* start of each part's group in s->group */
  for (int k = 0, at = 0; k < P; k++) {
    start[k] = at;
    at += (int)s->gcount[k];
  }
  for (int64_t i = fb; i < fe; i++) {
    int k = s->fowner[i - fb];
    s->group[start[k]] = out->node[i];
    if (hp->disjoint) s->group_trees[start[k]] = out->batch[i];
    if (s->group_times) s->group_times[start[k]] = s->tree_time[out->batch[i]];
    start[k]++;
  }
  for (int k = 0; k < P; k++) start[k] -= s->gcount[k];
  if (excl) {
    /* every part's group's positions, before any request points into them */
    int64_t n_pos = 0;
    if ((rc = fo__grow(&s->gx_start, &s->cap_gx_start, P + 1, sizeof *s->gx_start, "sampler scratch")) != FO_OK)
      return rc;
    for (int k = 0; k < P; k++) {
      s->gx_start[k] = n_pos;
      if ((rc = group_excl(s, hp->etype, s->group + start[k], s->gcount[k], start[k], &n_pos)) != FO_OK)
        return rc;
    }
    s->gx_start[P] = n_pos;
  }
  for (int k = 0; k < P; k++) {
    fo__hop_req *r;
    if (!s->gcount[k]) continue;
    r = k == s->local_part ? &(fo__hop_req){0} : &s->reqs[n_req++];
    r->xcount = r->xpos = NULL;
    if (excl && s->gx_start[k + 1] > s->gx_start[k]) {
      r->xcount = s->gx_count + start[k];
      r->xpos = s->gx_pos + s->gx_start[k];
    }
    r->seed = hp->seed;
    r->epoch = hp->epoch;
    r->batch = hp->batch;
    r->hop = hp->hop;
    r->fanout = hp->fanout;
    r->replace = hp->replace;
    r->disjoint = hp->disjoint;
    r->part = k;
    r->n = s->gcount[k];
    r->nodes = s->group + start[k];
    r->trees = hp->disjoint ? s->group_trees + start[k] : NULL;
    req_mode(s, r, s->group_times ? s->group_times + start[k] : NULL);
    if (k == s->local_part && (rc = fo__sampler_hop(s, r, s->scratch, &local)) != FO_OK) return rc;
  }
  if (n_req && (rc = s->remote.hop(s->remote.ctx, s->reqs, n_req, s->res)) != FO_OK) return rc;
  /* check the answers, then assemble: node by node in frontier order */
  {
    const fo__hop_res **by_part = s->by_part;
    int64_t *cur_node = NULL;
    for (int k = 0, j = 0; k < P; k++) {
      by_part[k] = NULL;
      if (!s->gcount[k]) continue;
      by_part[k] = k == s->local_part ? &local : &s->res[j++];
      if (by_part[k]->n != s->gcount[k])
        return FO_FAIL(FO_EFORMAT, "part %d answered %lld nodes, asked %lld", k,
                       (long long)by_part[k]->n, (long long)s->gcount[k]);
      {
        int64_t sum = 0;
        for (int64_t i = 0; i < by_part[k]->n; i++) {
          if (by_part[k]->counts[i] < 0) return FO_FAIL(FO_EFORMAT, "part %d: negative count", k);
          sum += by_part[k]->counts[i];
        }
        if (sum != by_part[k]->n_edges)
          return FO_FAIL(FO_EFORMAT, "part %d: counts sum to %lld, %lld edges sent", k,
                         (long long)sum, (long long)by_part[k]->n_edges);
      }
      total += by_part[k]->n_edges;
    }
    if ((rc = batch_edges(out, e0 + total)) != FO_OK) return rc;
    /* cursors: per part, next node of its group (start[]) and next edge (gcount reused) */
    cur_node = start;
    for (int k = 0; k < P; k++) {
      cur_node[k] = 0;
      s->gcount[k] = 0;
    }
    {
      /* each answer edge checked: 0 <= u < n_nodes and 0 <= id < n_edges, as two unsigned
       * compares and one branch (a negative value is above either bound) */
      const uint64_t nn = (uint64_t)s->t.n_nodes, ne = (uint64_t)s->t.n_edges;
      int64_t *orow = out->row, *ocol = out->col, *oedge = out->edge;
      int64_t E = e0;
      for (int64_t i = fb; i < fe; i++) {
        int k = s->fowner[i - fb];
        const fo__hop_res *r = by_part[k];
        const int64_t c = r->counts[cur_node[k]++], at = s->gcount[k];
        const int64_t *nbr = r->nbr + at, *eid = r->eid + at;
        for (int64_t j = 0; j < c; j++) {
          const int64_t u = nbr[j], id = eid[j];
          if (FO_UNLIKELY(((uint64_t)u >= nn) | ((uint64_t)id >= ne)))
            return FO_FAIL(FO_EFORMAT, "part %d sent edge (%lld, id %lld) out of range", k,
                           (long long)u, (long long)id);
          orow[E + j] = u;
          ocol[E + j] = i;
          oedge[E + j] = id;
        }
        E += c;
        s->gcount[k] += c;
      }
      out->n_edges = E;
    }
  }
  *n_new = total;
  return FO_OK;
}

/*
 * One hop of a distributed sampler over a typed dataset, for every edge type at once: each edge
 * type's frontier split by owner (through the book of its frontier node type), the local part's
 * groups sampled in place, and ONE request per remote machine carrying the groups of every edge
 * type (fo__remote, the HOPS message); the answers are kept per (edge type, part) until
 * dist_assemble_typed appends them edge type by edge type, in the single-process order.
 */
static inline fo_batch_t *node_sub(fo_batch_t *out, int32_t t);

static int dist_hops_typed(fo_sampler_t *s, fo_batch_t *out, int hop, uint64_t epoch,
                           uint64_t batch_index) {
  const int P = s->d->n_parts, E = s->n_etypes;
  int64_t total = 0;
  int n_req = 0, rc;
  fo__dist_typed *ty = &s->ty;
  for (int32_t et = 0; et < E; et++) {
    const int32_t ft = s->front_t[et];
    ty->off[et] = total;
    total += s->hop_fe[ft] - s->hop_fb[ft];
  }
  if ((rc = fo__grow(&ty->owner, &ty->cap_owner, total + 1, sizeof *ty->owner, "sampler scratch")) != FO_OK ||
      (rc = fo__grow(&ty->nodes, &ty->cap_nodes, total + 1, sizeof *ty->nodes, "sampler scratch")) != FO_OK ||
      (s->disjoint && (rc = fo__grow(&ty->trees, &ty->cap_trees, total + 1, sizeof *ty->trees,
                                     "sampler scratch")) != FO_OK) ||
      (s->temporal != FO_TEMPORAL_NONE &&
       (rc = fo__grow(&ty->times, &ty->cap_times, total + 1, sizeof *ty->times, "sampler scratch")) != FO_OK))
    return rc;
  memset(ty->count, 0, (size_t)E * (size_t)P * sizeof *ty->count);
  for (int32_t et = 0; et < E; et++) {
    const int32_t ft = s->front_t[et];
    const fo_batch_t *fr = node_sub(out, ft);
    const fo_dataset_t *book = s->ebook[et];
    for (int64_t i = s->hop_fb[ft]; i < s->hop_fe[ft]; i++) {
      int k = fo__owner(book, fr->node[i]);
      if (FO_UNLIKELY(k < 0 || k >= P))
        return FO_FAIL(FO_EFORMAT, "partition book of node type '%s': node %lld is in part %d of %d",
                       fo_dataset_node_type_name(s->d, ft), (long long)fr->node[i], k, P);
      ty->owner[ty->off[et] + i - s->hop_fb[ft]] = k;
      ty->count[(int64_t)k * E + et]++;
    }
  }
  /* groups packed part by part, edge types ascending within a part */
  for (int64_t g = 0, at = 0; g < (int64_t)E * P; g++) {
    ty->start[g] = at;
    at += ty->count[g];
  }
  for (int32_t et = 0; et < E; et++) {
    const int32_t ft = s->front_t[et];
    const fo_batch_t *fr = node_sub(out, ft);
    for (int64_t i = s->hop_fb[ft]; i < s->hop_fe[ft]; i++) {
      const int64_t g = (int64_t)ty->owner[ty->off[et] + i - s->hop_fb[ft]] * E + et;
      ty->nodes[ty->start[g]] = fr->node[i];
      if (s->disjoint) ty->trees[ty->start[g]] = fr->batch[i];
      if (s->temporal != FO_TEMPORAL_NONE) ty->times[ty->start[g]] = s->tree_time[fr->batch[i]];
      ty->start[g]++;
    }
  }
  for (int64_t g = 0; g < (int64_t)E * P; g++) ty->start[g] -= ty->count[g];
  /* seed-edge exclusion (link sampling): every group's positions, before requests point in */
  const bool excl = s->excl && (hop == 0 || s->disjoint);
  if (excl) {
    int64_t n_pos = 0;
    if ((rc = fo__grow(&s->gx_start, &s->cap_gx_start, (int64_t)E * P + 1, sizeof *s->gx_start,
                       "sampler scratch")) != FO_OK)
      return rc;
    for (int64_t g = 0; g < (int64_t)E * P; g++) {
      s->gx_start[g] = n_pos;
      if (s->excl->n_rows[g % E] > 0 &&
          (rc = group_excl(s, (int32_t)(g % E), ty->nodes + ty->start[g], ty->count[g], ty->start[g],
                           &n_pos)) != FO_OK)
        return rc;
    }
    s->gx_start[(int64_t)E * P] = n_pos;
  }
  for (int k = 0; k < P; k++)
    for (int32_t et = 0; et < E; et++) {
      const int64_t g = (int64_t)k * E + et;
      fo__hop_req r;
      ty->by[g] = NULL;
      if (!ty->count[g]) continue;
      memset(&r, 0, sizeof r);
      r.seed = s->seed;
      r.epoch = epoch;
      r.batch = batch_index;
      r.hop = hop;
      r.fanout = s->fanouts[(int64_t)et * s->n_hops + hop];
      r.replace = s->replace;
      r.disjoint = s->disjoint;
      r.part = k;
      r.etype = et;
      r.out = s->dir == FO_EDGE_DIR_OUT;
      r.n = ty->count[g];
      r.nodes = ty->nodes + ty->start[g];
      r.trees = s->disjoint ? ty->trees + ty->start[g] : NULL;
      req_mode(s, &r, s->temporal != FO_TEMPORAL_NONE ? ty->times + ty->start[g] : NULL);
      if (excl && s->gx_start[g + 1] > s->gx_start[g]) {
        r.xcount = s->gx_count + ty->start[g];
        r.xpos = s->gx_pos + s->gx_start[g];
      }
      if (k == s->local_part) {
        /* the local groups: sampled now, counts copied out of the kernel's scratch */
        fo__hop_res *lr = &ty->local[et];
        if ((rc = fo__sampler_hop(s, &r, ty->scratch[et], lr)) != FO_OK ||
            (rc = fo__grow(&ty->lcounts[et], &ty->cap_lcounts[et], r.n + 1, sizeof(int64_t),
                           "sampler scratch")) != FO_OK)
          return rc;
        memcpy(ty->lcounts[et], lr->counts, (size_t)r.n * sizeof(int64_t));
        lr->counts = ty->lcounts[et];
        ty->by[g] = lr;
      } else {
        ty->req_group[n_req] = g;
        ty->reqs[n_req++] = r;
      }
    }
  if (n_req && (rc = s->remote.hop(s->remote.ctx, ty->reqs, n_req, ty->res)) != FO_OK) return rc;
  for (int i = 0; i < n_req; i++) ty->by[ty->req_group[i]] = &ty->res[i];
  for (int64_t g = 0; g < (int64_t)E * P; g++) {
    const fo__hop_res *r = ty->by[g];
    int64_t sum = 0;
    if (!ty->count[g]) continue;
    if (r->n != ty->count[g])
      return FO_FAIL(FO_EFORMAT, "part %d answered %lld nodes of edge type %d, asked %lld",
                     (int)(g / E), (long long)r->n, (int)(g % E), (long long)ty->count[g]);
    for (int64_t i = 0; i < r->n; i++) {
      if (r->counts[i] < 0) return FO_FAIL(FO_EFORMAT, "part %d: negative count", (int)(g / E));
      sum += r->counts[i];
    }
    if (sum != r->n_edges)
      return FO_FAIL(FO_EFORMAT, "part %d: counts sum to %lld, %lld edges sent", (int)(g / E),
                     (long long)sum, (long long)r->n_edges);
  }
  return FO_OK;
}

/* Edge type et's answers of this hop (dist_hops_typed), appended node by node in frontier order. */
static int dist_assemble_typed(fo_sampler_t *s, fo_batch_t *eb, int64_t fb, int64_t fe, int32_t et) {
  const int P = s->d->n_parts, E = s->n_etypes;
  const fo_topology *w = &s->topos[et];
  fo__dist_typed *ty = &s->ty;
  int64_t total = 0, E0 = eb->n_edges, at;
  int rc;
  for (int k = 0; k < P; k++) {
    const int64_t g = (int64_t)k * E + et;
    s->cursor[k] = s->gcount[k] = 0;
    if (ty->count[g]) total += ty->by[g]->n_edges;
  }
  if ((rc = batch_edges(eb, E0 + total)) != FO_OK) return rc;
  at = E0;
  for (int64_t i = fb; i < fe; i++) {
    const int k = ty->owner[ty->off[et] + i - fb];
    const fo__hop_res *r = ty->by[(int64_t)k * E + et];
    const int64_t c = r->counts[s->cursor[k]++], e0 = s->gcount[k];
    for (int64_t j = 0; j < c; j++) {
      const int64_t u = r->nbr[e0 + j], id = r->eid[e0 + j];
      if (FO_UNLIKELY(u < 0 || u >= w->n_nodes || id < 0 || id >= w->n_edges))
        return FO_FAIL(FO_EFORMAT, "part %d sent edge (%lld, id %lld) of edge type %d out of range",
                       k, (long long)u, (long long)id, (int)et);
      eb->row[at] = u;
      eb->col[at] = i;
      eb->edge[at] = id;
      at++;
    }
    s->gcount[k] += c;
  }
  eb->n_edges = at;
  return FO_OK;
}

/* The sub-batch of node type t, and of edge type et: the batch itself for a version-1 dataset. */
static inline fo_batch_t *node_sub(fo_batch_t *out, int32_t t) {
  return out->typed ? out->types[t] : out;
}
static inline fo_batch_t *edge_sub(fo_batch_t *out, int32_t et) {
  return out->typed ? out->types[out->n_node_types + et] : out;
}

static int batch_hops(fo_batch_t *b, int32_t n_hops) {
  int64_t c1 = b->cap_hops, c2 = b->cap_hops;
  int rc;
  if (b->cap_hops >= n_hops + 1) return FO_OK;
  if ((rc = fo__grow(&b->num_sampled_nodes, &c1, n_hops + 1, sizeof(int64_t), "batch")) != FO_OK ||
      (rc = fo__grow(&b->num_sampled_edges, &c2, n_hops + 1, sizeof(int64_t), "batch")) != FO_OK)
    return rc;
  b->cap_hops = c1 < c2 ? c1 : c2;
  return FO_OK;
}

/* Shape `out` for the sampler's dataset: typed datasets get one sub-batch per node type and per
 * edge type (kept across batches), version-1 datasets none. */
static int batch_types(fo_sampler_t *s, fo_batch_t *out) {
  const int64_t need = s->typed ? (int64_t)s->n_ntypes + s->n_etypes : 0;
  int rc;
  if (need > out->cap_types) {
    fo_batch_t **t = realloc(out->types, (size_t)need * sizeof *t);
    if (!t) return FO_FAIL(FO_ENOMEM, "batch types");
    out->types = t;
    for (int64_t k = out->cap_types; k < need; k++) t[k] = NULL;
    out->cap_types = need;
  }
  for (int64_t k = 0; k < need; k++)
    if (!out->types[k] && (rc = fo_batch_create(&out->types[k])) != FO_OK) return rc;
  out->typed = s->typed;
  out->n_node_types = s->n_ntypes;
  out->n_edge_types = s->n_etypes;
  return FO_OK;
}

/*
 * The hop driver. Per hop, every edge type whose frontier node type (dst for edge_dir in, src
 * for out) has frontier nodes runs the one-hop passes over that edge type's topology (row
 * bounds, choose, gather: or, distributed, dist_hop), and the inducer adds the neighbors to
 * their node type; edge types go in dataset order, so a hop's new nodes of a type appear in
 * edge-type order, then frontier order. The frontier of hop h + 1 is, per node type, the nodes
 * hop h added. A version-1 dataset is the one-type case: every sub-batch is `out` itself.
 */
static int sample(fo_sampler_t *s, const fo_nid_t *const *seeds_t, const int64_t *n_t,
                  uint64_t epoch, uint64_t batch_index, fo_batch_t *out) {
  const int32_t T = s->n_ntypes, E = s->n_etypes;
  int64_t n_seeds = 0, base = 0;
  int rc;
  for (int32_t t = 0; t < T; t++) {
    const int64_t n = s->typed ? fo_dataset_num_nodes(fo_dataset_node_data(s->d, t)) : s->t.n_nodes;
    const char *tn = s->typed ? fo_dataset_node_type_name(s->d, t) : "";
    if (n_t[t] < 0) return FO_FAIL(FO_EINVAL, "number of seeds %lld is negative", (long long)n_t[t]);
    if (n_t[t] > 0 && !seeds_t[t])
      return FO_FAIL(FO_EINVAL, "seeds is NULL with %lld seeds", (long long)n_t[t]);
    for (int64_t i = 0; i < n_t[t]; i++)
      if (seeds_t[t][i] < 0 || seeds_t[t][i] >= n)
        return FO_FAIL(FO_ERANGE, "seed %lld (index %lld) is not a node id%s%s%s in [0, %lld)",
                       (long long)seeds_t[t][i], (long long)i, s->typed ? " of node type '" : "",
                       tn, s->typed ? "'" : "", (long long)n);
    if (n_t[t] >= (int64_t)UINT32_MAX - n_seeds)
      return FO_FAIL(FO_ERANGE, "%lld seeds: a batch holds at most 2^32 - 2 nodes",
                     (long long)(n_seeds + n_t[t]));
    n_seeds += n_t[t];
  }
  for (int32_t t = 0; t < T && s->disjoint && n_seeds > 0; t++) {
    int64_t nt = s->typed ? fo_dataset_num_nodes(fo_dataset_node_data(s->d, t)) : s->t.n_nodes;
    if (nt > INT64_MAX / n_seeds)
      return FO_FAIL(FO_ERANGE, "disjoint mode: %lld nodes x %lld seeds overflows the id map key",
                     (long long)nt, (long long)n_seeds);
  }
  if ((rc = batch_types(s, out)) != FO_OK || (rc = batch_hops(out, s->n_hops)) != FO_OK) return rc;
  if (!s->maps_ready) {
    /* disjoint keys range over n * n_seeds: always the hash layout */
    for (int32_t t = 0; t < T; t++) {
      int64_t nt = s->typed ? fo_dataset_num_nodes(fo_dataset_node_data(s->d, t)) : s->t.n_nodes;
      if ((rc = fo__idmap_init(&s->maps[t], s->disjoint ? -1 : nt, DENSE_MAP_LIMIT)) != FO_OK) {
        for (int32_t u = 0; u < t; u++) fo__idmap_fini(&s->maps[u]);
        return rc;
      }
    }
    s->maps_ready = true;
  }
  out->n_seeds = n_seeds;
  out->n_hops = s->n_hops;
  out->disjoint = s->disjoint;
  for (int32_t t = 0; t < T; t++) {
    fo_batch_t *nb = node_sub(out, t);
    fo__idmap_reset(&s->maps[t]);
    if ((rc = batch_hops(nb, s->n_hops)) != FO_OK) return rc;
    if (!s->disjoint && nb->batch) {
      /* the header promises batch == NULL outside disjoint mode */
      free(nb->batch);
      nb->batch = NULL;
      nb->cap_batch = 0;
    }
    nb->n_seeds = n_t[t];
    nb->n_nodes = 0;
    /* one slot of slack for the dense inducer; in disjoint mode batch is never NULL */
    if ((rc = batch_nodes(nb, nb->n_seeds + 1, s->disjoint)) != FO_OK) return rc;
    nb->n_hops = s->n_hops;
    nb->disjoint = s->disjoint;
    s->hop_fb[t] = s->hop_fe[t] = 0;
  }
  for (int32_t et = 0; et < E; et++) {
    fo_batch_t *eb = edge_sub(out, et);
    if ((rc = batch_hops(eb, s->n_hops)) != FO_OK) return rc;
    eb->n_edges = 0;
    eb->n_hops = s->n_hops;
  }
  /* the seeds, type by type; in disjoint mode tree k is the k-th seed in type order */
  for (int32_t t = 0; t < T; t++) {
    fo_batch_t *sb = node_sub(out, t);
    const fo_nid_t *seeds = seeds_t[t];
    if (!n_t[t]) continue;
    if ((rc = fo__idmap_reserve(&s->maps[t], n_t[t])) != FO_OK) return rc;
    for (int64_t i = 0; i < n_t[t]; i++) {
      bool ins;
      sb->node[i] = seeds[i];
      if (s->disjoint) {
        sb->batch[i] = base + i;
        fo__idmap_insert(&s->maps[t], seeds[i] * n_seeds + base + i, (uint32_t)i, sb->node, &ins);
      } else {
        fo__idmap_insert(&s->maps[t], seeds[i], (uint32_t)i, sb->node, &ins); /* first copy wins */
      }
    }
    sb->n_nodes = n_t[t];
    s->hop_fe[t] = n_t[t];
    base += n_t[t];
  }
  for (int32_t t = 0; t < T; t++) node_sub(out, t)->num_sampled_nodes[0] = s->hop_fe[t];
  if (s->temporal != FO_TEMPORAL_NONE) {
    /* the time of every tree: its seed's given time, or the seed's node time */
    int64_t k = 0;
    if ((rc = fo__grow(&s->tree_time, &s->cap_tree_time, n_seeds + 1, sizeof *s->tree_time,
                       "sampler scratch")) != FO_OK)
      return rc;
    for (int32_t t = 0; t < T; t++) {
      const int64_t *given = s->seed_time_in ? s->seed_time_in[t] : NULL, *nt = s->ntype_time[t];
      if (n_t[t] && !given && !nt)
        return FO_FAIL(FO_EINVAL, "temporal sampling: no seed times given (--seed-time, "
                       "input_time) and dataset '%s'%s%s%s has no node times to default to "
                       "(import --node-time)", fo_dataset_path(s->d), s->typed ? " (node type '" : "",
                       s->typed ? fo_dataset_node_type_name(s->d, t) : "", s->typed ? "')" : "");
      for (int64_t i = 0; i < n_t[t]; i++) s->tree_time[k++] = given ? given[i] : nt[seeds_t[t][i]];
    }
  }
  for (int hop = 0; hop < s->n_hops; hop++) {
    /* typed, distributed: every edge type's remote groups in one request per machine */
    const bool dist_typed = s->dist && s->typed && !s->dist_sole;
    if (dist_typed && (rc = dist_hops_typed(s, out, hop, epoch, batch_index)) != FO_OK) return rc;
    for (int32_t et = 0; et < E; et++) {
      const int32_t ft = s->front_t[et], ntt = s->nbr_t[et];
      fo_batch_t *eb = edge_sub(out, et), *fr = node_sub(out, ft), *nb = node_sub(out, ntt);
      const int64_t fb = s->hop_fb[ft], fe = s->hop_fe[ft], e0 = eb->n_edges;
      const hop_params hp = {hop, et, s->fanouts[(int64_t)et * s->n_hops + hop], s->replace,
                             s->disjoint, s->seed, epoch, batch_index};
      int64_t n_new = 0;
      if (fe > fb) {
        if ((rc = fo__grow(&s->rows, &s->cap_rows, fe - fb, sizeof *s->rows, "sampler scratch")) != FO_OK)
          return rc;
        if (dist_typed) {
          if ((rc = dist_assemble_typed(s, eb, fb, fe, et)) != FO_OK) return rc;
        } else if (s->dist && !s->typed) {
          /* remote parts through fo_dist: appends the hop's edges like the passes below */
          if ((rc = dist_hop(s, eb, fb, fe, &hp, &n_new)) != FO_OK) return rc;
        } else {
          const row_source *src = s->shards ? &PART_ROWS : &LOCAL_ROWS;
          /* seed-edge exclusion (link sampling): uniform rows shortened here and their picks
           * remapped after the kernel; temporal and weighted kernels apply it themselves (kx) */
          const bool xany = s->excl && (hop == 0 || s->disjoint) && s->excl->n_rows[et] > 0;
          const bool excl = xany && !s->weighted && s->temporal == FO_TEMPORAL_NONE;
          const bool kx = xany && !excl;
          if ((rc = src->rows(s, &s->topos[et], fr, fb, fe, &hp, &n_new)) != FO_OK) return rc;
          if (excl && (rc = exclude_rows(s, et, fr, fb, fe, &hp, &n_new)) != FO_OK) return rc;
          if (n_new > INT64_MAX / 4 - e0)
            return FO_FAIL(FO_ERANGE, "batch too large: %lld edges", (long long)n_new);
          if ((rc = batch_edges(eb, e0 + n_new)) != FO_OK) return rc;
          /* the one-hop kernel of the sampler's mode (kernel table: uniform, weighted) */
          s->kx = kx;
          rc = kx && s->temporal == FO_TEMPORAL_NONE
                   ? weighted_excl(s, &s->topos[et], fr, eb, fb, fe, &hp, choose_weighted)
                   : s->choose(s, &s->topos[et], fr, eb, fb, fe, &hp);
          s->kx = false;
          if (rc != FO_OK) return rc;
          if (excl && s->n_xl) remap_excluded(s, et, eb, fb, e0, eb->n_edges);
          if ((rc = src->gather(s, &s->topos[et], eb, fb, e0, eb->n_edges)) != FO_OK) return rc;
        }
        n_new = eb->n_edges - e0;
        if (nb->n_nodes + n_new >= (int64_t)UINT32_MAX)
          return FO_FAIL(FO_ERANGE, "batch exceeds 2^32 - 2 nodes at hop %d", hop);
        if ((rc = batch_nodes(nb, nb->n_nodes + n_new + 1, s->disjoint)) != FO_OK) return rc;
        if ((rc = fo__idmap_reserve(&s->maps[ntt], n_new)) != FO_OK) return rc;
        if ((rc = induce(&s->maps[ntt], s->disjoint, nb, fr, eb, e0, eb->n_edges, n_seeds)) != FO_OK)
          return rc;
      }
      eb->num_sampled_edges[hop] = eb->n_edges - e0;
    }
    for (int32_t t = 0; t < T; t++) {
      fo_batch_t *nb = node_sub(out, t);
      nb->num_sampled_nodes[hop + 1] = nb->n_nodes - s->hop_fe[t];
      s->hop_fb[t] = s->hop_fe[t];
      s->hop_fe[t] = nb->n_nodes;
    }
  }
  if (s->typed) {
    /* the top level counts every type's nodes and edges */
    out->n_nodes = out->n_edges = 0;
    for (int32_t t = 0; t < T; t++) out->n_nodes += node_sub(out, t)->n_nodes;
    for (int32_t et = 0; et < E; et++) out->n_edges += edge_sub(out, et)->n_edges;
  }
  return FO_OK;
}

int fo_sampler_sample(fo_sampler_t *s, const fo_nid_t *seeds, int64_t n_seeds, uint64_t epoch,
                      uint64_t batch_index, fo_batch_t *out) {
  if (s && s->typed)
    return FO_FAIL(FO_EINVAL, "sample: dataset '%s' is typed: give the seeds' node type "
                   "(fo_sampler_sample_typed)", fo_dataset_path(s->d));
  return fo_sampler_sample_typed(s, 0, seeds, n_seeds, epoch, batch_index, out);
}

int fo_sampler_sample_typed(fo_sampler_t *s, int32_t node_type, const fo_nid_t *seeds,
                            int64_t n_seeds, uint64_t epoch, uint64_t batch_index,
                            fo_batch_t *out) {
  int rc;
  if (!s || !out) return FO_FAIL(FO_EINVAL, "sampler or batch is NULL");
  if (node_type < 0 || node_type >= s->n_ntypes) {
    batch_clear(out);
    return FO_FAIL(FO_EINVAL, "sample batch %llu: seed node type %d is not in [0, %d)",
                   (unsigned long long)batch_index, (int)node_type, (int)s->n_ntypes);
  }
  memset(s->seed_n, 0, (size_t)s->n_ntypes * sizeof *s->seed_n);
  s->seed_ptr[node_type] = seeds;
  s->seed_n[node_type] = n_seeds;
  rc = fo_sampler_sample_hetero(s, s->seed_ptr, s->seed_n, epoch, batch_index, out);
  s->seed_ptr[node_type] = NULL;
  return rc;
}

int fo_sampler_sample_at(fo_sampler_t *s, int32_t node_type, const fo_nid_t *seeds,
                         const int64_t *seed_time, int64_t n_seeds, uint64_t epoch,
                         uint64_t batch_index, fo_batch_t *out) {
  int rc;
  const int64_t **times;
  if (!s || !out) return FO_FAIL(FO_EINVAL, "sampler or batch is NULL");
  if (node_type < 0 || node_type >= s->n_ntypes) {
    batch_clear(out);
    return FO_FAIL(FO_EINVAL, "sample batch %llu: seed node type %d is not in [0, %d)",
                   (unsigned long long)batch_index, (int)node_type, (int)s->n_ntypes);
  }
  if (!(times = calloc((size_t)s->n_ntypes, sizeof *times))) {
    batch_clear(out);
    return FO_FAIL(FO_ENOMEM, "sample: seed times");
  }
  memset(s->seed_n, 0, (size_t)s->n_ntypes * sizeof *s->seed_n);
  s->seed_ptr[node_type] = seeds;
  s->seed_n[node_type] = n_seeds;
  times[node_type] = seed_time;
  rc = fo_sampler_sample_hetero_at(s, s->seed_ptr, times, s->seed_n, epoch, batch_index, out);
  s->seed_ptr[node_type] = NULL;
  free(times);
  return rc;
}

int fo_sampler_sample_hetero(fo_sampler_t *s, const fo_nid_t *const *seeds, const int64_t *n_seeds,
                             uint64_t epoch, uint64_t batch_index, fo_batch_t *out) {
  return fo_sampler_sample_hetero_at(s, seeds, NULL, n_seeds, epoch, batch_index, out);
}

int fo_sampler_sample_hetero_at(fo_sampler_t *s, const fo_nid_t *const *seeds,
                                const int64_t *const *seed_time, const int64_t *n_seeds,
                                uint64_t epoch, uint64_t batch_index, fo_batch_t *out) {
  int rc;
  if (!s || !out) return FO_FAIL(FO_EINVAL, "sampler or batch is NULL");
  if (seed_time && s->temporal == FO_TEMPORAL_NONE) {
    batch_clear(out);
    return FO_FAIL(FO_EINVAL, "sample batch %llu: seed times given, but the sampler is not "
                   "temporal (set temporal uniform or last)", (unsigned long long)batch_index);
  }
  batch_clear(out);
  if (!seeds || !n_seeds) return FO_FAIL(FO_EINVAL, "sample: seeds or n_seeds is NULL");
  s->seed_time_in = seed_time;
  rc = sample(s, seeds, n_seeds, epoch, batch_index, out);
  s->seed_time_in = NULL;
  if (rc != FO_OK) {
    batch_clear(out);
    return fo__context(rc, "sample batch %llu", (unsigned long long)batch_index);
  }
  return FO_OK;
}

