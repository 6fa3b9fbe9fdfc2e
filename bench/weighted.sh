#!/usr/bin/env bash
# bench/weighted.sh: weighted against uniform sampling, one thread (BENCHMARKS.md section 7).
#
# usage: bench/weighted.sh [BUILD_DIR] [SCALE]   (default build/, scale 18; `make build` first)
# env:   FO_BENCH_DIR  where generated datasets are cached (default /tmp/fanout-bench)
#        RUNS          interleaved runs per mode (default 5); medians are reported
#        BATCHES       batches per run (default 256)
#
# Builds R-MAT SCALE (build/fanout-rmat), re-imports its edges with random float32 weights in
# [0, 1) (numpy seed 1) as rmatS-w, then runs `fanout bench DIR --fanout 15,10,5 --batch-size
# 1024 --seed 1 --bare --batches BATCHES --json` uniform, --weighted and --weighted --replace
# (and uniform --replace), interleaved, and prints the median ns per sampled edge of each and
# the ratio to uniform (same replacement setting).
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${1:-build}
S=${2:-18}
DIR=${FO_BENCH_DIR:-/tmp/fanout-bench}
RUNS=${RUNS:-5}
BATCHES=${BATCHES:-256}
F=$BUILD/fanout
mkdir -p "$DIR"
[ -d "$DIR/rmat$S" ] || "$BUILD/fanout-rmat" --scale "$S" -o "$DIR/rmat$S"
if [ ! -d "$DIR/rmat$S-w" ]; then
  /usr/bin/python3 - "$DIR/rmat$S" "$DIR/rmat$S-w.tmp" <<'PY'
import numpy as np, os, sys
src, out = sys.argv[1], sys.argv[2]
os.makedirs(out, exist_ok=True)
ptr = np.load(f"{src}/csc_indptr.npy"); idx = np.load(f"{src}/csc_indices.npy")
dst = np.repeat(np.arange(len(ptr) - 1, dtype=np.int64), np.diff(ptr))
np.save(f"{out}/edge_index.npy", np.stack([idx.astype(np.int64), dst]))
np.save(f"{out}/w.npy", np.random.default_rng(1).random(len(idx), dtype=np.float32))
PY
  $F import -q --format npy "$DIR/rmat$S-w.tmp/edge_index.npy" --edge-weight "$DIR/rmat$S-w.tmp/w.npy" \
    --num-nodes "$(( 1 << S ))" -o "$DIR/rmat$S-w" >/dev/null
  rm -rf "$DIR/rmat$S-w.tmp"
fi
out=$(mktemp)
for run in $(seq "$RUNS"); do
  for mode in uniform weighted uniform-replace weighted-replace; do
    args=""
    case $mode in
    weighted) args="--weighted" ;;
    uniform-replace) args="--replace" ;;
    weighted-replace) args="--weighted --replace" ;;
    esac
    # shellcheck disable=SC2086
    $F bench "$DIR/rmat$S-w" --fanout 15,10,5 --batch-size 1024 --seed 1 --bare --batches "$BATCHES" $args --json |
      sed "s/^{/{\"kernel\": \"$mode\", /" >>"$out"
  done
done
/usr/bin/python3 - "$out" "$RUNS" "$S" <<'PY'
import json, statistics, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
def ns(r):
    return 1e9 * r["seconds"] / r["sampled_edges"]
med = {}
for m in ("uniform", "weighted", "uniform-replace", "weighted-replace"):
    v = [ns(r) for r in rows if r["kernel"] == m]
    med[m] = (statistics.median(v), min(v), max(v), rows[[r["kernel"] for r in rows].index(m)]["sampled_edges"])
print(f"rmat{sys.argv[3]} with float32 weights, fanout [15,10,5], batch 1024, 1 thread, {sys.argv[2]} runs")
print()
print("| mode | sampled edges | median ns/edge | min | max | x uniform |")
print("|---|---:|---:|---:|---:|---:|")
for m, base in (("uniform", "uniform"), ("weighted", "uniform"), ("uniform-replace", "uniform-replace"), ("weighted-replace", "uniform-replace")):
    a = med[m]
    print(f"| {m} | {a[3]:,} | {a[0]:.1f} | {a[1]:.1f} | {a[2]:.1f} | {a[0] / med[base][0]:.2f} |")
PY
rm -f "$out"
