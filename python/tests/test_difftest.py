"""The differential tester (stax.difftest) on 200 random programs, and its
delta debugging.

Each program goes through every stage: import, the interpreter in float32
and float64 against eager PyTorch, the lowering pipeline bitwise, compiled
CPU code, joint-graph gradients against central differences. The long run
is `python3 -m stax.difftest --n 10000` (docs/Guide.md, Testing)."""

import warnings

import pytest

from stax import difftest

warnings.filterwarnings("ignore")


@pytest.mark.parametrize("block", range(4))
def test_random_programs_agree_everywhere(block):
    failures = difftest.run(50, seed=50 * block, out=None, log=lambda s: None)
    assert not failures, "; ".join(f"{m.stage}: {m.msg}" for m in failures)


@pytest.mark.parametrize("block", range(2))
def test_larger_random_programs_agree_everywhere(block):
    # Dims past a vector, odd tails, tiles and reductions long enough to
    # split: the code generation paths that 2..5 never reach.
    failures = difftest.run(25, seed=10000 + 25 * block, out=None,
                            log=lambda s: None, sizes=(7, 16, 17, 33, 64),
                            max_numel=1 << 14)
    assert not failures, "; ".join(f"{m.stage}: {m.msg}" for m in failures)


def test_programs_are_varied():
    names = set()
    for seed in range(600):
        names |= {s.name for s in difftest.random_program(seed).steps}
    # Every family of the generator shows up in the 600 programs (the
    # three-operand steps need three broadcastable values: about one
    # program in a hundred has one).
    for family in ("matmul", "sort", "layer_norm", "cumsum", "softmax", "cat",
                   "transpose", "narrow", "where", "gelu", "reshape", "bmm",
                   "gather", "index_select", "getitem", "topk", "scatter_add",
                   "index_add", "index_put", "setslice", "inplace_view",
                   "masked_fill", "slice_step", "expand", "roll", "repeat",
                   "pad", "tril", "conv", "max_pool", "avg_pool",
                   "cross_entropy", "nll_loss", "mse_loss", "batch_norm",
                   "group_norm", "instance_norm", "embedding", "interpolate",
                   "cummax", "logcumsumexp", "prod", "pow", "diff", "unfold",
                   "einsum", "lerp", "kthvalue"):
        assert family in names, family


def test_results_are_the_values_no_step_reads():
    # No step is dead code: every value is a result or read by a later step.
    for seed in range(50):
        p = difftest.random_program(seed)
        read = {a for s in p.steps for a in s.args}
        n = len(p.inputs)
        results = difftest._results(p, [x.detach() for x in p.inputs])
        leaves = [k for k in range(n, n + len(p.steps)) if k not in read]
        assert len(results) == len(leaves) >= 1


def test_minimize_keeps_the_failure_and_drops_the_rest(monkeypatch):
    p = None
    for seed in range(1000):
        q = difftest.random_program(seed, max_steps=12)
        names = [s.name for s in q.steps]
        if "tanh" in names and names.index("tanh") >= 2 and len(names) >= 6:
            p = q
            break
    assert p is not None

    def fake_check(prog, stages=difftest.STAGES):
        if any(s.name == "tanh" for s in prog.steps):
            raise difftest.Mismatch("f32", "tanh is wrong")
    monkeypatch.setattr(difftest, "check", fake_check)
    small = difftest.minimize(p, "f32")
    names = [s.name for s in small.steps]
    assert names[-1] == "tanh"                     # shortest failing prefix
    assert len(names) <= len(p.steps)
    # Every earlier step whose result has its first argument's shape was
    # replaced by the identity: only shape-changing steps remain.
    vals = [x.detach() for x in small.inputs]
    for s in small.steps:
        vals.append(s.op(*[vals[a] for a in s.args]))
    n = len(small.inputs)
    for k, s in enumerate(small.steps[:-1]):
        assert (s.name == "identity"
                or vals[n + k].shape != vals[s.args[0]].shape), s.name
    text = difftest.reproducer(small, difftest.Mismatch("f32", "tanh is wrong"))
    assert text.startswith("// stax.difftest reproducer: seed")
    assert "func.func @forward" in text


def _kinked_program():
    # A sort of 513 values per column (matmul, transpose, sort): some pair
    # of values is closer than the central differences' step along every
    # direction drawn.
    return difftest.random_program(3509, max_steps=14,
                                   sizes=(7, 16, 17, 33, 64, 300, 513),
                                   max_numel=1 << 16)


def test_a_kink_along_every_direction_checks_against_autograd(monkeypatch):
    p = _kinked_program()
    assert "sort" in [s.name for s in p.steps]
    compared = []
    check = difftest._check_grad_against_autograd

    def recorded(*args):
        check(*args)
        compared.append(True)
    monkeypatch.setattr(difftest, "_check_grad_against_autograd", recorded)
    difftest.check(p, stages=("import", "grad"))
    assert compared == [True]


def test_the_autograd_comparison_finds_a_wrong_gradient():
    import torch
    p = _kinked_program()
    xs64 = [x.detach().double() for x in p.inputs]
    cs = [torch.ones_like(y) for y in difftest._results(p, xs64)]
    xs = [x.clone().requires_grad_() for x in xs64]
    total = sum((c * y).sum() for c, y in zip(cs, difftest._results(p, xs)))
    grads = [torch.zeros_like(x) if g is None else g.detach().clone()
             for x, g in zip(xs64, torch.autograd.grad(total, xs,
                                                       allow_unused=True))]
    difftest._check_grad_against_autograd(p, "", xs64, cs, grads, 1e-9)
    grads[0].view(-1)[5] += 1e-6
    with pytest.raises(difftest.Mismatch, match="input 0 at flat index 5"):
        difftest._check_grad_against_autograd(p, "", xs64, cs, grads, 1e-9)
