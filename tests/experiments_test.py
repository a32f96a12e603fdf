#!/usr/bin/env python3
"""The seed experiments E1, E2 and E3 (../shared/EXPERIMENTS.md) as tests.

Runs every scenarios/e*.ini with --compare --json and checks, per row:
  - the row is reported with its band and role as EXPERIMENTS.md gives them;
  - it is inside its band, except the rows docs/fidelity.md explains as
    misses (MISSES below).  A documented miss that comes inside its band
    fails too: the document would then be wrong.
and, for every run, that no interval exceeds the line's TCP goodput limit
(1448/1538 of the link rate) and that the run is deterministic (the first
scenario is run twice).

usage: experiments_test.py RXSCALE SCENARIO_DIR FIDELITY_MD
"""
import json
import re
import subprocess
import sys

rxscale, scen_dir, fidelity = sys.argv[1], sys.argv[2], sys.argv[3]
from rxtest import check
import rxtest


# Rows outside their band, each explained in docs/fidelity.md.
MISSES = {"E1a", "E1d", "E2c", "E3a", "E3b", "E3d", "E3e"}
# scenario -> the rows it must report, in order
SCENARIOS = {
    "e1-norss": ["E1a", "E1b"],
    "e1-rss": ["E1c", "E1d", "E1e"],
    "e2-vanilla-p1": ["E2a", "E2b"],
    "e2-vanilla-p20": ["E2c"],
    "e2-rss-p20": ["E2d", "E2e"],
    "e3-mit-on-p1": ["E3a"],
    "e3-mit-on-p4": ["E3b"],
    "e3-mit-off-p1": ["E3c"],
    "e3-mit-off-p4": ["E3d"],
    "e3-ping-mit-on": ["E3e"],
    "e3-ping-mit-off": ["E3e"],
}
FIT = {"E1a", "E1b", "E2a", "E2b", "E3a", "E3c"}
BANDS = {"E1b": (90, 100), "E1c": (9.30, 9.42), "E1d": (50, 75),
         "E2a": (5.1, 5.9), "E2b": (95, 100), "E2c": (3.9, 4.7),
         "E2d": (9.25, 9.42), "E3a": (8.6, 9.0), "E3b": (8.5, 9.0),
         "E3c": (8.6, 9.0), "E3d": (7.7, 8.4), "E3e": (0.30, 0.50)}
# E3b: the throughput half is inside its band (the ksoftirqd half is the
# documented miss; E3a's throughput is above its band, E3d's too)
TPUT_IN_BAND = {"E3b"}
pings = {}
# the peer's transmitter may run up to 100 ppm fast (10GBASE-T's tolerance,
# src/sim/sim_clock.c): the line's own limit is that much higher
LIMIT = 10 * 1448 / 1538 * (1 + 100e-6)

doc = open(fidelity, encoding="utf-8").read()
values = {}
for name, rows in SCENARIOS.items():
    path = f"{scen_dir}/{name}.ini"
    r = subprocess.run([rxscale, "run", path, "--compare", "--json"],
                       capture_output=True, text=True)
    check(r.returncode == 0, f"{name}: exit {r.returncode}: {r.stderr}")
    if r.returncode:
        continue
    if name == "e2-vanilla-p1":
        again = subprocess.run([rxscale, "run", path, "--compare", "--json"],
                               capture_output=True, text=True)
        check(again.stdout == r.stdout, f"{name}: not deterministic")
    d = json.loads(r.stdout)
    # a window can hold one segment more than the average (frame phase)
    over = [i for i in d["summary"]["intervals"]
            if i["gbps"] > LIMIT + 1448 * 8 / ((i["end"] - i["start"]) * 1e9) + 1e-9]
    check(not over, f"{name}: intervals above the goodput limit: {over}")
    check(d["summary"]["throughput_gbps"] <= LIMIT,
          f"{name}: throughput {d['summary']['throughput_gbps']} above {LIMIT}")
    got = [c["row"] for c in d.get("compare", [])]
    check(got == rows, f"{name}: rows {got}, expected {rows}")
    for c in d.get("compare", []):
        row = c["row"]
        values[row] = c["value"]
        check(c["role"] == ("fit" if row in FIT else "predicted"),
              f"{row}: role {c['role']}")
        if row in BANDS:
            check(tuple(c["band"]) == BANDS[row], f"{row}: band {c['band']}")
        if row in MISSES:
            check(not c["ok"], f"{row} is now inside its band ({c['value']:.2f}, "
                  f"{c['note']}): update docs/fidelity.md and MISSES")
            # the document explains it: a table line marked "no" and a section
            check(re.search(rf"^\| {row} \|.*\| no \|$", doc, re.M) is not None,
                  f"{row}: docs/fidelity.md has no table line marking it out of band")
            check(re.search(rf"^###.*\b{row}\b", doc, re.M) is not None,
                  f"{row}: docs/fidelity.md has no section on it")
        else:
            check(c["ok"], f"{row} outside its band: {c['value']:.2f} not in "
                  f"{c['band']} ({c['note']})")
        if row in TPUT_IN_BAND:
            lo, hi = c["band"]
            check(lo <= c["value"] <= hi, f"{row}: throughput {c['value']} left its band")
        if row == "E3e":
            pings[name] = c["value"]
        print(f"{row}: {c['value']:.2f} band {c['band']} {c['role']} "
              f"{'in band' if c['ok'] else 'MISS (documented)' if row in MISSES else 'MISS'}"
              f"  {c['note']}")

# E3e's second condition: the two settings differ by <= 0.05 ms (it holds)
if len(pings) == 2:
    a, b = pings["e3-ping-mit-on"], pings["e3-ping-mit-off"]
    check(abs(a - b) <= 0.05, f"E3e: ping avg differs by {abs(a - b):.3f} ms")

rxtest.finish()
