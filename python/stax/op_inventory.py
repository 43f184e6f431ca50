"""Inventory of the ATen ops (and argument patterns) the Stax corpus produces.

For every model in :mod:`stax.corpus` this script

  (a) traces the forward with ``make_fx(fn)(*inputs)``, and
  (b) traces functorch's *joint* forward+backward graph through
      ``functorch.compile.aot_function`` with a ``partition_fn`` that records
      the joint ``GraphModule`` it receives before delegating to
      ``default_partition``; forward + backward are run once so that both
      compilers are invoked (the backward compiler is invoked lazily by
      autograd), and the compiled result / gradients are checked against
      eager PyTorch.

It prints, per model, the set of ``call_function`` targets (``aten.add.Tensor``
style), then the union over all models with counts, the argument patterns of
every op (the contract the ``tp`` dialect importer must accept), the nodes
that pass Python scalars where a Tensor overload is used, ``None`` entries in
list arguments, ``getitem`` of multi-output ops, ``get_attr`` constants,
factory / ``_to_copy`` keyword arguments, and whether the joint graphs contain
in-place (mutating) ops.

Run (Debian python, which has torch 1.13 + functorch)::

    PYTHONPATH=python /usr/bin/python3 python/stax/op_inventory.py
    PYTHONPATH=python /usr/bin/python3 python/stax/op_inventory.py \
        --graphs --models attention --json /tmp/inv.json

Note: functorch 1.13's ``partition_fn`` signature is
``partition_fn(joint_module, joint_inputs)`` (newer versions add a keyword
``num_fwd_outputs``); the recorder accepts and forwards either form.
"""

from __future__ import annotations

import argparse
import collections
import json
import operator
import sys
import traceback
import warnings
from typing import Any, Dict, List, Optional

import torch
import torch.fx as fx
from torch.fx.experimental.proxy_tensor import make_fx

try:  # when run as a script with PYTHONPATH=python
    from stax import corpus
except ImportError:  # pragma: no cover - run from inside python/stax
    import os
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    from stax import corpus


# ---------------------------------------------------------------------------
# Node helpers
# ---------------------------------------------------------------------------


def target_name(target: Any) -> str:
    """``aten.add.Tensor`` for OpOverloads, ``getitem`` for operator.getitem."""
    if isinstance(target, torch._ops.OpOverload):
        return str(target)                       # e.g. 'aten.add.Tensor'
    if isinstance(target, torch._ops.OpOverloadPacket):
        return str(target) + ".<packet>"
    if target is operator.getitem:
        return "getitem"
    mod = getattr(target, "__module__", None) or ""
    return f"{mod}.{getattr(target, '__name__', repr(target))}"


def is_inplace(target: Any) -> bool:
    """True for mutating ATen overloads (``add_``, ``copy_``, out= ...)."""
    if not isinstance(target, torch._ops.OpOverload):
        return False
    schema = target._schema
    base = schema.name.split("::")[-1]
    if base.endswith("_") and not base.endswith("__"):
        return True
    return any(a.alias_info is not None and a.alias_info.is_write
               for a in schema.arguments)


def describe_value(v: Any) -> str:
    """Short type description of one FX argument value."""
    if isinstance(v, fx.Node):
        if v.op == "get_attr":
            return "T(get_attr const)"
        val = v.meta.get("val", v.meta.get("tensor_meta"))
        dtype = getattr(val, "dtype", None)
        if isinstance(dtype, torch.dtype):
            dt = str(dtype).replace("torch.", "")
            return f"T[{dt}]" if dt != "float32" else "T"
        return "T?"   # no metadata (e.g. multi-output node)
    if v is None:
        return "None"
    if isinstance(v, bool):
        return f"bool={v}"
    if isinstance(v, int):
        return "int"
    if isinstance(v, float):
        if v != v or v in (float("inf"), float("-inf")):
            return f"float={v}"
        return "float"
    if isinstance(v, torch.dtype):
        return f"dtype={str(v).replace('torch.', '')}"
    if isinstance(v, torch.device):
        return f"device={v.type}"
    if isinstance(v, torch.layout):
        return f"layout={str(v).replace('torch.', '')}"
    if isinstance(v, torch.memory_format):
        return f"memory_format={str(v).replace('torch.', '')}"
    if isinstance(v, (list, tuple)):
        inner = [describe_value(x) for x in v]
        uniq = sorted(set(inner))
        br = "[{}]" if isinstance(v, list) else "({})"
        return br.format("|".join(uniq) if len(uniq) <= 3 else ",".join(inner))
    if isinstance(v, str):
        return f"str={v!r}"
    return type(v).__name__


def node_pattern(node: fx.Node) -> str:
    """e.g. ``(T, [int], bool=True) {dtype=float32}``."""
    args = ", ".join(describe_value(a) for a in node.args)
    s = f"({args})"
    if node.kwargs:
        kw = ", ".join(f"{k}={describe_value(v).split('=', 1)[-1]}"
                       for k, v in node.kwargs.items())
        s += " {" + kw + "}"
    return s


def scalar_in_tensor_slot(node: fx.Node) -> List[str]:
    """Python numbers passed where the overload's schema says ``Tensor``."""
    t = node.target
    if not isinstance(t, torch._ops.OpOverload):
        return []
    hits = []
    sargs = t._schema.arguments
    for i, a in enumerate(node.args):
        if i >= len(sargs):
            break
        ty = str(sargs[i].type)
        if ty in ("Tensor", "Optional[Tensor]") and isinstance(a, (int, float)) \
                and not isinstance(a, fx.Node):
            hits.append(f"arg{i}:{sargs[i].name}={a!r}")
    return hits


def none_in_list(node: fx.Node) -> List[str]:
    hits = []
    for i, a in enumerate(node.args):
        if isinstance(a, (list, tuple)) and any(x is None for x in a):
            hits.append(f"arg{i}=[" + ", ".join(
                "None" if x is None else describe_value(x) for x in a) + "]")
    return hits


# ---------------------------------------------------------------------------
# Graph analysis
# ---------------------------------------------------------------------------


class GraphInfo:
    def __init__(self, gm: fx.GraphModule):
        self.gm = gm
        self.ops: collections.Counter = collections.Counter()
        self.patterns: Dict[str, set] = collections.defaultdict(set)
        self.scalar_tensor_args: List[str] = []
        self.none_lists: List[str] = []
        self.getitems: collections.Counter = collections.Counter()
        self.get_attrs: List[str] = []
        self.inplace: set = set()
        self.kwargs_ops: Dict[str, set] = collections.defaultdict(set)
        self.placeholders: List[str] = []
        self.non_aten: set = set()
        self.outputs: str = ""
        self._analyze()

    def _analyze(self):
        for n in self.gm.graph.nodes:
            if n.op == "placeholder":
                self.placeholders.append(f"{n.name}:{describe_value(n)}")
            elif n.op == "get_attr":
                val = getattr(self.gm, n.target, None)
                if isinstance(val, torch.Tensor):
                    desc = (f"{n.target}: {val.dtype} {tuple(val.shape)}"
                            + (f" = {val.tolist()}" if val.numel() <= 8 else ""))
                else:
                    desc = f"{n.target}: {type(val).__name__}"
                users = ",".join(sorted({target_name(u.target) for u in n.users
                                         if u.op == "call_function"}))
                self.get_attrs.append(desc + f" -> used by {users}")
            elif n.op == "call_function":
                name = target_name(n.target)
                self.ops[name] += 1
                if not name.startswith("aten.") and name != "getitem":
                    self.non_aten.add(name)
                if n.target is operator.getitem:
                    src = n.args[0]
                    sname = target_name(src.target) if isinstance(src, fx.Node) \
                        and src.op == "call_function" else str(src)
                    self.getitems[f"{sname}[{n.args[1]}]"] += 1
                    continue
                self.patterns[name].add(node_pattern(n))
                for h in scalar_in_tensor_slot(n):
                    self.scalar_tensor_args.append(f"{name} {h}")
                for h in none_in_list(n):
                    self.none_lists.append(f"{name} {h}")
                if is_inplace(n.target):
                    self.inplace.add(name)
                if n.kwargs:
                    self.kwargs_ops[name].add(
                        ", ".join(f"{k}={v}" for k, v in n.kwargs.items()))
            elif n.op in ("call_method", "call_module"):
                self.non_aten.add(f"{n.op}:{n.target}")
            elif n.op == "output":
                flat, _ = torch.utils._pytree.tree_flatten(n.args[0])
                n_none = sum(x is None for x in flat)
                self.outputs = (f"{len(flat)} outputs"
                                + (f" ({n_none} None)" if n_none else ""))


# ---------------------------------------------------------------------------
# Tracing
# ---------------------------------------------------------------------------


def trace_forward(model: corpus.Model) -> fx.GraphModule:
    return make_fx(model.fn)(*model.make_inputs())


def _tensors_close(a, b, rtol=1e-4, atol=1e-5) -> bool:
    return a.shape == b.shape and torch.allclose(a, b, rtol=rtol, atol=atol)


def trace_joint(model: corpus.Model) -> Dict[str, Any]:
    """Run ``aot_function`` fwd+bwd once; return joint/fw/bw graph modules."""
    from functorch.compile import aot_function, default_partition, make_boxed_func

    rec: Dict[str, Any] = {}

    def partition_fn(joint_module, joint_inputs, **kwargs):
        rec["joint"] = joint_module
        return default_partition(joint_module, joint_inputs, **kwargs)

    def fw_compiler(gm, example_inputs):
        rec["fw"] = gm
        return make_boxed_func(gm.forward)

    def bw_compiler(gm, example_inputs):
        rec["bw"] = gm
        return make_boxed_func(gm.forward)

    compiled = aot_function(model.fn, fw_compiler=fw_compiler,
                            bw_compiler=bw_compiler, partition_fn=partition_fn)

    inputs = model.make_inputs()
    out = compiled(*inputs)
    grad_inputs = [t for t in inputs if t.requires_grad]
    cot = torch.ones_like(out)
    grads = torch.autograd.grad(out, grad_inputs, cot, allow_unused=True)

    ref_inputs = model.make_inputs()
    ref_out = model.fn(*ref_inputs)
    ref_grads = torch.autograd.grad(
        ref_out, [t for t in ref_inputs if t.requires_grad],
        torch.ones_like(ref_out), allow_unused=True)
    ok = _tensors_close(out.detach(), ref_out.detach()) and all(
        (g is None and r is None) or
        (g is not None and r is not None and _tensors_close(g, r))
        for g, r in zip(grads, ref_grads))
    rec["matches_eager"] = ok
    return rec


# ---------------------------------------------------------------------------
# Probes: patterns the corpus does not produce (not part of the contract
# unless a corpus model starts to use them); run with --probes.
# ---------------------------------------------------------------------------


def _probe_models() -> List[corpus.Model]:
    import torch.nn.functional as F

    def mk(seed, *shapes, idx=None):
        def f():
            g = torch.Generator().manual_seed(seed)
            ts = tuple(torch.randn(*sh, generator=g).requires_grad_()
                       for sh in shapes)
            return ts + ((idx.clone(),) if idx is not None else ())
        return f

    def dropout_p01(x):
        """F.dropout(p=0.1, training=True) (CPU: bernoulli path)."""
        return F.dropout(x, 0.1, training=True).sum()

    def const_tensor(x):
        """torch.tensor constant created inside the function."""
        return (x * torch.tensor([1.0, 2.0, 3.0])).sum()

    def none_index(x, idx):
        """x[:, idx] (None in the index list)."""
        return x[:, idx].sum()

    def to_dtype(x):
        """dtype casts (.double(), .to(float16), .float())."""
        return (x.double() * 2).float().sum() + x.to(torch.float16).float().sum()

    def arange_mask(x):
        """causal mask via arange comparison + masked_fill."""
        T = x.shape[-1]
        i = torch.arange(T)
        return x.masked_fill(i[:, None] < i[None, :], -1e9).softmax(-1).sum()

    idx = torch.tensor([0, 2, -1], dtype=torch.int64)
    specs = [(dropout_p01, mk(1, (4, 8))), (const_tensor, mk(2, (4, 3))),
             (none_index, mk(3, (4, 5), idx=idx)), (to_dtype, mk(4, (4, 3))),
             (arange_mask, mk(5, (6, 6)))]
    return [corpus.Model(f.__name__, f, m, True, f.__doc__) for f, m in specs]


# ---------------------------------------------------------------------------
# Reporting
# ---------------------------------------------------------------------------


def _fmt_set(ops) -> str:
    return "\n".join("    " + o for o in sorted(ops))


def run(names: List[str], show_graphs: bool = False,
        json_path: Optional[str] = None, probes: bool = False) -> int:
    results: Dict[str, Dict[str, Any]] = {}
    failures: Dict[str, str] = {}
    models = [corpus.get(n) for n in names]
    if probes:
        models += _probe_models()
    for model in models:
        name = model.name
        res: Dict[str, Any] = {}
        try:
            res["fwd"] = GraphInfo(trace_forward(model))
        except Exception as e:  # noqa: BLE001
            failures[f"{name}/forward"] = f"{type(e).__name__}: {e}"
            traceback.print_exc()
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                rec = trace_joint(model)
            res["joint"] = GraphInfo(rec["joint"])
            res["aot_fw"] = GraphInfo(rec["fw"])
            if "bw" in rec:
                res["aot_bw"] = GraphInfo(rec["bw"])
            else:
                failures[f"{name}/joint"] = "backward compiler never invoked"
            res["matches_eager"] = rec["matches_eager"]
            if not rec["matches_eager"] and name != "dropout_p01":
                failures[f"{name}/joint"] = "aot result/grads differ from eager"
        except Exception as e:  # noqa: BLE001
            failures[f"{name}/joint"] = f"{type(e).__name__}: {e}"
            traceback.print_exc()
        results[name] = res

        print(f"=== {name}: {model.description}")
        for key, label in (("fwd", "forward (make_fx)"),
                           ("joint", "joint (aot_function partition_fn)")):
            gi = res.get(key)
            if gi is None:
                print(f"  {label}: FAILED")
                continue
            print(f"  {label}: {sum(gi.ops.values())} call_function nodes, "
                  f"{len(gi.ops)} distinct; {gi.outputs}")
            print(_fmt_set(gi.ops))
            if show_graphs:
                print(gi.gm.code)
        if "matches_eager" in res:
            print(f"  aot fwd+bwd matches eager: {res['matches_eager']}")
        print()

    # ---- unions ----------------------------------------------------------
    def union(key):
        models_per_op = collections.Counter()
        nodes_per_op = collections.Counter()
        patterns = collections.defaultdict(set)
        for r in results.values():
            gi = r.get(key)
            if gi is None:
                continue
            for op, c in gi.ops.items():
                models_per_op[op] += 1
                nodes_per_op[op] += c
            for op, ps in gi.patterns.items():
                patterns[op] |= ps
        return models_per_op, nodes_per_op, patterns

    summary: Dict[str, Any] = {}
    for key, label in (("fwd", "FORWARD (make_fx)"), ("joint", "JOINT (aot)")):
        mp, npo, pats = union(key)
        summary[key] = {op: {"models": mp[op], "nodes": npo[op],
                             "patterns": sorted(pats.get(op, ()))}
                        for op in sorted(mp)}
        print(f"##### UNION {label}: {len(mp)} distinct targets "
              f"(models using / total nodes)")
        for op in sorted(mp):
            print(f"  {op:45s} {mp[op]:3d} {npo[op]:5d}")
        print()

    fwd_ops = set(summary["fwd"])
    joint_ops = set(summary["joint"])
    print("##### joint-only targets (backward ops):")
    print(_fmt_set(joint_ops - fwd_ops))
    print("##### forward-only targets (absent from joint graphs):")
    print(_fmt_set(fwd_ops - joint_ops) or "    (none)")
    print()

    all_pats = collections.defaultdict(set)
    for key in ("fwd", "joint"):
        for op, d in summary[key].items():
            all_pats[op] |= set(d["patterns"])
    print("##### ARGUMENT PATTERNS (forward + joint; T = float32 tensor)")
    for op in sorted(all_pats):
        for p in sorted(all_pats[op]):
            print(f"  {op}{p}")
    print()

    def collect(attr, keys=("fwd", "joint")):
        out = collections.defaultdict(set)
        for name, r in results.items():
            for key in keys:
                gi = r.get(key)
                if gi is None:
                    continue
                val = getattr(gi, attr)
                items = val.keys() if isinstance(val, dict) else val
                for item in items:
                    out[item].add(f"{name}/{key}")
        return out

    sections = [
        ("Python scalars in Tensor-typed schema slots", "scalar_tensor_args"),
        ("None entries in list arguments", "none_lists"),
        ("getitem of multi-output ops (src[index])", "getitems"),
        ("get_attr constants", "get_attrs"),
        ("non-aten call targets (call_method/module, operator.*, prims)", "non_aten"),
        ("in-place / mutating ops", "inplace"),
    ]
    for title, attr in sections:
        col = collect(attr)
        print(f"##### {title}: {len(col)}")
        for item in sorted(col):
            where = sorted(col[item])
            more = f" (+{len(where) - 4})" if len(where) > 4 else ""
            print(f"  {item}    <- {', '.join(where[:4])}{more}")
        print()

    kw = collections.defaultdict(set)
    for r in results.values():
        for key in ("fwd", "joint"):
            gi = r.get(key)
            if gi is not None:
                for op, s in gi.kwargs_ops.items():
                    kw[op] |= s
    print(f"##### ops called with kwargs: {len(kw)}")
    for op in sorted(kw):
        for s in sorted(kw[op]):
            print(f"  {op} {{{s}}}")
    print()

    inplace_joint = collect("inplace", keys=("joint",))
    print("##### functorch 1.13 joint graph contains in-place ops: "
          f"{'YES: ' + ', '.join(sorted(inplace_joint)) if inplace_joint else 'NO'}")
    print(f"##### failures: {len(failures)}")
    for k, v in failures.items():
        print(f"  {k}: {v}")

    if json_path:
        dump = {
            "torch": torch.__version__,
            "summary": summary,
            "per_model": {
                n: {k: sorted(r[k].ops) for k in ("fwd", "joint", "aot_fw", "aot_bw")
                    if k in r}
                for n, r in results.items()
            },
            "failures": failures,
        }
        with open(json_path, "w") as f:
            json.dump(dump, f, indent=1)
        print(f"wrote {json_path}")
    return 1 if failures else 0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--models", nargs="*", default=None,
                    help="subset of corpus models (default: all)")
    ap.add_argument("--graphs", action="store_true",
                    help="also print the traced graph code")
    ap.add_argument("--json", default=None, help="write the inventory as JSON")
    ap.add_argument("--probes", action="store_true",
                    help="also trace probe functions (dropout p>0, tensor "
                         "constants, x[:, idx], dtype casts, arange mask) "
                         "that are NOT in the corpus; they join the unions")
    args = ap.parse_args(argv)
    names = args.models if args.models is not None else corpus.names()
    return run(names, show_graphs=args.graphs, json_path=args.json,
               probes=args.probes)


if __name__ == "__main__":
    sys.exit(main())
