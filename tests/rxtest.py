"""rxtest.py - what the Python tests of `rxscale` share: a failure count
with one FAIL line per failed check, running `rxscale run`, and the exit
status."""
import subprocess
import sys

failures = 0


def check(cond, what):
    """Count and print a failed check."""
    global failures
    if not cond:
        failures += 1
        print("FAIL:", what)


def run(rxscale, *args):
    """`rxscale run ARGS`, its output captured as text."""
    return subprocess.run([rxscale, "run", *args], capture_output=True, text=True)


def finish(summary=None):
    """Print the summary (default: 'N failures') and exit 1 on failures."""
    print(summary if summary else f"{failures} failures")
    sys.exit(1 if failures else 0)
