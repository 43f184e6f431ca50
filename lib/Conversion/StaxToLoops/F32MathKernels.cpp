//===- F32MathKernels.cpp - f32 exp/log/tanh/erf/... within 1 ulp ---------===//
//
// The default kernels of --stax-approximate-math (`kernels=f32`): computed
// in f32 (sixteen lanes per AVX-512 vector, against eight for the float64
// kernels), arranged so that the result is within 1 ulp of the exact value
// over the whole f32 range, denormal results and overflow included, like
// PyTorch's vectorized CPU kernels. What makes that possible in f32 is to
// round the large terms once: e^x is 2^k (1 + r s(r)) with the last step one
// fma; the logistic n / (e^y + 1) carries its denominator as an unevaluated
// sum of two floats and corrects the quotient by its exact residual.
// Measured maxima (bench/ulp_error.py, docs/Numerics.md) are stated with
// each kernel; the polynomials come from scripts/gen-f32-math-coefficients.py.
//
//===----------------------------------------------------------------------===//
#include "MathBuilder.h"
#include "MathKernels.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"
#include <cmath>

using namespace mlir;
using mlir::stax::codegen::MathBuilder;

namespace {

using P = arith::CmpFPredicate;

constexpr double kLog2E = 1.4426950408889634;
/// ln 2 = kLn2Hi + kLn2Lo, kLn2Hi with 9 significant bits so that k * kLn2Hi
/// is exact for every |k| < 2^15 (Cody and Waite).
constexpr double kLn2Hi = 0.693359375;
constexpr double kLn2Lo = -2.1219444005469057e-4;

// e^r = 1 + r (1 + r Q(r)) on |r| <= ln2 / 2; Q's weighted error (|r|^2
// |Q - exact|) is 1.1e-9 with the coefficients rounded to f32 (degree 4
// gives 4.6e-9, which costs expm1 0.3 ulp where e^r is doubled).
constexpr double kExpQ[] = {0.5,
                            0.1666666716337204,
                            0.041666269302368164,
                            0.008333269506692886,
                            0.001394613296724856,
                            0.00019915582379326224};
// tanh(x) = x + x^3 T(x^2) for |x| < kTanhSmall; |x^2 (T - exact)| < 4.7e-9.
constexpr double kTanhSmall = 0.9;
constexpr double kTanhT[] = {
    -0.3333333134651184,   0.13333295285701752,  -0.05396293103694916,
    0.021832557395100594,  -0.00871924590319395, 0.0032553921919316053,
    -0.0009715387132018805, 0.00016041733033489436};
/// tanh(x) rounds to 1 in f32 from about 9.01 on.
constexpr double kTanhOne = 9.5;
// erf(x) = x + x E(x^2) for |x| < 1; |E - exact| < 7.2e-9.
constexpr double kErfE[] = {
    0.12837916612625122,    -0.37612637877464294,  0.11283782869577408,
    -0.02686544507741928,   0.005221074912697077,  -0.0008484710706397891,
    0.00011270541290286928, -9.680125913291704e-06};
// erfc(a) = e^(-a^2) C(a - 2.5) for 1 <= a <= 4: |e^(-a^2) (C - exact)|
// < 3.7e-9. erf(a) rounds to 1 in f32 from about 3.92 on.
constexpr double kErfCenter = 2.5, kErfOne = 4.0;
constexpr double kErfcC[] = {
    0.21080760657787323,  -0.07434218376874924,   0.024914631620049477,
    -0.008132237009704113, 0.002302509965375066,  -0.0006611378048546612,
    0.000543294008821249, 0.0002250491816084832,  0.00010684064909582958};
// ln(1 + f) = f + f^2 (-1/2 + f R(f)) for f in [sqrt(1/2) - 1, sqrt(2) - 1];
// |f^3 (R - exact) / ln(1 + f)| < 7.6e-9.
constexpr double kLogR[] = {
    0.3333333134651184,   -0.250008225440979,   0.20001226663589478,
    -0.16623353958129883, 0.14201776683330536,  -0.13160233199596405,
    0.12761467695236206,  -0.07634225487709045};

/// e^x = 2^k (1 + r s) with k integral (as a float), r = x - k ln 2 in
/// [-ln2/2, ln2/2] (rounded once; rLo its rounding error) and s = 1 + r
/// Q(r); kBits is the f32 k + kRoundingShift as an integer, whose low bits
/// are k's. (Kernels that do not read rLo leave its ops dead.)
struct ExpParts {
  Value k, r, s, kBits, rLo;
};

/// 1.5 * 2^23: from 2^23 on the f32 spacing is 1, so y + kRoundingShift
/// rounds y to an integer (to even at ties) for |y| < 2^22, and the sum's
/// bits are those of kRoundingShift plus that integer.
constexpr double kRoundingShift = 12582912.0;
constexpr int64_t kRoundingShiftBits = 0x4B400000;

// Each statement creates its ops in one order: C++ leaves the order in
// which a call's arguments are evaluated unspecified (GCC and Clang
// differ), and the IR must not depend on the compiler.

ExpParts expParts(MathBuilder &f, Value x) {
  // k = x log2(e) rounded by the fma itself (|x log2(e)| < 2^22 for every
  // caller's clamped x): one operation instead of a product and a
  // rounding, and k's bits come without a conversion.
  Value log2E = f.constant(kLog2E);
  Value shift = f.constant(kRoundingShift);
  Value shifted = f.fma(x, log2E, shift);
  Value k = f.sub(shifted, shift);
  Value negK = f.neg(k);
  // x - k * kLn2Hi is exact (Sterbenz); the second step rounds once.
  Value ln2Hi = f.constant(kLn2Hi);
  Value reduced = f.fma(negK, ln2Hi, x);
  Value ln2Lo = f.constant(kLn2Lo);
  Value r = f.fma(negK, ln2Lo, reduced);
  Value rLo = f.fma(negK, ln2Lo, f.sub(reduced, r));
  Value q = f.polynomial(r, kExpQ);
  Value s = f.fma(r, q, f.constant(1.0));
  return {k, r, s, f.bitsOf(shifted), rLo};
}

/// k as an integer.
Value kInt(MathBuilder &f, const ExpParts &parts) {
  return f.subInt(parts.kBits, f.intConstant(kRoundingShiftBits));
}

/// 2^k as an f32 power of two, for a normal 2^k: kBits shifted into the
/// exponent field (kRoundingShift's own bits leave past bit 31) plus the
/// bias.
Value exp2Of(MathBuilder &f, const ExpParts &parts) {
  Value exponent = f.shiftLeft(parts.kBits, 23);
  return f.fromBits(f.addInt(exponent, f.intConstant(127 << 23)));
}

/// e^x within 0.861 ulp. k is in [-150, 128]: 2^k is applied as two normal
/// powers of two, so that a denormal result is rounded once.
Value expKernel(MathBuilder &f, Value x) {
  x = f.maxNum(f.minNum(x, 89.0), -104.0);
  ExpParts parts = expParts(f, x);
  Value p = f.fma(parts.r, parts.s, f.constant(1.0));
  Value ki = kInt(f, parts);
  Value half = f.shiftRightSigned(ki, 1);
  Value scaled = f.mul(p, f.exp2Int(half));
  return f.mul(scaled, f.exp2Int(f.subInt(ki, half)));
}

/// tanh within 0.965 ulp: the odd polynomial below kTanhSmall, else
/// 1 - 2 / (e^(2|x|) + 1) with the denominator rounded once.
Value tanhKernel(MathBuilder &f, Value x) {
  Value a = f.minNum(f.abs(x), kTanhOne);
  Value u = f.mul(a, a);
  Value cube = f.mul(u, a);
  Value small = f.fma(cube, f.polynomial(u, kTanhT), a);
  ExpParts parts = expParts(f, f.add(a, a));
  Value p = f.fma(parts.r, parts.s, f.constant(1.0));
  Value pow2 = exp2Of(f, parts);
  Value d = f.fma(pow2, p, f.constant(1.0));
  Value quotient = f.div(f.constant(2.0), d);
  Value large = f.sub(f.constant(1.0), quotient);
  Value isSmall = f.cmp(P::OLT, a, f.constant(kTanhSmall));
  return f.copySign(f.select(isSmall, small, large), x);
}

/// x + x E(x^2) for |x| < 1. Near 1, E = c0 + z (c1 + z R(z)) is the
/// difference of c0 and z w with w = c1 + z R about twice E: w's rounding
/// would come out doubled in E (and reach 1.09 ulp of erf), so w is kept
/// as wHi + wLo (Fast2Sum: |z R| < |c1|) and wLo added to E's last fma,
/// with z's own rounding error zLo (exact by an fma) through E's slope c1
/// + 2 c2 z.
Value erfSmall(MathBuilder &f, Value x) {
  Value z = f.mul(x, x);
  Value zLo = f.fma(x, x, f.neg(z));
  Value r = f.polynomial(z, ArrayRef<double>(kErfE).drop_front(2));
  Value zr = f.mul(z, r);
  Value c1 = f.constant(kErfE[1]);
  Value wHi = f.add(c1, zr);
  Value wLo = f.add(f.sub(c1, wHi), zr);
  Value twiceC2 = f.constant(2.0 * kErfE[2]);
  Value slope = f.fma(twiceC2, z, c1);
  Value lower = f.fma(slope, zLo, f.mul(z, wLo));
  Value e = f.fma(z, wHi, f.constant(kErfE[0]));
  Value corrected = f.add(e, lower);
  return f.fma(x, corrected, x);
}

/// erf within 0.917 ulp: x + x E(x^2) below 1; above, 1 - e^(-a^2) C(a)
/// with e^(-a^2) from the exact square a^2 = q + d.
Value erfKernel(MathBuilder &f, Value x) {
  Value a = f.abs(x);
  Value small = erfSmall(f, x);
  Value b = f.minNum(a, kErfOne);
  Value q = f.mul(b, b);
  Value negQ = f.neg(q);
  Value d = f.fma(b, b, negQ); // b^2 - q, exact
  ExpParts parts = expParts(f, negQ);
  // e^(-q - d) = 2^k (1 + r' s) with r' = r - d (|d| < 2^-20 is below the
  // polynomial's sensitivity to r).
  Value rd = f.sub(parts.r, d);
  Value p = f.fma(rd, parts.s, f.constant(1.0));
  Value g = f.mul(p, exp2Of(f, parts)); // k in [-24, -1]
  Value c = f.polynomial(f.sub(b, f.constant(kErfCenter)), kErfcC);
  Value negG = f.neg(g);
  Value large = f.copySign(f.fma(negG, c, f.constant(1.0)), x);
  Value isSmall = f.cmp(P::OLT, a, f.constant(1.0));
  return f.select(isSmall, small, large);
}

/// e ln2 + ln(1 + g) + tail for g in [sqrt(1/2) - 1, sqrt(2) - 1] and a
/// tail below g's ulp: ln(1 + g) = g + g^2 (-1/2 + g R(g)), the large terms
/// (g, then e kLn2Hi, both exact) added last.
Value lnOnePlus(MathBuilder &f, Value e, Value g, Value tail = {}) {
  Value g2 = f.mul(g, g);
  Value rg = f.polynomial(g, kLogR);
  Value c = f.mul(g2, f.fma(g, rg, f.constant(-0.5)));
  if (tail)
    c = f.add(c, tail);
  Value ln2Lo = f.constant(kLn2Lo);
  Value lo = f.add(g, f.fma(e, ln2Lo, c));
  Value ln2Hi = f.constant(kLn2Hi);
  return f.fma(e, ln2Hi, lo);
}

/// The results of log and log1p at the special arguments: `u` is the
/// argument of the logarithm (x, or 1 + x rounded).
Value logSpecials(MathBuilder &f, Value x, Value u, double minusOne,
                  Value y) {
  Value inf = f.constant(INFINITY);
  y = f.select(f.cmp(P::OEQ, x, inf), inf, y);
  Value zero = f.constant(0.0);
  Value minusInf = f.constant(-INFINITY);
  y = f.select(f.cmp(P::OEQ, u, zero), minusInf, y);
  Value nan = f.constant(NAN);
  return f.select(f.cmp(P::OLT, x, f.constant(minusOne)), nan, y);
}

/// ln x within 0.847 ulp: x = 2^e m, ln x = e ln2 + ln(1 + g) with
/// g = m - 1 exact. Denormal inputs are scaled by 2^23 first.
Value logKernel(MathBuilder &f, Value x) {
  constexpr double kSmallestNormal = 0x1p-126;
  Value denormal = f.cmp(P::OLT, x, f.constant(kSmallestNormal));
  Value scaled = f.mul(x, f.constant(0x1p23));
  auto [e, m] = f.splitExponent(f.select(denormal, scaled, x));
  Value e23 = f.sub(e, f.constant(23.0));
  e = f.select(denormal, e23, e);
  Value g = f.sub(m, f.constant(1.0));
  return logSpecials(f, x, x, 0.0, lnOnePlus(f, e, g));
}

/// ln(1 + x) within 0.951 ulp: u = 1 + x rounded = 2^e m; where e = 0,
/// ln(1 + x) = ln(1 + g) with g = x exactly; else ln u plus the rounding
/// error d = x - (u - 1) (exact) divided by u, as d 2^-e (1 - g + g^2): a
/// 7 % error in a term below 1 ulp.
Value log1pKernel(MathBuilder &f, Value x) {
  Value one = f.constant(1.0);
  Value u = f.add(x, one);
  auto [e, m] = f.splitExponent(u); // u >= 2^-24 for x > -1
  Value g = f.sub(m, one);
  Value d = f.sub(x, f.sub(u, one));
  Value inverseM = f.fma(g, f.sub(g, one), one);
  // d is 0 from u = 2^25 on; 2^-e is normal up to e = 126.
  Value scale = f.exp2Int(f.negInt(f.minInt(f.toInt(e), 100)));
  Value tail = f.mul(f.mul(d, scale), inverseM);
  Value zero = f.constant(0.0);
  Value exactG = f.cmp(P::OEQ, e, zero);
  g = f.select(exactG, x, g);
  tail = f.select(exactG, zero, tail);
  // ln(1 + x) has the sign of x (-0 included).
  Value y = f.copySign(lnOnePlus(f, e, g, tail), x);
  return logSpecials(f, x, u, -1.0, y);
}

/// e^x - 1 within 0.842 ulp: 2^k (1 + r + r^2 Q) - 1 summed as
/// (2^k - 1 + 2^k r) + (their rounding errors + 2^k r^2 Q), the first sum
/// by Fast2Sum. From x = 80 on the -1 is far below e^x's ulp: e^x.
Value expm1Kernel(MathBuilder &f, Value x) {
  Value xc = f.maxNum(f.minNum(x, 89.0), -18.0);
  ExpParts parts = expParts(f, xc);
  Value k = parts.k, r = parts.r;
  Value one = f.constant(1.0);
  Value h = exp2Of(f, parts); // 2^k, inf for k = 128 (the e^x branch)
  Value big = f.sub(h, one);
  // h - 1 is exact for |k| <= 24; its rounding error (exact by Sterbenz's
  // lemma: big is within a factor 2 of -1 for k <= 0, of h for k > 0).
  Value errorBelow = f.sub(h, f.add(big, one));
  Value errorAbove = f.sub(f.sub(h, big), one);
  Value kPositive = f.cmp(P::OGT, k, f.constant(0.0));
  Value bigError = f.select(kPositive, errorAbove, errorBelow);
  Value small = f.mul(h, r); // exact
  Value sum = f.add(big, small);
  Value sumError = f.sub(small, f.sub(sum, big));
  // The small terms: 2^k r^2 Q(r), plus the rounding errors of r^2 (wLo,
  // exact by an fma) and of r itself (rLo, through 2^k e^r ~ 2^k (1 + r)),
  // which for k = 1 weigh 3.4 times as much in e^x - 1 as in e^x.
  Value w = f.mul(r, r);
  Value wLo = f.fma(r, r, f.neg(w));
  Value q = f.polynomial(r, kExpQ);
  Value hw = f.mul(h, w);
  Value hRLo = f.mul(h, parts.rLo);
  Value errors = f.add(sumError, bigError);
  Value withR = f.fma(hRLo, r, f.add(hRLo, errors));
  Value withW = f.fma(f.mul(h, wLo), q, withR);
  Value tail = f.fma(hw, q, withW);
  Value y = f.add(sum, tail);
  Value large = expKernel(f, xc);
  Value isLarge = f.cmp(P::OGE, x, f.constant(80.0));
  // e^x - 1 has the sign of x (-0 included).
  return f.copySign(f.select(isLarge, large, y), x);
}

using Kernel = Value (*)(MathBuilder &, Value);

/// Rewrites an f32 (or vector of f32) `OpT` into `kernel`, keeping NaN
/// inputs as they are.
template <typename OpT>
struct F32KernelPattern : OpRewritePattern<OpT> {
  F32KernelPattern(MLIRContext *ctx, Kernel kernel)
      : OpRewritePattern<OpT>(ctx, /*benefit=*/2), kernel(kernel) {}

  LogicalResult matchAndRewrite(OpT op,
                                PatternRewriter &rewriter) const override {
    Value x = op->getOperand(0);
    if (!getElementTypeOrSelf(x.getType()).isF32())
      return rewriter.notifyMatchFailure(op, "not f32");
    MathBuilder f(rewriter, op.getLoc(), x.getType(), rewriter.getF32Type());
    Value y = kernel(f, x);
    rewriter.replaceOpWithNewOp<arith::SelectOp>(op, f.cmp(P::UNO, x, x), x,
                                                 y);
    return success();
  }

  Kernel kernel;
};

/// n / (e^y + 1), the logistic function's form after decomposition
/// (sigmoid: n = 1, y = -x; silu: n = x), within 0.931 ulp (silu; sigmoid
/// 0.853). The denominator D = 2^k (1 + r s) + 1 is kept as dHi + dLo (dHi
/// rounded once, dLo its error), and the quotient q = n / dHi is corrected by
/// its residual: q + (n - q dHi - q dLo) / dHi. Where e^y would overflow, the
/// quotient is computed for 2^-j D and scaled by 2^-j after, so that results
/// near the denormal range are rounded once (and n e^-y is right for n near
/// FLT_MAX).
struct F32LogisticPattern : OpRewritePattern<arith::DivFOp> {
  F32LogisticPattern(MLIRContext *ctx)
      : OpRewritePattern<arith::DivFOp>(ctx, /*benefit=*/2) {}

  LogicalResult matchAndRewrite(arith::DivFOp op,
                                PatternRewriter &rewriter) const override {
    Value n, y;
    if (!getElementTypeOrSelf(op.getType()).isF32() ||
        failed(stax::codegen::matchLogistic(op, n, y)))
      return rewriter.notifyMatchFailure(op, "not f32 n / (exp(y) + 1)");
    Location loc = op.getLoc();
    Type type = op.getType();
    MathBuilder f(rewriter, loc, type, rewriter.getF32Type());
    // e^-50 + 1 rounds to 1; n e^-200 is 0 for every finite n.
    auto parts = expParts(f, f.maxNum(f.minNum(y, 200.0), -50.0));
    // Where every lane has |k| <= 23 and a finite n (activations almost
    // always), 2^k + 1 is exact and nothing overflows: the common path
    // skips the rest, with the same result bit for bit.
    Value inRange = f.cmp(P::OLE, f.abs(parts.k), f.constant(23.0));
    Value nFinite = f.cmp(P::OLT, f.abs(n), f.constant(INFINITY));
    Value common = arith::AndIOp::create(rewriter, loc, inRange, nFinite);
    if (auto vector = dyn_cast<VectorType>(type))
      common = vector::ReductionOp::create(
          rewriter, loc, vector::CombiningKind::AND, common);
    auto ifOp = scf::IfOp::create(rewriter, loc, TypeRange{type}, common,
                                  /*withElseRegion=*/true);
    {
      OpBuilder::InsertionGuard g(rewriter);
      rewriter.setInsertionPointToStart(ifOp.thenBlock());
      scf::YieldOp::create(rewriter, loc, commonCase(f, n, parts));
      rewriter.setInsertionPointToStart(ifOp.elseBlock());
      scf::YieldOp::create(rewriter, loc, anyCase(f, n, y, parts));
    }
    rewriter.replaceOp(op, ifOp.getResults());
    return success();
  }

  /// n / D for D = dHi + dLo: the quotient q = n (1 / dHi), and q
  /// corrected by the exact residual n - q dHi and by dLo (with the sign of
  /// q, which a zero quotient of -0 loses in the fmas).
  static std::pair<Value, Value> quotients(MathBuilder &f, Value n, Value dHi,
                                           Value dLo) {
    Value t = f.div(f.constant(1.0), dHi);
    Value q = f.mul(n, t);
    Value negQ = f.neg(q);
    Value residual = f.fma(negQ, dHi, n); // exact
    Value correction = f.fma(negQ, dLo, residual);
    return {q, f.copySign(f.fma(correction, t, q), q)};
  }

  /// |k| <= 23 and n finite in every lane: 2^k + 1 is exact.
  static Value commonCase(MathBuilder &f, Value n, const ExpParts &parts) {
    Value big = exp2Of(f, parts);
    Value bigR = f.mul(big, parts.r); // exact
    Value sum = f.add(big, f.constant(1.0));
    Value dHi = f.fma(bigR, parts.s, sum);
    Value dLo = f.fma(bigR, parts.s, f.sub(sum, dHi));
    return quotients(f, n, dHi, dLo).second;
  }

  static Value anyCase(MathBuilder &f, Value n, Value y,
                       const ExpParts &parts) {
    // D = 2^-j (2^i (1 + r s) + 2^j) with i = k - j <= 64, j >= 0; the
    // 2^-j term is negligible beside 2^64 from j = 100 on (and 2^-j not
    // normal from 127 on).
    Value ki = kInt(f, parts);
    Value j = f.maxInt(f.subInt(ki, f.intConstant(64)), 0);
    Value big = f.exp2Int(f.subInt(ki, j));
    Value small = f.exp2Int(f.negInt(f.minInt(j, 100)));
    Value bigR = f.mul(big, parts.r); // exact
    // big + small rounded, and its error (Fast2Sum, larger operand first).
    Value sum = f.add(big, small);
    Value kPositive = f.cmpInt(arith::CmpIPredicate::sgt, ki, 0);
    Value bigFirst = f.add(f.sub(big, sum), small);
    Value smallFirst = f.add(f.sub(small, sum), big);
    Value sumError = f.select(kPositive, bigFirst, smallFirst);
    Value dHi = f.fma(bigR, parts.s, sum);
    Value dLoPart = f.fma(bigR, parts.s, f.sub(sum, dHi));
    Value dLo = f.add(dLoPart, sumError);
    auto [q, corrected] = quotients(f, n, dHi, dLo);
    // An infinite n keeps n / dHi (the residual would be NaN).
    Value inf = f.constant(INFINITY);
    Value nIsInf = f.cmp(P::OEQ, f.abs(n), inf);
    Value quotient = f.select(nIsInf, q, corrected);
    // Scaled by 2^-j in two steps (j <= 225): one rounding into the
    // denormal range.
    Value halfJ = f.shiftRightSigned(j, 1);
    Value scaled = f.mul(quotient, f.exp2Int(f.negInt(halfJ)));
    Value result = f.mul(scaled, f.exp2Int(f.subInt(halfJ, j)));
    // e^+inf + 1 = inf: n / inf is +-0, or NaN for an infinite n.
    Value yIsInf = f.cmp(P::OEQ, y, inf);
    Value overInf = f.mul(n, f.constant(0.0));
    result = f.select(yIsInf, overInf, result);
    return f.select(f.cmp(P::UNO, y, y), y, result);
  }
};

} // namespace

void mlir::stax::codegen::populateF32LogisticPattern(
    RewritePatternSet &patterns) {
  patterns.add<F32LogisticPattern>(patterns.getContext());
}

void mlir::stax::codegen::populateF32MathKernelPatterns(
    RewritePatternSet &patterns) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<F32KernelPattern<math::ExpOp>>(ctx, expKernel);
  patterns.add<F32KernelPattern<math::ExpM1Op>>(ctx, expm1Kernel);
  patterns.add<F32KernelPattern<math::LogOp>>(ctx, logKernel);
  patterns.add<F32KernelPattern<math::Log1pOp>>(ctx, log1pKernel);
  patterns.add<F32KernelPattern<math::TanhOp>>(ctx, tanhKernel);
  patterns.add<F32KernelPattern<math::ErfOp>>(ctx, erfKernel);
}
