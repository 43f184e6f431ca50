"""Gradients of the joint graph (interpreted) against torch.autograd.grad.

For every corpus model: import, run --stax-joint-graph, interpret in float32
with an all-ones upstream gradient, and compare each gradient with PyTorch's.
The tolerance is the first-order error bound of docs/Numerics.md applied to
the gradient computation itself (make_fx traces torch.autograd.grad into the
backward ops, whose rounding errors the bound accounts for); the float64
interpretation must match PyTorch's float64 gradients much more tightly.

Second order, on the MLP, LayerNorm, softmax and LSTM-cell models:
- Hessian-vector products by forward over reverse (--stax-jvp on the joint
  graph) against torch.autograd.grad(create_graph=True) twice;
- the gradient of the squared gradient norm by reverse over reverse
  (--stax-joint-graph applied twice).
Second-order comparisons are in float64 (they check the rules, not
rounding), with a relative tolerance of 1e-9.
"""

import numpy as np
import pytest
import torch

import stax
from stax import corpus
from stax.numerics import error_bound

MODELS = corpus.names() if hasattr(corpus, "names") else sorted(corpus.MODELS)
SECOND_ORDER = ["mlp_gelu", "layernorm", "softmax_ce", "lstm_cell"]


def _diff_inputs(inputs):
    return [i for i, x in enumerate(inputs) if x.requires_grad]


def _torch_grads(fn, inputs, dtype=torch.float32):
    xs = [x.detach().to(dtype) if x.is_floating_point() else x for x in inputs]
    for i in _diff_inputs(inputs):
        xs[i].requires_grad_(True)
    out = fn(*xs)
    gs = torch.autograd.grad(out, [xs[i] for i in _diff_inputs(inputs)],
                             torch.ones_like(out))
    return [g.detach().numpy() for g in gs]


def _joint(fn, inputs):
    text = stax.import_torch(fn, *inputs)
    return stax.run_pipeline(text, "builtin.module(stax-joint-graph)")


def _run_joint(joint_text, fn, inputs, f64):
    out = fn(*inputs)
    ones = np.ones(tuple(out.shape), np.float64 if f64 else np.float32)
    args = [x.detach().numpy() for x in inputs] + [ones]
    res = stax.interpret(joint_text, "forward", *args, f64=f64)
    return res[1:]


@pytest.mark.parametrize("name", MODELS)
def test_gradients_match_pytorch(name):
    model = corpus.get(name)
    inputs = model.make_inputs()
    diff = _diff_inputs(inputs)
    if not diff:
        pytest.skip("no input requires grad")
    joint = _joint(model.fn, inputs)
    ours32 = _run_joint(joint, model.fn, inputs, f64=False)
    ours64 = _run_joint(joint, model.fn, inputs, f64=True)
    torch32 = _torch_grads(model.fn, inputs)
    torch64 = _torch_grads(model.fn, inputs, torch.float64)
    assert len(ours32) == len(diff)

    def grad_fn(*xs):
        out = model.fn(*xs)
        return torch.autograd.grad(out, [xs[i] for i in diff], torch.ones_like(out))

    bounds = error_bound(grad_fn, *inputs)
    for k, b in enumerate(bounds):
        tol = b.tol.numpy()
        assert ours32[k].shape == torch32[k].shape
        assert np.all(np.abs(ours32[k] - torch32[k]) <= tol), (
            "%s grad #%d: max |ours - torch| = %.3g, tolerance at that point %.3g"
            % (name, k, np.max(np.abs(ours32[k] - torch32[k])),
               tol.flat[np.argmax(np.abs(ours32[k] - torch32[k]))]))
        np.testing.assert_allclose(ours64[k], torch64[k], rtol=1e-9,
                                   atol=1e-12 * max(1.0, np.abs(torch64[k]).max()))


def _hvp_torch(fn, inputs, vs):
    xs = [x.detach().double() if x.is_floating_point() else x for x in inputs]
    diff = _diff_inputs(inputs)
    for i in diff:
        xs[i].requires_grad_(True)
    out = fn(*xs)
    gs = torch.autograd.grad(out, [xs[i] for i in diff], torch.ones_like(out),
                             create_graph=True)
    dot = sum((g * v).sum() for g, v in zip(gs, vs))
    hs = torch.autograd.grad(dot, [xs[i] for i in diff], allow_unused=True)
    # An input the gradients do not depend on (a bias) has a zero HVP.
    return [(h if h is not None else torch.zeros_like(xs[i])).detach().numpy()
            for h, i in zip(hs, diff)]


@pytest.mark.parametrize("name", SECOND_ORDER)
def test_hessian_vector_product(name):
    model = corpus.get(name)
    inputs = model.make_inputs()
    diff = _diff_inputs(inputs)
    rng = np.random.default_rng(0)
    vs = [rng.uniform(-1, 1, tuple(inputs[i].shape)) for i in diff]
    joint = _joint(model.fn, inputs)
    # Forward over reverse: tangents for the differentiated primals only.
    wrt = ",".join(str(i) for i in diff)
    hvp_text = stax.run_pipeline(
        joint, "builtin.module(stax-jvp{wrt=%s})" % wrt)
    out = model.fn(*inputs)
    args = [x.detach().double().numpy() if x.is_floating_point() else x.numpy()
            for x in inputs] + [np.ones(tuple(out.shape))] + vs
    res = stax.interpret(hvp_text, "forward", *args, f64=True)
    n_out = 1 + len(diff)           # the joint's outputs: loss, grads
    tangents = res[n_out:]          # tangents of loss, then of each grad
    ours = tangents[1:]
    ref = _hvp_torch(model.fn, inputs, [torch.from_numpy(v) for v in vs])
    for o, r in zip(ours, ref):
        np.testing.assert_allclose(o, r, rtol=1e-9, atol=1e-12 * max(1, np.abs(r).max()))


@pytest.mark.parametrize("name", SECOND_ORDER)
def test_gradient_of_gradient_norm(name):
    """d/dx ||grad f(x)||^2 / 2 = H grad f: reverse over reverse, with the
    second pass seeded by the first gradients (the adjoint of each grad
    output is the grad itself)."""
    model = corpus.get(name)
    inputs = model.make_inputs()
    diff = _diff_inputs(inputs)
    joint = _joint(model.fn, inputs)
    joint2 = stax.run_pipeline(joint, "builtin.module(stax-joint-graph)")
    out = model.fn(*inputs)
    primals = [x.detach().double().numpy() if x.is_floating_point() else x.numpy()
               for x in inputs]
    ones = np.ones(tuple(out.shape))
    grads = stax.interpret(joint, "forward", *(primals + [ones]), f64=True)[1:]
    # Second joint: primals, first tangent (ones), then one tangent per output
    # of the first joint: the loss (zero weight) and each gradient.
    res = stax.interpret(joint2, "forward",
                         *(primals + [ones, np.zeros(tuple(out.shape))] + grads),
                         f64=True)
    ours = res[1 + len(diff):][: len(diff)]
    ref = _hvp_torch(model.fn, inputs, [torch.from_numpy(g) for g in grads])
    for o, r in zip(ours, ref):
        np.testing.assert_allclose(o, r, rtol=1e-9, atol=1e-12 * max(1, np.abs(r).max()))
