"""Random programs of views, in-place writes and no_grad regions, compiled
and run eagerly: values and gradients must agree (float64, relative 1e-9:
the programs are elementwise apart from the final sums).

Each program starts from t0 = x * w and t1 = tanh(x) + w and applies a few
statements drawn from: clone, slice assignment, mul_/clamp_/div_/copy_/
+= in place, an add_ into a column view, views (slices, transposes) kept
for later, a detached product; each statement runs under torch.no_grad()
with probability 0.35. The class of bugs it guards: writes through views
lost or reordered, writes under no_grad differentiated, no_grad results
whose later writes lost their gradient. Programs eager rejects (in-place
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
        k = rng.randrange(13)
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
