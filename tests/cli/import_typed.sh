# fanout import of typed (heterogeneous) graphs, format_version 2: one file per edge type
# (--edge-type SRC,REL,DST FILE, --num-nodes TYPE=N, --node-ids TYPE=FILE, --string-ids,
# --reverse-edges, per-type --features/--labels/--split), one typed edge list (--edge-type-col
# with --node-types and --default-node-type), and the usage and input errors (nothing written).
# The manifest is printed with its ids; `fanout info` of typed datasets is another case's.
. "$(dirname "$0")/common.bash"
# show DIR: its files, then the manifest's counts and names up to the provenance
show() {
  ls "$1" | tr '\n' ' '; echo
  sed '/"provenance"/q' "$1/fanout.json" |
    grep -E '"(name|num_nodes|num_edges|prefix|format_version|node_orig|offsets|bytes|edge_orig|eid|array)"' |
    tr -d ' ,' | tr '\n' ' '; echo
}

printf '# paper author\n0 1\n1 0\n2 1\n' > pa.txt
printf '0\t0\n1\t0\n2\t1\n' > pc.txt
printf '0 1\n1 2\n2 2\n' > pp.txt

echo "== one file per edge type, reverse types after the originals, self loops only within a type"
fo import --edge-type paper,writes,author pa.txt --edge-type paper,in,venue pc.txt \
  --edge-type=paper,cites,paper pp.txt --num-nodes venue=3 --reverse-edges --undirected \
  --remove-self-loops --csc --csr -o g1
show g1
fo import --json --edge-type paper,writes,author pa.txt --num-nodes author=2 -o g2

echo "== per-type node data: --features/--labels TYPE=F.npy, --split TYPE:NAME=F.npy (read back with numpy)"
PY=/usr/bin/python3
$PY -c '
import numpy as np
np.save("ax.npy", np.array([[1, 2], [3, 4]], dtype=np.float32))
np.save("ay.npy", np.array([1, 0], dtype=np.int64))
np.save("ptrain.npy", np.array([2, 0], dtype=np.int64))
np.save("px.npy", np.ones((2, 3), dtype=np.float32))
'
fo import --edge-type paper,writes,author pa.txt --features author=ax.npy --labels author=ay.npy \
  --split paper:train=ptrain.npy -o g5
show g5
$PY -c '
import json, numpy as np
m = json.load(open("g5/fanout.json"))
for t in m["node_types"]:
    for k in ("features", "labels"):
        if k in t:
            print(t["name"], k, np.load("g5/" + t[k]["array"] + ".npy").tolist())
    for s, a in t.get("splits", {}).items():
        print(t["name"], "split", s, np.load("g5/" + a + ".npy").tolist())
'
fo import --edge-type paper,writes,author pa.txt --features paper=px.npy -o bad

echo "== string ids interned per type; --node-ids fixes a type's order and count"
printf 'p1\ta1\np2\ta1\n' > pa-s.txt
printf 'a9\na1\n' > authors.txt
fo import --string-ids --edge-type paper,writes,author pa-s.txt --node-ids author=authors.txt -o g3
show g3

echo "== one typed edge list: column 1 is the relation, types from --node-types"
printf '#src\trel\tdst\nu1\tlikes\ti1\nu1\tfollows\tu2\nu2\t@\tx9\n' > typed.tsv
printf 'u1\tuser\nu2\tuser\ni1\titem\n' > types.tsv
fo import --edge-type-col 1 --columns 0,2 --string-ids --node-types types.tsv \
  --default-node-type other typed.tsv -o g4
show g4

echo "== errors: exit 1, message naming file, line, type; nothing written"
fo import --edge-type paper,writes,author pa.txt --num-nodes author=1 -o bad
fo import --edge-type paper,writes,author pa.txt --features autor=x.npy -o bad
fo import --edge-type paper,writes,author pa.txt --edge-type paper,writes,author pc.txt -o bad
fo import --edge-type paper,writes,author pa.txt pc.txt -o bad
fo import --edge-type pa/per,writes,author pa.txt -o bad
fo import --edge-type-col 1 --columns 0,2 --string-ids --node-types types.tsv typed.tsv -o bad
printf 'u1\tuser\nu1\titem\n' > twice.tsv
fo import --edge-type-col 1 --columns 0,2 --string-ids --node-types twice.tsv typed.tsv -o bad
ls bad 2>&1

echo "== usage errors: exit 2"
fo import --edge-type paper,writes pa.txt -o bad
fo import -o bad --edge-type paper,writes,author
fo import --node-ids author=authors.txt pa.txt -o bad
fo import --edge-type paper,writes,author pa.txt --features author=x.npy --features author=y.npy -o bad
fo import --edge-type paper,writes,author pa.txt --split author -o bad
