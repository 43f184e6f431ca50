"""Compiled CPU code against PyTorch eager, in one run (2 threads).

    MALLOC_MMAP_MAX_=0 MALLOC_TRIM_THRESHOLD_=68719476736 \\
      PYTHONPATH=python /usr/bin/python3 bench/codegen.py [--quick]

Prints (0) elementwise math functions: eager, compiled and compiled with
libm, in G elements/s (--math-only stops there); (1) large pointwise/reduction kernels: eager and compiled GB/s (ideal
bytes moved / best time) against a measured copy bandwidth; (2) the corpus
models (stax.corpus, small shapes) and (3) the larger models: eager vs
compiled forward+backward time and first-call compile time, with geomeans;
(4) for each larger model, every generated node, kernel and BLAS call that
moves at least 256 KiB: its fastest time and achieved bandwidth against the
measured copy (profile=true); (5) the overhead a cached call adds. The malloc settings keep freed blocks for
reuse (docs: TOOLCHAIN.md); the table is what to quote, not assertions.
"""

import argparse
import math
import re
import time
import warnings

import stax  # first: idle OpenMP workers of both runtimes sleep (stax/__init__.py)
import torch


def best(fn, reps):
    fn()
    times = []
    for _ in range(reps):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


RESULTS = {"kernels": [], "models": [], "corpus": []}


def geomean(ratios):
    return math.exp(sum(math.log(r) for r in ratios) / len(ratios))


def step_of(args):
    """forward + backward of a function's output (summed unless scalar)."""
    def step(f):
        out = f(*args)
        (out if out.dim() == 0 else out.sum()).backward()
    return step


def compare(name, model, args, reps, width):
    """One row: eager and compiled step times, speed-up, first call."""
    step = step_of(args)
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            compiled = stax.compile(model)
            t = time.perf_counter()
            step(compiled)
            first = time.perf_counter() - t
        te = best(lambda: step(model), reps)
        ts = best(lambda: step(compiled), reps)
    except Exception as e:  # noqa: BLE001 - a bench reports, never hides
        print(f"{name:{width}s} FAILED: {type(e).__name__}: {str(e).splitlines()[0][:80]}")
        return None
    note = f"  (split out: {caught[0].message})" if caught else ""
    return te, ts, first, note


def kernels(n, reps):
    a, b = torch.randn(n), torch.randn(n)
    rows = torch.randn(n // 4096, 4096)
    cases = [
        ("a + b", lambda a, b: a + b, (a, b), 3 * n * 4),
        ("sigmoid(tanh(a)*b+a)", lambda a, b: torch.sigmoid(torch.tanh(a) * b + a),
         (a, b), 3 * n * 4),
        ("row sum", lambda x: x.sum(-1), (rows,), n * 4),
        ("softmax(-1)", lambda x: torch.softmax(x, -1), (rows,), 2 * n * 4),
        ("layer norm", lambda x: torch.nn.functional.layer_norm(x, (4096,)),
         (rows,), 2 * n * 4),
    ]
    dst = torch.empty(n)
    copy = n * 8 / best(lambda: dst.copy_(a), reps) / 1e9
    RESULTS["copy"] = copy
    print(f"\n{n * 4 >> 20} MiB per tensor; copy bandwidth {copy:.1f} GB/s (read+write)")
    print(f"{'kernel':24s} {'eager GB/s':>10s} {'stax GB/s':>10s} {'stax/copy':>9s} "
          f"{'speed-up':>8s}")
    for name, fn, args, nbytes in cases:
        compiled = stax.compile(fn)
        with torch.no_grad():
            compiled(*args)
            te = best(lambda: fn(*args), reps)
            ts = best(lambda: compiled(*args), reps)
        print(f"{name:24s} {nbytes / te / 1e9:10.1f} {nbytes / ts / 1e9:10.1f} "
              f"{nbytes / ts / 1e9 / copy:9.0%} {te / ts:8.2f}x")
        RESULTS["kernels"].append((name, nbytes / te / 1e9, nbytes / ts / 1e9, copy))


def math_functions(n, reps):
    """Elementwise math functions: eager, the default compiled code and the
    compiled code with libm (approximate-math=false), in G elements/s."""
    x = torch.randn(n) * 3
    unit = torch.rand(n) * 2 - 1
    y = torch.randn(n) * 3
    cases = [
        ("exp", torch.exp, (x,)), ("tanh", torch.tanh, (x,)),
        ("sin", torch.sin, (x,)), ("cos", torch.cos, (x,)),
        ("tan", torch.tan, (x,)), ("asin", torch.asin, (unit,)),
        ("acos", torch.acos, (unit,)), ("atan", torch.atan, (x,)),
        ("sinh", torch.sinh, (x,)), ("cosh", torch.cosh, (x,)),
        ("atan2", torch.atan2, (y, x)),
        ("pow", lambda a, b: torch.pow(a.abs(), b), (x, y)),
    ]
    # float64: libmvec for the functions within 2 ulp, kernels of ours for
    # exp, expm1, tanh, sin, cos, tan, asin, acos, atan, atan2, erf and
    # erfc (--stax-vector-math-calls), libm per lane for the others.
    x64, unit64 = x.double(), unit.double()
    cases += [
        ("tanh f64", torch.tanh, (x64,)), ("log f64", torch.log, (x64.abs(),)),
        ("log1p f64", torch.log1p, (x64.abs(),)),
        ("acos f64", torch.acos, (unit64,)), ("exp f64", torch.exp, (x64,)),
        ("expm1 f64", torch.expm1, (x64,)), ("erf f64", torch.erf, (x64,)),
        ("erfc f64", torch.erfc, (x64,)),
        ("tan f64", torch.tan, (x64,)), ("atan f64", torch.atan, (x64,)),
        ("atan2 f64", torch.atan2, (y.double(), x64)),
        ("pow f64", lambda a, b: torch.pow(a.abs(), b), (x64, y.double())),
    ]
    print(f"\n{n >> 20} M elements per function (G elements/s)")
    print(f"{'function':10s} {'eager':>8s} {'stax':>8s} {'libm':>8s} "
          f"{'stax/eager':>10s} {'stax/libm':>9s}")
    for name, fn, args in cases:
        fast = stax.compile(fn)
        libm = stax.compile(fn, options="approximate-math=false")
        with torch.no_grad():
            te = best(lambda: fn(*args), reps)
            ts = best(lambda: fast(*args), reps)
            tl = best(lambda: libm(*args), reps)
        print(f"{name:10s} {n / te / 1e9:8.3f} {n / ts / 1e9:8.3f} "
              f"{n / tl / 1e9:8.3f} {te / ts:9.2f}x {tl / ts:8.2f}x")


class _ResidualCNN(torch.nn.Module):
    """A stem and two residual blocks (the second strided, with a 1x1
    downsampling branch), 8 and 16 channels, global pooling, a linear head."""

    def __init__(self):
        super().__init__()
        nn = torch.nn
        self.stem = nn.Conv2d(3, 8, 3, padding=1)
        self.blocks = nn.ModuleList([
            nn.ModuleDict({"c1": nn.Conv2d(cin, cout, 3, stride, 1, bias=False),
                           "b1": nn.BatchNorm2d(cout),
                           "c2": nn.Conv2d(cout, cout, 3, 1, 1, bias=False),
                           "b2": nn.BatchNorm2d(cout),
                           "down": (nn.Sequential(nn.Conv2d(cin, cout, 1, stride, bias=False),
                                                  nn.BatchNorm2d(cout))
                                    if stride != 1 or cin != cout else nn.Identity())})
            for cin, cout, stride in [(8, 8, 1), (8, 16, 2)]])
        self.fc = nn.Linear(16, 5)

    def forward(self, x):
        F = torch.nn.functional
        x = F.relu(self.stem(x))
        for b in self.blocks:
            y = F.relu(b["b1"](b["c1"](x)))
            x = F.relu(b["b2"](b["c2"](y)) + b["down"](x))
        return self.fc(torch.flatten(F.adaptive_avg_pool2d(x, 1), 1))


class _SmallUNet(torch.nn.Module):
    """Two convolutions down, a transposed convolution up, a skip
    concatenation and a 1x1 head."""

    def __init__(self):
        super().__init__()
        nn = torch.nn
        self.d1, self.d2 = nn.Conv2d(2, 4, 3, padding=1), nn.Conv2d(4, 8, 3, padding=1)
        self.up, self.out = nn.ConvTranspose2d(8, 4, 2, 2), nn.Conv2d(8, 1, 1)

    def forward(self, x):
        F = torch.nn.functional
        a = F.relu(self.d1(x))
        b = F.relu(self.d2(F.max_pool2d(a, 2)))
        return torch.sigmoid(self.out(torch.cat([a, self.up(b)], 1)))


def models(reps):
    torch.manual_seed(0)
    cases = []
    mlp = torch.nn.Sequential(torch.nn.Linear(256, 512), torch.nn.GELU(),
                              torch.nn.Linear(512, 256), torch.nn.Tanh(),
                              torch.nn.Linear(256, 10))
    cases.append(("MLP 256-512-256-10, batch 256", mlp, (torch.randn(256, 256),)))
    ln = torch.nn.Sequential(torch.nn.Linear(512, 512), torch.nn.LayerNorm(512),
                             torch.nn.ReLU())
    cases.append(("Linear+LayerNorm+ReLU 512, batch 512", ln, (torch.randn(512, 512),)))
    cases.append(("Example 5.1 gelu(x@W).sum() 512x1024",
                  lambda x, w: torch.nn.functional.gelu(x @ w).sum(),
                  (torch.randn(512, 1024, requires_grad=True),
                   torch.randn(1024, 1024, requires_grad=True))))
    nn = torch.nn
    cnn = nn.Sequential(nn.Conv2d(3, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU(),
                        nn.MaxPool2d(2), nn.Conv2d(32, 64, 3, padding=1),
                        nn.BatchNorm2d(64), nn.ReLU(), nn.MaxPool2d(2), nn.Flatten(),
                        nn.Linear(64 * 8 * 8, 10))
    cases.append(("CNN 2x(conv3x3,BN,ReLU,pool)+Linear, b32", cnn,
                  (torch.randn(32, 3, 32, 32),)))
    # Few channels: im2col products of 8-16 rows (SkinnyContraction.h).
    cases.append(("residual CNN, 8-16 channels, b32", _ResidualCNN(),
                  (torch.randn(32, 3, 32, 32),)))
    cases.append(("UNet-style, 4-8 channels, 8x2x64x64", _SmallUNet(),
                  (torch.randn(8, 2, 64, 64),)))
    enc = torch.nn.TransformerEncoderLayer(128, 4, 256, dropout=0.0, batch_first=True)
    cases.append(("TransformerEncoderLayer d=128 (2x64 tokens)", enc,
                  (torch.randn(2, 64, 128),)))
    # PyTorch's default dropout (0.1), training mode: compiled random ops.
    enc_drop = torch.nn.TransformerEncoderLayer(128, 4, 256, batch_first=True)
    cases.append(("  the same with dropout 0.1", enc_drop,
                  (torch.randn(2, 64, 128),)))
    # float64 with tanh (a physics-informed network's shape): the f64 tanh
    # kernel (--stax-vector-math-calls).
    pinn = nn.Sequential(nn.Linear(2, 64), nn.Tanh(), nn.Linear(64, 64), nn.Tanh(),
                         nn.Linear(64, 64), nn.Tanh(), nn.Linear(64, 1)).double()
    cases.append(("f64 MLP 2-64-64-64-1, tanh, 4096 points", pinn,
                  (torch.randn(4096, 2, dtype=torch.float64),)))
    ratios = model_table("model (forward+backward)", "larger models", cases,
                         reps, 44, "ms", 1e3)
    for name, model, args in cases:
        kernel_profile(name, model, args)
    return ratios


def short(node):
    """'@f: stax.kernel at loc("<input>":12:3)' -> '@f stax.kernel :12';
    a location naming an FX node, 'loc("mm_1 (aten.mm.default)")' (the
    first of a fused one), -> '@f stax.kernel mm_1'."""
    head, _, loc = node.partition(" at ")
    head = head.replace(":", "")
    m = re.search(r'":(\d+)', loc)
    if m:
        return f"{head} :{m.group(1)}"
    m = re.search(r'loc\((?:fused\[)?"([^" ]+)', loc)
    return f"{head} {m.group(1)}" if m else head


def kernel_profile(name, model, args, reps=5):
    """Each generated node's (and BLAS call's) bandwidth in one model's
    forward+backward, compiled with profile=true."""
    compiled = stax.compile(model, options="profile=true")
    step = step_of(args)
    step(compiled)
    stax.cpu_take_profile()
    for _ in range(reps):
        step(compiled)
    rows = [(n, v) for n, v in stax.cpu_take_profile().items() if v[3] >= 1 << 18]
    copy = RESULTS.get("copy")
    print(f"\n{name}: nodes moving >= 256 KiB (fastest of {reps} steps)")
    print(f"  {'node':44s} {'MiB':>6s} {'us':>8s} {'GB/s':>7s} {'of copy':>8s}")
    for node, (calls, total, fastest, nbytes) in sorted(rows, key=lambda r: -r[1][2]):
        gbs = nbytes / (fastest * 1e-3) / 1e9
        frac = f"{gbs / copy:7.0%}" if copy else "       -"
        print(f"  {short(node)[:44]:44s} {nbytes / 2**20:6.2f} {fastest * 1e3:8.1f} "
              f"{gbs:7.1f} {frac}")


def corpus_models(reps):
    """Every model of stax.corpus (the shapes the tests use)."""
    from stax import corpus
    cases = [(name, corpus.get(name).fn, corpus.get(name).make_inputs())
             for name in corpus.names()]
    return model_table("corpus model (forward+backward)", "corpus", cases,
                       reps, 32, "us", 1e6)


def model_table(title, label, cases, reps, width, unit, scale):
    """Eager vs compiled forward+backward of each (name, fn, args); prints a
    row each and the geomean, returns the speed-ups."""
    print(f"\n{title:{width}s} {'eager ' + unit:>9s} {'stax ' + unit:>9s} "
          f"{'speed-up':>8s} {'compile s':>9s}")
    digits = 2 if unit == "ms" else 0
    ratios = []
    for name, model, args in cases:
        row = compare(name, model, args, reps, width)
        if row is None:
            continue
        te, ts, first, note = row
        ratios.append(te / ts)
        RESULTS["corpus" if label == "corpus" else "models"].append((name, te / ts))
        print(f"{name:{width}s} {te * scale:9.{digits}f} {ts * scale:9.{digits}f} "
              f"{te / ts:7.2f}x {first:9.2f}{note}")
    if ratios:
        print(f"geomean speed-up over eager ({label}): {geomean(ratios):.2f}x")
    return ratios


def overhead(reps):
    x = torch.randn(4)
    f = stax.compile(lambda x: x + 1)
    with torch.no_grad():
        f(x)
        ts = best(lambda: f(x), reps * 20)
        te = best(lambda: x + 1, reps * 20)
    print(f"\ncached call of a 4-element kernel: {ts * 1e6:.1f} us "
          f"(eager x + 1: {te * 1e6:.1f} us)")


def plot(path):
    """Bandwidth of the kernels next to copy, and the models' speed-ups."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, (a, b) = plt.subplots(1, 2, figsize=(12, 6))
    names = [k[0] for k in RESULTS["kernels"]]
    xs = range(len(names))
    a.bar([x - 0.2 for x in xs], [k[1] for k in RESULTS["kernels"]], 0.4, label="eager")
    a.bar([x + 0.2 for x in xs], [k[2] for k in RESULTS["kernels"]], 0.4, label="stax")
    if RESULTS["kernels"]:
        a.axhline(RESULTS["kernels"][0][3], color="gray", ls="--", label="copy")
    a.set_xticks(list(xs))
    a.set_xticklabels(names, rotation=20, ha="right", fontsize=8)
    a.set_ylabel("GB/s (ideal bytes / time)")
    a.set_title("Large kernels, 2 threads")
    a.legend()
    rows = RESULTS["corpus"] + RESULTS["models"]
    mnames = [m[0].split(",")[0] for m in rows]
    b.barh(range(len(mnames)), [m[1] for m in rows])
    b.set_xscale("log")
    b.axvline(1.0, color="gray", ls="--")
    b.set_yticks(range(len(mnames)))
    b.set_yticklabels(mnames, fontsize=8)
    b.set_xlabel("speed-up over eager (forward + backward)")
    b.set_title("Corpus and larger models (log scale)")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    print(f"plot: {path}")


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--quick", action="store_true", help="small sizes, few reps")
    p.add_argument("--plot", metavar="PNG", help="also draw the tables (matplotlib)")
    p.add_argument("--math-only", action="store_true",
                   help="only the table of elementwise math functions")
    a = p.parse_args()
    torch.set_num_threads(2)
    stax.set_num_threads(2)
    n = (1 << 22) if a.quick else (1 << 25)
    reps = 3 if a.quick else 9
    math_functions(n // 2, reps)
    if a.math_only:
        return
    kernels(n, reps)
    small = corpus_models(reps * 10)
    large = models(reps)
    if small and large:
        print(f"geomean over all {len(small) + len(large)} models: "
              f"{geomean(small + large):.2f}x")
    overhead(reps)
    if a.plot:
        plot(a.plot)


if __name__ == "__main__":
    main()
