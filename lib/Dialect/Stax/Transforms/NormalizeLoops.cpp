//===- NormalizeLoops.cpp - --stax-normalizeloops (being written) ------===//
//
// Placeholder so that the pass is declared and registered while its
// implementation is written; it reports that it does nothing yet.
//
//===----------------------------------------------------------------------===//
#include "Stax/Dialect/Stax/Transforms/Passes.h"

namespace stax {
#define GEN_PASS_DEF_STAXNORMALIZELOOPS
#include "Stax/Dialect/Stax/Transforms/Passes.h.inc"
} // namespace stax

namespace {
struct StaxNormalizeLoopsPass : public stax::impl::StaxNormalizeLoopsBase<StaxNormalizeLoopsPass> {
  using StaxNormalizeLoopsBase::StaxNormalizeLoopsBase;
  void runOnOperation() override {
    getOperation().emitError() << "not implemented yet";
    signalPassFailure();
  }
};
} // namespace
