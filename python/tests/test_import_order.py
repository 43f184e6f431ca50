"""Importing stax before or after torch (stax/__init__.py, stax/_threads.py):
before, PyTorch's OpenMP workers get OMP_WAIT_POLICY=passive; after, one
RuntimeWarning says that compiled calls will compete with spinning
workers, unless the user chose a policy. Each case is a fresh interpreter:
the policy is read when libgomp loads."""
import os
import subprocess
import sys
from pathlib import Path

PYTHON_DIR = str(Path(__file__).resolve().parents[1])


def run(code, **env_overrides):
    env = {k: v for k, v in os.environ.items()
           if k not in ("OMP_WAIT_POLICY", "GOMP_SPINCOUNT")}
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
    lines = [line for line in done.stderr.splitlines() if "RuntimeWarning" in line]
    assert len(lines) == 1, done.stderr
    # Attributed to the user's import, and names the remedy.
    assert lines[0].startswith("<string>:2: RuntimeWarning: stax was imported after torch")
    assert "Import stax before torch" in lines[0]
    assert "OMP_WAIT_POLICY=passive" in lines[0]


def test_a_policy_the_user_chose_is_kept_without_a_warning():
    for var, value in (("OMP_WAIT_POLICY", "active"), ("GOMP_SPINCOUNT", "0")):
        done = run("import torch, stax; " + PRINT_POLICY, **{var: value})
        assert "RuntimeWarning" not in done.stderr, done.stderr
        expected = value if var == "OMP_WAIT_POLICY" else "None"
        assert done.stdout.strip() == expected
