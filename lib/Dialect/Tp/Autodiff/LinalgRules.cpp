//===- LinalgRules.cpp - derivatives of matrix products -------------------===//
//
// For C = A B: dA = dC B^T and dB = A^T dC (Theorem 5.1's remark: the
// reverse of a product is two products of the same size); the JVP is the
// product rule dC = dA B + A dB. matmul promotes 1-D operands to matrices
// and broadcasts batch dims, so its adjoints are reduced back with
// sumToShape; addmm/baddbmm add the scaled (and broadcast) `self`.
//
//===----------------------------------------------------------------------===//

#include "RuleUtils.h"
#include "Stax/Dialect/Tp/IR/TypeInference.h"

using namespace mlir;
using namespace mlir::tp;
using namespace mlir::tp::autodiff;

namespace {

/// The last two dims of a tensor of rank >= 2 swapped.
Value transposeLast(OpBuilder &b, Location loc, Value v) {
  int64_t rank = tensorType(v).getRank();
  if (rank == 2)
    return TOp::create(b, loc, v);
  return TransposeOp::create(b, loc, v, static_cast<uint64_t>(rank - 2),
                             static_cast<uint64_t>(rank - 1));
}

Value reshape(OpBuilder &b, Location loc, Value v, ArrayRef<int64_t> shape) {
  if (tensorType(v).getShape() == shape)
    return v;
  return ViewOp::create(b, loc, v, b.getDenseI64ArrayAttr(shape));
}

/// x * c for a scalar attribute c; x itself when c == 1, null when x is
/// null. c == 0 still multiplies (PyTorch's maybe_multiply does): a NaN or
/// inf in x stays visible.
Value scaleBy(OpBuilder &b, Location loc, Value x, TypedAttr c) {
  double v = getScalarAsDouble(c);
  if (!x)
    return Value();
  if (v == 1.0)
    return x;
  return mulScalar(b, loc, x, v);
}

/// VJP of the product part of `beta * self + alpha * (a @ b)` for 2-D or
/// batched 3-D operands (`Prod` is MmOp or BmmOp).
template <typename Prod>
void productVJP(OpBuilder &b, Location loc, Value g, Value a, Value m,
                SmallVectorImpl<Value> &out) {
  out.push_back(g && isFloatTensor(a)
                    ? Value(Prod::create(b, loc, g, transposeLast(b, loc, m)))
                    : Value());
  out.push_back(g && isFloatTensor(m)
                    ? Value(Prod::create(b, loc, transposeLast(b, loc, a), g))
                    : Value());
}

/// The product rule: ta @ m + a @ tm (null when both tangents are).
template <typename Prod>
Value productJVP(OpBuilder &b, Location loc, Value a, Value m, Value ta,
                 Value tm) {
  Value left = ta ? Value(Prod::create(b, loc, ta, m)) : Value();
  Value right = tm ? Value(Prod::create(b, loc, a, tm)) : Value();
  return add(b, loc, left, right);
}

template <typename OpT, typename Prod> struct ProductRule {
  static LogicalResult vjp(OpT op, OpBuilder &b, ValueRange adjoints,
                           SmallVectorImpl<Value> &out) {
    productVJP<Prod>(b, op.getLoc(), adjoints[0], op->getOperand(0),
                     op->getOperand(1), out);
    return success();
  }
  static LogicalResult jvp(OpT op, OpBuilder &b, ValueRange tangents,
                           SmallVectorImpl<Value> &out) {
    out.push_back(productJVP<Prod>(b, op.getLoc(), op->getOperand(0),
                                   op->getOperand(1), tangents[0],
                                   tangents[1]));
    return success();
  }
};

/// addmm / baddbmm: beta * self + alpha * (a @ m), self broadcast. A zero
/// beta ignores self (eager), so it gets no derivative.
template <typename OpT, typename Prod> struct AddProductRule {
  static LogicalResult vjp(OpT op, OpBuilder &b, ValueRange adjoints,
                           SmallVectorImpl<Value> &out) {
    Location loc = op.getLoc();
    Value g = adjoints[0];
    Value self = op->getOperand(0);
    out.push_back(g && isFloatTensor(self)
                      ? sumToShape(b, loc, scaleBy(b, loc, g, op.getBeta()),
                                   tensorType(self))
                      : Value());
    productVJP<Prod>(b, loc, scaleBy(b, loc, g, op.getAlpha()),
                     op->getOperand(1), op->getOperand(2), out);
    return success();
  }
  static LogicalResult jvp(OpT op, OpBuilder &b, ValueRange tangents,
                           SmallVectorImpl<Value> &out) {
    Location loc = op.getLoc();
    RankedTensorType rt = tensorType(op.getResult());
    Value prod = productJVP<Prod>(b, loc, op->getOperand(1), op->getOperand(2),
                                  tangents[1], tangents[2]);
    Value fromSelf = scaleBy(b, loc, tangents[0], op.getBeta());
    if (fromSelf)
      fromSelf = castTo(b, loc, broadcastTo(b, loc, fromSelf, rt.getShape()),
                        rt.getElementType());
    out.push_back(add(b, loc, fromSelf, scaleBy(b, loc, prod, op.getAlpha())));
    return success();
  }
};

} // namespace

namespace mlir::tp::autodiff {
template <> struct Rule<MmOp> : ProductRule<MmOp, MmOp> {};
template <> struct Rule<BmmOp> : ProductRule<BmmOp, BmmOp> {};
template <> struct Rule<AddmmOp> : AddProductRule<AddmmOp, MmOp> {};
template <> struct Rule<BaddbmmOp> : AddProductRule<BaddbmmOp, BmmOp> {};

/// dot(a, b) = sum(a * b): da = g * b, db = g * a.
template <> struct Rule<DotOp> {
  static LogicalResult vjp(DotOp op, OpBuilder &b, ValueRange adjoints,
                           SmallVectorImpl<Value> &out) {
    Value g = adjoints[0];
    Location loc = op.getLoc();
    out.push_back(g && isFloatTensor(op.getSelf())
                      ? mul(b, loc, g, op.getOther())
                      : Value());
    out.push_back(g && isFloatTensor(op.getOther())
                      ? mul(b, loc, g, op.getSelf())
                      : Value());
    return success();
  }
  static LogicalResult jvp(DotOp op, OpBuilder &b, ValueRange tangents,
                           SmallVectorImpl<Value> &out) {
    out.push_back(productJVP<DotOp>(b, op.getLoc(), op.getSelf(), op.getOther(),
                                    tangents[0], tangents[1]));
    return success();
  }
};

/// matmul: a 1-D left operand is a row [1, k], a 1-D right operand a
/// column [k, 1]; the adjoint, viewed with those dims restored, gives
/// dA' = g' @ B'^T and dB' = A'^T @ g' in the broadcast batch shape, which
/// sumToShape reduces to A' and B' before viewing them as A and B.
template <> struct Rule<MatmulOp> {
  static LogicalResult vjp(MatmulOp op, OpBuilder &b, ValueRange adjoints,
                           SmallVectorImpl<Value> &out) {
    Value g = adjoints[0];
    Location loc = op.getLoc();
    Value a = op.getSelf(), m = op.getOther();
    RankedTensorType ta = tensorType(a), tm = tensorType(m);
    bool live = g && isFloatTensor(op.getResult());
    if (!live || (!isFloatTensor(a) && !isFloatTensor(m))) {
      out.append(2, Value());
      return success();
    }
    SmallVector<int64_t> sa(ta.getShape()), sm(tm.getShape());
    bool vecA = sa.size() == 1, vecM = sm.size() == 1;
    if (vecA)
      sa.insert(sa.begin(), 1);
    if (vecM)
      sm.push_back(1);
    Value a2 = reshape(b, loc, a, sa), m2 = reshape(b, loc, m, sm);
    // g with the result's dims, plus the promoted size-1 dims.
    SmallVector<int64_t> sg(tensorType(g).getShape());
    if (vecA)
      sg.insert(sg.end() - (vecM ? 0 : 1), 1);
    if (vecM)
      sg.push_back(1);
    Value g2 = reshape(b, loc, g, sg);
    auto reduceTo = [&](Value v, ArrayRef<int64_t> promoted,
                        RankedTensorType target) -> Value {
      v = sumToShape(b, loc, v,
                     RankedTensorType::get(promoted, target.getElementType()));
      return reshape(b, loc, v, target.getShape());
    };
    out.push_back(
        isFloatTensor(a)
            ? reduceTo(MatmulOp::create(b, loc, g2, transposeLast(b, loc, m2)),
                       sa, ta)
            : Value());
    out.push_back(
        isFloatTensor(m)
            ? reduceTo(MatmulOp::create(b, loc, transposeLast(b, loc, a2), g2),
                       sm, tm)
            : Value());
    return success();
  }
  static LogicalResult jvp(MatmulOp op, OpBuilder &b, ValueRange tangents,
                           SmallVectorImpl<Value> &out) {
    out.push_back(productJVP<MatmulOp>(
        b, op.getLoc(), op.getSelf(), op.getOther(), tangents[0], tangents[1]));
    return success();
  }
};
} // namespace mlir::tp::autodiff

void autodiff::attachLinalgRules(MLIRContext *ctx) {
  attachRules<MmOp, BmmOp, MatmulOp, DotOp, AddmmOp, BaddbmmOp>(ctx);
}
