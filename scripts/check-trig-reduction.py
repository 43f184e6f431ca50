#!/usr/bin/python3
"""How close float32 inputs come to multiples of pi/2, for the bound of
F64TrigKernels.cpp (kReducedMax = 2^26).

    /usr/bin/python3 scripts/check-trig-reduction.py [--max-exponent 26]

The three-part reduction r = x - k pi/2 of sin/cos/tan in float64 loses at
most 2^-53 (|r| + k * 6.2e-17) in its first fma; that is negligible against
|r| only if no f32 x up to the bound lies very close to a multiple of pi/2.
This script takes every f32 in [pi/4, 2^max) binade by binade and computes
x mod pi/2 to about 1e-26 absolute: pi/2's float64 value is split in a
26-bit head and the rest, so that k * head is exact (k < 2^27, which
limits --max-exponent to 27), x - k * head is exact
(both multiples of 2^-25, the difference below 2), and the remaining terms
have rounding errors below 2^-53 of values below 1e-10 or so. Prints the
smallest |r| per binade and overall. Asserts nothing (a one-off
measurement, quoted in F64TrigKernels.cpp); about a minute.
"""
import argparse
import math
from fractions import Fraction

import numpy as np

PI = Fraction("3.14159265358979323846264338327950288419716939937510582097"
              "494459230781640628620899")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--max-exponent", type=int, default=26)
    args = ap.parse_args()
    if not 0 <= args.max_exponent <= 27:
        ap.error("--max-exponent must be in [0, 27]: k * head exact")
    half = PI / 2
    p1 = float(half)
    p2 = float(half - Fraction(p1))
    mant, exp = math.frexp(p1)
    head = math.ldexp(math.floor(mant * 2 ** 26), exp - 26)
    tail = p1 - head
    assert Fraction(head) + Fraction(tail) == Fraction(p1)
    overall = (math.inf, None)
    for b in range(-1, args.max_exponent):
        lo = int(np.float32(2.0 ** b).view(np.uint32))
        bits = np.arange(lo, lo + (1 << 23), dtype=np.uint64).astype(np.uint32)
        x = bits.view(np.float32).astype(np.float64)
        x = x[x >= math.pi / 4]
        k = np.rint(x * (2 / math.pi))
        r = (x - k * head) - k * tail
        r = np.abs(r - k * p2)
        i = int(np.argmin(r))
        print(f"[2^{b:>3}, 2^{b + 1:>3}): min |x mod pi/2| = {r[i]:.3e} "
              f"at x = {np.float32(x[i])!r}")
        if r[i] < overall[0]:
            overall = (r[i], x[i])
    print(f"overall: {overall[0]:.3e} at x = {np.float32(overall[1])!r}")


if __name__ == "__main__":
    main()
