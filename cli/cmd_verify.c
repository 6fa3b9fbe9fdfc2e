/*
 * cli/cmd_verify.c: `fanout verify DIR`: the full O(n + m) check (fo_dataset_verify).
 */
#include "cli.h"

#include <getopt.h>

int cmd_verify(int argc, char **argv) {
  static const struct option lopts[] = {{"quiet", no_argument, NULL, 'q'},
                                        {"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0}};
  fo_dataset_t *d;
  fo_verify_opts vo;
  int c, rc;
  fo_verify_opts_init(&vo);
  vo.progress = true;
  optind = 0;
  opterr = 0;
  while ((c = getopt_long(argc, argv, ":qh", lopts, NULL)) != -1) {
    if (c == 'q') {
      vo.progress = false;
      continue;
    }
    if (c == 'h') {
      printf("usage: fanout verify [-q] DIR\n\n"
             "Read the whole dataset and check every array's xxh64, that each indptr rises\n"
             "from 0 to the edge count, that indices and edge ids are in range, and that the\n"
             "CSC and CSR (when both are stored) hold the same edges. Exit status 0 if so.\n"
             "\n"
             "  -q, --quiet          no progress bar (drawn only when stderr is a terminal)\n");
      return CLI_OK;
    }
    return cli_bad_option("verify", c, argv, lopts);
  }
  if (optind + 1 != argc) return cli_usage_error("verify", "expected one dataset directory");
  if ((rc = fo_dataset_open(argv[optind], NULL, &d)) != FO_OK) return cli_fail(rc);
  vo.cancel = cli_cancel_on_signals();
  rc = fo_dataset_verify_with(d, &vo);
  if (rc == FO_OK)
    printf("ok: %s: %lld nodes, %lld edges, %lld arrays verified\n", argv[optind],
           (long long)fo_dataset_num_nodes(d), (long long)fo_dataset_num_edges(d),
           (long long)fo_dataset_num_arrays(d));
  fo_dataset_close(d);
  return rc == FO_OK ? CLI_OK : cli_fail(rc);
}
