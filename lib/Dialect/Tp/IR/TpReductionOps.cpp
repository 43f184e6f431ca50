//===- TpReductionOps.cpp - tp reductions, sorting ------------------------===//
//
// Inference, verification and folding of the tp reductions that are not
// covered by a family rule of TypeInference.cpp, and of tp.sort (ODS:
// TpReductionOps.td).
//
//===----------------------------------------------------------------------===//

#include "OpHelpers.h"
#include "Stax/Dialect/Tp/IR/TpOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tp;
using namespace mlir::tp::detail;

//===----------------------------------------------------------------------===//
// Arg reductions
//===----------------------------------------------------------------------===//

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
// Sorting
//===----------------------------------------------------------------------===//

/// The operand of a sort-like op (integers or floats) and its normalized
/// dim (0 for a 0-d self).
static FailureOr<std::pair<RankedTensorType, int64_t>>
sortedOperand(Loc loc, StringRef op, Value self, int64_t dim) {
  auto t = tensorOf(loc, op, self, "self");
  if (failed(t))
    return failure();
  if (!t->getElementType().isIntOrFloat())
    return emitInferError(loc, op,
                          "expects integer or floating-point elements");
  auto d = dimOf(loc, op, dim, t->getRank());
  if (failed(d))
    return failure();
  return std::make_pair(*t, *d);
}

/// values: self's type; indices: int64 of self's shape. The dim is only
/// checked (every consumer normalizes it with normalizeDim).
LogicalResult SortOp::inferReturnTypes(MLIRContext *, Loc loc, Adaptor adaptor,
                                       SmallVectorImpl<Type> &types) {
  auto self = sortedOperand(loc, getOperationName(), adaptor.getSelf(),
                            static_cast<int64_t>(adaptor.getDim()));
  if (failed(self))
    return failure();
  RankedTensorType t = self->first;
  types.push_back(t);
  return push(types, t.getShape(), i64Type(t.getContext()));
}

/// values and indices: self's shape with `dim` of size k (0 <= k <= its
/// size); a 0-d self (k 0 or 1) gives 0-d results.
LogicalResult TopkOp::inferReturnTypes(MLIRContext *, Loc loc, Adaptor adaptor,
                                       SmallVectorImpl<Type> &types) {
  StringRef op = getOperationName();
  auto self = sortedOperand(loc, op, adaptor.getSelf(),
                            static_cast<int64_t>(adaptor.getDim()));
  if (failed(self))
    return failure();
  auto [t, dim] = *self;
  int64_t k = static_cast<int64_t>(adaptor.getK());
  int64_t size = t.getRank() ? t.getDimSize(dim) : 1;
  if (k < 0 || k > size)
    return emitInferError(loc, op,
                          "k " + Twine(k) + " is out of range for a dim of size " +
                              Twine(size));
  SmallVector<int64_t> shape(t.getShape());
  if (t.getRank())
    shape[dim] = k;
  (void)push(types, shape, t.getElementType());
  return push(types, shape, i64Type(t.getContext()));
}

//===----------------------------------------------------------------------===//
// Reductions without identity
//===----------------------------------------------------------------------===//

/// The reduced dimensions of a max/min-like op (normalized); nullopt means
/// all of them.
static std::optional<SmallVector<int64_t>> reducedDims(Operation *op) {
  auto single = [](std::optional<int64_t> d) {
    return d ? std::optional<SmallVector<int64_t>>(SmallVector<int64_t>{*d})
             : std::nullopt;
  };
  if (auto o = dyn_cast<AmaxOp>(op))
    return o.getDims().empty() ? std::nullopt
                               : std::optional(SmallVector<int64_t>(o.getDims()));
  if (auto o = dyn_cast<AminOp>(op))
    return o.getDims().empty() ? std::nullopt
                               : std::optional(SmallVector<int64_t>(o.getDims()));
  if (auto o = dyn_cast<MaxDimOp>(op))
    return single(o.getDim());
  if (auto o = dyn_cast<MinDimOp>(op))
    return single(o.getDim());
  if (auto o = dyn_cast<ArgmaxOp>(op))
    return single(o.getDim());
  if (auto o = dyn_cast<ArgminOp>(op))
    return single(o.getDim());
  return std::nullopt;
}

LogicalResult tp::verifyNonEmptyReduction(Operation *op) {
  auto self = dyn_cast<RankedTensorType>(op->getOperand(0).getType());
  if (!self || !self.hasStaticShape())
    return success();
  std::optional<SmallVector<int64_t>> dims = reducedDims(op);
  if (!dims) {
    if (self.getNumElements() == 0)
      return op->emitOpError()
             << "reduces every dimension of an empty tensor " << self
             << ": there is no identity (PyTorch raises an error)";
    return success();
  }
  for (int64_t d : *dims) {
    std::optional<int64_t> n = normalizeDim(d, self.getRank());
    if (n && self.getRank() > 0 && self.getDimSize(*n) == 0)
      return op->emitOpError()
             << "reduces dimension " << *n << " of size 0 of " << self
             << ": there is no identity (PyTorch raises an error)";
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Tensor sizes
//===----------------------------------------------------------------------===//

/// Bytes of one element as stored (a bool takes one byte).
static int64_t elementBytes(Type t) {
  if (t.isIntOrFloat())
    return std::max<int64_t>(1, t.getIntOrFloatBitWidth() / 8);
  return 8;
}

static LogicalResult checkSize(Operation *op, Type type, StringRef what,
                               unsigned index) {
  auto t = dyn_cast<RankedTensorType>(type);
  if (!t)
    return success();
  // Views and copies infer nothing from their element type: without this
  // an f80 or i2 tensor would reach code generation, which cannot store it.
  if (tp::getTypeCategory(t.getElementType()) == tp::TypeCategory::Unsupported)
    return op->emitOpError()
           << what << " #" << index << " of type " << t
           << " has an element type no PyTorch dtype has (f16, bf16, f32, "
              "f64, i1, i8, ui8, i16, i32, i64)";
  if (!t.hasStaticShape())
    return success();
  int64_t bytes = elementBytes(t.getElementType());
  for (int64_t d : t.getShape())
    if (llvm::MulOverflow(bytes, d, bytes))
      return op->emitOpError()
             << what << " #" << index << " of type " << t
             << " has more than 2^63 - 1 bytes";
  return success();
}

LogicalResult tp::verifyTensorSizes(Operation *op) {
  for (auto [i, v] : llvm::enumerate(op->getOperands()))
    if (failed(checkSize(op, v.getType(), "operand", i)))
      return failure();
  for (auto [i, v] : llvm::enumerate(op->getResults()))
    if (failed(checkSize(op, v.getType(), "result", i)))
      return failure();
  return success();
}
