# fanout info, sample and bench on a typed dataset: --seeds TYPE:LIST, --fanout LIST and
# --fanout SRC__REL__DST=LIST (or a relation naming one edge type), output keyed by node type and
# edge type, --split TYPE:NAME / --input-type for bench, and the errors of the typed forms.
. "$(dirname "$0")/common.bash"
printf '0 1\n1 0\n2 1\n3 1\n' > pa.txt
printf '1 0\n2 0\n3 1\n3 2\n' > pp.txt
fo import -q --edge-type paper,writes,author pa.txt --edge-type paper,cites,paper pp.txt \
  --reverse-edges --csc --csr -o g
fo info g
fo info g --json
echo "== every edge type the same fanouts, then one edge type's own"
fo sample g --seeds paper:0 --fanout -1,-1 --json
fo sample g --seeds author:1 --fanout -1,-1 --fanout cites=0,0 --fanout author__rev_writes__paper=1,0 --seed 3 --json
fo sample g --seeds author:0,1 --fanout -1 --disjoint --json
printf '0\n1\n' > authors.txt
"$FANOUT" sample g --seeds author:@authors.txt --fanout -1 --disjoint --json |
  cmp - <("$FANOUT" sample g --seeds author:0,1 --fanout -1 --disjoint --json) &&
  echo "--seeds author:@authors.txt: the same batch"
fo sample g --seeds paper:1 --fanout -1 --edge-dir out --json
echo "== bench: all nodes of a type; the same digest at any thread count"
"$FANOUT" bench g --input-type paper --fanout 2,2 --batch-size 2 --digest --threads 1 --json | grep -o '"digest": "[0-9a-f]*"'
"$FANOUT" bench g --input-type paper --fanout 2,2 --batch-size 2 --digest --threads 3 --json | grep -o '"digest": "[0-9a-f]*"'
echo "== errors"
fo sample g --seeds 0 --fanout 1 --json
fo sample g --seeds venue:0 --fanout 1 --json
fo sample g --seeds paper:4 --fanout 1 --json
fo sample g --seeds paper:0 --fanout nope=1 --json
fo sample g --seeds paper:0 --fanout cites=1 --json
fo sample g --seeds paper:0 --fanout 1 --fanout cites=1,1 --json
fo sample g --seeds paper:0 --fanout =1 --json
fo sample g --seeds :0 --fanout 1 --json
fo bench g --fanout 1 --json
fo partition g -n 2 -o parts
