"""ctypes binding of Stax's C API (include/Stax-c/Stax.h).

The native library is looked up in $STAX_LIB_DIR, then in the repository's
build/lib, so `PYTHONPATH=<repo>/python` works once the README build ran.
"""

import ctypes
import re
import os
from pathlib import Path
from typing import Optional

import numpy as np


class _Buffer(ctypes.Structure):
    _fields_ = [
        ("rank", ctypes.c_int64),
        ("shape", ctypes.POINTER(ctypes.c_int64)),
        ("dtype", ctypes.c_char * 8),
        ("data", ctypes.c_void_p),
    ]


class StaxError(RuntimeError):
    """An error reported by Stax, with MLIR diagnostics (file:line:col) in
    its message."""


class StaxIndexError(StaxError, IndexError):
    """A compiled call's index out of bounds: an IndexError too, as
    PyTorch's index_select, embedding or x[i] raise, so that `except
    IndexError` in the caller's code catches it."""


def _call_error(message: str) -> StaxError:
    """The exception for a compiled call's run-time error `message`."""
    if "out of bounds" in message:
        return StaxIndexError(message)
    return StaxError(message)


def _library_path() -> Path:
    candidates = []
    if os.environ.get("STAX_LIB_DIR"):
        candidates.append(Path(os.environ["STAX_LIB_DIR"]))
    candidates.append(Path(__file__).resolve().parents[2] / "build" / "lib")
    for d in candidates:
        p = d / "libStaxCAPI.so"
        if p.exists():
            return p
    raise StaxError(
        "libStaxCAPI.so not found (looked in %s); build Stax first "
        "(see README.md)" % ", ".join(str(c) for c in candidates))


_lib = None


def lib():
    global _lib
    if _lib is None:
        l = ctypes.CDLL(str(_library_path()))
        l.staxRunPipeline.restype = ctypes.c_void_p
        l.staxRunPipeline.argtypes = [ctypes.c_char_p, ctypes.c_char_p,
                                      ctypes.c_int,
                                      ctypes.POINTER(ctypes.c_void_p)]
        l.staxInterpret.restype = ctypes.c_int
        l.staxInterpret.argtypes = [
            ctypes.c_char_p, ctypes.c_char_p, ctypes.c_int64,
            ctypes.POINTER(_Buffer), ctypes.c_int,
            ctypes.POINTER(ctypes.POINTER(_Buffer)),
            ctypes.POINTER(ctypes.c_int64), ctypes.POINTER(ctypes.c_void_p)]
        l.staxInterpreterHasKernel.restype = ctypes.c_int
        l.staxInterpreterHasKernel.argtypes = [ctypes.c_char_p]
        l.staxListOperations.restype = ctypes.c_void_p
        l.staxListOperations.argtypes = [ctypes.c_char_p]
        l.staxOpIsDifferentiable.restype = ctypes.c_int
        l.staxOpIsDifferentiable.argtypes = [ctypes.c_char_p]
        l.staxFreeString.argtypes = [ctypes.c_void_p]
        l.staxFreeBuffers.argtypes = [ctypes.POINTER(_Buffer), ctypes.c_int64]
        _lib = l
    return _lib


def _take_string(ptr) -> str:
    if not ptr:
        return ""
    s = ctypes.string_at(ptr).decode("utf-8", "replace")
    lib().staxFreeString(ptr)
    return s


#: staxRunPipeline's print flags (include/Stax-c/Stax.h).
_PRINT_GENERIC, _PRINT_LOCATIONS = 1, 2


def run_pipeline(module_text: str, pipeline: str = "", generic: bool = False,
                 locations: bool = False) -> str:
    """`module_text` after `pipeline`, printed in generic form or not, with
    every op's location or not (`locations`: the importer's FX node names
    survive into later passes' and run-time errors)."""
    err = ctypes.c_void_p()
    flags = (_PRINT_GENERIC if generic else 0) | \
        (_PRINT_LOCATIONS if locations else 0)
    out = lib().staxRunPipeline(module_text.encode(), pipeline.encode(),
                                flags, ctypes.byref(err))
    if not out:
        raise StaxError(_take_string(err.value))
    return _take_string(out)


def time_pipeline(module_text: str, pipeline: str, reps: int = 5,
                  verify: bool = False):
    """(best ms, median ms) of running `pipeline` on an already parsed and
    verified module: parsing, printing and context creation are not timed
    (each run gets an untimed clone of the parsed module); the verifier after
    each pass runs, and is timed, only with verify=True."""
    # Bound on first use: a library built before this entry still serves
    # every other call.
    f = lib().staxTimePipeline
    f.restype = ctypes.c_int
    f.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_int64,
                  ctypes.c_int, ctypes.POINTER(ctypes.c_double),
                  ctypes.POINTER(ctypes.c_double),
                  ctypes.POINTER(ctypes.c_void_p)]
    err = ctypes.c_void_p()
    best, median = ctypes.c_double(), ctypes.c_double()
    rc = f(module_text.encode(), pipeline.encode(), reps, int(verify),
                                ctypes.byref(best), ctypes.byref(median),
                                ctypes.byref(err))
    if rc:
        raise StaxError(_take_string(err.value))
    return best.value, median.value


# NumPy has no bfloat16: bf16 crosses the C API as its raw 16-bit words, a
# uint16 array in NumPy, under a dtype string of its own (kBF16Descr in
# include/Stax/Interpreter/Npy.h). No tp type is uint16, so a uint16
# argument always means bf16 words.
_BF16_DESCR = "<bf16"
_NP_TO_DESCR = {np.dtype(np.float32): "<f4", np.dtype(np.float64): "<f8",
                np.dtype(np.float16): "<f2", np.dtype(np.uint16): _BF16_DESCR,
                np.dtype(np.int64): "<i8", np.dtype(np.int32): "<i4",
                np.dtype(np.int16): "<i2", np.dtype(np.int8): "|i1",
                np.dtype(np.uint8): "|u1", np.dtype(np.bool_): "|b1"}


def _from_buffer(b) -> np.ndarray:
    """A copy of a result buffer; bf16 words widen to float32, which holds
    every bf16 value exactly (bits << 16)."""
    shape = tuple(b.shape[k] for k in range(b.rank))
    count = int(np.prod(shape, dtype=np.int64))
    descr = b.dtype.decode()
    if descr == _BF16_DESCR:
        words = np.frombuffer(ctypes.string_at(b.data, count * 2), np.uint16)
        return (words.astype(np.uint32) << 16).view(np.float32).reshape(shape)
    dtype = np.dtype(descr)
    raw = ctypes.string_at(b.data, count * dtype.itemsize)
    return np.frombuffer(raw, dtype=dtype).reshape(shape).copy()


def interpret(module_text: str, entry: str, arrays, f64: bool = False):
    keep = []
    bufs = (_Buffer * max(len(arrays), 1))()
    for i, a in enumerate(arrays):
        # np.ascontiguousarray turns 0-d arrays into shape (1,); keep the rank.
        a = np.ascontiguousarray(a).reshape(np.shape(a))
        if a.dtype not in _NP_TO_DESCR:
            raise StaxError("argument #%d: unsupported dtype %s" % (i, a.dtype))
        shape = (ctypes.c_int64 * max(a.ndim, 1))(*a.shape)
        keep += [a, shape]
        bufs[i].rank = a.ndim
        bufs[i].shape = shape
        bufs[i].dtype = _NP_TO_DESCR[a.dtype].encode()
        bufs[i].data = a.ctypes.data
    results = ctypes.POINTER(_Buffer)()
    n = ctypes.c_int64()
    err = ctypes.c_void_p()
    rc = lib().staxInterpret(module_text.encode(), entry.encode(), len(arrays),
                             bufs, int(f64), ctypes.byref(results),
                             ctypes.byref(n), ctypes.byref(err))
    if rc != 0:
        raise StaxError(_take_string(err.value))
    out = []
    try:
        for i in range(n.value):
            out.append(_from_buffer(results[i]))
    finally:
        lib().staxFreeBuffers(results, n.value)
    return out


def check_pipeline_options(options: str) -> None:
    """Raises StaxError naming the option or value of `options` that does
    not parse as --stax-pipeline options."""
    l = lib()
    l.staxCheckPipelineOptions.restype = ctypes.c_int
    l.staxCheckPipelineOptions.argtypes = [ctypes.c_char_p,
                                           ctypes.POINTER(ctypes.c_void_p)]
    err = ctypes.c_void_p()
    if l.staxCheckPipelineOptions(options.encode(), ctypes.byref(err)):
        raise StaxError(_take_string(err.value))


def has_kernel(op_name: str) -> bool:
    return bool(lib().staxInterpreterHasKernel(op_name.encode()))


def list_operations(dialect: str = "tp"):
    return _take_string(lib().staxListOperations(dialect.encode())).split()


def is_differentiable(op_name: str) -> bool:
    return bool(lib().staxOpIsDifferentiable(op_name.encode()))


_TYPE = re.compile(r"tensor<(?:((?:\d+x)*)?)([a-z]+\d*)>")
# bf16 is uint16 here, the raw words, as for staxInterpret's arguments.
_MLIR_TO_NP = {"f32": np.float32, "f64": np.float64, "f16": np.float16,
               "bf16": np.uint16, "i64": np.int64, "i32": np.int32,
               "i16": np.int16, "i8": np.int8, "ui8": np.uint8, "i1": np.bool_}


def _parse_type(text: str):
    m = _TYPE.fullmatch(text.strip())
    if not m or m.group(2) not in _MLIR_TO_NP:
        raise StaxError("compiled code does not support type %s" % text)
    dims = tuple(int(d) for d in m.group(1).split("x") if d) if m.group(1) else ()
    return dims, np.dtype(_MLIR_TO_NP[m.group(2)])


class Executable:
    """Machine code for a module (staxCompile). Call functions with
    call_raw(entry, pointers): the inputs' then the results' data pointers,
    each the contiguous row-major storage of its declared type."""

    def __init__(self, module_text: str, options: str = "",
                 keep_llvm_ir: bool = False, cache_dir: Optional[str] = None):
        l = lib()
        if not hasattr(l, "_stax_compile_bound"):
            l.staxCompile.restype = ctypes.c_void_p
            l.staxCompile.argtypes = [ctypes.c_char_p, ctypes.c_char_p,
                                      ctypes.POINTER(ctypes.c_void_p),
                                      ctypes.POINTER(ctypes.c_void_p)]
            l.staxExecutableCall.restype = ctypes.c_int
            l.staxExecutableCall.argtypes = [
                ctypes.c_void_p, ctypes.c_char_p,
                ctypes.POINTER(ctypes.c_void_p), ctypes.c_int64,
                ctypes.POINTER(ctypes.c_void_p)]
            l.staxExecutableCallHost.restype = ctypes.c_int
            l.staxExecutableCallHost.argtypes = l.staxExecutableCall.argtypes
            l.staxExecutableSignature.restype = ctypes.c_void_p
            l.staxExecutableSignature.argtypes = [ctypes.c_void_p, ctypes.c_char_p]
            l.staxExecutableDestroy.argtypes = [ctypes.c_void_p]
            l.staxSetNumThreads.argtypes = [ctypes.c_int]
            l.staxCompileCached.restype = ctypes.c_void_p
            l.staxCompileCached.argtypes = [ctypes.c_char_p, ctypes.c_char_p,
                                            ctypes.c_char_p,
                                            ctypes.POINTER(ctypes.c_void_p),
                                            ctypes.POINTER(ctypes.c_void_p)]
            l.staxExecutableFromCache.restype = ctypes.c_int
            l.staxExecutableFromCache.argtypes = [ctypes.c_void_p]
            l._stax_compile_bound = True
        self._lib = l
        err, ir = ctypes.c_void_p(), ctypes.c_void_p()
        ir_out = ctypes.byref(ir) if keep_llvm_ir else None
        if cache_dir is None:  # STAX_CACHE_DIR, when set
            handle = l.staxCompile(module_text.encode(), options.encode(),
                                   ir_out, ctypes.byref(err))
        else:
            handle = l.staxCompileCached(module_text.encode(), options.encode(),
                                         os.fspath(cache_dir).encode(), ir_out,
                                         ctypes.byref(err))
        if not handle:
            raise StaxError(_take_string(err.value))
        self._handle = handle
        self.llvm_ir = _take_string(ir.value) if keep_llvm_ir else None
        # The machine code came from the disk cache (cache_dir, STAX_CACHE_DIR).
        self.from_cache = bool(l.staxExecutableFromCache(handle))
        self._signatures = {}

    def signature(self, entry: str):
        """([(shape, dtype)] of the inputs, [(shape, dtype)] of the results),
        NumPy dtypes; bf16 buffers are uint16 (the bf16 words)."""
        if entry not in self._signatures:
            text = _take_string(self._lib.staxExecutableSignature(
                self._handle, entry.encode()))
            if not text:
                raise StaxError("no compiled function '%s'" % entry)
            ins, outs = text.split(";")
            self._signatures[entry] = (
                [_parse_type(t) for t in ins.split(",") if t],
                [_parse_type(t) for t in outs.split(",") if t])
        return self._signatures[entry]

    def call_raw(self, entry: str, pointers) -> None:
        """Calls `entry` on data pointers: host memory for target=cpu,
        device memory (e.g. CUDA tensors' data_ptr()) for target=cuda."""
        self._call(self._lib.staxExecutableCall, entry, pointers)

    def call_host(self, entry: str, pointers) -> None:
        """Calls `entry` on host memory for every target: target=cuda copies
        the inputs to device memory and the results back."""
        self._call(self._lib.staxExecutableCallHost, entry, pointers)

    def kernel_bytes(self):
        """target=cuda: {kernel name: bytes of the distinct buffers it is
        launched on} (its ideal traffic)."""
        f = self._lib.staxExecutableKernels
        f.restype = ctypes.c_void_p
        f.argtypes = [ctypes.c_void_p]
        out = {}
        for line in _take_string(f(self._handle)).splitlines():
            name, nbytes = line.rsplit(" ", 1)
            out[name] = int(nbytes)
        return out

    def caller(self, entry: str, host: bool = False):
        """A function of the data pointers (inputs, then results) that calls
        `entry` like call_raw (call_host with `host`), with the encoded name
        and the pointer array type made once: for a small kernel, a call's
        cost is mostly this preparation."""
        ins, outs = self.signature(entry)
        array = ctypes.c_void_p * max(len(ins) + len(outs), 1)
        fn = (self._lib.staxExecutableCallHost if host
              else self._lib.staxExecutableCall)
        name = entry.encode()
        exe = self  # the closure keeps the compiled code alive

        def call(pointers) -> None:
            err = ctypes.c_void_p()
            if fn(exe._handle, name, array(*pointers), len(pointers),
                  ctypes.byref(err)):
                raise _call_error(_take_string(err.value))
        return call

    def _call(self, fn, entry: str, pointers) -> None:
        arr = (ctypes.c_void_p * max(len(pointers), 1))(*pointers)
        err = ctypes.c_void_p()
        if fn(self._handle, entry.encode(), arr, len(pointers),
              ctypes.byref(err)):
            raise _call_error(_take_string(err.value))

    def __del__(self):
        if getattr(self, "_handle", None):
            self._lib.staxExecutableDestroy(self._handle)
            self._handle = None


def set_num_threads(threads: int) -> None:
    """Threads of compiled parallel loops; 0 means all cores."""
    if isinstance(threads, bool) or not isinstance(threads, int):
        raise TypeError(f"set_num_threads takes an int, not "
                        f"{type(threads).__name__}")
    if not 0 <= threads <= 1 << 16:
        raise ValueError(f"set_num_threads: {threads} threads; give 0 (all "
                         f"cores) or a count up to 65536")
    l = lib()
    l.staxSetNumThreads.argtypes = [ctypes.c_int]
    l.staxSetNumThreads(threads)


_cuda_device = None


def cuda_device() -> str:
    """The name of the GPU that target=cuda code runs on ("NVIDIA H200
    (sm_90)"); raises StaxError when there is no CUDA driver or device (the
    message says which)."""
    global _cuda_device
    if _cuda_device is None:
        l = lib()
        l.staxCudaInitialize.restype = ctypes.c_int
        l.staxCudaInitialize.argtypes = [ctypes.POINTER(ctypes.c_void_p),
                                         ctypes.POINTER(ctypes.c_void_p)]
        name, err = ctypes.c_void_p(), ctypes.c_void_p()
        if l.staxCudaInitialize(ctypes.byref(name), ctypes.byref(err)):
            raise StaxError(_take_string(err.value))
        _cuda_device = _take_string(name.value)
    return _cuda_device


def cpu_take_profile():
    """{name: (calls, total ms, fastest ms, bytes)} of the nodes, kernels and
    runtime calls of code compiled with the profile=true option, since the
    last call; bytes are the distinct tensors each reads and writes (its
    ideal traffic)."""
    f = lib().staxCpuTakeProfile
    f.restype = ctypes.c_void_p
    out = {}
    for line in _take_string(f()).splitlines():
        name, calls, total, best, nbytes = line.split("\t")
        out[name] = (int(calls), int(total) / 1e6, int(best) / 1e6, int(nbytes))
    return out


def cuda_set_profiling(enable: bool) -> None:
    """Times every CUDA kernel launch (CUDA events) while enabled."""
    lib().staxCudaSetProfiling.argtypes = [ctypes.c_int]
    lib().staxCudaSetProfiling(int(enable))


def cuda_take_profile():
    """{kernel name: (launches, total ms, min ms)} since the last call."""
    f = lib().staxCudaTakeProfile
    f.restype = ctypes.c_void_p
    out = {}
    for line in _take_string(f()).splitlines():
        name, launches, total, best = line.rsplit(" ", 3)
        out[name] = (int(launches), float(total), float(best))
    return out


def cuda_copy_bandwidth(nbytes: int, reps: int = 10) -> float:
    """GB/s (bytes read plus written) of the best of `reps` device-to-device
    copies of `nbytes`."""
    f = lib().staxCudaCopyBandwidth
    f.restype = ctypes.c_int
    f.argtypes = [ctypes.c_int64, ctypes.c_int, ctypes.POINTER(ctypes.c_double),
                  ctypes.POINTER(ctypes.c_void_p)]
    gbps, err = ctypes.c_double(), ctypes.c_void_p()
    if f(int(nbytes), int(reps), ctypes.byref(gbps), ctypes.byref(err)):
        raise StaxError(_take_string(err.value))
    return gbps.value
