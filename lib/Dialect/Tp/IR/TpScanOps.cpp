//===- TpScanOps.cpp - tp cumulative ops ----------------------------------===//
//
// Type inference of the scans (ODS: TpScanOps.td).
//
//===----------------------------------------------------------------------===//

#include "OpHelpers.h"
#include "Stax/Dialect/Tp/IR/TpOps.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::tp;
using namespace mlir::tp::detail;

LogicalResult tp::inferScan(Loc loc, StringRef op, Value self, int64_t dim,
                            ScanElements elements, bool withIndices,
                            SmallVectorImpl<Type> &types) {
  auto t = tensorOf(loc, op, self, "self");
  if (failed(t))
    return failure();
  Type e = t->getElementType();
  bool ok = false;
  switch (elements) {
  case ScanElements::NumbersNotBool:
    ok = isa<FloatType>(e) || (e.isInteger() && !e.isInteger(1));
    break;
  case ScanElements::FloatOnly:
    ok = isa<FloatType>(e);
    break;
  case ScanElements::Any:
    ok = e.isIntOrFloat();
    break;
  }
  if (!ok) {
    std::string got;
    llvm::raw_string_ostream os(got);
    os << e;
    StringRef expected =
        elements == ScanElements::FloatOnly ? "floating-point elements"
        : elements == ScanElements::Any
            ? "integer, bool or floating-point elements"
            : "integer or floating-point elements (convert bool to i64 first)";
    return emitInferError(loc, op, "expects " + expected + ", got " + got);
  }
  if (failed(dimOf(loc, op, dim, t->getRank())))
    return failure();
  types.push_back(*t);
  if (withIndices)
    return push(types, t->getShape(), i64Type(t->getContext()));
  return success();
}
