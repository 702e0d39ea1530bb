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


def gelu_tanh(z):
    return 0.5 * z * (1.0 + np.tanh(np.sqrt(2.0 / np.pi) * (z + 0.044715 * z**3)))


def silu(z):
    return z / (1.0 + np.exp(-z))


def softmax_rows(z):
    e = np.exp(z - z.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def attention(q, k, v, causal):
    """q [..., S, D], k and v broadcastable to it; mask with np.triu above the diagonal."""
    s = np.einsum("...id,...jd->...ij", q, k) / np.sqrt(q.shape[-1])
    if causal:
        n = s.shape[-1]
        s = np.where(np.triu(np.ones((n, n), dtype=bool), k=1), -np.inf, s)
    return np.einsum("...ij,...jd->...id", softmax_rows(s), v)


def patches(x, kh, kw, stride, pad):
    """[OH, OW, C, KH, KW] windows of the zero-padded NHWC image x [H, W, C]."""
    padded = np.pad(x, ((pad, pad), (pad, pad), (0, 0)))
    windows = np.lib.stride_tricks.sliding_window_view(padded, (kh, kw), axis=(0, 1))
    return windows[::stride, ::stride]


def rms_norm(v, gamma, eps):
    return v / np.sqrt(np.mean(v**2, axis=-1, keepdims=True) + eps) * gamma


def t5_buckets(distance, num_buckets, max_distance, dtype):
    """Hugging Face T5Attention._relative_position_bucket(-distance, bidirectional=False) with the log
    taken in `dtype` (torch computes it in float32)."""
    max_exact = num_buckets // 2
    ratio = np.maximum(distance, 1).astype(dtype) / dtype(max_exact)
    large = max_exact + (np.log(ratio) / dtype(np.log(max_distance / max_exact)) * dtype(num_buckets - max_exact))
    large = np.minimum(large.astype(np.int64), num_buckets - 1)
    return np.where(distance < max_exact, distance, large)


def decoder_block(x, params, dims, llama):
    """Pre-norm decoder block with heads as a reshape of the token-major projections: [S, H*DH] ->
    [H, S, DH]; LLaMA (RoPE, GQA by np.repeat, 1/sqrt(DH), SwiGLU) or T5 (relative bias, ReLU FFN)."""
    s, heads, dh = dims["S"], dims["HEADS"], dims["DH"]
    kv_heads = dims["KV_HEADS"] if llama else heads

    def split(t, n):
        return t.reshape(s, n, dh).transpose(1, 0, 2)

    h = rms_norm(x["x"], x["g_attn"], params["eps"])
    q, k, v = split(h @ x["Wq"].T, heads), split(h @ x["Wk"].T, kv_heads), split(h @ x["Wv"].T, kv_heads)
    causal = np.triu(np.ones((s, s), dtype=bool), k=1)
    if llama:
        def rotate(t):
            half = dh // 2
            return t * x["cos"] + np.concatenate([-t[..., half:], t[..., :half]], axis=-1) * x["sin"]

        q, k = rotate(q), rotate(k)
        k, v = np.repeat(k, heads // kv_heads, axis=0), np.repeat(v, heads // kv_heads, axis=0)
        scores = np.einsum("hid,hjd->hij", q, k) * params["scale"]
    else:
        distance = np.arange(s)[:, None] - np.arange(s)[None, :]
        nb, md = int(params["num_buckets"]), int(params["max_distance"])
        buckets = t5_buckets(np.maximum(distance, 0), nb, md, np.float32)
        scores = np.einsum("hid,hjd->hij", q, k) + x["bias"][:, buckets]
    attended = np.einsum("hij,hjd->hid", softmax_rows(np.where(causal, -np.inf, scores)), v)
    x2 = x["x"] + attended.transpose(1, 0, 2).reshape(s, heads * dh) @ x["Wo"].T
    h2 = rms_norm(x2, x["g_ffn"], params["eps"])
    if llama:
        return x2 + (silu(h2 @ x["Wg"].T) * (h2 @ x["Wu"].T)) @ x["Wd"].T
    return x2 + np.maximum(h2 @ x["Wi"].T, 0.0) @ x["Wo_ff"].T


def reference(task, x, params, dims):
    if task == "relu":
        return {"y": np.maximum(x["x"], 0.0)}
    if task == "silu":
        return {"y": silu(x["x"])}
    if task == "gelu":
        return {"y": gelu_tanh(x["x"])}
    if task == "softmax":
        return {"y": softmax_rows(x["x"])}
    if task == "rms_norm":
        ms = np.mean(x["x"] ** 2, axis=-1, keepdims=True)
        return {"y": x["x"] / np.sqrt(ms + params["eps"]) * x["gamma"]}
    if task == "layer_norm":
        mean = x["x"].mean(axis=-1, keepdims=True)
        var = x["x"].var(axis=-1, keepdims=True)  # biased, as the spec says
        return {"y": (x["x"] - mean) / np.sqrt(var + params["eps"]) * x["gamma"] + x["beta"]}
    if task == "gemm":
        return {"C": x["A"] @ x["B"]}
    if task == "linear":
        return {"y": x["x"] @ x["W"].T + x["b"]}
    if task == "gemv":
        return {"y": x["A"] @ x["x"]}
    if task == "batch_matmul":
        return {"C": np.einsum("bmk,bkn->bmn", x["A"], x["B"])}
    if task == "conv2d":
        w = x["w"]  # HWIO
        cols = patches(x["x"], w.shape[0], w.shape[1], dims["STRIDE"], dims["PAD"])
        return {"y": np.einsum("abcij,ijcf->abf", cols, w)}
    if task == "depthwise_conv":
        w = x["w"]  # [KH, KW, C]
        cols = patches(x["x"], w.shape[0], w.shape[1], dims["STRIDE"], dims["PAD"])
        return {"y": np.einsum("abcij,ijc->abc", cols, w)}
    if task == "rope":
        v = x["x"]
        half = v.shape[-1] // 2
        rotated = np.concatenate([-v[..., half:], v[..., :half]], axis=-1)
        return {"y": v * x["cos"] + rotated * x["sin"]}
    if task == "ffn":
        h = gelu_tanh(x["x"] @ x["W1"].T + x["b1"])
        return {"y": h @ x["W2"].T + x["b2"]}
    if task == "swiglu":
        h = silu(x["x"] @ x["Wg"].T) * (x["x"] @ x["Wu"].T)
        return {"y": h @ x["Wd"].T}
    if task == "conv_block":
        w = x["w"]
        cols = patches(x["x"], w.shape[0], w.shape[1], dims["STRIDE"], dims["PAD"])
        pre = np.einsum("abcij,ijcf->abf", cols, w) * x["scale"] + x["shift"]
        return {"y": np.maximum(pre + x["x"] if dims["RESIDUAL"] == 1 else pre, 0.0)}
    if task in ("decoder_block_llama", "decoder_block_t5"):
        return {"y": decoder_block(x, params, dims, task == "decoder_block_llama")}
    causal = dims.get("CAUSAL") == 1
    if task in ("attention", "flash_attention", "mha", "mqa"):
        # mqa: K and V [S, D] broadcast over the heads.
        return {"O": attention(x["Q"], x["K"], x["V"], causal)}
    if task == "gqa":
        group = x["Q"].shape[0] // x["K"].shape[0]
        return {"O": attention(x["Q"], np.repeat(x["K"], group, axis=0), np.repeat(x["V"], group, axis=0), causal)}
    raise SystemExit(f"check_npy_refs.py: no numpy reference for task {task}")


def rope_tables(positions, dim, base):
    theta = base ** (-2.0 * (np.arange(dim) % (dim // 2)) / dim)
    angle = np.arange(positions)[:, None] * theta[None, :]
    return np.cos(angle), np.sin(angle)


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
    for entry in manifest["inputs"]:
        init = entry.get("init", {})
        if init.get("dist") in ("rope_cos", "rope_sin"):
            # Fixed tables: the stored values must be numpy's cos/sin rounded once to the dtype (half an
            # ulp, 2^-8 or 2^-24 relative, plus slack for the last bits of the double-precision angle).
            table = rope_tables(*entry["shape"], init["base"])[init["dist"] == "rope_sin"]
            half_ulp = 2.0**-8 if dtype == "bf16" else 2.0**-24
            if np.any(np.abs(inputs[entry["name"]] - table) > half_ulp * np.abs(table) + 1e-12):
                problems.append(f"{entry['name']}: not the {init['dist']} table")
    if task == "decoder_block_t5":
        # The reference's buckets come from a double-precision log; torch takes it in float32. They must
        # agree at every distance a sequence up to 4096 tokens has.
        distance = np.arange(4096)
        nb, md = int(manifest["params"]["num_buckets"]), int(manifest["params"]["max_distance"])
        if not np.array_equal(t5_buckets(distance, nb, md, np.float32), t5_buckets(distance, nb, md, np.float64)):
            problems.append("T5 buckets from a float32 log differ from a float64 log")
    refs = reference(task, inputs, manifest["params"], manifest["dims"])
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
