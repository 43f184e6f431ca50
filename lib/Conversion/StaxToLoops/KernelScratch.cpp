//===- KernelScratch.cpp - per-iteration storage of kernel-local values ---===//
#include "KernelScratch.h"
#include "LinearIndex.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;
using namespace mlir::stax;
using namespace mlir::stax::codegen;

/// Scratch beyond this stays in the arena: the point is to stay in cache,
/// and the stacks of OpenMP's worker threads are a few MiB.
static constexpr int64_t kMaxScratchBytes = 256 * 1024;

/// The iteration ranges and layout of a pointwise or reduction node.
static std::optional<std::pair<ArrayRef<int64_t>, LayoutAttr>>
rangesAndLayout(Operation *node) {
  if (auto p = dyn_cast<PointwiseOp>(node))
    return std::make_pair(p.getIterationRanges(), p.getLayout());
  if (auto r = dyn_cast<ReductionOp>(node))
    return std::make_pair(r.getIterationRanges(), r.getLayout());
  return std::nullopt;
}

/// The plan for `value`, a result of `node`, or nullopt.
static std::optional<ScratchBuffer> planValue(KernelOp kernel, Operation *node,
                                              Value value, unsigned fixed) {
  auto rl = rangesAndLayout(node);
  if (!rl)
    return std::nullopt;
  auto [ranges, layout] = *rl;
  if (ranges.size() < fixed || llvm::is_contained(ranges, 0))
    return std::nullopt;
  SmallVector<int64_t> strides = layout.getEffectiveStrides(ranges);
  FailureOr<int64_t> full = storageElements(node);
  if (failed(full))
    return std::nullopt;
  ScratchBuffer buf{value, 1, *full, {}, layout.getOffset()};
  for (auto [k, r, s] : llvm::enumerate(ranges, strides)) {
    if (s < 0)
      return std::nullopt;
    if (k < fixed) {
      buf.outerStrides.push_back(s);
      continue;
    }
    int64_t term;
    if (llvm::MulOverflow(r - 1, s, term) ||
        llvm::AddOverflow(buf.elements, term, buf.elements))
      return std::nullopt;
  }
  Block &kernelBody = kernel.getBody().front();
  for (OpOperand &use : value.getUses()) {
    auto load = dyn_cast<LoadOp>(use.getOwner());
    if (!load || load.getBuffer() != value)
      return std::nullopt;
    Operation *reader = kernelBody.findAncestorOpInBlock(*load);
    if (!reader || reader == node || !node->isBeforeInBlock(reader) ||
        load->getBlock() != &reader->getRegion(0).front())
      return std::nullopt;
    FailureOr<SmallVector<int64_t>> coeffs =
        argumentCoefficients(load.getAddress(), *load->getBlock());
    if (failed(coeffs))
      return std::nullopt;
    for (unsigned k = 0; k < fixed; ++k)
      if ((*coeffs)[k] != buf.outerStrides[k])
        return std::nullopt;
  }
  return buf;
}

SmallVector<ScratchBuffer> codegen::planKernelScratch(KernelOp kernel,
                                                      unsigned fixed) {
  SmallVector<ScratchBuffer> plan;
  if (fixed == 0)
    return plan;
  Block &body = kernel.getBody().front();
  ValueRange yielded = body.getTerminator()->getOperands();
  int64_t bytes = 0;
  for (Operation &node : body.without_terminator())
    for (Value r : node.getResults()) {
      if (llvm::is_contained(yielded, r))
        continue;
      std::optional<ScratchBuffer> buf = planValue(kernel, &node, r, fixed);
      if (!buf)
        continue;
      Type elt =
          getStorageType(cast<RankedTensorType>(r.getType()).getElementType());
      int64_t eb = std::max<int64_t>(1, elt.getIntOrFloatBitWidth() / 8);
      int64_t need;
      if (llvm::MulOverflow(buf->elements, eb, need) ||
          bytes + need > kMaxScratchBytes)
        continue;
      bytes += need;
      plan.push_back(std::move(*buf));
    }
  return plan;
}

SmallVector<Value> ScratchBufferMap::allocate(OpBuilder &b, Location loc,
                                              ArrayRef<ScratchBuffer> plan) {
  SmallVector<Value> scratch;
  for (const ScratchBuffer &buf : plan) {
    Type elt = getStorageType(
        cast<RankedTensorType>(buf.value.getType()).getElementType());
    scratch.push_back(
        memref::AllocaOp::create(b, loc, MemRefType::get({buf.elements}, elt),
                                 ValueRange{}, b.getI64IntegerAttr(64)));
  }
  return scratch;
}

void ScratchBufferMap::bind(OpBuilder &b, Location loc,
                            ArrayRef<ScratchBuffer> plan,
                            ArrayRef<Value> scratch, ValueRange outerIvs) {
  MLIRContext *ctx = b.getContext();
  for (auto [buf, mem] : llvm::zip(plan, scratch)) {
    // Address a of the iteration at `outerIvs` is element a - base of the
    // scratch, base = offset + sum outerIvs[k] * outerStrides[k]: the view
    // (of the value's whole size, as its addresses go) starts base
    // elements before it, and every access of the iteration lands inside.
    AffineExpr e = getAffineConstantExpr(-buf.offset, ctx);
    for (auto [k, s] : llvm::enumerate(buf.outerStrides))
      e = e - getAffineDimExpr(k, ctx) * s;
    Value shift = affine::AffineApplyOp::create(
        b, loc, AffineMap::get(buf.outerStrides.size(), 0, e),
        outerIvs.take_front(buf.outerStrides.size()));
    auto memTy = cast<MemRefType>(mem.getType());
    auto viewTy =
        MemRefType::get({buf.fullElements}, memTy.getElementType(),
                        StridedLayoutAttr::get(ctx, ShapedType::kDynamic, {1}));
    local[buf.value] = memref::ReinterpretCastOp::create(
        b, loc, viewTy, mem, OpFoldResult(shift),
        {OpFoldResult(b.getIndexAttr(buf.fullElements))},
        {OpFoldResult(b.getIndexAttr(1))});
  }
}
