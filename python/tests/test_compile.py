"""stax.compile end to end: compiled CPU code against PyTorch eager.

Tolerances (Section 6.9): elementwise f32 code is class 1 except for the
approximated transcendental functions (<= 2 ulp each, docs/Numerics.md);
matmul (BLAS) and vectorized reductions reassociate sums (class 2). A sum of
n f32 terms reordered differs by at most about 2 * n * u * sum|terms| (u =
2^-24) from the same sum in another order, so each check below scales
n * u by the magnitude of what was summed.
"""

import collections
import copy
import itertools
import math
import re
import time
import types
import warnings

import numpy as np
import pytest
import torch
import torch.nn.functional as F

import stax
from stax._capi import StaxError
from stax._keys import CONSTANT_CONTAINER_MAX

U = 2.0 ** -24
U64 = 2.0 ** -53


def reorder_bound(n, magnitude):
    """Largest difference of two orders of an n-term f32 sum of terms whose
    absolute values add up to `magnitude` (plus a few ulp of rounding in
    the approximated math functions on the way)."""
    return 2 * n * U * magnitude + 8 * U * magnitude


def test_function_forward_and_gradients_match_eager():
    torch.manual_seed(0)
    x = torch.randn(64, 128, requires_grad=True)
    w = torch.randn(128, 32, requires_grad=True)

    def f(x, w):
        return torch.nn.functional.gelu(x @ w).sum()

    y = stax.compile(f)(x, w)
    y.backward()
    gx, gw = x.grad.clone(), w.grad.clone()
    x.grad = w.grad = None
    ye = f(x, w)
    ye.backward()
    # The sum runs over 64*32 gelu values, each from a 128-term dot product.
    mag = float((x.abs() @ w.abs()).sum())
    assert abs(float(y) - float(ye)) <= reorder_bound(128 + 64 * 32, mag)
    # grad_x = gelu'(h) @ w.T and grad_w = x.T @ gelu'(h), |gelu'| < 1.13.
    gmag_x = 1.13 * float(w.detach().abs().sum(1).max())
    assert torch.all((gx - x.grad).abs() <= reorder_bound(32, gmag_x))
    gmag_w = 1.13 * float(x.detach().abs().sum(0).max())
    assert torch.all((gw - w.grad).abs() <= reorder_bound(64, gmag_w))


def test_module_parameters_get_gradients_and_no_grad_compiles_no_backward():
    torch.manual_seed(1)
    mlp = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.Tanh(),
                              torch.nn.Linear(32, 4))
    compiled = stax.compile(mlp)
    x = torch.randn(8, 16)
    with torch.no_grad():
        out = compiled(x)
    plans = list(compiled._plans.values())
    assert len(plans) == 1 and not plans[0].grad
    assert not hasattr(plans[0], "bw")
    compiled(x).sum().backward()
    grads = [p.grad.clone() for p in mlp.parameters()]
    for p in mlp.parameters():
        p.grad = None
    mlp(x).sum().backward()
    for g, p in zip(grads, mlp.parameters()):
        assert g is not None and g.shape == p.shape
        assert torch.all((g - p.grad).abs() <= reorder_bound(32, 8 * 32))
    assert torch.all((out - mlp(x)).abs() <= reorder_bound(32, 32 * 4))


def test_backward_is_compiled_on_first_use():
    x = torch.randn(4, 8, requires_grad=True)
    f = stax.compile(lambda x: torch.tanh(x).sum())
    f(x)
    [plan] = f._plans.values()
    assert plan.bw is None
    f(x).backward()
    assert plan.bw is not None


def test_gradient_through_a_zero_factor_keeps_nan_like_eager():
    # d/dx (sqrt(x) * 0) at 0 is 0 * inf = NaN in eager (the gradient is
    # multiplied by 0, then divided by 2 sqrt(0)); elsewhere it is 0.
    def f(x):
        return (torch.sqrt(x) * 0 + x * x).sum()

    x = torch.tensor([0.0, 1.0, 4.0], requires_grad=True)
    stax.compile(f)(x).backward()
    x_eager = x.detach().clone().requires_grad_()
    f(x_eager).backward()
    np.testing.assert_array_equal(x.grad.numpy(), x_eager.grad.numpy())
    assert np.isnan(x.grad[0]) and not np.isnan(x.grad[1:]).any()


def test_transformer_encoder_nested_fast_path_runs_in_pytorch():
    """In eval mode without gradients and with a padding mask, eager's
    nn.TransformerEncoder packs the batch into nested tensors: padded
    positions come back 0 and a batch whose every sequence is padded at
    its end comes back shorter. A trace (proxies) always takes the slow
    path, so that call runs in PyTorch; with gradients it compiles."""
    torch.manual_seed(0)
    layer = torch.nn.TransformerEncoderLayer(32, 4, 64, batch_first=True)
    model = torch.nn.TransformerEncoder(layer, 2).eval()
    compiled = stax.compile(model)
    x = torch.randn(3, 7, 32)
    pad = torch.zeros(3, 7, dtype=torch.bool)
    pad[1, 5:] = True
    pad[2, 3:] = True
    shorter = pad | torch.arange(7).ge(6)
    with torch.no_grad():
        with pytest.warns(UserWarning, match="nested-tensor fast path"):
            got = compiled(x, src_key_padding_mask=pad)
        assert torch.equal(got, model(x, src_key_padding_mask=pad))
        got = compiled(x, src_key_padding_mask=shorter)
        want = model(x, src_key_padding_mask=shorter)
        assert got.shape == want.shape == (3, 6, 32) and torch.equal(got, want)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = compiled(x, src_key_padding_mask=pad)
    want = model(x, src_key_padding_mask=pad)
    assert got.requires_grad
    torch.testing.assert_close(got, want, rtol=1e-5, atol=1e-5)


def test_results_that_do_not_depend_differentiably_are_like_eager():
    # Nothing to differentiate: only the forward is compiled (no fallback
    # warning). fill and a p=0 norm have a grad_fn in eager (gradient
    # zero), a comparison cast to float has none.
    x = torch.randn(3, 4, requires_grad=True)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        filled = stax.compile(lambda x: torch.fill(x, 2.0))(x)
        count = stax.compile(lambda x: x.norm(p=0) * torch.ones(2))(x)
        positive = stax.compile(lambda x: (x > 0).float())(x)
    assert torch.equal(filled, torch.full((3, 4), 2.0))
    assert torch.equal(count, x.detach().norm(p=0) * torch.ones(2))
    for y in (filled, count):
        (g,) = torch.autograd.grad(y.sum(), x)
        assert torch.equal(g, torch.zeros(3, 4))
    assert not positive.requires_grad
    assert torch.equal(positive, (x > 0).float())


def test_zero_dim_operands_and_empty_tensors_compile():
    # PyTorch treats a 0-d tensor as one element along "dim 0": reductions,
    # indexing and scatters over it compile (no fallback warning) and give
    # eager's values exactly; so do intermediates with no elements.
    x, y, i = torch.tensor(-0.0), torch.tensor(2.5), torch.tensor(0)
    e = torch.randn(5, 0, 10)

    def f(x, y, i, e):
        return (x.sum(0), x.sum(), x.argmax(0, keepdim=True), x.max(0)[0],
                torch.argmax(torch.arange(6.0).reshape(2, 3).flip(1) + y, keepdim=True),
                y.index_select(0, i.reshape(1)), y.gather(0, i),
                x.scatter_add(0, i, y), x.scatter(-1, i, y),
                e.fliplr() * 2, torch.div(i - 7, 2, rounding_mode="floor"))

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = stax.compile(f)(x, y, i, e)
    want = f(x, y, i, e)
    for g, w in zip(got, want):
        assert g.shape == w.shape and g.dtype == w.dtype
        assert torch.equal(g, w) and torch.equal(g.signbit(), w.signbit())


@pytest.mark.parametrize("fn", [
    lambda a, b: a // b,
    lambda a, b: torch.div(a, b, rounding_mode="trunc"),
    lambda a, b: a % b,
    torch.fmod,
], ids=["floor_divide", "div_trunc", "remainder", "fmod"])
@pytest.mark.parametrize("dtype", [torch.int64, torch.int32])
def test_integer_division_by_a_tensor_compiles_and_checks_zero(fn, dtype):
    """Compiled, not split out: eager's values (divisors of both signs, -1
    among them); a zero divisor raises, as eager's ZeroDivisionError."""
    g = torch.Generator().manual_seed(0)
    a = torch.randint(-50, 50, (257,), generator=g).to(dtype)
    b = torch.randint(1, 9, (257,), generator=g).to(dtype)
    b = torch.where(torch.arange(257) % 2 == 0, b, -b)
    b[5] = -1
    f = stax.compile(fn)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert torch.equal(f(a, b), fn(a, b))
        b[100] = 0
        with pytest.raises(StaxError, match="integer division by zero"):
            f(a, b)


@pytest.mark.parametrize("dtype", [torch.int64, torch.int32, torch.int16,
                                   torch.int8, torch.uint8])
def test_integer_powers_compile_like_eager(dtype):
    """x ** y, x ** 2, x ** 7 and 3 ** y on integers compile (not split out)
    to eager's values: wrapping products, and for negative tensor exponents
    1, +-1 or 0 (the bases 1, -1, others)."""
    g = torch.Generator().manual_seed(1)
    lo = 0 if dtype == torch.uint8 else -4
    x = torch.randint(lo, 40, (300,), generator=g).to(dtype)
    y = torch.randint(lo, 40, (300,), generator=g).to(dtype)
    if dtype != torch.uint8:
        x[:6] = torch.tensor([1, -1, -1, 0, 2, 1]).to(dtype)
        y[:6] = torch.tensor([-3, -3, -2, -1, -1, 0]).to(dtype)

    def fn(a, b):
        return a ** b, a ** 2, a ** 7, 3 ** b.abs()

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = stax.compile(fn)(x, y)
    for k, (o, e) in enumerate(zip(got, fn(x, y))):
        assert o.dtype == e.dtype and torch.equal(o, e), k


@pytest.mark.parametrize("cell", ["LSTM", "GRU"])
def test_recurrent_layers_compile_with_their_parameters(cell):
    """nn.LSTM / nn.GRU (two layers): their gate chunks are unsafe_split,
    which the importer takes as split, so nothing runs in PyTorch; the
    output and every weight's gradient are within the float64 bound."""
    from stax.numerics import error_bound
    torch.manual_seed(3)
    rnn = getattr(torch.nn, cell)(6, 8, num_layers=2, batch_first=True)
    x = torch.randn(3, 5, 6)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        out = stax.compile(rnn)(x)[0]
    out.sum().backward()
    grads = [p.grad for p in rnn.parameters()]
    [bound] = error_bound(lambda x: rnn(x)[0], x)
    assert torch.all((out.detach().double() - bound.ref).abs() <= bound.tol)

    def reference(x):
        return torch.autograd.grad(rnn(x)[0].sum(), list(rnn.parameters()))

    for g, b in zip(grads, error_bound(reference, x)):
        assert g is not None and torch.all((g.double() - b.ref).abs() <= b.tol)


def test_one_hot_compiles_and_checks_its_classes():
    """F.one_hot with num_classes compiles (eager's version reads the
    largest class out of the tensor, which make_fx cannot trace); a class
    outside [0, num_classes) is a run-time error, as in eager. Without
    num_classes the function runs in PyTorch, with the warning."""
    import torch.nn.functional as F
    i = torch.tensor([[0, 4, 3], [2, 2, 1]])
    f = stax.compile(lambda i, w: F.one_hot(i, 5).float() @ w)
    w = torch.randn(5, 3)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert torch.equal(f(i, w), F.one_hot(i, 5).float() @ w)
        for bad in (5, -1):
            j = i.clone()
            j[1, 2] = bad
            with pytest.raises(StaxError, match=f"index {bad} is out of bounds "
                               "for a dimension of size 5"):
                f(j, w)
    with pytest.warns(UserWarning, match="runs <lambda> in PyTorch"):
        assert torch.equal(stax.compile(lambda i: F.one_hot(i))(i),
                           F.one_hot(i))


_SRC = torch.ones(2, 2)
_INDEX_OPS = {
    "index_add": lambda x, i: x.index_add(0, i, _SRC),
    "index_copy": lambda x, i: x.index_copy(0, i, _SRC),
    "index_reduce": lambda x, i: x.index_reduce(0, i, _SRC, "prod"),
    "scatter_reduce": lambda x, i: x.scatter_reduce(
        0, i.view(2, 1).expand(2, 2), _SRC, "amax"),
    "scatter_reduce_sum": lambda x, i: x.scatter_reduce(
        0, i.view(2, 1).expand(2, 2), _SRC, "sum", include_self=False),
    "embedding_bag": lambda x, i: F.embedding_bag(i, x, torch.tensor([0])),
    "index_select": lambda x, i: x.index_select(0, i),
    "embedding": lambda x, i: F.embedding(i, x),
}


@pytest.mark.parametrize("name", sorted(_INDEX_OPS))
def test_indices_eager_refuses_are_run_time_errors(name):
    """index_add and index_copy wrapped a negative index (their
    decomposition indexes as x[i] does); scatter_reduce and index_reduce
    dropped any index out of range, and embedding_bag wrapped -1: each
    returned a value where eager raises. Now a run-time error, an
    IndexError where eager's is one; valid indices compile, bitwise."""
    fn = _INDEX_OPS[name]
    x = torch.arange(8.0).view(4, 2)
    f = stax.compile(fn)
    with warnings.catch_warnings():
        warnings.filterwarnings("error", message="stax.compile")
        for good in ([0, 1], [3, 3], [2, 0]):
            i = torch.tensor(good)
            assert torch.equal(f(x, i), fn(x, i))
        for bad in ([-1, 1], [4, 1], [-5, 0]):
            i = torch.tensor(bad)
            with pytest.raises((IndexError, RuntimeError)) as want:
                fn(x, i)
            # The index passed, not what a decomposition made of it.
            first = bad[0] if not 0 <= bad[0] < 4 else bad[1]
            with pytest.raises(want.type, match=f"index {first} is out of "
                               "bounds"):
                f(x, i)


@pytest.mark.parametrize("fn", [
    lambda x: x * x[x > 0].shape[0],
    lambda x: x * len(x.nonzero()),
    lambda x: x + torch.unique(x).numel(),
    lambda x: x * x.masked_select(x > 0).size(0),
    lambda x: (x * 2 if x.nonzero().shape[0] > 2 else x * 3),
    lambda x: x[x > 0].view(x[x > 0].shape[0], 1) * 2,
])
def test_sizes_of_data_sized_results_are_not_baked_in(fn):
    """`n = x[x > 0].shape[0]` read in Python: a trace baked the first
    call's count into every later call, silently. Reading the size of a
    result whose shape the values decide now runs the function in PyTorch."""
    f = stax.compile(fn)
    with pytest.warns(UserWarning, match="depends on tensor values"):
        f(torch.tensor([1.0, -1.0, 2.0]))
    for v in ([-1.0, -1.0, -2.0], [1.0, 1.0, 1.0], [0.0, 0.0, 5.0]):
        x = torch.tensor(v)
        assert torch.equal(f(x), fn(x))


def test_a_masked_reduction_still_compiles():
    fn = lambda x, m: (x[m].sin() * 2).mean() + F.cross_entropy(x[m], m.long()[m])
    f = stax.compile(fn)
    with warnings.catch_warnings():
        warnings.filterwarnings("error", message="stax.compile")
        for seed in range(3):
            torch.manual_seed(seed)
            x, m = torch.randn(6, 2), torch.rand(6) > 0.5
            torch.testing.assert_close(f(x, m), fn(x, m), rtol=1e-6, atol=1e-6)


def test_a_function_that_changes_its_list_or_dict_argument_runs_in_pytorch():
    """A list argument appended to or a dict argument updated (collecting
    features, a cache) was changed only in the trace's rebuilt copy: the
    caller's container stayed empty and every call returned the first
    trace's value. Such a function runs in PyTorch, on the caller's own
    containers, with one warning; a function that only reads its
    containers still compiles."""
    def collect(x, feats):
        feats.append(x * 2)
        return x * len(feats)

    def count(x, state):
        state["n"] += 1
        return x * state["n"]

    def read(x, scales, opts):
        return x * scales[0] + opts["shift"]

    x = torch.ones(2)
    for fn, arg in ((collect, []), (count, {"n": 0})):
        f = stax.compile(fn)
        mine = type(arg)(arg)
        with pytest.warns(UserWarning, match="changes a list, dict or tuple"):
            results = [f(x, mine) for _ in range(3)]
        want = [fn(x, arg) for _ in range(3)]
        assert all(torch.equal(a, b) for a, b in zip(results, want))
        assert len(mine) == len(arg) and str(mine) == str(arg)
    f = stax.compile(read)
    with warnings.catch_warnings():
        warnings.filterwarnings("error", message="stax.compile")
        assert torch.equal(f(x, [2.0], {"shift": 1.0}), x * 2.0 + 1.0)
    assert len(f._plans) == 1


@pytest.mark.parametrize("padding", [(0, 1), (1, 0), (2, 1), (1, 1)])
def test_fold_with_uneven_padding_crops_each_dim_by_its_own(padding):
    """PyTorch 1.13's col2im decomposition crops with F.pad's arguments in
    the wrong order: fold(padding=(0, 1)) came out (1, 6) instead of
    (3, 4), and its backward failed. Values and gradients bitwise."""
    fn = lambda x: F.fold(x, output_size=(5, 6), kernel_size=(2, 3),
                          padding=padding, stride=(1, 2))
    blocks = (5 + 2 * padding[0] - 1) * ((6 + 2 * padding[1] - 3) // 2 + 1)
    x = torch.randn(2, 18, blocks, dtype=torch.float64, requires_grad=True)
    got, want = stax.compile(fn)(x), fn(x)
    assert torch.equal(got, want)
    w = torch.randn(want.shape, dtype=torch.float64)
    assert torch.equal(torch.autograd.grad((got * w).sum(), x)[0],
                       torch.autograd.grad((want * w).sum(), x)[0])


@pytest.mark.parametrize("padding", [(0, 2), (2, 0), (1, 2)])
def test_unfold_with_uneven_padding_pads_each_dim_by_its_own(padding):
    """PyTorch 1.13's im2col decomposition pads with F.pad's arguments in
    the wrong order: unfold(padding=(0, 2)) indexed past the input, so the
    function ran in PyTorch. Values and gradients bitwise, compiled."""
    fn = lambda x: F.unfold(x, kernel_size=(3, 2), padding=padding, stride=(1, 2))
    x = torch.randn(2, 3, 5, 6, dtype=torch.float64, requires_grad=True)
    with warnings.catch_warnings():
        warnings.filterwarnings("error", message="stax.compile")
        got = stax.compile(fn)(x)
    want = fn(x)
    assert torch.equal(got, want)
    w = torch.randn(want.shape, dtype=torch.float64)
    assert torch.equal(torch.autograd.grad((got * w).sum(), x)[0],
                       torch.autograd.grad((want * w).sum(), x)[0])


@pytest.mark.parametrize("planes", [1, 2])
@pytest.mark.parametrize("nsp", [1, 2, 3])
@pytest.mark.parametrize("n, scale", [(3, 2.3), (5, 1.1), (4, 2.0), (3, 1.7)])
def test_nearest_interpolation_takes_eager_s_neighbours(planes, nsp, n, scale):
    """With a scale factor, eager's 2-D and 3-D nearest kernels copy an
    output of the input's size and shift one of twice it for a single
    plane (N * C == 1: 3 -> 6 with 2.3 reads rows 0, 0, 1, 1, 2, 2) and
    compute from the scale for several (0, 0, 0, 1, 1, 2), as 1-D does."""
    x = torch.arange(float(planes * n ** nsp)).view(1, planes, *[n] * nsp)
    fn = lambda x: F.interpolate(x, scale_factor=[scale] * nsp, mode="nearest")
    assert torch.equal(stax.compile(fn)(x), fn(x))


def test_captured_module_state_is_updated_once_per_call():
    """A function that captures a BatchNorm model (not passed as an
    argument): tracing runs the function on real tensors and must leave
    the running statistics as they were; the compiled calls then update
    them exactly like eager, one plan serves every training call, and
    eval() selects a plan of its own. Also when the function runs in
    PyTorch (an untraceable op): one update per call, not one per trace."""
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(6, 8), torch.nn.BatchNorm1d(8),
                                torch.nn.ReLU(), torch.nn.Linear(8, 2))
    ref = copy.deepcopy(model)
    compiled = stax.compile(lambda x: model(x).square().mean())
    for _ in range(3):
        x = torch.randn(5, 6)
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            loss = compiled(x)
        loss.backward()
        want = ref(x).square().mean()
        want.backward()
        assert abs(float(loss - want)) <= 1e-6
        for name in ("running_mean", "running_var", "num_batches_tracked"):
            assert torch.allclose(getattr(model[1], name).float(),
                                  getattr(ref[1], name).float(), rtol=0,
                                  atol=1e-6), name
    assert compiled._count == 1
    model.eval()
    ref.eval()
    x = torch.randn(5, 6)
    assert abs(float(compiled(x) - ref(x).square().mean())) <= 1e-6
    assert compiled._count == 2

    # Split at a boolean mask, the partition that writes the statistics
    # runs in PyTorch: one update per call, none per trace or propagation.
    bn = torch.nn.BatchNorm1d(4)
    untraceable = stax.compile(lambda x: (lambda y: y[y > 0].cumsum(0).sum())(bn(x)))
    with pytest.warns(UserWarning, match="runs .*in PyTorch"):
        untraceable(torch.randn(3, 4))
    assert int(bn.num_batches_tracked) == 1
    untraceable(torch.randn(3, 4))
    assert int(bn.num_batches_tracked) == 2


def test_partitions_of_a_split_function_compile_without_refunctionalizing():
    """PyTorch 1.13's own cross entropy with class weights and label
    smoothing (its C++ entry point: F.cross_entropy is redirected to a form
    without it) traces a masked_select (split out); the rest is a
    partition already traced
    functionally, which is compiled without tracing it through
    functionalization again (that trips an internal assertion of PyTorch
    1.13); if a partition still fails to compile, it runs in PyTorch with
    a warning instead of failing the call."""
    torch.manual_seed(2)
    w = torch.rand(6)
    t = torch.tensor([0, 1, 2, 5])
    f = lambda x: torch._C._nn.cross_entropy_loss(x, t, w, 1, -100, 0.1)
    x = torch.randn(4, 6, requires_grad=True)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        y = stax.compile(f)(x)
    messages = [str(m.message) for m in caught if "stax" in str(m.message)]
    assert messages == ["stax.compile: runs in PyTorch (no Stax import): "
                        "aten.masked_select.default, and 5 ops after a "
                        "data-dependent shape (a boolean mask, masked_select, "
                        "nonzero ...)"], messages
    (g,) = torch.autograd.grad(y, x)
    want = f(x)
    (gw,) = torch.autograd.grad(want, x)
    # 24 terms of magnitude <= |log softmax| <= 10 and their weights.
    assert abs(float(y - want)) <= reorder_bound(24, 10.0)
    assert torch.all((g - gw).abs() <= reorder_bound(24, 1.0))


@pytest.mark.parametrize("fn", [
    lambda x: x.repeat_interleave(2, dim=1),
    lambda x: torch.repeat_interleave(x, 3),
    lambda x: x.repeat_interleave(1, -1) * 2,
    lambda x: x.repeat_interleave(0, dim=0),
], ids=["dim1", "flat", "last", "zero"])
def test_repeat_interleave_by_an_integer_compiles(fn):
    """repeat_interleave with an integer count (grouped-query attention)
    has a static shape: compiled, no warning, eager's values and gradient
    (each input element's gradient sums its copies)."""
    x = torch.randn(2, 3, 4, requires_grad=True)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        y = stax.compile(fn)(x)
    assert torch.equal(y, fn(x))
    if y.numel():
        (g,) = torch.autograd.grad(y.sum() * 3, x)
        (gw,) = torch.autograd.grad(fn(x).sum() * 3, x)
        assert torch.equal(g, gw)


@pytest.mark.parametrize("name", ["quantile", "nanquantile"])
@pytest.mark.parametrize("interpolation",
                         ["linear", "lower", "higher", "midpoint", "nearest"])
def test_quantile_compiles_with_eager_ranks(name, interpolation):
    """quantile / nanquantile (eager reads q to check its range, which
    make_fx cannot trace) compile: Python and tensor q, every dim and
    keepdim, NaN slices. The ranks and selected values are eager's exactly;
    the interpolation is a lerp (eager's fuses a multiply-add), so a value
    may differ by a few ulp of the values it lies between."""
    torch.manual_seed(0)
    x = torch.randn(4, 7, 5)
    x[1, 3, 2] = float("nan")
    x[2, :, 0] = float("nan")
    fn = getattr(torch, name)
    for q, dim in [(0.3, 1), (0.5, None), (torch.tensor([0.0, 0.25, 1.0]), 2),
                   (0.9, -1), (torch.tensor(0.7), 0)]:
        for keepdim in (False, True):
            f = lambda x: fn(x, q, dim, keepdim, interpolation=interpolation)
            with warnings.catch_warnings():
                warnings.simplefilter("error")
                got = stax.compile(f)(x)
            want = f(x)
            assert got.shape == want.shape
            assert torch.equal(got.isnan(), want.isnan())
            tol = 4 * U * float(x.nan_to_num().abs().max())
            assert torch.all((got - want).nan_to_num().abs() <= tol)
    # A 0-d input's result is 0-d, with keepdim too.
    for keepdim in (False, True):
        f = lambda x: fn(x, 0.5, 0, keepdim, interpolation=interpolation)  # noqa: E731
        s = torch.tensor(1.5)
        assert stax.compile(f)(s).shape == f(s).shape == ()
    # Tracing refuses q = 1.5; the function then runs in PyTorch, which
    # raises eager's error.
    with pytest.warns(UserWarning, match="q must be in the range"), \
            pytest.raises(RuntimeError, match=r"q must be in the range \[0, 1\]"):
        stax.compile(lambda x: fn(x, 1.5))(x)


def test_in_place_view_ops_on_inputs_run_in_pytorch():
    """x.t_() / x.unsqueeze_(0) change the caller's tensor's shape, which
    compiled code cannot: the function runs in PyTorch (one warning naming
    why), with eager's results and eager's effect on the argument. (It used
    to be split around as_strided_ and fail inside PyTorch.)"""
    def transposes(a, b):
        a.t_()
        return a @ b

    def unsqueezes(a):
        a.unsqueeze_(0)
        return a + 1

    for fn, make in ((transposes, lambda: [torch.randn(4, 6), torch.randn(4, 3)]),
                     (unsqueezes, lambda: [torch.randn(4, 6)])):
        args = make()
        ref = [t.clone() for t in args]
        with pytest.warns(UserWarning, match="changes the shape or strides of "
                          "an input in place"):
            got = stax.compile(fn)(*args)
        assert torch.equal(got, fn(*ref))
        assert args[0].shape == ref[0].shape and torch.equal(args[0], ref[0])


def test_inputs_the_results_do_not_reach_get_no_gradient():
    """As in PyTorch: an input (or parameter) that no result depends on gets
    None, not a zero gradient, so an optimizer with weight decay or
    momentum skips it exactly as eager does."""
    x, unused = torch.randn(3, 4, requires_grad=True), torch.randn(3, requires_grad=True)
    f = stax.compile(lambda a, b: (a.exp() * 2).sum())
    ga, gb = torch.autograd.grad(f(x, unused), [x, unused], allow_unused=True)
    assert gb is None and torch.allclose(ga, 2 * x.exp(), rtol=4 * U, atol=0)

    class Partly(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.used = torch.nn.Linear(4, 2)
            self.spare = torch.nn.Linear(4, 2)

        def forward(self, x):
            return self.used(x)

    torch.manual_seed(0)
    model = Partly()
    before = model.spare.weight.detach().clone()
    opt = torch.optim.SGD(model.parameters(), lr=0.1, weight_decay=0.5)
    stax.compile(model)(torch.randn(5, 4)).sum().backward()
    assert model.spare.weight.grad is None and model.used.weight.grad is not None
    opt.step()
    assert torch.equal(model.spare.weight, before)


def test_inputs_only_unused_results_reach_get_no_gradient():
    """A loss of one head of a two-headed model: the other head's
    parameters reach only a result the loss does not use. Eager leaves them
    None; the compiled backward was passed zeros for that result (autograd
    materialized them) and gave the head zero gradients, which weight decay
    then applied. An input both heads reach still gets its gradient."""
    class TwoHeads(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.trunk = torch.nn.Linear(4, 8)
            self.first = torch.nn.Linear(8, 2)
            self.second = torch.nn.Linear(8, 3)

        def forward(self, x):
            h = torch.tanh(self.trunk(x))
            return self.first(h), self.second(h), (h > 0).sum()

    torch.manual_seed(0)
    model = TwoHeads().double()
    twin = copy.deepcopy(model)
    x = torch.randn(5, 4, dtype=torch.float64, requires_grad=True)
    xe = x.detach().clone().requires_grad_()
    compiled = stax.compile(model)
    for head in (0, 1, 0):
        compiled(x)[head].sum().backward()
        twin(xe)[head].sum().backward()
        for (name, p), q in zip(model.named_parameters(), twin.parameters()):
            assert (p.grad is None) == (q.grad is None), name
            if q.grad is not None:
                assert torch.allclose(p.grad, q.grad, rtol=1e-12, atol=1e-15), name
        assert torch.allclose(x.grad, xe.grad, rtol=1e-12, atol=1e-15)
        model.zero_grad(set_to_none=True)
        twin.zero_grad(set_to_none=True)
        x.grad = xe.grad = None


def test_batched_backwards_run_once_per_cotangent():
    """autograd.grad(is_grads_batched=True), jacobian and hessian with
    vectorize=True (torch.vmap) and functorch.vmap over autograd.grad pass
    batched tensors, which have no storage compiled code could read: the
    backward failed reading a data pointer, then refused. It now runs once
    per cotangent: bitwise what one call per cotangent gives."""
    import functorch

    def f(x, w):
        return torch.tanh(x @ w).pow(3), (x * 2).sum(0)

    def g(x):
        return torch.sin(x).prod() + (x ** 3).sum()

    compiled_f, compiled_g = stax.compile(f), stax.compile(g)
    torch.manual_seed(0)
    x = torch.randn(3, 4, dtype=torch.float64)
    w = torch.randn(4, 5, dtype=torch.float64)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        jacobian = torch.autograd.functional.jacobian
        batched = jacobian(compiled_f, (x, w), vectorize=True)
        looped = jacobian(compiled_f, (x, w), vectorize=False)
        eager = jacobian(f, (x, w), vectorize=True)
        for b, l, e in zip(sum(batched, ()), sum(looped, ()), sum(eager, ())):
            assert torch.equal(b, l)
            torch.testing.assert_close(b, e, rtol=1e-12, atol=1e-14)
        hessian = torch.autograd.functional.hessian
        batched = hessian(compiled_g, x, vectorize=True)
        assert torch.equal(batched, hessian(compiled_g, x, vectorize=False))
        torch.testing.assert_close(batched, hessian(g, x, vectorize=True),
                                   rtol=1e-12, atol=1e-14)

        xr = x.clone().requires_grad_()
        y = compiled_g(xr)
        v = torch.randn(7, dtype=torch.float64)
        batched, = torch.autograd.grad(y, xr, v, retain_graph=True,
                                       is_grads_batched=True)
        looped = torch.stack([torch.autograd.grad(y, xr, vi, retain_graph=True)[0]
                              for vi in v])
        assert torch.equal(batched, looped)
        us = torch.randn(5, 3, 5, dtype=torch.float64)
        y, _ = compiled_f(xr, w)
        batched = functorch.vmap(lambda u: torch.autograd.grad(
            y, xr, u, retain_graph=True)[0])(us)
        looped = torch.stack([torch.autograd.grad(y, xr, u, retain_graph=True)[0]
                              for u in us])
        assert torch.equal(batched, looped)


def test_values_computed_under_no_grad_inside_are_constants():
    """A value the function computes under torch.no_grad() (a normalizing
    scale) has no gradient in eager; make_fx does not record grad mode, so
    tracing detaches it (the gradient was off by 1.2 here before)."""
    def normalized(x):
        with torch.no_grad():
            scale = x.abs().max()
        return (x / scale).sum()

    torch.manual_seed(0)
    x = torch.randn(4, 6, requires_grad=True)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        (g,) = torch.autograd.grad(stax.compile(normalized)(x), x)
    (want,) = torch.autograd.grad(normalized(x), x)
    assert torch.allclose(g, want, rtol=4 * U, atol=0)


def test_unsupported_operator_is_split_out_with_one_warning():
    x = torch.randn(6, 5)

    # The Bessel functions have neither a tp op nor a decomposition (they
    # are out of the operator-coverage scope; cumsum and nextafter, which
    # used to be split out, now compile).
    def f(x):
        return torch.special.bessel_j0(torch.relu(x) * 2) + 1

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        y = stax.compile(f)(x)
    msgs = [str(w.message) for w in caught if "stax.compile" in str(w.message)]
    assert len(msgs) == 1 and "bessel_j0" in msgs[0]
    assert torch.equal(y, f(x))  # relu, *2, +1 compiled: class 1


def test_a_split_function_writes_after_every_partition_has_read():
    """A split function's writes (the `copy_` into an input, or into a
    captured BatchNorm's statistics, that functionalization leaves) run
    after every partition, without autograd history. Ordered by its
    operands alone, the write into x ran before the partition reading x
    for `x * w` (a silent wrong answer), and the statistics took the
    gradient history of the batch."""
    def f(x, w):
        y = torch.special.bessel_j0(x)      # runs in PyTorch
        z = x * w
        x.mul_(2)
        return y + z
    x, w = torch.randn(4, 8), torch.randn(4, 8)
    mine, ref = x.clone(), x.clone()
    with pytest.warns(UserWarning, match="bessel_j0"):
        got = stax.compile(f)(mine, w)
    assert torch.equal(got, f(ref, w))       # elementwise: class 1
    assert torch.equal(mine, ref)

    torch.manual_seed(0)
    bn = torch.nn.BatchNorm1d(8)
    bn_ref = copy.deepcopy(bn)
    compiled = stax.compile(lambda x: torch.fft.rfft(bn(x)).abs())
    for _ in range(3):
        x = torch.randn(5, 8, requires_grad=True)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            compiled(x).sum().backward()
        torch.fft.rfft(bn_ref(x)).abs().sum().backward()
    assert int(bn.num_batches_tracked) == 3
    assert not bn.running_mean.requires_grad and bn.running_mean.grad_fn is None
    # Means and variances of 5 values: reordered sums, within 4 ulp.
    for name in ("running_mean", "running_var"):
        assert torch.allclose(getattr(bn, name), getattr(bn_ref, name),
                              rtol=4 * U, atol=4 * U), name


def test_untraceable_function_runs_in_pytorch_with_one_warning():
    # make_fx refuses data-dependent control flow; the function then runs
    # in PyTorch (both branches right), with one warning saying why.
    def f(x):
        return x * 2 if x.sum() > 0 else x - 1

    g = stax.compile(f)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        up, down = g(torch.ones(3)), g(-torch.ones(3))
    msgs = [str(w.message) for w in caught if "stax.compile" in str(w.message)]
    assert len(msgs) == 1 and "data-dependent control flow" in msgs[0]
    assert torch.equal(up, torch.full((3,), 2.0))
    assert torch.equal(down, torch.full((3,), -2.0))


def test_full_takes_its_dtype_from_the_fill_value():
    """torch.full((n,), 2) is int64 in eager (bool for True), which PyTorch
    1.13's fake kernels get wrong (float32): compiled, the values are
    eager's, integers above 2^24 included, and an integer target made by
    torch.full feeds nll_loss without a fallback."""
    i = torch.tensor([1, 2, 3])
    f = lambda i: (torch.full((3,), 2**40 + 1) + i,  # noqa: E731
                   torch.full((3,), True) & (i > 1))
    got = stax.compile(f)(i)
    for g, e in zip(got, f(i)):
        assert g.dtype == e.dtype and torch.equal(g, e)
    a = torch.randn(6, 5, requires_grad=True)
    loss = lambda a: F.nll_loss(a.log_softmax(1), torch.full((6,), 2))  # noqa: E731
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = stax.compile(loss)(a)
    (ga,) = torch.autograd.grad(got, a)
    want = loss(a)
    (wa,) = torch.autograd.grad(want, a)
    assert torch.allclose(got, want, rtol=1e-6, atol=0)
    assert torch.allclose(ga, wa, rtol=1e-6, atol=1e-9)


@pytest.mark.parametrize("default", [torch.float32, torch.float64])
def test_arange_of_floats_has_the_default_floating_dtype(default):
    """torch.arange(3.) is the default floating type in eager, int64 in
    PyTorch 1.13's fake kernels: compiled, each form of arange has eager's
    dtype and values."""
    i = torch.tensor([1, 2, 3])
    f = lambda i: (torch.arange(3.) * i, torch.arange(2.5),  # noqa: E731
                   torch.arange(1., 4.) + i, torch.arange(0, 3, 1.) * i,
                   torch.arange(0, 3, 1) * i, torch.arange(i.shape[0]) + i)
    old = torch.get_default_dtype()
    torch.set_default_dtype(default)
    try:
        got, want = stax.compile(f)(i), f(i)
    finally:
        torch.set_default_dtype(old)
    for g, e in zip(got, want):
        assert g.dtype == e.dtype and torch.equal(g, e)


def test_a_module_that_does_not_verify_names_the_diagnostic_in_the_warning(
        monkeypatch):
    """The fallback warning quotes the error's first line: for an imported
    module that does not verify, that line carries the verifier's
    diagnostic (here provoked by importing torch.full without its dtype,
    float32, as nll_loss's target)."""
    import importlib
    importer = importlib.import_module("stax.importer")
    monkeypatch.setattr(importer, "_explicit_factory_dtypes", lambda gm: False)
    a = torch.randn(6, 5)
    loss = lambda a: F.nll_loss(a, torch.full((6,), 2))  # noqa: E731
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        got = stax.compile(loss)(a)
    msgs = [str(w.message) for w in caught if "stax.compile" in str(w.message)]
    assert len(msgs) == 1, msgs
    assert "does not verify" in msgs[0]
    assert "'tp.nll_loss_forward' op operand #1 must be" in msgs[0]
    assert torch.equal(got, loss(a))


@pytest.mark.parametrize("kwargs, error, message", [
    ({"options": "vector-widht=4"}, stax.StaxError,
     "invalid --stax-pipeline options 'vector-widht=4': "
     "<Pass-Options-Parser>: no such option vector-widht"),
    ({"options": "parallel=true vector-width=abc"}, stax.StaxError,
     "'vector-width=abc' is not a valid value for option 'vector-width'"),
    ({"memory_budget": -1}, ValueError, "a byte count is at least 0"),
    ({"memory_budget": 1.5}, ValueError, "a fraction in [0, 1]"),
    ({"memory_budget": "1GB"}, TypeError, "got str"),
    ({"memory_budget": True}, TypeError, "got bool"),
])
def test_bad_arguments_raise_at_compile_time(kwargs, error, message):
    """A bad option or memory budget is the caller's error, raised by
    stax.compile itself (the decorator form too), never a fallback to
    PyTorch at the first call."""
    for make in (lambda: stax.compile(torch.sin, **kwargs),
                 lambda: stax.compile(**kwargs)):
        with pytest.raises(error) as caught:
            make()
        assert message in str(caught.value)


def test_memory_budget_fraction_keeps_its_decimal_point():
    """--stax-mincut reads a budget without a decimal point as bytes: a
    float budget (a fraction) is written with one in any magnitude, an int
    as bytes."""
    import importlib
    option = importlib.import_module("stax.compile")._memory_budget_option
    assert option(1e-07) == " memory-budget=0.00000010000000000"
    assert option(0.5) == " memory-budget=0.50000000000000000"
    assert option(4096) == " memory-budget=4096"
    assert option(None) == ""


@pytest.mark.parametrize("rows", [16, 200])
def test_recomputed_products_give_the_bits_of_saved_ones(rows):
    """Rematerialization is a first-class transformation: with
    memory_budget=0 the backward recomputes x @ w.T (whose transpose node
    then has other users than the product) and transposes it back; every
    product reads its operands through the transposes, so the recomputed
    forward and the backward's products are computed as without a budget,
    bit for bit (16 rows: the inline skinny product; 200: BLAS)."""
    g = torch.Generator().manual_seed(rows)
    x, w = torch.randn(rows, 32, generator=g), torch.randn(64, 32, generator=g)

    def f(x, w):
        return torch.nn.functional.linear(x, w).relu().pow(2).sum()

    def grads(**kw):
        leaves = [x.clone().requires_grad_(), w.clone().requires_grad_()]
        stax.compile(f, **kw)(*leaves).backward()
        return [t.grad for t in leaves]
    for saved, recomputed in zip(grads(), grads(memory_budget=0)):
        assert torch.equal(saved, recomputed)


def test_decomposed_operator_is_compiled():
    x = torch.randn(6, 5)

    def f(x):
        return torch.cumprod(torch.relu(x) + 0.5, 1) + 1

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        y = stax.compile(f)(x)
    assert not [w for w in caught if "stax.compile" in str(w.message)]
    # A prefix product of at most 5 factors rounded after every product
    # (eager rounds once, from float64): at most 4 roundings of the product
    # plus the rounding of + 1 on each side.
    p = torch.cumprod(torch.relu(x) + 0.5, 1)
    assert torch.all((y - f(x)).abs() <= (4 * p + 2 * (p + 1)) * 2.0 ** -24)


def test_signature_guards_recompile():
    f = stax.compile(lambda x: x + 1)
    assert torch.equal(f(torch.zeros(3)), torch.ones(3))
    assert torch.equal(f(torch.zeros(2, 2)), torch.ones(2, 2))
    assert torch.equal(f(torch.zeros(3, dtype=torch.float64)),
                       torch.ones(3, dtype=torch.float64))
    assert len(f._plans) == 3


def test_captured_tensors_get_gradients_and_are_read_afresh():
    # A function that closes over tensors: those that require grad are
    # arguments of the compiled code (they get .grad, and an optimizer's
    # updates are seen by the next call); a captured constant changed in
    # place makes the plan stale, so the next call traces again.
    torch.manual_seed(4)
    w = torch.randn(4, 3, requires_grad=True)
    scale = torch.tensor(2.0)
    x = torch.randn(5, 4)

    def loss(x):
        return ((x @ w).tanh() * scale).square().mean()

    f = stax.compile(loss)
    opt = torch.optim.SGD([w], lr=0.1)
    w_eager = w.detach().clone().requires_grad_()
    opt_eager = torch.optim.SGD([w_eager], lr=0.1)
    for _ in range(3):
        opt.zero_grad()
        f(x).backward()
        opt.step()
        opt_eager.zero_grad()
        ((x @ w_eager).tanh() * scale).square().mean().backward()
        opt_eager.step()
    # Three steps of a 4-term dot product, tanh and a mean of 15 squares:
    # a few dozen roundings of O(1) terms.
    assert torch.all((w.detach() - w_eager.detach()).abs() <= 256 * 2.0 ** -24)
    with torch.no_grad():
        before = f(x)
        scale.mul_(3.0)
        after = f(x)
    assert torch.allclose(after, 9 * before, rtol=8 * 2.0 ** -24, atol=0)


def test_train_and_eval_modes_have_their_own_plans():
    # A module compiled in training mode (dropout draws, batch norm uses
    # the batch statistics) must not be reused after eval(), nor the other
    # way round.
    torch.manual_seed(3)
    m = torch.nn.Sequential(torch.nn.Linear(8, 8), torch.nn.Dropout(0.5),
                            torch.nn.BatchNorm1d(8))
    f = stax.compile(m)
    x = torch.randn(16, 8)
    with torch.no_grad():
        f(x)
        m.eval()
        y, ye = f(x), m(x)
        m[1].train()                        # a submodule's mode counts too
        z = f(x)
    # Eval: a dot product of 8 terms and a fixed affine normalization, each
    # side at most ~16 roundings of terms below |y| + 1 (unit inputs and
    # weights).
    assert torch.all((y - ye).abs() <= 64 * 2.0 ** -24 * (ye.abs() + 1))
    assert len(f._plans) == 3
    assert not torch.equal(z, y)


def test_mlp_trains_like_eager():
    torch.manual_seed(2)
    def make():
        torch.manual_seed(3)
        return torch.nn.Sequential(torch.nn.Linear(10, 24), torch.nn.ReLU(),
                                   torch.nn.Linear(24, 1))
    eager, ours = make(), make()
    x, y = torch.randn(32, 10), torch.randn(32, 1)
    opt_e = torch.optim.SGD(eager.parameters(), lr=0.05)
    opt_o = torch.optim.SGD(ours.parameters(), lr=0.05)
    losses_e, losses_o = [], []
    for _ in range(50):
        for model, opt, losses, fn in (
                (eager, opt_e, losses_e, lambda: ((eager(x) - y) ** 2).mean()),
                (ours, opt_o, losses_o, lambda: stax.compile(ours)(x).sub(y).pow(2).mean())):
            opt.zero_grad()
            loss = fn()
            loss.backward()
            opt.step()
            losses.append(float(loss))
    # Each step's loss differs by reordered sums (n <= 32 rows, 24 hidden);
    # 50 SGD steps amplify that by at most a modest factor on this convex-ish
    # problem: allow 1e3 * n * u relative.
    for a, b in zip(losses_e, losses_o):
        assert abs(a - b) <= 1e3 * 32 * U * max(abs(a), 1.0)
    assert losses_o[-1] < losses_o[0]


def test_arguments_compiled_code_cannot_take_run_in_pytorch():
    """An argument that is neither a tensor (in lists, tuples, dicts and
    dataclasses) nor a Python constant (any other object) was an error; the
    function runs in PyTorch then, with a warning naming it. A dataclass
    batch compiles: its tensor fields are inputs (with gradients), its
    other fields key the plan."""
    import dataclasses

    class Holder:
        def __init__(self, x):
            self.x = x

    f = stax.compile(lambda x, y: x * 2)
    with pytest.warns(UserWarning, match="argument leaf #1 is a object; "
                      "stax.compile functions take tensors"):
        assert torch.equal(f(torch.ones(2), object()), torch.full((2,), 2.0))
    g = stax.compile(lambda b: b.x + 1)
    with pytest.warns(UserWarning, match="argument leaf #0 is a Holder"):
        assert torch.equal(g(Holder(torch.zeros(2))), torch.ones(2))

    @dataclasses.dataclass
    class Batch:
        x: torch.Tensor
        scale: float = 1.0

    w = torch.randn(2, requires_grad=True)
    h = stax.compile(lambda b: (b.x * w * b.scale).sum())
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for scale in (2.0, 2.0, 3.0):
            x = torch.randn(2, requires_grad=True)
            got = h(Batch(x, scale))
            got.backward()
            assert torch.equal(got, (x * w * scale).sum())
            assert torch.equal(x.grad, w.detach() * scale)
    assert len(h._plans) == 2
    with pytest.raises(StaxError, match="'cpu' and 'cuda'"):
        stax.compile(lambda x: x, target="tpu")


@pytest.mark.parametrize("read", [
    lambda t: torch.from_numpy(t.detach().numpy().copy()),
    lambda t: torch.as_tensor(np.asarray(t.detach())),
    lambda t: torch.tensor(t.detach().tolist()),
    lambda t: torch.from_numpy(torch.arange(4.0).numpy()).expand_as(t),
], ids=["numpy", "asarray", "tolist", "made_inside"])
def test_reading_traced_values_runs_in_pytorch(read):
    """A function that reads a tensor's values in Python records no op for
    the read: the values seen while tracing (garbage under
    functionalization) were baked into the plan, a silent wrong answer on
    every call. It runs in PyTorch instead, with a warning naming the read;
    a captured tensor's values are constants and compile."""
    x = torch.randn(3, 4)
    f = stax.compile(lambda a: a * read(a))
    with pytest.warns(UserWarning, match=r"reads a traced tensor's values "
                      r"with \.(numpy|__array__|tolist)\(\)"):
        for v in (x, 2 * x):
            assert torch.equal(f(v), v * read(v))
    table = torch.randn(4)
    g = stax.compile(lambda a: a * torch.from_numpy(table.numpy()))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert torch.equal(g(x), x * table)


def test_inputs_compiled_code_cannot_read_run_in_pytorch():
    """Compiled code reads dense strided memory through data_ptr(): a meta
    tensor crashed the process (a null pointer read), and a sparse one
    failed deep inside. Such inputs run in PyTorch, with a warning naming
    the input and why."""
    x = torch.tensor([[0.0, 1.5], [-2.0, 0.0]])
    cases = [(lambda a: (a * 2).to_dense(), x.to_sparse(),
              "input #0 is a torch.sparse_coo tensor"),
             (lambda a: a.dequantize() * 2,
              torch.quantize_per_tensor(x, 0.5, 0, torch.qint8),
              "input #0 is a quantized tensor"),
             (lambda a: a * 2, torch.empty(3, device="meta"),
              "input #0 is on meta; target=cpu code reads cpu tensors")]
    for fn, t, why in cases:
        with pytest.warns(UserWarning, match=re.escape(why)):
            got = stax.compile(fn)(t)
        want = fn(t)
        assert got.device == want.device and got.shape == want.shape
        if not t.is_meta:
            assert torch.equal(got, want)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert torch.equal(stax.compile(lambda a: a * 2)(x), x * 2)


def test_argument_flags_and_inference_tensors_behave_as_in_eager():
    """`a.requires_grad_()` on an argument changes the caller's tensor,
    which the trace (on copies) dropped; an inference tensor outside
    inference_mode failed on its missing version counter. Both run in
    PyTorch: the flag is set, and eager's own error (or result) comes."""
    def square(a):
        a.requires_grad_()
        return (a * a).sum()

    x = torch.randn(3)
    with pytest.warns(UserWarning, match="sets requires_grad of argument #0"):
        got = stax.compile(square)(x)
    assert x.requires_grad and got.requires_grad
    assert torch.equal(got, (x * x).sum())
    with torch.inference_mode():
        frozen = torch.randn(3, 4)
    f = stax.compile(lambda a: a * 2 + 1)
    with pytest.warns(UserWarning, match="input #0 is an inference tensor"):
        assert torch.equal(f(frozen), frozen * 2 + 1)
    with torch.inference_mode(), warnings.catch_warnings():
        warnings.simplefilter("error")
        assert torch.equal(f(frozen), frozen * 2 + 1)


def test_captured_tensors_changed_through_data_are_seen():
    """A captured tensor that needs no gradient was a constant of the
    plan, rebuilt when its version counter moved; a write through `.data`
    (an EMA update, `t.data.add_(1)`) or `t.data = y` moves no version
    counter, so later calls used the old values. A large captured tensor is
    now passed at every call, and a small one keeps its bits to compare."""
    x = torch.randn(5000)
    small, large = torch.randn(5000)[:10].clone(), torch.randn(5000)

    def f(a):
        return a[:10] * small, a * large

    compiled = stax.compile(f)
    for change in (lambda: small.data.add_(1), lambda: large.data.mul_(2),
                   lambda: setattr(small, "data", torch.randn(10)),
                   lambda: large.data.copy_(torch.randn(5000))):
        change()
        for got, want in zip(compiled(x), f(x)):
            assert torch.equal(got, want)
    assert len(compiled._plans) == 1


class _Settings:
    """A plain holder of a tensor and a number a function reads."""

    temperature = 1.0

    def __init__(self, weight, scale):
        self.weight, self.scale = weight, scale


_counter = _Settings(None, 0)


class _CallsItsLayer(torch.nn.Module):
    """Its forward names `_counter` as an attribute only."""

    def __init__(self):
        super().__init__()
        self._counter = torch.nn.Linear(4, 4)

    def forward(self, a):
        return self._counter(a)


def test_attribute_names_are_not_global_reads():
    """The globals a function reads are those its code loads as globals:
    `self._counter(a)` does not read the global `_counter`, whose changes
    must neither trace again nor count as the function's effects."""
    module = _CallsItsLayer()
    compiled = stax.compile(module)
    x = torch.randn(2, 4)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for k in range(3):
            _counter.scale = k
            assert torch.allclose(compiled(x), module(x), rtol=1e-6, atol=1e-6)
    assert len(compiled._plans) == 1


def test_captured_containers_objects_and_partials_key_their_entries():
    """A captured list or dict holding tensors, a plain object and a
    functools.partial's keywords counted by identity: appending a tensor,
    setting a dict entry or an attribute, or changing a keyword reused the
    plan traced with the old values (a silent wrong answer). Their entries
    are now part of the plan key: a change traces again."""
    import functools
    x = torch.randn(4)
    w1, w2 = torch.randn(4), torch.randn(4)
    weights, config = [w1], {"w": w1}
    settings = _Settings(w1, 2.0)
    cases = [
        (lambda a: a * weights[-1], lambda: weights.append(w2)),
        (lambda a: a * config["w"], lambda: config.__setitem__("w", w2)),
        (lambda a: a * settings.weight, lambda: setattr(settings, "weight", w2)),
        (lambda a: a * settings.scale, lambda: setattr(settings, "scale", 3.0)),
    ]
    scaled = functools.partial(lambda a, s: a * s, s=2.0)
    cases.append((scaled, lambda: scaled.keywords.__setitem__("s", 5.0)))
    # Class attributes: of a class read as a global, and of a module's
    # class read through the instance.
    cases.append((lambda a: a / _Settings.temperature,
                  lambda: setattr(_Settings, "temperature", 2.0)))

    class Scaled(torch.nn.Module):
        factor = 2.0

        def forward(self, a):
            return a * self.factor

    module = Scaled()
    cases.append((module, lambda: setattr(Scaled, "factor", 3.0)))
    for fn, change in cases:
        compiled = stax.compile(fn)
        assert torch.equal(compiled(x), fn(x))
        change()
        assert torch.equal(compiled(x), fn(x))
        assert torch.equal(compiled(x), fn(x)) and len(compiled._plans) == 2


_CALLS = 0


def _count_calls(a):
    global _CALLS
    _CALLS += 1
    return a * _CALLS


class _Counting(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.step = 0

    def forward(self, a):
        self.step += 1
        return a * self.step


def test_python_effects_run_in_pytorch_once_per_call():
    """Tracing runs the function's Python: a draw from Python's or numpy's
    generator became one fixed draw in every call (a random flip always
    or never taken), a counter in a module attribute or a global was
    incremented by the trace, not by each call, and torch.manual_seed or
    set_rng_state inside the function neither left the generator seeded
    nor made the compiled random ops repeat their draws. Such functions
    run in PyTorch, with one warning saying why, and the state the trace
    changed is restored: every call draws and counts as eager does."""
    import random
    global _CALLS
    x = torch.randn(4)

    def flip(a):
        return (a.flip(0) if random.random() < 0.5 else a) * 2

    def scale(a):
        return a * float(np.random.rand())

    log = []

    def logged(a):
        log.append(len(log))
        return a + 1

    def reseeded(a):
        torch.manual_seed(0)
        return a + torch.rand(4)

    def replayed(a):
        state = torch.get_rng_state()
        first = torch.rand(4)
        torch.set_rng_state(state)
        return a + first - torch.rand(4)

    cases = [(flip, lambda: random.seed(0), "Python's random module"),
             (reseeded, lambda: torch.manual_seed(1), "seeds PyTorch's generator"),
             (replayed, lambda: torch.manual_seed(1),
              "rewinds PyTorch's generator and draws"),
             (scale, lambda: np.random.seed(0), "numpy's global generator"),
             (logged, log.clear, "changes a list, dict, set"),
             (_count_calls, lambda: None, "binds a global")]
    for fn, reset, why in cases:
        _CALLS = 0
        reset()
        want = [fn(x) for _ in range(5)]
        _CALLS = 0
        reset()
        compiled = stax.compile(fn)
        with pytest.warns(UserWarning, match=f"runs {fn.__name__} in PyTorch: "
                          f"it .*{re.escape(why)}") as record:
            got = [compiled(x) for _ in range(5)]
        # Seen at two builds, the effect stops further tracing.
        assert len(record) <= 2 and compiled._python_effects is not None
        assert all(torch.equal(g, w) for g, w in zip(got, want)), fn.__name__
    assert log == [0, 1, 2, 3, 4] and _CALLS == 5
    # A list a module holds, appended to by its forward, and one a forward
    # hook appends the layer's output to (feature extraction): once per
    # call, as in eager (once per trace attempt before).

    class Storing(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.linear = torch.nn.Linear(4, 4)
            self.store = []

        def forward(self, a):
            y = self.linear(a)
            self.store.append(y.detach())
            return y.sum()

    storing = Storing()
    hooked = torch.nn.Sequential(torch.nn.Linear(4, 4), torch.nn.Tanh())
    features = []
    hooked[0].register_forward_hook(lambda m, i, o: features.append(o.detach()))
    for module, kept, why in ((storing, storing.store, "changes Storing.store"),
                              (hooked, features, "changes a list")):
        compiled = stax.compile(module)
        with pytest.warns(UserWarning, match=re.escape(why)):
            for k in range(3):
                compiled(x)
                assert len(kept) == k + 1
        assert torch.equal(kept[-1], (storing.linear if module is storing
                                      else hooked[0])(x).detach())
    # The generator is left as eager leaves it.
    with pytest.warns(UserWarning, match="seeds PyTorch's generator"):
        stax.compile(reseeded)(x)
    assert torch.equal(torch.rand(3), (torch.manual_seed(0), torch.rand(4),
                                       torch.rand(3))[2])
    # A mode the function sets is part of the plan key, not an effect to
    # refuse: it compiles, in eval mode, and leaves the model there.
    model = torch.nn.Sequential(torch.nn.Linear(4, 4), torch.nn.Dropout(0.5))

    def evaluate(a):
        model.eval()
        return model(a)

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        model.train()
        got = stax.compile(evaluate)(x)
    assert not model.training
    assert torch.allclose(got, model(x), rtol=1e-6, atol=1e-6)
    # An effect of the first call only (a lazy initialization) runs that
    # call in PyTorch; the next one compiles.

    class LazyScale(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.ready = False
            self.register_buffer("scale", torch.ones(()))

        def forward(self, a):
            if not self.ready:
                with torch.no_grad():
                    self.scale.fill_(2.0)
                self.ready = True
            return a * self.scale

    lazy = LazyScale()
    compiled = stax.compile(lazy)
    with pytest.warns(UserWarning, match="sets the attribute LazyScale.ready"):
        assert torch.equal(compiled(x), 2 * x)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert torch.equal(compiled(x), 2 * x) and compiled._plans
    # Binding an equal value again at every call (a new int each time) is
    # no effect: after the first call, which sets it, the module compiles.

    class Remembers(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.length = None

        def forward(self, a):
            self.length = a.shape[0] * 1000
            return a * 2

    remembers = Remembers()
    compiled = stax.compile(remembers)
    with pytest.warns(UserWarning, match="sets the attribute Remembers.length"):
        compiled(x)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert torch.equal(compiled(x), x * 2) and compiled(x) is not None
    assert remembers.length == 4000 and len(compiled._plans) == 1
    eager, module = _Counting(), _Counting()
    compiled = stax.compile(module)
    with pytest.warns(UserWarning, match="sets the attribute _Counting.step"):
        for _ in range(40):
            assert torch.equal(compiled(x), eager(x))
    assert module.step == eager.step == 40


@pytest.mark.parametrize("arg", [torch.Size([2, 3]), slice(1, 4), Ellipsis,
                                 torch.channels_last],
                         ids=["size", "slice", "ellipsis", "memory_format"])
def test_constant_arguments_of_other_kinds(arg):
    """torch.Size, slices, Ellipsis and memory formats are constants of the
    trace like numbers: one plan for calls with the same value (a slice,
    unhashable, made the call fail; a torch.Size keyed differently on the
    first call, before make_fx's module registered it with pytree)."""
    def f(x, a):
        if isinstance(a, tuple):
            return x.reshape(a) * 2
        if isinstance(a, torch.memory_format):
            return x.reshape(1, 2, 3, 1).contiguous(memory_format=a) + 1
        return x[a] * 2
    compiled = stax.compile(f)
    x = torch.randn(6)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for _ in range(2):
            assert torch.equal(compiled(x, arg), f(x, arg))
    assert compiled._count == 1


def test_keyword_nested_and_constant_arguments():
    """Keyword arguments, tensors in lists and dicts, and Python constants
    (numbers, strings, None) are taken as eager takes them: the tensors are
    inputs (with gradients), the constants are baked in and a new value
    traces a new plan. A None among the results (MultiheadAttention without
    weights) comes back as None."""
    def f(x, scale=1.0, *, act="tanh", extra=None, factors=()):
        y = getattr(torch, act)(x) * scale
        if extra is not None:
            y = y + extra["bias"]
        for t in factors:
            y = y * t
        return y.sum(), None

    x = torch.randn(4, 6, requires_grad=True)
    compiled = stax.compile(f)
    calls = [((x,), {}), ((x, 2.0), {}), ((x, 2.0), {}), ((x,), {"act": "sigmoid"}),
             ((x, 3), {"extra": {"bias": torch.ones(6, requires_grad=True)}}),
             ((x,), {"factors": [torch.full((6,), 2.0), torch.full((4, 1), 0.5)]})]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for args, kwargs in calls:
            got, none = compiled(*args, **kwargs)
            want, _ = f(*args, **kwargs)
            assert none is None
            assert abs(float(got - want)) <= reorder_bound(24, float(want.abs()) + 24)
            (g,) = torch.autograd.grad(got, x)
            (gw,) = torch.autograd.grad(want, x)
            assert torch.allclose(g, gw, rtol=0, atol=8 * U * float(gw.abs().max()))
    assert compiled._count == 5      # the repeated call reuses its plan
    attention = torch.nn.MultiheadAttention(8, 2, batch_first=True)
    q = torch.randn(2, 5, 8)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        out, weights = stax.compile(attention)(q, q, q, need_weights=False)
    assert weights is None
    assert torch.allclose(out, attention(q, q, q, need_weights=False)[0],
                          rtol=0, atol=1e-6)


def test_debug_dir_gets_every_stage(tmp_path):
    x = torch.randn(4, 4, requires_grad=True)
    f = stax.compile(lambda x: torch.exp(x).sum(), debug_dir=str(tmp_path))
    f(x).backward()
    names = sorted(p.name for p in tmp_path.iterdir())
    for part in ("tp.mlir", "split.mlir", "mincut.dot",
                 "forward_forward.stax.mlir", "forward_forward.ll",
                 "forward_backward.ll"):
        assert any(n.endswith(part) for n in names), (part, names)


def test_transformer_encoder_layer_trains_like_eager():
    def make():
        torch.manual_seed(0)
        return torch.nn.TransformerEncoderLayer(32, 4, 64, dropout=0.0,
                                                batch_first=True)
    eager, ours = make(), make()
    compiled = stax.compile(ours)
    torch.manual_seed(1)
    x, y = torch.randn(2, 8, 32), torch.randn(2, 8, 32)
    opt_e = torch.optim.SGD(eager.parameters(), lr=0.01)
    opt_o = torch.optim.SGD(ours.parameters(), lr=0.01)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for _ in range(50):
            opt_e.zero_grad()
            le = ((eager(x) - y) ** 2).mean()
            le.backward()
            opt_e.step()
            opt_o.zero_grad()
            lo = ((compiled(x) - y) ** 2).mean()
            lo.backward()
            opt_o.step()
            # Reordered sums of at most 64 terms per step (class 2), grown
            # over the steps: 1e3 * n * u relative, as for the MLP.
            assert abs(float(le) - float(lo)) <= 1e3 * 64 * U * float(le)
    # Compiled whole: no operator ran in PyTorch instead.
    assert not [w for w in caught if "stax.compile" in str(w.message)]


def test_openmp_workers_sleep_between_calls():
    """Workers spin between the parallel loops of a call and sleep after it
    (lib/ExecutionEngine/OpenMPWorkers.h): libomp's default, spinning 200 ms
    after every loop, would take the cores from PyTorch's next ops."""
    import resource
    stax.set_num_threads(2)
    try:
        f = stax.compile(lambda x: torch.tanh(x) * 2 + x)
        x = torch.randn(1 << 20)  # parallel at the default grain
        with torch.no_grad():
            for _ in range(3):
                assert torch.equal(f(x), f(x))
            before = resource.getrusage(resource.RUSAGE_SELF)
            time.sleep(0.2)
            after = resource.getrusage(resource.RUSAGE_SELF)
        busy = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        assert busy < 0.02, f"{busy * 1e3:.1f} ms of CPU while idle for 200 ms"
    finally:
        stax.set_num_threads(0)


def test_profile_times_each_node_with_its_ideal_bytes():
    """options="profile=true": stax.cpu_take_profile() has one entry per
    node with its calls and the bytes of the tensors it reads and writes;
    code compiled without the option records nothing."""
    n = 1 << 16
    a, b = torch.randn(n), torch.randn(n)
    plain = stax.compile(lambda a, b: a * b)
    profiled = stax.compile(lambda a, b: a + b, options="profile=true")
    with torch.no_grad():
        stax.cpu_take_profile()  # drop earlier records
        for _ in range(3):
            assert torch.equal(profiled(a, b), a + b)
            assert torch.equal(plain(a, b), a * b)
    profile = stax.cpu_take_profile()
    assert len(profile) == 1, profile
    [(name, (calls, total_ms, best_ms, nbytes))] = profile.items()
    assert name.startswith("@forward: stax.pointwise at ")
    assert calls == 3
    assert 0 < best_ms <= total_ms
    assert nbytes == 3 * n * 4
    assert stax.cpu_take_profile() == {}


def test_scans_are_linear_and_equal_eager():
    # cumsum/cumprod/logcumsumexp/cummax/cummin are tp scans: one pass along dim in
    # eager's order and accumulation type (f64 for f32), so compiled values
    # and indices equal eager's bit for bit, NaN and -inf included, in
    # every layout the code generator distinguishes (rows, vectors of
    # columns with a scalar remainder, one long slice) and for integers,
    # whose cumsum widens to int64.
    torch.manual_seed(0)
    x = torch.randn(6, 37, 21)
    x[1, 3, 5] = float("nan")
    x[2, :, 4] = float("-inf")
    n = torch.randint(-9, 9, (6, 37, 21), dtype=torch.int32)

    def f(x, n):
        return (x.cumsum(1), x.logcumsumexp(2), *x.cummax(0), *x.cummin(1),
                n.cumsum(2), (x > 0).cumsum(1), *n.cummax(1),
                x.reshape(-1).cumsum(0), x.flip(1).cumsum(1, dtype=torch.float64),
                # An explicit integer dtype is kept (not widened again).
                (x > 0).cumsum(2, dtype=torch.int32), n.cumsum(0, dtype=torch.int32),
                # cumprod: f64 accumulation, int64 for integers (wrapping).
                (x * 0.5 + 1).cumprod(1), n.cumprod(2), (x > 0).cumprod(0),
                x.cumprod(2, dtype=torch.float64))

    got, want = stax.compile(f)(x, n), f(x, n)
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert g.dtype == w.dtype and g.shape == w.shape
        assert torch.equal(g.isnan(), w.isnan())
        assert torch.equal(g[~g.isnan()], w[~w.isnan()])


def test_scan_gradients_match_eager():
    # cumsum's VJP is the reverse scan, cummax/cummin add the adjoint at the
    # indices (exact); logcumsumexp's is eager's formula (exp of reverse
    # logcumsumexps), evaluated the same way: agreement to a few roundings
    # of each term, relative to the gradient's scale.
    torch.manual_seed(1)
    x = torch.randn(5, 40, requires_grad=True)

    def f(x):
        return (x.cumsum(1) * x.logcumsumexp(0)).sum() + x.cummax(1)[0].sum() \
            + (x.cummin(0)[0] ** 2).sum()

    y = stax.compile(f)(x)
    (g,) = torch.autograd.grad(y, x)
    ye = f(x)
    (ge,) = torch.autograd.grad(ye, x)
    scale = 40 * 5 * float(x.detach().abs().max()) ** 2
    assert abs(float(y - ye)) <= 8 * 200 * 2.0 ** -24 * scale
    assert float((g - ge).abs().max()) <= 8 * 40 * 2.0 ** -24 * scale


def test_cumprod_gradients_with_zeros_match_float64():
    # cumprod's gradient masks around each slice's first zero (before it
    # y / x, at it the product of the other factors, after it 0): exact
    # with no, one and several zeros; the forward is a linear scan.
    torch.manual_seed(2)
    x = torch.randn(4, 30)
    x[1, 7] = 0.0
    x[2, 3] = x[2, 20] = 0.0
    x[3, 0] = 0.0
    c = torch.randn(4, 30)

    def f(x):
        return (x.cumprod(1) * c).sum()

    xs = x.clone().requires_grad_()
    (g,) = torch.autograd.grad(stax.compile(f)(xs), xs)
    x64 = x.double().requires_grad_()
    (ge,) = torch.autograd.grad(f(x64), x64)
    # Each gradient entry sums <= 30 terms of <= 30 rounded factors.
    scale = float((c.abs().double() * x64.detach().abs().cumprod(1)).sum()) + 1
    assert torch.all((g.double() - ge).abs() <= 2 * 60 * 30 * 2.0 ** -24 * scale)
    assert torch.equal(g[2, 21:], torch.zeros(9))   # after a second zero
    text = stax.import_torch(lambda x: x.cumprod(1), torch.zeros(1, 4).requires_grad_())
    assert "tp.cumprod" in text and "tp.prod" not in text


def test_cumprod_second_derivative_with_zeros_matches_eager():
    # After a slice's first zero x_k the gradient is 0 in value but x_k
    # times the gradient at x' (x_k replaced by 1) in form, so its
    # derivative in x_k (a second derivative) is not lost: slices with no,
    # one (at the start, inside) and two zeros, in float64 against eager.
    torch.manual_seed(3)
    x = torch.randn(4, 9, dtype=torch.float64)
    x[1, 4] = 0.0
    x[2, 2] = x[2, 6] = 0.0
    x[3, 0] = 0.0
    c = torch.randn(4, 9, dtype=torch.float64)
    v = torch.randn(4, 9, dtype=torch.float64)

    def f(x):
        return (x.cumprod(1) * c).sum()

    def hvp(fn):
        xs = x.clone().requires_grad_()
        (g,) = torch.autograd.grad(fn(xs), xs, create_graph=True)
        (h,) = torch.autograd.grad((g * v).sum(), xs)
        return g.detach(), h

    g, h = hvp(stax.compile(f))
    ge, he = hvp(f)
    # As opinfo_sweep's GRADGRAD_RTOL: within 1e-9 of the largest
    # magnitude (float64 rounding of <= 81 products of <= 9 factors stays
    # below 1e-13 of it; a wrong rule is off by O(1)).
    for ours, eager in ((g, ge), (h, he)):
        assert float((ours - eager).abs().max()) <= 1e-9 * float(eager.abs().max())
    assert float(he[1].abs().max()) > 0.1   # the zero's slice matters


def test_cumprod_jvp_differentiated_again_with_zeros_matches_eager():
    # The JVP after a slice's first zero x_k is t_k cumprod(x') + x_k J'
    # (J' the JVP at x' without t_k): 0 + ... in value, but its derivative
    # in x_k is J', which reverse over forward reads: d/dx <u, J(x) t>
    # against eager's <t, vjp> differentiated (float64, interpreter), for
    # slices with no, one (at the start, inside) and two zeros.
    torch.manual_seed(4)
    x = torch.randn(4, 9, dtype=torch.float64)
    x[1, 4] = 0.0
    x[2, 2] = x[2, 6] = 0.0
    x[3, 0] = 0.0
    t = torch.randn(4, 9, dtype=torch.float64)
    u = torch.randn(4, 9, dtype=torch.float64)
    text = stax.import_torch(lambda x: x.cumprod(1), x.clone().requires_grad_())
    jvp = stax.run_pipeline(text, "builtin.module(stax-jvp)")
    rof = stax.run_pipeline(
        jvp, "builtin.module(stax-joint-graph{wrt=0 gradients-only=true})")
    zero = np.zeros((4, 9))
    y, dy = stax.interpret(jvp, "forward", x.numpy(), t.numpy(), f64=True)
    [h] = stax.interpret(rof, "forward", x.numpy(), t.numpy(), zero, u.numpy(),
                         f64=True)
    xs = x.clone().requires_grad_()
    (g,) = torch.autograd.grad(xs.cumprod(1), xs, u, create_graph=True)
    (he,) = torch.autograd.grad((g * t).sum(), xs)
    _, want = torch.autograd.functional.jvp(lambda x: x.cumprod(1), x, t)
    assert np.abs(dy - want.numpy()).max() <= 1e-12 * float(want.abs().max())
    # Within 1e-9 of the largest magnitude (rounding of <= 81 products of
    # <= 9 factors is far below; a lost term is off by O(1)).
    assert np.abs(h - he.numpy()).max() <= 1e-9 * float(he.abs().max())
    assert float(he[2].abs().max()) > 0.1   # the two-zero slice matters


@pytest.mark.parametrize("fn", [
    lambda x: F.max_pool1d(F.layer_norm(x, (5,)), 2),
    lambda x: F.avg_pool1d(F.layer_norm(x, (5,)), 2),
    lambda x: F.conv1d(F.layer_norm(x, (5,)), torch.ones(2, 3, 2)),
], ids=["max_pool", "avg_pool", "conv1d"])
def test_windows_of_an_intermediate_in_another_layout(fn):
    # A layer norm of a transposed input is contiguous in eager but traced
    # with the input's strides; pooling and convolution take one strided
    # view (as_strided) of their input with row-major strides, which read
    # the traced layout's storage order (wrong elements) until the
    # decomposition copies its input row-major first.
    x = torch.randn(5, 3).t()
    assert torch.allclose(stax.compile(fn)(x), fn(x), rtol=0, atol=1e-5)


@pytest.mark.parametrize("fn", [
    lambda x: F.silu(x).amax(0),
    lambda x: F.silu(x + 1).amax(1, keepdim=True),
    lambda x: torch.sigmoid(x).amin(0),
], ids=["silu_amax", "silu_amax_keepdim", "sigmoid_amin"])
def test_amax_of_an_activation_has_finite_gradients(fn):
    # amax's gradient masks x == amax(x). The min cut recomputed x =
    # silu(a) in the backward, where the f32 logistic idiom did not apply
    # (fusion split n / (exp(y) + 1)): one rounding off, no element equal
    # to the saved maximum, 0 / 0 in every column. The cut now saves
    # values the backward compares for equality.
    torch.manual_seed(0)
    x = torch.randn(16, 16)
    xs = x.clone().requires_grad_()
    (g,) = torch.autograd.grad(stax.compile(fn)(xs).sum(), xs)
    x64 = x.double().requires_grad_()
    (ge,) = torch.autograd.grad(fn(x64).sum(), x64)
    # One nonzero per column: the activation's derivative, a few ulp.
    assert torch.allclose(g.double(), ge, rtol=1e-6, atol=0)


def test_topk_is_the_stable_sorts_prefix():
    # tp.topk (a partial sort in the runtime): values and indices are the
    # first k of the stable sort, so with distinct values they are eager's;
    # with ties, the stable sort's (eager orders ties unspecifiedly). The
    # gradient is the adjoint scattered to the indices: exact.
    torch.manual_seed(2)
    x = (torch.randperm(40 * 70).float() / 7).reshape(40, 70)
    x[3, 5] = float("nan")
    t = torch.randint(-3, 3, (40, 70)).float()

    def f(x, t):
        return (*x.topk(5, 1), *x.topk(40, 0, largest=False), *x.kthvalue(3, 1),
                *t.topk(4, 1), *t.topk(50, 1, largest=False))

    got, want = stax.compile(f)(x, t), f(x, t)
    for g, w in zip(got[:6], want[:6]):
        assert torch.equal(g.nan_to_num(nan=-7.0), w.nan_to_num(nan=-7.0))
    stable = [t.sort(dim=1, descending=True, stable=True), t.sort(dim=1, stable=True)]
    for (v, i), (sv, si), k in zip([got[6:8], got[8:10]], stable, (4, 50)):
        assert torch.equal(v, sv[:, :k]) and torch.equal(i, si[:, :k])

    w = x.nan_to_num(0.0).requires_grad_(True)
    (g,) = torch.autograd.grad((stax.compile(lambda w: w.topk(3, 1)[0] ** 2)(w)).sum(), w)
    (ge,) = torch.autograd.grad((w.topk(3, 1)[0] ** 2).sum(), w)
    assert torch.equal(g, ge)


@pytest.mark.parametrize("align_corners", [False, True])
@pytest.mark.parametrize("size", [(2, 3, 5, 7), (2, 1, 4, 5, 3), (2, 1, 1, 6)],
                         ids=["2d", "3d", "unit"])
def test_affine_grid_compiles(size, align_corners):
    """F.affine_grid (a spatial transformer's sampling grid) compiles: the
    base grid times theta^T. Each grid value is a dot product of K + 1 terms
    (coordinates in [-1, 1], eager's linspace to an ulp) with a row of
    theta; its gradient sums one term per grid position."""
    torch.manual_seed(0)
    k = len(size) - 2
    theta = torch.randn(size[0], k, k + 1, requires_grad=True)
    f = lambda t: F.affine_grid(t, size, align_corners=align_corners)  # noqa: E731
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")       # eager's unit-size grid warning
        got = stax.compile(f)(theta)
        want = f(theta)
    row = theta.detach().abs().sum(-1).view(size[0], *[1] * k, k)
    assert got.shape == want.shape
    assert torch.all((got - want).abs() <= 4 * (k + 2) * U * row)
    cot = torch.randn(want.shape)
    (g,) = torch.autograd.grad(got, theta, cot)
    (gw,) = torch.autograd.grad(want, theta, cot)
    positions = got[0, ..., 0].numel()
    assert torch.all((g - gw).abs() <= reorder_bound(positions, float(cot.abs().sum())))


def test_spatial_transformer_trains_through_compiled_grid_sample():
    """affine_grid + grid_sample, the whole spatial transformer, compiles
    as one function (no warning) with eager's gradients up to reordering."""
    torch.manual_seed(0)
    x = torch.randn(2, 3, 6, 6, requires_grad=True)
    theta = (torch.eye(2, 3) + 0.2 * torch.randn(2, 2, 3)).requires_grad_()
    f = lambda x, t: F.grid_sample(  # noqa: E731
        x, F.affine_grid(t, (2, 3, 5, 5), align_corners=False),
        align_corners=False)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = stax.compile(f)(x, theta)
    want = f(x, theta)
    mag = float(x.abs().max())
    assert torch.all((got - want).abs() <= 64 * U * mag)
    gs = torch.autograd.grad(got.sum(), (x, theta))
    gws = torch.autograd.grad(want.sum(), (x, theta))
    for g, gw in zip(gs, gws):
        assert torch.all((g - gw).abs() <= reorder_bound(150, 64 * float(gw.abs().max()) + 64 * mag))


def test_weight_norm_modules_compile():
    """nn.utils.weight_norm (TCN, WaveNet) compiles: w = v g / ||v||, the
    norm over every dim but `dim`; v and g get eager's gradients."""
    torch.manual_seed(0)

    class TCN(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.conv = torch.nn.utils.weight_norm(
                torch.nn.Conv1d(3, 6, 3, dilation=2, padding=4))
            self.proj = torch.nn.utils.weight_norm(torch.nn.Linear(6, 3), dim=1)

        def forward(self, x):
            h = F.relu(self.conv(x)[:, :, :-4]).transpose(1, 2)
            return self.proj(h).transpose(1, 2) + x

    model = TCN()
    x = torch.randn(2, 3, 10)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = stax.compile(model)(x)
    got.square().sum().backward()
    grads = {n: p.grad.clone() for n, p in model.named_parameters()}
    model.zero_grad()
    want = model(x)
    want.square().sum().backward()
    assert torch.all((got - want).abs() <= reorder_bound(32, 8 * float(want.abs().max())))
    for n, p in model.named_parameters():
        scale = float(p.grad.abs().max()) + 1
        assert torch.all((grads[n] - p.grad).abs() <= reorder_bound(64, 64 * scale)), n


def test_randint_inside_a_function_compiles():
    """torch.randint in the function draws from Stax's stream (not
    PyTorch's): eager's range, dtype and shape, fresh values per call."""
    def f(x):
        return x + torch.randint(3, 7, (4, 5)), torch.randint(2, (1000,), dtype=torch.int32)
    x = torch.zeros(4, 5, dtype=torch.int64)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        cf = stax.compile(f)
        a, b = cf(x)
        a2, _ = cf(x)
    assert a.dtype == torch.int64 and b.dtype == torch.int32
    assert a.min() >= 3 and a.max() <= 6 and b.min() == 0 and b.max() == 1
    assert 400 < int(b.sum()) < 600 and not torch.equal(a, a2)


def test_randperm_normal_and_tensor_bernoulli_compile():
    """torch.randperm (mixup, shuffles), torch.normal(mean, std, size) and
    x.bernoulli_(p) with a tensor p draw from Stax's stream: a permutation,
    eager's dtypes and shapes, fresh values per call."""
    def f(x, p):
        perm = torch.randperm(x.shape[0])
        noise = torch.normal(2.0, 0.5, size=(4000,))
        mask = torch.empty(p.shape).bernoulli_(p)
        return x[perm], perm, noise, mask
    x = torch.arange(300.0)
    p = torch.tensor([0.0, 1.0, 0.25]).repeat(1000)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        cf = stax.compile(f)
        shuffled, perm, noise, mask = cf(x, p)
        _, perm2, _, _ = cf(x, p)
    assert perm.dtype == torch.int64 and torch.equal(perm.sort().values, torch.arange(300))
    assert torch.equal(shuffled, x[perm]) and not torch.equal(perm, perm2)
    assert noise.shape == (4000,) and abs(float(noise.mean()) - 2.0) < 0.05
    assert abs(float(noise.std()) - 0.5) < 0.05
    assert torch.all(mask[0::3] == 0) and torch.all(mask[1::3] == 1)
    assert 150 < int(mask[2::3].sum()) < 350


def test_scatter_reduce_strings_and_number_operands_compile():
    """scatter(..., reduce="add" | "multiply") (tensor or number source) and
    the overloads taking a Python number for a tensor operand (xlogy,
    xlog1py, isin, searchsorted, bucketize) compile: eager's values."""
    index = torch.tensor([[0, 1, 2, 0], [2, 0, 1, 1]])
    seq = torch.tensor([-1.0, 0.0, 0.5, 2.0])
    cases = [
        (lambda x, s: x.scatter(0, index, s, reduce="add"), (3, 4)),
        (lambda x, s: x.scatter(0, index, s, reduce="multiply"), (3, 4)),
        (lambda x, s: x.scatter(1, index, 2.5, reduce="multiply") + s.sum(), (2, 4)),
        (lambda x, s: torch.xlogy(2.0, x.abs()) + torch.xlogy(x, 3.0), (3, 4)),
        (lambda x, s: torch.special.xlog1py(x, 2.0) + torch.special.xlog1py(0.5, x.abs()), (3, 4)),
        (lambda x, s: (torch.isin(x.round(), 1.0), torch.searchsorted(seq, 0.5, right=True),
                       torch.bucketize(0.25, seq)), (3, 4)),
    ]
    torch.manual_seed(0)
    for fn, shape in cases:
        x, s = torch.randn(*shape), torch.randn(2, 4)
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            got = stax.compile(fn)(x, s)
        want = fn(x, s)
        for g, w in zip(got if isinstance(got, tuple) else (got,),
                        want if isinstance(want, tuple) else (want,)):
            assert g.dtype == w.dtype and g.shape == w.shape
            assert torch.allclose(g, w, rtol=4 * U, atol=4 * U) if g.is_floating_point() \
                else torch.equal(g, w)


@pytest.mark.parametrize("mode", ["bilinear", "nearest"])
@pytest.mark.parametrize("padding", ["zeros", "border", "reflection"])
def test_volumetric_grid_sample_compiles(mode, padding):
    """F.grid_sample of a 5-D input (torch._decomp has only the 2-D one):
    eager's float64 values and gradients within float32's rounding. A
    value is at most 8 weighted samples whose weights are products of 3
    factors (about 12 roundings of terms below max|x|); an input gradient
    sums at most every output's weight (the grid has 24 points)."""
    torch.manual_seed(0)
    for align in (False, True):
        def f(x, g):
            return F.grid_sample(x, g, mode=mode, padding_mode=padding,
                                 align_corners=align)
        x = torch.randn(2, 3, 4, 5, 6, dtype=torch.float64, requires_grad=True)
        g = (torch.rand(2, 3, 4, 2, 3, dtype=torch.float64) * 2.6 - 1.3).requires_grad_()
        want = f(x, g)
        want_dx, want_dg = torch.autograd.grad(want.sum(), [x, g])
        x32, g32 = (t.detach().float().requires_grad_() for t in (x, g))
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            got = stax.compile(f)(x32, g32)
        dx, dg = torch.autograd.grad(got.sum(), [x32, g32])
        scale = float(x.abs().max())
        assert torch.all((got - want).abs() <= 16 * U * scale)
        assert torch.all((dx - want_dx).abs() <= 16 * 24 * U)
        # d/dgrid: differences of samples times (size - 1) / 2 per axis.
        assert torch.all((dg - want_dg).abs() <= 16 * 8 * 6 * U * scale * 3)


@pytest.mark.parametrize("dtype", [torch.float64, torch.float32])
def test_bicubic_interpolation_in_the_input_type(dtype):
    """interpolate(mode="bicubic") with eager's coefficients (Keys, A =
    -0.75, source coordinates unclamped, the four taps clamped) computed in
    double: PyTorch's reference decomposition computed the fraction t in
    float32, so float64 results were ~1e-7 off. Each output sums 16
    products (4 per dim, separable) with weights of absolute sum <= 1.25
    per dim: both sides round within 2 * 16 * 1.25^2 u of max |x|, values
    and (summed) gradients."""
    u = torch.finfo(dtype).eps / 2
    g = torch.Generator().manual_seed(0)
    specs = [{"size": (11, 9)}, {"size": (3, 2)}, {"size": (1, 1)},
             {"scale_factor": 1.7}, {"scale_factor": 0.6},
             {"scale_factor": (2.3, 0.7)}]
    for align, spec in itertools.product((False, True), specs):
        def f(x):
            return F.interpolate(x, mode="bicubic", align_corners=align, **spec)
        x = torch.randn(2, 3, 7, 5, generator=g, dtype=dtype, requires_grad=True)
        want = f(x)
        want_dx, = torch.autograd.grad(want.sum(), x)
        xc = x.detach().clone().requires_grad_()
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            got = stax.compile(f)(xc)
        dx, = torch.autograd.grad(got.sum(), xc)
        bound = 2 * 16 * 1.25 ** 2 * u
        assert got.shape == want.shape and got.dtype == dtype
        assert torch.all((got - want).abs() <= bound * float(x.abs().max())), spec
        oh, ow = want.shape[2:]
        assert torch.all((dx - want_dx).abs() <= bound * oh * ow), spec


@pytest.mark.parametrize("mode", ["bilinear", "bicubic"])
def test_antialiased_interpolation_compiles(mode):
    """interpolate(..., antialias=True) (torchvision's resize) is linear in
    its input with weights of the sizes only: a gather of each output's
    taps per spatial dim, with constant weights. Eager's
    float64 values and gradients within float32 rounding: an output sums at
    most `taps` products per dim, taps = 2 * support * max(in / out, 1) + 2,
    with weights up to 1.5 in absolute sum (bicubic's negative lobes)."""
    torch.manual_seed(0)
    specs = [{"size": (3, 5)}, {"size": (11, 4)}, {"size": (1, 1)},
             {"scale_factor": 0.37}, {"scale_factor": (2.5, 0.5)}]
    support = {"bilinear": 1, "bicubic": 2}[mode]
    for align, (h, w), spec in itertools.product((False, True), ((7, 9), (16, 5)), specs):
        def f(x):
            return F.interpolate(x, mode=mode, align_corners=align,
                                 antialias=True, **spec)
        x = torch.randn(2, 3, h, w, dtype=torch.float64, requires_grad=True)
        want = f(x)
        want_dx, = torch.autograd.grad(want.sum(), x)
        x32 = x.detach().float().requires_grad_()
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            got = stax.compile(f)(x32)
        dx, = torch.autograd.grad(got.sum(), x32)
        oh, ow = want.shape[2:]
        taps = sum(2 * support * max(n / o, 1) + 2 for n, o in ((h, oh), (w, ow)))
        bound = 2.25 * (taps + 4) * U
        assert got.shape == want.shape
        assert torch.all((got - want).abs() <= bound * float(x.abs().max())), spec
        assert torch.all((dx - want_dx).abs() <= bound * oh * ow), spec
    with pytest.raises(RuntimeError, match="greater than 0"):
        stax.compile(lambda x: F.interpolate(x, scale_factor=0.5, mode=mode,
                                             antialias=True))(torch.randn(1, 1, 1, 3))


def test_bitwise_or_xor_with_a_number_compile():
    """x | 1, 3 ^ x, x |= 2, torch.bitwise_or(x, 3): make_fx of this PyTorch
    passes the number to the Tensor overload and fails (the function ran
    in PyTorch). Eager's values and dtypes (a bool tensor widens)."""
    def inplace(x):
        y = x.clone()
        y |= 2
        y ^= 1
        return y
    fns = [lambda x: x | 1, lambda x: x ^ 5, lambda x: 3 | x, lambda x: 6 ^ x,
           lambda x: (x > 0) | 1, lambda x: (x > 2) ^ True,
           lambda x: torch.bitwise_or(x, 3), lambda x: x.bitwise_xor(2), inplace]
    for fn in fns:
        for x in (torch.arange(-5, 7), torch.arange(-5, 7, dtype=torch.int32),
                  torch.arange(0, 12, dtype=torch.uint8)):
            with warnings.catch_warnings():
                warnings.simplefilter("error")
                got = stax.compile(fn)(x)
            want = fn(x)
            assert got.dtype == want.dtype and torch.equal(got, want)


def test_a_masked_copy_compiles_as_where():
    """y[mask] = v[mask] (v shaped like y; one mask node, or `x > 0` written
    twice) takes v where the mask holds: compiled as torch.where, without
    v[mask]'s data-dependent shape (which left the rest of the function to
    PyTorch). Eager's values and gradients bit for bit. Masks that differ
    still run in PyTorch."""
    def twice(x, v):
        y = x * 2
        y[x.abs() > 0.5] = v[x.abs() > 0.5]
        return y * 3

    def leading(x, v):
        y = x.clone()
        m = x[:, :, 0] > 0
        y[m] = v[m]
        return y.sum(-1)

    def different(x, v):
        y = x.clone()
        y[x > 0] = (v * 0 + 1)[x > 0] + v[v > 10].sum()
        return y
    torch.manual_seed(0)
    for fn, shape in ((twice, (3, 4)), (leading, (2, 3, 4))):
        x, v = (torch.randn(*shape, requires_grad=True) for _ in range(2))
        want = fn(x, v)
        want_grads = torch.autograd.grad(want.sum(), [x, v])
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            got = stax.compile(fn)(x, v)
        grads = torch.autograd.grad(got.sum(), [x, v])
        assert torch.equal(got, want)
        assert all(torch.equal(g, w) for g, w in zip(grads, want_grads))
    x, v = torch.randn(3, 4), torch.randn(3, 4)
    with pytest.warns(UserWarning, match="data-dependent shape"):
        assert torch.equal(stax.compile(different)(x, v), different(x, v))

    def forward_fill(x):
        # The same index_select of x[m] by m's running count, every row
        # read: the last valid value where m is false. Not a masked copy.
        m = ~torch.isnan(x)
        return x[m].index_select(0, (m.cumsum(0) - 1).clamp(min=0))
    x = torch.tensor([1.0, float("nan"), 3.0, float("nan"), float("nan"), 6.0])
    with pytest.warns(UserWarning, match="data-dependent shape"):
        assert stax.compile(forward_fill)(x).tolist() == [1.0, 1.0, 3.0, 3.0, 3.0, 6.0]


def test_long_float_sums_are_blocked():
    """A vectorized float sum accumulates in 4 x 16 lanes; each lane added
    its share of a row in turn, a chain of n / 64 additions whose rounding
    errors pile up when the terms are alike (a row of 2^20 equal values was
    off by 2773 u). Blocked summation (blocks of 64 unrolled steps summed
    from zero) bounds a lane's chain by 64 + n / 2^12, plus the 4 -> 1
    accumulator tree, the 16 lanes and at most 64 split partials: here
    64 + 256 + 2 + 16 + 64 = 402 additions, each erring by at most u times
    the sum of the magnitudes (Higham 4.2)."""
    x = torch.full((4, 1 << 20), 1.1)
    got = stax.compile(lambda a: a.sum(1))(x).double()
    want = x.double().sum(1)
    assert ((got - want).abs() <= 402 * U * want.abs()).all(), \
        ((got - want).abs() / want.abs()).max().item() / U


def test_long_column_sums_are_blocked():
    """A column sum puts 16 columns in a vector's lanes and walks the rows;
    each lane added its column in turn, a chain of n additions (65536 rows
    of 1.1 were off by thousands of u). From 512 rows on, the walk runs in
    blocks of about sqrt(n) rows summed from zero (here 256 blocks of 256),
    so a lane's chain is 256 + 256 additions, each erring by at most u
    times the sum of the magnitudes (Higham 4.2). A long outer reduction
    loop around vectorized rows (dims 0 and 2) is blocked the same way:
    4096 planes in blocks of 64, rows of 32 (2 vectors), 16 lanes:
    64 + 64 + 2 + 16 additions. Columns below 512 keep the scalar order."""
    x = torch.full((65536, 64), 1.1)
    got = stax.compile(lambda a: a.sum(0))(x).double()
    want = x.double().sum(0)
    assert ((got - want).abs() <= 512 * U * want.abs()).all(), \
        ((got - want).abs() / want.abs()).max().item() / U
    y = torch.full((4096, 3, 32), 1.1)
    got = stax.compile(lambda a: a.sum((0, 2)))(y).double()
    want = y.double().sum((0, 2))
    assert ((got - want).abs() <= 146 * U * want.abs()).all(), \
        ((got - want).abs() / want.abs()).max().item() / U
    # Short columns: the interpreter's order, bit for bit.
    torch.manual_seed(0)
    z = torch.rand(511, 48)
    want = z[0].clone()
    for row in z[1:]:
        want += row
    assert torch.equal(stax.compile(lambda a: a.sum(0))(z), want)


@pytest.mark.parametrize("conv,x_shape,w_shape", [
    (lambda x, w, b: F.conv2d(x, w, b, padding=1, groups=4), (2, 4, 7, 9), (4, 1, 3, 3)),
    (lambda x, w, b: F.conv2d(x, w, b, stride=2, padding=2, dilation=2, groups=4),
     (2, 4, 9, 8), (4, 1, 3, 3)),
    (lambda x, w, b: F.conv2d(x, w, b, padding=(0, 1), groups=4), (2, 4, 7, 9), (8, 1, 3, 3)),
    (lambda x, w, b: F.conv1d(x, w, b, padding=3, groups=6), (3, 6, 20), (6, 1, 7)),
    (lambda x, w, b: F.conv3d(x, w, b, padding=1, groups=2), (1, 2, 4, 5, 6), (2, 1, 3, 3, 3)),
    (lambda x, w, b: F.conv_transpose2d(x, w, b[:4], stride=2, padding=1,
                                        output_padding=1, groups=4), (2, 4, 5, 5), (4, 1, 3, 3)),
], ids=["2d", "stride-dilation", "multiplier-2", "1d", "3d", "transposed"])
def test_depthwise_convolutions_are_reductions(conv, x_shape, w_shape):
    """A convolution whose groups each hold a few weights per output (a
    depthwise one: k x k) sums the products over the patches' view in one
    reduction: no copy of the patches and no per-group GEMM (a depthwise
    3x3 conv of 16x64x28x28 went from 2.5 to 0.8 ms forward, 12.7 to 3.2 ms
    forward+backward). Values, gradients and second derivatives are
    eager's (float64, reordered sums)."""
    g = torch.Generator().manual_seed(2)
    x, w = (torch.randn(s, dtype=torch.float64, generator=g) for s in (x_shape, w_shape))
    b = torch.randn(w_shape[0], dtype=torch.float64, generator=g)
    assert "tp.bmm" not in stax.import_torch(conv, x, w, b)
    results = []
    for f in (conv, stax.compile(conv)):
        xs = [t.clone().requires_grad_() for t in (x, w, b)]
        y = f(*xs)
        cot = torch.linspace(-1, 1, y.numel(), dtype=torch.float64).view(y.shape)
        grads = torch.autograd.grad(y, xs, cot, create_graph=True)
        second = torch.autograd.grad(sum((t * t).sum() for t in grads), xs[:2])
        results.append([y, *grads, *second])
    for got, want in zip(results[1], results[0]):
        torch.testing.assert_close(got, want, rtol=1e-12, atol=1e-12)


def test_narrow_and_very_long_sums_are_blocked():
    """A column sum of fewer columns than a vector's lanes reads strided
    and stays scalar: its loop added the column in one chain (300000 rows
    of 1.1 in 4 columns were off by 5e4 u). It is blocked like the vector
    code now, and beyond 2^18 terms the blocks are blocked in turn: 37
    blocks of 8192, each 64 of 128, a chain of 37 + 64 + 128 additions
    (each erring by at most u times the sum, Higham 4.2); 16 columns take
    the vector path with the same blocks. A broadcast full sum's first
    level is 32 columns of 2^19 (64 + 64 + 128), then 32 partials; 3000
    rows are 64 + 47."""
    for rows, cols, chain in ((300000, 4, 229), (300000, 16, 229),
                              (3000, 4, 111)):
        x = torch.full((rows, cols), 1.1)
        got = stax.compile(lambda a: a.sum(0))(x).double()
        want = x.double().sum(0)
        assert ((got - want).abs() <= chain * U * want.abs()).all(), \
            (rows, cols, ((got - want).abs() / want.abs()).max().item() / U)
    one = torch.full((1,), 1.1)
    got = stax.compile(lambda a: a.expand(4096, 4096).sum())(one).double()
    want = 4096 * 4096 * one.double()
    assert ((got - want).abs() <= 288 * U * want).all(), \
        ((got - want).abs() / want).item() / U


def test_sums_and_means_of_a_masked_selection_compile():
    """loss[mask].mean() (a per-token loss averaged over the tokens a
    padding mask keeps), x[m].sum() and x[m].mean(0) reduce where(m, x, 0):
    no data-dependent shape, so nothing runs in PyTorch and a new count
    does not compile again (stax/masked_reductions.py). The sums are
    reordered (bounded by n ulp of the sum of magnitudes, float64); the
    gradients of the selection are eager's bit for bit, zero where the
    mask is false."""
    def token_loss(logits, target, mask):
        per_token = F.cross_entropy(logits.flatten(0, 1), target.flatten(),
                                    reduction="none")
        return per_token[mask.flatten()].mean()

    def rows(x, m):
        return x[m].sum() * 2, x[m].mean(0), x[m].sum(0)
    torch.manual_seed(0)
    logits = torch.randn(4, 6, 5, dtype=torch.float64)
    target = torch.randint(0, 5, (4, 6))
    x = torch.randn(6, 3, dtype=torch.float64)
    f, g = stax.compile(token_loss), stax.compile(rows)
    for step in range(3):       # three counts, one plan each
        mask = torch.rand(4, 6) > 0.3 + 0.2 * step
        m = torch.rand(6) > 0.5
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            lx = logits.clone().requires_grad_()
            got = f(lx, target, mask)
            xx = x.clone().requires_grad_()
            got_rows = g(xx, m)
        ly = logits.clone().requires_grad_()
        want = token_loss(ly, target, mask)
        xy = x.clone().requires_grad_()
        want_rows = rows(xy, m)
        per_token = F.cross_entropy(logits.flatten(0, 1), target.flatten(),
                                    reduction="none")[mask.flatten()]
        bound = per_token.numel() * 2.0 ** -53 * per_token.abs().sum()
        assert abs(float(got - want)) <= bound / per_token.numel() + 1e-300
        for a, b in zip(got_rows, want_rows):
            n = int(m.sum()) * 3
            assert torch.allclose(a, b, rtol=0,
                                  atol=n * 2.0 ** -53 * float(x.abs().sum()) * 2)
        # log_softmax's backward sums the gradient over 5 classes (class 2).
        dl, dl_want = (torch.autograd.grad(got, lx)[0],
                       torch.autograd.grad(want, ly)[0])
        assert torch.allclose(dl, dl_want, rtol=0, atol=2 * 5 * 2.0 ** -53
                              * float(dl_want.abs().sum(-1).max()))
        assert torch.equal(dl[~mask], torch.zeros_like(dl[~mask]))
        assert torch.equal(torch.autograd.grad(sum(r.sum() for r in got_rows), xx)[0],
                           torch.autograd.grad(sum(r.sum() for r in want_rows), xy)[0])
    assert len(f._plans) == 1 and len(g._plans) == 1


def test_a_mean_of_an_empty_selection_is_nan_with_a_zero_gradient():
    x = torch.randn(3, 4, requires_grad=True)
    m = torch.zeros(3, 4, dtype=torch.bool)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = stax.compile(lambda x, m: x[m].mean())(x, m)
    assert got.isnan()
    assert torch.equal(torch.autograd.grad(got, x)[0], torch.zeros(3, 4))


@pytest.mark.parametrize("fn", [
    lambda x, m: (x[m].mean(), x[m]),          # the selection is a result
    lambda x, m: x[m].cumsum(0).sum(),          # across rows before the sum
    lambda x, m: x.half()[m].mean(),           # eager's half mean rounds once
], ids=["returned", "across_rows", "half"])
def test_other_uses_of_a_masked_selection_still_run_in_pytorch(fn):
    x, m = torch.randn(3, 4), torch.randn(3, 4) > 0
    with pytest.warns(UserWarning, match="in PyTorch .*aten.index.Tensor"):
        got = stax.compile(fn)(x, m)
    for a, b in zip(*(r if isinstance(r, tuple) else (r,)
                      for r in (got, fn(x, m)))):
        assert torch.equal(a, b)


def test_a_mask_that_selects_nothing_writes_nothing():
    """y[m] = x[m] * 2 where m holds nowhere: index_put of zero values.
    Its decomposition indexed the empty values (an IndexError that ran the
    whole function in PyTorch when x required grad). The result still
    requires grad, as eager's does (a zero gradient)."""
    def fn(x):
        y = torch.zeros_like(x)
        y[x > 10] = x[x > 10] * 2
        return y + x
    x = torch.randn(3, 4, requires_grad=True)
    want = fn(x)
    with pytest.warns(UserWarning) as record:
        got = stax.compile(fn)(x)
    assert [str(w.message) for w in record
            if "data-dependent" not in str(w.message)] == []
    assert torch.equal(got, want)
    assert torch.equal(torch.autograd.grad(got.sum(), x)[0],
                       torch.autograd.grad(want.sum(), x)[0])


def test_ignored_targets_get_eager_gradients():
    """nll_loss / cross_entropy skip ignored samples: a batch whose every
    target is ignore_index (a padding-only batch) has a NaN mean loss but a
    zero gradient in eager (the compiled one was NaN everywhere, which an
    optimizer step spreads to every parameter), and an ignored row may hold
    an infinite log-probability without making the loss NaN."""
    masked = torch.tensor([[1.0, 1.0, 1.0], [0.0, 1.0, 1.0]])
    fns = [lambda x, t: F.nll_loss(x.log_softmax(1), t),
           lambda x, t: F.nll_loss(torch.log(x.softmax(1) * masked), t,
                                   weight=torch.tensor([1.0, 0.0, 2.0]), reduction="sum"),
           lambda x, t: F.cross_entropy(x, t, reduction="none"),
           lambda x, t: F.cross_entropy(x, t, label_smoothing=0.1)]
    torch.manual_seed(0)
    for fn in fns:
        for target in ([-100, -100], [1, -100], [2, 0]):
            t = torch.tensor(target)
            x = torch.randn(2, 3, requires_grad=True)
            want = fn(x, t)
            want_dx, = torch.autograd.grad(want.sum(), x)
            x32 = x.detach().clone().requires_grad_()
            with warnings.catch_warnings():
                warnings.simplefilter("error")
                got = stax.compile(fn)(x32, t)
            dx, = torch.autograd.grad(got.sum(), x32)
            assert torch.allclose(got, want, rtol=8 * U, atol=8 * U, equal_nan=True)
            assert torch.allclose(dx, want_dx, rtol=8 * U, atol=8 * U, equal_nan=True)


def test_lazy_modules_compile_after_their_first_call():
    """nn.LazyLinear & co. infer their parameters' shapes on the first
    call, which runs in PyTorch (tracing could not materialize them); the
    next calls compile, the module's or a function's that captures it."""
    torch.manual_seed(0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")       # PyTorch: lazy modules are new
        model = torch.nn.Sequential(torch.nn.LazyConv2d(4, 3), torch.nn.ReLU(),
                                    torch.nn.Flatten(), torch.nn.LazyLinear(2))
        head = torch.nn.LazyLinear(3)
    x = torch.randn(2, 3, 6, 6, requires_grad=True)
    for compiled, module, f in ((stax.compile(model), model, model),
                                (None, head, lambda v: head(v) * 2)):
        compiled = compiled or stax.compile(f)
        v = x if module is model else torch.randn(4, 5)
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            first = compiled(v)
            assert compiled._count == 0
            second = compiled(v)
        assert compiled._count == 1
        assert torch.allclose(first, second, rtol=64 * U, atol=64 * U)
        second.sum().backward()
        assert all(p.grad is not None for p in module.parameters())


def test_module_hooks_added_later_and_backward_hooks():
    """Forward hooks run while tracing, so one added after the first call
    traces again (it was skipped); backward hooks see per-module gradients
    that compiled code never forms: the module runs in PyTorch, with a
    warning (the hook was skipped, silently)."""
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(4, 4), torch.nn.Tanh())
    compiled = stax.compile(model)
    x = torch.randn(2, 4, requires_grad=True)
    compiled(x)
    handle = model[0].register_forward_hook(lambda m, i, o: o * 2)
    assert torch.allclose(compiled(x), model(x), rtol=4 * U, atol=4 * U)
    handle.remove()
    assert torch.allclose(compiled(x), model(x), rtol=4 * U, atol=4 * U)
    model[0].register_full_backward_hook(lambda m, gi, go: (gi[0] * 10,))
    want, = torch.autograd.grad(model(x).sum(), x)
    with pytest.warns(UserWarning, match="backward hooks on Linear"):
        got, = torch.autograd.grad(compiled(x).sum(), x)
    assert torch.equal(got, want)


_HOOK_SCALE = 1.0


def test_a_replaced_hook_and_what_hooks_read_trace_again():
    """A hook removed and another registered (the same number of hooks),
    a hook object's attribute and a global a hook reads: each was baked in
    by the first trace, silently."""
    global _HOOK_SCALE

    class Steer:
        def __init__(self):
            self.alpha = 1.0

        def __call__(self, module, inputs, output):
            return output * self.alpha

    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(4, 4), torch.nn.ReLU(),
                                torch.nn.Linear(4, 2))
    compiled = stax.compile(model)
    x = torch.randn(3, 4)
    handle = model[0].register_forward_hook(lambda m, i, o: o * 2)
    with torch.no_grad():
        assert torch.equal(compiled(x), model(x))
        handle.remove()
        handle = model[0].register_forward_hook(lambda m, i, o: o * 0)
        assert torch.equal(compiled(x), model(x))
        handle.remove()
        steer = Steer()
        model[2].register_forward_hook(steer)
        model[2].register_forward_pre_hook(lambda m, i: (i[0] * _HOOK_SCALE,))
        for alpha, scale in [(1.0, 1.0), (0.0, 1.0), (1.0, 3.0)]:
            steer.alpha, _HOOK_SCALE = alpha, scale
            assert torch.equal(compiled(x), model(x))
    _HOOK_SCALE = 1.0


def test_weight_and_spectral_norm_keep_one_plan():
    """weight_norm / spectral_norm hooks bind the layer's `weight` to a new
    tensor at every call: it is computed in the trace, not part of the plan
    key (keyed by identity, every call traced again). Eager's values."""
    torch.manual_seed(0)
    for wrap in (torch.nn.utils.weight_norm, torch.nn.utils.spectral_norm):
        model, reference = wrap(torch.nn.Linear(6, 5)), wrap(torch.nn.Linear(6, 5))
        reference.load_state_dict(model.state_dict())
        compiled = stax.compile(model)
        for _ in range(4):
            x = torch.randn(3, 6)
            got, want = compiled(x), reference(x)
            assert torch.allclose(got, want, rtol=64 * U, atol=64 * U)
        assert compiled._count == 1


def test_a_compiled_module_stands_in_for_the_module():
    """`model = stax.compile(model)` then the usual training code: the
    module's parameters for the optimizer, train() / eval() (which return
    the compiled module, so `model = model.eval()` keeps it compiled),
    state_dict, submodules; attributes the module has are set on it."""
    torch.manual_seed(0)
    net = torch.nn.Sequential(torch.nn.Linear(3, 3), torch.nn.Dropout(0.5))
    model = stax.compile(net)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    assert len(optimizer.param_groups[0]["params"]) == 2
    model = model.eval()
    assert isinstance(model, stax.CompiledFunction) and not net.training
    x = torch.randn(2, 3)
    assert torch.equal(model(x), net(x))
    assert set(model.state_dict()) == {"0.weight", "0.bias"}
    assert getattr(model, "0") is net[0]
    model.training = True
    assert net.training and model.training
    with pytest.raises(AttributeError):
        model.no_such_attribute
    with pytest.raises(AttributeError):
        stax.compile(lambda v: v).parameters

    class Loss(torch.nn.Module):                  # names stax.compile uses too
        def __init__(self):
            super().__init__()
            self.target, self.options = 2.0, "mine"

        def forward(self, v):
            return (v - self.target).square().mean()
    loss = Loss()
    compiled = stax.compile(loss)
    assert loss.target == 2.0 and loss.options == "mine"
    assert compiled.target == "cpu"                # the compiled object's own


def test_assigning_a_number_to_a_slice_of_an_input_compiles():
    """x[:, 1] = 0 and x.fill_(t) with a 0-dim tensor are aten.fill.Tensor
    once functionalized: compiled, eager's values in the result and in the
    caller's tensor."""
    def f(x, t):
        x.mul_(2).add_(1)
        x[:, 1] = 0
        x[1:, 2:].fill_(t)
        return x.sum(1)

    for dtype in (torch.float32, torch.int32):
        x = torch.randn(3, 4).mul(5).to(dtype)
        t = torch.tensor(7.5)
        xe = x.clone()
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            got = stax.compile(f)(x, t)
        assert torch.equal(got, f(xe, t)) and torch.equal(x, xe)


def _ctc_case(t=30, n=4, c=8, s=6, seed=0):
    g = torch.Generator().manual_seed(seed)
    lp = torch.randn(t, n, c, generator=g).log_softmax(2).requires_grad_()
    tg = torch.randint(1, c, (n, s), generator=g)
    tg[0, 1] = tg[0, 0]                       # a repeated label
    il = torch.tensor([t, t - 3, 5, t])[:n]
    tl = torch.tensor([s, 2, 4, 0])[:n]       # 4 labels in 5 frames: inf
    return lp, tg, il, tl


@pytest.mark.parametrize("reduction", ["none", "mean", "sum"])
@pytest.mark.parametrize("zero_infinity", [False, True])
def test_ctc_loss_compiles_bitwise(reduction, zero_infinity):
    """F.ctc_loss runs eager's CTC algorithm (tp.ctc_loss, a runtime call),
    so losses and the gradient with respect to log_probs are eager's bit
    for bit: padded targets with tensor lengths, an impossible alignment
    (+inf, or 0 with zero_infinity), an empty target, a repeated label."""
    lp, tg, il, tl = _ctc_case()
    f = lambda lp, tg, il, tl: F.ctc_loss(  # noqa: E731
        lp, tg, il, tl, reduction=reduction, zero_infinity=zero_infinity)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = stax.compile(f)(lp, tg, il, tl)
    want = f(lp, tg, il, tl)
    assert torch.equal(got, want)
    if zero_infinity or reduction == "none":
        cot = torch.rand(want.shape)
        if not zero_infinity:
            cot[2] = 0                        # eager's gradient of +inf is NaN
        (g,) = torch.autograd.grad(got, lp, cot)
        (gw,) = torch.autograd.grad(want, lp, cot)
        assert torch.equal(g, gw)


def test_ctc_loss_target_forms_compile():
    """Concatenated 1-D targets (with a tensor or a list of lengths), an
    unbatched input and nn.CTCLoss with another blank: eager's losses
    bitwise; through a log_softmax, the gradient within the softmax's
    rounding."""
    lp, tg, il, tl = _ctc_case()
    cat = torch.cat([tg[i, :tl[i]] for i in range(4)])
    cases = [
        (lambda lp, c, il, tl: F.ctc_loss(lp, c, il, tl, reduction="none"),
         (lp, cat, il, tl)),
        (lambda lp, c: F.ctc_loss(lp, c, il.tolist(), tl.tolist(), reduction="sum"),
         (lp, cat)),
        (lambda lp, t: F.ctc_loss(lp[:, 0], t, (30,), (6,)), (lp, tg[0])),
        (lambda lp, t: torch.nn.CTCLoss(blank=7, zero_infinity=True)(lp, t, il, tl),
         (lp, tg.clamp(max=6))),
    ]
    for f, args in cases:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            got = stax.compile(f)(*args)
        assert torch.equal(got, f(*args))
    for seed in range(4):
        x = torch.randn(30, 4, 8, generator=torch.Generator().manual_seed(seed),
                        requires_grad=True)
        f = lambda x, tg: F.ctc_loss(x.log_softmax(2), tg, il, tl,  # noqa: E731
                                     zero_infinity=True)
        (g,) = torch.autograd.grad(stax.compile(f)(x, tg), x)
        (gw,) = torch.autograd.grad(f(x, tg), x)
        # First order: the compiled log_softmax differs from eager's by
        # d (a reordered 8-term sum); a posterior (<= 1) is the exp of a sum
        # of at most 2 T + 2 such log-probabilities (alpha, beta, nll, lp),
        # scaled by the mean's 1 / (N max(L, 1)) <= 1 / 4, and the
        # log_softmax backward rounds a few times more.
        lp = x.detach().log_softmax(2)
        d = float((stax.compile(lambda x: x.log_softmax(2))(x.detach()) - lp)
                  .abs().max()) + 4 * U * float(lp.abs().max())
        assert torch.all((g - gw).abs() <= (2 * 30 + 2) * d / 4 + 16 * U)


def test_ctc_loss_bad_length_is_an_error():
    """An input length beyond T is an error (eager's too): once compiled,
    the runtime's, naming tp.ctc_loss."""
    lp, tg, il, tl = _ctc_case()
    f = lambda lp, tg, il, tl: F.ctc_loss(lp, tg, il, tl)  # noqa: E731
    compiled = stax.compile(f)
    compiled(lp, tg, il, tl)
    with pytest.raises(StaxError, match=r"index 31 is out of bounds for a "
                                        r"dimension of size 31 in tp.ctc_loss"):
        compiled(lp, tg, torch.tensor([31, 1, 1, 1]), tl)


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("ignore_index", [-100, 2])
def test_label_smoothing_cross_entropy_compiles_whole(reduction, weighted,
                                                      ignore_index):
    """F.cross_entropy with label_smoothing (eager 1.13 averages the
    smoothing term with a masked_select, which split the graph) compiles
    as one function: eager's losses and gradients up to the order of
    the sums, 2-D and 3-D inputs, ignored targets, class weights."""
    torch.manual_seed(0)
    w = torch.rand(5) if weighted else None
    for shape, t in (((6, 5), torch.tensor([0, 2, 4, 1, 2, 3])),
                     ((2, 5, 3), torch.tensor([[0, 2, 4], [1, 2, 3]]))):
        x = torch.randn(*shape, requires_grad=True)
        f = lambda x: F.cross_entropy(  # noqa: E731
            x, t, weight=w, ignore_index=ignore_index, reduction=reduction,
            label_smoothing=0.15)
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            got = stax.compile(f)(x)
        want = f(x)
        # At most 30 terms of |log softmax| <= 10 (times weights <= 1).
        assert torch.all((got - want).abs() <= reorder_bound(30, 30 * 10.0))
        cot = torch.rand(want.shape)
        (g,) = torch.autograd.grad(got, x, cot)
        (gw,) = torch.autograd.grad(want, x, cot)
        assert torch.all((g - gw).abs() <= reorder_bound(30, 30.0))


@pytest.mark.parametrize("form", ["reentrant", "non_reentrant", "sequential"])
def test_activation_checkpointing_inside_compiles(form):
    """torch.utils.checkpoint inside a compiled function (functorch cannot
    trace it: the function ran in PyTorch) runs inline while tracing; the
    min cut decides what to recompute. Eager's values and gradients (the
    module's parameters included) up to reordered sums; PyTorch's
    checkpoint functions are restored after tracing."""
    from torch.utils import checkpoint as cp
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(8, 16), torch.nn.GELU(),
                                torch.nn.Linear(16, 8))
    calls = {
        "reentrant": lambda x: cp.checkpoint(model, x),
        "non_reentrant": lambda x: cp.checkpoint(model, x, use_reentrant=False),
        "sequential": lambda x: cp.checkpoint_sequential(model, 2, x),
    }
    apply = cp.CheckpointFunction.apply
    f = lambda x: calls[form](x).square().sum()  # noqa: E731
    x = torch.randn(4, 8, requires_grad=True)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = stax.compile(f)(x)
    got.backward()
    grads = [x.grad.clone()] + [p.grad.clone() for p in model.parameters()]
    x.grad = None
    model.zero_grad()
    want = f(x)
    want.backward()
    assert cp.CheckpointFunction.apply == apply
    assert abs(float(got - want)) <= reorder_bound(64, 64 * float(want))
    for g, p in zip(grads, [x] + list(model.parameters())):
        scale = float(p.grad.abs().max()) + 1
        assert torch.all((g - p.grad).abs() <= reorder_bound(64, 64 * scale))


def test_ops_after_a_boolean_mask_run_in_pytorch_and_the_model_compiles_once(
        monkeypatch):
    """A masked loss summed across the selected rows in order (a cumsum
    of loss[mask]) has a data-dependent shape: the function is split
    there, the model before it compiled, the mask and everything after it
    run in PyTorch (a compiled region after it would be compiled again for
    every count the masks produce). It used to run the whole function in
    PyTorch. Eager's values and gradients. (loss[mask].mean() and other
    row-wise losses compile: test_sums_and_means_of_a_masked_selection_
    compile, test_masked_row_losses_compile.)"""
    import importlib
    compile_module = importlib.import_module("stax.compile")
    compiles = []
    real = compile_module.CompiledFunction._compile
    monkeypatch.setattr(compile_module.CompiledFunction, "_compile",
                        lambda self, *a, **k: compiles.append(1) or real(self, *a, **k))
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(5, 8), torch.nn.Tanh(),
                                torch.nn.Linear(8, 1))
    f = lambda x, y: (model(x).squeeze(1) - y).square()[y > 0].cumsum(0)[-1]  # noqa: E731
    compiled = stax.compile(f)
    counts = []
    for step in range(4):
        x, y = torch.randn(16, 5), torch.randn(16)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            got = compiled(x, y)
        messages = [str(m.message) for m in caught if "stax" in str(m.message)]
        if step == 0:
            assert messages == [
                "stax.compile: runs in PyTorch (no Stax import): "
                "aten.index.Tensor, and 2 ops after a data-dependent shape "
                "(a boolean mask, masked_select, nonzero ...)"], messages
        got.backward()
        if step == 0:
            counts.append(len(compiles))   # forward and backward
        grads = [p.grad.clone() for p in model.parameters()]
        model.zero_grad()
        want = f(x, y)
        want.backward()
        assert abs(float(got - want)) <= reorder_bound(16, 16 * float(want) + 16)
        for g, p in zip(grads, model.parameters()):
            assert torch.all((g - p.grad).abs() <= reorder_bound(64, 64 * (float(p.grad.abs().max()) + 1)))
        model.zero_grad()
        assert int((y > 0).sum()) > 0
    assert counts[0] >= 1 and len(compiles) == counts[0]


@pytest.mark.parametrize("padding_idx", [None, 1])
def test_embedding_scale_grad_by_freq_gradient(padding_idx):
    """scale_grad_by_freq divides each row's gradient by how often the
    batch looks it up (tp.embedding's rule does not: the importer refused
    to drop it silently). Rows bitwise; the gradient eager's."""
    torch.manual_seed(0)
    w = torch.randn(10, 3, requires_grad=True)
    i = torch.tensor([[1, 1, 2], [5, 1, 0]])
    f = lambda w, i: F.embedding(i, w, padding_idx=padding_idx,  # noqa: E731
                                 scale_grad_by_freq=True)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = stax.compile(f)(w, i)
    want = f(w, i)
    assert torch.equal(got, want)
    cot = torch.randn(want.shape)
    (g,) = torch.autograd.grad(got, w, cot)
    (gw,) = torch.autograd.grad(want, w, cot)
    assert torch.all((g - gw).abs() <= reorder_bound(3, 3 * float(cot.abs().max())))


@pytest.mark.parametrize("dims", [1, 2, 3])
def test_max_unpool_compiles(dims):
    """max_unpool (SegNet's decoder) scatters each value back to the index
    max_pool returned: compiled, eager's values bitwise, gradients too."""
    torch.manual_seed(0)
    pool = getattr(F, f"max_pool{dims}d")
    unpool = getattr(F, f"max_unpool{dims}d")
    x = torch.randn(2, 3, *[6, 5, 4][:dims], requires_grad=True)
    size = list(x.shape[2:])
    f = lambda x: unpool(*pool(x, 2, return_indices=True), 2,  # noqa: E731
                         output_size=size)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = stax.compile(f)(x)
    want = f(x)
    assert torch.equal(got, want)
    cot = torch.randn(want.shape)
    assert torch.equal(torch.autograd.grad(got, x, cot)[0],
                       torch.autograd.grad(want, x, cot)[0])


def test_new_tensor_inside_compiles():
    """x.new_tensor(data) (PyTorch 1.13's functionalization fails on it)
    is a constant of x's dtype."""
    f = lambda x: x * x.new_tensor([1.0, 2.0, 3.0]) + x.new_tensor(2)  # noqa: E731
    x = torch.randn(2, 3, dtype=torch.float64)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = stax.compile(f)(x)
    assert got.dtype == torch.float64 and torch.equal(got, f(x))


@pytest.mark.parametrize("fn", [
    lambda x: x.norm(dim=1),
    lambda x: torch.linalg.vector_norm(x, 3, dim=1),
    lambda x: (x * 0).norm(),
    lambda x: torch.dist(x[0], x[0]),
    lambda x: torch.cdist(x, x),
    lambda x: F.normalize(x, dim=1),
    lambda x: torch.renorm(x, 2, 0, 1.0),
    lambda x: torch.linalg.vector_norm(x, 0.5, dim=1),
    lambda x: torch.linalg.vector_norm(x, -1, dim=1),
    lambda x: torch.cdist(x, x.flip(0), p=float("inf")),
], ids=["norm_dim", "p3", "all_zero", "dist_to_itself", "cdist", "normalize",
        "renorm", "p_half", "p_minus_one", "cdist_inf_ties"])
def test_norm_gradient_at_zero_is_eagers_subgradient(fn):
    """The gradient of a norm that is 0 (a zero row, a point's distance to
    itself) is 0 in eager (norm_backward masks it); the decomposition's
    root chained with |x|^p's zero derivative gave NaN, a silent NaN in
    every parameter downstream. For p < 1 the zero entries' gradient is 0
    also in a nonzero norm (|x|^p's slope is infinite there). cdist with
    p = inf gives every coordinate that attains the maximum the whole
    gradient (the infinity norm splits it). Values bitwise, gradients
    eager's."""
    x = torch.tensor([[0.0, 0.0], [3.0, 4.0], [0.0, 4.0], [3.0, -3.0]],
                     requires_grad=True)
    got = stax.compile(fn)(x)
    want = fn(x)
    assert torch.equal(got, want)
    cot = torch.rand(want.shape)
    (g,) = torch.autograd.grad(got, x, cot)
    (gw,) = torch.autograd.grad(want, x, cot)
    assert not g.isnan().any()
    assert torch.all((g - gw).abs() <= 8 * U * (gw.abs() + 1))


@pytest.mark.parametrize("n", [40, 300])
def test_mode_of_long_slices_by_runs(n):
    """mode counts pairwise up to 64 elements and by sorted runs beyond
    (the pairwise count of a 10^4 slice took 400 MB): eager's value (the
    smallest of the most frequent), its last occurrence as the index (eager
    returns any occurrence once its sort is unstable), floats and ints."""
    torch.manual_seed(0)
    for x in (torch.randint(0, 12, (5, n)).float(), torch.randint(-3, 9, (5, n))):
        for dim in (-1, 0):
            with warnings.catch_warnings():
                warnings.simplefilter("error")
                v, i = stax.compile(lambda x: torch.mode(x, dim))(x)
            ve, _ = torch.mode(x, dim)
            assert torch.equal(v, ve)
            xt = x.movedim(dim, -1)
            pos = torch.arange(xt.shape[-1])
            last = torch.where(xt == v.unsqueeze(-1), pos, -1).amax(-1)
            assert torch.equal(i, last)
    # The gradient goes to the index alone (eager's), not shared among the
    # equal values.
    x = torch.tensor([[1.0, 2.0, 1.0, 3.0] * (n // 4)], requires_grad=True)
    v, i = stax.compile(lambda x: torch.mode(x, 1))(x)
    (g,) = torch.autograd.grad(v.sum(), x)
    assert float(g.sum()) == 1.0 and float(g[0, int(i)]) == 1.0


_KINKS = torch.tensor([-6.0, -3.0, -1.0, -0.5, 0.0, -0.0, 0.5, 1.0, 3.0, 6.0])


@pytest.mark.parametrize("fn", [
    F.hardsigmoid,
    torch.sinc,
    lambda x: torch.fmax(x, -x),
    lambda x: torch.fmin(x, x.flip(0)),
    lambda x: x.view(2, 5).std(1) + x.view(5, 2).std(0).sum(),
    lambda x: torch.std_mean(x.view(2, 5).abs().round(), 1)[0],
], ids=["hardsigmoid", "sinc", "fmax", "fmin", "std", "std_mean"])
def test_gradients_at_kinks_are_eagers(fn):
    """Where a function is not differentiable eager defines a value, and
    the decompositions now give it: hardsigmoid's 0 at +-3 (a clamp passed
    the gradient at its bounds), sinc's 0 at 0 and std's 0 at a constant
    slice (NaN before: a select's masked branch had a NaN derivative), and
    fmax/fmin's tie to self (maximum split it)."""
    x = _KINKS.clone().requires_grad_()
    got = stax.compile(fn)(x)
    want = fn(x)
    assert torch.allclose(got, want, rtol=4 * U, atol=0, equal_nan=True)
    cot = torch.linspace(0.5, 1.5, want.numel()).view(want.shape)
    (g,) = torch.autograd.grad(got, x, cot)
    (gw,) = torch.autograd.grad(want, x, cot)
    assert torch.equal(g.isnan(), gw.isnan())
    assert torch.all((g - gw).nan_to_num().abs() <= 16 * U * (gw.abs().nan_to_num() + 1))


_SELECTING = [
    F.hardtanh, F.relu6, lambda x: x.clamp(-1, 1), lambda x: x.clamp_min(0.5),
    lambda x: x.clamp(max=0.5), lambda x: torch.maximum(x, x.flip(0).round()),
    lambda x: torch.minimum(x.round(), x), lambda x: torch.logit(x, 0.1),
    F.hardsigmoid,
]


@pytest.mark.parametrize("fn", _SELECTING, ids=[
    "hardtanh", "relu6", "clamp", "clamp_min", "clamp_max", "maximum",
    "minimum", "logit_eps", "hardsigmoid"])
def test_selected_gradients_drop_infinite_cotangents(fn):
    """Eager's backward of clamp, hardtanh, maximum/minimum and the like
    selects the gradient (where(mask, grad, 0)) rather than multiplying
    it by a 0/1 mask, so an infinite or NaN incoming gradient gives 0
    where the input is not taken, not NaN. Stax's rules select too; every
    value and its NaN-ness is eager's."""
    x = torch.tensor([-30., -6., -3., -1.5, -1., -0.5, -0., 0., 0.1, 0.5, 1.,
                      1.5, 3., 6., 30., float("nan"), -float("inf"),
                      float("inf")], dtype=torch.float64)
    for c in (float("inf"), -float("inf"), float("nan")):
        results = []
        for f in (fn, stax.compile(fn)):
            xs = x.clone().requires_grad_()
            y = f(xs)
            cot = torch.ones(y.shape, dtype=y.dtype)
            cot[::2] = c
            results.append(torch.autograd.grad(y, xs, cot)[0])
        want, got = results
        assert torch.equal(want.isnan(), got.isnan()), (c, want, got)
        assert torch.equal(want.nan_to_num(), got.nan_to_num()), (c, want, got)


@pytest.mark.parametrize("fn", [
    lambda x: x.clamp(min=float("nan")), lambda x: x.clamp(max=float("nan")),
    lambda x: torch.clamp(x, None, float("nan")), lambda x: x.clamp_min(float("nan")),
    lambda x: x.clamp(float("nan"), 1.0), lambda x: x.clamp(max=float("nan")) * 2 + x,
    lambda x: x.clamp_max(float("nan"))],
    ids=["min", "max", "positional", "clamp_min", "both", "mixed", "clamp_max"])
def test_clamp_with_a_nan_bound_is_eager_s(fn):
    """Eager's clamp with one bound, NaN, leaves x as it is (max(x, nan) is
    x in its kernels) with a zero gradient; clamp_min/clamp_max and a clamp
    with both bounds fill NaN. Compiled, the single-bound clamp filled NaN."""
    x = torch.tensor([-2.0, 0.5, 3.0, float("nan")], dtype=torch.float64)
    want, got = [], []
    for f, out in ((fn, want), (stax.compile(fn), got)):
        xs = x.clone().requires_grad_()
        y = f(xs)
        out += [y.detach(), torch.autograd.grad(y.sum(), xs)[0]]
    for w, g in zip(want, got):
        assert torch.equal(w.isnan(), g.isnan()) and torch.equal(w.nan_to_num(), g.nan_to_num())
    ints = torch.tensor([-2, 0, 3])
    got, want = stax.compile(fn)(ints), fn(ints)
    assert got.dtype == want.dtype
    assert torch.allclose(got, want, rtol=0, atol=0, equal_nan=True)


def test_sqrt_of_a_clamp_has_a_zero_gradient_where_clamped():
    """The distance idiom sqrt(clamp(d, min=0)): sqrt'(0) is inf, and the
    clamp's gradient where d < 0 is eager's 0, not 0 * inf = NaN."""
    def fn(a, b):
        d = (a * a).sum(1) - 2 * (a * b).sum(1) + (b * b).sum(1)
        return torch.sqrt(torch.clamp(d - 1.0, min=0.0)).sum()
    a = torch.tensor([[0.0, 0.0], [3.0, 4.0], [0.5, 0.25]])
    b = torch.tensor([[0.0, 0.5], [0.0, 0.0], [0.5, 0.25]])
    (want_a, want_b), (got_a, got_b) = (
        _grads(f, a, b) for f in (fn, stax.compile(fn)))
    assert not got_a.isnan().any() and not got_b.isnan().any()
    assert torch.equal(want_a, got_a) and torch.equal(want_b, got_b)


def _grads(f, *inputs):
    xs = [x.clone().requires_grad_() for x in inputs]
    return torch.autograd.grad(f(*xs), xs)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64, torch.bfloat16])
@pytest.mark.parametrize("fn", [F.hardsigmoid, F.hardswish])
def test_hard_activations_have_eagers_gradient_bit_for_bit(fn, dtype):
    """hardsigmoid/hardswish values and gradients are eager's bit for bit:
    the backward kernels multiply the gradient by one slope (1/6 rounded to
    float32, also in float64; x / 3 + 1/2), where the derivative of the
    clamp formula divided by 6 or summed a product's two terms, and
    bfloat16 rounds once from float32. x = 3 is left out for hardswish:
    eager's own vector and scalar loops disagree there. Some cotangents
    at saturated inputs (|x| >= 3) are infinite or NaN: where eager's
    kernel selects 0 the gradient is 0 (NaN before), where it passes the
    cotangent it is inf or NaN. (Inside (-3, 3) hardswish's second
    derivative term makes an infinite cotangent's gradient NaN, not
    eager's inf.)"""
    g = torch.Generator().manual_seed(5)
    x = torch.cat([torch.randn(4096, generator=g) * 4, _KINKS, torch.tensor(
        [float("nan"), -float("inf"), float("inf")])]).to(dtype)
    if fn is F.hardswish:
        x = x[x != 3]
    cot = torch.randn(x.shape, generator=g).to(dtype)
    saturated = x.float().abs() >= 3
    cot[saturated & (torch.arange(x.numel()) % 3 == 0)] = float("inf")
    cot[saturated & (torch.arange(x.numel()) % 3 == 1)] = float("nan")
    results = []
    for f in (fn, stax.compile(fn)):
        xs = x.clone().requires_grad_()
        y = f(xs)
        results.append((y.detach(), *torch.autograd.grad(y, xs, cot)))
    for want, got in zip(*results):
        assert torch.equal(want.isnan(), got.isnan())
        assert torch.equal(want.nan_to_num(), got.nan_to_num())


def _eager_and_compiled(fn, *inputs):
    """(value, gradient of value.sum() for each input) of `fn` in eager
    and compiled, each on fresh copies of `inputs` that require grad."""
    results = []
    for f in (fn, stax.compile(fn)):
        xs = [x.clone().requires_grad_() for x in inputs]
        y = f(*xs)
        results.append((y.detach(), *torch.autograd.grad(y.sum(), xs)))
    return results


@pytest.mark.parametrize("fn", [torch.xlogy, torch.special.xlog1py],
                         ids=["xlogy", "xlog1py"])
def test_xlogy_gradient_of_a_zero_factor_is_eagers(fn):
    """xlogy(x, y) is 0 where x is 0, and eager's gradient of x there is
    log(y), or 0 where that is not finite (y <= 0): a KL divergence or
    entropy with exact zeros in the weights. Through a where, 0 * log(0)
    made it NaN (log1p(-1) for xlog1py); log now reads a safe value there.
    Values and gradients, float64, wherever eager's are finite, and NaN
    where they are."""
    x0 = torch.tensor([0.0, 0.0, 0.0, 0.0, 2.0, 3.0, 0.0, float("nan"), 1.5,
                       -2.0, 0.0], dtype=torch.float64)
    y0 = torch.tensor([0.0, -1.0, -3.0, 0.5, 0.5, 2.0, float("nan"), 1.0, 4.0,
                       -0.5, float("-inf")], dtype=torch.float64)
    (want, gxw, gyw), (got, gx, gy) = _eager_and_compiled(fn, x0, y0)
    assert torch.allclose(got, want, rtol=2 * U64, atol=0, equal_nan=True)
    assert torch.allclose(gx, gxw, rtol=2 * U64, atol=0, equal_nan=True)
    finite = gyw.isfinite()
    assert torch.allclose(gy[finite], gyw[finite], rtol=2 * U64, atol=0)
    # Signed zeros: eager's 0 for x = -0 is +0, and -5 * log(1) is -0.
    x, y = torch.tensor([-0.0, -5.0, 0.0]), torch.tensor([2.0, 1.0, 0.0])
    assert torch.equal(stax.compile(fn)(x, y).signbit(), fn(x, y).signbit())


def test_hypot_and_division_gradients_do_not_overflow_early():
    """hypot(3e30, 4e30) is 5e30 in float32 (eager's std::hypot), not the
    inf of sqrt(a^2 + b^2): where a square overflows, or underflows below
    the smallest normal, the decomposition rescales by the larger
    magnitude (within 1 ulp of eager there, and elsewhere). Its gradient
    runs through a / b, whose derivative in b is now eager's
    -(a / b) / b: a / b^2 overflowed to inf / inf = NaN."""
    a = torch.tensor([3e30, 3e-30, 3.0, -5e-20, 1e38, 0.0, 1e30, 2.5])
    b = torch.tensor([4e30, 4e-30, 4.0, 1e-20, 1e38, 0.0, 2e30, -1.5])
    want = torch.hypot(a, b)
    got = stax.compile(torch.hypot)(a, b)
    assert torch.allclose(got, want, rtol=2 * U, atol=0, equal_nan=True)
    x, y = a[-3:].clone().requires_grad_(), b[-3:].clone().requires_grad_()
    xe, ye = a[-3:].clone().requires_grad_(), b[-3:].clone().requires_grad_()
    g = torch.autograd.grad(stax.compile(torch.hypot)(x, y).sum(), (x, y))
    ge = torch.autograd.grad(torch.hypot(xe, ye).sum(), (xe, ye))
    for u, v in zip(g, ge):
        assert torch.allclose(u, v, rtol=4 * U, atol=0, equal_nan=True)
    # The quotient's own gradient, float32: eager's bits.
    p, q = torch.tensor([1e30, 3.0]), torch.tensor([2e30, 7.0])
    q.requires_grad_()
    (gq,) = torch.autograd.grad(stax.compile(torch.div)(p, q).sum(), q)
    qe = q.detach().clone().requires_grad_()
    assert torch.equal(gq, torch.autograd.grad(torch.div(p, qe).sum(), qe)[0])


@pytest.mark.parametrize("alpha", [0.5, 1.0, 3.0])
def test_celu_is_elu_with_eagers_gradient(alpha):
    """celu(x, a) is ATen's elu(x, a, 1, 1 / a), also where the negative
    branch's expm1(x / a) overflows (x = 100, a = 0.5: the reference
    decomposition's gradient was NaN). exp is approximated (<= 2 ulp) and
    x / a rounds once more (1 / 3 is inexact), so within 8 ulp of eager;
    exact where exp is not used."""
    x0 = torch.tensor([-100.0, -1.0, -0.0, 0.0, 1e-3, 1.0, 60.0, 100.0])
    results = _eager_and_compiled(lambda x: F.celu(x, alpha), x0)
    for want, got in zip(results[0], results[1]):
        assert torch.allclose(got, want, rtol=8 * U, atol=0)
        assert torch.equal(got[x0 >= 0], want[x0 >= 0])


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64], ids=str)
@pytest.mark.parametrize("reduction", ["none", "mean", "sum"])
def test_binary_cross_entropy_of_saturated_predictions_has_eagers_gradient(
        dtype, reduction):
    """A sigmoid of a logit above 17 is exactly 1.0 in float32, and
    BCELoss on it had a NaN gradient (the formula's 1 / x behind a clamp);
    eager's is (x - t) / max((1 - x) x, 1e-12): 0 where x equals t, huge
    but finite elsewhere. Values and x's gradient now match eager's at
    0, 1, next to them (where eager's 1e-12 clamps) and inside; t's
    gradient too, except at x = 0 or 1 where eager's is infinite."""
    x0 = torch.tensor([0.0, 1.0, 0.5, 1e-8, 1 - 1e-7, 0.3, 0.0, 1.0, 1e-13,
                       0.999999], dtype=dtype)
    t0 = torch.tensor([0.0, 1.0, 1.0, 1.0, 0.0, 0.0, 1.0, 0.0, 0.5, 0.2],
                      dtype=dtype)

    def bce(x, t):
        return F.binary_cross_entropy(x, t, reduction=reduction)

    def inner_of(x):     # where eager's clamp does not act
        return (1 - x) * x >= 1e-12
    (want, gxw, gtw), (got, gx, gt) = _eager_and_compiled(bce, x0, t0)
    # Inside, eager computes (x - t) / ((1 - x) x) and the decomposition
    # the derivative of its terms: a few roundings each.
    u = torch.finfo(dtype).eps
    assert torch.allclose(got, want, rtol=16 * u, atol=0)
    assert torch.allclose(gx, gxw, rtol=16 * u, atol=0)
    if reduction != "mean":  # eager scales before dividing by 1e-12
        assert torch.equal(gx[~inner_of(x0)], gxw[~inner_of(x0)])
    inner = inner_of(x0)
    assert torch.allclose(gt[inner], gtw[inner], rtol=16 * u, atol=0)
    assert gt.isfinite().all()


@pytest.mark.parametrize("reduction", ["none", "mean", "sum"])
def test_smooth_l1_with_beta_0_has_eagers_gradient_at_zero(reduction):
    """smooth_l1_loss(beta=0) is |x - y|, and eager's kernel takes its
    x - y <= -beta branch at a zero difference: gradient -1 there, where
    abs's subgradient is 0 (predictions equal to their targets, padding).
    Values (signs of zero included) and gradients bit for bit."""
    x0 = torch.tensor([0.0, 1.0, 2.0, -0.0, 3.0, -1.5])
    t = torch.tensor([0.0, 0.0, 2.0, 0.0, 5.0, -1.5])
    (want, gw), (got, g) = _eager_and_compiled(
        lambda x: F.smooth_l1_loss(x, t, reduction=reduction, beta=0.0), x0)
    assert torch.equal(got, want) and torch.equal(got.signbit(), want.signbit())
    assert torch.equal(g, gw)


def test_a_written_input_aliasing_another_runs_in_pytorch():
    """f(x, x) where f writes its first argument: eager's second argument
    sees the write; compiled code read it before copying back (a silent
    difference). Such a call runs in PyTorch with a warning; distinct or
    disjoint inputs keep the compiled plan."""
    def f(a, b):
        a.add_(1)
        return b * 2

    compiled = stax.compile(f)
    x = torch.zeros(3)
    with pytest.warns(UserWarning, match="shares memory with another input"):
        y = compiled(x, x)
    assert y.tolist() == [2.0, 2.0, 2.0] and x.tolist() == [1.0, 1.0, 1.0]
    base = torch.ones(4, 3)
    with pytest.warns(UserWarning, match="shares memory"):
        assert float(compiled(base[1], base).sum()) == 2 * (12 + 3)
    a, b = torch.zeros(3), torch.zeros(3)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert compiled(a, b).tolist() == [0.0, 0.0, 0.0]
        rows = torch.zeros(2, 3)
        assert compiled(rows[0], rows[1]).tolist() == [0.0, 0.0, 0.0]
    assert a.tolist() == [1.0, 1.0, 1.0] and rows[0].tolist() == [1.0, 1.0, 1.0]


_SCALE = 1.0


def test_changed_python_constants_trace_again():
    """A trace bakes in the Python constants the function reads: a user
    module's attributes (a temperature, a flag), globals and closure
    cells. Changing one selects (or builds) another plan; the old value
    was kept before, a silent difference from eager."""
    global _SCALE

    class Scaled(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.linear = torch.nn.Linear(3, 3)
            self.temperature = 1.0
            self.shift = False

        def forward(self, x):
            y = self.linear(x) / self.temperature
            return y + 1 if self.shift else y

    torch.manual_seed(0)
    model, x = Scaled(), torch.randn(2, 3)
    compiled = stax.compile(model)
    for temperature, shift in ((1.0, False), (2.0, False), (2.0, True), (1.0, False)):
        model.temperature, model.shift = temperature, shift
        assert torch.allclose(compiled(x), model(x), rtol=4 * U, atol=4 * U)
    assert compiled._count == 3                    # the last one was cached
    f = lambda x: x * _SCALE  # noqa: E731
    cf = stax.compile(f)
    for _SCALE in (1.0, 3.0):
        assert torch.equal(cf(x), x * _SCALE)
    _SCALE = 1.0

    def shifted_by(k):
        return lambda x: x + k
    assert torch.equal(stax.compile(shifted_by(5))(x), x + 5)


_MODEL = None
_MASK = None


def test_rebound_modules_and_tensors_trace_again():
    """A trace uses the objects the function reaches: a layer set in place
    of None or of another layer, a global or closure cell bound to another
    model or tensor. Each selects (or builds) another plan; the first
    trace's layers and parameters were used before, silently."""
    global _MODEL, _MASK

    class Head(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.body = torch.nn.Linear(2, 2)
            self.extra = None

        def forward(self, x):
            y = self.body(x)
            return y if self.extra is None else self.extra(y)

    torch.manual_seed(0)
    x = torch.randn(3, 2)
    model = Head()
    compiled = stax.compile(model)
    compiled(x)
    model.extra = torch.nn.Tanh()                  # None -> a layer
    assert torch.equal(compiled(x), model(x))
    model.body = torch.nn.Linear(2, 2)             # a layer -> another
    assert torch.equal(compiled(x), model(x))
    count = compiled._count                        # nothing new: cached
    assert torch.equal(compiled(x), model(x)) and compiled._count == count

    _MODEL, _MASK = torch.nn.Linear(2, 2), torch.ones(2)
    f = stax.compile(lambda x: _MODEL(x) * _MASK)
    f(x)
    _MODEL = torch.nn.Linear(2, 2)
    assert torch.equal(f(x), _MODEL(x) * _MASK)
    _MASK = torch.zeros(2)
    assert torch.equal(f(x), _MODEL(x) * _MASK)
    _MODEL = _MASK = None

    def holder():
        layer = torch.nn.Linear(2, 2)

        def rebind(new):
            nonlocal layer
            layer = new
        return (lambda x: layer(x)), rebind
    g, rebind = holder()
    compiled_g = stax.compile(g)
    compiled_g(x)
    other = torch.nn.Linear(2, 2)
    rebind(other)
    assert torch.equal(compiled_g(x), other(x))


_GAIN = 1.0


def test_module_containers_layer_settings_and_globals_trace_again():
    """What a module's forward reads besides its parameters: a global, a
    list or dict attribute written in place, a PyTorch layer's setting (a
    dropout rate annealed during training). The first trace's values were
    used before, silently."""
    global _GAIN

    class Configured(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.linear = torch.nn.Linear(2, 2)
            self.drop = torch.nn.Dropout(0.0)
            self.scales = [1.0, 2.0]
            self.config = {"act": "relu"}

        def forward(self, x):
            y = self.drop(self.linear(x)) * _GAIN * self.scales[0]
            return torch.relu(y) if self.config["act"] == "relu" else torch.tanh(y)

    torch.manual_seed(0)
    model, x = Configured(), torch.randn(3, 2)
    compiled = stax.compile(model)
    assert torch.equal(compiled(x), model(x))
    _GAIN = 2.0
    assert torch.equal(compiled(x), model(x))
    model.scales[0] = 5.0
    assert torch.equal(compiled(x), model(x))
    model.config["act"] = "tanh"
    assert torch.equal(compiled(x), model(x))
    model.drop.p = 1.0                             # drops every element now
    assert torch.equal(compiled(x), torch.zeros(3, 2))
    _GAIN = 1.0


def test_attributes_globals_and_defaults_that_appear_after_a_trace():
    """What the first trace found missing or read as a default: an
    attribute set on the module or a submodule afterwards (read by getattr
    with a default), a global defined afterwards (read in try/except
    NameError), a function's defaults set anew. The first trace's values
    were used, silently."""
    global _SCALE_DEFINED_LATER

    class Tempered(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.lin = torch.nn.Linear(3, 3)

        def forward(self, x):
            return (self.lin(x) * getattr(self, "temperature", 1.0)
                    * getattr(self.lin, "extra", 1.0))

    torch.manual_seed(0)
    model, x = Tempered(), torch.randn(2, 3)
    compiled = stax.compile(model)
    assert torch.equal(compiled(x), model(x))
    model.temperature = 10.0
    assert torch.equal(compiled(x), model(x))
    model.lin.extra = 3.0
    assert torch.equal(compiled(x), model(x))
    del model.temperature
    assert torch.equal(compiled(x), model(x))

    def scaled(x):
        try:
            s = _SCALE_DEFINED_LATER
        except NameError:
            s = 1.0
        return x * s

    def keyword(x, *, k=2.0):
        return x * k

    def positional(x, k=2.0):
        return x * k

    compiled = [stax.compile(f) for f in (scaled, keyword, positional)]
    for c in compiled:
        c(x)
    _SCALE_DEFINED_LATER = 5.0
    keyword.__kwdefaults__["k"] = 7.0
    positional.__defaults__ = (9.0,)
    try:
        for f, c in zip((scaled, keyword, positional), compiled):
            assert torch.equal(c(x), f(x))
        assert torch.equal(compiled[0](x), x * 5.0)
    finally:
        del _SCALE_DEFINED_LATER


_NS = types.SimpleNamespace(temperature=1.0)
_ORDERED = collections.OrderedDict(alpha=1.0)
_DEFAULTS = collections.defaultdict(float, alpha=1.0)
_HYPER = collections.namedtuple("Hyper", "scale")(1.0)
_SKIP = {"none"}


def test_configs_of_library_container_types_trace_again():
    """A hyper-parameter read from a SimpleNamespace, an OrderedDict, a
    defaultdict, a namedtuple or a set (global, or a module's attribute):
    these were keyed by identity, so a changed value kept the first
    trace's, silently."""
    global _HYPER
    lin = torch.nn.Linear(4, 2)
    x = torch.randn(3, 4)

    class Holder(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.lin = lin
            self.cfg = types.SimpleNamespace(scale=1.0)

        def forward(self, x):
            return self.lin(x) * self.cfg.scale

    holder = Holder()

    def rebind_hyper():
        global _HYPER
        _HYPER = _HYPER._replace(scale=3.0)
    cases = [
        (lambda x: lin(x) / _NS.temperature, lambda: setattr(_NS, "temperature", 0.25)),
        (lambda x: lin(x) * _ORDERED["alpha"], lambda: _ORDERED.__setitem__("alpha", 4.0)),
        (lambda x: lin(x) * _DEFAULTS["alpha"], lambda: _DEFAULTS.__setitem__("alpha", 4.0)),
        (lambda x: lin(x) * _HYPER.scale, rebind_hyper),
        (lambda x: lin(x) * (2.0 if "lin" in _SKIP else 1.0), lambda: _SKIP.add("lin")),
        (holder, lambda: setattr(holder.cfg, "scale", 4.0)),
    ]
    with torch.no_grad():
        for fn, change in cases:
            compiled = stax.compile(fn)
            assert torch.equal(compiled(x), fn(x))
            change()
            assert torch.equal(compiled(x), fn(x))


_MEAN = np.zeros(2, dtype=np.float32)
_LARGE = {f"k{i}": 1.0 for i in range(CONSTANT_CONTAINER_MAX + 1)}


def test_a_numpy_array_read_by_value_and_a_large_dict_warned_about():
    """A numpy array a trace bakes in, written in place, kept the first
    trace's values (keyed by identity); a dict too large to compare at
    each call still is, and says so once instead of silently."""
    lin = torch.nn.Linear(4, 2)
    x = torch.randn(3, 4)
    fn = lambda x: lin(x) - torch.from_numpy(_MEAN)
    compiled = stax.compile(fn)
    with torch.no_grad():
        assert torch.equal(compiled(x), fn(x))
        _MEAN[:] = 5.0
        assert torch.equal(compiled(x), fn(x))
        big = lambda x: lin(x) * _LARGE["k0"]
        with pytest.warns(UserWarning, match="'_LARGE', a dict of 65 entries"):
            assert torch.equal(stax.compile(big)(x), big(x))


def test_a_forward_that_binds_a_buffer_anew():
    """`self.ema = 0.9 * self.ema + ...` in a forward: eager's module holds
    the new value after each call. A compiled module's rebinding becomes a
    write to the buffer (the first trace's value was kept before), also
    in a function capturing the module; a new shape (a growing cache) runs
    in PyTorch, with a warning saying why."""
    class Ema(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.linear = torch.nn.Linear(2, 2)
            self.register_buffer("ema", torch.zeros(2))

        def forward(self, x):
            y = self.linear(x)
            self.ema = 0.9 * self.ema + 0.1 * y.mean(0).detach()
            return y - self.ema

    class Cache(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.register_buffer("seen", torch.zeros(0, 2))

        def forward(self, x):
            self.seen = torch.cat([self.seen, x])
            return self.seen.sum(0)

    torch.manual_seed(0)
    model, reference = Ema(), Ema()
    reference.load_state_dict(model.state_dict())
    compiled = stax.compile(model)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for _ in range(3):
            x = torch.randn(4, 2)
            assert torch.equal(compiled(x), reference(x))
    assert torch.equal(model.ema, reference.ema) and compiled._count == 1

    cache, reference = Cache(), Cache()
    compiled = stax.compile(cache)
    for rows in (2, 4):
        x = torch.randn(2, 2)
        with pytest.warns(UserWarning, match="runs the Cache module in "
                          "PyTorch: the forward binds 'seen' to a"):
            assert torch.equal(compiled(x), reference(x))
        assert cache.seen.shape == (rows, 2)

    # A function capturing the module: the trace without functionalization
    # (which refuses the write) is functionalized with the buffer as an
    # input, and the write becomes a copy-back.
    model, reference = Ema(), Ema()
    reference.load_state_dict(model.state_dict())
    captured = stax.compile(lambda x: model(x))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for _ in range(3):
            x = torch.randn(4, 2)
            assert torch.equal(captured(x), reference(x))
            assert torch.equal(model.ema, reference.ema)
    assert captured._count == 1


def test_a_captured_buffer_written_in_place_compiles():
    """`self.avg.mul_(0.9).add_(0.1 * y.mean(0))` in a module that a
    function captures: functionalization refuses the write of a captured
    tensor with a value computed from the arguments; the function is traced
    without it, then functionalized with the buffer as an input, and the
    write becomes a copy-back into the buffer (it ran in PyTorch)."""
    class RunningMean(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.linear = torch.nn.Linear(8, 8)
            self.register_buffer("avg", torch.zeros(8))

        def forward(self, x):
            y = self.linear(x)
            with torch.no_grad():
                self.avg.mul_(0.9).add_(0.1 * y.mean(0))
            return y - self.avg

    torch.manual_seed(0)
    model, reference = RunningMean(), RunningMean()
    reference.load_state_dict(model.state_dict())
    compiled = stax.compile(lambda x: model(x) * 2)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for _ in range(3):
            x = torch.randn(4, 8, requires_grad=True)
            got, want = compiled(x), reference(x) * 2
            got.sum().backward()
            (gx,) = torch.autograd.grad(want.sum(), x)
            # Means of 4 values of the 8-term products: reordered sums.
            bound = reorder_bound(8, float(x.abs().sum(1).max()) + 1)
            assert torch.allclose(got, want, rtol=0, atol=4 * bound)
            assert torch.allclose(model.avg, reference.avg, rtol=0, atol=bound)
            assert torch.allclose(x.grad, gx, rtol=0, atol=bound)
    assert not model.avg.requires_grad and compiled._count == 1


def test_results_without_gradient_history_in_eager_have_none():
    """A detached result, a comparison cast to float and an index have no
    grad_fn in eager, and none from the compiled function (they had one:
    a model keeping such a result for its next call chained the calls'
    graphs)."""
    f = lambda x: (x * 2, (x * 3).detach(), (x > 0).float(), x.argmax())
    x = torch.randn(4, requires_grad=True)
    got, want = stax.compile(f)(x), f(x)
    assert [t.requires_grad for t in got] == [t.requires_grad for t in want] \
        == [True, False, False, False]
    assert all(torch.equal(a, b) for a, b in zip(got, want))
    (g,) = torch.autograd.grad(got[0].sum(), x)
    assert torch.equal(g, torch.full((4,), 2.0))


def test_tensors_a_forward_binds_to_attributes_are_results():
    """`self.aux_loss = ...` (a mixture of experts' balancing loss, added
    to the loss outside the model), `self.last = ...` and a plain tensor
    attribute read and bound anew: after each call the module holds that
    call's tensors, with their gradients, as eager's does. (The trace's own
    tensors were left there: a stale FunctionalTensor, and backward through
    it failed.) A write-only tensor attribute is not part of the plan key."""
    class Gate(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.gate = torch.nn.Linear(8, 4)
            self.expert = torch.nn.Linear(8, 8)
            self.aux_loss = None
            self.state = torch.zeros(8)

        def forward(self, x):
            p = self.gate(x).softmax(-1)
            self.aux_loss = (p.mean(0) ** 2).sum() * 4
            self.last = p.detach()
            y = self.expert(x) * p[:, :1]
            self.state = 0.5 * self.state + y.mean(0).detach()
            return y

    torch.manual_seed(0)
    model, reference = Gate(), Gate()
    reference.load_state_dict(model.state_dict())
    compiled = stax.compile(model)
    for _ in range(3):
        x = torch.randn(5, 8)
        (compiled(x).sum() + model.aux_loss).backward()
        (reference(x).sum() + reference.aux_loss).backward()
        assert type(model.aux_loss) is torch.Tensor and model.aux_loss.grad_fn
        assert torch.allclose(model.aux_loss, reference.aux_loss, rtol=8 * U, atol=0)
        assert torch.allclose(model.last, reference.last, rtol=4 * U, atol=0)
        assert torch.allclose(model.state, reference.state, rtol=0, atol=1e-6)
        for a, b in zip(model.parameters(), reference.parameters()):
            assert torch.allclose(a.grad, b.grad, rtol=0, atol=1e-6)
    # `state` is read: an input of the plan, keyed by its signature;
    # `aux_loss` starts as None, which Python may have read: the first
    # tensor there traces once more, then neither key changes.
    assert compiled._count == 2

    class WriteOnly(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.linear = torch.nn.Linear(8, 8)
            self.aux_loss = None

        def forward(self, x):
            y = self.linear(x)
            self.aux_loss = y.square().mean()
            return y
    model = WriteOnly()
    compiled = stax.compile(model)
    for _ in range(3):
        x = torch.randn(5, 8)
        compiled(x)
        assert torch.allclose(model.aux_loss, model.linear(x).square().mean(),
                              rtol=64 * U, atol=0)
    # The first None may have been read by Python: the first tensor traces
    # once more; a tensor the trace does not take is known write-only.
    assert compiled._count == 2


def _scaled_under_no_grad(x, w):
    h = x * w
    with torch.no_grad():
        h.mul_(2)                   # eager: h's gradient is still x's
    return (h * x).sum()


def _clipped_input(x, w):
    with torch.no_grad():
        w.clamp_(-0.5, 0.5)         # weight clipping of an input
    return (torch.tanh(w) * x).sum()


def _incremented_under_no_grad(x, w):
    h = x * w
    with torch.no_grad():
        h += 1.0                    # rebinds h to the tensor add_ returns
        h[0] = 0.5
    return (h * h).sum()


def _detached_under_no_grad(x, w):
    h = x * w
    with torch.no_grad():
        h.detach_()                 # not a value write: h is a constant now
    return (h * w).sum()


def _written_through_a_view_under_no_grad(x, w):
    h = x * w
    with torch.no_grad():
        h[3:5].add_(h[0:2])         # a view's write reaches h; h keeps its graph
    return (h * h).sum()


def _constant_written_in_grad_mode(x, w):
    h = x * w
    with torch.no_grad():
        c = h.clone()               # a constant
    c[1:3].add_(h[0:2])             # in grad mode: c now depends on w
    return (c * c).sum()


def _written_through_detach_under_no_grad(x, w):
    h = x * w
    with torch.no_grad():
        h.detach().mul_(2)          # an alias of h: h's values change
        h.view(-1).add_(1.0)
    return (h * x).sum()


def _written_through_data(x, w):
    h = x * w
    h.data.clamp_(-0.3, 0.3)        # autograd does not see it, in grad mode
    with torch.no_grad():
        h.data.mul_(2)
    return (h * h.data).sum()       # h.data reads as a constant


@pytest.mark.parametrize("f", [_scaled_under_no_grad, _clipped_input,
                               _incremented_under_no_grad,
                               _detached_under_no_grad,
                               _written_through_a_view_under_no_grad,
                               _constant_written_in_grad_mode,
                               _written_through_detach_under_no_grad,
                               _written_through_data])
def test_a_write_under_no_grad_keeps_the_gradient(f):
    """A tensor written in place under no_grad: eager's autograd sees the
    new value and no new operation, so a later use's gradient reaches the
    tensor unchanged. The traced write was differentiated (a gradient
    twice eager's for h.mul_(2))."""
    torch.manual_seed(0)
    x = torch.randn(6)
    w = torch.randn(6, requires_grad=True)
    mine, ref = w.detach().clone().requires_grad_(), w.detach().clone().requires_grad_()
    with warnings.catch_warnings():
        warnings.simplefilter("error")      # compiled, not run in PyTorch
        got = stax.compile(f)(x, mine)
    want = f(x, ref)
    assert torch.allclose(got, want, rtol=8 * U, atol=0)
    (g,) = torch.autograd.grad(got, mine)
    (gw,) = torch.autograd.grad(want, ref)
    assert torch.allclose(g, gw, rtol=4 * U, atol=0)
    assert torch.equal(mine, ref)            # the write reached the input


def test_embedding_with_max_norm_compiles():
    """F.embedding(max_norm=) renormalizes the rows it looks up in the
    weight, in place under no_grad (it ran in PyTorch): the rows written
    back are eager's, and the weight's gradient is the lookup's alone."""
    import copy
    torch.manual_seed(0)
    emb = torch.nn.Embedding(10, 4, max_norm=1.0)
    with torch.no_grad():
        emb.weight.mul_(3)
    ref = copy.deepcopy(emb)
    compiled = stax.compile(emb)
    for idx in (torch.tensor([[1, 2, 2], [5, 1, 0]]), torch.tensor([[3, 4, 9]])):
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            y = compiled(idx)
        want = ref(idx)
        y.sum().backward()
        want.sum().backward()
        # Row norms: 4-term sums, then the scale in double (eager's loop).
        assert torch.allclose(y, want, rtol=8 * U, atol=0)
        assert torch.allclose(emb.weight, ref.weight, rtol=8 * U, atol=0)
        assert torch.equal(emb.weight.grad, ref.weight.grad)


@pytest.mark.parametrize("mode, per_sample", [("sum", False), ("mean", False),
                                              ("max", False), ("sum", True)])
def test_embedding_bag_with_max_norm_keeps_the_lookup_s_gradient(mode, per_sample):
    """F.embedding_bag(max_norm=) renormalizes the rows it looks up in the
    weight, in place under no_grad, as F.embedding (it ran in PyTorch, and
    the deferred write of the weight made the backward raise autograd's
    version error); the weight's gradient is the lookup's alone."""
    torch.manual_seed(0)
    bag = torch.nn.EmbeddingBag(11, 5, mode=mode, max_norm=1.0).double()
    with torch.no_grad():
        bag.weight.mul_(3)
    ref = copy.deepcopy(bag)
    compiled = stax.compile(bag)
    idx = torch.tensor([[2, 2, 0, 7], [1, 3, 3, 9], [4, 5, 6, 10]])
    weights = torch.rand(3, 4, dtype=torch.float64) if per_sample else None
    for _ in range(2):
        with warnings.catch_warnings():
            warnings.filterwarnings("error", message="stax.compile")
            y = compiled(idx, per_sample_weights=weights)
        want = ref(idx, per_sample_weights=weights)
        (y * torch.arange(15.0).view(3, 5)).sum().backward()
        (want * torch.arange(15.0).view(3, 5)).sum().backward()
        assert torch.allclose(y, want, rtol=1e-12, atol=0)
        assert torch.allclose(bag.weight, ref.weight, rtol=1e-12, atol=0)
        assert torch.allclose(bag.weight.grad, ref.weight.grad, rtol=1e-12, atol=1e-15)


def test_a_split_function_writing_a_parameter_it_reads_has_its_gradient():
    """Weight clipping under no_grad, then an op that runs in PyTorch: the
    split function's write of the parameter is deferred until every part
    has read it, and changed the tensor the compiled part had saved for
    its backward (autograd's version error). The parts read a clone."""
    class Clipped(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.w = torch.nn.Parameter(torch.randn(4, 4, dtype=torch.float64))

        def forward(self, x):
            with torch.no_grad():
                self.w.clamp_(-0.5, 0.5)
            return torch.linalg.det(torch.tanh(x @ self.w))

    torch.manual_seed(0)
    model = Clipped()
    ref = copy.deepcopy(model)
    compiled = stax.compile(model)
    x = torch.randn(4, 4, dtype=torch.float64)
    with pytest.warns(UserWarning, match="runs in PyTorch"):
        y = compiled(x)
    want = ref(x)
    y.backward()
    want.backward()
    assert torch.allclose(y, want, rtol=1e-12, atol=0)
    assert torch.equal(model.w, ref.w)
    assert torch.allclose(model.w.grad, ref.w.grad, rtol=1e-10, atol=1e-14)


@pytest.mark.parametrize("loss, x, target", [
    (torch.nn.MultiMarginLoss(), [[0., 1., 0., 2., -1.], [0.5, float("nan"), 3., 0., 1.]], [0, 2]),
    (torch.nn.MultiMarginLoss(p=2, weight=torch.arange(1., 6.).double()),
     [[0., 1., 0., 2., -1.], [0.5, 0.25, 3., 0., 1.]], [0, 2]),
    (torch.nn.MultiMarginLoss(margin=0.5, reduction="none"),
     [[0., 0.5, 0., 2., -0.5], [0.5, 0.25, 3., 0., 1.]], [0, 2]),
    (torch.nn.MultiLabelMarginLoss(), [[0., 1., 2.], [1., float("nan"), 0.]],
     [[1, -1, 0], [0, 2, -1]]),
], ids=["p1", "p2_weight", "margin_none", "multilabel"])
def test_margin_losses_add_only_positive_hinge_terms(loss, x, target):
    """Eager's multi-margin kernels add a term where z = margin - x[y] + x[i]
    is > 0: a term exactly at 0 contributes no gradient, and a NaN term
    nothing at all. The decompositions clamped z at 0, whose gradient at 0
    is 1 and which keeps NaN."""
    x = torch.tensor(x, dtype=torch.float64)
    target = torch.tensor(target)
    grads = []
    for f in (loss, stax.compile(loss)):
        xs = x.clone().requires_grad_()
        y = f(xs, target)
        y.sum().backward()
        grads.append((y.detach(), xs.grad))
    (want, gw), (got, gg) = grads
    assert torch.allclose(got, want, rtol=1e-14, atol=0, equal_nan=True)
    assert torch.allclose(gg, gw, rtol=1e-14, atol=0, equal_nan=True)


def test_under_functorch_transforms_the_function_runs_in_pytorch():
    """vmap(compiled) and functorch.grad(compiled): the arguments are
    functorch's wrapped tensors, which compiled code cannot read (tracing
    them failed with functorch's requires_grad_ error); the transform runs
    the function itself, with a warning."""
    from functorch import grad, vmap
    f = lambda a: torch.tanh(a).sum() * a
    compiled = stax.compile(f)
    x = torch.randn(4, 5)
    with pytest.warns(UserWarning, match="under a functorch transform"):
        assert torch.equal(vmap(compiled)(x), vmap(f)(x))
    with pytest.warns(UserWarning, match="under a functorch transform"):
        got = grad(lambda a: compiled(a).sum())(x[0])
    assert torch.equal(got, grad(lambda a: f(a).sum())(x[0]))


def test_a_compiled_module_deep_copies_and_pickles():
    """copy.deepcopy (a best checkpoint, an EMA teacher) and torch.save of
    a compiled module failed on the compiled code's ctypes handles: a copy
    is a compiled function of a copy of the module, with the same options,
    compiling on its first call."""
    import copy
    import io
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.GELU(),
                                torch.nn.Linear(8, 2))
    compiled = stax.compile(model, options="vector-width=4")
    x = torch.randn(3, 4)
    want = compiled(x)
    twin = copy.deepcopy(compiled)
    assert isinstance(twin, stax.CompiledFunction) and twin.fn is not model
    assert twin.options == "vector-width=4" and twin._count == 0
    assert torch.equal(twin(x), want)
    with torch.no_grad():
        twin[0].weight.add_(1.0)               # the copy's own parameters
    assert torch.equal(compiled(x), want)
    buffer = io.BytesIO()
    torch.save(compiled, buffer)
    buffer.seek(0)
    assert torch.equal(torch.load(buffer)(x), want)


def test_results_in_container_subclasses_are_this_calls():
    """A result in an OrderedDict subclass (a model output class, fields
    also kept as attributes) came back from every call as the trace's own
    object, holding the trace's tensors (a silent stale result); it is
    rebuilt with this call's tensors now. An object that holds tensors
    otherwise (a dataclass) runs in PyTorch, with a warning."""
    import collections
    import dataclasses

    class Output(collections.OrderedDict):
        def __setitem__(self, key, value):
            super().__setitem__(key, value)
            object.__setattr__(self, key, value)

    class Record:
        def __init__(self, value):
            self.value = value

    def as_output(x):
        out = Output()
        out["double"], out["total"] = x * 2, x.sum()
        return out

    compiled = stax.compile(as_output)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        compiled(torch.ones(3))
        x = torch.arange(3.0)
        got = compiled(x)
    assert type(got) is Output and list(got) == ["double", "total"]
    assert type(got.double) is torch.Tensor and torch.equal(got.double, x * 2)
    assert torch.equal(got["total"], x.sum())

    as_record = stax.compile(lambda x: Record(x * 2))
    with pytest.warns(UserWarning, match="returns a Record holding tensors"):
        assert torch.equal(as_record(x).value, x * 2)

    # A dataclass result is rebuilt from its fields (frozen ones too).
    @dataclasses.dataclass(frozen=True)
    class Result:
        value: torch.Tensor
        count: int

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = stax.compile(lambda x: Result(x * 2, 3))(x)
    assert type(got) is Result and got.count == 3
    assert torch.equal(got.value, x * 2)


def test_a_submodule_compiled_through_its_forward():
    """The compiled object is not an nn.Module, so a parent cannot hold it
    as a child; compiling the child's bound forward keeps the parameters
    registered in the parent (an optimizer over the parent's parameters
    sees them) and trains as eager does."""
    import copy
    torch.manual_seed(0)
    net = torch.nn.Sequential(
        torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.GELU(),
                            torch.nn.Linear(8, 4)),
        torch.nn.ReLU(), torch.nn.Linear(4, 1))
    ref = copy.deepcopy(net)
    net[0].forward = stax.compile(net[0].forward)
    opt = torch.optim.SGD(net.parameters(), lr=0.1)
    opt_ref = torch.optim.SGD(ref.parameters(), lr=0.1)
    for _ in range(3):
        x = torch.randn(5, 4)
        for model, o in ((net, opt), (ref, opt_ref)):
            o.zero_grad()
            model(x).pow(2).mean().backward()
            o.step()
    assert net[0].forward._count == 1
    for a, b in zip(net.parameters(), ref.parameters()):
        # Three steps of 8-term products and 5-row means.
        assert torch.allclose(a, b, rtol=0, atol=1e-6)


def test_first_calls_from_several_threads_share_one_plan():
    """Threads calling a compiled module for the first time at once: one
    builds the plan, the others wait for it (functorch's transforms keep
    global state: concurrent traces failed inside it, and the module then
    ran in PyTorch for good, with a warning per thread)."""
    import threading
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(16, 16), torch.nn.GELU(),
                                torch.nn.Linear(16, 1))
    compiled = stax.compile(model)
    xs = [torch.randn(8, 16, requires_grad=True) for _ in range(4)]
    grads = [None] * 4
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")

        def call(i):
            grads[i], = torch.autograd.grad(compiled(xs[i]).sum(), xs[i])
        threads = [threading.Thread(target=call, args=(i,)) for i in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    assert not [w for w in caught if "stax" in str(w.message)]
    assert compiled._count == 1
    for x, g in zip(xs, grads):
        expected, = torch.autograd.grad(model(x).sum(), x)
        assert torch.allclose(g, expected, rtol=1e-5, atol=1e-6)


def test_a_compiled_function_called_by_one_being_compiled_is_inlined():
    """stax.compile inside stax.compile: the inner function runs as Python
    in the outer trace (it fell back to PyTorch, the outer included)."""
    inner = stax.compile(lambda x: torch.sin(x) * 2)
    outer = stax.compile(lambda x: inner(x) + 1)
    x = torch.randn(5, requires_grad=True)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        y = outer(x)
        y.sum().backward()
    assert torch.allclose(y, torch.sin(x) * 2 + 1, rtol=U, atol=U)
    assert torch.allclose(x.grad, 2 * torch.cos(x), rtol=2 * U, atol=2 * U)
    assert inner._count == 0 and outer._count == 1


def test_channel_shuffle_compiles():
    """nn.ChannelShuffle (ShuffleNet) is a reshape and a transpose: eager's
    values bitwise (eager has no derivative for it; ours is the transpose's)."""
    x = torch.randn(2, 6, 3, 3)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = stax.compile(torch.nn.ChannelShuffle(3))(x)
    assert torch.equal(got, torch.nn.ChannelShuffle(3)(x))


def test_a_key_that_changes_every_call_stops_compiling(monkeypatch):
    """A constant the function reads that changes at every call (here a
    counter) would compile at every call and keep every plan: beyond
    MAX_PLANS, new signatures run in PyTorch, with one warning."""
    import importlib
    compile_module = importlib.import_module("stax.compile")
    monkeypatch.setattr(compile_module, "MAX_PLANS", 3)

    class Counter(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.calls = 0

        def forward(self, x):
            return x * self.calls

    model, x = Counter(), torch.ones(2)
    compiled = stax.compile(model)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for k in range(6):
            model.calls = k
            assert torch.equal(compiled(x), x * k)
    messages = [str(m.message) for m in caught if "plans built" in str(m.message)]
    assert len(messages) == 1 and compiled._count == 3


@pytest.mark.parametrize("var_shape,full,reduction",
                         [((4, 3), False, "mean"), ((4,), True, "sum"),
                          ((4, 1), False, "none")])
def test_gaussian_nll_loss_compiles(var_shape, full, reduction):
    """F.gaussian_nll_loss read whether a variance is negative in Python
    (the function ran in PyTorch): compiled now, with eager's clamp to eps
    (a zero variance here) passing the gradient straight through, and a
    negative variance a run-time error instead of eager's ValueError."""
    torch.manual_seed(0)
    x, t = torch.randn(4, 3, requires_grad=True), torch.randn(4, 3)
    v = torch.rand(*var_shape) * 2
    v[0] = 0.0
    v.requires_grad_()
    f = lambda x, t, v: F.gaussian_nll_loss(x, t, v, full=full,  # noqa: E731
                                            reduction=reduction)
    compiled = stax.compile(f)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = compiled(x, t, v)
    want = f(x, t, v)
    scale = float(want.abs().max())
    assert torch.all((got - want).abs() <= reorder_bound(12, 12 * scale))
    for g, gw in zip(torch.autograd.grad(got.sum(), (x, v)),
                     torch.autograd.grad(want.sum(), (x, v))):
        assert torch.all((g - gw).abs() <= reorder_bound(12, 12 * float(gw.abs().max())))
    with pytest.raises(StaxError, match="out of bounds"):
        compiled(x, t, (-v.detach() - 1).requires_grad_())


def test_overlapping_as_strided_scatter_gradient_goes_to_the_last_writer():
    """as_strided_scatter with overlapping strides writes some positions
    several times; the last write wins, so the overwritten elements of src
    have no gradient (central differences: 0). index_put gave every
    duplicate one. Values bitwise eager's."""
    x = torch.randn(16)
    src = torch.randn(2, 2, 2, 2, requires_grad=True)
    f = lambda x, s: torch.as_strided_scatter(x, s, (2, 2, 2, 2), (1, 1, 1, 1))  # noqa: E731
    got = stax.compile(f)(x, src)
    assert torch.equal(got, f(x, src))
    (g,) = torch.autograd.grad(got, src, torch.ones(16))
    # Offsets i+j+k+l; the last writer of each offset in row-major order.
    last = {}
    for n, idx in enumerate(np.ndindex(2, 2, 2, 2)):
        last[sum(idx)] = n
    want = torch.zeros(16)
    want[list(last.values())] = 1.0
    assert torch.equal(g.reshape(-1), want)


def test_bucketize_and_searchsorted_put_nan_last():
    # Eager's binary search steps past every boundary for a NaN (each
    # comparison is false): its bucket is len(boundaries). Counting the
    # boundaries below it gave 0.
    b = torch.tensor([-1.0, 0.0, 3.0])
    x = torch.tensor([float("nan"), 1.0, -2.0, float("inf"), -1.0, 3.0,
                      -float("inf"), 0.0])
    for right in (False, True):
        fns = [lambda a: torch.bucketize(a, b, right=right),
               lambda a: torch.searchsorted(b, a, right=right),
               lambda a: torch.searchsorted(b.expand(2, 3).contiguous(),
                                            a.reshape(2, 4), right=right)]
        for f in fns:
            want, got = f(x), stax.compile(f)(x)
            assert got.dtype == want.dtype and torch.equal(got, want)


@pytest.mark.parametrize("dtype", [torch.float64, torch.int64])
@pytest.mark.parametrize("shape", [(6, 8), (1, 5), (7,), (3, 1)])
def test_cov_and_corrcoef_compile(shape, dtype):
    """torch.cov and corrcoef check values with .item() inside eager's C++
    (make_fx failed; the function ran in PyTorch): without weights they are
    traced as eager's formula (sum / count, mm of the centred rows, true
    division by count - correction). Values within the mm's reordering
    bound, gradients too; one observation divides by zero as eager does."""
    torch.manual_seed(0)
    x = (torch.randn(*shape, dtype=torch.float64) * 3).to(dtype)
    if dtype.is_floating_point:
        x.requires_grad_()
    for f in (torch.cov, torch.corrcoef, lambda x: x.cov(correction=0)):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            got = stax.compile(f)(x)
        assert not [m for m in caught if "stax" in str(m.message)]
        want = f(x)
        n = x.shape[-1]
        bound = 4 * n * 2.0 ** -53 * float(x.detach().double().square().sum() + 1)
        assert got.dtype == want.dtype and got.shape == want.shape
        assert torch.allclose(got, want, rtol=1e-12, atol=bound, equal_nan=True)
        if x.requires_grad and n > 1:
            c = torch.randn(want.shape, dtype=want.dtype)
            assert torch.allclose(torch.autograd.grad(got, x, c)[0],
                                  torch.autograd.grad(want, x, c)[0],
                                  rtol=1e-10, atol=bound)


@pytest.mark.parametrize("name", ["special_i1e", "special_i1", "special_i0e"])
def test_an_op_whose_reference_decomposition_is_a_prim_runs_as_itself(name):
    """PyTorch's reference decomposition of special_i1e is prims.bessel_i1e,
    which Stax does not map either and which has no autograd formula: the
    split-out op ran as that prim and backward raised "backwards not
    supported on prim". The op itself runs in PyTorch now, with eager's
    gradient."""
    op = getattr(torch.ops.aten, name).default
    x = torch.randn(6, dtype=torch.float64, requires_grad=True)
    f = lambda x: op(x * 2) + x  # noqa: E731
    with pytest.warns(UserWarning, match=f"aten.{name}.default"):
        got = stax.compile(f)(x)
    want = f(x)
    assert torch.equal(got, want)
    assert torch.equal(torch.autograd.grad(got.sum(), x)[0],
                       torch.autograd.grad(want.sum(), x)[0])


def test_compile_without_a_function_is_a_decorator_with_its_options(tmp_path):
    """`@stax.compile(debug_dir=...)`, as torch.compile(mode=...) is used;
    something that is not callable is a TypeError naming it."""
    @stax.compile(debug_dir=str(tmp_path), options="vector-width=1")
    def f(x):
        return (x * 2).sum(0)
    assert isinstance(f, stax.CompiledFunction)
    x = torch.randn(3, 4)
    assert torch.equal(f(x), (x * 2).sum(0))
    assert (tmp_path / "00-tp.mlir").exists()
    with pytest.raises(TypeError, match="expected a function or an nn.Module, got int"):
        stax.compile(3)


@pytest.mark.parametrize("nsp", [2, 3])
def test_adaptive_max_pool_ties_take_the_first_in_row_major_order(nsp):
    """With equal maxima in a window, eager's scan keeps the first in
    row-major order; the separable decomposition reduced the first axis
    first, which picks the first column holding the maximum (indices and
    the gradient, which goes to the index, differed). Integer-valued
    inputs make ties everywhere."""
    torch.manual_seed(0)
    shape, out = ((2, 3, 5, 7), (2, 3)) if nsp == 2 else ((1, 2, 4, 5, 6), (2, 2, 3))
    pool = getattr(F, f"adaptive_max_pool{nsp}d")
    f = lambda x: pool(x, out, return_indices=True)  # noqa: E731
    x = torch.randint(0, 3, shape).double().requires_grad_()
    (v, i), (vw, iw) = stax.compile(f)(x), f(x)
    assert torch.equal(v, vw) and torch.equal(i, iw)
    c = torch.randn(v.shape, dtype=torch.float64)
    assert torch.equal(torch.autograd.grad(v, x, c)[0],
                       torch.autograd.grad(vw, x, c)[0])


_MASKED_ROW_LOSSES = {
    "cross_entropy": lambda x, y, t, m: F.cross_entropy(x[m], t[m]),
    "cross_entropy_sum_ignore": lambda x, y, t, m: F.cross_entropy(
        x[m], t[m], ignore_index=2, reduction="sum"),
    "label_smoothing": lambda x, y, t, m: F.cross_entropy(
        x.flatten(0, 1)[m.flatten()], t.flatten()[m.flatten()],
        label_smoothing=0.1),
    "mse": lambda x, y, t, m: F.mse_loss(x[m], y[m]),
    "l1_by_hand": lambda x, y, t, m: (x[m] - y[m]).abs().mean(),
    "bce_logits": lambda x, y, t, m: F.binary_cross_entropy_with_logits(
        x[m], torch.sigmoid(y[m])),
    "accuracy_and_nll_of_log": lambda x, y, t, m: (
        (x[m].argmax(-1) == t[m]).double().mean()
        + F.nll_loss(torch.log(torch.softmax(x[m], -1)), t[m])),
    "row_sums": lambda x, y, t, m: (x[m] * y[m]).sum(0).sum()
    + (1 / (y[m].square() + 1)).sum(),
}


@pytest.mark.parametrize("name", sorted(_MASKED_ROW_LOSSES))
def test_masked_row_losses_compile(name):
    """A loss of rows a boolean mask selects (F.cross_entropy(logits[m],
    t[m]), masked MSE, BCE, accuracy) is computed on every row, the
    unselected ones set to 0 at the selection and left out of the sums
    (nll_loss: given ignore_index): nothing runs in PyTorch, whatever the
    mask selects (several, all, none). Unselected rows hold NaN and inf,
    which must not reach values or gradients. float64; the sums are
    reordered (every term is below 50 for these inputs: bound 2 n eps of
    n * 50), so values and gradients are within that bound."""
    fn = _MASKED_ROW_LOSSES[name]
    g = torch.Generator().manual_seed(1)
    x = torch.randn(3, 4, 5, generator=g, dtype=torch.float64)
    y = torch.randn(3, 4, 5, generator=g, dtype=torch.float64)
    t = torch.randint(0, 5, (3, 4), generator=g)
    compiled = stax.compile(fn)
    for m in (torch.rand(3, 4, generator=g) > 0.5,
              torch.ones(3, 4, dtype=torch.bool),
              torch.zeros(3, 4, dtype=torch.bool)):
        bad = ~m
        xs = x.clone()
        xs[bad] = float("nan")
        xs[bad.nonzero()[:1].unbind(1)] = float("inf")
        a, b = xs.clone().requires_grad_(), xs.clone().requires_grad_()
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            got = compiled(a, y, t, m)
        want = fn(b, y, t, m)
        n = x.numel()
        bound = 2 * n * 2.0 ** -53 * n * 50
        assert got.dtype == want.dtype
        assert torch.allclose(got, want, rtol=0, atol=bound, equal_nan=True), name
        if want.requires_grad:
            ga = torch.autograd.grad(got, a)[0]
            gb = torch.autograd.grad(want, b)[0]
            assert torch.equal(ga[bad], torch.zeros_like(ga[bad]))
            assert torch.allclose(ga, gb, rtol=0, atol=bound, equal_nan=True), name
    assert len(compiled._plans) == 1


def test_a_masked_head_with_parameters_compiles():
    """fairseq's masked LM projects only the masked positions:
    F.cross_entropy(F.linear(h[m], W, b), t[m]). The linear layer runs on
    every row with its row operand and result masked again (where), so
    that W's and b's gradients receive nothing from unselected rows, even
    where those hold NaN. float64; the loss and the gradients within the
    reordering bound of the sums (terms below 50)."""
    def head(h, t, m, w, b, scale):
        return F.cross_entropy(F.linear(h[m], w, b) * scale, t[m]) \
            + (h[m] * b[:4]).square().mean()
    g = torch.Generator().manual_seed(2)
    compiled = stax.compile(head)
    for m in (torch.rand(3, 4, generator=g) > 0.5,
              torch.zeros(3, 4, dtype=torch.bool)):
        h = torch.randn(3, 4, 4, generator=g, dtype=torch.float64)
        h[~m] = float("nan")
        t = torch.randint(0, 5, (3, 4), generator=g)
        params = [torch.randn(5, 4, generator=g, dtype=torch.float64),
                  torch.randn(5, generator=g, dtype=torch.float64),
                  torch.tensor(0.7, dtype=torch.float64)]
        a = [x.clone().requires_grad_() for x in [h] + params]
        b = [x.clone().requires_grad_() for x in [h] + params]
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            got = compiled(a[0], t, m, *a[1:])
        want = head(b[0], t, m, *b[1:])
        bound = 2 * 60 * 2.0 ** -53 * 60 * 50
        assert torch.allclose(got, want, rtol=0, atol=bound, equal_nan=True)
        for ga, gb in zip(torch.autograd.grad(got, a), torch.autograd.grad(want, b)):
            assert torch.allclose(ga, gb, rtol=0, atol=bound, equal_nan=True)
            assert not ga.isnan().any()
    assert len(compiled._plans) == 1


def test_masked_select_reductions_compile():
    """torch.masked_select(loss, mask).mean() is x[mask] with a mask of
    x's own shape: the same rewrite (values within the reordering bound,
    gradients bit for bit). A mask that broadcasts still runs in
    PyTorch."""
    def f(x, m):
        return torch.masked_select(x, m).mean() + x.masked_select(m).square().sum()
    g = torch.Generator().manual_seed(4)
    compiled = stax.compile(f)
    for m in (torch.rand(3, 4, generator=g) > 0.5,
              torch.zeros(3, 4, dtype=torch.bool)):
        x = torch.randn(3, 4, generator=g, dtype=torch.float64)
        a, b = x.clone().requires_grad_(), x.clone().requires_grad_()
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            got = compiled(a, m)
        want = f(b, m)
        bound = 2 * 12 * 2.0 ** -53 * float(x.square().sum() + x.abs().sum())
        assert torch.allclose(got, want, rtol=0, atol=bound, equal_nan=True)
        assert torch.equal(torch.autograd.grad(got, a)[0],
                           torch.autograd.grad(want, b)[0])
    x, m = torch.randn(3, 4), torch.rand(4) > 0.5
    with pytest.warns(UserWarning, match="aten.masked_select"):
        got = stax.compile(lambda x, m: torch.masked_select(x, m).sum())(x, m)
    assert torch.equal(got, torch.masked_select(x, m).sum())


def test_a_large_sparse_masked_head_stays_in_pytorch():
    """After the rewrite a product with a weight runs on every row: a
    vocabulary projection of the 15 % of tokens a masked LM selects would
    cost 6.7 times eager's product, so such a head (large, and the traced
    mask selecting under half the rows) keeps the data-dependent split.
    Dense masks and small heads compile (test_a_masked_head_with_
    parameters_compiles)."""
    def head(h, t, m, w, b):
        return F.cross_entropy(F.linear(h[m], w, b), t[m])
    g = torch.Generator().manual_seed(5)
    h = torch.randn(4, 64, 64, generator=g)
    t = torch.randint(0, 1000, (4, 64), generator=g)
    w, b = torch.randn(1000, 64, generator=g), torch.randn(1000, generator=g)
    sparse = torch.rand(4, 64, generator=g) < 0.15
    with pytest.warns(UserWarning, match="aten.index.Tensor"):
        got = stax.compile(head)(h, t, sparse, w, b)
    # Eager's own code on both sides of the split: the head's mean of
    # 1000-term log-sum-exps, each term computed from 64-term products.
    assert abs(float(got - head(h, t, sparse, w, b))) <= reorder_bound(
        1000, 4 * float(got.abs()))
    dense = torch.rand(4, 64, generator=g) < 0.7
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = stax.compile(head)(h, t, dense, w, b)
    assert abs(float(got - head(h, t, dense, w, b))) <= reorder_bound(
        1000, 4 * float(got.abs()))


@pytest.mark.parametrize("cols", [2, 3, 5, 8, 10, 15])
def test_narrow_column_sums_over_interleaved_rows(cols):
    """A column sum of C < 16 f32 columns over contiguous rows splits into
    R = 16 / gcd(16, C) interleaved partial rows (partial j sums rows j,
    j + R, ...: whole vectors), then adds the R partials and the rows left
    over (4099 rows leave some for every R). Any order of the additions
    errs by at most (n - 1) u times the sum of the magnitudes (Higham 4.2);
    a row taken twice or missed would be off by a whole term. Integer sums
    are exact: bit for bit."""
    g = torch.Generator().manual_seed(cols)
    rows = 4099
    x = torch.rand(rows, cols, generator=g)
    y = torch.rand(rows, cols, generator=g)
    fn = lambda a, b: (a * b).sum(0)  # noqa: E731
    got = stax.compile(fn)(x, y).double()
    terms = x.double() * y.double()
    want = terms.sum(0)
    bound = rows * U * terms.abs().sum(0)
    assert ((got - want).abs() <= bound).all()
    d = x.to(torch.float64)
    got = stax.compile(lambda a: a.sum(0))(d)
    err = (got - d.sum(0)).abs()
    # both sums err: twice the bound
    assert (err <= 2 * rows * 2.0 ** -53 * d.abs().sum(0)).all()
    n = torch.randint(-1000, 1000, (rows, cols), generator=g, dtype=torch.int32)
    assert torch.equal(stax.compile(lambda a: a.sum(0))(n), n.sum(0))


def test_asinh_at_zero_has_eagers_derivatives_and_sign():
    """asinh through |x| had derivative 0 at 0 (abs's) and NaN once the
    large branch's log(0), left unselected by where, met its zero
    cotangent; eager's is 1 / sqrt(1 + x^2) = 1. Its value at -0 is -0.
    First and second derivatives (float64) are eager's near 0, both signs
    of the large branch and across its threshold 2^28."""
    x = torch.tensor([0.0, -0.0, 1e-300, -1e-300, -2.0, 0.3, 3e9, -3e9,
                      2.0 ** 28, -(2.0 ** 28) * 1.5], dtype=torch.float64)
    got = stax.compile(torch.asinh)(x)
    want = torch.asinh(x)
    assert torch.equal(torch.signbit(got), torch.signbit(want))
    torch.testing.assert_close(got, want, rtol=4 * 2.0 ** -53, atol=0)
    derivs = []
    for f in (stax.compile(torch.asinh), torch.asinh):
        xs = x.clone().requires_grad_()
        (g,) = torch.autograd.grad(f(xs).sum(), xs, create_graph=True)
        (g2,) = torch.autograd.grad(g.sum(), xs)
        derivs.append((g, g2))
    for got, want in zip(*derivs):
        torch.testing.assert_close(got, want, rtol=1e-14, atol=1e-300)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_inverse_hyperbolic_functions_at_their_edges(dtype):
    """acosh read t (t + 2), t = x - 1, which overflows (acosh(1e20) in
    float32 was inf, not 46.7) and is finite again below -1 (acosh(-1e30)
    was 0 or inf, not NaN); now log(2 x) takes over above 2^28 and x < 1
    is NaN. The derivative poles are eager's: acosh'(1) and atanh'(+-1)
    are infinite (NaN before: 0 * inf in the formulas' chain rule), and
    at an infinite x acosh', asinh' and atanh' are 0. Second derivatives
    (float64) are eager's away from the poles."""
    tol = dict(rtol=4 * torch.finfo(dtype).eps, atol=0)
    x = torch.tensor([1e20, 3e38, 1e10, 2.0 ** 28, 1.5, 1.0 + 2 ** -20, 1.0,
                      0.5, -5.0, -1e30, math.inf, -math.inf], dtype=dtype)
    torch.testing.assert_close(stax.compile(torch.acosh)(x), torch.acosh(x),
                               equal_nan=True, **tol)
    for fn, pts in ((torch.acosh, [1.0, 1.5, 1e10, math.inf, -math.inf]),
                    (torch.asinh, [0.5, -3e9, math.inf, -math.inf]),
                    (torch.atanh, [1.0, -1.0, 0.5, -0.25, math.inf])):
        xs = torch.tensor(pts, dtype=dtype)
        cot = torch.linspace(0.5, 1.5, len(pts), dtype=dtype)
        (got,), (want,) = (_grad_with(f, xs, cot) for f in (stax.compile(fn), fn))
        torch.testing.assert_close(got, want, equal_nan=True, **tol)
    x = torch.tensor([1.5, 3.0, 1e10], dtype=torch.float64)
    for fn, xs in ((torch.acosh, x), (torch.atanh, 1 / x - 0.1)):
        second = []
        for f in (stax.compile(fn), fn):
            v = xs.clone().requires_grad_()
            (g,) = torch.autograd.grad(f(v).sum(), v, create_graph=True)
            second.append(torch.autograd.grad(g.sum(), v)[0])
        torch.testing.assert_close(*second, rtol=1e-13, atol=0)


def _grad_with(f, x, cot):
    xs = x.clone().requires_grad_()
    return torch.autograd.grad(f(xs), xs, cot)


@pytest.mark.parametrize("fn", [
    lambda x, lo, hi: torch.clamp(x, lo, hi),
    lambda x, lo, hi: torch.clamp_min(x, lo),
    lambda x, lo, hi: torch.clamp_max(x, hi),
    lambda x, lo, hi: torch.clamp(x, max=hi),
], ids=["clamp", "clamp_min", "clamp_max", "clamp_only_max"])
def test_clamp_with_tensor_bounds_has_eagers_gradients(fn):
    """Tensor-bound clamps: values and the gradients of x and both bounds
    are eager's at NaNs (0 for everyone; PyTorch's decomposition passed
    x's), at ties with a bound and where min > max (max wins)."""
    nan = math.nan
    x = torch.tensor([0.5, -2.0, 3.0, nan, 1.0, 0.0, 2.0, -1.0, 0.7], dtype=torch.float64)
    lo = torch.tensor([0.0, 0.0, 0.0, 0.0, nan, 0.0, 3.0, 1.0, 0.7], dtype=torch.float64)
    hi = torch.tensor([1.0, 1.0, 1.0, 1.0, 2.0, 0.0, 1.0, 1.0, nan], dtype=torch.float64)
    results = []
    for f in (fn, stax.compile(fn)):
        xs = [t.clone().requires_grad_() for t in (x, lo, hi)]
        y = f(*xs)
        cot = torch.linspace(0.5, 1.5, y.numel(), dtype=y.dtype)
        grads = torch.autograd.grad(y, xs, cot, allow_unused=True)
        results.append([y.detach()] + [torch.zeros_like(x) if g is None else g
                                       for g in grads])
    for want, got in zip(*results):
        assert torch.equal(want.isnan(), got.isnan()), (want, got)
        assert torch.equal(want.nan_to_num(), got.nan_to_num()), (want, got)


@pytest.mark.parametrize("eps", [None, 1e-6, 0.25])
@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_logit_gradient_is_eagers_at_its_poles_and_outside(eps, dtype):
    """logit's gradient is eager's logit_backward: grad / (x (1 - x)),
    infinite at 0 and 1 (NaN before: the quotient's chain rule made
    0 * inf), NaN outside [0, 1] without eps (finite before), 0 outside
    [eps, 1 - eps] with it; values, including 1e-300 (whose second
    derivative overflows), as eager's. (With eps, eager's gradient at a
    NaN x is NaN in its scalar loop and 0 in its vector loop: left out.)"""
    x = torch.tensor([0.0, 1.0, 0.5, 0.1, 0.9, 1e-300, 1e-7, -0.5, 1.5]
                     + ([math.nan] if eps is None else []), dtype=dtype)
    fn = (lambda t: torch.logit(t)) if eps is None else (lambda t: torch.logit(t, eps))
    cot = torch.linspace(0.5, 1.5, x.numel(), dtype=dtype)
    results = []
    for f in (fn, stax.compile(fn)):
        xs = x.clone().requires_grad_()
        y = f(xs)
        results.append((y.detach(), torch.autograd.grad(y, xs, cot)[0]))
    tol = dict(rtol=4 * torch.finfo(dtype).eps, atol=0, equal_nan=True)
    for want, got in zip(*results):
        torch.testing.assert_close(got, want, **tol)
    x2 = torch.tensor([0.2, 0.5, 0.7], dtype=torch.float64)
    second = []
    for f in (fn, stax.compile(fn)):
        v = x2.clone().requires_grad_()
        (g,) = torch.autograd.grad(f(v).sum(), v, create_graph=True)
        second.append(torch.autograd.grad(g.sum(), v)[0])
    torch.testing.assert_close(*second, rtol=1e-13, atol=0)


def test_default_dtype_and_autocast_select_the_plan():
    """The default floating type and autocast change what a trace
    records (the dtype of torch.arange(3) * 0.1, the casts around a
    matmul): a call under other modes traces again, in both directions."""
    f = lambda x, w: (torch.arange(3) * 0.1 + x, x @ w)  # noqa: E731
    x, w = torch.randn(3, 3), torch.randn(3, 3)
    g = stax.compile(f)

    def check():
        (a, p), (b, q) = g(x, w), f(x, w)
        assert a.dtype == b.dtype and torch.equal(a, b)
        assert p.dtype == q.dtype
        # bfloat16 products: each side within a rounding of its own and
        # three bfloat16 additions (2^-8 each) of the exact dot products.
        bound = 4 * 2.0**-8 * (x.abs() @ w.abs())
        assert ((p.double() - q.double()).abs() <= bound).all()
    check()
    with torch.autocast("cpu", dtype=torch.bfloat16):
        check()
    check()
    old = torch.get_default_dtype()
    torch.set_default_dtype(torch.float64)
    try:
        check()
    finally:
        torch.set_default_dtype(old)
    check()


def test_ops_decomposed_into_autocast_ops_under_an_outer_autocast():
    """Under the caller's autocast, mv (into mm), addmv and
    conv_transpose2d (into bmm) stay float32 as in eager: the trace's ops
    were run again under autocast, which cast the inner mm to bfloat16, and
    the import did not verify (the function ran in PyTorch)."""
    torch.manual_seed(0)
    m, v = torch.randn(4, 5), torch.randn(5)
    x, w = torch.randn(2, 3, 5, 5), torch.randn(3, 4, 3, 3)
    cases = [(lambda m, v: torch.mv(m, v), (m, v), 5),
             (lambda m, v: torch.addmv(m[:, 0], m, v), (m, v), 6),
             (lambda x, w: F.conv_transpose2d(x, w), (x, w), 27)]
    with warnings.catch_warnings():
        warnings.filterwarnings("error", message=".*stax.compile.*")
        for fn, args, terms in cases:
            compiled = stax.compile(fn)
            with torch.autocast("cpu", dtype=torch.bfloat16):
                want, got = fn(*args), compiled(*args)
            assert got.dtype == want.dtype == torch.float32
            # Products summed in another order: a rounding per term.
            bound = 2 * terms * U * fn(*[a.abs() for a in args])
            assert ((got - want).abs() <= bound).all()


_DEFAULT_FLOAT_PROMOTIONS = {
    "arange/n": lambda i: torch.arange(3) / 3 + i,
    "int*0.1": lambda i: i * 0.1, "int+0.5": lambda i: i + 0.5,
    "0.5-int": lambda i: 0.5 - i, "int-0.5": lambda i: i - 0.5,
    "sin(int)": torch.sin, "exp(bool)": lambda i: torch.exp(i > 2),
    "int/int": lambda i: i / (i + 1), "int**0.5": lambda i: i ** 0.5,
    "2.**int": lambda i: 2.0 ** i, "atan2": lambda i: torch.atan2(i, i + 1),
    "remainder": lambda i: torch.remainder(i, 0.7),
    "sigmoid": torch.sigmoid, "where": lambda i: torch.where(i > 2, i, 0.5),
    "floor div": lambda i: torch.div(i, 2, rounding_mode="floor"),
}


@pytest.mark.parametrize("name", sorted(_DEFAULT_FLOAT_PROMOTIONS))
def test_integers_promote_to_a_float64_default_dtype(name):
    """Under torch.set_default_dtype(torch.float64), eager promotes integer
    and bool operands of arithmetic and of floating functions to float64
    (tp's inference says f32): compiled, without a fallback, the dtype and
    every value are eager's."""
    f = _DEFAULT_FLOAT_PROMOTIONS[name]
    i = torch.arange(1, 7).reshape(2, 3)
    old = torch.get_default_dtype()
    torch.set_default_dtype(torch.float64)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            got = stax.compile(f)(i)
        want = f(i)
    finally:
        torch.set_default_dtype(old)
    assert got.dtype == want.dtype and torch.equal(got, want)


def test_state_carried_in_attributes_from_call_to_call():
    """A module keeping state (truncated BPTT's hidden state) starts with
    None, which forward reads in Python (`if self.prev is None`), and binds
    a tensor: the next call must not reuse the plan traced for None (it
    silently did, the attribute having been taken out of the key as a
    result only)."""
    class Running(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.lin = torch.nn.Linear(3, 3)
            self.prev = None

        def forward(self, x):
            y = self.lin(x)
            out = y if self.prev is None else y + self.prev
            self.prev = y.detach()
            return out

    torch.manual_seed(0)
    eager = Running()
    compiled_module = copy.deepcopy(eager)
    f = stax.compile(compiled_module)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for _ in range(4):
            x = torch.randn(2, 3)
            want, got = eager(x), f(x)
            assert torch.allclose(got, want, rtol=1e-6, atol=1e-6)
            assert torch.allclose(compiled_module.prev, eager.prev,
                                  rtol=1e-6, atol=1e-6)


def test_float_arguments_key_plans_by_their_bits():
    """-0.0 and 0.0 compare (and hash) equal but 1 / x tells them apart:
    two plans. Every NaN is one plan (NaN != NaN traced at every call),
    and so is a captured constant's."""
    f = lambda x, a: x / a  # noqa: E731
    g = stax.compile(f)
    x = torch.tensor([1.0, -2.0])
    for a in (0.0, -0.0, 0.0, -0.0):
        assert torch.equal(g(x, a), f(x, a))
    assert len(g._plans) == 2
    for _ in range(3):
        assert torch.equal(g(x, float("nan")).isnan(), torch.ones(2, dtype=torch.bool))
    assert len(g._plans) == 3
    scale = -0.0
    h = stax.compile(lambda x: x / scale)
    assert torch.equal(h(x), x / -0.0)
    scale = 0.0
    assert torch.equal(h(x), x / 0.0)


def test_tensor_subclasses_and_dual_tensors_run_in_pytorch():
    """A subclass's __torch_function__ may change what each operator does
    (and eager returns its type); a forward-mode AD tangent would be
    dropped by compiled code. Both calls run in PyTorch with one warning
    naming the input, and give eager's results."""
    import torch.autograd.forward_ad as fwAD

    class Override(torch.Tensor):
        @classmethod
        def __torch_function__(cls, func, types, args=(), kwargs=None):
            if func is torch.Tensor.mul:
                return torch.full((3,), 42.0)
            return super().__torch_function__(func, types, args, kwargs or {})

    f = lambda x: x * 2  # noqa: E731
    g = stax.compile(f)
    assert torch.equal(g(torch.ones(3)), torch.full((3,), 2.0))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        got = g(torch.ones(3).as_subclass(Override))
    assert torch.equal(got, torch.full((3,), 42.0))
    assert any("input #0 is a Override (a torch.Tensor subclass)" in str(w.message)
               for w in caught)
    h = stax.compile(lambda x: x.exp() * 2)
    with fwAD.dual_level(), warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = h(fwAD.make_dual(torch.ones(3), torch.full((3,), 0.5)))
        tangent = fwAD.unpack_dual(out).tangent
    assert tangent is not None and torch.allclose(tangent, torch.full((3,), torch.e))
    assert any("carries a forward-mode AD tangent" in str(w.message) for w in caught)


def test_a_compiled_module_is_a_child_of_the_module_holding_it():
    """`self.body = stax.compile(nn.Linear(...))`: the parent registers it
    (parameters, optimizer, state_dict without a prefix, train/eval,
    apply, dtype conversion, deepcopy), it trains like the uncompiled
    model, and compiling the parent as a whole differentiates through it."""
    class Parent(torch.nn.Module):
        def __init__(self, compiled):
            super().__init__()
            body = torch.nn.Linear(3, 3)
            self.body = stax.compile(body) if compiled else body
            self.head = torch.nn.Linear(3, 1)

        def forward(self, x):
            return self.head(torch.relu(self.body(x)))

    torch.manual_seed(0)
    got, want = Parent(True), Parent(False)
    assert isinstance(got.body, stax.CompiledModule)
    assert sorted(got.state_dict()) == sorted(want.state_dict())
    want.load_state_dict(got.state_dict())
    assert len(list(got.parameters())) == 4
    opts = [torch.optim.SGD(m.parameters(), lr=0.1) for m in (got, want)]
    for _ in range(3):
        x = torch.randn(4, 3)
        for m, o in zip((got, want), opts):
            o.zero_grad()
            m(x).square().sum().backward()
            o.step()
        for a, b in zip(got.parameters(), want.parameters()):
            assert torch.allclose(a, b, rtol=0, atol=1e-6)
    whole = stax.compile(got)
    got.zero_grad()
    want.zero_grad()
    x = torch.randn(4, 3)
    whole(x).sum().backward()
    want(x).sum().backward()
    for a, b in zip(got.parameters(), want.parameters()):
        assert torch.allclose(a.grad, b.grad, rtol=0, atol=1e-6)
    got.eval()
    assert not got.body.training and not got.body.fn.training
    got.train()
    assert got.body.fn.training
    got.apply(lambda m: torch.nn.init.zeros_(m.weight)
              if isinstance(m, torch.nn.Linear) else None)
    assert not got.body.fn.weight.any()
    copied = copy.deepcopy(got)
    assert isinstance(copied.body, stax.CompiledModule)
    assert copied.body.fn is not got.body.fn
    assert got.double() is got and got.body.fn.weight.dtype == torch.float64


@pytest.mark.parametrize("name", ["median", "nanmedian"])
def test_median_of_a_whole_tensor_shares_the_gradient_among_ties(name):
    """Eager's median() and nanmedian() (no dim) send the gradient evenly
    to every element equal to the result (every NaN where it is NaN),
    not to the one a sort picks: values and gradients are eager's
    exactly."""
    f = lambda x: getattr(x, name)() * 3  # noqa: E731
    nan = float("nan")
    for t in (torch.tensor([[1., 3., 3., 2.], [5., 5., 5., 5.]]),
              torch.tensor([1., nan, 2., nan]), torch.tensor([1., nan, nan]),
              torch.tensor([2., 2., 2.], dtype=torch.float64), torch.randn(5, 7)):
        a, b = t.clone().requires_grad_(), t.clone().requires_grad_()
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            got = stax.compile(f)(a)
        want = f(b)
        assert torch.equal(got, want) or (got.isnan() and want.isnan())
        (ga,), (gb,) = torch.autograd.grad(got, a), torch.autograd.grad(want, b)
        assert torch.equal(ga, gb), (t, ga, gb)


def test_a_tensor_attribute_read_and_bound_anew_is_an_input():
    """A recurrent state held in a plain attribute (`self.h = h.detach()`)
    is read by every call and bound anew by it: the plan takes it as an
    input at each call (one plan, not a trace per call until the plan
    limit), and results, state and gradients stay eager's."""
    class Recurrent(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.lin = torch.nn.Linear(3, 4)
            self.out = torch.nn.Linear(4, 1)
            self.h = torch.zeros(2, 4)

        def forward(self, x):
            h = torch.tanh(self.lin(x) + self.h)
            self.h = h.detach()
            return self.out(h).sum()

    torch.manual_seed(0)
    eager = Recurrent()
    model = copy.deepcopy(eager)
    f = stax.compile(model)
    for _ in range(5):
        x = torch.randn(2, 3)
        got, want = f(x), eager(x)
        got.backward()
        want.backward()
        assert torch.allclose(got, want, rtol=1e-6, atol=1e-6)
        assert torch.allclose(model.h, eager.h, rtol=1e-6, atol=1e-6)
        for a, b in zip(model.parameters(), eager.parameters()):
            assert torch.allclose(a.grad, b.grad, rtol=1e-6, atol=1e-6)
    assert f._count == 1
    model.h = torch.zeros(3, 4)        # another signature: traced again
    x = torch.randn(3, 3)
    eager.h = torch.zeros(3, 4)
    assert torch.allclose(f(x), eager(x), rtol=1e-6, atol=1e-6)
    assert f._count == 2


def test_sparse_embeddings_keep_their_sparse_gradient():
    """nn.Embedding(sparse=True) and nn.EmbeddingBag(sparse=True) train
    with SparseAdam, which refuses dense gradients: their lookups run in
    PyTorch (a warning names them), and the gradients are eager's, sparse,
    the rest of the function's dense."""
    class Model(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.emb = torch.nn.Embedding(10, 3, sparse=True)
            self.bag = torch.nn.EmbeddingBag(10, 3, mode="sum", sparse=True)
            self.lin = torch.nn.Linear(3, 1)

        def forward(self, i):
            return self.lin(torch.tanh(self.emb(i).sum(1) + self.bag(i))).sum()

    torch.manual_seed(0)
    model = Model()
    i = torch.tensor([[1, 2, 2], [3, 4, 1]])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        stax.compile(model)(i).backward()
    got = [p.grad for p in model.parameters()]
    assert [g.layout for g in got[:2]] == [torch.sparse_coo] * 2
    for p in model.parameters():
        p.grad = None
    model(i).backward()
    for g, p in zip(got, model.parameters()):
        assert torch.allclose(g.to_dense(), p.grad.to_dense(), rtol=1e-6, atol=1e-7)
    torch.optim.SparseAdam(list(model.parameters())[:2]).step()


class _Scaler:
    def __init__(self):
        self.factor = 1.0

    def __call__(self, x):
        return x * self.factor

    def scale(self, x):
        return x * self.factor


class _Config:
    class Sub:
        v = 1.0

    def __init__(self):
        self.sub = _Config.Sub()
        self.sub.v = 1.0


_CONFIG = _Config()


def test_python_state_a_trace_reads_selects_the_plan():
    """What a trace bakes in from Python objects is part of the key: a
    callable object's attributes, a bound method's object's, a global
    config's nested attribute, a user module's private attribute, and the
    identity of a captured module's parameters (set anew, not written).
    Each change traces again and gives eager's values."""
    x = torch.arange(3.0)
    obj = _Scaler()
    by_call, by_method = stax.compile(obj), stax.compile(obj.scale)
    nested = stax.compile(lambda x: x * _CONFIG.sub.v)

    class Private(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self._k = 1.0

        def forward(self, x):
            return x * self._k

    private = Private()
    by_private = stax.compile(private)
    lin = torch.nn.Linear(3, 3)
    captured = stax.compile(lambda x: lin(x))
    for g in (by_call, by_method, nested, by_private, captured):
        g(x)
    obj.factor = 5.0
    _CONFIG.sub.v = 3.0
    private._k = 7.0
    with torch.no_grad():
        lin.weight = torch.nn.Parameter(torch.ones(3, 3))
    assert torch.equal(by_call(x), x * 5)
    assert torch.equal(by_method(x), x * 5)
    assert torch.equal(nested(x), x * 3)
    assert torch.equal(by_private(x), x * 7)
    assert torch.allclose(captured(x), lin(x), rtol=1e-6, atol=0)


def test_shapes_in_results_are_torch_sizes():
    """x.shape returned (alone or nested in a dict) comes back a torch.Size
    as in eager, not the tuple PyTorch's pytree rebuilds it as."""
    f = lambda x: (x + 1, x.shape, {"s": x[0].shape, "n": x.numel()})  # noqa: E731
    x = torch.ones(2, 3)
    got, want = stax.compile(f)(x), f(x)
    assert type(got[1]) is torch.Size and got[1] == want[1]
    assert type(got[2]["s"]) is torch.Size and got[2] == want[2]


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64, torch.bfloat16])
def test_atanh_is_accurate_near_minus_one(dtype):
    """atanh computed from 1 + x cancelled near -1 (2100 ulp at -0.99997 in
    float32): from |x| now, odd by its sign. Against float64 over [-1, 1]:
    float32 within 2 ulp (2^-23 relative: log1p and a quotient, 1 ulp
    each), float64 within 4 ulp (2^-52 x 2: the same three roundings and
    libmvec's log1p, 2 ulp), bfloat16 eager's bits (computed in float32,
    rounded once); signed zeros, +-inf at +-1 and NaN beyond."""
    x = torch.cat([torch.linspace(-1, 1, 20001, dtype=torch.float64),
                   torch.tensor([-0.999970018863678, -0.99999, 0.99999, -0.0,
                                 0.0, 1.5, float("nan")],
                                dtype=torch.float64)]).to(dtype)
    got = stax.compile(torch.atanh)(x)
    want = torch.atanh(x)
    assert torch.equal(got.isnan(), want.isnan())
    assert torch.equal(got.isinf() & (got > 0), want.isinf() & (want > 0))
    assert torch.equal(got.isinf() & (got < 0), want.isinf() & (want < 0))
    assert torch.equal(torch.signbit(got[x == 0]), torch.signbit(x[x == 0]))
    if dtype == torch.bfloat16:
        assert torch.equal(got[~got.isnan()], want[~want.isnan()])
        return
    ref = torch.atanh(x.double())
    fin = torch.isfinite(ref) & (ref != 0)
    rel = ((got.double() - ref).abs() / ref.abs())[fin]
    bound = 2 * 2.0 ** -23 if dtype == torch.float32 else 4 * 2.0 ** -52
    assert rel.max().item() <= bound


def test_frac_clamp_and_hypot_special_values_are_eagers():
    """frac(-0.0) is +0.0 (x - trunc(x)); a tensor clamp whose min exceeds
    its max keeps NaN as NaN (max elsewhere); hypot of an infinity and a
    NaN is +inf. Bitwise eager's, in vectors and tails (40 elements)."""
    inf, nan = float("inf"), float("nan")
    x = torch.tensor([-0.0, 0.0, -1.5, 2.25, 1e30, -7.0, nan, -3.0] * 5)
    cases = [
        (torch.frac, (x,)),
        (lambda x: torch.clamp(x, torch.full_like(x, 2.0), torch.full_like(x, -2.0)), (x,)),
        (torch.hypot, (torch.tensor([nan, inf, 3.0, -inf] * 10),
                       torch.tensor([inf, nan, 4.0, 2.0] * 10))),
    ]
    for f, args in cases:
        got, want = stax.compile(f)(*args), f(*args)
        assert torch.equal(got.isnan(), want.isnan())
        ok = ~want.isnan()
        assert torch.equal(got[ok], want[ok])
        assert torch.equal(torch.signbit(got[ok]), torch.signbit(want[ok]))


@pytest.mark.parametrize("dtype, divisor", [
    (torch.int8, 200), (torch.int8, -300), (torch.int16, 40000),
    (torch.int32, 2**31 + 10), (torch.uint8, 300), (torch.int8, 3)])
def test_integer_division_by_a_number_outside_the_dtype(dtype, divisor):
    """Eager converts an integer divisor to the tensor's dtype first (200
    is -56 in int8): floor and trunc division divide by that value (the
    floor's correction read the sign of 200), bitwise eager's."""
    x = torch.tensor([-128, -1, 1, 5, 100, -7, 127, 0] * 3).to(dtype)
    for mode in ("floor", "trunc"):
        f = lambda x: torch.div(x, divisor, rounding_mode=mode)  # noqa: E731
        assert torch.equal(stax.compile(f)(x), f(x))


@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16])
def test_half_norms_sum_their_powers_in_float32(dtype):
    """A float16 2-norm of 100000 ones is 316, though the sum of squares
    overflows float16: the powers are summed in float32 and the root
    rounded once (p = 2, 3), as the float32 norm rounded to the dtype."""
    for x in (torch.ones(100000, dtype=dtype), torch.randn(7, 9).to(dtype)):
        for p in (2, 3):
            f = lambda x: torch.linalg.vector_norm(x, p, dim=-1)  # noqa: E731
            want = torch.linalg.vector_norm(x.float(), p, dim=-1).to(dtype)
            assert torch.equal(stax.compile(f)(x), want)


def test_attributes_of_the_users_modules_select_the_plan(tmp_path, monkeypatch):
    """`config.SCALE` and `helpers.rope(x)` read the user's module: its
    attribute is watched like a global (a new value traces again), and a
    function reached through it is searched for the globals it reads (a
    table bound anew there traces again)."""
    (tmp_path / "stax_user_config.py").write_text(
        "import torch\n"
        "SCALE = 1.0\n"
        "TABLE = torch.arange(3.0)\n"
        "def rope(x):\n"
        "    return x * TABLE + SCALE\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    import importlib
    config = importlib.import_module("stax_user_config")
    f = lambda x: config.rope(x) * config.SCALE  # noqa: E731
    g = stax.compile(f)
    x = torch.ones(3)
    assert torch.equal(g(x), f(x))
    config.SCALE = 2.0
    assert torch.equal(g(x), f(x))
    config.TABLE = torch.full((3,), 5.0)
    assert torch.equal(g(x), f(x))


def test_softmaxes_of_a_0d_tensor():
    """softmax, log_softmax and softmin of a 0-d tensor (dims -1 and 0 name
    its one element): the decomposition read the extent of a dimension the
    tensor lacks, and stax.compile crashed."""
    fns = [lambda a: torch.softmax(a, -1), lambda a: torch.log_softmax(a, 0),
           lambda a: torch.nn.functional.softmin(a, 0)]
    with warnings.catch_warnings():
        warnings.filterwarnings("error", message="stax.compile")
        for fn in fns:
            x = torch.tensor(1.5, dtype=torch.float64, requires_grad=True)
            y = stax.compile(fn)(x)
            assert torch.equal(y, fn(x))
            g, = torch.autograd.grad(y, x)
            assert g == 0


def test_cat_skips_legacy_empty_tensors_and_layer_norm_of_nothing():
    """Two shapes eager accepts that fell back to PyTorch ("importer bug"):
    cat of a 1-D empty tensor beside 2-D ones (PyTorch skips it; the
    accumulator pattern `acc = torch.empty(0)`), and layer_norm over
    normalized dims or a batch of no elements (PyTorch's shape function
    while tracing disagrees with its kernel on the statistics' shape)."""
    a = torch.randn(3, 4, dtype=torch.float64, requires_grad=True)
    with warnings.catch_warnings():
        warnings.filterwarnings("error", message="stax.compile")
        for acc in (torch.empty(0), torch.empty(0, dtype=torch.int64)):
            for f in (lambda x, e: torch.cat([e, x]),
                      lambda x, e: torch.cat([x, e, x], -1)):
                want, got = f(a, acc), stax.compile(f)(a, acc)
                assert got.dtype == want.dtype and torch.equal(got, want)
                assert torch.equal(torch.autograd.grad(got.sum(), a)[0],
                                   torch.autograd.grad(want.sum(), a)[0])
        # An empty batch too (a data loader's last, empty slice).
        for shape, normalized in [((3, 0), (0,)), ((2, 0, 3), (0, 3)),
                                  ((0, 5), (5,)), ((2, 0, 4), (4,))]:
            x = torch.randn(*shape, requires_grad=True)
            w = torch.randn(*normalized, requires_grad=True)
            b = torch.randn(*normalized, requires_grad=True)

            def f(x, w, b):
                return torch.nn.functional.layer_norm(x, normalized, w, b)
            got = stax.compile(f)(x, w, b)
            assert got.shape == f(x, w, b).shape
            grads = torch.autograd.grad(got.sum(), (x, w, b))
            assert [g.shape for g in grads] == [x.shape, w.shape, b.shape]
