"""Gradients of extremes at ties, compiled against eager PyTorch.

Eager's backward of scatter_reduce / index_reduce with amax or amin
(include_self=True) splits a position's gradient evenly over every element
equal to its result, self included; embedding_bag(mode='max') sends a bag's
gradient to its first maximal row alone. Inputs are small integers, so most
positions tie. The gradients are a division by the tie count on each side:
equal to within one rounding.
"""

import warnings

import pytest
import torch
import torch.nn.functional as F

import stax


@pytest.fixture(autouse=True)
def _no_fallback():
    with warnings.catch_warnings():
        warnings.filterwarnings("error", message=".*stax.compile.*")
        warnings.filterwarnings("ignore", message=".*scatter_reduce.*")
        warnings.filterwarnings("ignore", message=".*index_reduce.*")
        yield


def _ints(*shape, seed, high=3):
    g = torch.Generator().manual_seed(seed)
    return torch.randint(0, high, shape, generator=g).to(torch.float32)


def _grads(fn, *inputs, weight):
    leaves = [t.clone().requires_grad_() for t in inputs]
    out = fn(*leaves)
    (out * weight).sum().backward()
    return out.detach(), [t.grad for t in leaves]


def _check(fn, inputs, weight):
    want, want_grads = _grads(fn, *inputs, weight=weight)
    got, got_grads = _grads(stax.compile(fn), *inputs, weight=weight)
    assert torch.equal(got, want)
    for g, w in zip(got_grads, want_grads):
        torch.testing.assert_close(g, w, rtol=2 ** -23, atol=0)


@pytest.mark.parametrize("reduce", ["amax", "amin"])
@pytest.mark.parametrize("seed", [0, 1])
def test_scatter_reduce_splits_over_self_and_sources(reduce, seed):
    base, src = _ints(5, 3, seed=seed), _ints(7, 3, seed=seed + 10)
    g = torch.Generator().manual_seed(seed + 20)
    index = torch.randint(0, 5, (7, 3), generator=g)
    weight = _ints(5, 3, seed=seed + 30, high=7) + 1

    def fn(b, s):
        return b.scatter_reduce(0, index, s, reduce, include_self=True)
    _check(fn, (base, src), weight)


@pytest.mark.parametrize("reduce", ["amax", "amin"])
def test_index_reduce_splits_over_self_and_sources(reduce):
    base, src = _ints(4, 6, seed=3), _ints(4, 5, seed=4)
    index = torch.tensor([0, 5, 0, 2, 5])
    weight = _ints(4, 6, seed=5, high=7) + 1

    def fn(b, s):
        return b.index_reduce(1, index, s, reduce, include_self=True)
    _check(fn, (base, src), weight)


def test_embedding_bag_max_sends_gradient_to_the_first_max():
    weight_rows = _ints(6, 4, seed=7)
    indices = torch.tensor([0, 1, 2, 3, 3, 4, 5, 0])
    offsets = torch.tensor([0, 3, 5])
    upstream = _ints(3, 4, seed=8, high=5) + 1

    def fn(w):
        return F.embedding_bag(indices, w, offsets, mode="max")
    _check(fn, (weight_rows,), upstream)
