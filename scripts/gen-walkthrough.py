#!/usr/bin/python3
"""Writes docs/Walkthrough.md: Example 5.1 and Example 1.1 through every
step of the pipeline, with the IR after each step, from the real tools.

    /usr/bin/python3 scripts/gen-walkthrough.py [--build-dir build] [--out FILE]

Each example is imported from PyTorch (`stax.import_torch`, so torch and the
build's libStaxCAPI.so are needed), then every pass of `--stax-pipeline`
runs as a step of its own through `build/bin/stax-opt`. The script checks
that the steps compose to the named pipelines (`--stax-lowering-pipeline`,
`--stax-pipeline`): it fails when they do not, so the page cannot describe a
pipeline that the tools no longer run. The output depends only on the
tools: no paths, no times (scripts/gen-docs.sh runs this script; the test
test/Docs/generated-docs.test checks that docs/ is up to date).
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Code generation options that would otherwise depend on the host: the
# vector width of an AVX-512 machine, written out so that the page is the
# same everywhere.
CODEGEN = "vector-width=16"

# IR longer than this is shown in part.
MAX_LINES = 90
HEAD_LINES = 60
TAIL_LINES = 12


class Tools:
    def __init__(self, build_dir):
        self.opt = os.path.join(build_dir, "bin", "stax-opt")
        if not os.access(self.opt, os.X_OK):
            sys.exit(f"gen-walkthrough: {self.opt} not found: build the tools first")

    def run(self, ir, *args):
        """(stdout, stderr) of stax-opt on `ir` given on stdin."""
        p = subprocess.run([self.opt, "-", *args], input=ir, capture_output=True,
                           text=True)
        if p.returncode != 0:
            sys.exit(f"gen-walkthrough: stax-opt {' '.join(args)} failed:\n{p.stderr}")
        return p.stdout, p.stderr


def remarks(stderr):
    """The diagnostics of a step, without the notes that repeat the op."""
    out = [l for l in stderr.splitlines()
           if ": remark: " in l or ": warning: " in l]
    return "\n".join(out)


def block(ir, command):
    """A fenced block of IR, cut in the middle when it is long."""
    lines = ir.rstrip("\n").splitlines()
    if len(lines) <= MAX_LINES:
        return "```mlir\n" + "\n".join(lines) + "\n```\n"
    shown = lines[:HEAD_LINES] + [
        f"// ... {len(lines) - HEAD_LINES - TAIL_LINES} lines not shown "
        f"(the whole output has {len(lines)} lines: run the command above) ..."
    ] + lines[-TAIL_LINES:]
    return "```mlir\n" + "\n".join(shown) + "\n```\n"


def import_example(name):
    """The tp module that stax.import_torch makes of a corpus model."""
    sys.path.insert(0, os.path.join(ROOT, "python"))
    import stax
    from stax import corpus
    model = corpus.get(name)
    return stax.import_torch(model.fn, *model.make_inputs())


# The steps of --stax-pipeline (target=cpu), as stax-opt flags, each with
# what it does in one sentence. Lines starting with "#" in the notes of an
# example name the step they belong to.
STEPS = [
    ("joint", "Joint graph", "--stax-joint-graph",
     "Reverse-mode autodiff (`--stax-joint-graph`): one tangent argument per "
     "differentiable result (`tp.tangent`), one gradient result per argument "
     "marked `tp.requires_grad`, every op marked with its phase "
     "(`tp.phase`), and the number of forward results in `tp.joint_outputs`."),
    ("mincut", "Min cut", "--stax-mincut",
     "Min-cut rematerialization (`--stax-mincut`): the joint function is split "
     "into `forward_forward` (the forward, which also returns the values the "
     "backward needs) and `forward_backward` (saved values and tangents to "
     "gradients). Everything after this step runs on both functions."),
    ("decompose", "Decompose", "--stax-decompose",
     "The first step of `--stax-lowering-pipeline`: composite ops are "
     "expanded into base ops with the same rounding as the reference "
     "interpreter's kernels (`--stax-decompose`). It runs after the min cut, "
     "so that autodiff and the cut see the eager operators (`gelu`, "
     "`gelu_backward`, `threshold_backward`) rather than their expansions."),
    ("lower", "Lower", "--stax-lower",
     "`--stax-lower` turns every function into `stax` nodes: pointwise ops "
     "are composed into the bodies of their readers, reductions become "
     "`stax.reduction`, views become index arithmetic (`affine.apply`) in "
     "the loads, and only function results, values that several users read "
     "expensively and the operands of ops that stay `tp` (external calls "
     "such as `tp.mm`) go to memory."),
    ("split", "Split reductions", "--stax-split-reductions=target=cpu",
     "`--stax-split-reductions` (with the pipeline's `target=cpu`): a long "
     "reduction with at most 3 outputs is split in two levels so that "
     "threads can share it, and one over contiguous rows of fewer outputs "
     "than a 64-byte line into interleaved rows whose partials are whole "
     "vectors; reductions of at most 8192 elements stay whole."),
    ("fuse", "Fuse", "--stax-fuse",
     "`--stax-fuse` groups nodes that share outer loops into `stax.kernel`s "
     "(a remark for each decision)."),
    ("normalize", "Normalize loops", "--stax-normalize-loops",
     "`--stax-normalize-loops` drops size-1 loops, orders loops by stride "
     "and merges loops that are contiguous in every access (recorded in "
     "`ranges`; no address changes)."),
    ("range", "Range analysis", "--stax-range-analysis",
     "`--stax-range-analysis` computes the interval of every index, drops "
     "bounds checks it proves useless and marks each node with "
     "`stax.index_bitwidth` (32 when every address fits in 32 bits). This "
     "is the end of `--stax-lowering-pipeline`."),
    ("loops", "To loops", f"--stax-to-loops={CODEGEN}",
     "Code generation's first step, `--stax-to-loops`: each function takes "
     "flat memrefs, one more per result (`stax.output`, destination "
     "passing); each node becomes a loop nest (`scf.for`, `scf.parallel` "
     "for large nodes), vectorized innermost loops run 16 lanes at a time, "
     "and `tp.mm` becomes a call of the runtime's `stax_rt_matmul_f32`."),
    ("llvm", "LLVM", f"--stax-pipeline={CODEGEN}",
     "The rest of `--stax-pipeline` after `--stax-to-loops`: "
     "canonicalization and CSE, polynomial math (`--stax-approximate-math`), "
     "then MLIR's conversions of affine, scf (to OpenMP for parallel loops), "
     "vector, math, memref, arith, cf and func to the LLVM dialect, with "
     "bare-pointer arguments. `stax-opt` does not register MLIR's "
     "conversion passes one by one, so this step runs the whole "
     "`--stax-pipeline` on the output of step 8 (range analysis), whose "
     "lowering half finds nothing left to do. `stax-translate "
     "--stax-to-object` or the JIT takes the result from here."),
]

EXAMPLES = [
    ("example_5_1", "Example 5.1: `F.gelu(x @ W).sum()`",
     "x is 32x64 and W 64x64; only W requires grad, so the backward computes "
     "one gradient, W̄ = xᵀ (gelu'(x W) · ḡ).",
     {
         "joint": "The backward keeps eager's `gelu_backward`, which reads "
                  "the matmul's result `%0`.",
         "mincut": "Only `h = x @ W` is saved (8192 bytes): recomputing it "
                   "would cost a matmul, while `gelu(h)` is cheap to "
                   "recompute from it. The primal `x` is free for the "
                   "backward: it is an input.",
         "lower": "The matmuls stay `tp.mm` (external calls, which `remarks=true` names); "
                  "the forward's GELU and sum become one `stax.reduction` "
                  "that reads the matmul's result; the backward's "
                  "`gelu_backward` is one `stax.pointwise`, and the "
                  "transpose `tp.t %arg0` is materialized for the matmul.",
         "split": "the sum has 2048 elements.",
         "fuse": "the nodes are separated by matmuls, which "
                 "need all of their input first.",
         "normalize": "The 32x64 loops of the full sum and of the "
                      "pointwise node are contiguous: each becomes one "
                      "loop of 2048.",
     }),
    ("example_1_1", "Example 1.1: `(relu(x + y) * 2).sum(-1)`",
     "x and y are 64x128 and both require grad; the result is a vector of "
     "64 row sums.",
     {
         "joint": "The backward of `relu` is eager's `threshold_backward`, "
                  "which reads relu's result; x̄ and ȳ are the same value.",
         "mincut": "Nothing is saved: the backward recomputes `x + y` and "
                   "`relu` from the inputs, which it reads anyway, instead "
                   "of reading a 32 KiB activation from memory.",
         "decompose": "`threshold_backward` becomes `le` and `where`.",
         "lower": "Fusion by composition: the forward is one "
                  "`stax.reduction` whose body computes `relu(x + y) * 2` "
                  "at each index, and the whole backward is one "
                  "`stax.pointwise` (the recomputation included).",
         "split": "each of the 64 rows sums 128 elements.",
         "fuse": "each function is one node.",
         "normalize": "the forward has one output loop and one "
                      "reduction loop, which never merge, and the backward "
                      "reads the tangent by row (`%arg2[%i0]`), so its two "
                      "loops cannot merge either.",
     }),
]


def mincut_summary(tools, joint):
    """`saved` and `max_flow` of the min cut's JSON report."""
    with tempfile.TemporaryDirectory(prefix="stax-walkthrough-") as tmp:
        path = os.path.join(tmp, "cut.json")
        tools.run(joint, f"--stax-mincut=report={path}")
        with open(path) as f:
            [fn] = json.load(f)["functions"]
    saved = ", ".join(f"`{s['name']}` ({s['kind']}, {s['bytes']} bytes)"
                      for s in fn["saved"]) or "nothing"
    return f"The report (`--stax-mincut=report=cut.json`): max flow {fn['max_flow']}, saved: {saved}."


def walk(tools, name, title, intro, notes):
    out = [f"## {title}\n", intro + "\n"]
    src = import_example(name)
    out.append("### Import\n")
    out.append("`stax.import_torch` traces the function with PyTorch and "
               "emits one `tp` op per aten operator, marking the arguments "
               "that require grad (`tp.requires_grad`):\n")
    out.append("```python\nimport stax\nfrom stax import corpus\n"
               f"model = corpus.get(\"{name}\")\n"
               "print(stax.import_torch(model.fn, *model.make_inputs()))"
               "   # saved as import.mlir\n```\n")
    out.append(block(src, ""))
    ir = src
    results = {}
    prev_file = "import.mlir"
    prev_range = None  # the range step's file, which comes before "llvm"
    for i, (key, step_title, flag, what) in enumerate(STEPS, 1):
        if key == "llvm":
            # stax-opt does not register MLIR's conversions one by one: the
            # last step is --stax-pipeline on the output of range analysis.
            ir, prev_file = results["range"], prev_range
        new, err = tools.run(ir, flag)
        results[key] = new
        out.append(f"### {i}. {step_title}\n")
        out.append(what + "\n")
        command = f"build/bin/stax-opt {prev_file} {flag}"
        out.append("```sh\n" + command + "\n```\n")
        unchanged = new == ir
        if key in notes and not unchanged:
            out.append(notes[key] + "\n")
        if key == "mincut":
            out.append(mincut_summary(tools, ir) + "\n")
        diag = remarks(err)
        if diag:
            out.append("Remarks:\n\n```text\n" + diag + "\n```\n")
        if unchanged:
            out.append("The IR is unchanged" +
                       (": " + notes[key] if key in notes else ".") + "\n")
        else:
            out.append(block(new, command))
        ir = new
        prev_file = f"{i}-{key}.mlir"
        if key == "range":
            prev_range = prev_file
    # The steps are the pipelines: check it, so that the page cannot drift.
    lowering, _ = tools.run(results["mincut"], "--stax-lowering-pipeline")
    if lowering != results["range"]:
        sys.exit(f"gen-walkthrough: {name}: the steps differ from "
                 "--stax-lowering-pipeline")
    whole, _ = tools.run(results["mincut"], f"--stax-pipeline={CODEGEN}")
    if whole != results["llvm"]:
        sys.exit(f"gen-walkthrough: {name}: the steps differ from --stax-pipeline")
    out.append("Steps 3 to 8 give exactly what `--stax-lowering-pipeline` makes "
               "of the output of step 2, and step 10 exactly what "
               f"`--stax-pipeline=\"{CODEGEN}\"` makes of it (the generator "
               "checks both).\n")
    return "\n".join(out)


HEADER = """<!-- Generated by scripts/gen-docs.sh (scripts/gen-walkthrough.py) from the tools in build/; do not edit. -->

# Walkthrough: two examples through the pipeline

This page follows two small functions from PyTorch to the LLVM dialect,
one pass at a time, with the IR after every step. Each step is one
`stax-opt` command on the output of the step before (the file names in the
commands are those of the previous step's output); together they are what
`stax.compile` does to a function that needs gradients: import, reverse-mode
autodiff (`--stax-joint-graph`), the forward/backward split
(`--stax-mincut`), then `--stax-pipeline` on both halves. The passes are
described in [Passes.md](Passes.md) and the ops in
[Dialects/Tp.md](Dialects/Tp.md) and [Dialects/Stax.md](Dialects/Stax.md).

Code generation is shown with `vector-width=16` (AVX-512's 16 f32 lanes)
rather than the host's width, so that this page is the same on every
machine. Long IR is shown in part; the command above it prints all of it.

"""


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build-dir", default=os.environ.get("STAX_BUILD_DIR",
                                                          os.path.join(ROOT, "build")))
    ap.add_argument("--out", default=os.path.join(ROOT, "docs", "Walkthrough.md"))
    args = ap.parse_args()
    build_dir = os.path.abspath(args.build_dir)
    os.environ.setdefault("STAX_LIB_DIR", os.path.join(build_dir, "lib"))
    tools = Tools(build_dir)
    parts = [HEADER]
    for name, title, intro, notes in EXAMPLES:
        parts.append(walk(tools, name, title, intro, notes))
    text = "\n".join(parts).rstrip("\n") + "\n"
    with open(args.out, "w", encoding="utf-8") as f:
        f.write(text)


if __name__ == "__main__":
    main()
