"""When two nodes of a traced graph compute the same value."""

from __future__ import annotations

import torch.fx as fx


def is_random(target) -> bool:
    """Whether an ATen op draws random numbers (two calls differ)."""
    name = getattr(getattr(target, "overloadpacket", None), "__name__", "")
    return any(w in name for w in ("rand", "bernoulli", "normal", "dropout",
                                   "uniform", "exponential", "multinomial",
                                   "poisson", "cauchy", "geometric"))


def same_value(a, b, depth: int = 8) -> bool:
    """The same value: one node, or the same deterministic op of the same
    operands (compared as deep as `depth`; `x > 0` written twice, two
    views of one mask)."""
    if a is b:
        return True
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(same_value(x, y, depth)
                                        for x, y in zip(a, b))
    if not (isinstance(a, fx.Node) and isinstance(b, fx.Node)):
        return not isinstance(a, fx.Node) and not isinstance(b, fx.Node) \
            and type(a) is type(b) and a == b
    return (depth > 0 and a.op == b.op == "call_function"
            and a.target == b.target and not is_random(a.target)
            and same_value(a.args, b.args, depth - 1)
            and a.kwargs.keys() == b.kwargs.keys()
            and all(same_value(a.kwargs[k], b.kwargs[k], depth - 1)
                    for k in a.kwargs))
