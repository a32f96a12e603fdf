#!/usr/bin/env python3
"""plot_test.py RXSCALE - what `rxscale run --sweep ... --plot` draws, read
from the gnuplot script itself (--plot FILE.gp): uneven values on a true
or log scale with the unit in the axis label, not evenly spaced; a word
such as `adaptive` a marker of its own right of a dashed line, not joined
to the numbers; %CPU axes from 0 and at least 10 tall; a retransmits
panel; a figure a point lacks a gap (NaN), not 0.  With gnuplot, the
script renders.  (issue 26)"""
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile

from rxtest import check
import rxtest

rx = sys.argv[1]
src = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def script(*args):
    """The .gp script of a sweep: its text, or '' after a failed check."""
    with tempfile.TemporaryDirectory() as td:
        gp = os.path.join(td, "sweep.gp")
        r = rxtest.run(rx, *args, "--plot", gp)
        check(r.returncode == 0 and os.path.exists(gp), f"{args}: {r.returncode} {r.stderr}")
        return open(gp, errors="replace").read() if os.path.exists(gp) else ""


def xtics(text):
    m = re.search(r"^set xtics font ',10' \((.*)\)$", text, re.M)
    return [(l, float(x)) for l, x in re.findall(r"'([^']*)' (-?[0-9.]+)", m.group(1))] if m else []


def block(text, name):
    m = re.search(r"^\$%s << EOD\n(.*?)^EOD$" % re.escape(name), text, re.M | re.S)
    return [l.split() for l in m.group(1).splitlines()] if m else None


e3 = os.path.join(src, "scenarios", "e3-mit-on-p4.ini")
# uneven values: a log scale (0 among them: of x + half the smallest step)
t = script(e3, "--sweep", "usb.rx_usecs=0,5,15,50,150,500", "--set", "run.duration=0.2")
ticks = xtics(t)
check([l for l, _ in ticks] == ["0", "5", "15", "50", "150", "500"] and
      all(abs(x - math.log10(float(l) + 2.5)) < 1e-5 for l, x in ticks),
      f"log scale ticks: {ticks}")
gaps = [b[1] - a[1] for a, b in zip(ticks, ticks[1:])]
check(len(gaps) == 5 and max(gaps) - min(gaps) > 0.1, f"evenly spaced: {gaps}")
check("set xlabel 'usb.rx_usecs, us (log scale of x + 2.5, so that 0 fits)'" in t,
      "the x label names the unit and the scale")
rows = block(t, "d0") or []
check([float(r[0]) for r in rows] == [x for _, x in ticks] and block(t, "w0") == [],
      f"the curve's points: {rows}")
plots = re.findall(r"^set yrange (\S+)\nset title '([^']*)'\nplot (.*)$", t, re.M)
check([p[1] for p in plots] == ["throughput (Gbit/s)", "busiest ksoftirqd (%CPU)",
                                "NIC interrupts per second", "ping avg, idle (ms)",
                                "TCP retransmits"], f"panels: {[p[1] for p in plots]}")
check(len(plots) == 5 and plots[1][0] == "[0:10<*]" and plots[0][0] == "[0:*]" and
      "using 1:6" in plots[4][2], f"y axes: {plots}")

# a true scale when the values span less than 20x; UDP: no retransmits (NaN)
t = script("--sweep", "iperf3.streams=1,2,4", "--set", "run.duration=0.1",
           "--set", "iperf3.udp=1")
check([x for _, x in xtics(t)] == [1.0, 2.0, 4.0] and
      "set xlabel 'iperf3.streams'" in t and
      all(r[5] == "NaN" for r in block(t, "d0") or [[""] * 6]) and
      "TCP retransmits: none (no TCP)" in t, f"true scale, UDP: {t[:900]}")

# regimes, the values out of order and adaptive among them: each regime's
# numbers left to right, adaptive its own marker right of a dashed line
with tempfile.TemporaryDirectory() as td:
    f = os.path.join(td, "reg.ini")
    open(f, "w").write("[run]\nduration = 0.3\n[nic]\nchip = RTL8159\n[host]\ncpus = 4\n"
                       "[iperf3]\nstreams = 2\n[regime.idle]\nmain = ping\n"
                       "iperf3.streams = 0\nping.from = host\nping.count = 3\n"
                       "ping.interval = 0.05\n[regime.bulk]\nmain = gbps\n")
    t = script(f, "--sweep", "nic.rx_usecs=256,8,adaptive")
ticks = dict(xtics(t))
d0, w0, d1 = block(t, "d0") or [], block(t, "w0") or [], block(t, "d1") or []
arrow = re.search(r"^set arrow from (\S+), graph 0 to \S+, graph 1 nohead dt 2$", t, re.M)
check(set(ticks) == {"256", "8", "adaptive"} and len(d0) == 2 and len(d1) == 2 and
      float(d0[0][0]) < float(d0[1][0]) and len(w0) == 1 and
      arrow and ticks["256"] < float(arrow.group(1)) < ticks["adaptive"] == float(w0[0][0]),
      f"adaptive as a marker of its own: {ticks} {d0} {w0} {arrow}")
check(d0 and d0[0][1] == "NaN" and d0[0][5] == "NaN" and
      re.search(r"\$w0 using 1:2 notitle with points", t) and
      re.search(r"\$d1 using 1:2 title 'bulk' with linespoints", t),
      f"the idle regime has no throughput; the markers: {t[-900:]}")

# names, not numbers: categories, each a marker, nothing joined
t = script("--sweep", "nic.chip=RTL8127A,RTL8125A", "--set", "run.duration=0.1")
check([x for _, x in xtics(t)] == [0.0, 1.0] and block(t, "d0") == [] and
      len(block(t, "w0") or []) == 2, f"categories: {t[:700]}")

# the script renders (an SVG with the five panels)
if shutil.which("gnuplot"):
    with tempfile.TemporaryDirectory() as td:
        svg = os.path.join(td, "s.svg")
        r = rxtest.run(rx, e3, "--sweep", "nic.rx_usecs=0,15,adaptive", "--set",
                       "run.duration=0.1", "--plot", svg)
        text = open(svg).read() if os.path.exists(svg) else ""
        check(r.returncode == 0 and "TCP retransmits" in text and "adaptive" in text,
              f"svg: {r.stderr}")
else:
    print("plot_test: gnuplot not installed, the rendering not checked")

rxtest.finish("plot: %d failures" % rxtest.failures)
