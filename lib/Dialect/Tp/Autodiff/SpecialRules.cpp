//===- SpecialRules.cpp - derivatives of the special functions ------------===//
//
// The VJP multiplies the adjoint by dy/dx, the JVP the tangent, with eager
// PyTorch 1.13's formulas (derivatives.yaml):
//   lgamma' = digamma, digamma' = polygamma(1), polygamma(n)' =
//   polygamma(n + 1), erfinv' = sqrt(pi)/2 exp(erfinv(x)^2),
//   ndtri' = sqrt(2 pi) exp(ndtri(x)^2 / 2), erfcx' = 2 x erfcx(x) -
//   2/sqrt(pi), and frexp's mantissa' = 1 / 2^exponent (the exponent has
//   no derivative).
// nextafter has none (eager: not_implemented): it gets no rule, so a
// derivative through it is an error that names it.
//
//===----------------------------------------------------------------------===//

#include "RuleUtils.h"
#include <cmath>

#include <limits>

using namespace mlir;
using namespace mlir::tp;
using namespace mlir::tp::autodiff;

namespace {

/// dy/dx of a unary special function, of the result's shape and type.
template <typename OpT> struct SpecialPartial;

template <> struct SpecialPartial<LgammaOp> {
  static Value get(LgammaOp op, OpBuilder &b) {
    return DigammaOp::create(b, op.getLoc(), op.getSelf());
  }
};
template <> struct SpecialPartial<DigammaOp> {
  static Value get(DigammaOp op, OpBuilder &b) {
    return PolygammaOp::create(b, op.getLoc(), op.getSelf(), 1);
  }
};
template <> struct SpecialPartial<PolygammaOp> {
  static Value get(PolygammaOp op, OpBuilder &b) {
    auto n = static_cast<int64_t>(op.getN());
    if (n == std::numeric_limits<int64_t>::max()) {
      op.emitOpError() << "has no derivative: its order would be n + 1 = 2^63";
      return Value();
    }
    return PolygammaOp::create(b, op.getLoc(), op.getSelf(), n + 1);
  }
};
template <> struct SpecialPartial<ErfinvOp> {
  static Value get(ErfinvOp op, OpBuilder &b) {
    Location loc = op.getLoc();
    Value y = op.getResult();
    Value e = ExpOp::create(b, loc, mul(b, loc, y, y));
    return mulScalar(b, loc, e, 0.5 * std::sqrt(M_PI));
  }
};
template <> struct SpecialPartial<SpecialNdtriOp> {
  static Value get(SpecialNdtriOp op, OpBuilder &b) {
    Location loc = op.getLoc();
    Value y = op.getResult();
    Value e = ExpOp::create(b, loc, mulScalar(b, loc, mul(b, loc, y, y), 0.5));
    return mulScalar(b, loc, e, std::sqrt(2 * M_PI));
  }
};
template <> struct SpecialPartial<SpecialErfcxOp> {
  static Value get(SpecialErfcxOp op, OpBuilder &b) {
    Location loc = op.getLoc();
    Value xy = mul(b, loc, op.getSelf(), op.getResult());
    return addScalar(b, loc, mulScalar(b, loc, xy, 2.0), -M_2_SQRTPI);
  }
};

/// Integer operands (promoted to float) carry no derivative.
template <typename OpT>
using UnarySpecialRule = UnaryPartialRule<OpT, SpecialPartial<OpT>>;

/// `v / 2^exponent`, the exponent converted to v's float type first (exact;
/// eager's exp2 of the int32 exponent rounds to float32 instead, which
/// differs only where 2^exponent overflows float32).
Value divByPowerOfTwo(OpBuilder &b, FrexpOp op, Value v) {
  Location loc = op.getLoc();
  Type elt = tensorType(op.getMantissa()).getElementType();
  Value e = castTo(b, loc, op.getExponent(), elt);
  return div(b, loc, v, Exp2Op::create(b, loc, e));
}
} // namespace

namespace mlir::tp::autodiff {
template <> struct Rule<LgammaOp> : UnarySpecialRule<LgammaOp> {};
template <> struct Rule<DigammaOp> : UnarySpecialRule<DigammaOp> {};
template <> struct Rule<PolygammaOp> : UnarySpecialRule<PolygammaOp> {};
template <> struct Rule<ErfinvOp> : UnarySpecialRule<ErfinvOp> {};
template <> struct Rule<SpecialNdtriOp> : UnarySpecialRule<SpecialNdtriOp> {};
template <> struct Rule<SpecialErfcxOp> : UnarySpecialRule<SpecialErfcxOp> {};

template <> struct Rule<FrexpOp> {
  static LogicalResult vjp(FrexpOp op, OpBuilder &b, ValueRange adjoints,
                           SmallVectorImpl<Value> &out) {
    Value g = adjoints[0];
    out.push_back(g ? divByPowerOfTwo(b, op, g) : Value());
    return success();
  }
  static LogicalResult jvp(FrexpOp op, OpBuilder &b, ValueRange tangents,
                           SmallVectorImpl<Value> &out) {
    Value t = tangents[0];
    out.push_back(t ? divByPowerOfTwo(b, op, t) : Value());
    out.push_back(Value());
    return success();
  }
};
} // namespace mlir::tp::autodiff

void autodiff::attachSpecialRules(MLIRContext *ctx) {
  attachRules<LgammaOp, DigammaOp, PolygammaOp, ErfinvOp, SpecialNdtriOp,
              SpecialErfcxOp, FrexpOp>(ctx);
}
