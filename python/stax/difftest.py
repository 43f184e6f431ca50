"""Differential testing of the whole stack on random PyTorch programs.

    /usr/bin/python3 -m stax.difftest [--n 1000] [--seed 0] [--out DIR]

A program is a random list of operator steps over a small pool of values
(pointwise ops with broadcasting, views and reshapes, strided slices,
padding, reductions, normalizations, matmul and batched products,
convolutions and pooling, interpolation, losses with class targets and
weights, batch/group/instance norms, embeddings, einsum, concatenation,
gathers, scatters and indexing with duplicate and negative indices,
in-place updates of views that the importer functionalizes, scans, norms,
k-th values and sorting), built so that
every step is well typed and values stay bounded.  Each program is checked
in eight stages:

    import     stax.import_torch succeeds;
    f32        the interpreter in float32 against eager PyTorch in float32,
    f64        and in float64 against eager float64 (the generic bound of
               `generic_mismatch`);
    lower      the lowering pipeline's first-class transformations
               (`stax-lowering-pipeline{split-reductions=false}`: split
               reductions reorder sums, which the compiled stage checks)
               interpreted bitwise equal to the tp function;
    compiled   the compiled CPU code (stax.Executable, default options:
               vectorized, parallel, approximated math) against eager
               float64 within the float32 bound;
    grad       joint-graph gradients (float64) against central finite
               differences of <cotangent, f(x)> along a random direction;
    compiled-grad
               the first and second derivatives as compiled code
               (`--stax-joint-graph{gradients-only}` once and twice, the
               functions a double backward of stax.compile runs), float64,
               against the interpreter on the same functions and inputs;
    compile    stax.compile(fn) as a user calls it, float32 inputs in
               random layouts (transposed, strided) that require grad:
               results and autograd gradients against eager float64
               within the float32 bound (a fallback to PyTorch fails).

A failing program is minimized by delta debugging over its steps (the
shortest failing prefix, then single steps replaced by the identity) and
written to DIR as a reproducer: the `tp` module with the seed, stage and
message in a comment header.
"""

from __future__ import annotations

import argparse
import math
import os
import random
import sys
import warnings
from dataclasses import dataclass
from typing import Callable, List, Optional, Sequence

import numpy as np
import torch
import torch.nn.functional as F

import stax
from stax.compile import _run

STAGES = ("import", "f32", "f64", "lower", "compiled", "grad",
          "compiled-grad", "compile")

# ---------------------------------------------------------------------------
# The generic tolerance
# ---------------------------------------------------------------------------


def generic_mismatch(ours: Sequence[np.ndarray], ref: Sequence[torch.Tensor],
                     inputs: Sequence[torch.Tensor], u: float,
                     gamma: Optional[float] = None,
                     term_scale: float = 1.0) -> Optional[str]:
    """None when every result matches, else a one-line description.

    Two floating-point evaluations of the same function of the same inputs
    with unit roundoff u, of at most gamma roundings per result element
    (default 4 (N + 8), N the number of input elements: every element feeds
    a reduction or contraction once, plus a few pointwise ops), each
    perturbing at the magnitude of the terms (bounded by |y| + M, M the
    largest input magnitude), differ by at most 2 gamma u (|y| + M) to
    first order; term_scale multiplies M for functions whose terms exceed
    the inputs (Program.term_scale).  Integer and boolean results, NaN and
    infinity positions must match exactly."""
    if len(ours) != len(ref):
        return f"{len(ours)} results, PyTorch has {len(ref)}"
    n = sum(t.numel() for t in inputs)
    m = max([float(t.detach().abs().max()) for t in inputs
             if t.is_floating_point() and t.numel()
             and bool(torch.isfinite(t.detach()).all())] + [0.0]) * term_scale
    gamma = 4 * (n + 8) if gamma is None else gamma
    for k, (o, r) in enumerate(zip(ours, ref)):
        r = r.detach()
        if tuple(o.shape) != tuple(r.shape):
            return f"result #{k}: shape {tuple(o.shape)}, PyTorch {tuple(r.shape)}"
        rn = r.contiguous().float().numpy() if r.dtype == torch.bfloat16 \
            else r.contiguous().numpy()
        if not r.is_floating_point():
            same = o.astype(rn.dtype) == rn
            if not same.all():
                bad = tuple(np.argwhere(~same)[0])
                return (f"result #{k} ({r.dtype}) differs at {bad}: "
                        f"{o[bad]} vs {rn[bad]}")
            continue
        o, rn = o.astype(np.float64), rn.astype(np.float64)
        nan_o, nan_r = np.isnan(o), np.isnan(rn)
        if not np.array_equal(nan_o, nan_r):
            bad = tuple(np.argwhere(nan_o != nan_r)[0])
            return f"result #{k}: NaN mismatch at {bad}: {o[bad]} vs {rn[bad]}"
        inf = np.isinf(rn) | np.isinf(o)
        if not np.array_equal(o[inf], rn[inf]):
            bad = tuple(np.argwhere(inf & (o != rn))[0])
            return f"result #{k}: inf mismatch at {bad}: {o[bad]} vs {rn[bad]}"
        ok = ~(nan_r | inf)
        tol = 2 * gamma * u * (np.abs(rn) + m)
        err = np.abs(o - rn)
        if np.any(err[ok] > tol[ok]):
            i = np.unravel_index(np.argmax(np.where(ok, err - tol, -np.inf)),
                                 o.shape)
            return (f"result #{k} at {tuple(int(v) for v in i)}: {o[i]!r} vs "
                    f"{rn[i]!r} (tolerance {tol[i]:.3g})")
    return None


# ---------------------------------------------------------------------------
# Random programs
# ---------------------------------------------------------------------------

# The largest magnitude a step may produce. Products (cumprod, prod, pow,
# chained squares) grow values to 1e28 and more, where a rounding of the
# last bit moves sin or cos anywhere and every later value inherits a
# condition number no bound here models: such programs test the oracle,
# not the compiler. At 1e4, f32's rounding of an argument moves cos by
# about 1e-3, inside the generic bound.
MAX_MAGNITUDE = 1e4

# Steps whose rounded terms can exceed the inputs by a factor (see
# Program.term_scale): layer norm's rstd, eps = 1e-5.
TERM_SCALE = {"layer_norm": 1e-5 ** -0.5}


@dataclass
class Step:
    """One operator application: `op(values[args...])` appended to the
    pool. `op` closes over its random constants."""
    name: str
    op: Callable
    args: List[int]


def _bounded(x):
    return torch.tanh(x) * 2.0


_UNARY = [
    ("neg", torch.neg), ("abs", torch.abs), ("tanh", torch.tanh),
    ("sigmoid", torch.sigmoid), ("sin", torch.sin), ("cos", torch.cos),
    ("relu", torch.relu), ("gelu", F.gelu), ("silu", F.silu),
    ("softplus", F.softplus), ("erf", torch.erf),
    ("exp", lambda x: torch.exp(_bounded(x))),
    ("log1p", lambda x: torch.log1p(x.abs())),
    ("sqrt", lambda x: torch.sqrt(x.abs() + 0.5)),
    ("rsqrt", lambda x: torch.rsqrt(x * x + 1.0)),
    ("square", lambda x: x * x), ("hardswish", F.hardswish),
    ("leaky_relu", lambda x: F.leaky_relu(x, 0.1)),
    ("clamp", lambda x: torch.clamp(x, -0.5, 0.75)),
    ("scale", lambda x: x * 0.75 + 0.25),
    # The other compiled math kernels, on domains where their derivatives
    # stay bounded (tan below pi/2, asin inside (-1, 1)).
    ("tan", lambda x: torch.tan(torch.tanh(x))),
    ("asin", lambda x: torch.asin(torch.tanh(x) * 0.9)),
    ("atan", torch.atan), ("erfc", torch.erfc), ("mish", F.mish),
    ("elu", F.elu),
    ("sinh", lambda x: torch.sinh(_bounded(x))),
    ("expm1", lambda x: torch.expm1(_bounded(x))),
    ("log", lambda x: torch.log(x.abs() + 0.5)),
    ("reciprocal", lambda x: torch.reciprocal(x * x + 1.0)),
]
_BINARY = [
    ("add", torch.add), ("sub", torch.sub), ("mul", torch.mul),
    ("div", lambda a, b: a / (1.0 + b * b)), ("maximum", torch.maximum),
    ("minimum", torch.minimum), ("where", lambda a, b: torch.where(a > b, a, b * 0.5)),
    # hypot's derivative is 0 / 0 at the origin and atan2 jumps by 2 pi
    # across its branch cut (y = +-0, x < 0), and a layer norm of a
    # constant row, a mean of a normalized one or the last column of its
    # cumsum put operands there exactly in one rounding and not in
    # another: both are kept away (x = 1 + |b| > 0). Their kernels' whole
    # ranges are tested by the dense sweeps of test_math_ulp.py.
    ("atan2", lambda a, b: torch.atan2(a, 1.0 + b.abs())),
    ("hypot", lambda a, b: torch.hypot(a, 1.0 + b.abs())),
    ("logaddexp", lambda a, b: torch.logaddexp(_bounded(a), _bounded(b))),
]


def _broadcastable(a, b) -> bool:
    try:
        torch.broadcast_shapes(a.shape, b.shape)
        return True
    except RuntimeError:
        return False


def _choose(rng: random.Random, vals: List[torch.Tensor],
            unread: Sequence[int] = ()) -> Optional[Step]:
    """A random step applicable to the current pool, or None. Its first
    operand is mostly a value no step has read yet: chains, not a fan of
    steps over the inputs."""
    i = rng.choice(unread) if unread and rng.randrange(4) else rng.randrange(len(vals))
    x = vals[i]
    r = x.dim()
    kind = rng.randrange(23)
    if kind <= 3:
        name, f = rng.choice(_UNARY)
        return Step(name, f, [i])
    if kind <= 6:
        j = rng.randrange(len(vals))
        if not _broadcastable(x, vals[j]):
            return None
        name, f = rng.choice(_BINARY)
        if name == "atan2" and j == i:
            # atan2(x, x) is constant: its derivatives cancel terms of
            # 1 / x to exactly zero in one order and to rounding noise far
            # above the compiled-grad tolerance in another.
            return None
        return Step(name, f, [i, j])
    if kind == 7 and r >= 1:
        d = rng.randrange(r)
        keep = bool(rng.randrange(2))
        name, f = rng.choice([
            ("sum", lambda x: x.sum(d, keepdim=keep)),
            ("mean", lambda x: x.mean(d, keepdim=keep)),
            ("amax", lambda x: x.amax(d, keepdim=keep)),
            ("var", lambda x: x.var(d, keepdim=keep) if x.shape[d] > 1 else x),
            ("logsumexp", lambda x: torch.logsumexp(x, d, keepdim=keep)),
            ("softmax", lambda x: torch.softmax(x, d)),
            ("log_softmax", lambda x: torch.log_softmax(x, d)),
            ("cumsum", lambda x: torch.cumsum(x, d)),
            ("cumprod", lambda x: torch.cumprod(x, d)),
        ])
        return Step(name, f, [i])
    if kind == 8 and r >= 2:
        a, b = rng.sample(range(r), 2)
        return Step("transpose", lambda x: x.transpose(a, b), [i])
    if kind == 9 and r >= 1:
        d = rng.randrange(r)
        if x.shape[d] < 2:
            return None
        start = rng.randrange(x.shape[d] - 1)
        return Step("narrow", lambda x: x.narrow(d, start, x.shape[d] - start), [i])
    if kind == 10 and r >= 1:
        w = torch.randn(x.shape[-1], rng.choice([2, 3, 5]),
                        generator=torch.Generator().manual_seed(rng.randrange(1 << 30)))
        w = w / math.sqrt(x.shape[-1])
        return Step("matmul", lambda x: x @ w.to(x.dtype), [i])
    if kind == 11 and r >= 1:
        d = rng.randrange(r)
        # Stable: which of two equal values goes first decides where their
        # gradients go, and eager's default order for ties is its own.
        return Step("sort", lambda x: torch.sort(x, dim=d, stable=True)[0], [i])
    if kind == 12 and r >= 1 and x.shape[-1] >= 2:
        return Step("layer_norm", lambda x: F.layer_norm(x, x.shape[-1:]), [i])
    if kind == 13 and r >= 1:
        d = rng.randrange(r)
        j = rng.randrange(len(vals))
        y = vals[j]
        if y.dim() != r or any(y.shape[k] != x.shape[k] for k in range(r) if k != d):
            return Step("flip", lambda x: x.flip(d), [i])
        return Step("cat", lambda a, b: torch.cat([a, b], d), [i, j])
    if kind == 14 and r >= 1:
        return _reshape(rng, x, i)
    if kind == 15 and r >= 2:
        # x y^T over shared leading dims: attention scores, and the
        # batched products whose results views take apart.
        j = rng.randrange(len(vals))
        y = vals[j]
        if y.dim() != r or y.shape[:-2] != x.shape[:-2] or y.shape[-1] != x.shape[-1]:
            return None
        # Half the time its result is permuted and two adjacent dims merged
        # in the same step: the views that CPU code generation folds into
        # how a product writes its result.
        perm = list(range(r))
        merge = None
        if rng.randrange(2):
            rng.shuffle(perm)
            merge = rng.randrange(r - 1)

        def bmm(a, b):
            y = (a @ b.transpose(-2, -1)).permute(perm)
            if merge is None:
                return y
            shape = list(y.shape)
            shape[merge:merge + 2] = [shape[merge] * shape[merge + 1]]
            return y.reshape(shape)
        return Step("bmm", bmm, [i, j])
    if kind == 16 and r >= 1:
        return _gather(rng, x, i)
    if kind == 17 and r >= 1:
        return _scatter(rng, x, i)
    if kind == 18 and r >= 1:
        return _mutate(rng, vals, i)
    if kind == 19 and r >= 1:
        return _view(rng, x, i)
    if kind == 20 and r in (2, 3, 4):
        return _window(rng, x, i)
    if kind == 21 and r >= 1:
        return _nn(rng, vals, i)
    if kind == 22 and r >= 1:
        return _misc(rng, vals, i)
    return None


def _nn(rng: random.Random, vals: List[torch.Tensor], i: int
        ) -> Optional[Step]:
    """Losses (reduced and not, with random class targets and weights),
    normalizations in training mode (batch, group and instance norm),
    embedding lookups and interpolation."""
    x = vals[i]
    r = x.dim()
    which = rng.randrange(7)
    if which == 0:
        j = rng.randrange(len(vals))
        reduction = rng.choice(["mean", "sum", "none"])
        name, f = rng.choice([
            ("mse_loss", F.mse_loss), ("l1_loss", F.l1_loss),
            ("smooth_l1_loss", lambda a, b, reduction: F.smooth_l1_loss(
                a, b, reduction=reduction, beta=0.5)),
            ("huber_loss", lambda a, b, reduction: F.huber_loss(
                a, b, reduction=reduction, delta=0.75)),
            ("bce_with_logits", lambda a, b, reduction:
             F.binary_cross_entropy_with_logits(a, torch.sigmoid(b),
                                                reduction=reduction)),
            ("kl_div", lambda a, b, reduction: F.kl_div(
                F.log_softmax(a, -1), F.softmax(b, -1),
                reduction="batchmean" if reduction == "mean" else reduction)),
        ])
        if vals[j].shape != x.shape:     # against its own reversal
            return Step(name, lambda a: f(a, a.flip(-1) * 0.5, reduction=reduction), [i])
        return Step(name, lambda a, b: f(a, b, reduction=reduction), [i, j])
    if which == 1 and r in (1, 2) and x.shape[-1] >= 2:
        c = x.shape[-1]
        target = _index(rng, c, x.shape[:-1])
        if r == 2 and rng.randrange(3) == 0:
            target[0] = -100               # an ignored row
        weight = None
        if rng.randrange(2):
            weight = torch.rand(c, generator=torch.Generator().manual_seed(
                rng.randrange(1 << 30))) + 0.5
        reduction = rng.choice(["mean", "sum", "none"])
        smoothing = rng.choice([0.0, 0.0, 0.1])
        if rng.randrange(2):
            return Step("cross_entropy", lambda a: F.cross_entropy(
                a, target, weight if weight is None else weight.to(a.dtype),
                reduction=reduction, label_smoothing=smoothing), [i])
        return Step("nll_loss", lambda a: F.nll_loss(
            F.log_softmax(a, -1), target,
            weight if weight is None else weight.to(a.dtype),
            reduction=reduction), [i])
    if which == 2 and r in (2, 3, 4) and x.numel() > x.shape[1]:
        return Step("batch_norm", lambda a: F.batch_norm(
            a, None, None, training=True, eps=1e-3), [i])
    if which == 3 and r in (3, 4):
        c = x.shape[1]
        groups = rng.choice([g for g in (1, 2, 3, c) if c % g == 0])
        return Step("group_norm", lambda a: F.group_norm(a, groups, eps=1e-3), [i])
    if which == 4 and r in (3, 4) and math.prod(x.shape[2:]) > 1:
        return Step("instance_norm", lambda a: F.instance_norm(a, eps=1e-3), [i])
    if which == 5 and r == 2:
        idx = _index(rng, x.shape[0], [rng.randrange(1, 5), rng.randrange(1, 4)])
        return Step("embedding", lambda a: F.embedding(idx, a), [i])
    if which == 6 and r in (3, 4):
        mode = rng.choice(["nearest", "linear" if r == 3 else "bilinear"])
        kw = {} if mode == "nearest" else {"align_corners": bool(rng.randrange(2))}
        if rng.randrange(2):
            kw["scale_factor"] = 2
        else:
            kw["size"] = tuple(rng.randrange(1, 2 * n + 2) for n in x.shape[2:])
        return Step("interpolate", lambda a: F.interpolate(a, mode=mode, **kw), [i])
    return None


def _misc(rng: random.Random, vals: List[torch.Tensor], i: int
          ) -> Optional[Step]:
    """Scans and reductions the other families leave out (cummax,
    logcumsumexp, prod, norms, std, min), pow, differences, unfold,
    einsum and fused multiply-adds with a second operand."""
    x = vals[i]
    r = x.dim()
    d = rng.randrange(r)
    which = rng.randrange(9)
    if which == 0:
        return Step("cummax", lambda a: torch.cummax(a, d).values, [i])
    if which == 1:
        return Step("logcumsumexp", lambda a: torch.logcumsumexp(a, d), [i])
    if which == 2:
        keep = bool(rng.randrange(2))
        order = rng.choice([1, 2, 3, float("inf")])
        name, f = rng.choice([
            # Factors within 1 +- 1/n: the product stays O(1) (a product
            # of 64 factors up to 2 is 1e19, whose sin is noise).
            ("prod", lambda a: torch.prod(1.0 + torch.tanh(a) / a.shape[d], d,
                                          keepdim=keep)),
            ("norm", lambda a: torch.linalg.vector_norm(a, order, d, keepdim=keep)),
            ("std", lambda a: a.std(d, keepdim=keep) if a.shape[d] > 1 else a),
            ("amin", lambda a: a.amin(d, keepdim=keep)),
        ])
        return Step(name, f, [i])
    if which == 3:
        e = rng.choice([2, 3, 0.5, -1, 1.5])
        if isinstance(e, float) or e < 0:
            return Step("pow", lambda a: torch.pow(a.abs() + 0.5, e), [i])
        return Step("pow", lambda a: torch.pow(a, e), [i])
    if which == 4 and x.shape[d] >= 2:
        return Step("diff", lambda a: torch.diff(a, dim=d), [i])
    if which == 5 and x.shape[d] >= 2:
        size = rng.randrange(1, x.shape[d] + 1)
        step = rng.randrange(1, 3)
        return Step("unfold", lambda a: a.unfold(d, size, step) * 1.0, [i])
    if which == 6 and r >= 2:
        j = rng.randrange(len(vals))
        y = vals[j]
        if y.dim() != r or y.shape[-1] != x.shape[-1] or y.shape[0] != x.shape[0]:
            return None
        # Contracts the last dim, keeps the first, sums the others of y.
        letters = "abcd"[:r]
        other = "a" + "efgh"[:r - 2] + letters[-1]
        spec = f"{letters},{other}->{letters[:-1]}"
        return Step("einsum", lambda a, b: torch.einsum(spec, a, b), [i, j])
    if which == 7:
        j = rng.randrange(len(vals))
        k = rng.randrange(len(vals))
        try:
            torch.broadcast_shapes(x.shape, vals[j].shape, vals[k].shape)
        except RuntimeError:
            return None
        name, f = rng.choice([
            ("addcmul", lambda a, b, c: torch.addcmul(a, b, c, value=0.5)),
            ("addcdiv", lambda a, b, c: torch.addcdiv(a, b, c * c + 1.0, value=-0.5)),
            ("lerp", lambda a, b, c: torch.lerp(a, b, torch.sigmoid(c))),
            # min < max: at min == max eager's (and our) clamp gradient
            # gives neither bound the derivative, a convention that the
            # central difference does not share.
            ("clamp_tensor", lambda a, b, c: torch.clamp(
                a, torch.minimum(b, c) - 0.25, torch.maximum(b, c) + 0.25)),
        ])
        return Step(name, f, [i, j, k])
    if which == 8:
        kth = rng.randrange(1, x.shape[d] + 1)
        return Step("kthvalue", lambda a: torch.kthvalue(a, kth, d).values, [i])
    return None


def _index(rng: random.Random, n: int, shape, negative: bool = False
           ) -> torch.Tensor:
    """Random indices into a dim of size n (duplicates allowed; from -n
    when `negative`)."""
    g = torch.Generator().manual_seed(rng.randrange(1 << 30))
    lo = -n if negative else 0
    return torch.randint(lo, n, tuple(shape), generator=g)


def _gather(rng: random.Random, x: torch.Tensor, i: int) -> Optional[Step]:
    """Reads through integer indices: gather, index_select and advanced
    indexing (negative indices included), max/topk values."""
    r = x.dim()
    d = rng.randrange(r)
    n = x.shape[d]
    which = rng.randrange(5)
    if which == 0:
        shape = list(x.shape)
        shape[d] = rng.randrange(1, 5)
        idx = _index(rng, n, shape)
        return Step("gather", lambda x: torch.gather(x, d, idx), [i])
    if which == 1:
        idx = _index(rng, n, [rng.randrange(1, 6)])
        return Step("index_select", lambda x: x.index_select(d, idx), [i])
    if which == 2:
        idx = _index(rng, n, [rng.randrange(1, 4), 2], negative=True)
        pre = (slice(None),) * d
        return Step("getitem", lambda x: x[pre + (idx,)], [i])
    if which == 3:
        keep = bool(rng.randrange(2))
        return Step("max_values", lambda x: x.max(d, keepdim=keep).values, [i])
    k = rng.randrange(1, n + 1)
    largest = bool(rng.randrange(2))
    return Step("topk", lambda x: torch.topk(x, k, d, largest=largest).values, [i])


def _scatter(rng: random.Random, x: torch.Tensor, i: int) -> Optional[Step]:
    """Writes through integer indices, duplicates accumulating: scatter_add,
    index_add and index_put with accumulate."""
    r = x.dim()
    d = rng.randrange(r)
    n = x.shape[d]
    which = rng.randrange(3)
    if which == 0:
        idx = _index(rng, n, x.shape)
        return Step("scatter_add", lambda x: x.scatter_add(d, idx, x * 0.5), [i])
    if which == 1:
        idx = _index(rng, n, [n])
        return Step("index_add", lambda x: x.index_add(d, idx, x.flip(d), alpha=0.5), [i])
    k = rng.randrange(1, x.shape[0] + 1)
    idx = _index(rng, x.shape[0], [k], negative=True)
    return Step("index_put", lambda x: x.index_put(
        (idx,), torch.tanh(x.narrow(0, 0, k)), accumulate=True), [i])


def _mutate(rng: random.Random, vals: List[torch.Tensor], i: int
            ) -> Optional[Step]:
    """In-place updates of views of a fresh copy, which the importer must
    functionalize: copy_ into a narrowed slice (from a broadcast value of
    the pool), an in-place op through a transposed or selected view, and
    masked_fill_."""
    x = vals[i]
    r = x.dim()
    d = rng.randrange(r)
    which = rng.randrange(3)
    if which == 0:
        if x.shape[d] < 2:
            return None
        start = rng.randrange(x.shape[d] - 1)
        length = rng.randrange(1, x.shape[d] - start + 1)
        sub = list(x.shape)
        sub[d] = length
        j = rng.randrange(len(vals))
        try:
            fits = torch.broadcast_shapes(vals[j].shape, tuple(sub)) == tuple(sub)
        except RuntimeError:
            fits = False
        if not fits:   # the slice's own values, reversed
            def setslice_own(a):
                y = a.clone()
                y.narrow(d, start, length).copy_(torch.sin(a.narrow(d, start, length).flip(d)))
                return y
            return Step("setslice", setslice_own, [i])

        def setslice(a, b):
            y = a.clone()
            y.narrow(d, start, length).copy_(torch.sin(b))
            return y
        return Step("setslice", setslice, [i, j])
    if which == 1:
        e = rng.randrange(x.shape[d])
        select = r == 1 or bool(rng.randrange(2))

        def inplace(a):
            y = a * 1.0
            v = y.select(d, e) if select else y.transpose(0, r - 1)
            v.mul_(-0.5).add_(0.25)
            return y
        return Step("inplace_view", inplace, [i])
    t = rng.uniform(-1.0, 1.0)

    def masked(a):
        y = a.clone()
        y.masked_fill_(y > t, -1.5)
        return y
    return Step("masked_fill", masked, [i])


def _view(rng: random.Random, x: torch.Tensor, i: int) -> Optional[Step]:
    """Strided slices, expand, movedim, roll, repeat, padding and
    triangular masks."""
    r = x.dim()
    d = rng.randrange(r)
    which = rng.randrange(7)
    if which == 0:
        step = rng.choice([2, 3])
        start = rng.randrange(min(step, x.shape[d]))
        pre = (slice(None),) * d
        return Step("slice_step", lambda x: x[pre + (slice(start, None, step),)], [i])
    if which == 1 and r < 4:
        k = rng.choice([2, 3])
        shape = list(x.shape)
        shape.insert(d, k)
        return Step("expand", lambda x: x.unsqueeze(d).expand(shape) * 1.0, [i])
    if which == 2 and r >= 2:
        e = rng.randrange(r)
        return Step("movedim", lambda x: x.movedim(d, e).contiguous(), [i])
    if which == 3:
        s = rng.randrange(-x.shape[d], x.shape[d] + 1)
        return Step("roll", lambda x: torch.roll(x, s, d), [i])
    if which == 4 and r < 4:
        reps = [rng.choice([1, 1, 2]) for _ in range(r)]
        return Step("repeat", lambda x: x.repeat(*reps), [i])
    if which == 5:
        mode = rng.choice(["constant", "reflect", "replicate", "circular"])
        if mode != "constant" and (r < 2 or r > 4):
            return None
        lim = x.shape[-1] - 1 if mode == "reflect" else x.shape[-1]
        lo, hi = rng.randrange(0, min(lim, 2) + 1), rng.randrange(0, min(lim, 2) + 1)
        value = 0.5 if mode == "constant" else None
        kw = {"value": value} if value is not None else {}
        return Step("pad", lambda x: F.pad(x, (lo, hi), mode=mode, **kw), [i])
    if which == 6 and r >= 2:
        k = rng.randrange(-1, 2)
        f = torch.tril if rng.randrange(2) else torch.triu
        return Step("tril", lambda x: f(x, k), [i])
    return None


def _window(rng: random.Random, x: torch.Tensor, i: int) -> Optional[Step]:
    """Convolutions and pooling over an unbatched (C, L), a batched (N, C,
    L) or an (N, C, H, W) value, with random stride, padding, dilation and
    groups."""
    r = x.dim()
    nsp = 1 if r <= 3 else 2
    c = x.shape[-nsp - 1]
    spatial = x.shape[-nsp:]
    k = rng.choice([1, 2, 3])
    stride = rng.choice([1, 2])
    pad = rng.randrange(0, (k + 1) // 2 + 1) if k > 1 else 0
    if any(s + 2 * pad < k for s in spatial):
        return None
    which = rng.randrange(3)
    if which == 0:
        dil = rng.choice([1, 2]) if all(s + 2 * pad >= 2 * (k - 1) + 1 for s in spatial) else 1
        groups = c if c > 1 and rng.randrange(3) == 0 else 1
        cout = rng.choice([1, 2, 3]) * groups
        g = torch.Generator().manual_seed(rng.randrange(1 << 30))
        w = torch.randn((cout, c // groups) + (k,) * nsp, generator=g)
        w = w / math.sqrt(w[0].numel())
        conv = F.conv1d if nsp == 1 else F.conv2d
        return Step("conv", lambda x: conv(x, w.to(x.dtype), stride=stride,
                                           padding=pad, dilation=dil,
                                           groups=groups), [i])
    if k < 2 or pad > k // 2:
        return None
    if which == 1:
        pool = F.max_pool1d if nsp == 1 else F.max_pool2d
        return Step("max_pool", lambda x: pool(x, k, stride, pad), [i])
    pool = F.avg_pool1d if nsp == 1 else F.avg_pool2d
    incl = bool(rng.randrange(2))
    return Step("avg_pool", lambda x: pool(x, k, stride, pad, count_include_pad=incl), [i])


def _reshape(rng: random.Random, x: torch.Tensor, i: int) -> Optional[Step]:
    """A view that merges two adjacent dims or splits one by a divisor."""
    shape = list(x.shape)
    if len(shape) >= 2 and rng.randrange(2):
        d = rng.randrange(len(shape) - 1)
        shape[d:d + 2] = [shape[d] * shape[d + 1]]
    else:
        d = rng.randrange(len(shape))
        divisors = [k for k in range(2, shape[d]) if shape[d] % k == 0]
        if not divisors or len(shape) >= 4:
            return None
        k = rng.choice(divisors)
        shape[d:d + 1] = [k, shape[d] // k]
    return Step("reshape", lambda x: x.reshape(shape), [i])


@dataclass
class Program:
    seed: int
    inputs: List[torch.Tensor]
    steps: List[Step]

    def fn(self, *xs):
        """The program's results: every step's value that no later step
        reads (a tuple when there are several), so that no step is dead."""
        vals = list(xs)
        for s in self.steps:
            vals.append(s.op(*[vals[a] for a in s.args]))
        read = {a for s in self.steps for a in s.args}
        n = len(xs)
        res = tuple(vals[k] for k in range(n, len(vals)) if k not in read)
        return res[0] if len(res) == 1 else res

    def term_scale(self) -> float:
        """How much larger than the inputs the rounded terms can be: layer
        norm multiplies x - mean (rounded at the inputs' magnitude) by rstd,
        up to 1 / sqrt(eps) when the variance is ~0; chained layer norms
        multiply their factors."""
        return math.prod(TERM_SCALE.get(s.name, 1.0) for s in self.steps)

    def describe(self) -> str:
        n = len(self.inputs)
        return "; ".join(f"v{n + k} = {s.name}({', '.join(f'v{a}' for a in s.args)})"
                         for k, s in enumerate(self.steps))


def random_program(seed: int, max_steps: int = 10,
                   sizes: Sequence[int] = (2, 3, 4, 5),
                   max_numel: int = 2048) -> Program:
    """Program `seed`: inputs of rank 1 to 3 with dims drawn from `sizes`,
    at most `max_steps` steps, no value over `max_numel` elements or
    above MAX_MAGNITUDE."""
    rng = random.Random(seed)
    g = torch.Generator().manual_seed(seed)
    shape = [rng.choice(sizes) for _ in range(rng.randrange(1, 4))]
    other = list(shape)
    if other and rng.randrange(2):
        other[rng.randrange(len(other))] = 1        # broadcasting
    inputs = [torch.randn(*shape, generator=g).requires_grad_(),
              torch.randn(*other, generator=g).requires_grad_()]
    vals = [x.detach() for x in inputs]
    steps: List[Step] = []
    target = rng.randrange(2, max_steps + 1)
    tries = 0
    while len(steps) < target and tries < 200:
        tries += 1
        read = {a for s in steps for a in s.args}
        s = _choose(rng, vals, [k for k in range(len(inputs), len(vals))
                                if k not in read])
        if s is None:
            continue
        try:
            v = s.op(*[vals[a] for a in s.args])
        except (RuntimeError, IndexError, NotImplementedError, ValueError):
            continue
        if v.numel() == 0 or v.numel() > max_numel or not v.is_floating_point():
            continue
        if float(v.abs().max()) > MAX_MAGNITUDE:
            continue
        steps.append(s)
        vals.append(v)
    return Program(seed, inputs, steps)


# ---------------------------------------------------------------------------
# Checking one program
# ---------------------------------------------------------------------------

class Mismatch(Exception):
    def __init__(self, stage: str, msg: str, text: str = ""):
        super().__init__(f"{stage}: {msg}")
        self.stage, self.msg, self.text = stage, msg, text


def _first_line(e: BaseException) -> str:
    lines = str(e).strip().splitlines()
    return (lines[0] if lines else type(e).__name__)[:300]


def _listed(r) -> List[torch.Tensor]:
    """A function's results as a list: one tensor or a tuple of them."""
    return list(r) if isinstance(r, (tuple, list)) else [r]


def _results(p: Program, xs: Sequence[torch.Tensor]) -> List[torch.Tensor]:
    return _listed(p.fn(*xs))


def check(p: Program, stages: Sequence[str] = STAGES) -> None:
    """Raises Mismatch naming the first failing stage."""
    xs = [x.detach() for x in p.inputs]
    try:
        text = stax.import_torch(p.fn, *p.inputs)
    except Exception as e:  # noqa: BLE001
        raise Mismatch("import", _first_line(e)) from None
    with torch.no_grad():
        ref32 = _results(p, xs)
        xs64 = [x.double() for x in xs]
        ref64 = _results(p, xs64)

    def interp(t, args, f64=False, entry="forward"):
        try:
            return stax.interpret(t, entry, *[a.numpy() for a in args], f64=f64)
        except Exception as e:  # noqa: BLE001
            raise Mismatch(stage, _first_line(e), text) from None

    stage = "f32"
    ours32 = interp(text, xs)
    scale = p.term_scale()
    msg = generic_mismatch(ours32, ref32, xs, 2.0 ** -24, term_scale=scale)
    if msg:
        raise Mismatch(stage, msg, text)
    stage = "f64"
    msg = generic_mismatch(interp(text, xs64, True), ref64, xs64, 2.0 ** -53,
                           term_scale=scale)
    if msg:
        raise Mismatch(stage, msg, text)
    if "lower" in stages:
        stage = "lower"
        try:
            low = stax.run_pipeline(
                text, "builtin.module(stax-lowering-pipeline{split-reductions=false})")
        except Exception as e:  # noqa: BLE001
            raise Mismatch(stage, _first_line(e), text) from None
        got = interp(low, xs)
        for k, (a, b) in enumerate(zip(got, ours32)):
            if a.tobytes() != b.tobytes():
                i = int(np.argmax(a.reshape(-1) != b.reshape(-1)))
                raise Mismatch(stage, f"result #{k} not bitwise equal at flat "
                                      f"index {i}: {a.reshape(-1)[i]!r} vs "
                                      f"{b.reshape(-1)[i]!r}", text)
    if "compiled" in stages:
        stage = "compiled"
        try:
            exe = stax.Executable(text)
            got = [t.numpy() for t in _run(exe, "forward", xs)]
        except Exception as e:  # noqa: BLE001
            raise Mismatch(stage, _first_line(e), text) from None
        msg = generic_mismatch(list(got), ref64, xs, 2.0 ** -24,
                               term_scale=scale)
        if msg and generic_mismatch(list(got), [torch.from_numpy(np.asarray(r))
                                                for r in ours32],
                                    xs, 2.0 ** -24, term_scale=scale):
            # Against float32's own decisions too: a comparison of two
            # values equal in float32 but not in float64 (x / (1 + 1e-8)
            # > x) selects another value in both float32 evaluations.
            raise Mismatch(stage, msg, text)
    if "grad" in stages:
        _check_grad(p, text, xs64)
    if "compiled-grad" in stages:
        _check_compiled_grad(p, xs64)
    if "compile" in stages:
        _check_compile(p)


def _check_grad(p: Program, text: str, xs64: List[torch.Tensor]) -> None:
    """<grad, v> from the joint graph against the central difference of
    <c, f(x + t v)> at t = +-h, h = 2^-20: truncation h^2/6 |d3|, rounding
    u |<c, f>| / h, so tol = 1e-7 (1 + sum |c f|) covers both for the
    bounded programs generated here (third derivatives O(10)), times the
    layer norms' factors (term_scale: a layer norm of a nearly constant
    row multiplies rounding noise by up to 1 / sqrt(eps)).

    A piecewise function (sort, max, relu, clamp) has kinks: where two
    sorted values are closer than h |v_i - v_j| the difference straddles
    one and measures no derivative (large programs have such pairs).
    The differences at h / 8 and h / 64 tell: where f is smooth along v
    all three agree
    within the tolerance; where they do not, another direction is drawn,
    up to 4. A derivative that never agrees along a smooth direction is a
    mismatch. Where every direction drawn crosses a kink (a sort of 513
    values per column has gaps of ~2^-8 and 80 columns: some pair is
    within h, or the point is on one: the same value twice sorted), the
    gradient is compared with PyTorch's autograd in float64 at the point
    itself: both evaluate the same derivative (a stable sort decides ties
    alike), differing only in the order of sums (tol 1e-9 times the
    magnitude above)."""
    stage = "grad"
    try:
        joint = stax.run_pipeline(text, "builtin.module(stax-joint-graph)")
    except Exception as e:  # noqa: BLE001
        if "no floating-point result" in str(e):
            return
        raise Mismatch(stage, _first_line(e), text) from None
    g = torch.Generator().manual_seed(p.seed + 1)
    with torch.no_grad():
        ys = _results(p, xs64)
    cs = [torch.rand(y.shape, generator=g, dtype=torch.float64) * 2 - 1
          for y in ys]
    try:
        res = stax.interpret(joint, "forward", *[x.numpy() for x in xs64],
                             *[c.numpy() for c in cs], f64=True)
    except Exception as e:  # noqa: BLE001
        raise Mismatch(stage, _first_line(e), text) from None
    grads = [torch.from_numpy(np.asarray(gr)) for gr in res[len(ys):]]
    scale = 1.0 + sum(float((c * y).abs().sum()) for c, y in zip(cs, ys))

    def sided(vs, h):
        """The forward and backward differences of <c, f> along vs."""
        with torch.no_grad():
            fp = _results(p, [x + h * v for x, v in zip(xs64, vs)])
            fm = _results(p, [x - h * v for x, v in zip(xs64, vs)])
        dot = lambda a, b: sum(float((c * (u - w)).sum())  # noqa: E731
                               for c, u, w in zip(cs, a, b))
        return dot(fp, ys) / h, dot(ys, fm) / h

    h = 2.0 ** -20
    for _ in range(4):
        vs = [torch.rand(x.shape, generator=g, dtype=torch.float64) * 2 - 1
              for x in xs64]
        lhs = sum(float((gr * v).sum()) for gr, v in zip(grads, vs))
        (fwd, bwd), (fwd8, bwd8), (fwd64, bwd64) = (
            sided(vs, h), sided(vs, h / 8), sided(vs, h / 64))
        fd, fd8, fd64 = (fwd + bwd) / 2, (fwd8 + bwd8) / 2, (fwd64 + bwd64) / 2
        tol = 1e-7 * scale * max(1.0, abs(fd)) * p.term_scale()
        if abs(fd - fd8) > tol or abs(fd8 - fd64) > tol:
            # A kink within h along v (two of them, whose slope changes
            # cancel over [-h, h], agree at h and h / 8 only by chance).
            continue
        if abs(fwd - bwd) > tol and abs(fwd8 - bwd8) > abs(fwd - bwd) / 2:
            # A kink at the point itself (two equal values sorted, the
            # same value twice in a cat): the one-sided slopes differ by
            # the same amount at every h, where a smooth f's by h f''.
            continue
        if abs(lhs - fd) > tol:
            raise Mismatch(stage, f"<grad, v> = {lhs!r}, central difference "
                                  f"{fd!r}", text)
        return
    _check_grad_against_autograd(p, text, xs64, cs, grads,
                                 1e-9 * scale * p.term_scale())


def _check_grad_against_autograd(p: Program, text: str,
                                  xs64: List[torch.Tensor],
                                  cs: List[torch.Tensor],
                                  grads: List[torch.Tensor],
                                  tol: float) -> None:
    """The joint graph's gradient of <c, f(x)> against PyTorch's autograd
    of the same program in float64, every element within `tol`."""
    xs = [x.clone().requires_grad_() for x in xs64]
    total = sum((c * y).sum() for c, y in zip(cs, _results(p, xs))
                if y.requires_grad)
    if not isinstance(total, torch.Tensor):
        refs = [None] * len(xs)
    else:
        refs = torch.autograd.grad(total, xs, allow_unused=True)
    for i, (got, ref) in enumerate(zip(grads, refs)):
        ref = torch.zeros_like(xs64[i]) if ref is None else ref.detach()
        err = (got.reshape(ref.shape) - ref).abs()
        if err.numel() and float(err.max()) > tol:
            k = int(err.argmax())
            raise Mismatch("grad", f"every direction crosses a kink, and the "
                                   f"gradient of input {i} at flat index {k} is "
                                   f"{float(got.flatten()[k])!r}, PyTorch's "
                                   f"autograd {float(ref.flatten()[k])!r}",
                           text)


def _check_compiled_grad(p: Program, xs64: List[torch.Tensor]) -> None:
    """vjp(f) and vjp(vjp(f)) (gradients-only joint graphs, every argument
    and every tangent differentiated) compiled in float64 against the
    interpreter on random tangents. Both evaluate the same function; the
    compiled code only reorders sums (vector accumulators, split
    reductions, BLAS), each off by at most gamma_n * sum |terms| with
    n <= 2^14 terms: n u = 2^14 * 2^-53 < 2e-12, times the magnitude of
    the terms (the inputs' and the layer norms' factors, term_scale) and
    a factor 100 for the products of the derivative formulas, so
    tol = 1e-9 * term_scale * (1 + max |result|)."""
    stage = "compiled-grad"
    g = torch.Generator().manual_seed(p.seed + 2)
    try:
        text = stax.import_torch(p.fn, *[x.detach().requires_grad_() for x in xs64])
        prev = [torch.from_numpy(np.asarray(r)) for r in
                stax.interpret(text, "forward", *[x.numpy() for x in xs64], f64=True)]
    except Exception as e:  # noqa: BLE001
        raise Mismatch(stage, _first_line(e)) from None
    args, wrt = list(xs64), list(range(len(xs64)))
    for order in (1, 2):
        try:
            text = stax.run_pipeline(
                text, "builtin.module(stax-joint-graph{wrt=%s gradients-only=true})"
                % ",".join(str(i) for i in wrt))
        except Exception as e:  # noqa: BLE001
            if "no floating-point result" in str(e):
                return
            raise Mismatch(stage, _first_line(e), text) from None
        n = len(args)
        args = args + [torch.rand(r.shape, generator=g, dtype=torch.float64) * 2 - 1
                       for r in prev]
        wrt = wrt + list(range(n, len(args)))
        try:
            want = [torch.from_numpy(np.asarray(r)) for r in stax.interpret(
                text, "forward", *[a.numpy() for a in args], f64=True)]
            got = _run(stax.Executable(text), "forward", args)
        except Exception as e:  # noqa: BLE001
            raise Mismatch(stage, f"order {order}: {_first_line(e)}", text) from None
        for k, (a, b) in enumerate(zip(got, want)):
            finite = b[torch.isfinite(b)]  # NaN positions must match
            tol = 1e-9 * p.term_scale() * (1 + float(finite.abs().max()) if finite.numel() else 1)
            bad = ~torch.isclose(a, b, rtol=0, atol=tol, equal_nan=True)
            if bool(bad.any()):
                i = int(bad.reshape(-1).nonzero()[0])
                raise Mismatch(stage, f"order {order}, result #{k} at flat index "
                                      f"{i}: compiled {float(a.reshape(-1)[i])!r}, "
                                      f"interpreted {float(b.reshape(-1)[i])!r}", text)
        prev = want


def _strided_like(x: torch.Tensor, g: torch.Generator) -> torch.Tensor:
    """x's values in another memory layout, chosen at random: transposed
    storage, every other element of a larger tensor, or contiguous."""
    kind = int(torch.randint(3, (), generator=g))
    if kind == 0 and x.dim() >= 2:
        return x.transpose(0, -1).contiguous().transpose(0, -1)
    if kind == 1 and x.dim() >= 1:
        big = torch.zeros(*x.shape[:-1], 2 * x.shape[-1], dtype=x.dtype)
        big[..., ::2] = x
        return big[..., ::2]
    return x.clone()


def _check_compile(p: Program) -> None:
    """stax.compile(fn) as a user calls it: float32 inputs in random
    layouts (transposed, strided, contiguous) that require grad, the
    results and torch.autograd gradients of <c, f(x)> against eager
    float64 within the float32 bound. Falling back to PyTorch is a
    mismatch: every program here imports."""
    stage = "compile"
    g = torch.Generator().manual_seed(p.seed + 3)
    xs = [_strided_like(x.detach(), g).requires_grad_() for x in p.inputs]
    xs64 = [x.detach().double().requires_grad_() for x in p.inputs]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            got = _listed(stax.compile(p.fn)(*xs))
            cs = [torch.rand(y.shape, generator=g) * 2 - 1 for y in got]
            loss = sum((c * y).sum() for c, y in zip(cs, got)
                       if y.requires_grad)
            grads = (torch.autograd.grad(loss, xs, allow_unused=True)
                     if torch.is_tensor(loss) else [None] * len(xs))
        except Exception as e:  # noqa: BLE001
            raise Mismatch(stage, _first_line(e)) from None
    fallback = [w for w in caught if "in PyTorch" in str(w.message)]
    if fallback:
        raise Mismatch(stage, _first_line(Exception(str(fallback[0].message))))
    scale = p.term_scale()
    ours = [y.detach().numpy() for y in got]
    ours_grads = [(a if a is not None else torch.zeros_like(x)).numpy()
                  for a, x in zip(grads, xs)]
    # Against eager float64 or, where that fails, eager float32: a
    # comparison of two values equal in float32 but not in float64
    # (x / (1 + 1e-8) > x) selects another value, and another gradient,
    # in both float32 evaluations (as in check's compiled stage).
    differentiated = [y.requires_grad for y in got]
    msg = _compile_mismatch(p, ours, ours_grads, differentiated, cs, xs64,
                            torch.float64, scale)
    if msg and _compile_mismatch(p, ours, ours_grads, differentiated, cs,
                                 xs64, torch.float32, scale):
        raise Mismatch(stage, msg)


def _compile_mismatch(p: Program, ours: List[np.ndarray],
                      ours_grads: List[np.ndarray], differentiated: List[bool],
                      cs: List[torch.Tensor], xs64: List[torch.Tensor],
                      dtype: torch.dtype, scale: float) -> Optional[str]:
    """_check_compile's comparison with eager in `dtype`: the results,
    then the gradients of <c, f(x)> (the `differentiated` results),
    within the float32 bound."""
    xs = [x.detach().to(dtype).requires_grad_() for x in xs64]
    want = _listed(p.fn(*xs))
    msg = generic_mismatch(ours, want, xs64, 2.0 ** -24, term_scale=scale)
    if msg:
        return msg
    loss = sum((c.to(dtype) * y).sum() for c, y, d in
               zip(cs, want, differentiated) if d)
    if not torch.is_tensor(loss):
        return None
    want_grads = [b if b is not None else torch.zeros_like(x) for b, x in
                  zip(torch.autograd.grad(loss, xs, allow_unused=True), xs)]
    msg = generic_mismatch(ours_grads, want_grads,
                           xs64 + [c.double() for c in cs], 2.0 ** -24,
                           term_scale=scale)
    return None if msg is None else "gradient " + msg


# ---------------------------------------------------------------------------
# Delta debugging and reproducers
# ---------------------------------------------------------------------------

def _fails(p: Program, stage: str) -> bool:
    try:
        check(p, STAGES[:STAGES.index(stage) + 1])
    except Mismatch as m:
        return m.stage == stage
    except Exception:  # noqa: BLE001
        return False
    return False


def minimize(p: Program, stage: str) -> Program:
    """The shortest failing prefix, then steps replaced by the identity (a
    step whose result has its first argument's shape) while it still fails
    at `stage`."""
    def shapes(steps):
        vals = [x.detach() for x in p.inputs]
        for s in steps:
            vals.append(s.op(*[vals[a] for a in s.args]))
        return vals
    lo = 1
    while lo < len(p.steps):
        q = Program(p.seed, p.inputs, p.steps[:lo])
        if _fails(q, stage):
            p = q
            break
        lo += 1
    changed = True
    while changed:
        changed = False
        vals = shapes(p.steps)
        n = len(p.inputs)
        for k in range(len(p.steps) - 1):
            s = p.steps[k]
            if s.name == "identity" or vals[n + k].shape != vals[s.args[0]].shape:
                continue
            ident = Step("identity", lambda x: x, [s.args[0]])
            q = Program(p.seed, p.inputs, p.steps[:k] + [ident] + p.steps[k + 1:])
            if _fails(q, stage):
                p, changed = q, True
                break
    return p


def reproducer(p: Program, m: Mismatch) -> str:
    text = m.text
    if not text:
        try:
            text = stax.import_torch(p.fn, *p.inputs)
        except Exception:  # noqa: BLE001
            text = "// (the program does not import)\n"
    head = [f"// stax.difftest reproducer: seed {p.seed}, stage {m.stage}",
            f"// {m.msg}", f"// program: {p.describe()}",
            "// inputs: torch.randn with torch.Generator().manual_seed(seed), "
            "shapes " + ", ".join(str(list(x.shape)) for x in p.inputs)]
    return "\n".join(head) + "\n" + text


def run(n: int, seed: int = 0, out: Optional[str] = None, minimize_failures=True,
        stages: Sequence[str] = STAGES, log=print, max_steps: int = 10,
        **program_options) -> List[Mismatch]:
    """Checks programs seed .. seed + n - 1 (random_program with
    `program_options`); the failures, minimized and written to `out`."""
    failures = []
    for k in range(seed, seed + n):
        p = random_program(k, max_steps, **program_options)
        try:
            check(p, stages)
        except Mismatch as m:
            if minimize_failures:
                p = minimize(p, m.stage)
                try:
                    check(p, stages)
                except Mismatch as m2:
                    m = m2
            failures.append(m)
            log(f"seed {k}: {m.stage}: {m.msg}")
            if out:
                os.makedirs(out, exist_ok=True)
                with open(os.path.join(out, f"seed{k}-{m.stage}.mlir"), "w") as f:
                    f.write(reproducer(p, m))
    return failures


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", default="difftest-failures")
    ap.add_argument("--stages", default=",".join(STAGES))
    ap.add_argument("--max-steps", type=int, default=10)
    ap.add_argument("--sizes", default="2,3,4,5",
                    help="the dims inputs draw from (vector tails, tiles and "
                         "parallel splits need larger ones: 7,16,17,33,64)")
    ap.add_argument("--max-numel", type=int, default=2048,
                    help="the largest value a step may produce")
    a = ap.parse_args(argv)
    warnings.filterwarnings("ignore")
    fails = run(a.n, a.seed, a.out, stages=a.stages.split(","),
                max_steps=a.max_steps,
                sizes=[int(v) for v in a.sizes.split(",")],
                max_numel=a.max_numel)
    print(f"{a.n} programs, {len(fails)} failing"
          + (f"; reproducers in {a.out}/" if fails else ""))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
