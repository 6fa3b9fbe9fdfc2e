/*
 * cli/cmd_topo.c: `fanout topo --procs N [--threads T] [--topology FILE.xml | --synthetic DESC]
 * [--allow-shared-cores] [--json]`: the worker runtime's CPU plan (fo_worker_plan) for N local
 * processes: per local rank its physical cores (hwloc logical indexes), its CPUs (PU OS
 * indexes, what taskset and sched_setaffinity take), its NUMA nodes (OS indexes) and its thread
 * budget. Binds nothing.
 */
#include "cli.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

static void help(void) {
  fo_worker_opts o;
  fo_worker_opts_init(&o);
  printf("usage: fanout topo --procs N [--threads T] [--topology FILE.xml | --synthetic DESC]\n"
         "                   [--allow-shared-cores] [--json]\n"
         "\n"
         "Print how fo_worker_init() splits this machine (or the given topology) among N local\n"
         "processes: per local rank its physical cores (hwloc logical indexes), its CPUs (OS\n"
         "indexes of the hardware threads), its NUMA nodes (OS indexes) and its thread budget.\n"
         "Cores are cut into N contiguous blocks; the first (cores mod N) ranks get one more\n"
         "core, unless another split of the same sizes keeps every block inside a NUMA node.\n"
         "\n"
         "  --procs N             local processes (local_world_size, required)\n"
         "  --threads T           thread budget per process (num_cpu_threads; default: the\n"
         "                        rank's CPU count)\n"
         "  --topology FILE.xml   plan on an hwloc XML topology (lstopo FILE.xml) instead\n"
         "  --synthetic DESC      plan on an hwloc synthetic topology, e.g. \"pack:2 core:8 pu:2\"\n"
         "  --allow-shared-cores  with more processes than cores, rank r gets core r mod cores\n"
         "                        (default %s)\n"
         "  --json                print {\"plan\": [{\"local_rank\", \"cores\", \"cpus\", \"numa\",\n"
         "                        \"threads\"}, ...]}\n",
         o.allow_shared_cores ? "on" : "off");
}

/* "0-3,8,10-11" for the ascending list v[n]; malloc'ed ("" when n = 0). */
static char *ranges(const int32_t *v, int32_t n) {
  char *s = malloc((size_t)n * 24 + 1), *p = s;
  if (!s) return NULL;
  *p = '\0';
  for (int32_t i = 0; i < n;) {
    int32_t j = i;
    while (j + 1 < n && v[j + 1] == v[j] + 1) j++;
    p += sprintf(p, j > i ? "%s%d-%d" : "%s%d", i ? "," : "", (int)v[i], (int)v[j]);
    i = j + 1;
  }
  return s;
}

static void json_list(const int32_t *v, int32_t n) {
  putchar('[');
  for (int32_t i = 0; i < n; i++) printf(i ? ", %d" : "%d", (int)v[i]);
  putchar(']');
}

enum { OPT_PROCS = 256, OPT_THREADS, OPT_TOPOLOGY, OPT_SYNTHETIC, OPT_SHARED, OPT_JSON };

int cmd_topo(int argc, char **argv) {
  static const struct option lopts[] = {
      {"procs", required_argument, NULL, OPT_PROCS},
      {"threads", required_argument, NULL, OPT_THREADS},
      {"topology", required_argument, NULL, OPT_TOPOLOGY},
      {"synthetic", required_argument, NULL, OPT_SYNTHETIC},
      {"allow-shared-cores", no_argument, NULL, OPT_SHARED},
      {"json", no_argument, NULL, OPT_JSON},
      {"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0}};
  fo_worker_opts o;
  fo_worker_info *plan = NULL;
  int64_t procs = 0, threads = 0;
  int32_t *cpus = NULL, *numa = NULL;
  char **cols = NULL; /* per rank: cores, cpus, numa */
  bool json = false;
  int c, rc, ret = CLI_OK;
  int w[3] = {5, 4, 4};

  fo_worker_opts_init(&o);
  optind = 0;
  opterr = 0;
  while ((c = getopt_long(argc, argv, ":h", lopts, NULL)) != -1) {
    switch (c) {
    case OPT_PROCS:
      if ((ret = cli_i64("topo", "--procs", optarg, &procs))) goto out;
      if (procs < 1 || procs > FO_WORKER_MAX_CPUS) {
        ret = cli_usage_error("topo", "--procs: %s is not in 1..%d", optarg, FO_WORKER_MAX_CPUS);
        goto out;
      }
      break;
    case OPT_THREADS:
      if ((ret = cli_i64("topo", "--threads", optarg, &threads))) goto out;
      if (threads < 1 || threads > INT32_MAX) {
        ret = cli_usage_error("topo", "--threads: %s is not >= 1", optarg);
        goto out;
      }
      break;
    case OPT_TOPOLOGY: o.topology_xml = optarg; break;
    case OPT_SYNTHETIC: o.topology_synthetic = optarg; break;
    case OPT_SHARED: o.allow_shared_cores = true; break;
    case OPT_JSON: json = true; break;
    case 'h': help(); goto out;
    default: ret = cli_bad_option("topo", c, argv, lopts); goto out;
    }
  }
  if (optind != argc) {
    ret = cli_usage_error("topo", "unexpected argument '%s'", argv[optind]);
    goto out;
  }
  if (!procs) {
    ret = cli_usage_error("topo", "missing --procs");
    goto out;
  }
  if (o.topology_xml && o.topology_synthetic) {
    ret = cli_usage_error("topo", "--topology and --synthetic exclude each other");
    goto out;
  }
  o.local_world_size = (int32_t)procs;
  /* Without --threads the output shows each rank's CPU count; any budget plans the same. */
  o.num_cpu_threads = threads ? (int32_t)threads : 1;
  plan = calloc((size_t)procs, sizeof *plan);
  cols = calloc((size_t)procs * 3, sizeof *cols);
  if (!plan || !cols) {
    fprintf(stderr, "fanout: topo: out of memory for %lld ranks\n", (long long)procs);
    ret = CLI_FAIL;
    goto out;
  }
  if ((rc = fo_worker_plan(&o, plan)) != FO_OK) {
    ret = cli_fail(rc);
    goto out;
  }
  cpus = malloc((size_t)plan[0].n_cpus_total * sizeof *cpus);
  numa = malloc((size_t)(plan[0].n_numa_total + 1) * sizeof *numa);
  if (!cpus || !numa) {
    fprintf(stderr, "fanout: topo: out of memory\n");
    ret = CLI_FAIL;
    goto out;
  }
  if (json) printf("{\"plan\": [");
  for (int64_t r = 0; r < procs; r++) {
    const fo_worker_info *in = &plan[r];
    int32_t nc = fo_worker_info_cpus(in, cpus, in->n_cpus_total);
    int32_t nn = fo_worker_info_numa(in, numa, in->n_numa_total + 1);
    int32_t t = threads ? in->num_threads : nc;
    if (json) {
      printf("%s\n  {\"local_rank\": %d, \"cores\": [", r ? "," : "", (int)in->local_rank);
      for (int32_t k = 0; k < in->n_cores; k++)
        printf(k ? ", %d" : "%d", (int)(in->first_core + k));
      printf("], \"cpus\": ");
      json_list(cpus, nc);
      printf(", \"numa\": ");
      json_list(numa, nn);
      printf(", \"threads\": %d}", (int)t);
    } else {
      char **col = &cols[r * 3];
      if ((col[0] = malloc(32)))
        snprintf(col[0], 32, in->n_cores > 1 ? "%d-%d" : "%d", (int)in->first_core,
                 (int)(in->first_core + in->n_cores - 1));
      if (!col[0] || !(col[1] = ranges(cpus, nc)) || !(col[2] = ranges(numa, nn))) {
        fprintf(stderr, "fanout: topo: out of memory\n");
        ret = CLI_FAIL;
        goto out;
      }
      for (int k = 0; k < 3; k++)
        if ((int)strlen(col[k]) > w[k]) w[k] = (int)strlen(col[k]);
    }
  }
  if (json) {
    printf("\n]}\n");
    goto out;
  }
  printf("topology  ");
  if (o.topology_xml) printf("XML '%s'", o.topology_xml);
  else if (o.topology_synthetic) printf("synthetic '%s'", o.topology_synthetic);
  else printf("this machine");
  printf(": %d physical cores, %d CPUs, %d NUMA node%s\n", (int)plan[0].n_cores_total,
         (int)plan[0].n_cpus_total, (int)plan[0].n_numa_total,
         plan[0].n_numa_total == 1 ? "" : "s");
  printf("rank  %-*s  %-*s  %-*s  threads\n", w[0], "cores", w[1], "cpus", w[2], "numa");
  for (int64_t r = 0; r < procs; r++) {
    const fo_worker_info *in = &plan[r];
    char **col = &cols[r * 3];
    int32_t t = threads ? in->num_threads : in->n_cpus;
    printf("%-4d  %-*s  %-*s  %-*s  %d%s\n", (int)r, w[0], col[0], w[1], col[1], w[2], col[2],
           (int)t, in->shared_cores ? "  (cores shared)" : "");
  }
out:
  if (cols)
    for (int64_t i = 0; i < procs * 3; i++) free(cols[i]);
  free(cols);
  free(cpus);
  free(numa);
  free(plan);
  return ret;
}
