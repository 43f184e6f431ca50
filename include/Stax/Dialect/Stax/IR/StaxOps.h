//===- StaxOps.h - stax dialect attributes and operations -------*- C++ -*-===//
#ifndef STAX_DIALECT_STAX_IR_STAXOPS_H
#define STAX_DIALECT_STAX_IR_STAXOPS_H

#include "Stax/Dialect/Stax/IR/StaxDialect.h"
#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/InferIntRangeInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "Stax/Dialect/Stax/IR/StaxEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "Stax/Dialect/Stax/IR/StaxAttrs.h.inc"

#define GET_OP_CLASSES
#include "Stax/Dialect/Stax/IR/StaxOps.h.inc"

#endif // STAX_DIALECT_STAX_IR_STAXOPS_H
