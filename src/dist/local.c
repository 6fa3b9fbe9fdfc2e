/*
 * dist/local.c: the in-process transport: every part open in this process, every request
 * encoded, answered by that part's server and decoded, as over MPI. It makes the distributed
 * code path testable in one process (and is what fo_dist_init_local gives).
 */
#include "dist/dist_internal.h"

typedef struct local_impl {
  fo__server *servers;   /* [parts] */
  pthread_mutex_t *locks; /* [parts]: a server answers one request at a time */
  int n;
} local_impl;

static int local_exchange(fo_dist_t *dd, fo__call *calls, int n) {
  local_impl *li = dd->impl;
  for (int i = 0; i < n; i++) {
    fo__call *c = &calls[i];
    fo__server *sv;
    int rc;
    if (c->machine < 0 || c->machine >= li->n)
      return FO_FAIL(FO_EINVAL, "request to machine %d of %d", (int)c->machine, li->n);
    sv = &li->servers[c->machine];
    pthread_mutex_lock(&li->locks[c->machine]);
    rc = fo__server_answer(sv, c->req.w, (size_t)c->req.n * 8);
    if (rc == FO_OK && (size_t)sv->out.n * 8 > c->resp_cap) {
      void *nr = realloc(c->resp, (size_t)sv->out.n * 8);
      if (!nr) rc = FO_FAIL(FO_ENOMEM, "response");
      else {
        c->resp = nr;
        c->resp_cap = (size_t)sv->out.n * 8;
      }
    }
    if (rc == FO_OK) {
      memcpy(c->resp, sv->out.w, (size_t)sv->out.n * 8);
      c->resp_len = (size_t)sv->out.n * 8;
    }
    pthread_mutex_unlock(&li->locks[c->machine]);
    if (rc != FO_OK) return rc;
    pthread_mutex_lock(&dd->mu);
    dd->stats.served++;
    pthread_mutex_unlock(&dd->mu);
  }
  return FO_OK;
}

static int local_barrier(fo_dist_t *dd) {
  (void)dd;
  return FO_OK;
}

static void local_fini(fo_dist_t *dd) {
  local_impl *li = dd->impl;
  if (!li) return;
  for (int k = 0; k < li->n; k++) {
    fo__server_fini(&li->servers[k]);
    pthread_mutex_destroy(&li->locks[k]);
  }
  free(li->servers);
  free(li->locks);
  free(li);
  dd->impl = NULL;
}

const fo__transport_ops fo__local_ops = {local_exchange, local_barrier, local_fini, NULL, NULL,
                                         NULL};

int fo_dist_init_local(const fo_dataset_t *d, int32_t machine, const fo_dist_opts *o,
                       fo_dist_t **out) {
  fo_dist_opts defaults;
  fo_dist_t *dd;
  local_impl *li;
  int rc;
  if (out) *out = NULL;
  if (!out || !d) return FO_FAIL(FO_EINVAL, "dist init: dataset or out is NULL");
  if (!o) {
    fo_dist_opts_init(&defaults);
    o = &defaults;
  }
  if (!d->n_parts || d->only_part >= 0)
    return FO_FAIL(FO_EINVAL, "dist init: '%s' must be a partitioned dataset with every part open",
                   d->path);
  if (machine < 0 || machine >= d->n_parts)
    return FO_FAIL(FO_EINVAL, "dist init: machine %d is not in [0, %d)", (int)machine, d->n_parts);
  if ((rc = fo__dist_new(&dd, o)) != FO_OK) return rc;
  dd->ops = &fo__local_ops;
  dd->machine = machine;
  dd->n_machines = d->n_parts;
  dd->local_rank = 0;
  dd->local_size = 1;
  dd->rank = machine;
  dd->size = d->n_parts;
  dd->d = d;
  if (!(li = calloc(1, sizeof *li)) ||
      !(li->servers = calloc((size_t)d->n_parts, sizeof *li->servers)) ||
      !(li->locks = calloc((size_t)d->n_parts, sizeof *li->locks))) {
    if (li) {
      free(li->servers);
      free(li);
    }
    fo__dist_free(dd);
    return FO_FAIL(FO_ENOMEM, "dist init");
  }
  dd->impl = li;
  for (int k = 0; k < d->n_parts; k++) {
    if ((rc = fo__server_init(&li->servers[k], d, k)) != FO_OK) {
      fo_dist_finalize(dd);
      return fo__context(rc, "dist init");
    }
    pthread_mutex_init(&li->locks[k], NULL);
    li->n = k + 1;
  }
  *out = dd;
  return FO_OK;
}

#ifndef FO_WITH_MPI
int fo_dist_init_mpi(const void *comm, const fo_dist_opts *o, fo_dist_t **out) {
  (void)comm;
  (void)o;
  if (out) *out = NULL;
  return FO_FAIL(FO_ENOSYS, "this fanout was built without MPI (FO_WITH_MPI=OFF, or no MPI found)");
}
#endif
