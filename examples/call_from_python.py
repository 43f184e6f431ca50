"""Runs examples/model.mlir from Python (docs/WritingTp.md): the forward and
backward that --stax-joint-graph and --stax-mincut make of it, first with
the reference interpreter, then as compiled code, and checks that both give
the gradients PyTorch computes.

    PYTHONPATH=python STAX_LIB_DIR=build/lib /usr/bin/python3 examples/call_from_python.py
"""
import json
import os
import tempfile

import numpy as np
import stax
import torch

here = os.path.dirname(os.path.abspath(__file__))
text = open(os.path.join(here, "model.mlir")).read()

# forward(x, w, b) -> loss becomes forward_forward and forward_backward.
with tempfile.TemporaryDirectory() as tmp:
    report = os.path.join(tmp, "cut.json")
    split = stax.run_pipeline(
        text, "builtin.module(stax-joint-graph,stax-mincut{report=%s})" % report)
    [cut] = json.load(open(report))["functions"]

rng = np.random.default_rng(0)
x = rng.standard_normal((8, 16), dtype=np.float32)
w = rng.standard_normal((16, 4), dtype=np.float32)
b = rng.standard_normal(4, dtype=np.float32)
inputs = [x, w, b]

# The forward returns the loss, then the values it saves for the backward.
loss, *saved = stax.interpret(split, "forward_forward", x, w, b)
# The backward takes the saved primal inputs (in argument order: the report
# names them primals_<k>, k from 1), the saved activations, then one tangent
# per result of the forward (1.0 for d loss / d loss).
primals = [inputs[int(s["name"].split("_")[1]) - 1]
           for s in cut["saved"] if s["kind"] == "input"]
tangent = np.ones((), dtype=np.float32)
grad_w, grad_b = stax.interpret(split, "forward_backward", *primals, *saved, tangent)

# The same gradients from PyTorch.
tw, tb = torch.tensor(w, requires_grad=True), torch.tensor(b, requires_grad=True)
torch.nn.functional.gelu(torch.tensor(x) @ tw + tb).sum().backward()
assert np.allclose(grad_w, tw.grad.numpy(), rtol=1e-4, atol=1e-5)
assert np.allclose(grad_b, tb.grad.numpy(), rtol=1e-4, atol=1e-5)

# Compiled code: stax.Executable runs --stax-pipeline and the JIT; a call
# passes the data pointers of the inputs, then of the result buffers.
exe = stax.Executable(split)


def call(entry, *args):
    ins, outs = exe.signature(entry)
    results = [np.empty(shape, dtype) for shape, dtype in outs]
    args = [np.ascontiguousarray(a) for a in args]
    exe.call_raw(entry, [a.ctypes.data for a in args + results])
    return results


c_loss, *c_saved = call("forward_forward", x, w, b)
c_grad_w, c_grad_b = call("forward_backward", *primals, *c_saved, tangent)
assert np.allclose(c_loss, loss, rtol=1e-5)
assert np.allclose(c_grad_w, grad_w, rtol=1e-4, atol=1e-5)
print("loss %.6f, |grad w| %.6f, |grad b| %.6f: interpreter, compiled code and "
      "PyTorch agree" % (loss, np.linalg.norm(grad_w), np.linalg.norm(grad_b)))
