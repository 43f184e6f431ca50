"""Reads at a floordiv or mod of the vectorized loop's index (the gradients
of strided slices, pooling windows and strided convolutions, the col2im of
a transposed convolution) run as vector code whose lanes repeat with a
period (Vectorize.cpp, Periodic lanes), and a transposed convolution with a
stride is one product and a col2im (decompositions.py), not the convolution
of the zero-dilated input. Values move exactly, so compiled results and
gradients that add one term per element are bitwise eager's; sums of
several terms (overlapping windows, repeated elements, products) are
within the error bound of their reordering, with and without threads, on
shapes that leave vector tails."""

import random

import pytest
import torch
import torch.nn.functional as F

import stax

THREADED = "grain=1 call-grain=0"


def _randn(shape, seed, dtype=torch.float32, grad=False):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(shape, dtype=dtype, generator=g).requires_grad_(grad)


def _grads(fn, compiled, inputs, seed):
    """Eager's and the compiled function's results and input gradients
    under the same random cotangents."""
    want, got = fn(*inputs), compiled(*inputs)
    want = want if isinstance(want, tuple) else (want,)
    got = got if isinstance(got, tuple) else (got,)
    cot = [_randn(w.shape, seed + 1 + i, w.dtype) for i, w in enumerate(want)]
    gw = torch.autograd.grad(want, inputs, cot)
    gg = torch.autograd.grad(got, inputs, cot)
    return want, got, gw, gg, cot


@pytest.mark.parametrize("options", ["", THREADED])
@pytest.mark.parametrize("seed", range(10))
def test_strided_slice_gradients_equal_eager(seed, options):
    rng = random.Random(seed)
    dtype = rng.choice([torch.float32, torch.float64])
    shape = [rng.randrange(1, 4), rng.randrange(1, 5), rng.randrange(17, 150)]
    step = rng.choice([2, 2, 4, 3])
    start = rng.randrange(0, step + 1)
    x = _randn(shape, seed, dtype, grad=True)

    # Two slices of one input: nodes of one fused loop nest.
    def fn(x):
        return x[..., start::step] * 3, x[..., 1::2] * -2

    want, got, gw, gg, _ = _grads(fn, stax.compile(fn, options=options),
                                  (x,), seed)
    for w, g in zip(want, got):
        assert torch.equal(w, g)
    # Each element's gradient adds at most one term of each slice (a sum
    # of two terms is the same in either order).
    assert torch.equal(gw[0], gg[0])


@pytest.mark.parametrize("options", ["", THREADED])
@pytest.mark.parametrize("kernel,stride,padding", [(2, 2, 0), (3, 2, 1), (4, 4, 0)])
def test_avg_pool_gradient(kernel, stride, padding, options):
    x = _randn((2, 3, 33, 70), kernel, grad=True)

    def fn(x):
        return F.avg_pool2d(x, kernel, stride, padding)

    want, got, gw, gg, cot = _grads(fn, stax.compile(fn, options=options),
                                    (x,), 7)
    # A window's mean: k^2 terms summed, in eager's order or another one.
    u = 2.0 ** -24
    assert (want[0] - got[0]).abs().max() <= 2 * kernel ** 2 * u * x.abs().max()
    if kernel <= stride:
        assert torch.equal(gw[0], gg[0])
        return
    # Up to m = ceil(kernel / stride)^2 windows per element, each term
    # cot / area, added in another order: (m - 1) u m max|cot| / area.
    m = (-(-kernel // stride)) ** 2
    bound = (m - 1) * u * m * cot[0].abs().max() / kernel ** 2
    assert (gw[0] - gg[0]).abs().max() <= bound


@pytest.mark.parametrize("options", ["", THREADED])
@pytest.mark.parametrize("scale,dims,last", [
    (2, 2, 5), (2, 2, 21), (4, 1, 9), (3, 2, 5), (2, 3, 4), (2, 3, 13)])
def test_nearest_upsampling(scale, dims, last, options):
    # Rows of at least 16 (wide ones): the loop over each repeat is merged
    # with the one over the input's elements and vectorized.
    shape = [2, 3, 9, 5, 4][:1 + dims] + [last]
    x = _randn(shape, scale, grad=True)

    def fn(x):
        return F.interpolate(x, scale_factor=scale, mode="nearest")

    want, got, gw, gg, cot = _grads(fn, stax.compile(fn, options=options),
                                    (x,), 3)
    assert torch.equal(want[0], got[0])
    # Each input element's gradient sums m = scale^dims cotangents.
    m = scale ** dims
    bound = (m - 1) * 2.0 ** -24 * m * cot[0].abs().max()
    assert (gw[0] - gg[0]).abs().max() <= bound


@pytest.mark.parametrize("options", ["", THREADED])
@pytest.mark.parametrize("factor", [2, 4])
def test_pixel_shuffle_equal_eager(factor, options):
    x = _randn((2, 3 * factor * factor, 7, 19), factor, grad=True)

    def fn(x):
        return F.pixel_shuffle(x, factor), F.pixel_unshuffle(x, 1) * 2

    want, got, gw, gg, _ = _grads(fn, stax.compile(fn, options=options),
                                  (x,), 5)
    for w, g in zip(want, got):
        assert torch.equal(w, g)
    assert torch.equal(gw[0], gg[0])


CONV_TRANSPOSE = [
    # (dims, stride, padding, dilation, output_padding, groups, kernel)
    (1, 2, 0, 1, 0, 1, 3), (1, 3, 1, 1, 2, 2, 3), (2, 2, 1, 1, 1, 1, 4),
    (2, (2, 1), 0, 1, 0, 1, 2), (2, 2, 0, 2, 1, 1, 3), (2, 2, 3, 1, 0, 3, 2),
    (3, 2, 1, 1, 1, 1, 3), (3, (1, 2, 3), 0, 1, 0, 1, 2)]


@pytest.mark.parametrize("options", ["", THREADED])
@pytest.mark.parametrize("case", CONV_TRANSPOSE)
def test_strided_conv_transpose(case, options):
    dims, stride, padding, dilation, output_padding, groups, k = case
    cin, cout = 6, 6
    spatial = [7, 5, 4][:dims]
    x = _randn((2, cin, *spatial), 1, torch.float64, grad=True)
    w = _randn((cin, cout // groups, *[k] * dims), 2, torch.float64, grad=True)
    b = _randn((cout,), 3, torch.float64, grad=True)
    conv = [F.conv_transpose1d, F.conv_transpose2d, F.conv_transpose3d][dims - 1]

    def fn(x, w, b):
        return conv(x, w, b, stride=stride, padding=padding,
                    output_padding=output_padding, groups=groups,
                    dilation=dilation)

    want, got, gw, gg, cot = _grads(fn, stax.compile(fn, options=options),
                                    (x, w, b), 4)
    assert want[0].shape == got[0].shape
    # Every result and gradient element is a sum of at most n products
    # (n: every input element times every weight), evaluated in two
    # orders: |error| <= 2 n u sum|terms|, the sums of |terms| those of
    # the same function of |x|, |w|, |b| and |cot|.
    n = x.numel() * w.numel()
    u = 2.0 ** -53
    ax, aw, ab = (t.detach().abs().requires_grad_() for t in (x, w, b))
    terms = fn(ax, aw, ab)
    term_grads = torch.autograd.grad(terms, (ax, aw, ab), cot[0].abs())
    assert ((want[0] - got[0]).abs() <= 2 * n * u * terms).all()
    for want_g, got_g, bound in zip(gw, gg, term_grads):
        assert ((want_g - got_g).abs() <= 2 * n * u * bound).all()
