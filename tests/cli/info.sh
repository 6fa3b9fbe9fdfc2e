# fanout info DIR [--json]: counts, node id kind, degree summary per stored direction, arrays
# with dtype, shape, size and xxh64; and its errors.
. "$(dirname "$0")/common.bash"

"$FANOUT" import --format planetoid --undirected -q data/cora/cora.content.gz data/cora/cora.cites -o cora >/dev/null
"$FANOUT" import --undirected --csc --csr -q data/facebook-combined/facebook_combined.tsv.gz -o fb >/dev/null
printf '0 1\n0 2\n3 0\n' > small.txt
"$FANOUT" import --csr -q small.txt -o csr-only >/dev/null

echo "== cora: string ids, CSC only, max in-degree 168"
fo info cora
fo info cora --json
echo "== facebook-combined: CSC and CSR, max degree 1045 at node 107"
fo info fb
fo info --json fb
echo "== CSR only: only the out-degree line"
fo info csr-only
fo info csr-only --json
echo "== errors"
fo info missing
mkdir empty
fo info empty
fo info
fo info cora fb
fo info cora --bogus
