//===- Combiner.h - the combine state of stax reductions --------*- C++ -*-===//
//
// What a reduction carries from one reduced value to the next and how each
// step combines (the interpreter's Accumulator): one value for sum, prod,
// max, min, any and all; (value, position, count) for argmax/argmin;
// (mean, M2, count) for Welford and its partial-state combine. The steps
// work on scalars and, shaped like their state, on vectors of lanes.
//
//===----------------------------------------------------------------------===//
#ifndef STAX_LIB_CONVERSION_STAXTOLOOPS_COMBINER_H
#define STAX_LIB_CONVERSION_STAXTOLOOPS_COMBINER_H

#include "Stax/Dialect/Stax/IR/StaxOps.h"
#include "mlir/IR/Builders.h"

namespace mlir::stax::codegen {

class Combiner {
public:
  /// `t` is the yielded (combine) element type.
  Combiner(ReductionKind kind, Type t) : kind(kind), t(t) {}

  /// The state before any value (scalars).
  SmallVector<Value> init(OpBuilder &b, Location loc) const;
  /// The state after combining `yielded` into `state`.
  SmallVector<Value> step(OpBuilder &b, Location loc, ValueRange state,
                          ValueRange yielded) const;
  /// The state of a thread that combined every `threads`-th value from
  /// value `tid` on (BlockThreads.h): an argmax/argmin position counts that
  /// thread's values; it becomes the position in the whole range.
  SmallVector<Value> fromThreadShare(OpBuilder &b, Location loc,
                                     ValueRange state, Value tid,
                                     int64_t threads) const;
  /// Two threads' partial states combined. Up to rounding this does not
  /// depend on the order of `x` and `y`: an argmax/argmin takes the first
  /// NaN, else the first extreme, by position.
  SmallVector<Value> combinePartials(OpBuilder &b, Location loc, ValueRange x,
                                     ValueRange y) const;
  /// The values stored, one per result.
  SmallVector<Value> finish(ValueRange state) const {
    if (kind == ReductionKind::Argmax || kind == ReductionKind::Argmin)
      return {state[1]};
    return SmallVector<Value>(state);
  }

private:
  ReductionKind kind;
  Type t;
  bool isFloat() const { return isa<FloatType>(t); }
};

/// The constant `f` (floats) or `i` (integers) of type `t`, a scalar or a
/// vector splat.
Value constantOf(OpBuilder &b, Location loc, Type t, double f, int64_t i);

/// The interpreter's NaN-propagating max/min: NaN if either is NaN, else
/// `a > b ? a : b` (so ties keep the second operand, as it does).
Value nanPropagatingExtreme(OpBuilder &b, Location loc, Value a, Value v,
                            bool isMax);

} // namespace mlir::stax::codegen

#endif // STAX_LIB_CONVERSION_STAXTOLOOPS_COMBINER_H
