/*
 * dist/mpi.c: the MPI transport (built with FO_WITH_MPI): the same requests as the in-process
 * transport (local.c), sent to the group peer on the owning machine and answered there by a
 * server thread.
 *
 * Communicators (all made from the caller's, never MPI_COMM_WORLD, all MPI_ERRORS_RETURN):
 *   world  MPI_Comm_dup of the caller's: start-up checks, ABORT notices, the final barrier;
 *   group  MPI_Comm_split(world, color = local rank, key = machine): worker group i, in which
 *          rank m is the process of local rank i on machine m; requests travel on it;
 *   resp   MPI_Comm_dup(group): answers, so that the server's "any source, any tag" probe on
 *          `group` can never take an answer meant for one of the process's callers.
 *
 * Threads. Every process runs one server thread from fo_dist_init_mpi to fo_dist_finalize. It
 * polls (MPI_Improbe, sleeping 20 us doubling to 1 ms while idle, so that an oversubscribed
 * host is not eaten by spinning progress loops) for ABORT notices on `world` and, once
 * fo_dist_open_dataset has handed it the dataset, for requests on `group`, which it answers
 * one at a time with fo__server (an ERROR message when a request fails). Answers are sent with
 * MPI_Isend and never waited for: a slow, stopped or departed caller cannot hold up the
 * server's other callers (unfinished answers are checked every round and given up after the
 * deadline). Requests that arrive
 * before the dataset is open stay queued in MPI and are answered once it is (start-up skew is
 * not an error; only the caller's deadline bounds it). Any number of caller threads (loader
 * workers) may exchange at once: each call gets its own tag from an atomic counter (1 ..
 * MPI_TAG_UB, wrapping), the server answers with the request's tag, and the caller takes the
 * answer with MPI_Improbe(source = machine, tag) on `resp`: answers are matched by tag, never by
 * order.
 *
 * Deadlines. MPI has no timed wait: exchange() posts every request (MPI_Isend), then polls
 * (MPI_Improbe, MPI_Test; 20 us growing by half to 5 ms) until every answer is in, the context
 * fails (a notice from another process), or the deadline passes: then it fails with FO_EMPI
 * "machine M (local rank L) did not answer <kind> request within D s". Sends that may still
 * read their buffers are kept (with their buffers) until fini. The final barrier is an
 * MPI_Ibarrier polled the same way.
 *
 * Abort path. The first failure of a context (fo__dist_fail: a deadline, a malformed or ERROR
 * answer, a failed barrier) calls mpi_failed, which sends an ABORT notice (status and message)
 * to every other process of `world`. Their server threads record it as their context's failure,
 * so their pending calls (which poll the failure state) and later calls fail with the same
 * message; the program then exits non-zero (the CLI prints and calls MPI_Abort). A failed
 * context never frees its communicators (see mpi_fini), so that nothing late of it can reach a
 * context made afterwards in the same processes.
 */
#include "dist/dist_internal.h"

#include <mpi.h>
#include <time.h>

/* Tags of the control messages on `world` (nothing else is sent point-to-point there). */
enum { TAG_ABORT = 1 };

/* The largest message (in 8-byte words, 4 GiB) either side sends or accepts. */
#define MAX_MSG_WORDS ((int64_t)1 << 29)
/* The largest ABORT notice: an int64 status, then the message text (no NUL). */
#define ABORT_MAX_BYTES 1100

#define CALL_NAP_MIN_NS 20000L
#define CALL_NAP_MAX_NS 5000000L
#define SERVE_NAP_MIN_NS 20000L
#define SERVE_NAP_MAX_NS 1000000L

/* A send that may still read its buffer: both are released at fini once it is complete. */
typedef struct orphan {
  MPI_Request req;
  void *buf;
} orphan;

typedef struct mpi_impl {
  MPI_Comm world, group, resp;
  int tag_span;                 /* call tags are 1 .. tag_span */
  unsigned next_tag;            /* __atomic */
  int stop;                     /* __atomic: the server thread returns */
  int closing;                  /* __atomic: fo_dist_finalize has begun (its barrier) */
  pthread_t thread;
  bool thread_started;
  pthread_mutex_t mu;           /* serving, orphans, abort_* */
  const fo_dataset_t *serving;  /* set by mpi_serve */
  orphan *orphans;
  int n_orphans, cap_orphans;
  char *abort_buf;              /* the notice sent by mpi_failed */
  MPI_Request *abort_reqs;
  int n_abort_reqs;
  bool pending_collective;      /* an Ibarrier never completed: leave the communicators alone */
} mpi_impl;

/* FO_EMPI with "<what>: <MPI_Error_string>". */
static int mpi_error(int err, const char *fmt, ...) FO_PRINTF(2, 3);
static int mpi_error(int err, const char *fmt, ...) {
  char what[512], text[MPI_MAX_ERROR_STRING + 1];
  int len = 0;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(what, sizeof what, fmt, ap);
  va_end(ap);
  if (MPI_Error_string(err, text, &len) != MPI_SUCCESS || len < 0 || len > MPI_MAX_ERROR_STRING)
    snprintf(text, sizeof text, "MPI error %d", err);
  else
    text[len] = '\0';
  return FO_FAIL(FO_EMPI, "%s: %s", what, text);
}

static void nap(long *ns, long max_ns, int num, int den) {
  struct timespec ts = {*ns / 1000000000L, *ns % 1000000000L};
  nanosleep(&ts, NULL);
  *ns = *ns * num / den;
  if (*ns > max_ns) *ns = max_ns;
}

static uint64_t deadline_ns(const fo_dist_t *dd) {
  double ns = dd->deadline_s * 1e9;
  return fo__now_ns() + (ns > 1e18 ? (uint64_t)1e18 : (uint64_t)ns);
}

/* "hop", "fetch" or "?" from a request's header (without touching this thread's message). */
static const char *kind_name(const fo__buf *b) {
  uint64_t h = b->n >= 2 ? (uint64_t)b->w[0] : 0;
  if ((h & 0xffffffffu) != FO_MSG_MAGIC) return "?";
  return h >> 32 == FO_MSG_HOP ? "hop" : h >> 32 == FO_MSG_FETCH ? "fetch" : "?";
}

/* The status and message of the context's failure, as this thread's error. */
static int failure(fo_dist_t *dd, const char *msg) {
  return fo_set_error(dd->fail_rc < 0 ? dd->fail_rc : FO_EMPI, msg);
}

/* Record a failure reported by another process (no notice is sent on: it already was). */
static void fail_quietly(fo_dist_t *dd, int rc, const char *msg) {
  pthread_mutex_lock(&dd->mu);
  if (!dd->failed) {
    size_t len = strnlen(msg, sizeof dd->fail_msg - 1);
    dd->failed = true;
    dd->fail_rc = rc;
    memcpy(dd->fail_msg, msg, len);
    dd->fail_msg[len] = '\0';
  }
  pthread_mutex_unlock(&dd->mu);
}

/* Keep `buf` for the incomplete send `req` (see orphan). */
static void orphan_add(mpi_impl *mi, MPI_Request req, void *buf) {
  pthread_mutex_lock(&mi->mu);
  if (mi->n_orphans == mi->cap_orphans) {
    int cap = mi->cap_orphans ? 2 * mi->cap_orphans : 16;
    orphan *no = realloc(mi->orphans, (size_t)cap * sizeof *no);
    if (!no) { /* cannot track it: let MPI finish it, and never free the buffer */
      pthread_mutex_unlock(&mi->mu);
      MPI_Request_free(&req);
      return;
    }
    mi->orphans = no;
    mi->cap_orphans = cap;
  }
  mi->orphans[mi->n_orphans].req = req;
  mi->orphans[mi->n_orphans].buf = buf;
  mi->n_orphans++;
  pthread_mutex_unlock(&mi->mu);
}

/* Receive the message `m` of `count` words into *buf (grown; capacity *cap bytes); a message
 * that is too large or not whole words is received into nothing (MPI_ERR_TRUNCATE, ignored)
 * and refused. */
static int receive(MPI_Message *m, int count, void **buf, size_t *cap, const char *what) {
  int err;
  if (count == MPI_UNDEFINED || count < 0 || count > MAX_MSG_WORDS) {
    int64_t sink;
    (void)MPI_Mrecv(&sink, 0, MPI_INT64_T, m, MPI_STATUS_IGNORE);
    if (count == MPI_UNDEFINED) return FO_FAIL(FO_EFORMAT, "%s is not made of 8-byte words", what);
    return FO_FAIL(FO_EFORMAT, "%s has %lld bytes, more than the limit of %lld", what,
                   (long long)count * 8, (long long)MAX_MSG_WORDS * 8);
  }
  if ((size_t)count * 8 > *cap) {
    void *nb = realloc(*buf, (size_t)count * 8);
    if (!nb) {
      int64_t sink;
      (void)MPI_Mrecv(&sink, 0, MPI_INT64_T, m, MPI_STATUS_IGNORE);
      return FO_FAIL(FO_ENOMEM, "%s of %lld bytes", what, (long long)count * 8);
    }
    *buf = nb;
    *cap = (size_t)count * 8;
  }
  if ((err = MPI_Mrecv(*buf, count, MPI_INT64_T, m, MPI_STATUS_IGNORE)) != MPI_SUCCESS)
    return mpi_error(err, "receive %s", what);
  return FO_OK;
}

/* ---- callers -------------------------------------------------------------------------------- */

typedef struct pending {
  MPI_Request send;
  int tag;
  bool answered;
} pending;

/* Take the answer to call c (tag `tag`) if it has come: 1 taken, 0 not yet, < 0 an error. */
static int take_answer(fo_dist_t *dd, fo__call *c, int tag) {
  mpi_impl *mi = dd->impl;
  MPI_Message m;
  MPI_Status st;
  int flag = 0, count = 0, err, rc;
  char what[96];
  if ((err = MPI_Improbe(c->machine, tag, mi->resp, &flag, &m, &st)) != MPI_SUCCESS)
    return mpi_error(err, "wait for the answer of machine %d", (int)c->machine);
  if (!flag) return 0;
  if ((err = MPI_Get_count(&st, MPI_INT64_T, &count)) != MPI_SUCCESS) {
    int64_t sink;
    (void)MPI_Mrecv(&sink, 0, MPI_INT64_T, &m, MPI_STATUS_IGNORE);
    return mpi_error(err, "answer of machine %d", (int)c->machine);
  }
  snprintf(what, sizeof what, "the %s answer of machine %d (local rank %d)", kind_name(&c->req),
           (int)c->machine, (int)dd->local_rank);
  if ((rc = receive(&m, count, &c->resp, &c->resp_cap, what)) != FO_OK) return rc;
  c->resp_len = (size_t)count * 8;
  return 1;
}

static int mpi_exchange(fo_dist_t *dd, fo__call *calls, int n) {
  mpi_impl *mi = dd->impl;
  pending stack[8], *p = stack;
  const char *msg;
  uint64_t limit;
  long ns = CALL_NAP_MIN_NS;
  int rc = FO_OK, err, i;
  if (n <= 0) return FO_OK;
  if (n > 8 && !(p = calloc((size_t)n, sizeof *p))) return FO_FAIL(FO_ENOMEM, "exchange of %d calls", n);
  for (i = 0; i < n; i++) {
    p[i].send = MPI_REQUEST_NULL;
    p[i].answered = false;
  }
  /* every request goes out before any answer is awaited */
  for (i = 0; i < n; i++) {
    fo__call *c = &calls[i];
    unsigned t;
    if (c->machine < 0 || c->machine >= dd->n_machines) {
      rc = FO_FAIL(FO_EINVAL, "request to machine %d of %d", (int)c->machine, (int)dd->n_machines);
      goto abandon;
    }
    if (c->req.n < 2 || c->req.n > MAX_MSG_WORDS) {
      rc = FO_FAIL(FO_ERANGE, "a %s request of %lld bytes to machine %d is not within the MPI "
                   "transport's limit of %lld bytes: use smaller batches", kind_name(&c->req),
                   (long long)c->req.n * 8, (int)c->machine, (long long)MAX_MSG_WORDS * 8);
      goto abandon;
    }
    t = __atomic_fetch_add(&mi->next_tag, 1u, __ATOMIC_RELAXED);
    p[i].tag = 1 + (int)(t % (unsigned)mi->tag_span);
    c->resp_len = 0;
    if ((err = MPI_Isend(c->req.w, (int)c->req.n, MPI_INT64_T, c->machine, p[i].tag, mi->group,
                         &p[i].send)) != MPI_SUCCESS) {
      p[i].send = MPI_REQUEST_NULL;
      rc = mpi_error(err, "send a %s request to machine %d (local rank %d)", kind_name(&c->req),
                     (int)c->machine, (int)dd->local_rank);
      goto abandon;
    }
  }
  limit = deadline_ns(dd);
  for (;;) {
    int left = 0;
    for (i = 0; i < n; i++) {
      int flag = 1;
      if (!p[i].answered) {
        int r = take_answer(dd, &calls[i], p[i].tag);
        if (r < 0) {
          rc = r;
          goto abandon;
        }
        p[i].answered = r == 1;
      }
      if (p[i].send != MPI_REQUEST_NULL &&
          (err = MPI_Test(&p[i].send, &flag, MPI_STATUS_IGNORE)) != MPI_SUCCESS) {
        rc = mpi_error(err, "send a %s request to machine %d", kind_name(&calls[i].req),
                       (int)calls[i].machine);
        goto abandon;
      }
      left += !p[i].answered || !flag;
    }
    if (!left) break;
    if (fo_dist_failed(dd, &msg)) {
      rc = failure(dd, msg);
      goto abandon;
    }
    if (fo__now_ns() >= limit) {
      for (i = 0; i < n && p[i].answered; i++) {}
      if (i == n) i = 0;
      rc = FO_FAIL(FO_EMPI, "machine %d (local rank %d) did not answer %s request within %g s",
                   (int)calls[i].machine, (int)dd->local_rank, kind_name(&calls[i].req),
                   dd->deadline_s);
      goto abandon;
    }
    nap(&ns, CALL_NAP_MAX_NS, 3, 2);
  }
  if (p != stack) free(p);
  return FO_OK;
abandon:
  for (i = 0; i < n; i++)
    if (p[i].send != MPI_REQUEST_NULL) {
      orphan_add(mi, p[i].send, calls[i].req.w);
      memset(&calls[i].req, 0, sizeof calls[i].req);
    }
  if (p != stack) free(p);
  return rc;
}

/* ---- the server thread ---------------------------------------------------------------------- */

/* An answer on its way: the server never waits for one (its caller may be slow, stopped or
 * gone), it checks them on every round and recycles their buffers. */
typedef struct answer {
  MPI_Request req;
  fo__buf buf;
  uint64_t limit_ns; /* given up (kept as an orphan) after the deadline */
} answer;

typedef struct serve_state {
  fo__server sv;
  bool ready;           /* sv is initialized */
  int init_rc;          /* why it could not be (answered to every request) */
  char init_msg[1024];
  void *in;             /* the request being answered */
  size_t in_cap;
  fo__buf err;          /* an ERROR answer made here */
  answer *out;          /* answers in flight */
  int n_out, cap_out;
  fo__buf spare[4];     /* buffers of finished answers, for the next ones */
  int n_spare;
} serve_state;

/* An ABORT notice, if one has come: 1 handled, 0 none, < 0 an MPI error. */
static int serve_control(fo_dist_t *dd, mpi_impl *mi) {
  MPI_Message m;
  MPI_Status st;
  int64_t w[(ABORT_MAX_BYTES + 7) / 8 + 1];
  char text[ABORT_MAX_BYTES + 64];
  int flag = 0, count = 0, err;
  if ((err = MPI_Improbe(MPI_ANY_SOURCE, MPI_ANY_TAG, mi->world, &flag, &m, &st)) != MPI_SUCCESS)
    return mpi_error(err, "server of machine %d: probe for notices", (int)dd->machine);
  if (!flag) return 0;
  if (MPI_Get_count(&st, MPI_BYTE, &count) != MPI_SUCCESS || count == MPI_UNDEFINED ||
      count > ABORT_MAX_BYTES)
    count = -1;
  err = MPI_Mrecv(w, count < 0 ? 0 : count, MPI_BYTE, &m, MPI_STATUS_IGNORE);
  if (st.MPI_TAG != TAG_ABORT) return 1; /* nothing else is sent here */
  if (err != MPI_SUCCESS || count < 8) {
    snprintf(text, sizeof text, "rank %d stopped the job (its notice was unreadable)", st.MPI_SOURCE);
    fail_quietly(dd, FO_EMPI, text);
  } else {
    int rc = w[0] < 0 && w[0] >= FO_EINTERNAL ? (int)w[0] : FO_EMPI;
    snprintf(text, sizeof text, "%.*s", count - 8, (const char *)(w + 1));
    fail_quietly(dd, rc, text);
  }
  return 1;
}

/* Check the answers in flight: finished ones give back their buffer; ones past the deadline, or
 * all of them when `all` (the thread ends), are kept as orphans. < 0: an MPI error. */
static int progress_answers(fo_dist_t *dd, mpi_impl *mi, serve_state *s, bool all) {
  uint64_t now = s->n_out ? fo__now_ns() : 0;
  int k = 0;
  for (int i = 0; i < s->n_out; i++) {
    answer *a = &s->out[i];
    int flag = 0, err = MPI_Test(&a->req, &flag, MPI_STATUS_IGNORE);
    if (err != MPI_SUCCESS) return mpi_error(err, "server of machine %d: send an answer", (int)dd->machine);
    if (flag) {
      if (s->n_spare < 4) s->spare[s->n_spare++] = a->buf;
      else fo__buf_free(&a->buf);
    } else if (all || now >= a->limit_ns) {
      orphan_add(mi, a->req, a->buf.w);
    } else {
      s->out[k++] = *a;
    }
  }
  s->n_out = k;
  return FO_OK;
}

/* Send *b to (source, tag) on `resp` without waiting; *b gets a spare buffer (or none). */
static int send_answer(fo_dist_t *dd, mpi_impl *mi, serve_state *s, fo__buf *b, int source,
                       int tag) {
  answer *a;
  int err;
  if (s->n_out == s->cap_out) {
    int cap = s->cap_out ? 2 * s->cap_out : 8;
    answer *na = realloc(s->out, (size_t)cap * sizeof *na);
    if (!na) return FO_OK; /* no memory to track it: this one is not answered (its caller times out) */
    s->out = na;
    s->cap_out = cap;
  }
  a = &s->out[s->n_out];
  if ((err = MPI_Isend(b->w, (int)b->n, MPI_INT64_T, source, tag, mi->resp, &a->req)) != MPI_SUCCESS)
    return mpi_error(err, "server of machine %d: answer machine %d", (int)dd->machine, source);
  a->buf = *b;
  a->limit_ns = deadline_ns(dd);
  s->n_out++;
  if (s->n_spare) {
    *b = s->spare[--s->n_spare];
  } else {
    memset(b, 0, sizeof *b);
  }
  return FO_OK;
}

/* Answer one request, if one has come: 1 answered, 0 none, < 0 an MPI error. */
static int serve_request(fo_dist_t *dd, mpi_impl *mi, serve_state *s) {
  MPI_Message m;
  MPI_Status st;
  fo__buf *out = &s->err;
  int flag = 0, count = 0, err, rc;
  char what[64];
  if ((err = MPI_Improbe(MPI_ANY_SOURCE, MPI_ANY_TAG, mi->group, &flag, &m, &st)) != MPI_SUCCESS)
    return mpi_error(err, "server of machine %d: probe for requests", (int)dd->machine);
  if (!flag) return 0;
  if ((err = MPI_Get_count(&st, MPI_INT64_T, &count)) != MPI_SUCCESS) count = MPI_UNDEFINED;
  snprintf(what, sizeof what, "a request from machine %d", st.MPI_SOURCE);
  rc = receive(&m, count, &s->in, &s->in_cap, what);
  if (rc == FO_OK && s->ready) {
    rc = fo__server_answer(&s->sv, s->in, (size_t)count * 8);
    if (rc == FO_OK) out = &s->sv.out;
  } else if (rc == FO_OK) {
    rc = fo_set_error(s->init_rc, s->init_msg);
  }
  if (out == &s->err) {
    char text[1100];
    snprintf(text, sizeof text, "machine %d (local rank %d): %s", (int)dd->machine,
             (int)dd->local_rank, fo_last_error());
    if (fo__enc_error(&s->err, rc, text) != FO_OK) return 1; /* no memory: the caller times out */
  }
  pthread_mutex_lock(&dd->mu);
  dd->stats.served++;
  pthread_mutex_unlock(&dd->mu);
  if ((rc = send_answer(dd, mi, s, out, st.MPI_SOURCE, st.MPI_TAG)) != FO_OK) return rc;
  return 1;
}

static void *serve_main(void *arg) {
  fo_dist_t *dd = arg;
  mpi_impl *mi = dd->impl;
  serve_state s;
  long ns = SERVE_NAP_MIN_NS;
  memset(&s, 0, sizeof s);
  while (!__atomic_load_n(&mi->stop, __ATOMIC_ACQUIRE)) {
    const fo_dataset_t *d;
    int busy = serve_control(dd, mi);
    if (busy < 0 || progress_answers(dd, mi, &s, false) != FO_OK) goto broken;
    pthread_mutex_lock(&mi->mu);
    d = mi->serving;
    pthread_mutex_unlock(&mi->mu);
    /* until the part is open requests wait in MPI's queue; a process that reaches finalize
     * without one never will serve: it answers them with an ERROR from then on */
    if (!d && !s.init_rc && __atomic_load_n(&mi->closing, __ATOMIC_ACQUIRE)) {
      s.init_rc = FO_EINVAL;
      snprintf(s.init_msg, sizeof s.init_msg, "reached fo_dist_finalize without opening its "
               "part (fo_dist_open_dataset)");
    }
    if (d || s.init_rc) {
      int r;
      if (!s.ready && !s.init_rc) {
        int rc = fo__server_init(&s.sv, d, dd->machine);
        if (rc == FO_OK) {
          s.ready = true;
        } else {
          s.init_rc = rc;
          snprintf(s.init_msg, sizeof s.init_msg, "cannot serve part %d: %s", (int)dd->machine,
                   fo_last_error());
        }
      }
      if ((r = serve_request(dd, mi, &s)) < 0) goto broken;
      busy |= r;
    }
    if (busy) ns = SERVE_NAP_MIN_NS;
    else nap(&ns, SERVE_NAP_MAX_NS, 2, 1);
  }
  goto out;
broken: /* MPI itself failed here: nobody can be answered any more */
  fo__dist_fail(dd, FO_EMPI);
out:
  (void)progress_answers(dd, mi, &s, true);
  free(s.out);
  for (int i = 0; i < s.n_spare; i++) fo__buf_free(&s.spare[i]);
  if (s.ready) fo__server_fini(&s.sv);
  free(s.in);
  fo__buf_free(&s.err);
  return NULL;
}

/* ---- transport operations -------------------------------------------------------------------- */

static void mpi_serve(fo_dist_t *dd) {
  mpi_impl *mi = dd->impl;
  pthread_mutex_lock(&mi->mu);
  mi->serving = dd->d;
  pthread_mutex_unlock(&mi->mu);
}

/* The context's first failure: an ABORT notice to every other process (once). */
static void mpi_failed(fo_dist_t *dd) {
  mpi_impl *mi = dd->impl;
  int me = 0, size = 0, k = 0;
  size_t len;
  int64_t status;
  if (!mi) return;
  MPI_Comm_rank(mi->world, &me);
  MPI_Comm_size(mi->world, &size);
  pthread_mutex_lock(&mi->mu);
  if (mi->abort_buf || size < 2) {
    pthread_mutex_unlock(&mi->mu);
    return;
  }
  len = strnlen(dd->fail_msg, ABORT_MAX_BYTES - 8);
  mi->abort_buf = malloc(8 + len);
  mi->abort_reqs = malloc((size_t)size * sizeof *mi->abort_reqs);
  if (!mi->abort_buf || !mi->abort_reqs) {
    free(mi->abort_reqs);
    mi->abort_reqs = NULL; /* abort_buf (if any) marks the notice as done: it cannot be sent */
    pthread_mutex_unlock(&mi->mu);
    return;
  }
  status = dd->fail_rc < 0 ? dd->fail_rc : FO_EMPI;
  memcpy(mi->abort_buf, &status, 8);
  memcpy(mi->abort_buf + 8, dd->fail_msg, len);
  for (int r = 0; r < size; r++)
    if (r != me && MPI_Isend(mi->abort_buf, (int)(8 + len), MPI_BYTE, r, TAG_ABORT, mi->world,
                             &mi->abort_reqs[k]) == MPI_SUCCESS)
      k++;
  mi->n_abort_reqs = k;
  pthread_mutex_unlock(&mi->mu);
}

static int mpi_barrier(fo_dist_t *dd) {
  mpi_impl *mi = dd->impl;
  MPI_Request req;
  const char *msg;
  uint64_t limit;
  long ns = CALL_NAP_MIN_NS;
  int err;
  /* (fo_dist_finalize calls this only when the context has not failed) */
  __atomic_store_n(&mi->closing, 1, __ATOMIC_RELEASE);
  if ((err = MPI_Ibarrier(mi->world, &req)) != MPI_SUCCESS)
    return fo__dist_fail(dd, mpi_error(err, "final barrier"));
  limit = deadline_ns(dd);
  for (;;) {
    int flag = 0;
    if ((err = MPI_Test(&req, &flag, MPI_STATUS_IGNORE)) != MPI_SUCCESS) {
      mi->pending_collective = true;
      return fo__dist_fail(dd, mpi_error(err, "final barrier"));
    }
    if (flag) return FO_OK;
    if (fo_dist_failed(dd, &msg)) {
      mi->pending_collective = true;
      return failure(dd, msg);
    }
    if (fo__now_ns() >= limit) {
      mi->pending_collective = true;
      return fo__dist_fail(dd, FO_FAIL(FO_EMPI, "final barrier: not every process reached "
                                       "fo_dist_finalize within %g s", dd->deadline_s));
    }
    nap(&ns, CALL_NAP_MAX_NS, 3, 2);
  }
}

/* Release a finished send's buffer; an unfinished one's request is freed and its buffer kept
 * (MPI may still read it; this happens only after a failure, when the job is stopping). */
static void settle(MPI_Request *req, void *buf) {
  int flag = 0;
  if (*req == MPI_REQUEST_NULL || (MPI_Test(req, &flag, MPI_STATUS_IGNORE) == MPI_SUCCESS && flag)) {
    free(buf);
  } else {
    (void)MPI_Request_free(req);
  }
}

static void mpi_fini(fo_dist_t *dd) {
  mpi_impl *mi = dd->impl;
  bool abort_done = true;
  if (!mi) return;
  if (mi->thread_started) {
    __atomic_store_n(&mi->stop, 1, __ATOMIC_RELEASE);
    pthread_join(mi->thread, NULL);
  }
  for (int i = 0; i < mi->n_abort_reqs; i++) {
    int flag = 0;
    if (MPI_Test(&mi->abort_reqs[i], &flag, MPI_STATUS_IGNORE) != MPI_SUCCESS || !flag) {
      (void)MPI_Request_free(&mi->abort_reqs[i]);
      abort_done = false;
    }
  }
  if (abort_done) free(mi->abort_buf);
  free(mi->abort_reqs);
  for (int i = 0; i < mi->n_orphans; i++) settle(&mi->orphans[i].req, mi->orphans[i].buf);
  free(mi->orphans);
  /* A failed context keeps its communicators: late messages of the failure (ABORT notices,
   * abandoned requests and answers) may still be on their way, and a freed communicator's id
   * could be given to the next one this process makes (MPI agrees on an id free everywhere;
   * one kept here is not), which would then receive them. */
  if (!mi->pending_collective && !fo_dist_failed(dd, NULL)) {
    if (mi->resp != MPI_COMM_NULL) MPI_Comm_free(&mi->resp);
    if (mi->group != MPI_COMM_NULL) MPI_Comm_free(&mi->group);
    if (mi->world != MPI_COMM_NULL) MPI_Comm_free(&mi->world);
  }
  pthread_mutex_destroy(&mi->mu);
  free(mi);
  dd->impl = NULL;
}

static const fo__transport_ops mpi_ops = {mpi_exchange, mpi_barrier, mpi_fini, mpi_serve,
                                          mpi_failed};

/* ---- start-up ----------------------------------------------------------------------------------- */

static const char *level_name(int level) {
  return level == MPI_THREAD_SINGLE       ? "MPI_THREAD_SINGLE"
         : level == MPI_THREAD_FUNNELED   ? "MPI_THREAD_FUNNELED"
         : level == MPI_THREAD_SERIALIZED ? "MPI_THREAD_SERIALIZED"
         : level == MPI_THREAD_MULTIPLE   ? "MPI_THREAD_MULTIPLE"
                                          : "unknown";
}

/* Element-wise max of v[0..n) over `comm`. */
static int allmax(MPI_Comm comm, int *v, int n) {
  int err = MPI_Allreduce(MPI_IN_PLACE, v, n, MPI_INT, MPI_MAX, comm);
  return err == MPI_SUCCESS ? FO_OK : mpi_error(err, "dist init: MPI_Allreduce");
}

/* Machine rank, number of machines, local rank and size from the shared-memory domains
 * (MPI_Comm_split_type): machines are numbered in the order of their lowest rank. */
static int find_machines(MPI_Comm world, int rank, int32_t *machine, int32_t *n_machines,
                         int32_t *local_rank, int32_t *local_size) {
  MPI_Comm node = MPI_COMM_NULL;
  int lr = 0, ls = 0, leader, before = 0, total = 0, m, err;
  if ((err = MPI_Comm_split_type(world, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node)) !=
      MPI_SUCCESS)
    return mpi_error(err, "dist init: MPI_Comm_split_type");
  MPI_Comm_set_errhandler(node, MPI_ERRORS_RETURN);
  if ((err = MPI_Comm_rank(node, &lr)) != MPI_SUCCESS || (err = MPI_Comm_size(node, &ls)) != MPI_SUCCESS)
    goto fail;
  leader = lr == 0;
  /* a machine's number: how many machines have their lowest rank below its own */
  if ((err = MPI_Exscan(&leader, &before, 1, MPI_INT, MPI_SUM, world)) != MPI_SUCCESS) goto fail;
  if (rank == 0) before = 0; /* MPI_Exscan leaves rank 0's result undefined */
  if ((err = MPI_Allreduce(&leader, &total, 1, MPI_INT, MPI_SUM, world)) != MPI_SUCCESS) goto fail;
  m = before;
  if ((err = MPI_Bcast(&m, 1, MPI_INT, 0, node)) != MPI_SUCCESS) goto fail;
  MPI_Comm_free(&node);
  *machine = m;
  *n_machines = total;
  *local_rank = lr;
  *local_size = ls;
  return FO_OK;
fail:
  MPI_Comm_free(&node);
  return mpi_error(err, "dist init: finding the machines");
}

int fo_dist_init_mpi(const void *comm, const fo_dist_opts *o, fo_dist_t **out) {
  fo_dist_opts defaults;
  fo_dist_t *dd = NULL;
  mpi_impl *mi = NULL;
  int initialized = 0, finalized = 0, level = MPI_THREAD_SINGLE, rank = 0, size = 0, err, rc;
  int v[4], grank = -1, gsize = -1, flag = 0, local_rc = FO_OK;
  int32_t P, machine = 0, n_machines = 1, local_rank = 0, local_size = 1;
  void *ub = NULL;
  if (out) *out = NULL;
  if (!out || !comm) return FO_FAIL(FO_EINVAL, "dist init: comm or out is NULL");
  if (!o) {
    fo_dist_opts_init(&defaults);
    o = &defaults;
  }
  if (MPI_Initialized(&initialized) != MPI_SUCCESS || !initialized ||
      MPI_Finalized(&finalized) != MPI_SUCCESS || finalized)
    return FO_FAIL(FO_EINVAL, "dist init: MPI is not initialized (MPI_Init_thread with "
                   "MPI_THREAD_MULTIPLE comes first)");
  P = o->procs_per_machine;
  if (P < 0) return FO_FAIL(FO_EINVAL, "dist init: procs_per_machine %d is negative", (int)P);
  if ((rc = fo__dist_new(&dd, o)) != FO_OK) return fo__context(rc, "dist init");
  if (!(mi = calloc(1, sizeof *mi))) {
    fo__dist_free(dd);
    return FO_FAIL(FO_ENOMEM, "dist init");
  }
  mi->world = mi->group = mi->resp = MPI_COMM_NULL;
  pthread_mutex_init(&mi->mu, NULL);
  dd->impl = mi;

  /* 1. our communicator, and what every process must agree on */
  if ((err = MPI_Comm_dup(*(const MPI_Comm *)comm, &mi->world)) != MPI_SUCCESS) {
    mi->world = MPI_COMM_NULL;
    rc = mpi_error(err, "dist init: MPI_Comm_dup");
    goto fail;
  }
  MPI_Comm_set_errhandler(mi->world, MPI_ERRORS_RETURN);
  MPI_Comm_rank(mi->world, &rank);
  MPI_Comm_size(mi->world, &size);
  MPI_Query_thread(&level);
  v[0] = level < MPI_THREAD_MULTIPLE ? rank + 1 : 0; /* the last such rank */
  v[1] = P;
  v[2] = -P;
  if ((rc = allmax(mi->world, v, 3)) != FO_OK) goto fail;
  if (v[0]) {
    if (level < MPI_THREAD_MULTIPLE)
      rc = FO_FAIL(FO_EINVAL, "dist init: MPI must be initialized with MPI_THREAD_MULTIPLE on "
                   "every process (MPI_Init_thread); this one has %s", level_name(level));
    else
      rc = FO_FAIL(FO_EINVAL, "dist init: MPI must be initialized with MPI_THREAD_MULTIPLE on "
                   "every process (MPI_Init_thread); rank %d has a lower level", v[0] - 1);
    goto fail;
  }
  if (v[1] != -v[2]) {
    rc = FO_FAIL(FO_EINVAL, "dist init: procs_per_machine differs between processes (%d to %d)",
                 -v[2], v[1]);
    goto fail;
  }
  if (P > 0 && size % P != 0) {
    rc = FO_FAIL(FO_EINVAL, "dist init: procs_per_machine %d does not divide the number of "
                 "processes %d", (int)P, size);
    goto fail;
  }

  /* 2. machines: rank / P, or the shared-memory domains */
  if (P > 0) {
    machine = rank / P;
    n_machines = size / P;
    local_rank = rank % P;
    local_size = P;
  } else if ((rc = find_machines(mi->world, rank, &machine, &n_machines, &local_rank,
                                 &local_size)) != FO_OK) {
    goto fail;
  }
  v[0] = local_size;
  v[1] = -local_size;
  v[2] = n_machines;
  v[3] = -n_machines;
  if ((rc = allmax(mi->world, v, 4)) != FO_OK) goto fail;
  if (v[0] != -v[1] || v[2] != -v[3] || (int64_t)v[0] * v[2] != size) {
    rc = FO_FAIL(FO_EINVAL, "dist init: the machines do not agree: %d to %d processes per "
                 "machine, %d to %d machines, %d processes in all (every machine needs the same "
                 "number of processes; set procs_per_machine)", -v[1], v[0], -v[3], v[2], size);
    goto fail;
  }

  /* 3. worker group = local rank: rank m in it is machine m; answers on a twin */
  if ((err = MPI_Comm_split(mi->world, local_rank, machine, &mi->group)) != MPI_SUCCESS) {
    mi->group = MPI_COMM_NULL;
    rc = mpi_error(err, "dist init: MPI_Comm_split");
    goto fail;
  }
  MPI_Comm_set_errhandler(mi->group, MPI_ERRORS_RETURN);
  if ((err = MPI_Comm_dup(mi->group, &mi->resp)) != MPI_SUCCESS) {
    mi->resp = MPI_COMM_NULL;
    rc = mpi_error(err, "dist init: MPI_Comm_dup");
    goto fail;
  }
  MPI_Comm_set_errhandler(mi->resp, MPI_ERRORS_RETURN);
  MPI_Comm_rank(mi->group, &grank);
  MPI_Comm_size(mi->group, &gsize);
  if (MPI_Comm_get_attr(mi->world, MPI_TAG_UB, &ub, &flag) != MPI_SUCCESS || !flag || !ub ||
      *(int *)ub < 32767)
    mi->tag_span = 32767;
  else
    mi->tag_span = *(int *)ub;
  dd->machine = machine;
  dd->n_machines = n_machines;
  dd->local_rank = local_rank;
  dd->local_size = local_size;
  dd->rank = rank;
  dd->size = size;
  dd->ops = &mpi_ops;

  /* 4. this process: the worker runtime, the server thread */
  if (o->init_worker) {
    fo_worker_opts w = o->worker;
    fo_worker_info info;
    w.machine_rank = machine;
    w.world_size = n_machines;
    w.local_rank = local_rank;
    w.local_world_size = local_size;
    local_rc = fo_worker_init(&w, &info);
    if (local_rc != FO_OK) local_rc = fo__context(local_rc, "dist init: worker runtime");
  }
  if (local_rc == FO_OK) {
    if (pthread_create(&mi->thread, NULL, serve_main, dd) != 0)
      local_rc = FO_FAIL(FO_ENOMEM, "dist init: cannot start the server thread");
    else
      mi->thread_started = true;
  }

  /* 5. all or none */
  v[0] = grank != machine || gsize != n_machines;
  v[1] = local_rc != FO_OK ? rank + 1 : 0;
  v[2] = local_rc != FO_OK ? -local_rc : 0;
  if ((rc = allmax(mi->world, v, 3)) != FO_OK) goto fail;
  if (v[0]) {
    rc = FO_FAIL(FO_EINVAL, "dist init: worker group %d does not hold one process of every "
                 "machine (rank %d of %d in it, machine %d of %d)", (int)local_rank, grank, gsize,
                 (int)machine, (int)n_machines);
    goto fail;
  }
  if (v[1]) {
    rc = local_rc != FO_OK ? local_rc
                           : FO_FAIL(-v[2], "dist init: rank %d could not start (its own message "
                                     "says why)", v[1] - 1);
    goto fail;
  }
  *out = dd;
  return FO_OK;
fail:
  dd->ops = NULL;
  mpi_fini(dd);
  fo__dist_free(dd);
  return rc;
}
