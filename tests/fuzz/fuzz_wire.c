/*
 * Harness "wire": the MPI wire format (dist/codec.c): every decoder on arbitrary bytes, the
 * encoders' output decoded back to the same message, and the server (dist/server.c) answering
 * arbitrary requests from part 0 of the 2-part Cora fixture, its answer decoded as the caller
 * would.
 * Input: byte 0: bits 0-2 the decoder (hop req, hop resp, fetch req, fetch resp, error, kind,
 * server), bit 3: write a valid header (magic, kind, word count) over the first 16 bytes, so
 * mutations reach the payload; then the message bytes.
 * Promise: a malformed message is FO_EFORMAT, never a crash or a read past its length; every
 * decoded id lies in the graph; the server answers anything with a response or an ERROR message
 * that decodes.
 */
#include "dist/dist_internal.h"
#include "fixture.h"
#include "fuzz.h"

#include <stdlib.h>

static fo_dataset_t *g_d;
static fo__server g_sv;

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc;
  (void)argv;
  if (g_d) return 0;
  if (fo_dataset_open(fz_fixture(1), NULL, &g_d) != FO_OK) fz_die("open fixture", fo_last_error());
  if (fo__server_init(&g_sv, g_d, 0) != FO_OK) fz_die("server init", fo_last_error());
  /* as the MPI transport's server (whose limit is max_message_bytes): answers that could pass
   * 1 MiB are refused (with replacement, before sampling); without replacement an answer is
   * bounded by the part's edges */
  g_sv.max_answer_words = (1 << 20) / 8;
  return 0;
}

static void same(const fo__buf *b, const void *msg, size_t len) {
  if ((size_t)b->n * 8 != len || memcmp(b->w, msg, len)) abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fz_in in = {data, size};
  uint8_t sel = fz_u8(&in);
  int which = sel & 7;
  size_t len = in.n;
  int64_t *msg = malloc(len ? len : 1); /* malloc is 16-aligned; exact size for ASan */
  const int64_t n_nodes = fo_dataset_num_nodes(g_d), n_edges = fo_dataset_num_edges(g_d);
  fo__buf b = {0};
  int rc;
  static const int kind_of[7] = {FO_MSG_HOP, FO_MSG_HOP_RESP, FO_MSG_FETCH, FO_MSG_FETCH_RESP,
                                 FO_MSG_ERROR, FO_MSG_HOP, FO_MSG_FETCH};
  if (!g_d) LLVMFuzzerInitialize(NULL, NULL);
  memcpy(msg, in.p, len);
  if ((sel & 8) && len >= 16 && which < 7) {
    int kind = which == 6 ? ((sel & 16) ? FO_MSG_FETCH : FO_MSG_HOP) : kind_of[which];
    msg[0] = (int64_t)(FO_MSG_MAGIC | (uint64_t)kind << 32);
    msg[1] = (int64_t)(len / 8 - 2);
  }
  switch (which) {
  case 0: {
    fo__hop_req r;
    if ((rc = fo__dec_hop_req(msg, len, n_nodes, 2, &r)) == FO_OK) {
      for (int64_t i = 0; i < r.n; i++)
        if (r.nodes[i] < 0 || r.nodes[i] >= n_nodes) abort();
      if (fo__enc_hop_req(&b, &r) != FO_OK) abort();
      same(&b, msg, len);
    }
    break;
  }
  case 1: {
    fo__hop_res r;
    if ((rc = fo__dec_hop_res(msg, len, n_nodes, n_edges, &r)) == FO_OK) {
      int64_t s = 0;
      for (int64_t i = 0; i < r.n; i++) s += r.counts[i];
      if (s != r.n_edges) abort();
      for (int64_t e = 0; e < r.n_edges; e++)
        if (r.nbr[e] < 0 || r.nbr[e] >= n_nodes || r.eid[e] < 0 || r.eid[e] >= n_edges) abort();
      if (fo__enc_hop_res(&b, &r) != FO_OK) abort();
      same(&b, msg, len);
    }
    break;
  }
  case 2: {
    fo__fetch_req r;
    if ((rc = fo__dec_fetch_req(msg, len, n_nodes, 2, &r)) == FO_OK) {
      if (fo__enc_fetch_req(&b, &r) != FO_OK) abort();
      same(&b, msg, len);
    }
    break;
  }
  case 3: {
    fo__fetch_res r;
    int64_t want = len >= 24 ? msg[2] : 0;
    if ((rc = fo__dec_fetch_res(msg, len, want, &r)) == FO_OK) {
      volatile unsigned char sink = 0;
      if (r.x && r.n > 0 && r.row_bytes > 0) sink ^= r.x[r.n * r.row_bytes - 1];
      if (r.y && r.n) sink ^= (unsigned char)r.y[r.n - 1];
      (void)sink;
    }
    break;
  }
  case 4:
    rc = fo__dec_error(msg, len);
    if (rc >= 0) abort();
    break;
  case 5:
    rc = fo__msg_kind(msg, len);
    break;
  default: {
    /* the server, and the caller decoding its answer */
    int kind = fo__msg_kind(msg, len);
    if (fo__server_answer(&g_sv, msg, len) != FO_OK) abort();
    void *out = g_sv.out.w;
    size_t olen = (size_t)g_sv.out.n * 8;
    int ok = fo__msg_kind(out, olen);
    if (ok == FO_MSG_ERROR) {
      if (fo__dec_error(out, olen) == FO_EFORMAT && strstr(fo_last_error(), "malformed error")) abort();
    } else if (kind == FO_MSG_HOP) {
      fo__hop_res r;
      if (ok != FO_MSG_HOP_RESP || fo__dec_hop_res(out, olen, n_nodes, n_edges, &r) != FO_OK) abort();
    } else if (kind == FO_MSG_FETCH) {
      fo__fetch_res r;
      if (ok != FO_MSG_FETCH_RESP || fo__dec_fetch_res(out, olen, msg[4], &r) != FO_OK) abort();
    } else {
      abort(); /* anything else must be refused */
    }
    break;
  }
  }
  (void)rc;
  fo__buf_free(&b);
  free(msg);
  return 0;
}
