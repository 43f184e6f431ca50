"""stax.compile(fn, target="cuda"): the kernels run through the CUDA
launcher (libcuda.so.1, loaded at run time).

Without a driver or GPU (CI, developer machines) a call raises StaxError
saying what is missing; a fake driver (test/stax-run/Inputs/fake-cuda.c,
which runs no kernel) checks the launcher's plumbing from Python: CPU tensors
travel through device memory, driver errors come back naming the kernel. On
a GPU machine, corpus models match the CPU compilation within the error
bound of docs/Numerics.md (scripts/gpu-check.sh runs them all).
"""

import os
import shutil
import subprocess
import sys
import textwrap
import warnings
from pathlib import Path

import pytest
import torch

import stax
from stax import corpus
from stax._capi import StaxError
from corpus_checks import check_within_bound, cuda_unavailable, outputs
from stax.numerics import error_bound

ROOT = Path(__file__).resolve().parents[2]
FAKE_DRIVER = ROOT / "test" / "stax-run" / "Inputs" / "fake-cuda.c"
CLANG = shutil.which("clang-22") or "/usr/lib/llvm-22/bin/clang"


def _add_relu(x, y):
    return torch.relu(x + y) * 2


def test_unknown_target_is_rejected():
    with pytest.raises(StaxError, match="'cpu' and 'cuda'"):
        stax.compile(_add_relu, target="tpu")


def test_call_without_driver_raises_clear_error():
    why = cuda_unavailable()
    if why is None:
        pytest.skip("a CUDA driver and GPU are present: test_corpus_on_gpu runs")
    f = stax.compile(_add_relu, target="cuda")
    with pytest.raises(StaxError) as info:
        f(torch.ones(4, 8), torch.ones(4, 8))
    message = str(info.value)
    assert message == why
    assert "\n" not in message
    assert message.startswith(("no CUDA driver: ", "CUDA error CUDA_ERROR_"))
    if not Path("/dev/nvidiactl").exists():
        assert "libcuda.so.1 not found" in message


def _run_with_fake_driver(tmp_path, script, **env):
    """Runs `script` in a Python whose launcher loads the fake driver."""
    if not Path(CLANG).exists():
        pytest.skip(f"no C compiler ({CLANG}) to build the fake CUDA driver")
    fake = tmp_path / "fake-cuda.so"
    subprocess.run([CLANG, "-shared", "-fPIC", str(FAKE_DRIVER), "-o", str(fake)],
                   check=True)
    environ = dict(os.environ, STAX_CUDA_DRIVER=str(fake), **env)
    environ["PYTHONPATH"] = os.pathsep.join(
        [str(ROOT / "python")] + [p for p in [environ.get("PYTHONPATH")] if p])
    return subprocess.run([sys.executable, "-c", textwrap.dedent(script)],
                          env=environ, capture_output=True, text=True,
                          timeout=600)


_FAKE_SCRIPT = """
    import torch, stax
    from stax import corpus
    print(stax.cuda_device())
    m = corpus.get("mlp_gelu")
    f = stax.compile(m.fn, target="cuda")
    inputs = m.make_inputs()
    out = f(*inputs)
    print("forward", f.last_transfer, tuple(out.shape), float(out.abs().sum()))
    out.sum().backward()
    print("backward", f.last_transfer,
          [tuple(x.grad.shape) for x in inputs if x.requires_grad])
"""


def test_cpu_tensors_travel_through_device_memory(tmp_path):
    r = _run_with_fake_driver(tmp_path, _FAKE_SCRIPT)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0] == "Fake GPU (sm_90)"
    # The fake runs no kernel: device memory stays zero.
    assert lines[1].startswith("forward copy ") and lines[1].endswith(" 0.0")
    assert lines[2].startswith("backward copy [")
    assert "fake-cuda: launch forward_forward_kernel " in r.stderr
    assert "fake-cuda: launch forward_backward_kernel " in r.stderr


def test_driver_error_names_the_kernel(tmp_path):
    r = _run_with_fake_driver(tmp_path, _FAKE_SCRIPT,
                              FAKE_CUDA_FAIL="cuLaunchKernel:719")
    assert r.returncode != 0
    last = r.stderr.strip().splitlines()[-1]
    assert last == ("stax._capi.StaxError: CUDA error CUDA_ERROR_LAUNCH_FAILED "
                    "in cuLaunchKernel for kernel 'forward_forward_kernel': "
                    "unspecified launch failure"), r.stderr


GPU_MODELS = ["example_1_1", "mlp_gelu", "layernorm", "softmax_ce", "attention"]


@pytest.mark.parametrize("name", GPU_MODELS)
def test_corpus_on_gpu(name):
    why = cuda_unavailable()
    if why is not None:
        pytest.skip(f"needs a GPU: {why}")
    model = corpus.get(name)
    inputs = model.make_inputs()
    f = stax.compile(model.fn, target="cuda")
    xs = [t.detach().clone().requires_grad_(t.requires_grad) for t in inputs]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        outs = outputs(f(*xs))
    assert f.last_transfer == "copy"
    check_within_bound(name, model, inputs, xs, outs)
    if torch.cuda.is_available():  # CUDA tensors: passed without copies
        dev = [t.detach().cuda() for t in inputs]
        with torch.no_grad():
            outs = outputs(f(*dev))
        assert f.last_transfer == "zero-copy"
        for o, b in zip(outs, error_bound(model.fn, *inputs)):
            assert torch.all((o.cpu().double() - b.ref).abs() <= b.tol), name
