//===- MergeLaneLoops.h - short innermost loops merged for vectors -*- C++
//-*-===//
//
// Loop normalization splits a loop whose accesses take its index apart with
// floordiv and mod (nearest upsampling by 2 stores [..., 64, 2] and reads
// the same element twice): the result is exact and linear, but an
// innermost loop of 2 is too short for vector code. For CPU code
// generation, such a loop is merged back with the loop outside it when the
// node stores the two contiguously and the merged body vectorizes with
// Periodic lanes (Vectorize.h): 16 lanes read 8 elements and repeat each.
//
//===----------------------------------------------------------------------===//
#ifndef STAX_LIB_CONVERSION_STAXTOLOOPS_MERGELANELOOPS_H
#define STAX_LIB_CONVERSION_STAXTOLOOPS_MERGELANELOOPS_H

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace mlir::stax::codegen {

/// Merges the innermost loop of each pointwise node of `fn` outside
/// kernels, when it is a power of two shorter than `width`, with the loop
/// outside it, where the node stores the two contiguously and the merged
/// node vectorizes `width` lanes at a time. Every address and value stays
/// the same.
void mergeShortLaneLoops(func::FuncOp fn, int64_t width);

} // namespace mlir::stax::codegen

#endif // STAX_LIB_CONVERSION_STAXTOLOOPS_MERGELANELOOPS_H
