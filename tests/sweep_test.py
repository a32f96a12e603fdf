#!/usr/bin/env python3
"""sweep_test.py RXSCALE - a sweep prints the same bytes however its points
run: in this process (-j 1), in N processes (-j 2, -j 4), or apart as the
commands --emit prints (run by GNU parallel on this machine, and as the
Slurm job-array script with each task id) and merged by `rxscale
sweep-merge` -- the table, the --json document and the --plot.  Bad
options and bad point files fail with a clear message, nothing printed on
stdout.  (tests/sweep_ssh_test.sh runs the emitted commands over ssh.)"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

rxscale = os.path.abspath(sys.argv[1])
from rxtest import check
import rxtest


def run(*args, cwd=None):
    return subprocess.run([rxscale, *args], capture_output=True, text=True, cwd=cwd)


# 5 points, short runs: USB adapter, host sending, one stream
base = ("run", "--set", "nic.chip=RTL8159", "--set", "host.cpus=6",
        "--set", "iperf3.reverse=1", "--set", "iperf3.streams=1",
        "--set", "run.duration=0.2", "--sweep", "usb.rx_usecs=0,5,15,150,500")
one = run(*base)
check(one.returncode == 0 and len(one.stdout.splitlines()) == 7,
      f"-j 1: {one.returncode} {one.stderr} {one.stdout}")
for j in ("2", "4"):
    r = run(*base, "-j", j)
    check(r.returncode == 0 and r.stdout == one.stdout,
          f"-j {j} differs from -j 1: {r.stderr}\n{r.stdout}\n---\n{one.stdout}")
jone = run(*base, "--json")
check(jone.returncode == 0, f"--json: {jone.stderr}")
doc = json.loads(jone.stdout)["sweep"]
check(doc["key"] == "usb.rx_usecs" and [p["value"] for p in doc["points"]] ==
      ["0", "5", "15", "150", "500"], f"--json points: {jone.stdout[:300]}")
# the table's figures are the JSON's, rounded
row = one.stdout.splitlines()[2].split()
check(row[1] == f"{doc['points'][0]['gbps']:.2f}", f"table vs json: {row} {doc['points'][0]}")
r = run(*base, "--json", "-j", "3")
check(r.returncode == 0 and r.stdout == jone.stdout, f"--json -j 3: {r.stderr}")

with tempfile.TemporaryDirectory() as td:
    # GNU parallel on this machine
    r = run(*base, "--emit", "parallel", "--emit-dir", "pts", cwd=td)
    cmds = r.stdout.splitlines()
    check(r.returncode == 0 and len(cmds) == 5 and all(" --point-json " in c for c in cmds),
          f"--emit parallel: {r.stderr} {r.stdout[:300]}")
    if shutil.which("parallel"):
        p = subprocess.run(["parallel", "--will-cite", "-j", "2", "--halt", "now,fail=1"],
                           input=r.stdout, capture_output=True, text=True, cwd=td)
        check(p.returncode == 0, f"parallel: {p.stderr}")
    else:
        print("note: GNU parallel missing (scripts/deps.sh test installs it); "
              "running the emitted commands with sh")
        for c in cmds:
            subprocess.run(["sh", "-c", c], cwd=td)
    pts = os.path.join(td, "pts")
    check(sorted(os.listdir(pts)) == [f"point-{i:03d}.json" for i in range(5)],
          f"point files: {os.listdir(pts)}")
    m = run("sweep-merge", pts)
    check(m.returncode == 0 and m.stdout == one.stdout,
          f"merged table differs: {m.stderr}\n{m.stdout}\n---\n{one.stdout}")
    m = run("sweep-merge", *[os.path.join(pts, f) for f in sorted(os.listdir(pts))[::-1]],
            "--json")
    check(m.returncode == 0 and m.stdout == jone.stdout, f"merged --json differs: {m.stderr}")
    if shutil.which("gnuplot"):
        a, b = os.path.join(td, "a.svg"), os.path.join(td, "b.svg")
        r1 = run(*base, "--plot", a)
        r2 = run("sweep-merge", pts, "--plot", b)
        check(r1.returncode == 0 and r2.returncode == 0 and
              open(a, "rb").read() == open(b, "rb").read() and
              r1.stdout.replace(a, "X") == r2.stdout.replace(b, "X"),
              f"merged plot differs: {r1.stderr} {r2.stderr}")
    # the Slurm job-array script, each task id run as Slurm would
    r = run(*base, "--emit", "slurm", "--emit-dir", "spts", cwd=td)
    script = os.path.join(td, "sweep.sbatch")
    with open(script, "w") as f:
        f.write(r.stdout)
    check(r.returncode == 0 and "#SBATCH --array=0-4" in r.stdout, f"--emit slurm: {r.stdout[:300]}")
    for i in range(5):
        s = subprocess.run(["bash", script], env={**os.environ, "SLURM_ARRAY_TASK_ID": str(i)},
                           capture_output=True, text=True, cwd=td)
        check(s.returncode == 0, f"slurm task {i}: {s.stderr}")
    s = subprocess.run(["bash", script], env={**os.environ, "SLURM_ARRAY_TASK_ID": "5"},
                       capture_output=True, text=True, cwd=td)
    check(s.returncode == 2 and "no point '5'" in s.stderr, f"slurm task 5: {s.stderr}")
    m = run("sweep-merge", os.path.join(td, "spts"))
    check(m.returncode == 0 and m.stdout == one.stdout, f"slurm merge: {m.stderr}")

    # bad point sets: one missing, one twice, one of another sweep, not JSON
    files = [os.path.join(pts, f) for f in sorted(os.listdir(pts))]
    other = run(*base[:-1], "usb.rx_usecs=0,5,15,150,499", "--point", "1",
                "--point-json", os.path.join(td, "other.json"))
    check(other.returncode == 0 and not other.stdout, f"--point: {other.stderr} {other.stdout}")
    junk = os.path.join(td, "junk.json")
    with open(junk, "w") as f:
        f.write("{\"rxscale_sweep_point\": 1, \"key\": 3}")
    for args, text in (((files[0], files[1], files[3], files[4]), "point 2 (usb.rx_usecs = 15) is missing"),
                       ((*files, files[2]), "given twice"),
                       ((*files[:4], os.path.join(td, "other.json")), "a point of another sweep"),
                       ((*files, junk), "not an rxscale sweep point"),
                       ((os.path.join(td, "nonexistent"),), "No such file"),
                       ((td,), "no point-*.json"),
                       ((pts, "--plot"), "needs a file name"),
                       ((pts, "--frob"), "unknown option")):
        r = run("sweep-merge", *args)
        check(r.returncode != 0 and text in r.stderr and not r.stdout,
              f"sweep-merge {args}: {r.returncode} {r.stderr!r} {r.stdout[:100]!r}")

# bad run options: a clear error, exit 2, nothing printed
for args, text in ((("run", "-j", "2"), "only with --sweep"),
                   ((*base, "-j", "0"), "not a number of processes"),
                   ((*base, "-j", "x"), "not a number of processes"),
                   ((*base, "--emit", "pbs"), "not parallel or slurm"),
                   ((*base, "--emit-dir", "d"), "only with --emit"),
                   ((*base, "--point", "1"), "both or neither"),
                   ((*base, "--point", "9", "--point-json", "/tmp/x.json"), "has 5 points"),
                   ((*base, "--emit", "parallel", "-j", "2"), "not with -j"),
                   ((*base, "--emit", "slurm", "--json"), "not with -j, --plot, --json"),
                   ((*base, "--point", "1", "--point-json", "/nonexistent-dir/p.json"),
                    "cannot write next to")):
    r = run(*args)
    # nothing on stdout; with --json the error alone, as iperf3 -J has it
    want = ({"error": r.stderr.strip()[len("rxscale: "):]} if "--json" in args else None)
    got = json.loads(r.stdout) if want and r.stdout.strip() else (r.stdout.strip() or None)
    check(r.returncode != 0 and text in r.stderr and got == want,
          f"bad input {args[-4:]}: {r.returncode} {r.stderr!r} {r.stdout[:200]!r}")

# A sweep of the chip does not name the base's chip in its heading (it
# named the RTL8127A for a sweep of RTL8125A and RTL8159, before)
r = run("run", "--set", "run.duration=0.1", "--sweep", "nic.chip=RTL8125A,RTL8159")
check(r.returncode == 0 and r.stdout.startswith("rxscale sweep of nic.chip: chip as swept, ")
      and "RTL8127A" not in r.stdout, f"chip sweep heading: {r.stdout[:200]} {r.stderr}")

# Interrupted: SIGTERM to the parent of a -j 2 sweep with --plot takes its
# workers and the unfinished plot file with it (they ran on under init and
# the temporary file stayed, before)
def children(pid):
    out = []
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                with open(f"/proc/{d}/stat") as f:
                    stat = f.read()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                out.append(int(d))
    return out


with tempfile.TemporaryDirectory() as td:
    import signal
    import time
    png = os.path.join(td, "x.png")
    p = subprocess.Popen([rxscale, "run", "--set", "nic.chip=RTL8159", "--set", "host.cpus=6",
                          "--set", "run.duration=20", "--sweep", "usb.rx_usecs=0,5,15,50",
                          "-j", "2", "--plot", png],
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    kids = []
    for _ in range(200):            # until both workers run (at most 10 s)
        kids = children(p.pid)
        if len(kids) == 2:
            break
        time.sleep(0.05)
    p.send_signal(signal.SIGTERM)
    rc = p.wait(timeout=30)
    alive = []
    for _ in range(100):            # the workers die of their SIGTERM
        alive = [k for k in kids if os.path.exists(f"/proc/{k}") and
                 open(f"/proc/{k}/stat").read().rsplit(")", 1)[1].split()[0] != "Z"]
        if not alive:
            break
        time.sleep(0.05)
    check(len(kids) == 2 and rc == -signal.SIGTERM and not alive and not os.listdir(td),
          f"SIGTERM: workers {kids}, exit {rc}, still running {alive}, left {os.listdir(td)}")
    for k in alive:
        os.kill(k, signal.SIGKILL)

rxtest.finish(f"sweep_test: {'ok' if not rxtest.failures else f'{rxtest.failures} failures'}")
