#!/usr/bin/env bash
# bench/ir_per_edge.sh BIN N DIR ARGS...: callgrind instructions of `BIN bench DIR ARGS --batches N` minus
# `--batches 0` (open and start-up), over the run's sampled edges (BENCHMARKS.md section 5). KEEP=FILE keeps the
# N-batch callgrind output.
set -euo pipefail
F=$1; N=$2; shift 2
tmp=$(mktemp -d)
ir() {
  local b=$1; shift
  valgrind --tool=callgrind --callgrind-out-file=$tmp/cg.$b "$F" bench "$@" --batches $b --json > $tmp/out.$b 2>$tmp/err.$b || { cat $tmp/err.$b >&2; exit 1; }
  sed -n 's/^summary: \([0-9]*\).*/\1/p' $tmp/cg.$b
}
a=$(ir $N "$@"); z=$(ir 0 "$@")
e=$(sed -n 's/.*"sampled_edges": \([0-9]*\).*/\1/p' $tmp/out.$N)
echo "$* | Ir $a - $z | edges $e | $(awk -v a=$a -v z=$z -v e=$e 'BEGIN{printf "%.1f", (a-z)/e}') per edge"
[ -n "${KEEP:-}" ] && cp $tmp/cg.$N "$KEEP"
rm -rf $tmp
