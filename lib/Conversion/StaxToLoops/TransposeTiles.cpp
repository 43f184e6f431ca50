//===- TransposeTiles.cpp - tiles for pointwise nodes reading transposed --===//
#include "TransposeTiles.h"
#include "LinearIndex.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::stax;
using namespace mlir::stax::codegen;

/// The address coefficients of `load` along its body's arguments when it
/// reads transposed for tiles of `rows` rows: contiguous along the
/// second-to-last argument, a line or more apart along the last.
static FailureOr<SmallVector<int64_t>> transposedCoefficients(LoadOp load,
                                                              int64_t rows) {
  if (load.getMask())
    return failure();
  Block &body = *load->getBlock();
  FailureOr<SmallVector<int64_t>> coeffs =
      argumentCoefficients(load.getAddress(), body);
  unsigned last = body.getNumArguments() - 1;
  if (failed(coeffs) || (*coeffs)[last - 1] != 1 ||
      std::abs((*coeffs)[last]) < rows)
    return failure();
  return coeffs;
}

std::optional<codegen::TransposeTiles>
codegen::transposeTiles(PointwiseOp op, ArrayRef<int64_t> ranges,
                        ArrayRef<int64_t> outputStrides) {
  constexpr int64_t kLineBytes = 64;
  constexpr int64_t kCols = 16;
  constexpr int64_t kBlockTiles = 8;
  if (ranges.size() < 2 || outputStrides.empty() || outputStrides.back() != 1)
    return std::nullopt;
  for (Operation &inner : op.getBody().front().without_terminator()) {
    auto load = dyn_cast<LoadOp>(inner);
    if (!load)
      continue;
    int64_t bytes = std::max<int64_t>(
        load.getType().getIntOrFloatBitWidth() / 8, 1);
    int64_t rows = kLineBytes / bytes;
    if (failed(transposedCoefficients(load, rows)))
      continue;
    if (ranges[ranges.size() - 2] < rows || ranges.back() < kCols)
      return std::nullopt;
    // Blocks of up to 8 x 8 tiles, with at least 16 row blocks (the
    // parallel loop) where the rows allow.
    int64_t rowTiles = llvm::divideCeil(ranges[ranges.size() - 2], rows);
    int64_t blockRows = std::clamp<int64_t>(rowTiles / 16, 1, kBlockTiles);
    return TransposeTiles{rows, kCols, blockRows, kBlockTiles};
  }
  return std::nullopt;
}

SmallVector<LoadOp> codegen::stagedTransposeLoads(PointwiseOp op,
                                                  TransposeTiles tiles,
                                                  int64_t width) {
  constexpr int64_t kSide = 16;
  SmallVector<LoadOp> loads;
  if (width <= 1 || tiles.rows % kSide != 0 || tiles.cols != kSide ||
      !isVectorizablePointwise(op, width))
    return loads;
  for (Operation &inner : op.getBody().front().without_terminator()) {
    auto load = dyn_cast<LoadOp>(inner);
    if (load && load.getType().getIntOrFloatBitWidth() == 32 &&
        succeeded(transposedCoefficients(load, kSide)))
      loads.push_back(load);
  }
  return loads;
}

/// Moves `b` before the outermost of the scf.for/scf.if ops around its
/// insertion point, stopping at a parallel loop or function body: an
/// allocation there runs once per thread. MLIR 22 makes scf.for an automatic
/// allocation scope, so the canonicalizer moves allocas out of a
/// memref.alloca_scope into the loop body, but scf-to-cf does not free
/// them per iteration: an alloca in a loop body grows the stack on every
/// iteration (a 288 x 8192 transpose overflowed it).
static void setOutsideSerialLoops(OpBuilder &b) {
  Operation *outermost = nullptr;
  for (Operation *parent = b.getInsertionBlock()->getParentOp();
       parent && isa<scf::ForOp, scf::IfOp>(parent);
       parent = parent->getParentOp())
    outermost = parent;
  if (outermost)
    b.setInsertionPoint(outermost);
}

StagedLoad codegen::stageTransposedTile(OpBuilder &b, LoadOp load,
                                        ValueRange fixed, Value rowLb,
                                        Value colLb, TransposeTiles tiles,
                                        BufferMap &buffers) {
  Location loc = load.getLoc();
  Block &body = *load->getBlock();
  int64_t colStride = (*transposedCoefficients(load, tiles.rows)).back();
  // The address of the tile's first element: the load's own index
  // computation at (fixed..., rowLb, colLb).
  IRMapping map;
  SmallVector<Value> origin(fixed);
  origin.append({rowLb, colLb});
  map.map(body.getArguments(), origin);
  Value first = map.lookupOrDefault(load.getAddress());
  if (Operation *def = load.getAddress().getDefiningOp())
    first = b.clone(*def, map)->getResult(0);
  Value mem = buffers.storageOf(load.getBuffer());
  Type elt = load.getType();
  // The tile is transposed in blocks of 16 x 16: block q holds rows
  // [16q, 16q + 16) of the tile, column c of it a vector along the
  // operand's rows.
  constexpr int64_t kSide = 16;
  auto columnType = VectorType::get({kSide}, elt);
  auto blockType = VectorType::get({kSide, kSide}, elt);
  auto tileMem = MemRefType::get({tiles.rows * tiles.cols}, elt);
  Value tile;
  {
    OpBuilder::InsertionGuard g(b);
    setOutsideSerialLoops(b);
    tile = memref::AllocaOp::create(b, loc, tileMem, ValueRange{},
                                    b.getI64IntegerAttr(64));
  }
  MLIRContext *ctx = b.getContext();
  for (int64_t q = 0; q < tiles.rows / kSide; ++q) {
    Value columns = arith::ConstantOp::create(
        b, loc, DenseElementsAttr::get(blockType, b.getZeroAttr(elt)));
    for (int64_t c = 0; c < kSide; ++c) {
      auto at = AffineMap::get(1, 0,
                               getAffineDimExpr(0, ctx) +
                                   getAffineConstantExpr(c * colStride + q * kSide, ctx));
      Value addr = affine::AffineApplyOp::create(b, loc, at, ValueRange{first});
      Value column =
          vector::LoadOp::create(b, loc, columnType, mem, ValueRange{addr});
      columns = vector::InsertOp::create(b, loc, column, columns, c);
    }
    Value rows = vector::TransposeOp::create(b, loc, columns, {1, 0});
    for (int64_t r = 0; r < kSide; ++r) {
      Value row = vector::ExtractOp::create(b, loc, rows, r);
      Value addr =
          arith::ConstantIndexOp::create(b, loc, (q * kSide + r) * tiles.cols);
      vector::StoreOp::create(b, loc, row, tile, ValueRange{addr});
    }
  }
  return StagedLoad{load, tile, rowLb, colLb, tiles.cols};
}
