"""Chain checkpointing (--stax-checkpoint) on N-layer MLPs.

Import an N-layer Linear+GELU stack from PyTorch, build the joint graph,
split it with the uniform (Theorem 5.3) or the Revolve (Theorem 5.4)
schedule, then run `forward_forward` followed by `forward_backward` (the
saved primal inputs named by the report, the checkpoints the forward
returned, an all-ones tangent). Recomputation repeats the same ops on the
same values, so outputs and gradients must be *bitwise* those of the
un-split joint graph, in float32 and float64.
"""

import functools
import json
import os
import re
import tempfile

import numpy as np
import pytest
import torch

import stax
from stax import corpus


mlp = corpus.mlp_stack


def mlp_inputs(n):
    return corpus.mlp_stack_inputs(n, hidden=8, batch=4)


@functools.lru_cache(maxsize=None)
def joint_graph(n):
    text = stax.import_torch(mlp, *mlp_inputs(n))
    return stax.run_pipeline(text, "builtin.module(stax-joint-graph)")


def run_pass(joint, options):
    fd, path = tempfile.mkstemp(suffix=".json", prefix="stax_ckpt_")
    os.close(fd)
    try:
        split = stax.run_pipeline(
            joint, "builtin.module(stax-checkpoint{%s report=%s})"
            % (options, path))
        with open(path) as f:
            report = json.load(f)
    finally:
        os.unlink(path)
    (entry,) = report["functions"]
    return split, entry


def np_args(inputs, f64):
    out = []
    for x in inputs:
        a = x.detach().numpy()
        floating = np.issubdtype(a.dtype, np.floating)
        out.append(a.astype(np.float64) if f64 and floating else a)
    return out


def run_split(split, entry, inputs, f64):
    args = np_args(inputs, f64)
    fw = stax.interpret(split, entry["forward"], *args, f64=f64)
    outs, acts = fw[:1], fw[1:]
    inputs_read = [int(s["name"][len("primals_"):]) - 1
                   for s in entry["saved"] if s["kind"] == "input"]
    assert len(acts) == sum(s["kind"] == "activation" for s in entry["saved"])
    ones = [np.ones(o.shape, o.dtype) for o in outs]
    grads = stax.interpret(split, entry["backward"],
                           *([args[k] for k in inputs_read] + acts + ones),
                           f64=f64)
    return outs, acts, grads


def run_joint(joint, inputs, f64):
    args = np_args(inputs, f64)
    one = np.ones((), np.float64 if f64 else np.float32)
    res = stax.interpret(joint, "forward", *(args + [one]), f64=f64)
    return res[:1], res[1:]


CASES = [(n, sched, s) for n in (4, 8)
         for sched, s in (("uniform", 0), ("uniform", 2), ("uniform", 3),
                          ("revolve", 0), ("revolve", 1), ("revolve", 2),
                          ("revolve", 3))]


@pytest.mark.parametrize("n,schedule,slots", CASES)
def test_gradients_bitwise(n, schedule, slots):
    inputs = mlp_inputs(n)
    joint = joint_graph(n)
    split, entry = run_pass(joint, "schedule=%s slots=%d" % (schedule, slots))
    # Linear (addmm) and GELU per layer: 2n states after z_0 ... at least
    # one per layer.
    assert entry["chain_length"] >= n
    assert entry["schedule"] == schedule
    assert entry["recomputed_ops"] > 0
    assert len(entry["chain"]) == entry["chain_length"] + 1
    assert entry["saved_bytes"] == sum(
        s["bytes"] for s in entry["saved"] if s["kind"] == "activation")
    assert entry["peak_saved_bytes"] >= entry["saved_bytes"]
    if schedule == "revolve" and slots:
        assert entry["slots_used"] <= slots
    for action in entry["actions"]:
        assert re.fullmatch(r"advance \d+->\d+|(store|load|free|backward) \d+",
                            action), action
    for f64 in (False, True):
        outs, acts, grads = run_split(split, entry, inputs, f64)
        for a, s in zip(acts, [s for s in entry["saved"]
                               if s["kind"] == "activation"]):
            assert a.nbytes == s["bytes"] * (2 if f64 and a.dtype == np.float64
                                             else 1)
        jouts, jgrads = run_joint(joint, inputs, f64)
        np.testing.assert_array_equal(outs[0], jouts[0])
        assert len(grads) == len(jgrads) == 2 * n
        for k, (g, jg) in enumerate(zip(grads, jgrads)):
            assert g.dtype == jg.dtype
            np.testing.assert_array_equal(
                g, jg, err_msg="grad #%d (f64=%s) differs from the joint "
                               "graph's" % (k, f64))


def test_checkpoints_fewer_than_states():
    """Revolve with 2 slots saves at most 2 chain states plus z_{l-1}."""
    _, entry = run_pass(joint_graph(8), "schedule=revolve slots=2")
    assert len(entry["checkpoints"]) <= 3
    assert entry["repetition"] >= 2
    _, full = run_pass(joint_graph(8), "schedule=revolve slots=%d"
                       % (entry["chain_length"] + 1))
    assert entry["peak_saved_bytes"] < full["peak_saved_bytes"]


def test_short_chain_left_unchanged():
    joint = joint_graph(4)
    out = stax.run_pipeline(
        joint, "builtin.module(stax-checkpoint{min-chain-length=1000})")
    assert "forward_forward" not in out and "tp.joint_outputs" in out


def check_bitwise(fn, inputs, options):
    """Splits fn's joint graph with `options`; None when it has no chain,
    else the report entry after checking forward+backward bitwise against
    the joint graph (f32 and f64)."""
    joint = stax.run_pipeline(stax.import_torch(fn, *inputs),
                              "builtin.module(stax-joint-graph)")
    fd, path = tempfile.mkstemp(suffix=".json", prefix="stax_ckpt_")
    os.close(fd)
    try:
        split = stax.run_pipeline(
            joint, "builtin.module(stax-checkpoint{%s min-chain-length=1 "
            "report=%s})" % (options, path))
        with open(path) as f:
            functions = json.load(f)["functions"]
    finally:
        os.unlink(path)
    if not functions:
        assert "tp.joint_outputs" in split  # left unchanged
        return None
    (entry,) = functions
    for f64 in (False, True):
        args = np_args(inputs, f64)
        fw = stax.interpret(split, entry["forward"], *args, f64=f64)
        n_act = sum(s["kind"] == "activation" for s in entry["saved"])
        outs, acts = fw[:len(fw) - n_act], fw[len(fw) - n_act:]
        read = [int(s["name"][len("primals_"):]) - 1
                for s in entry["saved"] if s["kind"] == "input"]
        ones = [np.ones(o.shape, o.dtype) for o in outs]
        grads = stax.interpret(split, entry["backward"],
                               *([args[k] for k in read] + acts + ones),
                               f64=f64)
        ref = stax.interpret(joint, "forward", *(args + ones), f64=f64)
        assert len(outs) + len(grads) == len(ref)
        for k, (a, b) in enumerate(zip(outs + grads, ref)):
            np.testing.assert_array_equal(
                a, b, err_msg="result #%d (f64=%s)" % (k, f64))
    return entry


# Chain length l (z_0..z_l) of each corpus model: the number of forward
# values on every path from the inputs to the outputs, less one. Structural,
# so the same under both schedules; pinned so that a model whose chain is no
# longer found (or changes) fails rather than passing unsplit. 0: no chain.
CORPUS_CHAIN_LENGTH = {
    "example_5_1": 2,
    "example_1_1": 3,
    "mlp_gelu": 6,
    "layernorm": 1,
    "rmsnorm": 6,
    "softmax_ce": 3,
    "attention": 4,   # functional import folds the reshape chains
    "swiglu": 2,
    "lstm_cell": 2,
    # The output reads a value computed from one input alone besides the
    # long chain (s / d with d = |y| + 1; clamp(f) * 1.5 - d with d =
    # log1p(exp(-|x|) * b) while f also reads erf(a / 2)), so only the
    # output lies on every path: no chain, the function is left unchanged.
    "pointwise_chain": 0,
    "pointwise_transcendental": 0,
    "embedding_sum": 3,
    "index_logsumexp": 2,
    "transformer_encoder": 14,
    "mse": 1,
}


def test_corpus_chain_lengths_cover_corpus():
    assert set(CORPUS_CHAIN_LENGTH) == set(corpus.names())


@pytest.mark.parametrize("schedule", ["schedule=revolve slots=2",
                                      "schedule=uniform"])
@pytest.mark.parametrize("name", corpus.names())
def test_corpus_bitwise(name, schedule):
    """Every corpus model: attention, layer norm (three results, two read
    only by the backward), LSTM, embedding, losses with integer targets."""
    model = corpus.get(name)
    entry = check_bitwise(model.fn, model.make_inputs(), schedule)
    want = CORPUS_CHAIN_LENGTH[name]
    if want == 0:
        assert entry is None, "%s: unexpected chain %s" % (name, entry)
        return
    assert entry is not None, "%s: no chain found (expected length %d)" % (
        name, want)
    assert entry["chain_length"] == want, (name, entry["chain"])
    assert len(entry["chain"]) == want + 1


def transformer(n, d_model=16, nhead=2, ff=32):
    from torch.nn.utils.stateless import functional_call
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(n)
        mod = torch.nn.Sequential(*[
            torch.nn.TransformerEncoderLayer(d_model, nhead, ff, dropout=0.0,
                                             batch_first=True)
            for _ in range(n)])
    names = [k for k, _ in mod.named_parameters()]

    def fn(x, *params):
        return functional_call(mod, dict(zip(names, params)), (x,)).sum()

    g = torch.Generator().manual_seed(n)
    x = torch.randn(2, 4, d_model, generator=g).requires_grad_()
    params = [(0.3 * torch.randn(*p.shape, generator=g)).requires_grad_()
              for _, p in mod.named_parameters()]
    return fn, (x,) + tuple(params)


@pytest.mark.parametrize("schedule", ["schedule=revolve", "schedule=revolve "
                                      "slots=2", "schedule=uniform"])
def test_transformer_stack_bitwise(schedule):
    fn, inputs = transformer(2)
    entry = check_bitwise(fn, inputs, schedule)
    assert entry is not None, "no chain found in a 2-layer transformer"
    assert entry["chain_length"] >= 4 and entry["recomputed_ops"] > 0
