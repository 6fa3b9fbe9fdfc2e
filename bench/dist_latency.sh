#!/usr/bin/env bash
# bench/dist_latency.sh: per-rank batches/s of distributed sampling against the RTT between two
# hosts made of network namespaces (tests/netns/hosts.sh; the added delay is build/delayq, a
# user-space NFQUEUE delay, tests/netns/delayq.c), for BENCHMARKS.md section 6. Needs root.
#
# usage: bench/dist_latency.sh [BUILD_DIR]   (default build/, built with MPI and
#        libnetfilter-queue-dev)
# env:   FO_BENCH_DIR (default /tmp/fanout-bench; cora and cora-h2 are made if missing),
#        RUNS (default 3), RTTS (default "0 0.2 1 5 10", ms; 0 = no added delay),
#        EPOCHS (default 3: --epochs, 129 batches in all), CFGS (names of the configurations
#        to run, separated by ';', e.g. "1;1, lookahead + pipeline 8"; default all),
#        LINK=1 link batches instead (below)
#
# Cora with its 1,433 float32 features in 2 hash parts, 2 hosts x 1 process (one machine each),
# fanout [10,5], batch 64, all 2,708 nodes as seeds (43 batches an epoch; --epochs repeats them),
# global seeds (every hop and the feature fetch go to the other machine), loader threads 1, 4
# and 8 (N threads: N batches in flight), and 4 threads with a 4 MiB cache (about half of the
# other machine's rows), degree and lookahead (8 batches ahead), and the lookahead cache with
# pipelining threads (--pipeline D: D batches' hop requests in flight beside the loader threads). Per-rank batches/s = batches per rank / the slowest rank's seconds.
# Every run's digest is checked against the single-process digest.
# LINK=1: link batches (the link loader runs on the caller's thread): 1,380 seed edges (every 8th
# CSC position of Cora), binary negatives 1:1 (strict), --exclude-seed-edges, batch 64 (22 an
# epoch), the lookahead cache (4 MiB, 8 batches ahead) with --pipeline 0, 2, 4 and 8.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${1:-build}
BUILD=$(cd "$BUILD" && pwd)
DIR=${FO_BENCH_DIR:-/tmp/fanout-bench}
RUNS=${RUNS:-3}
RTTS=${RTTS:-0 0.2 1 5 10}
EPOCHS=${EPOCHS:-3}
F=$BUILD/fanout
DELAYQ=$BUILD/tests/delayq
export DELAYQ
mkdir -p "$DIR"
[ -d "$DIR/cora" ] || $F import -q --format planetoid data/cora/cora.content.gz \
  data/cora/cora.cites --undirected -o "$DIR/cora" > /dev/null
[ -d "$DIR/cora-h2" ] || $F partition "$DIR/cora" -n 2 -q -o "$DIR/cora-h2" > /dev/null
SLOTS=1
# shellcheck source=tests/netns/hosts.sh
. tests/netns/hosts.sh
nh_check
trap nh_cleanup EXIT
nh_make 2

out=$(mktemp)
# shellcheck disable=SC2054 # (commas inside values)
base=(--fanout 10,5 --batch-size 64 --seed 1 --features --epochs "$EPOCHS" --digest --json)
want=$($F bench "$DIR/cora" "${base[@]}" --threads 1 |
  sed -n 's/.*"digest": "\([0-9a-f]*\)".*/\1/p')
if [ "${LINK:-0}" = 1 ]; then
  [ -f "$DIR/cora-eseeds.txt" ] || /usr/bin/python3 -c "
import numpy as np, sys
p, i = np.load(sys.argv[1] + '/csc_indptr.npy'), np.load(sys.argv[1] + '/csc_indices.npy')
d = np.repeat(np.arange(len(p) - 1), np.diff(p))
print(','.join(f'{i[e]}-{d[e]}' for e in range(0, len(i), 8)))" "$DIR/cora" > "$DIR/cora-eseeds.txt"
  base+=(--edge-seeds "@$DIR/cora-eseeds.txt" --neg binary:1 --exclude-seed-edges)
  want=$($F bench "$DIR/cora" "${base[@]}" | sed -n 's/.*"digest": "\([0-9a-f]*\)".*/\1/p')
  cfgs=("link, pipeline 0|--cache-mb 4 --cache-policy lookahead --lookahead 8"
    "link, pipeline 2|--cache-mb 4 --cache-policy lookahead --lookahead 8 --pipeline 2"
    "link, pipeline 4|--cache-mb 4 --cache-policy lookahead --lookahead 8 --pipeline 4"
    "link, pipeline 8|--cache-mb 4 --cache-policy lookahead --lookahead 8 --pipeline 8")
else
cfgs=("1|--threads 1" "4|--threads 4" "8|--threads 8"
  "4, degree cache|--threads 4 --cache-mb 4 --cache-policy degree"
  "4, lookahead cache|--threads 4 --cache-mb 4 --cache-policy lookahead --lookahead 8"
  "1, lookahead + pipeline 8|--threads 1 --cache-mb 4 --cache-policy lookahead --lookahead 16 --pipeline 8"
  "2, lookahead + pipeline 16|--threads 2 --cache-mb 4 --cache-policy lookahead --lookahead 32 --pipeline 16")
fi
if [ -n "${CFGS:-}" ]; then # only the configurations whose names are listed (separated by ';')
  keep=()
  for c in "${cfgs[@]}"; do
    case ";$CFGS;" in *";${c%%|*};"*) keep+=("$c") ;; esac
  done
  cfgs=("${keep[@]}")
fi
for run in $(seq "$RUNS"); do
  for rtt in $RTTS; do
    nh_delay "$rtt"
    ping=$(nh_rtt)
    for c in "${cfgs[@]}"; do
      name=${c%%|*} opts=${c#*|}
      # shellcheck disable=SC2086
      line=$(nh_run "exec timeout -k 5 300 mpiexec $NH_FLAGS -n 2 $F bench $DIR/cora-h2 --dist \
        --procs-per-machine 1 --deadline 60 ${base[*]} $opts" 2> /dev/null | tail -1) || line=
      [ -n "$line" ] || { echo "rtt $rtt $name: no result" >&2; continue; }
      ok=false
      [ "$(echo "$line" | sed -n 's/.*"digest": "\([0-9a-f]*\)".*/\1/p')" = "$want" ] && ok=true
      # shellcheck disable=SC2001
      echo "$line" | sed "s/^{/{\"rtt\": $rtt, \"ping\": ${ping:-0}, \"cfg\": \"$name\", \"ok\": $ok, /" >> "$out"
      echo "run $run rtt $rtt (ping $ping ms) threads $name: ok $ok" >&2
    done
  done
done
/usr/bin/python3 - "$out" "$RUNS" << 'PY'
import json, statistics as st, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
print(f"runs: {sys.argv[2]} (medians; RTTs and configurations interleaved in each run)")
print()
cfgs = []
for r in rows:
    if r["cfg"] not in cfgs:
        cfgs.append(r["cfg"])
rtts = sorted({r["rtt"] for r in rows})
def bps(r):  # per-rank batches/s: batches per rank over the slowest rank's seconds
    return r["batches"] / r["ranks"] / r["seconds"]
print("| added RTT (ms) | ping RTT (ms) | " + " | ".join(
    f"{c} thread{'s' if c != '1' else ''}" for c in cfgs) + " | digest = single |")
print("|---:|---:|" + "---:|" * len(cfgs) + "---|")
med = {}
for rtt in rtts:
    rs = [r for r in rows if r["rtt"] == rtt]
    cells = []
    for c in cfgs:
        v = [bps(r) for r in rs if r["cfg"] == c]
        med[(rtt, c)] = st.median(v) if v else float("nan")
        cells.append(f"{med[(rtt, c)]:.1f}")
    ok = "yes" if all(r["ok"] for r in rs) else "NO"
    print(f"| {rtt:g} | {st.median(r['ping'] for r in rs):.2f} | " + " | ".join(cells) + f" | {ok} |")
print()
for c in cfgs:
    if (0, c) in med and (1, c) in med:
        print(f"- {c}: 1 ms / no added delay = {med[(1, c)] / med[(0, c)]:.2f}x", end="")
    if (10, c) in med:
        print(f"; 10 ms = {med[(10, c)]:.1f} batches/s = {med[(10, c)] / 30:.2f}x of 30", end="")
    print()
PY
rm -f "$out"
