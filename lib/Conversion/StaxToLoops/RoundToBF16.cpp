//===- RoundToBF16.cpp - f32 to bf16 rounding that keeps denormals --------===//
//
// --stax-round-to-bf16 (Passes.td): LLVM lowers `fptrunc float to
// bfloat` with AVX512-BF16's vcvtneps2bf16 where the host has it, and that
// instruction treats denormal inputs as zero whatever MXCSR says, so every
// result below 2^-126 would come out as a signed zero where PyTorch
// (c10::BFloat16) and the interpreter give a bf16 denormal. Rounding on
// the bits is exact for every input and takes five integer ops per
// vector.
//
//===----------------------------------------------------------------------===//
#include "MathBuilder.h"
#include "Stax/Conversion/Passes.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::stax {
#define GEN_PASS_DEF_STAXROUNDTOBF16
#include "Stax/Conversion/Passes.h.inc"
} // namespace mlir::stax

using namespace mlir;
using mlir::stax::codegen::MathBuilder;

namespace {

/// arith.truncf to bf16 (round to nearest even, the default) as c10's
/// round_to_nearest_even: the f32 bits u become (u + 0x7fff + bit 16 of u)
/// >> 16, the carry out of the mantissa raising the exponent, which is
/// right for denormals, for overflow to infinity and at ties; NaN becomes
/// 0x7fc0. An f64 input is rounded to f32 first, as c10 converts a double.
struct RoundToBF16Pattern : OpRewritePattern<arith::TruncFOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(arith::TruncFOp op,
                                PatternRewriter &rewriter) const override {
    Type type = op.getType();
    if (!getElementTypeOrSelf(type).isBF16())
      return rewriter.notifyMatchFailure(op, "not a truncation to bf16");
    if (auto mode = op.getRoundingmode();
        mode && *mode != arith::RoundingMode::to_nearest_even)
      return rewriter.notifyMatchFailure(op, "not round to nearest even");
    Location loc = op.getLoc();
    MathBuilder f(rewriter, loc, type, rewriter.getF32Type());
    Value x = op.getIn();
    if (!getElementTypeOrSelf(x.getType()).isF32())
      x = arith::TruncFOp::create(rewriter, loc, f.getFloatType(), x);
    Value bits = f.bitsOf(x);
    Value sixteen = f.intConstant(16);
    Value high = arith::ShRUIOp::create(rewriter, loc, bits, sixteen);
    Value lowestKept = f.andInt(high, 1);
    Value bias = f.addInt(lowestKept, f.intConstant(0x7fff));
    Value sum = f.addInt(bits, bias);
    Value rounded = arith::ShRUIOp::create(rewriter, loc, sum, sixteen);
    Value nan = f.cmp(arith::CmpFPredicate::UNO, x, x);
    Value result = f.select(nan, f.intConstant(0x7fc0), rounded);
    Type i16 = MathBuilder::withElement(type, rewriter.getI16Type());
    Value narrow = arith::TruncIOp::create(rewriter, loc, i16, result);
    rewriter.replaceOpWithNewOp<arith::BitcastOp>(op, type, narrow);
    return success();
  }
};

struct StaxRoundToBF16 : stax::impl::StaxRoundToBF16Base<StaxRoundToBF16> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<RoundToBF16Pattern>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
