/*
 * cli/typed.c: the typed forms of the sampling options, shared by `sample` and `bench`:
 * `--fanout LIST` (every edge type) and `--fanout SRC__REL__DST=LIST` (one edge type; a bare
 * relation name works when it names one edge type), `--seeds TYPE:LIST` and `--split
 * TYPE:NAME`. Parsing happens with the command line; resolving names needs the dataset.
 */
#include "cli.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* fo_set_error with a formatted message, then cli_fail: exit status 1. */
static int failf(int rc, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int failf(int rc, const char *fmt, ...) {
  char msg[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  return cli_fail(fo_set_error(rc, msg));
}

int cli_fanout_arg(const char *cmd, const char *arg, cli_fanouts *f) {
  const char *eq = strrchr(arg, '='); /* the last: a relation may contain '=' (WordNet) */
  int32_t *list = NULL, n = 0;
  int ret;
  if ((ret = cli_i32_list(cmd, "--fanout", eq ? eq + 1 : arg, &list, &n))) return ret;
  if (!eq) {
    free(f->all);
    f->all = list;
    f->n_all = n;
    return CLI_OK;
  }
  if (eq == arg) {
    free(list);
    return cli_usage_error(cmd, "--fanout '%s': no edge type before '='", arg);
  }
  {
    void *t = realloc(f->typed, (size_t)(f->n_typed + 1) * sizeof *f->typed);
    if (!t) {
      free(list);
      return failf(FO_ENOMEM, "--fanout");
    }
    f->typed = t;
    f->typed[f->n_typed].key = strndup(arg, (size_t)(eq - arg));
    f->typed[f->n_typed].f = list;
    f->typed[f->n_typed].n = n;
    f->n_typed++;
  }
  return CLI_OK;
}

bool cli_fanouts_given(const cli_fanouts *f) { return f->all || f->n_typed; }

int cli_fanouts_resolve(const char *cmd, const fo_dataset_t *d, cli_fanouts *f,
                        fo_sampler_opts *so) {
  const int32_t E = fo_dataset_num_edge_types(d);
  int32_t H = f->all ? f->n_all : f->typed[0].n;
  bool *given;
  (void)cmd;
  so->fanouts = f->all;
  so->n_hops = H;
  so->edge_type_fanouts = NULL;
  if (!f->n_typed) {
    if (!f->all) return failf(FO_EINVAL, "missing --fanout");
    return CLI_OK;
  }
  if (!fo_dataset_is_typed(d))
    return failf(FO_EINVAL, "--fanout %s=...: dataset '%s' has no edge types "
                                 "(give one list for all hops)", f->typed[0].key,
                                 fo_dataset_path(d));
  free(f->per_type);
  if (!(f->per_type = calloc((size_t)E * (size_t)H + 1, sizeof *f->per_type)) ||
      !(given = calloc((size_t)E + 1, sizeof *given)))
    return failf(FO_ENOMEM, "--fanout");
  for (int32_t et = 0; f->all && et < E; et++)
    memcpy(f->per_type + (size_t)et * (size_t)H, f->all, (size_t)H * sizeof *f->all);
  for (int i = 0; i < f->n_typed; i++) {
    int32_t et = fo_dataset_edge_type_find(d, f->typed[i].key);
    if (et < 0 || f->typed[i].n != H) {
      free(given);
      if (et == -2)
        return failf(FO_EINVAL, "--fanout %s=...: relation '%s' names several "
                                     "edge types: write SRC__REL__DST", f->typed[i].key,
                                     f->typed[i].key);
      if (et < 0 && fo_dataset_label_edge_type_find(d, f->typed[i].key) != -1)
        return failf(FO_EINVAL, "--fanout %s=...: '%s' is a labels-only (supervision) edge "
                                     "type: the sampler never traverses it", f->typed[i].key,
                                     f->typed[i].key);
      if (et < 0) {
        char have[512];
        size_t len = 0;
        have[0] = '\0';
        for (int32_t k = 0; k < E && len < sizeof have; k++) {
          fo_edge_type ty;
          fo_dataset_edge_type(d, k, &ty);
          len += (size_t)snprintf(have + len, sizeof have - len, "%s%s", k ? ", " : "", ty.name);
        }
        return failf(FO_EINVAL, "--fanout %s=...: '%s' is not an edge type of "
                                     "'%s' (it has: %s)", f->typed[i].key, f->typed[i].key,
                                     fo_dataset_path(d), have);
      }
      return failf(FO_EINVAL, "--fanout %s=...: %d hops, the other fanouts have "
                                   "%d", f->typed[i].key, (int)f->typed[i].n, (int)H);
    }
    memcpy(f->per_type + (size_t)et * (size_t)H, f->typed[i].f, (size_t)H * sizeof *f->all);
    given[et] = true;
  }
  for (int32_t et = 0; !f->all && et < E; et++)
    if (!given[et]) {
      fo_edge_type ty;
      fo_dataset_edge_type(d, et, &ty);
      free(given);
      return failf(FO_EINVAL, "edge type '%s' has no fanout (give --fanout LIST "
                                   "for every edge type, or --fanout %s=LIST)", ty.name, ty.name);
    }
  free(given);
  so->fanouts = f->all ? f->all : f->typed[0].f;
  so->edge_type_fanouts = f->per_type;
  return CLI_OK;
}

void cli_fanouts_free(cli_fanouts *f) {
  for (int i = 0; i < f->n_typed; i++) {
    free(f->typed[i].key);
    free(f->typed[i].f);
  }
  free(f->typed);
  free(f->all);
  free(f->per_type);
  memset(f, 0, sizeof *f);
}

int cli_typed_arg(const char *cmd, const char *opt, const char *arg, char **type, const char **rest) {
  const char *colon = strchr(arg, ':');
  free(*type);
  *type = NULL;
  *rest = arg;
  if (!colon) return CLI_OK;
  if (colon == arg) return cli_usage_error(cmd, "%s '%s': no node type before ':'", opt, arg);
  if (!(*type = strndup(arg, (size_t)(colon - arg)))) return failf(FO_ENOMEM, "%s", opt);
  *rest = colon + 1;
  return CLI_OK;
}

static void type_names(const fo_dataset_t *d, char *buf, size_t cap) {
  size_t len = 0;
  buf[0] = '\0';
  for (int32_t t = 0; t < fo_dataset_num_node_types(d) && len < cap; t++)
    len += (size_t)snprintf(buf + len, cap - len, "%s%s", t ? ", " : "", fo_dataset_node_type_name(d, t));
}

int cli_node_type(const fo_dataset_t *d, const char *opt, const char *type, int32_t *out) {
  char have[512];
  type_names(d, have, sizeof have);
  if (!type) {
    if (fo_dataset_num_node_types(d) > 1)
      return failf(FO_EINVAL, "%s: dataset '%s' has %d node types: %s (node types: %s)", opt,
                   fo_dataset_path(d), (int)fo_dataset_num_node_types(d),
                   strcmp(opt, "--input-type") ? "write TYPE:..."
                                               : "give --input-type TYPE or --split TYPE:NAME",
                   have);
    *out = 0;
    return CLI_OK;
  }
  if ((*out = fo_dataset_node_type_find(d, type)) < 0)
    return failf(FO_EINVAL, "%s: '%s' is not a node type of '%s' (node types: %s)",
                                 opt, type, fo_dataset_path(d), have);
  return CLI_OK;
}
