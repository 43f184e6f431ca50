//===- TpOps.cpp - the op classes of the tp dialect -----------------------===//
//
// The generated op classes. Each family's inference, verification and folding
// is in Tp<Family>Ops.cpp (elementwise, reduction, NN, linalg, shape,
// indexing, creation, in-place, random); the shared family rules are in
// TypeInference.cpp. Each inference function rejects invalid operands with a
// message naming the op and the problem; the op verifier
// (InferTypeOpInterface) then checks the declared result types against the
// inferred ones.
//
//===----------------------------------------------------------------------===//

#include "Stax/Dialect/Tp/IR/TpOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace mlir::tp;

#define GET_OP_CLASSES
#include "Stax/Dialect/Tp/IR/TpOps.cpp.inc"
