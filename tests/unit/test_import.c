/*
 * tests/unit/test_import.c: the importers on small inputs written by the tests: every edge-list
 * syntax (separators, comments, CRLF, blank lines, gzip, extra columns, several files), the id
 * options (relabel, num_nodes), the edge options (undirected, remove_self_loops, dedup) with
 * their report counts, the layout the builder promises (CSC columns in input order, edge ids =
 * CSC positions, edge_orig, csr_eid), index widths, the planetoid, npy and mtx formats, every
 * malformed-input error (code, "file:line" and the offending text), and atomicity: failed or
 * cancelled imports leave nothing behind, and force replaces only datasets.
 */
#include "support.h"

#include "store/store_internal.h"

#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

/* ---- helpers ------------------------------------------------------------------------------- */

typedef struct ctx {
  char *tmp; /* temp dir, removed at the end */
  char *out; /* tmp/g: the dataset to create */
} ctx;

static void ctx_init(ctx *c) {
  c->tmp = fot_tmpdir();
  c->out = fot_path(c->tmp, "g");
}

static void ctx_free(ctx *c) {
  free(c->out);
  fot_rmtree(c->tmp);
}

/* Write `text` to tmp/name; returns the path (malloc'ed). */
static char *put(const ctx *c, const char *name, const char *text) {
  char *p = fot_path(c->tmp, name);
  fot_write_file(p, text);
  return p;
}

static char *put_gz(const ctx *c, const char *name, const char *text) {
  char *p = fot_path(c->tmp, name);
  gzFile gz = gzopen(p, "wb9");
  if (!gz) fail_msg("gzopen %s", p);
  assert_int_equal(gzwrite(gz, text, (unsigned)strlen(text)), (int)strlen(text));
  assert_int_equal(gzclose(gz), Z_OK);
  return p;
}

static void put_bytes(const char *path, const void *buf, size_t len) {
  FILE *fp = fopen(path, "wb");
  if (!fp) fail_msg("cannot write %s", path);
  if (len) assert_int_equal(fwrite(buf, 1, len, fp), len);
  fclose(fp);
}

static int import1(const char *path, const char *out, const fo_import_opts *o,
                   fo_import_report *rep) {
  const char *inputs[1] = {path};
  return fo_import(inputs, 1, out, o, rep);
}

static fo_dataset_t *open_ok(const char *dir) {
  fo_dataset_t *d = NULL;
  assert_fo_ok(fo_dataset_open(dir, NULL, &d));
  assert_fo_ok(fo_dataset_verify(d));
  return d;
}

static int64_t elem(const fo_array_info *a, int64_t i) {
  if (a->itemsize == 4) return ((const int32_t *)a->data)[i];
  return ((const int64_t *)a->data)[i];
}

/* Array `name` of `d` must hold exactly want[n]. */
static void expect_array(const fo_dataset_t *d, const char *name, const int64_t *want, int64_t n) {
  fo_array_info a;
  assert_fo_ok(fo_dataset_array(d, name, &a));
  if (a.ndim != 1 || a.shape[0] != n)
    fail_msg("%s: shape [%lld], expected [%lld]", name, (long long)a.shape[0], (long long)n);
  for (int64_t i = 0; i < n; i++)
    if (elem(&a, i) != want[i])
      fail_msg("%s[%lld] = %lld, expected %lld", name, (long long)i, (long long)elem(&a, i),
               (long long)want[i]);
}

static void expect_no_array(const fo_dataset_t *d, const char *name) {
  fo_array_info a;
  assert_int_equal(fo_dataset_array(d, name, &a), FO_EINVAL);
}

/* The CSC (indptr and indices) of `d` must be ip[n+1], ix[m]. */
static void expect_csc(const fo_dataset_t *d, const int64_t *ip, int64_t n, const int64_t *ix,
                       int64_t m) {
  assert_int_equal(fo_dataset_num_nodes(d), n);
  assert_int_equal(fo_dataset_num_edges(d), m);
  expect_array(d, "csc_indptr", ip, n + 1);
  expect_array(d, "csc_indices", ix, m);
}

/* Import must have left nothing: neither `c->out` nor any hidden temporary directory. */
static void expect_nothing_left(const ctx *c) {
  struct stat st;
  DIR *dh;
  struct dirent *de;
  assert_int_not_equal(lstat(c->out, &st), 0);
  dh = opendir(c->tmp);
  assert_non_null(dh);
  while ((de = readdir(dh)) != NULL)
    if (de->d_name[0] == '.' && strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
      fail_msg("left behind: %s/%s", c->tmp, de->d_name);
  closedir(dh);
}

/* An edge-list import of `text` must fail with `code` and a message holding "<file>:<line>"
 * (line > 0) and `want`; nothing may be left behind. */
static void edgelist_fails(const char *text, const fo_import_opts *o, int code, int line,
                           const char *want) {
  ctx c;
  char *in, where[4200];
  fo_import_report rep;
  ctx_init(&c);
  in = put(&c, "in.txt", text);
  memset(&rep, 0x5a, sizeof rep);
  assert_fo_error(import1(in, c.out, o, &rep), code, want);
  if (line > 0) {
    snprintf(where, sizeof where, "%s:%d: ", in, line);
    if (!strstr(fo_last_error(), where)) fail_msg("message '%s' lacks '%s'", fo_last_error(), where);
  }
  assert_non_null(strstr(fo_last_error(), "import '"));
  /* The report is zeroed on failure. */
  assert_int_equal(rep.n_nodes, 0);
  assert_int_equal(rep.n_edges, 0);
  assert_int_equal(rep.n_input_edges, 0);
  expect_nothing_left(&c);
  free(in);
  ctx_free(&c);
}

/* ---- edge lists: syntax -------------------------------------------------------------------- */

static void edgelist_separators(void **state) {
  ctx c;
  char *in;
  fo_dataset_t *d;
  fo_import_report rep;
  /* 0->1 (tab), 1->2 (space), 2->3 (comma), 3->0 (a mix), 3->1 (leading blanks) */
  static const int64_t ip[] = {0, 1, 3, 4, 5}, ix[] = {3, 0, 3, 1, 2};
  (void)state;
  ctx_init(&c);
  in = put(&c, "in.txt", "0\t1\n1 2\n2,3\n3 \t, 0\n  \t3   1\n");
  assert_fo_ok(import1(in, c.out, NULL, &rep));
  assert_int_equal(rep.n_nodes, 4);
  assert_int_equal(rep.n_edges, 5);
  assert_int_equal(rep.n_input_edges, 5);
  d = open_ok(c.out);
  expect_csc(d, ip, 4, ix, 5);
  fo_dataset_close(d);
  free(in);
  ctx_free(&c);
}

static void edgelist_comments_crlf_blank(void **state) {
  ctx c;
  char *in;
  fo_dataset_t *d;
  fo_import_report rep;
  static const int64_t ip[] = {0, 1, 2, 3}, ix[] = {1, 0, 1};
  (void)state;
  ctx_init(&c);
  in = put(&c, "in.txt",
           "# Directed graph\r\n% matrix-market style comment\r\n\r\n   # indented comment\r\n"
           "0\t1\r\n\r\n\n   \n\t\n1\t0\r\n%0 2\r\n#3 3\n1 2");  /* last line: no newline */
  assert_fo_ok(import1(in, c.out, NULL, &rep));
  assert_int_equal(rep.n_input_edges, 3);
  d = open_ok(c.out);
  expect_csc(d, ip, 3, ix, 3);
  fo_dataset_close(d);
  free(in);
  ctx_free(&c);
}

static void edgelist_gzip(void **state) {
  ctx c;
  char *in;
  fo_dataset_t *d;
  static const int64_t ip[] = {0, 1, 2, 3}, ix[] = {2, 0, 1};
  (void)state;
  ctx_init(&c);
  in = put_gz(&c, "in.tsv.gz", "# gz\n0\t1\n1\t2\r\n2\t0\n");
  assert_fo_ok(import1(in, c.out, NULL, NULL));
  d = open_ok(c.out);
  expect_csc(d, ip, 3, ix, 3);
  fo_dataset_close(d);
  free(in);
  ctx_free(&c);
  /* A corrupt gzip stream is an error, not a short graph. */
  ctx_init(&c);
  {
    char *gz = put_gz(&c, "x.gz", "0 1\n1 2\n2 3\n3 4\n4 5\n5 6\n6 7\n7 8\n8 9\n9 0\n");
    FILE *fp = fopen(gz, "rb");
    unsigned char buf[256];
    size_t n = fread(buf, 1, sizeof buf, fp);
    fclose(fp);
    put_bytes(gz, buf, n - 6); /* cut the trailer */
    assert_fo_error(import1(gz, c.out, NULL, NULL), FO_EFORMAT, "corrupt gzip data");
    assert_non_null(strstr(fo_last_error(), gz));
    expect_nothing_left(&c);
    free(gz);
  }
  ctx_free(&c);
}

static void edgelist_extra_columns(void **state) {
  ctx c;
  char *in;
  fo_dataset_t *d;
  static const int64_t ip[] = {0, 0, 1, 2}, ix[] = {0, 1};
  (void)state;
  ctx_init(&c);
  in = put(&c, "in.txt", "0 1 0.5\n1\t2\t1700000000\tanything at all, even x\n");
  assert_fo_ok(import1(in, c.out, NULL, NULL));
  d = open_ok(c.out);
  expect_csc(d, ip, 3, ix, 2);
  fo_dataset_close(d);
  free(in);
  ctx_free(&c);
}

static void edgelist_several_files(void **state) {
  ctx c;
  char *a, *b, *z;
  const char *inputs[3];
  fo_dataset_t *d;
  fo_import_report rep;
  /* input order: 0:2->0 (a) 1:1->0 (b) 2:0->1 (b) 3:3->0 (gz) */
  static const int64_t ip[] = {0, 3, 4, 4, 4}, ix[] = {2, 1, 3, 0};
  (void)state;
  ctx_init(&c);
  a = put(&c, "a.txt", "2 0\n");
  b = put(&c, "b.txt", "# second\n1 0\n0 1\n");
  z = put_gz(&c, "c.txt.gz", "3 0\n");
  inputs[0] = a;
  inputs[1] = b;
  inputs[2] = z;
  assert_fo_ok(fo_import(inputs, 3, c.out, NULL, &rep));
  assert_int_equal(rep.n_input_edges, 4);
  d = open_ok(c.out);
  expect_csc(d, ip, 4, ix, 4);
  {
    /* CSC positions 0,1,2 are inputs 0,1,3; position 3 is input 2. */
    static const int64_t eo[] = {0, 1, 3, 2};
    expect_array(d, "edge_orig", eo, 4);
  }
  fo_dataset_close(d);
  /* An error in the second file names that file and its own line number. */
  {
    char *bad = put(&c, "bad.txt", "# one\n# two\n0 1\n1 zz\n");
    ctx c2;
    ctx_init(&c2);
    inputs[1] = bad;
    assert_fo_error(fo_import(inputs, 2, c2.out, NULL, NULL), FO_EFORMAT, "'zz' is not an integer");
    {
      char where[4200];
      snprintf(where, sizeof where, "%s:4: ", bad);
      assert_non_null(strstr(fo_last_error(), where));
    }
    expect_nothing_left(&c2);
    ctx_free(&c2);
    free(bad);
  }
  free(a);
  free(b);
  free(z);
  ctx_free(&c);
}

static void edgelist_empty_file(void **state) {
  ctx c;
  char *in;
  fo_dataset_t *d;
  fo_import_report rep;
  (void)state;
  ctx_init(&c);
  in = put(&c, "in.txt", "# nothing\n\n");
  assert_fo_ok(import1(in, c.out, NULL, &rep));
  assert_int_equal(rep.n_nodes, 0);
  assert_int_equal(rep.n_edges, 0);
  d = open_ok(c.out);
  assert_int_equal(fo_dataset_num_nodes(d), 0);
  fo_dataset_close(d);
  free(in);
  ctx_free(&c);
}

static void edgelist_long_lines(void **state) {
  /* Lines longer than the reader's 1 MiB buffer, plain and gzip; the error after them still
   * has the right line number. */
  size_t big = (size_t)3 << 20;
  char *text = malloc(big + 64);
  (void)state;
  text[0] = '#';
  memset(text + 1, 'x', big);
  strcpy(text + 1 + big, "\n0 1\n1 0\n");
  for (int gz = 0; gz < 2; gz++) {
    ctx c;
    char *in;
    fo_dataset_t *d;
    static const int64_t ip[] = {0, 1, 2}, ix[] = {1, 0};
    ctx_init(&c);
    in = gz ? put_gz(&c, "in.gz", text) : put(&c, "in.txt", text);
    assert_fo_ok(import1(in, c.out, NULL, NULL));
    d = open_ok(c.out);
    expect_csc(d, ip, 2, ix, 2);
    fo_dataset_close(d);
    free(in);
    ctx_free(&c);
  }
  strcpy(text + 1 + big, "\n0 1\n1 ?\n");
  {
    fo_import_opts o;
    fo_import_opts_init(&o);
    edgelist_fails(text, &o, FO_EFORMAT, 3, "'?' is not an integer");
  }
  free(text);
}

static void edgelist_errors(void **state) {
  fo_import_opts o;
  (void)state;
  fo_import_opts_init(&o);
  edgelist_fails("0 1\n1 x\n", &o, FO_EFORMAT, 2, "'x' is not an integer node id");
  edgelist_fails("# c\n% c\n\n0 1\n1 2x\n", &o, FO_EFORMAT, 5, "'2x' is not an integer node id");
  edgelist_fails("0 1\r\n5\r\n", &o, FO_EFORMAT, 2, "expected two node ids, got one: '5'");
  edgelist_fails("0 1\n3 -1\n", &o, FO_ERANGE, 2, "node id -1 is negative");
  edgelist_fails("-4 1\n", &o, FO_ERANGE, 1, "node id -4 is negative");
  edgelist_fails("99999999999999999999 1\n", &o, FO_ERANGE, 1,
                 "node id '99999999999999999999' does not fit in int64");
  edgelist_fails("0 -9223372036854775809\n", &o, FO_ERANGE, 1,
                 "node id '-9223372036854775809' does not fit in int64");
  edgelist_fails("0 9223372036854775807\n", &o, FO_ERANGE, 1, "node id 9223372036854775807 is too large");
  edgelist_fails("0 1.5\n", &o, FO_EFORMAT, 1, "'1.5' is not an integer");
  edgelist_fails("a;b\n", &o, FO_EFORMAT, 1, "'a;b' is not an integer");
  edgelist_fails("0 0x10\n", &o, FO_EFORMAT, 1, "'0x10'");
  edgelist_fails("0 +\n", &o, FO_EFORMAT, 1, "'+' is not an integer");
  /* A very long token is cut in the message, not copied whole. */
  {
    char line[300];
    memset(line, '7', 200);
    memcpy(line + 200, "q 1\n", 5);
    edgelist_fails(line, &o, FO_EFORMAT, 1, "'7777777777");
    assert_true(strlen(fo_last_error()) < 400);
  }
}

static void edgelist_input_errors(void **state) {
  ctx c;
  char *missing, *dir;
  (void)state;
  ctx_init(&c);
  missing = fot_path(c.tmp, "missing.txt");
  assert_fo_error(import1(missing, c.out, NULL, NULL), FO_EIO, "No such file or directory");
  assert_non_null(strstr(fo_last_error(), missing));
  dir = fot_path(c.tmp, "adir");
  assert_int_equal(mkdir(dir, 0755), 0);
  assert_fo_error(import1(dir, c.out, NULL, NULL), FO_EINVAL, "is a directory");
  assert_int_equal(rmdir(dir), 0);
  assert_fo_error(fo_import(NULL, 0, c.out, NULL, NULL), FO_EINVAL, "no input files");
  {
    const char *ins[2] = {missing, NULL};
    assert_fo_error(fo_import(ins, 2, c.out, NULL, NULL), FO_EINVAL, "input 1 is NULL");
    assert_fo_error(fo_import(ins, 1, NULL, NULL, NULL), FO_EINVAL, "output directory is NULL");
  }
  expect_nothing_left(&c);
  free(missing);
  free(dir);
  ctx_free(&c);
}

static void option_errors(void **state) {
  ctx c;
  char *in;
  fo_import_opts o;
  fo_format f;
  int64_t s[1] = {0}, t[1] = {1};
  (void)state;
  ctx_init(&c);
  in = put(&c, "in.txt", "0 1\n");
  fo_import_opts_init(&o);
  assert_int_equal(o.format, FO_FORMAT_EDGELIST);
  assert_true(o.csc);
  assert_false(o.csr);
  assert_int_equal(o.num_nodes, -1);
  assert_int_equal(o.index_dtype, FO_INDEX_AUTO);
  assert_null(o.cancel);
  o.csc = false;
  assert_fo_error(import1(in, c.out, &o, NULL), FO_EINVAL, "neither csc nor csr");
  assert_fo_error(fo_import_edges(s, t, 1, c.out, &o, NULL), FO_EINVAL, "neither csc nor csr");
  fo_import_opts_init(&o);
  o.num_nodes = -2;
  assert_fo_error(import1(in, c.out, &o, NULL), FO_EINVAL, "num_nodes -2 < -1");
  fo_import_opts_init(&o);
  o.relabel = true;
  o.num_nodes = 4;
  assert_fo_error(import1(in, c.out, &o, NULL), FO_EINVAL, "cannot be combined");
  fo_import_opts_init(&o);
  o.format = (fo_format)9;
  assert_fo_error(import1(in, c.out, &o, NULL), FO_EINVAL, "unknown format 9");
  fo_import_opts_init(&o);
  o.index_dtype = (fo_index_dtype)5;
  assert_fo_error(import1(in, c.out, &o, NULL), FO_EINVAL, "unknown index dtype 5");
  assert_fo_error(fo_import_edges(NULL, t, 1, c.out, NULL, NULL), FO_EINVAL, "bad edge arrays");
  assert_fo_error(fo_import_edges(s, t, -1, c.out, NULL, NULL), FO_EINVAL, "bad edge arrays (n_edges -1)");
  expect_nothing_left(&c);
  /* Format names. */
  assert_fo_ok(fo_format_parse("edgelist", &f));
  assert_int_equal(f, FO_FORMAT_EDGELIST);
  assert_fo_ok(fo_format_parse("planetoid", &f));
  assert_int_equal(f, FO_FORMAT_PLANETOID);
  assert_fo_ok(fo_format_parse("npy", &f));
  assert_int_equal(f, FO_FORMAT_NPY);
  assert_fo_ok(fo_format_parse("mtx", &f));
  assert_int_equal(f, FO_FORMAT_MTX);
  assert_fo_error(fo_format_parse("csv", &f), FO_EINVAL, "unknown format 'csv'");
  assert_fo_error(fo_format_parse(NULL, &f), FO_EINVAL, "unknown format '(null)'");
  free(in);
  ctx_free(&c);
}

/* ---- ids: relabel and num_nodes ------------------------------------------------------------ */

static void relabel_ids(void **state) {
  ctx c;
  char *in;
  fo_dataset_t *d;
  fo_import_opts o;
  fo_import_report rep;
  int64_t v;
  (void)state;
  ctx_init(&c);
  /* distinct ids sorted: -7, 5, 100, 3000000000 -> 0, 1, 2, 3 */
  in = put(&c, "in.txt", "100 5\n5 -7\n100 -7\n3000000000 100\n");
  fo_import_opts_init(&o);
  o.relabel = true;
  assert_fo_ok(import1(in, c.out, &o, &rep));
  assert_int_equal(rep.n_nodes, 4);
  d = open_ok(c.out);
  {
    /* edges 2->1, 1->0, 2->0, 3->2: columns 0:[1,2] 1:[2] 2:[3] 3:[] */
    static const int64_t ip[] = {0, 2, 3, 4, 4}, ix[] = {1, 2, 2, 3};
    static const int64_t orig[] = {-7, 5, 100, 3000000000LL};
    fo_array_info a;
    expect_csc(d, ip, 4, ix, 4);
    expect_array(d, "node_orig", orig, 4);
    assert_fo_ok(fo_dataset_array(d, "node_orig", &a));
    assert_string_equal(a.dtype, "<i8");
  }
  assert_int_equal(fo_dataset_node_orig_kind(d), FO_ORIG_INT64);
  assert_fo_ok(fo_dataset_node_orig_int(d, 3, &v));
  assert_int_equal(v, 3000000000LL);
  assert_fo_ok(fo_dataset_node_orig_int(d, 0, &v));
  assert_int_equal(v, -7);
  fo_dataset_close(d);
  free(in);
  ctx_free(&c);
  /* Without relabel, ids are kept and no node_orig is written. */
  ctx_init(&c);
  in = put(&c, "in.txt", "3 1\n");
  assert_fo_ok(import1(in, c.out, NULL, &rep));
  assert_int_equal(rep.n_nodes, 4);
  assert_int_equal(rep.n_isolated, 2); /* 0 and 2 */
  d = open_ok(c.out);
  assert_int_equal(fo_dataset_node_orig_kind(d), FO_ORIG_IDENTITY);
  expect_no_array(d, "node_orig");
  fo_dataset_close(d);
  free(in);
  ctx_free(&c);
}

static void num_nodes_option(void **state) {
  ctx c;
  char *in;
  fo_dataset_t *d;
  fo_import_opts o;
  fo_import_report rep;
  fo_degree_stats st;
  static const int64_t ip[] = {0, 1, 2, 2, 2, 2, 2}, ix[] = {1, 0};
  (void)state;
  ctx_init(&c);
  in = put(&c, "in.txt", "0 1\n1 0\n");
  fo_import_opts_init(&o);
  o.num_nodes = 6;
  assert_fo_ok(import1(in, c.out, &o, &rep));
  assert_int_equal(rep.n_nodes, 6);
  assert_int_equal(rep.n_isolated, 4); /* trailing nodes 2..5 */
  d = open_ok(c.out);
  expect_csc(d, ip, 6, ix, 2);
  assert_fo_ok(fo_dataset_degree_stats(d, FO_EDGE_DIR_IN, &st));
  assert_int_equal(st.n_zero, 4);
  fo_dataset_close(d);
  free(in);
  ctx_free(&c);
  /* An id >= num_nodes: file, line, the id and the limit. */
  fo_import_opts_init(&o);
  o.num_nodes = 5;
  edgelist_fails("0 1\n# x\n1 5\n", &o, FO_ERANGE, 3, "node id 5 is >= --num-nodes 5");
  o.num_nodes = 0;
  edgelist_fails("0 0\n", &o, FO_ERANGE, 1, "node id 0 is >= --num-nodes 0");
  /* The in-memory importer checks too. */
  ctx_init(&c);
  {
    int64_t s[2] = {0, 1}, t[2] = {1, 7};
    o.num_nodes = 5;
    assert_fo_error(fo_import_edges(s, t, 2, c.out, &o, NULL), FO_ERANGE,
                    "edge 1: node id 7 is >= num_nodes 5");
    t[1] = -2;
    assert_fo_error(fo_import_edges(s, t, 2, c.out, &o, NULL), FO_ERANGE,
                    "edge 1: node id -2 is negative");
  }
  expect_nothing_left(&c);
  ctx_free(&c);
}

/* ---- edge options -------------------------------------------------------------------------- */

static void undirected_reverse_and_dedup(void **state) {
  ctx c;
  char *in;
  fo_dataset_t *d;
  fo_import_opts o;
  fo_import_report rep;
  (void)state;
  ctx_init(&c);
  /* input 0:0->1 1:1->0 2:1->2 3:2->2; reverses 4:1->0 5:0->1 6:2->1 7:2->2;
   * duplicates of earlier entries: 4 (of 1), 5 (of 0), 7 (of 3). */
  in = put(&c, "in.txt", "0 1\n1 0\n1 2\n2 2\n");
  fo_import_opts_init(&o);
  o.undirected = true;
  o.csr = true;
  assert_fo_ok(import1(in, c.out, &o, &rep));
  assert_int_equal(rep.n_input_edges, 4);
  assert_int_equal(rep.n_reverse_added, 4);
  assert_int_equal(rep.n_duplicates_removed, 3);
  assert_int_equal(rep.n_self_loops_removed, 0);
  assert_int_equal(rep.n_edges, 5);
  assert_int_equal(rep.n_nodes, 3);
  d = open_ok(c.out);
  {
    /* kept: 0->1 (0), 1->0 (1), 1->2 (2), 2->2 (3), 2->1 (6)
     * CSC: col0 [1 (1)], col1 [0 (0), 2 (6)], col2 [1 (2), 2 (3)] */
    static const int64_t ip[] = {0, 1, 3, 5}, ix[] = {1, 0, 2, 1, 2}, eo[] = {1, 0, 6, 2, 3};
    /* CSR: row0 [1 (e1)], row1 [0 (e0), 2 (e3)], row2 [2 (e4), 1 (e2)] */
    static const int64_t rp[] = {0, 1, 3, 5}, rx[] = {1, 0, 2, 2, 1}, reid[] = {1, 0, 3, 4, 2};
    expect_csc(d, ip, 3, ix, 5);
    expect_array(d, "edge_orig", eo, 5);
    expect_array(d, "csr_indptr", rp, 4);
    expect_array(d, "csr_indices", rx, 5);
    expect_array(d, "csr_eid", reid, 5);
  }
  fo_dataset_close(d);
  fot_rmtree(fot_path(c.tmp, "g"));
  /* With remove_self_loops first: 2->2 goes, then 3 reverses, 2 duplicates. */
  o.remove_self_loops = true;
  assert_fo_ok(import1(in, c.out, &o, &rep));
  assert_int_equal(rep.n_input_edges, 4);
  assert_int_equal(rep.n_self_loops_removed, 1);
  assert_int_equal(rep.n_reverse_added, 3);
  assert_int_equal(rep.n_duplicates_removed, 2);
  assert_int_equal(rep.n_edges, 4);
  d = open_ok(c.out);
  {
    /* kept: 0->1 (0), 1->0 (1), 1->2 (2), 2->1 (4 + 2 = 6) */
    static const int64_t ip[] = {0, 1, 3, 4}, ix[] = {1, 0, 2, 1}, eo[] = {1, 0, 6, 2};
    expect_csc(d, ip, 3, ix, 4);
    expect_array(d, "edge_orig", eo, 4);
  }
  fo_dataset_close(d);
  free(in);
  ctx_free(&c);
}

static void remove_self_loops_only(void **state) {
  ctx c;
  char *in;
  fo_dataset_t *d;
  fo_import_opts o;
  fo_import_report rep;
  static const int64_t ip[] = {0, 0, 1, 2}, ix[] = {0, 1}, eo[] = {1, 3};
  (void)state;
  ctx_init(&c);
  in = put(&c, "in.txt", "0 0\n0 1\n1 1\n1 2\n2 2\n");
  fo_import_opts_init(&o);
  o.remove_self_loops = true;
  assert_fo_ok(import1(in, c.out, &o, &rep));
  assert_int_equal(rep.n_self_loops_removed, 3);
  assert_int_equal(rep.n_reverse_added, 0);
  assert_int_equal(rep.n_duplicates_removed, 0);
  assert_int_equal(rep.n_edges, 2);
  assert_int_equal(rep.n_nodes, 3); /* ids are kept even when only their loops mentioned them */
  d = open_ok(c.out);
  expect_csc(d, ip, 3, ix, 2);
  expect_array(d, "edge_orig", eo, 2);
  fo_dataset_close(d);
  free(in);
  ctx_free(&c);
}

static void dedup_keeps_first(void **state) {
  ctx c;
  char *in;
  fo_dataset_t *d;
  fo_import_opts o;
  fo_import_report rep;
  (void)state;
  ctx_init(&c);
  /* 0:2->1 1:0->1 2:2->1 3:3->1 4:0->1 5:0->0 6:0->0 -> keep 0, 1, 3, 5 */
  in = put(&c, "in.txt", "2 1\n0 1\n2 1\n3 1\n0 1\n0 0\n0 0\n");
  fo_import_opts_init(&o);
  o.dedup = true;
  assert_fo_ok(import1(in, c.out, &o, &rep));
  assert_int_equal(rep.n_duplicates_removed, 3);
  assert_int_equal(rep.n_reverse_added, 0);
  assert_int_equal(rep.n_edges, 4);
  d = open_ok(c.out);
  {
    static const int64_t ip[] = {0, 1, 4, 4, 4}, ix[] = {0, 2, 0, 3}, eo[] = {5, 0, 1, 3};
    expect_csc(d, ip, 4, ix, 4);
    expect_array(d, "edge_orig", eo, 4);
  }
  fo_dataset_close(d);
  free(in);
  ctx_free(&c);
  /* Without dedup, multi-edges stay. */
  ctx_init(&c);
  in = put(&c, "in.txt", "2 1\n0 1\n2 1\n");
  assert_fo_ok(import1(in, c.out, NULL, &rep));
  assert_int_equal(rep.n_duplicates_removed, 0);
  assert_int_equal(rep.n_edges, 3);
  d = open_ok(c.out);
  {
    static const int64_t ip[] = {0, 0, 3, 3}, ix[] = {2, 0, 2};
    expect_csc(d, ip, 3, ix, 3);
    expect_no_array(d, "edge_orig"); /* CSC positions are the input positions */
  }
  fo_dataset_close(d);
  free(in);
  ctx_free(&c);
}

/* ---- layout: CSC order, edge ids, edge_orig, csr_eid ---------------------------------------- */

static void layout_small_graph(void **state) {
  ctx c;
  char *in;
  fo_dataset_t *d;
  fo_import_opts o;
  fo_topology t;
  (void)state;
  ctx_init(&c);
  /* 0:0->1 1:0->2 2:1->2 3:2->0 4:3->2 5:2->3 6:1->0; node 4 isolated */
  in = put(&c, "in.txt", "0 1\n0 2\n1 2\n2 0\n3 2\n2 3\n1 0\n");
  fo_import_opts_init(&o);
  o.csr = true;
  o.num_nodes = 5;
  assert_fo_ok(import1(in, c.out, &o, NULL));
  d = open_ok(c.out);
  {
    static const int64_t ip[] = {0, 2, 3, 6, 7, 7}, ix[] = {2, 1, 0, 0, 1, 3, 2};
    static const int64_t eo[] = {3, 6, 0, 1, 2, 4, 5};
    static const int64_t rp[] = {0, 2, 4, 6, 7, 7}, rx[] = {1, 2, 2, 0, 0, 3, 2};
    static const int64_t reid[] = {2, 3, 4, 1, 0, 6, 5};
    expect_csc(d, ip, 5, ix, 7);
    expect_array(d, "edge_orig", eo, 7);
    expect_array(d, "csr_indptr", rp, 6);
    expect_array(d, "csr_indices", rx, 7);
    expect_array(d, "csr_eid", reid, 7);
  }
  assert_non_null(strstr(fo_dataset_manifest(d), "\"edge_ids\": \"csc\""));
  assert_fo_ok(fo_dataset_topology(d, FO_EDGE_DIR_OUT, &t));
  assert_string_equal(t.eid_name, "csr_eid");
  fo_dataset_close(d);
  fot_rmtree(fot_path(c.tmp, "g"));
  /* CSR only: CSR positions are the edge ids; no csr_eid. */
  o.csc = false;
  assert_fo_ok(import1(in, c.out, &o, NULL));
  d = open_ok(c.out);
  {
    static const int64_t eo[] = {0, 1, 2, 6, 3, 5, 4};
    expect_array(d, "edge_orig", eo, 7);
    expect_no_array(d, "csr_eid");
    expect_no_array(d, "csc_indices");
  }
  assert_non_null(strstr(fo_dataset_manifest(d), "\"edge_ids\": \"csr\""));
  assert_fo_ok(fo_dataset_topology(d, FO_EDGE_DIR_OUT, &t));
  assert_null(t.eid);
  fo_dataset_close(d);
  free(in);
  ctx_free(&c);
}

static void csc_keeps_input_order(void **state) {
  ctx c;
  char *in;
  fo_dataset_t *d;
  fo_import_opts o;
  (void)state;
  ctx_init(&c);
  /* column 0 gets 3, 1, 2, 1 in that order (not sorted); row 1 gets 0, 2 */
  in = put(&c, "in.txt", "3 0\n1 0\n1 2\n2 0\n0 1\n1 0\n");
  fo_import_opts_init(&o);
  o.csr = true;
  assert_fo_ok(import1(in, c.out, &o, NULL));
  d = open_ok(c.out);
  {
    static const int64_t ip[] = {0, 4, 5, 6, 6}, ix[] = {3, 1, 2, 1, 0, 1};
    static const int64_t rp[] = {0, 1, 4, 5, 6}, rx[] = {1, 0, 2, 0, 0, 0};
    expect_csc(d, ip, 4, ix, 6);
    expect_array(d, "csr_indptr", rp, 5);
    expect_array(d, "csr_indices", rx, 6);
  }
  fo_dataset_close(d);
  free(in);
  ctx_free(&c);
}

/* On a random multigraph: every edge id e points back (edge_orig) to an input edge (or the
 * reverse of one) with the same endpoints; with dedup, it is the first occurrence of its pair
 * in the combined list (inputs, then reverses); csr_eid agrees with the CSC. */
static void layout_random_consistent(void **state) {
  uint64_t seed = fot_seed(20240601);
  (void)state;
  fot_note_seed(seed);
  for (int round = 0; round < 6; round++) {
    ctx c;
    fot_edges e;
    fo_import_opts o;
    fo_import_report rep;
    fo_dataset_t *d;
    fo_topology csc, csr;
    fo_array_info eo;
    bool has_eo;
    int64_t m, n, combined;
    int64_t *ls, *ld;
    fot_random(40, 300, seed + (uint64_t)round, &e);
    fo_import_opts_init(&o);
    o.csr = true;
    o.num_nodes = e.n;
    o.undirected = round & 1;
    o.dedup = round & 2;
    o.remove_self_loops = round >= 4;
    o.index_dtype = round == 5 ? FO_INDEX_INT64 : FO_INDEX_AUTO;
    ctx_init(&c);
    assert_fo_ok(fo_import_edges(e.src, e.dst, e.m, c.out, &o, &rep));
    d = open_ok(c.out);
    m = fo_dataset_num_edges(d);
    n = fo_dataset_num_nodes(d);
    assert_int_equal(n, e.n);
    assert_int_equal(m, rep.n_edges);
    assert_int_equal(rep.n_input_edges, e.m);
    assert_int_equal(m, e.m - rep.n_self_loops_removed + rep.n_reverse_added -
                            rep.n_duplicates_removed);
    /* the combined list the builder sees */
    combined = 2 * e.m;
    ls = malloc((size_t)combined * sizeof *ls);
    ld = malloc((size_t)combined * sizeof *ld);
    for (int64_t i = 0; i < e.m; i++) {
      ls[i] = e.src[i];
      ld[i] = e.dst[i];
      ls[e.m + i] = e.dst[i];
      ld[e.m + i] = e.src[i];
    }
    assert_fo_ok(fo_dataset_topology(d, FO_EDGE_DIR_IN, &csc));
    assert_fo_ok(fo_dataset_topology(d, FO_EDGE_DIR_OUT, &csr));
    has_eo = fo_dataset_array(d, "edge_orig", &eo) == FO_OK;
    for (int64_t v = 0; v < n; v++) {
      int64_t prev = -1;
      for (int64_t p = csc.indptr[v]; p < csc.indptr[v + 1]; p++) {
        int64_t u = csc.indices_bytes == 4 ? ((const int32_t *)csc.indices)[p]
                                           : ((const int64_t *)csc.indices)[p];
        int64_t orig = has_eo ? elem(&eo, p) : p;
        assert_true(orig >= 0 && orig < (o.undirected ? combined : e.m));
        if (ls[orig] != u || ld[orig] != v)
          fail_msg("round %d: edge %lld = (%lld, %lld) but edge_orig %lld is (%lld, %lld)", round,
                   (long long)p, (long long)u, (long long)v, (long long)orig,
                   (long long)ls[orig], (long long)ld[orig]);
        if (o.remove_self_loops) assert_int_not_equal(u, v);
        /* input order within a column */
        assert_true(orig > prev);
        prev = orig;
        if (o.undirected || o.dedup)
          for (int64_t j = 0; j < orig; j++)
            if (ls[j] == u && ld[j] == v && !(o.remove_self_loops && ls[j] == ld[j]))
              fail_msg("round %d: edge (%lld, %lld) kept at %lld, but %lld came first", round,
                       (long long)u, (long long)v, (long long)orig, (long long)j);
      }
    }
    /* every CSR position maps to a CSC position with the same edge */
    for (int64_t u = 0; u < n; u++)
      for (int64_t p = csr.indptr[u]; p < csr.indptr[u + 1]; p++) {
        int64_t w = csr.indices_bytes == 4 ? ((const int32_t *)csr.indices)[p]
                                           : ((const int64_t *)csr.indices)[p];
        int64_t ei = csr.eid_bytes == 4 ? ((const int32_t *)csr.eid)[p]
                                        : ((const int64_t *)csr.eid)[p];
        int64_t cu = csc.indices_bytes == 4 ? ((const int32_t *)csc.indices)[ei]
                                            : ((const int64_t *)csc.indices)[ei];
        assert_int_equal(cu, u);
        assert_true(ei >= csc.indptr[w] && ei < csc.indptr[w + 1]);
      }
    free(ls);
    free(ld);
    fo_dataset_close(d);
    ctx_free(&c);
    fot_edges_free(&e);
  }
}

/* ---- index widths --------------------------------------------------------------------------- */

static const char *dtype_of(const fo_dataset_t *d, const char *name) {
  fo_array_info a;
  assert_fo_ok(fo_dataset_array(d, name, &a));
  return a.dtype;
}

static void index_dtypes(void **state) {
  ctx c;
  char *in;
  fo_dataset_t *d;
  fo_import_opts o;
  static const int64_t ip[] = {0, 0, 1, 2}, ix[] = {2, 0};
  (void)state;
  for (int dt = 0; dt < 3; dt++) {
    ctx_init(&c);
    in = put(&c, "in.txt", "2 1\n0 2\n");
    fo_import_opts_init(&o);
    o.csr = true;
    o.index_dtype = (fo_index_dtype)dt;
    assert_fo_ok(import1(in, c.out, &o, NULL));
    d = open_ok(c.out);
    expect_csc(d, ip, 3, ix, 2);
    assert_string_equal(dtype_of(d, "csc_indptr"), "<i8");
    assert_string_equal(dtype_of(d, "csr_indptr"), "<i8");
    assert_string_equal(dtype_of(d, "csc_indices"), dt == FO_INDEX_INT64 ? "<i8" : "<i4");
    assert_string_equal(dtype_of(d, "csr_indices"), dt == FO_INDEX_INT64 ? "<i8" : "<i4");
    assert_string_equal(dtype_of(d, "csr_eid"), dt == FO_INDEX_INT64 ? "<i8" : "<i4");
    fo_dataset_close(d);
    free(in);
    ctx_free(&c);
  }
  /* auto picks int32 whenever the values fit, however many nodes there are. */
  ctx_init(&c);
  {
    int64_t s[2] = {0, 299999}, t[2] = {299999, 12345};
    fo_import_opts_init(&o);
    o.csr = true;
    o.num_nodes = 300000;
    assert_fo_ok(fo_import_edges(s, t, 2, c.out, &o, NULL));
    d = open_ok(c.out);
    assert_string_equal(dtype_of(d, "csc_indices"), "<i4");
    assert_string_equal(dtype_of(d, "csr_indices"), "<i4");
    assert_string_equal(dtype_of(d, "csr_eid"), "<i4");
    fo_dataset_close(d);
  }
  ctx_free(&c);
  /* int32 cannot hold node ids past INT32_MAX: FO_ERANGE before anything big is allocated. */
  ctx_init(&c);
  {
    int64_t s[1] = {0}, t[1] = {1};
    fo_import_opts_init(&o);
    o.index_dtype = FO_INDEX_INT32;
    o.num_nodes = (int64_t)INT32_MAX + 2;
    assert_fo_error(fo_import_edges(s, t, 1, c.out, &o, NULL), FO_ERANGE,
                    "node ids up to 2147483648 do not fit in int32");
    expect_nothing_left(&c);
    in = put(&c, "in.txt", "0 1\n");
    assert_fo_error(import1(in, c.out, &o, NULL), FO_ERANGE, "do not fit in int32");
    free(in);
    /* Relabelled large ids fit: node ids are ranks. */
    s[0] = (int64_t)1 << 40;
    fo_import_opts_init(&o);
    o.index_dtype = FO_INDEX_INT32;
    o.relabel = true;
    assert_fo_ok(fo_import_edges(s, t, 1, c.out, &o, NULL));
    d = open_ok(c.out);
    assert_string_equal(dtype_of(d, "csc_indices"), "<i4");
    assert_int_equal(fo_dataset_num_nodes(d), 2);
    fo_dataset_close(d);
  }
  ctx_free(&c);
}

/* ---- planetoid ----------------------------------------------------------------------------- */

static const char CONTENT[] = "p1\t1\t0\tA\np2\t0\t1\tB\np3\t1\t1\tA\n";
/* p2->p1, p3->p2, x9->p1 (x9 unknown), p3->y7 (y7 unknown), p3->x9 */
static const char CITES[] = "p1\tp2\np2\tp3\np1\tx9\ny7\tp3\nx9\tp3\n";

static void expect_str_ids(const fo_dataset_t *d, const char *const *ids, int64_t n) {
  assert_int_equal(fo_dataset_num_nodes(d), n);
  assert_int_equal(fo_dataset_node_orig_kind(d), FO_ORIG_STRING);
  for (int64_t v = 0; v < n; v++) {
    const char *s;
    size_t len;
    assert_fo_ok(fo_dataset_node_orig_str(d, v, &s, &len));
    if (len != strlen(ids[v]) || memcmp(s, ids[v], len))
      fail_msg("node %lld is '%.*s', expected '%s'", (long long)v, (int)len, s, ids[v]);
  }
}

static void planetoid_basic(void **state) {
  ctx c;
  char *content, *cites;
  const char *inputs[2];
  fo_dataset_t *d;
  fo_import_opts o;
  fo_import_report rep;
  static const char *const ids[] = {"p1", "p2", "p3", "x9", "y7"};
  (void)state;
  ctx_init(&c);
  content = put_gz(&c, "toy.content.gz", CONTENT);
  cites = put(&c, "toy.cites", CITES);
  /* Either order. */
  inputs[0] = cites;
  inputs[1] = content;
  fo_import_opts_init(&o);
  o.format = FO_FORMAT_PLANETOID;
  o.csr = true;
  assert_fo_ok(fo_import(inputs, 2, c.out, &o, &rep));
  assert_int_equal(rep.n_nodes, 5);
  assert_int_equal(rep.n_edges, 5);
  assert_int_equal(rep.n_input_edges, 5);
  assert_int_equal(rep.n_unknown_nodes, 2);
  assert_int_equal(rep.n_unknown_edges_dropped, 0);
  d = open_ok(c.out);
  expect_str_ids(d, ids, 5);
  {
    /* edges 1->0, 2->1, 3->0, 2->4, 2->3 */
    static const int64_t ip[] = {0, 2, 3, 3, 4, 5}, ix[] = {1, 3, 2, 2, 2};
    static const int64_t rp[] = {0, 0, 1, 4, 5, 5}, rx[] = {0, 1, 4, 3, 0};
    expect_csc(d, ip, 5, ix, 5);
    expect_array(d, "csr_indptr", rp, 6);
    expect_array(d, "csr_indices", rx, 5);
  }
  /* string ids as offsets + bytes: 5 ids of 2 bytes */
  assert_string_equal(dtype_of(d, "node_orig_bytes"), "|u1");
  assert_string_equal(dtype_of(d, "node_orig_offsets"), "<i8");
  {
    static const int64_t off[] = {0, 2, 4, 6, 8, 10};
    expect_array(d, "node_orig_offsets", off, 6);
  }
  fo_dataset_close(d);
  fot_rmtree(fot_path(c.tmp, "g"));
  /* drop_unknown: the three edges touching x9 or y7 go; the ids are still counted. */
  o.drop_unknown = true;
  assert_fo_ok(fo_import(inputs, 2, c.out, &o, &rep));
  assert_int_equal(rep.n_nodes, 3);
  assert_int_equal(rep.n_edges, 2);
  assert_int_equal(rep.n_unknown_nodes, 2);
  assert_int_equal(rep.n_unknown_edges_dropped, 3);
  d = open_ok(c.out);
  expect_str_ids(d, ids, 3);
  {
    static const int64_t ip[] = {0, 1, 2, 2}, ix[] = {1, 2};
    expect_csc(d, ip, 3, ix, 2);
  }
  fo_dataset_close(d);
  fot_rmtree(fot_path(c.tmp, "g"));
  /* undirected on planetoid. */
  o.drop_unknown = false;
  o.undirected = true;
  assert_fo_ok(fo_import(inputs, 2, c.out, &o, &rep));
  assert_int_equal(rep.n_edges, 10);
  assert_int_equal(rep.n_reverse_added, 5);
  free(content);
  free(cites);
  ctx_free(&c);
}

static void planetoid_errors(void **state) {
  ctx c;
  char *content, *cites, *bad, where[4200];
  const char *inputs[3];
  fo_import_opts o;
  (void)state;
  ctx_init(&c);
  content = put(&c, "toy.content", CONTENT);
  cites = put(&c, "toy.cites", CITES);
  fo_import_opts_init(&o);
  o.format = FO_FORMAT_PLANETOID;
  inputs[0] = content;
  inputs[1] = cites;
  inputs[2] = cites;
  assert_fo_error(fo_import(inputs, 1, c.out, &o, NULL), FO_EINVAL, "planetoid needs 2 inputs");
  assert_non_null(strstr(fo_last_error(), "got 1"));
  assert_fo_error(fo_import(inputs, 3, c.out, &o, NULL), FO_EINVAL, "got 3");
  inputs[1] = content;
  assert_fo_error(fo_import(inputs, 2, c.out, &o, NULL), FO_EINVAL,
                  "needs one '*.content' and one '*.cites' file");
  inputs[1] = cites;
  o.relabel = true;
  assert_fo_error(fo_import(inputs, 2, c.out, &o, NULL), FO_EINVAL, "ids are strings");
  fo_import_opts_init(&o);
  o.format = FO_FORMAT_PLANETOID;
  o.num_nodes = 10;
  assert_fo_error(fo_import(inputs, 2, c.out, &o, NULL), FO_EINVAL, "ids are strings");
  fo_import_opts_init(&o);
  o.format = FO_FORMAT_PLANETOID;
  /* Duplicate paper id. */
  bad = put(&c, "dup.content", "p1\t1\tA\np2\t0\tB\n\np1\t1\tB\n");
  inputs[0] = bad;
  assert_fo_error(fo_import(inputs, 2, c.out, &o, NULL), FO_EFORMAT, "paper id 'p1' appears twice");
  snprintf(where, sizeof where, "%s:4: ", bad);
  assert_non_null(strstr(fo_last_error(), where));
  free(bad);
  /* Inconsistent column count. */
  bad = put(&c, "cols.content", "p1\t1\t0\tA\np2\t0\tB\n");
  inputs[0] = bad;
  assert_fo_error(fo_import(inputs, 2, c.out, &o, NULL), FO_EFORMAT, "1 features, but line 1 has 2");
  snprintf(where, sizeof where, "%s:2: ", bad);
  assert_non_null(strstr(fo_last_error(), where));
  free(bad);
  /* A line without features or label. */
  bad = put(&c, "one.content", "p1\t1\tA\nlonely\n");
  inputs[0] = bad;
  assert_fo_error(fo_import(inputs, 2, c.out, &o, NULL), FO_EFORMAT, "got 'lonely'");
  snprintf(where, sizeof where, "%s:2: ", bad);
  assert_non_null(strstr(fo_last_error(), where));
  free(bad);
  /* cites lines with one or three ids. */
  inputs[0] = content;
  bad = put(&c, "three.cites", "p1\tp2\np1\tp2\tp3\n");
  inputs[1] = bad;
  assert_fo_error(fo_import(inputs, 2, c.out, &o, NULL), FO_EFORMAT, "got 'p1\tp2\tp3'");
  snprintf(where, sizeof where, "%s:2: ", bad);
  assert_non_null(strstr(fo_last_error(), where));
  free(bad);
  bad = put(&c, "one.cites", "p1\n");
  inputs[1] = bad;
  assert_fo_error(fo_import(inputs, 2, c.out, &o, NULL), FO_EFORMAT, "expected '<cited_id>\\t<citing_id>'");
  snprintf(where, sizeof where, "%s:1: ", bad);
  assert_non_null(strstr(fo_last_error(), where));
  free(bad);
  expect_nothing_left(&c);
  free(content);
  free(cites);
  ctx_free(&c);
}

/* ---- npy edge_index ------------------------------------------------------------------------ */

/* Write an .npy with (descr, shape), Fortran order if asked, then `data` (nbytes). */
static void put_npy(const char *path, const char *descr, int ndim, const int64_t *shape,
                    bool fortran, const void *data, size_t nbytes) {
  char hdr[256] = {0};
  size_t n = fo__npy_format(hdr, sizeof hdr - 1, descr, ndim, shape);
  FILE *fp;
  assert_true(n > 0);
  if (fortran) {
    char *p = strstr(hdr + 10, "False, "); /* after the magic's NUL byte */
    assert_non_null(p);
    memcpy(p, "True,  ", 7); /* same length */
  }
  fp = fopen(path, "wb");
  assert_non_null(fp);
  fwrite(hdr, 1, n, fp);
  if (nbytes) fwrite(data, 1, nbytes, fp);
  fclose(fp);
}

static void npy_edge_index(void **state) {
  /* edges 0->1, 1->2, 2->0, 3->0: CSC col0 [2,3], col1 [0], col2 [1] */
  static const int64_t ip[] = {0, 2, 3, 4, 4}, ix[] = {2, 3, 0, 1};
  static const int64_t src[] = {0, 1, 2, 3}, dst[] = {1, 2, 0, 0};
  (void)state;
  for (int w = 4; w <= 8; w += 4)
    for (int fortran = 0; fortran < 2; fortran++) {
      ctx c;
      char *in;
      fo_dataset_t *d;
      fo_import_opts o;
      fo_import_report rep;
      int64_t shape[2] = {2, 4};
      unsigned char data[64];
      ctx_init(&c);
      in = fot_path(c.tmp, "edge_index.npy");
      for (int i = 0; i < 4; i++)
        for (int r = 0; r < 2; r++) {
          int64_t v = r ? dst[i] : src[i];
          int at = fortran ? i * 2 + r : r * 4 + i;
          if (w == 4) {
            int32_t x = (int32_t)v;
            memcpy(data + at * 4, &x, 4);
          } else {
            memcpy(data + at * 8, &v, 8);
          }
        }
      put_npy(in, w == 4 ? "<i4" : "<i8", 2, shape, fortran, data, (size_t)(8 * w));
      fo_import_opts_init(&o);
      o.format = FO_FORMAT_NPY;
      assert_fo_ok(import1(in, c.out, &o, &rep));
      assert_int_equal(rep.n_input_edges, 4);
      d = open_ok(c.out);
      expect_csc(d, ip, 4, ix, 4);
      {
        static const int64_t eo[] = {2, 3, 0, 1};
        expect_array(d, "edge_orig", eo, 4);
      }
      fo_dataset_close(d);
      free(in);
      ctx_free(&c);
    }
}

static void npy_edge_index_errors(void **state) {
  ctx c;
  char *in, *in2;
  const char *inputs[2];
  fo_import_opts o;
  int64_t data[8] = {0, 1, 2, 3, 1, 2, 3, 0};
  (void)state;
  ctx_init(&c);
  in = fot_path(c.tmp, "e.npy");
  fo_import_opts_init(&o);
  o.format = FO_FORMAT_NPY;
  /* Shapes. */
  put_npy(in, "<i8", 2, (const int64_t[]){4, 2}, false, data, sizeof data);
  assert_fo_error(import1(in, c.out, &o, NULL), FO_EFORMAT, "shape must be (2, E), is (4, 2)");
  assert_non_null(strstr(fo_last_error(), in));
  put_npy(in, "<i8", 1, (const int64_t[]){8}, false, data, sizeof data);
  assert_fo_error(import1(in, c.out, &o, NULL), FO_EFORMAT, "shape must be (2, E), is (8)");
  put_npy(in, "<i8", 3, (const int64_t[]){2, 2, 2}, false, data, sizeof data);
  assert_fo_error(import1(in, c.out, &o, NULL), FO_EFORMAT, "shape must be (2, E), is (2, 2, 2)");
  put_npy(in, "<i8", 0, NULL, false, data, 8);
  assert_fo_error(import1(in, c.out, &o, NULL), FO_EFORMAT, "shape must be (2, E), is ()");
  /* dtypes. */
  put_npy(in, "<f8", 2, (const int64_t[]){2, 4}, false, data, sizeof data);
  assert_fo_error(import1(in, c.out, &o, NULL), FO_EFORMAT, "dtype '<f8', expected int32 ('<i4') or int64 ('<i8')");
  put_npy(in, "<u8", 2, (const int64_t[]){2, 4}, false, data, sizeof data);
  assert_fo_error(import1(in, c.out, &o, NULL), FO_EFORMAT, "dtype '<u8'");
  /* Negative id: row, column and value. */
  data[6] = -3;
  put_npy(in, "<i8", 2, (const int64_t[]){2, 4}, false, data, sizeof data);
  assert_fo_error(import1(in, c.out, &o, NULL), FO_ERANGE, "edge_index[1, 2] = -3 is negative");
  data[6] = 3;
  /* num_nodes. */
  put_npy(in, "<i8", 2, (const int64_t[]){2, 4}, false, data, sizeof data);
  o.num_nodes = 3;
  assert_fo_error(import1(in, c.out, &o, NULL), FO_ERANGE, "edge_index[1, 2] = 3 is >= --num-nodes 3");
  o.num_nodes = -1;
  /* Truncated data, and a file that is not .npy. */
  put_npy(in, "<i8", 2, (const int64_t[]){2, 4}, false, data, sizeof data - 8);
  assert_fo_error(import1(in, c.out, &o, NULL), FO_EFORMAT, "file has 184 bytes, header and shape need 192");
  fot_write_file(in, "0 1\n1 2\n");
  assert_fo_error(import1(in, c.out, &o, NULL), FO_EFORMAT, "bad magic");
  assert_non_null(strstr(fo_last_error(), in));
  {
    char *hdr = fot_path(c.tmp, "h.npy");
    put_npy(hdr, ">i8", 2, (const int64_t[]){2, 4}, false, data, sizeof data);
    assert_fo_error(import1(hdr, c.out, &o, NULL), FO_EFORMAT, "big-endian");
    free(hdr);
  }
  /* One input only. */
  in2 = fot_path(c.tmp, "f.npy");
  put_npy(in2, "<i8", 2, (const int64_t[]){2, 4}, false, data, sizeof data);
  inputs[0] = in2;
  inputs[1] = in2;
  assert_fo_error(fo_import(inputs, 2, c.out, &o, NULL), FO_EINVAL, "npy takes one edge_index file, got 2");
  expect_nothing_left(&c);
  /* int64 values beyond int32 are read whole. */
  {
    int64_t big[2] = {(int64_t)1 << 33, 5};
    fo_dataset_t *d;
    put_npy(in2, "<i8", 2, (const int64_t[]){2, 1}, false, big, sizeof big);
    o.relabel = true;
    assert_fo_ok(import1(in2, c.out, &o, NULL));
    d = open_ok(c.out);
    {
      static const int64_t orig[] = {5, (int64_t)1 << 33};
      expect_array(d, "node_orig", orig, 2);
    }
    fo_dataset_close(d);
  }
  free(in);
  free(in2);
  ctx_free(&c);
}

/* ---- Matrix Market ------------------------------------------------------------------------- */

static void mtx_formats(void **state) {
  static const struct {
    const char *text;
    int64_t n, m;
    int64_t ip[6], ix[8];
  } cases[] = {
      /* pattern general, comments: (1,2) (3,1) -> 0->1, 2->0 */
      {"%%MatrixMarket matrix coordinate pattern general\n% a comment\n%\n3 3 2\n1 2\n\n3 1\n",
       3, 2, {0, 1, 2, 2}, {2, 0}},
      /* integer values ignored */
      {"%%MatrixMarket matrix coordinate integer general\n3 3 2\n1 2 7\n3 1 -4\n", 3, 2,
       {0, 1, 2, 2}, {2, 0}},
      /* real, rectangular 4 x 2: n = max(rows, cols) */
      {"%%MatrixMarket matrix coordinate real general\n4 2 2\n4 1 0.5\n1 2 1e-3\n", 4, 2,
       {0, 1, 2, 2, 2}, {3, 0}},
      /* symmetric: off-diagonal entries mirrored, the diagonal not */
      {"%%MatrixMarket matrix coordinate real symmetric\n3 3 3\n2 1 1.0\n3 3 2.0\n3 2 1\n", 3, 5,
       {0, 1, 3, 5}, {1, 0, 2, 2, 1}},
      /* case-insensitive keywords, CRLF, tabs */
      {"%%MatrixMarket MATRIX Coordinate Pattern Symmetric\r\n2\t2\t1\r\n2\t1\r\n", 2, 2,
       {0, 1, 2}, {1, 0}},
      /* no entries */
      {"%%MatrixMarket matrix coordinate pattern general\n5 5 0\n", 5, 0, {0, 0, 0, 0, 0, 0}, {0}},
  };
  (void)state;
  for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
    ctx c;
    char *in;
    fo_dataset_t *d;
    fo_import_opts o;
    fo_import_report rep;
    ctx_init(&c);
    in = put(&c, "m.mtx", cases[k].text);
    fo_import_opts_init(&o);
    o.format = FO_FORMAT_MTX;
    if (import1(in, c.out, &o, &rep) != FO_OK) fail_msg("case %zu: %s", k, fo_last_error());
    assert_int_equal(rep.n_input_edges, cases[k].m);
    d = open_ok(c.out);
    expect_csc(d, cases[k].ip, cases[k].n, cases[k].ix, cases[k].m);
    fo_dataset_close(d);
    free(in);
    ctx_free(&c);
  }
}

/* An mtx import of `text` must fail with `code` and `want`; the message must name the file
 * (line 0), the file and line (line > 0), or need not (line < 0). */
static void mtx_fails(const char *text, const fo_import_opts *o, int code, int line, const char *want) {
  ctx c;
  char *in, where[4200];
  fo_import_opts oo;
  ctx_init(&c);
  in = put(&c, "m.mtx", text);
  if (!o) {
    fo_import_opts_init(&oo);
    oo.format = FO_FORMAT_MTX;
    o = &oo;
  }
  assert_fo_error(import1(in, c.out, o, NULL), code, want);
  if (line > 0) snprintf(where, sizeof where, "%s:%d: ", in, line);
  else snprintf(where, sizeof where, "%s", line == 0 ? in : "");
  if (!strstr(fo_last_error(), where)) fail_msg("message '%s' lacks '%s'", fo_last_error(), where);
  expect_nothing_left(&c);
  free(in);
  ctx_free(&c);
}

static void mtx_errors(void **state) {
  fo_import_opts o;
  (void)state;
  /* Header. */
  mtx_fails("", NULL, FO_EFORMAT, 0, "empty file");
  mtx_fails("3 3 1\n1 1\n", NULL, FO_EFORMAT, 1, "expected '%%MatrixMarket matrix coordinate");
  mtx_fails("%%MatrixMarket matrix coordinate pattern\n1 1 0\n", NULL, FO_EFORMAT, 1,
            "got '%%MatrixMarket matrix coordinate pattern'");
  mtx_fails("%%MatrixMarket vector coordinate pattern general\n", NULL, FO_EFORMAT, 1, "expected");
  mtx_fails("%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n4\n", NULL, FO_EFORMAT, 1,
            "format 'array' is not supported (only coordinate)");
  mtx_fails("%%MatrixMarket matrix coordinate complex general\n1 1 1\n1 1 0 0\n", NULL, FO_EFORMAT, 1,
            "field 'complex' is not supported");
  mtx_fails("%%MatrixMarket matrix coordinate real hermitian\n1 1 1\n1 1 0\n", NULL, FO_EFORMAT, 1,
            "symmetry 'hermitian' is not supported");
  mtx_fails("%%MatrixMarket matrix coordinate real skew-symmetric\n1 1 0\n", NULL, FO_EFORMAT, 1,
            "symmetry 'skew-symmetric'");
  /* Size line. */
  mtx_fails("%%MatrixMarket matrix coordinate pattern general\n% c\n3 3\n", NULL, FO_EFORMAT, 3,
            "expected 'rows cols nnz', got '3 3'");
  mtx_fails("%%MatrixMarket matrix coordinate pattern general\n3 -3 1\n", NULL, FO_EFORMAT, 2,
            "expected 'rows cols nnz'");
  mtx_fails("%%MatrixMarket matrix coordinate pattern general\n% only comments\n", NULL, FO_EFORMAT, 0,
            "missing the 'rows cols nnz' line");
  mtx_fails("%%MatrixMarket matrix coordinate pattern symmetric\n3 4 1\n1 1\n", NULL, FO_EFORMAT, 2,
            "symmetric matrix is 3 x 4, not square");
  /* Entries. */
  mtx_fails("%%MatrixMarket matrix coordinate pattern general\n3 3 2\n1 2\n4 1\n", NULL, FO_ERANGE, 4,
            "entry (4, 1) is outside the 3 x 3 matrix");
  mtx_fails("%%MatrixMarket matrix coordinate pattern general\n3 3 1\n0 1\n", NULL, FO_ERANGE, 3,
            "entry (0, 1) is outside the 3 x 3 matrix");
  mtx_fails("%%MatrixMarket matrix coordinate pattern general\n3 2 1\n1 3\n", NULL, FO_ERANGE, 3,
            "entry (1, 3) is outside the 3 x 2 matrix");
  mtx_fails("%%MatrixMarket matrix coordinate integer general\n3 3 1\n1 x 5\n", NULL, FO_EFORMAT, 3,
            "expected 'row col [value]', got '1 x 5'");
  mtx_fails("%%MatrixMarket matrix coordinate integer general\n3 3 1\n2\n", NULL, FO_EFORMAT, 3,
            "expected 'row col [value]', got '2'");
  mtx_fails("%%MatrixMarket matrix coordinate pattern general\n3 3 2\n1 2\n2 3\n3 1\n", NULL, FO_EFORMAT, 5,
            "more entries than the 2 announced");
  mtx_fails("%%MatrixMarket matrix coordinate pattern general\n3 3 3\n1 2\n2 3\n", NULL, FO_EFORMAT, 4,
            "end of file after 2 entries, but the size line announces 3");
  /* Options. */
  fo_import_opts_init(&o);
  o.format = FO_FORMAT_MTX;
  o.num_nodes = 2;
  mtx_fails("%%MatrixMarket matrix coordinate pattern general\n3 3 1\n1 2\n", &o, FO_ERANGE, 2,
            "matrix is 3 x 3, more than --num-nodes 2");
  fo_import_opts_init(&o);
  o.format = FO_FORMAT_MTX;
  o.relabel = true;
  mtx_fails("%%MatrixMarket matrix coordinate pattern general\n3 3 1\n1 2\n", &o, FO_EINVAL, -1,
            "--relabel does not apply");
  {
    ctx c;
    char *in;
    const char *inputs[2];
    ctx_init(&c);
    in = put(&c, "m.mtx", "%%MatrixMarket matrix coordinate pattern general\n1 1 0\n");
    inputs[0] = inputs[1] = in;
    fo_import_opts_init(&o);
    o.format = FO_FORMAT_MTX;
    assert_fo_error(fo_import(inputs, 2, c.out, &o, NULL), FO_EINVAL, "mtx takes one input file, got 2");
    /* num_nodes larger than the matrix: isolated nodes after it. */
    o.num_nodes = 4;
    assert_fo_ok(import1(in, c.out, &o, NULL));
    {
      fo_dataset_t *d = open_ok(c.out);
      assert_int_equal(fo_dataset_num_nodes(d), 4);
      fo_dataset_close(d);
    }
    free(in);
    ctx_free(&c);
  }
}

/* ---- atomicity, force, cancel ------------------------------------------------------------- */

static void failed_import_leaves_nothing(void **state) {
  ctx c;
  char *in;
  fo_import_opts o;
  (void)state;
  ctx_init(&c);
  /* Errors during parsing, in the builder, and in the writer's checks. */
  in = put(&c, "in.txt", "0 1\n1 2\nbad line\n");
  assert_fo_error(import1(in, c.out, NULL, NULL), FO_EFORMAT, "'bad' is not an integer");
  expect_nothing_left(&c);
  fot_write_file(in, "0 1\n");
  fo_import_opts_init(&o);
  o.index_dtype = FO_INDEX_INT32;
  o.num_nodes = (int64_t)INT32_MAX + 10;
  assert_fo_error(import1(in, c.out, &o, NULL), FO_ERANGE, "int32");
  expect_nothing_left(&c);
  /* The output's parent must exist. */
  {
    char *deep = fot_path(c.tmp, "no/such/dir/g");
    assert_fo_error(import1(in, deep, NULL, NULL), FO_EINVAL, "parent directory");
    assert_non_null(strstr(fo_last_error(), "does not exist"));
    free(deep);
  }
  expect_nothing_left(&c);
  /* A trailing slash names the same directory. */
  {
    char *slash = fot_path(c.tmp, "g/");
    fo_dataset_t *d;
    assert_fo_ok(import1(in, slash, NULL, NULL));
    d = open_ok(c.out);
    assert_int_equal(fo_dataset_num_edges(d), 1);
    fo_dataset_close(d);
    free(slash);
  }
  free(in);
  ctx_free(&c);
}

/* Count the entries of `dir` (without . and ..). */
static int count_entries(const char *dir) {
  DIR *dh = opendir(dir);
  struct dirent *de;
  int n = 0;
  assert_non_null(dh);
  while ((de = readdir(dh)) != NULL)
    if (strcmp(de->d_name, ".") && strcmp(de->d_name, "..")) n++;
  closedir(dh);
  return n;
}

static void existing_output_and_force(void **state) {
  ctx c;
  char *a, *b, *manifest_before, *mpath;
  fo_import_opts o;
  fo_dataset_t *d;
  FILE *fp;
  long size;
  (void)state;
  ctx_init(&c);
  a = put(&c, "a.txt", "0 1\n");
  b = put(&c, "b.txt", "0 1\n1 2\n2 3\n");
  assert_fo_ok(import1(a, c.out, NULL, NULL));
  /* Without force: FO_EINVAL, the old dataset untouched. */
  mpath = fot_path(c.out, FO_MANIFEST);
  fp = fopen(mpath, "rb");
  fseek(fp, 0, SEEK_END);
  size = ftell(fp);
  fseek(fp, 0, SEEK_SET);
  manifest_before = calloc(1, (size_t)size + 1);
  assert_int_equal(fread(manifest_before, 1, (size_t)size, fp), (size_t)size);
  fclose(fp);
  assert_fo_error(import1(b, c.out, NULL, NULL), FO_EINVAL, "already exists (use --force to replace it)");
  assert_non_null(strstr(fo_last_error(), c.out));
  d = open_ok(c.out);
  assert_int_equal(fo_dataset_num_edges(d), 1);
  assert_string_equal(fo_dataset_manifest(d), manifest_before);
  fo_dataset_close(d);
  /* With force: replaced, and nothing hidden left beside it. */
  fo_import_opts_init(&o);
  o.force = true;
  o.csr = true;
  assert_fo_ok(import1(b, c.out, &o, NULL));
  d = open_ok(c.out);
  assert_int_equal(fo_dataset_num_edges(d), 3);
  assert_int_equal(fo_dataset_num_nodes(d), 4);
  assert_true(fo_dataset_has_topology(d, FO_EDGE_DIR_OUT));
  fo_dataset_close(d);
  assert_int_equal(count_entries(c.tmp), 3); /* a.txt b.txt g */
  /* Replacing a CSC+CSR dataset with a CSC-only one leaves no stale files. */
  o.csr = false;
  assert_fo_ok(import1(a, c.out, &o, NULL));
  assert_int_equal(count_entries(c.out), 3); /* fanout.json csc_indptr.npy csc_indices.npy */
  assert_int_equal(count_entries(c.tmp), 3);
  /* A failed forced import leaves the old dataset as it was. */
  {
    char *bad = put(&c, "bad.txt", "0 1\nx y\n");
    assert_fo_error(import1(bad, c.out, &o, NULL), FO_EFORMAT, "'x' is not an integer");
    d = open_ok(c.out);
    assert_int_equal(fo_dataset_num_edges(d), 1);
    fo_dataset_close(d);
    free(bad);
  }
  /* Force refuses a non-empty directory that is not a dataset, and a file. */
  {
    char *other = fot_path(c.tmp, "other"), *file = fot_path(c.tmp, "other/precious.txt");
    char *plain = fot_path(c.tmp, "plain.txt");
    assert_int_equal(mkdir(other, 0755), 0);
    fot_write_file(file, "keep me\n");
    assert_fo_error(import1(a, other, &o, NULL), FO_EINVAL, "refusing to replace");
    assert_non_null(strstr(fo_last_error(), "not a fanout dataset"));
    assert_int_equal(access(file, R_OK), 0);
    assert_int_equal(count_entries(other), 1);
    fot_write_file(plain, "text\n");
    assert_fo_error(import1(a, plain, &o, NULL), FO_EINVAL, "refusing to replace");
    o.force = false;
    assert_fo_error(import1(a, plain, &o, NULL), FO_EINVAL, "already exists");
    o.force = true;
    /* An empty directory may be replaced. */
    assert_int_equal(unlink(file), 0);
    assert_fo_ok(import1(a, other, &o, NULL));
    d = open_ok(other);
    assert_int_equal(fo_dataset_num_edges(d), 1);
    fo_dataset_close(d);
    free(other);
    free(file);
    free(plain);
  }
  free(manifest_before);
  free(mpath);
  free(a);
  free(b);
  ctx_free(&c);
}

static void cancel_flag(void **state) {
  ctx c;
  char *in, *content, *cites, *mtx;
  fo_import_opts o;
  volatile int flag = 1;
  int64_t s[2] = {0, 1}, t[2] = {1, 0};
  (void)state;
  ctx_init(&c);
  in = put(&c, "in.txt", "0 1\n1 2\n");
  fo_import_opts_init(&o);
  o.cancel = &flag;
  assert_fo_error(import1(in, c.out, &o, NULL), FO_ECANCELED, "interrupted");
  expect_nothing_left(&c);
  assert_fo_error(fo_import_edges(s, t, 2, c.out, &o, NULL), FO_ECANCELED, "interrupted");
  expect_nothing_left(&c);
  /* The readers stop before parsing: a malformed file is not even looked at. */
  {
    char *bad = put(&c, "bad.txt", "0 1\nnot an edge\n");
    char *badmtx = put(&c, "bad.mtx", "not a header\n");
    char *dupc = put(&c, "dup.content", "p1\t1\tA\np1\t1\tA\n");
    const char *inputs[2] = {dupc, NULL};
    char *cites_ok = put(&c, "ok.cites", "p1\tp1\n");
    assert_fo_error(import1(bad, c.out, &o, NULL), FO_ECANCELED, "bad.txt: interrupted");
    o.format = FO_FORMAT_MTX;
    assert_fo_error(import1(badmtx, c.out, &o, NULL), FO_ECANCELED, "bad.mtx: interrupted");
    o.format = FO_FORMAT_PLANETOID;
    inputs[1] = cites_ok;
    assert_fo_error(fo_import(inputs, 2, c.out, &o, NULL), FO_ECANCELED, "dup.content: interrupted");
    o.format = FO_FORMAT_EDGELIST;
    free(bad);
    free(badmtx);
    free(dupc);
    free(cites_ok);
  }
  expect_nothing_left(&c);
  /* Other formats stop too. */
  content = put(&c, "toy.content", CONTENT);
  cites = put(&c, "toy.cites", CITES);
  {
    const char *inputs[2] = {content, cites};
    o.format = FO_FORMAT_PLANETOID;
    assert_fo_error(fo_import(inputs, 2, c.out, &o, NULL), FO_ECANCELED, "interrupted");
  }
  mtx = put(&c, "m.mtx", "%%MatrixMarket matrix coordinate pattern general\n2 2 1\n1 2\n");
  o.format = FO_FORMAT_MTX;
  assert_fo_error(import1(mtx, c.out, &o, NULL), FO_ECANCELED, "interrupted");
  {
    char *npy = fot_path(c.tmp, "e.npy");
    int64_t data[4] = {0, 1, 1, 0};
    put_npy(npy, "<i8", 2, (const int64_t[]){2, 2}, false, data, sizeof data);
    o.format = FO_FORMAT_NPY;
    assert_fo_error(import1(npy, c.out, &o, NULL), FO_ECANCELED, "interrupted");
    free(npy);
  }
  expect_nothing_left(&c);
  /* Cancelling with force keeps the existing dataset. */
  o.format = FO_FORMAT_EDGELIST;
  o.cancel = NULL;
  assert_fo_ok(import1(in, c.out, &o, NULL));
  o.cancel = &flag;
  o.force = true;
  assert_fo_error(fo_import_edges(s, t, 1, c.out, &o, NULL), FO_ECANCELED, "interrupted");
  {
    fo_dataset_t *d = open_ok(c.out);
    assert_int_equal(fo_dataset_num_edges(d), 2);
    fo_dataset_close(d);
  }
  /* A lowered flag does not cancel. */
  flag = 0;
  assert_fo_ok(fo_import_edges(s, t, 1, c.out, &o, NULL));
  free(in);
  free(content);
  free(cites);
  free(mtx);
  ctx_free(&c);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(edgelist_separators),
      cmocka_unit_test(edgelist_comments_crlf_blank),
      cmocka_unit_test(edgelist_gzip),
      cmocka_unit_test(edgelist_extra_columns),
      cmocka_unit_test(edgelist_several_files),
      cmocka_unit_test(edgelist_empty_file),
      cmocka_unit_test(edgelist_long_lines),
      cmocka_unit_test(edgelist_errors),
      cmocka_unit_test(edgelist_input_errors),
      cmocka_unit_test(option_errors),
      cmocka_unit_test(relabel_ids),
      cmocka_unit_test(num_nodes_option),
      cmocka_unit_test(undirected_reverse_and_dedup),
      cmocka_unit_test(remove_self_loops_only),
      cmocka_unit_test(dedup_keeps_first),
      cmocka_unit_test(layout_small_graph),
      cmocka_unit_test(csc_keeps_input_order),
      cmocka_unit_test(layout_random_consistent),
      cmocka_unit_test(index_dtypes),
      cmocka_unit_test(planetoid_basic),
      cmocka_unit_test(planetoid_errors),
      cmocka_unit_test(npy_edge_index),
      cmocka_unit_test(npy_edge_index_errors),
      cmocka_unit_test(mtx_formats),
      cmocka_unit_test(mtx_errors),
      cmocka_unit_test(failed_import_leaves_nothing),
      cmocka_unit_test(existing_output_and_force),
      cmocka_unit_test(cancel_flag),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
