//===- TpReductionOps.cpp - tp reductions ---------------------------------===//
//
// Inference, verification and folding of the tp reductions that are not
// covered by a family rule of TypeInference.cpp (ODS: TpReductionOps.td).
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
