"""Min-cut partition (--stax-mincut) on every corpus model.

(a) Correctness: import, --stax-joint-graph, --stax-mincut{report=...};
    run `forward_forward` on the inputs, then `forward_backward` on (the
    saved primal inputs named by the report's "input" entries, the saved
    activations the forward returned, an all-ones tangent) and compare the
    gradients with torch.autograd.grad under the first-order error bound of
    the gradient computation (as test_autodiff_corpus.py does).  The split
    only moves (and, for recomputed values, repeats) ops of the joint graph,
    so forward+backward must give *exactly* the gradients (and outputs) of the
    un-partitioned joint graph, in float64 and in float32.

(b) Saved memory against functorch 1.13's `min_cut_rematerialization_partition`
    run through `aot_function` on the same model: our saved activation bytes
    (the report's `saved_bytes`) must not exceed functorch's (the forward
    graph's outputs after the model's own outputs, less the primal inputs it
    saves; views of primals such as `t(W)` count as activations there).  The
    joint graphs differ (we differentiate tp, functorch traces autograd), so
    only the totals are compared.  `pytest -s -k table` prints the table,
    whose rows are checked too (test_saved_bytes_table).
"""

import functools
import json
import os
import re
import tempfile
import warnings

import numpy as np
import pytest
import torch

import stax
from stax import corpus
from stax.numerics import error_bound

MODELS = corpus.names()


def _diff_inputs(inputs):
    return [i for i, x in enumerate(inputs) if x.requires_grad]


def _np(x, f64=False):
    a = x.detach().numpy()
    if f64 and np.issubdtype(a.dtype, np.floating):
        a = a.astype(np.float64)
    return a


# ---------------------------------------------------------------------------
# Stax: joint graph and its partition (cached per model)
# ---------------------------------------------------------------------------


@functools.lru_cache(maxsize=None)
def _stax(name):
    """(joint text, partitioned text, report entry of @forward)."""
    model = corpus.get(name)
    inputs = model.make_inputs()
    joint = stax.run_pipeline(stax.import_torch(model.fn, *inputs),
                              "builtin.module(stax-joint-graph)")
    fd, path = tempfile.mkstemp(suffix=".json", prefix="stax_mincut_")
    os.close(fd)
    try:
        split = stax.run_pipeline(
            joint, "builtin.module(stax-mincut{report=%s})" % path)
        # errors="replace": a malformed name fails in _saved_inputs with the
        # name in the message rather than as a UnicodeDecodeError here.
        with open(path, encoding="utf-8", errors="replace") as f:
            report = json.load(f)
    finally:
        os.unlink(path)
    (entry,) = [fn for fn in report["functions"] if fn["name"] == "forward"]
    return joint, split, entry


def _saved_inputs(entry):
    """0-based argument positions of the saved primal inputs."""
    ks = []
    for s in entry["saved"]:
        if s["kind"] == "input":
            assert re.fullmatch(r"primals_[1-9][0-9]*", s["name"]), (
                "saved input entry is not named primals_<k>: %r" % s)
            ks.append(int(s["name"][len("primals_"):]) - 1)
    return ks


def _run_split(split, entry, inputs, n_out, f64):
    """Runs forward then backward; returns (outputs, saved activations,
    gradients)."""
    args = [_np(x, f64) for x in inputs]
    fw = stax.interpret(split, entry["forward"], *args, f64=f64)
    outs, acts = fw[:n_out], fw[n_out:]
    kinds = [s["kind"] for s in entry["saved"]]
    assert kinds == sorted(kinds, key=lambda k: k != "input"), \
        "saved inputs must precede saved activations: %s" % kinds
    assert len(acts) == kinds.count("activation")
    ones = [np.ones(o.shape, np.float64 if f64 else np.float32) for o in outs]
    bw_args = [args[k] for k in _saved_inputs(entry)] + list(acts) + ones
    grads = stax.interpret(split, entry["backward"], *bw_args, f64=f64)
    return outs, acts, grads


def _run_joint(joint, inputs, out_shapes, f64):
    """The un-partitioned joint graph: (outputs, gradients)."""
    args = [_np(x, f64) for x in inputs]
    ones = [np.ones(s, np.float64 if f64 else np.float32) for s in out_shapes]
    res = stax.interpret(joint, "forward", *(args + ones), f64=f64)
    n_out = len(out_shapes)
    return res[:n_out], res[n_out:]


def _torch_grads(fn, inputs):
    xs = [x.detach() for x in inputs]
    diff = _diff_inputs(inputs)
    for i in diff:
        xs[i].requires_grad_(True)
    out = fn(*xs)
    gs = torch.autograd.grad(out, [xs[i] for i in diff], torch.ones_like(out))
    return [g.detach().numpy() for g in gs]


@pytest.mark.parametrize("name", MODELS)
def test_partition_gradients(name):
    model = corpus.get(name)
    inputs = model.make_inputs()
    diff = _diff_inputs(inputs)
    out_shapes = [tuple(model.fn(*inputs).shape)]
    joint, split, entry = _stax(name)

    # The report is consistent with the functions it describes.
    assert entry["forward"] == "forward_forward"
    assert entry["backward"] == "forward_backward"
    acts = [s for s in entry["saved"] if s["kind"] == "activation"]
    assert entry["saved_bytes"] == sum(s["bytes"] for s in acts)
    assert entry["max_flow"] >= 0 and entry["solver_time_ms"] >= 0

    outs32, acts32, ours32 = _run_split(split, entry, inputs, 1, f64=False)
    outs64, acts64, ours64 = _run_split(split, entry, inputs, 1, f64=True)
    assert len(ours32) == len(diff)
    for a, s in zip(acts32, acts):
        assert tuple(a.shape) == tuple(s["shape"]), s
        assert a.nbytes == s["bytes"], s

    # Against PyTorch, under the error bound of the gradient computation.
    torch32 = _torch_grads(model.fn, inputs)

    def grad_fn(*xs):
        o = model.fn(*xs)
        return torch.autograd.grad(o, [xs[i] for i in diff], torch.ones_like(o))

    bounds = error_bound(grad_fn, *inputs)
    for k, b in enumerate(bounds):
        tol = b.tol.numpy()
        assert ours32[k].shape == torch32[k].shape
        err = np.abs(ours32[k] - torch32[k])
        assert np.all(err <= tol), (
            "%s grad #%d: max |ours - torch| = %.3g, tolerance at that point %.3g"
            % (name, k, err.max(), tol.flat[np.argmax(err)]))

    # The split only moves ops: exactly the un-partitioned joint graph's
    # outputs and gradients, in float64 and in float32.
    for f64, outs, ours in ((True, outs64, ours64), (False, outs32, ours32)):
        jouts, jgrads = _run_joint(joint, inputs, out_shapes, f64)
        for o, jo in zip(outs, jouts):
            np.testing.assert_array_equal(o, jo)
        assert len(ours) == len(jgrads)
        for k, (g, jg) in enumerate(zip(ours, jgrads)):
            assert g.dtype == jg.dtype
            np.testing.assert_array_equal(
                g, jg, err_msg="%s grad #%d (f64=%s) differs from the joint "
                               "graph's" % (name, k, f64))


# ---------------------------------------------------------------------------
# functorch 1.13: min_cut_rematerialization_partition through aot_function
# ---------------------------------------------------------------------------


@functools.lru_cache(maxsize=None)
def _functorch_saved(name):
    """[(node name, is primal input, bytes)] of what functorch's forward
    saves for the backward: `CompiledFunction.forward` calls
    `ctx.save_for_backward(*fw_outs[num_outs:])`."""
    from functorch.compile import (aot_function, make_boxed_func,
                                   min_cut_rematerialization_partition)
    model = corpus.get(name)
    inputs = model.make_inputs()
    rec = {}

    def fw_compiler(gm, _example_inputs):
        rec["fw"] = gm

        def run(args):
            rec["outs"] = gm.forward(*args)
            return rec["outs"]
        run._boxed_call = True
        return run

    def bw_compiler(gm, _example_inputs):
        return make_boxed_func(gm.forward)

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        out = aot_function(model.fn, fw_compiler=fw_compiler,
                           bw_compiler=bw_compiler,
                           partition_fn=min_cut_rematerialization_partition)(*inputs)
    n_out = len(out) if isinstance(out, (tuple, list)) else 1
    (output,) = [n for n in rec["fw"].graph.nodes if n.op == "output"]
    nodes = list(output.args[0])[n_out:]
    tensors = list(rec["outs"])[n_out:]
    assert len(nodes) == len(tensors)
    return [(n.name, n.op == "placeholder", t.numel() * t.element_size())
            for n, t in zip(nodes, tensors)]


def _functorch_activation_bytes(name):
    return sum(b for _, is_input, b in _functorch_saved(name) if not is_input)


@pytest.mark.parametrize("name", MODELS)
def test_saved_bytes_not_more_than_functorch(name):
    _, _, entry = _stax(name)
    ours = entry["saved_bytes"]
    theirs = _functorch_activation_bytes(name)
    assert ours <= theirs, (
        "%s: we save %d activation bytes (%s), functorch %d (%s)"
        % (name, ours,
           [(s["name"], s["bytes"]) for s in entry["saved"]
            if s["kind"] == "activation"],
           theirs, [(n, b) for n, i, b in _functorch_saved(name) if not i]))


_TENSOR = re.compile(r"tensor<((?:\d+x)*)[a-z]+(\d+)>")


def _forward_value_bytes(joint):
    """Bytes of saving every forward value: each result of each op of the
    joint graph's forward phase, counted once (views included)."""
    total = 0
    for line in joint.splitlines():
        if "#tp.phase<fw>" not in line:
            continue
        lhs = line.split(" = ", 1)[0].strip()        # %5, %7:3, %a, %b, %c
        names = [n.strip() for n in lhs.split(",")]
        count = (int(names[0].split(":")[1])
                 if len(names) == 1 and ":" in names[0] else len(names))
        results = line.rsplit("} : ", 1)[1].rsplit(" -> ", 1)[-1]
        types = _TENSOR.findall(results)
        assert len(types) == count, "cannot read the result types of: " + line
        for dims, bits in types:
            n = 1
            for d in dims.split("x")[:-1]:
                n *= int(d)
            total += n * max(1, int(bits) // 8)
    return total


# Partitions computed by hand from the rules of --stax-mincut (docs/Passes.md,
# Section 5.4): c(v) = trunc(beta * bytes(v) * 1.1^d), beta = 1 when the
# forward writes v to memory anyway (a user that cannot fuse with it), else
# 2; d = distance to the nearest backward reader (1 here).
HAND_PARTITIONS = {
    # relu(x + y) * 2 summed: the backward reads only relu's result
    # (threshold_backward), pointwise and fusible with add and relu, so no
    # value is in U: no source edge, flow 0, nothing saved; the backward
    # recomputes add and relu from the primals x and y.
    "example_1_1": dict(saved_bytes=0, max_flow=0,
                        recomputed=["tp.add", "tp.relu"]),
    # gelu(x @ W).sum(): gelu_backward reads mm's 32x64 f32 result (8192
    # bytes), a matmul (in U), whose user gelu cannot fuse with it (beta 1):
    # c = trunc(8192 * 1.1) = 9011. gelu's result is not read.
    "example_5_1": dict(saved_bytes=8192, max_flow=9011, recomputed=[]),
    # mse_loss(x @ W, t): the backward's sub reads mm's 8x4 f32 result (128
    # bytes), in U, beta 1: c = trunc(128 * 1.1) = 140.
    "mse": dict(saved_bytes=128, max_flow=140, recomputed=[]),
    # s = embedding(idx, E).sum(1); (s * s).sum(): s is 4x8 f32 (128 bytes)
    # reduced from 4x6x8 (768 bytes > 4 * 128, rule 3: in U); its users are
    # pointwise muls that fuse with a reduction (beta 2):
    # c = trunc(2 * 128 * 1.1) = 281. The embedding's result is not read.
    "embedding_sum": dict(saved_bytes=128, max_flow=281, recomputed=[]),
    # Pure pointwise programs: nothing is in U, so nothing is saved and the
    # backward recomputes every forward value it reads.
    "pointwise_chain": dict(saved_bytes=0, max_flow=0, recomputed=None),
    "pointwise_transcendental": dict(saved_bytes=0, max_flow=0,
                                     recomputed=None),
}


def test_saved_bytes_table():
    """The table of saved activation bytes (ours, functorch's, saving every
    forward value) and max_flow, each row checked: ours <= functorch and <=
    saving everything; the cut saves at most its capacity (c(v) >= bytes(v)
    as beta >= 1 and d >= 1), and nothing exactly when the flow is 0; a
    partition that saves nothing recomputes. The rows of HAND_PARTITIONS
    must match exactly.  `pytest -s -k table` prints it."""
    rows = []
    for name in MODELS:
        joint, _, entry = _stax(name)
        rows.append((name, entry["saved_bytes"],
                     _functorch_activation_bytes(name),
                     _forward_value_bytes(joint), entry["max_flow"],
                     len(entry["recomputed"])))
    w = max(len(r[0]) for r in rows)
    lines = ["%-*s %12s %12s %12s %12s %10s" % (
        w, "model", "stax bytes", "functorch", "save all", "max_flow",
        "recomputed")]
    for r in rows:
        lines.append("%-*s %12d %12d %12d %12d %10d" % (w, *r))
    lines.append("%-*s %12d %12d %12d" % (w, "total", sum(r[1] for r in rows),
                                         sum(r[2] for r in rows),
                                         sum(r[3] for r in rows)))
    print("\n" + "\n".join(lines))

    for name, ours, theirs, save_all, max_flow, n_recomputed in rows:
        _, _, entry = _stax(name)
        assert not entry["fallback"], name
        assert ours <= theirs, (name, ours, theirs)
        assert 0 <= ours <= save_all, (name, ours, save_all)
        assert ours <= max_flow, (name, ours, max_flow)
        assert (ours == 0) == (max_flow == 0), (name, ours, max_flow)
        if ours == 0:
            assert n_recomputed > 0, "%s saves nothing and recomputes " \
                "nothing" % name
    assert sum(r[1] for r in rows) < sum(r[2] for r in rows)

    assert set(HAND_PARTITIONS) <= set(MODELS)
    for name, want in HAND_PARTITIONS.items():
        _, _, entry = _stax(name)
        assert entry["saved_bytes"] == want["saved_bytes"], (name, entry)
        assert entry["max_flow"] == want["max_flow"], (name, entry)
        if want["recomputed"] is not None:
            assert entry["recomputed"] == want["recomputed"], (name, entry)
