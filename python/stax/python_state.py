"""Python state a traced function changes: what a plan cannot replay.

Tracing runs the function's Python once (and building a plan may run it
again: the confirming eager run of `aliasing.py`). Whatever the function
does in Python besides tensor operations happens then and never again:

- a draw from Python's `random` module or numpy's global generator
  (`if random.random() < p: x = x.flip(-1)`) would be one fixed draw
  baked into every call;
- a write to a Python attribute of a module (`self.step += 1`) or to a
  global would happen once per trace, not once per call;
- seeding or rewinding PyTorch's generator (`torch.manual_seed`,
  `torch.set_rng_state`) would not happen at the calls: the generator
  would not be left seeded, and compiled random ops, which draw from their
  own stream (`tp.rng_state`), would not repeat their draws after it.

`PythonStateGuard` snapshots that state around a build, restores it where
it can (the generators and the modules' attributes, so that the call run
in PyTorch instead draws and counts exactly as eager does) and says what
changed; stax.compile then runs the function in PyTorch from then on.
"""

from __future__ import annotations

import itertools
import os
import random
import sys
import threading
from typing import Any, Callable, Dict, List, Optional

import torch

from ._keys import _plain_object

_MISSING = object()


def _numpy_random():
    """numpy's global generator module, when numpy is loaded (a function
    cannot draw from it otherwise)."""
    np = sys.modules.get("numpy")
    return getattr(np, "random", None) if np is not None else None


def _same_numpy_state(a, b) -> bool:
    # ('MT19937', keys array, pos, has_gauss, cached_gaussian)
    return (a[0] == b[0] and (a[1] == b[1]).all() and a[2:] == b[2:])


_VALUES = (bool, int, float, complex, str, bytes, type(None), torch.Size,
           torch.dtype, torch.device, tuple)


def _same(a, b) -> bool:
    """Whether an attribute still holds what it held: the same object, or
    an equal number, string or tuple of them (`self.length = x.shape[1]`
    at every call binds a new int of the same value: no effect)."""
    if a is b:
        return True
    if type(a) is not type(b) or not isinstance(a, _VALUES):
        return False
    try:
        return bool(a == b)
    except Exception:  # noqa: BLE001 - a tuple holding tensors
        return False


def _contents(value):
    """(identities of the elements, a shallow copy) of a list, dict or
    set: compared by identity (a tensor element has no usable ==); None
    for other values."""
    if isinstance(value, list):
        return [id(v) for v in value], list(value)
    if isinstance(value, dict):
        return [(id(k), id(v)) for k, v in value.items()], dict(value)
    if isinstance(value, set):
        return sorted(map(id, value)), set(value)
    if _plain_object(value):
        # A counter or config object of the user's: `c.n += 1` binds a
        # new int (compared by value, as a module's attributes are).
        attributes = dict(vars(value))
        scalars = (bool, int, float, complex, str, bytes, type(None))
        return [(k, v if isinstance(v, scalars) else id(v))
                for k, v in attributes.items()], attributes
    return None


#: Beyond the roots, at most this many nested containers are copied, and
#: elements looked through for them, per snapshot: a function reading a
#: large structure (a vocabulary, a list of a million floats) costs its
#: build little more (nested containers past the limit are not restored).
_MAX_CONTAINERS = 1000
_MAX_ELEMENTS = 10_000


def _snapshot(roots) -> List[Any]:
    """(container, _contents) of each list, dict, set and plain object
    among `roots` (all of them) and nested in them, through tuples too (up
    to the limits above): a change deep inside (`STATE["stack"].pop()`, a
    dict in a list of records) is seen and undone in place like one at the
    top. Each container once."""
    out: List[Any] = []
    seen: set = set()
    todo: List[Any] = []
    for root in roots:
        todo.extend(_take(root, out, seen, _MAX_ELEMENTS)[0])
    budget, taken = _MAX_ELEMENTS, len(out)
    while todo and len(out) - taken < _MAX_CONTAINERS and budget > 0:
        nested, looked = _take(todo.pop(), out, seen, budget)
        todo.extend(nested)
        budget -= looked
    return out


def _take(value, out: List[Any], seen: set, limit: int):
    """Appends value's (container, _contents) to `out` (unless seen or not
    a container); returns the containers among its first `limit` elements
    and how many it looked at."""
    if id(value) in seen:
        return [], 0
    seen.add(id(value))
    if isinstance(value, tuple):
        held = value
    else:
        c = _contents(value)
        if c is None:
            return [], 0
        out.append((value, c))
        saved = c[1]
        # A set's elements are hashable: no list or dict among them.
        held = (() if isinstance(saved, set) else
                saved.values() if isinstance(saved, dict) else saved)
    first = list(itertools.islice(held, limit))
    return ([e for e in first if isinstance(e, _NESTING) or _plain_object(e)],
            max(len(first), 1))


#: What _snapshot looks into (a plain object too).
_NESTING = (list, dict, set, tuple)


def _changed(snapshot) -> List[Any]:
    """The containers of a _snapshot whose elements changed, refilled with
    their old ones (after the outer ones hold the inner ones again, the
    whole structure is as before)."""
    changed = [(c, s) for c, s in snapshot if _contents(c)[0] != s[0]]
    for c, s in changed:
        _refill(c, s)
    return [c for c, _ in changed]


def _refill(container, contents) -> None:
    saved = contents[1]
    if isinstance(container, list):
        container[:] = saved
    elif isinstance(container, (dict, set)):
        container.clear()
        container.update(saved)
    else:                       # an object's attributes
        vars(container).clear()
        vars(container).update(saved)


class _GeneratorWrites:
    """Counts the calls that seed or rewind PyTorch's default generator
    while a build runs (the functions are wrapped while any build runs;
    a call from another thread counts too, which only costs that function
    its compilation)."""

    NAMES = ("manual_seed", "seed", "set_rng_state")
    _lock = threading.Lock()
    _users = 0
    _originals: Dict[str, Callable] = {}
    calls = 0

    @classmethod
    def _wrapped(cls, original):
        def wrapper(*args, **kwargs):
            cls.calls += 1
            return original(*args, **kwargs)
        wrapper.__wrapped__ = original
        return wrapper

    def __enter__(self):
        cls = type(self)
        with cls._lock:
            if cls._users == 0:
                for name in cls.NAMES:
                    cls._originals[name] = getattr(torch.random, name)
                    wrapper = cls._wrapped(cls._originals[name])
                    setattr(torch.random, name, wrapper)
                    if getattr(torch, name, None) is cls._originals[name]:
                        setattr(torch, name, wrapper)
            cls._users += 1
        self.before = cls.calls
        return self

    def __exit__(self, *exc):
        cls = type(self)
        with cls._lock:
            cls._users -= 1
            if cls._users == 0:
                for name, original in cls._originals.items():
                    if getattr(torch, name, None) is getattr(torch.random, name):
                        setattr(torch, name, original)
                    setattr(torch.random, name, original)
        return False

    def called(self) -> bool:
        return type(self).calls != self.before


class PythonStateGuard:
    """Around one plan build: `changes` names the Python state the build
    changed, after restoring the generators and module attributes.

    modules: the modules whose public non-tensor attributes the function
    may write; names: the closure cells and globals it reads
    (importer.CapturedName), rebound to their objects afterwards;
    constants: the plan key's Python part, compared before and after (a
    list or dict read by value and changed in place)."""

    def __init__(self, modules: List[torch.nn.Module], names: List[Any],
                 constants: Callable[[], Any]):
        self.modules = modules
        self.names = names
        self.constants = constants
        self.changes: List[str] = []

    def __enter__(self) -> "PythonStateGuard":
        # Inside the caller's fork_rng (the CPU generator's): a seed of our
        # own tells whether the function leaves the generator seeded anew.
        # The CPU generator only: torch.manual_seed would seed the CUDA
        # ones too, which that fork_rng does not restore.
        self.sentinel = int.from_bytes(os.urandom(8), "little") >> 1
        torch.default_generator.manual_seed(self.sentinel)
        self.generator_writes = _GeneratorWrites().__enter__()
        self.python_random = random.getstate()
        nprandom = _numpy_random()
        self.numpy_random = nprandom.get_state() if nprandom else None
        self.attributes: List[Dict[str, Any]] = [
            {k: v for k, v in vars(m).items() if self._watched(k, v)}
            for m in self.modules]
        # The lists, dicts and sets among them, and those nested in them:
        # a forward that appends to `self.store` appended once per trace.
        self.attribute_contents = [
            {k: c for k, c in ((k, _snapshot([v])) for k, v in a.items()) if c}
            for a in self.attributes]
        self.modes = [m.training for m in self.modules]
        self.bindings = [n.binding() for n in self.names]
        # The lists, dicts and sets they hold, nested ones too: an append
        # or a pop while tracing is undone like a rebinding.
        self.contents = _snapshot(self.bindings)
        self.key = self.constants()
        return self

    @staticmethod
    def _watched(name: str, value) -> bool:
        # Tensors are state the trace reads and writes as tensors (buffers,
        # or what PyTorch's hooks recompute at every call: weight_norm's
        # `weight`); submodules are the module tree. `training` is part of
        # the plan key: a function that calls model.eval() is traced in
        # eval mode and leaves the model there, as eager does.
        return not name.startswith("_") and name != "training" and \
            not isinstance(value, (torch.Tensor, torch.nn.Module))

    def __exit__(self, *exc) -> bool:
        self.generator_writes.__exit__(*exc)
        if torch.default_generator.initial_seed() != self.sentinel:
            self.changes.append("it seeds PyTorch's generator")
        if random.getstate() != self.python_random:
            random.setstate(self.python_random)
            self.changes.append("it draws from Python's random module")
        nprandom = _numpy_random()
        # (numpy loaded while tracing: nothing to compare with)
        if nprandom is not None and self.numpy_random is not None and \
                not _same_numpy_state(nprandom.get_state(), self.numpy_random):
            nprandom.set_state(self.numpy_random)
            self.changes.append("it draws from numpy's global generator")
        written = self._restore_attributes()
        filled = self._refill_attributes()
        if filled:
            self.changes.append(f"it changes {', '.join(filled)} in place")
        if written:
            self.changes.append(f"it sets the attribute{'s' * (len(written) > 1)} "
                                f"{', '.join(written)}")
        rebound = [n for n, b in zip(self.names, self.bindings)
                   if n.binding() is not b]
        for n, b in zip(self.names, self.bindings):
            n.rebind(b)
        if rebound:
            self.changes.append("it binds a global or captured variable "
                                "it reads")
        if _changed(self.contents):
            self.changes.append("it changes a list, dict, set or object it "
                                "reads in place")
        elif not (written or filled or rebound or exc[0]) \
                and self._key_but_modes() != self.key:
            self.changes.append("it changes a global or captured value it "
                                "reads in place")
        return False

    def _key_but_modes(self):
        """The plan key's Python part with the modules in their modes from
        before the build (a mode the function sets is kept, see _watched)."""
        now = [m.training for m in self.modules]
        for m, mode in zip(self.modules, self.modes):
            m.training = mode
        try:
            return self.constants()
        finally:
            for m, mode in zip(self.modules, now):
                m.training = mode

    def _restore_attributes(self) -> List[str]:
        written = []
        for m, before in zip(self.modules, self.attributes):
            now = vars(m)
            for k, v in before.items():
                if not _same(now.get(k, _MISSING), v):
                    now[k] = v
                    written.append(f"{type(m).__name__}.{k}")
            for k in [k for k, v in now.items()
                      if k not in before and self._watched(k, v)]:
                del now[k]
                written.append(f"{type(m).__name__}.{k}")
        return written

    def _refill_attributes(self) -> List[str]:
        """Refills the lists, dicts and sets the modules held whose
        elements changed (their attributes hold them again, see
        _restore_attributes); names them."""
        filled = []
        for m, before, contents in zip(self.modules, self.attributes,
                                       self.attribute_contents):
            for k, snapshot in contents.items():
                if _changed(snapshot):
                    filled.append(f"{type(m).__name__}.{k}")
        return filled

    def reason(self, draws_random: bool) -> Optional[str]:
        """Why the function runs in PyTorch, or None. draws_random: the
        plan has random ops (seeded or rewound generators matter then)."""
        if (draws_random and self.generator_writes.called()
                and "it seeds PyTorch's generator" not in self.changes):
            self.changes.append("it seeds or rewinds PyTorch's generator "
                                "and draws random numbers")
        if not self.changes:
            return None
        return (" and ".join(self.changes) + "; compiled calls run no "
                "Python, so that would happen only while tracing")
