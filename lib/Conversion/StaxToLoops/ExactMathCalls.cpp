//===- ExactMathCalls.cpp - libm for inexact upstream expansions ----------===//
//
// --stax-exact-math-calls: math.expm1 becomes a libm call before
// --convert-math-to-llvm can expand it to exp(x) - 1 (Passes.td).
// Upstream's math-to-libm patterns do the rewriting (vectors unrolled into
// scalar calls); a partial conversion in which only math.expm1 is illegal
// keeps them off every other op.
//
//===----------------------------------------------------------------------===//
#include "Stax/Conversion/Passes.h"
#include "mlir/Conversion/MathToLibm/MathToLibm.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::stax {
#define GEN_PASS_DEF_STAXEXACTMATHCALLS
#include "Stax/Conversion/Passes.h.inc"
} // namespace mlir::stax

using namespace mlir;

namespace {
struct StaxExactMathCalls
    : stax::impl::StaxExactMathCallsBase<StaxExactMathCalls> {
  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    ConversionTarget target(*ctx);
    target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
    target.addIllegalOp<math::ExpM1Op>();
    RewritePatternSet patterns(ctx);
    populateMathToLibmConversionPatterns(patterns);
    if (failed(applyPartialConversion(getOperation(), target,
                                      std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
