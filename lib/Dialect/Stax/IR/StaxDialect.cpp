//===- StaxDialect.cpp - stax dialect registration ------------------------===//
#include "Stax/Dialect/Stax/IR/StaxDialect.h"
#include "Stax/Dialect/Stax/IR/StaxOps.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::stax;

#include "Stax/Dialect/Stax/IR/StaxOpsDialect.cpp.inc"

void StaxDialect::initialize() {
  registerAttributes();
  addOperations<
#define GET_OP_LIST
#include "Stax/Dialect/Stax/IR/StaxOps.cpp.inc"
      >();
}
