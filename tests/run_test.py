#!/usr/bin/env python3
"""run_test.py RXSCALE PCAPDIR - `rxscale run --pcap` on every capture:
it runs to the end, every frame is accounted for (frames = delivered + the
dropped counters), no frame's queue or hash differs from the independent
rss_classify() check, the same run twice prints byte-identical output, and
bad scenarios, overrides and ethtool commands fail with a clear message and
exit status 2.  Exit 77 (skipped) without the captures."""
import glob
import json
import re
import shutil
import os
import sys
import tempfile

rxscale, pcapdir = sys.argv[1], sys.argv[2]
from rxtest import check
import rxtest


def run(*args):
    return rxtest.run(rxscale, *args)


caps = sorted(glob.glob(os.path.join(pcapdir, "*.pcap*")))
if not caps:
    print("no captures in", pcapdir)
    sys.exit(77)

replayed = frames_total = 0
for cap, chip in [(c, "RTL8127A") for c in caps] + [(c, "RTL8159") for c in caps]:
    # the PCIe chip, then the USB adapter (runts, jumbo frames, FIFO drops
    # each counted once there too)
    r = run("--pcap", cap, "--json", "--set", "replay.line_rate=1", "--set", f"nic.chip={chip}")
    if r.returncode == 2 and "only Ethernet captures" in r.stderr:
        continue            # Linux cooked / raw IP captures: not for a NIC
    check(r.returncode == 0, f"{cap}: exit {r.returncode}: {r.stderr.strip()}")
    if r.returncode:
        continue
    doc = json.loads(r.stdout)
    rep = doc["replay"]
    dropped = sum(rep["dropped"].values())
    check(rep["frames"] == rep["delivered"] + dropped,
          f"{cap}: {rep['frames']} frames != {rep['delivered']} + {dropped}")
    check(rep["queue_mismatches"] == 0, f"{cap}: {rep['queue_mismatches']} mismatches")
    qs = doc["summary"]["queues"]
    check(sum(q["packets"] for q in qs) == rep["delivered"], f"{cap}: queue sum")
    for c in doc["summary"]["cpus"]:
        tot = c["usr"] + c["sys"] + c["irq"] + c["soft"] + c["idle"]
        check(abs(tot - 100.0) < 1e-6, f"{cap}: cpu {c['cpu']} sums to {tot}")
    replayed += 1
    frames_total += rep["frames"]
check(replayed >= 60, f"only {replayed} replays")
print(f"{replayed} replays (PCIe and USB), {frames_total} frames, all accounted for")

# determinism: byte-identical output, text and JSON
demo = next(c for c in caps if "ndpi-quic" in c)
for extra in ([], ["--json"]):
    a = run("--pcap", demo, "--seed", "7", *extra)
    b = run("--pcap", demo, "--seed", "7", *extra)
    check(a.returncode == 0 and a.stdout == b.stdout, f"not deterministic {extra}")
c = run("--pcap", demo, "--seed", "8", "--json")
check(c.stdout != a.stdout, "a different seed changed nothing (the RSS key is seeded)")
# its clock jumps by a year: gaps over an hour are shortened (replay.max_gap),
# so the replay does not simulate a year of the driver's 1 Hz timer
check(json.loads(a.stdout)["replay"].get("gaps_shortened") == 3, "ndpi-quic: 3 gaps shortened")
r = run("--pcap", demo, "--set", "replay.max_gap=0.5")
m = re.search(r"frames over ([\d.]+) s \(recorded gaps\)\ngaps shortened: (\d+) recorded gaps "
              r"longer than 0.5 s", r.stdout)
check(r.returncode == 0 and m is not None and float(m.group(1)) < 0.5 * 518,
      f"replay.max_gap=0.5: {r.stdout[:300]}")

# configuration through ethtool, the scenario file and --set
r = run("--pcap", demo, "--ethtool", "-L eth0 rx 2", "--json")
check(r.returncode == 0 and len(json.loads(r.stdout)["summary"]["queues"]) == 2, "-L rx 2")
with tempfile.TemporaryDirectory() as d:
    good = os.path.join(d, "good.ini")
    with open(good, "w") as f:
        f.write("[host]\ncpus = 2\n[nic]\nrx_queues = 2\n[ethtool]\n"
                "cmd = -X eth0 equal 1\n")
    r = run(good, "--pcap", demo, "--json")
    check(r.returncode == 0, f"good scenario: {r.stderr}")
    if r.returncode == 0:
        doc = json.loads(r.stdout)
        check(len(doc["summary"]["cpus"]) == 2, "host.cpus from the file")
        check(doc["summary"]["queues"][1]["packets"] == 0, "-X equal 1 from the file")
    r = run(good, "--pcap", demo, "--set", "host.cpus=3", "--json")
    check(r.returncode == 0 and len(json.loads(r.stdout)["summary"]["cpus"]) == 3,
          "--set overrides the file")
    bad = os.path.join(d, "bad.ini")
    with open(bad, "w") as f:
        f.write("[host]\ncpus = 2\n[nic]\nqueues = 4\n")
    cases = [
        ((bad, "--pcap", demo), f"{bad}:4: unknown key 'nic.queues'"),
        (("--pcap", demo, "--set", "host.cpus=0"), "host.cpus: '0' is not a whole number"),
        (("--pcap", demo, "--set", "nic"), "want section.key=value"),
        (("--pcap", demo, "--set", "run.duration=-1"), "is not a duration"),
        (("--pcap", demo, "--set", "nic.chip=RTL9999"), "unknown chip 'RTL9999'"),
        (("--pcap", demo, "--set", "host.irq_cpus=0-9"), "host.irq_cpus"),
        (("--pcap", demo, "--preset", "nosuch"), "no preset 'nosuch'"),
        (("--pcap", demo, "--ethtool", "-L eth0 rx 9"),
         "requested channel count exceeds maximum"),
        (("--pcap", demo, "--ethtool", "-N eth0 rx-flow-hash tcp4 sd"),
         "Cannot change RX network flow hashing options"),
        (("--pcap", "/nonexistent.pcap"), "/nonexistent.pcap"),
        (("--pcap", demo, "--bogus"), "unknown or incomplete option"),
        ((os.path.join(d, "missing.ini"), "--pcap", demo), "missing.ini: No such file"),
    ]
    for args, msg in cases:
        r = run(*args)
        check(r.returncode == 2 and msg in r.stderr,
              f"{args}: exit {r.returncode}, stderr {r.stderr.strip()!r}, want {msg!r}")
        check(r.stdout == "" or "--ethtool" in args, f"{args}: wrote to stdout")

# iperf3 UDP from the peer: every datagram accounted for, never above the
# line's goodput, deterministic, and RSS with -N udp4 sdfn uses more queues
def udp(*extra):
    return run("--set", "iperf3.udp=1", "--set", "iperf3.bitrate=1.125G",
               "--set", "run.duration=0.3", "--set", "iperf3.streams=8",
               "--set", "host.cpus=4", "--json", *extra)


a, b = udp(), udp()
check(a.returncode == 0, f"udp run: {a.stderr}")
check(a.stdout == b.stdout, "udp run not deterministic")
if a.returncode == 0:
    d = json.loads(a.stdout)
    u = d["udp"]
    check(u["sent"] == u["received"] + u["rcvbuf_errors"] + u["socket_queued"]
          + u["nic_drops"] + u["driver_drops"] + u["in_flight"], f"udp accounting {u}")
    limit = 10e9 * 1448 / (1448 + 8 + 20 + 14 + 24) / 1e9
    check(0 < d["summary"]["throughput_gbps"] <= limit,
          f"udp throughput {d['summary']['throughput_gbps']} vs limit {limit}")
    one = sum(1 for q in d["summary"]["queues"] if q["packets"])
    c = udp("--ethtool", "-N eth0 rx-flow-hash udp4 sdfn")
    dc = json.loads(c.stdout)
    many = sum(1 for q in dc["summary"]["queues"] if q["packets"])
    check(one == 1 and many > 1, f"udp4 sd uses {one} queue(s), sdfn {many}")
# ping through the host's ICMP responder and the TX path
r = run("--set", "iperf3.streams=0", "--set", "ping.count=10", "--set",
        "ping.interval=0.1", "--set", "run.duration=2", "--json")
check(r.returncode == 0, f"ping run: {r.stderr}")
if r.returncode == 0:
    p = json.loads(r.stdout)["summary"].get("ping")
    check(p is not None and p["transmitted"] == 10 and p["received"] == 10
          and 0 < p["min_ms"] <= p["avg_ms"] + 1e-9 <= p["max_ms"] + 2e-9 < 1,
          f"ping {p}")
r = run("--set", "iperf3.streams=0", "--set", "ping.count=3", "--set", "run.duration=4")
check("3 packets transmitted, 3 received, 0% packet loss" in r.stdout
      and "rtt min/avg/max/mdev = " in r.stdout, f"ping text: {r.stdout}")
# TCP iperf3 (the default workload), short: at most the goodput limit of
# 1448/1538 x 10 Gbit/s, no retransmits without loss, deterministic, and
# RSS spreads the 20 streams over the 4 queues
def tcp(*extra):
    return run("--set", "run.duration=0.4", "--json", *extra)


a, b = tcp(), tcp()
check(a.returncode == 0, f"tcp run: {a.stderr}")
check(a.stdout == b.stdout, "tcp run not deterministic")
if a.returncode == 0:
    d = json.loads(a.stdout)
    g = d["summary"]["throughput_gbps"]
    check(9.0 < g <= 10 * 1448 / 1538, f"tcp throughput {g}")
    check(d["summary"]["retransmits"] == 0, "retransmits without loss")
    check(sum(1 for q in d["summary"]["queues"] if q["packets"]) == 4, "4 queues used")
    # the peer's TCP Small Queues: each socket keeps about 1 ms of its
    # pacing rate queued for the wire, so the senders' RTT stays a few ms
    # (70.7 ms without it: 20 streams' windows queued at the peer)
    rtt = [s["sender"]["max_rtt"] for s in d["end"]["streams"]]
    check(max(rtt) < 10000, f"peer queue unbounded: max_rtt {rtt} us")
# TCP conservation: every frame the peer's senders sent (retransmissions
# and probes included) reached a host socket, or is in a drop counter, or
# is still in flight; also with ring overflows (one queue, the slow preset
# on slower cores: the softirq CPU saturates)
for extra in ((), ("--set", "nic.rx_queues=1", "--set", "host.preset=r2514",
                   "--set", "host.speed=0.8", "--set", "run.duration=1.5")):
    r = tcp(*extra)
    check(r.returncode == 0, f"tcp accounting run {extra}: {r.stderr}")
    if r.returncode == 0:
        t = json.loads(r.stdout)["tcp"]
        check(t["frames_sent"] == t["frames_received"] + t["nic_drops"] +
              t["driver_drops"] + t["in_flight"] and t["frames_sent"] > 0,
              f"tcp accounting {extra}: {t}")
        if extra:
            check(t["nic_drops"] > 0 and t["retransmits"] > 0,
                  f"the lossy case lost nothing: {t}")
r = tcp("--set", "nic.rx_queues=1", "--set", "iperf3.cc=reno", "--set", "iperf3.streams=1")
check(r.returncode == 0 and len(json.loads(r.stdout)["summary"]["queues"]) == 1,
      f"1 queue reno: {r.stderr}")
# socket buffer sizes take iperf3's K/M/G units (1024^n): 1M is 1048576
# (refused as 'not a whole number' before)
a, b = (run("--set", "run.duration=0.2", "--set", f"iperf3.rcvbuf={v}") for v in ("1M", "1048576"))
check(a.returncode == 0 and a.stdout == b.stdout, f"rcvbuf 1M: {a.returncode} {a.stderr}")
r = run("--set", "iperf3.rcvbuf=1G")
check(r.returncode == 2 and "'1G' is not a byte count in 0..67108864" in r.stderr, f"1G: {r.stderr}")
# iperf3.cpus (taskset) is named in the header, as host.busy_tasks is
r = run("--set", "run.duration=0.1", "--set", "iperf3.cpus=0-1")
check(r.returncode == 0 and "\nthe host's iperf3 runs under taskset -c 0-1\n" in r.stdout,
      f"taskset in the header: {r.stdout[:400]}")
# -R: the host sends through the driver's TX ring; the peer's ACKs come back
# through RSS, GRO and demux.  TSQ keeps local queues short: no loss, no
# retransmit, at most the goodput limit, deterministic
a, b = tcp("--set", "iperf3.reverse=1", "--set", "iperf3.streams=4"), \
    tcp("--set", "iperf3.reverse=1", "--set", "iperf3.streams=4")
check(a.returncode == 0 and a.stdout == b.stdout, f"reverse run: {a.stderr}")
if a.returncode == 0:
    d = json.loads(a.stdout)
    g = d["summary"]["throughput_gbps"]
    check(8.5 < g <= 10 * 1448 / 1538, f"reverse throughput {g}")
    check(d["summary"]["retransmits"] == 0, "reverse: retransmits without loss")
    check(all(i["gbps"] <= 10 * 1448 / 1538 + 1448 * 8 / ((i["end"] - i["start"]) * 1e9)
              + 1e-9 for i in d["summary"]["intervals"]),
          f"reverse intervals over the limit: {d['summary']['intervals']}")
    # iperf3 -J's schema next to rxscale's: the received sum is the throughput
    check(abs(d["end"]["sum_received"]["bits_per_second"] / 1e9 - g) < 1e-6,
          f"end.sum_received {d['end']['sum_received']} vs {g}")
    check(sum(q["packets"] for q in d["summary"]["queues"]) > 0, "ACKs received")
    t = d["tcp"]
    check(t["direction"] == "host to peer" and t["frames_sent"] > 0 and
          t["frames_sent"] == t["frames_received"] + t["host_drops"] + t["in_flight"],
          f"reverse accounting {t}")
r = run("--set", "iperf3.reverse=1", "--set", "iperf3.udp=1")
check(r.returncode == 1 and "only TCP can run reversed" in r.stderr, f"-R -u: {r.stderr}")
# The USB path: an RTL8159 behind the xHCI model on the r8152-style driver.
# UDP into the host: every datagram accounted for; TCP from the host (-R);
# deterministic; one queue, RSS off.
usb = ("--set", "nic.chip=RTL8159", "--set", "host.cpus=6")
a = run(*usb, "--set", "iperf3.udp=1", "--set", "iperf3.bitrate=1.25G",
        "--set", "iperf3.streams=4", "--set", "run.duration=0.3", "--json")
check(a.returncode == 0, f"usb udp: {a.stderr}")
if a.returncode == 0:
    d = json.loads(a.stdout)
    u = d["udp"]
    check(u["sent"] == u["received"] + u["rcvbuf_errors"] + u["nic_drops"] +
          u["driver_drops"] + u["in_flight"] + u["socket_queued"],
          f"usb udp accounting {u}")
    check(u["received"] > 0.9 * u["sent"], f"usb udp: most datagrams read {u}")
    check(len(d["summary"]["queues"]) == 1, "usb: one RX queue")
a, b = (run(*usb, "--set", "iperf3.reverse=1", "--set", "iperf3.streams=2",
            "--set", "iperf3.threads=0", "--set", "run.duration=0.3", "--json")
        for _ in range(2))
check(a.returncode == 0 and a.stdout == b.stdout, f"usb reverse: {a.stderr}")
if a.returncode == 0:
    d = json.loads(a.stdout)
    g = d["summary"]["throughput_gbps"]
    check(5 < g <= 10 * 1448 / 1538, f"usb reverse throughput {g}")
    check(d["summary"]["retransmits"] == 0, "usb reverse: no loss, no retransmit")
# the host pings the peer over USB: every probe answered, RTT in the 10s of us
r = run(*usb, "--set", "iperf3.streams=0", "--set", "ping.from=host",
        "--set", "ping.count=5", "--set", "run.duration=6", "--json")
check(r.returncode == 0, f"usb ping: {r.stderr}")
if r.returncode == 0:
    p = json.loads(r.stdout)["summary"].get("ping")
    check(p is not None and p["received"] == 5 and 0.01 < p["avg_ms"] < 0.2, f"usb ping {p}")
# rx-usecs through ethtool: the unit is microseconds, 524 the limit
r = run(*usb, "--set", "iperf3.streams=0", "--set", "run.duration=0.01",
        "--ethtool", "-C eth0 rx-usecs 50", "--ethtool", "-c eth0")
check(r.returncode == 0 and re.search(r"rx-usecs:\s+50\b", r.stdout) is not None,
      f"usb -c after -C rx-usecs 50: {r.stdout} {r.stderr}")
r = run(*usb, "--set", "iperf3.streams=0", "--ethtool", "-C eth0 rx-usecs 525")
check(r.returncode != 0 and "Invalid argument" in r.stderr, f"rx-usecs 525: {r.stderr}")
# --sweep: one line per value, in order, deterministic; --plot draws it
sweep = ("--set", "nic.chip=RTL8159", "--set", "host.cpus=6", "--set", "iperf3.reverse=1",
         "--set", "iperf3.streams=1", "--set", "run.duration=1",
         "--sweep", "usb.rx_usecs=0,15,150")
a, b = run(*sweep), run(*sweep)
check(a.returncode == 0 and a.stdout == b.stdout, f"sweep: {a.stderr}")
rows = [l.split() for l in a.stdout.splitlines()[2:]]
check([x[0] for x in rows] == ["0", "15", "150"] and all(len(x) == 6 for x in rows),
      f"sweep table: {a.stdout}")
if shutil.which("gnuplot"):
    with tempfile.TemporaryDirectory() as td:
        for ext, magic in ((".png", b"\x89PNG"), (".svg", b"<?xml")):
            out = os.path.join(td, "sweep" + ext)
            r = run(*sweep, "--plot", out)
            check(r.returncode == 0 and os.path.exists(out) and
                  open(out, "rb").read(5).startswith(magic[:4]), f"--plot {ext}: {r.stderr}")
else:
    print("note: gnuplot not installed, --plot not tested (scripts/deps.sh test installs it)")
# bad USB and sweep input: a clear error, exit 2 (usage) or 1, nothing run
for args, text in ((("--set", "usb.link_gbps=7"), "not 5, 10 or 20"),
                   (("--set", "usb.rx_usecs=525"), "usb.rx_usecs"),
                   (("--set", "usb.mitigation=maybe"), "not on or off"),
                   (("--set", "ping.from=moon"), "not peer or host"),
                   (("--set", "iperf3.threads=4"), "iperf3.threads"),
                   (("--plot", "x.png"), "only with --sweep"),
                   (("--sweep", "usb.rx_usecs"), "expected section.key=V1,V2"),
                   (("--sweep", "usb.rx_usecs=1,999"), "usb.rx_usecs"),
                   (("--sweep", "no.such=1"), "no.such"),
                   (("--set", "nic.chip=RTL9999"), "unknown chip"),
                   (("--set", "usb.rx_usecs=5"), "apply to the USB chips"),
                   (("--sweep", "usb.rx_usecs=0,5"), "apply to the USB chips"),
                   (("--set", "nic.chip=RTL8159", "--set", "nic.rx_queues=4"),
                    "apply to the PCIe chips"),
                   (("--preset", "nosuch"), "there are: default, desktop6, r2514, rk3588"),
                   ((os.path.join(os.path.dirname(os.path.abspath(__file__)), "..",
                                  "scenarios"),), "not a regular file"),
                   (("--set", "iperf3.bitrate=nan"), "not a bit rate"),
                   (("--set", "nic.chip=RTL8159", "--set", "iperf3.reverse=1",
                     "--set", "iperf3.sndbuf=65536"), "less than one write"),
                   (("--sweep", "usb.rx_usecs=0,,2"), "an empty value"),
                   (("--sweep", "nic.chip=RTL8127A,RTL9999"), "unknown chip"),
                   (("--set", "nic.chip=RTL8159", "--sweep", "usb.rx_usecs=0",
                     "--plot", tempfile.gettempdir()), "not a regular file"),
                   (("--set", "nic.chip=RTL8159", "--sweep", "usb.rx_usecs=0",
                     "--plot", "/nonexistent-dir/x.png"), "cannot create a file next to")):
    r = run(*args)
    check(r.returncode != 0 and text in r.stderr and not r.stdout.strip(),
          f"bad input {args}: rc {r.returncode} {r.stderr!r} {r.stdout[:200]!r}")
# INI text inih would blame on the wrong line, or misread
with tempfile.TemporaryDirectory() as td:
    for text, want in (("[nic\nrx_queues = 2\n", ":1: section header without ']'"),
                       ("rx_queues = 2\n", ":1: key 'rx_queues' is outside any [section]"),
                       ("[run]\n;" + "c" * 198 + "duration=0.02\n", ":2: line longer than 198"),
                       ("[run]\nduration = 0.05\n  0.5\n", ":3: an indented line"),
                       ("[run]\nduration\n", ":2: not a section, a key = value"),
                       ("[run]\nduration = 0.0\x001\n", ":2: a NUL byte"),
                       ("[run]\nduration = 1e-10\n", "not a duration"),
                       # a key set twice in one section (the last won silently)
                       ("[run]\nduration = 1\n[host]\ncpus = 4\n[run]\nduration = 2\n",
                        ":6: run.duration: set twice in [run]"),
                       ("[regime.a]\nmain = ping\nmain = gbps\n",
                        ":3: regime.a.main: set twice in [regime.a]")):
        f = os.path.join(td, "bad.ini")
        open(f, "w").write(text)
        r = run(f)
        check(r.returncode == 2 and want in r.stderr and not r.stdout, f"{text!r}: {r.stderr}")
# the command line wins over the scenario file; --json stays one document
# with ethtool query commands (their text goes to stderr)
with tempfile.TemporaryDirectory() as td:
    f = os.path.join(td, "ov.ini")
    open(f, "w").write("[run]\nseed = 5\nduration = 0.01\n[host]\npreset = desktop6\n")
    r = run(f, "--seed", "1", "--preset", "default")
    check(r.returncode == 0 and "preset default, seed 1" in r.stdout.splitlines()[0],
          f"overrides: {r.stdout[:200]} {r.stderr}")
r = run("--set", "run.duration=0.01", "--json", "--ethtool", "-c eth0")
try:
    json.loads(r.stdout)
    ok = r.returncode == 0 and "Coalesce parameters" in r.stderr
except ValueError:
    ok = False
check(ok, f"--json with -c: {r.stdout[:100]!r} {r.stderr[:100]!r}")
# --compare: the scenario's EXPERIMENTS.md rows, with roles and bands
scen = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scenarios")
r = run(os.path.join(scen, "e1-rss.ini"), "--set", "run.duration=0.5",
        "--compare", "--json")
check(r.returncode == 0, f"e1-rss compare: {r.stderr}")
if r.returncode == 0:
    rows = json.loads(r.stdout).get("compare", [])
    check([x["row"] for x in rows] == ["E1c", "E1d", "E1e"], f"rows {rows}")
    check(all(x["role"] == "predicted" for x in rows), "E1c-e are predictions")
    check(all(len(x["band"]) == 2 and isinstance(x["ok"], bool) for x in rows), "band/ok")
    # the rows' setup is the scenario file's: --set changes are named
    check(json.loads(r.stdout).get("compare_changed_by") == "run.duration=0.5",
          f"compare_changed_by: {json.loads(r.stdout).get('compare_changed_by')!r}")
r = run(os.path.join(scen, "e1-rss.ini"), "--set", "run.duration=0.5", "--set",
        "iperf3.instances=2", "--set", "run.seed=4", "--compare")
check(r.returncode == 0 and "note: --set changed the scenario (run.duration=0.5, "
      "iperf3.instances=2); the seed figures" in r.stdout, f"compare note: {r.stdout[-300:]!r}")
many = [a for i in range(20) for a in ("--set", f"ping.size={100 + i}")]
r = run(os.path.join(scen, "e1-rss.ini"), "--set", "run.duration=0.2", *many, "--compare")
note = [ln for ln in r.stdout.splitlines() if ln.startswith("note: --set changed")]
check(r.returncode == 0 and len(note) == 1 and
      re.search(r"\(run\.duration=0\.2(, ping\.size=1\d\d)+, \.\.\.\);", note[0]) is not None,
      f"a long note keeps whole assignments: {note!r}")
r = run(os.path.join(scen, "e1-rss.ini"), "--set", "run.seed=4", "--compare", "--json")
check(r.returncode == 0 and "compare_changed_by" not in json.loads(r.stdout),
      "a seed alone changes no setup")
# rows that relate two runs get a reference run first: E2c against one
# stream (E2a's configuration), E3e against the other mitigation setting
for name, want in (("e2-vanilla-p20", "iperf3.streams=1: "),
                   ("e3-ping-mit-on", "usb.mitigation=off: avg ")):
    r = run(os.path.join(scen, name + ".ini"), "--set", "run.duration=1.2",
            "--set", "ping.count=2", "--compare", "--json")
    check(r.returncode == 0, f"{name} compare: {r.stderr}")
    if r.returncode == 0:
        row = json.loads(r.stdout)["compare"][0]
        check(want in row["note"], f"{name}: no reference run in {row}")
# E1b/E1d: the peak of the per-second %soft, not the mean
r = run(os.path.join(scen, "e1-norss.ini"), "--set", "run.duration=5", "--compare", "--json")
check(r.returncode == 0, f"e1-norss compare: {r.stderr}")
if r.returncode == 0:
    d = json.loads(r.stdout)
    e1b = [x for x in d["compare"] if x["row"] == "E1b"][0]
    per_s = [float(c["soft"]) for st in d["sysstat"]["hosts"][0]["statistics"][2:]
             for c in st["cpu-load"] if c["cpu"] != "all"]
    check(abs(e1b["value"] - max(per_s)) < 0.01, f"E1b {e1b['value']} is not the peak {max(per_s)}")
# iperf3.cpus pins the host's iperf3 (taskset -c); host.cpuidle picks idle states
r = run("--set", "run.duration=0.5", "--set", "iperf3.cpus=3", "--json")
if r.returncode == 0:
    cpus = json.loads(r.stdout)["summary"]["cpus"]
    check(cpus[3]["usr"] > 0 and all(c["usr"] == 0 for c in cpus if c["cpu"] != 3),
          f"iperf3.cpus=3: {cpus}")
check(r.returncode == 0, f"iperf3.cpus: {r.stderr}")
r = run("--set", "run.duration=0.5", "--set", "host.cpuidle=adl", "--json")
check(r.returncode == 0 and json.loads(r.stdout)["cpuidle"]["states"][4]["name"] == "C10",
      f"host.cpuidle=adl: {r.stderr}")
for args, text in ((("--set", "iperf3.cpus=8"), "iperf3.cpus: '8' is not a CPU list"),
                   (("--set", "host.cpuidle=c7"), "no idle-state table 'c7'")):
    r = run("--set", "run.duration=0.1", *args)
    check(r.returncode != 0 and text in r.stderr and not r.stdout.strip(),
          f"bad input {args}: rc {r.returncode} {r.stderr!r}")
r = run("--set", "compare.rows=E9z")
check(r.returncode == 2 and "no EXPERIMENTS.md row 'E9z'" in r.stderr, f"bad row: {r.stderr}")
r = run("--set", "iperf3.cc=vegas")
check(r.returncode == 2 and "not reno or cubic" in r.stderr, f"bad cc: {r.stderr}")

rxtest.finish()
