# fanout sample DIR --edge-seeds SRC-DST,... (link prediction): the node batch of every endpoint,
# edge_label_index / edge_label in local ids, --neg binary:R and triplet:K (strict by default,
# --no-strict), --exclude-seed-edges (the seed edge and, for --undirected and --reverse-edges
# datasets, its reverse never sampled), typed datasets with --edge-type, and the errors.
. "$(dirname "$0")/common.bash"

# directed: 0->1 0->2 1->2 2->0 3->2 2->3 (edge ids = CSC positions: 2->0 0, 0->1 1, 0->2 2,
# 1->2 3, 3->2 4, 2->3 5)
printf '0 1\n0 2\n1 2\n2 0\n3 2\n2 3\n' > directed.txt
"$FANOUT" import --csc --csr -q directed.txt -o directed >/dev/null
"$FANOUT" import --undirected --csc --csr -q directed.txt -o undirected >/dev/null
echo "== positives only: endpoints are the seeds, fanout -1 takes every in-neighbor"
fo sample directed --fanout -1 --edge-seeds 0-2,1-2 --json
echo "== --exclude-seed-edges: 0->2 and 1->2 are not sampled (2's other in-neighbor 3 is)"
fo sample directed --fanout -1 --edge-seeds 0-2,1-2 --exclude-seed-edges --json
echo "== undirected: the reverse 2->0 is excluded too"
fo sample undirected --fanout -1 --edge-seeds 0-2 --json
fo sample undirected --fanout -1 --edge-seeds 0-2 --exclude-seed-edges --json
echo "== binary negatives (strict: never an edge), seeded"
fo sample directed --fanout 1 --edge-seeds 0-1,2-3 --neg binary:2 --seed 5 --json
fo sample directed --fanout 1 --edge-seeds 0-1,2-3 --neg binary:2 --seed 5 --no-strict --json
echo "== triplet: k destinations per positive; 2 is adjacent to 0 and 3 only"
fo sample directed --fanout 0 --edge-seeds 0-1,2-3 --neg triplet:2 --seed 1 --json
echo "== typed: --edge-type, with the reverse type excluded"
printf '0 1\n1 0\n2 1\n3 1\n' > pa.txt
printf '1 0\n2 0\n3 1\n3 2\n' > pp.txt
"$FANOUT" import -q --edge-type paper,writes,author pa.txt --edge-type paper,cites,paper pp.txt \
  --reverse-edges --csc --csr -o g >/dev/null
fo sample g --fanout -1 --edge-type writes --edge-seeds 2-1 --exclude-seed-edges --json
fo sample g --fanout 0 --edge-type paper__writes__author --edge-seeds 0-1 --neg triplet:2 --json
echo "== disjoint: a tree per endpoint occurrence (0 twice), local ids are the seed positions"
fo sample directed --fanout 1 --edge-seeds 0-1,0-2 --disjoint --json
echo "== temporal needs the seed edges' times (the dataset has none: the sampler says so)"
fo sample directed --fanout 1 --edge-seeds 0-1 --temporal uniform --seed-time 5 --json
fo sample directed --fanout 1 --edge-seeds 0-1,0-2 --temporal uniform --seed-time 5 --json
echo "== errors"
fo sample directed --fanout 1 --edge-seeds 0-9 --json
fo sample directed --fanout 1 --edge-seeds 0:1 --json
fo sample directed --fanout 1 --edge-seeds 0-1 --neg binary:0 --json
fo sample directed --fanout 1 --edge-seeds 0-1 --neg triplet:1.5 --json
fo sample directed --fanout 1 --edge-seeds 0-1 --neg unary:1 --json
fo sample directed --fanout 1 --edge-seeds 0-1 --seeds 0 --json
fo sample directed --fanout 1 --seeds 0 --neg binary:1 --json
fo sample g --fanout 1 --edge-seeds 0-1 --json
fo sample g --fanout 1 --edge-type nope --edge-seeds 0-1 --json
fo sample g --fanout 1 --edge-type writes --edge-seeds 4-0 --json
echo "== exclusion with weights and times: in-edges of 0 from 1..7 (weight 1 2 4 8 16 1000 0, time 1..7)"
printf '1 0 1 1\n2 0 2 2\n3 0 4 3\n4 0 8 4\n5 0 16 5\n6 0 1000 6\n7 0 0 7\n' > wt.txt
"$FANOUT" import --weight-col 2 --time-col 3 --csc --csr -q wt.txt -o wt >/dev/null
echo "-- weighted, fanout -1: every in-neighbor but the seeds' 6 and 3 (weights ignored)"
fo sample wt --fanout -1 --edge-seeds 6-0,3-0 --weighted --exclude-seed-edges --json
echo "-- weighted, fanout 4 without replacement: exactly the positive others 1 2 4 5 (never 6, 3, 7)"
fo sample wt --fanout 4 --edge-seeds 6-0,3-0 --weighted --exclude-seed-edges --seed 3 --json
echo "-- temporal last at time 4 (the seed edge 3->0 @3 inside the prefix): the 2 most recent others"
fo sample wt --fanout 2 --edge-seeds 3-0 --temporal last --seed-time 4 --exclude-seed-edges --json
echo "== @FILE for --edge-seeds, --seeds and --anchors (a run of whitespace is one comma): the same batch as the list"
printf ' 0-2,\n1-2 \t 2-3\n\n' > seed_edges.txt
"$FANOUT" sample directed --fanout -1 --edge-seeds 0-2,1-2,2-3 --neg binary:1 --seed 2 --json > list.json
fo sample directed --fanout -1 --edge-seeds @seed_edges.txt --neg binary:1 --seed 2 --json | tee file.json
sed -n 2p file.json | cmp - list.json && echo "--edge-seeds @seed_edges.txt: the same batch"
printf '3\n0  1\n' > seeds.txt
"$FANOUT" sample directed --fanout 1,1 --seeds 3,0,1 --seed 4 --json > list.json
"$FANOUT" sample directed --fanout 1,1 --seeds @seeds.txt --seed 4 --json | cmp - list.json &&
  echo "--seeds @seeds.txt: the same batch"
printf '0 user\n' > bad_edges.txt
printf '' > empty.txt
fo sample directed --fanout 1 --edge-seeds @bad_edges.txt --json
fo sample directed --fanout 1 --edge-seeds @empty.txt --json
fo sample directed --fanout 1 --seeds @missing.txt --json
fo sample directed --fanout 1 --seeds @empty.txt --json
