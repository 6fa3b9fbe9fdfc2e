/*
 * core/progress.c: a one-line progress bar on stderr for long imports, drawn only when stderr
 * is a terminal and at most ten times a second, erased at the end.
 */
#include "core/internal.h"

#include <unistd.h>

void fo__progress_start(fo__progress *p, bool enabled, const char *label, uint64_t total) {
  memset(p, 0, sizeof *p);
  p->active = enabled && isatty(STDERR_FILENO);
  p->label = label;
  p->total = total;
  p->start_ns = fo__now_ns();
}

void fo__progress_update(fo__progress *p, uint64_t done) {
  uint64_t now;
  double secs, mb;
  if (!p->active) return;
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
    fprintf(stderr, "\r%s [%s] %3d%% %.1f MiB %.1f MiB/s ", p->label, bar, (int)(frac * 100),
            mb, secs > 0 ? mb / secs : 0.0);
  } else {
    fprintf(stderr, "\r%s %.1f MiB %.1f MiB/s ", p->label, mb, secs > 0 ? mb / secs : 0.0);
  }
  fflush(stderr);
}

void fo__progress_end(fo__progress *p) {
  if (!p->active) return;
  fprintf(stderr, "\r\033[K");
  fflush(stderr);
  p->active = false;
}
