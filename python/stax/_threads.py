"""Whether PyTorch's OpenMP workers spin on the cores compiled code needs.

Compiled code runs its parallel loops on LLVM's OpenMP runtime (libomp);
Debian's PyTorch runs its own on GNU's (libgomp), whose idle workers spin
for a few milliseconds after every parallel operator unless
OMP_WAIT_POLICY=passive (or GOMP_SPINCOUNT) was set when libgomp loaded.
A compiled call that starts meanwhile waits for its own worker, which
shares a core with the spinning one: on the 2-core development VM a
TransformerEncoderLayer training step took 7.5-8 ms instead of 1.9 ms.
`import stax` before `import torch` sets the policy; afterwards it is too
late, and this module says so.
"""
import os
import warnings
from typing import Optional


def loaded_library(fragment: str) -> Optional[str]:
    """The path of a shared library this process has mapped whose path
    contains `fragment`, or None (also where /proc cannot be read)."""
    try:
        with open("/proc/self/maps") as maps:
            for line in maps:
                path = line.split()[-1]
                if fragment in path and ".so" in path:
                    return path
    except OSError:
        pass
    return None


def warn_if_gnu_openmp_spins() -> None:
    """One warning when libgomp is loaded with its default (spinning) wait
    policy; nothing when the user chose a policy or a spin count."""
    if os.environ.get("OMP_WAIT_POLICY") or os.environ.get("GOMP_SPINCOUNT"):
        return
    if loaded_library("libgomp") is None:
        return
    warnings.warn(
        "stax was imported after torch: PyTorch's OpenMP workers (libgomp) "
        "spin between operators on the cores that compiled code runs on, "
        "which makes compiled calls several times slower on few cores. "
        "Import stax before torch, or set OMP_WAIT_POLICY=passive in the "
        "environment before starting Python.", RuntimeWarning, stacklevel=3)
