#!/usr/bin/python3
"""Partition time: Stax's --stax-mincut against functorch 1.13's
min_cut_rematerialization_partition, on the same models.

Not a test: it prints a table and asserts nothing about time.

    cd <repo> && PYTHONPATH=python STAX_LIB_DIR=build/lib \\
        /usr/bin/python3 bench/partition.py [--quick | --full] [--reps N]

Models: the corpus (python/stax/corpus.py), N-layer MLP stacks
(Linear + GELU, hidden 64, batch 16), N-layer nn.TransformerEncoderLayer
stacks (d_model 32, nhead 2, ff 64, dropout 0, train mode, called with
functional_call so every parameter is an input) and, for Stax alone, a
synthetic joint graph of about 100k ops (an L-layer matmul + pointwise chain
written directly as tp IR and differentiated with --stax-joint-graph).

What is timed (joint graphs are built once, outside the timing):
- Stax pass ms: `stax.time_pipeline(joint_text,
  "builtin.module(stax-mincut{algorithm=dinic})")`: the module is parsed
  once, then each run partitions an untimed clone of it in one persistent
  MLIRContext (C API `staxTimePipeline`), best of --reps (at least 20 for
  small graphs). No parsing, printing, report or verifier: what
  functorch's number covers too (a traced graph in, two graphs out).
  `+verify ms` is the same with MLIR's verifier run on the result.
- Stax e2e ms: `stax.run_pipeline(joint_text,
  "builtin.module(stax-mincut{algorithm=dinic report=...})")`, in process,
  best of --reps: parsing, verifying, the JSON report and printing the
  module are included; the `parse+print` column is the same call with an
  empty pipeline.
- Stax solver ms: the report's `solver_time_ms` (the max-flow alone), for
  dinic and for edmonds-karp. Edmonds-Karp runs in a `stax-opt` subprocess
  killed after --ek-timeout seconds (then shown as `>20000`).
- For the synthetic graph, also the pass as `stax-opt --mlir-timing`
  reports it (one cold run, with the report and the verifier, no parsing or
  printing), the number the "under 1 s for a 100k-node graph" check uses.
- functorch ms: `min_cut_rematerialization_partition(joint_module,
  joint_inputs)` on a deep copy of the joint GraphModule that aot_function
  hands to its partition_fn (the partitioner mutates it: DCE, CSE), best of
  --reps. In 1.13 the number of forward outputs comes from the module's
  `_out_spec`, so the call takes only (joint_module, joint_inputs).
Node counts: ours = tp ops in the joint function; functorch = nodes of the
joint fx graph (placeholders and output included).
"""

from __future__ import annotations

import argparse
import copy
import json
import math
import os
import platform
import re
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "python"))

import stax  # noqa: E402  (first: idle OpenMP workers sleep, stax/__init__.py)
import torch  # noqa: E402
from stax import corpus  # noqa: E402

# The stax-opt next to the library in use (STAX_LIB_DIR=<build>/lib).
STAX_OPT = Path(os.environ.get("STAX_OPT", Path(
    os.environ.get("STAX_LIB_DIR", REPO / "build" / "lib")).resolve().parent
    / "bin" / "stax-opt"))


# ---------------------------------------------------------------------------
# Models
# ---------------------------------------------------------------------------


mlp_stack = corpus.mlp_stack
mlp_inputs = corpus.mlp_stack_inputs


def transformer_stack(n, d_model=32, nhead=2, ff=64, batch=2, seq=8):
    """(fn, inputs) for n TransformerEncoderLayers called functionally."""
    from torch.nn.utils.stateless import functional_call
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(n)
        mod = torch.nn.Sequential(*[
            torch.nn.TransformerEncoderLayer(d_model, nhead, ff, dropout=0.0,
                                             batch_first=True)
            for _ in range(n)])
    mod.train()
    names = [k for k, _ in mod.named_parameters()]

    def fn(x, *params):
        return functional_call(mod, dict(zip(names, params)), (x,)).sum()

    g = torch.Generator().manual_seed(1000 + n)
    x = torch.randn(batch, seq, d_model, generator=g).requires_grad_()
    params = []
    for k, p in mod.named_parameters():
        if p.dim() >= 2:
            t = torch.randn(*p.shape, generator=g) / math.sqrt(p.shape[1])
        elif "norm" in k and k.endswith("weight"):
            t = 1.0 + 0.1 * torch.randn(*p.shape, generator=g)
        else:
            t = 0.1 * torch.randn(*p.shape, generator=g)
        params.append(t.requires_grad_())
    return fn, (x,) + tuple(params)


def synthetic_forward(layers, hidden=64, batch=16):
    """tp text of an L-layer chain: per layer mm (per-layer weight), bias
    add, tanh, sigmoid, mul, add (residual); loss = sum."""
    t2 = "tensor<%dx%dxf32>" % (batch, hidden)
    tw = "tensor<%dx%dxf32>" % (hidden, hidden)
    tb = "tensor<%dxf32>" % hidden
    args = ["%%x: %s" % t2]
    for i in range(layers):
        args.append("%%w%d: %s {tp.requires_grad}" % (i, tw))
        args.append("%%b%d: %s {tp.requires_grad}" % (i, tb))
    body = []
    h = "%x"
    for i in range(layers):
        body += [
            "    %%m%d = tp.mm %s, %%w%d : (%s, %s) -> %s" % (i, h, i, t2, tw, t2),
            "    %%a%d = tp.add %%m%d, %%b%d : %s, %s -> %s" % (i, i, i, t2, tb, t2),
            "    %%t%d = tp.tanh %%a%d : %s -> %s" % (i, i, t2, t2),
            "    %%s%d = tp.sigmoid %%a%d : %s -> %s" % (i, i, t2, t2),
            "    %%g%d = tp.mul %%t%d, %%s%d : %s, %s -> %s" % (i, i, i, t2, t2, t2),
            "    %%h%d = tp.add %%g%d, %s : %s, %s -> %s" % (i, i, h, t2, t2, t2),
        ]
        h = "%%h%d" % i
    body.append("    %%loss = tp.sum %s {dims = array<i64>} : %s -> tensor<f32>"
                % (h, t2))
    body.append("    return %loss : tensor<f32>")
    return ("module {\n  func.func @forward(%s) -> tensor<f32> {\n%s\n  }\n}\n"
            % (", ".join(args), "\n".join(body)))


# ---------------------------------------------------------------------------
# Stax
# ---------------------------------------------------------------------------


def count_ops(text):
    return sum(1 for line in text.splitlines()
               if re.match(r"\s*%[\w:#]+ = tp\.", line))


def best_of(reps, f):
    best, result = math.inf, None
    for _ in range(reps):
        t0 = time.perf_counter()
        result = f()
        best = min(best, time.perf_counter() - t0)
    return best * 1e3, result


def stax_dinic(joint, reps):
    """(run_pipeline ms, solver ms, report entry) for dinic, in process."""
    fd, path = tempfile.mkstemp(suffix=".json")
    os.close(fd)
    try:
        pipe = "builtin.module(stax-mincut{algorithm=dinic report=%s})" % path
        solver = []

        def once():
            stax.run_pipeline(joint, pipe)
            with open(path) as f:
                entry = json.load(f)["functions"][0]
            solver.append(entry["solver_time_ms"])
            return entry

        ms, entry = best_of(reps, once)
        return ms, min(solver), entry
    finally:
        os.unlink(path)


def stax_pass(joint, reps):
    """(best ms without verifier, best ms with it) of the pass alone."""
    pipe = "builtin.module(stax-mincut{algorithm=dinic})"
    return (stax.time_pipeline(joint, pipe, reps)[0],
            stax.time_pipeline(joint, pipe, reps, verify=True)[0])


def stax_opt(joint, algorithm, timeout):
    """Runs `stax-opt --mlir-timing` on the joint graph in a subprocess:
    (StaxMinCut pass ms as MLIR times it, report solver_time_ms), or None
    after `timeout` seconds."""
    with tempfile.TemporaryDirectory() as d:
        src, rep = os.path.join(d, "joint.mlir"), os.path.join(d, "r.json")
        with open(src, "w") as f:
            f.write(joint)
        cmd = [str(STAX_OPT), src, "-o", os.devnull, "--mlir-timing",
               "--mlir-timing-display=list",
               "--pass-pipeline=builtin.module(stax-mincut{algorithm=%s "
               "report=%s})" % (algorithm, rep)]
        try:
            r = subprocess.run(cmd, check=True, timeout=timeout, text=True,
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        except subprocess.TimeoutExpired:
            return None
        m = re.search(r"^\s*([0-9.]+) \(.*\)\s+StaxMinCut\s*$", r.stderr, re.M)
        with open(rep) as f:
            solver = json.load(f)["functions"][0]["solver_time_ms"]
        return (float(m.group(1)) * 1e3 if m else math.nan), solver


# ---------------------------------------------------------------------------
# functorch
# ---------------------------------------------------------------------------


def functorch_joint(fn, inputs):
    """The joint GraphModule aot_function hands to its partitioner, and its
    joint inputs."""
    from functorch.compile import aot_function, default_partition, make_boxed_func
    rec = {}

    def partition_fn(joint_module, joint_inputs):
        rec["gm"] = copy.deepcopy(joint_module)
        rec["inputs"] = joint_inputs
        return default_partition(joint_module, joint_inputs)

    def compiler(gm, _inputs):
        return make_boxed_func(gm.forward)

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        aot_function(fn, fw_compiler=compiler, bw_compiler=compiler,
                     partition_fn=partition_fn)(*inputs)
    return rec["gm"], rec["inputs"]


def functorch_partition(gm, joint_inputs, reps):
    from functorch.compile import min_cut_rematerialization_partition
    best = math.inf
    for _ in range(reps):
        g = copy.deepcopy(gm)
        t0 = time.perf_counter()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            min_cut_rematerialization_partition(g, joint_inputs)
        best = min(best, time.perf_counter() - t0)
    return best * 1e3


# ---------------------------------------------------------------------------
# Driver
# ---------------------------------------------------------------------------


def model_set(mode):
    ms = [("corpus:" + n, (lambda n=n: (corpus.get(n).fn, corpus.get(n).make_inputs())))
          for n in corpus.names()]
    mlp_ns = {"quick": [4, 16, 64], "default": [4, 16, 64, 256],
              "full": [4, 16, 64, 256, 1024]}[mode]
    te_ns = {"quick": [1, 4], "default": [1, 4, 16], "full": [1, 4, 16, 64]}[mode]
    # 18 joint ops per layer: 5600 layers ~ 100k ops.
    syn = {"quick": [1000], "default": [5600], "full": [5600]}[mode]
    ms += [("mlp%d" % n, (lambda n=n: (mlp_stack, mlp_inputs(n)))) for n in mlp_ns]
    ms += [("transformer%d" % n, (lambda n=n: transformer_stack(n))) for n in te_ns]
    return ms, syn


def fmt(v, spec="%.1f"):
    return "-" if v is None else (spec % v if isinstance(v, (int, float)) else v)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    g = ap.add_mutually_exclusive_group()
    g.add_argument("--quick", action="store_true", help="smaller set (~1 min)")
    g.add_argument("--full", action="store_true",
                   help="adds mlp1024 and transformer64 (functorch is slow)")
    ap.add_argument("--reps", type=int, default=5,
                    help="repetitions for small graphs (best is kept)")
    ap.add_argument("--ek-timeout", type=float, default=20.0,
                    help="seconds before Edmonds-Karp is skipped")
    ap.add_argument("--json", help="also write the rows to this file")
    args = ap.parse_args(argv)
    mode = "quick" if args.quick else "full" if args.full else "default"
    torch.set_num_threads(max(1, os.cpu_count() or 1))

    models, synthetic = model_set(mode)
    rows = []
    t_start = time.perf_counter()
    hdr = ("%-26s %6s %6s %8s %8s %8s %8s %8s %9s %9s %8s %8s %7s"
           % ("model", "ops", "fx", "pass ms", "+verify", "e2e ms",
              "parse+pr", "dinic ms", "EK ms", "saved B", "fx ms",
              "fx/pass", "fx/e2e"))
    print("stax-mincut vs functorch min_cut_rematerialization_partition "
          "(%s, %s, %d cores, torch %s)" % (mode, time.strftime("%Y-%m-%d"),
                                            os.cpu_count(), torch.__version__))
    print(hdr, flush=True)

    def emit(row):
        rows.append(row)
        fx = row.get("fx_ms")
        ratio = fx / row["pass_ms"] if fx else None
        ratio_e2e = fx / row["e2e_ms"] if fx else None
        ek = row["ek_ms"]
        print("%-26s %6d %6s %8.3f %8.3f %8.2f %8.2f %8.3f %9s %9d %8s %8s %7s"
              % (row["model"], row["ops"], fmt(row.get("fx_nodes"), "%d"),
                 row["pass_ms"], row["verify_ms"], row["e2e_ms"],
                 row["parse_print_ms"], row["dinic_ms"],
                 ">%d" % (args.ek_timeout * 1e3) if ek is None else "%.3f" % ek,
                 row["saved_bytes"], fmt(fx), fmt(ratio, "%.0fx"),
                 fmt(ratio_e2e, "%.1fx")), flush=True)
        row["ratio"] = ratio
        row["ratio_e2e"] = ratio_e2e

    for name, make in models:
        fn, inputs = make()
        joint = stax.run_pipeline(stax.import_torch(fn, *inputs),
                                  "builtin.module(stax-joint-graph)")
        ops = count_ops(joint)
        reps = args.reps if ops < 5000 else 1
        pass_ms, verify_ms = stax_pass(joint, max(reps, 20) if ops < 5000
                                       else args.reps)
        e2e_ms, dinic_ms, entry = stax_dinic(joint, reps)
        pp_ms, _ = best_of(reps, lambda: stax.run_pipeline(joint, "builtin.module()"))
        ek = stax_opt(joint, "edmonds-karp", args.ek_timeout)
        ek_ms = ek[1] if ek else None
        gm, jin = functorch_joint(fn, inputs)
        fx_nodes = len(gm.graph.nodes)
        fx_ms = functorch_partition(gm, jin, args.reps if fx_nodes < 5000 else 1)
        emit(dict(model=name, ops=ops, fx_nodes=fx_nodes, pass_ms=pass_ms,
                  verify_ms=verify_ms, e2e_ms=e2e_ms, parse_print_ms=pp_ms, dinic_ms=dinic_ms, ek_ms=ek_ms,
                  saved_bytes=entry["saved_bytes"],
                  forward_values=entry["forward_values"], fx_ms=fx_ms))
        del gm, jin

    for layers in synthetic:
        joint = stax.run_pipeline(synthetic_forward(layers),
                                  "builtin.module(stax-joint-graph)")
        ops = count_ops(joint)
        reps = max(1, min(args.reps, 2))
        pass_ms, verify_ms = stax_pass(joint, max(reps, 3))
        e2e_ms, dinic_ms, entry = stax_dinic(joint, reps)
        pp_ms, _ = best_of(reps, lambda: stax.run_pipeline(joint, "builtin.module()"))
        ek = stax_opt(joint, "edmonds-karp", args.ek_timeout)
        emit(dict(model="synthetic%d (Stax only)" % layers, ops=ops,
                  pass_ms=pass_ms, verify_ms=verify_ms, e2e_ms=e2e_ms,
                  parse_print_ms=pp_ms, dinic_ms=dinic_ms,
                  ek_ms=ek[1] if ek else None, saved_bytes=entry["saved_bytes"],
                  forward_values=entry["forward_values"]))
        timed = [stax_opt(joint, "dinic", 600) for _ in range(reps)]
        opt_ms = min(t[0] for t in timed)
        rows[-1]["stax_opt_pass_ms"] = opt_ms
        print("  -> %d-op joint graph (%d forward values): the StaxMinCut pass "
              "takes %.0f ms in stax-opt --mlir-timing (cold, report and "
              "verifier included; %.0f ms warm without them, max-flow %.1f "
              "ms; run_pipeline %.0f ms of which parse+print %.0f ms): %s 1 s"
              % (ops, entry["forward_values"], opt_ms, pass_ms, dinic_ms,
                 e2e_ms, pp_ms, "under" if opt_ms < 1000 else "NOT under"),
              flush=True)

    print("total %.0f s on %s (%s)" % (time.perf_counter() - t_start,
                                       platform.node(), platform.processor()
                                       or platform.machine()))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1)


if __name__ == "__main__":
    main()
