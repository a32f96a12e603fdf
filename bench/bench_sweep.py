#!/usr/bin/env python3
"""bench_sweep.py RXSCALE [--points N] [--duration S] - all cores for a
sweep: the same N-point sweep (12 by default, usb.rx_usecs on the RTL8159,
1 s simulated each) with -j 1, -j 2 and -j <cores>, the wall time of each
and its ratio to -j 1; every way must print the same table.  Target (issue
17): -j 2 about half the wall time of -j 1 on a machine with 2 free cores."""
import os
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
vals = ",".join(str(v) for v in [0, 5, 10, 15, 25, 40, 60, 100, 150, 250, 400, 500,
                                  1, 2, 3, 4, 6, 7, 8, 9][:npoints])
sweep = [rxscale, "run", "--set", "nic.chip=RTL8159", "--set", "host.cpus=6",
         "--set", "iperf3.reverse=1", "--set", "iperf3.streams=4",
         "--set", f"run.duration={dur}", "--sweep", f"usb.rx_usecs={vals}"]
cores = os.cpu_count() or 1
out, walls = None, {}
for j in sorted({1, 2, cores}):
    t0 = time.monotonic()
    r = subprocess.run(sweep + ["-j", str(j)], capture_output=True, text=True)
    walls[j] = time.monotonic() - t0
    if r.returncode:
        sys.exit(f"bench-sweep: -j {j} failed: {r.stderr.strip()}")
    if out is not None and r.stdout != out:
        sys.exit(f"bench-sweep: -j {j} printed a different table than -j 1")
    out = r.stdout
print(f"sweep of {npoints} points ({dur} s simulated each), {cores} cores: " +
      ", ".join(f"-j {j} {w:.1f} s ({w / walls[1]:.2f} of -j 1)" for j, w in walls.items()) +
      "; tables identical")
