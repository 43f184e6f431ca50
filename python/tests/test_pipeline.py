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


def test_an_ordinary_pipeline_failure_leaves_no_reproducer(tmp_path, monkeypatch):
    # stax.compile expects some pipelines to fail (no result depends
    # differentiably on the inputs): each left MLIR's reproducer in $TMPDIR
    # (576 had piled up in /tmp). Only a crash keeps one now; the error is
    # the pass's own, without MLIR's note pointing to a file.
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    text = """
func.func @f(%a: tensor<3xf32>) -> tensor<3xf32> {
  %0 = tp.mul_ %a, %a : tensor<3xf32>, tensor<3xf32> -> tensor<3xf32>
  return %0 : tensor<3xf32>
}
"""
    with pytest.raises(stax.StaxError) as e:
        stax.run_pipeline(text, "builtin.module(func.func(stax-lower))")
    message = str(e.value)
    assert message.splitlines()[0].endswith(
        "error: in-place op 'tp.mul_': --stax-lower needs functional tp; "
        "run --stax-functionalize first")
    assert "reproducer" not in message and "Failures have been" not in message
    assert message.rstrip().endswith("^")   # the source line and its caret
    stax.run_pipeline(text, "builtin.module(stax-functionalize)")
    assert list(tmp_path.iterdir()) == []
