//===- TransposeTiles.h - tiles for pointwise nodes reading transposed -*- C++ -*-===//
//
// A pointwise node whose output is contiguous along its last loop but
// which reads a buffer contiguous along its second-to-last loop (a
// transpose, Section 6.4's Example 6.1) touches a new cache line (and
// often a new page) for every element when its loops run in order: 2 GB/s
// on a 4096 x 4096 transpose against 28 GB/s for a copy. Running the last
// two loops in tiles keeps the lines of both sides in L1 while they are
// used: each line of the transposed operand serves `kRows` consecutive
// outer iterations. Tiles go in blocks of up to 8 x 8, so that the pages
// of the transposed operand's rows that a block reads stay in the TLB for
// the block's 8 row tiles (4096 x 4096 f32, 2 threads: 7.7 -> 11.5 GB/s;
// page walks for every 64-byte line were the limit).
//
// Inside a tile the transposed operand would still be a gather (one line
// per lane). For 32-bit elements and 16 x 16 tiles, a full tile of such an
// operand is instead staged: 16 vector loads along its contiguous rows, one
// in-register transpose (vector.transpose, lowered to shuffles), 16 vector
// stores into a 1 KiB stack tile, which the row loops read with vector
// loads. Values are moved, not computed: the result is bitwise the same.
//
//===----------------------------------------------------------------------===//
#ifndef STAX_LIB_CONVERSION_STAXTOLOOPS_TRANSPOSETILES_H
#define STAX_LIB_CONVERSION_STAXTOLOOPS_TRANSPOSETILES_H

#include "Vectorize.h"
#include <optional>

namespace mlir::stax::codegen {

struct TransposeTiles {
  /// Iterations of the second-to-last loop per tile: a 64-byte line of an
  /// f32 operand read along it.
  int64_t rows;
  /// Iterations of the last loop per tile: whole vectors, a few lines of
  /// output per row.
  int64_t cols;
  /// Tiles per block along the second-to-last and the last loop: row
  /// blocks are the parallel loop, each walks its column blocks in order.
  int64_t blockRows = 1, blockCols = 1;
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

/// The loads of `op` that full tiles of `tiles` stage (see above): 32-bit,
/// contiguous along the second-to-last loop, moving by at least a tile's
/// rows along the last, with 16 x 16 tiles. Empty when vector code is off
/// (`width` 1) or `op` is not vectorizable.
SmallVector<LoadOp> stagedTransposeLoads(PointwiseOp op, TransposeTiles tiles,
                                         int64_t width);

/// Stages `load` (one of stagedTransposeLoads) for the full tile whose
/// first row and column are `rowLb` and `colLb`, the node's other loop
/// indices at `fixed`: fills a tile allocated once per thread, before the
/// serial loops around `b`'s insertion point (every full tile overwrites
/// all of it before reading it).
StagedLoad stageTransposedTile(OpBuilder &b, LoadOp load, ValueRange fixed,
                               Value rowLb, Value colLb, TransposeTiles tiles,
                               BufferMap &buffers);

} // namespace mlir::stax::codegen

#endif // STAX_LIB_CONVERSION_STAXTOLOOPS_TRANSPOSETILES_H
