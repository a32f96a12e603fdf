#!/usr/bin/env python3
"""Draw docs/fidelity.md's two figures from `scripts/fidelity.py --series DIR`.

  - E1a: the per-second throughput of scenarios/e1-norss.ini for each seed,
    with the seed 000 report's range (3.76 ... 8.2 Gbit/s) and the band's
    limits (a second at <= 5.0 and one at >= 7.5);
  - E3e: ping's min/avg/max and avg +- mdev per seed for mitigation off and
    on (scenarios/e3-ping-mit-*.ini), beside seed 002's two runs
    (0.161/0.411/1.267, mdev 0.231 ms off; 0.165/0.388/1.048, mdev 0.236
    ms on) and the band (avg 0.30 ... 0.50 ms).

  scripts/fidelity_plot.py DIR OUTDIR     # OUTDIR/fidelity-e1a.png, -e3e.png

gnuplot (gnuplot-nox) draws them.  Standard library only; exit 1 when a
series file is missing or gnuplot fails.
"""
import glob
import json
import os
import re
import subprocess
import sys
import tempfile

SEED_E3E = {"off": (0.161, 0.411, 1.267, 0.231), "on": (0.165, 0.388, 1.048, 0.236)}


def load(directory, name):
    out = {}
    for path in glob.glob(os.path.join(directory, f"{name}-seed*.json")):
        seed = int(re.search(r"-seed(\d+)\.json$", path).group(1))
        with open(path, encoding="utf-8") as f:
            out[seed] = json.load(f)
    return dict(sorted(out.items()))


def gnuplot(script):
    r = subprocess.run(["gnuplot"], input=script, text=True, capture_output=True)
    if r.returncode:
        sys.exit(f"fidelity_plot: gnuplot failed: {r.stderr.strip()}")


def plot_e1a(runs, tmp, out):
    blocks = []
    for seed, d in runs.items():
        rows = [f"{i['end']:.0f} {i['gbps']:.4f}" for i in d["intervals"]]
        blocks.append((seed, "\n".join(rows)))
    data = os.path.join(tmp, "e1a.dat")
    with open(data, "w", encoding="utf-8") as f:
        f.write("\n\n\n".join(b for _, b in blocks) + "\n")
    plots = [f"'{data}' index {k} with lines lw 1.5 title 'seed {seed}'"
             for k, (seed, _) in enumerate(blocks)]
    gnuplot(f"""set terminal pngcairo size 900,480 font ',10'
set output '{out}'
set title 'E1a: e1-norss per-second throughput, simulated seeds 1-8, against the seed 000 report'
set xlabel 'second'
set ylabel 'Gbit/s'
set yrange [0:10]
set key outside right
set arrow from graph 0, first 8.2 to graph 1, first 8.2 nohead dt 2 lw 2 lc rgb 'black'
set arrow from graph 0, first 3.76 to graph 1, first 3.76 nohead dt 2 lw 2 lc rgb 'black'
set arrow from graph 0, first 5.0 to graph 1, first 5.0 nohead dt 3 lc rgb 'red'
set arrow from graph 0, first 7.5 to graph 1, first 7.5 nohead dt 3 lc rgb 'red'
set label 'seed 000: 8.2 (best)' at graph 0.02, first 8.45
set label 'seed 000: 3.76 (worst)' at graph 0.02, first 3.5
set label 'band: a second <= 5.0' at graph 0.6, first 4.75 tc rgb 'red'
set label 'band: a second >= 7.5' at graph 0.6, first 7.25 tc rgb 'red'
plot {", ".join(plots)}
""")


def plot_e3e(off, on, tmp, out):
    data = os.path.join(tmp, "e3e.dat")
    lines = ["# x label min avg max mdev"]
    x = 0
    for setting, runs in (("off", off), ("on", on)):
        s = SEED_E3E[setting]
        lines.append(f"{x} seed002-{setting} {s[0]} {s[1]} {s[2]} {s[3]}")
        x += 1
        for seed, d in runs.items():
            p = d.get("ping") or {}
            if not p:
                continue
            lines.append(f"{x} sim{seed}-{setting} {p['min_ms']} {p['avg_ms']} "
                         f"{p['max_ms']} {p['mdev_ms']}")
            x += 1
        x += 1
    with open(data, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    gnuplot(f"""set terminal pngcairo size 900,480 font ',10'
set output '{out}'
set title 'E3e: ping RTT min/avg/max (bar) and avg +- mdev (box), seed 002 against simulated seeds 1-8'
set ylabel 'ms'
set yrange [0:1.4]
set xtics rotate by -60 font ',8'
set key top left
set style fill transparent solid 0.3
set object 1 rect from graph 0, first 0.30 to graph 1, first 0.50 fc rgb 'green' fs transparent solid 0.12 noborder
set label 'band: avg 0.30 ... 0.50' at graph 0.70, first 0.47 tc rgb 'dark-green'
plot '{data}' using 1:4:($1-0.3):($1+0.3):($4-$6):($4+$6) with boxxyerror \\
         title 'avg +- mdev' lc rgb 'gray', \\
     '' using 1:4:3:5:xtic(2) with yerrorbars pt 7 lw 1.5 title 'min / avg / max'
""")


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__.split("\n\n")[0] + "\nusage: fidelity_plot.py DIR OUTDIR")
    directory, outdir = sys.argv[1], sys.argv[2]
    e1a = load(directory, "e1-norss")
    off, on = load(directory, "e3-ping-mit-off"), load(directory, "e3-ping-mit-on")
    if not e1a or not off or not on:
        sys.exit(f"fidelity_plot: {directory} lacks e1-norss / e3-ping-mit-* series "
                 "(run scripts/fidelity.py --series DIR)")
    with tempfile.TemporaryDirectory() as tmp:
        plot_e1a(e1a, tmp, os.path.join(outdir, "fidelity-e1a.png"))
        plot_e3e(off, on, tmp, os.path.join(outdir, "fidelity-e3e.png"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
