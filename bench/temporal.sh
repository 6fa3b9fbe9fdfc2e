#!/usr/bin/env bash
# bench/temporal.sh: temporal against uniform sampling, one thread (BENCHMARKS.md section 8).
#
# usage: bench/temporal.sh [BUILD_DIR] [SCALE]   (default build/, scale 18; `make build` first)
# env:   FO_BENCH_DIR  where generated datasets are cached (default /tmp/fanout-bench)
#        RUNS          interleaved runs per mode (default 5); medians are reported
#        BATCHES       batches per run (default 128)
#        CALLGRIND     1: also count instructions per sampled edge (valgrind --tool=callgrind,
#                      --batches 20 minus --batches 0), one run per mode
#
# Builds R-MAT SCALE with random edge and node times uniform in [0, 2^20)
# (`fanout-rmat --scale S --times 1048576`, as rmatS-t), then runs `fanout bench DIR --fanout
# 15,10,5 --batch-size 1024 --seed 1 --bare --batches BATCHES --json` in these modes,
# interleaved: uniform, uniform --disjoint (temporal sampling is disjoint: one tree per seed),
# --temporal uniform (edge times), --temporal last, --temporal uniform --time node (rows sorted
# by edge time: the filter pass), and the same on rmatS-tn (`--node-times`: node times only,
# rows ordered by neighbor node time: binary search); every seed at its node time. Prints the median ns per sampled edge of each and the ratios to uniform and
# to uniform --disjoint.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${1:-build}
S=${2:-18}
DIR=${FO_BENCH_DIR:-/tmp/fanout-bench}
RUNS=${RUNS:-5}
BATCHES=${BATCHES:-128}
F=$BUILD/fanout
D=$DIR/rmat$S-t
mkdir -p "$DIR"
DN=$DIR/rmat$S-tn
[ -d "$D" ] || "$BUILD/fanout-rmat" --scale "$S" --times 1048576 -o "$D"
[ -d "$DN" ] || "$BUILD/fanout-rmat" --scale "$S" --node-times 1048576 -o "$DN"
MODES="uniform disjoint temporal-uniform temporal-last temporal-node temporal-node-sorted"
data_of() { case $1 in temporal-node-sorted) echo "$DN" ;; *) echo "$D" ;; esac; }
args_of() {
  case $1 in
  uniform) echo "" ;;
  disjoint) echo "--disjoint" ;;
  temporal-uniform) echo "--temporal uniform" ;;
  temporal-last) echo "--temporal last" ;;
  temporal-node | temporal-node-sorted) echo "--temporal uniform --time node" ;;
  esac
}
out=$(mktemp)
cg=$(mktemp)
for run in $(seq "$RUNS"); do
  for mode in $MODES; do
    # shellcheck disable=SC2046
    $F bench "$(data_of "$mode")" --fanout 15,10,5 --batch-size 1024 --seed 1 --bare --batches "$BATCHES" $(args_of "$mode") --json |
      sed "s/^{/{\"kernel\": \"$mode\", /" >>"$out"
  done
done
if [ "${CALLGRIND:-0}" = 1 ]; then
  for mode in $MODES; do
    for nb in 0 20; do
      f=$(mktemp)
      # shellcheck disable=SC2046
      valgrind --tool=callgrind --callgrind-out-file="$f" $F bench "$(data_of "$mode")" --fanout 15,10,5 --batch-size 1024 \
        --seed 1 --bare --batches $nb $(args_of "$mode") --json >"$f.json" 2>/dev/null
      ir=$(callgrind_annotate "$f" 2>/dev/null | awk '/PROGRAM TOTALS/ {gsub(",", "", $1); print $1}')
      edges=$(/usr/bin/python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["sampled_edges"])' "$f.json")
      echo "$mode $nb $ir $edges" >>"$cg"
      rm -f "$f" "$f.json"
    done
  done
fi
/usr/bin/python3 - "$out" "$RUNS" "$S" "$cg" <<'PY'
import json, statistics, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
modes = ["uniform", "disjoint", "temporal-uniform", "temporal-last", "temporal-node", "temporal-node-sorted"]
def ns(r):
    return 1e9 * r["seconds"] / r["sampled_edges"]
med = {}
for m in modes:
    v = [ns(r) for r in rows if r["kernel"] == m]
    med[m] = (statistics.median(v), min(v), max(v), [r for r in rows if r["kernel"] == m][0]["sampled_edges"])
cg = {}
for l in open(sys.argv[4]):
    m, nb, ir, e = l.split()
    cg.setdefault(m, {})[int(nb)] = (int(ir), int(e))
print(f"rmat{sys.argv[3]} with edge and node times in [0, 2^20), fanout [15,10,5], batch 1024, 1 thread, {sys.argv[2]} runs")
print()
print("| mode | sampled edges | median ns/edge | min | max | x uniform | x uniform --disjoint |" + (" instr/edge |" if cg else ""))
print("|---|---:|---:|---:|---:|---:|---:|" + ("---:|" if cg else ""))
for m in modes:
    a = med[m]
    extra = ""
    if cg:
        (i0, _), (i20, e20) = cg[m][0], cg[m][20]
        extra = f" {(i20 - i0) / e20:.1f} |"
    print(f"| {m} | {a[3]:,} | {a[0]:.1f} | {a[1]:.1f} | {a[2]:.1f} | {a[0] / med['uniform'][0]:.2f} | {a[0] / med['disjoint'][0]:.2f} |" + extra)
PY
rm -f "$out" "$cg"
