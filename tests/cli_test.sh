#!/usr/bin/env bash
# cli_test.sh RXSCALE PCAP_DIR - the rxscale command as a user runs it:
# published vectors typed in, capture mode, determinism, and bad input
# (one clear line on stderr, exit status 2, nothing on stdout).
set -u
rx=$1
pcaps=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0

ok()  { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

# expect_hash WANT ARGS...: first line of stdout is WANT
expect_hash() {
	local want=$1; shift
	local got
	got=$("$rx" hash "$@" | head -n 1)
	[ "$got" = "$want" ] && ok || bad "hash $* -> '$got', want $want"
}

# Microsoft RSS verification vectors (src first; the MS table lists dst first)
while read -r dst dport src sport h_ip h_tcp; do
	expect_hash "$h_ip" --src "$src" --dst "$dst" --type ipv4
	expect_hash "$h_tcp" --src "$src" --dst "$dst" --sport "$sport" --dport "$dport" --type tcp4
done <<'V'
161.142.100.80 1766 66.9.149.187 2794 0x323e8fc2 0x51ccc178
65.69.140.83 4739 199.92.111.2 14230 0xd718262a 0xc626b0ea
12.22.207.184 38024 24.19.198.95 12898 0xd2d0a5de 0x5c2b394a
209.142.163.6 2217 38.27.205.30 48228 0x82989176 0xafc7327f
202.188.127.2 1303 153.39.163.191 44251 0x5d1809c5 0x10e828a2
V
while read -r dst dport src sport h_ip h_tcp; do
	expect_hash "$h_ip" --src "$src" --dst "$dst" --type ipv6
	expect_hash "$h_tcp" --src "$src" --dst "$dst" --sport "$sport" --dport "$dport" --type tcp6
done <<'V'
3ffe:2501:200:3::1 1766 3ffe:2501:200:1fff::7 2794 0x2cc18cd5 0x40207d3d
ff02::1 4739 3ffe:501:8::260:97ff:fe40:efab 14230 0x0f0c461c 0xdde51bbf
fe80::200:f8ff:fe21:67cf 38024 3ffe:1900:4545:3:200:f8ff:fe21:67cf 44251 0x4b61e985 0x02d1feef
V
# udp types hash the same tuple as tcp
expect_hash 0x51ccc178 --src 66.9.149.187 --dst 161.142.100.80 --sport 2794 --dport 1766 --type udp4
# symmetric key 6d5a x 20, both directions
symkey=$(printf '6d5a%.0s' $(seq 20))
expect_hash 0x9fcc9fcc --key "$symkey" --src 66.9.149.187 --dst 161.142.100.80 --sport 2794 --dport 1766 --type tcp4
expect_hash 0x9fcc9fcc --key "$symkey" --src 161.142.100.80 --dst 66.9.149.187 --sport 1766 --dport 2794 --type tcp4
# the same key in ethtool's colon form
colkey=$(echo "$symkey" | sed 's/../&:/g; s/:$//')
expect_hash 0x0a590a59 --key "$colkey" --src 66.9.149.187 --dst 161.142.100.80 --type ipv4
# queue line: indir[hash & 127] with 3 queues = (0x78 & 127) % 3 = 0
q=$("$rx" hash --src 66.9.149.187 --dst 161.142.100.80 --sport 2794 --dport 1766 --type tcp4 --queues 3 | sed -n 3p)
[ "$q" = "queue: 0 (indir[120] of 128 entries, 3 queues)" ] && ok || bad "queue line '$q'"

# Capture mode on the demo capture
"$rx" mkpcap "$tmp/a.pcap" >/dev/null && "$rx" mkpcap "$tmp/b.pcap" >/dev/null
cmp -s "$tmp/a.pcap" "$tmp/b.pcap" && ok || bad "mkpcap is not deterministic"
"$rx" hash --pcap "$tmp/a.pcap" >"$tmp/a.tsv" 2>"$tmp/a.err" && ok || bad "hash --pcap demo failed"
"$rx" hash --pcap "$tmp/b.pcap" >"$tmp/b.tsv" 2>"$tmp/b.err"
cmp -s "$tmp/a.tsv" "$tmp/b.tsv" && [ "$(sed 1d "$tmp/a.err")" = "$(sed 1d "$tmp/b.err")" ] && ok || bad "hash --pcap is not deterministic"
[ "$(head -n 1 "$tmp/a.tsv")" = "$(printf 'frame\ttype\thash\tqueue')" ] && ok || bad "TSV header"
[ "$(tail -n +2 "$tmp/a.tsv" | wc -l)" = 89 ] && ok || bad "demo rows != 89"
awk -F'\t' 'NR > 1 && ($1 != NR - 1 || $4 < 0 || $4 > 3) { exit 1 }' "$tmp/a.tsv" && ok || bad "frame numbers/queues"
grep -q "^total	89	" "$tmp/a.err" && ok || bad "summary total: $(cat "$tmp/a.err")"
# UDP rows hash the IP pair by default, the 4-tuple after udp4 sdfn
n_ip=$(awk -F'\t' '$2 == "udp4"' "$tmp/a.tsv" | wc -l)
[ "$n_ip" = 0 ] && ok || bad "default config produced udp4 rows"
"$rx" hash --pcap "$tmp/a.pcap" --rx-flow-hash "udp4 sdfn" >"$tmp/u.tsv" 2>/dev/null
n_u=$(awk -F'\t' '$2 == "udp4"' "$tmp/u.tsv" | wc -l)
[ "$n_u" = 24 ] && ok || bad "udp4 sdfn gave $n_u udp4 rows, want 24"
# a non-power-of-two queue count still uses only valid queues
"$rx" hash --pcap "$tmp/a.pcap" --queues 3 --indir-size 64 2>/dev/null |
	awk -F'\t' 'NR > 1 && $4 > 2 { exit 1 }' && ok || bad "--queues 3"

# Bad input: exit 2, exactly one line on stderr, nothing on stdout.
expect_usage() {
	local what=$1; shift
	"$rx" "$@" >"$tmp/out" 2>"$tmp/err"
	local rc=$?
	if [ $rc -eq 2 ] && [ ! -s "$tmp/out" ] && [ "$(wc -l <"$tmp/err")" = 1 ] &&
	   grep -q '^rxscale: ' "$tmp/err"; then
		ok
	else
		bad "$what: rc=$rc stdout=$(head -c 200 "$tmp/out") stderr=$(cat "$tmp/err")"
	fi
}
printf 'not a capture\n' >"$tmp/text.pcap"
real=$(ls "$pcaps"/*.pcap 2>/dev/null | head -n 1)
# A capture that turns bad part-way: the frames read before the error
# are printed (rows and summary), a 'partial:' line, then the error; exit
# status 4, not 2 (2 means nothing was written; issue 26).
size=$(stat -c %s "$tmp/a.pcap")
head -c $((size - 700)) "$tmp/a.pcap" >"$tmp/trunc.pcap"
"$rx" hash --pcap "$tmp/trunc.pcap" >"$tmp/out" 2>"$tmp/err"
rc=$?
rows=$(tail -n +2 "$tmp/out" | wc -l)
if [ $rc -eq 4 ] && [ "$(head -n 1 "$tmp/out")" = "$(printf 'frame\ttype\thash\tqueue')" ] &&
   [ "$rows" -gt 70 ] && [ "$rows" -lt 89 ] && grep -q "^total	$rows	" "$tmp/err" &&
   grep -q "^partial: the capture turned bad after frame $rows; the rows and this summary cover frames 1-$rows (exit status 4)" "$tmp/err" &&
   [ "$(tail -n 1 "$tmp/err" | grep -c '^rxscale: .*truncated')" = 1 ]; then
	ok
else
	bad "truncated capture: rc=$rc rows=$rows stderr=$(cat "$tmp/err")"
fi

# Frames the snap length cut in their payload keep complete headers: they
# are hashed on them, so one TCP connection's directions each keep one
# queue (zeek-truncated-header.pcap: snap length 54)
if [ -f "$pcaps/zeek-truncated-header.pcap" ]; then
	"$rx" hash --pcap "$pcaps/zeek-truncated-header.pcap" >"$tmp/out" 2>"$tmp/err"
	n_none=$(awk -F'\t' 'NR > 1 && $2 == "none"' "$tmp/out" | wc -l)
	n_q=$(awk -F'\t' 'NR > 1 { print $3, $4 }' "$tmp/out" | sort -u | wc -l)
	[ "$n_none" = 0 ] && [ "$n_q" = 2 ] &&
		grep -q "^frames cut by the snap length: 24, hashed on the headers they kept: 24" "$tmp/err" &&
		ok || bad "snaplen-cut frames: $n_none unhashed, $n_q hash/queue pairs; $(cat "$tmp/err")"
fi

# pcapng with three interfaces: Ethernet, raw IPv4 (snap length 40, so
# its second frame is cut) and BSD loopback (not dissected): the same IP
# packet hashes alike on the first two; the third's frame is counted
python3 - "$tmp/multi.pcapng" <<'PY'
import struct, sys
def blk(t, body):
    body += b"\0" * (-len(body) % 4)
    n = len(body) + 12
    return struct.pack("<II", t, n) + body + struct.pack("<I", n)
def idb(link, snap, opts=b""):
    return blk(1, struct.pack("<HHI", link, 0, snap) + opts)
def epb(ifid, ts, data, orig=None):
    orig = len(data) if orig is None else orig
    return blk(6, struct.pack("<IIIII", ifid, ts >> 32, ts & 0xffffffff, len(data), orig) + data)
def csum(b):
    s = sum(struct.unpack("!%dH" % (len(b) // 2), b))
    while s >> 16:
        s = (s & 0xffff) + (s >> 16)
    return ~s & 0xffff
tcp = struct.pack("!HHIIBBHHH", 2794, 1766, 1, 0, 0x50, 0x10, 65535, 0, 0) + b"x" * 16
ip = bytearray(struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(tcp), 1, 0, 64, 6, 0,
                           bytes([66, 9, 149, 187]), bytes([161, 142, 100, 80])))
ip[10:12] = struct.pack("!H", csum(bytes(ip)))
pkt = bytes(ip) + tcp
eth = b"\x00\xe0\x4c\x68\x00\x01" + b"\x02" * 6 + b"\x08\x00" + pkt
shb = blk(0x0A0D0D0A, struct.pack("<IHHq", 0x1A2B3C4D, 1, 0, -1))
# if_tsresol 9 (ns) on the raw interface
out = shb + idb(1, 65535) + idb(101, 40, struct.pack("<HHB3x", 9, 1, 9) + struct.pack("<HH", 0, 0)) + idb(0, 65535)
out += epb(0, 1000000, eth) + epb(1, 1000000000, pkt) + epb(1, 2000000000, pkt[:40], len(pkt))
out += epb(2, 3000000, b"\x02\x00\x00\x00" + pkt)
open(sys.argv[1], "wb").write(out)
PY
"$rx" hash --pcap "$tmp/multi.pcapng" >"$tmp/out" 2>"$tmp/err"
rc=$?
h=$(awk -F'\t' 'NR > 1 && NR < 5 { print $2, $3 }' "$tmp/out" | sort -u)
if [ $rc -eq 0 ] && [ "$h" = "tcp4 0x51ccc178" ] &&
   [ "$(sed -n 5p "$tmp/out")" = "$(printf '4\tnone\t-\t0')" ] &&
   grep -q "^frames of interfaces with a link type the dissector does not read: 1 (NULL: 1)" "$tmp/err"; then
	ok
else
	bad "multi-interface pcapng: rc=$rc $(cat "$tmp/out" "$tmp/err")"
fi
# Replaying them into the NIC: the Ethernet interface's frame is replayed,
# the other interfaces' frames are counted, not replayed
"$rx" run --pcap "$tmp/multi.pcapng" >"$tmp/out" 2>"$tmp/err"
rc=$?
grep -q "^replay .*: 1 frames over" "$tmp/out" &&
	grep -q "^not replayed: 3 frames of interfaces whose link type is not Ethernet (RAW: 2, NULL: 1)" "$tmp/out" &&
	[ $rc -eq 0 ] && ok || bad "replay of a three-interface pcapng: rc=$rc $(cat "$tmp/out" "$tmp/err" | head -20)"
# a replay that meets a bad record part-way reports what it replayed and
# says the report is partial, then the error; exit status 4 (it was 2,
# which means nothing written); with --json the document's "error" says it
"$rx" run --pcap "$tmp/trunc.pcap" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -eq 4 ] && grep -q "^replay .*trunc.pcap: [0-9]* frames over" "$tmp/out" &&
	grep -q "^partial: the capture turned bad after these [0-9]* frames (.*truncated.*); this report covers them, exit status 4" "$tmp/out" &&
	tail -n 1 "$tmp/err" | grep -q "^rxscale: .*truncated" && ok ||
	bad "replay of a truncated capture: rc=$rc $(head -c 300 "$tmp/out") $(cat "$tmp/err")"
"$rx" run --pcap "$tmp/trunc.pcap" --json >"$tmp/out" 2>/dev/null
rc=$?
[ $rc -eq 4 ] && python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); sys.exit(not ("truncated" in d["error"] and d["replay"]["frames"] > 70))' "$tmp/out" &&
	ok || bad "replay --json of a truncated capture: rc=$rc $(head -c 300 "$tmp/out")"
# zero-length records are counted, not skipped unseen
python3 - "$tmp/a.pcap" "$tmp/zero.pcap" <<'PY'
import struct, sys
d = open(sys.argv[1], "rb").read()
hdr, rec = d[:24], d[24:]
ts, tu, cap, orig = struct.unpack("<IIII", rec[:16])
first = rec[:16 + cap]
open(sys.argv[2], "wb").write(hdr + struct.pack("<IIII", ts, tu, 0, 0) + first +
                              struct.pack("<IIII", ts, tu + 1, 0, 60))
PY
"$rx" run --pcap "$tmp/zero.pcap" >"$tmp/out" 2>"$tmp/err"
[ $? -eq 0 ] && grep -q "^replay .*: 1 frames over" "$tmp/out" &&
	grep -q "^zero-length records: 2 (not replayed)" "$tmp/out" && ok ||
	bad "zero-length records: $(cat "$tmp/out" "$tmp/err" | head -20)"
"$rx" hash --pcap "$tmp/zero.pcap" >/dev/null 2>"$tmp/err"
grep -q "^zero-length records: 2 (rows of type none)" "$tmp/err" && ok ||
	bad "hash: zero-length records: $(cat "$tmp/err")"
# a pcapng block whose lengths disagree (the last one): one error line,
# after the rows before it (a partial report, exit status 4)
python3 -c 'import sys; d=open(sys.argv[1],"rb").read(); open(sys.argv[2],"wb").write(d[:-4]+b"\x00\x01\x00\x00")' "$tmp/multi.pcapng" "$tmp/badlen.pcapng"
"$rx" hash --pcap "$tmp/badlen.pcapng" >/dev/null 2>"$tmp/err"
[ $? -eq 4 ] && [ "$(grep -c '^rxscale: ' "$tmp/err")" = 1 ] && ok || bad "pcapng bad block length: $(cat "$tmp/err")"
# a pcap header with link type 0 (BSD loopback), unsupported
printf '\xd4\xc3\xb2\xa1\x02\x00\x04\x00\x00\x00\x00\x00\x00\x00\x00\x00\xff\xff\x00\x00\x00\x00\x00\x00' >"$tmp/null.pcap"
expect_usage "missing capture" hash --pcap "$tmp/nonexistent.pcap"
expect_usage "directory as capture" hash --pcap "$tmp"
expect_usage "text as capture" hash --pcap "$tmp/text.pcap"
expect_usage "unsupported link type" hash --pcap "$tmp/null.pcap"
expect_usage "odd hex key" hash --pcap "$tmp/a.pcap" --key 6d5
expect_usage "non-hex key" hash --pcap "$tmp/a.pcap" --key 6g5a56da
expect_usage "short key" hash --pcap "$tmp/a.pcap" --key 6d5a56
expect_usage "too long key" hash --pcap "$tmp/a.pcap" --key "$(printf '00%.0s' $(seq 300))"
# the key is the chip's 40 bytes, the rule ethtool -X hkey applies (issue
# 26: 4..256 bytes were taken and zero-extended)
expect_usage "4-byte key" hash --src 1.1.1.1 --dst 2.2.2.2 --type ipv4 --key 6d5a56da
expect_usage "39-byte key" hash --src 1.1.1.1 --dst 2.2.2.2 --type ipv4 --key "$(printf '6d%.0s' $(seq 39))"
expect_usage "41-byte key" hash --src 1.1.1.1 --dst 2.2.2.2 --type ipv4 --key "$(printf '6d%.0s' $(seq 41))"
grep -q "40 bytes" "$tmp/err" && ok || bad "a wrong key length does not say the rule: $(cat "$tmp/err")"
"$rx" run --set run.duration=0.01 --ethtool "-X eth0 hkey $(printf '6d:%.0s' $(seq 38))6d" >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "^Key is too short for device (39 < 40)" "$tmp/err" && ok ||
	bad "-X hkey of 39 bytes: $(cat "$tmp/err")"
expect_usage "queues 0" hash --pcap "$tmp/a.pcap" --queues 0
expect_usage "queues text" hash --pcap "$tmp/a.pcap" --queues four
expect_usage "indir not pow2" hash --pcap "$tmp/a.pcap" --indir-size 100
expect_usage "chip-invalid flow hash" hash --pcap "$tmp/a.pcap" --rx-flow-hash "tcp4 sd"
expect_usage "bad flow letters" hash --pcap "$tmp/a.pcap" --rx-flow-hash "udp4 sdq"
expect_usage "sym-xor with half pair" hash --pcap "$tmp/a.pcap" --xfrm symmetric-xor --rx-flow-hash "udp4 sdf"
expect_usage "bad xfrm" hash --pcap "$tmp/a.pcap" --xfrm crc32
expect_usage "unknown option" hash --pcap "$tmp/a.pcap" --bogus
expect_usage "missing option value" hash --pcap
expect_usage "stray argument" hash --pcap "$tmp/a.pcap" extra
expect_usage "pcap plus tuple" hash --pcap "$tmp/a.pcap" --src 1.2.3.4
expect_usage "bad type" hash --src 1.1.1.1 --dst 2.2.2.2 --type tcp
expect_usage "v6 address for v4 type" hash --src ::1 --dst 2.2.2.2 --type ipv4
expect_usage "missing ports" hash --src 1.1.1.1 --dst 2.2.2.2 --type tcp4
expect_usage "port out of range" hash --src 1.1.1.1 --dst 2.2.2.2 --sport 70000 --dport 1 --type tcp4
expect_usage "no mode" hash
expect_usage "unknown command" frobnicate
expect_usage "mkpcap no file" mkpcap
expect_usage "mkpcap unwritable" mkpcap "$tmp/no/such/dir/x.pcap"
[ ! -e "$tmp/no/such/dir/x.pcap.tmp" ] && ok || bad "mkpcap left a temp file"
expect_usage "mkpcap empty name" mkpcap ""
expect_usage "mkpcap onto a directory" mkpcap "$tmp"
ln -s "$tmp/a.pcap" "$tmp/link.pcap"
expect_usage "mkpcap onto a symlink" mkpcap "$tmp/link.pcap"
[ -L "$tmp/link.pcap" ] && ok || bad "mkpcap replaced a symlink"
expect_usage "mkpcap onto a device" mkpcap /dev/null
[ -c /dev/null ] && ok || bad "mkpcap replaced /dev/null"
expect_usage "flow hash in tuple mode" hash --src 1.1.1.1 --dst 2.2.2.2 --sport 1 --dport 2 --type udp4 --rx-flow-hash "udp4 sd"
expect_usage "ports with an IP-pair type" hash --src 1.1.1.1 --dst 2.2.2.2 --sport 1 --dport 2 --type ipv4
"$rx" hash --pcap "$tmp/a.pcap" --key "$(printf '0%.0s' $(seq 2001))" 2>"$tmp/err" >/dev/null
[ "$(wc -c <"$tmp/err")" -lt 300 ] && ok || bad "a long bad key is echoed whole"
"$rx" hash -h >/dev/null && ok || bad "hash -h"
"$rx" --help >/dev/null && "$rx" hash --help >/dev/null && ok || bad "--help exits non-zero"

# rxscale uml: bad arguments, a socket it cannot create, and a run with no
# guest (it listens, gives up after --seconds, prints its counters)
expect_usage "uml without --socket" uml
expect_usage "uml with an unknown chip" uml --socket "$tmp/u.sock" --chip RTL9999
expect_usage "uml with a bad peer address" uml --socket "$tmp/u.sock" --peer-ip 10.0.0.300
expect_usage "uml with 0 seconds" uml --socket "$tmp/u.sock" --seconds 0
expect_usage "uml with a bad OwnBit delay" uml --socket "$tmp/u.sock" --ownbit-erratum=soon
expect_usage "uml with a stray argument" uml --socket "$tmp/u.sock" extra
"$rx" uml --socket "$tmp/no/such/dir/u.sock" --seconds 1 >/dev/null 2>"$tmp/err"
[ $? -eq 1 ] && grep -q "cannot listen" "$tmp/err" && ok || bad "uml on an impossible socket path"
out=$("$rx" uml --socket "$tmp/u.sock" --seconds 1 --quiet 2>&1)
[ $? -eq 0 ] && echo "$out" | grep -q -- "--seconds 1 reached" &&
	echo "$out" | grep -q "nic0 virt-pci: 0 config reads" && ok || bad "uml with no guest: $out"

# a scenario file's NUL byte: the line it is on (it said :0:)
printf '[run]\nduration = 1\n\0\n' >"$tmp/nul.ini"
expect_usage "a NUL byte in a scenario" run "$tmp/nul.ini"
grep -q "nul.ini:3: a NUL byte" "$tmp/err" && ok || bad "NUL byte line: $(cat "$tmp/err")"

# nic.rx_queues: 0 is automatic (documented with the key), and the run
# header says when the driver set up fewer than asked (issue 26)
"$rx" run --help-keys >"$tmp/keys" 2>&1
grep -A2 "^nic.rx_queues = 0 " "$tmp/keys" | grep -q "0: automatic, one per CPU" && ok ||
	bad "--help-keys: nic.rx_queues: $(grep -A3 rx_queues "$tmp/keys")"
"$rx" run --set nic.rx_queues=8 --set run.duration=0.01 >"$tmp/out" 2>/dev/null
[ "$(head -n 1 "$tmp/out")" = "rxscale run: RTL8127A, 4 RX queues (nic.rx_queues=8 asked; the driver set up 4, its most here), RSS on, 8 CPUs, preset default, seed 1" ] &&
	ok || bad "fewer queues than asked: $(head -n 1 "$tmp/out")"
"$rx" run --set nic.rx_queues=4 --set run.duration=0.01 | head -n 1 | grep -q "^rxscale run: RTL8127A, 4 RX queues, RSS on" &&
	ok || bad "as many queues as asked: the header notes it"

# --json on error: {"error": "..."} on stdout, as iperf3 -J (it wrote
# nothing); the error line on stderr as without --json
for args in "--set nic.chip=RTL9999" "--seed x" "--set host.cpus=0" "--bogus" \
	    "--pcap $tmp/nonexistent.pcap" "--sweep nic.rx_usecs=8,fast" \
	    "--sweep iperf3.streams=0,1 --set run.duration=0.01"; do
	"$rx" run $args --json >"$tmp/out" 2>"$tmp/err"
	rc=$?
	python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); m = open(sys.argv[2]).read(); sys.exit(not (list(d) == ["error"] and m == "rxscale: " + d["error"] + "\n"))' "$tmp/out" "$tmp/err" &&
		[ $rc -eq 2 ] && ok || bad "run $args --json: rc=$rc stdout=$(head -c 200 "$tmp/out") stderr=$(cat "$tmp/err")"
done
# a run that fails after its report: the document carries the error
"$rx" run --set run.duration=0.2 --at 0.1 "-L eth0 rx 9" --json >"$tmp/out" 2>/dev/null
rc=$?
[ $rc -eq 3 ] && python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); sys.exit(not ("timeline" in d["error"] and "end" in d))' "$tmp/out" &&
	ok || bad "a rejected timeline command, --json: rc=$rc $(grep -m1 error "$tmp/out")"
# a successful run has no error; iperf3's own document alone, as the man
# page says to get it (end is a jq keyword)
"$rx" run --set run.duration=0.2 --json >"$tmp/out" 2>/dev/null
python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); sys.exit("error" in d)' "$tmp/out" && ok ||
	bad "a run without error has an error member"
if command -v jq >/dev/null; then
	[ "$(jq -c 'keys' <"$tmp/out" | grep -c '"error"')" = 0 ] &&
		[ "$(jq -c '{start, intervals, "end": .end} | keys' <"$tmp/out")" = '["end","intervals","start"]' ] &&
		ok || bad "jq '{start, intervals, \"end\": .end}'"
fi

# a report that cannot be written is a failure (run exited 0 into a full
# disk before), text and JSON alike
for fmt in "" --json; do
	"$rx" run --set run.duration=0.1 $fmt >/dev/full 2>"$tmp/err"
	[ $? -eq 1 ] && grep -q "cannot write output" "$tmp/err" && ok ||
		bad "run $fmt into a full disk: $(cat "$tmp/err")"
done

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
