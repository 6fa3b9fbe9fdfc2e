/*
 * cli/ablp.c: the anchor-based link prediction form of `fanout sample` (--anchors,
 * --supervision): the JSON keys of an ABLP batch.
 */
#include "cli.h"

#include <string.h>

/* [[row 0], [row 1]] of a [2, n] C-order array. */
static void print_pairs(const int64_t *a, int64_t n) {
  printf("[");
  cli_json_i64_array(stdout, a, n);
  printf(", ");
  cli_json_i64_array(stdout, a + n, n);
  printf("]");
}

void cli_print_ablp(const fo_dataset_t *d, const fo_ablp_batch_t *ab) {
  fo_edge_type ty;
  fo_dataset_label_edge_type(d, ab->positive_type, &ty);
  printf(", \"supervision_edge_type\": ");
  cli_json_string(stdout, ty.name, strlen(ty.name));
  printf(", \"negative_edge_type\": ");
  if (ab->negative_type >= 0) {
    fo_dataset_label_edge_type(d, ab->negative_type, &ty);
    cli_json_string(stdout, ty.name, strlen(ty.name));
  } else {
    printf("null");
  }
  printf(", \"anchor_index\": ");
  cli_json_i64_array(stdout, ab->anchor_index, ab->n_anchors);
  printf(", \"y_positive\": ");
  print_pairs(ab->y_positive, ab->n_pos);
  printf(", \"y_negative\": ");
  print_pairs(ab->y_negative, ab->n_neg);
  if (ab->k) {
    printf(", \"random_negative\": [");
    for (int64_t i = 0; i < ab->n_anchors; i++) {
      printf("%s", i ? ", " : "");
      cli_json_i64_array(stdout, ab->random_negative + i * ab->k, ab->k);
    }
    printf("], \"num_random_missing\": %lld", (long long)ab->n_random_missing);
  }
}
