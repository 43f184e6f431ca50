//===- NodeLoops.h - loop nests of stax nodes -------------------*- C++ -*-===//
//
// The second half of --stax-to-loops: given where every buffer lives (a flat
// memref per tensor value), emits the loop nest of one node or kernel. The
// first half (StaxToLoops.cpp) rewrites signatures and plans buffers.
//
//===----------------------------------------------------------------------===//
#ifndef STAX_LIB_CONVERSION_STAXTOLOOPS_NODELOOPS_H
#define STAX_LIB_CONVERSION_STAXTOLOOPS_NODELOOPS_H

#include "Stax/Dialect/Stax/IR/StaxOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"

namespace mlir::stax::codegen {

/// Knobs of the loop emission (the pass options).
struct LoopOptions {
  bool parallel = true;
  int64_t grain = 32768;
  int64_t vectorWidth = 16; ///< lanes for 32-bit elements; 1 disables
  /// GPU code: every node runs one thread per output element (nested
  /// scf.parallel over blocks and threads), checks assert.
  bool gpu = false;
  int64_t threadsPerBlock = 256;
  /// Test every floating-point value before it is stored (check-nan).
  bool checkNan = false;
  /// Time every top-level op (profile; target=cpu).
  bool profile = false;
  /// Pointwise results of at least this many bytes are written with
  /// non-temporal vector stores; 0 never.
  int64_t nontemporalBytes = 0;
  /// Vectors of a long pointwise body evaluated side by side (1: one).
  int64_t interleave = 8;
};

/// What the emitter needs from the function being converted.
class BufferMap {
public:
  virtual ~BufferMap() = default;
  /// The flat memref holding tensor `v` (an argument or a node result).
  virtual Value storageOf(Value v) const = 0;
  /// A new error-site number for `op` (its location goes into the
  /// module's `stax.error_sites`).
  virtual int64_t errorSite(Operation *op) = 0;
  /// The runtime's error callback, declared once per module.
  virtual func::FuncOp indexErrorCallee() = 0;
  /// The error site of the NaN checks of `node` (one per node, however many
  /// stores its loops make) and the runtime's NaN callback.
  virtual int64_t nanErrorSite(Operation *node) = 0;
  virtual func::FuncOp nanErrorCallee() = 0;
  /// An external function `name` of `type` (a runtime entry point),
  /// declared once per module.
  virtual func::FuncOp externalCallee(StringRef name, FunctionType type) = 0;
};

/// Whether integer division or remainder `op` needs its divisor checked
/// when compiled: a divisor that is not a constant, or is 0, or (signed)
/// -1 (see NodeEmitter::emitCheckedDivision). Such bodies are not
/// vectorized.
bool needsDivisorCheck(Operation *op);

/// Whether `load` reads a tensor with no elements. Such a load runs only
/// for an index that is out of bounds (reported by its stax.indirect_index
/// first), so its value is never used: it reads nothing and gives 0, as an
/// empty buffer may be a null pointer. Bodies with one stay scalar.
bool readsEmptyTensor(LoadOp load);

/// The product of `sizes`, or INT64_MAX when it overflows.
int64_t saturatingProduct(ArrayRef<int64_t> sizes);

/// The work of a node in units of a plain body evaluation: iteration
/// ranges times reduction ranges, times the body's cost (a transcendental
/// function counts kTranscendentalWork evaluations more), saturating at
/// INT64_MAX. A kernel's work is its nodes'.
int64_t workOf(Operation *node);

/// What one transcendental function (a vector kernel of 20-40
/// instructions: tanh, exp, erf...) adds to a body evaluation's work, in
/// plain evaluations. On one core at 2^18 floats, a * b + a takes 0.50 ns
/// per unit of work, tanh(a) + b 0.37 ns, sigmoid(tanh(a) * b + a) 0.42:
/// the units measure time about equally.
constexpr int64_t kTranscendentalWork = 1;

/// True for the functions that compile to long vector kernels (a range
/// reduction, a polynomial, often a division); false for square roots,
/// roundings and the like, single instructions.
bool isTranscendental(Operation *op);

/// The elements of the storage a node result occupies: the highest address
/// its layout reaches plus one (0 for an empty iteration range).
FailureOr<int64_t> storageElements(Operation *node);

/// The kernel-local values of `kernel` that live in per-iteration scratch
/// (KernelScratch.h) rather than in the function's arena.
SmallVector<Value> kernelScratchValues(KernelOp kernel,
                                       const LoopOptions &options);

/// Emits the loops of `node` (pointwise, reduction, scatter or kernel) at
/// `b`'s insertion point; `buffers` has storage for its results already.
LogicalResult emitNode(OpBuilder &b, Operation *node, BufferMap &buffers,
                       const LoopOptions &options);

/// The index of `op` (an index type value) for its integer operand `raw`:
/// negatives wrapped when the op says so; with check_bounds, an index out
/// of range calls stax_rt_index_error (CUDA, `gpu`: a failed assertion) and
/// goes on clamped to 0, so that no access leaves the buffer.
Value emitIndirectIndex(OpBuilder &b, IndirectIndexOp op, Value raw,
                        BufferMap &buffers, bool gpu);

/// The same for a vector of operands `raw` (vector<N x iK>, CPU code):
/// a vector<N x index>; an index out of range reports the first bad lane's
/// value, and every bad lane goes on clamped to 0.
Value emitIndirectIndexLanes(OpBuilder &b, IndirectIndexOp op, Value raw,
                             BufferMap &buffers);

/// With `options.checkNan`, tests a floating-point `value` that `node` is
/// about to store at `position` (an index into its result's storage; lane
/// k of a vector goes to position + k): a NaN calls stax_rt_nan_error with
/// the first NaN's position (CUDA: a failed assertion). Emits nothing for
/// integers or without the option.
void emitNanCheck(OpBuilder &b, Location loc, Operation *node, Value value,
                  Value position, BufferMap &buffers,
                  const LoopOptions &options);

/// The same check for every element of `buffer`, which `node` has written
/// (a runtime call's output).
void emitBufferNanCheck(OpBuilder &b, Location loc, Operation *node,
                        Value buffer, BufferMap &buffers,
                        const LoopOptions &options);

/// Constant bounds of loops over [0, ranges[k]) with step 1, for
/// scf::buildLoopNest and scf.parallel.
struct LoopBounds {
  SmallVector<Value> lbs, ubs, steps;
};
LoopBounds constantBounds(OpBuilder &b, Location loc, ArrayRef<int64_t> ranges);

/// scf.for loops over [0, ranges[k]) carrying `state`; `step(ivs, state)`
/// emits the innermost body with `b` (its insertion point moved there) and
/// returns the next state. Returns the final state.
SmallVector<Value>
carriedLoopNest(OpBuilder &b, Location loc, ArrayRef<int64_t> ranges,
                ValueRange state,
                function_ref<SmallVector<Value>(ValueRange, ValueRange)> step);

/// carriedLoopNest for a vectorized float sum: a chain of n additions
/// rounds with an error that grows with n (Higham, Accuracy and Stability,
/// 4.2), so with at least kMinBlockedSumSteps iterations the loops run in
/// blocks, each summed from `identity` and folded into the carried state
/// once by `merge(state, blockState)`: blocks of about sqrt(n) iterations
/// up to 2^18 (the longest chain about 2 sqrt(n)), beyond that blocks of
/// about n^((L-1)/L) blocked in turn, L levels whose loops run at most
/// about 2^9 times each (a chain of about L n^(1/L)). Only the order of
/// the additions changes (Section 6.9, class 2); shorter nests are
/// carriedLoopNest itself. Scalar code keeps the interpreter's order
/// (class 1).
SmallVector<Value> blockedSumLoopNest(
    OpBuilder &b, Location loc, ArrayRef<int64_t> ranges, ValueRange state,
    ValueRange identity,
    function_ref<SmallVector<Value>(ValueRange, ValueRange)> step,
    function_ref<SmallVector<Value>(ValueRange, ValueRange)> merge);
constexpr int64_t kMinBlockedSumSteps = 512;

/// A launch of `blocks` blocks of `threads` threads: nested scf.parallel
/// loops mapped to block_x/thread_x (what --convert-parallel-loops-to-gpu
/// reads). Returns the block and thread indices, with `b` in the thread
/// loop's body (the caller restores it).
std::pair<Value, Value> emitGpuLaunchLoops(OpBuilder &b, Location loc,
                                           int64_t blocks, int64_t threads);

/// `linear`, in [0, product(sizes)), as row-major indices of `sizes`.
SmallVector<Value> delinearizeIndex(OpBuilder &b, Location loc, Value linear,
                                    ArrayRef<int64_t> sizes);

/// GPU code: `body(ivs)` once per index of `space`, one thread each: an
/// scf.parallel over blocks holding one over `options.threadsPerBlock`
/// threads, the linear index guarded and delinearized.
void emitThreadGrid(OpBuilder &b, Location loc, ArrayRef<int64_t> space,
                    const LoopOptions &options,
                    function_ref<void(ValueRange)> body);

/// Like emitThreadGrid, with `perThread` points per thread: `body(points,
/// stored)` gets each point's indices (a point past the end gets the
/// last point's) and whether it is in the space.
void emitThreadGroupGrid(
    OpBuilder &b, Location loc, ArrayRef<int64_t> space,
    const LoopOptions &options, int64_t perThread,
    function_ref<void(ArrayRef<SmallVector<Value>>, ArrayRef<Value>)> body);

} // namespace mlir::stax::codegen

#endif // STAX_LIB_CONVERSION_STAXTOLOOPS_NODELOOPS_H
