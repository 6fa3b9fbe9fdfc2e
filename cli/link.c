/*
 * cli/link.c: the link-prediction forms of `fanout sample` (--edge-seeds) and `fanout bench`
 * (--edge-seeds-split): argument parsing and the JSON keys of a link batch.
 */
#include "cli.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int cli_edge_pairs(const char *cmd, const char *arg, int64_t **src, int64_t **dst, int64_t *n) {
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
    return cli_usage_error(cmd, "--edge-seeds: '%.*s' is not a pair SRC-DST of node ids (give "
                           "SRC-DST,SRC-DST,...)", (int)len, p);
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
