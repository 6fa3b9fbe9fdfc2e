/*
 * cli/cmd_import.c: `fanout import --format F [options] INPUT... -o DIR`.
 * SIGINT/SIGTERM raise the importer's cancel flag, so an interrupted import removes its
 * temporary directory and leaves no dataset behind.
 */
#include "cli.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

static void help(void) {
  fo_import_opts o;
  fo_import_opts_init(&o);
  printf("usage: fanout import --format F [options] INPUT... -o DIR\n"
         "       fanout import --edge-type SRC,REL,DST FILE [--edge-type ...]... [options] -o DIR\n"
         "       fanout import --edge-type-col K --node-types FILE [options] INPUT... -o DIR\n"
         "\n"
         "Build a dataset directory DIR from INPUT (atomically: nothing is left on failure).\n"
         "\n"
         "  --format F           edgelist | planetoid | npy | mtx | ogb (default edgelist)\n"
         "                       edgelist: 'src dst' lines (tab, space or comma; # and %% comments; .gz)\n"
         "                       planetoid: NAME.content and NAME.cites (LINQS); npy: edge_index [2, E]\n"
         "                       mtx: Matrix Market coordinate; ogb: an OGB dataset directory\n"
         "                       (raw/edge.csv.gz, node-feat, ..., split/...; ogbn-mag: typed)\n"
         "  -o, --output DIR     dataset directory to create (required)\n"
         "  --undirected         add the reverse of every edge, then drop duplicates (default %s)\n"
         "  --remove-self-loops  drop edges v -> v (default %s)\n"
         "  --dedup              drop repeated edges, keeping the first (default %s)\n"
         "  --drop-unknown       planetoid: drop cites whose ids have no content line (default %s;\n"
         "                       they are added as feature-less nodes, as PyG does)\n"
         "  --relabel            map integer ids, sorted, to 0..n-1 (default %s: ids kept)\n"
         "  --string-ids         edgelist: ids are any tokens, numbered in order of first\n"
         "                       appearance (original ids kept as strings)\n"
         "  --columns S,D        edgelist: 0-based columns of the source and target ids\n"
         "                       (default 0,1)\n"
         "  --num-nodes N        number of nodes (default: max id + 1)\n"
         "  --csc, --csr         which topology to store: in-neighbors (CSC) and/or out-neighbors\n"
         "                       (CSR); default CSC only\n"
         "  --index-dtype T      auto | int32 | int64 for indices and edge ids (default auto)\n"
         "  --features X.npy     node features [n, D] (float32, float16, float64 or uint8)\n"
         "  --edge-weight W.npy  edge weights [E] (float32 or float64, finite, >= 0), input order\n"
         "  --weight-col K       edgelist: 0-based column K holds each edge's weight (finite,\n"
         "                       >= 0, stored float32); mtx: --weight-col 2 makes the values weights\n"
         "  --edge-time T.npy    edge times [E] (int64 or int32), input order; rows are then kept\n"
         "                       sorted by time (ties in input order) for temporal sampling\n"
         "  --time-col K         edgelist: 0-based column K holds each edge's time\n"
         "  --time-format F      unix (an integer, default) | iso8601 (YYYY-MM-DD[THH:MM[:SS]][Z]:\n"
         "                       stored as UNIX seconds)\n"
         "  --node-time T.npy    node times [n] (int64 or int32) for temporal sampling --time node\n"
         , o.undirected ? "on" : "off", o.remove_self_loops ? "on" : "off", o.dedup ? "on" : "off",
         o.drop_unknown ? "on" : "off", o.relabel ? "on" : "off");
  printf("  --labels Y.npy       node labels [n] (int64 or int32; -1 = none)\n"
         "  --split NAME=F.npy,...  node-id splits, e.g. train=a.npy,val=b.npy,test=c.npy\n"
         "  --edge-split NAME=F.npy,...  edge splits for link prediction: int [k] input edge\n"
         "                       positions (0-based, input order), stored as edge ids\n"
         "                       (bench --edge-seeds-split NAME, LinkNeighborLoader)\n"
         "  --node-array NAME=F.npy,...  int [n] arrays kept as node data (e.g. node_year)\n"
         "  --array NAME=F.npy,...  int [k] or [k, c] arrays kept as they are (\"extra\")\n"
         "  --feature-dtype T    stored features: auto | float32 | float16 | bfloat16 | uint8\n"
         "                       (uint8: per-column min/max quantization; default auto = as input,\n"
         "                       planetoid float32)\n"
         "  --split-seed N       planetoid: seed of the standard split (20 per class train, 500 val,\n"
         "                       1000 test) (default %llu)\n"
         "  --allow-nonfinite    keep NaN and infinite feature values (default: refused, naming\n"
         "                       the file, row and column)\n"
         "\n"
         "Typed (heterogeneous) graphs (edgelist; TYPE is a node type, S,R,D an edge type):\n"
         "  --edge-type S,R,D FILE  FILE holds the edges (src of type S, dst of type D, relation\n"
         "                       R); repeat per edge type; ids are local to their node type\n"
         "  --num-nodes TYPE=N   nodes of an integer-id type (default: max id + 1)\n"
         "  --node-ids TYPE=FILE the type's ids, one per line, fixing their order and count\n"
         "  --edge-type-col K    one edge list for all types: column K is the relation, each\n"
         "                       line's edge type is (type of src, relation, type of dst)\n"
         "  --node-types FILE    with --edge-type-col: lines 'node_id<TAB>type'\n"
         "  --default-node-type TYPE  with --edge-type-col: the type of endpoints no list names\n"
         "  --reverse-edges      add (D, rev_R, S) for every edge type (S, R, D) with S != D\n"
         "  --features TYPE=X.npy, --labels TYPE=Y.npy, --split TYPE:NAME=F.npy,...  per type\n"
         "  --edge-weight S__R__D=W.npy  weights of edge type (S, R, D), in its input order;\n"
         "                       repeat per type (reverse types take their edge's weights)\n"
         "  --edge-split S__R__D:NAME=F.npy,...  edge splits of (S, R, D), positions in its\n"
         "                       input order; repeat per type (not for reverse types)\n"
         "  --edge-time S__R__D=T.npy  times of edge type (S, R, D), in its input order\n"
         "  --node-time TYPE=T.npy  node times of node type TYPE\n"
         "  (--weight-col K, --time-col K and --time-format read every type's lines)\n"
         "  --supervision-edges S__R__D=FILE  positive label edges (ABLP), stored labels-only:\n"
         "                       never sampled; ids must be nodes of S and D; repeat per type\n"
         "  --supervision-negatives S__R__D=FILE  hard-negative label edges, the same way\n"
         "  --labels-only REL,...  edge types with these relations are labels-only positives\n"
         "  --negative-labels REL,...  ... labels-only hard negatives (either typed form)\n"
         "  (--undirected and --remove-self-loops apply to types with S = D; --dedup, --csc,\n"
         "  --csr, --columns, --string-ids, --index-dtype to every type)\n"
         "\n"
         "  --force              replace DIR if it is an existing dataset (the whole directory)\n"
         "  --json               print the report as JSON\n"
         "  -q, --quiet          no progress bar\n",
         (unsigned long long)o.split_seed);
}

enum { OPT_FORMAT = 256, OPT_UNDIRECTED, OPT_SELF, OPT_DEDUP, OPT_DROP, OPT_RELABEL, OPT_NUM,
       OPT_CSC, OPT_CSR, OPT_IDX, OPT_FORCE, OPT_JSON, OPT_FEATURES, OPT_LABELS, OPT_SPLIT,
       OPT_FDTYPE, OPT_SPLIT_SEED, OPT_STRING_IDS, OPT_COLUMNS, OPT_NODE_ARRAY, OPT_ARRAY,
       OPT_NONFINITE,
       OPT_EDGE_TYPE, OPT_EDGE_TYPE_COL, OPT_NODE_TYPES, OPT_NODE_IDS, OPT_DEFAULT_TYPE, OPT_REVERSE,
       OPT_EDGE_WEIGHT, OPT_EDGE_TIME, OPT_NODE_TIME, OPT_WEIGHT_COL, OPT_TIME_COL, OPT_TIME_FORMAT,
       OPT_EDGE_SPLIT, OPT_SUP_POS, OPT_SUP_NEG, OPT_LABELS_ONLY, OPT_NEG_LABELS };

/* What the typed options collect; freed by typed_free. */
typedef struct typed_args {
  fo_import_edge_type *et;
  int n_et;
  const char **et_files; /* the FILE after each --edge-type, in order */
  int n_et_files;
  fo_import_node_type *nt;
  int n_nt;
  char **owned;
  int n_owned;
  const char *feat[64], *lab[64], *split[64], *weight[64], *etime[64], *ntime[64]; /* raw values */
  int n_feat, n_lab, n_split, n_weight, n_etime, n_ntime;
  fo_import_edge_weight *ew; /* typed --edge-weight SRC__REL__DST=W.npy */
  fo_import_edge_split es[FO_IMPORT_MAX_EDGE_SPLIT_TYPES]; /* --edge-split [ET:]NAME=F,... */
  int n_es;
  fo_import_edge_weight *et_time; /* typed --edge-time SRC__REL__DST=T.npy */
  fo_import_node_time *nt_time;   /* typed --node-time TYPE=T.npy */
  fo_import_label_edges le[64]; /* --supervision-edges / --supervision-negatives S__R__D=FILE */
  int n_le;
  char **argv; /* argv without the FILEs of --edge-type */
  int argc;
} typed_args;

static void typed_free(typed_args *t) {
  for (int i = 0; i < t->n_owned; i++) free(t->owned[i]);
  free(t->owned);
  free(t->et);
  free(t->et_files);
  free(t->nt);
  free(t->ew);
  free(t->et_time);
  free(t->nt_time);
  free(t->argv);
}

static char *own(typed_args *t, const char *s, size_t n) {
  char **o = realloc(t->owned, (size_t)(t->n_owned + 1) * sizeof *o), *c;
  if (!o) return NULL;
  t->owned = o;
  if (!(c = malloc(n + 1))) return NULL;
  memcpy(c, s, n);
  c[n] = '\0';
  t->owned[t->n_owned++] = c;
  return c;
}

/* Take the FILE after every --edge-type out of argv, so getopt sees only the triple. */
static int split_edge_type_files(typed_args *t, int argc, char **argv) {
  t->argv = calloc((size_t)argc + 1, sizeof *t->argv);
  t->et_files = calloc((size_t)argc + 1, sizeof *t->et_files);
  if (!t->argv || !t->et_files) return cli_usage_error("import", "out of memory");
  for (int i = 0; i < argc; i++) {
    const char *a = argv[i];
    if (i > 0 && !strcmp(a, "--")) {
      while (i < argc) t->argv[t->argc++] = argv[i++];
      break;
    }
    t->argv[t->argc++] = argv[i];
    if (i > 0 && (!strcmp(a, "--edge-type") || !strncmp(a, "--edge-type=", 12))) {
      int need = a[11] == '=' ? 1 : 2;
      if (i + need >= argc)
        return cli_usage_error("import", "--edge-type needs SRC,REL,DST and a FILE");
      if (need == 2) t->argv[t->argc++] = argv[++i];
      t->et_files[t->n_et_files++] = argv[++i];
    }
  }
  return CLI_OK;
}

/* The entry for node type name[len] (added if new). */
static fo_import_node_type *node_entry(typed_args *t, const char *name, size_t len) {
  fo_import_node_type *n;
  for (int i = 0; i < t->n_nt; i++)
    if (strlen(t->nt[i].name) == len && !strncmp(t->nt[i].name, name, len)) return &t->nt[i];
  if (!(n = realloc(t->nt, (size_t)(t->n_nt + 1) * sizeof *n))) return NULL;
  t->nt = n;
  n = &t->nt[t->n_nt];
  memset(n, 0, sizeof *n);
  n->num_nodes = -1;
  if (!(n->name = own(t, name, len))) return NULL;
  t->n_nt++;
  return n;
}

/* "TYPE<sep>REST": the entry of TYPE and REST; usage error if malformed or set twice. */
static int typed_value(typed_args *t, const char *opt, const char *arg, char sep,
                       fo_import_node_type **out, const char **rest) {
  const char *p = strchr(arg, sep);
  if (!p || p == arg || !p[1])
    return cli_usage_error("import", "%s: '%s' is not TYPE%cVALUE", opt, arg, sep);
  if (!(*out = node_entry(t, arg, (size_t)(p - arg))))
    return cli_usage_error("import", "out of memory");
  *rest = p + 1;
  return CLI_OK;
}

static int add_edge_type(typed_args *t, const char *arg) {
  const char *c1 = strchr(arg, ','), *c2 = c1 ? strchr(c1 + 1, ',') : NULL;
  fo_import_edge_type *e;
  if (!c1 || !c2 || strchr(c2 + 1, ',') || c1 == arg || c2 == c1 + 1 || !c2[1])
    return cli_usage_error("import", "--edge-type: '%s' is not SRC,REL,DST", arg);
  if (t->n_et >= t->n_et_files)
    return cli_usage_error("import", "--edge-type %s: no FILE", arg);
  if (!(e = realloc(t->et, (size_t)(t->n_et + 1) * sizeof *e)))
    return cli_usage_error("import", "out of memory");
  t->et = e;
  e = &t->et[t->n_et];
  e->src = own(t, arg, (size_t)(c1 - arg));
  e->rel = own(t, c1 + 1, (size_t)(c2 - c1 - 1));
  e->dst = own(t, c2 + 1, strlen(c2 + 1));
  e->path = t->et_files[t->n_et];
  if (!e->src || !e->rel || !e->dst) return cli_usage_error("import", "out of memory");
  t->n_et++;
  return CLI_OK;
}

/* Per-type --features, --labels, --split (raw values collected in the option loop). */
static int typed_node_data(typed_args *t) {
  fo_import_node_type *n;
  const char *rest;
  int rc;
  for (int i = 0; i < t->n_feat; i++) {
    if ((rc = typed_value(t, "--features", t->feat[i], '=', &n, &rest))) return rc;
    if (n->features) return cli_usage_error("import", "--features %s given twice", n->name);
    n->features = rest;
  }
  for (int i = 0; i < t->n_lab; i++) {
    if ((rc = typed_value(t, "--labels", t->lab[i], '=', &n, &rest))) return rc;
    if (n->labels) return cli_usage_error("import", "--labels %s given twice", n->name);
    n->labels = rest;
  }
  for (int i = 0; i < t->n_split; i++) {
    if ((rc = typed_value(t, "--split", t->split[i], ':', &n, &rest))) return rc;
    if (n->splits) return cli_usage_error("import", "--split %s given twice", n->name);
    n->splits = rest;
  }
  return CLI_OK;
}

/* Typed --edge-weight SRC__REL__DST=W.npy (relations may hold '=': the type ends at the first
 * '=' after its second "__"). */
static int typed_edge_files(typed_args *t, const char *opt, const char *const *raw, int n,
                            fo_import_edge_weight **out) {
  if (!n) return CLI_OK;
  if (!(*out = calloc((size_t)n, sizeof **out))) return cli_usage_error("import", "out of memory");
  for (int i = 0; i < n; i++) {
    const char *a = raw[i], *p1 = strstr(a, "__"), *p2 = p1 ? strstr(p1 + 2, "__") : NULL;
    const char *eq = p2 ? strchr(p2 + 2, '=') : NULL;
    if (!eq || eq == p2 + 2 || !eq[1])
      return cli_usage_error("import", "%s: '%s' is not SRC__REL__DST=%s.npy (a typed import takes "
                             "%s per edge type)", opt, a, strcmp(opt, "--edge-time") ? "W" : "T",
                             strcmp(opt, "--edge-time") ? "weights" : "times");
    if (!((*out)[i].edge_type = own(t, a, (size_t)(eq - a)))) return cli_usage_error("import", "out of memory");
    (*out)[i].path = eq + 1;
  }
  return CLI_OK;
}

static int typed_weights(typed_args *t) {
  int rc;
  if ((rc = typed_edge_files(t, "--edge-weight", t->weight, t->n_weight, &t->ew)) ||
      (rc = typed_edge_files(t, "--edge-time", t->etime, t->n_etime, &t->et_time)))
    return rc;
  /* typed --node-time TYPE=T.npy (node types hold no '=') */
  if (t->n_ntime && !(t->nt_time = calloc((size_t)t->n_ntime, sizeof *t->nt_time)))
    return cli_usage_error("import", "out of memory");
  for (int i = 0; i < t->n_ntime; i++) {
    const char *a = t->ntime[i], *eq = strchr(a, '=');
    if (!eq || eq == a || !eq[1])
      return cli_usage_error("import", "--node-time: '%s' is not TYPE=T.npy (a typed import takes "
                             "node times per node type)", a);
    if (!(t->nt_time[i].node_type = own(t, a, (size_t)(eq - a)))) return cli_usage_error("import", "out of memory");
    t->nt_time[i].path = eq + 1;
  }
  return CLI_OK;
}

static int cmd_import_parsed(int argc, char **argv, const struct option *lopts, typed_args *t);

int cmd_import(int argc, char **argv) {
  static const struct option lopts[] = {
      {"format", required_argument, NULL, OPT_FORMAT}, {"output", required_argument, NULL, 'o'},
      {"undirected", no_argument, NULL, OPT_UNDIRECTED}, {"remove-self-loops", no_argument, NULL, OPT_SELF},
      {"dedup", no_argument, NULL, OPT_DEDUP}, {"drop-unknown", no_argument, NULL, OPT_DROP},
      {"relabel", no_argument, NULL, OPT_RELABEL}, {"num-nodes", required_argument, NULL, OPT_NUM},
      {"csc", no_argument, NULL, OPT_CSC}, {"csr", no_argument, NULL, OPT_CSR},
      {"index-dtype", required_argument, NULL, OPT_IDX}, {"force", no_argument, NULL, OPT_FORCE},
      {"json", no_argument, NULL, OPT_JSON}, {"quiet", no_argument, NULL, 'q'},
      {"features", required_argument, NULL, OPT_FEATURES}, {"labels", required_argument, NULL, OPT_LABELS},
      {"split", required_argument, NULL, OPT_SPLIT}, {"feature-dtype", required_argument, NULL, OPT_FDTYPE},
      {"split-seed", required_argument, NULL, OPT_SPLIT_SEED},
      {"string-ids", no_argument, NULL, OPT_STRING_IDS}, {"columns", required_argument, NULL, OPT_COLUMNS},
      {"node-array", required_argument, NULL, OPT_NODE_ARRAY}, {"array", required_argument, NULL, OPT_ARRAY},
      {"allow-nonfinite", no_argument, NULL, OPT_NONFINITE},
      {"edge-weight", required_argument, NULL, OPT_EDGE_WEIGHT},
      {"edge-time", required_argument, NULL, OPT_EDGE_TIME},
      {"node-time", required_argument, NULL, OPT_NODE_TIME},
      {"weight-col", required_argument, NULL, OPT_WEIGHT_COL},
      {"time-col", required_argument, NULL, OPT_TIME_COL},
      {"time-format", required_argument, NULL, OPT_TIME_FORMAT},
      {"edge-type", required_argument, NULL, OPT_EDGE_TYPE},
      {"edge-type-col", required_argument, NULL, OPT_EDGE_TYPE_COL},
      {"node-types", required_argument, NULL, OPT_NODE_TYPES},
      {"node-ids", required_argument, NULL, OPT_NODE_IDS},
      {"default-node-type", required_argument, NULL, OPT_DEFAULT_TYPE},
      {"reverse-edges", no_argument, NULL, OPT_REVERSE},
      {"edge-split", required_argument, NULL, OPT_EDGE_SPLIT},
      {"supervision-edges", required_argument, NULL, OPT_SUP_POS},
      {"supervision-negatives", required_argument, NULL, OPT_SUP_NEG},
      {"labels-only", required_argument, NULL, OPT_LABELS_ONLY},
      {"negative-labels", required_argument, NULL, OPT_NEG_LABELS},
      {"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0}};
  typed_args t;
  int rc;

  memset(&t, 0, sizeof t);
  if ((rc = split_edge_type_files(&t, argc, argv))) goto done;
  rc = cmd_import_parsed(t.argc, t.argv, lopts, &t);
done:
  typed_free(&t);
  return rc;
}

static int cmd_import_parsed(int argc, char **argv, const struct option *lopts, typed_args *tp) {
  typed_args *t = tp;
  fo_import_opts o;
  fo_import_report r;
  const char *out = NULL;
  bool json = false, want_csc = false, want_csr = false, quiet = false;
  int c, rc;

  fo_import_opts_init(&o);
  optind = 0;
  opterr = 0;
  while ((c = getopt_long(argc, argv, ":o:qh", lopts, NULL)) != -1) {
    switch (c) {
    case OPT_FORMAT:
      if (fo_format_parse(optarg, &o.format) != FO_OK)
        return cli_usage_error("import", "--format: '%s' is not edgelist, planetoid, npy, mtx or ogb", optarg);
      break;
    case 'o': out = optarg; break;
    case OPT_UNDIRECTED: o.undirected = true; break;
    case OPT_SELF: o.remove_self_loops = true; break;
    case OPT_DEDUP: o.dedup = true; break;
    case OPT_DROP: o.drop_unknown = true; break;
    case OPT_RELABEL: o.relabel = true; break;
    case OPT_NUM:
      if (strchr(optarg, '=')) {
        fo_import_node_type *n;
        const char *rest;
        if ((rc = typed_value(t, "--num-nodes", optarg, '=', &n, &rest))) return rc;
        if (n->num_nodes >= 0) return cli_usage_error("import", "--num-nodes %s given twice", n->name);
        if ((rc = cli_i64("import", "--num-nodes", rest, &n->num_nodes))) return rc;
        if (n->num_nodes < 0) return cli_usage_error("import", "--num-nodes: %s is negative", optarg);
        break;
      }
      if ((rc = cli_i64("import", "--num-nodes", optarg, &o.num_nodes))) return rc;
      if (o.num_nodes < 0) return cli_usage_error("import", "--num-nodes: %s is negative", optarg);
      break;
    case OPT_CSC: want_csc = true; break;
    case OPT_CSR: want_csr = true; break;
    case OPT_IDX:
      if (!strcmp(optarg, "auto")) o.index_dtype = FO_INDEX_AUTO;
      else if (!strcmp(optarg, "int32")) o.index_dtype = FO_INDEX_INT32;
      else if (!strcmp(optarg, "int64")) o.index_dtype = FO_INDEX_INT64;
      else return cli_usage_error("import", "--index-dtype: '%s' is not auto, int32 or int64", optarg);
      break;
    case OPT_FORCE: o.force = true; break;
    case OPT_NONFINITE: o.allow_nonfinite = true; break;
    case OPT_STRING_IDS: o.string_ids = true; break;
    case OPT_COLUMNS: {
      int64_t *cols, nc;
      if ((rc = cli_i64_list("import", "--columns", optarg, &cols, &nc))) return rc;
      if (nc != 2 || cols[0] < 0 || cols[1] < 0 || cols[0] > 1000 || cols[1] > 1000) {
        free(cols);
        return cli_usage_error("import", "--columns: '%s' is not two column numbers S,D in 0..1000", optarg);
      }
      o.src_column = (int32_t)cols[0];
      o.dst_column = (int32_t)cols[1];
      free(cols);
      break;
    }
    case OPT_EDGE_WEIGHT:
      if (t->n_weight == 64) return cli_usage_error("import", "too many --edge-weight options");
      t->weight[t->n_weight++] = optarg;
      o.edge_weight = optarg;
      break;
    case OPT_EDGE_TIME:
      if (t->n_etime == 64) return cli_usage_error("import", "too many --edge-time options");
      t->etime[t->n_etime++] = optarg;
      o.edge_time = optarg;
      break;
    case OPT_NODE_TIME:
      if (t->n_ntime == 64) return cli_usage_error("import", "too many --node-time options");
      t->ntime[t->n_ntime++] = optarg;
      o.node_time = optarg;
      break;
    case OPT_SUP_POS:
    case OPT_SUP_NEG: {
      /* S__R__D=FILE: the type ends at the last '=' (relations may hold '=', paths rarely do) */
      const char *eq = strrchr(optarg, '='), *opt = c == OPT_SUP_POS ? "--supervision-edges"
                                                                     : "--supervision-negatives";
      if (!eq || eq == optarg || !eq[1])
        return cli_usage_error("import", "%s: '%s' is not SRC__REL__DST=FILE", opt, optarg);
      if (t->n_le == 64) return cli_usage_error("import", "too many %s options", opt);
      if (!(t->le[t->n_le].edge_type = own(t, optarg, (size_t)(eq - optarg))))
        return cli_usage_error("import", "out of memory");
      t->le[t->n_le].path = eq + 1;
      t->le[t->n_le++].negative = c == OPT_SUP_NEG;
      break;
    }
    case OPT_LABELS_ONLY: o.labels_only = optarg; break;
    case OPT_NEG_LABELS: o.negative_labels = optarg; break;
    case OPT_WEIGHT_COL:
    case OPT_TIME_COL: {
      int64_t k;
      const char *name = c == OPT_WEIGHT_COL ? "--weight-col" : "--time-col";
      if ((rc = cli_i64("import", name, optarg, &k))) return rc;
      if (k < 0 || k > 1000) return cli_usage_error("import", "%s: %s is not a column in 0..1000", name, optarg);
      if (c == OPT_WEIGHT_COL) o.weight_column = (int32_t)k;
      else o.time_column = (int32_t)k;
      break;
    }
    case OPT_TIME_FORMAT:
      if (!strcmp(optarg, "unix")) o.time_format = FO_TIME_UNIX;
      else if (!strcmp(optarg, "iso8601")) o.time_format = FO_TIME_ISO8601;
      else return cli_usage_error("import", "--time-format: '%s' is not unix or iso8601", optarg);
      break;
    case OPT_FEATURES:
    case OPT_LABELS:
    case OPT_SPLIT: {
      const char **list = c == OPT_FEATURES ? t->feat : c == OPT_LABELS ? t->lab : t->split;
      int *n = c == OPT_FEATURES ? &t->n_feat : c == OPT_LABELS ? &t->n_lab : &t->n_split;
      if (*n == 64) return cli_usage_error("import", "too many %s options", argv[optind - 1]);
      list[(*n)++] = optarg;
      if (c == OPT_FEATURES) o.features = optarg;
      else if (c == OPT_LABELS) o.labels = optarg;
      else o.splits = optarg;
      break;
    }
    case OPT_EDGE_TYPE:
      if ((rc = add_edge_type(t, optarg))) return rc;
      break;
    case OPT_EDGE_TYPE_COL: {
      int64_t k;
      if ((rc = cli_i64("import", "--edge-type-col", optarg, &k))) return rc;
      if (k < 0 || k > 1000) return cli_usage_error("import", "--edge-type-col: %s is not a column in 0..1000", optarg);
      o.edge_type_column = (int32_t)k;
      break;
    }
    case OPT_NODE_TYPES: o.node_types = optarg; break;
    case OPT_NODE_IDS: {
      fo_import_node_type *n;
      const char *rest;
      if ((rc = typed_value(t, "--node-ids", optarg, '=', &n, &rest))) return rc;
      if (n->node_ids) return cli_usage_error("import", "--node-ids %s given twice", n->name);
      n->node_ids = rest;
      break;
    }
    case OPT_DEFAULT_TYPE: o.default_node_type = optarg; break;
    case OPT_REVERSE: o.reverse_edges = true; break;
    case OPT_EDGE_SPLIT: {
      /* [SRC__REL__DST:]NAME=F.npy,...: an edge type is the part before a ':' that comes
       * before the first '=' (edge type and split names hold neither) */
      const char *eq = strchr(optarg, '='), *colon = strchr(optarg, ':');
      fo_import_edge_split *e;
      if (t->n_es == FO_IMPORT_MAX_EDGE_SPLIT_TYPES)
        return cli_usage_error("import", "more than %d --edge-split options", FO_IMPORT_MAX_EDGE_SPLIT_TYPES);
      e = &t->es[t->n_es++];
      e->edge_type = NULL;
      e->splits = optarg;
      if (colon && (!eq || colon < eq)) {
        if (!(e->edge_type = own(t, optarg, (size_t)(colon - optarg))))
          return cli_fail(fo_set_error(FO_ENOMEM, "--edge-split"));
        e->splits = colon + 1;
      }
      o.edge_splits = t->es;
      o.n_edge_splits = t->n_es;
      break;
    }
    case OPT_NODE_ARRAY: o.node_arrays = optarg; break;
    case OPT_ARRAY: o.arrays = optarg; break;
    case OPT_SPLIT_SEED:
      if ((rc = cli_u64("import", "--split-seed", optarg, &o.split_seed))) return rc;
      break;
    case OPT_FDTYPE:
      if (!strcmp(optarg, "auto")) o.feature_dtype = FO_FEATURES_AUTO;
      else if (!strcmp(optarg, "float32")) o.feature_dtype = FO_FEATURES_FLOAT32;
      else if (!strcmp(optarg, "float16")) o.feature_dtype = FO_FEATURES_FLOAT16;
      else if (!strcmp(optarg, "bfloat16")) o.feature_dtype = FO_FEATURES_BFLOAT16;
      else if (!strcmp(optarg, "uint8")) o.feature_dtype = FO_FEATURES_UINT8;
      else return cli_usage_error("import", "--feature-dtype: '%s' is not auto, float32, float16, "
                                  "bfloat16 or uint8", optarg);
      break;
    case OPT_JSON: json = true; break;
    case 'q': quiet = true; break;
    case 'h': help(); return CLI_OK;
    default: return cli_bad_option("import", c, argv, lopts);
    }
  }
  if (!out) return cli_usage_error("import", "missing -o DIR");
  o.label_edges = t->le;
  o.n_label_edges = t->n_le;
  if (t->n_et > 0 || o.edge_type_column >= 0) {
    /* typed: node data options are TYPE=...; the homogeneous fields stay unset */
    o.features = o.labels = o.splits = NULL;
    if ((rc = typed_node_data(t)) || (rc = typed_weights(t))) return rc;
    o.edge_weight = o.edge_time = o.node_time = NULL;
    o.edge_weights = t->ew;
    o.n_edge_weights = t->n_weight;
    o.edge_times = t->et_time;
    o.n_edge_times = t->n_etime;
    o.node_times = t->nt_time;
    o.n_node_times = t->n_ntime;
    o.edge_types = t->et;
    o.n_edge_types = t->n_et;
    o.node_type_opts = t->nt;
    o.n_node_type_opts = t->n_nt;
  } else if (t->n_nt > 0) {
    return cli_usage_error("import", "%s TYPE=... needs --edge-type or --edge-type-col",
                           t->nt[0].node_ids ? "--node-ids" : "--num-nodes");
  }
  if (t->n_et == 0 && optind >= argc) return cli_usage_error("import", "missing INPUT file(s)");
  if (want_csc || want_csr) {
    o.csc = want_csc;
    o.csr = want_csr;
  }
  o.progress = !quiet && !json;
  o.cancel = cli_cancel_on_signals();

  rc = fo_import((const char *const *)(argv + optind), argc - optind, out, &o, &r);
  if (rc != FO_OK) return cli_fail(rc);
  if (json) {
    printf("{\"output\": ");
    cli_json_string(stdout, out, strlen(out));
    if (r.n_node_types) printf(", \"node_types\": %d, \"edge_types\": %d", (int)r.n_node_types,
                               (int)r.n_edge_types);
    printf(", \"num_nodes\": %lld, \"num_edges\": %lld, \"input_edges\": %lld, "
           "\"self_loops_removed\": %lld, \"reverse_added\": %lld, \"duplicates_removed\": %lld, "
           "\"unknown_nodes\": %lld, \"unknown_edges_dropped\": %lld, \"isolated_nodes\": %lld}\n",
           (long long)r.n_nodes, (long long)r.n_edges, (long long)r.n_input_edges,
           (long long)r.n_self_loops_removed, (long long)r.n_reverse_added,
           (long long)r.n_duplicates_removed, (long long)r.n_unknown_nodes,
           (long long)r.n_unknown_edges_dropped, (long long)r.n_isolated);
  } else {
    if (r.n_node_types)
      printf("imported %s: %lld nodes of %d type%s, %lld edges of %d type%s\n", out,
             (long long)r.n_nodes, (int)r.n_node_types, r.n_node_types == 1 ? "" : "s",
             (long long)r.n_edges, (int)r.n_edge_types, r.n_edge_types == 1 ? "" : "s");
    else
      printf("imported %s: %lld nodes, %lld edges\n", out, (long long)r.n_nodes, (long long)r.n_edges);
    printf("  input edges          %lld\n", (long long)r.n_input_edges);
    if (o.remove_self_loops) printf("  self loops removed   %lld\n", (long long)r.n_self_loops_removed);
    if (o.undirected || o.reverse_edges)
      printf("  reverse edges added  %lld\n", (long long)r.n_reverse_added);
    if (o.undirected || o.dedup) printf("  duplicates removed   %lld\n", (long long)r.n_duplicates_removed);
    if (o.format == FO_FORMAT_PLANETOID) {
      printf("  ids only in cites    %lld (%s)\n", (long long)r.n_unknown_nodes,
             o.drop_unknown ? "dropped" : "added as feature-less nodes");
      if (o.drop_unknown) printf("  cites lines dropped  %lld\n", (long long)r.n_unknown_edges_dropped);
    }
    printf("  isolated nodes       %lld\n", (long long)r.n_isolated);
  }
  return CLI_OK;
}
