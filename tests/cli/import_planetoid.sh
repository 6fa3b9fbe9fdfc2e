# fanout import --format planetoid: Cora and CiteSeer (LINQS .content + .cites), text and JSON
# reports, the counts PyG's Planetoid gives, CiteSeer's 15 cited-only ids, --drop-unknown.
. "$(dirname "$0")/common.bash"

echo "== cora --undirected: 2708 nodes, 10556 edges"
fo import --format planetoid --undirected data/cora/cora.content.gz data/cora/cora.cites -o cora
ls cora

echo "== inputs in either order give the same dataset"
fo import --format planetoid --undirected data/cora/cora.cites data/cora/cora.content.gz -o cora2 -q
fo info cora2

echo "== citeseer --undirected --remove-self-loops: 3327 nodes (15 cited-only), 9104 edges"
fo import --format planetoid --undirected --remove-self-loops \
  data/citeseer/citeseer.content.gz data/citeseer/citeseer.cites -o citeseer

echo "== the same as JSON"
fo import --format planetoid --undirected --remove-self-loops --json \
  data/citeseer/citeseer.content.gz data/citeseer/citeseer.cites -o citeseer-json

echo "== the 15 ids only in cites are nodes 3312..3326, in order of first appearance"
fo sample citeseer --fanout 0 --seeds 3312,3313,3314,3315,3316,3317,3318,3319,3320,3321,3322,3323,3324,3325,3326 --orig-ids --json
fo sample citeseer --fanout 0 --seeds 3311 --orig-ids --json

echo "== --drop-unknown drops their cites lines instead"
fo import --format planetoid --undirected --remove-self-loops --drop-unknown \
  data/citeseer/citeseer.content.gz data/citeseer/citeseer.cites -o citeseer-drop
fo import --format planetoid --undirected --remove-self-loops --drop-unknown --json \
  data/citeseer/citeseer.content.gz data/citeseer/citeseer.cites -o citeseer-drop-json

echo "== directed import (no options): the cites lines as they are"
fo import --format planetoid data/cora/cora.content.gz data/cora/cora.cites -o cora-directed
