//===- Callers.cpp - functions whose signature a pass may change ----------===//
#include "Callers.h"
#include "Stax/Dialect/Tp/IR/TypeInference.h"
#include "mlir/IR/SymbolTable.h"

using namespace mlir;

LogicalResult tp::verifyNotCalled(func::FuncOp fn, Operation *module,
                                  StringRef passArgument) {
  std::optional<SymbolTable::UseRange> uses =
      SymbolTable::getSymbolUses(fn, module);
  if (!uses || uses->empty())
    return success();
  Operation *user = uses->begin()->getUser();
  auto caller = user->getParentOfType<func::FuncOp>();
  InFlightDiagnostic diag = fn.emitError()
                            << "function @" << fn.getSymName()
                            << " is called by "
                            << (caller ? "@" + caller.getSymName().str()
                                       : std::string("another op"))
                            << "; --" << passArgument
                            << " changes its signature: inline the calls "
                               "first (--inline)";
  diag.attachNote(user->getLoc()) << "called here";
  return failure();
}

LogicalResult tp::verifySignatureTypes(func::FuncOp fn,
                                       StringRef passArgument) {
  auto check = [&](Type type, StringRef what, unsigned index) -> LogicalResult {
    auto t = dyn_cast<RankedTensorType>(type);
    if (!t || tp::getTypeCategory(t.getElementType()) !=
                  tp::TypeCategory::Unsupported)
      return success();
    return fn.emitError() << what << " #" << index << " of type " << t
                          << " has an element type no PyTorch dtype has; --"
                          << passArgument << " differentiates PyTorch types";
  };
  for (auto [i, type] : llvm::enumerate(fn.getArgumentTypes()))
    if (failed(check(type, "argument", i)))
      return failure();
  for (auto [i, type] : llvm::enumerate(fn.getResultTypes()))
    if (failed(check(type, "result", i)))
      return failure();
  return success();
}
