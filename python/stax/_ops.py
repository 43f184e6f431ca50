"""`torch.ops` namespaces that tolerate operators this PyTorch lacks.

The importer's and the decompositions' tables name ATen and prims operators
of the PyTorch they were written against (1.13); PyTorch renames and removes
private ones between releases (`prims.to_dtype`,
`aten._scaled_dot_product_attention_forward`). Through these namespaces a
missing operator is a `MissingOp`: a table entry keyed by one matches no
traced node, so the table still loads and everything else still maps, and
calling one raises an error naming it."""

from __future__ import annotations

import torch

from ._capi import StaxError


class MissingOp:
    """An operator (or any overload of it) that this PyTorch does not have."""

    def __init__(self, name: str):
        self._name = name

    def __getattr__(self, attr: str):
        if attr.startswith("__"):
            raise AttributeError(attr)
        return self

    def __bool__(self) -> bool:  # `getattr(aten, name, None)` tests stay
        return False

    def __call__(self, *args, **kwargs):
        raise StaxError(f"operator {self._name} is not in PyTorch "
                        f"{torch.__version__}")

    def __repr__(self) -> str:
        return f"<operator {self._name}: not in PyTorch {torch.__version__}>"


class OpNamespace:
    """`torch.ops.<name>` whose missing operators are `MissingOp`s."""

    def __init__(self, name: str):
        self._name = name
        self._ns = getattr(torch.ops, name)

    def __getattr__(self, op: str):
        try:
            return getattr(self._ns, op)  # aten.__lshift__ is an operator
        except (AttributeError, RuntimeError):
            if op.startswith("__") and op.endswith("__"):
                raise AttributeError(op) from None  # copy, pickle probes
            return MissingOp(f"{self._name}.{op}")


aten = OpNamespace("aten")
prims = OpNamespace("prims")
