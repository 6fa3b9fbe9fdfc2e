#!/usr/bin/env bash
# bench/dist_typed_cache.sh: the remote feature cache on a typed real graph, for BENCHMARKS.md
# section 6: DBLP (../shared/data/dblp-hetero; author 334, paper 4,231 and term 50 float32
# features as PyG's DBLP has them, conferences none; author labels; all 4,057 authors as seeds)
# partitioned by METIS and by hash into 2 parts, under mpiexec -n 2 (one process per machine,
# one loader thread): remote feature bytes per batch without a cache and with a cache of 10 %
# of the remote rows' bytes for each policy, with the digest checked against the single-process
# run (global seeds) or the no-cache run (local seeds).
#
# usage: bench/dist_typed_cache.sh [BUILD_DIR]   (default build/, built with MPI)
# env:   FO_BENCH_DIR (default /tmp/fanout-bench), MPIFLAGS (default "--oversubscribe
#        --allow-run-as-root"), BATCHES (default: the whole epoch of 64-author batches),
#        PIPELINE_ONLY=1 (only the last table: lookahead with --pipeline 0 and 8, batches/s and
#        remote feature bytes per batch, medians of REPS runs, default 3, interleaved;
#        PIPE_EPOCHS=N runs N epochs each, default 1)
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${1:-build}
DIR=${FO_BENCH_DIR:-/tmp/fanout-bench}
MPIFLAGS=${MPIFLAGS:---oversubscribe --allow-run-as-root}
SRC=$PWD/../shared/data/dblp-hetero
F=$PWD/$BUILD/fanout
mkdir -p "$DIR/dblp-npy"
if [ ! -d "$DIR/dblp" ]; then
  /usr/bin/python3 - "$SRC" "$DIR/dblp-npy" << 'PY'
import gzip, os, sys
import numpy as np
src, out = sys.argv[1], sys.argv[2]
def rows(name):
    with gzip.open(os.path.join(src, name), "rt", encoding="ascii") as f:
        return [l.rstrip("\n").split("\t") for l in f if not l.startswith("#")]
def sparse(fields, dim):
    x = np.zeros((len(fields), dim), np.float32)
    for i, text in enumerate(fields):
        for cv in text.split():
            c, v = cv.split(":")
            x[i, int(c)] = float(v)
    return x
a = rows("dblp_author.tsv.gz")
np.save(os.path.join(out, "author_x.npy"), sparse([r[2] if len(r) > 2 else "" for r in a], 334))
y = np.array([int(r[1]) for r in a], np.int64)
np.save(os.path.join(out, "author_y.npy"), y)
np.save(os.path.join(out, "train.npy"), np.sort(np.random.default_rng(1).permutation(len(y))[: len(y) // 5]))
np.save(os.path.join(out, "paper_x.npy"), sparse([r[1] for r in rows("dblp_paper.tsv.gz")], 4231))
np.save(os.path.join(out, "term_x.npy"),
        np.array([[float(t) for t in r[1:]] for r in rows("dblp_term.tsv.gz")], np.float32))
PY
  N=$DIR/dblp-npy
  $F import -q --edge-type paper,writes,author "$SRC/dblp_paper_author.tsv.gz" \
    --edge-type paper,published_in,conference "$SRC/dblp_paper_conference.tsv.gz" \
    --edge-type paper,has_term,term "$SRC/dblp_paper_term.tsv.gz" --reverse-edges \
    --num-nodes author=4057 --num-nodes paper=14328 --num-nodes term=7723 --num-nodes conference=20 \
    --features author="$N/author_x.npy" --features paper="$N/paper_x.npy" --features term="$N/term_x.npy" \
    --labels author="$N/author_y.npy" --split author:train="$N/train.npy" -o "$DIR/dblp" > /dev/null
fi
for m in metis hash; do
  [ -d "$DIR/dblp-$m" ] || $F partition "$DIR/dblp" -n 2 --method $m -q -o "$DIR/dblp-$m" > /dev/null
done
# 10 % of the remote rows' bytes: half of all feature rows (and author labels) on 2 machines
BYTES=$(( (4057 * (334 * 4 + 8) + 14328 * 4231 * 4 + 7723 * 50 * 4) / 2 / 10 ))
MB=$(awk -v b=$BYTES 'BEGIN { printf "%.3f", b / 1048576 }')
opts=(--input-type author --fanout 10,5 --batch-size 64 --features --seed 7
      --threads 1)
[ -z "${BATCHES:-}" ] || opts+=(--batches "$BATCHES")
field() { sed -n "s/.*\"$1\": \\([0-9.]*\\).*/\\1/p" "$2"; }
digest() { sed -n 's/.*"digest": "\([0-9a-f]*\)".*/\1/p' "$1"; }
$F bench "$DIR/dblp" "${opts[@]}" --digest --json > "$DIR/single.json"
echo "cache $MB MiB ($BYTES bytes) = 10 % of a machine's remote rows; single-process digest $(digest "$DIR/single.json")"
if [ -z "${PIPELINE_ONLY:-}" ]; then
printf '| parts | seeds | cache | remote feature KiB / batch | vs no cache | hit rate | bytes saved KiB / batch | digest |\n'
printf '|---|---|---|---|---|---|---|---|\n'
for m in metis hash; do
  for sp in local global; do
    base=""
    for pol in none degree frequency lookahead; do
      c=()
      [ $pol = none ] || c=(--cache-mb "$MB" --cache-policy $pol --lookahead 8)
      # shellcheck disable=SC2086
      mpiexec $MPIFLAGS -n 2 $F bench "$DIR/dblp-$m" --dist --procs-per-machine 1 \
        --seed-placement $sp "${opts[@]}" "${c[@]}" --digest --json > "$DIR/run.json"
      fb=$(field remote_feature_bytes_per_batch "$DIR/run.json")
      [ -n "$base" ] || { base=$fb; nodig=$(digest "$DIR/run.json"); eval "one_${m}_$sp=$fb"; }
      want=$nodig
      [ $sp = local ] || want=$(digest "$DIR/single.json")
      d=$(digest "$DIR/run.json")
      [ "$d" = "$want" ] || { echo "digest $d differs from $want ($m, $sp, $pol)" >&2; exit 1; }
      awk -v m=$m -v sp=$sp -v p=$pol -v fb="$fb" -v b="$base" -v hr="$(field cache_hit_rate "$DIR/run.json")" \
        -v sv="$(field cache_bytes_saved_per_batch "$DIR/run.json")" -v d="$d" \
        'BEGIN { printf "| %s | %s | %s | %.1f | %.2fx | %.3f | %.1f | %s |\n", m, sp, p, fb / 1024, fb / b, hr, sv / 1024, d }'
    done
  done
done
# the same over 3 epochs, and the cold-start bound of lookahead in one epoch (a 1000 MiB cache)
printf '\n| parts | seeds | cache | remote feature KiB / batch | vs no cache | hit rate | bytes saved KiB / batch |\n'
printf '|---|---|---|---|---|---|---|\n'
for m in metis hash; do
  for sp in local global; do
    base=""
    for pol in "none --epochs 3" "degree --epochs 3" "frequency --epochs 3" "lookahead --epochs 3" \
      "lookahead 1000"; do
      # shellcheck disable=SC2086 # (pol is a policy and its options)
      set -- $pol
      c=()
      if [ "$2" = 1000 ]; then c=(--cache-mb 1000 --cache-policy $1 --lookahead 8)
      elif [ "$1" = none ]; then c=(--epochs 3)
      else c=(--cache-mb "$MB" --cache-policy $1 --lookahead 8 --epochs 3); fi
      mpiexec $MPIFLAGS -n 2 $F bench "$DIR/dblp-$m" --dist --procs-per-machine 1 \
        --seed-placement $sp "${opts[@]}" "${c[@]}" --digest --json > "$DIR/run.json"
      fb=$(field remote_feature_bytes_per_batch "$DIR/run.json")
      [ -n "$base" ] || base=$fb
      b=$base
      [ "$2" != 1000 ] || eval "b=\$one_${m}_$sp" # one epoch: against one epoch without a cache
      awk -v m=$m -v sp=$sp -v p="$pol" -v fb="$fb" -v b="$b" -v hr="$(field cache_hit_rate "$DIR/run.json")" \
        -v sv="$(field cache_bytes_saved_per_batch "$DIR/run.json")" \
        'BEGIN { printf "| %s | %s | %s | %.1f | %.2fx | %.3f | %.1f |\n", m, sp, p, fb / 1024, fb / b, hr, sv / 1024 }'
    done
  done
done
fi
# pipelining (--pipeline 0 and 8, lookahead cache of the same 10 %, one loader thread, global
# seeds): rank 0's batches/s (its batches / its seconds) and remote feature bytes per batch,
# medians of REPS runs taken in turn (0, 8, 0, 8, ...), digests against the single process
REPS=${REPS:-3}
$F bench "$DIR/dblp" "${opts[@]}" --epochs "${PIPE_EPOCHS:-1}" --digest --json > "$DIR/single-pipe.json"
med() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
printf '\n| parts | pipeline | batches/s (median of %d) | runs | remote feature KiB / batch | hit rate | digest |\n' "$REPS"
printf '|---|---|---|---|---|---|---|\n'
for m in metis hash; do
  rm -f "$DIR"/pipe-*.txt
  for r in $(seq "$REPS"); do
    for pipe in 0 8; do
      # shellcheck disable=SC2086
      mpiexec $MPIFLAGS -n 2 $F bench "$DIR/dblp-$m" --dist --procs-per-machine 1 --seed-placement global \
        "${opts[@]}" --epochs "${PIPE_EPOCHS:-1}" --cache-mb "$MB" --cache-policy lookahead --lookahead 8 --pipeline $pipe --digest \
        --json > "$DIR/run.json"
      d=$(digest "$DIR/run.json")
      [ "$d" = "$(digest "$DIR/single-pipe.json")" ] || { echo "digest $d differs ($m, pipeline $pipe)" >&2; exit 1; }
      [ "$pipe" != 0 ] || d0=$d
      [ "$d" = "$d0" ] || { echo "digest $d differs from pipeline 0's $d0 ($m)" >&2; exit 1; }
      awk -v b="$(field batches "$DIR/run.json")" -v s="$(field seconds "$DIR/run.json")" \
        'BEGIN { printf "%.2f\n", b / s }' >> "$DIR/pipe-$pipe-bps.txt"
      field remote_feature_bytes_per_batch "$DIR/run.json" >> "$DIR/pipe-$pipe-fb.txt"
      field cache_hit_rate "$DIR/run.json" >> "$DIR/pipe-$pipe-hr.txt"
    done
  done
  for pipe in 0 8; do
    printf '| %s | %s | %s | %s | %.1f | %s | %s |\n' $m $pipe "$(med < "$DIR/pipe-$pipe-bps.txt")" \
      "$(paste -sd' ' "$DIR/pipe-$pipe-bps.txt")" "$(med < "$DIR/pipe-$pipe-fb.txt" | awk '{ print $1 / 1024 }')" \
      "$(med < "$DIR/pipe-$pipe-hr.txt")" "$(digest "$DIR/run.json")"
  done
done
