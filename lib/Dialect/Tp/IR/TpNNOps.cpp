//===- TpNNOps.cpp - tp softmax, normalization, losses --------------------===//
//
// Inference, verification and folding of the tp softmax, normalization, losses that are not
// covered by a family rule of TypeInference.cpp (ODS: TpNNOps.td).
//
//===----------------------------------------------------------------------===//

#include "OpHelpers.h"
#include "Stax/Dialect/Tp/IR/TpOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::tp;
using namespace mlir::tp::detail;

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
  (void)push(types, lossShape(adaptor.getReduction(), target->getShape()),
             self->getElementType());
  return push(types, {}, self->getElementType());
}

LogicalResult NllLossBackwardOp::inferReturnTypes(
    MLIRContext *, Loc loc, Adaptor adaptor, SmallVectorImpl<Type> &types) {
  StringRef op = getOperationName();
  auto self = tensorOf(loc, op, adaptor.getSelf(), "self");
  auto target = tensorOf(loc, op, adaptor.getTarget(), "target");
  if (failed(self) || failed(target) ||
      failed(checkNllOperands(loc, op, *self, *target, adaptor.getWeight())))
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
  return push(types, lossShape(adaptor.getReduction(), t.getShape()),
              t.getElementType());
}

LogicalResult MseLossBackwardOp::inferReturnTypes(
    MLIRContext *, Loc loc, Adaptor adaptor, SmallVectorImpl<Type> &types) {
  StringRef op = getOperationName();
  auto self = tensorOf(loc, op, adaptor.getSelf(), "self");
  if (failed(self))
    return failure();
  SmallVector<Type> elementwise;
  if (failed(inferBinary(loc, op, adaptor.getSelf().getType(),
                         adaptor.getTarget().getType(), Promotion::FloatOnly,
                         elementwise)))
    return failure();
  auto grad = tensorOf(loc, op, adaptor.getGradOutput(), "grad_output");
  if (failed(grad))
    return failure();
  auto shape = broadcastShapes(grad->getShape(), self->getShape());
  if (failed(shape) || ArrayRef<int64_t>(*shape) != self->getShape())
    return emitInferError(loc, op,
                          "grad_output shape " + shapeString(grad->getShape()) +
                              " does not broadcast to " +
                              shapeString(self->getShape()));
  return push(types, self->getShape(), self->getElementType());
}

//===----------------------------------------------------------------------===//
// CTC loss
//===----------------------------------------------------------------------===//

/// Checks the operands the two CTC ops share: log_probs [T, N, C] in f32 or
/// f64 (eager's CPU kernels), targets [N, S], lengths [N], 0 <= blank < C.
template <typename Adaptor>
static LogicalResult checkCtcOperands(Loc loc, StringRef op, Adaptor adaptor,
                                      RankedTensorType &logProbs,
                                      RankedTensorType &targets) {
  auto lp = tensorOf(loc, op, adaptor.getLogProbs(), "log_probs");
  auto tg = tensorOf(loc, op, adaptor.getTargets(), "targets");
  auto il = tensorOf(loc, op, adaptor.getInputLengths(), "input_lengths");
  auto tl = tensorOf(loc, op, adaptor.getTargetLengths(), "target_lengths");
  if (failed(lp) || failed(tg) || failed(il) || failed(tl))
    return failure();
  if (lp->getRank() != 3 ||
      !(lp->getElementType().isF32() || lp->getElementType().isF64()))
    return emitInferError(loc, op,
                          "log_probs must be a 3-D (time, batch, "
                          "class) f32 or f64 tensor");
  int64_t batch = lp->getDimSize(1), classes = lp->getDimSize(2);
  if (tg->getRank() != 2 || tg->getDimSize(0) != batch)
    return emitInferError(loc, op,
                          "targets must be 2-D (batch, max target "
                          "length) with log_probs' batch size");
  for (RankedTensorType len : {*il, *tl})
    if (len.getRank() != 1 || len.getDimSize(0) != batch)
      return emitInferError(loc, op,
                            "the lengths must be 1-D with one "
                            "entry per sample");
  int64_t blank = static_cast<int64_t>(adaptor.getBlank());
  if (blank < 0 || blank >= classes)
    return emitInferError(loc, op,
                          "blank " + Twine(blank) +
                              " is not a class (there are " + Twine(classes) +
                              ")");
  logProbs = *lp;
  targets = *tg;
  return success();
}

LogicalResult CtcLossOp::inferReturnTypes(MLIRContext *, Loc loc,
                                          Adaptor adaptor,
                                          SmallVectorImpl<Type> &types) {
  RankedTensorType lp, tg;
  if (failed(checkCtcOperands(loc, getOperationName(), adaptor, lp, tg)))
    return failure();
  int64_t time = lp.getDimSize(0), batch = lp.getDimSize(1);
  (void)push(types, {batch}, lp.getElementType());
  return push(types, {batch, time, 2 * tg.getDimSize(1) + 1},
              lp.getElementType());
}

LogicalResult
CtcLossBackwardOp::inferReturnTypes(MLIRContext *, Loc loc, Adaptor adaptor,
                                    SmallVectorImpl<Type> &types) {
  StringRef op = getOperationName();
  RankedTensorType lp, tg;
  if (failed(checkCtcOperands(loc, op, adaptor, lp, tg)))
    return failure();
  int64_t time = lp.getDimSize(0), batch = lp.getDimSize(1);
  Type elt = lp.getElementType();
  auto expect = [&](Value v, ArrayRef<int64_t> shape, StringRef name) {
    auto t = dyn_cast<RankedTensorType>(v.getType());
    if (!t || t.getShape() != shape || t.getElementType() != elt)
      return emitInferError(loc, op,
                            name + " must be a " + Twine(shape.size()) +
                                "-D tensor of log_probs' type, as "
                                "tp.ctc_loss produces it");
    return success();
  };
  if (failed(expect(adaptor.getGrad(), {batch}, "grad")) ||
      failed(expect(adaptor.getNegLogLikelihood(), {batch},
                    "neg_log_likelihood")) ||
      failed(expect(adaptor.getLogAlpha(),
                    {batch, time, 2 * tg.getDimSize(1) + 1}, "log_alpha")))
    return failure();
  return push(types, lp.getShape(), elt);
}
