//===- IndirectRules.cpp - indirect reads, scatter writes, concatenation --===//
//
// Section 6.2: an indirect read loads the index, turns it into an index
// variable with `stax.indirect_index` (bounds check; negative wrap where
// eager wraps) and reads the source there. Concatenation is one pointwise
// node with one masked load per input.
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
using Index = SmallVector<AffineExpr>;

/// The index read from `index` at `at`, as a checked index into a dim of
/// `size` (gather and index_select do not wrap negative indices). The check
/// carries `loc`, the indexing op's location (the body's own location is
/// that of the op that materializes the fused node), so that a failing
/// check names the op that indexed.
AffineExpr indirect(BodyBuilder &bb, const NodePtr &index, ArrayRef<AffineExpr> at,
                    int64_t size, bool wrapNegative, Location loc) {
  Value v = index->load(bb, at);
  if (bb.mask) {
    // Under a concatenation's mask this read is also evaluated where its
    // input is not selected; an index computed there (a constant-index
    // gather's arithmetic: masked loads give 0) may be out of range through
    // no fault of the program. It reads element 0 instead, and the value is
    // discarded by the concatenation's select.
    Value zero = arith::ConstantOp::create(bb.b, loc, v.getType(),
                                           bb.b.getZeroAttr(v.getType()));
    v = arith::SelectOp::create(bb.b, loc, bb.mask, v, zero);
  }
  auto op = IndirectIndexOp::create(bb.b, loc, bb.b.getIndexType(), v,
                                    static_cast<uint64_t>(size), wrapNegative,
                                    /*check_bounds=*/true);
  return bb.symbol(op);
}

/// A 0-d `self` indexed along "dim 0" (a dim of size 1 to PyTorch): the
/// result is `self` itself once the one index is checked to be 0 (or -1
/// where `wrapNegative`).
NodePtr indexScalar(RuleContext &ctx, const NodePtr &self, const NodePtr &index,
                    bool wrapNegative) {
  Location loc = ctx.op->getLoc();
  return std::make_shared<ComputedNode>(
      ctx.resultType(), [=](BodyBuilder &bb, ArrayRef<AffineExpr>) {
        Index at(index->type.getRank(), getAffineConstantExpr(0, bb.b.getContext()));
        (void)indirect(bb, index, at, 1, wrapNegative, loc);
        return self->load(bb, {});
      });
}

Result indexSelect(RuleContext &ctx) {
  Location loc = ctx.op->getLoc();
  auto op = cast<tp::IndexSelectOp>(ctx.op);
  NodePtr self = ctx.operands[0], index = ctx.operands[1];
  int64_t rank = self->type.getRank();
  if (index->type.getRank() > 1)
    return failure();
  if (rank == 0 && index->type.getNumElements() == 1)
    return SmallVector<NodePtr>{indexScalar(ctx, self, index, false)};
  if (rank == 0)
    return failure();
  int64_t d = *tp::normalizeDim(op.getDim(), rank);
  int64_t size = self->type.getDimSize(d);
  bool scalarIndex = index->type.getRank() == 0;
  return SmallVector<NodePtr>{std::make_shared<ComputedNode>(
      ctx.resultType(), [=](BodyBuilder &bb, ArrayRef<AffineExpr> idx) {
        Index at;
        if (!scalarIndex)
          at.push_back(idx[d]);
        Index src(idx);
        src[d] = indirect(bb, index, at, size, false, loc);
        return self->load(bb, src);
      })};
}

Result gather(RuleContext &ctx) {
  Location loc = ctx.op->getLoc();
  auto op = cast<tp::GatherOp>(ctx.op);
  NodePtr self = ctx.operands[0], index = ctx.operands[1];
  int64_t rank = self->type.getRank();
  if (rank == 0 && index->type.getNumElements() == 1)
    return SmallVector<NodePtr>{indexScalar(ctx, self, index, false)};
  if (rank == 0 || index->type.getRank() != rank)
    return failure();
  int64_t d = *tp::normalizeDim(op.getDim(), rank);
  int64_t size = self->type.getDimSize(d);
  return SmallVector<NodePtr>{std::make_shared<ComputedNode>(
      ctx.resultType(), [=](BodyBuilder &bb, ArrayRef<AffineExpr> idx) {
        Index src(idx);
        src[d] = indirect(bb, index, idx, size, false, loc);
        return self->load(bb, src);
      })};
}

/// y(i) = x_k(i - o_k) for o_k <= i_dim < o_{k+1}: one masked load per
/// input, merged by select (NOTES.md, concatenation).
Result cat(RuleContext &ctx) {
  auto op = cast<tp::CatOp>(ctx.op);
  RankedTensorType rt = ctx.resultType();
  int64_t rank = rt.getRank();
  if (rank == 0)
    return failure();
  int64_t d = *tp::normalizeDim(op.getDim(), rank);
  SmallVector<NodePtr> inputs;
  SmallVector<int64_t> offsets;
  int64_t offset = 0;
  for (const NodePtr &n : ctx.operands) {
    // 1-D empty tensors are skipped by eager's cat.
    if (n->type.getRank() != rank)
      continue;
    inputs.push_back(n);
    offsets.push_back(offset);
    offset += n->type.getDimSize(d);
  }
  Type elt = rt.getElementType();
  return SmallVector<NodePtr>{std::make_shared<ComputedNode>(
      rt, [=](BodyBuilder &bb, ArrayRef<AffineExpr> idx) -> Value {
        // Input k is read only where o_k <= i < o_{k+1}; the masks are
        // disjoint, so the selects pick exactly one read.
        Value i = bb.index(idx[d]);
        MLIRContext *mctx = idx[d].getContext();
        auto cmp = [&](arith::CmpIPredicate p, int64_t bound) -> Value {
          return arith::CmpIOp::create(
              bb.b, bb.loc, p, i, bb.index(getAffineConstantExpr(bound, mctx)));
        };
        Value saved = bb.mask;
        Value result;
        for (int64_t k = inputs.size() - 1; k >= 0; --k) {
          Value inRange;
          if (k > 0)
            inRange = cmp(arith::CmpIPredicate::sge, offsets[k]);
          if (k + 1 < static_cast<int64_t>(inputs.size())) {
            Value below = cmp(arith::CmpIPredicate::slt, offsets[k + 1]);
            inRange = inRange ? arith::AndIOp::create(bb.b, bb.loc, inRange, below)
                                    .getResult()
                              : below;
          }
          if (inRange && saved)
            inRange = arith::AndIOp::create(bb.b, bb.loc, inRange, saved);
          bb.mask = inRange ? inRange : saved;
          Index src(idx);
          src[d] = idx[d] - offsets[k];
          Value v = bb.convert(inputs[k]->load(bb, src), elt);
          result = result ? arith::SelectOp::create(bb.b, bb.loc, bb.mask, v, result)
                                .getResult()
                          : v;
        }
        bb.mask = saved;
        return result;
      })};
}

/// Advanced indexing (aten.index): index tensors broadcast to `bshape`,
/// which replaces the indexed dims in place when they are adjacent and goes
/// first otherwise (numpy's rule, as the reference kernel).
struct AdvancedIndex {
  SmallVector<int64_t> dims, bshape, shape, rest;
  int64_t bpos = 0;
};

std::optional<AdvancedIndex> analyze(ArrayRef<int64_t> self,
                                     ArrayRef<NodePtr> indices,
                                     ArrayRef<int64_t> dims) {
  AdvancedIndex a;
  int64_t rank = self.size();
  if (rank == 0 || indices.empty() || indices.size() != dims.size())
    return std::nullopt;
  for (auto [t, d] : llvm::zip(indices, dims)) {
    auto b = tp::broadcastShapes(a.bshape, t->type.getShape());
    auto n = tp::normalizeDim(d, rank);
    if (failed(b) || !n)
      return std::nullopt;
    a.bshape = *b;
    a.dims.push_back(*n);
  }
  bool adjacent = a.dims.back() - a.dims.front() + 1 ==
                  static_cast<int64_t>(a.dims.size());
  a.bpos = adjacent ? a.dims.front() : 0;
  for (int64_t i = 0; i < rank; ++i)
    if (!llvm::is_contained(a.dims, i))
      a.rest.push_back(i);
  for (int64_t i = 0; i < a.bpos; ++i)
    a.shape.push_back(self[a.rest[i]]);
  a.shape.append(a.bshape);
  for (int64_t i = a.bpos, e = a.rest.size(); i < e; ++i)
    a.shape.push_back(self[a.rest[i]]);
  return a;
}

/// The index into self of position `pos` of the indexed shape.
Index selfIndex(BodyBuilder &bb, const AdvancedIndex &a, ArrayRef<NodePtr> indices,
                ArrayRef<int64_t> self, ArrayRef<AffineExpr> pos, Location loc) {
  int64_t nb = a.bshape.size();
  Index src(self.size());
  int64_t r = 0;
  for (int64_t i = 0, e = pos.size(); i < e; ++i)
    if (i < a.bpos || i >= a.bpos + nb)
      src[a.rest[r++]] = pos[i];
  ArrayRef<AffineExpr> bidx = pos.slice(a.bpos, nb);
  for (auto [k, t] : llvm::enumerate(indices)) {
    int64_t d = a.dims[k];
    src[d] = indirect(bb, t, broadcastIndex(t->type.getShape(), a.bshape, bidx),
                      self[d], /*wrapNegative=*/true, loc);
  }
  return src;
}

AffineExpr rowMajorAddress(ArrayRef<AffineExpr> index, ArrayRef<int64_t> shape) {
  SmallVector<int64_t> strides = RuleContext::rowMajor(shape);
  AffineExpr addr = getAffineConstantExpr(0, index.front().getContext());
  for (auto [e, s] : llvm::zip(index, strides))
    addr = addr + e * s;
  return addr;
}

Result index(RuleContext &ctx) {
  Location loc = ctx.op->getLoc();
  auto op = cast<tp::IndexOp>(ctx.op);
  NodePtr self = ctx.operands[0];
  SmallVector<NodePtr> indices(ArrayRef<NodePtr>(ctx.operands).drop_front());
  SmallVector<int64_t> shape(self->type.getShape());
  auto a = analyze(shape, indices, op.getDims());
  RankedTensorType rt = ctx.resultType();
  if (!a || ArrayRef<int64_t>(a->shape) != rt.getShape())
    return failure();
  AdvancedIndex adv = *a;
  return SmallVector<NodePtr>{std::make_shared<ComputedNode>(
      rt, [=](BodyBuilder &bb, ArrayRef<AffineExpr> pos) {
        return self->load(bb, selfIndex(bb, adv, indices, shape, pos, loc));
      })};
}

/// `n` converted to element type `t`, element by element.
NodePtr convertNode(const NodePtr &n, Type t) {
  auto type = RankedTensorType::get(n->type.getShape(), t);
  return std::make_shared<ComputedNode>(
      type, [=](BodyBuilder &bb, ArrayRef<AffineExpr> idx) {
        return bb.convert(n->load(bb, idx), t);
      });
}

/// The type a scatter into `elt` accumulates in: `elt`, but bools add as
/// integers (True + True is True, where an i1 addi is xor), so they
/// accumulate in an i64 copy whose nonzero elements are true, and half
/// precision accumulates in an f32 copy rounded once at the end, as the
/// reference kernels do.
Type accumulationTypeOf(Type elt, ScatterMode mode) {
  if (mode != ScatterMode::Accumulate)
    return elt;
  if (elt.isInteger(1))
    return IntegerType::get(elt.getContext(), 64);
  if (elt.isF16() || elt.isBF16())
    return Float32Type::get(elt.getContext());
  return elt;
}

/// The scatter of `body` into `self` with `mode`, accumulating as
/// accumulationTypeOf says; `body` converts its value to the type it gets.
Result scatterInto(RuleContext &ctx, NodePtr self, ScatterMode mode,
                   ArrayRef<int64_t> ranges,
                   std::function<std::pair<Value, Value>(
                       BodyBuilder &, ArrayRef<AffineExpr>, Type)> body) {
  Type elt = self->type.getElementType();
  Type at = accumulationTypeOf(elt, mode);
  NodePtr base = at == elt ? self : convertNode(self, at);
  Value r = ctx.buildScatter(base, mode, ranges,
                             [=](BodyBuilder &bb, ArrayRef<AffineExpr> pos) {
                               return body(bb, pos, at);
                             });
  NodePtr out = RuleContext::rowMajorBuffer(r);
  return SmallVector<NodePtr>{at == elt ? out : convertNode(out, elt)};
}

Result indexPut(RuleContext &ctx) {
  Location loc = ctx.op->getLoc();
  auto op = cast<tp::IndexPutOp>(ctx.op);
  size_t n = op.getIndices().size();
  NodePtr self = ctx.operands[0], values = ctx.operands[1 + n];
  SmallVector<NodePtr> indices(ArrayRef<NodePtr>(ctx.operands).slice(1, n));
  SmallVector<int64_t> shape(self->type.getShape());
  Type elt = self->type.getElementType();
  auto a = analyze(shape, indices, op.getDims());
  if (!a || self->type != ctx.resultType())
    return failure();
  AdvancedIndex adv = *a;
  auto mode = op.getAccumulate() ? ScatterMode::Accumulate : ScatterMode::Overwrite;
  return scatterInto(
      ctx, self, mode, adv.shape,
      [=](BodyBuilder &bb, ArrayRef<AffineExpr> pos, Type t) {
        Index dst = selfIndex(bb, adv, indices, shape, pos, loc);
        Value v = values->load(bb, broadcastIndex(values->type.getShape(), adv.shape, pos));
        Value addr = bb.index(rowMajorAddress(dst, shape));
        Value converted = bb.convert(bb.convert(v, elt), t);
        return std::make_pair(addr, converted);
      });
}

/// scatter / scatter_add: out[p with p[dim] = index[p]] (+)= src[p] for p
/// in index's shape (no negative wrap).
Result scatterAlong(RuleContext &ctx, int64_t dim, ScatterMode mode) {
  Location loc = ctx.op->getLoc();
  NodePtr self = ctx.operands[0], index = ctx.operands[1], src = ctx.operands[2];
  int64_t rank = self->type.getRank();
  Type elt = self->type.getElementType();
  if (index->type.getRank() != rank)
    return failure();
  if (rank == 0) {
    // A 0-d self along "dim 0" of size 1: one write, once the index is
    // checked to be 0.
    return scatterInto(
        ctx, self, mode, {},
        [=](BodyBuilder &bb, ArrayRef<AffineExpr>, Type t) {
          (void)indirect(bb, index, {}, 1, /*wrapNegative=*/false, loc);
          Value addr = bb.index(getAffineConstantExpr(0, bb.b.getContext()));
          Value value = bb.convert(bb.convert(src->load(bb, {}), elt), t);
          return std::make_pair(addr, value);
        });
  }
  int64_t d = *tp::normalizeDim(dim, rank);
  SmallVector<int64_t> shape(self->type.getShape());
  int64_t size = shape[d];
  return scatterInto(
      ctx, self, mode, index->type.getShape(),
      [=](BodyBuilder &bb, ArrayRef<AffineExpr> pos, Type t) {
        Index dst(pos);
        dst[d] = indirect(bb, index, pos, size, /*wrapNegative=*/false, loc);
        Value addr = bb.index(rowMajorAddress(dst, shape));
        Value value = bb.convert(bb.convert(src->load(bb, pos), elt), t);
        return std::make_pair(addr, value);
      });
}

} // namespace

void stax::lowering::registerIndirectRules(RuleTable &r) {
  r["tp.index_select"] = indexSelect;
  r["tp.gather"] = gather;
  r["tp.cat"] = cat;
  r["tp.index"] = [](RuleContext &ctx) { return index(ctx); };
  r["tp.index_put"] = indexPut;
  r["tp.scatter_add"] = [](RuleContext &ctx) {
    return scatterAlong(ctx, cast<tp::ScatterAddOp>(ctx.op).getDim(),
                        ScatterMode::Accumulate);
  };
  r["tp.scatter"] = [](RuleContext &ctx) {
    return scatterAlong(ctx, cast<tp::ScatterOp>(ctx.op).getDim(),
                        ScatterMode::Overwrite);
  };
}
