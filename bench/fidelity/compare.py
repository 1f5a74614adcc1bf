#!/usr/bin/env python3
"""Side-by-side fidelity table: simulated failover timing against real Sentinel.

Reads bench/fidelity/real-<fault>-da<ms>.json (kun-sim failover-timing --mode local) and
sim-<fault>-da<ms>.json (--mode sim) for the six configurations of issue 3 section 5 and
prints a Markdown table: per metric the simulated median, the real min / median / max, and
whether the simulated median is within 15 % of the real median or else inside the real range.
A metric that never happened in the real runs passes only if it never happened in the
simulator either.

  bench/fidelity/compare.py                       # compare the JSON files as they are
  bench/fidelity/compare.py --kun-sim BIN         # first re-run the simulator (writes sim-*.json)
  bench/fidelity/compare.py --check               # exit 1 if any metric fails

Exit status 0 unless --check finds a failing metric or a file is missing.
"""
import argparse
import json
import os
import subprocess
import sys

CONFIGS = [("kill", 1000), ("kill", 5000), ("hang:3000", 1000), ("hang:3000", 5000),
           ("hang:5000", 1000), ("hang:5000", 5000)]
METRICS = [("odown_ms", "first +odown"), ("first_switch_ms", "first +switch-master"),
           ("last_switch_ms", "last +switch-master"), ("new_master_writable_ms", "new master writable"),
           ("old_master_replica_ms", "old master back as replica"),
           ("lost_acked_sentinel_client", "acked writes lost: sentinel client"),
           ("lost_acked_pinned_client", "acked writes lost: pinned client")]
TOLERANCE = 0.15
COMMON = "--failover-timeout 60000 --parallel-syncs 1 --runs 10"


def stem(fault, down_after):
    return f"{fault.replace(':', '-')}-da{down_after}"


def command(mode, fault, down_after, directory):
    out = os.path.join(directory, f"{'real' if mode == 'local' else 'sim'}-{stem(fault, down_after)}.json")
    return (f"kun-sim failover-timing --mode {mode} --down-after {down_after} {COMMON} "
            f"--fault {fault} --json {out}")


def stats(report, key):
    values = sorted(r[key] for r in report["runs"] if r.get(key) is not None)
    if not values:
        return {"n": 0, "runs": len(report["runs"])}
    mid = len(values) // 2
    median = values[mid] if len(values) % 2 else (values[mid - 1] + values[mid]) / 2
    return {"n": len(values), "runs": len(report["runs"]), "min": values[0], "median": median,
            "max": values[-1]}


def verdict(sim, real):
    """"median" (within 15 % of the real median), "range" (only inside the real min-max), or ""."""
    if real["n"] == 0:
        return "median" if sim["n"] == 0 else ""
    if sim["n"] == 0:
        return ""
    m = sim["median"]
    if abs(m - real["median"]) <= TOLERANCE * abs(real["median"]):
        return "median"
    return "range" if real["min"] <= m <= real["max"] else ""


def num(v):
    return f"{v:.1f}".rstrip("0").rstrip(".") if isinstance(v, float) else str(v)


def cell(sim, real, ok):
    mark = {"median": "✓", "range": "✓ (range)", "": "✗"}[ok]
    if real["n"] == 0 and sim["n"] == 0:
        return f"— / — ({sim['n']}/{sim['runs']} · {real['n']}/{real['runs']}) {mark}"
    s = num(sim["median"]) if sim["n"] else f"— ({sim['n']}/{sim['runs']})"
    if real["n"]:
        r = f"{num(real['median'])} ({num(real['min'])}–{num(real['max'])})"
    else:
        r = f"— ({real['n']}/{real['runs']})"
    partial = lambda x: f" [{x['n']}/{x['runs']}]" if 0 < x["n"] < x["runs"] else ""
    return f"**{s}**{partial(sim)} / {r}{partial(real)} {mark}"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dir", default=os.path.dirname(os.path.abspath(__file__)))
    ap.add_argument("--kun-sim", help="re-run the simulated side with this kun-sim binary first")
    ap.add_argument("--check", action="store_true", help="exit 1 if a metric misses the target")
    args = ap.parse_args()

    if args.kun_sim:
        for fault, da in CONFIGS:
            cmd = command("sim", fault, da, args.dir).split()
            cmd[0] = args.kun_sim
            subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)

    header = ["fault", "down-after"] + [label for _, label in METRICS]
    lines = ["| " + " | ".join(header) + " |", "|---|---:|" + "---:|" * len(METRICS)]
    failed, by_range, total = [], [], 0
    for fault, da in CONFIGS:
        paths = {side: os.path.join(args.dir, f"{side}-{stem(fault, da)}.json") for side in ("sim", "real")}
        missing = [p for p in paths.values() if not os.path.exists(p)]
        if missing:
            print(f"missing: {', '.join(missing)}", file=sys.stderr)
            return 2
        sim = json.load(open(paths["sim"]))
        real = json.load(open(paths["real"]))
        cells = []
        for key, label in METRICS:
            s, r = stats(sim, key), stats(real, key)
            ok = verdict(s, r)
            total += 1
            if not ok:
                failed.append(f"{fault} / down-after {da}: {label}")
            elif ok == "range":
                by_range.append(f"{fault} / down-after {da}: {label}")
            cells.append(cell(s, r, ok))
        lines.append(f"| {fault} | {da} | " + " | ".join(cells) + " |")
    print("\n".join(lines))
    print()
    print(f"Each cell: **simulated median** / real median (min–max), ms after the fault or writes; "
          f"[n/N] = happened in n of N runs; ✓ = simulated median within {int(TOLERANCE * 100)} % of "
          f"the real median; ✓ (range) = not within {int(TOLERANCE * 100)} % but inside the real "
          f"min–max; ✗ = neither. {total - len(failed)} of {total} metrics pass, "
          f"{len(by_range)} of them only by the range.")
    for f in failed:
        print(f"- misses: {f}")
    for f in by_range:
        print(f"- passes only by the real range: {f}")
    return 1 if args.check and failed else 0


if __name__ == "__main__":
    sys.exit(main())
