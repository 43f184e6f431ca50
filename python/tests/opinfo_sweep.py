"""PyTorch's OpInfo database as the oracle for operator coverage.

Every entry of `torch.testing._internal.common_methods_invocations.op_db`
(Debian's torch 1.13) that supports float32 on the CPU, except the
exclusions in `EXCLUDED` (each with its reason), is checked on its first
`--samples` sample inputs in three stages:

import+forward  `stax.import_torch` traces the sample (tensor arguments
                become function arguments, everything else is baked in);
                the `tp` function is interpreted in float32 and in float64
                and both are compared with eager PyTorch in float64 (eager
                float32 for functions that round to a narrower type).
                Random results (the function draws from `tp.rng_state`,
                not PyTorch's generator) compare shapes and dtypes only,
                and their gradient stage only builds the joint graph.
gradient        `--stax-joint-graph` with a random cotangent per
                differentiable result, interpreted in float64, against
                `torch.autograd.grad` in float64 (in float32 for functions
                that convert to a narrower float type, whose float64
                interpretation computes the converted values in double,
                and for the entries of F32_GRADIENT); against float64
                central differences for the entries of NUMERICAL_GRADIENT
                (PyTorch's own gradcheck rejects its analytical gradient).
lowering        `stax-decompose,func.func(stax-lower)` interpreted in
                float32 must be bitwise equal to the `tp` function.
compiled        `stax.compile` (default options: vectorized, parallel,
                approximated math; no graph split, so a function Stax
                cannot compile fails here) called in float32: its results
                against the float64 reference of the forward stage, and its
                gradients (through the compiled backward) against
                `torch.autograd.grad` in float64, with the same cotangents
                and the float32 tolerance; where PyTorch supports a second
                derivative (`supports_gradgrad`), the compiled function
                called in float64 and differentiated twice
                (create_graph=True, then the gradients weighted by random
                cotangents) against eager float64, within GRADGRAD_RTOL of
                each result's largest magnitude (second order checks the
                rules and the plumbing, not rounding: float64 rounding
                stays many orders below it).

Tolerance (forward and gradient).  Both sides evaluate the same exact
function of the same inputs in floating point with unit roundoff u.  A
sample's computation has at most gamma = c * (N + 8) roundings per result
element, N the number of input elements (every element can feed a
reduction or contraction once, plus a few pointwise ops; c = 4 covers
composite operators that round several times per term).  Each rounding
perturbs at the magnitude of the terms, bounded by |y_i| + M with M the
largest input magnitude, so two evaluations differ by at most

    tol_i = 2 * gamma * u * (|y_i| + M)

to first order, unless the function is ill-conditioned at the sample (a
pole of tan or lgamma); integer and boolean results and NaN positions must
match exactly.  The stronger, per-op derived bounds of stax/numerics.py are
used for the corpus; this generic bound catches every semantic error (those
are O(1), not O(N u)).

Run the whole sweep (prints the table and every failure):

    PYTHONPATH=python STAX_LIB_DIR=build/lib /usr/bin/python3 \\
        python/tests/opinfo_sweep.py [--samples 3] [--only NAME...] [-v]

`python/tests/test_opinfo.py` runs a slice of it in the test suite.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import sys
import time
import traceback
import warnings
from dataclasses import dataclass, field
from typing import Dict, List, Optional

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "stubs"))

import numpy as np  # noqa: E402

import stax  # noqa: E402  (first: idle OpenMP workers sleep, stax/__init__.py)
import torch  # noqa: E402
from torch.utils import _pytree as pytree  # noqa: E402

warnings.filterwarnings("ignore")

# PyTorch 1.13's sample generator for nn.functional.cross_entropy calls
# random.sample on a set, which Python 3.11 rejects (a sequence is
# required): sample from the set's elements sorted instead, so that the
# entry is checked rather than failing before any Stax code runs.
_random_sample = random.sample


def _sample_any_population(population, k, **kw):
    if isinstance(population, (set, frozenset)):
        population = sorted(population)
    return _random_sample(population, k, **kw)


random.sample = _sample_any_population

# ---------------------------------------------------------------------------
# Scope: the exclusions of the coverage issue, one reason per entry.
# ---------------------------------------------------------------------------

_FACTORIZATIONS = (
    "cholesky cholesky_inverse cholesky_solve geqrf linalg.cholesky "
    "linalg.cholesky_ex linalg.cond linalg.det linalg.det.singular linalg.eig "
    "linalg.eigh linalg.eigvals linalg.eigvalsh linalg.householder_product "
    "linalg.inv linalg.inv_ex linalg.ldl_factor linalg.ldl_factor_ex "
    "linalg.ldl_solve linalg.lstsq linalg.lstsq.grad_oriented linalg.lu "
    "linalg.lu_factor linalg.lu_factor_ex linalg.lu_solve linalg.matrix_norm "
    "linalg.matrix_power linalg.matrix_rank linalg.matrix_rank.hermitian "
    "linalg.pinv linalg.pinv.hermitian linalg.pinv.singular linalg.qr "
    "linalg.slogdet linalg.solve linalg.solve_ex linalg.solve_triangular "
    "linalg.svd linalg.svdvals linalg.tensorinv linalg.tensorsolve logdet lu "
    "lu_solve lu_unpack matrix_exp ormqr pca_lowrank pinverse qr svd "
    "svd_lowrank symeig triangular_solve norm.nuc linalg.norm "
    "linalg.norm.subgradients_at_zero").split()
_FFT = ["stft", "istft"]
_COMPLEX_SPARSE = ("view_as_complex complex polar chalf conj resolve_conj "
                   "real to_sparse sparse.sampled_addmm").split()
_DATA_SHAPE = ("nonzero argwhere masked_select unique unique_consecutive histc "
               "histogram histogramdd combinations "
               "segment_reduce.lengths segment_reduce.offsets "
               "repeat_interleave").split()
_SPECIAL = ("special.airy_ai special.bessel_j0 special.bessel_j1 "
            "special.bessel_y0 special.bessel_y1 special.chebyshev_polynomial_t "
            "special.chebyshev_polynomial_u special.chebyshev_polynomial_v "
            "special.chebyshev_polynomial_w special.hermite_polynomial_h "
            "special.hermite_polynomial_he special.laguerre_polynomial_l "
            "special.legendre_polynomial_p special.modified_bessel_i0 "
            "special.modified_bessel_i1 special.modified_bessel_k0 "
            "special.modified_bessel_k1 special.scaled_modified_bessel_k0 "
            "special.scaled_modified_bessel_k1 "
            "special.shifted_chebyshev_polynomial_t "
            "special.shifted_chebyshev_polynomial_u "
            "special.shifted_chebyshev_polynomial_v "
            "special.shifted_chebyshev_polynomial_w special.spherical_bessel_j0 "
            "special.zeta igamma igammac i0 special.i0e "
            "special.i1 special.i1e").split()
_READS_VALUES = ("allclose equal broadcast_shapes corrcoef cov "
                 "narrow tensor_split "
                 "resize_ resize_as_").split()
_CUDA_ONLY = ("jiterator_2inputs_2outputs jiterator_4inputs_with_extra_args "
              "jiterator_binary jiterator_binary_return_by_ref "
              "jiterator_unary").split()

EXCLUDED: Dict[str, str] = {}
for _names, _why in [
        (_FACTORIZATIONS, "(1) factorization / inverse / solve / spectral or "
                          "matrix norm built on one"),
        (_FFT, "(2) FFT / STFT"),
        (_COMPLEX_SPARSE, "(3) complex or sparse tensors"),
        (_DATA_SHAPE, "(4) result shape depends on data"),
        (_SPECIAL, "(5) Bessel / Airy / orthogonal polynomial / zeta / "
                   "igamma family"),
        (_READS_VALUES, "(6) reads a value out of a tensor (Python result, "
                        "data-dependent control flow or resize)"),
        (_CUDA_ONLY, "jiterator entries run on CUDA only")]:
    for _n in _names:
        EXCLUDED[_n] = _why


def entry_name(op) -> str:
    return op.name + ("." + op.variant_test_name if op.variant_test_name else "")


def load_entries():
    """The OpInfo entries with float32 CPU support, in database order,
    paired with None (in scope) or the reason for their exclusion."""
    from torch.testing._internal.common_methods_invocations import op_db
    out = []
    for op in op_db:
        if torch.float32 not in op.supported_dtypes("cpu"):
            continue
        name = entry_name(op)
        why = EXCLUDED.get(name)
        if why is None and name.startswith("fft."):
            why = "(2) FFT / STFT"
        out.append((op, why))
    return out


# ---------------------------------------------------------------------------
# One sample
# ---------------------------------------------------------------------------

class Failure(Exception):
    def __init__(self, stage: str, msg: str):
        super().__init__(f"{stage}: {msg}")
        self.stage = stage
        self.msg = msg


def _first_line(e: BaseException) -> str:
    """The first error line of a message (its source line and caret follow)."""
    s = str(e).strip().splitlines()
    line = next((l for l in s if "error:" in l), s[0] if s else "")
    return (type(e).__name__ + ": " + line).strip()[:300]


@dataclass
class Sample:
    fn: object
    tensors: List[torch.Tensor]


def _make_sample(op, s) -> Sample:
    """A function of the sample's tensors; everything else is baked in."""
    flat, spec = pytree.tree_flatten((s.input, s.args, s.kwargs))
    pos = [i for i, v in enumerate(flat) if isinstance(v, torch.Tensor)]
    tensors = [flat[i].detach().clone().requires_grad_(flat[i].requires_grad)
               for i in pos]

    def fn(*ts):
        vals = list(flat)
        for i, t in zip(pos, ts):
            vals[i] = t
        inp, args, kwargs = pytree.tree_unflatten(vals, spec)
        return op.op(inp, *args, **kwargs)
    return Sample(fn, tensors)


def _outputs(x) -> List[torch.Tensor]:
    flat, _ = pytree.tree_flatten(x)
    if not all(isinstance(v, torch.Tensor) for v in flat):
        kinds = sorted({type(v).__name__ for v in flat
                        if not isinstance(v, torch.Tensor)})
        raise Failure("import", "result is not a tensor (" + ", ".join(kinds) + ")")
    return flat


def _to(t: torch.Tensor, dtype) -> torch.Tensor:
    return t.detach().to(dtype) if t.is_floating_point() else t.detach()


def _np(t: torch.Tensor) -> np.ndarray:
    t = t.detach().contiguous()
    if t.dtype == torch.bfloat16:
        t = t.float()
    return t.numpy()


# Entries whose eager kernel rounds terms larger than the inputs and the
# result, by the stated factor: the generic bound's magnitude M grows by it.
TERM_SCALE = {
    # y = x * (rstd * w) + (b - mean * rstd * w): terms |x| rstd |w|, with
    # rstd up to 1 / sqrt(eps) (eps = 1e-5) when the variance is ~0.
    "nn.functional.layer_norm": 1e-5 ** -0.5,
    "native_layer_norm": 1e-5 ** -0.5,
}
_term_scale = 1.0


def _compare(stage, ours: List[np.ndarray], ref: List[torch.Tensor],
             inputs: List[torch.Tensor], u: float):
    if len(ours) != len(ref):
        raise Failure(stage, f"{len(ours)} results, PyTorch has {len(ref)}")
    n = sum(t.numel() for t in inputs)
    m = max([float(t.detach().abs().max()) for t in inputs
             if t.is_floating_point() and t.numel()
             and torch.isfinite(t.detach()).all()] + [0.0]) * _term_scale
    gamma = 4 * (n + 8)
    for k, (o, r) in enumerate(zip(ours, ref)):
        r = r.detach()
        if tuple(o.shape) != tuple(r.shape):
            raise Failure(stage, f"result #{k}: shape {tuple(o.shape)}, "
                                 f"PyTorch {tuple(r.shape)}")
        rn = _np(r).astype(np.float64) if r.is_floating_point() else _np(r)
        if not r.is_floating_point():
            if not np.array_equal(o.astype(rn.dtype), rn):
                bad = np.argwhere(o.astype(rn.dtype) != rn)[0]
                raise Failure(stage, f"result #{k} ({r.dtype}) differs at "
                                     f"{tuple(bad)}: {o[tuple(bad)]} vs "
                                     f"{rn[tuple(bad)]}")
            continue
        o = o.astype(np.float64)
        nan_o, nan_r = np.isnan(o), np.isnan(rn)
        if not np.array_equal(nan_o, nan_r):
            bad = tuple(np.argwhere(nan_o != nan_r)[0])
            raise Failure(stage, f"result #{k}: NaN mismatch at {bad}: "
                                 f"{o[bad]} vs {rn[bad]}")
        inf = np.isinf(rn) | np.isinf(o)
        if not np.array_equal(o[inf], rn[inf]):
            bad = tuple(np.argwhere(inf & (o != rn))[0])
            raise Failure(stage, f"result #{k}: inf mismatch at {bad}: "
                                 f"{o[bad]} vs {rn[bad]}")
        ok = ~(nan_r | inf)
        tol = 2 * gamma * u * (np.abs(rn) + m)
        err = np.abs(o - rn)
        if np.any(err[ok] > tol[ok]):
            i = np.argmax(np.where(ok, err - tol, -np.inf))
            idx = np.unravel_index(i, o.shape)
            raise Failure(stage, f"result #{k} at {tuple(int(v) for v in idx)}: "
                                 f"{o[idx]!r} vs {rn[idx]!r} (tolerance "
                                 f"{tol[idx]:.3g})")


def _interpret(stage, text, args, f64):
    arrays = [_np(a) for a in args]
    if "tp.rng_state" in text:
        arrays.append(np.array([0, 0], np.int64))   # seed, offset
    try:
        return stax.interpret(text, "forward", *arrays, f64=f64)
    except Exception as e:  # noqa: BLE001
        raise Failure(stage, _first_line(e)) from None


def _is_random(op, text: str) -> bool:
    """Random results (the function draws from `tp.rng_state`, a stream
    other than PyTorch's) and uninitialized ones (`empty`) are compared by
    shape and dtype only."""
    return "tp.rng_state" in text or entry_name(op) in (
        "empty", "empty_like", "new_empty", "new_empty_strided")


def check_sample(op, s, stages=("forward", "grad", "lower", "compiled")
                 ) -> Optional[str]:
    """Runs the stages on one sample; returns the name of the last stage
    reached (all passed) or raises Failure."""
    smp = _make_sample(op, s)
    xs = smp.tensors
    try:
        with torch.no_grad():
            ref32 = _outputs(smp.fn(*[x.detach() for x in xs]))
    except Failure:
        raise
    except Exception as e:  # noqa: BLE001
        raise Failure("eager", _first_line(e)) from None
    try:
        text = stax.import_torch(smp.fn, *xs)
    except Exception as e:  # noqa: BLE001
        raise Failure("import", _first_line(e)) from None
    random = _is_random(op, text)
    ours32 = _interpret("forward", text, xs, f64=False)[:len(ref32)]
    if random:
        # Values are random (or uninitialized): shapes and dtypes only; the
        # joint graph must build, and lowering keeps the random stream, so
        # it is still bitwise.
        _compare("forward", [np.zeros(o.shape, np.float64) for o in ours32],
                 [torch.zeros(r.shape, dtype=torch.float64) for r in ref32], xs,
                 2.0 ** -24)
        if "grad" in stages and any(x.requires_grad for x in xs):
            try:
                stax.run_pipeline(text, "builtin.module(stax-joint-graph)")
            except Exception as e:  # noqa: BLE001
                if "no floating-point result" not in str(e):
                    raise Failure("grad", _first_line(e)) from None
        if "lower" in stages:
            _check_lower(text, xs, ours32)
        if "compiled" in stages:
            got = _compiled_forward(smp, xs)
            _compare("compiled", [np.zeros(o.shape, np.float64) for o in got],
                     [torch.zeros(r.shape, dtype=torch.float64) for r in ref32],
                     xs, 2.0 ** -24)
        return stages[-1]
    xs64 = [_to(x, torch.float64) for x in xs]
    with torch.no_grad():
        ref64 = _outputs(smp.fn(*xs64))
    narrow = _narrowing(text) or any(r.is_floating_point()
                                     and r.dtype != torch.float64 for r in ref64)
    if narrow:
        # The function rounds to a narrower type on purpose (visible in the
        # import, or as an explicit dtype= that float32 inputs make a no-op):
        # float64 eager is another function; compare with eager float32.
        _compare("forward", ours32, ref32, xs, 2.0 ** -24)
        ref = ref32
    else:
        # Our float32 result against the float64 one (eager float32 can be
        # the less accurate of the two: layer norm of one element).
        _compare("forward", ours32, ref64, xs, 2.0 ** -24)
        ours64 = _interpret("forward", text, xs64, f64=True)[:len(ref64)]
        _compare("forward", ours64, ref64, xs64, 2.0 ** -53)
        ref = ref64
    if "grad" in stages:
        _check_grad(op, smp, text, narrow)
    if "lower" in stages:
        _check_lower(text, xs, ours32)
    if "compiled" in stages:
        _compare("compiled", _compiled_forward(smp, xs), ref, xs, 2.0 ** -24)
        _check_compiled_grad(op, smp, narrow)
    return stages[-1]


def _compiled(smp):
    # partition=False: an operator Stax cannot compile is a failure here,
    # not a silent fallback to PyTorch.
    return stax.CompiledFunction(smp.fn, partition=False)


def _compiled_forward(smp, xs) -> List[np.ndarray]:
    try:
        with torch.no_grad():
            outs = _outputs(_compiled(smp)(*[x.detach() for x in xs]))
    except Failure:
        raise
    except Exception as e:  # noqa: BLE001
        raise Failure("compiled", _first_line(e)) from None
    return [_np(o) for o in outs]


def _check_compiled_grad(op, smp, narrow: bool):
    """The compiled function's gradients (forward and backward compiled,
    composed with autograd) against PyTorch's in float64 (float32 where
    _check_grad compares in float32), with _check_grad's cotangents."""
    xs = smp.tensors
    diff = [i for i, x in enumerate(xs) if x.requires_grad]
    if not diff or not op.supports_autograd:
        return
    f32 = narrow or entry_name(op) in F32_GRADIENT
    dtype = torch.float32 if f32 else torch.float64
    xs64 = [_to(x, dtype).requires_grad_(i in diff) for i, x in enumerate(xs)]
    outs = _outputs(smp.fn(*xs64))
    douts = [o for o in outs if o.is_floating_point()]
    if not douts or not any(o.requires_grad for o in douts):
        return
    cts = _cotangents(douts)
    if entry_name(op) in NUMERICAL_GRADIENT:
        return          # PyTorch's gradient is wrong: no oracle to compare
    want = _torch_grads(douts, cts, xs64, diff)
    leaves = [x.detach().clone().requires_grad_(x.requires_grad) for x in xs]
    try:
        got_outs = [o for o in _outputs(_compiled(smp)(*leaves))
                    if o.is_floating_point()]
        live = [(o, c) for o, c in zip(got_outs, cts) if o.requires_grad]
        if not live:
            raise Failure("compiled", "no compiled result requires grad; "
                                      "PyTorch's do")
        gs = torch.autograd.grad([o for o, _ in live], [leaves[i] for i in diff],
                                 [c.to(o.dtype) for o, c in live],
                                 allow_unused=True)
    except Failure:
        raise
    except Exception as e:  # noqa: BLE001
        raise Failure("compiled", "backward: " + _first_line(e)) from None
    got = [_np(g) if g is not None else np.zeros(tuple(leaves[i].shape),
                                                  _np(leaves[i]).dtype)
           for g, i in zip(gs, diff)]
    _compare("compiled", got, want, xs + cts, 2.0 ** -24)
    if op.supports_gradgrad and not f32:
        _check_compiled_gradgrad(op, smp, xs64, diff, cts)


GRADGRAD_RTOL = 1e-9

# Entries whose eager second derivative is NaN where the exact one is
# finite: there, Stax's values are only required to be finite; elsewhere
# they are compared as usual.
GRADGRAD_EAGER_NAN = {
    "masked.logaddexp": "where a mask puts -inf, logaddexp(x, -inf) = x has "
                        "second derivative 0 (Stax's); eager's is NaN",
}


# Entries whose eager second derivative perturbs the input by an epsilon:
# eager's binary_cross_entropy_double_backward divides by (x + eps)^2 (1 - x
# + eps)^2 with eps = 1e-12, a relative change of up to 4 eps / min(x, 1 - x)
# that Stax's exact derivative does not make.
GRADGRAD_EAGER_EPS = {"nn.functional.binary_cross_entropy": 1e-12}


def _gradgrad_rtol(op, xs64) -> float:
    eps = GRADGRAD_EAGER_EPS.get(entry_name(op))
    if eps is None or not xs64[0].numel():
        return GRADGRAD_RTOL
    x = xs64[0].detach()
    closest = float(torch.minimum(x, 1 - x).min())
    return GRADGRAD_RTOL + 4 * eps / max(closest, eps)


def _second_derivatives(fn, leaves, diff, cts):
    """d/dx <w, d<c, fn(x)>/dx> for fixed random w: the gradients with
    create_graph=True, weighted and differentiated once more."""
    outs = [o for o in _outputs(fn(*leaves)) if o.is_floating_point()]
    live = [(o, c) for o, c in zip(outs, cts) if o.requires_grad]
    if not live:
        return None
    xs = [leaves[i] for i in diff]
    gs = torch.autograd.grad([o for o, _ in live], xs, [c for _, c in live],
                             create_graph=True, allow_unused=True)
    # One weight per input, drawn whether or not its gradient depends on
    # the inputs (eager's gradient of addcmul's first input does not, the
    # compiled one is a result of the compiled backward like the others).
    gen = torch.Generator().manual_seed(1)
    ws = [torch.rand(x.shape, generator=gen, dtype=x.dtype) * 2 - 1 for x in xs]
    dot = sum((g * w).sum() for g, w in zip(gs, ws)
              if g is not None and g.requires_grad)
    if not isinstance(dot, torch.Tensor):
        return [torch.zeros_like(x) for x in xs]
    hs = torch.autograd.grad(dot, xs, allow_unused=True)
    return [h.detach() if h is not None and not h._is_zerotensor()
            else torch.zeros_like(x) for h, x in zip(hs, xs)]


def _check_compiled_gradgrad(op, smp, xs64, diff, cts):
    fresh = lambda: [x.detach().clone().requires_grad_(i in diff)  # noqa: E731
                     for i, x in enumerate(xs64)]
    cts = [c.double() for c in cts]
    try:
        want = _second_derivatives(smp.fn, fresh(), diff, cts)
    except Exception:  # noqa: BLE001 - PyTorch cannot: no oracle
        return
    if want is None:
        return
    try:
        got = _second_derivatives(_compiled(smp), fresh(), diff, cts)
    except Exception as e:  # noqa: BLE001
        raise Failure("compiled", "second derivative: " + _first_line(e)) from None
    if got is None:
        raise Failure("compiled", "second derivative: no compiled result "
                                  "requires grad; PyTorch's do")
    rtol = _gradgrad_rtol(op, xs64)
    for k, (a, b) in enumerate(zip(got, want)):
        if entry_name(op) in GRADGRAD_EAGER_NAN:
            if not bool(torch.isfinite(a[b.isnan()]).all()):
                raise Failure("compiled", f"second derivative #{k}: not finite "
                                          f"where eager's is NaN")
            a, b = a[~b.isnan()], b[~b.isnan()]
        scale = max(1.0, float(b.abs().max()) if b.numel() else 1.0)
        err = float((a - b).abs().max()) if b.numel() else 0.0
        if not err <= rtol * scale:
            raise Failure("compiled", f"second derivative #{k}: max |stax - "
                                      f"eager| = {err:.3g} (scale {scale:.3g})")


def _torch_grads(outs, cts, xs64, diff):
    live = [(o, c) for o, c in zip(outs, cts) if o.requires_grad]
    if live:
        gs = torch.autograd.grad([o for o, _ in live], [xs64[i] for i in diff],
                                 [c for _, c in live], allow_unused=True)
    else:
        gs = [None] * len(diff)
    # A gradient can be one of PyTorch's efficient zero tensors (sgn's of
    # a real input): no storage, so .numpy() would read stray memory.
    return [g if g is not None and not g._is_zerotensor()
            else torch.zeros_like(xs64[i])
            for g, i in zip(gs, diff)]


# Entries whose gradient is compared in float32 (the float64 oracle is not
# the exact derivative), with the reason.
F32_GRADIENT: dict = {}


# Entries whose gradient is compared with central differences in float64:
# PyTorch's analytical gradient is wrong, and its own gradcheck says so. Each
# function here is linear in its inputs, so a central difference with a
# large step has no truncation error and its rounding error is that of the
# function's values divided by the step (FD_STEP).
NUMERICAL_GRADIENT = {
    "as_strided_scatter": "PyTorch 1.13 gives the overwritten input a "
                          "gradient; gradcheck: numerical 0, analytical 1",
}
FD_STEP = 2.0 ** -4


def _fd_grads(fn, douts_of, xs64, diff, cts):
    """The cotangent-weighted central difference of fn at xs64 for each
    differentiable input (exact up to rounding for a linear fn)."""
    grads = []
    with torch.no_grad():
        for i in diff:
            g = torch.zeros_like(xs64[i])
            flat = g.view(-1)
            for k in range(flat.numel()):
                vals = []
                for sign in (1.0, -1.0):
                    args = [x.detach().clone() for x in xs64]
                    args[i].view(-1)[k] += sign * FD_STEP
                    vals.append(douts_of(fn(*args)))
                flat[k] = sum(float(((p - m) * c).sum())
                              for p, m, c in zip(vals[0], vals[1], cts)
                              ) / (2 * FD_STEP)
            grads.append(g)
    return grads


def _narrowing(text: str) -> bool:
    """The function converts to a float type narrower than float64: the
    float64 interpretation (which computes every float in double) is then
    not the float64 evaluation of the function."""
    return re.search(r"tp\._to_copy .*dtype = (f16|bf16|f32)", text) is not None


def _cotangents(douts) -> List[torch.Tensor]:
    """A fixed random cotangent per floating result. Results PyTorch defines
    as not differentiable (the mean and rstd of native_layer_norm) get zero
    cotangents on both sides."""
    gen = torch.Generator().manual_seed(0)
    return [(torch.rand(o.shape, generator=gen, dtype=torch.float64) * 2 - 1
             ).to(o.dtype)
            if o.requires_grad else torch.zeros(o.shape, dtype=o.dtype)
            for o in douts]


def _check_grad(op, smp, text, narrow: bool = False):
    xs = smp.tensors
    diff = [i for i, x in enumerate(xs) if x.requires_grad]
    if not diff or not op.supports_autograd:
        return
    f32 = narrow or _narrowing(text) or entry_name(op) in F32_GRADIENT
    dtype, u = (torch.float32, 2.0 ** -24) if f32 else (torch.float64, 2.0 ** -53)
    xs64 = [_to(x, dtype).requires_grad_(i in diff)
            for i, x in enumerate(xs)]
    outs = _outputs(smp.fn(*xs64))
    douts = [o for o in outs if o.is_floating_point()]
    if not douts:
        return
    cts = _cotangents(douts)
    if entry_name(op) in NUMERICAL_GRADIENT:
        def float_outputs(o):
            return [t for t in _outputs(o) if t.is_floating_point()]
        want = _fd_grads(smp.fn, float_outputs, xs64, diff, cts)
        u /= FD_STEP
    else:
        want = _torch_grads(douts, cts, xs64, diff)
    try:
        joint = stax.run_pipeline(text, "builtin.module(stax-joint-graph)")
    except Exception as e:  # noqa: BLE001
        if ("no floating-point result" in str(e)
                and all(bool((w == 0).all()) for w in want)):
            return          # PyTorch's gradient is zero as well
        raise Failure("grad", _first_line(e)) from None
    header = next((line for line in joint.splitlines()
                   if "func.func" in line and "@forward" in line), "")
    ntan = header.count("tp.tangent")
    # Copy-back results (inputs the op writes) get zero cotangents.
    extra = ntan - len(douts)
    if extra < 0 or extra > header.count("tp.copy_back"):
        raise Failure("grad", f"joint graph has {ntan} tangent arguments for "
                              f"{len(douts)} floating-point results")
    back = [int(k) for k in re.findall(r"tp\.copy_back = (\d+)", header)]
    back = [k for k in back if xs64[k].is_floating_point()]
    if len(back) != extra:
        raise Failure("grad", f"joint graph has {ntan} tangent arguments for "
                              f"{len(douts)} floating-point results and "
                              f"{len(back)} written inputs")
    nres = len(outs) + header.count("tp.copy_back")
    args = xs64 + cts + [torch.zeros_like(xs64[k]) for k in back]
    res = _interpret("grad", joint, args, f64=not f32)
    got = res[nres:]
    _compare("grad", got, want, xs64 + cts, u)


def _check_lower(text, xs, ours32):
    try:
        lowered = stax.run_pipeline(
            text, "builtin.module(stax-decompose,func.func(stax-lower))")
    except Exception as e:  # noqa: BLE001
        raise Failure("lower", _first_line(e)) from None
    got = _interpret("lower", lowered, xs, f64=False)
    for k, (g, w) in enumerate(zip(got, ours32)):
        if g.shape != w.shape or g.dtype != w.dtype:
            raise Failure("lower", f"result #{k}: {g.dtype}{g.shape} vs "
                                   f"{w.dtype}{w.shape}")
        gb = np.ascontiguousarray(g).reshape(-1)
        wb = np.ascontiguousarray(w).reshape(-1)
        if not np.array_equal(gb.view(np.uint8), wb.view(np.uint8)):
            j = int(np.argwhere(gb.view(np.uint8).reshape(gb.size, -1)
                                != wb.view(np.uint8).reshape(wb.size, -1))[0][0])
            raise Failure("lower", f"result #{k} not bitwise equal at flat "
                                   f"index {j}: {gb[j]!r} vs {wb[j]!r}")


# ---------------------------------------------------------------------------
# One entry, the sweep
# ---------------------------------------------------------------------------

STAGES = ("forward", "grad", "lower", "compiled")


@dataclass
class Result:
    name: str
    passed: List[str] = field(default_factory=list)   # stages passed
    failure: Optional[Failure] = None
    samples: int = 0
    seconds: float = 0.0


def check_entry(op, max_samples: int = 3, skip: int = 0) -> Result:
    global _term_scale
    _term_scale = TERM_SCALE.get(entry_name(op), 1.0)
    res = Result(entry_name(op))
    try:
        samples = list(op.sample_inputs("cpu", torch.float32,
                                        requires_grad=op.supports_autograd))
    except Exception as e:  # noqa: BLE001
        res.failure = Failure("samples", _first_line(e))
        return res
    samples = samples[skip:skip + max_samples]
    reached = set(STAGES)
    for s in samples:
        try:
            check_sample(op, s)
            res.samples += 1
        except Failure as f:
            res.failure = f
            order = ["eager", "import", "forward", "grad", "lower", "compiled"]
            k = order.index(f.stage) if f.stage in order else 0
            reached &= {st for st in STAGES if order.index(st) < k}
            break
        except Exception as e:  # noqa: BLE001 - a harness bug is a failure
            res.failure = Failure("harness", _first_line(e) + " | "
                                  + traceback.format_exc().splitlines()[-3])
            reached = set()
            break
    res.passed = [st for st in STAGES if st in reached]
    return res


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--samples", type=int, default=3)
    ap.add_argument("--skip", type=int, default=0,
                    help="start at this sample (a run over later samples)")
    ap.add_argument("--only", nargs="*")
    ap.add_argument("-v", action="store_true", help="print every failure")
    a = ap.parse_args(argv)
    entries = load_entries()
    excluded = [(entry_name(op), why) for op, why in entries if why]
    scope = [op for op, why in entries if not why]
    if a.only:
        scope = [op for op in scope if entry_name(op) in a.only]
    t0 = time.time()
    results = []
    for op in scope:
        t1 = time.time()
        results.append(check_entry(op, a.samples, a.skip))
        results[-1].seconds = time.time() - t1
    counts = {st: sum(st in r.passed for r in results) for st in STAGES}
    print(f"OpInfo entries with float32 CPU support: {len(entries)}")
    print(f"excluded: {len(excluded)}; in scope: {len(scope)}"
          f" ({time.time() - t0:.0f} s, <= {a.samples} samples each)")
    print("| stage | passing | of |")
    print("|---|---|---|")
    for st in STAGES:
        print(f"| {st} | {counts[st]} | {len(scope)} |")
    reasons: Dict[str, List[str]] = {}
    for r in results:
        if r.failure is not None:
            key = r.failure.stage + ": " + re.sub(r"%\w+|\d+", "#",
                                                  r.failure.msg)[:90]
            reasons.setdefault(key, []).append(r.name)
    slow = sorted(results, key=lambda r: -r.seconds)[:8]
    print("slowest: " + ", ".join(f"{r.name} {r.seconds:.1f} s" for r in slow))
    if a.v:
        for r in results:
            if r.failure is not None:
                print(f"FAIL {r.name}: {r.failure}")
    else:
        for key, names in sorted(reasons.items(), key=lambda kv: -len(kv[1])):
            print(f"{len(names):4d}  {key}  [{', '.join(names[:6])}"
                  f"{', ...' if len(names) > 6 else ''}]")
    return 0


if __name__ == "__main__":
    sys.exit(main())
