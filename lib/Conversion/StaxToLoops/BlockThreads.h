//===- BlockThreads.h - a thread block per output on the GPU ----*- C++ -*-===//
//
// target=cuda runs most nodes one thread per output element. A reduction
// whose reduced elements are contiguous, and a kernel whose nodes loop over
// inner ranges (a softmax row: max, sum of exponentials, the quotients),
// would then leave each thread walking its own row: neighbouring threads
// read addresses a row apart, every warp load touches 32 cache lines, and
// a few thousand threads keep the device idle (5 % of copy bandwidth for
// x[8192, 4096].sum(-1) on an H200). Instead, one block of threads takes
// one outer index: the threads split the inner iterations (thread t takes
// t, t + T, t + 2T, ... of their linearized space, so a warp reads 32
// neighbouring elements), and a reduction's partial states are combined
// across the block with warp shuffles and one shared-memory exchange.
//
// Reordering a reduction changes its rounding (Section 6.9, class 3: the
// GPU's results are checked against the float64 bound); argmax/argmin keep
// the interpreter's answer exactly (first NaN, else first extreme).
//
//===----------------------------------------------------------------------===//
#ifndef STAX_LIB_CONVERSION_STAXTOLOOPS_BLOCKTHREADS_H
#define STAX_LIB_CONVERSION_STAXTOLOOPS_BLOCKTHREADS_H

#include "NodeLoops.h"

namespace mlir::stax::codegen {

/// The threads of one block: this thread's index and how many there are
/// (a multiple of the warp size).
struct BlockThreads {
  Value tid;
  int64_t count;
};

/// Below this many inner iterations per outer index, a thread per output
/// does as well as a block.
constexpr int64_t kBlockMinInnerWork = 64;

/// Threads per block when `node` (on the GPU) should run a block per outer
/// index, else 0 (one thread per output element).
int64_t blockThreadsFor(Operation *node, const LoopOptions &options);

/// One block per point of `space` (delinearized into `ivs`) with `threads`
/// threads each, mapped to block_x/thread_x for convert-parallel-loops-to-gpu.
void emitBlockGrid(
    OpBuilder &b, Location loc, ArrayRef<int64_t> space, int64_t threads,
    function_ref<void(ValueRange ivs, const BlockThreads &)> body);

/// Runs `body` at this thread's share of the points of `ranges`
/// (linear index tid, tid + T, ... in order), delinearized; carries `state`.
SmallVector<Value> emitThreadStridedLoop(
    OpBuilder &b, Location loc, ArrayRef<int64_t> ranges,
    const BlockThreads &threads, ValueRange state,
    function_ref<SmallVector<Value>(ValueRange ivs, ValueRange state)> body);

/// Combines every thread's partial `state` (scalars) with `combine`, which
/// must not depend on the order of its operands beyond rounding; every
/// thread gets the block's result. All threads of the block must call it.
SmallVector<Value> emitBlockCombine(
    OpBuilder &b, Location loc, ValueRange state, const BlockThreads &threads,
    function_ref<SmallVector<Value>(ValueRange, ValueRange)> combine);

/// __syncthreads: the block's stores before it are seen by its loads after.
void emitBlockBarrier(OpBuilder &b, Location loc);

} // namespace mlir::stax::codegen

#endif // STAX_LIB_CONVERSION_STAXTOLOOPS_BLOCKTHREADS_H
