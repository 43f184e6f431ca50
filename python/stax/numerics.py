"""Forward error bounds for float32 evaluations of traced PyTorch graphs.

`error_bound(fn, *inputs)` traces `fn` with make_fx, evaluates the graph in
float64 and returns, per output element, a tolerance `tol` such that two
float32 evaluations of the graph whose primitives meet the accuracy model
below (ours and PyTorch's) differ by at most `tol`, and each is within
`tol` of the float64 reference.  Derivation (docs/Numerics.md, first order
in u = 2**-24, the error bound of Section 6.5 of the spec):

Every op k of the graph rounds: its computed result is its exact result on
the computed inputs plus a local error d_k with

    |d_k| <= c_k * u * L_k          (elementwise)

* L_k is the magnitude the op rounds at: |v_k| for a pointwise op and the
  sum of the absolute values of its terms for a reduction or contraction
  (sum |x| for a sum, |A| @ |B| for a matmul), i.e. the S of Section 6.5;
* c_k is the op's rounding count: n for a reduction / contraction of length
  n (n - 1 additions and 1 product), 1 for a correctly rounded op (+, -, *,
  /, sqrt), 2 for a <= 1 ulp library function (exp, tanh, erf, log1p,
  rsqrt), the primitive count of a composite op (sigmoid 4, gelu 6, softmax
  n + 3, log_softmax n + 5, logsumexp n + 4, layer norm 2n + 8), 0 for
  views, copies, gathers, selections, relu/abs/neg/clamp and comparisons.

To first order the output error is sum_k <dy/dv_k, d_k>, so

    |y32 - y| <= u * sum_k c_k * <|dy/dv_k|, L_k> = gamma * u * S

with gamma = sum_k c_k (for one reduction of length n_max, c = n_max, in a
graph of `depth` rounding ops: gamma = (n_max - 1) + depth) and
S = sum_k c_k S_k / gamma, S_k = <|dy/dv_k|, L_k> the magnitude of op k's
terms seen at the output (for y = sum(x), S = sum |x|).  The adjoints
dy/dv_k are computed by autograd on the float64 graph, so cancellations
between layers are accounted for exactly instead of by a triangle
inequality per layer.  Two evaluations are each within gamma u S of y:

    tol = 2 * gamma * u * S .

f16/bf16 results (eager computes them in float32 and rounds once) add a
rounding of their own dtype, u_half |v_k|: see _half_rounding_sites.

Ignored: O(u^2) terms and discontinuities (a comparison whose operands
differ by less than their error could flip; not the case in the corpus).
"""

from __future__ import annotations

import math
import operator
from dataclasses import dataclass
from typing import Callable, Dict, List, Optional, Sequence, Tuple

import torch
import torch.fx as fx

from ._ops import aten

U32 = 2.0 ** -24   # unit roundoff of binary32

_UNIT_ROUNDOFF = {torch.float32: 2.0 ** -24, torch.float64: 2.0 ** -53,
                  torch.float16: 2.0 ** -11, torch.bfloat16: 2.0 ** -8}


@dataclass
class Bound:
    """Per-output result of `error_bound`."""
    ref: torch.Tensor      # float64 value (PyTorch in double)
    tol: torch.Tensor      # 2 * gamma * u * S, elementwise (float64)
    gamma: float           # sum of the rounding counts c_k of the graph
    S: torch.Tensor        # effective magnitude (elementwise)


# ---------------------------------------------------------------------------
# Local error model: (c_k, L_k) per op
# ---------------------------------------------------------------------------

# Pointwise functions: rounding count (units of u), L = |result|.
_POINTWISE = {
    aten.add.Tensor: 1, aten.sub.Tensor: 1, aten.mul.Tensor: 1,
    aten.div.Tensor: 1, aten.add.Scalar: 1, aten.sub.Scalar: 1,
    aten.rsub.Scalar: 1, aten.mul.Scalar: 1, aten.div.Scalar: 1,
    aten.sqrt.default: 1, aten.reciprocal.default: 1,
    aten.exp.default: 2, aten.expm1.default: 2, aten.exp2.default: 2,
    aten.log.default: 2, aten.log1p.default: 2, aten.log2.default: 2,
    aten.log10.default: 2, aten.tanh.default: 2, aten.erf.default: 2,
    aten.erfc.default: 2, aten.sin.default: 2, aten.cos.default: 2,
    aten.tan.default: 2, aten.asin.default: 2, aten.acos.default: 2,
    aten.atan.default: 2, aten.sinh.default: 2, aten.cosh.default: 2,
    aten.rsqrt.default: 2,            # 1 / sqrt: two roundings
    aten.sigmoid.default: 4,          # 1 / (1 + exp(-x))
    aten.silu.default: 5,             # x * sigmoid(x)
    aten.mish.default: 8,
}
# No rounding at all.
_EXACT = {
    aten.relu.default, aten.abs.default, aten.neg.default, aten.clamp.default,
    aten.clamp_min.default, aten.clamp_max.default, aten.hardtanh.default,
    aten.t.default, aten.transpose.int, aten.permute.default,
    aten.view.default, aten._unsafe_view.default, aten._reshape_alias.default,
    aten.reshape.default, aten.expand.default, aten.unsqueeze.default,
    aten.squeeze.dim, aten.squeeze.default, aten.slice.Tensor,
    aten.select.int, aten.clone.default, aten.detach.default,
    aten.alias.default, aten.lift_fresh_copy.default, aten.split.Tensor,
    aten.split_with_sizes.default, aten.unsafe_split.Tensor,
    aten.unsafe_split_with_sizes.default, aten.unbind.int, aten.cat.default,
    aten.transpose_.default,          # in place: _functional finds no twin
    aten.stack.default, aten.index.Tensor, aten.embedding.default,
    aten.index_select.default, aten.gather.default, aten.where.self,
    aten.masked_fill.Scalar, aten.maximum.default, aten.minimum.default,
    aten.tril.default, aten.triu.default, aten.as_strided.default,
    aten.amax.default, aten.amin.default, aten.max.default, aten.min.default,
    aten.sgn.default, aten.sign.default,
    aten.eq.Tensor, aten.eq.Scalar, aten.lt.Tensor, aten.gt.Tensor, aten.le.Scalar,
    aten.ge.Scalar, aten.logical_and.default,
    # creation: exact constants
    aten.ones.default, aten.zeros.default, aten.full.default,
    aten.scalar_tensor.default, aten.new_zeros.default, aten.new_ones.default,
    aten.new_full.default, aten.empty_like.default, aten.zeros_like.default,
    aten.ones_like.default, aten.full_like.default, aten.fill.Scalar,
    aten.arange.default, aten.arange.start, aten.arange.start_step,
}
_REDUCTIONS = {aten.sum.default: 0, aten.sum.dim_IntList: 0,
               aten.mean.default: 1, aten.mean.dim: 1}


class _Unsupported(Exception):
    pass


def _numel_ratio(x, y) -> int:
    return max(1, x.numel() // max(1, y.numel()))


def _isf(t) -> bool:
    return isinstance(t, torch.Tensor) and t.is_floating_point()


def _functional(t):
    """aten.X_.Y -> aten.X.Y: an in-place op (make_fx traces some in
    autograd's backward) rounds like its functional twin."""
    name = getattr(getattr(t, "overloadpacket", None), "__name__", "")
    if name.endswith("_") and not name.startswith("_"):
        packet = getattr(aten, name[:-1], None)
        if packet and hasattr(packet, t._overloadname):
            return getattr(packet, t._overloadname)
    return t


def _local(node: fx.Node, args, kwargs, out) -> Tuple[float, Optional[torch.Tensor]]:
    """(c_k, L_k) of `node`, evaluated on float64 `args` with result `out`
    (for multi-output ops, L_k of the first, rounded result)."""
    t = _functional(node.target)
    first = out[0] if isinstance(out, (tuple, list)) else out
    if not _isf(first):
        return 0, None                    # bool / int results: exact
    if t in _EXACT:
        return 0, None
    if t in _POINTWISE:
        return _POINTWISE[t], first.abs()
    if t is aten.pow.Tensor_Scalar:
        return (1 if args[1] == 2 else 2), first.abs()
    if t is aten.gelu.default:
        # x * 0.5 * (1 + erf(x / sqrt 2)): erf's absolute error is not
        # relative to 1 + erf when erf ~ -1, hence the scale |x| (1 + |erf|)/2.
        x = args[0]
        return 6, 0.5 * x.abs() * (1 + torch.erf(x / math.sqrt(2)).abs())
    if t in _REDUCTIONS:
        x = args[0]
        kw = dict(kwargs)
        kw.pop("dtype", None)
        L = t(x.abs(), *args[1:], **kw)
        return _numel_ratio(x, first) + _REDUCTIONS[t], L
    if t in (aten.mm.default, aten.bmm.default):
        a, b = args
        return a.shape[-1], t(a.abs(), b.abs())
    if t in (aten.addmm.default, aten.baddbmm.default):
        c, a, b = args[:3]
        beta, alpha = abs(kwargs.get("beta", 1)), abs(kwargs.get("alpha", 1))
        mm = aten.bmm.default if t is aten.baddbmm.default else aten.mm.default
        L = beta * c.abs() + alpha * mm(a.abs(), b.abs())
        return a.shape[-1] + 1 + (beta != 1) + (alpha != 1), L
    if t is aten._softmax.default:
        x, dim = args[0], args[1]
        return x.shape[dim] + 3, first.abs()   # relative error of each y_i
    if t is aten._log_softmax.default:
        x, dim = args[0], args[1]
        m = x.amax(dim, keepdim=True)
        lse = torch.logsumexp(x, dim, keepdim=True)
        # x - m rounds at |x - m|; log of a sum with a relative error adds an
        # absolute error (scale 1) and rounds at |log s|.
        L = torch.maximum(torch.maximum((x - m).abs(), first.abs()),
                          torch.clamp((lse - m).abs(), min=1.0))
        return x.shape[dim] + 5, L
    if t is aten.logsumexp.default:
        x, dims = args[0], args[1]
        keep = args[2] if len(args) > 2 else kwargs.get("keepdim", False)
        m = x.amax(dims, keepdim=True)
        lse = torch.logsumexp(x, dims, keepdim=True)
        L = torch.maximum(torch.maximum(m.abs(), lse.abs()),
                          torch.clamp((lse - m).abs(), min=1.0))
        return _numel_ratio(x, first) + 4, L.reshape(first.shape) if not keep else L
    if t is aten.native_layer_norm.default:
        x, shape, w, b = args[0], args[1], args[2], args[3]
        dims = tuple(range(x.dim() - len(shape), x.dim()))
        n = math.prod(shape)
        _, mu, r = out
        xhat = (x - mu) * r
        # The mean's rounding error (n u mean|x|) enters x - mu, times r; the
        # variance's relative error (n u) enters r, times |xhat|.
        L = torch.maximum(xhat.abs(), r * x.abs().mean(dims, keepdim=True))
        if w is not None:
            L = L * w.abs()
        if b is not None:
            L = L + b.abs()
        return 2 * n + 8, L
    if t is aten.nll_loss_forward.default:
        if args[2] is not None:
            raise _Unsupported("nll_loss_forward with weight")
        L = t(-args[0].abs(), *args[1:])[0]          # sum |x[i, t_i]| (/ N)
        return args[1].numel() + 1, L
    if t is aten.mse_loss.default:
        x, tg = args[0], args[1]
        red = args[2] if len(args) > 2 else kwargs.get("reduction", 1)
        d2 = (x - tg) ** 2               # sub, square: relative to d^2
        if red == 0:
            return 3, d2
        return d2.numel() + 3, (d2.mean() if red == 1 else d2.sum())
    backward = _local_backward(t, args, kwargs, out, first)
    if backward is not None:
        return backward
    if t is aten._to_copy.default:
        return 0, None     # narrowing to f16/bf16: _half_rounding_sites
    raise _Unsupported(str(t))


def _local_backward(t, args, kwargs, out, first):
    """Error models of the backward operators of joint graphs (same
    accounting as the forward ones: c_k roundings at magnitude L_k). A list
    of (c, L) pairs models each result of a multi-output op."""
    if t is aten.threshold_backward.default:
        return 0, None                           # a selection
    if t is aten.gelu_backward.default:
        g, x = args[0], args[1]
        cdf = 0.5 * (1 + torch.erf(x / math.sqrt(2)))
        pdf = torch.exp(-0.5 * x * x) / math.sqrt(2 * math.pi)
        # g * (cdf + x * pdf): erf, exp and ~10 roundings.
        return 12, g.abs() * (cdf.abs() + (x * pdf).abs())
    if t is aten.tanh_backward.default:
        g, y = args[0], args[1]
        return 3, g.abs() * (1 + y * y)          # g * (1 - y*y)
    if t is aten.sigmoid_backward.default:
        return 3, first.abs()                    # g * (1 - y) * y, y in (0, 1)
    if t is aten.silu_backward.default:
        g, x = args[0], args[1]
        sg = torch.sigmoid(x)
        return 10, g.abs() * (sg + x.abs() * sg * (1 - sg))
    if t is aten._softmax_backward_data.default:
        g, y, dim = args[0], args[1], args[2]
        s = (g * y).abs().sum(dim, keepdim=True)
        return g.shape[dim] + 3, y.abs() * (g.abs() + s)
    if t is aten._log_softmax_backward_data.default:
        g, y, dim = args[0], args[1], args[2]
        return g.shape[dim] + 4, g.abs() + y.exp() * g.abs().sum(dim, keepdim=True)
    if t in (aten.nll_loss_backward.default, aten.mse_loss_backward.default):
        return 3, first.abs()                    # a few products per element
    if t is aten.embedding_dense_backward.default:
        g, idx = args[0], args[1]
        L = t(g.abs(), *args[1:], **kwargs)      # sums of |rows| per index
        return idx.numel(), L
    if t is aten.index_put.default:
        acc = args[3] if len(args) > 3 else kwargs.get("accumulate", False)
        if not acc:
            return 0, None
        L = t(args[0].abs(), args[1], args[2].abs(), True)
        return args[2].numel(), L
    if t is aten.native_layer_norm_backward.default:
        g, x, shape, mu, r, w = args[0], args[1], args[2], args[3], args[4], args[5]
        dims = tuple(range(x.dim() - len(shape), x.dim()))
        rows = tuple(range(x.dim() - len(shape)))
        n = math.prod(shape)
        xhat = (x - mu) * r
        dxhat = g * w if w is not None else g
        mean_abs = lambda v: v.abs().mean(dims, keepdim=True)
        L_in = r * (dxhat.abs() + mean_abs(dxhat) + xhat.abs() * mean_abs(dxhat * xhat))
        sites = [(3 * n + 12, L_in)]
        m = math.prod(x.shape[:len(rows)]) if rows else 1
        sites.append((m + 2, (g * xhat).abs().sum(rows) if rows else (g * xhat).abs()))
        sites.append((m, g.abs().sum(rows) if rows else g.abs()))
        return sites
    return None


# ---------------------------------------------------------------------------
# Float64 evaluation with adjoints
# ---------------------------------------------------------------------------


def _to_f64(x):
    if _isf(x):
        return x.detach().to(torch.float64)
    if isinstance(x, torch.dtype) and x.is_floating_point:
        return torch.float64
    return x


def _map(x, f):
    if isinstance(x, (list, tuple)):
        return type(x)(_map(y, f) for y in x)
    return f(x)


_IDENTITY = {aten.detach.default, aten.alias.default, aten.lift_fresh_copy.default}


def _half_rounding_sites(node: fx.Node, native_args, native_out, out):
    """Rounding sites for the f16/bf16 results of `node`: eager computes
    half precision in float32 (the op's c_k, in units of u) and rounds
    each result once to its dtype, an error of u_half |v| (as c = u_half / u
    units of u). Ops that move or select values round nothing, unless they
    narrow the dtype."""
    outs = native_out if isinstance(native_out, (tuple, list)) else [native_out]
    vals = out if isinstance(out, (tuple, list)) else [out]
    in_dtypes = {a.dtype for a in torch.utils._pytree.tree_flatten(native_args)[0]
                 if isinstance(a, torch.Tensor)}
    sites = []
    for nat, v in zip(outs, vals):
        if not (_isf(nat) and isinstance(v, torch.Tensor)):
            continue
        u = _UNIT_ROUNDOFF.get(nat.dtype, 0.0)
        if u <= U32:
            continue
        exact = _functional(node.target) in _EXACT or node.target in _IDENTITY
        if exact and in_dtypes <= {nat.dtype, torch.int64, torch.bool}:
            continue
        sites.append((v, u / U32, v.detach().abs()))
    return sites


def _evaluate(gm: fx.GraphModule, inputs: Sequence[torch.Tensor]):
    """Runs the graph in float64 with autograd, and in the inputs' own
    dtypes to know each result's dtype; returns the flattened outputs and
    the rounding sites [(value, c_k, L_k)]."""
    env: Dict[fx.Node, object] = {}
    native: Dict[fx.Node, object] = {}   # the same values in eager's dtypes
    sites = []
    it = iter(inputs)
    outputs = None
    for n in gm.graph.nodes:
        if n.op == "placeholder":
            x0 = next(it)
            native[n] = x0.detach().clone() if isinstance(x0, torch.Tensor) else x0
            x = _to_f64(x0)
            env[n] = x.requires_grad_(True) if _isf(x) else x
        elif n.op == "get_attr":
            x = gm
            for p in str(n.target).split("."):
                x = getattr(x, p)
            native[n] = x
            env[n] = _to_f64(x)
        elif n.op == "call_function":
            if n.target is operator.getitem:
                env[n] = env[n.args[0]][n.args[1]]
                native[n] = native[n.args[0]][n.args[1]]
                continue
            nargs = _map(list(n.args), lambda a: native[a]
                         if isinstance(a, fx.Node) else a)
            nkwargs = {k: _map(v, lambda a: native[a] if isinstance(a, fx.Node)
                               else a) for k, v in n.kwargs.items()}
            with torch.no_grad():
                native[n] = n.target(*nargs, **nkwargs)
            args = _map(list(n.args), lambda a: env[a] if isinstance(a, fx.Node)
                        else _to_f64(a))
            kwargs = {k: _map(v, lambda a: env[a] if isinstance(a, fx.Node)
                              else _to_f64(a)) for k, v in n.kwargs.items()}
            if n.target in _IDENTITY:
                out = args[0]             # keep the adjoint flowing
            else:
                out = n.target(*args, **kwargs)
            with torch.no_grad():
                local = _local(n, _map(args, lambda a: a.detach()
                                       if isinstance(a, torch.Tensor) else a),
                               kwargs, _map(out, lambda a: a.detach()
                                            if isinstance(a, torch.Tensor) else a))
            c, L = (local, None) if isinstance(local, list) else local
            if isinstance(c, list):           # one (c, L) per result
                for v, (ck, Lk) in zip(out, c):
                    if ck and isinstance(v, torch.Tensor):
                        sites.append((v, float(ck), Lk))
            elif c:
                v = out[0] if isinstance(out, (tuple, list)) else out
                sites.append((v, float(c), L))
            sites += _half_rounding_sites(n, nargs, native[n], out)
            env[n] = out
        elif n.op == "output":
            outputs = [env[o] for o in torch.utils._pytree.tree_flatten(n.args[0])[0]]
        else:
            raise _Unsupported(f"{n.op} {n.target}")
    return outputs, sites


def _output_bound(y: torch.Tensor, sites) -> Tuple[torch.Tensor, float]:
    """u * sum_k c_k <|dy/dv_k|, L_k> per element of y, and gamma."""
    live = [(v, c, L) for v, c, L in sites if v.requires_grad]
    if not live or not y.requires_grad:
        return torch.zeros_like(y.detach()), 0.0
    # gamma: the rounding counts of the ops y depends on.
    reach = torch.autograd.grad(y.sum(), [v for v, _, _ in live],
                                retain_graph=True, allow_unused=True)
    live = [s for s, g in zip(live, reach) if g is not None]
    gamma = sum(c for _, c, _ in live)
    if not live:
        return torch.zeros_like(y.detach()), 0.0
    vs = [v for v, _, _ in live]
    pointwise = all(v.shape == y.shape for v in vs)
    flat = y.reshape(-1)
    rows = [None] if (y.numel() == 1 or pointwise) else range(flat.numel())
    out = torch.zeros(flat.numel(), dtype=torch.float64)
    for i in rows:
        target = y.sum() if i is None else flat[i]
        grads = torch.autograd.grad(target, vs, retain_graph=True,
                                    allow_unused=True)
        acc = None
        for g, (_, c, L) in zip(grads, live):
            if g is None:
                continue
            term = c * g.abs() * L
            if i is None and pointwise:
                acc = term if acc is None else acc + term     # elementwise
            else:
                s = term.sum()
                acc = s if acc is None else acc + s
        if acc is None:
            continue
        if i is None:
            out += acc.reshape(-1) if pointwise else acc
        else:
            out[i] = acc
    return (U32 * out).reshape(y.shape), gamma


def error_bound(fn: Callable, *inputs: torch.Tensor) -> List[Bound]:
    """Traces `fn(*inputs)` with make_fx and returns one `Bound` per
    (flattened) output. Raises NotImplementedError for an op without an
    error model (it never guesses)."""
    from torch.fx.experimental.proxy_tensor import make_fx
    gm = make_fx(fn)(*inputs)
    try:
        with torch.enable_grad():
            outs, sites = _evaluate(gm, inputs)
            result = []
            for y in outs:
                e, gamma = _output_bound(y, sites)
                tol = 2.0 * e
                S = e / (gamma * U32) if gamma else torch.zeros_like(e)
                result.append(Bound(y.detach(), tol, gamma, S))
    except _Unsupported as e:
        raise NotImplementedError(f"no error model for {e}") from None
    return result
