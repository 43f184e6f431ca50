//===- Split.cpp - forward and backward functions from a joint graph ------===//

#include "Split.h"
#include "Stax/Transforms/Passes.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"

using namespace mlir;
using namespace stax;
using namespace stax::mincut;

namespace {
bool isBackward(Operation *op) {
  auto p = op->getAttrOfType<StringAttr>(kPhaseAttr);
  return p && p.getValue() == "bw";
}

/// Clones the ops producing `roots` (and everything they need that `map`
/// does not already provide) at the builder's insertion point, in the
/// joint function's program order.
void cloneSlice(OpBuilder &b, Block &joint, ArrayRef<Value> roots,
                IRMapping &map, SmallVectorImpl<Operation *> *cloned) {
  llvm::DenseSet<Operation *> needed;
  SmallVector<Value> work(roots.begin(), roots.end());
  while (!work.empty()) {
    Value v = work.pop_back_val();
    if (map.contains(v))
      continue;
    Operation *def = v.getDefiningOp();
    if (!def || !needed.insert(def).second)
      continue;
    for (Value operand : def->getOperands())
      work.push_back(operand);
  }
  for (Operation &op : joint.without_terminator()) {
    if (!needed.contains(&op))
      continue;
    Operation *copy = b.clone(op, map);
    if (cloned)
      cloned->push_back(copy);
  }
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
    (joint.getArgAttr(i, kTangentAttr) ? tangents : primals).push_back(i);
  SmallVector<Value> outputs(ret->getOperands().take_front(model.numOutputs));
  SmallVector<Value> grads(ret->getOperands().drop_front(model.numOutputs));
  SmallVector<Value> savedValues;
  for (unsigned v : saved)
    savedValues.push_back(model.values[v].value);

  SplitResult result;
  OpBuilder b(joint);

  // Forward: primals -> outputs, saved activations.
  {
    SmallVector<Type> ins, outs;
    for (unsigned i : primals)
      ins.push_back(joint.getArgument(i).getType());
    for (Value v : outputs)
      outs.push_back(v.getType());
    for (Value v : savedValues)
      outs.push_back(v.getType());
    auto fwd = func::FuncOp::create(b, joint.getLoc(), name + "_forward",
                                    FunctionType::get(ctx, ins, outs));
    Block *entry = fwd.addEntryBlock();
    IRMapping map;
    // All argument attributes at once: setArgAttrs per argument rebuilds the
    // whole arg_attrs array each time (quadratic in the primal count).
    SmallVector<DictionaryAttr> argAttrs;
    for (auto [k, i] : llvm::enumerate(primals)) {
      map.map(joint.getArgument(i), entry->getArgument(k));
      argAttrs.push_back(joint.getArgAttrDict(i));
    }
    fwd.setAllArgAttrs(ArrayRef<DictionaryAttr>(argAttrs));
    OpBuilder fb = OpBuilder::atBlockEnd(entry);
    SmallVector<Value> roots(outputs);
    roots.append(savedValues);
    cloneSlice(fb, body, roots, map, nullptr);
    SmallVector<Value> results;
    for (Value v : roots)
      results.push_back(map.lookup(v));
    func::ReturnOp::create(fb, ret->getLoc(), results);
    result.forward = fwd;
  }

  // Backward: saved inputs, saved activations, tangents -> gradients. The
  // primal arguments it reads are found by cloning: first map everything
  // that is an argument of the backward, then clone the gradients' slice.
  {
    // Which primals does the backward slice read? Walk it without building.
    llvm::DenseSet<Value> savedSet(savedValues.begin(), savedValues.end());
    llvm::DenseSet<Value> primalsRead;
    {
      llvm::DenseSet<Operation *> seen;
      SmallVector<Value> work(grads);
      while (!work.empty()) {
        Value v = work.pop_back_val();
        if (savedSet.contains(v))
          continue;
        if (auto arg = dyn_cast<BlockArgument>(v)) {
          if (!joint.getArgAttr(arg.getArgNumber(), kTangentAttr))
            primalsRead.insert(v);
          continue;
        }
        Operation *def = v.getDefiningOp();
        if (!seen.insert(def).second)
          continue;
        for (Value operand : def->getOperands())
          work.push_back(operand);
      }
    }
    for (unsigned i : primals)
      if (primalsRead.contains(joint.getArgument(i)))
        result.savedInputs.push_back(i);

    SmallVector<Type> ins, outs;
    for (unsigned i : result.savedInputs)
      ins.push_back(joint.getArgument(i).getType());
    for (Value v : savedValues)
      ins.push_back(v.getType());
    for (unsigned i : tangents)
      ins.push_back(joint.getArgument(i).getType());
    for (Value v : grads)
      outs.push_back(v.getType());
    auto bwd = func::FuncOp::create(b, joint.getLoc(), name + "_backward",
                                    FunctionType::get(ctx, ins, outs));
    Block *entry = bwd.addEntryBlock();
    IRMapping map;
    unsigned k = 0;
    for (unsigned i : result.savedInputs)
      map.map(joint.getArgument(i), entry->getArgument(k++));
    for (Value v : savedValues)
      map.map(v, entry->getArgument(k++));
    for (unsigned i : tangents) {
      map.map(joint.getArgument(i), entry->getArgument(k));
      bwd.setArgAttr(k++, kTangentAttr, UnitAttr::get(ctx));
    }
    OpBuilder bb = OpBuilder::atBlockEnd(entry);
    SmallVector<Operation *> cloned;
    cloneSlice(bb, body, grads, map, &cloned);
    for (Operation *op : cloned)
      if (!isBackward(op))
        result.recomputed.push_back(op);
    SmallVector<Value> results;
    for (Value v : grads)
      results.push_back(map.lookup(v));
    func::ReturnOp::create(bb, ret->getLoc(), results);
    result.backward = bwd;
  }

  joint.erase();
  return result;
}
