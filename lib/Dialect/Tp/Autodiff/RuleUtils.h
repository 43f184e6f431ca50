//===- RuleUtils.h - building blocks of derivative rules --------*- C++ -*-===//
//
// Internal to lib/Dialect/Tp/Autodiff. A rule file specializes `Rule<OpT>`
// with
//   static LogicalResult vjp(OpT op, OpBuilder &b, ValueRange resultAdjoints,
//                            SmallVectorImpl<Value> &operandAdjoints);
//   static LogicalResult jvp(OpT op, OpBuilder &b, ValueRange operandTangents,
//                            SmallVectorImpl<Value> &resultTangents);
// and registers it with attachRules<OpT...>(ctx). Null Values are zeros.
// Helpers here build tp ops with inferred types; all are null-aware where
// noted, so that rules stay short.
//
//===----------------------------------------------------------------------===//
#ifndef STAX_LIB_DIALECT_TP_AUTODIFF_RULEUTILS_H
#define STAX_LIB_DIALECT_TP_AUTODIFF_RULEUTILS_H

#include "Stax/Dialect/Tp/IR/TpOps.h"
#include "Stax/Dialect/Tp/IR/TypeInference.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"

namespace mlir::tp::autodiff {

template <typename OpT> struct Rule; // specialized per op

template <typename OpT>
struct RuleModel
    : public DifferentiableOpInterface::ExternalModel<RuleModel<OpT>, OpT> {
  LogicalResult buildVJP(Operation *op, OpBuilder &b, ValueRange adjoints,
                         SmallVectorImpl<Value> &out) const {
    size_t before = out.size();
    if (failed(Rule<OpT>::vjp(cast<OpT>(op), b, adjoints, out)))
      return failure();
    assert(out.size() - before == op->getNumOperands() &&
           "a VJP rule must produce one adjoint per operand");
    (void)before;
    return success();
  }
  LogicalResult buildJVP(Operation *op, OpBuilder &b, ValueRange tangents,
                         SmallVectorImpl<Value> &out) const {
    size_t before = out.size();
    if (failed(Rule<OpT>::jvp(cast<OpT>(op), b, tangents, out)))
      return failure();
    assert(out.size() - before == op->getNumResults() &&
           "a JVP rule must produce one tangent per result");
    (void)before;
    return success();
  }
};

template <typename... OpTs> void attachRules(MLIRContext *ctx) {
  (OpTs::template attachInterface<RuleModel<OpTs>>(*ctx), ...);
}

// Registration entry points, one per family file.
void attachElementwiseRules(MLIRContext *ctx);
void attachSpecialRules(MLIRContext *ctx);
void attachReductionRules(MLIRContext *ctx);
void attachScanRules(MLIRContext *ctx);
void attachShapeRules(MLIRContext *ctx);
void attachNNRules(MLIRContext *ctx);
void attachLinalgRules(MLIRContext *ctx);
void attachIndexingRules(MLIRContext *ctx);
void attachRandomRules(MLIRContext *ctx);

//===----------------------------------------------------------------------===//
// Builders (types are inferred; `loc` is the differentiated op's)
//===----------------------------------------------------------------------===//

RankedTensorType tensorType(Value v);
/// A floating scalar attribute (f64), the form tp's `.Scalar` ops take.
TypedAttr f64Attr(OpBuilder &b, double c);
bool isFloatTensor(Value v);

/// a + b; null-aware (null + b = b).
Value add(OpBuilder &b, Location loc, Value x, Value y);
/// a - b; null-aware (null - b = -b).
Value sub(OpBuilder &b, Location loc, Value x, Value y);
/// a * b; null when either is null.
Value mul(OpBuilder &b, Location loc, Value x, Value y);
/// a / b; null when a is null.
Value div(OpBuilder &b, Location loc, Value x, Value y);
Value neg(OpBuilder &b, Location loc, Value x);
/// x * c and x + c for a floating scalar c (null-aware for mul).
Value mulScalar(OpBuilder &b, Location loc, Value x, double c);
Value addScalar(OpBuilder &b, Location loc, Value x, double c);
/// A tensor of type `t` filled with `value`.
Value full(OpBuilder &b, Location loc, RankedTensorType t, double value);
Value zerosLike(OpBuilder &b, Location loc, Value like);

/// Reduces `grad` (broadcast shape) to the shape of `target` by summing the
/// broadcast dims, and converts it to target's element type: the adjoint of
/// an implicit broadcast. Null stays null.
Value sumToShape(OpBuilder &b, Location loc, Value grad, RankedTensorType target);
/// Broadcasts `v` to `shape` (expand, adding leading dims); null stays null.
Value broadcastTo(OpBuilder &b, Location loc, Value v, ArrayRef<int64_t> shape);
/// Converts to element type `t` when it differs (tp._to_copy).
Value castTo(OpBuilder &b, Location loc, Value v, Type elementType);

/// JVP of a linear op: the op itself applied to the tangents (zeros for
/// null tangents of differentiable operands; non-float operands keep their
/// primal value). All results get tangents.
LogicalResult jvpByLinearity(Operation *op, OpBuilder &b, ValueRange tangents,
                             SmallVectorImpl<Value> &resultTangents);

/// The rule of a unary pointwise op whose derivative dy/dx, a tensor of the
/// result's shape, `PartialT::get(op, b)` builds: the VJP is the adjoint
/// times it (summed to the operand's shape), the JVP the tangent times it.
/// A null partial means the op has no derivative (PartialT reported why).
/// Non-float operands and results (an integer promoted to float) carry no
/// derivative.
template <typename OpT, typename PartialT> struct UnaryPartialRule {
  static bool differentiable(OpT op) {
    return isFloatTensor(op.getSelf()) && isFloatTensor(op->getResult(0));
  }
  static LogicalResult vjp(OpT op, OpBuilder &b, ValueRange adjoints,
                           SmallVectorImpl<Value> &out) {
    Value g = adjoints[0];
    if (!g || !differentiable(op)) {
      out.push_back(Value());
      return success();
    }
    Location loc = op.getLoc();
    Value d = PartialT::get(op, b);
    if (!d)
      return failure(); // reported by PartialT
    out.push_back(sumToShape(b, loc, mul(b, loc, g, d),
                             tensorType(op.getSelf())));
    return success();
  }
  static LogicalResult jvp(OpT op, OpBuilder &b, ValueRange tangents,
                           SmallVectorImpl<Value> &out) {
    Value t = tangents[0];
    if (!t || !differentiable(op)) {
      out.push_back(Value());
      return success();
    }
    Location loc = op.getLoc();
    Value d = PartialT::get(op, b);
    if (!d)
      return failure(); // reported by PartialT
    t = castTo(b, loc, t, tensorType(op->getResult(0)).getElementType());
    out.push_back(mul(b, loc, t, d));
    return success();
  }
};

/// The normalized `dim` attribute of an op with a `self` operand, or -1
/// for a 0-d self.
template <typename OpT> int64_t normalizedDimOf(OpT op) {
  int64_t rank = tensorType(op.getSelf()).getRank();
  return rank ? *normalizeDim(static_cast<int64_t>(op.getDim()), rank) : -1;
}

/// The rule of an op whose first result holds elements of `self` taken
/// along `dim` at the positions of its `indices` result (sort, topk,
/// cummax): the VJP puts the adjoint back at those positions in zeros
/// (ScatterT: tp.scatter when each position is taken once, tp.scatter_add
/// when it may be taken again), the JVP gathers the tangent from them. A
/// 0-d self is its own result; integer values and the indices carry no
/// derivative.
template <typename OpT, typename ScatterT> struct TakenAlongDimRule {
  static LogicalResult vjp(OpT op, OpBuilder &b, ValueRange adjoints,
                           SmallVectorImpl<Value> &out) {
    Value g = isFloatTensor(op.getSelf()) ? adjoints[0] : Value();
    if (int64_t dim = normalizedDimOf(op); g && dim >= 0)
      g = ScatterT::create(b, op.getLoc(),
                           zerosLike(b, op.getLoc(), op.getSelf()),
                           op.getIndices(), g, dim);
    out.push_back(g);
    return success();
  }
  static LogicalResult jvp(OpT op, OpBuilder &b, ValueRange tangents,
                           SmallVectorImpl<Value> &out) {
    Value t = isFloatTensor(op.getSelf()) ? tangents[0] : Value();
    if (int64_t dim = normalizedDimOf(op); t && dim >= 0)
      t = GatherOp::create(b, op.getLoc(), t, op.getIndices(), dim);
    out.push_back(t);
    out.push_back(Value());
    return success();
  }
};

} // namespace mlir::tp::autodiff

namespace mlir::tp::autodiff {
//===----------------------------------------------------------------------===//
// Derivatives of composite ops through a decomposition (shape/nn/indexing)
//===----------------------------------------------------------------------===//

/// Builds, at the builder's insertion point, primitive tp ops that compute
/// the results of the op being differentiated from its operands, and appends
/// one value per op result (null for a result without derivatives).
using DecompositionFn =
    llvm::function_ref<LogicalResult(OpBuilder &, SmallVectorImpl<Value> &)>;

/// VJP of `op` by reverse mode over its decomposition: the rules of the
/// primitive ops are chained, so the gradient is made of primitives (and
/// differentiable again). Fails when a primitive on the path has no rule.
/// An operand used twice gets its whole adjoint at its first use.
LogicalResult vjpByDecomposition(Operation *op, OpBuilder &b,
                                 ValueRange adjoints,
                                 SmallVectorImpl<Value> &operandAdjoints,
                                 DecompositionFn build);
/// JVP of `op` by forward mode over its decomposition.
LogicalResult jvpByDecomposition(Operation *op, OpBuilder &b,
                                 ValueRange tangents,
                                 SmallVectorImpl<Value> &resultTangents,
                                 DecompositionFn build);
/// sum over `dims` with keepdim; null stays null.
Value sumKeepDims(OpBuilder &b, Location loc, Value x, ArrayRef<int64_t> dims);
} // namespace mlir::tp::autodiff

#endif // STAX_LIB_DIALECT_TP_AUTODIFF_RULEUTILS_H
