"""Checks shared by the tests that compile corpus models (cpu and cuda):
outputs and gradients against the float64 reference within the error bound
of docs/Numerics.md, every element."""

import torch

import stax
from stax._capi import StaxError
from stax.numerics import error_bound


def cuda_unavailable():
    """Why target=cuda cannot run here (the launcher's message), or None
    on a GPU machine."""
    try:
        stax.cuda_device()
        return None
    except StaxError as e:
        return str(e)


def outputs(r):
    return list(r) if isinstance(r, (tuple, list)) else [r]


def loss(outs):
    return sum(o.sum() for o in outs if o.is_floating_point())


def check_within_bound(name, model, inputs, xs, outs):
    """`outs` are the compiled function's outputs on `xs` (copies of
    `inputs`, with their requires_grad): each output, then each gradient of
    the sum of the outputs, within the bound around the float64 value."""
    for o, b in zip(outs, error_bound(model.fn, *inputs)):
        assert torch.all((o.detach().double() - b.ref).abs() <= b.tol), name
    wrt = [x for x in xs if x.requires_grad]
    if not wrt:
        return
    grads = torch.autograd.grad(loss(outs), wrt)

    def reference(*ts):
        ts = [t.detach().requires_grad_(t.requires_grad) for t in ts]
        return torch.autograd.grad(loss(outputs(model.fn(*ts))),
                                   [t for t in ts if t.requires_grad])

    for g, b in zip(grads, error_bound(reference, *inputs)):
        assert torch.all((g.double() - b.ref).abs() <= b.tol), name
