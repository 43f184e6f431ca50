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
        assert set(json.loads(m.read_text())) == {"parallel", "errorSites",
                                                  "objectSha256"}


def _section(elf: bytes, name: bytes):
    """(offset, size) of the section `name` of an ELF64 little-endian
    relocatable object."""
    shoff = int.from_bytes(elf[0x28:0x30], "little")
    entsize, count, names = (int.from_bytes(elf[k:k + 2], "little")
                             for k in (0x3A, 0x3C, 0x3E))

    def header(i):
        h = elf[shoff + i * entsize:shoff + (i + 1) * entsize]
        return (int.from_bytes(h[0:4], "little"), int.from_bytes(h[24:32], "little"),
                int.from_bytes(h[32:40], "little"))

    strings = header(names)[1]
    for i in range(count):
        at, offset, size = header(i)
        end = elf.index(b"\0", strings + at)
        if elf[strings + at:end] == name:
            return offset, size
    raise AssertionError(f"no section {name!r}")


def test_damaged_objects_that_still_link_are_compiled_again(tmp_path):
    """A flipped byte in an object's code or constants still links, and ran:
    wrong values or an illegal instruction. The metadata holds the object's
    SHA-256; an object that is not the one stored is compiled again."""
    cache = tmp_path / "cache"
    first = _run(cache)
    for obj in cache.glob("*.o"):
        data = bytearray(obj.read_bytes())
        start, size = _section(data, b".rodata.cst4")
        for at in range(start + 3, start + size, 4):   # each float's exponent
            data[at] ^= 0x01
        obj.write_bytes(bytes(data))
    again = _run(cache)
    assert again["from_cache"] == [False, False]
    assert again["out"] == first["out"] and again["grads"] == first["grads"]
    assert _run(cache)["from_cache"] == [True, True]


def test_entries_that_are_not_regular_files_are_misses(tmp_path):
    """A FIFO in place of an entry blocked the load forever, a link to
    /dev/zero read without bound."""
    cache = tmp_path / "cache"
    first = _run(cache)
    metadata = sorted(cache.glob("*.json"))
    metadata[0].unlink()
    os.mkfifo(metadata[0])
    objects = sorted(cache.glob("*.o"))
    objects[1].unlink()
    objects[1].symlink_to("/dev/zero")
    again = _run(cache)
    assert again["from_cache"].count(False) == 2
    assert again["out"] == first["out"] and again["grads"] == first["grads"]


def test_an_unusable_cache_directory_only_loses_the_cache(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("a file, not a directory")
    result = _run(blocker / "cache")
    assert result["from_cache"] == [False, False]
    assert result["err"] < 1e-5


_IN_PROCESS = """
    import json, sys, stax, torch
    def f(x):
        return (x * 2).sin()
    x = torch.randn(4, 4)
    if sys.argv[2] == "first":
        stax.compile(f)(x)                    # in memory, no cache_dir
    seen = []
    for d in sys.argv[1].split(","):
        g = stax.compile(f, cache_dir=d)
        g(x)
        plan = next(iter(g._plans.values()))
        seen.append(plan.fw.from_cache)
    print(json.dumps(seen))
"""


def test_code_compiled_earlier_in_the_process_is_written_to_each_cache_dir(
        tmp_path):
    """The library's in-memory cache returned the code compiled without a
    cache_dir (or for another one) and never wrote it: a later process
    found nothing."""
    a, b = tmp_path / "a", tmp_path / "b"
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        [str(ROOT / "python")] + [p for p in [env.get("PYTHONPATH")] if p])
    env.pop("STAX_CACHE_DIR", None)

    def run(dirs, phase):
        done = subprocess.run(
            [sys.executable, "-c", textwrap.dedent(_IN_PROCESS),
             ",".join(map(str, dirs)), phase],
            env=env, capture_output=True, text=True, timeout=600)
        assert done.returncode == 0, done.stderr
        return json.loads(done.stdout.strip().splitlines()[-1])

    assert run([a, b], "first") == [False, False]
    for d in (a, b):
        assert len(list(d.glob("*.o"))) == 1, sorted(d.iterdir())
        assert len(list(d.glob("*.json"))) == 1
    # A later process loads what each directory holds.
    assert run([a], "later") == [True]
    assert run([b], "later") == [True]
