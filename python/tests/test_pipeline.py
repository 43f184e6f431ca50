"""--stax-lowering-pipeline: lower, split reductions (cuda), fuse, normalize
loops, range analysis. On the corpus every pass is first-class (no
reduction of the corpus is long enough to split with the default H100/H200
parameters), so the whole pipeline must interpret bit for bit like the tp
functions, for both targets."""

import re
import warnings

import pytest

import stax
from stax import corpus

from test_lowering_corpus import _modules, assert_same_results

warnings.filterwarnings("ignore")

CASES = [(m, t) for m in corpus.names() for t in ("cpu", "cuda")]


@pytest.mark.parametrize("name,target", CASES, ids=["-".join(c) for c in CASES])
def test_pipeline_is_bitwise_on_corpus(name, target):
    for kind, text in _modules(name):
        out = stax.run_pipeline(
            text, "builtin.module(stax-lowering-pipeline{target=%s})" % target)
        assert not re.search(r"= tp\.(?!mm|bmm|constant)", out), out
        assert_same_results(text, out)


def test_failing_pipeline_writes_a_reproducer(tmp_path, monkeypatch):
    # A pass failure leaves MLIR's reproducer in $TMPDIR and the error says
    # where; the file holds the input and the pipeline that failed.
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    text = """
func.func @f(%a: tensor<3xf32>) -> tensor<3xf32> {
  %0 = tp.mul_ %a, %a : tensor<3xf32>, tensor<3xf32> -> tensor<3xf32>
  return %0 : tensor<3xf32>
}
"""
    with pytest.raises(stax.StaxError) as e:
        stax.run_pipeline(text, "builtin.module(func.func(stax-lower))")
    first = str(e.value).splitlines()[0]
    assert "in-place op 'tp.mul_': --stax-lower needs functional tp" in first
    m = re.search(r"reproducer generated at `([^`]+)`", str(e.value))
    assert m, str(e.value)
    path = m.group(1)
    assert path.startswith(str(tmp_path))
    repro = open(path).read()
    assert "tp.mul_" in repro and "stax-lower" in repro
    # A pipeline that succeeds writes nothing.
    stax.run_pipeline(text, "builtin.module(stax-functionalize)")
    assert [p.name for p in tmp_path.iterdir()] == [path.rsplit("/", 1)[1]]
