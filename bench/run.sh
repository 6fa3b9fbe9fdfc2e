#!/usr/bin/env bash
# bench/run.sh: the single-thread sampling benchmarks of BENCHMARKS.md.
#
# usage: bench/run.sh [BUILD_DIR]      (default build/; run `make build` first)
# env:   FO_BENCH_DIR  where generated datasets are cached (default /tmp/fanout-bench)
#        RUNS          runs per configuration (default 5); the table reports the median
#        SHARED        the shared data dir (default ../shared/data), optional
#
# For every dataset and load mode it runs `fanout bench DIR --fanout 15,10,5 --batch-size 1024
# --bare --json` (the sampler alone, one thread) RUNS times, interleaving the configurations so
# that machine noise hits them alike, and prints a Markdown table: median, min and max sampled
# edges/s, and peak RSS.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${1:-build}
DIR=${FO_BENCH_DIR:-/tmp/fanout-bench}
RUNS=${RUNS:-5}
SHARED=${SHARED:-../shared/data}
F=$BUILD/fanout
mkdir -p "$DIR"

[ -d "$DIR/rmat18" ] || "$BUILD/fanout-rmat" --scale 18 -o "$DIR/rmat18"
[ -d "$DIR/rmat21" ] || "$BUILD/fanout-rmat" --scale 21 -o "$DIR/rmat21"
[ -d "$DIR/cora" ] || $F import -q --format planetoid data/cora/cora.content.gz data/cora/cora.cites --undirected -o "$DIR/cora" >/dev/null
[ -d "$DIR/facebook" ] || $F import -q data/facebook-combined/facebook_combined.tsv.gz --undirected -o "$DIR/facebook" >/dev/null
if [ -d "$SHARED/email-enron" ] && [ ! -d "$DIR/email-enron" ]; then
  $F import -q "$SHARED/email-enron/email-Enron.undirected.tsv.gz" --undirected -o "$DIR/email-enron" >/dev/null
fi
if [ -d "$SHARED/cit-hepph" ] && [ ! -d "$DIR/cit-hepph" ]; then
  $F import -q "$SHARED/cit-hepph/cit-HepPh.tsv.gz" -o "$DIR/cit-hepph" >/dev/null
fi

# name|dataset dir|extra args
CONFIGS=()
for ds in rmat18 rmat21 cora facebook email-enron cit-hepph; do
  [ -d "$DIR/$ds" ] || continue
  extra=""
  [ "$ds" = rmat21 ] && extra="--batches 512"
  CONFIGS+=("$ds|mmap|$extra" "$ds|hugepage|$extra")
done

out=$(mktemp)
for run in $(seq "$RUNS"); do
  for c in "${CONFIGS[@]}"; do
    IFS='|' read -r ds load extra <<<"$c"
    # shellcheck disable=SC2086
    $F bench "$DIR/$ds" --fanout 15,10,5 --batch-size 1024 --seed 1 --bare --load "$load" $extra --json |
      sed "s/^{/{\"name\": \"$ds\", /" >>"$out"
  done
done

/usr/bin/python3 - "$out" "$RUNS" <<'PY'
import json, statistics, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
print(f"runs per configuration: {sys.argv[2]}; fanout [15,10,5], batch 1024, 1 thread, seed 1")
print()
print("| dataset | nodes | edges | load | batches | sampled edges/batch | median M edges/s | min | max | peak RSS MiB |")
print("|---|---:|---:|---|---:|---:|---:|---:|---:|---:|")
keys = []
for r in rows:
    k = (r["name"], r["load"])
    if k not in keys: keys.append(k)
for k in keys:
    rs = [r for r in rows if (r["name"], r["load"]) == k]
    e = [r["edges_per_s"] / 1e6 for r in rs]
    r0 = rs[0]
    print(f"| {k[0]} | {r0['num_nodes']:,} | {r0['num_edges']:,} | {k[1]} | {r0['batches']} | "
          f"{r0['sampled_edges'] // max(r0['batches'], 1):,} | {statistics.median(e):.1f} | "
          f"{min(e):.1f} | {max(e):.1f} | {max(r['peak_rss_mb'] for r in rs):.0f} |")
PY
rm -f "$out"
