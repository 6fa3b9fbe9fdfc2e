/*
 * cli/cmd_sample.c: `fanout sample DIR --fanout 15,10 --seeds 0,5,7 [...] --json`: sample one
 * batch and print it as one JSON object (keys node, row, col, edge, num_sampled_nodes,
 * num_sampled_edges, and batch in disjoint mode). For a typed dataset `--seeds TYPE:0,5,7`,
 * `--fanout s__r__d=5,3` per edge type, and every key holds an object keyed by node type
 * (node, num_sampled_nodes, batch) or by edge type "src__rel__dst" (row, col, edge,
 * num_sampled_edges).
 */
#include "cli.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

static void help(void) {
  fo_sampler_opts o;
  fo_sampler_opts_init(&o);
  printf("usage: fanout sample DIR --fanout F1,F2,... --seeds S1,S2,... [options] [--json]\n"
         "\n"
         "Sample one batch and print it (PyG SamplerOutput layout: node, row, col, edge,\n"
         "num_sampled_nodes, num_sampled_edges; batch in disjoint mode).\n"
         "\n"
         "  --fanout LIST        neighbors per hop, -1 = all (required)\n"
         "  --fanout ET=LIST     typed datasets: the fanouts of edge type ET (src__rel__dst,\n"
         "                       or a relation name naming one edge type); repeatable\n"
         "  --seeds LIST|@FILE   seed node ids (dataset ids, 0-based) (required); @FILE: the\n"
         "                       same list in a text file (whitespace and newlines as commas)\n"
         "  --seeds TYPE:LIST    typed datasets: seeds of node type TYPE (TYPE:@FILE too)\n"
         "  --seed N             random seed (default %llu)\n"
         "  --epoch N            epoch, part of the random key (default 0)\n"
         "  --batch-index N      batch index, part of the random key (default 0)\n"
         "  --replace            sample with replacement (default %s)\n"
         "  --weighted           draw neighbors by edge weight (import --edge-weight)\n"
         "  --edge-dir in|out    in-neighbors (CSC) or out-neighbors (CSR) (default %s)\n"
         "  --disjoint           one tree per seed, adds 'batch' (default %s)\n"
         "  --temporal S         temporal sampling: uniform (among eligible edges) or last (the\n"
         "                       most recent eligible); one tree per seed (adds 'batch')\n"
         "  --time edge|node     eligible: edge time <= seed time, or neighbor's node time\n"
         "                       (default edge)\n"
         "  --seed-time LIST     the time of each seed (default: the seeds' node times); with\n"
         "                       --edge-seeds the time of each seed edge (required)\n"
         "  --strict             eligible only if strictly earlier (<) than the seed time\n"
         "  --window W           and not earlier than seed time - W\n"
         "  --orig-ids           print original node ids in 'node' instead of dataset ids\n"
         "  --edge-seeds LIST|@FILE  link prediction: seed edges SRC-DST,SRC-DST,... (instead\n"
         "                       of --seeds); adds edge_label_index and edge_label (triplet:\n"
         "                       src_index, dst_pos_index, dst_neg_index)\n"
         "  --edge-type ET       the seed edges' edge type (typed datasets)\n"
         "  --neg binary:R|triplet:K  random negatives (strict: never an edge)\n"
         "  --no-strict          negatives may be edges (PyG's behaviour)\n"
         "  --exclude-seed-edges the seed edges (and reverses) are not sampled in their batch\n"
         "  --anchors LIST|@FILE anchor-based link prediction (ABLP): anchor node ids (instead\n"
         "                       of --seeds); adds anchor_index, y_positive, y_negative\n"
         "  --supervision ET     the positive labels-only edge type (import\n"
         "                       --supervision-edges); default: the only one\n"
         "  --negative-type ET   the hard-negative labels-only type (default: the only one)\n"
         "  --no-hard-negatives  read no hard negatives\n"
         "  --random-negatives K K random label nodes per anchor, never positives (strict;\n"
         "                       --no-strict: any); adds random_negative\n"
         "  --json               print JSON (the only output format for now)\n",
         (unsigned long long)o.seed, o.replace ? "on" : "off",
         o.edge_dir == FO_EDGE_DIR_IN ? "in" : "out", o.disjoint ? "on" : "off");
}

static int print_nodes(const fo_dataset_t *d, const fo_batch_t *b, bool orig);

/* A typed batch: every key an object keyed by node type or edge type. */
static int print_typed(const fo_dataset_t *d, const fo_batch_t *b, bool orig) {
  const int32_t T = b->n_node_types, E = b->n_edge_types;
  static const char *const ekeys[] = {"row", "col", "edge"};
  int rc;
  printf("{\"node\": {");
  for (int32_t t = 0; t < T; t++) {
    const char *nm = fo_dataset_node_type_name(d, t);
    printf("%s", t ? ", " : "");
    cli_json_string(stdout, nm, strlen(nm));
    printf(": ");
    if ((rc = print_nodes(fo_dataset_node_data(d, t), fo_batch_node_type(b, t), orig)) != FO_OK)
      return rc;
  }
  printf("}");
  for (int k = 0; k < 3; k++) {
    printf(", \"%s\": {", ekeys[k]);
    for (int32_t et = 0; et < E; et++) {
      const fo_batch_t *eb = fo_batch_edge_type(b, et);
      fo_edge_type ty;
      fo_dataset_edge_type(d, et, &ty);
      printf("%s", et ? ", " : "");
      cli_json_string(stdout, ty.name, strlen(ty.name));
      printf(": ");
      cli_json_i64_array(stdout, k == 0 ? eb->row : k == 1 ? eb->col : eb->edge, eb->n_edges);
    }
    printf("}");
  }
  for (int k = 0; k < (b->disjoint ? 2 : 1); k++) {
    printf(", \"%s\": {", k ? "batch" : "num_sampled_nodes");
    for (int32_t t = 0; t < T; t++) {
      const fo_batch_t *nb = fo_batch_node_type(b, t);
      const char *nm = fo_dataset_node_type_name(d, t);
      printf("%s", t ? ", " : "");
      cli_json_string(stdout, nm, strlen(nm));
      printf(": ");
      if (k) cli_json_i64_array(stdout, nb->batch, nb->n_nodes);
      else cli_json_i64_array(stdout, nb->num_sampled_nodes, nb->n_hops + 1);
    }
    printf("}");
  }
  printf(", \"num_sampled_edges\": {");
  for (int32_t et = 0; et < E; et++) {
    const fo_batch_t *eb = fo_batch_edge_type(b, et);
    fo_edge_type ty;
    fo_dataset_edge_type(d, et, &ty);
    printf("%s", et ? ", " : "");
    cli_json_string(stdout, ty.name, strlen(ty.name));
    printf(": ");
    cli_json_i64_array(stdout, eb->num_sampled_edges, eb->n_hops);
  }
  printf("}"); /* the caller closes the object (after the link keys) */
  return FO_OK;
}

static int print_nodes(const fo_dataset_t *d, const fo_batch_t *b, bool orig) {
  fo_orig_kind k = fo_dataset_node_orig_kind(d);
  if (!orig || k == FO_ORIG_IDENTITY) {
    cli_json_i64_array(stdout, b->node, b->n_nodes);
    return FO_OK;
  }
  putchar('[');
  for (int64_t i = 0; i < b->n_nodes; i++) {
    int rc;
    if (i) fputs(", ", stdout);
    if (k == FO_ORIG_INT64) {
      int64_t v;
      if ((rc = fo_dataset_node_orig_int(d, b->node[i], &v)) != FO_OK) return rc;
      printf("%lld", (long long)v);
    } else {
      const char *s;
      size_t len;
      if ((rc = fo_dataset_node_orig_str(d, b->node[i], &s, &len)) != FO_OK) return rc;
      cli_json_string(stdout, s, len);
    }
  }
  putchar(']');
  return FO_OK;
}

enum { OPT_FANOUT = 256, OPT_SEEDS, OPT_SEED, OPT_EPOCH, OPT_BATCH, OPT_REPLACE, OPT_DIR,
       OPT_DISJOINT, OPT_ORIG, OPT_JSON, OPT_WEIGHTED, OPT_EDGE_SEEDS, OPT_EDGE_TYPE, OPT_NEG,
       OPT_NO_STRICT, OPT_EXCLUDE, OPT_TEMPORAL, OPT_TIME, OPT_SEED_TIME, OPT_STRICT, OPT_WINDOW,
       OPT_ANCHORS, OPT_SUPERVISION, OPT_NEG_TYPE, OPT_NO_HARD, OPT_RANDOM_NEG };

int cmd_sample(int argc, char **argv) {
  static const struct option lopts[] = {
      {"fanout", required_argument, NULL, OPT_FANOUT}, {"seeds", required_argument, NULL, OPT_SEEDS},
      {"seed", required_argument, NULL, OPT_SEED}, {"epoch", required_argument, NULL, OPT_EPOCH},
      {"batch-index", required_argument, NULL, OPT_BATCH}, {"replace", no_argument, NULL, OPT_REPLACE},
      {"weighted", no_argument, NULL, OPT_WEIGHTED},
      {"temporal", required_argument, NULL, OPT_TEMPORAL}, {"time", required_argument, NULL, OPT_TIME},
      {"seed-time", required_argument, NULL, OPT_SEED_TIME}, {"strict", no_argument, NULL, OPT_STRICT},
      {"window", required_argument, NULL, OPT_WINDOW},
      {"edge-dir", required_argument, NULL, OPT_DIR}, {"disjoint", no_argument, NULL, OPT_DISJOINT},
      {"orig-ids", no_argument, NULL, OPT_ORIG}, {"json", no_argument, NULL, OPT_JSON},
      {"edge-seeds", required_argument, NULL, OPT_EDGE_SEEDS},
      {"edge-type", required_argument, NULL, OPT_EDGE_TYPE}, {"neg", required_argument, NULL, OPT_NEG},
      {"no-strict", no_argument, NULL, OPT_NO_STRICT},
      {"exclude-seed-edges", no_argument, NULL, OPT_EXCLUDE},
      {"anchors", required_argument, NULL, OPT_ANCHORS},
      {"supervision", required_argument, NULL, OPT_SUPERVISION},
      {"negative-type", required_argument, NULL, OPT_NEG_TYPE},
      {"no-hard-negatives", no_argument, NULL, OPT_NO_HARD},
      {"random-negatives", required_argument, NULL, OPT_RANDOM_NEG},
      {"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0}};
  fo_sampler_opts so;
  cli_fanouts fanouts = {0};
  char *seed_type_name = NULL;
  int32_t seed_type = 0;
  int64_t *seeds = NULL, n_seeds = 0, *seed_time = NULL, n_seed_time = 0;
  uint64_t epoch = 0, batch_index = 0;
  bool orig = false, have_seeds = false;
  fo_dataset_t *d = NULL;
  fo_sampler_t *s = NULL;
  fo_batch_t *b = NULL;
  fo_link_opts lo;
  fo_link_sampler_t *ls = NULL;
  fo_link_batch_t *lb = NULL;
  int64_t *esrc = NULL, *edst = NULL, n_eseeds = 0;
  char *edge_type = NULL;
  bool link = false;
  /* ABLP (--anchors) */
  fo_ablp_opts ao;
  fo_ablp_sampler_t *as = NULL;
  fo_ablp_batch_t *ab = NULL;
  int64_t *anchors = NULL, n_anchors = 0;
  char *sup = NULL, *neg_type = NULL;
  bool ablp = false, ablp_opt = false;
  int c, rc, ret = CLI_OK;

  fo_sampler_opts_init(&so);
  fo_link_opts_init(&lo);
  fo_ablp_opts_init(&ao);
  optind = 0;
  opterr = 0;
  while ((c = getopt_long(argc, argv, ":h", lopts, NULL)) != -1) {
    switch (c) {
    case OPT_FANOUT:
      if ((ret = cli_fanout_arg("sample", optarg, &fanouts))) goto out;
      break;
    case OPT_SEEDS: {
      const char *list;
      free(seeds);
      seeds = NULL;
      /* LIST, TYPE:LIST, @FILE or TYPE:@FILE (after '@' a ':' is the path's) */
      if (optarg[0] == '@') {
        free(seed_type_name);
        seed_type_name = NULL;
        list = optarg;
      } else if ((ret = cli_typed_arg("sample", "--seeds", optarg, &seed_type_name, &list))) {
        goto out;
      }
      if ((ret = cli_i64_list_arg("sample", "--seeds", list, "seeds", &seeds, &n_seeds))) goto out;
      have_seeds = true;
      break;
    }
    case OPT_SEED: if ((ret = cli_u64("sample", "--seed", optarg, &so.seed))) goto out; break;
    case OPT_EPOCH: if ((ret = cli_u64("sample", "--epoch", optarg, &epoch))) goto out; break;
    case OPT_BATCH: if ((ret = cli_u64("sample", "--batch-index", optarg, &batch_index))) goto out; break;
    case OPT_REPLACE: so.replace = true; break;
    case OPT_WEIGHTED: so.weighted = true; break;
    case OPT_TEMPORAL:
    case OPT_TIME:
    case OPT_SEED_TIME:
    case OPT_WINDOW:
      if ((ret = cli_temporal_opt("sample", c == OPT_TEMPORAL ? "--temporal" : c == OPT_TIME ? "--time"
                                  : c == OPT_WINDOW ? "--window" : "--seed-time", optarg, &so,
                                  &seed_time, &n_seed_time)))
        goto out;
      break;
    case OPT_STRICT: so.time_strict = true; break;
    case OPT_DIR: if ((ret = cli_edge_dir("sample", optarg, &so.edge_dir))) goto out; break;
    case OPT_DISJOINT: so.disjoint = true; break;
    case OPT_ORIG: orig = true; break;
    case OPT_JSON: break;
    case OPT_EDGE_SEEDS:
      free(esrc);
      free(edst);
      esrc = edst = NULL;
      if ((ret = cli_edge_pairs("sample", "--edge-seeds", optarg, &esrc, &edst, &n_eseeds))) goto out;
      link = true;
      break;
    case OPT_EDGE_TYPE:
      free(edge_type);
      edge_type = strdup(optarg);
      break;
    case OPT_NEG: if ((ret = cli_neg_arg("sample", optarg, &lo.neg, &lo.neg_amount))) goto out; break;
    case OPT_NO_STRICT: lo.strict = false; break;
    case OPT_EXCLUDE: lo.exclude_seed_edges = true; break;
    case OPT_ANCHORS:
      free(anchors);
      anchors = NULL;
      if ((ret = cli_i64_list_arg("sample", "--anchors", optarg, "anchors", &anchors, &n_anchors)))
        goto out;
      ablp = true;
      break;
    case OPT_SUPERVISION:
    case OPT_NEG_TYPE: {
      char **p = c == OPT_SUPERVISION ? &sup : &neg_type;
      free(*p);
      *p = strdup(optarg);
      ablp_opt = true;
      break;
    }
    case OPT_NO_HARD: ao.no_hard_negatives = ablp_opt = true; break;
    case OPT_RANDOM_NEG: {
      uint64_t k;
      if ((ret = cli_u64("sample", "--random-negatives", optarg, &k))) goto out;
      ao.num_random_negatives = k > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)k;
      ablp_opt = true;
      break;
    }
    case 'h': help(); goto out;
    default: ret = cli_bad_option("sample", c, argv, lopts); goto out;
    }
  }
  if (optind + 1 != argc) {
    ret = cli_usage_error("sample", "expected one dataset directory");
    goto out;
  }
  if (!cli_fanouts_given(&fanouts)) {
    ret = cli_usage_error("sample", "missing --fanout");
    goto out;
  }
  if ((int)link + (int)have_seeds + (int)ablp > 1) {
    ret = cli_usage_error("sample", "give one of --seeds, --edge-seeds and --anchors");
    goto out;
  }
  if (ablp_opt && !ablp) {
    ret = cli_usage_error("sample", "--supervision, --negative-type, --no-hard-negatives and "
                          "--random-negatives need --anchors");
    goto out;
  }
  if (ablp && (edge_type || lo.neg != FO_NEG_NONE || lo.exclude_seed_edges)) {
    ret = cli_usage_error("sample", "--edge-type, --neg and --exclude-seed-edges need --edge-seeds "
                          "(with --anchors: --supervision, --random-negatives)");
    goto out;
  }
  if (ablp) {
    ao.strict = lo.strict;
    lo.strict = true;
  }
  if (!link && (edge_type || lo.neg != FO_NEG_NONE || !lo.strict || lo.exclude_seed_edges)) {
    ret = cli_usage_error("sample", "--edge-type, --neg, --no-strict and --exclude-seed-edges "
                          "need --edge-seeds");
    goto out;
  }
  if (!have_seeds && !link && !ablp) {
    ret = cli_usage_error("sample", "missing --seeds (or --edge-seeds, --anchors)");
    goto out;
  }
  if ((ret = cli_temporal_check("sample", &so, seed_time != NULL))) goto out;
  if (seed_time && n_seed_time != (link ? n_eseeds : n_seeds)) {
    ret = cli_usage_error("sample", "--seed-time gives %lld times for %lld %s", (long long)n_seed_time,
                          (long long)(link ? n_eseeds : n_seeds), link ? "seed edges" : "seeds");
    goto out;
  }
  if ((rc = fo_dataset_open(argv[optind], NULL, &d)) != FO_OK) {
    ret = cli_fail(rc);
    goto out;
  }
  if ((ret = cli_fanouts_resolve("sample", d, &fanouts, &so)) ||
      (!link && !ablp && (ret = cli_node_type(d, "--seeds", seed_type_name, &seed_type))))
    goto out;
  if (ablp) {
    /* anchor-based link prediction: the ABLP sampler makes the node batch */
    ao.sampler = so;
    ao.supervision_edge_type = sup;
    ao.negative_edge_type = neg_type;
    if ((rc = fo_ablp_sampler_create(d, &ao, &as)) != FO_OK || (rc = fo_ablp_batch_create(&ab)) != FO_OK ||
        (rc = fo_ablp_sampler_sample(as, anchors, n_anchors, epoch, batch_index, ab)) != FO_OK) {
      ret = cli_fail(rc);
      goto out;
    }
  } else if (link) {
    /* link prediction: the link sampler makes the node batch */
    lo.sampler = so;
    lo.edge_type = edge_type;
    if ((rc = fo_link_sampler_create(d, &lo, &ls)) != FO_OK || (rc = fo_link_batch_create(&lb)) != FO_OK ||
        (rc = fo_link_sampler_sample_at(ls, esrc, edst, NULL, seed_time, n_eseeds, epoch,
                                        batch_index, lb)) != FO_OK) {
      ret = cli_fail(rc);
      goto out;
    }
  } else if ((rc = fo_sampler_create(d, &so, &s)) != FO_OK || (rc = fo_batch_create(&b)) != FO_OK ||
             (rc = so.temporal != FO_TEMPORAL_NONE
                       ? fo_sampler_sample_at(s, seed_type, seeds, seed_time, n_seeds, epoch, batch_index, b)
                       : fo_sampler_sample_typed(s, seed_type, seeds, n_seeds, epoch, batch_index, b)) != FO_OK) {
    ret = cli_fail(rc);
    goto out;
  }
  if (lb) b = lb->sample;
  if (ab) b = ab->sample;
  if (b->typed) {
    if ((rc = print_typed(d, b, orig)) != FO_OK) {
      putchar('\n');
      ret = cli_fail(rc);
      goto out;
    }
    if (lb) cli_print_link(d, lb);
    if (ab) cli_print_ablp(d, ab);
    printf("}\n");
    goto out;
  }
  printf("{\"node\": ");
  if ((rc = print_nodes(d, b, orig)) != FO_OK) {
    putchar('\n');
    ret = cli_fail(rc);
    goto out;
  }
  printf(", \"row\": ");
  cli_json_i64_array(stdout, b->row, b->n_edges);
  printf(", \"col\": ");
  cli_json_i64_array(stdout, b->col, b->n_edges);
  printf(", \"edge\": ");
  cli_json_i64_array(stdout, b->edge, b->n_edges);
  if (b->disjoint) {
    printf(", \"batch\": ");
    cli_json_i64_array(stdout, b->batch, b->n_nodes);
  }
  printf(", \"num_sampled_nodes\": ");
  cli_json_i64_array(stdout, b->num_sampled_nodes, b->n_hops + 1);
  printf(", \"num_sampled_edges\": ");
  cli_json_i64_array(stdout, b->num_sampled_edges, b->n_hops);
  if (lb) cli_print_link(d, lb);
  printf("}\n");
out:
  if (lb || ab) b = NULL; /* lb's or ab's */
  fo_ablp_batch_destroy(ab);
  fo_ablp_sampler_destroy(as);
  free(anchors);
  free(sup);
  free(neg_type);
  fo_link_batch_destroy(lb);
  fo_link_sampler_destroy(ls);
  free(esrc);
  free(edst);
  free(edge_type);
  fo_batch_destroy(b);
  fo_sampler_destroy(s);
  fo_dataset_close(d);
  cli_fanouts_free(&fanouts);
  free(seed_type_name);
  free(seeds);
  free(seed_time);
  return ret;
}
