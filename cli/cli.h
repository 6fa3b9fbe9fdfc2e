/*
 * cli/cli.h: what the `fanout` subcommands share: argument parsing helpers, error printing and
 * a minimal JSON writer. The CLI uses the public API only (<fanout/fanout.h>).
 */
#ifndef FO_CLI_H
#define FO_CLI_H

#include <fanout/fanout.h>

#include <stdio.h>

#define CLI_OK 0
#define CLI_FAIL 1
#define CLI_USAGE 2

int cmd_import(int argc, char **argv);
int cmd_info(int argc, char **argv);
int cmd_verify(int argc, char **argv);
int cmd_sample(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_topo(int argc, char **argv);
int cmd_partition(int argc, char **argv);

/* Print "fanout <cmd>: <message>" and a hint to stderr; returns CLI_USAGE. */
int cli_usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Report the option getopt_long rejected (c is ':' or '?'); returns CLI_USAGE. */
struct option;
int cli_bad_option(const char *cmd, int c, char **argv, const struct option *lopts);
/* Print "fanout: <fo_last_error()> (<status name>)" to stderr; returns CLI_FAIL. */
int cli_fail(int rc);

/* Parse helpers: 0 on success, else print a usage error naming `opt` and return CLI_USAGE. */
int cli_i64(const char *cmd, const char *opt, const char *s, int64_t *out);
int cli_u64(const char *cmd, const char *opt, const char *s, uint64_t *out);
/* Comma-separated int lists, e.g. "15,10,5"; *out is malloc'ed. */
int cli_i32_list(const char *cmd, const char *opt, const char *s, int32_t **out, int32_t *n);
int cli_i64_list(const char *cmd, const char *opt, const char *s, int64_t **out, int64_t *n);
/* @FILE of a list option (--seeds, --anchors, --edge-seeds): the text of `path` with each run
 * of whitespace and newlines as one comma (none beside a comma), malloc'ed into *out. Usage
 * errors name `opt` and the file: unreadable, empty (no `what`), or not text (a NUL byte). */
int cli_read_list_file(const char *cmd, const char *opt, const char *path, const char *what,
                       char **out);
/* A list option's value `arg`: the list itself, or for @FILE the file's text (*text, malloc'ed:
 * free it; NULL otherwise) with opt_out "OPT @FILE" to name it in the list's errors. */
int cli_list_arg(const char *cmd, const char *opt, const char *arg, const char *what,
                 const char **list, char **text, char *opt_out, size_t cap);
/* cli_i64_list of LIST or @FILE (cli_list_arg; `what` names the items: "anchors"). */
int cli_i64_list_arg(const char *cmd, const char *opt, const char *arg, const char *what,
                     int64_t **out, int64_t *n);
int cli_edge_dir(const char *cmd, const char *s, fo_edge_dir *out);
int cli_load_mode(const char *cmd, const char *s, fo_load_mode *out);

/* Make SIGINT and SIGTERM raise a flag instead of killing the process, and return it (for the
 * `cancel` option of long operations, which then stop and clean up). */
const volatile int *cli_cancel_on_signals(void);

/* Peak resident set size of this process in MiB (getrusage). */
double cli_peak_rss_mb(void);
double cli_now_s(void);

/* JSON output */
void cli_json_string(FILE *f, const char *s, size_t len);

/* The progress line of `fanout bench` (progress.c): stderr, terminals only, erased at the end. */
typedef struct cli_progress {
  bool active;
  const char *label;
  double start_s, last_s;
} cli_progress;
void cli_progress_start(cli_progress *p, bool enabled, const char *label);
/* epoch is 0-based of epochs; batch of n_batches (0: unknown) in this epoch; edges sampled so
 * far over the run (for the running edges/s). */
void cli_progress_batches(cli_progress *p, int64_t epoch, int64_t epochs, int64_t batch,
                          int64_t n_batches, int64_t edges);
void cli_progress_end(cli_progress *p);
void cli_json_i64_array(FILE *f, const int64_t *a, int64_t n);

/* ---- typed option forms (typed.c) ------------------------------------------------------------ */

/* --fanout LIST (all edge types) and --fanout EDGE_TYPE=LIST, collected until the dataset is open. */
typedef struct cli_fanouts {
  int32_t *all;
  int32_t n_all;
  struct {
    char *key;
    int32_t *f;
    int32_t n;
  } *typed;
  int n_typed;
  int32_t *per_type; /* [n_edge_types * n_hops], filled by resolve */
} cli_fanouts;

/* Parse one --fanout value (usage errors exit 2). */
int cli_fanout_arg(const char *cmd, const char *arg, cli_fanouts *f);
bool cli_fanouts_given(const cli_fanouts *f);
/* Set so->fanouts, n_hops and edge_type_fanouts for dataset `d` (names resolved; a typed form on
 * a version-1 dataset, an unknown or ambiguous edge type, lists of different lengths, or an edge
 * type left without a fanout fail with FO_EINVAL: exit 1). Pointers stay owned by `f`. */
int cli_fanouts_resolve(const char *cmd, const fo_dataset_t *d, cli_fanouts *f, fo_sampler_opts *so);
void cli_fanouts_free(cli_fanouts *f);
/* "TYPE:REST" -> *type = "TYPE" (malloc'ed), *rest = REST; no ':' -> *type NULL, *rest = arg. */
int cli_typed_arg(const char *cmd, const char *opt, const char *arg, char **type, const char **rest);
/* The node type called `type` (NULL: the only one; an error when there are several). */
int cli_node_type(const fo_dataset_t *d, const char *opt, const char *type, int32_t *out);

/* link.c: --edge-seeds SRC-DST,... into new arrays; --neg binary:R|triplet:K; the link keys of
 * a batch (", \"edge_label_index\": ..." up to, not including, the closing brace). */
/* `opt` names the option in messages; `arg` is SRC-DST,... or @FILE of that text
 * (cli_list_arg: messages then name "--edge-seeds @FILE"). */
int cli_edge_pairs(const char *cmd, const char *opt, const char *arg, int64_t **src, int64_t **dst,
                   int64_t *n);
int cli_neg_arg(const char *cmd, const char *arg, fo_neg_mode *mode, double *amount);
void cli_print_link(const fo_dataset_t *d, const fo_link_batch_t *lb);
/* `fanout bench DIR --edge-seeds-split [ET:]NAME`: the link loader over a stored edge split
 * (link.c). `lo` gives the sampler options and batching; `link` the negatives, strictness and
 * exclusion (its edge_type is set from `split` when that names one). */
typedef struct cli_link_bench {
  const char *split;       /* the raw --edge-seeds-split value */
  const char *edges;       /* the raw --edge-seeds value (SRC-DST,... or @FILE of that text) */
  fo_link_opts link;
  bool link_opt;           /* --edge-type, --neg, --no-strict or --exclude-seed-edges given */
} cli_link_bench;
/* --edge-seeds into o->edge_label_index / n_edges (a new array in *ei, freed by the caller). */
int cli_link_seed_edges(const char *cmd, const char *edges, fo_link_loader_opts *o, int64_t **ei);
int cli_bench_link(const char *path, const fo_dataset_opts *dopts, cli_fanouts *fanouts,
                   const fo_loader_opts *lo, cli_link_bench *lb, int64_t max_batches,
                   int64_t epochs, bool json, bool digest, bool quiet);
/* `mpiexec ... fanout bench PARTS --dist --edge-seeds-split [ET:]NAME` (cli/link_dist.c):
 * the distributed link loader, every rank its share; rank 0 prints the report, whose digest is
 * that of cli_bench_link over the unpartitioned dataset (global placement). */
int cli_bench_link_dist(const char *path, const fo_dataset_opts *dopts, cli_fanouts *fanouts,
                        const fo_loader_opts *lo, cli_link_bench *lb, int64_t max_batches,
                        int64_t epochs, bool json, bool digest, int32_t procs_per_machine,
                        double deadline_s, int tail, int seed_placement,
                        int64_t cache_bytes, int cache_policy, int32_t lookahead,
                        int32_t pipeline);
/* `fanout bench DIR --anchors LIST|@FILE | --anchors-split [TYPE:]NAME` (cli/ablp_bench.c): the
 * ABLP loader on the caller's thread; with --dist (under mpiexec) the distributed ABLP loader,
 * every rank its share, rank 0 printing the report whose digest is cli_bench_ablp's over the
 * unpartitioned dataset. */
typedef struct cli_ablp_bench {
  const char *anchors;     /* the raw --anchors value */
  const char *split;       /* the raw --anchors-split value */
  fo_ablp_opts ablp;       /* supervision, negative type, hard negatives, random negatives, strict */
  bool ablp_opt;           /* one of those options given */
} cli_ablp_bench;
int cli_bench_ablp(const char *path, const fo_dataset_opts *dopts, cli_fanouts *fanouts,
                   const fo_loader_opts *lo, cli_ablp_bench *ab, int64_t max_batches,
                   int64_t epochs, bool json, bool digest);
int cli_bench_ablp_dist(const char *path, const fo_dataset_opts *dopts, cli_fanouts *fanouts,
                        const fo_loader_opts *lo, cli_ablp_bench *ab, int64_t max_batches,
                        int64_t epochs, bool json, bool digest, int32_t procs_per_machine,
                        double deadline_s, int tail, int seed_placement,
                        int64_t cache_bytes, int cache_policy, int32_t lookahead,
                        int32_t pipeline);
/* cli/ablp.c: the ABLP keys of `fanout sample --anchors` (after the node batch's keys). */
void cli_print_ablp(const fo_dataset_t *d, const fo_ablp_batch_t *ab);
/* Temporal options (cli/temporal.c): opt is "--temporal", "--time", "--window" or
 * "--seed-time" (which replaces *seed_time with the parsed list). */
int cli_temporal_opt(const char *cmd, const char *opt, const char *arg, fo_sampler_opts *o,
                     int64_t **seed_time, int64_t *n_seed_time);
/* --strict, --window and --seed-time need --temporal. */
int cli_temporal_check(const char *cmd, const fo_sampler_opts *o, bool have_seed_time);

#endif
