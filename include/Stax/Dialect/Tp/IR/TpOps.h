//===- TpOps.h - tp dialect operations --------------------------*- C++ -*-===//
#ifndef STAX_DIALECT_TP_IR_TPOPS_H
#define STAX_DIALECT_TP_IR_TPOPS_H

#include "Stax/Dialect/Tp/IR/TpDialect.h"
#include "Stax/Dialect/Tp/IR/TpInterfaces.h"
#include "Stax/Dialect/Tp/IR/TpTraits.h"
#include "Stax/Dialect/Tp/IR/TypeInference.h"
#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#define GET_OP_CLASSES
#include "Stax/Dialect/Tp/IR/TpOps.h.inc"

#endif // STAX_DIALECT_TP_IR_TPOPS_H
