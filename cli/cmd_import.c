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
         "\n"
         "Build a dataset directory DIR from INPUT (atomically: nothing is left on failure).\n"
         "\n"
         "  --format F           edgelist | planetoid | npy | mtx | ogb (default edgelist)\n"
         "                       edgelist: 'src dst' lines (tab, space or comma; # and %% comments; .gz)\n"
         "                       planetoid: NAME.content and NAME.cites (LINQS); npy: edge_index [2, E]\n"
         "                       mtx: Matrix Market coordinate; ogb: an OGB dataset directory\n"
         "                       (raw/edge.csv.gz, node-feat, node-label, node_year, split/...)\n"
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
         "  --labels Y.npy       node labels [n] (int64 or int32; -1 = none)\n"
         "  --split NAME=F.npy,...  node-id splits, e.g. train=a.npy,val=b.npy,test=c.npy\n"
         "  --node-array NAME=F.npy,...  int [n] arrays kept as node data (e.g. node_year)\n"
         "  --array NAME=F.npy,...  int [k] or [k, c] arrays kept as they are (\"extra\")\n"
         "  --feature-dtype T    stored features: auto | float32 | float16 | bfloat16 | uint8\n"
         "                       (uint8: per-column min/max quantization; default auto = as input,\n"
         "                       planetoid float32)\n"
         "  --split-seed N       planetoid: seed of the standard split (20 per class train, 500 val,\n"
         "                       1000 test) (default %llu)\n"
         "  --allow-nonfinite    keep NaN and infinite feature values (default: refused, naming\n"
         "                       the file, row and column)\n"
         "  --force              replace DIR if it is an existing dataset (the whole directory)\n"
         "  --json               print the report as JSON\n"
         "  -q, --quiet          no progress bar\n",
         o.undirected ? "on" : "off", o.remove_self_loops ? "on" : "off", o.dedup ? "on" : "off",
         o.drop_unknown ? "on" : "off", o.relabel ? "on" : "off", (unsigned long long)o.split_seed);
}

enum { OPT_FORMAT = 256, OPT_UNDIRECTED, OPT_SELF, OPT_DEDUP, OPT_DROP, OPT_RELABEL, OPT_NUM,
       OPT_CSC, OPT_CSR, OPT_IDX, OPT_FORCE, OPT_JSON, OPT_FEATURES, OPT_LABELS, OPT_SPLIT,
       OPT_FDTYPE, OPT_SPLIT_SEED, OPT_STRING_IDS, OPT_COLUMNS, OPT_NODE_ARRAY, OPT_ARRAY,
       OPT_NONFINITE };

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
      {"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0}};
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
    case OPT_FEATURES: o.features = optarg; break;
    case OPT_LABELS: o.labels = optarg; break;
    case OPT_SPLIT: o.splits = optarg; break;
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
  if (optind >= argc) return cli_usage_error("import", "missing INPUT file(s)");
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
    printf(", \"num_nodes\": %lld, \"num_edges\": %lld, \"input_edges\": %lld, "
           "\"self_loops_removed\": %lld, \"reverse_added\": %lld, \"duplicates_removed\": %lld, "
           "\"unknown_nodes\": %lld, \"unknown_edges_dropped\": %lld, \"isolated_nodes\": %lld}\n",
           (long long)r.n_nodes, (long long)r.n_edges, (long long)r.n_input_edges,
           (long long)r.n_self_loops_removed, (long long)r.n_reverse_added,
           (long long)r.n_duplicates_removed, (long long)r.n_unknown_nodes,
           (long long)r.n_unknown_edges_dropped, (long long)r.n_isolated);
  } else {
    printf("imported %s: %lld nodes, %lld edges\n", out, (long long)r.n_nodes, (long long)r.n_edges);
    printf("  input edges          %lld\n", (long long)r.n_input_edges);
    if (o.remove_self_loops) printf("  self loops removed   %lld\n", (long long)r.n_self_loops_removed);
    if (o.undirected) printf("  reverse edges added  %lld\n", (long long)r.n_reverse_added);
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
