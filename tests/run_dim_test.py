#!/usr/bin/env python3
"""run_dim_test.py RXSCALE - `rxscale run` for adaptive moderation:
nic.rx_usecs (a number or adaptive, on either chip), host.busy_tasks
(stress-ng --cpu N), scenario regimes ([regime.NAME] sections) and the
regime sweep (its tables, verdicts, determinism, plot), --regime, and
their bad input (a clear error naming file and line, nothing run)."""
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
    open(f, "w").write("[regime.idle]\niperf3.streams = 0\n")
    r = run(f, "--sweep", "nic.rx_usecs=8")
    check(r.returncode == 2 and "leaves no iperf3 or ping workload" in r.stderr,
          f"regime without workload: {r.stderr}")

rxtest.finish("run-dim: %d failures" % rxtest.failures)
