# fanout partition DIR -n P -o OUT: hash (--seed), range (--balance train) and METIS partitions
# of Cora with their text and --json reports; info and verify on the output; sampling and the
# loader (bench --digest --split train --features) over the partitioned dataset give the same
# batches as over the unpartitioned one; the errors (usage errors exit 2, failures exit 1) and
# no temporary directory left behind.
. "$(dirname "$0")/common.bash"
PY=/usr/bin/python3

"$FANOUT" import --format planetoid --undirected -q data/cora/cora.content.gz data/cora/cora.cites -o cora >/dev/null

# check_json FILE: the --json report, recomputed where it can be from its own parts.
check_json() {
  $PY -c '
import json, sys
d = json.load(open(sys.argv[1]))
p = d["parts"]
print("  parts:", len(p) == d["num_parts"], "nodes sum:", sum(x["nodes"] for x in p) == d["num_nodes"],
      "edges sum:", sum(x["edges"] for x in p) == d["num_edges"],
      "train sum:", sum(x["train_nodes"] for x in p) == d["train_nodes"])
mean = d["num_nodes"] / d["num_parts"]
print("  edge_cut == cut_edges / num_edges:", round(d["cut_edges"] / d["num_edges"], 6) == d["edge_cut"])
print("  replication == (nodes + halo) / n:",
      round(sum(x["nodes"] + x["halo_nodes"] for x in p) / d["num_nodes"], 6) == d["replication"])
print("  node_balance == max / mean:", round(max(x["nodes"] for x in p) / mean, 6) == d["node_balance"])
print("  train_balance == max / mean:",
      round(max(x["train_nodes"] for x in p) / (d["train_nodes"] / d["num_parts"]), 6) == d["train_balance"])
' "$1"
}
# digest ARGS...: the digest of a `fanout bench ... --digest --json` run (or its error).
digest() {
  "$FANOUT" "$@" > out.json 2> err.txt || { cat err.txt; return; }
  $PY -c 'import json, sys; print(json.load(sys.stdin)["digest"])' < out.json
}

echo "== hash: 3 parts, the default seed 0, then --seed 5 (another cut)"
fo partition cora -n 3 -q -o cora-h3
fo partition cora -n 3 --seed 5 -q -o cora-h3s5
echo "== --json: the same report as JSON (the same cut as -o cora-h3s5)"
fo partition cora -n 3 --seed 5 -q --json -o cora-h3s5-json
"$FANOUT" partition cora -n 3 --seed 5 -q --json -o cora-h3s5-json2 > h.json
check_json h.json

echo "== metis: 3 parts, far fewer cut edges"
fo partition cora -n 3 --method metis -q -o cora-m3
"$FANOUT" partition cora -n 3 --method metis -q --json -o cora-m3-json > m.json
cat m.json
check_json m.json

echo "== range: contiguous ids, 902 + 903 + 903 nodes; --balance train: 46 + 47 + 47 of the 140 train nodes"
fo partition cora -n 3 --method range -q -o cora-r3
fo partition cora -n 3 --method range --balance train -q -o cora-r3t
"$FANOUT" partition cora -n 3 --method range --balance train -q --json -o cora-r3t-json > r.json
check_json r.json

echo "== info and verify on the outputs"
fo info cora-m3
fo info cora-r3t --json
fo verify cora-h3
fo verify cora-m3
fo verify cora-r3t

echo "== sample: the partitioned datasets give the unpartitioned batch, byte for byte"
S="--fanout 3,2 --seeds 0,5,2707 --seed 7 --json"
"$FANOUT" sample cora $S > want.json
fo sample cora-m3 $S
for d in cora-h3 cora-h3s5 cora-m3 cora-r3 cora-r3t; do
  "$FANOUT" sample $d $S > got.json 2>&1
  cmp -s want.json got.json && echo "sample $d: same as cora" || echo "sample $d: DIFFERS from cora"
done
S="--fanout -1,4 --seeds 1,1,30 --seed 9 --disjoint --replace --json"
"$FANOUT" sample cora $S > want.json
for d in cora-h3 cora-m3 cora-r3t; do
  "$FANOUT" sample $d $S > got.json 2>&1
  cmp -s want.json got.json && echo "sample --disjoint --replace $d: same as cora" || echo "sample --disjoint --replace $d: DIFFERS from cora"
done

echo "== bench --digest --split train --features: the loader's digest over the train split"
B="--fanout 10,5 --batch-size 32 --seed 3 --split train --features --digest --json"
want=$(digest bench cora $B)
echo "cora: $want"
for d in cora-h3 cora-m3 cora-r3t; do
  got=$(digest bench $d $B)
  echo "$d: $got"
  [ "$got" = "$want" ] && echo "$d digest equal to cora's: yes" || echo "$d digest equal to cora's: NO"
done
want=$(digest bench cora $B --threads 2 --epochs 2)
got=$(digest bench cora-m3 $B --threads 2 --epochs 2)
echo "2 threads, 2 epochs: cora $want, cora-m3 $got, equal: $([ "$got" = "$want" ] && echo yes || echo NO)"

echo "== errors: usage errors exit 2"
fo partition cora -o x
fo partition cora -n 0 -o x
fo partition cora -n 100000 -o x
fo partition cora -n abc -o x
fo partition cora -n 3
fo partition cora -n 3 --method bogus -o x
fo partition cora -n 3 --balance bogus -o x
echo "== errors: failures exit 1 with a message"
fo partition cora -n 2709 -o x
fo partition cora -n 2709 --method metis -o x
fo partition cora -n 3 -o cora-h3
fo partition cora -n 3 --method range --balance train --train-split nope -o x
fo partition cora-h3 -n 2 -o x
fo partition missing -n 2 -o x
echo "METIS missing (FO_METIS_LIBRARY=/nonexistent.so):"
export FO_METIS_LIBRARY=/nonexistent.so
fo partition cora -n 3 --method metis -o x
fo partition cora -n 3 --method metis --balance train -o x
echo "hash and range do not need it:"
fo partition cora -n 2 --method range -q -o cora-r2
unset FO_METIS_LIBRARY
echo "== --force replaces an existing partitioned dataset"
fo partition cora -n 2 --force -q -o cora-h3
"$FANOUT" info cora-h3 | grep '^partition'
echo "== nothing left behind by the failures"
[ -e x ] && echo "x exists" || echo "no output x"
echo "temporary directories left: $(ls -A | grep -c tmp)"
