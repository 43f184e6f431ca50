//===- SkinnyContraction.h - vector code for products of few rows -*- C++
//-*-===//
//
// A product C = op(A) B whose result has few rows (m <= 16) and many
// columns: a convolution with few output channels, [O, C*kh*kw] x
// [C*kh*kw, N*H*W]. Debian's OpenBLAS reaches 28-52 GFLOPS on these
// shapes (2 threads: 8 x 72 x 32768 in 0.7 ms, the time of one thread),
// while the product only needs B read once. The code here keeps one vector
// accumulator per row of C for a block of `width` columns, walks k reading
// one vector of B's row and broadcasting one element of A's column per
// row into a fused multiply-add (BLAS's kernels fuse too: a product is
// class 2, Section 6.5), and stores the block; the blocks of every batch
// are the parallel loop. With fewer rows a block spans more vectors, so
// that each of B's rows is read in longer contiguous pieces. B not
// transposed only (its rows are the vectors); the rest goes to BLAS.
//
//===----------------------------------------------------------------------===//
#ifndef STAX_LIB_CONVERSION_STAXTOLOOPS_SKINNYCONTRACTION_H
#define STAX_LIB_CONVERSION_STAXTOLOOPS_SKINNYCONTRACTION_H

#include "NodeLoops.h"

namespace mlir::stax::codegen {

/// A row-major (batched) product C[batch, m, n] = op(A) B[batch, k, n],
/// op(A) = A[batch, m, k] or, with transA, A[batch, k, m] transposed.
struct ContractionShape {
  int64_t batch, m, n, k;
  bool transA;
};

/// The most rows of C the skinny code handles: one accumulator register
/// per row, with B's vector and a broadcast beside them.
constexpr int64_t kMaxSkinnyRows = 16;
/// Vectors of columns per block: kMaxSkinnyRows / m of them, at most this
/// many (fewer rows: longer contiguous reads of B's rows, as many
/// accumulators).
constexpr int64_t kMaxSkinnyVectors = 4;
/// A block walks k rows of B, n elements apart. Past this many rows and
/// columns, the walk's lines compete for the same cache sets (rows 2^j
/// bytes apart map to one L1 set) and BLAS, which copies B into packed
/// panels, measured faster on some runs (16 x 576 x 8192: 0.3-1.6x).
constexpr int64_t kMaxSkinnyDepth = 256;

/// Whether a product of `elementType` with `shape` (B not transposed) runs
/// as skinny vector code: f32, at most kMaxSkinnyRows rows, k or n at most
/// kMaxSkinnyDepth, at least four vectors of columns, and vector code
/// enabled.
bool isSkinnyContraction(Type elementType, const ContractionShape &shape,
                         const LoopOptions &options);

/// Emits C = op(A) B on the flat memrefs `a`, `bm`, `c`.
void emitSkinnyContraction(OpBuilder &b, Location loc, Value a, Value bm,
                           Value c, const ContractionShape &shape,
                           const LoopOptions &options);

} // namespace mlir::stax::codegen

#endif // STAX_LIB_CONVERSION_STAXTOLOOPS_SKINNYCONTRACTION_H
