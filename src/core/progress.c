/*
 * core/progress.c: a one-line progress bar on stderr for long operations (import, partition,
 * verify), drawn only when stderr is a terminal and at most ten times a second, erased at the
 * end. Counts are bytes (MiB and MiB/s) or items ("3/8 parts"). A phase that cannot report
 * progress (METIS runs as one opaque call) gets a spinner with the elapsed time, drawn by a
 * small thread while the phase runs; nothing else draws meanwhile.
 */
#include "core/internal.h"

#include <pthread.h>
#include <time.h>
#include <unistd.h>

struct fo__spinner {
  pthread_t thread;
  pthread_mutex_t mu;
  pthread_cond_t cv;
  bool stop;
  const char *label;
  uint64_t start_ns;
};

static void start(fo__progress *p, bool enabled, const char *label, uint64_t total, const char *unit) {
  memset(p, 0, sizeof *p);
  p->active = enabled && isatty(STDERR_FILENO);
  p->label = label;
  p->unit = unit;
  p->total = total;
  p->start_ns = fo__now_ns();
}

void fo__progress_start(fo__progress *p, bool enabled, const char *label, uint64_t total) {
  start(p, enabled, label, total, NULL);
}

void fo__progress_start_items(fo__progress *p, bool enabled, const char *label, uint64_t total,
                              const char *unit) {
  start(p, enabled, label, total, unit);
}

void fo__progress_update(fo__progress *p, uint64_t done) {
  uint64_t now;
  double secs, mb;
  if (!p->active || p->spin) return;
  now = fo__now_ns();
  if (now - p->last_ns < 100000000u) return;
  p->last_ns = now;
  secs = (double)(now - p->start_ns) / 1e9;
  mb = (double)done / 1048576.0;
  if (p->total) {
    int width = 30, fill;
    char bar[31];
    double frac = (double)done / (double)p->total;
    if (frac > 1) frac = 1;
    fill = (int)(frac * width);
    memset(bar, '#', (size_t)fill);
    memset(bar + fill, ' ', (size_t)(width - fill));
    bar[width] = '\0';
    if (p->unit)
      fprintf(stderr, "\r%s [%s] %3d%% %llu/%llu %s %.1f s ", p->label, bar, (int)(frac * 100),
              (unsigned long long)done, (unsigned long long)p->total, p->unit, secs);
    else
      fprintf(stderr, "\r%s [%s] %3d%% %.1f MiB %.1f MiB/s ", p->label, bar, (int)(frac * 100),
              mb, secs > 0 ? mb / secs : 0.0);
  } else if (p->unit) {
    fprintf(stderr, "\r%s %llu %s %.1f s ", p->label, (unsigned long long)done, p->unit, secs);
  } else {
    fprintf(stderr, "\r%s %.1f MiB %.1f MiB/s ", p->label, mb, secs > 0 ? mb / secs : 0.0);
  }
  fflush(stderr);
}

static void *spin_main(void *arg) {
  static const char frames[] = "|/-\\";
  struct fo__spinner *s = arg;
  unsigned i = 0;
  pthread_mutex_lock(&s->mu);
  do { /* at least one frame, so that even a short phase shows (and a test can see it) */
    struct timespec until;
    fprintf(stderr, "\r%s %c %.1f s ", s->label, frames[i++ % 4],
            (double)(fo__now_ns() - s->start_ns) / 1e9);
    fflush(stderr);
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_nsec += 100000000;
    if (until.tv_nsec >= 1000000000) {
      until.tv_sec++;
      until.tv_nsec -= 1000000000;
    }
    while (!s->stop && pthread_cond_timedwait(&s->cv, &s->mu, &until) == 0) {
    }
  } while (!s->stop);
  pthread_mutex_unlock(&s->mu);
  return NULL;
}

void fo__progress_spin(fo__progress *p, bool enabled, const char *label) {
  struct fo__spinner *s;
  start(p, enabled, label, 0, NULL);
  if (!p->active || !(s = calloc(1, sizeof *s))) return;
  s->label = label;
  s->start_ns = p->start_ns;
  pthread_mutex_init(&s->mu, NULL);
  pthread_cond_init(&s->cv, NULL);
  if (pthread_create(&s->thread, NULL, spin_main, s) != 0) {
    pthread_cond_destroy(&s->cv);
    pthread_mutex_destroy(&s->mu);
    free(s);
    return;
  }
  p->spin = s;
}

void fo__progress_end(fo__progress *p) {
  if (p->spin) {
    struct fo__spinner *s = p->spin;
    pthread_mutex_lock(&s->mu);
    s->stop = true;
    pthread_cond_signal(&s->cv);
    pthread_mutex_unlock(&s->mu);
    pthread_join(s->thread, NULL);
    pthread_cond_destroy(&s->cv);
    pthread_mutex_destroy(&s->mu);
    free(s);
    p->spin = NULL;
  }
  if (!p->active) return;
  fprintf(stderr, "\r\033[K");
  fflush(stderr);
  p->active = false;
}
