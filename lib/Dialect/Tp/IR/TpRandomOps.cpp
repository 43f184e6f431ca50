//===- TpRandomOps.cpp - counter-based random ops: inference, verification ===//
//
// Member functions of the ops of TpRandomOps.td (their classes are emitted by
// TpOps.cpp.inc). The state operand's type is checked by ODS.
//
//===----------------------------------------------------------------------===//

#include "Stax/Dialect/Tp/IR/TpOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/Twine.h"
#include <string>

using namespace mlir;
using namespace mlir::tp;

namespace {
using Loc = std::optional<Location>;

/// True for the element types the random ops draw (and the interpreter
/// stores): f16, bf16, f32, f64.
bool isRandomFloatType(Type t) {
  return t.isF16() || t.isBF16() || t.isF32() || t.isF64();
}

/// The static floating tensor type of `v`, or a diagnostic.
FailureOr<RankedTensorType> floatTensorOf(Loc loc, StringRef op, Value v,
                                          StringRef what) {
  auto t = dyn_cast_if_present<RankedTensorType>(v ? v.getType() : Type());
  if (!t)
    return emitInferError(loc, op, Twine(what) + " must be a ranked tensor");
  if (!t.hasStaticShape())
    return emitInferError(loc, op, "dynamic dimensions are not supported yet");
  if (!isRandomFloatType(t.getElementType()))
    return emitInferError(loc, op,
                          Twine(what) +
                              " must be a f16, bf16, f32 or f64 tensor");
  return t;
}

LogicalResult checkProbability(Loc loc, StringRef op, double p) {
  if (!(p >= 0 && p <= 1))
    return emitInferError(loc, op,
                          "p must be in [0, 1], got " + Twine(std::to_string(p)));
  return success();
}

uint64_t ceilDiv(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

/// Blocks drawn by an op with one word per element (two for f64 when
/// `wideF64`).
uint64_t blocksFor(RankedTensorType t, bool wideF64) {
  auto n = static_cast<uint64_t>(t.getNumElements());
  return wideF64 && t.getElementType().isF64() ? ceilDiv(n, 2) : ceilDiv(n, 4);
}

/// rand / randn: a static floating result.
LogicalResult verifyRandomResult(Operation *op, RankedTensorType t) {
  if (!t.hasStaticShape())
    return op->emitOpError("result must have a static shape");
  if (!isRandomFloatType(t.getElementType()))
    return op->emitOpError("result must be a f16, bf16, f32 or f64 tensor, got ")
           << t;
  return success();
}
} // namespace

//===----------------------------------------------------------------------===//
// rand, randn
//===----------------------------------------------------------------------===//

LogicalResult RandOp::verify() {
  return verifyRandomResult(*this, getType());
}
uint64_t RandOp::getNumPhiloxBlocks() { return blocksFor(getType(), true); }

LogicalResult RandnOp::verify() {
  return verifyRandomResult(*this, getType());
}
uint64_t RandnOp::getNumPhiloxBlocks() { return blocksFor(getType(), true); }

//===----------------------------------------------------------------------===//
// bernoulli
//===----------------------------------------------------------------------===//

LogicalResult BernoulliOp::inferReturnTypes(MLIRContext *, Loc loc,
                                            Adaptor adaptor,
                                            SmallVectorImpl<Type> &types) {
  StringRef op = getOperationName();
  auto t = floatTensorOf(loc, op, adaptor.getSelf(), "self");
  if (failed(t))
    return failure();
  if (auto p = adaptor.getPAttr())
    if (failed(checkProbability(loc, op, p.getValueAsDouble())))
      return failure();
  types.push_back(*t);
  return success();
}
uint64_t BernoulliOp::getNumPhiloxBlocks() {
  return blocksFor(getType(), false);
}

//===----------------------------------------------------------------------===//
// dropout_seeded
//===----------------------------------------------------------------------===//

LogicalResult DropoutSeededOp::inferReturnTypes(MLIRContext *ctx, Loc loc,
                                                Adaptor adaptor,
                                                SmallVectorImpl<Type> &types) {
  StringRef op = getOperationName();
  auto t = floatTensorOf(loc, op, adaptor.getInput(), "input");
  if (failed(t) ||
      failed(checkProbability(loc, op, adaptor.getP().convertToDouble())))
    return failure();
  types.push_back(*t);
  types.push_back(RankedTensorType::get(t->getShape(), IntegerType::get(ctx, 1)));
  return success();
}
uint64_t DropoutSeededOp::getNumPhiloxBlocks() {
  return blocksFor(cast<RankedTensorType>(getOutput().getType()), false);
}
