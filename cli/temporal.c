/*
 * cli/temporal.c: the temporal sampling options shared by `fanout sample` and `fanout bench`:
 * --temporal uniform|last, --time edge|node, --seed-time LIST, --strict, --window W.
 */
#include "cli.h"

#include <stdlib.h>
#include <string.h>

int cli_temporal_opt(const char *cmd, const char *opt, const char *arg, fo_sampler_opts *o,
                     int64_t **seed_time, int64_t *n_seed_time) {
  if (!strcmp(opt, "--temporal")) {
    if (!strcmp(arg, "uniform")) o->temporal = FO_TEMPORAL_UNIFORM;
    else if (!strcmp(arg, "last")) o->temporal = FO_TEMPORAL_LAST;
    else return cli_usage_error(cmd, "--temporal: '%s' is not uniform or last", arg);
    return CLI_OK;
  }
  if (!strcmp(opt, "--time")) {
    if (!strcmp(arg, "edge")) o->time_attr = FO_TIME_ATTR_EDGE;
    else if (!strcmp(arg, "node")) o->time_attr = FO_TIME_ATTR_NODE;
    else return cli_usage_error(cmd, "--time: '%s' is not edge or node", arg);
    return CLI_OK;
  }
  if (!strcmp(opt, "--window")) {
    int rc = cli_i64(cmd, "--window", arg, &o->time_window);
    if (rc) return rc;
    if (o->time_window < 0) return cli_usage_error(cmd, "--window: %s is negative", arg);
    return CLI_OK;
  }
  /* --seed-time */
  free(*seed_time);
  *seed_time = NULL;
  return cli_i64_list(cmd, "--seed-time", arg, seed_time, n_seed_time);
}

int cli_temporal_check(const char *cmd, const fo_sampler_opts *o, bool have_seed_time) {
  if (o->temporal == FO_TEMPORAL_NONE && (o->time_strict || o->time_window >= 0 || have_seed_time))
    return cli_usage_error(cmd, "%s needs --temporal uniform|last",
                           o->time_strict ? "--strict" : o->time_window >= 0 ? "--window" : "--seed-time");
  return CLI_OK;
}
