//===- RoundToBF16.cpp - f32 to bf16 rounding that keeps denormals --------===//
//
// --stax-round-to-bf16 (Passes.td): LLVM lowers `fptrunc float to
// bfloat` with AVX512-BF16's vcvtneps2bf16 where the host has it, and that
// instruction treats denormal inputs as zero whatever MXCSR says, so every
// result below 2^-126 would come out as a signed zero where PyTorch
// (c10::BFloat16) and the interpreter give a bf16 denormal. Rounding on
// the bits is exact for every input and takes five integer ops per
// vector. The other bf16 operations LLVM would compute in f32 and round
// with that instruction (a vectorized argmax's horizontal maximum) are
// done in f32 here, with a truncf this pass rounds, and loops and ifs
// carry their scalar bf16 values as f32.
//
//===----------------------------------------------------------------------===//
#include "MathBuilder.h"
#include "Stax/Conversion/Passes.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
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

/// An operation computing bf16 values: LLVM computes it in f32 and rounds
/// the result with the same vcvtneps2bf16, so a denormal result (the
/// horizontal maximum of a vectorized argmax over denormals) became zero.
/// Here the operands are extended (exactly), the op runs in f32 and an
/// arith.truncf, which RoundToBF16Pattern rounds on the bits, narrows the
/// result: what LLVM would compute, denormals kept.
template <typename OpT> struct PromoteBF16Pattern : OpRewritePattern<OpT> {
  using OpRewritePattern<OpT>::OpRewritePattern;

  LogicalResult matchAndRewrite(OpT op,
                                PatternRewriter &rewriter) const override {
    Operation *operation = op.getOperation();
    if (operation->getNumResults() != 1)
      return rewriter.notifyMatchFailure(op, "not one result");
    Type type = operation->getResult(0).getType();
    if (!getElementTypeOrSelf(type).isBF16())
      return rewriter.notifyMatchFailure(op, "no bf16 result");
    Location loc = op.getLoc();
    Type f32 = rewriter.getF32Type();
    SmallVector<Value> operands;
    for (Value v : operation->getOperands()) {
      if (getElementTypeOrSelf(v.getType()).isBF16())
        v = arith::ExtFOp::create(
            rewriter, loc, MathBuilder::withElement(v.getType(), f32), v);
      operands.push_back(v);
    }
    OperationState state(loc, operation->getName(), operands,
                         {MathBuilder::withElement(type, f32)},
                         operation->getAttrs());
    Operation *wide = rewriter.create(state);
    rewriter.replaceOpWithNewOp<arith::TruncFOp>(op, type, wide->getResult(0));
    return success();
  }
};

/// A scalar bf16 a loop carries (the running extreme of an argmax): LLVM
/// keeps it as f32 between iterations and narrows it with vcvtneps2bf16,
/// so a denormal became zero. The loop carries the (exact) f32 instead.
struct WidenBF16IterArgPattern : OpRewritePattern<scf::ForOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(scf::ForOp loop,
                                PatternRewriter &rewriter) const override {
    for (OpOperand &init : loop.getInitArgsMutable()) {
      if (!init.get().getType().isBF16())
        continue;
      Value wide = arith::ExtFOp::create(rewriter, loop.getLoc(),
                                         rewriter.getF32Type(), init.get());
      auto cast = [](OpBuilder &b, Location loc, Type type, Value v) -> Value {
        if (type.isBF16())
          return arith::TruncFOp::create(b, loc, type, v);
        return arith::ExtFOp::create(b, loc, type, v);
      };
      rewriter.replaceOp(loop, scf::replaceAndCastForOpIterArg(
                                   rewriter, loop, init, wide, cast));
      return success();
    }
    return rewriter.notifyMatchFailure(loop, "no scalar bf16 iter_arg");
  }
};

/// A scalar bf16 an scf.if yields (a NaN-aware max's choice) becomes a
/// block argument of LLVM, held as f32 and narrowed like a loop's: the if
/// yields the (exact) f32 instead.
struct WidenBF16IfResultPattern : OpRewritePattern<scf::IfOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(scf::IfOp op,
                                PatternRewriter &rewriter) const override {
    auto isBF16 = [](Type t) { return t.isBF16(); };
    if (!llvm::any_of(op.getResultTypes(), isBF16))
      return rewriter.notifyMatchFailure(op, "no scalar bf16 result");
    Location loc = op.getLoc();
    Type f32 = rewriter.getF32Type();
    SmallVector<Type> types;
    for (Type t : op.getResultTypes())
      types.push_back(isBF16(t) ? f32 : t);
    auto wide = scf::IfOp::create(rewriter, loc, types, op.getCondition(),
                                  /*withElseRegion=*/false);
    wide.getThenRegion().takeBody(op.getThenRegion());
    wide.getElseRegion().takeBody(op.getElseRegion());
    for (Region *region : {&wide.getThenRegion(), &wide.getElseRegion()}) {
      auto yield = cast<scf::YieldOp>(region->front().getTerminator());
      rewriter.setInsertionPoint(yield);
      SmallVector<Value> values;
      for (Value v : yield.getOperands())
        values.push_back(isBF16(v.getType())
                             ? arith::ExtFOp::create(rewriter, loc, f32, v)
                             : v);
      rewriter.modifyOpInPlace(yield, [&] { yield->setOperands(values); });
    }
    rewriter.setInsertionPointAfter(wide);
    SmallVector<Value> results;
    for (auto [old, now] : llvm::zip(op.getResults(), wide.getResults()))
      results.push_back(isBF16(old.getType())
                            ? Value(arith::TruncFOp::create(
                                  rewriter, loc, old.getType(), now))
                            : Value(now));
    rewriter.replaceOp(op, results);
    return success();
  }
};

struct StaxRoundToBF16 : stax::impl::StaxRoundToBF16Base<StaxRoundToBF16> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<RoundToBF16Pattern, WidenBF16IterArgPattern,
                 WidenBF16IfResultPattern>(&getContext());
    patterns.add<PromoteBF16Pattern<vector::ReductionOp>,
                 PromoteBF16Pattern<arith::MaximumFOp>,
                 PromoteBF16Pattern<arith::MinimumFOp>,
                 PromoteBF16Pattern<arith::MaxNumFOp>,
                 PromoteBF16Pattern<arith::MinNumFOp>,
                 PromoteBF16Pattern<arith::AddFOp>,
                 PromoteBF16Pattern<arith::SubFOp>,
                 PromoteBF16Pattern<arith::MulFOp>,
                 PromoteBF16Pattern<arith::DivFOp>,
                 PromoteBF16Pattern<arith::RemFOp>>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
