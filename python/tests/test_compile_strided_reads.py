"""Reads at a small constant stride along the vectorized loop (strided
slices, max pooling windows) and reversed reads (flip) run as contiguous
vector loads and shuffles (Vectorize.cpp, contiguousParts), under the
lane mask where padding or concatenation masks lanes off. They move values
only, so compiled results and gradients are bitwise eager's, with and
without threads, on random shapes that leave vector tails."""

import random

import pytest
import torch
import torch.nn.functional as F

import stax

THREADED = "grain=1 call-grain=0"


def _program(seed):
    rng = random.Random(seed)
    dtype = rng.choice([torch.float32, torch.float32, torch.float64, torch.int32])
    shape = [rng.randrange(1, 4), rng.randrange(1, 6), rng.randrange(17, 140)]
    step = rng.choice([2, 2, 3, 4, 5])
    start = rng.randrange(0, step + 1)
    pad = rng.randrange(0, 3)
    flip_dims = rng.choice([(-1,), (-1, -2), (0, -1)])

    def fn(x):
        s = x[..., start::step]
        f = x.flip(flip_dims)
        p = F.pad(x, (pad, pad))[..., ::2]
        return s * 3 - 1, f - x, p + 2

    return fn, shape, dtype


def _input(shape, dtype, seed, grad=False):
    g = torch.Generator().manual_seed(seed)
    if dtype.is_floating_point:
        return torch.randn(shape, dtype=dtype, generator=g).requires_grad_(grad)
    return torch.randint(-1000, 1000, shape, dtype=dtype, generator=g)


@pytest.mark.parametrize("options", ["", THREADED])
@pytest.mark.parametrize("seed", range(12))
def test_strided_reads_equal_eager(seed, options):
    fn, shape, dtype = _program(seed)
    grad = dtype.is_floating_point
    x = _input(shape, dtype, seed, grad)
    compiled = stax.compile(fn, options=options)
    want, got = fn(x), compiled(x)
    for w, g in zip(want, got):
        assert torch.equal(w, g)
    if grad:
        cot = [_input(w.shape, dtype, seed + 1 + i) for i, w in enumerate(want)]
        gw = torch.autograd.grad(want, x, cot)[0]
        gg = torch.autograd.grad(got, x, cot)[0]
        assert torch.equal(gw, gg)


@pytest.mark.parametrize("options", ["", THREADED])
@pytest.mark.parametrize("kernel,stride,padding,ceil", [
    (2, 2, 0, False), (3, 2, 1, True), (3, 3, 1, False), (2, 4, 0, True)])
def test_max_pool_windows_equal_eager(kernel, stride, padding, ceil, options):
    x = torch.randn(2, 3, 37, 71, requires_grad=True,
                    generator=torch.Generator().manual_seed(kernel * 10 + stride))

    def fn(x):
        return F.max_pool2d(x, kernel, stride, padding, ceil_mode=ceil)

    compiled = stax.compile(fn, options=options)
    want, got = fn(x), compiled(x)
    assert torch.equal(want, got)
    cot = torch.randn(want.shape, generator=torch.Generator().manual_seed(1))
    gw = torch.autograd.grad(want, x, cot)[0]
    gg = torch.autograd.grad(got, x, cot)[0]
    if kernel <= stride:
        assert torch.equal(gw, gg)
        return
    # Overlapping windows: an element's gradient sums the cotangents of up
    # to m = ceil(kernel / stride)^2 windows, in another order than eager's
    # (class 2): |error| <= (m - 1) u sum|terms| per element, with u = 2^-24
    # and sum|terms| <= m max|cot| bounding every element's.
    m = (-(-kernel // stride)) ** 2
    bound = (m - 1) * 2.0 ** -24 * m * cot.abs().max()
    assert (gw - gg).abs().max() <= bound
