"""Large products run as one BLAS call per OpenMP thread
(lib/Runtime/BlasThreads.h): split along the batch, or C's rows, or its
columns, with either operand transposed and extents the thread count does
not divide. Every element is within the float64 bound (docs/Numerics.md),
with one thread and with two."""

import pytest
import torch

import stax
from stax.numerics import error_bound

# (name, function, operand shapes): each at least 2^20 multiply-adds.
CASES = [
    ("batch", lambda a, b: torch.bmm(a, b), [(5, 64, 96), (5, 96, 48)]),
    ("rows", lambda a, b: a @ b, [(301, 70), (70, 60)]),
    ("rows, A transposed", lambda a, b: a.t() @ b, [(70, 301), (70, 60)]),
    ("columns", lambda a, b: a @ b, [(40, 70), (70, 501)]),
    ("columns, B transposed", lambda a, b: a @ b.t(), [(40, 70), (501, 70)]),
    ("both transposed", lambda a, b: a.t() @ b.t(), [(70, 40), (501, 70)]),
    ("rows of a batch of 1", lambda a, b: torch.bmm(a, b),
     [(1, 257, 80), (1, 80, 64)]),
]


@pytest.fixture(params=[1, 2], ids=["1 thread", "2 threads"])
def threads(request):
    stax.set_num_threads(request.param)
    yield request.param
    stax.set_num_threads(0)


@pytest.mark.parametrize("name,fn,shapes", CASES, ids=[c[0] for c in CASES])
@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_split_products_are_within_the_bound(threads, name, fn, shapes, dtype):
    torch.manual_seed(len(name))
    args = [torch.randn(s, dtype=dtype) for s in shapes]
    with torch.no_grad():
        got = stax.compile(fn)(*args)
    [bound] = error_bound(fn, *args)
    assert got.shape == bound.ref.shape
    assert torch.all((got.double() - bound.ref).abs() <= bound.tol), name


def test_gradients_of_a_large_product_are_within_the_bound(threads):
    torch.manual_seed(0)
    a = torch.randn(300, 90, requires_grad=True)
    b = torch.randn(90, 70, requires_grad=True)

    def fn(a, b):
        return torch.tanh(a @ b)

    out = stax.compile(fn)(a, b)
    grads = torch.autograd.grad(out.sum(), [a, b])

    def reference(a, b):
        a, b = a.detach().requires_grad_(), b.detach().requires_grad_()
        return torch.autograd.grad(fn(a, b).sum(), [a, b])

    for g, bound in zip(grads, error_bound(reference, a, b)):
        assert torch.all((g.double() - bound.ref).abs() <= bound.tol)
