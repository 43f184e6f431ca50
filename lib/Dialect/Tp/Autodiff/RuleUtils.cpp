//===- RuleUtils.cpp - building blocks of derivative rules ----------------===//

#include "RuleUtils.h"
#include "Stax/Dialect/Tp/IR/TypeInference.h"
#include "mlir/IR/IRMapping.h"

using namespace mlir;
using namespace mlir::tp;
using namespace mlir::tp::autodiff;

RankedTensorType autodiff::tensorType(Value v) {
  return cast<RankedTensorType>(v.getType());
}

bool autodiff::isFloatTensor(Value v) {
  auto t = dyn_cast<RankedTensorType>(v.getType());
  return t && isa<FloatType>(t.getElementType());
}

TypedAttr autodiff::f64Attr(OpBuilder &b, double c) {
  return FloatAttr::get(b.getF64Type(), c);
}

Value autodiff::add(OpBuilder &b, Location loc, Value x, Value y) {
  if (!x)
    return y;
  if (!y)
    return x;
  return AddOp::create(b, loc, x, y);
}

Value autodiff::sub(OpBuilder &b, Location loc, Value x, Value y) {
  if (!y)
    return x;
  if (!x)
    return neg(b, loc, y);
  return SubOp::create(b, loc, x, y);
}

Value autodiff::mul(OpBuilder &b, Location loc, Value x, Value y) {
  if (!x || !y)
    return Value();
  return MulOp::create(b, loc, x, y);
}

Value autodiff::div(OpBuilder &b, Location loc, Value x, Value y) {
  if (!x)
    return Value();
  return DivOp::create(b, loc, x, y, RoundingModeAttr());
}

Value autodiff::neg(OpBuilder &b, Location loc, Value x) {
  if (!x)
    return Value();
  return NegOp::create(b, loc, x);
}

Value autodiff::mulScalar(OpBuilder &b, Location loc, Value x, double c) {
  if (!x)
    return Value();
  return MulScalarOp::create(b, loc, x, f64Attr(b, c));
}

Value autodiff::addScalar(OpBuilder &b, Location loc, Value x, double c) {
  return AddScalarOp::create(b, loc, x, f64Attr(b, c));
}

Value autodiff::full(OpBuilder &b, Location loc, RankedTensorType t,
                     double value) {
  return FullOp::create(b, loc, t, f64Attr(b, value));
}

Value autodiff::zerosLike(OpBuilder &b, Location loc, Value like) {
  return full(b, loc, tensorType(like), 0.0);
}

Value autodiff::castTo(OpBuilder &b, Location loc, Value v, Type elementType) {
  if (!v || tensorType(v).getElementType() == elementType)
    return v;
  return ToCopyOp::create(b, loc, v, TypeAttr::get(elementType));
}

Value autodiff::sumToShape(OpBuilder &b, Location loc, Value grad,
                           RankedTensorType target) {
  if (!grad)
    return grad;
  ArrayRef<int64_t> from = tensorType(grad).getShape();
  ArrayRef<int64_t> to = target.getShape();
  if (from != to) {
    int64_t lead = static_cast<int64_t>(from.size()) - to.size();
    SmallVector<int64_t> dims;
    for (int64_t i = 0; i < static_cast<int64_t>(from.size()); ++i)
      if (i < lead || (to[i - lead] == 1 && from[i] != 1))
        dims.push_back(i);
    if (!dims.empty())
      grad = SumOp::create(b, loc, grad, b.getDenseI64ArrayAttr(dims),
                           b.getBoolAttr(true), TypeAttr());
    if (tensorType(grad).getShape() != to)
      grad = ViewOp::create(b, loc, grad, b.getDenseI64ArrayAttr(to));
  }
  return castTo(b, loc, grad, target.getElementType());
}

Value autodiff::broadcastTo(OpBuilder &b, Location loc, Value v,
                            ArrayRef<int64_t> shape) {
  if (!v || tensorType(v).getShape() == shape)
    return v;
  return ExpandOp::create(b, loc, v, b.getDenseI64ArrayAttr(shape));
}

LogicalResult autodiff::jvpByLinearity(Operation *op, OpBuilder &b,
                                       ValueRange tangents,
                                       SmallVectorImpl<Value> &resultTangents) {
  bool any = llvm::any_of(tangents, [](Value t) { return bool(t); });
  if (!any) {
    resultTangents.append(op->getNumResults(), Value());
    return success();
  }
  IRMapping map;
  for (auto [operand, tangent] : llvm::zip(op->getOperands(), tangents)) {
    if (!isFloatTensor(operand))
      continue; // indices, masks: the primal value
    map.map(operand, tangent ? tangent : zerosLike(b, op->getLoc(), operand));
  }
  Operation *clone = b.clone(*op, map);
  for (Value r : clone->getResults())
    resultTangents.push_back(isFloatTensor(r) ? r : Value());
  return success();
}

//===----------------------------------------------------------------------===//
// Derivatives through a decomposition
//===----------------------------------------------------------------------===//

/// Runs `build` and returns the ops it created, in order.
static FailureOr<SmallVector<Operation *>>
buildDecomposition(OpBuilder &b, DecompositionFn build,
                   SmallVectorImpl<Value> &results) {
  Block *block = b.getInsertionBlock();
  Block::iterator ip = b.getInsertionPoint();
  Operation *prev = ip == block->begin() ? nullptr : &*std::prev(ip);
  if (failed(build(b, results)))
    return failure();
  SmallVector<Operation *> ops;
  Block::iterator it = prev ? std::next(prev->getIterator()) : block->begin();
  for (; it != ip; ++it)
    ops.push_back(&*it);
  return ops;
}

LogicalResult autodiff::vjpByDecomposition(Operation *op, OpBuilder &b,
                                           ValueRange adjoints,
                                           SmallVectorImpl<Value> &out,
                                           DecompositionFn build) {
  Location loc = op->getLoc();
  if (llvm::none_of(adjoints, [](Value a) { return bool(a); })) {
    out.append(op->getNumOperands(), Value());
    return success();
  }
  SmallVector<Value> results;
  auto ops = buildDecomposition(b, build, results);
  if (failed(ops))
    return failure();
  assert(results.size() == op->getNumResults() &&
         "a decomposition yields one value per result");
  DenseMap<Value, Value> adj;
  auto accumulate = [&](Value v, Value a) {
    if (a)
      adj[v] = add(b, loc, adj.lookup(v), a);
  };
  for (auto [r, a] : llvm::zip(results, adjoints))
    if (r)
      accumulate(r, a);
  for (Operation *o : llvm::reverse(*ops)) {
    SmallVector<Value> resultAdjoints;
    for (Value r : o->getResults())
      resultAdjoints.push_back(adj.lookup(r));
    // Creation ops (zeros to scatter into) and integer ops pass nothing on.
    if (llvm::none_of(resultAdjoints, [](Value a) { return bool(a); }) ||
        llvm::none_of(o->getOperands(), isFloatTensor))
      continue;
    auto iface = dyn_cast<DifferentiableOpInterface>(o);
    if (!iface)
      return op->emitOpError("derivative needs '")
             << o->getName() << "', which is not differentiable";
    SmallVector<Value> operandAdjoints;
    if (failed(iface.buildVJP(b, resultAdjoints, operandAdjoints)))
      return failure();
    for (auto [v, a] : llvm::zip(o->getOperands(), operandAdjoints))
      accumulate(v, a);
  }
  llvm::SmallDenseSet<Value> seen;
  for (Value v : op->getOperands())
    out.push_back(seen.insert(v).second ? adj.lookup(v) : Value());
  return success();
}

LogicalResult autodiff::jvpByDecomposition(Operation *op, OpBuilder &b,
                                           ValueRange tangents,
                                           SmallVectorImpl<Value> &out,
                                           DecompositionFn build) {
  if (llvm::none_of(tangents, [](Value t) { return bool(t); })) {
    out.append(op->getNumResults(), Value());
    return success();
  }
  SmallVector<Value> results;
  auto ops = buildDecomposition(b, build, results);
  if (failed(ops))
    return failure();
  assert(results.size() == op->getNumResults() &&
         "a decomposition yields one value per result");
  DenseMap<Value, Value> tan;
  for (auto [v, t] : llvm::zip(op->getOperands(), tangents))
    if (t)
      tan[v] = t;
  for (Operation *o : *ops) {
    SmallVector<Value> operandTangents;
    for (Value v : o->getOperands())
      operandTangents.push_back(tan.lookup(v));
    if (llvm::none_of(operandTangents, [](Value t) { return bool(t); }))
      continue;
    auto iface = dyn_cast<DifferentiableOpInterface>(o);
    if (!iface)
      return op->emitOpError("derivative needs '")
             << o->getName() << "', which is not differentiable";
    SmallVector<Value> resultTangents;
    if (failed(iface.buildJVP(b, operandTangents, resultTangents)))
      return failure();
    for (auto [r, t] : llvm::zip(o->getResults(), resultTangents))
      if (t)
        tan[r] = t;
  }
  for (Value r : results)
    out.push_back(r && isFloatTensor(r) ? tan.lookup(r) : Value());
  return success();
}

Value autodiff::sumKeepDims(OpBuilder &b, Location loc, Value x,
                            ArrayRef<int64_t> dims) {
  if (!x)
    return x;
  return SumOp::create(b, loc, x, b.getDenseI64ArrayAttr(dims),
                       b.getBoolAttr(true), TypeAttr());
}
