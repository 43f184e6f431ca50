#!/usr/bin/env python3
"""Prints the polynomial coefficients of the f32 math kernels.

    /usr/bin/python3 scripts/gen-f32-math-coefficients.py

lib/Conversion/StaxToLoops/F32MathKernels.cpp evaluates, in f32 with
Horner's rule, near-minimax polynomials for the smooth remainders of
exp, tanh, erf, erfc and log on their reduced ranges. Each is fitted by
Lawson's iteratively reweighted least squares (monomial basis, Chebyshev
points, weight = what the error costs the f32 result), and the printed
error is the weighted maximum on a dense grid with the coefficients
rounded to f32, as the kernel uses them. Needs numpy and mpmath (Debian's
python3-numpy and python3-mpmath), for exact references near 0.
"""
import math

import mpmath as mp
import numpy as np

mp.mp.prec = 120


def vectorize(f):
    return lambda xs: np.array([float(f(mp.mpf(float(x)))) for x in xs])


def lawson(f, lo, hi, degree, weight, points=400, iterations=30):
    x = (lo + hi) / 2 + (hi - lo) / 2 * np.cos(
        np.pi * (np.arange(points) + 0.5) / points)
    y, w = f(x), weight(x)
    a = np.vander(x, degree + 1, increasing=True)
    lw = np.full(points, 1.0 / points)
    for _ in range(iterations):
        sw = np.sqrt(lw) * w
        c = np.linalg.lstsq(a * sw[:, None], y * sw, rcond=None)[0]
        err = np.abs((a @ c - y) * w)
        lw = lw * err
        lw /= lw.sum()
    return c


def report(name, f, lo, hi, degree, weight):
    c = lawson(f, lo, hi, degree, weight)
    c32 = np.array(c, np.float32).astype(np.float64)
    grid = np.linspace(lo, hi, 20001)
    err = np.max(np.abs((np.polyval(c32[::-1], grid) - f(grid)) *
                        weight(grid)))
    print(f"// {name}: [{lo:.6g}, {hi:.6g}], degree {degree}, "
          f"weighted error {err:.2e}")
    print("{" + ", ".join(repr(float(v)) for v in c32) + "}")


def main():
    half_ln2 = math.log(2) / 2
    # e^r = 1 + r (1 + r Q(r)): Q's error costs r^2.
    report("kExpQ", vectorize(
        lambda r: (mp.expm1(r) - r) / r**2 if r else mp.mpf(1) / 2),
        -half_ln2, half_ln2, 5, lambda r: r * r)
    # tanh(x) = x + x^3 T(x^2), u = x^2 < 0.81: T's error costs ~u.
    report("kTanhT", vectorize(
        lambda u: (mp.tanh(mp.sqrt(u)) - mp.sqrt(u)) / mp.sqrt(u)**3
        if u else -mp.mpf(1) / 3), 0.0, 0.81, 7, lambda u: u)
    # erf(x) = x + x E(x^2), u = x^2 < 1: E's error costs ~1.
    report("kErfE", vectorize(
        lambda u: mp.erf(mp.sqrt(u)) / mp.sqrt(u) - 1
        if u else 2 / mp.sqrt(mp.pi) - 1), 0.0, 1.0, 7, np.ones_like)
    # erfc(a) = e^(-a^2) C(a - 2.5), 1 <= a <= 4: an absolute error of
    # erfc costs the same in erf = 1 - erfc.
    report("kErfcC", vectorize(
        lambda v: mp.erfc(v + 2.5) * mp.exp((v + 2.5)**2)),
        -1.5, 1.5, 8, lambda v: np.exp(-(v + 2.5)**2))
    # ln(1 + f) = f + f^2 (-1/2 + f R(f)): R's error costs f^3 / ln(1 + f).
    report("kLogR", vectorize(
        lambda f: (mp.log1p(f) - f + f * f / 2) / f**3
        if f else mp.mpf(1) / 3),
        math.sqrt(0.5) - 1, math.sqrt(2) - 1, 7,
        lambda f: np.abs(f)**3 / np.maximum(np.abs(np.log1p(f)), 1e-300))


if __name__ == "__main__":
    main()
