//===- Functional.cpp - the functional-tp contract of the passes ----------===//
#include "Stax/Dialect/Tp/IR/Functional.h"
#include "Stax/Dialect/Tp/IR/TpTraits.h"

using namespace mlir;

bool tp::isInPlace(Operation *op) { return op->hasTrait<OpTrait::tp::InPlace>(); }

LogicalResult tp::verifyFunctional(Operation *root, StringRef passArgument) {
  WalkResult result = root->walk([&](Operation *op) {
    if (!isInPlace(op))
      return WalkResult::advance();
    op->emitError() << "in-place op '" << op->getName()
                    << "': --" << passArgument
                    << " needs functional tp; run --stax-functionalize first";
    return WalkResult::interrupt();
  });
  return failure(result.wasInterrupted());
}
