# shellcheck shell=bash disable=SC2016,SC2034 # (the agent is written verbatim; NH_FLAGS is for the caller)
# tests/netns/hosts.sh: hosts made of network namespaces, with an added delay between them
# (sourced by tests/netns/delay.sh and bench/dist_latency.sh; tests/netns/run.sh has its own
# copy of the host setup).
#
#   nh_check            exit 77 (skip) unless root, `ip netns`, unshare, iptables, ping and the
#                       delay program ($DELAYQ, tests/netns/delayq.c) are all there
#   nh_make N           namespaces ${NH}h0..h(N-1), one veth each into a bridge in ${NH}sw
#                       (nothing is added to the caller's namespace), addresses $NH_NET.1..N
#                       (a private /24 used only inside them); writes $NH_TMP/agent (the launch
#                       agent: `agent HOST CMD` runs CMD on HOST in its own UTS namespace) and
#                       $NH_TMP/hosts (SLOTS slots each, default 2); sets NH_FLAGS (mpiexec flags)
#   nh_delay RTT_MS [LOSS]
#                       every host's packets in from eth0 wait RTT_MS/2 (less delayq's own ~0.1 ms)
#                       in a delayq of its own (SCHED_FIFO, so that a loaded host does not add
#                       jitter); with LOSS (a probability, e.g. 0.002) packets into eth0 are
#                       dropped at random (iptables statistic); RTT_MS 0 and no LOSS: none
#   nh_rtt              the mean ping RTT h0 -> h1 in ms (20 pings, user to user: the kernel's
#                       receive stamps come before the delay on the way in)
#   nh_run CMD          runs the shell command line CMD on h0 (mpiexec there starts the others)
#   nh_cleanup          kills every process in the namespaces, deletes them and $NH_TMP (the
#                       caller traps EXIT with it)
NH=${NH:-fo$$}
NH_NET=${NH_NET:-10.213.78}
NH_N=0
NH_TMP=

nh_check() {
  if [ "$(id -u)" != 0 ]; then echo "SKIP: needs root (network namespaces)"; exit 77; fi
  if ! ip netns add "${NH}probe" 2> /dev/null; then echo "SKIP: ip netns does not work here"; exit 77; fi
  ip netns del "${NH}probe"
  local c
  for c in unshare iptables ping chrt; do
    command -v $c > /dev/null || { echo "SKIP: no $c (scripts/bootstrap.sh installs it)"; exit 77; }
  done
  if [ -z "${DELAYQ:-}" ] || [ ! -x "$DELAYQ" ]; then
    echo "SKIP: no delay program (tests/netns/delayq.c is built only with libnetfilter-queue-dev)"
    exit 77
  fi
  DELAYQ=$(readlink -f "$DELAYQ")
}

nh_cleanup() {
  local pid h
  for ((h = 0; h < NH_N; h++)); do
    for pid in $(ip netns pids "${NH}h$h" 2> /dev/null); do kill -KILL "$pid" 2> /dev/null; done
  done
  for ((h = 0; h < NH_N; h++)); do ip netns del "${NH}h$h" 2> /dev/null; done
  ip netns del "${NH}sw" 2> /dev/null
  [ -z "$NH_TMP" ] || rm -rf "$NH_TMP"
  return 0
}

nh_make() {
  local n=$1 h
  NH_N=$n
  NH_TMP=$(mktemp -d /tmp/fo-netns.XXXXXX) || return 1
  ip netns add "${NH}sw" && ip -n "${NH}sw" link add br0 type bridge &&
    ip -n "${NH}sw" link set br0 up && ip -n "${NH}sw" link set lo up || return 1
  for ((h = 0; h < n; h++)); do
    ip netns add "${NH}h$h" &&
      ip -n "${NH}sw" link add "p$h" type veth peer name eth0 netns "${NH}h$h" &&
      ip -n "${NH}sw" link set "p$h" master br0 && ip -n "${NH}sw" link set "p$h" up &&
      ip -n "${NH}h$h" addr add "$NH_NET.$((h + 1))/24" dev eth0 &&
      ip -n "${NH}h$h" link set eth0 up && ip -n "${NH}h$h" link set lo up || return 1
    mkdir -p "$NH_TMP/h$h"
  done
  {
    echo '#!/bin/sh'
    echo 'host=$1'
    echo 'shift'
    echo 'case $host in'
    for ((h = 0; h < n; h++)); do echo "  $NH_NET.$((h + 1)) | h$h) h=$h ;;"; done
    echo '  *) echo "agent: unknown host $host" >&2; exit 1 ;;'
    echo 'esac'
    echo "exec ip netns exec ${NH}h\$h unshare --uts sh -c \"hostname h\$h; TMPDIR=$NH_TMP/h\$h; export TMPDIR; \$*\""
  } > "$NH_TMP/agent"
  chmod +x "$NH_TMP/agent"
  : > "$NH_TMP/hosts"
  for ((h = 0; h < n; h++)); do echo "$NH_NET.$((h + 1)) slots=${SLOTS:-2}" >> "$NH_TMP/hosts"; done
  NH_FLAGS="--allow-run-as-root --oversubscribe --hostfile $NH_TMP/hosts --mca plm_rsh_agent $NH_TMP/agent \
--mca plm_rsh_no_tree_spawn 1 --mca pml ob1 --mca btl tcp,self \
--mca btl_tcp_if_include $NH_NET.0/24 --mca oob_tcp_if_include $NH_NET.0/24 --bind-to none"
}

nh_delay() {
  local rtt=$1 loss=${2:-} h pid us want=0
  for ((h = 0; h < NH_N; h++)); do
    ip netns exec "${NH}h$h" iptables -F OUTPUT && ip netns exec "${NH}h$h" iptables -F INPUT ||
      return 1
    for pid in $(ip netns pids "${NH}h$h"); do
      [ "$(cat /proc/"$pid"/comm 2> /dev/null)" = delayq ] && kill -TERM "$pid"
    done
  done
  rm -f "$NH_TMP"/delayq-h*.txt
  sleep 0.2
  us=$(awk -v r="$rtt" 'BEGIN { d = r * 500 - 100; if (d < 0) d = 0; printf "%d", d }')
  awk -v r="$rtt" 'BEGIN { exit !(r > 0) }' && want=$NH_N
  for ((h = 0; h < NH_N; h++)); do
    # loss where a real network loses packets: between the sender and the receiver's stack
    if [ -n "$loss" ]; then
      ip netns exec "${NH}h$h" iptables -A INPUT -i eth0 -m statistic --mode random \
        --probability "$loss" -j DROP || return 1
    fi
    [ "$want" = 0 ] && continue
    # on the way in, not out: a packet held below the sender's socket counts against TCP small
    # queues (a couple of packets per socket), which would cap a 10 ms link at ~1 MB/s
    ip netns exec "${NH}h$h" iptables -A INPUT -i eth0 -j NFQUEUE --queue-num 0 || return 1
    ip netns exec "${NH}h$h" chrt -f 10 "$DELAYQ" -q 0 -d "$us" 2> "$NH_TMP/delayq-h$h.txt" &
    disown
  done
  for _ in $(seq 50); do
    [ "$(cat "$NH_TMP"/delayq-h*.txt 2> /dev/null | grep -c '^delayq: queue')" = "$want" ] && return 0
    sleep 0.1
  done
  echo "delayq did not start: $(cat "$NH_TMP"/delayq-h*.txt)" >&2
  return 1
}

nh_rtt() {
  ip netns exec "${NH}h0" chrt -f 10 ping -U -q -c 20 -i 0.05 "$NH_NET.2" |
    sed -n 's|^rtt min/avg/max/mdev = [0-9.]*/\([0-9.]*\)/.*|\1|p'
}

nh_run() {
  ip netns exec "${NH}h0" unshare --uts sh -c "hostname h0; TMPDIR=$NH_TMP/h0; export TMPDIR; $1"
}
