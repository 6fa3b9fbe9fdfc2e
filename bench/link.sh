#!/usr/bin/env bash
# bench/link.sh: link sampling against node sampling, one thread (BENCHMARKS.md, section "Link
# prediction").
#
# usage: bench/link.sh [BUILD_DIR] [SCALE] [BATCHES] [RUNS]   (default build/, 18, 64, 5)
# env:   FO_BENCH_DIR  where generated datasets are cached (default /tmp/fanout-bench)
#        FO_LINK_TEMPORAL=uniform|last  temporal link modes (edge time; R-MAT with --times 1000000,
#                      each seed edge at its own time); the node mode stays plain
#        CALLGRIND=1   also instructions per sampled edge per mode (MODES="link exclude" to pick)
#
# Builds R-MAT SCALE with CSC and CSR (build/fanout-rmat --csr; strict negatives read both),
# then runs build/fanout-link-bench (bench/link.c): 1024 seed edges per batch, fanouts
# [15, 10, 5], binary negatives 1:1, modes node / link / strict / exclude / both interleaved,
# medians of ns per sampled edge.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${1:-build}
S=${2:-18}
DIR=${FO_BENCH_DIR:-/tmp/fanout-bench}
mkdir -p "$DIR"
G=rmat$S-csr
TOPT=()
if [ -n "${FO_LINK_TEMPORAL:-}" ]; then G=rmat$S-csr-t; TOPT=(--times 1000000); fi
[ -d "$DIR/$G" ] || "$BUILD/fanout-rmat" --scale "$S" --csr "${TOPT[@]}" -o "$DIR/$G"
[ "${SKIP_TIMED:-0}" = 1 ] || nice -n 19 "$BUILD/fanout-link-bench" "$DIR/$G" "${3:-64}" "${4:-5}"
if [ "${CALLGRIND:-0}" = 1 ]; then
  # instructions per sampled edge inside the timed call of each mode (8 batches, one run)
  for mode in ${MODES:-node link strict exclude both}; do
    fn=fo_link_sampler_sample_at; [ "$mode" = node ] && fn=fo_sampler_sample
    out=$(mktemp)
    nice -n 19 valgrind --tool=callgrind --toggle-collect="$fn" --callgrind-out-file="$out" \
      "$BUILD/fanout-link-bench" "$DIR/$G" 8 1 "$mode" > "$out.json" 2>/dev/null
    ir=$(callgrind_annotate "$out" 2>/dev/null | awk '/PROGRAM TOTALS/ {gsub(",", "", $1); print $1}')
    eps=$(grep -o "\"$mode\": {\"ns_per_edge\": [0-9.]*, \"edges_per_s\": [0-9]*, \"edges\": [0-9]*" "$out.json")
    echo "$mode: Ir $ir ($eps)"
    rm -f "$out" "$out.json"
  done
fi
