#!/usr/bin/env python3
"""Prints the coefficients of --stax-vector-math-calls' f64 erf, erfc, atan
and asin.

    /usr/bin/python3 scripts/gen-f64-math-coefficients.py [erf|erfc|atan|asin]

lib/Conversion/StaxToLoops/F64ExactKernels.cpp computes erf(x) from three
expansions, each evaluated by Horner's rule in a variable computed
exactly from x (a subtraction and a power of two), with its large term
added last:

- |x| < 1/2: erf's Taylor series (the coefficients rounded to float64;
  2 / sqrt(pi) as two doubles);
- 1/2 <= |x| < 1: erf(3/4) + (erf(x) - erf(3/4)), the difference a
  Chebyshev interpolant in u = (x - 3/4) * 4 printed in powers of u;
- 1 <= |x| <= 6: 1 - e^(-x^2) R(x) with R = erfcx, the scaled
  complementary error function erfc(x) e^(x^2) (smooth, between 0.08 and
  0.43 there), interpolated on [1, 2] in u = (x - 3/2) * 2 and on [2, 6]
  in u = (x - 4) / 2; erf(6) rounds to 1.

Chebyshev interpolants printed in powers of u: Horner's rule rounds less
than Clenshaw's recurrence at u = +-1, and the terms decrease fast. The
printed errors come from the coefficients rounded to float64 and
evaluated exactly (mpmath at 160 bits), in units of erf's ulp (for R, the
absolute error of e^(-x^2) R over erf's spacing: R must be most accurate
at x = 1, where erfc(1) = 0.157).

erfc(x) is 1 - erf(x) below 1/2 (erf's Taylor series), 2 - erfc(-x) for
x <= -1/2, and e^(-x^2) R(x) above, with R = erfcx as an unevaluated sum
of two doubles: its leading coefficient c0 is printed as hi + lo and
added last. R is interpolated in u = (x - 3/4) * 4 on [1/2, 1]; above 1,
x R(x) is a smooth function of t = 1/x (its limit at t = 0 is 1 /
sqrt(pi)), interpolated on t in [1/2, 1] in u = (t - 3/4) * 4 and on
[0, 1/2] in u = 4 t - 1. The printed errors are relative to R, from the
coefficients rounded (c0 to two doubles) and evaluated exactly.

atan(x) reduces |x| to t = (|x| - c) / (1 + c |x|) with c = 0, 1/2, 1, 3/2
or infinity (t = -1 / |x|), so that |t| <= 7/16, and adds atan(c) (two
doubles, printed) to atan t = t + t^3 P(t^2); P is a Chebyshev
interpolant of (atan(t) - t) / t^3 in s = t^2 on [0, (7/16)^2], printed in
powers of s.

asin and acos evaluate asin v = v + v^3 Q(v^2) for v = |x| below 1/2 and
for v = sqrt((1 - |x|) / 2) above (asin |x| = pi/2 - 2 asin v); Q is
interpolated like P, in s = v^2 on [0, 1/4]. Needs mpmath
(python3-mpmath).
"""
import sys

import mpmath as mp

mp.mp.prec = 160

PIECES = [  # (name, lo, hi, degree)
    ("kErfcxNear", 1, 2, 18),
    ("kErfcxFar", 2, 6, 22),
]


TAYLOR_TERMS = 13
MID_DEGREE = 14
ATAN_DEGREE = 11
ATAN_REDUCED_MAX = mp.mpf(7) / 16
ASIN_DEGREE = 13


def erfcx(x):
    return mp.erfc(x) * mp.exp(x * x)


def chebyshev_interpolant(f, lo, hi, degree):
    """c_k of sum c_k T_k(u), x = mid + u * half, interpolating f at the
    degree + 1 Chebyshev points."""
    n = degree + 1
    mid, half = mp.mpf(lo + hi) / 2, mp.mpf(hi - lo) / 2
    theta = [mp.pi * (j + mp.mpf(1) / 2) / n for j in range(n)]
    values = [f(mid + half * mp.cos(t)) for t in theta]
    coeffs = []
    for k in range(n):
        s = mp.fsum(v * mp.cos(k * t) for v, t in zip(values, theta))
        coeffs.append((2 if k else 1) * s / n)
    return coeffs


def monomial(c):
    """The coefficients of sum c_k T_k(u) in powers of u."""
    t_prev, t = [mp.mpf(1)], [mp.mpf(0), mp.mpf(1)]
    out = [mp.mpf(0)] * len(c)
    for k, ck in enumerate(c):
        tk = t_prev if k == 0 else t
        for i, a in enumerate(tk):
            out[i] += ck * a
        if k >= 1:
            nxt = [mp.mpf(0)] + [2 * a for a in t]
            for i, a in enumerate(t_prev):
                nxt[i] -= a
            t_prev, t = t, nxt
    return out


def horner(c, u):
    acc = mp.mpf(0)
    for ck in reversed(c):
        acc = acc * u + ck
    return acc


def taylor():
    """erf(x) = (2 / sqrt(pi)) sum_n (-1)^n x^(2n+1) / (n! (2n + 1)): the
    coefficient of x as a sum of two doubles, the others rounded."""
    c0 = 2 / mp.sqrt(mp.pi)
    hi = float(c0)
    first_omitted = c0 * mp.mpf(0.5) ** (2 * TAYLOR_TERMS + 3) / (
        mp.factorial(TAYLOR_TERMS + 1) * (2 * TAYLOR_TERMS + 3))
    print(f"// erf's Taylor series for |x| < 1/2 (truncation below "
          f"{mp.nstr(first_omitted, 2)}).")
    print(f"constexpr double kTwoOverSqrtPiHi = {hi!r};")
    print(f"constexpr double kTwoOverSqrtPiLo = {float(c0 - hi)!r};")
    print(f"constexpr double kErfTaylor[] = {{ // x^3, x^5, ..., "
          f"x^{2 * TAYLOR_TERMS + 1}")
    for n in range(1, TAYLOR_TERMS + 1):
        c = (-1) ** n * c0 / (mp.factorial(n) * (2 * n + 1))
        print(f"    {float(c)!r},")
    print("};")


def middle():
    """erf(x) - E on [1/2, 1] in powers of u = (x - 3/4) * 4, E = erf(3/4)
    rounded: the kernel adds E last. (Horner's rule rounds less than
    Clenshaw's recurrence near u = +-1 here: the terms decrease fast.)"""
    offset = float(mp.erf(mp.mpf(3) / 4))
    c = [float(ck) for ck in monomial(chebyshev_interpolant(
        lambda x: mp.erf(x) - offset, mp.mpf(1) / 2, 1, MID_DEGREE))]
    worst = mp.mpf(0)
    for u in mp.linspace(-1, 1, 2001):
        x = mp.mpf(3) / 4 + u / 4
        exact = mp.erf(x)
        spacing = mp.mpf(2) ** (mp.floor(mp.log(exact, 2)) - 52)
        approx = horner([mp.mpf(ck) for ck in c], u) + offset
        worst = max(worst, abs(approx - exact) / spacing)
    print(f"// [1/2, 1], degree {MID_DEGREE}: {mp.nstr(worst, 3)} ulp of erf.")
    print(f"constexpr double kErfMidOffset = {offset!r};")
    print("constexpr double kErfMid[] = {")
    for ck in c:
        print(f"    {ck!r},")
    print("};")


def in_powers_of(c_u, lo, hi):
    """sum c_u[k] u^k with u = (x - mid) / half, in powers of x."""
    mid, half = (lo + hi) / 2, (hi - lo) / 2
    out = [mp.mpf(0)] * len(c_u)
    for k, ck in enumerate(c_u):
        for j in range(k + 1):
            out[j] += (ck * mp.binomial(k, j) * (-mid) ** (k - j)
                       / half ** k)
    return out


def odd_tail(fn, tmax, degree):
    """(fn(t) - t) / t^3 interpolated in s = t^2 on [0, tmax^2], printed in
    powers of s, and the error of t + t^3 tail(t^2) in ulp of fn(t)."""
    smax = tmax ** 2

    def tail(s):
        if s == 0:
            return mp.diff(fn, 0, 3) / 6
        t = mp.sqrt(s)
        return (fn(t) - t) / (s * t)

    c = [float(ck) for ck in in_powers_of(monomial(chebyshev_interpolant(
        tail, 0, smax, degree)), 0, smax)]
    worst = mp.mpf(0)
    for t in mp.linspace(tmax / 2000, tmax, 2000):
        exact = fn(t)
        approx = t + t ** 3 * horner([mp.mpf(ck) for ck in c], t * t)
        spacing = mp.mpf(2) ** (mp.floor(mp.log(exact, 2)) - 52)
        worst = max(worst, abs(approx - exact) / spacing)
    return c, worst


def print_array(name, c):
    print(f"constexpr double {name}[] = {{")
    for ck in c:
        print(f"    {ck!r},")
    print("};")


def atan_coefficients():
    c, worst = odd_tail(mp.atan, ATAN_REDUCED_MAX, ATAN_DEGREE)
    print(f"// atan t = t + t^3 P(t^2) for |t| <= 7/16, degree {ATAN_DEGREE}"
          f": {mp.nstr(worst, 3)} ulp of atan t.")
    print_array("kAtanTail", c)
    print("// atan c for c = 1/2, 1, 3/2, infinity, as hi + lo.")
    for name, value in [("Half", mp.atan(mp.mpf(1) / 2)),
                        ("One", mp.pi / 4),
                        ("ThreeHalves", mp.atan(mp.mpf(3) / 2)),
                        ("Infinity", mp.pi / 2)]:
        hi = float(value)
        print(f"constexpr double kAtan{name}Hi = {hi!r};")
        print(f"constexpr double kAtan{name}Lo = {float(value - hi)!r};")


def asin_coefficients():
    c, worst = odd_tail(mp.asin, mp.mpf(1) / 2, ASIN_DEGREE)
    print(f"// asin v = v + v^3 Q(v^2) for |v| <= 1/2, degree {ASIN_DEGREE}"
          f": {mp.nstr(worst, 3)} ulp of asin v.")
    print_array("kAsinTail", c)
    print(f"constexpr double kPiHi = {float(mp.pi)!r};")
    print(f"constexpr double kPiLo = {float(mp.pi - float(mp.pi))!r};")


def erf_coefficients():
    taylor()
    middle()
    for name, lo, hi, degree in PIECES:
        c = [float(ck) for ck in
             monomial(chebyshev_interpolant(erfcx, lo, hi, degree))]
        mid, half = mp.mpf(lo + hi) / 2, mp.mpf(hi - lo) / 2
        rel = ulps = mp.mpf(0)
        for u in mp.linspace(-1, 1, 2001):
            x = mid + half * u
            r = erfcx(x)
            e = abs(horner([mp.mpf(ck) for ck in c], u) / r - 1)
            rel = max(rel, e)
            spacing = mp.mpf(2) ** (mp.floor(mp.log(mp.erf(x), 2)) - 52)
            ulps = max(ulps, e * mp.erfc(x) / spacing)
        print(f"// [{lo}, {hi}], degree {degree}: relative error "
              f"{mp.nstr(rel, 3)}, {mp.nstr(ulps, 3)} ulp of erf.")
        print(f"constexpr double {name}[] = {{")
        for ck in c:
            print(f"    {ck!r},")
        print("};")


ERFC_PIECES = [  # (name, function of x or t, lo, hi, degree)
    ("kErfcxHalf", erfcx, mp.mpf(1) / 2, 1, 16),
    ("kErfcScaledNear", lambda t: erfcx(1 / t) / t, mp.mpf(1) / 2, 1, 18),
    ("kErfcScaledFar",
     lambda t: 1 / mp.sqrt(mp.pi) if t == 0 else erfcx(1 / t) / t, 0,
     mp.mpf(1) / 2, 26),
]


def erfc_coefficients():
    for name, fn, lo, hi, degree in ERFC_PIECES:
        c = monomial(chebyshev_interpolant(fn, lo, hi, degree))
        c0 = float(c[0])
        c0_lo = float(c[0] - c0)
        rounded = [mp.mpf(c0) + mp.mpf(c0_lo)] + [mp.mpf(float(ck))
                                                  for ck in c[1:]]
        mid, half = mp.mpf(lo + hi) / 2, mp.mpf(hi - lo) / 2
        rel = mp.mpf(0)
        for u in mp.linspace(-1, 1, 2001):
            exact = fn(mid + half * u)
            rel = max(rel, abs(horner(rounded, u) / exact - 1))
        print(f"// [{mp.nstr(lo, 3)}, {mp.nstr(hi, 3)}], degree {degree}: "
              f"relative error {mp.nstr(rel, 3)}.")
        print(f"constexpr double {name}Lo = {c0_lo!r};")
        print_array(name, [c0] + [float(ck) for ck in c[1:]])


def main():
    which = sys.argv[1:] or ["erf", "erfc", "atan", "asin"]
    for name in which:
        {"erf": erf_coefficients, "erfc": erfc_coefficients,
         "atan": atan_coefficients, "asin": asin_coefficients}[name]()


if __name__ == "__main__":
    main()
