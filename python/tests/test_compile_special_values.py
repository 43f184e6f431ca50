"""stax.compile of decompositions at special values and in reduced
precision, against eager PyTorch (CPU) element by element.

- bfloat16 / float16 composite ops compute in float32 and round once, as
  eager's kernels (logaddexp, logaddexp2, lerp, asinh, hypot,
  smooth_l1_loss in bfloat16; xlogy, xlog1py in float16): bitwise equal.
  Pools and std (a float32 sum rounded once) equal eager's except where
  the float64 value lies within the float32 sum's error of a rounding
  midpoint of the narrow type, where one unit in the last place is allowed.
- Gradients that were NaN: smooth_l1 / huber at infinite differences,
  hypot where the squares underflow (or lost bits), sinc at subnormal x.
- clamp with NaN bounds, bucketize / searchsorted with NaN boundaries
  (eager's binary search).
"""

import math
import warnings

import pytest
import torch
import torch.nn.functional as F

import stax

nan, inf = math.nan, math.inf


@pytest.fixture(autouse=True)
def _no_fallback():
    with warnings.catch_warnings():
        warnings.filterwarnings("error", message=".*stax.compile.*")
        yield


def _bits(t):
    view = {torch.float64: torch.int64, torch.float32: torch.int32,
            torch.float16: torch.int16, torch.bfloat16: torch.int16}
    return t.view(view[t.dtype]) if t.dtype in view else t


def _same(got, want, what):
    """Equal bit for bit (sign of zero included); NaN where want is NaN
    (eager's NaN payloads differ between its scalar and vector loops)."""
    assert got.shape == want.shape and got.dtype == want.dtype, what
    if want.is_floating_point():
        assert torch.equal(torch.isnan(got), torch.isnan(want)), what
        keep = ~torch.isnan(want)
        got, want = got[keep], want[keep]
    ok = _bits(got) == _bits(want)
    assert bool(ok.all()), (f"{what}: {int((~ok).sum())} of {ok.numel()} "
                            f"differ, e.g. {got[~ok][:4]} vs {want[~ok][:4]}")


def _randn(*shape, seed, scale=2.0, dtype=torch.float32):
    g = torch.Generator().manual_seed(seed)
    return (torch.randn(*shape, generator=g) * scale).to(dtype)


# ---------------------------------------------------------------------------
# Reduced precision: float32 opmath, one rounding
# ---------------------------------------------------------------------------

def _bf16_ops(a, b, w):
    return (torch.logaddexp(a, b), torch.logaddexp2(a, b),
            torch.lerp(a, b, 0.3), torch.lerp(a, b, 0.7),
            torch.lerp(a, b, -0.6), torch.lerp(a, b, w),
            torch.asinh(a), torch.hypot(a, b),
            F.smooth_l1_loss(a, b, beta=0.5, reduction="none"))


def test_bf16_elementwise_ops_round_once():
    a, b = _randn(3000, seed=1), _randn(3000, seed=2)
    w = torch.rand(3000, generator=torch.Generator().manual_seed(3)) * 3 - 1
    a = torch.cat([a, torch.tensor([inf, -inf, nan, 0.0, -0.0, 1e30, 1e-30])])
    b = torch.cat([b, torch.tensor([inf, 1.0, 2.0, -0.0, -0.0, 3e30, 2e-30])])
    w = torch.cat([w, torch.tensor([0.25, 0.5, 0.75, -1.0, 2.0, 0.0, 1.0])])
    a, b, w = a.bfloat16(), b.bfloat16(), w.bfloat16()
    names = ["logaddexp", "logaddexp2", "lerp0.3", "lerp0.7", "lerp-0.6",
             "lerp_tensor", "asinh", "hypot", "smooth_l1"]
    # Where the compiled float32 op itself differs from eager's (its exp,
    # log or asinh an ulp apart, which cancellation can carry into the
    # bfloat16 result), one bfloat16 ulp; bitwise everywhere else.
    f32 = [a.float(), b.float(), w.float()]
    same32 = [(c == e) | torch.isnan(e) for c, e in zip(
        stax.compile(_bf16_ops)(*f32), _bf16_ops(*f32))]
    for name, got, want, same in zip(names, stax.compile(_bf16_ops)(a, b, w),
                                     _bf16_ops(a, b, w), same32):
        _same(got[same], want[same], name)
        g, e = got[~same].double(), want[~same].double()
        assert bool(((g - e).abs() <= 2.0 ** -7 * e.abs()).all()), name


def test_float32_lerp_is_eagers_fused_multiply_add():
    a, b = _randn(3000, seed=4), _randn(3000, seed=5)
    w = torch.rand(3000, generator=torch.Generator().manual_seed(6)) * 3 - 1

    def f(a, b, w):
        return (torch.lerp(a, b, 0.3), torch.lerp(a, b, 0.7),
                torch.lerp(a, b, -0.6), torch.lerp(a, b, 2.5),
                torch.lerp(a, b, w))
    for i, (got, want) in enumerate(zip(stax.compile(f)(a, b, w), f(a, b, w))):
        _same(got, want, f"lerp {i}")


def test_f16_xlogy_and_xlog1py_round_once():
    x = _randn(3000, seed=7, dtype=torch.float16)
    y = _randn(3000, seed=8).abs().to(torch.float16)
    x = torch.cat([x, torch.tensor([0.0, -0.0, 1.0, 2.0, 0.0], dtype=torch.float16)])
    y = torch.cat([y, torch.tensor([0.0, nan, inf, -0.5, -1.0], dtype=torch.float16)])

    def f(x, y):
        return torch.xlogy(x, y), torch.special.xlog1py(x, y)
    for name, got, want in zip(("xlogy", "xlog1py"), stax.compile(f)(x, y), f(x, y)):
        _same(got, want, name)


def _midpoint_distance(exact, dtype):
    """|exact - m| / |exact| for the midpoint m between the two values of
    `dtype` around it (inf where exact is 0 or not finite)."""
    r = exact.to(dtype).to(torch.float64)
    mant = {torch.bfloat16: 8, torch.float16: 11}[dtype]
    e = torch.floor(torch.log2(exact.abs().clamp_min(1e-300)))
    ulp = torch.pow(2.0, e - (mant - 1))
    m = r + torch.where(exact >= r, ulp, -ulp) / 2
    d = (exact - m).abs() / exact.abs()
    return torch.where(torch.isfinite(exact) & (exact != 0), d,
                       torch.full_like(d, inf))


def _rounded_once(got, want, exact, dtype, terms, what):
    """got equals eager's want except where the float64 value `exact` lies
    within the float32 computation's error (terms * 2^-24, relative) of a
    rounding midpoint of dtype: there one unit in the last place."""
    assert got.shape == want.shape and got.dtype == want.dtype, what
    near = _midpoint_distance(exact, dtype) <= (terms + 2) * 2.0 ** -24
    g, w = got.double(), want.double()
    ulp = torch.finfo(dtype).eps * w.abs()
    ok = (g == w) | near & ((g - w).abs() <= ulp)
    assert bool(ok.all()), f"{what}: {int((~ok).sum())} differ"


@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float16])
def test_reduced_pools_and_std_sum_in_float32(dtype):
    x = _randn(4, 3, 40, seed=9, scale=3.0, dtype=dtype) + 1

    def f(x):
        out = [torch.std(x, -1), torch.std_mean(x, -1)[0],
               torch.var_mean(x, -1)[0], torch.std(x, (0, 2), unbiased=False)]
        if dtype == torch.bfloat16:   # eager lacks float16 pools
            out += [F.avg_pool1d(x, 3, 2, 1),
                    F.avg_pool1d(x, 5, 1, 2, count_include_pad=False),
                    F.adaptive_avg_pool1d(x, 7),
                    F.avg_pool2d(x, 3, 2, 1, ceil_mode=True)]
        return out
    terms = [40, 40, 40, 160, 3, 5, 7, 9]
    exact = f(x.double())
    for i, (got, want, ex) in enumerate(zip(stax.compile(f)(x), f(x), exact)):
        _rounded_once(got, want, ex, dtype, terms[i], f"{dtype} output {i}")


# ---------------------------------------------------------------------------
# Gradients at special values
# ---------------------------------------------------------------------------

def _grads(fn, inputs, constants=0):
    """(outputs, gradients of their sum) of fn, eager and compiled; the
    last `constants` inputs do not require grad."""
    res = []
    for f in (fn, stax.compile(fn)):
        xs = [x.detach().clone().requires_grad_(
            x.is_floating_point() and i < len(inputs) - constants)
            for i, x in enumerate(inputs)]
        out = f(*xs)
        out = out if isinstance(out, tuple) else (out,)
        sum(o.sum() for o in out).backward()
        res.append(([o.detach() for o in out], [x.grad for x in xs]))
    return res


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_huber_and_smooth_l1_gradients_at_infinite_differences(dtype):
    x = torch.tensor([inf, -inf, 3.0, 0.25, -0.5, 1.0, -2.0, 0.0], dtype=dtype)
    y = torch.tensor([0.0, 0.0, 0.0, 0.0, 0.0, 0.0, -inf, inf], dtype=dtype)

    def f(x, y):
        return (F.smooth_l1_loss(x, y, reduction="sum"),
                F.smooth_l1_loss(x, y, beta=0.5, reduction="none"),
                F.huber_loss(x, y, reduction="sum"),
                F.huber_loss(x, y, delta=2.0, reduction="none"))
    (eo, eg), (co, cg) = _grads(f, [x, y])
    for i, (got, want) in enumerate(zip(co, eo)):
        _same(got, want, f"loss {i}")
    for i, (got, want) in enumerate(zip(cg, eg)):
        _same(got, want, f"gradient {i}")


def test_hypot_gradient_where_squares_underflow_and_sinc_at_subnormals():
    a = torch.tensor([1e-30, 1e-20, 1e-22, 1e-17, 1e-16, 1e-36, 1.0, 3e30,
                      1e-40])   # (eager's own a / hypot is inexact at 1e-40)
    x = torch.tensor([1e-40, 1e-45, -1e-45, 0.0, 1e-20, 0.5, -2.5, 1e-3])

    def f(a, x):
        return torch.hypot(a, 2 * a), torch.sinc(x)
    (eo, (ea, ex)), (co, (ca, cx)) = _grads(f, [a, x])
    for got, want in zip(co, eo):
        assert torch.allclose(got, want, rtol=2.0 ** -22, atol=0)
    assert not torch.isnan(ca).any() and not torch.isnan(cx).any()
    assert torch.allclose(ca[:-1], ea[:-1], rtol=2.0 ** -21, atol=0), ca
    # eager's 0 where pi x^2 underflows, its formula elsewhere
    tiny = x * x * math.pi == 0
    _same(cx[tiny], ex[tiny], "sinc gradient at 0 and subnormals")
    assert torch.allclose(cx, ex, rtol=2.0 ** -20, atol=1e-30), cx


# ---------------------------------------------------------------------------
# clamp with NaN bounds, searches with NaN boundaries
# ---------------------------------------------------------------------------

def test_clamp_with_nan_bounds_propagates_nan():
    """Eager's kernel: NaN where x, min or max is NaN, else
    min(max(x, min), max); gradients as its clamp_backward_min_max."""
    # (No ties of zeros of opposite signs: eager's scalar and vector loops
    # return different ones.)
    x = torch.tensor([2.0, 0.5, nan, -1.0, 0.5, 3.0, -0.0, 0.0, 5.0] * 2)
    lo = torch.tensor([nan, nan, 0.0, 0.0, 1.0, 4.0, -1.0, -2.0, nan] * 2)
    hi = torch.tensor([1.0, 1.0, 1.0, nan, nan, 2.0, 1.0, 1.0, nan] * 2)

    def f(x, lo, hi):
        return (torch.clamp(x, lo, hi), torch.clamp(x, min=lo),
                torch.clamp(x, max=hi), torch.clamp_min(x, lo),
                torch.clamp_max(x, hi))
    (eo, eg), (co, cg) = _grads(f, [x, lo, hi])
    for i, (got, want) in enumerate(zip(co, eo)):
        _same(got, want, f"clamp value {i}")
    for i, (got, want) in enumerate(zip(cg, eg)):
        _same(got, want, f"clamp gradient {i}")


def test_max_and_min_of_all_give_their_gradient_to_nans():
    """max()/min() without a dim send a NaN result's gradient evenly to the
    NaN elements (eager's evenly_distribute_backward), amax/amin make every
    partial NaN; ties of numbers share it in both."""
    x = torch.tensor([[0.5, nan, -1.0], [2.0, nan, 2.0]])
    y = torch.tensor([[0.5, 2.0, -1.0], [2.0, -3.0, 2.0]])

    fns = {"max": torch.max, "min": torch.min, "amax": torch.amax,
           "amin": torch.amin, "amax(0, 1)": lambda t: t.amax((0, 1))}
    for arg in (x, y):
        for name, f in fns.items():
            (eo, eg), (co, cg) = _grads(f, [arg])
            _same(co[0], eo[0], f"{name} value")
            _same(cg[0], eg[0], f"{name} gradient")


def test_bucketize_and_searchsorted_with_nan_boundaries():
    """Eager's binary search: NaN boundaries (sorted last) count as below a
    value only where the search probes them; a NaN value goes last."""
    def f(v, b):
        return (torch.bucketize(v, b), torch.searchsorted(b, v),
                torch.searchsorted(b, v, right=True),
                torch.bucketize(v, b, right=True, out_int32=True))
    g = stax.compile(f)
    e = f(torch.tensor([-1.0, 0.5, 1.5, 5.0]), torch.tensor([0.0, 1.0, 2.0, nan]))
    assert [r.tolist() for r in e] == [[0, 1, 2, 4]] * 4
    v = torch.tensor([-5.0, -2.0, -1.0, 0.0, 1.0, 2.0, 5.0, nan, inf, -inf, 0.5])
    gen = torch.Generator().manual_seed(10)
    for m in range(0, 9):
        for k in range(0, m + 1):
            finite = torch.sort(torch.randint(-2, 3, (k,), generator=gen).float())[0]
            b = torch.cat([finite, torch.full((m - k,), nan)])
            for i, (got, want) in enumerate(zip(g(v, b), f(v, b))):
                assert torch.equal(got, want) and got.dtype == want.dtype, (m, k, i, b)
    s = torch.sort(_randn(3, 7, seed=11), -1)[0]
    s[1, 5:] = nan
    s[2, 3:] = nan
    q = _randn(3, 9, seed=12)
    q[0, 0] = nan

    def h(s, q):
        return torch.searchsorted(s, q), torch.searchsorted(s, q, side="right")
    for got, want in zip(stax.compile(h)(s, q), h(s, q)):
        assert torch.equal(got, want)


def test_bce_with_logits_gradient_is_eagers_sigmoid_minus_target():
    """Eager's input gradient is (c sigmoid(x) - p) weight; differentiating
    the loss formula instead cancelled for negative logits (4e-4 relative
    at -10, 0 from -17 on where eager's is 2e-9, NaN at -inf). Values stay
    eager's formula; the gradient rounds in another order than eager's
    kernel: a few ulps of its largest term, c sigmoid(x)."""
    g = torch.Generator().manual_seed(11)
    n = 512
    x = torch.cat([torch.randn(n, generator=g) * 8,
                   torch.tensor([-10.0, -17.0, -20.0, -50.0, -88.0, 30.0, 0.0, -0.0])])
    t = torch.rand(x.shape, generator=g)
    t[-8:] = torch.tensor([0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.5, 1.0])
    weight = torch.rand(x.shape, generator=g) + 0.5
    pos_weight = torch.rand(x.shape, generator=g) * 3

    def losses(x, t, w, pw):
        return (F.binary_cross_entropy_with_logits(x, t, reduction="none"),
                F.binary_cross_entropy_with_logits(x, t, w, reduction="none",
                                                   pos_weight=pw))
    compiled = stax.compile(losses)
    for k in range(2):
        xs = [x.clone().requires_grad_(), x.clone().requires_grad_()]
        ts = [t.clone().requires_grad_(), t.clone().requires_grad_()]
        got = compiled(xs[0], ts[0], weight, pos_weight)[k]
        want = losses(xs[1], ts[1], weight, pos_weight)[k]
        # The formula's exp and log are within an ulp of eager's: a few
        # ulps of its terms, |x| and the log's.
        terms = (x.abs() + 1) * (pos_weight * t + 1 if k else 1) * (weight if k else 1)
        assert bool(((got - want).abs() <= 8 * torch.finfo(torch.float32).eps
                     * terms).all()), f"loss {k}"
        got.sum().backward()
        want.sum().backward()
        c = pos_weight * t + 1 - t if k else torch.ones_like(t)
        scale = (c * torch.sigmoid(x) + (pos_weight * t if k else t)) * (weight if k else 1)
        # The target's: -x + (pos_weight - 1) softplus(-x), its terms.
        scale_t = (x.abs() + ((pos_weight - 1).abs() * (x.abs() + 1) if k else 0)) \
            * (weight if k else 1)
        for name, gg, ge, sc in (("input", xs[0].grad, xs[1].grad, scale),
                                 ("target", ts[0].grad, ts[1].grad, scale_t)):
            bound = 8 * torch.finfo(torch.float32).eps * sc
            assert bool(((gg - ge).abs() <= bound).all()), (name, k)
    # Far in the negative tail the gradient is sigmoid(x) itself.
    xt = torch.tensor([-17.0, -20.0, -50.0, -float("inf")], requires_grad=True)
    stax.compile(lambda x, t: F.binary_cross_entropy_with_logits(
        x, t, reduction="sum"))(xt, torch.zeros(4)).backward()
    want = torch.sigmoid(xt.detach().double()).float()
    assert bool(((xt.grad - want).abs() <= 4 * torch.finfo(torch.float32).eps * want).all())
    assert xt.grad[-1].item() == 0.0
