/*
 * io/edge_split.c: edge splits at import (fo_import_opts.edge_splits, `--edge-split`): input
 * edge positions mapped to the edge ids the build gave them, written as the arrays
 * "<prefix>edge_split.<name>" with the entry's "edge_splits" (docs/FORMAT.md).
 */
#include "io/io_internal.h"
#include "store/store_internal.h"

#include <stdlib.h>
#include <string.h>

#define MAX_EDGE_SPLITS 8 /* per edge type, as node splits */

static bool valid_name(const char *s, size_t n) {
  if (n == 0 || n >= 32) return false;
  for (size_t i = 0; i < n; i++)
    if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') ||
          (s[i] >= '0' && s[i] <= '9') || s[i] == '_'))
      return false;
  return true;
}

/* The option as the user wrote it, for messages. */
static const char *opt_type(const fo_import_edge_split *e) { return e->edge_type ? e->edge_type : ""; }
static const char *opt_colon(const fo_import_edge_split *e) { return e->edge_type ? ":" : ""; }

int fo__edge_splits_check(const fo_import_opts *o) {
  const bool typed = fo__import_is_typed(o);
  if (o->n_edge_splits < 0 || o->n_edge_splits > FO_IMPORT_MAX_EDGE_SPLIT_TYPES ||
      (o->n_edge_splits > 0 && !o->edge_splits))
    return FO_FAIL(FO_EINVAL, "edge splits: %d entries (expected 0..%d and a list)",
                   (int)o->n_edge_splits, FO_IMPORT_MAX_EDGE_SPLIT_TYPES);
  for (int i = 0; i < o->n_edge_splits; i++) {
    const fo_import_edge_split *e = &o->edge_splits[i];
    if (!e->splits || !*e->splits)
      return FO_FAIL(FO_EINVAL, "--edge-split %s%s: no NAME=FILE.npy list", opt_type(e), opt_colon(e));
    if (!typed && e->edge_type)
      return FO_FAIL(FO_EINVAL, "--edge-split %s:%s: an untyped import has one edge type; give "
                     "NAME=FILE.npy without '%s:'", e->edge_type, e->splits, e->edge_type);
    for (int j = 0; j < i; j++) {
      const fo_import_edge_split *f = &o->edge_splits[j];
      if ((!e->edge_type && !f->edge_type) ||
          (e->edge_type && f->edge_type && !strcmp(e->edge_type, f->edge_type)))
        return FO_FAIL(FO_EINVAL, "--edge-split %s%s%s: edge type given twice (list all its "
                       "splits in one --edge-split)", opt_type(e), opt_colon(e), e->splits);
    }
  }
  return FO_OK;
}

/* One list "NAME=F.npy,..." of entry e for an edge type with m_input input edges whose edge
 * ids map back through t->edge_orig. */
static int write_list(const fo_import_edge_split *e, const fo__topology *t, int64_t m_input,
                      const char *prefix, fo__writer *w, json_t *obj) {
  char names[MAX_EDGE_SPLITS][32];
  int n_names = 0, rc = FO_OK;
  int64_t *inv = NULL, *ids = NULL;
  json_t *js = json_object();
  const char *p = e->splits;
  if (!js) return FO_FAIL(FO_ENOMEM, "edge splits");
  if (!(inv = fo__malloc_n(m_input + 1, sizeof *inv))) {
    rc = FO_FAIL(FO_ENOMEM, "edge splits: %lld input edges", (long long)m_input);
    goto out;
  }
  for (int64_t i = 0; i < m_input; i++) inv[i] = -1;
  for (int64_t id = 0; id < t->m; id++)
    if (t->edge_orig[id] >= 0 && t->edge_orig[id] < m_input) inv[t->edge_orig[id]] = id;
  while (*p) {
    const char *comma = strchr(p, ','), *eq = strchr(p, '=');
    const size_t len = comma ? (size_t)(comma - p) : strlen(p);
    char path[4096], spec[4200], arr[320];
    fo__node_data nd;
    int64_t n;
    if (!eq || eq > p + len || !valid_name(p, (size_t)(eq - p)) || eq + 1 == p + len ||
        (size_t)(p + len - eq - 1) >= sizeof path) {
      rc = FO_FAIL(FO_EINVAL, "--edge-split %s%s%s: '%.*s' is not NAME=FILE.npy (NAME of letters, "
                   "digits, '_', up to 31)", opt_type(e), opt_colon(e), e->splits, (int)len, p);
      goto out;
    }
    if (n_names == MAX_EDGE_SPLITS) {
      rc = FO_FAIL(FO_EINVAL, "--edge-split %s%s%s: more than %d splits", opt_type(e), opt_colon(e),
                   e->splits, MAX_EDGE_SPLITS);
      goto out;
    }
    snprintf(names[n_names], sizeof names[0], "%.*s", (int)(eq - p), p);
    for (int i = 0; i < n_names; i++)
      if (!strcmp(names[i], names[n_names])) {
        rc = FO_FAIL(FO_EINVAL, "--edge-split %s%s%s: split '%s' given twice", opt_type(e),
                     opt_colon(e), e->splits, names[i]);
        goto out;
      }
    snprintf(path, sizeof path, "%.*s", (int)(p + len - eq - 1), eq + 1);
    snprintf(spec, sizeof spec, "s=%s", path);
    memset(&nd, 0, sizeof nd);
    if ((rc = fo__node_data_load_files(&nd, NULL, NULL, spec)) != FO_OK) {
      fo__node_data_free(&nd);
      rc = fo__context(rc, "--edge-split %s%s%s", opt_type(e), opt_colon(e), names[n_names]);
      goto out;
    }
    ids = nd.splits[0].ids;
    n = nd.splits[0].n;
    nd.splits[0].ids = NULL;
    fo__node_data_free(&nd);
    for (int64_t j = 0; j < n; j++) {
      const int64_t k = ids[j];
      if (k < 0 || k >= m_input) {
        rc = FO_FAIL(FO_ERANGE, "--edge-split %s%s%s: '%s' entry %lld is %lld, not an input edge "
                     "position in [0, %lld)", opt_type(e), opt_colon(e), names[n_names], path,
                     (long long)j, (long long)k, (long long)m_input);
        goto out;
      }
      if (inv[k] < 0) {
        rc = FO_FAIL(FO_ERANGE, "--edge-split %s%s%s: '%s' entry %lld is input edge %lld, which "
                     "the import dropped (a self loop or a duplicate)", opt_type(e), opt_colon(e),
                     names[n_names], path, (long long)j, (long long)k);
        goto out;
      }
      ids[j] = inv[k];
    }
    snprintf(arr, sizeof arr, "%sedge_split.%s", prefix, names[n_names]);
    if ((rc = fo__writer_add(w, arr, "<i8", 1, &n, ids)) != FO_OK) goto out;
    free(ids);
    ids = NULL;
    json_object_set_new(js, names[n_names], json_string(arr));
    n_names++;
    if (!comma) break;
    p = comma + 1;
  }
  json_object_set(obj, "edge_splits", js);
out:
  json_decref(js);
  free(ids);
  free(inv);
  return rc;
}

int fo__edge_splits_write(const fo_import_opts *o, const char *et_name, bool only_type,
                          const fo__topology *t, int64_t m_input, const char *prefix,
                          fo__writer *w, json_t *obj, unsigned char *seen) {
  for (int i = 0; i < o->n_edge_splits; i++) {
    const fo_import_edge_split *e = &o->edge_splits[i];
    int rc;
    if (e->edge_type ? !(et_name && !strcmp(e->edge_type, et_name)) : !(!et_name || only_type))
      continue;
    seen[i] = 1;
    if ((rc = write_list(e, t, m_input, prefix, w, obj)) != FO_OK) return rc;
  }
  return FO_OK;
}

int fo__edge_splits_unmatched(const fo_import_opts *o, const unsigned char *seen) {
  for (int i = 0; i < o->n_edge_splits; i++) {
    const fo_import_edge_split *e = &o->edge_splits[i];
    if (seen[i]) continue;
    if (!e->edge_type)
      return FO_FAIL(FO_EINVAL, "--edge-split %s: the import has several edge types: name one "
                     "(SRC__REL__DST:NAME=FILE.npy)", e->splits);
    return FO_FAIL(FO_EINVAL, "--edge-split %s:%s: the import has no input edge type '%s' "
                   "(reverse types of --reverse-edges cannot be named)", e->edge_type, e->splits,
                   e->edge_type);
  }
  return FO_OK;
}
