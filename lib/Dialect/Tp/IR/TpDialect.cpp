//===- TpDialect.cpp - tp dialect registration ----------------------------===//
#include "Stax/Dialect/Tp/IR/TpDialect.h"
#include "Stax/Dialect/Tp/IR/TpOps.h"

using namespace mlir;
using namespace mlir::tp;

#include "Stax/Dialect/Tp/IR/TpOpsDialect.cpp.inc"
#include "Stax/Dialect/Tp/IR/TpInterfaces.cpp.inc"

void TpDialect::initialize() {
  registerAttributes();
  addOperations<
#define GET_OP_LIST
#include "Stax/Dialect/Tp/IR/TpOps.cpp.inc"
      >();
}
