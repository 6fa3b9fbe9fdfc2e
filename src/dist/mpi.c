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
 *          `group` can never take an answer meant for one of the process's callers;
 *   same   MPI_Comm_dup(world): fo_dist_check_same's collectives, which then never meet the
 *          final barrier's (a process that finalizes while another checks options sends a
 *          CLOSING notice on `world` instead).
 *
 * Threads. Every process runs one server thread from fo_dist_init_mpi to fo_dist_finalize. It
 * polls (MPI_Improbe, sleeping 20 us doubling to 1 ms while idle, but at most a quarter of
 * the observed round trip and 1/1000 of the deadline, never under 10 us, so that an
 * oversubscribed host is not eaten by spinning progress loops) for ABORT notices on `world` and, once
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
 * Deadlines. MPI has no timed wait, and nothing here waits in a blocking MPI call: exchange()
 * posts every request (MPI_Isend), then polls (MPI_Improbe, then MPI_Imrecv of the probed
 * answer, MPI_Test; 20 us growing by half to 0.2 ms, at most 1/8 of the observed round trip
 * and 1/1000 of the deadline, never under 10 us) until every answer is in whole, the
 * context fails (a notice from another process), or the deadline passes: then it fails with
 * FO_EMPI "machine M (local rank L) did not answer <kind> request within D s" (a message over
 * ~64 KB comes in fragments: a peer that freezes mid-transfer is caught the same way). The
 * server receives requests the same way (one at a time; one that stalls mid-transfer fails
 * the context naming its sender). Sends and receives that may still use their buffers are kept
 * (with their buffers) until fini. The final barrier, every collective of start-up and
 * fo_dist_check_same are nonblocking collectives polled the same way (waiter, wait_collective);
 * a poll loop that finds it was not running for STALL_NS (SIGSTOP) extends its wait once, so
 * that a resumed process hears the others' notices before it blames anyone.
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
enum { TAG_ABORT = 1, TAG_CLOSING = 2 };

/* The largest message (in 8-byte words, 4 GiB) either side sends or accepts; a context's own
 * limit (fo_dist_opts.max_message_bytes) may be lower. 2^29 words keep MPI's int counts far
 * from INT_MAX. */
#define MAX_MSG_WORDS ((int64_t)1 << 29)
#define MIN_MSG_BYTES 4096
/* The largest ABORT notice: an int64 status, then the message text (no NUL). */
#define ABORT_MAX_BYTES 1100

/* Polling naps: callers and collectives grow from 20 us by half to CALL_NAP_MAX_NS, the idle
 * server doubles to SERVE_NAP_MAX_NS. Small caps keep a wait's latency a tiny fraction of any
 * deadline; the naps still leave an oversubscribed host's cores to the others. */
#define CALL_NAP_MIN_NS 20000L
#define CALL_NAP_MAX_NS 200000L
#define SERVE_NAP_MIN_NS 20000L
#define SERVE_NAP_MAX_NS 1000000L
/* Naps are also bounded by the observed round trip (exchange() keeps a moving average of how
 * long its calls take, answers included): a caller naps at most RTT / CALL_RTT_DIV, an idle
 * server at most RTT / SERVE_RTT_DIV, so that an answer is noticed within a small fraction of
 * the time it took; and every nap is at most 1/1000 of the wait's own deadline. Never below
 * NAP_FLOOR_NS (a host's cores stay with the processes that compute). */
#define CALL_RTT_DIV 8
#define SERVE_RTT_DIV 4
#define NAP_FLOOR_NS 10000L
/* A poll loop that did not run for this long was stopped (SIGSTOP, a suspended VM) or starved:
 * its deadline is then extended once by STALL_GRACE_NS (at most the deadline), so that a
 * resumed process first hears what happened (ABORT notices, answers that came meanwhile)
 * instead of blaming the peer it was waiting for. */
#define STALL_NS 250000000ULL
#define STALL_GRACE_NS 1000000000ULL

/* A send that may still read its buffer: both are released at fini once it is complete. */
typedef struct orphan {
  MPI_Request req;
  void *buf;
} orphan;

typedef struct mpi_impl {
  MPI_Comm world, group, resp;
  MPI_Comm same;                /* MPI_Comm_dup(world): fo_dist_check_same's collectives only, so
                                   that they never meet the final barrier's */
  int closing_from;             /* __atomic: 1 + the first rank that told it reached finalize */
  char *closing_buf;            /* the CLOSING notice this process sent, and its sends */
  MPI_Request *closing_reqs;
  int n_closing_reqs;
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
  bool pending_collective;      /* a collective never completed: leave the communicators alone */
  int64_t max_words;            /* largest message sent or accepted, in words */
  long rtt_ns;                  /* __atomic: moving average of exchange() times; 0 unknown */
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

static uint64_t span_ns(double s) {
  double ns = s * 1e9;
  return ns > 1e18 ? (uint64_t)1e18 : ns < 0 ? 0 : (uint64_t)ns;
}

static uint64_t deadline_ns(const fo_dist_t *dd) { return fo__now_ns() + span_ns(dd->deadline_s); }

/* One bounded wait: its limit, its nap, and whether this process itself stopped running
 * during it (see STALL_NS). */
typedef struct waiter {
  uint64_t limit, last, stalled_ns;
  long ns, cap;
  bool extended;
} waiter;

/* The longest nap of a wait: max_ns, at most 1/1000 of `span_ns` and of the RTT / div (when
 * rtt_ns is known), never below NAP_FLOOR_NS. */
static long nap_cap(long max_ns, uint64_t span, long rtt_ns, int div) {
  long cap = max_ns;
  if (span / 1000 < (uint64_t)cap) cap = (long)(span / 1000);
  if (rtt_ns > 0 && rtt_ns / div < cap) cap = rtt_ns / div;
  return cap < NAP_FLOOR_NS ? NAP_FLOOR_NS : cap;
}

static void waiter_init(waiter *w, uint64_t limit) {
  w->last = fo__now_ns();
  w->limit = limit;
  w->stalled_ns = 0;
  w->cap = nap_cap(CALL_NAP_MAX_NS, limit > w->last ? limit - w->last : 0, 0, 1);
  w->ns = CALL_NAP_MIN_NS < w->cap ? CALL_NAP_MIN_NS : w->cap;
  w->extended = false;
}

/* A caller's wait: also bounded by the observed round trip. */
static void waiter_use_rtt(waiter *w, const mpi_impl *mi) {
  long rtt = __atomic_load_n(&mi->rtt_ns, __ATOMIC_RELAXED);
  w->cap = nap_cap(w->cap, (uint64_t)w->cap * 1000, rtt, CALL_RTT_DIV);
  if (w->ns > w->cap) w->ns = w->cap;
}

/* Fold one exchange's duration into the moving average (weight 1/8). */
static void note_rtt(mpi_impl *mi, uint64_t ns) {
  long old = __atomic_load_n(&mi->rtt_ns, __ATOMIC_RELAXED);
  long v = ns > (uint64_t)1e12 ? (long)1e12 : (long)ns;
  __atomic_store_n(&mi->rtt_ns, old ? old + (v - old) / 8 : v, __ATOMIC_RELAXED);
}

/* Whether the wait's time is up (call once per round, after looking for progress). A round
 * that comes STALL_NS or more after the previous one extends the limit once. */
static bool waiter_expired(waiter *w, double deadline_s) {
  uint64_t now = fo__now_ns(), gap = now - w->last;
  w->last = now;
  if (gap >= STALL_NS) {
    uint64_t grace = span_ns(deadline_s) < STALL_GRACE_NS ? span_ns(deadline_s) : STALL_GRACE_NS;
    w->stalled_ns += gap;
    if (!w->extended && w->limit < now + grace) {
      w->limit = now + grace;
      w->extended = true;
    }
  }
  return now >= w->limit;
}

static void waiter_nap(waiter *w) { nap(&w->ns, w->cap, 3, 2); }

/* " (this process did not run for X s of that time ...)" after a stall, else "". */
static const char *stall_note(const waiter *w, char *buf, size_t cap) {
  if (w->stalled_ns < STALL_NS) return "";
  snprintf(buf, cap, " (this process itself did not run for %.1f s of that time: it was "
           "stopped or starved)", (double)w->stalled_ns * 1e-9);
  return buf;
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

/* Take the probed message `m` into nothing: MPI discards it in the background (nobody waits
 * for it: its sender may be stopped mid-transfer). */
static void discard(MPI_Message *m, MPI_Datatype type) {
  static int64_t sink;
  MPI_Request r;
  if (MPI_Imrecv(&sink, 0, type, m, &r) == MPI_SUCCESS) (void)MPI_Request_free(&r);
}

/* The size of a probed message in 8-byte words (*count), or MPI_UNDEFINED with its size in
 * bytes (*bytes, -1 if unknown) when it is not whole words or more than INT_MAX words. */
static void probed_size(const MPI_Status *st, int *count, long long *bytes) {
  MPI_Count n = -1;
  *bytes = -1;
  if (MPI_Get_count(st, MPI_INT64_T, count) != MPI_SUCCESS) *count = MPI_UNDEFINED;
  if (*count == MPI_UNDEFINED && MPI_Get_elements_x(st, MPI_BYTE, &n) == MPI_SUCCESS &&
      n != MPI_UNDEFINED)
    *bytes = (long long)n;
}

/* Start receiving the probed message `m` of `count` words into *buf (grown; capacity *cap
 * bytes) with MPI_Imrecv: *req completes with it (a message over ~64 KB comes in fragments, so
 * it is polled against a deadline like everything else, never waited for). A message that is
 * too large or not whole words is discarded and refused. */
static int start_receive(const mpi_impl *mi, MPI_Message *m, int count, long long bytes,
                         void **buf, size_t *cap, MPI_Request *req, const char *what) {
  int err;
  *req = MPI_REQUEST_NULL;
  if (count == MPI_UNDEFINED || count < 0 || count > mi->max_words) {
    discard(m, MPI_INT64_T);
    if ((count == MPI_UNDEFINED || count < 0) && bytes >= 0 && bytes % 8 == 0)
      return FO_FAIL(FO_ERANGE, "%s has %lld bytes, more than the limit of %lld bytes "
                     "(max_message_bytes)", what, bytes, (long long)mi->max_words * 8);
    if (count == MPI_UNDEFINED || count < 0)
      return FO_FAIL(FO_EFORMAT, "%s is not made of 8-byte words (%lld bytes)", what, bytes);
    return FO_FAIL(FO_ERANGE, "%s has %lld bytes, more than the limit of %lld bytes "
                   "(max_message_bytes)", what, (long long)count * 8, (long long)mi->max_words * 8);
  }
  if ((size_t)count * 8 > *cap || !*buf) {
    void *nb = realloc(*buf, count ? (size_t)count * 8 : 8);
    if (!nb) {
      discard(m, MPI_INT64_T);
      return FO_FAIL(FO_ENOMEM, "%s of %lld bytes", what, (long long)count * 8);
    }
    *buf = nb;
    *cap = count ? (size_t)count * 8 : 8;
  }
  if ((err = MPI_Imrecv(*buf, count, MPI_INT64_T, m, req)) != MPI_SUCCESS) {
    *req = MPI_REQUEST_NULL;
    return mpi_error(err, "receive %s", what);
  }
  return FO_OK;
}

/* ---- callers -------------------------------------------------------------------------------- */

typedef struct pending {
  MPI_Request send, recv; /* the request's send; the answer's receive once it has begun */
  int tag;
  bool answered;
} pending;

/* Progress of call c's answer (tag p->tag): 1 it is in whole, 0 not yet (not come, or coming),
 * < 0 an error. */
static int take_answer(fo_dist_t *dd, fo__call *c, pending *p) {
  mpi_impl *mi = dd->impl;
  MPI_Message m;
  MPI_Status st;
  int flag = 0, count = 0, err, rc;
  long long bytes;
  char what[96];
  if (p->recv == MPI_REQUEST_NULL) {
    if ((err = MPI_Improbe(c->machine, p->tag, mi->resp, &flag, &m, &st)) != MPI_SUCCESS)
      return mpi_error(err, "wait for the answer of machine %d", (int)c->machine);
    if (!flag) return 0;
    probed_size(&st, &count, &bytes);
    snprintf(what, sizeof what, "the %s answer of machine %d (local rank %d)", kind_name(&c->req),
             (int)c->machine, (int)dd->local_rank);
    if ((rc = start_receive(mi, &m, count, bytes, &c->resp, &c->resp_cap, &p->recv, what)) != FO_OK)
      return rc;
    c->resp_len = (size_t)count * 8;
  }
  if ((err = MPI_Test(&p->recv, &flag, MPI_STATUS_IGNORE)) != MPI_SUCCESS) {
    p->recv = MPI_REQUEST_NULL; /* (a failed request is freed by MPI) */
    return mpi_error(err, "receive the %s answer of machine %d", kind_name(&c->req),
                     (int)c->machine);
  }
  return flag ? 1 : 0;
}

static int mpi_exchange(fo_dist_t *dd, fo__call *calls, int n) {
  mpi_impl *mi = dd->impl;
  pending stack[8], *p = stack;
  const char *msg;
  waiter w;
  char note[160];
  int rc = FO_OK, err, i;
  uint64_t t_start;
  if (n <= 0) return FO_OK;
  if (n > 8 && !(p = calloc((size_t)n, sizeof *p))) return FO_FAIL(FO_ENOMEM, "exchange of %d calls", n);
  for (i = 0; i < n; i++) {
    p[i].send = p[i].recv = MPI_REQUEST_NULL;
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
    if (c->req.n < 2 || c->req.n > mi->max_words) {
      rc = FO_FAIL(FO_ERANGE, "a %s request of %lld bytes to machine %d is over the MPI "
                   "transport's limit of %lld bytes (max_message_bytes): use smaller batches",
                   kind_name(&c->req), (long long)c->req.n * 8, (int)c->machine,
                   (long long)mi->max_words * 8);
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
  waiter_init(&w, deadline_ns(dd));
  waiter_use_rtt(&w, mi);
  t_start = w.last;
  for (;;) {
    int left = 0;
    for (i = 0; i < n; i++) {
      int flag = 1;
      if (!p[i].answered) {
        int r = take_answer(dd, &calls[i], &p[i]);
        if (r < 0) {
          rc = r;
          goto abandon;
        }
        if (r == 1) {
          p[i].answered = true;
          p[i].recv = MPI_REQUEST_NULL;
        }
      }
      if (p[i].send != MPI_REQUEST_NULL &&
          (err = MPI_Test(&p[i].send, &flag, MPI_STATUS_IGNORE)) != MPI_SUCCESS) {
        p[i].send = MPI_REQUEST_NULL;
        rc = mpi_error(err, "send a %s request to machine %d", kind_name(&calls[i].req),
                       (int)calls[i].machine);
        goto abandon;
      }
      left += !p[i].answered || !flag;
    }
    if (!left) break;
    if (fo_dist_failed(dd, &msg)) {
      rc = failure(dd, msg);
      if (w.stalled_ns >= STALL_NS) /* a resumed process: what the others said, and why */
        rc = FO_FAIL(rc, "%s%s", msg, stall_note(&w, note, sizeof note));
      goto abandon;
    }
    if (waiter_expired(&w, dd->deadline_s)) {
      const char *how = "";
      for (i = 0; i < n && p[i].answered; i++) {}
      if (i == n) { /* every answer is in: a request's send never completed */
        for (i = 0; i < n && p[i].send == MPI_REQUEST_NULL; i++) {}
        if (i == n) i = 0;
        how = " (its answer came, but the request's send never completed)";
      } else if (p[i].recv != MPI_REQUEST_NULL) {
        how = " (its answer began to arrive but never finished)";
      }
      rc = FO_FAIL(FO_EMPI, "machine %d (local rank %d) did not answer %s request within %g s%s%s",
                   (int)calls[i].machine, (int)dd->local_rank, kind_name(&calls[i].req),
                   dd->deadline_s, how, stall_note(&w, note, sizeof note));
      goto abandon;
    }
    waiter_nap(&w);
  }
  note_rtt(mi, fo__now_ns() - t_start);
  if (p != stack) free(p);
  return FO_OK;
abandon:
  /* MPI may still read the requests and write the answers: their buffers go with them */
  for (i = 0; i < n; i++) {
    if (p[i].send != MPI_REQUEST_NULL) {
      orphan_add(mi, p[i].send, calls[i].req.w);
      memset(&calls[i].req, 0, sizeof calls[i].req);
    }
    if (p[i].recv != MPI_REQUEST_NULL) {
      orphan_add(mi, p[i].recv, calls[i].resp);
      calls[i].resp = NULL;
      calls[i].resp_cap = calls[i].resp_len = 0;
    }
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
  void *in;             /* the request being received or answered */
  size_t in_cap;
  MPI_Request in_req;   /* its receive, while it is coming in (MPI_REQUEST_NULL: none) */
  int in_count, in_source, in_tag;
  waiter in_wait;
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
  if (st.MPI_TAG == TAG_CLOSING) { /* that rank will join no fo_dist_check_same any more */
    int none = 0;
    (void)__atomic_compare_exchange_n(&mi->closing_from, &none, st.MPI_SOURCE + 1, false,
                                      __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
    return 1;
  }
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

/* Answer the request in s->in (rc: FO_OK, or why it could not be received): 1 answered,
 * < 0 an MPI error. */
static int answer_request(fo_dist_t *dd, mpi_impl *mi, serve_state *s, int rc) {
  fo__buf *out = &s->err;
  if (rc == FO_OK && s->ready) {
    rc = fo__server_answer(&s->sv, s->in, (size_t)s->in_count * 8);
    if (rc == FO_OK) out = &s->sv.out;
    if (rc == FO_OK && out->n > mi->max_words) { /* refused here, not inside MPI */
      int kind = fo__msg_kind(s->in, (size_t)s->in_count * 8);
      rc = FO_FAIL(FO_ERANGE, "its %s answer to machine %d would have %lld bytes, more than the "
                   "MPI transport's limit of %lld bytes (max_message_bytes): ask for fewer nodes "
                   "per request (smaller batches or fanouts)",
                   kind == FO_MSG_HOP ? "hop" : kind == FO_MSG_FETCH ? "fetch" : "?", s->in_source,
                   (long long)out->n * 8, (long long)mi->max_words * 8);
      out = &s->err;
    }
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
  if ((rc = send_answer(dd, mi, s, out, s->in_source, s->in_tag)) != FO_OK) return rc;
  return 1;
}

/* Progress on requests: take the one coming in further, or start on a new one; answer one
 * that is in whole. 1 something happened, 0 nothing, < 0 an MPI error. A request that has
 * begun to arrive but does not finish within the deadline (its sender stopped mid-transfer,
 * or the link dropped) fails the context, naming the sender; its buffer stays with MPI. */
static int serve_request(fo_dist_t *dd, mpi_impl *mi, serve_state *s) {
  MPI_Message m;
  MPI_Status st;
  int flag = 0, count = 0, err, rc;
  long long bytes;
  char what[64], note[160];
  if (s->in_req == MPI_REQUEST_NULL) {
    if ((err = MPI_Improbe(MPI_ANY_SOURCE, MPI_ANY_TAG, mi->group, &flag, &m, &st)) != MPI_SUCCESS)
      return mpi_error(err, "server of machine %d: probe for requests", (int)dd->machine);
    if (!flag) return 0;
    probed_size(&st, &count, &bytes);
    s->in_source = st.MPI_SOURCE;
    s->in_tag = st.MPI_TAG;
    s->in_count = count;
    snprintf(what, sizeof what, "a request from machine %d", st.MPI_SOURCE);
    rc = start_receive(mi, &m, count, bytes, &s->in, &s->in_cap, &s->in_req, what);
    if (rc != FO_OK) return answer_request(dd, mi, s, rc);
    waiter_init(&s->in_wait, deadline_ns(dd));
  }
  if ((err = MPI_Test(&s->in_req, &flag, MPI_STATUS_IGNORE)) != MPI_SUCCESS) {
    s->in_req = MPI_REQUEST_NULL;
    return mpi_error(err, "server of machine %d: receive a request from machine %d",
                     (int)dd->machine, s->in_source);
  }
  if (flag) {
    s->in_req = MPI_REQUEST_NULL;
    return answer_request(dd, mi, s, FO_OK);
  }
  if (waiter_expired(&s->in_wait, dd->deadline_s)) {
    orphan_add(mi, s->in_req, s->in);
    s->in_req = MPI_REQUEST_NULL;
    s->in = NULL;
    s->in_cap = 0;
    fo__dist_fail(dd, FO_FAIL(FO_EMPI, "machine %d (local rank %d) began sending a request of "
                              "%lld bytes to machine %d but did not finish within %g s (it is "
                              "stopped or its link is down)%s", s->in_source,
                              (int)dd->local_rank, (long long)s->in_count * 8, (int)dd->machine,
                              dd->deadline_s, stall_note(&s->in_wait, note, sizeof note)));
    return 1;
  }
  return 0;
}

static void *serve_main(void *arg) {
  fo_dist_t *dd = arg;
  mpi_impl *mi = dd->impl;
  serve_state s;
  long ns = SERVE_NAP_MIN_NS;
  const long serve_cap = nap_cap(SERVE_NAP_MAX_NS, span_ns(dd->deadline_s), 0, 1);
  memset(&s, 0, sizeof s);
  s.in_req = MPI_REQUEST_NULL;
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
          s.sv.max_answer_words = mi->max_words;
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
    if (busy) {
      ns = SERVE_NAP_MIN_NS;
    } else { /* idle: doubling, to at most the cap and a fraction of the observed RTT */
      long cap = nap_cap(serve_cap, (uint64_t)serve_cap * 1000,
                         __atomic_load_n(&mi->rtt_ns, __ATOMIC_RELAXED), SERVE_RTT_DIV);
      if (ns > cap) ns = cap;
      nap(&ns, cap, 2, 1);
    }
  }
  goto out;
broken: /* MPI itself failed here: nobody can be answered any more */
  fo__dist_fail(dd, FO_EMPI);
out:
  if (s.in_req != MPI_REQUEST_NULL) { /* a request still coming in: its buffer goes with it */
    orphan_add(mi, s.in_req, s.in);
    s.in = NULL;
  }
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

/* Wait for the nonblocking collective *req until it completes, the context fails (`watch`:
 * a notice from another process), or w's limit passes. FO_EMPI "<what>: not every process
 * took part within D s" then; the collective stays pending (MPI can neither cancel nor free
 * one): the communicators are left alone (pending_collective), and any buffer it uses must be
 * heap memory that the caller then leaves allocated. */
enum { WATCH_FAILURE = 1, WATCH_CLOSING = 2 };

static int wait_collective(fo_dist_t *dd, MPI_Request *req, waiter *w, int watch,
                           const char *what) {
  mpi_impl *mi = dd->impl;
  const char *msg;
  char note[160];
  uint64_t grace_limit = 0, g = span_ns(dd->deadline_s);
  if (g > 2 * STALL_GRACE_NS) g = 2 * STALL_GRACE_NS;
  w->last = fo__now_ns(); /* the work since the previous wait on w was no stall */
  for (;;) {
    int flag = 0, err = MPI_Test(req, &flag, MPI_STATUS_IGNORE), closing;
    bool failed;
    if (err != MPI_SUCCESS) {
      mi->pending_collective = true;
      return mpi_error(err, "%s", what);
    }
    if (flag) return FO_OK;
    failed = (watch & WATCH_FAILURE) && fo_dist_failed(dd, &msg);
    closing = (watch & WATCH_CLOSING) ? __atomic_load_n(&mi->closing_from, __ATOMIC_ACQUIRE) : 0;
    /* fo_dist_check_same: a rank that took part, and then failed (its verdict: options that
     * differ) or finalized, told the others after its part of the collective, which then
     * completes here soon after: a grace of min(deadline, 2 s) lets every rank report the
     * check's own verdict; a rank that never took part never will */
    if ((watch & WATCH_CLOSING) && !grace_limit && (failed || closing))
      grace_limit = fo__now_ns() + g;
    if (failed && (!(watch & WATCH_CLOSING) || fo__now_ns() >= grace_limit)) {
      mi->pending_collective = true;
      return failure(dd, msg);
    }
    if (closing && fo__now_ns() >= grace_limit) {
      mi->pending_collective = true;
      return FO_FAIL(FO_EINVAL, "%s: rank %d reached fo_dist_finalize instead (every process "
                     "must create the same loaders, in the same order)", what, closing - 1);
    }
    if (waiter_expired(w, dd->deadline_s)) {
      mi->pending_collective = true;
      return FO_FAIL(FO_EMPI, "%s: not every process took part within %g s (a process that is "
                     "stopped, has died, or never got here)%s", what, dd->deadline_s,
                     stall_note(w, note, sizeof note));
    }
    waiter_nap(w);
  }
}

static int mpi_barrier(fo_dist_t *dd) {
  mpi_impl *mi = dd->impl;
  MPI_Request req;
  waiter w;
  int err, rc;
  /* (fo_dist_finalize calls this only when the context has not failed) */
  __atomic_store_n(&mi->closing, 1, __ATOMIC_RELEASE);
  /* tell the others: one still waiting in fo_dist_check_same (a loader this process never
   * creates) fails at once instead of at its deadline */
  if (dd->size > 1 && (mi->closing_buf = malloc(1)) &&
      (mi->closing_reqs = malloc((size_t)dd->size * sizeof *mi->closing_reqs))) {
    for (int r = 0; r < dd->size; r++)
      if (r != dd->rank && MPI_Isend(mi->closing_buf, 0, MPI_BYTE, r, TAG_CLOSING, mi->world,
                                     &mi->closing_reqs[mi->n_closing_reqs]) == MPI_SUCCESS)
        mi->n_closing_reqs++;
  }
  if ((err = MPI_Ibarrier(mi->world, &req)) != MPI_SUCCESS)
    return fo__dist_fail(dd, mpi_error(err, "final barrier"));
  waiter_init(&w, deadline_ns(dd));
  rc = wait_collective(dd, &req, &w, WATCH_FAILURE, "final barrier (fo_dist_finalize)");
  if (rc == FO_OK) return FO_OK;
  if (fo_dist_failed(dd, NULL)) return rc; /* another process's failure, as it said */
  return fo__dist_fail(dd, rc);
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
  abort_done = true;
  for (int i = 0; i < mi->n_closing_reqs; i++) {
    int flag = 0;
    if (MPI_Test(&mi->closing_reqs[i], &flag, MPI_STATUS_IGNORE) != MPI_SUCCESS || !flag) {
      (void)MPI_Request_free(&mi->closing_reqs[i]);
      abort_done = false;
    }
  }
  if (abort_done) free(mi->closing_buf);
  free(mi->closing_reqs);
  for (int i = 0; i < mi->n_orphans; i++) settle(&mi->orphans[i].req, mi->orphans[i].buf);
  free(mi->orphans);
  /* A failed context keeps its communicators: late messages of the failure (ABORT notices,
   * abandoned requests and answers) may still be on their way, and a freed communicator's id
   * could be given to the next one this process makes (MPI agrees on an id free everywhere;
   * one kept here is not), which would then receive them. */
  if (!mi->pending_collective && !fo_dist_failed(dd, NULL)) {
    if (mi->same != MPI_COMM_NULL) MPI_Comm_free(&mi->same);
    if (mi->resp != MPI_COMM_NULL) MPI_Comm_free(&mi->resp);
    if (mi->group != MPI_COMM_NULL) MPI_Comm_free(&mi->group);
    if (mi->world != MPI_COMM_NULL) MPI_Comm_free(&mi->world);
  }
  pthread_mutex_destroy(&mi->mu);
  free(mi);
  dd->impl = NULL;
}

/* A record of fo_dist_check_same: the number of options, then their digests (zero-padded). */
#define SAME_WORDS (2 + FO__SAME_MAX) /* what, count, options */

/* "name\0value" of option k (or "(none)" past this process's options) into buf[cap]. */
static void same_text(const fo_dist_option *opts, int n, int k, char *buf, size_t cap) {
  memset(buf, 0, cap);
  if (k >= n) {
    snprintf(buf, cap, "(none)");
    return;
  }
  size_t nl = strnlen(opts[k].name, 63);
  memcpy(buf, opts[k].name, nl);
  snprintf(buf + nl + 1, cap - nl - 1, "%s", opts[k].value);
}

/* A broadcast of buf[cap] from `root` polled against w (buf: heap, see wait_collective). */
static int bcast(fo_dist_t *dd, char *buf, int cap, int root, waiter *w, const char *what) {
  mpi_impl *mi = dd->impl;
  MPI_Request req;
  int err = MPI_Ibcast(buf, cap, MPI_CHAR, root, mi->same, &req);
  if (err != MPI_SUCCESS) return mpi_error(err, "%s: MPI_Ibcast", what);
  return wait_collective(dd, &req, w, WATCH_FAILURE | WATCH_CLOSING, what);
}

static int mpi_check_same(fo_dist_t *dd, const char *what, const fo_dist_option *opts, int n) {
  enum { TEXT = 64 + FO__SAME_TEXT + 2 };
  mpi_impl *mi = dd->impl;
  uint64_t *rec = malloc(SAME_WORDS * sizeof *rec), *all = NULL;
  char *t0 = NULL, *tr = NULL, where[160];
  MPI_Request req;
  waiter w;
  int size = dd->size, field = -1, first = -1, n_differ = 0, err, rc;
  const char *msg;
  if (fo_dist_failed(dd, &msg)) {
    free(rec);
    return failure(dd, msg);
  }
  if (rec) all = malloc((size_t)size * SAME_WORDS * sizeof *all);
  if (!rec || !all) {
    free(rec);
    return FO_FAIL(FO_ENOMEM, "%s: comparing the options of %d processes", what, size);
  }
  memset(rec, 0, SAME_WORDS * sizeof *rec);
  rec[0] = fo__same_digest("what", what); /* a node, link or ABLP loader, ... */
  rec[1] = (uint64_t)n;
  for (int i = 0; i < n; i++) rec[2 + i] = fo__same_digest(opts[i].name, opts[i].value);
  snprintf(where, sizeof where, "%s: comparing the options of every process", what);
  waiter_init(&w, deadline_ns(dd));
  if ((err = MPI_Iallgather(rec, SAME_WORDS, MPI_UINT64_T, all, SAME_WORDS, MPI_UINT64_T,
                            mi->same, &req)) != MPI_SUCCESS) {
    free(rec);
    free(all);
    return fo__dist_fail(dd, mpi_error(err, "%s: MPI_Iallgather", where));
  }
  if ((rc = wait_collective(dd, &req, &w, WATCH_FAILURE | WATCH_CLOSING, where)) != FO_OK)
    /* rec, all stay with MPI */
    return fo_dist_failed(dd, NULL) ? rc : fo__dist_fail(dd, rc);
  /* the first word (what, count, then each option) where some rank differs from rank 0 */
  for (int f = 0; f < SAME_WORDS && field < 0; f++)
    for (int r = 1; r < size; r++)
      if (all[(size_t)r * SAME_WORDS + f] != all[f]) {
        if (field < 0) {
          field = f;
          first = r;
        }
        n_differ++;
      }
  if (field < 0) {
    free(rec);
    free(all);
    return FO_OK;
  }
  if (field == 1) {
    rc = FO_FAIL(FO_EINVAL, "%s: processes compare different numbers of options (rank 0 %llu, "
                 "rank %d %llu): the processes run different programs or versions", what,
                 (unsigned long long)all[1],  first,
                 (unsigned long long)all[(size_t)first * SAME_WORDS + 1]);
    free(rec);
    free(all);
    return rc;
  }
  free(rec);
  free(all);
  if (field == 0) {
    /* different calls meet here (a link loader on one rank, a node loader on another): name
     * both; the texts come from their owners */
    if (!(t0 = calloc(1, TEXT)) || !(tr = calloc(1, TEXT))) {
      free(t0);
      return fo__dist_fail(dd, FO_FAIL(FO_ENOMEM, "%s", where));
    }
    if (dd->rank == 0) snprintf(t0, TEXT, "%s", what);
    if (dd->rank == first) snprintf(tr, TEXT, "%s", what);
    if ((rc = bcast(dd, t0, TEXT, 0, &w, where)) != FO_OK ||
        (rc = bcast(dd, tr, TEXT, first, &w, where)) != FO_OK) /* t0, tr stay with MPI */
      return fo_dist_failed(dd, NULL) ? rc : fo__dist_fail(dd, rc);
    t0[TEXT - 1] = tr[TEXT - 1] = '\0';
    rc = FO_FAIL(FO_EINVAL, "%s: the processes do different things: rank 0 calls '%s', rank %d "
                 "'%s'%s (every process must create the same kind of loader with the same "
                 "options)", what, t0, first, tr, n_differ > 1 ? " (and others differ)" : "");
    free(t0);
    free(tr);
    return rc;
  }
  /* every process found the same field and rank: both texts come from their owners */
  if (!(t0 = malloc(TEXT)) || !(tr = malloc(TEXT))) {
    free(t0);
    return fo__dist_fail(dd, FO_FAIL(FO_ENOMEM, "%s", where));
  }
  if (dd->rank == 0) same_text(opts, n, field - 2, t0, TEXT);
  if (dd->rank == first) same_text(opts, n, field - 2, tr, TEXT);
  if ((rc = bcast(dd, t0, TEXT, 0, &w, where)) != FO_OK ||
      (rc = bcast(dd, tr, TEXT, first, &w, where)) != FO_OK) /* t0, tr stay with MPI */
    return fo_dist_failed(dd, NULL) ? rc : fo__dist_fail(dd, rc);
  t0[TEXT - 1] = tr[TEXT - 1] = '\0';
  {
    const char *v0 = t0 + strlen(t0) + 1, *vr = tr + strlen(tr) + 1;
    char others[64] = "";
    if (n_differ > 1) snprintf(others, sizeof others, " (%d ranks differ from rank 0)", n_differ);
    if (strcmp(t0, tr) != 0)
      rc = FO_FAIL(FO_EINVAL, "%s: option %d differs between processes: rank 0 has %s=%s, rank "
                   "%d has %s=%s%s (start every process with the same options)", what, field - 1,
                   t0, v0, first, tr, vr, others);
    else
      rc = FO_FAIL(FO_EINVAL, "%s: option %s differs between processes: rank 0 has %s, rank %d "
                   "has %s%s (start every process with the same options)", what, t0,
                   *v0 ? v0 : "(empty)", first, *vr ? vr : "(empty)", others);
  }
  free(t0);
  free(tr);
  return rc;
}

static const fo__transport_ops mpi_ops = {mpi_exchange, mpi_barrier, mpi_fini, mpi_serve,
                                          mpi_failed, mpi_check_same};

/* ---- start-up ----------------------------------------------------------------------------------- */

static const char *level_name(int level) {
  return level == MPI_THREAD_SINGLE       ? "MPI_THREAD_SINGLE"
         : level == MPI_THREAD_FUNNELED   ? "MPI_THREAD_FUNNELED"
         : level == MPI_THREAD_SERIALIZED ? "MPI_THREAD_SERIALIZED"
         : level == MPI_THREAD_MULTIPLE   ? "MPI_THREAD_MULTIPLE"
                                          : "unknown";
}

/* Element-wise max of v[0..n) over `comm`: MPI_Iallreduce polled against w (heap buffers:
 * see wait_collective). */
static int allmax(fo_dist_t *dd, MPI_Comm comm, int64_t *v, int n, waiter *w, const char *what) {
  int64_t *buf = malloc((size_t)n * sizeof *buf);
  MPI_Request req;
  int err, rc;
  if (!buf) return FO_FAIL(FO_ENOMEM, "%s", what);
  memcpy(buf, v, (size_t)n * sizeof *buf);
  if ((err = MPI_Iallreduce(MPI_IN_PLACE, buf, n, MPI_INT64_T, MPI_MAX, comm, &req)) != MPI_SUCCESS) {
    free(buf);
    return mpi_error(err, "%s: MPI_Iallreduce", what);
  }
  if ((rc = wait_collective(dd, &req, w, 0, what)) != FO_OK) return rc; /* buf stays */
  memcpy(v, buf, (size_t)n * sizeof *buf);
  free(buf);
  return FO_OK;
}

/* An MPI_Ibarrier over `comm` polled against w: the gate before each blocking collective
 * (MPI_Comm_split and MPI_Comm_split_type have no nonblocking form), which then starts only
 * once every process has come. */
static int gate(fo_dist_t *dd, MPI_Comm comm, waiter *w, const char *what) {
  MPI_Request req;
  int err = MPI_Ibarrier(comm, &req);
  if (err != MPI_SUCCESS) return mpi_error(err, "%s: MPI_Ibarrier", what);
  return wait_collective(dd, &req, w, 0, what);
}

/* MPI_Comm_idup of `comm` into *out, polled against w (the handle is written where MPI was
 * told, heap memory left allocated if it never completes). */
static int dup_comm(fo_dist_t *dd, MPI_Comm comm, MPI_Comm *out, waiter *w, const char *what) {
  MPI_Comm *nc = malloc(sizeof *nc);
  MPI_Request req;
  int err, rc;
  *out = MPI_COMM_NULL;
  if (!nc) return FO_FAIL(FO_ENOMEM, "%s", what);
  if ((err = MPI_Comm_idup(comm, nc, &req)) != MPI_SUCCESS) {
    free(nc);
    return mpi_error(err, "%s: MPI_Comm_idup", what);
  }
  if ((rc = wait_collective(dd, &req, w, 0, what)) != FO_OK) return rc;
  *out = *nc;
  free(nc);
  MPI_Comm_set_errhandler(*out, MPI_ERRORS_RETURN);
  return FO_OK;
}

/* Machine rank, number of machines, local rank and size from the shared-memory domains
 * (MPI_Comm_split_type): machines are numbered in the order of their lowest rank. */
static int find_machines(fo_dist_t *dd, MPI_Comm world, int rank, waiter *w, int32_t *machine,
                         int32_t *n_machines, int32_t *local_rank, int32_t *local_size) {
  static const char what[] = "dist init: finding the machines";
  MPI_Comm node = MPI_COMM_NULL;
  MPI_Request req;
  int64_t *v = NULL;
  int lr = 0, ls = 0, err, rc;
  if ((rc = gate(dd, world, w, what)) != FO_OK) return rc;
  if ((err = MPI_Comm_split_type(world, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node)) !=
      MPI_SUCCESS)
    return mpi_error(err, "dist init: MPI_Comm_split_type");
  MPI_Comm_set_errhandler(node, MPI_ERRORS_RETURN);
  if ((err = MPI_Comm_rank(node, &lr)) != MPI_SUCCESS || (err = MPI_Comm_size(node, &ls)) != MPI_SUCCESS) {
    rc = mpi_error(err, "%s", what);
    goto out;
  }
  /* v: leader flag, machines before this one (exscan), machines in all (sum) */
  if (!(v = calloc(3, sizeof *v))) {
    rc = FO_FAIL(FO_ENOMEM, "%s", what);
    goto out;
  }
  v[0] = lr == 0;
  /* a machine's number: how many machines have their lowest rank below its own */
  if ((err = MPI_Iexscan(&v[0], &v[1], 1, MPI_INT64_T, MPI_SUM, world, &req)) != MPI_SUCCESS) {
    rc = mpi_error(err, "%s: MPI_Iexscan", what);
    goto out;
  }
  if ((rc = wait_collective(dd, &req, w, 0, what)) != FO_OK) goto leave;
  if (rank == 0) v[1] = 0; /* MPI_Exscan leaves rank 0's result undefined */
  if ((err = MPI_Iallreduce(&v[0], &v[2], 1, MPI_INT64_T, MPI_SUM, world, &req)) != MPI_SUCCESS) {
    rc = mpi_error(err, "%s: MPI_Iallreduce", what);
    goto out;
  }
  if ((rc = wait_collective(dd, &req, w, 0, what)) != FO_OK) goto leave;
  if ((err = MPI_Ibcast(&v[1], 1, MPI_INT64_T, 0, node, &req)) != MPI_SUCCESS) {
    rc = mpi_error(err, "%s: MPI_Ibcast", what);
    goto out;
  }
  if ((rc = wait_collective(dd, &req, w, 0, what)) != FO_OK) goto leave;
  *machine = (int32_t)v[1];
  *n_machines = (int32_t)v[2];
  *local_rank = lr;
  *local_size = ls;
  rc = FO_OK;
out:
  free(v);
  MPI_Comm_free(&node);
  return rc;
leave: /* a collective on `node` and `world` is still pending: v and node stay */
  return rc;
}

int fo_dist_init_mpi(const void *comm, const fo_dist_opts *o, fo_dist_t **out) {
  fo_dist_opts defaults;
  fo_dist_t *dd = NULL;
  mpi_impl *mi = NULL;
  int initialized = 0, finalized = 0, level = MPI_THREAD_SINGLE, rank = 0, size = 0, err, rc;
  int grank = -1, gsize = -1, flag = 0, local_rc = FO_OK;
  int64_t v[5], max_bytes;
  int32_t P, machine = 0, n_machines = 1, local_rank = 0, local_size = 1;
  void *ub = NULL;
  waiter w;
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
  max_bytes = o->max_message_bytes ? o->max_message_bytes : MAX_MSG_WORDS * 8;
  if (max_bytes < MIN_MSG_BYTES || max_bytes > MAX_MSG_WORDS * 8)
    return FO_FAIL(FO_EINVAL, "dist init: max_message_bytes %lld is outside %d .. %lld",
                   (long long)o->max_message_bytes, MIN_MSG_BYTES, (long long)MAX_MSG_WORDS * 8);
  if ((rc = fo__dist_new(&dd, o)) != FO_OK) return fo__context(rc, "dist init");
  if (!(mi = calloc(1, sizeof *mi))) {
    fo__dist_free(dd);
    return FO_FAIL(FO_ENOMEM, "dist init");
  }
  mi->world = mi->group = mi->resp = mi->same = MPI_COMM_NULL;
  mi->max_words = max_bytes / 8;
  pthread_mutex_init(&mi->mu, NULL);
  dd->impl = mi;
  /* one start-up deadline for every collective below: a process that never comes here (it
   * runs another program, is stopped or has died) fails the others instead of hanging them */
  waiter_init(&w, deadline_ns(dd));

  /* 1. our communicator, and what every process must agree on */
  if ((rc = dup_comm(dd, *(const MPI_Comm *)comm, &mi->world, &w,
                     "dist init: duplicating the communicator")) != FO_OK)
    goto fail;
  MPI_Comm_rank(mi->world, &rank);
  MPI_Comm_size(mi->world, &size);
  MPI_Query_thread(&level);
  v[0] = level < MPI_THREAD_MULTIPLE ? rank + 1 : 0; /* the last such rank */
  v[1] = P;
  v[2] = -P;
  v[3] = max_bytes;
  v[4] = -max_bytes;
  if ((rc = allmax(dd, mi->world, v, 5, &w, "dist init: checking the options")) != FO_OK) goto fail;
  if (v[0]) {
    if (level < MPI_THREAD_MULTIPLE)
      rc = FO_FAIL(FO_EINVAL, "dist init: MPI must be initialized with MPI_THREAD_MULTIPLE on "
                   "every process (MPI_Init_thread); this one has %s", level_name(level));
    else
      rc = FO_FAIL(FO_EINVAL, "dist init: MPI must be initialized with MPI_THREAD_MULTIPLE on "
                   "every process (MPI_Init_thread); rank %d has a lower level", (int)v[0] - 1);
    goto fail;
  }
  if (v[1] != -v[2]) {
    rc = FO_FAIL(FO_EINVAL, "dist init: procs_per_machine differs between processes (%d to %d)",
                 (int)-v[2], (int)v[1]);
    goto fail;
  }
  if (v[3] != -v[4]) {
    rc = FO_FAIL(FO_EINVAL, "dist init: max_message_bytes differs between processes (%lld to "
                 "%lld)", (long long)-v[4], (long long)v[3]);
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
  } else if ((rc = find_machines(dd, mi->world, rank, &w, &machine, &n_machines, &local_rank,
                                 &local_size)) != FO_OK) {
    goto fail;
  }
  v[0] = local_size;
  v[1] = -local_size;
  v[2] = n_machines;
  v[3] = -n_machines;
  if ((rc = allmax(dd, mi->world, v, 4, &w, "dist init: checking the machines")) != FO_OK) goto fail;
  if (v[0] != -v[1] || v[2] != -v[3] || v[0] * v[2] != size) {
    rc = FO_FAIL(FO_EINVAL, "dist init: the machines do not agree: %d to %d processes per "
                 "machine, %d to %d machines, %d processes in all (every machine needs the same "
                 "number of processes; set procs_per_machine)", (int)-v[1], (int)v[0], (int)-v[3],
                 (int)v[2], size);
    goto fail;
  }

  /* 3. worker group = local rank: rank m in it is machine m; answers on a twin */
  if ((rc = gate(dd, mi->world, &w, "dist init: making the worker groups")) != FO_OK) goto fail;
  if ((err = MPI_Comm_split(mi->world, local_rank, machine, &mi->group)) != MPI_SUCCESS) {
    mi->group = MPI_COMM_NULL;
    rc = mpi_error(err, "dist init: MPI_Comm_split");
    goto fail;
  }
  MPI_Comm_set_errhandler(mi->group, MPI_ERRORS_RETURN);
  if ((rc = dup_comm(dd, mi->group, &mi->resp, &w, "dist init: duplicating the worker group")) !=
      FO_OK ||
      (rc = dup_comm(dd, mi->world, &mi->same, &w, "dist init: duplicating the communicator")) !=
      FO_OK)
    goto fail;
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
    fo_worker_opts wo = o->worker;
    fo_worker_info info;
    wo.machine_rank = machine;
    wo.world_size = n_machines;
    wo.local_rank = local_rank;
    wo.local_world_size = local_size;
    local_rc = fo_worker_init(&wo, &info);
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
  if ((rc = allmax(dd, mi->world, v, 3, &w, "dist init: starting")) != FO_OK) goto fail;
  if (v[0]) {
    rc = FO_FAIL(FO_EINVAL, "dist init: worker group %d does not hold one process of every "
                 "machine (rank %d of %d in it, machine %d of %d)", (int)local_rank, grank, gsize,
                 (int)machine, (int)n_machines);
    goto fail;
  }
  if (v[1]) {
    rc = local_rc != FO_OK ? local_rc
                           : FO_FAIL((int)-v[2], "dist init: rank %d could not start (its own "
                                     "message says why)", (int)v[1] - 1);
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
