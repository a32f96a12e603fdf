# SPDX-License-Identifier: MIT
"""vhost_user_client.py - a small vhost-user front-end that plays User-Mode
Linux's virt-pci (virtio_uml + virtio_pcidev), and a small UML time-travel
client, for tests of `rxscale uml`.  Written from the vhost-user
specification (QEMU's docs/interop/vhost-user.rst), the virtio 1.x split
virtqueue layout, Linux's include/uapi/linux/virtio_pcidev.h and
include/uapi/linux/um_timetravel.h; nothing here is UML's code.

vhost-user: a 12-byte header (u32 request, u32 flags = version 1 | bit 2
reply | bit 3 need-reply, u32 payload size), the payload, file descriptors
as SCM_RIGHTS.  With REPLY_ACK negotiated every request without its own
reply asks for an ack (a u64 status), as virtio_uml does.

virt-pci: queue 0 "cmd" carries {u8 op; u8 bar; u16 reserved; u32 size;
u64 addr;} (+ data for writes) in a device-readable buffer, and a
device-writable buffer for a read's answer; queue 1 "irq" holds buffers
the device fills with MSI/INT/PME messages.

time-travel: {u32 op; u32 seq; u64 time} both ways, every message ACKed
with the same seq.

The client is deliberately permissive: send_raw() sends any bytes with any
descriptors, and the ring helpers put whatever a test asks into the rings
(descriptors outside the memory table, loops, bad indices).
"""
import array
import mmap
import os
import select
import socket
import struct
import time

# vhost-user requests
GET_FEATURES = 1
SET_FEATURES = 2
SET_OWNER = 3
SET_MEM_TABLE = 5
SET_VRING_NUM = 8
SET_VRING_ADDR = 9
SET_VRING_BASE = 10
GET_VRING_BASE = 11
SET_VRING_KICK = 12
SET_VRING_CALL = 13
GET_PROTOCOL_FEATURES = 15
SET_PROTOCOL_FEATURES = 16
GET_QUEUE_NUM = 17
SET_VRING_ENABLE = 18
SET_SLAVE_REQ_FD = 21
VRING_KICK = 35
SLAVE_VRING_CALL = 4

VERSION = 1
F_REPLY = 1 << 2
F_NEED_REPLY = 1 << 3

# virtio features and vhost-user protocol features
F_INDIRECT_DESC = 28
F_EVENT_IDX = 29
F_PROTOCOL_FEATURES = 30
F_VERSION_1 = 32
PF_REPLY_ACK = 3
PF_SLAVE_REQ = 5
PF_CONFIG = 9
PF_INBAND_NOTIFICATIONS = 14

# split ring descriptor flags
DESC_NEXT = 1
DESC_WRITE = 2
DESC_INDIRECT = 4

# virt-pci ops
OP_CFG_READ = 1
OP_CFG_WRITE = 2
OP_MMIO_READ = 3
OP_MMIO_WRITE = 4
OP_MMIO_MEMSET = 5
OP_INT = 6
OP_MSI = 7
OP_PME = 8

# time-travel ops
TT_ACK, TT_START, TT_REQUEST, TT_WAIT, TT_GET, TT_UPDATE, TT_RUN = range(7)
TT_FREE_UNTIL, TT_GET_TOD, TT_BROADCAST = 7, 8, 9

HDR = struct.Struct("<III")
VPCI = struct.Struct("<BBHIQ")
TT = struct.Struct("=IIQ")

# guest memory: one region, guest physical GPA_BASE.., front-end user
# addresses UA_BASE.. (ring addresses), at MEM_OFF in the memfd
GPA_BASE = 0x40000000
UA_BASE = 0x7F1200000000
MEM_SIZE = 2 << 20
MEM_OFF = 4096
QN = 64                                 # ring size of both queues
DATA_BASE = GPA_BASE + 0x10000          # buffers for chains
IRQ_BUFS = 10                           # as virtio_pcidev posts


class ProtocolError(Exception):
    pass


def connect(path, timeout):
    """A unix stream socket connected to path, retried until the server
    listens (at most timeout seconds)."""
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    deadline = time.monotonic() + timeout
    while True:
        try:
            sock.connect(path)
            return sock
        except (FileNotFoundError, ConnectionRefusedError):
            if time.monotonic() > deadline:
                sock.close()
                raise
            time.sleep(0.05)


class Frontend:
    """A vhost-user front-end with guest memory in a memfd and the two
    virt-pci queues, in-band notifications by default (as UML under
    time-travel=ext) or eventfd kicks/calls."""

    def __init__(self, path, inband=True, event_idx=True, timeout=5.0,
                 connect_timeout=10.0):
        self.timeout = timeout
        self.inband = inband
        self.want_event_idx = event_idx
        self.sock = connect(path, connect_timeout)
        self.memfd = os.memfd_create("vhost-guest")
        os.ftruncate(self.memfd, MEM_OFF + MEM_SIZE)
        self.mem = mmap.mmap(self.memfd, MEM_OFF + MEM_SIZE)
        self.proto = 0
        self.features = 0
        self.req_sock = None                # our end of the back-end channel
        self.kick_fd = [None, None]
        self.call_fd = [None, None]
        self.avail_idx = [0, 0]
        self.used_seen = [0, 0]
        self.free = [list(range(QN)), list(range(QN))]
        self.inflight = [{}, {}]            # head -> (descs, reply gpa, len)
        self.calls = [0, 0]
        self.irq_msgs = []

    # ----- memory -----
    def h(self, gpa):
        return MEM_OFF + (gpa - GPA_BASE)

    def wr(self, gpa, data):
        o = self.h(gpa)
        self.mem[o:o + len(data)] = data

    def rd(self, gpa, n):
        o = self.h(gpa)
        return bytes(self.mem[o:o + n])

    def u16(self, gpa):
        return struct.unpack("<H", self.rd(gpa, 2))[0]

    @staticmethod
    def q_desc(q):
        return GPA_BASE + q * 0x4000

    def q_avail(self, q):
        return self.q_desc(q) + 0x1000

    def q_used(self, q):
        return self.q_desc(q) + 0x2000

    @staticmethod
    def ua(gpa):
        return UA_BASE + (gpa - GPA_BASE)

    # ----- messages -----
    def send_raw(self, data, fds=()):
        anc = []
        if fds:
            anc = [(socket.SOL_SOCKET, socket.SCM_RIGHTS, array.array("i", fds))]
        self.sock.sendmsg([data], anc)

    def send(self, req, payload=b"", fds=(), flags=VERSION):
        self.send_raw(HDR.pack(req, flags, len(payload)) + payload, fds)

    def recv_exact(self, sock, n, timeout=None):
        buf = b""
        deadline = time.monotonic() + (self.timeout if timeout is None else timeout)
        while len(buf) < n:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([sock], [], [], left)[0]:
                raise TimeoutError("no reply within %.1f s" % self.timeout)
            chunk = sock.recv(n - len(buf))
            if not chunk:
                raise ConnectionResetError("the back-end closed the connection")
            buf += chunk
        return buf

    def reply(self, req):
        r, fl, sz = HDR.unpack(self.recv_exact(self.sock, 12))
        pl = self.recv_exact(self.sock, sz) if sz else b""
        if r != req or fl != VERSION | F_REPLY:
            raise ProtocolError("reply %u flags 0x%x to request %u" % (r, fl, req))
        return pl

    def get_u64(self, req):
        self.send(req)
        pl = self.reply(req)
        if len(pl) != 8:
            raise ProtocolError("reply of %d bytes" % len(pl))
        return struct.unpack("<Q", pl)[0]

    def req(self, req, payload=b"", fds=()):
        """A request without a reply of its own: with REPLY_ACK, wait for
        the ack and raise on a non-zero status."""
        ack = bool(self.proto & (1 << PF_REPLY_ACK))
        self.send(req, payload, fds, VERSION | (F_NEED_REPLY if ack else 0))
        if ack:
            st = struct.unpack("<Q", self.reply(req))[0]
            if st:
                raise ProtocolError("request %u: status %u" % (req, st))

    def state(self, req, idx, num):
        self.req(req, struct.pack("<II", idx, num))

    # ----- negotiation (virtio_uml's order) -----
    def negotiate(self):
        self.req(SET_OWNER)
        f = self.get_u64(GET_FEATURES)
        pf = self.get_u64(GET_PROTOCOL_FEATURES)
        keep = (1 << PF_REPLY_ACK) | (1 << PF_SLAVE_REQ) | (1 << PF_CONFIG)
        if self.inband:
            keep |= 1 << PF_INBAND_NOTIFICATIONS
        self.proto = pf & keep
        # in-band notifications only where offered, eventfds otherwise
        self.inband = bool(self.proto & (1 << PF_INBAND_NOTIFICATIONS))
        self.req(SET_PROTOCOL_FEATURES, struct.pack("<Q", self.proto))
        a, b = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        self.req_sock = a
        self.req(SET_SLAVE_REQ_FD, b"", [b.fileno()])
        b.close()
        want = (1 << F_VERSION_1) | (1 << F_PROTOCOL_FEATURES) | (1 << F_INDIRECT_DESC)
        if self.want_event_idx:
            want |= 1 << F_EVENT_IDX
        self.features = f & want
        self.req(SET_FEATURES, struct.pack("<Q", self.features))
        self.req(SET_MEM_TABLE,
                 struct.pack("<II", 1, 0) +
                 struct.pack("<QQQQ", GPA_BASE, MEM_SIZE, UA_BASE, MEM_OFF),
                 [self.memfd])
        for q in (0, 1):
            if not self.inband:
                rd, wr = os.pipe2(os.O_NONBLOCK | os.O_CLOEXEC)
                self.call_fd[q] = rd
                self.req(SET_VRING_CALL, struct.pack("<Q", q), [wr])
                os.close(wr)
            self.state(SET_VRING_NUM, q, QN)
            self.state(SET_VRING_BASE, q, 0)
            self.req(SET_VRING_ADDR, struct.pack(
                "<IIQQQQ", q, 0, self.ua(self.q_desc(q)), self.ua(self.q_used(q)),
                self.ua(self.q_avail(q)), 0))
        for q in (0, 1):
            if not self.inband:
                self.kick_fd[q] = os.eventfd(0, os.EFD_NONBLOCK | os.EFD_CLOEXEC)
                self.req(SET_VRING_KICK, struct.pack("<Q", q), [self.kick_fd[q]])
            self.state(SET_VRING_ENABLE, q, 1)

    @property
    def event_idx(self):
        return bool(self.features & (1 << F_EVENT_IDX))

    # ----- rings -----
    def set_desc(self, table, i, addr, ln, flags, nxt=0):
        self.wr(table + 16 * i, struct.pack("<QIHH", addr, ln, flags, nxt))

    def publish(self, q, head):
        a = self.q_avail(q)
        idx = self.avail_idx[q]
        self.wr(a + 4 + 2 * (idx % QN), struct.pack("<H", head))
        self.avail_idx[q] = (idx + 1) & 0xFFFF
        self.wr(a + 2, struct.pack("<H", self.avail_idx[q]))

    def kick(self, q):
        if self.kick_fd[q] is not None:
            os.eventfd_write(self.kick_fd[q], 1)
        else:
            self.state(VRING_KICK, q, 0)

    def used(self, q):
        """Take the next used entry of queue q: (id, len) or None; with
        EVENT_IDX, publish used_event as Linux's virtio_ring does."""
        u = self.q_used(q)
        if self.u16(u + 2) == self.used_seen[q]:
            return None
        i, ln = struct.unpack("<II", self.rd(u + 4 + 8 * (self.used_seen[q] % QN), 8))
        self.used_seen[q] = (self.used_seen[q] + 1) & 0xFFFF
        if self.event_idx:
            self.wr(self.q_avail(q) + 4 + 2 * QN, struct.pack("<H", self.used_seen[q]))
        return i, ln

    def add_chain(self, q, segs):
        """segs: [(gpa, len, writable)].  Returns the head."""
        if len(self.free[q]) < len(segs):
            self.reap(q)
        if len(self.free[q]) < len(segs):
            raise ProtocolError("queue %u: no free descriptors" % q)
        ds = [self.free[q].pop(0) for _ in segs]
        for k, (gpa, ln, w) in enumerate(segs):
            fl = (DESC_WRITE if w else 0) | (DESC_NEXT if k + 1 < len(segs) else 0)
            self.set_desc(self.q_desc(q), ds[k], gpa, ln, fl,
                          ds[k + 1] if k + 1 < len(segs) else 0)
        self.inflight[q][ds[0]] = ds
        self.publish(q, ds[0])
        return ds[0]

    def reap(self, q):
        """Take every used entry of queue q; returns {head: len}."""
        got = {}
        while True:
            e = self.used(q)
            if e is None:
                return got
            head, ln = e
            ds = self.inflight[q].pop(head, None)
            if ds is None:
                raise ProtocolError("queue %u: used id %u is not in flight" % (q, head))
            self.free[q].extend(ds)
            got[head] = ln

    def wait_used(self, q, head, timeout=None):
        deadline = time.monotonic() + (self.timeout if timeout is None else timeout)
        while True:
            got = self.reap(q)
            if head in got:
                return got[head]
            if time.monotonic() > deadline:
                raise TimeoutError("queue %u: chain %u not completed" % (q, head))
            time.sleep(0.001)

    # ----- virt-pci -----
    def _slot(self, head):
        return DATA_BASE + 64 * head

    def cmd(self, op, bar, size, addr, data=b"", reply_len=0, wait=True):
        """One virt-pci command: header + data in one device-readable
        buffer, a device-writable one of reply_len bytes.  With wait,
        returns the reply bytes (the device's written length checked)."""
        out = VPCI.pack(op, bar, 0, size, addr) + data
        if len(out) > 48 or reply_len > 16:
            raise ValueError("command too large for a slot")
        head = self.free[0][0] if self.free[0] else None
        if head is None:
            self.reap(0)
            head = self.free[0][0]
        slot = self._slot(head)
        self.wr(slot, out)
        segs = [(slot, len(out), False)]
        if reply_len:
            self.wr(slot + 48, b"\x5a" * reply_len)
            segs.append((slot + 48, reply_len, True))
        got = self.add_chain(0, segs)
        assert got == head
        self.kick(0)
        if not wait:
            return None
        ln = self.wait_used(0, head)
        if ln != reply_len:
            raise ProtocolError("command op %u: %u bytes written, expected %u" %
                                (op, ln, reply_len))
        return self.rd(slot + 48, reply_len) if reply_len else b""

    def cfg_read(self, off, size):
        return int.from_bytes(self.cmd(OP_CFG_READ, 0, size, off, reply_len=size),
                              "little")

    def cfg_write(self, off, size, val):
        self.cmd(OP_CFG_WRITE, 0, size, off, val.to_bytes(size, "little"))

    def mmio_read(self, bar, off, size):
        return int.from_bytes(self.cmd(OP_MMIO_READ, bar, size, off, reply_len=size),
                              "little")

    def mmio_write(self, bar, off, size, val, wait=True):
        self.cmd(OP_MMIO_WRITE, bar, size, off, val.to_bytes(size, "little"),
                 wait=wait)

    def post_irq_bufs(self, n=IRQ_BUFS):
        base = DATA_BASE + 64 * QN
        for i in range(n):
            self.add_chain(1, [(base + 32 * i, 20, True)])
        self.kick(1)

    def irq_poll(self):
        """Messages the device put into irq buffers since the last call,
        recycling each buffer (as virtio_pcidev does): [(op, addr, data)]."""
        base = DATA_BASE + 64 * QN
        out = []
        while True:
            e = self.used(1)
            if e is None:
                break
            head, ln = e
            ds = self.inflight[1].pop(head)
            self.free[1].extend(ds)
            gpa = base + 32 * (head % IRQ_BUFS)
            op, _bar, _r, size, addr = VPCI.unpack(self.rd(gpa, 16))
            data = int.from_bytes(self.rd(gpa + 16, 4), "little") if size == 4 else 0
            out.append((op, addr, data))
            self.add_chain(1, [(gpa, 20, True)])
        if out:
            self.kick(1)
        self.irq_msgs += out
        return out

    def take_calls(self, answer=True):
        """Read in-band calls on the back-end channel; answer those that
        ask for a reply.  Returns the queue indexes called."""
        qs = []
        self.req_sock.setblocking(False)
        try:
            while True:
                try:
                    hdr = self.req_sock.recv(12, socket.MSG_PEEK)
                except BlockingIOError:
                    break
                if len(hdr) < 12:
                    break
                r, fl, sz = HDR.unpack(self.recv_exact(self.req_sock, 12))
                pl = self.recv_exact(self.req_sock, sz) if sz else b""
                if r != SLAVE_VRING_CALL or sz != 8:
                    raise ProtocolError("back-end request %u size %u" % (r, sz))
                q = struct.unpack("<II", pl)[0]
                qs.append(q)
                self.calls[q] += 1
                if answer and fl & F_NEED_REPLY:
                    self.req_sock.sendall(HDR.pack(r, VERSION | F_REPLY, 8) +
                                          struct.pack("<Q", 0))
        finally:
            self.req_sock.setblocking(True)
        return qs

    def close(self):
        for fd in self.kick_fd + self.call_fd:
            if fd is not None:
                os.close(fd)
        self.kick_fd = [None, None]
        self.call_fd = [None, None]
        if self.req_sock:
            self.req_sock.close()
            self.req_sock = None
        self.sock.close()
        self.mem.close()
        os.close(self.memfd)


class TimeClient:
    """A UML time-travel client (time-travel=ext:ID:PATH)."""

    def __init__(self, path, connect_timeout=10.0, timeout=10.0):
        self.timeout = timeout
        self.sock = connect(path, connect_timeout)
        self.seq = 0
        self.now = 0
        self.runs = 0

    def send(self, op, seq, t):
        self.sock.sendall(TT.pack(op, seq, t))

    def recv(self, timeout=None):
        buf = b""
        deadline = time.monotonic() + (self.timeout if timeout is None else timeout)
        while len(buf) < TT.size:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self.sock], [], [], left)[0]:
                raise TimeoutError("no time-travel message")
            data, anc, _fl, _a = self.sock.recvmsg(TT.size - len(buf),
                                                    socket.CMSG_SPACE(16))
            for lvl, typ, cdata in anc:
                if lvl == socket.SOL_SOCKET and typ == socket.SCM_RIGHTS:
                    for fd in array.array("i", cdata[:len(cdata) - len(cdata) % 4]):
                        os.close(fd)
            if not data:
                raise ConnectionResetError("the controller closed the socket")
            buf += data
        return TT.unpack(buf)

    def request(self, op, t=0):
        """Send op and wait for its ACK (handling a RUN meanwhile)."""
        self.seq += 1
        self.send(op, self.seq, t)
        while True:
            mop, mseq, mt = self.recv()
            if mop == TT_ACK:
                if mseq != self.seq:
                    raise ProtocolError("ACK seq %u for %u" % (mseq, self.seq))
                if op == TT_GET:
                    self.now = mt
                return mt
            self.handle(mop, mseq, mt)

    def handle(self, op, seq, t):
        if op == TT_RUN:
            self.now = t
            self.runs += 1
        elif op not in (TT_FREE_UNTIL, TT_BROADCAST):
            raise ProtocolError("unexpected time-travel op %u" % op)
        self.send(TT_ACK, seq, 0)
        return op

    def start(self, ident):
        return self.request(TT_START, ident)

    def wait_run(self, until_ns, fe=None):
        """Sleep until until_ns: REQUEST it and WAIT until RUN; an in-band
        call (fe) meanwhile is taken as UML does (GET, REQUEST now, the
        answer), runs at its time, and the sleep goes on.  Returns the
        time of the last RUN."""
        deadline = time.monotonic() + self.timeout
        while True:
            self.request(TT_REQUEST, until_ns)
            self.request(TT_WAIT, 2**64 - 1)
            while True:
                socks = [self.sock] + ([fe.req_sock] if fe and fe.req_sock else [])
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError("no RUN")
                r = select.select(socks, [], [], left)[0]
                if fe and fe.req_sock in r:
                    self.request(TT_GET)
                    self.request(TT_REQUEST, self.now)
                    fe.take_calls()
                    continue
                if self.sock in r:
                    op, seq, t = self.recv()
                    if self.handle(op, seq, t) == TT_RUN:
                        break
            if self.now >= until_ns:
                return self.now

    def close(self):
        self.sock.close()
