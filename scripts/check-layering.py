#!/usr/bin/env python3
"""Checks that no Stax library links a library of its own or a higher layer.

Configures the project into a scratch directory with `cmake --graphviz`, reads
the target graph and checks every edge between Stax targets against the
layers below (docs/Architecture.md). A Stax target missing from the table is
an error too, so a new library must be given its layer.

Usage: check-layering.py SOURCE_DIR SCRATCH_DIR [cmake args...]
       check-layering.py --dot GRAPH.dot     (check a graph cmake wrote)
Exit status 0 when the layering holds; 1 with one line per violation.
"""

import re
import subprocess
import sys

# Lower layers first. A library may link only libraries of a lower layer.
LAYERS = {
    # 0. The run-time library that generated code calls (no MLIR).
    "StaxRuntime": 0,
    # 1. Dialect IR: ops, attributes, interfaces, verifiers.
    "StaxTpDialect": 1,
    "StaxStaxDialect": 1,
    # 2. What builds on the IR without running passes: the derivative rules
    #    (external models of the tp ops), cost models and analyses, the
    #    reference interpreter.
    "StaxTpAutodiff": 2,
    "StaxAnalysis": 2,
    "StaxInterpreter": 2,
    # 3. Passes: the dialects' transforms and the conversions. A conversion
    #    links no transforms library (and vice versa): both are layer 3.
    "StaxTpTransforms": 3,
    "StaxStaxTransforms": 3,
    "StaxTpToStax": 3,
    "StaxStaxToLoops": 3,
    # 4. Named pipelines that compose passes.
    "StaxPipelines": 4,
    # 5. Compiling and running modules: the JIT over MLIR's ExecutionEngine.
    "StaxExecutionEngine": 5,
    # 6. Entry points: the C API, the tools, the unit tests.
    "StaxCAPI": 6,
    "stax-opt": 6,
    "stax-translate": 6,
    "stax-run": 6,
    "StaxUnitTests": 6,
}

EDGE = re.compile(r'^\s*"node\d+"\s*->\s*"node\d+"\s*//\s*(\S+)\s*->\s*(\S+)')


def base(name):
    return name[len("obj."):] if name.startswith("obj.") else name


def is_stax(name):
    return name.startswith("Stax") or name.startswith("stax-")


def violations(dot_text):
    out = []
    for line in dot_text.splitlines():
        m = EDGE.match(line)
        if not m:
            continue
        src, dst = base(m.group(1)), base(m.group(2))
        if src == dst or not (is_stax(src) and is_stax(dst)):
            continue
        for t in (src, dst):
            if t not in LAYERS:
                out.append("%s has no layer in scripts/check-layering.py" % t)
        if src in LAYERS and dst in LAYERS and LAYERS[dst] >= LAYERS[src]:
            out.append("%s (layer %d) links %s (layer %d): an edge that is not "
                       "downward" % (src, LAYERS[src], dst, LAYERS[dst]))
    return sorted(set(out))


def main(argv):
    if len(argv) < 3:
        print(__doc__.strip().splitlines()[0])
        print("usage: check-layering.py SOURCE_DIR SCRATCH_DIR [cmake args...]")
        print("       check-layering.py --dot GRAPH.dot")
        return 2
    if argv[1] == "--dot":
        dot = argv[2]
    else:
        source, scratch = argv[1], argv[2]
        dot = scratch + "/targets.dot"
        subprocess.run(["cmake", "-S", source, "-B", scratch + "/build",
                        "--graphviz=" + dot] + argv[3:],
                       check=True, stdout=subprocess.DEVNULL)
    with open(dot) as f:
        text = f.read()
    found = violations(text)
    for v in found:
        print("layering: " + v)
    edges = sum(1 for l in text.splitlines() if EDGE.match(l))
    if not found:
        print("layering: %d edges checked, every Stax edge points down" % edges)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
