//===- SpecialFunctions.h - the scalar special functions --------*- C++ -*-===//
//
// One implementation of each special function that has no math-dialect
// twin (lgamma, digamma, polygamma, erfinv, ndtri, erfcx, nextafter, frexp),
// shared by the tp interpreter, the stax body interpreter and the runtime
// that compiled code calls (libStaxRuntime links no MLIR, so this is plain
// C++): the three compute the same bits.
//
// The algorithms are eager PyTorch 1.13's (aten/src/ATen/native/Math.h)
// where the eager result is the oracle of a test that reaches it at float64
// precision: lgamma is the C library's, digamma and the Hurwitz zeta are
// Cephes's, trigamma (polygamma of order 1) is eager's six-step recurrence
// plus asymptotic series (accurate only to ~5e-10 relative, but digamma's
// derivative must be eager's), erfinv is Pavlis's rational approximation
// with two Newton steps, ndtri is Cephes's. erfcx is our own: exp(x^2)
// erfc(x) with x^2's rounding error folded in for 0 <= x < 2, Laplace's
// continued fraction above, and eager's reflection 2 exp(x^2) - erfcx(-x)
// for x < 0. The Cephes coefficients are under the 3-clause BSD license
// (Copyright (c) 2018, Steven Moshier).
//
// float versions compute in double and round once: at least as accurate as
// eager's float kernels, and one definition for both types.
//
//===----------------------------------------------------------------------===//
#ifndef STAX_SUPPORT_SPECIALFUNCTIONS_H
#define STAX_SUPPORT_SPECIALFUNCTIONS_H

#include <cmath>
#include <cstdint>
#include <limits>

namespace mlir::stax::special {

namespace detail {
constexpr double kPi = 3.14159265358979323846;
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

/// c[0] x^n + ... + c[n] (Horner, Cephes's polevl).
template <int N> double horner(double x, const double (&c)[N]) {
  double r = c[0];
  for (int i = 1; i < N; ++i)
    r = r * x + c[i];
  return r;
}
/// x^N + c[0] x^(N-1) + ... + c[N-1] (Cephes's p1evl: a leading 1).
template <int N> double hornerMonic(double x, const double (&c)[N]) {
  double r = x + c[0];
  for (int i = 1; i < N; ++i)
    r = r * x + c[i];
  return r;
}
} // namespace detail

/// log|Gamma(x)|: +inf at the poles (0 and the negative integers).
inline double lgamma(double x) { return std::lgamma(x); }

/// The logarithmic derivative of Gamma (Cephes psi): -inf at +0, +inf at
/// -0, NaN at the negative integers; reflection below 0, the recurrence up
/// to 10, then the asymptotic series.
inline double digamma(double x) {
  using namespace detail;
  if (x == 0)
    return std::copysign(kInf, -x);
  if (x < 0) {
    if (x == std::trunc(x))
      return kNaN;
    // tan(pi * frac(x)) is more accurate than tan(pi * x) for |x| > 1.
    double whole;
    double frac = std::modf(x, &whole);
    return digamma(1 - x) - kPi / std::tan(kPi * frac);
  }
  double acc = 0;
  while (x < 10) {
    acc -= 1 / x;
    x += 1;
  }
  constexpr double psi10 = 2.25175258906672110764;
  if (x == 10)
    return acc + psi10;
  // Bernoulli terms B_2k / (2k) of the series, highest order first.
  static constexpr double series[] = {
      8.33333333333333333333E-2,  -2.10927960927960927961E-2,
      7.57575757575757575758E-3,  -4.16666666666666666667E-3,
      3.96825396825396825397E-3,  -8.33333333333333333333E-3,
      8.33333333333333333333E-2};
  double tail = 0;
  if (x < 1.0e17) {
    double z = 1.0 / (x * x);
    tail = z * horner(z, series);
  }
  return acc + std::log(x) - (0.5 / x) - tail;
}

/// polygamma of order 1, eager's formula: reflection below 1/2, six steps
/// of the recurrence, then the asymptotic series to 1/x^7.
inline double trigamma(double x) {
  using namespace detail;
  double sign = 1, acc = 0;
  if (x < 0.5) {
    sign = -1;
    double s = std::sin(kPi * x);
    acc -= (kPi * kPi) / (s * s);
    x = 1 - x;
  }
  for (int i = 0; i < 6; ++i) {
    acc += 1 / (x * x);
    x += 1;
  }
  double ixx = 1 / (x * x);
  acc += (1 + 1 / (2 * x) +
          ixx * (1. / 6 - ixx * (1. / 30 - ixx * (1. / 42)))) /
         x;
  return sign * acc;
}

/// The Hurwitz zeta function sum_k (k + q)^-s (Cephes zeta: direct sum,
/// then Euler-Maclaurin).
inline double hurwitzZeta(double s, double q) {
  using namespace detail;
  constexpr double eps = 1.11022302462515654042E-16;
  // (2k)! / B_2k for k = 1..12.
  static constexpr double factor[] = {
      12.0,
      -720.0,
      30240.0,
      -1209600.0,
      47900160.0,
      -1.8924375803183791606e9,
      7.47242496e10,
      -2.950130727918164224e12,
      1.1646782814350067249e14,
      -4.5979787224074726105e15,
      1.8152105401943546773e17,
      -7.1661652561756670113e18};
  if (s == 1)
    return kInf;
  if (s < 1)
    return kNaN;
  if (q <= 0) {
    if (q == std::floor(q))
      return kInf;
    if (s != std::floor(s))
      return kNaN;
  }
  double sum = std::pow(q, -s);
  double a = q, term = 0;
  int i = 0;
  while (i < 9 || a <= 9.0) {
    i += 1;
    a += 1;
    term = std::pow(a, -s);
    sum += term;
    if (-eps * sum < term && term < eps * sum)
      return sum;
  }
  double w = a;
  sum += term * w / (s - 1);
  sum -= 0.5 * term;
  double rising = 1, k = 0;
  for (double f : factor) {
    rising *= s + k;
    term /= w;
    double t = rising * term / f;
    sum += t;
    if (std::fabs(t / sum) < eps)
      return sum;
    k += 1;
    rising *= s + k;
    term /= w;
    k += 1;
  }
  return sum;
}

/// The n-th derivative of digamma: digamma (n = 0), trigamma (n = 1),
/// (-1)^(n+1) n! zeta(n + 1, x) above. n < 0 is NaN.
inline double polygamma(int64_t n, double x) {
  if (n < 0)
    return detail::kNaN;
  if (n == 0)
    return digamma(x);
  if (n == 1)
    return trigamma(x);
  double nf = static_cast<double>(n);
  double sign = (n % 2) ? 1.0 : -1.0;
  return sign * std::exp(std::lgamma(nf + 1)) * hurwitzZeta(nf + 1, x);
}

/// The inverse of erf on [-1, 1] (Pavlis's rational first guess, two
/// Newton steps): +-inf at +-1, NaN outside.
inline double erfinv(double y) {
  using namespace detail;
  static constexpr double a[] = {-0.140543331, 0.914624893, -1.645349621,
                                 0.886226899};
  static constexpr double b[] = {0.012229801, -0.329097515, 1.442710462,
                                 -2.118377725, 1.0};
  static constexpr double c[] = {1.641345311, 3.429567803, -1.624906493,
                                 -1.970840454};
  static constexpr double d[] = {1.637067800, 3.543889200, 1.0};
  double ay = std::fabs(y);
  if (ay > 1.0)
    return kNaN;
  if (ay == 1.0)
    return std::copysign(kInf, y);
  double x;
  if (ay <= 0.7) {
    double z = y * y;
    x = y * horner(z, a) / horner(z, b);
  } else {
    double z = std::sqrt(-std::log((1.0 - ay) / 2.0));
    x = std::copysign(horner(z, c), y) / horner(z, d);
  }
  constexpr double twoOverSqrtPi = 2.0 * 0.564189583547756286948;
  for (int step = 0; step < 2; ++step)
    x = x - (std::erf(x) - y) / (twoOverSqrtPi * std::exp(-x * x));
  return x;
}

/// The inverse of the standard normal CDF (Cephes ndtri): -inf at 0, +inf
/// at 1, NaN outside [0, 1].
inline double ndtri(double y0) {
  using namespace detail;
  // |y - 1/2| <= 3/8: x / sqrt(2 pi) = w + w^3 P0(w^2) / Q0(w^2).
  static constexpr double p0[] = {
      -5.99633501014107895267E1, 9.80010754185999661536E1,
      -5.66762857469070293439E1, 1.39312609387279679503E1,
      -1.23916583867381258016E0};
  static constexpr double q0[] = {
      1.95448858338141759834E0,  4.67627912898881538453E0,
      8.63602421390890590575E1,  -2.25462687854119370527E2,
      2.00260212380060660359E2,  -8.20372256168333339912E1,
      1.59056225126211695515E1,  -1.18331621121330003142E0};
  // z = sqrt(-2 log y) in [2, 8).
  static constexpr double p1[] = {
      4.05544892305962419923E0,   3.15251094599893866154E1,
      5.71628192246421288162E1,   4.40805073893200834700E1,
      1.46849561928858024014E1,   2.18663306850790267539E0,
      -1.40256079171354495875E-1, -3.50424626827848203418E-2,
      -8.57456785154685413611E-4};
  static constexpr double q1[] = {
      1.57799883256466749731E1,   4.53907635128879210584E1,
      4.13172038254672030440E1,   1.50425385692907503408E1,
      2.50464946208309415979E0,   -1.42182922854787788574E-1,
      -3.80806407691578277194E-2, -9.33259480895457427372E-4};
  // z in [8, 64).
  static constexpr double p2[] = {
      3.23774891776946035970E0,  6.91522889068984211695E0,
      3.93881025292474443415E0,  1.33303460815807542389E0,
      2.01485389549179081538E-1, 1.23716634817820021358E-2,
      3.01581553508235416007E-4, 2.65806974686737550832E-6,
      6.23974539184983293730E-9};
  static constexpr double q2[] = {
      6.02427039364742014255E0,  3.67983563856160859403E0,
      1.37702099489081330271E0,  2.16236993594496635890E-1,
      1.34204006088543189037E-2, 3.28014464682127739104E-4,
      2.89247864745380683936E-6, 6.79019408009981274425E-9};
  constexpr double expMinus2 = 0.13533528323661269189;
  constexpr double sqrt2Pi = 2.50662827463100050242E0;
  if (y0 == 0)
    return -kInf;
  if (y0 == 1)
    return kInf;
  if (!(y0 > 0 && y0 < 1))
    return kNaN;
  bool lower = true;
  double y = y0;
  if (y > 1.0 - expMinus2) {
    y = 1.0 - y;
    lower = false;
  }
  if (y > expMinus2) {
    y -= 0.5;
    double y2 = y * y;
    double x = y + y * (y2 * horner(y2, p0) / hornerMonic(y2, q0));
    return x * sqrt2Pi;
  }
  double z = std::sqrt(-2.0 * std::log(y));
  double x0 = z - std::log(z) / z;
  double iz = 1.0 / z;
  double x1 = z < 8.0 ? iz * horner(iz, p1) / hornerMonic(iz, q1)
                      : iz * horner(iz, p2) / hornerMonic(iz, q2);
  double x = x0 - x1;
  return lower ? -x : x;
}

/// The scaled complementary error function exp(x^2) erfc(x).
inline double erfcx(double x) {
  using namespace detail;
  if (std::isnan(x))
    return x;
  if (x < 0) {
    // Eager's reflection and cut-offs: exp(x^2) overflows below -26.7 and
    // erfcx(-x) is below half an ulp of 2 exp(x^2) below -6.1.
    if (x < -26.7)
      return kInf;
    double twice = 2 * std::exp(x * x);
    return x < -6.1 ? twice : twice - erfcx(-x);
  }
  if (x < 2) {
    // exp(x^2) = exp(p) exp(e) with p + e = x^2 exactly (e = fma(x, x, -p)).
    double p = x * x;
    double e = std::fma(x, x, -p);
    return std::exp(p) * std::erfc(x) * (1 + e);
  }
  // Laplace's continued fraction 1/sqrt(pi) / (x + (1/2)/(x + (2/2)/(x +
  // ...))), summed from the tail: the term counts keep the truncation below
  // 1e-17 relative (20 terms at 10, 30 at 4, 60 at 2).
  int terms = x < 4 ? 60 : x < 10 ? 30 : 20;
  double t = x;
  for (int k = terms; k >= 1; --k)
    t = x + (0.5 * k) / t;
  return 0.564189583547756286948 / t;
}

/// The next representable value after `from` in the direction of `to`.
inline double nextafter(double from, double to) {
  return std::nextafter(from, to);
}
inline float nextafter(float from, float to) { return std::nextafter(from, to); }

/// frexp's mantissa (+-[0.5, 1), or x itself for 0, inf and NaN) and
/// exponent (x = mantissa * 2^exponent). Exact for every float type.
inline double frexpMantissa(double x) {
  int e = 0;
  return std::frexp(x, &e);
}
inline int32_t frexpExponent(double x) {
  int e = 0;
  (void)std::frexp(x, &e);
  return e;
}

} // namespace mlir::stax::special

#endif // STAX_SUPPORT_SPECIALFUNCTIONS_H
