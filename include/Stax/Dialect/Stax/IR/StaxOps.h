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

namespace mlir::stax {
/// The type of body values that read or write elements of type
/// `elementType`: the type itself, except for unsigned integers, which
/// arith cannot compute on: a `ui8` element (PyTorch's uint8) is an `i16`
/// holding its value (zero-extended on load, stored modulo 2^8), so that
/// signed comparisons, extensions and conversions on it are exact.
Type getScalarType(Type elementType);
/// The type of an element in memory once code is generated: the element
/// type, signless (`ui8` is stored as the `i8` of its bits).
Type getStorageType(Type elementType);
} // namespace mlir::stax

#define GET_ATTRDEF_CLASSES
#include "Stax/Dialect/Stax/IR/StaxAttrs.h.inc"

#define GET_OP_CLASSES
#include "Stax/Dialect/Stax/IR/StaxOps.h.inc"

namespace mlir::stax {
/// The output loops of a node (pointwise, reduction, scatter), outermost
/// first; empty for any other op.
ArrayRef<int64_t> getNodeLoops(Operation *op);
/// The node that computes `v`: its defining node, or for a `stax.kernel`
/// result the node the kernel yields; null otherwise.
Operation *getComputingNode(Value v);
} // namespace mlir::stax

#endif // STAX_DIALECT_STAX_IR_STAXOPS_H
