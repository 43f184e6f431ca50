#!/usr/bin/env python3
"""Prints the Chebyshev coefficients of --stax-approximate-math's erfc.

    /usr/bin/python3 scripts/gen-erfc-coefficients.py

For x in [0, XMAX], erfc(x) = t * exp(-x^2 + P(t)) with t = 2 / (2 + x)
(the substitution of Numerical Recipes' erfc; P is smooth on t in (0, 1],
even as x -> infinity). P is interpolated at the Chebyshev points of
[2 / (2 + XMAX), 1], in the variable u = (t - MID) * SCALE on [-1, 1];
lib/Conversion/StaxToLoops/ApproximateMath.cpp evaluates it with
Clenshaw's recurrence in float64. The printed maximum error is |P - exact|
on a dense grid: it bounds erfc's relative error from P (the f32 result
needs about 1e-9).
"""
import math

import numpy as np
from numpy.polynomial import chebyshev

XMAX = 10.1  # erfc(10.1) = 6.4e-46 rounds to 0 in float32
DEGREE = 16
T_LO, T_HI = 2.0 / (2.0 + XMAX), 1.0
MID, SCALE = (T_LO + T_HI) / 2, 2.0 / (T_HI - T_LO)


def exact(t):
    x = 2.0 / t - 2.0
    return math.log(math.erfc(x) * math.exp(x * x) / t)


def main():
    u = np.cos(np.pi * (np.arange(DEGREE + 1) + 0.5) / (DEGREE + 1))
    values = [exact(ui / SCALE + MID) for ui in u]
    coeffs = chebyshev.chebfit(u, values, DEGREE)
    grid = np.linspace(-1.0, 1.0, 200001)
    err = max(abs(chebyshev.chebval(g, coeffs) - exact(g / SCALE + MID))
              for g in grid[::7])
    print(f"// XMAX = {XMAX}, degree {DEGREE}, max |P - exact| = {err:.2e}")
    print(f"constexpr double kErfcMid = {MID!r};")
    print(f"constexpr double kErfcScale = {SCALE!r};")
    print("constexpr double kErfcChebyshev[] = {")
    for c in coeffs:
        print(f"    {float(c)!r},")
    print("};")


if __name__ == "__main__":
    main()
