#!/usr/bin/env python3
"""Alternated A/B timing of two commands: medians of wall and CPU time.

    python3 bench/ab.py RUNS -- CMD_A ... ::: CMD_B ...

Runs the two commands RUNS times each, alternating which goes first (ABBA),
and prints the median wall time, the median CPU time (user + system, all
threads, from os.wait4) and their ratios B/A. On a shared machine the CPU
time moves less than the wall time, but it also grows when the threads of
a parallel run slow each other down, so read both. Both commands must exit
with status 0; their output is discarded.
"""
import os
import statistics
import subprocess
import sys
import time


def run_once(cmd):
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    if status != 0:
        sys.exit(f"ab.py: {' '.join(cmd)} exited with status {status}")
    return time.perf_counter() - start, usage.ru_utime + usage.ru_stime


def main(argv):
    if len(argv) < 4 or argv[1] != "--" or ":::" not in argv:
        sys.exit(__doc__)
    runs = int(argv[0])
    rest = argv[2:]
    split = rest.index(":::")
    commands = (rest[:split], rest[split + 1:])
    times = ([], [])
    for n in range(runs):
        order = (0, 1) if n % 2 == 0 else (1, 0)
        for k in order:
            times[k].append(run_once(commands[k]))
    wall = [statistics.median(t[0] for t in ts) for ts in times]
    cpu = [statistics.median(t[1] for t in ts) for ts in times]
    print(
        f"wall A {wall[0]:.4f} B {wall[1]:.4f} B/A {wall[1] / wall[0]:.3f} | "
        f"cpu A {cpu[0]:.4f} B {cpu[1]:.4f} B/A {cpu[1] / cpu[0]:.3f}"
    )


if __name__ == "__main__":
    main(sys.argv[1:])
