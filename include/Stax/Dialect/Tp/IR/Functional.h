//===- Functional.h - the functional-tp contract of the passes --*- C++ -*-===//
//
// In-place ops exist only between import and --stax-functionalize. Every
// other pass needs functional `tp` (value semantics): a read that looks pure
// cannot see a later mutation, so merging or moving it would be wrong. Passes
// call verifyFunctional first and stop with an error at the in-place op.
//
//===----------------------------------------------------------------------===//
#ifndef STAX_DIALECT_TP_IR_FUNCTIONAL_H
#define STAX_DIALECT_TP_IR_FUNCTIONAL_H

#include "mlir/IR/Operation.h"

namespace mlir::tp {

/// True when `op` is an in-place tp op (`tp.mul_`, `tp.copy_`, ...).
bool isInPlace(Operation *op);

/// Fails with an error at the first in-place op nested in `root`, naming the
/// pass (`passArgument`, e.g. "stax-lower") that needs functional tp.
LogicalResult verifyFunctional(Operation *root, StringRef passArgument);

} // namespace mlir::tp

#endif // STAX_DIALECT_TP_IR_FUNCTIONAL_H
