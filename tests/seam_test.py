#!/usr/bin/env python3
"""The driver seam: src/drv sees only the datasheet (src/hw) and the
Linux-named kernel API headers of src/kern/include, never the simulator.

Checks, for every source file under src/drv (src/drv/r8169/,
src/drv/r8152/ and the header both share):
  1. no simulator identifiers: sim_*, SIM_*, kern_charge, kern-> (the
     simulated kernel instance);
  2. the kernel API is included by Linux's own names: <linux/...>,
     <net/...>, <asm/...>, never a quoted "kern/..." path;
  3. the preprocessor's full include closure (cc -MM) holds only system
     headers, src/drv, src/hw and src/kern/include: not kern/kern.h (the
     simulated kernel instance), not kern's internals, nothing from
     src/sim, src/plat, src/model or any other layer; the same for every
     header of src/kern/include;
  4. each Linux-named header a driver includes exists under that name in
     a Linux tree (include/, arch/x86/include/), so the module build
     (kmod/) finds Linux's own: checked against the newest installed
     /usr/src/linux-headers-*-common (Debian's linux-headers-amd64) or
     the tree in $KDIR; said and skipped when there is none.
Usage: seam_test.py SOURCE_ROOT [CC]
"""
import glob
import os
import re
import subprocess
import sys

FORBIDDEN = re.compile(r"\b(sim_\w+|SIM_\w+|kern_charge\w*|kern->)")
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]', re.M)
KERNEL_API = ("linux/", "net/", "asm/")


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group(0).count("\n"), text, flags=re.S)
    return re.sub(r"//[^\n]*", "", text)


def linux_tree():
    """Include roots of a Linux tree, or None."""
    roots = []
    kdir = os.environ.get("KDIR")
    if kdir:
        roots.append(kdir)
    common = sorted(glob.glob("/usr/src/linux-headers-*-common"))
    if common:
        roots.append(common[-1])
    for r in roots:
        if os.path.isdir(os.path.join(r, "include", "linux")):
            return [os.path.join(r, "include"), os.path.join(r, "arch", "x86", "include")]
    return None


def main():
    root = os.path.abspath(sys.argv[1])
    cc = sys.argv[2] if len(sys.argv) > 2 else "cc"
    src = os.path.join(root, "src")
    drv = os.path.join(src, "drv")
    kinc = os.path.join(src, "kern", "include")
    files = sorted(os.path.join(d, f) for d, _, fs in os.walk(drv)
                   for f in fs if f.endswith((".c", ".h")))
    # the kernel API headers must not expose the simulator either
    api = sorted(os.path.join(d, f) for d, _, fs in os.walk(kinc)
                 for f in fs if f.endswith(".h"))
    errors = []
    if not any(f.endswith(".c") for f in files):
        errors.append("no driver sources found in %s" % drv)
    if not api:
        errors.append("no kernel API headers found in %s" % kinc)
    named = set()
    for path in files:
        with open(path, encoding="utf-8") as fh:
            text = strip_comments(fh.read())
        for n, line in enumerate(text.splitlines(), 1):
            m = FORBIDDEN.search(line)
            if m:
                errors.append("%s:%d: simulator identifier '%s'" % (path, n, m.group(1)))
        for kind, name in INCLUDE.findall(text):
            if kind == '"' and name.startswith("kern/"):
                errors.append('%s: includes "%s": the kernel API by its Linux name '
                              "(<linux/...>, <net/...>, <asm/...>)" % (path, name))
            if kind == "<" and name.startswith(KERNEL_API):
                named.add(name)
    for path in [f for f in files if f.endswith(".c")] + api:
        lang = ["-x", "c"] if path.endswith(".h") else []
        out = subprocess.run([cc, "-MM", "-D_GNU_SOURCE", "-I", src, "-I", kinc] + lang + [path],
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
            if rel.startswith(("drv" + os.sep, "hw" + os.sep)):
                continue
            if d.startswith(kinc + os.sep):
                continue        # the Linux-named kernel API
            errors.append("%s includes src/%s (drivers see src/hw and the "
                          "kernel API headers of src/kern/include only)" % (path, rel))
    for name in sorted(named):
        if not os.path.exists(os.path.join(kinc, name)):
            errors.append("<%s>: included by a driver, not in src/kern/include" % name)
    tree = linux_tree()
    if tree is None:
        print("seam: no Linux headers installed (linux-headers-amd64) and no KDIR: "
              "the %d Linux names not checked against a kernel tree" % len(named))
    else:
        for name in sorted(named):
            if not any(os.path.exists(os.path.join(t, name)) for t in tree):
                errors.append("<%s>: included by a driver, not a header of Linux (%s)"
                              % (name, tree[0]))
        print("seam: %d Linux header names checked against %s" % (len(named), tree[0]))
    for e in errors:
        print("FAIL:", e)
    print("seam: %d driver files and %d kernel API headers checked, %d problems"
          % (len(files), len(api), len(errors)))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
