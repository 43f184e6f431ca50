"""scripts/gpu-check.sh without a GPU: its arguments, its plan, the clear
failure where no driver exists, and (with the fake driver of
test/stax-run/Inputs/fake-cuda.c, whose kernels compute nothing) that a
mismatch fails loudly. The GPU run itself needs a GPU machine."""

import os
import shutil
import subprocess
from pathlib import Path

import pytest

import stax
from stax._capi import StaxError

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "gpu-check.sh"
FAKE_DRIVER = ROOT / "test" / "stax-run" / "Inputs" / "fake-cuda.c"
CLANG = shutil.which("clang-22") or "/usr/lib/llvm-22/bin/clang"


def run(*args, **env):
    return subprocess.run([str(SCRIPT), *args], capture_output=True, text=True,
                          env=dict(os.environ, **env), timeout=600)


def test_help():
    r = run("--help")
    assert r.returncode == 0
    assert "scripts/gpu-check.sh --no-build" in r.stdout


@pytest.mark.parametrize("args, message", [
    (["--bogus"], "unknown argument '--bogus'"),
    (["--reps"], "--reps needs a value"),
    (["--no-build", "--models", "nope"], "unknown corpus model(s): nope"),
    (["--no-build", "--reps", "0"], "--reps must be at least 1"),
])
def test_bad_arguments_fail_before_building(args, message):
    r = run(*args)
    assert r.returncode == 2
    assert message in r.stderr
    assert "building" not in r.stdout


def test_dry_run_shows_the_build_and_the_models():
    r = run("--dry-run", "--models", "mlp_gelu,mse", STAX_BUILD_DIR="build-x")
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines() == [
        "gpu-check: would build: STAX_BUILD_DIR=build-x scripts/build.sh",
        "gpu-check: would check on the GPU: mlp_gelu mse"]


def test_without_gpu_it_fails_with_the_reason():
    try:
        stax.cuda_device()
        pytest.skip("a GPU is present: scripts/gpu-check.sh would run")
    except StaxError as e:
        why = str(e)
    r = run("--no-build", "--models", "mse")
    assert r.returncode == 1
    assert f"gpu-check: no GPU: {why}" in r.stderr


def test_mismatch_fails_loudly(tmp_path):
    if not Path(CLANG).exists():
        pytest.skip(f"no C compiler ({CLANG}) to build the fake CUDA driver")
    fake = tmp_path / "fake-cuda.so"
    subprocess.run([CLANG, "-shared", "-fPIC", str(FAKE_DRIVER), "-o", str(fake)],
                   check=True)
    r = run("--no-build", "--models", "mse", "--reps", "1", "--probe-mib", "0",
            STAX_CUDA_DRIVER=str(fake))
    assert r.returncode == 1
    assert "gpu-check on Fake GPU (sm_90)" in r.stdout
    assert "FAIL mse output #0: GPU outside the bound" in r.stdout
    assert "gpu-check: FAILED" in r.stderr
    # Bandwidth lines: kernel, ideal bytes, fastest launch (the fake's 1 ms).
    assert "forward_forward_kernel" in r.stdout and "% of copy" in r.stdout
