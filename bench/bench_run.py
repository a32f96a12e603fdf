#!/usr/bin/env python3
"""bench_run.py RXSCALE SCENARIO [--json] - the main job's speed.

Runs `rxscale run SCENARIO --set run.duration=10 --json` and reports the
real-time factor (simulated seconds per wall second), simulated packets
(received by the NIC's queues) per wall second and the peak resident
memory of the run (getrusage of the child).  Targets (issue 6): >= 1x
real time on one core, peak memory < 200 MB."""
import json
import resource
import subprocess
import sys
import time

rxscale, scen = sys.argv[1], sys.argv[2]
as_json = "--json" in sys.argv[3:]
sim_s = 10.0
t0 = time.monotonic()
r = subprocess.run([rxscale, "run", scen, "--set", f"run.duration={sim_s}", "--json"],
                   capture_output=True, text=True)
wall = time.monotonic() - t0
if r.returncode:
    sys.exit(f"bench-run: rxscale failed: {r.stderr.strip()}")
doc = json.loads(r.stdout)
pkts = sum(q["packets"] for q in doc["summary"]["queues"])
peak_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024.0
res = {"scenario": scen, "sim_s": sim_s, "wall_s": round(wall, 3),
       "realtime_factor": round(sim_s / wall, 3),
       "packets_per_wall_s": round(pkts / wall), "peak_mb": round(peak_mb, 1),
       "throughput_gbps": doc["summary"]["throughput_gbps"]}
if as_json:
    print(json.dumps({"results": [res]}))
else:
    print(f"{scen}: {sim_s:g} s simulated in {wall:.1f} s wall = "
          f"{res['realtime_factor']:.2f}x real time (target >= 1x); "
          f"{res['packets_per_wall_s']:,} packets/s; peak {peak_mb:.0f} MB (target < 200 MB)")
