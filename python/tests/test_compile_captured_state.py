"""What a plan assumes about the state a function captures, and when it is
rebuilt or runs in PyTorch instead.

A plan bakes in the Python values and tensors a function reaches besides
its arguments: which captured parameters require grad, their dtypes and
shapes, the values it imports, the errors its operators raise. Each test
changes one of them between calls and compares with eager PyTorch.
"""

import sys
import warnings

import pytest
import torch

import stax

U = torch.finfo(torch.float32).eps / 2


@pytest.fixture(autouse=True)
def _compiled_only():
    """A fallback the test does not expect fails it."""
    with warnings.catch_warnings():
        warnings.filterwarnings("error", message=".*stax.compile.*")
        yield


def _grad(p):
    return None if p.grad is None else p.grad.clone()


def test_unfreezing_captured_parameters_differentiates_them():
    """Fine-tuning: a backbone frozen at the first trace and unfrozen
    later gets gradients (small parameters were constants of the plan,
    large ones lifted inputs without a gradient)."""
    torch.manual_seed(0)
    for width in (4, 80):          # 4x4 weights are constants, 80x80 lifted
        backbone = torch.nn.Linear(width, width).requires_grad_(False)
        head = torch.nn.Linear(width, 1)

        def loss(x):
            return head(backbone(x).relu()).sum()

        compiled = stax.compile(loss)
        x = torch.randn(8, width)
        compiled(x).backward()
        assert backbone.weight.grad is None
        backbone.requires_grad_(True)
        got = []
        for fn in (compiled, loss):
            backbone.zero_grad(set_to_none=True)
            head.zero_grad(set_to_none=True)
            fn(x).backward()
            got.append([_grad(p) for p in (backbone.weight, backbone.bias, head.weight)])
        for c, e in zip(*got):
            assert c is not None and e is not None
            torch.testing.assert_close(c, e, rtol=64 * width * U, atol=64 * width * U)


def test_alternating_frozen_networks_keep_a_plan_each():
    """A GAN step freezes the other network's parameters and unfreezes
    them for its own step: each pattern has its plan (no trace per step),
    and each gives the gradients eager gives, None for the frozen ones."""
    torch.manual_seed(0)
    gen, disc = torch.nn.Linear(3, 4), torch.nn.Linear(4, 1)

    def gan_loss(z):
        return disc(torch.tanh(gen(z))).sum()

    compiled = stax.compile(gan_loss)
    z = torch.randn(5, 3)
    for step in range(4):
        frozen, trained = (disc, gen) if step % 2 == 0 else (gen, disc)
        frozen.requires_grad_(False)
        trained.requires_grad_(True)
        results = []
        for fn in (gan_loss, compiled):
            for p in list(gen.parameters()) + list(disc.parameters()):
                p.grad = None
            fn(z).backward()
            results.append([_grad(p) for p in list(gen.parameters())
                            + list(disc.parameters())])
        for e, c in zip(*results):
            assert (e is None) == (c is None)
            if e is not None:
                torch.testing.assert_close(c, e, rtol=32 * U, atol=32 * U)
    assert compiled._count == 2


def test_parameters_changed_in_place_trace_again():
    """`module.double()` and pruning (`p.data = smaller`) keep the
    Parameter objects a plan lifted: the plan is rebuilt for their new
    dtype and shape (its call refused them before)."""
    torch.manual_seed(0)
    emb = torch.nn.Embedding(10, 4)
    f = stax.compile(lambda idx: emb(idx).sum(-1))
    idx = torch.tensor([1, 2, 3])
    f(idx)
    emb.double()
    got = f(idx)
    assert got.dtype == torch.float64
    assert torch.equal(got, emb(idx).sum(-1))

    lin = torch.nn.Linear(4, 4)
    g = stax.compile(lambda x: lin(x))
    x = torch.randn(2, 4)
    g(x)
    lin.weight.data = torch.randn(3, 4)
    lin.bias.data = torch.randn(3)
    got = g(x)
    assert got.shape == (2, 3)
    torch.testing.assert_close(got, lin(x), rtol=8 * U, atol=8 * U)


def test_tensors_made_to_require_grad_inside_run_in_pytorch():
    """A leaf made inside the function (requires_grad=True, requires_grad_()
    on a detached copy): eager's results have a graph from it and its
    .grad is accumulated. Compiled code differentiates only arguments and
    captured tensors: the function runs in PyTorch, with a warning."""
    x = torch.randn(3, 4)
    cases = {
        "factory": lambda x: ((x * (w := torch.ones(4, requires_grad=True))).sum(), w),
        "like": lambda x: ((x * (w := torch.zeros_like(x, requires_grad=True))).sum(), w),
        "requires_grad_": lambda x: ((x * (w := torch.ones(4).requires_grad_())).sum(), w),
        "detached copy": lambda x: ((x * (w := x.detach().clone().requires_grad_())).sum(), w),
    }
    for name, f in cases.items():
        loss, w = f(x)
        loss.backward()
        with pytest.warns(UserWarning, match="stax.compile: runs .* requires grad"):
            got_loss, got_w = stax.compile(f)(x)
        got_loss.backward()
        assert torch.equal(got_loss, loss), name
        assert got_w.grad is not None and torch.equal(got_w.grad, w.grad), name


def test_values_imported_inside_the_function_trace_again(tmp_path):
    """`from cfg import SCALE` and `import cfg as c; c.OFF` inside the
    function read the module's value at each call in eager: a new value
    traces again (the first one was kept)."""
    (tmp_path / "stax_test_settings.py").write_text("SCALE = 1.0\nOFF = 0.0\n")
    sys.path.insert(0, str(tmp_path))
    try:
        import stax_test_settings as cfg

        def scaled(x):
            from stax_test_settings import SCALE
            return x * SCALE

        def shifted(x):
            import stax_test_settings as c
            return x + c.OFF

        cs, ch = stax.compile(scaled), stax.compile(shifted)
        x = torch.ones(2)
        assert cs(x).tolist() == [1.0, 1.0] and ch(x).tolist() == [1.0, 1.0]
        cfg.SCALE, cfg.OFF = 5.0, 2.0
        assert cs(x).tolist() == [5.0, 5.0] and ch(x).tolist() == [3.0, 3.0]
    finally:
        sys.path.remove(str(tmp_path))
        sys.modules.pop("stax_test_settings", None)


def _cholesky_with_jitter(k):
    try:
        return torch.linalg.cholesky(k)
    except RuntimeError:
        return torch.linalg.cholesky(k + 1e-3 * torch.eye(k.shape[0]))


def test_factorization_errors_are_raised_or_caught_as_in_eager():
    """`linalg.cholesky` of a matrix that is not positive definite and
    `linalg.inv` of a singular one raise in eager (the check after their
    `_ex` op); compiled, the check had no users and was dropped: garbage
    came back. A function that catches the error (jitter added) gets
    eager's result."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=".*stax.compile.*")
        inv = stax.compile(lambda a: torch.linalg.inv(a) * 2)
        chol = stax.compile(_cholesky_with_jitter)
        good = torch.eye(3) * 2
        assert torch.equal(inv(good), torch.linalg.inv(good) * 2)
        assert torch.equal(chol(good), _cholesky_with_jitter(good))
        with pytest.raises(RuntimeError, match="singular"):
            inv(torch.zeros(3, 3))
        singular = torch.ones(3, 3)
        assert torch.equal(chol(singular), _cholesky_with_jitter(singular))


def test_in_place_write_to_an_activation_runs_in_pytorch():
    """`h.relu_()` on an argument that requires grad (an activation, not
    a leaf): eager rewrites its autograd history, a plan cannot. It runs
    in PyTorch, and the warning says why (it spoke of a leaf before)."""
    torch.manual_seed(0)
    lin = torch.nn.Linear(4, 4)

    def block(h):
        h.relu_()
        return lin(h)

    compiled = stax.compile(block)
    x = torch.randn(2, 4, requires_grad=True)
    block(x * 2).sum().backward()
    want = x.grad.clone()
    x.grad = None
    with pytest.warns(UserWarning, match="writes in place to a tensor that requires grad"):
        compiled(x * 2).sum().backward()
    assert torch.equal(x.grad, want)


def test_optimizer_steps_run_in_pytorch_once():
    """A function reaching a torch.optim optimizer (a compiled
    `opt.step()`, a train step, a trainer's method) runs in PyTorch
    without tracing: each trace attempt ran the step, so one call applied
    SGD's momentum step three times, and a failed Adam trace left a
    functorch tensor in its state."""
    torch.manual_seed(0)
    p, q = torch.nn.Parameter(torch.ones(3)), torch.nn.Parameter(torch.ones(3))
    p.grad, q.grad = torch.ones(3), torch.ones(3)
    sgd = torch.optim.SGD([p], lr=0.1, momentum=0.9)
    adam = torch.optim.Adam([q], lr=0.1)
    for opt in (sgd, adam):
        with pytest.warns(UserWarning, match="reaches a torch.optim optimizer"):
            stax.compile(lambda: opt.step())()
    assert torch.equal(p.detach(), torch.full((3,), 0.9))
    assert torch.equal(sgd.state[p]["momentum_buffer"], torch.ones(3))
    assert type(adam.state[q]["step"]) is torch.Tensor
    assert adam.state[q]["step"].item() == 1.0

    model = torch.nn.Linear(3, 1)
    eager_model = torch.nn.Linear(3, 1)
    eager_model.load_state_dict(model.state_dict())

    class Trainer:
        def __init__(self, m):
            self.model, self.opt = m, torch.optim.SGD(m.parameters(), lr=0.1, momentum=0.9)

        def step(self, x, y):
            self.opt.zero_grad()
            loss = torch.nn.functional.mse_loss(self.model(x), y)
            loss.backward()
            self.opt.step()
            return loss.detach()

    x, y = torch.randn(4, 3), torch.randn(4, 1)
    compiled, eager = Trainer(model), Trainer(eager_model)
    step = stax.compile(compiled.step)
    with pytest.warns(UserWarning, match="reaches a torch.optim optimizer"):
        for _ in range(3):
            assert torch.equal(step(x, y), eager.step(x, y))
    assert torch.equal(model.weight, eager_model.weight)
