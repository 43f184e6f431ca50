//===- Split.h - split a joint function at a save set -----------*- C++ -*-===//
#ifndef STAX_DIALECT_TP_TRANSFORMS_SPLITJOINTFUNCTION_H
#define STAX_DIALECT_TP_TRANSFORMS_SPLITJOINTFUNCTION_H

#include "Stax/Analysis/JointGraphModel.h"

namespace mlir::stax::mincut {

struct SplitResult {
  mlir::func::FuncOp forward, backward;
  /// Primal arguments the backward reads (saved inputs), in argument order.
  llvm::SmallVector<unsigned> savedInputs;
  /// Forward ops cloned into the backward to recompute values.
  llvm::SmallVector<mlir::Operation *> recomputed;
};

/// Builds `<name>_forward` and `<name>_backward` next to the joint function
/// from the save set `saved` (indices into model.values, ascending), and
/// erases the joint function. Recomputed forward ops are cloned into the
/// backward before the first op that needs them.
mlir::FailureOr<SplitResult> splitJointFunction(JointGraphModel &model,
                                               llvm::ArrayRef<unsigned> saved);

} // namespace mlir::stax::mincut

#endif // STAX_DIALECT_TP_TRANSFORMS_SPLITJOINTFUNCTION_H
