"""Results that are views of arguments.

Compiled code returns fresh tensors. Eager PyTorch returns a view for
`x.view(-1)`, `x.t()`, `x[1:]`, `x.detach()` and `x` itself: a later write
to `x` shows in such a result, a write to the result shows in `x`, and
`result is x` holds where the function returns its argument. So, like AOT
autograd, a result that the traced graph computes only through view
operators from an argument the function does not write is not taken from
the compiled code: each call replays those view operators on the tensor
passed in. Autograd records the replay as eager does (ViewBackward, ...).

Results alias each other the same way: `return y, y` is one tensor
twice and `return y, y.t()` a tensor and a view of it. A result that view
operators alone derive from another result is replayed on the compiled
tensor of that result (`OutputViewReplay`).

A view of the new value of an argument the function writes in place
(`a.add_(1); return a`, `a[0].mul_(2); return a[1:]`) is only a
candidate: functionalization leaves `a.add_(1); return a` and `y = a + 1;
a.copy_(y); return y` the same graph, and only the first aliases `a`. One
eager run on copies of the arguments decides (`confirmed_by`).
"""

from __future__ import annotations

import operator
from dataclasses import dataclass
from typing import Any, Callable, Dict, List, Optional, Sequence, Set, Tuple

import torch
import torch.fx as fx
from torch.utils._pytree import tree_flatten

from ._ops import aten


def _schema(target):
    return getattr(target, "_schema", None)


def returns_view(target) -> bool:
    """Whether an ATen operator's first result aliases its first argument
    without writing it (view, t, slice, select, expand, detach, split...)."""
    schema = _schema(target)
    if schema is None or not schema.returns:
        return False
    info = schema.returns[0].alias_info
    return info is not None and not info.is_write


def storage_root(x):
    """The node whose storage view `x` reads: view operators (and getitem
    of split/unbind results) followed back to the first non-view
    producer."""
    while isinstance(x, fx.Node) and x.op == "call_function":
        src = x
        if x.target is operator.getitem:
            src = x.args[0]
            if not isinstance(src, fx.Node) or src.op != "call_function":
                break
        if not returns_view(src.target):
            break
        x = src.args[0]
    return x


def _writes_first_argument(target) -> bool:
    schema = _schema(target)
    if schema is None or not schema.arguments:
        return False
    info = schema.arguments[0].alias_info
    return info is not None and info.is_write


def _has_node(values) -> bool:
    return any(isinstance(v, fx.Node) for v in tree_flatten(values)[0])


@dataclass(frozen=True)
class ViewReplay:
    """Result = steps applied in order to argument `argument` of a call;
    each step is (operator, trailing arguments, keyword arguments), the
    first argument being the previous value."""
    argument: int
    steps: Tuple[Tuple[Callable, tuple, Dict[str, Any]], ...]
    #: A view of the argument's value after the function writes it: valid
    #: only where an eager run shows the result sharing its storage.
    written: bool = False

    def confirmed_by(self, result, args) -> bool:
        """Whether `result` of an eager run on `args` is a view of
        argument `argument` (shares its storage)."""
        return (self.argument < len(args)
                and isinstance(result, torch.Tensor)
                and result.storage().data_ptr()
                == args[self.argument].storage().data_ptr())

    def __call__(self, args: Sequence[torch.Tensor]) -> torch.Tensor:
        return _replay(args[self.argument], self.steps)


@dataclass(frozen=True)
class OutputViewReplay:
    """Result = steps (as in ViewReplay) applied in order to result
    `output` of the same call, a result the compiled code computes."""
    output: int
    steps: Tuple[Tuple[Callable, tuple, Dict[str, Any]], ...]
    written: bool = False    # never: the base is a fresh compiled tensor

    def __call__(self, results: Sequence[torch.Tensor]) -> torch.Tensor:
        return _replay(results[self.output], self.steps)


def _replay(value, steps):
    for op, rest, kwargs in steps:
        value = op(value, *rest, **kwargs)
    return value


def _view_step(node):
    """(the node viewed, the step) when `node` is a view operator (or a
    piece of a split/unbind) whose only node argument is the viewed one;
    else None."""
    if not (isinstance(node, fx.Node) and node.op == "call_function"):
        return None
    view, steps = node, []
    if node.target is operator.getitem:
        view = node.args[0]
        if not (isinstance(view, fx.Node) and view.op == "call_function"):
            return None
        steps.append((operator.getitem, (node.args[1],), {}))
    if not returns_view(view.target) or not view.args:
        return None
    if _has_node(view.args[1:]) or _has_node(view.kwargs):
        return None
    if view.target is aten._reshape_alias.default:
        # Its strides are the traced layout's: replayed on an argument of
        # another layout (a strided or transposed input) they would read
        # the wrong elements. reshape views that argument as eager does,
        # or copies it where eager copies.
        steps.append((torch.Tensor.reshape, (view.args[1],), {}))
    else:
        steps.append((view.target, tuple(view.args[1:]), dict(view.kwargs)))
    return view.args[0], steps


def _views_of_results(results, views) -> List[Optional[Any]]:
    """`views` with each result that is not a view of an argument, but
    that view operators derive from another such result (or that is the
    same node as an earlier one), made an OutputViewReplay of it."""
    first: Dict[fx.Node, int] = {}
    for i, r in enumerate(results):
        if isinstance(r, fx.Node) and views[i] is None:
            first.setdefault(r, i)
    bases: Dict[int, Tuple[int, list]] = {}
    for j, r in enumerate(results):
        if views[j] is not None or not isinstance(r, fx.Node):
            continue
        node, steps = r, []
        while True:
            i = first.get(node)
            if i is not None and i != j and (steps or i < j):
                bases[j] = (i, list(reversed(steps)))
                break
            step = _view_step(node)
            if step is None:
                break
            node, taken = step
            steps.extend(taken)

    def root(j):   # a base may itself be a view of another result
        i, steps = bases[j]
        if i in bases:
            i, inner = root(i)
            steps = inner + steps
        return i, steps
    out = list(views)
    for j in bases:
        i, steps = root(j)
        out[j] = OutputViewReplay(i, tuple(steps))
    return out


def _view_chain(node, placeholders: Dict[fx.Node, int],
                written: Set[fx.Node],
                new_values: Dict[fx.Node, int]) -> Optional[ViewReplay]:
    """The replay of `node` if view operators alone derive it from an
    unwritten placeholder, or (written=True) from the value copied into a
    placeholder at the end (`new_values`)."""
    steps: List[Tuple[Callable, tuple, Dict[str, Any]]] = []
    while isinstance(node, fx.Node) and node.op == "call_function":
        if node in new_values:
            return ViewReplay(new_values[node], tuple(reversed(steps)),
                              written=True)
        step = _view_step(node)
        if step is None:
            return None
        node, taken = step
        steps.extend(taken)
    if not isinstance(node, fx.Node) or node not in placeholders \
            or node in written:
        return None
    return ViewReplay(placeholders[node], tuple(reversed(steps)))


def _written_placeholders(graph: fx.Graph) -> Set[fx.Node]:
    """Placeholders an in-place operator writes, directly or through a
    view (copy_ of an input's new value after functionalization)."""
    return {storage_root(n.args[0]) for n in graph.nodes
            if n.op == "call_function" and n.args
            and _writes_first_argument(n.target)}


def output_views(gm: fx.GraphModule) -> List[Optional[Any]]:
    """For each flattened result of `gm`, its replay on the arguments when
    it is a view of one (of a written one's new value: a candidate, marked
    `written`), its OutputViewReplay when it is a view of another result;
    None otherwise."""
    graph = gm.graph
    placeholders = {n: i for i, n in enumerate(
        n for n in graph.nodes if n.op == "placeholder")}
    written = _written_placeholders(graph)
    # After functionalization a written argument gets its new value from
    # one copy_ at the end: the source node is the argument from then on.
    new_values = {n.args[1]: placeholders[n.args[0]] for n in graph.nodes
                  if n.op == "call_function" and n.target is aten.copy_.default
                  and n.args[0] in placeholders
                  and isinstance(n.args[1], fx.Node)}
    output = next(n for n in graph.nodes if n.op == "output")
    results = tree_flatten(output.args[0])[0]
    return _views_of_results(
        results, [_view_chain(r, placeholders, written, new_values)
                  for r in results])
