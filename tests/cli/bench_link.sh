# Stored edge splits and the link loader from the command line: `import --edge-split` (input
# edge positions stored as edge ids, checked by hand below; typed with SRC__REL__DST:),
# `bench --edge-seeds-split` (only the stable keys: timings vary), and the errors.
. "$(dirname "$0")/common.bash"
PY=/usr/bin/python3
# input positions 0..5: 0->1 0->2 1->2 2->0 3->2 2->3
printf '0 1\n0 2\n1 2\n2 0\n3 2\n2 3\n' > g.txt
$PY -c '
import numpy as np
np.save("train.npy", np.array([0, 2, 4, 5], dtype=np.int64))
np.save("test.npy", np.array([1, 3], dtype=np.int32))
np.save("bad.npy", np.array([0, 6], dtype=np.int64))
np.save("w.npy", np.array([2, 0], dtype=np.int64))
'
stable() {
  $PY -c '
import json, sys
d = json.loads(sys.stdin.read())
for k in ("mode", "edge_type", "edge_split", "neg", "strict", "exclude_seed_edges", "batch_size",
          "batches", "seed_edges", "num_neg", "num_neg_missing", "num_excluded", "sampled_nodes",
          "sampled_edges", "digest"):
    if k in d: print(" ", k, d[k])
print("  timings are non-negative numbers:", all(d[k] >= 0 for k in ("seconds", "open_seconds", "edges_per_s")))
'
}
bench() {
  echo "$ fanout $*"
  "$FANOUT" "$@" > out.json 2> err.txt
  local rc=$?
  [ -s err.txt ] && cat err.txt
  [ $rc -eq 0 ] && stable < out.json
  echo "exit=$rc"
}
# edge ids are CSC positions: 2->0 is 0, 0->1 1, 0->2 2, 1->2 3, 3->2 4, 2->3 5, so train
# (positions 0 2 4 5) is [1, 3, 4, 5] and test (1 3) is [2, 0]
echo "== import with edge splits; the stored ids and their manifest keys"
fo import g.txt --csc --csr -q --edge-split train=train.npy,test=test.npy -o ds
$PY -c '
import json, numpy as np
m = json.load(open("ds/fanout.json"))
print("edge_splits", m["edge_splits"])
for k, a in m["edge_splits"].items(): print(k, np.load("ds/" + a + ".npy").tolist())
'
echo "== info lists them (text and JSON)"
"$FANOUT" info ds | grep "edge splits"
"$FANOUT" info ds --json | $PY -c 'import json, sys; print(json.load(sys.stdin)["edge_splits"])'
echo "== bench over the split: the positives are the split's edges"
bench bench ds --fanout -1 --edge-seeds-split train --batch-size 2 --no-shuffle --digest --json
bench bench ds --fanout 2,2 --edge-seeds-split train --batch-size 3 --neg binary:1 --exclude-seed-edges --digest --json
bench bench ds --fanout 2 --edge-seeds-split test --neg triplet:2 --seed 3 --epochs 2 --json
"$FANOUT" bench ds --fanout 1 --edge-seeds-split train --batch-size 4 -q | sed -n 2,4p
echo "== typed: SRC__REL__DST:NAME=FILE"
printf '0 1\n1 0\n2 1\n' > pa.txt
fo import -q --edge-type paper,writes,author pa.txt --reverse-edges --csc --csr \
  --edge-split paper__writes__author:train=w.npy -o typed
"$FANOUT" info typed | grep "edge splits"
bench bench typed --fanout -1 --edge-seeds-split paper__writes__author:train --exclude-seed-edges --digest --json
bench bench typed --fanout -1 --edge-type writes --edge-seeds-split train --json
echo "== errors"
fo import g.txt -q --edge-split train=bad.npy -o x
fo import g.txt -q --edge-split train -o x
fo import g.txt -q --edge-split train=train.npy,train=test.npy -o x
fo import g.txt -q --edge-split node__to__node:train=train.npy -o x
fo import -q --edge-type paper,writes,author pa.txt --reverse-edges --edge-split author__rev_writes__paper:t=w.npy -o x
fo import -q --edge-type paper,writes,author pa.txt --edge-split paper__nope__author:t=w.npy -o x
ls -d x 2>/dev/null || echo "no x (nothing half-written)"
fo bench ds --fanout 1 --edge-seeds-split val
fo bench typed --fanout 1 --edge-seeds-split author__rev_writes__paper:train
fo bench typed --fanout 1 --edge-seeds-split writes:train --edge-type nope
fo bench ds --fanout 1 --edge-seeds-split train --threads 2
fo bench ds --fanout 1 --neg binary:1
fo bench ds --fanout 1 --edge-seeds-split train --neg binary:0
printf '' > empty.txt
printf '0-1\n0 1\n' > pairs.txt
printf '0-1\000\n' > nul.txt
printf '0-1 2-3\n1-2\n' > ok.txt
fo bench ds --fanout 1 --edge-seeds @empty.txt
fo bench ds --fanout 1 --edge-seeds @pairs.txt
fo bench ds --fanout 1 --edge-seeds @nul.txt
"$FANOUT" bench ds --fanout 1 --edge-seeds @ok.txt --digest --json | grep -o '"seed_edges": [0-9]*\|"batches": [0-9]*' | tr '\n' ' '
echo
