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

rx, page, source = sys.argv[1], sys.argv[2], sys.argv[3]
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

# SCENARIO KEYS: the same keys, defaults, values and help as --help-keys
def norm(t):
    return " ".join(t.split())
keys_help = subprocess.run([rx, "run", "--help-keys"], capture_output=True, text=True)
check(keys_help.returncode == 0, f"run --help-keys: exit {keys_help.returncode}")
entries, cur = [], None
body = keys_help.stdout.split("\n\n", 1)[-1]
for line in body.splitlines():
    if not line.startswith(" "):
        cur = [line, ""]
        entries.append(cur)
    elif line.startswith("        "):
        cur[0] += " " + line
    else:
        cur[1] += " " + line
cli = [(norm(h), norm(t)) for h, t in entries]
scd = open(source).read()
block = re.search(r"^; keys: generated.*?\n(.*?)^; keys: end$", scd, re.S | re.M)
check(block, "no generated SCENARIO KEYS block in the man page source")
man = []
for m in re.finditer(r"^\*(.+?)\* = (.*)\n\t(.*)$", block.group(1) if block else "", re.M):
    unesc = lambda t: re.sub(r"\\(.)", r"\1", t)
    man.append((norm(unesc(m.group(1)) + " = " + unesc(m.group(2))), norm(unesc(m.group(3)))))
check(len(cli) > 50, f"--help-keys lists {len(cli)} keys")
check(cli == man, "SCENARIO KEYS and --help-keys differ: " +
      "; ".join(f"{a} / {b}" for a, b in zip(cli, man) if a != b)[:600] +
      f" ({len(cli)} against {len(man)} keys)")
for k, _ in cli:
    check(k.split(" = ")[0] in text, f"key {k.split(' = ')[0]} is not in the rendered page")
for f in failures:
    print("FAIL:", f)
print(f"man: {len(failures)} problems")
sys.exit(1 if failures else 0)
