/*
 * cli/cmd_partition.c: `fanout partition DIR -n P --method hash|range|metis [--balance train]
 * -o OUT [--json]`: cut a dataset into P parts and print the quality report.
 */
#include "cli.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

static void help(void) {
  fo_partition_opts o;
  fo_partition_opts_init(&o);
  printf("usage: fanout partition DIR -n P [--method hash|range|metis] [--balance nodes|train]\n"
         "                        [--seed N] [--force] [--json] -o OUT\n"
         "\n"
         "Cut dataset DIR into P parts (one per machine) and write the partitioned dataset OUT:\n"
         "the partition book and part-<k>/ per part with its nodes' in-neighbor lists, edge ids,\n"
         "features, labels and split members. Node ids do not change: sampling OUT gives the\n"
         "same batches as sampling DIR. Prints per part the owned nodes, edges, train nodes and\n"
         "halo nodes, and the edge cut, replication factor and balance. Typed datasets: a book\n"
         "per node type (hash and range per type, metis over all types together), every edge\n"
         "type in every part (CSC, and CSR where DIR has one); the report sums the types.\n"
         "\n"
         "  -n, --parts P        number of parts, 1..65536 (required)\n"
         "  --method M           hash (random cut), range (contiguous ids) or metis (k-way,\n"
         "                       fewest cut edges; needs libmetis5) (default %s)\n"
         "  --balance B          nodes, or train: also balance the nodes of the split named by\n"
         "                       --train-split (default %s)\n"
         "  --train-split NAME   the split that counts as train nodes (default %s)\n"
         "  --seed N             hash key / METIS seed (default %llu)\n"
         "  -o, --output OUT     the partitioned dataset to create (required)\n"
         "  --force              replace OUT if it is an existing dataset\n"
         "  --json               print the report as JSON\n"
         "  -q, --quiet          no progress (drawn on stderr only when it is a terminal, never\n"
         "                       with --json): a line per phase, a bar over the parts written\n",
         o.method == FO_PARTITION_HASH ? "hash" : "range",
         o.balance == FO_BALANCE_NODES ? "nodes" : "train", o.train_split,
         (unsigned long long)o.seed);
}

static void print_report(const fo_partition_report *r, const char *out, bool json) {
  if (json) {
    printf("{\"output\": ");
    cli_json_string(stdout, out, strlen(out));
    printf(", \"num_parts\": %d, \"num_nodes\": %lld, \"num_edges\": %lld, \"train_nodes\": %lld, "
           "\"cut_edges\": %lld, \"edge_cut\": %.6f, \"replication\": %.6f, \"node_balance\": %.6f, "
           "\"train_balance\": %.6f, \"parts\": [",
           (int)r->n_parts, (long long)r->n_nodes, (long long)r->n_edges, (long long)r->train_nodes,
           (long long)r->cut_edges, r->edge_cut, r->replication, r->node_balance, r->train_balance);
    for (int32_t k = 0; k < r->n_parts; k++)
      printf("%s{\"part\": %d, \"nodes\": %lld, \"edges\": %lld, \"train_nodes\": %lld, "
             "\"halo_nodes\": %lld}",
             k ? ", " : "", (int)k, (long long)r->parts[k].nodes, (long long)r->parts[k].edges,
             (long long)r->parts[k].train_nodes, (long long)r->parts[k].halo_nodes);
    printf("]}\n");
    return;
  }
  printf("partitioned %s: %d parts, %lld nodes, %lld edges\n", out, (int)r->n_parts,
         (long long)r->n_nodes, (long long)r->n_edges);
  printf("  part        nodes        edges  train nodes   halo nodes\n");
  for (int32_t k = 0; k < r->n_parts; k++)
    printf("  %4d %12lld %12lld %12lld %12lld\n", (int)k, (long long)r->parts[k].nodes,
           (long long)r->parts[k].edges, (long long)r->parts[k].train_nodes,
           (long long)r->parts[k].halo_nodes);
  printf("  edge cut       %.4f (%lld of %lld edges cross parts)\n", r->edge_cut,
         (long long)r->cut_edges, (long long)r->n_edges);
  printf("  replication    %.4f (owned + halo nodes per node)\n", r->replication);
  printf("  balance        nodes %.4f, train nodes %.4f (max / mean)\n", r->node_balance,
         r->train_balance);
}

enum { OPT_METHOD = 256, OPT_BALANCE, OPT_TRAIN_SPLIT, OPT_SEED, OPT_FORCE, OPT_JSON };

int cmd_partition(int argc, char **argv) {
  static const struct option lopts[] = {
      {"parts", required_argument, NULL, 'n'}, {"method", required_argument, NULL, OPT_METHOD},
      {"balance", required_argument, NULL, OPT_BALANCE},
      {"train-split", required_argument, NULL, OPT_TRAIN_SPLIT},
      {"seed", required_argument, NULL, OPT_SEED}, {"output", required_argument, NULL, 'o'},
      {"force", no_argument, NULL, OPT_FORCE}, {"json", no_argument, NULL, OPT_JSON},
      {"quiet", no_argument, NULL, 'q'}, {"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0}};
  fo_partition_opts o;
  fo_partition_report r;
  const char *out = NULL;
  bool json = false, quiet = false, have_n = false;
  int64_t v;
  int c, rc;
  fo_partition_opts_init(&o);
  optind = 0;
  opterr = 0;
  while ((c = getopt_long(argc, argv, ":n:o:qh", lopts, NULL)) != -1) {
    switch (c) {
    case 'n':
      if ((rc = cli_i64("partition", "--parts", optarg, &v))) return rc;
      if (v < 1 || v > 65536) return cli_usage_error("partition", "--parts: %s is not in 1..65536", optarg);
      o.n_parts = (int32_t)v;
      have_n = true;
      break;
    case OPT_METHOD:
      if (fo_partition_method_parse(optarg, &o.method) != FO_OK)
        return cli_usage_error("partition", "--method: '%s' is not hash, range or metis", optarg);
      break;
    case OPT_BALANCE:
      if (!strcmp(optarg, "nodes")) o.balance = FO_BALANCE_NODES;
      else if (!strcmp(optarg, "train")) o.balance = FO_BALANCE_TRAIN;
      else return cli_usage_error("partition", "--balance: '%s' is not nodes or train", optarg);
      break;
    case OPT_TRAIN_SPLIT: o.train_split = optarg; break;
    case OPT_SEED: if ((rc = cli_u64("partition", "--seed", optarg, &o.seed))) return rc; break;
    case 'o': out = optarg; break;
    case OPT_FORCE: o.force = true; break;
    case OPT_JSON: json = true; break;
    case 'q': quiet = true; break;
    case 'h': help(); return CLI_OK;
    default: return cli_bad_option("partition", c, argv, lopts);
    }
  }
  if (optind + 1 != argc) return cli_usage_error("partition", "expected one dataset directory");
  if (!have_n) return cli_usage_error("partition", "missing -n P");
  if (!out) return cli_usage_error("partition", "missing -o OUT");
  o.progress = !quiet && !json;
  o.cancel = cli_cancel_on_signals();
  if ((rc = fo_partition(argv[optind], out, &o, &r)) != FO_OK) return cli_fail(rc);
  print_report(&r, out, json);
  fo_partition_report_free(&r);
  return CLI_OK;
}
