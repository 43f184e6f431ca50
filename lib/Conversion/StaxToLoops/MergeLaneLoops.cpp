//===- MergeLaneLoops.cpp - short innermost loops merged for vectors ------===//
#include "MergeLaneLoops.h"
#include "Stax/Dialect/Stax/IR/StaxOps.h"
#include "Vectorize.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::stax;
using namespace mlir::stax::codegen;

/// The node `op` with its last two loops as one, or null where they are not
/// a power-of-two innermost loop shorter than `width` stored contiguously
/// after the loop outside it.
static PointwiseOp mergedNode(PointwiseOp op, int64_t width) {
  ArrayRef<int64_t> ranges = op.getIterationRanges();
  size_t n = ranges.size();
  if (n < 2)
    return {};
  int64_t inner = ranges[n - 1], outer = ranges[n - 2];
  SmallVector<int64_t> strides = op.getLayout().getEffectiveStrides(ranges);
  if (inner < 2 || inner >= width || !llvm::isPowerOf2_64(inner) ||
      width % inner != 0 || outer * inner < width || strides[n - 1] != 1 ||
      strides[n - 2] != inner)
    return {};
  MLIRContext *ctx = op.getContext();
  OpBuilder b(op);
  Location loc = op.getLoc();
  SmallVector<int64_t> newRanges(ranges.drop_back(2));
  newRanges.push_back(outer * inner);
  SmallVector<int64_t> newStrides(ArrayRef<int64_t>(strides).drop_back(2));
  newStrides.push_back(1);
  auto merged = cast<PointwiseOp>(b.clone(*op));
  merged.setRangesAttr(DenseI64ArrayAttr::get(ctx, newRanges));
  merged.setLayoutAttr(
      LayoutAttr::get(ctx, newStrides, op.getLayout().getOffset(), false));
  // The body at (..., j): the old last indices are j floordiv inner and
  // j mod inner, composed into every affine.apply that reads them.
  Block &old = merged.getBody().front();
  Block *body = new Block();
  merged.getBody().push_front(body);
  for (size_t k = 0; k + 1 < n; ++k)
    body->addArgument(b.getIndexType(), loc);
  b.setInsertionPointToStart(body);
  AffineExpr j = getAffineDimExpr(0, ctx);
  Value lane = body->getArgument(n - 2);
  Value quotient = affine::AffineApplyOp::create(
      b, loc, AffineMap::get(1, 0, j.floorDiv(inner)), ValueRange{lane});
  Value remainder = affine::AffineApplyOp::create(
      b, loc, AffineMap::get(1, 0, j % inner), ValueRange{lane});
  for (size_t k = 0; k + 2 < n; ++k)
    old.getArgument(k).replaceAllUsesWith(body->getArgument(k));
  old.getArgument(n - 2).replaceAllUsesWith(quotient);
  old.getArgument(n - 1).replaceAllUsesWith(remainder);
  body->getOperations().splice(body->end(), old.getOperations());
  old.erase();
  SmallVector<affine::AffineApplyOp> applies;
  for (auto apply : body->getOps<affine::AffineApplyOp>())
    if (apply != quotient.getDefiningOp() && apply != remainder.getDefiningOp())
      applies.push_back(apply);
  for (affine::AffineApplyOp apply : applies) {
    b.setInsertionPoint(apply);
    SmallVector<OpFoldResult> operands(apply.getOperands().begin(),
                                       apply.getOperands().end());
    affine::AffineApplyOp composed =
        affine::makeComposedAffineApply(b, loc, apply.getAffineMap(), operands);
    apply.getResult().replaceAllUsesWith(composed.getResult());
    apply.erase();
  }
  return merged;
}

void codegen::mergeShortLaneLoops(func::FuncOp fn, int64_t width) {
  SmallVector<PointwiseOp> nodes(fn.getBody().getOps<PointwiseOp>());
  for (PointwiseOp op : nodes) {
    PointwiseOp merged = mergedNode(op, width);
    if (!merged)
      continue;
    if (!isVectorizablePointwise(merged, width, /*periodic=*/true)) {
      merged.erase();
      continue;
    }
    op.getResult().replaceAllUsesWith(merged.getResult());
    op.erase();
  }
}
