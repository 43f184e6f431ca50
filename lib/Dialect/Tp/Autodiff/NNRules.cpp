//===- NNRules.cpp - derivatives of softmax, norms, losses, backward ops --===//
//
// Composite ops emit their derivatives as primitive tp ops (sum, mul, exp,
// ...), so that the result is differentiable again. The softmaxes, layer norm
// and mse use closed forms; the ops whose closed form would be long (nll loss
// with class weights and ignore_index, layer norm's backward) are
// differentiated through a decomposition into primitives
// (vjpByDecomposition / jvpByDecomposition). The pointwise backward operators
// of the activations are linear in grad_output; their partial in the saved
// operand is grad_output times the activation's second derivative.
//
//===----------------------------------------------------------------------===//

#include "RuleUtils.h"
#include "Stax/Dialect/Tp/IR/TypeInference.h"
#include <cmath>

using namespace mlir;
using namespace mlir::tp;
using namespace mlir::tp::autodiff;

namespace {

Type elementTypeOf(Value v) { return tensorType(v).getElementType(); }

/// Pushes `n` nulls (no derivative).
LogicalResult pushNulls(SmallVectorImpl<Value> &out, unsigned n) {
  out.append(n, Value());
  return success();
}

/// An operand adjoint: summed to the operand's shape and dtype; null for
/// non-float operands.
Value adjointFor(OpBuilder &b, Location loc, Value grad, Value operand) {
  if (!grad || !isFloatTensor(operand))
    return Value();
  return sumToShape(b, loc, grad, tensorType(operand));
}

/// A result tangent: broadcast to the result's shape, in its dtype.
Value tangentFor(OpBuilder &b, Location loc, Value tangent, Value result) {
  if (!tangent || !isFloatTensor(result))
    return Value();
  tangent = broadcastTo(b, loc, tangent, tensorType(result).getShape());
  return castTo(b, loc, tangent, elementTypeOf(result));
}

/// The dim of a softmax-like op as a one-element dims list (null for 0-d
/// tensors, whose softmax is constant).
std::optional<int64_t> softmaxDim(uint64_t dim, Value v) {
  int64_t rank = tensorType(v).getRank();
  if (rank == 0)
    return std::nullopt;
  return normalizeDim(static_cast<int64_t>(dim), rank);
}

//===----------------------------------------------------------------------===//
// Pointwise backward operators: r = grad_output * f'(saved)
//===----------------------------------------------------------------------===//

/// For each op: `apply(op, b, g)` is the op with grad_output replaced by g
/// (the op is linear in it), `saved(op)` the saved operand, and
/// `secondFactor(op, b)` is f''(saved) as a tensor, so that
/// dr/dsaved = grad_output * f''(saved) (null when zero).
template <typename OpT> struct PointwiseBackward;

template <> struct PointwiseBackward<ThresholdBackwardOp> {
  static Value saved(ThresholdBackwardOp op) { return op.getSelf(); }
  static Value apply(ThresholdBackwardOp op, OpBuilder &b, Value g) {
    return ThresholdBackwardOp::create(b, op.getLoc(), g, op.getSelf(),
                                       op.getThresholdAttr());
  }
  // The step function has zero derivative (away from the threshold).
  static Value secondFactor(ThresholdBackwardOp, OpBuilder &) {
    return Value();
  }
};

template <> struct PointwiseBackward<TanhBackwardOp> {
  static Value saved(TanhBackwardOp op) { return op.getOutput(); }
  static Value apply(TanhBackwardOp op, OpBuilder &b, Value g) {
    return TanhBackwardOp::create(b, op.getLoc(), g, op.getOutput());
  }
  // r = g (1 - y^2): dr/dy = -2 g y.
  static Value secondFactor(TanhBackwardOp op, OpBuilder &b) {
    return mulScalar(b, op.getLoc(), op.getOutput(), -2.0);
  }
};

template <> struct PointwiseBackward<SigmoidBackwardOp> {
  static Value saved(SigmoidBackwardOp op) { return op.getOutput(); }
  static Value apply(SigmoidBackwardOp op, OpBuilder &b, Value g) {
    return SigmoidBackwardOp::create(b, op.getLoc(), g, op.getOutput());
  }
  // r = g (1 - y) y: dr/dy = g (1 - 2y).
  static Value secondFactor(SigmoidBackwardOp op, OpBuilder &b) {
    Location loc = op.getLoc();
    return addScalar(b, loc, mulScalar(b, loc, op.getOutput(), -2.0), 1.0);
  }
};

template <> struct PointwiseBackward<SiluBackwardOp> {
  static Value saved(SiluBackwardOp op) { return op.getSelf(); }
  static Value apply(SiluBackwardOp op, OpBuilder &b, Value g) {
    return SiluBackwardOp::create(b, op.getLoc(), g, op.getSelf());
  }
  // silu'(x) = s (1 + x (1 - s)), silu''(x) = s (1 - s) (2 + x (1 - 2s)).
  static Value secondFactor(SiluBackwardOp op, OpBuilder &b) {
    Location loc = op.getLoc();
    Value x = op.getSelf();
    Value s = SigmoidOp::create(b, loc, x);
    Value oneMinusS = addScalar(b, loc, neg(b, loc, s), 1.0);
    Value oneMinus2S = addScalar(b, loc, mulScalar(b, loc, s, -2.0), 1.0);
    Value tail = addScalar(b, loc, mul(b, loc, x, oneMinus2S), 2.0);
    return mul(b, loc, mul(b, loc, s, oneMinusS), tail);
  }
};

template <> struct PointwiseBackward<GeluBackwardOp> {
  static Value saved(GeluBackwardOp op) { return op.getSelf(); }
  static Value apply(GeluBackwardOp op, OpBuilder &b, Value g) {
    return GeluBackwardOp::create(b, op.getLoc(), g, op.getSelf(),
                                  op.getApproximateAttr());
  }
  static Value secondFactor(GeluBackwardOp op, OpBuilder &b) {
    Location loc = op.getLoc();
    Value x = op.getSelf();
    Value x2 = mul(b, loc, x, x);
    if (op.getApproximate() == GeluApproximate::Tanh) {
      // gelu(x) = x (1 + t) / 2, t = tanh(u), u = k (x + c x^3):
      // gelu''(x) = (1 - t^2) (u' + x (u'' - 2 t u'^2) / 2),
      // u' = k (1 + 3 c x^2), u'' = 6 k c x.
      const double k = std::sqrt(2.0 / M_PI), c = 0.044715;
      Value x3 = mul(b, loc, x2, x);
      Value u = mulScalar(b, loc, add(b, loc, x, mulScalar(b, loc, x3, c)), k);
      Value t = TanhOp::create(b, loc, u);
      Value sech2 = addScalar(b, loc, neg(b, loc, mul(b, loc, t, t)), 1.0);
      Value du = mulScalar(b, loc, addScalar(b, loc, mulScalar(b, loc, x2, 3 * c), 1.0), k);
      Value ddu = mulScalar(b, loc, x, 6 * k * c);
      Value inner = sub(b, loc, ddu,
                        mulScalar(b, loc, mul(b, loc, t, mul(b, loc, du, du)), 2.0));
      Value bracket = add(b, loc, du, mul(b, loc, mulScalar(b, loc, x, 0.5), inner));
      return mul(b, loc, sech2, bracket);
    }
    // gelu'(x) = Phi(x) + x phi(x), gelu''(x) = phi(x) (2 - x^2).
    Value phi = mulScalar(b, loc, ExpOp::create(b, loc, mulScalar(b, loc, x2, -0.5)),
                          1.0 / std::sqrt(2.0 * M_PI));
    return mul(b, loc, phi, addScalar(b, loc, neg(b, loc, x2), 2.0));
  }
};

template <typename OpT> struct PointwiseBackwardRule {
  using P = PointwiseBackward<OpT>;
  static LogicalResult vjp(OpT op, OpBuilder &b, ValueRange adjoints,
                           SmallVectorImpl<Value> &out) {
    Value u = adjoints[0];
    Location loc = op.getLoc();
    Value go = op.getGradOutput(), s = P::saved(op);
    if (!u || !isFloatTensor(op.getResult()))
      return pushNulls(out, op->getNumOperands());
    out.push_back(isFloatTensor(go) ? adjointFor(b, loc, P::apply(op, b, u), go)
                                    : Value());
    Value ds;
    if (isFloatTensor(s))
      if (Value h = P::secondFactor(op, b))
        ds = adjointFor(b, loc, mul(b, loc, mul(b, loc, u, go), h), s);
    out.push_back(ds);
    return success();
  }
  static LogicalResult jvp(OpT op, OpBuilder &b, ValueRange tangents,
                           SmallVectorImpl<Value> &out) {
    Location loc = op.getLoc();
    Value dgo = tangents[0], ds = tangents[1];
    Value t = dgo ? P::apply(op, b, dgo) : Value();
    if (ds)
      if (Value h = P::secondFactor(op, b))
        t = add(b, loc, t, mul(b, loc, mul(b, loc, ds, op.getGradOutput()), h));
    out.push_back(tangentFor(b, loc, t, op.getResult()));
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Layer norm
//===----------------------------------------------------------------------===//

/// The normalized (trailing) dims of a layer norm and their element count.
std::pair<SmallVector<int64_t>, double>
layerNormDims(Value input, ArrayRef<int64_t> normalized) {
  int64_t rank = tensorType(input).getRank();
  SmallVector<int64_t> dims;
  double m = 1.0;
  for (int64_t i = rank - static_cast<int64_t>(normalized.size()); i < rank; ++i) {
    dims.push_back(i);
    m *= static_cast<double>(tensorType(input).getDimSize(i));
  }
  return {dims, m};
}

//===----------------------------------------------------------------------===//
// nll_loss decomposition
//===----------------------------------------------------------------------===//

/// The per-sample pieces of nll_loss for a [N, C] view of self (N = 1 for a
/// 1-D self): the clamped targets [N, 1], and the per-sample weights [N]
/// (class weight, 0 for ignored samples) in `elt`.
struct NllPieces {
  Value target2d; // [N, 1] index
  Value weight;   // [N] float
  Value kept;     // [N] i1: the target is not ignore_index
  int64_t samples, classes;
};

NllPieces nllPieces(OpBuilder &b, Location loc, Value self, Value target,
                    Value weight, int64_t ignoreIndex, Type elt) {
  MLIRContext *ctx = b.getContext();
  RankedTensorType st = tensorType(self);
  NllPieces p;
  p.classes = st.getShape().back();
  p.samples = st.getRank() == 2 ? st.getDimSize(0) : 1;
  Value t = target;
  if (tensorType(t).getRank() == 0)
    t = ViewOp::create(b, loc, t, ArrayRef<int64_t>{1});
  Value ignored = EqScalarOp::create(b, loc, t, getIntScalar(ctx, ignoreIndex));
  Value kept = NeScalarOp::create(b, loc, t, getIntScalar(ctx, ignoreIndex));
  Value safe = MaskedFillScalarOp::create(b, loc, t, ignored, getIntScalar(ctx, 0));
  p.target2d = ViewOp::create(b, loc, safe, ArrayRef<int64_t>{p.samples, 1});
  Value w = castTo(b, loc, kept, elt);
  if (weight)
    w = mul(b, loc, IndexSelectOp::create(b, loc, weight, safe, 0), w);
  p.weight = w;
  p.kept = kept;
  return p;
}

LogicalResult decomposeNllLossForward(NllLossForwardOp op, OpBuilder &b,
                                      SmallVectorImpl<Value> &results) {
  Location loc = op.getLoc();
  Value self = op.getSelf();
  Type elt = elementTypeOf(self);
  NllPieces p = nllPieces(b, loc, self, op.getTarget(), op.getWeight(),
                          static_cast<int64_t>(op.getIgnoreIndex()), elt);
  Value x2 = self;
  if (tensorType(self).getRank() == 1)
    x2 = ViewOp::create(b, loc, self, ArrayRef<int64_t>{1, p.classes});
  Value picked = GatherOp::create(b, loc, x2, p.target2d, 1);
  picked = ViewOp::create(b, loc, picked, ArrayRef<int64_t>{p.samples});
  // Eager skips ignored samples: their loss is 0 even where the picked
  // log-probability is infinite, and their derivative is 0, not g / 0 * 0.
  Value loss = neg(b, loc, mul(b, loc, picked, p.weight));
  loss = WhereOp::create(b, loc, p.kept, loss,
                         full(b, loc, tensorType(loss), 0.0));
  auto total = [&](Value v) -> Value {
    return SumOp::create(b, loc, v, b.getDenseI64ArrayAttr({}),
                         b.getBoolAttr(false), TypeAttr());
  };
  RankedTensorType outType = tensorType(op.getOutput());
  switch (op.getReduction()) {
  case LossReduction::None:
    results.push_back(outType.getRank() == 0
                          ? Value(ViewOp::create(b, loc, loss, ArrayRef<int64_t>{}))
                          : loss);
    // total_weight is 0 for the per-sample output of a 2-D self.
    results.push_back(outType.getRank() == 0 ? total(p.weight) : Value());
    return success();
  case LossReduction::Mean: {
    Value tw = total(p.weight);
    results.push_back(
        DivOp::create(b, loc, total(loss), tw, RoundingModeAttr()));
    results.push_back(tw);
    return success();
  }
  case LossReduction::Sum:
    results.push_back(total(loss));
    results.push_back(total(p.weight));
    return success();
  }
  llvm_unreachable("LossReduction has three cases");
}

LogicalResult decomposeNllLossBackward(NllLossBackwardOp op, OpBuilder &b,
                                       SmallVectorImpl<Value> &results) {
  Location loc = op.getLoc();
  Value self = op.getSelf();
  RankedTensorType st = tensorType(self);
  Type elt = st.getElementType();
  NllPieces p = nllPieces(b, loc, self, op.getTarget(), op.getWeight(),
                          static_cast<int64_t>(op.getIgnoreIndex()), elt);
  // grad_output is [N] for the per-sample loss of a 2-D self, else 0-d.
  Value v = mul(b, loc, neg(b, loc, p.weight), op.getGradOutput());
  if (op.getReduction() == LossReduction::Mean)
    v = div(b, loc, v, op.getTotalWeight());
  v = castTo(b, loc, v, elt);
  // Eager writes the kept samples only: a batch whose every target is
  // ignored has a NaN mean loss (0 / 0) but a zero gradient, not 0 * NaN.
  Value zero = full(b, loc, tensorType(v), 0.0);
  v = WhereOp::create(b, loc, p.kept, v, zero);
  v = ViewOp::create(b, loc, v, ArrayRef<int64_t>{p.samples, 1});
  Value zeros = full(b, loc, RankedTensorType::get({p.samples, p.classes}, elt), 0.0);
  Value r = ScatterAddOp::create(b, loc, zeros, p.target2d, v, 1);
  if (st.getRank() == 1)
    r = ViewOp::create(b, loc, r, st.getShape());
  results.push_back(r);
  return success();
}

/// native_layer_norm_backward in primitives (as the reference kernel).
LogicalResult decomposeLayerNormBackward(NativeLayerNormBackwardOp op,
                                         OpBuilder &b,
                                         SmallVectorImpl<Value> &results) {
  Location loc = op.getLoc();
  Value x = op.getInput(), go = op.getGradOut(), w = op.getWeight();
  auto [dims, m] = layerNormDims(x, op.getNormalizedShape());
  Value xhat = mul(b, loc, sub(b, loc, x, op.getMean()), op.getRstd());
  Value dxhat = w ? mul(b, loc, go, w) : go;
  Value a = sumKeepDims(b, loc, dxhat, dims);
  Value c = sumKeepDims(b, loc, mul(b, loc, dxhat, xhat), dims);
  Value centered = sub(b, loc, mulScalar(b, loc, dxhat, m), a);
  Value correction = mul(b, loc, xhat, c);
  Value inner = sub(b, loc, centered, correction);
  Value gi = mul(b, loc, mulScalar(b, loc, op.getRstd(), 1.0 / m), inner);
  results.push_back(tangentFor(b, loc, gi, op.getGradInput()));
  results.push_back(adjointFor(b, loc, mul(b, loc, go, xhat), op.getGradWeight()));
  results.push_back(adjointFor(b, loc, go, op.getGradBias()));
  return success();
}

} // namespace

namespace mlir::tp::autodiff {

template <>
struct Rule<ThresholdBackwardOp> : PointwiseBackwardRule<ThresholdBackwardOp> {};
template <>
struct Rule<TanhBackwardOp> : PointwiseBackwardRule<TanhBackwardOp> {};
template <>
struct Rule<SigmoidBackwardOp> : PointwiseBackwardRule<SigmoidBackwardOp> {};
template <>
struct Rule<SiluBackwardOp> : PointwiseBackwardRule<SiluBackwardOp> {};
template <>
struct Rule<GeluBackwardOp> : PointwiseBackwardRule<GeluBackwardOp> {};

//===----------------------------------------------------------------------===//
// Softmax
//===----------------------------------------------------------------------===//

/// y = softmax(x): the Jacobian diag(y) - y y^T is symmetric, so the VJP and
/// the JVP are both v -> y (v - sum(v y)).
template <> struct Rule<SoftmaxOp> {
  static Value apply(SoftmaxOp op, OpBuilder &b, Value v) {
    Location loc = op.getLoc();
    Value y = op.getResult();
    auto dim = softmaxDim(op.getDim(), y);
    if (!v || !dim)
      return Value();
    v = castTo(b, loc, v, elementTypeOf(y));
    Value s = sumKeepDims(b, loc, mul(b, loc, v, y), {*dim});
    return mul(b, loc, y, sub(b, loc, v, s));
  }
  static LogicalResult vjp(SoftmaxOp op, OpBuilder &b, ValueRange adjoints,
                           SmallVectorImpl<Value> &out) {
    out.push_back(adjointFor(b, op.getLoc(), apply(op, b, adjoints[0]),
                             op.getSelf()));
    return success();
  }
  static LogicalResult jvp(SoftmaxOp op, OpBuilder &b, ValueRange tangents,
                           SmallVectorImpl<Value> &out) {
    out.push_back(tangentFor(b, op.getLoc(), apply(op, b, tangents[0]),
                             op.getResult()));
    return success();
  }
};

/// y = log_softmax(x), p = exp(y): dy_i/dx_j = delta_ij - p_j.
template <> struct Rule<LogSoftmaxOp> {
  static LogicalResult vjp(LogSoftmaxOp op, OpBuilder &b, ValueRange adjoints,
                           SmallVectorImpl<Value> &out) {
    Location loc = op.getLoc();
    Value g = adjoints[0], y = op.getResult();
    auto dim = softmaxDim(op.getDim(), y);
    if (!g || !dim)
      return pushNulls(out, 1);
    g = castTo(b, loc, g, elementTypeOf(y));
    Value p = ExpOp::create(b, loc, y);
    Value r = sub(b, loc, g, mul(b, loc, p, sumKeepDims(b, loc, g, {*dim})));
    out.push_back(adjointFor(b, loc, r, op.getSelf()));
    return success();
  }
  static LogicalResult jvp(LogSoftmaxOp op, OpBuilder &b, ValueRange tangents,
                           SmallVectorImpl<Value> &out) {
    Location loc = op.getLoc();
    Value t = tangents[0], y = op.getResult();
    auto dim = softmaxDim(op.getDim(), y);
    if (!t || !dim)
      return pushNulls(out, 1);
    t = castTo(b, loc, t, elementTypeOf(y));
    Value p = ExpOp::create(b, loc, y);
    Value r = sub(b, loc, t, sumKeepDims(b, loc, mul(b, loc, p, t), {*dim}));
    out.push_back(tangentFor(b, loc, r, y));
    return success();
  }
};

/// r = y (g - s), s = sum(g y): dr/dg is the softmax Jacobian (symmetric);
/// <u, dr/dy dy> = <u (g - s) - g sum(u y), dy>.
template <> struct Rule<SoftmaxBackwardDataOp> {
  static LogicalResult vjp(SoftmaxBackwardDataOp op, OpBuilder &b,
                           ValueRange adjoints, SmallVectorImpl<Value> &out) {
    Location loc = op.getLoc();
    Value u = adjoints[0], g = op.getGradOutput(), y = op.getOutput();
    auto dim = softmaxDim(op.getDim(), y);
    if (!u || !dim)
      return pushNulls(out, 2);
    Value suy = sumKeepDims(b, loc, mul(b, loc, u, y), {*dim});
    Value s = sumKeepDims(b, loc, mul(b, loc, g, y), {*dim});
    out.push_back(adjointFor(b, loc, mul(b, loc, y, sub(b, loc, u, suy)), g));
    Value dyLeft = mul(b, loc, u, sub(b, loc, g, s));
    Value dyRight = mul(b, loc, g, suy);
    Value dy = sub(b, loc, dyLeft, dyRight);
    out.push_back(adjointFor(b, loc, dy, y));
    return success();
  }
  static LogicalResult jvp(SoftmaxBackwardDataOp op, OpBuilder &b,
                           ValueRange tangents, SmallVectorImpl<Value> &out) {
    Location loc = op.getLoc();
    Value dg = tangents[0], dy = tangents[1];
    Value g = op.getGradOutput(), y = op.getOutput();
    auto dim = softmaxDim(op.getDim(), y);
    if ((!dg && !dy) || !dim)
      return pushNulls(out, 1);
    // dr = dy (g - s) + y (dg - sum(dg y + g dy)).
    Value s = sumKeepDims(b, loc, mul(b, loc, g, y), {*dim});
    Value dgY = mul(b, loc, dg, y);
    Value gDy = mul(b, loc, g, dy);
    Value inner = add(b, loc, dgY, gDy);
    Value left = mul(b, loc, dy, sub(b, loc, g, s));
    Value right =
        mul(b, loc, y, sub(b, loc, dg, sumKeepDims(b, loc, inner, {*dim})));
    Value r = add(b, loc, left, right);
    out.push_back(tangentFor(b, loc, r, op.getResult()));
    return success();
  }
};

/// r = g - exp(y) sum(g).
template <> struct Rule<LogSoftmaxBackwardDataOp> {
  static LogicalResult vjp(LogSoftmaxBackwardDataOp op, OpBuilder &b,
                           ValueRange adjoints, SmallVectorImpl<Value> &out) {
    Location loc = op.getLoc();
    Value u = adjoints[0], g = op.getGradOutput(), y = op.getOutput();
    auto dim = softmaxDim(op.getDim(), y);
    if (!u || !dim)
      return pushNulls(out, 2);
    Value p = ExpOp::create(b, loc, y);
    Value up = mul(b, loc, u, p);
    out.push_back(adjointFor(b, loc, sub(b, loc, u, sumKeepDims(b, loc, up, {*dim})), g));
    out.push_back(adjointFor(
        b, loc, neg(b, loc, mul(b, loc, up, sumKeepDims(b, loc, g, {*dim}))), y));
    return success();
  }
  static LogicalResult jvp(LogSoftmaxBackwardDataOp op, OpBuilder &b,
                           ValueRange tangents, SmallVectorImpl<Value> &out) {
    Location loc = op.getLoc();
    Value dg = tangents[0], dy = tangents[1];
    Value g = op.getGradOutput(), y = op.getOutput();
    auto dim = softmaxDim(op.getDim(), y);
    if ((!dg && !dy) || !dim)
      return pushNulls(out, 1);
    // dr = dg - p sum(dg) - p dy sum(g).
    Value p = ExpOp::create(b, loc, y);
    Value r = sub(b, loc, dg, mul(b, loc, p, sumKeepDims(b, loc, dg, {*dim})));
    if (dy) {
      Value pDy = mul(b, loc, p, dy);
      Value gSum = sumKeepDims(b, loc, g, {*dim});
      r = sub(b, loc, r, mul(b, loc, pDy, gSum));
    }
    out.push_back(tangentFor(b, loc, r, op.getResult()));
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Layer norm
//===----------------------------------------------------------------------===//

/// out = xhat w + b, xhat = (x - mean) rstd, rstd = (var + eps)^-1/2, over
/// the M trailing elements. All three results may carry adjoints.
template <> struct Rule<NativeLayerNormOp> {
  static LogicalResult vjp(NativeLayerNormOp op, OpBuilder &b,
                           ValueRange adjoints, SmallVectorImpl<Value> &out) {
    Location loc = op.getLoc();
    Value gOut = adjoints[0], gMean = adjoints[1], gRstd = adjoints[2];
    Value x = op.getInput(), w = op.getWeight(), bias = op.getBias();
    Value mean = op.getMean(), rstd = op.getRstd();
    auto [dims, m] = layerNormDims(x, op.getNormalizedShape());
    ArrayRef<int64_t> shape = tensorType(x).getShape();
    Value xc = sub(b, loc, x, mean);
    Value xhat = gOut ? mul(b, loc, xc, rstd) : Value();
    Value gx;
    if (gOut) {
      // rstd (dxhat - mean(dxhat) - xhat mean(dxhat xhat)).
      Value dxhat = w ? mul(b, loc, gOut, w) : gOut;
      Value a = mulScalar(b, loc, sumKeepDims(b, loc, dxhat, dims), 1.0 / m);
      Value c = mulScalar(b, loc, sumKeepDims(b, loc, mul(b, loc, dxhat, xhat), dims),
                          1.0 / m);
      Value centered = sub(b, loc, dxhat, a);
      Value correction = mul(b, loc, xhat, c);
      gx = mul(b, loc, rstd, sub(b, loc, centered, correction));
    }
    if (gMean) // d mean / dx = 1 / M
      gx = add(b, loc, gx, broadcastTo(b, loc, mulScalar(b, loc, gMean, 1.0 / m), shape));
    if (gRstd) { // d rstd / dx = -rstd^3 (x - mean) / M
      Value r3 = mul(b, loc, rstd, mul(b, loc, rstd, rstd));
      Value coef = mulScalar(b, loc, mul(b, loc, gRstd, r3), -1.0 / m);
      gx = add(b, loc, gx, mul(b, loc, coef, xc));
    }
    out.push_back(adjointFor(b, loc, gx, x));
    if (w)
      out.push_back(gOut ? adjointFor(b, loc, mul(b, loc, gOut, xhat), w) : Value());
    if (bias)
      out.push_back(adjointFor(b, loc, gOut, bias));
    return success();
  }
  static LogicalResult jvp(NativeLayerNormOp op, OpBuilder &b,
                           ValueRange tangents, SmallVectorImpl<Value> &out) {
    Location loc = op.getLoc();
    Value x = op.getInput(), w = op.getWeight();
    Value mean = op.getMean(), rstd = op.getRstd();
    unsigned k = 1;
    Value dx = tangents[0];
    Value dw = w ? tangents[k++] : Value();
    Value db = op.getBias() ? tangents[k++] : Value();
    auto [dims, m] = layerNormDims(x, op.getNormalizedShape());
    Value xc = sub(b, loc, x, mean);
    Value dmean, drstd, dxhat;
    if (dx) {
      dmean = mulScalar(b, loc, sumKeepDims(b, loc, dx, dims), 1.0 / m);
      Value dxc = sub(b, loc, dx, dmean);
      // d var / 2 = mean(xc dxc); d rstd = -rstd^3 d var / 2.
      Value halfDvar = mulScalar(b, loc, sumKeepDims(b, loc, mul(b, loc, xc, dxc), dims),
                                 1.0 / m);
      Value r3 = mul(b, loc, rstd, mul(b, loc, rstd, rstd));
      drstd = neg(b, loc, mul(b, loc, r3, halfDvar));
      Value dxcRstd = mul(b, loc, dxc, rstd);
      Value xcDrstd = mul(b, loc, xc, drstd);
      dxhat = add(b, loc, dxcRstd, xcDrstd);
    }
    Value dout = (w && dxhat) ? mul(b, loc, dxhat, w) : dxhat;
    if (dw)
      dout = add(b, loc, dout, mul(b, loc, mul(b, loc, xc, rstd), dw));
    dout = add(b, loc, dout, db);
    out.push_back(tangentFor(b, loc, dout, op.getOutput()));
    out.push_back(tangentFor(b, loc, dmean, op.getMean()));
    out.push_back(tangentFor(b, loc, drstd, op.getRstd()));
    return success();
  }
};

/// An op whose derivatives are those of its decomposition into primitives
/// (so they are made of primitives, and differentiable again).
template <typename OpT,
          LogicalResult (*Decompose)(OpT, OpBuilder &, SmallVectorImpl<Value> &)>
struct RuleByDecomposition {
  static LogicalResult vjp(OpT op, OpBuilder &b, ValueRange adjoints,
                           SmallVectorImpl<Value> &out) {
    return vjpByDecomposition(op, b, adjoints, out,
                              [&](OpBuilder &b2, SmallVectorImpl<Value> &r) {
                                return Decompose(op, b2, r);
                              });
  }
  static LogicalResult jvp(OpT op, OpBuilder &b, ValueRange tangents,
                           SmallVectorImpl<Value> &out) {
    return jvpByDecomposition(op, b, tangents, out,
                              [&](OpBuilder &b2, SmallVectorImpl<Value> &r) {
                                return Decompose(op, b2, r);
                              });
  }
};

template <>
struct Rule<NativeLayerNormBackwardOp> : RuleByDecomposition<NativeLayerNormBackwardOp, decomposeLayerNormBackward> {};

//===----------------------------------------------------------------------===//
// Losses
//===----------------------------------------------------------------------===//

/// nll_loss: derivatives with respect to self and the class weights (the
/// latter through total_weight too, which is sum of the per-sample weights).
template <>
struct Rule<NllLossForwardOp> : RuleByDecomposition<NllLossForwardOp, decomposeNllLossForward> {};

/// nll_loss_backward is linear in grad_output; it also depends on the class
/// weights and total_weight (self only gives the shape).
template <>
struct Rule<NllLossBackwardOp> : RuleByDecomposition<NllLossBackwardOp, decomposeNllLossBackward> {};

/// mse_loss = reduce((self - target)^2); mean divides by the broadcast numel.
template <> struct Rule<MseLossOp> {
  static double norm(MseLossOp op) {
    int64_t reduction = static_cast<int64_t>(op.getReduction());
    if (reduction != 1)
      return 2.0;
    auto shape = broadcastShapes(tensorType(op.getSelf()).getShape(),
                                 tensorType(op.getTarget()).getShape());
    int64_t n = 1;
    for (int64_t d : *shape)
      n *= d;
    return 2.0 / static_cast<double>(n);
  }
  static LogicalResult vjp(MseLossOp op, OpBuilder &b, ValueRange adjoints,
                           SmallVectorImpl<Value> &out) {
    Location loc = op.getLoc();
    Value g = adjoints[0];
    if (!g)
      return pushNulls(out, 2);
    Value d = sub(b, loc, op.getSelf(), op.getTarget());
    Value gd = mul(b, loc, mulScalar(b, loc, d, norm(op)), g);
    out.push_back(adjointFor(b, loc, gd, op.getSelf()));
    out.push_back(adjointFor(b, loc, neg(b, loc, gd), op.getTarget()));
    return success();
  }
  static LogicalResult jvp(MseLossOp op, OpBuilder &b, ValueRange tangents,
                           SmallVectorImpl<Value> &out) {
    Location loc = op.getLoc();
    Value dd = sub(b, loc, tangents[0], tangents[1]);
    if (!dd)
      return pushNulls(out, 1);
    Value d = sub(b, loc, op.getSelf(), op.getTarget());
    Value t = mul(b, loc, mulScalar(b, loc, d, norm(op)), dd);
    if (op.getReduction() != LossReduction::None)
      t = SumOp::create(b, loc, t, b.getDenseI64ArrayAttr({}),
                        b.getBoolAttr(false), TypeAttr());
    out.push_back(tangentFor(b, loc, t, op.getResult()));
    return success();
  }
};

/// r = norm (self - target) grad_output, norm = 2 (/ numel(self) for mean).
template <> struct Rule<MseLossBackwardOp> {
  static double norm(MseLossBackwardOp op) {
    double n = static_cast<double>(tensorType(op.getSelf()).getNumElements());
    return op.getReduction() == LossReduction::Mean ? 2.0 / n : 2.0;
  }
  static LogicalResult vjp(MseLossBackwardOp op, OpBuilder &b,
                           ValueRange adjoints, SmallVectorImpl<Value> &out) {
    Location loc = op.getLoc();
    Value u = adjoints[0];
    if (!u)
      return pushNulls(out, 3);
    Value nu = mulScalar(b, loc, u, norm(op));
    Value d = sub(b, loc, op.getSelf(), op.getTarget());
    Value dgo = mul(b, loc, nu, d);
    Value ds = mul(b, loc, nu, op.getGradOutput());
    out.push_back(adjointFor(b, loc, dgo, op.getGradOutput()));
    out.push_back(adjointFor(b, loc, ds, op.getSelf()));
    out.push_back(adjointFor(b, loc, neg(b, loc, ds), op.getTarget()));
    return success();
  }
  static LogicalResult jvp(MseLossBackwardOp op, OpBuilder &b,
                           ValueRange tangents, SmallVectorImpl<Value> &out) {
    Location loc = op.getLoc();
    Value dgo = tangents[0];
    Value dd = sub(b, loc, tangents[1], tangents[2]);
    Value t;
    if (dd)
      t = mul(b, loc, dd, op.getGradOutput());
    if (dgo)
      t = add(b, loc, t, mul(b, loc, sub(b, loc, op.getSelf(), op.getTarget()), dgo));
    out.push_back(tangentFor(b, loc, mulScalar(b, loc, t, norm(op)), op.getResult()));
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Dropout
//===----------------------------------------------------------------------===//

/// The mask is fixed by the draw, so dropout is linear in its input:
/// output = input * mask * scale (scale 1 when not training, 0 for p = 1).
template <> struct Rule<NativeDropoutOp> {
  static double scale(NativeDropoutOp op) {
    if (!op.getTrain())
      return 1.0;
    double p = op.getP().convertToDouble();
    return p == 1.0 ? 0.0 : 1.0 / (1.0 - p);
  }
  static Value apply(NativeDropoutOp op, OpBuilder &b, Value v) {
    double s = scale(op);
    if (!v) // p = 1 (s = 0) still multiplies, as PyTorch does
      return Value();
    return NativeDropoutBackwardOp::create(b, op.getLoc(), v, op.getMask(),
                                           APFloat(s));
  }
  static LogicalResult vjp(NativeDropoutOp op, OpBuilder &b,
                           ValueRange adjoints, SmallVectorImpl<Value> &out) {
    out.push_back(adjointFor(b, op.getLoc(), apply(op, b, adjoints[0]),
                             op.getInput()));
    return success();
  }
  static LogicalResult jvp(NativeDropoutOp op, OpBuilder &b,
                           ValueRange tangents, SmallVectorImpl<Value> &out) {
    out.push_back(tangentFor(b, op.getLoc(), apply(op, b, tangents[0]),
                             op.getOutput()));
    out.push_back(Value()); // the mask
    return success();
  }
};

/// Linear in grad_output; the mask has no derivative.
template <> struct Rule<NativeDropoutBackwardOp> {
  static LogicalResult vjp(NativeDropoutBackwardOp op, OpBuilder &b,
                           ValueRange adjoints, SmallVectorImpl<Value> &out) {
    Value u = adjoints[0];
    Value g = op.getGradOutput();
    out.push_back(u && isFloatTensor(g)
                      ? adjointFor(b, op.getLoc(),
                                   NativeDropoutBackwardOp::create(
                                       b, op.getLoc(), u, op.getMask(),
                                       op.getScaleAttr()),
                                   g)
                      : Value());
    out.push_back(Value());
    return success();
  }
  static LogicalResult jvp(NativeDropoutBackwardOp op, OpBuilder &b,
                           ValueRange tangents, SmallVectorImpl<Value> &out) {
    return jvpByLinearity(op, b, tangents, out);
  }
};

/// The gradient of tp.ctc_loss is eager's: tp.ctc_loss_backward (see its
/// description: exp(lp) - posterior, the log_softmax logits' gradient).
/// The targets, lengths and log_alpha carry no derivative. The JVP is the
/// same linear map: the tangent summed against the gradient of each loss.
template <> struct Rule<CtcLossOp> {
  static Value gradient(CtcLossOp op, OpBuilder &b, Value g) {
    return CtcLossBackwardOp::create(
        b, op.getLoc(), g, op.getLogProbs(), op.getTargets(),
        op.getInputLengths(), op.getTargetLengths(), op.getNegLogLikelihood(),
        op.getLogAlpha(), op.getBlankAttr(), op.getZeroInfinityAttr());
  }
  static LogicalResult vjp(CtcLossOp op, OpBuilder &b, ValueRange adjoints,
                           SmallVectorImpl<Value> &out) {
    out.push_back(adjoints[0] ? gradient(op, b, adjoints[0]) : Value());
    return pushNulls(out, 3);
  }
  static LogicalResult jvp(CtcLossOp op, OpBuilder &b, ValueRange tangents,
                           SmallVectorImpl<Value> &out) {
    Location loc = op.getLoc();
    Value t = tangents[0];
    if (!t)
      return pushNulls(out, 2);
    Value ones = full(b, loc, tensorType(op.getNegLogLikelihood()), 1.0);
    Value d = mul(b, loc, gradient(op, b, ones), t);
    out.push_back(SumOp::create(b, loc, d, b.getDenseI64ArrayAttr({0, 2}),
                                b.getBoolAttr(false), TypeAttr()));
    out.push_back(Value());
    return success();
  }
};

} // namespace mlir::tp::autodiff

void autodiff::attachNNRules(MLIRContext *ctx) {
  attachRules<ThresholdBackwardOp, TanhBackwardOp, SigmoidBackwardOp,
              SiluBackwardOp, GeluBackwardOp, SoftmaxOp, LogSoftmaxOp,
              SoftmaxBackwardDataOp, LogSoftmaxBackwardDataOp,
              NativeLayerNormOp, NativeLayerNormBackwardOp, NllLossForwardOp,
              NllLossBackwardOp, MseLossOp, MseLossBackwardOp, NativeDropoutOp,
              NativeDropoutBackwardOp, CtcLossOp>(ctx);
}
