#!/usr/bin/env bash
# bench/ablp.sh: an ABLP batch against the link batch of the same label pairs and the node batch
# of the same seeds, one thread (BENCHMARKS.md, section "ABLP").
#
# usage: bench/ablp.sh [BUILD_DIR] [BATCHES] [RUNS]   (default build/, 4, 15)
# env:   FO_BENCH_DIR  where the dataset is cached (default /tmp/fanout-bench)
#
# Makes DBLP (../shared/data/dblp-hetero) with every 10th paper-author line held out as the
# positive supervision edges author__writes_label__paper (the rest: paper__writes__author,
# paper__has_term__term, with --reverse-edges, --csc and --csr), then runs build/fanout-ablp-bench.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${1:-build}
DIR=${FO_BENCH_DIR:-/tmp/fanout-bench}
SRC=../shared/data/dblp-hetero
mkdir -p "$DIR"
if [ ! -d "$DIR/dblp-ablp" ]; then
  gzip -dc "$SRC/dblp_paper_author.tsv.gz" | awk -v g="$DIR/pa-graph.tsv" -v h="$DIR/pa-held.tsv" \
    '/^#/ {next} {if (NR % 10 == 4) print $2 "\t" $1 > h; else print $1 "\t" $2 > g}'
  "$BUILD/fanout" import -q --edge-type paper,writes,author "$DIR/pa-graph.tsv" \
    --edge-type paper,has_term,term "$SRC/dblp_paper_term.tsv.gz" \
    --num-nodes paper=14328 --num-nodes author=4057 --num-nodes term=7723 --reverse-edges --csc --csr \
    --supervision-edges "author__writes_label__paper=$DIR/pa-held.tsv" -o "$DIR/dblp-ablp"
fi
nice -n 19 "$BUILD/fanout-ablp-bench" "$DIR/dblp-ablp" "${2:-4}" "${3:-15}"
if [ "${CALLGRIND:-0}" = 1 ]; then
  # instructions inside the timed call of each mode (BATCHES batches, one run)
  for mode in node ablp link; do
    out=$(mktemp)
    nice -n 19 valgrind --tool=callgrind --collect-atstart=no --callgrind-out-file="$out" \
      "$BUILD/fanout-ablp-bench" "$DIR/dblp-ablp" "${2:-4}" 1 "$mode" > /dev/null 2>&1
    ir=$(callgrind_annotate "$out" 2>/dev/null | awk '/PROGRAM TOTALS/ {gsub(",", "", $1); print $1}')
    echo "$mode: Ir $ir"
    rm -f "$out"
  done
fi
