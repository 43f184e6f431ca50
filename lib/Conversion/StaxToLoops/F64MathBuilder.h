//===- F64MathBuilder.h - float64 kernels for f32 functions -----*- C++ -*-===//
//
// --stax-approximate-math evaluates most f32 functions in float64 from the
// widened input and rounds once (ApproximateMath.cpp explains why). This
// header holds the float64 pieces that several kernels share (exp, expm1,
// the logarithm's parts) and the pattern that wraps a unary kernel.
//
//===----------------------------------------------------------------------===//
#ifndef STAX_LIB_CONVERSION_STAXTOLOOPS_F64MATHBUILDER_H
#define STAX_LIB_CONVERSION_STAXTOLOOPS_F64MATHBUILDER_H

#include "MathBuilder.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::stax::codegen {

constexpr double kLn2Hi = 0.6931471805599453;    // ln 2 rounded to f64
constexpr double kLn2Lo = 2.3190468138462996e-17; // ln 2 - kLn2Hi
constexpr double kLog2E = 1.4426950408889634;
/// exp's argument is clamped to +-kExpLimit so that 2^k stays a normal
/// f64; every f32 result is then 0 or inf already.
constexpr double kExpLimit = 708.0;

/// Float64 arithmetic and the float64 kernels' shared parts.
class F64Builder : public MathBuilder {
public:
  F64Builder(OpBuilder &b, Location loc, Type like)
      : MathBuilder(b, loc, like, b.getF64Type()) {}

  /// sum_k c[k] T_k(u) by Clenshaw's recurrence (stable for any degree).
  Value chebyshev(Value u, ArrayRef<double> c) {
    Value twoU = add(u, u);
    Value b1 = constant(0.0), b2 = constant(0.0);
    for (double ck : llvm::reverse(c.drop_front())) {
      Value bk = fma(twoU, b1, sub(constant(ck), b2));
      b2 = b1;
      b1 = bk;
    }
    return fma(u, b1, sub(constant(c.front()), b2));
  }

  /// e^x, relative error < 1.1e-11 (x clamped to +-kExpLimit).
  Value exp(Value x) {
    x = maxNum(minNum(x, kExpLimit), -kExpLimit);
    // x = k ln2 + r, |r| <= ln2 / 2: Cody and Waite's two-part ln 2.
    Value k = roundEven(mul(x, constant(kLog2E)));
    Value negK = neg(k);
    Value r = fma(negK, constant(kLn2Hi), x);
    r = fma(negK, constant(kLn2Lo), r);
    // Taylor to degree 9: relative error < |r|^10 / 10! * sqrt(2) < 1e-11.
    Value p = polynomial(r, taylorExp(9));
    // k + 1023 is in [1, 2045]: 2^k is normal.
    return mul(p, exp2Int(toInt(k)));
  }

  /// e^x - 1 without cancellation near 0.
  Value expm1(Value x) {
    // x * (1 + x/2! + ... + x^9/10!) for |x| <= ln2 / 2: error < 1e-12.
    SmallVector<double> series = taylorExp(10);
    Value small = mul(x, polynomial(x, ArrayRef<double>(series).drop_front()));
    Value e = exp(x);
    Value large = sub(e, constant(1.0));
    Value a = abs(x);
    Value isSmall =
        cmp(arith::CmpFPredicate::OLT, a, constant(std::log(2.0) / 2));
    return select(isSmall, small, large);
  }

  /// For x > 0 finite: x = 2^e * m with m in [sqrt(1/2), sqrt(2)); returns
  /// e (as f64) and ln m, relative error ~1e-16 (ln m is exact near m = 1).
  std::pair<Value, Value> logParts(Value x) {
    auto [e, m] = splitExponent(x);
    // ln m = 2 atanh(s), s = (m - 1) / (m + 1), |s| <= 0.1716: the odd
    // series to s^15 has error < 2e-13 relative.
    Value f = sub(m, constant(1.0));
    Value s = div(f, add(f, constant(2.0)));
    SmallVector<double> series;
    for (int k = 0; k <= 7; ++k)
      series.push_back(2.0 / (2 * k + 1));
    Value lnM = mul(s, polynomial(mul(s, s), series));
    return {e, lnM};
  }

private:
  /// 1/0!, 1/1!, ..., 1/n!
  static SmallVector<double> taylorExp(int n) {
    SmallVector<double> c{1.0};
    for (int k = 1; k <= n; ++k)
      c.push_back(c.back() / k);
    return c;
  }
};

/// An f32 function as a float64 kernel: x is the widened input; the
/// pattern rounds the result to f32.
using F64Kernel = Value (*)(F64Builder &, Value);

/// Rewrites an f32 (or vector of f32) `OpT` with one operand into
/// extf -> `kernel` in f64 -> truncf, keeping NaN inputs as they are.
template <typename OpT>
struct F64KernelPattern : OpRewritePattern<OpT> {
  F64KernelPattern(MLIRContext *ctx, F64Kernel kernel)
      : OpRewritePattern<OpT>(ctx), kernel(kernel) {}

  LogicalResult matchAndRewrite(OpT op,
                                PatternRewriter &rewriter) const override {
    Value x = op->getOperand(0);
    if (!getElementTypeOrSelf(x.getType()).isF32())
      return rewriter.notifyMatchFailure(op, "not f32");
    Location loc = op.getLoc();
    F64Builder f(rewriter, loc, x.getType());
    Type f64 = F64Builder::withElement(x.getType(), rewriter.getF64Type());
    Value wide = arith::ExtFOp::create(rewriter, loc, f64, x);
    Value y = arith::TruncFOp::create(rewriter, loc, x.getType(),
                                      kernel(f, wide));
    Value isNaN =
        arith::CmpFOp::create(rewriter, loc, arith::CmpFPredicate::UNO, x, x);
    rewriter.replaceOpWithNewOp<arith::SelectOp>(op, isNaN, x, y);
    return success();
  }

  F64Kernel kernel;
};

/// `fast` with the lanes where `outside` holds taken from `exact(b, loc)`,
/// which is built in a branch taken only when some lane is outside (a
/// scalar: when it is).
inline Value
replaceLanesOutside(OpBuilder &builder, Location loc, Value outside, Value fast,
                    function_ref<Value(OpBuilder &, Location)> exact) {
  Value any = outside;
  if (isa<VectorType>(outside.getType()))
    any = vector::ReductionOp::create(builder, loc, vector::CombiningKind::OR,
                                      outside);
  auto branch = scf::IfOp::create(
      builder, loc, any,
      [&](OpBuilder &b, Location loc) {
        Value v = arith::SelectOp::create(b, loc, outside, exact(b, loc), fast);
        scf::YieldOp::create(b, loc, v);
      },
      [&](OpBuilder &b, Location loc) { scf::YieldOp::create(b, loc, fast); });
  return branch.getResult(0);
}

/// Rewrites an f64 (or vector of f64) `OpT` whose fastmath flags allow an
/// approximate function (`afn`) into `kernel` applied directly: relative
/// error ~1e-11 rather than f64's 0.5 ulp, which is exact enough where the
/// result is rounded to f32 or narrower (Stax's lowering sets `afn` only
/// there: tp.randn's Box-Muller). The kernels are written for f32's range:
/// a vector with a lane whose magnitude is outside [smallest, largest]
/// (zero, infinities and NaN excepted) calls the exact function for those
/// lanes, in a branch taken only then.
template <typename OpT> struct ApproximateF64Pattern : OpRewritePattern<OpT> {
  ApproximateF64Pattern(MLIRContext *ctx, F64Kernel kernel, double smallest,
                        double largest)
      : OpRewritePattern<OpT>(ctx), kernel(kernel), smallest(smallest),
        largest(largest) {}

  LogicalResult matchAndRewrite(OpT op,
                                PatternRewriter &rewriter) const override {
    Value x = op.getOperand();
    Type type = x.getType();
    if (!getElementTypeOrSelf(type).isF64() ||
        !arith::bitEnumContainsAll(op.getFastmath(), arith::FastMathFlags::afn))
      return rewriter.notifyMatchFailure(op, "not f64 with afn");
    using P = arith::CmpFPredicate;
    Location loc = op.getLoc();
    F64Builder f(rewriter, loc, type);
    Value fast = kernel(f, x);
    Value magnitude = f.abs(x);
    Value outside = arith::OrIOp::create(
        rewriter, loc, f.cmp(P::OGT, magnitude, f.constant(largest)),
        arith::AndIOp::create(rewriter, loc,
                              f.cmp(P::OLT, magnitude, f.constant(smallest)),
                              f.cmp(P::ONE, magnitude, f.constant(0.0))));
    // Infinities are no lane for the exact function: the kernels take them.
    outside = arith::AndIOp::create(
        rewriter, loc, outside, f.cmp(P::ONE, magnitude, f.constant(INFINITY)));
    Value y = replaceLanesOutside(
        rewriter, loc, outside, fast,
        [&](OpBuilder &b, Location loc) { return OpT::create(b, loc, x); });
    Value isNaN = f.cmp(P::UNO, x, x);
    rewriter.replaceOpWithNewOp<arith::SelectOp>(op, isNaN, x, y);
    return success();
  }

  F64Kernel kernel;
  double smallest, largest;
};

} // namespace mlir::stax::codegen

#endif // STAX_LIB_CONVERSION_STAXTOLOOPS_F64MATHBUILDER_H
