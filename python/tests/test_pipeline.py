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
