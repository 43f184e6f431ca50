"""stax.compile on every corpus model: forward outputs and gradients against
the float64 reference within the error bound of docs/Numerics.md (the
bound each element's computation admits, Section 6.5), every element."""

import warnings

import pytest

import stax
from stax import corpus
from corpus_checks import check_within_bound, outputs


@pytest.mark.parametrize("name", corpus.names())
def test_compiled_model_within_error_bound(name):
    model = corpus.get(name)
    inputs = model.make_inputs()
    compiled = stax.compile(model.fn)
    xs = [t.detach().clone().requires_grad_(t.requires_grad) for t in inputs]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        outs = outputs(compiled(*xs))
    # Compiled whole: nothing was left to PyTorch.
    assert not [w for w in caught if "stax.compile" in str(w.message)]
    check_within_bound(name, model, inputs, xs, outs)
