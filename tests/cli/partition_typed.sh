# fanout partition of a typed dataset (papers, authors, venues; writes, cites, in and their
# reverses): hash, range (--balance train) and METIS with their reports; info (per-type part
# counts) and verify; sample (in and out, disjoint) and bench --digest --features over the
# partitioned datasets give the unpartitioned batches; the typed errors.
. "$(dirname "$0")/common.bash"
PY=/usr/bin/python3
printf '0 1\n1 0\n2 1\n3 1\n4 2\n5 0\n' > pa.txt
printf '1 0\n2 0\n3 1\n3 2\n4 3\n5 4\n5 1\n' > pp.txt
printf '0 0\n1 0\n2 1\n3 1\n4 0\n5 1\n' > pv.txt
$PY -c '
import numpy as np
np.save("px.npy", np.arange(12, dtype=np.float32).reshape(6, 2))
np.save("ax.npy", np.arange(9, dtype=np.float32).reshape(3, 3) + 100)
np.save("ay.npy", np.array([1, 0, 1], dtype=np.int64))
np.save("atrain.npy", np.array([2, 0], dtype=np.int64))
'
"$FANOUT" import -q --edge-type paper,writes,author pa.txt --edge-type paper,cites,paper pp.txt \
  --edge-type paper,in,venue pv.txt --reverse-edges --csc --csr --features paper=px.npy \
  --features author=ax.npy --labels author=ay.npy --split author:train=atrain.npy -o g >/dev/null

echo "== hash, range --balance train, metis: 2 parts; reports are totals over the types"
fo partition g -n 2 -q -o g-h2
fo partition g -n 2 --method range --balance train -q --json -o g-r2
fo partition g -n 2 --method metis -q -o g-m2
fo partition g -n 3 -q -o g-h3
echo "== info: a book per node type, per part its nodes of each type and edges of each type"
fo info g-h2
fo info g-r2 --json
fo verify g-h2
fo verify g-m2
echo "== the manifest: format_version 2, node types with their books, parts as typed datasets"
$PY -c '
import json
m = json.load(open("g-h2/fanout.json"))
print(m["format"], m["format_version"], m["num_parts"], m["method"])
for t in m["node_types"]:
    print(" ", t["name"], t["num_nodes"], t["book"], sorted(t.get("splits", {})))
print(" ", [e["name"] for e in m["edge_types"]])
print("  quality per type:", json.dumps(m["quality"]["node_types"]), json.dumps(m["quality"]["edge_types"]))
p = json.load(open("g-h2/part-0/fanout.json"))
print("part-0", p["format_version"], p["part"], [(t["name"], t["num_rows"]) for t in p["node_types"]])
print(" ", [(e["name"], e["num_edges"], sorted(e["topology"])) for e in p["edge_types"]])
'
echo "== sample: the partitioned datasets give the unpartitioned batch, byte for byte"
for S in "--seeds author:0,2 --fanout 2,2 --seed 7" "--seeds paper:1,5 --fanout -1,1 --edge-dir out --seed 3" \
         "--seeds venue:0,1 --fanout 2,-1 --disjoint --replace --seed 9"; do
  "$FANOUT" sample g $S --json > want.json
  for d in g-h2 g-r2 g-m2 g-h3; do
    "$FANOUT" sample $d $S --json > got.json 2>&1
    cmp -s want.json got.json && echo "sample $S, $d: same as g" || echo "sample $S, $d: DIFFERS from g"
  done
done
fo sample g-h3 --seeds author:1 --fanout 1 --json
echo "== bench --digest --features --split author:train: the loader's digest"
B="--input-type author --fanout 2,2 --batch-size 1 --seed 3 --features --digest --json"
want=$("$FANOUT" bench g $B | grep -o '"digest": "[0-9a-f]*"')
echo "g: $want"
for d in g-h2 g-r2 g-m2 g-h3; do
  got=$("$FANOUT" bench $d $B --threads 2 2>&1 | grep -o '"digest": "[0-9a-f]*"')
  [ "$got" = "$want" ] && echo "$d digest equal to g's: yes" || echo "$d digest equal to g's: NO ($got)"
done
echo "== errors"
fo partition g -n 20 -o x
fo partition g -n 2 --balance train --train-split nope -o x
fo partition g-h2 -n 2 -o x
fo sample g-h2 --seeds 0 --fanout 1 --json
fo sample g-h2 --seeds conference:0 --fanout 1 --json
fo sample g-h2 --seeds author:3 --fanout 1 --json
fo bench g-h2 --fanout 1 --json
echo "temporary directories left: $(ls -A | grep -c tmp)"
