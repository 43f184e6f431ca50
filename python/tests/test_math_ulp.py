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


def executable(op, options="", arity=1):
    """tp.<op> of `arity` tensor<N x f32> operands, compiled."""
    t = "tensor<%dxf32>" % N
    names = ["%%x%d" % i for i in range(arity)]
    text = ("func.func @f(%s) -> %s {\n  %%0 = tp.%s %s : %s -> %s\n"
            "  return %%0 : %s\n}" % (
                ", ".join("%s: %s" % (n, t) for n in names), t, op,
                ", ".join(names), ", ".join([t] * arity), t, t))
    return Executable(text, options)


def run(exe, *inputs):
    out = np.empty(N, np.float32)
    exe.call_raw("f", [a.ctypes.data for a in inputs] + [out.ctypes.data])
    return out


def compiled(op, options=""):
    x = sweep()
    return x, run(executable(op, options), x)


def ulp_errors(y, ref):
    """|y - ref| in units of the f32 spacing at float32(ref)."""
    ref32 = ref.astype(np.float32)
    # The top binade's spacing at FLT_MAX itself (np.spacing says inf).
    below_max = np.nextafter(np.float32(np.finfo(np.float32).max),
                             np.float32(0))
    spacing = np.spacing(np.minimum(np.abs(ref32), below_max))
    return np.abs(y.astype(np.float64) - ref) / spacing.astype(np.float64)


def assert_within(call, y, ref, bound):
    """NaN exactly where the float64 `ref` is NaN, inf where it overflows
    f32, every other value within `bound` ulp, and signed zeros kept;
    `call(i)` names the i-th call for the messages."""
    with np.errstate(all="ignore"):
        ref32 = ref.astype(np.float32)
    nan = np.isnan(ref)
    np.testing.assert_array_equal(np.isnan(y), nan,
                                  err_msg="NaN where the exact is not")
    inf = np.isinf(ref32) & ~nan
    np.testing.assert_array_equal(y[inf], ref32[inf],
                                  err_msg="overflow is not inf")
    finite = np.flatnonzero(~nan & ~inf)
    err = ulp_errors(y[finite], ref[finite])
    worst = int(np.argmax(err))
    i = finite[worst]
    assert err[worst] <= bound, (
        f"{call(i)} = {y[i]!r}, exact {ref[i]!r}: {err[worst]:.4f} ulp")
    # Signed zeros are kept (tanh(-0) = -0, atan2(-0, 1) = -0, ...).
    zero = finite[ref[finite] == 0]
    np.testing.assert_array_equal(np.signbit(y[zero]),
                                  np.signbit(ref32[zero]),
                                  err_msg="sign of zero")


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
    assert_within(lambda i: f"{op}({x[i]!r})", y, ref, bound(op, options))


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
    x, yexp = pow_inputs()
    out = run(executable("pow", options, arity=2), x, yexp)
    with np.errstate(all="ignore"):
        ref = np.power(x.astype(np.float64), yexp.astype(np.float64))
    assert_within(lambda i: f"pow({x[i]!r}, {yexp[i]!r})", out, ref,
                  F64_BOUND_ULP)


@pytest.mark.parametrize("op", ["sigmoid", "silu"])
def test_logistic_common_path_is_bitwise_the_general_one(op):
    # The f32 logistic takes a shorter branch when every lane of a vector
    # has |x| below about 16 and a finite n; it must give the same bits as
    # the general branch, which a vector takes as soon as one lane needs
    # it (here every 16th element is 1000).
    exe = executable(op)
    x = np.random.default_rng(3).uniform(-16, 16, N).astype(np.float32)
    forced = x.copy()
    forced[::16] = 1000.0
    common, general = run(exe, x), run(exe, forced)
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
    y, x = atan2_inputs()
    out = run(executable("atan2", options, arity=2), y, x)
    ref = np.arctan2(y.astype(np.float64), x.astype(np.float64))
    # atan2(+-0, x) and atan2(y, +-inf) keep the sign of zero.
    assert_within(lambda i: f"atan2({y[i]!r}, {x[i]!r})", out, ref,
                  F64_BOUND_ULP)


@pytest.mark.parametrize("op", ["sin", "cos", "tan"])
def test_reduction_branch_keeps_the_other_lanes_bitwise(op):
    # A vector with one lane above 2^26 computes that lane with libm's f64
    # function; its other lanes must keep the bits of the f64 kernel.
    exe = executable(op)
    x = np.random.default_rng(5).uniform(-1e4, 1e4, N).astype(np.float32)
    forced = x.copy()
    forced[::16] = np.float32(1.0e9)
    common, mixed = run(exe, x), run(exe, forced)
    keep = np.ones(N, bool)
    keep[::16] = False
    np.testing.assert_array_equal(common[keep].view(np.uint32),
                                  mixed[keep].view(np.uint32))
    ref = getattr(np, op)(np.float64(1.0e9))
    assert np.all(np.abs(mixed[~keep] - ref) <= F64_BOUND_ULP *
                  np.spacing(np.float32(abs(ref))))
