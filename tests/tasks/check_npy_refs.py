#!/usr/bin/python3
"""Independent check of `kcraft task dump` output, run by npy_test.cpp with Debian's numpy.

For every dump directory given on the command line: load manifest.json and the .npy files, check shapes,
dtypes and that inputs are exactly representable in the task's dtype, recompute every reference in numpy
float64 and compare with <output>.ref.npy to 1e-12 (relative to each element, with a floor of 1e-12 times
the tensor's largest magnitude). Prints one line per task and exits non-zero on any disagreement.
"""
import json
import sys
from pathlib import Path

import numpy as np


def reference(task, x, params):
    if task == "relu":
        return {"y": np.maximum(x["x"], 0.0)}
    if task == "silu":
        return {"y": x["x"] / (1.0 + np.exp(-x["x"]))}
    if task == "softmax":
        z = x["x"] - x["x"].max(axis=-1, keepdims=True)
        e = np.exp(z)
        return {"y": e / e.sum(axis=-1, keepdims=True)}
    if task == "rms_norm":
        ms = np.mean(x["x"] ** 2, axis=-1, keepdims=True)
        return {"y": x["x"] / np.sqrt(ms + params["eps"]) * x["gamma"]}
    if task == "gemm":
        return {"C": x["A"] @ x["B"]}
    if task == "linear":
        return {"y": x["x"] @ x["W"].T + x["b"]}
    raise SystemExit(f"check_npy_refs.py: no numpy reference for task {task}")


def check(directory):
    manifest = json.loads((directory / "manifest.json").read_text())
    task, dtype = manifest["task"], manifest["dtype"]
    problems = []
    inputs = {}
    for entry in manifest["inputs"]:
        array = np.load(directory / entry["file"])
        if array.dtype != np.dtype("<f4"):
            problems.append(f"{entry['name']}: dtype {array.dtype}, expected <f4")
        if list(array.shape) != entry["shape"]:
            problems.append(f"{entry['name']}: shape {array.shape}, manifest {entry['shape']}")
        bits = array.view(np.uint32)
        if dtype == "bf16" and np.any(bits & 0xFFFF):
            problems.append(f"{entry['name']}: values not representable in bf16")
        if "bits_file" in entry:
            raw = np.load(directory / entry["bits_file"])
            expected = (bits >> 16).astype(np.uint16) if dtype == "bf16" else bits
            if raw.dtype != expected.dtype or not np.array_equal(raw, expected):
                problems.append(f"{entry['name']}: raw bits file disagrees with the values")
        inputs[entry["name"]] = array.astype(np.float64)
    refs = reference(task, inputs, manifest["params"])
    for entry in manifest["outputs"]:
        stored = np.load(directory / entry["ref_file"])
        if stored.dtype != np.dtype("<f8") or list(stored.shape) != entry["shape"]:
            problems.append(f"{entry['name']}: ref dtype/shape {stored.dtype} {stored.shape}")
            continue
        ours = refs[entry["name"]]
        floor = 1e-12 * np.max(np.abs(ours))
        error = np.abs(stored - ours)
        bad = error > 1e-12 * np.abs(ours) + floor
        if np.any(bad):
            worst = np.argmax(error)
            problems.append(f"{entry['name']}: {int(bad.sum())} elements differ, worst at flat {worst}: "
                            f"{stored.flat[worst]!r} vs numpy {ours.flat[worst]!r}")
        rel = float(np.max(error / np.maximum(np.abs(ours), floor))) if ours.size else 0.0
        print(f"{task} {manifest['config']} {entry['name']}: max rel diff vs numpy {rel:.2e}")
    layout = manifest["layout"]["regions"]
    for a, b in zip(layout, layout[1:]):
        if a["address"] + a["bytes"] > b["address"]:
            problems.append(f"layout regions {a['name']} and {b['name']} overlap")
    for problem in problems:
        print(f"{task}: {problem}")
    return not problems


def main():
    ok = all([check(Path(d)) for d in sys.argv[1:]])
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
