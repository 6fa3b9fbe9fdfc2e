# fanout import failures: malformed input (exit 1, message names file:line and the bad token),
# ids out of range, unreadable inputs, wrong input counts (exit 1), and usage errors (exit 2).
# A failed import leaves nothing behind.
. "$(dirname "$0")/common.bash"

echo "== malformed edge lists: exit 1, file:line and the offending text"
printf '0 1\n1 2\n2 x3\n' > token.txt
fo import token.txt -o out
printf '0 1\n1\n' > one.txt
fo import one.txt -o out
printf '0 1\n1 2.5\n' > real.txt
fo import real.txt -o out
printf '# big\n0 1\n1 99999999999999999999999\n' > huge.txt
fo import huge.txt -o out
printf '0 1\n-1 2\n' > negative.txt
fo import negative.txt -o out
fo import --num-nodes 2 data/cora/cora.cites -o out
printf '0 1\n' > ok.txt
fo import ok.txt token.txt -o out

echo "== unreadable input, missing parent directory, wrong number of inputs: exit 1"
fo import missing.txt -o out
fo import ok.txt -o no/such/dir
fo import --format planetoid data/cora/cora.cites -o out
fo import --format planetoid data/cora/cora.cites data/citeseer/citeseer.cites -o out
fo import --format npy ok.txt -o out

echo "== usage errors: exit 2"
fo import --format csv ok.txt -o out
fo import ok.txt
fo import -o out
fo import --format
fo import ok.txt -o
fo import --bogus ok.txt -o out
fo import --num-nodes -3 ok.txt -o out
fo import --num-nodes ten ok.txt -o out
fo import --index-dtype int16 ok.txt -o out

echo "== nothing was left behind"
ls -A
