"""Importing stax before or after torch (stax/__init__.py, stax/_threads.py,
stax/_blas.py): before, PyTorch's OpenMP workers get
OMP_WAIT_POLICY=passive and OpenBLAS the kernels of this CPU; after, one
RuntimeWarning says that compiled calls will compete with spinning
workers, unless the user chose a policy, and one that OpenBLAS runs
generic kernels where it does. Each case is a fresh interpreter: the
settings are read when libgomp and OpenBLAS load."""
import os
import subprocess
import sys
from pathlib import Path

PYTHON_DIR = str(Path(__file__).resolve().parents[1])


def run(code, **env_overrides):
    env = {k: v for k, v in os.environ.items()
           if k not in ("OMP_WAIT_POLICY", "GOMP_SPINCOUNT", "OPENBLAS_CORETYPE")}
    env["PYTHONPATH"] = PYTHON_DIR + os.pathsep + env.get("PYTHONPATH", "")
    env.update(env_overrides)
    done = subprocess.run([sys.executable, "-c", code], env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done


PRINT_POLICY = "import os; print(os.environ.get('OMP_WAIT_POLICY'))"


def test_stax_first_makes_idle_workers_sleep_silently():
    done = run("import stax, torch; " + PRINT_POLICY)
    assert done.stdout.strip() == "passive"
    assert "RuntimeWarning" not in done.stderr, done.stderr


def test_torch_first_warns_once_with_the_fix():
    done = run("import torch\nimport stax\n" + PRINT_POLICY)
    assert done.stdout.strip() == "None"
    lines = [line for line in done.stderr.splitlines()
             if "RuntimeWarning: stax was imported after torch" in line]
    assert len(lines) == 1, done.stderr
    # Attributed to the user's import, and names the remedy.
    assert lines[0].startswith("<string>:2: RuntimeWarning: stax was imported after torch")
    assert "Import stax before torch" in lines[0]
    assert "OMP_WAIT_POLICY=passive" in lines[0]


def test_a_policy_the_user_chose_is_kept_without_a_warning():
    for var, value in (("OMP_WAIT_POLICY", "active"), ("GOMP_SPINCOUNT", "0")):
        done = run("import torch, stax; " + PRINT_POLICY, **{var: value},
                   OPENBLAS_CORETYPE="Haswell")
        assert "RuntimeWarning" not in done.stderr, done.stderr
        expected = value if var == "OMP_WAIT_POLICY" else "None"
        assert done.stdout.strip() == expected


# OpenBLAS's kernels (stax/_blas.py).

PRINT_CORE = ("import os; from stax import _blas; "
              "print(os.environ.get('OPENBLAS_CORETYPE'), _blas.loaded_core())")


def test_core_for_intel_cpus_follows_their_vector_extensions():
    from stax._blas import core_for
    avx512 = {"avx2", "fma", "avx512f", "avx512cd", "avx512bw", "avx512dq",
              "avx512vl"}
    assert core_for("GenuineIntel", avx512 | {"avx512_bf16"}) == "Cooperlake"
    assert core_for("GenuineIntel", avx512) == "SkylakeX"
    assert core_for("GenuineIntel", {"avx2", "fma", "avx512f"}) == "Haswell"
    assert core_for("GenuineIntel", {"sse4_2", "avx"}) is None
    # OpenBLAS knows the other vendors' models by family: its own choice.
    assert core_for("AuthenticAMD", avx512 | {"avx512_bf16"}) is None


def _expected_core():
    from stax._blas import _cpu, core_for
    return core_for(*_cpu())


def test_stax_first_names_the_kernels_openblas_loads():
    done = run("import stax, torch; " + PRINT_CORE)
    env, loaded = done.stdout.split()
    expected = _expected_core()
    assert env == str(expected)
    if expected is not None:
        assert loaded == expected
    assert "RuntimeWarning" not in done.stderr, done.stderr


def test_a_core_the_user_chose_is_kept_without_a_warning():
    done = run("import torch, stax; " + PRINT_CORE, OPENBLAS_CORETYPE="Haswell",
               OMP_WAIT_POLICY="passive")
    assert done.stdout.split() == ["Haswell", "Haswell"]
    assert "RuntimeWarning" not in done.stderr, done.stderr


def test_torch_first_warns_when_openblas_runs_generic_kernels():
    done = run("import torch\nimport stax\n" + PRINT_CORE,
               OMP_WAIT_POLICY="passive")
    env, loaded = done.stdout.split()
    assert env == "None"
    warned = [line for line in done.stderr.splitlines()
              if "RuntimeWarning: OpenBLAS was loaded before stax" in line]
    expected = _expected_core()
    if expected is not None and loaded == "Prescott":
        assert len(warned) == 1 and warned[0].startswith("<string>:2: "), done.stderr
        assert f"OPENBLAS_CORETYPE={expected}" in warned[0]
    else:
        assert not warned, done.stderr
