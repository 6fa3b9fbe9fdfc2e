#!/usr/bin/env bash
# tests/netns/delay.sh: distributed sampling across two hosts made of network namespaces with
# ~2 ms of added RTT and 0.2% random loss each way (CTest netns_delay, label netns). The epoch
# digest of `fanout bench --dist` on 2 machines x 2 processes over TCP equals the single-process
# digest. Skipped (77) without root, ip netns, iptables, ping or the delay program (DELAYQ,
# tests/netns/delayq.c). Environment: FANOUT, DELAYQ, MPIEXEC, WORK (the `data` fixture's
# WORK/data). Namespaces, rules, queues and processes are removed on exit, also on failure.
set -u
export LC_ALL=C
# shellcheck source=tests/netns/hosts.sh
. "$(dirname "$0")/hosts.sh"
nh_check
trap nh_cleanup EXIT
trap 'exit 1' INT TERM
fails=0
fail() {
  echo "FAIL: $*"
  fails=$((fails + 1))
}
D=$WORK/data
[ -d "$D/cora-h2" ] || { echo "FAIL: no $D/cora-h2 (the mpi_data fixture)"; exit 1; }
mkdir -p "$WORK/netns-delay" && cd "$WORK/netns-delay" || exit 1

nh_make 2 || { fail "cannot make the hosts"; exit 1; }
nh_delay 2 0.002 || { fail "cannot add the delay"; exit 1; }
rtt=$(nh_rtt)
if [ -z "$rtt" ] || ! awk -v r="$rtt" 'BEGIN { exit !(r >= 1.5 && r < 30) }'; then
  fail "ping RTT h0 -> h1 is '$rtt' ms, not ~2 ms"
else
  echo "ok   RTT h0 -> h1 $rtt ms"
fi

# shellcheck disable=SC2054 # (commas inside values)
opts=(--fanout 10,5 --batch-size 64 --features --seed 3 --threads 2 --digest --json)
"$FANOUT" bench "$D/cora" "${opts[@]}" > single.json 2> single.err ||
  { fail "single-process bench: $(cat single.err)"; exit 1; }
want=$(sed -n 's/.*"digest": "\([0-9a-f]*\)".*/\1/p' single.json)
t0=$(date +%s.%N)
nh_run "exec timeout -k 5 60 $MPIEXEC $NH_FLAGS ${FO_NETNS_MPIEXEC_FLAGS:-} -n 4 $FANOUT bench \
  $D/cora-h2 --dist --procs-per-machine 2 --deadline 20 ${opts[*]}" > dist.json 2> dist.err
rc=$?
t=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
got=$(sed -n 's/.*"digest": "\([0-9a-f]*\)".*/\1/p' dist.json)
if [ $rc != 0 ]; then
  fail "mpiexec exit $rc after $t s: $(tail -5 dist.err)"
elif [ -z "$want" ] || [ "$got" != "$want" ] || [ "$(wc -l < dist.json)" != 1 ]; then
  fail "digest $got ($(wc -l < dist.json) lines), single-process $want"
else
  echo "ok   2 hosts x 2 over TCP, RTT $rtt ms, 0.2% loss: digest $got = single process ($t s)"
fi
[ $fails = 0 ] || { echo "$fails failed"; exit 1; }
