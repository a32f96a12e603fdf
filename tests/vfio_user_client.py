# SPDX-License-Identifier: MIT
"""vfio_user_client.py - a small vfio-user client (the VMM's side of the
protocol), written from the protocol specification (QEMU's
docs/devel/vfio-user.rst) for tests: it connects to a server's unix socket,
sends commands with file descriptors as SCM_RIGHTS ancillary data and reads
the replies.  Nothing here is QEMU's or libvfio-user's code.

Every message starts with a 16-byte header, in host byte order:
    u16 message id, u16 command, u32 message size (header included),
    u32 flags (bits 0-3 type: 0 command, 1 reply; bit 4 no reply;
               bit 5 error), u32 errno (in a reply with the error bit).
The client speaks first (VERSION); the server answers each command with a
reply of the same id and command.

The client is deliberately permissive: it will send whatever a test asks
for (wrong sizes, unknown commands, truncated headers) through send_raw()
and request(); a reply with the error bit raises VfioUserError.
"""
import json
import mmap
import os
import select
import socket
import struct

# commands
VERSION = 1
DMA_MAP = 2
DMA_UNMAP = 3
DEVICE_GET_INFO = 4
DEVICE_GET_REGION_INFO = 5
DEVICE_GET_REGION_IO_FDS = 6
DEVICE_GET_IRQ_INFO = 7
DEVICE_SET_IRQS = 8
REGION_READ = 9
REGION_WRITE = 10
DMA_READ = 11
DMA_WRITE = 12
DEVICE_RESET = 13

# header flags
F_TYPE_COMMAND = 0
F_TYPE_REPLY = 1
F_TYPE_MASK = 0xF
F_NO_REPLY = 1 << 4
F_ERROR = 1 << 5

HDR = struct.Struct("=HHIII")           # id, command, size, flags, errno
assert HDR.size == 16

# DEVICE_GET_INFO flags
DEVICE_FLAGS_RESET = 1 << 0
DEVICE_FLAGS_PCI = 1 << 1

# region indices of a PCI device (the VFIO PCI layout)
PCI_BAR0 = 0
PCI_ROM = 6
PCI_CONFIG = 7
PCI_VGA = 8

# region info flags
REGION_READ_F = 1 << 0
REGION_WRITE_F = 1 << 1
REGION_MMAP_F = 1 << 2
REGION_CAPS_F = 1 << 3

# IRQ indices of a PCI device
IRQ_INTX = 0
IRQ_MSI = 1
IRQ_MSIX = 2
IRQ_ERR = 3
IRQ_REQ = 4

# IRQ info flags
IRQ_INFO_EVENTFD = 1 << 0
IRQ_INFO_MASKABLE = 1 << 1
IRQ_INFO_AUTOMASKED = 1 << 2
IRQ_INFO_NORESIZE = 1 << 3

# SET_IRQS flags
IRQ_SET_DATA_NONE = 1 << 0
IRQ_SET_DATA_BOOL = 1 << 1
IRQ_SET_DATA_EVENTFD = 1 << 2
IRQ_SET_ACTION_MASK = 1 << 3
IRQ_SET_ACTION_UNMASK = 1 << 4
IRQ_SET_ACTION_TRIGGER = 1 << 5

# DMA_MAP flags
DMA_READ_F = 1 << 0
DMA_WRITE_F = 1 << 1


class VfioUserError(Exception):
    """The server answered a command with the error bit set."""

    def __init__(self, cmd, err):
        self.cmd = cmd
        self.errno = err
        super().__init__("command %d failed: errno %d (%s)" %
                         (cmd, err, os.strerror(err) if err else "no errno"))


class ConnectionGone(Exception):
    """The server closed the connection (or sent a short message)."""


class Reply:
    def __init__(self, msg_id, cmd, flags, err, payload, fds):
        self.msg_id, self.cmd, self.flags, self.err = msg_id, cmd, flags, err
        self.payload, self.fds = payload, fds

    @property
    def is_error(self):
        return bool(self.flags & F_ERROR)


class Client:
    def __init__(self, path, timeout=10.0):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(timeout)
        self.sock.connect(path)
        self.next_id = 1
        self.server_caps = {}
        self.server_version = None

    def close(self):
        if self.sock:
            self.sock.close()
            self.sock = None

    # ----- framing -----

    def send_raw(self, data, fds=()):
        """Send bytes as they are (and @fds with the first of them)."""
        if fds:
            n = socket.send_fds(self.sock, [data], list(fds))
        else:
            n = self.sock.send(data)
        if n < len(data):
            self.sock.sendall(data[n:])

    def send(self, cmd, payload=b"", fds=(), flags=F_TYPE_COMMAND, size=None,
             msg_id=None):
        """Send one command; @size overrides the header's size field."""
        if msg_id is None:
            msg_id = self.next_id
            self.next_id = (self.next_id + 1) & 0xFFFF
        if size is None:
            size = HDR.size + len(payload)
        self.send_raw(HDR.pack(msg_id, cmd, size, flags, 0) + payload, fds)
        return msg_id

    def _recv_exact(self, n):
        buf = b""
        while len(buf) < n:
            chunk = self.sock.recv(n - len(buf))
            if not chunk:
                raise ConnectionGone("connection closed after %d of %d bytes"
                                     % (len(buf), n))
            buf += chunk
        return buf

    def recv(self):
        """One message from the server: a Reply (commands from the server,
        which this client never invites, are returned the same way)."""
        try:
            data, fds, _flags, _addr = socket.recv_fds(self.sock, HDR.size, 16)
        except ConnectionResetError as e:
            raise ConnectionGone(str(e))
        if not data:
            raise ConnectionGone("connection closed")
        if len(data) < HDR.size:
            data += self._recv_exact(HDR.size - len(data))
        msg_id, cmd, size, flags, err = HDR.unpack(data)
        if size < HDR.size:
            raise ConnectionGone("server sent a message of size %d" % size)
        payload = self._recv_exact(size - HDR.size) if size > HDR.size else b""
        return Reply(msg_id, cmd, flags, err, payload, fds)

    def request(self, cmd, payload=b"", fds=(), **kw):
        """Send a command and wait for its reply; VfioUserError on error."""
        msg_id = self.send(cmd, payload, fds, **kw)
        rep = self.recv()
        if (rep.flags & F_TYPE_MASK) != F_TYPE_REPLY or rep.msg_id != msg_id \
                or rep.cmd != cmd:
            raise ConnectionGone("unexpected message id %d cmd %d flags %#x "
                                 "(waiting for id %d cmd %d)" %
                                 (rep.msg_id, rep.cmd, rep.flags, msg_id, cmd))
        if rep.is_error:
            for fd in rep.fds:
                os.close(fd)
            raise VfioUserError(cmd, rep.err)
        return rep

    def closed_by_server(self, timeout=5.0):
        """True when the server closes the connection within @timeout."""
        r, _, _ = select.select([self.sock], [], [], timeout)
        if not r:
            return False
        try:
            return self.sock.recv(1, socket.MSG_PEEK) == b""
        except (ConnectionResetError, OSError):
            return True

    # ----- commands -----

    def version(self, major=0, minor=1, caps=None):
        """Negotiate; returns (major, minor, server capabilities dict)."""
        if caps is None:
            caps = {"max_msg_fds": 64, "max_data_xfer_size": 1 << 20}
        js = json.dumps({"capabilities": caps}).encode() + b"\0"
        rep = self.request(VERSION, struct.pack("=HH", major, minor) + js)
        smaj, smin = struct.unpack_from("=HH", rep.payload)
        text = rep.payload[4:].rstrip(b"\0").decode()
        self.server_version = (smaj, smin)
        self.server_caps = json.loads(text).get("capabilities", {}) if text else {}
        return smaj, smin, self.server_caps

    def device_info(self):
        """(flags, num_regions, num_irqs)"""
        rep = self.request(DEVICE_GET_INFO, struct.pack("=IIII", 16, 0, 0, 0))
        argsz, flags, nreg, nirq = struct.unpack_from("=IIII", rep.payload)
        return flags, nreg, nirq

    def region_info(self, index):
        """dict(flags, index, cap_offset, size, offset) of region @index"""
        rep = self.request(DEVICE_GET_REGION_INFO,
                           struct.pack("=IIIIQQ", 32, 0, index, 0, 0, 0))
        for fd in rep.fds:
            os.close(fd)
        argsz, flags, idx, capoff, size, off = struct.unpack_from("=IIIIQQ",
                                                                  rep.payload)
        return {"argsz": argsz, "flags": flags, "index": idx,
                "cap_offset": capoff, "size": size, "offset": off}

    def irq_info(self, index):
        """(flags, count) of IRQ type @index"""
        rep = self.request(DEVICE_GET_IRQ_INFO,
                           struct.pack("=IIII", 16, 0, index, 0))
        argsz, flags, idx, count = struct.unpack_from("=IIII", rep.payload)
        return flags, count

    def set_irqs(self, index, flags, start, count, fds=(), data=b""):
        argsz = 20 + len(data)
        self.request(DEVICE_SET_IRQS,
                     struct.pack("=IIIII", argsz, flags, index, start, count) + data,
                     fds)

    def set_irq_eventfds(self, index, fds, start=0):
        self.set_irqs(index, IRQ_SET_DATA_EVENTFD | IRQ_SET_ACTION_TRIGGER,
                      start, len(fds), fds)

    def dma_map(self, addr, size, fd=None, offset=0,
                flags=DMA_READ_F | DMA_WRITE_F):
        self.request(DMA_MAP, struct.pack("=IIQQQ", 32, flags, offset, addr, size),
                     [fd] if fd is not None else ())

    def dma_unmap(self, addr, size, flags=0):
        self.request(DMA_UNMAP, struct.pack("=IIQQ", 24, flags, addr, size))

    def region_read(self, region, offset, count):
        rep = self.request(REGION_READ, struct.pack("=QII", offset, region, count))
        off, reg, n = struct.unpack_from("=QII", rep.payload)
        data = rep.payload[16:]
        if n != count or len(data) != count:
            raise ConnectionGone("region read of %d bytes answered with %d (%d)"
                                 % (count, n, len(data)))
        return data

    def region_write(self, region, offset, data):
        rep = self.request(REGION_WRITE,
                           struct.pack("=QII", offset, region, len(data)) + data)
        off, reg, n = struct.unpack_from("=QII", rep.payload)
        return n

    def reset(self):
        self.request(DEVICE_RESET)

    # little-endian register helpers
    def rd(self, region, offset, size):
        return int.from_bytes(self.region_read(region, offset, size), "little")

    def wr(self, region, offset, size, value):
        self.region_write(region, offset, value.to_bytes(size, "little"))

    def cfg_rd(self, offset, size):
        return self.rd(PCI_CONFIG, offset, size)

    def cfg_wr(self, offset, size, value):
        self.wr(PCI_CONFIG, offset, size, value)


class GuestMemory:
    """Guest RAM for DMA: a memfd mapped shared, handed to the server by
    DMA_MAP; the test reads and writes it through .mem."""

    def __init__(self, size, name="vfio-guest-ram"):
        self.size = size
        self.fd = os.memfd_create(name, os.MFD_CLOEXEC)
        os.ftruncate(self.fd, size)
        self.mem = mmap.mmap(self.fd, size, mmap.MAP_SHARED,
                             mmap.PROT_READ | mmap.PROT_WRITE)

    def close(self):
        self.mem.close()
        os.close(self.fd)

    def put(self, off, data):
        self.mem[off:off + len(data)] = data

    def get(self, off, n):
        return bytes(self.mem[off:off + n])

    def put32(self, off, v):
        self.put(off, struct.pack("<I", v))

    def put64(self, off, v):
        self.put(off, struct.pack("<Q", v))

    def get32(self, off):
        return struct.unpack_from("<I", self.mem, off)[0]

    def get64(self, off):
        return struct.unpack_from("<Q", self.mem, off)[0]


def eventfd_count(fd):
    """The eventfd's counter (read and reset), 0 when it never fired."""
    try:
        return os.eventfd_read(fd)
    except BlockingIOError:
        return 0


def new_eventfd():
    return os.eventfd(0, os.EFD_NONBLOCK | os.EFD_CLOEXEC)

