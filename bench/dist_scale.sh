#!/usr/bin/env bash
# bench/dist_scale.sh (also `bench/dist.sh --scale`): what seed placement and the remote feature
# cache save, for BENCHMARKS.md section 6 ("Seeds where the data is, and a feature cache").
#
# usage: bench/dist_scale.sh [BUILD_DIR]   (default build/, built with MPI)
# env:   FO_BENCH_DIR (default /tmp/fanout-bench-scale), BATCHES (global batches per run,
#        default 64), MPIFLAGS (default "--oversubscribe --allow-run-as-root"), SHARED (the
#        shared data, default ../shared/data)
#
# Graphs: R-MAT scale 18 with 128 float32 features (fanout-rmat; fanout [15,10,5], batch 1024)
# and SNAP email-Enron (36,692 nodes, undirected) with 128 random float32 features and 8
# random classes (fanout [15,10,5], batch 256), all nodes as seeds, shuffled. 2 and 4 machines x
# 1 process (one loader thread each). Per machine count: global seeds on hash parts (the
# baseline: what main does), local seeds on hash and on METIS parts, and local seeds on METIS
# with a cache of 10% of a machine's remote rows under each policy (lookahead 8). Reported per
# kept batch (exact counts, independent of the host): remote hop requests, remote hop edges
# (sampled edges other machines answered), remote hop KiB, remote feature KiB (requests and
# answers, labels included), cache hit rate, and the look-ahead's own topology KiB; and the
# core-ms per batch (slowest rank's seconds x min(ranks, cores) / batches: on this 2-core host
# it is a cost, not a scaling, figure). Every run's digest is checked against the same
# configuration without a cache.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${1:-build}
DIR=${FO_BENCH_DIR:-/tmp/fanout-bench-scale}
BATCHES=${BATCHES:-64}
SHARED=${SHARED:-../shared/data}
MPIFLAGS=${MPIFLAGS:---oversubscribe --allow-run-as-root}
F=$BUILD/fanout
PY=/usr/bin/python3
mkdir -p "$DIR"
[ -d "$DIR/rmat18f" ] || "$BUILD/fanout-rmat" --scale 18 --features 128 -o "$DIR/rmat18f"
if [ ! -d "$DIR/enron" ]; then
  $PY -c "
import numpy as np
rng = np.random.default_rng(13)
np.save('$DIR/enron-x.npy', rng.standard_normal((36692, 128)).astype(np.float32))
np.save('$DIR/enron-y.npy', rng.integers(0, 8, 36692).astype(np.int64))"
  $F import -q "$SHARED/email-enron/email-Enron.undirected.tsv.gz" --undirected \
    --num-nodes 36692 --features "$DIR/enron-x.npy" --labels "$DIR/enron-y.npy" \
    -o "$DIR/enron" > /dev/null
fi
for g in rmat18f enron; do
  for p in 2 4; do
    [ -d "$DIR/$g-h$p" ] || $F partition "$DIR/$g" -n $p -q -o "$DIR/$g-h$p" > /dev/null
    [ -d "$DIR/$g-m$p" ] || $F partition "$DIR/$g" -n $p --method metis -q -o "$DIR/$g-m$p" > /dev/null
  done
done

out=$(mktemp)
opts_rmat18f=(--fanout 15,10,5 --batch-size 1024 --seed 1 --features --threads 1 --batches "$BATCHES")
opts_enron=(--fanout 15,10,5 --batch-size 256 --seed 1 --features --threads 1 --batches "$BATCHES")
rowbytes=$((128 * 4 + 8))
for g in rmat18f enron; do
  declare -n opts="opts_$g"
  n=$($F info "$DIR/$g" --json | sed -n 's/.*"num_nodes": \([0-9]*\).*/\1/p')
  for m in 2 4; do
    # 10% of a machine's remote rows: n (m - 1) / m / 10 rows of 128 float32 + a label
    mb=$(awk -v n="$n" -v m=$m -v b=$rowbytes 'BEGIN { printf "%.3f", n * (m - 1) / m / 10 * b / 1048576 }')
    for cfg in "h|global|-" "h|local|-" "m|local|-" "m|local|degree" "m|local|frequency" \
      "m|local|lookahead" "h|global|lookahead"; do
      IFS='|' read -r meth sp pol <<< "$cfg"
      extra=()
      [ "$pol" = - ] || extra=(--cache-mb "$mb" --cache-policy "$pol" --lookahead 8)
      # shellcheck disable=SC2086
      line=$(nice -n 19 mpiexec $MPIFLAGS -n $m $F bench "$DIR/$g-$meth$m" --dist --procs-per-machine 1 \
        --seed-placement "$sp" "${opts[@]}" "${extra[@]}" --digest --json)
      echo "$line" | sed "s/^{/{\"cfg\": \"$g|$m|$meth|$sp|$pol|$mb\", /" >> "$out"
    done
  done
done
$PY - "$out" << 'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
base = {}
for r in rows:
    g, m, meth, sp, pol, mb = r["cfg"].split("|")
    if pol == "-":
        base[(g, m, meth, sp)] = r
print("| graph | machines | parts | seeds | cache (10% of remote rows) | remote hop requests / batch "
      "| remote hop edges / batch | remote hop KiB / batch | remote feature KiB / batch | vs global+hash "
      "| hit rate | look-ahead KiB / batch | core-ms / batch | digest = no cache |")
print("|---|---:|---|---|---|---|---:|---:|---:|---:|---:|---:|---:|---|")
for r in rows:
    g, m, meth, sp, pol, mb = r["cfg"].split("|")
    b0 = base[(g, m, "h", "global")]
    same = base[(g, m, meth, sp)]
    nb = r["batches"]
    hq = ", ".join(f"{v:.2f}" for v in r["remote_hop_requests_per_batch"])
    he = sum(r["remote_hop_edges_per_batch"])
    hb = sum(r["remote_hop_bytes_per_batch"]) / 1024
    fb = r["remote_feature_bytes_per_batch"] / 1024
    rel = r["remote_feature_bytes_per_batch"] / b0["remote_feature_bytes_per_batch"]
    cores = min(int(r["ranks"]), 2)
    ms = r["seconds"] * cores / nb * 1e3 if nb else 0
    cache = "-" if pol == "-" else f"{pol}, {float(mb):.2f} MiB"
    ok = "yes" if r["digest"] == same["digest"] else "NO"
    print(f"| {g} | {m} | {'hash' if meth == 'h' else 'METIS'} | {sp} | {cache} | {hq} | {he:.0f} "
          f"| {hb:.1f} | {fb:.1f} | {rel:.2f}x | {r['cache_hit_rate']:.3f} "
          f"| {r['lookahead_hop_bytes_per_batch'] / 1024:.1f} | {ms:.1f} | {ok} |")
PY
rm -f "$out"
