#!/usr/bin/env bash
# bench/loader.sh: the loader's goals of BENCHMARKS.md, each measured as a ratio within one run
# (configurations interleaved, RUNS times, medians).
#
# usage: bench/loader.sh [BUILD_DIR]   (default build/)
# env:   FO_BENCH_DIR (default /tmp/fanout-bench; rmat21 and rmat21f are made if missing),
#        RUNS (default 5), BATCHES (default 512)
#  1. scaling: loader with 2 worker threads vs 1 (R-MAT scale 21, [15,10,5], batch 1024);
#  2. overhead: loader sampling on the calling thread (--threads 0) vs the bare sampler loop;
#  3. gather: feature gather (D = 128 float32) bytes/s vs single-thread memcpy, same process.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${1:-build}
DIR=${FO_BENCH_DIR:-/tmp/fanout-bench}
RUNS=${RUNS:-5}
BATCHES=${BATCHES:-512}
F=$BUILD/fanout
mkdir -p "$DIR"
[ -d "$DIR/rmat21" ] || "$BUILD/fanout-rmat" --scale 21 -o "$DIR/rmat21"
[ -d "$DIR/rmat21f" ] || "$BUILD/fanout-rmat" --scale 21 --features 128 -o "$DIR/rmat21f"
out=$(mktemp)
common=(--fanout 15,10,5 --batch-size 1024 --seed 1 --batches "$BATCHES" --json)
for run in $(seq "$RUNS"); do
  for cfg in "t1|--threads 1" "t2|--threads 2" "t0|--threads 0" "bare|--bare"; do
    IFS='|' read -r name args <<<"$cfg"
    # shellcheck disable=SC2086
    $F bench "$DIR/rmat21" "${common[@]}" $args | sed "s/^{/{\"cfg\": \"$name\", /" >>"$out"
  done
  $F bench "$DIR/rmat21f" "${common[@]}" --threads 1 --features --memcpy --epochs 2 |
    sed 's/^{/{"cfg": "gather", /' >>"$out"
done
/usr/bin/python3 - "$out" "$RUNS" <<'PY'
import json, statistics as st, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
by = lambda c: [r for r in rows if r["cfg"] == c]
med = lambda xs: st.median(xs)
eps = {c: [r["edges_per_s"] / 1e6 for r in by(c)] for c in ("t1", "t2", "t0", "bare")}
print(f"runs: {sys.argv[2]} (medians; configurations interleaved in each run)")
print()
print("| measure | median | per-run values |")
print("|---|---:|---|")
for c, label in (("bare", "bare sampler, M edges/s"), ("t0", "loader --threads 0, M edges/s"),
                 ("t1", "loader --threads 1, M edges/s"), ("t2", "loader --threads 2, M edges/s")):
    print(f"| {label} | {med(eps[c]):.1f} | {', '.join(f'{v:.1f}' for v in eps[c])} |")
sc = [a / b for a, b in zip(eps["t2"], eps["t1"])]
ov = [1 - a / b for a, b in zip(eps["t0"], eps["bare"])]
print(f"| scaling 2 threads / 1 thread | {med(sc):.2f}x | {', '.join(f'{v:.2f}' for v in sc)} |")
print(f"| loader overhead (1 - t0 / bare) | {100 * med(ov):.1f}% | {', '.join(f'{100 * v:.1f}%' for v in ov)} |")
g = by("gather")
gb = [r["gather_bytes_per_s"] / 1e9 for r in g]
mb = [r["memcpy_bytes_per_s"] / 1e9 for r in g]
ratio = [r["gather_vs_memcpy"] for r in g]
print(f"| gather D=128 float32, GB/s | {med(gb):.2f} | {', '.join(f'{v:.2f}' for v in gb)} |")
print(f"| memcpy 1 thread, GB/s | {med(mb):.2f} | {', '.join(f'{v:.2f}' for v in mb)} |")
print(f"| gather / memcpy | {med(ratio):.2f} | {', '.join(f'{v:.2f}' for v in ratio)} |")
PY
rm -f "$out"
