//===- TpLinalgOps.cpp - tp linear algebra --------------------------------===//
//
// Inference, verification and folding of the tp linear algebra that are not
// covered by a family rule of TypeInference.cpp (ODS: TpLinalgOps.td).
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
