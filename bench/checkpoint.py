#!/usr/bin/python3
"""Saved memory of chain checkpointing (--stax-checkpoint) against the min
cut (--stax-mincut), on the N-layer MLPs of partition.py (Linear + GELU,
hidden 64, batch 16, loss = sum).

Not a test: it prints a table and asserts nothing.

    cd <repo> && PYTHONPATH=python STAX_LIB_DIR=build/lib \\
        /usr/bin/python3 bench/checkpoint.py [--layers 8 16]

Columns: `l` the chain length (3 steps a layer: mm, bias add, gelu);
`saved B` the activation bytes the forward hands to the backward; `peak B`
for checkpointing the most bytes of chain states held at once over the
schedule (slots and the current state), for the min cut its saved bytes
(all held when the backward starts); `recomp` the forward ops the backward
recomputes; `rep` the repetition (times the most recomputed step runs,
the forward included); `slots` used.
"""

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "python"))
sys.path.insert(0, str(REPO / "bench"))

import stax  # noqa: E402
from partition import mlp_inputs, mlp_stack  # noqa: E402


def report(joint, pipeline):
    fd, path = tempfile.mkstemp(suffix=".json")
    os.close(fd)
    try:
        stax.run_pipeline(joint, pipeline % path)
        with open(path) as f:
            return json.load(f)["functions"][0]
    finally:
        os.unlink(path)


CONFIGS = [("uniform", 0), ("uniform", 2), ("revolve", 0), ("revolve", 4),
           ("revolve", 3), ("revolve", 2)]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--layers", type=int, nargs="+", default=[8, 16])
    args = ap.parse_args(argv)
    print("%-7s %-18s %4s %9s %9s %7s %4s %6s" % (
        "model", "partition", "l", "saved B", "peak B", "recomp", "rep",
        "slots"))
    for n in args.layers:
        joint = stax.run_pipeline(stax.import_torch(mlp_stack, *mlp_inputs(n)),
                                  "builtin.module(stax-joint-graph)")
        cut = report(joint, "builtin.module(stax-mincut{algorithm=dinic "
                            "report=%s})")
        print("%-7s %-18s %4s %9d %9d %7d %4s %6s" % (
            "mlp%d" % n, "mincut", "-", cut["saved_bytes"], cut["saved_bytes"],
            len(cut["recomputed"]), "-", "-"))
        for schedule, slots in CONFIGS:
            e = report(joint, "builtin.module(stax-checkpoint{schedule=%s "
                              "slots=%d report=%%s})" % (schedule, slots))
            label = "%s %s=%s" % (schedule, "c" if schedule == "uniform"
                                  else "s", slots or "auto")
            print("%-7s %-18s %4d %9d %9d %7d %4d %6d" % (
                "mlp%d" % n, label, e["chain_length"], e["saved_bytes"],
                e["peak_saved_bytes"], e["recomputed_ops"], e["repetition"],
                e["slots_used"]), flush=True)


if __name__ == "__main__":
    main()
