"""Pass time against graph size: every Stax pass should be near-linear.

Builds synthetic tp functions of N ops (N = 10 ... 100k) and times each pass
alone on the parsed module (stax.time_pipeline: parsing, printing and context
creation are not timed). Two shapes of graph:

  chain   x = tanh(x * x + x) repeated: every value is read twice by one op
          (the case that used to make --stax-lower exponential);
  mlp     a deep MLP (mm, add, gelu per layer) with a loss, differentiated:
          the joint graph and the partitioners see a realistic structure.

Prints, per pass and shape, the time at each size and the ratio of time per
op at the largest size to time per op at 1k ops: near 1 means linear. Run:

  PYTHONPATH=python STAX_LIB_DIR=build/lib /usr/bin/python3 bench/pass_scaling.py [--max 100000]
"""

import argparse
import sys

import stax

SIZES = [10, 100, 1000, 10000, 100000]


def chain(n_ops):
    """x = tanh(x * x + x): three ops per layer, each value read twice."""
    layers = max(1, n_ops // 3)
    lines = ["func.func @forward(%x0: tensor<16x16xf32> {tp.requires_grad}) -> tensor<f32> {"]
    for i in range(layers):
        lines.append("  %%m%d = tp.mul %%x%d, %%x%d : tensor<16x16xf32>, tensor<16x16xf32> -> tensor<16x16xf32>" % (i, i, i))
        lines.append("  %%a%d = tp.add %%m%d, %%x%d : tensor<16x16xf32>, tensor<16x16xf32> -> tensor<16x16xf32>" % (i, i, i))
        lines.append("  %%x%d = tp.tanh %%a%d : tensor<16x16xf32> -> tensor<16x16xf32>" % (i + 1, i))
    lines.append("  %%s = tp.sum %%x%d {dims = array<i64>} : tensor<16x16xf32> -> tensor<f32>" % layers)
    lines.append("  return %s : tensor<f32>")
    lines.append("}")
    return "\n".join(lines) + "\n"


def mlp(n_ops):
    """mm + add + gelu per layer, then a sum: the forward of a deep MLP."""
    layers = max(1, n_ops // 3)
    args = ["%x0: tensor<8x16xf32>"]
    lines = []
    for i in range(layers):
        args.append("%%w%d: tensor<16x16xf32> {tp.requires_grad}" % i)
        args.append("%%b%d: tensor<16xf32> {tp.requires_grad}" % i)
        lines.append("  %%h%d = tp.mm %%x%d, %%w%d : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>" % (i, i, i))
        lines.append("  %%z%d = tp.add %%h%d, %%b%d : tensor<8x16xf32>, tensor<16xf32> -> tensor<8x16xf32>" % (i, i, i))
        lines.append("  %%x%d = tp.gelu %%z%d : tensor<8x16xf32> -> tensor<8x16xf32>" % (i + 1, i))
    lines.append("  %%s = tp.sum %%x%d {dims = array<i64>} : tensor<8x16xf32> -> tensor<f32>" % layers)
    lines.append("  return %s : tensor<f32>")
    return ("func.func @forward(%s) -> tensor<f32> {\n" % ", ".join(args)
            + "\n".join(lines) + "\n}\n")


# (name, pipeline, input prepared by) -- the input of each pass is the output
# of the passes before it, so each is timed alone on what it really sees.
PASSES = [
    ("joint-graph", "builtin.module(stax-joint-graph)", None),
    ("mincut", "builtin.module(stax-mincut)", "builtin.module(stax-joint-graph)"),
    ("checkpoint", "builtin.module(stax-checkpoint)", "builtin.module(stax-joint-graph)"),
    ("decompose", "builtin.module(stax-decompose)", None),
    ("lower", "builtin.module(func.func(stax-lower))", "builtin.module(stax-decompose)"),
    ("fuse", "builtin.module(func.func(stax-fuse{remarks=false}))",
     "builtin.module(stax-decompose,func.func(stax-lower))"),
    ("normalize", "builtin.module(func.func(stax-normalize-loops))",
     "builtin.module(stax-decompose,func.func(stax-lower))"),
    ("ranges", "builtin.module(func.func(stax-range-analysis))",
     "builtin.module(stax-decompose,func.func(stax-lower))"),
]


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max", type=int, default=SIZES[-1],
                        help="largest graph (ops); default %(default)s")
    args = parser.parse_args(argv)
    sizes = [n for n in SIZES if n <= args.max]
    print("%-12s %-6s" % ("pass", "graph") + "".join("%12s" % ("%d ops" % n) for n in sizes)
          + "   per-op ratio (largest / 1k)")
    for name, pipeline, prepare in PASSES:
        for shape, build in (("chain", chain), ("mlp", mlp)):
            times = []
            for n in sizes:
                text = build(n)
                if prepare:
                    text = stax.run_pipeline(text, prepare)
                reps = 3 if n <= 10000 else 1
                best, _ = stax.time_pipeline(text, pipeline, reps=reps)
                times.append(best)
            row = "".join("%10.2fms" % t for t in times)
            ratio = ""
            if 1000 in sizes and len(sizes) > sizes.index(1000) + 1:
                k = sizes.index(1000)
                ratio = "%8.2f" % ((times[-1] / sizes[-1]) / (times[k] / 1000))
            print("%-12s %-6s%s   %s" % (name, shape, row, ratio))
            sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
