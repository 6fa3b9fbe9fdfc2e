# fanout sample DIR --fanout ... --seeds ... --json: the PyG SamplerOutput layout (node, row, col,
# edge, num_sampled_nodes, num_sampled_edges, batch with --disjoint). Deterministic settings
# (fanout -1, fanout >= degree, fanout 0) are checked against hand/reference results; the
# seeded random ones (--seed 7, --replace, --epoch, --batch-index) pin the Philox streams.
. "$(dirname "$0")/common.bash"

"$FANOUT" import --format planetoid --undirected -q data/cora/cora.content.gz data/cora/cora.cites -o cora >/dev/null
"$FANOUT" import --undirected --csc --csr -q data/facebook-combined/facebook_combined.tsv.gz -o fb >/dev/null
# A small directed graph, edges in input order: 0->1 0->2 1->2 2->0 3->2 2->3. Edge ids are CSC
# positions: 2->0 is 0, 0->1 is 1, 0->2 is 2, 1->2 is 3, 3->2 is 4, 2->3 is 5.
printf '0 1\n0 2\n1 2\n2 0\n3 2\n2 3\n' > directed.txt
"$FANOUT" import --csc --csr -q directed.txt -o directed >/dev/null

echo "== deterministic: fanout -1 takes every neighbor in stored order"
fo sample directed --fanout -1,-1 --seeds 0 --json
fo sample directed --fanout -1,-1 --seeds 0 --edge-dir out --json
fo sample directed --fanout 5,5 --seeds 0 --edge-dir out --json
fo sample directed --fanout -1 --seeds 2,2 --json
fo sample directed --fanout 0,-1 --seeds 1,3 --json
fo sample directed --fanout -1 --seeds 1 --edge-dir out --disjoint --json
fo sample cora --fanout -1 --seeds 0 --json
fo sample cora --fanout -1,-1 --seeds 0,5 --json
echo "== --json is the default and only output"
fo sample cora --fanout -1 --seeds 0

echo "== --orig-ids: cora's paper ids (strings)"
fo sample cora --fanout -1 --seeds 0,5 --orig-ids --json

echo "== --disjoint: one tree per seed, 'batch' gives each node's seed"
fo sample cora --fanout -1 --seeds 0,0 --disjoint --json
fo sample cora --fanout -1 --seeds 5,0 --disjoint --orig-ids --json

echo "== seeded random (--seed 7), repeatable"
fo sample cora --fanout 2,2 --seeds 0,5 --seed 7 --json
"$FANOUT" sample cora --fanout 2,2 --seeds 0,5 --seed 7 --json > a.json
"$FANOUT" sample cora --fanout 2,2 --seeds 0,5 --seed 7 --json > b.json
cmp a.json b.json && echo "same batch twice"
fo sample cora --fanout 2,2 --seeds 0,5 --seed 8 --json
fo sample cora --fanout 2,2 --seeds 0,5 --seed 7 --epoch 1 --json
fo sample cora --fanout 2,2 --seeds 0,5 --seed 7 --batch-index 3 --json
fo sample cora --fanout 3,2 --seeds 0,5 --seed 7 --replace --json
fo sample cora --fanout 2,2 --seeds 0,5 --seed 7 --disjoint --json

echo "== --edge-dir out needs the CSR (imported with --csr)"
fo sample fb --fanout 4,2 --seeds 0,107 --seed 7 --edge-dir out --json
fo sample fb --fanout 4,2 --seeds 0,107 --seed 7 --edge-dir in --json
