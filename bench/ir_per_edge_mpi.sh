#!/usr/bin/env bash
# bench/ir_per_edge_mpi.sh BIN N DIR ARGS...: bench/ir_per_edge.sh over 2 MPI processes (`--dist
# --procs-per-machine 1`: 2 machines) under callgrind (BENCHMARKS.md section 6, "Per-core cost at 2 machines"):
# both ranks' instructions summed, `--batches N` minus `--batches 0`, over the run's sampled edges; also
# without the Open MPI libraries' own instructions (their polling while a rank waits varies run to run).
# MPIRUN (default "mpirun --allow-run-as-root --oversubscribe"). KEEP=DIR keeps the callgrind outputs.
set -euo pipefail
F=$1; N=$2; shift 2
tmp=$(mktemp -d)
for b in $N 0; do
  ${MPIRUN:-mpirun --allow-run-as-root --oversubscribe} -n 2 valgrind --tool=callgrind --callgrind-out-file=$tmp/cg.$b.%p "$F" bench "$@" --dist --procs-per-machine 1 --batches $b --json > $tmp/out.$b 2>$tmp/err.$b || { grep -v '^==' $tmp/err.$b >&2; exit 1; }
  for f in $tmp/cg.$b.*; do callgrind_annotate --auto=no --threshold=100 $f 2>/dev/null | awk '/file:function/{f=1;next} /^-- /{f=0} f&&/^ *[0-9,]+ /{gsub(",","",$1); n=$1; sub(/^[^)]*\) +/,""); print n"\t"$0}'; done > $tmp/fn.$b
done
e=$(sed -n 's/.*"sampled_edges": \([0-9]*\).*/\1/p' $tmp/out.$N)
awk -F'\t' -v e=$e -v a="$*" 'NR==FNR{z[$2]+=$1;next}{n[$2]+=$1} END{for(k in n){d=n[k]-z[k]; t+=d; if (k ~ /openmpi|open-pal|libmpi|open-rte|pmix|libevent|hwloc/) mp+=d} for(k in z) if(!(k in n)) {t-=z[k]; if (k ~ /openmpi|open-pal|libmpi|open-rte|pmix|libevent|hwloc/) mp-=z[k]} printf "%s | 2 ranks | edges %d | %.1f per edge, %.1f without Open MPI (%.1f in it)\n", a, e, t/e, (t-mp)/e, mp/e}' $tmp/fn.0 $tmp/fn.$N
[ -n "${KEEP:-}" ] && cp -r $tmp "$KEEP"
rm -rf $tmp
