"""A slice of opinfo_dtypes.py (OpInfo samples in integer, bool, float64
and bfloat16 through stax.compile) in the test suite.

Each (entry, dtype) below must compile without running in PyTorch and give
eager's results on its first two samples: dtypes and shapes equal, integer
and bool results equal, float results within opinfo_sweep's generic bound.
The slice holds every pair the whole sweep found wrong or falling back
(each fixed), and the common operators of models' index, mask and image
arithmetic.
"""

import zlib

import pytest
import torch

import opinfo_dtypes

SLICE = {
    torch.int64: [
        # found: float scalars truncate, integer pools divide in integers,
        # 0-d shift counts, a float function's -inf, remainders by 0 of
        # empty index tensors
        "addmv", "addbmm", "nn.functional.avg_pool1d",
        "nn.functional.avg_pool2d", "nn.functional.avg_pool3d",
        "nn.functional.local_response_norm", "bitwise_left_shift",
        "bitwise_right_shift", "special.entr", "triu_indices", "tril_indices",
        "linspace", "logspace",
        # common
        "remainder", "floor_divide", "div.floor_rounding", "cumsum", "sum",
        "prod", "where", "index_put", "gather", "argmax", "clamp",
    ],
    torch.bool: [
        "acosh", "asinh", "atanh", "mode", "scatter", "scatter_reduce.sum",
        "scatter_reduce.prod", "scatter_reduce.amax", "scatter_reduce.amin",
        "special.entr", "special.log_ndtr",
        "any", "all", "logical_and", "logical_xor", "masked_fill",
    ],
    torch.uint8: [
        "ldexp", "matmul", "mm", "bmm", "nn.functional.bilinear",
        "nn.functional.linear", "index_reduce", "scatter_reduce.sum",
        "scatter_reduce.mean", "special.log_ndtr", "special.entr",
        "add", "mul", "sub", "div.no_rounding_mode", "bitwise_and",
    ],
    torch.int32: ["addmm", "baddbmm", "tensordot", "nn.functional.linear",
                  "dot", "linalg.multi_dot", "nn.functional.bilinear"],
    torch.float64: ["index_fill", "xlogy", "special.xlog1py", "linspace",
                    "nn.functional.nll_loss", "logsumexp"],
    torch.bfloat16: ["native_layer_norm", "nn.functional.layer_norm",
                     "nn.functional.group_norm", "nn.functional.batch_norm"],
}

_CASES = [(name, dtype) for dtype, names in SLICE.items() for name in names]
_OPS = {}


def _op(name, dtype):
    if dtype not in _OPS:
        _OPS[dtype] = {opinfo_dtypes.sweep.entry_name(op): op
                       for op in opinfo_dtypes.entries(dtype)}
    return _OPS[dtype][name]


@pytest.mark.parametrize("name,dtype", _CASES,
                         ids=[f"{n}-{str(d)[6:]}" for n, d in _CASES])
def test_opinfo_entry_in_dtype(name, dtype):
    # OpInfo's samples come from the global generator (test_opinfo.py).
    torch.manual_seed(zlib.crc32(f"{name}-{dtype}".encode()))
    outcomes = opinfo_dtypes.check_entry(_op(name, dtype), dtype, max_samples=2)
    assert outcomes
    bad = [(k, o, d) for k, (o, d) in enumerate(outcomes) if o not in ("ok", "eager")]
    assert not bad, bad
    assert any(o == "ok" for o, _ in outcomes)
