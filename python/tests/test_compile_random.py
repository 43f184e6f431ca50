"""Compiled code on the random view/pointwise/reduction programs of
test_lowering_random (fixed seeds): the scalar code without approximated
math against the interpreter on the same module (both compute each f32
primitive once, rounded; libm's transcendental functions are within 1 ulp
of the interpreter's correctly rounded ones, so those programs get a few
ulp), and the default code (vectorized, parallel, approximated math)
against the float64 error bound of docs/Numerics.md, every element."""

import warnings

import numpy as np
import pytest
import torch

import stax
from stax.numerics import error_bound

from test_lowering_random import _program

warnings.filterwarnings("ignore")


@pytest.mark.parametrize("seed", range(60))
def test_random_program_compiled(seed):
    fn, x, y = _program(seed)
    want = fn(x, y)
    with torch.no_grad():
        default = stax.compile(fn)(x, y)
        scalar = stax.compile(
            fn, options="vector-width=1 parallel=false approximate-math=false")(x, y)
    [bound] = error_bound(fn, x, y)
    assert default.shape == want.shape and default.dtype == want.dtype
    assert torch.all((default.double() - bound.ref).abs() <= bound.tol)
    assert torch.all((scalar.double() - bound.ref).abs() <= bound.tol)
    # The scalar code against the interpreter: equal up to the libm
    # functions' last bit, propagated (a few ulp of the result's scale).
    text = stax.import_torch(fn, x, y)
    [interp] = stax.interpret(text, "forward", x, y)
    scale = np.maximum(np.abs(interp), 1.0)
    assert np.all(np.abs(scalar.numpy() - interp) <= 64 * 2.0 ** -24 * scale)
