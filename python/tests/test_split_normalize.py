"""--stax-normalize-loops is class 1 (bitwise); --stax-split-reductions is
class 2 (Section 6.5): a split sum stays within the segmented-summation
bound ((n/k - 1) + (k - 1)) u sum|a_i| of the float64 value, max/min/any/all
stay bitwise, and with the default device nothing in the small corpus
splits.

Bounds (first order in u, unit roundoff 2^-24 for f32; SLACK covers the
O(u^2) terms):
  sum  of a_i (computed in f32):  c(n, k) u sum|a_i|, c = (n/k-1)+(k-1)
                                  (k = 1: c = n - 1, the unsplit bound)
  mean = fl(sum / n):             c u sum|x| / n + u |mean|
  var  = fl(sum((x - mu)^2) / (n-1)), mu the computed mean with error
         delta <= the mean bound: since sum(x - mean) = 0 exactly,
         sum((x - mu)^2) = S + n delta^2 with S = sum((x - mean)^2); each
         term d_i^2 carries 3u (subtract, square), the sum c u S, so
         |var - ref| <= ((c + 3) u S + n delta^2) / (n - 1) + u var.
"""

import re
import warnings

import numpy as np
import pytest

import stax
from stax import corpus

warnings.filterwarnings("ignore")

U32 = 2.0 ** -24
SLACK = 1.01

LOWER = "builtin.module(stax-decompose,func.func(stax-lower{target=%s}))"
SPLIT = "builtin.module(func.func(stax-split-reductions%s))"
NORMALIZE = "builtin.module(func.func(stax-normalize-loops))"

from test_lowering_corpus import _modules, assert_same_results

def _assert_bitwise(a_text, b_text, seed_base=0):
    assert_same_results(a_text, b_text, seed_base=seed_base)


# (a) + (c): the corpus.

CASES = [(m, kind, target) for m in corpus.names()
         for kind in ("forward", "mincut") for target in ("cpu", "cuda")]


@pytest.mark.parametrize("name,kind,target", CASES,
                         ids=["-".join(c) for c in CASES])
def test_corpus_normalize_bitwise_and_no_split(name, kind, target):
    modules = dict(_modules(name))
    if kind not in modules:
        pytest.skip("no differentiable input")
    lowered = stax.run_pipeline(modules[kind], LOWER % target)
    normalized = stax.run_pipeline(lowered, NORMALIZE)
    _assert_bitwise(lowered, normalized)
    # Default device (H200): the corpus reductions are short or have many
    # outputs, so the split pass leaves the module unchanged.
    assert stax.run_pipeline(lowered, SPLIT % "") == lowered


def test_corpus_normalize_changes_loops():
    """Normalization does something on the corpus (not a vacuous pass)."""
    changed = 0
    for name in corpus.names():
        for _, text in _modules(name):
            lowered = stax.run_pipeline(text, LOWER % "cuda")
            changed += stax.run_pipeline(lowered, NORMALIZE).count("ranges [")
    assert changed > 0


# (b): long reductions built in tp text.

def _tp(body, arg_ty, res_ty):
    return ("func.func @forward(%%x: %s) -> %s {\n%s\n}\n"
            % (arg_ty, res_ty, body))


def _reduce(op, shape, dims, elt="f32", out=None):
    arg = "tensor<%sx%s>" % ("x".join(map(str, shape)), elt)
    res = out or "tensor<%sx%s>" % (shape[0], elt)
    dims_s = ", ".join(map(str, dims))
    body = ("  %%0 = tp.%s %%x {dims = array<i64: %s>} : %s -> %s\n"
            "  return %%0 : %s" % (op, dims_s, arg, res, res))
    return _tp(body, arg, res)


def _sum_squares(shape):
    arg = "tensor<%dx%dxf32>" % shape
    res = "tensor<%dxf32>" % shape[0]
    body = ("  %%0 = tp.mul %%x, %%x : %s, %s -> %s\n"
            "  %%1 = tp.sum %%0 {dims = array<i64: -1>} : %s -> %s\n"
            "  return %%1 : %s" % (arg, arg, arg, arg, res, res))
    return _tp(body, arg, res)


def _lower_and_split(text):
    lowered = stax.run_pipeline(text, LOWER % "cuda")
    split = stax.run_pipeline(lowered, SPLIT % "")
    return lowered, split


def _segments(split_text):
    """k of each split: a first level whose partial buffer's last dim k is
    the reduction range [k + rem] (0 <= rem < k: the elements that k does
    not divide) of a later (second-level) reduction."""
    nodes = []
    for m in re.finditer(r"stax\.reduction \w+ \[([\d, ]*)\][^:]*: "
                         r"tensor<([^>]*)>", split_text):
        ranges = [int(r) for r in m.group(1).split(",") if r.strip()]
        dims = m.group(2).split("x")[:-1]
        nodes.append((ranges, int(dims[-1]) if dims else None))
    return [last for i, (_, last) in enumerate(nodes)
            if last is not None and any(
                len(r) == 1 and last <= r[0] < 2 * last
                for r, _ in nodes[i + 1:])]


def _coef(n, k):
    """Additions on the longest path: a segment of n // k elements, then
    the k partials and the n % k elements left over."""
    return (n // k - 1) + (k + n % k - 1) if k > 1 else n - 1


def _run(text, x):
    return stax.interpret(text, "forward", x)[0]


SUMS = [
    ("sum_squares_64x16384", _sum_squares((64, 16384)), (64, 16384), 2,
     lambda x: x * x),
    # Algorithm 6.1's k = 13 does not divide 100000: 13 segments of 7692
    # and a tail of 4 elements in the second level.
    ("sum_8x100000", _reduce("sum", (8, 100000), [-1]), (8, 100000), 13,
     lambda x: x),
    ("sum_7x99991_prime", _reduce("sum", (7, 99991), [-1]), (7, 99991), 13,
     lambda x: x),
]


@pytest.mark.parametrize("name,text,shape,k,terms", SUMS,
                         ids=[s[0] for s in SUMS])
def test_split_sum_within_bound(name, text, shape, k, terms):
    lowered, split = _lower_and_split(text)
    assert _segments(split) == [k], split
    x = np.random.default_rng(1).standard_normal(shape).astype(np.float32)
    a = terms(x).astype(np.float32).astype(np.float64)  # the body's values
    ref = a.sum(axis=-1)
    mag = np.abs(a).sum(axis=-1)
    n = shape[-1]
    bound_split = SLACK * _coef(n, k) * U32 * mag
    bound_seq = SLACK * _coef(n, 1) * U32 * mag
    got_split = _run(split, x).astype(np.float64)
    got_seq = _run(lowered, x).astype(np.float64)
    err = np.abs(got_split - ref)
    assert np.all(err <= bound_split), (err.max(), bound_split.min())
    assert np.all(np.abs(got_split - got_seq) <= bound_split + bound_seq)
    print("%s: k=%d max err %.3g, bound %.3g (unsplit err %.3g)" % (
        name, k, err.max(), bound_split.min(),
        np.abs(got_seq - ref).max()))


def test_split_full_sum_within_bound():
    """A sum over both dims of 64x16384 (one output): Algorithm 6.1 asks
    for 128 segments, which do not divide the outer loop (64): the loops
    are merged into one of 2^20 and cut into 128."""
    text = _reduce("sum", (64, 16384), [0, 1], out="tensor<f32>")
    lowered, split = _lower_and_split(text)
    assert _segments(split) == [128], split
    x = np.random.default_rng(2).standard_normal((64, 16384)).astype(
        np.float32)
    a = x.astype(np.float64)
    n, k = a.size, 128
    bound = SLACK * _coef(n, k) * U32 * np.abs(a).sum()
    err = abs(float(_run(split, x)) - a.sum())
    assert err <= bound, (err, bound)


def _mean_bound(x64, k):
    n = x64.shape[-1]
    mean = x64.mean(axis=-1)
    return SLACK * (_coef(n, k) * U32 * np.abs(x64).sum(axis=-1) / n
                    + U32 * np.abs(mean))


def test_split_mean_within_bound():
    text = _reduce("mean", (8, 100000), [-1])
    lowered, split = _lower_and_split(text)
    assert _segments(split) == [13]
    x = np.random.default_rng(3).standard_normal((8, 100000)).astype(
        np.float32) + 3.0
    x64 = x.astype(np.float64)
    ref = x64.mean(axis=-1)
    got = _run(split, x).astype(np.float64)
    assert np.all(np.abs(got - ref) <= _mean_bound(x64, 13))
    seq = _run(lowered, x).astype(np.float64)
    assert np.all(np.abs(got - seq) <= _mean_bound(x64, 13) +
                  _mean_bound(x64, 1))


def test_split_var_within_bound():
    text = _reduce("var", (8, 100000), [-1])
    lowered, split = _lower_and_split(text)
    assert _segments(split) == [13, 13]  # the mean's sum and the var's sum
    x = np.random.default_rng(4).standard_normal((8, 100000)).astype(
        np.float32) * 2.0 + 1.0
    x64 = x.astype(np.float64)
    n = x64.shape[-1]
    ref = x64.var(axis=-1, ddof=1)
    S = ((x64 - x64.mean(axis=-1, keepdims=True)) ** 2).sum(axis=-1)

    def bound(k):
        delta = _mean_bound(x64, k)
        return SLACK * (((_coef(n, k) + 3) * U32 * S + n * delta ** 2)
                        / (n - 1) + U32 * ref)

    got = _run(split, x).astype(np.float64)
    seq = _run(lowered, x).astype(np.float64)
    assert np.all(np.abs(got - ref) <= bound(13))
    assert np.all(np.abs(got - seq) <= bound(13) + bound(1))


EXACT = [
    ("amax", _reduce("amax", (64, 16384), [-1]), (64, 16384), "f32", 2),
    ("amin", _reduce("amin", (8, 100000), [-1]), (8, 100000), "f32", 13),
    ("any", _reduce("any", (8, 100000), [-1], "i1"), (8, 100000), "i1", 13),
    ("all", _reduce("all", (8, 100000), [-1], "i1"), (8, 100000), "i1", 13),
]


@pytest.mark.parametrize("name,text,shape,elt,k", EXACT,
                         ids=[e[0] for e in EXACT])
def test_split_exact_kinds_bitwise(name, text, shape, elt, k):
    lowered, split = _lower_and_split(text)
    assert _segments(split) == [k], split
    rng = np.random.default_rng(5)
    if elt == "i1":
        # Mostly one value, so that any/all are not decided by element 0.
        x = rng.random(shape) < (0.99999 if name == "all" else 0.00001)
        # Row 1 decided only by its last element: the second level's tail
        # (k = 13 leaves 100000 % 13 = 4 elements) where k does not divide.
        x[1] = name == "all"
        x[1, -1] = name != "all"
    else:
        x = rng.standard_normal(shape).astype(np.float32)
        x[0, 12345] = np.nan  # NaN propagates through both levels
        x[1, -1] = np.nan  # also from the tail
        x[2, -2] = -100.0  # the minimum in the tail
    want = _run(lowered, x)
    got = _run(split, x)
    assert want.dtype == got.dtype
    assert np.array_equal(want, got, equal_nan=True)


def test_split_column_reductions():
    """Column reductions split along the reduced rows (their own rule, the
    segment index outermost in the partials): a sum within the segmented
    bound, a max over a prime number of rows bitwise, the extremes and a
    NaN placed in the rows left over."""
    rows, cols = 40000, 64  # k = min(4224, 40000 // 32) = 1250: 32 rows each
    text = _reduce("sum", (rows, cols), [0], out="tensor<%dxf32>" % cols)
    lowered, split = _lower_and_split(text)
    assert "tensor<1250x%dxf32>" % cols in split and "sum [1250]" in split
    x = np.random.default_rng(6).standard_normal((rows, cols)).astype(
        np.float32)
    a = x.astype(np.float64)
    bound = SLACK * _coef(rows, 1250) * U32 * np.abs(a).sum(axis=0)
    assert np.all(np.abs(_run(split, x) - a.sum(axis=0)) <= bound)

    # Prime: of k in [625, 1249], 769 segments of 52 leave the fewest rows
    # over (one).
    rows = 39989
    text = _reduce("amax", (rows, cols), [0], out="tensor<%dxf32>" % cols)
    lowered, split = _lower_and_split(text)
    assert "tensor<769x%dxf32>" % cols in split and "max [770]" in split
    x = np.random.default_rng(7).standard_normal((rows, cols)).astype(
        np.float32)
    x[-1, 3] = 100.0  # the maximum in the row left over
    x[-2, 5] = np.nan
    x[7, 9] = np.nan
    want, got = _run(lowered, x), _run(split, x)
    assert np.array_equal(want, got, equal_nan=True)
    assert got[3] == 100.0 and np.isnan(got[5]) and np.isnan(got[9])


def test_split_cpu_and_short_do_not_split():
    text = _sum_squares((64, 16384))
    lowered = stax.run_pipeline(text, LOWER % "cuda")
    assert stax.run_pipeline(
        lowered, SPLIT % "{target=cpu}") == lowered
    short = stax.run_pipeline(_sum_squares((64, 8192)), LOWER % "cuda")
    assert stax.run_pipeline(short, SPLIT % "") == short


WELFORD = """
func.func @forward(%x: tensor<8x100000xf32>) -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) {
  %w:3 = stax.reduction welford [100000] layout <[1]> : tensor<8xf32>, tensor<8xf32>, tensor<8xf32> {
  ^bb0(%i: index, %r: index):
    %a = affine.apply affine_map<(d0, d1) -> (d0 * 100000 + d1)>(%i, %r)
    %v = stax.load %x[%a] : tensor<8x100000xf32>
    stax.yield %v : f32
  }
  return %w#0, %w#1, %w#2 : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>
}
"""


def test_split_welford():
    """Welford splits into partial triples combined with Chan's formula.
    Welford's update has no closed-form bound as tight as summation's; we
    use the summation bound for the mean and for M2 (the sum of squared
    deviations), with the count exact."""
    split = stax.run_pipeline(WELFORD, SPLIT % "")
    assert "welford_combine [10]" in split
    x = np.random.default_rng(6).standard_normal((8, 100000)).astype(
        np.float32) + 1.0
    x64 = x.astype(np.float64)
    mean, m2, count = stax.interpret(split, "forward", x)
    n, k = 100000, 10
    assert np.array_equal(count, np.full(8, n, np.float32))
    c = _coef(n, k)
    mean_bound = SLACK * (c + 3) * U32 * np.abs(x64).sum(axis=-1) / n
    assert np.all(np.abs(mean - x64.mean(axis=-1)) <= mean_bound)
    S = ((x64 - x64.mean(axis=-1, keepdims=True)) ** 2).sum(axis=-1)
    m2_bound = SLACK * (c + 3) * U32 * S + n * mean_bound ** 2
    assert np.all(np.abs(m2 - S) <= m2_bound)
