//===- RangeAnalysis.cpp - --stax-range-analysis --------------------------===//
//
// Interval analysis of the index computations of node bodies (Section 6.8,
// Definition 6.4). The intervals come from upstream IntegerRangeAnalysis,
// fed by the InferIntRangeInterface of the stax ops (loop indices are
// [0, s-1], loads are unbounded) and of arith/affine. By Proposition 6.4
// the intervals contain every run-time value, so the pass may:
//
//  - drop the negative-index wrap of an indirect index that is never
//    negative, and its bounds check when it is proven in [0, size);
//  - replace an indirect index computed from loop indices and constants
//    only by the affine expression of that computation (index propagation,
//    Example 6.3's g2 becomes a direct read at (3 * i0) mod 128);
//  - mark each node and kernel with `stax.index_bitwidth`: 32 when every
//    index and address it computes lies in [-2^31, 2^31), else 64.
//
//===----------------------------------------------------------------------===//
#include "Stax/Dialect/Stax/IR/DiscardableAttrs.h"
#include "Stax/Dialect/Tp/IR/Functional.h"
#include "Stax/Dialect/Stax/IR/StaxOps.h"
#include "Stax/Analysis/IndexRanges.h"
#include "Stax/Dialect/Stax/Transforms/Passes.h"
#include "mlir/Analysis/DataFlow/ConstantPropagationAnalysis.h"
#include "mlir/Analysis/DataFlow/DeadCodeAnalysis.h"
#include "mlir/Analysis/DataFlow/IntegerRangeAnalysis.h"
#include "mlir/Analysis/DataFlowFramework.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Builders.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/SetVector.h"
#include <algorithm>
#include <limits>

namespace mlir::stax {
#define GEN_PASS_DEF_STAXRANGEANALYSIS
#include "Stax/Dialect/Stax/Transforms/Passes.h.inc"
} // namespace mlir::stax

using namespace mlir;
using namespace mlir::dataflow;


namespace {
/// Upstream integer range analysis with our sound rule for affine.apply in
/// place of upstream's (see IndexRanges.h).
class StaxIntegerRangeAnalysis : public IntegerRangeAnalysis {
public:
  using IntegerRangeAnalysis::IntegerRangeAnalysis;
  LogicalResult
  visitOperation(Operation *op,
                 ArrayRef<const IntegerValueRangeLattice *> operands,
                 ArrayRef<IntegerValueRangeLattice *> results) override {
    auto apply = dyn_cast<affine::AffineApplyOp>(op);
    if (!apply)
      return IntegerRangeAnalysis::visitOperation(op, operands, results);
    SmallVector<ConstantIntRanges> ranges;
    for (const IntegerValueRangeLattice *l : operands) {
      if (l->getValue().isUninitialized())
        return success(); // revisited once every operand is known
      ranges.push_back(l->getValue().getValue());
    }
    unsigned numDims = apply.getAffineMap().getNumDims();
    ConstantIntRanges r = stax::inferAffineRange(
        apply.getAffineMap().getResult(0), ArrayRef(ranges).take_front(numDims),
        ArrayRef(ranges).drop_front(numDims));
    propagateIfChanged(results[0], results[0]->join(IntegerValueRange(r)));
    return success();
  }
};
} // namespace

//===----------------------------------------------------------------------===//
// Querying the solver
//===----------------------------------------------------------------------===//

/// Runs upstream integer range analysis on `root`. The dead code and
/// constant propagation analyses must be loaded with it: the sparse
/// framework only visits blocks the former proves live.
static std::unique_ptr<DataFlowSolver> solveRanges(Operation *root) {
  auto solver = std::make_unique<DataFlowSolver>();
  solver->load<DeadCodeAnalysis>();
  solver->load<SparseConstantPropagation>();
  solver->load<StaxIntegerRangeAnalysis>();
  if (failed(solver->initializeAndRun(root)))
    return nullptr;
  return solver;
}

/// The signed interval of an integer or index value, if the analysis
/// reached it.
static std::optional<ConstantIntRanges> rangeOf(DataFlowSolver &solver,
                                                Value v) {
  auto *lattice = solver.lookupState<IntegerValueRangeLattice>(v);
  if (!lattice || lattice->getValue().isUninitialized())
    return std::nullopt;
  return lattice->getValue().getValue();
}

/// The interval as int64 bounds, if both fit.
static std::optional<std::pair<int64_t, int64_t>>
signedBounds(DataFlowSolver &solver, Value v) {
  std::optional<ConstantIntRanges> r = rangeOf(solver, v);
  if (!r || r->smin().getSignificantBits() > 64 ||
      r->smax().getSignificantBits() > 64)
    return std::nullopt;
  return std::make_pair(r->smin().getSExtValue(), r->smax().getSExtValue());
}

static bool isNode(Operation *op) {
  return isa<stax::PointwiseOp, stax::ReductionOp, stax::ScatterOp>(op);
}

//===----------------------------------------------------------------------===//
// Index propagation
//===----------------------------------------------------------------------===//

namespace {
/// Rebuilds an integer computed from loop indices and constants only as an
/// affine expression over those indices. Every arith op it crosses must be
/// proven free of wrap-around by the intervals, since affine expressions
/// are evaluated over the integers; mod and floordiv stand for remsi and
/// divsi only where the dividend is proven non-negative.
class AffineRebuilder {
public:
  AffineRebuilder(DataFlowSolver &solver, MLIRContext *ctx)
      : solver(solver), ctx(ctx) {}

  /// The expression of `v`, or null when `v` depends on anything else.
  AffineExpr build(Value v, unsigned depth = 0);
  ArrayRef<Value> getOperands() const { return operands; }

private:
  AffineExpr buildOp(Operation *op, unsigned depth);
  AffineExpr buildDivRem(Operation *op, bool isRem, unsigned depth);
  bool nonNegative(Value v) {
    auto b = signedBounds(solver, v);
    return b && b->first >= 0;
  }
  /// True when the interval of `v` is not its type's full range: upstream
  /// inference widens to the full range whenever a bound could wrap.
  bool cannotWrap(Value v) {
    std::optional<ConstantIntRanges> r = rangeOf(solver, v);
    return r && !(r->smin().isMinSignedValue() && r->smax().isMaxSignedValue());
  }

  DataFlowSolver &solver;
  MLIRContext *ctx;
  SmallVector<Value> operands;
  llvm::DenseMap<Value, AffineExpr> cache;
};
} // namespace

AffineExpr AffineRebuilder::build(Value v, unsigned depth) {
  // Deep chains are not index arithmetic the lowering produces.
  if (depth > 64)
    return {};
  if (AffineExpr cached = cache.lookup(v))
    return cached;
  AffineExpr e;
  auto bounds = signedBounds(solver, v);
  if (bounds && bounds->first == bounds->second) {
    e = getAffineConstantExpr(bounds->first, ctx);
  } else if (auto arg = dyn_cast<BlockArgument>(v)) {
    // A loop index of the node (or kernel) around this body.
    if (arg.getType().isIndex() && isNode(arg.getOwner()->getParentOp())) {
      e = getAffineDimExpr(operands.size(), ctx);
      operands.push_back(v);
    }
  } else {
    e = buildOp(v.getDefiningOp(), depth + 1);
  }
  if (e)
    cache[v] = e;
  return e;
}

AffineExpr AffineRebuilder::buildDivRem(Operation *op, bool isRem,
                                        unsigned depth) {
  auto divisor = signedBounds(solver, op->getOperand(1));
  if (!divisor || divisor->first != divisor->second || divisor->first <= 0 ||
      !nonNegative(op->getOperand(0)))
    return {};
  AffineExpr lhs = build(op->getOperand(0), depth);
  if (!lhs)
    return {};
  return isRem ? lhs % divisor->first : lhs.floorDiv(divisor->first);
}

AffineExpr AffineRebuilder::buildOp(Operation *op, unsigned depth) {
  if (isa<arith::IndexCastOp, arith::ExtSIOp>(op))
    return build(op->getOperand(0), depth);
  // Zero extension and truncation keep the value when it fits either way.
  if (isa<arith::IndexCastUIOp, arith::ExtUIOp>(op))
    return nonNegative(op->getOperand(0)) ? build(op->getOperand(0), depth)
                                          : AffineExpr();
  if (isa<arith::TruncIOp>(op))
    return rangeOf(solver, op->getOperand(0)) == rangeOf(solver, op->getResult(0))
               ? build(op->getOperand(0), depth)
               : AffineExpr();
  if (auto select = dyn_cast<arith::SelectOp>(op)) {
    // Only a condition the intervals decide (the Python-mod fix-up).
    auto cond = signedBounds(solver, select.getCondition());
    if (!cond || cond->first != cond->second)
      return {};
    return build(cond->first ? select.getTrueValue() : select.getFalseValue(),
                 depth);
  }
  if (isa<arith::RemSIOp, arith::RemUIOp>(op))
    return buildDivRem(op, /*isRem=*/true, depth);
  if (isa<arith::DivSIOp, arith::DivUIOp, arith::FloorDivSIOp>(op))
    return buildDivRem(op, /*isRem=*/false, depth);
  if (!isa<arith::AddIOp, arith::SubIOp, arith::MulIOp>(op) ||
      !cannotWrap(op->getResult(0)))
    return {};
  AffineExpr lhs = build(op->getOperand(0), depth);
  AffineExpr rhs = lhs ? build(op->getOperand(1), depth) : AffineExpr();
  if (!rhs)
    return {};
  if (isa<arith::AddIOp>(op))
    return lhs + rhs;
  if (isa<arith::SubIOp>(op))
    return lhs - rhs;
  // A product stays affine only with a constant factor.
  if (!isa<AffineConstantExpr>(lhs) && !isa<AffineConstantExpr>(rhs))
    return {};
  return lhs * rhs;
}

//===----------------------------------------------------------------------===//
// Indirect indices
//===----------------------------------------------------------------------===//

namespace {
/// What the intervals allow for one stax.indirect_index.
struct IndexDecision {
  stax::IndirectIndexOp op;
  bool dropWrap = false;
  bool dropCheck = false;
  /// The direct index over `operands`, when the index is propagated.
  AffineMap direct;
  SmallVector<Value> operands;
};
} // namespace

/// Decides what to drop from `op` and whether to propagate its index.
static IndexDecision decide(DataFlowSolver &solver, stax::IndirectIndexOp op) {
  IndexDecision d;
  d.op = op;
  std::optional<ConstantIntRanges> range = rangeOf(solver, op.getValue());
  auto bounds = signedBounds(solver, op.getValue());
  int64_t size = op.getSize();
  if (!range || !bounds || size <= 0)
    return d;
  bool wrap = op.getWrapNegative();
  // Where the value lands after the wrap, before any check.
  ConstantIntRanges after = stax::IndirectIndexOp::inferIndexRange(
      *range, size, wrap, /*checkBounds=*/false);
  int64_t lo = after.smin().getSExtValue(), hi = after.smax().getSExtValue();
  if (hi < 0 || lo >= size)
    op.emitWarning() << "index in [" << bounds->first << ", "
                     << bounds->second
                     << "] is always out of bounds for a dimension of size "
                     << size;
  bool provenInBounds = lo >= 0 && hi < size;
  d.dropWrap = wrap && bounds->first >= 0;
  d.dropCheck = op.getCheckBounds() && provenInBounds;
  if (!provenInBounds)
    return d;
  AffineRebuilder rebuilder(solver, op.getContext());
  AffineExpr e = rebuilder.build(op.getValue());
  if (!e)
    return d;
  // A wrapped negative index v in [-size, -1] is v + size, so (v + size)
  // mod size covers both signs.
  if (bounds->first < 0)
    e = (e + size) % size;
  d.direct = AffineMap::get(rebuilder.getOperands().size(), 0, e);
  d.operands.assign(rebuilder.getOperands().begin(),
                    rebuilder.getOperands().end());
  return d;
}

/// Folds the affine.apply users of `index` into single applies over the
/// loop indices, so the load reads at the propagated expression directly.
static void composeUsers(OpBuilder &b, Value index) {
  for (Operation *user : llvm::make_early_inc_range(index.getUsers())) {
    auto apply = dyn_cast<affine::AffineApplyOp>(user);
    if (!apply)
      continue;
    b.setInsertionPoint(apply);
    SmallVector<OpFoldResult> ops = getAsOpFoldResult(apply.getMapOperands());
    auto composed = affine::makeComposedAffineApply(
        b, apply.getLoc(), apply.getAffineMap(), ops);
    apply.replaceAllUsesWith(composed.getResult());
    apply.erase();
  }
}

/// Applies `d`; returns true when the index computation became dead.
static bool applyDecision(OpBuilder &b, IndexDecision &d) {
  stax::IndirectIndexOp op = d.op;
  if (!d.direct) {
    if (d.dropWrap)
      op.removeWrapNegativeAttr();
    if (d.dropCheck)
      op.removeCheckBoundsAttr();
    return false;
  }
  b.setInsertionPoint(op);
  auto direct =
      affine::AffineApplyOp::create(b, op.getLoc(), d.direct, d.operands);
  op.getResult().replaceAllUsesWith(direct.getResult());
  op.erase();
  composeUsers(b, direct.getResult());
  if (direct->use_empty())
    direct.erase();
  return true;
}

/// Erases the pure ops of `block` that nothing reads any more (the integer
/// arithmetic index propagation absorbed into an affine expression).
static void eraseDeadOps(Block &block) {
  for (Operation &op : llvm::make_early_inc_range(llvm::reverse(block)))
    if (isOpTriviallyDead(&op))
      op.erase();
}

//===----------------------------------------------------------------------===//
// Index bit width
//===----------------------------------------------------------------------===//

/// The largest storage address a node writes: offset + sum of stride *
/// (extent - 1) over its loops (row-major for a flexible layout).
static int64_t maxStoreAddress(Operation *node) {
  auto type = cast<RankedTensorType>(node->getResult(0).getType());
  stax::LayoutAttr layout;
  ArrayRef<int64_t> extents = type.getShape();
  if (auto p = dyn_cast<stax::PointwiseOp>(node)) {
    layout = p.getLayout();
    extents = p.getIterationRanges();
  } else if (auto r = dyn_cast<stax::ReductionOp>(node)) {
    layout = r.getLayout();
    extents = r.getIterationRanges();
  }
  if (!layout || layout.getFlexible() ||
      layout.getStrides().size() != extents.size())
    return type.getNumElements() - 1;
  int64_t addr = layout.getOffset();
  for (auto [stride, extent] : llvm::zip(layout.getStrides(), extents))
    addr += stride * std::max<int64_t>(extent - 1, 0);
  return addr;
}

/// True when every index value of the body and the stores of `node` fit in
/// a signed 32-bit integer.
static bool fitsInI32(DataFlowSolver &solver, Operation *node) {
  constexpr int64_t lo = std::numeric_limits<int32_t>::min();
  constexpr int64_t hi = std::numeric_limits<int32_t>::max();
  if (maxStoreAddress(node) > hi)
    return false;
  auto fits = [&](Value v) {
    if (!v.getType().isIndex())
      return true;
    auto b = signedBounds(solver, v);
    return b && b->first >= lo && b->second <= hi;
  };
  Block &body = node->getRegion(0).front();
  if (!llvm::all_of(body.getArguments(), fits))
    return false;
  return !body.walk([&](Operation *op) {
            return llvm::all_of(op->getResults(), fits) ? WalkResult::advance()
                                                        : WalkResult::interrupt();
          }).wasInterrupted();
}

static void setBitwidth(Operation *op, bool narrow) {
  stax::setIndexBitwidth(op, narrow ? 32 : 64);
}

/// Marks every node, and every kernel with all its nodes narrow.
static void markBitwidths(DataFlowSolver &solver, func::FuncOp func) {
  func.walk([&](Operation *op) {
    if (isNode(op))
      setBitwidth(op, fitsInI32(solver, op));
  });
  func.walk([&](stax::KernelOp kernel) {
    bool narrow = llvm::all_of(
        kernel.getBody().front().without_terminator(), [](Operation &node) {
          return stax::getIndexBitwidth(&node) == 32u;
        });
    setBitwidth(kernel, narrow);
  });
}

//===----------------------------------------------------------------------===//
// Load bounds
//===----------------------------------------------------------------------===//

/// True when some loop around `op` (of its node or kernel) runs no
/// iteration, so `op` never runs.
static bool inEmptyLoop(Operation *op) {
  for (Operation *p = op->getParentOp(); p && !isa<func::FuncOp>(p);
       p = p->getParentOp()) {
    auto r = dyn_cast<stax::ReductionOp>(p);
    auto k = dyn_cast<stax::KernelOp>(p);
    if (llvm::is_contained(stax::getNodeLoops(p), 0) ||
        (r && llvm::is_contained(r.getReductionRanges(), 0)) ||
        (k && llvm::is_contained(k.getOuterRanges(), 0)))
      return true;
  }
  return false;
}

/// The storage elements of `buffer`: a node stores its result with its
/// layout, which may leave gaps (a padded row stride).
static int64_t storageElements(Value buffer) {
  int64_t numel = cast<RankedTensorType>(buffer.getType()).getNumElements();
  Operation *node = stax::getComputingNode(buffer);
  return node ? std::max(numel, maxStoreAddress(node) + 1) : numel;
}

/// Refuses an unmasked load whose address interval lies wholly outside its
/// buffer: it would read outside the buffer on every iteration, and
/// compiled code does not check direct addresses (the interpreter does).
static LogicalResult checkLoadBounds(DataFlowSolver &solver,
                                     func::FuncOp func) {
  WalkResult result = func.walk([&](stax::LoadOp load) {
    int64_t size = storageElements(load.getBuffer());
    auto bounds = signedBounds(solver, load.getAddress());
    if (load.getMask() || size == 0 || !bounds || inEmptyLoop(load))
      return WalkResult::advance();
    // Intervals over-approximate: only a disjoint one is certainly wrong.
    if (bounds->second >= 0 && bounds->first < size)
      return WalkResult::advance();
    load.emitOpError() << "reads addresses in [" << bounds->first << ", "
                       << bounds->second << "], outside the buffer's " << size
                       << " storage elements";
    return WalkResult::interrupt();
  });
  return failure(result.wasInterrupted());
}

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

namespace {
struct StaxRangeAnalysisPass
    : public stax::impl::StaxRangeAnalysisBase<StaxRangeAnalysisPass> {
  using StaxRangeAnalysisBase::StaxRangeAnalysisBase;
  void runOnOperation() override;
};
} // namespace

void StaxRangeAnalysisPass::runOnOperation() {
  if (failed(tp::verifyFunctional(getOperation(), getArgument())))
    return signalPassFailure();
  func::FuncOp func = getOperation();
  std::unique_ptr<DataFlowSolver> solver = solveRanges(func);
  if (!solver)
    return signalPassFailure();

  // Decide everything from one fixpoint before rewriting any of it.
  SmallVector<IndexDecision> decisions;
  func.walk([&](stax::IndirectIndexOp op) {
    decisions.push_back(decide(*solver, op));
  });
  OpBuilder b(func.getContext());
  llvm::SetVector<Block *> propagated;
  for (IndexDecision &d : decisions) {
    Block *block = d.op->getBlock();
    if (applyDecision(b, d))
      propagated.insert(block);
  }
  for (Block *block : propagated)
    eraseDeadOps(*block);

  // The rewrites created values the first fixpoint has not seen.
  if (!propagated.empty())
    solver = solveRanges(func);
  if (!solver)
    return signalPassFailure();
  if (failed(checkLoadBounds(*solver, func)))
    return signalPassFailure();
  markBitwidths(*solver, func);
}
