# fanout sample failures: a seed out of range and a fanout < -1 (exit 1, the message gives the
# index/hop and the value), a missing topology for --edge-dir (exit 1, mentions --csr), and
# usage errors (exit 2) for malformed or missing options.
. "$(dirname "$0")/common.bash"

"$FANOUT" import --format planetoid --undirected -q data/cora/cora.content.gz data/cora/cora.cites -o cora >/dev/null
printf '0 1\n1 2\n' > path.txt
"$FANOUT" import --csr -q path.txt -o csr-only >/dev/null

echo "== exit 1"
fo sample cora --fanout 2 --seeds 0,2708 --json
fo sample cora --fanout 2 --seeds 7,-1,3 --json
fo sample cora --fanout -2 --seeds 0 --json
fo sample cora --fanout 5,-2 --seeds 0 --json
fo sample cora --fanout 1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1 --seeds 0 --json
fo sample cora --fanout 2 --seeds 0 --edge-dir out --json
fo sample csr-only --fanout 2 --seeds 0 --json
fo sample missing --fanout 2 --seeds 0 --json

echo "== exit 2"
fo sample cora --fanout x --seeds 0 --json
fo sample cora --fanout 5,x --seeds 0 --json
fo sample cora --fanout 1.5 --seeds 0 --json
fo sample cora --fanout 5, --seeds 0 --json
fo sample cora --fanout '' --seeds 0 --json
fo sample cora --fanout 5 --json
fo sample cora --seeds 5 --json
fo sample cora --fanout 5 --seeds a,b --json
fo sample cora --fanout 5 --seeds 0 --seed -1 --json
fo sample cora --fanout 5 --seeds 0 --epoch x --json
fo sample cora --fanout 5 --seeds 0 --edge-dir up --json
fo sample cora --fanout 5 --seeds 0 --bogus --json
fo sample cora --fanout 5 --seeds
fo sample --fanout 5 --seeds 0
fo sample cora cora --fanout 5 --seeds 0
