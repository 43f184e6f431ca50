"""Whether this thread is tracing or probing a function for stax.compile.

A compiled function called there (stax.compile inside stax.compile) runs
its Python function, so that the outer trace sees through it.
"""

from __future__ import annotations

import contextlib
import threading

_INLINING = threading.local()


def inlining() -> bool:
    """Whether this thread runs a function to trace or probe it (`trace`,
    stax.compile's eager probe): a compiled function called there
    (stax.compile inside stax.compile) runs its Python function, so that
    the outer trace sees through it."""
    return getattr(_INLINING, "depth", 0) > 0


@contextlib.contextmanager
def inline_compiled_functions():
    """Inside: `inlining()` holds on this thread."""
    _INLINING.depth = getattr(_INLINING, "depth", 0) + 1
    try:
        yield
    finally:
        _INLINING.depth -= 1
