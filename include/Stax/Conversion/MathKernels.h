//===- MathKernels.h - which math kernels --stax-approximate-math uses -*- C++ -*-===//
#ifndef STAX_CONVERSION_MATHKERNELS_H
#define STAX_CONVERSION_MATHKERNELS_H

namespace mlir::stax {

/// How --stax-approximate-math evaluates f32 math functions
/// (docs/Numerics.md has the measured errors).
enum class MathKernels {
  /// f32 arithmetic, within 1 ulp: exp, expm1, log, log1p, tanh, erf and
  /// the logistic form; the other functions as with F64.
  F32,
  /// float64 arithmetic rounded once: within 0.5 ulp + 1e-3 ulp, about half
  /// the throughput.
  F64,
  /// Upstream's f32 polynomials for exp, expm1, log1p, tanh, erf and erfc
  /// (2 to 5 ulp).
  Upstream,
};

} // namespace mlir::stax

#endif // STAX_CONVERSION_MATHKERNELS_H
