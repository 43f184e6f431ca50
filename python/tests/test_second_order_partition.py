"""Second order: --stax-joint-graph run twice, then --stax-mincut.

The first joint graph's tangent becomes an ordinary input of the second
joint's forward, so the partition works on it: forward then backward give
exactly (bitwise) the outputs and Hessian-vector products of the
un-partitioned second-order joint graph, in float32 and float64.
"""

import json
import os
import re
import tempfile

import numpy as np
import pytest
import torch

import stax
from stax import corpus

MODELS = ["example_5_1", "mlp_gelu", "layernorm", "softmax_ce"]


def _partition(text):
    fd, path = tempfile.mkstemp(suffix=".json", prefix="stax_second_")
    os.close(fd)
    try:
        split = stax.run_pipeline(
            text, "builtin.module(stax-mincut{report=%s})" % path)
        with open(path) as f:
            (entry,) = json.load(f)["functions"]
    finally:
        os.unlink(path)
    return split, entry


@pytest.mark.parametrize("name", [m for m in MODELS if m in corpus.names()])
@pytest.mark.parametrize("f64", [False, True])
def test_second_order_partition_is_exact(name, f64):
    model = corpus.get(name)
    inputs = model.make_inputs()
    text = stax.import_torch(model.fn, *inputs)
    joint2 = stax.run_pipeline(
        text, "builtin.module(stax-joint-graph,stax-joint-graph)")
    split, entry = _partition(joint2)

    dt = np.float64 if f64 else np.float32
    rng = np.random.default_rng(7)
    primals = [x.detach().numpy().astype(dt) if x.is_floating_point()
               else x.numpy() for x in inputs]
    # The second joint's arguments: primals, the first tangent (now an
    # input of the forward), then one tangent per result of the first joint.
    out = model.fn(*inputs)
    t1 = rng.standard_normal(tuple(out.shape)).astype(dt)
    n_first = 1 + sum(1 for x in inputs if x.requires_grad)
    fw = stax.interpret(split, entry["forward"], *primals, t1, f64=f64)
    first = fw[:n_first]
    acts = fw[n_first:]
    t2 = [rng.standard_normal(r.shape).astype(dt) for r in first]

    joint_res = stax.interpret(joint2, "forward", *primals, t1, *t2, f64=f64)
    for a, b in zip(first, joint_res[:n_first]):
        np.testing.assert_array_equal(a, b)

    all_in = primals + [t1]
    saved_in = []
    for s in entry["saved"]:
        if s["kind"] == "input":
            m = re.fullmatch(r"primals_([1-9][0-9]*)", s["name"])
            assert m, s
            saved_in.append(all_in[int(m.group(1)) - 1])
    hvps = stax.interpret(split, entry["backward"], *saved_in, *acts, *t2,
                          f64=f64)
    assert len(hvps) == len(joint_res) - n_first > 0
    for a, b in zip(hvps, joint_res[n_first:]):
        np.testing.assert_array_equal(a, b)
