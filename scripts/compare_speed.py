#!/usr/bin/env python3
"""Simulation speed of two kcraft binaries, side by side in one run (docs/simulation-speed.md).

    scripts/compare_speed.py PLATFORM OLD_KCRAFT NEW_KCRAFT [--hw default] [--rounds 5]
                             [--workloads gemm:C4,relu:C5] [--json FILE] [--instructions]

Runs `kcraft speed PLATFORM --task T --config C --repeats 1 --json` with each binary for every workload,
alternating old and new (the order flips every round) so both see the same load, and prints one Markdown
row per workload: the cycles, the median simulated cycles per second of each binary through the SystemC
testbench and on the bare Verilated model, new over old, and the range of new over old in single rounds
(a wide range says the machine's noise is larger than the difference). Rates are per CPU-second where both
binaries report them (`*_cycles_per_cpu_second`), per wall second otherwise (binaries from before kcraft
speed measured CPU time). The workloads default to the new binary's fixed set (`kcraft speed PLATFORM`).
A workload whose cycles differ between the binaries is marked: its rates compare different work (for
cycle-for-cycle identity, scripts/compare_builds.sh).

--instructions counts instead of timing: each binary runs each workload once under valgrind's cachegrind
(installed with scripts/setup.sh --tests), and the row gives the instructions the Verilated model and its
driver execute per simulated cycle, reset and loading included as in kcraft speed's rates (kcraft speed
simulates the workload twice, through the SystemC testbench and bare), and old over new. The count is the
same on every run, where timings on a shared machine can spread by more than the change being measured; it
does not see cache misses or branch mispredictions.
"""
import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile


def speed(binary, platform, hw, task, config):
    out = subprocess.run(
        [binary, "speed", platform, "--hw", hw, "--task", task, "--config", config, "--repeats", "1",
         "--json"],
        check=True, capture_output=True, text=True).stdout
    report = json.loads(out)
    # kcraft speed reports {"workloads": [...]}; binaries from before the fixed set, the workload itself.
    return report["workloads"][0] if "workloads" in report else report


def round_range(old_runs, new_runs, key):
    """The lowest and highest new / old of single rounds: how far this machine's noise moves the ratio."""
    per_round = [n[key] / o[key] for o, n in zip(old_runs, new_runs)]
    return f"{min(per_round):.2f}–{max(per_round):.2f}×"


# The functions of the Verilated model (V<prefix>___024root___..., V<prefix>::eval_step), Verilator's runtime
# and the testbench's driver; the rest of the process (loading the task, generating its inputs) is left out.
MODEL_FUNCTION = re.compile(r"___024root|Verilated|::eval_step\(|(^|\W)vl_")  # Verilated: the runtime and the driver


def instructions(binary, platform, hw, task, config):
    """Cycles and the model's instructions of one kcraft speed run under cachegrind."""
    with tempfile.TemporaryDirectory() as tmp:
        out_file = os.path.join(tmp, "cachegrind.out")
        run = subprocess.run(["valgrind", "--tool=cachegrind", "--cache-sim=no",
                              f"--cachegrind-out-file={out_file}", binary, "speed", platform, "--hw", hw,
                              "--task", task, "--config", config,
                              "--repeats", "1", "--json"], check=True, capture_output=True, text=True)
        report = json.loads(run.stdout)
        workload = report["workloads"][0] if "workloads" in report else report
        model = 0
        function = ""
        with open(out_file) as f:
            for line in f:
                if line.startswith("fn="):
                    function = line[3:]
                elif line[:1].isdigit() and MODEL_FUNCTION.search(function):
                    fields = line.split()
                    if len(fields) >= 2:
                        model += int(fields[1])
    return workload["cycles"], model


def compare_instructions(a, workloads):
    if shutil.which("valgrind") is None:
        sys.exit("compare_speed: --instructions needs valgrind (scripts/setup.sh --tests installs it, or "
                 "apt-get install valgrind)")
    counts = {}
    try:
        for w in workloads:
            for side in ("old", "new"):
                counts[side, w] = instructions(getattr(a, side), a.platform, a.hw, *w)
            print(f"{w[0]} {w[1]} done", file=sys.stderr)
    except subprocess.CalledProcessError as e:
        sys.exit(f"compare_speed: {' '.join(e.cmd)} failed ({e.returncode}):\n{e.stderr}")
    except (OSError, ValueError, KeyError) as e:
        sys.exit(f"compare_speed: {e}")
    print(f"{a.platform}/{a.hw}: instructions of the Verilated model and its driver per simulated cycle "
          "(cachegrind, one kcraft speed run each: the SystemC and the bare run)\n")
    print("| workload | cycles (old → new) | old | new | old / new |")
    print("|---|---:|---:|---:|---:|")
    ratios = []
    for w in workloads:
        (old_cycles, old_ir), (new_cycles, new_ir) = counts["old", w], counts["new", w]
        if old_ir == 0 or new_ir == 0:
            sys.exit(f"compare_speed: cachegrind counted no model instructions for {w[0]} {w[1]}")
        old_per, new_per = old_ir / (2 * old_cycles), new_ir / (2 * new_cycles)
        ratios.append(old_per / new_per)
        cyc = f"{new_cycles:,}" if old_cycles == new_cycles else f"{old_cycles:,} → {new_cycles:,} (differ)"
        print(f"| {w[0]} {w[1]} | {cyc} | {old_per:,.1f} | {new_per:,.1f} | {old_per / new_per:.3f}× |")
    print(f"\ngeometric mean of old / new: {statistics.geometric_mean(ratios):.3f}×")
    if a.json:
        with open(a.json, "w") as f:
            per_side = {side: {f"{t} {c}": {"cycles": counts[side, (t, c)][0],
                                            "model_instructions": counts[side, (t, c)][1]}
                               for (t, c) in workloads} for side in ("old", "new")}
            json.dump({"platform": a.platform, "hw": a.hw, "instructions": per_side}, f, indent=1)


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
    ap.add_argument("--instructions", action="store_true",
                    help="count the model's instructions per simulated cycle with cachegrind instead of timing")
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
        if a.instructions:
            compare_instructions(a, workloads)
            return
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
    print(f"{a.platform}/{a.hw}: simulated cycles per {unit}, median of {a.rounds} alternating rounds; "
          "the range is the lowest and highest new / old of single rounds (old and new measured back to back)\n")
    print("| workload | cycles (old → new) | SystemC old | SystemC new | new / old | range | bare old | bare new "
          "| new / old | range |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
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
        spread = {kind: round_range(runs["old"][w], runs["new"][w], kind + key)
                  for kind in ("systemc", "bare")}
        print(f"| {w[0]} {w[1]} | {cyc} | {med['old']['systemc']:,.0f} | {med['new']['systemc']:,.0f} | "
              f"{sc:.2f}× | {spread['systemc']} | {med['old']['bare']:,.0f} | {med['new']['bare']:,.0f} | "
              f"{bare:.2f}× | {spread['bare']} |")
    print(f"\ngeometric mean of the SystemC speed-ups: {statistics.geometric_mean(ratios):.2f}×")
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"platform": a.platform, "hw": a.hw, "rounds": a.rounds,
                       "runs": {side: {f"{t} {c}": ms for (t, c), ms in per.items()}
                                for side, per in runs.items()}}, f, indent=1)


if __name__ == "__main__":
    main()
