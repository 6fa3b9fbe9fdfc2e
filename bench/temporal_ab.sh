#!/usr/bin/env bash
# bench/temporal_ab.sh: two builds side by side on the temporal modes and their baseline, one
# thread, interleaved runs (BENCHMARKS.md section 9, "Interpolation search").
#
# usage: bench/temporal_ab.sh OLD_BUILD NEW_BUILD [SCALE]   (default scale 18)
# env:   FO_BENCH_DIR  where the datasets are (built as bench/weighted_temporal.sh builds them;
#                      default /tmp/fanout-bench)
#        RUNS          interleaved runs per build and mode (default 7); medians are reported
#        BATCHES       batches per run (default 32)
#
# Every run: `fanout bench DIR --fanout 15,10,5 --batch-size 1024 --seed 1 --bare --batches B
# --json` with: --disjoint (rmatS-wt), --temporal uniform (rmatS-wt), --temporal last
# (rmatS-wt), --disjoint (rmatS-tn), --temporal uniform --time node (rmatS-tn). Prints per
# build and mode the median seconds and ns per sampled edge, and the median over runs of the
# ratio to the same build's disjoint run on the same dataset in the same round.
set -euo pipefail
cd "$(dirname "$0")/.."
OLD=$1
NEW=$2
S=${3:-18}
DIR=${FO_BENCH_DIR:-/tmp/fanout-bench}
RUNS=${RUNS:-7}
BATCHES=${BATCHES:-32}
D=$DIR/rmat$S-wt
DN=$DIR/rmat$S-tn
[ -d "$D" ] || "$NEW/fanout-rmat" --scale "$S" --times 1048576 --weights -o "$D"
[ -d "$DN" ] || "$NEW/fanout-rmat" --scale "$S" --node-times 1048576 -o "$DN"
MODES="disjoint:$D:--disjoint
temporal:$D:--temporal uniform
temporal-last:$D:--temporal last
disjoint-tn:$DN:--disjoint
temporal-node-tn:$DN:--temporal uniform --time node"
out=$(mktemp)
for run in $(seq "$RUNS"); do
  while IFS=: read -r mode data args; do
    for b in old new; do
      F=$OLD/fanout
      [ "$b" = new ] && F=$NEW/fanout
      # shellcheck disable=SC2086
      $F bench "$data" --fanout 15,10,5 --batch-size 1024 --seed 1 --bare --batches "$BATCHES" $args --json |
        sed "s/^{/{\"kernel\": \"$mode\", \"build\": \"$b\", \"run\": $run, /" >>"$out"
    done
  done <<<"$MODES"
done
/usr/bin/python3 - "$out" "$S" "$RUNS" <<'PY'
import json, statistics, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
t = {(r["kernel"], r["build"], r["run"]): r for r in rows}
modes = list(dict.fromkeys(r["kernel"] for r in rows))
runs = sorted({r["run"] for r in rows})
print(f"rmat{sys.argv[2]}-wt / -tn, fanout [15,10,5], batch 1024, 1 thread, {sys.argv[3]} interleaved runs per build")
print()
print("| mode | build | sampled edges | median s | median ns/edge | x its disjoint (median of runs) | new / old (median of runs) |")
print("|---|---|---:|---:|---:|---:|---:|")
for m in modes:
    base = "disjoint-tn" if m.endswith("-tn") else "disjoint"
    for b in ("old", "new"):
        s = [t[(m, b, r)]["seconds"] for r in runs]
        e = t[(m, b, runs[0])]["sampled_edges"]
        ratio = statistics.median(t[(m, b, r)]["seconds"] / t[(base, b, r)]["seconds"] *
                                  t[(base, b, r)]["sampled_edges"] / e for r in runs)
        ab = statistics.median(t[(m, "new", r)]["seconds"] / t[(m, "old", r)]["seconds"] for r in runs)
        print(f"| {m} | {b} | {e:,} | {statistics.median(s):.3f} | {1e9 * statistics.median(s) / e:.1f} | {ratio:.2f} | {ab:.2f} |" if b == "new" else
              f"| {m} | {b} | {e:,} | {statistics.median(s):.3f} | {1e9 * statistics.median(s) / e:.1f} | {ratio:.2f} | |")
PY
rm -f "$out"
