//===- RangeAnalysis.cpp - --stax-rangeanalysis (being written) ------===//
//
// Placeholder so that the pass is declared and registered while its
// implementation is written; it reports that it does nothing yet.
//
//===----------------------------------------------------------------------===//
#include "Stax/Dialect/Stax/Transforms/Passes.h"

namespace stax {
#define GEN_PASS_DEF_STAXRANGEANALYSIS
#include "Stax/Dialect/Stax/Transforms/Passes.h.inc"
} // namespace stax

namespace {
struct StaxRangeAnalysisPass : public stax::impl::StaxRangeAnalysisBase<StaxRangeAnalysisPass> {
  using StaxRangeAnalysisBase::StaxRangeAnalysisBase;
  void runOnOperation() override {
    getOperation().emitError() << "not implemented yet";
    signalPassFailure();
  }
};
} // namespace
