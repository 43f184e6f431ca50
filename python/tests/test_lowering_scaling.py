"""--stax-lower is linear in the graph when values are read several times.

`for _ in range(n): x = torch.tanh(x * x)` reads each layer's value twice in
one op. Composition used to inline each read separately, doubling the body
and the lowering time per layer (16 layers: 0.3 s, 18: 0.9 s, 30: out of
memory); a body now emits each value once. The timeout only turns a
regression (a hang) into a failure; the assertions are on the IR: one node
whose body has exactly one multiply and one tanh per layer.
"""

import os
import subprocess

import numpy as np
import pytest
import torch

import stax

STAX_OPT = os.path.join(os.environ.get("STAX_LIB_DIR", "build/lib"), "..", "bin",
                        "stax-opt")


def _chain_module(n):
    lines = ["func.func @chain(%x0: tensor<8xf32>) -> tensor<8xf32> {"]
    for i in range(n):
        lines.append("  %%m%d = tp.mul %%x%d, %%x%d : tensor<8xf32>, tensor<8xf32> "
                     "-> tensor<8xf32>" % (i, i, i))
        lines.append("  %%x%d = tp.tanh %%m%d : tensor<8xf32> -> tensor<8xf32>"
                     % (i + 1, i))
    lines.append("  return %%x%d : tensor<8xf32>" % n)
    lines.append("}")
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("n", [16, 64])
def test_shared_reads_lower_once(n):
    out = subprocess.run([STAX_OPT, "-", "--stax-lower"],
                         input=_chain_module(n), capture_output=True,
                         text=True, timeout=120, check=True).stdout
    assert out.count("stax.pointwise") == 1
    assert out.count("math.tanh") == n
    assert out.count("arith.mulf") == n
    assert out.count("stax.load") == 1


def test_traced_chain_lowers_and_runs_bitwise():
    def f(x):
        for _ in range(12):
            x = torch.tanh(x * x)
        return x

    x = torch.rand(4, 8) * 0.5
    text = stax.import_torch(f, x)
    lowered = stax.run_pipeline(
        text, "builtin.module(stax-decompose,func.func(stax-lower))")
    assert lowered.count("math.tanh") == 12
    (a,) = stax.interpret(text, "forward", x.numpy())
    (b,) = stax.interpret(lowered, "forward", x.numpy())
    assert (a == b).all()


def _neg_tanh_chain(n):
    lines = ["func.func @chain(%x0: tensor<8xf32>) -> tensor<8xf32> {"]
    for i in range(n):
        lines.append("  %%y%d = tp.tanh %%x%d : tensor<8xf32> -> tensor<8xf32>"
                     % (i, i))
        lines.append("  %%x%d = tp.neg %%y%d : tensor<8xf32> -> tensor<8xf32>"
                     % (i + 1, i))
    lines += ["  return %%x%d : tensor<8xf32>" % n, "}"]
    return "\n".join(lines) + "\n"


def test_a_long_chain_is_stored_every_256_ops_and_runs():
    """A node fuses at most 256 ops in a chain: a reader emits its
    operands' bodies recursively, and a 20000-op chain overflowed the
    stack of --stax-lower (LLVM's compile time also grew quadratically
    with one body's length). 20000 steps of -tanh(x) (each value read
    once: nothing else stores them) store every 257th value and say why
    with remarks; 300 steps lower into three nodes that interpret bitwise
    like the tp function, and compile and run within the kernels' bound."""
    n = 20000
    done = subprocess.run([STAX_OPT, "-", "--stax-lower=remarks=true",
                           "-o", "/dev/null"], input=_neg_tanh_chain(n),
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    remarks = done.stderr.count("257 ops fused in a chain (limit 256)")
    assert remarks == 2 * n // 257
    text = _neg_tanh_chain(300)
    lowered = stax.run_pipeline(text, "builtin.module(func.func(stax-lower))")
    assert lowered.count("stax.pointwise") == 3
    x = (torch.rand(8) * 0.5).numpy()
    (want,) = stax.interpret(text, "chain", x)
    (got,) = stax.interpret(lowered, "chain", x)
    assert (got == want).all()
    # Compiled: each step's tanh within 1 ulp and |tanh'| <= 1, so the
    # errors add at most linearly: 300 ulp of the largest value.
    from stax._capi import Executable
    out = torch.empty(8)
    Executable(text).call_raw("chain", [x.ctypes.data, out.data_ptr()])
    bound = 300 * 2.0 ** -23 * float(np.abs(want).max())
    assert np.abs(out.numpy() - want).max() <= bound
