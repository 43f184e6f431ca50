//===- Toy.h - the example's own dialect ------------------------*- C++ -*-===//
#ifndef EMBED_TOY_H
#define EMBED_TOY_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "ToyDialect.h.inc"

#define GET_OP_CLASSES
#include "ToyOps.h.inc"

#endif // EMBED_TOY_H
