#!/usr/bin/env python3
"""run_dim_test.py RXSCALE - `rxscale run` for adaptive moderation:
nic.rx_usecs (a number or adaptive, on either chip), host.busy_tasks
(stress-ng --cpu N), scenario regimes ([regime.NAME] sections) and the
regime sweep (its tables, verdicts, determinism, plot), --regime, and
their bad input (a clear error naming file and line, nothing run)."""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

rxscale = sys.argv[1]
from rxtest import check
import rxtest


def run(*args):
    return rxtest.run(rxscale, *args)


# nic.rx_usecs and host.busy_tasks; bad values: a clear error, nothing run
for args, text in ((("--set", "nic.rx_usecs=fast"), "is not -1, adaptive or a whole number"),
                   (("--set", "nic.rx_usecs=100001"), "nic.rx_usecs"),
                   (("--set", "nic.rx_usecs=5000"), "nic.rx_usecs: ethtool -C eth0 rx-usecs 5000 failed"),
                   (("--set", "host.busy_tasks=65"), "host.busy_tasks"),
                   (("--regime", "none"), "no regime 'none'")):
    r = run(*args)
    check(r.returncode != 0 and text in r.stderr and not r.stdout.strip(),
          f"bad input {args}: rc {r.returncode} {r.stderr!r} {r.stdout[:200]!r}")
r = run("--set", "run.duration=1", "--set", "host.busy_tasks=8", "--set", "host.preset=r2514",
        "--set", "nic.rx_usecs=adaptive", "--ethtool", "-c eth0")
check(r.returncode == 0 and "Adaptive RX: on" in r.stdout and
      "host load: stress-ng --cpu 8" in r.stdout and
      re.search(r"stress-ng-cpu \(8\) [5-7][0-9][0-9]\.[0-9]", r.stdout) is not None and
      "rx_queue_3_dim_profile:" in r.stdout, f"busy tasks, adaptive: {r.stdout[-3000:]} {r.stderr}")
# regimes: [regime.NAME] sections; --sweep runs every value in each, one
# table and a verdict per regime; --regime NAME runs one
reg = ("[run]\nduration = 1\n[nic]\nchip = RTL8159\n[host]\ncpus = 4\n[iperf3]\n"
       "streams = 2\n[regime.idle]\nmain = ping\niperf3.streams = 0\nping.from = host\n"
       "ping.count = 5\nping.interval = 0.1\n[regime.bulk]\nmain = gbps\n"
       "host.busy_tasks = 4\n")
with tempfile.TemporaryDirectory() as td:
    f = os.path.join(td, "reg.ini")
    open(f, "w").write(reg)
    sw = (f, "--sweep", "nic.rx_usecs=8,adaptive")
    a, b = run(*sw), run(*sw)
    check(a.returncode == 0 and a.stdout == b.stdout, f"regime sweep: {a.stderr}")
    lines = a.stdout.splitlines() + [""] * 16     # short output fails below
    check(lines[0].endswith("2 regimes") and
          lines[2].startswith("regime idle (1 s each, main figure: ping): iperf3.streams=0") and
          [l.split()[0] for l in lines[4:6]] == ["8", "adaptive"] and
          all(len(l.split()) == 7 for l in lines[4:6]) and
          lines[6].startswith("main figure ping avg ms: best 8 ") and "adaptive" in lines[6] and
          lines[8].startswith("regime bulk") and lines[12].startswith("main figure Gbit/s"),
          f"regime sweep table: {a.stdout}")
    # a tie as printed names every value that has it (it named the last
    # one alone, as if it were better, before)
    r = run(f, "--sweep", "usb.rx_usecs=0,1,8")
    check(r.returncode == 0 and "main figure ping avg ms: best 0, 1, 8 0.044\n" in r.stdout and
          "main figure Gbit/s: best 8 " in r.stdout, f"regime sweep ties: {r.stdout}")
    # --regime runs one; --set wins over the regime's own values
    r = run(f, "--regime", "idle", "--set", "ping.count=3")
    check(r.returncode == 0 and "3 packets transmitted, 3 received" in r.stdout,
          f"--regime idle: {r.stdout} {r.stderr}")
    # without --sweep or --regime the scenario runs as it is, and says so
    r = run(f, "--set", "run.duration=0.2")
    check(r.returncode == 0 and "the scenario's 2 regimes are not run" in r.stderr,
          f"regimes not run: {r.stderr}")
    # the table heads list each regime's overrides; --plot draws a curve each
    out = os.path.join(td, "reg.svg")
    plot = ("--plot", out) if shutil.which("gnuplot") else ()
    r = run(f, "--sweep", "nic.rx_usecs=8", "--set", "run.duration=0.5", *plot)
    check(r.returncode == 0 and "ping.count=5" in r.stdout, f"regime listing: {r.stdout}")
    if plot:
        check(r.returncode == 0 and os.path.exists(out) and
              "idle" in open(out).read() and "busiest CPU %soft" in open(out).read(),
              f"regime --plot: {r.stderr}")
    for text, want in (("[regime.x]\nmain = fast\n", ":2: regime.x.main: 'fast' is not gbps"),
                       ("[regime.x]\nstreams = 3\n", ":2: regime.x: 'streams' is not a section.key"),
                       ("[regime.x]\niperf3.streams = many\n", ":2: regime.x: iperf3.streams"),
                       ("[regime.x]\nregime.y.main = ping\n", ":2: regime.x: 'regime.y.main'"),
                       ("".join("[regime.r%d]\nmain = ping\n" % i for i in range(5)),
                        ":10: at most 4 regimes"),
                       ("[regime.]\nmain = ping\n", ":2: [regime.NAME]: a name")):
        open(f, "w").write(text)
        r = run(f)
        check(r.returncode == 2 and want in r.stderr and not r.stdout, f"{text!r}: {r.stderr}")
    # figures a point does not have are "-" (issue 26: the idle regime's
    # Gbit/s and retransmits read 0.00 and 0, a regime without ping
    # -1.000): the idle regime runs no iperf3, the bulk one no ping
    rows = {l.split()[0]: l.split() for l in lines[4:6]}
    bulk = {l.split()[0]: l.split() for l in lines[10:12]}
    check("-1.000" not in a.stdout and rows.get("8", [""] * 7)[1] == "-" and
          rows.get("8", [""] * 7)[6] == "-" and bulk.get("8", [""] * 7)[5] == "-" and
          bulk.get("8", [""] * 7)[1] != "-", f"placeholders in the regime tables: {a.stdout}")
    # a --set over a regime's own value wins, and the heading says so
    # (it printed run.duration=3 beside "0.5 s each")
    open(f, "w").write(reg.replace("ping.count = 5\n", "ping.count = 5\nrun.duration = 3\n"))
    r = run(f, "--sweep", "nic.rx_usecs=8,adaptive", "--set", "run.duration=0.5")
    check(r.returncode == 0 and
          "regime idle (0.5 s each, main figure: ping): iperf3.streams=0 ping.from=host "
          "ping.count=5 run.duration=3 (--set run.duration=0.5 wins) ping.interval=0.1\n"
          in r.stdout and "regime bulk (0.5 s each, main figure: gbps): host.busy_tasks=4\n"
          in r.stdout, f"regime heading with --set: {r.stdout} {r.stderr}")
    open(f, "w").write("[regime.idle]\niperf3.streams = 0\n")
    r = run(f, "--sweep", "nic.rx_usecs=8")
    check(r.returncode == 2 and "leaves no iperf3 or ping workload" in r.stderr,
          f"regime without workload: {r.stderr}")

# a plain sweep's point without a ping reply: "-" in the table, null in
# JSON and in its point file, which sweep-merge reads back to the same table
with tempfile.TemporaryDirectory() as td:
    sw = ("--sweep", "fault.rx_ring_full=0,15", "--set", "run.duration=0.2")
    t, j = run(*sw), run(*sw, "--json")
    row = [l.split() for l in t.stdout.splitlines() if l.startswith("15 ")]
    check(t.returncode == 0 and row and row[0][4] == "-" and "-1.000" not in t.stdout,
          f"sweep without a ping reply: {t.stdout} {t.stderr}")
    pts = json.loads(j.stdout)["sweep"]["points"] if j.returncode == 0 else [{}, {}]
    check(pts[1].get("ping_avg_ms", 0) is None and pts[0].get("ping_avg_ms") is not None,
          f"sweep JSON without a ping reply: {j.stdout[-600:]}")
    for i in (0, 1):
        run(*sw, "--point", str(i), "--point-json", os.path.join(td, "point-%03d.json" % i))
    m = subprocess.run([rxscale, "sweep-merge", td], capture_output=True, text=True)
    check(m.returncode == 0 and m.stdout == t.stdout, f"merged: {m.stdout} {m.stderr}")

rxtest.finish("run-dim: %d failures" % rxtest.failures)
