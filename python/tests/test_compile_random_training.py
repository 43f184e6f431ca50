"""stax.compile on random training programs: chains of 2-8 operators drawn
from about 115 (activations and other elementwise math, softmax and other
operations along a dim, sorting, scans, norms, views, matmul, linear,
layer/group/instance/batch norm, conv1d, pooling, interpolation, padding,
binary operators with broadcasting), with parameters created along the
way. Each program's value and the gradient of every input (float64, a
random cotangent) must equal eager's to relative 1e-9: the programs are
small, so only reordered sums separate the two. The programs come from
fixed seeds: a failure is reproducible by its test id. The generator
found hardsigmoid's float64 gradient (eager multiplies by 1.0f / 6)."""

import random
import warnings

import pytest
import torch
import torch.nn.functional as F

import stax

D = torch.float64


class _NewParams:
    """Creates the program's parameters on its first (eager) run."""

    def __init__(self, seed):
        self.gen = torch.Generator().manual_seed(seed)
        self.made = []

    def __call__(self, *shape):
        p = torch.randn(*shape, dtype=D, generator=self.gen) * 0.5
        self.made.append(p)
        return p


_UNARY = [
    lambda x: x.exp().clamp(max=10), torch.tanh, torch.sigmoid, torch.relu,
    F.gelu, F.silu, F.softplus, torch.abs, torch.sin, torch.cos,
    lambda x: (x.abs() + 1).log(), lambda x: (x.abs() + 0.1).sqrt(),
    lambda x: (x.abs() + 0.5).rsqrt(), lambda x: x ** 2, lambda x: x.pow(3),
    torch.erf, torch.atan, lambda x: F.leaky_relu(x, 0.1), F.elu,
    F.hardtanh, lambda x: x.clamp(-0.5, 0.7), torch.neg, F.mish,
    F.hardswish, F.hardsigmoid, F.softsign, F.logsigmoid, F.selu, F.celu,
    lambda x: torch.where(x > 0, x, x * 0.3),
    lambda x: x.masked_fill(x < -1, 0.0), lambda x: torch.log1p(x.abs()),
    torch.expm1, lambda x: torch.atan2(x, x + 2),
    lambda x: torch.lerp(x, x.sin(), 0.3), torch.sinh, torch.asinh,
    lambda x: torch.cosh(x.clamp(-3, 3)),
    lambda x: torch.acos(x.tanh() * 0.9), torch.trunc, torch.round,
    torch.sign, lambda x: x.reciprocal().clamp(-5, 5),
    lambda x: torch.clamp_min(x, 0.1),
]


def _along_dim(rng, x):
    d = rng.randrange(x.dim())
    n = x.shape[d]
    ops = [
        lambda: x.softmax(d), lambda: x.log_softmax(d), lambda: x.cumsum(d),
        lambda: x.flip(d), lambda: x.roll(1, d),
        lambda: x.logsumexp(d, keepdim=True) - x,
        lambda: x.max(d, keepdim=True)[0] + x, lambda: x.min(d)[0],
        lambda: x.sort(d)[0], lambda: x.topk(min(2, n), d)[0],
        lambda: x.norm(dim=d), lambda: x.var(d) if n > 1 else x,
        lambda: x.std(d, keepdim=True) if n > 1 else x, lambda: x.mean(d),
        lambda: x.sum(d, keepdim=True) * x, lambda: x.amax(d),
        lambda: x.prod(d), lambda: F.normalize(x, dim=d),
        lambda: x.cummax(d)[0], lambda: torch.gather(x, d, x.argsort(d)),
        lambda: x.narrow(d, 0, max(1, n // 2)),
        lambda: x.index_select(d, torch.tensor([0, 0, n - 1])),
        lambda: torch.cat([x, x * 2], d), lambda: torch.stack([x, x.sin()], d),
        lambda: x.unsqueeze(d).expand(*x.shape[:d], 3, *x.shape[d:]),
        lambda: x.chunk(2, d)[0], lambda: x.repeat_interleave(2, d),
        lambda: x.argmax(d, keepdim=True).to(x.dtype) + x,
        lambda: x.cumprod(d), lambda: torch.logcumsumexp(x, d),
        lambda: x.median(d)[0], lambda: x.kthvalue(1, d)[0],
        lambda: x.movedim(d, 0),
    ]
    return rng.choice(ops)()


def _layer(rng, x, param):
    r = x.dim()
    ops = [lambda: x.reshape(-1), lambda: x.unsqueeze(0), lambda: x[..., ::2],
           lambda: x.repeat(2, *([1] * (r - 1))), lambda: x.expand(2, *x.shape)]
    if r >= 2:
        a, b = rng.sample(range(r), 2)
        last = x.shape[-1]
        ops += [
            lambda: x.transpose(a, b), lambda: x.triu(), lambda: x.tril(-1),
            lambda: x.diagonal(0, a, b), lambda: x.permute(*rng.sample(range(r), r)),
            lambda: x @ param(last, rng.choice([2, 3, 5])),
            lambda: F.linear(x, param(4, last), param(4)),
            lambda: F.layer_norm(x, (last,), param(last), param(last)),
            lambda: torch.einsum("...ij,...kj->...ik", x, x), lambda: F.pad(x, (1, 2)),
        ]
    if r == 3:
        ops += [
            lambda: F.conv1d(x, param(3, x.shape[1], 2), padding=1),
            lambda: F.max_pool1d(x, 2) if x.shape[-1] >= 2 else x,
            lambda: F.avg_pool1d(x, 2, 1) if x.shape[-1] >= 2 else x,
            lambda: F.interpolate(x, scale_factor=2, mode="linear"),
            lambda: torch.bmm(x, x.transpose(1, 2)), lambda: F.group_norm(x, 1),
            lambda: F.instance_norm(x), lambda: F.batch_norm(x, None, None, training=True),
        ]
    return rng.choice(ops)()


_BINARY = [
    torch.add, torch.sub, torch.mul, lambda a, b: a / (b.abs() + 0.5),
    torch.maximum, torch.minimum, lambda a, b: torch.where(a > b, a, b * 2),
    lambda a, b: torch.atan2(a, b + 3), lambda a, b: torch.addcmul(a, a, b, value=0.5),
    torch.hypot, lambda a, b: (a.abs() + 0.5) ** b.clamp(-2, 2),
    lambda a, b: F.mse_loss(a, b, reduction="none"), lambda a, b: torch.lerp(a, b, 0.25),
    lambda a, b: torch.fmod(a, 1.5) + b, lambda a, b: a.copysign(b),
]


def _program(seed):
    """(fn(x, *params), x, params): a chain of random steps on x, the first
    that eager runs of those the seed draws (instance norm of one element
    is an error there)."""
    for attempt in range(16):
        fn, x, params = _draw(random.Random(seed * 16 + attempt), seed)
        try:
            fn(x)                      # creates the parameters
        except (RuntimeError, ValueError, IndexError):
            continue
        return fn, x, list(params.made)
    raise AssertionError(f"seed {seed} draws no program eager runs")


def _draw(rng, seed):
    shape = [rng.choice([1, 2, 3, 4, 5]) for _ in range(rng.randrange(1, 5))]
    steps = [rng.randrange(1 << 30) for _ in range(rng.randrange(2, 9))]
    params = _NewParams(seed)

    def fn(x, *ps):
        given = iter(ps)
        param = (lambda *shape: next(given)) if ps else params
        z, seen = x, [x]
        for s in steps:
            r = random.Random(s)
            if z.dim() == 0 or z.numel() > 20000:
                break
            kind = r.randrange(4)
            if kind == 0:
                z = r.choice(_UNARY)(z)
            elif kind == 1:
                z = _along_dim(r, z)
            elif kind == 2:
                z = _layer(r, z, param)
            else:
                other = r.choice(seen)
                z = r.choice(_BINARY)(z, other if other.shape == z.shape else other.sum())
            seen.append(z)
        return z

    x = torch.randn(*shape, dtype=D, generator=torch.Generator().manual_seed(seed))
    return fn, x, params


@pytest.mark.parametrize("seed", range(40))
def test_random_training_program_matches_eager(seed):
    fn, x, params = _program(seed)
    inputs = [x] + params
    results = []
    for f in (fn, stax.compile(fn)):
        xs = [t.clone().requires_grad_() for t in inputs]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")    # eager's own (mse_loss's)
            warnings.filterwarnings("error", "stax.compile")  # no fallback
            y = f(*xs)
        cot = torch.randn(y.shape, dtype=D, generator=torch.Generator().manual_seed(seed))
        grads = torch.autograd.grad(y, xs, cot, allow_unused=True)
        results.append([y.detach()] + [torch.zeros_like(t) if g is None else g
                                       for g, t in zip(grads, inputs)])
    for got, want in zip(results[1], results[0]):
        torch.testing.assert_close(got, want, rtol=1e-9, atol=1e-9, equal_nan=True)
