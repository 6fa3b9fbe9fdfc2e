# Progress bars are for terminals only: with stderr a pipe (as here), the long commands print
# nothing on stderr, with or without --json (tests/cli/tty/progress.sh checks the terminal case).
. "$(dirname "$0")/common.bash"
# stderr_bytes CMD...: run CMD (stdout dropped), print how many bytes it wrote on stderr.
stderr_bytes() {
  local n
  n=$("$FANOUT" "$@" 2>&1 >/dev/null | wc -c)
  echo "fanout $1: exit=${PIPESTATUS[0]} stderr bytes=$n"
}
stderr_bytes import --format planetoid --undirected data/cora/cora.content.gz data/cora/cora.cites -o cora
stderr_bytes import --format planetoid --json data/cora/cora.content.gz data/cora/cora.cites -o cora-d
stderr_bytes partition cora -n 3 -o parts
stderr_bytes partition cora -n 3 --method range --json -o parts-json
stderr_bytes verify cora
stderr_bytes verify parts
stderr_bytes bench cora --fanout 5,5 --batch-size 64 --epochs 2
stderr_bytes bench cora --fanout 5,5 --batch-size 64 --json
stderr_bytes bench cora --fanout 5,5 --batch-size 64 --bare
