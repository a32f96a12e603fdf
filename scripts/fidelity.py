#!/usr/bin/env python3
"""The seeds 1-8 table of docs/fidelity.md: every EXPERIMENTS.md row, the
fraction of seeds for which `rxscale run SCENARIO --compare` puts it in band.

Runs every scenarios/e*.ini with --compare --json once per seed (at most
two runs at a time: the build machine's two cores are shared), then prints,
per row, its role, how many seeds put it in band, the spread over the
seeds (min..max of its value: the run-to-run variation the seed drives)
and each seed's value.
A row that several scenarios report (E3e: the two ping runs) is in band for
a seed only when it is in band in every one of them.  EXPERIMENTS.md counts
a row as reproduced when it is in band for at least 7 of seeds 1-8.

  scripts/fidelity.py                       # the table, as text
  scripts/fidelity.py --markdown            # as docs/fidelity.md carries it
  scripts/fidelity.py --save after.json     # keep the per-seed results
  scripts/fidelity.py --before before.json  # a "before" column beside it
  scripts/fidelity.py --rows E1a,E1b --seeds 1-3
  scripts/fidelity.py --series runs/          # keep per-second series too

Standard library only.  Exit status: 0, or 1 when a run failed.
"""
import argparse
import concurrent.futures
import glob
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def parse_seeds(text):
    seeds = []
    for part in text.split(","):
        lo, _, hi = part.partition("-")
        try:
            a, b = int(lo), int(hi or lo)
        except ValueError:
            raise argparse.ArgumentTypeError(f"'{text}' is not a seed list (e.g. 1-8 or 1,3)")
        if a > b or a < 0:
            raise argparse.ArgumentTypeError(f"'{part}' is not a seed range")
        seeds.extend(range(a, b + 1))
    return seeds


def jobs_arg(text):
    try:
        n = int(text)
    except ValueError:
        n = 0
    if not 1 <= n <= 2:
        raise argparse.ArgumentTypeError("-j: 1 or 2 (the build machine has two shared cores)")
    return n


def run_one(rxscale, path, seed, extra, series=None):
    cmd = [rxscale, "run", path, "--compare", "--json", "--seed", str(seed)] + extra
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode not in (0, 3):
        return None, f"{' '.join(cmd)}: exit {r.returncode}: {r.stderr.strip()[-400:]}"
    try:
        d = json.loads(r.stdout)
    except json.JSONDecodeError as e:
        return None, f"{' '.join(cmd)}: not JSON ({e})"
    if series:
        name = os.path.basename(path)[:-4]
        summ = d.get("summary", {})
        with open(os.path.join(series, f"{name}-seed{seed}.json"), "w",
                  encoding="utf-8") as f:
            json.dump({"intervals": summ.get("intervals", []),
                       "ping": summ.get("ping")}, f, sort_keys=True)
            f.write("\n")
    return d.get("compare", []), None


def collect(args):
    paths = sorted(glob.glob(args.scenarios))
    if not paths:
        sys.exit(f"fidelity: no scenario matches {args.scenarios}")
    work = [(p, s) for s in args.seeds for p in paths]
    res = {}            # row -> seed -> {"ok", "values", "notes", "role"}
    failed = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as ex:
        futs = {ex.submit(run_one, args.rxscale, p, s, args.set, args.series): (p, s)
                for p, s in work}
        for n, fut in enumerate(concurrent.futures.as_completed(futs), 1):
            p, s = futs[fut]
            rows, err = fut.result()
            name = os.path.basename(p)[:-4]
            if not args.quiet:
                print(f"[{n}/{len(work)}] {name} seed {s}" + (f": {err}" if err else ""),
                      file=sys.stderr)
            if err:
                failed.append(err)
                continue
            for c in rows:
                if args.rows and c["row"] not in args.rows:
                    continue
                e = res.setdefault(c["row"], {}).setdefault(
                    str(s), {"ok": True, "values": [], "notes": [], "role": c["role"]})
                e["ok"] = e["ok"] and bool(c["ok"])
                e["values"].append([name, round(c["value"], 4)])
                e["notes"].append(f"{name}: {c['note']}")
                e["values"].sort()
                e["notes"].sort()
    return res, failed


def row_key(r):
    return (r[:2], r)


def fraction(res, row, seeds):
    per = res.get(row, {})
    got = [per[str(s)]["ok"] for s in seeds if str(s) in per]
    return sum(got), len(got)


def fmt_num(x):
    return f"{x:.3f}" if abs(x) < 5 else f"{x:.2f}"


def spread(res, row, seeds):
    """The run-to-run spread of a row over the seeds: min..max of each of
    its values (E3e has two: mitigation off / on)."""
    per = [res.get(row, {}).get(str(s)) for s in seeds]
    per = [e["values"] for e in per if e]
    if not per:
        return "-"
    out = []
    for i in range(len(per[0])):
        xs = [v[i][1] for v in per if len(v) > i]
        lo, hi = min(xs), max(xs)
        out.append(fmt_num(lo) if fmt_num(lo) == fmt_num(hi) else
                   f"{fmt_num(lo)}..{fmt_num(hi)}")
    return "/".join(out)


def fmt_vals(res, row, seeds):
    out = []
    for s in seeds:
        e = res.get(row, {}).get(str(s))
        if not e:
            out.append("-")
            continue
        v = "/".join(fmt_num(x) for _, x in e["values"])
        out.append(v + ("" if e["ok"] else "*"))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rxscale", default=os.path.join(ROOT, "build", "rxscale"))
    ap.add_argument("--scenarios", default=os.path.join(ROOT, "scenarios", "e*.ini"),
                    help="glob of the scenario files (default: scenarios/e*.ini)")
    ap.add_argument("--seeds", type=parse_seeds, default=list(range(1, 9)))
    ap.add_argument("-j", "--jobs", type=jobs_arg, default=2)
    ap.add_argument("--rows", type=lambda t: set(t.split(",")), default=None,
                    help="only these rows (comma-separated)")
    ap.add_argument("--set", action="append", default=[], type=lambda t: ["--set", t],
                    help="pass --set section.key=value to every run")
    ap.add_argument("--save", help="write the per-seed results here (JSON)")
    ap.add_argument("--series", help="keep each run's per-second intervals and ping "
                    "summary in this directory (scripts/fidelity_plot.py draws them)")
    ap.add_argument("--load", help="print a saved result instead of running")
    ap.add_argument("--before", help="a saved result to print beside this one")
    ap.add_argument("--markdown", action="store_true", help="a Markdown table")
    ap.add_argument("--quiet", action="store_true", help="no progress lines")
    args = ap.parse_args()
    args.set = [x for pair in args.set for x in pair]
    if args.series:
        os.makedirs(args.series, exist_ok=True)

    if args.load:
        with open(args.load, encoding="utf-8") as f:
            saved = json.load(f)
        res, failed, seeds = saved["rows"], [], saved["seeds"]
    else:
        if not os.access(args.rxscale, os.X_OK):
            sys.exit(f"fidelity: {args.rxscale} is not an executable (run make first)")
        res, failed = collect(args)
        seeds = args.seeds
    before = None
    if args.before:
        with open(args.before, encoding="utf-8") as f:
            before = json.load(f)
    if args.save:
        with open(args.save, "w", encoding="utf-8") as f:
            json.dump({"seeds": seeds, "set": args.set, "rows": res}, f, indent=1,
                      sort_keys=True)
            f.write("\n")

    rows = sorted(res, key=row_key)
    reproduced = 0
    if args.markdown:
        head = "| row | role |" + (" before |" if before else "") + \
               " in band | spread | " + " | ".join(f"seed {s}" for s in seeds) + " |"
        print(head)
        print("|" + "---|" * (head.count("|") - 1))
    else:
        print(f"{'row':4}  {'role':9}  " + (f"{'before':>6}  " if before else "") +
              f"{'in band':>7}  {'spread':>13}  values per seed {seeds[0]}..{seeds[-1]} "
              "(* out of band)")
    for row in rows:
        k, n = fraction(res, row, seeds)
        role = next(iter(res[row].values()))["role"]
        reproduced += n and k >= 7 * n / 8
        b = ""
        if before:
            bk, bn = fraction(before["rows"], row, before["seeds"])
            b = f"{bk}/{bn}"
        vals = fmt_vals(res, row, seeds)
        sp = spread(res, row, seeds)
        if args.markdown:
            print(f"| {row} | {role} |" + (f" {b} |" if before else "") +
                  f" {k}/{n} | {sp} | " + " | ".join(vals) + " |")
        else:
            print(f"{row:4}  {role:9}  " + (f"{b:>6}  " if before else "") +
                  f"{f'{k}/{n}':>7}  {sp:>13}  " + " ".join(vals))
    print(f"\n{reproduced} of {len(rows)} rows in band for at least 7 of 8 seeds "
          f"(seeds {seeds[0]}-{seeds[-1]})" if not args.markdown else
          f"\n{reproduced} of {len(rows)} rows in band for at least 7 of 8 seeds.")
    for e in failed:
        print(f"fidelity: {e}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
