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
// keeps its order inside it. When k does not divide that loop, the
// reduction loops are first merged into one over the same order (r_i =
// (L floordiv suffix_i) mod n_i, which folds back to L where the loops were
// contiguous), the first level takes k segments of floor(n_r / k) elements
// and the second level combines the k partials and then the rem < k
// elements left over, in order: position t of the second level reads
// partial t (t < k) or evaluates the original body at
// L = k * seg - k + t, an index that is in range for every t, so no read is
// ever out of bounds and no identity is needed. Welford keeps the older
// rule (the largest divisor of the outer loop not above k): its second
// level combines triples, which a raw value is not.
// argmax/argmin (their positions would need (value, index) partials),
// welford_combine (already a second level) and nodes inside a stax.kernel
// (whose loops the kernel fixes) never split.
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
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/IRMapping.h"

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

/// Whether `op` may split at all.
bool splittable(ReductionOp op) {
  if (!combineKind(op.getKind()) || op->getParentOfType<KernelOp>())
    return false;
  ArrayRef<int64_t> red = op.getReductionRanges();
  ArrayRef<int64_t> outer = op.getIterationRanges();
  return !red.empty() && !llvm::is_contained(red, 0) &&
         !llvm::is_contained(outer, 0);
}

/// Algorithm 6.1's k for `op` (1: leave it whole).
int64_t segmentsFor(ReductionOp op, const SplitDevice &device) {
  if (!splittable(op))
    return 1;
  SplitDecision d = computeSplitFactor(product(op.getReductionRanges()),
                                       product(op.getIterationRanges()),
                                       device);
  return d.segments;
}

/// A CPU has few threads, so parallelism over the outputs suffices unless
/// there are fewer outputs than threads: a long reduction with at most
/// kCpuFewOutputs outputs (a loss, a global norm) is cut into kCpuSegments
/// segments that the threads reduce in parallel, combined once.
constexpr int64_t kCpuFewOutputs = 3;
constexpr int64_t kCpuSegments = 32;
constexpr int64_t kCpuMinLength = 1 << 16;

int64_t cpuSegmentsFor(ReductionOp op) {
  if (!splittable(op) || product(op.getIterationRanges()) > kCpuFewOutputs ||
      product(op.getReductionRanges()) < kCpuMinLength)
    return 1;
  return kCpuSegments;
}

/// Rewrites `op`'s reduction loops as one loop over the same lexicographic
/// order.
void mergeReductionLoops(ReductionOp op) {
  ArrayRef<int64_t> red = op.getReductionRanges();
  if (red.size() <= 1)
    return;
  MLIRContext *ctx = op.getContext();
  unsigned numOuter = op.getIterationRanges().size();
  SmallVector<AffineExpr> exprs;
  for (unsigned d = 0; d < numOuter; ++d)
    exprs.push_back(getAffineDimExpr(d, ctx));
  AffineExpr linear = getAffineDimExpr(numOuter, ctx);
  int64_t suffix = product(red);
  for (auto [i, n] : llvm::enumerate(red)) {
    suffix /= n;
    AffineExpr r = linear.floorDiv(suffix);
    exprs.push_back(i == 0 ? r : r % n);
  }
  int64_t total = product(red);
  loops::substituteIndices(op.getBody().front(), numOuter + 1, exprs);
  op.setReductionRanges({total});
}

/// The first level: the original body over ranges [..., k] and reduction
/// ranges [n_r / k, ...] (floor: a remainder is the second level's),
/// storing row-major partials of the combine type. With `cloneBody` the
/// body is copied, else moved.
ReductionOp buildFirstLevel(OpBuilder &b, ReductionOp op, int64_t k,
                            bool cloneBody) {
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
  if (cloneBody) {
    IRMapping map;
    op.getBody().cloneInto(&first.getBody(), map);
  } else {
    first.getBody().takeBody(op.getBody());
  }
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

/// The second level when n_r = k * seg + rem with 0 < rem < k: positions
/// t < k combine partial t, positions k..k+rem-1 the original body at
/// L = k * seg - k + t (in range for every t, so the unselected side reads
/// nothing out of bounds). `op` still has its (merged, one-loop) body.
ReductionOp buildSecondLevelWithTail(OpBuilder &b, ReductionOp op,
                                     ReductionOp first, int64_t k,
                                     int64_t seg, int64_t rem) {
  MLIRContext *ctx = op.getContext();
  Location loc = op.getLoc();
  auto second = ReductionOp::create(
      b, loc, op.getResultTypes(), op.getKindAttr(),
      DenseI64ArrayAttr::get(ctx, {k + rem}), op.getLayout(),
      op.getRangesAttr());
  IRMapping map;
  op.getBody().cloneInto(&second.getBody(), map);
  Block &block = second.getBody().front();
  unsigned numOuter = op.getIterationRanges().size();
  SmallVector<AffineExpr> exprs;
  for (unsigned d = 0; d < numOuter; ++d)
    exprs.push_back(getAffineDimExpr(d, ctx));
  AffineExpr t = getAffineDimExpr(numOuter, ctx);
  exprs.push_back(t + (k * seg - k));
  loops::substituteIndices(block, numOuter + 1, exprs);
  // Partial (i, t mod k): t mod k = t where it is selected, and in range
  // everywhere.
  auto yield = cast<YieldOp>(block.getTerminator());
  OpBuilder bb(yield);
  auto layout = first.getLayout();
  AffineExpr addr = getAffineConstantExpr(layout.getOffset(), ctx);
  for (auto [d, s] : llvm::enumerate(layout.getStrides()))
    addr = addr + (d == numOuter ? t % k : getAffineDimExpr(d, ctx)) * s;
  Value a = affine::AffineApplyOp::create(
      bb, loc, AffineMap::get(numOuter + 1, 0, addr), block.getArguments());
  Value isPartial = arith::CmpIOp::create(
      bb, loc, arith::CmpIPredicate::slt, block.getArgument(numOuter),
      arith::ConstantIndexOp::create(bb, loc, k));
  SmallVector<Value> values;
  for (auto [partial, tail] :
       llvm::zip_equal(first.getResults(), yield.getValues())) {
    Value p = LoadOp::create(bb, loc, partial, a);
    values.push_back(arith::SelectOp::create(bb, loc, isPartial, p, tail));
  }
  yield->setOperands(values);
  return second;
}

/// Splits `op` into k segments; the reduction loops are merged first when
/// k does not divide the outermost one.
void split(ReductionOp op, int64_t k) {
  int64_t outerLoop = op.getReductionRanges().front();
  if (outerLoop % k != 0) {
    if (op.getKind() == ReductionKind::Welford) {
      k = largestDivisorAtMost(outerLoop, k);
      if (k <= 1)
        return;
    } else {
      mergeReductionLoops(op);
    }
  }
  int64_t n = op.getReductionRanges().front();
  int64_t seg = n / k, rem = n % k;
  if (seg < 2)
    return; // nothing to gain: at most one element per segment
  OpBuilder b(op);
  bool tail = rem != 0;
  ReductionOp first = buildFirstLevel(b, op, k, /*cloneBody=*/tail);
  ReductionOp second =
      tail ? buildSecondLevelWithTail(b, op, first, k, seg, rem)
           : buildSecondLevel(b, op, first, k);
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
