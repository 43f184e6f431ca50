"""Every dtype PyTorch models use, end to end: float32, float64, float16,
bfloat16, int8/16/32/64, uint8 and bool through import, interpretation,
`--stax-lower` and compiled code (stax.Executable, as `stax.compile`
calls it).

Each case is made of exact or correctly rounded single operations (casts,
+, -, *, /, comparisons, sums whose partial sums are exact), so eager
PyTorch has one right answer per element and the interpreter must give it
bit for bit. PyTorch computes f16/bf16 arithmetic in float and rounds each
result, builds f16/bf16 from a float (a float64 or a wide integer rounds
twice), wraps integers modulo 2^width and promotes uint8 with int8 to
int16. The lowered function and the compiled code must then equal the
interpretation bit for bit.

uint8 is `ui8` in tp; bf16 crosses the Python bridge as float32 (results)
and torch.bfloat16, uint16 words or float32 (arguments): see
`stax.interpret`.
"""

import warnings

import numpy as np
import pytest
import torch
from torch.utils import _pytree as pytree

import stax

warnings.filterwarnings("ignore")

LOWER = "builtin.module(stax-decompose,func.func(stax-lower))"

FLOATS = [torch.float32, torch.float64, torch.float16, torch.bfloat16]
INTS = [torch.int8, torch.int16, torch.int32, torch.int64, torch.uint8]
DTYPES = FLOATS + INTS + [torch.bool]


def _name(dtype) -> str:
    return str(dtype).replace("torch.", "")


def _values(dtype, n=24, seed=0) -> torch.Tensor:
    """n values of `dtype`: the extremes and small values first, then
    random ones over the whole range (integers) or of magnitude ~8
    (floats, exactly representable in `dtype`)."""
    g = torch.Generator().manual_seed(seed)
    if dtype == torch.bool:
        return torch.rand(n, generator=g) < 0.5
    if dtype.is_floating_point:
        x = torch.randn(n, generator=g, dtype=torch.float64) * 8
        x[:4] = torch.tensor([0.0, -0.0, 1.0, -2.5], dtype=torch.float64)
        return x.to(dtype)
    info = torch.iinfo(dtype)
    x = torch.randint(info.min, info.max, (n,), generator=g, dtype=dtype)
    x[:4] = torch.tensor([info.min, info.max, 0, 1]).to(dtype)
    return x


def _nonzero(dtype, n=24, seed=1) -> torch.Tensor:
    x = _values(dtype, n, seed)
    return torch.where(x == 0, torch.ones_like(x), x)


def _np(t: torch.Tensor) -> np.ndarray:
    """What stax.interpret returns for `t`'s dtype (bf16: float32)."""
    t = t.detach().contiguous()
    return t.float().numpy() if t.dtype == torch.bfloat16 else t.numpy()


def _assert_bitwise(got: np.ndarray, want: np.ndarray, what: str):
    assert got.dtype == want.dtype, f"{what}: {got.dtype} vs {want.dtype}"
    assert got.shape == want.shape, f"{what}: {got.shape} vs {want.shape}"
    if got.dtype.kind == "f":   # NaNs by position, everything else by bits
        nan = np.isnan(got)
        assert np.array_equal(nan, np.isnan(want)), f"{what}: NaNs differ"
        got, want = got[~nan], want[~nan]
    if got.tobytes() != want.tobytes():
        bad = np.flatnonzero(got.reshape(-1) != want.reshape(-1))
        k = int(bad[0]) if bad.size else 0
        raise AssertionError(f"{what} differs at {k}: {got.reshape(-1)[k]!r} "
                             f"vs {want.reshape(-1)[k]!r}")


def _run_compiled(text, xs):
    """Compiled code on xs; bf16 buffers are uint16 words (signature) and
    come back as float32, as stax.interpret returns them."""
    exe = stax.Executable(text)
    _, outs = exe.signature("forward")
    args = [np.ascontiguousarray(
        x.view(torch.int16).numpy().view(np.uint16)
        if x.dtype == torch.bfloat16 else x.numpy()) for x in xs]
    res = [np.zeros(shape, dtype) for shape, dtype in outs]
    exe.call_raw("forward", [a.ctypes.data for a in args] +
                 [r.ctypes.data for r in res])
    return [(r.reshape(-1).astype(np.uint32) << np.uint32(16))
            .view(np.float32).reshape(r.shape) if r.dtype == np.uint16 else r
            for r in res]


def _check(fn, *xs):
    """fn imported on xs equals eager bit for bit when interpreted, lowered
    and compiled."""
    text = stax.import_torch(fn, *xs)
    eager = pytree.tree_flatten(fn(*xs))[0]
    want = [_np(t) for t in eager]
    got = stax.interpret(text, "forward", *xs)
    assert len(got) == len(want)
    for k, (g, w) in enumerate(zip(got, want)):
        _assert_bitwise(g, w, f"result #{k} against eager")
    lowered = stax.run_pipeline(text, LOWER)
    for k, (g, w) in enumerate(zip(stax.interpret(lowered, "forward", *xs), got)):
        _assert_bitwise(g, w, f"lowered result #{k}")
    for k, (g, w) in enumerate(zip(_run_compiled(text, xs), got)):
        _assert_bitwise(g, w, f"compiled result #{k}")
    return text


# ---------------------------------------------------------------------------
# Every dtype
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", DTYPES, ids=_name)
def test_casts_out(dtype):
    """x.to(every dtype). Floats convert to integers where C++ defines it
    (in range, truncating toward zero; uint8 from non-negative values);
    integers wrap; f16/bf16 round to nearest even, via float."""
    x = _values(dtype)
    if dtype.is_floating_point:
        x = torch.where(x.abs() < 100, x, x / 64)   # every int type holds it
        u = x.abs()
    else:
        u = x
    _check(lambda a, b: (a.float(), a.double(), a.half(), a.bfloat16(),
                         a.long(), a.int(), a.short(), a.to(torch.int8),
                         b.byte(), a.bool()), x, u)


@pytest.mark.parametrize("dtype", DTYPES, ids=_name)
def test_casts_in(dtype):
    """Every dtype .to(dtype): float32 and float64 (rounded twice to f16 and
    bf16, as PyTorch does), int64 (wrapped), uint8 and bool."""
    f = _values(torch.float32, seed=2)
    d = torch.tensor([1 + 2 ** -8 + 2 ** -40, 1 + 2 ** -11 + 2 ** -40,
                      -(1 + 2 ** -24 + 2 ** -50), 70000.5, 1e-9, 3.75],
                     dtype=torch.float64)
    if not dtype.is_floating_point and dtype != torch.bool:
        info = torch.iinfo(dtype)
        lo = 0 if dtype == torch.uint8 else max(info.min, -(2 ** 31))
        f = f.clamp(lo, min(info.max, 2 ** 31 - 1))
        d = d.clamp(lo, min(info.max, 2 ** 31 - 1))
    l = torch.tensor([0, 1, -1, 255, 256, -129, 2 ** 24 + 2 ** 16 + 1,
                      2 ** 40 + 3, -(2 ** 62)])
    u = _values(torch.uint8, seed=3)
    b = _values(torch.bool, seed=4)
    _check(lambda f, d, l, u, b: (f.to(dtype), d.to(dtype), l.to(dtype),
                                  u.to(dtype), b.to(dtype)),
           f, d, l, u, b)


@pytest.mark.parametrize("dtype", DTYPES, ids=_name)
def test_arithmetic(dtype):
    """+, -, * (wrapping for integers, rounded per op for f16/bf16), / for
    floats, with tensors and with Python numbers."""
    x, y = _values(dtype), _values(dtype, seed=5)
    if dtype == torch.bool:
        _check(lambda a, b: (a + b, a * b, a & b, a | b, a ^ b, ~a), x, y)
    elif dtype.is_floating_point:
        z = _nonzero(dtype)
        _check(lambda a, b, c: (a + b, a - b, a * b, a / c, -a, a.abs(),
                                a * 0.1 + 1.5, 2.5 - a, a / 3.0), x, y, z)
    else:
        _check(lambda a, b: (a + b, a - b, a * b, -a, a.abs(), a * 3 + 7,
                             a - 100, ~a, a & b, a | b, a ^ b,
                             torch.clamp(a, 1, 100)), x, y)


@pytest.mark.parametrize("dtype", DTYPES, ids=_name)
def test_comparisons_and_selection(dtype):
    x, y = _values(dtype), _values(dtype, seed=6)
    one = True if dtype == torch.bool else 1
    _check(lambda a, b: (a < b, a <= b, a == b, a != b, a > one, a >= one,
                         torch.maximum(a, b), torch.minimum(a, b),
                         torch.where(a > b, a, b)), x, y)


@pytest.mark.parametrize("dtype", DTYPES, ids=_name)
def test_reductions(dtype):
    """sum (integers and bools in int64; floats with exact partial sums, so
    that any order gives the rounded exact sum), max/min and their
    positions."""
    x = _values(dtype, n=24).reshape(4, 6)
    if dtype.is_floating_point:
        x = (x.float() * 4).round().clamp(-60, 60).div(4).to(dtype)
    if dtype == torch.bool:
        _check(lambda a: (a.sum(), a.sum(1), a.any(1), a.all(0)), x)
    else:
        _check(lambda a: (a.sum(), a.sum(1), a.amax(1), a.amin(0),
                          a.argmax(1), *a.max(0)), x)


@pytest.mark.parametrize("dtype", DTYPES, ids=_name)
def test_scatters(dtype):
    """index_put and scatter_add accumulate in the element type (integers
    wrap, bools or); overwrites at distinct positions."""
    if dtype.is_floating_point:
        x = _values(dtype, n=6)
        v = (_values(torch.float32, n=5, seed=11) * 4).round().div(4).to(dtype)
    else:
        x, v = _values(dtype, n=6), _values(dtype, n=5, seed=11)
    i = torch.tensor([0, 5, 0, 2, 5])
    j = torch.tensor([4, 1, 3])
    _check(lambda a, b, i, j: (a.index_put((i,), b, accumulate=True),
                               a.scatter_add(0, i, b),
                               a.index_put((j,), b[:3]),
                               a.index_add(0, i, b)), x, v, i, j)


# ---------------------------------------------------------------------------
# uint8
# ---------------------------------------------------------------------------

U = torch.tensor([0, 1, 2, 100, 127, 128, 200, 254, 255], dtype=torch.uint8)
V = torch.tensor([255, 3, 254, 200, 129, 128, 100, 2, 1], dtype=torch.uint8)
I8 = torch.tensor([-128, -1, 0, 1, 127, -56, 56, 3, -3], dtype=torch.int8)


def test_uint8_wraps_modulo_256():
    _check(lambda a, b: (a + b, a - b, a * b, -a, ~a, a + 200, a - 10,
                         a * 3, a + (-5), 7 - a), U, V)


def test_uint8_promotion():
    """uint8 with int8 is int16 (200 > -56, 200 + -56 = 144), with int16
    int16, with int32 int32; a bool or a 0-d integer keeps uint8; with a
    float tensor or number, the float type."""
    text = _check(lambda a, b, s, w, t, h, z: (
        a + b, a < b, a * b, b - a, a + s, w * a, a + t, a + z, a + h,
        a * 1.5, a / 2),
        U, I8, I8.short() * 200, I8.int() * 70000, U > 100,
        torch.linspace(-4, 4, 9).half(), torch.tensor(-1, dtype=torch.int8))
    assert "tensor<9xui8>, tensor<9xi8> -> tensor<9xi16>" in stax.run_pipeline(text)


def test_uint8_comparisons_are_unsigned():
    _check(lambda a, b: (a < b, a > 127, a >= 128, a == 255, a > -1,
                         torch.maximum(a, b), a.amax(), a.argmax(),
                         a.sort()[0]), U, V)


def test_uint8_images_to_float():
    """The usual input pipeline: uint8 images scaled to [-1, 1]."""
    img = torch.randint(0, 256, (2, 3, 5, 5), dtype=torch.uint8,
                        generator=torch.Generator().manual_seed(7))
    _check(lambda x: ((x.float() / 255 - 0.5) / 0.5, x.double() * (1 / 255),
                      x.half() / 255), img)
    _check(lambda x: (x.float() / 255, (x > 128).sum()), img)


def test_uint8_from_float_and_int():
    f = torch.tensor([0.0, 0.5, 1.9, 100.2, 127.9, 128.0, 200.7, 254.99, 255.0])
    l = torch.tensor([-1, 256, 257, -256, 1000, 5, -129, 128, 255])
    _check(lambda a, b: (a.byte(), a.to(torch.uint8) + 1, b.byte(),
                         b.to(torch.int8).byte()), f, l)


def test_uint8_shape_ops_and_constants():
    _check(lambda a, b: (torch.cat([a, b]) * 2,
                         a + torch.tensor([250, 3, 9, 1, 2, 3, 4, 5, 6],
                                          dtype=torch.uint8),
                         torch.nn.functional.pad(a, (1, 2), value=250),
                         a.flip(0)[::2] + 200,
                         torch.full((9,), 250, dtype=torch.uint8) + a), U, V)


# ---------------------------------------------------------------------------
# f16 and bf16 rounding
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16], ids=_name)
def test_half_rounds_each_result(dtype):
    """Each op is computed in float and rounded to nearest even: products
    and sums that need rounding, ties, overflow to infinity."""
    eps = torch.finfo(dtype).eps
    big = torch.finfo(dtype).max
    x = torch.tensor([1 + eps, 1 + 3 * eps, 3.0, big, -big, 1e-3, 0.1, 7.0],
                     dtype=dtype)
    y = torch.tensor([1 + eps, eps / 2, 1 / 3, 2.0, 2.0, 1e-3, 0.2, 1 / 7],
                     dtype=dtype)
    _check(lambda a, b: (a * b, a + b, a - b, a / b, a * a * a,
                         (a + b) * (a - b)), x, y)
    ties = torch.tensor([1 + eps / 2, 1 + 3 * eps / 2, 2 + eps, -1 - eps / 2],
                        dtype=torch.float32)
    _check(lambda t: t.to(dtype), ties)


@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16, torch.float32,
                                   torch.float64, torch.int32, torch.uint8], ids=_name)
def test_signbit_and_copysign_read_the_sign_bit(dtype):
    """signbit is the sign bit: set for -0.0 and for a NaN with the bit set
    (x86's 0/0 and inf - inf), which no comparison sees; copysign copies
    it. Compiled code said False for every NaN."""
    if dtype.is_floating_point:
        nan = torch.tensor(float("nan"), dtype=dtype)
        x = torch.tensor([-0.0, 0.0, -1.5, 2.0, float("inf"), -float("inf"), 0.0, 0.0],
                         dtype=dtype)
        x[6], x[7] = nan, -nan
    else:
        x = torch.tensor([0, 1, 3, 7, 100, 0, 2, 5], dtype=dtype)
        if dtype != torch.uint8:
            x = x - 4
    y = torch.tensor([1.0, -2.0, 3.0, -4.0, 5.0, -6.0, 7.0, -8.0], dtype=torch.float32)
    _check(lambda a, b: (torch.signbit(a), torch.copysign(b, a), a * 0 / (a * 0)),
           x, y)


def test_half_powers_of_every_value_are_eager_s():
    """Eager's float16 pow-by-scalar calls pow for every element, with no
    sqrt/rsqrt special cases (pow(-0, 0.5) = +0, pow(-inf, 0.5) = inf,
    pow(-0, -0.5) = inf, pow(-inf, -0.5) = 0); the other exponents' special
    products round to the same values. Every float16 bit pattern."""
    x = torch.arange(-32768, 32768, dtype=torch.int32).to(torch.int16).view(torch.float16)
    _check(lambda a: tuple(a ** e for e in (0.5, -0.5, 2, 3, -1, -2, 1.7)), x)


@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16, torch.float32,
                                   torch.float64], ids=_name)
def test_add_with_alpha_rounds_as_eager_s_kernel(dtype):
    """Eager's add/sub/rsub with alpha: fma(b, alpha, a) rounded once in
    float and double (a 1-ulp difference in about 1 of 5 float32 sums when
    the product was rounded first), in float then rounded for bfloat16,
    and the product rounded to half first in float16, whose alpha of 1e-8
    is 0 (inf + 0 * inf is NaN there). 1024 elements: eager's vector loop."""
    g = torch.Generator().manual_seed(5)
    a = (torch.randn(1024, generator=g) * 100).to(dtype)
    b = (torch.randn(1024, generator=g) * 100).to(dtype)
    a[:4] = torch.tensor([float("inf"), -0.0, 60000.0, 1.0])
    b[:4] = torch.tensor([float("inf"), 0.0, 60000.0, -1.0])
    _check(lambda x, y: (torch.add(x, y, alpha=0.3), torch.sub(x, y, alpha=-2.5),
                         torch.rsub(x, y, alpha=0.7), torch.add(x, y, alpha=1e-8),
                         x.add(1.5, alpha=3), torch.add(x, y, alpha=1)), a, b)


@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16], ids=_name)
@pytest.mark.parametrize("itype", [torch.int32, torch.int64, torch.int16],
                         ids=_name)
def test_integers_round_to_half_before_mixed_arithmetic(dtype, itype):
    """int op half: eager casts the integer to the half type first, then
    computes in float32 (-46000 + 10 is -46016 + 10 -> -46016 in float16,
    not -45990 -> -45984); comparisons compare the rounded integer
    (2049 == 2048.0 in float16). Interpreted, lowered and compiled."""
    i = torch.tensor([-32000 if itype == torch.int16 else -46000, 2049, 30001,
                      257, -129, 7], dtype=itype)
    h = torch.tensor([10.0, 2048.0, 3.0, 256.0, -128.0, 0.5], dtype=dtype)
    _check(lambda a, b: (a + b, b - a, a * b, a == b, a > b,
                         torch.maximum(a, b), a / b), i, h)


# ---------------------------------------------------------------------------
# The bridge
# ---------------------------------------------------------------------------


def test_bridge_dtypes():
    """What stax.interpret takes and gives back: numpy's twin of every
    dtype, float32 for bf16 results; a bf16 argument as a torch.bfloat16
    tensor, uint16 words or float32 (rounded)."""
    fn = lambda b, h, s, u, i: (b * 2, h, s + 1, u + 1, i)
    b = torch.tensor([1.5, -3.0, 1 + 2 ** -7], dtype=torch.bfloat16)
    h = torch.tensor([0.1, 2.0, -1.0], dtype=torch.float16)
    s = torch.tensor([-32768, 0, 32767], dtype=torch.int16)
    u = torch.tensor([0, 128, 255], dtype=torch.uint8)
    i = torch.tensor([-128, 0, 127], dtype=torch.int8)
    text = stax.import_torch(fn, b, h, s, u, i)
    want = [_np(t) for t in fn(b, h, s, u, i)]
    assert [w.dtype for w in want] == [np.float32, np.float16, np.int16,
                                       np.uint8, np.int8]
    words = b.view(torch.int16).numpy().view(np.uint16)
    for arg in (b, words, b.float().numpy(),
                (b.float() + 2 ** -12).numpy()):   # float32 rounds to b
        got = stax.interpret(text, "forward", arg, h, s, u, i)
        for k, (g, w) in enumerate(zip(got, want)):
            _assert_bitwise(g, w, f"result #{k}")
    # A bf16 result converts back to the same bf16 tensor, bit for bit.
    back = torch.from_numpy(stax.interpret(text, "forward", b, h, s, u, i)[0])
    assert torch.equal(back.bfloat16().view(torch.int16),
                       (b * 2).view(torch.int16))
    with pytest.raises(stax.StaxError, match=r"argument #1 has type 'tensor<3xbf16>'"):
        stax.interpret(text, "forward", b, words, s, u, i)


def test_uint8_and_int16_compile():
    """stax.compile takes and returns uint8 and int16 tensors."""
    fn = lambda a, s: ((a + 100) * 3, s * 3, (a > 127) | (s < 0))
    a = _values(torch.uint8, n=40).reshape(5, 8)
    s = _values(torch.int16, n=40, seed=9).reshape(5, 8)
    want = fn(a, s)
    got = stax.compile(fn)(a, s)
    for g, w in zip(got, want):
        assert g.dtype == w.dtype and torch.equal(g, w)


@pytest.mark.parametrize("dtype", INTS, ids=_name)
def test_shifts(dtype):
    # PyTorch's shifts compute in int64 (int64) or int32 (narrower types,
    # truncated back) with the count masked to that width: counts past the
    # width, negative counts and the extremes all match eager bit for bit.
    x = _values(dtype)
    g = torch.Generator().manual_seed(2)
    counts = torch.randint(-3, 70, (24,), generator=g).to(torch.int64)
    y = counts.to(dtype) if dtype != torch.uint8 else counts.clamp(min=0).to(dtype)
    _check(lambda a, b: (a << b, a >> b, torch.bitwise_left_shift(a, b),
                         torch.bitwise_right_shift(a, b)), x, y)
    _check(lambda a: (a << 3, a >> 5, a >> 63), x)


def test_cat_promotes_mixed_dtypes():
    # PyTorch's cat promotes its inputs to their common type; tp.cat takes
    # one dtype, so the importer converts first.
    f32, i64 = _values(torch.float32).view(4, 6), _values(torch.int64).view(4, 6)
    f64, b = _values(torch.float64)[:6].view(1, 6), _values(torch.bool)[:6].view(1, 6)
    u8, i8 = _values(torch.uint8)[:6].view(1, 6), _values(torch.int8)[:6].view(1, 6)
    _check(lambda a, c, d: torch.cat([a, c, d]), f32, i64, f64)
    _check(lambda c, d: torch.cat([c, d]), i64, b)
    _check(lambda c, d: torch.cat([c, d], 0), u8, i8)


def test_uint8_any_all_stay_uint8():
    # PyTorch 1.13 returns uint8 (0 or 1) from any/all of a uint8 tensor
    # (it failed to import and ran in PyTorch).
    u = (_values(torch.uint8) % 3).view(4, 6)
    _check(lambda a: (a.any(1), a.all(), a.all(0, keepdim=True), a.any()), u)


def test_masked_fill_with_a_tensor_keeps_the_filled_dtype():
    # masked_fill(int, mask, float 0-d tensor) stays int (the value is
    # converted, truncated); it failed to import and ran in PyTorch.
    i, u = _values(torch.int64), _values(torch.uint8)
    f, b = _values(torch.float32), _values(torch.bool)
    v = torch.tensor(-2.75)
    _check(lambda a, c, d, e, v: (a.masked_fill(a > 0, v), c.masked_fill(c > 9, -v),
                                  d.masked_fill(d > 0, v.double()),
                                  e.masked_fill(e, v)),
           i, u, f, b, v)


def test_comparison_with_a_wider_zero_dim_tensor():
    # int8 < an int64 0-d tensor compares in int8 (eager converts the 0-d
    # operand, wrapping 300 to 44); the lowering compared in int64.
    a = torch.tensor([-100, 50, 100, 120, -128, 44], dtype=torch.int8)
    s = torch.tensor(300)
    _check(lambda a, s: (a < s, a == s, a >= s, a.float() < s.double() / 7,
                         a.unsqueeze(0) != s.reshape(1, 1)), a, s)


def test_stack_promotes_mixed_dtypes():
    # stack promotes as cat does (it failed to import and ran in PyTorch).
    f32, i64 = _values(torch.float32).view(4, 6), _values(torch.int64).view(4, 6)
    b, u8 = _values(torch.bool).view(4, 6), _values(torch.uint8).view(4, 6)
    h = _values(torch.float16).view(4, 6)
    _check(lambda a, c: torch.stack([a, c]), f32, i64)
    _check(lambda c, d, e: torch.stack([c, d, e], -1), b, u8, i64)
    _check(lambda a, e: torch.stack([e, a], 1), f32, h)


# ---------------------------------------------------------------------------
# Python numbers as operands
# ---------------------------------------------------------------------------

# A Python bool is 1 or 0 wherever it meets an integer (an i1 `true` read
# as a signed integer is -1: `a + True` once subtracted one), a float or
# an int becomes a bool as `!= 0` (-0.5 and 2 are true, not their low
# bit), int64 scalars past 2^53 stay exact, and a bound of clamp takes
# part in type promotion (an integer tensor clamped to 0.5 gives floats;
# uint8 wraps -2 to 254, as eager converts it).
SCALAR_OPS = [
    ("add", lambda a, s: a + s), ("rsub", lambda a, s: s - a),
    ("mul", lambda a, s: a * s), ("floordiv", lambda a, s: a // s),
    ("fmod", lambda a, s: torch.fmod(a, s)), ("eq", lambda a, s: a == s),
    ("lt", lambda a, s: a < s), ("clamp_min", lambda a, s: torch.clamp(a, min=s)),
    ("clamp_max", lambda a, s: torch.clamp(a, max=s)),
    ("masked_fill", lambda a, s: a.masked_fill(a == a.flip(0), s)),
    ("where", lambda a, s: torch.where(a == a.flip(0), a, s)),
    ("full_like", lambda a, s: torch.full_like(a, s) * 1),
    ("add_alpha", lambda a, s: torch.add(a, 5, alpha=s)),
    ("xor", lambda a, s: a ^ s), ("ror", lambda a, s: s | a),
    ("iand", lambda a, s: a.clone().bitwise_and_(s)),
    ("xlogy", lambda a, s: torch.xlogy(a, s)),
]
SCALARS = [True, False, 3, -2, 2.5, -0.5, 2 ** 60 + 1]


@pytest.mark.parametrize("dtype", [torch.int64, torch.int8, torch.uint8,
                                   torch.bool, torch.float32], ids=_name)
def test_python_scalars(dtype):
    # A 0-d tensor too: beside it a number tensor of the default dtype
    # (torch.tensor(3), int64) would promote where eager's wrapped number
    # does not (int32 ^ 3 is int32).
    checked = 0
    for x in (_values(dtype), _values(dtype)[5]):
        for name, op in SCALAR_OPS:
            scalars = []
            for s in SCALARS:
                try:
                    op(x, s)
                except (RuntimeError, TypeError):
                    continue   # eager refuses the combination (a float alpha...)
                scalars.append(s)
            if not scalars:
                continue
            fn = lambda a: tuple(op(a, s) for s in scalars)
            _check(fn, x)
            for s, got, want in zip(scalars, stax.compile(fn)(x), fn(x)):
                assert got.dtype == want.dtype, f"{name} {s!r}"
                _assert_bitwise(_np(got), _np(want), f"stax.compile {name} {s!r}")
                checked += 1
    assert checked >= 80


@pytest.mark.parametrize("dtype", FLOATS, ids=_name)
def test_rounding_division_matches_eager(dtype):
    """torch.div(rounding_mode=...) and // on floats, bit for bit: trunc of
    the quotient rounded to the element type (35 / 0.001f rounds to 35000,
    which a double quotient truncates to 34999), floor as eager's
    div_floor_floating (the quotient of a - fmod(a, b), stepped and
    rounded; bf16 rounds every step). The reference is eager one element
    at a time: its vectorized f16 path can differ from its own scalar one."""
    g = torch.Generator().manual_seed(7)
    n = 200
    a = torch.randn(n, generator=g, dtype=torch.float64) * torch.exp(
        torch.randn(n, generator=g, dtype=torch.float64) * 3)
    b = torch.randn(n, generator=g, dtype=torch.float64) * torch.exp(
        torch.randn(n, generator=g, dtype=torch.float64) * 3)
    a[:20] = torch.tensor([0., -0., float("inf"), -float("inf"), float("nan")] * 4,
                          dtype=torch.float64)
    b[:20:3] = 0
    a[20:60] = torch.arange(-20, 20, dtype=torch.float64) * 7
    b[20:60] = torch.tensor([0.001, 0.1, 0.3, -0.7, 3.0] * 8, dtype=torch.float64)
    a, b = a.to(dtype), b.to(dtype)
    fns = [lambda x, y: torch.div(x, y, rounding_mode="trunc"),
           lambda x, y: torch.div(x, y, rounding_mode="floor"),
           lambda x, y: x // y, lambda x, y: (x // 0.1, torch.div(x, 0.001, rounding_mode="trunc"))]
    for fn in fns:
        want = [torch.stack(parts) for parts in zip(*[
            pytree.tree_flatten(fn(a[k:k + 1], b[k:k + 1]))[0] for k in range(n)])]
        want = [_np(w.reshape(-1)) for w in want]
        text = stax.import_torch(fn, a, b)
        got = stax.interpret(text, "forward", a, b)
        for k, (g_, w) in enumerate(zip(got, want)):
            _assert_bitwise(g_, w, f"result #{k} against eager")
        lowered = stax.run_pipeline(text, LOWER)
        for k, (g_, w) in enumerate(zip(stax.interpret(lowered, "forward", a, b), want)):
            _assert_bitwise(g_, w, f"lowered result #{k}")
        for k, (g_, w) in enumerate(zip(_run_compiled(text, [a, b]), want)):
            _assert_bitwise(g_, w, f"compiled result #{k}")


# ---------------------------------------------------------------------------
# Operators in integer, bool and reduced-precision dtypes (found by running
# PyTorch's OpInfo samples in every dtype through stax.compile)
# ---------------------------------------------------------------------------

def _compiled_equals_eager(fn, *xs):
    """stax.compile(fn) without a fallback warning, every result of eager's
    dtype and bit for bit equal to it."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        got = pytree.tree_flatten(stax.compile(fn)(*xs))[0]
    ran = [str(w.message) for w in caught if "stax.compile" in str(w.message)]
    assert not ran, ran
    want = pytree.tree_flatten(fn(*xs))[0]
    assert len(got) == len(want)
    for k, (g, w) in enumerate(zip(got, want)):
        assert g.dtype == w.dtype, f"result #{k}: {g.dtype} vs {w.dtype}"
        _assert_bitwise(_np(g), _np(w), f"result #{k}")


def test_integer_products_take_truncated_scalars():
    # Eager's integer addmv/addbmm convert beta and alpha to integers (1.5
    # scales by 1): the decomposition multiplied by 1.5 and returned floats.
    g = torch.Generator().manual_seed(3)
    c, a = torch.randint(-9, 9, (3,), generator=g), torch.randint(-9, 9, (3, 4), generator=g)
    v, b = torch.randint(-9, 9, (4,), generator=g), torch.randint(-9, 9, (2, 3, 4), generator=g)
    m = torch.randint(-9, 9, (2, 4, 3), generator=g)
    _compiled_equals_eager(lambda c, a, v, b, m: (
        torch.addmv(c, a, v, beta=1.5, alpha=2.5),
        torch.addmv(c, a, v, beta=0.2, alpha=0.6),
        torch.addbmm(c.view(3, 1), b, m, beta=-1.5, alpha=2.7)), c, a, v, b, m)


@pytest.mark.parametrize("dtype", [torch.int8, torch.uint8, torch.int16, torch.int32],
                         ids=_name)
def test_narrow_integer_products_compile(dtype):
    # Products of narrow integers wrap modulo 2^bits; they had no code
    # generation (only f32, f64, i64) and ran in PyTorch.
    x, w = _values(dtype).view(4, 6), _values(dtype, seed=5).view(6, 4)
    b = _values(dtype, seed=6)[:4]
    _check(lambda x, w: (x @ w, torch.mm(w, x), torch.bmm(x.view(2, 2, 6), w.view(2, 6, 2))),
           x, w)
    _compiled_equals_eager(lambda x, w, b: (
        torch.nn.functional.linear(x, w.t(), b), torch.addmm(b, x, w),
        torch.nn.functional.bilinear(x[:, :3], x[:, 3:5], w.view(4, 3, 2)[:2]),
        torch.addbmm(w[:2, :2], x.view(2, 2, 6), w.view(2, 6, 2)),
        torch.mv(x, w[:, 0]), torch.dot(x[0], w[:, 1])), x, w, b)


def test_integer_average_pools_truncate():
    # int64 average pools divide in integers, truncating toward zero (-7/2
    # is -3), as eager's kernels do; the decomposition returned floats.
    x = torch.randint(-50, 50, (2, 3, 7, 6, 5), generator=torch.Generator().manual_seed(2))
    F = torch.nn.functional
    _compiled_equals_eager(lambda x: (
        F.avg_pool1d(x[0, :, 0, 0], 3, 2, 1),
        F.avg_pool1d(x[0, :, 0, 0], 2, 1, 1, count_include_pad=False),
        F.avg_pool2d(x[:, :, 0], 3, 2, 1, ceil_mode=True),
        F.avg_pool2d(x[:, :, 0], 2, divisor_override=3),
        F.avg_pool3d(x, 2, 2, 1, count_include_pad=False)), x)


@pytest.mark.parametrize("dtype", [torch.bool, torch.uint8, torch.int32], ids=_name)
def test_scatter_reductions_keep_the_dtype(dtype):
    # Sums and products of bools (or, and) and narrow integers (wrapping)
    # stay in the input's type; they came back as int64.
    x = _values(dtype).view(4, 6)
    src = _values(dtype, seed=4).view(4, 6)
    i = torch.randint(0, 4, (4, 6), generator=torch.Generator().manual_seed(1))
    _compiled_equals_eager(lambda x, s, i: (
        x.scatter_reduce(0, i, s, "sum"), x.scatter_reduce(0, i, s, "prod"),
        x.scatter_reduce(0, i, s, "amax", include_self=False),
        x.scatter_reduce(0, i, s, "amin"), x.scatter(0, i, s, reduce="add"),
        x.index_reduce(0, i[:, 0], s, "amax") if dtype != torch.bool else x), x, src, i)


def test_shifts_by_zero_dim_tensors():
    # A 0-d count indexed a table as a Python number (its value read while
    # tracing): the function ran in PyTorch.
    x = _values(torch.int64)
    _compiled_equals_eager(lambda x, c: (x << c, x >> c, torch.bitwise_left_shift(x[3], c)),
                           x, torch.tensor(3))


def test_uint8_numbers_promote_as_integers():
    # A float number beside a uint8 tensor promotes to float (uint8 was
    # taken for a float type: ldexp's 2.0 became a uint8 constant and the
    # module did not verify); prims.div of uint8 truncates.
    u = _values(torch.uint8)
    _compiled_equals_eager(lambda u, e: (torch.ldexp(u, e % 8), 2.0 ** (e % 8),
                                         torch.pow(3, e % 4)), u, _values(torch.uint8, seed=3))


@pytest.mark.parametrize("dtype", [torch.bool, torch.uint8, torch.int64], ids=_name)
def test_float_functions_of_integers(dtype):
    # acosh, asinh, atanh, entr and log_ndtr convert integer and bool
    # inputs to float first, as eager does: on bools the decompositions
    # failed to trace (ran in PyTorch), on uint8 -x wrapped (log_ndtr gave
    # inf), on integers entr's -inf did not fit. Within the math functions'
    # error bound of float32 (docs/Numerics.md: a few ulp).
    x = _values(dtype) if dtype == torch.bool else _values(dtype) % 9 - (dtype != torch.uint8) * 4
    fns = lambda x: (torch.acosh(x), torch.asinh(x), torch.atanh(x),
                     torch.special.entr(x), torch.special.log_ndtr(x))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        got = stax.compile(fns)(x)
    assert not [w for w in caught if "stax.compile" in str(w.message)]
    for k, (g, w) in enumerate(zip(got, fns(x))):
        assert g.dtype == w.dtype == torch.float32, f"result #{k}"
        torch.testing.assert_close(g, w, rtol=8 * 2.0 ** -24, atol=0, equal_nan=True)


def test_reduced_precision_norm_statistics_keep_the_input_type():
    # The CPU kernels return layer/batch/group norm's mean and rstd in the
    # input's type (bf16); PyTorch 1.13's fake tensors said float32, so
    # they, and everything computed from them, came back as float32.
    x = torch.randn(3, 4, 5, generator=torch.Generator().manual_seed(0)).bfloat16()
    aten = torch.ops.aten
    fns = lambda x: (aten.native_layer_norm(x, [5], None, None, 1e-5)[1] * x,
                     aten.native_batch_norm(x, None, None, None, None, True, 0.1, 1e-5)[2],
                     aten.native_group_norm(x, None, None, 3, 4, 5, 2, 1e-5)[1] + 1)
    got, exact = stax.compile(fns)(x), fns(x.double())
    for k, (g, w) in enumerate(zip(got, fns(x))):
        assert g.dtype == w.dtype == torch.bfloat16, f"result #{k}: {g.dtype}"
    for k, (g, e) in enumerate(zip(got, exact)):
        # Statistics computed in float and rounded once to bf16 (eager's own
        # kernels are up to 9 bf16 ulp off), then one more bf16 rounding:
        # within 2 ulp of the float64 evaluation.
        torch.testing.assert_close(g.double(), e, rtol=2 * 2.0 ** -8, atol=0)


def test_float64_numbers_stay_double():
    # A Python float beside a float64 tensor is held in double, as eager
    # holds it: index_fill and xlogy's number went through float32.
    y = torch.rand(6, dtype=torch.float64, generator=torch.Generator().manual_seed(0)) + 0.5
    _compiled_equals_eager(lambda y: (y.index_fill(0, torch.tensor([1, 3]), 0.1),
                                      torch.xlogy(0.1, y) * 0, torch.special.xlog1py(0.1, y) * 0,
                                      torch.xlogy(0.1, y) - 0.1 * torch.log(y)), y)


def test_integer_remainder_by_a_zero_number():
    # A remainder or fmod by the number 0 compiles (it stayed a tp op and
    # ran in PyTorch): empty, nothing to divide; non-empty, the error eager
    # raises (tracing runs it; stax-run/jit-integer-division.mlir checks
    # the compiled code's own report).
    f = stax.compile(lambda x: (x % 0, torch.fmod(x, 0)))
    with pytest.raises(RuntimeError, match="ZeroDivisionError|division by zero"):
        f(torch.arange(3))
    _compiled_equals_eager(lambda x: (x % 0, torch.fmod(x, 0)), torch.arange(0))


def test_log_ndtr_tails():
    # log(ndtr(x)) underflowed to -inf below x = -13 (erfc underflows) and
    # rounded to 0 above x = 5 (log of a float near 1); its gradient was
    # NaN below -1 (0 * inf through the untaken branch). Now eager's
    # formula (erfcx below -1, log1p above): in float32 against float64,
    # within 8 ulp on the left (erfcx and log, a few ulp each, and t^2),
    # within 32 on [-1, 3] (erfc's relative error carries over; eager's is
    # 11), and never 0 on the right.
    f = torch.special.log_ndtr
    compiled = stax.compile(f)
    for lo, hi, ulps in [(-40.0, -1.0, 8), (-1.0, 3.0, 32)]:
        x = torch.linspace(lo, hi, 2001, requires_grad=True)
        x64 = x.detach().double().requires_grad_()
        want = f(x64)
        want_grad = torch.autograd.grad(want.sum(), x64)[0]
        got = compiled(x)
        got_grad = torch.autograd.grad(got.sum(), x)[0]
        torch.testing.assert_close(got.double(), want.detach(), rtol=ulps * 2.0 ** -24, atol=0)
        torch.testing.assert_close(got_grad.double(), want_grad, rtol=ulps * 2.0 ** -24, atol=0)
    right = compiled(torch.linspace(5.0, 12.0, 50))
    assert bool((right < 0).all())


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64, torch.bfloat16,
                                   torch.int64, torch.int32, torch.uint8], ids=_name)
def test_linspace_and_logspace_are_eager_constants(dtype):
    # PyTorch's reference decomposition computes in float64 and rounds once:
    # one ulp from eager's kernel, which steps in the result type from both
    # ends and, for integers, truncates vectorized partial sums
    # (linspace(0, -3, 10) has four -1s). Eager's values are baked in.
    cases = [(0, -3, 50), (0, -3, 10), (0.1, 7.3, 33), (3, -100, 13), (2, 2, 1), (1, 2, 0)]
    for a, b, n in cases:
        if dtype == torch.uint8 and min(a, b) < 0:
            continue
        fn = lambda x: (x + torch.linspace(a, b, n, dtype=dtype),
                        torch.logspace(a / 10, b / 10, n, dtype=dtype),
                        torch.logspace(a / 10, b / 10, n, base=2.0, dtype=dtype))
        _compiled_equals_eager(fn, torch.zeros((), dtype=dtype))


@pytest.mark.parametrize("dtype", [torch.uint8, torch.int8, torch.int16,
                                   torch.int32, torch.int64])
def test_gcd_and_lcm_compile_with_eager_values(dtype):
    """gcd is Euclid's loop, unrolled for the longest chain of the dtype
    (consecutive Fibonacci numbers); lcm is |a / gcd * b| with C's int
    promotion of 8- and 16-bit operands. They ran in PyTorch (no tp op).
    Random values, zeros, the extremes and every Fibonacci pair, exactly."""
    info = torch.iinfo(dtype)
    g = torch.Generator().manual_seed(0)
    fib = [0, 1]
    while fib[-1] <= info.max:
        fib.append(fib[-1] + fib[-2])
    edge = [0, info.min, info.max, 1, -1 if info.min else 0]
    a = torch.cat([torch.randint(info.min, info.max, (500,), generator=g),
                   torch.tensor(fib[1:-1] + edge + edge)])
    b = torch.cat([torch.randint(info.min, info.max, (500,), generator=g),
                   torch.tensor(fib[:-2] + edge + edge[::-1])])
    a, b = a.to(dtype), b.to(dtype)
    b[::7] = 0
    for op in (torch.gcd, torch.lcm):
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            got = stax.compile(lambda a, b: op(a, b))(a, b)
        want = op(a, b)
        assert got.dtype == want.dtype and torch.equal(got, want), op
    # Mixed dtypes promote first, as eager does.
    mixed = stax.compile(lambda a, b: torch.gcd(a, b))(a[:8], b[:8].long())
    assert torch.equal(mixed, torch.gcd(a[:8], b[:8].long()))
