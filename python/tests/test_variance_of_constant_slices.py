"""The variance of a constant slice is exactly 0, as eager's Welford gives,
so std's gradient there is eager's 0 (its std_backward masks a zero
result): tp.var's mean is shifted by each slice's first element
(Decompose.cpp, and the interpreter's kernel). Before, the mean's
rounding left a variance of ~1e-13 and a gradient of O(1 / n) noise."""

import pytest
import torch

import stax

CASES = [
    ("column", lambda x: x.std(0)),
    ("row, keepdim", lambda x: x.std(1, keepdim=True)),
    ("population", lambda x: x.std(0, unbiased=False)),
    ("std_mean", lambda x: torch.std_mean(x, 0)[0]),
    ("var", lambda x: x.var(0)),
]


def constant_columns(dtype):
    torch.manual_seed(0)
    x = torch.randn(16, 5, dtype=dtype)
    x[:, 1] = -1.77          # 3x, 5x ... are not exact: a plain mean rounds
    x[:, 3] = 0.1
    return x


@pytest.mark.parametrize("name,fn", CASES, ids=[c[0] for c in CASES])
@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_constant_slices_have_eagers_value_and_gradient(name, fn, dtype):
    x = constant_columns(dtype)
    if name == "row, keepdim":
        x = x.t().contiguous()
    a, b = x.clone().requires_grad_(), x.clone().requires_grad_()
    got = stax.compile(fn)(a)
    want = fn(b)
    zero = want == 0
    assert bool(zero.any()), "the case has no constant slice"
    assert torch.equal(got[zero], want[zero])
    g, = torch.autograd.grad(got.sum(), a)
    h, = torch.autograd.grad(want.sum(), b)
    if name == "var":
        # var's gradient is 2 (x - mean) / (n - 1): eager's backward mean
        # is a plain one, ours too, so both see the same rounding.
        torch.testing.assert_close(g, h, rtol=0, atol=1e-6)
    else:
        cols = zero.reshape(-1).nonzero().reshape(-1)
        if name == "row, keepdim":
            assert torch.equal(g[cols], torch.zeros_like(g[cols]))
        else:
            assert torch.equal(g[:, cols], torch.zeros_like(g[:, cols]))


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_the_std_of_a_constant_tensor_is_zero_with_a_zero_gradient(dtype):
    # Eager reduces a whole tensor by a cascade sum, not Welford: its std
    # of this one is 1.2e-7 and its gradient O(1 / n) noise.
    x = torch.full((4, 7), -1.77, dtype=dtype, requires_grad=True)
    got = stax.compile(lambda x: x.std())(x)
    assert got.item() == 0
    g, = torch.autograd.grad(got, x)
    assert torch.equal(g, torch.zeros_like(g))


def test_the_interpreter_gives_zero_too():
    x = constant_columns(torch.float32)
    text = stax.import_torch(lambda x: x.var(0), x)
    [v] = stax.interpret(text, "forward", x.numpy())
    assert v[1] == 0 and v[3] == 0
    [v64] = stax.interpret(text, "forward", x.numpy(), f64=True)
    assert v64[1] == 0 and v64[3] == 0
