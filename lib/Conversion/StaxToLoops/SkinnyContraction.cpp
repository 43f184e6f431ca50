//===- SkinnyContraction.cpp - vector code for products of few rows ------===//
#include "SkinnyContraction.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::stax;
using namespace mlir::stax::codegen;

bool codegen::isSkinnyContraction(Type elementType,
                                  const ContractionShape &shape,
                                  const LoopOptions &options) {
  bool nearRows = shape.k <= kMaxSkinnyDepth || shape.n <= kMaxSkinnyDepth;
  return !options.gpu && options.vectorWidth > 1 && elementType.isF32() &&
         shape.m >= 1 && shape.m <= kMaxSkinnyRows && shape.k >= 1 &&
         nearRows && shape.n >= 4 * options.vectorWidth;
}

namespace {
/// One block of `vectors` x `width` columns from `col` of batch `bi`: the
/// masked vectors of C's rows (the last block of a row may be partial).
class SkinnyBlock {
public:
  SkinnyBlock(OpBuilder &b, Location loc, Value a, Value bm, Value c,
              const ContractionShape &shape, int64_t width, int64_t vectors)
      : b(b), loc(loc), a(a), bm(bm), c(c), shape(shape), width(width),
        vectors(vectors) {}

  void emit(Value bi, Value col) {
    auto vecType = VectorType::get({width}, b.getF32Type());
    SmallVector<Value> cols, masks;
    for (int64_t v = 0; v < vectors; ++v) {
      Value at =
          v == 0 ? col : arith::AddIOp::create(b, loc, col, cst(v * width));
      Value left = arith::SubIOp::create(b, loc, cst(shape.n), at);
      Value lanes = arith::MinSIOp::create(b, loc, left, cst(width));
      cols.push_back(at);
      masks.push_back(vector::CreateMaskOp::create(
          b, loc, VectorType::get({width}, b.getI1Type()), ValueRange{lanes}));
    }
    Value zero =
        arith::ConstantOp::create(b, loc, vecType, b.getZeroAttr(vecType));
    emitRows(bi, cols, masks, zero);
  }

private:
  /// The block's rows: one accumulator per row and vector while k is
  /// walked, then stored.
  void emitRows(Value bi, ArrayRef<Value> cols, ArrayRef<Value> masks,
                Value zero) {
    SmallVector<Value> init(shape.m * vectors, zero);
    Value lb = cst(0), ub = cst(shape.k), one = cst(1); // in order
    auto loop = scf::ForOp::create(
        b, loc, lb, ub, one, init,
        [&](OpBuilder &nb, Location, Value r, ValueRange acc) {
          OpBuilder::InsertionGuard g(b);
          b.setInsertionPoint(nb.getInsertionBlock(), nb.getInsertionPoint());
          scf::YieldOp::create(b, loc, step(bi, cols, r, masks, zero, acc));
        });
    for (int64_t i = 0; i < shape.m; ++i)
      for (int64_t v = 0; v < vectors; ++v) {
        Value at = address(bi, cst(i), cols[v], shape.m, shape.n);
        vector::MaskedStoreOp::create(b, loc, c, ValueRange{at}, masks[v],
                                      loop.getResult(i * vectors + v));
      }
  }

  /// acc[i, v] + A[i, r] * B[r, cols[v] : cols[v] + width] for every row i
  /// and vector v (accumulators row-major).
  SmallVector<Value> step(Value bi, ArrayRef<Value> cols, Value r,
                          ArrayRef<Value> masks, Value zero, ValueRange acc) {
    SmallVector<Value> bRows;
    for (int64_t v = 0; v < vectors; ++v) {
      Value bAt = address(bi, r, cols[v], shape.k, shape.n);
      bRows.push_back(vector::MaskedLoadOp::create(
          b, loc, zero.getType(), bm, ValueRange{bAt}, masks[v], zero));
    }
    SmallVector<Value> next;
    for (int64_t i = 0; i < shape.m; ++i) {
      Value row = cst(i);
      Value aAt = shape.transA ? address(bi, r, row, shape.k, shape.m)
                               : address(bi, row, r, shape.m, shape.k);
      Value x = memref::LoadOp::create(b, loc, a, ValueRange{aAt});
      Value xs = vector::BroadcastOp::create(b, loc, zero.getType(), x);
      for (int64_t v = 0; v < vectors; ++v)
        next.push_back(
            math::FmaOp::create(b, loc, xs, bRows[v], acc[i * vectors + v]));
    }
    return next;
  }

  /// Element (row, col) of batch `bi` of a row-major [rows, cols] matrix.
  Value address(Value bi, Value row, Value col, int64_t rows, int64_t cols) {
    MLIRContext *ctx = b.getContext();
    AffineExpr e =
        (getAffineDimExpr(0, ctx) * rows + getAffineDimExpr(1, ctx)) * cols +
        getAffineDimExpr(2, ctx);
    return affine::AffineApplyOp::create(b, loc, AffineMap::get(3, 0, e),
                                         ValueRange{bi, row, col});
  }

  Value cst(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }

  OpBuilder &b;
  Location loc;
  Value a, bm, c;
  const ContractionShape &shape;
  int64_t width, vectors;
};
} // namespace

void codegen::emitSkinnyContraction(OpBuilder &b, Location loc, Value a,
                                    Value bm, Value c,
                                    const ContractionShape &shape,
                                    const LoopOptions &options) {
  int64_t width = options.vectorWidth;
  int64_t vectors =
      std::clamp<int64_t>(kMaxSkinnyRows / shape.m, 1, kMaxSkinnyVectors);
  int64_t blockCols = width * vectors;
  int64_t blocks = llvm::divideCeil(shape.n, blockCols);
  SkinnyBlock block(b, loc, a, bm, c, shape, width, vectors);
  auto cst = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  Value zero = cst(0), one = cst(1);
  Value batches = cst(shape.batch), columnBlocks = cst(blocks);
  Value w = cst(blockCols);
  int64_t work =
      saturatingProduct({shape.batch, shape.m, shape.n, shape.k});
  auto body = [&](Value bi, Value blk) {
    block.emit(bi, arith::MulIOp::create(b, loc, blk, w));
  };
  if (options.parallel && work >= options.grain) {
    auto par = scf::ParallelOp::create(b, loc, ValueRange{zero, zero},
                                       ValueRange{batches, columnBlocks},
                                       ValueRange{one, one});
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(par.getBody());
    body(par.getInductionVars()[0], par.getInductionVars()[1]);
    return;
  }
  scf::buildLoopNest(
      b, loc, ValueRange{zero, zero}, ValueRange{batches, columnBlocks},
      ValueRange{one, one}, [&](OpBuilder &nb, Location, ValueRange ivs) {
        OpBuilder::InsertionGuard g(b);
        b.setInsertionPoint(nb.getInsertionBlock(), nb.getInsertionPoint());
        body(ivs[0], ivs[1]);
      });
}
