#!/usr/bin/env python3
"""bench_sweep.py RXSCALE [--points N] [--duration S] [--repeat R] - all
cores for a sweep: the same N-point sweep (12 by default, usb.rx_usecs on
the RTL8159, 1 s simulated each) with -j 1, -j 2 and -j <cores>, R times
each (3 by default, the ways interleaved: 1 2 c 1 2 c ...), the shortest
wall time of each and its ratio to -j 1's; every run must print the same
table.  The CPU time of the children (user + sys, the median) shows that
each way does the same work; the load average before the first run shows
how busy the machine was (the figures are wall times: on a shared machine
other processes stretch them, the shortest of R the least).  Target
(issue 17): -j 2 about half the wall time of -j 1 on a machine with 2 free
cores."""
import os
import resource
import statistics
import subprocess
import sys
import time

args = sys.argv[1:]
if not args or args[0] in ("-h", "--help"):
    print(__doc__.split("\n\n")[0])
    sys.exit(0 if args else 2)
rxscale = args[0]
npoints = int(args[args.index("--points") + 1]) if "--points" in args else 12
dur = args[args.index("--duration") + 1] if "--duration" in args else "1"
repeat = int(args[args.index("--repeat") + 1]) if "--repeat" in args else 3
vals = ",".join(str(v) for v in [0, 5, 10, 15, 25, 40, 60, 100, 150, 250, 400, 500,
                                  1, 2, 3, 4, 6, 7, 8, 9][:npoints])
sweep = [rxscale, "run", "--set", "nic.chip=RTL8159", "--set", "host.cpus=6",
         "--set", "iperf3.reverse=1", "--set", "iperf3.streams=4",
         "--set", f"run.duration={dur}", "--sweep", f"usb.rx_usecs={vals}"]
cores = os.cpu_count() or 1
ways = sorted({1, 2, cores})
load = os.getloadavg()[0]
out, walls, cpus = None, {j: [] for j in ways}, {j: [] for j in ways}
for _ in range(repeat):
    for j in ways:
        ru0 = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.monotonic()
        r = subprocess.run(sweep + ["-j", str(j)], capture_output=True, text=True)
        walls[j].append(time.monotonic() - t0)
        ru1 = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus[j].append(ru1.ru_utime - ru0.ru_utime + ru1.ru_stime - ru0.ru_stime)
        if r.returncode:
            sys.exit(f"bench-sweep: -j {j} failed: {r.stderr.strip()}")
        if out is not None and r.stdout != out:
            sys.exit(f"bench-sweep: -j {j} printed a different table than -j 1")
        out = r.stdout
best = {j: min(w) for j, w in walls.items()}
print(f"sweep of {npoints} points ({dur} s simulated each), {cores} cores, load average "
      f"{load:.2f} before, shortest of {repeat}: " +
      ", ".join(f"-j {j} {best[j]:.2f} s ({best[j] / best[1]:.2f} of -j 1; CPU "
                f"{statistics.median(cpus[j]):.2f} s)" for j in ways) +
      "; tables identical")
