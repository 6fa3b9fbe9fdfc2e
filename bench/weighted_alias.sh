#!/usr/bin/env bash
# bench/weighted_alias.sh: weighted against uniform sampling in the same run, one thread, with
# the stored weight_alias table (the default) and with the interleaved alias table built at
# sampler creation (FO_WALIAS=1), BENCHMARKS.md section 7 ("The interleaved alias table").
#
# usage: bench/weighted_alias.sh [BUILD_DIR] [DATASET]
#        (default build/ and $FO_BENCH_DIR/rmat21-wt, made as bench/weighted_temporal.sh makes it)
# env:   RUNS (default 5) interleaved runs per mode, medians reported; BATCHES (default 32);
#        CALLGRIND=1 also counts instructions per sampled edge (--batches CG_BATCHES, default
#        10, minus --batches 0)
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${1:-build}
DIR=${FO_BENCH_DIR:-/tmp/fanout-bench}
D=${2:-$DIR/rmat21-wt}
RUNS=${RUNS:-5}
B=${BATCHES:-32}
CGB=${CG_BATCHES:-10}
F=$BUILD/fanout
[ -d "$D" ] || "$BUILD/fanout-rmat" --scale 21 --times 1048576 --weights -o "$D"
MODES="uniform::
uniform-replace:--replace:
weighted:--weighted:
weighted-replace:--weighted --replace:
weighted-walias:--weighted:1
weighted-walias-replace:--weighted --replace:1"
out=$(mktemp)
cg=$(mktemp)
for run in $(seq "$RUNS"); do
  while IFS=: read -r name args nw; do
    # shellcheck disable=SC2086
    if [ -n "$nw" ]; then export FO_WALIAS=1; else unset FO_WALIAS; fi
    # shellcheck disable=SC2086
    $F bench "$D" --fanout 15,10,5 --batch-size 1024 --seed 1 --bare --batches "$B" $args --json |
      sed "s/^{/{\"kmode\": \"$name\", \"run\": $run, /" >>"$out"
  done <<<"$MODES"
done
if [ "${CALLGRIND:-0}" = 1 ]; then
  while IFS=: read -r name args nw; do
    if [ -n "$nw" ]; then export FO_WALIAS=1; else unset FO_WALIAS; fi
    for nb in 0 "$CGB"; do
      f=$(mktemp)
      # shellcheck disable=SC2086
      valgrind --tool=callgrind --callgrind-out-file="$f" $F bench "$D" --fanout 15,10,5 \
        --batch-size 1024 --seed 1 --bare --batches "$nb" $args --json >"$f.json" 2>/dev/null
      ir=$(callgrind_annotate "$f" 2>/dev/null | awk '/PROGRAM TOTALS/ {gsub(",", "", $1); print $1}')
      e=$(/usr/bin/python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["sampled_edges"])' "$f.json")
      echo "$name $nb $ir $e" >>"$cg"
      rm -f "$f" "$f.json"
    done
  done <<<"$MODES"
fi
unset FO_WALIAS
/usr/bin/python3 - "$out" "$cg" <<'PY'
import json, statistics, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.startswith("{")]
ns = {}
for r in rows:
    ns.setdefault(r["kmode"], {})[r["run"]] = 1e9 * r["seconds"] / r["sampled_edges"]
edges = {r["kmode"]: r["sampled_edges"] for r in rows}
cg = {}
for l in open(sys.argv[2]):
    m, nb, ir, e = l.split()
    cg.setdefault(m, {})[int(nb)] = (int(ir), int(e))
def base(m):
    return "uniform-replace" if m.endswith("replace") else "uniform"
def ipe(m):
    c = cg.get(m, {})
    if len(c) < 2:
        return None
    (i0, _), (i1, e1) = c[min(c)], c[max(c)]
    return (i1 - i0) / e1
print("| mode | sampled edges | median ns/edge | min | max | x uniform (median of runs) | instr/edge | x uniform |")
print("|---|---:|---:|---:|---:|---:|---:|---:|")
for m, v in ns.items():
    b = base(m)
    rat = [v[k] / ns[b][k] for k in v]
    i, ib = ipe(m), ipe(b)
    print(f"| {m} | {edges[m]:,} | {statistics.median(v.values()):.1f} | {min(v.values()):.1f} | "
          f"{max(v.values()):.1f} | {statistics.median(rat):.2f} ({min(rat):.2f}-{max(rat):.2f}) | "
          + (f"{i:.1f} | {i / ib:.2f} |" if i and ib else "- | - |"))
PY
rm -f "$out" "$cg"
