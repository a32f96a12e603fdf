#!/usr/bin/env python3
"""bench_run.py RXSCALE SCENARIO [--json] [--runs N] - the main job's speed.

Runs `rxscale run SCENARIO --set run.duration=10 --json` N times (3 by
default) and reports the real-time factor (simulated seconds per wall
second) of the fastest run and of the median one, simulated packets
(received by the NIC's queues) per wall second of the fastest run, and the
peak resident memory over the runs (getrusage of the children).  The
machine is shared, so single runs vary by up to 1.5x: the fastest run is
the machine's speed, the median what a user sees.  Every run must print
the same document (the simulation is deterministic).  Targets (issue 6):
>= 1x real time on one core, peak memory < 200 MB."""
import json
import resource
import statistics
import subprocess
import sys
import time

rxscale, scen = sys.argv[1], sys.argv[2]
as_json = "--json" in sys.argv[3:]
runs = 3
if "--runs" in sys.argv[3:]:
    runs = int(sys.argv[sys.argv.index("--runs") + 1])
sim_s = 10.0
walls, out = [], None
for _ in range(runs):
    t0 = time.monotonic()
    r = subprocess.run([rxscale, "run", scen, "--set", f"run.duration={sim_s}", "--json"],
                       capture_output=True, text=True)
    walls.append(time.monotonic() - t0)
    if r.returncode:
        sys.exit(f"bench-run: rxscale failed: {r.stderr.strip()}")
    if out is not None and r.stdout != out:
        sys.exit("bench-run: two runs of the same scenario printed different results")
    out = r.stdout
doc = json.loads(out)
pkts = sum(q["packets"] for q in doc["summary"]["queues"])
peak_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024.0
best, med = min(walls), statistics.median(walls)
res = {"scenario": scen, "sim_s": sim_s, "runs": runs,
       "wall_s_best": round(best, 3), "wall_s_median": round(med, 3),
       "realtime_factor_best": round(sim_s / best, 3),
       "realtime_factor_median": round(sim_s / med, 3),
       "packets_per_wall_s": round(pkts / best), "peak_mb": round(peak_mb, 1),
       "throughput_gbps": doc["summary"]["throughput_gbps"]}
if as_json:
    print(json.dumps({"results": [res]}))
else:
    print(f"{scen}: {sim_s:g} s simulated; best of {runs} runs {best:.1f} s wall = "
          f"{res['realtime_factor_best']:.2f}x real time, median "
          f"{res['realtime_factor_median']:.2f}x (target >= 1x); "
          f"{res['packets_per_wall_s']:,} packets/s; peak {peak_mb:.0f} MB (target < 200 MB)")
