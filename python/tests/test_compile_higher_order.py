"""Higher-order derivatives through stax.compile (create_graph=True).

The first-order gradient under create_graph=True is the compiled min-cut
backward itself (bitwise the plain backward's result); its derivative runs
vjp(vjp(F)), the joint graph of the function's gradients-only joint graph
(`--stax-joint-graph{gradients-only}` twice), compiled on first use, and
each further order one more joint graph. Where the autodiff has no rule for
an op of the backward, the second derivative raises Listing 5.5's error.

Second-order values are compared in float64 against eager float64 with a
relative tolerance of 1e-9, as in test_autodiff_corpus.py: they check the
rules and the plumbing (which argument gets which gradient, the saved
inputs, the RNG state), not rounding.
"""

import warnings

import pytest
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.autograd import grad as imported_grad

import stax

RTOL = 1e-9


def _close(got, want, what):
    assert got.shape == want.shape, what
    scale = max(1.0, want.abs().max().item())
    err = (got - want).abs().max().item()
    assert err <= RTOL * scale, f"{what}: max |stax - eager| = {err:.3g}"


def _hvp(fn, params, inputs):
    """Gradients (create_graph=True) of the squared outputs, then the
    gradient of their sum: a Hessian-vector product with v = 1."""
    out = fn(*inputs)
    loss = out.pow(2).sum()
    grads = torch.autograd.grad(loss, params, create_graph=True)
    hvp = torch.autograd.grad(sum(g.sum() for g in grads), params,
                              allow_unused=True)
    return [g.detach() for g in grads], hvp


def test_first_order_under_create_graph_is_the_plain_backward():
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(8, 32), nn.GELU(), nn.Linear(32, 4))
    f = stax.compile(model)
    x = torch.randn(16, 8)
    plain = torch.autograd.grad(f(x).pow(2).sum(), list(model.parameters()))
    recorded = torch.autograd.grad(f(x).pow(2).sum(), list(model.parameters()),
                                   create_graph=True)
    for p, r in zip(plain, recorded):
        assert r.requires_grad
        assert torch.equal(p, r.detach())


def test_derivatives_of_a_cube_to_the_third_order():
    x = torch.linspace(-2, 2, 24, dtype=torch.float64).view(4, 6).requires_grad_()
    f = stax.compile(lambda x: (x * x * x).sum())
    (g,) = torch.autograd.grad(f(x), x, create_graph=True)
    (h,) = torch.autograd.grad(g.sum(), x, create_graph=True)
    (k,) = torch.autograd.grad(h.sum(), x)
    _close(g.detach(), 3 * x.detach() ** 2, "first derivative")
    _close(h.detach(), 6 * x.detach(), "second derivative")
    _close(k, torch.full_like(k, 6.0), "third derivative")


def _lstm_output(m):
    return lambda x: m(x)[0]


MODULES = {
    "mlp_tanh_gelu": (lambda: nn.Sequential(nn.Linear(8, 16), nn.Tanh(),
                                            nn.Linear(16, 16), nn.GELU(),
                                            nn.Linear(16, 3)), (5, 8)),
    "layernorm_silu": (lambda: nn.Sequential(nn.Linear(8, 16), nn.LayerNorm(16),
                                             nn.SiLU(), nn.Linear(16, 2)), (4, 8)),
    "conv_batchnorm_maxpool": (lambda: nn.Sequential(
        nn.Conv2d(3, 4, 3), nn.BatchNorm2d(4), nn.ReLU(), nn.MaxPool2d(2),
        nn.Flatten(), nn.Linear(36, 2)), (2, 3, 8, 8)),
    "transformer_encoder_layer": (lambda: nn.TransformerEncoderLayer(
        16, 2, 32, dropout=0.0, batch_first=True), (2, 5, 16)),
    "lstm": (lambda: nn.LSTM(8, 8, batch_first=True), (2, 3, 8)),
}


@pytest.mark.parametrize("name", sorted(MODULES))
def test_hessian_vector_products_of_modules_equal_eager(name):
    make, shape = MODULES[name]
    torch.manual_seed(0)
    eager = make().double()
    mine = make().double()
    mine.load_state_dict(eager.state_dict())
    compiled = stax.compile(mine)
    x = torch.randn(*shape, dtype=torch.float64)
    wrap = _lstm_output if name == "lstm" else (lambda m: m)
    xs = [x.clone().requires_grad_(), x.clone().requires_grad_()]
    with warnings.catch_warnings():
        warnings.simplefilter("error")   # compiled, not run in PyTorch
        got_g, got_h = _hvp(wrap(compiled), list(mine.parameters()) + [xs[0]],
                            [xs[0]])
    want_g, want_h = _hvp(wrap(eager), list(eager.parameters()) + [xs[1]],
                          [xs[1]])
    for k, (a, b) in enumerate(zip(got_g, want_g)):
        _close(a, b, f"gradient #{k}")
    for k, (a, b) in enumerate(zip(got_h, want_h)):
        assert (a is None) == (b is None), f"HVP #{k}: None in one only"
        if a is not None:
            _close(a, b, f"HVP #{k}")
    # A training-mode batch norm updates its statistics once per call: the
    # derivatives recompute the forward without writing them again.
    for (n, a), (_, b) in zip(mine.named_buffers(), eager.named_buffers()):
        _close(a, b, f"buffer {n}")


def test_gradient_penalty_training_matches_eager():
    """WGAN-GP: the critic's loss holds the norm of its gradient with
    respect to its input (create_graph=True), so each step differentiates
    the compiled critic's backward."""
    torch.manual_seed(0)

    def make():
        return nn.Sequential(nn.Linear(4, 32), nn.LeakyReLU(0.2),
                             nn.Linear(32, 32), nn.Tanh(),
                             nn.Linear(32, 1)).double()

    eager, mine = make(), make()
    mine.load_state_dict(eager.state_dict())
    critic = stax.compile(mine)

    def loss_of(d, real, fake, alpha):
        mix = (alpha * real + (1 - alpha) * fake).requires_grad_()
        (g,) = torch.autograd.grad(d(mix).sum(), mix, create_graph=True)
        penalty = ((g.norm(dim=1) - 1) ** 2).mean()
        return d(fake).mean() - d(real).mean() + 10 * penalty

    opts = [torch.optim.SGD(m.parameters(), lr=0.01) for m in (mine, eager)]
    for step in range(5):
        real = torch.randn(16, 4, dtype=torch.float64) + 2
        fake = torch.randn(16, 4, dtype=torch.float64)
        alpha = torch.rand(16, 1, dtype=torch.float64)
        losses = []
        for d, opt in zip((critic, eager), opts):
            opt.zero_grad()
            loss = loss_of(d, real, fake, alpha)
            loss.backward()
            opt.step()
            losses.append(loss.detach())
        _close(losses[0], losses[1], f"loss at step {step}")
    for a, b in zip(mine.parameters(), eager.parameters()):
        _close(a.detach(), b.detach(), "trained parameter")


def test_a_parameter_the_penalty_does_not_reach_keeps_no_gradient():
    """The critic's last bias does not appear in d critic / d input: in
    eager its .grad stays None after the penalty's backward, and AdamW
    skips it (no weight decay). The compiled double backward gave it
    zeros, so AdamW decayed it."""
    torch.manual_seed(0)
    eager = nn.Sequential(nn.Linear(3, 8), nn.Tanh(), nn.Linear(8, 1)).double()
    mine = nn.Sequential(nn.Linear(3, 8), nn.Tanh(), nn.Linear(8, 1)).double()
    mine.load_state_dict(eager.state_dict())
    x = torch.randn(5, 3, dtype=torch.float64)
    for d, m in ((stax.compile(mine), mine), (eager, eager)):
        opt = torch.optim.AdamW(m.parameters(), lr=0.1, weight_decay=0.5)
        xr = x.clone().requires_grad_()
        (g,) = torch.autograd.grad(d(xr).sum(), xr, create_graph=True)
        g.pow(2).sum().backward()
        opt.step()
    for (name, a), b in zip(mine.named_parameters(), eager.parameters()):
        assert (a.grad is None) == (b.grad is None), name
        if b.grad is not None:
            _close(a.grad, b.grad, name)
        _close(a.detach(), b.detach(), name)
    assert mine[2].bias.grad is None


def test_second_order_from_one_of_two_results_leaves_the_other_s_inputs_none():
    """g = d y1 / dx with create_graph, y2 unused: eager's g has no path to
    v, which only y2 reads, so d|g|^2/dv is None; the compiled double
    backward ran with a zero tangent for y2 and gave v zeros."""
    def fn(x, w, v):
        return (x * w).tanh().sum(), (x * v).sum()

    torch.manual_seed(0)
    args = [torch.randn(4, dtype=torch.float64) for _ in range(3)]
    got = []
    for f in (fn, stax.compile(fn)):
        x, w, v = (a.clone().requires_grad_() for a in args)
        y1, _ = f(x, w, v)
        (g,) = torch.autograd.grad(y1, x, create_graph=True)
        got.append(torch.autograd.grad(g.pow(2).sum(), [x, w, v], allow_unused=True))
    want, mine = got
    assert mine[2] is None and want[2] is None
    for a, b, name in zip(mine[:2], want[:2], "xw"):
        _close(a, b, name)


def test_double_backward_with_dropout_keeps_the_forward_mask():
    """The derivatives run on the call's RNG state: y = dropout(x) keeps
    x * 2 or 0, so d(sum y^3)/dx = 6 y^2 and its derivative 24 y."""
    torch.manual_seed(0)
    f = stax.compile(lambda x: (lambda y: (y, (y ** 3).sum()))(
        F.dropout(x, 0.5, training=True)))
    x = torch.randn(64, 32, dtype=torch.float64, requires_grad=True)
    y, loss = f(x)
    (g,) = torch.autograd.grad(loss, x, create_graph=True)
    (h,) = torch.autograd.grad(g.sum(), x)
    y = y.detach()
    assert 0 < int((y == 0).sum()) < y.numel()
    _close(g.detach(), 6 * y ** 2, "first derivative")
    _close(h, 24 * y, "second derivative")


def test_no_second_order_rule_raises_listing_5_5():
    """tp.ctc_loss_backward has no vector-Jacobian product: the gradient
    is right and requires grad; differentiating it once more raises the
    explicit error, naming the op."""
    torch.manual_seed(0)
    targets = torch.tensor([[1, 2], [3, 3]])
    lengths, target_lengths = torch.tensor([5, 5]), torch.tensor([2, 2])

    def f(x):
        return F.ctc_loss(x.log_softmax(-1), targets, lengths, target_lengths)
    x = torch.randn(5, 2, 4, dtype=torch.float64, requires_grad=True)
    (g,) = torch.autograd.grad(stax.compile(f)(x), x, create_graph=True)
    (want,) = torch.autograd.grad(f(x), x)
    _close(g.detach(), want, "first derivative")
    assert g.requires_grad
    with pytest.raises(RuntimeError, match=r"second-order gradients.*"
                                           r"tp\.ctc_loss_backward"):
        g.sum().backward()


def test_an_input_written_after_the_call_is_refused():
    """A second derivative reruns the function on its inputs: one written
    in place since the call is an error when the rerun happens. Eager
    raises too where it saved the input; Stax checks every input, since
    it cannot tell which ones the rerun reads (here none would matter:
    f is linear)."""
    f = stax.compile(lambda x: (x * 3).sum())
    x = torch.randn(8, 4, dtype=torch.float64, requires_grad=True)
    w = x * 1.0
    loss = f(w)
    with torch.no_grad():
        w.add_(1)
    (g,) = torch.autograd.grad(loss, x, create_graph=True)
    _close(g.detach(), torch.full_like(g, 3.0), "first derivative")
    with pytest.raises(RuntimeError, match=r"argument #0 \(torch.float64 "
                                           r"\[8, 4\]\) was modified in place"):
        g.sum().backward()


# -- torch.autograd.grad inside a compiled function ---------------------------
# make_fx records PyTorch's backward ops while tracing (without
# functionalization, which refuses torch.autograd.grad); the detaches
# autograd records to save results become the identity, the user's stay.


def _no_fallback(fn, *args):
    with warnings.catch_warnings():
        warnings.simplefilter("error")   # compiled, not run in PyTorch
        return fn(*args)


def test_gradient_penalty_inside_the_compiled_function():
    torch.manual_seed(0)

    def make():
        return nn.Sequential(nn.Linear(4, 16), nn.Tanh(), nn.Linear(16, 16),
                             nn.GELU(), nn.LayerNorm(16), nn.Linear(16, 1)).double()

    def loss_of(d):
        def loss(real, fake, alpha):
            mix = (alpha * real + (1 - alpha) * fake).requires_grad_()
            (g,) = torch.autograd.grad(d(mix).sum(), mix, create_graph=True)
            penalty = ((g.norm(dim=1) - 1) ** 2).mean()
            return d(fake).mean() - d(real).mean() + 10 * penalty
        return loss

    eager, mine = make(), make()
    mine.load_state_dict(eager.state_dict())
    real, fake = torch.randn(8, 4, dtype=torch.float64), torch.randn(8, 4, dtype=torch.float64)
    alpha = torch.rand(8, 1, dtype=torch.float64)
    got = _no_fallback(stax.compile(loss_of(mine)), real, fake, alpha)
    want = loss_of(eager)(real, fake, alpha)
    _close(got.detach(), want.detach(), "loss")
    got.backward()
    want.backward()
    for a, b in zip(mine.parameters(), eager.parameters()):
        _close(a.grad, b.grad, "parameter gradient")


def _inner_gradient_without_create_graph(x, w):
    """create_graph=False: the inner gradient has no derivative, in eager
    and in the compiled function (its backward ops are not differentiated)."""
    (g,) = torch.autograd.grad((x * w).tanh().sum(), w)
    return (g * w).sum()


def _the_users_detach(x, w):
    """The user's detach stays a constant; autograd's own become the
    identity."""
    y = (x * w).tanh()
    (g,) = torch.autograd.grad(y.sum(), w, create_graph=True)
    return (g * y.detach()).sum() + (g * g).sum()


def _imported_grad(x, w):
    """`from torch.autograd import grad`: a name the trace does not
    replace; both kinds of inner gradient still compile."""
    y = (x * w).tanh()
    (g,) = imported_grad(y.sum(), w, create_graph=True)
    (h,) = imported_grad((y * w).sum(), w, retain_graph=True)
    return (g * y.detach()).sum() + (g * g * h).sum()


@pytest.mark.parametrize("f", [_inner_gradient_without_create_graph,
                               _the_users_detach, _imported_grad])
def test_inner_gradient_constants(f):
    x = torch.randn(6, dtype=torch.float64)
    w = torch.randn(6, dtype=torch.float64, requires_grad=True)
    (got,) = torch.autograd.grad(_no_fallback(stax.compile(f), x, w), w)
    (want,) = torch.autograd.grad(f(x, w), w)
    _close(got, want, "gradient")


def test_an_inner_sgd_step_differentiated_like_maml():
    """One inner SGD step on a support set with create_graph=True, the
    loss of the adapted weights on a query set differentiated with
    respect to the initial weights; in-place ops in the same function."""
    torch.manual_seed(0)
    w1 = torch.randn(3, 8, dtype=torch.float64, requires_grad=True)
    w2 = torch.randn(8, 1, dtype=torch.float64, requires_grad=True)

    def meta_loss(xs, ys, xq, yq, w1, w2):
        def model(x, a, b):
            h = (x @ a).clone()
            h.mul_(0.5).tanh_()          # in place, traced without functionalization
            return h @ b
        inner = ((model(xs, w1, w2) - ys) ** 2).mean()
        g1, g2 = torch.autograd.grad(inner, (w1, w2), create_graph=True)
        a, b = w1 - 0.1 * g1, w2 - 0.1 * g2
        return ((model(xq, a, b) - yq) ** 2).mean()
    data = [torch.randn(10, 3, dtype=torch.float64), torch.randn(10, 1, dtype=torch.float64),
            torch.randn(12, 3, dtype=torch.float64), torch.randn(12, 1, dtype=torch.float64)]
    got = _no_fallback(stax.compile(meta_loss), *data, w1, w2)
    want = meta_loss(*data, w1, w2)
    _close(got.detach(), want.detach(), "meta loss")
    for a, b in zip(torch.autograd.grad(got, (w1, w2)),
                    torch.autograd.grad(want, (w1, w2))):
        _close(a, b, "meta gradient")


def test_in_place_view_ops_next_to_an_inner_gradient():
    """In-place view ops next to an inner gradient: on a tensor of the
    function's own they compute as their functional twins; on an input (the
    caller's tensor would change shape) the function runs in PyTorch, with
    the warning."""
    def own(x, w):
        h = torch.tanh(x @ w)
        (g,) = torch.autograd.grad(h.sum(), w, create_graph=True)
        g = g * 1.0
        g.unsqueeze_(0).squeeze_(0).t_()
        return (g ** 2).sum() + h.sum()

    def on_input(x, w):
        (g,) = torch.autograd.grad(torch.tanh(x @ w).sum(), w, create_graph=True)
        x.unsqueeze_(0)
        return (g ** 2).sum()
    x = torch.randn(5, 4, dtype=torch.float64)
    w = torch.randn(4, 3, dtype=torch.float64, requires_grad=True)
    (got,) = torch.autograd.grad(_no_fallback(stax.compile(own), x, w), w)
    (want,) = torch.autograd.grad(own(x, w), w)
    _close(got, want, "gradient")
    with pytest.warns(UserWarning, match="changes the shape or strides of an input"):
        y = stax.compile(on_input)(x.clone(), w)
    _close(y.detach(), on_input(x.clone(), w).detach(), "value")


def _writes_through_views(x, w):
    """Writes through a slice and a select of a tensor the function reads
    afterwards (it was split around the write, which lost it)."""
    (g,) = torch.autograd.grad(torch.tanh(x @ w).sum(), w, create_graph=True)
    b = g.clone()
    b[1:3] = 0
    b[0].mul_(2)
    return (b * w).sum()


def _functorch_jacobian(x, w):
    """jacrev fills its basis through a diagonal view."""
    from functorch import jacrev
    return jacrev(lambda v: torch.tanh(x @ v).sum(0))(w).pow(2).sum()


def _functorch_hessian(x, w):
    from functorch import hessian
    return hessian(lambda v: torch.tanh(x @ v).sum())(w).sum()


@pytest.mark.parametrize("f", [_writes_through_views, _functorch_jacobian,
                               _functorch_hessian])
def test_writes_through_views_next_to_an_inner_gradient(f):
    """The trace without functionalization is functionalized once more
    (it no longer calls autograd): writes through views become scatters
    and the function compiles whole."""
    torch.manual_seed(0)
    x = torch.randn(5, 4, dtype=torch.float64)
    w = torch.randn(4, dtype=torch.float64, requires_grad=True)
    got = _no_fallback(stax.compile(f), x, w)
    want = f(x, w)
    _close(got.detach(), want.detach(), "value")
    _close(torch.autograd.grad(got, w)[0], torch.autograd.grad(want, w)[0],
           "gradient")


@pytest.mark.parametrize("name", ["leaky_relu", "max_pool2d", "avg_pool2d",
                                  "reflect_pad"])
def test_double_backward_through_piecewise_linear_functions_is_zero(name):
    """A gradient penalty through a function whose derivative is piecewise
    constant (leaky_relu, poolings, padding): eager's graph reads x in the
    backward formulas, so the second derivative is a tensor of zeros, not
    autograd.grad's "not used in the graph" error."""
    f = {"leaky_relu": lambda x: F.leaky_relu(x, 0.2),
         "max_pool2d": lambda x: F.max_pool2d(x, 2),
         "avg_pool2d": lambda x: F.avg_pool2d(x, 2),
         "reflect_pad": lambda x: F.pad(x, (1, 1, 1, 1), mode="reflect")}[name]
    x = torch.randn(2, 3, 4, 4)
    r = torch.randn(f(x).shape)
    results = []
    for fn in (f, stax.compile(f)):
        xx = x.clone().requires_grad_()
        (g,) = torch.autograd.grad((fn(xx) * r).sum(), xx, create_graph=True)
        results.append(torch.autograd.grad((g ** 2).sum(), xx)[0])
    assert torch.equal(results[0], results[1])
    assert not results[1].any()


def test_gradient_penalty_through_convolutions_compiles():
    """WGAN-GP's penalty differentiates a convolutional critic inside the
    compiled function (autograd.grad(create_graph=True)): the traced
    convolution_backward is decomposed (no fallback), and the penalty's
    gradients of every parameter, the conv bias's zeros included, are
    eager's (float64: the same sums in another order)."""
    import copy
    torch.manual_seed(0)
    critic = nn.Sequential(nn.Conv2d(3, 4, 3, stride=2, padding=1),
                           nn.LeakyReLU(0.2),
                           nn.Conv2d(4, 4, 3, dilation=2, groups=2),
                           nn.LeakyReLU(0.2), nn.Flatten(),
                           nn.Linear(4 * 2 * 3, 1)).double()
    reference = copy.deepcopy(critic)

    def penalty(model):
        def gp(x):
            (g,) = torch.autograd.grad(model(x).sum(), x, create_graph=True)
            return ((g.flatten(1).norm(dim=1) - 1) ** 2).mean()
        return gp

    x = torch.randn(2, 3, 12, 13, dtype=torch.float64)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = stax.compile(penalty(critic))(x.clone().requires_grad_())
    got.backward()
    want = penalty(reference)(x.clone().requires_grad_())
    want.backward()
    assert torch.allclose(got, want, rtol=1e-12, atol=0)
    for a, b in zip(critic.parameters(), reference.parameters()):
        assert (a.grad is None) == (b.grad is None)
        if b.grad is not None:
            assert torch.allclose(a.grad, b.grad, rtol=1e-10, atol=1e-14)
