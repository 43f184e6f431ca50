"""--stax-lower, op by op: every single-op case of the derivative-rule and
decomposition suites (derivative_cases_*.py, test_decompose.CASES: each
family, attributes, broadcasting, dtypes incl. f16 and integers) is lowered
and interpreted on the same inputs as the tp module. Lowering is a
first-class transformation (Section 6.9), so the results must be identical
bit for bit, in float32 (the derivative cases are written in f64; they are
also run converted to f32) and as written.

Ops without a rule stay as fallbacks, which is correct by construction; the
coverage test at the end lists what stays, so that a new op without a rule
is a visible decision.
"""

import importlib
import re
import warnings

import numpy as np
import pytest

import stax
from stax.gradcheck import random_args

import test_decompose

warnings.filterwarnings("ignore")

FAMILIES = ["elementwise", "reduction", "linalg", "shape", "nn", "indexing",
            "random"]


def _derivative_cases():
    out = []
    for fam in FAMILIES:
        mod = importlib.import_module("derivative_cases_" + fam)
        for name, text, specs in mod.CASES:
            out.append(("%s:%s" % (fam, name), text, specs))
    return out


DERIVATIVE = _derivative_cases()


def _to_f32(text):
    return re.sub(r"(tensor<[^>]*?)f64>", r"\1f32>", text)


def _check(text, args, entry="f"):
    want = stax.interpret(text, entry, *args)
    lowered = stax.run_pipeline(text, "builtin.module(stax-decompose,func.func(stax-lower))")
    got = stax.interpret(lowered, entry, *args)
    assert len(want) == len(got)
    for i, (w, g) in enumerate(zip(want, got)):
        assert w.dtype == g.dtype, i
        assert np.array_equal(w, g, equal_nan=True), (
            "result %d differs\n%s" % (i, lowered))
    return lowered


@pytest.mark.parametrize("name,text,specs", DERIVATIVE,
                         ids=[c[0] for c in DERIVATIVE])
def test_derivative_case_lowers_bitwise(name, text, specs):
    args = random_args(specs, seed=3)
    _check(text, args)
    f32 = _to_f32(text)
    if f32 != text:
        _check(f32, [a.astype(np.float32) if a.dtype == np.float64 else a
                     for a in args])


@pytest.mark.parametrize("name", sorted(test_decompose.CASES))
def test_decompose_case_lowers_bitwise(name):
    op, sig, body, results, ints = test_decompose.CASES[name]
    text = test_decompose._module(sig, body, results)
    args = test_decompose._inputs(sig, ints, seed=5)
    _check(text, args)


def test_what_stays():
    """The ops of these suites that stay tp after lowering (external calls
    and fallbacks). Adding a rule shrinks this set; an op without a rule
    must be listed here on purpose."""
    kept = set()
    for _, text, _ in DERIVATIVE:
        lowered = stax.run_pipeline(text, "builtin.module(stax-decompose,func.func(stax-lower))")
        kept |= set(re.findall(r"= (tp\.[\w.]+)", lowered))
    print(sorted(kept))
    allowed = {
        # external calls
        "tp.mm", "tp.bmm", "tp.sort", "tp.topk", "tp.constant", "tp.cumsum",
        "tp.cumprod", "tp.logcumsumexp", "tp.cummax", "tp.cummin",
        "tp.ctc_loss", "tp.ctc_loss_backward",
        # fallbacks (see docs/Lowering.md)
        "tp.native_dropout", "tp.as_strided",
        # its decomposition declines these attributes (scale_grad_by_freq)
        "tp.embedding_dense_backward",
    }
    assert kept <= allowed, kept - allowed


def test_tensor_pow_special_exponents():
    """tp.pow (a tensor exponent) is pow for every element, as eager's
    tensor-tensor kernel: exponents 2, 3, ±0.5, -1, -2 get no special
    case (those are tp.pow.Tensor_Scalar's), and the lowering agrees."""
    text = ("func.func @f(%a: tensor<2x7xf32>, %b: tensor<2x7xf32>) -> tensor<2x7xf32> {\n"
            "  %0 = tp.pow %a, %b : tensor<2x7xf32>, tensor<2x7xf32> -> tensor<2x7xf32>\n"
            "  return %0 : tensor<2x7xf32>\n}\n")
    rng = np.random.default_rng(0)
    a = (np.abs(rng.standard_normal((2, 7))) + 0.1).astype(np.float32)
    b = np.array([[2, 3, 0.5, -0.5, -1, -2, 1.7],
                  [0, 1, 2.5, -3, 4, 0.25, 2]], np.float32)
    lowered = _check(text, [a, b])
    assert "tp.pow" not in lowered
