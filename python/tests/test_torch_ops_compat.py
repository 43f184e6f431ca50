"""stax._ops: the operator tables load under a PyTorch that lacks some of
the operators they name (PyTorch 2.x removed prims.to_dtype and
aten._scaled_dot_product_attention_forward, which 1.13 has)."""

import pytest
import torch

from stax._capi import StaxError
from stax._ops import MissingOp, OpNamespace, aten


def test_present_operators_are_pytorchs_own():
    assert aten.add.Tensor is torch.ops.aten.add.Tensor
    assert aten.__lshift__.Tensor is torch.ops.aten.__lshift__.Tensor


def test_missing_operator_is_falsy_and_matches_no_node():
    op = aten.no_such_operator_in_any_pytorch
    assert isinstance(op, MissingOp)
    assert not op and not op.default and not op.Tensor
    assert op.default != aten.add.Tensor
    assert "aten.no_such_operator_in_any_pytorch" in repr(op)


def test_calling_a_missing_operator_names_it():
    with pytest.raises(StaxError, match=r"operator aten\.no_such_op_x is not "
                                        r"in PyTorch"):
        aten.no_such_op_x.default(torch.ones(2))


def test_python_protocol_probes_are_not_operators():
    ns = OpNamespace("aten")
    with pytest.raises(AttributeError):
        ns.__deepcopy__
    assert getattr(aten.no_such_op_y, "__wrapped__", None) is None


def test_tables_hold_no_missing_operator():
    from stax import decompositions, importer
    assert all(k for k in importer._TABLE)
    assert all(k for k in decompositions.DECOMPOSITIONS)
