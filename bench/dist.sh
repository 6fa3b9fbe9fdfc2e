#!/usr/bin/env bash
# bench/dist.sh: distributed sampling (`fanout bench --dist` under mpiexec) on 1, 2 and 4
# simulated machines x 2 processes, for BENCHMARKS.md.
#
# usage: bench/dist.sh [BUILD_DIR]   (default build/, built with MPI)
# env:   FO_BENCH_DIR (default /tmp/fanout-bench; rmat18f and the partitions are made if
#        missing), RUNS (default 3), MPIFLAGS (default "--oversubscribe --allow-run-as-root")
#
# Graphs: R-MAT scale 18 with 128 float32 features per node (fanout [15,10,5], batch 1024, all
# nodes as seeds) and Cora with its 1433 features (fanout [10,5], batch 64, the train split),
# each in 1, 2 and 4 parts by hash and by METIS. Every process runs one loader thread. For every
# run it checks that the epoch digest equals the single-process digest over the unpartitioned
# graph, and it reports medians of: sampled edges/s of the whole job (slowest rank's time),
# remote hop requests and KiB per batch (per hop), remote feature requests and KiB per batch.
# On a 2-core host 4 and 8 ranks share 2 cores: the throughput column then measures the host,
# not the scaling; the request and byte columns are exact and do not depend on the host.
#
# `bench/dist.sh --scale [BUILD_DIR]` runs bench/dist_scale.sh instead: seed placement and the
# remote feature cache (remote hop edges and feature bytes per batch).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${1:-}" = --scale ]; then
  shift
  exec bench/dist_scale.sh "$@"
fi
BUILD=${1:-build}
DIR=${FO_BENCH_DIR:-/tmp/fanout-bench}
RUNS=${RUNS:-3}
MPIFLAGS=${MPIFLAGS:---oversubscribe --allow-run-as-root}
F=$BUILD/fanout
mkdir -p "$DIR"
[ -d "$DIR/rmat18f" ] || "$BUILD/fanout-rmat" --scale 18 --features 128 -o "$DIR/rmat18f"
[ -d "$DIR/cora" ] || $F import -q --format planetoid data/cora/cora.content.gz \
  data/cora/cora.cites --undirected -o "$DIR/cora" > /dev/null
for g in rmat18f cora; do
  for p in 1 2 4; do
    [ -d "$DIR/$g-h$p" ] || $F partition "$DIR/$g" -n $p -q -o "$DIR/$g-h$p" > /dev/null
    [ $p = 1 ] || [ -d "$DIR/$g-m$p" ] ||
      $F partition "$DIR/$g" -n $p --method metis -q -o "$DIR/$g-m$p" > /dev/null
  done
done

out=$(mktemp)
opts_rmat18f=(--fanout 15,10,5 --batch-size 1024 --seed 1 --features --threads 1)
opts_cora=(--fanout 10,5 --batch-size 64 --seed 1 --split train --features --threads 1)
for g in rmat18f cora; do
  declare -n opts="opts_$g"
  single=$($F bench "$DIR/$g" "${opts[@]}" --digest --json)
  want=$(echo "$single" | sed -n 's/.*"digest": "\([0-9a-f]*\)".*/\1/p')
  for run in $(seq "$RUNS"); do
    echo "$single" | sed "s/^{/{\"cfg\": \"$g|single\", \"ok\": true, /" >> "$out"
    for cfg in h1:2 h2:4 m2:4 h4:8 m4:8; do
      parts=${cfg%:*} ranks=${cfg#*:}
      # shellcheck disable=SC2086
      line=$(mpiexec $MPIFLAGS -n "$ranks" $F bench "$DIR/$g-$parts" --dist \
        --procs-per-machine 2 "${opts[@]}" --digest --json)
      ok=false
      [ "$(echo "$line" | sed -n 's/.*"digest": "\([0-9a-f]*\)".*/\1/p')" = "$want" ] && ok=true
      echo "$line" | sed "s/^{/{\"cfg\": \"$g|$parts\", \"ok\": $ok, /" >> "$out"
    done
  done
done
/usr/bin/python3 - "$out" "$RUNS" << 'PY'
import json, statistics as st, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
print(f"runs: {sys.argv[2]} (medians; configurations interleaved in each run)")
print()
print("| graph | parts | machines x procs | digest = single | M edges/s | "
      "remote hop requests / batch | remote hop KiB / batch | feature requests / batch | "
      "feature KiB / batch |")
print("|---|---|---|---|---:|---|---|---:|---:|")
seen = []
for r in rows:
    if r["cfg"] not in seen:
        seen.append(r["cfg"])
for cfg in seen:
    rs = [r for r in rows if r["cfg"] == cfg]
    g, parts = cfg.split("|")
    eps = st.median(r["edges_per_s"] / 1e6 for r in rs)
    ok = "yes" if all(r["ok"] for r in rs) else "NO"
    if parts == "single":
        print(f"| {g} | unpartitioned | 1 process | - | {eps:.2f} | - | - | - | - |")
        continue
    r0 = rs[0]
    method = "hash" if parts[0] == "h" else "METIS"
    hq = ", ".join(f"{v:.2f}" for v in r0["remote_hop_requests_per_batch"])
    hb = ", ".join(f"{v / 1024:.1f}" for v in r0["remote_hop_bytes_per_batch"])
    print(f"| {g} | {parts[1:]} ({method}) | {r0['machines']} x {r0['procs_per_machine']} | {ok} "
          f"| {eps:.2f} | {hq} | {hb} | {r0['remote_fetch_requests_per_batch']:.2f} "
          f"| {r0['remote_fetch_bytes_per_batch'] / 1024:.1f} |")
PY
rm -f "$out"
