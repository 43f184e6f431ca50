"""tp.sort against PyTorch 1.13's torch.sort(..., stable=True).

Hand-written `tp.sort` modules (the importer is wired separately) on data
with many ties, NaNs and both zeros: the reference interpreter (plain and in
float64) and the compiled code (the runtime's stax_rt_sort_*) must give
eager's values and indices exactly; the VJP of --stax-joint-graph must give
torch.autograd.grad's gradient exactly, and the JVP of --stax-jvp eager's
forward-mode tangent.
"""

import numpy as np
import pytest
import torch

import stax

ELT = {np.float32: "f32", np.float64: "f64", np.int64: "i64", np.int32: "i32",
       np.int8: "i8", np.bool_: "i1"}
BITS = {np.float32: np.uint32, np.float64: np.uint64}

# (shape, dtype, dim, descending)
CASES = [
    ((13,), np.float32, 0, False),
    ((13,), np.float32, -1, True),
    ((4, 9), np.float32, 1, True),
    ((5, 6, 3), np.float64, 1, False),
    ((5, 6, 3), np.float32, 0, True),
    ((5, 6, 3), np.float32, -3, False),
    ((3, 40), np.int64, 1, True),
    ((6, 4), np.int32, 0, False),
    ((3, 7), np.int8, -1, True),
    ((2, 8), np.bool_, 1, True),
    ((), np.float32, -1, False),
    ((0, 3), np.float32, 0, False),
    ((3, 1), np.float64, 1, True),
]


def _type(shape, elt):
    return "tensor<%s%s>" % ("".join("%dx" % d for d in shape), elt)


def _module(shape, dtype, dim, descending, requires_grad=False):
    t, it = _type(shape, ELT[dtype]), _type(shape, "i64")
    attrs = "dim = %d : i64%s" % (dim, ", descending = true" if descending else "")
    grad = " {tp.requires_grad}" if requires_grad else ""
    return ("func.func @f(%%x: %s%s) -> (%s, %s) {\n"
            "  %%s:2 = tp.sort %%x {%s} : %s -> %s, %s\n"
            "  return %%s#0, %%s#1 : %s, %s\n}\n"
            % (t, grad, t, it, attrs, t, t, it, t, it))


def _data(shape, dtype, seed=0):
    """Few distinct values (ties everywhere); floats also get NaNs and zeros
    of both signs."""
    rng = np.random.default_rng(seed)
    if dtype == np.bool_:
        return rng.integers(0, 2, shape).astype(np.bool_)
    x = rng.integers(-3, 3, shape).astype(dtype)
    if np.issubdtype(dtype, np.floating):
        x[rng.random(shape) < 0.15] = np.nan
        zero = x == 0
        x[zero] = np.where(rng.random(shape) < 0.5, 0.0, -0.0)[zero]
    return x


def _same(got, want):
    """Bit for bit (a -0.0 where eager has 0.0 is an error)."""
    assert got.dtype == want.dtype and got.shape == want.shape
    if want.dtype.type in BITS:
        bits = BITS[want.dtype.type]
        return np.array_equal(got.view(bits), want.view(bits))
    return np.array_equal(got, want)


def _torch_sort(x, dim, descending):
    v, i = torch.sort(torch.from_numpy(x), dim=dim, descending=descending,
                      stable=True)
    return v.numpy(), i.numpy()


@pytest.mark.parametrize("shape,dtype,dim,descending", CASES)
@pytest.mark.parametrize("f64", [False, True])
def test_interpreter_matches_torch(shape, dtype, dim, descending, f64):
    x = _data(shape, dtype)
    values, indices = stax.interpret(_module(shape, dtype, dim, descending),
                                     "f", x, f64=f64)
    want_v, want_i = _torch_sort(x, dim, descending)
    if f64 and np.issubdtype(dtype, np.floating):
        want_v = want_v.astype(np.float64)
    assert _same(values, want_v), (x, values, want_v)
    assert _same(indices, want_i), (x, indices, want_i)


@pytest.mark.parametrize("shape,dtype,dim,descending", CASES)
def test_compiled_matches_torch(shape, dtype, dim, descending):
    x = _data(shape, dtype, seed=1)
    exe = stax.Executable(_module(shape, dtype, dim, descending))
    values = np.empty(shape, dtype)
    indices = np.empty(shape, np.int64)
    exe.call_raw("f", [x.ctypes.data, values.ctypes.data, indices.ctypes.data])
    want_v, want_i = _torch_sort(x, dim, descending)
    assert _same(values, want_v), (x, values, want_v)
    assert _same(indices, want_i), (x, indices, want_i)


def test_large_slices_compiled():
    """Long slices with many ties along a middle dim, against eager and the
    interpreter."""
    shape = (3, 5000, 2)
    x = _data(shape, np.float32, seed=2)
    text = _module(shape, np.float32, 1, True)
    exe = stax.Executable(text)
    values = np.empty(shape, np.float32)
    indices = np.empty(shape, np.int64)
    exe.call_raw("f", [x.ctypes.data, values.ctypes.data, indices.ctypes.data])
    want_v, want_i = _torch_sort(x, 1, True)
    assert _same(values, want_v) and _same(indices, want_i)
    got_v, got_i = stax.interpret(text, "f", x)
    assert _same(got_v, want_v) and _same(got_i, want_i)


FLOAT_CASES = [c for c in CASES if np.issubdtype(c[1], np.floating)]


@pytest.mark.parametrize("shape,dtype,dim,descending", FLOAT_CASES)
def test_vjp_matches_autograd(shape, dtype, dim, descending):
    x = _data(shape, dtype, seed=3)
    g = np.random.default_rng(4).standard_normal(shape).astype(dtype)
    joint = stax.run_pipeline(_module(shape, dtype, dim, descending, True),
                              "builtin.module(stax-joint-graph)")
    values, indices, grad = stax.interpret(joint, "f", x, g)
    xt = torch.from_numpy(x).requires_grad_()
    v, i = torch.sort(xt, dim=dim, descending=descending, stable=True)
    (want,) = torch.autograd.grad(v, xt, torch.from_numpy(g))
    assert _same(values, v.detach().numpy()) and _same(indices, i.numpy())
    assert _same(grad, want.numpy()), (grad, want)


@pytest.mark.parametrize("shape,dtype,dim,descending", FLOAT_CASES)
def test_jvp_matches_forward_ad(shape, dtype, dim, descending):
    import torch.autograd.forward_ad as fwad
    x = _data(shape, dtype, seed=5)
    t = np.random.default_rng(6).standard_normal(shape).astype(dtype)
    jvp = stax.run_pipeline(_module(shape, dtype, dim, descending),
                            "builtin.module(stax-jvp)")
    _, _, tangent = stax.interpret(jvp, "f", x, t)
    with fwad.dual_level():
        dual = fwad.make_dual(torch.from_numpy(x), torch.from_numpy(t))
        v, _ = torch.sort(dual, dim=dim, descending=descending, stable=True)
        want = fwad.unpack_dual(v).tangent
    assert _same(tangent, want.numpy()), (tangent, want)
