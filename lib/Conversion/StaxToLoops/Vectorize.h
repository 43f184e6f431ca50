//===- Vectorize.h - vector code for innermost node loops -------*- C++ -*-===//
//
// The innermost loop of a node runs `width` lanes per iteration when its
// body allows it: every index the body computes is affine in the loop
// (so each load has a constant lane stride: 0 is a broadcast, 1 a vector
// load, others a gather) and every other op is elementwise. Anything else
// (masked loads, data-dependent indices that vary per lane) keeps the
// scalar loop. Elementwise code is bitwise equal to the scalar loop; a
// vectorized reduction reassociates (class 2, Section 6.9).
//
//===----------------------------------------------------------------------===//
#ifndef STAX_LIB_CONVERSION_STAXTOLOOPS_VECTORIZE_H
#define STAX_LIB_CONVERSION_STAXTOLOOPS_VECTORIZE_H

#include "NodeLoops.h"

namespace mlir::stax::codegen {

/// A load of a pointwise body served from a tile staged in scratch
/// (TransposeTiles.h) rather than from its buffer: the element of the
/// node's last two loop indices (row, col) is at
/// (row - rowLb) * cols + (col - colLb) of `tile`, so a strided read along
/// the last loop becomes a vector load.
struct StagedLoad {
  Operation *load;
  Value tile;
  Value rowLb, colLb;
  int64_t cols;
};

/// A contiguous load of a pointwise body in a kernel that also prefetches
/// the same lanes of the kernel's next outer iteration, `offset` elements
/// further: softmax's exponentials then overlap the next row's trip from
/// memory instead of waiting for it in the next row's max.
struct PrefetchedLoad {
  Operation *load;
  Value offset;
};

/// How the vector code of a pointwise node reads particular loads, and
/// how it stores.
struct VectorPlan {
  SmallVector<StagedLoad> staged;
  SmallVector<PrefetchedLoad> prefetched;
  /// Non-temporal vector stores, aligned by a scalar prologue (when the
  /// vector's bytes are a power of two of at least 16), then a fence.
  bool nontemporal = false;
  /// Comparisons of the lane index with a constant whose value is known
  /// over the whole loop range being emitted (a piece of an index-set
  /// split): they become constants, so their masked loads fold to plain
  /// loads or to nothing.
  DenseMap<Operation *, bool> knownCompares;
};

/// True when vectorizePointwise would emit vector code for `op` (with
/// `periodic`: also where its vectors must start at a multiple of
/// vectorPeriod).
bool isVectorizablePointwise(PointwiseOp op, int64_t width,
                             bool periodic = false);

/// Emits the innermost loop [lb, ub) of pointwise `op` with the other loop
/// indices fixed to `fixed`: a vector loop over whole groups of `width`
/// lanes, then `scalarTail(iv)` for the rest. `checkStore(vector, address)`
/// runs before each vector store (the NaN check). The vector loop reads
/// the loads of `plan` as it says. Fails, emitting nothing, when the body
/// cannot be vectorized.
LogicalResult vectorizePointwise(OpBuilder &b, PointwiseOp op,
                                 ValueRange fixed, Value lb, Value ub,
                                 BufferMap &buffers, int64_t width,
                                 function_ref<void(Value)> scalarTail,
                                 function_ref<void(Value, Value)> checkStore,
                                 const VectorPlan &plan = VectorPlan());

/// Emits one vector evaluation of pointwise `op` at its loop indices
/// `args`, the last one lane 0 of `width` consecutive lanes (a multiple of
/// vectorPeriod(op, width)), and stores the `width` results
/// (`checkStore(vector, address)` first). Fails, emitting nothing, under
/// the conditions of vectorizePointwise.
LogicalResult
vectorizePointwiseLanes(OpBuilder &b, PointwiseOp op, ValueRange args,
                        BufferMap &buffers, int64_t width,
                        function_ref<void(Value, Value)> checkStore);

/// The period (a power of two dividing `width`) that the first lane of
/// each vector of `op` must be a multiple of: more than 1 where its body
/// reads at a floordiv or mod of the lane index (the gradient of a strided
/// slice); 1 for any other node.
int64_t vectorPeriod(PointwiseOp op, int64_t width);

/// The first index in [lb, ub) that is a multiple of `period` (a power of
/// two), or ub, with `scalarTail(iv)` emitted for the indices before it.
Value periodicStart(OpBuilder &b, Location loc, Value lb, Value ub,
                    int64_t period, function_ref<void(Value)> scalarTail);

/// True when vectorizeScatterLanes would emit vector code for `op`: its
/// last loop has at least `width` iterations, consecutive addresses along
/// it, and a body that vectorizes and does not read `op`'s base.
bool isVectorizableScatter(ScatterOp op, int64_t width);

/// True when scatter `op`'s address is an affine.apply of its last loop
/// index with coefficient 1 plus terms whose coefficients are multiples of
/// that loop's range (whatever their values: scatter_add along dim 0 reads
/// its rows from the index): different columns then never write the same
/// element, and chunks of columns may run in parallel.
bool scatterColumnsAreDisjoint(ScatterOp op);

/// Emits one vector evaluation of scatter `op`'s body at its loop indices
/// `args`, the last one lane 0 of `width` consecutive lanes: returns the
/// lane-0 address and the `width` values for addresses address .. address
/// + width - 1 (the caller checks, accumulates and stores). Fails,
/// emitting nothing, unless isVectorizableScatter.
FailureOr<std::pair<Value, Value>>
vectorizeScatterLanes(OpBuilder &b, ScatterOp op, ValueRange args,
                      BufferMap &buffers, int64_t width);

/// The loop [lb, ub) cut into strips: `whole(iv)` for each group of
/// `width` indices starting at iv (an scf.for stepping by `width`), then
/// `tail(iv)` for each index left (an scf.for stepping by 1), each emitted
/// with `b` at the start of its loop body.
void stripMine(OpBuilder &b, Location loc, Value lb, Value ub, int64_t width,
               function_ref<void(Value)> whole, function_ref<void(Value)> tail);

/// Emits the reduction loops of `op` for the output index `idx` with a
/// vector accumulator along the innermost reduction loop and one
/// horizontal combine at the end; returns the final state. argmax/argmin
/// over one reduction loop keep a (value, position) pair per lane, combine
/// them by value then position (bitwise the scalar result), and finish the
/// scalar tail with `step(state, yielded)`. Welford and welford_combine
/// keep a (mean, M2, count) per lane, merged by Chan's combine. Fails,
/// emitting nothing, for other kinds, argmax/argmin over several loops, or
/// a body that cannot be vectorized. `scalarBody(ivs)` emits the body's
/// scalar values at all of its arguments (the tails' elements).
FailureOr<SmallVector<Value>> vectorizeReduction(
    OpBuilder &b, ReductionOp op, ValueRange idx, ValueRange init,
    BufferMap &buffers, int64_t width,
    function_ref<SmallVector<Value>(ValueRange, ValueRange)> step,
    function_ref<SmallVector<Value>(ValueRange)> scalarBody);

/// Emits the innermost *output* loop [lb, ub) of reduction `op` (the other
/// output indices fixed to `fixed`) outputVectorsPerWalk(op) x `width`
/// outputs at a time, then `width` at a time: each lane
/// runs its own reduction in the scalar order, so the result is bitwise
/// equal to the scalar loop (class 1). `init` is the scalar initial state,
/// `step(state, yielded)` the combine (applied to vectors), and
/// `scalarTail(iv)` handles the remaining outputs; `checkStore(vector,
/// address)` runs before each vector store. Fails, emitting nothing,
/// unless every load the body makes is contiguous or invariant along the
/// output loop and the combine is elementwise (all kinds but argmax and
/// argmin).
LogicalResult vectorizeReductionOutputs(
    OpBuilder &b, ReductionOp op, ValueRange fixed, Value lb, Value ub,
    BufferMap &buffers, int64_t width, ValueRange init,
    function_ref<SmallVector<Value>(ValueRange, ValueRange)> step,
    function_ref<void(Value)> scalarTail,
    function_ref<void(Value, Value)> checkStore);

/// The lanes for vector code along a loop of `extent` iterations on a
/// machine of `width` lanes: `width`, or for a shorter loop of at least
/// kMinNarrowLanes iterations the largest power of two within it.
int64_t narrowLanes(int64_t extent, int64_t width);

/// Fewer lanes than this do not pay for the vector code's setup.
constexpr int64_t kMinNarrowLanes = 4;

/// True when vectorizeReductionOutputs would emit vector code for `op`.
bool isVectorizableReductionOutputs(ReductionOp op, int64_t width);

/// How many vectors of outputs vectorizeReductionOutputs reduces in one
/// walk of the reduction loops: a loop of it covers this many times the
/// vector width.
int64_t outputVectorsPerWalk(ReductionOp op);

/// Emits the reductions of the `width` outputs of `op` at output indices
/// `out` (the last one lane 0 of consecutive lanes) as one lane each, like
/// vectorizeReductionOutputs, and stores them. Fails, emitting nothing,
/// under the same conditions.
LogicalResult vectorizeReductionLanes(
    OpBuilder &b, ReductionOp op, ValueRange out, BufferMap &buffers,
    int64_t width, ValueRange init,
    function_ref<SmallVector<Value>(ValueRange, ValueRange)> step,
    function_ref<void(Value, Value)> checkStore);

} // namespace mlir::stax::codegen

#endif // STAX_LIB_CONVERSION_STAXTOLOOPS_VECTORIZE_H
