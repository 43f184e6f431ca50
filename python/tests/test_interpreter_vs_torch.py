"""The reference interpreter (float32) against eager PyTorch on the corpus.

Three regimes, chosen from the ops of each traced forward graph:

1. Bitwise.  A model without reduction or matmul whose ops are all correctly
   rounded IEEE operations (+, -, *, /, sqrt, and exact ops: neg, abs, relu,
   max/min, clamp, where, comparisons, views) has exactly one correct float32
   result per element; ours and PyTorch's must be identical bit for bit.

2. ULPs (pointwise with transcendental functions).  exp/tanh/erf/log1p/...
   are not correctly rounded: PyTorch's vectorized versions (Sleef) are
   within 1 ulp, ours (libm in double, rounded once) within 1 ulp, so each
   such op contributes at most 2u|v| relative error per implementation; the
   errors propagate to the output through the chain's condition factors.
   Per element i the allowed distance in ulps of the float32 result is

       ulps_i <= tol_i / ulp(y_i),   tol_i = 2 u sum_k c_k |dy_i/dv_k| |v_k|

   i.e. 2 * sum_k c_k * cond_k(i) * (u |y_i| / ulp(y_i)) <= 2 sum_k c_k cond_k,
   with c_k the op's rounding count (1 for +,-,*,/, 2 for a <= 1 ulp
   function, 4 for sigmoid = 1/(1+exp(-x))) and cond_k = |dy/dv_k||v_k|/|y|
   the condition factor from op k to the output (computed by autograd on
   the float64 graph).  Where the output does not cancel, cond_k <= ~1 and
   the bound is a few tens of ulps; at cancellations it grows as it must.

3. Tolerance from the error bound (everything with a reduction or matmul).
   Section 6.5: a float32 evaluation y32 of the graph satisfies, to first
   order in u = 2**-24,

       |y32 - y| <= gamma * u * S,     tol = 2 * gamma * u * S

   for two evaluations (ours and PyTorch's, whatever their summation order
   or FMA use), where every op k contributes a local error
   <= c_k u L_k (L_k = |v_k| for pointwise ops, sum |terms| for a reduction
   or contraction of length n, which has c_k = n: n - 1 additions and one
   product), propagated by the adjoint dy/dv_k:

       gamma * S = sum_k c_k <|dy/dv_k|, L_k>,   gamma = sum_k c_k.

   For one reduction of length n_max (c = n_max) among `depth` correctly
   rounded ops (counting the reduction), gamma = (n_max - 1) + depth and S is
   the sum |terms| of that reduction (e.g. y = sum(x): S = sum |x|).  See stax/numerics.py and
   docs/Numerics.md.  We assert |ours32 - torch32| <= tol, and that ours32
   and torch32 are each within tol of ref64 (our interpreter with f64=True);
   ref64 itself must match PyTorch in float64 within the same bound scaled
   to double precision (u64 = 2**-53).
"""

import operator
import warnings

import numpy as np
import pytest
import torch
from torch.fx.experimental.proxy_tensor import make_fx

import stax
from stax import corpus
from stax.importer import import_torch
from stax.numerics import error_bound

warnings.filterwarnings("ignore")

aten = torch.ops.aten

U32, U64 = 2.0 ** -24, 2.0 ** -53

# Correctly rounded (or exact) ops: regime 1.
_CORRECTLY_ROUNDED = {
    aten.add.Tensor, aten.sub.Tensor, aten.mul.Tensor, aten.div.Tensor,
    aten.add.Scalar, aten.sub.Scalar, aten.mul.Scalar, aten.div.Scalar,
    aten.rsub.Scalar, aten.sqrt.default, aten.neg.default, aten.abs.default,
    aten.relu.default, aten.maximum.default, aten.minimum.default,
    aten.clamp.default, aten.where.self, aten.gt.Tensor, aten.gt.Scalar,
    aten.lt.Tensor, aten.lt.Scalar, aten.ge.Tensor, aten.ge.Scalar,
    aten.le.Tensor, aten.le.Scalar, aten.eq.Tensor, aten.ne.Tensor,
    aten.detach.default, aten.clone.default, aten.view.default,
    aten.expand.default, aten.t.default, aten.transpose.int,
}


def _ops(model):
    gm = make_fx(model.fn)(*model.make_inputs())
    return {n.target for n in gm.graph.nodes
            if n.op == "call_function" and n.target is not operator.getitem}


def _regime(model):
    if model.has_reduction_or_matmul:
        return "bound"
    return "bitwise" if _ops(model) <= _CORRECTLY_ROUNDED else "ulps"


def _run(model):
    inputs = model.make_inputs()
    text = import_torch(model.fn, *inputs)
    ours = stax.interpret(text, "forward", *inputs)
    ref64 = stax.interpret(text, "forward", *inputs, f64=True)
    torch_out = model.fn(*model.make_inputs())
    torch_out = [t.detach().numpy() for t in
                 torch.utils._pytree.tree_flatten(torch_out)[0]]
    return ours, ref64, torch_out


def test_regimes_of_the_corpus():
    assert _regime(corpus.get("pointwise_chain")) == "bitwise"
    assert _regime(corpus.get("pointwise_transcendental")) == "ulps"


@pytest.mark.parametrize("name", corpus.names())
def test_forward_matches_torch(name):
    model = corpus.get(name)
    ours, ref64, theirs = _run(model)
    assert len(ours) == len(theirs) == len(ref64)
    for o, t, r in zip(ours, theirs, ref64):
        assert o.shape == t.shape and o.dtype == t.dtype == np.float32
        assert r.dtype == np.float64 and r.shape == t.shape

    regime = _regime(model)
    if regime == "bitwise":
        for o, t in zip(ours, theirs):
            assert np.array_equal(o.view(np.uint32), t.view(np.uint32)), \
                f"{name}: {np.sum(o != t)} elements differ"
        return

    bounds = error_bound(model.fn, *model.make_inputs())
    assert len(bounds) == len(ours)
    for o, t, r, b in zip(ours, theirs, ref64, bounds):
        tol = b.tol.numpy()
        o64, t64 = o.astype(np.float64), t.astype(np.float64)
        assert np.all(tol > 0)
        # Our float64 run agrees with PyTorch's float64 run within the same
        # bound at double precision.
        assert np.all(np.abs(r - b.ref.numpy()) <= tol * (U64 / U32)), name
        if regime == "ulps":
            ulp = np.spacing(np.abs(t)).astype(np.float64)
            allowed = tol / ulp
            diff = np.abs(o64 - t64) / ulp
            assert np.all(diff <= allowed), (
                f"{name}: {diff.max()} ulps where "
                f"{allowed.flat[np.argmax(diff / allowed)]:.1f} are allowed")
            # Where the output does not cancel, the bound is a few tens of ulps.
            assert np.median(allowed) < 64
        for what, d in (("ours - torch", np.abs(o64 - t64)),
                        ("ours - ref64", np.abs(o64 - r)),
                        ("torch - ref64", np.abs(t64 - r))):
            worst = np.argmax(d - tol)
            assert np.all(d <= tol), (
                f"{name}: |{what}| = {d.flat[worst]:.3g} > tol {tol.flat[worst]:.3g}"
                f" (gamma {b.gamma:.0f}, S {b.S.numpy().flat[worst]:.3g})")


def test_bound_is_meaningful():
    """The tolerance is far below the output's magnitude (a wrong kernel
    cannot hide in it), and scales with the reduction length."""
    for name in corpus.names():
        model = corpus.get(name)
        if not model.has_reduction_or_matmul:
            continue
        [b] = error_bound(model.fn, *model.make_inputs())
        assert np.all(b.tol.numpy() <= 0.05 * np.abs(b.ref.numpy())), name

    g = torch.Generator().manual_seed(0)
    x = torch.rand(4096, generator=g)
    [small] = error_bound(lambda a: a.sum(), x[:64])
    [large] = error_bound(lambda a: a.sum(), x)
    # tol = 2 (n - 1 + 1) u sum|x| for a plain sum.
    assert small.gamma == 64 and large.gamma == 4096
    assert float(large.tol) == pytest.approx(2 * 4096 * U32 * float(x.double().sum()))


def test_scalar_operands_are_bitwise():
    """Python numbers in Tensor overloads (imported as .Scalar ops) are
    rounded like PyTorch does: to the tensor's dtype first."""
    g = torch.Generator().manual_seed(1)
    x = torch.randn(64, 32, generator=g)
    for fn in (lambda a: a * 0.1, lambda a: a + 1e-06, lambda a: a - 0.3,
               lambda a: a / 2.8284271247461903, lambda a: 1.0 - a,
               lambda a: a * 3, lambda a: a ** 2,
               lambda a: torch.div(a, 0.3, rounding_mode="floor"),
               lambda a: a.masked_fill(a > 0.5, 0.1),
               lambda a: torch.clamp(a, -0.7, 0.7)):
        out = stax.interpret(import_torch(fn, x), "forward", x)[0]
        assert np.array_equal(out.view(np.uint32), fn(x).numpy().view(np.uint32))
