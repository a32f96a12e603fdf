#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""pcap_judge.py - check "rxscale hash --pcap", or the device model's
steering, against tshark.

usage: pcap_judge.py RXSCALE_BINARY PCAP_DIR [--model RSS_MODEL_DUMP]

For every *.pcap / *.pcapng in PCAP_DIR (sorted) this runs

  * rxscale hash --pcap FILE      (TSV: frame, type, hash, queue), and
  * tshark with IP/IPv6 defragmentation and TCP reassembly off, printing
    the L2..L4 header fields of every frame,

derives the expected RSS hash type and Toeplitz input of each frame from
tshark's decode alone, hashes it with an independent bit-serial Toeplitz
implementation (below) and compares type, hash and queue row by row.

With --model, the rows come instead from tests/rss_model_dump.c: every
Ethernet frame through the RTL8127A device model and the driver, the RX
queue and hash the driver handed up; the model's hash and queue are then
compared with the same expectation (whether a frame is hashed at all, the
hash, the queue; the model reports no hash type).  Frames the model's MAC
does not take (a capture that is not Ethernet, frames longer than a
standard frame) are skipped and counted.

Configuration judged: rxscale's defaults, i.e. the 40-byte Microsoft key,
4 queues, a 128-entry indirection table with tbl[i] = i % 4, queue =
tbl[hash & 127], and the RTL8127 default hash types (TCP4 4-tuple, IPv4
pair, TCP6 4-tuple, IPv6 pair, IPv6 EX; UDP on the IP pair).

Rules (src/net/net_flow.h, src/rss/rss_hash.h):
  * Link layers: Ethernet with up to two 802.1Q (0x8100) / 802.1ad (0x88a8)
    tags, Linux SLL/SLL2, raw IP.  The IP header must follow the link
    header directly, else no hash (type none, hash -, queue 0): ARP, LLC,
    PPPoE, MPLS, a third VLAN tag, other TPIDs...
  * The FIRST IP header counts (outer header of any tunnel).
  * IPv4: a fragment (MF or offset != 0) -> ipv4 on (src, dst); else TCP
    -> tcp4 on (src, dst, sport, dport); else ipv4.
  * IPv6: a Fragment header with offset != 0 or M set -> ipv6; else TCP
    -> tcp6; else ipv6.  A Home Address destination option replaces the
    source, a type 2 routing header's address the destination.
  * Input bytes: addresses in network order, then the ports big-endian.

  * A frame the snap length cut is judged as the frame it was: lengths
    against frame.len, the headers the capture kept hashed (a TCP header
    the capture cut leaves the IP pair).
  * IPv6 payload length 0: a jumbogram with the Jumbo Payload option
    (above 65535), else no hash, as an IPv4 total length of 0.

Frames whose decode cannot be trusted are SKIPPED, not failed, with the
reason counted: frames tshark marks as malformed or carries an expert
Error on, IP headers whose lengths do not fit the frame or that the
capture cut, TCP headers tshark could not decode, ambiguous Mobile-IPv6
substitutions.

Exit status: 0 when no frame mismatches, at least one frame was judged and
at least MIN_JUDGED_RATIO of all frames were judged; 1 otherwise; 77
(meson "skip") when tshark is not installed.
"""
import collections
import glob
import ipaddress
import os
import shutil
import subprocess
import sys

KEY = bytes.fromhex(
    "6d5a56da255b0ec24167253d43a38fb0d0ca2bcbae7b30b477cb2da38030f20c"
    "6a42b73bbeac01fa")
N_QUEUES = 4
INDIR_SIZE = 128
INDIR = [i % N_QUEUES for i in range(INDIR_SIZE)]
MIN_JUDGED_RATIO = 0.80
EXT_MAX = 16            # IPv6 extension headers the dissector walks
MAX_MISMATCH_PRINT = 25

AGG = "\x1e"            # tshark occurrence aggregator (never in a value)

TSHARK_OPTS = [
    "-n",
    "-o", "ip.defragment:FALSE",
    "-o", "ipv6.defragment:FALSE",
    "-o", "tcp.desegment_tcp_streams:FALSE",
    "-o", "tcp.analyze_sequence_numbers:FALSE",
    "-o", "udp.try_heuristic_first:FALSE",
    "-o", "tcp.try_heuristic_first:FALSE",
    # By default tshark also hands EtherType 0x9100 to its "vlan"
    # dissector.  Mapping the Q-in-Q EtherType onto 0x8100 makes a "vlan"
    # layer mean TPID 0x8100 exactly ("ieee8021ad" is 0x88a8), so the
    # layer names alone say which tags rxscale must accept.
    "-o", "vlan.qinq_ethertype:0x8100",
]

FIELDS = [
    "frame.number", "frame.len", "frame.cap_len", "frame.protocols",
    "sll.ifindex",
    "ip.hdr_len", "ip.len", "ip.flags.mf", "ip.frag_offset", "ip.proto",
    "ip.src", "ip.dst",
    "ipv6.plen", "ipv6.opt.jumbo", "ipv6.nxt", "ipv6.src", "ipv6.dst",
    "ipv6.hopopts.nxt", "ipv6.dstopts.nxt", "ipv6.routing.nxt",
    "ipv6.fraghdr.nxt", "ah.next_header",
    "ipv6.routing.type", "ipv6.routing.len",
    "ipv6.routing.mipv6.home_address", "ipv6.opt.mipv6.home_address",
    "ipv6.fraghdr.offset", "ipv6.fraghdr.more",
    "tcp.srcport", "tcp.dstport", "tcp.hdr_len", "tcp.len",
    "_ws.malformed", "_ws.expert.severity", "_ws.expert.message",
]

EXPERT_ERROR = 0x00800000       # PI_ERROR

# IPv6 extension headers the dissector walks: next-header value ->
# (tshark layer name in frame.protocols, tshark field holding its own
# next-header value).
IPV6_EXT = {
    0: ("ipv6.hopopts", "ipv6.hopopts.nxt"),
    43: ("ipv6.routing", "ipv6.routing.nxt"),
    44: ("ipv6.fraghdr", "ipv6.fraghdr.nxt"),
    51: ("ah", "ah.next_header"),
    60: ("ipv6.dstopts", "ipv6.dstopts.nxt"),
}

# Leading frame.protocols entries that are metadata, not headers.
META_LAYERS = {"frame", "pkt_comment"}


# --------------------------------------------------------------------------
# Toeplitz reference: bit-serial, straight from the Microsoft definition.
# For every input bit set (MSB of byte 0 first), XOR in the 32-bit key
# window starting at that bit; key bits past the end of the key are 0.

_KEY_INT = int.from_bytes(KEY, "big") << 32   # zero-extended by 32 bits
_KEY_BITS = 8 * len(KEY)


def toeplitz(data):
    h = 0
    for i in range(8 * len(data)):
        if (data[i >> 3] >> (7 - (i & 7))) & 1:
            if i <= _KEY_BITS:
                h ^= (_KEY_INT >> (_KEY_BITS - i)) & 0xFFFFFFFF
    return h


def self_test():
    """Known answers from the Microsoft RSS verification suite."""
    vectors = [
        ("66.9.149.187", "161.142.100.80", 2794, 1766, 0x51ccc178,
         0x323e8fc2),
        ("199.92.111.2", "65.69.140.83", 14230, 4739, 0xc626b0ea,
         0xd718262a),
        ("24.19.198.95", "12.22.207.184", 12898, 38024, 0x5c2b394a,
         0xd2d0a5de),
    ]
    for src, dst, sp, dp, h4, h2 in vectors:
        a = ipaddress.ip_address(src).packed + ipaddress.ip_address(dst).packed
        ports = sp.to_bytes(2, "big") + dp.to_bytes(2, "big")
        if toeplitz(a + ports) != h4 or toeplitz(a) != h2:
            sys.exit("pcap_judge: Toeplitz self-test failed for %s" % src)
    a = (ipaddress.ip_address("3ffe:2501:200:1fff::7").packed +
         ipaddress.ip_address("3ffe:2501:200:3::1").packed)
    if (toeplitz(a + (2794).to_bytes(2, "big") + (1766).to_bytes(2, "big"))
            != 0x40207d3d or toeplitz(a) != 0x2cc18cd5):
        sys.exit("pcap_judge: Toeplitz IPv6 self-test failed")


# --------------------------------------------------------------------------
# Expected row from tshark's fields.

class Skip(Exception):
    """This frame cannot be judged; the message is the reason."""


def first(rec, name):
    v = rec.get(name, [])
    return v[0] if v else None


def as_int(s):
    if s is None or s == "":
        raise Skip("tshark field missing")
    return int(s, 0)


def as_bool(s):
    return s in ("1", "True", "true")


def addr(s):
    if s is None:
        raise Skip("tshark address missing")
    return ipaddress.ip_address(s).packed


def expected_input(rec):
    """Return (type, input bytes) or ("none", b""); raise Skip."""
    frame_len = as_int(first(rec, "frame.len"))
    cap_len = as_int(first(rec, "frame.cap_len"))
    if rec.get("_ws.malformed"):
        raise Skip("tshark: malformed packet")
    for sev, msg in zip(rec.get("_ws.expert.severity", []),
                        rec.get("_ws.expert.message", []) + [""] * 64):
        if sev and int(sev, 0) >= EXPERT_ERROR:
            # group messages that differ only in numbers
            short = "".join("#" if c.isdigit() else c for c in msg)
            while "##" in short:
                short = short.replace("##", "#")
            raise Skip("tshark expert error: " + short)

    layers = (first(rec, "frame.protocols") or "").split(":")
    while layers and layers[0] in META_LAYERS:
        layers.pop(0)
    if not layers:
        raise Skip("no decode")
    i = 0
    link = layers[0]
    if link == "eth":
        l2len = 14
        i = 1
        if i >= len(layers) or layers[i] != "ethertype":
            return "none", b""          # 802.3 length / LLC, truncated ...
        i += 1
        tags = 0
        while i < len(layers) and layers[i] in ("vlan", "ieee8021ad"):
            if tags == 2:
                return "none", b""      # a third tag: not parsed
            tags += 1
            l2len += 4
            i += 1
            if i >= len(layers) or layers[i] != "ethertype":
                return "none", b""      # tag followed by LLC etc.
            i += 1
    elif link == "sll":
        # SLL2 carries an interface index, SLL does not
        l2len = 20 if rec.get("sll.ifindex") else 16
        i = 1
        if i >= len(layers) or layers[i] != "ethertype":
            return "none", b""
        i += 1
    elif link == "raw":
        l2len = 0
        i = 1
    else:
        raise Skip("link layer '%s' not judged" % link)
    if i >= len(layers) or layers[i] not in ("ip", "ipv6"):
        return "none", b""              # ARP, PPPoE, MPLS, ...
    avail = frame_len - l2len           # bytes from the IP header on
    kept = cap_len - l2len              # ... of which the capture kept

    if layers[i] == "ip":
        ihl = as_int(first(rec, "ip.hdr_len"))
        tot = as_int(first(rec, "ip.len"))
        if ihl < 20:
            raise Skip("IPv4 IHL < 5")
        if tot < ihl:
            raise Skip("IPv4 total length < header length")
        if tot > avail:
            raise Skip("IPv4 total length beyond the frame")
        if ihl > kept:
            raise Skip("IPv4 header cut by the snap length")
        src = addr(first(rec, "ip.src"))
        dst = addr(first(rec, "ip.dst"))
        frag = (as_bool(first(rec, "ip.flags.mf")) or
                as_int(first(rec, "ip.frag_offset")) != 0)
        if frag:
            return "ipv4", src + dst
        if as_int(first(rec, "ip.proto")) == 6:
            if tot - ihl >= 20 and ihl + 20 > kept:
                return "ipv4", src + dst        # TCP header cut: IP pair
            thl = first(rec, "tcp.hdr_len")
            if (i + 1 >= len(layers) or layers[i + 1] != "tcp" or
                    not thl or not 20 <= int(thl) <= tot - ihl):
                raise Skip("TCP header truncated or not decoded")
            return "tcp4", src + dst + ports(rec)
        return "ipv4", src + dst

    # IPv6
    if kept < 40:
        raise Skip("IPv6 header beyond the frame")
    plen = as_int(first(rec, "ipv6.plen"))
    if not plen:
        jumbo = first(rec, "ipv6.opt.jumbo")
        if as_int(first(rec, "ipv6.nxt")) != 0 or not jumbo or int(jumbo) <= 65535:
            return "none", b""          # no Jumbo option: refused (RFC 2675)
        plen = int(jumbo)
    if 40 + plen > avail:
        raise Skip("IPv6 payload length beyond the frame")
    src = addr(first(rec, "ipv6.src"))
    dst = addr(first(rec, "ipv6.dst"))
    nxt = as_int(first(rec, "ipv6.nxt"))
    seen = collections.Counter()
    n_ext = 0
    n_rh2 = 0
    frag = False
    ex_dst = None
    j = i + 1
    while nxt in IPV6_EXT:
        name, nfield = IPV6_EXT[nxt]
        if j >= len(layers) or layers[j] != name:
            raise Skip("IPv6 extension header not decoded by tshark")
        n_ext += 1
        if n_ext > EXT_MAX:
            raise Skip("IPv6 extension chain longer than %d" % EXT_MAX)
        k = seen[name]
        seen[name] += 1
        if name == "ipv6.routing":
            if as_int(rec["ipv6.routing.type"][k]) == 2:
                if as_int(rec["ipv6.routing.len"][k]) != 2:
                    raise Skip("type 2 routing header with length != 2")
                homes = rec.get("ipv6.routing.mipv6.home_address", [])
                if n_rh2 >= len(homes):
                    raise Skip("type 2 routing header without address")
                if n_rh2:
                    raise Skip("several type 2 routing headers")
                ex_dst = addr(homes[n_rh2])
                n_rh2 += 1
        elif name == "ipv6.fraghdr":
            off = as_int(rec["ipv6.fraghdr.offset"][k])
            more = as_bool(rec["ipv6.fraghdr.more"][k])
            if off or more:
                frag = True
        nxt = as_int(rec[nfield][k])
        j += 1
        if frag and off:
            break                       # nothing after a later fragment
    homes = rec.get("ipv6.opt.mipv6.home_address", [])
    ex_src = None
    if homes:
        if layers.count("ipv6") > 1 or len(homes) > 1:
            raise Skip("ambiguous Home Address option")
        if "ipv6.dstopts" not in layers[i + 1:j]:
            raise Skip("Home Address option outside the walked chain")
        ex_src = addr(homes[0])
    src = ex_src or src
    dst = ex_dst or dst
    if frag:
        return "ipv6", src + dst
    if nxt == 6:
        thl = first(rec, "tcp.hdr_len")
        tlen = first(rec, "tcp.len")
        if (j >= len(layers) or layers[j] != "tcp" or not thl or
                int(thl) < 20 or (tlen is not None and int(tlen) < 0)):
            raise Skip("TCP header truncated or not decoded")
        return "tcp6", src + dst + ports(rec)
    return "ipv6", src + dst


def ports(rec):
    sp = as_int(first(rec, "tcp.srcport"))
    dp = as_int(first(rec, "tcp.dstport"))
    return sp.to_bytes(2, "big") + dp.to_bytes(2, "big")


_hash_cache = {}


def expected_row(rec):
    typ, data = expected_input(rec)
    if typ == "none":
        return ("none", "-", "0")
    h = _hash_cache.get(data)
    if h is None:
        h = _hash_cache[data] = toeplitz(data)
    return (typ, "0x%08x" % h, str(INDIR[h & (INDIR_SIZE - 1)]))


# --------------------------------------------------------------------------

def run_tshark(tshark, path):
    cmd = [tshark, "-r", path] + TSHARK_OPTS + [
        "-T", "fields", "-E", "separator=/t", "-E", "occurrence=a",
        "-E", "aggregator=" + AGG, "-E", "quote=n"]
    for f in FIELDS:
        cmd += ["-e", f]
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       universal_newlines=True, errors="replace")
    if p.returncode != 0:
        raise RuntimeError("tshark failed (%d): %s" %
                           (p.returncode, p.stderr.strip()[-500:]))
    recs = []
    # not splitlines(): that also splits at the \x1e aggregator
    for line in p.stdout.split("\n"):
        if not line:
            continue
        cols = line.split("\t")
        if len(cols) != len(FIELDS):
            raise RuntimeError("tshark: %d columns, expected %d: %r" %
                               (len(cols), len(FIELDS), line[:200]))
        recs.append({f: (c.split(AGG) if c else [])
                     for f, c in zip(FIELDS, cols)})
    return recs


def run_rxscale(rxscale, path):
    p = subprocess.run([rxscale, "hash", "--pcap", path],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       universal_newlines=True, errors="replace")
    if p.returncode != 0:
        raise RuntimeError("rxscale failed (%d): %s" %
                           (p.returncode, p.stderr.strip()[-500:]))
    lines = p.stdout.splitlines()
    if not lines or lines[0] != "frame\ttype\thash\tqueue":
        raise RuntimeError("rxscale: bad TSV header %r" %
                           (lines[0] if lines else ""))
    rows = []
    for n, line in enumerate(lines[1:], 1):
        cols = line.split("\t")
        if len(cols) != 4 or cols[0] != str(n):
            raise RuntimeError("rxscale: bad TSV row %d: %r" % (n, line))
        rows.append(tuple(cols[1:]))
    return rows


def run_model(dumper, path):
    """The model's rows: (type, hash, queue), type "hash", "none" or
    "skip"."""
    p = subprocess.run([dumper, path], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       universal_newlines=True, errors="replace")
    if p.returncode != 0:
        raise RuntimeError("rss-model-dump failed (%d): %s" %
                           (p.returncode, p.stderr.strip()[-500:]))
    lines = p.stdout.splitlines()
    if not lines or lines[0] != "frame\ttype\thash\tqueue":
        raise RuntimeError("rss-model-dump: bad TSV header %r" % (lines[0] if lines else ""))
    rows = []
    for n, line in enumerate(lines[1:], 1):
        cols = line.split("\t")
        if len(cols) != 4 or cols[0] != str(n) or cols[1] not in ("hash", "none", "skip"):
            raise RuntimeError("rss-model-dump: bad TSV row %d: %r" % (n, line))
        rows.append(tuple(cols[1:]))
    return rows


def model_matches(exp, got):
    """The model's row against the expectation: hashed or not, hash, queue."""
    if exp[0] == "none":
        return got[0] == "none" and got[2] == "0"
    return got[0] == "hash" and got[1:] == exp[1:]


def judge_file(tshark, rxscale, path, totals, model=None):
    name = os.path.basename(path)
    try:
        recs = run_tshark(tshark, path)
        rows = run_model(model, path) if model else run_rxscale(rxscale, path)
    except RuntimeError as e:
        print("%s: ERROR %s" % (name, e))
        totals["errors"] += 1
        return
    errors = []
    if len(rows) != len(recs):
        errors.append("rxscale printed %d rows, tshark decoded %d frames" %
                      (len(rows), len(recs)))
    skips = collections.Counter()
    mismatches = []
    judged = 0
    for n, rec in enumerate(recs, 1):
        if first(rec, "frame.number") != str(n):
            errors.append("tshark frame numbering breaks at %d" % n)
            break
        try:
            exp = expected_row(rec)
        except Skip as e:
            skips[str(e)] += 1
            continue
        except (ValueError, IndexError, KeyError) as e:
            skips["tshark fields inconsistent (%s)" % type(e).__name__] += 1
            continue
        if n > len(rows):
            continue                    # counted by the row-count check
        if model and rows[n - 1][0] == "skip":
            skips["not taken by the model's MAC (not Ethernet, or too long)"] += 1
            continue
        judged += 1
        if not (model_matches(exp, rows[n - 1]) if model else rows[n - 1] == exp):
            mismatches.append((n, exp, rows[n - 1]))

    print("%s: frames %d, judged %d, skipped %d, mismatches %d" %
          (name, len(recs), judged, sum(skips.values()), len(mismatches)))
    for why, cnt in sorted(skips.items(), key=lambda x: (-x[1], x[0])):
        print("    skipped %5d  %s" % (cnt, why))
    for n, exp, got in mismatches[:MAX_MISMATCH_PRINT]:
        print("    MISMATCH frame %d: expected %s, got %s" %
              (n, "\t".join(exp), "\t".join(got)))
    if len(mismatches) > MAX_MISMATCH_PRINT:
        print("    ... %d more mismatches" %
              (len(mismatches) - MAX_MISMATCH_PRINT))
    for e in errors:
        print("    ERROR %s" % e)
    totals["files"] += 1
    totals["frames"] += len(recs)
    totals["judged"] += judged
    totals["mismatches"] += len(mismatches)
    totals["errors"] += len(errors)
    totals["skip_reasons"].update(skips)


def main(argv):
    model = None
    if len(argv) == 5 and argv[3] == "--model":
        model = argv[4]
    elif len(argv) != 3:
        sys.stderr.write("usage: %s RXSCALE_BINARY PCAP_DIR [--model RSS_MODEL_DUMP]\n"
                         % argv[0])
        return 2
    rxscale, pcap_dir = argv[1], argv[2]
    tshark = shutil.which("tshark")
    if not tshark:
        print("pcap_judge: tshark not found, skipping")
        return 77
    self_test()
    files = sorted(glob.glob(os.path.join(pcap_dir, "*.pcap")) +
                   glob.glob(os.path.join(pcap_dir, "*.pcapng")))
    if not files:
        print("pcap_judge: no *.pcap or *.pcapng in %s" % pcap_dir)
        return 1
    totals = collections.Counter()
    totals["skip_reasons"] = collections.Counter()
    for path in files:
        judge_file(tshark, rxscale, path, totals, model)

    frames, judged = totals["frames"], totals["judged"]
    ratio = judged / frames if frames else 0.0
    print()
    print("TOTAL: %d files, %d frames, judged %d (%.1f%%), skipped %d, "
          "mismatches %d, errors %d" %
          (totals["files"], frames, judged, 100 * ratio, frames - judged,
           totals["mismatches"], totals["errors"]))
    for why, cnt in sorted(totals["skip_reasons"].items(),
                           key=lambda x: (-x[1], x[0])):
        print("    skipped %5d  %s" % (cnt, why))
    ok = (totals["mismatches"] == 0 and totals["errors"] == 0 and
          judged > 0 and ratio >= MIN_JUDGED_RATIO)
    if ratio < MIN_JUDGED_RATIO:
        print("FAIL: judged ratio %.1f%% below %.0f%%" %
              (100 * ratio, 100 * MIN_JUDGED_RATIO))
    print("PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
