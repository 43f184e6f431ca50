"""Stax: an MLIR compiler for training and inference graphs.

    import stax
    text = stax.import_torch(fn, *example_inputs)     # tp dialect module
    text = stax.run_pipeline(text, "builtin.module(canonicalize)")
    outs = stax.interpret(text, "forward", *numpy_arrays, f64=False)
"""

import os as _os
import sys as _sys

# Compiled code runs its parallel loops on LLVM's OpenMP runtime; PyTorch
# runs its own on GNU's. By default both keep their idle workers spinning,
# so on a machine with few cores each steals the cores the other needs
# next (measured: an eager TransformerEncoderLayer step 2 -> 32 ms after a
# compiled call, a compiled one 3.5 -> 10 ms after eager ops). Both
# runtimes read OMP_WAIT_POLICY when they start: when stax is imported
# before torch, idle workers sleep. A value the user set is kept.
# Imported after torch, stax cannot change that (GNU's runtime read its
# settings when torch loaded it): say so once, with the fix, rather than
# leave compiled calls 2-4x slower than they should be without a word.
if "torch" not in _sys.modules:
    _os.environ.setdefault("OMP_WAIT_POLICY", "passive")
else:
    from ._threads import warn_if_gnu_openmp_spins as _warn_if_spins
    _warn_if_spins()
# OpenBLAS's kernels for this CPU (see _blas.py), before anything loads it.
from ._blas import configure_openblas as _configure_openblas
_configure_openblas()

from ._capi import StaxError, has_kernel, is_differentiable, list_operations
from ._capi import run_pipeline as _run_pipeline
from ._capi import interpret as _interpret
from ._capi import time_pipeline, set_num_threads, Executable, cuda_device
from ._capi import cpu_take_profile
from .compile import compile, CompiledFunction, CompiledModule

__all__ = ["StaxError", "import_torch", "run_pipeline", "interpret", "has_kernel",
           "is_differentiable", "list_operations", "time_pipeline", "compile",
           "CompiledFunction", "CompiledModule", "Executable", "set_num_threads", "cuda_device",
           "cpu_take_profile"]


def run_pipeline(module_text: str, pipeline: str = "", generic: bool = False,
                 locations: bool = False) -> str:
    """Parses and verifies `module_text`, runs the textual pass pipeline
    (e.g. "builtin.module(canonicalize)"; empty runs nothing) in process and
    returns the printed module, in generic form with `generic`, with every
    op's location with `locations`. Raises StaxError with the
    diagnostics."""
    return _run_pipeline(module_text, pipeline, generic, locations)


def interpret(module_text: str, entry: str, *arrays, f64: bool = False):
    """Runs function `entry` with the reference interpreter on numpy arrays
    (or torch tensors) and returns the results as a list of numpy arrays.
    With f64=True every floating value is computed in float64.

    Every dtype maps to its numpy twin (ui8 to uint8, i1 to bool) except
    bf16, which numpy lacks. A bf16 argument is a torch.bfloat16 tensor, a
    uint16 array of its raw bit patterns
    (`t.view(torch.int16).numpy().view(np.uint16)`) or a float32 array
    (rounded to nearest even, as `.bfloat16()` does). A bf16 result comes
    back as a float32 array holding exactly the bf16 values (each one is a
    float32): `torch.from_numpy(r).bfloat16()` is the bf16 tensor, bit for
    bit."""
    import numpy as np
    converted = []
    for a in arrays:
        if hasattr(a, "detach") and hasattr(a, "numpy"):
            import torch
            a = a.detach().cpu()
            if a.dtype == torch.bfloat16:
                a = a.contiguous().view(torch.int16).numpy().view(np.uint16)
            else:
                a = a.numpy()
        converted.append(np.asarray(a))
    return _interpret(module_text, entry, converted, f64)


def import_torch(fn, *example_inputs, name: str = "forward", **options) -> str:
    """Traces `fn` with make_fx and returns the `tp` module text (see
    stax.importer)."""
    from .importer import import_torch as _import
    return _import(fn, *example_inputs, name=name, **options)
