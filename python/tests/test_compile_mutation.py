"""Random programs of views, in-place writes and no_grad regions, compiled
and run eagerly: values and gradients must agree (float64, relative 1e-9:
the programs are elementwise apart from the final sums).

Each program starts from t0 = x * w and t1 = tanh(x) + w and applies a few
statements drawn from: clone, slice assignment, mul_/clamp_/div_/copy_/
+= in place, an add_ into a column view, views (slices, transposes) kept
for later, a detached product, writes through views of views (`a.t()[1]`,
`a.view(-1)[1:7]`, `a[2][1:3]`) and through `.data`; each statement runs
under torch.no_grad() with probability 0.35. The class of bugs it guards:
writes through views lost or reordered, writes under no_grad or through
detached aliases differentiated, no_grad results whose later writes lost
their gradient, no_grad views read in grad mode carrying one. Programs eager rejects (in-place
writes on leaves, partial overlaps, modified saved tensors, a column
outside a kept slice) are skipped and counted."""

import random
import warnings

import pytest
import torch

import stax

SEEDS = range(150)


def program(seed: int) -> str:
    rng = random.Random(seed)
    lines = ["def f(x, w):", "    t0 = x * w", "    t1 = torch.tanh(x) + w"]
    names = ["t0", "t1"]
    for _ in range(rng.randint(2, 7)):
        a, b = rng.choice(names), rng.choice(names)
        new = f"t{len(names)}"
        k = rng.randrange(18)
        statement = [
            f"{new} = {a}.clone()",
            f"{a}[{rng.randrange(3)}:{rng.randrange(3, 5)}] = 0.5",
            f"{a}.mul_({rng.choice(['2.0', '0.5', '-1.0'])})",
            f"{a}.clamp_(-0.5, {rng.choice(['0.5', '1.0'])})",
            f"{a}[:, {rng.randrange(4)}].add_({b}[:, 0])",
            f"{a} += {b}",
            f"{new} = {a}.t().contiguous() * 1.5",
            f"{a}.copy_(torch.sin({b}))",
            f"{new} = ({a} * {b}).relu()",
            f"{a}.div_({b}.abs() + 1.0)",
            f"{new} = {a}[:, 1:3]",
            f"{new} = {a}.t()",
            f"{new} = {a}.detach() * w",
            f"{a}.t()[{rng.randrange(4)}].mul_({rng.choice(['2.0', '0.0'])})",
            f"{a}.view(-1)[{rng.randrange(3)}:{rng.randrange(5, 12)}].add_(1.0)",
            f"{a}[{rng.randrange(4)}][1:3].zero_()",
            f"{a}.data[{rng.randrange(4)}].mul_(3.0)",
            f"{new} = {a}[1:][:, ::2]",
        ][k]
        if statement.startswith(new):
            names.append(new)
        if rng.random() < 0.35:
            lines += ["    with torch.no_grad():", "        " + statement]
        else:
            lines.append("    " + statement)
    outs = rng.sample(names, min(len(names), rng.randint(1, 3)))
    lines.append("    return " + " + ".join(f"({o} * {o} * w[0, 0]).sum()"
                                         for o in outs))
    return "\n".join(lines)


def run(src: str, compiled: bool):
    scope = {"torch": torch}
    exec(src, scope)  # noqa: S102 - generated above
    f = scope["f"]
    torch.manual_seed(0)
    x = torch.randn(4, 4, dtype=torch.float64)
    w = torch.randn(4, 4, dtype=torch.float64, requires_grad=True)
    y = (stax.compile(f) if compiled else f)(x, w)
    (g,) = torch.autograd.grad(y, w, allow_unused=True)
    return y.detach(), g


def test_random_views_writes_and_no_grad_regions_match_eager():
    checked, mismatches = 0, []
    for seed in SEEDS:
        src = program(seed)
        try:
            want, want_grad = run(src, False)
        except (RuntimeError, IndexError):
            continue                       # eager rejects the program
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            got, got_grad = run(src, True)
        checked += 1
        same = torch.allclose(got, want, rtol=1e-9, atol=1e-12)
        if want_grad is None:
            same = same and (got_grad is None or not got_grad.any())
        else:
            same = same and got_grad is not None and torch.allclose(
                got_grad, want_grad, rtol=1e-9, atol=1e-12)
        if not same:
            mismatches.append(f"seed {seed}:\n{src}")
    assert checked >= 75, checked          # the generator stays useful
    assert not mismatches, "\n\n".join(mismatches)


def _grads(f, compiled: bool):
    """f's value and x's gradient, eager or compiled (float64)."""
    torch.manual_seed(0)
    x = torch.randn(4, 5, dtype=torch.float64, requires_grad=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        y = (stax.compile(f) if compiled else f)(x)
    y.sum().backward()
    return y.detach(), x.grad


def _view_of_view_write(x):
    h = x * 2
    with torch.no_grad():
        h.t()[1].zero_()
    return h.sin()


def _view_of_view_add(x):
    h = x * 2
    with torch.no_grad():
        h.view(-1)[1:].add_(1)
    return h * x


def _no_grad_index_view_read(x):
    h = x * 2
    with torch.no_grad():
        v = h[1:]
    return (v * x[1:]).sum() + h.sum()


def _write_through_detach(x):
    h = x * 3
    d = h.detach()
    d[0][1:].fill_(1.0)
    h.data[2].mul_(2)
    return h.sin() + d


def _no_grad_advanced_index_copy(x):
    h = x * 2
    with torch.no_grad():
        c = h[[0, 1]]
        c[0].zero_()
        m = h[torch.tensor([2])]
        m.mul_(3)
    return (c * x[:2]).sum() + h.sum() + (m * x[2:3]).sum()


@pytest.mark.parametrize("f", [_view_of_view_write, _view_of_view_add,
                               _no_grad_index_view_read,
                               _write_through_detach,
                               _no_grad_advanced_index_copy],
                         ids=lambda f: f.__name__.strip("_"))
def test_writes_and_reads_through_detached_views_match_eager(f):
    """Views taken by indexing (which PyTorch 1.13 does not show a
    TorchFunctionMode) and views of views under no_grad or of a detach:
    a write through them keeps the base's gradient everywhere, a read of
    them in grad mode carries none; an advanced index copies."""
    want, want_grad = _grads(f, False)
    got, got_grad = _grads(f, True)
    # float64: the sums are reordered and sin/cos are Stax's kernels (both
    # within a few ulp); a lost or extra gradient is off by O(1).
    torch.testing.assert_close(got, want, rtol=1e-12, atol=1e-14)
    torch.testing.assert_close(got_grad, want_grad, rtol=1e-12, atol=1e-14)


# A view taken after a write through another view, with the written tensor
# used again afterwards: PyTorch 1.13's functionalization took the view of
# the value before the write (y.t() below read y without its first row of
# 5s) unless the pending write is applied first (importer._sync_functional).

def _view_after_write_both_returned(x):
    y = x * 1
    y[0] = 5
    return y, y.t()


def _view_after_write_then_base_used(x):
    y = x * 2
    y[1:3, 0].mul_(3)
    t = y.t() * 1
    return torch.cat([y.reshape(-1), t.reshape(-1) * 2])


def _views_between_two_writes(x):
    y = x.sin()
    y[0].add_(1)
    flat = y.reshape(-1)
    y[:, 1].mul_(2)
    return torch.cat([flat * 1, y.t().reshape(-1), y.sum(0)])


@pytest.mark.parametrize("f", [_view_after_write_both_returned,
                               _view_after_write_then_base_used,
                               _views_between_two_writes],
                         ids=lambda f: f.__name__.strip("_"))
def test_views_taken_after_writes_see_the_writes(f):
    torch.manual_seed(0)
    x = torch.randn(4, 5, dtype=torch.float64, requires_grad=True)
    xc = x.detach().clone().requires_grad_()
    want = f(x)
    got = stax.compile(f)(xc)
    want, got = (want, got) if isinstance(want, tuple) else ((want,), (got,))
    for g, w in zip(got, want):
        torch.testing.assert_close(g, w, rtol=1e-12, atol=1e-14)
    sum((w * (k + 1)).sum() for k, w in enumerate(want)).backward()
    sum((g * (k + 1)).sum() for k, g in enumerate(got)).backward()
    torch.testing.assert_close(xc.grad, x.grad, rtol=1e-12, atol=1e-14)


# Advanced-index writes after full slices (`y[:, i] = v`): PyTorch 1.13's
# functionalization fails on index_put_ with a None index, and the function
# ran in PyTorch; a boolean mask there (`y[:, m] = v`) was refused as a
# data-dependent shape.

_COLUMNS = torch.tensor([0, 3, 3])
_MASK = torch.tensor([True, False, True, True, False])


def _columns_set(x, v):
    y = x.sin()
    y[:, _COLUMNS] = v[:, :3]
    return y


def _columns_accumulated(x, v):
    y = x * 2
    torch.ops.aten.index_put_(y, [None, _COLUMNS], v[:, :3], True)
    return y.cos()


def _trailing_columns_set(x, v):
    y = x.view(2, 2, 5) * 1
    y[..., _COLUMNS] = 0.5
    y[1:, :, _COLUMNS] += v[:1, :3]
    return y


def _masked_columns_set(x, v):
    y = x * 1
    y[:, _MASK] = v[:, :3] * 2
    y[1:, _MASK] = 0.25
    return y


@pytest.mark.parametrize("f", [_columns_set, _columns_accumulated,
                               _trailing_columns_set, _masked_columns_set],
                         ids=lambda f: f.__name__.strip("_"))
def test_index_writes_after_full_slices_compile(f):
    g = torch.Generator().manual_seed(3)
    x, v = (torch.randn(4, 5, dtype=torch.float64, generator=g) for _ in "xv")
    want_in = [x.clone().requires_grad_(), v.clone().requires_grad_()]
    got_in = [x.clone().requires_grad_(), v.clone().requires_grad_()]
    want = f(*want_in)
    with warnings.catch_warnings():
        warnings.simplefilter("error")      # no fallback to PyTorch
        got = stax.compile(f)(*got_in)
    torch.testing.assert_close(got, want, rtol=1e-12, atol=1e-14)
    cot = torch.linspace(-1, 1, want.numel(), dtype=torch.float64).view(want.shape)
    for g, w in zip(torch.autograd.grad(got, got_in, cot),
                    torch.autograd.grad(want, want_in, cot)):
        torch.testing.assert_close(g, w, rtol=1e-12, atol=1e-14)


class _Counter(torch.nn.Module):
    """A buffer the forward increments and reads: the gradient needs the
    incremented value."""

    def __init__(self):
        super().__init__()
        self.register_buffer("n", torch.zeros(()))
        self.w = torch.nn.Parameter(torch.linspace(0.5, 1.5, 3))

    def forward(self, x):
        self.n += 1
        return (self.w * x.sin() * self.n).sum()


@pytest.mark.parametrize("f", [
    lambda a, w: (a.add_(1), (w * a).sum())[1],
    lambda a, w: (a.mul_(2), (w.sin() * a.exp()).sum())[1],
    lambda a, w: (lambda b: (a.add_(1), (w * b * a).sum())[1])(a + 0),
    lambda a, w: (a.add_(w.detach()), (w * a.sin()).sum())[1],
])
def test_an_input_written_in_place_is_read_as_before_by_the_backward(f):
    """The backward of a function that writes an input not requiring grad
    reruns from that input as the forward saw it: it used to be saved
    after the write (the version counter could not tell), so gradients
    were computed from the written values, silently. Eager's gradients,
    and the input written as in eager; a module's buffer the forward
    increments likewise, over three training calls."""
    a0 = torch.linspace(-1.0, 2.0, 3)
    w0 = torch.linspace(0.3, 0.9, 3)
    grads, written = [], []
    for fn in (stax.compile(f), f):
        a, w = a0.clone(), w0.clone().requires_grad_()
        fn(a, w).backward()
        grads.append(w.grad)
        written.append(a)
    assert torch.allclose(grads[0], grads[1], rtol=1e-6, atol=1e-7), grads
    assert torch.equal(written[0], written[1])

    compiled, eager = _Counter(), _Counter()
    step = stax.compile(compiled)
    x = torch.linspace(0.1, 0.7, 3)
    for _ in range(3):
        step(x).backward()
        eager(x).backward()
    assert torch.allclose(compiled.w.grad, eager.w.grad, rtol=1e-6, atol=0)
    assert torch.equal(compiled.n, eager.n)


@pytest.mark.parametrize("write", [
    lambda w: w.mul_(0.5),
    lambda w: w.data.add_(1.0),
])
def test_a_captured_parameter_written_under_no_grad_is_written_once_per_call(write):
    """Tracing runs the function on real tensors, several times when a
    trace is retried: a captured tensor that requires grad, written in
    place under no_grad or through `.data`, was not restored after each
    trace (only tensors without requires_grad were), so the first call
    applied the write six times. Eager's values after each of three
    calls."""
    results = []
    for compiled in (True, False):
        w = torch.nn.Parameter(torch.linspace(0.5, 2.0, 3))

        def f(x):
            with torch.no_grad():
                write(w)
            return x * w
        fn = stax.compile(f) if compiled else f
        results.append([(fn(torch.ones(3)).detach(), w.detach().clone())
                        for _ in range(3)])
    for (got, got_w), (want, want_w) in zip(*results):
        assert torch.equal(got, want) and torch.equal(got_w, want_w)


def test_a_function_setting_data_runs_in_pytorch():
    """`x.data = x.data * 0.5` (and weight clipping `p.data = p.data.clamp(..)`
    on a captured parameter) rebinds a tensor to other memory: the trace
    treated the assignment as nothing, so the write never happened. Such a
    function runs in PyTorch: eager's values and tensors after each call."""
    w = torch.nn.Parameter(torch.tensor([2.0, -3.0, 0.5]))

    def clip(x):
        w.data = w.data.clamp(-1.0, 1.0) * 1.5
        return x * w

    def halve(x):
        x.data = x.data * 0.5
        return x * 2

    f = stax.compile(clip)
    with pytest.warns(UserWarning, match=r"sets a tensor's \.data"):
        got = [f(torch.ones(3)).detach() for _ in range(2)]
    assert torch.equal(got[0], torch.tensor([1.5, -1.5, 0.75]))
    assert torch.equal(got[1], torch.tensor([1.5, -1.5, 1.125]))
    assert torch.equal(w.detach(), got[1])
    g = stax.compile(halve)
    for _ in range(2):
        x = torch.ones(3, requires_grad=True)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            out = g(x)
        assert torch.equal(out.detach(), torch.ones(3)) and torch.equal(x.detach(), torch.full((3,), 0.5))


@pytest.mark.parametrize("write", [
    lambda y: y.unfold(1, 3, 2).neg_(),                 # overlapping windows
    lambda y: y.unfold(1, 2, 2).mul_(2),                # an element no window covers
    lambda y: y.unfold(1, 2, 1).__setitem__((0, 0, 1), 100.0),
    lambda y: y.unfold(0, 1, 1)[:, 1:3].zero_(),        # a view of a window view
    lambda y: y.view(-1).as_strided((3, 2), (1, 1)).__setitem__((0, 1), 7.0),
    lambda y: y[:1].expand(3, 5).__setitem__((1, 2), 7.0),  # broadcast rows
    lambda y: y[:, :1].expand(2, 4)[:, 2].copy_(torch.ones(2)),
    lambda y: torch.broadcast_tensors(y[:, :1], y)[0][:, 3].zero_(),
])
def test_writes_through_unfold_or_as_strided_views_run_in_pytorch(write):
    """PyTorch 1.13's functionalization writes an unfold view back with
    unfold_backward, which sums overlapping windows (an element negated
    through two windows came back -6, not 3) and zeroes what no window
    covers; an expanded view, summed over its repeats. Such writes run the
    function in PyTorch; reads through these views still compile."""
    def fn(x):
        y = x.clone()
        write(y)
        return y

    x = torch.arange(1.0, 11.0, dtype=torch.float64).view(2, 5)
    with pytest.warns(UserWarning, match="through a view made by unfold, as_strided or expand"):
        got = stax.compile(fn)(x)
    assert torch.equal(got, fn(x))
    read = lambda x: x.unfold(1, 3, 2).sum(-1) + x.as_strided((2, 2), (1, 1)).sum()
    no_repeat = lambda x: x.clone().expand(1, 2, 5).mul_(2).squeeze(0) + x[:1].expand(2, 5)
    with warnings.catch_warnings():
        warnings.filterwarnings("error", message="stax.compile")
        assert torch.equal(stax.compile(no_repeat)(x), no_repeat(x))
    with warnings.catch_warnings():
        warnings.filterwarnings("error", message="stax.compile")
        assert torch.equal(stax.compile(read)(x), read(x))
