#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""vfio_guest_test.py RXSCALE - rxscale vfio-user against an independent
vfio-user client (tests/vfio_user_client.py) that plays first a correct
guest, then a misbehaving one.

Each session starts `RXSCALE vfio-user --socket TMP --seconds 60 [--quiet]`,
talks to it and checks its exit and its report (the counters must match
what the session did, exactly):

  identity   (RTL8127A, RTL8125B, RTL8126A): VERSION, DEVICE_GET_INFO;
             config space 10ec:<device>, class 020000; each BAR's type
             and size (sizing through config space) against its region
             info; the MSI, PCIe and MSI-X capabilities, the MSI-X table
             size against the IRQ info; reset values of IDR0-5, MAC0/4,
             TxConfig (XID), ChipCmd, PHYstatus' link bit through
             REGION_READ on the MMIO BAR;
  dma        guest RAM in a memfd (DMA_MAP, above 4 GiB), an eventfd per
             MSI-X vector (SET_IRQS), bus master + MSI-X enable; one RX
             and one TX ring programmed the way the driver does; an ARP
             request sent through the TX ring, the responder's reply
             checked byte for byte (FCS included) in the RX ring, the RX
             and TX vectors' eventfds fired exactly once each, ISR_V2, the
             tally dump; then DMA a guest gets wrong (a tally dump outside
             every region and into a region mapped read-only, a TX buffer
             across the end of guest RAM, a TX ring outside it, a tally
             dump into RAM after one DMA_UNMAP of RAM mapped twice): DMA
             errors, TxErr interrupts, nothing written; the client
             vanishes without DMA_UNMAP of the rest;
  protocol   bad accesses (beyond a BAR's end, straddling it, a huge
             offset or count, a config access outside config space, no
             such region, a write whose count disagrees with its data)
             and malformed messages (unknown command, header size below
             the header, absurdly large, a reply sent as a command, no
             payload, a second VERSION, bad SET_IRQS, unmapping what was
             never mapped, bad info indices, with and without No_reply):
             each answered with an error of its own message id, the
             server still in step after it, each one guest error (the
             count and the log lines); it ends with a truncated header;
  sigterm    SIGTERM while a client is connected (and has left half a
             message in the socket): clean exit with the report;
  version    a first message that is not VERSION: refused, the server
             reports the failed attach and exits 1;
  seconds    no client at all: --seconds ends it.
"""
import errno
import os
import re
import select
import signal
import struct
import subprocess
import sys
import tempfile
import time
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import guest_session as gs  # noqa: E402
import vfio_user_client as vu  # noqa: E402
from guest_session import check, eq  # noqa: E402

RXSCALE = None
TMP = None

# chips: name -> (PCI device id, XID, RX vector of queue 0, TX vector of
# queue 0) from src/hw/rtl_chips.c
CHIPS = {
    "RTL8127A": (0x8127, 0x6c9, 0, 8),
    "RTL8125B": (0x8125, 0x641, 0, 0),
    "RTL8126A": (0x8126, 0x64a, 0, 0),
}
MAC = bytes.fromhex("00e04c680001")         # the model's nic0
PEER_MAC = bytes.fromhex("020000000002")    # the responder (cli_vfio.c)
GUEST_IP = bytes([10, 0, 0, 1])
PEER_IP = bytes([10, 0, 0, 2])

# registers (src/hw/rtl_regs.def, rtl_defines.h, rtl_desc.h)
MAC0, MAC4, CounterAddrLow, CounterAddrHigh = 0x00, 0x04, 0x10, 0x14
TxDescStartAddrLow, TxDescStartAddrHigh = 0x20, 0x24
INT_CFG0_8125, ChipCmd, TxConfig, RxConfig = 0x34, 0x37, 0x40, 0x44
PHYstatus, TxPoll_8125, CFG_D8, RxMaxSize, CPlusCmd = 0x6C, 0x90, 0xD8, 0xDA, 0xE0
RxDescAddrLow, RxDescAddrHigh = 0xE4, 0xE8
ISR_V2_8125, IMR_V2_SET_REG_8125, Q_NUM_CTRL_8125 = 0x0D04, 0x0D0C, 0x4800
UNKNOWN_REG = 0x3000                        # no row of rtl_regs.def
CMD_TE, CMD_RE = 1 << 2, 1 << 3
RXCFG_ACCEPT = 0xF                          # AAP | APM | AM | AB
CPCMD_RX_CSUM = 1 << 5
COUNTER_DUMP = 1 << 3
DESC_OWN, DESC_EOR, FS, LS = 1 << 31, 1 << 30, 1 << 29, 1 << 28
PHY_LINK = 1 << 1
BAR_MMIO, BAR_MSIX, BAR_MMIO_SIZE, BAR_MSIX_SIZE = 2, 4, 0x10000, 0x4000
BAR_IO, BAR_IO_SIZE = 0, 0x100
# PCI
PCI_COMMAND, PCI_STATUS = 0x04, 0x06
CMD_MEMORY, CMD_MASTER, CMD_INTX_DIS = 0x2, 0x4, 0x400
CAP_MSI, CAP_EXP, CAP_MSIX = 0x05, 0x10, 0x11
MSIX_ENABLE = 0x8000

REPORT = re.compile(
    r"nic0 vfio-user: (\d+) config reads, (\d+) config writes, (\d+) MMIO reads, "
    r"(\d+) MMIO writes, (\d+) interrupts, (\d+) not delivered, (\d+) DMA regions "
    r"mapped, (\d+) guest errors, (\d+) DMA errors")
REPORT_KEYS = ("cfg_reads", "cfg_writes", "mmio_reads", "mmio_writes", "irqs",
               "irq_errors", "dma_maps", "guest_errors", "dma_errors")
NIC = re.compile(r"nic0: (\d+) frames sent, (\d+) offered to it, (\d+) received "
                 r"into the rings, (\d+) RX drops")
PEER = re.compile(r"peer: (\d+) ARP replies, (\d+) echo replies, (\d+) ignored, "
                  r"(\d+) malformed")


def hx(v):
    return "0x%x" % v


class Server(gs.Server):
    """rxscale vfio-user on a fresh socket."""
    n = 0

    def __init__(self, args=(), quiet=True, seconds=60):
        Server.n += 1
        self.sock = os.path.join(TMP, "s%d.sock" % Server.n)
        cmd = [RXSCALE, "vfio-user", "--socket", self.sock,
               "--seconds", str(seconds)] + list(args)
        if quiet:
            cmd.append("--quiet")
        super().__init__(cmd)
        self.ready = self._line(10)

    def _line(self, timeout):
        r, _, _ = select.select([self.p.stdout], [], [], timeout)
        return self.p.stdout.readline().decode() if r else ""

    def counters(self):
        return super().counters(REPORT, REPORT_KEYS, "vfio-user")


class Guest(vu.Client):
    """The client, counting the accesses the server should count."""

    def __init__(self, path):
        super().__init__(path, timeout=10)
        self.n = dict(cfg_reads=0, cfg_writes=0, mmio_reads=0, mmio_writes=0)

    def _count(self, region, write):
        if region == vu.PCI_CONFIG:
            self.n["cfg_writes" if write else "cfg_reads"] += 1
        elif region in (BAR_MMIO, BAR_MSIX):
            self.n["mmio_writes" if write else "mmio_reads"] += 1

    def region_read(self, region, offset, count):
        data = super().region_read(region, offset, count)
        self._count(region, False)
        return data

    def region_write(self, region, offset, data):
        n = super().region_write(region, offset, data)
        self._count(region, True)
        return n

    def mrd(self, off, size):
        return self.rd(BAR_MMIO, off, size)

    def mwr(self, off, size, v):
        self.wr(BAR_MMIO, off, size, v)


def verbose(srv):
    if os.environ.get("VFIO_GUEST_VERBOSE"):
        print("  --- server stdout ---\n  " + srv.out.strip().replace("\n", "\n  "))


def expect_counters(srv, g, what, **want):
    verbose(srv)
    got = srv.counters()
    full = dict(irqs=0, irq_errors=0, dma_maps=0, guest_errors=0, dma_errors=0)
    full.update(g.n if g else {})
    full.update(want)
    for k in REPORT_KEYS:
        if k in full:
            eq(got[k], full[k], "%s: report %s" % (what, k))
    return got


def capabilities(g):
    """{capability id: config offset} from the standard list."""
    caps, pos = {}, g.cfg_rd(0x34, 1) & 0xFC
    for _ in range(48):
        if not pos:
            break
        caps.setdefault(g.cfg_rd(pos, 1), pos)
        pos = g.cfg_rd(pos + 1, 1) & 0xFC
    return caps


# ----------------------------------------------------------------------
def session_identity(chip):
    dev, xid = CHIPS[chip][:2]
    what = "identity " + chip
    srv = Server(["--chip", chip] if chip != "RTL8127A" else [])
    check("%s (10ec:%04x" % (chip, dev) in srv.ready,
          "%s: ready line %r" % (what, srv.ready))
    g = Guest(srv.sock)
    try:
        major, minor, caps = g.version()
        eq(major, 0, what + ": VERSION major")
        check(minor <= 1, "%s: VERSION minor %d > proposed 1" % (what, minor))
        check(isinstance(caps.get("max_msg_fds"), int) and caps["max_msg_fds"] >= 1,
              "%s: server capabilities %r" % (what, caps))
        flags, nreg, nirq = g.device_info()
        eq(flags, vu.DEVICE_FLAGS_RESET | vu.DEVICE_FLAGS_PCI, what + ": device flags")
        check(nreg > vu.PCI_VGA, "%s: %d regions" % (what, nreg))
        check(nirq > vu.IRQ_MSIX, "%s: %d IRQ types" % (what, nirq))

        # configuration space header
        eq(hx(g.cfg_rd(0x00, 4)), hx(dev << 16 | 0x10EC), what + ": vendor:device")
        eq(hx(g.cfg_rd(0x08, 4) >> 8), hx(0x020000), what + ": class code")
        eq(g.cfg_rd(0x0E, 1) & 0x7F, 0, what + ": header type")
        check(g.cfg_rd(PCI_STATUS, 2) & 0x10, what + ": status has no capability list")
        check(g.cfg_rd(0x3D, 1) != 0, what + ": no interrupt pin")
        cfg = g.region_info(vu.PCI_CONFIG)
        eq(cfg["size"], 4096, what + ": config region size")
        eq(cfg["flags"], vu.REGION_READ_F | vu.REGION_WRITE_F, what + ": config region flags")

        # BARs: type and size (sizing through config space) = region info
        raw, mask = [], []
        for b in range(6):
            off = 0x10 + 4 * b
            v = g.cfg_rd(off, 4)
            g.cfg_wr(off, 4, 0xFFFFFFFF)
            mask.append(g.cfg_rd(off, 4))
            g.cfg_wr(off, 4, v)
            eq(hx(g.cfg_rd(off, 4)), hx(v), "%s: BAR%d restored" % (what, b))
            raw.append(v)
        info = [g.region_info(b) for b in range(6)]
        b = 0
        while b < 6:
            if raw[b] & 1:                              # I/O
                size = (~(mask[b] & ~0x3) + 1) & 0xFFFFFFFF
                eq(b, BAR_IO, "%s: I/O BAR" % what)
                eq(hx(size), hx(BAR_IO_SIZE), "%s: BAR%d I/O size" % (what, b))
                eq(hx(info[b]["size"]), hx(size), "%s: region %d size" % (what, b))
                b += 1
            elif mask[b] == 0:                          # unimplemented
                eq(info[b]["size"], 0, "%s: region %d (no BAR) size" % (what, b))
                b += 1
            else:                                       # memory
                eq(raw[b] & 0x6, 0x4, "%s: BAR%d is not 64-bit memory" % (what, b))
                m64 = mask[b] | mask[b + 1] << 32
                size = (~(m64 & ~0xF) + 1) & (2 ** 64 - 1)
                eq(hx(info[b]["size"]), hx(size), "%s: region %d size" % (what, b))
                eq(info[b + 1]["size"], 0, "%s: region %d (upper half) size" % (what, b + 1))
                eq(hx(size), hx({BAR_MMIO: BAR_MMIO_SIZE, BAR_MSIX: BAR_MSIX_SIZE}.get(b, 0)),
                   "%s: BAR%d size" % (what, b))
                b += 2
        for r in info:
            if r["size"]:
                eq(r["flags"], vu.REGION_READ_F | vu.REGION_WRITE_F,
                   "%s: region %d flags (read/write, trapped, no mmap)" % (what, r["index"]))
        eq([hx(r & 0xF) for r in raw], ["0x1", "0x0", "0x4", "0x0", "0x4", "0x0"],
           what + ": BAR types (I/O, -, 64-bit MMIO, upper, 64-bit MSI-X, upper)")
        eq(g.cfg_rd(0x30, 4), 0, what + ": expansion ROM BAR")
        eq(g.region_info(vu.PCI_ROM)["size"], 0, what + ": ROM region size")

        # capabilities
        caps = capabilities(g)
        for cid, name in ((CAP_MSI, "MSI"), (CAP_EXP, "PCIe"), (CAP_MSIX, "MSI-X")):
            check(cid in caps, "%s: no %s capability (list %r)" % (what, name, caps))
        _, msix_count = g.irq_info(vu.IRQ_MSIX)
        if CAP_MSIX in caps:
            pos = caps[CAP_MSIX]
            ctl = g.cfg_rd(pos + 2, 2)
            eq((ctl & 0x7FF) + 1, msix_count, what + ": MSI-X table size vs IRQ info")
            eq(msix_count, 32, what + ": MSI-X vectors")
            eq(ctl & MSIX_ENABLE, 0, what + ": MSI-X enabled at reset")
            table, pba = g.cfg_rd(pos + 4, 4), g.cfg_rd(pos + 8, 4)
            eq((table & 7, table & ~7), (BAR_MSIX, 0), what + ": MSI-X table BIR/offset")
            eq((pba & 7, pba & ~7), (BAR_MSIX, 0x800), what + ": MSI-X PBA BIR/offset")
            check(msix_count * 16 <= 0x800 and 0x800 + (msix_count + 63) // 64 * 8
                  <= info[BAR_MSIX]["size"], what + ": MSI-X table/PBA outside BAR 4")
        if CAP_MSI in caps:
            mmc = g.cfg_rd(caps[CAP_MSI] + 2, 2) >> 1 & 7
            eq(g.irq_info(vu.IRQ_MSI)[1], 1 << mmc, what + ": MSI vectors vs IRQ info")
        eq(g.irq_info(vu.IRQ_INTX)[1], 1, what + ": INTx count")
        for idx in (vu.IRQ_INTX, vu.IRQ_MSI, vu.IRQ_MSIX):
            check(g.irq_info(idx)[0] & vu.IRQ_INFO_EVENTFD,
                  "%s: IRQ index %d without eventfd support" % (what, idx))

        # registers at their reset values, through REGION_READ
        eq(g.region_read(BAR_MMIO, MAC0, 6).hex(":"), MAC.hex(":"), what + ": IDR0-5")
        eq(bytes(g.mrd(MAC0 + i, 1) for i in range(6)).hex(":"), MAC.hex(":"),
           what + ": IDR0-5 byte by byte")
        eq(hx(g.mrd(MAC0, 4)), "0x684ce000", what + ": MAC0")
        eq(hx(g.mrd(MAC4, 2)), "0x100", what + ": MAC4")
        eq(hx(g.mrd(TxConfig, 4)), hx(xid << 20), what + ": TxConfig (XID)")
        eq(hx(g.mrd(TxConfig, 4) >> 20 & 0xFCF), hx(xid & 0xFCF),
           what + ": XID as r8169 reads it")
        eq(hx(g.mrd(ChipCmd, 1)), "0x1", what + ": ChipCmd")
        check(g.mrd(PHYstatus, 4) & PHY_LINK, what + ": link down at start")
        # port I/O is not modelled: all ones, not an MMIO access
        eq(g.region_read(BAR_IO, 0, 4), b"\xff" * 4, what + ": I/O BAR read")
    finally:
        g.close()
    rc, t = srv.finish()
    eq(rc, 0, what + ": exit status")
    check("every guest came and went" in srv.out, what + ": no 'every guest came and went'")
    expect_counters(srv, g, what)


# ----------------------------------------------------------------------
IOVA = 0x1_0000_0000            # guest RAM above 4 GiB
RAM = 1 << 20
RXD, TXD, TALLY, RXB, TXB = 0x0, 0x1000, 0x2000, 0x10000, 0x20000
NRX, BUFSZ = 4, 2048
RO_IOVA, RO_SIZE = 0x2000_0000, 1 << 16   # mapped without WRITE
OUTSIDE = 0x7_0000_1000                   # in no region


def arp_request():
    a = struct.pack(">HHBBH", 1, 0x0800, 6, 4, 1) + MAC + GUEST_IP + bytes(6) + PEER_IP
    f = b"\xff" * 6 + MAC + b"\x08\x06" + a
    return f + bytes(60 - len(f))


def arp_reply():
    a = struct.pack(">HHBBH", 1, 0x0800, 6, 4, 2) + PEER_MAC + PEER_IP + MAC + GUEST_IP
    f = MAC + PEER_MAC + b"\x08\x06" + a
    return f + bytes(60 - len(f))


def wait_until(fn, timeout=3.0):
    t0 = time.monotonic()
    while time.monotonic() - t0 < timeout:
        if fn():
            return True
        time.sleep(0.005)
    return fn()


def fired_all(fds):
    """Every eventfd of @fds has fired (is readable), none consumed."""
    r, _, _ = select.select(fds, [], [], 0)
    return len(r) == len(fds)


def tally_dump(g, addr):
    g.mwr(CounterAddrHigh, 4, addr >> 32)
    g.mwr(CounterAddrLow, 4, (addr & 0xFFFFFFFF) | COUNTER_DUMP)
    return wait_until(lambda: not g.mrd(CounterAddrLow, 4) & COUNTER_DUMP)


def session_dma():
    chip = "RTL8127A"
    rxvec, txvec = CHIPS[chip][2:]
    what = "dma"
    srv = Server()
    g = Guest(srv.sock)
    ram = vu.GuestMemory(RAM)
    ro = vu.GuestMemory(RO_SIZE, "vfio-guest-ro")
    efds = []
    try:
        g.version()
        g.dma_map(IOVA, RAM, ram.fd)
        g.dma_map(RO_IOVA, RO_SIZE, ro.fd, flags=vu.DMA_READ_F)
        g.dma_map(IOVA, RAM, ram.fd)        # the same region again: accepted
        nvec = g.irq_info(vu.IRQ_MSIX)[1]
        efds = [vu.new_eventfd() for _ in range(nvec)]
        g.set_irq_eventfds(vu.IRQ_MSIX, efds)
        g.cfg_wr(PCI_COMMAND, 2, CMD_MEMORY | CMD_MASTER | CMD_INTX_DIS)
        msix = capabilities(g)[CAP_MSIX]
        ctl = g.cfg_rd(msix + 2, 2)
        g.cfg_wr(msix + 2, 2, ctl | MSIX_ENABLE)
        eq(hx(g.cfg_rd(msix + 2, 2)), hx(ctl | MSIX_ENABLE), what + ": MSI-X control")

        # RX: descriptor type 1, one ring of NRX (tests/test_model.c rx_setup)
        g.mwr(RxConfig, 4, RXCFG_ACCEPT)
        g.mwr(CFG_D8, 1, 0)
        g.mwr(RxMaxSize, 2, 0x4000)
        g.mwr(CPlusCmd, 2, CPCMD_RX_CSUM)
        for i in range(NRX):
            d = RXD + 16 * i
            ram.put32(d + 4, 0)
            ram.put64(d + 8, IOVA + RXB + BUFSZ * i)
            ram.put32(d, DESC_OWN | (DESC_EOR if i == NRX - 1 else 0) | BUFSZ)
        armed = ram.get(RXD, 16 * NRX)
        g.mwr(RxDescAddrHigh, 4, (IOVA + RXD) >> 32)
        g.mwr(RxDescAddrLow, 4, (IOVA + RXD) & 0xFFFFFFFF)
        g.mwr(Q_NUM_CTRL_8125, 2, 0)
        g.mwr(ChipCmd, 1, CMD_RE | CMD_TE)
        # the V2 interrupt map, every id unmasked (test_model.c irq_v2)
        g.mwr(INT_CFG0_8125, 1, 1)
        g.mwr(IMR_V2_SET_REG_8125, 4, 0xFFFFFFFF)
        # TX: an ARP request for the responder's address
        req = arp_request()
        ram.put(TXB, req)
        ram.put32(TXD + 4, 0)
        ram.put64(TXD + 8, IOVA + TXB)
        ram.put32(TXD + 16 * 3, DESC_EOR)
        ram.put32(TXD, DESC_OWN | FS | LS | len(req))
        g.mwr(TxDescStartAddrHigh, 4, (IOVA + TXD) >> 32)
        g.mwr(TxDescStartAddrLow, 4, (IOVA + TXD) & 0xFFFFFFFF)
        g.mwr(TxPoll_8125, 2, 1)

        check(wait_until(lambda: not ram.get32(RXD) & DESC_OWN),
              what + ": no frame in the RX ring within 3 s")
        rep = arp_reply()
        eq(hx(ram.get32(RXD)), hx(FS | LS | (len(rep) + 4)), what + ": RX descriptor 0 opts1")
        eq(ram.get(RXB, 60).hex(), rep.hex(), what + ": the ARP reply in RX buffer 0")
        eq(ram.get(RXB + 60, 4).hex(), zlib.crc32(rep).to_bytes(4, "little").hex(),
           what + ": FCS after it")
        eq(ram.get(RXD + 16, 16 * (NRX - 1)).hex(), armed[16:].hex(),
           what + ": RX descriptors 1-3 untouched")
        eq(ram.get32(TXD) & DESC_OWN, 0, what + ": TX descriptor 0 still owned by the NIC")
        check(wait_until(lambda: fired_all([efds[rxvec], efds[txvec]]), 2),
              what + ": the RX and TX vectors' eventfds did not fire")
        fired = {v: vu.eventfd_count(fd) for v, fd in enumerate(efds)}
        eq({v: n for v, n in fired.items() if n}, {rxvec: 1, txvec: 1},
           what + ": eventfds fired (vector: count)")
        eq(hx(g.mrd(ISR_V2_8125, 4)), hx(1 << rxvec | 1 << txvec), what + ": ISR_V2")
        g.mwr(ISR_V2_8125, 4, 0xFFFFFFFF)
        eq(g.mrd(ISR_V2_8125, 4), 0, what + ": ISR_V2 after W1C")

        # the tally dump: DMA into guest RAM
        check(tally_dump(g, IOVA + TALLY), what + ": tally dump bit never cleared")
        t = struct.unpack_from("<QQQIHHIIQQIHH", ram.mem, TALLY)
        eq(t, (1, 1, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0),
           what + ": tally (tx, rx, tx_err, rx_err, missed, align, 1col, mcol, "
           "rx_ucast, rx_bcast, rx_mcast, abort, underrun)")

        # DMA the guest got wrong: each a DMA error, nothing written
        # anywhere.  First a TX descriptor (1, in RAM) whose buffer runs
        # across the end of guest RAM, for later.
        ram.put32(TXD + 16 + 4, 0)
        ram.put64(TXD + 16 + 8, IOVA + RAM - 30)
        ram.put32(TXD + 16, DESC_OWN | FS | LS | 60)
        snap, ro_snap = ram.get(0, RAM), ro.get(0, RO_SIZE)
        check(tally_dump(g, OUTSIDE), what + ": tally outside: dump bit stuck")
        check(tally_dump(g, RO_IOVA), what + ": tally read-only: dump bit stuck")
        g.mwr(TxPoll_8125, 2, 1)        # the buffer across the end
        # the buffer fault is TxErr (src/model/rtlm_tx.c: the descriptor
        # stays owned, the queue stops): the TX vector once more
        check(wait_until(lambda: fired_all([efds[txvec]]), 2),
              what + ": no TxErr interrupt for the bad TX buffer")
        eq(hx(ram.get32(TXD + 16)), hx(DESC_OWN | FS | LS | 60),
           what + ": TX descriptor 1 (bad buffer) left as it was")
        fired = {v: vu.eventfd_count(fd) for v, fd in enumerate(efds)}
        eq({v: n for v, n in fired.items() if n}, {txvec: 1},
           what + ": eventfds fired after the bad TX buffer (TxErr)")
        eq(hx(g.mrd(ISR_V2_8125, 4)), hx(1 << txvec), what + ": ISR_V2 after the bad TX buffer")
        g.mwr(ISR_V2_8125, 4, 0xFFFFFFFF)
        g.mwr(TxDescStartAddrHigh, 4, OUTSIDE >> 32)
        g.mwr(TxDescStartAddrLow, 4, OUTSIDE & 0xFFFFFFFF)
        g.mwr(TxPoll_8125, 2, 1)        # a ring outside guest memory
        check(wait_until(lambda: fired_all([efds[txvec]]), 2),
              what + ": no TxErr interrupt for the TX ring outside guest memory")
        fired = {v: vu.eventfd_count(fd) for v, fd in enumerate(efds)}
        eq({v: n for v, n in fired.items() if n}, {txvec: 1},
           what + ": eventfds fired after the TX ring outside (TxErr)")
        eq(g.cfg_rd(0, 2), 0x10EC, what + ": server alive after bad DMA")
        now = ram.get(0, RAM)
        if not check(now == snap, what + ": guest RAM changed by a bad DMA"):
            diff = [i for i in range(RAM) if now[i] != snap[i]]
            print("  changed bytes at 0x%x..0x%x" % (diff[0], diff[-1]))
        check(ro.get(0, RO_SIZE) == ro_snap, what + ": the read-only region changed")
        # RAM was mapped twice (the same region: accepted); one DMA_UNMAP
        # takes it away, and the device's DMA into it is an error
        g.dma_unmap(IOVA, RAM)
        check(tally_dump(g, IOVA + TALLY), what + ": tally after unmap: dump bit stuck")
        check(ram.get(0, RAM) == snap, what + ": a DMA after DMA_UNMAP reached guest RAM")
        eq(g.cfg_rd(0, 2), 0x10EC, what + ": server alive after DMA into unmapped RAM")
    finally:
        t0 = time.monotonic()
        g.close()                       # gone, without DMA_UNMAP
        for fd in efds:
            os.close(fd)
    rc, t = srv.finish()
    t += time.monotonic() - t0
    eq(rc, 0, what + ": exit status after the client vanished")
    check(t < 3, "%s: exit took %.1f s after the client vanished" % (what, t))
    check("every guest came and went" in srv.out, what + ": no 'every guest came and went'")
    expect_counters(srv, g, what, irqs=4, irq_errors=0, dma_maps=2,
                    guest_errors=5, dma_errors=5)
    m = NIC.search(srv.out)
    eq(m and tuple(int(x) for x in m.groups()), (1, 1, 1, 0),
       what + ": nic0 frames sent/offered/received/dropped")
    m = PEER.search(srv.out)
    eq(m and tuple(int(x) for x in m.groups()), (1, 0, 0, 0),
       what + ": peer ARP/echo/ignored/malformed")
    check("not DMA-visible" in srv.out, what + ": the model's DMA guest error not reported")
    ram.close()
    ro.close()


# ----------------------------------------------------------------------
def session_protocol():
    what = "protocol"
    srv = Server(quiet=False)
    g = Guest(srv.sock)
    bad = 0
    vid = 0x812710EC

    def alive(label):
        eq(hx(g.cfg_rd(0, 4)), hx(vid), "%s: in step after %s" % (what, label))

    def refused(label, msg_id, errnos=(errno.EINVAL,)):
        nonlocal bad
        bad += 1
        try:
            rep = g.recv()
        except (vu.ConnectionGone, OSError) as e:
            check(False, "%s: %s: no reply (%s)" % (what, label, e))
            return
        eq((rep.msg_id, rep.flags & vu.F_TYPE_MASK, bool(rep.is_error)),
           (msg_id, vu.F_TYPE_REPLY, True), "%s: %s: reply id/type/error" % (what, label))
        check(rep.err in errnos, "%s: %s: errno %d, want one of %r" %
              (what, label, rep.err, errnos))
        alive(label)

    def access(label, cmd, offset, region, count, data=b""):
        refused(label, g.send(cmd, struct.pack("=QII", offset, region, count) + data))

    try:
        g.version()
        command0, rxcfg0 = g.cfg_rd(PCI_COMMAND, 2), g.mrd(RxConfig, 4)
        # accesses the regions cannot take
        access("read beyond BAR2's end", vu.REGION_READ, BAR_MMIO_SIZE, BAR_MMIO, 4)
        access("read across BAR2's end", vu.REGION_READ, BAR_MMIO_SIZE - 2, BAR_MMIO, 4)
        access("write at a huge offset", vu.REGION_WRITE, 2 ** 64 - 2, BAR_MMIO, 4, bytes(4))
        access("read of 4 GiB - 1", vu.REGION_READ, 0, BAR_MMIO, 0xFFFFFFFF)
        access("read of 2 MiB", vu.REGION_READ, 0, BAR_MMIO, 2 << 20)
        access("write with 4 bytes for 8", vu.REGION_WRITE, 0, BAR_MMIO, 8, bytes(4))
        access("config read at 4096", vu.REGION_READ, 4096, vu.PCI_CONFIG, 4)
        access("config write across 4096", vu.REGION_WRITE, 4094, vu.PCI_CONFIG, 4, bytes(4))
        access("read of region 12", vu.REGION_READ, 0, 12, 4)
        access("read of BAR3 (upper half)", vu.REGION_READ, 0, 3, 4)
        # malformed messages
        refused("unknown command 99", g.send(99, bytes(8)))
        refused("command 0", g.send(0, bytes(8)))
        refused("header size 8", g.send(vu.DEVICE_GET_INFO, size=8))
        refused("header size 2 GiB", g.send(vu.DEVICE_GET_INFO, size=0x7FFFFFFF))
        refused("a reply sent as a command", g.send(vu.DEVICE_RESET, flags=vu.F_TYPE_REPLY))
        refused("GET_INFO without payload", g.send(vu.DEVICE_GET_INFO))
        refused("a second VERSION", g.send(vu.VERSION, struct.pack("=HH", 0, 1) + b"{}\0"))
        refused("SET_IRQS index 9", g.send(vu.DEVICE_SET_IRQS, struct.pack(
            "=IIIII", 20, vu.IRQ_SET_DATA_NONE | vu.IRQ_SET_ACTION_TRIGGER, 9, 0, 1)))
        refused("SET_IRQS vectors 30-34", g.send(vu.DEVICE_SET_IRQS, struct.pack(
            "=IIIII", 20, vu.IRQ_SET_DATA_NONE | vu.IRQ_SET_ACTION_TRIGGER,
            vu.IRQ_MSIX, 30, 5)))
        refused("DMA_UNMAP of nothing", g.send(vu.DMA_UNMAP, struct.pack(
            "=IIQQ", 24, 0, 0x10000, 0x1000)), (errno.ENOENT, errno.EINVAL))
        map_one(g)
        refused("DMA_MAP overlapping a region", g.send(vu.DMA_MAP, struct.pack(
            "=IIQQQ", 32, vu.DMA_READ_F | vu.DMA_WRITE_F, 0, 0x208000, 0x10000)))
        refused("REGION_INFO 99", g.send(vu.DEVICE_GET_REGION_INFO, struct.pack(
            "=IIIIQQ", 32, 0, 99, 0, 0, 0)))
        refused("IRQ_INFO 9", g.send(vu.DEVICE_GET_IRQ_INFO, struct.pack("=IIII", 16, 0, 9, 0)))
        # No_reply: a bad one gets no answer (the next reply is the next
        # request's), a good one is done before the next request
        g.send(99, bytes(8), flags=vu.F_NO_REPLY)
        bad += 1
        alive("a bad command with No_reply")
        g.send(vu.REGION_WRITE, struct.pack("=QII", RxConfig, BAR_MMIO, 4) +
               (0xE).to_bytes(4, "little"), flags=vu.F_NO_REPLY)
        g.n["mmio_writes"] += 1
        eq(hx(g.mrd(RxConfig, 4)), "0xe", what + ": a No_reply write done before the next read")
        # a register the model does not know: the model's guest error
        eq(g.mrd(UNKNOWN_REG, 4), 0, what + ": unknown register reads 0")
        # DEVICE_RESET is the function's reset: Command and MSI-X control
        # back to their reset values, the model's registers too
        g.cfg_wr(PCI_COMMAND, 2, CMD_MEMORY | CMD_MASTER)
        msix = capabilities(g)[CAP_MSIX]
        g.cfg_wr(msix + 2, 2, g.cfg_rd(msix + 2, 2) | MSIX_ENABLE)
        g.reset()
        alive("DEVICE_RESET")
        eq(g.cfg_rd(PCI_COMMAND, 2), command0, what + ": Command after DEVICE_RESET")
        eq(g.cfg_rd(msix + 2, 2) & MSIX_ENABLE, 0, what + ": MSI-X enabled after DEVICE_RESET")
        eq(hx(g.mrd(RxConfig, 4)), hx(rxcfg0), what + ": RxConfig after DEVICE_RESET")
        # a truncated header, and gone
        g.send_raw(struct.pack("=HHI", 0x77, vu.DEVICE_GET_INFO, 32))
    finally:
        g.close()
    rc, t = srv.finish()
    eq(rc, 0, what + ": exit status after a truncated header")
    check("every guest came and went" in srv.out, what + ": no 'every guest came and went'")
    got = expect_counters(srv, g, what, guest_errors=bad, dma_maps=1)
    logged = srv.err.count("br_vfio: guest error:")
    eq(logged, got["guest_errors"], what + ": guest errors logged on stderr")
    check(re.search(r"registers the model does not know .*0x%x 1/0" % UNKNOWN_REG, srv.out),
          what + ": the unknown register not in the report")
    m = re.search(r"nic0 vfio-user: (\d+) device resets \(", srv.out)
    # libvfio-user resets twice for a client that only comes and goes (at
    # its attach and, VFU_RESET_LOST_CONN, when it goes); the DEVICE_RESET is one more
    check(m is not None and int(m.group(1)) == 3, what + ": the reset not in the report: %r" % (m and m.group(0)))
    return bad


def map_one(g):
    """Map 64 KiB at 0x200000 (for the overlap case)."""
    mem = vu.GuestMemory(1 << 16, "vfio-guest-overlap")
    try:
        g.dma_map(0x200000, 1 << 16, mem.fd)
    finally:
        mem.close()


# ----------------------------------------------------------------------
def session_sigterm():
    what = "sigterm"
    srv = Server()
    g = Guest(srv.sock)
    g.version()
    g.cfg_rd(0, 4)
    g.mrd(MAC0, 4)
    # half a message: a header for 1000 bytes, 10 of them sent; refused
    # as a short read (the 10 bytes consumed: still in step)
    g.send_raw(vu.HDR.pack(50, vu.REGION_WRITE, 1000, 0, 0) + bytes(10))
    rep = g.recv()
    eq((rep.msg_id, rep.is_error), (50, True), what + ": half a message refused")
    eq(g.cfg_rd(0, 2), 0x10EC, what + ": in step after half a message")
    srv.p.send_signal(signal.SIGTERM)
    rc, t = srv.finish()
    g.close()
    eq(rc, 0, what + ": exit status")
    check(t < 3, "%s: exit took %.1f s" % (what, t))
    check("stopped by a signal" in srv.out, what + ": no 'stopped by a signal'")
    expect_counters(srv, g, what, guest_errors=1)


def session_version():
    what = "version"
    srv = Server()
    g = Guest(srv.sock)
    try:
        g.device_info()
        check(False, what + ": DEVICE_GET_INFO before VERSION was answered")
    except vu.VfioUserError as e:
        eq(e.errno, errno.EINVAL, what + ": errno")
    rc, t = srv.finish()
    check(g.closed_by_server(2), what + ": connection not closed")
    g.close()
    eq(rc, 1, what + ": exit status (the attach failed)")
    check("last error: attach: Invalid argument" in srv.out, what + ": no attach error")
    expect_counters(srv, g, what, guest_errors=1)


def session_seconds():
    what = "seconds"
    srv = Server(seconds=1)
    rc, t = srv.finish(timeout=6)
    eq(rc, 0, what + ": exit status")
    check("--seconds 1 reached" in srv.out, what + ": no '--seconds 1 reached'")
    expect_counters(srv, None, what, cfg_reads=0, cfg_writes=0, mmio_reads=0,
                    mmio_writes=0)


def main():
    global RXSCALE, TMP
    if len(sys.argv) != 2:
        print("usage: vfio_guest_test.py RXSCALE", file=sys.stderr)
        return 2
    RXSCALE = sys.argv[1]
    help_out = subprocess.run([RXSCALE, "vfio-user", "--help"], capture_output=True,
                              text=True)
    if help_out.returncode != 0:
        print("rxscale has no vfio-user command: skipped")
        return 77
    TMP = tempfile.mkdtemp(prefix="vfio-guest-")
    sessions = [lambda: session_identity("RTL8127A"),
                lambda: session_identity("RTL8125B"),
                lambda: session_identity("RTL8126A"),
                session_dma, session_protocol, session_sigterm, session_version,
                session_seconds]
    names = ["identity RTL8127A", "identity RTL8125B", "identity RTL8126A", "dma",
             "protocol", "sigterm", "version", "seconds"]
    return gs.run(list(zip(names, sessions)), TMP, __file__)


if __name__ == "__main__":
    sys.exit(main())
