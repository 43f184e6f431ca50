"""Import-time decompositions of ATen operators without a `tp` op.

`stax.importer.trace` consults this table before PyTorch's own
(`torch._decomp.decomposition_table`) for every operator the importer does
not map: each entry is a Python function of the operator's arguments that
make_fx traces into operators the importer maps (recursively), so the
`tp` function differentiates, lowers and compiles with the existing rules.

Each decomposition follows PyTorch's reference semantics (type promotion,
NaN handling, ties, negative dims).  Views, gathers, selections and
comparisons are exact; arithmetic decompositions round like PyTorch's
kernels up to the order of their sums (covered by the error bound of
docs/Numerics.md).  Some trade work for generality and are quadratic in
the length of the dimension they work on (stated per entry): `mode`,
which compares every pair of elements along `dim`; cumsum, cumprod,
logcumsumexp, cummax and cummin are `tp` scans, linear in it.  Selection goes through `tp.topk` (topk,
kthvalue: a partial sort) or `tp.sort` (median).  Convolution and pooling gather one strided slice per kernel
offset (im2col) and contract with `mm`/`bmm`, which lower to BLAS.
"""

from __future__ import annotations

import functools
import itertools
import math
import warnings
from typing import Callable, Dict

import numpy as np
import torch

from ._ops import aten

DECOMPOSITIONS: Dict[object, Callable] = {}


def _register(*overloads):
    def wrap(fn):
        for o in overloads:
            DECOMPOSITIONS[o] = fn
        return fn
    return wrap


def _dim(d: int, rank: int) -> int:
    return d + rank if d < 0 else d


def _lowest(dtype):
    if dtype.is_floating_point:
        return -math.inf
    return False if dtype == torch.bool else torch.iinfo(dtype).min


def _highest(dtype):
    if dtype.is_floating_point:
        return math.inf
    return True if dtype == torch.bool else torch.iinfo(dtype).max


def _as_float(x):
    """x converted as eager's float functions convert integer and bool
    inputs (to the default float type) before computing."""
    return x if x.is_floating_point() or x.is_complex() else x.to(
        torch.get_default_dtype())


# ---------------------------------------------------------------------------
# Layout: flip, roll, padding, diag, scatter into views
# ---------------------------------------------------------------------------

@_register(aten.flip.default)
def _flip(x, dims):
    if x.dim() == 0:   # flip(0) of a 0-d tensor is a copy, as in eager
        return x.clone()
    for d in dims:
        d = _dim(d, x.dim())
        n = x.shape[d]
        x = x.index_select(d, torch.arange(n - 1, -1, -1, device=x.device))
    return x


@_register(aten.rot90.default)
def _rot90(x, k=1, dims=(0, 1)):
    """Eager's rot90: flips and a transpose; k = 0 (mod 4) is a copy
    (PyTorch's decomposition writes it with an in-place prims.copy_to)."""
    d0, d1 = _dim(dims[0], x.dim()), _dim(dims[1], x.dim())
    k %= 4
    if k == 1:
        return _flip(x, [d1]).transpose(d0, d1)
    if k == 2:
        return _flip(x, [d0, d1])
    if k == 3:
        return _flip(x, [d0]).transpose(d0, d1)
    return x.clone()


@_register(aten.roll.default)
def _roll(x, shifts, dims=()):
    if not dims:
        return _roll(x.reshape(-1), shifts, [0]).view(x.shape)
    for s, d in zip(shifts, dims):
        d = _dim(d, x.dim())
        n = x.shape[d]
        if n == 0:
            continue
        s = s % n
        if s:
            x = torch.cat([x.narrow(d, n - s, s), x.narrow(d, 0, n - s)], d)
    return x


@_register(aten.constant_pad_nd.default)
def _constant_pad_nd(x, pad, value=0):
    for k in range(len(pad) // 2):
        d = x.dim() - 1 - k
        lo, hi = pad[2 * k], pad[2 * k + 1]
        if lo < 0:
            x = x.narrow(d, -lo, x.shape[d] + lo)
        if hi < 0:
            x = x.narrow(d, 0, x.shape[d] + hi)
        parts = []
        for width in (max(lo, 0), None, max(hi, 0)):
            if width is None:
                parts.append(x)
            elif width:
                shape = list(x.shape)
                shape[d] = width
                parts.append(torch.full(shape, value, dtype=x.dtype,
                                        device=x.device))
        if len(parts) > 1:
            x = torch.cat(parts, d)
    return x


@_register(aten.diag.default)
def _diag(x, diagonal=0):
    if x.dim() == 2:
        return torch.diagonal(x, diagonal).clone()
    n = x.shape[0] + abs(diagonal)
    rows = torch.arange(n, device=x.device).unsqueeze(1).expand(n, n)
    cols = torch.arange(n, device=x.device).unsqueeze(0).expand(n, n)
    src = rows if diagonal >= 0 else cols
    v = torch.cat([x, torch.zeros(abs(diagonal), dtype=x.dtype,
                                  device=x.device)])
    return torch.where(cols - rows == diagonal, v[src],
                       torch.zeros((), dtype=x.dtype, device=x.device))


@_register(aten.embedding_renorm.default)
def _embedding_renorm(weight, indices, max_norm, norm_type):
    """The functional form of eager's embedding_renorm_ (F.embedding with
    max_norm writes it into the weight): each row `indices` looks up whose
    norm exceeds max_norm is multiplied by max_norm / (norm + 1e-7),
    computed in double from the norm in the weight's dtype and rounded to
    that dtype, as eager's loop over the rows does; the other rows are
    unchanged (times 1, exactly)."""
    looked = torch.zeros(weight.shape[0], dtype=torch.int64).index_add(
        0, indices.reshape(-1), torch.ones(indices.numel(), dtype=torch.int64)) > 0
    norms = torch.linalg.vector_norm(weight, norm_type, dim=1).double()
    scale = (max_norm / (norms + 1e-7)).to(weight.dtype)
    return torch.where((looked & (norms > max_norm)).unsqueeze(1),
                       weight * scale.unsqueeze(1), weight)


def _embed(x, src, view):
    """`x` with the positions `view(x)` selects replaced by `src`: a mask of
    the view's positions (the view applied to an index tensor) picks
    between `x` and `src` scattered to those positions."""
    pos = torch.arange(x.numel(), device=x.device).view(x.shape)
    taken = view(pos)
    flat = x.reshape(-1).index_put([taken.reshape(-1)], src.reshape(-1))
    return flat.view(x.shape)


@_register(aten.slice_scatter.default)
def _slice_scatter(x, src, dim=0, start=None, end=None, step=1):
    return _embed(x, src, lambda t: aten.slice(t, dim, start, end, step))


@_register(aten.select_scatter.default)
def _select_scatter(x, src, dim, index):
    return _embed(x, src, lambda t: t.select(dim, index))


@_register(aten.diagonal_scatter.default)
def _diagonal_scatter(x, src, offset=0, dim1=0, dim2=1):
    return _embed(x, src, lambda t: torch.diagonal(t, offset, dim1, dim2))


@_register(aten.as_strided_scatter.default)
def _as_strided_scatter(x, src, size, stride, storage_offset=None):
    """src written into x's storage at the strided positions. Overlapping
    strides write some positions several times and the last write wins:
    only those writers are scattered (the positions are constants, found
    here), so the overwritten elements of src get no gradient, as central
    differences say (index_put would give each duplicate one)."""
    offset = 0 if storage_offset is None else storage_offset
    positions = np.full(tuple(size), offset, dtype=np.int64)
    for d, (n, st) in enumerate(zip(size, stride)):
        shape = [1] * len(size)
        shape[d] = n
        positions = positions + (np.arange(n, dtype=np.int64) * st).reshape(shape)
    positions = positions.reshape(-1)
    last = {int(p): i for i, p in enumerate(positions)}       # last writer
    if len(last) == positions.size:
        return _embed(x, src, lambda t: torch.as_strided(t, size, stride, offset))
    writers = sorted(last.values())
    values = src.reshape(-1).index_select(0, torch.tensor(writers, dtype=torch.int64))
    taken = torch.tensor(positions[writers], dtype=torch.int64)
    return x.reshape(-1).index_put([taken], values).view(x.shape)


# ---------------------------------------------------------------------------
# Elementwise
# ---------------------------------------------------------------------------

@_register(aten.acosh.default)
def _acosh(x):
    """log1p(t + sqrt(t (t + 2))), t = x - 1 (accurate near 1); log(2 x)
    where t^2 would overflow (acosh(1e20) in float32 is 46.7, not inf);
    NaN below 1 (the formula is finite again below -1). The gradient is
    eager's, the incoming one times rsqrt(x^2 - 1): inf at 1 (the
    formula's product rule gave 0 * inf), 0 at inf."""
    x = _as_float(x)
    one = torch.ones((), dtype=x.dtype)
    large = x > 2.0 ** 28
    t = torch.where(large, one, x) - 1
    small = torch.log1p(t + torch.sqrt(t * (t + 2)))
    big = torch.log(torch.where(large, x, one)) + math.log(2.0)
    v = torch.where(x < 1, torch.full((), math.nan, dtype=x.dtype),
                    torch.where(large, big, small))
    slope = torch.rsqrt(x * x - 1)
    return _finite_or_detached(
        x, v, _with_any_slope(v, x, slope, -x * slope * slope * slope))


@_register(aten.asinh.default)
def _asinh(x):
    """sign(x) * log1p(a + a^2 / (1 + sqrt(1 + a^2))), a = |x|, as
    x * s with s = -1 below 0 and 1 elsewhere: the same values, and the
    derivative 1 at 0 (abs's is 0 there, which made the gradient at 0 0,
    or NaN through the large branch's log(0) that where leaves
    unselected); each branch reads a only where it is selected (an
    infinite x's gradient is 0, not inf / inf), and a zero is itself
    (its sign kept, as eager's)."""
    x = _as_float(x)
    if x.dtype in _REDUCED:   # in float32, rounded once, as eager's
        return _in_float32(_asinh, x.dtype, x)
    s = torch.where(x < 0, -1.0, 1.0).to(x.dtype)
    a = x * s
    large = a > 2.0 ** 28                 # a * a overflows
    m = torch.where(large, torch.ones_like(a), a)
    r = torch.log1p(m + m * m / (1 + torch.sqrt(1 + m * m)))
    big = torch.log(torch.where(large, a, torch.ones_like(a))) + math.log(2.0)
    # asinh(-0) is -0, which the sum above rounds to +0.
    return torch.where(x == 0, x, torch.where(large, big, r) * s)


@_register(aten.atanh.default)
def _atanh(x):
    """sign(x) 0.5 log1p(2 a / (1 - a)), a = |x| (as x * s, s = -1 below
    0: atanh(-0) is -0): 1 - a is exact near 1, where 1 + x for x near -1
    cancelled (2100 ulp at -0.99997 in float32). float16 and bfloat16 in
    float32, rounded once, as eager computes them. The gradient is
    eager's, the incoming one times 1 / (1 - x^2): infinite at +-1 (the
    formula's gave 0 / 0)."""
    x = _as_float(x)
    if x.dtype in (torch.float16, torch.bfloat16):
        return _atanh(x.float()).to(x.dtype)
    s = torch.where(x < 0, -1.0, 1.0).to(x.dtype)
    a = x * s
    v = 0.5 * torch.log1p(2 * a / (1 - a)) * s
    slope = 1 / (1 - x * x)
    return _finite_or_detached(
        x, v, _with_any_slope(v, x, slope, 2 * x * slope * slope))


@_register(aten.frac.default)
def _frac(x):
    """x - trunc(x), as eager's kernel: frac(-0.0) is +0.0 (-0 - -0).
    PyTorch's decomposition truncates through sign(x) * floor(|x|), whose
    +0 for -0 left -0."""
    return x - torch.trunc(x)


@_register(aten.copysign.Tensor)
def _copysign(a, b):
    dtype = torch.result_type(a, b)
    if not dtype.is_floating_point:
        dtype = torch.get_default_dtype()
    a, b = a.to(dtype), b.to(dtype)
    mag = a.abs()
    return torch.where(torch.signbit(b), -mag, mag)


@_register(aten.copysign.Scalar)
def _copysign_scalar(a, other):
    # PyTorch's own decomposition reads prims.signbit, which Stax lacks.
    dtype = torch.result_type(a, other)
    if not dtype.is_floating_point:
        dtype = torch.get_default_dtype()
    mag = a.to(dtype).abs()
    return -mag if math.copysign(1.0, other) < 0 else mag


def _fminmax(pick, keeps_self):
    """fmax / fmin as eager computes them: self where it wins or ties (or
    other is NaN), other otherwise. So a tie's gradient goes to self alone,
    as in eager's derivative (maximum would split it), and fmax(-0., 0.)
    is -0. as eager's."""
    def fn(a, b):
        if not torch.result_type(a, b).is_floating_point:
            return pick(a, b)
        return torch.where(keeps_self(a, b) | torch.isnan(b), a, b)
    return fn


DECOMPOSITIONS[aten.fmax.default] = _fminmax(torch.maximum, lambda a, b: a >= b)
DECOMPOSITIONS[aten.fmin.default] = _fminmax(torch.minimum, lambda a, b: a <= b)


@_register(aten.sinc.default)
def _sinc(x):
    """sin(pi x) / (pi x), 1 at 0 (eager's kernel: the product in x's type),
    with eager's derivative 0 at 0: the quotient is taken of 1 there, so
    neither branch of the select has a NaN derivative."""
    if not x.is_floating_point():
        x = x.to(torch.get_default_dtype())
    zero = x == 0
    one = torch.ones((), dtype=x.dtype)
    p = torch.where(zero, one, x) * math.pi
    v = torch.where(zero, one, torch.sin(p) / p)
    # eager's sinc_backward: (pi x cos(pi x) - sin(pi x)) / (pi x x), 0
    # where pi x x is 0, which it also is at a subnormal x (the
    # quotient rule's sin / p^2 overflowed there: a NaN gradient). The
    # second derivative -pi^2 v - 2 v' / x (-pi^2 / 3 at 0).
    xd = x.detach()
    pd = xd * math.pi
    den = xd * xd * math.pi
    flat = den == 0
    zero_t = torch.zeros((), dtype=x.dtype)
    slope = torch.where(flat, zero_t, (pd * torch.cos(pd) - torch.sin(pd)) / den)
    curvature = torch.where(
        flat, torch.full((), -math.pi ** 2 / 3, dtype=x.dtype),
        -math.pi ** 2 * v.detach() - 2 * slope / torch.where(flat, one, xd))
    return _with_slope(v, x, slope, curvature)


def _with_slope(value, x, slope, curvature=None, passes=None):
    """value's values, whose derivative in x is slope and whose second
    derivative is curvature (0 if None; all three detached here): value
    minus the zero (t.detach() - t), t = u (slope + u curvature / 2) with
    u = x - x.detach(), so that the gradient is the incoming one times
    slope, rounded once as an eager backward kernel's (the other terms of
    the product rule are zeros), and a signed zero of value survives
    (v - +0 is v). Where the mask passes is false the gradient is
    selected away, not multiplied by 0, as eager's backward kernels
    select it: an infinite or NaN incoming gradient gives 0 there, not
    NaN. x must be finite where the result is used: inf - inf is NaN."""
    u = x - x.detach()
    m = slope.detach()
    if curvature is not None:
        # Only where it is not 0, so that a NaN u (x NaN or inf) does not
        # make the gradient NaN through u * 0.
        c = curvature.detach()
        m = m + torch.where(c != 0, u * (c * 0.5), torch.zeros_like(c))
    t = u * m
    if passes is not None:
        t = torch.where(passes, t, torch.zeros_like(t))
    return value.detach() - (t.detach() - t)


def _with_any_slope(value, x, slope, curvature):
    """_with_slope where the slope may be infinite (a pole of the
    derivative: acosh at 1, atanh at +-1): there the gradient is the
    incoming one times +-inf, as eager's, through sqrt(u)'s infinite
    derivative at u = x - x.detach() = 0 (whose value adds 0); sqrt reads
    1 elsewhere so that its derivative stays finite where not selected."""
    pole = torch.isinf(slope)
    zero = torch.zeros((), dtype=slope.dtype)
    u = x - x.detach()
    root = torch.sqrt(torch.where(pole, u, torch.ones_like(u)))
    steep = value.detach() + torch.where(slope > 0, root, -root)
    # (An infinite x's curvature, inf * 0, would leak NaN into the
    # gradient that _finite_or_detached selects away; an overflowing one,
    # logit's near 0, into the value through u * inf.)
    flat = pole | torch.isinf(x) | torch.isinf(curvature)
    gentle = _with_slope(value, x, torch.where(pole, zero, slope),
                         torch.where(flat, zero, curvature))
    return torch.where(pole, steep, gentle)


def _finite_or_detached(x, value, with_slope):
    return torch.where(torch.isinf(x), value.detach(), with_slope)


def _opmath(x):
    """x in the type eager's CPU kernels compute it in: float32 for the
    reduced-precision floats (one rounding of the result, not one per
    step)."""
    reduced = x.dtype in (torch.float16, torch.bfloat16)
    return x.to(torch.float32) if reduced else x


_REDUCED = (torch.float16, torch.bfloat16)


def _in_float32(fn, dtype, *xs):
    """fn of xs, each converted to `dtype` (the op's result type, as
    eager's TensorIterator converts its operands) and then to float32, its
    result rounded to dtype once: eager's CPU kernels compute a reduced
    float in its float32 opmath type, not rounding every step."""
    return fn(*[x.to(dtype).to(torch.float32) for x in xs]).to(dtype)


@_register(aten.hardsigmoid.default)
def _hardsigmoid(x):
    """min(max(x + 3, 0), 6) / 6 (eager's values) with eager's
    hardsigmoid_backward: the gradient times 1/6 rounded to float32 (its
    constant, also for float64) strictly inside (-3, 3), 0 elsewhere (a
    clamp would pass the gradient at its bounds; a division by 6 rounds
    differently from the product)."""
    w = _opmath(x)
    v = torch.clamp(w + 3, 0, 6) / 6
    sixth = torch.full((), float(np.float32(1 / 6)), dtype=w.dtype)
    inside = (w > -3) & (w < 3)
    slope = torch.where(inside, sixth, torch.zeros_like(sixth))
    return _finite_or_detached(
        w, v, _with_slope(v, w, slope, passes=inside)).to(x.dtype)


@_register(aten.hardswish.default)
def _hardswish(x):
    """x min(max(x + 3, 0), 6) / 6 (eager's values) with eager's
    hardswish_backward: 0 below -3, the gradient times x / 3 + 1/2 up to
    3 and the gradient itself above (the product's derivative rounds
    differently). At 3 eager's scalar loop gives 1.5 (this, and PyTorch's
    reference decomposition) and its vector loop 1. +inf is itself (its
    gradient passes, as eager's), -inf NaN with gradient 0. An infinite
    incoming gradient strictly inside (-3, 3) gives NaN (eager: inf): the
    second derivative's term of the product rule multiplies it by 0."""
    w = _opmath(x)
    v = w * torch.clamp(w + 3, 0, 6) / 6
    one, zero = torch.ones((), dtype=w.dtype), torch.zeros((), dtype=w.dtype)
    middle = torch.where(w <= 3, w / 3 + 0.5, one)
    slope = torch.where(w < -3, zero, middle)
    # eager's second derivative: 1/3 strictly inside (-3, 3)
    curvature = torch.where((w > -3) & (w < 3), one / 3, zero)
    return torch.where(w == math.inf, w, _finite_or_detached(
        w, v, _with_slope(v, w, slope, curvature, passes=~(w < -3)))).to(x.dtype)


@_register(aten.logit.default)
def _logit(x, eps=None):
    """log(z / (1 - z)), z = x clamped to [eps, 1 - eps] when eps is given
    (the clamp selects the gradient away outside, as eager's). Without
    eps, eager's logit_backward: the incoming gradient over x (1 - x),
    infinite at 0 and 1 (the quotient's chain rule gave 0 * inf) and NaN
    outside [0, 1] (it was finite there)."""
    x = _as_float(x)
    if eps is not None:
        z = torch.clamp(x, eps, 1 - eps)
        return torch.log(z / (1 - z))
    v = torch.log(x / (1 - x))
    slope = 1 / (x * (1 - x))
    inside = (x >= 0) & (x <= 1)
    slope = torch.where(inside, slope, torch.full((), math.nan, dtype=x.dtype))
    return _with_any_slope(v, x, slope, (2 * x - 1) * slope * slope)


@_register(aten.clamp.Tensor)
def _clamp_tensor(x, min=None, max=None):
    """clamp with tensor bounds, with eager's clamp_backward and
    clamp_backward_min_max: self's gradient where min <= x <= max, min's
    where x < min < max, max's where x > max or max < min, 0 elsewhere (at
    a NaN in particular, which PyTorch's own decomposition passes to x).
    Each select takes the value eager's clamp gives there; what no mask
    covers (NaN, x < min == max) takes the plain value, detached."""
    from torch._prims_common import (
        ELEMENTWISE_TYPE_PROMOTION_KIND, elementwise_dtypes)
    _, dtype = elementwise_dtypes(
        x, *[b for b in (min, max) if b is not None],
        type_promotion_kind=ELEMENTWISE_TYPE_PROMOTION_KIND.DEFAULT)
    x = x.to(dtype)
    lo = None if min is None else min.to(dtype)
    hi = None if max is None else max.to(dtype)
    v = x
    if lo is not None:
        v = torch.where(torch.isnan(v) | (v >= lo), v, lo)
    if hi is not None:
        v = torch.where(torch.isnan(v) | (v <= hi), v, hi)
    rest = v.detach()
    if lo is not None and hi is not None:
        takes_self = (x >= lo) & (x <= hi)
        takes_lo = (x < lo) & (lo < hi)
        # min > max clamps to max, but a NaN stays NaN (eager's kernel
        # propagates it before comparing the bounds).
        takes_hi = (x > hi) | ((hi < lo) & ~torch.isnan(x))
        r = torch.where(takes_self, x, torch.where(
            takes_lo, lo, torch.where(takes_hi, hi, rest)))
        if not dtype.is_floating_point:
            return r
        # A NaN bound makes the result NaN (eager's kernel), though the
        # gradient still goes where eager's clamp_backward_min_max sends it
        # (to max where x > max): a NaN added, -0 elsewhere (r + -0 is r,
        # the sign of a zero kept).
        nan_bound = torch.isnan(lo) | torch.isnan(hi)
        return r + torch.where(nan_bound, torch.full((), math.nan, dtype=dtype),
                               torch.full((), -0.0, dtype=dtype))
    if lo is not None:
        return torch.where(x >= lo, x, torch.where(x < lo, lo, rest))
    if hi is not None:
        return torch.where(x <= hi, x, torch.where(x > hi, hi, rest))
    return x.clone()


@_register(aten.clamp_min.Tensor)
def _clamp_min_tensor(x, min):
    return _clamp_tensor(x, min=min)


@_register(aten.clamp_max.Tensor)
def _clamp_max_tensor(x, max):
    return _clamp_tensor(x, max=max)


@_register(aten.heaviside.default)
def _heaviside(x, values):
    zero = torch.zeros((), dtype=x.dtype, device=x.device)
    one = torch.ones((), dtype=x.dtype, device=x.device)
    return torch.where(x == 0, values, torch.where(x > 0, one, zero)
                       ).to(torch.result_type(x, values))


@_register(aten.logaddexp.default)
def _logaddexp(a, b):
    dtype = torch.result_type(a, b)
    if dtype in _REDUCED:   # in float32, rounded once, as eager's
        return _in_float32(_logaddexp, dtype, a, b)
    m = torch.maximum(a, b)
    r = m + torch.log1p(torch.exp(-(a - b).abs()))
    return torch.where(torch.isinf(a) & (a == b), a, r)


@_register(aten.logaddexp2.default)
def _logaddexp2(a, b):
    dtype = torch.result_type(a, b)
    if dtype in _REDUCED:
        return _in_float32(_logaddexp2, dtype, a, b)
    m = torch.maximum(a, b)
    r = m + torch.log1p(torch.exp2(-(a - b).abs())) / math.log(2.0)
    return torch.where(torch.isinf(a) & (a == b), a, r)


@_register(aten.round.decimals)
def _round_decimals(x, decimals=0):
    if decimals == 0:
        return torch.round(x)
    p = 10.0 ** abs(decimals)
    if decimals > 0:
        return torch.round(x * p) / p
    return torch.round(x / p) * p


@_register(aten.deg2rad.default)
def _deg2rad(x):
    if not x.is_floating_point():
        x = x.to(torch.get_default_dtype())
    return x * (math.pi / 180.0)


@_register(aten.rad2deg.default)
def _rad2deg(x):
    if not x.is_floating_point():
        x = x.to(torch.get_default_dtype())
    return x * (180.0 / math.pi)


# ---------------------------------------------------------------------------
# Reductions
# ---------------------------------------------------------------------------

@_register(aten.var_mean.correction)
def _var_mean(x, dim=None, correction=None, keepdim=False):
    return (aten.var.correction(x, dim, correction=correction, keepdim=keepdim),
            torch.mean(x, dim if dim is not None else [], keepdim=keepdim))


@_register(aten.std.correction)
def _std(x, dim=None, correction=None, keepdim=False):
    # The root with eager's zero gradient where the deviation is 0 (its
    # std_backward masks it; sqrt's infinite derivative gave NaN). A
    # reduced float's variance and root in float32, rounded once, as
    # eager's (the root of the rounded variance rounded twice).
    if x.dtype in _REDUCED:
        return _in_float32(
            lambda w: _std(w, dim, correction, keepdim), x.dtype, x)
    return _norm_root(aten.var.correction(x, dim, correction=correction,
                                          keepdim=keepdim), 2)


@_register(aten.std_mean.correction)
def _std_mean(x, dim=None, correction=None, keepdim=False):
    return _std(x, dim, correction, keepdim), torch.mean(
        x, dim if dim is not None else [], keepdim=keepdim)


@_register(aten.nansum.default)
def _nansum(x, dim=None, keepdim=False, dtype=None):
    if x.is_floating_point():
        x = torch.where(torch.isnan(x), torch.zeros((), dtype=x.dtype), x)
    return torch.sum(x, dim if dim is not None else [], keepdim=keepdim,
                     dtype=dtype)


# ---------------------------------------------------------------------------
# Products
# ---------------------------------------------------------------------------

@_register(aten.mv.default)
def _mv(a, v):
    return torch.mm(a, v.unsqueeze(1)).squeeze(1)


@_register(aten.vdot.default)
def _vdot(a, b):
    return torch.dot(a, b)


def _axpby(beta, c, alpha, p):
    """beta * c + alpha * p, where beta = 0 ignores c (NaN included).
    Integer results take the scalars truncated to integers, as eager's
    integer kernels do (addmv(..., beta=1.5) scales by 1)."""
    if not p.is_floating_point() and not p.is_complex():
        beta, alpha = int(beta), int(alpha)
    if alpha != 1:
        p = p * alpha
    if beta == 0:
        return p.expand(torch.broadcast_shapes(c.shape, p.shape)).clone()
    return (c * beta if beta != 1 else c) + p


@_register(aten.addmv.default)
def _addmv(c, a, v, beta=1, alpha=1):
    return _axpby(beta, c, alpha, _mv(a, v))


@_register(aten.addbmm.default)
def _addbmm(c, b1, b2, beta=1, alpha=1):
    p = torch.bmm(b1, b2)
    return _axpby(beta, c, alpha, p.sum(0, dtype=p.dtype))


@_register(aten.linalg_cross.default)
def _cross(a, b, dim=-1):
    shape = torch.broadcast_shapes(a.shape, b.shape)
    a, b = a.expand(shape), b.expand(shape)
    d = _dim(dim, len(shape))

    def c(t, i):
        return t.select(d, i)
    return torch.stack([c(a, 1) * c(b, 2) - c(a, 2) * c(b, 1),
                        c(a, 2) * c(b, 0) - c(a, 0) * c(b, 2),
                        c(a, 0) * c(b, 1) - c(a, 1) * c(b, 0)], d)


# ---------------------------------------------------------------------------
# Factories of numbers: eager's values, as constants
# ---------------------------------------------------------------------------

def _eager_constant(factory, *args, dtype=None, device=None):
    """factory(*args) of Python numbers is a constant: eager's own values,
    computed outside the trace and baked in. PyTorch's reference
    decomposition of linspace computes in float64 and rounds once, one ulp
    away from the CPU kernel (which steps in the result's type from both
    ends, and for integers truncates vectorized partial sums:
    linspace(0, -3, 10) is [0, 0, 0, -1, -1, -1, -1, -2, -2, -3], not the
    rounded quotients)."""
    from torch.fx.experimental.proxy_tensor import disable_proxy_modes_tracing
    with disable_proxy_modes_tracing():
        values = factory(*args, dtype=dtype)
    return torch.tensor(values.tolist(), dtype=values.dtype, device=device)


@_register(aten.linspace.default)
def _linspace(start, end, steps, *, dtype=None, layout=None, device=None,
              pin_memory=None):
    return _eager_constant(aten.linspace.default, start, end, steps,
                           dtype=dtype, device=device)


@_register(aten.logspace.default)
def _logspace(start, end, steps, base=10.0, *, dtype=None, layout=None,
              device=None, pin_memory=None):
    return _eager_constant(aten.logspace.default, start, end, steps, base,
                           dtype=dtype, device=device)


# ---------------------------------------------------------------------------
# Cumulative ops: tp scans
# ---------------------------------------------------------------------------

def _cum_result_dtype(x, dtype):
    """Eager's result type of cumsum/cumprod: dtype, else integers and bool
    widen to int64."""
    if dtype is not None:
        return dtype
    return x.dtype if x.is_floating_point() else torch.int64


def _cumsum(x, dim, dtype=None):
    """tp.cumsum of x converted as eager converts it (CONDITIONAL below).
    The result type is passed on: an int32 operand without it would be
    widened to int64 once more."""
    t = _cum_result_dtype(x, dtype)
    return torch.cumsum(x.to(t), dim, dtype=t)


def _cumprod(x, dim, dtype=None):
    """tp.cumprod of x converted as eager converts it (CONDITIONAL below)."""
    t = _cum_result_dtype(x, dtype)
    return torch.cumprod(x.to(t), dim, dtype=t)


# ---------------------------------------------------------------------------
# Selection through tp.sort
# ---------------------------------------------------------------------------

def _before(a, b, descending):
    """a sorts strictly before b (NaN is the largest value)."""
    if descending:
        a, b = b, a
    lt = a < b
    if a.is_floating_point():
        lt = lt | (torch.isnan(b) & ~torch.isnan(a))
    return lt


def _same(a, b):
    eq = a == b
    if a.is_floating_point():
        eq = eq | (torch.isnan(a) & torch.isnan(b))
    return eq


def _sort(x, dim=-1, descending=False):
    """tp.sort (stable, NaN largest)."""
    return torch.sort(x, dim=dim, descending=descending, stable=True)


@_register(aten.kthvalue.default)
def _kthvalue(x, k, dim=-1, keepdim=False):
    """The last of tp.topk's k smallest (a partial sort)."""
    v, i = torch.topk(x, k, dim, largest=False)
    if x.dim() == 0:
        return v, i
    d = _dim(dim, x.dim())
    v, i = v.select(d, k - 1), i.select(d, k - 1)
    if keepdim:
        v, i = v.unsqueeze(d), i.unsqueeze(d)
    return v, i


def _median_dim(x, dim, keepdim, ignore_nan):
    if x.dim() == 0:
        return x.clone(), torch.zeros((), dtype=torch.int64)
    d = _dim(dim, x.dim())
    v, i = _sort(x, d)
    n = x.shape[d]
    if ignore_nan and x.is_floating_point():
        count = (~torch.isnan(x)).sum(d, keepdim=True)
        k = torch.clamp((count - 1) // 2, min=0)
    else:
        k = torch.full([1] * x.dim(), (n - 1) // 2, dtype=torch.int64)
        k = k.expand(*[1 if a == d else x.shape[a] for a in range(x.dim())])
        if x.is_floating_point():
            # A NaN makes the median NaN: the first one, which the stable
            # sort puts first among the NaNs at the end.
            nans = torch.isnan(x).sum(d, keepdim=True)
            k = torch.where(nans > 0, n - nans, k)
    mv, mi = v.gather(d, k), i.gather(d, k)
    if not keepdim:
        mv, mi = mv.squeeze(d), mi.squeeze(d)
    return mv, mi


@_register(aten.median.dim)
def _median_d(x, dim, keepdim=False):
    return _median_dim(x, dim, keepdim, False)


@_register(aten.nanmedian.dim)
def _nanmedian_d(x, dim, keepdim=False):
    return _median_dim(x, dim, keepdim, True)


@_register(aten.median.default)
def _median(x):
    return _evenly_distributed(x, _median_dim(x.reshape(-1), 0, False, False)[0])


@_register(aten.nanmedian.default)
def _nanmedian(x):
    return _evenly_distributed(x, _median_dim(x.reshape(-1), 0, False, True)[0])


def _evenly_distributed(x, m):
    """m, a value of x's elements, with eager's gradient for median and
    nanmedian of a whole tensor (evenly_distribute_backward): the
    gradient shared equally by every element equal to m (every NaN where
    m is NaN), not sent to the one the sort picked. The value is m's
    exactly: m minus a sum of zeros (x.detach() - x at those elements)
    whose gradient is the mask over its count."""
    if not x.is_floating_point():
        return m
    m = m.detach()
    mask = (x == m) | (torch.isnan(x) & torch.isnan(m))
    share = mask.to(x.dtype) / mask.sum().to(x.dtype)
    zeros = torch.where(mask, x.detach() - x, torch.zeros_like(x))
    return m - (zeros * share).sum()


# ---------------------------------------------------------------------------
# Scatter with reduction (a dense mask over output positions x sources)
# ---------------------------------------------------------------------------

@_register(aten.scatter.value)
def _scatter_value(x, dim, index, value):
    """scatter of one value: the tp scatter of a constant source."""
    return x.scatter(dim, index, torch.full(index.shape, value, dtype=x.dtype,
                                            device=x.device))


@_register(aten.scatter.reduce, aten.scatter.value_reduce)
def _scatter_with_reduce(x, dim, index, src, reduce):
    """scatter(..., reduce="add" | "multiply"): scatter_reduce including
    self (a scalar src is a constant source)."""
    if not isinstance(src, torch.Tensor):
        src = torch.full(index.shape, src, dtype=x.dtype, device=x.device)
    how = {"add": "sum", "multiply": "prod"}.get(reduce)
    if how is None:
        raise RuntimeError(f"scatter: reduce must be 'add' or 'multiply', "
                           f"not {reduce!r}")
    return _scatter_reduce(x, dim, index, src.to(x.dtype), how)


@_register(aten.scatter_reduce.two)
def _scatter_reduce(x, dim, index, src, reduce, include_self=True):
    d = _dim(dim, x.dim()) if x.dim() else 0
    shape0 = x.shape
    if x.dim() == 0:
        x, index, src = x.reshape(1), index.reshape(1), src.reshape(1)
    src = src[tuple(slice(0, s) for s in index.shape)]
    n = x.shape[d]
    index = _bounds_checked(index, n)
    # M[..., p, ...j...]: source element j goes to position p along d.
    pos = torch.arange(n, device=x.device).view(
        [n] + [1] * index.dim())
    hit = index.unsqueeze(0) == pos                    # [n, *index.shape]
    s = src.unsqueeze(0).expand(hit.shape)
    ident = {"sum": 0, "mean": 0, "prod": 1,
             "amax": _lowest(x.dtype), "amin": _highest(x.dtype)}[reduce]
    filled = torch.where(hit, s, torch.full((), ident, dtype=x.dtype))
    # Reduce every source dim except d (which runs over index positions)
    # into positions: move the new axis p to d, reduce over the old d.
    red_dims = [d + 1]
    extreme = reduce in ("amax", "amin")
    region = tuple(slice(0, s) if a != d else slice(None)
                   for a, s in enumerate(index.shape))
    xr = x[region]
    if extreme and include_self:
        # Self is one more slot of the reduction: a tie between self and
        # sources then splits the gradient evenly over all of them, as
        # eager's backward does (a maximum of self and the sources' amax
        # would give self half).
        filled = torch.cat([xr.movedim(d, 0).unsqueeze(d + 1), filled], d + 1)
    if reduce in ("sum", "mean"):
        r = filled.sum(red_dims)
    elif reduce == "prod":
        r = filled.prod(d + 1)
    elif reduce == "amax":
        r = filled.amax(red_dims)
    else:
        r = filled.amin(red_dims)
    r = r.movedim(0, d)                                 # [.., n, ..] (index dims)
    touched = hit.any(d + 1).movedim(0, d)
    # The index covers a prefix of x's other dims (region): place r into x.
    if include_self:
        if reduce in ("sum", "mean"):
            out = xr + r
        elif reduce == "prod":
            out = xr * r
        else:
            out = r
    else:
        out = torch.where(touched, r, xr)
    if reduce == "mean":
        cnt = hit.sum(d + 1).movedim(0, d).to(x.dtype)
        if include_self:
            cnt = cnt + 1
        cnt = torch.where(cnt == 0, torch.ones((), dtype=x.dtype), cnt)
        out = out / cnt if x.is_floating_point() else torch.div(
            out, cnt, rounding_mode="floor")
        if not include_self:
            out = torch.where(touched, out, xr)
    # Bool sums and products were counted in int64: any and all.
    out = out.to(x.dtype)
    if tuple(xr.shape) != tuple(x.shape):
        out = _embed(x, out, lambda t: t[region])
    return out.reshape(shape0)


# ---------------------------------------------------------------------------
# Convolution and pooling (im2col: one strided view of the padded input)
# ---------------------------------------------------------------------------

def _patches(x, kernel, stride, dilation, out):
    """[N, C, K, *out]: for every kernel offset, the input elements (of the
    already padded, contiguous input [N, C, *in]) it multiplies at every
    output position. One strided view (as_strided: spatial index
    stride * o + dilation * k never leaves its dim, so it lowers to one
    affine index per dim), copied once by the reshape: every element costs
    one load whatever the kernel size."""
    # A fresh row-major copy (free: the lowering reads through it): the
    # strides as_strided takes below are row-major ones, and the tracer's
    # strides of an intermediate can differ from eager's (a layer norm of
    # a transposed input is contiguous in eager, transposed when traced),
    # so contiguous() would keep a layout the importer reads otherwise.
    x = x.clone(memory_format=torch.contiguous_format)
    spatial = list(x.shape[2:])
    in_strides = [math.prod(spatial[a + 1:]) for a in range(len(spatial))]
    n, c = x.shape[:2]
    size = [n, c] + list(kernel) + list(out)
    strides = ([c * math.prod(spatial), math.prod(spatial)]
               + [d * s for d, s in zip(dilation, in_strides)]
               + [st * s for st, s in zip(stride, in_strides)])
    cols = torch.as_strided(x, size, strides, 0)
    return cols.reshape(n, c, math.prod(kernel), *out)


def _dilate(x, stride):
    """Inserts stride - 1 zeros between the spatial elements of x."""
    for a, s in enumerate(stride):
        if s == 1:
            continue
        d = 2 + a
        n = x.shape[d]
        z = torch.zeros_like(x).unsqueeze(d + 1).expand(
            *x.shape[:d + 1], s - 1, *x.shape[d + 1:])
        t = torch.cat([x.unsqueeze(d + 1), z], d + 1)
        t = t.reshape(*x.shape[:d], n * s, *x.shape[d + 1:])
        x = t.narrow(d, 0, (n - 1) * s + 1)
    return x


#: A group whose weights are at most this many multiply-adds per output
#: position (a depthwise convolution's k x k) is a reduction, not a GEMM.
_DIRECT_CONV_MAX_GROUP_MACS = 64


def _conv(x, w, bias, stride, padding, dilation, groups):
    nsp = x.dim() - 2
    pad = []
    for p in reversed(padding):
        pad += [p, p]
    x = _constant_pad_nd(x, pad, 0)
    kernel = list(w.shape[2:])
    out = [(x.shape[2 + a] - dilation[a] * (kernel[a] - 1) - 1) // stride[a] + 1
           for a in range(nsp)]
    n, c = x.shape[0], x.shape[1]
    o = w.shape[0]
    k = math.prod(kernel)
    cols = _patches(x, kernel, stride, dilation, out)     # [N, C, K, *out]
    length = math.prod(out)
    cols = cols.reshape(n, groups, (c // groups) * k, length)
    wg = w.reshape(groups, o // groups, (c // groups) * k)
    if (c // groups) * k * (o // groups) <= _DIRECT_CONV_MAX_GROUP_MACS:
        # Each output sums a few products (a depthwise conv: k): one
        # reduction over the patches' view, no copy of them and no
        # per-group GEMM too small for BLAS.
        prod = wg.view(1, groups, o // groups, -1, 1) * cols.unsqueeze(2)
        y = prod.sum(3).reshape(n, o, *out)
        if bias is not None:
            y = y + bias.view(o, *([1] * nsp))
        return y
    # [G, O/G, CK] x [G, CK, N*L] per group.
    rhs = cols.permute(1, 2, 0, 3).reshape(groups, (c // groups) * k, n * length)
    y = torch.bmm(wg, rhs).reshape(o, n, *out).movedim(0, 1)
    if bias is not None:
        y = y + bias.view(o, *([1] * nsp))
    return y


@_register(aten.convolution.default)
def _convolution(x, w, bias, stride, padding, dilation, transposed,
                 output_padding, groups):
    nsp = x.dim() - 2
    unbatched = False
    stride = list(stride) * (nsp if len(stride) == 1 else 1)
    padding = list(padding) * (nsp if len(padding) == 1 else 1)
    dilation = list(dilation) * (nsp if len(dilation) == 1 else 1)
    if not transposed:
        y = _conv(x, w, bias, stride, padding, dilation, groups)
        return y.squeeze(0) if unbatched else y
    output_padding = list(output_padding) * (nsp if len(output_padding) == 1 else 1)
    if any(st > 1 for st in stride):
        return _conv_transpose_fold(x, w, bias, stride, padding, dilation,
                                    output_padding, groups)
    # A transposed convolution is the convolution of the input dilated by
    # the stride, padded by d(k - 1) - p (plus output_padding on the high
    # side), with the kernel flipped and its in/out channels swapped.
    kernel = list(w.shape[2:])
    xd = _dilate(x, stride)
    pad = []
    for a in reversed(range(nsp)):
        q = dilation[a] * (kernel[a] - 1) - padding[a]
        pad += [q, q + output_padding[a]]
    xd = _constant_pad_nd(xd, pad, 0)
    cin = w.shape[0]
    og = w.shape[1]
    wt = w.reshape(groups, cin // groups, og, *kernel).transpose(1, 2)
    wt = wt.reshape(groups * og, cin // groups, *kernel)
    wt = _flip(wt, list(range(2, 2 + nsp)))
    return _conv(xd, wt, bias, [1] * nsp, [0] * nsp, dilation, groups)


@_register(aten.convolution_backward.default)
def _convolution_backward(grad, x, w, bias_sizes, stride, padding, dilation,
                          transposed, output_padding, groups, output_mask):
    """The gradients of a (not transposed) convolution, which a function
    differentiating inside itself traces (a gradient penalty's
    autograd.grad(create_graph=True)): the input's is the transposed
    convolution of grad with the weight, the weight's the products of
    grad with the input's patches summed over the batch and the output
    positions (one bmm per group), the bias's grad summed but over the
    channels. A transposed convolution's stays eager's op (the split runs
    it in PyTorch)."""
    if transposed:
        return aten.convolution_backward.default(
            grad, x, w, bias_sizes, stride, padding, dilation, transposed,
            output_padding, groups, output_mask)
    nsp = x.dim() - 2
    stride, padding, dilation = [list(v) * (nsp if len(v) == 1 else 1)
                                 for v in (stride, padding, dilation)]
    kernel = list(w.shape[2:])
    gi = gw = gb = None
    if output_mask[0]:
        # The rows of the input the convolution's last window leaves out
        # come back as the transposed convolution's output padding.
        extra = [x.shape[2 + a] + 2 * padding[a] - dilation[a] * (kernel[a] - 1)
                 - 1 - (grad.shape[2 + a] - 1) * stride[a] for a in range(nsp)]
        gi = _convolution(grad, w, None, stride, padding, dilation, True,
                          extra, groups)
    if output_mask[1]:
        pad = []
        for p in reversed(padding):
            pad += [p, p]
        out = list(grad.shape[2:])
        cols = _patches(_constant_pad_nd(x, pad, 0), kernel, stride, dilation, out)
        n, c, o = x.shape[0], x.shape[1], w.shape[0]
        k, length = math.prod(kernel), math.prod(out)
        # [G, O/G, N*L] x [G, N*L, C/G*K] per group.
        lhs = grad.reshape(n, groups, o // groups, length).permute(1, 2, 0, 3)
        lhs = lhs.reshape(groups, o // groups, n * length)
        rhs = cols.reshape(n, groups, (c // groups) * k, length).permute(1, 0, 3, 2)
        rhs = rhs.reshape(groups, n * length, (c // groups) * k)
        gw = torch.bmm(lhs, rhs).reshape(o, c // groups, *kernel)
    if output_mask[2]:
        gb = grad.sum([0] + list(range(2, grad.dim())))
    return gi, gw, gb


@_register(aten.col2im.default)
def _col2im(x, output_size, kernel_size, dilation, padding, stride):
    """F.fold: PyTorch 1.13's decomposition, whose final crop passes the
    paddings to F.pad in the wrong order ((h, h, w, w) for the last dims,
    which F.pad reads width first): an uneven padding=(0, 1) cropped the
    wrong dims. Its checks are eager's (it runs first, on the same
    arguments); the crop here narrows each dim by its own padding."""
    from torch._decomp.decompositions import col2im
    if padding[0] == padding[1]:
        return col2im(x, output_size, kernel_size, dilation, padding, stride)
    # Uncropped: fold into the padded size, then crop each dim.
    padded = [o + 2 * p for o, p in zip(output_size, padding)]
    y = col2im(x, padded, kernel_size, dilation, [0, 0], stride)
    return y[..., padding[0]:padding[0] + output_size[0],
             padding[1]:padding[1] + output_size[1]]


@_register(aten.im2col.default)
def _im2col(x, kernel_size, dilation, padding, stride):
    """F.unfold: PyTorch 1.13's decomposition pads with (h, h, w, w), which
    F.pad reads width first, like col2im's crop: an uneven padding=(0, 2)
    indexed past the input. Padded here, each dim by its own padding, then
    unfolded without padding (eager's checks run first, as for col2im)."""
    from torch._decomp.decompositions import im2col
    if padding[0] == padding[1]:
        return im2col(x, kernel_size, dilation, padding, stride)
    padded = torch.nn.functional.pad(x, (padding[1], padding[1], padding[0], padding[0]))
    return im2col(padded, kernel_size, dilation, [0, 0], stride)


def _conv_transpose_fold(x, w, bias, stride, padding, dilation,
                         output_padding, groups):
    """A strided transposed convolution as the adjoint of a convolution's
    im2col: one product gives every input element's contribution to each
    kernel offset ([N, O, K, *in]), and each offset's contributions are
    added at their strided output positions (col2im, a sum of one
    zero-embedding per offset: one gather-form loop over the output). The
    convolution of the zero-dilated input would multiply stride^nsp times
    as many terms, most of them zeros."""
    nsp = x.dim() - 2
    kernel = list(w.shape[2:])
    n, cin = x.shape[0], x.shape[1]
    spatial = list(x.shape[2:])
    og = w.shape[1]
    k = math.prod(kernel)
    length = math.prod(spatial)
    if (cin // groups) * og * k <= _DIRECT_CONV_MAX_GROUP_MACS:
        # A few products per input element (depthwise): one reduction.
        wv = w.reshape(1, groups, cin // groups, og * k, 1)
        xv = x.reshape(n, groups, cin // groups, 1, length)
        cols = (wv * xv).sum(2).reshape(n, groups * og, k, *spatial)
    else:
        # [G, OG*K, CIN/G] x [G, CIN/G, N*L] per group.
        wg = w.reshape(groups, cin // groups, og * k).transpose(1, 2)
        xg = x.reshape(n, groups, cin // groups, length).permute(1, 2, 0, 3)
        xg = xg.reshape(groups, cin // groups, n * length)
        cols = torch.bmm(wg, xg).reshape(groups * og, k, n, *spatial)
        cols = cols.movedim(2, 0)                       # [N, O, K, *in]
    full = [(spatial[a] - 1) * stride[a] + dilation[a] * (kernel[a] - 1) + 1
            + output_padding[a] for a in range(nsp)]
    y = None
    # Offsets in the row-major order of cols' K dim.
    offsets = itertools.product(*(range(size) for size in kernel))
    for offset, position in enumerate(offsets):
        term = cols[:, :, offset]
        for a in range(nsp):
            start = position[a] * dilation[a]
            sizes = list(term.shape)
            sizes[2 + a] = full[a]
            term = torch.ops.aten.slice_backward(
                term, sizes, 2 + a, start,
                start + (spatial[a] - 1) * stride[a] + 1, stride[a])
        y = term if y is None else y + term
    for a in range(nsp):
        out = full[a] - 2 * padding[a]
        y = y.narrow(2 + a, padding[a], out)
    if bias is not None:
        y = y + bias.view(groups * og, *([1] * nsp))
    return y


def _pool_geometry(x, kernel, stride, padding, dilation, ceil_mode, nsp):
    kernel = list(kernel) * (nsp if len(kernel) == 1 else 1)
    stride = list(stride) if stride else list(kernel)
    stride = stride * (nsp if len(stride) == 1 else 1)
    padding = list(padding) * (nsp if len(padding) == 1 else 1)
    dilation = list(dilation) * (nsp if len(dilation) == 1 else 1)
    out = []
    for a in range(nsp):
        n = x.shape[x.dim() - nsp + a]
        span = dilation[a] * (kernel[a] - 1) + 1
        num = n + 2 * padding[a] - span
        o = (-(-num // stride[a]) if ceil_mode else num // stride[a]) + 1
        # The last window must start inside the input or the left padding.
        if ceil_mode and (o - 1) * stride[a] >= n + padding[a]:
            o -= 1
        out.append(o)
    return kernel, stride, padding, dilation, out


def _pool_input(x, nsp, padding, out, kernel, stride, dilation, value):
    """x as [N, C, *in] padded on both sides by `padding` and on the high
    side as far as ceil_mode's last window reaches, with `value`."""
    batched = x.dim() == nsp + 2
    if not batched:
        x = x.unsqueeze(0)
    pad = []
    for a in reversed(range(nsp)):
        n = x.shape[2 + a]
        need = (out[a] - 1) * stride[a] + dilation[a] * (kernel[a] - 1) + 1
        hi = max(need - n - padding[a], padding[a])
        pad += [padding[a], hi]
    return _constant_pad_nd(x, pad, value), batched


def _max_pool(x, kernel, stride, padding, dilation, ceil_mode, nsp):
    kernel, stride, padding, dilation, out = _pool_geometry(
        x, kernel, stride, padding, dilation, ceil_mode, nsp)
    xp, batched = _pool_input(x, nsp, padding, out, kernel, stride, dilation,
                              _lowest(x.dtype))
    cols = _patches(xp, kernel, stride, dilation, out)     # [N, C, K, *out]
    # Flat input position of every window element (padding never wins).
    spatial = list(x.shape[x.dim() - nsp:])
    pos = torch.arange(math.prod(spatial), device=x.device).view(1, 1, *spatial)
    posp, _ = _pool_input(pos, nsp, padding, out, kernel, stride, dilation, -1)
    pcols = _patches(posp, kernel, stride, dilation, out)
    vals, k = torch.max(cols, 2, keepdim=True)
    idx = pcols.expand(cols.shape[0], cols.shape[1], *pcols.shape[2:]).gather(2, k)
    vals, idx = vals.squeeze(2), idx.squeeze(2)
    if not batched:
        vals, idx = vals.squeeze(0), idx.squeeze(0)
    return vals, idx


@_register(aten.max_pool1d_with_indices.default)
def _max_pool1d(x, kernel_size, stride=(), padding=(0,), dilation=(1,),
                ceil_mode=False):
    return _max_pool(x, kernel_size, stride, padding, dilation, ceil_mode, 1)


@_register(aten.max_pool2d_with_indices.default)
def _max_pool2d(x, kernel_size, stride=(), padding=(0,), dilation=(1,),
                ceil_mode=False):
    return _max_pool(x, kernel_size, stride, padding, dilation, ceil_mode, 2)


@_register(aten.max_pool3d_with_indices.default)
def _max_pool3d(x, kernel_size, stride=(), padding=(0,), dilation=(1,),
                ceil_mode=False):
    return _max_pool(x, kernel_size, stride, padding, dilation, ceil_mode, 3)


def _avg_pool(x, kernel, stride, padding, ceil_mode, count_include_pad,
              divisor_override, nsp):
    if x.dtype in _REDUCED:   # sums and quotients in float32, as eager's
        return _in_float32(lambda w: _avg_pool(
            w, kernel, stride, padding, ceil_mode, count_include_pad,
            divisor_override, nsp), x.dtype, x)
    kernel, stride, padding, dilation, out = _pool_geometry(
        x, kernel, stride, padding, [1], ceil_mode, nsp)
    xp, batched = _pool_input(x, nsp, padding, out, kernel, stride, dilation, 0)
    cols = _patches(xp, kernel, stride, dilation, out)
    total = cols.sum(2)
    if divisor_override:
        div = torch.full((), float(divisor_override), dtype=x.dtype)
    else:
        # PyTorch's divisor: the window clipped to the padded input
        # (count_include_pad) or to the input itself.
        counts = None
        for a in range(nsp):
            n = x.shape[x.dim() - nsp + a]
            c = []
            for i in range(out[a]):
                s = i * stride[a] - padding[a]
                e = min(s + kernel[a], n + padding[a])
                if not count_include_pad:
                    s, e = max(s, 0), min(e, n)
                c.append(e - s)
            t = torch.tensor(c, dtype=x.dtype).view(
                [len(c) if b == a else 1 for b in range(nsp)])
            counts = t if counts is None else counts * t
        div = counts
    # Integer pools divide in integers, truncating, as eager's kernels do.
    y = total / div if x.is_floating_point() else torch.div(
        total, div, rounding_mode="trunc")
    return y if batched else y.squeeze(0)


@_register(aten.avg_pool1d.default)
def _avg_pool1d(x, kernel_size, stride=(), padding=(0,), ceil_mode=False,
                count_include_pad=True):
    return _avg_pool(x, kernel_size, stride, padding, ceil_mode,
                     count_include_pad, None, 1)


@_register(aten.avg_pool2d.default)
def _avg_pool2d(x, kernel_size, stride=(), padding=(0,), ceil_mode=False,
                count_include_pad=True, divisor_override=None):
    return _avg_pool(x, kernel_size, stride, padding, ceil_mode,
                     count_include_pad, divisor_override, 2)


@_register(aten.avg_pool3d.default)
def _avg_pool3d(x, kernel_size, stride=(), padding=(0,), ceil_mode=False,
                count_include_pad=True, divisor_override=None):
    return _avg_pool(x, kernel_size, stride, padding, ceil_mode,
                     count_include_pad, divisor_override, 3)


def _adaptive_windows(n, o):
    return [((i * n) // o, -(-((i + 1) * n) // o)) for i in range(o)]


def _adaptive_avg(x, output_size, nsp):
    if x.dtype in _REDUCED:   # sums and quotients in float32, as eager's
        return _in_float32(lambda w: _adaptive_avg(w, output_size, nsp),
                           x.dtype, x)
    for a in range(nsp):
        d = x.dim() - nsp + a
        n, o = x.shape[d], output_size[a]
        wins = _adaptive_windows(n, o)
        w = torch.tensor([[s <= j < e for j in range(n)] for s, e in wins])
        cnt = torch.tensor([e - s for s, e in wins], dtype=x.dtype)
        xt = x.movedim(d, -1).unsqueeze(-2)                # [.., 1, n]
        s = torch.where(w, xt, torch.zeros((), dtype=x.dtype)).sum(-1)
        x = (s / cnt).movedim(-1, d)
    return x


@_register(aten.adaptive_max_pool1d.default, aten.adaptive_max_pool2d.default,
           aten.adaptive_max_pool3d.default)
def _adaptive_max(x, output_size):
    """Windows padded to the longest one with -inf; the flat input position
    of the maximum as its index (the first maximum in row-major order, as
    eager's scan finds it, NaN wins). The window is reduced one axis at a
    time from the last: the first maximum of each row, then the first row
    holding the maximum."""
    nsp = len(output_size)
    batched = x.dim() == nsp + 2
    if not batched:
        x = x.unsqueeze(0)
    spatial = list(x.shape[2:])
    pos = torch.arange(math.prod(spatial)).view(1, 1, *spatial).expand(x.shape)
    vals, idx = x, pos
    lowest = torch.full((), _lowest(x.dtype), dtype=x.dtype)
    for a in reversed(range(nsp)):
        d = 2 + a
        n, o = spatial[a], output_size[a]
        wins = _adaptive_windows(n, o)
        k = max(e - s for s, e in wins)
        src = torch.tensor([[min(s + j, e - 1) for j in range(k)]
                            for s, e in wins]).reshape(-1)
        valid = torch.tensor([[s + j < e for j in range(k)] for s, e in wins])
        shape = list(vals.shape)
        shape[d:d + 1] = [o, k]
        v = vals.index_select(d, src).view(shape)
        i = idx.index_select(d, src).view(shape)
        vshape = [1] * len(shape)
        vshape[d], vshape[d + 1] = o, k
        v = torch.where(valid.view(vshape), v, lowest)
        m, am = torch.max(v, d + 1, keepdim=True)
        vals, idx = m.squeeze(d + 1), i.gather(d + 1, am).squeeze(d + 1)
    if not batched:
        vals, idx = vals.squeeze(0), idx.squeeze(0)
    return vals, idx


@_register(aten._adaptive_avg_pool2d.default)
def _adaptive_avg_pool2d(x, output_size):
    return _adaptive_avg(x, output_size, 2)


@_register(aten._adaptive_avg_pool3d.default)
def _adaptive_avg_pool3d(x, output_size):
    return _adaptive_avg(x, output_size, 3)


def _nearest_source(n, o, scale, exact=False, special=False):
    """The input index each of `o` outputs reads along a dim of `n`, by
    PyTorch's CPU rule (nearest_idx / nearest_exact_idx in UpSample.h): the
    scale is a float (1/scale_factor when one is given), the product is
    rounded to float before the floor. Double arithmetic picks a different
    neighbour for some scales (e.g. 7.7)."""
    # Without a scale factor, an output of the input's size is a copy and
    # one of twice it a shift (nearest_idx). With one, eager's kernels
    # differ: a single plane (N * C == 1) in 2-D and 3-D takes the copy or
    # shift too (`special`), several planes and 1-D compute from the scale.
    special = not exact and (scale is None or special)
    if special and o == n:
        return list(range(o))
    if special and o == 2 * n:
        return [i >> 1 for i in range(o)]
    s = (np.float32(1.0 / scale) if scale is not None and scale > 0
         else np.float32(n) / np.float32(o))
    # nearest: float * float; nearest-exact: (i + 0.5) in double times the
    # float scale, rounded to float by floorf's argument.
    pos = [np.float32(np.float32(i) * s) if not exact
           else np.float32((i + 0.5) * np.float64(s)) for i in range(o)]
    return [min(int(math.floor(p)), n - 1) for p in pos]


def _upsample_nearest(x, output_size, scales, nsp, exact=False):
    spatial = x.shape[2:]
    if output_size is None:
        output_size = [int(math.floor(spatial[a] * scales[a])) for a in range(nsp)]
    for a in range(nsp):
        sc = scales[a] if scales else None
        n, o = spatial[a], output_size[a]
        idx = _nearest_source(n, o, sc, exact,
                              special=nsp >= 2 and x.shape[0] * x.shape[1] == 1)
        if o % n == 0 and idx == [i // (o // n) for i in range(o)]:
            # An integer factor repeats each element: a broadcast view,
            # whose gradient is a sum over the repeats (not a scatter).
            d = 2 + a
            shape = list(x.shape)
            x = x.unsqueeze(d + 1).expand(*shape[:d + 1], o // n, *shape[d + 1:])
            x = x.reshape(*shape[:d], o, *shape[d + 1:])
        else:
            x = x.index_select(2 + a, torch.tensor(idx, dtype=torch.int64))
    return x


def _max_unpool(x, indices, output_size):
    """max_unpool: zeros of output_size per (sample, channel) plane with
    each value scattered to its index in the plane (the indices of
    max_pool's return_indices). An index outside the plane is the scatter's
    run-time bounds error, as eager raises one."""
    k = len(output_size)
    batched = x.dim() == k + 2
    if not batched:
        x, indices = x.unsqueeze(0), indices.unsqueeze(0)
    n, c = x.shape[0], x.shape[1]
    plane = math.prod(output_size)
    out = torch.zeros(n, c, plane, dtype=x.dtype).scatter(
        2, indices.reshape(n, c, -1), x.reshape(n, c, -1))
    out = out.view(n, c, *output_size)
    return out if batched else out.squeeze(0)


@_register(aten.max_unpool2d.default)
def _max_unpool2d(x, indices, output_size):
    return _max_unpool(x, indices, output_size)


@_register(aten.max_unpool3d.default)
def _max_unpool3d(x, indices, output_size, stride, padding):
    return _max_unpool(x, indices, output_size)


@_register(aten.upsample_nearest1d.vec)
def _upsample_nearest1d(x, output_size, scale_factors):
    return _upsample_nearest(x, output_size, scale_factors, 1)


@_register(aten.upsample_nearest2d.vec)
def _upsample_nearest2d(x, output_size, scale_factors):
    return _upsample_nearest(x, output_size, scale_factors, 2)


@_register(aten.upsample_nearest3d.vec)
def _upsample_nearest3d(x, output_size, scale_factors):
    return _upsample_nearest(x, output_size, scale_factors, 3)


@_register(aten._upsample_nearest_exact1d.vec)
def _upsample_nearest_exact1d(x, output_size, scale_factors):
    return _upsample_nearest(x, output_size, scale_factors, 1, exact=True)


@_register(aten._upsample_nearest_exact2d.vec)
def _upsample_nearest_exact2d(x, output_size, scale_factors):
    return _upsample_nearest(x, output_size, scale_factors, 2, exact=True)


@_register(aten._upsample_nearest_exact3d.vec)
def _upsample_nearest_exact3d(x, output_size, scale_factors):
    return _upsample_nearest(x, output_size, scale_factors, 3, exact=True)


def _aa_filter_linear(x: float) -> float:
    x = abs(x)
    return 1.0 - x if x < 1.0 else 0.0


def _aa_filter_cubic(x: float) -> float:
    """Keys' cubic convolution with a = -0.5 (PIL's, as eager's)."""
    a, x = -0.5, abs(x)
    if x < 1.0:
        return ((a + 2) * x - (a + 3)) * x * x + 1
    if x < 2.0:
        return ((a * x - 5 * a) * x + 8 * a) * x - 4 * a
    return 0.0


def _aa_taps(n: int, o: int, align_corners: bool, scale, support: float,
             kernel):
    """Antialiased resampling along one dim as ([o, taps] source indices,
    [o, taps] weights): output i weighs the inputs within `support`
    (scaled when downsampling) of its centre with the filter `kernel`
    stretched by the scale, normalized to sum 1 (eager's
    _compute_weights_aa); rows shorter than `taps` end in zero weights."""
    if align_corners:
        s = (n - 1) / (o - 1) if o > 1 else 0.0
    else:
        s = 1.0 / scale if scale is not None and scale > 0 else n / o
    reach = support * s if s >= 1.0 else support
    inv = 1.0 / s if s >= 1.0 else 1.0
    rows = []
    for i in range(o):
        center = s * (i + 0.5)
        lo = max(int(center - reach + 0.5), 0)
        hi = min(int(center + reach + 0.5), n)
        w = [kernel((j - center + 0.5) * inv) for j in range(lo, hi)]
        total = sum(w)
        rows.append((lo, [v / total if total != 0.0 else v for v in w]))
    taps = max(1, max(len(w) for _, w in rows))
    index = np.array([[min(lo + t, n - 1) for t in range(taps)] for lo, _ in rows])
    weight = np.array([w + [0.0] * (taps - len(w)) for _, w in rows])
    return index, weight


def _resample(x, dim: int, index: np.ndarray, weight: np.ndarray):
    """sum_t weight[i, t] * x[..., index[i, t], ...] along `dim`: a gather
    of the few taps each output reads (the weight matrix is banded)."""
    o, taps = index.shape
    g = x.index_select(dim, torch.tensor(index.reshape(-1), dtype=torch.int64))
    g = g.unflatten(dim, (o, taps))
    shape = [1] * g.dim()
    shape[dim], shape[dim + 1] = o, taps
    return (g * torch.tensor(weight, dtype=x.dtype).view(shape)).sum(dim + 1)


def _upsample_aa(x, output_size, align_corners, scale_factors, support, kernel):
    """interpolate(..., antialias=True) of a 4-D input: linear in x with
    weights that depend on the sizes only, applied per spatial dim as a
    gather of each output's taps (eager's separable passes; the sums are
    reassociated, within float32 rounding of eager's)."""
    h, w = x.shape[2], x.shape[3]
    if output_size is None:
        output_size = [int(math.floor(h * scale_factors[0])),
                       int(math.floor(w * scale_factors[1]))]
    if min(output_size) <= 0:
        raise RuntimeError(f"Input and output sizes should be greater than 0, "
                           f"but got input (H: {h}, W: {w}) output "
                           f"(H: {output_size[0]}, W: {output_size[1]})")
    scales = scale_factors or [None, None]
    for dim, n, o, sc in ((3, w, output_size[1], scales[1]),
                          (2, h, output_size[0], scales[0])):
        x = _resample(x, dim, *_aa_taps(n, o, align_corners, sc, support, kernel))
    return x


@_register(aten._upsample_bilinear2d_aa.vec)
def _upsample_bilinear2d_aa(x, output_size, align_corners, scale_factors):
    return _upsample_aa(x, output_size, align_corners, scale_factors, 1.0,
                        _aa_filter_linear)


@_register(aten._upsample_bicubic2d_aa.vec)
def _upsample_bicubic2d_aa(x, output_size, align_corners, scale_factors):
    return _upsample_aa(x, output_size, align_corners, scale_factors, 2.0,
                        _aa_filter_cubic)


def _cubic_taps(n: int, o: int, align_corners: bool, scale):
    """Bicubic resampling along one dim as ([o, 4] source indices, [o, 4]
    weights), by eager's rule (UpSampleBicubic2d.cpp): the source
    coordinate without clamping, its floor and fraction t, the four inputs
    from floor - 1 clamped to the dim, Keys' coefficients with A = -0.75.
    In double: PyTorch's reference decomposition computed t in float32,
    ~1e-7 off for float64 inputs."""
    if align_corners:
        s = (n - 1) / (o - 1) if o > 1 else 0.0
    else:
        s = 1.0 / scale if scale is not None and scale > 0 else n / o
    a = -0.75

    def near(v):        # |v| <= 1
        return ((a + 2) * v - (a + 3)) * v * v + 1

    def far(v):         # 1 < |v| < 2
        return ((a * v - 5 * a) * v + 8 * a) * v - 4 * a
    index, weight = [], []
    for i in range(o):
        real = s * i if align_corners else s * (i + 0.5) - 0.5
        lo = math.floor(real)
        t = real - lo
        index.append([min(max(lo - 1 + k, 0), n - 1) for k in range(4)])
        weight.append([far(t + 1), near(t), near(1 - t), far(2 - t)])
    return np.array(index), np.array(weight)


def _upsample_bicubic(x, output_size, align_corners, scales):
    h, w = x.shape[2], x.shape[3]
    if output_size is None:
        output_size = [int(math.floor(h * scales[0])), int(math.floor(w * scales[1]))]
    scales = scales or [None, None]
    # Along x, then y, as eager's kernel interpolates.
    for dim, n, o, sc in ((3, w, output_size[1], scales[1]),
                          (2, h, output_size[0], scales[0])):
        x = _resample(x, dim, *_cubic_taps(n, o, align_corners, sc))
    return x


@_register(aten.upsample_bicubic2d.vec)
def _upsample_bicubic2d_vec(x, output_size, align_corners, scale_factors):
    return _upsample_bicubic(x, output_size, align_corners, scale_factors)


@_register(aten.upsample_bicubic2d.default)
def _upsample_bicubic2d(x, output_size, align_corners, scales_h=None,
                        scales_w=None):
    return _upsample_bicubic(x, output_size, align_corners, [scales_h, scales_w])


def _upsample_linear(x, output_size, align_corners, scales, nsp):
    """Separable linear interpolation per spatial dim, with PyTorch's
    source-index rule (area_pixel_compute_source_index). Half types
    interpolate in float32 and round once, as eager's kernel computes in
    its opmath type (rounding each pass and the coordinates to bfloat16
    doubled the error)."""
    if x.dtype in (torch.float16, torch.bfloat16):
        return _upsample_linear(x.float(), output_size, align_corners, scales,
                                nsp).to(x.dtype)
    spatial = x.shape[2:]
    if output_size is None:
        output_size = [int(math.floor(spatial[a] * scales[a])) for a in range(nsp)]
    for a in range(nsp):
        n, o = spatial[a], output_size[a]
        sc = scales[a] if scales else None
        if align_corners:
            ratio = (n - 1) / (o - 1) if o > 1 else 0.0
        else:
            ratio = (1.0 / sc) if sc else n / o
        # The source coordinates are computed in x's type, as PyTorch's
        # kernel computes them in its opmath type.
        dst = torch.arange(o, dtype=x.dtype)
        src = dst * ratio if align_corners else torch.clamp(
            (dst + 0.5) * ratio - 0.5, min=0.0)
        lo = torch.clamp(torch.floor(src).to(torch.int64), max=n - 1)
        hi = torch.clamp(lo + 1, max=n - 1)
        d = 2 + a
        shape = [o if b == d else 1 for b in range(x.dim())]
        w1 = (src - lo.to(x.dtype)).view(shape)
        w0 = 1 - w1
        x = x.index_select(d, lo) * w0 + x.index_select(d, hi) * w1
    return x


@_register(aten.upsample_linear1d.vec)
def _upsample_linear1d(x, output_size, align_corners, scale_factors):
    return _upsample_linear(x, output_size, align_corners, scale_factors, 1)


@_register(aten.upsample_bilinear2d.vec)
def _upsample_bilinear2d(x, output_size, align_corners, scale_factors):
    return _upsample_linear(x, output_size, align_corners, scale_factors, 2)


@_register(aten.upsample_trilinear3d.vec)
def _upsample_trilinear3d(x, output_size, align_corners, scale_factors):
    return _upsample_linear(x, output_size, align_corners, scale_factors, 3)


# ---------------------------------------------------------------------------
# Miscellaneous (all exact except where they do arithmetic)
# ---------------------------------------------------------------------------

@_register(aten.fill.Tensor)
def _fill_tensor(x, value):
    """x.fill_(t) / x[...] = t with a 0-dim tensor t (functionalized): t,
    converted to x's dtype, at every position."""
    if value.dim() != 0:
        raise RuntimeError(f"fill_ only supports 0-dimension value tensor but "
                           f"got tensor with {value.dim()} dimensions.")
    return value.to(x.dtype).expand(x.shape).clone()


@_register(aten.detach_.default)
def _detach_(x):
    return x


@_register(aten.isinf.default)
def _isinf(x):
    if not x.is_floating_point():
        return torch.zeros(x.shape, dtype=torch.bool)
    return x.abs() == math.inf


@_register(aten.isfinite.default)
def _isfinite(x):
    if not x.is_floating_point():
        return torch.ones(x.shape, dtype=torch.bool)
    return ~(torch.isnan(x) | _isinf(x))


@_register(aten.isposinf.default)
def _isposinf(x):
    if not x.is_floating_point():
        return torch.zeros(x.shape, dtype=torch.bool)
    return x == math.inf


@_register(aten.isneginf.default)
def _isneginf(x):
    if not x.is_floating_point():
        return torch.zeros(x.shape, dtype=torch.bool)
    return x == -math.inf


@_register(aten.repeat.default)
def _repeat(x, repeats):
    lead = len(repeats) - x.dim()
    shape = [1] * lead + list(x.shape)
    inter, expanded, final = [], [], []
    for r, s in zip(repeats, shape):
        inter += [1, s]
        expanded += [r, s]
        final.append(r * s)
    return x.reshape(inter).expand(expanded).reshape(final)


@_register(aten.linalg_vector_norm.default)
def _vector_norm(x, ord=2, dim=None, keepdim=False, dtype=None):
    if dtype is not None:
        x = x.to(dtype)
    dims = [] if dim is None else ([dim] if isinstance(dim, int) else list(dim))
    if x.dtype in (torch.float16, torch.bfloat16) and ord not in (
            math.inf, -math.inf, 0):
        # The powers' sum in float32, rounded once: in float16 it
        # overflowed (100000 ones' 2-norm, 316, came out inf).
        return _vector_norm(x.float(), ord, dim, keepdim).to(x.dtype)
    a = x.abs()
    if ord == math.inf:
        return torch.amax(a, dims, keepdim=keepdim)
    if ord == -math.inf:
        return torch.amin(a, dims, keepdim=keepdim)
    if ord == 0:
        return torch.sum((x != 0).to(x.dtype), dims, keepdim=keepdim)
    if ord == 1:
        return torch.sum(a, dims, keepdim=keepdim)
    if ord == 2:
        return _norm_root(torch.sum(a * a, dims, keepdim=keepdim), 2)
    if ord < 1:
        # |x|^ord has an infinite slope at 0, where eager's norm_backward
        # masks the gradient to 0 (the zero vector's norm, or one zero
        # entry of a 1/2-norm): the power of 0 is taken of 1 and selected.
        zero = a == 0
        safe = torch.where(zero, torch.ones((), dtype=a.dtype), a)
        terms = torch.where(zero, torch.pow(a, ord).detach(), torch.pow(safe, ord))
        return _norm_root(torch.sum(terms, dims, keepdim=keepdim), ord)
    return _norm_root(torch.sum(torch.pow(a, ord), dims, keepdim=keepdim), ord)


def _norm_root(s, ord):
    """s^(1/ord) of a sum of |x|^ord, with eager's subgradient 0 where the
    norm is 0 (its norm_backward masks it): the root's derivative is
    infinite at 0 and |x|^ord's is 0 there, which chained naively gives NaN
    (a zero row's norm, a point's distance to itself). The root of 0 is
    taken of 1 and replaced by 0, so neither where's branch is infinite;
    other values are bitwise the plain root's."""
    if ord <= 0:
        return torch.pow(s, 1.0 / ord)
    zero = s == 0
    safe = torch.where(zero, torch.ones((), dtype=s.dtype), s)
    root = torch.sqrt(safe) if ord == 2 else torch.pow(safe, 1.0 / ord)
    return torch.where(zero, torch.zeros((), dtype=s.dtype), root)


@_register(aten.norm.ScalarOpt_dim, aten.norm.Scalar, aten.norm.ScalarOpt_dtype,
           aten.norm.ScalarOpt_dim_dtype)
def _norm(x, p=2, dim=None, keepdim=False, dtype=None):
    if isinstance(p, str):
        raise NotImplementedError(f"norm with p={p!r}")
    return _vector_norm(x, 2 if p is None else p, dim or None, keepdim, dtype)


@_register(aten.dist.default)
def _dist(a, b, p=2):
    return _vector_norm(a - b, p)


@_register(aten.huber_loss.default)
def _huber_loss(x, y, reduction=1, delta=1.0):
    d = (x - y).abs()
    # The square reads d only where it is selected: at an infinite d its
    # unselected derivative, 0 * inf, made the gradient NaN (eager: +-delta).
    quadratic = d < delta
    q = torch.where(quadratic, d, torch.zeros((), dtype=d.dtype))
    loss = torch.where(quadratic, 0.5 * q * q, delta * (d - 0.5 * delta))
    return _reduce(loss, reduction)


def _reduce(loss, reduction):
    if reduction == 1:
        return loss.mean()
    if reduction == 2:
        return loss.sum()
    return loss


def _bce_with_logits(x, target, weight=None, pos_weight=None, reduction=1):
    """PyTorch's formula (eager's kernel's) for the values and the target's
    and weights' gradients, with eager's input gradient
    (c sigmoid(x) - p) weight, p = pos_weight t (t without pos_weight) and
    c = p + 1 - t, and its derivative as the second: differentiating the
    formula gave (1 - t) - sigmoid(-x), which cancels for negative x (all
    bits lost from x = -17 on, NaN at -inf). An infinite x's gradient is
    0 (eager's: 1 - t at +inf)."""
    xd = x.detach()
    max_val = (-xd).clamp_min(0)
    soft = ((-max_val).exp() + (-xd - max_val).exp()).log()
    sig = torch.sigmoid(xd)
    if pos_weight is not None:
        loss = (1 - target) * xd + ((pos_weight - 1) * target + 1) * (soft + max_val)
        p = pos_weight * target
        c = p + 1 - target
        slope = c * sig - p
    else:
        loss = (1 - target) * xd + max_val + soft
        c = None
        slope = sig - target
    curvature = sig * (1 - sig) if c is None else c * sig * (1 - sig)
    if weight is not None:
        loss = loss * weight
        slope, curvature = slope * weight, curvature * weight
    # u = x - x.detach(): 0 with derivative 1; 0 where x is infinite (inf
    # - inf is NaN, which the product rule would carry into the gradient).
    u = torch.where(torch.isfinite(xd), x - xd, torch.zeros((), dtype=xd.dtype))
    t = u * (slope.detach() + u * (curvature.detach() * 0.5))
    # loss - +0 keeps a zero's sign.
    return _reduce(loss - (t.detach() - t), reduction)


#: EPSILON of eager's binary_cross_entropy_backward, a float constant
#: (also for float64): the denominator (1 - x) x of its gradient is at
#: least this.
_BCE_EPSILON = float(np.float32(1e-12))


def _bce_terms(x, t):
    """The loss per element: (t - 1) max(log(1 - x), -100) - t max(log x,
    -100), PyTorch's reference formula (eager's within its rounding)."""
    floor = torch.full((), -100.0, dtype=x.dtype)
    return (t - 1) * torch.maximum(torch.log(1 - x), floor) \
        - t * torch.maximum(torch.log(x), floor)


@_register(aten.binary_cross_entropy.default)
def _binary_cross_entropy(x, t, weight=None, reduction=1):
    """Binary cross entropy with eager's gradients. Eager's gradient of x
    is (x - t) / max((1 - x) x, 1e-12) and of t log(1 - x) - log(x); the
    analytic derivative of the formula is the same where (1 - x) x >= 1e-12
    but NaN at a saturated prediction (x = 0 or 1, a sigmoid of a logit
    above 17 in float32: 0 * (1 / 0) through the clamp). So the formula
    runs on x only there; where eager clamps, the value is the formula's on
    detached x, and x's gradient is eager's from (x - x.detach()) times
    eager's (x - t) / 1e-12, detached: a term that is 0, whose first
    derivative is eager's bit for bit and whose second is eager's 0.
    t's gradient there is the formula's, with the logs clamped at -100
    (eager's is unclamped: +-inf at x = 0 or 1, which no finite loss
    value can carry). float16 (which eager does not implement) forms the
    slope in float32: 1 / 1e-12 overflows float16."""
    clamped = (1 - x) * x < _BCE_EPSILON
    xd, td = x.detach(), t.detach()
    half = torch.full((), 0.5, dtype=x.dtype)
    inside = _bce_terms(torch.where(clamped, half, x), t)
    wide = torch.float32 if x.dtype == torch.float16 else x.dtype
    zero = torch.zeros((), dtype=wide)
    slope = torch.where(clamped, (xd - td).to(wide) / _BCE_EPSILON, zero)
    edge = ((x - xd).to(wide) * slope).to(x.dtype)
    loss = torch.where(clamped, _bce_terms(xd, t) + edge, inside)
    if weight is not None:
        loss = loss * weight
    return _reduce(loss, reduction)


@_register(aten.celu.default)
def _celu(x, alpha=1.0):
    """ATen's own definition, elu(x, alpha, 1, 1 / alpha): tp.elu's
    gradient masks the unused branch. PyTorch's reference decomposition
    differentiates where(x > 0, x, alpha * expm1(x / alpha)), whose
    unused expm1 overflows for large x (celu(100, 0.5) in float32) and
    gives 0 * inf = NaN."""
    return torch.ops.aten.elu(x, alpha, 1.0, 1.0 / float(alpha))


@_register(aten.prelu.default)
def _prelu(x, w):
    if w.numel() != 1 and x.dim() >= 2:
        w = w.view([1, w.numel()] + [1] * (x.dim() - 2))
    return torch.where(x > 0, x, w * x)


@_register(aten.hypot.default)
def _hypot(a, b):
    """sqrt(a^2 + b^2), as eager's std::hypot without its overflow and
    underflow: where the larger magnitude m is so large that a square
    overflows (hypot(3e30, 4e30) in float32 is 5e30, not inf) or so small
    that the squares lose bits below the smallest normal, the operands are
    scaled by a power of two s first, sqrt((s a)^2 + (s b)^2) / s: the
    plain formula's roundings, exactly rescaled, and a derivative that
    neither underflows nor overflows (the rescaled m sqrt(1 + (n / m)^2)
    differentiated n / m^2 to inf at a subnormal m, and the plain
    formula's unselected root of an underflowed sum made NaN).
    hypot(nan, inf) is inf."""
    dtype = torch.result_type(a, b)
    if not dtype.is_floating_point:
        return torch.sqrt(a * a + b * b)
    if dtype in _REDUCED:   # in float32, rounded once, as eager's
        return _in_float32(_hypot, dtype, a, b)
    a, b = a.to(dtype), b.to(dtype)
    info = torch.finfo(dtype)
    big = torch.maximum(a.abs(), b.abs())
    # Scales s (below: the bound on m each applies under) that bring the
    # squares of s m into the normal range (what a scaled-down smaller
    # operand loses is below the larger one's rounding) and keep the
    # backward's 1 / (2 s^2 hypot) normal too (one s for all the tiny
    # values left it subnormal: a gradient 0.7% off at 1e-17). tiers:
    # (bound on m, s), from the widest bound to the narrowest.
    if dtype == torch.float32:
        tiers = [(2.0 ** -80, 2.0 ** 90), (2.0 ** -110, 2.0 ** 110)]
        first, down = 2.0 ** 60, 2.0 ** -70
    else:
        tiers = [(2.0 ** -750, 2.0 ** 800)]
        first, down = 2.0 ** 500, 2.0 ** -600
    tiers.insert(0, (math.sqrt(info.tiny / info.eps), first))
    full = lambda v: torch.full((), v, dtype=dtype)  # noqa: E731
    huge = (big > math.sqrt(info.max) / 2) & torch.isfinite(big)
    s = torch.where(huge, full(down), full(1.0))
    for bound, scale in tiers:
        s = torch.where((big < bound) & (big > 0), full(scale), s)
    sa, sb = a * s, b * s
    r = torch.sqrt(sa * sa + sb * sb) / s
    # An infinite operand makes +inf even beside a NaN (C's hypot).
    infinite = torch.isinf(a) | torch.isinf(b)
    return torch.where(infinite, torch.full((), math.inf, dtype=dtype), r)


# Euclid's loop, unrolled for the longest run a dtype allows: consecutive
# Fibonacci numbers take the most steps (Lame), 92 below 2**63.
_GCD_STEPS = {8: 13, 16: 25, 32: 48, 64: 94}


@_register(aten.gcd.default)
def _gcd(a, b):
    """Eager's loop: a, b = |a|, |b|; while a != 0: a, b = b % a, a (C's
    truncating %, wrapping |INT_MIN|); every element runs the steps of the
    longest chain, a finished one (a == 0) keeping b."""
    dtype = torch.result_type(a, b)
    a, b = torch.broadcast_tensors(a.to(dtype), b.to(dtype))
    zero, one = (torch.full((), v, dtype=dtype) for v in (0, 1))
    x, y = a.abs(), b.abs()
    for _ in range(_GCD_STEPS[torch.iinfo(a.dtype).bits]):
        running = x != 0
        r = torch.fmod(y, torch.where(running, x, one))
        x, y = torch.where(running, r, zero), torch.where(running, x, y)
    return y


@_register(aten.lcm.default)
def _lcm(a, b):
    """Eager's |a / gcd * b| (truncating division, wrapping product), 0
    where the gcd is. C promotes 8- and 16-bit operands to int: the product
    and its absolute value are taken in int32, then truncated."""
    g = _gcd(a, b)
    zero, one = (torch.full((), v, dtype=g.dtype) for v in (0, 1))
    q = torch.div(a, torch.where(g == 0, one, g), rounding_mode="trunc")
    wide = torch.int32 if torch.iinfo(g.dtype).bits < 32 else g.dtype
    lcm = (q.to(wide) * b.to(wide)).abs().to(g.dtype)
    return torch.where(g == 0, zero, lcm)


@_register(aten.nan_to_num.default)
def _nan_to_num(x, nan=None, posinf=None, neginf=None):
    if not x.is_floating_point():
        return x.clone()
    fi = torch.finfo(x.dtype)
    nan = 0.0 if nan is None else nan
    posinf = fi.max if posinf is None else posinf
    neginf = fi.min if neginf is None else neginf
    full = lambda v: torch.full((), v, dtype=x.dtype)  # noqa: E731
    x = torch.where(torch.isnan(x), full(nan), x)
    x = torch.where(x == math.inf, full(posinf), x)
    return torch.where(x == -math.inf, full(neginf), x)


@_register(aten.lerp.Scalar)
def _lerp(a, b, weight):
    """Eager's kernel: a + w (b - a) where w < 0.5 (not |w|), else
    b - (b - a)(1 - w), w and 1 - w held in the tensors' type (0.3 as a
    double, or 1 - w in double, rounded float32 results differently), and
    each product and sum one fused multiply-add, as the compiler contracts
    eager's expression: in float32 emulated in float64, where the product
    of two float32 values is exact and the sum rounds once to float64 and
    once to float32 (a fused one's single rounding but at ties 2^-29 ulp
    apart). float16 and bfloat16 in float32, rounded once, as eager's."""
    dtype = torch.result_type(a, b)
    if dtype in _REDUCED:
        return _in_float32(lambda p, q: _lerp(p, q, weight), dtype, a, b)
    if dtype.is_complex or isinstance(weight, complex):
        d = b - a
        return a + weight * d if abs(weight) < 0.5 else b - d * (1 - weight)
    held = np.float32 if dtype == torch.float32 else np.float64
    w = held(weight)
    return _lerp_fused(a, b, bool(w < 0.5), float(w), float(held(1) - w))


def _lerp_fused(a, b, small, w, rest):
    """a + w (b - a) where small, else b - (b - a) rest: float32 through
    float64 (see _lerp); w and rest are numbers or tensors of a's type."""
    dtype = a.dtype
    d = b - a
    if dtype == torch.float32:
        a, b, d = a.double(), b.double(), d.double()
        if isinstance(w, torch.Tensor):
            w, rest = w.double(), rest.double()
    if isinstance(small, bool):
        r = a + w * d if small else b - d * rest
    else:
        r = torch.where(small, a + w * d, b - d * rest)
    return r.to(dtype)


@_register(aten.lerp.Tensor)
def _lerp_t(a, b, weight):
    dtype = torch.result_type(a, b)
    if dtype in _REDUCED:
        return _in_float32(_lerp_t, dtype, a, b, weight)
    if dtype.is_complex:
        d = b - a
        return torch.where(weight.abs() < 0.5, a + weight * d,
                           b - d * (1 - weight))
    weight = weight.to(dtype)
    return _lerp_fused(a, b, weight < 0.5, weight, 1 - weight)


@_register(aten.angle.default)
def _angle(x):
    if not x.is_floating_point():
        x = x.to(torch.get_default_dtype())
    r = torch.where(x < 0, torch.full((), math.pi, dtype=x.dtype),
                    torch.zeros((), dtype=x.dtype))
    return torch.where(torch.isnan(x), x, r)


@_register(aten.aminmax.default)
def _aminmax(x, dim=None, keepdim=False):
    dims = [] if dim is None else [dim]
    lo, hi = torch.amin(x, dims, keepdim), torch.amax(x, dims, keepdim)
    if x.dim() == 0 and dim is not None and keepdim:
        # Eager's kernel resizes its 0-d outputs to [1] here.
        lo, hi = lo.reshape(1), hi.reshape(1)
    return lo, hi


@_register(aten.narrow_copy.default)
def _narrow_copy(x, dim, start, length):
    return x.narrow(dim, start, length).clone()


@_register(aten.take.default)
def _take(x, index):
    n = x.numel()
    i = torch.where(index < 0, index + n, index)
    return x.reshape(-1).index_select(0, i.reshape(-1)).view(index.shape)


@_register(aten.put.default)
def _put(x, index, source, accumulate=False):
    n = x.numel()
    i = torch.where(index < 0, index + n, index).reshape(-1)
    return x.reshape(-1).index_put([i], source.reshape(-1),
                                   accumulate).view(x.shape)


@_register(aten.unfold.default)
def _unfold(x, dim, size, step):
    if x.dim() == 0:
        return x.unsqueeze(0)
    d = _dim(dim, x.dim())
    n = (x.shape[d] - size) // step + 1
    idx = torch.tensor([w * step + k for w in range(n) for k in range(size)],
                       dtype=torch.int64)
    t = x.index_select(d, idx)
    shape = list(x.shape)
    shape[d:d + 1] = [n, size]
    return t.view(shape).movedim(d + 1, -1)


def _pad_index(n, lo, hi, mode):
    out = []
    for i in range(-lo, n + hi):
        if mode == "reflect":
            j = abs(i)
            j = 2 * (n - 1) - j if j > n - 1 else j
        elif mode == "replicate":
            j = min(max(i, 0), n - 1)
        else:  # circular
            j = i % n
        out.append(j)
    return torch.tensor(out, dtype=torch.int64)


def _index_pad(x, pad, mode):
    for k in range(len(pad) // 2):
        d = x.dim() - 1 - k
        x = x.index_select(d, _pad_index(x.shape[d], pad[2 * k],
                                         pad[2 * k + 1], mode))
    return x


for _n in (1, 2, 3):
    DECOMPOSITIONS[getattr(aten, f"reflection_pad{_n}d").default] = \
        lambda x, pad: _index_pad(x, pad, "reflect")
    DECOMPOSITIONS[getattr(aten, f"replication_pad{_n}d").default] = \
        lambda x, pad: _index_pad(x, pad, "replicate")


@_register(aten.masked_scatter.default)
def _masked_scatter(x, mask, source):
    shape = torch.broadcast_shapes(x.shape, mask.shape)
    m = mask.expand(shape).reshape(-1)
    pos = _cumsum(m, 0) - 1
    pos = torch.clamp(pos, min=0)
    vals = source.reshape(-1)[pos]
    return torch.where(m, vals, x.expand(shape).reshape(-1)).view(shape)


@_register(aten.isin.Tensor_Tensor)
def _isin(elements, test_elements, assume_unique=False, invert=False):
    r = (elements.unsqueeze(-1) == test_elements.reshape(-1)).any(-1)
    return ~r if invert else r


def _binary_search(s, x, right):
    """eager's binary search of each value of x in the last dim of s (s
    1-D, or with x's leading dims): start = mid + 1 where not
    (s[mid] > x) (right) or not (s[mid] >= x), else end = mid, until
    start == end, one step per bit of the length, finished searches
    kept. Any comparison with NaN moves right, as there: a NaN value's
    bucket is the last, and a NaN boundary (sorted last) counts as below
    a value only where the search probes it (b = [0, 1, 2, nan] puts 5
    in bucket 4 but -1 in 0; counting every boundary below put -1 in
    1)."""
    m = s.shape[-1]
    start = torch.zeros(x.shape, dtype=torch.int64)
    end = torch.full(x.shape, m, dtype=torch.int64)
    if m == 0:
        return start
    flat = s.dim() == 1
    for _ in range(m.bit_length()):
        mid = start + torch.div(end - start, 2, rounding_mode="floor")
        probe = torch.clamp(mid, max=m - 1)   # mid = m once finished
        # (index_select: a 0-d index tensor would index as a number.)
        v = s.index_select(0, probe.reshape(-1)).reshape(probe.shape) \
            if flat else torch.gather(s, -1, probe)
        below = ~(v > x) if right else ~(v >= x)
        running = start < end
        start = torch.where(running & below, mid + 1, start)
        end = torch.where(running & ~below, mid, end)
    return start


@_register(aten.bucketize.Tensor)
def _bucketize(x, boundaries, out_int32=False, right=False):
    r = _binary_search(boundaries.reshape(-1), x, right)
    return r.to(torch.int32 if out_int32 else torch.int64)


@_register(aten.searchsorted.Tensor)
def _searchsorted(sorted_seq, x, out_int32=False, right=False, side=None,
                  sorter=None):
    if sorter is not None:
        sorted_seq = sorted_seq.gather(-1, sorter)
    if side is not None:
        right = side == "right"
    if sorted_seq.dim() == 1:
        return _bucketize(x, sorted_seq, out_int32, right)
    r = _binary_search(sorted_seq, x, right)
    return r.to(torch.int32 if out_int32 else torch.int64)


@_register(aten.block_diag.default)
def _block_diag(tensors):
    mats = [t.reshape(1, -1) if t.dim() < 2 else t for t in tensors]
    mats = [t.reshape(1, 1) if t.dim() == 0 else t for t in mats]
    dtype = mats[0].dtype
    for t in mats[1:]:
        dtype = torch.promote_types(dtype, t.dtype)
    cols = sum(t.shape[1] for t in mats)
    rows, c = [], 0
    for t in mats:
        rows.append(_constant_pad_nd(t.to(dtype), [c, cols - c - t.shape[1]], 0))
        c += t.shape[1]
    return torch.cat(rows, 0)


@_register(aten._cdist_forward.default)
def _cdist(x1, x2, p, compute_mode=None):
    d = x1.unsqueeze(-2) - x2.unsqueeze(-3)
    if p == math.inf:
        return _max_distance(d)
    return _vector_norm(d, p, -1)


def _max_distance(d):
    """max |d| over the last dim, with eager's cdist_backward for p = inf:
    the gradient times sign(d) goes to every coordinate that attains the
    maximum, in full (the infinity norm's own rule splits it among ties).
    The value is the max; the derivative flows through a zero-valued sum
    (as _with_slope's), selected to the maximal coordinates."""
    a = d.abs()
    dist = torch.amax(a, -1)
    at_max = a == dist.unsqueeze(-1)
    u = d - d.detach()
    t = torch.where(at_max, u * torch.sign(d).detach(), torch.zeros((), dtype=d.dtype))
    t = t.sum(-1)
    return dist.detach() - (t.detach() - t)


# ---------------------------------------------------------------------------
# Index variants (index_put along one dim of x moved first)
# ---------------------------------------------------------------------------

def _along(x, dim, fn):
    if x.dim() == 0:
        return fn(x.reshape(1), 0).reshape(())
    d = _dim(dim, x.dim())
    return fn(x.movedim(d, 0), d).movedim(0, d)


def _without_wrap(index, n):
    """`index` for index_put, which wraps negative indices as x[i] does,
    where eager refuses them (index_add, index_copy): checked to lie in
    [0, n) first, so that the run-time error names the index passed."""
    return _bounds_checked(index, n)


def _bounds_checked(index, n):
    """`index` unchanged, checked to lie in [0, n) at run time (an
    index_select of zeros, which neither wraps nor drops, added to it):
    scatter_reduce's comparison with each position would silently drop an
    index eager refuses."""
    zeros = torch.zeros(n, dtype=index.dtype)
    return index + zeros.index_select(0, index.reshape(-1)).view(index.shape)


@_register(aten.index_copy.default)
def _index_copy(x, dim, index, source):
    return _along(x, dim, lambda xt, d: xt.index_put(
        [_without_wrap(index.reshape(-1), xt.shape[0])],
        source.reshape(-1) if source.dim() == 0
        else source.movedim(d, 0) if x.dim() else source.reshape(-1)))


@_register(aten.index_fill.int_Scalar, aten.index_fill.int_Tensor)
def _index_fill(x, dim, index, value):
    v = value if isinstance(value, torch.Tensor) else torch.tensor(value, dtype=x.dtype)
    return _along(x, dim, lambda xt, d: xt.index_put(
        [index.reshape(-1)], v.to(x.dtype)))


@_register(aten.index_add.default)
def _index_add(x, dim, index, source, alpha=1):
    def add(xt, d):
        s = source.movedim(d, 0) if source.dim() else source.reshape(1)
        if alpha != 1:
            s = s * alpha
        return xt.index_put([_without_wrap(index.reshape(-1), xt.shape[0])],
                            s, accumulate=True)
    return _along(x, dim, add)


# ---------------------------------------------------------------------------
# Losses, activations and special functions
# ---------------------------------------------------------------------------

@_register(aten.smooth_l1_loss.default)
def _smooth_l1_loss(x, y, reduction=1, beta=1.0):
    dtype = torch.result_type(x, y)
    if dtype == torch.bfloat16:
        # Each loss in float32, rounded once, as eager's bfloat16 kernel
        # (its float16 one rounds every step, as the formula in float16).
        return _reduce(_in_float32(
            lambda p, q: _smooth_l1_loss(p, q, 0, beta), dtype, x, y),
            reduction)
    if beta == 0:
        # |x - y|, differentiated as eager's kernel branches: x - y <= -0
        # takes -grad, so a zero difference gets -1, not abs's 0; the
        # value there stays +0.
        diff = x - y
        loss = torch.where(diff <= 0, -diff, diff)
        return _reduce(_positive_zero_where(loss, diff == 0), reduction)
    d = (x - y).abs()
    # As huber_loss's: the square of d only where it is selected.
    quadratic = d < beta
    q = torch.where(quadratic, d, torch.zeros((), dtype=d.dtype))
    loss = torch.where(quadratic, 0.5 * q * q / beta, d - 0.5 * beta)
    return _reduce(loss, reduction)


@_register(aten.count_nonzero.dim_IntList)
def _count_nonzero(x, dim):
    return (x != 0).sum(list(dim))


@_register(aten.count_nonzero.default)
def _count_nonzero_default(x, dim=None):
    return (x != 0).sum([] if dim is None else [dim])


@_register(aten.pixel_shuffle.default)
def _pixel_shuffle(x, r):
    *lead, c, h, w = x.shape
    y = x.reshape(*lead, c // (r * r), r, r, h, w)
    n = len(lead)
    y = y.permute(*range(n), n, n + 3, n + 1, n + 4, n + 2)
    return y.reshape(*lead, c // (r * r), h * r, w * r)


@_register(aten.pixel_unshuffle.default)
def _pixel_unshuffle(x, r):
    *lead, c, h, w = x.shape
    y = x.reshape(*lead, c, h // r, r, w // r, r)
    n = len(lead)
    y = y.permute(*range(n), n, n + 2, n + 4, n + 1, n + 3)
    return y.reshape(*lead, c * r * r, h // r, w // r)


@_register(aten.channel_shuffle.default)
def _channel_shuffle(x, groups):
    """nn.ChannelShuffle: channels as [groups, C / groups], transposed."""
    n, c = x.shape[0], x.shape[1]
    rest = list(x.shape[2:])
    y = x.reshape(n, groups, c // groups, *rest).transpose(1, 2)
    return y.reshape(n, c, *rest)


# Overloads taking a Python number for a tensor operand: the number as a
# 0-d tensor, then the Tensor one. The 0-d tensor has the type eager's
# wrapped number promotes to beside `partner` (a plain torch.tensor(2.0)
# would widen a 0-d float16 partner to float32).

def _wrapped(number, partner, to_float=False):
    """`number` as a 0-d tensor of the op's computation type beside
    `partner`: their promoted type, or the default float type where the op
    computes integers in floats (xlogy: uint8 with -2 reads -2.0, not 254)."""
    dtype = torch.result_type(partner, number)
    if to_float and not dtype.is_floating_point:
        dtype = torch.get_default_dtype()
    # Through double, as eager holds the number: a float32 intermediate
    # would round 0.1 before widening it to float64.
    held = torch.float64 if isinstance(number, float) else None
    return torch.tensor(number, dtype=held).to(dtype)


@_register(aten.xlogy.Scalar_Self)
def _xlogy_scalar_self(x, y):
    return torch.xlogy(_wrapped(x, y, to_float=True), y)


@_register(aten.xlogy.Scalar_Other)
def _xlogy_scalar_other(x, y):
    return torch.xlogy(x, _wrapped(y, x, to_float=True))


@_register(aten.special_xlog1py.self_scalar)
def _xlog1py_scalar_self(x, y):
    return torch.special.xlog1py(_wrapped(x, y, to_float=True), y)


@_register(aten.special_xlog1py.other_scalar)
def _xlog1py_scalar_other(x, y):
    return torch.special.xlog1py(x, _wrapped(y, x, to_float=True))


@_register(aten.isin.Tensor_Scalar)
def _isin_scalar(elements, test_element, assume_unique=False, invert=False):
    return _isin(elements, _wrapped(test_element, elements), invert=invert)


@_register(aten.isin.Scalar_Tensor)
def _isin_scalar_element(element, test_elements, assume_unique=False,
                         invert=False):
    return _isin(_wrapped(element, test_elements), test_elements, invert=invert)


@_register(aten.searchsorted.Scalar)
def _searchsorted_scalar(sorted_seq, x, out_int32=False, right=False,
                         side=None, sorter=None):
    return _searchsorted(sorted_seq, torch.tensor(x, dtype=sorted_seq.dtype),
                         out_int32, right, side, sorter)


@_register(aten.bucketize.Scalar)
def _bucketize_scalar(x, boundaries, out_int32=False, right=False):
    return _bucketize(torch.tensor(x, dtype=boundaries.dtype), boundaries,
                      out_int32, right)


def _float_pair(x, y):
    """x and y in the type eager's xlogy computes them: their promoted
    type, integers and bools as the default float type."""
    dtype = torch.result_type(x, y)
    if not dtype.is_floating_point:
        dtype = torch.get_default_dtype()
    return x.to(dtype), y.to(dtype)


@_register(aten.xlogy.Tensor)
def _xlogy(x, y):
    """Eager's kernel: NaN where y is NaN, else 0 where x is 0, else
    x * log(y); and eager's gradient of x, log(y) except 0 where x is 0
    and log(y) is not finite (y <= 0 or infinite). There log reads 1
    instead of y: the value is 0 * 0, and the gradient 0 rather than
    0 * log(0) through a where (NaN in PyTorch's decomposition)."""
    x, y = _float_pair(x, y)
    if x.dtype == torch.float16:
        # In float32, rounded once, as eager's float16 kernel (its
        # bfloat16 one rounds log(y) first, as the formula in bfloat16).
        return _in_float32(_xlogy, x.dtype, x, y)
    singular = (x == 0) & ((y <= 0) | torch.isinf(y))
    r = x * torch.log(torch.where(singular, torch.ones((), dtype=y.dtype), y))
    return _positive_zero_where(r, (x == 0) & ~torch.isnan(y))


def _positive_zero_where(r, mask):
    """r with its zeros made +0 where `mask` holds (eager's xlogy returns
    0 for x = -0 too) and every value elsewhere unchanged, -0 included
    (-5 * log(1)): r + (+0) there, r + (-0) elsewhere; the gradient passes
    unchanged."""
    plus, minus = torch.zeros((), dtype=r.dtype), torch.full((), -0.0, dtype=r.dtype)
    return r + torch.where(mask, plus, minus)


@_register(aten.special_xlog1py.default)
def _xlog1py(x, y):
    """As xlogy, with log1p: it reads 0 where x is 0 and y <= -1 or
    infinite."""
    x, y = _float_pair(x, y)
    if x.dtype == torch.float16:   # as xlogy's
        return _in_float32(_xlog1py, x.dtype, x, y)
    singular = (x == 0) & ((y <= -1) | torch.isinf(y))
    r = x * torch.log1p(torch.where(singular, torch.zeros((), dtype=y.dtype), y))
    return _positive_zero_where(r, (x == 0) & ~torch.isnan(y))


@_register(aten.special_entr.default)
def _entr(x):
    x = _as_float(x)
    r = -x * torch.log(x)
    r = torch.where(x == 0, torch.zeros_like(r), r)
    return torch.where(x < 0, torch.full((), -math.inf, dtype=r.dtype), r)


@_register(aten.special_log_ndtr.default)
def _log_ndtr(x):
    """log(ndtr(x)) as eager's calc_log_ndtr: below -1 through the scaled
    erfcx, log(erfcx(-t) / 2) - t^2 (erfc underflows: log_ndtr(-15) is
    -116, not -inf); above, log1p(-erfc(t) / 2) (log of a value near 1
    loses the tail: log_ndtr(8) is -6.2e-16, not 0). t = x / sqrt(2)."""
    x = _as_float(x)
    below = x < -1
    # Each branch reads a safe value where the other one is taken, so that
    # its gradient there is 0, not 0 * inf (log1p(-1) at x = -40).
    zero = torch.zeros((), dtype=x.dtype)
    t_low = torch.where(below, x, -torch.ones((), dtype=x.dtype)) * (1 / math.sqrt(2.0))
    t_high = torch.where(below, zero, x) * (1 / math.sqrt(2.0))
    low = torch.log(torch.special.erfcx(-t_low) / 2) - t_low * t_low
    high = torch.log1p(-torch.erfc(t_high) / 2)
    return torch.where(below, low, high)


@_register(aten._pdist_forward.default)
def _pdist(x, p=2):
    n = x.shape[0]
    i = torch.tensor([a for a in range(n) for b in range(a + 1, n)],
                     dtype=torch.int64)
    j = torch.tensor([b for a in range(n) for b in range(a + 1, n)],
                     dtype=torch.int64)
    return _vector_norm(x.index_select(0, i) - x.index_select(0, j), p, -1)


@_register(aten.renorm.default)
def _renorm(x, p, dim, maxnorm):
    d = _dim(dim, x.dim())
    dims = [a for a in range(x.dim()) if a != d]
    norm = _vector_norm(x, p, dims, True)
    factor = torch.where(norm > maxnorm, maxnorm / (norm + 1e-7),
                         torch.ones((), dtype=x.dtype))
    return x * factor


@_register(aten._trilinear.default)
def _trilinear(i1, i2, i3, expand1, expand2, expand3, sumdim, unroll_dim=1):
    def grow(t, dims):
        for d in sorted(dims):
            t = t.unsqueeze(d)
        return t
    r = grow(i1, expand1) * grow(i2, expand2) * grow(i3, expand3)
    # In the operands' type: a sum of narrow integers would widen to int64.
    return r.sum(list(sumdim), dtype=r.dtype) if sumdim else r


@_register(aten.rrelu_with_noise.default)
def _rrelu_with_noise(x, noise, lower=1.0 / 8, upper=1.0 / 3, training=False,
                      generator=None):
    if not training:
        return torch.nn.functional.leaky_relu(x, (lower + upper) / 2)
    # Random slopes in [lower, upper) for the negative elements; `noise`
    # records the factor applied to every element.
    slope = torch.rand_like(x) * (upper - lower) + lower
    factor = torch.where(x >= 0, torch.ones((), dtype=x.dtype), slope)
    noise.copy_(factor)
    return x * factor


@_register(aten._scaled_dot_product_attention_forward.default)
def _sdpa(q, k, v, attn_mask=None, dropout_p=0.0, need_attn_weights=False,
          is_causal=False):
    s = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])
    if is_causal:
        L, S = q.shape[-2], k.shape[-2]
        causal = torch.ones(L, S, dtype=torch.bool).tril()
        s = s.masked_fill(~causal, -math.inf)
    if attn_mask is not None:
        if attn_mask.dtype == torch.bool:
            s = s.masked_fill(~attn_mask, -math.inf)
        else:
            s = s + attn_mask
    a = torch.softmax(s, -1)
    if dropout_p:
        a = torch.nn.functional.dropout(a, dropout_p, training=True)
    return a @ v, a


@_register(aten._weight_norm_interface.default)
def _weight_norm_interface(v, g, dim=0):
    """nn.utils.weight_norm: w = v * (g / ||v||), the norm over every dim
    but `dim` (0 or the last), shaped like g; eager keeps the norm of a
    bf16 g in float and computes in float."""
    half = v.dtype in (torch.float16, torch.bfloat16)
    acc = torch.float32 if half else v.dtype
    keep = dim % v.dim()
    vv = v.to(acc)
    norm = torch.sqrt((vv * vv).sum([d for d in range(v.dim()) if d != keep],
                                    keepdim=True)).reshape(g.shape)
    w = (vv * (g.to(acc) / norm)).to(v.dtype)
    return w, norm.to(torch.float32 if g.dtype == torch.bfloat16 else g.dtype)


def _grid_coordinates(n, align_corners, dtype):
    """affine_grid's normalized coordinates along a dim of n
    (linspace_from_neg_one in PyTorch's AffineGridGenerator.cpp)."""
    if n <= 1:
        return torch.zeros(1, dtype=dtype)
    r = torch.linspace(-1, 1, n, dtype=dtype)
    return r if align_corners else r * (n - 1) / n


@_register(aten.affine_grid_generator.default)
def _affine_grid_generator(theta, size, align_corners):
    """F.affine_grid: the base grid (x, y[, z], 1) per output position times
    theta^T, one bmm per batch element, as eager's kernel computes it."""
    n, spatial = size[0], list(size[2:])
    if len(spatial) not in (2, 3):
        raise RuntimeError(f"affine_grid: size {list(size)} is neither 4-D nor 5-D")
    # Coordinates in reverse dim order: x walks the last spatial dim.
    coords = [_grid_coordinates(m, align_corners, theta.dtype)
              for m in reversed(spatial)]
    k = len(spatial)
    parts = []
    for a, c in enumerate(coords):
        shape = [1] * k
        shape[k - 1 - a] = c.shape[0]
        parts.append(c.view(shape).expand(spatial))
    parts.append(torch.ones(spatial, dtype=theta.dtype))
    base = torch.stack(parts, -1).view(1, -1, k + 1).expand(n, -1, -1)
    return torch.bmm(base, theta.transpose(1, 2)).view(n, *spatial, k)


# ---------------------------------------------------------------------------
# Volumetric grid sampling (torch._decomp has the 2-D one)
# ---------------------------------------------------------------------------

def _grid_source(coords, size: int, padding_mode: int, align_corners: bool):
    """Grid coordinates in [-1, 1] as source positions along a dim of
    `size`, with the padding mode's border (1) or reflection (2) applied,
    as eager's grid_sampler_compute_source_index."""
    if align_corners:
        x = (coords + 1) / 2 * (size - 1)
    else:
        x = ((coords + 1) * size - 1) / 2
    if padding_mode == 0:
        return x
    if padding_mode == 2:
        low, span = (0.0, size - 1.0) if align_corners else (-0.5, float(size))
        if span <= 0:
            return torch.zeros_like(x)
        d = (x - low).abs()
        extra = torch.fmod(d, span)
        flips = torch.floor(d / span)
        x = torch.where(torch.fmod(flips, 2) == 0, extra + low,
                        span + low - extra)
    return torch.clamp(x, 0, size - 1)


@_register(aten.grid_sampler_3d.default)
def _grid_sampler_3d(a, grid, interpolation_mode=0, padding_mode=0,
                     align_corners=False):
    """F.grid_sample of a 5-D input: trilinear (0) or nearest (1) samples
    gathered from the flattened volume, zero weight outside it."""
    if interpolation_mode not in (0, 1):
        raise RuntimeError("grid_sampler_3d: bicubic interpolation supports "
                           "4-D input only")
    n, c, depth, height, width = a.shape
    flat = a.reshape(n, c, depth * height * width)
    x, y, z = (_grid_source(grid[..., i], size, padding_mode, align_corners)
               for i, size in enumerate((width, height, depth)))

    def sample(ix, iy, iz, weight):
        inside = ((ix >= 0) & (ix < width) & (iy >= 0) & (iy < height)
                  & (iz >= 0) & (iz < depth))
        zero = torch.zeros((), dtype=ix.dtype)
        ix, iy, iz = (torch.where(inside, t, zero).to(torch.int64)
                      for t in (ix, iy, iz))
        at = ((iz * height + iy) * width + ix).reshape(n, 1, -1)
        values = flat.gather(2, at.expand(n, c, at.shape[-1]))
        w = torch.where(inside, weight, torch.zeros((), dtype=weight.dtype))
        return values * w.reshape(n, 1, -1)

    if interpolation_mode == 1:
        out = sample(x.round(), y.round(), z.round(), torch.ones_like(x))
    else:
        x0, y0, z0 = x.floor(), y.floor(), z.floor()
        out = None
        for dz in (0, 1):
            for dy in (0, 1):
                for dx in (0, 1):
                    wx = x - x0 if dx else x0 + 1 - x
                    wy = y - y0 if dy else y0 + 1 - y
                    wz = z - z0 if dz else z0 + 1 - z
                    term = sample(x0 + dx, y0 + dy, z0 + dz, wx * wy * wz)
                    out = term if out is None else out + term
    return out.reshape(n, c, *grid.shape[1:4])


# ---------------------------------------------------------------------------
# Random and uninitialized tensors
# ---------------------------------------------------------------------------

@_register(aten.uniform.default)
def _uniform(x, low=0.0, high=1.0, generator=None):
    return torch.rand_like(x) * (high - low) + low


@_register(aten.normal.Tensor_Tensor)
def _normal_tt(mean, std, generator=None):
    shape = torch.broadcast_shapes(mean.shape, std.shape)
    return mean + std * torch.randn(shape, dtype=mean.dtype)


@_register(aten.normal.float_Tensor)
def _normal_ft(mean, std, generator=None):
    return mean + std * torch.randn_like(std)


@_register(aten.normal.Tensor_float)
def _normal_tf(mean, std=1.0, generator=None):
    return mean + std * torch.randn_like(mean)


@_register(aten.normal_functional.default)
def _normal_functional(x, mean=0.0, std=1.0, generator=None):
    """x.normal_(mean, std) functionalized (torch.distributions' samples,
    Normal.rsample): normal draws of x's shape and dtype (our stream)."""
    if generator is not None:
        raise NotImplementedError("normal_: explicit torch.Generator "
                                  "arguments are not supported")
    return torch.randn_like(x) * std + mean


@_register(aten.exponential.default)
def _exponential(x, lambd=1.0, generator=None):
    """x.exponential_(lambd) functionalized (F.gumbel_softmax's noise):
    -log(1 - u) / lambd of uniforms u in [0, 1), drawn in float64 so that
    1 - u is never 0 (our stream, eager's distribution)."""
    if generator is not None:
        raise NotImplementedError("exponential_: explicit torch.Generator "
                                  "arguments are not supported")
    u = torch.rand(x.shape, dtype=torch.float64)
    return (-torch.log1p(-u) / lambd).to(x.dtype)


@_register(aten.randint_like.low_dtype, aten.randint_like.default)
def _randint_like(x, *args, dtype=None, layout=None, device=None,
                  pin_memory=None, memory_format=None):
    low, high = (0, args[0]) if len(args) == 1 else args[:2]
    r = torch.floor(torch.rand(x.shape, dtype=torch.float64) * (high - low)) + low
    return r.to(dtype or x.dtype)


@_register(aten.normal.float_float)
def _normal_ff(mean, std, size, generator=None, dtype=None, layout=None,
               device=None, pin_memory=None):
    if generator is not None:
        raise NotImplementedError("normal: explicit torch.Generator arguments "
                                  "are not supported")
    return torch.randn(size, dtype=dtype) * std + mean


@_register(aten.bernoulli.Tensor)
def _bernoulli_tensor(x, p, generator=None):
    """x.bernoulli_(p) with a tensor p (functionalized): draws with the
    probabilities p broadcast to x's shape, in x's dtype."""
    if generator is not None:
        raise NotImplementedError("bernoulli: explicit torch.Generator "
                                  "arguments are not supported")
    return torch.bernoulli(p.to(x.dtype).expand(x.shape))


@_register(aten.randperm.default)
def _randperm(n, dtype=torch.int64, layout=None, device=None,
              pin_memory=None):
    """A uniformly random permutation: the order of n float64 uniforms
    (ties, at 2^-53, only bias it negligibly; the sort is stable, so the
    result is a permutation). The stream is ours, not PyTorch's."""
    keys = torch.rand(n, dtype=torch.float64)
    return torch.argsort(keys).to(dtype or torch.int64)


@_register(aten.randint.default, aten.randint.low)
def _randint(*args, dtype=None, layout=None, device=None, pin_memory=None,
             generator=None):
    """randint(high, size) / randint(low, high, size), drawn like
    randint_like (the stream is ours, not PyTorch's)."""
    low, high, size = (0,) + args if len(args) == 2 else args
    if generator is not None:
        raise NotImplementedError("randint: explicit torch.Generator arguments "
                                  "are not supported")
    if high <= low:
        raise RuntimeError(f"randint: low ({low}) must be less than high ({high})")
    r = torch.floor(torch.rand(size, dtype=torch.float64) * (high - low)) + low
    return r.to(dtype or torch.int64)


@_register(aten.multinomial.default)
def _multinomial(probs, num_samples, replacement=False, generator=None):
    """Sampling by the Gumbel-max trick: argmax of log p + Gumbel noise draws
    index i with probability p_i / sum p (weights need no normalization; a
    zero weight is never drawn). Without replacement, the top num_samples
    keys of one noise draw are a sample of distinct indices in draw order
    (Gumbel-top-k). The stream is ours, not PyTorch's, as for every random
    op."""
    logp = torch.log(probs.to(torch.float64))
    if replacement:
        shape = logp.shape[:-1] + (num_samples, logp.shape[-1])
        u = torch.rand(shape, dtype=torch.float64)
        keys = logp.unsqueeze(-2) - torch.log(-torch.log(u))
        return torch.argmax(keys, dim=-1)
    u = torch.rand(logp.shape, dtype=torch.float64)
    keys = logp - torch.log(-torch.log(u))
    return torch.topk(keys, num_samples, dim=-1).indices


@_register(aten.new_empty_strided.default)
def _new_empty_strided(x, size, stride, dtype=None, layout=None, device=None,
                       pin_memory=None):
    return torch.zeros(size, dtype=dtype or x.dtype)


@_register(aten.floor_divide.default)
def _floor_divide(a, b):
    return torch.div(a, b, rounding_mode="floor")



@_register(aten.index_reduce.default)
def _index_reduce(x, dim, index, source, reduce, include_self=True):
    if x.dim() == 0:
        return _scatter_reduce(x, 0, index.reshape(()), source, reduce,
                               include_self)
    d = _dim(dim, x.dim())
    shape = [1] * source.dim()
    shape[d] = -1
    idx = index.view(shape).expand(source.shape)
    return _scatter_reduce(x, d, idx, source, reduce, include_self)


def _hinge(z):
    """The margin losses' terms as eager's kernels add them: z where
    z > 0, else nothing. A clamp at 0 passed the gradient at z == 0 and
    kept a NaN."""
    return torch.where(z > 0, z, torch.zeros((), dtype=z.dtype))


@_register(aten.multi_margin_loss.default)
def _multi_margin_loss(x, target, p=1, margin=1, weight=None, reduction=1):
    x2 = x if x.dim() == 2 else x.reshape(1, -1)
    t = target.reshape(-1, 1)
    c = x2.shape[1]
    xy = x2.gather(1, t)
    z = _hinge(margin - xy + x2)
    if p == 2:
        z = z * z
    if weight is not None:
        z = z * weight.index_select(0, t.reshape(-1)).unsqueeze(1)
    other = torch.arange(c).unsqueeze(0) != t
    loss = torch.where(other, z, torch.zeros((), dtype=x.dtype)).sum(1) / c
    if x.dim() < 2:
        loss = loss.reshape(())
    return _reduce(loss, reduction)


@_register(aten.multilabel_margin_loss_forward.default)
def _multilabel_margin_loss(x, target, reduction):
    x2 = x if x.dim() == 2 else x.reshape(1, -1)
    t = target if target.dim() == 2 else target.reshape(1, -1)
    c = x2.shape[1]
    # The targets are the labels before the first -1.
    valid = _cumprod((t >= 0).to(torch.int64), 1) > 0
    tc = torch.clamp(t, min=0)
    is_target = ((tc.unsqueeze(2) == torch.arange(c).view(1, 1, c))
                 & valid.unsqueeze(2)).any(1)
    xt = x2.gather(1, tc)                                  # [N, T]
    z = _hinge(1 - (xt.unsqueeze(2) - x2.unsqueeze(1)))  # [N, T, C]
    keep = valid.unsqueeze(2) & ~is_target.unsqueeze(1)
    loss = torch.where(keep, z, torch.zeros((), dtype=x.dtype)).sum([1, 2]) / c
    if x.dim() < 2:
        loss = loss.reshape(())
    return _reduce(loss, reduction), is_target.to(x.dtype).reshape(x.shape)


def _fractional_intervals(n, k, o, u):
    """PyTorch's pooling window starts for one sample u in [0, 1)."""
    if o == 1:
        return torch.full((1,), n - k, dtype=torch.int64)
    alpha = (n - k) / (o - 1)
    i = torch.arange(o - 1, dtype=u.dtype)
    starts = (torch.floor((i + u) * alpha) - torch.floor(u * alpha)).to(torch.int64)
    return torch.cat([starts, torch.full((1,), n - k, dtype=torch.int64)])


def _fractional_max_pool(x, kernel, output_size, samples):
    nsp = len(kernel)
    batched = x.dim() == nsp + 2
    if not batched:
        x = x.unsqueeze(0)
        samples = samples.reshape(1, *samples.shape[-2:]) \
            if samples.dim() == 3 else samples
    n, c = x.shape[:2]
    spatial = list(x.shape[2:])
    flat = x.reshape(n, c, -1)
    pos_of = None
    for a in range(nsp):
        # [N, C, out_a, k_a] positions along dim a.
        u = samples[..., a]                                 # [N, C]
        starts = torch.stack([torch.stack([
            _fractional_intervals(spatial[a], kernel[a], output_size[a],
                                  u[b, ch]) for ch in range(c)]) for b in range(n)])
        p = starts.unsqueeze(-1) + torch.arange(kernel[a])  # [N, C, o, k]
        stride = math.prod(spatial[a + 1:])
        shape = [n, c] + [1] * (2 * nsp)
        shape[2 + a], shape[2 + nsp + a] = output_size[a], kernel[a]
        term = (p * stride).view(shape)
        pos_of = term if pos_of is None else pos_of + term
    pos = pos_of.expand(n, c, *output_size, *kernel).reshape(n, c, -1, math.prod(kernel))
    cand = flat.unsqueeze(2).expand(n, c, pos.shape[2], flat.shape[-1]).gather(3, pos)
    vals, k = torch.max(cand, 3, keepdim=True)
    idx = pos.gather(3, k)
    vals = vals.reshape(n, c, *output_size)
    idx = idx.reshape(n, c, *output_size)
    if not batched:
        vals, idx = vals.squeeze(0), idx.squeeze(0)
    return vals, idx


@_register(aten.fractional_max_pool2d.default)
def _fractional_max_pool2d(x, kernel_size, output_size, random_samples):
    return _fractional_max_pool(x, list(kernel_size), list(output_size),
                                random_samples)


@_register(aten.fractional_max_pool3d.default)
def _fractional_max_pool3d(x, kernel_size, output_size, random_samples):
    return _fractional_max_pool(x, list(kernel_size), list(output_size),
                                random_samples)


# Up to this length mode counts pairwise (fused, quadratic); longer slices
# are sorted and counted by runs (O(n log n) time, O(n) memory: a slice of
# 10^4 took 400 MB pairwise).
_MODE_PAIRWISE_MAX = 64


def _run_lengths(xt):
    """(sorted xt, the length of each element's run of equal values) along
    the last dim: a run starts where the sorted value changes; its first
    index reaches forward by cummax, its last backward by a flipped
    cummin."""
    n = xt.shape[-1]
    s, _ = _sort(xt, -1)
    j = torch.arange(n)
    first = torch.ones(s.shape[:-1] + (1,), dtype=torch.bool)
    starts = torch.cat([first, ~_same(s[..., 1:], s[..., :-1])], -1)
    ends = torch.cat([starts[..., 1:], first], -1)
    zero = torch.zeros((), dtype=torch.int64)
    start = torch.cummax(torch.where(starts, j, zero), -1).values
    end = torch.cummin(torch.where(ends, j, torch.full((), n, dtype=torch.int64))
                       .flip(-1), -1).values.flip(-1)
    return s, end - start + 1


@_register(aten.mode.default)
def _mode(x, dim=-1, keepdim=False):
    """The most frequent value along `dim` (the smallest among equally
    frequent ones) and the index of its last occurrence."""
    if x.dim() == 0:
        return x.clone(), torch.zeros((), dtype=torch.int64)
    d = _dim(dim, x.dim())
    xt = x.movedim(d, -1)
    n = xt.shape[-1]
    if n <= _MODE_PAIRWISE_MAX:
        count = _same(xt.unsqueeze(-1), xt.unsqueeze(-2)).sum(-1)  # [.., n]
        vals = xt
    else:
        vals, count = _run_lengths(xt)
    best = count.amax(-1, keepdim=True)
    cand = torch.where(count == best, vals,
                       torch.full((), _highest(x.dtype), dtype=x.dtype))
    value = cand.amin(-1, keepdim=True)
    j = torch.arange(n)
    idx = torch.where(_same(xt, value), j, torch.full((), -1, dtype=torch.int64)
                      ).amax(-1, keepdim=True)
    # The value read at the index, so that its gradient goes there alone,
    # as eager's (amin would share it among equal values).
    value = xt.gather(-1, idx)
    value, idx = value.movedim(-1, d), idx.movedim(-1, d)
    if not keepdim:
        value, idx = value.squeeze(d), idx.squeeze(d)
    return value, idx

# ---------------------------------------------------------------------------
# Decompositions applied even though the operator has a tp op: they return
# NotImplemented (make_fx then records the operator itself) except for the
# argument patterns the op does not cover.
# ---------------------------------------------------------------------------

CONDITIONAL: Dict[object, Callable] = {}


def _index_put_mask(x, indices, values, accumulate=False):
    """`x[mask] = values` with one boolean mask over x's leading dims: the
    k-th selected position takes values[k] (its running count), or the
    broadcast value. After full slices (`x[:, mask] = values`, indices
    [None, mask]) the masked dims are moved first, and the count's axis of
    values with them."""
    lead = 0
    while lead < len(indices) and indices[lead] is None:
        lead += 1
    if (len(indices) != lead + 1 or indices[lead].dtype != torch.bool):
        return NotImplemented
    mask = indices[lead]
    if lead:
        k = mask.dim()
        rank = x.dim() - k + 1     # of the indexing result
        if values.dim() > rank:
            return NotImplemented
        v = values.reshape((1,) * (rank - values.dim()) + tuple(values.shape))
        masked, first = list(range(lead, lead + k)), list(range(k))
        out = _index_put_mask(x.movedim(masked, first), [mask],
                              v.movedim(lead, 0), accumulate)
        return out.movedim(first, masked)
    lead = mask.dim()
    rest = list(x.shape[lead:])
    xf = x.reshape(-1, *rest)
    m = mask.reshape(-1)
    sel = m.view(-1, *([1] * len(rest)))
    if values.dim() > len(rest) and values.shape[0] == 0:
        # The mask selects nothing (the count is part of the plan's
        # signature): x stays as it is.
        v = values.sum(0, keepdim=True)    # zeros, as a function of values
    elif values.dim() > len(rest) and values.shape[0] != 1:
        pos = torch.clamp(_cumsum(m, 0) - 1, min=0)
        v = values.index_select(0, pos)
    else:
        v = values
    v = v.to(x.dtype)
    if accumulate:
        out = xf + torch.where(sel, v, torch.zeros((), dtype=x.dtype))
    else:
        out = torch.where(sel, v, xf)
    return out.reshape(x.shape)


CONDITIONAL[aten.index_put.default] = _index_put_mask



@_register(aten.nll_loss2d_forward.default)
def _nll_loss2d_forward(x, target, weight, reduction, ignore_index):
    """Spatial NLL: classes moved last, positions flattened into the batch."""
    c = x.shape[1]
    flat = x.movedim(1, -1).reshape(-1, c)
    out, total = aten.nll_loss_forward(flat, target.reshape(-1), weight,
                                       reduction, ignore_index)
    if reduction == 0:
        out = out.view(target.shape)
    return out, total


def _gather_0d(x, dim, index, sparse_grad=False):
    """gather of a 0-d tensor with a one-element index (PyTorch reads the
    0-d tensor as 1-d), or with an empty index of any integer type (eager
    checks the type only when there is an element to read); other patterns
    are the tp op's."""
    if index.numel() == 0 and index.dtype not in (torch.int64, torch.int32):
        return x.gather(dim, index.to(torch.int64))
    if x.dim() != 0 or index.dim() == 0:
        return NotImplemented
    return x.reshape(1).gather(0, index.reshape(1)).view(index.shape)


CONDITIONAL[aten.gather.default] = _gather_0d


def _cumsum_converted(x, dim, dtype=None):
    """cumsum whose result type is not its operand's (integers and bool sum
    in int64, or an explicit dtype): the operand is converted first, since
    tp.cumsum keeps its operand's type."""
    if _cum_result_dtype(x, dtype) == x.dtype:
        return NotImplemented
    return _cumsum(x, dim, dtype)


CONDITIONAL[aten.cumsum.default] = _cumsum_converted


def _masked_fill_broadcast(x, mask, value):
    """masked_fill whose mask has more (or larger) dims than self: eager
    broadcasts self to the common shape (tp.masked_fill takes self's)."""
    shape = torch.broadcast_shapes(x.shape, mask.shape)
    if tuple(shape) == tuple(x.shape):
        return NotImplemented
    return x.expand(shape).masked_fill(mask, value)


CONDITIONAL[aten.masked_fill.Scalar] = _masked_fill_broadcast
CONDITIONAL[aten.masked_fill.Tensor] = _masked_fill_broadcast


def _cumprod_converted(x, dim, dtype=None):
    """cumprod whose result type is not its operand's, as cumsum."""
    if _cum_result_dtype(x, dtype) == x.dtype:
        return NotImplemented
    return _cumprod(x, dim, dtype)


CONDITIONAL[aten.cumprod.default] = _cumprod_converted


def _promoting(join):
    """cat or stack of tensors of different dtypes: PyTorch promotes them
    to their common type (tp.cat and tp.stack take one dtype); one dtype is
    the tp op's."""
    def fn(tensors, dim=0):
        if len({t.dtype for t in tensors}) < 2:
            return NotImplemented
        common = functools.reduce(torch.promote_types, [t.dtype for t in tensors])
        return join([t.to(common) for t in tensors], dim)
    return fn


def _cat(tensors, dim=0):
    """cat as eager: a 1-D tensor of 0 elements beside tensors of another
    rank is skipped (PyTorch's legacy empty tensor), and dtypes promote."""
    legacy = [t.dim() == 1 and t.shape[0] == 0 for t in tensors]
    if not any(legacy) or all(t.dim() == 1 for t in tensors):
        return _promoting(torch.cat)(tensors, dim)
    common = functools.reduce(torch.promote_types, [t.dtype for t in tensors])
    kept = [t.to(common) for t, skip in zip(tensors, legacy) if not skip]
    return torch.cat(kept, dim)


CONDITIONAL[aten.cat.default] = _cat


def _layer_norm_of_nothing(x, normalized_shape, weight, bias, eps):
    """native_layer_norm of an empty x (normalized dims or batch of no
    elements): eager's statistics have a 1 per normalized dim (mean 0,
    rstd NaN where they have elements), which PyTorch's own shape function
    gets wrong while tracing (it keeps the normalized dims); the result is
    as empty as x."""
    if x.numel() != 0:
        return NotImplemented
    stats = tuple(x.shape[:x.dim() - len(normalized_shape)]) + \
        (1,) * len(normalized_shape)
    y = x * weight if weight is not None else x.clone()
    if bias is not None:
        y = y + bias
    return (y, x.new_zeros(stats),
            x.new_full(stats, float("nan")))


CONDITIONAL[aten.native_layer_norm.default] = _layer_norm_of_nothing
CONDITIONAL[aten.stack.default] = _promoting(torch.stack)


# ---------------------------------------------------------------------------
# Decompositions applied to PyTorch's Python-level functions, before any
# dispatch (trace() redirects them with a TorchFunctionMode): tracing the
# operator itself fails inside PyTorch 1.13 before it reaches the graph
# (embedding_bag's autograd wrapper asserts on its integer results under
# functionalization), so no decomposition table entry would be consulted.
# ---------------------------------------------------------------------------

BEFORE_TRACE: Dict[object, Callable] = {}


def _embedding_bag(weight, indices, offsets, scale_grad_by_freq=False,
                   mode=0, sparse=False, per_sample_weights=None,
                   include_last_offset=False, padding_idx=-1):
    """Bag b holds positions [offsets[b], offsets[b+1]) of `indices` (the
    last bag runs to the end unless include_last_offset); entries equal to
    padding_idx (>= 0) are skipped. mode 0 sums (rows scaled by
    per_sample_weights), 1 averages over the bag's counted entries, 2 takes
    the elementwise max; an empty bag gives zeros. Rows are accumulated
    with index_add / scatter_reduce by bag (positions outside every bag go
    to an extra bag that is dropped), so a non-finite row reaches its own
    bag only. Results 1-3 are PyTorch's backward bookkeeping: the bag of
    each position, the bag sizes and (max mode) the arg-max rows."""
    if padding_idx is None:
        padding_idx = -1
    n, d = indices.shape[0], weight.shape[1]
    nb = offsets.shape[0] - (1 if include_last_offset else 0)
    if offsets.shape[0] and indices.dim() == 1:
        # Eager refuses offsets[0] != 0 and offsets[-1] > len(input): run-
        # time bounds errors here (the first must index a dim of 1).
        offsets = torch.cat([_bounds_checked(offsets[:1], 1),
                             _bounds_checked(offsets[1:], n + 1)])
    pos = torch.arange(n, dtype=offsets.dtype)
    # The bag of each position: how many bag starts are at or before it.
    bag = (offsets[:nb].unsqueeze(1) <= pos).to(torch.int64).sum(0) - 1
    inside = bag >= 0
    if include_last_offset:
        inside = inside & (pos < offsets[nb])
    if padding_idx >= 0:
        inside = inside & (indices != padding_idx)
    bag = torch.where(inside, bag, torch.full_like(bag, nb))
    rows = weight.index_select(0, indices)    # no negative wrap, as eager
    if per_sample_weights is not None:
        rows = rows * per_sample_weights.unsqueeze(1)
    count = torch.zeros(nb + 1, dtype=weight.dtype).index_add(
        0, bag, torch.ones(n, dtype=weight.dtype))[:nb]
    nonempty = (count > 0).unsqueeze(1)
    zero = torch.zeros((), dtype=weight.dtype)
    if mode == 2:
        out = torch.full((nb + 1, d), float("-inf"), dtype=weight.dtype)
        out = out.scatter_reduce(0, bag.unsqueeze(1).expand(n, d), rows,
                                 "amax", include_self=False)[:nb]
        out = torch.where(nonempty, out, zero)
        # The first position of the bag holding the max, as a weight row.
        hit = (rows.unsqueeze(0) == out.unsqueeze(1)) & (
            bag.unsqueeze(0) == torch.arange(nb).unsqueeze(1)).unsqueeze(2)
        first = torch.where(hit, pos.view(1, n, 1),
                            torch.full((), n, dtype=pos.dtype)).amin(1) \
            if n else torch.zeros((nb, d), dtype=torch.int64)
        max_indices = torch.where(nonempty, indices[first.clamp(max=max(n - 1, 0))],
                                  torch.zeros((), dtype=indices.dtype)) \
            if n else first
        if n:
            # The max as that first row's element (the same value): eager's
            # backward sends a bag's gradient to max_indices alone, where
            # the amax would split it among tied rows. A bag whose max is
            # NaN has no hit and keeps the amax.
            picked = rows.gather(0, first.clamp(max=n - 1))
            out = torch.where(first < n, picked, out)
    else:
        out = torch.zeros((nb + 1, d), dtype=weight.dtype).index_add(
            0, bag, rows)[:nb]
        if mode == 1:
            out = torch.where(nonempty, out / count.clamp(min=1).unsqueeze(1), zero)
        max_indices = torch.zeros(nb, dtype=torch.int64)
    return out, bag, count.to(torch.int64), max_indices


def _functional_embedding_bag(input, weight, offsets=None, max_norm=None,
                              norm_type=2, scale_grad_by_freq=False,
                              mode="mean", sparse=False,
                              per_sample_weights=None,
                              include_last_offset=False, padding_idx=None):
    """F.embedding_bag's argument handling (2-D input = bags of equal
    length; padding_idx may count from the end) around _embedding_bag.
    max_norm renormalizes the rows looked up in the weight first, as
    F.embedding's (_renormed_in_place: eager's own renorm goes through
    weight.detach(), a write the trace would differentiate). With sparse
    (a sparse gradient, SparseAdam's) it is eager's: the split function
    runs that op in PyTorch."""
    if sparse:
        return _F_EMBEDDING_BAG(input, weight, offsets, max_norm, norm_type,
                                scale_grad_by_freq, mode, sparse,
                                per_sample_weights, include_last_offset,
                                padding_idx)
    if max_norm is not None:
        _renormed_in_place(weight, input, max_norm, norm_type)
    modes = {"sum": 0, "mean": 1, "max": 2}
    if mode not in modes:
        raise ValueError(f"embedding_bag: mode has to be one of "
                         f"{', '.join(modes)}, got {mode!r}")
    if per_sample_weights is not None and mode != "sum":
        raise NotImplementedError("embedding_bag: per_sample_weights is only "
                                  "supported for mode='sum'")
    if input.dim() == 2:
        if offsets is not None:
            raise ValueError("embedding_bag: a 2-D input takes no offsets")
        offsets = torch.arange(0, input.numel(), input.shape[1],
                               dtype=input.dtype)
        input = input.reshape(-1)
        if per_sample_weights is not None:
            per_sample_weights = per_sample_weights.reshape(-1)
    elif input.dim() != 1 or offsets is None or offsets.dim() != 1:
        raise ValueError("embedding_bag: input is 2-D, or 1-D with 1-D offsets")
    if padding_idx is None:
        padding_idx = -1
    elif padding_idx < 0:
        padding_idx += weight.shape[0]
    return _embedding_bag(weight, input, offsets, scale_grad_by_freq,
                          modes[mode], sparse, per_sample_weights,
                          include_last_offset, padding_idx)[0]


def _functional_bce_with_logits(input, target, weight=None, size_average=None,
                                reduce=None, reduction="mean", pos_weight=None):
    """F.binary_cross_entropy_with_logits's checks, then _bce_with_logits."""
    from torch.nn import _reduction
    if size_average is not None or reduce is not None:
        reduction = _reduction.legacy_get_string(size_average, reduce)
    if target.size() != input.size():
        raise ValueError(f"Target size ({target.size()}) must be the same as "
                         f"input size ({input.size()})")
    return _bce_with_logits(input, target, weight, pos_weight,
                            _reduction.get_enum(reduction))


# PyTorch 1.13 traces binary_cross_entropy_with_logits as its formula's
# elementary ops (no table entry is consulted), whose derivative cancels.
BEFORE_TRACE[torch.binary_cross_entropy_with_logits] = _bce_with_logits
BEFORE_TRACE[torch.nn.functional.binary_cross_entropy_with_logits] = \
    _functional_bce_with_logits

_F_EMBEDDING_BAG = torch.nn.functional.embedding_bag
BEFORE_TRACE[torch.embedding_bag] = _embedding_bag
BEFORE_TRACE[torch.nn.functional.embedding_bag] = _functional_embedding_bag


# ---------------------------------------------------------------------------
# Shifts
# ---------------------------------------------------------------------------

def _shift_operands(x, y):
    """PyTorch's shifts on integer tensors compute in int64 (int64 operands)
    or int32 (narrower ones, then truncated back) with the count masked to
    the computation's width, as the x86 shift instructions do: int64 << 70
    is << 6, int8 << 40 is << 8 then truncated. Returns (x, count, width,
    result dtype) or None for floating or bool operands."""
    xt = x if isinstance(x, torch.Tensor) else torch.tensor(x)
    yt = y if isinstance(y, torch.Tensor) else torch.tensor(y)
    dtype = torch.result_type(x, y)
    if dtype.is_floating_point or dtype == torch.bool:
        return None
    wide = torch.int64 if dtype == torch.int64 else torch.int32
    bits = 64 if wide == torch.int64 else 32
    count = torch.bitwise_and(yt.to(wide), bits - 1).to(torch.int64)
    return xt.to(wide), count, bits, dtype


def _powers_of_two(count, bits, dtype):
    """2^count for 0 <= count < bits, exactly in `dtype` (2^(bits-1) is the
    most negative value, which multiplies like the shift does)."""
    table = torch.tensor([1 << k if k < bits - 1 else -(1 << k)
                          for k in range(bits)], dtype=dtype)
    # Flat: a 0-d index tensor would index as a Python number (its value
    # read while tracing).
    return table[count.reshape(-1)].view(count.shape)


def _left_shift(x, y):
    ops = _shift_operands(x, y)
    if ops is None:
        return NotImplemented
    x, count, bits, dtype = ops
    # x * 2^c wraps modulo 2^bits exactly like x << c.
    return (x * _powers_of_two(count, bits, x.dtype)).to(dtype)


def _right_shift(x, y):
    ops = _shift_operands(x, y)
    if ops is None:
        return NotImplemented
    x, count, bits, dtype = ops
    # The arithmetic shift from x's bits, without integer division (which
    # stays a tp op for its division-by-zero error): bit k of x (k >= c)
    # weighs 2^(k-c), the sign bit -2^(bits-1-c). Exact in wrapping
    # arithmetic; one term per bit.
    k = torch.arange(bits)
    d = k - count.unsqueeze(-1)
    mag = _powers_of_two(d.clamp(0, bits - 1), bits, x.dtype)
    sign_bit = (k == bits - 1) & (d < bits - 1)
    weight = torch.where(sign_bit, -mag, mag)
    set_ = torch.bitwise_and(x.unsqueeze(-1), _powers_of_two(k, bits, x.dtype)) != 0
    terms = torch.where(set_ & (d >= 0), weight, torch.zeros((), dtype=x.dtype))
    return terms.sum(-1, dtype=x.dtype).to(dtype)


for _name, _fn in (("__lshift__", _left_shift), ("__rshift__", _right_shift),
                   ("bitwise_left_shift", _left_shift),
                   ("bitwise_right_shift", _right_shift)):
    _packet = getattr(aten, _name)
    for _overload in ("Tensor", "Scalar", "Tensor_Scalar", "Scalar_Tensor"):
        if hasattr(_packet, _overload):
            DECOMPOSITIONS[getattr(_packet, _overload)] = _fn

# Operators this PyTorch lacks (stax._ops.MissingOp) decompose nothing.
for _missing in [k for k in DECOMPOSITIONS if not k]:
    del DECOMPOSITIONS[_missing]


def _one_hot(tensor, num_classes=-1):
    """F.one_hot with an explicit num_classes (without one, eager reads the
    largest class out of the tensor, which no trace can: it then runs as it
    is, and tracing fails as before). Each class is gathered from
    arange(num_classes) by index_select, whose bounds check makes a class
    outside [0, num_classes) the run-time error that eager raises, and the
    gathered class is compared with the arange."""
    if num_classes < 0 or tensor.dtype != torch.int64:
        return _ONE_HOT(tensor, num_classes)
    classes = torch.arange(num_classes, device=tensor.device)
    checked = classes.index_select(0, tensor.reshape(-1)).reshape(tensor.shape)
    return (checked.unsqueeze(-1) == classes).long()


_ONE_HOT = torch.nn.functional.one_hot
BEFORE_TRACE[torch.nn.functional.one_hot] = _one_hot


def _number_operand(method):
    """x | 1, x ^ 1, x &= 1 (and their reflected and in-place forms) with a Python
    number: make_fx of this PyTorch sends the number to the Tensor overload
    and fails. The number becomes a 0-d tensor of the type eager's wrapped
    number promotes to (an int tensor keeps its dtype, a bool one widens):
    a plain int64 0-d tensor would widen a 0-d int32 operand to int64."""
    def call(self, other):
        if isinstance(other, (bool, int)) and isinstance(self, torch.Tensor):
            other = torch.tensor(other).to(torch.result_type(self, other))
        return method(self, other)
    return call


for _name in ("__or__", "__ror__", "__ior__", "__xor__", "__rxor__", "__ixor__",
              "__iand__", "bitwise_and_",
              "bitwise_or", "bitwise_or_", "bitwise_xor", "bitwise_xor_"):
    BEFORE_TRACE[getattr(torch.Tensor, _name)] = _number_operand(
        getattr(torch.Tensor, _name))
for _fn in (torch.bitwise_or, torch.bitwise_xor):
    BEFORE_TRACE[_fn] = _number_operand(_fn)


def _repeat_interleave(input, repeats=None, dim=None, *, output_size=None):
    """repeat_interleave with an integer count (grouped-query attention's
    `k.repeat_interleave(n, dim=1)`): each element repeated along a new
    dim after `dim`, merged into it; a static shape. A tensor of counts
    gives a data-dependent shape: it runs as it is (and tracing fails)."""
    if (not isinstance(repeats, int) or isinstance(repeats, bool) or repeats < 0
            or (dim is not None and input.dim() == 0)):
        return _REPEAT_INTERLEAVE(input, repeats, dim, output_size=output_size)
    x = input.reshape(-1) if dim is None else input
    d = 0 if dim is None else dim % x.dim()
    shape = list(x.shape)
    expanded = x.unsqueeze(d + 1).expand(*shape[:d + 1], repeats, *shape[d + 1:])
    return expanded.reshape(*shape[:d], shape[d] * repeats, *shape[d + 1:])


_REPEAT_INTERLEAVE = torch.repeat_interleave
BEFORE_TRACE[torch.repeat_interleave] = _repeat_interleave
BEFORE_TRACE[torch.Tensor.repeat_interleave] = _repeat_interleave


def _cov(input, *, correction=1, fweights=None, aweights=None):
    """torch.cov without weights, as eager's C++ computes it (the mean as
    the sum over observations divided by their count, mm of the centred
    rows, true division by count - correction); eager's `.item()` checks
    make the operator itself untraceable. With weights (whose checks read
    values) or complex input it runs as it is."""
    if fweights is not None or aweights is not None or input.is_complex() \
            or input.dim() > 2 or input.dtype == torch.bool:
        return _COV(input, correction=correction, fweights=fweights,
                    aweights=aweights)
    x = input.view(1, -1) if input.dim() < 2 else input
    n = x.shape[1]
    count = torch.scalar_tensor(n, dtype=torch.long)
    centred = x - (x.sum(1) / count).unsqueeze(1)
    norm = n - correction
    if norm <= 0:
        warnings.warn("cov(): degrees of freedom is <= 0. Correction should "
                      "be strictly less than the number of observations.")
        norm = 0
    c = torch.mm(centred, centred.t())
    return torch.true_divide(c, torch.scalar_tensor(norm, dtype=torch.long)).squeeze()


def _corrcoef(input):
    """torch.corrcoef through _cov, normalized and clipped as eager's."""
    if input.is_complex() or input.dim() > 2:
        return _CORRCOEF(input)
    c = _cov(input)
    if c.dim() == 0:
        return c / c
    stddev = torch.sqrt(c.diagonal())
    c = c / stddev.view(-1, 1)
    c = c / stddev.view(1, -1)
    return c.clip(-1, 1)


_COV, _CORRCOEF = torch.cov, torch.corrcoef
BEFORE_TRACE[torch.cov] = _cov
BEFORE_TRACE[torch.Tensor.cov] = _cov
BEFORE_TRACE[torch.corrcoef] = _corrcoef
BEFORE_TRACE[torch.Tensor.corrcoef] = _corrcoef


_QUANTILE_MODES = ("linear", "lower", "higher", "midpoint", "nearest")


def _quantile_of(ignore_nan):
    original = torch.nanquantile if ignore_nan else torch.quantile

    def quantile(input, q, dim=None, keepdim=False, *, interpolation="linear",
                 out=None):
        """quantile / nanquantile as eager's kernel computes them
        (Sorting.cpp): the sorted values along `dim`, the rank q * (n - 1)
        in the input's dtype (of the non-NaN count for nanquantile; a slice
        with a NaN takes its last, NaN, value for quantile), adjusted by
        `interpolation`, and the values at floor and ceil of the rank
        gathered and lerped. Eager reads q's values to check its range,
        which no trace can: a Python q is checked here, a tensor q is not
        (a rank out of range is then the gather's run-time error)."""
        tensor_q = isinstance(q, torch.Tensor)
        if (out is not None or interpolation not in _QUANTILE_MODES
                or not input.is_floating_point() or input.numel() == 0
                or (tensor_q and (q.dim() > 1 or q.dtype != input.dtype))):
            return original(input, q, dim, keepdim, interpolation=interpolation,
                            out=out)
        if not tensor_q and not 0 <= q <= 1:
            raise RuntimeError(f"quantile() q must be in the range [0, 1] "
                               f"but got {q}")
        x = input.reshape(-1) if dim is None else input
        d = 0 if dim is None else dim % max(x.dim(), 1)
        if x.dim() == 0:
            x = x.reshape(1)
        ordered = x.sort(d)[0].movedim(d, -1)                  # [..., n]
        n = ordered.shape[-1]
        qs = (q if tensor_q else torch.tensor(q, dtype=input.dtype)).reshape(-1)
        nan = ordered.isnan()
        if ignore_nan:
            ranks = qs * ((~nan).sum(-1, keepdim=True) - 1)
            ranks = ranks.masked_fill(ranks < 0, 0)
        else:
            ranks = (qs * (n - 1)).expand(*ordered.shape[:-1], qs.numel())
            ranks = ranks.masked_fill(nan.any(-1, keepdim=True), n - 1)
        if interpolation == "lower":
            ranks = ranks.floor()
        elif interpolation == "higher":
            ranks = ranks.ceil()
        elif interpolation == "nearest":
            ranks = ranks.round()
        below = ranks.long()
        values = ordered.gather(-1, below)
        if interpolation in ("linear", "midpoint"):
            weights = (torch.full_like(ranks, 0.5) if interpolation == "midpoint"
                       else ranks - below)
            values = values.lerp(ordered.gather(-1, ranks.ceil().long()), weights)
        values = values.movedim(-1, 0)                         # [Q, ...]
        if keepdim and input.dim():   # a 0-d input's result stays 0-d
            values = (values.reshape(values.shape[0], *[1] * input.dim())
                      if dim is None else values.unsqueeze(d + 1))
        return values if tensor_q and q.dim() == 1 else values[0]
    return quantile


for _ignore_nan, _fns in ((False, (torch.quantile, torch.Tensor.quantile)),
                          (True, (torch.nanquantile, torch.Tensor.nanquantile))):
    for _fn in _fns:
        BEFORE_TRACE[_fn] = _quantile_of(_ignore_nan)


def _ctc_lengths(v, n: int, bound: int, what: str) -> torch.Tensor:
    """CTC lengths as an int64 tensor of n entries. A Python list is
    checked against [0, bound] while tracing, as eager checks it; a
    tensor's values are checked by tp.ctc_loss at run time."""
    if isinstance(v, torch.Tensor):
        return v.reshape(-1).long()
    v = [int(e) for e in (v if isinstance(v, (list, tuple)) else [v])]
    if len(v) != n or any(e < 0 or e > bound for e in v):
        raise RuntimeError(f"ctc_loss: expected {n} {what} in [0, {bound}], "
                           f"got {v}")
    return torch.tensor(v, dtype=torch.int64)


def _ctc_loss(log_probs, targets, input_lengths, target_lengths, blank=0,
              reduction="mean", zero_infinity=False):
    """F.ctc_loss / torch.ctc_loss as aten._ctc_loss.Tensor (tp.ctc_loss:
    eager's kernels, bitwise) on the form it takes, then eager's
    zero_infinity and reduction. Tracing the operator itself fails under
    functionalization (its kernel reads the lengths). Unbatched inputs get
    a batch of one; concatenated 1-D targets are padded to [N, S] (S the
    longest target of a list of lengths; with a tensor of lengths, S is at
    most T: a longer target has no alignment, its loss is +inf as in
    eager)."""
    if isinstance(reduction, int):
        reduction = ("none", "mean", "sum")[reduction]
    unbatched = log_probs.dim() == 2
    if unbatched:
        log_probs = log_probs.unsqueeze(1)
        if targets.dim() == 1:
            targets = targets.unsqueeze(0)
    t_max, n = log_probs.shape[0], log_probs.shape[1]
    blank_label = torch.full((), blank, dtype=torch.int64)
    if targets.dim() == 2:
        s_max = targets.shape[1]
        t_len = _ctc_lengths(target_lengths, n, s_max, "target lengths")
        labels = targets.long()
    else:
        total = targets.numel()
        listed = not isinstance(target_lengths, torch.Tensor)
        t_len = _ctc_lengths(target_lengths, n, total, "target lengths")
        s_max = (max([int(e) for e in target_lengths] + [0]) if listed
                 else min(total, t_max))
        j = torch.arange(s_max)
        # The targets must hold every sample's labels: gathering the ends
        # from arange(total + 1) is the identity, and its bounds check
        # makes a sum of lengths beyond the targets the run-time error
        # eager raises.
        ends = torch.arange(total + 1).index_select(0, torch.cumsum(t_len, 0))
        start = ends - t_len
        pos = torch.clamp(start.unsqueeze(1) + j, max=max(total - 1, 0))
        labels = (targets.long().reshape(-1)[pos] if total
                  else torch.zeros(n, s_max, dtype=torch.int64))
        labels = torch.where(j < t_len.unsqueeze(1), labels, blank_label)
    i_len = _ctc_lengths(input_lengths, n, t_max, "input lengths")
    capped = targets.dim() == 1 and not listed
    nll, _ = aten._ctc_loss.Tensor(
        log_probs, labels, i_len,
        torch.clamp(t_len, max=s_max) if capped else t_len, blank,
        zero_infinity)
    if capped:
        nll = torch.where(t_len > s_max,
                          torch.full((), math.inf, dtype=nll.dtype), nll)
    if zero_infinity:
        nll = torch.where(nll == math.inf, torch.zeros((), dtype=nll.dtype), nll)
    if reduction == "mean":
        return (nll / torch.clamp(t_len, min=1).to(nll.dtype)).mean()
    if reduction == "sum":
        return nll.sum()
    return nll.squeeze(0) if unbatched else nll


def _functional_ctc_loss(log_probs, targets, input_lengths, target_lengths,
                         blank=0, reduction="mean", zero_infinity=False):
    return _ctc_loss(log_probs, targets, input_lengths, target_lengths,
                     blank, reduction, zero_infinity)


BEFORE_TRACE[torch.nn.functional.ctc_loss] = _functional_ctc_loss
BEFORE_TRACE[torch.ctc_loss] = _ctc_loss


def _cross_entropy(input, target, weight=None, size_average=None,
                   ignore_index=-100, reduce=None, reduction="mean",
                   label_smoothing=0.0):
    """F.cross_entropy with label smoothing and class-index targets, as
    eager 1.13 computes it (cross_entropy_loss_label_smoothing) but without
    its masked_select (a data-dependent shape, which split the graph and
    ran the loss in PyTorch): the mean of the smoothing term over the
    targets that are not ignored is their sum over the count, the ignored
    positions adding exact zeros. Every other form runs as it is."""
    if (label_smoothing == 0.0 or size_average is not None or reduce is not None
            or target.is_floating_point() or input.dim() == 0):
        return _CROSS_ENTROPY(input, target, weight, size_average, ignore_index,
                              reduce, reduction, label_smoothing)
    class_dim = 0 if input.dim() == 1 else 1
    classes = input.shape[class_dim]
    lp = torch.log_softmax(input, class_dim)
    nll = torch.nn.functional.nll_loss(lp, target, weight,
                                       ignore_index=ignore_index,
                                       reduction=reduction)
    ignored = target == ignore_index
    if weight is not None:
        shape = [1] * input.dim()
        shape[class_dim] = classes
        smooth = -(lp * weight.view(shape)).sum(class_dim)
    else:
        smooth = -lp.sum(class_dim)
    zero = torch.zeros((), dtype=smooth.dtype)
    smooth = torch.where(ignored, zero, smooth)
    if reduction == "mean":
        if weight is not None:
            taken = weight.gather(0, torch.where(ignored, torch.zeros_like(target),
                                                 target).reshape(-1))
            denominator = torch.where(ignored.reshape(-1), zero, taken).sum()
        else:
            denominator = (~ignored).sum().to(smooth.dtype)
        smooth = smooth.sum() / denominator
    elif reduction == "sum":
        smooth = smooth.sum()
    return nll * (1 - label_smoothing) + smooth * (label_smoothing / classes)


_CROSS_ENTROPY = torch.nn.functional.cross_entropy
BEFORE_TRACE[torch.nn.functional.cross_entropy] = _cross_entropy


def _embedding(input, weight, padding_idx=None, max_norm=None, norm_type=2.0,
               scale_grad_by_freq=False, sparse=False):
    """F.embedding with scale_grad_by_freq (each row's gradient divided by
    how often the batch looks it up), which aten.embedding's gradient does
    and tp.embedding's does not: the rows of the detached weight, plus the
    rows of weight / count minus themselves detached, zero in the forward
    (bitwise the rows), weight / count in the backward. With max_norm, the
    rows it looks up are first renormalized in the weight, in place and
    under no_grad as eager does (the functional _embedding_renorm written
    back; the weight's gradient is the lookup's alone). Every other form
    runs as it is."""
    if max_norm is not None:
        _renormed_in_place(weight, input, max_norm, norm_type)
    if not scale_grad_by_freq:
        return _EMBEDDING(input, weight, padding_idx, None, norm_type,
                          False, sparse)
    flat = input.reshape(-1)
    counts = torch.zeros(weight.shape[0], dtype=weight.dtype).index_add(
        0, flat, torch.ones(flat.shape, dtype=weight.dtype))
    scale = (1 / torch.clamp(counts, min=1)).unsqueeze(1)
    rows = _EMBEDDING(input, weight.detach(), padding_idx)
    scaled = _EMBEDDING(input, weight * scale, padding_idx)
    return rows + (scaled - scaled.detach())


_EMBEDDING = torch.nn.functional.embedding
BEFORE_TRACE[torch.nn.functional.embedding] = _embedding


def _renormed_in_place(weight, input, max_norm, norm_type):
    """The rows `input` looks up renormalized to max_norm in `weight`, in
    place and under no_grad as eager does: the weight's gradient stays the
    lookup's (_keep_gradient_identity), where the traced renorm would be
    differentiated."""
    from .importer import _keep_gradient_identity
    with torch.no_grad():
        before = weight.clone()
        weight.copy_(_embedding_renorm(weight, input, max_norm, norm_type))
        _keep_gradient_identity(weight, before)



def _cosine_similarity(x1, x2, dim=1, eps=1e-8):
    """F.cosine_similarity as PyTorch 1.13's kernel computes it, whose
    clamp of the squared norms to eps^2 runs under a NoGradGuard: the value
    is clamped, the gradient passes as if it were not. Traced, the clamp
    was an op like any other, and its zero gradient changed the result's
    gradient wherever a norm is below eps (a zero padding vector)."""
    if not (x1.is_floating_point() and x2.is_floating_point()):
        return _COSINE_SIMILARITY(x1, x2, dim, eps)
    shape = torch.broadcast_shapes(x1.shape, x2.shape)
    a, b = x1.expand(shape), x2.expand(shape)
    floor = eps * eps

    def squared_norm(t):
        n = (t ** 2).sum(dim, keepdim=True)
        # where(n < eps^2, eps^2, n) in value; the identity in gradient.
        return torch.where(n < floor, n - n.detach() + floor, n)
    return ((a / squared_norm(a).sqrt()) * (b / squared_norm(b).sqrt())).sum(dim)


_COSINE_SIMILARITY = torch.nn.functional.cosine_similarity
BEFORE_TRACE[torch.nn.functional.cosine_similarity] = _cosine_similarity


def _new_tensor(self, data, dtype=None, device=None, requires_grad=False):
    """Tensor.new_tensor (functionalization in PyTorch 1.13 fails on it: a
    dispatch key without a device): a constant of self's dtype unless
    given, as torch.tensor makes it."""
    if isinstance(data, torch.Tensor):
        out = data.detach().to(dtype or self.dtype).clone()
    else:
        out = torch.tensor(data, dtype=dtype or self.dtype)
    return out.requires_grad_() if requires_grad else out


BEFORE_TRACE[torch.Tensor.new_tensor] = _new_tensor


def _gaussian_nll_loss(input, target, var, full=False, eps=1e-6,
                       reduction="mean"):
    """F.gaussian_nll_loss as eager computes it (0.5 (log var + (input -
    target)^2 / var), var clamped to eps without a gradient through the
    clamp), without reading var's values in Python (eager checks that
    none is negative, which no trace can): a negative variance is a run-time
    error instead, index_select's bounds check of arange(1) at index 1.
    Shape and reduction errors are raised while tracing, as eager's."""
    if var.shape != input.shape:
        if input.shape[:-1] == var.shape:
            var = var.unsqueeze(-1)
        elif not (input.shape[:-1] == var.shape[:-1] and var.shape[-1] == 1):
            raise ValueError("var is of incorrect size")
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(reduction + " is not valid")
    negative = (var < 0).any().long().reshape(1)
    checked = torch.zeros(1, dtype=var.dtype).index_select(0, negative)
    clamped = var.clamp(min=eps)
    var = var + (clamped - var).detach() + checked.reshape(())
    loss = 0.5 * (torch.log(var) + (input - target) ** 2 / var)
    if full:
        loss = loss + 0.5 * math.log(2 * math.pi)
    if reduction == "mean":
        return loss.mean()
    return loss.sum() if reduction == "sum" else loss


BEFORE_TRACE[torch.nn.functional.gaussian_nll_loss] = _gaussian_nll_loss
