//===- F64ExactKernels.h - f64 functions within 1 ulp -----------*- C++ -*-===//
//
// --stax-vector-math-calls computes f64 exp, expm1, tanh, sin, cos, tan,
// asin, acos, atan, atan2, erf and erfc on vectors with these kernels
// rather than libm per lane (or libmvec's variants, which are 1.7 to 3.5
// ulp for these functions).
//
//===----------------------------------------------------------------------===//
#ifndef STAX_LIB_CONVERSION_STAXTOLOOPS_F64EXACTKERNELS_H
#define STAX_LIB_CONVERSION_STAXTOLOOPS_F64EXACTKERNELS_H

#include "F64MathBuilder.h"
#include <optional>

namespace mlir::stax::codegen {

/// A float64 kernel within 1 ulp of the exact function for inputs in
/// [lower, upper]; the caller takes libm's function elsewhere (infinities
/// included) and returns NaN inputs as they are. A kernel of two operands
/// (atan2) takes every input and returns NaN itself.
struct ExactF64Kernel {
  /// The function of the op's operands.
  Value (*kernel)(F64Builder &, ValueRange);
  double lower, upper;
  /// Whether zeros must be returned as they are: the kernel may lose the
  /// sign of f(-0) = -0.
  bool keepZeros;
};

/// asin(x) (with `isAcos`, acos(x)) for |x| <= 1, NaN beyond: within 1 ulp
/// of float64 with `carryRootError`; without, one division fewer and
/// 2^-52 relative, which results rounded to f32 need no better.
Value arcSine(F64Builder &f, Value x, bool isAcos, bool carryRootError);

/// The kernel for `op` (math.exp, expm1, tanh, sin, cos, tan, asin, acos,
/// atan, atan2 or erf), if it has one.
std::optional<ExactF64Kernel> lookupExactF64Kernel(Operation *op);

} // namespace mlir::stax::codegen

#endif // STAX_LIB_CONVERSION_STAXTOLOOPS_F64EXACTKERNELS_H
