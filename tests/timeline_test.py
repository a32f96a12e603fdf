#!/usr/bin/env python3
"""timeline_test.py RXSCALE [SCENARIOS] - `rxscale run` changing things while
traffic flows (issue 15): ethtool commands at simulated times (--at,
timeline.at), every fault.* knob, and chaos, on the PCIe RTL8127A and the
USB RTL8159.  Every run's accounting must close (no UNACCOUNTED), a
rejected command must print ethtool's error, leave the old settings and
make the exit status 3, bad syntax must be refused before the run (exit
2, one line, nothing on stdout), and the same run twice must print the
same bytes.  With SCENARIOS, also the 60 s chaos scenarios on both chips
(exit 0: accounting closed, no rejected command changed the settings, no
queue stalled beyond the recovery bound)."""
import json
import os
import re
import subprocess
import sys
import tempfile

rxscale = sys.argv[1]
scenarios = sys.argv[2] if len(sys.argv) > 2 else None
from rxtest import check
import rxtest



def end_queues(out):
    """RX queues in the ethtool -S block printed at the end of a run."""
    block = out[out.rfind("# ethtool -S eth0\n"):]
    return len(set(re.findall(r"^ +rx_queue_(\d+)_packets:", block, re.M)))

def run(*args):
    return rxtest.run(rxscale, *args)


def closes(out):
    """The accounting line is there and closes (no UNACCOUNTED)."""
    return "\naccounting: " in out and "UNACCOUNTED" not in out


DONE = ["--at", "2", "-L eth0 rx 2", "--at", "4", "-X eth0 equal 2",
        "--at", "6", "-G eth0 rx 256"]

# The "done when" command, on both chips (8 s instead of 10).
for chip in ("RTL8127A", "RTL8159"):
    a = run("--set", f"nic.chip={chip}", "--set", "run.duration=8", *DONE)
    b = run("--set", f"nic.chip={chip}", "--set", "run.duration=8", *DONE)
    check(a.stdout == b.stdout and a.returncode == b.returncode, f"{chip}: not deterministic")
    check(closes(a.stdout), f"{chip}: accounting: {a.stdout[-2000:]}")
    check("\ntimeline:\n" in a.stdout, f"{chip}: no timeline block")
    for t, cmd in (("2.000000", "-L eth0 rx 2"), ("4.000000", "-X eth0 equal 2"),
                   ("6.000000", "-G eth0 rx 256")):
        check(re.search(r"^ +%s s  ethtool %s  \(CPU \d+, [\d.]+ us\)" % (t, re.escape(cmd)),
                        a.stdout, re.M) is not None, f"{chip}: no line for {cmd}")
    if chip == "RTL8127A":
        check(a.returncode == 0, f"{chip}: exit {a.returncode}: {a.stderr}")
        # the header is printed before the run: the starting settings; the
        # ethtool -S block at the end lists the queues -L left
        check(a.stdout.startswith("rxscale run: RTL8127A, 4 RX queues"), f"{chip}: header")
        check(end_queues(a.stdout) == 2, f"{chip}: -L rx 2: {end_queues(a.stdout)} queues at the end")
    else:
        # r8152 has no channels or RSS: -L and -X are rejected as ethtool
        # reports it, -G rx 256 is above its 10 URBs; the run goes on
        check(a.returncode == 3, f"{chip}: exit {a.returncode}: {a.stderr}")
        check(a.stdout.count(": rejected (exit ") == 3, f"{chip}: three rejections")
        check("3 timeline commands were rejected" in a.stdout, f"{chip}: summary line")

# A rejected command: ethtool's error, the old settings, exit 3; a query
# prints its block.
r = run("--set", "run.duration=3", "--at", "1", "-L eth0 rx 9", "--at", "2", "-l eth0",
        "--json")
check(r.returncode == 3, f"rejected: exit {r.returncode}: {r.stderr}")
if r.stdout:
    d = json.loads(r.stdout)
    e = d["timeline"]["entries"]
    check(len(e) == 2 and e[0]["exit"] == 1 and "exceeds maximum" in e[0]["stderr"],
          f"rejected entry {e[0] if e else None}")
    check(e[1]["exit"] == 0 and re.search(r"Current hardware settings:\nRX:\s+4\n",
                                           e[1]["stdout"]) is not None,
          f"-l after the rejected -L: {e[1]['stdout'] if len(e) > 1 else None}")
    check(d["timeline"]["rejected"] == 1, "JSON: rejected count")
    check("unaccounted" not in d["tcp"], "JSON: accounting")

# The same commands from a scenario file, then --at after them.
with tempfile.TemporaryDirectory() as tmp:
    ini = os.path.join(tmp, "t.ini")
    with open(ini, "w") as f:
        f.write("[run]\nduration = 3\n[timeline]\nat = 1 -L eth0 rx 3\nat = 0.5 -G eth0 rx 512\n")
    r = run(ini, "--at", "2", "-L eth0 rx 1")
    check(r.returncode == 0 and closes(r.stdout), f"scenario timeline: {r.stderr}")
    lines = re.findall(r"^ +([\d.]+) s  ethtool (.*?)  \(", r.stdout, re.M)
    check(lines == [("0.500000", "-G eth0 rx 512"), ("1.000000", "-L eth0 rx 3"),
                    ("2.000000", "-L eth0 rx 1")], f"timeline order {lines}")
    check(end_queues(r.stdout) == 1, f"-L rx 1 applied: {end_queues(r.stdout)} queues at the end")
    # bad syntax: refused before anything runs
    subprocess.run([rxscale, "mkpcap", os.path.join(tmp, "demo.pcap")], capture_output=True)
    for args, msg in [
            (["--at", "2", "-L eth0 rx two"], "invalid value 'two'"),
            (["--at", "2", "-X eth0 equal"], "timeline: ethtool -X eth0 equal at 2 s"),
            (["--at", "2", "-Q eth0"], "timeline: ethtool -Q eth0 at 2 s"),
            (["--at", "2", "-L eth1 rx 2"], "no device 'eth1'"),
            (["--at", "20", "-l eth0"], "after the run's end"),
            (["--at", "x", "-l eth0"], "'x' is not a time"),
            (["--at", "-1", "-l eth0"], "'-1' is not a time"),
            (["--at", "2"], "no ethtool command after the time"),
            (["--at", "2", ""], "no ethtool command at 2 s"),
            (["--set", "timeline.at=2"], "want 'T ARGS'"),
            (["--seed", "1"] * 200, "too many options"),
            (["--pcap", os.path.join(tmp, "demo.pcap"), "--at", "1", "-l eth0"],
             "not a capture replay"),
            # the same mistakes before the traffic (--ethtool): a query with
            # bad syntax ran the whole simulation and exited 3 (red before)
            (["--ethtool", "-S"], "--ethtool -S: ethtool: bad command line argument(s); For"),
            (["--ethtool", "-l eth1"], "--ethtool -l eth1: no device 'eth1'"),
            (["--ethtool", "-x eth0 extra"], "--ethtool -x eth0 extra: "),
            (["--ethtool", "-l eth0", "--ethtool", "-Q eth0"], "--ethtool -Q eth0: "),
            (["--pcap", os.path.join(tmp, "demo.pcap"), "--ethtool", "-S"], "--ethtool -S: ")]:
        r = run("--set", "run.duration=3", *args)
        check(r.returncode == 2 and msg in r.stderr and not r.stdout
              and r.stderr.count("\n") == 1, f"{args}: exit {r.returncode}: {r.stderr!r}")

# Finding: a read-only query that fails (ethtool -n prints the ring count,
# then fails on the rules it cannot list) stopped the whole run.  A query
# before the traffic now prints its output and error and the run goes on,
# exit 3; a change that fails still stops the run before any traffic.
r = run("--set", "run.duration=0.5", "--ethtool", "-n eth0")
check(r.returncode == 3 and "4 RX rings available" in r.stdout and
      "RX classification rule retrieval failed" in r.stderr and closes(r.stdout),
      f"failing query before the traffic: exit {r.returncode}: {r.stderr}")
r = run("--set", "run.duration=0.5", "--ethtool", "-L eth0 rx 9")
check(r.returncode == 2 and "the run stops before any traffic" in r.stderr and not r.stdout,
      f"failing change before the traffic: exit {r.returncode}: {r.stderr}")

# Every fault knob: accepted on its bus, refused on the other.
PCI = ["fault.ownbit_erratum=1", "fault.ownbit_every=3", "fault.ownbit_delay_ns=5000",
       "fault.dma_fail_nth=40", "fault.skb_fail_nth=1000", "fault.irq_fail_nth=1",
       "fault.msix_avail=9", "fault.msi_fail=1", "fault.msix_drop_next=1",
       "fault.msix_drop_every=5000", "fault.rx_ring_full=2", "fault.link_flap_every=0.5",
       "fault.link_down=0.05", "fault.mmio_post_ns=1000"]
USB = ["fault.usb_ctrl_stall_next=1", "fault.usb_xfer_error_every=50",
       "fault.usb_intr_silent=1", "fault.urb_fail_nth=1", "fault.dma_fail_nth=40",
       "fault.skb_fail_nth=1000", "fault.link_flap_every=0.5"]
sets = lambda keys: [x for k in keys for x in ("--set", k)]
r = run("--set", "run.duration=1.5", "--set", "ping.count=5", "--set", "ping.interval=0.2",
        *sets(PCI), "--json")
check(r.returncode == 0, f"PCIe faults: {r.stderr}")
if r.returncode == 0:
    d = json.loads(r.stdout)
    check(d["summary"]["dropped"].get("rx_link_down", 0) > 0, "link flaps drop frames")
    check(len(d["summary"]["queues"]) == 4, "9 MSI-X vectors: 4 queues, link polled")
r = run("--set", "run.duration=1.5", "--set", "nic.chip=RTL8159", *sets(USB), "--json")
check(r.returncode == 0, f"USB faults: {r.stderr}")
if r.returncode == 0:
    check(json.loads(r.stdout)["summary"]["dropped"].get("rx_usb_xfer_error", 0) > 0,
          "USB transfer errors counted")
for key in PCI[1:]:
    if key.startswith(("fault.link", "fault.dma", "fault.skb")):
        continue
    r = run("--set", "nic.chip=RTL8159", "--set", key)
    check(r.returncode == 2 and "apply to the PCIe chips" in r.stderr, f"{key} on USB: {r.stderr}")
for key in USB[:4]:
    r = run("--set", key)
    check(r.returncode == 2 and "apply to the USB chips" in r.stderr, f"{key} on PCIe: {r.stderr}")
for key, msg in [("fault.ownbit_every=2", "set fault.ownbit_erratum=1 too"),
                 ("fault.rx_ring_full=16", "not a whole number in 0..15"),
                 ("fault.link_down=0", "is not a time"),
                 ("fault.msix_avail=-2", "fault.msix_avail")]:
    r = run("--set", key)
    check(r.returncode == 2 and msg in r.stderr, f"{key}: {r.stderr}")
r = run("--set", "fault.link_flap_every=0.1", "--set", "fault.link_down=0.2")
check(r.returncode == 2 and "not shorter than" in r.stderr, f"flap shorter than down: {r.stderr}")

# Chaos, short: both chips, deterministic, the summary line, exit 0.
for chip in ("RTL8127A", "RTL8159"):
    args = ["--set", f"nic.chip={chip}", "--set", "run.duration=6", "--set",
            "chaos.reconfig_every=0.7", "--set", "chaos.fault_every=0.5",
            "--set", "ping.count=20", "--set", "ping.interval=0.25"]
    a, b = run(*args), run(*args)
    check(a.returncode == 0 and a.stdout == b.stdout, f"chaos {chip}: {a.returncode} {a.stderr}")
    check(closes(a.stdout), f"chaos {chip}: accounting")
    m = re.search(r"^chaos: (\d+) reconfigurations \((\d+) applied, (\d+) rejected with the "
                  r"old settings kept, 0 rejected with them changed\), (\d+) faults", a.stdout, re.M)
    check(m is not None and int(m.group(1)) >= 4 and int(m.group(4)) >= 4,
          f"chaos {chip}: summary {m.group(0) if m else a.stdout[-1500:]}")
    # a run with no stall says so (it printed "longest stall 0.0 ms (RX queue 0")
    check(("no stall (bound 2004.0 ms)" in a.stdout) == ("longest stall" not in a.stdout),
          f"chaos {chip}: stall wording")

# Faults at a moment (issue 28): --at T "fault NAME[=VALUE] [task-filter]".
# An allocation failure armed for the ethtool process at the moment of a
# channel change makes that change fail; the old settings stay.
FAIL_L = ["--set", "run.duration=4", "--at", "2", "fault dma_fail_nth=1 task-filter",
          "--at", "2", "-L eth0 rx 2"]
a, b = run(*FAIL_L), run(*FAIL_L)
check(a.returncode == 3 and a.stdout == b.stdout, f"fault at a moment: {a.returncode} {a.stderr}")
check(closes(a.stdout), "fault at a moment: accounting")
check(re.search(r"^ +2\.000000 s  fault: dma_fail_nth=1 task-filter$", a.stdout, re.M) is not None,
      "fault at a moment: no fault line")
check(re.search(r"ethtool -L eth0 rx 2 .*: rejected \(exit 1\), the old settings stay\n"
                r" +netlink error: Cannot allocate memory", a.stdout) is not None,
      f"fault at a moment: -L not refused: {a.stdout[-1500:]}")
check(end_queues(a.stdout) == 4, "fault at a moment: -L changed the queues")
# the same failure after the change: applied first, the fault then waits
# for the ethtool process's next allocation
r = run("--set", "run.duration=4", "--at", "2", "-L eth0 rx 2",
        "--at", "3", "fault dma_fail_nth=1 task-filter")
check(r.returncode == 0 and end_queues(r.stdout) == 2, f"fault after -L: {r.returncode}")

# A hung TX engine: the stack's TX watchdog (6 s, checked at whole
# seconds from the open: 6 s, 12 s) calls ndo_tx_timeout, the reset
# task resets the chip, TCP goes on; every frame accounted for.
r = run("--set", "run.duration=13", "--at", "1", "fault tx_hang", "--json")
check(r.returncode == 0, f"tx_hang: exit {r.returncode}: {r.stderr}")
if r.returncode == 0:
    j = json.loads(r.stdout)
    tl = j["timeline"]
    check(tl["faults"] == 1 and tl["tx_timeouts"] == 1 and tl["resets"] == 1,
          f"tx_hang: {tl}")
    check("UNACCOUNTED" not in json.dumps(j), "tx_hang: accounting")

# Lost MSI-X messages, several at once, at a moment: recovered.
r = run("--set", "run.duration=5", "--at", "1", "fault msix_drop_next=3")
check(r.returncode == 0 and closes(r.stdout), f"msix_drop_next at 1 s: {r.returncode}")
m = re.search(r"^faults: 1; the driver's recovery: (\d+) lost-interrupt kicks?, 0 resets "
              r"\(0 TX timeouts\)$", r.stdout, re.M)
check(m is not None, f"msix_drop_next: recovery line: {r.stdout[-800:]}")

# Bad fault lines: refused before the run, one line, nothing on stdout.
for args, chip, msg in [("fault nonsense", "RTL8127A", "not a fault of this NIC (msix_drop_next, "),
                        ("fault", "RTL8127A", "not a fault of this NIC"),
                        ("fault dma_fail_nth=0", "RTL8127A", "a count, 1-1000000"),
                        ("fault dma_fail_nth=x", "RTL8127A", "a count, 1-1000000"),
                        ("fault dma_fail_nth", "RTL8127A", "a count, 1-1000000"),
                        ("fault tx_hang=1", "RTL8127A", "takes no value"),
                        ("fault tx_hang task-filter", "RTL8127A", "unexpected 'task-filter'"),
                        ("fault skb_fail_nth=2 now", "RTL8127A", "task-filter is its one option"),
                        ("fault ownbit=maybe", "RTL8127A", "on or off"),
                        ("fault link=sideways", "RTL8127A", "up or down"),
                        ("fault rx_ring_full=4", "RTL8127A", "an RX queue, 0-3"),
                        ("fault tx_hang", "RTL8159", "not a fault of this NIC (dma_fail_nth, "),
                        ("fault msix_drop_next=1", "RTL8159", "not a fault of this NIC"),
                        ("fault a b c", "RTL8127A", "NAME[=VALUE] [task-filter]")]:
    r = run("--set", f"nic.chip={chip}", "--set", "run.duration=2", "--at", "1", args)
    check(r.returncode == 2 and r.stdout == "" and msg in r.stderr and
          len(r.stderr.strip().splitlines()) == 1, f"{args!r} on {chip}: {r.returncode} {r.stderr!r}")
r = run("--set", "run.duration=2", "--at", "3", "fault tx_hang")
check(r.returncode == 2 and "after the run's end" in r.stderr, f"fault after the end: {r.stderr}")

# Issue 28's "done when": every third MSI-X message lost for 10 s of
# chaos on the RTL8127A, and the longest stall holds the bound.
r = run(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scenarios",
                     "chaos-rtl8127a.ini"), "--set", "run.duration=10",
        "--set", "fault.msix_drop_every=3", "--json")
check(r.returncode == 0, f"chaos msix_drop_every=3: exit {r.returncode}: {r.stderr}")
if r.returncode == 0:
    c = json.loads(r.stdout)["timeline"]["chaos"]
    check(c["max_stall_ms"] <= c["stall_bound_ms"] and c["lost_interrupt_kicks"] > 0,
          f"chaos msix_drop_every=3: {c}")
    print(f"chaos msix_drop_every=3: longest stall {c['max_stall_ms']} ms, "
          f"bound {c['stall_bound_ms']} ms, {c['lost_interrupt_kicks']} kicks")

# The 60 s chaos scenarios.
if scenarios:
    for name in ("chaos-rtl8127a.ini", "chaos-rtl8159.ini"):
        r = run(os.path.join(scenarios, name), "--json")
        check(r.returncode == 0, f"{name}: exit {r.returncode}: {r.stderr}")
        if r.returncode == 0:
            c = json.loads(r.stdout)["timeline"]["chaos"]
            check(c["applied"] >= 15 and c["faults"] >= 20 and
                  c["rejected_settings_changed"] == 0 and
                  c["max_stall_ms"] <= c["stall_bound_ms"], f"{name}: {c}")
            print(f"{name}: {c}")

rxtest.finish("timeline: %s" % ("ok" if not rxtest.failures else
                                 "%d failures" % rxtest.failures))
