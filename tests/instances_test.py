#!/usr/bin/env python3
"""instances_test.py RXSCALE - iperf3.instances: several iperf3 servers on
consecutive ports (5201, 5202, ...), one client each.  Each instance has its
own streams, sockets (5, 7, 9, ... per client process) and client ports
(distinct across all instances), each server is its own task, the total
across instances is the sum of each instance's (text and --json), TCP,
UDP and the host sending (-R) all account for every frame, instances=1
prints what a run without the key prints, and 0 or more than 8 instances
are refused with exit 2; a thread per stream reads each socket on the
receiving host too (iperf3 3.16), and is refused for UDP.  Exact values:
same inputs, same bytes."""
import json
import re
import sys

from rxtest import check
import rxtest

rxscale = sys.argv[1]
TWO = ("--set", "run.duration=1", "--set", "iperf3.instances=2", "--set", "iperf3.streams=3")


def run(*args):
    return rxtest.run(rxscale, *args)


def doc(*args):
    r = run(*args, "--json")
    check(r.returncode == 0, f"{args}: exit {r.returncode}: {r.stderr.strip()}")
    return json.loads(r.stdout) if r.returncode == 0 else None


def sums_add_up(d, what, keys=("sum_sent", "sum_received")):
    """The total of end's sums is the sum of the instances' sums."""
    e = d["end"]
    for k in keys:
        for f in ("bytes",) + (("retransmits",) if k == "sum_sent" and "retransmits" in e[k]
                               else ()) + (("packets", "lost_packets") if "packets" in e[k]
                                           else ()):
            each = [i[k][f] for i in e["instances"]]
            check(e[k][f] == sum(each), f"{what}: {k}.{f} {e[k][f]} != sum {each}")


# TCP, the peer sending: 2 instances of 3 streams
d = doc(*TWO)
if d:
    con = [(c["socket"], c["local_port"], c["remote_port"]) for c in d["start"]["connected"]]
    # instance 0's ports are those of a single client (52317, +2, ...); the
    # second client starts where its own draw puts it
    check(con == [(5, 52317, 5201), (7, 52319, 5201), (9, 52321, 5201),
                  (5, 34968, 5202), (7, 34970, 5202), (9, 34972, 5202)], f"connected: {con}")
    check(d["config"]["instances"] == 2 and d["config"]["streams"] == 3, f"config {d['config']}")
    check(d["start"]["test_start"]["num_streams"] == 6, "num_streams: all instances' streams")
    inst = d["end"]["instances"]
    check([(i["port"], i["num_streams"]) for i in inst] == [(5201, 3), (5202, 3)],
          f"instances: {inst}")
    # with the seed's device clocks (issue 27; 624418144 + 552425032 and
    # 816286 frames on the host's clock)
    check([i["sum_received"]["bytes"] for i in inst] == [624080760, 552662504] and
          d["end"]["sum_received"]["bytes"] == 1176743264,
          f"received: {[i['sum_received']['bytes'] for i in inst]}, "
          f"{d['end']['sum_received']['bytes']}")
    sums_add_up(d, "tcp")
    t = d["tcp"]
    check(t["frames_sent"] == t["frames_received"] == 816221 and "unaccounted" not in t,
          f"accounting {t}")
    # each server its own task: two CPUs run user code (one with one server)
    usr = [c["cpu"] for c in d["summary"]["cpus"] if c["usr"] > 0]
    check(usr == [1, 5], f"CPUs running the servers: {usr}")
d1 = doc("--set", "run.duration=1", "--set", "iperf3.streams=3")
if d1:
    usr = [c["cpu"] for c in d1["summary"]["cpus"] if c["usr"] > 0]
    check(usr == [5], f"one server: CPUs {usr}")
    check("instances" not in d1["config"] and "instances" not in d1["end"],
          "one instance: no instances keys")
# iperf3.cpus applies to every server
d = doc(*TWO, "--set", "iperf3.cpus=6")
if d:
    usr = [c["cpu"] for c in d["summary"]["cpus"] if c["usr"] > 0]
    check(usr == [6], f"taskset -c 6, two servers: CPUs {usr}")

# the text: header, each client's output, the total
r = run(*TWO)
check(r.returncode == 0, f"text: {r.stderr}")
out = r.stdout
check("2 iperf3 servers on the host (iperf3 -s -p 5201 ... -p 5202, a process each); on the "
      "peer, a client for each: iperf3 -c 192.168.2.1 -p PORT -C cubic -P 3 -t 1 (MSS 1448, "
      "timestamps), which print:\n" in out, f"header: {out[:400]}")
check(out.count("iperf Done.") == 2 and "Connecting to host 192.168.2.1, port 5202\n" in out,
      "two clients' outputs")
tot = out.split("all 2 instances (ports 5201-5202), 6 streams:\n")
check(len(tot) == 2, "the total block")
if len(tot) == 2:
    lines = tot[1].splitlines()
    check(lines[1] == "[SUM]   0.00-1.00   sec  1.10 GBytes  9.46 Gbits/sec    0             "
          "sender" and lines[2] == "[SUM]   0.00-1.00   sec  1.10 GBytes  9.41 Gbits/sec"
          "                  receiver", f"total: {lines[:3]}")
check("top (%CPU, whole run): iperf3 (2) " in out, "top: both processes")

# UDP: datagrams to port 5202 reach the second server
d = doc("--set", "run.duration=0.5", "--set", "iperf3.instances=2", "--set", "iperf3.streams=2",
        "--set", "iperf3.udp=1", "--set", "iperf3.bitrate=1G")
if d:
    u = d["udp"]
    check(u["sent"] == u["received"] == 172652 and u["rcvbuf_errors"] == 0 and
          "unaccounted" not in u, f"udp accounting {u}")
    check([i["sum"]["packets"] for i in d["end"]["instances"]] == [86326, 86326],
          f"udp per instance {d['end']['instances']}")
    sums_add_up(d, "udp", ("sum", "sum_sent", "sum_received"))
# the host sending (-R): a client process per instance, one thread or one per stream
for threads in ("1", "0"):
    d = doc("scenarios/e3-mit-on-p4.ini", "--set", "run.duration=0.5", "--set",
            "iperf3.instances=2", "--set", "iperf3.streams=2", "--set", f"iperf3.threads={threads}")
    if d:
        t = d["tcp"]
        check(t["direction"] == "host to peer" and t["frames_sent"] == t["frames_received"] +
              t["host_drops"] + t["in_flight"] and t["frames_received"] > 300000,
              f"-R threads={threads}: {t}")
        check([c["remote_port"] for c in d["start"]["connected"]] == [5201, 5201, 5202, 5202],
              f"-R: ports {d['start']['connected']}")
        sums_add_up(d, f"-R threads={threads}")

# the host receiving, a thread per stream (iperf3 >= 3.16): each stream's
# socket read by its own thread, the threads spread over the idle CPUs as
# Linux's wakeup placement puts them; one thread reads on one CPU only
users = {}
for threads in ("1", "0"):
    d = doc("--set", "run.duration=0.5", "--set", "iperf3.streams=4",
            "--set", f"iperf3.threads={threads}")
    if d:
        t = d["tcp"]
        check(t["direction"] == "peer to host" and t["frames_sent"] == t["frames_received"] +
              t["nic_drops"] + t["driver_drops"] + t["in_flight"] and
              t["frames_received"] > 400000, f"receive threads={threads}: {t}")
        users[threads] = [c["cpu"] for c in d["summary"]["cpus"] if c["usr"] > 0.1]
check(len(users.get("1", [])) == 1, f"one server thread reads on one CPU: {users}")
check(len(users.get("0", [])) == 4, f"four reader threads on four CPUs: {users}")
r = run("--set", "iperf3.udp=1", "--set", "iperf3.bitrate=1G", "--set", "iperf3.threads=0")
check(r.returncode == 1 and "modelled for TCP only" in r.stderr,
      f"UDP with a thread per stream: exit {r.returncode} {r.stderr}")

# -R ended with skbs of 8 clients in the TX ring: the ring's close freed
# them into streams freed before it (use after free, a crash here)
r = run("--set", "run.duration=0.01", "--set", "iperf3.instances=8", "--set",
        "iperf3.reverse=1")
check(r.returncode == 0 and "iperf Done." in r.stdout,
      f"-R, 8 instances, 10 ms: exit {r.returncode} {r.stderr.strip()[-200:]}")

# -R accounts for every frame the host sent: those still in the driver's TX
# ring or USB buffers when the run ends (10 ms: the senders still empty
# their socket buffers) and those the ring's reallocation (-G) freed unsent
# were in no term before (1242 in flight was 987, 254 driver drops missing)
for args, want in (
        (("--set", "run.duration=0.01", "--set", "iperf3.instances=8"),
         (49967, 48725, 0, 0, 1242)),
        (("--set", "run.duration=0.5", "--set", "iperf3.instances=3", "--set",
          "nic.chip=RTL8159"), (368244, 368244, 0, 0, 0)),   # issue 27's clocks:
        # the xHC 215.505 ppm fast, the adapter 95.497 ppm slow (373528 on
        # the host's clock).  Nothing in flight at the end since the driver
        # stops its queue as r8152 does (only with no buffer free); with the
        # earlier, stricter rule: 344719 sent, 1026 in flight
        (("--set", "run.duration=1", "--set", "iperf3.instances=4", "--at", "0.3",
          "-L eth0 rx 1", "--at", "0.6", "-G eth0 rx 256 tx 256"),
         (815217, 814962, 1, 254, 0))):
    d = doc(*args, "--set", "iperf3.reverse=1")
    if d:
        t = d["tcp"]
        got = tuple(t.get(k) for k in ("frames_sent", "frames_received", "host_drops",
                                       "tx_drops", "in_flight"))
        check(got == want and got[0] == sum(got[1:]) and "unaccounted" not in t,
              f"-R accounting {args}: {t}")
r = run("--set", "run.duration=0.01", "--set", "iperf3.instances=8", "--set", "iperf3.reverse=1")
check("\naccounting: 49967 TCP frames sent by the host (0 retransmitted) = 48725 received by "
      "the peer + 0 dropped in the host (no skb, qdisc full) + 0 dropped by the driver or the "
      "NIC + 1242 in the qdisc, the TX ring or on the wire\n" in r.stdout,
      f"-R accounting line: {re.findall('accounting:.*', r.stdout)}")

# instances=1 is the run without the key
a = run("--set", "run.duration=0.5", "--set", "iperf3.instances=1")
b = run("--set", "run.duration=0.5")
check(a.returncode == 0 and a.stdout == b.stdout, "iperf3.instances=1 changed the output")
# client ports distinct across instances: seed 5's draws put two clients'
# 128 ports on top of each other (before: 169 ports shared)
d = doc("--set", "run.duration=0.001", "--set", "iperf3.instances=8",
        "--set", "iperf3.streams=128", "--seed", "5")
if d:
    ports = [c["local_port"] for c in d["start"]["connected"]]
    check(len(ports) == 1024 and len(set(ports)) == 1024,
          f"8 x 128 streams: {len(ports) - len(set(ports))} ports shared")
    bases = [ports[k * 128] for k in range(8)]
    check(all(ports[k * 128 + j] == bases[k] + 2 * j for k in range(8) for j in range(128)),
          "each client's ports are consecutive (2 apart)")

# bad values: a clear error, exit 2, nothing run
for v, text in (("0", "iperf3.instances"), ("9", "iperf3.instances"),
                ("two", "iperf3.instances"), ("-1", "iperf3.instances")):
    r = run("--set", f"iperf3.instances={v}")
    check(r.returncode == 2 and text in r.stderr and not r.stdout,
          f"instances={v}: exit {r.returncode}, {r.stderr.strip()!r}")
r = run("--set", "run.duration=0.2", "--sweep", "iperf3.instances=1,9")
check(r.returncode == 2 and "iperf3.instances" in r.stderr, f"sweep 1,9: {r.stderr.strip()}")
rxtest.finish()
