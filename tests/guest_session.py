# SPDX-License-Identifier: MIT
"""guest_session.py - what the tests that play a guest against an rxscale
server command (vfio_guest_test.py: rxscale vfio-user; uml_guest_test.py:
rxscale uml) share: checks that record failures, the server process with
a bounded wait for its exit, and the loop that runs the sessions.
"""
import os
import subprocess
import time
import traceback

failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL: " + what, flush=True)
    return cond


def eq(got, want, what):
    return check(got == want, "%s: got %r, want %r" % (what, got, want))


class Server:
    """A server command in the background, its output collected at exit."""
    started = []

    def __init__(self, cmd):
        self.p = subprocess.Popen(cmd, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE)
        Server.started.append(self)
        self.out = self.err = ""
        self.rc = None

    def finish(self, timeout=5.0):
        """Wait for the exit; (rc, seconds it took).  Kills it on timeout."""
        t0 = time.monotonic()
        try:
            out, err = self.p.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.p.kill()
            out, err = self.p.communicate()
            check(False, "the server did not exit within %.0f s (a hang)" % timeout)
        self.rc = self.p.returncode
        self.out, self.err = out.decode(), err.decode()
        return self.rc, time.monotonic() - t0

    def counters(self, regex, keys, what):
        """The report's counters matched by regex, as {key: int}."""
        m = regex.search(self.out)
        if not check(m, "no %s counters in the report:\n%s" % (what, self.out)):
            return {k: -1 for k in keys}
        return dict(zip(keys, (int(x) for x in m.groups())))

    def kill(self):
        if self.p.poll() is None:
            self.p.kill()
            self.p.communicate()


def run(sessions, tmp, test_file, width=18):
    """Run each (name, function) session, print its result, end every
    server left behind and remove tmp; returns the exit status."""
    for name, session in sessions:
        n = len(failures)
        t0 = time.monotonic()
        try:
            session()
        except Exception as e:      # a dead server shows up here
            here = [f.lineno for f in traceback.extract_tb(e.__traceback__)
                    if f.filename == os.path.abspath(test_file)]
            check(False, "%s: %s: %s (at lines %s)" % (
                name, type(e).__name__, e, " > ".join(map(str, here))))
            for srv in Server.started:
                if srv.rc is None:
                    rc, _ = srv.finish(3)
                    print("  the server's exit status: %d; output: %s %s" %
                          (rc, srv.out.strip()[-400:], srv.err.strip()[-300:]))
        print("%-*s %s (%.1f s)" % (width, name, "ok" if len(failures) == n else "FAILED",
                                    time.monotonic() - t0), flush=True)
    for srv in Server.started:     # none left behind by a failed session
        if srv.p.poll() is None:
            check(False, "a server still runs: killed")
            srv.kill()
    for f in os.listdir(tmp):
        os.unlink(os.path.join(tmp, f))
    os.rmdir(tmp)
    print("%d failures" % len(failures))
    return 1 if failures else 0
