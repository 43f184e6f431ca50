"""stax.compile(check_nan=True): a NaN stored by compiled code is a StaxError
naming the node, its location, the element and the function; without the
option the NaN comes back in the result, as in eager PyTorch."""

import pytest
import torch

import stax
from stax._capi import StaxError


def log2x(x):
    return torch.log(x) * 2


def input_with_negative():
    x = torch.arange(1, 41, dtype=torch.float32)
    x[5] = -1.0
    return x


def test_check_nan_raises_naming_the_node_and_the_element():
    f = stax.compile(log2x, check_nan=True)
    with pytest.raises(StaxError, match=r"^NaN at element 5 of the result of "
                       r"'stax\.pointwise' at loc\(.*\) in @forward$"):
        f(input_with_negative())


def test_run_time_errors_name_the_pytorch_operator():
    """Compiled code keeps the importer's locations (the FX node and its
    ATen overload): a NaN and an index out of bounds name the operator that
    produced them, not a line of an internal module text."""
    f = stax.compile(log2x, check_nan=True)
    with pytest.raises(StaxError, match=r"at loc\(\"mul \(aten\.mul\.Tensor\)\"\)"):
        f(input_with_negative())
    g = stax.compile(lambda x, i: x.exp()[i].sum())
    g(torch.ones(4), torch.tensor([0]))
    with pytest.raises(StaxError, match=r"index 9 is out of bounds .* at "
                       r"loc\(\"index \(aten\.index\.Tensor\)\"\)"):
        g(torch.ones(4), torch.tensor([9]))


def test_check_nan_keeps_the_other_options():
    f = stax.compile(log2x, check_nan=True,
                     options="vector-width=1 parallel=false")
    with pytest.raises(StaxError, match="NaN at element 5 of the result"):
        f(input_with_negative())


def test_check_nan_passes_clean_results():
    f = stax.compile(log2x, check_nan=True)
    x = torch.arange(1, 41, dtype=torch.float32)
    torch.testing.assert_close(f(x), log2x(x))


def test_without_check_nan_the_nan_is_returned():
    x = input_with_negative()
    y = stax.compile(log2x)(x)
    assert torch.isnan(y[5])
    assert torch.isnan(y).sum() == 1
    torch.testing.assert_close(y, log2x(x), equal_nan=True)


def test_check_nan_in_a_reduction():
    x = torch.ones(4, 32)
    x[2, 7] = float("nan")
    f = stax.compile(lambda t: t.sum(dim=1), check_nan=True)
    with pytest.raises(StaxError, match=r"NaN at element 2 of the result of "
                       r"'stax\.reduction'"):
        f(x)
