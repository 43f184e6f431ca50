//===- SplitReductions.cpp - --stax-split-reductions ----------------------===//
//
// Section 6.5: a reduction with few outputs and a long range is split into
// k segments (Algorithm 6.1, SplitFactor.h) and becomes a two-level pair
// (Listing 6.4):
//
//   first level:  ranges [..., k], reduction range [n_r / k, ...], partial
//                 results in a row-major [..., k] buffer; its body is the
//                 original one with r0 = j * (n_r / k) + r0';
//   second level: the original result, combining the k partials in order
//                 (sum, prod, max, min, any, all; welford -> welford_combine).
//
// The segments cut the outermost reduction loop, so each one is a
// contiguous piece of the lexicographic order and every reduction loop
// keeps its order inside it. k must divide that loop: we use the largest
// divisor of it not above Algorithm 6.1's k, so that no segment needs a
// guarded tail (a masked tail would have to yield an identity, which
// Welford lacks); a loop with no such divisor (a prime length) stays whole.
// argmax/argmin (their positions would need (value, index) partials),
// welford_combine (already a second level) and nodes inside a stax.kernel
// (whose loops the kernel fixes) never split; the cpu target never splits.
//
// Splitting changes the combine order (class 2): the segmented sum error
// bound ((n/k - 1) + (k - 1)) u sum|a_i| replaces (n - 1) u sum|a_i|.
// max, min, any, all and integer sums are exact, so bitwise unchanged.
//
//===----------------------------------------------------------------------===//
#include "LoopUtils.h"
#include "Stax/Dialect/Tp/IR/Functional.h"
#include "Stax/Dialect/Stax/IR/StaxOps.h"
#include "Stax/Dialect/Stax/Transforms/Passes.h"
#include "Stax/Analysis/SplitFactor.h"

namespace mlir::stax {
#define GEN_PASS_DEF_STAXSPLITREDUCTIONS
#include "Stax/Dialect/Stax/Transforms/Passes.h.inc"
} // namespace mlir::stax

using namespace mlir;
using namespace mlir::stax;

namespace {

/// The kind of the second level, or nullopt for kinds that never split.
std::optional<ReductionKind> combineKind(ReductionKind kind) {
  switch (kind) {
  case ReductionKind::Sum:
  case ReductionKind::Prod:
  case ReductionKind::Max:
  case ReductionKind::Min:
  case ReductionKind::Any:
  case ReductionKind::All:
    return kind;
  case ReductionKind::Welford:
    return ReductionKind::WelfordCombine;
  default:
    return std::nullopt;
  }
}

int64_t product(ArrayRef<int64_t> xs) {
  int64_t p = 1;
  for (int64_t x : xs)
    p *= x;
  return p;
}

/// The number of segments to use for `op` (1: leave it whole).
int64_t segmentsFor(ReductionOp op, const SplitDevice &device) {
  if (!combineKind(op.getKind()) || op->getParentOfType<KernelOp>())
    return 1;
  ArrayRef<int64_t> red = op.getReductionRanges();
  ArrayRef<int64_t> outer = op.getIterationRanges();
  if (red.empty() || llvm::is_contained(red, 0) ||
      llvm::is_contained(outer, 0))
    return 1;
  SplitDecision d = computeSplitFactor(product(red), product(outer), device);
  if (d.segments <= 1)
    return 1;
  return largestDivisorAtMost(red.front(), d.segments);
}

/// The first level: the original body over ranges [..., k] and reduction
/// ranges [n_r / k, ...], storing row-major partials of the combine type.
/// A CPU has few threads, so parallelism over the outputs suffices unless
/// there are fewer outputs than threads: a long reduction with at most
/// kCpuFewOutputs outputs (a loss, a global norm) is cut into up to
/// kCpuSegments segments that the threads reduce in parallel, combined once.
constexpr int64_t kCpuFewOutputs = 3;
constexpr int64_t kCpuSegments = 32;
constexpr int64_t kCpuMinLength = 1 << 16;

int64_t cpuSegmentsFor(ReductionOp op) {
  if (!combineKind(op.getKind()) || op->getParentOfType<KernelOp>())
    return 1;
  ArrayRef<int64_t> red = op.getReductionRanges();
  ArrayRef<int64_t> outer = op.getIterationRanges();
  if (red.empty() || llvm::is_contained(red, 0) ||
      llvm::is_contained(outer, 0) || product(outer) > kCpuFewOutputs ||
      product(red) < kCpuMinLength)
    return 1;
  int64_t k = largestDivisorAtMost(red.front(), kCpuSegments);
  return k >= 4 ? k : 1;
}

ReductionOp buildFirstLevel(OpBuilder &b, ReductionOp op, int64_t k) {
  MLIRContext *ctx = op.getContext();
  ArrayRef<int64_t> outer = op.getIterationRanges();
  auto yield = cast<YieldOp>(op.getBody().front().getTerminator());
  Type combine = yield.getValues()[0].getType();
  SmallVector<int64_t> shape(
      cast<RankedTensorType>(op.getResult(0).getType()).getShape());
  shape.push_back(k);
  SmallVector<Type> types(op.getNumResults(),
                          RankedTensorType::get(shape, combine));
  // Partial (i, j) lives at k * (address of i) + j.
  LayoutAttr layout = op.getLayout();
  SmallVector<int64_t> strides;
  for (int64_t s : layout.getEffectiveStrides(outer))
    strides.push_back(s * k);
  strides.push_back(1);
  auto partialLayout =
      LayoutAttr::get(ctx, strides, layout.getOffset() * k, false);
  DenseI64ArrayAttr ranges;
  if (op.getRangesAttr()) {
    SmallVector<int64_t> r(outer);
    r.push_back(k);
    ranges = DenseI64ArrayAttr::get(ctx, r);
  }
  SmallVector<int64_t> red(op.getReductionRanges());
  int64_t segment = red.front() / k;
  red.front() = segment;
  auto first = ReductionOp::create(
      b, op.getLoc(), types, op.getKindAttr(),
      DenseI64ArrayAttr::get(ctx, red), partialLayout, ranges);
  first.getBody().takeBody(op.getBody());
  // Old indices (i..., r0, r1...) over new ones (i..., j, r0', r1...).
  unsigned numOuter = outer.size();
  SmallVector<AffineExpr> exprs;
  for (unsigned d = 0; d < numOuter; ++d)
    exprs.push_back(getAffineDimExpr(d, ctx));
  exprs.push_back(getAffineDimExpr(numOuter, ctx) * segment +
                  getAffineDimExpr(numOuter + 1, ctx));
  for (unsigned r = 1; r < red.size(); ++r)
    exprs.push_back(getAffineDimExpr(numOuter + 1 + r, ctx));
  loops::substituteIndices(first.getBody().front(), numOuter + 1 + red.size(),
                           exprs);
  return first;
}

/// The second level: the original results, combining partial j of each
/// output index in order j = 0..k-1.
ReductionOp buildSecondLevel(OpBuilder &b, ReductionOp op, ReductionOp first,
                             int64_t k) {
  MLIRContext *ctx = op.getContext();
  Location loc = op.getLoc();
  ReductionKind kind = *combineKind(op.getKind());
  auto second = ReductionOp::create(
      b, loc, op.getResultTypes(), ReductionKindAttr::get(ctx, kind),
      DenseI64ArrayAttr::get(ctx, {k}), op.getLayout(), op.getRangesAttr());
  ArrayRef<int64_t> outer = op.getIterationRanges();
  unsigned numOuter = outer.size();
  Block *block = new Block();
  second.getBody().push_back(block);
  for (unsigned d = 0; d <= numOuter; ++d)
    block->addArgument(IndexType::get(ctx), loc);
  // The address of partial (i, j), as the first level's layout stores it.
  auto layout = first.getLayout();
  AffineExpr addr = getAffineConstantExpr(layout.getOffset(), ctx);
  for (auto [d, s] : llvm::enumerate(layout.getStrides()))
    addr = addr + getAffineDimExpr(d, ctx) * s;
  OpBuilder bb = OpBuilder::atBlockBegin(block);
  Value a = affine::AffineApplyOp::create(
      bb, loc, AffineMap::get(numOuter + 1, 0, addr), block->getArguments());
  SmallVector<Value> values;
  for (Value partial : first.getResults())
    values.push_back(LoadOp::create(bb, loc, partial, a));
  YieldOp::create(bb, loc, values);
  return second;
}

void split(ReductionOp op, int64_t k) {
  OpBuilder b(op);
  ReductionOp first = buildFirstLevel(b, op, k);
  ReductionOp second = buildSecondLevel(b, op, first, k);
  op->replaceAllUsesWith(second);
  op.erase();
}

struct StaxSplitReductionsPass
    : public stax::impl::StaxSplitReductionsBase<StaxSplitReductionsPass> {
  using StaxSplitReductionsBase::StaxSplitReductionsBase;

  /// Options are checked per function so that the diagnostic names it.
  LogicalResult checkOptions() {
    func::FuncOp f = getOperation();
    std::pair<StringRef, int64_t> positive[] = {
        {"sm-count", smCount},
        {"warp-size", warpSize},
        {"threads-per-sm", threadsPerSM}};
    for (auto [name, value] : positive)
      if (value <= 0)
        return f.emitError() << "stax-split-reductions: " << name
                             << " must be positive, got " << value;
    if (noSplitThreshold < 0)
      return f.emitError() << "stax-split-reductions: no-split-threshold "
                              "must be non-negative, got "
                           << noSplitThreshold;
    return success();
  }

  void runOnOperation() override {
    if (failed(tp::verifyFunctional(getOperation(), getArgument())))
      return signalPassFailure();
    if (failed(checkOptions()))
      return signalPassFailure();
    SplitDevice device{smCount, warpSize, threadsPerSM, noSplitThreshold};
    SmallVector<std::pair<ReductionOp, int64_t>> work;
    getOperation().walk([&](ReductionOp op) {
      int64_t k = target == Target::CPU ? cpuSegmentsFor(op)
                                        : segmentsFor(op, device);
      if (k > 1)
        work.push_back({op, k});
    });
    for (auto [op, k] : work)
      split(op, k);
  }
};

} // namespace
