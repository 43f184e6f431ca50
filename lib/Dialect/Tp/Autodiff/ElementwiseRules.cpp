//===- ElementwiseRules.cpp - derivatives of pointwise ops ----------------===//
//
// Pointwise ops need only their partial derivatives: the VJP multiplies the
// adjoint by them and undoes broadcasting, the JVP multiplies the tangents by
// them and adds the contributions. `PointwiseRule<OpT>` does both from
// `Partials<OpT>::get(op, b, i)`, the partial derivative of the result with
// respect to operand `i`, built only for the operands that need it.
//
// Conventions are eager PyTorch 1.13's: relu'(0) = 0, abs'(0) = sgn(0) = 0,
// maximum/minimum split the gradient on ties, clamp passes it on the closed
// interval, hardtanh on the open one, rounding ops and `detach` have a zero
// derivative. relu, tanh, sigmoid, silu and gelu use eager's backward
// operators (threshold_backward, tanh_backward, ...), which are linear in
// their first operand, for the VJP and the JVP alike.
//
//===----------------------------------------------------------------------===//

#include "RuleUtils.h"
#include "Stax/Dialect/Tp/IR/TypeInference.h"
#include <cmath>

using namespace mlir;
using namespace mlir::tp;
using namespace mlir::tp::autodiff;

namespace {

/// `v` broadcast to the shape and converted to the element type of `t`.
Value fitTo(OpBuilder &b, Location loc, Value v, RankedTensorType t) {
  if (!v)
    return v;
  return castTo(b, loc, broadcastTo(b, loc, v, t.getShape()),
                t.getElementType());
}

/// A partial derivative dy/dx_i = scale * mulBy / divBy (absent factors are
/// 1), selected to 0 where the bool mask `passes` (if any) is false.
/// `isZero` marks a structural zero (no dependence: rounding, integer
/// division), for which nothing is built. A constant 0 (`x * 0`, alpha = 0)
/// is not one: PyTorch multiplies the gradient by it, so a NaN or inf in the
/// gradient, or an inf met further back (sqrt'(0)), still gives NaN. Where
/// eager's backward selects instead (clamp, hardtanh, maximum), `passes`
/// does too: sqrt(clamp(x, min=0))'s gradient is 0, not 0 * inf, at x < 0.
struct Partial {
  Value mulBy, divBy;
  double scale = 1.0;
  bool isZero = false;
  Value passes;

  static Partial ratio(Value mulBy, Value divBy, double c = 1.0) {
    Partial p;
    p.mulBy = mulBy;
    p.divBy = divBy;
    p.scale = c;
    return p;
  }
  static Partial zero() {
    Partial p = constant(0.0);
    p.isZero = true;
    return p;
  }
  static Partial constant(double c) { return ratio(Value(), Value(), c); }
  static Partial times(Value v, double c = 1.0) { return ratio(v, Value(), c); }
  static Partial over(Value v, double c = 1.0) { return ratio(Value(), v, c); }
  /// 1 where `mask` holds, selected 0 elsewhere.
  static Partial where(Value mask) {
    Partial p = constant(1.0);
    p.passes = mask;
    return p;
  }

  /// `v` (an adjoint or a tangent) times this partial; null for zero.
  Value apply(OpBuilder &b, Location loc, Value v) const {
    if (!v || isZero)
      return Value();
    if (mulBy)
      v = mul(b, loc, v, mulBy);
    if (divBy)
      v = div(b, loc, v, divBy);
    if (scale != 1.0)
      v = mulScalar(b, loc, v, scale);
    if (passes) {
      auto zero = RankedTensorType::get({}, tensorType(v).getElementType());
      v = WhereOp::create(b, loc, passes, v, full(b, loc, zero, 0.0));
    }
    return v;
  }
};

template <typename OpT> struct Partials; // get(OpT, OpBuilder &, unsigned)

/// Every operand of a pointwise op (broadcasting its operands) gets the
/// adjoint times its partial, summed to its shape; the result's tangent is
/// the sum of the tangents times the partials. Non-float operands and
/// results carry no derivative.
template <typename OpT> struct PointwiseRule {
  static LogicalResult vjp(OpT op, OpBuilder &b, ValueRange adjoints,
                           SmallVectorImpl<Value> &out) {
    Value g = adjoints[0];
    Value result = op->getResult(0);
    for (auto [i, operand] : llvm::enumerate(op->getOperands())) {
      if (!g || !isFloatTensor(operand) || !isFloatTensor(result)) {
        out.push_back(Value());
        continue;
      }
      Partial p = Partials<OpT>::get(op, b, i);
      out.push_back(sumToShape(b, op.getLoc(), p.apply(b, op.getLoc(), g),
                               tensorType(operand)));
    }
    return success();
  }
  static LogicalResult jvp(OpT op, OpBuilder &b, ValueRange tangents,
                           SmallVectorImpl<Value> &out) {
    Value result = op->getResult(0);
    Value acc;
    if (isFloatTensor(result)) {
      for (auto [i, operand] : llvm::enumerate(op->getOperands())) {
        Value t = tangents[i];
        if (!t || !isFloatTensor(operand))
          continue;
        Partial p = Partials<OpT>::get(op, b, i);
        acc = add(b, op.getLoc(), acc,
                  fitTo(b, op.getLoc(), p.apply(b, op.getLoc(), t),
                        tensorType(result)));
      }
    }
    out.push_back(acc);
    return success();
  }
};

/// Ops whose derivative is eager's backward operator `bw(grad, saved)`,
/// linear in `grad`: the VJP is bw(adjoint), the JVP bw(tangent).
template <typename OpT> struct BackwardOp; // build(OpT, OpBuilder &, Value)

template <typename OpT> struct BackwardOpRule {
  static LogicalResult vjp(OpT op, OpBuilder &b, ValueRange adjoints,
                           SmallVectorImpl<Value> &out) {
    Value g = adjoints[0];
    if (!g || !isFloatTensor(op.getSelf()) || !isFloatTensor(op.getResult())) {
      out.push_back(Value());
      return success();
    }
    out.push_back(sumToShape(b, op.getLoc(), BackwardOp<OpT>::build(op, b, g),
                             tensorType(op.getSelf())));
    return success();
  }
  static LogicalResult jvp(OpT op, OpBuilder &b, ValueRange tangents,
                           SmallVectorImpl<Value> &out) {
    Value t = tangents[0];
    if (!t || !isFloatTensor(op.getSelf()) || !isFloatTensor(op.getResult())) {
      out.push_back(Value());
      return success();
    }
    RankedTensorType rt = tensorType(op.getResult());
    t = castTo(b, op.getLoc(), t, rt.getElementType());
    out.push_back(fitTo(b, op.getLoc(), BackwardOp<OpT>::build(op, b, t), rt));
    return success();
  }
};

template <> struct BackwardOp<ReluOp> {
  static Value build(ReluOp op, OpBuilder &b, Value g) {
    return ThresholdBackwardOp::create(b, op.getLoc(), g, op.getResult(),
                                       getIntScalar(b.getContext(), 0));
  }
};
template <> struct BackwardOp<TanhOp> {
  static Value build(TanhOp op, OpBuilder &b, Value g) {
    return TanhBackwardOp::create(b, op.getLoc(), g, op.getResult());
  }
};
template <> struct BackwardOp<SigmoidOp> {
  static Value build(SigmoidOp op, OpBuilder &b, Value g) {
    return SigmoidBackwardOp::create(b, op.getLoc(), g, op.getResult());
  }
};
template <> struct BackwardOp<SiluOp> {
  static Value build(SiluOp op, OpBuilder &b, Value g) {
    return SiluBackwardOp::create(b, op.getLoc(), g, op.getSelf());
  }
};

/// dy/dx of a unary pointwise op, as a tensor of the result's shape.
template <typename OpT> struct UnaryPartial;

template <typename OpT>
using UnaryRule = UnaryPartialRule<OpT, UnaryPartial<OpT>>;

// gelu: the rule is eager's gelu_backward (it reads x, not gelu(x), which
// is what lets the partitioner save only x; Section 5.5). The partial
// derivative itself is gelu_backward of ones.
template <> struct UnaryPartial<GeluOp> {
  static Value get(GeluOp op, OpBuilder &b) {
    Value ones = full(b, op.getLoc(), tensorType(op.getResult()), 1.0);
    return GeluBackwardOp::create(b, op.getLoc(), ones, op.getSelf(),
                                  op.getApproximateAttr());
  }
};

//===----------------------------------------------------------------------===//
// Partials of unary ops
//===----------------------------------------------------------------------===//

/// Ops whose derivative is a constant.
#define CONSTANT_PARTIAL(OP, VALUE)                                            \
  template <> struct Partials<OP> {                                            \
    static Partial get(OP, OpBuilder &, unsigned) {                            \
      return Partial::constant(VALUE);                                         \
    }                                                                          \
  };
CONSTANT_PARTIAL(CloneOp, 1.0)
CONSTANT_PARTIAL(AliasOp, 1.0)
CONSTANT_PARTIAL(LiftFreshCopyOp, 1.0)
CONSTANT_PARTIAL(ToCopyOp, 1.0)
CONSTANT_PARTIAL(NegOp, -1.0)
CONSTANT_PARTIAL(RemainderScalarOp, 1.0)
CONSTANT_PARTIAL(FmodScalarOp, 1.0)
#undef CONSTANT_PARTIAL

/// Ops without a dependence on their input (PyTorch returns zeros_like):
/// a structural zero, so nothing is built. detach is a stop-gradient in
/// eager (its result does not require grad).
#define ZERO_PARTIAL(OP)                                                       \
  template <> struct Partials<OP> {                                            \
    static Partial get(OP, OpBuilder &, unsigned) { return Partial::zero(); }  \
  };
ZERO_PARTIAL(DetachOp)
ZERO_PARTIAL(SignOp)
ZERO_PARTIAL(SgnOp)
ZERO_PARTIAL(FloorOp)
ZERO_PARTIAL(CeilOp)
ZERO_PARTIAL(RoundOp)
ZERO_PARTIAL(TruncOp)
#undef ZERO_PARTIAL

/// Ops whose derivative is a function of x = self and y = result:
/// `EXPR` builds the Partial with `op`, `b`, `loc`, `x`, `y` in scope.
#define UNARY_PARTIAL(OP, EXPR)                                                \
  template <> struct Partials<OP> {                                            \
    static Partial get(OP op, OpBuilder &b, unsigned) {                        \
      Location loc = op.getLoc();                                              \
      Value x = op.getSelf(), y = op.getResult();                              \
      (void)loc;                                                               \
      (void)x;                                                                 \
      (void)y;                                                                 \
      return EXPR;                                                             \
    }                                                                          \
  };

UNARY_PARTIAL(AbsOp, Partial::times(SgnOp::create(b, loc, x)))
UNARY_PARTIAL(ExpOp, Partial::times(y))
UNARY_PARTIAL(Exp2Op, Partial::times(y, M_LN2))
UNARY_PARTIAL(Expm1Op, Partial::times(addScalar(b, loc, y, 1.0)))
UNARY_PARTIAL(LogOp, Partial::over(x))
UNARY_PARTIAL(Log2Op, Partial::over(x, 1.0 / M_LN2))
UNARY_PARTIAL(Log10Op, Partial::over(x, 1.0 / M_LN10))
UNARY_PARTIAL(Log1pOp, Partial::over(addScalar(b, loc, x, 1.0)))
// sqrt: grad / (2 * result).
UNARY_PARTIAL(SqrtOp, Partial::over(mulScalar(b, loc, y, 2.0)))
// rsqrt: -0.5 * grad * result^3.
UNARY_PARTIAL(RsqrtOp, Partial::times(mul(b, loc, mul(b, loc, y, y), y), -0.5))
// reciprocal: -grad * result^2.
UNARY_PARTIAL(ReciprocalOp, Partial::times(mul(b, loc, y, y), -1.0))
UNARY_PARTIAL(SinOp, Partial::times(CosOp::create(b, loc, x)))
UNARY_PARTIAL(CosOp, Partial::times(SinOp::create(b, loc, x), -1.0))
// tan: grad * (1 + result^2).
UNARY_PARTIAL(TanOp, Partial::times(addScalar(b, loc, mul(b, loc, y, y), 1.0)))
// asin / acos: +-grad * rsqrt(1 - x^2).
UNARY_PARTIAL(AsinOp, Partial::times(RsqrtOp::create(
                          b, loc,
                          RsubScalarOp::create(b, loc, mul(b, loc, x, x),
                                               f64Attr(b, 1.0), TypedAttr()))))
UNARY_PARTIAL(AcosOp,
              Partial::times(RsqrtOp::create(b, loc,
                                             RsubScalarOp::create(
                                                 b, loc, mul(b, loc, x, x),
                                                 f64Attr(b, 1.0), TypedAttr())),
                             -1.0))
// atan: grad / (1 + x^2).
UNARY_PARTIAL(AtanOp, Partial::over(addScalar(b, loc, mul(b, loc, x, x), 1.0)))
UNARY_PARTIAL(SinhOp, Partial::times(CoshOp::create(b, loc, x)))
UNARY_PARTIAL(CoshOp, Partial::times(SinhOp::create(b, loc, x)))
// erf / erfc: +-2/sqrt(pi) * exp(-x^2).
UNARY_PARTIAL(ErfOp,
              Partial::times(ExpOp::create(b, loc,
                                           neg(b, loc, mul(b, loc, x, x))),
                             M_2_SQRTPI))
UNARY_PARTIAL(ErfcOp,
              Partial::times(ExpOp::create(b, loc,
                                           neg(b, loc, mul(b, loc, x, x))),
                             -M_2_SQRTPI))
#undef UNARY_PARTIAL

/// mish: tanh(sp) + x * sigmoid(x) * (1 - tanh(sp)^2), sp = softplus(x)
/// (eager's mish_backward).
template <> struct Partials<MishOp> {
  static Partial get(MishOp op, OpBuilder &b, unsigned) {
    Location loc = op.getLoc();
    Value x = op.getSelf();
    Value sp = SoftplusOp::create(b, loc, x, APFloat(1.0), APFloat(20.0));
    Value tsp = TanhOp::create(b, loc, sp);
    Value oneMinus = RsubScalarOp::create(b, loc, mul(b, loc, tsp, tsp),
                                          f64Attr(b, 1.0), TypedAttr());
    Value sig = SigmoidOp::create(b, loc, x);
    return Partial::times(
        add(b, loc, tsp, mul(b, loc, mul(b, loc, x, sig), oneMinus)));
  }
};

/// leaky_relu: 1 where x > 0, else negative_slope.
template <> struct Partials<LeakyReluOp> {
  static Partial get(LeakyReluOp op, OpBuilder &b, unsigned) {
    Location loc = op.getLoc();
    RankedTensorType rt = tensorType(op.getResult());
    Value pos = GtScalarOp::create(b, loc, op.getSelf(), f64Attr(b, 0.0));
    Value one = full(b, loc, rt, 1.0);
    Value slope = full(b, loc, rt, op.getNegativeSlope().convertToDouble());
    return Partial::times(WhereOp::create(b, loc, pos, one, slope));
  }
};

/// elu: scale where x > 0, else input_scale * alpha * scale *
/// exp(x * input_scale) (eager's elu_backward on the input). The exponent
/// reads min(x, 0) so that the unselected branch stays finite.
template <> struct Partials<EluOp> {
  static Partial get(EluOp op, OpBuilder &b, unsigned) {
    Location loc = op.getLoc();
    double alpha = op.getAlpha().convertToDouble();
    double scale = op.getScale().convertToDouble();
    double inputScale = op.getInputScale().convertToDouble();
    Value x = op.getSelf();
    Value pos = GtScalarOp::create(b, loc, x, f64Attr(b, 0.0));
    Value xneg = ClampOp::create(b, loc, x, TypedAttr(), f64Attr(b, 0.0));
    Value e = ExpOp::create(b, loc, mulScalar(b, loc, xneg, inputScale));
    Value negPart = mulScalar(b, loc, e, inputScale * alpha * scale);
    return Partial::times(WhereOp::create(
        b, loc, pos, full(b, loc, tensorType(op.getResult()), scale), negPart));
  }
};

/// softplus: 1 where beta * x > threshold, else sigmoid(beta * x).
template <> struct Partials<SoftplusOp> {
  static Partial get(SoftplusOp op, OpBuilder &b, unsigned) {
    Location loc = op.getLoc();
    double beta = op.getBeta().convertToDouble();
    double threshold = op.getThreshold().convertToDouble();
    Value bx = mulScalar(b, loc, op.getSelf(), beta);
    Value linear = GtScalarOp::create(b, loc, bx, f64Attr(b, threshold));
    Value one = full(b, loc, tensorType(op.getResult()), 1.0);
    Value sigmoid = SigmoidOp::create(b, loc, bx);
    return Partial::times(WhereOp::create(b, loc, linear, one, sigmoid));
  }
};

/// hardtanh: 1 strictly inside (min_val, max_val) (eager's
/// hardtanh_backward), else 0.
template <> struct Partials<HardtanhOp> {
  static Partial get(HardtanhOp op, OpBuilder &b, unsigned) {
    Location loc = op.getLoc();
    Value x = op.getSelf();
    Value aboveMin = GtScalarOp::create(
        b, loc, x, f64Attr(b, op.getMinVal().convertToDouble()));
    Value belowMax = LtScalarOp::create(
        b, loc, x, f64Attr(b, op.getMaxVal().convertToDouble()));
    return Partial::where(LogicalAndOp::create(b, loc, aboveMin, belowMax));
  }
};

/// clamp: 1 on the closed interval [min, max] (eager's clamp_backward).
template <> struct Partials<ClampOp> {
  static Partial get(ClampOp op, OpBuilder &b, unsigned) {
    Location loc = op.getLoc();
    Value x = op.getSelf();
    Value mask;
    if (auto lo = op.getMin())
      mask = GeScalarOp::create(b, loc, x, *lo);
    if (auto hi = op.getMax()) {
      Value le = LeScalarOp::create(b, loc, x, *hi);
      mask = mask ? Value(LogicalAndOp::create(b, loc, mask, le)) : le;
    }
    return Partial::where(mask);
  }
};

//===----------------------------------------------------------------------===//
// Partials of binary ops
//===----------------------------------------------------------------------===//

template <> struct Partials<AddOp> {
  static Partial get(AddOp op, OpBuilder &, unsigned i) {
    return Partial::constant(i == 0 ? 1.0 : getScalarAsDouble(op.getAlpha()));
  }
};
template <> struct Partials<SubOp> {
  static Partial get(SubOp op, OpBuilder &, unsigned i) {
    return Partial::constant(i == 0 ? 1.0 : -getScalarAsDouble(op.getAlpha()));
  }
};
template <> struct Partials<MulOp> {
  static Partial get(MulOp op, OpBuilder &, unsigned i) {
    return Partial::times(i == 0 ? op.getOther() : op.getSelf());
  }
};
/// div: 1/other and -(self/other)/other, eager's div_tensor_other_backward
/// (self/other^2 would overflow where other^2 does, and 0 * inf or
/// inf / inf make NaN: the derivative of 1e30 / 2e30 in float32); zero
/// with a rounding mode.
template <> struct Partials<DivOp> {
  static Partial get(DivOp op, OpBuilder &b, unsigned i) {
    if (op.getRoundingMode())
      return Partial::zero();
    Value other = op.getOther();
    if (i == 0)
      return Partial::over(other);
    // The result is self / other, rounded as eager's recomputation is.
    return Partial::times(div(b, op.getLoc(), op.getResult(), other), -1.0);
  }
};

/// maximum/minimum: 1 for the operand that is selected, 1/2 each on ties,
/// a selected 0 for the other (eager's `where(self == other, grad / 2,
/// grad).masked_fill_(loses, 0)`; a NaN operand passes the gradient to
/// both).
template <typename OpT, bool isMax> struct ExtremumPartials {
  static Partial get(OpT op, OpBuilder &b, unsigned i) {
    Location loc = op.getLoc();
    auto scalar =
        RankedTensorType::get({}, tensorType(op.getResult()).getElementType());
    Value a = op.getSelf(), c = op.getOther();
    // self loses where self < other (max) or self > other (min); other
    // loses in the swapped comparison.
    bool selfGreater = (i == 0) == isMax;
    Value loses = selfGreater ? Value(LtOp::create(b, loc, a, c))
                              : Value(GtOp::create(b, loc, a, c));
    Value tie = EqOp::create(b, loc, a, c);
    // Built in sequence (argument evaluation order would differ between
    // compilers, and with it the IR).
    Value half = full(b, loc, scalar, 0.5);
    Value one = full(b, loc, scalar, 1.0);
    Partial p = Partial::times(WhereOp::create(b, loc, tie, half, one));
    p.passes = LogicalNotOp::create(b, loc, loses);
    return p;
  }
};
template <>
struct Partials<MaximumOp> : ExtremumPartials<MaximumOp, /*isMax=*/true> {};
template <>
struct Partials<MinimumOp> : ExtremumPartials<MinimumOp, /*isMax=*/false> {};

/// pow: exponent * self^(exponent - 1) (0 where exponent == 0), and
/// result * log(self) (0 where self == 0 and exponent >= 0), as eager's
/// pow_backward_self / pow_backward_exponent.
template <> struct Partials<PowOp> {
  static Partial get(PowOp op, OpBuilder &b, unsigned i) {
    Location loc = op.getLoc();
    Value x = op.getSelf(), e = op.getOther();
    TypedAttr zero = f64Attr(b, 0.0);
    if (i == 0) {
      Value em1 = SubScalarOp::create(b, loc, e, f64Attr(b, 1.0), TypedAttr());
      Value d = mul(b, loc, e, PowOp::create(b, loc, x, em1));
      return Partial::times(MaskedFillScalarOp::create(
          b, loc, d, EqScalarOp::create(b, loc, e, zero), zero));
    }
    Value d = mul(b, loc, op.getResult(), LogOp::create(b, loc, x));
    Value xZero = EqScalarOp::create(b, loc, x, zero);
    Value eNonNegative = GeScalarOp::create(b, loc, e, zero);
    Value mask = LogicalAndOp::create(b, loc, xZero, eNonNegative);
    return Partial::times(MaskedFillScalarOp::create(b, loc, d, mask, zero));
  }
};

/// remainder: self - floor(self / other) * other; fmod with trunc.
template <typename OpT, bool isFloor> struct ModPartials {
  static Partial get(OpT op, OpBuilder &b, unsigned i) {
    if (i == 0)
      return Partial::constant(1.0);
    Value q = DivOp::create(b, op.getLoc(), op.getSelf(), op.getOther(),
                            RoundingModeAttr::get(b.getContext(),
                                                  isFloor ? RoundingMode::Floor
                                                          : RoundingMode::Trunc));
    return Partial::times(q, -1.0);
  }
};
template <> struct Partials<RemainderOp> : ModPartials<RemainderOp, true> {};
template <> struct Partials<FmodOp> : ModPartials<FmodOp, false> {};

/// atan2(a, b): b / (a^2 + b^2) and -a / (a^2 + b^2).
template <> struct Partials<Atan2Op> {
  static Partial get(Atan2Op op, OpBuilder &b, unsigned i) {
    Location loc = op.getLoc();
    Value a = op.getSelf(), c = op.getOther();
    Value aSquared = mul(b, loc, a, a);
    Value cSquared = mul(b, loc, c, c);
    Value denom = add(b, loc, aSquared, cSquared);
    return Partial::ratio(i == 0 ? c : a, denom, i == 0 ? 1.0 : -1.0);
  }
};

//===----------------------------------------------------------------------===//
// Partials of tensor-scalar ops (the scalar is an attribute: one operand)
//===----------------------------------------------------------------------===//

template <> struct Partials<AddScalarOp> {
  static Partial get(AddScalarOp, OpBuilder &, unsigned) {
    return Partial::constant(1.0);
  }
};
template <> struct Partials<SubScalarOp> {
  static Partial get(SubScalarOp, OpBuilder &, unsigned) {
    return Partial::constant(1.0);
  }
};
template <> struct Partials<RsubScalarOp> {
  static Partial get(RsubScalarOp op, OpBuilder &, unsigned) {
    return Partial::constant(-getScalarAsDouble(op.getAlpha()));
  }
};
template <> struct Partials<MulScalarOp> {
  static Partial get(MulScalarOp op, OpBuilder &, unsigned) {
    return Partial::constant(getScalarAsDouble(op.getOther()));
  }
};
template <> struct Partials<DivScalarOp> {
  static Partial get(DivScalarOp op, OpBuilder &, unsigned) {
    if (op.getRoundingMode())
      return Partial::zero();
    return Partial::constant(1.0 / getScalarAsDouble(op.getOther()));
  }
};
/// pow.Tensor_Scalar: e * x^(e - 1); zero for e == 0.
template <> struct Partials<PowTensorScalarOp> {
  static Partial get(PowTensorScalarOp op, OpBuilder &b, unsigned) {
    TypedAttr eAttr = op.getOther();
    double e = getScalarAsDouble(eAttr);
    if (e == 0.0)
      return Partial::zero();
    if (e == 1.0)
      return Partial::constant(1.0);
    if (e == 2.0)
      return Partial::times(op.getSelf(), 2.0);
    // Keep the exponent's kind (integer or floating) for e - 1.
    TypedAttr em1 =
        isa<FloatAttr>(eAttr)
            ? f64Attr(b, e - 1.0)
            : getIntScalar(b.getContext(), static_cast<int64_t>(e) - 1);
    return Partial::times(
        PowTensorScalarOp::create(b, op.getLoc(), op.getSelf(), em1), e);
  }
};

} // namespace

//===----------------------------------------------------------------------===//
// Rules
//===----------------------------------------------------------------------===//

namespace mlir::tp::autodiff {
#define POINTWISE(OP)                                                          \
  template <> struct Rule<OP> : PointwiseRule<OP> {};
POINTWISE(CloneOp)
POINTWISE(DetachOp)
POINTWISE(AliasOp)
POINTWISE(LiftFreshCopyOp)
POINTWISE(ToCopyOp)
POINTWISE(NegOp)
POINTWISE(AbsOp)
POINTWISE(SignOp)
POINTWISE(SgnOp)
POINTWISE(FloorOp)
POINTWISE(CeilOp)
POINTWISE(RoundOp)
POINTWISE(TruncOp)
POINTWISE(ExpOp)
POINTWISE(Exp2Op)
POINTWISE(Expm1Op)
POINTWISE(LogOp)
POINTWISE(Log2Op)
POINTWISE(Log10Op)
POINTWISE(Log1pOp)
POINTWISE(SqrtOp)
POINTWISE(RsqrtOp)
POINTWISE(ReciprocalOp)
POINTWISE(SinOp)
POINTWISE(CosOp)
POINTWISE(TanOp)
POINTWISE(AsinOp)
POINTWISE(AcosOp)
POINTWISE(AtanOp)
POINTWISE(SinhOp)
POINTWISE(CoshOp)
POINTWISE(ErfOp)
POINTWISE(ErfcOp)
POINTWISE(MishOp)
POINTWISE(LeakyReluOp)
POINTWISE(EluOp)
POINTWISE(SoftplusOp)
POINTWISE(HardtanhOp)
POINTWISE(ClampOp)
POINTWISE(AddOp)
POINTWISE(SubOp)
POINTWISE(MulOp)
POINTWISE(DivOp)
POINTWISE(MaximumOp)
POINTWISE(MinimumOp)
POINTWISE(PowOp)
POINTWISE(RemainderOp)
POINTWISE(FmodOp)
POINTWISE(Atan2Op)
POINTWISE(AddScalarOp)
POINTWISE(SubScalarOp)
POINTWISE(RsubScalarOp)
POINTWISE(MulScalarOp)
POINTWISE(DivScalarOp)
POINTWISE(PowTensorScalarOp)
POINTWISE(RemainderScalarOp)
POINTWISE(FmodScalarOp)
#undef POINTWISE

template <> struct Rule<ReluOp> : BackwardOpRule<ReluOp> {};
template <> struct Rule<TanhOp> : BackwardOpRule<TanhOp> {};
template <> struct Rule<SigmoidOp> : BackwardOpRule<SigmoidOp> {};
template <> struct Rule<SiluOp> : BackwardOpRule<SiluOp> {};

template <> struct Rule<GeluOp> {
  static LogicalResult vjp(GeluOp op, OpBuilder &b, ValueRange adjoints,
                           SmallVectorImpl<Value> &out) {
    Value g = adjoints[0];
    out.push_back(
        g ? Value(GeluBackwardOp::create(b, op.getLoc(), g, op.getSelf(),
                                         op.getApproximateAttr()))
          : Value());
    return success();
  }
  static LogicalResult jvp(GeluOp op, OpBuilder &b, ValueRange tangents,
                           SmallVectorImpl<Value> &out) {
    return UnaryRule<GeluOp>::jvp(op, b, tangents, out);
  }
};

/// tril/triu are linear: the VJP and JVP apply the same mask.
template <typename OpT> struct TriangleRule {
  static LogicalResult vjp(OpT op, OpBuilder &b, ValueRange adjoints,
                           SmallVectorImpl<Value> &out) {
    Value g = adjoints[0];
    out.push_back(
        g && isFloatTensor(op.getSelf())
            ? Value(OpT::create(b, op.getLoc(), g, op.getDiagonalAttr()))
            : Value());
    return success();
  }
  static LogicalResult jvp(OpT op, OpBuilder &b, ValueRange tangents,
                           SmallVectorImpl<Value> &out) {
    return jvpByLinearity(op, b, tangents, out);
  }
};
template <> struct Rule<TrilOp> : TriangleRule<TrilOp> {};
template <> struct Rule<TriuOp> : TriangleRule<TriuOp> {};

/// where(cond, self, other): the adjoint goes to the selected operand; the
/// condition carries no derivative.
template <> struct Rule<WhereOp> {
  static LogicalResult vjp(WhereOp op, OpBuilder &b, ValueRange adjoints,
                           SmallVectorImpl<Value> &out) {
    Location loc = op.getLoc();
    Value g = adjoints[0];
    out.push_back(Value()); // condition
    bool live = g && isFloatTensor(op.getResult());
    TypedAttr zero = f64Attr(b, 0.0);
    // The condition broadcasts to the adjoint's (the result's) shape.
    if (live && isFloatTensor(op.getSelf())) {
      Value notCond = LogicalNotOp::create(b, loc, op.getCondition());
      out.push_back(sumToShape(
          b, loc, MaskedFillScalarOp::create(b, loc, g, notCond, zero),
          tensorType(op.getSelf())));
    } else {
      out.push_back(Value());
    }
    if (live && isFloatTensor(op.getOther()))
      out.push_back(sumToShape(
          b, loc,
          MaskedFillScalarOp::create(b, loc, g, op.getCondition(), zero),
          tensorType(op.getOther())));
    else
      out.push_back(Value());
    return success();
  }
  static LogicalResult jvp(WhereOp op, OpBuilder &b, ValueRange tangents,
                           SmallVectorImpl<Value> &out) {
    Location loc = op.getLoc();
    RankedTensorType rt = tensorType(op.getResult());
    Value ts = isFloatTensor(op.getSelf()) ? tangents[1] : Value();
    Value to = isFloatTensor(op.getOther()) ? tangents[2] : Value();
    if (!isFloatTensor(op.getResult()) || (!ts && !to)) {
      out.push_back(Value());
      return success();
    }
    // Missing tangents are zeros of the operand's shape in the result's
    // element type.
    auto orZeros = [&](Value t, Value operand) -> Value {
      if (t)
        return castTo(b, loc, t, rt.getElementType());
      return full(b, loc,
                  RankedTensorType::get(tensorType(operand).getShape(),
                                        rt.getElementType()),
                  0.0);
    };
    Value self = orZeros(ts, op.getSelf());
    Value other = orZeros(to, op.getOther());
    Value r = WhereOp::create(b, loc, op.getCondition(), self, other);
    out.push_back(fitTo(b, loc, r, rt));
    return success();
  }
};

/// masked_fill.Scalar: the filled positions get no derivative.
template <> struct Rule<MaskedFillScalarOp> {
  static LogicalResult vjp(MaskedFillScalarOp op, OpBuilder &b,
                           ValueRange adjoints, SmallVectorImpl<Value> &out) {
    Value g = adjoints[0];
    if (g && isFloatTensor(op.getSelf()) && isFloatTensor(op.getResult()))
      out.push_back(
          castTo(b, op.getLoc(),
                 MaskedFillScalarOp::create(b, op.getLoc(), g, op.getMask(),
                                            f64Attr(b, 0.0)),
                 tensorType(op.getSelf()).getElementType()));
    else
      out.push_back(Value());
    out.push_back(Value()); // mask
    return success();
  }
  static LogicalResult jvp(MaskedFillScalarOp op, OpBuilder &b,
                           ValueRange tangents, SmallVectorImpl<Value> &out) {
    Value t = tangents[0];
    if (!t || !isFloatTensor(op.getSelf()) || !isFloatTensor(op.getResult())) {
      out.push_back(Value());
      return success();
    }
    out.push_back(MaskedFillScalarOp::create(b, op.getLoc(), t, op.getMask(),
                                             f64Attr(b, 0.0)));
    return success();
  }
};
} // namespace mlir::tp::autodiff

void autodiff::attachElementwiseRules(MLIRContext *ctx) {
  attachRules<CloneOp, DetachOp, AliasOp, LiftFreshCopyOp, ToCopyOp>(ctx);
  attachRules<NegOp, AbsOp, SignOp, SgnOp, FloorOp, CeilOp, RoundOp, TruncOp>(
      ctx);
  attachRules<ExpOp, Exp2Op, Expm1Op, LogOp, Log2Op, Log10Op, Log1pOp, SqrtOp,
              RsqrtOp, ReciprocalOp>(ctx);
  attachRules<SinOp, CosOp, TanOp, AsinOp, AcosOp, AtanOp, SinhOp, CoshOp,
              TanhOp, SigmoidOp, ErfOp, ErfcOp>(ctx);
  attachRules<ReluOp, SiluOp, MishOp, GeluOp, LeakyReluOp, EluOp, SoftplusOp,
              HardtanhOp, ClampOp, TrilOp, TriuOp>(ctx);
  attachRules<AddOp, SubOp, MulOp, DivOp, MaximumOp, MinimumOp, PowOp,
              RemainderOp, FmodOp, Atan2Op>(ctx);
  attachRules<AddScalarOp, SubScalarOp, RsubScalarOp, MulScalarOp, DivScalarOp,
              PowTensorScalarOp, RemainderScalarOp, FmodScalarOp>(ctx);
  attachRules<WhereOp, MaskedFillScalarOp>(ctx);
}
