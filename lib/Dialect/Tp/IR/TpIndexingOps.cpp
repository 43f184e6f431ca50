//===- TpIndexingOps.cpp - tp indirect reads, scatters --------------------===//
//
// Inference, verification and folding of the tp indirect reads, scatters that are not
// covered by a family rule of TypeInference.cpp (ODS: TpIndexingOps.td).
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
