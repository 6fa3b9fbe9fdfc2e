# fanout import --format npy (edge_index [2, E], int32/int64, C/Fortran order) and --format mtx
# (Matrix Market coordinate: pattern/real, general/symmetric), and their format errors.
. "$(dirname "$0")/common.bash"
PY=/usr/bin/python3

echo "== npy"
$PY -c '
import numpy as np
e = [[0, 1, 2, 3, 3], [1, 2, 0, 0, 4]]
np.save("ei64.npy", np.array(e, dtype=np.int64))
np.save("ei32f.npy", np.asfortranarray(np.array(e, dtype=np.int32)))
np.save("shape3.npy", np.zeros((3, 4), dtype=np.int64))
np.save("float.npy", np.zeros((2, 4), dtype=np.float32))
np.save("neg.npy", np.array([[0, -4], [1, 0]], dtype=np.int64))
'
fo import --format npy ei64.npy -o npy64
fo import --format npy --csr --json ei32f.npy -o npy32f
fo info npy32f
fo sample npy64 --fanout -1 --seeds 0 --json
fo sample npy32f --fanout -1 --seeds 3 --edge-dir out --json
fo import --format npy shape3.npy -o bad
fo import --format npy float.npy -o bad
fo import --format npy neg.npy -o bad
fo import --format npy ei64.npy ei64.npy -o bad

echo "== mtx"
printf '%%%%MatrixMarket matrix coordinate pattern symmetric\n%% comment\n4 4 4\n2 1\n3 2\n4 1\n4 4\n' > sym.mtx
fo import --format mtx sym.mtx -o sym
fo import --format mtx --remove-self-loops --csc --csr sym.mtx -o sym-csr
fo sample sym-csr --fanout -1 --seeds 0 --edge-dir out --json
fo sample sym-csr --fanout -1 --seeds 0 --edge-dir in --json
printf '%%%%MatrixMarket matrix coordinate real general\n3 3 2\n1 2 0.5\n3 1 -2e3\n' > real.mtx
fo import --format=mtx --output=real --json real.mtx
printf '%%%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n4\n' > array.mtx
fo import --format mtx array.mtx -o bad
printf '%%%%MatrixMarket matrix coordinate pattern general\n3 3 2\n1 2\n4 1\n' > outside.mtx
fo import --format mtx outside.mtx -o bad
printf '%%%%MatrixMarket matrix coordinate pattern general\n3 3 3\n1 2\n3 1\n' > short.mtx
fo import --format mtx short.mtx -o bad
echo "== no failed import left anything behind"
ls -A
