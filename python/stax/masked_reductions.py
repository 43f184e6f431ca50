"""Sums and means of boolean-mask selections, without the selection.

`x[m]` has as many rows as `m` has true elements: a shape the data decide,
which leaves it and everything after it to PyTorch (compiled again for
every count, a masked loss's count changes every step). A sum or mean of
the selection does not need it: the sum over the selected rows is the sum
of `where(m, x, 0)` over the mask's dimensions, and a mean divides that by
`m.sum()` times the size of a row. So `loss[mask].mean()` (a loss per token
averaged over the tokens a padding mask keeps) compiles. The values are
those of eager's reduction up to its summation order (adding zeros is
exact), and the derivatives are eager's: the gradient of the unselected
elements is zero (where's), not computed from them.

A selection is rewritten only when every use of it is such a reduction
over all of its elements or over its rows (dimension 0).
"""

from __future__ import annotations

import math
from typing import List, Optional

import torch
import torch.fx as fx

from ._ops import aten


def _meta(n):
    return n.meta.get("tensor_meta") if isinstance(n, fx.Node) else None


def _selection(n: fx.Node):
    """(x, m) for `n = x[m]`, m one boolean mask over leading dimensions of
    a floating x; None otherwise."""
    if n.op != "call_function" or n.target is not aten.index.Tensor:
        return None
    x, indices = n.args[0], n.args[1]
    if len(indices) != 1 or not isinstance(indices[0], fx.Node):
        return None
    m = indices[0]
    xm, mm = _meta(x), _meta(m)
    # In float16/bfloat16, eager's mean rounds once (it accumulates and
    # divides in float32); the rewrite would round the sum first.
    if xm is None or mm is None or mm.dtype != torch.bool \
            or xm.dtype not in (torch.float32, torch.float64):
        return None
    if tuple(xm.shape[:len(mm.shape)]) != tuple(mm.shape) or not mm.shape:
        return None
    return x, m


def _reduction(u: fx.Node, sel: fx.Node) -> Optional[str]:
    """'all' or 'rows' (dimension 0, not kept) with mean or sum; None if
    `u` is no such reduction of `sel`."""
    if u.op != "call_function" or u.args[0] is not sel \
            or u.kwargs.get("dtype") is not None:
        return None
    if u.target in (aten.sum.default, aten.mean.default) and len(u.args) == 1:
        return "all"
    if u.target in (aten.sum.dim_IntList, aten.mean.dim):
        dims = u.args[1] if len(u.args) > 1 else u.kwargs.get("dim")
        keep = u.args[2] if len(u.args) > 2 else u.kwargs.get("keepdim", False)
        rank = len(_meta(sel).shape)
        if (not keep and isinstance(dims, (list, tuple)) and len(dims) == 1
                and dims[0] in (0, -rank) and len(u.args) <= 3):
            return "rows"
    return None


def _rewrite(graph: fx.Graph, sel: fx.Node, x: fx.Node, m: fx.Node) -> None:
    x_shape = list(_meta(x).shape)
    lead = len(_meta(m).shape)
    rest = x_shape[lead:]
    with graph.inserting_before(sel):
        mask = graph.call_function(aten.view.default,
                                   (m, x_shape[:lead] + [1] * len(rest)))
        kept = graph.call_function(aten.where.ScalarOther, (mask, x, 0.0))
        count = None
    for u in list(sel.users):
        whole = _reduction(u, sel) == "all"
        dims: List[int] = list(range(len(x_shape) if whole else lead))
        with graph.inserting_before(u):
            total = graph.call_function(aten.sum.dim_IntList, (kept, dims))
            result = total
            if u.target in (aten.mean.default, aten.mean.dim):
                if count is None:
                    with graph.inserting_before(sel):
                        count = graph.call_function(aten.sum.default, (m,))
                per_row = math.prod(rest) if whole else 1
                n = count if per_row == 1 else graph.call_function(
                    aten.mul.Tensor, (count, per_row))
                result = graph.call_function(aten.div.Tensor, (total, n))
        u.replace_all_uses_with(result)
        graph.erase_node(u)
    graph.erase_node(sel)


def masked_reductions_as_where(gm: fx.GraphModule) -> None:
    """Rewrites sums and means of `x[m]` as sums of `where(m, x, 0)`
    (module docstring)."""
    changed = False
    for n in list(gm.graph.nodes):
        picked = _selection(n)
        if picked is None or not n.users \
                or not all(_reduction(u, n) for u in n.users):
            continue
        _rewrite(gm.graph, n, *picked)
        changed = True
    if changed:
        gm.recompile()
