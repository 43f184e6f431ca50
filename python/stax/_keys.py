"""Plan key parts for what a trace bakes in from Python values.

`stax.compile` keys each plan on the arguments' shapes and dtypes and on
what the function reads besides its arguments: module attributes, closure
cells and globals. A number, string or small container of those is baked
into the trace by value; any other object (a module, a tensor) by
identity, since a trace uses the object it saw.
"""

from __future__ import annotations

#: Lists, tuples and dicts of Python constants up to this many entries are
#: part of a plan key by value (a list of scales, a config dict); larger
#: containers by identity (comparing them at every call would cost more
#: than a trace is likely to bake in).
CONSTANT_CONTAINER_MAX = 64


def constant_key(v):
    """What a trace bakes in from a Python value, as a hashable plan key
    part: a number, string, bool or None as itself; a list, tuple or dict
    of those (nested, up to CONSTANT_CONTAINER_MAX entries each) as a tuple
    of its type and entries, so that writing an entry traces again; any
    other object as its identity."""
    if v is None or isinstance(v, (bool, int, float, str)):
        return v
    if type(v) in (list, tuple, dict) and len(v) <= CONSTANT_CONTAINER_MAX:
        items = v.items() if type(v) is dict else enumerate(v)
        entries = tuple((k, constant_key(e)) for k, e in items)
        if not any(isinstance(e, Identity) for _, e in entries):
            return (type(v).__name__,) + entries
    return Identity(v)


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
