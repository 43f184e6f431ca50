//===- IndexingRules.cpp - derivatives of gathers and scatters ------------===//
//
// All these ops are linear in their float operands (the indices only route
// values), so their JVPs are the ops on the tangents (jvpByLinearity). The
// VJP of a read (index, index_select, gather, embedding) accumulates the
// adjoint into zeros at the read positions; the VJP of a write (index_put,
// scatter, scatter_add) reads the adjoint at the written positions for the
// written values and, unless the write accumulates, zeroes those positions in
// the adjoint of the destination. Integer operands get no adjoints.
//
//===----------------------------------------------------------------------===//

#include "RuleUtils.h"
#include "Stax/Dialect/Tp/IR/TypeInference.h"

using namespace mlir;
using namespace mlir::tp;
using namespace mlir::tp::autodiff;

namespace {

Value zeroScalar(OpBuilder &b, Location loc, Type elt) {
  return full(b, loc, RankedTensorType::get({}, elt), 0.0);
}

/// Pads `v` with zeros at the end of each dim up to `shape` (gather reads a
/// prefix of src when index is smaller than it).
Value padTo(OpBuilder &b, Location loc, Value v, ArrayRef<int64_t> shape) {
  for (int64_t d = 0, e = shape.size(); d < e; ++d) {
    ArrayRef<int64_t> cur = tensorType(v).getShape();
    if (cur[d] == shape[d])
      continue;
    SmallVector<int64_t> sizes(cur);
    sizes[d] = shape[d];
    v = SliceBackwardOp::create(b, loc, v, sizes, d, 0, cur[d], 1);
  }
  return v;
}

/// Zeroes the rows of `v` ([..., D], one row per index) whose index is
/// `paddingIdx` (no-op when it is negative).
Value maskPadding(OpBuilder &b, Location loc, Value v, Value indices,
                  int64_t paddingIdx) {
  if (paddingIdx < 0)
    return v;
  Value keep = NeScalarOp::create(b, loc, indices,
                                  getIntScalar(b.getContext(), paddingIdx));
  SmallVector<int64_t> shape(tensorType(indices).getShape());
  shape.push_back(1);
  keep = ViewOp::create(b, loc, keep, shape);
  return mul(b, loc, v, castTo(b, loc, keep, tensorType(v).getElementType()));
}

template <typename OpT> struct LinearRule {
  static LogicalResult jvp(OpT op, OpBuilder &b, ValueRange tangents,
                           SmallVectorImpl<Value> &out) {
    return jvpByLinearity(op, b, tangents, out);
  }
};

/// a scatter's src adjoint: the adjoint read at the written positions,
/// zero-padded to src's shape.
Value scatteredSourceAdjoint(OpBuilder &b, Location loc, Value g, Value index,
                             uint64_t dim, Value src) {
  if (!g || !isFloatTensor(src))
    return Value();
  Value r = GatherOp::create(b, loc, g, index, dim);
  r = padTo(b, loc, r, tensorType(src).getShape());
  return castTo(b, loc, r, tensorType(src).getElementType());
}

} // namespace

namespace mlir::tp::autodiff {

/// index: accumulate the adjoint into zeros at the indexed positions.
template <> struct Rule<IndexOp> : LinearRule<IndexOp> {
  static LogicalResult vjp(IndexOp op, OpBuilder &b, ValueRange adjoints,
                           SmallVectorImpl<Value> &out) {
    Value g = adjoints[0];
    Value self = op.getSelf();
    Value gs;
    if (g && isFloatTensor(self))
      gs = IndexPutOp::create(b, op.getLoc(), zerosLike(b, op.getLoc(), self),
                              op.getIndices(), g, op.getDimsAttr(),
                              b.getBoolAttr(true));
    out.push_back(gs);
    out.append(op.getIndices().size(), Value());
    return success();
  }
};

/// index_put: the values' adjoint is the adjoint read at the indexed
/// positions (summed over broadcasting); self's is the adjoint with those
/// positions zeroed, or the adjoint itself when accumulating.
template <> struct Rule<IndexPutOp> : LinearRule<IndexPutOp> {
  static LogicalResult vjp(IndexPutOp op, OpBuilder &b, ValueRange adjoints,
                           SmallVectorImpl<Value> &out) {
    Location loc = op.getLoc();
    Value g = adjoints[0];
    Value self = op.getSelf(), values = op.getValues();
    Value gs, gv;
    if (g && isFloatTensor(self))
      gs = op.getAccumulate()
               ? g
               : Value(IndexPutOp::create(
                     b, loc, g, op.getIndices(),
                     zeroScalar(b, loc, tensorType(g).getElementType()),
                     op.getDimsAttr(), b.getBoolAttr(false)));
    if (g && isFloatTensor(values))
      gv = sumToShape(b, loc,
                      IndexOp::create(b, loc, g, op.getIndices(), op.getDimsAttr()),
                      tensorType(values));
    out.push_back(gs);
    out.append(op.getIndices().size(), Value());
    out.push_back(gv);
    return success();
  }
};

/// index_select: accumulate into zeros along `dim` (index_put with the one
/// index at that dim).
template <> struct Rule<IndexSelectOp> : LinearRule<IndexSelectOp> {
  static LogicalResult vjp(IndexSelectOp op, OpBuilder &b, ValueRange adjoints,
                           SmallVectorImpl<Value> &out) {
    Location loc = op.getLoc();
    Value g = adjoints[0], self = op.getSelf(), index = op.getIndex();
    Value gs;
    if (g && isFloatTensor(self)) {
      RankedTensorType st = tensorType(self);
      if (st.getRank() == 0) {
        // A 0-d result is self itself (the one index is 0).
        gs = sumToShape(b, loc, g, st);
      } else {
        if (tensorType(index).getRank() == 0)
          index = ViewOp::create(b, loc, index, ArrayRef<int64_t>{1});
        int64_t dim = *normalizeDim(static_cast<int64_t>(op.getDim()), st.getRank());
        gs = IndexPutOp::create(b, loc, zerosLike(b, loc, self), ValueRange{index},
                                g, ArrayRef<int64_t>{dim}, true);
      }
    }
    out.push_back(gs);
    out.push_back(Value());
    return success();
  }
};

/// gather: scatter_add the adjoint into zeros.
template <> struct Rule<GatherOp> : LinearRule<GatherOp> {
  static LogicalResult vjp(GatherOp op, OpBuilder &b, ValueRange adjoints,
                           SmallVectorImpl<Value> &out) {
    Location loc = op.getLoc();
    Value g = adjoints[0], self = op.getSelf();
    Value gs;
    if (g && isFloatTensor(self))
      gs = ScatterAddOp::create(b, loc, zerosLike(b, loc, self), op.getIndex(),
                                g, op.getDim());
    out.push_back(gs);
    out.push_back(Value());
    return success();
  }
};

/// scatter: self's adjoint has the written positions zeroed; src's is the
/// adjoint gathered at them.
template <> struct Rule<ScatterOp> : LinearRule<ScatterOp> {
  static LogicalResult vjp(ScatterOp op, OpBuilder &b, ValueRange adjoints,
                           SmallVectorImpl<Value> &out) {
    Location loc = op.getLoc();
    Value g = adjoints[0], self = op.getSelf(), src = op.getSrc();
    Value gs;
    if (g && isFloatTensor(self))
      gs = ScatterOp::create(b, loc, g, op.getIndex(), zerosLike(b, loc, src),
                             op.getDim());
    out.push_back(gs);
    out.push_back(Value());
    out.push_back(scatteredSourceAdjoint(b, loc, g, op.getIndex(), op.getDim(), src));
    return success();
  }
};

/// scatter_add: self's adjoint is the adjoint; src's is gathered.
template <> struct Rule<ScatterAddOp> : LinearRule<ScatterAddOp> {
  static LogicalResult vjp(ScatterAddOp op, OpBuilder &b, ValueRange adjoints,
                           SmallVectorImpl<Value> &out) {
    Location loc = op.getLoc();
    Value g = adjoints[0], self = op.getSelf(), src = op.getSrc();
    out.push_back(g && isFloatTensor(self) ? g : Value());
    out.push_back(Value());
    out.push_back(scatteredSourceAdjoint(b, loc, g, op.getIndex(), op.getDim(), src));
    return success();
  }
};

/// embedding: eager's embedding_dense_backward (rows at padding_idx get no
/// gradient). The JVP zeroes those rows too, so that it is the transpose of
/// the VJP.
template <> struct Rule<EmbeddingOp> {
  static LogicalResult vjp(EmbeddingOp op, OpBuilder &b, ValueRange adjoints,
                           SmallVectorImpl<Value> &out) {
    Location loc = op.getLoc();
    Value g = adjoints[0], w = op.getWeight();
    Value gw;
    if (g && isFloatTensor(w))
      gw = castTo(b, loc,
                  EmbeddingDenseBackwardOp::create(
                      b, loc, g, op.getIndices(), tensorType(w).getDimSize(0),
                      op.getPaddingIdx(), false),
                  tensorType(w).getElementType());
    out.push_back(gw);
    out.push_back(Value());
    return success();
  }
  static LogicalResult jvp(EmbeddingOp op, OpBuilder &b, ValueRange tangents,
                           SmallVectorImpl<Value> &out) {
    Location loc = op.getLoc();
    Value dw = tangents[0];
    if (!dw || !isFloatTensor(op.getResult())) {
      out.push_back(Value());
      return success();
    }
    Value t = EmbeddingOp::create(b, loc, dw, op.getIndices(), op.getPaddingIdx());
    out.push_back(maskPadding(b, loc, t, op.getIndices(),
                              static_cast<int64_t>(op.getPaddingIdx())));
    return success();
  }
};

/// embedding_dense_backward is linear in grad_output: its transpose reads
/// the adjoint's rows at the indices (zero at padding_idx, divided by the
/// index frequency when scale_grad_by_freq).
template <> struct Rule<EmbeddingDenseBackwardOp>
    : LinearRule<EmbeddingDenseBackwardOp> {
  static LogicalResult vjp(EmbeddingDenseBackwardOp op, OpBuilder &b,
                           ValueRange adjoints, SmallVectorImpl<Value> &out) {
    Location loc = op.getLoc();
    Value u = adjoints[0], go = op.getGradOutput(), indices = op.getIndices();
    Value gg;
    if (u && isFloatTensor(go)) {
      gg = EmbeddingOp::create(b, loc, u, indices, -1);
      if (op.getScaleGradByFreq()) {
        // counts[r] = occurrences of r among the indices.
        SmallVector<int64_t> shape(tensorType(indices).getShape());
        shape.push_back(1);
        Type elt = tensorType(u).getElementType();
        Value ones = full(b, loc, RankedTensorType::get(shape, elt), 1.0);
        Value counts = EmbeddingDenseBackwardOp::create(
            b, loc, ones, indices, op.getNumWeights(), -1, false);
        gg = div(b, loc, gg, EmbeddingOp::create(b, loc, counts, indices, -1));
      }
      gg = maskPadding(b, loc, gg, indices,
                       static_cast<int64_t>(op.getPaddingIdx()));
      gg = castTo(b, loc, gg, tensorType(go).getElementType());
    }
    out.push_back(gg);
    out.push_back(Value());
    return success();
  }
};

} // namespace mlir::tp::autodiff

void autodiff::attachIndexingRules(MLIRContext *ctx) {
  attachRules<IndexOp, IndexPutOp, IndexSelectOp, GatherOp, ScatterOp,
              ScatterAddOp, EmbeddingOp, EmbeddingDenseBackwardOp>(ctx);
}
