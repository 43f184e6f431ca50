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
// keeps its order inside it. When k does not divide that loop, the fewest
// leading reduction loops whose product has a divisor within k / 2 of k are
// merged into one loop over the same order (r_i = (L floordiv suffix_i)
// mod n_i, written so that it folds back to L where the loops were
// contiguous) and that divisor becomes k: the innermost loops, and the
// vector code of accesses contiguous only along them (a broadcast operand,
// a gathered row), stay. When no such product exists, all reduction loops
// are merged, the first level takes k segments of floor(n_r / k) elements
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
// On the CPU, a reduction over contiguous rows of fewer outputs than a
// 64-byte line splits into interleaved segments instead: segment j takes
// rows j, j + k, ... (r0 = r0' * k + j), so that the partials [k, ...]
// are whole lines read with full vectors (cpuInterleaveFor).
//
// Splitting changes the combine order (class 2): the segmented sum error
// bound ((n/k - 1) + (k - 1)) u sum|a_i| replaces (n - 1) u sum|a_i|.
// max, min, any, all and integer sums are exact, so bitwise unchanged.
//
//===----------------------------------------------------------------------===//
#include "LoopUtils.h"
#include "Stax/Analysis/SplitFactor.h"
#include "Stax/Dialect/Stax/IR/StaxOps.h"
#include "Stax/Dialect/Stax/Transforms/Passes.h"
#include "Stax/Dialect/Tp/IR/Functional.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/IR/IRMapping.h"
#include <numeric>

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

/// How to split a reduction: into `k` segments (1: leave it whole); with
/// `segmentOuter`, the partials' segment index is their outermost
/// dimension, so that threads of consecutive outputs stay on consecutive
/// addresses.
struct SplitPlan {
  int64_t k = 1;
  bool segmentOuter = false;
  /// Segment j takes the rows j, j + k, j + 2k, ... of the (merged)
  /// reduction loop instead of a contiguous piece of it (with
  /// segmentOuter): see cpuInterleaveFor.
  bool interleaved = false;
};

/// A column reduction (x[R, C].sum(0)): every read is contiguous along the
/// last output index and strided along each reduction index, so threads of
/// consecutive outputs read consecutive addresses. Only for row-major
/// results without normalized ranges (the partials' layout is built from
/// the shape).
bool isColumnReduction(ReductionOp op) {
  ArrayRef<int64_t> outer = op.getIterationRanges();
  auto type = cast<RankedTensorType>(op.getResult(0).getType());
  if (outer.empty() || op.getRangesAttr() ||
      !op.getLayout().isRowMajor(type.getShape()))
    return false;
  Block &body = op.getBody().front();
  unsigned numOuter = outer.size();
  bool reads = false;
  for (LoadOp load : body.getOps<LoadOp>()) {
    auto apply = load.getAddress().getDefiningOp<affine::AffineApplyOp>();
    if (!apply)
      return false;
    std::optional<int64_t> last =
        loops::coefficientOf(apply, body.getArgument(numOuter - 1));
    if (!last || *last != 1)
      return false;
    for (unsigned r = numOuter; r < body.getNumArguments(); ++r) {
      std::optional<int64_t> c = loops::coefficientOf(apply, body.getArgument(r));
      if (!c || *c <= 1)
        return false;
    }
    reads = true;
  }
  return reads;
}

/// Fewest rows a segment of a split column reduction sums.
constexpr int64_t kMinColumnSegment = 32;

/// The k in [ceil(want / 2), want] that leaves the fewest elements over
/// (the second level combines those one by one), the largest on ties.
int64_t fewestLeftOver(int64_t nr, int64_t want) {
  int64_t best = want;
  for (int64_t k = want; k >= (want + 1) / 2 && k > 1; --k)
    if (nr % k < nr % best)
      best = k;
  return best;
}

/// The GPU plan: a column reduction splits along its reduced rows into
/// enough (output, segment) threads to fill the device, each segment at
/// least kMinColumnSegment rows (Algorithm 6.1 is a rule for row
/// reductions: with C >= 2S columns it would leave R x C to C threads);
/// any other reduction follows Algorithm 6.1.
SplitPlan segmentsFor(ReductionOp op, const SplitDevice &device) {
  if (!splittable(op))
    return {};
  int64_t n = product(op.getIterationRanges());
  int64_t nr = product(op.getReductionRanges());
  if (isColumnReduction(op)) {
    if (nr <= device.noSplitThreshold)
      return {};
    int64_t fill = (device.smCount * device.threadsPerSM + n - 1) / n;
    int64_t want = std::min(fill, nr / kMinColumnSegment);
    return {want > 1 ? fewestLeftOver(nr, want) : 1, /*segmentOuter=*/true};
  }
  return {computeSplitFactor(nr, n, device).segments, false};
}

/// A CPU has few threads, so parallelism over the outputs suffices unless
/// there are fewer outputs than threads: a long reduction with at most
/// kCpuFewOutputs outputs (a loss, a global norm) is cut into kCpuSegments
/// segments that the threads reduce in parallel, combined once.
constexpr int64_t kCpuFewOutputs = 3;
constexpr int64_t kCpuSegments = 32;
constexpr int64_t kCpuMinLength = 1 << 16;

/// Bytes of a cache line: a row of partials spans whole lines.
constexpr int64_t kLineBytes = 64;
/// Rows each interleaved segment sums at least: below that the second
/// level adds about as many partials as the first level saved vector
/// loads (a column sum of a few rows stays one node, in order).
constexpr int64_t kMinInterleavedRows = 8;

/// Whether every read of `op` walks rows of its outputs: each load's
/// address is base + L * numel + o, with L the reduction loops' row-major
/// position and o the outputs' (loops of extent 1 aside).
bool readsContiguousRows(ReductionOp op) {
  Block &body = op.getBody().front();
  ArrayRef<int64_t> outer = op.getIterationRanges();
  ArrayRef<int64_t> red = op.getReductionRanges();
  SmallVector<int64_t> extents(outer);
  llvm::append_range(extents, red);
  // Row-major strides of the outputs, then of the reduction loops scaled
  // by numel (the rows outermost).
  SmallVector<int64_t> want = computeSuffixProduct(outer);
  for (int64_t s : computeSuffixProduct(red))
    want.push_back(s * product(outer));
  bool reads = false;
  for (LoadOp load : body.getOps<LoadOp>()) {
    auto apply = load.getAddress().getDefiningOp<affine::AffineApplyOp>();
    if (!apply)
      return false;
    for (auto [d, extent] : llvm::enumerate(extents)) {
      if (extent == 1)
        continue;
      std::optional<int64_t> c =
          loops::coefficientOf(apply, body.getArgument(d));
      if (!c || *c != want[d])
        return false;
    }
    reads = true;
  }
  return reads;
}

/// A reduction with fewer outputs than a 64-byte line of partials whose
/// reads walk contiguous rows of them (x[N, C].sum(0) for C < 16 f32: a
/// narrow column sum, the bias gradient of a small head): each output
/// alone reads one element per row, a strided scalar loop. Interleaved
/// into R = line / gcd(line, numel) partial rows (segment j sums rows j,
/// j + R, ...), the partials [R, outputs] are R * numel outputs, whole
/// lines, each read contiguously from rows of R * numel elements: a
/// column reduction that the vector code runs with full vectors; the
/// second level adds the R partials (and the rows left over) per output.
SplitPlan cpuInterleaveFor(ReductionOp op) {
  if (!splittable(op))
    return {};
  auto yield = cast<YieldOp>(op.getBody().front().getTerminator());
  Type combine = yield.getValues()[0].getType();
  if (!combine.isIntOrFloat() || op.getKind() == ReductionKind::Welford)
    return {};
  int64_t bytes = std::max<int64_t>(combine.getIntOrFloatBitWidth() / 8, 1);
  int64_t line = kLineBytes / bytes;
  int64_t numel = product(op.getIterationRanges());
  auto type = cast<RankedTensorType>(op.getResult(0).getType());
  if (numel < 2 || numel >= line || op.getRangesAttr() ||
      !op.getLayout().isRowMajor(type.getShape()) || !readsContiguousRows(op))
    return {};
  int64_t rows = line / std::gcd(line, numel);
  if (product(op.getReductionRanges()) < kMinInterleavedRows * rows)
    return {};
  return {rows, /*segmentOuter=*/true, /*interleaved=*/true};
}

SplitPlan cpuSegmentsFor(ReductionOp op) {
  if (!splittable(op) || product(op.getIterationRanges()) > kCpuFewOutputs ||
      product(op.getReductionRanges()) < kCpuMinLength)
    return {};
  return {kCpuSegments, false};
}

/// Rewrites `op`'s first `count` reduction loops as one loop over the same
/// lexicographic order; the loops after them stay as they are.
void mergeReductionLoops(ReductionOp op, unsigned count) {
  ArrayRef<int64_t> red = op.getReductionRanges();
  if (count <= 1)
    return;
  MLIRContext *ctx = op.getContext();
  unsigned numOuter = op.getIterationRanges().size();
  SmallVector<AffineExpr> exprs;
  for (unsigned d = 0; d < numOuter; ++d)
    exprs.push_back(getAffineDimExpr(d, ctx));
  AffineExpr linear = getAffineDimExpr(numOuter, ctx);
  ArrayRef<int64_t> merged = red.take_front(count);
  int64_t suffix = product(merged);
  // r_i = (L floordiv suffix_i) mod n_i, written as L floordiv suffix_i -
  // (L floordiv suffix_{i-1}) * n_i: the body's contiguous address
  // sum r_i * suffix_i then telescopes back to L under affine
  // simplification, which does not see through a mod of a floordiv (the
  // address stays non-linear, and its loop scalar).
  for (auto [i, n] : llvm::enumerate(merged)) {
    int64_t outerSuffix = suffix;
    suffix /= n;
    AffineExpr r = linear.floorDiv(suffix);
    exprs.push_back(i == 0 ? r : r - linear.floorDiv(outerSuffix) * n);
  }
  for (unsigned r = count; r < red.size(); ++r)
    exprs.push_back(getAffineDimExpr(numOuter + 1 + r - count, ctx));
  SmallVector<int64_t> ranges{product(merged)};
  llvm::append_range(ranges, red.drop_front(count));
  loops::substituteIndices(op.getBody().front(),
                           numOuter + static_cast<unsigned>(ranges.size()),
                           exprs);
  op.setReductionRanges(ranges);
}

/// A split that keeps the innermost reduction loop(s): the fewest leading
/// reduction loops whose product has a divisor within half of `k`, and
/// that divisor; nullopt when there is none. Merging every loop instead
/// (the fallback) turns an access that is contiguous along the innermost
/// loop but not linear across loops (a broadcast `b[c]` in `(x + b).sum()`,
/// a gathered row) into `L mod c`, whose loop no longer vectorizes.
std::optional<std::pair<unsigned, int64_t>>
leadingLoopsToSplit(ArrayRef<int64_t> red, int64_t k) {
  int64_t rows = 1;
  for (unsigned count = 1; count < red.size(); ++count) {
    rows *= red[count - 1];
    int64_t d = closestDivisorWithin(rows, k, k / 2 + 1);
    if (d > 1 && rows / d >= 2)
      return std::make_pair(count, d);
  }
  return std::nullopt;
}

/// The first level: the original body over ranges [..., k] (or [k, ...]
/// with `segmentOuter`) and reduction ranges [n_r / k, ...] (floor: a
/// remainder is the second level's), storing partials of the combine type.
/// Segment j reads r0 = j * (n_r / k) + r0', or r0 = r0' * k + j when
/// `interleaved` (the same rows: the first k * (n_r / k)).
/// With `cloneBody` the body is copied, else moved.
ReductionOp buildFirstLevel(OpBuilder &b, ReductionOp op, int64_t k,
                            bool cloneBody, bool segmentOuter,
                            bool interleaved) {
  MLIRContext *ctx = op.getContext();
  ArrayRef<int64_t> outer = op.getIterationRanges();
  auto yield = cast<YieldOp>(op.getBody().front().getTerminator());
  Type combine = yield.getValues()[0].getType();
  auto resultType = cast<RankedTensorType>(op.getResult(0).getType());
  SmallVector<int64_t> shape(resultType.getShape());
  LayoutAttr layout = op.getLayout();
  SmallVector<int64_t> strides;
  int64_t offset;
  if (segmentOuter) {
    // Partial (j, i) at j * numel + (row-major address of i).
    shape.insert(shape.begin(), k);
    strides.push_back(resultType.getNumElements());
    llvm::append_range(strides, layout.getEffectiveStrides(outer));
    offset = 0;
  } else {
    // Partial (i, j) lives at k * (address of i) + j.
    shape.push_back(k);
    for (int64_t s : layout.getEffectiveStrides(outer))
      strides.push_back(s * k);
    strides.push_back(1);
    offset = layout.getOffset() * k;
  }
  SmallVector<Type> types(op.getNumResults(),
                          RankedTensorType::get(shape, combine));
  auto partialLayout = LayoutAttr::get(ctx, strides, offset, false);
  DenseI64ArrayAttr ranges; // never with segmentOuter (isColumnReduction)
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
  // Old indices (i..., r0, r1...) over new ones (i..., j, r0', r1...), or
  // (j, i..., r0', r1...) with segmentOuter.
  unsigned numOuter = outer.size();
  unsigned firstOuter = segmentOuter ? 1 : 0;
  AffineExpr j = getAffineDimExpr(segmentOuter ? 0 : numOuter, ctx);
  SmallVector<AffineExpr> exprs;
  for (unsigned d = 0; d < numOuter; ++d)
    exprs.push_back(getAffineDimExpr(firstOuter + d, ctx));
  AffineExpr r = getAffineDimExpr(numOuter + 1, ctx);
  exprs.push_back(interleaved ? r * k + j : j * segment + r);
  for (unsigned r = 1; r < red.size(); ++r)
    exprs.push_back(getAffineDimExpr(numOuter + 1 + r, ctx));
  loops::substituteIndices(first.getBody().front(), numOuter + 1 + red.size(),
                           exprs);
  return first;
}

/// The address of partial (i, j) in `first`'s layout, over dims
/// (i..., j) = (d0 .. d{numOuter-1}, `j`).
AffineExpr partialAddress(ReductionOp first, unsigned numOuter, AffineExpr j,
                          bool segmentOuter) {
  MLIRContext *ctx = first.getContext();
  auto layout = first.getLayout();
  ArrayRef<int64_t> strides = layout.getStrides();
  AffineExpr addr = getAffineConstantExpr(layout.getOffset(), ctx);
  unsigned firstOuter = segmentOuter ? 1 : 0;
  for (unsigned d = 0; d < numOuter; ++d)
    addr = addr + getAffineDimExpr(d, ctx) * strides[firstOuter + d];
  return addr + j * strides[segmentOuter ? 0 : numOuter];
}

/// The second level: the original results, combining partial j of each
/// output index in order j = 0..k-1.
ReductionOp buildSecondLevel(OpBuilder &b, ReductionOp op, ReductionOp first,
                             int64_t k, bool segmentOuter) {
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
  AffineExpr addr = partialAddress(first, numOuter,
                                   getAffineDimExpr(numOuter, ctx),
                                   segmentOuter);
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
                                     int64_t seg, int64_t rem,
                                     bool segmentOuter) {
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
  AffineExpr addr = partialAddress(first, numOuter, t % k, segmentOuter);
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

/// The CPU plan: interleaved rows for narrow outputs, else segments for
/// long reductions with few outputs.
SplitPlan cpuPlanFor(ReductionOp op) {
  SplitPlan plan = cpuInterleaveFor(op);
  return plan.k > 1 ? plan : cpuSegmentsFor(op);
}

/// Splits `op` as `plan` says; leading reduction loops are merged first when
/// k does not divide the outermost one.
void split(ReductionOp op, SplitPlan plan) {
  int64_t k = plan.k;
  ArrayRef<int64_t> red = op.getReductionRanges();
  if (plan.interleaved) {
    // Contiguous rows: merging folds back to one linear loop.
    mergeReductionLoops(op, red.size());
  } else if (red.front() % k != 0) {
    if (op.getKind() == ReductionKind::Welford) {
      k = largestDivisorAtMost(red.front(), k);
      if (k <= 1)
        return;
    } else if (auto rows = leadingLoopsToSplit(red, k)) {
      k = rows->second;
      mergeReductionLoops(op, rows->first);
    } else {
      mergeReductionLoops(op, red.size());
    }
  }
  int64_t n = op.getReductionRanges().front();
  int64_t seg = n / k, rem = n % k;
  if (seg < 2)
    return; // nothing to gain: at most one element per segment
  OpBuilder b(op);
  bool tail = rem != 0;
  ReductionOp first = buildFirstLevel(b, op, k, /*cloneBody=*/tail,
                                      plan.segmentOuter, plan.interleaved);
  ReductionOp second =
      tail ? buildSecondLevelWithTail(b, op, first, k, seg, rem,
                                      plan.segmentOuter)
           : buildSecondLevel(b, op, first, k, plan.segmentOuter);
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
    SmallVector<std::pair<ReductionOp, SplitPlan>> work;
    getOperation().walk([&](ReductionOp op) {
      SplitPlan plan =
          target == Target::CPU ? cpuPlanFor(op) : segmentsFor(op, device);
      if (plan.k > 1)
        work.push_back({op, plan});
    });
    for (auto [op, plan] : work)
      split(op, plan);
  }
};

} // namespace
