#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""uml_guest_test.py RXSCALE - rxscale uml against a small vhost-user
front-end and time-travel client (tests/vhost_user_client.py) that play a
User-Mode Linux guest, first a correct one, then misbehaving ones; no UML
kernel needed.

Each session starts `RXSCALE uml --socket TMP [--time-travel] --seconds N`,
talks to it and checks its exit status, how long it took to exit, its
log and its report (the counters must match what the session did):

  good        negotiation as virtio_uml does, config space 10ec:8127 and
              class 020000, MMIO reads and writes of BAR 2 (TxConfig's
              XID, MAC0), a tally dump into guest memory and one outside
              it (a DMA error, counted and logged, not fatal); close:
              exit 0 and exact counters; under --time-travel too, with a
              posted write's completion and call handed over while the
              client waits, and its RUN;
  garbage     bytes that are no vhost-user message, an oversize message,
              a message with file descriptors it does not take, an
              unknown request: a logged guest error, the connection
              closed, exit 1, at once;
  rings       a descriptor outside guest memory, a descriptor loop, an
              avail index far ahead, rings outside the memory table: the
              same;
  death       the client stops in the middle of a message (half a header;
              a header whose payload never comes), is killed while it
              floods the device with MMIO reads, or while rxscale waits for
              it to take an interrupt (time-travel): a logged error or a
              disconnect, a clean exit, never a signal death or a hang;
  timetravel  a time-travel client sending garbage (an unknown op, an ACK
              with a wrong seq, half a message, RUN to the controller):
              dropped with the reason, exit 1;
  sigterm     SIGTERM while a client is connected: clean exit with the
              report.
"""
import os
import re
import select
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import guest_session as gs  # noqa: E402
import vhost_user_client as vc  # noqa: E402
from guest_session import check, eq  # noqa: E402

RXSCALE = None
TMP = None

# registers (src/hw/rtl_regs.def, rtl_defines.h)
MAC0, CounterAddrLow, CounterAddrHigh, TxConfig = 0x00, 0x10, 0x14, 0x40
COUNTER_DUMP = 1 << 3
BAR_MMIO = 2

REPORT = re.compile(
    r"nic0 virt-pci: (\d+) config reads, (\d+) config writes, (\d+) MMIO reads, "
    r"(\d+) MMIO writes, (\d+) MSIs, (\d+) guest errors, (\d+) DMA errors")
REPORT_KEYS = ("cfg_reads", "cfg_writes", "mmio_reads", "mmio_writes", "msis",
               "guest_errors", "dma_errors")


class Server(gs.Server):
    """rxscale uml on a fresh socket."""
    n = 0

    def __init__(self, tt=False, seconds=30, quiet=True):
        Server.n += 1
        self.sock = os.path.join(TMP, "u%d.sock" % Server.n)
        self.tsock = self.sock + ".time"
        cmd = [RXSCALE, "uml", "--socket", self.sock, "--seconds", str(seconds)]
        if tt:
            cmd += ["--time-travel", "--time-socket", self.tsock]
        if quiet:
            cmd.append("--quiet")
        super().__init__(cmd)

    def counters(self):
        return super().counters(REPORT, REPORT_KEYS, "virt-pci")


def expect_exit(srv, rc, what, log=None, timeout=5.0):
    """The server exits with rc within timeout (no signal death), its
    output naming log (a regex) when given."""
    got, took = srv.finish(timeout)
    check(got >= 0, "%s: rxscale uml died of signal %d\n%s" % (what, -got, srv.err))
    eq(got, rc, what + ": exit status (output:\n%s%s)" % (srv.out, srv.err))
    if log:
        check(re.search(log, srv.out + srv.err),
              "%s: no '%s' in the output:\n%s%s" % (what, log, srv.out, srv.err))
    check("AddressSanitizer" not in srv.err and "runtime error" not in srv.err,
          what + ": sanitizer report:\n" + srv.err)
    return took


def guest(srv, **kw):
    fe = vc.Frontend(srv.sock, **kw)
    fe.negotiate()
    fe.post_irq_bufs()
    return fe


def tally(fe, addr):
    fe.mmio_write(BAR_MMIO, CounterAddrHigh, 4, addr >> 32)
    fe.mmio_write(BAR_MMIO, CounterAddrLow, 4, (addr & 0xFFFFFFFF) | COUNTER_DUMP)


def tally_done(fe, reads=200):
    """Poll CounterDump until the model clears it; the reads it took."""
    for n in range(1, reads + 1):
        if not fe.mmio_read(BAR_MMIO, CounterAddrLow, 4) & COUNTER_DUMP:
            return n
        time.sleep(0.002)
    return None


# ----- sessions -----

def session_good():
    what = "good"
    srv = Server()
    fe = guest(srv, inband=False)
    eq(fe.cfg_read(0, 4), 0x812710EC, what + ": vendor and device")
    eq(fe.cfg_read(0x0B, 1), 0x02, what + ": class")
    eq(fe.cfg_read(0x0A, 1), 0x00, what + ": subclass")
    eq((fe.mmio_read(BAR_MMIO, TxConfig, 4) >> 20) & 0xFCF, 0x6C9,
       what + ": TxConfig XID")
    eq(fe.mmio_read(BAR_MMIO, MAC0, 4), 0x684CE000, what + ": MAC0")
    tally_gpa = vc.GPA_BASE + 0x100000
    fe.wr(tally_gpa, b"\xee" * 64)
    tally(fe, tally_gpa)
    n1 = tally_done(fe)
    check(n1 is not None, what + ": tally dump bit never cleared")
    eq(fe.rd(tally_gpa, 8), bytes(8), what + ": tx_packets in the tally (DMA)")
    # a dump outside guest memory: a DMA error, not fatal
    tally(fe, 0x1000)
    n2 = tally_done(fe)
    check(n2 is not None, what + ": tally outside: dump bit never cleared")
    eq(fe.cfg_read(0, 2), 0x10EC, what + ": the device still answers")
    fe.close()
    expect_exit(srv, 0, what, r"nic0: the guest disconnected")
    c = srv.counters()
    eq(c["cfg_reads"], 4, what + ": config reads")
    eq(c["mmio_reads"], 2 + (n1 or 0) + (n2 or 0), what + ": MMIO reads")
    eq(c["mmio_writes"], 4, what + ": MMIO writes")
    eq(c["dma_errors"], 1, what + ": DMA errors")
    eq(c["guest_errors"], 1, what + ": guest errors")
    check("DMA write of" in srv.out and "outside guest memory" in srv.out,
          what + ": the DMA error named in the report:\n" + srv.out)


def session_good_tt():
    what = "good, time-travel"
    srv = Server(tt=True)
    tc = vc.TimeClient(srv.tsock)
    tc.start(0)
    fe = guest(srv)
    check(fe.event_idx, what + ": event index negotiated")
    eq(fe.cfg_read(2, 2), 0x8127, what + ": device id")
    # a posted write: its completion may wait until the client waits
    fe.mmio_write(BAR_MMIO, MAC0, 4, 0x684CE000, wait=False)
    t = tc.wait_run(5000000, fe)
    eq(t, 5000000, what + ": RUN at the requested time")
    fe.reap(0)
    eq(len(fe.inflight[0]), 0, what + ": every command completed after the wait")
    check(fe.calls[0] >= 1, what + ": the cmd queue's call came while it waited")
    eq(fe.mmio_read(BAR_MMIO, MAC0, 4), 0x684CE000, what + ": MAC0")
    fe.close()
    tc.close()
    expect_exit(srv, 0, what, r"time-travel: 0\.005\d* s simulated")
    c = srv.counters()
    eq((c["cfg_reads"], c["mmio_reads"], c["mmio_writes"], c["guest_errors"]),
       (1, 1, 1, 0), what + ": counters")


def fresh(tt=False, negotiate=True):
    srv = Server(tt=tt)
    tc = None
    if tt:
        tc = vc.TimeClient(srv.tsock)
        tc.start(0)
    fe = vc.Frontend(srv.sock)
    if negotiate:
        fe.negotiate()
        fe.post_irq_bufs()
    return srv, fe, tc


def bye(fe, tc):
    for x in (fe, tc):
        if x:
            try:
                x.close()
            except OSError:
                pass


def session_garbage():
    for tt in (False, True):
        sfx = " (time-travel)" if tt else ""
        cases = [
            ("garbage bytes", lambda fe: fe.send_raw(b"\x12\x34\x56\x78" * 5),
             r"bad message header"),
            ("oversize", lambda fe: fe.send_raw(vc.HDR.pack(vc.SET_OWNER, 1, 1 << 20)),
             r"oversize message"),
            ("fd it does not take", lambda fe: fe.send(vc.SET_OWNER, fds=[fe.memfd]),
             r"file descriptors, expected 0"),
            ("unknown request", lambda fe: fe.send(77), r"unsupported request 77"),
            ("reply bit", lambda fe: fe.send(vc.GET_FEATURES, flags=1 | vc.F_REPLY),
             r"bad message header"),
            ("short state", lambda fe: fe.send(vc.SET_VRING_NUM, b"\0\0\0\0"),
             r"payload of 4 bytes, expected 8"),
            ("queue index", lambda fe: fe.send(vc.SET_VRING_NUM, struct.pack("<II", 9, 64)),
             r"vring index 9 out of range"),
        ]
        for name, act, log in cases:
            srv, fe, tc = fresh(tt, negotiate=False)
            act(fe)
            took = expect_exit(srv, 1, "garbage: " + name + sfx,
                               r"nic0: guest error, connection closed: .*" + log)
            check(took < 3, "garbage: %s%s: exit took %.1f s" % (name, sfx, took))
            bye(fe, tc)


def chain_outside(fe):
    fe.add_chain(0, [(0x1000, 16, False)])
    fe.kick(0)


def chain_loop(fe):
    d = fe.q_desc(0)
    fe.wr(fe._slot(0), vc.VPCI.pack(vc.OP_MMIO_READ, 2, 0, 4, 0))
    fe.set_desc(d, 0, fe._slot(0), 16, vc.DESC_NEXT, 1)
    fe.set_desc(d, 1, fe._slot(0) + 48, 4, vc.DESC_NEXT, 0)
    fe.publish(0, 0)
    fe.kick(0)


def avail_ahead(fe):
    fe.wr(fe.q_avail(0) + 2, struct.pack("<H", 1000))
    fe.kick(0)


def head_range(fe):
    fe.publish(0, 500)
    fe.kick(0)


def rings_outside(fe):
    fe.req(vc.SET_VRING_ADDR, struct.pack("<IIQQQQ", 0, 0, 0x10, 0x2000, 0x1000, 0))
    fe.kick(0)


def indirect_outside(fe):
    fe.set_desc(fe.q_desc(0), 0, 0x7000, 32, vc.DESC_INDIRECT)
    fe.publish(0, 0)
    fe.kick(0)


def session_rings():
    for tt in (False, True):
        sfx = " (time-travel)" if tt else ""
        cases = [
            ("descriptor outside guest memory", chain_outside,
             r"buffer 0x1000\+16 outside the memory table"),
            ("descriptor loop", chain_loop, r"descriptor loop"),
            ("avail index ahead", avail_ahead, r"avail index 1000 is more than 64 ahead"),
            ("head out of range", head_range, r"names descriptor 500"),
            ("rings outside memory", rings_outside, r"ring outside the memory table"),
            ("indirect descriptor not negotiated", indirect_outside,
             r"indirect descriptor without INDIRECT_DESC"),
        ]
        for name, act, log in cases:
            srv, fe, tc = fresh(tt)
            eq(fe.cfg_read(0, 2), 0x10EC, "rings: %s%s: before" % (name, sfx))
            try:
                act(fe)
            except (vc.ProtocolError, ConnectionError, TimeoutError):
                pass        # the ack may never come: the server hung up
            took = expect_exit(srv, 1, "rings: " + name + sfx,
                               r"nic0: guest error, connection closed: .*" + log)
            check(took < 3, "rings: %s%s: exit took %.1f s" % (name, sfx, took))
            bye(fe, tc)


def flooder(sock, tsock):
    """A child: a guest that reads a register as fast as it can."""
    tc = None
    if tsock:
        tc = vc.TimeClient(tsock)
        tc.start(0)
    fe = vc.Frontend(sock)
    fe.negotiate()
    fe.post_irq_bufs()
    os.write(1, b"flooding\n")
    while True:
        fe.mmio_read(BAR_MMIO, TxConfig, 4)
        fe.mmio_write(BAR_MMIO, MAC0, 4, 0x684CE000, wait=False)


def session_death():
    # half a header, then the client goes: a guest error
    for tt in (False, True):
        sfx = " (time-travel)" if tt else ""
        srv, fe, tc = fresh(tt)
        fe.send_raw(vc.HDR.pack(vc.GET_FEATURES, 1, 0)[:6])
        time.sleep(0.1)
        bye(fe, tc)
        expect_exit(srv, 1, "death: half a header" + sfx,
                    r"guest error, connection closed: .*in the middle of a message")
        # a payload that never comes (the client stays): bounded wait
        srv, fe, tc = fresh(tt)
        fe.send_raw(vc.HDR.pack(vc.SET_FEATURES, 1, 8))
        took = expect_exit(srv, 1, "death: payload never sent" + sfx,
                           r"message truncated: 0 of 8 bytes", timeout=10)
        check(took < 6, "death: payload never sent%s: exit took %.1f s" % (sfx, took))
        bye(fe, tc)
        # killed while it floods the device
        srv = Server(tt=tt)
        child = subprocess.Popen(
            [sys.executable, "-c",
             "import sys; sys.path.insert(0, %r); import uml_guest_test as t; "
             "t.flooder(%r, %r)" % (os.path.dirname(os.path.abspath(__file__)),
                                   srv.sock, srv.tsock if tt else None)],
            stdout=subprocess.PIPE)
        r = select.select([child.stdout], [], [], 10)[0]
        check(r and child.stdout.readline() == b"flooding\n",
              "death: flooder%s did not start" % sfx)
        time.sleep(0.3)
        child.send_signal(signal.SIGKILL)
        child.communicate()
        got, took = srv.finish(5)
        check(got in (0, 1), "death: killed mid-flood%s: exit status %d\n%s%s" %
              (sfx, got, srv.out, srv.err))
        check(re.search(r"nic0: (the guest disconnected|guest error, connection closed)",
                        srv.out), "death: killed mid-flood%s: not logged:\n%s" %
              (sfx, srv.out))
        c = srv.counters()
        check(c["mmio_reads"] > 10, "death: killed mid-flood%s: only %d reads" %
              (sfx, c["mmio_reads"]))
    # time-travel: killed while rxscale waits for it to take an interrupt
    srv, fe, tc = fresh(True)
    fe.mmio_write(BAR_MMIO, MAC0, 4, 0x684CE000, wait=False)
    tc.request(vc.TT_REQUEST, 1000000)
    tc.request(vc.TT_WAIT, 2**64 - 1)
    r = select.select([fe.req_sock], [], [], 5)[0]
    check(r, "death: no call while the client waits")
    bye(fe, tc)
    expect_exit(srv, 1, "death: gone while taking an interrupt",
                r"(went away while taking an interrupt|request channel closed)")


def session_timetravel():
    cases = [
        ("unknown op", lambda tc: tc.send(42, 7, 0), r"op 42 .*is not for the controller"),
        ("RUN to the controller", lambda tc: tc.send(vc.TT_RUN, 7, 0), r"is not for the controller"),
        ("ACK with a wrong seq", lambda tc: tc.send(vc.TT_ACK, 99, 0), r"ACK with seq 99"),
        ("second START", lambda tc: tc.send(vc.TT_START, 7, 0), r"a second START"),
        ("UPDATE back in time", lambda tc: (tc.request(vc.TT_UPDATE, 1000),
                                            tc.send(vc.TT_UPDATE, 50, 10)),
         r"UPDATE to 10 ns, before its time 1000 ns"),
        ("half a message", lambda tc: (tc.sock.sendall(b"\x02\0\0\0\x05\0\0\0"),
                                       tc.sock.shutdown(socket.SHUT_WR)),
         r"closed its socket in the middle of a message"),
    ]
    for name, act, log in cases:
        srv, fe, tc = fresh(True)
        eq(fe.cfg_read(0, 2), 0x10EC, "timetravel: %s: before" % name)
        act(tc)
        expect_exit(srv, 1, "timetravel: " + name, r"time-travel: .*" + log)
        bye(fe, tc)
    # START never comes: nothing runs, --seconds cannot pass; the
    # controller's bound on waiting for a client ends it
    srv = Server(tt=True)
    s = vc.connect(srv.tsock, 5)
    s.sendall(b"\x01\0\0")                  # a third of a START
    s.close()
    expect_exit(srv, 1, "timetravel: START cut short",
                r"closed its socket in the middle of a message")


def session_sigterm():
    for tt in (False, True):
        sfx = " (time-travel)" if tt else ""
        srv, fe, tc = fresh(tt)
        eq(fe.cfg_read(0, 2), 0x10EC, "sigterm" + sfx)
        fe.send_raw(vc.HDR.pack(vc.GET_FEATURES, 1, 0)[:5])
        time.sleep(0.1)
        srv.p.send_signal(signal.SIGTERM)
        expect_exit(srv, 0, "sigterm" + sfx, r"nic0 virt-pci: 1 config reads")
        bye(fe, tc)


def main():
    global RXSCALE, TMP
    if len(sys.argv) != 2:
        print("usage: uml_guest_test.py RXSCALE", file=sys.stderr)
        return 2
    RXSCALE = sys.argv[1]
    TMP = tempfile.mkdtemp(prefix="uml-guest-")
    sessions = [("good", session_good), ("good tt", session_good_tt),
                ("garbage", session_garbage), ("rings", session_rings),
                ("death", session_death), ("timetravel", session_timetravel),
                ("sigterm", session_sigterm)]
    return gs.run(sessions, TMP, __file__, width=12)


if __name__ == "__main__":
    sys.exit(main())
