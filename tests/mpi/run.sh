#!/usr/bin/env bash
# tests/mpi/run.sh CASE: the MPI tests (CTest label "mpi", registered in tests/CMakeLists.txt
# when fanout is built with MPI and mpiexec exists). Environment: FANOUT (the fanout command),
# MPI_DIST (tests/mpi/mpi_dist), PYFANOUT (the build's python/ directory), MPIEXEC and MPIFLAGS (e.g. "--oversubscribe
# --allow-run-as-root"), DATA (the repository's data/), WORK (scratch, shared by the cases:
# `data` fills WORK/data, the other cases read it). Each case prints what it checked and exits
# non-zero on the first mismatch.
#
#   data     import Cora (planetoid, --undirected) and a 300-node random graph with features,
#            labels and splits (/usr/bin/python3 with numpy writes its inputs); partition them:
#            Cora in 1, 2 and 4 parts (hash, METIS), the small graph by ranges (very uneven
#            parts, and parts that own whole splits), and a copy of a Cora partition whose part 1
#            is corrupt
#   digest   `mpiexec -n R fanout bench PARTS --dist --digest --json` prints (on rank 0 only) the
#            digest of single-process `fanout bench --digest` over the unpartitioned graph: 1, 2
#            and 4 machines x 2 processes, hash and METIS, features, splits, several epochs,
#            replacement, disjoint trees, 0 and 2 loader threads, --batches
#   uneven   parts of 7, 8, 7 and 278 nodes, with 1 and 2 processes per machine
#   owned    a seed list owned entirely by machine 0, then by machine 1 (CLI), and the same
#            through the C API with start-up skew (mpi_dist check)
#   tail     --tail keep, drop and pad: 9 batches over 4 ranks give 9, 8 and 12
#   seeds    --seed-placement local: equal digests over thread counts and reruns, no remote
#            hop-0 request, tails, a machine without seeds refusing pad; --cache-mb with each
#            --cache-policy (lookahead also with --pipeline 3 and one thread): the digest of
#            no cache, with hits
#   errors   start-up errors on every rank, wrong number of parts, usage errors, a corrupt part
#   frozen   a SIGSTOPped rank: every other rank fails within 2 x the deadline naming it
#   crash    a SIGKILLed rank: the job ends non-zero within 2 x the deadline, no hang
#   corrupt  a corrupt part: its server answers with an ERROR, every rank fails with it
#   api      the C API's start-up checks (mpi_dist init, thread-level)
#   python_comm  fanout.DistContext(comm=...) over mpi4py communicators (py_dist.py subcomm,
#            lowthread): sub-communicators of MPI.COMM_WORLD.Split, MPI_COMM_WORLD untouched,
#            mpi4py at MPI_THREAD_FUNNELED refused with the way out (skipped without mpi4py)
#   disagree ranks started with different options: every loader option (C API) and the CLI's
#            (MPMD runs), each differing on one rank: every rank fails naming it and two values
#   nostart  a rank that never starts fanout's context: the others fail at the start-up deadline
#   oversize answers over max_message_bytes: refused by their server, every rank fails
#   transfer a rank stopped while answers of hundreds of KB are in flight over TCP: the others
#            fail within 2 x the deadline naming it; continued, it does not blame its peer
#   typed    a typed graph of its own partitioned by hash, range and METIS into 2 and 3 parts:
#            digests equal single process (features, labels, edge_dir out, disjoint,
#            per-edge-type fanouts), the remote feature cache with every policy (digests of
#            single process, hits), lookahead with 0, 2 and 8 pipelining threads on 2 and 4
#            machines (hash, METIS), one request per remote machine per hop and per batch, the
#            typed options that must agree (MPMD)
#   temporal weighted and temporal sampling over MPI: a random graph with edge weights, edge times
#            and node times (and one with node times only: rows ordered by neighbor time),
#            partitioned by hash and range into 2 and 4 parts: --dist digests equal single
#            process for --weighted (with and without replacement), --temporal uniform and last,
#            --time edge and node, --strict, --window; a typed graph with per-type weights;
#            link batches with --exclude-seed-edges under --weighted and --edge-dir out (typed,
#            digests equal single process, positions excluded); DistNeighborLoader weighted and
#            temporal (py_dist.py temporal)
#   python   fanout.DistContext and DistNeighborLoader (py_dist.py): same batches as
#            NeighborLoader for every tail mode, the context's rules, a corrupt part raising
#            on every rank (skipped where the Python module is not built)
#   link     the distributed link loader (`bench --dist --edge-seeds`): digests equal single
#            process over Cora's hash and METIS parts (binary, triplet, strict or not,
#            exclusion), LINK requests per batch, options that differ, --pipeline 2 and 3
#            (the single-process digest, pipeline 0's bytes; not compared); stored edge splits
#            (`--edge-seeds-split NAME` and `ET:NAME` on a typed graph) over hash and METIS
#            parts of graphs of its own: digests equal single process
#   python_link  fanout.DistLinkNeighborLoader (py_dist_link.py): every rank's batches equal
#            LinkNeighborLoader's over the unpartitioned graph array by array (2 ranks over
#            hash and METIS parts, 4 ranks as 2 machines x 2; binary and triplet, strict or
#            not, exclusion, labels, tail keep/drop/pad), bad arguments and options that
#            differ on one rank raising on every rank, a rank's uncaught argument error
#            stopping the others; a typed graph's paper__writes__author seed edges over hash
#            and METIS parts: batches equal per node and edge type; temporal seed edges
#            (edge_label_time, uniform and last) on a graph with edge times (skipped where the
#            Python module is not built)
#   ablp     the distributed ABLP loader (fo_dist_ablp_loader_create, `bench --dist --anchors`):
#            a typed graph of its own (users, items; buys, follows and reverses; supervision
#            likes (positive) and dislikes (hard negative); features; a user split) partitioned
#            by hash and METIS into 2 and 4 parts: digests equal single process (random
#            negatives strict and not, no hard negatives, --anchors-split, features, 2 epochs,
#            tails drop and pad, 2 processes per machine; --pipeline 2 and 3, and one rank
#            pipelined: the same digest); LABEL requests: at most machines - 1
#            in a batch, exactly that in the fullest; ranks with different ABLP options fail together naming the option;
#            an unknown supervision type and a supervision type as --fanout key fail on every
#            rank; fanout.DistABLPLoader (py_dist_ablp.py, where the Python module is built):
#            every rank's batches equal ABLPLoader's array by array, options that differ raise
#            on every rank
set -u
export LC_ALL=C
case_name=${1:?usage: run.sh CASE}
D="$WORK/data"
PY=/usr/bin/python3
fails=0

# mpi N ARGS...: ARGS under mpiexec with N ranks, killed after 120 s.
mpi() {
  local n=$1
  shift
  # shellcheck disable=SC2086
  timeout -k 5 120 "$MPIEXEC" $MPIFLAGS -n "$n" "$@"
}
# timed N ARGS...: mpi N ARGS... > out.txt 2> err.txt; sets rc and secs (wall seconds).
timed() {
  local start end
  start=$(date +%s.%N)
  mpi "$@" > out.txt 2> err.txt
  rc=$?
  end=$(date +%s.%N)
  secs=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f", b - a }')
  cat out.txt
}
fail() {
  echo "FAIL: $*"
  fails=$((fails + 1))
}
digest_of() { sed -n 's/.*"digest": "\([0-9a-f]*\)".*/\1/p' "$1"; }
field_of() { sed -n "s/.*\"$1\": \\([0-9.]*\\).*/\\1/p" "$2"; }

# same_digest LABEL R PPM PARTS PLAIN OPTIONS...: the --dist run on R ranks (PPM processes per
# machine, - for the shared-memory default) prints exactly one line (rank 0's JSON) whose digest
# is that of the single-process run over PLAIN.
same_digest() {
  local label=$1 r=$2 ppm=() parts=$4 plain=$5 want got lines
  [ "$3" = - ] || ppm=(--procs-per-machine "$3")
  shift 5
  "$FANOUT" bench "$D/$plain" "$@" --digest --json > single.json 2> single.err ||
    { fail "$label: single-process bench: $(cat single.err)"; return; }
  want=$(digest_of single.json)
  mpi "$r" "$FANOUT" bench "$D/$parts" --dist "${ppm[@]}" "$@" --digest --json > dist.json 2> dist.err ||
    { fail "$label: mpiexec -n $r exit $?: $(cat dist.err)"; return; }
  got=$(digest_of dist.json)
  lines=$(wc -l < dist.json)
  if [ -z "$want" ] || [ "$want" != "$got" ] || [ "$lines" != 1 ]; then
    fail "$label: digest $got ($lines lines of output), single-process $want"
    cat dist.json dist.err
  else
    echo "ok   $label: $got ($(field_of batches dist.json) batches, remote hop requests" \
      "$(sed -n 's/.*"remote_hop_requests": \(\[[^]]*\]\).*/\1/p' dist.json))"
  fi
}

mkdir -p "$WORK/$case_name" && cd "$WORK/$case_name" || exit 1
# a session directory of its own: two mpiexecs of parallel cases creating /tmp/ompi.HOST.UID at
# once can fail ("mkdir ... File exists", orte_init failed)
TMPDIR=$(mktemp -d /tmp/fo-mpi.XXXXXX) || exit 1
export TMPDIR
trap 'rm -rf "$TMPDIR"' EXIT

case $case_name in
data)
  rm -rf "$D" && mkdir -p "$D" && cd "$D" || exit 1
  "$FANOUT" import --format planetoid --undirected -q "$DATA/cora/cora.content.gz" \
    "$DATA/cora/cora.cites" -o cora > /dev/null || exit 1
  for p in 1 2 4; do
    "$FANOUT" partition cora -n $p -q -o cora-h$p > /dev/null || exit 1
  done
  for p in 2 4; do
    "$FANOUT" partition cora -n $p --method metis -q -o cora-m$p > /dev/null || exit 1
  done
  if ! $PY -c 'import numpy' 2> /dev/null; then
    echo "SKIP: $PY with numpy is needed to write the small graph's inputs"
    exit 77
  fi
  $PY - << 'EOF' || exit 1
import numpy as np
rng = np.random.default_rng(7)
n, m = 300, 1500
with open("tiny.txt", "w") as f:
    for s, d in zip(rng.integers(0, n, m), rng.integers(0, n, m)):
        f.write(f"{s} {d}\n")
np.save("x.npy", rng.standard_normal((n, 8)).astype(np.float32))
np.save("y.npy", rng.integers(0, 4, n).astype(np.int64))
np.save("train.npy", np.arange(0, 30, dtype=np.int64))      # all in part 0 of tiny-r2
np.save("own1.npy", np.arange(250, 280, dtype=np.int64))    # all in part 1 of tiny-r2
EOF
  "$FANOUT" import tiny.txt --undirected --num-nodes 300 --features x.npy --labels y.npy \
    --split train=train.npy,own1=own1.npy -q -o tiny > /dev/null || exit 1
  # range parts balanced by train nodes (0..29): 7, 8, 7 and 278 nodes
  "$FANOUT" partition tiny -n 4 --method range --balance train -q -o tiny-r4 || exit 1
  "$FANOUT" partition tiny -n 2 --method range -q -o tiny-r2 > /dev/null || exit 1
  # part 1 of a copy of cora-h2 gets neighbor ids that are no node (-1): opening it still works
  # (sizes and headers are right), sampling its nodes fails with FO_EFORMAT
  cp -r cora-h2 cora-h2-bad || exit 1
  $PY - cora-h2-bad/part-1/csc_indices.npy << 'EOF' || exit 1
import sys
p = sys.argv[1]
b = bytearray(open(p, "rb").read())
hl = int.from_bytes(b[8:10], "little")
start = 10 + hl
b[start:] = b"\xff" * (len(b) - start)
open(p, "wb").write(bytes(b))
EOF
  echo "data ready in $D"
  ;;

digest)
  base=(--fanout 5,5 --batch-size 16 --split train --features --seed 3 --threads 2)
  same_digest "2 machines x 2, hash" 4 2 cora-h2 cora "${base[@]}"
  same_digest "2 machines x 2, metis" 4 2 cora-m2 cora "${base[@]}"
  same_digest "4 machines x 2, hash" 8 2 cora-h4 cora "${base[@]}"
  same_digest "4 machines x 2, metis" 8 2 cora-m4 cora "${base[@]}"
  same_digest "1 machine x 2 (shared-memory machines)" 2 - cora-h1 cora "${base[@]}"
  same_digest "4 x 1, all nodes, 2 epochs from 3, replace, no threads" 4 1 cora-m4 cora \
    --fanout 10,5 --batch-size 512 --seed 11 --epoch 3 --epochs 2 --replace --threads 0
  same_digest "2 x 2, disjoint, 3 hops, split val" 4 2 cora-h2 cora --fanout 4,3,2 \
    --batch-size 64 --disjoint --split val --features --threads 1
  same_digest "2 x 2, --batches 5 of all nodes, no shuffle" 4 2 cora-m2 cora --fanout 3,3 \
    --batch-size 100 --batches 5 --no-shuffle --features
  ;;

uneven)
  "$FANOUT" info "$D/tiny-r4" > /dev/null || fail "info tiny-r4"
  same_digest "parts of 7/8/7/278 nodes, 4 x 1" 4 1 tiny-r4 tiny --fanout 4,4 --batch-size 32 \
    --features --seed 1 --threads 2
  same_digest "parts of 7/8/7/278 nodes, 4 x 2, split train" 8 2 tiny-r4 tiny --fanout -1,3 \
    --batch-size 4 --split train --features
  ;;

owned)
  same_digest "seeds all owned by machine 0" 4 2 tiny-r2 tiny --fanout 5,5 --batch-size 4 \
    --split train --features --threads 2
  same_digest "seeds all owned by machine 1" 4 2 tiny-r2 tiny --fanout 5,5 --batch-size 4 \
    --split own1 --features --threads 2
  for c in "tiny-r2 tiny 2|samplers and loaders over seeds of one machine, start-up skew (2 x 2)" \
    "cora-m4 cora 1|the same over Cora in 4 METIS parts (4 x 1)"; do
    read -r parts plain ppm <<< "${c%%|*}"
    if mpi 4 "$MPI_DIST" check "$D/$parts" "$D/$plain" "$ppm" > check.out 2>&1 &&
      grep -q "mpi_dist: ok" check.out; then
      echo "ok   C API: ${c#*|}"
    else
      fail "mpi_dist check $parts"
      cat check.out
    fi
  done
  ;;

tail)
  for t in keep:9 drop:8 pad:12; do
    mpi 4 "$FANOUT" bench "$D/cora-h2" --dist --procs-per-machine 2 --fanout 3 \
      --batch-size 16 --split train --tail "${t%:*}" --json > tail.json 2> tail.err ||
      fail "--tail ${t%:*}: $(cat tail.err)"
    n=$(field_of batches tail.json)
    if [ "$n" = "${t#*:}" ]; then echo "ok   --tail ${t%:*}: $n batches"
    else fail "--tail ${t%:*}: $n batches, expected ${t#*:}"; fi
  done
  ;;

seeds)
  # --seed-placement local: each machine's ranks batch the seeds it owns; the same digest for 0
  # and 2 loader threads and on a rerun, no remote request at hop 0 (the seeds are local), and
  # with METIS parts fewer remote edges and feature bytes than global seeds on hash parts
  base=(--fanout 10,5 --batch-size 16 --split train --features --seed 5)
  first() { sed -n "s/.*\"$1\": \[\([0-9.]*\).*/\1/p" "$2" | tail -1; }
  for c in cora-m2:4 cora-h2:4 cora-m4:8 tiny-r2:4; do
    parts=${c%:*} r=${c#*:}
    digs=()
    for t in 0 2 2; do
      mpi "$r" "$FANOUT" bench "$D/$parts" --dist --procs-per-machine 2 --seed-placement local \
        --threads $t "${base[@]}" --digest --json > local.json 2> err.txt ||
        { fail "$parts local, $t threads: $(cat err.txt)"; continue; }
      digs+=("$(digest_of local.json)")
    done
    h0=$(first remote_hop_requests_per_batch local.json)
    le=$(field_of remote_feature_bytes_per_batch local.json)
    mpi "$r" "$FANOUT" bench "$D/$parts" --dist --procs-per-machine 2 --threads 2 "${base[@]}" \
      --digest --json > global.json 2> err.txt || fail "$parts global: $(cat err.txt)"
    ge=$(field_of remote_feature_bytes_per_batch global.json)
    if [ "${#digs[@]}" = 3 ] && [ "${digs[0]}" = "${digs[1]}" ] && [ "${digs[1]}" = "${digs[2]}" ] &&
      [ -n "${digs[0]}" ] && [ "${digs[0]}" != "$(digest_of global.json)" ] && [ "$h0" = 0.000 ]; then
      echo "ok   $parts, $r ranks, local seeds: digest ${digs[0]} for 0 and 2 threads and a rerun" \
        "(global: $(digest_of global.json)); hop 0 remote requests/batch $h0; feature bytes/batch" \
        "$le (global $ge)"
    else
      fail "$parts local seeds: digests ${digs[*]}, global $(digest_of global.json), hop 0 $h0"
    fi
  done
  # the remote feature cache: every policy gives the digest of no cache (global seeds: the
  # single-process digest), with hits
  for sp in global local; do
    mpi 4 "$FANOUT" bench "$D/cora-m2" --dist --procs-per-machine 2 --seed-placement $sp \
      --threads 2 "${base[@]}" --digest --json > nocache.json 2> err.txt || fail "$sp, no cache: $(cat err.txt)"
    for pol in degree frequency lookahead "lookahead --pipeline 3 --threads 1"; do
      # shellcheck disable=SC2086 # (pol carries options)
      mpi 4 "$FANOUT" bench "$D/cora-m2" --dist --procs-per-machine 2 --seed-placement $sp \
        --threads 2 "${base[@]}" --cache-mb 0.5 --cache-policy $pol --lookahead 4 --digest --json \
        > cache.json 2> err.txt || { fail "$sp, cache $pol: $(cat err.txt)"; continue; }
      hr=$(field_of cache_hit_rate cache.json)
      # (with pipelining the 2-3 batches a rank has here are all fetched ahead at once, before
      # any is admitted: no hit is expected; tests/unit/test_dist_scale.c checks its hits)
      if [ "$(digest_of cache.json)" = "$(digest_of nocache.json)" ] && [ -n "$hr" ] &&
        { [ "${pol#*pipeline}" != "$pol" ] || awk -v h="$hr" 'BEGIN { exit !(h > 0) }'; }; then
        echo "ok   $sp seeds, 0.5 MiB cache, $pol: digest $(digest_of cache.json) as without, hit rate $hr," \
          "feature bytes/batch $(field_of remote_feature_bytes_per_batch cache.json)" \
          "(no cache $(field_of remote_feature_bytes_per_batch nocache.json))"
      else fail "$sp seeds, cache $pol: digest $(digest_of cache.json), without $(digest_of nocache.json), hit rate $hr"; fi
    done
  done
  # tails over machines with unequal seed counts: drop and pad are multiples of the ranks
  for t in keep drop pad; do
    mpi 4 "$FANOUT" bench "$D/cora-h2" --dist --procs-per-machine 2 --seed-placement local \
      --fanout 3 --batch-size 16 --split train --tail $t --json > tail.json 2> tail.err ||
      fail "local --tail $t: $(cat tail.err)"
    eval "n_$t=$(field_of batches tail.json)"
  done
  # shellcheck disable=SC2154
  if [ $((n_drop % 4)) = 0 ] && [ $((n_pad % 4)) = 0 ] && [ "$n_drop" -le "$n_keep" ] &&
    [ "$n_keep" -le "$n_pad" ] && [ "$n_drop" -lt "$n_pad" ]; then
    echo "ok   local seeds, tails keep/drop/pad: $n_keep, $n_drop, $n_pad batches over 4 ranks"
  else fail "local seeds, tails keep/drop/pad: $n_keep, $n_drop, $n_pad"; fi
  # seeds all owned by machine 1: machine 0's ranks have none to pad with, every rank fails
  mpi 4 "$FANOUT" bench "$D/tiny-r2" --dist --procs-per-machine 2 --seed-placement local \
    --fanout 3 --batch-size 4 --split own1 --tail pad > out.txt 2> err.txt
  rc=$?
  n=$(grep -c "^fanout: rank [0-3]: .*machine 0 owns none of the 30 input nodes.*(FO_EINVAL)$" err.txt)
  if [ $rc != 0 ] && [ "$n" = 4 ]; then
    echo "ok   local seeds, tail pad, a machine without seeds: exit $rc, all 4 ranks said why"
  else fail "local seeds pad without seeds: exit $rc"; cat err.txt; fi
  ;;

errors)
  # every rank says why, and the job exits 1
  mpi 4 "$FANOUT" bench "$D/cora-h2" --dist --procs-per-machine 3 --fanout 3 > out.txt 2> err.txt
  rc=$?
  n=$(grep -c "^fanout: rank [0-3]: dist init: procs_per_machine 3 does not divide the number of processes 4 (FO_EINVAL)$" err.txt)
  if [ $rc = 1 ] && [ "$n" = 4 ]; then echo "ok   --procs-per-machine 3 of 4: FO_EINVAL on all 4 ranks, exit 1"
  else fail "--procs-per-machine 3: exit $rc, $n of 4 ranks said why"; cat err.txt; fi
  mpi 4 "$FANOUT" bench "$D/cora-m4" --dist --procs-per-machine 2 --fanout 3 > out.txt 2> err.txt
  rc=$?
  if [ $rc != 0 ] && grep -q "^fanout: rank [0-3]: open dataset '.*cora-m4': it has 4 parts, the job has 2 machines (machine m serves part m) (FO_EINVAL)$" err.txt; then
    echo "ok   4 parts on 2 machines: FO_EINVAL, exit $rc"
  else fail "4 parts on 2 machines: exit $rc"; cat err.txt; fi
  mpi 4 "$FANOUT" bench "$D/cora-h2-bad" --dist --procs-per-machine 2 --fanout 5,5 \
    --batch-size 16 > out.txt 2> err.txt
  rc=$?
  # every rank that prints says FO_EFORMAT, the failure's own status (the ABORT notice carries
  # it), never FO_EMPI
  if [ $rc != 0 ] && grep -q "^fanout: rank [0-3]: .*(FO_EFORMAT)$" err.txt &&
     ! grep "^fanout: rank [0-3]: " err.txt | grep -qv "(FO_EFORMAT)$"; then
    echo "ok   a corrupt part: FO_EFORMAT on every rank that printed, exit $rc"
  else fail "corrupt part: exit $rc"; cat err.txt; fi
  for args in "--deadline 2" "--tail pad" "--procs-per-machine 2" "--dist --deadline 0" \
    "--dist --tail all" "--dist --bare" "--dist --procs-per-machine 0"; do
    # shellcheck disable=SC2086
    "$FANOUT" bench "$D/cora" --fanout 3 $args > out.txt 2> err.txt
    rc=$?
    if [ $rc = 2 ]; then echo "ok   bench $args: usage error: $(head -1 err.txt)"
    else fail "bench $args: exit $rc, expected 2"; cat err.txt; fi
  done
  ;;

frozen)
  # 2 machines x 2; the last rank (machine 1, local rank 1) stops; deadline 2 s
  deadline=2
  timed 4 "$MPI_DIST" frozen "$D/cora-h2" 2 $deadline
  pid=$(sed -n 's/.* pid \([0-9]*\) stops itself.*/\1/p' out.txt)
  for _ in 1 2 3 4 5 6 7 8 9 10; do # mpiexec may still be ending it
    [ -n "$pid" ] && kill -0 "$pid" 2> /dev/null || break
    sleep 0.5
  done
  if [ -n "$pid" ] && kill -0 "$pid" 2> /dev/null; then
    fail "the stopped rank (pid $pid) outlived the job"
    kill -KILL "$pid"
  fi
  [ $rc != 0 ] || fail "mpiexec exit 0"
  for r in 0 1 2; do
    line=$(grep "^mpi_dist: rank $r: failed after" out.txt)
    t=$(echo "$line" | sed -n 's/.*failed after \([0-9.]*\) s.*/\1/p')
    if [ -z "$line" ]; then fail "rank $r did not report the failure"
    elif ! echo "$line" | grep -q "machine 1 (local rank 1) did not answer .* request within 2 s"; then
      fail "rank $r: the message does not name machine 1, local rank 1: $line"
    elif ! awk -v t="$t" -v d=$deadline 'BEGIN { exit !(t <= 2 * d) }'; then
      fail "rank $r failed after $t s, more than 2 x $deadline s"
    else echo "ok   rank $r failed after $t s (deadline $deadline s), naming machine 1 (local rank 1)"; fi
  done
  echo "mpiexec exit $rc after $secs s"
  ;;

crash)
  # 2 machines x 2; the last rank dies (SIGKILL) as sampling starts; deadline 5 s: the job
  # must end, non-zero, within 2 x the deadline (Open MPI ends the others, or their deadline
  # does)
  deadline=5
  timed 4 "$MPI_DIST" crash "$D/cora-h2" 2 $deadline
  grep -q "kills itself" out.txt || fail "the last rank did not start"
  if [ $rc = 0 ]; then fail "mpiexec exit 0 after $secs s"
  elif ! awk -v t="$secs" -v d=$deadline 'BEGIN { exit !(t <= 2 * d) }'; then
    fail "the job took $secs s to end, more than 2 x $deadline s"
  else echo "ok   a killed rank ends the job: mpiexec exit $rc after $secs s"; fi
  ;;

corrupt)
  mpi 4 "$MPI_DIST" corrupt "$D/cora-h2-bad" 2 30 > out.txt 2> err.txt
  rc=$?
  cat out.txt
  [ $rc != 0 ] || fail "mpiexec exit 0"
  # ranks 0 and 1 (machine 0) get the ERROR answer; 2 and 3 (machine 1) its ABORT notice
  for r in 0 1 2 3; do
    line=$(grep "^mpi_dist: rank $r: failed after" out.txt)
    want="machine serving part 1: .*csc_indices"
    [ $r -ge 2 ] || want="$want.*(FO_EFORMAT)$"
    if [ -z "$line" ]; then fail "rank $r did not report the failure"
    elif ! echo "$line" | grep -q "$want"; then
      fail "rank $r: not the serving machine's answer ('$want'): $line"
    else echo "ok   rank $r failed with machine 1's ERROR answer"; fi
  done
  ;;

python)
  # fanout.DistContext / DistNeighborLoader (tests/mpi/py_dist.py) over the build's module
  if [ ! -f "${PYFANOUT:-}/fanout/__init__.py" ] || ! PYTHONPATH=$PYFANOUT $PY -c 'import fanout' 2> /dev/null; then
    echo "SKIP: the Python module is not built here (PYFANOUT=${PYFANOUT:-})"
    exit 77
  fi
  export PYTHONPATH=$PYFANOUT PYTHONDONTWRITEBYTECODE=1
  here=$(dirname "${BASH_SOURCE[0]}")
  for t in keep:2:4 pad:2:4 drop:1:4 keep:2:8; do
    IFS=: read -r tail ppm n <<< "$t"
    parts=cora-h$((n / ppm))
    rm -rf out && mkdir out
    if ! mpi "$n" $PY "$here/py_dist.py" epoch out "$D/$parts" "$ppm" "$tail" > py.out 2>&1; then
      fail "python epoch $parts $tail ($n ranks): $(cat py.out)"
    elif ! $PY "$here/py_dist.py" compare out "$D/cora" "$tail" "$n" > cmp.out 2>&1; then
      fail "python epoch $parts $tail ($n ranks): $(cat cmp.out)"
    else
      echo "$(cat cmp.out) ($parts)"
    fi
  done
  if mpi 4 $PY "$here/py_dist.py" placement "$D/cora-m2" 2 > pl.out 2>&1 &&
    [ "$(grep -c '^ok   python placement' pl.out)" = 4 ]; then
    echo "ok   python: seed_placement local and every cache policy on 4 ranks (batches as without a cache)"
  else fail "python placement"; cat pl.out; fi
  if mpi 4 $PY "$here/py_dist.py" api "$D/cora-h2" 2 > api.out 2>&1 &&
    [ "$(grep -c '^ok   python api' api.out)" = 4 ]; then
    echo "ok   python: DistContext rules on 4 ranks"
  else fail "python api"; cat api.out; fi
  mpi 4 $PY "$here/py_dist.py" corrupt "$D/cora-h2-bad" 2 > bad.out 2>&1
  rc=$?
  n=$(grep -c "^rank [0-3]: raised .*csc_indices" bad.out)
  if [ $rc != 0 ] && [ "$n" = 4 ]; then
    echo "ok   python: a corrupt part raises on all 4 ranks, exit $rc"
  else fail "python corrupt: exit $rc, $n of 4 ranks raised"; cat bad.out; fi
  # rank 2 started with another batch size: every rank raises naming it
  mpi 4 $PY "$here/py_dist.py" disagree "$D/cora-h2" 2 > dis.out 2>&1
  rc=$?
  n=$(grep -c "^rank [0-3]: raised ValueError: create distributed loader: option batch_size differs between processes: rank 0 has 16, rank 2 has 32" dis.out)
  if [ $rc != 0 ] && [ "$n" = 4 ]; then
    echo "ok   python: a batch size differing on rank 2 raises on all 4 ranks, exit $rc"
  else fail "python disagree: exit $rc, $n of 4 ranks raised"; cat dis.out; fi
  # an uncaught exception on rank 1: ranks 0, 2, 3 raise with it; the job ends
  timed 4 $PY "$here/py_dist.py" uncaught "$D/cora-h2" 2 > /dev/null
  n=$(grep -c "^rank [023]: raised RuntimeError .*rank 1 (machine 0, local rank 1) stopped the job: uncaught ValueError: a test exception on rank 1" out.txt)
  if [ $rc != 0 ] && [ "$n" = 3 ] && awk -v t="$secs" 'BEGIN { exit !(t < 30) }'; then
    echo "ok   python: an uncaught exception on rank 1 reaches ranks 0, 2, 3; exit $rc after $secs s"
  else fail "python uncaught: exit $rc after $secs s, $n of 3 ranks raised"; cat out.txt err.txt; fi
  # a stopped rank (deadline 2 s): the others raise naming it, and the job ends
  timed 4 $PY "$here/py_dist.py" frozen "$D/cora-h2" 2 > /dev/null
  n=$(grep -c "^rank [012]: raised RuntimeError after [0-3]\.[0-9] s: .*machine 1 (local rank 1) did not answer" out.txt)
  if [ $rc != 0 ] && [ "$n" = 3 ] && awk -v t="$secs" 'BEGIN { exit !(t < 30) }'; then
    echo "ok   python: a stopped rank fails ranks 0, 1, 2 within 2 x the deadline; exit $rc after $secs s"
  else fail "python frozen: exit $rc after $secs s, $n of 3 ranks raised in time"; cat out.txt err.txt; fi
  # the last rank never opens its part and finalizes: the others, creating their loaders, hear
  # it at once (deadline 60 s); rank 1's training thread dies of an uncaught exception; rank 1 gets Ctrl-C
  # while its batch waits for a stopped rank (deadline 60 s)
  for c in "noopen|[012]|create distributed loader: .*rank 3 reached fo_dist_finalize instead" \
    "thread|[023]|stopped the job: uncaught ValueError: NaN loss in a training thread in thread trainer" \
    "sigint|[02]|rank 1 (machine 0, local rank 1) stopped the job: uncaught KeyboardInterrupt"; do
    IFS='|' read -r m who want <<< "$c"
    timed 4 $PY "$here/py_dist.py" "$m" "$D/cora-h2" 2 > /dev/null
    n=$(grep -c "^rank $who: raised .*$want" out.txt)
    want_n=3
    [ "$m" != sigint ] || want_n=2 # rank 1 is interrupted, rank 3 is stopped
    if [ $rc != 0 ] && [ "$n" = $want_n ] && awk -v t="$secs" 'BEGIN { exit !(t < 30) }'; then
      echo "ok   python $m: $want_n ranks raised '$want'; exit $rc after $secs s"
    else fail "python $m: exit $rc after $secs s, $n of $want_n ranks raised"; cat out.txt err.txt; fi
  done
  ;;

python_comm)
  if [ ! -f "${PYFANOUT:-}/fanout/__init__.py" ] || ! PYTHONPATH=$PYFANOUT $PY -c 'import fanout, mpi4py' 2> /dev/null; then
    echo "SKIP: the Python module or mpi4py (python3-mpi4py) is missing (PYFANOUT=${PYFANOUT:-})"
    exit 77
  fi
  export PYTHONPATH=$PYFANOUT PYTHONDONTWRITEBYTECODE=1
  here=$(dirname "${BASH_SOURCE[0]}")
  if mpi 4 $PY "$here/py_dist.py" subcomm "$D/cora-h2" "$D/cora" > comm.out 2>&1 &&
    [ "$(grep -c '^ok   python comm' comm.out)" = 4 ]; then
    echo "ok   python: DistContext(comm=...) over the two halves of MPI.COMM_WORLD.Split, one" \
      "at a time"
    cat comm.out
  else fail "python subcomm"; cat comm.out; fi
  if mpi 2 $PY "$here/py_dist.py" lowthread "$D/cora-h2" > low.out 2>&1 &&
    [ "$(grep -c '^ok   python thread level' low.out)" = 2 ]; then
    echo "ok   python: mpi4py at MPI_THREAD_FUNNELED refused on both ranks with the way out"
  else fail "python lowthread"; cat low.out; fi
  ;;

api)
  if mpi 4 "$MPI_DIST" init "$D/cora-h4" > init.out 2>&1 && grep -q "mpi_dist: ok" init.out; then
    echo "ok   start-up checks (mpi_dist init)"
  else fail "mpi_dist init"; cat init.out; fi
  if mpi 2 "$MPI_DIST" thread-level > thread.out 2>&1 && grep -q "mpi_dist: ok" thread.out; then
    echo "ok   MPI_THREAD_FUNNELED refused on every rank"
  else fail "mpi_dist thread-level"; cat thread.out; fi
  ;;

disagree)
  # every option kind differing on one rank (C API), on 4 ranks: all fail naming it
  if mpi 4 "$MPI_DIST" disagree "$D/cora-h2" 2 > dis.out 2>&1 && grep -q "mpi_dist: ok" dis.out; then
    echo "ok   C API: 16 loader options and the CLI's, each differing on one of 4 ranks: FO_EINVAL everywhere"
    grep "option fanouts" dis.out
  else fail "mpi_dist disagree"; cat dis.out; fi
  # the CLI started with different options on 3 ranks (MPMD): every rank says which, exit 1
  for c in "--fanout 10,5|option fanouts differs between processes: rank 0 has 10,10, rank 2 has 10,5" \
    "--batch-size 32|option batch_size differs between processes: rank 0 has 16, rank 2 has 32" \
    "--seed 4|option seed differs between processes: rank 0 has 3, rank 2 has 4" \
    "--epochs 2|option epochs differs between processes: rank 0 has 1, rank 2 has 2" \
    "--batches 3|option batches differs between processes: rank 0 has all, rank 2 has 3" \
    "--no-shuffle|option shuffle differs between processes: rank 0 has true, rank 2 has false" \
    "--seed-placement local|option seed_placement differs between processes: rank 0 has global, rank 2 has local" \
    "--cache-mb 1 --cache-policy lookahead|option cache_bytes differs between processes: rank 0 has 0, rank 2 has 1048576"; do
    IFS='|' read -r odd want <<< "$c"
    base=(bench "$D/cora-h1" --dist --procs-per-machine 3 --fanout 10,10 --batch-size 16 --seed 3
      --threads 1)
    # shellcheck disable=SC2086
    timed 2 "$FANOUT" "${base[@]}" : -n 1 "$FANOUT" "${base[@]}" $odd > /dev/null
    n=$(grep -c "^fanout: rank [0-2]: .*$want.* (FO_EINVAL)$" err.txt)
    if [ $rc != 0 ] && [ "$n" = 3 ]; then echo "ok   CLI, rank 2 with $odd: all 3 ranks fail ('$want'), exit $rc after $secs s"
    else fail "CLI rank 2 with $odd: exit $rc, $n of 3 ranks said '$want'"; cat err.txt; fi
  done
  ;;

nostart)
  # the last of 4 ranks never starts fanout's context; start-up deadline 3 s: the others fail
  # within 1.5 x the deadline, saying so
  deadline=3
  timed 4 "$MPI_DIST" nostart $deadline > /dev/null
  for r in 0 1 2; do
    line=$(grep "^mpi_dist: rank $r: init returned" out.txt)
    t=$(echo "$line" | sed -n 's/.*after \([0-9.]*\) s:.*/\1/p')
    if [ -z "$line" ]; then fail "rank $r did not return from init"
    elif ! echo "$line" | grep -q "FO_EMPI after .*dist init: .*not every process took part within 3 s"; then
      fail "rank $r: $line"
    elif ! awk -v t="$t" -v d=$deadline 'BEGIN { exit !(t >= d - 0.1 && t <= 1.5 * d) }'; then
      fail "rank $r: init failed after $t s, deadline $deadline s"
    else echo "ok   rank $r: init failed after $t s (start-up deadline $deadline s)"; fi
  done
  [ $rc != 0 ] || fail "mpiexec exit 0"
  echo "mpiexec exit $rc after $secs s"
  ;;

oversize)
  # max_message_bytes 4096 (and its checks): the feature answers are over it; their servers
  # refuse them with an ERROR naming both sizes, and every rank fails with it
  timed 4 "$MPI_DIST" oversize "$D/cora-h2" 2 > /dev/null
  n=$(grep -c "^mpi_dist: rank [0-3]: failed after .*its fetch answer to machine [01] would have [0-9]* bytes, more than the MPI transport's limit of 4096 bytes (max_message_bytes)" out.txt)
  if [ $rc != 0 ] && [ "$n" = 4 ] && ! grep -q FAIL out.txt; then
    echo "ok   answers over max_message_bytes: refused by their server, all 4 ranks fail; exit $rc after $secs s"
    grep -m1 "rank 0: failed" out.txt
  else fail "oversize: exit $rc, $n of 4 ranks failed with the limit"; cat out.txt err.txt; fi
  ;;

transfer)
  # 2 machines x 2 sampling Cora with all neighbors and features over TCP (answers of hundreds
  # of KB, in fragments); rank 3 is stopped (SIGSTOP) while they are in flight; deadline 3 s:
  # every other rank fails within 2 x the deadline naming machine 1 (local rank 1); then rank 3
  # is continued and reports without blaming a healthy peer
  deadline=3
  tcp=()
  case "$MPIFLAGS" in *--oversubscribe*) tcp=(--mca btl tcp,self --mca btl_tcp_if_include lo) ;; esac
  rm -rf tr && mkdir tr
  # shellcheck disable=SC2086
  timeout -k 5 120 "$MPIEXEC" $MPIFLAGS "${tcp[@]}" -n 4 "$MPI_DIST" transfer "$D/cora-h2" 2 \
    $deadline "$PWD/tr" > out.txt 2>&1 &
  job=$!
  for _ in $(seq 1 120); do
    [ "$(grep -c ' samples$' out.txt)" = 4 ] && break
    sleep 0.5
  done
  pid=$(sed -n 's/^mpi_dist: rank 3: pid \([0-9]*\) samples$/\1/p' out.txt)
  if [ -z "$pid" ]; then
    fail "the ranks did not start sampling"
    cat out.txt
    kill -TERM $job 2> /dev/null
    wait $job
  else
    sleep 1.5 # answers in flight
    t_stop=$(date +%s.%N)
    kill -STOP "$pid"
    for _ in $(seq 1 $((8 * deadline))); do
      [ -f tr/rank-0.txt ] && [ -f tr/rank-1.txt ] && [ -f tr/rank-2.txt ] && break
      sleep 0.5
    done
    for r in 0 1 2; do
      line=$(cat tr/rank-$r.txt 2> /dev/null)
      t=$(echo "$line" | sed -n 's/^failed at \([0-9.]*\) s:.*/\1/p')
      if [ -z "$line" ]; then fail "rank $r did not fail within $((4 * deadline)) s of the stop"
      elif ! echo "$line" | grep -q "machine 1 (local rank 1) .*within 3 s"; then
        fail "rank $r: the message does not name machine 1 (local rank 1): $line"
      elif ! awk -v t="$t" -v s="$t_stop" -v d=$deadline 'BEGIN { exit !(t - s <= 2 * d) }'; then
        fail "rank $r failed $(awk -v t="$t" -v s="$t_stop" 'BEGIN { print t - s }') s after the stop, more than 2 x $deadline s"
      else echo "ok   rank $r failed $(awk -v t="$t" -v s="$t_stop" 'BEGIN { printf "%.2f", t - s }') s after the stop: ${line#*: }"; fi
    done
    if [ $fails != 0 ] && command -v gdb > /dev/null; then # where they wait, for the report
      for p in $(pgrep -P "$(pgrep -n -P $job)" 2> /dev/null); do
        echo "--- pid $p"
        timeout 20 gdb -p "$p" -batch -ex "thread apply all bt" 2> /dev/null | grep "^#" | head -60
      done
    fi
    kill -CONT "$pid"
    for _ in $(seq 1 20); do [ -f tr/rank-3.txt ] && break; sleep 0.5; done
    line=$(cat tr/rank-3.txt 2> /dev/null)
    if [ -z "$line" ]; then fail "the continued rank 3 did not report within 10 s"
    elif echo "$line" | grep -q "machine 0 (local rank 1)"; then fail "the continued rank 3 blames its healthy peer: $line"
    elif ! echo "$line" | grep -q "machine 1 (local rank 1)\|did not run for"; then fail "the continued rank 3: $line"
    else echo "ok   the continued rank 3 reports: ${line#*: }"; fi
    touch tr/go
    wait $job
    rc=$?
    [ $rc != 0 ] || fail "mpiexec exit 0"
    for _ in 1 2 3 4 5 6 7 8 9 10; do # mpiexec may still be ending it
      kill -0 "$pid" 2> /dev/null || break
      sleep 0.5
    done
    ! kill -0 "$pid" 2> /dev/null || { fail "rank 3 outlived the job"; kill -KILL "$pid"; }
  fi
  ;;

link)
  # the distributed link loader (fo_dist_link_loader_create): digests equal the single-process
  # link loader's over the unpartitioned graph (2 and 4 machines, hash and METIS, binary and
  # triplet, strict and not, exclusion on and off); LINK requests per batch: exclusion alone is
  # one round, so exactly one request per remote machine
  $PY -c "
import numpy as np
ip = np.load('$D/cora/csc_indptr.npy'); ix = np.load('$D/cora/csc_indices.npy')
e = np.random.default_rng(2).choice(len(ix), 300, replace=False)
dst = np.searchsorted(ip, e, side='right') - 1
open('eseeds.txt', 'w').write(','.join(f'{a}-{b}' for a, b in zip(ix[e], dst)))" || exit 1
  for opts in "--neg binary:1" "--neg triplet:3" "--neg binary:2 --no-strict" \
      "--neg binary:1 --exclude-seed-edges" "--neg triplet:2 --exclude-seed-edges" "--exclude-seed-edges"; do
    for pr in "2 cora-h2" "4 cora-h4" "2 cora-m2"; do
      set -- $pr
      # shellcheck disable=SC2086
      same_digest "link $opts, $2" "$1" 1 "$2" cora --edge-seeds @eseeds.txt --fanout 5,5 \
        --batch-size 64 $opts
      maxreq=$(sed -n 's/.*"remote_link_requests_max_batch": \([0-9]*\).*/\1/p' dist.json)
      if [ "$opts" = "--exclude-seed-edges" ] && [ "$maxreq" != "$(($1 - 1))" ]; then
        fail "link exclusion over $2: $maxreq LINK requests in a batch, expected $(($1 - 1))"
      fi
    done
  done
  ex=$(sed -n 's/.*"num_excluded": \([0-9]*\).*/\1/p' dist.json)
  [ "${ex:-0}" -gt 0 ] || fail "link: no seed edge excluded ($ex)"
  # ranks with different link options fail together, naming the option
  mpi 1 "$FANOUT" bench "$D/cora-h2" --dist --procs-per-machine 1 --edge-seeds @eseeds.txt \
    --fanout 5,5 --neg binary:1 --digest --json : -n 1 "$FANOUT" bench "$D/cora-h2" --dist \
    --procs-per-machine 1 --edge-seeds @eseeds.txt --fanout 5,5 --neg binary:2 --digest --json \
    > dis.out 2>&1
  if [ "$(grep -c 'option neg_sampling differs' dis.out)" = 2 ]; then
    echo "ok   link options that differ: every rank fails naming neg_sampling"
  else fail "link options that differ"; cat dis.out; fi
  # --seed-placement local: each machine's ranks batch the seed edges whose destination it
  # owns. 1 or 2 ranks per machine and a rerun give the same digest (tail keep); drop and pad
  # give every rank the same count, drop <= keep <= pad
  for pr in "2 cora-h2" "2 cora-m2" "4 cora-h4"; do
    set -- $pr
    m=$1
    lk=(--edge-seeds @eseeds.txt --fanout 5,5 --batch-size 32 --neg binary:1 --exclude-seed-edges
        --epochs 2 --seed-placement local --digest --json)
    mpi "$m" "$FANOUT" bench "$D/$2" --dist --procs-per-machine 1 "${lk[@]}" > l1.json 2>&1
    mpi "$m" "$FANOUT" bench "$D/$2" --dist --procs-per-machine 1 "${lk[@]}" > l2.json 2>&1
    mpi "$((2 * m))" "$FANOUT" bench "$D/$2" --dist --procs-per-machine 2 "${lk[@]}" > l3.json 2>&1
    g1=$(digest_of l1.json)
    if [ -n "$g1" ] && [ "$g1" = "$(digest_of l2.json)" ] && [ "$g1" = "$(digest_of l3.json)" ]; then
      echo "ok   link --seed-placement local over $2: $g1 for $m and $((2 * m)) ranks and a rerun" \
        "($(field_of batches l1.json) batches)"
    else fail "link --seed-placement local over $2"; cat l1.json l2.json l3.json; fi
    nk=$(field_of batches l3.json)
    for t in drop pad; do
      mpi "$((2 * m))" "$FANOUT" bench "$D/$2" --dist --procs-per-machine 2 "${lk[@]}" --tail $t \
        > lt.json 2>&1
      nt=$(field_of batches lt.json)
      if [ -n "$nt" ] && [ $((nt % (4 * m))) = 0 ] &&
        { { [ $t = drop ] && [ "$nt" -le "$nk" ]; } || { [ $t = pad ] && [ "$nt" -ge "$nk" ]; }; }; then
        echo "ok   link --seed-placement local --tail $t over $2, $((2 * m)) ranks: $nt batches" \
          "in 2 epochs (keep $nk)"
      else fail "link --seed-placement local --tail $t over $2: $nt batches (keep $nk)"; cat lt.json; fi
    done
  done
  # --cache-mb for link batches' feature gather, every policy (lookahead with --lookahead 4):
  # the digest of no cache, hits, fewer remote feature bytes
  for pr in "2 cora-m2 global" "2 cora-m2 local" "4 cora-h4 local"; do
    set -- $pr
    cb=(--edge-seeds @eseeds.txt --fanout 5,5 --batch-size 32 --neg binary:1 --features
        --seed-placement "$3" --digest --json)
    mpi "$1" "$FANOUT" bench "$D/$2" --dist --procs-per-machine 1 "${cb[@]}" > c0.json 2>&1
    f0=$(field_of remote_fetch_bytes c0.json)
    for pol in degree frequency lookahead; do
      mpi "$1" "$FANOUT" bench "$D/$2" --dist --procs-per-machine 1 "${cb[@]}" --cache-mb 0.5 \
        --cache-policy $pol --lookahead 4 > c1.json 2>&1
      f1=$(field_of remote_fetch_bytes c1.json)
      h=$(field_of cache_hits c1.json)
      if [ -n "$(digest_of c0.json)" ] && [ "$(digest_of c0.json)" = "$(digest_of c1.json)" ] &&
        [ "${h:-0}" -gt 0 ] && [ "$f1" -lt "$f0" ]; then
        echo "ok   link --cache-mb 0.5 --cache-policy $pol over $2 ($3, $1 ranks): same digest, $h" \
          "hits, remote feature bytes $f0 -> $f1"
      else fail "link --cache-mb --cache-policy $pol over $2 ($3)"; cat c0.json c1.json; fi
    done
  done
  # --pipeline 2 and 3 (threads sampling the next batches, LINK and hop requests in flight;
  # lookahead cache): the single-process digest over hash and METIS parts and local placement,
  # 2 epochs, features, exclusion; the feature and LINK bytes of pipeline 0. A
  # pipelined rank among unpipelined ones: pipeline is not compared, the same digest
  pl=(--edge-seeds @eseeds.txt --fanout 5,5 --batch-size 32 --neg binary:1 --exclude-seed-edges
      --features --epochs 2)
  "$FANOUT" bench "$D/cora" "${pl[@]}" --digest --json > ps.json 2>&1
  want=$(digest_of ps.json)
  for pr in "2 cora-h2 global" "2 cora-m2 global" "4 cora-h4 local"; do
    set -- $pr
    pc=(--dist --procs-per-machine 1 "${pl[@]}" --seed-placement "$3" --cache-mb 0.05
        --cache-policy lookahead --lookahead 4 --digest --json)
    mpi "$1" "$FANOUT" bench "$D/$2" "${pc[@]}" > p0.json 2>&1
    [ "$3" = global ] || want=$(digest_of p0.json) # local placement: not the single-process batches
    for pipe in 2 3; do
      mpi "$1" "$FANOUT" bench "$D/$2" "${pc[@]}" --pipeline $pipe > p1.json 2>&1
      if [ -n "$want" ] && [ "$(digest_of p0.json)" = "$want" ] && [ "$(digest_of p1.json)" = "$want" ] &&
        [ "$(field_of remote_fetch_bytes p1.json)" = "$(field_of remote_fetch_bytes p0.json)" ] &&
        [ "$(field_of remote_link_bytes_per_batch p1.json)" = "$(field_of remote_link_bytes_per_batch p0.json)" ] &&
        [ "$(field_of pipeline p1.json)" = $pipe ]; then
        echo "ok   link --pipeline $pipe over $2 ($3, $1 ranks): $want as pipeline 0, remote" \
          "feature bytes $(field_of remote_fetch_bytes p1.json), LINK bytes per batch" \
          "$(field_of remote_link_bytes_per_batch p1.json) as pipeline 0"
      else fail "link --pipeline $pipe over $2 ($3): digest $(digest_of p1.json), want $want"
        cat p0.json p1.json; fi
    done
  done
  pc=(--procs-per-machine 1 "${pl[@]}" --cache-mb 0.05 --cache-policy lookahead --digest --json)
  mpi 1 "$FANOUT" bench "$D/cora-h2" --dist "${pc[@]}" --pipeline 2 : -n 1 "$FANOUT" bench \
    "$D/cora-h2" --dist "${pc[@]}" > p1.json 2>&1
  if [ -n "$(digest_of ps.json)" ] && [ "$(digest_of p1.json)" = "$(digest_of ps.json)" ]; then
    echo "ok   link, rank 0 --pipeline 2, rank 1 none: $(digest_of p1.json) (not compared)"
  else fail "link, one rank pipelined"; cat p1.json; fi
  # options that differ: seed placement and tail
  for o in "--seed-placement local|--seed-placement global|seed_placement" \
      "--seed-placement local --tail drop|--seed-placement local --tail pad|tail" \
      "--cache-mb 1|--cache-mb 0|cache_bytes"; do
    IFS='|' read -r o0 o1 name <<< "$o"
    # shellcheck disable=SC2086
    mpi 1 "$FANOUT" bench "$D/cora-h2" --dist --procs-per-machine 1 --edge-seeds @eseeds.txt \
      --fanout 5,5 $o0 --digest --json : -n 1 "$FANOUT" bench "$D/cora-h2" --dist \
      --procs-per-machine 1 --edge-seeds @eseeds.txt --fanout 5,5 $o1 --digest --json > dis.out 2>&1
    if [ "$(grep -c "option $name differs" dis.out)" = 2 ]; then
      echo "ok   link options that differ: every rank fails naming $name"
    else fail "link options that differ ($name)"; cat dis.out; fi
  done
  # stored edge splits (--edge-seeds-split) under --dist: a graph and a typed graph of their own
  # with edge splits, hash and METIS parts: digests equal single process
  if ! (
    mkdir -p "$D/esplit" && cd "$D/esplit" && $PY - << 'EOF' &&
import numpy as np
rng = np.random.default_rng(1)
with open("g.txt", "w") as f:
    for a, b in zip(rng.integers(0, 400, 3000), rng.integers(0, 400, 3000)):
        f.write(f"{a} {b}\n")
np.save("tr.npy", rng.choice(3000, 500, replace=False).astype(np.int64))
np.save("te.npy", rng.choice(3000, 100, replace=False).astype(np.int64))
with open("buys.txt", "w") as f:
    for a, b in zip(rng.integers(0, 300, 2000), rng.integers(0, 200, 2000)):
        f.write(f"{a} {b}\n")
with open("fol.txt", "w") as f:
    for a, b in zip(rng.integers(0, 300, 800), rng.integers(0, 300, 800)):
        f.write(f"{a} {b}\n")
np.save("btr.npy", rng.choice(2000, 300, replace=False).astype(np.int64))
EOF
      rm -rf g g-h2 g-m2 g-h4 t t-h2 t-m2 &&
      "$FANOUT" import -q g.txt --num-nodes 400 --csc --csr --edge-split train=tr.npy,test=te.npy \
        -o g > /dev/null &&
      "$FANOUT" import -q --edge-type user,buys,item buys.txt --edge-type user,follows,user fol.txt \
        --num-nodes user=300 --num-nodes item=200 --reverse-edges --csc --csr \
        --edge-split user__buys__item:train=btr.npy -o t > /dev/null &&
      for p in h2:hash:2 m2:metis:2 h4:hash:4; do
        IFS=: read -r s m n <<< "$p"
        "$FANOUT" partition g -n "$n" --method "$m" -q -o "g-$s" > /dev/null || exit 1
        [ "$n" = 4 ] || "$FANOUT" partition t -n "$n" --method "$m" -q -o "t-$s" > /dev/null || exit 1
      done
  ); then fail "link edge splits: the graphs' import or partition"; exit 1; fi
  for opts in "--neg binary:1 --exclude-seed-edges" "--neg triplet:2 --no-shuffle" \
      "--edge-seeds-test --neg binary:2 --no-strict --epochs 2"; do
    split=train
    case "$opts" in --edge-seeds-test*) split=test; opts=${opts#--edge-seeds-test } ;; esac
    for pr in "2 esplit/g-h2" "2 esplit/g-m2" "4 esplit/g-h4"; do
      set -- $pr
      # shellcheck disable=SC2086
      same_digest "link --edge-seeds-split $split $opts, $2" "$1" 1 "$2" esplit/g \
        --edge-seeds-split $split --fanout 5,5 --batch-size 64 $opts
    done
  done
  for pr in "2 esplit/t-h2" "2 esplit/t-m2"; do
    set -- $pr
    same_digest "link typed --edge-seeds-split user__buys__item:train, $2" "$1" 1 "$2" esplit/t \
      --edge-seeds-split user__buys__item:train --fanout 5,5 --batch-size 64 --neg triplet:2 \
      --exclude-seed-edges
  done
  ;;
ablp)
  # the distributed ABLP loader: digests equal the single-process ABLP loader's over the
  # unpartitioned graph; one LABEL request per remote machine per batch
  if ! (
    mkdir -p "$D/ablp" && cd "$D/ablp" && $PY - << 'EOF' &&
import numpy as np
rng = np.random.default_rng(5)
nu, ni = 300, 200
def w(name, m, a, b):
    with open(name, "w") as f:
        for x, y in zip(rng.integers(0, a, m), rng.integers(0, b, m)):
            f.write(f"{x} {y}\n")
w("buys.txt", 2000, nu, ni)
w("follows.txt", 800, nu, nu)
w("likes.txt", 700, nu, ni)
w("dislikes.txt", 300, nu, ni)
np.save("ux.npy", rng.standard_normal((nu, 5)).astype(np.float32))
np.save("ix.npy", rng.standard_normal((ni, 3)).astype(np.float32))
np.save("train.npy", rng.choice(nu, 170, replace=False).astype(np.int64))
open("anchors.txt", "w").write(",".join(str(v) for v in rng.integers(0, nu, 250)))
EOF
      rm -rf g g-h2 g-h4 g-m2 g-m4 &&
      "$FANOUT" import -q --edge-type user,buys,item buys.txt --edge-type user,follows,user \
        follows.txt --num-nodes user=300 --num-nodes item=200 --reverse-edges --csc --csr \
        --features user=ux.npy --features item=ix.npy --split user:train=train.npy \
        --supervision-edges user__likes__item=likes.txt \
        --supervision-negatives user__dislikes__item=dislikes.txt -o g > /dev/null &&
      for n in 2 4; do
        "$FANOUT" partition g -n $n -q -o g-h$n > /dev/null &&
          "$FANOUT" partition g -n $n --method metis -q -o g-m$n > /dev/null || exit 1
      done
  ); then fail "ablp: the typed graph's import or partition"; exit 1; fi
  A="$D/ablp/anchors.txt"
  for opts in "--random-negatives 2" "--random-negatives 3 --no-strict --features" \
      "--no-hard-negatives --no-shuffle" "--anchors-split train --features --epochs 2"; do
    for pr in "2 1 ablp/g-h2" "2 1 ablp/g-m2" "4 1 ablp/g-h4" "4 1 ablp/g-m4" "4 2 ablp/g-h2"; do
      set -- $pr
      seeds=(--anchors "@$A")
      case "$opts" in *anchors-split*) seeds=() ;; esac
      # shellcheck disable=SC2086
      same_digest "ablp $opts, $3 ($1 ranks)" "$1" "$2" "$3" ablp/g "${seeds[@]}" --fanout 5,5 \
        --batch-size 32 $opts
      maxreq=$(sed -n 's/.*"remote_label_requests_max_batch": \([0-9]*\).*/\1/p' dist.json)
      perb=$(sed -n 's/.*"remote_label_requests_per_batch": \([0-9.]*\).*/\1/p' dist.json)
      machines=$(($1 / $2))
      # every remote machine owns anchors of most batches here: at most one request each
      if [ "$maxreq" != "$((machines - 1))" ] ||
        ! awk -v p="$perb" -v m="$((machines - 1))" 'BEGIN { exit !(p > 0 && p <= m) }'; then
        fail "ablp over $3: $perb LABEL requests per batch, at most $maxreq, expected $((machines - 1))"
      fi
    done
  done
  # tails over 4 ranks, 7 batches: drop keeps batches 0..3 (the single-process run's first 4),
  # pad gives 8 (batch 0 twice)
  "$FANOUT" bench "$D/ablp/g" --anchors "@$A" --fanout 5 --batch-size 40 --batches 4 --digest \
    --json > single.json 2>&1
  mpi 4 "$FANOUT" bench "$D/ablp/g-h4" --dist --procs-per-machine 1 --anchors "@$A" --fanout 5 \
    --batch-size 40 --tail drop --digest --json > dist.json 2>&1
  if [ -n "$(digest_of single.json)" ] && [ "$(digest_of single.json)" = "$(digest_of dist.json)" ] &&
    [ "$(field_of batches dist.json)" = 4 ]; then
    echo "ok   ablp --tail drop, 4 ranks: the first 4 of 7 batches ($(digest_of dist.json))"
  else fail "ablp --tail drop"; cat single.json dist.json; fi
  mpi 4 "$FANOUT" bench "$D/ablp/g-h4" --dist --procs-per-machine 1 --anchors "@$A" --fanout 5 \
    --batch-size 40 --tail pad --digest --json > dist.json 2>&1
  if [ "$(field_of batches dist.json)" = 8 ]; then echo "ok   ablp --tail pad, 4 ranks: 8 batches"
  else fail "ablp --tail pad"; cat dist.json; fi
  # --seed-placement local: each machine's ranks batch the anchors it owns (read at home: no
  # LABEL request). A machine's batches do not depend on how many ranks it has (1 or 2 per
  # machine give the same digest, tail keep) nor on the rerun; drop and pad give every rank
  # the same count (the total a multiple of the ranks), drop <= keep <= pad
  for pr in "2 ablp/g-h2" "2 ablp/g-m2" "4 ablp/g-m4"; do
    set -- $pr
    m=$1
    lk=(--anchors "@$A" --fanout 5,5 --batch-size 24 --random-negatives 2 --epochs 2 --features
        --seed-placement local --digest --json)
    mpi "$m" "$FANOUT" bench "$D/$2" --dist --procs-per-machine 1 "${lk[@]}" > l1.json 2>&1
    mpi "$m" "$FANOUT" bench "$D/$2" --dist --procs-per-machine 1 "${lk[@]}" > l2.json 2>&1
    mpi "$((2 * m))" "$FANOUT" bench "$D/$2" --dist --procs-per-machine 2 "${lk[@]}" > l3.json 2>&1
    g1=$(digest_of l1.json)
    if [ -n "$g1" ] && [ "$g1" = "$(digest_of l2.json)" ] && [ "$g1" = "$(digest_of l3.json)" ] &&
      [ "$(field_of remote_label_requests l1.json)" = 0 ] &&
      [ "$(field_of remote_label_requests l3.json)" = 0 ]; then
      echo "ok   ablp --seed-placement local over $2: $g1 for $m and $((2 * m)) ranks and a rerun" \
        "($(field_of batches l1.json) batches, no LABEL request)"
    else fail "ablp --seed-placement local over $2"; cat l1.json l2.json l3.json; fi
    nk=$(field_of batches l3.json)
    for t in drop pad; do
      mpi "$((2 * m))" "$FANOUT" bench "$D/$2" --dist --procs-per-machine 2 "${lk[@]}" --tail $t \
        > lt.json 2>&1
      nt=$(field_of batches lt.json)
      if [ -n "$nt" ] && [ $((nt % (4 * m))) = 0 ] &&
        { { [ $t = drop ] && [ "$nt" -le "$nk" ]; } || { [ $t = pad ] && [ "$nt" -ge "$nk" ]; }; }; then
        echo "ok   ablp --seed-placement local --tail $t over $2, $((2 * m)) ranks: $nt batches" \
          "in 2 epochs (keep $nk)"
      else fail "ablp --seed-placement local --tail $t over $2: $nt batches (keep $nk)"; cat lt.json; fi
    done
  done
  # --cache-mb for ABLP batches' feature gather (a typed graph: one store per node type),
  # every policy (lookahead with --lookahead 4): the digest of no cache, hits, fewer remote
  # feature bytes
  for pr in "2 ablp/g-m2 global" "2 ablp/g-m2 local" "4 ablp/g-h4 local"; do
    set -- $pr
    cb=(--anchors "@$A" --fanout 5,5 --batch-size 24 --random-negatives 2 --features
        --seed-placement "$3" --digest --json)
    mpi "$1" "$FANOUT" bench "$D/$2" --dist --procs-per-machine 1 "${cb[@]}" > c0.json 2>&1
    f0=$(field_of remote_fetch_bytes c0.json)
    for pol in degree frequency lookahead; do
      mpi "$1" "$FANOUT" bench "$D/$2" --dist --procs-per-machine 1 "${cb[@]}" --cache-mb 0.002 \
        --cache-policy $pol --lookahead 4 > c1.json 2>&1
      f1=$(field_of remote_fetch_bytes c1.json)
      h=$(field_of cache_hits c1.json)
      if [ -n "$(digest_of c0.json)" ] && [ "$(digest_of c0.json)" = "$(digest_of c1.json)" ] &&
        [ "${h:-0}" -gt 0 ] && [ "$f1" -lt "$f0" ]; then
        echo "ok   ablp --cache-mb 0.002 --cache-policy $pol over $2 ($3, $1 ranks): same digest," \
          "$h hits, remote feature bytes $f0 -> $f1"
      else fail "ablp --cache-mb --cache-policy $pol over $2 ($3)"; cat c0.json c1.json; fi
    done
  done
  # --pipeline 2 and 3 (threads sampling the next batches, LABEL and hop requests in flight;
  # lookahead cache): the single-process digest over hash and METIS parts, 2 epochs, features;
  # the feature bytes and LABEL requests of pipeline 0. A pipelined rank among unpipelined
  # ones: pipeline is not compared, the same digest
  pl=(--anchors "@$A" --fanout 5,5 --batch-size 24 --random-negatives 2 --features --epochs 2)
  "$FANOUT" bench "$D/ablp/g" "${pl[@]}" --digest --json > ps.json 2>&1
  want=$(digest_of ps.json)
  for pr in "2 ablp/g-h2" "2 ablp/g-m2" "4 ablp/g-m4"; do
    set -- $pr
    pc=(--dist --procs-per-machine 1 "${pl[@]}" --cache-mb 0.002 --cache-policy lookahead
        --lookahead 4 --digest --json)
    mpi "$1" "$FANOUT" bench "$D/$2" "${pc[@]}" > p0.json 2>&1
    for pipe in 2 3; do
      mpi "$1" "$FANOUT" bench "$D/$2" "${pc[@]}" --pipeline $pipe > p1.json 2>&1
      if [ -n "$want" ] && [ "$(digest_of p0.json)" = "$want" ] && [ "$(digest_of p1.json)" = "$want" ] &&
        [ "$(field_of remote_fetch_bytes p1.json)" = "$(field_of remote_fetch_bytes p0.json)" ] &&
        [ "$(field_of remote_label_requests p1.json)" = "$(field_of remote_label_requests p0.json)" ] &&
        [ "$(field_of pipeline p1.json)" = $pipe ]; then
        echo "ok   ablp --pipeline $pipe over $2 ($1 ranks): $want as single process, remote" \
          "feature bytes $(field_of remote_fetch_bytes p1.json), LABEL requests" \
          "$(field_of remote_label_requests p1.json) as pipeline 0"
      else fail "ablp --pipeline $pipe over $2: digest $(digest_of p1.json), want $want"
        cat p0.json p1.json; fi
    done
  done
  pc=(--procs-per-machine 1 "${pl[@]}" --cache-mb 0.002 --cache-policy lookahead --digest --json)
  mpi 1 "$FANOUT" bench "$D/ablp/g-h2" --dist "${pc[@]}" : -n 1 "$FANOUT" bench "$D/ablp/g-h2" \
    --dist "${pc[@]}" --pipeline 3 > p1.json 2>&1
  if [ -n "$want" ] && [ "$(digest_of p1.json)" = "$want" ]; then
    echo "ok   ablp, rank 1 --pipeline 3, rank 0 none: $want (not compared)"
  else fail "ablp, one rank pipelined"; cat p1.json; fi
  # ranks with different ABLP options fail together, naming the option
  for o in "--random-negatives 1|--random-negatives 2|num_random_negatives" \
      "--supervision likes|--supervision user__likes__item|supervision_edge_type" \
      "--no-hard-negatives||no_hard_negatives" "--batch-size 16|--batch-size 32|batch_size" \
      "--anchors 1,2,3|--anchors 1,2,4|input_nodes" \
      "--seed-placement local|--seed-placement global|seed_placement" \
      "--seed-placement local --tail drop|--seed-placement local --tail pad|tail" \
      "--cache-mb 0.5|--cache-mb 0|cache_bytes"; do
    IFS='|' read -r o0 o1 name <<< "$o"
    case "$o0$o1" in *--anchors*) a=() ;; *) a=(--anchors "@$A") ;; esac
    # shellcheck disable=SC2086
    mpi 1 "$FANOUT" bench "$D/ablp/g-h2" --dist --procs-per-machine 1 "${a[@]}" --fanout 5,5 $o0 \
      --digest --json : -n 1 "$FANOUT" bench "$D/ablp/g-h2" --dist --procs-per-machine 1 "${a[@]}" \
      --fanout 5,5 $o1 --digest --json > dis.out 2>&1
    if [ "$(grep -c "create distributed ABLP loader: option $name differs" dis.out)" = 2 ]; then
      echo "ok   ablp options that differ: every rank fails naming $name"
    else fail "ablp options that differ ($name)"; cat dis.out; fi
  done
  # an unknown supervision type; a supervision type as a --fanout key: every rank fails
  mpi 2 "$FANOUT" bench "$D/ablp/g-h2" --dist --procs-per-machine 1 --anchors "@$A" --fanout 5,5 \
    --supervision nope --json > err.out 2>&1
  rc=$?
  if [ $rc != 0 ] && [ "$(grep -c "supervision edge type 'nope' is not a labels-only edge type" err.out)" = 2 ]; then
    echo "ok   ablp: an unknown supervision type fails on every rank"
  else fail "ablp unknown supervision type (exit $rc)"; cat err.out; fi
  # these fail before the loader exists (the CLI's own checks): exit 1 on every rank, never a
  # crash (the dataset was closed before fo_dist_finalize while the server thread read it: a
  # segfault, exit 139, in some runs; so three runs each)
  for k in 1 2 3; do
    mpi 2 "$FANOUT" bench "$D/ablp/g-h2" --dist --procs-per-machine 1 --anchors "@$A" --fanout likes=2 \
      --fanout buys=2 --fanout rev_buys=2 --fanout follows=1 --fanout rev_follows=1 --json > err.out 2>&1
    rc=$?
    if [ $rc = 1 ] && [ "$(grep -c "'likes' is a labels-only (supervision) edge type" err.out)" = 2 ]; then
      echo "ok   ablp: a supervision type as --fanout key fails on every rank, exit 1 (run $k)"
    else fail "ablp supervision type as fanout key (exit $rc)"; cat err.out; fi
    mpi 2 "$FANOUT" bench "$D/ablp/g-h2" --dist --procs-per-machine 1 --anchors-split nope --fanout 5,5 \
      --json > err.out 2>&1
    rc=$?
    if [ $rc = 1 ] && [ "$(grep -c "has no split 'nope'" err.out)" = 2 ]; then
      echo "ok   ablp: --anchors-split of a missing split fails on every rank, exit 1 (run $k)"
    else fail "ablp --anchors-split nope (exit $rc)"; cat err.out; fi
    mpi 2 "$FANOUT" bench "$D/ablp/g-h2" --dist --procs-per-machine 1 --edge-seeds 0-1 --edge-type buys \
      --fanout likes=2 --json > err.out 2>&1
    rc=$?
    if [ $rc = 1 ] && [ "$(grep -c "'likes' is a labels-only (supervision) edge type" err.out)" = 2 ]; then
      echo "ok   link: a supervision type as --fanout key fails on every rank, exit 1 (run $k)"
    else fail "link supervision type as fanout key (exit $rc)"; cat err.out; fi
  done
  # fanout.DistABLPLoader (tests/mpi/py_dist_ablp.py) over the build's module
  if [ -f "${PYFANOUT:-}/fanout/__init__.py" ] && PYTHONPATH=$PYFANOUT $PY -c 'import fanout' 2> /dev/null; then
    here=$(dirname "${BASH_SOURCE[0]}")
    for t in 2:ablp/g-h2:1 2:ablp/g-m2:1 4:ablp/g-m4:1 4:ablp/g-h2:2; do
      IFS=: read -r n parts ppm <<< "$t"
      if PYTHONPATH=$PYFANOUT mpi "$n" $PY "$here/py_dist_ablp.py" same "$D/$parts" "$D/ablp/g" "$ppm" > same.out 2>&1 &&
        [ "$(grep -c '^ok   python ablp rank' same.out)" = "$n" ]; then
        echo "ok   python ablp over $parts, $n ranks: $(grep '^ok' same.out | head -1 | cut -d: -f2-)"
      else fail "python ablp over $parts, $n ranks"; cat same.out; fi
    done
    for t in 2:ablp/g-m2:1 4:ablp/g-h4:1 4:ablp/g-m2:2; do
      IFS=: read -r n parts ppm <<< "$t"
      if PYTHONPATH=$PYFANOUT mpi "$n" $PY "$here/py_dist_ablp.py" local "$D/$parts" "$ppm" > loc.out 2>&1 &&
        [ "$(grep -c '^ok   python ablp local rank' loc.out)" = "$n" ]; then
        echo "ok   python ablp local over $parts, $n ranks: $(grep '^ok' loc.out | head -1 | cut -d: -f2-)"
      else fail "python ablp local over $parts, $n ranks"; cat loc.out; fi
    done
    if PYTHONPATH=$PYFANOUT mpi 2 $PY "$here/py_dist_ablp.py" errors "$D/ablp/g-h2" 1 > err.out 2>&1 &&
      [ "$(grep -c '^ok   python ablp errors' err.out)" = 2 ]; then
      echo "ok   python ablp: $(grep '^ok' err.out | head -1 | cut -d: -f2-) on each of 2 ranks"
    else fail "python ablp errors"; cat err.out; fi
  else
    echo "note: the Python module is not built here: DistABLPLoader not checked"
  fi
  ;;
python_link)
  # fanout.DistLinkNeighborLoader (tests/mpi/py_dist_link.py) over the build's module
  if [ ! -f "${PYFANOUT:-}/fanout/__init__.py" ] || ! PYTHONPATH=$PYFANOUT $PY -c 'import fanout' 2> /dev/null; then
    echo "SKIP: the Python module is not built here (PYFANOUT=${PYFANOUT:-})"
    exit 77
  fi
  export PYTHONPATH=$PYFANOUT PYTHONDONTWRITEBYTECODE=1
  here=$(dirname "${BASH_SOURCE[0]}")
  for t in 2:cora-h2:1 2:cora-m2:1 4:cora-h2:2; do
    IFS=: read -r n parts ppm <<< "$t"
    if mpi "$n" $PY "$here/py_dist_link.py" same "$D/$parts" "$D/cora" "$ppm" > same.out 2>&1 &&
      [ "$(grep -c '^ok   python link rank' same.out)" = "$n" ]; then
      echo "ok   python link over $parts, $n ranks: $(grep '^ok' same.out | head -1 | cut -d: -f2-)"
    else fail "python link over $parts, $n ranks"; cat same.out; fi
  done
  # seed_placement="local": every seed edge once (keep), equal counts (drop, pad), reruns
  for t in 2:cora-m2:1 4:cora-h4:1 4:cora-h2:2; do
    IFS=: read -r n parts ppm <<< "$t"
    if mpi "$n" $PY "$here/py_dist_link.py" local "$D/$parts" "$D/cora" "$ppm" > loc.out 2>&1 &&
      [ "$(grep -c '^ok   python link local rank' loc.out)" = "$n" ]; then
      echo "ok   python link local over $parts, $n ranks: $(grep '^ok' loc.out | head -1 | cut -d: -f2-)"
    else fail "python link local over $parts, $n ranks"; cat loc.out; fi
  done
  # a typed graph (papers, authors, terms; writes, cites, has and their reverses; features of
  # papers and authors): seed edges of paper__writes__author over hash and METIS parts
  if ! (
    mkdir -p typed && cd typed && $PY - << 'EOF' &&
import numpy as np
rng = np.random.default_rng(11)
n = {"paper": 400, "author": 150, "term": 60}
for name, s, d, m in (("pa", "paper", "author", 900), ("pp", "paper", "paper", 1200),
                      ("pt", "paper", "term", 800)):
    with open(name + ".txt", "w") as f:
        for a, b in zip(rng.integers(0, n[s], m), rng.integers(0, n[d], m)):
            f.write(f"{a} {b}\n")
np.save("px.npy", rng.standard_normal((400, 6)).astype(np.float32))
np.save("ax.npy", rng.standard_normal((150, 4)).astype(np.float32))
EOF
      rm -rf g g-hash2 g-metis2 &&
      "$FANOUT" import -q --edge-type paper,writes,author pa.txt --edge-type paper,cites,paper pp.txt \
        --edge-type paper,has,term pt.txt --num-nodes paper=400 --num-nodes author=150 \
        --num-nodes term=60 --reverse-edges --csc --csr --features paper=px.npy \
        --features author=ax.npy -o g > /dev/null &&
      "$FANOUT" partition g -n 2 -q -o g-hash2 > /dev/null &&
      "$FANOUT" partition g -n 2 --method metis -q -o g-metis2 > /dev/null
  ); then fail "python link typed: the typed graph's import or partition"; fi
  for parts in g-hash2 g-metis2; do
    if mpi 2 $PY "$here/py_dist_link.py" typed "typed/$parts" typed/g 1 > typed.out 2>&1 &&
      [ "$(grep -c '^ok   python link typed rank' typed.out)" = 2 ]; then
      echo "ok   python link typed over $parts, 2 ranks: $(grep '^ok' typed.out | head -1 | cut -d: -f2-)"
    else fail "python link typed over $parts"; cat typed.out; fi
  done
  # a graph with edge times: temporal link batches (edge_label_time) over hash parts
  if ! (
    mkdir -p temporal && cd temporal && $PY - << 'EOF' &&
import numpy as np
rng = np.random.default_rng(23)
n, m = 400, 6000
with open("g.txt", "w") as f:
    for s, d in zip(rng.integers(0, n, m), rng.integers(0, n // 4, m)):
        f.write(f"{s} {d}\n")
np.save("t.npy", rng.integers(0, 1000, m).astype(np.int64))
np.save("split.npy", np.arange(0, m, 75, dtype=np.int64))
EOF
      rm -rf g g-h2 && "$FANOUT" import -q g.txt --num-nodes 400 --edge-time t.npy \
        --edge-split train=split.npy -o g > /dev/null &&
      "$FANOUT" partition g -n 2 -q -o g-h2 > /dev/null
  ); then fail "python link temporal: the graph's import or partition"; fi
  if mpi 2 $PY "$here/py_dist_link.py" temporal temporal/g-h2 temporal/g 1 > temporal.out 2>&1 &&
    [ "$(grep -c '^ok   python link temporal rank' temporal.out)" = 2 ]; then
    echo "ok   python link temporal over g-h2, 2 ranks: $(grep '^ok' temporal.out | head -1 | cut -d: -f2-)"
  else fail "python link temporal"; cat temporal.out; fi
  if mpi 2 $PY "$here/py_dist_link.py" errors "$D/cora-h2" 1 > err.out 2>&1 &&
    [ "$(grep -c '^ok   python link errors' err.out)" = 2 ]; then
    echo "ok   python link: $(grep '^ok' err.out | head -1 | cut -d: -f2-) on each of 2 ranks"
  else fail "python link errors"; cat err.out; fi
  # rank 1 alone refuses its seed edges (before the collective create) and aborts the context
  # with the message: rank 0, waiting in the create, raises with it; left uncaught instead, the
  # exit ends the job (MPI_Abort) naming it. Neither waits for the deadline (60 s).
  timed 2 $PY "$here/py_dist_link.py" abort "$D/cora-h2" 1 > /dev/null
  if [ $rc != 0 ] && grep -q '^rank 1: raised ValueError .*edge_label_index\[1\]\[3\] = 1000000 is not a node id in \[0, 2708)' out.txt &&
    grep -q '^rank 0: raised RuntimeError .*rank 1 (machine 1, local rank 0) stopped the job: ValueError: edge_label_index\[1\]\[3\] = 1000000' out.txt &&
    awk -v t="$secs" 'BEGIN { exit !(t < 30) }'; then
    echo "ok   python link: rank 1's argument error and abort raise on rank 0 (exit $rc, $secs s)"
  else fail "python link abort: exit $rc, $secs s"; cat out.txt err.txt; fi
  timed 2 $PY "$here/py_dist_link.py" uncaught "$D/cora-h2" 1 > /dev/null
  if [ $rc != 0 ] && grep -q 'ending the MPI job (MPI_Abort): rank 1 .*stopped the job: uncaught ValueError: edge_label_index\[1\]\[3\]' err.txt &&
    awk -v t="$secs" 'BEGIN { exit !(t < 30) }'; then
    echo "ok   python link: rank 1's uncaught argument error ends the job (exit $rc, $secs s)"
  else fail "python link uncaught: exit $rc, $secs s"; cat out.txt err.txt; fi
  ;;
temporal)
  # weighted and temporal sampling over MPI: the hop requests carry the mode and each node's
  # time bound, so every digest equals single process
  D="$WORK/temporal-data"
  rm -rf "$D" && mkdir -p "$D" && cd "$D" || exit 1
  if ! $PY -c 'import numpy' 2> /dev/null; then echo "SKIP: $PY with numpy is needed"; exit 77; fi
  $PY - << 'EOF' || exit 1
import numpy as np
rng = np.random.default_rng(23)
n, m = 400, 6000
with open("g.txt", "w") as f:
    for s, d in zip(rng.integers(0, n, m), rng.integers(0, n // 4, m)):
        f.write(f"{s} {d}\n")
w = rng.uniform(0, 10, m)
w[rng.integers(0, m, m // 8)] = 0
np.save("w.npy", w.astype(np.float32))
np.save("t.npy", rng.integers(0, 1000, m).astype(np.int64))
np.save("nt.npy", rng.integers(0, 1000, n).astype(np.int64))
for name, a, b, k in (("ab", 300, 200, 2500), ("bb", 200, 200, 1500)):
    with open(name + ".txt", "w") as f:
        for s, d in zip(rng.integers(0, a, k), rng.integers(0, b, k)):
            f.write(f"{s} {d}\n")
    np.save(name + "w.npy", rng.uniform(0.1, 5, k))
EOF
  "$FANOUT" import -q g.txt --num-nodes 400 --edge-weight w.npy --edge-time t.npy \
    --node-time nt.npy -o g > /dev/null || exit 1
  "$FANOUT" import -q g.txt --num-nodes 400 --node-time nt.npy -o gn > /dev/null || exit 1
  "$FANOUT" import -q --edge-type a,r,b ab.txt --edge-type b,s,b bb.txt --num-nodes a=300 \
    --num-nodes b=200 --reverse-edges --csc --csr --edge-weight a__r__b=abw.npy \
    --edge-weight b__s__b=bbw.npy -o ty > /dev/null || exit 1
  head -100 ab.txt | tr ' ' '-' | paste -sd, > ab-seeds.txt
  for g in g gn ty; do
    for p in 2 4; do
      "$FANOUT" partition $g -n $p -q -o $g-h$p > /dev/null || exit 1
    done
    "$FANOUT" partition $g -n 2 --method range -q -o $g-r2 > /dev/null || exit 1
    "$FANOUT" partition $g -n 1 -q -o $g-h1 > /dev/null || exit 1
  done
  cd "$WORK/$case_name" || exit 1
  base=(--fanout 5,3 --batch-size 32 --seed 7 --threads 2 --batches 8)
  # h1: one machine whose part holds the whole graph (the samplers' one-part shortcuts)
  for parts in h1 h2 h4 r2; do
    r=${parts#?}
    same_digest "weighted, $parts" "$r" 1 g-$parts g "${base[@]}" --weighted
    same_digest "weighted, replace, disjoint, $parts" "$r" 1 g-$parts g "${base[@]}" --weighted --replace --disjoint
    same_digest "temporal uniform, edge times, $parts" "$r" 1 g-$parts g "${base[@]}" --temporal uniform --time edge
    same_digest "temporal last, edge times, strict, window, $parts" "$r" 1 g-$parts g "${base[@]}" \
      --temporal last --time edge --strict --window 300
    same_digest "temporal uniform, node times (filtered rows), $parts" "$r" 1 g-$parts g "${base[@]}" \
      --temporal uniform --time node --strict
    same_digest "temporal last, node times (rows by node time), $parts" "$r" 1 gn-$parts gn "${base[@]}" \
      --temporal last --time node
    same_digest "temporal uniform, node times, window, replace, $parts" "$r" 1 gn-$parts gn "${base[@]}" \
      --temporal uniform --time node --window 200 --replace
    same_digest "typed weighted, edge_dir out, $parts" "$r" 1 ty-$parts ty --input-type b --fanout 4,2 \
      --batch-size 16 --seed 3 --threads 1 --weighted --edge-dir out
    same_digest "typed weighted, replace, $parts" "$r" 1 ty-$parts ty --input-type a --fanout 3,3 \
      --batch-size 16 --seed 4 --threads 0 --weighted --replace
    # link batches with seed-edge exclusion under weighted sampling and edge_dir out (the
    # excluded positions of a CSR row, and a weighted kernel's, travel in the hop requests)
    for o in "--weighted" "--edge-dir out" "--weighted --edge-dir out" "--weighted --edge-dir out --replace"; do
      # shellcheck disable=SC2086
      same_digest "link exclusion $o, typed, $parts" "$r" 1 ty-$parts ty --edge-type a__r__b \
        --edge-seeds @"$D/ab-seeds.txt" --fanout 5,3 --batch-size 16 --neg binary:1 \
        --exclude-seed-edges $o
      [ "$(field_of num_excluded dist.json)" -gt 0 ] 2> /dev/null ||
        fail "link exclusion $o, typed, $parts: nothing excluded (the case tests nothing)"
    done
  done
  # DistNeighborLoader(weighted=True, time_attr=..., input_time=...), where the module is built
  if [ -f "${PYFANOUT:-}/fanout/__init__.py" ] && PYTHONPATH=$PYFANOUT $PY -c 'import fanout' 2> /dev/null; then
    for p in 2 4; do
      if PYTHONPATH=$PYFANOUT PYTHONDONTWRITEBYTECODE=1 mpi $p $PY "$(dirname "${BASH_SOURCE[0]}")/py_dist.py" \
        temporal "$D/g-h$p" "$D/g" 1 > pyt.out 2>&1 && [ "$(grep -c '^ok   python temporal' pyt.out)" = $p ]; then
        grep '^ok' pyt.out
      else fail "python temporal on $p machines"; cat pyt.out; fi
    done
  else
    echo "skip python temporal: the Python module is not built here"
  fi
  ;;
typed)
  # a typed graph of its own (papers, authors, terms; writes, cites, has and their reverses;
  # features of papers and authors, author labels and a train split), partitioned by hash,
  # range and METIS into 2 and 3 parts: --dist digests equal single process, with one hop
  # request per remote machine per hop for all edge types and one feature request per remote
  # machine per batch for all node types
  D="$WORK/typed-data"
  rm -rf "$D" && mkdir -p "$D" && cd "$D" || exit 1
  if ! $PY -c 'import numpy' 2> /dev/null; then echo "SKIP: $PY with numpy is needed"; exit 77; fi
  $PY - << 'EOF' || exit 1
import numpy as np
rng = np.random.default_rng(11)
n = {"paper": 400, "author": 150, "term": 60}
for name, s, d, m in (("pa", "paper", "author", 900), ("pp", "paper", "paper", 1200),
                      ("pt", "paper", "term", 800)):
    with open(name + ".txt", "w") as f:
        for a, b in zip(rng.integers(0, n[s], m), rng.integers(0, n[d], m)):
            f.write(f"{a} {b}\n")
np.save("px.npy", rng.standard_normal((400, 6)).astype(np.float32))
np.save("ax.npy", rng.standard_normal((150, 4)).astype(np.float32))
np.save("ay.npy", rng.integers(0, 3, 150).astype(np.int64))
np.save("atrain.npy", rng.permutation(150)[:90].astype(np.int64))
EOF
  "$FANOUT" import -q --edge-type paper,writes,author pa.txt --edge-type paper,cites,paper pp.txt \
    --edge-type paper,has,term pt.txt --num-nodes paper=400 --num-nodes author=150 \
    --num-nodes term=60 --reverse-edges --csc --csr --features paper=px.npy --features author=ax.npy \
    --labels author=ay.npy --split author:train=atrain.npy -o g > /dev/null || exit 1
  for p in 2 3; do
    for m in hash range metis; do
      "$FANOUT" partition g -n $p --method $m -q -o g-$m$p > /dev/null || exit 1
    done
  done
  for m in hash metis; do
    "$FANOUT" partition g -n 4 --method $m -q -o g-${m}4 > /dev/null || exit 1
  done
  "$FANOUT" partition g -n 1 -q -o g-hash1 > /dev/null || exit 1
  cd "$WORK/$case_name" || exit 1
  base=(--split author:train --fanout 4,3 --batch-size 8 --features --seed 5 --threads 2)
  # one machine holding the whole graph (1 and 2 processes): the typed one-part shortcut
  for ppm in 1 2; do
    same_digest "typed, 1 machine x $ppm, author seeds, features and labels" $ppm $ppm g-hash1 g "${base[@]}"
    same_digest "typed, 1 machine x $ppm, edge_dir out, disjoint, per-edge-type fanouts" $ppm $ppm g-hash1 g \
      --input-type paper --fanout 3,2 --fanout paper__cites__paper=-1,1 --edge-dir out --disjoint \
      --batch-size 32 --features --threads 1
  done
  for p in 2 3; do
    for m in hash range metis; do
      same_digest "typed, $p x 1, $m, author seeds, features and labels" $p 1 g-$m$p g "${base[@]}"
    done
    same_digest "typed, $p x 1, metis, edge_dir out, disjoint, per-edge-type fanouts" $p 1 g-metis$p g \
      --input-type paper --fanout 3,2 --fanout paper__cites__paper=-1,1 --edge-dir out --disjoint \
      --batch-size 32 --features --threads 1
    same_digest "typed, $p x 1, hash, replace, 3 hops, 2 epochs" $p 1 g-hash$p g --input-type term \
      --fanout 5,2,2 --replace --batch-size 16 --epochs 2 --threads 0
  done
  # the remote feature cache of typed parts (a store per node type under one budget of about
  # 90 rows of 24 bytes): every policy, with 0 and 2 loader threads, gives the single-process
  # digest, with hits
  "$FANOUT" bench "$D/g" "${base[@]}" --digest --json > single.json 2> single.err ||
    fail "typed cache: single-process bench: $(cat single.err)"
  for p in 2 3; do
    for pol in degree frequency lookahead; do
      for th in 0 2; do
        mpi $p "$FANOUT" bench "$D/g-metis$p" --dist --procs-per-machine 1 "${base[@]}" --threads $th \
          --cache-mb 0.002 --cache-policy $pol --lookahead 4 --digest --json > cache.json 2> err.txt ||
          { fail "typed, $p machines, cache $pol: $(cat err.txt)"; continue; }
        hr=$(field_of cache_hit_rate cache.json)
        if [ -n "$(digest_of single.json)" ] && [ "$(digest_of cache.json)" = "$(digest_of single.json)" ] &&
          [ -n "$hr" ] && awk -v h="$hr" 'BEGIN { exit !(h > 0) }'; then
          echo "ok   typed, $p x 1, metis, cache $pol, $th threads: digest $(digest_of cache.json) as single" \
            "process, hit rate $hr, feature bytes/batch $(field_of remote_feature_bytes_per_batch cache.json)"
        else fail "typed, $p machines, cache $pol, $th threads: digest $(digest_of cache.json)," \
          "single process $(digest_of single.json), hit rate $hr"; fi
      done
    done
  done
  # pipelining of typed parts (lookahead; 0, 2 and 8 pipelining threads, one loader thread) over
  # hash and METIS on 2 and 4 machines: the single-process digest every time
  for p in 2 4; do
    for m in hash metis; do
      rows0=
      for pipe in 0 2 8; do
        mpi $p "$FANOUT" bench "$D/g-$m$p" --dist --procs-per-machine 1 "${base[@]}" --threads 1 \
          --cache-mb 0.002 --cache-policy lookahead --lookahead 4 --pipeline $pipe --digest --json \
          > pipe.json 2> err.txt || { fail "typed, $p machines, $m, pipeline $pipe: $(cat err.txt)"; continue; }
        rows=$(field_of remote_feature_bytes_per_batch pipe.json)
        [ $pipe = 0 ] && rows0=$rows
        if [ -n "$(digest_of single.json)" ] && [ "$(digest_of pipe.json)" = "$(digest_of single.json)" ]; then
          echo "ok   typed, $p x 1, $m, lookahead, pipeline $pipe: digest $(digest_of pipe.json) as single" \
            "process, feature bytes/batch $rows (pipeline 0: $rows0), hit rate $(field_of cache_hit_rate pipe.json)"
        else fail "typed, $p machines, $m, pipeline $pipe: digest $(digest_of pipe.json)," \
          "single process $(digest_of single.json)"; fi
      done
    done
  done
  # one request per remote machine per hop and per batch (all types in one message): 3
  # machines, 6 batches, no loader threads: at most 2 remote machines per batch (prefetched
  # batches add at most one more batch per rank)
  mpi 3 "$FANOUT" bench "$D/g-hash3" --dist --procs-per-machine 1 "${base[@]}" --threads 0 \
    --batches 6 --json > req.json 2> req.err || fail "typed request count: $(cat req.err)"
  hop0=$(sed -n 's/.*"remote_hop_requests": \[\([0-9]*\),.*/\1/p' req.json)
  fetch=$(sed -n 's/.*"remote_fetch_requests": \([0-9]*\),.*/\1/p' req.json)
  if [ -n "$hop0" ] && [ "$hop0" -le 18 ] && [ -n "$fetch" ] && [ "$fetch" -le 18 ] && [ "$fetch" -gt 0 ]; then
    echo "ok   typed, 3 machines, 6 batches: $hop0 hop-0 requests, $fetch feature requests (5 edge types, 3 node types: at most 2 per batch, prefetched included)"
  else fail "typed request count: hop 0 $hop0, fetch $fetch"; cat req.json; fi
  # the typed options every rank must share: input_type, per-edge-type fanouts and the cache
  # (MPMD; a pipelined rank among unpipelined ones fails as cleanly)
  for c in "--input-type paper|option input_type differs between processes: rank 0 has author, rank 1 has paper" \
    "--fanout paper__cites__paper=1,1|option edge_type_fanouts differs between processes" \
    "--cache-mb 0.002 --cache-policy lookahead --pipeline 2|option cache_bytes differs between processes: rank 0 has 0"; do
    IFS='|' read -r odd want <<< "$c"
    b=(bench "$D/g-hash2" --dist --procs-per-machine 1 --input-type author --fanout 4,3 --batch-size 8)
    # shellcheck disable=SC2086
    timed 1 "$FANOUT" "${b[@]}" : -n 1 "$FANOUT" "${b[@]}" $odd > /dev/null
    n=$(grep -c "^fanout: rank [0-1]: .*$want.* (FO_EINVAL)$" err.txt)
    if [ $rc != 0 ] && [ "$n" = 2 ]; then echo "ok   typed CLI, rank 1 with $odd: both ranks fail ('$want')"
    else fail "typed CLI rank 1 with $odd: exit $rc, $n of 2 ranks said '$want'"; cat err.txt; fi
  done
  # DistNeighborLoader over the typed parts (tests/mpi/py_dist.py typed), where the module is built
  if [ -f "${PYFANOUT:-}/fanout/__init__.py" ] && PYTHONPATH=$PYFANOUT $PY -c 'import fanout' 2> /dev/null; then
    for p in 2 3; do
      if PYTHONPATH=$PYFANOUT PYTHONDONTWRITEBYTECODE=1 mpi $p $PY "$(dirname "${BASH_SOURCE[0]}")/py_dist.py" \
        typed "$D/g-metis$p" "$D/g" 1 > pyt.out 2>&1 && [ "$(grep -c '^ok   python typed' pyt.out)" = $p ]; then
        grep '^ok' pyt.out
      else fail "python typed on $p machines"; cat pyt.out; fi
    done
  else
    echo "skip python typed: the Python module is not built here"
  fi
  ;;

*)
  echo "run.sh: unknown case '$case_name'"
  exit 2
  ;;
esac
[ $fails = 0 ] || { echo "$fails failed"; exit 1; }
