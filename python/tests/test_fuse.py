"""--stax-fuse is a first-class transformation (Section 6.9): a kernel runs
its nodes in order over shared outer loops, so every fused function must
interpret *bitwise* like the lowered one.

For every corpus model: the forward function (import_torch) and the
forward/backward pair that --stax-joint-graph + --stax-mincut produce are
lowered for cpu and for cuda, then fused, and interpreted on the same
seeded random inputs (np.array_equal, dtypes equal). The models with row
reductions (softmax, layer norm, attention) must come out with fewer
top-level nodes than they went in.
"""

import re
import warnings

import numpy as np
import pytest

import stax
from stax import corpus

from test_lowering_corpus import _modules, assert_same_results

warnings.filterwarnings("ignore")

CASES = [(m, kind, target) for m in corpus.names()
         for kind in ("forward", "mincut") for target in ("cpu", "cuda")]

_LOWER = "builtin.module(stax-decompose,func.func(stax-lower{target=%s}))"
_FUSE = "builtin.module(func.func(stax-fuse{remarks=false}))"

# Models whose graphs hold a row reduction read back at its own row.
FEWER = ("softmax_ce", "layernorm", "attention", "transformer_encoder")

_NODE = re.compile(r"= stax\.(pointwise|reduction|scatter|kernel)\b")


def _top_level_nodes(text):
    """Nodes and kernels directly in function bodies (4-space indent)."""
    return sum(1 for line in text.splitlines()
               if line.startswith("    %") and _NODE.search(line))


def _lower_and_fuse(tp_text, target):
    lowered = stax.run_pipeline(tp_text, _LOWER % target)
    return lowered, stax.run_pipeline(lowered, _FUSE)


@pytest.mark.parametrize("name,kind,target", CASES,
                         ids=["-".join(c) for c in CASES])
def test_fused_interprets_bitwise(name, kind, target):
    modules = dict(_modules(name))
    if kind not in modules:
        pytest.skip("no differentiable input")
    tp_text = modules[kind]
    lowered, fused = _lower_and_fuse(tp_text, target)
    assert_same_results(lowered, fused)


@pytest.mark.parametrize("target", ("cpu", "cuda"))
@pytest.mark.parametrize("name", FEWER)
def test_fusion_reduces_nodes(name, target):
    for kind, tp_text in _modules(name):
        lowered, fused = _lower_and_fuse(tp_text, target)
        before, after = _top_level_nodes(lowered), _top_level_nodes(fused)
        print("%s %s %s: %d -> %d top-level nodes"
              % (name, kind, target, before, after))
        assert "stax.kernel" in fused, (name, kind)
        assert after < before, (name, kind, before, after)


_SOFTMAX = """
func.func @forward(%x: tensor<4x6xf32>) -> tensor<4x6xf32> {
  %0 = tp._softmax %x {dim = 1 : i64} : tensor<4x6xf32> -> tensor<4x6xf32>
  return %0 : tensor<4x6xf32>
}
"""


def test_softmax_is_one_kernel():
    """Max, exp, sum and divide over one row: one kernel, one result (on the
    cpu target the exp is materialized: four nodes before fusion)."""
    lowered, fused = _lower_and_fuse(_SOFTMAX, "cpu")
    assert _top_level_nodes(lowered) == 4, lowered
    assert _top_level_nodes(fused) == 1, fused
    assert re.search(r"stax\.kernel \[4\] : tensor<4x6xf32>", fused), fused
    x = np.random.default_rng(0).standard_normal((4, 6)).astype(np.float32)
    assert np.array_equal(stax.interpret(lowered, "forward", x)[0],
                          stax.interpret(fused, "forward", x)[0])
