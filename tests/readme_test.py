#!/usr/bin/env python3
"""readme_test.py SOURCE BUILD RXSCALE - every command of the README, as a
new user types it into a fresh clone, runs and exits 0 (issue 26).

The commands are the README's ```sh blocks (every fenced block is ```sh
or ```text, so none hides); a line ending in a backslash goes on, a
comment line is not a command, the same command twice runs once.  They run
in a copy of the checkout made of links (its build/ holds only rxscale),
so what they write stays out of the source tree, with these changes:
- a short run: `rxscale run` gets `--set run.duration=D` first (0.3 s, or
  the last --at time + 0.3 s; the command's own --set comes later and
  wins), and so does scripts/fidelity.py;
- make targets get BUILD= this build, meson install -C this build, and
  /tmp/stage is a temporary directory.
A comment "prints X" before a command is checked against its first line,
a --plot FILE must exist afterwards, and `make run` must print every line
of the README's output block after "Two commands", in order.

SKIP lists what does not run here, each with its reason; those marked
slow run with RXSCALE_README_ALL=1.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

src, build, rx = (os.path.abspath(a) for a in sys.argv[1:4])

# (pattern, reason, slow): a command matching the pattern is skipped
SKIP = [
    (r"^make test\b", "the test suite this test is part of", False),
    (r"^make bench\b", "benchmarks: minutes under valgrind; speed is measured, never a "
     "timed test", True),
    (r"^make release\b", "a second, optimised build with LTO and a PGO training run: "
     "minutes of compiling", True),
    (r"^make uml-test\b", "UML: builds and boots a User-Mode Linux kernel from Debian's "
     "linux-source (network, minutes)", False),
    (r"^make qemu-test\b", "QEMU: boots Linux guests, 420 MB downloaded the first time "
     "(network, minutes)", False),
    (r"sudo |^BDF=|^dmesg ", "root and an RTL8125/8126/8127 card: the module on real "
     "hardware", False),
]

failures = []


def check(ok, what):
    if not ok:
        failures.append(what)
        print("FAIL:", what)


readme = open(os.path.join(src, "README.md")).read()
blocks = re.findall(r"^```(\S*)\n(.*?)^```$", readme, re.M | re.S)
for tag, _ in blocks:
    check(tag in ("sh", "text"), f"a fenced block tagged '{tag}' (sh for commands, text "
          "for output)")
commands = []                   # (command, the "prints" it promises)
for tag, body in blocks:
    if tag != "sh":
        continue
    promise, cur = None, ""
    for line in body.splitlines():
        if not cur and line.lstrip().startswith("#"):
            m = re.search(r"\bprints (\S+)$", line)
            promise = m.group(1) if m else promise
            continue
        cur += line
        if cur.endswith("\\"):
            cur = cur[:-1]
            continue
        # the same command twice (its comment aside) runs once
        same = lambda c: re.sub(r"\s+#\s.*$", "", c)
        if cur.strip() and same(cur.strip()) not in [same(c) for c, _ in commands]:
            commands.append((cur.strip(), promise))
        cur, promise = "", None
check(len(commands) > 20, f"only {len(commands)} commands found")

# make run's output, as the README shows it (abridged with "...")
shown = re.search(r"^## Two commands.*?^```text\n(.*?)^```$", readme, re.M | re.S)
check(shown, "no output block after 'Two commands'")

tmp = tempfile.mkdtemp(prefix="rxscale-readme-")
view = os.path.join(tmp, "clone")
os.mkdir(view)
for name in os.listdir(src):
    if name != ".git" and not name.startswith("build"):
        os.symlink(os.path.join(src, name), os.path.join(view, name))
os.mkdir(os.path.join(view, "build"))
os.symlink(rx, os.path.join(view, "build", "rxscale"))
run_all = os.environ.get("RXSCALE_README_ALL") == "1"
ran = skipped = 0


def need(cmd):
    """A tool the command needs that is not installed, or None."""
    tools = ["gnuplot"] if "--plot" in cmd else []
    tools += re.findall(r"\|\s*(parallel)\b", cmd)
    for t in tools:
        if not shutil.which(t):
            return t
    return None


try:
    for cmd, promise in commands:
        skip = next(((why, slow) for pat, why, slow in SKIP if re.search(pat, cmd)), None)
        if cmd.startswith("make kmod") and subprocess.run(
                ["dpkg-query", "-W", "-f=${Status}", "linux-headers-amd64"],
                capture_output=True, text=True).stdout != "install ok installed":
            skip = ("no kernel headers here (make kmod installs them with apt-get: "
                    "network, root)", False)
        if skip and not (skip[1] and run_all):
            print(f"skipped: {cmd}\n    ({skip[0]}{'; RXSCALE_README_ALL=1 runs it' if skip[1] else ''})")
            skipped += 1
            continue
        if need(cmd):
            print(f"skipped: {cmd}\n    ({need(cmd)} not installed: scripts/deps.sh test)")
            skipped += 1
            continue
        ats = [float(t) for t in re.findall(r"--at (\d+(?:\.\d+)?)", cmd)]
        d = "%g" % (max(ats) + 0.3 if ats else 0.3)
        # (a trailing comment off first: what is added goes before it)
        run = re.sub(r"\brxscale run\b", f"rxscale run --set run.duration={d}",
                     re.sub(r"\s+#\s.*$", "", cmd))
        if run.startswith("scripts/fidelity.py"):
            run += f" --set run.duration={d}"
        run = re.sub(r"^make (\S+)", rf"make \1 BUILD={build}", run)
        run = run.replace("meson install -C build", f"meson install -C {build}")
        run = run.replace("/tmp/stage", os.path.join(tmp, "stage"))
        t0 = time.monotonic()
        r = subprocess.run(["bash", "-c", run], cwd=view, capture_output=True, text=True,
                           stdin=subprocess.DEVNULL)
        ran += 1
        print(f"ran: {cmd}  (exit {r.returncode}, {time.monotonic() - t0:.0f} s)")
        check(r.returncode == 0, f"{cmd}: exit {r.returncode}:\n{r.stderr[-1500:]}")
        if promise:
            first = r.stdout.splitlines()[0] if r.stdout else ""
            check(first == promise, f"{cmd}: prints '{first}', the README says {promise}")
        for plot in re.findall(r"--plot (\S+)", cmd):
            path = os.path.join(view, plot)
            check(os.path.isfile(path) and os.path.getsize(path) > 0,
                  f"{cmd}: no plot {plot}")
        if cmd == "make run" and shown:
            out, at = r.stdout.splitlines(), 0
            for line in shown.group(1).splitlines():
                if line == "...":
                    continue
                while at < len(out) and out[at] != line:
                    at += 1
                check(at < len(out), f"make run does not print the README's line {line!r}")
                at = min(at + 1, len(out))
        if "meson install" in cmd:
            stage = os.path.join(tmp, "stage")
            check(any(f == "rxscale" for _, _, fs in os.walk(stage) for f in fs),
                  f"{cmd}: no rxscale under {stage}")
finally:
    shutil.rmtree(tmp, ignore_errors=True)
print(f"readme: {ran} commands run, {skipped} skipped, {len(failures)} failures")
sys.exit(1 if failures else 0)
