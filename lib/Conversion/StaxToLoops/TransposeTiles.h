//===- TransposeTiles.h - tiles for pointwise nodes reading transposed -*- C++ -*-===//
//
// A pointwise node whose output is contiguous along its last loop but
// which reads a buffer contiguous along its second-to-last loop (a
// transpose, Section 6.4's Example 6.1) touches a new cache line (and
// often a new page) for every element when its loops run in order: 2 GB/s
// on a 4096 x 4096 transpose against 28 GB/s for a copy. Running the last
// two loops in tiles keeps the lines of both sides in L1 while they are
// used: each line of the transposed operand serves `kRows` consecutive
// outer iterations.
//
//===----------------------------------------------------------------------===//
#ifndef STAX_LIB_CONVERSION_STAXTOLOOPS_TRANSPOSETILES_H
#define STAX_LIB_CONVERSION_STAXTOLOOPS_TRANSPOSETILES_H

#include "Stax/Dialect/Stax/IR/StaxOps.h"
#include <optional>

namespace mlir::stax::codegen {

struct TransposeTiles {
  /// Iterations of the second-to-last loop per tile: a 64-byte line of an
  /// f32 operand read along it.
  int64_t rows;
  /// Iterations of the last loop per tile: whole vectors, a few lines of
  /// output per row.
  int64_t cols;
};

/// The tiles for the last two of `ranges` (the node's loops that the
/// emitter runs, the last `ranges.size()` block arguments of `op`'s body)
/// when some load of `op` is contiguous along the second-to-last loop and
/// moves by at least a line along the last one while the output is
/// contiguous along the last; nullopt when tiling would not help (no such
/// load, or loops shorter than a tile).
std::optional<TransposeTiles>
transposeTiles(PointwiseOp op, ArrayRef<int64_t> ranges,
               ArrayRef<int64_t> outputStrides);

} // namespace mlir::stax::codegen

#endif // STAX_LIB_CONVERSION_STAXTOLOOPS_TRANSPOSETILES_H
