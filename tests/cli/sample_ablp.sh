# fanout import --supervision-edges / --supervision-negatives (labels-only edge types, format
# version 3) and fanout sample DIR --anchors LIST (anchor-based link prediction): anchors plus
# their positive and hard-negative label nodes are the seeds; y_positive / y_negative are
# [2, E] local ids (row 0 the anchor, row 1 the label node); --random-negatives K never draws a
# positive; a labels-only type is never sampled (nor accepted as a --fanout key); the errors.
. "$(dirname "$0")/common.bash"

# users 0..2 buy items 0..2; user 0 likes item 2, user 1 likes item 0; user 0 dislikes item 1,
# user 2 dislikes item 0
printf '0 0\n0 1\n1 1\n2 2\n' > buys.txt
printf '0 2\n1 0\n' > likes.txt
printf '0 1\n2 0\n' > dislikes.txt
echo "== import: the supervision types are labels-only, listed last, format_version 3"
fo import -q --edge-type user,buys,item buys.txt --reverse-edges \
  --supervision-edges user__likes__item=likes.txt \
  --supervision-negatives user__dislikes__item=dislikes.txt -o ds --json
grep -o '"format_version": [0-9]*\|"labels_only": true\|"label": "[a-z]*"' ds/fanout.json
fo verify ds
fo info ds
echo "== anchors 0, 1, 0: items 2, 0 (positives) and 1 (user 0's hard negative) are seeds"
fo sample ds --fanout 0 --anchors 0,1,0 --json
printf '0\n1\n0\n' > anchors.txt
"$FANOUT" sample ds --fanout 0 --anchors @anchors.txt --json | cmp - <("$FANOUT" sample ds --fanout 0 --anchors 0,1,0 --json) &&
  echo "--anchors @anchors.txt: the same batch"
echo "== all in-neighbors: only buys and rev_buys edges are ever sampled"
fo sample ds --fanout -1,-1 --anchors 0 --json
echo "== random negatives (strict: never a positive of the anchor), no hard negatives"
fo sample ds --fanout 0 --anchors 0,1 --random-negatives 3 --no-hard-negatives --seed 4 --json
echo "== errors"
fo sample ds --fanout likes=1 --fanout buys=1 --fanout rev_buys=1 --anchors 0 --json
fo sample ds --fanout 1 --anchors 0 --supervision buys --json
fo sample ds --fanout 1 --anchors 0 --supervision dislikes --json
fo sample ds --fanout 1 --anchors 0 --supervision nope --json
fo sample ds --fanout 1 --anchors 3 --json
fo sample ds --fanout 1 --anchors 0 --seeds user:0 --json
fo sample ds --fanout 1 --seeds user:0 --random-negatives 2 --json
fo sample ds --fanout 1 --anchors 0 --neg binary:1 --json
printf '0 2\n1 5\n' > bad.txt
fo import -q --edge-type user,buys,item buys.txt --supervision-edges user__likes__item=bad.txt -o bad
fo import -q --edge-type user,buys,item buys.txt --supervision-edges user__likes__shop=likes.txt -o bad
fo import -q --edge-type user,buys,item buys.txt --supervision-edges user__buys__item=likes.txt -o bad
fo import -q --edge-type user,buys,item buys.txt --supervision-edges likes.txt -o bad
fo import -q buys.txt --supervision-edges user__likes__item=likes.txt -o bad
printf '' > none.txt
fo import -q --edge-type user,buys,item buys.txt --supervision-edges user__likes__item=none.txt -o bad
ls -d bad 2>/dev/null || echo "no output written"
echo "== an empty --supervision-negatives file: a warning, the type stored empty"
fo import -q --edge-type user,buys,item buys.txt --supervision-edges user__likes__item=likes.txt \
  --supervision-negatives user__dislikes__item=none.txt -o noneg | sed 's/^fo W [a-z_]*\.c:[0-9]* /fo W /'
fo sample noneg --fanout 0 --anchors 0,1 --json
echo "== partitions carry labels-only types (format_version 3): the dataset's batches"
"$FANOUT" partition -q ds --parts 2 -o parts >/dev/null
grep -o '"format_version": [0-9]*\|"labels_only": true' parts/fanout.json parts/part-0/fanout.json
fo verify parts
fo sample parts --fanout 1 --anchors 0,1,0,2 --random-negatives 2 --json
"$FANOUT" sample ds --fanout 2,2 --anchors 2,1,0 --random-negatives 3 --json > a.json
"$FANOUT" sample parts --fanout 2,2 --anchors 2,1,0 --random-negatives 3 --json > b.json
cmp a.json b.json && echo "anchors 2,1,0, 2 hops, 3 random negatives: the same batch"
echo "== bench --anchors: the ABLP loader; its digest over the dataset and over the parts"
printf '0\n1 2,0\n' > anchors.txt
for dir in ds parts; do
  "$FANOUT" bench $dir --fanout 2,2 --anchors @anchors.txt --batch-size 2 --random-negatives 1 \
    --epochs 2 --digest --json | grep -o '"batches": [0-9]*\|"anchors": [0-9]*\|"y_positive": [0-9]*\|"y_negative": [0-9]*\|"digest": "[0-9a-f]*"' | tr '\n' ' '
  echo
done
"$FANOUT" bench ds --fanout 2,2 --anchors 0,1,2,0 --batch-size 2 --random-negatives 2 --digest --json | grep -o '"digest": "[0-9a-f]*"'
"$FANOUT" bench ds --fanout 2,2 --anchors 0,1,2,0 --batch-size 2 --random-negatives 2 --no-strict --digest --json | grep -o '"digest": "[0-9a-f]*"'
echo "== bench --anchors errors"
fo bench ds --fanout 1 --random-negatives 2
fo bench ds --fanout 1 --anchors 0 --edge-seeds 0-1
fo bench ds --fanout 1 --anchors 0 --anchors-split user:train
fo bench ds --fanout 1 --anchors 0 --threads 2
fo bench ds --fanout 1 --anchors-split train
fo bench ds --fanout 1 --anchors 0,7
fo bench ds --fanout likes=1 --fanout buys=1 --fanout rev_buys=1 --anchors 0
fo bench ds --fanout 1 --anchors 0 --supervision nope
fo bench ds --fanout 1 --anchors @missing.txt
printf '' > empty.txt
printf '0\n1 x\n' > garbage.txt
printf '0\000 1\n' > nul.txt
fo bench ds --fanout 1 --anchors @empty.txt
fo bench ds --fanout 1 --anchors @garbage.txt
fo bench ds --fanout 1 --anchors @nul.txt
/usr/bin/python3 -c 'import numpy as np; np.save("train.npy", np.array([0, 2], dtype=np.int64))'
"$FANOUT" import -q --edge-type user,buys,item buys.txt --reverse-edges \
  --supervision-edges user__likes__item=likes.txt \
  --supervision-negatives user__dislikes__item=dislikes.txt --split user:train=train.npy -o ds2 > /dev/null
echo "== --anchors-split: the anchor type from --supervision; a --supervision that names none"
"$FANOUT" bench ds2 --fanout 1 --anchors-split train --supervision likes --digest --json | grep -o '"anchors": [0-9]*'
fo bench ds2 --fanout 1 --anchors-split train --supervision nope
fo bench ds2 --fanout 1 --anchors-split train --supervision dislikes
fo bench ds2 --fanout 1 --anchors-split item:train
fo bench ds2 --fanout 1 --anchors-split val
echo "== --anchors-split over a damaged copy (split entry overwritten with 77)"
cp -r ds2 ds2bad
/usr/bin/python3 -c 'import numpy as np; a = np.load("ds2bad/n0.split.train.npy"); a[1] = 77; np.save("ds2bad/n0.split.train.npy", a)'
fo bench ds2bad --fanout 1 --anchors-split train
