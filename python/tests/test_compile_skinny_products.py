"""f32 products with few rows (SkinnyContraction.h): vector code with
fused multiply-adds along k instead of a BLAS call. A product is class 2
(Section 6.5): each element is within gamma_k = k u / (1 - k u) of
sum |a| |b| of the float64 product (u = 2^-24), whatever the order of
its additions; checked for every element, on shapes with partial column
blocks, transposed A, batches, long k, and a convolution whose im2col
product has 8 rows, with and without threads."""

import pytest
import torch
import torch.nn.functional as F

import stax

THREADED = "grain=1 call-grain=0"
U = 2.0 ** -24


def _within_gamma(got, exact, magnitude, k):
    gamma = k * U / (1 - k * U)
    assert got.shape == exact.shape
    assert bool(((got.double() - exact).abs() <= gamma * magnitude).all())


@pytest.mark.parametrize("options", ["", THREADED])
@pytest.mark.parametrize("batch,m,k,n,trans_a", [
    (1, 8, 72, 4100, False), (3, 5, 7, 100, True), (2, 16, 144, 515, False),
    (1, 1, 256, 64, True), (1, 13, 300, 200, False), (4, 2, 33, 257, True),
    (1, 4, 2000, 80, False)])
def test_products_within_gamma(batch, m, k, n, trans_a, options):
    g = torch.Generator().manual_seed(m * 1000 + k)
    a = torch.randn(batch, m, k, generator=g)
    if trans_a:
        a = a.transpose(1, 2).contiguous().transpose(1, 2)
    b = torch.randn(batch, k, n, generator=g)
    compiled = stax.compile(torch.bmm, options=options)
    with torch.no_grad():
        got = compiled(a, b)
    _within_gamma(got, torch.bmm(a.double(), b.double()),
                  torch.bmm(a.double().abs(), b.double().abs()), k)


@pytest.mark.parametrize("options", ["", THREADED])
@pytest.mark.parametrize("stride", [1, 2])
def test_few_channel_convolution_within_gamma(stride, options):
    g = torch.Generator().manual_seed(stride)
    x = torch.randn(4, 3, 30, 34, generator=g)
    w = torch.randn(8, 3, 3, 3, generator=g)

    def conv(x, w):
        return F.conv2d(x, w, stride=stride, padding=1)

    with torch.no_grad():
        got = stax.compile(conv, options=options)(x, w)
    _within_gamma(got, conv(x.double(), w.double()),
                  conv(x.double().abs(), w.double().abs()), 3 * 3 * 3)
