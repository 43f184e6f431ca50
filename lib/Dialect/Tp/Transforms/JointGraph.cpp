//===- JointGraph.cpp - reverse-mode autodiff (Algorithm 5.1) -------------===//
//
// The joint graph of a function holds its forward and backward ops in one
// body. Tracing (steps 2-4 of Algorithm 5.1) becomes a walk over the forward
// in reverse, asking each op's DifferentiableOpInterface for its
// vector-Jacobian product:
//
//   1. activity: a value is active when it depends on a differentiated
//      argument (varied) and a differentiable result depends on it (useful);
//   2. one tangent argument per floating result seeds the adjoints;
//   3. ops are visited in reverse order, so every adjoint has received all
//      its contributions (from the op's users) before the op uses it;
//   4. the gradients of the differentiated arguments are appended to the
//      results.
//
//===----------------------------------------------------------------------===//

#include "Callers.h"
#include "Stax/Dialect/Tp/IR/Functional.h"
#include "Stax/Dialect/Tp/IR/TpOps.h"
#include "Stax/Dialect/Tp/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/DenseSet.h"

namespace mlir::tp {
#define GEN_PASS_DEF_STAXJOINTGRAPH
#include "Stax/Dialect/Tp/Transforms/Passes.h.inc"
} // namespace mlir::tp

using namespace mlir;

namespace {

bool isFloatTensor(Value v) {
  auto t = dyn_cast<RankedTensorType>(v.getType());
  return t && isa<FloatType>(t.getElementType());
}

/// The arguments to differentiate: `wrt`, or those marked tp.requires_grad.
FailureOr<SmallVector<unsigned>> differentiatedArgs(func::FuncOp fn,
                                                    ArrayRef<unsigned> wrt) {
  SmallVector<unsigned> args;
  if (!wrt.empty()) {
    for (unsigned i : wrt) {
      if (i >= fn.getNumArguments())
        return fn.emitError() << "wrt names argument #" << i << " but @"
                              << fn.getSymName() << " has "
                              << fn.getNumArguments();
      args.push_back(i);
    }
  } else {
    for (unsigned i = 0; i < fn.getNumArguments(); ++i)
      if (tp::requiresGrad(fn, i))
        args.push_back(i);
  }
  for (unsigned i : args)
    if (!isFloatTensor(fn.getArgument(i)))
      return fn.emitError() << "argument #" << i
                            << " is differentiated but is not a floating-point "
                               "tensor";
  return args;
}

/// Rules produce adjoints for every floating operand; those of inactive
/// operands (x̄ when x needs no gradient) are dropped here, so that no node
/// computes a gradient nobody asked for.
void eraseUnusedBackwardOps(Block &body) {
  SmallVector<Operation *> ops;
  for (Operation &op : body.without_terminator())
    ops.push_back(&op);
  for (Operation *op : llvm::reverse(ops)) {
    if (tp::isBackward(op) && op->use_empty())
      op->erase();
  }
}

class JointGraphBuilder {
public:
  JointGraphBuilder(func::FuncOp fn) : fn(fn) {}
  LogicalResult run(ArrayRef<unsigned> args);
  void keepOnlyGradients();

private:
  void computeActivity(ArrayRef<unsigned> args);
  void accumulate(OpBuilder &b, Location loc, Value v, Value adjoint);
  LogicalResult visit(OpBuilder &b, Operation *op);

  func::FuncOp fn;
  llvm::DenseSet<Value> active;
  llvm::DenseMap<Value, Value> adjoints;
  /// The first op with a varied floating operand but no floating result
  /// (argmax, a comparison): where a derivative stops silently.
  Operation *firstBlocking = nullptr;
};
} // namespace

void JointGraphBuilder::computeActivity(ArrayRef<unsigned> args) {
  Block &body = fn.getBody().front();
  llvm::DenseSet<Value> varied;
  for (unsigned i : args)
    varied.insert(body.getArgument(i));
  for (Operation &op : body.without_terminator()) {
    bool anyVaried = llvm::any_of(op.getOperands(), [&](Value v) {
      return varied.contains(v) && isFloatTensor(v);
    });
    if (!anyVaried)
      continue;
    bool anyFloat = false;
    for (Value r : op.getResults())
      if (isFloatTensor(r)) {
        varied.insert(r);
        anyFloat = true;
      }
    if (!anyFloat && !firstBlocking)
      firstBlocking = &op;
  }
  llvm::DenseSet<Value> useful;
  for (Value v : body.getTerminator()->getOperands())
    if (isFloatTensor(v))
      useful.insert(v);
  for (Operation &op : llvm::reverse(body.without_terminator())) {
    if (!llvm::any_of(op.getResults(),
                      [&](Value r) { return useful.contains(r); }))
      continue;
    for (Value v : op.getOperands())
      if (isFloatTensor(v))
        useful.insert(v);
  }
  for (Value v : varied)
    if (useful.contains(v))
      active.insert(v);
}

void JointGraphBuilder::accumulate(OpBuilder &b, Location loc, Value v,
                                   Value adjoint) {
  if (!adjoint || !active.contains(v))
    return;
  Value &slot = adjoints[v];
  if (!slot) {
    slot = adjoint;
    return;
  }
  auto sum = tp::AddOp::create(b, loc, slot, adjoint);
  tp::setPhase(sum, tp::Phase::Backward);
  slot = sum;
}

LogicalResult JointGraphBuilder::visit(OpBuilder &b, Operation *op) {
  SmallVector<Value> resultAdjoints;
  bool any = false;
  for (Value r : op->getResults()) {
    Value a = active.contains(r) ? adjoints.lookup(r) : Value();
    resultAdjoints.push_back(a);
    any |= bool(a);
  }
  if (!any)
    return success();
  auto rule = dyn_cast<tp::DifferentiableOpInterface>(op);
  if (!rule)
    return op->emitOpError()
           << "is not differentiable, but a derivative of @" << fn.getSymName()
           << " flows through it";
  // The rule's ops go before the return, after everything built so far.
  Block::iterator before = b.getInsertionPoint();
  Operation *last = before == b.getBlock()->begin() ? nullptr : &*std::prev(before);
  SmallVector<Value> operandAdjoints;
  if (failed(rule.buildVJP(b, resultAdjoints, operandAdjoints)))
    return op->emitOpError() << "has no vector-Jacobian product for this case";
  for (Operation *it = last ? last->getNextNode() : &b.getBlock()->front();
       it && it != &*b.getInsertionPoint(); it = it->getNextNode())
    tp::setPhase(it, tp::Phase::Backward);
  for (auto [operand, adjoint] : llvm::zip(op->getOperands(), operandAdjoints))
    accumulate(b, op->getLoc(), operand, adjoint);
  return success();
}

LogicalResult JointGraphBuilder::run(ArrayRef<unsigned> args) {
  if (!fn.getBody().hasOneBlock())
    return fn.emitError() << "autodiff supports single-block functions";
  computeActivity(args);
  Block &body = fn.getBody().front();
  Operation *ret = body.getTerminator();
  MLIRContext *ctx = fn.getContext();

  bool anyActiveResult = llvm::any_of(
      ret->getOperands(), [&](Value v) { return active.contains(v); });
  if (!anyActiveResult) {
    InFlightDiagnostic diag = fn.emitError()
                              << "no floating-point result of @"
                              << fn.getSymName()
                              << " depends differentiably on the "
                                 "differentiated arguments";
    if (firstBlocking)
      diag.attachNote(firstBlocking->getLoc())
          << "the dependence goes through '" << firstBlocking->getName()
          << "', which has no floating-point result";
    return diag;
  }

  // Everything the function computed so far is the new joint's forward,
  // including the backward of an earlier joint (second order): its tangents
  // become ordinary inputs of the new forward.
  for (Operation &op : body.without_terminator())
    tp::setPhase(&op, tp::Phase::Forward);
  for (unsigned i = 0, e = fn.getNumArguments(); i < e; ++i)
    fn.removeArgAttr(i, tp::kTangentAttr);

  // Tangent arguments: one per floating result, in result order.
  SmallVector<Value> tangents;
  auto tangentAttrs = DictionaryAttr::get(ctx, tp::getTangentArgAttr(ctx));
  // One bulk insertion: inserting one at a time rebuilds the function type
  // and attribute arrays per tangent (quadratic in large graphs).
  SmallVector<unsigned> indices;
  SmallVector<Type> types;
  SmallVector<DictionaryAttr> attrs;
  SmallVector<Location> locs;
  for (Value r : ret->getOperands()) {
    if (!isFloatTensor(r))
      continue;
    indices.push_back(fn.getNumArguments());
    types.push_back(r.getType());
    attrs.push_back(tangentAttrs);
    locs.push_back(r.getLoc());
  }
  unsigned firstTangent = fn.getNumArguments();
  if (failed(fn.insertArguments(indices, types, attrs, locs)))
    return fn.emitError() << "cannot add the tangent arguments";
  for (unsigned i = firstTangent; i < fn.getNumArguments(); ++i)
    tangents.push_back(fn.getArgument(i));
  OpBuilder b(ret);
  {
    unsigned k = 0;
    for (Value r : ret->getOperands())
      if (isFloatTensor(r))
        accumulate(b, ret->getLoc(), r, tangents[k++]);
  }

  SmallVector<Operation *> forward;
  for (Operation &op : body.without_terminator())
    forward.push_back(&op);
  for (Operation *op : llvm::reverse(forward))
    if (failed(visit(b, op)))
      return failure();

  SmallVector<Value> results(ret->getOperands());
  unsigned numOutputs = results.size();
  for (unsigned i : args) {
    Value arg = body.getArgument(i);
    Value g = adjoints.lookup(arg);
    if (!g) {
      auto zero = tp::FullOp::create(
          b, ret->getLoc(), cast<RankedTensorType>(arg.getType()),
          FloatAttr::get(Float64Type::get(ctx), 0.0));
      tp::setPhase(zero, tp::Phase::Backward);
      g = zero;
    }
    results.push_back(g);
  }
  ret->setOperands(results);
  SmallVector<unsigned> gradIndices;
  SmallVector<Type> gradTypes;
  for (unsigned k = numOutputs; k < results.size(); ++k) {
    gradIndices.push_back(numOutputs);
    gradTypes.push_back(results[k].getType());
  }
  SmallVector<DictionaryAttr> gradAttrs(gradIndices.size(), DictionaryAttr());
  if (failed(fn.insertResults(gradIndices, gradTypes, gradAttrs)))
    return fn.emitError() << "cannot add the gradient results";
  eraseUnusedBackwardOps(body);
  // The partitioner needs to know which results are forward outputs.
  tp::setJointOutputs(fn, numOutputs);
  return success();
}

/// Drops the forward's results (the first tp.joint_outputs ones) and the ops
/// only they used: what is left computes a vector-Jacobian product.
void JointGraphBuilder::keepOnlyGradients() {
  unsigned numOutputs = tp::getJointOutputs(fn).value_or(0);
  Block &body = fn.getBody().front();
  body.getTerminator()->eraseOperands(0, numOutputs);
  llvm::BitVector outputs(fn.getNumResults());
  outputs.set(0, numOutputs);
  (void)fn.eraseResults(outputs);
  tp::removeJointOutputs(fn);
  SmallVector<Operation *> ops;
  for (Operation &op : body.without_terminator())
    ops.push_back(&op);
  for (Operation *op : llvm::reverse(ops))
    if (isOpTriviallyDead(op))
      op->erase();
}

namespace {
struct JointGraphPass
    : public tp::impl::StaxJointGraphBase<JointGraphPass> {
  using StaxJointGraphBase::StaxJointGraphBase;

  void runOnOperation() override {
    if (failed(tp::verifyFunctional(getOperation(), getArgument())))
      return signalPassFailure();
    bool any = false;
    for (auto fn : llvm::make_early_inc_range(getOperation().getOps<func::FuncOp>())) {
      if (fn.isExternal() || (!function.empty() && fn.getSymName() != function))
        continue;
      auto args = differentiatedArgs(fn, wrt);
      if (failed(args))
        return signalPassFailure();
      if (args->empty()) {
        if (!function.empty()) {
          fn.emitError() << "has no argument marked tp.requires_grad; name "
                            "the arguments with the wrt option";
          return signalPassFailure();
        }
        continue;
      }
      any = true;
      if (failed(tp::verifyNotCalled(fn, getOperation(), getArgument())) ||
          failed(tp::verifySignatureTypes(fn, getArgument())))
        return signalPassFailure();
      JointGraphBuilder builder(fn);
      if (failed(builder.run(*args)))
        return signalPassFailure();
      if (gradientsOnly)
        builder.keepOnlyGradients();
    }
    if (!any && !function.empty()) {
      mlir::emitError(getOperation().getLoc())
          << "no function named @" << function;
      return signalPassFailure();
    }
  }
};
} // namespace
