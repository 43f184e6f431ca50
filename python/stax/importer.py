"""PyTorch -> `tp` dialect importer.

    text = import_torch(fn, *example_inputs, name="forward")
    text = import_fx_graph(graph_module, example_inputs, name="joint")

`import_torch` traces `fn` with `make_fx` (one ATen op per FX node) and emits
one `func.func @<name>` whose arguments are the inputs in call order and whose
results are the flattened outputs.  Arguments whose example tensor requires
grad carry the unit attribute `{tp.requires_grad}`.  A graph with random
operators (rand, randn, bernoulli, dropout with 0 < p < 1) gets one more,
trailing argument `%rng_state: tensor<2xi64> {tp.rng_state}` ([seed, offset],
see TpRandomOps.td); its random ops get counters in program order and the
function the attribute `tp.rng_blocks` (the Philox blocks it draws: add it to
the offset for fresh numbers).

Every op is emitted in MLIR *generic* form,

    %3 = "tp.add"(%1, %2) <{alpha = 1 : i64}> : (tensor<..>, tensor<..>) -> tensor<..> loc("add_1 (aten.add.Tensor)")

so the importer does not depend on custom assembly formats; inherent
attributes are written as properties.  Result types come from the traced
values (shape and dtype of each node's tensor); the `tp` verifier re-infers
them, so an importer mistake shows up as a verification error located at the
FX node (`loc("<node> (<overload>)")`).  The text is then parsed, verified and
pretty-printed by `stax.run_pipeline`.

The mapping from ATen overloads to `tp` ops is the table `_TABLE` at the end
of this file: one entry per overload, built from a few emitter constructors
(`_op` for 1:1 operand/attribute mappings, `_binary` for the Tensor overloads
that may receive Python numbers, `_reduction`, `_creation`, ...).  The
in-place overloads with a `tp` twin (`add_`, `mul_`, `copy_`, `index_put_`,
... — `_INPLACE_OPS`) become in-place `tp` ops, which `--stax-functionalize`
rewrites.  Anything not in the table, and every other in-place / out=
overload, raises `StaxError` naming the overload and the FX node.
"""

from __future__ import annotations

import builtins
import contextlib
import dis
import functools
import math
import operator
import re
import struct
import sys
import threading
import types
import warnings
import weakref
from typing import Any, Callable, Dict, List, Optional, Sequence

import torch
import torch.fx as fx
from torch.utils._pytree import tree_flatten, tree_map, tree_unflatten

from ._capi import StaxError
from .aliasing import output_views, returns_view, storage_root
from .fx_values import same_value
from .masked_reductions import masked_reductions_as_where
from ._keys import (CONSTANT_CONTAINER_MAX, NUMPY_BYTES_MAX, Identity,
                    _plain_object, constant_key, unwatched)
from ._tracing import inline_compiled_functions

__all__ = ["import_torch", "import_fx_graph", "trace", "trace_joint", "mlir_type",
           "supported_overloads", "StaxError"]

from ._ops import aten

INT64_MAX = 9223372036854775807

# ---------------------------------------------------------------------------
# Types and attribute literals
# ---------------------------------------------------------------------------

# uint8 is MLIR's unsigned `ui8`, the only unsigned dtype PyTorch computes
# with: its promotion (uint8 + int8 -> int16), comparisons and conversions
# differ from int8's, so the type itself carries the signedness.
_DTYPES = {
    torch.float32: "f32", torch.float64: "f64", torch.float16: "f16",
    torch.bfloat16: "bf16", torch.int64: "i64", torch.int32: "i32",
    torch.int16: "i16", torch.int8: "i8", torch.uint8: "ui8", torch.bool: "i1",
}


def _elt(dtype: torch.dtype, where: str = "") -> str:
    try:
        return _DTYPES[dtype]
    except KeyError:
        raise StaxError(f"unsupported dtype {dtype}{where}") from None


def mlir_type(t, where: str = "") -> str:
    """`tensor<2x3xf32>` for a tensor (or FakeTensor / TensorMetadata)."""
    shape = tuple(int(d) for d in t.shape)
    elt = _elt(t.dtype, where)
    return "tensor<" + "".join(f"{d}x" for d in shape) + elt + ">"


def _is_number(v) -> bool:
    return isinstance(v, (bool, int, float)) and not isinstance(v, fx.Node)


def _is_integer_elt(elt: str) -> bool:
    """Whether MLIR element type `elt` is an integer other than bool (i1):
    signless (i8 ... i64) or unsigned (ui8)."""
    return elt != "i1" and elt.startswith(("i", "ui"))


def _float_lit(v: float) -> str:
    """An MLIR float literal that parses back to exactly `v` (as f64)."""
    v = float(v)
    if not math.isfinite(v):
        return "0x%016X" % struct.unpack("<Q", struct.pack("<d", v))[0]
    r = repr(v)  # shortest round-tripping decimal
    if "e" in r:
        mant, exp = r.split("e")
        if "." not in mant:
            mant += ".0"
        return f"{mant}e{exp}"
    return r if "." in r else r + ".0"


def _f64(v) -> str:
    return f"{_float_lit(v)} : f64"


def _i64(v) -> str:
    return f"{int(v)} : i64"


def _bool(v) -> str:
    return "true" if v else "false"


def _scalar(v) -> str:
    """A `Tp_ScalarAttr`: bool -> i1, int -> i64, float -> f64."""
    if isinstance(v, bool):
        return _bool(v)
    if isinstance(v, int):
        return _i64(v)
    if isinstance(v, float):
        return _f64(v)
    raise StaxError(f"expected a Python number, got {type(v).__name__} {v!r}")


def _dims(v) -> str:
    if v is None:
        v = []
    elif isinstance(v, int):
        v = [v]
    vals = [int(x) for x in v]
    return "array<i64" + (": " + ", ".join(map(str, vals)) if vals else "") + ">"


def _type_attr(dtype) -> str:
    return _elt(dtype)


def _str(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _dense(t: torch.Tensor, where: str) -> str:
    """`dense<...> : tensor<...>` with the exact values of `t`."""
    t = t.detach().cpu().contiguous()
    ty = mlir_type(t, where)
    if t.dtype == torch.bool:
        def nest(x):
            if isinstance(x, list):
                return "[" + ", ".join(nest(y) for y in x) + "]"
            return "true" if x else "false"
        return f"dense<{nest(t.tolist())}> : {ty}"
    if t.numel() == 0:
        return f"dense<> : {ty}"
    if t.dtype == torch.bfloat16:
        raw = t.view(torch.int16).numpy().tobytes()
    else:
        raw = t.numpy().tobytes()
    if struct.pack("=H", 1) != b"\x01\x00":  # pragma: no cover
        raise StaxError("constant import needs a little-endian host")
    return f'dense<"0x{raw.hex().upper()}"> : {ty}'


# ---------------------------------------------------------------------------
# Node helpers
# ---------------------------------------------------------------------------


def _overload_name(target) -> str:
    if isinstance(target, torch._ops.OpOverload):
        return str(target)
    if isinstance(target, torch._ops.OpOverloadPacket):
        return str(target) + " (packet)"
    mod = getattr(target, "__module__", None) or ""
    return f"{mod}.{getattr(target, '__name__', repr(target))}".lstrip(".")


def _is_inplace(target) -> bool:
    """Mutating overloads: `add_`, `bernoulli_`, out= variants."""
    if not isinstance(target, torch._ops.OpOverload):
        return False
    schema = target._schema
    base = schema.name.split("::")[-1]
    if base.endswith("_") and not base.endswith("__"):
        return True
    return any(a.alias_info is not None and a.alias_info.is_write
               for a in schema.arguments)


def _bind(node: fx.Node) -> Dict[str, Any]:
    """Arguments of an OpOverload call by schema name, defaults filled in."""
    schema = node.target._schema
    out: Dict[str, Any] = {}
    pos = 0
    for arg in schema.arguments:
        if not arg.kwarg_only and pos < len(node.args):
            out[arg.name] = node.args[pos]
            pos += 1
        elif arg.name in node.kwargs:
            out[arg.name] = node.kwargs[arg.name]
        elif arg.has_default_value():
            out[arg.name] = arg.default_value
        else:
            out[arg.name] = None
    return out


# ---------------------------------------------------------------------------
# Value propagation (shapes and dtypes of every node)
# ---------------------------------------------------------------------------


class _Recorder(fx.Interpreter):
    def __init__(self, gm, vals):
        super().__init__(gm)
        self.vals = vals

    def run_node(self, n):
        if (n.op == "call_function" and _is_inplace(n.target)
                and n.target not in _FRESH_INPLACE
                and n.target not in _INPLACE_OPS):
            # Never execute mutations; the importer rejects them anyway.
            raise _Stop(n)
        r = super().run_node(n)
        if n.op == "call_function" and n.target in _STATISTICS_IN_INPUT_TYPE:
            r = _statistics_in_input_type(n, r, self.env[n.args[0]])
        self.vals[n] = r
        return r


# Normalizations whose CPU kernels return their statistics (mean, rstd) in
# the input's type; PyTorch 1.13's meta functions say float32 for float16
# and bfloat16 inputs (the CUDA kernels' type), so fake propagation would
# type everything computed from them wider than eager does.
_STATISTICS_IN_INPUT_TYPE = {aten.native_layer_norm.default,
                             aten.native_batch_norm.default,
                             aten.native_group_norm.default}


def _statistics_in_input_type(node, r, x):
    if not isinstance(x, torch.Tensor) or not x.is_floating_point():
        return r
    return (r[0],) + tuple(
        t.to(x.dtype) if isinstance(t, torch.Tensor) and t.is_floating_point()
        and t.dtype != x.dtype else t for t in r[1:])


class _Stop(Exception):
    def __init__(self, node):
        super().__init__(node.name)
        self.node = node


def _explicit_factory_dtypes(gm: fx.GraphModule) -> bool:
    """Gives every `aten.full` and `aten.arange` without a dtype the one
    eager infers from its numbers, and says whether any changed. PyTorch
    1.13's meta and fake kernels do not: `torch.full((n,), 2)` comes out
    float32 where eager makes int64 (and would lose every integer above
    2^24), `torch.arange(3.)` int64 where eager makes the default floating
    type."""
    changed = False
    for n in gm.graph.nodes:
        if n.op != "call_function" or n.kwargs.get("dtype") is not None:
            continue
        if n.target is aten.full.default and len(n.args) >= 2:
            dtype = _inferred_dtype([n.args[1]])
        elif n.target in (aten.arange.default, aten.arange.start,
                          aten.arange.start_step):
            dtype = _inferred_dtype(n.args)
            dtype = torch.int64 if dtype is torch.bool else dtype
        else:
            continue
        if dtype is None:
            continue
        n.kwargs = {**n.kwargs, "dtype": dtype}
        n.meta.pop("val", None)
        changed = True
    if changed:
        gm.recompile()
    return changed


def _inferred_dtype(numbers) -> Optional[torch.dtype]:
    """The dtype eager gives a factory of these Python numbers: the
    default floating type if one is a float, else int64, or bool if all
    are bools; None where one is not a Python number (a traced value)."""
    if not all(isinstance(v, (bool, int, float)) for v in numbers):
        return None
    if any(isinstance(v, float) for v in numbers):
        return torch.get_default_dtype()
    if all(isinstance(v, bool) for v in numbers):
        return torch.bool
    return torch.int64


def _propagate(gm: fx.GraphModule, inputs: Sequence[Any]) -> Dict[fx.Node, Any]:
    """The value (tensor, FakeTensor or tuple) of every node.

    Uses `meta['val']` when the tracer recorded it; otherwise runs the graph
    on fake tensors (cheap) and, if fake propagation fails, on the real
    example inputs. `aten.full` and `aten.arange` nodes get their dtype
    first (_explicit_factory_dtypes)."""
    _explicit_factory_dtypes(gm)
    nodes = [n for n in gm.graph.nodes if n.op not in ("output",)]
    if all("val" in n.meta for n in nodes):
        return {n: n.meta["val"] for n in nodes}
    # The graph's ops are autocast's results already (an mm on the types
    # it chose): run again under the caller's autocast, mm would be cast.
    with autocast_off():
        return _propagate_values(gm, inputs)


def _propagate_values(gm: fx.GraphModule, inputs: Sequence[Any]) -> Dict[fx.Node, Any]:
    vals: Dict[fx.Node, Any] = {}
    try:
        from torch._subclasses.fake_tensor import FakeTensorMode
        mode = FakeTensorMode()
        fake = [mode.from_tensor(a) if isinstance(a, torch.Tensor) else a
                for a in inputs]
        with mode:
            _Recorder(gm, vals).run(*fake)
        return vals
    except _Stop:
        return vals
    except Exception:  # noqa: BLE001 - fall back to real execution
        vals = {}
    try:
        with torch.no_grad():
            # Clones: supported in-place ops must not mutate the inputs.
            _Recorder(gm, vals).run(*[layout_copy(a)
                                      if isinstance(a, torch.Tensor)
                                      else a for a in inputs])
    except _Stop:
        pass
    except Exception as e:  # noqa: BLE001
        # Keep what was recorded; a node without a value reports below.
        vals.setdefault("__error__", e)  # type: ignore[index]
    return vals


# ---------------------------------------------------------------------------
# Emission context
# ---------------------------------------------------------------------------


class _Ctx:
    def __init__(self, vals):
        self.vals = vals
        self.lines: List[str] = []
        self.values: Dict[fx.Node, Any] = {}   # node -> "%3" or ["%3#0", ...]
        self.counter = 0
        self.node: Optional[fx.Node] = None    # node being emitted
        self.types: Dict[str, str] = {}        # SSA name -> type
        self.rng_blocks: Optional[int] = None  # Philox blocks drawn so far

    # -- values -----------------------------------------------------------
    def where(self) -> str:
        n = self.node
        return f" at node %{n.name} ({_overload_name(n.target)})" if n else ""

    def val(self, node: fx.Node):
        if node not in self.vals:
            err = self.vals.get("__error__")
            raise StaxError(
                f"no shape/dtype information for node %{node.name}"
                + (f" (propagation failed: {err})" if err else ""))
        return self.vals[node]

    def result_types(self, node: fx.Node) -> List[str]:
        v = self.val(node)
        where = f" at node %{node.name}"
        if isinstance(v, (tuple, list)):
            return [mlir_type(x, where) if x is not None else None for x in v]
        if not isinstance(v, torch.Tensor):
            raise StaxError(f"node %{node.name} ({_overload_name(node.target)})"
                            f" does not produce a tensor ({type(v).__name__})")
        return [mlir_type(v, where)]

    def elt_of(self, x) -> str:
        """Element type of an operand (node or SSA name)."""
        ty = self.type_of(x)
        return ty[len("tensor<"):-1].split("x")[-1]

    def type_of(self, x) -> str:
        name = self.operand(x)
        return self.types[name]

    def operand(self, x) -> str:
        if isinstance(x, str):
            return x
        if not isinstance(x, fx.Node):
            raise StaxError(f"expected a tensor operand, got {type(x).__name__}"
                            f" {x!r}{self.where()}")
        v = self.values.get(x)
        if v is None:
            raise StaxError(f"operand %{x.name} is not defined{self.where()}")
        if isinstance(v, list):
            raise StaxError(f"operand %{x.name} has several results; expected "
                            f"one of them (getitem){self.where()}")
        return v

    # -- emission ---------------------------------------------------------
    def op(self, name: str, operands: Sequence[Any], attrs: Dict[str, str],
           result_types: Sequence[str], segments: Optional[List[int]] = None
           ) -> List[str]:
        ops = [self.operand(o) for o in operands]
        attrs = {k: v for k, v in attrs.items() if v is not None}
        if segments is not None:
            attrs["operandSegmentSizes"] = \
                "array<i32: " + ", ".join(map(str, segments)) + ">"
        prop = ""
        if attrs:
            prop = " <{" + ", ".join(f"{k} = {v}" for k, v in attrs.items()) + "}>"
        in_types = ", ".join(self.types[o] for o in ops)
        res = list(result_types)
        if any(r is None for r in res):
            raise StaxError(f"missing result type for {name}{self.where()}")
        out_types = res[0] if len(res) == 1 else "(" + ", ".join(res) + ")"
        idx = self.counter
        self.counter += 1
        if len(res) == 1:
            names = [f"%{idx}"]
            lhs = f"%{idx} = "
        elif not res:
            names, lhs = [], ""
        else:
            names = [f"%{idx}#{i}" for i in range(len(res))]
            lhs = f"%{idx}:{len(res)} = "
        for n, t in zip(names, res):
            self.types[n] = t
        loc = ""
        if self.node is not None:
            loc = f' loc({_str(f"{self.node.name} ({_overload_name(self.node.target)})")})'
        self.lines.append(
            f'    {lhs}"{name}"({", ".join(ops)}){prop} : ({in_types}) -> '
            f"{out_types}{loc}")
        return names

    def single(self, name, operands, attrs, node=None, segments=None) -> str:
        """Emits an op whose one result has the type of the current node."""
        node = node or self.node
        tys = self.result_types(node)
        if len(tys) != 1:
            raise StaxError(f"expected one result{self.where()}")
        return self.op(name, operands, attrs, tys, segments)[0]

    def multi(self, name, operands, attrs, segments=None, types=None) -> List[str]:
        tys = types if types is not None else self.result_types(self.node)
        return self.op(name, operands, attrs, tys, segments)

    def scalar_const(self, value, elt: str) -> str:
        """A 0-d `tp.full` holding a Python number, of element type `elt`."""
        if elt == "i1":
            attr = _bool(bool(value))
        elif _is_integer_elt(elt):
            attr = _i64(int(value))
        else:
            attr = _f64(float(value))
        return self.op("tp.full", [], {"value": attr}, [f"tensor<{elt}>"])[0]

    def number_operand(self, value, partner) -> str:
        """A Python number used as a tensor operand next to tensor `partner`:
        a 0-d constant of the dtype PyTorch computes in (the partner's dtype
        unless the number's category is higher, then the default dtype of
        that category)."""
        pe = self.elt_of(partner)
        pcat = 0 if pe == "i1" else (1 if _is_integer_elt(pe) else 2)
        vcat = 0 if isinstance(value, bool) else (1 if isinstance(value, int) else 2)
        if vcat <= pcat:
            elt = pe
        else:
            elt = "i64" if vcat == 1 else _elt(torch.get_default_dtype())
        return self.scalar_const(value, elt)


Emitter = Callable[[_Ctx, fx.Node, Dict[str, Any]], Any]


# ---------------------------------------------------------------------------
# Emitter constructors
# ---------------------------------------------------------------------------


def _op(tp: str, ins: Sequence[str] = ("self",), segments: bool = False,
        **attrs) -> Emitter:
    """A 1:1 mapping. `ins`: ATen argument names of the operands in tp's
    order; a trailing `?` marks an optional operand (omitted when None).
    `attrs`: tp attribute name -> formatter, or (aten name, formatter); a
    formatter returning None omits the attribute."""
    spec = []
    for k, v in attrs.items():
        aname, fmt = (v if isinstance(v, tuple) else (k, v))
        spec.append((k, aname, fmt))

    def emit(ctx: _Ctx, node: fx.Node, a: Dict[str, Any]):
        operands, seg = [], []
        for name in ins:
            opt = name.endswith("?")
            name = name.rstrip("?")
            v = a[name]
            if v is None and opt:
                seg.append(0)
                continue
            operands.append(v)
            seg.append(1)
        at = {}
        for k, aname, fmt in spec:
            v = a.get(aname)
            at[k] = None if v is None else fmt(v)
        if isinstance(ctx.val(node), (tuple, list)):
            return ctx.multi(tp, operands, at, seg if segments else None)
        return ctx.single(tp, operands, at, segments=seg if segments else None)
    return emit


def _opt(fmt):
    """Formatter that omits None."""
    return lambda v: None if v is None else fmt(v)


def _binary(tp: str, scalar_tp: Optional[str] = None, a: str = "self",
            b: str = "other", alpha: bool = False, wraps: bool = False,
            **attrs) -> Emitter:
    """Tensor-tensor elementwise op. A Python number as `b` selects the
    `.Scalar` op (`scalar_tp`, number as the `other` attribute) when tp has
    one, otherwise becomes a 0-d `tp.full`; a number as `a` always becomes a
    0-d `tp.full`."""
    def emit(ctx: _Ctx, node: fx.Node, args: Dict[str, Any]):
        x, y = args[a], args[b]
        at = {}
        if alpha:
            at["alpha"] = _scalar(args["alpha"] if args["alpha"] is not None else 1)
        for k, (aname, fmt) in attrs.items():
            v = args.get(aname)
            at[k] = None if v is None else fmt(v)
        if _is_number(x) and _is_number(y):
            raise StaxError(f"both operands are numbers{ctx.where()}")
        if _is_number(y):
            if wraps:
                y = _in_range(y, ctx.elt_of(x))
            if scalar_tp is not None:
                return ctx.single(scalar_tp, [x], {"other": _scalar(y), **at})
            y = ctx.number_operand(y, x)
        if _is_number(x):
            x = ctx.number_operand(x, y)
        return ctx.single(tp, [x, y], at)
    return emit


def _in_default_float(emitter: Emitter, operands=("self", "other")) -> Emitter:
    """`emitter` with its integer and bool tensor `operands` converted
    first to the result's floating type where that is the default dtype
    and not f32: eager promotes them to torch.get_default_dtype(), tp's
    type inference to f32 (`torch.arange(n) / n` is f64 under
    set_default_dtype(torch.float64))."""
    def emit(ctx: _Ctx, node: fx.Node, a: Dict[str, Any]):
        want = ctx.result_types(node)[0]
        elt = want[len("tensor<"):-1].split("x")[-1]
        if elt == "f32" or _DTYPES.get(torch.get_default_dtype()) != elt:
            return emitter(ctx, node, a)
        a = dict(a)
        for k in operands:
            v = a.get(k)
            if isinstance(v, (fx.Node, str)) and (
                    ctx.elt_of(v) == "i1" or _is_integer_elt(ctx.elt_of(v))):
                ty = ctx.type_of(v)
                a[k] = ctx.op("tp._to_copy", [v], {"dtype": elt},
                              [ty[:ty.rindex("x") + 1] + elt + ">"
                               if "x" in ty else f"tensor<{elt}>"])[0]
        return emitter(ctx, node, a)
    return emit


def _in_range(value, elt: str):
    """An integer Python number as eager converts it to an integer tensor's
    dtype `elt` (wrapping: 200 is -56 in int8); anything else as it is."""
    bits = {"i8": 8, "i16": 16, "i32": 32, "ui8": 8}.get(elt)
    if bits is None or not isinstance(value, int) or isinstance(value, bool):
        return value
    value %= 1 << bits
    return value - (1 << bits) if elt != "ui8" and value >= 1 << (bits - 1) else value


def _scalar_op(tp: str, b: str = "other", alpha: bool = False,
               wraps: bool = False, **attrs) -> Emitter:
    """`.Scalar` overloads: the number is the `other` attribute. `wraps`:
    an integer number is first converted to an integer self's dtype, as
    eager does (floor division by 200 of int8 divides by -56)."""
    def emit(ctx, node, args):
        other = args[b]
        if wraps:
            other = _in_range(other, ctx.elt_of(args["self"]))
        at = {"other": _scalar(other)}
        if alpha:
            at["alpha"] = _scalar(args["alpha"] if args["alpha"] is not None else 1)
        for k, (aname, fmt) in attrs.items():
            v = args.get(aname)
            at[k] = None if v is None else fmt(v)
        return ctx.single(tp, [args["self"]], at)
    return emit


def _reduction_attrs(a, all_dims: bool, dim_arg: str = "dim") -> Dict[str, str]:
    """A reduction's `dims` (empty = all), keepdim and optional dtype."""
    at = {"dims": _dims([] if all_dims else a.get(dim_arg))}
    if a.get("keepdim"):
        at["keepdim"] = "true"
    if a.get("dtype") is not None:
        at["dtype"] = _type_attr(a["dtype"])
    return at


def _reduction(tp: str, all_dims: bool = False, dim_arg: str = "dim") -> Emitter:
    def emit(ctx, node, a):
        return ctx.single(tp, [a["self"]], _reduction_attrs(a, all_dims, dim_arg))
    return emit


def _extremum_of_all(tp: str) -> Emitter:
    """max()/min() without a dim: amax/amin over every dim whose gradient at
    a NaN result goes to the NaN elements (eager's evenly_distribute_backward;
    amax's is NaN everywhere)."""
    def emit(ctx, node, a):
        at = _reduction_attrs(a, all_dims=True)
        at["nan_selects_nans"] = "unit"
        return ctx.single(tp, [a["self"]], at)
    return emit


def _truth_reduction(tp: str, all_dims: bool = False) -> Emitter:
    """any/all: i1, except that PyTorch keeps uint8 for a uint8 input
    (0 or 1), converted after the tp op."""
    def emit(ctx, node, a):
        want = ctx.result_types(node)[0]
        at = _reduction_attrs(a, all_dims)
        if not want.endswith("ui8>"):
            return ctx.single(tp, [a["self"]], at)
        truth = ctx.op(tp, [a["self"]], at, [_with_elt(want, "i1")])[0]
        return ctx.op("tp._to_copy", [truth], {"dtype": "ui8"}, [want])[0]
    return emit


def _var(ctx, node, a):
    if "correction" in a:
        corr = a["correction"]
        corr = 1.0 if corr is None else float(corr)
    else:  # var.dim / var.default: unbiased
        unbiased = a.get("unbiased")
        corr = 1.0 if unbiased is None or unbiased else 0.0
    return ctx.single("tp.var", [a["self"]], {
        "dims": _dims(a.get("dim")), "correction": _f64(corr),
        "keepdim": _bool(bool(a.get("keepdim")))})


def _creation(value_arg: Optional[str], default=0) -> Emitter:
    """Creation ops whose values do not depend on data: `tp.full` of the
    node's result type (`empty*` is filled with zeros)."""
    def emit(ctx, node, a):
        v = default if value_arg is None else a[value_arg]
        if isinstance(v, fx.Node):
            raise StaxError(f"fill value is a tensor{ctx.where()}")
        ty = ctx.result_types(node)[0]
        elt = ty[len("tensor<"):-1].split("x")[-1]
        if elt == "i1":
            attr = _bool(bool(v))
        elif _is_integer_elt(elt):
            attr = _i64(int(v))
        else:
            attr = _f64(float(v))
        return ctx.single("tp.full", [], {"value": attr})
    return emit


def _arange(ctx, node, a):
    start = a.get("start", 0)
    start = 0 if start is None else start
    step = a.get("step", 1)
    step = 1 if step is None else step
    return ctx.single("tp.arange", [], {"start": _scalar(start),
                                        "end": _scalar(a["end"]),
                                        "step": _scalar(step)})


def _lone_nan_bound(lo, hi) -> bool:
    """Whether clamp has one bound only, and it is NaN."""
    bounds = [v for v in (lo, hi) if v is not None]
    return len(bounds) == 1 and isinstance(bounds[0], float) and math.isnan(bounds[0])


def _clamp(which: Optional[str] = None) -> Emitter:
    def emit(ctx, node, a):
        lo = a.get("min") if which in (None, "min") else None
        hi = a.get("max") if which in (None, "max") else None
        for v in (lo, hi):
            if isinstance(v, fx.Node):
                raise StaxError(f"tensor clamp bounds are not supported{ctx.where()}")
        if lo is None and hi is None:
            return ctx.single("tp.clone", [a["self"]], {})
        x = a["self"]
        # Scalar bounds take part in type promotion (an integer tensor
        # clamped to 0.5 gives floats): clamp in the result's type.
        want = ctx.result_types(node)[0]
        if ctx.type_of(x) != want:
            x = ctx.op("tp._to_copy", [x], {"dtype": want[len("tensor<"):-1]
                                            .split("x")[-1]}, [want])[0]
        if which is None and _lone_nan_bound(lo, hi):
            # Eager's clamp with one bound, NaN, is max/min(x, nan) = x, and
            # its backward (x >= nan) is zero; clamp_min/clamp_max fill NaN.
            return ctx.single("tp.detach", [x], {})
        if want.endswith("xui8>") or want == "tensor<ui8>":
            # Eager converts the bounds to uint8 first, wrapping: a min of -2
            # is 254.
            lo, hi = [v % 256 if isinstance(v, int) and not isinstance(v, bool)
                      else v for v in (lo, hi)]
        return ctx.single("tp.clamp", [x],
                          {"min": _opt(_scalar)(lo), "max": _opt(_scalar)(hi)})
    return emit


def _where(ctx, node, a):
    x, y = a["self"], a["other"]
    elt = ctx.result_types(node)[0][len("tensor<"):-1].split("x")[-1]
    if _is_number(x):
        x = ctx.scalar_const(x, elt)
    if _is_number(y):
        y = ctx.scalar_const(y, elt)
    return ctx.single("tp.where", [a["condition"], x, y], {})


def _masked_fill_tensor(ctx, node, a):
    # masked_fill.Tensor(self, mask, value: 0-d tensor) == where(mask, value,
    # self), the value converted to self's dtype first (an int tensor
    # filled with a float 0-d tensor stays int: where would promote).
    value, want = a["value"], ctx.result_types(node)[0]
    elt = want[len("tensor<"):-1].split("x")[-1]
    if ctx.elt_of(value) != elt:
        value = ctx.op("tp._to_copy", [value], {"dtype": elt},
                       [f"tensor<{elt}>"])[0]
    return ctx.single("tp.where", [a["mask"], value, a["self"]], {})


def _rsub_tensor(ctx, node, a):
    x, y = a["self"], a["other"]
    al = _scalar(a["alpha"] if a["alpha"] is not None else 1)
    if _is_number(y):
        return ctx.single("tp.rsub.Scalar", [x], {"other": _scalar(y), "alpha": al})
    if _is_number(x):
        x = ctx.number_operand(x, y)
    return ctx.single("tp.sub", [y, x], {"alpha": al})


def _pow_scalar_base(ctx, node, a):
    # pow.Scalar(Scalar self, Tensor exponent)
    base = ctx.number_operand(a["self"], a["exponent"])
    return ctx.single("tp.pow", [base, a["exponent"]], {})


def _index_operands(ctx, indices, what="index"):
    ops, dims = [], []
    for i, t in enumerate(indices):
        if t is None:
            continue
        if not isinstance(t, fx.Node):
            raise StaxError(f"{what} entry {i} is not a tensor{ctx.where()}")
        if ctx.elt_of(t) == "i1":
            raise StaxError(f"boolean mask indexing is not supported (data-"
                            f"dependent shape){ctx.where()}")
        ops.append(t)
        dims.append(i)
    return ops, dims


def _sort(ctx, node, a):
    return ctx.multi("tp.sort", [a["self"]], {
        "dim": _i64(a["dim"]), "descending": _bool(bool(a["descending"]))})


def _topk(ctx, node, a):
    return ctx.multi("tp.topk", [a["self"]], {
        "k": _i64(a["k"]), "dim": _i64(a["dim"]),
        "largest": _bool(bool(a["largest"])), "sorted": _bool(bool(a["sorted"]))})


def _scan(tp: str) -> Emitter:
    """The cumulative ops (TpScanOps.td). tp.cumsum/cumprod have no dtype: the
    decompositions convert the operand first (CONDITIONAL), so a dtype
    reaching here must be the operand's own."""
    def emit(ctx, node, a):
        dtype = a.get("dtype")
        if dtype is not None and dtype != ctx.val(node).dtype:
            raise StaxError(f"{tp} with dtype {dtype} of a "
                            f"{ctx.val(node.args[0]).dtype} operand: convert "
                            f"the operand first{ctx.where()}")
        attrs = {"dim": _i64(a["dim"])}
        if isinstance(ctx.val(node), (tuple, list)):
            return ctx.multi(tp, [a["self"]], attrs)
        return ctx.single(tp, [a["self"]], attrs)
    return emit


def _index(ctx, node, a):
    ops, dims = _index_operands(ctx, a["indices"])
    return ctx.single("tp.index", [a["self"]] + ops, {"dims": _dims(dims)})


def _index_put(ctx, node, a):
    ops, dims = _index_operands(ctx, a["indices"])
    return ctx.single("tp.index_put", [a["self"]] + ops + [a["values"]],
                      {"dims": _dims(dims),
                       "accumulate": _bool(bool(a["accumulate"]))})


# -- In-place ops (TpInPlaceOps.td; run --stax-functionalize before lowering) --

# The in-place overloads imported as in-place `tp` ops (filled by
# _build_table).
_INPLACE_OPS: set = set()


def _index_put_(ctx, node, a):
    ops, dims = _index_operands(ctx, a["indices"])
    return ctx.single("tp.index_put_", [a["self"]] + ops + [a["values"]],
                      {"dims": _dims(dims),
                       "accumulate": _bool(bool(a["accumulate"]))})


def _clamp_(which: Optional[str] = None) -> Emitter:
    def emit(ctx, node, a):
        lo = a.get("min") if which in (None, "min") else None
        hi = a.get("max") if which in (None, "max") else None
        if any(isinstance(v, fx.Node) for v in (lo, hi)):
            raise StaxError(f"tensor clamp bounds are not supported{ctx.where()}")
        if lo is None and hi is None:
            raise StaxError(f"clamp_ needs min or max{ctx.where()}")
        if which is None and _lone_nan_bound(lo, hi):
            raise StaxError(f"clamp_ with one bound, NaN (x unchanged, zero "
                            f"gradient in eager) is not supported in place; "
                            f"functionalize the graph{ctx.where()}")
        return ctx.single("tp.clamp_", [a["self"]],
                          {"min": _opt(_scalar)(lo), "max": _opt(_scalar)(hi)})
    return emit


def _list_op(tp: str) -> Emitter:
    def emit(ctx, node, a):
        return ctx.single(tp, list(a["tensors"]), {"dim": _i64(a["dim"])})
    return emit


def _with_elt(ty: str, elt: str) -> str:
    """`ty` (a tensor type) with element type `elt`."""
    dims = ty[len("tensor<"):-1].split("x")[:-1]
    return "tensor<" + "".join(f"{d}x" for d in dims) + elt + ">"


def _storage_order(v) -> Optional[List[int]]:
    """The permutation that lays tensor `v` out as its storage (so that
    `v.permute(perm)` is contiguous), when `v` is a dense tensor at storage
    offset 0 whose storage holds nothing else; None otherwise. Pointwise
    operators and clone keep their input's memory format, so a transposed
    input makes such tensors."""
    if not isinstance(v, torch.Tensor) or v.storage_offset() != 0:
        return None
    perm = sorted(range(v.dim()), key=lambda d: -v.stride(d))
    if not v.permute(perm).is_contiguous():
        return None
    if v.storage().nbytes() != v.numel() * v.element_size():
        return None
    return perm


def _as_strided(emit: Emitter) -> Emitter:
    """PyTorch's as_strided addresses its input's storage, tp's the input's
    own row-major elements: the two agree for a contiguous tensor at
    storage offset 0, and for a dense tensor permuted into its storage
    order first. A view input (the slice under diagonal's decomposition,
    `torch.einsum("ii->i", x[:, :4])`) is replaced by the tensor whose
    storage it views, which must be such a tensor; without a storage offset
    as_strided starts at the view's own."""
    def wrapped(ctx, node, a):
        x = a["self"]
        root = storage_root(x)
        if a.get("storage_offset") is None:
            a = dict(a, storage_offset=ctx.val(x).storage_offset())
        perm = _storage_order(ctx.val(root))
        if perm is None:
            what = ("a view whose storage is not a dense tensor"
                    if root is not x else
                    "a tensor that is not dense from storage offset 0")
            raise StaxError(f"as_strided of {what}{ctx.where()}")
        if perm != list(range(len(perm))):
            ty = ctx.type_of(root)
            dims = ty[len("tensor<"):-1].split("x")
            permuted = ("tensor<" + "".join(f"{dims[d]}x" for d in perm)
                        + dims[-1] + ">")
            root = ctx.op("tp.permute", [root], {"dims": _dims(perm)},
                          [permuted])[0]
        return emit(ctx, node, dict(a, self=root))
    return wrapped


def _layer_norm(ctx, node, a):
    ops = [a["input"]] + [v for v in (a["weight"], a["bias"]) if v is not None]
    seg = [1, int(a["weight"] is not None), int(a["bias"] is not None)]
    # mean and rstd have the input's dtype, as eager's CPU kernel returns
    # them; PyTorch 1.13's fake tensors say float32 for f16/bf16 inputs, so
    # a traced float32 type gets an (exact) conversion.
    traced = ctx.result_types(node)
    elt = ctx.elt_of(a["input"])
    tys = [traced[0]] + [_with_elt(t, elt) for t in traced[1:]]
    names = ctx.multi("tp.native_layer_norm", ops, {
        "normalized_shape": _dims(a["normalized_shape"]), "eps": _f64(a["eps"])},
        segments=seg, types=tys)
    return [n if t == want else
            ctx.op("tp._to_copy", [n], {"dtype": want[len("tensor<"):-1]
                                        .split("x")[-1]}, [want])[0]
            for n, t, want in zip(names, tys, traced)]


def _layer_norm_backward(ctx, node, a):
    # output_mask is dropped: all three gradients are always produced.
    ops = [a["grad_out"], a["input"], a["mean"], a["rstd"]]
    ops += [v for v in (a["weight"], a["bias"]) if v is not None]
    seg = [1, 1, 1, 1, int(a["weight"] is not None), int(a["bias"] is not None)]
    x_ty = ctx.type_of(a["input"])
    elt = x_ty[len("tensor<"):-1].split("x")[-1]
    ns = [int(d) for d in a["normalized_shape"]]
    w_ty = "tensor<" + "".join(f"{d}x" for d in ns) + elt + ">"
    tys = ctx.result_types(node)
    tys = [tys[0] or x_ty, tys[1] or w_ty, tys[2] or w_ty]
    return ctx.multi("tp.native_layer_norm_backward", ops,
                     {"normalized_shape": _dims(ns)}, segments=seg, types=tys)


def _slice(ctx, node, a):
    start = 0 if a["start"] is None else a["start"]
    end = INT64_MAX if a["end"] is None else a["end"]
    return ctx.single("tp.slice", [a["self"]], {
        "dim": _i64(a["dim"]), "start": _i64(start), "end": _i64(end),
        "step": _i64(a["step"])})


def _squeeze(ctx, node, a):
    dims = a.get("dim")
    at = {} if dims is None else {"dims": _dims(dims)}
    return ctx.single("tp.squeeze", [a["self"]], at)


# -- Random ops (counter-based; the stream is specified in TpRandomOps.td) --

# The function's RNG state [seed, offset]: a trailing argument, added when the
# graph has a random op.
_RNG_STATE = "%rng_state"

# In-place overloads imported as functional ops: `empty_like(x).bernoulli_(p)`
# (what eager dropout traces to) overwrites a tensor that was just created,
# so the drawn value simply replaces it.
_FRESH_INPLACE: set = set()
_FRESH_CREATORS = {"empty_like", "empty", "zeros_like", "ones_like",
                   "full_like", "new_empty", "new_zeros", "new_ones",
                   "new_full", "zeros", "ones", "full"}


def _rng_counter(ctx: _Ctx, ty: str, wide_f64: bool) -> str:
    """The `counter` of the next random op, whose result (or input) type is
    `ty`; reserves its Philox blocks: ceil(n / 4), ceil(n / 2) for f64 when
    `wide_f64` (rand, randn)."""
    if ctx.rng_blocks is None:
        ctx.rng_blocks = 0
        ctx.types[_RNG_STATE] = "tensor<2xi64>"
    parts = ty[len("tensor<"):-1].split("x")
    n = 1
    for d in parts[:-1]:
        n *= int(d)
    per = 2 if wide_f64 and parts[-1] == "f64" else 4
    c = ctx.rng_blocks
    ctx.rng_blocks += -(-n // per)
    return _i64(c)


def _no_generator(ctx: _Ctx, a: Dict[str, Any]):
    if a.get("generator") is not None:
        raise StaxError(f"explicit torch.Generator arguments are not "
                        f"supported{ctx.where()}")


def _rand(tp: str) -> Emitter:
    """rand / randn (and *_like): `tp.rand %rng_state` of the node's type."""
    def emit(ctx, node, a):
        _no_generator(ctx, a)
        ty = ctx.result_types(node)[0]
        if ty[len("tensor<"):-1].split("x")[-1] not in ("f16", "bf16", "f32", "f64"):
            raise StaxError(f"{tp} of type {ty} is not supported{ctx.where()}")
        return ctx.single(tp, [_RNG_STATE],
                          {"counter": _rng_counter(ctx, ty, True)})
    return emit


def _bernoulli(ctx, node, a):
    """bernoulli.default (probabilities from self), bernoulli.p."""
    _no_generator(ctx, a)
    p = a.get("p")
    if isinstance(p, fx.Node):
        raise StaxError(f"tensor probabilities with p= are not supported"
                        f"{ctx.where()}")
    at = {"counter": _rng_counter(ctx, ctx.type_of(a["self"]), False)}
    if p is not None:
        at["p"] = _f64(p)
    return ctx.single("tp.bernoulli", [a["self"], _RNG_STATE], at)


def _bernoulli_fresh(ctx, node, a):
    """bernoulli_.float(t, p) on a freshly created t: a functional
    `tp.bernoulli` whose value replaces t (every element is overwritten)."""
    t = a["self"]
    creator = t.target if isinstance(t, fx.Node) else None
    name = getattr(getattr(creator, "overloadpacket", None), "__name__", "")
    first = next(iter(t.users), None) if isinstance(t, fx.Node) else None
    if name not in _FRESH_CREATORS or first is not node:
        raise StaxError(f"unsupported in-place operator "
                        f"{_overload_name(node.target)} at node %{node.name}: "
                        f"only supported on a freshly created tensor")
    res = _bernoulli(ctx, node, a)
    ctx.values[t] = res
    return res


def _native_dropout(ctx, node, a):
    """Training dropout with 0 < p < 1 draws: `tp.dropout_seeded`; the exact
    cases (p = 0 or 1, train = false) stay `tp.native_dropout`."""
    p, train = float(a["p"]), a.get("train")
    if train is False or p <= 0.0 or p >= 1.0:
        return ctx.multi("tp.native_dropout", [a["input"]], {
            "p": _f64(p), "train": None if train is None else _bool(train)})
    return ctx.multi("tp.dropout_seeded", [a["input"], _RNG_STATE], {
        "counter": _rng_counter(ctx, ctx.type_of(a["input"]), False),
        "p": _f64(p)})


_DTYPE = _type_attr
_SCALAR = _scalar
_I64 = _i64
_F64 = _f64
_BOOL = _bool
_DIMS = _dims
_STR = _str


def _enum(mnemonic: str, names=None):
    """An enum attribute `#tp.<mnemonic><value>`; `names` maps PyTorch's
    integer encoding (at::Reduction) to the keyword."""
    def convert(v):
        if v is None:
            return None
        return "#tp.%s<%s>" % (mnemonic, names[int(v)] if names else v)
    return convert


_gelu_approx = _enum("approximate")
_LOSS_REDUCTION = _enum("reduction", ("none", "mean", "sum"))
_ROUNDING_MODE = _enum("rounding_mode")


# ---------------------------------------------------------------------------
# The mapping table
# ---------------------------------------------------------------------------

_UNARY = [
    "neg", "abs", "relu", "sign", "sgn", "floor", "ceil", "trunc",
    "bitwise_not", "logical_not", "isnan", "signbit", "exp", "exp2", "expm1", "log",
    "log2", "log10", "log1p", "sqrt", "rsqrt", "reciprocal", "sin", "cos",
    "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh", "sigmoid", "erf",
    "erfc", "silu", "mish", "round",
    # Special functions (TpSpecialOps.td).
    "lgamma", "digamma", "erfinv", "special_ndtri", "special_erfcx",
]

_IDENTITY = {"clone": "tp.clone", "detach": "tp.detach", "alias": "tp.alias",
             "lift_fresh_copy": "tp.lift_fresh_copy",
             "lift_fresh": "tp.lift_fresh_copy"}

# aten name -> (tp tensor op, tp scalar op or None)
_BINARY = {
    "mul": ("tp.mul", "tp.mul.Scalar"),
    "div": ("tp.div", "tp.div.Scalar"),
    "remainder": ("tp.remainder", "tp.remainder.Scalar"),
    "fmod": ("tp.fmod", "tp.fmod.Scalar"),
    "eq": ("tp.eq", "tp.eq.Scalar"), "ne": ("tp.ne", "tp.ne.Scalar"),
    "lt": ("tp.lt", "tp.lt.Scalar"), "le": ("tp.le", "tp.le.Scalar"),
    "gt": ("tp.gt", "tp.gt.Scalar"), "ge": ("tp.ge", "tp.ge.Scalar"),
    "bitwise_and": ("tp.bitwise_and", None),
    "bitwise_or": ("tp.bitwise_or", None),
    "bitwise_xor": ("tp.bitwise_xor", None),
}
_BINARY_DEFAULT = ["maximum", "minimum", "atan2", "logical_and", "logical_or",
                   "logical_xor", "nextafter"]


_EMBEDDING = _op("tp.embedding", ins=("weight", "indices"), padding_idx=_I64)


def _embedding(ctx: _Ctx, node: fx.Node, a):
    """aten.embedding; scale_grad_by_freq changes only the gradient, which
    tp.embedding's rule does not scale: refused here (F.embedding is
    redirected to a form without it, decompositions._embedding)."""
    if a.get("scale_grad_by_freq"):
        raise StaxError(f"embedding with scale_grad_by_freq=True is not "
                        f"supported{ctx.where()}")
    if a.get("sparse"):
        raise StaxError(f"embedding with sparse=True (a sparse gradient) is "
                        f"not supported{ctx.where()}")
    return _EMBEDDING(ctx, node, a)


def _ctc_operands(ctx: _Ctx, a) -> List[str]:
    """The operands of aten._ctc_loss(_backward).Tensor as tp.ctc_loss
    takes them: f32/f64 log_probs [T, N, C], int64 targets [N, S] and
    lengths [N] (decompositions._ctc_loss normalizes F.ctc_loss's forms to
    these); the types, parsed."""
    types = {}
    for k in ("log_probs", "targets", "input_lengths", "target_lengths"):
        ty = ctx.type_of(a[k])
        parts = ty[len("tensor<"):-1].split("x")
        types[k] = ([int(d) for d in parts[:-1]], parts[-1])
    (lp, elt), (tg, telt) = types["log_probs"], types["targets"]
    if (len(lp) != 3 or elt not in ("f32", "f64") or len(tg) != 2
            or telt != "i64" or any(types[k] != ([lp[1]], "i64")
                                    for k in ("input_lengths", "target_lengths"))):
        raise StaxError(f"ctc_loss takes f32/f64 log_probs [T, N, C], int64 "
                        f"targets [N, S] and int64 lengths [N], got "
                        f"{', '.join(ctx.type_of(a[k]) for k in types)}"
                        f"{ctx.where()}")
    return lp + [tg[1]], elt


def _ctc_loss(ctx: _Ctx, node: fx.Node, a):
    """aten._ctc_loss.Tensor -> tp.ctc_loss. Eager's log_alpha has 2 max(
    target_lengths) + 1 columns (a value); ours 2 S + 1, S the targets'
    width: only tp.ctc_loss_backward reads it."""
    (t, n, _, s), elt = _ctc_operands(ctx, a)
    return ctx.multi(
        "tp.ctc_loss", [a[k] for k in ("log_probs", "targets", "input_lengths",
                                         "target_lengths")],
        {"blank": _i64(a["blank"]), "zero_infinity": _bool(a["zero_infinity"])},
        types=[f"tensor<{n}x{elt}>", f"tensor<{n}x{t}x{2 * s + 1}x{elt}>"])


def _ctc_loss_backward(ctx: _Ctx, node: fx.Node, a):
    _ctc_operands(ctx, a)
    return ctx.single(
        "tp.ctc_loss_backward",
        [a[k] for k in ("grad", "log_probs", "targets", "input_lengths",
                        "target_lengths", "neg_log_likelihood", "log_alpha")],
        {"blank": _i64(a["blank"]), "zero_infinity": _bool(a["zero_infinity"])})


def _build_table() -> Dict[Any, Emitter]:
    t: Dict[Any, Emitter] = {}

    def ov(packet: str, overload: str = "default"):
        p = getattr(aten, packet, None)
        return getattr(p, overload, None) if p else None

    def put(key, fn):
        if key is not None:
            t[key] = fn

    for n in _UNARY:
        put(ov(n), _in_default_float(_op(f"tp.{n}"), ("self",)))
    for n, tp in _IDENTITY.items():
        put(ov(n), _op(tp))

    # Elementwise with attributes.
    put(ov("tril"), _op("tp.tril", diagonal=_I64))
    put(ov("triu"), _op("tp.triu", diagonal=_I64))
    put(ov("gelu"), _op("tp.gelu", approximate=_gelu_approx))
    put(ov("leaky_relu"), _op("tp.leaky_relu", negative_slope=_F64))
    put(ov("elu"), _op("tp.elu", alpha=_F64, scale=_F64, input_scale=_F64))
    put(ov("softplus"), _op("tp.softplus", beta=_F64, threshold=_F64))
    put(ov("hardtanh"), _op("tp.hardtanh", min_val=_F64, max_val=_F64))
    put(ov("clamp"), _clamp())
    put(ov("clamp_min"), _clamp("min"))
    put(ov("clamp_max"), _clamp("max"))
    put(ov("_to_copy"), _op("tp._to_copy", dtype=_DTYPE))
    put(ov("polygamma"), _op("tp.polygamma", n=_I64))
    put(ov("frexp", "Tensor"), _op("tp.frexp"))
    # tp.sort is stable; eager's unstable sort orders ties unspecifiedly.
    put(ov("sort"), _sort)
    put(ov("sort", "stable"), _sort)
    put(ov("topk"), _topk)
    put(ov("cumsum"), _scan("tp.cumsum"))
    put(ov("cumprod"), _scan("tp.cumprod"))
    put(ov("logcumsumexp"), _scan("tp.logcumsumexp"))
    put(ov("cummax"), _scan("tp.cummax"))
    put(ov("cummin"), _scan("tp.cummin"))

    # Binary (Tensor overloads, Python numbers become .Scalar ops).
    # Integer operands of a result in a default dtype other than f32 are
    # converted first (_in_default_float).
    promoted = _in_default_float
    put(ov("add", "Tensor"), promoted(_binary("tp.add", "tp.add.Scalar", alpha=True)))
    put(ov("sub", "Tensor"), promoted(_binary("tp.sub", "tp.sub.Scalar", alpha=True)))
    put(ov("rsub", "Tensor"), promoted(_rsub_tensor))
    for n, (tp, stp) in _BINARY.items():
        put(ov(n, "Tensor"), promoted(_binary(tp, stp)))
        if stp is not None:
            put(ov(n, "Scalar"), promoted(_scalar_op(stp), ("self",)))
    for n in _BINARY_DEFAULT:
        put(ov(n), promoted(_binary(f"tp.{n}")))
    put(ov("max", "other"), _binary("tp.maximum"))
    put(ov("min", "other"), _binary("tp.minimum"))
    put(ov("div", "Tensor_mode"), promoted(
        _binary("tp.div", "tp.div.Scalar", wraps=True,
                rounding_mode=("rounding_mode", _ROUNDING_MODE))))
    put(ov("div", "Scalar_mode"),
        _scalar_op("tp.div.Scalar", wraps=True,
                   rounding_mode=("rounding_mode", _ROUNDING_MODE)))
    put(ov("pow", "Tensor_Tensor"), promoted(
        _binary("tp.pow", "tp.pow.Tensor_Scalar", b="exponent"), ("self", "exponent")))
    put(ov("pow", "Tensor_Scalar"),
        promoted(_scalar_op("tp.pow.Tensor_Scalar", b="exponent"), ("self",)))
    put(ov("pow", "Scalar"), _pow_scalar_base)
    put(ov("add", "Scalar"), promoted(_scalar_op("tp.add.Scalar", alpha=True), ("self",)))
    put(ov("sub", "Scalar"), promoted(_scalar_op("tp.sub.Scalar", alpha=True), ("self",)))
    put(ov("rsub", "Scalar"), promoted(_scalar_op("tp.rsub.Scalar", alpha=True), ("self",)))

    # Selection.
    for o in ("self", "ScalarSelf", "ScalarOther", "Scalar"):
        put(ov("where", o), _where)
    put(ov("masked_fill", "Scalar"),
        _op("tp.masked_fill.Scalar", ins=("self", "mask"), value=_SCALAR))
    put(ov("masked_fill", "Tensor"), _masked_fill_tensor)

    # Reductions.
    put(ov("sum"), _reduction("tp.sum", all_dims=True))
    put(ov("sum", "dim_IntList"), _reduction("tp.sum"))
    put(ov("mean"), _reduction("tp.mean", all_dims=True))
    put(ov("mean", "dim"), _reduction("tp.mean"))
    put(ov("prod"), _reduction("tp.prod", all_dims=True))
    put(ov("prod", "dim_int"), _reduction("tp.prod"))
    put(ov("amax"), _reduction("tp.amax"))
    put(ov("amin"), _reduction("tp.amin"))
    put(ov("max"), _extremum_of_all("tp.amax"))
    put(ov("min"), _extremum_of_all("tp.amin"))
    put(ov("logsumexp"), _reduction("tp.logsumexp"))
    put(ov("any"), _truth_reduction("tp.any", all_dims=True))
    put(ov("any", "dim"), _truth_reduction("tp.any"))
    put(ov("all"), _truth_reduction("tp.all", all_dims=True))
    put(ov("all", "dim"), _truth_reduction("tp.all"))
    for o in ("correction", "dim", "default"):
        put(ov("var", o), _var)
    put(ov("max", "dim"), _op("tp.max.dim", dim=_I64, keepdim=_BOOL))
    put(ov("min", "dim"), _op("tp.min.dim", dim=_I64, keepdim=_BOOL))
    put(ov("argmax"), _op("tp.argmax", dim=_opt(_I64), keepdim=_BOOL))
    put(ov("argmin"), _op("tp.argmin", dim=_opt(_I64), keepdim=_BOOL))

    # Softmax, normalization, losses.
    put(ov("_softmax"), _op("tp._softmax", dim=_I64, half_to_float=_BOOL))
    put(ov("_log_softmax"), _op("tp._log_softmax", dim=_I64, half_to_float=_BOOL))
    put(ov("_softmax_backward_data"),
        _op("tp._softmax_backward_data", ins=("grad_output", "output"),
            dim=_I64, input_dtype=_DTYPE))
    put(ov("_log_softmax_backward_data"),
        _op("tp._log_softmax_backward_data", ins=("grad_output", "output"),
            dim=_I64, input_dtype=_DTYPE))
    put(ov("native_layer_norm"), _layer_norm)
    put(ov("native_layer_norm_backward"), _layer_norm_backward)
    put(ov("nll_loss_forward"),
        _op("tp.nll_loss_forward", ins=("self", "target", "weight?"),
            reduction=_LOSS_REDUCTION, ignore_index=_I64))
    put(ov("nll_loss_backward"),
        _op("tp.nll_loss_backward",
            ins=("grad_output", "self", "target", "weight?", "total_weight"),
            reduction=_LOSS_REDUCTION, ignore_index=_I64))
    put(ov("mse_loss"), _op("tp.mse_loss", ins=("self", "target"), reduction=_LOSS_REDUCTION))
    put(ov("_ctc_loss", "Tensor"), _ctc_loss)
    put(ov("_ctc_loss_backward", "Tensor"), _ctc_loss_backward)
    put(ov("mse_loss_backward"),
        _op("tp.mse_loss_backward", ins=("grad_output", "self", "target"),
            reduction=_LOSS_REDUCTION))
    put(ov("gelu_backward"), _op("tp.gelu_backward", ins=("grad_output", "self"),
                                 approximate=_gelu_approx))
    put(ov("threshold_backward"),
        _op("tp.threshold_backward", ins=("grad_output", "self"),
            threshold=_SCALAR))
    put(ov("tanh_backward"), _op("tp.tanh_backward", ins=("grad_output", "output")))
    put(ov("sigmoid_backward"),
        _op("tp.sigmoid_backward", ins=("grad_output", "output")))
    put(ov("silu_backward"), _op("tp.silu_backward", ins=("grad_output", "self")))

    # Linear algebra.
    put(ov("mm"), _op("tp.mm", ins=("self", "mat2")))
    put(ov("bmm"), _op("tp.bmm", ins=("self", "mat2")))
    put(ov("matmul"), _op("tp.matmul", ins=("self", "other")))
    put(ov("dot"), _op("tp.dot", ins=("self", "tensor")))
    put(ov("addmm"), _op("tp.addmm", ins=("self", "mat1", "mat2"),
                         beta=_SCALAR, alpha=_SCALAR))
    put(ov("baddbmm"), _op("tp.baddbmm", ins=("self", "batch1", "batch2"),
                           beta=_SCALAR, alpha=_SCALAR))

    # Views and shapes.
    put(ov("t"), _op("tp.t"))
    put(ov("transpose", "int"), _op("tp.transpose", dim0=_I64, dim1=_I64))
    put(ov("permute"), _op("tp.permute", dims=_DIMS))
    put(ov("view"), _op("tp.view", size=_DIMS))
    put(ov("reshape"), _op("tp.reshape", size=("shape", _DIMS)))
    put(ov("_unsafe_view"), _op("tp._unsafe_view", size=_DIMS))
    put(ov("_reshape_alias"), _op("tp._reshape_alias", size=_DIMS, stride=_DIMS))
    put(ov("expand"), _op("tp.expand", size=_DIMS))
    put(ov("unsqueeze"), _op("tp.unsqueeze", dim=_I64))
    put(ov("squeeze"), _squeeze)
    put(ov("squeeze", "dim"), _squeeze)
    put(ov("squeeze", "dims"), _squeeze)
    put(ov("slice", "Tensor"), _slice)
    put(ov("select", "int"), _op("tp.select", dim=_I64, index=_I64))
    put(ov("as_strided"), _as_strided(_op("tp.as_strided", size=_DIMS,
                                          stride=_DIMS, storage_offset=_I64)))
    put(ov("slice_backward"),
        _op("tp.slice_backward", ins=("grad_output",), input_sizes=_DIMS,
            dim=_I64, start=_I64, end=_I64, step=_I64))
    put(ov("select_backward"),
        _op("tp.select_backward", ins=("grad_output",), input_sizes=_DIMS,
            dim=_I64, index=_I64))
    # unsafe_split (nn.LSTM/GRU's gate chunks) differs only in aliasing
    # checks, which functional tp has no use for.
    for name in ("split", "unsafe_split"):
        put(ov(name, "Tensor"), _op("tp.split", split_size=_I64, dim=_I64))
    for name in ("split_with_sizes", "unsafe_split_with_sizes"):
        put(ov(name), _op("tp.split_with_sizes", split_sizes=_DIMS, dim=_I64))
    put(ov("unbind", "int"), _op("tp.unbind", dim=_I64))
    put(ov("cat"), _list_op("tp.cat"))
    put(ov("stack"), _list_op("tp.stack"))

    # Indexing.
    put(ov("index", "Tensor"), _index)
    put(ov("index_put"), _index_put)
    put(ov("index_select"), _op("tp.index_select", ins=("self", "index"), dim=_I64))
    put(ov("gather"), _op("tp.gather", ins=("self", "index"), dim=_I64))
    put(ov("scatter", "src"), _op("tp.scatter", ins=("self", "index", "src"),
                                  dim=_I64))
    put(ov("scatter_add"), _op("tp.scatter_add", ins=("self", "index", "src"),
                               dim=_I64))
    put(ov("embedding"), _embedding)
    put(ov("embedding_dense_backward"),
        _op("tp.embedding_dense_backward", ins=("grad_output", "indices"),
            num_weights=_I64, padding_idx=_I64, scale_grad_by_freq=_BOOL))

    # Creation.
    put(ov("full"), _creation("fill_value"))
    put(ov("zeros"), _creation(None, 0))
    put(ov("ones"), _creation(None, 1))
    put(ov("empty", "memory_format"), _creation(None, 0))
    put(ov("new_zeros"), _creation(None, 0))
    put(ov("new_ones"), _creation(None, 1))
    put(ov("new_full"), _creation("fill_value"))
    put(ov("new_empty"), _creation(None, 0))
    put(ov("empty_like"), _creation(None, 0))
    put(ov("zeros_like"), _creation(None, 0))
    put(ov("ones_like"), _creation(None, 1))
    put(ov("full_like"), _creation("fill_value"))
    put(ov("fill", "Scalar"), _creation("value"))
    put(ov("zero"), _creation(None, 0))
    put(ov("scalar_tensor"), _creation("s"))
    put(ov("arange"), _arange)
    put(ov("arange", "start"), _arange)
    put(ov("arange", "start_step"), _arange)

    # In-place (mutating) overloads.
    def inplace(key, fn):
        if key is not None:
            put(key, fn)
            _INPLACE_OPS.add(key)
    inplace(ov("add_", "Tensor"), _binary("tp.add_", "tp.add_.Scalar", alpha=True))
    inplace(ov("sub_", "Tensor"), _binary("tp.sub_", "tp.sub_.Scalar", alpha=True))
    inplace(ov("mul_", "Tensor"), _binary("tp.mul_", "tp.mul_.Scalar"))
    inplace(ov("div_", "Tensor"), _binary("tp.div_", "tp.div_.Scalar"))
    inplace(ov("div_", "Tensor_mode"),
            _binary("tp.div_", "tp.div_.Scalar", rounding_mode=("rounding_mode", _ROUNDING_MODE)))
    inplace(ov("add_", "Scalar"), _scalar_op("tp.add_.Scalar", alpha=True))
    inplace(ov("sub_", "Scalar"), _scalar_op("tp.sub_.Scalar", alpha=True))
    inplace(ov("mul_", "Scalar"), _scalar_op("tp.mul_.Scalar"))
    inplace(ov("div_", "Scalar"), _scalar_op("tp.div_.Scalar"))
    inplace(ov("div_", "Scalar_mode"),
            _scalar_op("tp.div_.Scalar", rounding_mode=("rounding_mode", _ROUNDING_MODE)))
    for n in ("neg_", "relu_", "sigmoid_", "tanh_", "zero_"):
        inplace(ov(n), _op(f"tp.{n}"))
    inplace(ov("clamp_"), _clamp_())
    inplace(ov("clamp_min_"), _clamp_("min"))
    inplace(ov("clamp_max_"), _clamp_("max"))
    inplace(ov("copy_"), _op("tp.copy_", ins=("self", "src")))
    inplace(ov("fill_", "Scalar"), _op("tp.fill_.Scalar", value=_SCALAR))
    inplace(ov("masked_fill_", "Scalar"),
            _op("tp.masked_fill_.Scalar", ins=("self", "mask"), value=_SCALAR))
    inplace(ov("index_put_"), _index_put_)

    # Random.
    put(ov("native_dropout"), _native_dropout)
    for n in ("rand", "rand_like"):
        put(ov(n), _rand("tp.rand"))
    for n in ("randn", "randn_like"):
        put(ov(n), _rand("tp.randn"))
    put(ov("bernoulli"), _bernoulli)
    put(ov("bernoulli", "p"), _bernoulli)
    put(ov("bernoulli_", "float"), _bernoulli_fresh)
    _FRESH_INPLACE.add(ov("bernoulli_", "float"))
    put(ov("native_dropout_backward"),
        _op("tp.native_dropout_backward", ins=("grad_output", "mask"), scale=_F64))
    return t


def _prims_twin(aten_overload) -> Emitter:
    """A `prims.X` op (what PyTorch's reference decompositions produce) with
    the semantics of `aten_overload`: its arguments rebound by position to
    the ATen schema's names."""
    emit = _TABLE[aten_overload]
    schema = aten_overload._schema.arguments

    def e(ctx, node, a):
        vals = list(a.values())
        bound = {}
        for i, arg in enumerate(schema):
            if i < len(vals):
                bound[arg.name] = vals[i]
            else:
                bound[arg.name] = (arg.default_value
                                   if arg.has_default_value() else None)
        return emit(ctx, node, bound)
    return e


def _convert_element_type(ctx, node, a):
    return ctx.single("tp._to_copy", [a["a"]], {"dtype": _type_attr(a["dtype"])})


def _add_prims(t: Dict[Any, Emitter]) -> None:
    from ._ops import prims
    for name in ("abs neg sqrt rsqrt exp exp2 expm1 log log1p log2 log10 sin "
                 "cos tan asin acos atan sinh cosh tanh erf erfc floor ceil "
                 "trunc sign bitwise_not isnan lgamma digamma erf_inv").split():
        aten_name = {"erf_inv": "erfinv"}.get(name, name)
        twin = getattr(getattr(aten, aten_name), "default", None)
        if getattr(prims, name) and twin in t:
            t[getattr(prims, name).default] = _prims_twin(twin)
    for name, twin in {"add": "add", "sub": "sub", "mul": "mul", "div": "div",
                       "eq": "eq", "ne": "ne", "lt": "lt", "le": "le",
                       "gt": "gt", "ge": "ge", "maximum": "maximum",
                       "minimum": "minimum", "fmod": "fmod",
                       "remainder": "remainder", "atan2": "atan2",
                       "pow": "pow", "bitwise_and": "bitwise_and",
                       "bitwise_or": "bitwise_or",
                       "bitwise_xor": "bitwise_xor",
                       "nextafter": "nextafter"}.items():
        packet = getattr(aten, twin)
        ov = getattr(packet, "Tensor", None) or getattr(packet, "default", None)
        if name == "pow":
            ov = aten.pow.Tensor_Tensor
        if getattr(prims, name) and ov in t:
            t[getattr(prims, name).default] = _prims_twin(ov)
    t[prims.convert_element_type.default] = _convert_element_type
    # prims.div truncates integers (C semantics), aten.div.Tensor does not.
    true_div = t[prims.div.default]
    trunc_div = _prims_twin(aten.div.Tensor_mode)

    def prims_div(ctx, node, a):
        vals = list(a.values())
        if _is_integer_elt(ctx.elt_of(vals[0])):
            return trunc_div(ctx, node, {"self": vals[0], "other": vals[1],
                                         "rounding_mode": "trunc"})
        return true_div(ctx, node, a)
    t[prims.div.default] = prims_div
    t[prims.where.default] = _prims_twin(aten.where.self)
    t[prims.to_dtype.default] = _convert_element_type
    t[prims.scalar_tensor.default] = _creation("s")


def _add_view_copies(t: Dict[Any, Emitter]) -> None:
    """`aten.X_copy` (what functionalization emits for a view it cannot
    keep, e.g. the destination of a broadcasting copy_) imports as the view
    `aten.X`: tp views are values, not aliases."""
    for key in list(t):
        if not isinstance(key, torch._ops.OpOverload):
            continue
        packet = key.overloadpacket.__name__
        copy = getattr(aten, packet + "_copy", None)
        twin = getattr(copy, key._overloadname, None) if copy else None
        if twin is not None and twin not in t:
            t[twin] = t[key]


_TABLE: Dict[Any, Emitter] = _build_table()
_add_prims(_TABLE)
_add_view_copies(_TABLE)
# Operators this PyTorch lacks (stax._ops.MissingOp) import nothing.
for _missing in [k for k in _TABLE if not k]:
    del _TABLE[_missing]


def supported_overloads() -> List[str]:
    """The ATen overloads the importer maps (sorted names)."""
    return sorted(str(k) for k in _TABLE)


# ---------------------------------------------------------------------------
# Graph emission
# ---------------------------------------------------------------------------

_SYMBOL = re.compile(r"^[A-Za-z_][A-Za-z0-9_$.]*$")


def _flatten(x):
    flat, _ = torch.utils._pytree.tree_flatten(x)
    return flat


def _emit_graph(gm: fx.GraphModule, example_inputs: Sequence[Any], name: str,
                none_outputs: str,
                arg_names: Optional[Dict[int, str]] = None,
                locations: bool = False) -> str:
    graph = gm.graph
    placeholders = [n for n in graph.nodes if n.op == "placeholder"]
    inputs = list(example_inputs)
    if len(inputs) != len(placeholders):
        raise StaxError(f"the graph has {len(placeholders)} inputs but "
                        f"{len(inputs)} example inputs were given")
    for i, (ph, x) in enumerate(zip(placeholders, inputs)):
        if not isinstance(x, torch.Tensor):
            raise StaxError(f"input #{i} (%{ph.name}) is not a tensor "
                            f"({type(x).__name__}); only tensor inputs are "
                            f"supported")

    # Reject unsupported / in-place ops before propagating anything.
    for n in graph.nodes:
        if n.op in ("call_method", "call_module"):
            raise StaxError(f"unsupported FX node %{n.name} ({n.op} "
                            f"{n.target}); trace with make_fx")
        if n.op != "call_function" or n.target is operator.getitem:
            continue
        oname = _overload_name(n.target)
        if (_is_inplace(n.target) and n.target not in _FRESH_INPLACE
                and n.target not in _INPLACE_OPS):
            raise StaxError(
                f"unsupported in-place operator {oname} at node %{n.name}: "
                f"mutating ops are not supported yet (functionalize the graph "
                f"first)")
        if n.target not in _TABLE:
            raise StaxError(f"unsupported operator {oname} at node %{n.name} "
                            f"(no tp mapping)")

    vals = _propagate(gm, inputs)
    for ph, x in zip(placeholders, inputs):
        vals.setdefault(ph, x)
    ctx = _Ctx(vals)

    args = []
    for i, (ph, x) in enumerate(zip(placeholders, inputs)):
        ty = mlir_type(x, f" for input #{i} (%{ph.name})")
        ssa = f"%arg{i}"
        ctx.values[ph] = ssa
        ctx.types[ssa] = ty
        attr = " {tp.requires_grad}" if x.requires_grad else ""
        if arg_names and i in arg_names:
            attr += f" loc({_str(arg_names[i])})"
        args.append(f"{ssa}: {ty}{attr}")

    output_node = None
    for n in graph.nodes:
        if n.op == "placeholder":
            continue
        if n.op == "output":
            output_node = n
            break
        ctx.node = n
        if n.op == "get_attr":
            val = gm
            for part in str(n.target).split("."):
                val = getattr(val, part, None)
            if not isinstance(val, torch.Tensor):
                raise StaxError(f"get_attr %{n.name} ({n.target}) is not a "
                                f"tensor")
            ty = mlir_type(val, f" for constant %{n.name}")
            ctx.vals.setdefault(n, val)
            ctx.values[n] = ctx.op("tp.constant", [], {
                "value": _dense(val, f" for constant %{n.name}")}, [ty])[0]
            continue
        if n.target is operator.getitem:
            src, i = n.args
            v = ctx.values.get(src)
            if not isinstance(v, list):
                raise StaxError(f"getitem %{n.name} of a single-result value "
                                f"%{src.name}")
            ctx.values[n] = v[i]
            continue
        oname = _overload_name(n.target)
        try:
            res = _TABLE[n.target](ctx, n, _bind(n))
        except StaxError as e:
            msg = str(e)
            if f"%{n.name}" not in msg:
                msg += f" (while importing {oname} at node %{n.name})"
            raise StaxError(msg) from None
        except Exception as e:  # noqa: BLE001 - never leak emitter internals
            raise StaxError(f"cannot import {oname} at node %{n.name}: "
                            f"{type(e).__name__}: {e}") from e
        ctx.values[n] = res
    ctx.node = None
    fn_attrs = ""
    if ctx.rng_blocks is not None:
        args.append(f"{_RNG_STATE}: tensor<2xi64> {{tp.rng_state}}")
        fn_attrs = f" attributes {{tp.rng_blocks = {ctx.rng_blocks} : i64}}"

    if output_node is None:
        raise StaxError("the graph has no output")
    results, rtypes = [], []
    for i, o in enumerate(_flatten(output_node.args[0])):
        if o is None:
            if none_outputs == "drop":
                continue
            raise StaxError(f"output #{i} is None; only tensor outputs are "
                            f"supported")
        if not isinstance(o, fx.Node):
            raise StaxError(f"output #{i} is not a tensor ({type(o).__name__} "
                            f"{o!r})")
        v = ctx.values.get(o)
        for s in (v if isinstance(v, list) else [v]):
            results.append(s)
            rtypes.append(ctx.types[s])

    sym = name if _SYMBOL.match(name) else _str(name)
    rt = "(" + ", ".join(rtypes) + ")"
    lines = ["module {",
             f"  func.func @{sym}({', '.join(args)}) -> {rt}{fn_attrs} {{"]
    lines += ctx.lines
    ret = "    return"
    if results:
        ret += " " + ", ".join(results) + " : " + ", ".join(rtypes)
    lines += [ret, "  }", "}", ""]
    text = "\n".join(lines)
    from . import run_pipeline
    try:
        return run_pipeline(text, locations=locations)
    except StaxError as e:
        # The diagnostic on the first line: a fallback warning quotes one.
        first, _, rest = str(e).strip().partition("\n")
        raise StaxError(f"the imported module for @{name} does not verify "
                        f"(importer bug or unsupported pattern): {first}"
                        + (f"\n{rest}" if rest else "")) from None


def import_fx_graph(graph_module: fx.GraphModule, example_inputs: Sequence[Any],
                    name: str = "forward", *, none_outputs: str = "drop") -> str:
    """Emits an already-traced ATen-level GraphModule (make_fx output, or
    functorch's joint graph whose placeholders are `primals_*` and
    `tangents_*`) as `func.func @<name>`.

    `example_inputs` are the tensors the graph was traced with, in
    placeholder order (nested lists such as functorch's `(primals, tangents)`
    are flattened); they give argument types and `{tp.requires_grad}`.
    `none_outputs`: "drop" (default; joint graphs return None for inputs
    without a gradient) or "error"."""
    if none_outputs not in ("drop", "error"):
        raise ValueError("none_outputs must be 'drop' or 'error'")
    return _emit_graph(graph_module, _flatten(list(example_inputs)), name,
                       none_outputs)


def _unsupported_targets(gm: fx.GraphModule) -> set:
    """The call targets of `gm` that `_emit_graph` would reject."""
    out = set()
    for n in gm.graph.nodes:
        if n.op != "call_function" or n.target is operator.getitem:
            continue
        if n.target in _FRESH_INPLACE or n.target in _INPLACE_OPS:
            continue
        if _is_inplace(n.target) or n.target not in _TABLE:
            out.add(n.target)
    return out


# Operators whose result's shape depends on tensor values.
_DATA_DEPENDENT_SHAPE = {t for t in (
    aten.masked_select.default, aten.nonzero.default, aten.argwhere.default,
    aten._unique2.default, aten.unique_consecutive.default,
    aten.unique_dim.default) if t}


def _has_data_dependent_shape(n: fx.Node, vals) -> bool:
    """`n`'s result shape depends on values: a data-dependent operator, or
    indexing with a boolean (or uint8) mask (`vals`: _propagate's)."""
    if n.target in _DATA_DEPENDENT_SHAPE:
        return True
    if n.target is not aten.index.Tensor:
        return False
    indices = n.args[1] if len(n.args) > 1 else n.kwargs.get("indices", ())
    return any(isinstance(i, fx.Node) and getattr(vals.get(i), "dtype", None)
               in (torch.bool, torch.uint8) for i in indices)


def _sparse_gradient(n: fx.Node) -> bool:
    """Whether `n` is an embedding whose weight gets a sparse gradient
    (nn.Embedding(sparse=True), for SparseAdam), which tp.embedding's
    dense rule does not give."""
    if n.target is not aten.embedding.default:
        return False
    sparse = n.args[4] if len(n.args) > 4 else n.kwargs.get("sparse", False)
    return bool(sparse)


def unsupported_nodes(gm: fx.GraphModule, inputs: Sequence[Any]):
    """(the nodes Stax cannot import, the nodes that depend on one with a
    data-dependent shape), each in graph order, for `gm` traced on
    `inputs`. Both run in PyTorch when a function is split: a compiled
    region after a data-dependent shape would be compiled again for every
    shape the data produce (a masked loss's count changes every step)."""
    missing = _unsupported_targets(gm)
    vals = {}
    if any(n.target is aten.index.Tensor for n in gm.graph.nodes):
        # Propagation may run the graph on real tensors: its writes to the
        # tensors it captures (a BatchNorm's statistics) are undone.
        with UndoCapturedWrites(gm):
            vals = _propagate(gm, inputs)
    roots, dependent, dynamic = [], [], set()
    for n in gm.graph.nodes:
        if n.op != "call_function":
            continue
        if any(a in dynamic for a in n.all_input_nodes):
            dynamic.add(n)
            dependent.append(n)
        elif (n.target in missing or _has_data_dependent_shape(n, vals)
              or _sparse_gradient(n)):
            roots.append(n)
            if _has_data_dependent_shape(n, vals):
                dynamic.add(n)
    return roots, dependent


#: Ops whose effect is an error they may raise, kept without users: the
#: check a `linalg_*_ex` records (cholesky of a matrix that is not positive
#: definite, inv of a singular one raise in eager; a `try: ... except`
#: around them adds jitter), and runtime asserts.
_CHECKS = {t for t in (getattr(aten, "_linalg_check_errors", None),
                       getattr(aten, "_assert_async", None)) if t}


def _drop_dead_nodes(gm: fx.GraphModule) -> None:
    """Removes pure nodes without users (make_fx keeps, e.g., the unused
    uint8 `reserve` tensor of batch norm); writes and checks are kept."""
    for n in reversed(list(gm.graph.nodes)):
        if (n.op == "call_function" and not n.users
                and not _is_inplace(n.target)
                and getattr(n.target, "overloadpacket", None) not in _CHECKS):
            gm.graph.erase_node(n)
    gm.recompile()


_MASK_COUNT_OPS = {t for t in (
    aten.clamp.default, aten.sub.Tensor, aten.cumsum.default,
    aten._to_copy.default, aten.view.default, aten._unsafe_view.default,
    aten.reshape.default, aten._reshape_alias.default) if t}


def _masked_copies_as_where(gm: fx.GraphModule) -> None:
    """y[mask] = v[mask], v shaped like y: decompositions._index_put_mask
    takes the k-th selected value of v[mask] at the k-th selected position
    of y (index_select of v[mask] by the running count of the mask), which
    is v's own value there when both masks are the same (the same node, or
    the same op of the same operands: `x > 0` written twice). v's rows then
    replace the index_select, bit for bit and in the derivatives, where
    every use of it is a where on the same mask (which keeps the selected
    positions only; a forward fill reads the others), and v[mask]'s
    data-dependent shape, which would leave the rest of the function to
    PyTorch, is gone."""
    def shape(n):
        tm = n.meta.get("tensor_meta") if isinstance(n, fx.Node) else None
        return tuple(tm.shape) if tm is not None else None

    def counted_mask(pos):
        """The boolean mask whose running count `pos` is (clamp(cumsum(m)
        - 1, 0) of a reshaped mask), or None."""
        n = pos
        while (isinstance(n, fx.Node) and n.op == "call_function"
               and n.target in _MASK_COUNT_OPS):
            n = n.args[0]
        tm = n.meta.get("tensor_meta") if isinstance(n, fx.Node) else None
        return n if tm is not None and tm.dtype == torch.bool else None

    def source(n):
        """`n` before the reshapes and casts _index_put_mask applies."""
        while (isinstance(n, fx.Node) and n.op == "call_function"
               and n.target in _MASK_COUNT_OPS - {aten.clamp.default,
                                                  aten.sub.Tensor,
                                                  aten.cumsum.default}):
            n = n.args[0]
        return n

    def only_kept(n, mask):
        """Every use of `n` is the taken branch of a where on `mask` (after
        casts): the rows of unselected positions are never read. (A
        forward fill, v[mask].index_select(0, count), reads them all.)"""
        for u in n.users:
            if u.op == "call_function" and u.target is aten._to_copy.default:
                if not only_kept(u, mask):
                    return False
            elif not (u.op == "call_function" and u.target is aten.where.self
                      and u.args[1] is n and u.args[2] is not n
                      and same_value(source(u.args[0]), mask)):
                return False
        return True

    changed = False
    for n in list(gm.graph.nodes):
        if (n.op != "call_function" or n.target is not aten.index_select.default
                or n.args[1] != 0):
            continue
        picked, pos = n.args[0], n.args[2]
        if (not isinstance(picked, fx.Node) or picked.target is not aten.index.Tensor
                or len(picked.args[1]) != 1):
            continue
        src, mask = picked.args[0], picked.args[1][0]
        counted = counted_mask(pos)
        m, s, out = shape(mask), shape(src), shape(n)
        if (counted is None or not same_value(counted, mask) or None in (m, s, out)
                or s[:len(m)] != m or out != (math.prod(m),) + s[len(m):]
                or not only_kept(n, mask)):
            continue
        with gm.graph.inserting_before(n):
            rows = gm.graph.call_function(aten.reshape.default, (src, list(out)))
        n.replace_all_uses_with(rows)
        gm.graph.erase_node(n)
        changed = True
    if changed:
        _drop_dead_nodes(gm)


_RESHAPES = (aten.view.default, aten._unsafe_view.default, aten.reshape.default)


def _fold_reshape_chains(gm: fx.GraphModule) -> None:
    """reshape(reshape(x)) -> reshape(x), and a reshape to x's own shape ->
    x: functionalization replays views, e.g. a linear layer's output
    viewed to 2-d and back (row-major reinterpretations compose)."""
    def shape(n):
        meta = n.meta.get("tensor_meta") if isinstance(n, fx.Node) else None
        return tuple(meta.shape) if meta is not None else None
    for n in list(gm.graph.nodes):
        if n.op != "call_function" or n.target not in _RESHAPES:
            continue
        src = n.args[0]
        while (isinstance(src, fx.Node) and src.op == "call_function"
               and src.target in _RESHAPES):
            src = src.args[0]
        n.args = (src,) + tuple(n.args[1:])
        if shape(n) is not None and shape(n) == shape(src):
            n.replace_all_uses_with(src)
    _drop_dead_nodes(gm)


class _RedirectFunctions(torch.overrides.TorchFunctionMode):
    """Calls of the given PyTorch functions run the given replacements
    (decompositions.BEFORE_TRACE); everything else runs as it is.

    make_fx records no grad mode: a value the function computes under
    torch.no_grad() would be differentiated like any other. Inside such a
    region of a function traced with grad mode on, floating results are
    detached, which the autodiff treats as constants, as eager does; and a
    tensor written in place there (weight clipping `p.clamp_(-c, c)`,
    F.embedding's max_norm renormalizing its weight) keeps its gradient:
    eager's autograd sees the new value but no new operation, so a later
    use's gradient reaches the tensor unchanged (_keep_gradient_identity),
    where the traced write would otherwise be differentiated."""

    IN_PLACE_DUNDERS = {"__setitem__", "__iadd__", "__isub__", "__imul__",
                        "__itruediv__", "__ifloordiv__", "__imod__",
                        "__ipow__", "__iand__", "__ior__", "__ixor__",
                        "__ilshift__", "__irshift__"}

    # In-place by name, but they change what a tensor is, not its values.
    METADATA_WRITES = {"detach_", "requires_grad_", "resize_", "resize_as_",
                       "set_", "share_memory_", "retain_grad"}

    # Functions whose result may alias their first argument: views (or
    # possibly views: functionalization's tensors do not say), detach, and
    # property getters (`x.T`, `x.mT`, `x.real`). Under no_grad such a
    # result is detached in place, an alias, so that a write through it
    # reaches its base; any other result is a detached copy (_constant).
    VIEWS = {"__getitem__", "__get__", "detach", "view", "view_as",
             "reshape", "reshape_as", "_reshape_alias", "slice", "alias",
             "select", "narrow", "transpose", "t", "permute", "expand",
             "expand_as", "squeeze", "unsqueeze", "diagonal", "as_strided",
             "unbind", "split", "split_with_sizes", "tensor_split", "chunk",
             "flatten", "unflatten", "movedim", "moveaxis", "swapaxes",
             "swapdims", "unfold", "hsplit", "vsplit", "dsplit"}

    def __init__(self, table):
        super().__init__()
        self.table = table
        self.grad_mode = torch.is_grad_enabled()
        # A detached alias -> the tensor whose gradient a write through it
        # keeps: x for `x.data` (a write autograd does not see, in either
        # grad mode) and `x.detach()`, the view for a view taken under
        # no_grad.
        self.aliases = _TensorTable()

    def __enter__(self):
        # PyTorch 1.13 never hands `t[index]` to a TorchFunctionMode: while
        # this mode is on, indexing goes through a Python function that
        # does (_getitem_seen_by_modes).
        self.getitem = torch.Tensor.__getitem__
        torch.Tensor.__getitem__ = _getitem_seen_by_modes
        return super().__enter__()

    def __exit__(self, *exc):
        torch.Tensor.__getitem__ = self.getitem
        return super().__exit__(*exc)

    def __torch_function__(self, func, types, args=(), kwargs=None):
        _sync_pending_writes(args, kwargs)
        if getattr(func, "__self__", None) is torch.Tensor.data:
            if func.__name__ == "__set__":
                # `x.data = y` rebinds the tensor to other memory: the
                # caller's, for an argument, which the trace (on copies)
                # cannot do; the function runs in PyTorch.
                raise RuntimeError("the function sets a tensor's .data: "
                                   "compiled code cannot rebind a tensor")
            # x.data is a detached alias of x, made below the dispatcher:
            # make_fx would record nothing and read it as x itself.
            return self._detached_alias(args[0], args[0])
        no_grad = self.grad_mode and not torch.is_grad_enabled()
        through_alias = bool(args) and isinstance(args[0], torch.Tensor) \
            and args[0] in self.aliases
        written = self._written(func, args) if no_grad or through_alias else None
        if written is not None and written in self.aliases:
            return self._write_through_alias(func, args, kwargs, written)
        before = written.clone() if written is not None else None
        out = self.table.get(func, func)(*args, **(kwargs or {}))
        if written is not None:
            _keep_gradient_identity(written, before)
        name = _function_name(func)
        if (no_grad or through_alias or name == "detach") \
                and self._is_view(name, args):
            # x.detach() and a view of a detached alias are detached
            # aliases in either grad mode (`x.data[0].mul_(2)` keeps x's
            # gradient).
            return self._aliases_of(func, name, args, kwargs, out)
        if no_grad:
            # An in-place op returns the tensor it wrote (`h += 1` rebinds h
            # to it): that one stays itself.
            out = tree_map(lambda t: _constant(t) if isinstance(t, torch.Tensor)
                           and t.is_floating_point() and t is not written
                           else t, out)
        return out

    def _write_through_alias(self, func, args, kwargs, alias):
        """An in-place op on a detached alias, done on the tensor whose
        gradient it keeps (x for x.data, the same view of the non-detached
        tensor for a view taken under no_grad), which shares its storage:
        functionalization treats a detach as a view, and a write through
        it would rebuild the base from the detached value, cutting the
        gradient of every element the write leaves unchanged. Under no_grad,
        as eager's autograd does not see the write either."""
        source = self.aliases.get(alias)
        before = source.clone()
        with torch.no_grad():
            out = self.table.get(func, func)(source, *args[1:], **(kwargs or {}))
        _keep_gradient_identity(source, before)
        # In-place ops return the tensor they wrote: the alias, as eager.
        return alias if out is source else out

    @classmethod
    def _is_view(cls, name: str, args) -> bool:
        """Whether `name(*args)` returns views of its first argument:
        indexing does for integers, slices, None and Ellipsis only (a tensor
        or list index copies)."""
        if name != "__getitem__":
            return name in cls.VIEWS
        index = args[1] if len(args) > 1 else None
        parts = index if isinstance(index, tuple) else (index,)
        return all(p is None or p is Ellipsis or isinstance(p, (int, slice))
                   and not isinstance(p, bool) for p in parts)

    def _aliases_of(self, func, name, args, kwargs, out):
        """The results of a view under no_grad, of x.detach() or of a view
        of a detached alias, as detached aliases, each knowing the tensor
        whose gradient a write through it keeps: x for x.detach(), the view
        itself, or, for a view of such an alias, the same view of the
        alias's tensor (replayed on it)."""
        first = args[0] if args and isinstance(args[0], torch.Tensor) else None
        source = self.aliases.get(first) if first is not None else None
        if name == "detach":
            return self._detached_alias(out, source if source is not None
                                        else first)
        if source is None:
            return tree_map(self._detached_alias, out)
        replayed = self.table.get(func, func)(source, *args[1:],
                                              **(kwargs or {}))
        leaves, spec = tree_flatten(out)
        sources = tree_flatten(replayed)[0]
        return tree_unflatten([self._detached_alias(t, r)
                               for t, r in zip(leaves, sources)], spec)

    def _detached_alias(self, t, source=None):
        """A view computed under no_grad as eager makes it: no gradient
        history, the same storage (the detach is marked as the user's). A
        write through it keeps the gradient of `source` (default: the view
        it detaches)."""
        if not isinstance(t, torch.Tensor) or not t.is_floating_point():
            return t
        with _MarkUserDetaches.marking():
            alias = t.detach()
        source = t if source is None else source
        self.aliases.set(alias, self.aliases.get(source, source))
        return alias

    @classmethod
    def _written(cls, func, args) -> Optional[torch.Tensor]:
        """The floating tensor `func` writes in place (its first argument),
        if any. Whether it requires grad, functionalization's tensors do not
        say: a tensor that does not gets no gradient either way."""
        name = _function_name(func)
        in_place = (name in cls.IN_PLACE_DUNDERS
                    or (name.endswith("_") and not name.startswith("_")
                        and name not in cls.METADATA_WRITES))
        t = args[0] if args else None
        if in_place and isinstance(t, torch.Tensor) and t.is_floating_point():
            return t
        return None


_TENSOR_GETITEM = torch.Tensor.__getitem__


def _sync_functional(t) -> None:
    """Applies the writes made through views of `t` to `t` (a tensor of
    PyTorch's functionalization; anything else is left alone). PyTorch
    1.13's functionalization defers them and forgets to apply them before
    a view of `t` is taken: after `y[0] = 5`, `y.t()` read the old y
    whenever y itself was used after it (returned, added to)."""
    if isinstance(t, torch.Tensor) and torch._is_functional_tensor(t):
        torch._sync(t)


def _sync_pending_writes(args, kwargs) -> None:
    for t in tree_flatten((args, kwargs or {}))[0]:
        _sync_functional(t)


def _getitem_seen_by_modes(t, index):
    """Tensor.__getitem__ through the torch-function protocol (as
    torch.Tensor's Python-level methods do), so that an active
    TorchFunctionMode sees `t[index]`."""
    if torch.overrides.has_torch_function((t,)):
        return torch.overrides.handle_torch_function(
            _getitem_seen_by_modes, (t,), t, index)
    return _TENSOR_GETITEM(t, index)


_getitem_seen_by_modes.__name__ = "__getitem__"


def _function_name(func) -> str:
    """A function's name as the tables above spell it: `slice` for the
    overload `aten.slice.Tensor` (functionalization calls ATen ops, which
    reach the mode too), `mul_` for `Tensor.mul_`."""
    name = getattr(func, "__name__", "")
    return name.split(".")[0] if isinstance(func, torch._ops.OpOverload) else name


class _TensorTable:
    """Tensors by identity, held weakly, each with a value (a
    WeakKeyDictionary or WeakSet compares its keys with ==, which a tensor
    answers elementwise)."""

    def __init__(self):
        self._entries: Dict[int, Any] = {}

    def set(self, t: torch.Tensor, value: Any = None) -> None:
        self._entries[id(t)] = (weakref.ref(t), value)

    def get(self, t: torch.Tensor, default: Any = None) -> Any:
        entry = self._entries.get(id(t))
        return entry[1] if entry is not None and entry[0]() is t else default

    def __contains__(self, t) -> bool:
        entry = self._entries.get(id(t))
        return entry is not None and entry[0]() is t

    def __bool__(self) -> bool:
        return bool(self._entries)


def _constant(t: torch.Tensor) -> torch.Tensor:
    """A result computed under no_grad as the constant eager makes it: a
    detached copy. Not the detached alias alone: functionalization treats
    detach as a view, so a later write into the result (a value that
    requires grad added in grad mode) would go to the alias's base and
    every read after it replay the detach, cutting that value's gradient.
    The detach is marked as the user's (a trace without functionalization
    drops the others)."""
    with _MarkUserDetaches.marking():
        return t.detach().clone()


def _keep_gradient_identity(t: torch.Tensor, before: torch.Tensor) -> None:
    """After `t` was written under no_grad, `t` becomes its new value minus
    (before - before), the difference detached on one side: the same value
    (x - (+0) is x, -0 and NaN included) and the gradient of `before` for
    whatever reads `t` later. Infinite values of `before` subtract 0
    instead (inf - inf would be NaN)."""
    with _MarkUserDetaches.marking():
        new = t.detach()
        frozen = before.detach()
    zero = torch.where(torch.isfinite(frozen), frozen - before,
                       torch.zeros_like(frozen))
    t.copy_(new - zero)


class _InlineCheckpoints:
    """While tracing, torch.utils.checkpoint runs its function inline:
    activation checkpointing only trades memory for recomputation, which
    Stax's min cut decides for the whole graph (functorch refuses both of
    PyTorch's implementations: reentrant autograd.Functions and saved
    tensor hooks). Patched where checkpoint() looks them up at call time,
    so `from torch.utils.checkpoint import checkpoint` is covered too.
    Random ops inside recompute identically either way (eager restores the
    RNG state; Stax's draws are counter-based)."""

    def __enter__(self):
        import torch.utils.checkpoint as cp
        self.saved = (cp.CheckpointFunction.apply,
                      getattr(cp, "_checkpoint_without_reentrant", None))

        def reentrant(function, preserve_rng_state, *args):
            return function(*args)

        def non_reentrant(function, preserve_rng_state=True, *args, **kwargs):
            return function(*args, **kwargs)
        cp.CheckpointFunction.apply = reentrant
        if self.saved[1] is not None:
            cp._checkpoint_without_reentrant = non_reentrant
        return self

    def __exit__(self, *exc):
        import torch.utils.checkpoint as cp
        cp.CheckpointFunction.apply = self.saved[0]
        if self.saved[1] is not None:
            cp._checkpoint_without_reentrant = self.saved[1]
        return False


class _RefuseNestedFastPath:
    """While tracing, an nn.TransformerEncoder whose eager call would take
    its nested-tensor fast path (eval mode, a src_key_padding_mask, no
    gradient needed: PyTorch's conditions, read from the module and the
    grad mode) raises: eager packs the sequences into a nested tensor and
    pads them back with zeros, so padded positions are 0 (the final
    norm's bias with a norm) and a batch padded at its end comes back
    shorter, a shape the mask's values decide. Traces see proxies, which
    always take the slow path. The function then runs in PyTorch."""

    def __enter__(self):
        cls = torch.nn.TransformerEncoder
        self.saved = cls.forward
        original = self.saved

        def forward(module, src, mask=None, src_key_padding_mask=None, *args, **kwargs):
            why = _nested_fast_path(module, src, mask, src_key_padding_mask)
            if why is not None:
                raise StaxError(why)
            return original(module, src, mask, src_key_padding_mask, *args, **kwargs)
        cls.forward = forward
        return self

    def __exit__(self, *exc):
        torch.nn.TransformerEncoder.forward = self.saved
        return False


def _nested_fast_path(encoder, src, mask, padding) -> Optional[str]:
    """Why eager would run `encoder` through nested tensors (PyTorch 1.13's
    TransformerEncoder.forward conditions, but the mask's left alignment,
    which reads its values), or None."""
    layer = encoder.layers[0] if len(encoder.layers) else None
    if (padding is None or mask is not None or src.dim() != 3
            or not isinstance(layer, torch.nn.TransformerEncoderLayer)
            or layer.norm_first or layer.training
            or not layer.self_attn.batch_first
            or not layer.self_attn._qkv_same_embed_dim
            or not layer.activation_relu_or_gelu
            or layer.norm1.eps != layer.norm2.eps
            or not getattr(encoder, "enable_nested_tensor", False)
            or layer.self_attn.num_heads % 2 == 1
            or torch.is_autocast_enabled()):
        return None
    params = [p for m in (layer.self_attn, layer.self_attn.out_proj, layer.norm1,
                          layer.norm2, layer.linear1, layer.linear2)
              for p in m.parameters(recurse=False)]
    if torch.is_grad_enabled() and (src.requires_grad or
                                    any(p.requires_grad for p in params)):
        return None
    return ("nn.TransformerEncoder takes its nested-tensor fast path here "
            "(eval mode, src_key_padding_mask, no gradient): eager zeroes "
            "the padded positions and drops padding every sequence ends "
            "with, an output shape the mask's values decide")


class _TraceWithoutFunctionalization(Exception):
    """PyTorch's functionalization refuses the function: it calls
    torch.autograd.grad, makes a tensor require grad, or writes a tensor it
    captures with a value computed from its arguments (an EMA buffer). It
    is traced again without functionalization, and that graph once more
    with it (trace, _functionalized)."""


class _TraceAutogradGrad:
    """While tracing, torch.autograd.grad inside the function (a gradient
    penalty, an inner optimization step) runs PyTorch's autograd on the
    traced tensors, so make_fx records the backward ops as ops of the
    function. With create_graph=False its results are detached (marked as
    the user's detaches: they are constants of any outer derivative).
    Under functionalization it raises _TraceWithoutFunctionalization
    instead.

    torch.autograd.grad is replaced while any thread traces (reference
    counted); the replacement acts only in a thread that is tracing, on
    the innermost trace's mode, and calls PyTorch's otherwise."""

    _lock = threading.Lock()
    _users = 0
    _original: Optional[Callable] = None
    _state = threading.local()   # .modes: functional flags

    def __init__(self, functional: bool):
        self.functional = functional

    @classmethod
    def _grad(cls, outputs, inputs, *args, **kwargs):
        modes = getattr(cls._state, "modes", None)
        if not modes:
            return cls._original(outputs, inputs, *args, **kwargs)
        if modes[-1]:
            raise _TraceWithoutFunctionalization()
        create_graph = kwargs.get("create_graph", len(args) > 2 and args[2])
        results = cls._original(outputs, inputs, *args, **kwargs)
        if create_graph:
            return results
        with _MarkUserDetaches.marking():
            return tuple(r.detach() if r is not None else None for r in results)

    def __enter__(self):
        cls = type(self)
        with cls._lock:
            if cls._users == 0:
                cls._original = torch.autograd.grad
                torch.autograd.grad = cls._grad
            cls._users += 1
        if not hasattr(cls._state, "modes"):
            cls._state.modes = []
        cls._state.modes.append(self.functional)
        return self

    def __exit__(self, *exc):
        cls = type(self)
        cls._state.modes.pop()
        with cls._lock:
            cls._users -= 1
            if cls._users == 0:
                torch.autograd.grad = cls._original
        return False


class _MarkUserDetaches(torch.overrides.TorchFunctionMode):
    """Autograd saves a result for its backward through an `aten.detach`
    that make_fx records like the user's `x.detach()`: in a function that
    runs torch.autograd.grad, the first kind must be the identity (the
    recorded backward reads the value itself, and an outer derivative flows
    through it) and the second a constant. The user's detaches are marked
    in the traced graph as they are recorded; `_drop_autograd_detaches`
    removes the others."""

    DETACHES = (torch.Tensor.detach, torch.detach)

    def __torch_function__(self, func, types, args=(), kwargs=None):
        if func not in self.DETACHES:
            return func(*args, **(kwargs or {}))
        with self.marking():
            return func(*args, **(kwargs or {}))

    class marking:
        """Marks the detach nodes recorded inside the block as the user's."""

        def __enter__(self):
            from torch.fx.experimental.proxy_tensor import (
                ProxyTorchDispatchMode, get_torch_dispatch_modes)
            self.graph = next((m.tracer.graph for m in get_torch_dispatch_modes()
                               if isinstance(m, ProxyTorchDispatchMode)), None)
            self.before = set(self.graph.nodes) if self.graph is not None else set()
            return self

        def __exit__(self, *exc):
            if self.graph is not None:
                for n in self.graph.nodes:
                    if n not in self.before:
                        n.meta["stax_user_detach"] = True
            return False


_REQUIRES_GRAD = torch.Tensor.requires_grad   # its __get__: a new object per access
#: The autograd attributes a trace cannot answer as eager would.
_AUTOGRAD_ATTRIBUTES = {torch.Tensor.grad_fn: "grad_fn", torch.Tensor.is_leaf: "is_leaf",
                        torch.Tensor.grad: "grad"}

#: `flags`, where set: which arguments require grad in the caller's call,
#: when a trace's copies do not say (a plan for a call under no_grad):
#: `x.requires_grad` in the trace answers for them as eager would.
EAGER_REQUIRES_GRAD = threading.local()


class _TraceGuard(torch.overrides.TorchFunctionMode):
    """Reading a traced tensor's values in Python (`t.numpy()`,
    `np.asarray(t)`, `t.tolist()`, `t.data_ptr()`) records no op: the
    values read while tracing would be baked into the plan as constants,
    and under functionalization they are not even the tensor's (its wrapper
    has no storage of its own). Such a read is a trace error, as `.item()`
    is, so that stax.compile runs the function in PyTorch. Tensors the
    trace holds as constants (captured, or made without the arguments and
    not functionalized) are read as they are.

    The same mode refuses the other Python reads and writes a trace would
    bake in or lose: the size of a data-sized result, a traced tensor's
    storage_offset(), an in-place write through an unfold/as_strided view,
    autograd attributes eager would answer differently (`grad_fn`, `is_leaf`
    and `grad`; see _autograd_attribute); and it answers `x.requires_grad`
    as eager would (functionalization's tensors say False)."""

    READS = {torch.Tensor.numpy: "numpy", torch.Tensor.__array__: "__array__",
             torch.Tensor.tolist: "tolist", torch.Tensor.data_ptr: "data_ptr"}

    # The size of a result whose shape the values decide (`x[x > 0]`,
    # `mask.nonzero()`, `t.unique()`) is such a read too: `n =
    # x[mask].shape[0]` in Python would be the first call's count in every
    # later call. Those results, and the results of dimensions computed
    # from them, are tracked; reading their sizes is refused.
    SIZES = {torch.Tensor.size: "size()", torch.Tensor.shape.__get__: "shape",
             torch.Tensor.numel: "numel()", torch.Tensor.nelement: "nelement()",
             torch.Tensor.__len__: "len()"}
    DATA_SIZED = {torch.nonzero, torch.Tensor.nonzero, torch.argwhere,
                  torch.Tensor.argwhere, torch.masked_select,
                  torch.Tensor.masked_select, torch.unique, torch.Tensor.unique,
                  torch.unique_consecutive, torch.Tensor.unique_consecutive,
                  torch.bincount, torch.Tensor.bincount}

    def __init__(self, differentiable=(), arguments=()):
        super().__init__()
        self.arguments: Dict[int, torch.Tensor] = {id(t): t for t in arguments}
        self.data_sized: Dict[int, torch.Tensor] = {}
        self.windows: Dict[int, torch.Tensor] = {}
        # Functionalization's tensors say requires_grad=False: which traced
        # tensors would require grad in eager (the arguments that do, and
        # what grad mode computes from them) is tracked here, for a
        # function that reads x.requires_grad (`if x.requires_grad:`).
        self.differentiable: Dict[int, torch.Tensor] = {
            id(t): t for t in differentiable}

    def _requires_grad(self, t) -> bool:
        if torch._C._functorch.is_functionaltensor(t):
            return self.differentiable.get(id(t)) is t
        return t.requires_grad

    def __torch_function__(self, func, types, args=(), kwargs=None):
        owner = getattr(func, "__self__", None)
        if owner is _REQUIRES_GRAD and args:
            return self._requires_grad(args[0])
        if owner in _AUTOGRAD_ATTRIBUTES and args and self._traced(args[0]) \
                and self._users_code(sys._getframe(1)):
            return self._autograd_attribute(_AUTOGRAD_ATTRIBUTES[owner], args[0])
        method = self.READS.get(func)
        if method is not None and args and self._traced(args[0]):
            raise RuntimeError(
                f"the function reads a traced tensor's values with "
                f".{method}(): a compiled plan cannot depend on them")
        if func is torch.Tensor.storage_offset and args and \
                self._traced(args[0]) and self._users_code(sys._getframe(1)):
            # The trace runs on copies at offset 0 (layout_copy).
            raise RuntimeError(
                "the function reads a traced tensor's storage_offset(): a "
                "compiled plan does not depend on where a tensor starts in "
                "its storage")
        if kwargs and kwargs.get("requires_grad") and \
                self._users_code(sys._getframe(1)):
            # A leaf made inside: eager's results have a graph from it and
            # backward accumulates its .grad; a plan differentiates only the
            # arguments and the tensors the function captures.
            raise RuntimeError(
                f"the function makes a tensor that requires grad "
                f"({_function_name(func)}(..., requires_grad=True)): compiled "
                f"code differentiates only its arguments and the tensors "
                f"it captures")
        size = self.SIZES.get(func)
        if size is not None and args and id(args[0]) in self.data_sized \
                and self._users_code(sys._getframe(1)):
            raise RuntimeError(
                f"the function reads the {size} of a result whose shape "
                f"depends on tensor values (nonzero, a boolean mask index, "
                f"unique ...): a compiled plan would keep the first call's")
        if args and self._window(args[0]) and self._writes(func) and \
                self._users_code(sys._getframe(1)):
            raise RuntimeError(
                "the function writes in place through a view made by unfold, "
                "as_strided or expand: windows that overlap (or leave gaps) "
                "are written once per window in eager, which a functional "
                "trace cannot express")
        result = func(*args, **(kwargs or {}))
        if func in self.WINDOWS or (args and self._window(args[0]) and
                                    _function_name(func) in _RedirectFunctions.VIEWS):
            for t in tree_flatten(result)[0]:
                if isinstance(t, torch.Tensor):
                    self.windows[id(t)] = t
        if func in self.BROADCASTS:
            for t in tree_flatten(result)[0]:
                if isinstance(t, torch.Tensor) and any(
                        stride == 0 and size > 1
                        for size, stride in zip(t.shape, t.stride())):
                    self.windows[id(t)] = t
        if self._sizes_from_values(func, args, kwargs):
            for t in tree_flatten(result)[0]:
                if isinstance(t, torch.Tensor) and t.dim() > 0:
                    self.data_sized[id(t)] = t
        if torch.is_grad_enabled() and func not in self.DETACHING and any(
                isinstance(t, torch.Tensor) and self._requires_grad(t)
                for t in tree_flatten((args, kwargs or {}))[0]):
            for t in tree_flatten(result)[0]:
                if isinstance(t, torch.Tensor) and (
                        t.is_floating_point() or t.is_complex()):
                    self.differentiable[id(t)] = t
        return result

    DETACHING = {torch.Tensor.detach, torch.detach, torch.Tensor.detach_}

    def _autograd_attribute(self, name: str, t: torch.Tensor):
        """`t.grad_fn`, `t.is_leaf` or `t.grad` read by the user's code.
        The traced tensors have no autograd graph, so the answers come from
        what eager would have: a tensor that does not require grad has no
        grad_fn and is a leaf, an intermediate that does is not a leaf and
        has no grad. The rest depends on what the plan cannot hold (eager's
        grad_fn object) or does not guard on (an argument's .grad and
        whether it is a leaf in the caller's graph): refused, so that the
        function runs in PyTorch."""
        argument = self.arguments.get(id(t)) is t
        requires_grad = self._requires_grad(t)
        if name == "grad_fn" and not requires_grad:
            return None
        if name == "is_leaf" and (not requires_grad or not argument):
            return not requires_grad
        if name == "grad" and not argument:
            return None
        what = "an argument's" if argument else "a tensor's"
        raise RuntimeError(
            f"the function reads {what} .{name}, which a compiled plan does "
            f"not see: its tensors have no autograd graph while it runs")

    # Views whose elements may share memory or skip some of their base's:
    # PyTorch 1.13's functionalization writes one back with
    # unfold_backward / as_strided_scatter, which sums overlapping windows
    # and zeroes what no window covers.
    WINDOWS = {torch.Tensor.unfold, torch.as_strided, torch.Tensor.as_strided}
    # So may broadcasts that repeat elements (a stride 0): functionalization
    # writes a write through them back summed over the repeats
    # (`y[:1].expand(3, 4)[1, 2] = 7` added the row's three copies).
    BROADCASTS = {torch.Tensor.expand, torch.Tensor.expand_as, torch.broadcast_to,
                  torch.Tensor.broadcast_to, torch.broadcast_tensors}

    def _window(self, t) -> bool:
        return isinstance(t, torch.Tensor) and self.windows.get(id(t)) is t

    @staticmethod
    def _writes(func) -> bool:
        name = _function_name(func)
        return name in _RedirectFunctions.IN_PLACE_DUNDERS or (
            name.endswith("_") and not name.startswith("_")
            and name not in _RedirectFunctions.METADATA_WRITES)

    @staticmethod
    def _users_code(frame) -> bool:
        """Whether `frame` is the user's code: PyTorch's functions and
        Stax's decompositions read sizes to build the ops the trace
        records (a Python decomposition of cross_entropy with label
        smoothing), not to compute Python values of their own."""
        # Past the dispatch itself: torch.overrides, the other modes'
        # handlers, and Tensor's Python methods (__len__) that forward the
        # read.
        while frame is not None and (
                frame.f_globals.get("__name__") in ("torch.overrides", "torch._tensor")
                or frame.f_code.co_name == "__torch_function__"):
            frame = frame.f_back
        module = frame.f_globals.get("__name__", "") if frame else ""
        return module.split(".")[0] not in ("torch", "stax", "functorch")

    def _sizes_from_values(self, func, args, kwargs) -> bool:
        """Whether func's results have sizes its arguments' values decide:
        a data-sized operator, an index by a boolean mask, repeats given as
        a tensor, or any operator of a data-sized tensor."""
        leaves = tree_flatten((args, kwargs or {}))[0]
        if any(isinstance(t, torch.Tensor) and id(t) in self.data_sized
               and self.data_sized[id(t)] is t for t in leaves):
            return True
        if func in self.DATA_SIZED:
            return True
        if func is torch.Tensor.__getitem__ and len(args) > 1:
            index = tree_flatten(args[1])[0]
            return any(isinstance(i, torch.Tensor) and i.dtype in (torch.bool, torch.uint8)
                       for i in index)
        if func in (torch.repeat_interleave, torch.Tensor.repeat_interleave):
            repeats = args[1] if len(args) > 1 else (kwargs or {}).get("repeats")
            return isinstance(repeats, torch.Tensor) and repeats.numel() > 1
        if func is torch.where and len(args) == 1 and not kwargs:
            return True
        return False

    @staticmethod
    def _traced(t) -> bool:
        from torch.fx.experimental.proxy_tensor import get_proxy, has_proxy
        if not isinstance(t, torch.Tensor):
            return False
        if torch._C._functorch.is_functionaltensor(t):
            return True
        return has_proxy(t) and getattr(get_proxy(t), "constant", None) is None


def _functionalized(gm: fx.GraphModule, example_inputs,
                    table: Dict[Any, Callable]) -> fx.GraphModule:
    """A graph traced without functionalization traced once more, with it.
    The graph no longer calls autograd (the backward it ran is recorded as
    plain ATen ops) and reads the tensors it captures as inputs (those it
    writes are lifted to placeholders for the trace, and back to constants
    after it), so PyTorch's functionalization now applies: writes through
    views (`b[1:3] = 0`, functorch's jacrev filling its basis through
    `diagonal`) become the scatter of the view, in-place view ops
    (`squeeze_`) their twins, and what remains is one `copy_` per input or
    captured tensor the function writes, as in a functionalized trace.
    Without this, such writes stayed in the graph, and a graph split around
    an unsupported op could lose them (a partition's result is a value,
    not the caller's storage)."""
    from functorch import functionalize as _functionalize
    from torch.fx.experimental.proxy_tensor import make_fx
    _sync_before_views(gm)
    _index_put_with_full_slices_as_copies(gm)
    written = written_constants(gm)
    lifted = lift_tensor_constants(gm, lambda t: any(t is w for w in written))
    out = make_fx(_functionalize(_syncing_results(gm)), decomposition_table=table)(
        *[layout_copy(a) if isinstance(a, torch.Tensor) else a
          for a in example_inputs], *[t.detach().clone() for t in lifted])
    _placeholders_as_constants(out, len(example_inputs), lifted)
    return out


def _syncing_results(fn):
    """`fn`, whose tensor results are brought up to date under
    functionalization before they are returned: PyTorch 1.13's functorch
    functionalize returns a view of an intermediate as it was when taken
    (`z = y[0]; y.mul_(10); return y, z` gave z the values before the
    write). torch._sync regenerates a view from its updated base."""
    def synced(*args):
        out = fn(*args)
        for t in tree_flatten(out)[0]:
            if isinstance(t, torch.Tensor) and \
                    torch._C._functorch.is_functionaltensor(t):
                torch._sync(t)
        return out
    return synced


def _sync_before_views(gm: fx.GraphModule) -> None:
    """Before each view op of `gm`, a call that applies the writes made
    through other views to its operand (_sync_functional), for the trace
    with functionalization."""
    for n in list(gm.graph.nodes):
        if (n.op == "call_function" and returns_view(n.target)
                and n.args and isinstance(n.args[0], fx.Node)):
            with gm.graph.inserting_before(n):
                gm.graph.call_function(_sync_functional, (n.args[0],))
    gm.recompile()


def _copy_of_index_put(self, indices, values, accumulate=False):
    """self.index_put_(indices, values, accumulate) as a copy of the
    functional index_put into self."""
    return self.copy_(aten.index_put.default(self, indices, values,
                                             accumulate))


def _index_put_with_full_slices_as_copies(gm: fx.GraphModule) -> None:
    """Each in-place index_put_ of `gm` whose index list has a None (a full
    slice before an indexed dimension: `z[:, i] = v`) becomes
    _copy_of_index_put: PyTorch 1.13's functionalization of index_put_
    fails on such a list ("sym_strides() called on an undefined Tensor"),
    and the function ran in PyTorch; the functional op and copy_ are
    functionalized as any other."""
    changed = False
    for n in gm.graph.nodes:
        if (n.op == "call_function" and n.target is aten.index_put_.default
                and any(i is None for i in n.args[1])):
            n.target = _copy_of_index_put
            changed = True
    if changed:
        gm.recompile()


def _placeholders_as_constants(gm: fx.GraphModule, first: int,
                               tensors: List[torch.Tensor]) -> None:
    """The placeholders of `gm` from index `first` on become get_attr
    nodes of `tensors` (held as the very objects, as make_fx holds the
    tensors a function captures)."""
    placeholders = [n for n in gm.graph.nodes if n.op == "placeholder"]
    anchor = placeholders[-1]
    for k, (ph, tensor) in enumerate(zip(placeholders[first:], tensors)):
        name = f"_stax_captured_{k}"
        setattr(gm, name, tensor)
        with gm.graph.inserting_after(anchor):
            anchor = gm.graph.create_node("get_attr", name)
        ph.replace_all_uses_with(anchor)
    for ph in placeholders[first:]:
        gm.graph.erase_node(ph)
    gm.recompile()


def _drop_autograd_detaches(gm: fx.GraphModule) -> None:
    """The detach nodes autograd recorded (not marked by _MarkUserDetaches)
    become the identity."""
    for n in list(gm.graph.nodes):
        if (n.op == "call_function" and n.target is aten.detach.default
                and not n.meta.get("stax_user_detach")):
            n.replace_all_uses_with(n.args[0])
            gm.graph.erase_node(n)
    gm.recompile()


def _users_module(module) -> bool:
    """Whether `module` is a Python module of the user's: not the standard
    library's, an installed package's, PyTorch's, NumPy's or Stax's."""
    if not isinstance(module, types.ModuleType):
        return False
    path = getattr(module, "__file__", None) or ""
    root = module.__name__.split(".")[0]
    return (root not in sys.stdlib_module_names
            and root not in ("torch", "numpy", "stax")
            and not any(part in path for part in ("site-packages", "dist-packages")))


class _AttributeNamespace:
    """An object's attributes as the namespace CapturedName reads a name
    in (a function's __defaults__)."""

    def __init__(self, obj):
        self.obj = obj

    def get(self, name, default=None):
        return getattr(self.obj, name, default)

    def pop(self, name, default=None):
        value = self.get(name, default)
        setattr(self.obj, name, None)
        return value

    def __setitem__(self, name, value):
        setattr(self.obj, name, value)


class CapturedName:
    """A closure cell or a global a traced function reads: calling it gives
    the plan key part of its value (the value of a Python constant, the
    identity of any other object); `binding()` and `rebind()` read and
    restore what the name is bound to."""

    _EMPTY = object()

    def __init__(self, holder, name: Optional[str] = None):
        self.holder, self.name = holder, name   # a cell, or globals and a name
        # The last value and its key part, where that key cannot change
        # while the name stays bound to the object: a scalar's, or an
        # identity (the same Identity object every call also spares the
        # plan key comparison its __eq__).
        self._last, self._last_key = object(), None

    def binding(self):
        if self.name is not None:
            return self.holder.get(self.name, self._EMPTY)
        try:
            return self.holder.cell_contents
        except ValueError:       # an empty cell
            return self._EMPTY

    def rebind(self, value) -> None:
        if self.name is None:
            if value is not self._EMPTY:
                self.holder.cell_contents = value
        elif value is self._EMPTY:
            self.holder.pop(self.name, None)
        else:
            self.holder[self.name] = value

    def __call__(self):
        value = self.binding()
        if value is self._last:
            return self._last_key
        # An unbound name is not None: a global defined after a trace
        # (read in `try: SCALE except NameError`) traces again.
        key = value if value is self._EMPTY else constant_key(value)
        if key is value or isinstance(key, Identity):
            self._last, self._last_key = value, key
            what = unwatched(value)
            if what is not None:
                name = f"{self.name!r}" if self.name is not None else \
                    "a variable it captures"
                warnings.warn(
                    f"stax.compile: the function reads {name}, {what}: a "
                    f"change to its entries after a trace is not seen (at "
                    f"most {CONSTANT_CONTAINER_MAX} entries or "
                    f"{NUMPY_BYTES_MAX} bytes are compared at each call); "
                    f"bind the name to a new object to trace again",
                    stacklevel=5)
        return key


def captured_state(fn, depth: int = 3, optimizers: Optional[list] = None):
    """(tensors, modules, python values) that `fn` can reach without being
    passed them: in its closure cells, the globals its code (and nested
    code) names, a bound method's object, a functools.partial's arguments
    and containers of those one level deep; the tensors include every
    parameter and buffer of the nn.Modules found. Functions found there are
    searched too, `depth` levels down. The python values are getters of
    what a trace bakes in from the closure cells and globals read there:
    the value of a Python constant (a number, string, bool or None) and the
    identity of any other object (a module, tensor or function the name is
    later bound to again is another object: the trace used the old one).
    The torch.optim optimizers found are appended to `optimizers`."""
    import functools
    found: Dict[int, torch.Tensor] = {}
    modules: Dict[int, torch.nn.Module] = {}
    values: Dict[Any, Callable[[], Any]] = {}
    seen = set()

    def visit(o, level, container=True):
        if getattr(type(o), "_stax_compiled_module", False):
            o = o.fn     # a compiled module (stax.CompiledModule): its module
        if id(o) in seen:
            return
        seen.add(id(o))
        if optimizers is not None and _plain_object(o):
            # A trainer object's optimizer (`self.opt.step()`).
            optimizers.extend(v for v in vars(o).values()
                              if isinstance(v, torch.optim.Optimizer))
        if isinstance(o, torch.Tensor):
            found[id(o)] = o
        elif isinstance(o, torch.optim.Optimizer):
            if optimizers is not None:
                optimizers.append(o)
        elif isinstance(o, torch.nn.Module):
            modules[id(o)] = o
            for t in list(o.parameters()) + list(o.buffers()):
                found[id(t)] = t
            # Plain tensor attributes too: a traced GraphModule's constants
            # (a partition of a split function holds a captured BatchNorm's
            # statistics as _tensor_constant attributes, which it writes).
            for m in o.modules():
                for t in vars(m).values():
                    if isinstance(t, torch.Tensor):
                        found[id(t)] = t
            if level > 0:
                # Forward hooks run in the trace: what they read is read
                # by it (a steering coefficient, a global scale).
                for m in o.modules():
                    for h in (list(m._forward_pre_hooks.values())
                              + list(m._forward_hooks.values())):
                        visit_function(h, level - 1)
                # Each class's forward once: a user layer's forward can
                # read globals too.
                for cls in {type(m) for m in o.modules()
                            if m is o or not type(m).__module__.startswith("torch.")}:
                    if id(cls.forward) not in seen:
                        seen.add(id(cls.forward))
                        visit_function(cls.forward, level - 1)
        elif isinstance(o, (list, tuple)) and container:
            for e in o:
                visit(e, level, False)
        elif isinstance(o, dict) and container:
            for e in o.values():
                visit(e, level, False)
        elif callable(o) and level > 0:
            visit_function(o, level - 1)

    def names(code):
        # The names the code loads as globals (co_names also holds every
        # attribute name: `self.c(x)` is not a read of a global `c`).
        out = {i.argval for i in dis.get_instructions(code)
               if i.opname in ("LOAD_GLOBAL", "LOAD_NAME")}
        for c in code.co_consts:
            if hasattr(c, "co_names"):
                out |= names(c)
        return out

    def attributes(code):
        # (global, attribute) of each `g.a` the code reads.
        out, last = set(), None
        for i in dis.get_instructions(code):
            if i.opname in ("LOAD_ATTR", "LOAD_METHOD") and last is not None:
                out.add((last, i.argval))
            last = i.argval if i.opname in ("LOAD_GLOBAL", "LOAD_NAME",
                                            "LOAD_DEREF") else None
        for c in code.co_consts:
            if hasattr(c, "co_names"):
                out |= attributes(c)
        return out

    def imported(code):
        # (module name, attribute) of each value a function-local import
        # reads: `from cfg import SCALE`, and `import cfg` then `cfg.SCALE`.
        out, local = set(), {}
        instructions = list(dis.get_instructions(code))
        for k, i in enumerate(instructions):
            after = instructions[k + 1] if k + 1 < len(instructions) else None
            if i.opname == "IMPORT_FROM":
                out.add((instructions[k - 1].argval
                          if instructions[k - 1].opname == "IMPORT_NAME"
                          else None, i.argval))
            elif (i.opname == "IMPORT_NAME" and "." not in i.argval
                  and after is not None and after.opname == "STORE_FAST"):
                local[after.argval] = i.argval
            elif (i.opname in ("LOAD_ATTR", "LOAD_METHOD") and k > 0
                  and instructions[k - 1].opname == "LOAD_FAST"
                  and instructions[k - 1].argval in local):
                out.add((local[instructions[k - 1].argval], i.argval))
        for c in code.co_consts:
            if hasattr(c, "co_names"):
                out |= imported(c)
        return {(m, a) for m, a in out if m is not None}

    def visit_function(f, level):
        if isinstance(f, functools.partial):
            visit(f.func, level + 1)
            visit(list(f.args) + list(f.keywords.values()), level)
            # Its keywords can be set again (f.keywords is a dict).
            for name in f.keywords:
                values[("partial", id(f), name)] = CapturedName(f.keywords, name)
            return
        if (_plain_object(f) and callable(f)
                and not isinstance(f, torch.nn.Module)):
            # A callable object: its __call__ reads its attributes.
            f = f.__call__
        owner = getattr(f, "__self__", None)
        if owner is not None:
            if _plain_object(owner):
                # A method of the user's object reads its attributes
                # (constant_key: by value, as a global object's).
                values[("self", id(owner))] = CapturedName({"self": owner}, "self")
            visit(owner, level)
        f = getattr(f, "__func__", f)
        code = getattr(f, "__code__", None)
        if code is None:
            return
        for cell in getattr(f, "__closure__", None) or ():
            try:
                content = cell.cell_contents
            except ValueError:       # an empty cell
                continue
            values[("cell", id(cell))] = CapturedName(cell)
            visit(content, level)
        glob = getattr(f, "__globals__", {})
        for name in names(code):
            if name in glob:
                values[("global", id(glob), name)] = CapturedName(glob, name)
                visit(glob[name], level)
            elif not hasattr(builtins, name):
                # Not defined yet: the trace took the path without it.
                values[("global", id(glob), name)] = CapturedName(glob, name)
        # Default values are constants of the trace; `f.__defaults__ = ...`
        # and `f.__kwdefaults__[k] = ...` change them.
        for attribute in ("__defaults__", "__kwdefaults__"):
            if getattr(f, attribute, None):
                values[(attribute, id(f))] = CapturedName(
                    _AttributeNamespace(f), attribute)
        # A mutable default (`acc=[]`) is state the function keeps between
        # calls, as a global would be.
        for i, d in enumerate(getattr(f, "__defaults__", None) or ()):
            if isinstance(d, (list, dict, set)) or _plain_object(d):
                values[("default", id(f), i)] = CapturedName({"default": d}, "default")
        cells = dict(zip(code.co_freevars, getattr(f, "__closure__", None) or ()))
        for name, attribute in attributes(code):
            module = glob.get(name)
            if name in cells:
                try:
                    module = cells[name].cell_contents
                except ValueError:       # an empty cell
                    continue
            if _users_module(module) and attribute in vars(module):
                # `config.scale`, `layers.rope(x)`: an attribute of the
                # user's module, read like a global of it.
                namespace = vars(module)
                values[("global", id(namespace), attribute)] = CapturedName(
                    namespace, attribute)
                visit(namespace[attribute], level)
        for name, attribute in imported(code):
            module = sys.modules.get(name)
            if _users_module(module) and attribute in vars(module):
                # The same read through a function-local import.
                namespace = vars(module)
                values[("global", id(namespace), attribute)] = CapturedName(
                    namespace, attribute)
                visit(namespace[attribute], level)

    visit(fn, depth + 1)
    return list(found.values()), list(modules.values()), list(values.values())


def layout_copy(t: torch.Tensor) -> torch.Tensor:
    """A detached copy of `t` with its sizes and strides, for a trace to
    run on: clone() makes a tensor with gaps (`x[:, :2]`) or repeats
    (`expand`) contiguous, so the function saw `is_contiguous()` and
    `stride()` wrong, `view(-1)` succeed where eager raises, and view
    results replayed on the caller's tensor (as_strided under diagonal)
    took the layout of the copy. Gaps hold the caller's storage there too
    (as_strided may read them); the storage offset is 0."""
    t = t.detach()
    copy = t.clone()    # preserve_format: a dense tensor keeps its strides
    if copy.stride() == t.stride() or t.numel() == 0:
        return copy
    extent = 1 + sum((n - 1) * s for n, s in zip(t.shape, t.stride()))
    span = t.as_strided((extent,), (1,), t.storage_offset())
    return span.clone().as_strided(t.shape, t.stride(), 0)


class UndoCapturedWrites:
    """Tracing runs the function on real tensors: in-place writes to the
    tensors it captures (a BatchNorm's running statistics, its batch count)
    would happen at every trace. Their values are restored on exit: a
    parameter too, which a forward can scale under no_grad or through
    `.data` (a trace that fails and is retried would write it again)."""

    def __init__(self, fn):
        self.saved = [(t, t.detach().clone(), t._version)
                      for t in captured_state(fn)[0]]

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        # Functionalization writes some of them back without bumping their
        # version counter: compare the bits too (NaN equals itself there).
        with torch.no_grad():
            for t, value, version in self.saved:
                if t._version != version or not torch.equal(
                        t.contiguous().reshape(-1).view(torch.uint8),
                        value.contiguous().reshape(-1).view(torch.uint8)):
                    t.copy_(value)
        return False


def _refuse_flag_writes(inputs, copies) -> None:
    """`x.requires_grad_()` on an argument changes the caller's tensor,
    which compiled code cannot do (the trace runs on copies): refused, so
    that stax.compile runs the function in PyTorch."""
    for i, (a, c) in enumerate(zip(inputs, copies)):
        if isinstance(a, torch.Tensor) and c.requires_grad != a.requires_grad:
            raise StaxError(f"the function sets requires_grad of argument "
                            f"#{i} in place: compiled code does not change "
                            f"its caller's tensors' flags")


def _refuse_metadata_writes(gm: fx.GraphModule) -> None:
    """In-place view operators on an input (`x.t_()`, `x.unsqueeze_(0)`)
    change the caller's tensor's shape or strides; functionalization keeps
    them as as_strided_ / resize_ of the input. Compiled code returns
    values and cannot do that: such a function is refused (stax.compile
    then runs it in PyTorch)."""
    metadata = {aten.as_strided_.default, aten.resize_.default,
                aten.resize_as_.default}
    for n in gm.graph.nodes:
        if n.op == "call_function" and n.target in metadata:
            raise StaxError(
                f"the function changes the shape or strides of an input in "
                f"place ({_overload_name(n.target)}: x.t_(), x.unsqueeze_(), "
                f"x.resize_() ...), which compiled code cannot do to the "
                f"caller's tensor")


#: PyTorch 1.13's functionalization of index_put_ with a None index.
_UNDEFINED_INDEX = re.compile(r"sym_strides\(\) called on an undefined Tensor")


def trace(fn, *example_inputs, functionalize: bool = True,
          decompose: bool = True) -> fx.GraphModule:
    """`fn` traced with make_fx (see _trace). A function that calls
    torch.autograd.grad (or makes a tensor require grad) is traced
    without functionalization, which PyTorch refuses for it, and the
    resulting graph, which calls autograd no more, once more with it
    (_functionalized)."""
    try:
        return _trace(fn, example_inputs, functionalize, decompose, False)
    except _TraceWithoutFunctionalization:
        return _trace(fn, example_inputs, False, decompose, True)


def _trace(fn, example_inputs, functionalize: bool, decompose: bool,
           autograd: bool) -> fx.GraphModule:
    """`fn` traced with make_fx into an ATen graph the importer maps.

    functionalize: in-place and out= ops become their functional twins
    (PyTorch's functionalization; `x.sqrt_()` -> `aten.sqrt`); what remains
    is one `copy_` per input the function mutates, which `import_torch`
    turns into a copy-back result (`--stax-functionalize`). decompose: an operator without a `tp` mapping that PyTorch can
    decompose (`torch._decomp.decomposition_table`: addcmul, hardswish,
    native_batch_norm, ...) is traced through its decomposition, repeatedly
    until every operator is mapped or has no decomposition; operators with
    a mapping are never decomposed. Tensors are traced on copies: in-place
    ops run while tracing and must not change the caller's tensors; those
    the function captures are restored after each trace
    (UndoCapturedWrites)."""
    from torch._decomp import decomposition_table
    from torch.fx.experimental.proxy_tensor import make_fx
    from .decompositions import BEFORE_TRACE, CONDITIONAL, DECOMPOSITIONS
    requires = getattr(EAGER_REQUIRES_GRAD, "flags", None) or [
        isinstance(a, torch.Tensor) and a.requires_grad for a in example_inputs]

    def target(*xs):   # make_fx would trace a default argument as an input
        arguments = [x for x, r in zip(xs, requires) if r]
        with _InlineCheckpoints(), _TraceAutogradGrad(functionalize), \
                _TraceGuard(arguments, xs), _RefuseNestedFastPath():
            if autograd:
                with _MarkUserDetaches():
                    return traced(*xs)
            return traced(*xs)

    def traced(*xs):
        if not decompose:
            return fn(*xs)
        with _RedirectFunctions(BEFORE_TRACE):
            return fn(*xs)
    if functionalize:
        from functorch import functionalize as _functionalize
        target = _functionalize(_syncing_results(target))
    table: Dict[Any, Callable] = dict(CONDITIONAL) if decompose else {}
    refused: set = set()
    mode, real_error = "real", None
    for _ in range(16):
        try:
            copies = [layout_copy(a).requires_grad_(a.requires_grad)
                      if isinstance(a, torch.Tensor) else a
                      for a in example_inputs]
            with UndoCapturedWrites(fn), inline_compiled_functions():
                gm = make_fx(target, decomposition_table=table,
                             tracing_mode=mode)(*copies)
        except (StaxError, _TraceWithoutFunctionalization):
            raise
        except Exception as e:  # noqa: BLE001
            if mode == "real" and _HALF_KERNEL_MISSING.search(str(e)):
                # A decomposition runs an op on float16 that PyTorch 1.13
                # has no CPU kernel for (sqrt of std's variance), though
                # eager's fused kernel computes in float32. Fake tensors run
                # no kernel; the trace is the same.
                mode, real_error = "fake", e
                continue
            if real_error is not None:
                e = real_error
            if functionalize and ("requires_grad_()" in str(e) or
                                  "leaf Variable that requires grad" in str(e)):
                # x.requires_grad_() before it; or an in-place write of an
                # input that requires grad under no_grad (F.embedding with
                # max_norm renormalizes its weight), where functorch's
                # transform does not see no_grad.
                raise _TraceWithoutFunctionalization() from e
            if functionalize and _UNDEFINED_INDEX.search(str(e)):
                # PyTorch 1.13 cannot functionalize index_put_ with a None
                # index (`z[:, i] = v`): traced without, its graph is
                # functionalized with those writes as copies
                # (_index_put_with_full_slices_as_copies).
                raise _TraceWithoutFunctionalization() from e
            if "mutating a non-functional tensor with a functional" in str(e):
                if functionalize:
                    raise _TraceWithoutFunctionalization() from e
                raise StaxError(
                    "the function writes a tensor it captures (not an "
                    "argument) in place with a value computed from its "
                    "arguments: pass that tensor as an argument, or compile "
                    "the module that holds it") from e
            if "leaf Variable that requires grad" in str(e):
                # The trace's arguments are leaves; the caller's may not be
                # (an activation `h.relu_()` writes): eager rewrites its
                # autograd history, which a plan cannot.
                raise StaxError(
                    "the function writes in place to a tensor that requires "
                    "grad (an argument, or a leaf it made): compiled code "
                    "cannot rewrite its autograd history") from e
            raise StaxError(f"tracing {getattr(fn, '__name__', fn)!r} with "
                            f"make_fx failed: {type(e).__name__}: {e}") from e
        _refuse_flag_writes(example_inputs, copies)
        if autograd:
            _drop_autograd_detaches(gm)
            try:
                with UndoCapturedWrites(fn):
                    gm = _functionalized(gm, example_inputs, table)
            except Exception as e:  # noqa: BLE001
                raise StaxError(f"functionalizing the trace of "
                                f"{getattr(fn, '__name__', fn)!r} failed: "
                                f"{type(e).__name__}: {e}") from e
        _drop_dead_nodes(gm)
        if functionalize or autograd:
            _refuse_metadata_writes(gm)
            _masked_copies_as_where(gm)
            masked_reductions_as_where(gm)
            _fold_reshape_chains(gm)
        if not decompose:
            return gm
        unsupported = _unsupported_targets(gm)
        new = {t for t in unsupported
               if (t in DECOMPOSITIONS or t in decomposition_table)
               and t not in table and t not in refused}
        if not new:
            leading = _decompositions_to_prims(unsupported, table)
            if not leading:
                return gm
            # They would leave the op to PyTorch as a prim without autograd
            # (special_i1e -> prims.bessel_i1e): keep the op itself.
            refused.update(leading)
            for t in leading:
                del table[t]
            continue
        table.update({t: _outside_autocast(DECOMPOSITIONS.get(t) or
                                           decomposition_table[t])
                      for t in new})
    return gm


def _outside_autocast(decomposition):
    """`decomposition` run with autocast off: the op it replaces was
    autocast already (its operands cast, or not, by autocast's lists), so
    the ops it calls must not be again (mv -> mm under autocast made mm's
    result bfloat16 where eager's mv is float32, a trace that does not
    verify)."""
    @functools.wraps(decomposition)
    def run(*args, **kwargs):
        with autocast_off():
            return decomposition(*args, **kwargs)
    return run


def autocast_off():
    """A context with autocast off (CPU and CUDA) where it is on: running
    ops a trace recorded, which autocast handled already."""
    stack = contextlib.ExitStack()
    if torch.is_autocast_cpu_enabled():
        stack.enter_context(torch.autocast("cpu", enabled=False))
    if torch.is_autocast_enabled():
        stack.enter_context(torch.autocast("cuda", enabled=False))
    return stack


_HALF_KERNEL_MISSING = re.compile(r"not implemented for '(Half|BFloat16)'")


def _decompositions_to_prims(unsupported, table) -> set:
    """The operators whose PyTorch reference decomposition in `table`
    calls one of the `unsupported` prims (by its source), which has no
    autograd formula: run in PyTorch, the aten operator has one."""
    import inspect
    from .decompositions import CONDITIONAL, DECOMPOSITIONS
    names = {getattr(getattr(t, "overloadpacket", None), "__name__", None)
             for t in unsupported if str(t).startswith("prims.")} - {None}
    if not names:
        return set()
    leading = set()
    for t, fn in table.items():
        if t in DECOMPOSITIONS or t in CONDITIONAL:
            continue
        try:
            source = inspect.getsource(fn)
        except (OSError, TypeError):
            continue
        if any(f"prims.{n}(" in source or f"prims.{n}." in source
               for n in names):
            leading.add(t)
    return leading


def _module_as_function(module: torch.nn.Module, inputs: Sequence[Any]):
    """An nn.Module as a function of its inputs followed by its parameters
    and buffers (so that parameters get gradients instead of being baked in
    as constants), those tensors, and the argument locations naming them."""
    from torch.nn.utils.stateless import functional_call
    named = list(module.named_parameters()) + list(module.named_buffers())
    names = [n for n, _ in named]
    n = len(inputs)

    def call(*xs):
        return functional_call(module, dict(zip(names, xs[n:])), tuple(xs[:n]))
    call.__name__ = type(module).__name__
    state = [t.detach().requires_grad_(t.requires_grad) for _, t in named]
    return call, list(inputs) + state, {n + i: s for i, s in enumerate(names)}


def lift_tensor_constants(gm: fx.GraphModule, predicate) -> List[torch.Tensor]:
    """Turns the tensor constants of `gm` (get_attr nodes: tensors the traced
    function captured, held as the very objects) for which `predicate`
    holds into trailing placeholders, and returns those tensors in
    placeholder order."""
    placeholders = [n for n in gm.graph.nodes if n.op == "placeholder"]
    last = placeholders[-1] if placeholders else None
    lifted: List[torch.Tensor] = []
    placeholder_of: Dict[int, fx.Node] = {}
    for n in list(gm.graph.nodes):
        if n.op != "get_attr":
            continue
        val = gm
        for part in str(n.target).split("."):
            val = getattr(val, part, None)
        if not isinstance(val, torch.Tensor) or not predicate(val):
            continue
        # One placeholder per tensor: a buffer read and then written in
        # place is two get_attr nodes of one attribute.
        ph = placeholder_of.get(id(val))
        if ph is None:
            name = f"captured_{len(lifted)}"
            if last is None:
                with gm.graph.inserting_before(next(iter(gm.graph.nodes))):
                    ph = gm.graph.placeholder(name)
            else:
                with gm.graph.inserting_after(last):
                    ph = gm.graph.placeholder(name)
            last = placeholder_of[id(val)] = ph
            lifted.append(val)
        n.replace_all_uses_with(ph)
        gm.graph.erase_node(n)
    gm.recompile()
    return lifted


def written_constants(gm: fx.GraphModule) -> List[torch.Tensor]:
    """The tensor constants of `gm` that it writes in place (a captured
    BatchNorm's running statistics): they must become arguments with
    copy-back results, or the writes would be lost."""
    out = []
    for n in gm.graph.nodes:
        if n.op != "call_function" or not n.args:
            continue
        schema = getattr(n.target, "_schema", None)
        first = schema.arguments[0] if schema and schema.arguments else None
        info = first.alias_info if first is not None else None
        target = n.args[0]
        if (info is None or not info.is_write or not isinstance(target, fx.Node)
                or target.op != "get_attr"):
            continue
        val = gm
        for part in str(target.target).split("."):
            val = getattr(val, part, None)
        if isinstance(val, torch.Tensor) and all(val is not t for t in out):
            out.append(val)
    return out


def tensor_constants(gm: fx.GraphModule) -> List[torch.Tensor]:
    """The tensors `gm` holds as constants (get_attr nodes)."""
    out = []
    for n in gm.graph.nodes:
        if n.op == "get_attr":
            val = gm
            for part in str(n.target).split("."):
                val = getattr(val, part, None)
            if isinstance(val, torch.Tensor):
                out.append(val)
    return out


def import_torch(fn, *example_inputs, name: str = "forward",
                 functionalize: bool = True, decompose: bool = True) -> str:
    """Traces `fn(*example_inputs)` (see `trace`) and returns the verified,
    pretty-printed `tp` module with one `func.func @<name>`.
    An `nn.Module` imports as a function of its inputs followed by its
    parameters and buffers (`named_parameters()` then `named_buffers()`
    order, each argument located at its name; parameters that require
    grad are marked `tp.requires_grad`).
    The result is functional: an input the function writes comes back as
    an extra, trailing result marked `tp.copy_back = <argument index>`.
    `functionalize=False` keeps the in-place ops make_fx records (as
    in-place `tp` ops where they have one: the raw form that
    `--stax-functionalize` rewrites)."""
    text, _, _, _ = import_torch_lifting(fn, *example_inputs, name=name,
                                      functionalize=functionalize,
                                      decompose=decompose,
                                      lift=lambda t: False)
    return text


def import_torch_lifting(fn, *example_inputs, name: str = "forward",
                         functionalize: bool = True, decompose: bool = True,
                         lift=lambda t: t.requires_grad,
                         locations: bool = False):
    """`import_torch`, with the captured tensors for which `lift` holds (by
    default those that require grad: they must get gradients) and those the
    function writes in place (their writes become copy-back results) made
    trailing arguments of the function instead of constants. Returns (text, the
    lifted tensors in argument order, the tensors still baked in as
    constants, for each result its stax.aliasing.ViewReplay on the
    arguments when it is a view of one, else None). With `locations` the
    text keeps every op's location, its FX node (`loc("log (aten.log.default)")`):
    stax.compile's later diagnostics and run-time errors name the
    operator."""
    arg_names = None
    if isinstance(fn, torch.nn.Module):
        fn, example_inputs, arg_names = _module_as_function(fn, example_inputs)
    gm = trace(fn, *example_inputs, functionalize=functionalize,
               decompose=decompose)
    written = written_constants(gm)
    lifted = lift_tensor_constants(
        gm, lambda t: lift(t) or any(t is w for w in written))
    constants = tensor_constants(gm)
    views = output_views(gm)
    example_inputs = list(example_inputs) + lifted
    text = _emit_graph(gm, example_inputs, name, none_outputs="error",
                       arg_names=arg_names, locations=locations)
    if not functionalize:
        return text, lifted, constants, views
    # Writes to inputs (copy_ into an argument) become copy-back results;
    # decompositions run below PyTorch's functionalization and may write in
    # place (index_put_) too. Functionalization replays a view for every
    # use of its base (the q, k, v split of attention three times): CSE,
    # safe on the functional form, merges the copies.
    from . import run_pipeline
    inplace = any(n.target in _INPLACE_OPS for n in gm.graph.nodes
                  if n.op == "call_function")
    text = run_pipeline(text, "builtin.module(%sfunc.func(cse))"
                        % ("stax-functionalize," if inplace else ""),
                        locations=locations)
    return text, lifted, constants, views


def trace_joint(fn, *example_inputs):
    """functorch's joint forward+backward graph of `fn`: the GraphModule that
    `aot_function` hands to its partitioner (placeholders `primals_*` then
    `tangents_*`; outputs: forward outputs then one gradient per primal, None
    for inputs without one) and its flattened example inputs.  Import it
    with `import_fx_graph(gm, inputs, name)`."""
    import warnings
    from functorch.compile import aot_function, default_partition, make_boxed_func

    rec = {}

    def partition_fn(joint_module, joint_inputs, **kwargs):
        rec["gm"], rec["inputs"] = joint_module, joint_inputs
        return default_partition(joint_module, joint_inputs, **kwargs)

    def compiler(gm, _inputs):
        return make_boxed_func(gm.forward)

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        aot_function(fn, fw_compiler=compiler, bw_compiler=compiler,
                     partition_fn=partition_fn)(*example_inputs)
    if "gm" not in rec:
        raise StaxError("functorch did not produce a joint graph (no input "
                        "requires grad?)")
    return rec["gm"], _flatten(list(rec["inputs"]))
