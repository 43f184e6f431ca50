//===- VectorMathLibrary.h - f64 vector math through libmvec ----*- C++ -*-===//
#ifndef STAX_CONVERSION_VECTORMATHLIBRARY_H
#define STAX_CONVERSION_VECTORMATHLIBRARY_H

namespace mlir::stax {

/// Which of glibc's libmvec variants --stax-vector-math-calls calls for f64
/// math functions on vectors (docs/Numerics.md has their measured errors).
enum class VectorMathLibrary {
  /// The host's widest: AVX512 where it has avx512f, AVX2 where it has avx2
  /// and fma, else None; None as well where Stax was built without
  /// libmvec.
  Auto,
  /// No library: libm per lane (bitwise the interpreter's).
  None,
  /// `_ZGVdN4v_<fn>`: 4 lanes in a ymm register.
  AVX2,
  /// `_ZGVeN8v_<fn>`: 8 lanes in a zmm register.
  AVX512,
};

/// `library` with Auto resolved for the host this process runs on.
VectorMathLibrary resolveVectorMathLibrary(VectorMathLibrary library);

} // namespace mlir::stax

#endif // STAX_CONVERSION_VECTORMATHLIBRARY_H
