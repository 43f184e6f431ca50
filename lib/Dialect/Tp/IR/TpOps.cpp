//===- TpOps.cpp - tp op inference, verification and folding --------------===//
//
// Result-type inference of the ops that are not part of a family in
// TpOps.td. Each function rejects invalid operands with a message naming the
// op and the problem; the op verifier (InferTypeOpInterface) then checks the
// declared result types against the inferred ones.
//
//===----------------------------------------------------------------------===//

#include "Stax/Dialect/Tp/IR/TpOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::tp;

#define GET_OP_CLASSES
#include "Stax/Dialect/Tp/IR/TpOps.cpp.inc"

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

namespace {
using Loc = std::optional<Location>;

/// The static ranked tensor type of an operand, or a diagnostic.
FailureOr<RankedTensorType> tensorOf(Loc loc, StringRef op, Value v,
                                     StringRef what) {
  auto t = dyn_cast_if_present<RankedTensorType>(v ? v.getType() : Type());
  if (!t)
    return emitInferError(loc, op, Twine(what) + " must be a ranked tensor");
  if (!t.hasStaticShape())
    return emitInferError(loc, op, "dynamic dimensions are not supported yet");
  return t;
}

FailureOr<int64_t> dimOf(Loc loc, StringRef op, int64_t dim, int64_t rank,
                         StringRef what = "dim") {
  auto d = normalizeDim(dim, rank);
  if (!d)
    return emitInferError(loc, op,
                          Twine(what) + " " + Twine(dim) +
                              " is out of range for rank " + Twine(rank));
  return *d;
}

std::string shapeStr(ArrayRef<int64_t> shape) {
  std::string s = "[";
  for (auto [i, d] : llvm::enumerate(shape))
    s += (i ? ", " : "") + std::to_string(d);
  return s + "]";
}

Type i64Type(MLIRContext *ctx) { return IntegerType::get(ctx, 64); }

LogicalResult push(SmallVectorImpl<Type> &types, ArrayRef<int64_t> shape,
                   Type elt) {
  types.push_back(RankedTensorType::get(shape, elt));
  return success();
}

LogicalResult requireFloat(Loc loc, StringRef op, RankedTensorType t,
                           StringRef what) {
  if (!isa<FloatType>(t.getElementType()))
    return emitInferError(loc, op, Twine(what) + " must be floating point");
  return success();
}

LogicalResult requireSameShape(Loc loc, StringRef op, RankedTensorType a,
                               RankedTensorType b, StringRef what) {
  if (a.getShape() != b.getShape())
    return emitInferError(loc, op,
                          Twine(what) + " shapes " + shapeStr(a.getShape()) +
                              " and " + shapeStr(b.getShape()) + " differ");
  return success();
}

/// Loss reduction: 0 none (elementwise shape), 1 mean, 2 sum (0-d).
FailureOr<SmallVector<int64_t>> lossShape(Loc loc, StringRef op,
                                          int64_t reduction,
                                          ArrayRef<int64_t> elementwise) {
  if (reduction < 0 || reduction > 2)
    return emitInferError(loc, op,
                          "reduction must be 0 (none), 1 (mean) or 2 (sum), "
                          "got " + Twine(reduction));
  if (reduction == 0)
    return SmallVector<int64_t>(elementwise);
  return SmallVector<int64_t>{};
}

bool isScalarOne(TypedAttr attr) {
  return attr && getScalarAsDouble(attr) == 1.0;
}
} // namespace

LogicalResult tp::inferArgReduction(Loc loc, StringRef op, Type self,
                                    std::optional<uint64_t> dim, bool keepdim,
                                    SmallVectorImpl<Type> &types) {
  auto t = dyn_cast<RankedTensorType>(self);
  if (!t)
    return emitInferError(loc, op, "self must be a ranked tensor");
  SmallVector<int64_t> dims;
  if (dim)
    dims.push_back(static_cast<int64_t>(*dim));
  else if (keepdim)
    for (int64_t i = 0; i < t.getRank(); ++i)
      dims.push_back(i);
  auto shape = reducedShape(loc, op, t.getShape(), dims, keepdim);
  if (failed(shape))
    return failure();
  return push(types, *shape, i64Type(self.getContext()));
}

//===----------------------------------------------------------------------===//
// Elementwise ops with attributes
//===----------------------------------------------------------------------===//

LogicalResult GeluOp::verify() {
  if (getApproximate() != "none" && getApproximate() != "tanh")
    return emitOpError("approximate must be \"none\" or \"tanh\", got \"")
           << getApproximate() << "\"";
  return success();
}

LogicalResult ClampOp::verify() {
  if (!getMin() && !getMax())
    return emitOpError("needs at least one of min and max");
  return success();
}

LogicalResult ToCopyOp::inferReturnTypes(MLIRContext *, Loc loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &types) {
  auto t = tensorOf(loc, getOperationName(), adaptor.getSelf(), "self");
  if (failed(t))
    return failure();
  Type elt = adaptor.getDtype() ? *adaptor.getDtype() : t->getElementType();
  if (getTypeCategory(elt) == 3)
    return emitInferError(loc, getOperationName(), "unsupported dtype");
  return push(types, t->getShape(), elt);
}

static LogicalResult verifyRoundingMode(Operation *op,
                                        std::optional<StringRef> mode) {
  if (mode && *mode != "trunc" && *mode != "floor")
    return op->emitOpError("rounding_mode must be \"trunc\" or \"floor\", got \"")
           << *mode << "\"";
  return success();
}

LogicalResult DivOp::verify() {
  return verifyRoundingMode(*this, getRoundingMode());
}
LogicalResult DivOp::inferReturnTypes(MLIRContext *, Loc loc, Adaptor adaptor,
                                      SmallVectorImpl<Type> &types) {
  return inferBinary(loc, getOperationName(), adaptor.getSelf().getType(),
                     adaptor.getOther().getType(),
                     adaptor.getRoundingMode() ? Promotion::Default
                                               : Promotion::IntToFloat,
                     types);
}

LogicalResult DivScalarOp::verify() {
  return verifyRoundingMode(*this, getRoundingMode());
}
LogicalResult DivScalarOp::inferReturnTypes(MLIRContext *, Loc loc,
                                            Adaptor adaptor,
                                            SmallVectorImpl<Type> &types) {
  return inferBinaryScalar(loc, getOperationName(),
                           adaptor.getSelf().getType(), adaptor.getOther(),
                           adaptor.getRoundingMode() ? Promotion::Default
                                                     : Promotion::IntToFloat,
                           types);
}
OpFoldResult DivScalarOp::fold(FoldAdaptor) {
  // x / 1 == x bitwise for every float, and for integers with either mode.
  if (isScalarOne(getOther()) && getSelf().getType() == getType())
    return getSelf();
  return {};
}

OpFoldResult MulScalarOp::fold(FoldAdaptor) {
  // x * 1 == x bitwise (including -0, infinities and quiet NaNs).
  if (isScalarOne(getOther()) && getSelf().getType() == getType())
    return getSelf();
  return {};
}

LogicalResult WhereOp::inferReturnTypes(MLIRContext *, Loc loc,
                                        Adaptor adaptor,
                                        SmallVectorImpl<Type> &types) {
  StringRef op = getOperationName();
  SmallVector<Type> valueType;
  if (failed(inferBinary(loc, op, adaptor.getSelf().getType(),
                         adaptor.getOther().getType(), Promotion::Default,
                         valueType)))
    return failure();
  auto cond = tensorOf(loc, op, adaptor.getCondition(), "condition");
  if (failed(cond))
    return failure();
  auto v = cast<RankedTensorType>(valueType[0]);
  auto shape = broadcastShapes(cond->getShape(), v.getShape());
  if (failed(shape))
    return emitInferError(loc, op,
                          "condition shape " + shapeStr(cond->getShape()) +
                              " does not broadcast with " +
                              shapeStr(v.getShape()));
  return push(types, *shape, v.getElementType());
}

LogicalResult MaskedFillScalarOp::inferReturnTypes(
    MLIRContext *, Loc loc, Adaptor adaptor, SmallVectorImpl<Type> &types) {
  StringRef op = getOperationName();
  auto self = tensorOf(loc, op, adaptor.getSelf(), "self");
  auto mask = tensorOf(loc, op, adaptor.getMask(), "mask");
  if (failed(self) || failed(mask))
    return failure();
  auto shape = broadcastShapes(self->getShape(), mask->getShape());
  if (failed(shape) || *shape != SmallVector<int64_t>(self->getShape()))
    return emitInferError(loc, op,
                          "mask shape " + shapeStr(mask->getShape()) +
                              " does not broadcast to self shape " +
                              shapeStr(self->getShape()));
  return push(types, self->getShape(), self->getElementType());
}

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

LogicalResult VarOp::inferReturnTypes(MLIRContext *, Loc loc, Adaptor adaptor,
                                      SmallVectorImpl<Type> &types) {
  return inferReduction(loc, getOperationName(), adaptor.getSelf().getType(),
                        adaptor.getDims(), adaptor.getKeepdim(), std::nullopt,
                        Promotion::FloatOnly, types);
}

template <typename Adaptor>
static LogicalResult inferValueIndexReduction(Loc loc, StringRef op,
                                              Adaptor adaptor,
                                              SmallVectorImpl<Type> &types) {
  auto t = tensorOf(loc, op, adaptor.getSelf(), "self");
  if (failed(t))
    return failure();
  int64_t dim = static_cast<int64_t>(adaptor.getDim());
  auto shape = reducedShape(loc, op, t->getShape(), {dim}, adaptor.getKeepdim());
  if (failed(shape))
    return failure();
  (void)push(types, *shape, t->getElementType());
  return push(types, *shape, i64Type(t->getContext()));
}
LogicalResult MaxDimOp::inferReturnTypes(MLIRContext *, Loc loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &types) {
  return inferValueIndexReduction(loc, getOperationName(), adaptor, types);
}
LogicalResult MinDimOp::inferReturnTypes(MLIRContext *, Loc loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &types) {
  return inferValueIndexReduction(loc, getOperationName(), adaptor, types);
}

//===----------------------------------------------------------------------===//
// Softmax, normalization, losses
//===----------------------------------------------------------------------===//

template <typename Adaptor>
static LogicalResult inferSoftmax(Loc loc, StringRef op, Adaptor adaptor,
                                  SmallVectorImpl<Type> &types) {
  auto t = tensorOf(loc, op, adaptor.getSelf(), "self");
  if (failed(t) || failed(requireFloat(loc, op, *t, "self")) ||
      failed(dimOf(loc, op, static_cast<int64_t>(adaptor.getDim()),
                   t->getRank())))
    return failure();
  Type elt = t->getElementType();
  if (adaptor.getHalfToFloat())
    elt = Float32Type::get(elt.getContext());
  return push(types, t->getShape(), elt);
}
LogicalResult SoftmaxOp::inferReturnTypes(MLIRContext *, Loc loc,
                                          Adaptor adaptor,
                                          SmallVectorImpl<Type> &types) {
  return inferSoftmax(loc, getOperationName(), adaptor, types);
}
LogicalResult LogSoftmaxOp::inferReturnTypes(MLIRContext *, Loc loc,
                                             Adaptor adaptor,
                                             SmallVectorImpl<Type> &types) {
  return inferSoftmax(loc, getOperationName(), adaptor, types);
}

template <typename Adaptor>
static LogicalResult inferSoftmaxBackward(Loc loc, StringRef op,
                                          Adaptor adaptor,
                                          SmallVectorImpl<Type> &types) {
  auto g = tensorOf(loc, op, adaptor.getGradOutput(), "grad_output");
  auto o = tensorOf(loc, op, adaptor.getOutput(), "output");
  if (failed(g) || failed(o) ||
      failed(requireSameShape(loc, op, *g, *o, "grad_output and output")) ||
      failed(dimOf(loc, op, static_cast<int64_t>(adaptor.getDim()),
                   g->getRank())))
    return failure();
  Type elt = adaptor.getInputDtype() ? *adaptor.getInputDtype()
                                     : g->getElementType();
  return push(types, g->getShape(), elt);
}
LogicalResult SoftmaxBackwardDataOp::inferReturnTypes(
    MLIRContext *, Loc loc, Adaptor adaptor, SmallVectorImpl<Type> &types) {
  return inferSoftmaxBackward(loc, getOperationName(), adaptor, types);
}
LogicalResult LogSoftmaxBackwardDataOp::inferReturnTypes(
    MLIRContext *, Loc loc, Adaptor adaptor, SmallVectorImpl<Type> &types) {
  return inferSoftmaxBackward(loc, getOperationName(), adaptor, types);
}

/// Checks that `normalized_shape` is a suffix of `shape` and that the
/// optional affine parameters have that shape.
static FailureOr<SmallVector<int64_t>>
layerNormStatShape(Loc loc, StringRef op, RankedTensorType input,
                   ArrayRef<int64_t> normalized, Value weight, Value bias) {
  ArrayRef<int64_t> shape = input.getShape();
  if (normalized.empty() || normalized.size() > shape.size() ||
      shape.take_back(normalized.size()) != normalized)
    return emitInferError(loc, op,
                          "normalized_shape " + shapeStr(normalized) +
                              " is not a suffix of the input shape " +
                              shapeStr(shape));
  for (auto [v, name] : {std::pair{weight, "weight"}, {bias, "bias"}}) {
    if (!v)
      continue;
    auto t = tensorOf(loc, op, v, name);
    if (failed(t))
      return failure();
    if (t->getShape() != normalized)
      return emitInferError(loc, op,
                            Twine(name) + " shape " + shapeStr(t->getShape()) +
                                " differs from normalized_shape " +
                                shapeStr(normalized));
  }
  SmallVector<int64_t> stat(shape.drop_back(normalized.size()));
  stat.append(normalized.size(), 1);
  return stat;
}

LogicalResult NativeLayerNormOp::inferReturnTypes(
    MLIRContext *, Loc loc, Adaptor adaptor, SmallVectorImpl<Type> &types) {
  StringRef op = getOperationName();
  auto x = tensorOf(loc, op, adaptor.getInput(), "input");
  if (failed(x) || failed(requireFloat(loc, op, *x, "input")))
    return failure();
  auto stat = layerNormStatShape(loc, op, *x, adaptor.getNormalizedShape(),
                                 adaptor.getWeight(), adaptor.getBias());
  if (failed(stat))
    return failure();
  (void)push(types, x->getShape(), x->getElementType());
  (void)push(types, *stat, x->getElementType());
  return push(types, *stat, x->getElementType());
}

LogicalResult NativeLayerNormBackwardOp::inferReturnTypes(
    MLIRContext *, Loc loc, Adaptor adaptor, SmallVectorImpl<Type> &types) {
  StringRef op = getOperationName();
  auto g = tensorOf(loc, op, adaptor.getGradOut(), "grad_out");
  auto x = tensorOf(loc, op, adaptor.getInput(), "input");
  auto mean = tensorOf(loc, op, adaptor.getMean(), "mean");
  auto rstd = tensorOf(loc, op, adaptor.getRstd(), "rstd");
  if (failed(g) || failed(x) || failed(mean) || failed(rstd) ||
      failed(requireSameShape(loc, op, *g, *x, "grad_out and input")))
    return failure();
  auto stat = layerNormStatShape(loc, op, *x, adaptor.getNormalizedShape(),
                                 adaptor.getWeight(), adaptor.getBias());
  if (failed(stat))
    return failure();
  if (mean->getShape() != ArrayRef<int64_t>(*stat) ||
      rstd->getShape() != ArrayRef<int64_t>(*stat))
    return emitInferError(loc, op,
                          "mean and rstd must have shape " + shapeStr(*stat));
  Type elt = x->getElementType();
  (void)push(types, x->getShape(), elt);
  (void)push(types, adaptor.getNormalizedShape(), elt);
  return push(types, adaptor.getNormalizedShape(), elt);
}

/// nll_loss: self is [N, C] or [C]; target is [N] or [].
static LogicalResult checkNllOperands(Loc loc, StringRef op,
                                      RankedTensorType self,
                                      RankedTensorType target, Value weight) {
  if (self.getRank() != 1 && self.getRank() != 2)
    return emitInferError(loc, op,
                          "self must be 1-D or 2-D, got rank " +
                              Twine(self.getRank()));
  if (target.getRank() != self.getRank() - 1 ||
      (self.getRank() == 2 && target.getDimSize(0) != self.getDimSize(0)))
    return emitInferError(loc, op,
                          "target shape " + shapeStr(target.getShape()) +
                              " does not match self shape " +
                              shapeStr(self.getShape()));
  if (weight) {
    auto w = tensorOf(loc, op, weight, "weight");
    if (failed(w))
      return failure();
    if (w->getRank() != 1 || w->getDimSize(0) != self.getShape().back())
      return emitInferError(loc, op, "weight must have one entry per class");
  }
  return requireFloat(loc, op, self, "self");
}

LogicalResult NllLossForwardOp::inferReturnTypes(
    MLIRContext *, Loc loc, Adaptor adaptor, SmallVectorImpl<Type> &types) {
  StringRef op = getOperationName();
  auto self = tensorOf(loc, op, adaptor.getSelf(), "self");
  auto target = tensorOf(loc, op, adaptor.getTarget(), "target");
  if (failed(self) || failed(target) ||
      failed(checkNllOperands(loc, op, *self, *target, adaptor.getWeight())))
    return failure();
  auto shape = lossShape(loc, op, static_cast<int64_t>(adaptor.getReduction()),
                         target->getShape());
  if (failed(shape))
    return failure();
  (void)push(types, *shape, self->getElementType());
  return push(types, {}, self->getElementType());
}

LogicalResult NllLossBackwardOp::inferReturnTypes(
    MLIRContext *, Loc loc, Adaptor adaptor, SmallVectorImpl<Type> &types) {
  StringRef op = getOperationName();
  auto self = tensorOf(loc, op, adaptor.getSelf(), "self");
  auto target = tensorOf(loc, op, adaptor.getTarget(), "target");
  if (failed(self) || failed(target) ||
      failed(checkNllOperands(loc, op, *self, *target, adaptor.getWeight())) ||
      failed(lossShape(loc, op, static_cast<int64_t>(adaptor.getReduction()),
                       target->getShape())))
    return failure();
  return push(types, self->getShape(), self->getElementType());
}

LogicalResult MseLossOp::inferReturnTypes(MLIRContext *, Loc loc,
                                          Adaptor adaptor,
                                          SmallVectorImpl<Type> &types) {
  StringRef op = getOperationName();
  SmallVector<Type> elementwise;
  if (failed(inferBinary(loc, op, adaptor.getSelf().getType(),
                         adaptor.getTarget().getType(), Promotion::FloatOnly,
                         elementwise)))
    return failure();
  auto t = cast<RankedTensorType>(elementwise[0]);
  auto shape = lossShape(loc, op, static_cast<int64_t>(adaptor.getReduction()),
                         t.getShape());
  if (failed(shape))
    return failure();
  return push(types, *shape, t.getElementType());
}

LogicalResult MseLossBackwardOp::inferReturnTypes(
    MLIRContext *, Loc loc, Adaptor adaptor, SmallVectorImpl<Type> &types) {
  StringRef op = getOperationName();
  auto self = tensorOf(loc, op, adaptor.getSelf(), "self");
  if (failed(self) ||
      failed(lossShape(loc, op, static_cast<int64_t>(adaptor.getReduction()),
                       self->getShape())))
    return failure();
  SmallVector<Type> elementwise;
  if (failed(inferBinary(loc, op, adaptor.getSelf().getType(),
                         adaptor.getTarget().getType(), Promotion::FloatOnly,
                         elementwise)))
    return failure();
  return push(types, self->getShape(), self->getElementType());
}

//===----------------------------------------------------------------------===//
// Linear algebra
//===----------------------------------------------------------------------===//

static LogicalResult checkContraction(Loc loc, StringRef op,
                                      RankedTensorType a, RankedTensorType b,
                                      int64_t rank) {
  if (a.getRank() != rank || b.getRank() != rank)
    return emitInferError(loc, op,
                          "expects " + Twine(rank) + "-D operands, got ranks " +
                              Twine(a.getRank()) + " and " + Twine(b.getRank()));
  if (a.getShape().back() != b.getDimSize(rank - 2))
    return emitInferError(loc, op,
                          "contraction sizes differ: " +
                              shapeStr(a.getShape()) + " and " +
                              shapeStr(b.getShape()));
  if (rank == 3 && a.getDimSize(0) != b.getDimSize(0))
    return emitInferError(loc, op, "batch sizes differ");
  if (a.getElementType() != b.getElementType())
    return emitInferError(loc, op, "operand dtypes differ");
  return success();
}

LogicalResult MmOp::inferReturnTypes(MLIRContext *, Loc loc, Adaptor adaptor,
                                     SmallVectorImpl<Type> &types) {
  StringRef op = getOperationName();
  auto a = tensorOf(loc, op, adaptor.getSelf(), "self");
  auto b = tensorOf(loc, op, adaptor.getMat2(), "mat2");
  if (failed(a) || failed(b) || failed(checkContraction(loc, op, *a, *b, 2)))
    return failure();
  return push(types, {a->getDimSize(0), b->getDimSize(1)}, a->getElementType());
}

LogicalResult BmmOp::inferReturnTypes(MLIRContext *, Loc loc, Adaptor adaptor,
                                      SmallVectorImpl<Type> &types) {
  StringRef op = getOperationName();
  auto a = tensorOf(loc, op, adaptor.getSelf(), "self");
  auto b = tensorOf(loc, op, adaptor.getMat2(), "mat2");
  if (failed(a) || failed(b) || failed(checkContraction(loc, op, *a, *b, 3)))
    return failure();
  return push(types, {a->getDimSize(0), a->getDimSize(1), b->getDimSize(2)},
              a->getElementType());
}

LogicalResult DotOp::inferReturnTypes(MLIRContext *, Loc loc, Adaptor adaptor,
                                      SmallVectorImpl<Type> &types) {
  StringRef op = getOperationName();
  auto a = tensorOf(loc, op, adaptor.getSelf(), "self");
  auto b = tensorOf(loc, op, adaptor.getOther(), "other");
  if (failed(a) || failed(b))
    return failure();
  if (a->getRank() != 1 || b->getRank() != 1 ||
      a->getDimSize(0) != b->getDimSize(0))
    return emitInferError(loc, op, "expects two 1-D tensors of equal size");
  if (a->getElementType() != b->getElementType())
    return emitInferError(loc, op, "operand dtypes differ");
  return push(types, {}, a->getElementType());
}

LogicalResult MatmulOp::inferReturnTypes(MLIRContext *, Loc loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &types) {
  StringRef op = getOperationName();
  auto a = tensorOf(loc, op, adaptor.getSelf(), "self");
  auto b = tensorOf(loc, op, adaptor.getOther(), "other");
  if (failed(a) || failed(b))
    return failure();
  if (a->getRank() == 0 || b->getRank() == 0)
    return emitInferError(loc, op, "operands must be at least 1-D");
  if (a->getElementType() != b->getElementType())
    return emitInferError(loc, op, "operand dtypes differ");
  // Promote 1-D operands to matrices, then broadcast the batch dims.
  SmallVector<int64_t> sa(a->getShape()), sb(b->getShape());
  bool vecA = sa.size() == 1, vecB = sb.size() == 1;
  if (vecA)
    sa.insert(sa.begin(), 1);
  if (vecB)
    sb.push_back(1);
  if (sa.back() != sb[sb.size() - 2])
    return emitInferError(loc, op,
                          "contraction sizes differ: " +
                              shapeStr(a->getShape()) + " and " +
                              shapeStr(b->getShape()));
  auto batch = broadcastShapes(ArrayRef(sa).drop_back(2),
                               ArrayRef(sb).drop_back(2));
  if (failed(batch))
    return emitInferError(loc, op, "batch dimensions do not broadcast");
  SmallVector<int64_t> shape(*batch);
  if (!vecA)
    shape.push_back(sa[sa.size() - 2]);
  if (!vecB)
    shape.push_back(sb.back());
  return push(types, shape, a->getElementType());
}

template <typename Adaptor>
static LogicalResult inferAddContraction(Loc loc, StringRef op, Value self,
                                         Value a, Value b, int64_t rank,
                                         SmallVectorImpl<Type> &types) {
  auto s = tensorOf(loc, op, self, "self");
  auto ta = tensorOf(loc, op, a, "first factor");
  auto tb = tensorOf(loc, op, b, "second factor");
  if (failed(s) || failed(ta) || failed(tb) ||
      failed(checkContraction(loc, op, *ta, *tb, rank)))
    return failure();
  SmallVector<int64_t> shape(ta->getShape().drop_back());
  shape.push_back(tb->getShape().back());
  auto bcast = broadcastShapes(s->getShape(), shape);
  if (failed(bcast) || *bcast != shape)
    return emitInferError(loc, op,
                          "self shape " + shapeStr(s->getShape()) +
                              " does not broadcast to the product shape " +
                              shapeStr(shape));
  return push(types, shape, ta->getElementType());
}
LogicalResult AddmmOp::inferReturnTypes(MLIRContext *, Loc loc,
                                        Adaptor adaptor,
                                        SmallVectorImpl<Type> &types) {
  return inferAddContraction<Adaptor>(loc, getOperationName(),
                                      adaptor.getSelf(), adaptor.getMat1(),
                                      adaptor.getMat2(), 2, types);
}
LogicalResult BaddbmmOp::inferReturnTypes(MLIRContext *, Loc loc,
                                          Adaptor adaptor,
                                          SmallVectorImpl<Type> &types) {
  return inferAddContraction<Adaptor>(loc, getOperationName(),
                                      adaptor.getSelf(), adaptor.getBatch1(),
                                      adaptor.getBatch2(), 3, types);
}

//===----------------------------------------------------------------------===//
// Views
//===----------------------------------------------------------------------===//

LogicalResult TOp::inferReturnTypes(MLIRContext *, Loc loc, Adaptor adaptor,
                                    SmallVectorImpl<Type> &types) {
  auto t = tensorOf(loc, getOperationName(), adaptor.getSelf(), "self");
  if (failed(t))
    return failure();
  if (t->getRank() > 2)
    return emitInferError(loc, getOperationName(),
                          "expects a tensor of rank <= 2, got rank " +
                              Twine(t->getRank()));
  SmallVector<int64_t> shape(llvm::reverse(t->getShape()));
  return push(types, shape, t->getElementType());
}
OpFoldResult TOp::fold(FoldAdaptor) {
  if (auto inner = getSelf().getDefiningOp<TOp>())
    return inner.getSelf();
  return {};
}

LogicalResult TransposeOp::inferReturnTypes(MLIRContext *, Loc loc,
                                            Adaptor adaptor,
                                            SmallVectorImpl<Type> &types) {
  StringRef op = getOperationName();
  auto t = tensorOf(loc, op, adaptor.getSelf(), "self");
  if (failed(t))
    return failure();
  auto d0 = dimOf(loc, op, static_cast<int64_t>(adaptor.getDim0()),
                  t->getRank(), "dim0");
  auto d1 = dimOf(loc, op, static_cast<int64_t>(adaptor.getDim1()),
                  t->getRank(), "dim1");
  if (failed(d0) || failed(d1))
    return failure();
  SmallVector<int64_t> shape(t->getShape());
  if (!shape.empty())
    std::swap(shape[*d0], shape[*d1]);
  return push(types, shape, t->getElementType());
}

LogicalResult PermuteOp::inferReturnTypes(MLIRContext *, Loc loc,
                                          Adaptor adaptor,
                                          SmallVectorImpl<Type> &types) {
  StringRef op = getOperationName();
  auto t = tensorOf(loc, op, adaptor.getSelf(), "self");
  if (failed(t))
    return failure();
  ArrayRef<int64_t> dims = adaptor.getDims();
  if (static_cast<int64_t>(dims.size()) != t->getRank())
    return emitInferError(loc, op,
                          "dims has " + Twine(dims.size()) +
                              " entries for a tensor of rank " +
                              Twine(t->getRank()));
  SmallVector<bool> seen(dims.size(), false);
  SmallVector<int64_t> shape;
  for (int64_t d : dims) {
    auto nd = dimOf(loc, op, d, t->getRank());
    if (failed(nd))
      return failure();
    if (seen[*nd])
      return emitInferError(loc, op, "dims is not a permutation");
    seen[*nd] = true;
    shape.push_back(t->getDimSize(*nd));
  }
  return push(types, shape, t->getElementType());
}
OpFoldResult PermuteOp::fold(FoldAdaptor) {
  for (auto [i, d] : llvm::enumerate(getDims()))
    if (static_cast<int64_t>(i) != d &&
        static_cast<int64_t>(i) != d + getType().getRank())
      return {};
  return getSelf();
}

LogicalResult ReshapeAliasOp::verify() {
  if (getSize().size() != getStride().size())
    return emitOpError("size and stride have different lengths");
  return success();
}

LogicalResult ExpandOp::inferReturnTypes(MLIRContext *, Loc loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &types) {
  StringRef op = getOperationName();
  auto t = tensorOf(loc, op, adaptor.getSelf(), "self");
  if (failed(t))
    return failure();
  ArrayRef<int64_t> size = adaptor.getSize();
  int64_t lead = static_cast<int64_t>(size.size()) - t->getRank();
  if (lead < 0)
    return emitInferError(loc, op,
                          "size " + shapeStr(size) +
                              " has fewer dims than the input " +
                              shapeStr(t->getShape()));
  SmallVector<int64_t> shape;
  for (auto [i, s] : llvm::enumerate(size)) {
    int64_t idx = static_cast<int64_t>(i);
    if (idx < lead) {
      if (s < 0)
        return emitInferError(loc, op, "-1 is not allowed for a new leading dim");
      shape.push_back(s);
      continue;
    }
    int64_t in = t->getDimSize(idx - lead);
    if (s == -1 || s == in)
      shape.push_back(in);
    else if (in == 1 && s >= 0)
      shape.push_back(s);
    else
      return emitInferError(loc, op,
                            "cannot expand " + shapeStr(t->getShape()) +
                                " to " + shapeStr(size));
  }
  return push(types, shape, t->getElementType());
}
OpFoldResult ExpandOp::fold(FoldAdaptor) {
  if (getSelf().getType() == getType())
    return getSelf();
  return {};
}

LogicalResult UnsqueezeOp::inferReturnTypes(MLIRContext *, Loc loc,
                                            Adaptor adaptor,
                                            SmallVectorImpl<Type> &types) {
  StringRef op = getOperationName();
  auto t = tensorOf(loc, op, adaptor.getSelf(), "self");
  if (failed(t))
    return failure();
  auto d = dimOf(loc, op, static_cast<int64_t>(adaptor.getDim()),
                 t->getRank() + 1);
  if (failed(d))
    return failure();
  SmallVector<int64_t> shape(t->getShape());
  shape.insert(shape.begin() + *d, 1);
  return push(types, shape, t->getElementType());
}

LogicalResult SqueezeOp::inferReturnTypes(MLIRContext *, Loc loc,
                                          Adaptor adaptor,
                                          SmallVectorImpl<Type> &types) {
  StringRef op = getOperationName();
  auto t = tensorOf(loc, op, adaptor.getSelf(), "self");
  if (failed(t))
    return failure();
  SmallVector<bool> drop(t->getRank(), false);
  if (auto dims = adaptor.getDims()) {
    for (int64_t d : *dims) {
      auto nd = dimOf(loc, op, d, t->getRank());
      if (failed(nd))
        return failure();
      // Like eager, a squeezed dim that is not of size 1 is kept.
      if (t->getRank() > 0 && t->getDimSize(*nd) == 1)
        drop[*nd] = true;
    }
  } else {
    for (int64_t i = 0; i < t->getRank(); ++i)
      drop[i] = t->getDimSize(i) == 1;
  }
  SmallVector<int64_t> shape;
  for (int64_t i = 0; i < t->getRank(); ++i)
    if (!drop[i])
      shape.push_back(t->getDimSize(i));
  return push(types, shape, t->getElementType());
}

/// Python slice semantics: clamps start/end to [0, size].
static int64_t sliceLength(int64_t size, int64_t start, int64_t end,
                           int64_t step, int64_t &startOut) {
  if (start < 0)
    start += size;
  if (end < 0)
    end += size;
  start = std::clamp<int64_t>(start, 0, size);
  end = std::clamp<int64_t>(end, start, size);
  startOut = start;
  return (end - start + step - 1) / step;
}

LogicalResult SliceOp::inferReturnTypes(MLIRContext *, Loc loc,
                                        Adaptor adaptor,
                                        SmallVectorImpl<Type> &types) {
  StringRef op = getOperationName();
  auto t = tensorOf(loc, op, adaptor.getSelf(), "self");
  if (failed(t))
    return failure();
  if (t->getRank() == 0)
    return emitInferError(loc, op, "cannot slice a 0-d tensor");
  auto d = dimOf(loc, op, static_cast<int64_t>(adaptor.getDim()), t->getRank());
  if (failed(d))
    return failure();
  int64_t step = static_cast<int64_t>(adaptor.getStep());
  if (step <= 0)
    return emitInferError(loc, op, "step must be positive, got " + Twine(step));
  SmallVector<int64_t> shape(t->getShape());
  int64_t start;
  shape[*d] = sliceLength(shape[*d], static_cast<int64_t>(adaptor.getStart()),
                          static_cast<int64_t>(adaptor.getEnd()), step, start);
  return push(types, shape, t->getElementType());
}

LogicalResult SelectOp::inferReturnTypes(MLIRContext *, Loc loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &types) {
  StringRef op = getOperationName();
  auto t = tensorOf(loc, op, adaptor.getSelf(), "self");
  if (failed(t))
    return failure();
  if (t->getRank() == 0)
    return emitInferError(loc, op, "cannot select from a 0-d tensor");
  auto d = dimOf(loc, op, static_cast<int64_t>(adaptor.getDim()), t->getRank());
  if (failed(d))
    return failure();
  int64_t index = static_cast<int64_t>(adaptor.getIndex());
  int64_t size = t->getDimSize(*d);
  if (index < -size || index >= size)
    return emitInferError(loc, op,
                          "index " + Twine(index) +
                              " is out of range for a dim of size " +
                              Twine(size));
  SmallVector<int64_t> shape(t->getShape());
  shape.erase(shape.begin() + *d);
  return push(types, shape, t->getElementType());
}

LogicalResult AsStridedOp::inferReturnTypes(MLIRContext *, Loc loc,
                                            Adaptor adaptor,
                                            SmallVectorImpl<Type> &types) {
  StringRef op = getOperationName();
  auto t = tensorOf(loc, op, adaptor.getSelf(), "self");
  if (failed(t))
    return failure();
  ArrayRef<int64_t> size = adaptor.getSize(), stride = adaptor.getStride();
  if (size.size() != stride.size())
    return emitInferError(loc, op, "size and stride have different lengths");
  int64_t last = static_cast<int64_t>(adaptor.getStorageOffset());
  for (auto [s, st] : llvm::zip(size, stride)) {
    if (s < 0 || st < 0)
      return emitInferError(loc, op, "sizes and strides must be non-negative");
    if (s == 0)
      return push(types, size, t->getElementType());
    last += (s - 1) * st;
  }
  if (last >= t->getNumElements())
    return emitInferError(loc, op,
                          "the view reaches element " + Twine(last) +
                              " of a storage of " + Twine(t->getNumElements()));
  return push(types, size, t->getElementType());
}

static LogicalResult pushChunks(Loc loc, StringRef op, Value self, int64_t dim,
                                ArrayRef<int64_t> sizes,
                                SmallVectorImpl<Type> &types) {
  auto t = tensorOf(loc, op, self, "self");
  if (failed(t))
    return failure();
  for (int64_t s : sizes) {
    SmallVector<int64_t> shape(t->getShape());
    shape[dim] = s;
    types.push_back(RankedTensorType::get(shape, t->getElementType()));
  }
  return success();
}

LogicalResult SplitOp::inferReturnTypes(MLIRContext *, Loc loc,
                                        Adaptor adaptor,
                                        SmallVectorImpl<Type> &types) {
  StringRef op = getOperationName();
  auto t = tensorOf(loc, op, adaptor.getSelf(), "self");
  if (failed(t))
    return failure();
  auto d = dimOf(loc, op, static_cast<int64_t>(adaptor.getDim()), t->getRank());
  if (failed(d) || t->getRank() == 0)
    return failure();
  int64_t chunk = static_cast<int64_t>(adaptor.getSplitSize());
  int64_t size = t->getDimSize(*d);
  if (chunk <= 0)
    return emitInferError(loc, op, "split_size must be positive");
  SmallVector<int64_t> sizes;
  for (int64_t at = 0; at < size; at += chunk)
    sizes.push_back(std::min(chunk, size - at));
  if (sizes.empty())
    sizes.push_back(0);
  return pushChunks(loc, op, adaptor.getSelf(), *d, sizes, types);
}

LogicalResult SplitWithSizesOp::inferReturnTypes(MLIRContext *, Loc loc,
                                                 Adaptor adaptor,
                                                 SmallVectorImpl<Type> &types) {
  StringRef op = getOperationName();
  auto t = tensorOf(loc, op, adaptor.getSelf(), "self");
  if (failed(t))
    return failure();
  auto d = dimOf(loc, op, static_cast<int64_t>(adaptor.getDim()), t->getRank());
  if (failed(d) || t->getRank() == 0)
    return failure();
  int64_t total = 0;
  for (int64_t s : adaptor.getSplitSizes())
    total += s;
  if (total != t->getDimSize(*d))
    return emitInferError(loc, op,
                          "split_sizes sum to " + Twine(total) +
                              " but dim has size " + Twine(t->getDimSize(*d)));
  return pushChunks(loc, op, adaptor.getSelf(), *d, adaptor.getSplitSizes(),
                    types);
}

LogicalResult UnbindOp::inferReturnTypes(MLIRContext *, Loc loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &types) {
  StringRef op = getOperationName();
  auto t = tensorOf(loc, op, adaptor.getSelf(), "self");
  if (failed(t))
    return failure();
  if (t->getRank() == 0)
    return emitInferError(loc, op, "cannot unbind a 0-d tensor");
  auto d = dimOf(loc, op, static_cast<int64_t>(adaptor.getDim()), t->getRank());
  if (failed(d))
    return failure();
  SmallVector<int64_t> shape(t->getShape());
  shape.erase(shape.begin() + *d);
  for (int64_t i = 0; i < t->getDimSize(*d); ++i)
    types.push_back(RankedTensorType::get(shape, t->getElementType()));
  return success();
}

/// Shared checks of cat and stack: equal ranks, dtypes and shapes except at
/// `except` (or everywhere when `except` is -1).
static FailureOr<RankedTensorType> checkJoin(Loc loc, StringRef op,
                                             ValueRange tensors,
                                             int64_t except) {
  if (tensors.empty())
    return emitInferError(loc, op, "expects at least one tensor");
  auto first = tensorOf(loc, op, tensors[0], "tensors");
  if (failed(first))
    return failure();
  for (auto [i, v] : llvm::enumerate(tensors)) {
    auto t = tensorOf(loc, op, v, "tensors");
    if (failed(t))
      return failure();
    if (t->getElementType() != first->getElementType())
      return emitInferError(loc, op, "tensor #" + Twine(i) + " has a different dtype");
    bool same = t->getRank() == first->getRank();
    for (int64_t d = 0; same && d < t->getRank(); ++d)
      same = d == except || t->getDimSize(d) == first->getDimSize(d);
    if (!same)
      return emitInferError(loc, op,
                            "tensor #" + Twine(i) + " has shape " +
                                shapeStr(t->getShape()) +
                                ", incompatible with " +
                                shapeStr(first->getShape()));
  }
  return first;
}

LogicalResult CatOp::inferReturnTypes(MLIRContext *, Loc loc, Adaptor adaptor,
                                      SmallVectorImpl<Type> &types) {
  StringRef op = getOperationName();
  if (adaptor.getTensors().empty())
    return emitInferError(loc, op, "expects at least one tensor");
  auto first = tensorOf(loc, op, adaptor.getTensors()[0], "tensors");
  if (failed(first))
    return failure();
  if (first->getRank() == 0)
    return emitInferError(loc, op, "cannot concatenate 0-d tensors");
  auto d = dimOf(loc, op, static_cast<int64_t>(adaptor.getDim()),
                 first->getRank());
  if (failed(d) || failed(checkJoin(loc, op, adaptor.getTensors(), *d)))
    return failure();
  SmallVector<int64_t> shape(first->getShape());
  shape[*d] = 0;
  for (Value v : adaptor.getTensors())
    shape[*d] += cast<RankedTensorType>(v.getType()).getDimSize(*d);
  return push(types, shape, first->getElementType());
}

LogicalResult StackOp::inferReturnTypes(MLIRContext *, Loc loc,
                                        Adaptor adaptor,
                                        SmallVectorImpl<Type> &types) {
  StringRef op = getOperationName();
  auto first = checkJoin(loc, op, adaptor.getTensors(), -1);
  if (failed(first))
    return failure();
  auto d = dimOf(loc, op, static_cast<int64_t>(adaptor.getDim()),
                 first->getRank() + 1);
  if (failed(d))
    return failure();
  SmallVector<int64_t> shape(first->getShape());
  shape.insert(shape.begin() + *d, adaptor.getTensors().size());
  return push(types, shape, first->getElementType());
}

//===----------------------------------------------------------------------===//
// Indirect reads and scatter writes
//===----------------------------------------------------------------------===//

/// The result shape of advanced indexing (numpy rules).
static FailureOr<SmallVector<int64_t>>
advancedIndexShape(Loc loc, StringRef op, RankedTensorType self,
                   ValueRange indices, ArrayRef<int64_t> dims) {
  if (indices.size() != dims.size())
    return emitInferError(loc, op,
                          "has " + Twine(indices.size()) + " indices but " +
                              Twine(dims.size()) + " dims");
  if (indices.empty())
    return emitInferError(loc, op, "expects at least one index tensor");
  SmallVector<int64_t> bshape;
  SmallVector<int64_t> nd;
  for (auto [v, d] : llvm::zip(indices, dims)) {
    auto t = tensorOf(loc, op, v, "index");
    if (failed(t))
      return failure();
    auto b = broadcastShapes(bshape, t->getShape());
    if (failed(b))
      return emitInferError(loc, op, "index shapes do not broadcast");
    bshape = *b;
    auto n = dimOf(loc, op, d, self.getRank());
    if (failed(n))
      return failure();
    if (!nd.empty() && *n <= nd.back())
      return emitInferError(loc, op, "dims must be strictly increasing");
    nd.push_back(*n);
  }
  bool adjacent = nd.back() - nd.front() + 1 == static_cast<int64_t>(nd.size());
  SmallVector<int64_t> shape;
  auto rest = [&](int64_t from, int64_t to) {
    for (int64_t i = from; i < to; ++i)
      if (!llvm::is_contained(nd, i))
        shape.push_back(self.getDimSize(i));
  };
  if (adjacent) {
    rest(0, nd.front());
    shape.append(bshape);
    rest(nd.back() + 1, self.getRank());
  } else {
    shape.append(bshape);
    rest(0, self.getRank());
  }
  return shape;
}

LogicalResult IndexOp::inferReturnTypes(MLIRContext *, Loc loc,
                                        Adaptor adaptor,
                                        SmallVectorImpl<Type> &types) {
  StringRef op = getOperationName();
  auto self = tensorOf(loc, op, adaptor.getSelf(), "self");
  if (failed(self))
    return failure();
  auto shape = advancedIndexShape(loc, op, *self, adaptor.getIndices(),
                                  adaptor.getDims());
  if (failed(shape))
    return failure();
  return push(types, *shape, self->getElementType());
}

LogicalResult IndexPutOp::inferReturnTypes(MLIRContext *, Loc loc,
                                           Adaptor adaptor,
                                           SmallVectorImpl<Type> &types) {
  StringRef op = getOperationName();
  auto self = tensorOf(loc, op, adaptor.getSelf(), "self");
  auto values = tensorOf(loc, op, adaptor.getValues(), "values");
  if (failed(self) || failed(values))
    return failure();
  auto shape = advancedIndexShape(loc, op, *self, adaptor.getIndices(),
                                  adaptor.getDims());
  if (failed(shape))
    return failure();
  auto b = broadcastShapes(values->getShape(), *shape);
  if (failed(b) || *b != *shape)
    return emitInferError(loc, op,
                          "values shape " + shapeStr(values->getShape()) +
                              " does not broadcast to the indexed shape " +
                              shapeStr(*shape));
  return push(types, self->getShape(), self->getElementType());
}

LogicalResult IndexSelectOp::inferReturnTypes(MLIRContext *, Loc loc,
                                              Adaptor adaptor,
                                              SmallVectorImpl<Type> &types) {
  StringRef op = getOperationName();
  auto self = tensorOf(loc, op, adaptor.getSelf(), "self");
  auto index = tensorOf(loc, op, adaptor.getIndex(), "index");
  if (failed(self) || failed(index))
    return failure();
  if (index->getRank() > 1)
    return emitInferError(loc, op, "index must be 0-D or 1-D");
  auto d = dimOf(loc, op, static_cast<int64_t>(adaptor.getDim()),
                 self->getRank());
  if (failed(d))
    return failure();
  SmallVector<int64_t> shape(self->getShape());
  if (!shape.empty())
    shape[*d] = index->getNumElements();
  return push(types, shape, self->getElementType());
}

/// gather/scatter: index has self's rank, and is no larger than self (or
/// src) outside `dim`.
static LogicalResult checkGatherScatter(Loc loc, StringRef op,
                                        RankedTensorType self,
                                        RankedTensorType index, int64_t dim,
                                        RankedTensorType src) {
  if (index.getRank() != self.getRank())
    return emitInferError(loc, op, "index must have the rank of self");
  if (failed(dimOf(loc, op, dim, self.getRank())))
    return failure();
  int64_t d = *normalizeDim(dim, self.getRank());
  for (int64_t i = 0; i < index.getRank(); ++i) {
    if (i != d && index.getDimSize(i) > self.getDimSize(i))
      return emitInferError(loc, op,
                            "index is larger than self in dim " + Twine(i));
    if (src && index.getDimSize(i) > src.getDimSize(i))
      return emitInferError(loc, op,
                            "index is larger than src in dim " + Twine(i));
  }
  return success();
}

LogicalResult GatherOp::inferReturnTypes(MLIRContext *, Loc loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &types) {
  StringRef op = getOperationName();
  auto self = tensorOf(loc, op, adaptor.getSelf(), "self");
  auto index = tensorOf(loc, op, adaptor.getIndex(), "index");
  if (failed(self) || failed(index) ||
      failed(checkGatherScatter(loc, op, *self, *index,
                                static_cast<int64_t>(adaptor.getDim()), {})))
    return failure();
  return push(types, index->getShape(), self->getElementType());
}

template <typename Adaptor>
static LogicalResult inferScatter(Loc loc, StringRef op, Adaptor adaptor,
                                  SmallVectorImpl<Type> &types) {
  auto self = tensorOf(loc, op, adaptor.getSelf(), "self");
  auto index = tensorOf(loc, op, adaptor.getIndex(), "index");
  auto src = tensorOf(loc, op, adaptor.getSrc(), "src");
  if (failed(self) || failed(index) || failed(src))
    return failure();
  if (src->getRank() != self->getRank())
    return emitInferError(loc, op, "src must have the rank of self");
  if (src->getElementType() != self->getElementType())
    return emitInferError(loc, op, "src and self dtypes differ");
  if (failed(checkGatherScatter(loc, op, *self, *index,
                                static_cast<int64_t>(adaptor.getDim()), *src)))
    return failure();
  return push(types, self->getShape(), self->getElementType());
}
LogicalResult ScatterOp::inferReturnTypes(MLIRContext *, Loc loc,
                                          Adaptor adaptor,
                                          SmallVectorImpl<Type> &types) {
  return inferScatter(loc, getOperationName(), adaptor, types);
}
LogicalResult ScatterAddOp::inferReturnTypes(MLIRContext *, Loc loc,
                                             Adaptor adaptor,
                                             SmallVectorImpl<Type> &types) {
  return inferScatter(loc, getOperationName(), adaptor, types);
}

LogicalResult EmbeddingOp::inferReturnTypes(MLIRContext *, Loc loc,
                                            Adaptor adaptor,
                                            SmallVectorImpl<Type> &types) {
  StringRef op = getOperationName();
  auto w = tensorOf(loc, op, adaptor.getWeight(), "weight");
  auto idx = tensorOf(loc, op, adaptor.getIndices(), "indices");
  if (failed(w) || failed(idx))
    return failure();
  if (w->getRank() != 2)
    return emitInferError(loc, op, "weight must be 2-D");
  SmallVector<int64_t> shape(idx->getShape());
  shape.push_back(w->getDimSize(1));
  return push(types, shape, w->getElementType());
}

LogicalResult EmbeddingDenseBackwardOp::inferReturnTypes(
    MLIRContext *, Loc loc, Adaptor adaptor, SmallVectorImpl<Type> &types) {
  StringRef op = getOperationName();
  auto g = tensorOf(loc, op, adaptor.getGradOutput(), "grad_output");
  auto idx = tensorOf(loc, op, adaptor.getIndices(), "indices");
  if (failed(g) || failed(idx))
    return failure();
  if (g->getRank() != idx->getRank() + 1 ||
      g->getShape().drop_back() != idx->getShape())
    return emitInferError(loc, op,
                          "grad_output shape " + shapeStr(g->getShape()) +
                              " must be indices shape " +
                              shapeStr(idx->getShape()) + " plus one dim");
  int64_t n = static_cast<int64_t>(adaptor.getNumWeights());
  if (n < 0)
    return emitInferError(loc, op, "num_weights must be non-negative");
  return push(types, {n, g->getShape().back()}, g->getElementType());
}

//===----------------------------------------------------------------------===//
// Creation and random
//===----------------------------------------------------------------------===//

OpFoldResult ConstantOp::fold(FoldAdaptor) { return getValue(); }

LogicalResult FullOp::verify() {
  if (!getType().hasStaticShape())
    return emitOpError("result must have a static shape");
  return success();
}

LogicalResult ArangeOp::verify() {
  if (getType().getRank() != 1 || !getType().hasStaticShape())
    return emitOpError("result must be a static 1-D tensor");
  double start = getScalarAsDouble(getStart()), end = getScalarAsDouble(getEnd()),
         step = getScalarAsDouble(getStep());
  if (step == 0)
    return emitOpError("step must be non-zero");
  double n = std::ceil((end - start) / step);
  int64_t expected = n > 0 ? static_cast<int64_t>(n) : 0;
  if (getType().getDimSize(0) != expected)
    return emitOpError("result has ")
           << getType().getDimSize(0) << " elements but the range has "
           << expected;
  return success();
}

LogicalResult NativeDropoutOp::inferReturnTypes(MLIRContext *ctx, Loc loc,
                                                Adaptor adaptor,
                                                SmallVectorImpl<Type> &types) {
  StringRef op = getOperationName();
  auto t = tensorOf(loc, op, adaptor.getInput(), "input");
  if (failed(t) || failed(requireFloat(loc, op, *t, "input")))
    return failure();
  double p = adaptor.getP().convertToDouble();
  if (p < 0 || p > 1)
    return emitInferError(loc, op, "p must be in [0, 1], got " + Twine(std::to_string(p)));
  (void)push(types, t->getShape(), t->getElementType());
  return push(types, t->getShape(), IntegerType::get(ctx, 1));
}

LogicalResult NativeDropoutBackwardOp::inferReturnTypes(
    MLIRContext *, Loc loc, Adaptor adaptor, SmallVectorImpl<Type> &types) {
  StringRef op = getOperationName();
  auto g = tensorOf(loc, op, adaptor.getGradOutput(), "grad_output");
  auto m = tensorOf(loc, op, adaptor.getMask(), "mask");
  if (failed(g) || failed(m) ||
      failed(requireSameShape(loc, op, *g, *m, "grad_output and mask")))
    return failure();
  return push(types, g->getShape(), g->getElementType());
}

//===----------------------------------------------------------------------===//
// Backward of views
//===----------------------------------------------------------------------===//

LogicalResult SliceBackwardOp::inferReturnTypes(MLIRContext *, Loc loc,
                                                Adaptor adaptor,
                                                SmallVectorImpl<Type> &types) {
  StringRef op = getOperationName();
  auto g = tensorOf(loc, op, adaptor.getGradOutput(), "grad_output");
  if (failed(g))
    return failure();
  ArrayRef<int64_t> sizes = adaptor.getInputSizes();
  if (static_cast<int64_t>(sizes.size()) != g->getRank() || sizes.empty())
    return emitInferError(loc, op, "input_sizes must have the rank of grad_output");
  auto d = dimOf(loc, op, static_cast<int64_t>(adaptor.getDim()), g->getRank());
  if (failed(d))
    return failure();
  int64_t step = static_cast<int64_t>(adaptor.getStep()), start;
  if (step <= 0)
    return emitInferError(loc, op, "step must be positive");
  SmallVector<int64_t> expected(sizes);
  expected[*d] = sliceLength(sizes[*d], static_cast<int64_t>(adaptor.getStart()),
                             static_cast<int64_t>(adaptor.getEnd()), step, start);
  if (ArrayRef<int64_t>(expected) != g->getShape())
    return emitInferError(loc, op,
                          "grad_output shape " + shapeStr(g->getShape()) +
                              " is not the slice shape " + shapeStr(expected));
  return push(types, sizes, g->getElementType());
}

LogicalResult SelectBackwardOp::inferReturnTypes(MLIRContext *, Loc loc,
                                                 Adaptor adaptor,
                                                 SmallVectorImpl<Type> &types) {
  StringRef op = getOperationName();
  auto g = tensorOf(loc, op, adaptor.getGradOutput(), "grad_output");
  if (failed(g))
    return failure();
  ArrayRef<int64_t> sizes = adaptor.getInputSizes();
  if (static_cast<int64_t>(sizes.size()) != g->getRank() + 1)
    return emitInferError(loc, op,
                          "input_sizes must have one more dim than grad_output");
  auto d = dimOf(loc, op, static_cast<int64_t>(adaptor.getDim()), sizes.size());
  if (failed(d))
    return failure();
  int64_t index = static_cast<int64_t>(adaptor.getIndex());
  if (index < -sizes[*d] || index >= sizes[*d])
    return emitInferError(loc, op, "index " + Twine(index) + " is out of range");
  SmallVector<int64_t> expected(sizes);
  expected.erase(expected.begin() + *d);
  if (ArrayRef<int64_t>(expected) != g->getShape())
    return emitInferError(loc, op, "grad_output shape does not match input_sizes");
  return push(types, sizes, g->getElementType());
}
