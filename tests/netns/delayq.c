/* delayq: a user-space fixed delay for the netns tests and bench/dist_latency.sh (this kernel
 * has no sch_netem).
 *
 *   delayq -q QUEUE -d MICROSECONDS
 *
 * Takes every packet that an iptables rule sends to NFQUEUE number QUEUE (in the network
 * namespace delayq runs in; e.g. `iptables -A INPUT -i eth0 -j NFQUEUE --queue-num 0`: on
 * the way in, since a packet held below a local sender's socket counts against TCP small queues
 * and caps the throughput at a couple of packets per delay) and
 * gives it back (verdict NF_ACCEPT, payload untouched) MICROSECONDS after it arrived, in arrival
 * order. One thread, never blocking the queue: packets wait in a FIFO (a fixed delay keeps
 * arrival order = release order), and ppoll() sleeps until the netlink socket has more packets
 * or the oldest waiting packet is due, whichever comes first. The queue is bound with GSO
 * (no segmentation of large TCP packets) and fail-open (if the kernel queue is full the packet
 * passes undelayed instead of being dropped); the netlink buffer is 16 MiB.
 *
 * Prints "delayq: queue Q, D us" on stderr when bound (the caller may wait for it), runs until
 * SIGTERM/SIGINT, exits 0 then; 2 on bad options, 1 when the queue cannot be bound (no
 * CAP_NET_ADMIN, nfnetlink_queue missing), each with a message on stderr.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <arpa/inet.h>
#include <errno.h>
#include <libnetfilter_queue/libnetfilter_queue.h>
#include <linux/netfilter.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <time.h>
#include <linux/netlink.h>

#ifndef SOL_NETLINK
#define SOL_NETLINK 270
#endif

struct pending {
  uint32_t id;
  int64_t due_ns;
};

static struct pending *ring;
static size_t ring_cap, ring_head, ring_len;
static int64_t delay_ns;
static volatile sig_atomic_t stop;

static int64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static int push(uint32_t id, int64_t due) {
  if (ring_len == ring_cap) {
    size_t cap = ring_cap ? 2 * ring_cap : 4096;
    struct pending *r = malloc(cap * sizeof *r);
    if (!r) return -1;
    for (size_t i = 0; i < ring_len; i++) r[i] = ring[(ring_head + i) % ring_cap];
    free(ring);
    ring = r;
    ring_cap = cap;
    ring_head = 0;
  }
  ring[(ring_head + ring_len) % ring_cap] = (struct pending){id, due};
  ring_len++;
  return 0;
}

static int on_packet(struct nfq_q_handle *qh, struct nfgenmsg *msg, struct nfq_data *nfa,
                     void *data) {
  (void)msg;
  (void)data;
  struct nfqnl_msg_packet_hdr *ph = nfq_get_msg_packet_hdr(nfa);
  if (!ph) return 0;
  uint32_t id = ntohl(ph->packet_id);
  if (push(id, now_ns() + delay_ns) != 0) /* out of memory: let it through now */
    nfq_set_verdict(qh, id, NF_ACCEPT, 0, NULL);
  return 0;
}

static void on_signal(int sig) {
  (void)sig;
  stop = 1;
}

int main(int argc, char **argv) {
  long queue = -1;
  double delay_us = -1;
  for (int i = 1; i + 1 < argc; i += 2) {
    char *end;
    if (strcmp(argv[i], "-q") == 0) {
      queue = strtol(argv[i + 1], &end, 10);
      if (*end || queue < 0 || queue > 65535) queue = -2;
    } else if (strcmp(argv[i], "-d") == 0) {
      delay_us = strtod(argv[i + 1], &end);
      if (*end || !(delay_us >= 0 && delay_us <= 10e6)) delay_us = -2;
    } else {
      queue = -2;
    }
  }
  if (argc != 5 || queue < 0 || delay_us < 0) {
    fprintf(stderr, "usage: delayq -q QUEUE(0-65535) -d MICROSECONDS(0-10000000)\n");
    return 2;
  }
  delay_ns = (int64_t)(delay_us * 1000);
  prctl(PR_SET_TIMERSLACK, 1000UL); /* wake within ~1 us of the due time, not the 50 us default */

  struct sigaction sa = {0};
  sa.sa_handler = on_signal;
  sigaction(SIGTERM, &sa, NULL);
  sigaction(SIGINT, &sa, NULL);

  struct nfq_handle *h = nfq_open();
  if (!h) {
    fprintf(stderr, "delayq: nfq_open: %s (needs CAP_NET_ADMIN and nfnetlink_queue)\n",
            strerror(errno));
    return 1;
  }
  struct nfq_q_handle *qh = nfq_create_queue(h, (uint16_t)queue, on_packet, NULL);
  if (!qh) {
    fprintf(stderr, "delayq: cannot bind queue %ld: %s (in use, or no CAP_NET_ADMIN)\n", queue,
            strerror(errno));
    nfq_close(h);
    return 1;
  }
  if (nfq_set_mode(qh, NFQNL_COPY_META, 0) < 0) {
    fprintf(stderr, "delayq: nfq_set_mode: %s\n", strerror(errno));
    nfq_destroy_queue(qh);
    nfq_close(h);
    return 1;
  }
  nfq_set_queue_maxlen(qh, 1 << 16);
  uint32_t flags = NFQA_CFG_F_GSO | NFQA_CFG_F_FAIL_OPEN;
  nfq_set_queue_flags(qh, flags, flags); /* older kernels: ignored, still correct */
  int fd = nfq_fd(h);
  nfnl_rcvbufsiz(nfq_nfnlh(h), 16u << 20);
  int one = 1;
  setsockopt(fd, SOL_NETLINK, NETLINK_NO_ENOBUFS, &one, sizeof one);
  fprintf(stderr, "delayq: queue %ld, %.0f us\n", queue, delay_us);

  static char buf[1 << 16] __attribute__((aligned));
  int rc = 0;
  while (!stop) {
    int64_t t = now_ns();
    while (ring_len && ring[ring_head].due_ns <= t) {
      nfq_set_verdict(qh, ring[ring_head].id, NF_ACCEPT, 0, NULL);
      ring_head = (ring_head + 1) % ring_cap;
      ring_len--;
    }
    struct timespec to, *top = NULL;
    if (ring_len) {
      int64_t wait = ring[ring_head].due_ns - t;
      to.tv_sec = wait / 1000000000;
      to.tv_nsec = wait % 1000000000;
      top = &to;
    }
    struct pollfd pfd = {.fd = fd, .events = POLLIN};
    int n = ppoll(&pfd, 1, top, NULL);
    if (n < 0) {
      if (errno == EINTR) continue;
      fprintf(stderr, "delayq: ppoll: %s\n", strerror(errno));
      rc = 1;
      break;
    }
    if (n == 0) continue;
    for (;;) {
      ssize_t len = recv(fd, buf, sizeof buf, MSG_DONTWAIT);
      if (len < 0) {
        if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) break;
        if (errno == ENOBUFS) continue; /* notifications lost: the fail-open queue copes */
        fprintf(stderr, "delayq: recv: %s\n", strerror(errno));
        rc = 1;
        stop = 1;
        break;
      }
      nfq_handle_packet(h, buf, (int)len);
    }
  }
  /* the rest is accepted now rather than dropped when the queue goes */
  while (ring_len) {
    nfq_set_verdict(qh, ring[ring_head].id, NF_ACCEPT, 0, NULL);
    ring_head = (ring_head + 1) % ring_cap;
    ring_len--;
  }
  free(ring);
  nfq_destroy_queue(qh);
  nfq_close(h);
  return rc;
}
