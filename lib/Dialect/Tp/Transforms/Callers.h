//===- Callers.h - functions whose signature a pass may change --*- C++ -*-===//
//
// --stax-jvp and --stax-joint-graph add arguments and results to the
// functions they differentiate. A function another one calls would be left
// with calls of the old signature (invalid IR after the pass), so those
// passes refuse it first, naming a caller. They also build tangents and
// zeros of the types of its arguments and results, so each must have an
// element type some PyTorch dtype has.
//
//===----------------------------------------------------------------------===//
#ifndef STAX_DIALECT_TP_TRANSFORMS_CALLERS_H
#define STAX_DIALECT_TP_TRANSFORMS_CALLERS_H

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace mlir::tp {

/// Fails with an error at `fn` when a symbol use in `module` refers to it
/// (a func.call), naming the caller and the pass (`passArgument`).
LogicalResult verifyNotCalled(func::FuncOp fn, Operation *module,
                              StringRef passArgument);

/// Fails with an error at `fn` when an argument or result has an element
/// type no PyTorch dtype has (f8, f80, i2, si8...), naming it and the pass.
LogicalResult verifySignatureTypes(func::FuncOp fn, StringRef passArgument);

} // namespace mlir::tp

#endif // STAX_DIALECT_TP_TRANSFORMS_CALLERS_H
