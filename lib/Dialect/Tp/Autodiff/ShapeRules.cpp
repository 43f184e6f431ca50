//===- ShapeRules.cpp - derivatives of views and shape ops ----------------===//
//
// Shape ops are linear: their JVP is the op applied to the tangents
// (jvpByLinearity), their VJP is the transposed index map: a reshape views the
// adjoint back, a permutation applies the inverse permutation, a broadcast
// sums, a slice writes the adjoint into zeros (slice_backward), a split
// concatenates, a concatenation slices.
//
//===----------------------------------------------------------------------===//

#include "RuleUtils.h"
#include "Stax/Dialect/Tp/IR/TypeInference.h"
#include "Stax/Dialect/Tp/IR/WindowView.h"
#include <numeric>

using namespace mlir;
using namespace mlir::tp;
using namespace mlir::tp::autodiff;

namespace {

int64_t dimOf(uint64_t dim, int64_t rank) {
  return *normalizeDim(static_cast<int64_t>(dim), rank);
}

/// JVP of every shape op: the op on the tangents.
struct LinearJVP {
  static LogicalResult jvp(Operation *op, OpBuilder &b, ValueRange tangents,
                           SmallVectorImpl<Value> &out) {
    return jvpByLinearity(op, b, tangents, out);
  }
};

/// Single-operand shape ops: `Adjoint::get(op, b, g)` is the adjoint of
/// `self` for a non-null result adjoint `g`.
template <typename OpT, typename Adjoint> struct UnaryShapeRule {
  static LogicalResult vjp(OpT op, OpBuilder &b, ValueRange adjoints,
                           SmallVectorImpl<Value> &out) {
    Value g = adjoints[0];
    Value self = op->getOperand(0);
    if (!g || !isFloatTensor(self)) {
      out.push_back(Value());
      return success();
    }
    out.push_back(castTo(b, op.getLoc(), Adjoint::get(op, b, g),
                         tensorType(self).getElementType()));
    return success();
  }
  static LogicalResult jvp(OpT op, OpBuilder &b, ValueRange tangents,
                           SmallVectorImpl<Value> &out) {
    return LinearJVP::jvp(op, b, tangents, out);
  }
};

/// Reshapes (view, reshape, squeeze, unsqueeze, ...): view the adjoint back.
struct ViewBack {
  static Value get(Operation *op, OpBuilder &b, Value g) {
    ArrayRef<int64_t> shape = tensorType(op->getOperand(0)).getShape();
    if (tensorType(g).getShape() == shape)
      return g;
    return ViewOp::create(b, op->getLoc(), g, shape);
  }
};

struct TBack {
  static Value get(TOp op, OpBuilder &b, Value g) {
    return TOp::create(b, op.getLoc(), g);
  }
};

struct TransposeBack {
  static Value get(TransposeOp op, OpBuilder &b, Value g) {
    return TransposeOp::create(b, op.getLoc(), g, op.getDim0(), op.getDim1());
  }
};

struct PermuteBack {
  static Value get(PermuteOp op, OpBuilder &b, Value g) {
    ArrayRef<int64_t> dims = op.getDims();
    int64_t rank = dims.size();
    SmallVector<int64_t> inverse(rank);
    for (int64_t i = 0; i < rank; ++i)
      inverse[*normalizeDim(dims[i], rank)] = i;
    return PermuteOp::create(b, op.getLoc(), g, inverse);
  }
};

/// expand: the broadcast dims are summed.
struct ExpandBack {
  static Value get(ExpandOp op, OpBuilder &b, Value g) {
    return sumToShape(b, op.getLoc(), g, tensorType(op.getSelf()));
  }
};

struct SliceBack {
  static Value get(SliceOp op, OpBuilder &b, Value g) {
    return SliceBackwardOp::create(b, op.getLoc(), g,
                                   tensorType(op.getSelf()).getShape(),
                                   op.getDim(), op.getStart(), op.getEnd(),
                                   op.getStep());
  }
};

struct SelectBack {
  static Value get(SelectOp op, OpBuilder &b, Value g) {
    return SelectBackwardOp::create(b, op.getLoc(), g,
                                    tensorType(op.getSelf()).getShape(),
                                    op.getDim(), op.getIndex());
  }
};

/// slice_backward and select_backward are linear in grad_output; their
/// transposes are slice and select.
struct SliceBackwardBack {
  static Value get(SliceBackwardOp op, OpBuilder &b, Value g) {
    return SliceOp::create(b, op.getLoc(), g, op.getDim(), op.getStart(),
                           op.getEnd(), op.getStep());
  }
};

struct SelectBackwardBack {
  static Value get(SelectBackwardOp op, OpBuilder &b, Value g) {
    return SelectOp::create(b, op.getLoc(), g, op.getDim(), op.getIndex());
  }
};

/// The adjoints of the results of split/split_with_sizes/unbind, zeros for
/// the null ones; empty when all are null.
SmallVector<Value> pieceAdjoints(Operation *op, OpBuilder &b,
                                 ValueRange adjoints) {
  if (llvm::none_of(adjoints, [](Value a) { return bool(a); }))
    return {};
  SmallVector<Value> pieces;
  for (auto [r, a] : llvm::zip(op->getResults(), adjoints))
    pieces.push_back(a ? a : zerosLike(b, op->getLoc(), r));
  return pieces;
}

/// split / split_with_sizes: the chunks are concatenated back.
template <typename OpT> struct SplitRule {
  static LogicalResult vjp(OpT op, OpBuilder &b, ValueRange adjoints,
                           SmallVectorImpl<Value> &out) {
    SmallVector<Value> pieces = pieceAdjoints(op, b, adjoints);
    if (pieces.empty() || !isFloatTensor(op.getSelf())) {
      out.push_back(Value());
      return success();
    }
    out.push_back(CatOp::create(b, op.getLoc(), pieces, op.getDim()));
    return success();
  }
  static LogicalResult jvp(OpT op, OpBuilder &b, ValueRange tangents,
                           SmallVectorImpl<Value> &out) {
    return LinearJVP::jvp(op, b, tangents, out);
  }
};

} // namespace

namespace mlir::tp::autodiff {

template <> struct Rule<TOp> : UnaryShapeRule<TOp, TBack> {};
template <>
struct Rule<TransposeOp> : UnaryShapeRule<TransposeOp, TransposeBack> {};
template <> struct Rule<PermuteOp> : UnaryShapeRule<PermuteOp, PermuteBack> {};
template <> struct Rule<ViewOp> : UnaryShapeRule<ViewOp, ViewBack> {};
template <> struct Rule<ReshapeOp> : UnaryShapeRule<ReshapeOp, ViewBack> {};
template <>
struct Rule<UnsafeViewOp> : UnaryShapeRule<UnsafeViewOp, ViewBack> {};
template <>
struct Rule<ReshapeAliasOp> : UnaryShapeRule<ReshapeAliasOp, ViewBack> {};
template <>
struct Rule<UnsqueezeOp> : UnaryShapeRule<UnsqueezeOp, ViewBack> {};
template <> struct Rule<SqueezeOp> : UnaryShapeRule<SqueezeOp, ViewBack> {};
template <> struct Rule<ExpandOp> : UnaryShapeRule<ExpandOp, ExpandBack> {};
template <> struct Rule<SliceOp> : UnaryShapeRule<SliceOp, SliceBack> {};
template <> struct Rule<SelectOp> : UnaryShapeRule<SelectOp, SelectBack> {};
template <>
struct Rule<SliceBackwardOp>
    : UnaryShapeRule<SliceBackwardOp, SliceBackwardBack> {};
template <>
struct Rule<SelectBackwardOp>
    : UnaryShapeRule<SelectBackwardOp, SelectBackwardBack> {};

template <> struct Rule<SplitOp> : SplitRule<SplitOp> {};
template <> struct Rule<SplitWithSizesOp> : SplitRule<SplitWithSizesOp> {};

/// unbind: the slices are stacked back along the removed dim.
template <> struct Rule<UnbindOp> {
  static LogicalResult vjp(UnbindOp op, OpBuilder &b, ValueRange adjoints,
                           SmallVectorImpl<Value> &out) {
    SmallVector<Value> pieces = pieceAdjoints(op, b, adjoints);
    if (pieces.empty() || !isFloatTensor(op.getSelf())) {
      out.push_back(Value());
      return success();
    }
    out.push_back(StackOp::create(b, op.getLoc(), pieces, op.getDim()));
    return success();
  }
  static LogicalResult jvp(UnbindOp op, OpBuilder &b, ValueRange tangents,
                           SmallVectorImpl<Value> &out) {
    return jvpByLinearity(op, b, tangents, out);
  }
};

/// cat: each input's adjoint is its slice of the result adjoint.
template <> struct Rule<CatOp> {
  static LogicalResult vjp(CatOp op, OpBuilder &b, ValueRange adjoints,
                           SmallVectorImpl<Value> &out) {
    Value g = adjoints[0];
    int64_t rank = tensorType(op.getResult()).getRank();
    int64_t dim = dimOf(op.getDim(), rank);
    int64_t offset = 0;
    for (Value t : op.getTensors()) {
      int64_t size = tensorType(t).getDimSize(dim);
      if (!g || !isFloatTensor(t)) {
        out.push_back(Value());
      } else {
        Value s = SliceOp::create(b, op.getLoc(), g, dim, offset,
                                  offset + size, 1);
        out.push_back(castTo(b, op.getLoc(), s, tensorType(t).getElementType()));
      }
      offset += size;
    }
    return success();
  }
  static LogicalResult jvp(CatOp op, OpBuilder &b, ValueRange tangents,
                           SmallVectorImpl<Value> &out) {
    return jvpByLinearity(op, b, tangents, out);
  }
};

/// stack: each input's adjoint is its index along the new dim.
template <> struct Rule<StackOp> {
  static LogicalResult vjp(StackOp op, OpBuilder &b, ValueRange adjoints,
                           SmallVectorImpl<Value> &out) {
    Value g = adjoints[0];
    int64_t rank = tensorType(op.getResult()).getRank();
    int64_t dim = dimOf(op.getDim(), rank);
    for (auto [i, t] : llvm::enumerate(op.getTensors())) {
      if (!g || !isFloatTensor(t)) {
        out.push_back(Value());
        continue;
      }
      Value s = SelectOp::create(b, op.getLoc(), g, dim, i);
      out.push_back(castTo(b, op.getLoc(), s, tensorType(t).getElementType()));
    }
    return success();
  }
  static LogicalResult jvp(StackOp op, OpBuilder &b, ValueRange tangents,
                           SmallVectorImpl<Value> &out) {
    return jvpByLinearity(op, b, tangents, out);
  }
};

/// Most terms windowsTranspose adds (one per combination of the indices of
/// the view dims it enumerates): a 3 x 3 x 3 kernel is 27.
static constexpr int64_t kMaxWindowTerms = 64;

/// The transpose of an as_strided window view (WindowView.h: the windows
/// of unfold and im2col), or a null value for other views. Per source dim, one view dim (the last
/// mapping to it) stays and the others are enumerated: for each
/// combination of their indices, the adjoint selected there is embedded at
/// the strided positions it was read from (slice_backward), and the terms
/// add. Every element of the result then sums at most kMaxWindowTerms
/// reads, with no scatter (col2im as a gather).
static Value windowsTranspose(AsStridedOp op, OpBuilder &b, Value g) {
  Location loc = op.getLoc();
  ArrayRef<int64_t> shape = tensorType(op.getSelf()).getShape();
  ArrayRef<int64_t> size = op.getSize(), stride = op.getStride();
  std::optional<WindowView> view = decomposeWindowView(
      shape, size, stride, static_cast<int64_t>(op.getStorageOffset()));
  if (!view)
    return Value();
  // A broadcast view dim (stride 0) would need its adjoint summed.
  for (auto [n, t] : llvm::zip(size, stride))
    if (n > 1 && t == 0)
      return Value();
  ArrayRef<int64_t> dimOf = view->sourceDim, coef = view->step,
                    digit = view->start;
  // The view dim that stays for each source dim: its last one.
  SmallVector<int64_t> kept(shape.size(), -1);
  for (size_t j = 0; j < size.size(); ++j)
    if (dimOf[j] >= 0)
      kept[dimOf[j]] = static_cast<int64_t>(j);
  SmallVector<size_t> enumerated;
  int64_t terms = 1;
  for (size_t j = 0; j < size.size(); ++j)
    if (dimOf[j] >= 0 && kept[dimOf[j]] != static_cast<int64_t>(j)) {
      enumerated.push_back(j);
      terms *= size[j];
    }
  if (terms > kMaxWindowTerms)
    return Value();
  // The kept dims in view order, then the permutation to source order.
  SmallVector<int64_t> keptSources;
  for (size_t j = 0; j < size.size(); ++j)
    if (dimOf[j] >= 0 && kept[dimOf[j]] == static_cast<int64_t>(j))
      keptSources.push_back(dimOf[j]);
  SmallVector<int64_t> perm(keptSources.size());
  std::iota(perm.begin(), perm.end(), 0);
  llvm::sort(perm, [&](int64_t a, int64_t c) {
    return keptSources[a] < keptSources[c];
  });
  SmallVector<int64_t> index(size.size(), 0);
  Value sum;
  for (int64_t term = 0; term < terms; ++term) {
    Value t = g;
    for (size_t j = size.size(); j-- > 0;)
      if (dimOf[j] < 0 || kept[dimOf[j]] != static_cast<int64_t>(j))
        t = SelectOp::create(b, loc, t, j, index[j]);
    if (!llvm::equal(perm, llvm::seq<int64_t>(0, perm.size())))
      t = PermuteOp::create(b, loc, t, perm);
    // Source dims no view dim steps along: one element at the offset's.
    for (size_t d = 0; d < shape.size(); ++d)
      if (kept[d] < 0)
        t = UnsqueezeOp::create(b, loc, t, d);
    SmallVector<int64_t> extent(tensorType(t).getShape());
    for (size_t d = 0; d < shape.size(); ++d) {
      int64_t start = digit[d], step = 1;
      if (kept[d] >= 0) {
        step = coef[kept[d]];
        for (size_t j : enumerated)
          if (dimOf[j] == static_cast<int64_t>(d))
            start += coef[j] * index[j];
      }
      int64_t end = start + step * (extent[d] - 1) + 1;
      extent[d] = shape[d];
      if (start == 0 && step == 1 && end == shape[d])
        continue;
      t = SliceBackwardOp::create(b, loc, t, extent, d, start, end, step);
    }
    sum = sum ? add(b, loc, sum, t) : t;
    // The next combination of the enumerated indices (odometer).
    for (size_t k = enumerated.size(); k-- > 0;) {
      size_t j = enumerated[k];
      if (++index[j] < size[j])
        break;
      index[j] = 0;
    }
  }
  return sum;
}

/// as_strided reads self's row-major storage at offset + idx . stride.
/// Windows (unfold, im2col) transpose to a sum of embedded slices
/// (windowsTranspose); any other view, with static shapes, has constant
/// positions, so its transpose is an accumulating index_put into the
/// flattened zeros (overlapping views add).
template <> struct Rule<AsStridedOp> {
  static LogicalResult vjp(AsStridedOp op, OpBuilder &b, ValueRange adjoints,
                           SmallVectorImpl<Value> &out) {
    Location loc = op.getLoc();
    Value g = adjoints[0], self = op.getSelf();
    RankedTensorType st = tensorType(self), rt = tensorType(op.getResult());
    int64_t n = rt.getNumElements();
    if (!g || !isFloatTensor(self) || n == 0) {
      out.push_back(Value());
      return success();
    }
    if (Value windows = windowsTranspose(op, b, g)) {
      out.push_back(castTo(b, loc, windows, st.getElementType()));
      return success();
    }
    ArrayRef<int64_t> size = op.getSize(), stride = op.getStride();
    SmallVector<int64_t> positions;
    positions.reserve(n);
    SmallVector<int64_t> idx(size.size(), 0);
    for (int64_t k = 0; k < n; ++k) {
      int64_t p = static_cast<int64_t>(op.getStorageOffset());
      for (size_t d = 0; d < size.size(); ++d)
        p += idx[d] * stride[d];
      positions.push_back(p);
      for (int64_t d = static_cast<int64_t>(size.size()) - 1; d >= 0; --d) {
        if (++idx[d] < size[d])
          break;
        idx[d] = 0;
      }
    }
    auto indexType = RankedTensorType::get({n}, b.getI64Type());
    Value index = ConstantOp::create(
        b, loc, DenseIntElementsAttr::get(indexType, ArrayRef<int64_t>(positions)));
    Value flat = ViewOp::create(b, loc, g, ArrayRef<int64_t>{n});
    Value zeros = full(b, loc,
                       RankedTensorType::get({st.getNumElements()},
                                             tensorType(g).getElementType()),
                       0.0);
    Value r = IndexPutOp::create(b, loc, zeros, ValueRange{index}, flat,
                                 ArrayRef<int64_t>{0}, true);
    r = ViewOp::create(b, loc, r, st.getShape());
    out.push_back(castTo(b, loc, r, st.getElementType()));
    return success();
  }
  static LogicalResult jvp(AsStridedOp op, OpBuilder &b, ValueRange tangents,
                           SmallVectorImpl<Value> &out) {
    return jvpByLinearity(op, b, tangents, out);
  }
};

} // namespace mlir::tp::autodiff

void autodiff::attachShapeRules(MLIRContext *ctx) {
  attachRules<TOp, TransposeOp, PermuteOp, ViewOp, ReshapeOp, UnsafeViewOp,
              ReshapeAliasOp, UnsqueezeOp, SqueezeOp, ExpandOp, SliceOp,
              SelectOp, SliceBackwardOp, SelectBackwardOp, SplitOp,
              SplitWithSizesOp, UnbindOp, CatOp, StackOp, AsStridedOp>(ctx);
}
