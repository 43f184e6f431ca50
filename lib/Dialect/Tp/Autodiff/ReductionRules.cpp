//===- ReductionRules.cpp - derivatives of reductions ---------------------===//
//
// A reduction's VJP restores the reduced dims of the adjoint (size 1, then
// broadcasting) and multiplies it by the partial derivative of the result
// with respect to each input element; its JVP sums the tangent times that
// partial over the reduced dims. Composite reductions (logsumexp, var) and
// prod write their partials in primitive ops, so that the derivatives can be
// differentiated again. The ops that select values (max.dim, min.dim, sort)
// scatter the adjoint to their indices and gather the tangent from them.
//
//===----------------------------------------------------------------------===//

#include "RuleUtils.h"
#include "Stax/Dialect/Tp/IR/TypeInference.h"

using namespace mlir;
using namespace mlir::tp;
using namespace mlir::tp::autodiff;

namespace {

/// Which dims of a rank-`rank` input a reduction over `dims` (all when
/// empty) reduces.
SmallVector<bool> reducedDims(ArrayRef<int64_t> dims, int64_t rank) {
  SmallVector<bool> reduced(rank, dims.empty());
  for (int64_t d : dims)
    if (auto nd = normalizeDim(d, rank); nd && *nd < rank)
      reduced[*nd] = true;
  return reduced;
}

/// The shape of the result with keepdim: reduced dims become 1.
SmallVector<int64_t> keptShape(RankedTensorType in, ArrayRef<int64_t> dims) {
  SmallVector<bool> reduced = reducedDims(dims, in.getRank());
  SmallVector<int64_t> kept;
  for (int64_t i = 0; i < in.getRank(); ++i)
    kept.push_back(reduced[i] ? 1 : in.getDimSize(i));
  return kept;
}

/// The number of elements each result element reduces.
int64_t reducedCount(RankedTensorType in, ArrayRef<int64_t> dims) {
  SmallVector<bool> reduced = reducedDims(dims, in.getRank());
  int64_t n = 1;
  for (int64_t i = 0; i < in.getRank(); ++i)
    if (reduced[i])
      n *= in.getDimSize(i);
  return n;
}

/// `v` (of the result's shape) with the reduced dims restored as size-1
/// dims, so that it broadcasts against the input. Null stays null.
Value keepDims(OpBuilder &b, Location loc, Value v, RankedTensorType in,
               ArrayRef<int64_t> dims) {
  if (!v)
    return v;
  SmallVector<int64_t> kept = keptShape(in, dims);
  if (tensorType(v).getShape() == ArrayRef<int64_t>(kept))
    return v;
  return ViewOp::create(b, loc, v, b.getDenseI64ArrayAttr(kept));
}

/// True when the reduced dims are exactly the first k dims of the input.
bool reducesLeadingDims(RankedTensorType in, ArrayRef<int64_t> dims) {
  if (dims.empty())
    return true;
  SmallVector<bool> reduced(in.getRank(), false);
  for (int64_t d : dims)
    reduced[*normalizeDim(d, in.getRank())] = true;
  unsigned k = 0;
  while (k < reduced.size() && reduced[k])
    ++k;
  return llvm::none_of(ArrayRef<bool>(reduced).drop_front(k),
                       [](bool r) { return r; });
}

/// Common skeleton of reductions with one input and one result whose
/// derivative is `partial` (a tensor broadcasting to the input's shape,
/// built lazily): VJP = restore(adjoint) * partial, JVP = sum(tangent *
/// partial) over the reduced dims.
template <typename OpT, typename PartialFn>
LogicalResult reductionVJP(OpT op, OpBuilder &b, Value g,
                           ArrayRef<int64_t> dims, bool keepdim,
                           PartialFn partial, SmallVectorImpl<Value> &out) {
  if (!g || !isFloatTensor(op.getSelf()) || !isFloatTensor(op.getResult())) {
    out.push_back(Value());
    return success();
  }
  Location loc = op.getLoc();
  RankedTensorType in = tensorType(op.getSelf());
  Value gk = keepdim ? g : keepDims(b, loc, g, in, dims);
  Value r = mul(b, loc, gk, partial());
  r = broadcastTo(b, loc, r, in.getShape());
  out.push_back(castTo(b, loc, r, in.getElementType()));
  return success();
}

template <typename OpT, typename PartialFn>
LogicalResult reductionJVP(OpT op, OpBuilder &b, Value t,
                           ArrayRef<int64_t> dims, bool keepdim,
                           PartialFn partial, SmallVectorImpl<Value> &out) {
  if (!t || !isFloatTensor(op.getSelf()) || !isFloatTensor(op.getResult())) {
    out.push_back(Value());
    return success();
  }
  Location loc = op.getLoc();
  RankedTensorType rt = tensorType(op.getResult());
  Value p = mul(b, loc, t, partial());
  Value s = SumOp::create(b, loc, p, dims, keepdim, TypeAttr());
  out.push_back(castTo(b, loc, s, rt.getElementType()));
  return success();
}

/// The result, viewed with the reduced dims kept.
template <typename OpT> Value keptResult(OpT op, OpBuilder &b) {
  if (op.getKeepdim())
    return op.getResult();
  return keepDims(b, op.getLoc(), op.getResult(), tensorType(op.getSelf()),
                  op.getDims());
}

} // namespace

/// The rules of a reduction with one input and one result given by its
/// partial derivative: `Derived::partial(op, b)` returns d result / d input
/// as a tensor broadcasting to the input.
template <typename Derived, typename OpT> struct PartialReductionRule {
  static LogicalResult vjp(OpT op, OpBuilder &b, ValueRange adjoints,
                           SmallVectorImpl<Value> &out) {
    return reductionVJP(
        op, b, adjoints[0], op.getDims(), op.getKeepdim(),
        [&] { return Derived::partial(op, b); }, out);
  }
  static LogicalResult jvp(OpT op, OpBuilder &b, ValueRange tangents,
                           SmallVectorImpl<Value> &out) {
    return reductionJVP(
        op, b, tangents[0], op.getDims(), op.getKeepdim(),
        [&] { return Derived::partial(op, b); }, out);
  }
};

namespace mlir::tp::autodiff {
/// sum is linear: its VJP broadcasts the adjoint back over the reduced dims
/// (unsqueeze them when keepdim is false, then expand), its JVP is the sum
/// of the tangent.
template <> struct Rule<SumOp> {
  static LogicalResult vjp(SumOp op, OpBuilder &b, ValueRange adjoints,
                           SmallVectorImpl<Value> &out) {
    Value g = adjoints[0];
    if (!g || !isFloatTensor(op.getSelf())) {
      out.push_back(Value());
      return success();
    }
    Location loc = op.getLoc();
    RankedTensorType in = tensorType(op.getSelf());
    // The reduced dims become size 1 again, unless they are leading dims:
    // expand adds those back itself (a full sum expands the 0-d adjoint
    // directly, as in Listing 5.2).
    if (!op.getKeepdim() && !reducesLeadingDims(in, op.getDims()))
      g = keepDims(b, loc, g, in, op.getDims());
    g = castTo(b, loc, g, in.getElementType());
    out.push_back(broadcastTo(b, loc, g, in.getShape()));
    return success();
  }
  static LogicalResult jvp(SumOp op, OpBuilder &b, ValueRange tangents,
                           SmallVectorImpl<Value> &out) {
    return jvpByLinearity(op, b, tangents, out);
  }
};

/// mean: the adjoint restored, divided by the count; linear.
template <> struct Rule<MeanOp> {
  static LogicalResult vjp(MeanOp op, OpBuilder &b, ValueRange adjoints,
                           SmallVectorImpl<Value> &out) {
    Value g = adjoints[0];
    if (!g || !isFloatTensor(op.getSelf())) {
      out.push_back(Value());
      return success();
    }
    Location loc = op.getLoc();
    RankedTensorType in = tensorType(op.getSelf());
    Value gk = op.getKeepdim() ? g : keepDims(b, loc, g, in, op.getDims());
    gk = castTo(b, loc, gk, in.getElementType());
    Value r = broadcastTo(b, loc, gk, in.getShape());
    double n = static_cast<double>(reducedCount(in, op.getDims()));
    out.push_back(DivScalarOp::create(b, loc, r, f64Attr(b, n), RoundingModeAttr()));
    return success();
  }
  static LogicalResult jvp(MeanOp op, OpBuilder &b, ValueRange tangents,
                           SmallVectorImpl<Value> &out) {
    return jvpByLinearity(op, b, tangents, out);
  }
};

/// prod: the product of the other elements. Without zeros that is
/// result / x; with one zero in a group, the zero's partial is the product
/// of the nonzeros and the others' are 0; with more zeros all are 0
/// (eager's prod_backward). Divisions read x with zeros replaced by 1 so
/// that no unselected branch is inf or NaN.
template <> struct Rule<ProdOp>
    : PartialReductionRule<Rule<ProdOp>, ProdOp> {
  static Value partial(ProdOp op, OpBuilder &b) {
    Location loc = op.getLoc();
    Value x = op.getSelf();
    Type elt = tensorType(op.getResult()).getElementType();
    x = castTo(b, loc, x, elt);
    TypedAttr zero = f64Attr(b, 0.0);
    Value isZero = EqScalarOp::create(b, loc, x, zero);
    Value xSafe =
        MaskedFillScalarOp::create(b, loc, x, isZero, f64Attr(b, 1.0));
    Value prodNonzero =
        ProdOp::create(b, loc, xSafe, op.getDims(), true, TypeAttr());
    Value zeros = SumOp::create(b, loc, castTo(b, loc, isZero, elt),
                                op.getDims(), true, TypeAttr());
    Value atZero = MaskedFillScalarOp::create(
        b, loc, prodNonzero, NeScalarOp::create(b, loc, zeros, f64Attr(b, 1.0)),
        zero);
    Value elsewhere = div(b, loc, keptResult(op, b), xSafe);
    return WhereOp::create(b, loc, isZero, atZero, elsewhere);
  }
};

/// amax/amin: the gradient is distributed evenly among the elements equal
/// to the extremum (eager's convention for ties); a NaN extremum equals no
/// element, and every partial is NaN (0 / 0), as eager's amax. With
/// nan_selects_nans (max()/min() without a dim) the NaN elements share it,
/// as eager's evenly_distribute_backward.
template <typename OpT>
struct ExtremumReductionRule
    : PartialReductionRule<ExtremumReductionRule<OpT>, OpT> {
  static Value partial(OpT op, OpBuilder &b) {
    Location loc = op.getLoc();
    Type elt = tensorType(op.getResult()).getElementType();
    Value x = op.getSelf(), r = keptResult(op, b);
    Value selected = EqOp::create(b, loc, x, r);
    if (op.getNanSelectsNans()) {
      // One statement per op: the IR's order must not depend on the
      // compiler's order of evaluating arguments.
      Value nanX = IsnanOp::create(b, loc, x);
      Value nanR = IsnanOp::create(b, loc, r);
      Value bothNan = LogicalAndOp::create(b, loc, nanX, nanR);
      selected = LogicalOrOp::create(b, loc, selected, bothNan);
    }
    Value mask = castTo(b, loc, selected, elt);
    Value count = SumOp::create(b, loc, mask, op.getDims(), true, TypeAttr());
    return div(b, loc, mask, count);
  }
};
template <> struct Rule<AmaxOp> : ExtremumReductionRule<AmaxOp> {};
template <> struct Rule<AminOp> : ExtremumReductionRule<AminOp> {};

/// logsumexp: the partial is softmax, exp(x - result).
template <> struct Rule<LogsumexpOp>
    : PartialReductionRule<Rule<LogsumexpOp>, LogsumexpOp> {
  static Value partial(LogsumexpOp op, OpBuilder &b) {
    Location loc = op.getLoc();
    return ExpOp::create(b, loc, sub(b, loc, op.getSelf(), keptResult(op, b)));
  }
};

/// var: 2 / (N - correction) * (x - mean(x)) (eager's var_backward).
template <> struct Rule<VarOp>
    : PartialReductionRule<Rule<VarOp>, VarOp> {
  static Value partial(VarOp op, OpBuilder &b) {
    Location loc = op.getLoc();
    Value x = op.getSelf();
    RankedTensorType in = tensorType(x);
    double n = static_cast<double>(reducedCount(in, op.getDims()));
    double divisor = std::max(0.0, n - op.getCorrection().convertToDouble());
    Value mean = MeanOp::create(b, loc, x, op.getDims(), true, TypeAttr());
    return mulScalar(b, loc, sub(b, loc, x, mean), 2.0 / divisor);
  }
};

/// `g` (broadcast along `dim`) where the position along `dim` equals `idx`,
/// zero elsewhere: the values of scattering `g` into zeros at `idx`, but as
/// one pointwise select that fuses into its consumers and vectorizes,
/// instead of a zero fill plus a scalar scatter loop (a max pool's
/// gradient is this over its windows).
static Value selectAtIndices(OpBuilder &b, Location loc, Value g, Value idx,
                             RankedTensorType in, int64_t dim) {
  int64_t size = in.getDimSize(dim);
  auto i64 = b.getI64Type();
  Value positions = ArangeOp::create(
      b, loc, RankedTensorType::get({size}, i64), b.getI64IntegerAttr(0),
      b.getI64IntegerAttr(size), b.getI64IntegerAttr(1));
  SmallVector<int64_t> along(in.getRank(), 1);
  along[dim] = size;
  positions = ViewOp::create(b, loc, positions, b.getDenseI64ArrayAttr(along));
  Value elsewhere = NeOp::create(b, loc, positions, idx);
  return MaskedFillScalarOp::create(b, loc,
                                    broadcastTo(b, loc, g, in.getShape()),
                                    elsewhere, f64Attr(b, 0.0));
}

/// max.dim/min.dim: the values' adjoint goes to the returned indices
/// (selected where the position is the index); the tangent is gathered
/// from them. The indices carry no derivative.
template <typename OpT> struct ValueIndexRule {
  static LogicalResult vjp(OpT op, OpBuilder &b, ValueRange adjoints,
                           SmallVectorImpl<Value> &out) {
    Value g = adjoints[0];
    if (!g || !isFloatTensor(op.getSelf())) {
      out.push_back(Value());
      return success();
    }
    Location loc = op.getLoc();
    RankedTensorType in = tensorType(op.getSelf());
    int64_t dim = static_cast<int64_t>(op.getDim());
    SmallVector<int64_t> dims{dim};
    Value gk = op.getKeepdim() ? g : keepDims(b, loc, g, in, dims);
    Value idx = op.getKeepdim() ? op.getIndices()
                                : keepDims(b, loc, op.getIndices(), in, dims);
    if (in.getRank() == 0) { // a 0-d input is its own maximum
      out.push_back(gk);
      return success();
    }
    out.push_back(
        selectAtIndices(b, loc, gk, idx, in, *normalizeDim(dim, in.getRank())));
    return success();
  }
  static LogicalResult jvp(OpT op, OpBuilder &b, ValueRange tangents,
                           SmallVectorImpl<Value> &out) {
    Value t = tangents[0];
    if (!t || !isFloatTensor(op.getSelf())) {
      out.push_back(Value());
      out.push_back(Value());
      return success();
    }
    Location loc = op.getLoc();
    RankedTensorType in = tensorType(op.getSelf());
    RankedTensorType vt = tensorType(op.getValues());
    if (in.getRank() == 0) {
      out.push_back(t);
      out.push_back(Value());
      return success();
    }
    int64_t dim = static_cast<int64_t>(op.getDim());
    SmallVector<int64_t> dims{dim};
    Value idx = op.getKeepdim() ? op.getIndices()
                                : keepDims(b, loc, op.getIndices(), in, dims);
    Value r =
        GatherOp::create(b, loc, t, idx, *normalizeDim(dim, in.getRank()));
    if (tensorType(r).getShape() != vt.getShape())
      r = ViewOp::create(b, loc, r, b.getDenseI64ArrayAttr(vt.getShape()));
    out.push_back(r);
    out.push_back(Value());
    return success();
  }
};
template <> struct Rule<MaxDimOp> : ValueIndexRule<MaxDimOp> {};
template <> struct Rule<MinDimOp> : ValueIndexRule<MinDimOp> {};

/// sort and topk: the values are elements of self at distinct positions
/// along dim, so the values' adjoint is scattered back to the returned
/// indices (each position is written once: eager's
/// value_selecting_reduction_backward), and the tangent is gathered from
/// them. A 0-d self is its own result. The indices carry no derivative.
template <> struct Rule<SortOp> : TakenAlongDimRule<SortOp, ScatterOp> {};
template <> struct Rule<TopkOp> : TakenAlongDimRule<TopkOp, ScatterOp> {};
} // namespace mlir::tp::autodiff

void autodiff::attachReductionRules(MLIRContext *ctx) {
  attachRules<SumOp, MeanOp, ProdOp, AmaxOp, AminOp, LogsumexpOp, VarOp,
              MaxDimOp, MinDimOp, SortOp, TopkOp>(ctx);
}
