//===- JVP.cpp - forward-mode autodiff ------------------------------------===//
//
// Dual numbers (Section 5.7): every value z carries a tangent ż; each op
// maps its operands' tangents to its results' with its Jacobian-vector
// product. One forward walk, nothing saved.
//
//===----------------------------------------------------------------------===//

#include "Callers.h"
#include "Stax/Dialect/Tp/IR/Functional.h"
#include "Stax/Dialect/Tp/IR/TpOps.h"
#include "Stax/Dialect/Tp/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"

namespace mlir::tp {
#define GEN_PASS_DEF_STAXJVP
#include "Stax/Dialect/Tp/Transforms/Passes.h.inc"
} // namespace mlir::tp

using namespace mlir;

namespace {

bool isFloatTensor(Value v) {
  auto t = dyn_cast<RankedTensorType>(v.getType());
  return t && isa<FloatType>(t.getElementType());
}

LogicalResult buildJVP(func::FuncOp fn, ArrayRef<unsigned> wrt) {
  if (!fn.getBody().hasOneBlock())
    return fn.emitError() << "autodiff supports single-block functions";
  Block &body = fn.getBody().front();
  MLIRContext *ctx = fn.getContext();
  unsigned numPrimals = fn.getNumArguments();

  SmallVector<unsigned> args;
  if (wrt.empty()) {
    for (unsigned i = 0; i < numPrimals; ++i)
      if (isFloatTensor(body.getArgument(i)))
        args.push_back(i);
  } else {
    for (unsigned i : wrt) {
      if (i >= numPrimals)
        return fn.emitError() << "wrt names argument #" << i << " but @"
                              << fn.getSymName() << " has " << numPrimals;
      if (!isFloatTensor(body.getArgument(i)))
        return fn.emitError() << "argument #" << i
                              << " is not a floating-point tensor";
      args.push_back(i);
    }
  }

  llvm::DenseMap<Value, Value> tangents;
  auto tangentAttrs = DictionaryAttr::get(ctx, tp::getTangentArgAttr(ctx));
  for (unsigned i : args) {
    Value arg = body.getArgument(i);
    unsigned index = fn.getNumArguments();
    if (failed(fn.insertArgument(index, arg.getType(), tangentAttrs, arg.getLoc())))
      return fn.emitError() << "cannot add a tangent argument";
    tangents[arg] = fn.getArgument(index);
  }

  SmallVector<Operation *> forward;
  for (Operation &op : body.without_terminator())
    forward.push_back(&op);
  Operation *ret = body.getTerminator();
  for (Operation *op : forward) {
    SmallVector<Value> in;
    bool any = false;
    for (Value v : op->getOperands()) {
      Value t = tangents.lookup(v);
      in.push_back(t);
      any |= bool(t);
    }
    if (!any)
      continue;
    if (!llvm::any_of(op->getResults(), isFloatTensor))
      continue; // integer and bool results carry no tangent
    auto rule = dyn_cast<tp::DifferentiableOpInterface>(op);
    if (!rule)
      return op->emitOpError() << "is not differentiable, but a tangent of @"
                               << fn.getSymName() << " flows through it";
    OpBuilder b(op->getContext());
    b.setInsertionPointAfter(op);
    SmallVector<Value> out;
    if (failed(rule.buildJVP(b, in, out)))
      return op->emitOpError() << "has no Jacobian-vector product for this case";
    for (auto [r, t] : llvm::zip(op->getResults(), out))
      if (t)
        tangents[r] = t;
  }

  OpBuilder b(ret);
  SmallVector<Value> results(ret->getOperands());
  unsigned numOutputs = results.size();
  for (Value r : ret->getOperands()) {
    if (!isFloatTensor(r))
      continue;
    Value t = tangents.lookup(r);
    if (!t)
      t = tp::FullOp::create(b, ret->getLoc(),
                             cast<RankedTensorType>(r.getType()),
                             FloatAttr::get(Float64Type::get(ctx), 0.0));
    results.push_back(t);
  }
  ret->setOperands(results);
  for (unsigned k = numOutputs; k < results.size(); ++k)
    if (failed(fn.insertResult(k, results[k].getType(), DictionaryAttr())))
      return fn.emitError() << "cannot add a tangent result";
  // A JVP of a joint graph (Hessian-vector products) is no longer a joint
  // graph the partitioners understand: its tangent results would be taken
  // for gradients. Drop the joint marks so that they refuse it.
  if (tp::getJointOutputs(fn)) {
    tp::removeJointOutputs(fn);
    for (Operation &op : body.without_terminator())
      op.removeAttr(tp::kPhaseAttr);
  }
  return success();
}

struct JVPPass : public tp::impl::StaxJVPBase<JVPPass> {
  using StaxJVPBase::StaxJVPBase;
  void runOnOperation() override {
    if (failed(tp::verifyFunctional(getOperation(), getArgument())))
      return signalPassFailure();
    bool any = false;
    for (auto fn : getOperation().getOps<func::FuncOp>()) {
      if (fn.isExternal() || (!function.empty() && fn.getSymName() != function))
        continue;
      any = true;
      if (failed(tp::verifyNotCalled(fn, getOperation(), getArgument())) ||
          failed(tp::verifySignatureTypes(fn, getArgument())) ||
          failed(buildJVP(fn, wrt)))
        return signalPassFailure();
    }
    if (!any && !function.empty()) {
      mlir::emitError(getOperation().getLoc())
          << "no function named @" << function;
      signalPassFailure();
    }
  }
};
} // namespace
