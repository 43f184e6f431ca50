"""Importer tests: every corpus model (forward and functorch joint graph)
imports into a verified `tp` module; unsupported input raises StaxError
naming the operator and the FX node."""

import re
import struct
import warnings

import numpy as np
import pytest
import torch
import torch.nn.functional as F

import stax
from stax import corpus
from stax.importer import import_fx_graph, import_torch, trace_joint

warnings.filterwarnings("ignore")

MODELS = corpus.names()


def _func_signature(text, name="forward"):
    m = re.search(r"func\.func @%s\((.*?)\) -> (.*) \{" % re.escape(name), text)
    assert m, text
    return m.group(1), m.group(2)


# ---------------------------------------------------------------------------
# Corpus coverage
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("name", MODELS)
def test_forward_imports(name):
    model = corpus.get(name)
    inputs = model.make_inputs()
    text = import_torch(model.fn, *inputs)
    # The returned module is the verified, pretty-printed form: it parses
    # and verifies again, and printing is a fixpoint.
    assert stax.run_pipeline(text) == text
    args, _ = _func_signature(text)
    assert args.count("%arg") == len(inputs)
    assert args.count("{tp.requires_grad}") == sum(t.requires_grad for t in inputs)
    for i, t in enumerate(inputs):
        decl = re.search(r"%%arg%d: (tensor<[^>]*>)( \{tp.requires_grad\})?" % i, args)
        assert decl and (decl.group(2) is not None) == t.requires_grad
    assert '"tp.' not in text          # no op left in generic form


@pytest.mark.parametrize("name", MODELS)
def test_joint_graph_imports(name):
    model = corpus.get(name)
    gm, inputs = trace_joint(model.fn, *model.make_inputs())
    text = import_fx_graph(gm, inputs, name="joint")
    assert stax.run_pipeline(text) == text
    args, results = _func_signature(text, "joint")
    assert args.count("%arg") == len(inputs)
    # None gradients (integer inputs, targets) are dropped from the results.
    out = [o for o in torch.utils._pytree.tree_flatten(
        [n for n in gm.graph.nodes if n.op == "output"][0].args[0])[0]]
    n_results = results.count("tensor<")
    assert n_results == sum(o is not None for o in out)


@pytest.mark.parametrize("name", MODELS)
def test_joint_graph_interprets(name):
    """The joint graph runs in the interpreter with the result types of
    PyTorch's joint graph (values are compared in the numeric tests)."""
    model = corpus.get(name)
    gm, inputs = trace_joint(model.fn, *model.make_inputs())
    outs = stax.interpret(import_fx_graph(gm, inputs, name="joint"), "joint",
                          *inputs)
    with torch.no_grad():
        n_primals = sum(1 for n in gm.graph.nodes if n.op == "placeholder"
                        and n.name.startswith("primals"))
        ref = gm([t.detach() for t in inputs[:n_primals]],
                 [t.detach() for t in inputs[n_primals:]])
    ref = [r for r in torch.utils._pytree.tree_flatten(ref)[0] if r is not None]
    assert len(outs) == len(ref)
    for o, r in zip(outs, ref):
        assert o.shape == tuple(r.shape)
        assert o.dtype == r.numpy().dtype
    if name == "pointwise_chain":
        # Only correctly rounded ops, forward and backward: bitwise.
        for o, r in zip(outs, ref):
            assert np.array_equal(o.view(np.uint32), r.numpy().view(np.uint32))


def test_requires_grad_attribute():
    x = torch.randn(4, 3, requires_grad=True)
    y = torch.randn(3)
    text = import_torch(lambda a, b: a + b, x, y)
    assert "%arg0: tensor<4x3xf32> {tp.requires_grad}" in text
    assert "%arg1: tensor<3xf32>)" in text


def test_function_name_and_multiple_results():
    x = torch.randn(4, 6)
    text = import_torch(lambda a: (a.relu(), list(a.split(2, 1))), x,
                        name="many")
    _, results = _func_signature(text, "many")
    assert results == ("(tensor<4x6xf32>, tensor<4x2xf32>, tensor<4x2xf32>, "
                       "tensor<4x2xf32>)")
    outs = stax.interpret(text, "many", x)
    assert np.array_equal(outs[2], x[:, 2:4].numpy())


# ---------------------------------------------------------------------------
# Operator mapping details
# ---------------------------------------------------------------------------


def _f64_attr(text, key="other"):
    """The value of the first `key = <float> : f64` attribute (decimal or
    MLIR hex literal)."""
    m = re.search(key + r" = (0x[0-9A-F]+|[-+0-9.eE]+) : f64", text)
    assert m, text
    lit = m.group(1)
    if lit.startswith("0x"):
        return struct.unpack("<d", struct.pack("<Q", int(lit, 16)))[0]
    return float(lit)


@pytest.mark.parametrize("c", [1e-06, 0.1, 2.8284271247461903, 1e300, 5e-324,
                               -0.0, 1 / 3])
def test_python_float_scalars_round_trip(c):
    x = torch.randn(3)
    text = import_torch(lambda a: a * c, x)
    assert "tp.mul.Scalar" in text
    v = _f64_attr(text)
    assert struct.pack("<d", v) == struct.pack("<d", c)


def test_int_and_float_scalars_keep_their_kind():
    x = torch.randn(3)
    assert "other = 2 : i64" in import_torch(lambda a: a * 2, x)
    assert "other = 2.000000e+00 : f64" in import_torch(lambda a: a * 2.0, x)
    t = import_torch(lambda a: a + 1e-06, x)
    assert "tp.add.Scalar" in t and _f64_attr(t) == 1e-06
    assert "tp.gt.Scalar" in import_torch(lambda a: a > 0, x)
    assert "tp.div.Scalar" in import_torch(lambda a: a / 4.0, x)
    assert "tp.sub.Scalar" in import_torch(lambda a: a - 0.25, x)
    assert "tp.rsub.Scalar" in import_torch(lambda a: 1.0 - a, x)


def test_non_finite_scalars_are_hex():
    x = torch.randn(4)
    text = import_torch(lambda a: torch.where(a > 0, a, float("-inf")), x)
    assert "0xFFF0000000000000 : f64" in text
    out = stax.interpret(text, "forward", x)[0]
    assert np.array_equal(out, torch.where(x > 0, x, float("-inf")).numpy())
    text = import_torch(lambda a: a.masked_fill(a > 0, float("nan")), x)
    assert "0x7FF8000000000000 : f64" in text


def test_number_as_self_becomes_constant():
    x = torch.randn(5)
    text = import_torch(lambda a: torch.pow(2.0, a), x)
    assert re.search(r"tp\.full \{value = 2\.0+e\+00 : f64\} : tensor<f32>", text)
    assert "tp.pow" in text


def test_index_with_none_entries():
    x = torch.randn(4, 5)
    idx = torch.tensor([0, 2, -1])
    text = import_torch(lambda a, i: a[:, i], x, idx)
    assert "dims = array<i64: 1>" in text
    out = stax.interpret(text, "forward", x, idx)[0]
    assert np.array_equal(out, x[:, idx].numpy())


def test_tensor_constant():
    x = torch.randn(4, 3)
    text = import_torch(lambda a: a * torch.tensor([0.1, 2.0, -3.5]), x)
    assert "tp.constant" in text and "tp.lift_fresh_copy" in text
    out = stax.interpret(text, "forward", x)[0]
    assert np.array_equal(out, (x * torch.tensor([0.1, 2.0, -3.5])).numpy())


def test_dtype_casts():
    x = torch.randn(4, 3)
    text = import_torch(lambda a: (a.double() * 2).float() + a.half().float(), x)
    assert "dtype = f64" in text and "dtype = f16" in text


def test_layer_norm_without_affine():
    x = torch.randn(2, 3, 8)
    text = import_torch(lambda a: F.layer_norm(a, (8,)), x)
    assert re.search(r"tp\.native_layer_norm %arg0 \{", text)


# ---------------------------------------------------------------------------
# Errors
# ---------------------------------------------------------------------------


def test_inplace_ops_are_functionalized():
    # make_fx records in-place ops; the default import is functional.
    def fn(a):
        b = a.clone()
        b.exp_()
        b.squeeze_(0)
        return b.sqrt_()
    x = torch.rand(1, 3, generator=torch.Generator().manual_seed(0))
    text = import_torch(fn, x)
    assert "tp.exp" in text and "tp.sqrt" in text and "_\"" not in text
    (got,) = stax.interpret(text, "forward", x)
    # The interpreter rounds a float64 exp; eager's f32 exp is within 1 ulp
    # of it (it was compared bitwise, which failed for some inputs), and
    # sqrt halves the relative difference: 1 ulp of f32 bounds it.
    np.testing.assert_allclose(got, fn(x).numpy(), rtol=2.0 ** -23, atol=0)


def test_raw_import_keeps_inplace_ops():
    # functionalize=False: overloads with an in-place tp twin import as
    # such (test_functionalize.py), the others are rejected.
    text = import_torch(lambda a: a.clone().add_(1), torch.randn(3),
                        functionalize=False)
    assert "tp.add_" in text
    with pytest.raises(stax.StaxError, match=r"in-place operator aten\.exp_\.default "
                                             r"at node %exp_"):
        import_torch(lambda a: a.clone().exp_(), torch.randn(3),
                     functionalize=False)


def test_input_mutation_is_a_copy_back_result():
    def fn(a):
        a.mul_(2)
        return a + 1
    x = torch.randn(3)
    text = import_torch(fn, x.clone())
    assert "tp.copy_back = 0" in text
    got, new_a = stax.interpret(text, "forward", x)
    np.testing.assert_array_equal(got, (x * 2 + 1).numpy())
    np.testing.assert_array_equal(new_a, (x * 2).numpy())


def test_inplace_dropout_imports():
    # bernoulli_ on the fresh empty_like is imported as tp.bernoulli (see
    # test_random.py); raw, the in-place div_ that follows is tp.div_.Scalar,
    # which --stax-functionalize rewrites.
    x = torch.randn(8)
    text = import_torch(lambda a: F.dropout(a, 0.1, training=True), x,
                        functionalize=False)
    assert "tp.bernoulli" in text and "tp.div_.Scalar" in text
    text = stax.run_pipeline(text, "builtin.module(stax-functionalize)")
    assert "tp.div.Scalar" in text and "tp.div_" not in text
    text = import_torch(lambda a: F.dropout(a, 0.1, training=True), x)
    assert "tp.bernoulli" in text and "tp.div_" not in text


def test_unmapped_op_is_decomposed_or_rejected():
    # Without a tp op, an operator is traced through a decomposition (ours,
    # then PyTorch's); one without either is rejected, naming it.
    x = torch.randn(5, 3)
    text = import_torch(lambda a: a.roll(1, 0), x)
    (got,) = stax.interpret(text, "forward", x)
    np.testing.assert_array_equal(got, x.roll(1, 0).numpy())
    text = import_torch(lambda a: F.hardswish(a), x)   # PyTorch's decomposition
    assert "tp.clamp" in text or "tp.hardtanh" in text or "tp.minimum" in text
    with pytest.raises(stax.StaxError, match=r"unsupported operator "
                                             r"aten\.roll\.default at node %roll"):
        import_torch(lambda a: a.roll(1, 0), x, decompose=False)
    with pytest.raises(stax.StaxError, match=r"unsupported operator "
                                             r"aten\._fft_r2c\.default"):
        import_torch(lambda a: torch.fft.fft(a), torch.randn(8))


def test_none_output_is_rejected():
    with pytest.raises(stax.StaxError, match=r"output #1 is None"):
        import_torch(lambda a: (a * 2, None), torch.randn(3))
    with pytest.raises(stax.StaxError, match=r"output #0 is None"):
        import_torch(lambda a: None, torch.randn(3))


def test_unsupported_dtype_is_rejected():
    # uint8 imports as ui8 (test_dtypes.py); complex has no tp type.
    with pytest.raises(stax.StaxError, match=r"unsupported dtype torch\.complex64"):
        import_torch(lambda a: a + 1, torch.zeros(3, dtype=torch.complex64))


def test_non_tensor_input_is_rejected():
    with pytest.raises(stax.StaxError, match=r"input #1 .* is not a tensor"):
        import_torch(lambda a, k: a * k, torch.randn(3), 2)


def test_boolean_mask_index_is_rejected():
    x = torch.randn(4)
    with pytest.raises(stax.StaxError, match=r"boolean mask indexing"):
        import_torch(lambda a: a[a > 0], x)


# ---------------------------------------------------------------------------
# Mapping table coverage beyond the corpus: import, verify, interpret, and
# compare result types with PyTorch (values bitwise where the op is exact or
# correctly rounded; the other values are covered by the numeric tests).
# ---------------------------------------------------------------------------

_X = torch.randn(4, 6, generator=torch.Generator().manual_seed(0))
_Y = torch.randn(4, 6, generator=torch.Generator().manual_seed(1))
_I = torch.tensor([0, 3, 1])
_IX = _I.view(3, 1).expand(3, 6)

# name -> (fn, args, exact)
_OP_CASES = {
    "var": (lambda a: (a.var(1), a.var(), torch.var(a, 0, unbiased=False,
                                                    keepdim=True)), (_X,), False),
    "max_min_dim": (lambda a: (a.max(1), a.min(0, keepdim=True), a.max(),
                               a.amin(1), a.amax(0)), (_X,), True),
    "arg_reductions": (lambda a: (a.argmax(1), a.argmax(), a.argmin(0, keepdim=True)),
                       (_X,), True),
    "prod_any_all": (lambda a: (a.prod(1), a.prod(), (a > 0).any(1), (a > 0).all()),
                     (_X,), False),
    "reductions_dtype": (lambda a: (a.mean(1, dtype=torch.float64),
                                    a.sum(1, dtype=torch.float64),
                                    a.logsumexp(1, keepdim=True)), (_X,), False),
    "unary": (lambda a: (a.exp2(), a.expm1(), a.abs().log(), a.abs().log2(),
                         a.abs().log10(), a.sin(), a.cos(), a.tan(), a.atan(),
                         a.sinh(), a.cosh(), a.erfc(), a.reciprocal(),
                         a.clamp(-1, 1).asin(), a.clamp(-1, 1).acos(),
                         F.mish(a)), (_X,), False),
    "unary_exact": (lambda a: (a.floor(), a.ceil(), a.round(), a.trunc(), a.sign(),
                               a.sgn(), a.isnan(), a.neg(), a.abs()), (_X,), True),
    "activations": (lambda a: (F.leaky_relu(a, 0.2), F.elu(a), F.softplus(a),
                               F.gelu(a, approximate="tanh"), F.silu(a)),
                    (_X,), False),
    "hardtanh": (lambda a: F.hardtanh(a, -0.5, 0.5), (_X,), True),
    "binary": (lambda a, b: (torch.atan2(a, b), torch.pow(a.abs(), b)), (_X, _Y), False),
    "binary_exact": (lambda a, b: (torch.remainder(a, b), torch.fmod(a, b),
                                   torch.max(a, b), torch.min(a, b), a >= b,
                                   a != b, a == b, a <= b), (_X, _Y), True),
    "logical": (lambda a, b: ((a > 0) & (b > 0), (a > 0) | (b > 0), (a > 0) ^ (b > 0),
                              torch.logical_or(a > 0, b > 0),
                              torch.logical_xor(a > 0, b > 0),
                              torch.logical_not(a > 0), ~(a > 0)), (_X, _Y), True),
    "int_bits": (lambda a: ((a * 10).long() & (a * 3).long(),
                            (a * 10).long() | (a * 3).long(),
                            (a * 10).long() ^ (a * 3).long(),
                            ~(a * 10).long()), (_X,), True),
    "scalar_ops": (lambda a: (a.remainder(0.7), a.fmod(0.7), a == 0.5, a != 1,
                              a <= 0.1, a >= 2, a < 1, a ** 3), (_X,), True),
    "div_modes": (lambda a, b: (torch.div(a, b, rounding_mode="trunc"),
                                torch.div(a, b, rounding_mode="floor"),
                                torch.div(a, 2, rounding_mode="floor")), (_X, _Y), True),
    "alpha": (lambda a, b: (torch.rsub(a, b, alpha=2), torch.add(a, b, alpha=0.5)),
              (_X, _Y), True),
    "clamps": (lambda a: (a.clamp(min=0.1), a.clamp(max=0.2), a.clamp_min(0),
                          a.clamp_max(1)), (_X,), True),
    "where_scalars": (lambda a: (torch.where(a > 0, a, 0.0), torch.where(a > 0, 1.0, a),
                                 a.masked_fill(a > 0, torch.tensor(2.0))), (_X,), True),
    "views": (lambda a: (a.reshape(6, 4), a.view(-1), a.unsqueeze(0).squeeze(0),
                         a.unsqueeze(1).squeeze(), a.permute(1, 0), a[1],
                         a[:, 1:5:2], a[..., -1], a.expand(3, 4, 6), a.T,
                         a.flatten(), a.as_strided((2, 3), (6, 1), 1)), (_X,), True),
    "splits": (lambda a: (a.split([2, 4], 1), a.unbind(0), a.chunk(3, 1)), (_X,), True),
    "cat_stack": (lambda a, b: (torch.cat([a, b], 0), torch.stack([a, b], 1)),
                  (_X, _Y), True),
    "gather_scatter": (lambda a, i, ix: (a.index_select(0, i), torch.gather(a, 0, ix),
                                         a.scatter(0, ix, torch.ones(3, 6)),
                                         a.scatter_add(0, ix, torch.ones(3, 6)),
                                         a.index_put((i,), torch.ones(3, 6),
                                                     accumulate=True),
                                         a[i, i]), (_X, _I, _IX), True),
    "creation": (lambda a: (torch.zeros(2, 3), torch.ones(3, dtype=torch.int64),
                            torch.full((2,), 1.5), a.new_ones(2), a.new_full((3,), 7),
                            torch.zeros_like(a), torch.ones_like(a),
                            torch.full_like(a, 3), torch.arange(2, 10, 3),
                            torch.arange(0.5, 3.0, 0.5), torch.arange(5)), (_X,), True),
    "empty": (lambda a: (torch.empty(3), a.new_empty((2, 2)), torch.empty_like(a)),
              (_X,), False),
    "linalg": (lambda a, b: (a @ b.T, torch.dot(a[0], b[0]),
                             torch.addmm(a[:, :4], a, b.T, beta=0.5, alpha=2),
                             torch.baddbmm(torch.zeros(2, 4, 4), torch.stack([a, a]),
                                           torch.stack([b.T, b.T])),
                             torch.matmul(torch.stack([a, a]), b.T)), (_X, _Y), False),
    "triangles": (lambda a: (a.tril(1), a.triu(-1)), (_X,), True),
    "normalization": (lambda a: (a.softmax(1), a.log_softmax(0), F.layer_norm(a, (6,))),
                      (_X,), False),
    "casts": (lambda a: (a.to(torch.int32).to(torch.float32),
                         a.to(torch.bfloat16).float(), a.double(), a.half()),
              (_X,), True),
    "losses": (lambda a, b: (F.nll_loss(a.log_softmax(1), torch.tensor([0, 1, 2, 5]),
                                        weight=torch.ones(6), reduction="sum"),
                             F.mse_loss(a, b, reduction="sum")), (_X, _Y), False),
    "mse_none": (lambda a, b: F.mse_loss(a, b, reduction="none"), (_X, _Y), True),
    "backward_ops": (lambda a, i: (torch.ops.aten.select_backward(a[0], [4, 6], 0, 1),
                                   torch.ops.aten.slice_backward(a[:, 1:3], [4, 6], 1,
                                                                 1, 3, 1),
                                   torch.ops.aten.native_dropout_backward(a, a > 0, 2.0),
                                   torch.ops.aten.embedding_dense_backward(
                                       a[:3], i, 10, -1, False),
                                   torch.ops.aten.threshold_backward(a, a, 0.5)),
                     (_X, _I), True),
    # Corners of eager's semantics: a mask larger than self broadcasts
    # self; a 0-d aminmax with dim and keepdim gives [1] results (eager's
    # resize); rot90 by a multiple of 4 copies; scatter of a value; an empty
    # gather index of another integer type; 0-d scatters.
    "eager_corners": (lambda a: (a[0].masked_fill(a > 0, 2.0),
                                 a[:, :1].masked_fill(a < 0, torch.tensor(-1.0)),
                                 *torch.aminmax(a[0, 0], dim=0, keepdim=True),
                                 torch.rot90(a, 4), torch.rot90(a, -1, (1, 0)),
                                 a.scatter(1, torch.tensor([[0], [2]]), 5.0),
                                 a.gather(1, torch.zeros(4, 0, dtype=torch.uint8)),
                                 a[0, 0].scatter_add(0, torch.tensor(0), a[1, 1])),
                      (_X,), True),
    "dropout": (lambda a: (torch.ops.aten.native_dropout(a, 0.0, True),
                           F.dropout(a, 0.5, training=False)), (_X,), True),
}



@pytest.mark.parametrize("name", sorted(_OP_CASES))
def test_op_mapping(name):
    fn, args, exact = _OP_CASES[name]
    text = import_torch(fn, *args)
    assert stax.run_pipeline(text) == text
    outs = stax.interpret(text, "forward", *args)
    ref = torch.utils._pytree.tree_flatten(fn(*args))[0]
    assert len(outs) == len(ref)
    mismatched = []
    for k, (o, r) in enumerate(zip(outs, ref)):
        r = r.float().numpy() if r.dtype == torch.bfloat16 else r.numpy()
        assert o.shape == r.shape and o.dtype == r.dtype, (k, o.shape, r.shape)
        if exact and not np.array_equal(o, r, equal_nan=True):
            mismatched.append(k)
    assert not mismatched, f"{name}: results {mismatched} differ from PyTorch"


def test_boolean_mask_assignment_of_one_value():
    def fn(x, m):
        y = x.clone()
        y[m] = 0.5
        return y
    x = torch.randn(3, 4)
    m = x[:, 0] > 0
    text = import_torch(fn, x, m)
    assert "tp.where" in text
    (got,) = stax.interpret(text, "forward", x, m)
    np.testing.assert_array_equal(got, fn(x, m).numpy())
    # One value per selected position, in order.
    k = torch.tensor([True, False, True, False])
    v = torch.tensor([7.0, 8.0])
    text = import_torch(lambda a, m, w: a.index_put((m,), w), torch.randn(4), k, v)
    x = torch.randn(4)
    (got,) = stax.interpret(text, "forward", x, k, v)
    np.testing.assert_array_equal(got, x.index_put((k,), v).numpy())


def test_module_parameters_and_buffers_are_arguments():
    m = torch.nn.Sequential(torch.nn.Linear(4, 3), torch.nn.BatchNorm1d(3))
    x = torch.randn(5, 4)
    text = import_torch(m, x)
    sig = re.search(r"func\.func @forward\((.*?)\) ->", text).group(1)
    args = sig.split("%arg")[1:]
    # x, 4 parameters (requires grad), 3 buffers (written: copy-back).
    assert len(args) == 8
    assert [("tp.requires_grad" in a) for a in args] == [False] + [True] * 4 + [False] * 3
    assert text.count("tp.copy_back") == 3
    state = [p.detach() for p in m.parameters()] + [b.clone() for b in m.buffers()]
    got = stax.interpret(text, "forward", x, *state)
    want = m(x)
    np.testing.assert_allclose(got[0], want.detach().numpy(), rtol=1e-5, atol=1e-6)
    # The running statistics come back as the buffers' new values: 0.1 x a
    # mean of 5 values, summed in another order than eager's (a few ulp of
    # the largest value, which a mean near 0 makes a large relative error).
    scale = float(m[0](x).abs().max())
    np.testing.assert_allclose(got[1], m[1].running_mean.numpy(), rtol=1e-6,
                               atol=0.1 * 2 * 5 * 2.0 ** -24 * scale)
    assert int(got[3]) == int(m[1].num_batches_tracked)


@pytest.mark.parametrize("fn", [
    lambda x: torch.einsum("ii->i", x[:, :4]),
    lambda x: torch.einsum("ii->", x[1:, 3:]),
    lambda x: torch.diagonal(x.t(), 1),
    lambda x: x[1:, ::2].diagonal(-1),
    lambda x: x.t().as_strided((3, 2), (1, 6), 2),
    lambda x: x[2:].as_strided((2, 2), (6, 1), 1),
    lambda x: x.unsqueeze(0).expand(2, 4, 6).diagonal(0, 1, 2),
    lambda x: x[1:].as_strided((2, 2), (6, 1)),
    lambda x: x.t()[2:].as_strided((2, 3), (1, 6)),
    lambda x: F.conv1d(x[1:], torch.ones(2, 3, 2) / 4),
    lambda x: F.avg_pool1d(x[1:, 2:], 2),
    lambda x: F.max_pool2d(x[:, 1:].unsqueeze(0), 2),
], ids=["einsum_diag", "einsum_trace", "diag_of_t", "diag_of_strided_slice",
        "as_strided_of_t", "as_strided_of_slice", "diag_of_expand",
        "as_strided_of_slice_at_its_offset", "as_strided_of_t_slice_at_its_offset",
        "conv1d_of_slice", "avg_pool1d_of_slice", "max_pool2d_of_slice"])
def test_as_strided_of_views_addresses_the_base_storage(fn):
    """PyTorch's as_strided (and diagonal's decomposition into it) address
    the storage under a view: the importer applies it to the tensor whose
    storage the view reads. (The view itself gave wrong values or a module
    that does not verify.) Without a storage offset as_strided starts at
    the view's own, which convolution and pooling (one as_strided of their
    input when it needs no padding) read too: they read from the start of
    the base's storage, silently wrong."""
    x = torch.randn(4, 6)
    text = import_torch(fn, x)
    [got] = stax.interpret(text, "forward", x)
    assert np.array_equal(got, fn(x).contiguous().numpy())


@pytest.mark.parametrize("make, fn", [
    (lambda: torch.randn(6, 4).t(), lambda x: x.as_strided((2, 2), (1, 4))),
    (lambda: torch.randn(2, 3, 4).permute(2, 0, 1),
     lambda x: x.as_strided((3, 4), (4, 1), 5)),
    (lambda: torch.randn(5, 4).t(), lambda x: (x * 2).diagonal()),
    (lambda: torch.randn(3, 1, 5).permute(2, 1, 0),
     lambda x: x.clone().masked_fill(x > 0, 1.5).flatten(1).diagonal()),
], ids=["as_strided_of_t", "as_strided_of_permuted", "diag_of_mul_of_t",
        "diag_of_clone_of_permuted"])
def test_as_strided_of_a_dense_permuted_tensor_reads_its_storage_order(make, fn):
    """A transposed input (and what clone and pointwise ops make of it:
    they keep its memory format) is a permutation of its storage: the
    importer permutes it into storage order before as_strided. (This was
    an import error that ran the function in PyTorch.)"""
    x = make()
    text = import_torch(fn, x)
    [got] = stax.interpret(text, "forward", x)
    assert np.array_equal(got, fn(x).contiguous().numpy())


def test_as_strided_of_a_strided_input_is_an_error():
    x = torch.randn(6, 8)[:, ::2]
    with pytest.raises(stax.StaxError, match="as_strided of a tensor that is "
                       "not dense from storage offset 0 at node"):
        import_torch(lambda x: x.as_strided((2, 2), (1, 4)), x)


def test_compiled_as_strided_follows_the_input_layout_of_each_call():
    """as_strided reads storage: the same shape in another layout is another
    signature (a plan traced for a transposed input would read a contiguous
    one in the wrong order)."""
    f = stax.compile(lambda x: x.as_strided((3, 2), (1, 3)) * 2)
    for x in (torch.randn(4, 3).t(), torch.randn(3, 4), torch.randn(4, 3).t()):
        assert torch.equal(f(x), x.as_strided((3, 2), (1, 3)) * 2)


_SCALES = (0.1, 1 / 3, 0.5, 0.7, 1.1, 1.3, 1.5, 2.0, 2.5, 3.3, 7.7)


@pytest.mark.parametrize("mode", ["nearest", "nearest-exact"])
def test_nearest_upsampling_reads_eager_neighbours(mode):
    """The input index each output reads, for every size up to 24 -> 60 and
    a range of scale factors, is eager's: PyTorch computes it in float (in
    double, scale 7.7 picked the next neighbour)."""
    from stax.decompositions import _nearest_source
    exact = mode == "nearest-exact"
    for n in range(1, 25):
        x = torch.arange(n, dtype=torch.float32).view(1, 1, n)
        for o in range(1, 61):
            want = F.interpolate(x, size=o, mode=mode).view(-1).long().tolist()
            assert _nearest_source(n, o, None, exact) == want, (n, o)
        for s in _SCALES:
            o = int(n * s)
            if o:
                want = F.interpolate(x, scale_factor=s, mode=mode)
                assert _nearest_source(n, o, s, exact) == \
                    want.view(-1).long().tolist(), (n, s)


@pytest.mark.parametrize("mode", ["nearest", "nearest-exact"])
@pytest.mark.parametrize("dims", [1, 2, 3])
def test_nearest_upsampling_imports_bitwise(mode, dims):
    x = torch.randn(1, 2, *[5, 4, 3][:dims])
    for kw in ({"scale_factor": 7.7}, {"scale_factor": 1.1},
               {"size": [9, 2, 7][:dims]}):
        fn = lambda x: F.interpolate(x, mode=mode, **kw)  # noqa: E731
        [got] = stax.interpret(import_torch(fn, x), "forward", x)
        assert np.array_equal(got, fn(x).numpy()), kw


def test_flip_of_a_zero_dim_tensor_is_a_copy():
    # Eager accepts flip(0) and flip(-1) of a 0-d tensor; the flip
    # decomposition indexed its (empty) shape and tracing failed.
    x = torch.tensor(3.0)
    text = stax.import_torch(lambda a: a.flip(0) * 2 + a.flip(-1), x)
    [got] = stax.interpret(text, "forward", x)
    assert got.shape == () and got == 9.0


def test_full_without_dtype_is_typed_by_its_fill_value():
    """aten.full without a dtype: int64 for an int fill value, i1 for a
    bool, the default float type for a float (eager's inference; PyTorch
    1.13's fake kernels say float32 for all three)."""
    text = import_torch(lambda i: (torch.full((3,), 2**40 + 1) + i,
                                   torch.full((2,), True),
                                   torch.full((2,), 0.5)),
                        torch.tensor([1, 2, 3]))
    assert "tp.full {value = 1099511627777 : i64} : tensor<3xi64>" in text
    assert "tp.full {value = true} : tensor<2xi1>" in text
    assert re.search(r"tp.full \{value = 5.0+e-01 : f64\} : tensor<2xf32>",
                     text), text
