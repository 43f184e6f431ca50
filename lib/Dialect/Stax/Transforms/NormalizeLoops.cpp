//===- NormalizeLoops.cpp - --stax-normalize-loops ------------------------===//
//
// Loop normalization of Section 6.8 on every node: drop loops of size 1,
// order the output loops by the strides of the accesses, and merge
// adjacent loops j, j+1 when every access satisfies a_j = s_{j+1} a_{j+1}
// (Proposition 6.3). Every address a body computes stays the same, so the
// pass is class 1 (bitwise): only `ranges`, `reduction_ranges`, the layout's
// strides and the body's index arguments change, never the result type.
//
// Reduction loops are never reordered (that changes the combine order, a
// class-2 change), but dropping or merging them keeps the lexicographic
// order. Nodes inside a `stax.kernel` keep their loops, which the kernel's
// `outer_ranges` describe.
//
//===----------------------------------------------------------------------===//
#include "LoopUtils.h"
#include "Stax/Dialect/Tp/IR/Functional.h"
#include "Stax/Dialect/Stax/IR/StaxOps.h"
#include "Stax/Dialect/Stax/Transforms/Passes.h"

namespace mlir::stax {
#define GEN_PASS_DEF_STAXNORMALIZELOOPS
#include "Stax/Dialect/Stax/Transforms/Passes.h.inc"
} // namespace mlir::stax

using namespace mlir;
using namespace mlir::stax;

namespace {

/// The loops of one node: `outer` loops are stored with `strides` (none for
/// a scatter, whose layout describes its base), `reduction` loops follow.
struct LoopNest {
  SmallVector<int64_t> outer, reduction, strides;
  bool hasStore = true;
  bool canReorder = true;

  unsigned size() const { return outer.size() + reduction.size(); }
  bool isOuter(unsigned k) const { return k < outer.size(); }
  int64_t extent(unsigned k) const {
    return isOuter(k) ? outer[k] : reduction[k - outer.size()];
  }
};

/// Reads a node's loops; fails for nodes this pass leaves alone.
FailureOr<LoopNest> getLoopNest(Operation *op) {
  LoopNest nest;
  LayoutAttr layout;
  if (auto p = dyn_cast<PointwiseOp>(op)) {
    nest.outer.assign(p.getIterationRanges().begin(),
                      p.getIterationRanges().end());
    layout = p.getLayout();
  } else if (auto r = dyn_cast<ReductionOp>(op)) {
    nest.outer.assign(r.getIterationRanges().begin(),
                      r.getIterationRanges().end());
    nest.reduction.assign(r.getReductionRanges().begin(),
                          r.getReductionRanges().end());
    layout = r.getLayout();
  } else if (auto s = dyn_cast<ScatterOp>(op)) {
    // Writes happen in lexicographic order (overwrite and accumulate), so
    // a scatter's loops are treated like reduction loops.
    nest.reduction.assign(s.getRanges().begin(), s.getRanges().end());
    nest.hasStore = false;
  } else {
    return failure();
  }
  if (layout)
    nest.strides = layout.getEffectiveStrides(nest.outer);
  // An empty loop has nothing to normalize, and merging would hide it.
  if (llvm::is_contained(nest.outer, 0) ||
      llvm::is_contained(nest.reduction, 0))
    return failure();
  return nest;
}

/// Applies a loop transformation: loop k of the new nest stands for
/// `exprs` of the old loops (see loops::substituteIndices).
void rewriteLoops(Operation *op, LoopNest &nest, const LoopNest &newNest,
                  ArrayRef<AffineExpr> exprs) {
  loops::substituteIndices(op->getRegion(0).front(), newNest.size(), exprs);
  nest = newNest;
}

/// Drops every loop of size 1: its index is 0.
bool dropUnitLoops(Operation *op, LoopNest &nest) {
  MLIRContext *ctx = op->getContext();
  LoopNest next = nest;
  next.outer.clear();
  next.reduction.clear();
  next.strides.clear();
  SmallVector<AffineExpr> exprs;
  for (unsigned k = 0; k < nest.size(); ++k) {
    int64_t extent = nest.extent(k);
    if (extent == 1) {
      exprs.push_back(getAffineConstantExpr(0, ctx));
      continue;
    }
    exprs.push_back(getAffineDimExpr(next.size(), ctx));
    if (nest.isOuter(k)) {
      next.outer.push_back(extent);
      if (nest.hasStore)
        next.strides.push_back(nest.strides[k]);
    } else {
      next.reduction.push_back(extent);
    }
  }
  if (next.size() == nest.size())
    return false;
  rewriteLoops(op, nest, next, exprs);
  return true;
}

/// The affine.apply ops of a node body: its accesses (load addresses,
/// scatter addresses and index values alike).
SmallVector<affine::AffineApplyOp> accesses(Operation *op) {
  return llvm::to_vector(
      op->getRegion(0).front().getOps<affine::AffineApplyOp>());
}

/// The stride of loop `k` in every access, the store first; nullopt for a
/// non-linear access.
SmallVector<std::optional<int64_t>> stridesOf(Operation *op,
                                              const LoopNest &nest,
                                              unsigned k) {
  SmallVector<std::optional<int64_t>> out;
  if (nest.hasStore && nest.isOuter(k))
    out.push_back(nest.strides[k]);
  Value arg = op->getRegion(0).front().getArgument(k);
  for (affine::AffineApplyOp apply : accesses(op))
    out.push_back(loops::coefficientOf(apply, arg));
  return out;
}

/// True when outer loop `k` should run inside loop k+1: more accesses
/// step by less along k than along k+1 (accesses not moving along one of
/// them do not vote).
bool prefersInner(Operation *op, const LoopNest &nest, unsigned k) {
  auto a = stridesOf(op, nest, k), b = stridesOf(op, nest, k + 1);
  int64_t inner = 0, outer = 0;
  for (auto [sa, sb] : llvm::zip(a, b)) {
    if (!sa || !sb || *sa == 0 || *sb == 0)
      continue;
    inner += *sa < *sb;
    outer += *sa > *sb;
  }
  return inner > outer;
}

/// Orders the outer loops by stride with adjacent swaps (bounded, so that
/// conflicting votes cannot cycle).
bool orderOuterLoops(Operation *op, LoopNest &nest) {
  unsigned n = nest.outer.size();
  bool changed = false;
  for (unsigned pass = 0; pass < n; ++pass) {
    bool swapped = false;
    for (unsigned k = 0; k + 1 < n; ++k) {
      if (!prefersInner(op, nest, k))
        continue;
      MLIRContext *ctx = op->getContext();
      SmallVector<AffineExpr> exprs;
      for (unsigned j = 0; j < nest.size(); ++j)
        exprs.push_back(getAffineDimExpr(j == k ? k + 1 : j == k + 1 ? k : j,
                                         ctx));
      LoopNest next = nest;
      std::swap(next.outer[k], next.outer[k + 1]);
      if (nest.hasStore)
        std::swap(next.strides[k], next.strides[k + 1]);
      rewriteLoops(op, nest, next, exprs);
      swapped = changed = true;
    }
    if (!swapped)
      break;
  }
  return changed;
}

/// Proposition 6.3 for loops k and k+1 of the same kind: every use of
/// their indices is an access linear in them with a_k = s_{k+1} a_{k+1},
/// and so is the store.
bool canMerge(Operation *op, const LoopNest &nest, unsigned k) {
  if (nest.isOuter(k) != nest.isOuter(k + 1))
    return false;
  int64_t inner = nest.extent(k + 1);
  if (nest.hasStore && nest.isOuter(k) &&
      nest.strides[k] != inner * nest.strides[k + 1])
    return false;
  Block &body = op->getRegion(0).front();
  Value a = body.getArgument(k), b = body.getArgument(k + 1);
  for (Value arg : {a, b})
    for (Operation *user : arg.getUsers())
      if (!isa<affine::AffineApplyOp>(user))
        return false;
  for (affine::AffineApplyOp apply : accesses(op)) {
    std::optional<int64_t> ca = loops::coefficientOf(apply, a);
    std::optional<int64_t> cb = loops::coefficientOf(apply, b);
    if (!ca || !cb || *ca != inner * *cb)
      return false;
  }
  return true;
}

/// Merges loops k and k+1 into m = s_{k+1} i_k + i_{k+1}. Since every
/// access is linear with a_k = s_{k+1} a_{k+1}, substituting i_k = 0 and
/// i_{k+1} = m leaves each address a_{k+1} m + ... unchanged.
void merge(Operation *op, LoopNest &nest, unsigned k) {
  MLIRContext *ctx = op->getContext();
  SmallVector<AffineExpr> exprs;
  for (unsigned j = 0; j < nest.size(); ++j)
    exprs.push_back(j == k ? getAffineConstantExpr(0, ctx)
                           : getAffineDimExpr(j > k ? j - 1 : j, ctx));
  LoopNest next = nest;
  int64_t extent = nest.extent(k) * nest.extent(k + 1);
  if (nest.isOuter(k)) {
    next.outer[k + 1] = extent;
    next.outer.erase(next.outer.begin() + k);
    if (nest.hasStore)
      next.strides.erase(next.strides.begin() + k);
  } else {
    unsigned r = k - nest.outer.size();
    next.reduction[r + 1] = extent;
    next.reduction.erase(next.reduction.begin() + r);
  }
  rewriteLoops(op, nest, next, exprs);
}

bool mergeLoops(Operation *op, LoopNest &nest) {
  bool changed = false;
  for (unsigned k = 0; k + 1 < nest.size();) {
    if (canMerge(op, nest, k)) {
      merge(op, nest, k);
      changed = true;
      continue; // the merged loop may merge with the next one too
    }
    ++k;
  }
  return changed;
}

/// Writes the new loops back into the node's attributes.
void setLoops(Operation *op, const LoopNest &nest) {
  MLIRContext *ctx = op->getContext();
  auto ranges = [&](ArrayRef<int64_t> shape) -> DenseI64ArrayAttr {
    // `ranges` is left out while it is the result's shape.
    if (shape == cast<RankedTensorType>(op->getResult(0).getType()).getShape())
      return {};
    return DenseI64ArrayAttr::get(ctx, nest.outer);
  };
  auto layout = [&](LayoutAttr old) {
    return LayoutAttr::get(ctx, nest.strides, old.getOffset(), false);
  };
  if (auto p = dyn_cast<PointwiseOp>(op)) {
    p.setRangesAttr(ranges(nest.outer));
    p.setLayoutAttr(layout(p.getLayout()));
  } else if (auto r = dyn_cast<ReductionOp>(op)) {
    r.setRangesAttr(ranges(nest.outer));
    r.setLayoutAttr(layout(r.getLayout()));
    r.setReductionRanges(nest.reduction);
  } else {
    cast<ScatterOp>(op).setRanges(nest.reduction);
  }
}

void normalize(Operation *op) {
  FailureOr<LoopNest> nest = getLoopNest(op);
  if (failed(nest))
    return;
  bool changed = dropUnitLoops(op, *nest);
  if (nest->hasStore)
    changed |= orderOuterLoops(op, *nest);
  changed |= mergeLoops(op, *nest);
  if (changed)
    setLoops(op, *nest);
}

struct StaxNormalizeLoopsPass
    : public stax::impl::StaxNormalizeLoopsBase<StaxNormalizeLoopsPass> {
  using StaxNormalizeLoopsBase::StaxNormalizeLoopsBase;
  void runOnOperation() override {
    if (failed(tp::verifyFunctional(getOperation(), getArgument())))
      return signalPassFailure();
    SmallVector<Operation *> nodes;
    getOperation().walk([&](Operation *op) {
      if (isa<PointwiseOp, ReductionOp, ScatterOp>(op) &&
          !op->getParentOfType<KernelOp>())
        nodes.push_back(op);
    });
    for (Operation *op : nodes)
      normalize(op);
  }
};

} // namespace
