//===- TransposeTiles.cpp - tiles for pointwise nodes reading transposed --===//
#include "TransposeTiles.h"
#include "LinearIndex.h"

using namespace mlir;
using namespace mlir::stax;

std::optional<codegen::TransposeTiles>
codegen::transposeTiles(PointwiseOp op, ArrayRef<int64_t> ranges,
                        ArrayRef<int64_t> outputStrides) {
  constexpr int64_t kLineBytes = 64;
  constexpr int64_t kCols = 16;
  if (ranges.size() < 2 || outputStrides.empty() || outputStrides.back() != 1)
    return std::nullopt;
  Block &body = op.getBody().front();
  unsigned last = body.getNumArguments() - 1;
  for (Operation &inner : body.without_terminator()) {
    auto load = dyn_cast<LoadOp>(inner);
    if (!load || load.getMask())
      continue;
    FailureOr<SmallVector<int64_t>> coeffs =
        argumentCoefficients(load.getAddress(), body);
    if (failed(coeffs))
      continue;
    int64_t bytes = std::max<int64_t>(
        load.getType().getIntOrFloatBitWidth() / 8, 1);
    int64_t rows = kLineBytes / bytes;
    if ((*coeffs)[last - 1] != 1 ||
        std::abs((*coeffs)[last]) < rows)
      continue;
    if (ranges[ranges.size() - 2] < rows || ranges.back() < kCols)
      return std::nullopt;
    return TransposeTiles{rows, kCols};
  }
  return std::nullopt;
}
