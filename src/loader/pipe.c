/*
 * loader/pipe.c: the pipelining threads of the distributed link and ABLP loaders
 * (fo_dist_loader_opts.pipeline, fo__pipe in loader/loader_internal.h).
 *
 * D threads sample the batches next .. next + D - 1 of the current epoch into a ring of D slots,
 * each with its own sampler (the loader's `sample` callback and its worker state), so that up
 * to D batches' remote requests are in flight while the loader gathers and hands out earlier
 * ones. The loader takes batch `next` (fo__pipe_take), which frees its slot for batch next + D.
 * Batches are random access by (epoch, index): a thread's sample of batch t is the loader's own.
 * One mutex guards the ring; it is never held across a sample (a slot being sampled is BUSY,
 * owned by its thread). Between fo__pipe_halt and fo__pipe_begin no thread samples: the loader
 * changes its epoch's order then.
 */
#include "loader/loader_internal.h"

#include <pthread.h>

enum { SLOT_FREE, SLOT_BUSY, SLOT_DONE };

typedef struct slot {
  int state;
  int64_t t;                 /* the batch it holds (DONE) or is being sampled (BUSY) */
  void *item;                /* the loader's batch object, swapped out by fo__pipe_take */
  int rc;
  char *msg;                 /* the failure's message (malloc), NULL when rc is FO_OK */
  fo_dist_batch_stats traffic;
} slot;

typedef struct worker {
  fo__pipe *p;
  void *state;
} worker;

struct fo__pipe {
  pthread_mutex_t mu;
  pthread_cond_t done_cv;    /* a slot became DONE, or a sample ended (halt) */
  pthread_cond_t work_cv;    /* the window moved, begin, stop */
  int32_t D, started;
  pthread_t *threads;
  worker *w;
  slot *slots;
  void *owner;
  fo__pipe_sample_fn sample;
  bool active, stop;
  int64_t n_batches, next, claim, n_busy;
};

static void *pipe_main(void *arg) {
  worker *w = arg;
  fo__pipe *p = w->p;
  pthread_mutex_lock(&p->mu);
  while (!p->stop) {
    slot *s;
    int64_t t;
    int rc;
    if (!p->active || p->claim >= p->n_batches || p->claim >= p->next + p->D) {
      pthread_cond_wait(&p->work_cv, &p->mu);
      continue;
    }
    t = p->claim++;
    s = &p->slots[t % p->D];
    s->state = SLOT_BUSY;
    s->t = t;
    free(s->msg);
    s->msg = NULL;
    p->n_busy++;
    pthread_mutex_unlock(&p->mu);
    /* the batch's own traffic, counted in its slot */
    memset(&s->traffic, 0, sizeof s->traffic);
    fo__cur_batch_stats = &s->traffic;
    rc = p->sample(p->owner, w->state, t, s->item);
    fo__cur_batch_stats = NULL;
    if (rc != FO_OK) {
      const char *m = fo_last_error();
      s->msg = strdup(m && *m ? m : "(no message)");
    }
    pthread_mutex_lock(&p->mu);
    s->rc = rc;
    s->state = SLOT_DONE;
    p->n_busy--;
    pthread_cond_broadcast(&p->done_cv);
  }
  pthread_mutex_unlock(&p->mu);
  return NULL;
}

int fo__pipe_create(int32_t n_workers, void *owner, void *const *workers, void *const *items,
                    fo__pipe_sample_fn sample, const char *what, fo__pipe **out) {
  fo__pipe *p;
  *out = NULL;
  if (n_workers < 1) return FO_FAIL(FO_EINVAL, "%s: %d pipelining threads", what, (int)n_workers);
  if (!(p = calloc(1, sizeof *p))) return FO_FAIL(FO_ENOMEM, "%s: pipelining", what);
  pthread_mutex_init(&p->mu, NULL);
  pthread_cond_init(&p->done_cv, NULL);
  pthread_cond_init(&p->work_cv, NULL);
  p->D = n_workers;
  p->owner = owner;
  p->sample = sample;
  if (!(p->threads = calloc((size_t)n_workers, sizeof *p->threads)) ||
      !(p->w = calloc((size_t)n_workers, sizeof *p->w)) ||
      !(p->slots = calloc((size_t)n_workers, sizeof *p->slots))) {
    fo__pipe_destroy(p, NULL);
    return FO_FAIL(FO_ENOMEM, "%s: %d pipelining threads", what, (int)n_workers);
  }
  for (int32_t i = 0; i < n_workers; i++) {
    p->w[i].p = p;
    p->w[i].state = workers[i];
    p->slots[i].item = items[i];
    p->slots[i].t = -1;
  }
  for (int32_t i = 0; i < n_workers; i++) {
    const int err = pthread_create(&p->threads[i], NULL, pipe_main, &p->w[i]);
    if (err) {
      fo__pipe_destroy(p, NULL);
      return FO_FAIL(FO_EIO, "%s: start pipelining thread %d: %s", what, (int)i, strerror(err));
    }
    p->started = i + 1;
  }
  *out = p;
  return FO_OK;
}

void fo__pipe_halt(fo__pipe *p) {
  if (!p) return;
  pthread_mutex_lock(&p->mu);
  p->active = false;
  while (p->n_busy > 0) pthread_cond_wait(&p->done_cv, &p->mu);
  pthread_mutex_unlock(&p->mu);
}

void fo__pipe_begin(fo__pipe *p, int64_t n_batches) {
  pthread_mutex_lock(&p->mu);
  for (int32_t i = 0; i < p->D; i++) {
    p->slots[i].state = SLOT_FREE;
    p->slots[i].t = -1;
  }
  p->n_batches = n_batches;
  p->next = 0;
  p->claim = 0;
  p->active = true;
  pthread_cond_broadcast(&p->work_cv);
  pthread_mutex_unlock(&p->mu);
}

int fo__pipe_take(fo__pipe *p, int64_t t, void **item, fo_dist_batch_stats *traffic) {
  slot *s;
  void *mine;
  int rc;
  pthread_mutex_lock(&p->mu);
  if (!p->active || t != p->next || t >= p->n_batches) {
    pthread_mutex_unlock(&p->mu);
    return FO_FAIL(FO_EINTERNAL, "pipelining: batch %lld taken, batch %lld of %lld is next%s",
                   (long long)t, (long long)p->next, (long long)p->n_batches,
                   p->active ? "" : " (halted)");
  }
  s = &p->slots[t % p->D];
  /* its thread ends, with the batch or an error, within the transport's deadline */
  while (!(s->state == SLOT_DONE && s->t == t)) pthread_cond_wait(&p->done_cv, &p->mu);
  mine = *item;
  *item = s->item;
  s->item = mine;
  rc = s->rc;
  if (traffic) *traffic = s->traffic;
  if (rc != FO_OK) fo_set_error(rc, s->msg ? s->msg : "(no message)");
  s->state = SLOT_FREE;
  p->next++;
  pthread_cond_broadcast(&p->work_cv); /* the window moved */
  pthread_mutex_unlock(&p->mu);
  return rc;
}

void fo__pipe_destroy(fo__pipe *p, void (*free_item)(void *item)) {
  if (!p) return;
  pthread_mutex_lock(&p->mu);
  p->stop = true;
  pthread_cond_broadcast(&p->work_cv);
  pthread_mutex_unlock(&p->mu);
  /* a thread in a remote request ends with it, within the transport's deadline */
  for (int32_t i = 0; i < p->started; i++) pthread_join(p->threads[i], NULL);
  for (int32_t i = 0; p->slots && i < p->D; i++) {
    if (free_item && p->slots[i].item) free_item(p->slots[i].item);
    free(p->slots[i].msg);
  }
  free(p->slots);
  free(p->w);
  free(p->threads);
  pthread_cond_destroy(&p->work_cv);
  pthread_cond_destroy(&p->done_cv);
  pthread_mutex_destroy(&p->mu);
  free(p);
}
