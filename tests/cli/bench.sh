# fanout bench DIR --fanout ... --json: timings vary run to run, so only the key set and the
# stable values (load, threads, batch_size, batches, sampled_nodes, sampled_edges) are printed.
# --batches N stops early; --load hugepage samples exactly what mmap samples.
set -u
export LC_ALL=C
ln -s "$DATA" data
PY=/usr/bin/python3
"$FANOUT" import --format planetoid --undirected -q data/cora/cora.content.gz data/cora/cora.cites -o cora >/dev/null
"$FANOUT" import --undirected --csc --csr -q data/facebook-combined/facebook_combined.tsv.gz -o fb >/dev/null

# stable: print the sorted keys, then the values that do not depend on timing or the machine.
stable() {
  $PY -c '
import json, sys
d = json.loads(sys.stdin.read())
print("keys", " ".join(sorted(d)))
for k in ("dataset", "load", "threads", "batch_size", "batches", "sampled_nodes", "sampled_edges"):
    print(" ", k, d[k])
ok = all(isinstance(d[k], (int, float)) and d[k] >= 0 for k in
         ("seconds", "open_seconds", "edges_per_s", "nodes_per_s", "peak_rss_mb", "huge_pages_mb"))
print("  timings are non-negative numbers:", ok)
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

echo "== a whole epoch of cora: 11 batches of 256"
bench bench cora --fanout 15,10,5 --batch-size 256 --json
echo "== --batches 2, mmap and hugepage: same sampled_nodes and sampled_edges"
bench bench cora --fanout 15,10,5 --batch-size 256 --batches 2 --seed 7 --json
bench bench cora --fanout 15,10,5 --batch-size 256 --batches 2 --seed 7 --load hugepage --json
bench bench cora --fanout 15,10,5 --batch-size 256 --batches 0 --json
echo "== fanout -1: every edge of the 1-hop neighborhood, once per seed: sampled_edges = 10556"
bench bench cora --fanout -1 --batch-size 1000 --json
echo "== facebook-combined, both directions, with replacement, disjoint"
bench bench fb --fanout 10,5 --batches 3 --json
bench bench fb --fanout 10,5 --batches 3 --edge-dir out --json
bench bench fb --fanout 10,5 --batches 3 --replace --json
bench bench fb --fanout 10,5 --batches 3 --disjoint --json
echo "== text output: the stable lines"
"$FANOUT" bench cora --fanout 15,10,5 --batch-size 256 --batches 2 --seed 7 > out.txt 2>&1
echo "exit=$?"
sed -n 's/ opened in [0-9.]* s)$/ opened in ... s)/p' out.txt
grep -E '^(batches|sampled)' out.txt
grep -cE '^(seconds|edges/s|peak RSS) ' out.txt

echo "== errors"
bench bench cora --fanout 15,-3 --json
bench bench cora --fanout 15 --edge-dir out --json
bench bench missing --fanout 15 --json
bench bench cora --batch-size 4 --json
bench bench cora --fanout 15 --batch-size 0 --json
bench bench cora --fanout 15 --batches -1 --json
bench bench cora --fanout 15 --load foo --json
bench bench cora --fanout 15 --bogus
