"""Results of stax.compile that are views of its arguments are views, as in
eager (stax/aliasing.py): they share the argument's storage, see later
writes, carry eager's autograd history, and `f(x) is x` holds."""
import stax  # noqa: F401  (before torch: OMP_WAIT_POLICY)
import pytest
import torch

from stax.aliasing import ViewReplay, output_views
from stax.importer import trace


def views(a):
    return (a.view(-1), a.t(), a[1:].unsqueeze(0), a.detach(),
            a.split(2, 1)[1], a.diagonal(), a, a * 2)


def shares_storage(x, y) -> bool:
    return x.storage().data_ptr() == y.storage().data_ptr()


def test_view_results_share_the_argument_and_see_later_writes():
    a = torch.randn(3, 4)
    with torch.no_grad():
        got = stax.compile(views)(a)
    want = views(a)
    assert [shares_storage(g, a) for g in got] == \
        [shares_storage(w, a) for w in want] == [True] * 7 + [False]
    assert got[6] is a
    for g, w in zip(got, want):
        assert g.shape == w.shape and g.stride() == w.stride()
        assert g.storage_offset() == w.storage_offset()
    a.add_(1)                  # seen through every view, not by a * 2
    for g, w in zip(got[:7], views(a)[:7]):
        assert torch.equal(g, w)
    got[0][0] = 42.0           # and a write to a view reaches a
    assert a[0, 0] == 42.0


@pytest.mark.parametrize("make", [
    lambda: torch.arange(8.)[::2],
    lambda: torch.arange(12.).reshape(3, 4).t(),
    lambda: torch.arange(16.).reshape(4, 4)[1:, ::2],
], ids=["strided", "transposed", "sliced_strided"])
def test_reshape_results_follow_the_layout_of_each_call(make):
    # The trace records reshape as _reshape_alias with the traced layout's
    # strides; replayed on an argument of another layout they read the
    # wrong elements (a stride-2 input reshaped to 2 x 2 gave its storage's
    # first four values). The replay reshapes: a view where eager's is,
    # a copy where eager copies.
    x = make()
    f = stax.compile(lambda x: x.reshape(-1, 2))
    for arg in (x.contiguous(), x):        # the second call: another layout
        got, want = f(arg), arg.reshape(-1, 2)
        assert torch.equal(got, want)
        assert got._is_view() == want._is_view()


def test_view_results_carry_eager_autograd_history():
    a = torch.randn(3, 4, dtype=torch.float64, requires_grad=True)
    b = a.detach().clone().requires_grad_()
    got, want = stax.compile(views)(a), views(b)
    # diagonal is traced through its decomposition: an as_strided view.
    names = [type(w.grad_fn).__name__ for w in want[:7]]
    names[5] = "AsStridedBackward0"
    assert [type(g.grad_fn).__name__ for g in got[:7]] == names
    assert [g.requires_grad for g in got] == [w.requires_grad for w in want]
    # Each result's gradient alone: summed, autograd's accumulation order
    # (not the compiled code) would decide the last bits.
    for g, w in zip(got, want):
        if w.requires_grad:
            c = torch.randn(w.shape, dtype=torch.float64)
            assert torch.equal(torch.autograd.grad(g, a, c)[0],
                               torch.autograd.grad(w, b, c)[0])


def test_a_parameter_view_is_a_view_of_the_parameter():
    class Tied(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.w = torch.nn.Parameter(torch.randn(3, 5))

        def forward(self, x):
            return x @ self.w, self.w.t()
    m = Tied()
    y, wt = stax.compile(m)(torch.randn(2, 3))
    assert shares_storage(wt, m.w) and wt.shape == (5, 3)
    wt.sum().backward()
    assert torch.equal(m.w.grad, torch.ones(3, 5))


def test_views_of_a_written_argument_are_views_where_eager_says_so():
    """Functionalization gives `a.add_(1); return a` the graph of
    `y = a + 1; a.copy_(y); return y`: one eager run on copies tells the
    view (the argument itself, a view of its new value) from the copy."""
    def bump(a):
        a.add_(1)
        return a

    def copied(a):
        y = a + 1
        a.copy_(y)
        return y

    def row(a):
        a[0].mul_(2)
        return a[1:], a.t()
    for fn in (bump, copied, row):
        a, b = torch.randn(3, 3), None
        b = a.clone()
        with torch.no_grad():
            got = stax.compile(fn)(a)
        want = fn(b)
        got = got if isinstance(got, tuple) else (got,)
        want = want if isinstance(want, tuple) else (want,)
        assert torch.equal(a, b)
        for g, w in zip(got, want):
            assert torch.equal(g, w)
            assert shares_storage(g, a) == shares_storage(w, b), fn.__name__
    a = torch.zeros(3)
    with torch.no_grad():
        assert stax.compile(bump)(a) is a


def test_a_written_argument_result_keeps_its_gradient_history():
    """Under autograd the copy-back writes the argument without history:
    the result stays the compiled copy, whose gradient reaches y (as
    `x.add_(y); return x` does in eager)."""
    def add(x, y):
        x.add_(y)
        return x
    y = torch.randn(3, dtype=torch.float64, requires_grad=True)
    got = stax.compile(add)(torch.zeros(3, dtype=torch.float64), y)
    assert got.requires_grad
    c = torch.randn(3, dtype=torch.float64)
    assert torch.equal(torch.autograd.grad(got, y, c)[0], c)


def test_a_written_argument_without_history_is_returned_under_autograd():
    """A call that records gradients (x requires them) but writes into a
    buffer nothing differentiable reaches: eager returns the buffer itself,
    and a later write to the result shows in it."""
    def step(x, buf):
        buf.add_(x.detach().mean(0))
        return x * 2, buf
    x = torch.ones(3, 4, requires_grad=True)
    buf = torch.zeros(4)
    y, out = stax.compile(step)(x, buf)
    assert out is buf and y.requires_grad
    out.add_(100.0)
    assert torch.equal(buf, torch.full((4,), 101.0))


def test_output_views_replays_view_chains_from_arguments():
    def fn(a, b, c):
        c.mul_(2)
        return a.t()[1:], b + 1, b, c.view(-1), a.unbind(0)[2]
    gm = trace(fn, *[torch.randn(3, 4) for _ in range(3)],
               functionalize=True)
    replays = output_views(gm)
    assert [r is None for r in replays] == [False, True, False, False, False]
    assert [(r.argument, r.written) for r in replays if r is not None] == \
        [(0, False), (1, False), (2, True), (0, False)]
    a = torch.randn(3, 4)
    assert torch.equal(replays[0]([a, None, None]), a.t()[1:])
    assert torch.equal(replays[4]([a, None, None]), a[2])
    assert replays[2].steps == ()


@pytest.mark.parametrize("make", [
    lambda: torch.randn(4, 3).t(),            # transposed
    lambda: torch.randn(3, 8)[:, ::2],        # strided
    lambda: torch.randn(1, 4).expand(3, 4),   # expanded
], ids=["transposed", "strided", "expanded"])
def test_views_of_non_contiguous_arguments_follow_their_layout(make):
    a = make()
    with torch.no_grad():
        got = stax.compile(lambda x: (x.t(), x[1:], x.unsqueeze(1)))(a)
    for g, w in zip(got, (a.t(), a[1:], a.unsqueeze(1))):
        assert torch.equal(g, w) and g.stride() == w.stride()
        assert shares_storage(g, a)


def test_replay_is_a_frozen_value():
    r = ViewReplay(0, ((torch.ops.aten.t.default, (), {}),))
    assert torch.equal(r([torch.eye(2) + torch.tensor([[0.0, 1.0], [0.0, 0.0]])]),
                       torch.tensor([[1.0, 0.0], [1.0, 1.0]]))


def results_aliasing_each_other(a):
    y = a * 3 - 1
    z = y + 1
    return y, y, y.t(), z[1:].unsqueeze(0), z, y.t()[1]


def test_results_that_alias_each_other_share_storage_as_in_eager():
    """`return y, y` is one tensor twice and `y.t()` a view of y in eager:
    a write to one result shows in the others. Compiled code computes y
    and z; the other results are replayed on them (OutputViewReplay), the
    view of a view on the root result."""
    a = torch.randn(3, 4)
    with torch.no_grad():
        got = stax.compile(results_aliasing_each_other)(a)
    want = results_aliasing_each_other(a)
    assert got[1] is got[0]
    for g, w in zip(got, want):
        assert torch.equal(g, w) and g.stride() == w.stride()
        assert g.storage_offset() == w.storage_offset()
    roots = [0, 0, 0, 4, 4, 0]
    assert [shares_storage(g, got[r]) for g, r in zip(got, roots)] == \
        [True] * 6
    assert not shares_storage(got[0], got[4])
    got[2][1, 2] = 42.0            # y.t()[1, 2] is y[2, 1]
    assert got[0][2, 1] == 42.0 and got[5][2] == 42.0
    got[4][2, 0] = -7.0            # z[2] is row 1 of z[1:]
    assert got[3][0, 1, 0] == -7.0


def test_results_that_alias_each_other_get_eager_gradients():
    a = torch.randn(3, 4, dtype=torch.float64, requires_grad=True)
    b = a.detach().clone().requires_grad_()
    got = stax.compile(results_aliasing_each_other)(a)
    want = results_aliasing_each_other(b)
    assert got[1] is got[0]
    assert [type(g.grad_fn).__name__ for g in got[2:4]] == \
        [type(w.grad_fn).__name__ for w in want[2:4]]
    weights = [torch.randn(w.shape, dtype=torch.float64) for w in want]
    ga, = torch.autograd.grad(sum((g * c).sum() for g, c in zip(got, weights)), a)
    gb, = torch.autograd.grad(sum((w * c).sum() for w, c in zip(want, weights)), b)
    torch.testing.assert_close(ga, gb, rtol=1e-14, atol=1e-14)


def test_output_views_replays_results_on_other_results():
    gm = trace(results_aliasing_each_other, torch.randn(3, 4),
               functionalize=True)
    replays = output_views(gm)
    assert [None if r is None else r.output for r in replays] == \
        [None, 0, 0, 4, None, 0]
    assert replays[1].steps == ()


def _written_after_view(x):
    y = x.clone()
    z = y[0]
    y.mul_(10)
    return y, z


def _written_through_view(x):
    y = x.clone()
    z = y.view(-1)
    z[0] = 100.0
    return y, z


def _both_written(x):
    y = x * 1
    z = y[0]
    y[1] = 7
    z[0] = 100
    return z, y


@pytest.mark.parametrize("fn", [_written_after_view, _written_through_view,
                                _both_written])
@pytest.mark.parametrize("grad", [False, True])
def test_a_result_and_its_view_see_writes_made_after_the_view(fn, grad):
    """PyTorch 1.13's functionalize returned a view of an intermediate as
    it was when taken, and a base written through its view as before the
    write: one result silently lacked the later writes. The trace syncs
    its results first. Eager's values, and the results still share
    storage."""
    a = torch.arange(6.0, dtype=torch.float64).view(2, 3).requires_grad_(grad)
    with torch.set_grad_enabled(grad):
        got = stax.compile(fn)(a)
    want = fn(a)
    for g, w in zip(got, want):
        assert torch.equal(g, w)
    assert shares_storage(got[0], got[1])
