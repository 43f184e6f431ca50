//===- SplitReductions.cpp - --stax-splitreductions (being written) ------===//
//
// Placeholder so that the pass is declared and registered while its
// implementation is written; it reports that it does nothing yet.
//
//===----------------------------------------------------------------------===//
#include "Stax/Dialect/Stax/Transforms/Passes.h"

namespace stax {
#define GEN_PASS_DEF_STAXSPLITREDUCTIONS
#include "Stax/Dialect/Stax/Transforms/Passes.h.inc"
} // namespace stax

namespace {
struct StaxSplitReductionsPass : public stax::impl::StaxSplitReductionsBase<StaxSplitReductionsPass> {
  using StaxSplitReductionsBase::StaxSplitReductionsBase;
  void runOnOperation() override {
    getOperation().emitError() << "not implemented yet";
    signalPassFailure();
  }
};
} // namespace
