#!/usr/bin/env bash
# bench/cancel.sh: how fast does Ctrl-C stop a long import? Generates a random edge list of
# M edges over N nodes (once, in $FO_BENCH_DIR), times one full `fanout import --undirected` of
# it, then for 15 points spread over that time starts the import again, sends SIGINT at the
# point, and prints how long the process took to exit after the signal (exit status 1, the
# temporary directory removed); last the worst case and any temporary directory left behind.
#
# usage: bench/cancel.sh        env: BUILD (default build), M (default 12000000),
#                                    N (default 2000000), FO_BENCH_DIR (default /tmp/fanout-bench)
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
M=${M:-12000000}
N=${N:-2000000}
DIR=${FO_BENCH_DIR:-/tmp/fanout-bench}
PY=/usr/bin/python3
[ -x "$BUILD/fanout" ] || { echo "cancel.sh: no $BUILD/fanout (build first, or set BUILD)" >&2; exit 1; }
mkdir -p "$DIR"
EDGES=$DIR/cancel-edges-$M-$N.txt
[ -f "$EDGES" ] || $PY -c "
import numpy as np, sys
rng = np.random.default_rng(1)
s = rng.integers(0, $N, $M); d = rng.integers(0, $N, $M)
np.savetxt('$EDGES', np.stack([s, d], 1), fmt='%d')"
$PY - "$BUILD/fanout" "$EDGES" "$DIR/cancel-out" <<'PY'
import glob, os, shutil, signal, subprocess, sys, time
fanout, edges, out = sys.argv[1:4]
cmd = [fanout, "import", edges, "-q", "--undirected", "-o", out, "--force"]
t0 = time.monotonic()
subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
total = time.monotonic() - t0
print(f"full import {total:.2f} s")
worst = 0.0
for i in range(1, 16):
    delay = total * i / 16
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(delay)
    if p.poll() is not None:
        continue
    ts = time.monotonic()
    p.send_signal(signal.SIGINT)
    p.wait()
    lat = time.monotonic() - ts
    worst = max(worst, lat)
    print(f"SIGINT at {delay:6.2f} s: exited {lat:.3f} s later (status {p.returncode})")
print(f"worst {worst:.3f} s")
d = os.path.dirname(out) or "."
print("temporaries left:", glob.glob(os.path.join(d, "." + os.path.basename(out) + ".tmp-*")))
shutil.rmtree(out, ignore_errors=True)
PY
