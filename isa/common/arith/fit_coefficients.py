#!/usr/bin/python3
"""Derives the integer constants of the fixed-point exp/reci/rsqrt in fp_arith.cpp and kc_fp_pkg.sv.

Relative minimax fits by Lawson's iteratively reweighted least squares on a dense grid (numpy only; run
with Debian's /usr/bin/python3). The constants are committed in the sources; this script documents where
they came from and reproduces them:  /usr/bin/python3 isa/common/arith/fit_coefficients.py
"""
import numpy as np


def lawson(basis, target, iterations=3000):
    """Coefficients c minimising max |basis @ c - target| over the grid rows."""
    weights = np.full(len(target), 1.0 / len(target))
    for _ in range(iterations):
        root = np.sqrt(weights)
        coeffs, *_ = np.linalg.lstsq(basis * root[:, None], target * root, rcond=None)
        error = np.abs(basis @ coeffs - target)
        weights = weights * error
        weights /= weights.sum()
    return coeffs, error.max()


def main():
    print(f"kLog2eQ39 = {round(1.4426950408889634 * 2**39):#x}")

    # 2^f on [0, 1) as 1 + c1 f + ... + c6 f^6, minimising the relative error (rows divided by 2^f).
    f = np.linspace(0.0, 1.0, 40001)
    degree = 6
    basis = np.stack([f**i for i in range(1, degree + 1)], 1) / (2**f)[:, None]
    coeffs, error = lawson(basis, (2**f - 1) / 2**f)
    q30 = [2**30] + [round(c * 2**30) for c in coeffs]
    print(f"exp poly degree {degree}: relative error 2^{np.log2(error):.2f}; Q2.30: {q30}")

    # Reciprocal seed: 24/17 - 8/17 M is the classical relative-minimax line on [1, 2] (error 1/17).
    print(f"reci seed Q1.31: A = {round(24 / 17 * 2**31)}, B = {round(8 / 17 * 2**31)}")

    # rsqrt seed on [1, 2): (a - b M) sqrt(M) ~ 1; on [2, 4) the same line rescaled by 1/sqrt(2).
    m = np.linspace(1.0, 2.0, 40001)
    (a, b), error = lawson(np.stack([np.sqrt(m), -m * np.sqrt(m)], 1), np.ones_like(m))
    print(f"rsqrt seed relative error 2^{np.log2(error):.2f}")
    print(f"rsqrt seed [1,2) Q1.31: A1 = {round(a * 2**31)}, B1 = {round(b * 2**31)}")
    print(f"rsqrt seed [2,4) Q1.31: A2 = {round(a / np.sqrt(2) * 2**31)}, "
          f"B2 = {round(b / (2 * np.sqrt(2)) * 2**31)}")


if __name__ == "__main__":
    main()
