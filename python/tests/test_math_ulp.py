"""Compiled f32 math functions against float64, every input of a sweep.

--stax-approximate-math's default f32 kernels (F32MathKernels.cpp: exp,
expm1, log, log1p, tanh, erf and the logistic form of sigmoid/silu) are
within 1 ulp of the exact value (measured maxima 0.81-0.97 ulp on 4M
points). With
math-kernels=f64, and for the functions without an f32 kernel, each
function is evaluated in f64 from the widened input with a kernel whose
relative error is below 1.2e-11 (ApproximateMath.cpp states each bound)
and rounded once, so every result is within 0.5 ulp + 1.2e-11 * 2^24 ulp
(< 2.1e-4 ulp) of the exact value; the float64 references (numpy; torch for
erf/erfc) add < 1e-6 ulp. The bounds checked are 1 ulp and 0.5 + 1e-3 ulp,
with ulp = the f32 spacing at the correctly rounded result (2^-149 for
denormal results); overflow must give inf, domain errors NaN.
bench/ulp_error.py measures the same on 16.7M points.
"""
import numpy as np
import pytest
import torch

from stax._capi import Executable

F64_BOUND_ULP = 0.5 + 1e-3
F32_BOUND_ULP = 1.0
F32_KERNELS = {"exp", "expm1", "log", "log1p", "tanh", "erf", "sigmoid",
               "silu"}
N = 1 << 17


def sweep():
    """One random f32 bit pattern per window of 2^15 patterns, both signs,
    plus edge inputs: zeros, denormals, the largest floats, infinities,
    NaN, overflow and underflow thresholds."""
    rng = np.random.default_rng(7)
    top = 0x7F800000
    base = np.arange(0, top, 1 << 15, dtype=np.uint64)
    bits = (base + rng.integers(0, 1 << 15, base.size, dtype=np.uint64))
    pos = np.minimum(bits, top - 1).astype(np.uint32).view(np.float32)
    edges = np.array([0.0, 1e-45, 1e-40, 1.1754944e-38, 3.4028235e38,
                      np.inf, np.nan, 88.72283, 88.72284, -103.97208,
                      -87.33654, 0.5, 1.0, 2.0, 10.0, 10.1, 20.0, 0.34657,
                      # Near multiples of pi/2, the bound of the f64
                      # reduction (2^26) and sinh/cosh's overflow.
                      1.5707964, 3.1415927, 4.712389, 252.89821,
                      67108864.0, 67108870.0, 89.41599, 89.416,
                      0.2679492],
                     dtype=np.float32)
    x = np.concatenate([pos, -pos, edges, -edges])
    return np.resize(x, N)  # the whole sweep plus a few repeats


def t64(fn):
    return lambda x: fn(torch.from_numpy(x)).numpy()


def sigmoid64(x):
    with np.errstate(over="ignore"):
        return 1.0 / (1.0 + np.exp(-x))


FUNCTIONS = {
    "exp": np.exp, "exp2": np.exp2, "expm1": np.expm1, "log": np.log,
    "log2": np.log2, "log10": np.log10, "log1p": np.log1p,
    "tanh": np.tanh, "erf": t64(torch.special.erf),
    "erfc": t64(torch.special.erfc), "sigmoid": sigmoid64,
    "silu": lambda x: x * sigmoid64(x),
    "sin": np.sin, "cos": np.cos, "tan": np.tan, "asin": np.arcsin,
    "acos": np.arccos, "atan": np.arctan, "sinh": np.sinh, "cosh": np.cosh,
}


def compiled(op, options=""):
    t = "tensor<%dxf32>" % N
    text = ("func.func @f(%%x: %s) -> %s {\n  %%0 = tp.%s %%x : %s -> %s\n"
            "  return %%0 : %s\n}" % (t, t, op, t, t, t))
    exe = Executable(text, options)
    x = sweep()
    out = np.empty(N, np.float32)
    exe.call_raw("f", [x.ctypes.data, out.ctypes.data])
    return x, out


def ulp_errors(y, ref):
    """|y - ref| in units of the f32 spacing at float32(ref)."""
    ref32 = ref.astype(np.float32)
    # The top binade's spacing at FLT_MAX itself (np.spacing says inf).
    below_max = np.nextafter(np.float32(np.finfo(np.float32).max),
                             np.float32(0))
    spacing = np.spacing(np.minimum(np.abs(ref32), below_max))
    return np.abs(y.astype(np.float64) - ref) / spacing.astype(np.float64)


def bound(op, options):
    if "math-kernels=f64" in options or op not in F32_KERNELS:
        return F64_BOUND_ULP
    return F32_BOUND_ULP


@pytest.mark.parametrize("op", sorted(FUNCTIONS))
@pytest.mark.parametrize("options", ["", "vector-width=1 parallel=false",
                                     "math-kernels=f64"])
def test_within_the_stated_bound(op, options):
    x, y = compiled(op, options)
    with np.errstate(all="ignore"):
        ref = np.asarray(FUNCTIONS[op](x.astype(np.float64)), np.float64)
        ref32 = ref.astype(np.float32)
    nan = np.isnan(ref)
    np.testing.assert_array_equal(np.isnan(y), nan,
                                  err_msg=f"{op}: NaN where the exact is not")
    inf = np.isinf(ref32) & ~nan
    np.testing.assert_array_equal(y[inf], ref32[inf],
                                  err_msg=f"{op}: overflow is not inf")
    finite = ~nan & ~inf
    err = ulp_errors(y[finite], ref[finite])
    worst = int(np.argmax(err))
    assert err[worst] <= bound(op, options), (
        f"{op}({x[finite][worst]!r}) = {y[finite][worst]!r}, exact "
        f"{ref[finite][worst]!r}: {err[worst]:.4f} ulp")
    # Signed zeros are kept (tanh(-0) = -0, erf(-0) = -0, ...).
    zero = finite & (ref == 0)
    np.testing.assert_array_equal(np.signbit(y[zero]),
                                  np.signbit(ref32[zero]),
                                  err_msg=f"{op}: sign of zero")


def test_upstream_kernels_stay_within_their_stated_bound():
    # Upstream's f32 polynomials (math-kernels=upstream): docs/Numerics.md
    # states 5.23 ulp for exp near overflow (0.98 below 88).
    x, y = compiled("exp", "math-kernels=upstream")
    keep = np.isfinite(x) & (x <= 88.0) & (x >= -87.0)
    ref = np.exp(x[keep].astype(np.float64))
    assert ulp_errors(y[keep], ref).max() <= 1.0


def pow_inputs():
    """Every base of the sweep (both signs, zeros, denormals, infinities,
    NaN) against exponents that are integers (odd and even: the sign of a
    negative base), halves, random reals, huge, tiny, infinite and NaN."""
    rng = np.random.default_rng(11)
    x = sweep()
    special = np.array([0.0, -0.0, 1.0, -1.0, 2.0, 3.0, -2.0, -3.0, 0.5,
                        -0.5, 2.5, 7.0, 1e-30, 3e38, -3e38, 16777217.0,
                        np.inf, -np.inf, np.nan], np.float32)
    y = np.concatenate([
        special, np.round(rng.normal(0, 6, N // 4)),
        rng.normal(0, 3, N // 4), rng.normal(0, 40, N // 4),
        rng.uniform(-1, 1, N // 4)]).astype(np.float32)
    # Shuffled, so that every kind of exponent meets bases of both signs.
    return x, rng.permutation(np.resize(y, N))


@pytest.mark.parametrize("options", ["", "vector-width=1 parallel=false",
                                     "math-kernels=f64"])
def test_pow_within_the_f64_kernel_bound(options):
    # f32 pow is an f64 pow of the widened operands; --stax-approximate-
    # math evaluates it as e^(y ln|x|) in f64 (3.2e-11 relative) and the
    # special cases of C's pow exactly.
    t = "tensor<%dxf32>" % N
    text = ("func.func @f(%%x: %s, %%y: %s) -> %s {\n"
            "  %%0 = tp.pow %%x, %%y : %s, %s -> %s\n  return %%0 : %s\n}"
            % (t, t, t, t, t, t, t))
    exe = Executable(text, options)
    x, yexp = pow_inputs()
    out = np.empty(N, np.float32)
    exe.call_raw("f", [x.ctypes.data, yexp.ctypes.data, out.ctypes.data])
    with np.errstate(all="ignore"):
        ref = np.power(x.astype(np.float64), yexp.astype(np.float64))
        ref32 = ref.astype(np.float32)
    nan = np.isnan(ref)
    np.testing.assert_array_equal(np.isnan(out), nan)
    inf = np.isinf(ref32) & ~nan
    np.testing.assert_array_equal(out[inf], ref32[inf])
    finite = ~nan & ~inf
    err = ulp_errors(out[finite], ref[finite])
    worst = int(np.argmax(err))
    assert err[worst] <= F64_BOUND_ULP, (
        f"pow({x[finite][worst]!r}, {yexp[finite][worst]!r}) = "
        f"{out[finite][worst]!r}, exact {ref[finite][worst]!r}: "
        f"{err[worst]:.4f} ulp")
    zero = finite & (ref == 0)
    np.testing.assert_array_equal(np.signbit(out[zero]),
                                  np.signbit(ref32[zero]))


@pytest.mark.parametrize("op", ["sigmoid", "silu"])
def test_logistic_common_path_is_bitwise_the_general_one(op):
    # The f32 logistic takes a shorter branch when every lane of a vector
    # has |x| below about 16 and a finite n; it must give the same bits as
    # the general branch, which a vector takes as soon as one lane needs
    # it (here every 16th element is 1000).
    t = "tensor<%dxf32>" % N
    text = ("func.func @f(%%x: %s) -> %s {\n  %%0 = tp.%s %%x : %s -> %s\n"
            "  return %%0 : %s\n}" % (t, t, op, t, t, t))
    exe = Executable(text, "")
    x = np.random.default_rng(3).uniform(-16, 16, N).astype(np.float32)
    forced = x.copy()
    forced[::16] = 1000.0
    common, general = np.empty(N, np.float32), np.empty(N, np.float32)
    exe.call_raw("f", [x.ctypes.data, common.ctypes.data])
    exe.call_raw("f", [forced.ctypes.data, general.ctypes.data])
    keep = np.ones(N, bool)
    keep[::16] = False
    np.testing.assert_array_equal(common[keep].view(np.uint32),
                                  general[keep].view(np.uint32))


def atan2_inputs():
    """Numerators against denominators of every magnitude and sign: the
    sweep against a shuffled copy of itself (zeros, infinities and NaN
    included, so every special pair occurs), plus ratios near 1 and near
    tan(pi/12), where the kernel's reductions switch."""
    rng = np.random.default_rng(13)
    x = sweep()
    y = rng.permutation(x)
    near = rng.uniform(-4, 4, 4096).astype(np.float32)
    y[:4096] = near * np.float32(0.2679492) * rng.choice([1, -1], 4096)
    x[:4096] = near
    y[4096:8192] = x[4096:8192] * rng.uniform(0.99, 1.01, 4096)
    special = np.array([0.0, -0.0, np.inf, -np.inf, 1.0, -1.0, np.nan],
                       np.float32)
    sy, sx = np.meshgrid(special, special)
    y[8192:8192 + sy.size] = sy.ravel()
    x[8192:8192 + sx.size] = sx.ravel()
    return y, x


@pytest.mark.parametrize("options", ["", "vector-width=1 parallel=false"])
def test_atan2_within_the_f64_kernel_bound(options):
    t = "tensor<%dxf32>" % N
    text = ("func.func @f(%%y: %s, %%x: %s) -> %s {\n"
            "  %%0 = tp.atan2 %%y, %%x : %s, %s -> %s\n  return %%0 : %s\n}"
            % (t, t, t, t, t, t, t))
    exe = Executable(text, options)
    y, x = atan2_inputs()
    out = np.empty(N, np.float32)
    exe.call_raw("f", [y.ctypes.data, x.ctypes.data, out.ctypes.data])
    ref = np.arctan2(y.astype(np.float64), x.astype(np.float64))
    nan = np.isnan(ref)
    np.testing.assert_array_equal(np.isnan(out), nan)
    err = ulp_errors(out[~nan], ref[~nan])
    worst = int(np.argmax(err))
    assert err[worst] <= F64_BOUND_ULP, (
        f"atan2({y[~nan][worst]!r}, {x[~nan][worst]!r}) = "
        f"{out[~nan][worst]!r}, exact {ref[~nan][worst]!r}: "
        f"{err[worst]:.4f} ulp")
    # atan2(+-0, x) and atan2(y, +-inf) keep the sign of zero.
    zero = ~nan & (ref == 0)
    np.testing.assert_array_equal(np.signbit(out[zero]),
                                  np.signbit(ref[zero]))


@pytest.mark.parametrize("op", ["sin", "cos", "tan"])
def test_reduction_branch_keeps_the_other_lanes_bitwise(op):
    # A vector with one lane above 2^26 computes that lane with libm's f64
    # function; its other lanes must keep the bits of the f64 kernel.
    t = "tensor<%dxf32>" % N
    text = ("func.func @f(%%x: %s) -> %s {\n  %%0 = tp.%s %%x : %s -> %s\n"
            "  return %%0 : %s\n}" % (t, t, op, t, t, t))
    exe = Executable(text, "")
    x = np.random.default_rng(5).uniform(-1e4, 1e4, N).astype(np.float32)
    forced = x.copy()
    forced[::16] = np.float32(1.0e9)
    common, mixed = np.empty(N, np.float32), np.empty(N, np.float32)
    exe.call_raw("f", [x.ctypes.data, common.ctypes.data])
    exe.call_raw("f", [forced.ctypes.data, mixed.ctypes.data])
    keep = np.ones(N, bool)
    keep[::16] = False
    np.testing.assert_array_equal(common[keep].view(np.uint32),
                                  mixed[keep].view(np.uint32))
    ref = getattr(np, op)(np.float64(1.0e9))
    assert np.all(np.abs(mixed[~keep] - ref) <= F64_BOUND_ULP *
                  np.spacing(np.float32(abs(ref))))
