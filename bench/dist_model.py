#!/usr/bin/env python3
"""bench/dist_model.py: the model of docs/DIST.md ("A model of epoch time vs machines"): epoch
time of the distributed loader on M = 1..32 machines from measured per-batch CPU time, bytes
and round trips (BENCHMARKS.md section 6, "Seeds where the data is"), at a given bandwidth and
RTT. Prints a markdown table. `dist_model.py [C1_ENRON_MS [RATIO]]`; without arguments the
constants below are the measurements.

Assumptions (docs/DIST.md lists them with their reasons):
- An epoch is B batches; M machines each produce B/M of them with `cores` loader threads.
- CPU per batch: c1 (one machine, the plain dataset) and c_dist = ratio * c1 for M >= 2 (the
  measured per-core cost of the distributed path); the sampling work of a batch is done once,
  by whoever owns each frontier node, so serving other machines' requests is part of c_dist.
- Bytes per batch (requests + answers, hop and feature traffic, the look-ahead's own topology
  included) measured at 2 and 4 machines; beyond 4 they grow with the remote fraction
  (M - 1) / M. Each machine's link carries its own batches' bytes (full duplex: answers in,
  requests out; what it serves goes the other way).
- Round trips per batch: one per hop with remote nodes plus one feature fetch, each costing
  2 RTT (Open MPI's rendezvous handshake for messages over 64 KB).
- pipelined: several batches in flight (threads), so latency hides and the epoch takes the
  longer of compute and link time; serial: compute, link time and latency add up.
"""
import sys

GBIT = 25.0          # link, Gbit/s
RTT = 100e-6         # s
CORES = 16           # loader threads per machine
# distributed path per core vs plain, for M >= 2 (BENCHMARKS.md section 6, "Per-core cost at 2
# machines"): 1.8-1.9x in instructions per sampled edge measured with 2 MPI processes under
# callgrind (Open MPI's own instructions left out); the one-machine `--dist` run is now 1.04-1.05x
# (section 5), but it skips the owner split and every message, so it bounds M >= 2 from below.
RATIO = 1.85

GRAPHS = {
    # name: (batches per epoch, plain ms per batch (1 thread), {M: KiB per batch}, remote rounds)
    # rmat18f: 262,144 seeds, batch 1024, [15,10,5], 128 float32; local seeds, METIS, a
    # lookahead cache of 10% of the remote rows: hop KiB + feature KiB + look-ahead KiB
    "rmat18f": (256, 19.2, {2: 906.9 + 3023.5 + 1103.2, 4: 1278.0 + 4275.4 + 1835.3}, 3),
    # same without any cache, global seeds on hash parts (what main does)
    "rmat18f main": (256, 19.2, {2: 1060.3 + 9068.5, 4: 1592.5 + 13613.0}, 4),
    # email-Enron: 36,692 seeds, batch 256; same configuration as rmat18f
    "enron": (144, None, {2: 72.1 + 444.9 + 88.0, 4: 118.0 + 621.6 + 168.2}, 3),
}


def kib(m, table):
    if m in table:
        return table[m]
    return table[4] * ((m - 1) / m) / 0.75


def epoch(m, b, c1, table, rounds, pipelined, ratio=None):
    ratio = RATIO if ratio is None else ratio
    bw = GBIT * 1e9 / 8
    if m == 1:
        return b * c1 / CORES
    n = b / m
    cpu = n * ratio * c1 / CORES
    link = n * kib(m, table) * 1024 / bw
    lat = n * rounds * 2 * RTT / CORES  # each thread waits for its own batches' round trips
    return max(cpu, link) if pipelined else cpu + link + lat


def main():
    global RATIO
    c1_enron = float(sys.argv[1]) if len(sys.argv) > 1 else 1.6
    if len(sys.argv) > 2:
        RATIO = float(sys.argv[2])
    print(f"| graph | M | KiB / batch | epoch s (pipelined) | speed-up | epoch s (serial) | speed-up |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for g, (b, c1, table, rounds) in GRAPHS.items():
        c1 = (c1 if c1 is not None else c1_enron) * 1e-3
        t1 = epoch(1, b, c1, table, rounds, True)
        for m in (1, 2, 4, 8, 16, 32):
            tp = epoch(m, b, c1, table, rounds, True)
            ts = epoch(m, b, c1, table, rounds, False)
            k = "-" if m == 1 else f"{kib(m, table):.0f}"
            print(f"| {g} | {m} | {k} | {tp:.3f} | {t1 / tp:.2f}x | {ts:.3f} | {t1 / ts:.2f}x |")


if __name__ == "__main__":
    main()
