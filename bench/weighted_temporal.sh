#!/usr/bin/env bash
# bench/weighted_temporal.sh: weighted and temporal against uniform sampling in the same run,
# one thread (BENCHMARKS.md sections 7 and 9, issue 11's speed goals).
#
# usage: bench/weighted_temporal.sh [BUILD_DIR] [SCALE]   (default build/, scale 21; `make build` first)
# env:   FO_BENCH_DIR  where generated datasets are cached (default /tmp/fanout-bench)
#        RUNS          interleaved runs per mode (default 3); medians are reported
#        BATCHES       batches per run (default 32)
#        CALLGRIND     1: also count instructions per sampled edge (valgrind --tool=callgrind,
#                      --batches CG_BATCHES minus --batches 0), one run per mode
#        CG_BATCHES    batches of the callgrind runs (default 10)
#
# Datasets: rmatS-wt (`fanout-rmat --scale S --times 1048576 --weights`: random float32 weights
# in [0, 1), edge and node times uniform in [0, 2^20), rows sorted by edge time) and rmatS-tn
# (`--node-times 1048576`: node times only, rows ordered by neighbor node time). Every run:
# `fanout bench DIR --fanout 15,10,5 --batch-size 1024 --seed 1 --bare --batches B --json`
# in each mode below, interleaved; temporal seeds at their node time. Prints per mode the median
# ns per sampled edge and the median of the per-run ratios to its baseline: uniform with the same
# replacement setting for weighted; uniform --disjoint (same replacement, same dataset) for the
# temporal modes (temporal sampling is disjoint: one tree per seed).
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${1:-build}
S=${2:-21}
DIR=${FO_BENCH_DIR:-/tmp/fanout-bench}
RUNS=${RUNS:-3}
BATCHES=${BATCHES:-32}
CGB=${CG_BATCHES:-10}
F=$BUILD/fanout
D=$DIR/rmat$S-wt
DN=$DIR/rmat$S-tn
mkdir -p "$DIR"
[ -d "$D" ] || "$BUILD/fanout-rmat" --scale "$S" --times 1048576 --weights -o "$D"
[ -d "$DN" ] || "$BUILD/fanout-rmat" --scale "$S" --node-times 1048576 -o "$DN"
# mode:baseline:dataset:arguments
MODES="uniform:uniform:$D:
uniform-replace:uniform-replace:$D:--replace
weighted:uniform:$D:--weighted
weighted-replace:uniform-replace:$D:--weighted --replace
disjoint:disjoint:$D:--disjoint
disjoint-replace:disjoint-replace:$D:--disjoint --replace
temporal:disjoint:$D:--temporal uniform
temporal-last:disjoint:$D:--temporal last
temporal-weighted:disjoint:$D:--temporal uniform --weighted
temporal-weighted-replace:disjoint-replace:$D:--temporal uniform --weighted --replace
disjoint-tn:disjoint-tn:$DN:--disjoint
temporal-node-tn:disjoint-tn:$DN:--temporal uniform --time node"
out=$(mktemp)
cg=$(mktemp)
for run in $(seq "$RUNS"); do
  while IFS=: read -r mode base data args; do
    # shellcheck disable=SC2086
    $F bench "$data" --fanout 15,10,5 --batch-size 1024 --seed 1 --bare --batches "$BATCHES" $args --json |
      sed "s/^{/{\"kernel\": \"$mode\", \"base\": \"$base\", \"run\": $run, /" >>"$out"
  done <<<"$MODES"
done
if [ "${CALLGRIND:-0}" = 1 ]; then
  while IFS=: read -r mode base data args; do
    for nb in 0 "$CGB"; do
      f=$(mktemp)
      # shellcheck disable=SC2086
      valgrind --tool=callgrind --callgrind-out-file="$f" $F bench "$data" --fanout 15,10,5 --batch-size 1024 \
        --seed 1 --bare --batches "$nb" $args --json >"$f.json" 2>/dev/null
      ir=$(callgrind_annotate "$f" 2>/dev/null | awk '/PROGRAM TOTALS/ {gsub(",", "", $1); print $1}')
      edges=$(/usr/bin/python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["sampled_edges"])' "$f.json")
      echo "$mode $nb $ir $edges" >>"$cg"
      rm -f "$f" "$f.json"
    done
  done <<<"$MODES"
fi
/usr/bin/python3 - "$out" "$RUNS" "$S" "$cg" "$CGB" <<'PY'
import json, statistics, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
modes = list(dict.fromkeys(r["kernel"] for r in rows))
base = {r["kernel"]: r["base"] for r in rows}
ns = {(r["kernel"], r["run"]): 1e9 * r["seconds"] / r["sampled_edges"] for r in rows}
edges = {r["kernel"]: r["sampled_edges"] for r in rows}
runs = sorted({r["run"] for r in rows})
cg = {}
for l in open(sys.argv[4]):
    m, nb, ir, e = l.split()
    cg.setdefault(m, {})[int(nb)] = (int(ir), int(e))
ipe = {m: (v[int(sys.argv[5])][0] - v[0][0]) / v[int(sys.argv[5])][1] for m, v in cg.items()}
print(f"rmat{sys.argv[3]}-wt / -tn, fanout [15,10,5], batch 1024, 1 thread, {sys.argv[2]} interleaved runs")
print()
print("| mode | baseline | sampled edges | median ns/edge | min | max | x baseline (median of runs) |" + (" instr/edge | x baseline |" if cg else ""))
print("|---|---|---:|---:|---:|---:|---:|" + ("---:|---:|" if cg else ""))
for m in modes:
    v = [ns[(m, r)] for r in runs]
    ratio = statistics.median(ns[(m, r)] / ns[(base[m], r)] for r in runs)
    extra = f" {ipe[m]:.1f} | {ipe[m] / ipe[base[m]]:.2f} |" if cg else ""
    print(f"| {m} | {base[m]} | {edges[m]:,} | {statistics.median(v):.1f} | {min(v):.1f} | {max(v):.1f} | {ratio:.2f} |" + extra)
PY
rm -f "$out" "$cg"
