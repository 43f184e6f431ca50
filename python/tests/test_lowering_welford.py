"""--stax-lower{welford=true}: var as one Welford pass. This reorders the
arithmetic (a class-2 transformation, Section 6.9), so it is checked against
the float64 variance within a bound, not bitwise.

Bound: each of the n Welford updates performs 6 rounded operations (count,
delta, delta/count, mean, x - mean, the M2 product and sum), each on
quantities bounded by |x_i| + max|mean_k|, so to first order the computed
M2 is within 6·n·u·Σ_i (|x_i| + max|x|)² of the exact one; the final
division adds one rounding (u·var). Data with a large mean (3 + N(0,1))
makes the test sensitive to the catastrophic cancellation a naive
one-pass sum of squares would suffer (its error would be ~n·u·Σx², far
beyond the check below for these sizes).
"""

import numpy as np
import pytest

import stax

U = 2.0 ** -24


def _module(shape, dims, correction, keepdim):
    x = "tensor<%sxf32>" % "x".join(map(str, shape))
    out = [s for i, s in enumerate(shape) if i not in dims or keepdim]
    if keepdim:
        out = [1 if i in dims else s for i, s in enumerate(shape)]
    r = "tensor<%sf32>" % "".join("%dx" % s for s in out)
    return ("func.func @f(%%x: %s) -> %s {\n"
            "  %%v = tp.var %%x {dims = array<i64: %s>, correction = %s : f64%s}"
            " : %s -> %s\n  return %%v : %s\n}\n"
            % (x, r, ", ".join(map(str, dims)), repr(float(correction)),
               ", keepdim = true" if keepdim else "", x, r, r))


def _reference(x, shape, dims, correction, keepdim):
    """The float64 variance and the bound of the module docstring."""
    x64 = x.astype(np.float64)
    want = np.var(x64, axis=dims, ddof=correction, keepdims=keepdim)
    n = int(np.prod([shape[d] for d in dims]))
    s = np.sum((np.abs(x64) + np.max(np.abs(x64), axis=dims, keepdims=True)) ** 2,
               axis=dims, keepdims=keepdim)
    return want, 6 * n * U * s / max(n - correction, 1) + U * np.abs(want)


@pytest.mark.parametrize("shape,dims,correction,keepdim", [
    ((8, 1000), (1,), 1, False),
    ((2000, 40), (0,), 1, False),
    ((16, 7, 5), (0, 2), 1, False),
    ((3, 4099), (1,), 0, True),
])
@pytest.mark.parametrize("options", ["welford=true",
                                     "welford=true vector-width=1",
                                     "welford=true target=cuda"])
def test_compiled_welford_within_bound(shape, dims, correction, keepdim,
                                       options):
    # The vector code keeps a Welford state per lane (rows: along the
    # reduction, merged with Chan's combine; columns: one output per lane,
    # in the scalar order); target=cuda's lowering splits long reductions
    # into partial states and welford_combine, here compiled for the CPU.
    text = _module(shape, dims, correction, keepdim)
    lowered_options = options.replace(" vector-width=1", "")
    lowered = stax.run_pipeline(
        text, "builtin.module(stax-lowering-pipeline{%s decompose=false})"
        % lowered_options)
    assert "welford" in lowered
    rng = np.random.default_rng(1)
    x = (3.0 + rng.standard_normal(shape)).astype(np.float32)
    want, tol = _reference(x, shape, dims, correction, keepdim)
    exe = stax.Executable(lowered, options.replace("target=cuda", "")
                          .replace("welford=true", "").strip())
    out = np.empty(want.shape, np.float32)
    exe.call_raw("f", [x.ctypes.data, out.ctypes.data])
    err = np.abs(out.astype(np.float64) - want)
    assert np.all(err <= tol), (err.max(), tol.min())


@pytest.mark.parametrize("shape,dims,correction,keepdim", [
    ((8, 1000), (1,), 1, False),
    ((4, 3000), (1,), 0, True),
    ((16, 7, 5), (0, 2), 1, False),
    ((2, 4096), (1,), 2, False),
])
def test_welford_var_within_bound(shape, dims, correction, keepdim):
    text = _module(shape, dims, correction, keepdim)
    rng = np.random.default_rng(0)
    x = (3.0 + rng.standard_normal(shape)).astype(np.float32)
    lowered = stax.run_pipeline(text, "builtin.module(stax-decompose{keep=tp.var},func.func(stax-lower{welford=true}))")
    assert "welford" in lowered
    (got,) = stax.interpret(lowered, "f", x)
    want, tol = _reference(x, shape, dims, correction, keepdim)
    err = np.abs(got.astype(np.float64) - want)
    assert np.all(err <= tol), (err.max(), tol.min())
    # The two-pass default is also within the bound, and is what the
    # reference interpreter computes bit for bit.
    (ref,) = stax.interpret(text, "f", x)
    assert np.all(np.abs(ref.astype(np.float64) - want) <= tol)
