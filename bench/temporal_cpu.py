#!/usr/bin/python3
"""bench/temporal_cpu.py: builds side by side by CPU time per sampled edge (BENCHMARKS.md section 9,
"A coarse time index ...").

usage: /usr/bin/python3 bench/temporal_cpu.py DATASET RUNS BATCHES NAME=FANOUT_BINARY ...
env:   MODES     ';'-separated `fanout bench` mode arguments (default: --disjoint;--temporal
                 uniform;--temporal last); the first is the baseline of the ratios
       USER_ONLY 1: user CPU time only (default: user + system)

Every run: `nice -n 19 BINARY bench DATASET --fanout 15,10,5 --batch-size 1024 --seed 1 --bare
--batches BATCHES MODE --json`, interleaved (run, mode, binary). Per run it records the bench's
wall clock per sampled edge (seconds / sampled_edges) and the process's CPU time (getrusage of
the child) minus that of one `--batches 0` run of the same binary and mode (open, seed
permutation), per sampled edge. On a loaded host the CPU time leaves out the time the process
waits for a core, which the wall clock counts. Prints the medians, the median per-run ratios of
each mode to the baseline mode (same binary) and of each binary to the first (same mode)."""
import collections
import json
import os
import statistics as st
import subprocess
import sys


def run(binary, data, mode, batches):
    cmd = ['nice', '-n', '19', binary, 'bench', data, '--fanout', '15,10,5', '--batch-size', '1024',
           '--seed', '1', '--bare', '--batches', str(batches)] + mode.split() + ['--json']
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE)
    out = p.stdout.read()
    _, status, ru = os.wait4(p.pid, 0)
    if status != 0:
        sys.exit('failed: ' + ' '.join(cmd))
    cpu = ru.ru_utime + (0 if os.environ.get('USER_ONLY') == '1' else ru.ru_stime)
    return json.loads(out), cpu


def main():
    if len(sys.argv) < 5:
        sys.exit(__doc__)
    data, runs, batches = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    bins = [a.split('=', 1) for a in sys.argv[4:]]
    modes = os.environ.get('MODES', '--disjoint;--temporal uniform;--temporal last').split(';')
    base = {(n, m): run(b, data, m, 0)[1] for n, b in bins for m in modes}
    res = collections.defaultdict(list)  # (binary, mode) -> [(wall ns/edge, cpu ns/edge, edges)]
    for _ in range(runs):
        for m in modes:
            for n, b in bins:
                j, cpu = run(b, data, m, batches)
                e = j['sampled_edges']
                res[(n, m)].append((1e9 * j['seconds'] / e, 1e9 * (cpu - base[(n, m)]) / e, e))
    print('load average after the runs:', ' '.join(open('/proc/loadavg').read().split()[:3]))
    for m in modes:
        for n, _ in bins:
            v = res[(n, m)]
            print('%-8s %-26s edges %d  wall ns/edge %.1f (%s)  cpu ns/edge %.1f (%s)' % (
                n, m, v[0][2], st.median(x[0] for x in v), ' '.join('%.0f' % x[0] for x in v),
                st.median(x[1] for x in v), ' '.join('%.0f' % x[1] for x in v)))

    def ratio(a, b, k):
        return st.median(x[k] / y[k] for x, y in zip(res[a], res[b]))
    for m in modes[1:]:
        for n, _ in bins:
            print('%-8s %-26s x %s: wall %.2f  cpu %.2f' % (n, m, modes[0], ratio((n, m), (n, modes[0]), 0),
                                                          ratio((n, m), (n, modes[0]), 1)))
    for m in modes:
        for n, _ in bins[1:]:
            print('%s / %s %-26s wall %.2f  cpu %.2f' % (n, bins[0][0], m, ratio((n, m), (bins[0][0], m), 0),
                                                      ratio((n, m), (bins[0][0], m), 1)))


if __name__ == '__main__':
    main()
