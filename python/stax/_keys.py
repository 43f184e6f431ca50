"""Plan key parts for what a trace bakes in from Python values.

`stax.compile` keys each plan on the arguments' shapes and dtypes and on
what the function reads besides its arguments: module attributes, closure
cells and globals. A number, string or small container of those is baked
into the trace by value; any other object (a module, a tensor) by
identity, since a trace uses the object it saw.
"""

from __future__ import annotations

import functools
import types
from typing import Optional

import torch

#: Lists, tuples and dicts of Python constants up to this many entries are
#: part of a plan key by value (a list of scales, a config dict); larger
#: containers by identity (comparing them at every call would cost more
#: than a trace is likely to bake in).
CONSTANT_CONTAINER_MAX = 64

#: numpy arrays up to this many bytes are part of a plan key by value (a
#: normalization mean a trace bakes in as a constant, written in place).
NUMPY_BYTES_MAX = 1 << 16


def constant_key(v, top: bool = True, nested: bool = True):
    """What a trace bakes in from a Python value, as a hashable plan key
    part: a number, string, bool or None as itself; a list, tuple or dict
    (nested, up to CONSTANT_CONTAINER_MAX entries each) as a tuple of its
    type and entries, so that writing an entry traces again (a tensor
    appended to a captured list, a config value changed); at the top, a
    plain object (an instance of the user's class: a config, a holder of
    tensors) as its identity and its attributes' key parts; any other
    object (a tensor, a module, a function) as its identity."""
    if type(v) is float:
        return float_key(v)
    if v is None or isinstance(v, (bool, int, str)):
        return v
    if isinstance(v, (list, tuple, dict)) and len(v) <= CONSTANT_CONTAINER_MAX:
        # Their subclasses too: an OrderedDict or defaultdict config, a
        # namedtuple of hyper-parameters.
        items = v.items() if isinstance(v, dict) else enumerate(v)
        kind = type(v).__name__ if type(v) in (list, tuple, dict) else type(v)
        return (kind,) + tuple((k, constant_key(e, False)) for k, e in items)
    if _is_ndarray(v) and v.nbytes <= NUMPY_BYTES_MAX:
        return ("ndarray", v.dtype.str, v.shape, v.tobytes())
    if isinstance(v, (set, frozenset)) and len(v) <= CONSTANT_CONTAINER_MAX:
        # `if name in skip:`: its elements are hashable.
        return (type(v), frozenset(v))
    if top and isinstance(v, type) and _users_class(v):
        # A class read as a global (`Config.temperature`): its data.
        attrs = [(k, e) for k, e in vars(v).items() if not k.startswith("_")
                 and not callable(e)
                 and not isinstance(e, (staticmethod, classmethod, property))]
        if len(attrs) <= CONSTANT_CONTAINER_MAX:
            return ("class", Identity(v)) + tuple(
                (k, constant_key(e, False)) for k, e in attrs)
    if (top or nested) and _plain_object(v):
        # A config object's attributes, and those of the objects it holds
        # one level down (cfg.model.width).
        attrs = [(k, e) for k, e in vars(v).items() if not k.startswith("__")]
        if len(attrs) <= CONSTANT_CONTAINER_MAX:
            return ("object", Identity(v)) + tuple(
                (k, constant_key(e, False, top)) for k, e in attrs)
    return Identity(v)


def _is_ndarray(v) -> bool:
    t = type(v)
    return t.__name__ == "ndarray" and t.__module__ == "numpy"


def unwatched(v) -> Optional[str]:
    """What constant_key keys by identity although a trace may read its
    entries (a container or array too large to compare at every call), as
    words for a warning; None otherwise."""
    if isinstance(v, (list, tuple, dict, set, frozenset)) and \
            len(v) > CONSTANT_CONTAINER_MAX:
        return f"a {type(v).__name__} of {len(v)} entries"
    if _is_ndarray(v) and v.nbytes > NUMPY_BYTES_MAX:
        return f"a numpy array of {v.nbytes} bytes"
    return None


def float_key(v: float):
    """A float as a plan key part: its bits, so that -0.0 and 0.0 (equal,
    and the same hash) are two keys (1 / x differs) and every NaN one key
    (NaN != NaN would trace again at every call)."""
    return (float, v.hex())


#: Libraries whose objects are keyed by identity alone: their state is
#: not what a function's trace reads (a Python module's namespace).
_LIBRARIES = ("torch", "numpy", "builtins", "functools", "typing",
              "collections", "enum", "abc", "types", "stax")


def _users_class(cls) -> bool:
    return (getattr(cls, "__module__", None) or "").split(".")[0] not in _LIBRARIES


def _plain_object(v) -> bool:
    """An instance of a user class whose attributes a trace may read."""
    if isinstance(v, (type, types.ModuleType, types.FunctionType,
                      types.BuiltinFunctionType, types.MethodType,
                      functools.partial, torch.Tensor, torch.nn.Module)):
        return False
    if isinstance(v, types.SimpleNamespace):
        return True     # a config: types.SimpleNamespace(lr=..., ...)
    module = (getattr(type(v), "__module__", None) or "").split(".")[0]
    return module not in _LIBRARIES and hasattr(v, "__dict__")


class Identity:
    """A plan key's part that is an object's identity. It holds the object:
    while a plan is keyed on it, no other object can take its id."""

    __slots__ = ("obj",)

    def __init__(self, obj):
        self.obj = obj

    def __hash__(self):
        return id(self.obj)

    def __eq__(self, other):
        return isinstance(other, Identity) and other.obj is self.obj
