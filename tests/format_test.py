#!/usr/bin/env python3
"""rxscale run's reports against the real tools' saved outputs
(tests/data/real/, captured on Debian 12: iperf3 3.12 on loopback).

iperf3 text: for TCP with -P 1 and -P 2 (the peer sending, and the host
sending with iperf3.reverse=1) and UDP with -P 1 and -P 2, rxscale's block
from "Connecting to host" to "iperf Done." has the same lines as iperf3's,
line by line, once each number (with the blanks that pad it) is replaced by
'#' and the unit prefixes K/M/G by X: the same labels, columns, trailing
blanks, separators, [SUM] lines only with two streams, sender and receiver
summaries.
iperf3 JSON: every key path of iperf3 -J's document (arrays as []) is in
rxscale's --json (but the random "cookie"), with the same JSON type.
mpstat: on 2 CPUs for 2 s, the blocks of `mpstat -P ALL 1 2` (sysstat 12.6,
LC_ALL=C) after its header line, line by line as above (time column, the
"all" row, ten columns, the Average: block); `rxscale run | awk
'/^Average:/ && $2=="all"'` prints one row; and --json's "sysstat" object has
every key path of `mpstat -o JSON`'s, with the same types.
Usage: format_test.py RXSCALE DATADIR
"""
import json
import re
import subprocess
import sys

RX, DATA = sys.argv[1], sys.argv[2]
failures = []


def check(ok, what):
    if not ok:
        failures.append(what)
        print("FAIL:", what)


def run(*args):
    r = subprocess.run([RX, "run", *args], capture_output=True, text=True, timeout=300)
    if r.returncode:
        failures.append(f"rxscale run {' '.join(args)}: exit {r.returncode}: {r.stderr}")
    return r.stdout


def signature(line):
    line = re.sub(r" *\d+(?:\.\d+)?", "#", line)
    return re.sub(r"\b[KMGT](Bytes|bits/sec|Byte|bit)\b", r"X\1", line)


def block(text, first, last):
    lines = text.split("\n")
    try:
        a = next(i for i, l in enumerate(lines) if l.startswith(first))
        b = next(i for i in range(a, len(lines)) if lines[i].startswith(last))
    except StopIteration:
        return []
    return lines[a:b + 1]


def same_shape(ours, real, what, tool="iperf3"):
    check(len(ours) == len(real), f"{what}: {len(ours)} lines, {tool} has {len(real)}")
    for n, (o, r) in enumerate(zip(ours, real)):
        check(signature(o) == signature(r),
              f"{what} line {n + 1}:\n  rxscale {o!r}\n  {tool:7} {r!r}")


def paths(doc, prefix=""):
    out = {}
    if isinstance(doc, dict):
        for k, v in doc.items():
            out.update(paths(v, f"{prefix}.{k}"))
    elif isinstance(doc, list):
        for v in doc:
            out.update(paths(v, prefix + "[]"))
    else:
        kind = "bool" if isinstance(doc, bool) else \
            "number" if isinstance(doc, (int, float)) else type(doc).__name__
        out[prefix] = kind
    return out


base = ["--set", "run.duration=2"]
cases = {
    "tcp-P1": [["--set", "iperf3.streams=1"],
               ["--set", "iperf3.streams=1", "--set", "iperf3.reverse=1"]],
    "tcp-P2": [["--set", "iperf3.streams=2"],
               ["--set", "iperf3.streams=2", "--set", "iperf3.reverse=1"]],
    "udp-P1": [["--set", "iperf3.streams=1", "--set", "iperf3.udp=1",
                "--set", "iperf3.bitrate=100M"]],
    "udp-P2": [["--set", "iperf3.streams=2", "--set", "iperf3.udp=1",
                "--set", "iperf3.bitrate=100M"]],
}
for name, variants in cases.items():
    real_txt = open(f"{DATA}/iperf3-{name}.txt").read()
    real_json = json.load(open(f"{DATA}/iperf3-{name}.json"))
    want = paths(real_json)
    want.pop(".start.cookie", None)
    for extra in variants:
        what = f"iperf3 {name} ({' '.join(extra)})"
        ours = block(run(*base, *extra), "Connecting to host", "iperf Done.")
        same_shape(ours, block(real_txt, "Connecting to host", "iperf Done."), what)
        doc = json.loads(run(*base, *extra, "--json") or "{}")
        have = paths(doc)
        for p, kind in sorted(want.items()):
            check(have.get(p) == kind, f"{what} JSON {p}: {have.get(p)}, iperf3 has {kind}")

# mpstat
real = open(f"{DATA}/mpstat-P-ALL-1-2.txt").read().split("\n")
real = real[1:]                                 # "Linux <release> (<node>) ..."
while real and not real[-1]:
    real.pop()
text = run("--set", "host.cpus=2", "--set", "run.duration=2", "--set", "iperf3.streams=1")
lines = text.split("\n")
first = next((i for i, l in enumerate(lines) if l.startswith("Linux rxscale")), None)
check(first is not None, "mpstat: no header line")
if first is not None:
    ours = lines[first + 1:]
    avg_head = next((i for i, l in enumerate(ours) if l.startswith("Average:")), len(ours))
    end = next((i for i in range(avg_head, len(ours)) if not ours[i]), len(ours))
    same_shape(ours[:end], real, "mpstat -P ALL 1", "mpstat")
avg = [l for l in lines if l.startswith("Average:") and l.split()[1] == "all"]
check(len(avg) == 1, f"awk '/^Average:/ && $2==\"all\"': {avg}")
want = paths(json.load(open(f"{DATA}/mpstat-P-ALL-1-2.json")))
doc = json.loads(run("--set", "host.cpus=2", "--set", "run.duration=2",
                     "--set", "iperf3.streams=1", "--json") or "{}")
have = paths(doc)
for p, kind in sorted(want.items()):
    check(have.get(p) == kind, f"mpstat JSON {p}: {have.get(p)}, mpstat has {kind}")

print(f"format: {len(failures)} problems")
sys.exit(1 if failures else 0)
