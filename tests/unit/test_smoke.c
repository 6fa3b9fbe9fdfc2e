/* Placeholder replaced by real unit tests. */
#include "support.h"
static void smoke(void **state) {
  fot_edges e;
  char *dir;
  fo_dataset_t *d;
  fo_sampler_t *s;
  fo_batch_t *b;
  fo_sampler_opts o;
  fot_ref_batch r;
  int64_t seeds[] = {0, 3};
  (void)state;
  fot_cycle(6, &e);
  fot_dataset(&e, true, true, FO_INDEX_AUTO, &dir, &d);
  fo_sampler_opts_init(&o);
  o.fanouts = (const int32_t[]){1, 1};
  o.n_hops = 2;
  assert_fo_ok(fo_sampler_create(d, &o, &s));
  assert_fo_ok(fo_batch_create(&b));
  assert_fo_ok(fo_sampler_sample(s, seeds, 2, 0, 0, b));
  assert_null(fot_check_batch(d, &o, seeds, 2, b));
  assert_fo_ok(fot_ref_sample(d, &o, seeds, 2, 0, 0, &r));
  fot_assert_same_batch(b, &r);
  fot_ref_free(&r);
  fo_batch_destroy(b);
  fo_sampler_destroy(s);
  fo_dataset_close(d);
  fot_rmtree(dir);
  fot_edges_free(&e);
}
int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(smoke)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
