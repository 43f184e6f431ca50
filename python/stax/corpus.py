"""Stax model corpus: small PyTorch programs with deterministic inputs.

Every entry is a *pure function of tensors*: parameters are explicit
arguments, never module state, so each function can be traced with
``torch.fx.experimental.proxy_tensor.make_fx`` (forward graph) and with
functorch's ``aot_function`` (joint forward+backward graph).  The corpus is
shared by the op inventory, the importer / dialect tests, the reference
interpreter checks and the benchmarks, so shapes are kept small (batch 2-8,
hidden 16-64) to keep the float64 reference interpreter fast.

``make_inputs()`` returns *fresh* tensors on every call, generated from a
private ``torch.Generator().manual_seed(seed)`` (it never touches the global
RNG).  Tensors are float32 except integer index tensors (int64) and nothing
else.  ``requires_grad=True`` is set on the tensors a training step would
differentiate (weights, biases and, where sensible, activations); never on
integer index tensors or on targets.

Usage::

    from stax import corpus
    m = corpus.get("mlp_gelu")
    out = m.fn(*m.make_inputs())
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable, Dict, Tuple

import torch
import torch.nn.functional as F
from torch import Tensor

__all__ = ["Model", "MODELS", "OPERATOR_MODELS", "get", "names"]


@dataclass(frozen=True)
class Model:
    """One corpus entry.

    name: key in ``MODELS``.
    fn: pure function ``fn(*tensors) -> Tensor`` (a single tensor output).
    make_inputs: returns a fresh, deterministic tuple of input tensors.
    has_reduction_or_matmul: True if ``fn`` contains a reduction (sum, mean,
        softmax, norm, loss, ...) or a matmul; False for purely elementwise
        functions, whose results can be compared bitwise against eager
        PyTorch when they only use correctly-rounded IEEE ops.
    description: one-line summary of why the model is in the corpus.
    """

    name: str
    fn: Callable[..., Tensor]
    make_inputs: Callable[[], Tuple[Tensor, ...]]
    has_reduction_or_matmul: bool
    description: str


# ---------------------------------------------------------------------------
# Input helpers (all deterministic, all from a private generator)
# ---------------------------------------------------------------------------


def _gen(seed: int) -> torch.Generator:
    return torch.Generator().manual_seed(seed)


def _randn(g: torch.Generator, *shape: int, scale: float = 1.0,
           grad: bool = False) -> Tensor:
    t = torch.randn(*shape, generator=g, dtype=torch.float32)
    if scale != 1.0:
        t = t * scale
    return t.requires_grad_(grad)


def _weight(g: torch.Generator, fan_in: int, *shape: int,
            grad: bool = True) -> Tensor:
    """Gaussian weight scaled by 1/sqrt(fan_in) (keeps activations O(1))."""
    return _randn(g, *shape, scale=1.0 / math.sqrt(fan_in), grad=grad)


def _randint(g: torch.Generator, high: int, *shape: int) -> Tensor:
    return torch.randint(0, high, shape, generator=g, dtype=torch.int64)


# ---------------------------------------------------------------------------
# 1. example_5_1
# ---------------------------------------------------------------------------


def example_5_1(x: Tensor, W: Tensor) -> Tensor:
    """Spec Example 5.1: ``F.gelu(x @ W).sum()``.

    The canonical matmul + (erf-)GELU + full reduction; only ``W`` requires
    grad, so the backward produces a single weight gradient.
    """
    return F.gelu(x @ W).sum()


def _example_5_1_inputs():
    g = _gen(51)
    x = _randn(g, 32, 64)                       # activations: no grad
    W = _weight(g, 64, 64, 64)                  # requires grad
    return (x, W)


# ---------------------------------------------------------------------------
# 2. example_1_1
# ---------------------------------------------------------------------------


def example_1_1(x: Tensor, y: Tensor) -> Tensor:
    """Spec Example 1.1: ``(relu(x + y) * 2).sum(-1)``.

    Elementwise chain fused into a partial (last-dim) reduction; the output is
    a 1-D tensor, so the backward needs an explicit (ones) cotangent.
    """
    return (torch.relu(x + y) * 2).sum(-1)


def _example_1_1_inputs():
    g = _gen(11)
    return (_randn(g, 64, 128, grad=True), _randn(g, 64, 128, grad=True))


# ---------------------------------------------------------------------------
# 3. mlp_gelu
# ---------------------------------------------------------------------------


def mlp_gelu(x: Tensor, W1: Tensor, b1: Tensor, W2: Tensor,
             b2: Tensor) -> Tensor:
    """Two-layer MLP with bias and GELU; loss = mean(out ** 2).

    The bread-and-butter training workload: matmul, broadcast bias add,
    transcendental activation, pow and a mean reduction, plus the transposed
    matmuls and bias-gradient reductions of the backward.
    """
    h = F.gelu(x @ W1 + b1)
    out = h @ W2 + b2
    return out.pow(2).mean()


def _mlp_gelu_inputs():
    g = _gen(3)
    x = _randn(g, 8, 16, grad=True)
    W1 = _weight(g, 16, 16, 32)
    b1 = _randn(g, 32, scale=0.1, grad=True)
    W2 = _weight(g, 32, 32, 16)
    b2 = _randn(g, 16, scale=0.1, grad=True)
    return (x, W1, b1, W2, b2)


# ---------------------------------------------------------------------------
# 4. layernorm
# ---------------------------------------------------------------------------


def layernorm(x: Tensor, weight: Tensor, bias: Tensor) -> Tensor:
    """``F.layer_norm`` over the last dim of a 3-D input, with affine, summed.

    Exercises the multi-output ``native_layer_norm`` (out, mean, rstd) and
    ``native_layer_norm_backward`` with its output mask.
    """
    return F.layer_norm(x, (x.shape[-1],), weight, bias, eps=1e-5).sum()


def _layernorm_inputs():
    g = _gen(4)
    x = _randn(g, 4, 8, 32, grad=True)
    weight = (1.0 + _randn(g, 32, scale=0.1)).requires_grad_()
    bias = _randn(g, 32, scale=0.1, grad=True)
    return (x, weight, bias)


# ---------------------------------------------------------------------------
# 5. rmsnorm
# ---------------------------------------------------------------------------


def rmsnorm(x: Tensor, weight: Tensor) -> Tensor:
    """RMSNorm written out by hand (LLaMA style), summed.

    ``x * rsqrt(mean(x^2, -1, keepdim) + eps) * weight``: keepdim reduction,
    a Python-scalar add into a Tensor overload, rsqrt, broadcasting.
    """
    eps = 1e-6
    return (x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + eps)
            * weight).sum()


def _rmsnorm_inputs():
    g = _gen(5)
    x = _randn(g, 4, 8, 32, grad=True)
    weight = (1.0 + _randn(g, 32, scale=0.1)).requires_grad_()
    return (x, weight)


# ---------------------------------------------------------------------------
# 6. softmax_ce
# ---------------------------------------------------------------------------


def softmax_ce(x: Tensor, W: Tensor, b: Tensor, target: Tensor) -> Tensor:
    """Linear classifier + ``F.cross_entropy`` with an int64 target.

    Exercises ``_log_softmax``, ``nll_loss_forward`` (multi-output, with
    ``ignore_index``/reduction ints) and their backward ops.
    """
    logits = x @ W + b
    return F.cross_entropy(logits, target)


def _softmax_ce_inputs():
    g = _gen(6)
    x = _randn(g, 8, 16, grad=True)
    W = _weight(g, 16, 16, 10)
    b = _randn(g, 10, scale=0.1, grad=True)
    target = _randint(g, 10, 8)                 # int64, no grad
    return (x, W, b, target)


# ---------------------------------------------------------------------------
# 7. attention
# ---------------------------------------------------------------------------


def attention(x: Tensor, Wq: Tensor, Wk: Tensor, Wv: Tensor,
              Wo: Tensor) -> Tensor:
    """Single-head causal self-attention, summed.

    q/k/v projections, batched matmul with a transpose, scaling by
    1/sqrt(d), a causal mask built *inside* the function (``ones``/``tril``
    factory ops) applied with ``torch.where(mask, scores, -inf)`` (-inf
    becomes an ``aten.scalar_tensor``), softmax, ``@ v`` and an output
    projection.
    """
    T, d = x.shape[-2], x.shape[-1]
    q = x @ Wq
    k = x @ Wk
    v = x @ Wv
    scores = (q @ k.transpose(-2, -1)) / math.sqrt(d)
    mask = torch.ones(T, T, dtype=torch.bool, device=x.device).tril()
    scores = torch.where(mask, scores, float("-inf"))
    p = torch.softmax(scores, dim=-1)
    return ((p @ v) @ Wo).sum()


def _attention_inputs():
    g = _gen(7)
    x = _randn(g, 2, 8, 16, grad=True)
    Ws = tuple(_weight(g, 16, 16, 16) for _ in range(4))
    return (x,) + Ws


# ---------------------------------------------------------------------------
# 8. swiglu
# ---------------------------------------------------------------------------


def swiglu(x: Tensor, W1: Tensor, W3: Tensor, W2: Tensor) -> Tensor:
    """SwiGLU MLP (LLaMA FFN): ``(silu(x @ W1) * (x @ W3)) @ W2``, summed.

    Gated activation: two matmuls sharing an input (the backward accumulates
    two gradients into ``x``), SiLU and its backward.
    """
    return ((F.silu(x @ W1) * (x @ W3)) @ W2).sum()


def _swiglu_inputs():
    g = _gen(8)
    x = _randn(g, 8, 16, grad=True)
    W1 = _weight(g, 16, 16, 32)
    W3 = _weight(g, 16, 16, 32)
    W2 = _weight(g, 32, 32, 16)
    return (x, W1, W3, W2)


# ---------------------------------------------------------------------------
# 9. lstm_cell
# ---------------------------------------------------------------------------


def lstm_cell(x: Tensor, h: Tensor, c: Tensor, Wih: Tensor, Whh: Tensor,
              b: Tensor) -> Tensor:
    """One hand-written LSTM cell step; returns ``h'.sum() + c'.sum()``.

    Exercises ``.T`` of weights, ``chunk`` (-> ``split.Tensor`` + getitem,
    and ``cat`` in the backward), sigmoid/tanh and a recurrent state that
    feeds two outputs.
    """
    gates = x @ Wih.T + h @ Whh.T + b
    i, f, gg, o = gates.chunk(4, 1)
    i = torch.sigmoid(i)
    f = torch.sigmoid(f)
    gg = torch.tanh(gg)
    o = torch.sigmoid(o)
    c2 = f * c + i * gg
    h2 = o * torch.tanh(c2)
    return h2.sum() + c2.sum()


def _lstm_cell_inputs():
    g = _gen(9)
    B, I, H = 4, 16, 32
    x = _randn(g, B, I, grad=True)
    h = _randn(g, B, H, scale=0.5, grad=True)
    c = _randn(g, B, H, scale=0.5, grad=True)
    Wih = _weight(g, I, 4 * H, I)
    Whh = _weight(g, H, 4 * H, H)
    b = _randn(g, 4 * H, scale=0.1, grad=True)
    return (x, h, c, Wih, Whh, b)


# ---------------------------------------------------------------------------
# 10. pointwise_chain
# ---------------------------------------------------------------------------


def pointwise_chain(x: Tensor, y: Tensor) -> Tensor:
    """20 elementwise ops, no reduction, no matmul; returns the 2-D tensor.

    Uses only correctly-rounded IEEE ops (add, sub, mul, div, neg, abs,
    relu, maximum, minimum, clamp, where-with-comparison, sqrt(abs(.)),
    scalar mul/add), so a compiled result must match eager PyTorch
    *bitwise* (as long as the compiler does not reassociate or contract
    into FMAs).  The fusion stress test.
    """
    a = x + y                                   # 1  add
    b = x * y                                   # 2  mul
    c = a - b                                   # 3  sub
    d = torch.abs(y) + 1.0                      # 4  abs, 5 add scalar
    e = c / d                                   # 6  div
    f = -e                                      # 7  neg
    h = torch.relu(f)                           # 8  relu
    i = torch.maximum(h, x)                     # 9  maximum
    j = torch.minimum(i, y)                     # 10 minimum
    k = torch.clamp(j, -1.5, 2.0)               # 11 clamp
    m = torch.where(x > y, k, e)                # 12 gt, 13 where
    n = torch.sqrt(torch.abs(m))                # 14 abs, 15 sqrt
    p = n * 0.5                                 # 16 mul scalar
    q = p + a                                   # 17 add
    r = q * q                                   # 18 mul
    s = r - 0.25                                # 19 sub scalar
    return s / d                                # 20 div


def _pointwise_chain_inputs():
    g = _gen(10)
    return (_randn(g, 16, 32, grad=True), _randn(g, 16, 32, grad=True))


# ---------------------------------------------------------------------------
# 11. pointwise_transcendental
# ---------------------------------------------------------------------------


def pointwise_transcendental(x: Tensor, y: Tensor) -> Tensor:
    """Elementwise chain mixing exp, tanh, sigmoid, log1p and erf (no sum).

    Like ``pointwise_chain`` but with transcendental functions, whose
    results are only comparable up to a few ulps (libm vs. MLIR math
    lowering); exercises their derivative formulas in the backward.
    """
    a = torch.tanh(x) * y                       # tanh
    b = torch.sigmoid(y - a)                    # sigmoid
    c = torch.exp(-torch.abs(x))                # exp (bounded argument)
    d = torch.log1p(c * b)                      # log1p
    e = torch.erf(a * 0.5)                      # erf
    f = torch.where(x > 0, d, e) + b * c
    return torch.clamp(f, -2.0, 2.0) * 1.5 - d


def _pointwise_transcendental_inputs():
    g = _gen(111)
    return (_randn(g, 16, 32, grad=True), _randn(g, 16, 32, grad=True))


# ---------------------------------------------------------------------------
# 12. embedding_sum
# ---------------------------------------------------------------------------


def embedding_sum(idx: Tensor, E: Tensor) -> Tensor:
    """``F.embedding`` lookup with an int64 (4, 6) index, bag-sum, sum of squares.

    Gather in the forward and ``embedding_dense_backward`` (scatter-add) in
    the backward; an integer input that must never receive a gradient.
    """
    s = F.embedding(idx, E).sum(1)
    return (s * s).sum()


def _embedding_sum_inputs():
    g = _gen(12)
    idx = _randint(g, 10, 4, 6)                 # int64 in [0, 10)
    E = _randn(g, 10, 8, grad=True)
    return (idx, E)


# ---------------------------------------------------------------------------
# 13. index_logsumexp
# ---------------------------------------------------------------------------


def index_logsumexp(x: Tensor, idx: Tensor) -> Tensor:
    """Advanced indexing ``x[idx]`` (with a negative index) then logsumexp.

    ``aten.index.Tensor`` with an index list, negative-index wraparound,
    ``logsumexp`` (max-subtracted reduction) and, in the backward,
    ``index_put(accumulate=True)`` into a zeros tensor (duplicates add up).
    """
    return torch.logsumexp(x[idx], dim=-1).sum()


def _index_logsumexp_inputs():
    g = _gen(13)
    x = _randn(g, 8, 16, grad=True)
    # includes negative indices (-1 -> row 7, -3 -> row 5) and a duplicate
    idx = torch.tensor([[0, 3, -1], [5, 3, -3]], dtype=torch.int64)
    return (x, idx)


# ---------------------------------------------------------------------------
# 14. transformer_encoder
# ---------------------------------------------------------------------------

_TE_D_MODEL, _TE_NHEAD, _TE_FF = 16, 2, 32
_te_module = None


def _te() -> torch.nn.Module:
    """The (parameter-free in spirit) TransformerEncoderLayer skeleton.

    Built lazily, without touching the global RNG; its own parameters are
    never used: every call goes through ``functional_call`` with the
    explicit parameter tensors.
    """
    global _te_module
    if _te_module is None:
        with torch.random.fork_rng(devices=[]):
            torch.manual_seed(0)
            _te_module = torch.nn.TransformerEncoderLayer(
                d_model=_TE_D_MODEL, nhead=_TE_NHEAD,
                dim_feedforward=_TE_FF, dropout=0.0, batch_first=True)
        _te_module.train()
    return _te_module


def _te_param_names():
    return [n for n, _ in _te().named_parameters()]


def transformer_encoder(x: Tensor, *params: Tensor) -> Tensor:
    """``nn.TransformerEncoderLayer`` (d=16, 2 heads, ff=32, dropout=0, train
    mode, batch_first) called functionally; output summed.

    Parameters are explicit inputs (in ``named_parameters()`` order) passed
    via ``torch.nn.utils.stateless.functional_call``.  This is the
    "real-library" model: it pulls in whatever ``multi_head_attention_forward``
    emits (linear/addmm/t, view/transpose/reshape, bmm/baddbmm, softmax,
    p=0 dropout, layer norm, ReLU).
    """
    from torch.nn.utils.stateless import functional_call
    mod = _te()
    pdict = dict(zip(_te_param_names(), params))
    return functional_call(mod, pdict, (x,)).sum()


def _transformer_encoder_inputs():
    g = _gen(14)
    x = _randn(g, 2, 5, _TE_D_MODEL, grad=True)
    params = []
    for name, p in _te().named_parameters():
        if p.dim() >= 2:                        # weight matrices
            t = _weight(g, p.shape[1], *p.shape)
        elif name.startswith("norm") and name.endswith("weight"):
            t = (1.0 + _randn(g, *p.shape, scale=0.1)).requires_grad_()
        else:                                   # biases
            t = _randn(g, *p.shape, scale=0.1, grad=True)
        params.append(t)
    return (x,) + tuple(params)


# ---------------------------------------------------------------------------
# 15. mse
# ---------------------------------------------------------------------------


def mse(x: Tensor, W: Tensor, target: Tensor) -> Tensor:
    """Linear regression loss ``F.mse_loss(x @ W, target)`` (mean reduction).

    ``aten.mse_loss`` with its integer reduction argument and
    ``mse_loss_backward``; the target carries no gradient.
    """
    return F.mse_loss(x @ W, target)


def _mse_inputs():
    g = _gen(15)
    x = _randn(g, 8, 16, grad=True)
    W = _weight(g, 16, 16, 4)
    target = _randn(g, 8, 4)
    return (x, W, target)


# ---------------------------------------------------------------------------
# Parametric models (benchmarks and checkpointing tests; not in the registry)
# ---------------------------------------------------------------------------


def mlp_stack(x: Tensor, *params: Tensor) -> Tensor:
    """N Linear+GELU layers, loss = sum: params are (W1, b1, W2, b2, ...)."""
    h = x
    for i in range(0, len(params), 2):
        h = F.gelu(h @ params[i] + params[i + 1])
    return h.sum()


def mlp_stack_inputs(n: int, hidden: int = 64, batch: int = 16):
    """Inputs of an n-layer `mlp_stack` (seeded by n); weights require grad."""
    g = torch.Generator().manual_seed(n)
    x = torch.randn(batch, hidden, generator=g)
    ps = []
    for _ in range(n):
        ps.append((torch.randn(hidden, hidden, generator=g)
                   / math.sqrt(hidden)).requires_grad_())
        ps.append((0.1 * torch.randn(hidden, generator=g)).requires_grad_())
    return (x,) + tuple(ps)


# ---------------------------------------------------------------------------
# Registry
# ---------------------------------------------------------------------------


def _first_line(f) -> str:
    return (f.__doc__ or "").strip().splitlines()[0]


_ENTRIES = [
    (example_5_1, _example_5_1_inputs, True),
    (example_1_1, _example_1_1_inputs, True),
    (mlp_gelu, _mlp_gelu_inputs, True),
    (layernorm, _layernorm_inputs, True),
    (rmsnorm, _rmsnorm_inputs, True),
    (softmax_ce, _softmax_ce_inputs, True),
    (attention, _attention_inputs, True),
    (swiglu, _swiglu_inputs, True),
    (lstm_cell, _lstm_cell_inputs, True),
    (pointwise_chain, _pointwise_chain_inputs, False),
    (pointwise_transcendental, _pointwise_transcendental_inputs, False),
    (embedding_sum, _embedding_sum_inputs, True),
    (index_logsumexp, _index_logsumexp_inputs, True),
    (transformer_encoder, _transformer_encoder_inputs, True),
    (mse, _mse_inputs, True),
]

MODELS: Dict[str, Model] = {
    fn.__name__: Model(name=fn.__name__, fn=fn, make_inputs=mk,
                       has_reduction_or_matmul=red,
                       description=_first_line(fn))
    for fn, mk, red in _ENTRIES
}


def get(name: str) -> Model:
    """Return the corpus entry called ``name`` (KeyError lists valid names)."""
    try:
        return MODELS[name] if name in MODELS else OPERATOR_MODELS[name]
    except KeyError:
        raise KeyError(f"unknown corpus model {name!r}; "
                       f"known: {', '.join(MODELS)}") from None


def names():
    """Model names in corpus order."""
    return list(MODELS)


# ---------------------------------------------------------------------------
# Operator models: the operators that come through import-time
# decompositions (stax/decompositions.py).  A registry of their own
# (OPERATOR_MODELS): their error models are not in stax/numerics.py, so the
# float32 differential tests of MODELS do not apply; test_operator_models.py
# checks them.
# ---------------------------------------------------------------------------


def small_cnn(x: Tensor, w1: Tensor, b1: Tensor, gamma: Tensor, beta: Tensor,
              mean: Tensor, var: Tensor, w2: Tensor, wfc: Tensor, bfc: Tensor,
              target: Tensor) -> Tensor:
    """Conv2d(pad 1) + training-mode batch norm + ReLU + max pool + strided,
    grouped conv + adaptive average pool + linear + cross entropy."""
    h = F.conv2d(x, w1, b1, padding=1)
    h = F.batch_norm(h, mean.clone(), var.clone(), gamma, beta, training=True)
    h = F.max_pool2d(F.relu(h), 2)
    h = F.conv2d(h, w2, stride=2, groups=2)
    h = F.adaptive_avg_pool2d(h, 1).flatten(1)
    return F.cross_entropy(h @ wfc.t() + bfc, target)


def _small_cnn_inputs():
    g = _gen(101)
    x = _randn(g, 2, 3, 10, 10, grad=True)
    w1 = _weight(g, 27, 8, 3, 3, 3)
    b1 = _randn(g, 8, scale=0.1, grad=True)
    gamma = (1.0 + _randn(g, 8, scale=0.1)).requires_grad_()
    beta = _randn(g, 8, scale=0.1, grad=True)
    mean, var = torch.zeros(8), torch.ones(8)
    w2 = _weight(g, 36, 6, 4, 3, 3)
    wfc = _weight(g, 6, 5, 6)
    bfc = _randn(g, 5, scale=0.1, grad=True)
    target = _randint(g, 5, 2)
    return (x, w1, b1, gamma, beta, mean, var, w2, wfc, bfc, target)


def cumulative_sort(x: Tensor, w: Tensor) -> Tensor:
    """cumsum, cumprod, sort, topk, kthvalue and logcumsumexp of x * w."""
    h = x * w
    s, _ = torch.sort(h, dim=-1, descending=True)
    t, _ = torch.topk(h, 3, dim=0)
    k, _ = torch.kthvalue(h, 2, dim=1)
    return (torch.cumsum(s, -1).sum() + (t * torch.cumprod(t, 0)).sum()
            + k.sum() + torch.logcumsumexp(h, 0).sum())


def _cumulative_sort_inputs():
    g = _gen(102)
    return (_randn(g, 6, 7, grad=True), _randn(g, 7, scale=0.5, grad=True))


def pad_upsample(x: Tensor, w: Tensor) -> Tensor:
    """Reflection and constant padding, nearest and bilinear upsampling
    around a 3x3 convolution."""
    h = F.pad(x, (1, 1, 1, 1), mode="reflect")
    h = F.conv2d(h, w)
    h = F.interpolate(h, scale_factor=2, mode="nearest")
    h = F.pad(h, (0, 1, 2, 0), value=0.5)
    h = F.interpolate(h, size=(7, 9), mode="bilinear", align_corners=False)
    return (h * h).sum()


def _pad_upsample_inputs():
    g = _gen(103)
    return (_randn(g, 2, 3, 5, 6, grad=True), _weight(g, 27, 4, 3, 3, 3))


OPERATOR_MODELS: Dict[str, Model] = {
    fn.__name__: Model(name=fn.__name__, fn=fn, make_inputs=mk,
                       has_reduction_or_matmul=True,
                       description=_first_line(fn))
    for fn, mk in [(small_cnn, _small_cnn_inputs),
                   (cumulative_sort, _cumulative_sort_inputs),
                   (pad_upsample, _pad_upsample_inputs)]
}
