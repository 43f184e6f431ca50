"""Results of compiled calls in memory the runtime keeps for reuse.

`torch.empty` takes a large tensor fresh from the OS (glibc maps blocks
above its 32 MiB mmap threshold on each allocation and unmaps them on
free), so a compiled function would fault its results' pages in again on
every call: measured on a 2-core VM, 24 ms for a 128 MiB result of `a + b`,
whose sum itself takes 6 ms. Results of at least `MIN_BYTES` are allocated
by the runtime's heap instead (`staxHostAllocate`, the heap of generated
code's arenas: lib/Runtime/Arena.cpp), which keeps freed blocks for the
next call and gives fresh ones transparent huge pages. Each is a torch
tensor over numpy's view of the block; the block goes back to the heap
when the last tensor over it dies.

Such a tensor is an ordinary CPU tensor, except that its storage cannot
grow: `resize_` to more elements (e.g. an `out=` argument of another
shape) raises "Trying to resize storage that is not resizable", as for any
tensor from `torch.from_numpy`.
"""

import ctypes
import functools

import numpy as np
import torch

from ._capi import lib

# Smaller results come from torch.empty: the heap keeps no block below 1 MiB.
MIN_BYTES = 1 << 20


@functools.lru_cache(maxsize=None)
def _heap():
    """The C API's heap functions, typed (the library loads on first use)."""
    l = lib()
    l.staxHostAllocate.restype = ctypes.c_void_p
    l.staxHostAllocate.argtypes = [ctypes.c_size_t]
    l.staxHostRelease.restype = None
    l.staxHostRelease.argtypes = [ctypes.c_void_p]
    l.staxHostCachedBytes.restype = ctypes.c_size_t
    l.staxHostCachedBytes.argtypes = []
    l.staxHostTrim.restype = None
    l.staxHostTrim.argtypes = []
    return l


class _Block:
    """`nbytes` bytes from staxHostAllocate as numpy sees them; released
    when numpy's array over it (and so the last tensor) is collected."""

    __slots__ = ("__array_interface__", "_ptr", "_release")

    def __init__(self, ptr: int, nbytes: int, release):
        self._ptr, self._release = ptr, release
        self.__array_interface__ = {"data": (ptr, False), "shape": (nbytes,),
                                    "typestr": "|u1", "version": 3}

    def __del__(self):
        self._release(self._ptr)


def empty(shape, dtype: torch.dtype) -> torch.Tensor:
    """A contiguous CPU tensor of `shape` and `dtype` (uninitialized) in a
    block of the runtime's heap."""
    numel = 1
    for d in shape:
        numel *= d
    nbytes = numel * torch.empty((), dtype=dtype).element_size()
    heap = _heap()
    ptr = heap.staxHostAllocate(max(nbytes, 1))
    if not ptr:
        raise MemoryError(f"staxHostAllocate: cannot allocate {nbytes} bytes")
    raw = torch.from_numpy(np.asarray(_Block(ptr, nbytes, heap.staxHostRelease)))
    return raw.view(dtype).view(shape)


def cached_bytes() -> int:
    """The bytes of freed blocks the heap keeps for reuse (at most 1 GiB)."""
    return _heap().staxHostCachedBytes()


def trim() -> None:
    """Returns every kept block to the system."""
    _heap().staxHostTrim()
