//===- SpecialFunctions.cpp - the special functions generated code calls --===//
//
// The entry points of stax.special_function (Runtime.h). A file of its own:
// an ahead-of-time program that calls only these pulls no C++ runtime
// (sort's std::vector) out of libStaxRuntime.a, just the C math library.
//
//===----------------------------------------------------------------------===//
#include "Stax/Runtime/Runtime.h"
#include "Stax/Support/SpecialFunctions.h"

// The special functions: f64 is the shared definition, f32 the same in
// double rounded once (what the interpreter computes for f32).
namespace sf = mlir::stax::special;
#define STAX_RT_UNARY(NAME, FN)                                                \
  float stax_rt_##NAME##_f32(float x) {                                        \
    return static_cast<float>(FN(static_cast<double>(x)));                     \
  }                                                                            \
  double stax_rt_##NAME##_f64(double x) { return FN(x); }
STAX_RT_UNARY(lgamma, sf::lgamma)
STAX_RT_UNARY(digamma, sf::digamma)
STAX_RT_UNARY(erfinv, sf::erfinv)
STAX_RT_UNARY(ndtri, sf::ndtri)
STAX_RT_UNARY(erfcx, sf::erfcx)
STAX_RT_UNARY(frexp_mantissa, sf::frexpMantissa)
#undef STAX_RT_UNARY

float stax_rt_polygamma_f32(int64_t n, float x) {
  return static_cast<float>(sf::polygamma(n, static_cast<double>(x)));
}
double stax_rt_polygamma_f64(int64_t n, double x) { return sf::polygamma(n, x); }
float stax_rt_nextafter_f32(float from, float to) {
  return sf::nextafter(from, to);
}
double stax_rt_nextafter_f64(double from, double to) {
  return sf::nextafter(from, to);
}
int32_t stax_rt_frexp_exponent_f32(float x) {
  return sf::frexpExponent(static_cast<double>(x));
}
int32_t stax_rt_frexp_exponent_f64(double x) { return sf::frexpExponent(x); }
