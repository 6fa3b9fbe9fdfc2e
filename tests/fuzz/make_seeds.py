#!/usr/bin/python3
"""Regenerate the seed corpora of tests/fuzz/corpus/<harness>/ from small excerpts of the real
graphs in ../shared/data and data/ (run from the repository root:
`/usr/bin/python3 tests/fuzz/make_seeds.py [FIXTURE_DIR]`). FIXTURE_DIR, when given, holds the
Cora fixtures (fixture-cora, fixture-cora2, fixture-cora3, fixture-coraw, fixture-typed, as
fixture.c makes them; FO_FUZZ_KEEP=1 keeps them) whose manifests and .npy headers seed the
manifest, typed_manifest and npy_header harnesses."""
import gzip, io, os, struct, sys
import numpy as np

ROOT = os.getcwd()
SHARED = os.path.join(ROOT, "..", "shared", "data")
OUT = os.path.join(ROOT, "tests", "fuzz", "corpus")


def put(h, name, data):
    d = os.path.join(OUT, h)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)


def head(path, n, skip=0):
    op = gzip.open if path.endswith(".gz") else open
    with op(path, "rb") as f:
        lines = f.read().split(b"\n")
    return b"\n".join(lines[skip:skip + n]) + b"\n"


# edgelist: flag byte + an excerpt
for name, path, flags in [
    ("facebook", "facebook-combined/facebook_combined.tsv.gz", 0),
    ("facebook-gz-relabel", "facebook-combined/facebook_combined.tsv.gz", 32 | 2),
    ("collegemsg-3col", "collegemsg/CollegeMsg.txt.gz", 0),
    ("enron-numnodes", "email-enron/email-Enron.undirected.tsv.gz", 4),
    ("hepph-swapped", "cit-hepph/cit-HepPh.tsv.gz", 8),
    ("wordnet-strings", "wordnet30/wordnet30_edges.tsv.gz", 1),
    ("debian-strings", "debian-deps-bookworm/debian_bookworm_amd64_edges.tsv.gz", 1),
    ("jodie-csv", "jodie-wikipedia/wikipedia.csv.gz", 0),
]:
    put("edgelist", name, bytes([flags]) + head(os.path.join(SHARED, path), 60))
# value columns: CollegeMsg's UNIX times (--time-col 2), the same as ISO 8601 date-times
# (--time-format iso8601), and as weights (--weight-col 2)
import datetime
cm = head(os.path.join(SHARED, "collegemsg/CollegeMsg.txt.gz"), 40)
put("edgelist", "collegemsg-timecol", bytes([64]) + cm)
put("edgelist", "collegemsg-weightcol", bytes([128]) + cm)
iso = b"".join(b"%s %s %s\n" % (a, b, datetime.datetime.fromtimestamp(int(t), datetime.timezone.utc)
                                  .strftime("%Y-%m-%dT%H:%M:%SZ").encode())
               for a, b, t in (l.split() for l in cm.split(b"\n") if l))
put("edgelist", "collegemsg-iso8601", bytes([64 | 128]) + iso + b"1 2 2004-02-30\n")
put("edgelist", "two-files", bytes([16]) + head(os.path.join(SHARED, "facebook-combined/facebook_combined.tsv.gz"), 30)
    + b"\0" + head(os.path.join(SHARED, "facebook-combined/facebook_combined.tsv.gz"), 30, 30))

# planetoid: flag byte + content excerpt + NUL + cites among those papers (+ a few unknown ids)
for ds, flags in [("cora", 0), ("citeseer", 1), ("cora", 2 | 4)]:
    content = head(os.path.join(SHARED, ds, ds + ".content.gz"), 25).rstrip(b"\n").split(b"\n")
    # keep 40 feature columns: the format, not the width, is what a parser meets
    rows = [l.split(b"\t") for l in content]
    rows = [r[:1] + r[1:41] + r[-1:] for r in rows]
    ids = {r[0] for r in rows}
    with open(os.path.join(SHARED, ds, ds + ".cites"), "rb") as f:
        cites = [l for l in f.read().split(b"\n") if l]
    inside = [l for l in cites if all(t in ids for t in l.split(b"\t"))][:30]
    some = [l for l in cites if any(t in ids for t in l.split(b"\t"))][:10]
    put("planetoid", ds + "-%d" % flags, bytes([flags]) + b"\n".join(b"\t".join(r) for r in rows) + b"\n"
        + b"\0" + b"\n".join(inside + some) + b"\n")

# mtx: excerpts of Cora and facebook as Matrix Market
def mtx(edges, n, field="pattern", sym="general"):
    s = b"%%%%MatrixMarket matrix coordinate %s %s\n%% excerpt\n%d %d %d\n" % (field.encode(), sym.encode(), n, n, len(edges))
    for i, (a, b) in enumerate(edges):
        s += b"%d %d" % (a + 1, b + 1) + (b" %d" % (i % 7) if field == "integer" else b" %.3f" % (i / 7) if field == "real" else b"") + b"\n"
    return s
fb = [tuple(map(int, l.split()[:2])) for l in head(os.path.join(SHARED, "facebook-combined/facebook_combined.tsv.gz"), 60).split(b"\n") if l and not l.startswith(b"#")][:50]
nfb = max(max(e) for e in fb) + 1
put("mtx", "facebook-pattern", b"\0" + mtx(fb, nfb))
put("mtx", "facebook-integer-symmetric", b"\0" + mtx(fb, nfb, "integer", "symmetric"))
put("mtx", "facebook-real-relabel", b"\1" + mtx(fb, nfb, "real"))
put("mtx", "facebook-real-weights", b"\4" + mtx(fb, nfb, "real"))

# npy_edges: numpy.save of excerpts (int64 C order, int32 Fortran order)
def npy(a):
    b = io.BytesIO()
    np.save(b, a)
    return b.getvalue()
ei = np.array(fb, dtype=np.int64).T.copy()
put("npy_edges", "facebook-i8", b"\0" + npy(ei))
put("npy_edges", "facebook-i4-fortran", b"\1" + npy(np.asfortranarray(ei.astype(np.int32))))
put("npy_edges", "facebook-i8-numnodes", b"\2" + npy(ei[:, :10].copy()))

# npy_header: numpy's own headers (versions 1.0, 2.0, 3.0) of arrays like the dataset's
for name, a in [("i8-1d", np.arange(5, dtype=np.int64)), ("f4-2d", np.zeros((3, 4), np.float32)),
                ("u1", np.zeros(7, np.uint8)), ("u2", np.zeros(9, np.uint16)), ("S12", np.array([b"abc"], "S12")),
                ("i4-fortran", np.asfortranarray(np.zeros((2, 3), np.int32)))]:
    put("npy_header", name, npy(a)[:160])
for ver in [(2, 0), (3, 0)]:
    b = io.BytesIO()
    np.lib.format.write_array(b, np.arange(3, dtype=np.int64), version=ver)
    put("npy_header", "v%d" % ver[0], b.getvalue()[:160])

# wire: real messages over Cora's node ids (formats in src/dist/dist_internal.h)
MAGIC = 0x4d4f4631
def msg(kind, words):
    return struct.pack("<%dq" % (2 + len(words)), MAGIC | kind << 32, len(words), *words)
nodes = [0, 5, 17, 633, 2700]
hop = msg(1, [7, 0, 3, 0, 10, 0, 0, len(nodes)] + nodes)
hopd = msg(1, [7, 1, 3, 1, -1, 3, 0, 2, 4, 8, 0, 1])
fetch = msg(2, [3, 0, len(nodes)] + nodes)
# weighted (flag 8); temporal (flag 16, disjoint): mode (1 uniform | 256 node times | 512
# strict), window, then nodes, trees, times
hopw = msg(1, [7, 0, 3, 0, 10, 8, 0, len(nodes)] + nodes)
hopt = msg(1, [7, 1, 3, 1, 5, 18, 0, 2, 1 | 512, 30, 4, 8, 0, 1, 100, 200])
hoptn = msg(1, [7, 1, 3, 0, -1, 19, 0, 2, 2 | 256, -1, 4, 8, 1, 0, 50, 60])
hopres = msg(3, [2, 3, 1, 2, 10, 11, 12, 100, 200, 300])
fres = msg(4, [2, 3, 1, 1, 0x010203, 0x040506, 1, 2])
err = msg(5, [-4, 5, struct.unpack("<q", b"bad\0\0\0\0\0")[0]])
for sel, name, m in [(0, "hop-req", hop), (0, "hop-req-disjoint", hopd), (1, "hop-resp", hopres),
                     (2, "fetch-req", fetch), (3, "fetch-resp", fres), (4, "error", err), (5, "kind", hop),
                     (6, "server-hop", hop), (6, "server-hop-disjoint", hopd), (6, "server-fetch", fetch),
                     (14, "server-hop-hdr", hop), (30, "server-fetch-hdr", fetch),
                     (0, "hop-req-weighted", hopw), (0, "hop-req-temporal", hopt),
                     (0, "hop-req-temporal-node", hoptn), (6, "server-hop-weighted", hopw),
                     (6, "server-hop-temporal", hopt), (6, "server-hop-temporal-node", hoptn)]:
    put("wire", name, bytes([sel]) + m)

# wire, typed (selector bit 5; part 0 of the 2-part typed Cora fixture: node types paper 0 and
# class 1; edge types 0 paper__has_class__class, 1 paper__cites__paper, 2
# class__rev_has_class__paper; part 0 owns papers 0, 2, 4, ... and classes 0, 2, 4, 6):
# HOPS, HOPS_RESP, FETCHES, FETCHES_RESP and the typed server
hops = msg(6, [7, 0, 3, 0, 0, 0, 2, 0, 10, 2, 0, 2, 1, 5, 3, 2, 4, 8])
hopsd = msg(6, [7, 1, 3, 1, 2 | 4, 0, 1, 0, -1, 2, 4, 8, 0, 1])  # out: frontier papers
hopsr = msg(7, [2, 2, 3, 1, 2, 10, 11, 12, 100, 200, 300, 1, 1, 1, 3, 7])
fetches = msg(8, [0, 2, 0, 3, 3, 0, 4, 18, 1, 2, 1, 2])
fetchesr = msg(9, [1, 2, 3, 1, 1, 0x010203, 0x040506, 1, 2])
for sel, name, m in [(32, "typed-hops-req", hops), (32, "typed-hops-req-disjoint-out", hopsd),
                     (33, "typed-hops-resp", hopsr), (34, "typed-fetches-req", fetches),
                     (35, "typed-fetches-resp", fetchesr), (38, "typed-server-hops", hops),
                     (38, "typed-server-hops-out", hopsd), (38, "typed-server-fetches", fetches),
                     (32 | 14, "typed-server-hops-hdr", hops), (32 | 30, "typed-server-fetches-hdr", fetches),
                     (32 | 6, "typed-server-hops-replace", msg(6, [7, 0, 3, 0, 1, 0, 1, 1, 1 << 20, 2, 4, 8]))]:
    put("wire", name, bytes([sel]) + m)
# typed HOPS with the mode fields: weighted (flag 8, with and without replacement), temporal
# (flag 16 with disjoint 2: mode words after G, as in HOP: strategy 1 uniform / 2 last, 256 node
# times, 512 strict; window, -1 none; then per group nodes, trees, times), both together, and
# the out direction (4). The typed fixture's part has no weights or times, so its server answers
# these with an ERROR naming what the part lacks; the decoders parse every field.
hopsw = msg(6, [7, 0, 3, 0, 8, 0, 2, 0, 10, 2, 0, 2, 1, 5, 3, 2, 4, 6])
hopswr = msg(6, [7, 0, 3, 1, 8 | 1, 0, 1, 1, 25, 2, 2, 4])
hopst = msg(6, [7, 1, 3, 1, 2 | 16, 0, 1, 1, 30, 1, 5, 2, 2, 4, 0, 1, 100, 200])
hopstn = msg(6, [7, 1, 3, 0, 2 | 4 | 16, 0, 2, 2 | 256 | 512, -1,
                 0, -1, 1, 0, 0, 50, 1, 3, 2, 2, 4, 0, 1, 50, 60])
hopswt = msg(6, [7, 2, 3, 2, 1 | 2 | 8 | 16, 0, 1, 1 | 512, 10, 1, 4, 2, 0, 6, 1, 1, -5, 1 << 40])
for base, m in [("weighted", hopsw), ("weighted-replace", hopswr), ("temporal", hopst),
                ("temporal-node-strict-out", hopstn), ("weighted-temporal", hopswt)]:
    put("wire", "typed-hops-req-" + base, bytes([32]) + m)
    put("wire", "typed-server-hops-" + base, bytes([38]) + m)
put("wire", "typed-server-hops-hdr-temporal", bytes([32 | 14]) + hopst)

# wire, LINK (selector bit 6: 64 request, 65 response, 66 server; | 32 typed, | 16 the response's
# pairs want positions): pairs (etype | want << 32, row, nbr); and HOP / HOPS with seed-edge
# exclusion (flag 32: n_x, xcount[n], xpos[n_x] after the node arrays)
link = msg(10, [0, 2, 0, 4, 5, 1 << 32, 8, 17])
linkr = msg(11, [2, 2, 1, 1, 7, 9])
hopx = msg(1, [7, 0, 3, 0, 10, 32, 0, 2, 4, 8, 1, 1, 0, 3])
hopsx = msg(6, [7, 0, 3, 0, 32, 0, 1, 1, 10, 2, 4, 8, 2, 0, 2, 1, 5])
for sel, name, m in [(64, "link-req", link), (65 | 16, "link-resp", linkr), (66, "server-link", link),
                     (66 | 32, "typed-server-link", msg(10, [0, 1, 1, 4, 2])),
                     (0, "hop-req-excl", hopx), (6, "server-hop-excl", hopx),
                     (32, "typed-hops-req-excl", hopsx), (38, "typed-server-hops-excl", hopsx)]:
    put("wire", name, bytes([sel]) + m)

# wire, LABEL (selector bit 7: 128 request, 129 response (| 16: hard negatives asked), 130
# server, | 8 header forced; part 0 of "typedl2", the typed fixture with labels-only types 0
# paper__likes__class (positive) and 1 paper__dislikes__class (negative): part 0 owns papers
# 0, 2, 4, ...): part, P, N, n, anchors; n, n_p, n_n, pcount[n], ncount[n], pid, nid
label = msg(12, [0, 0, 1, 3, 0, 2, 4])
labelr = msg(13, [2, 3, 1, 2, 1, 0, 1, 0, 1, 6, 3])
for sel, name, m in [(128, "label-req", label), (129 | 16, "label-resp", labelr),
                     (130, "server-label", label), (130 | 8, "server-label-hdr", label),
                     (130, "server-label-positives", msg(12, [0, 0, -1, 2, 6, 8])),
                     (130, "server-label-wrong-part", msg(12, [0, 0, 1, 2, 1, 3]))]:
    put("wire", name, bytes([sel]) + m)

# book: no change, and a few small corruptions (records: array, offset u16, len, bytes)
put("book", "pristine", b"\x00")
put("book", "book-entry", b"\x05" + bytes([0, 10, 0, 1, 1]))
put("book", "row-rank", b"\x03" + bytes([1, 4, 0, 1, 2]))
put("book", "both", b"\x07" + bytes([0, 64, 0, 2, 1, 1]) + bytes([2, 8, 0, 1, 0x80]))
# typed (arrays 3-8: paper and class books, their rank directories in parts 0 and 1)
put("book", "typed-pristine", b"\x00" + bytes([3, 0, 0, 0]))
put("book", "typed-paper-book", b"\x05" + bytes([3, 10, 0, 1, 1]))
put("book", "typed-class-book", b"\x03" + bytes([4, 2, 0, 1, 1]))
put("book", "typed-row-rank", b"\x01" + bytes([5, 4, 0, 1, 2]) + bytes([8, 0, 0, 1, 1]))

# typed_import: Cora's excerpt as one typed edge list "src rel dst" (cites, has_class) and its
# --node-types file; DBLP's paper-author pairs with a relation column in other layouts
content = head(os.path.join(SHARED, "cora", "cora.content.gz"), 20).rstrip(b"\n").split(b"\n")
papers = [l.split(b"\t")[0] for l in content]
classes = [l.split(b"\t")[-1] for l in content]
with open(os.path.join(SHARED, "cora", "cora.cites"), "rb") as f:
    cites = [l.split(b"\t") for l in f.read().split(b"\n") if l]
pset = set(papers)
cl = [c for c in cites if c[0] in pset and c[1] in pset][:20] + [c for c in cites if c[1] in pset][:10]
lines = [b"%s has_class C_%s" % (p, c) for p, c in zip(papers, classes)] + [b"%s cites %s" % (b, a) for a, b in cl]
types = b"".join(b"%s\tpaper\n" % p for p in papers)
put("typed_import", "cora-one-file", bytes([0x10 | 0x02]) + b"\n".join(lines) + b"\n\0" + types)
put("typed_import", "cora-strings-undirected", bytes([0x10 | 0x04 | 0x01 | 0x20]) + b"\n".join(lines) + b"\n\0" + types)
pa = [l.split(b"\t") for l in head(os.path.join(SHARED, "dblp-hetero", "dblp_paper_author.tsv.gz"), 30).split(b"\n") if l]
dblp_types = b"".join(b"p%s\tpaper\n" % a for a, _ in pa) + b"".join(b"a%s\tauthor\n" % b for _, b in pa)
put("typed_import", "dblp-src-dst-rel", bytes([0x40 | 0x01 | 0x08]) + b"".join(b"p%s\ta%s\twrites\n" % (a, b) for a, b in pa) + b"\0" + dblp_types)
put("typed_import", "dblp-rel-src-dst", bytes([0x80 | 0x01 | 0x02]) + b"".join(b"writes,p%s,a%s\n" % (a, b) for a, b in pa) + b"\0" + dblp_types)

# typed_files: DBLP's edge files (paper-author, paper-conference, paper-term) and a paper-paper
# type made from DBLP's paper-author pairs, one file per edge type (fuzz_typed_files.c's table)
def dblp(name, n):
    return head(os.path.join(SHARED, "dblp-hetero", name), n)
pa_f, pc_f, pt_f = dblp("dblp_paper_author.tsv.gz", 40), dblp("dblp_paper_conference.tsv.gz", 30), dblp("dblp_paper_term.tsv.gz", 40)
pp_f = b"".join(b"%s\t%s\n" % (a, b) for (a, _), (b, _) in zip(pa[:-1], pa[1:]))
put("typed_files", "dblp-four", bytes([0, 3]) + b"\0".join([pa_f, pc_f, pt_f, pp_f]))
put("typed_files", "dblp-two-reverse-csr", bytes([2 | 16, 1]) + b"\0".join([pa_f, pc_f]))
put("typed_files", "dblp-strings-dedup", bytes([1 | 8, 2 | 0x40]) + b"\0".join([pc_f, pt_f, pp_f]))
put("typed_files", "dblp-paper-paper-undirected", bytes([4, 0xc0 | 4]) + pp_f)
paper_ids = b"".join(b"%d\n" % i for i in range(60))
put("typed_files", "dblp-node-ids", bytes([32, 1]) + b"\0".join([pa_f, pc_f, paper_ids]))
put("typed_files", "dblp-num-nodes-conference", bytes([64, 1 | (4 << 3)]) + b"\0".join([pa_f, pc_f]))
w = struct.pack("<%df" % 40, *[1.0 + (i % 5) for i in range(40)])
put("typed_files", "dblp-weights", bytes([128 | 2, 0]) + pa_f + b"\0" + w)

# ogb: Cora's excerpt in the homogeneous layout, DBLP's in ogbn-mag's (files as fuzz_ogb.c
# names them; NUL between files)
ids = {p: i for i, p in enumerate(papers)}
ce = [(ids[b], ids[a]) for a, b in cites if a in ids and b in ids]
lab = sorted(set(classes))
hom = [b"%d\n" % len(papers), b"%d\n" % len(ce), b"".join(b"%d,%d\n" % e for e in ce), b"0\n3\n5\n",
       b"".join(b"%d\n" % lab.index(c) for c in classes),
       b"".join(b"%s\n" % b",".join(l.split(b"\t")[1:9]) for l in content), b"".join(b"%d\n" % (1990 + i) for i in range(len(papers)))]
put("ogb", "cora", bytes([0]) + b"\0".join(hom))
put("ogb", "cora-gz-undirected", bytes([2 | 4]) + b"\0".join(hom))
pa_i = [(int(a), int(b)) for a, b in pa]
na, nb = max(b for _, b in pa_i) + 1, max(a for a, _ in pa_i) + 1   # a = author, b = paper
het = [b"a,b\n%d,%d\n" % (na, nb), b"a,r,b\n", b"".join(b"%d,%d\n" % (b, a) for a, b in pa_i), b"%d\n" % len(pa_i),
       b"0\n1\n2\n", b"".join(b"%d\n" % (i % 4) for i in range(nb)), b"".join(b"%d.5,1\n" % i for i in range(na))]
put("ogb", "dblp-mag", bytes([1]) + b"\0".join(het))
put("ogb", "dblp-mag-gz-reverse", bytes([1 | 2 | 8 | 16]) + b"\0".join(het))
put("ogb", "dblp-mag-no-triplets", bytes([1]) + b"\0".join(het[:1] + [b""] + het[2:]))

# dataset: per fixture no change, a manifest integer, an indices byte, a truncation (fixture 3,
# weighted: also with weighted sampling, flag bit 9; fixture 4, typed: the other input type)
for k in (3, 4):
    put("dataset", "fixture%d-weighted-or-input-type" % k, bytes([k, 0, 0x02 | 0x04]))
# temporal (flag bits 11-12: none / uniform / last / uniform with a window; 13 node-time mode,
# 14 strict; readers.c) on the
# temporal fixtures 6 (edge and node times) and 7 (node times, rows by node time)
for k, f, name in [(6, 1 << 11, "edge-uniform"), (6, 2 << 11, "edge-last"), (6, (1 << 11) | (1 << 13), "node-uniform"),
                   (6, (3 << 11) | (1 << 14), "edge-strict-window"), (7, (1 << 11) | (1 << 13), "node-uniform"),
                   (7, (2 << 11) | (1 << 13), "node-last"), (7, 1 << 11, "edge-mode-refused"), (5, 1 << 11, "typed2-temporal-refused")]:
    put("dataset", "fixture%d-temporal-%s" % (k, name), bytes([k, f & 0xff, f >> 8]))
for k in range(8):
    put("dataset", "fixture%d-pristine" % k, bytes([k, 0, 0]))
    put("dataset", "fixture%d-manifest-int" % k, bytes([k, 3, 0x80, 0, 4, 5, 0, 0, 0, 8]) + struct.pack("<q", 4000))
    put("dataset", "fixture%d-xor" % k, bytes([k, 0x20, 0x80, 2, 0, 0x40, 0, 0, 0, 2, 0xff, 0x7f]))
    put("dataset", "fixture%d-truncate" % k, bytes([k, 1, 0, 3, 2, 0x20, 0, 0, 0, 0]))

if len(sys.argv) > 1:
    fx = sys.argv[1]
    for t, rel in enumerate(["fixture-cora/fanout.json", "fixture-cora2/fanout.json",
                             "fixture-cora2/part-0/fanout.json", "fixture-cora3/fanout.json"]):
        with open(os.path.join(fx, rel), "rb") as f:
            put("manifest", "target%d" % t, bytes([t]) + f.read())
    for sel, rel in [(0, "fixture-coraw/fanout.json"), (2, "fixture-coraw/fanout.json"),
                     (1, "fixture-typed/fanout.json"), (0x51, "fixture-typed/fanout.json")]:
        with open(os.path.join(fx, rel), "rb") as f:
            put("typed_manifest", "%s-%d" % (rel.split("/")[0][8:], sel), bytes([sel]) + f.read())
    for name in sorted(os.listdir(os.path.join(fx, "fixture-cora"))):
        if name.endswith(".npy"):
            with open(os.path.join(fx, "fixture-cora", name), "rb") as f:
                put("npy_header", "cora-" + name[:-4], f.read(128))
