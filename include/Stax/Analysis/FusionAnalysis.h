//===- FusionAnalysis.h - which stax nodes share a kernel -------*- C++ -*-===//
//
// The analysis of --stax-fuse (Section 6.7): groups the materialized nodes of
// a block into kernels over shared outer loops, merging best first by the
// bytes of memory traffic saved, and only where it is legal (see
// FusionAnalysis.cpp). The pass (lib/Dialect/Stax/Transforms/Fuse.cpp)
// rewrites the block from the plan.
//
//===----------------------------------------------------------------------===//
#ifndef STAX_ANALYSIS_FUSIONANALYSIS_H
#define STAX_ANALYSIS_FUSIONANALYSIS_H

#include "mlir/IR/Block.h"
#include "llvm/ADT/SmallVector.h"

namespace mlir::stax {

/// Nodes (and kept ops) that run as one kernel; a group of one is left as
/// it is.
struct FusionGroup {
  SmallVector<Operation *> members; ///< in block order
  SmallVector<int64_t> outerLoops;  ///< the kernel's shared outer loops
};

/// The groups of `block` in an order that respects their dependences (the
/// original order where it is free). With `remarks`, every fusion decision
/// and every producer/reader pair left apart is remarked on, with the
/// reason. Fails with an error if the groups depend on each other cyclically.
FailureOr<SmallVector<FusionGroup>> planFusion(Block &block, bool remarks);

} // namespace mlir::stax

#endif // STAX_ANALYSIS_FUSIONANALYSIS_H
