//===- MathKernels.h - pieces of --stax-approximate-math --------*- C++ -*-===//
//
// The pass and the f64 kernels of exp, log, erf and their kin live in
// ApproximateMath.cpp, the f64 kernels of the circular and hyperbolic
// functions in F64TrigKernels.cpp, the f32 kernels in F32MathKernels.cpp;
// both kernel sets recognize the logistic form.
//
//===----------------------------------------------------------------------===//
#ifndef STAX_LIB_CONVERSION_STAXTOLOOPS_MATHKERNELS_H
#define STAX_LIB_CONVERSION_STAXTOLOOPS_MATHKERNELS_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::stax::codegen {

/// Matches `n / (exp(y) + 1)` (the sum in either order), the form that
/// sigmoid (n = 1, y = -x) and silu (n = x) decompose into.
LogicalResult matchLogistic(arith::DivFOp op, Value &n, Value &y);

/// The f32 logistic kernel (to run before the exp patterns see its exp).
void populateF32LogisticPattern(RewritePatternSet &patterns);

/// f32 exp, expm1, log, log1p, tanh and erf within 1 ulp, at benefit 2
/// (over the f64 kernels for the same ops).
void populateF32MathKernelPatterns(RewritePatternSet &patterns);

/// f32 sin, cos, tan, asin, acos, atan, atan2, sinh and cosh through
/// float64 kernels (F64TrigKernels.cpp), within 0.5 ulp + 2e-4 ulp.
void populateF64TrigKernelPatterns(RewritePatternSet &patterns);

} // namespace mlir::stax::codegen

#endif // STAX_LIB_CONVERSION_STAXTOLOOPS_MATHKERNELS_H
