//===- Materialization.h - when a value goes to memory ----------*- C++ -*-===//
//
// Section 6.6: a value with several users is materialized when one of the
// thresholds of NOTES.md holds for its body; Section 6.4: an intermediate
// buffer's layout follows the strides its body reads with. Both are
// interpretations of an emitted body (Section 6.7): counting and reading.
//
//===----------------------------------------------------------------------===//
#ifndef STAX_ANALYSIS_MATERIALIZATION_H
#define STAX_ANALYSIS_MATERIALIZATION_H

#include "Stax/Dialect/Stax/IR/StaxOps.h"
#include "Stax/Support/Target.h"
#include <string>

namespace mlir::stax::lowering {

/// What the counting interpretation finds in a body.
struct BodyStats {
  unsigned ops = 0;     // arith/math ops (constants and index math excluded)
  unsigned reads = 0;   // loads
  unsigned buffers = 0; // distinct buffers read
  bool expensive = false; // exp, log*, tanh (sigmoid decomposes to exp)
};
BodyStats countBody(mlir::Region &body);

using stax::Target;

/// The reason a value with `users` users and body `stats` is materialized
/// on `target`, or "" to inline it.
std::string materializationReason(const BodyStats &stats, unsigned users,
                                  Target target);

/// A layout for an intermediate buffer whose body is `body`: its dims ordered
/// by the strides they are read with (largest outermost, ties keep the
/// row-major order), stored densely in that order.
LayoutAttr chooseLayout(PointwiseOp node);

/// The largest lane stride that CPU vector code reads as contiguous vectors
/// and shuffles (StaxToLoops' vectorizer) instead of gathering lane by lane.
constexpr int64_t kMaxShuffledStride = 4;

/// Whether CPU vector code reads lanes `stride` elements apart as whole
/// vectors: contiguous (1), reversed (-1) or deinterleaved from a few
/// contiguous vectors (2 .. kMaxShuffledStride).
constexpr bool readsWholeVectors(int64_t stride) {
  return stride == 1 || stride == -1 ||
         (stride > 1 && stride <= kMaxShuffledStride);
}

/// How many consecutive elements along `dim`, from the origin of `node`'s
/// index space, every load that moves along `dim` reads at one stride that
/// vector code reads as whole vectors (readsWholeVectors: at most `limit`
/// and the dim's size; loads that do not move along `dim` do not shorten
/// it). A copy whose innermost loop runs along a dim with a short run
/// reads scattered elements.
int64_t wholeVectorRun(PointwiseOp node, unsigned dim, int64_t limit = 64);

} // namespace mlir::stax::lowering

#endif // STAX_ANALYSIS_MATERIALIZATION_H
