#!/usr/bin/env python3
"""The man page rxscale(1): built from docs/rxscale.1.scd, it renders with
man(1) without warnings, has the usual sections, and names every long
option that `rxscale run --help` lists and every subcommand of `rxscale
--help` (so the page keeps up with the program).
Usage: man_test.py RXSCALE PAGE   (exit 77: man(1) missing, skipped)
"""
import os
import re
import shutil
import subprocess
import sys

rx, page = sys.argv[1], sys.argv[2]
if not shutil.which("man"):
    print("man_test: man(1) not installed, skipped")
    sys.exit(77)
failures = []
src = open(page).read()
check = lambda ok, what: ok or failures.append(what)
check(src.startswith(".") and '.TH "rxscale" "1"' in src, "no .TH rxscale 1 header")
env = dict(os.environ, MANWIDTH="80", LC_ALL="C.UTF-8")
r = subprocess.run(["man", "--warnings", "-l", page], capture_output=True, text=True, env=env)
check(r.returncode == 0, f"man -l: exit {r.returncode}: {r.stderr}")
check(not r.stderr.strip(), f"man -l warnings: {r.stderr.strip()}")
text = r.stdout
for sec in ("NAME", "SYNOPSIS", "DESCRIPTION", "RUN", "EXIT STATUS", "EXAMPLES"):
    check(re.search(rf"^{sec}$", text, re.M), f"section {sec} missing")
run_help = subprocess.run([rx, "run", "--help"], capture_output=True, text=True).stdout
for opt in sorted(set(re.findall(r"--[a-z]+", run_help))):
    check(opt in text, f"rxscale run {opt} is not in the man page")
top_help = subprocess.run([rx, "--help"], capture_output=True, text=True).stdout
for cmd in re.findall(r"^  ([a-z][a-z-]*) ", top_help, re.M):
    check(f"rxscale {cmd}" in text, f"subcommand {cmd} is not in the man page")
for f in failures:
    print("FAIL:", f)
print(f"man: {len(failures)} problems")
sys.exit(1 if failures else 0)
