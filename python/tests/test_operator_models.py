"""The operator models of the corpus (corpus.OPERATOR_MODELS): a small CNN
(convolution, batch norm, pooling), cumulative ops and sorting, padding and
upsampling, all imported through stax/decompositions.py.

For each model:
- gradients of --stax-joint-graph, interpreted in float64, against
  torch.autograd.grad in float64, and the float32 loss against eager
  PyTorch, within the generic bound of opinfo_sweep.py (float32's: the
  decompositions bake float32 constants);
- --stax-lower is bitwise equal to the tp function (forward and joint);
- --stax-mincut runs, and forward + backward give exactly the gradients of
  the un-partitioned joint graph;
- stax.compile trains: three SGD steps of compiled code against eager
  PyTorch (losses and every parameter within the generic float32 bound).
"""

import json
import os
import tempfile

import numpy as np
import pytest
import torch

import opinfo_sweep as sweep
import stax
from stax import corpus

NAMES = sorted(corpus.OPERATOR_MODELS)
LOWER = "builtin.module(stax-decompose,func.func(stax-lower))"


def _diff(inputs):
    return [i for i, x in enumerate(inputs) if x.requires_grad]


def _np(x, f64=False):
    a = x.detach().numpy()
    return a.astype(np.float64) if f64 and a.dtype == np.float32 else a


def _torch64(fn, inputs):
    xs = [x.detach().double() if x.is_floating_point() else x.detach()
          for x in inputs]
    diff = _diff(inputs)
    for i in diff:
        xs[i].requires_grad_(True)
    out = fn(*xs)
    return out, torch.autograd.grad(out, [xs[i] for i in diff])


@pytest.mark.parametrize("name", NAMES)
def test_gradients_and_lowering(name):
    m = corpus.get(name)
    inputs = m.make_inputs()
    text = stax.import_torch(m.fn, *inputs)
    joint = stax.run_pipeline(text, "builtin.module(stax-joint-graph)")
    out64, want = _torch64(m.fn, inputs)
    args64 = [_np(x, True) for x in inputs]
    res = stax.interpret(joint, "forward", *args64, np.ones(()), f64=True)
    # The decompositions bake float32 constants (interpolation weights,
    # pooling divisors) into the function, which PyTorch's float64 run
    # computes in double: the bound is the float32 one.
    sweep._compare("grad", res, [out64.detach(), *want], list(inputs),
                   2.0 ** -24)
    # float32 forward against eager PyTorch.
    (ours32,) = stax.interpret(text, "forward", *[_np(x) for x in inputs])
    sweep._compare("forward", [ours32], [m.fn(*inputs).detach()], list(inputs),
                   2.0 ** -24)
    # Lowering is a first-class transformation: bitwise.
    args32 = [_np(x) for x in inputs]
    for t, extra in ((text, []), (joint, [np.ones((), np.float32)])):
        want32 = stax.interpret(t, "forward", *args32, *extra)
        got32 = stax.interpret(stax.run_pipeline(t, LOWER), "forward",
                               *args32, *extra)
        for g, w in zip(got32, want32):
            assert g.tobytes() == w.tobytes()


@pytest.mark.parametrize("name", NAMES)
def test_mincut_partition(name):
    m = corpus.get(name)
    inputs = m.make_inputs()
    joint = stax.run_pipeline(stax.import_torch(m.fn, *inputs),
                              "builtin.module(stax-joint-graph)")
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "report.json")
        split = stax.run_pipeline(joint,
                                  "builtin.module(stax-mincut{report=%s})" % path)
        with open(path) as f:
            (entry,) = json.load(f)["functions"]
    args = [_np(x) for x in inputs]
    ones = np.ones((), np.float32)
    full = stax.interpret(joint, "forward", *args, ones)
    fw = stax.interpret(split, entry["forward"], *args)
    saved_inputs = [int(s["name"].split("_")[1]) - 1 for s in entry["saved"]
                    if s["kind"] == "input"]
    bw = stax.interpret(split, entry["backward"],
                        *[args[k] for k in saved_inputs], *fw[1:], ones)
    assert fw[0].tobytes() == full[0].tobytes()
    assert len(bw) == len(full) - 1
    for g, w in zip(bw, full[1:]):
        assert g.tobytes() == w.tobytes()


@pytest.mark.parametrize("name", NAMES)
def test_compiled_training_matches_eager(name):
    m = corpus.get(name)
    ours = [x.detach().clone().requires_grad_(x.requires_grad)
            for x in m.make_inputs()]
    ref = [x.detach().clone().requires_grad_(x.requires_grad)
           for x in m.make_inputs()]
    f = stax.compile(m.fn)
    diff = _diff(ours)
    for step in range(3):
        loss = f(*ours)
        loss_ref = m.fn(*ref)
        sweep._compare("loss", [loss.detach().numpy()], [loss_ref.detach()],
                       ref, 2.0 ** -24)
        gs = torch.autograd.grad(loss, [ours[i] for i in diff])
        gs_ref = torch.autograd.grad(loss_ref, [ref[i] for i in diff])
        sweep._compare("grad", [g.numpy() for g in gs], list(gs_ref), ref,
                       2.0 ** -24)
        # A step of at most 0.1 per element: the losses are sums with
        # gradients up to ~1e4, and a diverging run would compare rounding
        # noise amplified by the divergence.
        lr = 0.1 / max(1.0, max(float(g.abs().max()) for g in gs_ref))
        with torch.no_grad():
            for i, g, g_ref in zip(diff, gs, gs_ref):
                ours[i] -= lr * g
                ref[i] -= lr * g_ref
