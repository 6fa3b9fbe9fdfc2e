/*
 * cli/cmd_topo.c: `fanout topo` (placeholder; see the worker-runtime issue).
 */
#include "cli.h"

int cmd_topo(int argc, char **argv) {
  (void)argc;
  (void)argv;
  fprintf(stderr, "fanout topo: not implemented yet\n");
  return CLI_FAIL;
}
