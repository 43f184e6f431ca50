//===- F64TrigKernels.cpp - f32 circular and hyperbolic functions ---------===//
//
// f32 sin, cos, tan, asin, acos, atan, atan2, sinh and cosh for
// --stax-approximate-math, evaluated in float64 from the widened input and
// rounded once, like the other f64 kernels (ApproximateMath.cpp): each
// kernel's relative error is below 1e-11, so the f32 result is within
// 0.5 ulp + 2e-4 ulp of the exact value. Upstream's f32 approximations of
// these functions lose every digit above |x| ~ 2^26 (sin, cos) or reach
// 7-40 ulp (asin, atan; docs/Numerics.md), and libm is a scalar call per
// lane.
//
// sin, cos and tan reduce |x| by pi/2 in three parts (Cody and Waite, with
// fma): exact enough for |x| <= kReducedMax = 2^26. A vector with a lane above it
// takes a branch that computes those lanes with libm's f64 function, so
// that the common case stays straight-line code.
//
//===----------------------------------------------------------------------===//
#include "F64ExactKernels.h"
#include "F64MathBuilder.h"
#include "MathKernels.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using mlir::stax::codegen::ApproximateF64Pattern;
using mlir::stax::codegen::F64Builder;
using mlir::stax::codegen::F64Kernel;
using mlir::stax::codegen::F64KernelPattern;
using mlir::stax::codegen::replaceLanesOutside;

namespace {

constexpr double kTwoOverPi = 0.6366197723675814;
// pi/2 = kPiOver2Hi + kPiOver2Mid + kPiOver2Lo + O(6e-50), each rounded.
constexpr double kPiOver2Hi = 1.5707963267948966;
constexpr double kPiOver2Mid = 6.123233995736766e-17;
constexpr double kPiOver2Lo = -1.4973849048591698e-33;
constexpr double kPi = 3.141592653589793;
constexpr double kPiOver6 = 0.5235987755982989;
constexpr double kSqrt3 = 1.7320508075688772;
constexpr double kTanPiOver12 = 0.2679491924311227;
/// |x| up to which the three-part reduction is used. With k = round(|x|
/// 2/pi) <= 4.3e7, the first fma's rounding is at most 2^-53 (|r| + k
/// 6.2e-17) < 2^-53 |r| + 3e-25, and every f32 in (pi/4, 2^26] is at
/// least 4.1e-9 away from a multiple of pi/2 (scripts/
/// check-trig-reduction.py): the reduced argument is within 1.2e-16
/// relative.
constexpr double kReducedMax = 67108864.0; // 2^26
/// Beyond this |x|, sinh and cosh overflow f32 (at 89.42) and e^|x| is
/// still a finite f64.
constexpr double kHyperbolicMax = 90.0;

Value bitSet(F64Builder &f, Value q, int64_t mask) {
  Value bits = arith::AndIOp::create(f.getBuilder(), f.getLoc(), q,
                                     f.intConstant(mask));
  return f.cmpInt(arith::CmpIPredicate::ne, bits, 0);
}

Value exclusiveOr(F64Builder &f, Value p, Value q) {
  return arith::XOrIOp::create(f.getBuilder(), f.getLoc(), p, q);
}

Value signBit(F64Builder &f, Value x) {
  return f.cmpInt(arith::CmpIPredicate::slt, f.bitsOf(x), 0);
}

/// 1 / (2n + 1)!, or 1 / (2n)! when `even`, with alternating signs, for
/// n = first..last: the Taylor coefficients of sin and cos in r^2.
SmallVector<double> sinCosSeries(bool even, int first, int last) {
  SmallVector<double> c;
  for (int n = first; n <= last; ++n) {
    double factorial = 1.0;
    for (int k = 2; k <= 2 * n + (even ? 0 : 1); ++k)
      factorial *= k;
    c.push_back((n % 2 ? -1.0 : 1.0) / factorial);
  }
  return c;
}

/// sin and cos of |x| <= kReducedMax: |x| = k pi/2 + r, |r| <= pi/4 (and a
/// rounding), sin r and cos r by their Taylor series (to r^13 and r^14:
/// truncation below 3e-14 relative), and the quadrant k mod 4.
struct Quadrant {
  Value sinR, cosR;
  Value odd;  // k is odd: sin and cos swap
  Value high; // k mod 4 is 2 or 3
};

Quadrant reduce(F64Builder &f, Value a) {
  Value k = f.roundEven(f.mul(a, f.constant(kTwoOverPi)));
  Value negK = f.neg(k);
  Value r = f.fma(negK, f.constant(kPiOver2Hi), a);
  r = f.fma(negK, f.constant(kPiOver2Mid), r);
  r = f.fma(negK, f.constant(kPiOver2Lo), r);
  Value r2 = f.mul(r, r);
  // sin r = r + r^3 S(r^2), cos r = 1 + r^2 C(r^2).
  Value s = f.polynomial(r2, sinCosSeries(false, 1, 6));
  Value sinR = f.fma(f.mul(r, r2), s, r);
  Value c = f.polynomial(r2, sinCosSeries(true, 1, 7));
  Value cosR = f.fma(r2, c, f.constant(1.0));
  Value q = f.toInt(k);
  return {sinR, cosR, bitSet(f, q, 1), bitSet(f, q, 2)};
}

/// The reduction takes |x| clamped to kReducedMax (NaN included, so that
/// no NaN reaches the integer conversion); the pattern replaces the lanes
/// above it.
Value reducedArgument(F64Builder &f, Value x) {
  return f.minNum(f.abs(x), kReducedMax);
}

Value sinKernel(F64Builder &f, Value x) {
  Quadrant q = reduce(f, reducedArgument(f, x));
  Value v = f.select(q.odd, q.cosR, q.sinR);
  // sin is odd: sin x = -sin |x| for x < 0 (-0 included).
  Value negate = exclusiveOr(f, q.high, signBit(f, x));
  return f.select(negate, f.neg(v), v);
}

Value cosKernel(F64Builder &f, Value x) {
  Quadrant q = reduce(f, reducedArgument(f, x));
  Value v = f.select(q.odd, q.sinR, q.cosR);
  // cos(r + k pi/2) is -sin r, -cos r and sin r for k mod 4 = 1, 2, 3.
  Value negate = exclusiveOr(f, q.high, q.odd);
  return f.select(negate, f.neg(v), v);
}

Value tanKernel(F64Builder &f, Value x) {
  Quadrant q = reduce(f, reducedArgument(f, x));
  // tan(r + k pi/2) = -cos r / sin r for odd k: f32 inputs stay far
  // enough from the poles that sin r is never 0 there.
  Value num = f.select(q.odd, q.cosR, q.sinR);
  Value den = f.select(q.odd, q.sinR, q.cosR);
  Value v = f.div(num, den);
  Value negate = exclusiveOr(f, q.odd, signBit(f, x));
  return f.select(negate, f.neg(v), v);
}

/// atan(s / b) for 0 <= s <= b (b > 0) with one division: above tan(pi/12),
/// atan t = pi/6 + atan u with u = (t sqrt3 - 1) / (t + sqrt3) = (s sqrt3 -
/// b) / (s + b sqrt3) (the numerator rounded once by the fma: no
/// cancellation error where u is near 0), so |u| <= tan(pi/12) and the odd
/// Taylor series to u^17 has truncation error below 2.8e-12 relative.
Value atanOfRatio(F64Builder &f, Value s, Value b) {
  Value sqrt3 = f.constant(kSqrt3);
  Value bound = f.mul(b, f.constant(kTanPiOver12));
  Value mid = f.cmp(arith::CmpFPredicate::OGT, s, bound);
  Value shiftedNum = f.fma(s, sqrt3, f.neg(b));
  Value shiftedDen = f.fma(b, sqrt3, s);
  Value num = f.select(mid, shiftedNum, s);
  Value den = f.select(mid, shiftedDen, b);
  Value u = f.div(num, den);
  SmallVector<double> series;
  for (int n = 1; n <= 8; ++n)
    series.push_back((n % 2 ? -1.0 : 1.0) / (2 * n + 1));
  Value u2 = f.mul(u, u);
  Value u3 = f.mul(u, u2);
  Value p = f.fma(u3, f.polynomial(u2, series), u);
  return f.select(mid, f.add(p, f.constant(kPiOver6)), p);
}

/// atan(y / x) for y, x >= 0 not both 0 or both infinite: atan of the
/// smaller over the larger, reflected about pi/4 when y is the larger.
/// The f64 quotient of two f32 neither overflows nor underflows.
Value atanFirstQuadrant(F64Builder &f, Value y, Value x) {
  Value steep = f.cmp(arith::CmpFPredicate::OGT, y, x);
  Value small = f.select(steep, x, y);
  Value big = f.select(steep, y, x);
  Value v = atanOfRatio(f, small, big);
  return f.select(steep, f.sub(f.constant(kPi / 2), v), v);
}

Value atanKernel(F64Builder &f, Value x) {
  // atan inf = atan(1 / inf) reflected: pi/2.
  Value a = f.abs(x);
  Value v = atanFirstQuadrant(f, a, f.constant(1.0));
  return f.copySign(v, x);
}

// asin and acos: F64ExactKernels.cpp's, without the square root's error
// term (a division) that only a float64 result needs.
Value asinKernel(F64Builder &f, Value x) {
  return mlir::stax::codegen::arcSine(f, x, /*isAcos=*/false,
                                      /*carryRootError=*/false);
}

Value acosKernel(F64Builder &f, Value x) {
  return mlir::stax::codegen::arcSine(f, x, /*isAcos=*/true,
                                      /*carryRootError=*/false);
}

Value sinhKernel(F64Builder &f, Value x) {
  // sinh |x| = (E + E / (E + 1)) / 2 with E = e^|x| - 1: positive terms,
  // no cancellation near 0; expm1's 1e-12 relative carries over.
  Value e = f.expm1(f.minNum(f.abs(x), kHyperbolicMax));
  Value sum = f.add(e, f.div(e, f.add(e, f.constant(1.0))));
  return f.copySign(f.mul(sum, f.constant(0.5)), x);
}

Value coshKernel(F64Builder &f, Value x) {
  Value e = f.exp(f.minNum(f.abs(x), kHyperbolicMax));
  Value sum = f.add(e, f.div(f.constant(1.0), e));
  return f.mul(sum, f.constant(0.5));
}

/// atan2(y, x) with C's special cases: both zero or both infinite give
/// atan 0 or atan 1 and the quadrant from the signs (atan2(+-0, -0) = +-pi,
/// atan2(inf, -inf) = 3pi/4).
Value atan2Kernel(F64Builder &f, Value y, Value x) {
  using P = arith::CmpFPredicate;
  Value ax = f.abs(x), ay = f.abs(y);
  Value v = atanFirstQuadrant(f, ay, ax);
  // Each statement creates its ops in one order (C++ leaves the order of
  // a call's arguments unspecified, and the IR must not depend on the
  // compiler).
  OpBuilder &b = f.getBuilder();
  Location loc = f.getLoc();
  Value inf = f.constant(INFINITY);
  Value xInf = f.cmp(P::OEQ, ax, inf);
  Value yInf = f.cmp(P::OEQ, ay, inf);
  Value bothInf = arith::AndIOp::create(b, loc, xInf, yInf);
  v = f.select(bothInf, f.constant(kPi / 4), v);
  Value zero = f.constant(0.0);
  Value xZero = f.cmp(P::OEQ, ax, zero);
  Value yZero = f.cmp(P::OEQ, ay, zero);
  Value bothZero = arith::AndIOp::create(b, loc, xZero, yZero);
  v = f.select(bothZero, zero, v);
  Value negative = signBit(f, x);
  v = f.select(negative, f.sub(f.constant(kPi), v), v);
  Value r = f.copySign(v, y);
  Value xNaN = f.cmp(P::UNO, x, x);
  Value yNaN = f.cmp(P::UNO, y, y);
  Value nan = arith::OrIOp::create(b, loc, xNaN, yNaN);
  return f.select(nan, f.constant(NAN), r);
}

/// f32 sin, cos or tan: the f64 kernel, and for inputs above kReducedMax
/// (a branch taken only when some lane has one) libm's f64 function.
template <typename OpT>
struct ReducedTrigPattern : OpRewritePattern<OpT> {
  ReducedTrigPattern(MLIRContext *ctx, F64Kernel kernel)
      : OpRewritePattern<OpT>(ctx), kernel(kernel) {}

  LogicalResult matchAndRewrite(OpT op,
                                PatternRewriter &rewriter) const override {
    Value x = op.getOperand();
    Type type = x.getType();
    if (!getElementTypeOrSelf(type).isF32())
      return rewriter.notifyMatchFailure(op, "not f32");
    Location loc = op.getLoc();
    F64Builder f(rewriter, loc, type);
    Value wide = arith::ExtFOp::create(rewriter, loc, f.getFloatType(), x);
    Value fast = arith::TruncFOp::create(rewriter, loc, type, kernel(f, wide));
    Value magnitude = f.abs(wide);
    Value large = f.cmp(arith::CmpFPredicate::OGT, magnitude,
                        f.constant(kReducedMax));
    Value y = replaceLanesOutside(
        rewriter, loc, large, fast, [&](OpBuilder &b, Location loc) {
          Value exact = OpT::create(b, loc, wide);
          return arith::TruncFOp::create(b, loc, type, exact).getResult();
        });
    Value isNaN = f.cmp(arith::CmpFPredicate::UNO, x, x);
    rewriter.replaceOpWithNewOp<arith::SelectOp>(op, isNaN, x, y);
    return success();
  }

  F64Kernel kernel;
};

/// f32 atan2 through atan2Kernel, as F64KernelPattern does for one operand.
struct Atan2Pattern : OpRewritePattern<math::Atan2Op> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(math::Atan2Op op,
                                PatternRewriter &rewriter) const override {
    Type type = op.getType();
    if (!getElementTypeOrSelf(type).isF32())
      return rewriter.notifyMatchFailure(op, "not f32");
    Location loc = op.getLoc();
    F64Builder f(rewriter, loc, type);
    Type f64 = f.getFloatType();
    Value y = arith::ExtFOp::create(rewriter, loc, f64, op.getLhs());
    Value x = arith::ExtFOp::create(rewriter, loc, f64, op.getRhs());
    rewriter.replaceOpWithNewOp<arith::TruncFOp>(op, type,
                                                 atan2Kernel(f, y, x));
    return success();
  }
};

} // namespace

void mlir::stax::codegen::populateF64TrigKernelPatterns(
    RewritePatternSet &patterns) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<ReducedTrigPattern<math::SinOp>>(ctx, sinKernel);
  patterns.add<ReducedTrigPattern<math::CosOp>>(ctx, cosKernel);
  patterns.add<ReducedTrigPattern<math::TanOp>>(ctx, tanKernel);
  patterns.add<ApproximateF64Pattern<math::SinOp>>(ctx, sinKernel, 0.0,
                                                   kReducedMax);
  patterns.add<ApproximateF64Pattern<math::CosOp>>(ctx, cosKernel, 0.0,
                                                   kReducedMax);
  patterns.add<F64KernelPattern<math::AsinOp>>(ctx, asinKernel);
  patterns.add<F64KernelPattern<math::AcosOp>>(ctx, acosKernel);
  patterns.add<F64KernelPattern<math::AtanOp>>(ctx, atanKernel);
  patterns.add<F64KernelPattern<math::SinhOp>>(ctx, sinhKernel);
  patterns.add<F64KernelPattern<math::CoshOp>>(ctx, coshKernel);
  patterns.add<Atan2Pattern>(ctx);
}
