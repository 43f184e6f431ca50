"""Compiled f64 math functions on vectors against long double.

--stax-vector-math-calls (library=auto, the default) calls glibc's libmvec
for the f64 functions whose variant for the host's ISA is within 2 ulp of
the exact value (pow included, two operands; docs/Numerics.md), computes
exp, expm1, tanh, sin, cos, tan, asin, acos, atan, atan2, erf and erfc
with kernels of its own (within 1 ulp); the others stay libm calls, bitwise the
interpreter's. For each function this compiles tp.<op> on an
f64 tensor and checks, on a sweep of the whole range plus a dense sweep
of the usual magnitudes and the domain edges:

- where the compiled code calls a _ZGV function: every finite result
  within 2 ulp (f64 spacing at the correctly rounded result; the long
  double reference, glibc's x87 functions, adds about 2^-11 ulp), NaN
  exactly where the reference is NaN, overflow to inf, zeros signed;
- where it does not: every result bitwise equal to libm's (the compiled
  scalar code with vector-math=none).

Scalars (a loop's tail) get the vectors' functions, so that a value
recomputed in two kernels has the same bits
(test_recomputed_values_have_the_same_bits).
"""
import re

import numpy as np
import pytest

from stax._capi import Executable

BOUND_ULP = 2.0
N = 1 << 17

LD = np.longdouble
FUNCTIONS = {
    "log": np.log, "log1p": np.log1p, "log2": np.log2,
    "log10": np.log10, "exp2": np.exp2, "sinh": np.sinh, "cosh": np.cosh,
}
# What --stax-vector-math-calls rewrites with library=avx512 (the functions
# above; asinh, acosh and atanh too, which tp decomposes before) and with
# avx2 (Passes.td).
AVX2_FUNCTIONS = {"log", "log2", "log10", "exp2", "sinh", "cosh"}


def sweep():
    """Random f64 bit patterns over the whole positive range, log-uniform
    magnitudes in [1e-8, 1e3] (where activations and losses live), values
    near 1 and -1 (the domain edges of log, log1p, acos, acosh, atanh),
    and edge inputs; both signs."""
    rng = np.random.default_rng(11)
    top = 0x7FF0000000000000
    bits = rng.integers(0, top, N // 8, dtype=np.uint64).view(np.float64)
    usual = np.exp(rng.uniform(np.log(1e-8), np.log(1e3), N // 4))
    near_one = 1.0 + rng.uniform(-1e-3, 1e-3, N // 8)
    edges = np.array([0.0, 5e-324, 2.2250738585072014e-308, 1e-300,
                      1.7976931348623157e308, np.inf, np.nan, 0.5, 1.0,
                      2.0, 10.0, 20.0, 0.0625, 709.782712893384,
                      710.4758600739439, 710.48, 1023.99, 1024.0, 1025.0,
                      -1022.0, -1074.0, -1075.0, np.nextafter(1.0, 0.0),
                      np.nextafter(1.0, 2.0)])
    pos = np.concatenate([bits, usual, near_one, edges])
    return np.resize(np.concatenate([pos, -pos]), N)


def executable(op, options=""):
    t = "tensor<%dxf64>" % N
    text = ("func.func @f(%%x: %s) -> %s {\n  %%0 = tp.%s %%x : %s -> %s\n"
            "  return %%0 : %s\n}" % (t, t, op, t, t, t))
    return Executable(text, options, keep_llvm_ir=True)


def run(exe, x):
    out = np.empty(N, np.float64)
    exe.call_raw("f", [x.ctypes.data, out.ctypes.data])
    return out


def calls_libmvec(exe, op) -> bool:
    return re.search(r"@_ZGV[ed]N[48]v_%s\(" % op, exe.llvm_ir) is not None


def reference(op, x):
    with np.errstate(all="ignore"):
        return FUNCTIONS[op](x.astype(LD))


def ulp_errors(y, ref):
    """|y - ref| in units of the f64 spacing at float64(ref) (the spacing
    of the largest finite double at the top; 2^-1074 for denormals)."""
    ref64 = ref.astype(np.float64)
    below_max = np.nextafter(np.finfo(np.float64).max, 0.0)
    spacing = np.spacing(np.minimum(np.abs(ref64), below_max))
    return (np.abs(y.astype(LD) - ref) / spacing.astype(LD)).astype(np.float64)


def assert_within_ulp(op, x, y, ref, bound):
    """Every y within `bound` ulp of the long double `ref` (finite)."""
    err = ulp_errors(y, ref)
    i = int(np.argmax(err))
    assert err[i] <= bound, (
        f"{op}({x[i]!r}) = {y[i]!r}, exact {ref[i]!r}: {err[i]:.3f} ulp")


def host_flags() -> set:
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("flags"):
                return set(line.split(":", 1)[1].split())
    return set()


@pytest.mark.parametrize("op", sorted(FUNCTIONS))
def test_vector_f64_math_within_two_ulp_or_libm(op):
    x = sweep()
    exe = executable(op)
    y = run(exe, x)
    if not calls_libmvec(exe, op):
        libm = run(executable(op, "vector-width=1 parallel=false vector-math=none"), x)
        np.testing.assert_array_equal(y.view(np.uint64), libm.view(np.uint64))
        return
    ref = reference(op, x)
    with np.errstate(all="ignore"):
        ref64 = ref.astype(np.float64)
    nan = np.isnan(ref64)
    np.testing.assert_array_equal(np.isnan(y), nan,
                                  err_msg="NaN where the exact is not")
    inf = np.isinf(ref64) & ~nan
    np.testing.assert_array_equal(y[inf], ref64[inf],
                                  err_msg="overflow is not inf")
    finite = np.flatnonzero(~nan & ~inf)
    assert_within_ulp(op, x[finite], y[finite], ref[finite], BOUND_ULP)
    zero = finite[ref64[finite] == 0]
    np.testing.assert_array_equal(np.signbit(y[zero]), np.signbit(ref64[zero]),
                                  err_msg="sign of zero")


@pytest.mark.parametrize("op", sorted(FUNCTIONS))
def test_the_host_isa_picks_the_variants(op):
    """library=auto calls the AVX-512 variants on a host with avx512f, the
    AVX2 ones (of the functions within 2 ulp there) with avx2 and fma;
    vector-math=none never."""
    flags = host_flags()
    if "avx512f" in flags:
        expected = "_ZGVeN8v_" + op
    elif {"avx2", "fma"} <= flags and op in AVX2_FUNCTIONS:
        expected = "_ZGVdN4v_" + op
    else:
        expected = None
    ir = executable(op).llvm_ir
    assert (expected is None and "_ZGV" not in ir) or (
        expected is not None and "@%s(" % expected in ir)
    assert "_ZGV" not in executable(op, "vector-math=none").llvm_ir


EXP_BOUND_ULP = 1.0


def test_vector_f64_exp_within_one_ulp():
    """f64 exp on vectors is Stax's kernel (--stax-vector-math-calls):
    within 1 ulp where |x| <= 708, libm's exp (bitwise) beyond, where the
    results overflow or approach the denormal range; NaN kept. The sweep
    adds dense values over the whole finite range of the result."""
    rng = np.random.default_rng(5)
    x = np.resize(np.concatenate([sweep(), rng.uniform(-745.2, 709.8, N // 2),
                                  [708.0, -708.0, 708.0000000000001,
                                   -708.0000000000001, 709.782712893384,
                                   -745.1332191019411]]), N)
    exe = executable("exp")
    y = run(exe, x)
    libm = run(executable("exp", "vector-width=1 parallel=false vector-math=none"), x)
    beyond = ~(np.abs(x) <= 708.0)      # NaN and infinities included
    np.testing.assert_array_equal(y[beyond].view(np.uint64),
                                  libm[beyond].view(np.uint64))
    inside = np.flatnonzero(~beyond)
    assert_within_ulp("exp", x[inside], y[inside], np.exp(x[inside].astype(LD)),
                      EXP_BOUND_ULP)
    none = run(executable("exp", "vector-math=none"), x)
    np.testing.assert_array_equal(none.view(np.uint64), libm.view(np.uint64))


@pytest.mark.parametrize("op", ["sin", "cos", "tan"])
def test_vector_f64_sin_cos_tan_within_one_ulp(op):
    """f64 sin, cos and tan on vectors are Stax's kernels (tan: sin r /
    cos r of the same reduction, the quotient corrected by its residual):
    within 1 ulp where |x| <= 2^20, including the doubles nearest to
    multiples of pi/2 (the reduction's hardest inputs; tan's zeros and
    poles) and tiny arguments; libm's (bitwise) beyond; NaN and the signed
    zeros of sin and tan kept."""
    rng = np.random.default_rng(6)
    k = np.concatenate([np.arange(-3000, 3000),
                        rng.integers(-667000, 667000, 6000)]).astype(LD)
    near = (k * (LD(np.pi) / 2 + LD(6.123233995736766e-17) / 2)).astype(np.float64)
    x = np.resize(np.concatenate([
        sweep(), near, np.nextafter(near, np.inf), np.nextafter(near, -np.inf),
        rng.uniform(-2.0 ** 20, 2.0 ** 20, N // 4), rng.uniform(-2.0, 2.0, N // 8),
        [2.0 ** 20, -2.0 ** 20]]), N)
    y = run(executable(op), x)
    libm = run(executable(op, "vector-width=1 parallel=false vector-math=none"), x)
    beyond = ~(np.abs(x) <= 2.0 ** 20)
    np.testing.assert_array_equal(y[beyond].view(np.uint64),
                                  libm[beyond].view(np.uint64))
    inside = np.flatnonzero(~beyond)
    fn = {"sin": np.sin, "cos": np.cos, "tan": np.tan}[op]
    assert_within_ulp(op, x[inside], y[inside], fn(x[inside].astype(LD)), 1.0)
    zero = inside[y[inside] == 0]
    np.testing.assert_array_equal(np.signbit(y[zero]), np.signbit(x[zero]))


def test_vector_f64_expm1_within_one_ulp():
    """f64 expm1 on vectors is Stax's kernel (the exp kernel's parts, 2^k
    hi - 1 summed exactly): within 1 ulp for x <= 708, -1 below -40
    (exactly, -inf included), libm's expm1 (bitwise) above 708; NaN and
    signed zeros kept. The sweep adds dense values where the reduction's k
    changes sign (|x| near ln2 / 2) and tiny arguments."""
    rng = np.random.default_rng(12)
    x = np.resize(np.concatenate([
        sweep(), rng.uniform(-45.0, 709.8, N // 4), rng.uniform(-2.0, 2.0, N // 4),
        np.exp(rng.uniform(-700.0, 0.0, N // 8)) * rng.choice([-1.0, 1.0], N // 8),
        [708.0, 708.0000000000001, 709.78, -40.0, -40.000000000000007, -np.inf,
         np.inf, -0.0, 0.0, 5e-324, -5e-324]]), N)
    y = run(executable("expm1"), x)
    libm = run(executable("expm1", "vector-width=1 parallel=false vector-math=none"), x)
    beyond = ~(x <= 708.0)               # NaN and +inf included
    np.testing.assert_array_equal(y[beyond].view(np.uint64),
                                  libm[beyond].view(np.uint64))
    floor = x < -40.0
    np.testing.assert_array_equal(y[floor], -1.0)
    inside = np.flatnonzero(~beyond & ~floor)
    assert_within_ulp("expm1", x[inside], y[inside],
                      np.expm1(x[inside].astype(LD)), 1.0)
    zero = inside[y[inside] == 0]
    np.testing.assert_array_equal(np.signbit(y[zero]), np.signbit(x[zero]))


def test_vector_f64_tanh_within_one_ulp():
    """f64 tanh on vectors is Stax's kernel for every input (E / (E + 2),
    E = expm1(2|x|), divided as double-doubles), on any host: within 1 ulp,
    +-1 at the infinities and beyond 20, NaN and signed zeros kept. The
    sweep adds [-25, 25], [-1, 1] and tiny magnitudes."""
    rng = np.random.default_rng(19)
    x = np.resize(np.concatenate([
        sweep(), rng.uniform(-25.0, 25.0, N // 4), rng.uniform(-1.0, 1.0, N // 4),
        np.exp(rng.uniform(-700.0, 3.0, N // 8)) * rng.choice([-1.0, 1.0], N // 8),
        [19.0, 19.1, 20.0, 21.0, np.inf, -np.inf, -0.0, 0.0, 5e-324]]), N)
    exe = executable("tanh")
    assert not re.search(r"@tanh\(|_ZGV", exe.llvm_ir)
    y = run(exe, x)
    nan = np.isnan(x)
    assert np.isnan(y[nan]).all()
    finite = np.flatnonzero(~nan)
    assert_within_ulp("tanh", x[finite], y[finite], np.tanh(x[finite].astype(LD)), 1.0)
    zero = finite[x[finite] == 0]
    np.testing.assert_array_equal(np.signbit(y[zero]), np.signbit(x[zero]))


def mpmath_reference(fn, x):
    """fn (an mpmath function) at 80 bits, as long double."""
    import mpmath
    mpmath.mp.prec = 80
    return np.array([LD(mpmath.nstr(fn(mpmath.mpf(float(v))), 25))
                     for v in x], dtype=LD)


def erf_reference(x):
    import mpmath
    return mpmath_reference(mpmath.erf, x)


def run_kernel_without_libm(op, x):
    """tp.<op> compiled on x, which calls no libm for any lane: its
    results, NaN wherever x is, and the indices of the other inputs."""
    exe = executable(op)
    assert "@%s(" % op not in exe.llvm_ir
    y = run(exe, x)
    nan = np.isnan(x)
    assert np.isnan(y[nan]).all()
    return y, np.flatnonzero(~nan)


def test_vector_f64_erf_within_one_ulp():
    """f64 erf on vectors is Stax's kernel for every input (Taylor series
    below 1/2, a polynomial below 1, 1 - e^(-x^2) erfcx(x) up to 6): within
    1 ulp of the exact value, +-1 from 6 on and at the infinities, NaN and
    signed zeros kept. The sweep adds dense values around the pieces'
    boundaries (1/2, 1, 2) and near 1, where erfc's error weighs most."""
    rng = np.random.default_rng(13)
    x = np.resize(np.concatenate([
        sweep()[::4], rng.uniform(-7.0, 7.0, N // 4),
        rng.uniform(0.45, 2.2, N // 4) * rng.choice([-1.0, 1.0], N // 4),
        rng.uniform(0.98, 1.02, N // 8),
        [0.5, np.nextafter(0.5, 0.0), 1.0, np.nextafter(1.0, 0.0), 2.0,
         np.nextafter(2.0, 0.0), 5.9, 6.0, np.inf, -np.inf, -0.0, 0.0,
         5e-324, -5e-324, 1e-310]]), N)
    y, finite = run_kernel_without_libm("erf", x)
    assert_within_ulp("erf", x[finite], y[finite], erf_reference(x[finite]), 1.0)
    zero = finite[x[finite] == 0]
    np.testing.assert_array_equal(np.signbit(y[zero]), np.signbit(x[zero]))


def test_vector_f64_erfc_within_one_ulp():
    """f64 erfc on vectors is Stax's kernel for every input (1 - erf below
    1/2, e^(-x^2) erfcx(x) above with erfcx from three polynomials, 2 -
    erfc(-x) below -1/2): within 1 ulp of the exact value, denormal
    results near 27 and the 0 beyond 27.3 included, 2 towards -infinity,
    NaN kept. The sweep is dense around the pieces' boundaries (1/2, 1,
    2) and where results leave the normal range (26.5 to 27.3)."""
    import mpmath
    rng = np.random.default_rng(17)
    x = np.resize(np.concatenate([
        sweep()[::8], rng.uniform(-7.0, 7.0, N // 4),
        rng.uniform(0.45, 2.2, N // 4) * rng.choice([-1.0, 1.0], N // 4),
        rng.uniform(2.0, 28.0, N // 8), rng.uniform(26.4, 27.4, N // 8),
        [0.5, np.nextafter(0.5, 0.0), -0.5, 1.0, np.nextafter(1.0, 0.0),
         2.0, np.nextafter(2.0, 0.0), 26.5, 27.3, np.inf, -np.inf, -0.0,
         0.0, 5e-324, 1e300, -1e300]]), N)
    y, finite = run_kernel_without_libm("erfc", x)
    # mpmath overflows near 1e308; beyond 30 erfc is 0 or 2 to 2^-1300.
    near = np.abs(x[finite]) < 30.0
    ref = np.where(x[finite] > 0, LD(0), LD(2))
    ref[near] = mpmath_reference(mpmath.erfc, x[finite][near])
    assert_within_ulp("erfc", x[finite], y[finite], ref, 1.0)


def test_vector_f64_atan_within_one_ulp():
    """f64 atan on vectors is Stax's kernel for every input (reduction by
    c = 0, 1/2, 1, 3/2 or infinity kept as a double-double): within 1 ulp,
    +-pi/2 rounded at the infinities, NaN and signed zeros kept. The sweep
    adds dense values around the reduction's breaks (7/16, 11/16, 19/16,
    39/16) and large magnitudes."""
    rng = np.random.default_rng(15)
    breaks = np.array([7.0, 11.0, 19.0, 39.0]) / 16.0
    around = (breaks[:, None] * (1.0 + rng.uniform(-0.01, 0.01, (4, N // 32)))).ravel()
    x = np.resize(np.concatenate([
        sweep(), rng.uniform(-4.0, 4.0, N // 4), around, -around,
        np.exp(rng.uniform(0.0, 60.0, N // 16)), breaks, np.nextafter(breaks, 0.0),
        [np.inf, -np.inf, 2.0 ** 60, 2.0 ** 61, 1e300, -0.0, 0.0, 5e-324]]), N)
    y = run(executable("atan"), x)
    assert "@atan(" not in executable("atan").llvm_ir
    nan = np.isnan(x)
    assert np.isnan(y[nan]).all()
    finite = np.flatnonzero(~nan)
    assert_within_ulp("atan", x[finite], y[finite],
                      np.arctan(x[finite].astype(LD)), 1.0)
    zero = finite[x[finite] == 0]
    np.testing.assert_array_equal(np.signbit(y[zero]), np.signbit(x[zero]))


@pytest.mark.parametrize("op", ["asin", "acos"])
def test_vector_f64_asin_acos_within_one_ulp(op):
    """f64 asin and acos on vectors are Stax's kernels for every input
    (v + v^3 Q(v^2) with v = |x| below 1/2, v = sqrt((1 - |x|) / 2) kept as
    a double-double above): within 1 ulp on [-1, 1], NaN outside and for
    NaN, asin's signed zeros kept. The sweep adds dense values near 1/2
    (the switch) and near +-1 (where the square root's error matters
    most), and tiny arguments."""
    rng = np.random.default_rng(16)
    x = np.resize(np.concatenate([
        sweep(), rng.uniform(-1.0, 1.0, N // 4),
        0.5 + rng.uniform(-1e-3, 1e-3, N // 16),
        -0.5 + rng.uniform(-1e-3, 1e-3, N // 16),
        1.0 - np.exp(rng.uniform(-36.0, -1.0, N // 16)),
        -1.0 + np.exp(rng.uniform(-36.0, -1.0, N // 16)),
        np.exp(rng.uniform(-700.0, -1.0, N // 16)),
        [0.5, np.nextafter(0.5, 0.0), -0.5, 1.0, -1.0, np.nextafter(1.0, 0.0),
         np.nextafter(-1.0, 0.0), np.nextafter(1.0, 2.0), 2.0, np.inf, -np.inf,
         0.0, -0.0, 5e-324]]), N)
    exe = executable(op)
    assert "@%s(" % op not in exe.llvm_ir and "_ZGV" not in exe.llvm_ir
    y = run(exe, x)
    inside = np.abs(x) <= 1.0
    assert np.isnan(y[~inside]).all()
    fn = np.arcsin if op == "asin" else np.arccos
    domain = np.flatnonzero(inside)
    assert_within_ulp(op, x[domain], y[domain], fn(x[domain].astype(LD)), 1.0)
    if op == "asin":
        zero = domain[x[domain] == 0]
        np.testing.assert_array_equal(np.signbit(y[zero]), np.signbit(x[zero]))


def test_vector_f64_atan2_within_one_ulp():
    """f64 atan2 on vectors is Stax's kernel for every pair (the atan
    kernel's reduction on the smaller magnitude over the larger, the
    quotient's rounding error kept): within 1 ulp, and C's special cases
    exactly: signed zeros, infinities (+-pi/4, +-3pi/4), x = -0 giving
    +-pi, NaN from either operand."""
    rng = np.random.default_rng(17)
    n = N // 2
    y = np.concatenate([sweep()[:n // 2], rng.normal(0.0, 3.0, n // 4),
                        rng.uniform(-1.0, 1.0, n // 4)])
    x = np.concatenate([rng.permutation(sweep())[:n // 2],
                        rng.normal(0.0, 3.0, n // 4),
                        y[n // 2:n // 2 + n // 4] * (1.0 + rng.uniform(-1e-3, 1e-3, n // 4))])
    special = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0, 5e-324])
    sy, sx = np.meshgrid(special, special)
    y = np.resize(np.concatenate([y, sy.ravel()]), n)
    x = np.resize(np.concatenate([x, sx.ravel()]), n)
    t = "tensor<%dxf64>" % n
    exe = Executable(
        "func.func @f(%%y: %s, %%x: %s) -> %s {\n"
        "  %%0 = tp.atan2 %%y, %%x : %s, %s -> %s\n  return %%0 : %s\n}"
        % ((t,) * 7), "", keep_llvm_ir=True)
    assert "@atan2(" not in exe.llvm_ir
    out = np.empty(n, np.float64)
    exe.call_raw("f", [y.ctypes.data, x.ctypes.data, out.ctypes.data])
    with np.errstate(all="ignore"):
        ref = np.arctan2(y.astype(LD), x.astype(LD))
        libm = np.arctan2(y, x)
    nan = np.isnan(libm)
    np.testing.assert_array_equal(np.isnan(out), nan)
    ok = np.flatnonzero(~nan)
    assert_within_ulp("atan2", x[ok], out[ok], ref[ok], 1.0)
    exact = ok[np.isinf(x[ok]) | np.isinf(y[ok]) | (x[ok] == 0) | (y[ok] == 0)]
    np.testing.assert_array_equal(out[exact].view(np.uint64),
                                  libm[exact].view(np.uint64))


def test_vector_f64_pow_within_two_ulp_or_libm():
    """f64 pow of two tensors calls libmvec's pow (`_ZGVeN8vv_pow` with
    AVX-512, `_ZGVdN4vv_pow` with AVX2; 1 ulp on a 4M-pair sweep of both):
    within 2 ulp of powl, and C's special cases (zeros, +-1, infinities,
    NaN, negative bases with fractional exponents, results that overflow or
    underflow to 0) libm's exactly. Without a variant: libm's pow,
    bitwise."""
    rng = np.random.default_rng(18)
    n = N // 2
    x = np.concatenate([np.exp(rng.uniform(-40.0, 40.0, n // 4)),
                        rng.uniform(0.0, 4.0, n // 4),
                        1.0 + rng.uniform(-1e-3, 1e-3, n // 4)])
    y = np.concatenate([rng.uniform(-10.0, 10.0, n // 4),
                        rng.uniform(-100.0, 100.0, n // 4),
                        rng.uniform(-1e5, 1e5, n // 4)])
    special = np.array([0.0, -0.0, 1.0, -1.0, 2.0, -2.0, 0.5, -0.5, 3.0, -3.0,
                        1.0 / 3.0, np.inf, -np.inf, np.nan, 5e-324, 1e308,
                        -1e308, 2.5, 1e-300, 1024.0, -1075.0, 0.1])
    sx, sy = np.meshgrid(special, special)
    x = np.concatenate([np.resize(x, n - sx.size), sx.ravel()])
    y = np.concatenate([np.resize(y, n - sy.size), sy.ravel()])
    t = "tensor<%dxf64>" % n
    text = ("func.func @f(%%x: %s, %%y: %s) -> %s {\n"
            "  %%0 = tp.pow %%x, %%y : %s, %s -> %s\n  return %%0 : %s\n}"
            % ((t,) * 7))

    def call(options):
        exe = Executable(text, options, keep_llvm_ir=True)
        out = np.empty(n, np.float64)
        exe.call_raw("f", [x.ctypes.data, y.ctypes.data, out.ctypes.data])
        return exe, out

    exe, out = call("")
    _, libm = call("vector-width=1 parallel=false vector-math=none")
    flags = host_flags()
    if "avx512f" in flags:
        assert "@_ZGVeN8vv_pow(" in exe.llvm_ir
    elif {"avx2", "fma"} <= flags:
        assert "@_ZGVdN4vv_pow(" in exe.llvm_ir
    if "_ZGV" not in exe.llvm_ir:
        np.testing.assert_array_equal(out.view(np.uint64), libm.view(np.uint64))
        return
    # C's special cases: an operand that is 0, +-1 (base), 1 (exponent),
    # infinite or NaN, or a result that is not a finite nonzero.
    tail = np.arange(n - sx.size, n)
    edge = np.array([0.0, np.inf, -np.inf, np.nan])
    special_case = (np.isin(x[tail], np.concatenate([edge, [1.0, -1.0]]))
                    | np.isin(y[tail], np.concatenate([edge, [1.0]]))
                    | ~np.isfinite(libm[tail]) | (libm[tail] == 0))
    case = tail[special_case]
    assert case.size > 250
    np.testing.assert_array_equal(out[case].view(np.uint64),
                                  libm[case].view(np.uint64))
    with np.errstate(all="ignore"):
        ref = np.power(x.astype(LD), y.astype(LD))
        ref64 = ref.astype(np.float64)
    finite = np.flatnonzero(np.isfinite(ref64))
    assert_within_ulp("pow", x[finite], out[finite], ref[finite], BOUND_ULP)
    np.testing.assert_array_equal(np.isnan(out), np.isnan(libm))


_RECOMPUTED = ["exp", "expm1", "tanh", "sin", "cos", "tan", "asin", "acos",
               "atan", "erf", "erfc", "log1p", "sinh", "cosh"]


@pytest.mark.parametrize("op", _RECOMPUTED)
def test_recomputed_values_have_the_same_bits(op):
    """amax's gradient compares f(y) with amax(f(y)) (y = tanh(x), the
    input of f in a buffer); fusion recomputes f(y) in the reduction
    (vectors along a column of 17: two of 8 lanes and a scalar tail) and
    in the gradient's kernels (rows of 7: scalar), each element on
    another path. Where a scalar was libm's and a vector lane a kernel's
    or libmvec's, they differed by an ulp now and then, a column's mask
    was all false and its gradient silently 0 (12 of 180 columns here):
    every column of the compiled gradient of the joint graph has exactly
    one nonzero, at eager's argmax."""
    import torch
    import stax
    from stax.compile import _run
    fn = getattr(torch, op)
    f = lambda x: fn(torch.tanh(x)).amax(0)  # noqa: E731
    text = stax.import_torch(f, torch.zeros(17, 7, dtype=torch.float64,
                                            requires_grad=True))
    text = stax.run_pipeline(text, "builtin.module(stax-joint-graph"
                                   "{wrt=0 gradients-only=true})")
    exe = Executable(text)
    g = torch.Generator().manual_seed(7)
    for _ in range(30):
        x = torch.randn(17, 7, generator=g, dtype=torch.float64)
        (grad,) = _run(exe, "forward", [x, torch.ones(7, dtype=torch.float64)])
        want = torch.nn.functional.one_hot(fn(torch.tanh(x)).argmax(0), 17).T
        assert torch.equal(grad != 0, want != 0), (x, grad)
