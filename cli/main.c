/*
 * cli/main.c: `fanout`, the command-line front end: dispatches to the subcommands.
 * Exit status: 0 success, 1 failure (message on stderr), 2 usage error.
 */
#include "cli.h"

#include <string.h>

static void usage(FILE *f) {
  fprintf(f,
          "usage: fanout <command> [options]\n"
          "\n"
          "commands:\n"
          "  import   turn an edge list (edgelist, planetoid, npy, mtx) into a dataset\n"
          "  info     counts, degrees and arrays of a dataset\n"
          "  verify   full check of a dataset (checksums, bounds)\n"
          "  sample   sample one batch and print it as JSON\n"
          "  bench    sample batches over all nodes and report throughput\n"
          "  partition  cut a dataset into parts (hash, range, METIS) and report the cut\n"
          "  topo     the CPU plan of the worker runtime: cores and CPUs per local rank\n"
          "\n"
          "'fanout <command> --help' describes a command; 'fanout --version' prints the version.\n");
}

int main(int argc, char **argv) {
  const char *cmd;
  if (argc < 2) {
    usage(stderr);
    return CLI_USAGE;
  }
  cmd = argv[1];
  if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help")) {
    usage(stdout);
    return CLI_OK;
  }
  if (!strcmp(cmd, "--version")) {
    printf("fanout %s\n", fo_version());
    return CLI_OK;
  }
  if (!strcmp(cmd, "import")) return cmd_import(argc - 1, argv + 1);
  if (!strcmp(cmd, "info")) return cmd_info(argc - 1, argv + 1);
  if (!strcmp(cmd, "verify")) return cmd_verify(argc - 1, argv + 1);
  if (!strcmp(cmd, "sample")) return cmd_sample(argc - 1, argv + 1);
  if (!strcmp(cmd, "bench")) return cmd_bench(argc - 1, argv + 1);
  if (!strcmp(cmd, "topo")) return cmd_topo(argc - 1, argv + 1);
  if (!strcmp(cmd, "partition")) return cmd_partition(argc - 1, argv + 1);
  fprintf(stderr, "fanout: unknown %s '%s'\nTry 'fanout --help'.\n", cmd[0] == '-' ? "option" : "command", cmd);
  return CLI_USAGE;
}
