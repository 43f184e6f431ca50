//===- Split.cpp - forward and backward functions from a joint graph ------===//

#include "SplitJointFunction.h"
#include "Stax/Dialect/Tp/Transforms/Passes.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"

using namespace mlir;
using namespace mlir::stax;
using namespace mlir::stax::mincut;
using tp::isBackward;

namespace {
/// The ops that compute `roots`, stopping at `stop` and at block arguments
/// (collected into `args`).
llvm::DenseSet<Operation *> slice(ArrayRef<Value> roots,
                                  const llvm::DenseSet<Value> &stop,
                                  llvm::DenseSet<Value> *args) {
  llvm::DenseSet<Operation *> needed;
  SmallVector<Value> work(roots.begin(), roots.end());
  while (!work.empty()) {
    Value v = work.pop_back_val();
    if (stop.contains(v))
      continue;
    Operation *def = v.getDefiningOp();
    if (!def) {
      if (args)
        args->insert(v);
      continue;
    }
    if (!needed.insert(def).second)
      continue;
    llvm::append_range(work, def->getOperands());
  }
  return needed;
}

/// Rewrites the operands of an op moved out of the joint function.
void remapOperands(Operation *op, const IRMapping &map) {
  for (OpOperand &operand : op->getOpOperands())
    if (Value v = map.lookupOrNull(operand.get()))
      operand.set(v);
}
} // namespace

FailureOr<SplitResult>
mincut::splitJointFunction(JointGraphModel &model, ArrayRef<unsigned> saved) {
  func::FuncOp joint = model.fn;
  Block &body = joint.getBody().front();
  Operation *ret = body.getTerminator();
  MLIRContext *ctx = joint.getContext();
  std::string name = joint.getSymName().str();

  SmallVector<unsigned> primals, tangents;
  for (unsigned i = 0; i < joint.getNumArguments(); ++i)
    (tp::isTangent(joint, i) ? tangents : primals).push_back(i);
  SmallVector<Value> outputs(ret->getOperands().take_front(model.numOutputs));
  SmallVector<Value> grads(ret->getOperands().drop_front(model.numOutputs));
  SmallVector<Value> savedValues;
  for (unsigned v : saved)
    savedValues.push_back(model.values[v].value);

  // What each function computes. The backward stops at the saved values;
  // the primal arguments it reaches are its saved inputs.
  SmallVector<Value> fwdRoots(outputs);
  fwdRoots.append(savedValues);
  llvm::DenseSet<Operation *> inForward = slice(fwdRoots, {}, nullptr);
  llvm::DenseSet<Value> savedSet(savedValues.begin(), savedValues.end());
  llvm::DenseSet<Value> argsRead;
  llvm::DenseSet<Operation *> inBackward = slice(grads, savedSet, &argsRead);

  SplitResult result;
  for (unsigned i : primals)
    if (argsRead.contains(joint.getArgument(i)))
      result.savedInputs.push_back(i);
  OpBuilder b(joint);

  // Forward: primals -> outputs, saved activations.
  SmallVector<Type> fwdIns, fwdOuts;
  for (unsigned i : primals)
    fwdIns.push_back(joint.getArgument(i).getType());
  for (Value v : fwdRoots)
    fwdOuts.push_back(v.getType());
  auto fwd = func::FuncOp::create(b, joint.getLoc(), name + "_forward",
                                  FunctionType::get(ctx, fwdIns, fwdOuts));
  Block *fwdEntry = fwd.addEntryBlock();
  IRMapping fwdMap;
  // All argument attributes at once: setArgAttrs per argument rebuilds the
  // whole arg_attrs array each time (quadratic in the primal count).
  SmallVector<DictionaryAttr> argAttrs;
  for (auto [k, i] : llvm::enumerate(primals)) {
    fwdMap.map(joint.getArgument(i), fwdEntry->getArgument(k));
    argAttrs.push_back(joint.getArgAttrDict(i));
  }
  fwd.setAllArgAttrs(ArrayRef<DictionaryAttr>(argAttrs));

  // Backward: saved inputs, saved activations, tangents -> gradients.
  SmallVector<Type> bwdIns, bwdOuts;
  for (unsigned i : result.savedInputs)
    bwdIns.push_back(joint.getArgument(i).getType());
  for (Value v : savedValues)
    bwdIns.push_back(v.getType());
  for (unsigned i : tangents)
    bwdIns.push_back(joint.getArgument(i).getType());
  for (Value v : grads)
    bwdOuts.push_back(v.getType());
  auto bwd = func::FuncOp::create(b, joint.getLoc(), name + "_backward",
                                  FunctionType::get(ctx, bwdIns, bwdOuts));
  Block *bwdEntry = bwd.addEntryBlock();
  IRMapping bwdMap;
  unsigned k = 0;
  for (unsigned i : result.savedInputs)
    bwdMap.map(joint.getArgument(i), bwdEntry->getArgument(k++));
  for (Value v : savedValues)
    bwdMap.map(v, bwdEntry->getArgument(k++));
  SmallVector<DictionaryAttr> bwdArgAttrs(k, DictionaryAttr::get(ctx));
  auto tangentAttrs = DictionaryAttr::get(ctx, tp::getTangentArgAttr(ctx));
  for (unsigned i : tangents) {
    bwdMap.map(joint.getArgument(i), bwdEntry->getArgument(k++));
    bwdArgAttrs.push_back(tangentAttrs);
  }
  bwd.setAllArgAttrs(ArrayRef<DictionaryAttr>(bwdArgAttrs));

  // The joint function is erased afterwards, so its ops are moved rather
  // than cloned (cloning allocated every op anew and dominated the pass);
  // only forward ops both functions need are cloned into the backward.
  // Program order is kept in both.
  OpBuilder bb = OpBuilder::atBlockEnd(bwdEntry);
  for (Operation &op : llvm::make_early_inc_range(body.without_terminator())) {
    bool f = inForward.contains(&op), bw = inBackward.contains(&op);
    if (f && bw)
      result.recomputed.push_back(bb.clone(op, bwdMap));
    if (f) {
      op.moveBefore(fwdEntry, fwdEntry->end());
      remapOperands(&op, fwdMap);
    } else if (bw) {
      op.moveBefore(bwdEntry, bwdEntry->end());
      remapOperands(&op, bwdMap);
      if (!isBackward(&op))
        result.recomputed.push_back(&op);
    }
  }
  SmallVector<Value> fwdResults, bwdResults;
  for (Value v : fwdRoots)
    fwdResults.push_back(fwdMap.lookupOrDefault(v));
  OpBuilder fb = OpBuilder::atBlockEnd(fwdEntry);
  func::ReturnOp::create(fb, ret->getLoc(), fwdResults);
  for (Value v : grads)
    bwdResults.push_back(bwdMap.lookupOrDefault(v));
  func::ReturnOp::create(bb, ret->getLoc(), bwdResults);
  result.forward = fwd;
  result.backward = bwd;

  joint.erase();
  return result;
}
