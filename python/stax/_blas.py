"""Which OpenBLAS kernels the process runs.

Debian 12's OpenBLAS (0.3.21, built with DYNAMIC_ARCH) chooses its kernels
from the CPU model when it loads, and an Intel model newer than it knows
gets the generic SSE3 ones ("Prescott"): on this project's VM (family 6,
model 207) a 256 x 256 x 512 sgemm took 1.08 ms against 0.29 ms with the
AVX-512 kernels. PyTorch (through libblas.so.3) and compiled code
(stax_rt_matmul) call the same library, and OPENBLAS_CORETYPE, read when
it loads, names the kernels. `import stax` before torch sets it, on Intel
CPUs and unless the user did, to the core OpenBLAS's own feature-based
fallback picks (AVX-512 with BF16: Cooperlake; AVX-512: SkylakeX; AVX2 and
FMA: Haswell), which is also the core it picks for the models it knows.
Once OpenBLAS is loaded (by torch or numpy imported first) it is too
late: stax says so when OpenBLAS runs its Prescott kernels on a CPU with
AVX2.
"""
import ctypes
import os
import warnings
from typing import Optional, Set, Tuple

from ._threads import loaded_library

_AVX512 = {"avx512f", "avx512cd", "avx512bw", "avx512dq", "avx512vl"}


def core_for(vendor: str, flags: Set[str]) -> Optional[str]:
    """The OPENBLAS_CORETYPE for a CPU (cpuinfo's vendor_id and flags), or
    None to leave OpenBLAS's own choice."""
    if vendor != "GenuineIntel":
        return None
    if _AVX512 <= flags:
        return "Cooperlake" if "avx512_bf16" in flags else "SkylakeX"
    if {"avx2", "fma"} <= flags:
        return "Haswell"
    return None


def _cpu() -> Tuple[str, Set[str]]:
    vendor, flags = "", set()
    try:
        with open("/proc/cpuinfo") as info:
            for line in info:
                key, _, value = line.partition(":")
                key = key.strip()
                if key == "vendor_id":
                    vendor = value.strip()
                elif key == "flags":
                    flags = set(value.split())
                    break
    except OSError:
        pass
    return vendor, flags


def configure_openblas() -> None:
    """Before OpenBLAS loads: sets OPENBLAS_CORETYPE (see above). After:
    one warning if it runs generic kernels on a CPU with better ones."""
    if "OPENBLAS_CORETYPE" in os.environ:
        return
    vendor, flags = _cpu()
    core = core_for(vendor, flags)
    if core is None:
        return
    if loaded_library("openblas") is None:
        os.environ["OPENBLAS_CORETYPE"] = core
    elif loaded_core() == "Prescott":
        warnings.warn(
            "OpenBLAS was loaded before stax (by torch or numpy) and did not "
            "recognize this CPU: PyTorch's and compiled code's matrix "
            "products run its generic SSE3 kernels, several times slower. "
            f"Import stax first, or set OPENBLAS_CORETYPE={core} in the "
            "environment before starting Python.", RuntimeWarning,
            stacklevel=3)


def loaded_core() -> Optional[str]:
    """The kernels the loaded OpenBLAS runs ("Prescott", "Cooperlake"...),
    None when no OpenBLAS is loaded."""
    path = loaded_library("openblas")
    if path is None:
        return None
    try:
        corename = ctypes.CDLL(path).openblas_get_corename
    except (OSError, AttributeError):
        return None
    corename.restype = ctypes.c_char_p
    return corename().decode()

