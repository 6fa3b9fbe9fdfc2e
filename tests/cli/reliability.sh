# What fanout guarantees on bad input (docs/RELIABILITY.md), through the CLI: exit status 1 and
# a message naming the array, value or option, never a crash and never exit 0 with a wrong
# result. Partition of a dataset with a corrupt index; bench --features over a part whose row_eid
# is corrupt, over a book whose part counts differ from the parts and over parts of two
# partitionings mixed; partition X -o X --force;
# import of a file inside its own output; labels no reader accepts; NaN features; a --num-nodes
# the machine cannot hold; a stale temporary directory of a killed import.
. "$(dirname "$0")/common.bash"
PY=/usr/bin/python3
"$FANOUT" import --format planetoid --undirected -q data/cora/cora.content.gz data/cora/cora.cites -o cora >/dev/null

# poke DIR ARRAY INDEX VALUE: overwrite one element of DIR/ARRAY.npy (same dtype), leaving the
# manifest's checksum stale (open does not read checksums; verify would report it).
poke() {
  $PY -c '
import numpy as np, sys
p = sys.argv[1] + "/" + sys.argv[2] + ".npy"
a = np.load(p)
a[int(sys.argv[3])] = int(sys.argv[4])
np.save(p, a)' "$@"
}

echo "== partition refuses a dataset whose csc_indices hold a node id out of range"
cp -r cora bad && poke bad csc_indices 100 99999
fo partition bad -n 2 -q -o bad-parts
ls -a | grep -c 'bad-parts' || true

echo "== bench --features: a corrupt row_eid (first edge id of a row) of part 1"
"$FANOUT" partition cora -n 2 -q -o p2 > /dev/null
cp -r p2 p2bad && poke p2bad/part-1 csc_row_eid 20 2000000000
fo bench p2bad --fanout 5,5 --batch-size 64 --features --batches 100 --threads 1 2>&1 | sed 's/batch [0-9]*:/batch N:/'
echo "== bench --features: a book whose part counts no longer match the parts"
cp -r p2 p2book && $PY -c '
import numpy as np
a = np.load("p2book/book.npy"); a[7] = 1 - a[7]; np.save("p2book/book.npy", a)'
fo bench p2book --fanout 5,5 --batch-size 64 --features --batches 2 --threads 1
echo "== parts of two partitionings mixed in one directory"
"$FANOUT" partition cora -n 2 -q -o p2b > /dev/null
rm -rf p2/part-1 && cp -r p2b/part-1 p2/part-1
fo bench p2 --fanout 5,5 --batch-size 64 --features --batches 2 2>&1 | sed 's/is [0-9a-f]\{16\}, the dataset.s is [0-9a-f]\{16\}/is <id>, the dataset'"'"'s is <id>/'
fo verify p2 2>&1 | sed 's/is [0-9a-f]\{16\}, the dataset.s is [0-9a-f]\{16\}/is <id>, the dataset'"'"'s is <id>/'

echo "== an output that is (or holds, or lies in) its input is refused"
fo partition cora -n 2 -q -o cora --force
fo partition cora -n 2 -q -o cora/parts
printf '0 1\n1 2\n' > cora/edges.txt
fo import cora/edges.txt -q -o cora --force
"$FANOUT" verify cora > /dev/null && echo "cora intact"

echo "== labels no reader accepts, NaN features"
$PY -c '
import numpy as np
np.save("y.npy", np.array([0, 1, 2**40], dtype=np.int64))
np.save("x.npy", np.array([[0.0], [np.inf], [1.0]], dtype=np.float32))'
printf '0 1\n1 2\n' > e.txt
fo import e.txt -q --labels y.npy -o g1
fo import e.txt -q --features x.npy -o g2
fo import e.txt -q --features x.npy --allow-nonfinite -o g3

echo "== a --num-nodes the machine cannot hold"
fo import e.txt -q --num-nodes 1000000000000 -o g4 2>&1 | sed 's/[0-9.]* GiB available/N GiB available/'

echo "== a stale temporary directory of a killed import is removed by the next import"
$PY -c 'import os; pid = os.fork()
if pid == 0: os._exit(0)
os.waitpid(pid, 0); os.makedirs(".g5.tmp-%d-0-0000" % pid)'
ls -a | grep -c '^\.g5\.tmp-'
fo import e.txt -q -o g5
ls -a | grep -c '^\.g5\.tmp-' || true
