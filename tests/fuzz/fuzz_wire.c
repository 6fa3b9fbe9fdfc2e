/*
 * Harness "wire": the MPI wire format (dist/codec.c): every decoder on arbitrary bytes, the
 * encoders' output decoded back to the same message, and the server (dist/server.c) answering
 * arbitrary requests from part 0 of the 2-part Cora fixture, its answer decoded as the caller
 * would.
 * Input: byte 0: bits 0-2 the decoder (hop req, hop resp, fetch req, fetch resp, error, kind,
 * server), bit 3: write a valid header (magic, kind, word count) over the first 16 bytes, so
 * mutations reach the payload, bit 4: the server's header kind is a fetch (else a hop), bit 5:
 * typed: the decoders of HOPS, HOPS_RESP, FETCHES, FETCHES_RESP and the server of part 0 of the
 * 2-part typed Cora fixture ("typed2": paper and class nodes, four edge types, features and
 * labels of papers); bit 6: LINK (0 request, 1 response, else the server); bit 7: LABEL (ABLP
 * supervision rows, dist/ablp_dist.c) over part 0 of "typedl2" (typed Cora with labels-only
 * types paper likes class and paper dislikes class): bits 0-2 0 the request decoder
 * (re-encoded equal), 1 the response decoder (bit 4: hard negatives asked), else the server,
 * its answer decoded as the caller would; then the message bytes.
 * Promise: a malformed message is FO_EFORMAT, never a crash or a read past its length; every
 * decoded id lies in the graph; the server answers anything with a response or an ERROR message
 * that decodes, and no answer is larger than the transport's limit (1 MiB here).
 */
#include "dist/dist_internal.h"
#include "fixture.h"
#include "fuzz.h"

#include <stdlib.h>

static fo_dataset_t *g_d, *g_td, *g_ld;
static fo__server g_sv, g_tsv, g_lsv;

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
  if (fo_dataset_open(fz_fixture(5), NULL, &g_td) != FO_OK) fz_die("open typed fixture", fo_last_error());
  if (fo__server_init(&g_tsv, g_td, 0) != FO_OK) fz_die("typed server init", fo_last_error());
  g_tsv.max_answer_words = (1 << 20) / 8;
  if (fo_dataset_open(fz_fixture(FZ_FIXTURE_TYPEDL2), NULL, &g_ld) != FO_OK)
    fz_die("open labels fixture", fo_last_error());
  if (fo__server_init(&g_lsv, g_ld, 0) != FO_OK) fz_die("labels server init", fo_last_error());
  g_lsv.max_answer_words = (1 << 20) / 8;
  return 0;
}

static void same(const fo__buf *b, const void *msg, size_t len) {
  if ((size_t)b->n * 8 != len || memcmp(b->w, msg, len)) abort();
}

/* LABEL (sel & 128): the request decoder, the response decoder, the server of part 0 of
 * "typedl2" and the caller's decoding of its answer. */
static void label(int which, uint8_t sel, int64_t *msg, size_t len) {
  fo__buf b = {0};
  fo__label_req q;
  fo__label_res r;
  const int32_t NL = fo_dataset_num_label_edge_types(g_ld);
  if ((sel & 8) && len >= 16) {
    msg[0] = (int64_t)(FO_MSG_MAGIC | (uint64_t)(which == 1 ? FO_MSG_LABEL_RESP : FO_MSG_LABEL) << 32);
    msg[1] = (int64_t)(len / 8 - 2);
  }
  if (which == 0) {
    if (fo__dec_label_req(msg, len, g_ld, &q) == FO_OK) {
      fo_edge_type ty;
      if (q.P < 0 || q.P >= NL || q.N < -1 || q.N >= NL ||
          fo_dataset_label_edge_type(g_ld, q.P, &ty) != FO_OK)
        abort();
      for (int64_t i = 0; i < q.n; i++)
        if (q.anchors[i] < 0 || q.anchors[i] >= fo_dataset_num_nodes(fo_dataset_node_data(g_ld, ty.src_type)))
          abort();
      if (fo__enc_label_req(&b, &q) != FO_OK) abort();
      same(&b, msg, len);
    }
  } else if (which == 1) {
    /* as many anchors as the response says; the label nodes: papers or classes */
    const int64_t n = len >= 24 ? msg[2] : 0, nd = (sel & 16) ? 7 : 2708;
    if (fo__dec_label_res(msg, len, n, sel & 16, nd, &r) == FO_OK) {
      int64_t sp = 0, sn = 0;
      for (int64_t i = 0; i < r.n; i++) {
        sp += r.pcount[i];
        sn += r.ncount[i];
      }
      if (sp != r.n_p || sn != r.n_n || (!(sel & 16) && sn)) abort();
      for (int64_t i = 0; i < r.n_p; i++) if (r.pid[i] < 0 || r.pid[i] >= nd) abort();
      for (int64_t i = 0; i < r.n_n; i++) if (r.nid[i] < 0 || r.nid[i] >= nd) abort();
      if (fo__enc_label_res(&b, &r) != FO_OK) abort();
      same(&b, msg, len);
    }
  } else {
    const void *ans;
    size_t alen;
    int ok;
    if (fo__server_answer(&g_lsv, msg, len) != FO_OK) abort();
    ans = g_lsv.out.w;
    alen = (size_t)g_lsv.out.n * 8;
    if (g_lsv.out.n > g_lsv.max_answer_words) abort(); /* over the transport's limit */
    ok = fo__msg_kind(ans, alen);
    if (ok == FO_MSG_ERROR) {
      if (fo__dec_error(ans, alen) >= 0) abort();
    } else if (fo__msg_kind(msg, len) == FO_MSG_LABEL) {
      /* answered: the request decodes, and so does its answer, with every id a label node */
      fo_edge_type ty;
      if (ok != FO_MSG_LABEL_RESP || fo__dec_label_req(msg, len, g_ld, &q) != FO_OK ||
          fo_dataset_label_edge_type(g_ld, q.P, &ty) != FO_OK ||
          fo__dec_label_res(ans, alen, q.n, q.N >= 0,
                            fo_dataset_num_nodes(fo_dataset_node_data(g_ld, ty.dst_type)), &r) != FO_OK)
        abort();
    }
  }
  fo__buf_free(&b);
}


#define MAX_GROUPS 16

/* Nodes of edge type et's frontier (frontier) or neighbor side in direction `out`. */
static int64_t side(int32_t et, bool out, bool frontier) {
  fo_edge_type ty;
  if (fo_dataset_edge_type(g_td, et, &ty) != FO_OK) abort();
  return fo_dataset_num_nodes(fo_dataset_node_data(g_td, (out == frontier) ? ty.src_type : ty.dst_type));
}

/* The groups a typed response answers, read from the response itself (as if the caller had
 * asked for exactly what it holds): group i has edge type i and the node count at its place;
 * for fetches, x and y as its flags say. Returns the number of groups (0 if the walk fails). */
static int32_t groups_of(const int64_t *msg, size_t len, bool fetch, fo__hop_req *hg, fo__fetch_req *fg) {
  int64_t np = (int64_t)(len / 8), at = 3, G;
  if (np < 3) return 0;
  G = msg[2];
  if (G < 0 || G > MAX_GROUPS) return 0;
  for (int32_t i = 0; i < G; i++) {
    int64_t n, w;
    if (at + (fetch ? 4 : 2) > np) return 0;
    n = msg[at];
    if (n < 0 || n > np) return 0;
    if (fetch) {
      int64_t rb = msg[at + 1];
      if (rb < 0 || rb > np * 8 || (n && rb > np * 8 / n)) return 0;
      memset(&fg[i], 0, sizeof fg[i]);
      fg[i].n = n;
      fg[i].x = msg[at + 2] != 0;
      fg[i].y = msg[at + 3] != 0;
      w = 4 + (fg[i].x ? (n * rb + 7) / 8 : 0) + (fg[i].y ? n : 0);
    } else {
      int64_t E = msg[at + 1];
      if (E < 0 || E > np) return 0;
      memset(&hg[i], 0, sizeof hg[i]);
      hg[i].etype = i;
      hg[i].n = n;
      w = 2 + n + 2 * E;
    }
    if (w > np - at) return 0;
    at += w;
  }
  return (int32_t)G;
}

/* Typed messages: decoders 0-3 and the typed server (6, 7). */
static void typed(int which, const int64_t *msg, size_t len, bool out_dir) {
  static fo__hop_req hg[MAX_GROUPS];
  static fo__fetch_req fg[MAX_GROUPS];
  static fo__hop_res hr[MAX_GROUPS];
  static fo__fetch_res fr[MAX_GROUPS];
  static int32_t nt[MAX_GROUPS];
  const int32_t n_et = fo_dataset_num_edge_types(g_td), n_nt = fo_dataset_num_node_types(g_td);
  fo__buf b = {0};
  int32_t G = 0;
  int rc;
  switch (which) {
  case 0:
    if ((rc = fo__dec_hops_req(msg, len, g_td, hg, n_et, &G)) == FO_OK && G > 0) {
      for (int32_t i = 0; i < G; i++) {
        int64_t bound = side(hg[i].etype, hg[i].out, true);
        for (int64_t j = 0; j < hg[i].n; j++)
          if (hg[i].nodes[j] < 0 || hg[i].nodes[j] >= bound) abort();
      }
      if (fo__enc_hops_req(&b, hg, G) != FO_OK) abort();
      same(&b, msg, len);
    }
    break;
  case 1:
    G = groups_of(msg, len, false, hg, fg);
    for (int32_t i = 0; i < G; i++) {
      if (i >= n_et) return;
      hg[i].out = out_dir;
    }
    if (fo__dec_hops_res(msg, len, g_td, hg, G, hr) == FO_OK) {
      if (fo__enc_hops_res_begin(&b) != FO_OK) abort();
      for (int32_t i = 0; i < G; i++) {
        int64_t s = 0, nb = side(i, out_dir, false);
        fo_edge_type ty;
        if (fo_dataset_edge_type(g_td, i, &ty) != FO_OK) abort();
        for (int64_t j = 0; j < hr[i].n; j++) s += hr[i].counts[j];
        if (s != hr[i].n_edges) abort();
        for (int64_t e = 0; e < hr[i].n_edges; e++)
          if (hr[i].nbr[e] < 0 || hr[i].nbr[e] >= nb || hr[i].eid[e] < 0 || hr[i].eid[e] >= ty.n_edges) abort();
        if (fo__enc_hops_res_add(&b, &hr[i]) != FO_OK) abort();
      }
      same(&b, msg, len);
    }
    break;
  case 2:
    if ((rc = fo__dec_fetches_req(msg, len, g_td, fg, nt, n_nt, &G)) == FO_OK) {
      for (int32_t i = 0; i < G; i++) {
        int64_t bound = fo_dataset_num_nodes(fo_dataset_node_data(g_td, nt[i]));
        for (int64_t j = 0; j < fg[i].n; j++)
          if (fg[i].nodes[j] < 0 || fg[i].nodes[j] >= bound) abort();
      }
      if (fo__enc_fetches_req(&b, G ? fg[0].part : (int32_t)msg[2], fg, nt, G) != FO_OK) abort();
      same(&b, msg, len);
    }
    break;
  case 3:
    G = groups_of(msg, len, true, hg, fg);
    if (fo__dec_fetches_res(msg, len, fg, G, fr) == FO_OK) {
      volatile unsigned char sink = 0;
      if (fo__enc_fetches_res_begin(&b) != FO_OK) abort();
      for (int32_t i = 0; i < G; i++) {
        if (fr[i].x && fr[i].n > 0 && fr[i].row_bytes > 0) sink ^= fr[i].x[fr[i].n * fr[i].row_bytes - 1];
        if (fr[i].y && fr[i].n) sink ^= (unsigned char)fr[i].y[fr[i].n - 1];
        if (fo__enc_fetches_res_add(&b, &fr[i]) != FO_OK) abort();
      }
      (void)sink;
      /* the padding of x is not compared: the encoder writes zeros there */
      if ((size_t)b.n * 8 != len) abort();
    }
    break;
  default: {
    /* the typed server, and the caller decoding its answer with the groups it asked for */
    int kind = fo__msg_kind(msg, len), ok;
    const void *ans;
    size_t alen;
    if (fo__server_answer(&g_tsv, msg, len) != FO_OK) abort();
    ans = g_tsv.out.w;
    alen = (size_t)g_tsv.out.n * 8;
    if (g_tsv.out.n > g_tsv.max_answer_words) abort(); /* over the transport's limit (class 9) */
    ok = fo__msg_kind(ans, alen);
    if (ok == FO_MSG_ERROR) {
      if (fo__dec_error(ans, alen) == FO_EFORMAT && strstr(fo_last_error(), "malformed error")) abort();
    } else if (kind == FO_MSG_HOPS) {
      if (ok != FO_MSG_HOPS_RESP || fo__dec_hops_req(msg, len, g_td, hg, n_et, &G) != FO_OK ||
          fo__dec_hops_res(ans, alen, g_td, hg, G, hr) != FO_OK)
        abort();
    } else if (kind == FO_MSG_FETCHES) {
      if (ok != FO_MSG_FETCHES_RESP || fo__dec_fetches_req(msg, len, g_td, fg, nt, n_nt, &G) != FO_OK ||
          fo__dec_fetches_res(ans, alen, fg, G, fr) != FO_OK)
        abort();
    } else if (kind == FO_MSG_LINK) {
      if (ok != FO_MSG_LINK_RESP) abort(); /* a typed part answers LINK (its decoders: sel & 64) */
    } else {
      abort(); /* the one-type requests are refused by a typed part */
    }
    break;
  }
  }
  fo__buf_free(&b);
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
  static const int typed_kind_of[7] = {FO_MSG_HOPS, FO_MSG_HOPS_RESP, FO_MSG_FETCHES,
                                       FO_MSG_FETCHES_RESP, FO_MSG_ERROR, FO_MSG_HOPS, FO_MSG_FETCHES};
  memcpy(msg, in.p, len);
  if ((sel & 8) && len >= 16 && which < 7) {
    const int *ko = (sel & 32) ? typed_kind_of : kind_of;
    int kind = which == 6 ? ((sel & 16) ? ko[6] : ko[5]) : ko[which];
    msg[0] = (int64_t)(FO_MSG_MAGIC | (uint64_t)kind << 32);
    msg[1] = (int64_t)(len / 8 - 2);
  }
  if (sel & 128) {
    label(which, sel, msg, len);
    free(msg);
    return 0;
  }
  if ((sel & 32) && (which <= 3 || which >= 6)) {
    typed(which, msg, len, sel & 16);
    free(msg);
    return 0;
  }
  if (sel & 64) {
    /* LINK (dist/link_dist.c): request decoder (re-encoded equal), response decoder, server */
    const int kind = which == 1 ? FO_MSG_LINK_RESP : FO_MSG_LINK;
    const fo_dataset_t *d = (sel & 32) ? g_td : g_d;
    fo__server *sv = (sel & 32) ? &g_tsv : &g_sv;
    fo__link_req q;
    fo__link_res r;
    if ((sel & 8) && len >= 16) {
      msg[0] = (int64_t)(FO_MSG_MAGIC | (uint64_t)kind << 32);
      msg[1] = (int64_t)(len / 8 - 2);
    }
    if (which == 0 && fo__dec_link_req(msg, len, d, &q) == FO_OK) {
      if (fo__enc_link_req(&b, &q) != FO_OK) abort();
      same(&b, msg, len);
    } else if (which == 1) {
      /* the pairs asked: membership only, as many as the response says (or none) */
      const int64_t n = len >= 24 ? msg[2] : 0;
      int64_t *pairs = n > 0 && n < (int64_t)len ? calloc((size_t)(3 * n), sizeof *pairs) : NULL;
      for (int64_t i = 0; pairs && i < n; i++) pairs[3 * i] = (sel & 16) ? (int64_t)1 << 32 : 0;
      if (fo__dec_link_res(msg, len, pairs, pairs ? n : 0, &r) == FO_OK) {
        if (fo__enc_link_res(&b, &r) != FO_OK) abort();
        same(&b, msg, len);
      }
      free(pairs);
    } else if (which >= 2) {
      if (fo__server_answer(sv, msg, len) != FO_OK) abort();
      if (fo__msg_kind(sv->out.w, (size_t)sv->out.n * 8) == FO_MSG_ERROR) {
        if (fo__dec_error(sv->out.w, (size_t)sv->out.n * 8) >= 0) abort();
      } else if (fo__msg_kind(msg, len) == FO_MSG_LINK &&
                 (fo__dec_link_req(msg, len, d, &q) != FO_OK ||
                  fo__dec_link_res(sv->out.w, (size_t)sv->out.n * 8, q.pairs, q.n, &r) != FO_OK)) {
        /* a LINK request the server answered must decode, and so must its answer; any other
           kind of message (no forced header) is answered by its own handler, checked above */
        abort();
      }
    }
    fo__buf_free(&b);
    free(msg);
    return 0;
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
    if (g_sv.out.n > g_sv.max_answer_words) abort(); /* over the transport's limit (class 9) */
    int ok = fo__msg_kind(out, olen);
    if (ok == FO_MSG_ERROR) {
      if (fo__dec_error(out, olen) == FO_EFORMAT && strstr(fo_last_error(), "malformed error")) abort();
    } else if (kind == FO_MSG_HOP) {
      fo__hop_res r;
      if (ok != FO_MSG_HOP_RESP || fo__dec_hop_res(out, olen, n_nodes, n_edges, &r) != FO_OK) abort();
    } else if (kind == FO_MSG_FETCH) {
      fo__fetch_res r;
      if (ok != FO_MSG_FETCH_RESP || fo__dec_fetch_res(out, olen, msg[4], &r) != FO_OK) abort();
    } else if (kind == FO_MSG_LINK) {
      if (ok != FO_MSG_LINK_RESP) abort(); /* answered (its decoders: sel & 64) */
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
