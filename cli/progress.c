/*
 * cli/progress.c: the progress line of `fanout bench` (the library draws its own for import,
 * partition and verify): epoch, a bar over the epoch's batches and the running sampled edges
 * per second, on stderr, only when stderr is a terminal, at most ten times a second, erased at
 * the end so that the report (text or --json, on stdout) is all that remains.
 */
#include "cli.h"

#include <string.h>
#include <unistd.h>

void cli_progress_start(cli_progress *p, bool enabled, const char *label) {
  memset(p, 0, sizeof *p);
  p->active = enabled && isatty(STDERR_FILENO);
  p->label = label;
  p->start_s = cli_now_s();
}

void cli_progress_batches(cli_progress *p, int64_t epoch, int64_t epochs, int64_t batch,
                          int64_t n_batches, int64_t edges) {
  double now, secs;
  if (!p->active) return;
  now = cli_now_s();
  if (now - p->last_s < 0.1) return;
  p->last_s = now;
  secs = now - p->start_s;
  fprintf(stderr, "\r%s epoch %lld/%lld", p->label, (long long)epoch + 1, (long long)epochs);
  if (n_batches > 0) {
    char bar[31];
    int width = 30, fill;
    double frac = (double)batch / (double)n_batches;
    if (frac > 1) frac = 1;
    fill = (int)(frac * width);
    memset(bar, '#', (size_t)fill);
    memset(bar + fill, ' ', (size_t)(width - fill));
    bar[width] = '\0';
    fprintf(stderr, " [%s] %lld/%lld batches", bar, (long long)batch, (long long)n_batches);
  } else {
    fprintf(stderr, " %lld batches", (long long)batch);
  }
  fprintf(stderr, " %.2f M edges/s ", secs > 0 ? (double)edges / secs / 1e6 : 0.0);
  fflush(stderr);
}

void cli_progress_end(cli_progress *p) {
  if (!p->active) return;
  fprintf(stderr, "\r\033[K");
  fflush(stderr);
  p->active = false;
}
