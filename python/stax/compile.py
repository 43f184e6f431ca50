"""`stax.compile`: run PyTorch functions and modules as Stax-compiled code.

    f = stax.compile(fn)             # or stax.compile(nn_module)
    y = f(x, w)                      # traces, compiles, runs; y is a torch tensor
    y.sum().backward()               # the compiled backward (Section 5.6)

Arguments are tensors, also keyword ones and in lists, tuples and dicts;
numbers, strings, bools, None, dtypes and devices among them are constants
of the trace (a new value traces again). Results may hold None and other
constants next to tensors. On the first call for an input signature
(shapes, dtypes, requires_grad, the constant arguments, whether grad mode
is on, and what the function reads besides its arguments: the public
attributes of a compiled module's submodules or of the modules a function
captures, which layers they hold, and the constants and objects in the
closure cells and globals read; _keys.py) the function is traced with make_fx and
imported as `tp`. With gradients needed, `--stax-joint-graph` and
`--stax-mincut` split it into a forward that also returns the values the
backward needs and a backward compiled on its first use; a
`torch.autograd.Function` ties them to autograd. Under `torch.no_grad()`
only the forward is compiled. Higher derivatives
(create_graph=True) run compiled too: the compiled backward's result is
recorded, and its derivative is the joint graph of the function's
gradients-only joint graph, compiled on first use (_Derivative); where the
autodiff has no rule for an op of the backward, it raises Listing 5.5's
explicit error. torch.autograd.grad inside the function is traced as the
ops of its backward (importer._TraceAutogradGrad). Operators the importer does not know are split out with torch.fx's
CapabilityBasedPartitioner and run in PyTorch (one warning names them); a
partition that Stax cannot compile runs in PyTorch too, with a warning, and
so does a function make_fx cannot trace (data-dependent control flow).
Tensors the function captures (closures, globals) that require grad are
passed as arguments on every call (they get gradients; an optimizer's
updates are seen), and so are those it writes in place (a captured
BatchNorm's running statistics: each call updates them once, as eager;
tracing itself leaves them as they were); other captured tensors are
constants, and one changed in place since tracing makes the next call
trace again.
Every dtype models use compiles (float32/64, float16, bfloat16, integers,
bool): half precision computes in float32 and rounds each op's result, as
eager's CPU kernels do. Random ops (training-mode dropout, rand, randn,
bernoulli) are compiled: each call passes a fresh RNG state whose seed
comes from PyTorch's default generator (so torch.manual_seed makes calls
reproducible; the numbers are Stax's Philox stream, not PyTorch's).

`stax.compile(fn, target="cuda")` runs the kernels on the GPU through the
CUDA launcher (libcuda.so.1, loaded at run time): CUDA tensors are passed
without copies, CPU tensors are copied to the device and the results back
(`last_transfer` says which ran). Without a driver or GPU, a call raises
StaxError saying so.
"""

import collections.abc
import contextlib
import copy
import dataclasses
import enum
import functools
import inspect
import io
import itertools
import json
import numbers
import operator
import os
import re
import sys
import tempfile
import threading
import warnings
from typing import Any, Callable, Dict, List, Optional, Set, Tuple

import numpy as np
import torch
# make_fx's module registers torch.Size with pytree (as a tuple of ints):
# imported now, an argument's key is the same from the first call on.
import torch.fx.experimental.proxy_tensor  # noqa: F401
from torch.nn.modules import module as _module
from torch.autograd import forward_ad as _forward_ad
from torch.utils._pytree import LeafSpec, tree_flatten, tree_unflatten

from . import host_memory
from ._capi import (Executable, StaxError, check_pipeline_options,
                    cuda_device, run_pipeline)
from ._keys import Identity, constant_key, float_key
from .aliasing import OutputViewReplay, ViewReplay
from .python_state import PythonStateGuard
from ._tracing import inline_compiled_functions, inlining

# Executable.signature's NumPy dtypes; bf16 is uint16 there (its words).
_NP_TO_TORCH = {np.dtype(np.float32): torch.float32,
                np.dtype(np.float64): torch.float64,
                np.dtype(np.float16): torch.float16,
                np.dtype(np.uint16): torch.bfloat16,
                np.dtype(np.int64): torch.int64, np.dtype(np.int32): torch.int32,
                np.dtype(np.int16): torch.int16, np.dtype(np.int8): torch.int8,
                np.dtype(np.uint8): torch.uint8, np.dtype(np.bool_): torch.bool}

# Marks a tensor's place among a traced function's results.
_TENSOR = object()

# Non-tensor arguments a compiled function may take: baked into the trace.
_CONSTANT_ARGUMENTS = (bool, int, float, str, type(None), torch.dtype,
                       torch.device, torch.Size, torch.memory_format,
                       torch.layout, slice, type(Ellipsis), enum.Enum)

DOUBLE_BACKWARD_ERROR = (
    "Compiled regions do not support second-order gradients (double "
    "backward). Run the function without compilation to compute "
    "higher-order derivatives.")


class _Entry:
    """Calls one compiled function on torch tensors. Its signature as torch
    types and the ctypes call are prepared once: a cached call of a small
    kernel costs microseconds, so per-call preparation would dominate (a
    torch.empty alone costs a microsecond)."""

    def __init__(self, exe: Executable, name: str):
        self.exe, self.name = exe, name
        ins, outs = exe.signature(name)
        self.ins = [(torch.Size(shape), _NP_TO_TORCH[dt]) for shape, dt in ins]
        self.outs = [(shape, _NP_TO_TORCH[dt]) for shape, dt in outs]
        # Large results come from the runtime's heap (see host_memory).
        self.allocators = [
            functools.partial(host_memory.empty, shape, dt)
            if _nbytes(shape, dt) >= host_memory.MIN_BYTES
            else functools.partial(torch.empty, shape, dtype=dt)
            for shape, dt in self.outs]
        self.cuda = getattr(exe, "target", "cpu") == "cuda"
        self.call_raw = exe.caller(name)

    def __call__(self, tensors) -> List[torch.Tensor]:
        """Zero copy when contiguous; see _call_cuda for target=cuda."""
        if self.cuda:
            return _call_cuda(self.exe, self.name,
                              self._contiguous(tensors, 0, len(self.ins)),
                              self.outs)
        keep: List[torch.Tensor] = []
        pointers = self._pointers(tensors, 0, len(self.ins), keep)
        results = [make() for make in self.allocators]
        self.call_raw(pointers + [r.data_ptr() for r in results])
        return results

    def call_saving(self, tensors, saved: "_SavedBlock"):
        """The results before `saved.first` as tensors, and one block
        holding those from `saved.first` on (the values a backward reads:
        one allocation instead of one tensor each)."""
        keep: List[torch.Tensor] = []
        pointers = self._pointers(tensors, 0, len(self.ins), keep)
        results = [make() for make in self.allocators[:saved.first]]
        block = saved.allocate()
        base = block.data_ptr()
        self.call_raw(pointers + [r.data_ptr() for r in results] +
                      [base + offset for offset in saved.offsets])
        return results, block

    def call_reading(self, before, block, saved: "_SavedBlock", after):
        """Calls on the tensors `before`, the values in `block` (made by
        call_saving with `saved`) and the tensors `after`, in that order."""
        k = len(before) + len(saved.offsets)
        keep: List[torch.Tensor] = []
        first = self._pointers(before, 0, len(before), keep)
        last = self._pointers(after, k, len(self.ins) - k, keep)
        results = [make() for make in self.allocators]
        base = block.data_ptr()
        self.call_raw(first + [base + offset for offset in saved.offsets] +
                      last + [r.data_ptr() for r in results])
        return results

    def _pointers(self, tensors, start: int, count: int, keep) -> List[int]:
        """The data pointers of `tensors`, arguments start..start+count; a
        non-contiguous one is copied (the copy goes to `keep`, alive until
        the call)."""
        self._check(tensors, start, count)
        pointers = []
        for t in tensors:
            if not t.is_contiguous():
                t = t.contiguous()
                keep.append(t)
            pointers.append(t.data_ptr())
        return pointers

    def _contiguous(self, tensors, start: int, count: int) -> List[torch.Tensor]:
        self._check(tensors, start, count)
        return [t if t.is_contiguous() else t.contiguous() for t in tensors]

    def _check(self, tensors, start: int, count: int) -> None:
        """Raises unless `tensors` are arguments start..start+count: their
        number, shapes and dtypes as declared."""
        if (len(tensors) != count or [(t.shape, t.dtype) for t in tensors]
                != self.ins[start:start + count]):
            self._mismatch(tensors, start, count)

    def _mismatch(self, tensors, start: int, count: int) -> None:
        if len(tensors) != count:
            raise StaxError(f"@{self.name} takes {len(self.ins)} tensors, "
                            f"got {len(tensors) + len(self.ins) - count}")
        for i, (t, (shape, dt)) in enumerate(
                zip(tensors, self.ins[start:start + count]), start):
            if t.shape != shape or t.dtype != dt:
                raise StaxError(f"@{self.name} argument #{i}: expected "
                                f"{dt}{list(shape)}, got {t.dtype}{list(t.shape)}")


class _SavedBlock:
    """Where the values a forward saves for its backward lie in one block
    of memory: the results of the forward from index `first` on, each at
    its offset (64-byte aligned), read by the backward in place. Saving
    them as one tensor spares a torch.empty and a saved variable per value
    at every training step."""

    ALIGN = 64

    def __init__(self, results, first: int):
        self.first = first
        self.types = results[first:]
        self.offsets, end = [], 0
        for shape, dt in self.types:
            self.offsets.append(end)
            end += -(-max(_nbytes(shape, dt), 1) // self.ALIGN) * self.ALIGN
        self.nbytes = end
        self.allocate = functools.partial(
            host_memory.empty if end >= host_memory.MIN_BYTES else _torch_empty,
            (max(end, 1),), torch.uint8)

    def tensors(self, block: torch.Tensor) -> List[torch.Tensor]:
        """The values in `block` as tensors (views of it)."""
        return [block[o:o + _nbytes(shape, dt)].view(dt).view(shape)
                for o, (shape, dt) in zip(self.offsets, self.types)]


def _nbytes(shape, dtype: torch.dtype) -> int:
    numel = 1
    for d in shape:
        numel *= d
    return numel * _ITEMSIZE[dtype]


_ITEMSIZE = {dt: torch.empty((), dtype=dt).element_size()
             for dt in set(_NP_TO_TORCH.values())}


def _torch_empty(shape, dtype: torch.dtype) -> torch.Tensor:
    return torch.empty(shape, dtype=dtype)


def _entry(exe: Executable, name: str) -> _Entry:
    entries = exe.__dict__.setdefault("_entries", {})
    if name not in entries:
        entries[name] = _Entry(exe, name)
    return entries[name]


def _run(exe: Executable, entry: str, tensors) -> List[torch.Tensor]:
    """Calls `entry` of `exe` on torch tensors (see _Entry)."""
    return _entry(exe, entry)(tensors)


def _call_cuda(exe: Executable, entry: str, args, outs) -> List[torch.Tensor]:
    """target=cuda: CUDA tensors are passed as they are (their data_ptr(),
    results allocated on their device: "zero-copy"); CPU tensors are copied
    to device memory by the launcher and the results back ("copy"). The
    owner's `last_transfer` says which ran."""
    on_device = [t.is_cuda for t in args]
    if args and all(on_device):
        device = args[0].device
        if any(t.device != device for t in args):
            raise StaxError(f"@{entry}: CUDA tensors on different devices")
        results = [torch.empty(shape, dtype=dt, device=device)
                   for shape, dt in outs]
        # The launcher's streams wait for the legacy default stream only.
        torch.cuda.current_stream(device).synchronize()
        call, transfer = exe.call_raw, "zero-copy"
    elif not any(on_device):
        results = [torch.empty(shape, dtype=dt) for shape, dt in outs]
        call, transfer = exe.call_host, "copy"
    else:
        raise StaxError(f"@{entry}: arguments mix CPU and CUDA tensors")
    call(entry, [t.data_ptr() for t in args] + [r.data_ptr() for r in results])
    owner = getattr(exe, "owner", None)
    if owner is not None:
        owner.last_transfer = transfer
    return results


def _copy_back_indices(module_text: str) -> List[int]:
    """The argument index of each copy-back result of @forward, in order."""
    header = next(line for line in module_text.splitlines()
                  if "func.func" in line and "@forward(" in line)
    return [int(k) for k in re.findall(r"tp\.copy_back = (\d+)", header)]


def _has_rng_state(module_text: str) -> bool:
    """Whether @forward takes the RNG state of the random ops."""
    header = next(line for line in module_text.splitlines()
                  if "func.func" in line and "@forward(" in line)
    return "tp.rng_state" in header


def _rng_state(inputs) -> torch.Tensor:
    """A fresh RNG state [seed, 0] for one call: the seed is drawn from
    PyTorch's default generator, so torch.manual_seed makes compiled random
    ops reproducible (their stream is Stax's Philox one, not PyTorch's).
    The backward recomputes or saves the forward's draws from this state."""
    device = inputs[0].device if inputs else torch.device("cpu")
    seed = torch.empty((), dtype=torch.int64).random_()
    return torch.stack([seed, torch.zeros((), dtype=torch.int64)]).to(device)


def _write_back(plan, inputs, outs) -> None:
    """Copies the new values of written inputs into them."""
    if not plan.copy_back:
        return
    n = plan.num_outputs
    with torch.no_grad():
        for k, i in enumerate(plan.copy_back):
            inputs[i].copy_(outs[n + k])


def _aliases_a_written_input(plan, inputs) -> bool:
    """Whether an input the function writes in place shares memory with
    another input (f(x, x), or a view and its base): compiled code reads
    every input before the copy-back writes, where eager reads the written
    values."""
    if not plan.copy_back:
        return False

    def span(t):   # the bytes between its first and last element
        if t.numel() == 0:
            return None
        low = high = t.data_ptr()
        for n, st in zip(t.shape, t.stride()):
            reach = (n - 1) * st * t.element_size()
            low, high = (low + reach, high) if reach < 0 else (low, high + reach)
        return low, high + t.element_size()

    spans = [span(t) for t in inputs]
    for i in plan.copy_back:
        if spans[i] is None:
            continue
        lo, hi = spans[i]
        if any(j != i and other is not None and other[0] < hi and lo < other[1]
               for j, other in enumerate(spans)):
            return True
    return False


def _only(module_text: str, entry: str) -> str:
    """The module with only function `entry` (so that each half of a
    forward/backward pair compiles on its own)."""
    return run_pipeline(module_text, "builtin.module(symbol-privatize{exclude=%s},"
                        "symbol-dce)" % entry, locations=True)


def _holds_size(spec) -> bool:
    """Whether a result's tree spec has a torch.Size node (x.shape)."""
    if isinstance(spec, LeafSpec):
        return False
    return spec.type is torch.Size or any(map(_holds_size, spec.children_specs))


def _unflatten_sizes(leaves, spec):
    """tree_unflatten, with each torch.Size node rebuilt as a torch.Size
    (make_fx registers Size with pytree to unflatten as a plain tuple)."""
    from torch.utils import _pytree as pytree
    it = iter(leaves)

    def build(node):
        if isinstance(node, LeafSpec):
            return next(it)
        children = [build(c) for c in node.children_specs]
        if node.type is torch.Size:
            return torch.Size(children)
        return pytree.SUPPORTED_NODES[node.type].unflatten_fn(children, node.context)
    return build(spec)


def _flatten_result(result):
    """tree_flatten of a function's result, for a plan: its tensors are the
    compiled results, anything else a constant of the trace. A dict, list
    or tuple subclass (a model output class deriving from OrderedDict) is
    registered with PyTorch's pytree first, so that its values are leaves
    (as a leaf it came back from every call as the trace's own object,
    holding the trace's tensors); any other object holding tensors is
    refused (the function then runs in PyTorch)."""
    _register_dataclasses(result)
    _register_containers(result)
    leaves, spec = tree_flatten(result)
    for leaf in leaves:
        if not isinstance(leaf, torch.Tensor) and _holds_tensors(leaf):
            raise StaxError(f"the function returns a {type(leaf).__name__} "
                            f"holding tensors, which compiled code cannot "
                            f"return (a tuple, list or dict of them can)")
    return leaves, spec


def _register_dataclasses(obj) -> None:
    """Registers the dataclasses in `obj` (nested in lists, tuples, dicts
    and other dataclasses) as pytree nodes whose children are their
    fields, so that a dataclass batch or result passes its tensors. The
    context is the field names alone: an argument's tree spec is part of
    the plan key, which must not hold the tensors."""
    from torch.utils import _pytree as pytree
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        cls = type(obj)
        if cls not in pytree.SUPPORTED_NODES:
            pytree._register_pytree_node(cls, _flatten_dataclass,
                                         _dataclass_rebuilder(cls))
        for f in dataclasses.fields(obj):
            _register_dataclasses(getattr(obj, f.name))
    elif isinstance(obj, dict):
        for v in obj.values():
            _register_dataclasses(v)
    elif isinstance(obj, (list, tuple)):
        for v in obj:
            _register_dataclasses(v)


def _flatten_dataclass(obj):
    names = tuple(f.name for f in dataclasses.fields(obj))
    return [getattr(obj, n) for n in names], names


def _dataclass_rebuilder(cls):
    def rebuild(values, names):
        # Fields set directly: __init__ and __post_init__ may compute or
        # check them (a frozen dataclass refuses setattr).
        out = cls.__new__(cls)
        for name, value in zip(names, values):
            object.__setattr__(out, name, value)
        return out
    return rebuild


def _register_containers(obj) -> None:
    """Registers the dict, list and tuple subclasses in `obj` (nested in
    pytree containers) as pytree nodes. A dict subclass is rebuilt as a
    shallow copy of the traced object with its values set again (a model
    output class may keep its fields as attributes too, and set them on
    item assignment), a list or tuple subclass by its class from the
    values; a class that does not rebuild so is refused when flattened."""
    from torch.utils import _pytree as pytree
    cls = type(obj)
    if isinstance(obj, (dict, list, tuple)) and cls not in pytree.SUPPORTED_NODES \
            and not (isinstance(obj, tuple) and hasattr(obj, "_fields")):
        if isinstance(obj, dict):
            pytree._register_pytree_node(cls, _flatten_mapping, _rebuild_mapping)
        else:
            pytree._register_pytree_node(cls, _flatten_sequence,
                                         lambda values, c: c(values))
    if isinstance(obj, dict):
        for v in obj.values():
            _register_containers(v)
    elif isinstance(obj, (list, tuple)):
        for v in obj:
            _register_containers(v)


def _rebuild_mapping(values, context):
    template, keys = context
    out = copy.copy(template)
    for k, v in zip(keys, values):
        out[k] = v
    return out


def _flatten_mapping(d):
    context = (d, list(d.keys()))
    values = list(d.values())
    try:
        rebuilt = _rebuild_mapping(values, context)
        ok = type(rebuilt) is type(d) and list(rebuilt.keys()) == context[1]
    except Exception:  # noqa: BLE001 - any failure to rebuild refuses it
        ok = False
    held = [v for v in vars(d).values() if isinstance(v, torch.Tensor)] \
        if hasattr(d, "__dict__") else []
    if not ok or any(all(h is not v for v in values) for h in held):
        raise StaxError(f"the function returns a {type(d).__name__} that "
                        f"compiled code cannot rebuild from its values")
    return values, context


def _flatten_sequence(x):
    try:
        ok = type(type(x)(list(x))) is type(x)
    except Exception:  # noqa: BLE001
        ok = False
    if not ok:
        raise StaxError(f"the function returns a {type(x).__name__} that "
                        f"compiled code cannot rebuild from its values")
    return list(x), type(x)


def _holds_tensors(obj) -> bool:
    """Whether an object that is not a pytree container holds a tensor in
    its attributes (one level: a dataclass, a plain record object)."""
    try:
        values = vars(obj).values()
    except TypeError:
        return False
    return any(isinstance(v, torch.Tensor) for v in values)


# Captured tensors of the user's with more elements are passed at every
# call; smaller ones are constants of the code, compared at every call.
_CONSTANT_ELEMENTS = 4096


class _CapturedConstant:
    """A tensor baked into a plan. Writes bump its version, and `.data = y`
    or `set_` move its storage; a write through `.data` (`t.data.add_(1)`,
    an EMA update) does neither, so a small tensor of the user's also keeps
    its bits to compare."""

    def __init__(self, t: torch.Tensor, users: bool):
        self.t, self.version, self.ptr = t, t._version, t.data_ptr()
        # A frozen parameter unfrozen (`requires_grad_(True)`) is an input
        # to differentiate from then on: lifted by a new trace.
        self.requires_grad = t.requires_grad
        self.bits = _bits(t).clone() if users else None
        # A contiguous tensor's bytes as a view of its storage, made once.
        self.view = _bits(t) if users and t.is_contiguous() else None

    def changed(self) -> bool:
        t = self.t
        if (t._version != self.version or t.data_ptr() != self.ptr
                or t.requires_grad != self.requires_grad):
            return True
        if self.bits is None:
            return False
        now = self.view if self.view is not None else _bits(t)
        return not torch.equal(now, self.bits)


def _bits(t: torch.Tensor) -> torch.Tensor:
    """A tensor's values as bytes (NaNs compare equal to themselves)."""
    flat = t.detach().reshape(-1)
    return flat.view(torch.uint8) if flat.dtype != torch.bool else flat


class _Plan:
    """Compiled code for one input signature."""

    def __init__(self, owner: "CompiledFunction", flat_fn, inputs, grad: bool):
        from .importer import import_torch_lifting
        self.owner = owner
        # Its files in debug_dir, the backward's (compiled later) too.
        self.number = owner._debug_number()
        self.spec = None
        self._single: Optional[bool] = None
        self._sizes: Optional[bool] = None     # a torch.Size in the result

        def traced(*xs):
            leaves, self.spec = _flatten_result(flat_fn(*xs))
            # Results that are not tensors (None, a number: MultiheadAttention
            # without weights) are constants of the trace, put back on return.
            self.template = [_TENSOR if isinstance(v, torch.Tensor) else v
                             for v in leaves]
            tensors = [v for v in leaves if isinstance(v, torch.Tensor)]
            if not grad and not torch.is_grad_enabled() and any(
                    t.requires_grad for t in tensors):
                # Called under no_grad, the function enables grad inside:
                # eager's results have a graph, which a plan without a
                # backward cannot give.
                raise StaxError(
                    "the function enables grad inside (torch.enable_grad) "
                    "while called under no_grad, and eager's results "
                    "require grad there")
            if any(t.requires_grad and t.is_leaf and id(t) not in user
                   and not torch._C._functorch.is_functionaltensor(t)
                   and not any(t is x for x in xs) for t in tensors) or (
                    not grad and torch.is_grad_enabled() and not user_grad
                    and any(t.requires_grad for t in tensors)):
                # A leaf made inside (x.detach().requires_grad_(), traced
                # without functionalization, whose wrappers are leaves):
                # eager's results have a graph from it and backward
                # accumulates its .grad; compiled code differentiates only
                # the arguments and captured tensors. (A factory's
                # requires_grad=True is refused while tracing: _TraceGuard.)
                raise StaxError(
                    "the function makes a tensor that requires grad "
                    "(requires_grad=True, nn.Parameter, requires_grad_()): "
                    "compiled code differentiates only its arguments and "
                    "the tensors it captures")
            self.num_outputs = len(tensors)
            return tensors

        examples = [t.detach().requires_grad_(t.requires_grad and grad)
                    if t.is_floating_point() else t.detach() for t in inputs]
        # Tensors the function captures (closures, globals): those that
        # require grad become trailing arguments, passed afresh each call,
        # so that they get gradients and an optimizer's updates are seen;
        # the others are constants, and a plan whose constant was changed in
        # place since tracing is rebuilt (stale()).
        # A partition of a split function is a GraphModule traced with
        # functionalization already: tracing it through functionalization
        # again trips PyTorch 1.13's assertions on some graphs (cross
        # entropy with class weights and label smoothing).
        functional = isinstance(owner.fn, torch.fx.GraphModule) and not owner.partition
        # The user's tensors the function reaches (not those the trace
        # makes): a large one is passed at every call like a parameter, a
        # small one is a constant whose bits each call compares
        # (_CapturedConstant).
        from .importer import captured_state
        captured = captured_state(owner.fn)[0]
        user = {id(t) for t in captured}
        user_grad = any(t.requires_grad for t in captured)
        # A tensor attribute the function also binds anew (a state carried
        # from call to call) is an input whatever its size: a constant
        # would be another at every call (_unwatch).
        def rebound(t):
            return any(old is t for _, _, old in getattr(flat_fn, "bindings", ()))
        from .importer import EAGER_REQUIRES_GRAD
        EAGER_REQUIRES_GRAD.flags = [t.requires_grad for t in inputs]
        try:
            text, self.lifted, constants, self.views = import_torch_lifting(
                traced, *examples, name="forward", functionalize=not functional,
                lift=lambda t: t.requires_grad or (id(t) in user and (
                    t.numel() > _CONSTANT_ELEMENTS or rebound(t))),
                locations=True)
        finally:
            EAGER_REQUIRES_GRAD.flags = None
        if len(self.views) != self.num_outputs:
            self.views = [None] * self.num_outputs
        if any(v is not None and v.written for v in self.views):
            self.views = _confirm_written_views(flat_fn, inputs, self.views)
        self.constants = [_CapturedConstant(t, id(t) in user) for t in constants]
        # Tensors the function binds to module attributes: trailing results.
        self.bindings = list(getattr(flat_fn, "bindings", ()))
        # (module, name, index into lifted) of the bound attributes whose
        # old values the trace read: each call reads the attribute's value
        # at that place of the lifted tensors (a hidden state carried from
        # call to call), its signature keying the plan (_unwatch).
        self.attribute_inputs = [
            (m, k, j) for m, k, old in self.bindings
            if isinstance(old, torch.Tensor)
            for j, t in enumerate(self.lifted) if t is old]
        # The lifted tensors held by identity (an attribute input is read
        # anew at each call, its signature in the key): their types are
        # compared at each call (stale()).
        read_anew = {j for _, _, j in self.attribute_inputs}
        self._typed_lifted = [j for j in range(len(self.lifted))
                              if j not in read_anew]
        self.lifted_types = self._lifted_types()
        self.lifted_state = self._lifted_state()
        self.watched = bool(self.constants or self._typed_lifted)
        owner._dump(self.number, "tp.mlir", text)
        # Inputs the function writes (batch norm's running statistics) come
        # back after the outputs; the call copies them into the inputs.
        self.copy_back = _copy_back_indices(text)
        # Random ops (dropout, rand, bernoulli) read a trailing RNG state
        # argument [seed, offset] (TpRandomOps.td): each call draws a fresh
        # seed from PyTorch's default generator (_rng_state).
        self.random = _has_rng_state(text)
        self.grad = grad
        self.constant = False
        if not grad:
            self.fw = owner._compile(text, "forward", self.number)
            return
        with tempfile.TemporaryDirectory(prefix="stax-") as tmp:
            report_path = os.path.join(tmp, "mincut.json")
            dot_path = os.path.join(tmp, "mincut.dot")
            budget = _memory_budget_option(owner.memory_budget)
            try:
                split = run_pipeline(text, "builtin.module(stax-joint-graph,"
                                     "stax-mincut{report=%s dot=%s%s})"
                                     % (report_path, dot_path, budget),
                                     locations=True)
            except StaxError as e:
                if "depends differentiably" not in str(e):
                    raise
                # No result depends differentiably on the inputs: only the
                # forward is compiled. PyTorch gives some such results a
                # grad_fn (fill, zero_, a p=0 norm: their gradient is zero)
                # and others none (comparisons cast to float); which, one
                # eager run on copies of the inputs says.
                self.grad, self.constant = False, True
                self.fw = owner._compile(text, "forward", self.number)
                self.differentiable = _eager_requires_grad(flat_fn, inputs)
                return
            with open(report_path) as f:
                [report] = json.load(f)["functions"]
            if owner.debug_dir:
                with open(dot_path) as f:
                    owner._dump(self.number, "mincut.dot", f.read())
                # The joint graph the min cut splits: one more run of the
                # pass, only for the file.
                owner._dump(self.number, "joint.mlir", run_pipeline(
                    text, "builtin.module(stax-joint-graph)"))
        owner._dump(self.number, "split.mlir", split)
        self.split = split
        self.saved_inputs = [int(e["name"].split("_")[1]) - 1
                             for e in report["saved"] if e["kind"] == "input"]
        self.grad_inputs = [i for i, t in enumerate(list(inputs) + self.lifted)
                            if t.requires_grad and t.is_floating_point()]
        # The joint graph gives an input the results do not reach a zero
        # gradient; PyTorch gives it none (an optimizer then skips it).
        self.reached, self.differentiable = _eager_autograd(
            flat_fn, inputs, self.lifted, self.grad_inputs)
        self._flat_fn, self._num_inputs = flat_fn, len(inputs)
        self._second_order_reach: Dict[tuple, Optional[Set[int]]] = {}
        self._first_order_reach: Dict[tuple, Optional[List[bool]]] = {}
        self.fw = owner._compile(_only(split, "forward_forward"),
                                 "forward_forward", self.number)
        self.bw = None  # compiled on first use
        self._bw_entry: Optional[_Entry] = None
        self._prepare_calls()
        # Higher derivatives (create_graph=True) differentiate the function
        # again: its arguments are the inputs, the lifted tensors and the
        # RNG state.
        self.derivative = _Derivative(
            owner, len(inputs) + len(self.lifted) + int(self.random), text,
            number=self.number)

    def _prepare_calls(self) -> None:
        """What every call of the split forward and backward would otherwise
        recompute: the layout of the saved values (one block on the CPU;
        target=cuda saves a tensor each), the types of the results that
        get cotangents, and which user results are not differentiable."""
        entry = _entry(self.fw, "forward_forward")
        n = self.num_outputs + len(self.copy_back)
        cpu = not entry.cuda
        self.saved = _SavedBlock(entry.outs, n) if cpu else None
        self.out_meta = ([(torch.Size(shape), dt, torch.device("cpu"))
                          for shape, dt in entry.outs[:n]] if cpu else None)
        # Results eager gives no gradient history (x.detach(), a comparison
        # cast to float) have none here either: bound to a module attribute
        # and read by the next call, one would chain the calls' graphs.
        differentiable = self.differentiable or [True] * self.num_outputs
        self.non_differentiable = [
            k for k, (d, (_, dt)) in enumerate(zip(differentiable, entry.outs))
            if not (d and dt.is_floating_point)]

    def backward_entry(self) -> _Entry:
        if self._bw_entry is None:
            self._bw_entry = _entry(self.backward_executable(), "forward_backward")
        return self._bw_entry

    def unflatten(self, outs, args):
        """The function's result: the tensors `outs` in their places among
        the traced constants, those that are views of the arguments `args`
        replayed on them (stax.aliasing: eager returns views)."""
        if self.single:
            return outs[0]
        if any(v is not None for v in self.views):
            outs = [view(args) if _replays(view, self.grad and out.requires_grad)
                    else out for out, view in zip(outs, self.views)]
            outs = [view(outs) if isinstance(view, OutputViewReplay) else out
                    for out, view in zip(outs, self.views)]
        it = iter(outs)
        leaves = [next(it) if v is _TENSOR else v for v in self.template]
        if self._sizes is None:
            self._sizes = _holds_size(self.spec)
        if self._sizes:
            return _unflatten_sizes(leaves, self.spec)
        return tree_unflatten(leaves, self.spec)

    @property
    def single(self) -> bool:
        """Whether the function returns one tensor that is no view."""
        if self._single is None:
            self._single = (isinstance(self.spec, LeafSpec)
                            and self.template == [_TENSOR]
                            and self.views == [None])
        return self._single

    def stale(self) -> bool:
        """A captured constant was written or replaced since tracing, or a
        lifted tensor has another type or requires_grad: `module.double()`
        and pruning (`p.data = smaller`) keep the Parameter objects the key
        holds, and so does freezing or unfreezing them."""
        if any(c.changed() for c in self.constants):
            return True
        # Cheap first: a type changes with the storage (`.data = y`,
        # `_apply`), requires_grad by itself; an optimizer's in-place
        # update changes neither.
        state = self._lifted_state()
        if state == self.lifted_state:
            return False
        if self._lifted_types() != self.lifted_types:
            return True
        self.lifted_state = state      # new storage of the same type
        return False

    def _typed(self) -> list:
        return [self.lifted[j] for j in self._typed_lifted]

    def _lifted_state(self) -> list:
        return [(t.data_ptr(), t.requires_grad) for t in self._typed()]

    def _lifted_types(self) -> list:
        return [(t.shape, t.dtype, t.requires_grad) for t in self._typed()]

    def backward_executable(self) -> Executable:
        with _BUILDING:
            if self.bw is None:
                self.bw = self.owner._compile(
                    _only(self.split, "forward_backward"), "forward_backward",
                    self.number)
            return self.bw

    def first_order_reach(self, inputs, used) -> Optional[List[bool]]:
        """For each of grad_inputs, whether eager's backward reaches it from
        the results `used` alone (the others have no gradient: a loss of one
        head of a two-headed model); None if eager cannot tell. The compiled
        backward gives an input only unused results reach zeros, eager
        gives None (so weight decay leaves it alone). One eager run per
        pattern, on copies of the inputs."""
        if used not in self._first_order_reach:
            with torch.random.fork_rng(devices=[]):
                self._first_order_reach[used] = _eager_autograd(
                    self._flat_fn, list(inputs[:self._num_inputs]), self.lifted,
                    self.grad_inputs, used=used)[0]
        return self._first_order_reach[used]

    def second_order_reach(self, h_args, used, needed,
                           unused=()) -> Optional[Set[int]]:
        """Which of the `needed` arguments of h = vjp(F) (F's arguments,
        then one tangent per floating result) eager's double backward
        reaches from h's results `used` (the gradients of the inputs
        grad_inputs[i]); None if eager cannot tell. The compiled vjp of h
        gives an argument it does not reach zeros; eager gives None
        (an optimizer then skips it): the bias of a critic's last layer
        in a gradient penalty backpropagated alone. One eager run per
        pattern, on copies of the arguments. `unused`: the results whose
        cotangents were None in the first backward (not in its graph)."""
        key = (used, needed, unused)
        if key not in self._second_order_reach:
            self._second_order_reach[key] = _eager_second_order_reach(
                self._flat_fn, list(h_args[:self._num_inputs]), self.lifted,
                [self.grad_inputs[i] for i in used], needed,
                len(h_args) - self.derivative.num_args, unused)
        return self._second_order_reach[key]


def _eager_second_order_reach(flat_fn, inputs, lifted, wrt, needed,
                              num_tangents, unused=()) -> Optional[Set[int]]:
    """See _Plan.second_order_reach: F's arguments are `inputs + lifted`
    (the lifted tensors are the captured ones, which `flat_fn` reads), and
    `wrt` indexes them."""
    from .importer import UndoCapturedWrites
    copies = _eager_copies(inputs)
    args = copies + list(lifted)
    try:
        with UndoCapturedWrites(flat_fn), torch.enable_grad(), \
                inline_compiled_functions():
            results = [o for o in tree_flatten(flat_fn(*copies))[0]
                       if isinstance(o, torch.Tensor) and o.is_floating_point()]
            if len(results) != num_tangents:
                return None     # results written in place: not F's results
            tangents = [torch.ones_like(o).requires_grad_() for o in results]
            pairs = [(o, t) for k, (o, t) in enumerate(zip(results, tangents))
                     if o.requires_grad and k not in unused]
            first = torch.autograd.grad(
                [o for o, _ in pairs], [args[i] for i in wrt],
                [t for _, t in pairs], create_graph=True, allow_unused=True)
            first = [g for g in first if g is not None and g.requires_grad]
            targets = args + tangents
            if any(k >= len(targets) for k in needed):
                return None     # the RNG state
            if not first:
                return set()
            second = torch.autograd.grad(
                first, [targets[k] for k in needed],
                [torch.ones_like(g) for g in first], allow_unused=True)
    except Exception:  # noqa: BLE001 - keep the compiled gradients
        return None
    return {k for k, g in zip(needed, second) if g is not None}


def _signature_key(v):
    """A tensor attribute a plan reads as an input, as a key part: what the
    plan's code depends on (its type, shape, strides, dtype, device and
    whether it requires grad), not which tensor it is; anything else by
    value (constant_key)."""
    if isinstance(v, torch.Tensor):
        return (type(v), v.shape, v.stride(), v.dtype, v.device, v.requires_grad)
    return constant_key(v)


def _global_modes() -> tuple:
    """The global modes a trace bakes in: inference mode, the default
    floating type (of torch.arange(3.), torch.tensor(0.5)) and autocast's
    (the casts it inserts are traced ops)."""
    return (torch.is_inference_mode_enabled(), torch.get_default_dtype(),
            torch.is_autocast_cpu_enabled() and torch.get_autocast_cpu_dtype(),
            torch.is_autocast_enabled() and torch.get_autocast_gpu_dtype())


def _replays(view, grad: bool) -> bool:
    """Whether a result is replayed as a view of an argument: always for
    an unwritten one; for a written one only when the result records no
    gradient (`grad`: the plan records gradients and the compiled result
    requires them), since the copy-back writes the argument under no_grad
    and the result would lose its history."""
    return isinstance(view, ViewReplay) and not (view.written and grad)


def _confirm_written_views(flat_fn, inputs, views):
    """`views` with the candidates on written arguments (stax.aliasing)
    that one eager run on copies of the inputs does not confirm set to
    None: those results stay copies."""
    from .importer import UndoCapturedWrites
    copies = _eager_copies(inputs)
    try:
        with UndoCapturedWrites(flat_fn), torch.no_grad(), \
                inline_compiled_functions():
            results = [o for o in tree_flatten(flat_fn(*copies))[0]
                       if isinstance(o, torch.Tensor)]
    except Exception:  # noqa: BLE001 - unconfirmed: copies
        results = []
    if len(results) != len(views):
        results = [None] * len(views)
    return [v if v is None or not v.written or v.confirmed_by(r, copies)
            else None for v, r in zip(views, results)]


#: Held while a plan is built (CompiledFunction._plan_for). Reentrant: a
#: partition's CompiledFunction builds its plan inside its owner's.
_BUILDING = threading.RLock()


def _bind_attributes(result, bindings):
    """A call's result without the tensors the function binds to module
    attributes (_with_attribute_bindings), which are bound now."""
    if not bindings:
        return result
    out, values = result
    for (module, name, _), value in zip(bindings, values):
        setattr(module, name, value)
    return out


def _class_attributes(cls) -> List[Tuple[Any, Tuple[str, ...]]]:
    """(namespace, names) of the public data attributes of `cls` and its
    bases that are not PyTorch's or Python's: a value set on the class
    (`Model.scale = 3.0`) is read through every instance."""
    out = []
    for c in cls.__mro__:
        if (c.__module__ or "").split(".")[0] in ("torch", "builtins"):
            continue
        names = tuple(k for k, v in vars(c).items()
                      if not k.startswith("_") and not callable(v)
                      and not isinstance(v, (staticmethod, classmethod, property)))
        if names:
            out.append((vars(c), names))
    return out


#: The tensor types compiled code takes (a Parameter is a Tensor whose
#: operators are Tensor's).
_PLAIN_TENSORS = (torch.Tensor, torch.nn.Parameter)


def _dual_input(inputs) -> Optional[str]:
    """Why a call under forward-mode AD cannot run compiled code, or None:
    an input carries a tangent (fwAD.make_dual), which compiled code would
    drop."""
    for i, t in enumerate(inputs):
        if _forward_ad.unpack_dual(t).tangent is not None:
            return f"input #{i} carries a forward-mode AD tangent"
    return None


def _unsupported_tensor(inputs, target: str) -> Optional[str]:
    """Why compiled code cannot read one of `inputs`, or None: it reads
    dense strided memory through `data_ptr()`, on the CPU (target=cpu) or
    on the CPU or a CUDA device (target=cuda). A sparse, quantized or meta
    tensor, or a CUDA tensor given to CPU code, would be read as memory it
    is not."""
    cuda = target == "cuda"
    for t in inputs:
        # The common case first, in few attribute reads (every call).
        if not ((t.is_cpu or (cuda and t.is_cuda)) and t.layout is torch.strided
                and not t.is_quantized and not t.is_inference()
                and not t.is_neg() and not t.is_conj()
                and type(t) in _PLAIN_TENSORS):
            break
    else:
        return None
    devices = ("cpu",) if target == "cpu" else ("cpu", "cuda")
    for i, t in enumerate(inputs):
        if type(t) not in _PLAIN_TENSORS:
            # Its __torch_function__ may change what each operator does,
            # and eager's results are of its type.
            return (f"input #{i} is a {type(t).__name__} (a torch.Tensor "
                    f"subclass)")
        if t.layout != torch.strided:
            return f"input #{i} is a {t.layout} tensor"
        if t.is_quantized:
            return f"input #{i} is a quantized tensor"
        if t.is_neg() or t.is_conj():
            # Its memory holds the negated or conjugated values
            # (`z.conj().imag`, torch._neg_view): what data_ptr() reads
            # is not the tensor's value.
            return (f"input #{i} is a lazily {'negated' if t.is_neg() else 'conjugated'} "
                    f"view (resolve_neg() / resolve_conj() makes it plain)")
        if t.is_inference() and not torch.is_inference_mode_enabled():
            # Outside inference_mode it has no version counter, which the
            # plans' write-backs and saved tensors rely on.
            return (f"input #{i} is an inference tensor (made under "
                    f"torch.inference_mode)")
        if t.device.type not in devices:
            return (f"input #{i} is on {t.device}; target={target} code "
                    f"reads {' or '.join(devices)} tensors")
    return None


class _InPyTorch:
    """The plan of a key whose calls run in PyTorch: each runs on that
    call's own arguments (a list or dict the function changes is the
    caller's), not on a rebuilt copy of the first call's."""


class _Rebuilt(tuple):
    """(args, kwargs) rebuilt around a trace's tensors: containers of
    Stax's own, which the function must not change (_call_with)."""


def _containers(tree):
    """What a call can change in its arguments' lists and dicts: their
    structure and which objects they hold."""
    leaves, spec = tree_flatten(tree)
    return str(spec), [id(v) for v in leaves]


def _call_with(fn, arguments):
    """fn(*args, **kwargs). Where they were rebuilt for a trace, a function
    that appends to a list argument or sets a dict entry would do so only
    while tracing, never at a compiled call: refused (StaxError), so that
    the function runs in PyTorch, on the caller's own containers."""
    a, kw = arguments
    if not isinstance(arguments, _Rebuilt):
        return fn(*a, **kw)
    before = _containers((a, kw))
    out = fn(*a, **kw)
    if _containers((a, kw)) != before:
        raise StaxError(_ARGUMENT_WRITES)
    return out


_ARGUMENT_WRITES = ("the function changes a list, dict or tuple it is passed "
                    "(appends, sets an entry): compiled calls would not")


def _eagerly(flat_fn):
    """What runs a call in PyTorch: a module itself, with its own state
    (it rebinds its buffers as eager does), else the flat function."""
    return getattr(flat_fn, "eagerly", flat_fn)


def _write_rebound_state(names, tensors, swapped) -> None:
    """A forward that binds a buffer to a new tensor (`self.ema = 0.9 *
    self.ema + ...`) left the new value in functional_call's dict: write
    it into the buffer passed in, which the trace then returns as a write
    to copy back (eager's module holds the new value after the call)."""
    for name, t in zip(names, tensors):
        new = swapped[name]
        if new is t:
            continue
        if (not isinstance(new, torch.Tensor) or new.shape != t.shape
                or new.dtype != t.dtype):
            raise StaxError(f"the forward binds '{name}' to "
                            f"{_describe(new)} in place of a {t.dtype} "
                            f"tensor of shape {tuple(t.shape)}")
        with torch.no_grad():
            t.copy_(new)


def _describe(v) -> str:
    if isinstance(v, torch.Tensor):
        return f"a {v.dtype} tensor of shape {tuple(v.shape)}"
    return f"a {type(v).__name__}"


class _Derivative:
    """One function of the chains F, vjp(F), vjp(vjp(F)), ... that higher
    derivatives of a compiled region run. F is the traced @forward;
    `source.vjp(wrt)` is `--stax-joint-graph{wrt gradients-only}` of the
    source: a function of the source's arguments and of one tangent per
    result of the source, returning its gradients with respect to the
    arguments `wrt`, in that order. Each is built and compiled on first
    use (a first-order backward never pays for them), and each autograd
    call picks the variant it needs: gradients only of the arguments that
    need them, from only the results that have cotangents."""

    def __init__(self, owner: "CompiledFunction", num_args: int,
                 text: Optional[str] = None,
                 source: Optional["_Derivative"] = None,
                 wrt: Tuple[int, ...] = (), order: int = 0, number: int = 0):
        self.owner, self.num_args = owner, num_args
        self.source, self.wrt, self.order = source, wrt, order
        # Its files in debug_dir: its plan's number, named by the order and
        # the arguments each vjp of the chain differentiates (the variants
        # of one order differ there).
        self.number = number
        self.label = "forward" if source is None else (
            f"vjp{order}-" + "-".join(
                f"wrt{'_'.join(map(str, d.wrt))}" for d in self._chain()))
        self._text = text
        self._exe: Optional[Executable] = None
        self._vjps: Dict[Tuple[int, ...], "_Derivative"] = {}

    def _chain(self) -> List["_Derivative"]:
        """The vjps from the first to this one."""
        return [] if self.source is None else self.source._chain() + [self]

    @property
    def text(self) -> str:
        with _BUILDING:
            if self._text is None:
                self._text = run_pipeline(
                    self.source.text, "builtin.module(stax-joint-graph"
                    "{wrt=%s gradients-only=true})" % ",".join(map(str, self.wrt)),
                    locations=True)
                self.owner._dump(self.number, f"{self.label}.mlir", self._text)
            return self._text

    def run(self, args) -> List[torch.Tensor]:
        with _BUILDING:
            if self._exe is None:
                self._exe = self.owner._compile(self.text, "forward",
                                                self.number, self.label)
        return _run(self._exe, "forward", list(args))

    def vjp(self, wrt: Tuple[int, ...], num_tangents: int) -> "_Derivative":
        """vjp(self) with respect to arguments `wrt`; its arguments are
        this function's followed by `num_tangents` tangents."""
        with _BUILDING:
            if wrt not in self._vjps:
                self._vjps[wrt] = _Derivative(
                    self.owner, self.num_args + num_tangents, source=self,
                    wrt=wrt, order=self.order + 1, number=self.number)
            return self._vjps[wrt]


def _tangents(cotangents, metas) -> List[torch.Tensor]:
    """One tangent per floating result: autograd's cotangent, or zeros where
    it passes None (a result the loss does not use)."""
    return [g if g is not None else torch.zeros(s, dtype=d, device=v)
            for g, (s, d, v) in zip(cotangents, metas) if d.is_floating_point]


def _meta(tensors):
    return [(t.shape, t.dtype, t.device) for t in tensors]


def _vjp_of(node: _Derivative, args, cotangents, needs_grad,
            reach=None) -> List[Optional[torch.Tensor]]:
    """The gradient of each of `args` (None where not needed) for the
    `cotangents` of `node`'s results (node = source.vjp(wrt), run on
    `args`): vjp(source.vjp(the wrt whose results have cotangents)) with
    respect to the arguments that need gradients, run compiled, and
    recorded for one more derivative when grad mode is on
    (create_graph=True). A function the autodiff cannot differentiate once
    more raises Listing 5.5's error with the reason. `reach(used,
    needed)`, where given, says which of the needed arguments eager's graph
    reaches (None: unknown); the others get None, as in eager."""
    result: List[Optional[torch.Tensor]] = [None] * len(args)
    used = [i for i, c in enumerate(cotangents) if c is not None]
    needed = tuple(k for k, (a, n) in enumerate(zip(args, needs_grad))
                   if n and a.is_floating_point())
    if not used or not needed:
        return result
    source = node.source.vjp(tuple(node.wrt[i] for i in used),
                             node.num_args - node.source.num_args)
    if reach is not None:
        reached = reach(tuple(used), needed)
        if reached is not None:
            needed = tuple(k for k in needed if k in reached)
            if not needed:
                return result
    full = list(args) + [cotangents[i] for i in used]
    try:
        vjp = source.vjp(needed, len(used))
        if torch.is_grad_enabled():
            grads = _CompiledVJP.apply(vjp, *full)
        else:
            grads = vjp.run(full)
    except StaxError as e:
        if "depends differentiably" in str(e):
            # The needed arguments reach these results only through
            # piecewise-constant derivatives (leaky_relu's, a pooling's
            # mask): zeros, as eager's graph gives (its backward formulas
            # read them), not None, which autograd.grad refuses.
            for k in needed:
                result[k] = torch.zeros_like(args[k])
            return result
        raise RuntimeError(f"{DOUBLE_BACKWARD_ERROR} ({str(e).splitlines()[0]})") from e
    for k, g in zip(needed, grads):
        result[k] = g
    return result


def _unchanged(args, versions, what: str) -> None:
    """A higher derivative reruns a function on the arguments of its call:
    refuse (as eager does) if one was written in place since."""
    for i, (t, v) in enumerate(zip(args, versions)):
        if t._version != v:
            raise RuntimeError(
                f"stax.compile: a higher-order derivative recomputes {what} "
                f"from its arguments, but argument #{i} ({t.dtype} "
                f"{list(t.shape)}) was modified in place after the call")


class _CompiledVJP(torch.autograd.Function):
    """A derivative of order two or more, run compiled: forward(node, *args)
    runs `node`; its own backward runs a vjp of it, and so on."""

    @staticmethod
    def forward(ctx, node, *args):
        ctx.node, ctx.args = node, args
        ctx.versions = [t._version for t in args]
        ctx.set_materialize_grads(False)  # None: a result nothing uses
        return tuple(node.run(args))

    @staticmethod
    def backward(ctx, *grads):
        batched = _per_cotangent(_CompiledVJP.backward, ctx, grads)
        if batched is not None:
            return batched
        _unchanged(ctx.args, ctx.versions, "a derivative")
        return (None, *_vjp_of(ctx.node, ctx.args, grads,
                               ctx.needs_input_grad[1:]))


class _CompiledBackward(torch.autograd.Function):
    """The compiled backward when its result must be differentiable
    (create_graph=True; Listing 5.5's wrapper): forward runs the min-cut
    backward on the saved values, bitwise as without create_graph; it
    takes the region's inputs and the tangents too, the arguments of
    h = vjp(F) that it computes, whose gradients (double backward) come
    from vjp(h), built on first use. Where the autodiff cannot
    differentiate F's backward, that backward raises Listing 5.5's
    explicit error."""

    @staticmethod
    def forward(ctx, plan, num_args, versions, unused, *args):
        ctx.plan, ctx.num_args, ctx.versions = plan, num_args, versions
        ctx.unused = unused                 # tangents autograd passed as None
        ctx.h_args = args[num_args:]        # F's arguments, then tangents
        ctx.set_materialize_grads(False)  # None: a gradient nothing uses
        return tuple(_run(plan.backward_executable(), "forward_backward",
                          list(args[:num_args])))

    @staticmethod
    def backward(ctx, *grads):
        batched = _per_cotangent(_CompiledBackward.backward, ctx, grads)
        if batched is not None:
            return batched
        plan, h_args = ctx.plan, ctx.h_args
        f = plan.derivative
        _unchanged(h_args[:f.num_args], ctx.versions, "the compiled function")
        h = f.vjp(tuple(plan.grad_inputs), len(h_args) - f.num_args)
        needs = ctx.needs_input_grad[4 + ctx.num_args:]
        reach = functools.partial(plan.second_order_reach, h_args,
                                  unused=ctx.unused)
        return (None, None, None, None, *[None] * ctx.num_args,
                *_vjp_of(h, h_args, grads, needs, reach))


class _CompiledRegion(torch.autograd.Function):
    @staticmethod
    def forward(ctx, plan, *inputs):
        entry = _entry(plan.fw, "forward_forward")
        n = plan.num_outputs + len(plan.copy_back)
        if plan.saved is not None:
            outs, block = entry.call_saving(inputs, plan.saved)
            saved = [block]
        else:
            outs = entry(inputs)
            outs, saved = outs[:n], outs[n:]
        # A higher derivative reruns the function on these inputs: those
        # the call writes are kept as they were before it.
        ctx.inputs = list(inputs)
        for i in plan.copy_back:
            ctx.inputs[i] = inputs[i].detach().clone()
        ctx.versions = [t._version for t in ctx.inputs]
        _write_back(plan, inputs, outs)
        ctx.plan = plan
        # The backward reads the inputs as the forward did: an input the
        # call writes is saved as it was before (its clone above), not as
        # the write left it.
        ctx.save_for_backward(*[ctx.inputs[i] for i in plan.saved_inputs],
                              *saved)
        ctx.out_meta = plan.out_meta or _meta(outs)
        ctx.set_materialize_grads(False)  # None: a result the loss does not use
        user = outs[:plan.num_outputs]
        if plan.non_differentiable:
            ctx.mark_non_differentiable(*[user[k] for k in plan.non_differentiable])
        return tuple(user)

    @staticmethod
    def backward(ctx, *grads):
        batched = _per_cotangent(_CompiledRegion.backward, ctx, grads)
        if batched is not None:
            return batched
        plan = ctx.plan
        # Differentiable results the loss does not use (autograd passes
        # None; integer results always have None).
        reached, eager = plan.reached, plan.differentiable
        unused = tuple(k for k, g in enumerate(grads) if g is None and (
            eager is None or k >= len(eager) or eager[k]))
        if unused:
            used = tuple(k for k in range(len(grads)) if k not in unused)
            reached = [r and u for r, u in zip(
                reached, plan.first_order_reach(ctx.inputs, used) or reached)]
        saved = ctx.saved_tensors
        k = len(plan.saved_inputs)
        if len(grads) < len(ctx.out_meta):
            # Written inputs are not outputs: their cotangents are zero.
            grads = grads + (None,) * (len(ctx.out_meta) - len(grads))
        tangents = _tangents(grads, ctx.out_meta)
        entry = plan.backward_entry()
        if torch.is_grad_enabled():  # create_graph=True: Listing 5.5
            args = list(saved[:k]) + (
                plan.saved.tensors(saved[k]) if plan.saved is not None
                else list(saved[k:])) + tangents
            if len(args) != len(entry.ins):
                raise StaxError(f"the compiled backward takes {len(entry.ins)} "
                                f"tensors; {len(args) - len(tangents)} saved + "
                                f"{len(tangents)} tangents")
            # The results whose cotangents autograd passed as None, among
            # the floating ones (one tangent each).
            floating = [i for i, (_, d, _) in enumerate(ctx.out_meta)
                        if d.is_floating_point]
            unused_tangents = tuple(j for j, i in enumerate(floating) if grads[i] is None)
            grads_in = _CompiledBackward.apply(plan, len(args), ctx.versions,
                                               unused_tangents, *args,
                                               *ctx.inputs, *tangents)
        elif plan.saved is not None:
            grads_in = entry.call_reading(saved[:k], saved[k], plan.saved, tangents)
        else:
            grads_in = entry(list(saved) + tangents)
        result: List[Optional[torch.Tensor]] = [None] * (len(ctx.needs_input_grad) - 1)
        for i, g, r in zip(plan.grad_inputs, grads_in, reached):
            if r:
                result[i] = g
        return (None, *result)


def _legacy_vmap_level() -> int:
    """The level of torch.vmap's (autograd.functional's vectorize=True,
    is_grads_batched) innermost active vmap; 0 outside one."""
    level = torch._C._vmapmode_increment_nesting()
    torch._C._vmapmode_decrement_nesting()
    return level - 1


def _has_storage(t) -> bool:
    try:
        t.data_ptr()
    except RuntimeError:
        return False
    return True


class _Batch:
    """How vmap batches a cotangent: functorch's vmap (a level of its own)
    or torch.vmap's (torch._vmap_internals), whose batched tensors are
    storage-less tensors at the innermost active level."""

    def __init__(self, g):
        functorch = torch._C._functorch
        self.functorch = functorch.is_batchedtensor(g)
        self.level = (functorch.maybe_get_level(g) if self.functorch
                      else _legacy_vmap_level())

    @staticmethod
    def of(g) -> Optional["_Batch"]:
        if g is None or (not torch._C._functorch.is_batchedtensor(g)
                         and (_has_storage(g) or _legacy_vmap_level() == 0)):
            return None
        return _Batch(g)

    def same(self, other: Optional["_Batch"]) -> bool:
        return other is not None and (other.functorch, other.level) == (
            self.functorch, self.level)

    def unbatched(self, g) -> torch.Tensor:
        """g's values, the batch dimension first."""
        if self.functorch:
            functorch = torch._C._functorch
            return functorch.get_unwrapped(g).movedim(
                functorch.maybe_get_bdim(g), 0)
        # The batch size is only read for a tensor not batched at the level.
        return torch._remove_batch_dim(g, self.level, 1, 0)

    def batched(self, t: torch.Tensor) -> torch.Tensor:
        """t, whose first dimension is the batch, batched again."""
        if self.functorch:
            return torch._C._functorch._add_batch_dim(t, 0, self.level)
        return torch._add_batch_dim(t, 0, self.level)


def _per_cotangent(backward, ctx, grads):
    """`backward(ctx, *grads)` for cotangents vmap batches, or None where
    none is batched. Compiled code reads storage, which a batched tensor
    lacks: backward runs once per cotangent of the outermost batch (an
    inner one is unbatched by the call it makes), and the gradients are
    stacked and batched again. Each call computes what an unbatched
    backward computes, bitwise."""
    batches = [_Batch.of(g) for g in grads]
    found = [b for b in batches if b is not None]
    if not found:
        return None
    batch = max(found, key=lambda b: (b.functorch, b.level))
    columns = [batch.unbatched(g) if batch.same(b) else g
               for g, b in zip(grads, batches)]
    size = next(c.shape[0] for c, b in zip(columns, batches) if batch.same(b))
    rows = [backward(ctx, *[c[i] if batch.same(b) else c
                            for c, b in zip(columns, batches)])
            for i in range(size)]
    out = []
    for results in zip(*rows):
        if all(r is None for r in results):
            out.append(None)
            continue
        like = next(r for r in results if r is not None)
        out.append(batch.batched(torch.stack(
            [torch.zeros_like(like) if r is None else r for r in results])))
    return tuple(out)


class _ConstantRegion(torch.autograd.Function):
    """A compiled forward whose results do not depend differentiably on its
    inputs: the gradient of every input is zero, as in PyTorch."""

    @staticmethod
    def forward(ctx, plan, *inputs):
        outs = _run(plan.fw, "forward", list(inputs))
        _write_back(plan, inputs, outs)
        ctx.inputs_meta = [(t.shape, t.dtype, t.device) for t in inputs]
        user = outs[:plan.num_outputs]
        ctx.mark_non_differentiable(*[o for o, d in zip(user, plan.differentiable)
                                      if not d])
        return tuple(user)

    @staticmethod
    def backward(ctx, *grads):
        return (None, *[torch.zeros(s, dtype=d, device=v) if needed else None
                        for needed, (s, d, v) in zip(ctx.needs_input_grad[1:],
                                                     ctx.inputs_meta)])


def _eager_copies(inputs) -> List[torch.Tensor]:
    """Copies of the inputs for an eager run beside the compiled code (a
    module's buffers are among them and must not be updated twice)."""
    from .importer import layout_copy
    # Plain tensors, also where a backward runs under functorch's vmap
    # (_per_cotangent), which forbids requires_grad_ on its own tensors.
    functorch = torch._C._functorch
    allowed = functorch.get_inplace_requires_grad_allowed()
    functorch.set_inplace_requires_grad_allowed(True)
    try:
        return [layout_copy(t).requires_grad_(t.requires_grad)
                if t.is_floating_point() else layout_copy(t) for t in inputs]
    finally:
        functorch.set_inplace_requires_grad_allowed(allowed)


def _eager_requires_grad(flat_fn, inputs) -> List[bool]:
    """Which flat results of `flat_fn` require grad in eager PyTorch (one
    run on copies; captured tensors it writes are restored)."""
    from .importer import UndoCapturedWrites
    with UndoCapturedWrites(flat_fn), torch.enable_grad():
        outs, _ = tree_flatten(flat_fn(*_eager_copies(inputs)))
    return [isinstance(o, torch.Tensor) and o.requires_grad for o in outs]


def _eager_autograd(flat_fn, inputs, lifted, indices, used=None):
    """What eager's autograd does with `flat_fn`, from one eager forward and
    backward on copies of the inputs (the lifted tensors are the captured
    ones themselves, which the function reads; tensors it writes are
    restored): (for each index of `inputs + lifted` in `indices`, those
    requiring grad, whether autograd reaches that tensor from the results,
    or from the tensor results `used` where given; for each tensor result,
    whether it requires grad: `x.detach()`, a comparison cast to float). If
    eager cannot run it, every input counts as reached (a zero gradient)
    and every floating result as differentiable."""
    from .importer import UndoCapturedWrites
    copies = _eager_copies(inputs)
    targets = [(copies + list(lifted))[i] for i in indices]
    try:
        with UndoCapturedWrites(flat_fn), torch.enable_grad(), \
                inline_compiled_functions():
            results = [o for o in tree_flatten(flat_fn(*copies))[0]
                       if isinstance(o, torch.Tensor)]
            differentiable = [o.requires_grad for o in results]
            outs = [o for k, o in enumerate(results)
                    if o.requires_grad and (used is None or k in used)]
            if not outs:
                return [False] * len(targets), differentiable
            grads = torch.autograd.grad(outs, targets,
                                        [torch.ones_like(o) for o in outs],
                                        allow_unused=True)
    except Exception:  # noqa: BLE001 - keep the compiled gradients
        return [True] * len(targets), None
    return [g is not None for g in grads], differentiable


def _with_device_chip(options: str, device: str) -> str:
    """`options` compiling for `device` ("NVIDIA H200 (sm_90)"), unless they
    name a chip: PTX for a newer architecture does not load on an older
    GPU."""
    m = re.search(r"\(sm_(\d+)\)$", device)
    if not m or re.search(r"(^|\s)chip=", options):
        return options
    chip = int(m.group(1))
    # sm_100 and later need PTX 8.6; PTX 8.0 serves sm_50 to sm_90.
    features = "+ptx86" if chip >= 100 else "+ptx80"
    return f"{options} chip=sm_{chip} ptx-features={features}".strip()


# Plans one compiled function keeps (a new signature beyond them runs in
# PyTorch).
MAX_PLANS = 32


class _UnsupportedArgument(StaxError):
    """An argument leaf that is neither a tensor nor a Python constant."""


class CompiledFunction:
    """The callable that `stax.compile` returns (see the module docstring)."""

    def __init__(self, fn, *, options: str = "", memory_budget=None,
                 debug_dir: Optional[str] = None, partition: bool = True,
                 target: str = "cpu", cache_dir: Optional[str] = None,
                 fallback: Optional[bool] = None):
        self.fn = fn
        # A function Stax cannot compile runs in PyTorch, with a warning;
        # by default only with `partition` (the OpInfo sweep turns both off
        # to see every failure). The partitions of a split function fall
        # back without splitting again.
        self.fallback = partition if fallback is None else fallback
        self.cache_dir = cache_dir
        self.options = options
        self.target = target
        # target=cuda: how the last call passed its tensors, "zero-copy"
        # (CUDA tensors) or "copy" (CPU tensors through device memory).
        self.last_transfer: Optional[str] = None
        self.memory_budget = memory_budget
        self.debug_dir = debug_dir
        self.partition = partition
        self._plans: Dict[Any, Any] = {}
        self._count = 0        # plans built (their files are numbered apart)
        self._captured_modules: Optional[List[torch.nn.Module]] = None
        self._named_modules: Optional[List[Tuple[str, torch.nn.Module]]] = None
        self._captured_values: List[Any] = []   # importer.CapturedName
        self._watched: List[Any] = []
        self._watched_user: List[Any] = []
        self._parents: List[Dict[str, Any]] = []
        self._tensor_dicts: List[Dict[str, Any]] = []
        self._module_dicts: List[Dict[str, Any]] = []
        self._module_counts: Optional[List[int]] = None
        self._hook_dicts: List[Dict[Any, Any]] = []
        # (id(module), name) of the attributes a plan binds after each call
        # (_with_attribute_bindings): results, not keys.
        self._bound: set = set()
        # (a module's __dict__, name) of the bound attributes plans read as
        # inputs (_Plan.attribute_inputs): keys by their signature.
        self._attribute_inputs: List[Tuple[Dict[str, Any], str]] = []
        # What the function reached at the last call (_python_constants):
        # the children of the captured modules, the values of the closure
        # cells and globals it reads, and both as a plan key part.
        self._children: Optional[List[List[Any]]] = None
        self._values: tuple = ()
        self._reached: tuple = ()
        self._warned_plans = False
        self._warned_optimizer = False
        self._optimizers: list = []
        # The iterators and generators it reaches, named (_iterators).
        self._iterators: List[str] = []
        self._warned_iterator = False
        # Why the function runs in PyTorch at every call: a trace changed
        # Python state a plan cannot replay (python_state.py).
        self._python_effects: Optional[str] = None
        self._effect_builds = 0
        # Whether the modules may still hold uninitialized (lazy) parameters.
        self._lazy = True
        # From here on, attributes the module has are set on it.
        self._constructed = True

    # -- a compiled module stands in for the module -------------------------
    # `model = stax.compile(model)` and then `model.parameters()`,
    # `model.train()`, `model.state_dict()`, `model.head.weight`: attributes
    # this object lacks are the module's, and its methods that return the
    # module (train, eval, to, ...) return this object, so chaining keeps
    # the compiled module. Attributes the module has are set on it.

    def __reduce__(self):
        """Pickling and copy.deepcopy (a model's best checkpoint, an EMA
        teacher) keep the function and the options, not the compiled
        plans, which hold machine code: a copy compiles on its first call
        (a load, with cache_dir)."""
        return (_rebuild, (self.fn, dict(
            options=self.options, memory_budget=self.memory_budget,
            debug_dir=self.debug_dir, partition=self.partition,
            target=self.target, cache_dir=self.cache_dir,
            fallback=self.fallback)))

    def __repr__(self):
        return f"stax.compile({self.fn!r}, target={self.target!r})"

    # Python looks special methods up on the class, not through
    # __getattr__: a compiled Sequential or ModuleList indexes, measures
    # and iterates as the module does.
    def __getitem__(self, index):
        return self.fn[index]

    def __len__(self):
        return len(self.fn)

    def __bool__(self):        # not len(): a function or a Linear has none
        return True

    def __iter__(self):
        return iter(self.fn)

    def __getattr__(self, name):
        fn = self.__dict__.get("fn")
        if not isinstance(fn, torch.nn.Module) or name.startswith("__"):
            raise AttributeError(f"'{type(self).__name__}' object has no "
                                 f"attribute '{name}'")
        value = getattr(fn, name)
        if callable(value) and getattr(value, "__self__", None) is fn:
            def method(*args, **kwargs):
                result = value(*args, **kwargs)
                return self if result is fn else result
            method.__name__ = name
            method.__doc__ = getattr(value, "__doc__", None)
            return method
        return value

    def __setattr__(self, name, value):
        fn = self.__dict__.get("fn")
        if (self.__dict__.get("_constructed") and isinstance(fn, torch.nn.Module)
                and name not in self.__dict__ and not hasattr(type(self), name)
                and hasattr(fn, name)):
            setattr(fn, name, value)
        else:
            object.__setattr__(self, name, value)

    def _watched_modules(self) -> List[torch.nn.Module]:
        """The submodules whose attributes select a plan: the compiled
        module's, or those of the modules the function captures (found on
        the first call, with the captured Python constants, and again when
        what the function reaches changes: _python_constants)."""
        if self._captured_modules is None:
            from .importer import captured_state
            self._named_modules = None
            # A module's own forward (and its submodules') can read globals.
            optimizers: list = []
            _, tops, self._captured_values = captured_state(
                self.fn, optimizers=optimizers)
            self._optimizers = optimizers
            if isinstance(self.fn, torch.nn.Module) and self.fn not in tops:
                tops.insert(0, self.fn)
            # A compiled module among them stands for its module.
            self._captured_modules = list(
                {id(m): m for top in tops for m in map(
                    _uncompiled, top.modules())}.values())
            self._iterators = _iterators(self.fn, self._captured_values,
                                         self._captured_modules)
            # Every public attribute of every module: a PyTorch layer's
            # configuration (a dropout rate annealed in training, an eps),
            # a user module's constants (a temperature, a flag, a list of
            # scales) and the tensors it holds outside its buffers.
            # PyTorch's layers hold numbers, tuples, None and functions:
            # read as they are (one hash of the key), while the user's
            # modules' lists and dicts are read by value (constant_key).
            self._watched, self._watched_user = [], []
            for m in self._captured_modules:
                torch_layer = type(m).__module__.startswith("torch.")
                # A tensor attribute of a PyTorch layer is one its forward
                # hooks compute at every call (weight_norm's and
                # spectral_norm's `weight`), not an input: it is traced.
                # A user module's private attributes too (`self._k`, read
                # as a constant), not nn.Module's own state.
                keys = tuple(k for k, v in vars(m).items()
                             if (not k.startswith("_") if torch_layer
                                 else k not in _MODULE_STATE)
                             and not (torch_layer and isinstance(v, torch.Tensor))
                             and (id(m), k) not in self._bound)
                if not torch_layer:
                    # Class attributes a forward reads as self.scale.
                    self._watched_user.extend(_class_attributes(type(m)))
                if not keys:
                    continue
                if torch_layer:
                    self._watched.append(
                        (operator.itemgetter(*keys), vars(m), keys))
                else:
                    self._watched_user.append((vars(m), keys))
            # Hooks run while tracing (forward ones) or refuse (backward
            # ones): which there are is part of the key (_reaching).
            self._hook_dicts = [
                d for m in self._captured_modules
                for d in (m._forward_hooks, m._forward_pre_hooks,
                          m._backward_hooks)] + [
                _module._global_forward_hooks,
                _module._global_forward_pre_hooks,
                _module._global_backward_hooks]
            # Whose children can change: PyTorch's leaf layers never get any.
            self._parents = [
                m._modules for m in self._captured_modules
                if m._modules or not type(m).__module__.startswith("torch.")]
            # The parameters and buffers of the modules a function captures
            # are lifted by identity: one set anew (`m.weight =
            # nn.Parameter(...)`) traces again. (A compiled module's own
            # are its inputs, read at every call: _state.)
            own = ({id(m) for m in self.fn.modules()}
                   if isinstance(self.fn, torch.nn.Module) else set())
            self._tensor_dicts = [
                d for m in self._captured_modules if id(m) not in own
                for d in (m._parameters, m._buffers) if d]
            self._module_dicts = [vars(m) for m in self._captured_modules]
        return self._captured_modules

    def _python_constants(self) -> tuple:
        """What a trace bakes in besides the arguments: the modules'
        training flags, the Python constants of the user's modules and
        those the function reads from closures and globals, and which
        objects it reaches: every captured module's children (a layer set
        in place of None or of another one) and the objects its closure
        cells and globals hold (a model bound again). Part of the plan
        key: changing one traces again (a plan would keep the old value,
        or the old module's parameters)."""
        self._watched_modules()
        # An attribute set after a trace (read by `getattr(self, "t", 1.0)`
        # or `hasattr`) is one the key does not hold yet: a new count of
        # attributes scans the modules again (the count itself is no key:
        # another thread's trace adds functorch's attributes for a while).
        counts = [len(d) for d in self._module_dicts]
        if counts != self._module_counts:
            if self._module_counts is not None:
                self._captured_modules = None
                self._watched_modules()
            self._module_counts = [len(d) for d in self._module_dicts]
        children, values = self._reaching()
        if children != self._children or values != self._values:
            if self._children is not None:
                # Another object: trace again, and watch its submodules.
                self._captured_modules = None
                self._watched_modules()
                children, values = self._reaching()
            self._children, self._values = children, values
            self._reached = values + tuple(
                Identity(c) for cs in children for c in cs)
        key = self._reached
        if self._watched:
            try:
                layers = tuple([get(d) for get, d, _ in self._watched])
                hash(layers)
            except (KeyError, TypeError):   # deleted, or a list set on a layer
                layers = tuple([constant_key(d.get(k))
                                for _, d, keys in self._watched for k in keys])
            key += layers
        if self._watched_user:
            key += tuple([constant_key(d.get(k))
                          for d, keys in self._watched_user for k in keys])
        if self._attribute_inputs:
            key += tuple([_signature_key(d.get(k))
                          for d, k in self._attribute_inputs])
        return key

    def _reaching(self):
        """The children of the captured modules that can have some, and
        the key parts of the closure cells and globals read."""
        values = tuple([get() for get in self._captured_values])
        # Which hooks, not how many: one replaced by another (removed, then
        # registered) computes something else, and what each reads is
        # among the captured values only after a new scan.
        values += (tuple([Identity(h) for d in self._hook_dicts if d
                          for h in d.values()]),)
        if self._tensor_dicts:
            # Which tensors, and which require grad: a GAN's step freezes
            # the other network's parameters (`requires_grad_(False)`) and
            # unfreezes them for its own step; each pattern keeps its plan.
            tensors = [t for d in self._tensor_dicts for t in d.values()]
            values += (tuple(map(id, tensors)),
                       tuple([t is not None and t.requires_grad for t in tensors]))
        return [list(d.values()) for d in self._parents], values

    # -- helpers used by _Plan -------------------------------------------
    def _debug_number(self) -> int:
        """The number of a new plan's files in debug_dir (0 without)."""
        return _debug_number(self.debug_dir) if self.debug_dir else 0

    def _dump(self, number: int, name: str, text: str) -> None:
        if self.debug_dir:
            os.makedirs(self.debug_dir, exist_ok=True)
            with open(os.path.join(self.debug_dir, f"{number:02d}-{name}"),
                      "w") as f:
                f.write(text)

    def _compile(self, text: str, entry: str, number: int,
                 label: Optional[str] = None) -> Executable:
        """Machine code for function `entry` of `text`; with debug_dir,
        its lowered stax IR and LLVM IR are files NN-LABEL.stax.mlir and
        NN-LABEL.ll (LABEL: `entry` unless given)."""
        label = label or entry
        if self.debug_dir:
            self._dump(number, f"{label}.stax.mlir",
                       run_pipeline(text, _lowering_pipeline(self.options)))
        exe = Executable(text, self.options, keep_llvm_ir=bool(self.debug_dir),
                         cache_dir=self.cache_dir)
        exe.target, exe.owner = self.target, self
        if self.debug_dir:
            self._dump(number, f"{label}.ll", exe.llvm_ir)
        return exe

    # -- calling ---------------------------------------------------------
    def _inputs(self, args, kwargs):
        """(the tensors, what else keys the plan, a function making the
        function of those tensors: _flat_fn). The tensors among the
        arguments (keyword ones and those nested in lists, tuples and dicts
        included) are inputs; numbers, strings, bools, None, dtypes and
        devices are baked into the trace and key the plan (a new value
        traces again); an nn.Module's parameters and buffers are inputs
        too, so that they get gradients. Runs at every call: the function
        is made only where a call traces or runs in PyTorch."""
        if not kwargs and all(isinstance(a, torch.Tensor) for a in args):
            leaves, rebuild, constants = list(args), None, ()
        else:
            _register_dataclasses((args, kwargs))
            leaves, spec = tree_flatten((list(args), kwargs))
            for i, a in enumerate(leaves):
                if not isinstance(a, (torch.Tensor,) + _CONSTANT_ARGUMENTS):
                    raise _UnsupportedArgument(
                        f"argument leaf #{i} is a {type(a).__name__}; "
                        "stax.compile functions take tensors (in lists, "
                        "tuples and dicts) and numbers, strings, bools, None, "
                        "dtypes and devices")
            where = [i for i, a in enumerate(leaves) if isinstance(a, torch.Tensor)]
            constants = (str(spec),) + tuple(
                (i, type(a).__name__,
                 (a.start, a.stop, a.step) if isinstance(a, slice)
                 else float_key(a) if type(a) is float else a)
                for i, a in enumerate(leaves)
                if not isinstance(a, torch.Tensor))
            template = list(leaves)
            tensors = [leaves[i] for i in where]

            def rebuild(ts):
                if len(ts) == len(tensors) and all(
                        a is b for a, b in zip(ts, tensors)):
                    # This call's own tensors (it runs in PyTorch): its own
                    # lists and dicts, which the function may change.
                    return list(args), kwargs
                vals = list(template)
                for i, t in zip(where, ts):
                    vals[i] = t
                return _Rebuilt(tree_unflatten(vals, spec))
            leaves = tensors
        make = functools.partial(self._flat_fn, rebuild, len(leaves))
        if isinstance(self.fn, torch.nn.Module):
            leaves += self._state()[1]
        return leaves, constants, make

    def _state(self, names: bool = False):
        """(names or None, tensors) of the compiled module's parameters and
        buffers, in named_parameters() then named_buffers() order (each
        tensor once); those generators cost tens of microseconds a call on
        a TransformerEncoderLayer. The module tree is read again when a
        child changes (_watched_modules)."""
        if self._named_modules is None:
            self._named_modules = list(self.fn.named_modules())
        out_names, tensors = [], []
        for kind in ("_parameters", "_buffers"):
            seen = set()
            for prefix, m in self._named_modules:
                for k, v in getattr(m, kind).items():
                    if v is None or id(v) in seen:
                        continue
                    seen.add(id(v))
                    tensors.append(v)
                    if names:
                        out_names.append(f"{prefix}.{k}" if prefix else k)
        return (out_names if names else None), tensors

    def _flat_fn(self, rebuild, n: int):
        """The function of _inputs' tensors: the `n` argument tensors
        (`rebuild` puts them back among the other arguments; None: they are
        the arguments), then the module's parameters and buffers."""
        if not isinstance(self.fn, torch.nn.Module):
            fn = self.fn
            if rebuild is not None:
                def fn(*ts):
                    return _call_with(self.fn, rebuild(ts))
            holders = [m for m in self._watched_modules() if m._buffers]
            if not holders:
                return self._with_attribute_bindings(fn)

            def call(*ts):
                # Buffers the function binds anew become writes to the
                # captured ones (copied back after each call).
                before = [dict(m._buffers) for m in holders]
                try:
                    return fn(*ts)
                finally:
                    for m, old in zip(holders, before):
                        swapped = dict(m._buffers)
                        m._buffers.update(old)
                        _write_rebound_state(list(old), list(old.values()),
                                             swapped)
            call.eagerly = fn
            return self._with_attribute_bindings(call)
        module = self.fn
        names, _ = self._state(names=True)

        def call_module(*xs):
            from torch.nn.utils.stateless import functional_call
            arguments = (list(xs[:n]), {}) if rebuild is None else rebuild(xs[:n])
            swapped = dict(zip(names, xs[n:]))
            with _compiled_children_uncompiled(module):
                out = _call_with(lambda *a, **kw: functional_call(
                    module, swapped, tuple(a), kw), arguments)
            _write_rebound_state(names, xs[n:], swapped)
            return out

        def run_module(*xs):
            a, kw = (list(xs[:n]), {}) if rebuild is None else rebuild(xs[:n])
            return module(*a, **kw)
        call_module.eagerly = run_module
        return self._with_attribute_bindings(call_module)

    def _with_attribute_bindings(self, fn):
        """`fn`, returning besides its result the tensors it binds to plain
        attributes of the modules it reaches (`self.aux_loss = ...`,
        `self.attn = weights`, weight_norm's `weight`): eager's modules hold
        them after the call, and a trace must not leave its own tensors
        there. Each binding is undone after the call and recorded in
        `.bindings` as (module, name, the value before); the plan binds the
        computed tensors after each call (_bind_attributes)."""
        modules = self._watched_modules()
        if not modules:
            return fn

        def call(*xs):
            before = [dict(vars(m)) for m in modules]
            out = fn(*xs)
            bindings, values = [], []
            for m, old in zip(modules, before):
                attributes = vars(m)
                for k, v in list(attributes.items()):
                    if not isinstance(v, torch.Tensor) or old.get(k) is v:
                        continue
                    bindings.append((m, k, old.get(k)))
                    values.append(v)
                    if k in old:
                        attributes[k] = old[k]
                    else:
                        del attributes[k]
            call.bindings = bindings
            return (out, values) if bindings else out
        call.bindings = []
        call.eagerly = _eagerly(fn)
        return call

    def _unwatch(self, plan, key) -> None:
        """The attributes `plan` binds are results: unless its trace read
        their old values (then each new value traces again), they leave the
        plan key, and the plan is also filed under the key the next call
        computes."""
        read = [c.t for c in plan.constants] + list(plan.lifted)
        # Only an old tensor value the trace did not take is known unread:
        # Python may have read any other (`if self.h is None`, None passed
        # on as an RNN's initial state), and a plan keyed without it would
        # keep the branch the trace took.
        new = {(id(m), k) for m, k, old in plan.bindings
               if isinstance(old, torch.Tensor)
               and not any(old is t for t in read)} - self._bound
        # One the trace took as a lifted input is read at each call: the
        # plan is keyed on its signature, not its identity (a new tensor
        # at every call would trace at every call).
        for m, k, _ in plan.attribute_inputs:
            if (id(m), k) not in self._bound:
                new.add((id(m), k))
                self._attribute_inputs.append((vars(m), k))
        if not new:
            return
        self._bound |= new
        self._captured_modules = None    # watch again, without them
        self._watched_modules()
        self._plans.setdefault(key[:-1] + (self._python_constants(),), plan)

    def __call__(self, *args, **kwargs):
        if inlining():
            # Called by a function being compiled: inlined in its trace.
            return self.fn(*args, **kwargs)
        if torch._C._functorch.are_transforms_active() and any(
                isinstance(t, torch.Tensor)
                and torch._C._functorch.is_functorch_wrapped_tensor(t)
                for t in tree_flatten((args, kwargs))[0]):
            # Under functorch's vmap or grad the arguments are its wrapped
            # tensors, which compiled code cannot read: the transform runs
            # the function itself. (Whether transforms are active is not
            # per thread: another thread may be tracing.)
            warnings.warn("stax.compile: runs in PyTorch under a functorch "
                          "transform (vmap, grad, jacrev ...)", stacklevel=2)
            return self.fn(*args, **kwargs)
        if self._lazy:
            if any(torch.nn.parameter.is_lazy(t) for m in self._watched_modules()
                   for t in list(m.parameters()) + list(m.buffers())):
                # nn.LazyLinear & co. infer their shapes on the first call:
                # that call runs in PyTorch.
                return self.fn(*args, **kwargs)
            self._lazy = False
        if self.target == "cuda":
            # No driver or GPU: StaxError says which.
            self.options = _with_device_chip(self.options, cuda_device())
        if self._python_effects is not None:
            return self.fn(*args, **kwargs)
        # What the function reaches first: a module tree that changed is
        # read again before its parameters are taken as inputs.
        reached = self._python_constants()
        if self._optimizers or self._iterators:
            self._warn_untraced()
            return self.fn(*args, **kwargs)
        try:
            inputs, constants, make_fn = self._inputs(args, kwargs)
        except _UnsupportedArgument as e:
            # An argument compiled code cannot take apart (a dataclass or
            # other object holding tensors): the function runs as it is.
            if _rejects_arguments(self.fn, args, kwargs):
                return self.fn(*args, **kwargs)     # eager's TypeError
            warnings.warn(f"stax.compile: runs {getattr(self.fn, '__name__', 'the function')} "
                          f"in PyTorch: {e}", stacklevel=2)
            return self.fn(*args, **kwargs)
        # Strides are part of the signature: as_strided reads its input's
        # storage, so a plan traced for one layout is wrong for another.
        # Where the tensors are and whether compiled code can read them
        # (_unsupported_tensor) is checked when a key has no plan yet.
        signature = tuple([(t.shape, t.stride(), t.dtype, t.requires_grad,
                            t.device, t.layout, t.is_inference(), type(t),
                            t.is_neg(), t.is_conj())
                           for t in inputs])
        if _forward_ad._current_level >= 0:
            why = _dual_input(inputs)
            if why is not None:
                warnings.warn(f"stax.compile: runs {getattr(self.fn, '__name__', 'the function')} "
                              f"in PyTorch: {why}", stacklevel=2)
                return _eagerly(make_fn())(*inputs)
        grad = torch.is_grad_enabled() and any(s[3] for s in signature)
        # train() / eval() change what a module computes (dropout, batch
        # norm statistics), and so do a module's other Python attributes
        # and the constants a function captures: each value has its own
        # plan, for the module compiled and for the modules a function
        # captures.
        key = (grad, signature, constants, _global_modes(), reached)
        plan = self._plans.get(key)
        if isinstance(plan, _Plan) and plan.watched and plan.stale():
            plan = None
            self._plans.pop(key, None)
        if plan is None and _rejects_arguments(self.fn, args, kwargs):
            # Checked before a trace (whose failure would warn of a
            # fallback): eager raises its own TypeError.
            return self.fn(*args, **kwargs)
        if plan is None:
            why = _unsupported_tensor(inputs, self.target)
            if why is not None:
                warnings.warn(f"stax.compile: runs {getattr(self.fn, '__name__', 'the function')} "
                              f"in PyTorch: {why}", stacklevel=2)
                return _eagerly(make_fn())(*inputs)
        if plan is None and len(self._plans) >= MAX_PLANS:
            # A key that changes at every call (a counter attribute the
            # function reads, a new shape each time) would compile at every
            # call and keep every plan: run in PyTorch from then on.
            if not self._warned_plans:
                warnings.warn(f"stax.compile: {MAX_PLANS} plans built; new "
                              f"signatures (shapes, constants, modes) run in "
                              f"PyTorch", stacklevel=2)
                self._warned_plans = True
            return _eagerly(make_fn())(*inputs)
        if plan is None:
            plan = self._plan_for(key, make_fn(), inputs, grad)
        if isinstance(plan, _InPyTorch):
            return _eagerly(make_fn())(*inputs)
        if not isinstance(plan, _Plan):
            return plan(*inputs)
        if plan.copy_back and _aliases_a_written_input(plan, inputs + plan.lifted):
            warnings.warn("stax.compile: runs this call in PyTorch: an input "
                          "the function writes in place shares memory with "
                          "another input", stacklevel=2)
            return _eagerly(make_fn())(*inputs)
        if plan.attribute_inputs:
            lifted = list(plan.lifted)
            for m, k, j in plan.attribute_inputs:
                lifted[j] = vars(m)[k]
            inputs = inputs + lifted
        elif plan.lifted:
            inputs = inputs + plan.lifted
        if plan.random:
            inputs = inputs + [_rng_state(inputs)]
        if plan.grad:
            outs = _CompiledRegion.apply(plan, *inputs)
        elif plan.constant:
            outs = _ConstantRegion.apply(plan, *inputs)
        else:
            outs = _run(plan.fw, "forward", inputs)
            _write_back(plan, inputs, outs)
            outs = outs[:plan.num_outputs]
        result = plan.unflatten(outs, inputs)
        return _bind_attributes(result, plan.bindings) if plan.bindings else result

    def _warn_untraced(self) -> None:
        """Warns once that the function runs in PyTorch without tracing:
        it reaches state that every trace attempt would change and no
        snapshot restores. An optimizer's step keeps Python state (its
        `state` dict, new tensors in it) and writes parameters; an
        iterator's next() consumes a value a plan would replay forever."""
        name = getattr(self.fn, '__name__', 'the function')
        if self._optimizers and not self._warned_optimizer:
            warnings.warn(f"stax.compile: runs {name} "
                          f"in PyTorch: it reaches a torch.optim optimizer, "
                          f"whose step is not compiled (compile the "
                          f"forward and loss instead)", stacklevel=3)
            self._warned_optimizer = True
        elif self._iterators and not self._optimizers \
                and not self._warned_iterator:
            warnings.warn(f"stax.compile: runs {name} in PyTorch: it "
                          f"reaches the iterator {self._iterators[0]}, whose "
                          f"next() a trace would consume once and a plan "
                          f"would replay as that one value", stacklevel=3)
            self._warned_iterator = True

    def _refuse_backward_hooks(self) -> None:
        """A module's backward hooks see and may replace the gradients of
        its inputs and outputs, which compiled code never forms: the
        function then runs in PyTorch (they were silently skipped)."""
        hooked = [type(m).__name__ for m in self._watched_modules() if m._backward_hooks]
        if _module._global_backward_hooks:
            hooked.append("every module (a global hook)")
        if hooked:
            raise StaxError(f"backward hooks on {', '.join(sorted(set(hooked)))}: "
                            f"compiled code forms no per-module gradients "
                            f"for them to see")

    def _plan_for(self, key, flat_fn, inputs, grad):
        """The plan for `key`, built on its first call. One thread builds
        at a time: functorch's transforms keep global state (threads
        tracing at once fail inside it), and a second thread waiting for
        the same key takes the first one's plan."""
        with _BUILDING:
            plan = self._plans.get(key)
            if plan is not None:
                return plan
            # Tracing runs the random ops eagerly: it must not advance the
            # generator the calls draw their seeds from (a first call would
            # then draw differently from later ones under the same seed).
            with torch.random.fork_rng(devices=[]), PythonStateGuard(
                    self._watched_modules(), self._captured_values,
                    self._python_constants) as guard:
                plan = self._build(flat_fn, inputs, grad)
                if (isinstance(plan, _Plan) and not grad
                        and torch.is_grad_enabled()
                        and any(t.requires_grad for t in plan.lifted)):
                    # Only a captured tensor requires grad: differentiate.
                    plan = self._build(flat_fn, inputs, True)
            # A split function's random ops are in its partitions: count
            # them as drawn.
            reason = guard.reason(not isinstance(plan, _Plan) or plan.random)
            if reason is not None:
                # Its Python effects must happen at every call: PyTorch runs
                # this call (the generators and attributes are as before the
                # trace). A first-call effect (a lazy initialization flag)
                # changes the key, and the next call traces again; an
                # effect seen at two builds (a counter, a random draw)
                # makes every later call run in PyTorch without tracing.
                self._effect_builds += 1
                if self._effect_builds >= 2:
                    self._python_effects = reason
                name = getattr(self.fn, "__name__", None) or type(self.fn).__name__
                warnings.warn(f"stax.compile: runs {name} in PyTorch: "
                              f"{reason}", stacklevel=3)
                return _InPyTorch()
            self._plans[key] = plan
            self._count += 1
            if isinstance(plan, _Plan) and plan.bindings:
                self._unwatch(plan, key)
            return plan

    def _build(self, flat_fn, inputs, grad):
        try:
            self._refuse_backward_hooks()
            if self.partition:
                # Tracing fails on data-dependent control flow (make_fx
                # refuses to read a value): the function then runs in
                # PyTorch, with the warning below.
                split = _split_unsupported(flat_fn, inputs, self)
                if split is not None:
                    bindings = getattr(flat_fn, "bindings", ())
                    if bindings:
                        return lambda *xs: _bind_attributes(split(*xs), bindings)
                    return split
            return _Plan(self, flat_fn, inputs, grad)
        except StaxError as e:
            if not self.fallback:
                raise
            name = getattr(self.fn, "__name__", None)
            if isinstance(self.fn, torch.fx.GraphModule):
                what = "a partition"
            elif isinstance(self.fn, torch.nn.Module):
                what = f"the {type(self.fn).__name__} module"
            else:
                what = name or "the function"
            warnings.warn(f"stax.compile: runs {what} in PyTorch: "
                          f"{str(e).splitlines()[0]}", stacklevel=3)
            if _ARGUMENT_WRITES in str(e):
                # Its arguments differ at every call (a list it grows):
                # no new trace each time.
                self._python_effects = _ARGUMENT_WRITES
            return _InPyTorch()


class CompiledModule(CompiledFunction, torch.nn.Module):
    """What `stax.compile` returns for an nn.Module: a CompiledFunction
    that is an nn.Module too, so that a parent registers it as a child
    (`self.encoder = stax.compile(Encoder())`), and its parameters are
    the parent's, in its state_dict and its optimizer. It holds the very
    containers of the module (parameters, buffers, children, hooks), not
    copies: names have no prefix (a checkpoint of the uncompiled model
    loads), and whatever is registered on either is the module's. The
    methods a module may override (train, _apply, state dict I/O, apply)
    are the module's."""

    _stax_compiled_module = True

    def __init__(self, module: torch.nn.Module, **settings):
        CompiledFunction.__init__(self, module, **settings)
        for name in _MODULE_CONTAINERS:
            object.__setattr__(self, name, module.__dict__[name])

    def forward(self, *args, **kwargs):
        return self.fn.forward(*args, **kwargs)

    def train(self, mode: bool = True):
        self.fn.train(mode)
        return self

    def apply(self, fn):
        self.fn.apply(fn)
        return self

    def _apply(self, fn):
        self.fn._apply(fn)
        return self

    def _save_to_state_dict(self, *args, **kwargs):
        return self.fn._save_to_state_dict(*args, **kwargs)

    def _load_from_state_dict(self, *args, **kwargs):
        return self.fn._load_from_state_dict(*args, **kwargs)


#: What nn.Module.__init__ sets (and register_*_hook may add): not a user
#: module's constants.
_MODULE_STATE = frozenset(vars(torch.nn.Module())) | {
    "_is_full_backward_hook", "_forward_hooks_with_kwargs",
    "_forward_pre_hooks_with_kwargs", "_state_dict_pre_hooks",
    # What functorch's functional_call sets on a module while it traces.
    "_attr_to_path", "_orig_class"}


#: The containers every nn.Module holds (parameters, buffers, children,
#: hooks) that a CompiledModule shares with its module; its other state
#: (`training`) is read and written through to the module.
_MODULE_CONTAINERS = tuple(k for k, v in vars(torch.nn.Module()).items()
                           if isinstance(v, (dict, set)))


def _is_iterator(v) -> bool:
    """An iterator or generator (it has __next__), not a file: files are
    iterators too, but model code writes logs to them."""
    return isinstance(v, collections.abc.Iterator) and \
        not isinstance(v, io.IOBase)


def _iterators(fn, names, modules) -> List[str]:
    """The iterators and generators `fn` reaches, as "'NAME' (a TYPE)":
    bound to the globals and closure cells it reads (`names`, importer's
    CapturedName), held in the lists, tuples, dicts and plain objects
    there, or in the attributes of the user's `modules`. Their state
    cannot be snapshotted: a trace would consume their values."""
    cells = _cell_names(fn)
    todo = []
    for n in names:
        if n.name is None:
            label = cells.get(id(n.holder), "a variable it captures")
        elif n.name in ("__defaults__", "__kwdefaults__", "default"):
            label = "a default argument"
        else:
            label = n.name
        todo.append((n.binding(), label, 0))
    for m in modules:
        if not type(m).__module__.startswith("torch."):
            todo.extend((v, f"{type(m).__name__}.{k}", 1)
                        for k, v in vars(m).items() if k not in _MODULE_STATE)
    found, seen = [], set()
    while todo and len(seen) < 10_000:
        v, label, depth = todo.pop(0)
        if id(v) in seen:
            continue
        seen.add(id(v))
        if _is_iterator(v):
            found.append(f"{label!r} (a {type(v).__module__}.{type(v).__qualname__})"
                         if type(v).__module__ != "builtins"
                         else f"{label!r} (a {type(v).__qualname__})")
        elif depth < 3:
            todo.extend((e, f"{label}{suffix}", depth + 1)
                        for suffix, e in _members(v))
    return found


def _members(v):
    """(path suffix, value) of what a list, tuple, dict or plain object
    holds; nothing for anything else."""
    from ._keys import _plain_object
    if isinstance(v, (list, tuple)):
        return [(f"[{i}]", e) for i, e in enumerate(v[:1000])]
    if isinstance(v, dict):
        return [(f"[{k!r}]", e) for k, e in itertools.islice(v.items(), 1000)]
    if _plain_object(v):
        return [(f".{k}", e) for k, e in vars(v).items()
                if not k.startswith("__")]
    return []


def _cell_names(fn) -> Dict[int, str]:
    """{id(cell): variable name} of `fn`'s closure (a method's function's)."""
    f = getattr(fn, "__func__", fn)
    code, closure = getattr(f, "__code__", None), getattr(f, "__closure__", None)
    if code is None or not closure:
        return {}
    return {id(c): name for name, c in zip(code.co_freevars, closure)}


#: Per debug_dir (its real path), the numbers its files took in this
#: process: every plan of every compiled function (and of each partition
#: of a split one) writing there takes the next, so none overwrites
#: another's files.
_DEBUG_NUMBERS: Dict[str, Any] = {}
_DEBUG_LOCK = threading.Lock()


def _debug_number(debug_dir) -> int:
    with _DEBUG_LOCK:
        counter = _DEBUG_NUMBERS.setdefault(os.path.realpath(debug_dir),
                                            itertools.count())
        return next(counter)


@functools.lru_cache(maxsize=None)
def _is_lowering_option(option: str) -> bool:
    """Whether stax-lowering-pipeline takes `option` (key=value): the
    options string also holds code generation's (vector-width=...). Asked
    once per option, with debug_dir only."""
    with _stderr_silenced():
        try:
            run_pipeline("module {}", "builtin.module("
                         "stax-lowering-pipeline{%s})" % option)
            return True
        except StaxError:
            return False


@contextlib.contextmanager
def _stderr_silenced():
    """File descriptor 2 on /dev/null: the pass options parser prints its
    refusal of an option there (another thread's output is lost for that
    moment). Where it cannot be redirected, nothing is silenced."""
    sys.stderr.flush()
    try:
        saved = os.dup(2)
    except OSError:
        yield
        return
    try:
        with open(os.devnull, "w") as null:
            os.dup2(null.fileno(), 2)
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)


def _lowering_pipeline(options: str) -> str:
    """The pipeline whose result debug_dir's NN-*.stax.mlir files hold:
    the lowering with the options that select what it does (target, fuse,
    split-reductions, ...), as the compile runs it."""
    kept = " ".join(o for o in options.split() if _is_lowering_option(o))
    return ("builtin.module(stax-lowering-pipeline%s)"
            % ("{%s}" % kept if kept else ""))


def _uncompiled(module: torch.nn.Module) -> torch.nn.Module:
    """The module a CompiledModule compiles; any other module itself."""
    return module.fn if isinstance(module, CompiledModule) else module


@contextlib.contextmanager
def _compiled_children_uncompiled(module: torch.nn.Module):
    """`module`'s tree with each compiled child replaced by its module
    while a trace runs: torch.func's functional_call swaps the parameters
    of the module found at each name, which must be the one whose forward
    the trace runs (a CompiledModule inlines its module's)."""
    swapped = []
    for m in list(module.modules()):
        for name, child in list(m._modules.items()):
            if isinstance(child, CompiledModule):
                swapped.append((m._modules, name, child))
                m._modules[name] = child.fn
    try:
        yield
    finally:
        for children, name, child in reversed(swapped):
            children[name] = child


class _CompiledSubmodule(torch.nn.Module):
    """A compiled partition in the place of its GraphModule."""

    def __init__(self, compiled: CompiledFunction):
        super().__init__()
        self.compiled = compiled

    def forward(self, *xs):
        return self.compiled(*xs)


def _defer_writes(gm: torch.fx.GraphModule) -> Tuple[List[Callable], Set[int]]:
    """Removes the `copy_` nodes through which a functionalized graph
    writes its inputs and the tensors it captures (get_attr: a BatchNorm's
    statistics), makes their new values extra trailing outputs, and
    returns, per such output, how to find the tensor it goes into from the
    graph's inputs, and the indices of the inputs written. A graph split
    into partitions orders a write (it has no users) by its operands only:
    it could run before another partition's read of the same tensor."""
    destinations: List[Callable] = []
    written: Set[int] = set()
    placeholders = [n for n in gm.graph.nodes if n.op == "placeholder"]
    output = next(n for n in gm.graph.nodes if n.op == "output")
    values = list(output.args[0])
    for n in list(gm.graph.nodes):
        if not (n.op == "call_function"
                and n.target is torch.ops.aten.copy_.default and not n.users):
            continue
        dest = n.args[0]
        if dest.op == "placeholder":
            k = placeholders.index(dest)
            destinations.append(lambda xs, k=k: xs[k])
            written.add(k)
        elif dest.op == "get_attr":
            tensor = getattr(gm, str(dest.target))
            destinations.append(lambda xs, t=tensor: t)
        else:
            continue
        values.append(n.args[1])
        gm.graph.erase_node(n)
    output.args = (values,)
    gm.recompile()
    return destinations, written


def _split_unsupported(flat_fn, inputs, owner: CompiledFunction):
    """When the traced graph has operators the importer does not map, a
    GraphModule whose supported partitions are compiled by Stax and whose
    other nodes run in PyTorch; None when every operator is supported."""
    from torch.fx.passes.infra.partitioner import CapabilityBasedPartitioner
    from torch.fx.passes.operator_support import OperatorSupport
    from .importer import trace, unsupported_nodes

    spec = {}

    def leaves(*xs):
        out, spec["spec"] = _flatten_result(flat_fn(*xs))
        return out
    # Trace errors name the function compiled, not this wrapper.
    leaves.__name__ = getattr(owner.fn, "__name__", type(owner.fn).__name__)

    copies = [t.detach().requires_grad_(t.requires_grad)
              if t.is_floating_point() else t.detach() for t in inputs]
    gm = trace(leaves, *copies)
    roots, dependent = unsupported_nodes(gm, copies)
    if not roots:
        return None
    outside = set(roots) | set(dependent)

    def importable(node):
        return node not in outside

    message = ("stax.compile: runs in PyTorch (no Stax import): "
               + ", ".join(sorted({str(n.target) for n in roots})))
    if dependent:
        message += (f", and {len(dependent)} op{'s' * (len(dependent) != 1)}"
                    f" after a data-dependent shape (a boolean mask, "
                    f"masked_select, nonzero ...)")
    warnings.warn(message, stacklevel=4)

    class Support(OperatorSupport):
        def is_node_supported(self, submodules, node):
            return node.op == "call_function" and importable(node)

    writes, written = _defer_writes(gm)
    partitioner = CapabilityBasedPartitioner(gm, Support(),
                                             allows_single_node_partition=True)
    fused = partitioner.fuse_partitions(partitioner.propose_partitions())
    _before_output(fused.graph)
    for name, sub in list(fused.named_children()):
        if isinstance(sub, torch.fx.GraphModule) and name.startswith("fused_"):
            setattr(fused, name, _CompiledSubmodule(CompiledFunction(
                sub, options=owner.options, target=owner.target,
                memory_budget=owner.memory_budget,
                debug_dir=owner.debug_dir, partition=False, fallback=True,
                cache_dir=owner.cache_dir)))
    fused.recompile()

    def run(*xs):
        # The partitions read (and may save for their backward) the inputs
        # the function writes before the deferred writes below: on clones,
        # through which gradients still flow, so that a write does not
        # change what a backward reads (autograd's version check refused
        # it: weight clipping, EmbeddingBag's max_norm).
        try:
            outs = list(fused(*[x.clone() if k in written else x
                                for k, x in enumerate(xs)]))
        except torch._C._LinAlgError:
            # A factorization's check failed (a singular matrix): the
            # function may catch it (`except RuntimeError:` adding jitter),
            # which the graph cannot: the call runs in PyTorch, raising or
            # not as eager does. (The writes above were deferred: the
            # inputs are as the caller gave them.)
            return flat_fn(*xs)
        if writes:
            # After every partition has read the old values; under no_grad
            # as the unsplit function's copy-back (_write_back).
            new = outs[len(outs) - len(writes):]
            del outs[len(outs) - len(writes):]
            with torch.no_grad():
                for where, value in zip(writes, new):
                    where(xs).copy_(value)
        return tree_unflatten(outs, spec["spec"])
    return run


def _before_output(graph: torch.fx.Graph) -> None:
    """Moves the nodes the partitioner's topological sort left after the
    output (those without users: `_linalg_check_errors`, which raises for a
    singular matrix) before it, where they run."""
    nodes = list(graph.nodes)
    at = next(k for k, n in enumerate(nodes) if n.op == "output")
    for n in nodes[at + 1:]:
        nodes[at].prepend(n)


def _rebuild(fn, settings) -> CompiledFunction:
    """A CompiledFunction unpickled or deep-copied (__reduce__)."""
    return _compiled(fn, **settings)


def _check_memory_budget(budget) -> None:
    """None, a byte count (an int >= 0) or a fraction of what the forward
    would save with no budget (a float in [0, 1])."""
    if budget is None:
        return
    if isinstance(budget, bool) or not isinstance(budget, numbers.Real):
        raise TypeError(f"stax.compile: memory_budget must be a byte count "
                        f"(int) or a fraction (float in [0, 1]), got "
                        f"{type(budget).__name__}")
    if isinstance(budget, numbers.Integral):
        if budget < 0:
            raise ValueError(f"stax.compile: memory_budget={budget}: a byte "
                             f"count is at least 0")
    elif not 0.0 <= budget <= 1.0:
        raise ValueError(f"stax.compile: memory_budget={budget}: a float "
                         f"budget is a fraction in [0, 1]; give bytes as "
                         f"an int")


def _directory_option(name: str, value) -> Optional[str]:
    """A debug_dir or cache_dir as a str path (None stays None); raises
    for a value that names no directory: not a str or os.PathLike of one
    (bytes: the files' names are str), "" (None turns the option off),
    or an existing file that is not a directory."""
    if value is None:
        return None
    path = os.fspath(value) if isinstance(value, os.PathLike) else value
    if not isinstance(path, str):
        raise TypeError(f"stax.compile: {name} must be a directory path "
                        f"(str or os.PathLike), got {type(value).__name__}")
    if not path:
        raise ValueError(f"stax.compile: {name}='' names no directory "
                         f"(pass None for none)")
    if os.path.exists(path) and not os.path.isdir(path):
        raise ValueError(f"stax.compile: {name}={path!r} is a file, not a "
                         f"directory")
    return path


def _writable_directory(path: str) -> Optional[str]:
    """Makes directory `path` (and its parents) if needed; None if a file
    can be written in it, else why not."""
    try:
        os.makedirs(path, exist_ok=True)
        with tempfile.TemporaryFile(dir=path):
            pass
    except OSError as e:
        return e.strerror or str(e)
    return None


def _check_debug_dir(debug_dir) -> Optional[str]:
    """debug_dir as a str; it must be a directory Stax can write (raised
    here, not as an OSError at the first call)."""
    path = _directory_option("debug_dir", debug_dir)
    why = path and _writable_directory(path)
    if why:
        raise ValueError(f"stax.compile: debug_dir={path!r}: cannot write "
                         f"files there ({why})")
    return path


def _check_cache_dir(cache_dir) -> Optional[str]:
    """cache_dir as a str. One it cannot write (read-only, or under a
    file) only loses the cache, with one warning now: code already there
    still loads (a cache shared read-only)."""
    path = _directory_option("cache_dir", cache_dir)
    why = path and _writable_directory(path)
    if why:
        warnings.warn(f"stax.compile: cache_dir={path!r}: cannot write "
                      f"there ({why}); compiled code is not kept on disk",
                      stacklevel=3)
    return path


def _rejects_arguments(fn, args, kwargs) -> bool:
    """Whether eager itself refuses these arguments with a TypeError (a
    wrong number, an unknown keyword): the call then runs `fn` to raise
    it, with no warning about running in PyTorch. False where the
    signature is unknown (a builtin) or may not be the one called (a
    module's forward pre-hooks may change its arguments; a wrapper's own
    signature is read, not the function's it wraps)."""
    if isinstance(fn, torch.nn.Module):
        if fn._forward_pre_hooks or _module._global_forward_pre_hooks:
            return False
        fn = fn.forward
    try:
        signature = inspect.signature(fn, follow_wrapped=False)
    except (TypeError, ValueError):
        return False
    try:
        signature.bind(*args, **kwargs)
    except TypeError:
        return True
    return False


def _memory_budget_option(budget) -> str:
    """--stax-mincut's memory-budget: an int is bytes, a float a fraction
    (written in fixed notation, which every version of the pass reads as
    one)."""
    if budget is None:
        return ""
    if isinstance(budget, numbers.Integral):
        return " memory-budget=%d" % budget
    return " memory-budget=%.17f" % budget


def compile(fn_or_module=None, *, target: str = "cpu", memory_budget=None,
            options: str = "", debug_dir: Optional[str] = None,
            check_nan: bool = False,
            cache_dir: Optional[str] = None) -> CompiledFunction:
    """Compiles `fn_or_module` (a function of tensors or an nn.Module) with
    Stax for `target`. `memory_budget` bounds the bytes the forward saves
    for the backward (--stax-mincut memory-budget: bytes, or a fraction in
    [0, 1]); `options` are --stax-pipeline options (e.g. "vector-width=1").
    `debug_dir` (a directory, made if needed) receives for each plan, as
    it is built, files NN-*: NN numbers the plans built in this process by
    every function and partition writing there, and each plan's files,
    its backward's too, share its number. They are the imported tp module
    (NN-tp.mlir); with gradients the joint graph (NN-joint.mlir), the
    min-cut picture (NN-mincut.dot) and the split forward and backward
    (NN-split.mlir); for each function compiled, its IR after
    stax-lowering-pipeline run with the lowering options among `options`
    (NN-NAME.stax.mlir) and its optimized LLVM IR (NN-NAME.ll), NAME being
    forward, forward_forward or forward_backward (written when the
    backward is first compiled), or for higher derivatives
    vjpK-wrtI_J-...-wrtL_M (order K; the arguments each vjp of the chain
    differentiates), whose tp module is NN-NAME.mlir. The traced FX graph
    and the IR between the lowering's passes are not written.
    `check_nan` (True or False) is --stax-pipeline's check-nan: a call
    whose compiled code stores a NaN raises StaxError naming the node, its
    source location, the element and the function; the test costs a
    compare and a branch per stored value (or vector). With
    `cache_dir` (or the STAX_CACHE_DIR environment variable), target=cpu
    machine code is kept there and a later process loads it instead of
    compiling (tracing and the min cut still run; the key is the module
    text, the options, the host CPU and the build of Stax; code compiled
    earlier in the process is written to a cache_dir it is not in yet).
    A cache_dir that cannot be written only loses the cache (one warning
    here); a debug_dir or cache_dir that is not a str or os.PathLike, is
    "", or names a file, and a debug_dir that cannot be written, raise
    here. A call with arguments the function does not take raises
    eager's TypeError.

    Without `fn_or_module`, returns a decorator with these options
    (`@stax.compile(memory_budget=0.5)`), as torch.compile does."""
    if target not in ("cpu", "cuda"):
        raise StaxError(f"target={target!r}: Stax generates code for 'cpu' "
                        "and 'cuda'")
    # Argument errors are the caller's: raised here (by the decorator form
    # too), not turned into a fallback to PyTorch at the first call.
    _check_memory_budget(memory_budget)
    if not isinstance(check_nan, (bool, np.bool_)):
        # A string such as "false" is truthy: it turned checking on.
        raise TypeError(f"stax.compile: check_nan must be True or False, "
                        f"got {check_nan!r} ({type(check_nan).__name__})")
    check_nan = bool(check_nan)
    debug_dir = _check_debug_dir(debug_dir)
    cache_dir = _check_cache_dir(cache_dir)
    full_options = options
    if check_nan:
        full_options = f"{full_options} check-nan=true".strip()
    if target == "cuda":
        full_options = f"target=cuda {full_options}".strip()
    check_pipeline_options(full_options)
    if fn_or_module is None:
        return functools.partial(
            compile, target=target, memory_budget=memory_budget,
            options=options, debug_dir=debug_dir, check_nan=check_nan,
            cache_dir=cache_dir)
    if not callable(fn_or_module):
        raise TypeError(f"stax.compile: expected a function or an "
                        f"nn.Module, got {type(fn_or_module).__name__}")
    options = full_options
    return _compiled(fn_or_module, options=options, target=target,
                     memory_budget=memory_budget, debug_dir=debug_dir,
                     cache_dir=cache_dir)


def _compiled(fn, **settings) -> CompiledFunction:
    """A CompiledModule for an nn.Module, else a CompiledFunction."""
    if isinstance(fn, torch.nn.Module):
        return CompiledModule(fn, **settings)
    return CompiledFunction(fn, **settings)
