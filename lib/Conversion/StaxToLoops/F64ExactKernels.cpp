//===- F64ExactKernels.cpp - f64 functions within 1 ulp on vectors -------===//
//
// Each kernel is straight-line float64 code whose rounding errors stay
// below the 2^-57 level until one final rounding: the reductions keep
// their error as a second double (Cody and Waite's split constants with
// fma, TwoSum), the large term of each series is added last, and the
// coefficients are Taylor's or (erf, atan, asin) fitted by
// scripts/gen-f64-math-coefficients.py. Measured against long double:
// docs/Numerics.md, python/tests/test_math_ulp_f64.py.
//
//===----------------------------------------------------------------------===//
#include "F64ExactKernels.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using mlir::stax::codegen::ExactF64Kernel;
using mlir::stax::codegen::F64Builder;
using mlir::stax::codegen::kLog2E;

namespace {

// Each statement creates its ops in one order: C++ leaves the order in
// which a call's arguments are evaluated unspecified (GCC and Clang
// differ), and the IR must not depend on the compiler.

/// ln 2 = kExpLn2Hi + kExpLn2Lo, kExpLn2Hi with 32 significant bits: k
/// kExpLn2Hi is exact for |k| < 2^21, and so is x - k kExpLn2Hi near x.
constexpr double kExpLn2Hi = 0.6931471803691238;
constexpr double kExpLn2Lo = 1.9082149292705877e-10;
/// The fast path's range: 2^k is normal and so is e^x.
constexpr double kExpFastLimit = 708.0;

/// e^(x + xLo) = 2^k (hi + lo) for |x| <= kExpFastLimit, |xLo| <= 2^-52
/// |x|: x = k ln2 + r + rLo with |r| <= ln2 / 2 (x - k ln2Hi is exact; r
/// is that minus k ln2Lo rounded, rLo its rounding error plus xLo),
/// e^(r + rLo) = 1 + r + r^2/2 + r^3 Q(r) + rLo e^r with Q the Taylor
/// series to r^15 / 16! (truncation < 3e-21). hi = 1 + r rounded; lo its
/// error (Fast2Sum) plus the rest: hi + lo is e^(r + rLo) to about 2^-57.
struct ExpParts {
  Value k, hi, lo;
};

ExpParts expParts(F64Builder &f, Value x, Value xLo = {}) {
  Value k = f.roundEven(f.mul(x, f.constant(kLog2E)));
  Value negK = f.neg(k);
  Value ln2Lo = f.constant(kExpLn2Lo);
  Value rHi = f.fma(negK, f.constant(kExpLn2Hi), x);
  Value r = f.fma(negK, ln2Lo, rHi);
  Value rLo = f.fma(negK, ln2Lo, f.sub(rHi, r));
  if (xLo)
    rLo = f.add(rLo, xLo);
  // 1 + r rounded, and its error.
  Value one = f.constant(1.0);
  Value hi = f.add(one, r);
  Value hiError = f.add(f.sub(one, hi), r);
  // lo = r^2 / 2 + (r^3 Q'(r) + rLo + hiError) with one rounding of the
  // sum: r^2 / 2 = z / 2 + zLo / 2 exactly, so that neither z's rounding
  // nor Q's reaches the large term.
  SmallVector<double> tail;
  double term = 1.0 / 6.0;
  for (int n = 4; n <= 16; ++n) {
    tail.push_back(term);
    term /= n;
  }
  Value z = f.mul(r, r);
  Value zLo = f.fma(r, r, f.neg(z));
  Value half = f.constant(0.5);
  // rLo e^r: rLo (1 + r + z / 2) is within 2^-5 relative, enough for the
  // reduction's own error (|rLo| < 2^-50); an xLo as large as 2^-52 |x|
  // (the rounding error of x = -a^2 for erf and erfc) needs e^r to r^4 / 4!,
  // within 2^-14 relative.
  Value expR =
      xLo ? f.fma(r, f.polynomial(r, {1.0, 0.5, 1.0 / 6, 1.0 / 24}), one)
          : f.fma(z, half, r);
  Value scaledRLo = xLo ? f.mul(rLo, expR) : f.fma(rLo, expR, rLo);
  Value lower = f.fma(zLo, half, f.add(scaledRLo, hiError));
  Value cube = f.mul(r, z);
  Value rest = f.fma(cube, f.polynomial(r, tail), lower);
  return {k, hi, f.fma(z, half, rest)};
}

/// e^x for |x| <= kExpFastLimit within 1 ulp (f64; 0.54 measured): the
/// parts above with one rounding above the 2^-57 level, hi + lo; 2^k
/// scales exactly.
Value exactExp(F64Builder &f, Value x) {
  ExpParts e = expParts(f, x);
  Value sum = f.add(e.hi, e.lo);
  return f.mul(sum, f.exp2Int(f.toInt(e.k)));
}

/// a + b as hi + lo exactly (Knuth's TwoSum).
std::pair<Value, Value> twoSum(F64Builder &f, Value a, Value b) {
  Value hi = f.add(a, b);
  Value bPart = f.sub(hi, a);
  Value aPart = f.sub(hi, bPart);
  Value aError = f.sub(a, aPart);
  Value bError = f.sub(b, bPart);
  return {hi, f.add(aError, bError)};
}

/// Below this x, e^x - 1 rounds to -1 (e^-40 < 2^-57).
constexpr double kExpm1Floor = -40.0;

/// e^x - 1 for kExpm1Floor <= x <= kExpFastLimit as hi + lo (not
/// normalized): 2^k hi and 2^k lo are exact, 2^k hi - 1 is summed exactly
/// (TwoSum; for k = 0 this is r with no cancellation error), and lo holds
/// the small terms.
std::pair<Value, Value> expm1Parts(F64Builder &f, Value x) {
  ExpParts e = expParts(f, x);
  Value scale = f.exp2Int(f.toInt(e.k));
  Value scaledHi = f.mul(e.hi, scale);
  auto [sum, sumError] = twoSum(f, scaledHi, f.constant(-1.0));
  Value scaledLo = f.mul(e.lo, scale);
  return {sum, f.add(sumError, scaledLo)};
}

/// e^x - 1 for x <= kExpFastLimit within 1 ulp (0.66 measured): the parts
/// above with one final rounding. x is clamped to kExpm1Floor, where the
/// result is -1.
Value exactExpm1(F64Builder &f, Value x) {
  auto [hi, lo] = expm1Parts(f, f.maxNum(x, kExpm1Floor));
  return f.add(hi, lo);
}

/// hi + lo normalized (Fast2Sum, |hi| >= |lo|): the rounded sum and its
/// error.
std::pair<Value, Value> fastTwoSum(F64Builder &f, Value hi, Value lo) {
  Value sum = f.add(hi, lo);
  return {sum, f.sub(lo, f.sub(sum, hi))};
}

/// n / d for double-doubles n = nHi + nLo, d = dHi + dLo (normalized):
/// the quotient q = nHi / dHi corrected by the residual (nHi - q dHi,
/// exact by an fma, + nLo - q dLo) / dHi, added last.
Value divide(F64Builder &f, Value nHi, Value nLo, Value dHi, Value dLo) {
  Value quotient = f.div(nHi, dHi);
  Value negQuotient = f.neg(quotient);
  Value residual = f.fma(negQuotient, dHi, nHi);
  Value lowTerms = f.fma(negQuotient, dLo, nLo);
  Value correction = f.div(f.add(residual, lowTerms), dHi);
  return f.add(quotient, correction);
}

/// Above this |x|, tanh x rounds to +-1 (1 - tanh 19.1 < 2^-54).
constexpr double kTanhOne = 20.0;

/// tanh(x) within 1 ulp for any x: E / (E + 2) with E = e^(2|x|) - 1 from
/// the parts above, E and E + 2 kept as double-doubles, the quotient
/// corrected by its residual; x's sign. Positive terms: no cancellation
/// near 0, where E is 2|x| to 2^-57 relative.
Value exactTanh(F64Builder &f, Value x) {
  Value a = f.minNum(f.abs(x), kTanhOne);
  auto [eSum, eRest] = expm1Parts(f, f.add(a, a));
  auto [eHi, eLo] = fastTwoSum(f, eSum, eRest);
  auto [dSum, dError] = twoSum(f, eHi, f.constant(2.0));
  auto [dHi, dLo] = fastTwoSum(f, dSum, f.add(dError, eLo));
  return f.copySign(divide(f, eHi, eLo, dHi, dLo), x);
}

/// pi/2 = kPio2Part1 + kPio2Part2 + kPio2Part3 (to 2^-119 relative); the
/// first two parts have 33 significant bits, so that k times each is
/// exact for |k| < 2^20.
constexpr double kTwoOverPi = 0.6366197723675814;
constexpr double kPio2Part1 = 1.5707963267341256;
constexpr double kPio2Part2 = 6.077100506303966e-11;
constexpr double kPio2Part3 = 2.0222662487959506e-21;
/// The fast path's range: |k| < 2^20.
constexpr double kTrigFastLimit = 1048576.0;

/// sin r and cos r, each as hi + lo (not normalized: |lo| < |hi| / 4),
/// for x = k pi/2 + r + rLo with r + rLo exact to 2^-98 |x| (x - k part1
/// and k part2 are exact, the two subtractions kept as TwoSums), which
/// leaves 2^-36 relative even at the multiple of pi/2 closest to a double
/// below 2^20. On |r| <= pi/4, Taylor series to r^17 / 17! and r^18 / 18!
/// with rLo's first-order term; hi is r, or 1 - r^2/2 rounded (its error
/// goes to lo), and lo the small terms.
struct ReducedSinCos {
  Value sinHi, sinLo, cosHi, cosLo;
  Value quadrant; // k as an integer
};

ReducedSinCos reduceSinCos(F64Builder &f, Value x) {
  Value k = f.roundEven(f.mul(x, f.constant(kTwoOverPi)));
  Value negK = f.neg(k);
  Value r1 = f.fma(negK, f.constant(kPio2Part1), x);
  auto [r2, e2] = twoSum(f, r1, f.mul(negK, f.constant(kPio2Part2)));
  auto [r, e3] = twoSum(f, r2, f.mul(negK, f.constant(kPio2Part3)));
  Value rLo = f.add(e2, e3);
  Value z = f.mul(r, r);
  Value zLo = f.fma(r, r, f.neg(z));
  SmallVector<double> sinTail, cosTail;
  double term = 1.0;
  for (int n = 1; n <= 18; ++n) {
    term /= n;
    double sign = (n / 2) % 2 ? -1.0 : 1.0;
    if (n >= 3 && n % 2 == 1)
      sinTail.push_back(sign * term); // -1/3!, 1/5!, ...
    if (n >= 4 && n % 2 == 0)
      cosTail.push_back(sign * term); // 1/4!, -1/6!, ...
  }
  Value one = f.constant(1.0);
  Value half = f.constant(0.5);
  // sin(r + rLo) = r + r^3 S(z) + rLo (1 - z/2).
  Value rLoCos = f.fma(f.neg(f.mul(half, z)), rLo, rLo);
  Value cube = f.mul(r, z);
  Value sinSmall = f.fma(cube, f.polynomial(z, sinTail), rLoCos);
  // cos(r + rLo) = (1 - z/2) - zLo/2 + z^2 C(z) - r rLo, 1 - z/2 summed
  // with its error (Fast2Sum: 1 >= z/2).
  Value h = f.mul(half, z);
  Value t = f.sub(one, h);
  Value tError = f.sub(f.sub(one, t), h);
  Value lower = f.fma(f.neg(half), zLo, tError);
  lower = f.fma(f.neg(r), rLo, lower);
  Value z2 = f.mul(z, z);
  Value cosSmall = f.fma(z2, f.polynomial(z, cosTail), lower);
  return {r, sinSmall, t, cosSmall, f.toInt(k)};
}

/// Whether `n & mask` is nonzero.
Value hasBits(F64Builder &f, Value n, int64_t mask) {
  return f.cmpInt(arith::CmpIPredicate::ne, f.andInt(n, mask), 0);
}

/// sin(x) (`isSin`) or cos(x) for |x| <= kTrigFastLimit within 1 ulp
/// (f64; 0.72 measured): the reduction above, the small terms added to
/// the large one last. The quadrant k mod 4 selects +-sin r or +-cos r.
Value sinCos(F64Builder &f, Value x, bool isSin) {
  ReducedSinCos q = reduceSinCos(f, x);
  Value sinR = f.add(q.sinHi, q.sinLo);
  Value cosR = f.add(q.cosHi, q.cosLo);
  // Quadrant n = k mod 4 (cos: n + 1): odd ones swap, 2 and 3 negate.
  Value n = q.quadrant;
  if (!isSin)
    n = f.addInt(n, f.intConstant(1));
  Value value = f.select(hasBits(f, n, 1), cosR, sinR);
  Value negate = hasBits(f, n, 2);
  return f.select(negate, f.neg(value), value);
}

/// tan(x) for |x| <= kTrigFastLimit within 1 ulp (0.73 measured): sin r /
/// cos r for even k, -cos r / sin r for odd k, of the reduction's
/// double-doubles (normalized first), divided as double-doubles.
Value exactTan(F64Builder &f, Value x) {
  ReducedSinCos q = reduceSinCos(f, x);
  auto [sinHi, sinLo] = fastTwoSum(f, q.sinHi, q.sinLo);
  auto [cosHi, cosLo] = fastTwoSum(f, q.cosHi, q.cosLo);
  Value odd = hasBits(f, q.quadrant, 1);
  Value nHi = f.select(odd, cosHi, sinHi);
  Value nLo = f.select(odd, cosLo, sinLo);
  Value dHi = f.select(odd, sinHi, cosHi);
  Value dLo = f.select(odd, sinLo, cosLo);
  Value t = divide(f, nHi, nLo, dHi, dLo);
  return f.select(odd, f.neg(t), t);
}

// atan t = t + t^3 P(t^2) for |t| <= 7/16, degree 11: 0.0282 ulp of atan t.
constexpr double kAtanTail[] = {
    -0.3333333333333333,  0.1999999999999941,    -0.14285714285566806,
    0.11111111096645038,  -0.09090908355602592,  0.07692285554889286,
    -0.06666241923359964, 0.05876946456755061,   -0.05216679739313656,
    0.04492259293193656,  -0.033128134256069586, 0.014773184616983806,
};
// atan c for c = 1/2, 1, 3/2, infinity, as hi + lo.
constexpr double kAtanHalfHi = 0.4636476090008061;
constexpr double kAtanHalfLo = 2.2698777452961687e-17;
constexpr double kAtanOneHi = 0.7853981633974483;
constexpr double kAtanOneLo = 3.061616997868383e-17;
constexpr double kAtanThreeHalvesHi = 0.982793723247329;
constexpr double kAtanThreeHalvesLo = 1.3903311031230998e-17;
constexpr double kAtanInfinityHi = 1.5707963267948966;
constexpr double kAtanInfinityLo = 6.123233995736766e-17;

/// Above this |x|, atan x rounds to pi/2 (and 1/|x| is far from
/// overflow in the reduction).
constexpr double kAtanSaturation = 1.152921504606847e18; // 2^60

/// atan(a + aLo) for a >= 0, |aLo| <= 2^-50 a (a below kAtanSaturation)
/// as atanC + t + lo, atanC + t to be summed exactly: a reduced to t =
/// (a - c) / (1 + c a), |t| <= 7/16, with c = 0, 1/2, 1, 3/2 by the
/// interval of a (breaks at 7/16, 11/16, 19/16) or t = -1/a above 39/16
/// (c = infinity). a - c is exact there, 1 + c a is kept as a
/// double-double and the division's residual is exact (fma), so t + tLo
/// is the reduced argument to about 2^-100; atan(t + tLo) = t + t^3
/// P(t^2) + tLo (1 - t^2), and lo holds all but t and atan c's high part.
struct AtanParts {
  Value atanC, t, lo;
};

AtanParts atanParts(F64Builder &f, Value a, Value aLo) {
  using P = arith::CmpFPredicate;
  auto atLeast = [&](double bound) {
    return f.cmp(P::OGE, a, f.constant(bound));
  };
  Value pastHalf = atLeast(7.0 / 16.0);
  Value pastOne = atLeast(11.0 / 16.0);
  Value pastThreeHalves = atLeast(19.0 / 16.0);
  Value large = atLeast(39.0 / 16.0);
  // Each by the interval: 0, then the value from 7/16, 11/16 and 19/16.
  auto pick = [&](double atHalf, double atOne, double atThreeHalves) {
    Value v = f.select(pastHalf, f.constant(atHalf), f.constant(0.0));
    v = f.select(pastOne, f.constant(atOne), v);
    return f.select(pastThreeHalves, f.constant(atThreeHalves), v);
  };
  Value c = pick(0.5, 1.0, 1.5);
  Value atanCHi = pick(kAtanHalfHi, kAtanOneHi, kAtanThreeHalvesHi);
  atanCHi = f.select(large, f.constant(kAtanInfinityHi), atanCHi);
  Value atanCLo = pick(kAtanHalfLo, kAtanOneLo, kAtanThreeHalvesLo);
  atanCLo = f.select(large, f.constant(kAtanInfinityLo), atanCLo);
  // t = n / d: (a - c + aLo) / (1 + c a + c aLo), or -1 / (a + aLo).
  Value zero = f.constant(0.0);
  Value n = f.select(large, f.constant(-1.0), f.sub(a, c));
  Value nLo = f.select(large, zero, aLo);
  Value product = f.mul(c, a);
  Value productError = f.fma(c, a, f.neg(product));
  auto [sum, sumError] = twoSum(f, f.constant(1.0), product);
  Value d = f.select(large, a, sum);
  Value dError = f.fma(c, aLo, f.add(sumError, productError));
  dError = f.select(large, aLo, dError);
  Value t = f.div(n, d);
  Value residual = f.add(f.fma(f.neg(t), d, n), nLo);
  Value tLo = f.div(f.fma(f.neg(t), dError, residual), d);
  // atan(t + tLo) = t + t^3 P(t^2) + tLo (1 - t^2).
  Value s = f.mul(t, t);
  Value lower = f.add(f.fma(f.neg(tLo), s, tLo), atanCLo);
  Value cube = f.mul(t, s);
  Value lo = f.fma(cube, f.polynomial(s, kAtanTail), lower);
  return {atanCHi, t, lo};
}

/// atan(x) within 1 ulp for any x (0.58 measured): the parts above for
/// |x|, atan c + t summed exactly (TwoSum) before the small terms, x's
/// sign.
Value exactAtan(F64Builder &f, Value x) {
  Value a = f.minNum(f.abs(x), kAtanSaturation);
  AtanParts p = atanParts(f, a, f.constant(0.0));
  auto [hi, hiError] = twoSum(f, p.atanC, p.t);
  Value r = f.add(hi, f.add(hiError, p.lo));
  return f.copySign(r, x);
}

// asin v = v + v^3 Q(v^2) for |v| <= 1/2, degree 13: 0.0165 ulp of asin v.
constexpr double kAsinTail[] = {
    0.16666666666666666,  0.07500000000000118,   0.044642857142551895,
    0.03038194447553234,  0.02237215744350722,   0.017352816540325496,
    0.01396378001220357,  0.011566459612121669,  0.009621842970100282,
    0.009319560794767446, 0.0030448799094556773, 0.019554513336123378,
    -0.01924167174674304, 0.02961201126495512,
};
constexpr double kPiHi = 3.141592653589793;
constexpr double kPiLo = 1.2246467991473532e-16;

/// atan2(y, x) within 1 ulp for any y, x, with C's special cases: v =
/// atan(q + qLo) of the smaller magnitude over the larger (q's rounding
/// error qLo from an exact fma residual), and the result C + m v with
/// (C, m) = (0, 1), (pi/2, -1) where |y| > |x|, (pi, -1) for x < 0 (-0
/// included), (pi/2, 1) for both; the large terms summed exactly before
/// the small ones, y's sign. Both zero give atan 0, both infinite atan 1,
/// a finite over an infinite 0.
Value exactAtan2(F64Builder &f, Value y, Value x) {
  using P = arith::CmpFPredicate;
  OpBuilder &b = f.getBuilder();
  Location loc = f.getLoc();
  Value ax = f.abs(x), ay = f.abs(y);
  Value steep = f.cmp(P::OGT, ay, ax);
  Value num = f.select(steep, ax, ay);
  Value den = f.select(steep, ay, ax);
  Value q = f.div(num, den);
  Value qLo = f.div(f.fma(f.neg(q), den, num), den);
  Value zero = f.constant(0.0), one = f.constant(1.0);
  Value inf = f.constant(INFINITY);
  Value denInf = f.cmp(P::OEQ, den, inf);
  Value numInf = f.cmp(P::OEQ, num, inf);
  Value bothInf = arith::AndIOp::create(b, loc, denInf, numInf);
  Value denZero = f.cmp(P::OEQ, den, zero);
  // num / inf = 0 exactly (the residual would be NaN); 0 / 0 is atan 0;
  // inf / inf is atan 1.
  Value exactQ = arith::OrIOp::create(b, loc, denInf, denZero);
  qLo = f.select(exactQ, zero, qLo);
  q = f.select(denZero, zero, q);
  q = f.select(bothInf, one, q);
  AtanParts p = atanParts(f, q, qLo);
  Value negativeX = f.cmpInt(arith::CmpIPredicate::slt, f.bitsOf(x), 0);
  Value cHi = f.select(negativeX, f.constant(kPiHi), zero);
  Value cLo = f.select(negativeX, f.constant(kPiLo), zero);
  cHi = f.select(steep, f.constant(kAtanInfinityHi), cHi);
  cLo = f.select(steep, f.constant(kAtanInfinityLo), cLo);
  Value flip = arith::XOrIOp::create(b, loc, steep, negativeX);
  Value m = f.select(flip, f.constant(-1.0), one);
  auto [s1, e1] = twoSum(f, cHi, f.mul(m, p.atanC));
  auto [s2, e2] = twoSum(f, s1, f.mul(m, p.t));
  Value lower = f.add(f.add(e1, e2), f.fma(m, p.lo, cLo));
  Value r = f.copySign(f.add(s2, lower), y);
  Value xNaN = f.cmp(P::UNO, x, x);
  Value yNaN = f.cmp(P::UNO, y, y);
  Value nan = arith::OrIOp::create(b, loc, xNaN, yNaN);
  return f.select(nan, f.constant(NAN), r);
}

// erf's Taylor series for |x| < 1/2 (truncation below 8.3e-22).
constexpr double kTwoOverSqrtPiHi = 1.1283791670955126;
constexpr double kTwoOverSqrtPiLo = 1.533545961316588e-17;
constexpr double kErfTaylor[] = {
    // x^3, x^5, ..., x^27
    -0.37612638903183754,    0.11283791670955126,     -0.026866170645131252,
    0.005223977625442188,    -0.0008548327023450853,  0.00012055332981789664,
    -1.492565035840625e-05,  1.6462114365889248e-06,  -1.6365844691234924e-07,
    1.4807192815879218e-08,  -1.2290555301717928e-09, 9.422759064650411e-11,
    -6.7113668551641105e-12,
};
// [1/2, 1], degree 14: 0.0487 ulp of erf.
constexpr double kErfMidOffset = 0.7111556336535151;
constexpr double kErfMid[] = {
    4.69744077164289e-17,    0.16073276729880184,     -0.030137393868525344,
    0.00041857491484040537,  0.0005886209739946608,   -5.1994852700435154e-05,
    -6.560671272920661e-06,  1.1251974480387955e-06,  3.512250349450975e-08,
    -1.5137684014896274e-08, 1.7741101094244902e-10,  1.487322491498184e-10,
    -6.324932093875704e-12,  -1.1039161013673697e-12, 7.960268438530335e-14,
};
// [1, 2], degree 18: relative error 8.34e-17, 0.0441 ulp of erf.
constexpr double kErfcxNear[] = {
    0.3215854164543175,      -0.08181145886628004,   0.01903775996386935,
    -0.0041163631624453285,  0.0008360838095666697,  -0.0001608111733745648,
    2.947085745359352e-05,   -5.171328643578382e-06, 8.72304470097022e-07,
    -1.4191195854702173e-07, 2.232843003399725e-08,  -3.405754747088907e-09,
    5.046311879732297e-10,   -7.276837070052906e-11, 1.0226959909395401e-11,
    -1.398818937040212e-12,  1.8756699565480571e-13, -2.6641436745735938e-14,
    3.4121119792861588e-15,
};
// [2, 6], degree 22: relative error 2.13e-16, 0.0074 ulp of erf.
constexpr double kErfcxFar[] = {
    0.13699945762506138,     -0.0647670121900434,     0.029861732979902442,
    -0.013449456613925681,   0.005925639503914783,    -0.002557084170898663,
    0.00108196155286389,     -0.00044932691779259816, 0.0001833076857658808,
    -7.352146720170117e-05,  2.9011975333511543e-05,  -1.1270541448280497e-05,
    4.313315804296021e-06,   -1.628018897393711e-06,  6.055795367733777e-07,
    -2.2060845634668786e-07, 7.99784942605959e-08,    -3.04675061071688e-08,
    1.0723835896540834e-08,  -2.442138832511043e-09,  8.629966046373942e-10,
    -8.166746651479502e-10,  2.720123111973317e-10,
};

/// erf x = x kTwoOverSqrtPiHi + tail for |x| < 1/2: the Taylor series x
/// (c0 + z P(z)) with z = x^2, z's rounding error zLo entering through the
/// derivative of z P(z) (to first order, c1 + 2 c2 z), and c0's second
/// part; the tail is below 0.1 |x|.
Value erfTaylorTail(F64Builder &f, Value x) {
  Value z = f.mul(x, x);
  Value zLo = f.fma(x, x, f.neg(z));
  Value series = f.polynomial(z, kErfTaylor);
  Value twiceC2 = f.constant(2.0 * kErfTaylor[1]);
  Value slope = f.fma(twiceC2, z, f.constant(kErfTaylor[0]));
  Value w = f.fma(z, series, f.mul(zLo, slope));
  return f.fma(x, w, f.mul(x, f.constant(kTwoOverSqrtPiLo)));
}

/// erf(x) within 1 ulp for any x, from three expansions selected by |x|:
/// below 1/2, the Taylor series (erfTaylorTail) with c0 x added last, in
/// an fma; below 1, erf(3/4) + a polynomial for the difference; up to 6, 1
/// - e^(-x^2) erfcx(|x|) with x^2 as a double-double feeding the exp parts
/// and erfcx one of two polynomials. Each polynomial's variable is
/// computed exactly (a subtraction and a power of two), and the large
/// term is added last, with one rounding. erf(6) rounds to 1,
/// and so do the larger |x|.
Value exactErf(F64Builder &f, Value x) {
  using P = arith::CmpFPredicate;
  Value tail = erfTaylorTail(f, x);
  Value small = f.fma(x, f.constant(kTwoOverSqrtPiHi), tail);
  Value magnitude = f.abs(x);
  Value m = f.minNum(f.maxNum(magnitude, 0.5), 1.0);
  Value uMid = f.mul(f.sub(m, f.constant(0.75)), f.constant(4.0));
  Value midOffset = f.constant(kErfMidOffset);
  Value mid = f.add(midOffset, f.polynomial(uMid, kErfMid));

  Value a = f.minNum(f.maxNum(magnitude, 1.0), 6.0);
  Value uNear = f.mul(f.sub(a, f.constant(1.5)), f.constant(2.0));
  Value near = f.polynomial(uNear, kErfcxNear);
  Value uFar = f.mul(f.sub(a, f.constant(4.0)), f.constant(0.5));
  Value far = f.polynomial(uFar, kErfcxFar);
  Value erfcx = f.select(f.cmp(P::OLT, a, f.constant(2.0)), near, far);
  Value a2 = f.mul(a, a);
  Value a2Lo = f.fma(a, a, f.neg(a2));
  Value negA2Lo = f.neg(a2Lo);
  ExpParts e = expParts(f, f.neg(a2), negA2Lo);
  Value loTerm = f.mul(e.lo, erfcx);
  Value scaled = f.fma(e.hi, erfcx, loTerm);
  Value erfc = f.mul(scaled, f.exp2Int(f.toInt(e.k)));
  Value large = f.sub(f.constant(1.0), erfc);

  Value belowOne = f.cmp(P::OLT, magnitude, f.constant(1.0));
  Value positive = f.select(belowOne, mid, large);
  Value withSign = f.copySign(positive, x);
  Value belowHalf = f.cmp(P::OLT, magnitude, f.constant(0.5));
  return f.select(belowHalf, small, withSign);
}

// [0.5, 1], degree 16: relative error 7.49e-18.
constexpr double kErfcxHalfLo = -5.335681035462232e-17;
constexpr double kErfcxHalf[] = {
    0.5069376502931449,      -0.09199317291394885,   0.014434883221956143,
    -0.002028688468670017,   0.00026090055674831536, -3.114966996062544e-05,
    3.4885738930506322e-06,  -3.693562193204623e-07, 3.719539429927566e-08,
    -3.580139366634323e-09,  3.3068719940073687e-10, -2.9410027836191583e-11,
    2.5256004719947655e-12,  -2.098775696242263e-13, 1.6922598911156157e-14,
    -1.3586639402228971e-15, 1.0350358504999337e-16,
};
// [0.5, 1], degree 18: relative error 7.48e-18.
constexpr double kErfcScaledNearLo = 2.2405427137640072e-17;
constexpr double kErfcScaledNear[] = {
    0.46817959203854037,    -0.042270244446368704,  0.0012092420392931361,
    0.0006295812459770508,  -0.0001971317783287133, 3.68053906361951e-05,
    -4.423080530839256e-06, 3.42291885694053e-08,   1.698137678366937e-07,
    -6.190282725037982e-08, 1.504111074069672e-08,  -2.76285383958412e-09,
    3.361511282508109e-10,  5.5773449791326684e-12, -1.9390299970962835e-11,
    7.572928239245689e-12,  -2.131674344670521e-12, 4.954610238494047e-13,
    -7.246223463392182e-14,
};
// [0, 0.5], degree 26: relative error 3.72e-18.
constexpr double kErfcScaledFarLo = 2.8786272556634877e-17;
constexpr double kErfcScaledFar[] = {
    0.5479978305002455,      -0.029861732979902283,   -0.010486636862004465,
    0.003429890672480085,    -0.00010971184707966444, -0.00026637073853862494,
    0.00010036643647483378,  -5.9752099342229524e-06, -1.0805369735181449e-05,
    5.641205394140234e-06,   -9.731073896113107e-07,  -4.582622681095758e-07,
    4.1441489297268957e-07,  -1.4238907037452113e-07, 1.5301209245355915e-10,
    2.91996780745492e-08,    -1.7947129509551066e-08, 4.8581649961501245e-09,
    8.065953864210684e-10,   -1.5921801312339487e-09, 1.064963406064816e-09,
    -4.3694711441486463e-10, -1.0614374673992018e-10, 2.4159753144870115e-10,
    -6.706512886942555e-11,  -3.184636550255975e-11,  1.474694428034579e-11,
};

/// erfc(x) rounds to 0 from here on (erfc 27.3 < 2^-1081).
constexpr double kErfcZero = 27.3;

/// c[0] + c0Lo + u S(u), S the polynomial of the coefficients after c[0],
/// as hi + lo: u S is split exactly (an fma) and c[0] + u S summed exactly
/// (TwoSum), so that S's rounding weighs |u S| / |c[0]| of the result.
std::pair<Value, Value> leadingTermLast(F64Builder &f, Value u,
                                        ArrayRef<double> c, double c0Lo) {
  Value s = f.polynomial(u, c.drop_front());
  Value m = f.mul(u, s);
  Value mLo = f.fma(u, s, f.neg(m));
  auto [hi, hiError] = twoSum(f, f.constant(c.front()), m);
  Value lower = f.add(mLo, f.constant(c0Lo));
  return {hi, f.add(hiError, lower)};
}

/// (aHi + aLo) (bHi + bLo) as hi + lo, the product of the high parts split
/// exactly.
std::pair<Value, Value> multiply(F64Builder &f, Value aHi, Value aLo, Value bHi,
                                 Value bLo) {
  Value hi = f.mul(aHi, bHi);
  Value hiError = f.fma(aHi, bHi, f.neg(hi));
  Value cross = f.fma(aHi, bLo, f.mul(aLo, bHi));
  return {hi, f.add(hiError, cross)};
}

/// 1 - erf x for |x| < 1/2: erf's Taylor series with its large term x c0
/// split exactly (an fma) and 1 - x c0 summed exactly (TwoSum).
Value oneMinusSmallErf(F64Builder &f, Value x) {
  Value tail = erfTaylorTail(f, x);
  Value c0 = f.constant(kTwoOverSqrtPiHi);
  Value p = f.mul(x, c0);
  Value pLo = f.fma(x, c0, f.neg(p));
  Value one = f.constant(1.0);
  auto [s, sError] = twoSum(f, one, f.neg(p));
  Value lower = f.sub(sError, f.add(pLo, tail));
  return f.add(s, lower);
}

/// erfcx(a) = e^(a^2) erfc(a) for 1/2 <= a <= kErfcZero as hi + lo: a
/// polynomial in a below 1; above, (t + tLo) S(t) for t + tLo = 1/a (the
/// residual 1 - t a is exact, an fma) and S = a erfcx(a), smooth in t, one
/// of two polynomials.
std::pair<Value, Value> erfcxParts(F64Builder &f, Value a) {
  using P = arith::CmpFPredicate;
  Value one = f.constant(1.0);
  Value four = f.constant(4.0);
  Value uHalf = f.mul(f.sub(a, f.constant(0.75)), four);
  auto [halfHi, halfLo] = leadingTermLast(f, uHalf, kErfcxHalf, kErfcxHalfLo);
  Value t = f.div(one, a);
  Value residual = f.fma(f.neg(t), a, one);
  Value tLo = f.mul(residual, t);
  Value uNear = f.mul(f.sub(t, f.constant(0.75)), four);
  auto [nearHi, nearLo] =
      leadingTermLast(f, uNear, kErfcScaledNear, kErfcScaledNearLo);
  Value uFar = f.fma(t, four, f.constant(-1.0));
  auto [farHi, farLo] =
      leadingTermLast(f, uFar, kErfcScaledFar, kErfcScaledFarLo);
  Value near = f.cmp(P::OLT, a, f.constant(2.0));
  Value scaledHi = f.select(near, nearHi, farHi);
  Value scaledLo = f.select(near, nearLo, farLo);
  auto [invHi, invLo] = multiply(f, t, tLo, scaledHi, scaledLo);
  Value belowOne = f.cmp(P::OLT, a, one);
  Value hi = f.select(belowOne, halfHi, invHi);
  return {hi, f.select(belowOne, halfLo, invLo)};
}

/// erfc(x) within 1 ulp for any x: 1 - erf x below |x| = 1/2; above,
/// erfc a = e^(-a^2) erfcx(a) for a = |x| (up to kErfcZero), e^(-a^2) the
/// exp parts of the double-double -a^2 (valid down to -a^2 = -746: only
/// expParts' 2^k leaves the normal range, applied here in two steps), and
/// erfc x = 2 - erfc a for x <= -1/2, summed exactly. The coefficients:
/// scripts/gen-f64-math-coefficients.py erfc.
Value exactErfc(F64Builder &f, Value x) {
  using P = arith::CmpFPredicate;
  Value small = oneMinusSmallErf(f, x);
  Value magnitude = f.abs(x);
  Value a = f.minNum(f.maxNum(magnitude, 0.5), kErfcZero);
  auto [rHi, rLo] = erfcxParts(f, a);
  Value a2 = f.mul(a, a);
  Value a2Lo = f.fma(a, a, f.neg(a2));
  Value negA2Lo = f.neg(a2Lo);
  ExpParts e = expParts(f, f.neg(a2), negA2Lo);
  auto [prodHi, prodLo] = multiply(f, e.hi, e.lo, rHi, rLo);
  // 2^k (k >= -1075) as two normal powers of two, so that a denormal
  // result is rounded once more, to its own spacing.
  Value k = f.toInt(e.k);
  Value kHalf = f.shiftRightSigned(k, 1);
  Value scale1 = f.exp2Int(kHalf);
  Value scale2 = f.exp2Int(f.subInt(k, kHalf));
  Value erfcHi = f.mul(f.mul(prodHi, scale1), scale2);
  Value erfcLo = f.mul(f.mul(prodLo, scale1), scale2);
  Value sum = f.add(prodHi, prodLo);
  Value positive = f.mul(f.mul(sum, scale1), scale2);
  Value two = f.constant(2.0);
  auto [d, dError] = twoSum(f, two, f.neg(erfcHi));
  Value negative = f.add(d, f.sub(dError, erfcLo));
  Value large = f.select(f.cmp(P::OLT, x, f.constant(0.0)), negative, positive);
  Value belowHalf = f.cmp(P::OLT, magnitude, f.constant(0.5));
  return f.select(belowHalf, small, large);
}

} // namespace

/// asin(x) (or with `isAcos`, acos(x)) within 1 ulp for |x| <= 1 (NaN
/// beyond; with carryRootError, else 2^-52 relative): asin v = v + v^3 Q(v^2) +
/// vLo (1 + v^2/2) for v = |x| below 1/2, and for v = sqrt((1 - |x|) / 2) (1 -
/// |x| exact there, the square root's error vLo from an exact fma) above, where
/// asin |x| = pi/2 - 2 asin v. Each result is C + m asin v: asin (0, 1) or
/// (pi/2, -2) with x's sign; acos (pi/2, -sign x), (0, 2) for x >= 1/2 and (pi,
/// -2) for x <= -1/2. C + m v (m v exact) is summed exactly (TwoSum) before the
/// small terms.
Value mlir::stax::codegen::arcSine(F64Builder &f, Value x, bool isAcos,
                                   bool carryRootError) {
  using P = arith::CmpFPredicate;
  Value a = f.abs(x);
  Value half = f.constant(0.5);
  Value w = f.mul(f.sub(f.constant(1.0), a), half);
  Value root = math::SqrtOp::create(f.getBuilder(), f.getLoc(), w);
  Value zero = f.constant(0.0);
  Value rootLo = zero;
  if (carryRootError) {
    Value rootResidual = f.fma(f.neg(root), root, w);
    rootLo = f.div(f.mul(rootResidual, half), root);
    rootLo = f.select(f.cmp(P::OEQ, root, zero), zero, rootLo);
  }
  Value small = f.cmp(P::OLT, a, half);
  Value v = f.select(small, a, root);
  Value vLo = f.select(small, zero, rootLo);
  Value s = f.mul(v, v);
  Value vLoScaled = f.fma(f.mul(vLo, half), s, vLo);
  Value cube = f.mul(v, s);
  Value tail = f.fma(cube, f.polynomial(s, kAsinTail), vLoScaled);
  // C + m (v + tail).
  Value cHi, cLo, m;
  if (!isAcos) {
    cHi = f.select(small, zero, f.constant(kAtanInfinityHi));
    cLo = f.select(small, zero, f.constant(kAtanInfinityLo));
    m = f.select(small, f.constant(1.0), f.constant(-2.0));
  } else {
    Value negative = f.cmp(P::OLT, x, zero);
    Value smallM = f.neg(f.copySign(f.constant(1.0), x));
    cHi = f.select(negative, f.constant(kPiHi), zero);
    cLo = f.select(negative, f.constant(kPiLo), zero);
    cHi = f.select(small, f.constant(kAtanInfinityHi), cHi);
    cLo = f.select(small, f.constant(kAtanInfinityLo), cLo);
    m = f.select(negative, f.constant(-2.0), f.constant(2.0));
    m = f.select(small, smallM, m);
  }
  auto [hi, hiError] = twoSum(f, cHi, f.mul(m, v));
  Value lower = f.fma(m, tail, cLo);
  Value r = f.add(hi, f.add(hiError, lower));
  return isAcos ? r : f.copySign(r, x);
}

/// The kernel of a unary function as an ExactF64Kernel's.
template <Value (*Fn)(F64Builder &, Value)>
Value unary(F64Builder &f, ValueRange operands) {
  return Fn(f, operands.front());
}

template <bool IsSin> Value sinOrCos(F64Builder &f, ValueRange operands) {
  return sinCos(f, operands.front(), IsSin);
}

template <bool IsAcos> Value asinOrAcos(F64Builder &f, ValueRange operands) {
  return mlir::stax::codegen::arcSine(f, operands.front(), IsAcos,
                                      /*carryRootError=*/true);
}

Value atan2(F64Builder &f, ValueRange operands) {
  return exactAtan2(f, operands[0], operands[1]);
}

std::optional<ExactF64Kernel>
mlir::stax::codegen::lookupExactF64Kernel(Operation *op) {
  using Kernel = std::optional<ExactF64Kernel>;
  constexpr double inf = INFINITY;
  return llvm::TypeSwitch<Operation *, Kernel>(op)
      .Case([](math::ExpOp) {
        return ExactF64Kernel{unary<exactExp>, -kExpFastLimit, kExpFastLimit,
                              /*keepZeros=*/false};
      })
      .Case([](math::ExpM1Op) {
        // Below kExpm1Floor the kernel's -1 is exact; -0 stays -0.
        return ExactF64Kernel{unary<exactExpm1>, -inf, kExpFastLimit,
                              /*keepZeros=*/true};
      })
      .Case([](math::SinOp) {
        return ExactF64Kernel{sinOrCos<true>, -kTrigFastLimit, kTrigFastLimit,
                              /*keepZeros=*/true};
      })
      .Case([](math::CosOp) {
        return ExactF64Kernel{sinOrCos<false>, -kTrigFastLimit, kTrigFastLimit,
                              /*keepZeros=*/false};
      })
      .Case([](math::TanhOp) {
        return ExactF64Kernel{unary<exactTanh>, -inf, inf,
                              /*keepZeros=*/true};
      })
      .Case([](math::TanOp) {
        return ExactF64Kernel{unary<exactTan>, -kTrigFastLimit, kTrigFastLimit,
                              /*keepZeros=*/true};
      })
      .Case([](math::AtanOp) {
        return ExactF64Kernel{unary<exactAtan>, -inf, inf,
                              /*keepZeros=*/true};
      })
      .Case([](math::Atan2Op) {
        return ExactF64Kernel{atan2, -inf, inf, /*keepZeros=*/false};
      })
      .Case([](math::AsinOp) {
        return ExactF64Kernel{asinOrAcos<false>, -inf, inf,
                              /*keepZeros=*/true};
      })
      .Case([](math::AcosOp) {
        return ExactF64Kernel{asinOrAcos<true>, -inf, inf,
                              /*keepZeros=*/false};
      })
      .Case([](math::ErfOp) {
        return ExactF64Kernel{unary<exactErf>, -inf, inf, /*keepZeros=*/true};
      })
      .Case([](math::ErfcOp) {
        return ExactF64Kernel{unary<exactErfc>, -inf, inf,
                              /*keepZeros=*/false};
      })
      .Default([](Operation *) { return std::nullopt; });
}
