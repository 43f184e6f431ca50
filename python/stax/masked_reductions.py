"""Losses and reductions over boolean-mask selections, without the
selection.

`x[m]` (and `masked_select(x, m)`, the same with a mask of x's shape) has
as many rows as `m` has true elements: a shape the data decide,
which leaves it and everything after it to PyTorch (compiled again for
every count: a masked loss's count changes every step). When everything
done with the selected rows is row by row and ends in a reduction over
the rows - `loss[mask].mean()`, `F.cross_entropy(logits[m], target[m])`,
`F.mse_loss(pred[m], y[m])`, `(p[m] - q[m]).abs().mean()` - the selection
is not needed:

- each selection `x[m]` becomes `where(m, x, 0)` with the mask's
  dimensions flattened into one row dimension (unselected rows hold
  zeros, so that what is computed from them stays finite);
- row-wise operators (pointwise ones, softmax over a later dimension,
  reductions over later dimensions) run on all rows, unchanged;
- a sum over the rows is a sum of `where(m, v, 0)`; a mean divides it by
  `m.sum()` (times a row's size); nll_loss gives the unselected rows
  `ignore_index` as their target, which its sum and weight skip.

Values are eager's up to the order of the sums (adding zeros is exact).
Derivatives are eager's: the unselected rows get a zero gradient from the
`where` at the selection, whatever the row-wise operators compute from
their zeros. An operator with other tensor operands - a linear layer's
weight and bias (mm, addmm), a scale without a row dimension - has its
row operands and its result masked again: where's derivative selects, so
no other operand's gradient receives anything from an unselected row.
Such a product then runs on every row: it is taken only when small or
when the traced mask selects at least half of the rows
(`_product_affordable`).

The rewrite applies to a mask only when every use of every value derived
from its selections is of these kinds (else the graph is left as it is).
"""

from __future__ import annotations

import math
import operator
from typing import Dict, List, Optional

import torch
import torch.fx as fx

from ._ops import aten
from .fx_values import same_value

# Pointwise operators: row i of the result is computed from row i of each
# operand (operands are selections under one mask, numbers or 0-d tensors).
_POINTWISE = {t for t in (
    aten.neg.default, aten.abs.default, aten.exp.default, aten.log.default,
    aten.log1p.default, aten.expm1.default, aten.sigmoid.default,
    aten.tanh.default, aten.relu.default, aten.sqrt.default,
    aten.rsqrt.default, aten.sin.default, aten.cos.default,
    aten.sign.default, aten.gelu.default, aten.silu.default,
    aten.softplus.default, aten.log_sigmoid_forward.default,
    aten._to_copy.default, aten.clone.default, aten.bitwise_not.default,
    aten.logical_not.default, aten.pow.Tensor_Scalar, aten.pow.Tensor_Tensor,
    aten.add.Tensor, aten.sub.Tensor, aten.mul.Tensor, aten.div.Tensor,
    aten.rsub.Scalar, aten.add.Scalar, aten.sub.Scalar, aten.mul.Scalar,
    aten.div.Scalar, aten.maximum.default, aten.minimum.default,
    aten.clamp.default, aten.clamp_min.default, aten.clamp_max.default,
    aten.where.self, aten.eq.Scalar, aten.ne.Scalar, aten.gt.Scalar,
    aten.lt.Scalar, aten.ge.Scalar, aten.le.Scalar, aten.eq.Tensor,
    aten.ne.Tensor, aten.gt.Tensor, aten.lt.Tensor, aten.ge.Tensor,
    aten.le.Tensor, aten.logical_and.default, aten.logical_or.default,
    aten.bitwise_and.Tensor, aten.bitwise_or.Tensor,
    aten.smooth_l1_loss.default, aten.huber_loss.default,
    aten.mse_loss.default, aten.l1_loss.default,
    aten.binary_cross_entropy_with_logits.default,
    aten.empty_like.default, aten.zeros_like.default, aten.ones_like.default,
    aten.full_like.default, aten.fill.Scalar, aten.reciprocal.default,
    aten.square.default, aten.floor.default, aten.ceil.default,
    aten.round.default, aten.trunc.default, aten.frac.default,
    aten.erf.default, aten.tan.default, aten.atan.default,
    aten.hardtanh.default, aten.leaky_relu.default, aten.elu.default,
    aten.hardswish.default, aten.hardsigmoid.default, aten.mish.default,
    aten.logical_xor.default, aten.where.ScalarOther,
    aten.where.ScalarSelf, aten.masked_fill.Scalar, aten.xlogy.Tensor,
    aten.atan2.default, aten.fmod.Scalar, aten.remainder.Scalar,
    aten.isnan.default, aten.isinf.default, aten.isfinite.default,
    aten.detach.default) if t}

# Row-wise operators reducing or normalizing over dimensions after the rows.
_ALONG = {t for t in (
    aten._log_softmax.default, aten._softmax.default) if t}
_REDUCE_LATER = {t for t in (
    aten.sum.dim_IntList, aten.mean.dim, aten.amax.default,
    aten.amin.default) if t}

# Elementwise losses: reduction 'none' (0) is pointwise, 'mean' (1) and
# 'sum' (2) reduce everything.
_LOSSES = {t for t in (
    aten.smooth_l1_loss.default, aten.huber_loss.default,
    aten.mse_loss.default, aten.l1_loss.default,
    aten.binary_cross_entropy_with_logits.default) if t}
_LOSS_REDUCTION_ARG = {aten.smooth_l1_loss.default: 2,
                       aten.huber_loss.default: 2, aten.mse_loss.default: 2,
                       aten.l1_loss.default: 2,
                       aten.binary_cross_entropy_with_logits.default: 4}


def _meta(n):
    return n.meta.get("tensor_meta") if isinstance(n, fx.Node) else None


def _arg(n: fx.Node, i: int, name: str, default=None):
    if len(n.args) > i:
        return n.args[i]
    return n.kwargs.get(name, default)


def _selection(n: fx.Node):
    """(x, m) for `n = x[m]`, m one boolean mask over leading dimensions
    of x, or for `n = torch.masked_select(x, m)`, m of x's shape; None
    otherwise."""
    if n.op != "call_function":
        return None
    if n.target is aten.masked_select.default:
        x, m = n.args[0], n.args[1]
        if _meta(x) is None or _meta(m) is None \
                or tuple(_meta(x).shape) != tuple(_meta(m).shape):
            return None
    elif n.target is aten.index.Tensor:
        x, indices = n.args[0], n.args[1]
        if len(indices) != 1 or not isinstance(indices[0], fx.Node):
            return None
        m = indices[0]
    else:
        return None
    xm, mm = _meta(x), _meta(m)
    if xm is None or mm is None or mm.dtype != torch.bool or not mm.shape:
        return None
    if tuple(xm.shape[:len(mm.shape)]) != tuple(mm.shape):
        return None
    return x, m


def _constant_scalar(a) -> bool:
    """A number, or a 0-d tensor computed from no argument (zeros([]))."""
    if not isinstance(a, fx.Node):
        return isinstance(a, (int, float, bool)) or a is None
    meta = _meta(a)
    return (meta is not None and not meta.shape and not meta.requires_grad
            and a.op == "call_function" and not a.all_input_nodes)


class _Group:
    """The selections under one mask and everything computed from them."""

    def __init__(self, mask: fx.Node):
        self.mask = mask
        self.rows: Dict[fx.Node, None] = {}      # row-wise values, in order
        self.reductions: List[fx.Node] = []      # uses that reduce the rows
        self.guarded: set = set()                # rows with other operands

    def others(self, n: fx.Node) -> List[fx.Node]:
        """The tensor operands of `n` that are neither row-wise values of
        this group nor constant scalars (parameters, in practice)."""
        return [x for x in n.all_input_nodes
                if x not in self.rows and not _constant_scalar(x)]


def _without_rows(p: fx.Node, rank: int) -> bool:
    """`p` broadcasts over a rank-`rank` row-wise value without a row
    dimension of its own (a bias, a scale)."""
    meta = _meta(p)
    if meta is None or len(meta.shape) > rank:
        return False
    return len(meta.shape) < rank or meta.shape[0] == 1


#: Multiply-adds of a product on every row below which the rewrite does
#: not weigh how many rows the mask selects.
SMALL_PRODUCT = 1 << 18


def _product_affordable(group: "_Group", rows: fx.Node,
                        weight: fx.Node) -> bool:
    """A product of the selected rows with a weight runs on every row after
    the rewrite: affordable when small, or when the traced mask selects at
    least half of the rows. (A masked LM head projects 15 % of the tokens
    onto the vocabulary: on every token it would cost 6.7 times eager's
    product, so that head stays in PyTorch.)"""
    selected, w, mask = _meta(rows), _meta(weight), _meta(group.mask)
    if selected is None or w is None or mask is None or len(w.shape) != 2:
        return False
    total = math.prod(mask.shape)
    cost = total * w.shape[0] * w.shape[1]
    return cost <= SMALL_PRODUCT or 2 * selected.shape[0] >= total


def _guarded(u: fx.Node, group: _Group, others: List[fx.Node]) -> bool:
    """`u` is row-wise with operands that are no rows of the group: a
    product with a weight matrix (mm, addmm: a linear layer) or a
    pointwise op with a bias or scale that has no row dimension. Such an
    op is guarded (_Rewriter): its row operands and its result are masked
    again, so that an unselected row reaches neither the other operands'
    gradients nor, as NaN, anything else."""
    t = u.target
    if t is aten.mm.default:
        return (u.args[0] in group.rows and others == [u.args[1]]
                and _product_affordable(group, u.args[0], u.args[1]))
    if t is aten.addmm.default:
        return (u.args[1] in group.rows and u.args[2] in others
                and u.args[0] in others and _without_rows(u.args[0], 2)
                and _product_affordable(group, u.args[1], u.args[2]))
    if t in _POINTWISE and t not in _LOSSES and _meta(u) is not None:
        rank = len(_meta(u).shape)
        return all(_without_rows(p, rank) for p in others)
    return False


def _classify(u: fx.Node, group: _Group) -> Optional[str]:
    """'row' when `u` is row-wise in `group`, 'guarded' when it is with
    other operands (_guarded), 'reduce' when it reduces the rows, None
    when the rewrite cannot take it."""
    if u.op != "call_function":
        return None
    others = group.others(u)
    if others:
        return "guarded" if _guarded(u, group, others) else None
    t = u.target
    rank = len(_meta(u.args[0]).shape) if _meta(u.args[0]) is not None else 0
    if t in _LOSSES:
        return "row" if _arg(u, _LOSS_REDUCTION_ARG[t], "reduction", 1) == 0 \
            else "reduce"
    if t in _POINTWISE:
        return "row"
    if t in _ALONG:
        return "row" if u.args[1] % max(rank, 1) != 0 else None
    if t in (aten.sum.default, aten.mean.default):
        return "reduce" if len(u.args) == 1 and not u.kwargs else None
    if t in (aten.argmax.default, aten.argmin.default):
        dim = _arg(u, 1, "dim")
        return "row" if isinstance(dim, int) and dim % max(rank, 1) != 0 \
            else None
    if t in _REDUCE_LATER:
        dims = _arg(u, 1, "dim")
        if not isinstance(dims, (list, tuple)) or not dims:
            return None
        dims = [d % rank for d in dims]
        keep = _arg(u, 2, "keepdim", False)
        if 0 not in dims:
            return "row"
        if dims == [0] and not keep and t in (aten.sum.dim_IntList,
                                              aten.mean.dim):
            return "reduce"
        return None
    if t is aten.nll_loss_forward.default:
        # mean or sum (1, 2), no class weights; its users take the loss and
        # the total weight apart.
        ok = (u.args[0] in group.rows and u.args[1] in group.rows
              and u.args[2] is None and u.args[3] in (1, 2)
              and all(g.op == "call_function" and g.target.__name__ == "getitem"
                      for g in u.users))
        return "reduce" if ok else None
    return None


def _grow(group: _Group, graph: fx.Graph) -> bool:
    """Adds every value derived from the group's rows, in graph order (so
    a node's row operands are known before it); False if one of them has
    a use the rewrite cannot take."""
    for u in graph.nodes:
        if u in group.rows or not any(a in group.rows
                                      for a in u.all_input_nodes):
            continue
        kind = _classify(u, group)
        if kind is None:
            return False
        if kind == "reduce":
            group.reductions.append(u)
        else:
            group.rows[u] = None
            if kind == "guarded":
                group.guarded.add(u)
    return True


def _zero_like(dtype: torch.dtype):
    return False if dtype == torch.bool else 0


class _Rewriter:
    def __init__(self, gm: fx.GraphModule, group: _Group):
        self.graph, self.group = gm.graph, group
        self.full: Dict[fx.Node, fx.Node] = {}
        self.flat_mask: Optional[fx.Node] = None
        self.count: Optional[fx.Node] = None

    def call(self, target, *args, **kwargs) -> fx.Node:
        return self.graph.call_function(target, args, kwargs)

    def mask_of_rows(self, rank: int) -> fx.Node:
        """The flat mask shaped to broadcast over a rank-`rank` value."""
        return self.call(aten.view.default, self.flat_mask,
                         [-1] + [1] * (rank - 1))

    def selection(self, sel: fx.Node, x: fx.Node, m: fx.Node) -> fx.Node:
        xm = _meta(x)
        lead = len(_meta(m).shape)
        rest = list(xm.shape[lead:])
        if self.flat_mask is None:
            self.flat_mask = self.call(aten.view.default, m, [-1])
        kept = self.call(aten.where.ScalarOther,
                         self.call(aten.view.default, m,
                                   list(_meta(m).shape) + [1] * len(rest)),
                         x, _zero_like(xm.dtype))
        return self.call(aten.view.default, kept, [-1] + rest)

    def masked(self, v: fx.Node, like: fx.Node) -> fx.Node:
        """`v` (the full version of `like`) with its unselected rows 0."""
        meta = _meta(like)
        return self.call(aten.where.ScalarOther,
                         self.mask_of_rows(len(meta.shape)), v,
                         _zero_like(meta.dtype))

    def guarded(self, n: fx.Node) -> fx.Node:
        """A row-wise op with other operands, on rows masked before and
        after: where's derivative selects, so the other operands' and the
        rows' gradients get nothing from unselected rows, NaN included."""
        def operand(a):
            if isinstance(a, fx.Node) and a in self.group.rows:
                return self.masked(self.full[a], a)
            return a
        args = tuple(operand(a) for a in n.args)
        kwargs = {k: operand(v) for k, v in n.kwargs.items()}
        return self.masked(self.call(n.target, *args, **kwargs), n)

    def mapped(self, a):
        if isinstance(a, (list, tuple)):
            return type(a)(self.mapped(x) for x in a)
        return self.full.get(a, a) if isinstance(a, fx.Node) else a

    def row_count(self) -> fx.Node:
        if self.count is None:
            self.count = self.call(aten.sum.default, self.flat_mask)
        return self.count

    def reduction(self, u: fx.Node) -> fx.Node:
        t = u.target
        if t is aten.nll_loss_forward.default:
            x, target, weight, reduction, ignore = u.args[:5]
            kept = self.call(aten.where.ScalarOther, self.flat_mask
                             if len(_meta(target).shape) == 1 else
                             self.mask_of_rows(len(_meta(target).shape)),
                             self.mapped(target), ignore)
            return self.call(t, self.mapped(x), kept, weight, reduction, ignore)
        if t in _LOSSES:
            k = _LOSS_REDUCTION_ARG[t]
            args = list(self.mapped(tuple(u.args)))
            kwargs = dict(self.mapped(tuple(u.kwargs.items())))
            mean = _arg(u, k, "reduction", 1) == 1
            if len(args) > k:
                args[k] = 0
            else:
                kwargs["reduction"] = 0
            v = self.call(t, *args, **kwargs)
            return self.masked_sum(v, _meta(u.args[0]), everything=True,
                                   mean=mean)
        v = self.mapped(u.args[0])
        everything = t in (aten.sum.default, aten.mean.default)
        return self.masked_sum(v, _meta(u.args[0]), everything,
                               t in (aten.mean.default, aten.mean.dim))

    def masked_sum(self, v: fx.Node, meta, everything: bool,
                   mean: bool) -> fx.Node:
        """The sum (mean) of the selected rows of `v`, whose selected
        version has `meta`, over everything or over the rows."""
        shape = list(meta.shape)
        rank = len(shape)
        kept = self.call(aten.where.ScalarOther, self.mask_of_rows(rank), v,
                         _zero_like(meta.dtype))
        dims = list(range(rank)) if everything else [0]
        total = self.call(aten.sum.dim_IntList, kept, dims)
        if not mean:
            return total
        per_row = math.prod(shape[1:]) if everything else 1
        n = self.row_count()
        if per_row != 1:
            n = self.call(aten.mul.Tensor, n, per_row)
        return self.call(aten.div.Tensor, total, n)

    def run(self, sels: List[fx.Node]) -> None:
        group = self.group
        order = {n: i for i, n in enumerate(self.graph.nodes)}
        for n in sorted(list(group.rows) + group.reductions, key=order.get):
            with self.graph.inserting_before(n):
                if n in sels:
                    self.full[n] = self.selection(n, *_selection(n))
                elif n in group.guarded:
                    self.full[n] = self.guarded(n)
                elif n in group.rows:
                    self.full[n] = self.call(n.target, *self.mapped(n.args),
                                             **dict(self.mapped(
                                                 tuple(n.kwargs.items()))))
                else:
                    new = self.reduction(n)
                    n.replace_all_uses_with(new)
        for n in sorted(list(group.rows) + group.reductions,
                        key=order.get, reverse=True):
            if not n.users:
                self.graph.erase_node(n)


def _meta_shape_known(group: _Group) -> bool:
    return all(_meta(n) is not None for n in list(group.rows) + group.reductions
               if n.target is not aten.nll_loss_forward.default)


def _mean_in_reduced_precision(group: _Group) -> bool:
    """eager's half mean accumulates and divides in float32, rounding once;
    the rewrite would round the sum first."""
    for u in group.reductions:
        if u.target in (aten.mean.default, aten.mean.dim) or (
                u.target in _LOSSES and _arg(u, _LOSS_REDUCTION_ARG[u.target],
                                             "reduction", 1) == 1) or \
                u.target is aten.nll_loss_forward.default:
            dtype = _meta(u.args[0]).dtype if _meta(u.args[0]) else None
            if dtype not in (torch.float32, torch.float64):
                return True
    return False


def _describe_constants(gm: fx.GraphModule) -> None:
    """Tensor metadata for the captured tensors (get_attr nodes, which
    make_fx leaves without): a captured weight is a guarded operand."""
    from torch.fx.passes.shape_prop import _extract_tensor_metadata
    for n in gm.graph.nodes:
        if n.op == "get_attr" and "tensor_meta" not in n.meta:
            value = operator.attrgetter(n.target)(gm)
            if isinstance(value, torch.Tensor):
                n.meta["tensor_meta"] = _extract_tensor_metadata(value)


def masked_reductions_as_where(gm: fx.GraphModule) -> None:
    """Rewrites row-wise computations on boolean-mask selections that end
    in reductions over the rows (module docstring)."""
    if any(n.op == "call_function" and n.target in (
            aten.index.Tensor, aten.masked_select.default)
           for n in gm.graph.nodes):
        _describe_constants(gm)
    groups: List[tuple] = []
    for n in gm.graph.nodes:
        picked = _selection(n)
        if picked is None:
            continue
        for mask, sels in groups:
            if same_value(mask, picked[1]) and \
                    len(_meta(mask).shape) == len(_meta(picked[1]).shape):
                sels.append(n)
                break
        else:
            groups.append((picked[1], [n]))
    changed = False
    for mask, sels in groups:
        group = _Group(mask)
        for s in sels:
            group.rows[s] = None
        if not _grow(group, gm.graph) or not group.reductions \
                or not _meta_shape_known(group) \
                or _mean_in_reduced_precision(group):
            continue
        _Rewriter(gm, group).run(sels)
        changed = True
    if changed:
        gm.graph.lint()
        gm.recompile()
