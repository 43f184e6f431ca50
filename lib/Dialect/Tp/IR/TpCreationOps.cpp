//===- TpCreationOps.cpp - tp creation, eager random ops ------------------===//
//
// Inference, verification and folding of the tp creation, eager random ops that are not
// covered by a family rule of TypeInference.cpp (ODS: TpCreationOps.td).
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
      failed(requireFloat(loc, op, *g, "grad_output")) ||
      failed(requireSameShape(loc, op, *g, *m, "grad_output and mask")))
    return failure();
  return push(types, g->getShape(), g->getElementType());
}
