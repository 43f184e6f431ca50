"""The README's main job: Example 5.1 from PyTorch through Stax.

    /usr/bin/python3 -m stax.demo        (scripts/main.sh does the set-up)

Imports f(x, W) = F.gelu(x @ W).sum() (x 32x64, W 64x64 requiring grad) with
make_fx, prints its `tp` module, runs it through the reference interpreter in
float32 and float64 and compares with PyTorch within the error bound of
docs/Numerics.md. Exits non-zero when a check fails. Later issues extend this
same job (joint graph, partition, lowering, compiled code).
"""

import sys

import numpy as np
import torch

import stax
from stax import corpus
from stax.numerics import error_bound


def _section(title: str) -> None:
    print("\n== " + title)


def main() -> int:
    model = corpus.get("example_5_1")
    inputs = model.make_inputs()

    _section("Example 5.1: F.gelu(x @ W).sum(), x 32x64, W 64x64 (requires grad)")
    text = stax.import_torch(model.fn, *inputs)
    print(text)

    _section("Reference interpreter vs PyTorch")
    torch32 = model.fn(*inputs).detach().numpy()
    ours32 = stax.interpret(text, "forward", *inputs)[0]
    ours64 = stax.interpret(text, "forward", *inputs, f64=True)[0]
    [bound] = error_bound(model.fn, *inputs)
    tol = float(bound.tol.max())
    ref = float(bound.ref)
    rows = [("PyTorch float32", float(torch32)), ("Stax float32", float(ours32)),
            ("Stax float64", float(ours64)), ("PyTorch float64", ref)]
    for name, value in rows:
        print(f"  {name:16s} {value: .9e}   |diff to float64| = {abs(value - ref):.3e}")
    print(f"  tolerance 2*gamma*u*S = {tol:.3e}  (gamma = {bound.gamma:.0f}, "
          f"u = 2^-24, S = {float(bound.S.max()):.4e})")

    ok = True
    for name, value in rows[:2]:
        if not abs(value - ref) <= tol:
            print(f"  FAIL: {name} is outside the bound")
            ok = False
    if not abs(float(ours32) - float(torch32)) <= tol:
        print("  FAIL: Stax and PyTorch float32 differ by more than the bound")
        ok = False
    if not abs(float(ours64) - ref) <= tol * 2.0 ** -29:
        print("  FAIL: the float64 interpretation differs from PyTorch's float64")
        ok = False
    print("  OK: interpreter agrees with PyTorch" if ok else "  FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
