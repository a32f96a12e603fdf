#!/usr/bin/env python3
"""rxscale run's conventions as a command-line tool:
- progress: with stderr on a terminal a run shows "D of T simulated
  seconds" there (and a sweep names its point); stdout is the same as
  without a terminal, and without one stderr stays empty;
- the run header comes before the simulation: its first line can be read
  while the run is still going;
- --plot: the file gets the mode the umask gives new files (not mkstemp's
  0600), and its title names the chip, preset, duration and seed (SVG, so
  the text can be read back; needs gnuplot).
Usage: conventions_test.py RXSCALE
"""
import os
import pty
import select
import shutil
import subprocess
import sys
import tempfile
import time

rx = sys.argv[1]
failures = []


def check(ok, what):
    if not ok:
        failures.append(what)
        print("FAIL:", what)


def on_tty(args):
    """Run with stderr on a pseudo-terminal: (exit, stdout, terminal text)."""
    master, slave = pty.openpty()
    p = subprocess.Popen([rx, "run", *args], stdout=subprocess.PIPE, stderr=slave)
    os.close(slave)
    tty = b""
    while True:
        r, _, _ = select.select([master], [], [], 0.2)
        if r:
            try:
                chunk = os.read(master, 4096)
            except OSError:
                chunk = b""
            if not chunk:
                break
            tty += chunk
        elif p.poll() is not None:
            break
    out = p.stdout.read()
    p.wait()
    os.close(master)
    return p.returncode, out, tty.decode(errors="replace")


args = ["--set", "run.duration=3", "--set", "iperf3.streams=2"]
plain = subprocess.run([rx, "run", *args], capture_output=True)
check(plain.returncode == 0 and not plain.stderr, f"no terminal: stderr {plain.stderr[:200]!r}")
rc, out, tty = on_tty(args)
check(rc == 0 and out == plain.stdout, "stdout differs with stderr on a terminal")
check("1 of 3 simulated seconds" in tty and "3 of 3 simulated seconds" in tty,
      f"no progress on the terminal: {tty[:200]!r}")
check(tty.endswith("\r\x1b[K"), f"the progress line is not cleared: {tty[-40:]!r}")
rc, out, tty = on_tty(["--set", "run.duration=1", "--set", "iperf3.streams=1",
                       "--sweep", "iperf3.streams=1,2"])
check(rc == 0 and "sweep 2/2, iperf3.streams=2" in tty, f"sweep progress: {tty[:300]!r}")

# the header before the simulation: it arrives long before the rest
p = subprocess.Popen([rx, "run", "--set", "run.duration=6"], stdout=subprocess.PIPE)
t0 = time.monotonic()
first = p.stdout.readline().decode()
t_first = time.monotonic() - t0
p.stdout.read()
p.wait()
t_all = time.monotonic() - t0
check(first.startswith("rxscale run: RTL8127A") and t_first < 0.5 * t_all,
      f"the header came at {t_first:.2f} s of {t_all:.2f} s: {first!r}")

if shutil.which("gnuplot"):
    with tempfile.TemporaryDirectory() as d:
        svg = os.path.join(d, "sweep.svg")
        old = os.umask(0o022)
        r = subprocess.run([rx, "run", "--set", "run.duration=0.5", "--set", "iperf3.streams=2",
                            "--seed", "7", "--sweep", "iperf3.streams=1,2", "--plot", svg],
                           capture_output=True, text=True)
        os.umask(old)
        check(r.returncode == 0, f"--plot: {r.stderr}")
        if r.returncode == 0:
            mode = os.stat(svg).st_mode & 0o777
            check(mode == 0o644, f"--plot under umask 022: mode {mode:o}")
            text = open(svg).read()
            title = "rxscale sweep of iperf3.streams: RTL8127A, preset default, 0.5 s each, seed 7"
            check(title in text, "the plot's title does not name chip, preset, duration, seed")
else:
    print("gnuplot not installed: --plot not checked")

print(f"conventions: {len(failures)} problems")
sys.exit(1 if failures else 0)
