"""Maximum ulp error of f32 math functions in Stax's compiled CPU code.

    PYTHONPATH=python STAX_LIB_DIR=build/lib /usr/bin/python3 bench/ulp_error.py

For each function, a dense stratified sweep of float32 bit patterns (one
pattern drawn at random in every window of `--stride` consecutive patterns,
positive and negative finite floats, restricted to the function's domain)
is evaluated by

  - the compiled code with the default options (`approximate-math=true
    math-kernels=f32`: `--stax-approximate-math`'s f32 kernels for exp,
    log, tanh, erf and sigmoid/silu, its f64 kernels for the others),
  - the compiled code with `approximate-math=false` (libm / LLVM
    intrinsics),
  - PyTorch eager in float32 (torch.exp, F.gelu, ... on the same input),

and compared with a float64 reference (numpy, or torch in float64 for erf
and erfc). ulp error = |y32 - ref64| / ulp(ref64 rounded to f32), with
ulp(v) = np.spacing(|v|) in float32. Inputs whose float64 result overflows
f32 or is below the smallest normal f32 (denormal or zero) are not mixed
into the ulp figures: they are counted in the second table ("flush /
overflow behaviour").

Columns: max ulp error and the input where it occurs (x, or y,x for atan2)
for each of the three; `max|err|` is the compiled code's largest absolute
error on the same inputs (useful where the result crosses zero: sin, cos,
gelu, elu). Composite activations (sigmoid, silu, gelu, softplus, mish,
elu) are measured as users see them, against the exact function (softplus
with PyTorch's threshold 20): the pipeline decomposes them
(--stax-decompose) into exp/erf/tanh/log1p and arithmetic.

The benchmark asserts nothing: it prints the tables and, per row,
"within 2 ulp" or "EXCEEDS 2 ulp" for the default compiled code.
Options: --stride N (default 256, 16.7M points over all finite floats;
about 1 minute on 2 cores), --only NAME..., --threads N (default 2).
"""
import argparse
import math
import sys
import time

import numpy as np

import stax  # first: idle OpenMP workers of both runtimes sleep (stax/__init__.py)
import torch
import torch.nn.functional as F
from stax._capi import Executable

F32_TINY = float(np.finfo(np.float32).tiny)  # smallest normal, 2^-126
DENORM_ULP = 2.0 ** -149
SQRT1_2 = 0.7071067811865476
K0 = 0.7978845608028654  # sqrt(2/pi)
K1 = 0.044715


def t64(f):
    """A float64 reference through torch (erf, erfc)."""
    return lambda x: f(torch.from_numpy(x)).numpy()


def sigmoid64(x):
    return 1.0 / (1.0 + np.exp(-x))


def gelu_tanh64(x):
    # (x/2)(1 + tanh(u)) = x * sigmoid(2u): no cancellation for x << 0.
    u = K0 * (x + K1 * x * x * x)
    with np.errstate(over="ignore"):
        return x / (1.0 + np.exp(-2.0 * u))


def softplus64(x):
    # beta = 1, threshold = 20 (PyTorch's defaults): x above the threshold.
    with np.errstate(over="ignore"):
        return np.where(x > 20.0, x, np.log1p(np.exp(x)))


def mish64(x):
    with np.errstate(over="ignore"):
        return x * np.tanh(np.log1p(np.exp(x)))


def elu64(x):
    return np.where(x > 0, x, np.expm1(x))


ALL = "all finite x"
NO_APPROX = "approximate-math=false"

# (row name, tp op text, domain text, domain predicate on the float64
#  input(s) (None: every finite input), float64 reference, torch eager f32
#  function). A function may have several rows: the domain where it is
#  usually used first, then wider ones.
def erf64(x):
    return t64(torch.special.erf)(x)


def erfc64(x):
    return t64(torch.special.erfc)(x)


def gelu64(x):
    # x * Phi(x) = (x/2) erfc(-x/sqrt 2): no cancellation for x << 0.
    return 0.5 * x * erfc64(-x * SQRT1_2)


FUNCS = [
    ("exp", "exp", "x <= 88", lambda x: x <= 88, np.exp, torch.exp),
    ("exp", "exp", ALL, None, np.exp, torch.exp),
    ("exp2", "exp2", ALL, None, np.exp2, torch.exp2),
    ("expm1", "expm1", "x <= 88", lambda x: x <= 88, np.expm1, torch.expm1),
    ("expm1", "expm1", ALL, None, np.expm1, torch.expm1),
    ("log", "log", "x >= 2^-126", lambda x: x >= F32_TINY, np.log, torch.log),
    ("log", "log", "x > 0", lambda x: x > 0, np.log, torch.log),
    ("log2", "log2", "x >= 2^-126", lambda x: x >= F32_TINY, np.log2,
     torch.log2),
    ("log2", "log2", "x > 0", lambda x: x > 0, np.log2, torch.log2),
    ("log10", "log10", "x > 0", lambda x: x > 0, np.log10, torch.log10),
    ("log1p", "log1p", "x > -1", lambda x: x > -1, np.log1p, torch.log1p),
    ("sqrt", "sqrt", "x >= 0", lambda x: x >= 0, np.sqrt, torch.sqrt),
    ("rsqrt", "rsqrt", "x > 0", lambda x: x > 0, lambda x: 1.0 / np.sqrt(x),
     torch.rsqrt),
    ("sin", "sin", "0 <= x <= 1", lambda x: (x >= 0) & (x <= 1), np.sin,
     torch.sin),
    ("sin", "sin", "|x| <= 1", lambda x: np.abs(x) <= 1, np.sin, torch.sin),
    ("sin", "sin", "|x| <= pi", lambda x: np.abs(x) <= math.pi, np.sin,
     torch.sin),
    ("sin", "sin", "|x| <= 2^10", lambda x: np.abs(x) <= 1024, np.sin,
     torch.sin),
    ("sin", "sin", ALL, None, np.sin, torch.sin),
    ("cos", "cos", "0 <= x <= 1", lambda x: (x >= 0) & (x <= 1), np.cos,
     torch.cos),
    ("cos", "cos", "|x| <= 1", lambda x: np.abs(x) <= 1, np.cos, torch.cos),
    ("cos", "cos", "|x| <= pi", lambda x: np.abs(x) <= math.pi, np.cos,
     torch.cos),
    ("cos", "cos", "|x| <= 2^10", lambda x: np.abs(x) <= 1024, np.cos,
     torch.cos),
    ("cos", "cos", ALL, None, np.cos, torch.cos),
    ("tan", "tan", ALL, None, np.tan, torch.tan),
    ("asin", "asin", "|x| <= 1", lambda x: np.abs(x) <= 1, np.arcsin,
     torch.asin),
    ("acos", "acos", "|x| <= 1", lambda x: np.abs(x) <= 1, np.arccos,
     torch.acos),
    ("atan", "atan", ALL, None, np.arctan, torch.atan),
    ("atan2(y,x)", "atan2", "|y/x|>=2^-126",
     lambda y, x: np.abs(y) >= F32_TINY * np.abs(x), np.arctan2, torch.atan2),
    ("atan2(y,x)", "atan2", "all pairs", None, np.arctan2, torch.atan2),
    ("sinh", "sinh", ALL, None, np.sinh, torch.sinh),
    ("cosh", "cosh", ALL, None, np.cosh, torch.cosh),
    ("tanh", "tanh", ALL, None, np.tanh, torch.tanh),
    ("erf", "erf", ALL, None, erf64, torch.special.erf),
    ("erfc", "erfc", ALL, None, erfc64, torch.special.erfc),
    ("pow(x,1.5)", "pow.Tensor_Scalar %x {other = 1.5 : f64}", "x >= 0",
     lambda x: x >= 0, lambda x: np.power(x, 1.5), lambda x: torch.pow(x, 1.5)),
    ("sigmoid", "sigmoid", ALL, None, sigmoid64, torch.sigmoid),
    ("silu", "silu", "x >= -88", lambda x: x >= -88,
     lambda x: x * sigmoid64(x), F.silu),
    ("silu", "silu", ALL, None, lambda x: x * sigmoid64(x), F.silu),
    ("gelu", "gelu", "x >= -1", lambda x: x >= -1, gelu64, F.gelu),
    ("gelu", "gelu", ALL, None, gelu64, F.gelu),
    ("gelu(tanh)", "gelu %x {approximate = #tp.approximate<tanh>}",
     "x >= -1", lambda x: x >= -1, gelu_tanh64,
     lambda x: F.gelu(x, approximate="tanh")),
    ("gelu(tanh)", "gelu %x {approximate = #tp.approximate<tanh>}", ALL,
     None, gelu_tanh64, lambda x: F.gelu(x, approximate="tanh")),
    ("softplus", "softplus", ALL, None, softplus64, F.softplus),
    ("mish", "mish", "x >= -87", lambda x: x >= -87, mish64, F.mish),
    ("mish", "mish", ALL, None, mish64, F.mish),
    ("elu", "elu", ALL, None, elu64, F.elu),
]


def module(op, n, binary):
    t = "tensor<%dxf32>" % n
    if binary:
        return ("func.func @f(%%y: %s, %%x: %s) -> %s {\n"
                "  %%0 = tp.%s %%y, %%x : %s, %s -> %s\n"
                "  return %%0 : %s\n}" % (t, t, t, op, t, t, t, t))
    if "%x" not in op:
        op += " %x"
    return ("func.func @f(%%x: %s) -> %s {\n  %%0 = tp.%s : %s -> %s\n"
            "  return %%0 : %s\n}" % (t, t, op, t, t, t))


def sweep(stride, seed=0):
    """One random bit pattern in every window of `stride` patterns of the
    finite floats, both signs (+0 and -0 included)."""
    rng = np.random.default_rng(seed)
    top = 0x7F800000  # +inf
    base = np.arange(0, top, stride, dtype=np.uint64)
    bits = base + rng.integers(0, stride, base.size, dtype=np.uint64)
    bits = np.minimum(bits, top - 1).astype(np.uint32)
    bits[0] = 0
    pos = bits.view(np.float32)
    return np.concatenate([pos, -pos])


class Stats:
    """Running max ulp error (and its argument) plus the flush/overflow
    counters of one implementation."""

    def __init__(self):
        self.max_ulp, self.worst = -1.0, None
        self.max_abs = 0.0       # max |y - ref| where ref is normal
        self.n_nonfinite = 0     # non-finite results where ref is normal
        self.n_over = 0          # inputs whose ref overflows f32
        self.n_over_bad = 0      # ... and the result is not that inf
        self.n_tiny = 0          # inputs whose ref is denormal or zero
        self.tiny_max = 0.0      # ... max |y - ref| / 2^-149
        self.tiny_flushed = 0    # ... ref32 != 0 but y == 0

    def add(self, args, y, ref, ref32, normal, over, tiny):
        yn, rn = y[normal].astype(np.float64), ref[normal]
        if yn.size:
            with np.errstate(invalid="ignore"):
                diff = np.abs(yn - rn)
                err = diff / np.spacing(np.abs(ref32[normal])).astype(
                    np.float64)
            bad = ~np.isfinite(yn)
            self.n_nonfinite += int(bad.sum())
            err[bad] = np.inf
            diff[bad] = np.inf
            self.max_abs = max(self.max_abs, float(diff.max()))
            i = int(np.argmax(err))
            if err[i] > self.max_ulp:
                self.max_ulp = float(err[i])
                self.worst = tuple(a[normal][i] for a in args)
        self.n_over += int(over.sum())
        if over.any():
            self.n_over_bad += int((y[over] != ref32[over]).sum())
        self.n_tiny += int(tiny.sum())
        if tiny.any():
            yt = y[tiny].astype(np.float64)
            e = np.abs(yt - ref[tiny])
            e[~np.isfinite(yt)] = np.inf
            self.tiny_max = max(self.tiny_max, float(e.max()) / DENORM_ULP)
            self.tiny_flushed += int(((yt == 0) & (ref32[tiny] != 0)).sum())


def fmt_ulp(v):
    if v < 0:
        return "-"
    if not math.isfinite(v):
        return "inf"
    if v == 0:
        return "0"
    return "%.3g" % v if 1e-3 <= v < 1e4 else "%.2e" % v


def fmt_x(w):
    if w is None:
        return "-"
    if len(w) > 1:
        return ",".join("%.4g" % v for v in w)
    return "%.9g" % w[0]


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--stride", type=int, default=256,
                   help="bit patterns per sample window (default 256: "
                        "16.7M points over all finite floats)")
    p.add_argument("--chunk", type=int, default=1 << 21)
    p.add_argument("--only", nargs="*", help="function names to run")
    p.add_argument("--threads", type=int, default=2)
    a = p.parse_args()
    stax.set_num_threads(a.threads)
    torch.set_num_threads(a.threads)
    t_start = time.time()
    xs = sweep(a.stride)
    # atan2: the sweep paired with a permutation of itself.
    ys = xs[np.random.default_rng(1).permutation(xs.size)]
    n = a.chunk
    rows, notes = [], []
    compiled_cache = {}
    for name, op, domain, pred, ref_fn, torch_fn in FUNCS:
        if a.only and name not in a.only:
            continue
        binary = op == "atan2"
        key = (op, binary)
        if key not in compiled_cache:
            text = module(op, n, binary)
            try:
                exact = Executable(text, NO_APPROX)
                exact_opts = NO_APPROX
            except stax.StaxError as e:
                # Vectorized math.erf/erfc without the approximation did not
                # compile before math was lowered ahead of the vector
                # dialect (docs/Numerics.md); the scalar loop did.
                exact_opts = NO_APPROX + " vector-width=1"
                exact = Executable(text, exact_opts)
                notes.append("%s: `%s` fails to compile (%s); its no-approx "
                             "column uses `%s`" % (
                                 name, NO_APPROX,
                                 str(e).splitlines()[0].split("error: ")[-1],
                                 exact_opts))
            compiled_cache = {key: (Executable(text, ""), exact)}
        exes = compiled_cache[key]
        t0 = time.time()
        ins = [ys, xs] if binary else [xs]
        if pred is not None:
            keep = pred(*[v.astype(np.float64) for v in ins])
            ins = [v[keep] for v in ins]
        npts = ins[0].size
        stats = [Stats(), Stats(), Stats()]
        bufs = [np.empty(n, np.float32) for _ in ins]
        out = np.empty(n, np.float32)
        for s in range(0, npts, n):
            chunk = [v[s:s + n] for v in ins]
            m = chunk[0].size
            for b, c in zip(bufs, chunk):
                b[:m] = c
                b[m:] = 1.0
            c64 = [c.astype(np.float64) for c in chunk]
            with np.errstate(all="ignore"):
                ref = np.asarray(ref_fn(*c64), dtype=np.float64)
                ref32 = ref.astype(np.float32)
            finite = np.isfinite(ref)
            over = ~np.isfinite(ref32) & ~np.isnan(ref)
            tiny = finite & (np.abs(ref) < F32_TINY)
            normal = finite & ~over & ~tiny
            results = []
            for exe in exes:
                exe.call_raw("f", [b.ctypes.data for b in bufs] +
                             [out.ctypes.data])
                results.append(out[:m].copy())
            with torch.no_grad():
                results.append(torch_fn(*[torch.from_numpy(c) for c in chunk])
                               .numpy())
            for st, y in zip(stats, results):
                st.add(chunk, y, ref, ref32, normal, over, tiny)
        rows.append((name, domain, npts, stats))
        print("  %-12s %-14s %9d points  %.1f s" % (name, domain, npts,
                                                   time.time() - t0),
              file=sys.stderr, flush=True)

    print("Max ulp error against float64; stride %d (one input in every %d "
          "bit patterns), %d threads" % (a.stride, a.stride, a.threads))
    print("compiled: default options (approximate-math=true "
          "math-kernels=f32); no-approx: "
          "approximate-math=false; torch: eager f32, torch %s"
          % torch.__version__)
    fmt = "%-11s %-14s %8s | %9s %-16s %8s | %9s %-16s | %9s %-16s"
    hdr = fmt % ("function", "domain", "points", "compiled", "worst x",
                 "max|err|", "no-approx", "worst x", "torch", "worst x")
    print(hdr)
    print("-" * len(hdr))
    for name, domain, npts, (c, na, te) in rows:
        print(fmt % (name, domain, npts, fmt_ulp(c.max_ulp), fmt_x(c.worst),
                     "%.2g" % c.max_abs, fmt_ulp(na.max_ulp), fmt_x(na.worst),
                     fmt_ulp(te.max_ulp), fmt_x(te.worst)))
    print()
    print("Flush / overflow behaviour: inputs whose float64 result is not a "
          "normal f32 (not in the ulp figures above).")
    print("  over: n inputs whose result overflows f32, and how many outputs "
          "are not that inf;")
    print("  tiny: n inputs whose result is denormal or zero, max |err| in "
          "units of 2^-149 (outputs flushed to zero though ref32 != 0)")
    fmt2 = "%-11s %-14s %9s %9s | %-22s | %-22s | %-22s"
    hdr2 = fmt2 % ("function", "domain", "n over", "n tiny", "compiled",
                   "no-approx", "torch")
    print(hdr2)
    print("-" * len(hdr2))

    def fl(s):
        return "%d / %s (%d)" % (s.n_over_bad, fmt_ulp(s.tiny_max),
                                 s.tiny_flushed)
    for name, domain, npts, st in rows:
        if st[0].n_over or st[0].n_tiny:
            print(fmt2 % (name, domain, st[0].n_over, st[0].n_tiny,
                          *[fl(x) for x in st]))
    print()
    for name, domain, npts, (c, na, te) in rows:
        verdict = ("within 2 ulp" if 0 <= c.max_ulp <= 2 else "EXCEEDS 2 ulp")
        extra = ""
        if c.n_nonfinite:
            extra = (" (%d non-finite outputs where the result is a normal "
                     "f32)" % c.n_nonfinite)
        print("%s on %s: %s (%s ulp)%s" % (name, domain, verdict,
                                           fmt_ulp(c.max_ulp), extra))
    for note in notes:
        print("note:", note)
    print("total %.0f s" % (time.time() - t_start))


if __name__ == "__main__":
    main()
