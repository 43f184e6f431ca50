//===- TpSpecialOps.cpp - tp special functions ----------------------------===//
//
// Verification and inference of the special-function ops that a family rule
// of TypeInference.cpp does not cover (ODS: TpSpecialOps.td).
//
//===----------------------------------------------------------------------===//

#include "OpHelpers.h"
#include "Stax/Dialect/Tp/IR/TpOps.h"
#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace mlir::tp;
using namespace mlir::tp::detail;

LogicalResult PolygammaOp::verify() {
  // I64Attr reads back as uint64_t: a negative order is its two's complement.
  auto n = static_cast<int64_t>(getN());
  if (n < 0)
    return emitOpError() << "order n = " << n << " must be >= 0";
  return success();
}

/// mantissa: self's type; exponent: i32 of self's shape. eager rejects
/// integer inputs ("frexp only supports floating-point dtypes").
LogicalResult FrexpOp::inferReturnTypes(MLIRContext *ctx, Loc loc,
                                        Adaptor adaptor,
                                        SmallVectorImpl<Type> &types) {
  StringRef op = getOperationName();
  auto t = tensorOf(loc, op, adaptor.getSelf(), "self");
  if (failed(t) || failed(requireFloat(loc, op, *t, "self")))
    return failure();
  types.push_back(*t);
  return push(types, t->getShape(), IntegerType::get(ctx, 32));
}
