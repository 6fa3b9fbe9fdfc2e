/*
 * cli/link.c: the link-prediction forms of `fanout sample` (--edge-seeds) and `fanout bench`
 * (--edge-seeds-split): argument parsing and the JSON keys of a link batch.
 */
#include "cli.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int edge_pairs(const char *cmd, const char *opt, const char *arg, int64_t **src, int64_t **dst,
                      int64_t *n);

int cli_edge_pairs(const char *cmd, const char *opt, const char *arg, int64_t **src, int64_t **dst,
                   int64_t *n) {
  char *text, o[320];
  const char *list;
  int ret = cli_list_arg(cmd, opt, arg, "seed edges", &list, &text, o, sizeof o);
  if (!ret) ret = edge_pairs(cmd, o, list, src, dst, n);
  free(text);
  return ret;
}

static int edge_pairs(const char *cmd, const char *opt, const char *arg, int64_t **src, int64_t **dst,
                      int64_t *n) {
  int64_t cap = 16, k = 0;
  const char *p = arg;
  int64_t *s = malloc((size_t)cap * sizeof *s), *d = malloc((size_t)cap * sizeof *d);
  if (!s || !d) {
    free(s);
    free(d);
    fprintf(stderr, "fanout %s: out of memory\n", cmd);
    return CLI_FAIL;
  }
  for (;;) {
    const size_t len = strcspn(p, ",");
    char buf[96], *mid, *end1, *end2;
    long long a, b;
    if (len == 0 || len >= sizeof buf) goto bad;
    memcpy(buf, p, len);
    buf[len] = '\0';
    if (!(mid = strchr(buf + 1, '-'))) goto bad;
    *mid = '\0';
    a = strtoll(buf, &end1, 10);
    b = strtoll(mid + 1, &end2, 10);
    if (*end1 || *end2 || end1 == buf || end2 == mid + 1) goto bad;
    if (k == cap) {
      int64_t *ns = realloc(s, (size_t)cap * 2 * sizeof *s), *nd;
      if (!ns) goto bad;
      s = ns;
      if (!(nd = realloc(d, (size_t)cap * 2 * sizeof *d))) goto bad;
      d = nd;
      cap *= 2;
    }
    s[k] = a;
    d[k++] = b;
    if (!p[len]) break;
    p += len + 1;
    continue;
  bad:
    free(s);
    free(d);
    return cli_usage_error(cmd, "%s: '%.*s' is not a pair SRC-DST of node ids (give "
                           "SRC-DST,SRC-DST,...)", opt, (int)len, p);
  }
  *src = s;
  *dst = d;
  *n = k;
  return CLI_OK;
}

int cli_neg_arg(const char *cmd, const char *arg, fo_neg_mode *mode, double *amount) {
  const char *colon = strchr(arg, ':');
  char *end;
  double v;
  if (!colon) goto bad;
  if ((size_t)(colon - arg) == 6 && !strncmp(arg, "binary", 6)) *mode = FO_NEG_BINARY;
  else if ((size_t)(colon - arg) == 7 && !strncmp(arg, "triplet", 7)) *mode = FO_NEG_TRIPLET;
  else goto bad;
  v = strtod(colon + 1, &end);
  if (end == colon + 1 || *end || !isfinite(v)) goto bad;
  *amount = v; /* <= 0 and non-integer triplet amounts: the library's messages */
  return CLI_OK;
bad:
  return cli_usage_error(cmd, "--neg: '%s' is not binary:R or triplet:K", arg);
}

void cli_print_link(const fo_dataset_t *d, const fo_link_batch_t *lb) {
  const int64_t L = lb->n_label;
  fo_edge_type ty;
  fo_dataset_edge_type(d, lb->edge_type, &ty);
  printf(", \"edge_type\": ");
  cli_json_string(stdout, ty.name, strlen(ty.name));
  if (lb->k) {
    printf(", \"src_index\": ");
    cli_json_i64_array(stdout, lb->src_index, lb->n_pos);
    printf(", \"dst_pos_index\": ");
    cli_json_i64_array(stdout, lb->dst_pos_index, lb->n_pos);
    printf(", \"dst_neg_index\": [");
    for (int64_t i = 0; i < lb->n_pos; i++) {
      printf("%s", i ? ", " : "");
      cli_json_i64_array(stdout, lb->dst_neg_index + i * lb->k, lb->k);
    }
    printf("]");
  } else {
    printf(", \"edge_label_index\": [");
    cli_json_i64_array(stdout, lb->edge_label_index, L);
    printf(", ");
    cli_json_i64_array(stdout, lb->edge_label_index + L, L);
    printf("], \"edge_label\": ");
    cli_json_i64_array(stdout, lb->edge_label, L);
  }
  printf(", \"num_neg\": %lld, \"num_neg_missing\": %lld, \"num_excluded\": %lld",
         (long long)lb->n_neg, (long long)lb->n_neg_missing, (long long)lb->n_excluded);
}

int cli_link_seed_edges(const char *cmd, const char *edges, fo_link_loader_opts *o, int64_t **ei) {
  int64_t *src = NULL, *dst = NULL, n = 0;
  int ret;
  *ei = NULL;
  if (!edges) return CLI_OK;
  /* LIST or @FILE (whitespace and newlines as commas) */
  if ((ret = cli_edge_pairs(cmd, "--edge-seeds", edges, &src, &dst, &n))) return ret;
  if (!(*ei = malloc((size_t)(2 * n + 1) * sizeof **ei))) {
    free(src);
    free(dst);
    return cli_fail(fo_set_error(FO_ENOMEM, "bench: --edge-seeds"));
  }
  memcpy(*ei, src, (size_t)n * sizeof *src);
  memcpy(*ei + n, dst, (size_t)n * sizeof *dst);
  free(src);
  free(dst);
  o->edge_label_index = *ei;
  o->n_edges = n;
  return CLI_OK;
}

int cli_bench_link(const char *path, const fo_dataset_opts *dopts, cli_fanouts *fanouts,
                   const fo_loader_opts *lo, cli_link_bench *lb, int64_t max_batches,
                   int64_t epochs, bool json, bool digest, bool quiet) {
  fo_link_loader_opts o;
  fo_dataset_t *d = NULL;
  fo_link_loader_t *L = NULL;
  cli_progress pg = {0};
  char *et_name = NULL;
  const char *split = NULL;
  uint64_t *digests = NULL;
  int64_t n_dig = 0, batches = 0, nodes = 0, edges = 0, seeds = 0, negs = 0, missing = 0, excl = 0;
  double t0, t_open, secs;
  int rc = FO_OK, ret = CLI_OK;
  fo_edge_type ty;

  int64_t *ei = NULL;
  if (lb->split && (ret = cli_typed_arg("bench", "--edge-seeds-split", lb->split, &et_name, &split)))
    return ret;
  if (et_name && lb->link.edge_type && strcmp(et_name, lb->link.edge_type)) {
    ret = cli_usage_error("bench", "--edge-seeds-split %s names edge type '%s', --edge-type '%s'",
                          lb->split, et_name, lb->link.edge_type);
    goto out;
  }
  fo_link_loader_opts_init(&o);
  o.link = lb->link;
  if (et_name) o.link.edge_type = et_name;
  o.batch_size = lo->batch_size;
  o.shuffle = lo->shuffle;
  o.drop_last = lo->drop_last;
  o.epoch = lo->epoch;
  o.features = lo->features;
  o.edge_split = split;
  if ((ret = cli_link_seed_edges("bench", lb->edges, &o, &ei))) goto out;
  t0 = cli_now_s();
  if ((rc = fo_dataset_open(path, dopts, &d)) != FO_OK) goto fail;
  t_open = cli_now_s() - t0;
  o.link.sampler = lo->sampler;
  if ((ret = cli_fanouts_resolve("bench", d, fanouts, &o.link.sampler))) goto out;
  if ((rc = fo_link_loader_create(d, &o, &L)) != FO_OK) goto fail;
  if (digest) {
    int64_t nb = fo_link_loader_num_batches(L);
    if (max_batches >= 0 && max_batches < nb) nb = max_batches;
    if (!(digests = malloc((size_t)(nb * epochs + 1) * sizeof *digests))) {
      rc = fo_set_error(FO_ENOMEM, "bench: digest list");
      goto fail;
    }
  }
  t0 = cli_now_s();
  cli_progress_start(&pg, !quiet && !json, "bench");
  for (int64_t e = 0; e < epochs; e++) {
    int64_t nb = fo_link_loader_num_batches(L);
    if (max_batches >= 0 && max_batches < nb) nb = max_batches;
    if (e > 0 && (rc = fo_link_loader_start_epoch(L, lo->epoch + (uint64_t)e)) != FO_OK) goto fail;
    for (int64_t i = 0; i < nb; i++) {
      fo_link_loader_batch_t *b;
      if ((rc = fo_link_loader_next(L, &b)) != FO_OK) goto fail;
      if (!b) break;
      batches++;
      nodes += b->link->sample->n_nodes;
      edges += b->link->sample->n_edges;
      seeds += b->link->n_pos;
      negs += b->link->n_neg;
      missing += b->link->n_neg_missing;
      excl += b->link->n_excluded;
      if (digest) digests[n_dig++] = fo_link_loader_batch_digest(b);
      cli_progress_batches(&pg, e, epochs, i + 1, nb, edges);
    }
  }
  cli_progress_end(&pg);
  secs = cli_now_s() - t0;
  fo_dataset_edge_type(d, fo_link_loader_edge_type(L), &ty);
  if (json) {
    printf("{\"dataset\": ");
    cli_json_string(stdout, path, strlen(path));
    printf(", \"mode\": \"link\", \"edge_type\": ");
    cli_json_string(stdout, ty.name, strlen(ty.name));
    printf(", \"edge_split\": ");
    if (split) cli_json_string(stdout, split, strlen(split));
    else printf("null");
    printf(", \"neg\": \"%s\", \"neg_amount\": %g, \"strict\": %s, \"exclude_seed_edges\": %s, "
           "\"seed\": %llu, \"epoch\": %llu, \"epochs\": %lld, \"batch_size\": %lld, "
           "\"batches\": %lld, \"seconds\": %.6f, \"open_seconds\": %.6f, \"seed_edges\": %lld, "
           "\"num_neg\": %lld, \"num_neg_missing\": %lld, \"num_excluded\": %lld, "
           "\"sampled_nodes\": %lld, \"sampled_edges\": %lld, \"edges_per_s\": %.1f, "
           "\"peak_rss_mb\": %.1f",
           o.link.neg == FO_NEG_BINARY ? "binary" : o.link.neg == FO_NEG_TRIPLET ? "triplet" : "none",
           o.link.neg == FO_NEG_NONE ? 0.0 : o.link.neg_amount, o.link.strict ? "true" : "false",
           o.link.exclude_seed_edges ? "true" : "false", (unsigned long long)o.link.sampler.seed,
           (unsigned long long)lo->epoch, (long long)epochs, (long long)o.batch_size,
           (long long)batches, secs, t_open, (long long)seeds, (long long)negs, (long long)missing,
           (long long)excl, (long long)nodes, (long long)edges,
           secs > 0 ? (double)edges / secs : 0.0, cli_peak_rss_mb());
    if (digest) printf(", \"digest\": \"%016llx\"", (unsigned long long)fo_digest_sequence(digests, n_dig));
    printf("}\n");
  } else {
    printf("dataset        %s (%lld nodes, %lld edges, opened in %.3f s)\n", path,
           (long long)fo_dataset_num_nodes(d), (long long)fo_dataset_num_edges(d), t_open);
    printf("mode           link loader over %s '%s' of %s, caller's thread\n",
           split ? "edge split" : "seed edges", split ? split : lb->edges, ty.name);
    printf("batches        %lld (batch size %lld seed edges, %lld epoch%s)\n", (long long)batches,
           (long long)o.batch_size, (long long)epochs, epochs == 1 ? "" : "s");
    printf("seed edges     %lld (negatives %lld, missing %lld; excluded positions %lld)\n",
           (long long)seeds, (long long)negs, (long long)missing, (long long)excl);
    printf("seconds        %.3f\n", secs);
    printf("sampled nodes  %lld\n", (long long)nodes);
    printf("sampled edges  %lld\n", (long long)edges);
    printf("edges/s        %.2f M\n", secs > 0 ? (double)edges / secs / 1e6 : 0.0);
    printf("peak RSS       %.1f MiB\n", cli_peak_rss_mb());
    if (digest) printf("digest         %016llx\n", (unsigned long long)fo_digest_sequence(digests, n_dig));
  }
  goto out;
fail:
  cli_progress_end(&pg);
  ret = cli_fail(rc);
out:
  fo_link_loader_destroy(L);
  fo_dataset_close(d);
  free(et_name);
  free(digests);
  free(ei);
  return ret;
}
