/*
 * tests/unit/test_core.c: the error machinery (status names, the thread-local message, nested
 * context phrases) and the .npy header codec (store/npy.c): valid headers of every version the
 * parser accepts, the header we write byte for byte against numpy's, round trips, and every
 * rejection with its message.
 */
#include "support.h"

#include "core/internal.h"
#include "store/store_internal.h"

#include <errno.h>
#include <pthread.h>

/* ---- errors -------------------------------------------------------------------------------- */

static void status_names(void **state) {
  (void)state;
  assert_string_equal(fo_status_name(FO_OK), "FO_OK");
  assert_string_equal(fo_status_name(FO_EINVAL), "FO_EINVAL");
  assert_string_equal(fo_status_name(FO_ENOMEM), "FO_ENOMEM");
  assert_string_equal(fo_status_name(FO_EIO), "FO_EIO");
  assert_string_equal(fo_status_name(FO_EFORMAT), "FO_EFORMAT");
  assert_string_equal(fo_status_name(FO_ERANGE), "FO_ERANGE");
  assert_string_equal(fo_status_name(FO_EMPI), "FO_EMPI");
  assert_string_equal(fo_status_name(FO_ENOSYS), "FO_ENOSYS");
  assert_string_equal(fo_status_name(FO_ECANCELED), "FO_ECANCELED");
  assert_string_equal(fo_status_name(FO_EINTERNAL), "FO_EINTERNAL");
  assert_string_equal(fo_status_name(1), "FO_E?");
  assert_string_equal(fo_status_name(-10), "FO_E?");
  assert_string_equal(fo_status_name(INT32_MIN), "FO_E?");
  assert_non_null(fo_version());
  assert_true(strchr(fo_version(), '.') != NULL);
}

static void fail_sets_message(void **state) {
  (void)state;
  fo_clear_error();
  assert_string_equal(fo_last_error(), "");
  assert_int_equal(FO_FAIL(FO_ERANGE, "node %d not in [0, %d)", 42, 7), FO_ERANGE);
  assert_string_equal(fo_last_error(), "node 42 not in [0, 7)");
  /* A new failure replaces the message entirely. */
  assert_int_equal(fo__fail(FO_EINVAL, "x.c", 1, "second"), FO_EINVAL);
  assert_string_equal(fo_last_error(), "second");
  fo_clear_error();
  assert_string_equal(fo_last_error(), "");
}

static void context_nests_outermost_first(void **state) {
  int rc;
  (void)state;
  rc = FO_FAIL(FO_EFORMAT, "file has %d bytes, header says %d", 96, 128);
  rc = fo__context(rc, "%s", "csc_indices.npy");
  rc = fo__context(rc, "open dataset '%s'", "g.fanout");
  assert_int_equal(rc, FO_EFORMAT); /* the code passes through unchanged */
  assert_string_equal(fo_last_error(),
                      "open dataset 'g.fanout': csc_indices.npy: file has 96 bytes, header says 128");
  /* Any code passes through, even an unknown one. */
  assert_int_equal(fo__context(-77, "outer"), -77);
  assert_true(strncmp(fo_last_error(), "outer: open dataset", 19) == 0);
}

static void context_on_empty_message(void **state) {
  (void)state;
  fo_clear_error();
  assert_int_equal(fo__context(FO_EIO, "only %s", "this"), FO_EIO);
  assert_string_equal(fo_last_error(), "only this"); /* no dangling ": " */
}

static void set_error_copies_and_truncates(void **state) {
  char big[3000];
  (void)state;
  assert_int_equal(fo_set_error(FO_EMPI, "from a worker"), FO_EMPI);
  assert_string_equal(fo_last_error(), "from a worker");
  assert_int_equal(fo_set_error(FO_EINVAL, NULL), FO_EINVAL);
  assert_string_equal(fo_last_error(), "");
  memset(big, 'a', sizeof big - 1);
  big[sizeof big - 1] = '\0';
  fo_set_error(FO_EINVAL, big);
  assert_int_equal(strlen(fo_last_error()), 1023);
  /* A long message from fo__fail is cut too, and context on a full buffer stays in bounds. */
  FO_FAIL(FO_EINVAL, "%s", big);
  assert_int_equal(strlen(fo_last_error()), 1023);
  fo__context(FO_EINVAL, "outer");
  assert_true(strlen(fo_last_error()) <= 1023);
  assert_true(strncmp(fo_last_error(), "outer: aaa", 10) == 0);
  /* An overlong prefix leaves no room for the old message but still terminates. */
  fo__context(FO_EINVAL, "%s", big);
  assert_true(strlen(fo_last_error()) <= 1023);
}

static void fail_errno_appends_strerror(void **state) {
  char want[256];
  (void)state;
  errno = ENOENT;
  assert_int_equal(FO_FAIL_ERRNO("open '%s'", "/nonexistent"), FO_EIO);
  snprintf(want, sizeof want, "open '/nonexistent': %s", strerror(ENOENT));
  assert_string_equal(fo_last_error(), want);
}

static void *thread_sets_error(void *arg) {
  char *out = arg;
  /* A fresh thread starts with an empty message, then sets its own. */
  snprintf(out, 256, "%s|", fo_last_error());
  FO_FAIL(FO_EINVAL, "worker message");
  strncat(out, fo_last_error(), 200);
  return NULL;
}

static void message_is_thread_local(void **state) {
  pthread_t th;
  char seen[256] = "";
  (void)state;
  FO_FAIL(FO_EIO, "main message");
  assert_int_equal(pthread_create(&th, NULL, thread_sets_error, seen), 0);
  assert_int_equal(pthread_join(th, NULL), 0);
  assert_string_equal(seen, "|worker message");
  assert_string_equal(fo_last_error(), "main message");
}

/* ---- .npy headers -------------------------------------------------------------------------- */

/* Build "\x93NUMPY" + version + header length + dict + spaces + '\n' into buf (v1: 2-byte
 * length, v2/v3: 4-byte), padded to a multiple of 64; returns the total length. */
static size_t make_header(unsigned char *buf, size_t cap, int major, const char *dict) {
  size_t pre = major == 1 ? 10 : 12, dl = strlen(dict), total = (pre + dl + 1 + 63) / 64 * 64;
  size_t hlen = total - pre;
  assert_true(total <= cap);
  memcpy(buf, "\x93NUMPY", 6);
  buf[6] = (unsigned char)major;
  buf[7] = 0;
  buf[8] = (unsigned char)(hlen & 0xff);
  buf[9] = (unsigned char)(hlen >> 8 & 0xff);
  if (major != 1) {
    buf[10] = (unsigned char)(hlen >> 16 & 0xff);
    buf[11] = (unsigned char)(hlen >> 24 & 0xff);
  }
  memcpy(buf + pre, dict, dl);
  memset(buf + pre + dl, ' ', total - pre - dl - 1);
  buf[total - 1] = '\n';
  return total;
}

static void npy_parse_v1(void **state) {
  unsigned char buf[512];
  fo__npy_header h;
  size_t n;
  (void)state;
  n = make_header(buf, sizeof buf, 1, "{'descr': '<i8', 'fortran_order': False, 'shape': (5,), }");
  assert_int_equal(n, 128);
  /* The data may follow the header: len larger than the header is fine. */
  assert_fo_ok(fo__npy_parse(buf, sizeof buf, &h));
  assert_string_equal(h.descr, "<i8");
  assert_false(h.fortran_order);
  assert_int_equal(h.ndim, 1);
  assert_int_equal(h.shape[0], 5);
  assert_int_equal(h.itemsize, 8);
  assert_int_equal(h.count, 5);
  assert_int_equal(h.data_offset, 128);
  /* Exactly the header's length is enough too. */
  assert_fo_ok(fo__npy_parse(buf, n, &h));
}

static void npy_parse_v2_v3(void **state) {
  unsigned char buf[512];
  fo__npy_header h;
  size_t n;
  (void)state;
  n = make_header(buf, sizeof buf, 2, "{'descr': '<i4', 'fortran_order': False, 'shape': (3, 7), }");
  assert_int_equal(n % 64, 0);
  assert_fo_ok(fo__npy_parse(buf, n, &h));
  assert_string_equal(h.descr, "<i4");
  assert_int_equal(h.ndim, 2);
  assert_int_equal(h.shape[0], 3);
  assert_int_equal(h.shape[1], 7);
  assert_int_equal(h.count, 21);
  assert_int_equal(h.itemsize, 4);
  assert_int_equal(h.data_offset, n);
  n = make_header(buf, sizeof buf, 3, "{'descr': '|S12', 'fortran_order': False, 'shape': (4,), }");
  assert_fo_ok(fo__npy_parse(buf, n, &h));
  assert_string_equal(h.descr, "|S12");
  assert_int_equal(h.itemsize, 12);
  assert_int_equal(h.data_offset, n);
}

static void npy_parse_variants(void **state) {
  unsigned char buf[512];
  fo__npy_header h;
  size_t n;
  (void)state;
  /* Fortran order, 2-D. */
  n = make_header(buf, sizeof buf, 1, "{'descr': '<i4', 'fortran_order': True, 'shape': (2, 5), }");
  assert_fo_ok(fo__npy_parse(buf, n, &h));
  assert_true(h.fortran_order);
  assert_int_equal(h.ndim, 2);
  assert_int_equal(h.shape[0], 2);
  assert_int_equal(h.shape[1], 5);
  assert_int_equal(h.count, 10);
  /* A scalar: shape () has one element. */
  n = make_header(buf, sizeof buf, 1, "{'descr': '<f8', 'fortran_order': False, 'shape': (), }");
  assert_fo_ok(fo__npy_parse(buf, n, &h));
  assert_int_equal(h.ndim, 0);
  assert_int_equal(h.count, 1);
  /* Keys in another order, double quotes, no trailing comma, Python 2 longs, zero length. */
  n = make_header(buf, sizeof buf, 1, "{\"shape\": (0L, 3L), \"fortran_order\": False, \"descr\": \"|u1\"}");
  assert_fo_ok(fo__npy_parse(buf, n, &h));
  assert_string_equal(h.descr, "|u1");
  assert_int_equal(h.ndim, 2);
  assert_int_equal(h.shape[0], 0);
  assert_int_equal(h.shape[1], 3);
  assert_int_equal(h.count, 0);
  assert_int_equal(h.itemsize, 1);
  /* Four dimensions is the maximum. */
  n = make_header(buf, sizeof buf, 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (1, 2, 3, 4), }");
  assert_fo_ok(fo__npy_parse(buf, n, &h));
  assert_int_equal(h.ndim, 4);
  assert_int_equal(h.count, 24);
  assert_int_equal(h.itemsize, 4);
}

static void npy_descr_itemsize(void **state) {
  static const struct {
    const char *descr;
    int64_t size; /* 0: rejected */
  } cases[] = {
      {"<i1", 1}, {"<i2", 2}, {"<i4", 4}, {"<i8", 8}, {"<u8", 8}, {"|u1", 1}, {"|i1", 1},
      {">i1", 1}, {"=i4", 4}, {"<f2", 2}, {"<f4", 4}, {"<f8", 8}, {"|b1", 1}, {"|S1", 1},
      {"|S12", 12}, {"|V16", 16}, {"<i3", 0}, {"<i16", 0}, {"<f1", 0}, {"<f16", 0},
      {"|b2", 0}, {"<c8", 0}, {"<c16", 0}, {">i8", 0}, {">f4", 0}, {"<U4", 0}, {"|O8", 0},
      {"<M8", 0}, {"i8", 0}, {"<i", 0}, {"<i0", 0}, {"<i-4", 0}, {"<i8x", 0}, {"", 0},
      {"|S99999999", 0}, {"?i4", 0},
  };
  (void)state;
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    int64_t size = -1;
    int rc = fo__npy_descr_itemsize(cases[i].descr, &size);
    if (cases[i].size) {
      if (rc != FO_OK) fail_msg("'%s' rejected: %s", cases[i].descr, fo_last_error());
      assert_int_equal(size, cases[i].size);
    } else {
      if (rc != FO_EFORMAT) fail_msg("'%s' accepted (size %lld)", cases[i].descr, (long long)size);
      if (!strstr(fo_last_error(), "unsupported dtype"))
        fail_msg("'%s': message '%s'", cases[i].descr, fo_last_error());
    }
  }
}

static void npy_format_matches_numpy(void **state) {
  /* Exactly what numpy 1.24's np.save writes (checked with numpy). */
  static const char hdr5[] = "\x93NUMPY\x01\x00v\x00{'descr': '<i8', 'fortran_order': False, 'shape': (5,), }";
  static const char hdr25[] = "\x93NUMPY\x01\x00v\x00{'descr': '<i4', 'fortran_order': False, 'shape': (2, 5), }";
  char buf[256];
  size_t n;
  (void)state;
  n = fo__npy_format(buf, sizeof buf, "<i8", 1, (const int64_t[]){5});
  assert_int_equal(n, 128);
  assert_memory_equal(buf, hdr5, sizeof hdr5 - 1);
  for (size_t i = sizeof hdr5 - 1; i < 127; i++) assert_int_equal(buf[i], ' ');
  assert_int_equal(buf[127], '\n');

  n = fo__npy_format(buf, sizeof buf, "<i4", 2, (const int64_t[]){2, 5});
  assert_int_equal(n, 128);
  assert_memory_equal(buf, hdr25, sizeof hdr25 - 1);
  for (size_t i = sizeof hdr25 - 1; i < 127; i++) assert_int_equal(buf[i], ' ');
  assert_int_equal(buf[127], '\n');

  /* 0-D: "()". */
  n = fo__npy_format(buf, sizeof buf, "<f8", 0, NULL);
  assert_int_equal(n, 128);
  assert_non_null(strstr(buf + 10, "'shape': (), }"));
}

static void npy_format_round_trip(void **state) {
  static const struct {
    const char *descr;
    int ndim;
    int64_t shape[2];
  } cases[] = {
      {"<i8", 1, {0, 0}},          {"<i8", 1, {1, 0}},       {"<i4", 1, {123456789, 0}},
      {"<i8", 2, {2, 5}},          {"|S7", 1, {3327, 0}},    {"<i8", 1, {INT64_MAX / 8, 0}},
      {"<i4", 2, {2, 4000000000}}, {"<f4", 2, {0, 0}},
  };
  char buf[512];
  (void)state;
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    fo__npy_header h;
    size_t n = fo__npy_format(buf, sizeof buf, cases[i].descr, cases[i].ndim, cases[i].shape);
    assert_true(n > 0);
    assert_int_equal(n % 64, 0);
    assert_int_equal(buf[n - 1], '\n');
    assert_fo_ok(fo__npy_parse(buf, n, &h));
    assert_string_equal(h.descr, cases[i].descr);
    assert_false(h.fortran_order);
    assert_int_equal(h.ndim, cases[i].ndim);
    for (int d = 0; d < cases[i].ndim; d++) assert_int_equal(h.shape[d], cases[i].shape[d]);
    assert_int_equal(h.data_offset, n);
  }
  /* Too small a buffer: 0, nothing claimed. */
  assert_int_equal(fo__npy_format(buf, 64, "<i8", 1, (const int64_t[]){5}), 0);
  assert_int_equal(fo__npy_format(buf, 127, "<i8", 1, (const int64_t[]){5}), 0);
  assert_int_equal(fo__npy_format(buf, 128, "<i8", 1, (const int64_t[]){5}), 128);
}

/* Parse must fail with FO_EFORMAT and a message containing `want`. */
static void expect_reject(const void *buf, size_t len, const char *want) {
  fo__npy_header h;
  fo_clear_error();
  assert_fo_error(fo__npy_parse(buf, len, &h), FO_EFORMAT, want);
}

static void expect_reject_dict(int major, const char *dict, const char *want) {
  unsigned char buf[1024];
  size_t n = make_header(buf, sizeof buf, major, dict);
  expect_reject(buf, n, want);
}

static void npy_reject_magic_and_truncation(void **state) {
  unsigned char buf[512];
  size_t n;
  (void)state;
  n = make_header(buf, sizeof buf, 1, "{'descr': '<i8', 'fortran_order': False, 'shape': (5,), }");
  expect_reject(NULL, 0, "bad magic");
  expect_reject(buf, 9, "bad magic"); /* shorter than magic + version + length */
  buf[0] = 0x94;
  expect_reject(buf, n, "bad magic");
  buf[0] = 0x93;
  buf[3] = 'm';
  expect_reject(buf, n, "bad magic");
  buf[3] = 'M';
  expect_reject("PK\x03\x04 not npy at all", 20, "bad magic");
  /* Header length says 118 bytes follow; fewer are there. */
  expect_reject(buf, 10, "truncated");
  expect_reject(buf, 127, "truncated");
  expect_reject(buf, 127, "needs 128 bytes, file has 127");
  /* Version 2: four length bytes needed. */
  n = make_header(buf, sizeof buf, 2, "{'descr': '<i8', 'fortran_order': False, 'shape': (5,), }");
  expect_reject(buf, 11, "truncated");
  expect_reject(buf, n - 1, "truncated");
  /* A huge 4-byte length cannot overflow anything. */
  buf[11] = 0xff;
  expect_reject(buf, n, "truncated");
  /* Unknown versions. */
  buf[6] = 4;
  expect_reject(buf, n, "version 4.0");
  buf[6] = 0;
  expect_reject(buf, n, "version 0.0");
}

static void npy_reject_keys(void **state) {
  (void)state;
  expect_reject_dict(1, "{'descr': '<i8', 'fortran_order': False, 'shape': (5,), 'extra': 1}",
                     "unknown key 'extra'");
  expect_reject_dict(1, "{'fortran_order': False, 'shape': (5,), }", "missing 'descr'");
  expect_reject_dict(1, "{'descr': '<i8', 'shape': (5,), }", "missing 'fortran_order'");
  expect_reject_dict(1, "{'descr': '<i8', 'fortran_order': False, }", "missing 'shape'");
  expect_reject_dict(1, "{}", "missing");
  expect_reject_dict(1, "", "expected '{'");
  expect_reject_dict(1, "['descr', '<i8']", "expected '{'");
  expect_reject_dict(1, "{'descr' '<i8'}", "expected ':' after 'descr'");
  expect_reject_dict(1, "{descr: '<i8'}", "expected a quoted string");
  expect_reject_dict(1, "{'descr': '<i8' 'shape': (5,)}", "expected ',' or '}'");
  expect_reject_dict(1, "{'descr': '<i8', 'fortran_order': false, 'shape': (5,), }",
                     "fortran_order is not True or False");
  expect_reject_dict(1, "{'descr': '<i8', 'fortran_order': False, 'shape': 5, }",
                     "shape is not a tuple");
  expect_reject_dict(1, "{'descr': '<i8', 'fortran_order': False, 'shape': (5 6), }",
                     "bad shape tuple");
  expect_reject_dict(1, "{'descr': '<i8', 'fortran_order': False, 'shape': (-5,), }",
                     "non-negative integer");
  expect_reject_dict(1, "{'descr': '<i8', 'fortran_order': False, 'shape': (1, 1, 1, 1, 1), }",
                     "more than 4 dimensions");
  expect_reject_dict(1, "{'descr': '<i\\8', 'fortran_order': False, 'shape': (5,), }",
                     "escaped");
  expect_reject_dict(1, "{'descr': '<i8xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx', 'fortran_order': False, "
                     "'shape': (5,), }", "too long");
  expect_reject_dict(1, "{'a_very_long_key_name_longer_than_thirty_two': 1}", "too long");
}

static void npy_reject_unterminated(void **state) {
  /* The dict ends inside a string: the parser must stop at the header's end, not read on. */
  unsigned char buf[128];
  const char *dict = "{'descr': '<i8";
  size_t dl = strlen(dict);
  (void)state;
  memcpy(buf, "\x93NUMPY\x01\x00", 8);
  buf[8] = (unsigned char)dl;
  buf[9] = 0;
  memcpy(buf + 10, dict, dl);
  /* What follows the header in memory is a valid continuation that must not be used. */
  memcpy(buf + 10 + dl, "', 'fortran_order': False, 'shape': (5,), }", 43);
  expect_reject(buf, 10 + dl + 43, "unterminated string");
}

static void npy_reject_dtypes(void **state) {
  (void)state;
  expect_reject_dict(1, "{'descr': '<c8', 'fortran_order': False, 'shape': (5,), }",
                     "unsupported dtype '<c8'");
  expect_reject_dict(1, "{'descr': '>i8', 'fortran_order': False, 'shape': (5,), }",
                     "unsupported dtype '>i8': big-endian");
  expect_reject_dict(1, "{'descr': [('a', '<i4'), ('b', '<f8')], 'fortran_order': False, "
                     "'shape': (5,), }", "structured");
  expect_reject_dict(2, "{'descr': '|O', 'fortran_order': False, 'shape': (5,), }",
                     "unsupported dtype '|O'");
  expect_reject_dict(1, "{'descr': '<U10', 'fortran_order': False, 'shape': (5,), }",
                     "unsupported dtype '<U10'");
}

static void npy_reject_overflow(void **state) {
  (void)state;
  /* One value past int64. */
  expect_reject_dict(1, "{'descr': '<i8', 'fortran_order': False, 'shape': (99999999999999999999,), }",
                     "shape value overflows");
  expect_reject_dict(1, "{'descr': '<i8', 'fortran_order': False, 'shape': (9223372036854775808,), }",
                     "shape value overflows");
  /* The product of the dims past int64. */
  expect_reject_dict(1, "{'descr': '<i1', 'fortran_order': False, 'shape': (4294967296, 4294967296), }",
                     "shape overflows");
  /* The byte size past int64. */
  expect_reject_dict(1, "{'descr': '<i8', 'fortran_order': False, 'shape': (2305843009213693952,), }",
                     "size overflows");
  /* Just under the limit is accepted (the caller then checks the file's size). */
  {
    unsigned char buf[256];
    fo__npy_header h;
    size_t n = make_header(buf, sizeof buf, 1,
                           "{'descr': '<i8', 'fortran_order': False, 'shape': (1152921504606846975,), }");
    assert_fo_ok(fo__npy_parse(buf, n, &h));
    assert_int_equal(h.count, 1152921504606846975LL);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(status_names),
      cmocka_unit_test(fail_sets_message),
      cmocka_unit_test(context_nests_outermost_first),
      cmocka_unit_test(context_on_empty_message),
      cmocka_unit_test(set_error_copies_and_truncates),
      cmocka_unit_test(fail_errno_appends_strerror),
      cmocka_unit_test(message_is_thread_local),
      cmocka_unit_test(npy_parse_v1),
      cmocka_unit_test(npy_parse_v2_v3),
      cmocka_unit_test(npy_parse_variants),
      cmocka_unit_test(npy_descr_itemsize),
      cmocka_unit_test(npy_format_matches_numpy),
      cmocka_unit_test(npy_format_round_trip),
      cmocka_unit_test(npy_reject_magic_and_truncation),
      cmocka_unit_test(npy_reject_keys),
      cmocka_unit_test(npy_reject_unterminated),
      cmocka_unit_test(npy_reject_dtypes),
      cmocka_unit_test(npy_reject_overflow),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
