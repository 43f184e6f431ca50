//===- ApproximateMath.cpp - polynomial f32 math functions ----------------===//
//
// Upstream has the patterns (math dialect) but registers no pass for them:
// this is that pass, so vectorized loops call no libm per element.
//
//===----------------------------------------------------------------------===//
#include "Stax/Conversion/Passes.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::stax {
#define GEN_PASS_DEF_STAXAPPROXIMATEMATH
#include "Stax/Conversion/Passes.h.inc"
} // namespace mlir::stax

using namespace mlir;

namespace {
struct StaxApproximateMathPass
    : stax::impl::StaxApproximateMathBase<StaxApproximateMathPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    // Only the functions whose approximation stays within a few ulp over
    // the whole f32 range (bench/ulp_error.py, docs/Numerics.md). Upstream's
    // sin/cos lose every digit above ~2^26, atan reaches 40 ulp, asin 7, and
    // log/log2 return log(2^-126) for every denormal input: those keep
    // their libm calls.
    populateMathPolynomialApproximationPatterns(patterns, [](StringRef name) {
      name.consume_front("math.");
      return llvm::is_contained({"exp", "expm1", "log1p", "tanh", "erf",
                                 "erfc"},
                                name);
    });
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};
} // namespace
