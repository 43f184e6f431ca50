"""--stax-range-analysis is a first-class transformation (Section 6.8,
Proposition 6.4): it drops only wraps and checks that the intervals prove
useless, substitutes loop-index-only index computations into addresses and
annotates index bit widths, so every function interprets *bitwise* the same
before and after it.

For every corpus model: the forward function (import_torch) and the
forward/backward pair of --stax-joint-graph + --stax-mincut are lowered,
then range-analysed, and both are interpreted on the same seeded random
inputs. A bounds check the analysis keeps still stops an out-of-range index
with an error that names the op, its node and the index.
"""

import re
import warnings

import numpy as np
import pytest

import stax
from stax import corpus

warnings.filterwarnings("ignore")

from test_lowering_corpus import _modules, assert_same_results

RANGE = "func.func(stax-range-analysis)"

def _lower(text, target="cpu", analyse=False):
    passes = "stax-decompose,func.func(stax-lower{target=%s})" % target
    if analyse:
        passes += "," + RANGE
    return stax.run_pipeline(text, "builtin.module(%s)" % passes)


CASES = [(m, kind) for m in corpus.names() for kind in ("forward", "mincut")]


@pytest.mark.parametrize("name,kind", CASES, ids=["-".join(c) for c in CASES])
def test_range_analysis_interprets_bitwise(name, kind):
    modules = dict(_modules(name))
    if kind not in modules:
        pytest.skip("no differentiable input")
    lowered = _lower(modules[kind])
    analysed = _lower(modules[kind], analyse=True)
    nodes = len(re.findall(r"= stax\.(?:pointwise|reduction|scatter|kernel)\b",
                           analysed))
    assert analysed.count("stax.index_bitwidth") == nodes
    assert_same_results(lowered, analysed)


G = """
func.func @g1(%x: tensor<128xf32>, %idx: tensor<128xi64>) -> tensor<128xf32> {
  %0 = tp.index %x[%idx] {dims = array<i64: 0>} : (tensor<128xf32>, tensor<128xi64>) -> tensor<128xf32>
  %1 = tp.mul.Scalar %0 {other = 2 : i64} : tensor<128xf32> -> tensor<128xf32>
  return %1 : tensor<128xf32>
}
func.func @g2(%x: tensor<128xf32>) -> tensor<128xf32> {
  %a = tp.arange {start = 0 : i64, end = 128 : i64} : tensor<128xi64>
  %m = tp.mul.Scalar %a {other = 3 : i64} : tensor<128xi64> -> tensor<128xi64>
  %r = tp.remainder.Scalar %m {other = 128 : i64} : tensor<128xi64> -> tensor<128xi64>
  %0 = tp.index %x[%r] {dims = array<i64: 0>} : (tensor<128xf32>, tensor<128xi64>) -> tensor<128xf32>
  %1 = tp.mul.Scalar %0 {other = 2 : i64} : tensor<128xf32> -> tensor<128xf32>
  return %1 : tensor<128xf32>
}
"""


def _function_text(module_text, name):
    start = module_text.index("func.func @%s(" % name)
    end = module_text.find("func.func @", start + 1)
    return module_text[start:end if end >= 0 else None]


def test_example_6_3():
    """g1 keeps the wrap and the check (Listing 6.5); g2 reads x directly at
    (3 * i) mod 128 (Listing 6.6), with the same values as before."""
    analysed = _lower(G, analyse=True)
    g1, g2 = _function_text(analysed, "g1"), _function_text(analysed, "g2")
    assert "{check_bounds, wrap_negative}" in g1
    assert "stax.indirect_index" not in g2
    assert "affine_map<(d0) -> ((d0 * 3) mod 128)>" in analysed
    x = np.arange(128, dtype=np.float32)
    (got,) = stax.interpret(analysed, "g2", x)
    assert np.array_equal(got, 2 * x[(np.arange(128) * 3) % 128])
    idx = np.arange(-128, 128, 2, dtype=np.int64)
    (got,) = stax.interpret(analysed, "g1", x, idx)
    assert np.array_equal(got, 2 * x[idx])


def test_kept_check_names_the_op_and_the_index():
    """An index the analysis could not prove in bounds still stops the run
    with the op, the node and the offending value, never a bad read."""
    analysed = _lower(G, analyse=True)
    x = np.zeros(128, dtype=np.float32)
    idx = np.zeros(128, dtype=np.int64)
    idx[5] = 200
    with pytest.raises(stax.StaxError) as err:
        stax.interpret(analysed, "g1", x, idx)
    msg = str(err.value)
    assert "'stax.indirect_index' op index 200 is out of bounds" in msg, msg
    assert "size 128" in msg and "'stax.pointwise'" in msg, msg
    assert "loop indices (5)" in msg, msg
