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
// order. Nodes inside a `stax.kernel` keep their outer loops, which the
// kernel's `outer_ranges` describe; only their reduction loops merge. A
// result read by anything but nodes (a return, an external) is the tensor
// in the order of the node's outer loops, so those loops keep their order.
//
//===----------------------------------------------------------------------===//
#include "LoopUtils.h"
#include "Stax/Dialect/Tp/IR/Functional.h"
#include "Stax/Dialect/Stax/IR/StaxOps.h"
#include "Stax/Dialect/Stax/Transforms/Passes.h"
#include "llvm/ADT/ScopeExit.h"
#include <set>

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
  /// Whether the outer loops may be reordered (dropping, splitting and
  /// merging keep their lexicographic order).
  bool canReorder = true;

  unsigned size() const { return outer.size() + reduction.size(); }
  bool isOuter(unsigned k) const { return k < outer.size(); }
  int64_t extent(unsigned k) const {
    return isOuter(k) ? outer[k] : reduction[k - outer.size()];
  }
};

/// True when something other than a node reads `op`'s result (a return,
/// a call, an external op): it reads the elements in the order of the
/// node's loops, which reordering them would change. Nodes read storage
/// addresses, which no transformation here changes.
bool escapesInElementOrder(Operation *op) {
  return llvm::any_of(op->getUsers(), [](Operation *user) {
    return !isa<LoadOp, ScatterOp>(user);
  });
}

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
  nest.canReorder = !escapesInElementOrder(op);
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

/// The extents of every loop, outer ones first.
SmallVector<int64_t> extents(const LoopNest &nest) {
  SmallVector<int64_t> all(nest.outer);
  llvm::append_range(all, nest.reduction);
  return all;
}

/// Folds floordiv and mod that the loop extents decide (class 1).
bool simplifyIndices(Operation *op, const LoopNest &nest) {
  return loops::simplifyWithRanges(op->getRegion(0).front(), extents(nest));
}

/// The constants loop `k`'s index is divided by (floordiv or mod, directly
/// or inside another floordiv or mod) in some access and that divide its
/// extent: the chain D_1 | D_2 | ... | extent of them, smallest first.
SmallVector<int64_t> splitPoints(Operation *op, const LoopNest &nest,
                                 unsigned k) {
  int64_t extent = nest.extent(k);
  Value arg = op->getRegion(0).front().getArgument(k);
  std::set<int64_t> found;
  for (affine::AffineApplyOp apply : accesses(op)) {
    AffineMap map = apply.getAffineMap();
    for (unsigned pos = 0; pos < map.getNumDims(); ++pos) {
      if (apply.getMapOperands()[pos] != arg)
        continue;
      map.getResult(0).walk([&](AffineExpr e) {
        if (e.getKind() != AffineExprKind::FloorDiv &&
            e.getKind() != AffineExprKind::Mod)
          return;
        auto bin = cast<AffineBinaryOpExpr>(e);
        auto d = dyn_cast<AffineConstantExpr>(bin.getRHS());
        if (d && d.getValue() > 1 && d.getValue() < extent &&
            extent % d.getValue() == 0 && bin.getLHS().isFunctionOfDim(pos))
          found.insert(d.getValue());
      });
    }
  }
  SmallVector<int64_t> chain;
  for (int64_t d : found)
    if (chain.empty() || d % chain.back() == 0)
      chain.push_back(d);
  return chain;
}

/// Splits loop k at `chain` (D_1 | ... | D_m | extent) into loops of
/// extents extent / D_m, D_m / D_{m-1}, ..., D_1, outermost first, whose
/// indices i_0 .. i_m make up the old one as sum_j i_j * D_{m-j}: the same
/// order, so also for reduction and scatter loops. Kept only when every
/// access is then linear in the new loops (the floordiv and mod it undoes
/// fold away); returns whether it was.
bool trySplit(Operation *op, LoopNest &nest, unsigned k,
              ArrayRef<int64_t> chain) {
  MLIRContext *ctx = op->getContext();
  SmallVector<int64_t> parts{nest.extent(k) / chain.back()};
  for (size_t j = chain.size(); j-- > 1;)
    parts.push_back(chain[j] / chain[j - 1]);
  parts.push_back(chain.front());
  unsigned extra = parts.size() - 1;
  SmallVector<AffineExpr> exprs;
  for (unsigned j = 0; j < nest.size(); ++j) {
    if (j != k) {
      exprs.push_back(getAffineDimExpr(j < k ? j : j + extra, ctx));
      continue;
    }
    AffineExpr sum = getAffineConstantExpr(0, ctx);
    for (auto [p, size] : llvm::enumerate(parts))
      sum = sum * size + getAffineDimExpr(k + p, ctx);
    exprs.push_back(sum);
  }
  LoopNest next = nest;
  if (nest.isOuter(k)) {
    next.outer.erase(next.outer.begin() + k);
    next.outer.insert(next.outer.begin() + k, parts.begin(), parts.end());
    if (nest.hasStore) {
      SmallVector<int64_t> strides;
      int64_t inner = 1;
      for (int64_t size : llvm::reverse(parts)) {
        strides.insert(strides.begin(), nest.strides[k] * inner);
        inner *= size;
      }
      next.strides.erase(next.strides.begin() + k);
      next.strides.insert(next.strides.begin() + k, strides.begin(),
                          strides.end());
    }
  } else {
    unsigned r = k - nest.outer.size();
    next.reduction.erase(next.reduction.begin() + r);
    next.reduction.insert(next.reduction.begin() + r, parts.begin(),
                          parts.end());
  }
  Operation *trial = op->clone();
  llvm::scope_exit discard([&] { trial->destroy(); });
  Block &body = trial->getRegion(0).front();
  loops::substituteIndices(body, next.size(), exprs);
  loops::simplifyWithRanges(body, extents(next));
  for (unsigned p = 0; p < parts.size(); ++p)
    for (auto apply : body.getOps<affine::AffineApplyOp>())
      if (!loops::coefficientOf(apply, body.getArgument(k + p)))
        return false;
  op->getRegion(0).takeBody(trial->getRegion(0));
  nest = next;
  return true;
}

/// Splits loops whose index an access takes apart with floordiv and mod
/// (a reshape merging dims that are not contiguous, such as im2col's
/// [C * K, N * L] view of its strided windows): the parts index the
/// tensor affinely, so they can be ordered, merged and vectorized.
bool splitLoops(Operation *op, LoopNest &nest) {
  bool changed = false;
  for (unsigned k = nest.size(); k-- > 0;) {
    SmallVector<int64_t> chain = splitPoints(op, nest, k);
    if (!chain.empty())
      changed |= trySplit(op, nest, k, chain);
  }
  return changed;
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
  changed |= simplifyIndices(op, *nest);
  changed |= splitLoops(op, *nest);
  if (nest->hasStore && nest->canReorder)
    changed |= orderOuterLoops(op, *nest);
  changed |= mergeLoops(op, *nest);
  if (changed)
    setLoops(op, *nest);
}

/// A node inside a `stax.kernel` keeps its outer loops (the kernel's), but
/// a reduction's own loops are private to it: merging them keeps the
/// lexicographic combine order and turns a nest with a short innermost
/// loop (a batch norm's [N, H, W] per channel) into one contiguous loop
/// that vectorizes with several accumulators.
void mergeKernelReductionLoops(ReductionOp op) {
  FailureOr<LoopNest> nest = getLoopNest(op);
  if (failed(nest))
    return;
  bool changed = false;
  for (unsigned k = nest->outer.size(); k + 1 < nest->size();) {
    if (canMerge(op, *nest, k)) {
      merge(op, *nest, k);
      changed = true;
      continue;
    }
    ++k;
  }
  if (changed)
    op.setReductionRanges(nest->reduction);
}

struct StaxNormalizeLoopsPass
    : public stax::impl::StaxNormalizeLoopsBase<StaxNormalizeLoopsPass> {
  using StaxNormalizeLoopsBase::StaxNormalizeLoopsBase;
  void runOnOperation() override {
    if (failed(tp::verifyFunctional(getOperation(), getArgument())))
      return signalPassFailure();
    SmallVector<Operation *> nodes;
    SmallVector<ReductionOp> kernelReductions;
    getOperation().walk([&](Operation *op) {
      if (!isa<PointwiseOp, ReductionOp, ScatterOp>(op))
        return;
      if (!op->getParentOfType<KernelOp>())
        nodes.push_back(op);
      else if (auto r = dyn_cast<ReductionOp>(op))
        kernelReductions.push_back(r);
    });
    for (Operation *op : nodes)
      normalize(op);
    for (ReductionOp r : kernelReductions)
      mergeKernelReductionLoops(r);
  }
};

} // namespace
