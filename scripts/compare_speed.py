#!/usr/bin/env python3
"""Simulation speed of two kcraft binaries, side by side in one run (docs/simulation-speed.md).

    scripts/compare_speed.py PLATFORM OLD_KCRAFT NEW_KCRAFT [--hw default] [--rounds 5]
                             [--workloads gemm:C4,relu:C5] [--json FILE]

Runs `kcraft speed PLATFORM --task T --config C --repeats 1 --json` with each binary for every workload,
alternating old and new (the order flips every round) so both see the same load, and prints one Markdown
row per workload: the cycles, the median simulated cycles per second of each binary through the SystemC
testbench and on the bare Verilated model, and new over old. Rates are per CPU-second where both binaries
report them (`*_cycles_per_cpu_second`), per wall second otherwise (binaries from before kcraft speed
measured CPU time). The workloads default to the new binary's fixed set (`kcraft speed PLATFORM`).
A workload whose cycles differ between the binaries is marked: its rates compare different work (for
cycle-for-cycle identity, scripts/compare_builds.sh).
"""
import argparse
import json
import statistics
import subprocess
import sys


def speed(binary, platform, hw, task, config):
    out = subprocess.run(
        [binary, "speed", platform, "--hw", hw, "--task", task, "--config", config, "--repeats", "1",
         "--json"],
        check=True, capture_output=True, text=True).stdout
    report = json.loads(out)
    # kcraft speed reports {"workloads": [...]}; binaries from before the fixed set, the workload itself.
    return report["workloads"][0] if "workloads" in report else report


def fixed_set(binary, platform, hw):
    out = subprocess.run([binary, "speed", platform, "--hw", hw, "--repeats", "1", "--json"], check=True,
                         capture_output=True, text=True).stdout
    return [(w["task"], w["config"]) for w in json.loads(out)["workloads"]]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("platform")
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--hw", default="default")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--workloads", help="task:config,... (default: the new binary's fixed set)")
    ap.add_argument("--json", help="write every measurement to this file")
    a = ap.parse_args()
    if a.rounds < 1:
        ap.error("--rounds must be at least 1")
    try:
        if a.workloads:
            workloads = [tuple(w.split(":", 1)) for w in a.workloads.split(",")]
            if any(len(w) != 2 for w in workloads):
                ap.error("--workloads takes task:config pairs, e.g. gemm:C4,relu:C5")
        else:
            workloads = fixed_set(a.new, a.platform, a.hw)
        runs = {side: {w: [] for w in workloads} for side in ("old", "new")}
        for r in range(a.rounds):
            order = ("old", "new") if r % 2 == 0 else ("new", "old")
            for w in workloads:
                for side in order:
                    runs[side][w].append(speed(getattr(a, side), a.platform, a.hw, *w))
            print(f"round {r + 1}/{a.rounds} done", file=sys.stderr)
    except subprocess.CalledProcessError as e:
        sys.exit(f"compare_speed: {' '.join(e.cmd)} failed ({e.returncode}):\n{e.stderr}")
    except (OSError, ValueError, KeyError) as e:
        sys.exit(f"compare_speed: {e}")

    both_cpu = all("systemc_cycles_per_cpu_second" in m for side in runs.values() for ms in side.values()
                   for m in ms)
    unit = "CPU-second" if both_cpu else "second (wall)"
    key = "_cycles_per_cpu_second" if both_cpu else "_cycles_per_second"
    print(f"{a.platform}/{a.hw}: simulated cycles per {unit}, median of {a.rounds} alternating rounds\n")
    print("| workload | cycles (old → new) | SystemC old | SystemC new | new / old | bare old | bare new | new / old |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    ratios = []
    for w in workloads:
        med = {side: {kind: statistics.median(m[kind + key] for m in runs[side][w])
                      for kind in ("systemc", "bare")} for side in runs}
        cycles = {side: runs[side][w][0]["cycles"] for side in runs}
        same = cycles["old"] == cycles["new"]
        cyc = f"{cycles['new']:,}" if same else f"{cycles['old']:,} → {cycles['new']:,} (differ)"
        sc = med["new"]["systemc"] / med["old"]["systemc"]
        bare = med["new"]["bare"] / med["old"]["bare"]
        ratios.append(sc)
        print(f"| {w[0]} {w[1]} | {cyc} | {med['old']['systemc']:,.0f} | {med['new']['systemc']:,.0f} | "
              f"{sc:.2f}× | {med['old']['bare']:,.0f} | {med['new']['bare']:,.0f} | {bare:.2f}× |")
    print(f"\ngeometric mean of the SystemC speed-ups: {statistics.geometric_mean(ratios):.2f}×")
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"platform": a.platform, "hw": a.hw, "rounds": a.rounds,
                       "runs": {side: {f"{t} {c}": ms for (t, c), ms in per.items()}
                                for side, per in runs.items()}}, f, indent=1)


if __name__ == "__main__":
    main()
