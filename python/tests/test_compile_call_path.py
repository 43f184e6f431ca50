"""The per-call path of stax.compile: what a cached call reads and keeps.

A cached call of a small model costs tens of microseconds of Python, so the
call path takes shortcuts: the values a forward saves for its backward live
in one block, a module's parameters are gathered without named_parameters(),
and whether compiled code can read the inputs is asked only when their
signature has no plan yet. These tests pin what each shortcut must keep.
"""

import gc
import importlib
import re
import warnings

import pytest
import torch
import torch.nn as nn

import stax
from stax import host_memory

compile_module = importlib.import_module("stax.compile")


def _saving(x, w1, w2):
    # Saves a float32 matrix, the argmax's int64 indices and a slice: three
    # values of two dtypes whose sizes are no multiple of the alignment.
    h = torch.tanh(x @ w1)
    idx = h.argmax(-1)
    return (w2[idx] * h[:, :4]).sum() + (h * h).sum()


def _saving_inputs(rows=5):
    g = torch.Generator().manual_seed(0)
    return (torch.randn(rows, 7, generator=g, requires_grad=True),
            torch.randn(7, 9, generator=g, requires_grad=True),
            torch.randn(9, 4, generator=g, requires_grad=True))


def _grads(f, args, **backward):
    for a in args:
        a.grad = None
    f(*args).backward(**backward)
    return [a.grad.clone() for a in args]


def test_saved_values_in_one_block_read_as_separate_tensors_would_be():
    """The backward reads each saved value at its offset in the block:
    bitwise the gradients of the same plan saving a tensor per value (the
    layout target=cuda uses)."""
    args = _saving_inputs()
    f = stax.compile(_saving)
    got = _grads(f, args)
    [plan] = f._plans.values()
    dtypes = {dt for _, dt in plan.saved.types}
    assert dtypes == {torch.float32, torch.int64}
    assert all(o % 64 == 0 for o in plan.saved.offsets)
    plan.saved, plan.out_meta = None, None     # a tensor per saved value
    want = _grads(f, args)
    assert all(torch.equal(a, b) for a, b in zip(got, want))


def test_a_second_backward_needs_retain_graph_as_in_eager():
    args = _saving_inputs()
    f = stax.compile(_saving)
    f(*args)  # build the plan
    for fn in (_saving, f):
        out = fn(*args)
        out.backward()
        with pytest.raises(RuntimeError, match="second time"):
            out.backward()
    once = _grads(f, args)
    for a in args:
        a.grad = None
    out = f(*args)
    out.backward(retain_graph=True)
    out.backward()
    assert all(torch.equal(a.grad, 2 * g) for a, g in zip(args, once))


def test_higher_derivatives_read_the_saved_values_as_tensors():
    """create_graph=True takes the saved values out of the block as views
    (_SavedBlock.tensors): the same first derivative, and the second one
    eager gives (float64: to reordering and a few roundings)."""
    x, w, _ = (a.detach().double().requires_grad_() for a in _saving_inputs())
    fn = lambda x, w: (torch.tanh(x @ w) ** 2).sum()
    f = stax.compile(fn)
    (gx,) = torch.autograd.grad(f(x, w), x, create_graph=True)
    (gx_plain,) = torch.autograd.grad(f(x, w), x)
    assert torch.equal(gx.detach(), gx_plain)
    (got,) = torch.autograd.grad(gx.sum(), w)
    (gx_eager,) = torch.autograd.grad(fn(x, w), x, create_graph=True)
    (want,) = torch.autograd.grad(gx_eager.sum(), w)
    assert _error(got, want) <= 1e-12


def _error(got, want) -> float:
    """Largest difference relative to the largest value (at least 1)."""
    return float((got - want).abs().max()) / max(1.0, float(want.abs().max()))


def test_a_large_block_comes_from_the_heap_and_returns_after_backward():
    gc.collect()
    host_memory.trim()
    args = _saving_inputs(rows=1 << 15)
    f = stax.compile(_saving)
    f(*args).backward()
    [plan] = f._plans.values()
    assert plan.saved.nbytes >= host_memory.MIN_BYTES
    gc.collect()
    host_memory.trim()
    out = f(*args)
    # The call's intermediates went back to the heap; the block is held.
    kept = host_memory.cached_bytes()
    out.backward()           # frees the saved values, as eager does
    assert host_memory.cached_bytes() >= kept + plan.saved.nbytes
    del out
    host_memory.trim()


class _Shared(nn.Module):
    """Tied weights, a None parameter, a non-persistent buffer and a
    submodule reached twice: what named_parameters() deduplicates."""

    def __init__(self):
        super().__init__()
        self.a = nn.Linear(3, 3)
        self.b = nn.Linear(3, 3, bias=False)
        self.b.weight = self.a.weight
        self.again = self.a
        self.norm = nn.BatchNorm1d(3)
        self.register_buffer("scale", torch.full((3,), 2.0), persistent=False)
        self.register_parameter("unused", None)

    def forward(self, x):
        return (self.norm(self.b(self.again(x))) * self.scale).sum()


def test_module_state_in_named_parameters_then_named_buffers_order():
    model = _Shared()
    f = stax.compile(model)
    names, tensors = f._state(names=True)
    want = list(model.named_parameters()) + list(model.named_buffers())
    assert names == [n for n, _ in want]
    assert len(tensors) == len(want)
    assert all(t is w for t, (_, w) in zip(tensors, want))


def test_a_parameter_set_anew_is_an_input_of_the_next_call():
    """_state reads each module's parameters at every call: a parameter set
    anew gets its gradient, and a new child its parameters' (float64: the
    gradients eager gives, to reordering)."""
    torch.manual_seed(0)
    model = _Shared().double()
    f = stax.compile(model)
    x = torch.randn(4, 3, dtype=torch.float64)
    f(x).backward()
    model.a.bias = nn.Parameter(torch.randn(3, dtype=torch.float64))
    model.norm = nn.BatchNorm1d(3).double()
    twin = _Shared().double()
    twin.load_state_dict(model.state_dict())
    model.zero_grad()
    f(x).backward()
    twin(x).backward()
    for (n, p), (_, q) in zip(model.named_parameters(), twin.named_parameters()):
        assert p.grad is not None and _error(p.grad, q.grad) <= 1e-12, n
    assert torch.equal(model.norm.running_mean, twin.norm.running_mean)


@pytest.mark.parametrize("make", [
    lambda x: x.to_sparse(),
    lambda x: torch.quantize_per_tensor(x, 0.5, 0, torch.qint8),
    lambda x: torch.empty(x.shape, device="meta"),
])
def test_an_unreadable_tensor_of_a_planned_signature_runs_in_pytorch(make):
    """Whether compiled code can read an input is asked when its signature
    has no plan: device, layout, dtype and inference flag are part of it, so
    a sparse, quantized or meta tensor of a shape already planned for still
    runs in PyTorch."""
    fn = lambda a: a.to_dense() * 2 if a.is_sparse else (
        a.dequantize() * 2 if a.is_quantized else a * 2)
    f = stax.compile(fn)
    x = torch.tensor([[0.0, 1.5], [-2.0, 0.0]])
    t = make(x)
    # A dense tensor of the same shape, strides and dtype has a plan.
    dense = torch.arange(4.0).as_strided(t.shape, t.stride())
    assert torch.equal(f(dense), fn(dense))
    with pytest.warns(UserWarning, match=re.escape("input #0")):
        got = f(t)
    want = fn(t)
    assert got.shape == want.shape and got.device == want.device
    if not t.is_meta:
        assert torch.equal(got, want)


def test_an_inference_tensor_of_a_planned_signature_runs_in_pytorch():
    f = stax.compile(lambda a: a * 2)
    x = torch.ones(3)
    f(x)
    with torch.inference_mode():
        t = torch.ones(3)
    with pytest.warns(UserWarning, match="inference tensor"):
        assert torch.equal(f(t), t * 2)
    with torch.inference_mode(), warnings.catch_warnings():
        warnings.simplefilter("error")
        assert torch.equal(f(t), t * 2)


@pytest.mark.parametrize("make, fn", [
    (torch._neg_view, lambda a: a * 2 + 1),
    (lambda x: torch.complex(x, -x).conj().imag, lambda a: a * 2 + 1),
    (lambda x: torch.complex(x, x * 3).conj(), lambda a: a.imag * 2 + a.real),
])
def test_a_lazily_negated_or_conjugated_view_of_a_planned_signature_runs_in_pytorch(make, fn):
    """A tensor with the negative or conjugate bit holds in memory the
    values before negation: compiled code reading data_ptr() read them
    with the wrong sign. The bits are part of the signature."""
    f = stax.compile(fn)
    x = torch.tensor([1.5, -2.0, 0.25])
    t = make(x)
    plain = t.clone()
    assert torch.equal(f(plain.resolve_neg().resolve_conj()), fn(plain))
    with pytest.warns(UserWarning, match="lazily"):
        assert torch.equal(f(t), fn(t))


def _outcome(fn, x):
    try:
        return fn(x)
    except RuntimeError as e:
        return str(e).split("\n")[0][:40]


@pytest.mark.parametrize("make", [
    lambda: torch.arange(12.0).view(3, 4)[:, :2],            # gaps
    lambda: torch.arange(3.0).view(1, 3).expand(2, 3),        # repeats
    lambda: torch.arange(24.0).view(2, 3, 4)[:, ::2, 1:],     # both steps
])
@pytest.mark.parametrize("fn, compiles", [
    (lambda x: x.view(-1) + 1, False),
    (lambda x: x + 1 if x.is_contiguous() else x - 1, True),
    (lambda x: x * x.stride(0), True),
    (lambda x: (x * 3).abs() - 1, True),
    (lambda x: x.diagonal(), False),
    (lambda x: x.diagonal() * 2, False),
    (lambda x: torch.einsum("ii->i", x[:2, :2]) * 2, False),
])
def test_a_trace_sees_the_layout_of_a_non_dense_input(make, fn, compiles):
    """A tensor with gaps or repeats in memory was traced on a contiguous
    clone: the function saw another stride() and is_contiguous(), view(-1)
    succeeded where eager raises, and a view result replayed on the
    caller's tensor (diagonal) used the clone's strides, reading other
    elements. Eager's value or error, for a function run twice; compiled
    unless it raises or reads the storage (as_strided under diagonal)."""
    x = make()
    f = stax.compile(fn)
    with warnings.catch_warnings():
        warnings.simplefilter("error" if compiles else "ignore")
        for _ in range(2):
            got, want = _outcome(f, x), _outcome(fn, x)
            if isinstance(want, str):
                assert got == want
            else:
                assert torch.equal(got, want) and got.stride() == want.stride()


def test_a_global_rebound_to_another_module_traces_again():
    """The key part of a global bound to the same object is cached; another
    object is another plan."""
    holder = {"layer": nn.Linear(2, 2)}
    g = {"holder": holder}
    exec("def fn(x):\n    return layer(x)\n", g)
    g["layer"] = holder["layer"]
    f = stax.compile(g["fn"])
    x = torch.randn(3, 2)
    assert torch.equal(f(x), g["layer"](x))
    g["layer"] = nn.Linear(2, 2)
    assert torch.equal(f(x), g["layer"](x))
    g["layer"] = nn.Identity()
    assert torch.equal(f(x), x)


def test_a_function_reading_storage_offset_runs_in_pytorch():
    """Traces run on copies at storage offset 0: x.storage_offset() read in
    Python was 0 in every call. Such a read runs the function in PyTorch."""
    base = torch.arange(12.0)
    fn = lambda x: x * 0 + x.storage_offset()
    f = stax.compile(fn)
    with pytest.warns(UserWarning, match="storage_offset"):
        f(base[0:3])
    for start in (3, 6, 0):
        x = base[start:start + 3]
        assert torch.equal(f(x), fn(x))


def test_requires_grad_read_inside_the_function_is_eager_s():
    """Functionalization's tensors say requires_grad=False: a function
    branching on x.requires_grad (or returning it) took the other branch
    in its trace. The trace answers as eager would: for the arguments that
    require grad and what grad mode computes from them, not after
    detach() or under no_grad."""
    def fn(x, w):
        y = x * w
        z = y.detach() * 2
        with torch.no_grad():
            u = y * 3
        pick = y * 3 if y.requires_grad else y * 5
        return pick, (x.requires_grad, w.requires_grad, y.requires_grad,
                      z.requires_grad, u.requires_grad, (y > 0).requires_grad)

    x = torch.ones(2)
    f = stax.compile(fn)
    for needs in ((False, True), (True, False), (False, False)):
        a, b = x.clone().requires_grad_(needs[0]), x.clone().requires_grad_(needs[1])
        with warnings.catch_warnings():
            warnings.filterwarnings("error", message="stax.compile")
            got = f(a, b)
        want = fn(a, b)
        assert torch.equal(got[0], want[0]) and got[1] == want[1]


def test_autograd_attributes_read_inside_the_function_are_eager_s():
    """Traced tensors have no autograd graph: `y.grad_fn` was None and
    `y.is_leaf` True for every intermediate, so a function branching on them
    took the wrong branch silently. What eager answers without a graph
    (no grad_fn, a leaf, no .grad for a tensor that does not require grad;
    no .grad, not a leaf for an intermediate that does) compiles; the rest
    runs in PyTorch."""
    def answered(x):
        y = x * 3
        return y * 2, (y.detach().grad_fn is None, y.is_leaf, y.grad is None)

    for needs in (True, False):
        x = torch.randn(3, requires_grad=needs)
        with warnings.catch_warnings():
            warnings.filterwarnings("error", message="stax.compile")
            got = stax.compile(answered)(x)
        want = answered(x)
        assert torch.equal(got[0], want[0]) and got[1] == want[1]

    def grad_fn(x):
        y = x * 2
        return y + 1 if y.grad_fn is not None else y - 1

    def argument_leaf(x):
        return x * 2 if x.is_leaf else x * 3

    def argument_grad(x):
        return x * 2 if x.grad is None else x * x.grad

    x = torch.randn(3, requires_grad=True)
    x.grad = torch.full((3,), 5.0)
    for fn, arg, read in ((grad_fn, x, "grad_fn"), (argument_leaf, x * 1, "is_leaf"),
                          (argument_grad, x, "grad")):
        with pytest.warns(UserWarning, match=rf"reads .*\.{read}"):
            got = stax.compile(fn)(arg)
        assert torch.equal(got, fn(arg))


def test_a_function_enabling_grad_under_no_grad_runs_in_pytorch():
    """Called under no_grad, a function that enables grad inside returns
    results with a graph in eager; the plan (no backward) returned them
    detached, so backward() raised. It runs in PyTorch; without the inner
    enable_grad, and with a captured module in grad mode, it compiles."""
    def inner(x):
        with torch.enable_grad():
            return (x * 2).sum()

    x = torch.ones(2, requires_grad=True)
    f = stax.compile(inner)
    with torch.no_grad(), pytest.warns(UserWarning, match="enables grad inside"):
        y = f(x)
    assert y.requires_grad
    y.backward()
    assert torch.equal(x.grad, torch.full((2,), 2.0))
    lin = torch.nn.Linear(3, 2)
    g = stax.compile(lambda a: lin(a).sum())
    with warnings.catch_warnings():
        warnings.filterwarnings("error", message="stax.compile")
        g(torch.randn(4, 3)).backward()
        with torch.no_grad():
            assert not g(torch.randn(4, 3)).requires_grad
    assert lin.weight.grad is not None
