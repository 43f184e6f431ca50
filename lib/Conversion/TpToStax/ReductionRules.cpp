//===- ReductionRules.cpp - sum, prod, amax, amin, any, all, argmax -------===//
//
// A reduction becomes a `stax.reduction` whose body loads its (composed)
// input at the output indices and the reduction indices: a pointwise chain
// followed by a reduction is one node (Listing 6.2). The reduced dims are
// visited in lexicographic order, as the reference kernels do. mean, var and
// logsumexp arrive decomposed (--stax-decompose).
//
//===----------------------------------------------------------------------===//
#include "Lowering.h"
#include "Stax/Dialect/Tp/IR/TpOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace mlir::stax;
using namespace mlir::stax::lowering;
namespace tp = mlir::tp;

namespace {

using Result = RuleResult;

/// Which input dims a reduction over `dims` (empty: all) combines.
SmallVector<bool> reducedDims(ArrayRef<int64_t> dims, int64_t rank) {
  SmallVector<bool> mask(rank, dims.empty());
  for (int64_t d : dims)
    if (auto n = tp::normalizeDim(d, rank))
      mask[*n] = true;
  return mask;
}

/// A 0-d operand as a one-element vector. PyTorch reduces a 0-d tensor
/// over "dim 0" (or all dims) as over one element, starting from the
/// identity (sum(-0.) is +0.); the result stays 0-d whatever `keepdim`
/// says, which reducing the vector's only dim without keepdim gives.
NodePtr asOneElement(const NodePtr &x) {
  auto type = RankedTensorType::get({1}, x->type.getElementType());
  return std::make_shared<ViewNode>(
      type, x, [](ArrayRef<AffineExpr>) { return SmallVector<AffineExpr>{}; });
}

/// Builds the reduction of `input` over `mask`; `value` turns the loaded
/// element into the value to combine.
ValueRange reduce(RuleContext &ctx, const NodePtr &input, ArrayRef<bool> mask,
                  bool keepdim, TypeRange resultTypes, ReductionKind kind,
                  std::function<Value(BodyBuilder &, Value)> value) {
  auto resultType = cast<RankedTensorType>(resultTypes.front());
  ArrayRef<int64_t> shape = input->type.getShape();
  SmallVector<int64_t> rranges;
  for (auto [k, s] : llvm::enumerate(shape))
    if (mask[k])
      rranges.push_back(s);
  unsigned outRank = resultType.getRank();
  SmallVector<bool> maskCopy(mask);
  return ctx.buildReduction(
      resultTypes, kind, rranges,
      [=](BodyBuilder &bb, ArrayRef<AffineExpr> idx) {
        // idx = output indices, then reduction indices.
        SmallVector<AffineExpr> in;
        unsigned out = 0, red = outRank;
        for (auto [k, reduced] : llvm::enumerate(maskCopy)) {
          if (reduced) {
            in.push_back(idx[red++]);
            if (keepdim)
              ++out;
          } else {
            in.push_back(idx[out++]);
          }
        }
        return value(bb, input->load(bb, in));
      });
}

template <typename OpT>
Result reduceLike(RuleContext &ctx, ReductionKind kind) {
  auto op = cast<OpT>(ctx.op);
  auto rt = cast<RankedTensorType>(op.getType());
  Type elt = rt.getElementType();
  NodePtr x = ctx.operands[0];
  bool keepdim = op.getKeepdim();
  if (x->type.getRank() == 0) {
    x = asOneElement(x);
    keepdim = false;
  }
  SmallVector<bool> mask = reducedDims(op.getDims(), x->type.getRank());
  // Floats: load as the result type, combine in its computation type.
  // Integers and bools: combine in the result type (i64 for sum/prod). The
  // max of bools is any, the min all (max on i1 would order true, -1 to
  // arith, below false).
  Type combine = isa<FloatType>(elt) ? computeType(elt) : elt;
  if (elt.isInteger(1) && kind == ReductionKind::Max)
    kind = ReductionKind::Any;
  if (elt.isInteger(1) && kind == ReductionKind::Min)
    kind = ReductionKind::All;
  Value r = reduce(ctx, x, mask, keepdim, rt, kind,
                   [=](BodyBuilder &bb, Value v) {
                     return bb.convert(bb.convert(v, elt), combine);
                   })[0];
  return SmallVector<NodePtr>{RuleContext::rowMajorBuffer(r)};
}

/// A loaded value as argmax/argmin compare it: itself, but a bool as an i8
/// (an i1 is 0 or -1 to arith's signed order; false < true).
Value comparable(BodyBuilder &bb, Value v) {
  return v.getType().isInteger(1) ? bb.convert(v, bb.b.getI8Type()) : v;
}

template <typename OpT>
Result argReduce(RuleContext &ctx, ReductionKind kind) {
  auto op = cast<OpT>(ctx.op);
  auto rt = cast<RankedTensorType>(op.getType());
  NodePtr x = ctx.operands[0];
  bool keepdim = op.getKeepdim();
  if (x->type.getRank() == 0) {
    x = asOneElement(x);
    keepdim = false;
  }
  int64_t rank = x->type.getRank();
  SmallVector<bool> mask(rank, true);
  // Without `dim` the position is the flat index over all dims; `keepdim`
  // then only reshapes that one value to all-ones dims.
  bool flatKept = !op.getDim() && keepdim;
  if (auto d = op.getDim()) {
    mask.assign(rank, false);
    mask[*tp::normalizeDim(static_cast<int64_t>(*d), rank)] = true;
  }
  if (!rt.getElementType().isInteger(64))
    return failure();
  auto reducedType =
      flatKept ? RankedTensorType::get({}, rt.getElementType()) : rt;
  // The kernel compares the stored values themselves.
  Value r = reduce(ctx, x, mask, keepdim && !flatKept, reducedType, kind,
                   comparable)[0];
  NodePtr position = RuleContext::rowMajorBuffer(r);
  if (!flatKept)
    return SmallVector<NodePtr>{position};
  return SmallVector<NodePtr>{std::make_shared<ViewNode>(
      rt, position,
      [](ArrayRef<AffineExpr>) { return SmallVector<AffineExpr>{}; })};
}

/// max.dim / min.dim: the position of the first extreme (an argmax/argmin
/// reduction) and the value read back at that position, so that the value
/// is the element itself, as the reference kernel copies it.
template <typename OpT>
Result valueAndIndex(RuleContext &ctx, ReductionKind kind) {
  auto op = cast<OpT>(ctx.op);
  NodePtr x = ctx.operands[0];
  bool keepdim = op.getKeepdim();
  if (x->type.getRank() == 0) {
    x = asOneElement(x);
    keepdim = false;
  }
  int64_t rank = x->type.getRank();
  auto indicesType = ctx.resultType(1);
  if (!indicesType.getElementType().isInteger(64))
    return failure();
  int64_t d = *tp::normalizeDim(static_cast<int64_t>(op.getDim()), rank);
  SmallVector<bool> mask(rank, false);
  mask[d] = true;
  Value positions =
      reduce(ctx, x, mask, keepdim, indicesType, kind, comparable)[0];
  NodePtr index = RuleContext::rowMajorBuffer(positions);
  int64_t size = x->type.getDimSize(d);
  auto values = std::make_shared<ComputedNode>(
      ctx.resultType(0), [=](BodyBuilder &bb, ArrayRef<AffineExpr> idx) {
        Value p = index->load(bb, idx);
        Value j = IndirectIndexOp::create(bb.b, bb.loc, bb.b.getIndexType(), p,
                                          static_cast<uint64_t>(size),
                                          /*wrap_negative=*/false,
                                          /*check_bounds=*/true);
        SmallVector<AffineExpr> src(idx);
        if (keepdim)
          src[d] = bb.symbol(j);
        else
          src.insert(src.begin() + d, bb.symbol(j));
        return x->load(bb, src);
      });
  return SmallVector<NodePtr>{values, index};
}

/// var with `welford`: one Welford pass gives (mean, M2, count) in the
/// computation type; var = M2 / max(0, count - correction), divided in f64
/// and rounded once as the reference kernel divides. Not bitwise with the
/// two-pass reference (Section 6.5: the arithmetic is reordered).
Result varWelford(RuleContext &ctx) {
  auto op = cast<tp::VarOp>(ctx.op);
  RankedTensorType rt = ctx.resultType();
  Type elt = rt.getElementType();
  const NodePtr &x = ctx.operands[0];
  if (!ctx.welford || !isa<FloatType>(elt) || x->type.getRank() == 0)
    return failure();
  Type ct = computeType(elt);
  auto partial = RankedTensorType::get(rt.getShape(), ct);
  SmallVector<Type> types(3, partial);
  ValueRange w = reduce(ctx, x, reducedDims(op.getDims(), x->type.getRank()),
                        op.getKeepdim(), types, ReductionKind::Welford,
                        [=](BodyBuilder &bb, Value v) {
                          return bb.convert(bb.convert(v, elt), ct);
                        });
  NodePtr m2 = RuleContext::rowMajorBuffer(w[1]);
  NodePtr count = RuleContext::rowMajorBuffer(w[2]);
  double correction = op.getCorrection().convertToDouble();
  return SmallVector<NodePtr>{std::make_shared<ComputedNode>(
      rt, [=](BodyBuilder &bb, ArrayRef<AffineExpr> idx) -> Value {
        Type f64 = bb.b.getF64Type();
        Value n = bb.convert(count->load(bb, idx), f64);
        Value zero = bb.constant(0, f64);
        Value dof =
            arith::SubFOp::create(bb.b, bb.loc, n, bb.constant(correction, f64));
        Value divisor = arith::MaximumFOp::create(bb.b, bb.loc, zero, dof);
        Value s = bb.convert(m2->load(bb, idx), f64);
        Value q = arith::DivFOp::create(bb.b, bb.loc, s, divisor);
        return bb.convert(bb.convert(q, ct), elt);
      })};
}

} // namespace

void stax::lowering::registerReductionRules(RuleTable &r) {
  r["tp.var"] = varWelford;
  r["tp.max.dim"] = [](RuleContext &c) {
    return valueAndIndex<tp::MaxDimOp>(c, ReductionKind::Argmax);
  };
  r["tp.min.dim"] = [](RuleContext &c) {
    return valueAndIndex<tp::MinDimOp>(c, ReductionKind::Argmin);
  };
  r["tp.sum"] = [](RuleContext &c) { return reduceLike<tp::SumOp>(c, ReductionKind::Sum); };
  r["tp.prod"] = [](RuleContext &c) { return reduceLike<tp::ProdOp>(c, ReductionKind::Prod); };
  r["tp.amax"] = [](RuleContext &c) { return reduceLike<tp::AmaxOp>(c, ReductionKind::Max); };
  r["tp.amin"] = [](RuleContext &c) { return reduceLike<tp::AminOp>(c, ReductionKind::Min); };
  r["tp.any"] = [](RuleContext &c) { return reduceLike<tp::AnyOp>(c, ReductionKind::Any); };
  r["tp.all"] = [](RuleContext &c) { return reduceLike<tp::AllOp>(c, ReductionKind::All); };
  r["tp.argmax"] = [](RuleContext &c) { return argReduce<tp::ArgmaxOp>(c, ReductionKind::Argmax); };
  r["tp.argmin"] = [](RuleContext &c) { return argReduce<tp::ArgminOp>(c, ReductionKind::Argmin); };
}
