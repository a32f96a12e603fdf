#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Behaviour checks on the console log of a QEMU guest (scripts/qemu-run.sh).

The guest script prints what it saw between marker lines, and these functions
read it back and assert behaviour, never rates:

  RXQ-BEGIN <name>            a block: the lines up to RXQ-END <name>
  RXQ-END <name>              (e.g. interrupts-before, interrupts-after, mpstat,
                               ping-guest, iperf3-server)
  RXQ-AFFINITY <vector> irq=<n> cpu=<c> [...]
                              the CPU a queue vector was given (read back from
                              /proc/irq/<n>/smp_affinity_list: on x86 without
                              interrupt remapping effective_affinity_list only
                              follows at the vector's next interrupt)
  RXQ-RC <name> <status>      the exit status of a step

Kernel messages may interleave with a block; lines that do not parse are
skipped. Library use (the same checks for QEMU's igb and rxscale's device,
only the vector name pattern differs: eth0-TxRx-N for igb, eth0-rx-N for
rxscale_r8169):

  log = open(path).read()
  before = parse_interrupts(block(log, "interrupts-before"))
  after = parse_interrupts(block(log, "interrupts-after"))
  d = irq_deltas(before, after, r"eth0-TxRx-\\d+")
  res = check_spread(d, queues=4, affinity=parse_affinity(log))
  soft = mpstat_soft(block(log, "mpstat"))
  res2 = check_softirq(soft, min_pct=1.0, min_cpus=3)

Each check returns a Result (ok, a one-line verdict, detail lines).

Command line:
  qemu_check.py check LOG [--pattern RE] [--queues N] [--min-soft PCT]
                [--min-soft-cpus N] [--client-json F] [--host-ping F]
  qemu_check.py selftest     the checker on canned snippets, including
                             negative controls that must be reported as failing
"""
import argparse
import json
import re
import sys
from dataclasses import dataclass, field


@dataclass
class Result:
    name: str
    ok: bool
    verdict: str
    detail: list = field(default_factory=list)

    def report(self):
        lines = ["%s %s: %s" % ("PASS" if self.ok else "FAIL", self.name, self.verdict)]
        lines += ["    " + d for d in self.detail]
        return "\n".join(lines)


def block(log, name):
    """The text between 'RXQ-BEGIN name' and 'RXQ-END name' (the last such block)."""
    out, cur = None, None
    for line in log.splitlines():
        s = line.strip()
        if s == "RXQ-BEGIN " + name:
            cur = []
        elif s == "RXQ-END " + name and cur is not None:
            out, cur = cur, None
        elif cur is not None:
            cur.append(line)
    return "\n".join(out) if out is not None else None


def parse_interrupts(text):
    """/proc/interrupts -> {irq label: (name, [count per CPU])}.

    The header (CPU0 CPU1 ...) gives the number of CPUs; for each row the
    counts are the numeric fields after the label and the name is the last
    field (for MSI/MSI-X rows the action's name, e.g. eth0-TxRx-0)."""
    if text is None:
        return None
    ncpu, rows = None, {}
    for line in text.splitlines():
        f = line.split()
        if not f:
            continue
        if ncpu is None:
            if all(re.fullmatch(r"CPU\d+", x) for x in f):
                ncpu = len(f)
            continue
        if not f[0].endswith(":") or len(f) < 1 + ncpu:
            continue
        try:
            counts = [int(x) for x in f[1:1 + ncpu]]
        except ValueError:
            continue
        name = f[-1] if len(f) > 1 + ncpu else ""
        rows[f[0][:-1]] = (name, counts)
    return rows if ncpu is not None else None


def irq_deltas(before, after, pattern):
    """{vector name: [delta per CPU]} for the rows whose name matches pattern
    (re.fullmatch), between two parse_interrupts() snapshots."""
    out = {}
    for irq, (name, counts) in after.items():
        if not re.fullmatch(pattern, name):
            continue
        old = before.get(irq, (name, [0] * len(counts)))[1]
        out[name] = [a - b for a, b in zip(counts, old)]
    return dict(sorted(out.items(), key=lambda kv: _natural(kv[0])))


def _natural(s):
    return [int(t) if t.isdigit() else t for t in re.split(r"(\d+)", s)]


def parse_affinity(log):
    """{vector name: cpu} from the RXQ-AFFINITY lines."""
    out = {}
    for m in re.finditer(r"^RXQ-AFFINITY (\S+) irq=\d+ cpu=(\d+)\b.*$", log, re.M):
        out[m.group(1)] = int(m.group(2))
    return out


def check_spread(deltas, queues, affinity=None):
    """Each of `queues` vectors fired, on its own CPU, one vector per CPU.

    A vector's home CPU is where most of its interrupts in the interval
    landed; it must have fired there (delta > 0), be the CPU it was given
    (when affinity is known), and no two vectors may share a home."""
    res = Result("irq-spread", True, "")
    if len(deltas) != queues:
        res.ok = False
        res.detail.append("expected %d vectors, found %d: %s" % (queues, len(deltas), ", ".join(deltas) or "none"))
    homes = {}
    for name, d in deltas.items():
        home = max(range(len(d)), key=lambda c: d[c]) if d else None
        total = sum(d)
        want = (affinity or {}).get(name)
        line = "%-16s %s  home CPU%s" % (name, " ".join("%7d" % x for x in d), home)
        if want is not None:
            line += " (given CPU%d)" % want
        res.detail.append(line)
        if total <= 0:
            res.ok = False
            res.detail.append("  %s did not fire" % name)
            continue
        if want is not None and (d[want] <= 0 or home != want):
            res.ok = False
            res.detail.append("  %s fired on CPU%d, not on its CPU%d (delta there: %d)" % (name, home, want, d[want]))
        homes.setdefault(home, []).append(name)
    shared = {c: v for c, v in homes.items() if len(v) > 1}
    for c, v in sorted(shared.items()):
        res.ok = False
        res.detail.append("  CPU%d is home to %d vectors: %s" % (c, len(v), ", ".join(v)))
    if res.ok:
        res.verdict = "%d vectors, each on its own CPU (%s)" % (
            len(deltas), ", ".join("%s->CPU%d" % (v[0], c) for c, v in sorted(homes.items())))
    else:
        res.verdict = "NOT spread: %d vectors on %d distinct CPUs" % (len(deltas), len(homes))
    return res


def mpstat_soft(text):
    """{cpu: %soft} from mpstat -P ALL output: the Average lines if there are
    any, else the mean of the per-interval lines. The column is found from the
    header, so field order or extra columns do not matter."""
    if text is None:
        return None
    col, per = None, {}
    avg = {}
    for line in text.splitlines():
        f = line.split()
        if "%soft" in f and "CPU" in f:
            col, cpucol = f.index("%soft"), f.index("CPU")
            continue
        if col is None or len(f) <= col:
            continue
        cpu = f[cpucol]
        if not cpu.isdigit():
            continue
        try:
            v = float(f[col].replace(",", "."))
        except ValueError:
            continue
        if f[0].startswith("Average"):
            avg[int(cpu)] = v
        else:
            per.setdefault(int(cpu), []).append(v)
    if avg:
        return dict(sorted(avg.items()))
    return {c: sum(v) / len(v) for c, v in sorted(per.items())}


def check_softirq(soft, min_pct=1.0, min_cpus=3):
    """At least min_cpus CPUs spent >= min_pct % in softirq (NAPI polls)."""
    res = Result("softirq-spread", False, "")
    if not soft:
        res.verdict = "no mpstat output"
        return res
    busy = [c for c, v in soft.items() if v >= min_pct]
    res.detail.append("%%soft per CPU: %s" % ", ".join("CPU%d %.2f" % (c, v) for c, v in soft.items()))
    res.ok = len(busy) >= min_cpus
    res.verdict = "%d CPUs with %%soft >= %.1f (want >= %d): %s" % (
        len(busy), min_pct, min_cpus, ", ".join("CPU%d" % c for c in busy) or "none")
    return res


def ping_counts(text):
    """(transmitted, received) from ping's summary line (busybox or iputils)."""
    if not text:
        return None
    m = re.search(r"(\d+) packets transmitted, (\d+) (?:packets )?received", text)
    return (int(m.group(1)), int(m.group(2))) if m else None


def check_ping(text, name):
    c = ping_counts(text)
    ok = bool(c and c[1] > 0)
    return Result(name, ok, ("%d/%d replies" % (c[1], c[0])) if c else "no ping summary")


def check_iperf3_client(js):
    """The host-side client's iperf3 -J: it completed and moved data."""
    res = Result("iperf3-client", False, "")
    try:
        d = json.loads(js) if js else None
    except ValueError as e:
        res.verdict = "unreadable JSON (%s)" % e
        return res
    if not d:
        res.verdict = "no output"
        return res
    if d.get("error"):
        res.verdict = "error: %s" % d["error"]
        return res
    end = d.get("end", {})
    rx = end.get("sum_received", {}).get("bytes", 0)
    streams = len(end.get("streams", []))
    res.ok = rx > 0
    res.verdict = "completed: %d streams, %d bytes received by the guest (%.1f Mbit/s, informational)" % (
        streams, rx, end.get("sum_received", {}).get("bits_per_second", 0) / 1e6)
    return res


def check_iperf3_server(text):
    ok = bool(text and re.search(r"\breceiver\b", text))
    return Result("iperf3-server", ok, "summary with a receiver line" if ok else "no receiver summary")


def check_log(log, pattern, queues, min_soft=1.0, min_soft_cpus=3, client_json=None, host_ping=None):
    """All checks of a NIC spreading run; returns a list of Results."""
    results = []
    before = parse_interrupts(block(log, "interrupts-before"))
    after = parse_interrupts(block(log, "interrupts-after"))
    patterns = [pattern] if isinstance(pattern, str) else list(pattern)
    if before is None or after is None:
        results.append(Result("irq-spread", False, "no /proc/interrupts snapshot (before/after) in the log"))
    else:
        for p in patterns:
            r = check_spread(irq_deltas(before, after, p), queues, parse_affinity(log))
            r.name = "irq-spread %s" % p
            results.append(r)
    results.append(check_softirq(mpstat_soft(block(log, "mpstat")), min_soft, min_soft_cpus))
    results.append(check_ping(block(log, "ping-guest"), "ping guest->host"))
    if host_ping is not None:
        results.append(check_ping(host_ping, "ping host->guest"))
    results.append(check_iperf3_server(block(log, "iperf3-server")))
    if client_json is not None:
        results.append(check_iperf3_client(client_json))
    return results


# ---- selftest ------------------------------------------------------------------
_HDR = "            CPU0       CPU1       CPU2       CPU3       \n"
_ROW = " %2d: %10d %10d %10d %10d  PCI-MSIX-0000:00:02.0  %d-edge      %s\n"


def _snap(rows):
    return _HDR + "".join(_ROW % (irq, *c, i, n) for i, (irq, n, c) in enumerate(rows)) + \
        "LOC:      12345      23456      34567      45678   Local timer interrupts\n"


def selftest():
    fails = 0

    def expect(cond, what):
        nonlocal fails
        print("%s %s" % ("ok  " if cond else "FAIL", what))
        fails += not cond

    names = ["eth0-TxRx-%d" % q for q in range(4)]
    before = _snap([(25 + q, names[q], [1, 0, 0, 0]) for q in range(4)])
    spread = _snap([(25 + q, names[q], [1 + (500 if q == 0 else 0), 300 if q == 1 else 0,
                                        200 if q == 2 else 0, 400 if q == 3 else 0]) for q in range(4)])
    on_cpu0 = _snap([(25 + q, names[q], [1 + 100 * (q + 1), 0, 0, 0]) for q in range(4)])
    b, s, z = parse_interrupts(before), parse_interrupts(spread), parse_interrupts(on_cpu0)
    aff = {n: q for q, n in enumerate(names)}
    r = check_spread(irq_deltas(b, s, r"eth0-TxRx-\d+"), 4, aff)
    expect(r.ok, "spread vectors pass: " + r.verdict)
    r = check_spread(irq_deltas(b, z, r"eth0-TxRx-\d+"), 4, None)
    expect(not r.ok and "NOT spread" in r.verdict, "negative control (all on CPU0, no affinity) fails: " + r.verdict)
    r = check_spread(irq_deltas(b, z, r"eth0-TxRx-\d+"), 4, aff)
    expect(not r.ok, "negative control with affinity given fails: " + r.verdict)
    r = check_spread(irq_deltas(b, s, r"eth0-rx-\d+"), 4, None)
    expect(not r.ok, "a pattern matching no vector fails: " + r.verdict)
    idle = _snap([(25 + q, names[q], [1, 0, 0, 0]) for q in range(4)])
    r = check_spread(irq_deltas(b, parse_interrupts(idle), r"eth0-TxRx-\d+"), 4, None)
    expect(not r.ok, "vectors that did not fire fail: " + r.verdict)
    rx = "".join(" %2d: %10d %10d %10d %10d  PCI-MSIX-0000:01:00.0  %d-edge      eth0-rx-%d\n"
                 % (40 + q, *[(7 if c == q else 0) for c in range(4)], q, q) for q in range(4))
    r = check_spread(irq_deltas({}, parse_interrupts(_HDR + rx), r"eth0-rx-\d+"), 4, None)
    expect(r.ok, "rxscale-style names (eth0-rx-N) with a parameter pattern: " + r.verdict)

    mp = """Linux 7.3.4+deb13-amd64 (guest)  01/01/26  _x86_64_  (4 CPU)

12:00:01     CPU    %usr   %nice    %sys %iowait    %irq   %soft  %steal  %guest  %gnice   %idle
12:00:02     all    1.00    0.00   10.00    0.00    0.00   20.00    0.00    0.00    0.00   69.00
12:00:02       0    1.00    0.00   10.00    0.00    0.00   30.00    0.00    0.00    0.00   59.00

Average:     CPU    %usr   %nice    %sys %iowait    %irq   %soft  %steal  %guest  %gnice   %idle
Average:     all    1.00    0.00   10.00    0.00    0.00   20.00    0.00    0.00    0.00   69.00
Average:       0    1.00    0.00   10.00    0.00    0.00   30.00    0.00    0.00    0.00   59.00
Average:       1    1.00    0.00   10.00    0.00    0.00   15.00    0.00    0.00    0.00   74.00
Average:       2    1.00    0.00   10.00    0.00    0.00    9.50    0.00    0.00    0.00   79.50
Average:       3    1.00    0.00   10.00    0.00    0.00    0.40    0.00    0.00    0.00   88.60
"""
    soft = mpstat_soft(mp)
    expect(soft == {0: 30.0, 1: 15.0, 2: 9.5, 3: 0.4}, "mpstat %%soft parsed from the Average lines: %s" % soft)
    expect(check_softirq(soft, 1.0, 3).ok, "3 CPUs with softirq pass")
    one = mp.replace("15.00    0.00    0.00    0.00   74.00", "0.10    0.00    0.00    0.00   88.90") \
            .replace(" 9.50", " 0.20")
    r = check_softirq(mpstat_soft(one), 1.0, 3)
    expect(not r.ok, "negative control (softirq on CPU0 only) fails: " + r.verdict)
    expect(ping_counts("3 packets transmitted, 3 packets received, 0% packet loss") == (3, 3), "busybox ping summary")
    expect(ping_counts("3 packets transmitted, 0 received, 100% packet loss, time 2040ms") == (3, 0), "iputils ping summary")
    expect(not check_ping("3 packets transmitted, 0 received", "p").ok, "a ping without replies fails")
    log = "junk\nRXQ-BEGIN x\n[  1.0] kernel line\nline\nRXQ-END x\nRXQ-AFFINITY eth0-TxRx-1 irq=26 cpu=1\n"
    expect(block(log, "x") == "[  1.0] kernel line\nline" and parse_affinity(log) == {"eth0-TxRx-1": 1},
           "blocks and affinity lines")
    expect(check_iperf3_client(json.dumps({"end": {"sum_received": {"bytes": 10}, "streams": [1, 2]}})).ok,
           "iperf3 client JSON")
    expect(not check_iperf3_client(json.dumps({"error": "unable to connect"})).ok, "iperf3 client error fails")
    print("selftest: %s" % ("PASS" if not fails else "FAIL (%d)" % fails))
    return 0 if not fails else 1


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("check", help="check a guest console log")
    c.add_argument("log")
    c.add_argument("--pattern", action="append",
                   help="queue vector names (regex, full match; repeat for RX and TX vectors; "
                        "default eth0-TxRx-N)")
    c.add_argument("--queues", type=int, default=4)
    c.add_argument("--min-soft", type=float, default=1.0)
    c.add_argument("--min-soft-cpus", type=int, default=3)
    c.add_argument("--client-json", help="the host-side iperf3 -J output")
    c.add_argument("--host-ping", help="the host-side ping output")
    sub.add_parser("selftest", help="run the checker on canned snippets")
    a = ap.parse_args(argv)
    if a.cmd == "selftest":
        return selftest()
    log = open(a.log, errors="replace").read()
    rd = lambda p: open(p, errors="replace").read() if p else None
    results = check_log(log, a.pattern or [r"eth0-TxRx-\d+"], a.queues, a.min_soft, a.min_soft_cpus,
                        rd(a.client_json), rd(a.host_ping))
    for r in results:
        print(r.report())
    ok = all(r.ok for r in results)
    print("qemu_check: %s" % ("PASS" if ok else "FAIL"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
