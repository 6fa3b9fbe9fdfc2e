# Temporal sampling from the CLI: import --time-col (unix, iso8601), --node-time, --weight-col;
# info and verify show the times; sample and bench with --temporal uniform|last, --time
# edge|node, --seed-time, --strict, --window (every rule at its boundary, on a star whose
# times are known), and every error with its message.
. "$(dirname "$0")/common.bash"

# star into node 0: 1 (t 10), 2 (t 20), 3 (t 30), 4 (t 30), 5 (t 50); and 2 -> 1 (t 5)
printf '1 0 10\n2 0 20\n3 0 30\n4 0 30\n5 0 50\n2 1 5\n' > star.txt
/usr/bin/python3 -c 'import numpy as np; np.save("nt.npy", np.array([35, 10, 20, 30, 40, 50]))'
fo import star.txt --time-col 2 --node-time nt.npy --csc --csr -o star -q
fo info star
fo info star --json
fo verify star

echo "== iso8601 times and a weight column"
printf '1,0,0.5,2004-04-15T14:56:01Z\n2,0,2,2004-04-15\n3,0,1,2004-04-16 00:00:00+01:00\n' > iso.txt
fo import iso.txt --weight-col 2 --time-col 3 --time-format iso8601 -o iso -q
fo info iso

echo "== edge time: inclusive, strict, window, ties, nothing eligible"
fo sample star --fanout -1 --seeds 0 --seed-time 30 --temporal uniform --json
fo sample star --fanout -1 --seeds 0 --seed-time 30 --temporal uniform --strict --json
fo sample star --fanout -1 --seeds 0 --seed-time 30 --temporal uniform --window 10 --json
fo sample star --fanout -1 --seeds 0 --seed-time 30 --temporal uniform --window 10 --strict --json
fo sample star --fanout -1 --seeds 0 --seed-time 9 --temporal uniform --json
fo sample star --fanout -1 --seeds 0,0,0 --seed-time 10,20,100 --temporal uniform --json
echo "== last: the most recent eligible edges (ties in input order), deterministic"
fo sample star --fanout 2 --seeds 0 --seed-time 30 --temporal last --json
fo sample star --fanout 2 --seeds 0 --seed-time 49 --temporal last --seed 5 --json
fo sample star --fanout 3,1 --seeds 0 --seed-time 100 --temporal last --json
echo "== uniform draws: seeded"
fo sample star --fanout 2,2 --seeds 0,0 --seed-time 30,100 --temporal uniform --seed 3 --json
fo sample star --fanout 3 --seeds 0 --seed-time 30 --temporal uniform --replace --seed 3 --json

echo "== node time"
fo import star.txt --node-time nt.npy -o starn -q
fo info starn
fo sample starn --fanout -1 --seeds 0 --seed-time 30 --temporal uniform --time node --json
fo sample starn --fanout -1 --seeds 0 --seed-time 30 --temporal uniform --time node --strict --json
fo sample starn --fanout 2 --seeds 0 --seed-time 45 --temporal last --time node --json
echo "-- default seed times: the seeds' node times (node 0 at 35, node 1 at 10)"
fo sample starn --fanout -1 --seeds 0,1 --temporal uniform --time node --json

echo "== bench"
"$FANOUT" bench star --fanout 2,2 --batch-size 2 --temporal uniform --bare --json 2>&1 | grep -c '"temporal": "uniform", "time": "edge", "strict": false, "window": -1'
"$FANOUT" bench starn --fanout 2,2 --batch-size 2 --temporal last --time node --strict --digest --threads 1 --json >a.json 2>&1
"$FANOUT" bench starn --fanout 2,2 --batch-size 2 --temporal last --time node --strict --digest --threads 3 --json >b.json 2>&1
/usr/bin/python3 -c 'import json; a, b = (json.load(open(f)) for f in ("a.json", "b.json")); print("digests equal:", a["digest"] == b["digest"], a["temporal"], a["time"], a["strict"])'

echo "== errors"
fo sample iso --fanout -1 --seeds 0 --temporal uniform --json
fo sample star --fanout -1 --seeds 0 --seed-time 1,2 --temporal uniform --json
fo sample star --fanout -1 --seeds 0 --seed-time 5 --json
fo sample star --fanout -1 --seeds 0 --strict --json
fo sample star --fanout -1 --seeds 0 --seed-time 5 --temporal recent --json
fo sample star --fanout -1 --seeds 0 --seed-time 5 --temporal uniform --time edges --json
fo sample star --fanout -1 --seeds 0 --seed-time 5 --temporal uniform --window -1 --json
fo sample iso --fanout -1 --seeds 0 --seed-time 5 --temporal uniform --time node --json
echo "== weighted temporal: by weight among the eligible edges (the edges of 2004-04-15 00:00 (w 2) and 14:56:01 (w 0.5) before 17:26:40, not 23:00 (w 1))"
fo sample iso --fanout 2 --seeds 0 --seed-time 1082050000 --temporal uniform --weighted --json
fo sample iso --fanout 5 --seeds 0 --seed-time 1082050000 --temporal uniform --weighted --replace --json
fo sample iso --fanout 2 --seeds 0 --seed-time 5 --temporal uniform --weighted --json
fo sample iso --fanout -1 --seeds 0 --seed-time 5 --temporal last --weighted --json
fo sample starn --fanout -1 --seeds 0 --seed-time 5 --temporal uniform --json
fo import star.txt --time-col 1 -o bad -q
fo import star.txt --time-col 7 -o bad -q
fo import iso.txt --time-col 3 -o bad -q
fo import iso.txt --time-col 3 --time-format iso -o bad -q
fo import star.txt --time-format iso8601 -o bad -q
fo import star.txt --weight-col 2 --edge-weight nt.npy -o bad -q
printf '1 0 nan\n' > nan.txt
fo import nan.txt --weight-col 2 -o bad -q
test -e bad && echo "bad exists" || echo "nothing written"
