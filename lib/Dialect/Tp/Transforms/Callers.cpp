//===- Callers.cpp - functions whose signature a pass may change ----------===//
#include "Callers.h"
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
