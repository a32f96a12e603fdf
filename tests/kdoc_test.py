#!/usr/bin/env python3
"""kernel-doc where netdev asks for it, in src/drv (issue 25):
  - every function of a driver file that is not static has a kernel-doc
    comment ("/**" ... " * name() - what it does") right above it;
  - every struct a driver header defines has one (" * struct name - ").
Whether those comments are well formed (each parameter and member
described, the sections) is the kernel's own scripts/kernel-doc, run by
`make checkpatch` (scripts/checkpatch.sh).
Usage: kdoc_test.py SOURCE_ROOT
"""
import os
import re
import sys

# a definition at the start of a line: return type, name, "(", no ";"
FUNC = re.compile(r"^(?!static\b)(?!typedef\b)[a-z_][\w \*]*?\b(\w+)\(")
STRUCT = re.compile(r"^struct (\w+) \{")


def doc_above(lines, i):
    """The kernel-doc comment ending right above line @i, or None."""
    j = i - 1
    while j >= 0 and not lines[j].strip():
        j -= 1
    if j < 0 or lines[j].strip() != "*/":
        return None
    k = j
    while k >= 0 and not lines[k].lstrip().startswith("/*"):
        k -= 1
    if k < 0 or not lines[k].startswith("/**"):
        return None
    return "\n".join(lines[k:j + 1])


def check(lines, i, what, path, errors):
    """@what (defined at line @i) has its kernel-doc ("what - ...")."""
    doc = doc_above(lines, i)
    if not doc or not re.search(r"^ \* %s - " % re.escape(what), doc, re.M):
        errors.append("%s:%d: %s has no kernel-doc%s"
                      % (path, i + 1, what, " (it is not static)" if "(" in what else ""))


def main():
    drv = os.path.join(os.path.abspath(sys.argv[1]), "src", "drv")
    errors, nfunc, nstruct = [], 0, 0
    for d, _, fs in sorted(os.walk(drv)):
        for f in sorted(fs):
            path = os.path.join(d, f)
            if not f.endswith((".c", ".h")):
                continue
            lines = open(path, encoding="utf-8").read().split("\n")
            for i, line in enumerate(lines):
                m = FUNC.match(line)
                if f.endswith(".c") and m and not line.rstrip().endswith(";") and \
                        not line.startswith(("MODULE_", "module_")):
                    nfunc += 1
                    check(lines, i, "%s()" % m.group(1), path, errors)
                m = STRUCT.match(line)
                if f.endswith(".h") and m:
                    nstruct += 1
                    check(lines, i, "struct %s" % m.group(1), path, errors)
    if not nfunc or not nstruct:
        errors.append("no driver functions or structs found under %s" % drv)
    for e in errors:
        print("FAIL:", e)
    print("kdoc: %d non-static functions, %d structs, %d without kernel-doc"
          % (nfunc, nstruct, len(errors)))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
