#!/usr/bin/env python3
"""bench_run.py RXSCALE SCENARIO [--base RXSCALE_BASE] [--json] [--runs N]
                [--no-callgrind] [--scale 8,64,256] [--layers RXSCALE_PLAIN]
                - the main job's speed.

Real-time factor: runs `RXSCALE run SCENARIO --set run.duration=10 --json`
N times (3 by default) and reports simulated seconds per wall second of
the fastest run and of the median one, and the same per CPU second (user +
sys of the child: less disturbed by other load on a shared machine).
Instructions per simulated frame (callgrind, the stable figure): Ir of a
0.6 s run minus Ir of a 0.2 s run, over the frames the NIC's queues
received in between, so start-up cancels.

With --base, a second build (the previous version) runs the same way in
the same call, its runs interleaved with RXSCALE's (A B A B ...), and the
ratios are printed; both must print the same document (the simulated
results are byte-identical across speed work).  Every run of one binary
must print the same document too (determinism).  Target (issue 17):
>= 10x real time on one core.

--scale: instructions per frame (callgrind) of the same scenario on hosts
of each CPU count N (host.cpus), against the first, with the traffic
spread over the CPUs: the what-if chip WHATIF-256Q (not a real chip:
rtl_chips.c) with N RX queues, one vector per queue on its own CPU, and
four iperf3 servers on consecutive ports with a client of -P 128 each
(iperf3.instances=4: one client's 128 consecutive ports, -P's most, reach
at most 128 queues through the linear Toeplitz hash, two clients 194 of
256; four, 512 streams, reach all 256); and a replay of UDP frames of 2048 flows (a capture this script writes, 100,000
frames/s, rx-flow-hash udp4 sdfn), which reaches every queue: at that
rate every host size takes an interrupt and a NAPI poll per frame, so
the simulated work per frame is the same and only its spread differs.
Printed with each: the CPUs whose softirq time and the RX queues whose
frames were at least a tenth of an even share.  Target (issue 17): within 2x of 8 CPUs.

--layers: where the instructions of one simulated frame go, by layer
(callgrind's self cost per source file, the same 0.6 s minus 0.2 s runs,
of RXSCALE_PLAIN: a build without link-time optimisation, so that code
stays with its source file).  The layers are the chip model (src/model,
src/plat, src/rss, net_flow.c: its parser), the driver with the kernel
API (src/drv, src/kern, src/hw), the host's stack (GRO, demux, the TCP
receiver, segment parsing, load_host.c), libc (mostly the frame copies;
everything outside src/ lands here, libm's draws for the simulator too,
which only raises the ceiling below), the
simulator (src/sim: events, CPUs, softirqs, scheduler) and the peer (its
TCP senders, frame building, the wire, iperf3).  The first four are the
datapath under test, which runs once per frame whatever the simulator's
grain; printed with them is the real-time factor RXSCALE would reach if
the simulator and the peer cost nothing (best factor / the datapath's
share): an upper bound on what any cut outside the datapath can give."""
import json
import os
import resource
import shutil
import random
import statistics
import struct
import subprocess
import sys
import tempfile
import time

TARGET = 10.0
SIM_S = 10.0


def usage(code):
    print(__doc__.split("\n\n")[0], file=sys.stderr if code else sys.stdout)
    sys.exit(code)


args = sys.argv[1:]
if "-h" in args or "--help" in args:
    usage(0)
opts = {"--json": False, "--no-callgrind": False}
vals = {"--base": None, "--runs": "3", "--scale": None, "--layers": None}
pos = []
i = 0
while i < len(args):
    a = args[i]
    if a in opts:
        opts[a] = True
    elif a in vals:
        if i + 1 >= len(args):
            usage(2)
        vals[a] = args[i + 1]
        i += 1
    elif a.startswith("-"):
        usage(2)
    else:
        pos.append(a)
    i += 1
if len(pos) != 2:
    usage(2)
rxscale, scen = pos
runs = int(vals["--runs"])
bins = {"new": rxscale}
if vals["--base"]:
    bins["base"] = vals["--base"]


def frames(doc):
    return sum(q["packets"] for q in doc["summary"]["queues"])


def run_once(binary, sim_s):
    ru0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.monotonic()
    r = subprocess.run([binary, "run", scen, "--set", f"run.duration={sim_s}", "--json"],
                       capture_output=True, text=True)
    wall = time.monotonic() - t0
    ru1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    if r.returncode:
        sys.exit(f"bench-run: {binary} failed: {r.stderr.strip()}")
    cpu = (ru1.ru_utime - ru0.ru_utime) + (ru1.ru_stime - ru0.ru_stime)
    return wall, cpu, r.stdout


SCALE_SET = ("--set", "nic.chip=WHATIF-256Q", "--set", "iperf3.streams=128",
             "--set", "iperf3.instances=4")


def write_udp_pcap(path, nframes, nflows=2048, size=256, seed=17, gap_us=10):
    """nframes UDP/IPv4 frames of size bytes to the host (192.168.2.1:5201)
    from nflows random sources (addresses in 10/8, ports), in turn, gap_us
    apart."""
    rnd = random.Random(seed)
    flows = [(0x0a000000 | rnd.getrandbits(24), rnd.randrange(1024, 65536))
             for _ in range(nflows)]
    payload = bytes(size - 14 - 20 - 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<IHHiIII", 0xa1b2c3d4, 2, 4, 0, 0, 65535, 1))
        for i in range(nframes):
            src, sport = flows[i % nflows]
            udp = struct.pack("!HHHH", sport, 5201, 8 + len(payload), 0) + payload
            ip = struct.pack("!BBHHHBBHII", 0x45, 0, 20 + len(udp), i & 0xffff, 0, 64, 17,
                             0, src, 0xc0a80201)
            cs = sum(struct.unpack("!10H", ip))
            cs = (cs & 0xffff) + (cs >> 16)
            cs = (cs & 0xffff) + (cs >> 16)
            ip = ip[:10] + struct.pack("!H", ~cs & 0xffff) + ip[12:]
            fr = bytes.fromhex("00e04c680001" "02000000000a" "0800") + ip + udp
            t = i * gap_us
            f.write(struct.pack("<IIII", t // 1000000, t % 1000000, len(fr), len(fr)) + fr)


def callgrind_replay(binary, pcap, extra):
    """Ir and frames of a replay of pcap (no scenario)."""
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "cg.out")
        r = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}",
                            binary, "run", "--pcap", pcap, "--ethtool", "-N eth0 rx-flow-hash udp4 sdfn", *extra, "--json"],
                           capture_output=True, text=True)
        if r.returncode:
            sys.exit(f"bench-run: callgrind of {binary} failed: {r.stderr.strip()[-500:]}")
        with open(out) as f:
            ir = [int(ln.split()[1]) for ln in f
                  if ln.startswith("summary:") or ln.startswith("totals:")][-1]
        doc = json.loads(r.stdout)
        return ir, frames(doc), doc


def spread(doc, nframes):
    """CPUs with softirq work, queues with traffic: each at least a tenth
    of an even share of the softirq time or the frames."""
    qs = doc["summary"]["queues"]
    cpus = doc["summary"]["cpus"]
    soft = sum(c["soft"] for c in cpus)
    return (sum(c["soft"] * 10 * len(cpus) >= soft > 0 for c in cpus),
            sum(q["packets"] * 10 * len(qs) >= nframes for q in qs), len(qs))


def callgrind_ir(binary, sim_s, extra=(), want_doc=False):
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "cg.out")
        r = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}",
                            binary, "run", scen, "--set", f"run.duration={sim_s}", *extra,
                            "--json"],
                           capture_output=True, text=True)
        if r.returncode:
            sys.exit(f"bench-run: callgrind of {binary} failed: {r.stderr.strip()[-500:]}")
        ir = None
        with open(out) as f:
            for line in f:
                if line.startswith("summary:") or line.startswith("totals:"):
                    ir = int(line.split()[1])
        doc = json.loads(r.stdout)
        return (ir, frames(doc), doc) if want_doc else (ir, frames(doc))


LAYERS = (("model", "chip model"), ("driver", "driver + kernel API"),
          ("stack", "host stack"), ("libc", "libc and other libraries"),
          ("sim", "simulator"), ("peer", "peer, wire, iperf3"))
DATAPATH = ("model", "driver", "stack", "libc")


def layer_of(path):
    p = path.split("/src/")[-1] if "/src/" in path else path
    if p.startswith(("model/", "plat/", "rss/", "net/net_flow")):
        return "model"
    if p.startswith(("drv/", "kern/", "hw/")):
        return "driver"
    if p.startswith(("stack/stack_gro", "stack/stack_demux", "stack/stack_pkt",
                     "stack/tcp_receiver", "stack/tcp_seg", "stack/tcp_rtt",
                     "load/load_host")):
        return "stack"
    if p.startswith("sim/"):
        return "sim"
    if p.startswith(("load/", "stack/", "net/", "cli/", "report/", "ethtool/")):
        return "peer"
    return "libc"


def callgrind_layers(binary, sim_s):
    """Self Ir by layer, frames."""
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "cg.out")
        r = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}",
                            binary, "run", scen, "--set", f"run.duration={sim_s}", "--json"],
                           capture_output=True, text=True)
        if r.returncode:
            sys.exit(f"bench-run: callgrind of {binary} failed: {r.stderr.strip()[-500:]}")
        a = subprocess.run(["callgrind_annotate", "--threshold=100", "--show-percs=no", out],
                           capture_output=True, text=True)
        if a.returncode:
            sys.exit(f"bench-run: callgrind_annotate failed: {a.stderr.strip()[-300:]}")
    by = {k: 0 for k, _ in LAYERS}
    body = a.stdout.split("file:function", 1)[-1]
    for ln in body.splitlines():
        f = ln.split()
        if len(f) < 2 or not f[0].replace(",", "").isdigit() or ":" not in f[1]:
            continue
        by[layer_of(f[1].rsplit(":", 1)[0])] += int(f[0].replace(",", ""))
    return by, frames(json.loads(r.stdout))


res = {k: {"walls": [], "cpus": [], "doc": None} for k in bins}
for _ in range(runs):
    for k, b in bins.items():
        wall, cpu, out = run_once(b, SIM_S)
        if res[k]["doc"] is not None and out != res[k]["doc"]:
            sys.exit(f"bench-run: two runs of {b} printed different results")
        res[k]["doc"] = out
        res[k]["walls"].append(wall)
        res[k]["cpus"].append(cpu)
same = "base" not in res or res["base"]["doc"] == res["new"]["doc"]
peak_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024.0

have_cg = not opts["--no-callgrind"] and shutil.which("valgrind")
for k, b in bins.items():
    r = res[k]
    doc = json.loads(r["doc"])
    r["frames"] = frames(doc)
    r["rt_best"] = SIM_S / min(r["walls"])
    r["rt_median"] = SIM_S / statistics.median(r["walls"])
    r["rt_cpu_best"] = SIM_S / min(r["cpus"])
    r["rt_cpu_median"] = SIM_S / statistics.median(r["cpus"])
    r["frames_per_wall_s"] = r["frames"] / min(r["walls"])
    r["ir_per_frame"] = None
    if have_cg:
        ir0, f0 = callgrind_ir(b, 0.2)
        ir1, f1 = callgrind_ir(b, 0.6)
        r["ir_per_frame"] = (ir1 - ir0) / max(1, f1 - f0)

out = {"scenario": scen, "sim_s": SIM_S, "runs": runs, "peak_mb": round(peak_mb, 1),
       "target_realtime_factor": TARGET, "results_identical_to_base": same}
for k in bins:
    r = res[k]
    out[k] = {key: (round(r[key], 3) if isinstance(r[key], float) else r[key])
              for key in ("rt_best", "rt_median", "rt_cpu_best", "rt_cpu_median",
                          "frames_per_wall_s", "ir_per_frame", "frames")}
    out[k]["binary"] = bins[k]
    out[k]["throughput_gbps"] = json.loads(r["doc"])["summary"]["throughput_gbps"]
if "base" in bins:
    n, b = res["new"], res["base"]
    out["speedup_wall_median"] = round(statistics.median(
        [bw / nw for bw, nw in zip(b["walls"], n["walls"])]), 3)
    if n["ir_per_frame"] and b["ir_per_frame"]:
        out["ir_per_frame_ratio"] = round(n["ir_per_frame"] / b["ir_per_frame"], 3)

scale = []
if vals["--scale"] and have_cg:
    for n in [int(x) for x in vals["--scale"].split(",")]:
        extra = SCALE_SET + ("--set", f"host.cpus={n}", "--set", f"nic.rx_queues={n}")
        ir0, f0 = callgrind_ir(rxscale, 0.1, extra)
        ir1, f1, doc = callgrind_ir(rxscale, 0.3, extra, want_doc=True)
        c, q, nq = spread(doc, f1)
        scale.append({"load": "tcp", "cpus": n,
                      "ir_per_frame": round((ir1 - ir0) / max(1, f1 - f0), 1),
                      "cpus_with_softirq": c, "queues_with_traffic": q, "queues": nq})
    with tempfile.TemporaryDirectory() as d:
        short, long_ = os.path.join(d, "a.pcap"), os.path.join(d, "b.pcap")
        write_udp_pcap(short, 20000)
        write_udp_pcap(long_, 60000)
        for n in [int(x) for x in vals["--scale"].split(",")]:
            extra = ("--set", "nic.chip=WHATIF-256Q", "--set", f"host.cpus={n}",
                     "--set", f"nic.rx_queues={n}")
            ir0, f0, _ = callgrind_replay(rxscale, short, extra)
            ir1, f1, doc = callgrind_replay(rxscale, long_, extra)
            c, q, nq = spread(doc, f1)
            scale.append({"load": "udp", "cpus": n,
                          "ir_per_frame": round((ir1 - ir0) / max(1, f1 - f0), 1),
                          "cpus_with_softirq": c, "queues_with_traffic": q, "queues": nq})
    out["scale"] = scale

layers = None
if vals["--layers"] and have_cg:
    l0, f0 = callgrind_layers(vals["--layers"], 0.2)
    l1, f1 = callgrind_layers(vals["--layers"], 0.6)
    per = {k: (l1[k] - l0[k]) / max(1, f1 - f0) for k, _ in LAYERS}
    total = sum(per.values())
    share = sum(per[k] for k in DATAPATH) / total
    layers = {"binary": vals["--layers"], "ir_per_frame": {k: round(v, 1) for k, v in per.items()},
              "datapath_share": round(share, 4),
              "rt_ceiling": round(res["new"]["rt_best"] / share, 2)}
    out["layers"] = layers

if opts["--json"]:
    print(json.dumps({"results": [out]}))
    sys.exit(0)
print(f"{scen}: {SIM_S:g} s simulated, {runs} runs each (real-time factor = simulated s "
      f"per wall s; per CPU s in brackets)")
for k in bins:
    r = res[k]
    ipf = f"{r['ir_per_frame']:,.0f} instructions/frame" if r["ir_per_frame"] else \
        ("instructions/frame: not measured" if opts["--no-callgrind"] else
         "instructions/frame: valgrind missing (scripts/deps.sh bench)")
    print(f"  {k:4} best {r['rt_best']:5.2f}x  median {r['rt_median']:5.2f}x  "
          f"[{r['rt_cpu_best']:.2f}x / {r['rt_cpu_median']:.2f}x]  "
          f"{r['frames_per_wall_s'] / 1e6:.2f} M frames/s  {ipf}   ({bins[k]})")
if "base" in bins:
    print(f"  new vs base: {out['speedup_wall_median']:.2f}x wall (median of paired runs)"
          + (f", {out['ir_per_frame_ratio']:.3f}x instructions/frame"
             if "ir_per_frame_ratio" in out else "")
          + (", results identical" if same else ", RESULTS DIFFER"))
best = res["new"]["rt_best"]
print(f"  target >= {TARGET:g}x real time: {'met' if best >= TARGET else 'NOT met'} "
      f"(best {best:.2f}x); peak {peak_mb:.0f} MB")
if layers:
    per = layers["ir_per_frame"]
    total = sum(per.values())
    print(f"  instructions per frame by layer ({layers['binary']}, no LTO): " + ", ".join(
        f"{name} {per[k]:,.0f} ({100 * per[k] / total:.0f} %)" for k, name in LAYERS))
    print(f"  the datapath under test (chip model, driver, host stack, libc) is "
          f"{100 * layers['datapath_share']:.0f} % of a frame: with the simulator and the "
          f"peer free, at most {layers['rt_ceiling']:.2f}x real time")
if scale:
    print("  per-frame cost by host size (instructions/frame; what-if WHATIF-256Q, one RX "
          "queue per CPU; CPUs with softirq work, queues with traffic):")
    for load, what in (("tcp", "4 iperf3 clients of -P 128"),
                       ("udp", "UDP replay, 2048 flows, 100 kpps")):
        row = [c for c in scale if c["load"] == load]
        b = row[0]["ir_per_frame"]
        print(f"    {what}: " + ", ".join(
            f"{c['cpus']} CPUs {c['ir_per_frame']:,.0f} ({c['ir_per_frame'] / b:.2f}x; "
            f"{c['cpus_with_softirq']} CPUs, {c['queues_with_traffic']}/{c['queues']} queues)"
            for c in row) + f"; within 2x of {row[0]['cpus']}: "
            + ("met" if all(c["ir_per_frame"] <= 2 * b for c in row) else "NOT met"))
