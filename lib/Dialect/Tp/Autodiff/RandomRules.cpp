//===- RandomRules.cpp - derivatives of random ops ------------------------===//
//
// With the RNG state an operand, a random op is a deterministic function of
// its inputs, so its derivative is that of the function with the drawn
// numbers fixed: dropout is linear in its input under the mask it drew, and
// a Bernoulli sample is piecewise constant in its probabilities.
//
//===----------------------------------------------------------------------===//

#include "RuleUtils.h"

using namespace mlir;
using namespace mlir::tp;
using namespace mlir::tp::autodiff;

namespace {
/// 1 / (1 - p), or 0 when everything is dropped (p = 1), as eager.
double dropoutScale(double p) { return p == 1.0 ? 0.0 : 1.0 / (1.0 - p); }

Value maskedScale(OpBuilder &b, DropoutSeededOp op, Value v) {
  if (!v)
    return Value();
  double p = op.getP().convertToDouble();
  return NativeDropoutBackwardOp::create(b, op.getLoc(), v, op.getMask(),
                                         b.getF64FloatAttr(dropoutScale(p)));
}
} // namespace

namespace mlir::tp::autodiff {
template <> struct Rule<DropoutSeededOp> {
  static LogicalResult vjp(DropoutSeededOp op, OpBuilder &b,
                           ValueRange adjoints, SmallVectorImpl<Value> &out) {
    out.push_back(maskedScale(b, op, adjoints[0])); // input
    out.push_back(Value());                         // state
    return success();
  }
  static LogicalResult jvp(DropoutSeededOp op, OpBuilder &b,
                           ValueRange tangents, SmallVectorImpl<Value> &out) {
    out.push_back(maskedScale(b, op, tangents[0])); // output
    out.push_back(Value());                         // mask
    return success();
  }
};

/// Zero almost everywhere: the sample does not move when the
/// probabilities move a little.
template <> struct Rule<BernoulliOp> {
  static LogicalResult vjp(BernoulliOp op, OpBuilder &, ValueRange,
                           SmallVectorImpl<Value> &out) {
    out.append(op->getNumOperands(), Value());
    return success();
  }
  static LogicalResult jvp(BernoulliOp op, OpBuilder &, ValueRange,
                           SmallVectorImpl<Value> &out) {
    out.append(op->getNumResults(), Value());
    return success();
  }
};
} // namespace mlir::tp::autodiff

void autodiff::attachRandomRules(MLIRContext *ctx) {
  attachRules<DropoutSeededOp, BernoulliOp>(ctx);
}
