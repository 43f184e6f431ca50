"""stax.compile on bfloat16 models: compiled CPU code against the float64
reference, within the error bound of docs/Numerics.md (stax.numerics with
its half-precision model: eager computes each bf16 op in float32 and rounds
its result once, 2^-8 relative), every output and every gradient element.

(float16 compiles too, bitwise equal to the interpreter: test_dtypes.py and
test/stax-run/jit-half-precision.mlir; PyTorch 1.13's CPU kernels lack most
float16 operators, so no eager float16 model exists to compare with.)
"""

import warnings

import pytest
import torch
import torch.nn.functional as F

import stax
from corpus_checks import check_within_bound, outputs
from stax.numerics import error_bound


class _Model:
    def __init__(self, fn):
        self.fn = fn


def _compile_and_check(name, fn, inputs):
    """fn compiled (no fallback: a warning is an error) on copies of
    `inputs`; outputs and gradients of their sum within the bound."""
    xs = [x.detach().clone().requires_grad_(x.requires_grad) for x in inputs]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        outs = outputs(stax.compile(fn)(*xs))
    assert all(o.dtype == e.dtype for o, e in zip(outs, outputs(fn(*inputs))))
    check_within_bound(name, _Model(fn), inputs, xs, outs)


def _bf16(*shape, scale=1.0, grad=True, seed=0):
    g = torch.Generator().manual_seed(seed + len(shape) * 7 + shape[-1])
    x = (torch.randn(*shape, generator=g) * scale).bfloat16()
    return x.requires_grad_(grad)


def test_bf16_mlp_with_layer_norm_and_gelu():
    """Linear, LayerNorm, GELU, Linear: products on f32 copies (BLAS),
    row statistics and GELU's erf in float32, one rounding per op."""
    x = _bf16(16, 32, grad=False)
    w1, b1 = _bf16(64, 32, scale=0.2), _bf16(64, scale=0.1)
    g, beta = _bf16(64, scale=0.5, seed=1) + 1, _bf16(64, scale=0.1, seed=2)
    g = g.detach().requires_grad_(True)
    w2, b2 = _bf16(10, 64, scale=0.2, seed=3), _bf16(10, scale=0.1, seed=4)

    def mlp(x, w1, b1, g, beta, w2, b2):
        h = F.layer_norm(F.linear(x, w1, b1), (64,), g, beta)
        return F.linear(F.gelu(h), w2, b2)

    _compile_and_check("mlp", mlp, [x, w1, b1, g, beta, w2, b2])


def test_bf16_softmax_cross_entropy_and_tanh():
    x = _bf16(8, 40)
    t = torch.randint(0, 40, (8,), generator=torch.Generator().manual_seed(5))
    v = _bf16(8, 40, seed=6)

    def f(x, t, v):
        return F.cross_entropy(x, t), torch.tanh(x) * v + x.sigmoid()

    _compile_and_check("softmax_ce", f, [x, t, v])


def test_bf16_attention_block():
    """Batched products (bmm on f32 copies), a softmax and a residual."""
    q, k, v = _bf16(2, 6, 16), _bf16(2, 6, 16, seed=1), _bf16(2, 6, 16, seed=2)

    def attention(q, k, v):
        s = torch.softmax(q @ k.transpose(1, 2) / 4.0, dim=-1)
        return s @ v + q

    _compile_and_check("attention", attention, [q, k, v])


def test_bf16_embedding_gradient_accumulates_in_float32():
    """The embedding's gradient is an accumulating scatter: in an f32 copy,
    rounded once (as eager), not bf16 partial sums."""
    w = _bf16(5, 8)
    idx = torch.tensor([0, 3, 0, 0, 4, 3, 0, 0] * 8)

    def f(w, idx):
        return F.embedding(idx, w) * 1.5

    _compile_and_check("embedding", f, [w, idx])


def test_bf16_module_parameters_get_bf16_gradients():
    """An nn.Module in bf16: its parameters are inputs and get bf16
    gradients, within the bound of eager's (the module called on its
    parameters, as stax.compile traces it)."""
    from torch.nn.utils.stateless import functional_call
    torch.manual_seed(0)
    mlp = torch.nn.Sequential(torch.nn.Linear(12, 24), torch.nn.ReLU(),
                              torch.nn.Linear(24, 3)).bfloat16()
    x = torch.randn(4, 12).bfloat16()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        y = stax.compile(mlp)(x)
    y.sum().backward()
    names = [n for n, _ in mlp.named_parameters()]
    grads = [p.grad for p in mlp.parameters()]
    assert all(g is not None and g.dtype == torch.bfloat16 for g in grads)

    def reference(x, *ps):
        ps = [p.detach().requires_grad_(True) for p in ps]
        return torch.autograd.grad(
            functional_call(mlp, dict(zip(names, ps)), (x,)).sum(), ps)

    bounds = error_bound(reference, x, *[p.detach() for p in mlp.parameters()])
    for g, b in zip(grads, bounds):
        assert torch.all((g.double() - b.ref).abs() <= b.tol)


@pytest.mark.parametrize("name, fn", [
    ("std", lambda x: torch.std(x, 1)),
    ("vector_norm", lambda x: torch.linalg.vector_norm(x, dim=1)),
    ("dist", lambda x: torch.dist(x, x.flip(0))),
    ("renorm", lambda x: torch.renorm(x, 2, 0, 1.0)),
])
def test_float16_decompositions_needing_missing_half_kernels_compile(name, fn):
    """These decompositions call sqrt on float16, which PyTorch 1.13 has no
    CPU kernel for (eager's fused kernels compute in float32): tracing on
    real tensors failed and the function ran in PyTorch. The trace is
    retried on fake tensors, which run no kernel. Against float64: the
    decomposition rounds to float16 after each of its steps (at most 4 on
    any path: sum of squares, quotient, root, scale), half an ulp each;
    gradients likewise (the cotangent rounded to float16 is one of the
    steps), relative to their largest element."""
    g = torch.Generator().manual_seed(3)
    x = torch.randn(4, 6, generator=g).half().requires_grad_()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = stax.compile(fn)(x)
    x64 = x.detach().double().requires_grad_()
    want = fn(x64)
    assert got.dtype == torch.float16 and got.shape == want.shape
    ulp = 2.0 ** -10
    assert torch.all((got.double() - want).abs()
                     <= 4 * 0.5 * ulp * want.abs() + 2.0 ** -24), name
    c = torch.randn(want.shape, generator=g, dtype=torch.float64)
    dx = torch.autograd.grad(got, x, c.half())[0].double()
    dx_want = torch.autograd.grad(want, x64, c)[0]
    assert torch.all((dx - dx_want).abs()
                     <= 4 * 0.5 * ulp * float(dx_want.abs().max())), name


def test_float32_to_bf16_rounds_like_eager_bit_for_bit():
    """Conversion to bf16 is exact rounding (no bound): bitwise eager's for
    denormal inputs and results (AVX512-BF16's vcvtneps2bf16, LLVM's
    lowering, flushed them to zero: --stax-round-to-bf16), ties to even,
    overflow to infinity, signed zeros; NaN stays NaN. The same for a bf16
    product whose f32 result is a denormal, and from float64."""
    g = torch.Generator().manual_seed(5)
    bits = torch.randint(-2**31, 2**31 - 1, (1 << 16,), generator=g,
                         dtype=torch.int64).to(torch.int32)
    edges = torch.tensor([1e-39, -5e-39, 1e-45, -1e-45, 1.1754942e-38,
                          1.00390625, 1.01171875, 3.4e38, 3.3961e38,
                          -3.4028235e38, float("inf"), -0.0, 0.0])
    x = torch.cat([bits.view(torch.float32), edges,
                   torch.randn(4096) * 1e-38])
    nan = torch.isnan(x)
    got = stax.compile(lambda a: a.bfloat16())(x)
    want = x.bfloat16()
    assert torch.equal(got.view(torch.int16)[~nan], want.view(torch.int16)[~nan])
    assert torch.isnan(got[nan]).all()
    small = (torch.randn(4096, generator=g) * 1e-38).bfloat16()
    finite = small[torch.isfinite(small)]
    got = stax.compile(lambda a: a * 2)(finite)
    assert torch.equal(got.view(torch.int16), (finite * 2).view(torch.int16))
    d = torch.randn(4096, dtype=torch.float64, generator=g) * 1e-38
    got = stax.compile(lambda a: a.bfloat16())(d)
    assert torch.equal(got.view(torch.int16), d.bfloat16().view(torch.int16))


@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16])
def test_half_mean_rounds_the_sum_before_dividing(dtype):
    """Eager's CPU mean is sum(x).div_(n): the float32 sum is rounded to
    the half type, then divided. Short rows (summed in one order by both)
    are bitwise eager's; an f16 sum beyond 65504 makes the mean inf."""
    torch.manual_seed(0)
    x = (torch.randn(64, 7) * 3).to(dtype)
    for fn in (lambda t: t.mean(1), lambda t: t.mean(1, keepdim=True)):
        assert torch.equal(stax.compile(fn)(x), fn(x))
    big = torch.full((4096,), 30.0, dtype=torch.float16)
    assert torch.isinf(stax.compile(lambda t: t.mean())(big))


@pytest.mark.parametrize("mode, nsp", [("linear", 1), ("bilinear", 2),
                                       ("trilinear", 3)])
@pytest.mark.parametrize("align_corners", [False, True])
def test_half_linear_interpolation_rounds_once(mode, nsp, align_corners):
    """bf16 linear interpolation computes in float32 and rounds once: each
    value within one bf16 ulp (2^-8 relative) of the float64 result of the
    same inputs. It rounded the coordinates, the weights and each pass to
    bf16 before, up to 2.4e-2 off for values of order 1 (eager's bf16
    kernel is up to 5e-2 off here)."""
    torch.manual_seed(0)
    x = torch.randn(1, 2, *[5] * nsp).bfloat16()
    fn = lambda t: F.interpolate(t, scale_factor=1.5, mode=mode,
                                 align_corners=align_corners)
    got = stax.compile(fn)(x).double()
    ref = fn(x.double())
    assert torch.all((got - ref).abs() <= 2.0 ** -8 * ref.abs() + 1e-30)


@pytest.mark.parametrize("length", [8, 40, 300])
def test_bf16_extremes_of_denormals_match_eager_exactly(length):
    """argmax/argmin, max/min with indices and cummin/cummax of bf16
    denormals: LLVM narrowed bf16 values it held as f32 (a horizontal
    maximum, a loop's running extreme) with AVX512-BF16's vcvtneps2bf16,
    which flushes denormals: argmax returned INT64_MAX (no element equalled
    the flushed maximum), min gave 0 for a negative denormal, cummin lost
    its running minimum."""
    x = torch.zeros(length)
    x[5], x[length // 2], x[-3] = -1e-40, 6e-39, 6e-39
    x = x.bfloat16()
    same = torch.full((length,), 5e-39).bfloat16()
    fns = [lambda a: a.argmax(), lambda a: a.argmin(), lambda a: a.max(0),
           lambda a: a.min(0), lambda a: torch.cummin(a, 0),
           lambda a: torch.cummax(a, 0), lambda a: a.view(-1, 1).amax(1)]
    with warnings.catch_warnings():
        warnings.filterwarnings("error", message="stax.compile")
        for fn in fns:
            for v in (x, same):
                want, got = fn(v), stax.compile(fn)(v)
                want = want if isinstance(want, tuple) else (want,)
                got = got if isinstance(got, tuple) else (got,)
                for w, g in zip(want, got):
                    assert torch.equal(w, g), (w, g)
