#!/usr/bin/env python3
"""The driver seam: src/drv sees only the datasheet (src/hw) and the
Linux-named kernel API headers of src/kern, never the simulator.

Checks, for every source file in src/drv:
  1. no simulator identifiers: sim_*, SIM_*, kern_charge, kern-> (the
     simulated kernel instance);
  2. the preprocessor's full include closure (cc -MM) holds only system
     headers, src/drv, src/hw and src/kern's public headers, each with a
     kmod/include/kern counterpart that maps it to Linux's own: not
     kern/kern.h (the simulated kernel instance), not kern's internals,
     nothing from src/sim, src/plat, src/model or any other layer.
Usage: seam_test.py SOURCE_ROOT [CC]
"""
import os
import re
import subprocess
import sys

# src/kern headers that are not kernel API: the simulated kernel instance,
# and internals shared by kern's own files (the ethtool command-line tool
# lives in src/ethtool, a layer the driver never sees).
KERN_PRIVATE = {"kern.h", "irq_internal.h"}
FORBIDDEN = re.compile(r"\b(sim_\w+|SIM_\w+|kern_charge\w*|kern->)")


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group(0).count("\n"), text, flags=re.S)
    return re.sub(r"//[^\n]*", "", text)


def main():
    root = os.path.abspath(sys.argv[1])
    cc = sys.argv[2] if len(sys.argv) > 2 else "cc"
    src = os.path.join(root, "src")
    drv = os.path.join(src, "drv")
    files = sorted(f for f in os.listdir(drv) if f.endswith((".c", ".h")))
    kern = os.path.join(src, "kern")
    # the public kernel API headers must not expose the simulator either
    api = sorted(os.path.join(kern, f) for f in os.listdir(kern)
                 if f.endswith(".h") and f not in KERN_PRIVATE)
    errors = []
    if not any(f.endswith(".c") for f in files):
        errors.append("no driver sources found in %s" % drv)
    for f in files:
        path = os.path.join(drv, f)
        with open(path, encoding="utf-8") as fh:
            for n, line in enumerate(strip_comments(fh.read()).splitlines(), 1):
                m = FORBIDDEN.search(line)
                if m:
                    errors.append("%s:%d: simulator identifier '%s'" % (path, n, m.group(1)))
    for path in [os.path.join(drv, f) for f in files if f.endswith(".c")] + api:
        lang = ["-x", "c"] if path.endswith(".h") else []
        out = subprocess.run([cc, "-MM", "-D_GNU_SOURCE", "-I", src] + lang + [path],
                             capture_output=True, text=True)
        if out.returncode:
            errors.append("%s: cc -MM failed:\n%s" % (path, out.stderr))
            continue
        deps = out.stdout.replace("\\\n", " ").split(":", 1)[1].split()
        for d in deps:
            d = os.path.abspath(d)
            if not d.startswith(src + os.sep):
                continue        # system header
            rel = os.path.relpath(d, src)
            layer, name = rel.split(os.sep, 1) if os.sep in rel else ("", rel)
            if layer in ("drv", "hw"):
                continue
            if layer == "kern" and name not in KERN_PRIVATE:
                # every kernel API header the driver sees resolves to Linux
                # in the module build (kmod/include/kern/NAME)
                if not os.path.exists(os.path.join(root, "kmod", "include", "kern", name)):
                    errors.append("%s includes src/kern/%s, which has no module-build "
                                  "counterpart kmod/include/kern/%s" % (path, name, name))
                continue
            errors.append("%s includes src/%s (drivers see src/hw and the "
                          "kernel API headers only)" % (path, rel))
    files += api
    for e in errors:
        print("FAIL:", e)
    print("seam: %d driver files checked, %d problems" % (len(files), len(errors)))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
