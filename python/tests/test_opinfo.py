"""A slice of the OpInfo sweep (opinfo_sweep.py) in the test suite.

Each entry below must pass all four stages (forward against eager PyTorch
in float32 and float64, joint-graph gradients against torch.autograd.grad,
lowering bitwise equal to the tp function, stax.compile's results and
gradients against eager float64) on its first two sample inputs.
The slice covers every decomposition family of stax/decompositions.py and
PyTorch decompositions the importer relies on; the whole database is
`python/tests/opinfo_sweep.py` (see its docstring).
"""

import zlib

import pytest
import torch

import opinfo_sweep as sweep

SLICE = [
    # layout
    "flip", "roll", "rot90", "constant_pad_nd", "nn.functional.pad.reflect",
    "nn.functional.pad.replicate", "nn.functional.pad.circular", "repeat",
    "tile", "diag", "slice_scatter", "select_scatter", "diagonal_scatter",
    "unfold", "take", "block_diag",
    # elementwise
    "acosh", "asinh", "atanh", "signbit", "copysign", "fmax", "fmin",
    "heaviside", "logaddexp", "hypot", "nan_to_num", "lerp", "xlogy",
    "addcmul", "addcdiv", "round.decimals_3", "deg2rad", "isinf",
    # nn
    "nn.functional.hardswish", "nn.functional.glu", "nn.functional.prelu",
    "nn.functional.celu", "nn.functional.threshold", "logit",
    "nn.functional.smooth_l1_loss", "nn.functional.huber_loss",
    "nn.functional.binary_cross_entropy", "nn.functional.logsigmoid",
    "nn.functional.cross_entropy",
    "nn.functional.batch_norm", "nn.functional.group_norm",
    "nn.functional.conv1d", "nn.functional.conv2d",
    "nn.functional.conv_transpose2d", "nn.functional.avg_pool2d",
    "nn.functional.max_pool2d", "nn.functional.adaptive_avg_pool2d",
    "nn.functional.adaptive_max_pool1d", "nn.functional.upsample_nearest",
    "nn.functional.interpolate.bilinear",
    # reductions, products, cumulative, sorting, scatter
    "std", "var_mean", "nansum", "linalg.vector_norm", "norm", "dist",
    "mv", "addmv", "addbmm", "vdot", "cross", "cumsum", "cumprod",
    "logcumsumexp", "cummax", "topk", "kthvalue", "median",
    "scatter_reduce.amax", "scatter_reduce.mean", "index_add",
    "masked_scatter", "searchsorted", "nn.functional.embedding_bag",
    "as_strided_scatter", "multinomial", "sgn",
    # compiled code: 0-d reductions and indexing, random ops, integer
    # floor division, results with zero gradients, empty tensors
    "sum", "argmax", "index_select", "gather", "uniform", "bernoulli",
    "nn.functional.dropout", "nanmedian", "fill", "zero_", "fliplr",
    # external kernels with eager's algorithms
    "nn.functional.ctc_loss", "quantile", "nn.functional.max_unpool2d",
]

_ENTRIES = {sweep.entry_name(op): (op, why) for op, why in sweep.load_entries()}


def test_exclusions_name_real_entries():
    # The exclusion list cannot go stale: every name is an OpInfo entry.
    missing = sorted(set(sweep.EXCLUDED) - set(_ENTRIES))
    assert not missing, missing


@pytest.mark.parametrize("name", SLICE)
def test_opinfo_entry(name):
    op, why = _ENTRIES[name]
    assert why is None, f"{name} is excluded: {why}"
    # OpInfo draws its samples from the global generator: seeded per entry,
    # they do not depend on which tests ran before.
    torch.manual_seed(zlib.crc32(name.encode()))
    res = sweep.check_entry(op, max_samples=2)
    assert res.failure is None, f"{name}: {res.failure}"
    assert res.passed == list(sweep.STAGES)
    assert res.samples >= 1
