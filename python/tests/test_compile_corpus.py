"""stax.compile on every corpus model: forward outputs and gradients against
the float64 reference within the error bound of docs/Numerics.md (the
bound each element's computation admits, Section 6.5), every element."""

import warnings

import pytest
import torch

import stax
from stax import corpus
from stax.numerics import error_bound


def _outputs(r):
    return list(r) if isinstance(r, (tuple, list)) else [r]


def _loss(outs):
    return sum(o.sum() for o in outs if o.is_floating_point())


@pytest.mark.parametrize("name", corpus.names())
def test_compiled_model_within_error_bound(name):
    model = corpus.get(name)
    inputs = model.make_inputs()
    compiled = stax.compile(model.fn)
    xs = [t.detach().clone().requires_grad_(t.requires_grad) for t in inputs]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        outs = _outputs(compiled(*xs))
    # Compiled whole: nothing was left to PyTorch.
    assert not [w for w in caught if "stax.compile" in str(w.message)]
    for o, b in zip(outs, error_bound(model.fn, *inputs)):
        assert torch.all((o.detach().double() - b.ref).abs() <= b.tol), name

    wrt = [x for x in xs if x.requires_grad]
    if not wrt:
        return
    grads = torch.autograd.grad(_loss(outs), wrt)

    def reference(*ts):
        ts = [t.detach().requires_grad_(t.requires_grad) for t in ts]
        return torch.autograd.grad(_loss(_outputs(model.fn(*ts))),
                                   [t for t in ts if t.requires_grad])

    for g, b in zip(grads, error_bound(reference, *inputs)):
        assert torch.all((g.double() - b.ref).abs() <= b.tol), name
