//===- Toy.cpp - the example's own dialect --------------------------------===//
#include "Toy.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"

#include "ToyDialect.cpp.inc"

void toy::ToyDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "ToyOps.cpp.inc"
      >();
}

#define GET_OP_CLASSES
#include "ToyOps.cpp.inc"
