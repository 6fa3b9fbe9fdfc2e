#!/bin/bash
# The terminal case of the progress bars (tests/cli/progress.sh checks that pipes get nothing):
# each long command runs under script(1), so that its stderr is a pseudo-terminal, and the
# typescript must hold the command's bar (each draws at least once: its first update, or a
# spinner's first frame, is drawn at once) and end it with an erase ("\r\033[K") before the
# report; with --json, no bar at all. Usage: progress.sh FANOUT DATA WORK; exit 77 (skipped)
# without script(1).
set -u
FANOUT=$1 DATA=$2 WORK=$3
command -v script >/dev/null || { echo "script(1) not found: skipped"; exit 77; }
rm -rf "$WORK" && mkdir -p "$WORK" && cd "$WORK" || exit 1
fail=0
# on_tty NAME CMD...: run CMD on a terminal, the typescript in NAME.tty.
on_tty() {
  local name=$1
  shift
  script -qec "$(printf '%q ' "$@")" /dev/null >"$name.tty" 2>&1 </dev/null
}
# expect NAME TEXT: the typescript NAME.tty holds TEXT.
expect() {
  if grep -qaF -- "$2" "$1.tty"; then echo "ok: $1 shows '$2'"
  else echo "FAIL: $1 does not show '$2'"; cat -v "$1.tty" | head -5; fail=1; fi
}
refuse() {
  if grep -qaF -- "$2" "$1.tty"; then echo "FAIL: $1 shows '$2'"; fail=1
  else echo "ok: $1 does not show '$2'"; fi
}
erase=$(printf '\r\033[K')
on_tty import "$FANOUT" import --format planetoid --undirected "$DATA/cora/cora.content.gz" \
  "$DATA/cora/cora.cites" -o cora
expect import "import ["
expect import "${erase}imported cora"
on_tty partition "$FANOUT" partition cora -n 4 -o parts
expect partition "partition: hash |"
expect partition "partition: write ["
expect partition "1/4 parts"
expect partition "${erase}partitioned parts"
on_tty verify "$FANOUT" verify parts
expect verify "verify ["
expect verify "${erase}ok: parts"
on_tty bench "$FANOUT" bench cora --fanout 5,5 --batch-size 16 --epochs 2
expect bench "bench epoch 1/2 ["
expect bench "/170 batches"
expect bench "M edges/s"
expect bench "${erase}dataset"
on_tty benchjson "$FANOUT" bench cora --fanout 5,5 --batch-size 16 --json
refuse benchjson "bench epoch"
expect benchjson '{"dataset"'
on_tty quiet "$FANOUT" partition cora -n 2 -q -o parts-q
refuse quiet "partition: "
exit $fail
