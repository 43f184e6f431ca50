//===- Decompose.cpp - the decomposition table (Section 4.8) --------------===//
//
// Composite `tp` ops expand into base ops through one table, `kTable` at the
// end of this file: op -> a small function that builds the base ops with
// `OpT::create` (result types are inferred). The driver applies it to every
// op of the table that is not kept, and to the composite ops the
// decompositions themselves create.
//
// Exactness. Each function performs the primitive sequence of the reference
// interpreter's kernel for the op (lib/Interpreter/*Kernels.cpp, written with
// FloatMath), in the same association order and in the same types:
//
//  * the kernel computes in T = accumulationType(result): f32 for f16/bf16
//    results, the result type otherwise; operands are converted the way the
//    kernel loads them (`to`), the value is converted to the result type
//    once at the end (`done`). Integer operands of floating ops are
//    converted first.
//  * a scalar the kernel rounds to T (`m.r(c)`) is a `.Scalar` attribute,
//    which the op rounds the same way. A constant the kernel uses unrounded
//    (`m.mul(x, c)`, `m.div(s, n)`, `x > threshold`) is an attribute too
//    when it is exact in T; otherwise the step runs in f64 and converts
//    back, which is the kernel's double computation rounded once
//    (`mulRaw`, `divRaw`, `cmpRaw`).
//  * a constant the kernel computes in T (`m.mul(m.r(a), m.r(b))`) is
//    computed by ops on a 0-d `tp.full`, so that it is also right when the
//    interpreter promotes everything to f64.
//  * reductions (sum, amax) combine in the same lexicographic order as the
//    kernel's loops; matrix products are mm/bmm with the same k order.
//
// A decomposition returns failure (the op stays whole) for the few cases it
// does not handle (documented at the function).
//
//===----------------------------------------------------------------------===//

#include "Stax/Dialect/Tp/IR/Functional.h"
#include "Stax/Dialect/Tp/IR/TpOps.h"
#include "Stax/Dialect/Tp/Transforms/Passes.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/StringSet.h"
#include <algorithm>

namespace mlir::tp {
#define GEN_PASS_DEF_STAXDECOMPOSE
#include "Stax/Dialect/Tp/Transforms/Passes.h.inc"
} // namespace mlir::tp

using namespace mlir;
namespace tp = mlir::tp;

namespace {

using Results = SmallVector<Value, 3>;

//===----------------------------------------------------------------------===//
// Building blocks: one method per primitive
//===----------------------------------------------------------------------===//

RankedTensorType typeOf(Value v) { return cast<RankedTensorType>(v.getType()); }
Type eltOf(Value v) { return typeOf(v).getElementType(); }
ArrayRef<int64_t> shapeOf(Value v) { return typeOf(v).getShape(); }

/// The interpreter's accumulationType: f32 for f16/bf16.
Type computeType(Type t) {
  if (t.isF16() || t.isBF16())
    return Float32Type::get(t.getContext());
  return t;
}

/// True when `c` is exactly representable in floating type `t`.
bool exactIn(double c, Type t) {
  auto ft = dyn_cast<FloatType>(t);
  if (!ft)
    return false;
  if (ft.isF64())
    return true;
  llvm::APFloat f(c);
  bool losesInfo = false;
  f.convert(ft.getFloatSemantics(), llvm::APFloat::rmNearestTiesToEven,
            &losesInfo);
  return !losesInfo;
}

uint64_t u(int64_t v) { return static_cast<uint64_t>(v); }

/// Builds base ops before the decomposed op. `rt` is the op's (first)
/// result element type and `T` the type its kernel computes in.
class D {
public:
  D(OpBuilder &b, Operation *op, Type rt)
      : b(b), loc(op->getLoc()), rt(rt), T(computeType(rt)) {}

  OpBuilder &b;
  Location loc;
  Type rt, T;

  // Scalars.
  TypedAttr f64(double v) { return b.getF64FloatAttr(v); }
  TypedAttr i64(int64_t v) { return b.getI64IntegerAttr(v); }
  /// `v` as the scalar attribute of a computation in element type `elt`.
  TypedAttr scalar(double v, Type elt) {
    return isa<FloatType>(elt) ? f64(v) : i64(static_cast<int64_t>(v));
  }
  Type f64Type() { return b.getF64Type(); }

  // Conversions.
  Value to(Value v, Type elt) {
    if (eltOf(v) == elt)
      return v;
    return tp::ToCopyOp::create(b, loc, v, TypeAttr::get(elt));
  }
  /// Loaded as the kernel's `loadAs(v, i, rt)` then computed in T.
  Value load(Value v) { return to(to(v, rt), T); }
  /// Loaded as `loadAs(v, i, T)`.
  Value loadT(Value v) { return to(v, T); }
  /// The final value in the result type.
  Value done(Value v) { return to(v, rt); }
  Value done(Value v, Type elt) { return to(v, elt); }

  // Elementwise primitives.
  Value add(Value x, Value y) { return tp::AddOp::create(b, loc, x, y); }
  Value sub(Value x, Value y) { return tp::SubOp::create(b, loc, x, y); }
  Value mul(Value x, Value y) { return tp::MulOp::create(b, loc, x, y); }
  Value div(Value x, Value y) {
    return tp::DivOp::create(b, loc, x, y, tp::RoundingModeAttr());
  }
  Value neg(Value x) { return tp::NegOp::create(b, loc, x); }
  Value abs(Value x) { return tp::AbsOp::create(b, loc, x); }
  Value exp(Value x) { return tp::ExpOp::create(b, loc, x); }
  Value log(Value x) { return tp::LogOp::create(b, loc, x); }
  Value log1p(Value x) { return tp::Log1pOp::create(b, loc, x); }
  Value tanh(Value x) { return tp::TanhOp::create(b, loc, x); }
  Value erf(Value x) { return tp::ErfOp::create(b, loc, x); }
  Value rsqrt(Value x) { return tp::RsqrtOp::create(b, loc, x); }
  Value reciprocal(Value x) { return tp::ReciprocalOp::create(b, loc, x); }
  Value sigmoid(Value x) { return tp::SigmoidOp::create(b, loc, x); }

  // With a scalar the op rounds to its computation type (`m.r(c)`).
  Value addS(Value x, double c) {
    return tp::AddScalarOp::create(b, loc, x, scalar(c, eltOf(x)));
  }
  Value subS(Value x, double c) {
    return tp::SubScalarOp::create(b, loc, x, scalar(c, eltOf(x)));
  }
  /// x * 1 and x / 1 are x bitwise (the folders of mul.Scalar/div.Scalar).
  Value mulS(Value x, double c) {
    if (c == 1.0)
      return x;
    return tp::MulScalarOp::create(b, loc, x, scalar(c, eltOf(x)));
  }
  Value divS(Value x, double c) {
    if (c == 1.0)
      return x;
    return tp::DivScalarOp::create(b, loc, x, scalar(c, eltOf(x)),
                                   tp::RoundingModeAttr());
  }
  /// `c - x` (`m.sub(c, x)`).
  Value rsubS(Value x, double c) {
    return tp::RsubScalarOp::create(b, loc, x, scalar(c, eltOf(x)));
  }

  // With a constant the kernel does not round: `m.mul(x, c)`, `m.div(x, c)`.
  Value mulRaw(Value x, double c) {
    if (exactIn(c, eltOf(x)))
      return mulS(x, c);
    return to(mulS(to(x, f64Type()), c), eltOf(x));
  }
  Value divRaw(Value x, double c) {
    if (exactIn(c, eltOf(x)))
      return divS(x, c);
    return to(divS(to(x, f64Type()), c), eltOf(x));
  }
  /// `x > c` / `x <= c` with c unrounded.
  Value gtRaw(Value x, double c) {
    if (!exactIn(c, eltOf(x)))
      x = to(x, f64Type());
    return tp::GtScalarOp::create(b, loc, x, f64(c));
  }
  Value leRaw(Value x, double c) {
    if (!exactIn(c, eltOf(x)))
      x = to(x, f64Type());
    return tp::LeScalarOp::create(b, loc, x, f64(c));
  }
  Value gtZero(Value x) { return tp::GtScalarOp::create(b, loc, x, i64(0)); }
  Value eqS(Value x, TypedAttr c) { return tp::EqScalarOp::create(b, loc, x, c); }

  // Selection and creation.
  Value where(Value c, Value x, Value y) {
    return tp::WhereOp::create(b, loc, c, x, y);
  }
  Value maskedFill(Value x, Value mask, double v) {
    return tp::MaskedFillScalarOp::create(b, loc, x, mask, scalar(v, eltOf(x)));
  }
  Value full(ArrayRef<int64_t> shape, Type elt, double v) {
    return tp::FullOp::create(b, loc, RankedTensorType::get(shape, elt),
                              scalar(v, elt));
  }
  /// A 0-d tensor of T holding `m.r(v)`.
  Value constT(double v) { return full({}, T, v); }

  // Reductions, in the kernels' lexicographic order.
  Value sum(Value x, ArrayRef<int64_t> dims, bool keepdim) {
    return tp::SumOp::create(b, loc, x, dims, keepdim, TypeAttr());
  }
  Value amax(Value x, ArrayRef<int64_t> dims, bool keepdim) {
    return tp::AmaxOp::create(b, loc, x, dims, keepdim, TypeAttr());
  }

  // Shapes.
  Value view(Value x, ArrayRef<int64_t> shape) {
    if (shapeOf(x) == shape)
      return x;
    return tp::ViewOp::create(b, loc, x, shape);
  }
  Value reshape(Value x, ArrayRef<int64_t> shape) {
    if (shapeOf(x) == shape)
      return x;
    return tp::ReshapeOp::create(b, loc, x, shape);
  }
  Value expand(Value x, ArrayRef<int64_t> shape) {
    if (shapeOf(x) == shape)
      return x;
    return tp::ExpandOp::create(b, loc, x, shape);
  }
  Value unsqueeze(Value x, int64_t dim) {
    return tp::UnsqueezeOp::create(b, loc, x, u(dim));
  }
  Value slice(Value x, int64_t dim, int64_t start, int64_t end) {
    return tp::SliceOp::create(b, loc, x, u(dim), u(start), u(end), u(1));
  }
};

/// Normalized reduced dims (empty = all) and the number of elements each
/// group combines.
std::pair<SmallVector<int64_t>, int64_t> reduced(ArrayRef<int64_t> shape,
                                                 ArrayRef<int64_t> dims) {
  SmallVector<int64_t> out;
  int64_t n = 1;
  int64_t rank = shape.size();
  for (int64_t i = 0; i < rank; ++i) {
    bool isReduced = dims.empty() || llvm::any_of(dims, [&](int64_t d) {
                       return *tp::normalizeDim(d, rank) == i;
                     });
    if (isReduced) {
      out.push_back(i);
      n *= shape[i];
    }
  }
  return {out, n};
}

int64_t numel(ArrayRef<int64_t> shape) {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

bool isFloat(Type t) { return isa<FloatType>(t); }

//===----------------------------------------------------------------------===//
// Activations (ElementwiseKernels.cpp, registerUnary)
//===----------------------------------------------------------------------===//

// FloatMath::sigmoid: 1 / (1 + exp(-x)).
FailureOr<Results> sigmoid(OpBuilder &b, tp::SigmoidOp op) {
  D d(b, op, eltOf(op.getResult()));
  Value x = d.loadT(op.getSelf());
  return Results{d.done(d.reciprocal(d.addS(d.exp(d.neg(x)), 1.0)))};
}

// x / (1 + exp(-x)).
FailureOr<Results> silu(OpBuilder &b, tp::SiluOp op) {
  D d(b, op, eltOf(op.getResult()));
  Value x = d.loadT(op.getSelf());
  return Results{d.done(d.div(x, d.addS(d.exp(d.neg(x)), 1.0)))};
}

// x * tanh(log1p(exp(x))).
FailureOr<Results> mish(OpBuilder &b, tp::MishOp op) {
  D d(b, op, eltOf(op.getResult()));
  Value x = d.loadT(op.getSelf());
  return Results{d.done(d.mul(x, d.tanh(d.log1p(d.exp(x)))))};
}

// none: (x * 0.5) * (1 + erf(x * 0.7071067811865476)), the constant unrounded
// as in the kernel. tanh: (0.5 * x) * (1 + tanh(k0 * (x + k1 * x^3))).
FailureOr<Results> gelu(OpBuilder &b, tp::GeluOp op) {
  D d(b, op, eltOf(op.getResult()));
  Value x = d.loadT(op.getSelf());
  Value half = d.mulS(x, 0.5);
  if (op.getApproximate() != tp::GeluApproximate::Tanh) {
    Value cdf = d.addS(d.erf(d.mulRaw(x, 0.7071067811865476)), 1.0);
    return Results{d.done(d.mul(half, cdf))};
  }
  Value cube = d.mul(d.mul(x, x), x);
  Value inner = d.mulS(d.add(x, d.mulS(cube, 0.044715)), 0.7978845608028654);
  return Results{d.done(d.mul(half, d.addS(d.tanh(inner), 1.0)))};
}

// x > 0 ? x : x * slope.
FailureOr<Results> leakyRelu(OpBuilder &b, tp::LeakyReluOp op) {
  D d(b, op, eltOf(op.getResult()));
  Value x = d.loadT(op.getSelf());
  double slope = op.getNegativeSlope().convertToDouble();
  Value isPositive = d.gtZero(x);
  Value negative = d.mulS(x, slope);
  return Results{d.done(d.where(isPositive, x, negative))};
}

// x > 0 ? x * scale : (exp(x * input_scale) - 1) * (alpha * scale).
FailureOr<Results> elu(OpBuilder &b, tp::EluOp op) {
  D d(b, op, eltOf(op.getResult()));
  Value x = d.loadT(op.getSelf());
  double alpha = op.getAlpha().convertToDouble(),
         scale = op.getScale().convertToDouble(),
         inputScale = op.getInputScale().convertToDouble();
  Value expm1 = d.subS(d.exp(d.mulS(x, inputScale)), 1.0);
  Value negative;
  if (alpha == 1.0) // m.mul(m.r(1), m.r(scale)) == m.r(scale)
    negative = d.mulS(expm1, scale);
  else if (scale == 1.0)
    negative = d.mulS(expm1, alpha);
  else // the coefficient is a product rounded in T
    negative = d.mul(expm1, d.mulS(d.constT(alpha), scale));
  Value isPositive = d.gtZero(x);
  Value positive = d.mulS(x, scale);
  return Results{d.done(d.where(isPositive, positive, negative))};
}

// bx = x * beta; bx > threshold ? x : log1p(exp(bx)) / beta.
FailureOr<Results> softplus(OpBuilder &b, tp::SoftplusOp op) {
  D d(b, op, eltOf(op.getResult()));
  Value x = d.loadT(op.getSelf());
  double beta = op.getBeta().convertToDouble(),
         threshold = op.getThreshold().convertToDouble();
  Value bx = d.mulS(x, beta);
  Value soft = d.divS(d.log1p(d.exp(bx)), beta);
  return Results{d.done(d.where(d.gtRaw(bx, threshold), x, soft))};
}

// min(max(x, lo), hi): tp.clamp, whose kernel is the same NaN-propagating
// max then min on integers and floats.
FailureOr<Results> hardtanh(OpBuilder &b, tp::HardtanhOp op) {
  D d(b, op, eltOf(op.getResult()));
  Type elt = eltOf(op.getSelf());
  if (elt.isInteger(1))
    return failure();
  double lo = op.getMinVal().convertToDouble(),
         hi = op.getMaxVal().convertToDouble();
  return Results{tp::ClampOp::create(b, d.loc, op.getSelf(), d.scalar(lo, elt),
                                     d.scalar(hi, elt))};
}

// other - self == (-self) + other exactly (IEEE defines a - b as a + (-b)),
// `other` rounded to the result type (a half type too); with alpha, eager's
// add kernel: fma(self, -alpha, other).
FailureOr<Results> rsubScalar(OpBuilder &b, tp::RsubScalarOp op) {
  D d(b, op, eltOf(op.getResult()));
  if (d.rt.isInteger(1))
    return failure();
  Type ct = isFloat(d.rt) ? d.T : d.rt;
  Value x = d.to(op.getSelf(), ct);
  if (!isFloat(ct)) {
    // The integer scalars as they are: a double holds 53 bits of an int64.
    MLIRContext *ctx = b.getContext();
    int64_t alpha = tp::getScalarAsInt(op.getAlpha());
    Value scaled = alpha == 1 ? x
                              : tp::MulScalarOp::create(
                                    b, d.loc, x, tp::getIntScalar(ctx, alpha));
    TypedAttr other = tp::getIntScalar(ctx, tp::getScalarAsInt(op.getOther()));
    return Results{
        d.done(tp::AddScalarOp::create(b, d.loc, d.neg(scaled), other))};
  }
  double alpha = tp::getScalarAsDouble(op.getAlpha());
  double other = tp::getScalarAsDouble(op.getOther());
  if (alpha != 1.0) {
    // Eager's add kernel with -alpha: one fma (tp.add's alpha semantics),
    // `other` in the result type.
    Value otherT = d.full({}, d.rt, other);
    return Results{tp::AddOp::create(b, d.loc, otherT, op.getSelf(),
                                     d.f64(-alpha))
                       .getResult()};
  }
  Value scaled = x;
  if (d.rt == ct)
    return Results{d.done(d.addS(d.neg(scaled), other))};
  // A half result: the kernel stores `other` in the result type first.
  Value otherT = d.to(d.full({}, d.rt, other), ct);
  return Results{d.done(d.add(d.neg(scaled), otherT))};
}

//===----------------------------------------------------------------------===//
// Pointwise backward operators (NNKernels.cpp): grad_output and the saved
// tensor are loaded as the result type, then computed in T.
//===----------------------------------------------------------------------===//

template <typename OpT> D backwardBuilder(OpBuilder &b, OpT op) {
  return D(b, op, eltOf(op.getResult()));
}

FailureOr<Results> geluBackward(OpBuilder &b, tp::GeluBackwardOp op) {
  D d = backwardBuilder(b, op);
  Value g = d.load(op.getGradOutput()), x = d.load(op.getSelf());
  if (op.getApproximate() == tp::GeluApproximate::Tanh) {
    const double kBeta = 0.7978845608028654, kKappa = 0.044715;
    Value xSq = d.mul(x, x);
    Value xCube = d.mul(xSq, x);
    Value inner = d.mulS(d.add(x, d.mulS(xCube, kKappa)), kBeta);
    Value t = d.tanh(inner);
    Value left = d.mulS(x, 0.5);
    Value right = d.addS(t, 1.0);
    Value leftD = d.mulS(right, 0.5);
    Value tanhD = d.rsubS(d.mul(t, t), 1.0);
    // m.mul(3.0, kKappa) is a product rounded in T.
    Value threeKappa = d.mulS(d.constT(kKappa), 3.0);
    Value innerD = d.mulS(d.addS(d.mul(threeKappa, xSq), 1.0), kBeta);
    Value rightD = d.mul(d.mul(left, tanhD), innerD);
    return Results{d.done(d.mul(g, d.add(leftD, rightD)))};
  }
  const double kAlpha = 0.7071067811865476, kBeta = 0.3989422804014327;
  Value cdf = d.mulS(d.addS(d.erf(d.mulS(x, kAlpha)), 1.0), 0.5);
  Value pdf = d.mulS(d.exp(d.mul(d.mulS(x, -0.5), x)), kBeta);
  return Results{d.done(d.mul(g, d.add(cdf, d.mul(x, pdf))))};
}

// self <= threshold ? 0 : grad_output (threshold unrounded).
FailureOr<Results> thresholdBackward(OpBuilder &b, tp::ThresholdBackwardOp op) {
  D d = backwardBuilder(b, op);
  Value g = d.load(op.getGradOutput()), x = d.load(op.getSelf());
  Value mask = d.leRaw(x, tp::getScalarAsDouble(op.getThreshold()));
  return Results{d.done(d.where(mask, d.constT(0.0), g))};
}

// g * (1 - y * y).
FailureOr<Results> tanhBackward(OpBuilder &b, tp::TanhBackwardOp op) {
  D d = backwardBuilder(b, op);
  Value g = d.load(op.getGradOutput()), y = d.load(op.getOutput());
  return Results{d.done(d.mul(g, d.rsubS(d.mul(y, y), 1.0)))};
}

// (g * (1 - y)) * y.
FailureOr<Results> sigmoidBackward(OpBuilder &b, tp::SigmoidBackwardOp op) {
  D d = backwardBuilder(b, op);
  Value g = d.load(op.getGradOutput()), y = d.load(op.getOutput());
  return Results{d.done(d.mul(d.mul(g, d.rsubS(y, 1.0)), y))};
}

// s = sigmoid(x); g * (s * (1 + x * (1 - s))).
FailureOr<Results> siluBackward(OpBuilder &b, tp::SiluBackwardOp op) {
  D d = backwardBuilder(b, op);
  Value g = d.load(op.getGradOutput()), x = d.load(op.getSelf());
  Value s = d.sigmoid(x);
  Value inner = d.addS(d.mul(x, d.rsubS(s, 1.0)), 1.0);
  return Results{d.done(d.mul(g, d.mul(s, inner)))};
}

// (g * mask) * scale.
FailureOr<Results> nativeDropoutBackward(OpBuilder &b,
                                         tp::NativeDropoutBackwardOp op) {
  D d = backwardBuilder(b, op);
  if (!isFloat(d.rt))
    return failure();
  Value g = d.load(op.getGradOutput());
  Value mask = d.to(op.getMask(), d.T);
  return Results{
      d.done(d.mulS(d.mul(g, mask), op.getScale().convertToDouble()))};
}

//===----------------------------------------------------------------------===//
// Reductions (ReductionKernels.cpp)
//===----------------------------------------------------------------------===//

// sum / n, the sum rounded to the result type first (eager's CPU mean is
// sum(x).div_(n): an f16 mean of 4096 x 30 is inf there).
FailureOr<Results> mean(OpBuilder &b, tp::MeanOp op) {
  D d(b, op, eltOf(op.getResult()));
  Value x = d.load(op.getSelf());
  auto [dims, n] = reduced(shapeOf(x), op.getDims());
  Value s = d.to(d.done(d.sum(x, dims, op.getKeepdim())), d.T);
  return Results{d.done(d.divRaw(s, static_cast<double>(n)))};
}

// mean = k + sum(x - k) / n, k each slice's first element (sum / n for an
// empty slice or a 0-d x); sum((x - mean)^2) / max(0, n - correction).
// The shift makes the mean of a constant slice exact, so its variance is
// 0 as eager's Welford gives: std's gradient is 0 where the variance is
// 0, and a variance of rounding noise gave it O(1 / n) instead.
FailureOr<Results> var(OpBuilder &b, tp::VarOp op) {
  D d(b, op, eltOf(op.getResult()));
  Value x = d.load(op.getSelf());
  auto [dims, n] = reduced(shapeOf(x), op.getDims());
  Value mu;
  if (n > 0 && !dims.empty()) {
    Value k = x;
    for (int64_t dim : dims)
      k = d.slice(k, dim, 0, 1);
    Value shifted = d.sum(d.sub(x, k), dims, true);
    mu = d.add(k, d.divRaw(shifted, static_cast<double>(n)));
  } else {
    mu = d.divRaw(d.sum(x, dims, true), static_cast<double>(n));
  }
  Value dx = d.sub(x, mu);
  // The sum keeps its dims whatever keepdim says, and a view drops them:
  // var with and without keepdim of one tensor (batch norm computes both)
  // then share every reduction once CSE runs.
  Value ss = d.sum(d.mul(dx, dx), dims, true);
  double divisor = std::max(0.0, static_cast<double>(n) -
                                     op.getCorrection().convertToDouble());
  Value v = d.divRaw(ss, divisor);
  if (!op.getKeepdim())
    v = d.view(v, shapeOf(op.getResult()));
  return Results{d.done(v)};
}

// m = amax (0 where infinite); log(sum(exp(x - m))) + m.
FailureOr<Results> logsumexp(OpBuilder &b, tp::LogsumexpOp op) {
  D d(b, op, eltOf(op.getResult()));
  Value x = d.load(op.getSelf());
  auto [dims, n] = reduced(shapeOf(x), op.getDims());
  if (n == 0) // amax of nothing is an error: log of the empty sum, -inf
    return Results{d.done(d.log(d.sum(x, dims, op.getKeepdim())))};
  Value mx = d.amax(x, dims, true);
  Value isInf = d.eqS(d.abs(mx), d.f64(INFINITY));
  mx = d.maskedFill(mx, isInf, 0.0);
  Value s = d.sum(d.exp(d.sub(x, mx)), dims, op.getKeepdim());
  Value m = d.view(mx, shapeOf(s));
  return Results{d.done(d.add(d.log(s), m))};
}

//===----------------------------------------------------------------------===//
// Softmax (NNKernels.cpp)
//===----------------------------------------------------------------------===//

/// The extent of `x` along `axis` (in [-rank, rank)): 1 for a 0-d tensor,
/// whose one element dims -1 and 0 name.
int64_t extentAlong(Value x, int64_t axis) {
  ArrayRef<int64_t> shape = shapeOf(x);
  if (shape.empty())
    return 1;
  return shape[axis < 0 ? axis + static_cast<int64_t>(shape.size()) : axis];
}

// e = exp(x - amax(x)); e * (1 / sum(e)) along the last dim (eager's
// lastdim kernel: one division per slice), e / sum(e) along any other.
FailureOr<Results> softmax(OpBuilder &b, tp::SoftmaxOp op) {
  D d(b, op, eltOf(op.getResult()));
  Value x = d.load(op.getSelf());
  int64_t rank = shapeOf(x).size();
  int64_t axis = static_cast<int64_t>(op.getDim());
  SmallVector<int64_t> dim{axis};
  if (extentAlong(x, axis) == 0)
    return Results{d.done(x)}; // empty, and amax of nothing is an error
  Value e = d.exp(d.sub(x, d.amax(x, dim, true)));
  Value s = d.sum(e, dim, true);
  if (axis + (axis < 0 ? rank : 0) >= rank - 1)
    return Results{d.done(d.mul(e, d.reciprocal(s)))};
  return Results{d.done(d.div(e, s))};
}

// (x - amax(x)) - log(sum(exp(x - amax(x)))).
FailureOr<Results> logSoftmax(OpBuilder &b, tp::LogSoftmaxOp op) {
  D d(b, op, eltOf(op.getResult()));
  Value x = d.load(op.getSelf());
  int64_t axis = static_cast<int64_t>(op.getDim());
  SmallVector<int64_t> dim{axis};
  if (extentAlong(x, axis) == 0)
    return Results{d.done(x)}; // empty, and amax of nothing is an error
  Value shifted = d.sub(x, d.amax(x, dim, true));
  Value lse = d.log(d.sum(d.exp(shifted), dim, true));
  return Results{d.done(d.sub(shifted, lse))};
}

// y * (g - sum(g * y)).
FailureOr<Results> softmaxBackward(OpBuilder &b,
                                   tp::SoftmaxBackwardDataOp op) {
  D d(b, op, eltOf(op.getResult()));
  Value g = d.loadT(op.getGradOutput()), y = d.loadT(op.getOutput());
  SmallVector<int64_t> dim{static_cast<int64_t>(op.getDim())};
  Value s = d.sum(d.mul(g, y), dim, true);
  return Results{d.done(d.mul(y, d.sub(g, s)))};
}

// g - exp(y) * sum(g).
FailureOr<Results> logSoftmaxBackward(OpBuilder &b,
                                      tp::LogSoftmaxBackwardDataOp op) {
  D d(b, op, eltOf(op.getResult()));
  Value g = d.loadT(op.getGradOutput()), y = d.loadT(op.getOutput());
  SmallVector<int64_t> dim{static_cast<int64_t>(op.getDim())};
  Value s = d.sum(g, dim, true);
  return Results{d.done(d.sub(g, d.mul(d.exp(y), s)))};
}

//===----------------------------------------------------------------------===//
// Layer norm (NNKernels.cpp)
//===----------------------------------------------------------------------===//

/// The normalized (trailing) dims and their element count M.
std::pair<SmallVector<int64_t>, int64_t> normalizedDims(Value x,
                                                        size_t count) {
  int64_t rank = shapeOf(x).size();
  SmallVector<int64_t> dims;
  int64_t m = 1;
  for (int64_t i = rank - static_cast<int64_t>(count); i < rank; ++i) {
    dims.push_back(i);
    m *= shapeOf(x)[i];
  }
  return {dims, m};
}

// mean = sum / M; rstd = rsqrt(sum((x - mean)^2) / M + eps);
// ((x - mean) * rstd) * weight + bias.
FailureOr<Results> nativeLayerNorm(OpBuilder &b, tp::NativeLayerNormOp op) {
  D d(b, op, eltOf(op.getOutput()));
  Value x = d.loadT(op.getInput());
  auto [dims, m] = normalizedDims(x, op.getNormalizedShape().size());
  double n = static_cast<double>(m);
  Value mu = d.divRaw(d.sum(x, dims, true), n);
  Value dx = d.sub(x, mu);
  Value var = d.divRaw(d.sum(d.mul(dx, dx), dims, true), n);
  Value rstd = d.rsqrt(d.addS(var, op.getEps().convertToDouble()));
  Value y = d.mul(dx, rstd);
  if (op.getWeight())
    y = d.mul(y, d.loadT(op.getWeight()));
  if (op.getBias())
    y = d.add(y, d.loadT(op.getBias()));
  return Results{d.done(y), d.done(mu), d.done(rstd)};
}

/// Sum over the leading (row) dims of `v`, in row order; a tensor without
/// leading dims gets a unit one so that the sum adds it to 0 as the kernel
/// does.
Value sumRows(D &d, Value v, int64_t lead) {
  if (lead == 0)
    return d.sum(d.unsqueeze(v, 0), {0}, false);
  SmallVector<int64_t> dims;
  for (int64_t i = 0; i < lead; ++i)
    dims.push_back(i);
  return d.sum(v, dims, false);
}

// xhat = (x - mean) * rstd, dxhat = g * w; a = sum(dxhat), c = sum(dxhat *
// xhat) per row; grad_input = (rstd / M) * ((M * dxhat - a) - xhat * c);
// grad_weight = sum over rows of g * xhat, grad_bias = sum over rows of g.
FailureOr<Results> nativeLayerNormBackward(OpBuilder &b,
                                           tp::NativeLayerNormBackwardOp op) {
  D d(b, op, eltOf(op.getGradInput()));
  Value g = d.loadT(op.getGradOut()), x = d.loadT(op.getInput());
  Value mu = d.loadT(op.getMean()), rstd = d.loadT(op.getRstd());
  auto [dims, m] = normalizedDims(x, op.getNormalizedShape().size());
  int64_t lead = shapeOf(x).size() - dims.size();
  double n = static_cast<double>(m);
  Value xhat = d.mul(d.sub(x, mu), rstd);
  Value dxhat = op.getWeight() ? d.mul(g, d.loadT(op.getWeight())) : g;
  Value a = d.sum(dxhat, dims, true);
  Value c = d.sum(d.mul(dxhat, xhat), dims, true);
  Value scale = d.divRaw(rstd, n);
  Value centered = d.sub(d.mulRaw(dxhat, n), a);
  Value correction = d.mul(xhat, c);
  Value gi = d.mul(scale, d.sub(centered, correction));
  Value gw = sumRows(d, d.mul(g, xhat), lead);
  Value gb = sumRows(d, g, lead);
  return Results{d.done(gi), d.done(gw), d.done(gb)};
}

//===----------------------------------------------------------------------===//
// Losses (NNKernels.cpp)
//===----------------------------------------------------------------------===//

/// self, target (and the per-sample vectors) of nll_loss as [N, C] and [N]:
/// a 1-D self is one sample.
struct NllOperands {
  Value self, target, ignored, safe;
};
NllOperands nllOperands(D &d, Value self, Value target, int64_t ignoreIndex) {
  NllOperands o;
  o.self = d.loadT(self);
  o.target = target;
  if (shapeOf(self).size() == 1) {
    o.self = d.unsqueeze(o.self, 0);
    o.target = d.unsqueeze(target, 0);
  }
  o.ignored = d.eqS(o.target, d.i64(ignoreIndex));
  o.safe = d.maskedFill(o.target, o.ignored, 0.0);
  return o;
}

// loss_i = -self[i, t_i] * w[t_i] (0 when ignored), w_i = w[t_i] (0 when
// ignored; 1 without weight); mean: sum(loss) / sum(w), sum: sum(loss).
FailureOr<Results> nllLossForward(OpBuilder &b, tp::NllLossForwardOp op) {
  D d(b, op, eltOf(op.getOutput()));
  int64_t reduction = static_cast<int64_t>(op.getReduction());
  NllOperands o = nllOperands(d, op.getSelf(), op.getTarget(),
                              static_cast<int64_t>(op.getIgnoreIndex()));
  int64_t samples = shapeOf(o.target)[0];
  Value picked = d.view(tp::GatherOp::create(b, d.loc, o.self,
                                             d.unsqueeze(o.safe, 1), u(1)),
                        {samples});
  Value loss = d.neg(picked), w;
  if (Value weight = op.getWeight()) {
    w = tp::IndexSelectOp::create(b, d.loc, d.loadT(weight), o.safe, u(0));
    loss = d.mul(loss, w);
    w = d.maskedFill(w, o.ignored, 0.0);
  } else {
    w = d.to(tp::LogicalNotOp::create(b, d.loc, o.ignored), d.T);
  }
  loss = d.maskedFill(loss, o.ignored, 0.0);
  Value lossSum = d.sum(loss, {}, false), weightSum = d.sum(w, {}, false);
  Value out = reduction == 0   ? d.view(loss, shapeOf(op.getOutput()))
              : reduction == 1 ? d.div(lossSum, weightSum)
                               : lossSum;
  bool perSample = reduction == 0 && shapeOf(op.getSelf()).size() == 2;
  Value total = perSample ? d.constT(0.0) : weightSum;
  return Results{d.done(out), d.done(total)};
}

// grad[i, t_i] = -w[t_i] * g_i (/ total_weight for mean), 0 elsewhere and
// for ignored samples.
FailureOr<Results> nllLossBackward(OpBuilder &b, tp::NllLossBackwardOp op) {
  D d(b, op, eltOf(op.getResult()));
  int64_t reduction = static_cast<int64_t>(op.getReduction());
  NllOperands o = nllOperands(d, op.getSelf(), op.getTarget(),
                              static_cast<int64_t>(op.getIgnoreIndex()));
  int64_t samples = shapeOf(o.target)[0];
  bool perSample = reduction == 0 && shapeOf(op.getSelf()).size() == 2;
  Value g = d.loadT(op.getGradOutput());
  if (numel(shapeOf(g)) != (perSample ? samples : 1) ||
      numel(shapeOf(op.getTotalWeight())) != 1)
    return failure(); // the kernel reports these at run time
  g = perSample ? d.view(g, {samples}) : d.view(g, {});
  Value v;
  if (Value weight = op.getWeight()) {
    Value w = tp::IndexSelectOp::create(b, d.loc, d.loadT(weight), o.safe, u(0));
    v = d.mul(d.neg(w), g);
  } else {
    v = d.expand(d.neg(g), {samples}); // m.mul(-1.0, g) == -g
  }
  if (reduction == 1)
    v = d.div(v, d.view(d.loadT(op.getTotalWeight()), {}));
  v = d.maskedFill(v, o.ignored, 0.0);
  Value zeros = d.full(shapeOf(o.self), d.T, 0.0);
  Value index = d.unsqueeze(o.safe, 1);
  Value src = d.unsqueeze(v, 1);
  Value grad = tp::ScatterOp::create(b, d.loc, zeros, index, src, u(1));
  return Results{d.done(d.view(grad, shapeOf(op.getSelf())))};
}

// (a - b)^2, then its sum (sum) or sum / numel (mean).
FailureOr<Results> mseLoss(OpBuilder &b, tp::MseLossOp op) {
  D d(b, op, eltOf(op.getResult()));
  Value self = d.load(op.getSelf());
  Value target = d.load(op.getTarget());
  Value diff = d.sub(self, target);
  Value sq = d.mul(diff, diff);
  int64_t reduction = static_cast<int64_t>(op.getReduction());
  if (reduction == 0)
    return Results{d.done(sq)};
  Value s = d.sum(sq, {}, false);
  if (reduction == 2)
    return Results{d.done(s)};
  return Results{d.done(d.divRaw(s, static_cast<double>(numel(shapeOf(sq)))))};
}

// ((a - b) * norm) * g with norm = 2 / numel(self) (mean) or 2.
FailureOr<Results> mseLossBackward(OpBuilder &b, tp::MseLossBackwardOp op) {
  D d(b, op, eltOf(op.getResult()));
  Value self = d.load(op.getSelf());
  Value target = d.load(op.getTarget());
  Value diff = d.sub(self, target);
  int64_t reduction = static_cast<int64_t>(op.getReduction());
  double norm = reduction == 1
                    ? 2.0 / static_cast<double>(numel(shapeOf(op.getSelf())))
                    : 2.0;
  Value scaled = d.mulS(diff, norm);
  Value g = d.loadT(op.getGradOutput());
  Value r = d.mul(scaled, g);
  if (shapeOf(r) != shapeOf(op.getResult()))
    return failure(); // operands that do not broadcast to self
  return Results{d.done(r)};
}

//===----------------------------------------------------------------------===//
// Linear algebra (LinalgKernels.cpp)
//===----------------------------------------------------------------------===//

/// beta * self + alpha * product, with the kernel's shortcuts: alpha == 1
/// skips the multiply, beta == 0 ignores self, beta == 1 skips its multiply.
/// The product is computed in T and not rounded to a half result type.
template <typename OpT, typename ProductOp>
FailureOr<Results> addContraction(OpBuilder &b, OpT op, Value a, Value c) {
  D d(b, op, eltOf(op.getResult()));
  if (d.rt.isInteger(1))
    return failure();
  bool fp = isFloat(d.rt);
  Value lhs = d.loadT(a);
  Value rhs = d.loadT(c);
  Value v = ProductOp::create(b, d.loc, lhs, rhs);
  double alpha = tp::getScalarAsDouble(op.getAlpha()),
         beta = tp::getScalarAsDouble(op.getBeta());
  auto isOne = [&](double s) {
    return fp ? s == 1.0 : static_cast<int64_t>(s) == 1;
  };
  auto isZero = [&](double s) {
    return fp ? s == 0.0 : static_cast<int64_t>(s) == 0;
  };
  if (!isOne(alpha))
    v = d.mulS(v, alpha);
  if (!isZero(beta)) {
    Value s = d.load(op.getSelf());
    if (!isOne(beta))
      s = d.mulS(s, beta);
    v = d.add(s, v);
  }
  return Results{d.done(v)};
}

FailureOr<Results> addmm(OpBuilder &b, tp::AddmmOp op) {
  return addContraction<tp::AddmmOp, tp::MmOp>(b, op, op.getMat1(),
                                               op.getMat2());
}
FailureOr<Results> baddbmm(OpBuilder &b, tp::BaddbmmOp op) {
  return addContraction<tp::BaddbmmOp, tp::BmmOp>(b, op, op.getBatch1(),
                                                  op.getBatch2());
}

/// numpy matmul as mm (batch dims of a folded into rows when b is a
/// matrix or vector) or as bmm on broadcast, flattened batches. Vector
/// operands become [1, k] / [k, 1] matrices; the product has the same
/// summation order per element in every form.
Value matmulOf(D &d, Value a, Value c, ArrayRef<int64_t> outShape) {
  SmallVector<int64_t> sa(shapeOf(a)), sc(shapeOf(c));
  if (sa.size() == 1)
    sa.insert(sa.begin(), 1);
  if (sc.size() == 1)
    sc.push_back(1);
  int64_t n = sa[sa.size() - 2], k = sa.back(), m = sc.back();
  if (sc.size() == 2) {
    int64_t rows = numel(ArrayRef(sa).drop_back());
    Value lhs = d.view(a, {rows, k});
    Value rhs = d.view(c, sc);
    Value p = tp::MmOp::create(d.b, d.loc, lhs, rhs);
    return d.view(p, outShape);
  }
  auto batch = *tp::broadcastShapes(ArrayRef(sa).drop_back(2),
                                    ArrayRef(sc).drop_back(2));
  int64_t batches = numel(batch);
  auto batched = [&](Value v, ArrayRef<int64_t> s, int64_t r, int64_t cols) {
    SmallVector<int64_t> full(batch);
    full.append({r, cols});
    return d.reshape(d.expand(d.view(v, s), full), {batches, r, cols});
  };
  Value lhs = batched(a, sa, n, k);
  Value rhs = batched(c, sc, k, m);
  Value p = tp::BmmOp::create(d.b, d.loc, lhs, rhs);
  return d.view(p, outShape);
}

FailureOr<Results> matmul(OpBuilder &b, tp::MatmulOp op) {
  D d(b, op, eltOf(op.getResult()));
  return Results{matmulOf(d, op.getSelf(), op.getOther(),
                          shapeOf(op.getResult()))};
}
FailureOr<Results> dot(OpBuilder &b, tp::DotOp op) {
  D d(b, op, eltOf(op.getResult()));
  return Results{matmulOf(d, op.getSelf(), op.getOther(), {})};
}

//===----------------------------------------------------------------------===//
// Indexing and shapes
//===----------------------------------------------------------------------===//

// weight.index_select(0, indices.flatten()).view(indices.shape + [D]).
FailureOr<Results> embedding(OpBuilder &b, tp::EmbeddingOp op) {
  D d(b, op, eltOf(op.getResult()));
  Value idx = d.view(op.getIndices(), {numel(shapeOf(op.getIndices()))});
  Value rows = tp::IndexSelectOp::create(b, d.loc, op.getWeight(), idx, u(0));
  return Results{d.view(rows, shapeOf(op.getResult()))};
}

// scatter_add of the grad rows (those of padding_idx zeroed) into zeros:
// the kernel's accumulation order (row-major over indices, then columns).
FailureOr<Results> embeddingDenseBackward(OpBuilder &b,
                                          tp::EmbeddingDenseBackwardOp op) {
  D d(b, op, eltOf(op.getResult()));
  auto shape = shapeOf(op.getResult());
  if (op.getScaleGradByFreq() || shape[0] == 0 || !isFloat(d.rt))
    return failure();
  int64_t p = numel(shapeOf(op.getIndices())), width = shape[1];
  Value idx = d.view(op.getIndices(), {p});
  Value pad = d.eqS(idx, d.i64(static_cast<int64_t>(op.getPaddingIdx())));
  Value safe = d.maskedFill(idx, pad, 0.0);
  Value g = d.to(d.view(op.getGradOutput(), {p, width}), d.rt);
  g = d.maskedFill(g, d.unsqueeze(pad, 1), 0.0);
  Value index = d.expand(d.unsqueeze(safe, 1), {p, width});
  return Results{tp::ScatterAddOp::create(b, d.loc, d.full(shape, d.rt, 0.0),
                                          index, g, u(0))};
}

// unsqueeze + cat.
FailureOr<Results> stack(OpBuilder &b, tp::StackOp op) {
  D d(b, op, eltOf(op.getResult()));
  int64_t dim = static_cast<int64_t>(op.getDim());
  SmallVector<Value> parts;
  for (Value t : op.getTensors())
    parts.push_back(d.unsqueeze(t, dim));
  return Results{tp::CatOp::create(b, d.loc, parts, u(dim))};
}

// One select per slice.
FailureOr<Results> unbind(OpBuilder &b, tp::UnbindOp op) {
  Results out;
  for (unsigned i = 0; i < op.getNumResults(); ++i)
    out.push_back(tp::SelectOp::create(b, op.getLoc(), op.getSelf(),
                                       op.getDim(), u(i)));
  return out;
}

/// One slice per chunk (the chunk sizes are the result types').
Results slices(OpBuilder &b, Operation *op, Value self, int64_t dim) {
  int64_t rank = shapeOf(self).size();
  int64_t nd = *tp::normalizeDim(dim, rank);
  Results out;
  int64_t start = 0;
  for (Value r : op->getResults()) {
    int64_t len = shapeOf(r)[nd];
    out.push_back(tp::SliceOp::create(b, op->getLoc(), self, u(nd), u(start),
                                      u(start + len), u(1)));
    start += len;
  }
  return out;
}
FailureOr<Results> split(OpBuilder &b, tp::SplitOp op) {
  return slices(b, op, op.getSelf(), static_cast<int64_t>(op.getDim()));
}
FailureOr<Results> splitWithSizes(OpBuilder &b, tp::SplitWithSizesOp op) {
  return slices(b, op, op.getSelf(), static_cast<int64_t>(op.getDim()));
}

//===----------------------------------------------------------------------===//
// The table
//===----------------------------------------------------------------------===//

using DecomposeFn = FailureOr<Results> (*)(OpBuilder &, Operation *);

struct Decomposition {
  StringRef name;
  DecomposeFn fn;
};

template <typename OpT, FailureOr<Results> (*Fn)(OpBuilder &, OpT)>
Decomposition entry() {
  return {OpT::getOperationName(),
          [](OpBuilder &b, Operation *op) { return Fn(b, cast<OpT>(op)); }};
}

const Decomposition kTable[] = {
    // Activations.
    entry<tp::SigmoidOp, sigmoid>(),
    entry<tp::SiluOp, silu>(),
    entry<tp::MishOp, mish>(),
    entry<tp::GeluOp, gelu>(),
    entry<tp::LeakyReluOp, leakyRelu>(),
    entry<tp::EluOp, elu>(),
    entry<tp::SoftplusOp, softplus>(),
    entry<tp::HardtanhOp, hardtanh>(),
    entry<tp::RsubScalarOp, rsubScalar>(),
    // Pointwise backward.
    entry<tp::GeluBackwardOp, geluBackward>(),
    entry<tp::ThresholdBackwardOp, thresholdBackward>(),
    entry<tp::TanhBackwardOp, tanhBackward>(),
    entry<tp::SigmoidBackwardOp, sigmoidBackward>(),
    entry<tp::SiluBackwardOp, siluBackward>(),
    entry<tp::NativeDropoutBackwardOp, nativeDropoutBackward>(),
    // Reductions.
    entry<tp::MeanOp, mean>(),
    entry<tp::VarOp, var>(),
    entry<tp::LogsumexpOp, logsumexp>(),
    // Softmax and normalization.
    entry<tp::SoftmaxOp, softmax>(),
    entry<tp::LogSoftmaxOp, logSoftmax>(),
    entry<tp::SoftmaxBackwardDataOp, softmaxBackward>(),
    entry<tp::LogSoftmaxBackwardDataOp, logSoftmaxBackward>(),
    entry<tp::NativeLayerNormOp, nativeLayerNorm>(),
    entry<tp::NativeLayerNormBackwardOp, nativeLayerNormBackward>(),
    // Losses.
    entry<tp::NllLossForwardOp, nllLossForward>(),
    entry<tp::NllLossBackwardOp, nllLossBackward>(),
    entry<tp::MseLossOp, mseLoss>(),
    entry<tp::MseLossBackwardOp, mseLossBackward>(),
    // Linear algebra.
    entry<tp::AddmmOp, addmm>(),
    entry<tp::BaddbmmOp, baddbmm>(),
    entry<tp::MatmulOp, matmul>(),
    entry<tp::DotOp, dot>(),
    // Indexing and shapes.
    entry<tp::EmbeddingOp, embedding>(),
    entry<tp::EmbeddingDenseBackwardOp, embeddingDenseBackward>(),
    entry<tp::StackOp, stack>(),
    entry<tp::UnbindOp, unbind>(),
    entry<tp::SplitOp, split>(),
    entry<tp::SplitWithSizesOp, splitWithSizes>(),
};

const Decomposition *lookup(StringRef name) {
  for (const Decomposition &d : kTable)
    if (d.name == name)
      return &d;
  return nullptr;
}

//===----------------------------------------------------------------------===//
// The driver
//===----------------------------------------------------------------------===//

struct DecomposePass : public tp::impl::StaxDecomposeBase<DecomposePass> {
  using StaxDecomposeBase::StaxDecomposeBase;

  void runOnOperation() override {
    if (failed(tp::verifyFunctional(getOperation(), getArgument())))
      return signalPassFailure();
    llvm::StringMap<const Decomposition *> active;
    if (failed(selectActive(active)))
      return signalPassFailure();

    SmallVector<Operation *> worklist;
    getOperation()->walk([&](Operation *op) {
      if (active.count(op->getName().getStringRef()))
        worklist.push_back(op);
    });
    // Ops are decomposed in program order; what a decomposition creates is
    // decomposed right after it.
    std::reverse(worklist.begin(), worklist.end());
    while (!worklist.empty()) {
      Operation *op = worklist.pop_back_val();
      SmallVector<Operation *> created;
      if (failed(decompose(op, *active.lookup(op->getName().getStringRef()),
                           created)))
        return signalPassFailure();
      for (Operation *c : llvm::reverse(created))
        if (active.count(c->getName().getStringRef()))
          worklist.push_back(c);
    }
  }

  /// The table entries named by `only` (all by default) minus `keep`.
  LogicalResult selectActive(llvm::StringMap<const Decomposition *> &active) {
    auto resolve = [&](StringRef option,
                       ArrayRef<std::string> names) -> FailureOr<llvm::StringSet<>> {
      llvm::StringSet<> set;
      for (const std::string &raw : names) {
        std::string name = StringRef(raw).trim().str();
        if (!StringRef(name).starts_with("tp."))
          name = "tp." + name;
        if (!lookup(name)) {
          mlir::emitError(getOperation()->getLoc())
              << "stax-decompose: " << option << " names '" << raw
              << "', which has no decomposition";
          return failure();
        }
        set.insert(name);
      }
      return set;
    };
    auto kept = resolve("keep", keep);
    auto selected = resolve("only", only);
    if (failed(kept) || failed(selected))
      return failure();
    for (const Decomposition &d : kTable)
      if (!kept->contains(d.name) && (only.empty() || selected->contains(d.name)))
        active[d.name] = &d;
    return success();
  }

  /// Replaces `op` by its decomposition; leaves it whole when the
  /// decomposition does not apply. `created` receives the new ops.
  LogicalResult decompose(Operation *op, const Decomposition &d,
                          SmallVectorImpl<Operation *> &created) {
    Block *block = op->getBlock();
    Operation *before = op->getPrevNode();
    OpBuilder b(op);
    FailureOr<Results> results = d.fn(b, op);
    for (Operation *it = before ? before->getNextNode() : &block->front();
         it != op; it = it->getNextNode())
      created.push_back(it);
    auto discard = [&] {
      for (Operation *c : llvm::reverse(created))
        c->erase();
      created.clear();
    };
    if (failed(results)) {
      discard();
      return success();
    }
    if (results->size() != op->getNumResults()) {
      discard();
      return op->emitError() << "internal error: the decomposition produced "
                             << results->size() << " values for "
                             << op->getNumResults() << " results";
    }
    for (auto [from, to] : llvm::zip(op->getResults(), *results)) {
      if (from.getType() != to.getType()) {
        Type got = to.getType();
        discard();
        return op->emitError() << "internal error: the decomposition produced "
                               << got << " for result type "
                               << from.getType();
      }
    }
    op->replaceAllUsesWith(*results);
    op->erase();
    return success();
  }
};

} // namespace
