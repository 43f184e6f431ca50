"""Random ops in compiled code: dropout, rand, randn, bernoulli.

Compiled random ops draw from Stax's Philox stream (TpRandomOps.td), not
PyTorch's, so values are compared with what the same call's other results
imply (the dropout mask shows in the output and must be the one the
backward uses) and with the distributions' moments, at six standard
deviations. The lowering itself is bitwise equal to the interpreter
(test/stax-run/random-golden.mlir)."""

import math
import warnings

import pytest
import torch
import torch.nn as nn
import torch.nn.functional as F

import stax

U = 2.0 ** -24


def _no_fallback():
    """Warnings are errors: a random op that Stax could not compile would
    run the function in PyTorch with a warning."""
    warnings.simplefilter("error")


def _no_zeros(t):
    return torch.where(t == 0, torch.ones_like(t), t)


@pytest.mark.parametrize("budget", [None, 0.0])
def test_dropout_mask_is_the_backward_mask(budget):
    # memory_budget=0 makes the min cut recompute what it can in the
    # backward: the mask is then redrawn from the same state.
    _no_fallback()
    p, n = 0.25, 500 * 500
    # No zeros in x or the cotangent, which would hide the mask: randn
    # gives an exact pair of zeros when a uniform draw of its Box-Muller
    # pair is 0 (about once in 500 runs of this size; torch.manual_seed(12)
    # before the call showed it).
    x = _no_zeros(torch.randn(500, 500)).requires_grad_()
    f = stax.compile(lambda x: F.dropout(x, p) * 2.0, memory_budget=budget)
    y = f(x)
    c = _no_zeros(torch.randn(500, 500))
    g, = torch.autograd.grad(y, x, c)
    kept = y != 0
    frac = kept.double().mean().item()
    assert abs(frac - (1 - p)) <= 6 * math.sqrt(p * (1 - p) / n)
    assert torch.equal(g == 0, ~kept)
    # g = 2c * mask / (1 - p): both sides round the same exact product at
    # most twice.
    want = (c * 2.0) * kept / (1 - p)
    assert torch.all((g - want).abs() <= 4 * U * want.abs())


def test_seeds_come_from_torch_generator():
    _no_fallback()
    x = torch.randn(64, 64)
    f = stax.compile(lambda x: F.dropout(x, 0.5))
    torch.manual_seed(7)
    a = f(x)            # the first call compiles: tracing must not draw
    torch.manual_seed(7)
    b = f(x)
    c = f(x)
    assert torch.equal(a, b)
    assert not torch.equal(b, c)


def test_uniform_and_normal_moments():
    _no_fallback()
    n = 1 << 20
    x = torch.zeros(n)
    with torch.no_grad():
        r = stax.compile(lambda x: torch.rand_like(x))(x).double()
        z = stax.compile(lambda x: torch.randn_like(x))(x).double()
    assert r.min() >= 0 and r.max() < 1
    assert abs(r.mean().item() - 0.5) <= 6 * math.sqrt(1 / 12 / n)
    assert abs(r.var().item() - 1 / 12) <= 6 * math.sqrt(1 / 180 / n)
    assert abs(z.mean().item()) <= 6 / math.sqrt(n)
    assert abs(z.var().item() - 1) <= 6 * math.sqrt(2 / n)


def test_in_place_normal_and_exponential_draws():
    """Tensor.normal_ (torch.distributions' rsample) and exponential_
    (F.gumbel_softmax's noise), functionalized, compile: the moments of
    normal(2, 3) and exponential(2) (mean and standard deviation 1/2)
    within six standard errors, exponential draws never negative, and
    rsample differentiable in loc and scale."""
    _no_fallback()
    n = 1 << 18
    x = torch.zeros(n)
    with torch.no_grad():
        z = stax.compile(lambda x: torch.empty_like(x).normal_(2.0, 3.0) + x)(x)
        e = stax.compile(lambda x: torch.empty_like(x).exponential_(2.0) + x)(x)
    z, e = z.double(), e.double()
    assert abs(z.mean().item() - 2) <= 6 * 3 / math.sqrt(n)
    assert abs(z.var().item() - 9) <= 6 * 9 * math.sqrt(2 / n)
    assert e.min() >= 0
    assert abs(e.mean().item() - 0.5) <= 6 * 0.5 / math.sqrt(n)
    # Var of an exponential's variance estimate: (mu4 - sigma^4) / n, with
    # mu4 = 9 / lambda^4.
    assert abs(e.var().item() - 0.25) <= 6 * math.sqrt(8 / 16 / n)
    loc = torch.zeros(3, requires_grad=True)
    scale = torch.ones(3, requires_grad=True)
    sample = stax.compile(lambda m, s: torch.distributions.Normal(
        m, s, validate_args=False).rsample((1000,)))(loc, scale)
    sample.sum().backward()
    assert torch.equal(loc.grad, torch.full((3,), 1000.0))
    assert scale.grad is not None
    hard = stax.compile(lambda l: F.gumbel_softmax(l, hard=True))(torch.randn(64, 5))
    assert torch.equal(hard.sum(1), torch.ones(64))


def test_bernoulli_probabilities_from_tensor():
    _no_fallback()
    n = 1 << 16
    p = torch.linspace(0, 1, 5).repeat_interleave(n // 5 + 1)[:n]
    with torch.no_grad():
        d = stax.compile(lambda p: torch.bernoulli(p))(p)
    for q in p.unique():
        sel = d[p == q].double()
        k = sel.numel()
        assert abs(sel.mean().item() - q.item()) <= 6 * math.sqrt(q * (1 - q) / k) + 1e-12


def test_transformer_with_dropout_trains_compiled():
    """TransformerEncoderLayer's default dropout (0.1) in training mode: the
    whole layer compiles (no fallback), and SGD decreases the loss."""
    _no_fallback()
    torch.manual_seed(0)
    m = nn.TransformerEncoderLayer(32, 4, 64, batch_first=True)
    x, target = torch.randn(4, 8, 32), torch.randn(4, 8, 32)
    f = stax.compile(m)
    opt = torch.optim.SGD(m.parameters(), lr=0.05)
    losses = []
    for _ in range(15):
        opt.zero_grad()
        loss = ((f(x) - target) ** 2).mean()
        loss.backward()
        opt.step()
        losses.append(loss.item())
    assert all(math.isfinite(v) for v in losses)
    assert all(p.grad is not None for p in m.parameters())
    assert losses[-1] < losses[0]
