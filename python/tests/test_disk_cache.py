"""stax.compile(cache_dir=...): machine code kept on disk between processes
(lib/ExecutionEngine/DiskCache.h). Each run is a fresh Python process, as a
later training job would be."""

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

_SCRIPT = """
    import json, sys, torch, stax
    torch.manual_seed(0)
    mlp = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.GELU(),
                              torch.nn.Linear(32, 4))
    x = torch.randn(8, 16)
    f = stax.compile(mlp, cache_dir=sys.argv[1])
    out = f(x)
    out.sum().backward()
    plan = next(iter(f._plans.values()))
    ref = mlp(x)
    print(json.dumps({
        "from_cache": [plan.fw.from_cache, plan.bw.from_cache],
        "out": out.detach().flatten().tolist(),
        "grads": [p.grad.flatten().tolist() for p in mlp.parameters()],
        "err": float((out - ref).abs().max()),
    }))
"""


def _run(cache_dir):
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        [str(ROOT / "python")] + [p for p in [env.get("PYTHONPATH")] if p])
    env.pop("STAX_CACHE_DIR", None)
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(_SCRIPT),
                           str(cache_dir)], env=env, capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_a_second_process_loads_the_code_and_computes_the_same(tmp_path):
    cache = tmp_path / "cache"
    first = _run(cache)
    assert first["from_cache"] == [False, False]
    assert first["err"] < 1e-5
    # Forward and backward: an object and its metadata each.
    assert len(list(cache.glob("*.o"))) == 2
    assert len(list(cache.glob("*.json"))) == 2
    second = _run(cache)
    assert second["from_cache"] == [True, True]
    # The same machine code: bitwise the same values.
    assert second["out"] == first["out"]
    assert second["grads"] == first["grads"]


def test_corrupt_entries_are_compiled_again_and_replaced(tmp_path):
    cache = tmp_path / "cache"
    first = _run(cache)
    objects = sorted(cache.glob("*.o"))
    metadata = sorted(cache.glob("*.json"))
    objects[0].write_bytes(b"not an object file")
    metadata[1].write_text("{")
    again = _run(cache)
    assert again["from_cache"].count(False) >= 1
    assert again["out"] == first["out"] and again["grads"] == first["grads"]
    # Both entries are whole again.
    assert _run(cache)["from_cache"] == [True, True]
    for m in cache.glob("*.json"):
        assert set(json.loads(m.read_text())) == {"parallel", "errorSites"}


def test_an_unusable_cache_directory_only_loses_the_cache(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("a file, not a directory")
    result = _run(blocker / "cache")
    assert result["from_cache"] == [False, False]
    assert result["err"] < 1e-5
