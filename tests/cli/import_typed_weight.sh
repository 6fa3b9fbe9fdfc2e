# fanout import of a typed graph with edge weights per edge type (--edge-weight S__R__D=W.npy),
# weighted sampling of it, and every error of the typed --edge-weight form.
. "$(dirname "$0")/common.bash"
printf '0 0\n1 0\n2 0\n0 1\n' > pa.txt
printf '0 1\n1 0\n' > aa.txt
/usr/bin/python3 - <<'PY'
import numpy as np
np.save("wpa.npy", np.array([1, 0, 3, 2], dtype=np.float32))
np.save("waa.npy", np.array([1, 5], dtype=np.float64))
np.save("short.npy", np.array([1, 2], dtype=np.float32))
np.save("neg.npy", np.array([1, 2, -1, 2], dtype=np.float32))
PY

echo "== weights per edge type; the reverse type takes its edge's"
fo import -q --edge-type paper,writes,author pa.txt --edge-type paper,cites,paper aa.txt \
  --edge-weight paper__writes__author=wpa.npy --edge-weight paper__cites__paper=waa.npy \
  --reverse-edges --csc --csr -o g
fo verify g
/usr/bin/python3 - <<'PY'
import json, numpy as np
m = json.load(open("g/fanout.json"))
for et in m["edge_types"]:
    p = et["prefix"]
    w = np.load(f"g/{p}.csc_weight.npy")
    print(et["name"], w.dtype, w.tolist())
PY
echo "== weighted sampling: the zero-weight edge (paper 1 -> author 0) is never drawn"
fo sample g --seeds author:0,1 --fanout 2 --weighted --json
fo bench g --input-type author --fanout 2,2 --weighted --batch-size 2 --json --bare | grep -o "\"weighted\": true"
echo "== a type without weights: weighted sampling names it"
fo import -q --edge-type paper,writes,author pa.txt --edge-type paper,cites,paper aa.txt \
  --edge-weight paper__writes__author=wpa.npy -o g2
fo sample g2 --seeds author:0 --fanout 2 --weighted --json

echo "== errors: exit 1, nothing written"
fo import -q --edge-type paper,writes,author pa.txt --edge-weight paper__wrote__author=wpa.npy -o bad
fo import -q --edge-type paper,writes,author pa.txt --edge-weight author__rev_writes__paper=wpa.npy --reverse-edges -o bad
fo import -q --edge-type paper,writes,author pa.txt --edge-weight paper__writes__author=wpa.npy --edge-weight paper__writes__author=wpa.npy -o bad
fo import -q --edge-type paper,writes,author pa.txt --edge-weight paper__writes__author=short.npy -o bad
fo import -q --edge-type paper,writes,author pa.txt --edge-weight paper__writes__author=neg.npy -o bad
ls bad 2>&1
echo "== usage errors: exit 2"
fo import -q --edge-type paper,writes,author pa.txt --edge-weight wpa.npy -o bad
fo import -q --edge-type paper,writes,author pa.txt --edge-weight paper__writes__author= -o bad
