# fanout bench through the loader on Cora with --digest (xxh64 over the per-batch digests of
# node, row, col, edge, x, y): the digest is the same for any --threads and --prefetch (a batch
# is a pure function of the seed, epoch and batch index); --split train takes the 140 train
# seeds; --features gathers x and y (feature_bytes > 0, another digest); --epochs 3 runs three
# epochs; --drop-last drops the last, smaller batch; --bare runs the sampler without the
# loader. Timings vary, so only the stable JSON fields are printed.
set -u
export LC_ALL=C
ln -s "$DATA" data
PY=/usr/bin/python3
"$FANOUT" import --format planetoid --undirected -q data/cora/cora.content.gz data/cora/cora.cites -o cora >/dev/null

# stable: the values that do not depend on timing or the machine.
stable() {
  $PY -c '
import json, sys
d = json.loads(sys.stdin.read())
for k in ("mode", "threads", "split", "batch_size", "epochs", "batches", "sampled_nodes",
          "sampled_edges", "feature_bytes", "digest"):
    print(" ", k, json.dumps(d[k]) if k in d else "-")
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
# digest ARGS...: only the digest (or the error).
digest() {
  "$FANOUT" "$@" > out.json 2> err.txt || { cat err.txt; return; }
  $PY -c 'import json, sys; print(json.load(sys.stdin)["digest"])' < out.json
}

F="--fanout 10,5 --batch-size 256 --seed 3"
echo "== one epoch of cora: 11 batches of 256, threads 1"
bench bench cora $F --digest --json
echo "== the same digest for threads 0, 1, 2, 8, each with the default prefetch, 1 and 7"
for t in 0 1 2 8; do
  for p in "" "--prefetch 1" "--prefetch 7"; do
    echo "threads $t ${p:-default prefetch}: $(digest bench cora $F --threads $t $p --digest --json)"
  done
done
echo "== another seed: another digest"
echo "seed 4: $(digest bench cora --fanout 10,5 --batch-size 256 --seed 4 --digest --json)"
echo "== --split train: 140 seeds: 1 batch of 256, 140 batches of 1, 3 of 64 (2 with --drop-last)"
bench bench cora $F --split train --digest --json
bench bench cora --fanout 10,5 --batch-size 1 --seed 3 --split train --threads 2 --json
bench bench cora --fanout 10,5 --batch-size 64 --seed 3 --split train --json
bench bench cora --fanout 10,5 --batch-size 64 --seed 3 --split train --drop-last --json
echo "== --features: x and y gathered, feature_bytes = sampled_nodes x 1433 x 4, another digest"
bench bench cora $F --features --digest --json
echo "threads 0: $(digest bench cora $F --features --threads 0 --digest --json)"
echo "threads 8: $(digest bench cora $F --features --threads 8 --prefetch 1 --digest --json)"
$PY -c '
import json
d = json.load(open("out.json"))
print("feature_bytes == sampled_nodes * 1433 * 4:", d["feature_bytes"] == d["sampled_nodes"] * 1433 * 4)'
echo "== --epochs 3: 33 batches, the sum of the runs of --epoch 0, 1 and 2 alone"
bench bench cora $F --epochs 3 --digest --json
bench bench cora $F --epochs 3 --threads 2 --digest --json
echo "== --epoch 1 alone: another order, another digest"
bench bench cora $F --epoch 1 --digest --json
sum=0
for e in 0 1 2; do
  "$FANOUT" bench cora $F --epoch $e --json > out.json
  n=$($PY -c 'import json, sys; print(json.load(sys.stdin)["sampled_nodes"])' < out.json)
  sum=$((sum + n))
done
echo "sampled_nodes of --epoch 0, 1, 2 alone, summed: $sum"
echo "== --drop-last: 2708 = 10 x 256 + 148, so 10 batches"
bench bench cora $F --drop-last --digest --json
echo "== --no-shuffle"
bench bench cora $F --no-shuffle --digest --json
echo "== --bare: the sampler loop without the loader, the same batches (sampled_nodes/edges)"
bench bench cora $F --bare --json
echo "== text output: the mode line and the digest line"
"$FANOUT" bench cora $F --threads 2 --digest > out.txt 2>&1
echo "exit=$?"
grep -E '^(mode|batches|digest) ' out.txt

echo "== errors"
bench bench cora $F --split nope --json
bench bench cora $F --threads 300 --json
bench bench cora $F --threads -1 --json
bench bench cora $F --prefetch 0 --json
bench bench cora $F --epochs 0 --json
bench bench cora $F --bare --split train --json
bench bench cora $F --bare --features --json
bench bench cora $F --bare --digest --json
