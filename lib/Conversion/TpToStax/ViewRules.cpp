//===- ViewRules.cpp - views as index transformations ---------------------===//
//
// Proposition 6.2: permute, transpose, slice, select, expand, unsqueeze and
// squeeze are affine maps from the view's indices to the source's; a view
// only rewrites the indices its source is read at, so nothing is copied and,
// on a buffer, the strides and offset end up folded into the address. A
// reshape is affine when the merged dims are contiguous; on a buffer whose
// dims are not, the index keeps `floordiv`/`mod` (Section 6.4).
//
//===----------------------------------------------------------------------===//
#include "Lowering.h"
#include "Stax/Dialect/Tp/IR/TpOps.h"
#include "Stax/Dialect/Tp/IR/WindowView.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/AffineExpr.h"

using namespace mlir;
using namespace mlir::stax;
using namespace mlir::stax::lowering;
namespace tp = mlir::tp;

namespace {

using Result = RuleResult;
using Index = SmallVector<AffineExpr>;

Result view(RuleContext &ctx, ViewNode::IndexMap map) {
  return SmallVector<NodePtr>{
      std::make_shared<ViewNode>(ctx.resultType(), ctx.operands[0], std::move(map))};
}

int64_t normDim(int64_t d, int64_t rank) {
  return *tp::normalizeDim(d, std::max<int64_t>(rank, 1));
}

/// PyTorch's view-stride computation: the strides that let `newShape` view a
/// tensor of `oldShape` with `oldStrides`, when the reshape is affine.
std::optional<SmallVector<int64_t>> viewStrides(ArrayRef<int64_t> oldShape,
                                                ArrayRef<int64_t> oldStrides,
                                                ArrayRef<int64_t> newShape) {
  SmallVector<int64_t> newStrides(newShape.size(), 0);
  if (oldShape.empty())
    return SmallVector<int64_t>(newShape.size(), 1);
  int64_t numel = 1;
  for (int64_t s : oldShape)
    numel *= s;
  if (numel == 0)
    return RuleContext::rowMajor(newShape);
  int64_t viewD = static_cast<int64_t>(newShape.size()) - 1;
  int64_t chunkBaseStride = oldStrides.back();
  int64_t tensorNumel = 1, viewNumel = 1;
  for (int64_t d = static_cast<int64_t>(oldShape.size()) - 1; d >= 0; --d) {
    tensorNumel *= oldShape[d];
    if (d == 0 || (oldShape[d - 1] != 1 &&
                   oldStrides[d - 1] != tensorNumel * chunkBaseStride)) {
      while (viewD >= 0 && (viewNumel < tensorNumel || newShape[viewD] == 1)) {
        newStrides[viewD] = viewNumel * chunkBaseStride;
        viewNumel *= newShape[viewD];
        --viewD;
      }
      if (viewNumel != tensorNumel)
        return std::nullopt;
      if (d > 0) {
        chunkBaseStride = oldStrides[d - 1];
        tensorNumel = 1;
        viewNumel = 1;
      }
    }
  }
  if (viewD != -1)
    return std::nullopt;
  return newStrides;
}

/// The source indices of element `index` of a row-major reshape, group by
/// group: dims whose sizes multiply to the same number map onto each other,
/// so splitting a dim stays affine and only merging needs floordiv/mod.
Index reshapeIndex(ArrayRef<int64_t> oldShape, ArrayRef<int64_t> newShape,
                   ArrayRef<AffineExpr> index, MLIRContext *ctx) {
  Index out(oldShape.size(), getAffineConstantExpr(0, ctx));
  size_t i = 0, j = 0;
  while (i < oldShape.size() || j < newShape.size()) {
    size_t i0 = i, j0 = j;
    int64_t po = 1, pn = 1;
    if (i < oldShape.size())
      po *= oldShape[i++];
    if (j < newShape.size())
      pn *= newShape[j++];
    while (po != pn) {
      if (po < pn && i < oldShape.size())
        po *= oldShape[i++];
      else if (j < newShape.size())
        pn *= newShape[j++];
      else
        break;
    }
    // Trailing size-1 dims join the group.
    while (i < oldShape.size() && oldShape[i] == 1 && (j >= newShape.size() || newShape[j] != 1))
      ++i;
    while (j < newShape.size() && newShape[j] == 1 && (i >= oldShape.size() || oldShape[i] != 1))
      ++j;
    AffineExpr linear = getAffineConstantExpr(0, ctx);
    for (size_t k = j0; k < j; ++k)
      linear = linear * newShape[k] + index[k];
    int64_t inner = 1;
    for (size_t k = i; k-- > i0;) {
      AffineExpr e = inner == 1 ? linear : linear.floorDiv(inner);
      out[k] = k == i0 ? e : e % oldShape[k];
      inner *= oldShape[k];
    }
  }
  return out;
}

/// The source indices of as_strided element `index` as one affine
/// expression per source dim when the view is a window view (WindowView.h:
/// no carry crosses a dim), else nullopt (the caller delinearizes the
/// linear offset, with floordiv/mod).
std::optional<Index> stridedIndexPerDim(ArrayRef<int64_t> shape,
                                        ArrayRef<int64_t> sizes,
                                        ArrayRef<int64_t> strides,
                                        int64_t offset,
                                        ArrayRef<AffineExpr> index,
                                        MLIRContext *ctx) {
  std::optional<tp::WindowView> view =
      tp::decomposeWindowView(shape, sizes, strides, offset);
  if (!view)
    return std::nullopt;
  Index out;
  for (int64_t start : view->start)
    out.push_back(getAffineConstantExpr(start, ctx));
  for (auto [j, d] : llvm::enumerate(view->sourceDim))
    if (d >= 0)
      out[d] = out[d] + index[j] * view->step[j];
  return out;
}

Result reshape(RuleContext &ctx) {
  RankedTensorType rt = ctx.resultType();
  const NodePtr &src = ctx.operands[0];
  if (BufferNode *buf = src->asBuffer()) {
    if (auto strides = viewStrides(src->type.getShape(), buf->strides, rt.getShape())) {
      auto n = std::make_shared<BufferNode>(buf->buffer, *strides, buf->offset);
      n->type = rt;
      return SmallVector<NodePtr>{n};
    }
  }
  SmallVector<int64_t> oldShape(src->type.getShape()), newShape(rt.getShape());
  MLIRContext *mctx = rt.getContext();
  return view(ctx, [=](ArrayRef<AffineExpr> idx) {
    return reshapeIndex(oldShape, newShape, idx, mctx);
  });
}

/// Index maps for the affine views.
Result permute(RuleContext &ctx, SmallVector<int64_t> perm) {
  return view(ctx, [=](ArrayRef<AffineExpr> idx) {
    Index src(idx.size());
    for (auto [k, p] : llvm::enumerate(perm))
      src[p] = idx[k];
    return src;
  });
}

SmallVector<int64_t> swap(int64_t rank, int64_t a, int64_t b) {
  SmallVector<int64_t> perm;
  for (int64_t k = 0; k < rank; ++k)
    perm.push_back(k);
  if (rank > 0)
    std::swap(perm[a], perm[b]);
  return perm;
}

/// The gradient of a view written into zeros (slice_backward,
/// select_backward): where `inView` holds, the element is `grad` read at
/// `gradIndex` (a masked load), elsewhere zero. One pointwise node.
using Cond = std::function<Value(BodyBuilder &, ArrayRef<AffineExpr>)>;
Result intoZeros(RuleContext &ctx, Cond inView, ViewNode::IndexMap gradIndex) {
  RankedTensorType rt = ctx.resultType();
  NodePtr grad = ctx.operands[0];
  Type elt = rt.getElementType();
  return SmallVector<NodePtr>{std::make_shared<ComputedNode>(
      rt, [=](BodyBuilder &bb, ArrayRef<AffineExpr> idx) -> Value {
        Value cond = inView(bb, idx);
        Value saved = bb.mask;
        bb.mask = saved ? arith::AndIOp::create(bb.b, bb.loc, saved, cond).getResult()
                        : cond;
        Value v = bb.convert(grad->load(bb, gradIndex(idx)), elt);
        bb.mask = saved;
        return arith::SelectOp::create(bb.b, bb.loc, cond, v, bb.constant(0, elt));
      })};
}

Value cmpIndex(BodyBuilder &bb, arith::CmpIPredicate p, AffineExpr a, int64_t c) {
  Value lhs = bb.index(a);
  Value rhs = bb.index(getAffineConstantExpr(c, a.getContext()));
  return arith::CmpIOp::create(bb.b, bb.loc, p, lhs, rhs);
}

Value allOf(BodyBuilder &bb, ArrayRef<Value> conds) {
  Value r = conds.front();
  for (Value c : conds.drop_front())
    r = arith::AndIOp::create(bb.b, bb.loc, r, c);
  return r;
}

} // namespace

void stax::lowering::registerViewRules(RuleTable &r) {
  r["tp.slice_backward"] = [](RuleContext &ctx) -> Result {
    auto op = cast<tp::SliceBackwardOp>(ctx.op);
    int64_t rank = ctx.resultType().getRank();
    if (rank == 0)
      return failure();
    int64_t d = normDim(static_cast<int64_t>(op.getDim()), rank);
    int64_t size = ctx.resultType().getDimSize(d);
    int64_t start = static_cast<int64_t>(op.getStart());
    if (start < 0)
      start += size;
    start = std::clamp<int64_t>(start, 0, size);
    int64_t step = static_cast<int64_t>(op.getStep());
    int64_t count = ctx.operands[0]->type.getDimSize(d);
    if (step <= 0)
      return failure();
    using P = arith::CmpIPredicate;
    return intoZeros(
        ctx,
        [=](BodyBuilder &bb, ArrayRef<AffineExpr> idx) {
          AffineExpr rel = idx[d] - start;
          return allOf(bb, {cmpIndex(bb, P::sge, rel, 0),
                            cmpIndex(bb, P::slt, rel, step * count),
                            cmpIndex(bb, P::eq, rel % step, 0)});
        },
        [=](ArrayRef<AffineExpr> idx) {
          Index g(idx);
          g[d] = (idx[d] - start).floorDiv(step);
          return g;
        });
  };
  r["tp.select_backward"] = [](RuleContext &ctx) -> Result {
    auto op = cast<tp::SelectBackwardOp>(ctx.op);
    int64_t rank = ctx.resultType().getRank();
    if (rank == 0)
      return failure();
    int64_t d = normDim(static_cast<int64_t>(op.getDim()), rank);
    int64_t index = static_cast<int64_t>(op.getIndex());
    if (index < 0)
      index += ctx.resultType().getDimSize(d);
    return intoZeros(
        ctx,
        [=](BodyBuilder &bb, ArrayRef<AffineExpr> idx) {
          return cmpIndex(bb, arith::CmpIPredicate::eq, idx[d], index);
        },
        [=](ArrayRef<AffineExpr> idx) {
          Index g(idx);
          g.erase(g.begin() + d);
          return g;
        });
  };
  r["tp.t"] = [](RuleContext &ctx) -> Result {
    int64_t rank = ctx.operands[0]->type.getRank();
    return permute(ctx, rank == 2 ? swap(2, 0, 1) : swap(rank, 0, 0));
  };
  r["tp.transpose"] = [](RuleContext &ctx) -> Result {
    auto op = cast<tp::TransposeOp>(ctx.op);
    int64_t rank = ctx.operands[0]->type.getRank();
    if (rank == 0)
      return SmallVector<NodePtr>{ctx.operands[0]};
    return permute(ctx, swap(rank, normDim(op.getDim0(), rank), normDim(op.getDim1(), rank)));
  };
  r["tp.permute"] = [](RuleContext &ctx) -> Result {
    auto op = cast<tp::PermuteOp>(ctx.op);
    int64_t rank = ctx.operands[0]->type.getRank();
    SmallVector<int64_t> perm;
    for (int64_t d : op.getDims())
      perm.push_back(normDim(d, rank));
    return permute(ctx, perm);
  };
  r["tp.expand"] = [](RuleContext &ctx) -> Result {
    SmallVector<int64_t> in(ctx.operands[0]->type.getShape());
    SmallVector<int64_t> out(ctx.resultType().getShape());
    return view(ctx, [=](ArrayRef<AffineExpr> idx) { return broadcastIndex(in, out, idx); });
  };
  r["tp.unsqueeze"] = [](RuleContext &ctx) -> Result {
    int64_t rank = ctx.resultType().getRank();
    int64_t d = normDim(cast<tp::UnsqueezeOp>(ctx.op).getDim(), rank);
    return view(ctx, [=](ArrayRef<AffineExpr> idx) {
      Index src(idx);
      src.erase(src.begin() + d);
      return src;
    });
  };
  r["tp.squeeze"] = [](RuleContext &ctx) -> Result {
    SmallVector<int64_t> in(ctx.operands[0]->type.getShape());
    int64_t rank = in.size();
    SmallVector<bool> removed(rank, false);
    auto dims = cast<tp::SqueezeOp>(ctx.op).getDims();
    for (int64_t k = 0; k < rank; ++k)
      removed[k] = in[k] == 1 && (!dims || llvm::is_contained(*dims, k) ||
                                  llvm::is_contained(*dims, k - rank));
    MLIRContext *mctx = ctx.op->getContext();
    return view(ctx, [=](ArrayRef<AffineExpr> idx) {
      Index src;
      size_t j = 0;
      for (int64_t k = 0; k < rank; ++k)
        src.push_back(removed[k] ? getAffineConstantExpr(0, mctx) : idx[j++]);
      return src;
    });
  };
  r["tp.slice"] = [](RuleContext &ctx) -> Result {
    auto op = cast<tp::SliceOp>(ctx.op);
    int64_t rank = ctx.operands[0]->type.getRank();
    if (rank == 0)
      return failure();
    int64_t d = normDim(op.getDim(), rank);
    int64_t size = ctx.operands[0]->type.getDimSize(d);
    int64_t start = op.getStart();
    if (start < 0)
      start += size;
    start = std::clamp<int64_t>(start, 0, size);
    int64_t step = op.getStep();
    return view(ctx, [=](ArrayRef<AffineExpr> idx) {
      Index src(idx);
      src[d] = src[d] * step + start;
      return src;
    });
  };
  r["tp.select"] = [](RuleContext &ctx) -> Result {
    auto op = cast<tp::SelectOp>(ctx.op);
    int64_t rank = ctx.operands[0]->type.getRank();
    int64_t d = normDim(op.getDim(), rank);
    int64_t size = ctx.operands[0]->type.getDimSize(d);
    int64_t index = static_cast<int64_t>(op.getIndex());
    if (index < 0)
      index += size;
    MLIRContext *mctx = ctx.op->getContext();
    return view(ctx, [=](ArrayRef<AffineExpr> idx) {
      Index src(idx);
      src.insert(src.begin() + d, getAffineConstantExpr(index, mctx));
      return src;
    });
  };
  for (StringRef name : {"tp.view", "tp.reshape", "tp._unsafe_view"})
    r[name] = reshape;
  // Value semantics: the strides describe the source's memory, the result
  // is the reshape (as the reference kernel computes it).
  r["tp._reshape_alias"] = reshape;
  // as_strided reads the source's row-major storage at offset + strides.i.
  r["tp.as_strided"] = [](RuleContext &ctx) -> Result {
    auto op = cast<tp::AsStridedOp>(ctx.op);
    const NodePtr &src = ctx.operands[0];
    SmallVector<int64_t> strides(op.getStride());
    int64_t offset = op.getStorageOffset();
    RankedTensorType rt = ctx.resultType();
    if (BufferNode *buf = src->asBuffer())
      if (buf->isRowMajor() && buf->buffer.getType() == src->type) {
        auto n = std::make_shared<BufferNode>(buf->buffer, strides, offset);
        n->type = rt;
        return SmallVector<NodePtr>{n};
      }
    SmallVector<int64_t> shape(src->type.getShape());
    SmallVector<int64_t> sizes(rt.getShape());
    MLIRContext *mctx = rt.getContext();
    return view(ctx, [=](ArrayRef<AffineExpr> idx) {
      if (std::optional<Index> perDim =
              stridedIndexPerDim(shape, sizes, strides, offset, idx, mctx))
        return *perDim;
      AffineExpr linear = getAffineConstantExpr(offset, mctx);
      for (auto [e, s] : llvm::zip(idx, strides))
        linear = linear + e * s;
      SmallVector<int64_t> flat{1};
      for (int64_t d : shape)
        flat[0] *= d;
      return reshapeIndex(shape, flat, {linear}, mctx);
    });
  };
}
