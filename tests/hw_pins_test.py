#!/usr/bin/env python3
"""The register offsets and bits the drivers use, against their public
sources (tests/data/hw_pins.tsv, issue 25 item 5).

Checks:
  1. every name of src/hw that a driver file (src/drv, comments left out)
     uses has a row in the table: a value and its source, or "-" with
     SOURCE "project" for a name that is no hardware fact;
  2. every row's value is what src/hw defines: the expressions are compiled
     against the src/hw headers and printed (the table's numbers are the
     sources', typed in from them; nothing is re-expanded from
     rtl_regs.def);
  3. no row is stale: its name is still defined in src/hw and still used by
     a driver.
Usage: hw_pins_test.py SOURCE_ROOT [CC]
"""
import os
import re
import subprocess
import sys
import tempfile

NAME = re.compile(r"\bRTLU?_[A-Za-z0-9_]+\b")


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return re.sub(r"//[^\n]*", "", text)


def hw_names(hw):
    """Names src/hw defines: macros, enum members, RTL_REG() rows."""
    names = set()
    for f in sorted(os.listdir(hw)):
        if not f.endswith((".h", ".def")):
            continue
        text = strip_comments(open(os.path.join(hw, f), encoding="utf-8").read())
        names.update(re.findall(r"^\s*#\s*define\s+(RTLU?_\w+)", text, re.M))
        names.update("RTL_" + n for n in re.findall(r"^RTL_REG\((\w+),", text, re.M))
        for body in re.findall(r"\benum\s+\w*\s*\{(.*?)\}", text, re.S):
            names.update(re.findall(r"\b(RTLU?_\w+)\s*(?:=[^,]*)?,?", body))
    return names


def driver_names(drv):
    used = set()
    for d, _, fs in sorted(os.walk(drv)):
        for f in sorted(fs):
            if f.endswith((".c", ".h")):
                text = strip_comments(open(os.path.join(d, f), encoding="utf-8").read())
                used.update(NAME.findall(text))
    return used


def main():
    root = os.path.abspath(sys.argv[1])
    cc = sys.argv[2] if len(sys.argv) > 2 else "cc"
    src = os.path.join(root, "src")
    table = os.path.join(root, "tests", "data", "hw_pins.tsv")
    errors, rows = [], []
    for n, line in enumerate(open(table, encoding="utf-8"), 1):
        line = line.rstrip("\n")
        if not line.strip() or line.startswith("#"):
            continue
        cols = line.split("\t")
        if len(cols) != 4 or not all(c.strip() for c in cols):
            errors.append("%s:%d: want EXPRESSION, VALUE, SOURCE, FACT (tabs): %r"
                          % (table, n, line))
            continue
        expr, value, source, fact = cols
        m = re.match(r"^(RTLU?_\w+)(\([^()]*\))?$", expr)
        if not m:
            errors.append("%s:%d: %r is no src/hw name or call" % (table, n, expr))
            continue
        if (value == "-") != (source == "project"):
            errors.append("%s:%d: %s: \"-\" goes with SOURCE project, a value with a "
                          "public source" % (table, n, expr))
            continue
        rows.append((n, m.group(1), expr, value, source))

    defined = hw_names(os.path.join(src, "hw"))
    used = driver_names(os.path.join(src, "drv")) & defined
    pinned = {r[1] for r in rows}
    for name in sorted(used - pinned):
        errors.append("%s is used by a driver and has no row in %s" % (name, table))
    for n, name, expr, _, _ in rows:
        if name not in defined:
            errors.append("%s:%d: %s is not defined in src/hw (stale row)" % (table, n, name))
        elif name not in used:
            errors.append("%s:%d: %s is used by no driver (stale row)" % (table, n, name))

    checked = [r for r in rows if r[3] != "-" and r[1] in defined]
    prog = ['#include <stdio.h>', '#include "hw/rtl_chips.h"', '#include "hw/rtl_defines.h"',
            '#include "hw/rtl_desc.h"', '#include "hw/rtl_regs.h"',
            '#include "hw/rtl_usb_regs.h"', "int main(void)", "{"]
    for _, _, expr, _, _ in checked:
        prog.append('\tprintf("%%llu\\n", (unsigned long long)(%s));' % expr)
    prog += ["\treturn 0;", "}"]
    with tempfile.TemporaryDirectory() as tmp:
        c = os.path.join(tmp, "pins.c")
        exe = os.path.join(tmp, "pins")
        with open(c, "w") as fh:
            fh.write("\n".join(prog) + "\n")
        out = subprocess.run([cc, "-std=c11", "-I", src, c, "-o", exe],
                             capture_output=True, text=True)
        if out.returncode:
            errors.append("compiling the pinned expressions failed:\n" + out.stderr)
            got = []
        else:
            got = subprocess.run([exe], capture_output=True, text=True,
                                 check=True).stdout.split()
    for (n, _, expr, value, source), g in zip(checked, got):
        if int(value, 0) != int(g):
            errors.append("%s:%d: %s is %#x in src/hw, %s says %s"
                          % (table, n, expr, int(g), source, value))
    for e in errors:
        print("FAIL:", e)
    print("hw-pins: %d driver names of src/hw, %d rows (%d values compiled and compared, "
          "%d project names), %d problems"
          % (len(used), len(rows), len(checked), len(rows) - len(checked), len(errors)))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
