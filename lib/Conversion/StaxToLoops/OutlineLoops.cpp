//===- OutlineLoops.cpp - one function per top-level loop nest ------------===//
//
// LLVM's optimizer and code generator are superlinear in the size of a
// function; Stax's functions are long sequences of kernels. Each kernel's
// loop nest becomes a function of its own so that LLVM works on one kernel
// at a time.
//
//===----------------------------------------------------------------------===//
#include "Stax/Conversion/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::stax {
#define GEN_PASS_DEF_STAXOUTLINELOOPS
#include "Stax/Conversion/Passes.h.inc"
} // namespace mlir::stax

using namespace mlir;

namespace {
/// Whether `v` can be an argument of a function that FuncToLLVM's bare
/// pointer calling convention converts: memrefs need static shapes and the
/// identity layout.
bool passableAsBarePointer(Value v) {
  auto memref = dyn_cast<MemRefType>(v.getType());
  return !memref ||
         (memref.hasStaticShape() && memref.getLayout().isIdentity());
}

/// The values defined outside `op` that it uses (its operands and what its
/// regions use from above), constants aside: those go to `constants`.
void collectInputs(Operation *op, llvm::SetVector<Value> &inputs,
                   llvm::SetVector<Operation *> &constants) {
  llvm::SetVector<Value> used(op->operand_begin(), op->operand_end());
  getUsedValuesDefinedAbove(op->getRegions(), used);
  for (Value v : used) {
    Operation *def = v.getDefiningOp();
    if (def && matchPattern(def, m_Constant()))
      constants.insert(def);
    else
      inputs.insert(v);
  }
}

/// Moves `op` into a new private function, placed after `after` (which then
/// becomes it) and named by `symbols`, and calls that in its place; leaves
/// `op` where it is (returns false) when one of its inputs cannot be an
/// argument.
bool outline(Operation *op, StringRef name, Operation *&after,
             SymbolTable &symbols) {
  llvm::SetVector<Value> inputs;
  llvm::SetVector<Operation *> constants;
  collectInputs(op, inputs, constants);
  if (!llvm::all_of(inputs, passableAsBarePointer))
    return false;
  MLIRContext *ctx = op->getContext();
  Location loc = op->getLoc();
  auto type =
      FunctionType::get(ctx, ValueRange(inputs.getArrayRef()).getTypes(), {});
  OpBuilder b(ctx);
  b.setInsertionPointAfter(after);
  auto callee = func::FuncOp::create(b, loc, name, type);
  after = callee;
  callee.setPrivate();
  // Internal linkage (FuncToLLVM reads "llvm.linkage") lets LLVM drop or
  // specialize arguments; noinline keeps its only call from being inlined
  // back.
  callee->setAttr("llvm.linkage",
                  LLVM::LinkageAttr::get(ctx, LLVM::Linkage::Internal));
  callee->setAttr("passthrough",
                  b.getArrayAttr({b.getStringAttr("noinline")}));
  symbols.insert(callee);

  Block *body = callee.addEntryBlock();
  b.setInsertionPointToStart(body);
  IRMapping map;
  for (Operation *c : constants)
    map.map(c->getResults(), b.clone(*c)->getResults());
  map.map(inputs.getArrayRef(), body->getArguments());
  b.clone(*op, map);
  func::ReturnOp::create(b, loc);

  b.setInsertionPoint(op);
  func::CallOp::create(b, loc, callee, inputs.getArrayRef());
  op->erase();
  return true;
}

struct StaxOutlineLoopsPass
    : stax::impl::StaxOutlineLoopsBase<StaxOutlineLoopsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    SmallVector<func::FuncOp> functions;
    for (auto fn : module.getOps<func::FuncOp>())
      if (!fn.isExternal())
        functions.push_back(fn);
    for (func::FuncOp fn : functions) {
      unsigned count = 0;
      Operation *after = fn;
      for (Operation &op : llvm::make_early_inc_range(fn.getBody().front())) {
        if (op.getNumRegions() == 0 || op.getNumResults() != 0)
          continue;
        std::string name =
            (fn.getSymName() + "_loop" + Twine(count)).str();
        if (outline(&op, name, after, symbols))
          ++count;
      }
    }
  }
};
} // namespace
