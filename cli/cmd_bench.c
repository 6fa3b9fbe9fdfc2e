/*
 * cli/cmd_bench.c: `fanout bench DIR --fanout 15,10,5 --batch-size 1024 [...] [--json]`:
 * sample batches whose seeds are all nodes in a seeded shuffled order (one epoch, or the first
 * --batches batches of it) on one thread and report throughput and peak memory.
 */
#include "cli.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

static void help(void) {
  fo_sampler_opts o;
  fo_sampler_opts_init(&o);
  printf("usage: fanout bench DIR --fanout F1,F2,... [--batch-size B] [options] [--json]\n"
         "\n"
         "Sample an epoch (all nodes as seeds, shuffled with --seed) on one thread and report\n"
         "batches, seconds, sampled nodes and edges, edges/s and peak RSS.\n"
         "\n"
         "  --fanout LIST        neighbors per hop, -1 = all (required)\n"
         "  --batch-size B       seeds per batch (default 1024)\n"
         "  --batches N          stop after N batches (default: the whole epoch)\n"
         "  --seed N             random seed (default %llu)\n"
         "  --epoch N            epoch (default 0)\n"
         "  --replace            sample with replacement (default %s)\n"
         "  --edge-dir in|out    in-neighbors (CSC) or out-neighbors (CSR) (default %s)\n"
         "  --disjoint           one tree per seed (default %s)\n"
         "  --load mmap|hugepage how the topology is brought into memory (default mmap)\n"
         "  --json               print one JSON object\n",
         (unsigned long long)o.seed, o.replace ? "on" : "off",
         o.edge_dir == FO_EDGE_DIR_IN ? "in" : "out", o.disjoint ? "on" : "off");
}

/* AnonHugePages of this process in MiB, from /proc/self/smaps_rollup (0 if unavailable). */
static double huge_pages_mb(void) {
  FILE *f = fopen("/proc/self/smaps_rollup", "r");
  char line[256];
  double kb = 0;
  if (!f) return 0;
  while (fgets(line, sizeof line, f))
    if (!strncmp(line, "AnonHugePages:", 14)) kb = strtod(line + 14, NULL);
  fclose(f);
  return kb / 1024.0;
}

enum { OPT_FANOUT = 256, OPT_BS, OPT_BATCHES, OPT_SEED, OPT_EPOCH, OPT_REPLACE, OPT_DIR,
       OPT_DISJOINT, OPT_LOAD, OPT_JSON };

int cmd_bench(int argc, char **argv) {
  static const struct option lopts[] = {
      {"fanout", required_argument, NULL, OPT_FANOUT}, {"batch-size", required_argument, NULL, OPT_BS},
      {"batches", required_argument, NULL, OPT_BATCHES}, {"seed", required_argument, NULL, OPT_SEED},
      {"epoch", required_argument, NULL, OPT_EPOCH}, {"replace", no_argument, NULL, OPT_REPLACE},
      {"edge-dir", required_argument, NULL, OPT_DIR}, {"disjoint", no_argument, NULL, OPT_DISJOINT},
      {"load", required_argument, NULL, OPT_LOAD}, {"json", no_argument, NULL, OPT_JSON},
      {"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0}};
  fo_sampler_opts so;
  fo_dataset_opts dopts;
  int32_t *fanouts = NULL;
  int64_t batch_size = 1024, max_batches = -1, n, n_batches, *perm = NULL;
  int64_t sum_nodes = 0, sum_edges = 0;
  uint64_t epoch = 0;
  bool json = false;
  fo_dataset_t *d = NULL;
  fo_sampler_t *s = NULL;
  fo_batch_t *b = NULL;
  double t0, t_open, t_start, secs;
  int c, rc, ret = CLI_OK;

  fo_sampler_opts_init(&so);
  fo_dataset_opts_init(&dopts);
  optind = 0;
  opterr = 0;
  while ((c = getopt_long(argc, argv, ":h", lopts, NULL)) != -1) {
    switch (c) {
    case OPT_FANOUT:
      free(fanouts);
      if ((ret = cli_i32_list("bench", "--fanout", optarg, &fanouts, &so.n_hops))) goto out;
      so.fanouts = fanouts;
      break;
    case OPT_BS:
      if ((ret = cli_i64("bench", "--batch-size", optarg, &batch_size))) goto out;
      if (batch_size < 1) {
        ret = cli_usage_error("bench", "--batch-size: %s is not >= 1", optarg);
        goto out;
      }
      break;
    case OPT_BATCHES:
      if ((ret = cli_i64("bench", "--batches", optarg, &max_batches))) goto out;
      if (max_batches < 0) {
        ret = cli_usage_error("bench", "--batches: %s is negative", optarg);
        goto out;
      }
      break;
    case OPT_SEED: if ((ret = cli_u64("bench", "--seed", optarg, &so.seed))) goto out; break;
    case OPT_EPOCH: if ((ret = cli_u64("bench", "--epoch", optarg, &epoch))) goto out; break;
    case OPT_REPLACE: so.replace = true; break;
    case OPT_DIR: if ((ret = cli_edge_dir("bench", optarg, &so.edge_dir))) goto out; break;
    case OPT_DISJOINT: so.disjoint = true; break;
    case OPT_LOAD: if ((ret = cli_load_mode("bench", optarg, &dopts.load))) goto out; break;
    case OPT_JSON: json = true; break;
    case 'h': help(); goto out;
    default: ret = cli_bad_option("bench", c, argv, lopts); goto out;
    }
  }
  if (optind + 1 != argc) {
    ret = cli_usage_error("bench", "expected one dataset directory");
    goto out;
  }
  if (!fanouts) {
    ret = cli_usage_error("bench", "missing --fanout");
    goto out;
  }
  t0 = cli_now_s();
  if ((rc = fo_dataset_open(argv[optind], &dopts, &d)) != FO_OK) {
    ret = cli_fail(rc);
    goto out;
  }
  t_open = cli_now_s() - t0;
  n = fo_dataset_num_nodes(d);
  if (!(perm = malloc((size_t)(n ? n : 1) * sizeof *perm))) {
    fprintf(stderr, "fanout: bench: out of memory for %lld seeds\n", (long long)n);
    ret = CLI_FAIL;
    goto out;
  }
  if ((rc = fo_random_permutation(n, so.seed, epoch, perm)) != FO_OK ||
      (rc = fo_sampler_create(d, &so, &s)) != FO_OK || (rc = fo_batch_create(&b)) != FO_OK) {
    ret = cli_fail(rc);
    goto out;
  }
  n_batches = (n + batch_size - 1) / batch_size;
  if (max_batches >= 0 && max_batches < n_batches) n_batches = max_batches;
  t_start = cli_now_s();
  for (int64_t i = 0; i < n_batches; i++) {
    int64_t off = i * batch_size, k = n - off < batch_size ? n - off : batch_size;
    if ((rc = fo_sampler_sample(s, perm + off, k, epoch, (uint64_t)i, b)) != FO_OK) {
      ret = cli_fail(rc);
      goto out;
    }
    sum_nodes += b->n_nodes;
    sum_edges += b->n_edges;
  }
  secs = cli_now_s() - t_start;
  if (json) {
    printf("{\"dataset\": ");
    cli_json_string(stdout, argv[optind], strlen(argv[optind]));
    printf(", \"num_nodes\": %lld, \"num_edges\": %lld, \"fanout\": ", (long long)n,
           (long long)fo_dataset_num_edges(d));
    {
      int64_t f[64];
      for (int h = 0; h < so.n_hops && h < 64; h++) f[h] = so.fanouts[h];
      cli_json_i64_array(stdout, f, so.n_hops < 64 ? so.n_hops : 64);
    }
    printf(", \"seed\": %llu, \"epoch\": %llu, \"replace\": %s, \"edge_dir\": \"%s\", "
           "\"disjoint\": %s", (unsigned long long)so.seed, (unsigned long long)epoch,
           so.replace ? "true" : "false", so.edge_dir == FO_EDGE_DIR_IN ? "in" : "out",
           so.disjoint ? "true" : "false");
    printf(", \"load\": \"%s\", \"threads\": 1, \"batch_size\": %lld, \"batches\": %lld, "
           "\"seconds\": %.6f, \"open_seconds\": %.6f, \"sampled_nodes\": %lld, "
           "\"sampled_edges\": %lld, \"edges_per_s\": %.1f, \"nodes_per_s\": %.1f, "
           "\"peak_rss_mb\": %.1f, \"huge_pages_mb\": %.1f}\n",
           dopts.load == FO_LOAD_HUGEPAGE ? "hugepage" : "mmap", (long long)batch_size,
           (long long)n_batches, secs, t_open, (long long)sum_nodes, (long long)sum_edges,
           secs > 0 ? (double)sum_edges / secs : 0.0, secs > 0 ? (double)sum_nodes / secs : 0.0,
           cli_peak_rss_mb(), huge_pages_mb());
  } else {
    printf("dataset        %s (%lld nodes, %lld edges, load %s, opened in %.3f s)\n", argv[optind],
           (long long)n, (long long)fo_dataset_num_edges(d),
           dopts.load == FO_LOAD_HUGEPAGE ? "hugepage" : "mmap", t_open);
    printf("batches        %lld of up to %lld seeds (%lld seeds in all), 1 thread\n",
           (long long)n_batches, (long long)batch_size,
           (long long)(n_batches * batch_size < n ? n_batches * batch_size : n));
    printf("seconds        %.3f\n", secs);
    printf("sampled nodes  %lld\n", (long long)sum_nodes);
    printf("sampled edges  %lld\n", (long long)sum_edges);
    printf("edges/s        %.2f M\n", secs > 0 ? (double)sum_edges / secs / 1e6 : 0.0);
    printf("peak RSS       %.1f MiB\n", cli_peak_rss_mb());
  }
out:
  fo_batch_destroy(b);
  fo_sampler_destroy(s);
  fo_dataset_close(d);
  free(perm);
  free(fanouts);
  return ret;
}
