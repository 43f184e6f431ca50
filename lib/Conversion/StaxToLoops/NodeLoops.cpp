//===- NodeLoops.cpp - loop nests of stax nodes ---------------------------===//
//
// One loop nest per node: the body is cloned once into the innermost loop
// with its index arguments bound to the induction variables, `stax.load`
// becomes `memref.load` of the buffer's flat storage at the body's address,
// and the yielded value is stored at the layout's address (Definition 6.2).
// Reductions carry their state through `scf.for` iter_args and combine in
// lexicographic order with the interpreter's formulas, so scalar code is
// bitwise equal to it (Section 6.9, class 1); vector code reorders
// (Vectorize.h).
//
//===----------------------------------------------------------------------===//
#include "NodeLoops.h"
#include "BlockThreads.h"
#include "Combiner.h"
#include "KernelScratch.h"
#include "LinearIndex.h"
#include "TransposeTiles.h"
#include "Vectorize.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/ParallelLoopMapper.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Matchers.h"
#include "llvm/Support/MathExtras.h"
#include <cmath>
#include <limits>

using namespace mlir;
using namespace mlir::stax;
using namespace mlir::stax::codegen;

bool codegen::readsEmptyTensor(LoadOp load) {
  return cast<ShapedType>(load.getBuffer().getType()).getNumElements() == 0;
}

int64_t codegen::saturatingProduct(ArrayRef<int64_t> sizes) {
  int64_t p = 1;
  for (int64_t s : sizes)
    if (llvm::MulOverflow(p, s, p))
      return std::numeric_limits<int64_t>::max();
  return p;
}

LoopBounds codegen::constantBounds(OpBuilder &b, Location loc,
                                   ArrayRef<int64_t> ranges) {
  LoopBounds bounds;
  for (int64_t r : ranges) {
    bounds.lbs.push_back(arith::ConstantIndexOp::create(b, loc, 0));
    bounds.ubs.push_back(arith::ConstantIndexOp::create(b, loc, r));
    bounds.steps.push_back(arith::ConstantIndexOp::create(b, loc, 1));
  }
  return bounds;
}

/// scf.for loops with `bounds` carrying `state`, `step` emitting the
/// innermost body with `b`.
static SmallVector<Value>
carriedLoops(OpBuilder &b, Location loc, const LoopBounds &bounds,
             ValueRange state,
             function_ref<SmallVector<Value>(ValueRange, ValueRange)> step) {
  scf::LoopNest nest = scf::buildLoopNest(
      b, loc, bounds.lbs, bounds.ubs, bounds.steps, state,
      [&](OpBuilder &nb, Location, ValueRange ivs,
          ValueRange iter) -> scf::ValueVector {
        OpBuilder::InsertionGuard g(b);
        b.setInsertionPoint(nb.getInsertionBlock(), nb.getInsertionPoint());
        return step(ivs, iter);
      });
  return SmallVector<Value>(nest.results);
}

SmallVector<Value> codegen::carriedLoopNest(
    OpBuilder &b, Location loc, ArrayRef<int64_t> ranges, ValueRange state,
    function_ref<SmallVector<Value>(ValueRange, ValueRange)> step) {
  return carriedLoops(b, loc, constantBounds(b, loc, ranges), state, step);
}

/// min(first + chunk, end), the end of the chunk of a loop that starts at
/// `first` and stops at `end`: an affine.apply when the loop runs from 0 to
/// a constant that the chunks divide.
static Value chunkEnd(OpBuilder &b, Location loc, Value first, int64_t chunk,
                      Value lb, Value end) {
  MLIRContext *ctx = b.getContext();
  AffineExpr next = getAffineDimExpr(0, ctx) + chunk;
  std::optional<int64_t> from = getConstantIntValue(lb);
  std::optional<int64_t> range = getConstantIntValue(end);
  if (from == 0 && range && *range % chunk == 0)
    return affine::AffineApplyOp::create(b, loc, AffineMap::get(1, 0, next),
                                         first);
  if (range) {
    AffineMap map =
        AffineMap::get(1, 0, {next, getAffineConstantExpr(*range, ctx)}, ctx);
    return affine::AffineMinOp::create(b, loc, map, first);
  }
  AffineMap map =
      AffineMap::get(2, 0, {next, getAffineDimExpr(1, ctx)}, ctx);
  return affine::AffineMinOp::create(b, loc, map, ValueRange{first, end});
}

/// Levels of blocks for a sum of n terms: each level's loop runs at most
/// about kMinBlockedSumSteps times (2^9), so that the longest chain of
/// additions, the sum of the levels' trip counts, is about L n^(1/L).
static int blockLevels(int64_t n) {
  int bits = llvm::Log2_64_Ceil(static_cast<uint64_t>(n));
  return std::max(2, static_cast<int>(llvm::divideCeil(
                         bits, llvm::Log2_64(kMinBlockedSumSteps))));
}

/// The bounds of loops [first, last) of `bounds`.
static LoopBounds loopsOf(const LoopBounds &bounds, size_t first,
                          size_t last) {
  auto slice = [&](ArrayRef<Value> v) {
    return SmallVector<Value>(v.slice(first, last - first));
  };
  return {slice(bounds.lbs), slice(bounds.ubs), slice(bounds.steps)};
}

/// blockedSumLoopNest over `bounds`, whose loops run at most `extents[k]`
/// times (only the first loop's bounds may be other than [0, extent)),
/// in `levels` levels of blocks.
static SmallVector<Value> blockedSum(
    OpBuilder &b, Location loc, const LoopBounds &bounds,
    ArrayRef<int64_t> extents, int levels, ValueRange state,
    ValueRange identity,
    function_ref<SmallVector<Value>(ValueRange, ValueRange)> step,
    function_ref<SmallVector<Value>(ValueRange, ValueRange)> merge) {
  int64_t n = saturatingProduct(extents);
  if (levels < 2 || n < kMinBlockedSumSteps)
    return carriedLoops(b, loc, bounds, state, step);
  // A block is about n^((L-1)/L) terms: the loops after `split` (fewer
  // than `block` iterations) and `chunk` iterations of loop `split`.
  double share = static_cast<double>(levels - 1) / levels;
  auto block = static_cast<int64_t>(llvm::PowerOf2Ceil(static_cast<uint64_t>(
      std::ceil(std::pow(static_cast<double>(n), share)))));
  size_t split = extents.size() - 1;
  int64_t inner = 1;
  while (split > 0 && inner * extents[split] < block)
    inner *= extents[split--];
  int64_t chunk =
      std::min<int64_t>(llvm::divideCeil(block, inner), extents[split]);
  LoopBounds blocks = loopsOf(bounds, 0, split + 1);
  blocks.steps.back() = arith::ConstantIndexOp::create(b, loc, chunk);
  return carriedLoops(
      b, loc, blocks, state, [&](ValueRange outer, ValueRange carried) {
        LoopBounds oneBlock = loopsOf(bounds, split, bounds.lbs.size());
        oneBlock.lbs.front() = outer.back();
        oneBlock.ubs.front() = chunkEnd(b, loc, outer.back(), chunk,
                                        bounds.lbs[split], bounds.ubs[split]);
        SmallVector<int64_t> blockExtents(extents.drop_front(split));
        blockExtents.front() = chunk;
        SmallVector<Value> sum = blockedSum(
            b, loc, oneBlock, blockExtents, levels - 1, identity, identity,
            [&](ValueRange in, ValueRange st) {
              SmallVector<Value> ivs(outer.drop_back());
              ivs.append(in.begin(), in.end());
              return step(ivs, st);
            },
            merge);
        return merge(carried, sum);
      });
}

SmallVector<Value> codegen::blockedSumLoopNest(
    OpBuilder &b, Location loc, ArrayRef<int64_t> ranges, ValueRange state,
    ValueRange identity,
    function_ref<SmallVector<Value>(ValueRange, ValueRange)> step,
    function_ref<SmallVector<Value>(ValueRange, ValueRange)> merge) {
  int64_t n = saturatingProduct(ranges);
  if (n < kMinBlockedSumSteps)
    return carriedLoopNest(b, loc, ranges, state, step);
  return blockedSum(b, loc, constantBounds(b, loc, ranges), ranges,
                    blockLevels(n), state, identity, step, merge);
}

bool codegen::isTranscendental(Operation *op) {
  return isa<math::ExpOp, math::Exp2Op, math::ExpM1Op, math::LogOp,
             math::Log1pOp, math::Log2Op, math::Log10Op, math::TanhOp,
             math::ErfOp, math::ErfcOp, math::SinOp, math::CosOp, math::TanOp,
             math::AtanOp, math::Atan2Op, math::AsinOp, math::AcosOp,
             math::SinhOp, math::CoshOp, math::AsinhOp, math::AcoshOp,
             math::AtanhOp, math::PowFOp, math::CbrtOp>(op);
}

/// One evaluation of `body` in plain evaluations.
static int64_t evaluationCost(Region &body) {
  int64_t cost = 1;
  body.walk([&](Operation *op) {
    if (isTranscendental(op))
      cost += kTranscendentalWork;
  });
  return cost;
}

int64_t codegen::workOf(Operation *node) {
  SmallVector<int64_t, 8> factors;
  if (auto p = dyn_cast<PointwiseOp>(node)) {
    llvm::append_range(factors, p.getIterationRanges());
    factors.push_back(evaluationCost(p.getBody()));
  } else if (auto r = dyn_cast<ReductionOp>(node)) {
    llvm::append_range(factors, r.getIterationRanges());
    llvm::append_range(factors, r.getReductionRanges());
    factors.push_back(evaluationCost(r.getBody()));
  } else if (auto s = dyn_cast<ScatterOp>(node)) {
    llvm::append_range(factors, s.getRanges());
    factors.push_back(evaluationCost(s.getBody()));
  }
  if (!factors.empty())
    return saturatingProduct(factors);
  int64_t total = 0;
  if (auto k = dyn_cast<KernelOp>(node))
    for (Operation &op : k.getBody().front().without_terminator())
      if (llvm::AddOverflow(total, workOf(&op), total))
        return std::numeric_limits<int64_t>::max();
  return total;
}

/// offset + sum (ranges[k] - 1) * strides[k] + 1, or 0 when a range is 0.
static FailureOr<int64_t> extent(Operation *op, ArrayRef<int64_t> ranges,
                                 LayoutAttr layout) {
  SmallVector<int64_t> strides = layout.getEffectiveStrides(ranges);
  if (llvm::is_contained(ranges, 0))
    return int64_t(0);
  int64_t last = layout.getOffset();
  for (auto [r, s] : llvm::zip(ranges, strides)) {
    int64_t term;
    if (s < 0 || llvm::MulOverflow(r - 1, s, term) ||
        llvm::AddOverflow(last, term, last))
      return op->emitError() << "layout " << layout
                             << " has a negative stride or overflows 64 bits";
  }
  return last + 1;
}

FailureOr<int64_t> codegen::storageElements(Operation *node) {
  if (auto p = dyn_cast<PointwiseOp>(node))
    return extent(node, p.getIterationRanges(), p.getLayout());
  if (auto r = dyn_cast<ReductionOp>(node))
    return extent(node, r.getIterationRanges(), r.getLayout());
  auto s = cast<ScatterOp>(node);
  return extent(node, s.getType().getShape(), s.getLayout());
}

bool codegen::needsDivisorCheck(Operation *op) {
  if (!isa<arith::DivSIOp, arith::DivUIOp, arith::RemSIOp, arith::RemUIOp,
           arith::FloorDivSIOp, arith::CeilDivSIOp, arith::CeilDivUIOp>(op))
    return false;
  bool isSigned = !isa<arith::DivUIOp, arith::RemUIOp, arith::CeilDivUIOp>(op);
  APInt c;
  if (matchPattern(op->getOperand(1), m_ConstantInt(&c)))
    return c.isZero() || (isSigned && c.isAllOnes());
  return true;
}

namespace {

/// Converts a value to the element type it is stored as (the rounding on
/// store of Definition 6.1).
Value castForStore(OpBuilder &b, Location loc, Value v, Type to) {
  Type from = v.getType();
  if (from == to)
    return v;
  bool ff = isa<FloatType>(from), ft = isa<FloatType>(to);
  if (ff && ft)
    return from.getIntOrFloatBitWidth() > to.getIntOrFloatBitWidth()
               ? Value(arith::TruncFOp::create(b, loc, to, v))
               : Value(arith::ExtFOp::create(b, loc, to, v));
  if (!ff && ft)
    return arith::SIToFPOp::create(b, loc, to, v);
  if (ff && !ft)
    return arith::FPToSIOp::create(b, loc, to, v);
  return from.getIntOrFloatBitWidth() > to.getIntOrFloatBitWidth()
             ? Value(arith::TruncIOp::create(b, loc, to, v))
             : Value(arith::ExtSIOp::create(b, loc, to, v));
}

class NodeEmitter {
public:
  NodeEmitter(OpBuilder &b, BufferMap &buffers, const LoopOptions &options)
      : b(b), buffers(buffers), options(options) {}

  LogicalResult emit(Operation *node, ValueRange outer, bool parallel);
  /// emit, at the vector width of the options.
  LogicalResult emitNode(Operation *node, ValueRange outer, bool parallel);
  /// `node` at outer indices `outer` with the block's `threads` sharing its
  /// inner iterations (BlockThreads.h).
  LogicalResult emitOnBlock(Operation *node, ValueRange outer,
                            const BlockThreads &threads);
  /// Pointwise `op` (its loops all fixed) at each of `points`: every value
  /// is computed before the first is stored, so that their loads are in
  /// flight together; point j is stored where `stored[j]` holds.
  void pointwiseAtPoints(PointwiseOp op, ArrayRef<SmallVector<Value>> points,
                         ArrayRef<Value> stored);
  /// target=cuda: scatter `op` with a thread per scattered value (after a
  /// launch copying the base), accumulating with atomic adds; failure
  /// (nothing emitted) where it must run in one thread.
  LogicalResult scatterOnThreads(ScatterOp op);

private:
  OpBuilder &b;
  BufferMap &buffers;
  const LoopOptions &options;

  LogicalResult pointwise(PointwiseOp op, ValueRange outer, bool parallel);
  LogicalResult reduction(ReductionOp op, ValueRange outer, bool parallel);
  /// Pointwise `op`'s value at its loop indices `ivs` (as stored), and its
  /// store there.
  Value pointwiseValue(PointwiseOp op, ValueRange ivs);
  void storePointwiseValue(PointwiseOp op, ValueRange ivs, Value v);
  void storePointwise(PointwiseOp op, ValueRange ivs);
  /// Stores the results of reduction `op` from its final `state` at output
  /// indices `idx`.
  void storeReduction(ReductionOp op, const Combiner &combiner,
                      ValueRange state, ValueRange idx);
  /// Reduction `op`'s output at `idx` reduced by all threads of the block.
  void blockReduction(ReductionOp op, ValueRange idx,
                      const BlockThreads &threads);
  LogicalResult scatter(ScatterOp op, ValueRange outer);
  /// Stores (or accumulates) one scattered value `v` at `addr` of `out`,
  /// after its bounds check.
  void scatterElement(ScatterOp op, Value out, Value addr, Value v);
  LogicalResult kernel(KernelOp op);
  /// The last outer loop of kernel `op` over [lb, ub) with the other outer
  /// indices at `mid`, `width` lanes of every node at a time.
  LogicalResult kernelStrips(KernelOp op, ValueRange mid, Value lb, Value ub);
  /// `width` lanes of `node` at its loop indices `args` (the last one lane
  /// 0): one vector evaluation when the node allows it, else a scalar loop.
  LogicalResult nodeLanes(Operation *node, ValueRange args);

  /// Clones `body` with its arguments bound to `ivs`; returns the yielded
  /// values.
  SmallVector<Value> cloneBody(Block &body, ValueRange ivs);
  Value emitSpecialCall(SpecialFunctionOp op, IRMapping &map);
  /// Integer division or remainder `op` (needsDivisorCheck) with its
  /// operands from `map`: a zero divisor is reported (CPU: the runtime's
  /// error, GPU: a trap) and divides by 1 instead; a signed division by -1
  /// negates with wrap-around (x86 traps on INT_MIN / -1), as PyTorch does.
  Value emitCheckedDivision(Operation &op, IRMapping &map);
  Value address(Location loc, ArrayRef<int64_t> strides, int64_t offset,
                ValueRange ivs);
  /// Loops over `ranges`; `inner(ivs)` emits the body of the innermost.
  /// With `parallel`, all loops but the last form one scf.parallel (a single
  /// loop is cut into chunks instead).
  void loopNest(Location loc, ArrayRef<int64_t> ranges, bool parallel,
                function_ref<void(ValueRange)> inner,
                int64_t workPerIteration = 1);
  /// Same, but `innermost(outerIvs, lb, ub)` emits the last loop itself
  /// (for vectorization).
  /// `workPerIteration` (body evaluations per innermost iteration) sizes
  /// the chunks of a single parallel loop; `vectorChunk` (nonzero when
  /// `innermost` is vector code across iterations) is the number of
  /// iterations it covers at a time.
  void loopNestWithInnermost(
      Location loc, ArrayRef<int64_t> ranges, bool parallel,
      function_ref<void(ValueRange, Value, Value)> innermost,
      int64_t workPerIteration = 1, int64_t vectorChunk = 0);
  /// An scf.parallel over [0, n) cut into chunks of `chunk` (the last one
  /// shorter): `body(lb, ub)` for each.
  void parallelChunks(Location loc, int64_t n, int64_t chunk,
                      function_ref<void(Value, Value)> body);
  /// The loops of `ranges` with the last two run in `tiles` (row tiles
  /// parallel when `parallel`); `tile(mid, rowLb, rowUb, colLb, colUb)`
  /// emits one tile, `mid` the indices of the loops before the last two.
  void transposedTileLoops(
      Location loc, ArrayRef<int64_t> ranges, TransposeTiles tiles,
      bool parallel,
      function_ref<void(ValueRange, Value, Value, Value, Value)> tile);
  /// One tile of pointwise `op` (see transposedTileLoops): its rows in
  /// order, `innermost(ivs, lb, ub, staged)` emitting a row's columns; a
  /// full tile first stages `staged` (TransposeTiles.h).
  void transposedTile(
      PointwiseOp op, ValueRange fixed, TransposeTiles tiles,
      ArrayRef<LoadOp> staged, ValueRange bounds,
      function_ref<void(ValueRange, Value, Value, ArrayRef<StagedLoad>)>
          innermost);
  /// Whether pointwise `op` writes its result with non-temporal stores: a
  /// result of at least options.nontemporalBytes, in rows (innermost
  /// loops) of at least 4 KiB, that leaves its kernel
  /// (kernel-local values are read again at once, from cache or scratch).
  bool storesPastTheCaches(PointwiseOp op);
  /// The loads of pointwise `op`, run inside a kernel at outer indices
  /// `outer`, that read memory outside the kernel along their last loop:
  /// each prefetches the kernel's next outer iteration (Vectorize.h).
  SmallVector<PrefetchedLoad> nextIterationPrefetches(PointwiseOp op,
                                                      ValueRange outer);
  /// Sequential loops over the reduction ranges carrying `state`: scalar
  /// code is the interpreter's order (class 1), long float sums included.
  SmallVector<Value>
  reductionLoops(Location loc, ArrayRef<int64_t> ranges, ValueRange state,
                 function_ref<SmallVector<Value>(ValueRange, ValueRange)> step);
};

Value NodeEmitter::address(Location loc, ArrayRef<int64_t> strides,
                           int64_t offset, ValueRange ivs) {
  AffineExpr e = getAffineConstantExpr(offset, b.getContext());
  for (auto [k, s] : llvm::enumerate(strides))
    e = e + getAffineDimExpr(k, b.getContext()) * s;
  auto map = AffineMap::get(strides.size(), 0, e);
  return affine::AffineApplyOp::create(b, loc, map, ivs);
}

/// The function a special function calls: the runtime's
/// stax_rt_<kind>_<type> on the CPU, libdevice's twin on CUDA ("" when
/// libdevice has none).
static std::string specialCallee(SpecialFunctionOp op, bool gpu) {
  bool f32 = op.getOperands()[0].getType().isF32();
  SpecialFunctionKind kind = op.getKind();
  if (!gpu)
    return ("stax_rt_" + stringifySpecialFunctionKind(kind) +
            (f32 ? "_f32" : "_f64"))
        .str();
  StringRef base;
  switch (kind) {
  case SpecialFunctionKind::Lgamma: base = "__nv_lgamma"; break;
  case SpecialFunctionKind::Erfinv: base = "__nv_erfinv"; break;
  case SpecialFunctionKind::Ndtri: base = "__nv_normcdfinv"; break;
  case SpecialFunctionKind::Erfcx: base = "__nv_erfcx"; break;
  case SpecialFunctionKind::Nextafter: base = "__nv_nextafter"; break;
  default: return "";
  }
  return (base + (f32 ? "f" : "")).str();
}

/// A call of the special function's scalar entry point (the order of a
/// polygamma first, as an i64). On CUDA, an llvm.call of an llvm.func:
/// convert-gpu-to-nvvm gives every func.func a C-interface wrapper
/// (_mlir_ciface_<name>), which libdevice does not define.
Value NodeEmitter::emitSpecialCall(SpecialFunctionOp op, IRMapping &map) {
  Location loc = op.getLoc();
  SmallVector<Value> args;
  if (std::optional<uint64_t> n = op.getN())
    args.push_back(
        arith::ConstantIntOp::create(b, loc, static_cast<int64_t>(*n), 64));
  for (Value v : op.getOperands())
    args.push_back(map.lookup(v));
  std::string name = specialCallee(op, options.gpu);
  if (options.gpu) {
    auto module = op->getParentOfType<ModuleOp>();
    auto decl = module.lookupSymbol<LLVM::LLVMFuncOp>(name);
    if (!decl) {
      OpBuilder mb = OpBuilder::atBlockEnd(module.getBody());
      SmallVector<Type> inputs(ValueRange(args).getTypes());
      decl = LLVM::LLVMFuncOp::create(
          mb, module.getLoc(), name,
          LLVM::LLVMFunctionType::get(op.getType(), inputs));
    }
    return LLVM::CallOp::create(b, loc, decl, args).getResult();
  }
  auto type = b.getFunctionType(TypeRange(ValueRange(args)), op.getType());
  func::FuncOp callee = buffers.externalCallee(name, type);
  return func::CallOp::create(b, loc, callee, args).getResult(0);
}

Value NodeEmitter::emitCheckedDivision(Operation &op, IRMapping &map) {
  Location loc = op.getLoc();
  Value a = map.lookup(op.getOperand(0)), d = map.lookup(op.getOperand(1));
  Type t = d.getType();
  Value zero = arith::ConstantIntOp::create(b, loc, t, 0);
  Value isZero =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, d, zero);
  if (options.gpu) {
    std::string msg;
    llvm::raw_string_ostream os(msg);
    os << "integer division by zero in " << op.getName() << " at " << loc;
    Value yes = arith::ConstantIntOp::create(b, loc, 1, 1);
    Value nonzero = arith::XOrIOp::create(b, loc, isZero, yes);
    cf::AssertOp::create(b, loc, nonzero, msg);
  } else {
    auto ifOp = scf::IfOp::create(b, loc, isZero, /*withElse=*/false);
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(ifOp.thenBlock());
    Value site =
        arith::ConstantIntOp::create(b, loc, buffers.errorSite(&op), 64);
    auto type = FunctionType::get(b.getContext(), {b.getI64Type()}, {});
    func::CallOp::create(b, loc,
                         buffers.externalCallee("stax_rt_division_error", type),
                         ValueRange{site});
  }
  bool isSigned = !isa<arith::DivUIOp, arith::RemUIOp, arith::CeilDivUIOp>(op);
  Value one = arith::ConstantIntOp::create(b, loc, t, 1);
  Value bad = isZero, isMinusOne;
  if (isSigned) {
    Value minusOne = arith::ConstantIntOp::create(b, loc, t, -1);
    isMinusOne =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, d, minusOne);
    bad = arith::OrIOp::create(b, loc, isZero, isMinusOne);
  }
  Value safe = arith::SelectOp::create(b, loc, bad, one, d);
  IRMapping withSafe = map;
  withSafe.map(op.getOperand(1), safe);
  Value q = b.clone(op, withSafe)->getResult(0);
  if (!isSigned)
    return q;
  // By -1: a quotient is -a (wrapping), a remainder 0.
  bool isRemainder = isa<arith::RemSIOp>(op);
  Value negated = arith::SubIOp::create(b, loc, zero, a);
  return arith::SelectOp::create(b, loc, isMinusOne,
                                 isRemainder ? zero : negated, q);
}

SmallVector<Value> NodeEmitter::cloneBody(Block &body, ValueRange ivs) {
  IRMapping map;
  map.map(body.getArguments(), ivs);
  for (Operation &op : body.without_terminator()) {
    if (auto load = dyn_cast<LoadOp>(op)) {
      Location loc = load.getLoc();
      Value mem = buffers.storageOf(load.getBuffer());
      Value addr = map.lookup(load.getAddress());
      Type t = load.getType();
      // A ui8 element (an i8 in memory) is read as its value, an i16.
      auto read = [&]() -> Value {
        Value raw = memref::LoadOp::create(b, loc, mem, addr);
        if (raw.getType() == t)
          return raw;
        return arith::ExtUIOp::create(b, loc, t, raw);
      };
      Value v;
      if (readsEmptyTensor(load)) {
        v = constantOf(b, loc, t, 0, 0);
      } else if (Value mask = load.getMask()) {
        // Masked loads (concatenation) read only where the mask holds.
        auto ifOp = scf::IfOp::create(b, loc, TypeRange{t}, map.lookup(mask),
                                      /*withElse=*/true);
        OpBuilder::InsertionGuard g(b);
        b.setInsertionPointToStart(ifOp.thenBlock());
        scf::YieldOp::create(b, loc, ValueRange{read()});
        b.setInsertionPointToStart(ifOp.elseBlock());
        scf::YieldOp::create(b, loc, ValueRange{constantOf(b, loc, t, 0, 0)});
        v = ifOp.getResult(0);
      } else {
        v = read();
      }
      map.map(load.getResult(), v);
      continue;
    }
    if (auto ind = dyn_cast<IndirectIndexOp>(op)) {
      map.map(ind.getResult(),
              emitIndirectIndex(b, ind, map.lookup(ind.getValue()), buffers,
                                options.gpu));
      continue;
    }
    if (auto special = dyn_cast<SpecialFunctionOp>(op)) {
      map.map(special.getResult(), emitSpecialCall(special, map));
      continue;
    }
    if (needsDivisorCheck(&op)) {
      map.map(op.getResult(0), emitCheckedDivision(op, map));
      continue;
    }
    b.clone(op, map);
  }
  SmallVector<Value> out;
  for (Value v : body.getTerminator()->getOperands())
    out.push_back(map.lookupOrDefault(v));
  return out;
}

void NodeEmitter::loopNestWithInnermost(
    Location loc, ArrayRef<int64_t> ranges, bool parallel,
    function_ref<void(ValueRange, Value, Value)> innermost,
    int64_t workPerIteration, int64_t vectorChunk) {
  assert(!ranges.empty() && "no loops");
  auto cst = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  ArrayRef<int64_t> outerRanges = ranges.drop_back();
  int64_t last = ranges.back();
  if (!parallel) {
    auto [lbs, ubs, steps] = constantBounds(b, loc, outerRanges);
    scf::buildLoopNest(b, loc, lbs, ubs, steps,
                       [&](OpBuilder &nb, Location, ValueRange ivs) {
                         OpBuilder::InsertionGuard g(b);
                         b.setInsertionPoint(nb.getInsertionBlock(),
                                             nb.getInsertionPoint());
                         Value lb = cst(0), ub = cst(last); // in order
                         innermost(ivs, lb, ub);
                       });
    return;
  }
  if (!outerRanges.empty()) {
    SmallVector<Value> lbs(outerRanges.size(), cst(0)),
        steps(outerRanges.size(), cst(1)), ubs;
    for (int64_t r : outerRanges)
      ubs.push_back(cst(r));
    auto par = scf::ParallelOp::create(b, loc, lbs, ubs, steps);
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(par.getBody());
    Value lb = cst(0), ub = cst(last); // in order
    innermost(par.getInductionVars(), lb, ub);
    return;
  }
  // One loop: parallel over chunks of about grain/4 body evaluations (a
  // multiple of the vector width), and at least 4 chunks when the loop
  // allows, so that every thread gets work.
  // When `innermost` vectorizes across iterations (vectorChunk of them at
  // a time, then single vectors), a chunk holds at least one vector: a
  // long reduction per output must not cut the loop below the width.
  int64_t perChunk = std::max<int64_t>(options.grain / 4, 1);
  int64_t chunk = std::max<int64_t>(perChunk / std::max<int64_t>(workPerIteration, 1), 1);
  chunk = std::max(chunk, vectorChunk);
  chunk = std::min(chunk, std::max<int64_t>(llvm::divideCeil(last, 4), 1));
  int64_t width = std::max<int64_t>(options.vectorWidth, 1);
  if (vectorChunk > 0)
    chunk = std::max(chunk, width);
  if (chunk >= width)
    chunk = llvm::alignTo(chunk, width);
  parallelChunks(loc, last, chunk,
                 [&](Value lb, Value ub) { innermost({}, lb, ub); });
}

void NodeEmitter::parallelChunks(Location loc, int64_t n, int64_t chunk,
                                 function_ref<void(Value, Value)> body) {
  auto cst = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  int64_t chunks = llvm::divideCeil(n, chunk);
  Value lb0 = cst(0), numChunks = cst(chunks), one = cst(1); // in order
  auto par = scf::ParallelOp::create(b, loc, ValueRange{lb0},
                                     ValueRange{numChunks}, ValueRange{one});
  OpBuilder::InsertionGuard g(b);
  b.setInsertionPointToStart(par.getBody());
  Value lb = arith::MulIOp::create(b, loc, par.getInductionVars()[0], cst(chunk));
  Value next = arith::AddIOp::create(b, loc, lb, cst(chunk));
  Value ub = arith::MinSIOp::create(b, loc, next, cst(n));
  body(lb, ub);
}

void NodeEmitter::loopNest(Location loc, ArrayRef<int64_t> ranges,
                           bool parallel, function_ref<void(ValueRange)> inner,
                           int64_t workPerIteration) {
  if (ranges.empty()) {
    inner({});
    return;
  }
  loopNestWithInnermost(loc, ranges, parallel,
                        [&](ValueRange outer, Value lb, Value ub) {
                          Value one = arith::ConstantIndexOp::create(b, loc, 1);
                          auto loop = scf::ForOp::create(b, loc, lb, ub, one);
                          OpBuilder::InsertionGuard g(b);
                          b.setInsertionPointToStart(loop.getBody());
                          SmallVector<Value> ivs(outer);
                          ivs.push_back(loop.getInductionVar());
                          inner(ivs);
                        },
                        workPerIteration);
}

void NodeEmitter::transposedTileLoops(
    Location loc, ArrayRef<int64_t> ranges, TransposeTiles tiles,
    bool parallel,
    function_ref<void(ValueRange, Value, Value, Value, Value)> tile) {
  auto cst = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  int64_t rows = ranges[ranges.size() - 2], cols = ranges.back();
  int64_t rowTiles = llvm::divideCeil(rows, tiles.rows);
  int64_t colTiles = llvm::divideCeil(cols, tiles.cols);
  // The loops before the last two, then the row blocks (parallel), the
  // column blocks, and a block's tiles.
  SmallVector<int64_t> tileRanges(ranges.drop_back(2));
  tileRanges.push_back(llvm::divideCeil(rowTiles, tiles.blockRows));
  tileRanges.push_back(llvm::divideCeil(colTiles, tiles.blockCols));
  loopNestWithInnermost(
      loc, tileRanges, parallel,
      [&](ValueRange mid, Value blockLb, Value blockUb) {
        Value one = cst(1);
        auto colBlocks = scf::ForOp::create(b, loc, blockLb, blockUb, one);
        OpBuilder::InsertionGuard g(b);
        b.setInsertionPointToStart(colBlocks.getBody());
        Value rb = mid.back(), cb = colBlocks.getInductionVar();
        // The tiles of block `block` of `perBlock` out of `total`.
        auto span = [&](Value block, int64_t perBlock, int64_t total) {
          Value lb = arith::MulIOp::create(b, loc, block, cst(perBlock));
          Value end = arith::AddIOp::create(b, loc, lb, cst(perBlock));
          Value ub = arith::MinSIOp::create(b, loc, end, cst(total));
          return std::make_pair(lb, ub);
        };
        auto [rtLb, rtUb] = span(rb, tiles.blockRows, rowTiles);
        auto [ctLb, ctUb] = span(cb, tiles.blockCols, colTiles);
        auto rowTileLoop = scf::ForOp::create(b, loc, rtLb, rtUb, one);
        b.setInsertionPointToStart(rowTileLoop.getBody());
        auto columnTiles = scf::ForOp::create(b, loc, ctLb, ctUb, one);
        b.setInsertionPointToStart(columnTiles.getBody());
        Value rowTile = rowTileLoop.getInductionVar();
        Value rowLb = arith::MulIOp::create(b, loc, rowTile, cst(tiles.rows));
        Value rowEnd = arith::AddIOp::create(b, loc, rowLb, cst(tiles.rows));
        Value rowUb = arith::MinSIOp::create(b, loc, rowEnd, cst(rows));
        Value colLb = arith::MulIOp::create(
            b, loc, columnTiles.getInductionVar(), cst(tiles.cols));
        Value colEnd = arith::AddIOp::create(b, loc, colLb, cst(tiles.cols));
        Value colUb = arith::MinSIOp::create(b, loc, colEnd, cst(cols));
        tile(mid.drop_back(), rowLb, rowUb, colLb, colUb);
      },
      /*workPerIteration=*/tiles.rows * tiles.cols * tiles.blockRows *
          tiles.blockCols);
}

void NodeEmitter::transposedTile(
    PointwiseOp op, ValueRange fixed, TransposeTiles tiles,
    ArrayRef<LoadOp> staged, ValueRange bounds,
    function_ref<void(ValueRange, Value, Value, ArrayRef<StagedLoad>)>
        innermost) {
  Location loc = op.getLoc();
  Value rowLb = bounds[0], rowUb = bounds[1], colLb = bounds[2],
        colUb = bounds[3];
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  auto rowsOf = [&](Value ub, Value colEnd, ArrayRef<StagedLoad> tilesOf) {
    auto rowLoop = scf::ForOp::create(b, loc, rowLb, ub, one);
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(rowLoop.getBody());
    SmallVector<Value> ivs(fixed);
    ivs.push_back(rowLoop.getInductionVar());
    innermost(ivs, colLb, colEnd, tilesOf);
  };
  if (staged.empty())
    return rowsOf(rowUb, colUb, {});
  // Full tiles stage the transposed operands; the last row or column of
  // tiles, when partial, reads them directly.
  auto cst = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  Value rowEnd = arith::AddIOp::create(b, loc, rowLb, cst(tiles.rows));
  Value colEnd = arith::AddIOp::create(b, loc, colLb, cst(tiles.cols));
  Value fullRows =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, rowUb, rowEnd);
  Value fullCols =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, colUb, colEnd);
  Value full = arith::AndIOp::create(b, loc, fullRows, fullCols);
  auto ifOp = scf::IfOp::create(b, loc, full, /*withElse=*/true);
  OpBuilder::InsertionGuard g(b);
  b.setInsertionPointToStart(ifOp.thenBlock());
  SmallVector<StagedLoad> tilesOf;
  for (LoadOp load : staged)
    tilesOf.push_back(
        stageTransposedTile(b, load, fixed, rowLb, colLb, tiles, buffers));
  rowsOf(rowEnd, colEnd, tilesOf);
  b.setInsertionPointToStart(ifOp.elseBlock());
  rowsOf(rowUb, colUb, {});
}

bool NodeEmitter::storesPastTheCaches(PointwiseOp op) {
  if (options.gpu || options.nontemporalBytes <= 0 || options.vectorWidth <= 1)
    return false;
  if (auto kernel = dyn_cast<KernelOp>(op->getParentOp())) {
    Operation *yield = kernel.getBody().front().getTerminator();
    if (!llvm::is_contained(yield->getOperands(), op.getResult()))
      return false;
  }
  // Only memory-bound bodies gain (the lines are not read before being
  // written): with two or more functions or divisions per element the loop
  // waits on arithmetic, and the fence after each thread's part costs
  // more than the saved reads (8192 x 4096 f32, 2 threads: a + b 27-32 ->
  // 37-42 GB/s, exp 26-37 -> 36-44, sigmoid even, the 4-op chain
  // 18-20 -> 15-18).
  int64_t heavy = 0;
  op.getBody().walk([&](Operation *inner) {
    if (isa<math::MathDialect>(inner->getDialect()) ||
        isa<arith::DivFOp, arith::RemFOp, SpecialFunctionOp>(inner))
      ++heavy;
  });
  if (heavy > 1)
    return false;
  FailureOr<int64_t> elements = storageElements(op);
  uint64_t bits = getElementTypeOrSelf(op.getType()).getIntOrFloatBitWidth();
  auto needed = static_cast<int64_t>(
      llvm::divideCeil(uint64_t(options.nontemporalBytes) * 8, bits));
  // Each innermost loop ends with a fence and begins and ends with partial
  // lines: short rows pay those per few lines (im2col's rows of 32 f32:
  // 23 ms with non-temporal stores, 2 ms without).
  constexpr uint64_t kMinRowBytes = 4096;
  ArrayRef<int64_t> ranges = op.getIterationRanges();
  if (ranges.empty() || uint64_t(ranges.back()) * bits < kMinRowBytes * 8)
    return false;
  return succeeded(elements) && *elements >= needed;
}

SmallVector<PrefetchedLoad>
NodeEmitter::nextIterationPrefetches(PointwiseOp op, ValueRange outer) {
  SmallVector<PrefetchedLoad> prefetched;
  if (outer.empty() || options.gpu || options.vectorWidth <= 1)
    return prefetched;
  Location loc = op.getLoc();
  Block &body = op.getBody().front();
  unsigned outerArg = outer.size() - 1;
  int64_t outerRange = op.getIterationRanges()[outerArg];
  Value offset; // elements from this outer iteration to the next (or 0)
  for (Operation &inner : body.without_terminator()) {
    auto load = dyn_cast<LoadOp>(inner);
    if (!load || load.getMask())
      continue;
    // A value of the kernel was written by this iteration: in cache.
    Operation *def = load.getBuffer().getDefiningOp();
    if (def && isa<KernelOp>(def->getParentOp()))
      continue;
    FailureOr<SmallVector<int64_t>> coeffs =
        argumentCoefficients(load.getAddress(), body);
    if (failed(coeffs) || coeffs->back() != 1 || (*coeffs)[outerArg] == 0)
      continue;
    if (!offset) {
      // The last iteration prefetches its own lines: no address past the
      // buffer.
      MLIRContext *ctx = b.getContext();
      AffineExpr iv = getAffineDimExpr(0, ctx);
      auto next = AffineMap::get(
          1, 0, {iv + 1, getAffineConstantExpr(outerRange - 1, ctx)}, ctx);
      Value nextIv =
          affine::AffineMinOp::create(b, loc, next, outer[outerArg]);
      offset = arith::SubIOp::create(b, loc, nextIv, outer[outerArg]);
    }
    Value scale =
        arith::ConstantIndexOp::create(b, loc, (*coeffs)[outerArg]);
    prefetched.push_back(
        {load, arith::MulIOp::create(b, loc, offset, scale)});
  }
  return prefetched;
}

SmallVector<Value> NodeEmitter::reductionLoops(
    Location loc, ArrayRef<int64_t> ranges, ValueRange state,
    function_ref<SmallVector<Value>(ValueRange, ValueRange)> step) {
  return carriedLoopNest(b, loc, ranges, state, step);
}

Value NodeEmitter::pointwiseValue(PointwiseOp op, ValueRange ivs) {
  Value out = buffers.storageOf(op.getResult());
  Value v = cloneBody(op.getBody().front(), ivs)[0];
  return castForStore(b, op.getLoc(), v,
                      cast<MemRefType>(out.getType()).getElementType());
}

void NodeEmitter::storePointwiseValue(PointwiseOp op, ValueRange ivs, Value v) {
  Location loc = op.getLoc();
  SmallVector<int64_t> strides =
      op.getLayout().getEffectiveStrides(op.getIterationRanges());
  Value addr = address(loc, strides, op.getLayout().getOffset(), ivs);
  emitNanCheck(b, loc, op, v, addr, buffers, options);
  memref::StoreOp::create(b, loc, v, buffers.storageOf(op.getResult()), addr);
}

void NodeEmitter::storePointwise(PointwiseOp op, ValueRange ivs) {
  storePointwiseValue(op, ivs, pointwiseValue(op, ivs));
}

void NodeEmitter::pointwiseAtPoints(PointwiseOp op,
                                    ArrayRef<SmallVector<Value>> points,
                                    ArrayRef<Value> stored) {
  SmallVector<Value> values;
  for (ValueRange ivs : points)
    values.push_back(pointwiseValue(op, ivs));
  for (auto [ivs, v, guard] : llvm::zip(points, values, stored)) {
    auto ifOp = scf::IfOp::create(b, op.getLoc(), guard, /*withElse=*/false);
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(ifOp.thenBlock());
    storePointwiseValue(op, ivs, v);
  }
}

LogicalResult NodeEmitter::pointwise(PointwiseOp op, ValueRange outer,
                                     bool parallel) {
  Location loc = op.getLoc();
  ArrayRef<int64_t> ranges = op.getIterationRanges();
  SmallVector<int64_t> strides = op.getLayout().getEffectiveStrides(ranges);
  auto scalarStore = [&](ValueRange ivs) {
    SmallVector<Value> all(outer);
    all.append(ivs.begin(), ivs.end());
    storePointwise(op, all);
  };
  auto checkVector = [&](Value v, Value addr) {
    emitNanCheck(b, loc, op, v, addr, buffers, options);
  };
  ArrayRef<int64_t> rest = ranges.drop_front(outer.size());
  if (rest.empty()) {
    scalarStore({});
    return success();
  }
  SmallVector<PrefetchedLoad> prefetched = nextIterationPrefetches(op, outer);
  std::optional<TransposeTiles> tiles;
  if (!options.gpu)
    tiles = transposeTiles(op, rest, strides);
  bool nontemporal = storesPastTheCaches(op);
  // The innermost loop over [lb, ub) with the other loops at `mid`:
  // vectorized (reading `staged` loads from their tiles), or scalar.
  auto innermostStaged = [&](ValueRange mid, Value lb, Value ub,
                             ArrayRef<StagedLoad> staged) {
    SmallVector<Value> fixed(outer);
    fixed.append(mid.begin(), mid.end());
    // Tiles store a line per row: not worth aligning.
    VectorPlan plan;
    plan.staged.assign(staged.begin(), staged.end());
    plan.prefetched = prefetched;
    plan.nontemporal = nontemporal && !tiles;
    if (options.vectorWidth > 1 &&
        succeeded(vectorizePointwise(
            b, op, fixed, lb, ub, buffers, options.vectorWidth,
            [&](Value iv) {
              SmallVector<Value> ivs(mid);
              ivs.push_back(iv);
              scalarStore(ivs);
            },
            checkVector, plan)))
      return;
    Value one = arith::ConstantIndexOp::create(b, loc, 1);
    auto loop = scf::ForOp::create(b, loc, lb, ub, one);
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(loop.getBody());
    SmallVector<Value> ivs(mid);
    ivs.push_back(loop.getInductionVar());
    scalarStore(ivs);
  };
  if (tiles) {
    SmallVector<LoadOp> staged =
        stagedTransposeLoads(op, *tiles, options.vectorWidth);
    transposedTileLoops(
        loc, rest, *tiles, parallel,
        [&](ValueRange mid, Value rowLb, Value rowUb, Value colLb,
            Value colUb) {
          SmallVector<Value> fixed(outer);
          fixed.append(mid.begin(), mid.end());
          transposedTile(op, fixed, *tiles, staged,
                         ValueRange{rowLb, rowUb, colLb, colUb},
                         [&](ValueRange ivs, Value lb, Value ub,
                             ArrayRef<StagedLoad> tilesOf) {
                           innermostStaged(ivs.drop_front(outer.size()), lb,
                                           ub, tilesOf);
                         });
        });
    return success();
  }
  loopNestWithInnermost(loc, rest, parallel,
                        [&](ValueRange mid, Value lb, Value ub) {
                          innermostStaged(mid, lb, ub, {});
                        });
  return success();
}

/// An argmax/argmin over an empty range has no answer.
static LogicalResult verifyExtremePosition(ReductionOp op) {
  if ((op.getKind() == ReductionKind::Argmax ||
       op.getKind() == ReductionKind::Argmin) &&
      llvm::is_contained(op.getReductionRanges(), 0))
    return op.emitError() << "cannot take the position of an extreme of an "
                             "empty reduction range";
  return success();
}

void NodeEmitter::blockReduction(ReductionOp op, ValueRange idx,
                                 const BlockThreads &threads) {
  Location loc = op.getLoc();
  Block &body = op.getBody().front();
  Combiner combiner(op.getKind(),
                    body.getTerminator()->getOperand(0).getType());
  SmallVector<Value> state = emitThreadStridedLoop(
      b, loc, op.getReductionRanges(), threads, combiner.init(b, loc),
      [&](ValueRange rivs, ValueRange s) {
        SmallVector<Value> all(idx);
        all.append(rivs.begin(), rivs.end());
        return combiner.step(b, loc, s, cloneBody(body, all));
      });
  state = combiner.fromThreadShare(b, loc, state, threads.tid, threads.count);
  state =
      emitBlockCombine(b, loc, state, threads, [&](ValueRange x, ValueRange y) {
        return combiner.combinePartials(b, loc, x, y);
      });
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value first = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                      threads.tid, zero);
  auto ifOp = scf::IfOp::create(b, loc, first, /*withElse=*/false);
  OpBuilder::InsertionGuard g(b);
  b.setInsertionPointToStart(ifOp.thenBlock());
  storeReduction(op, combiner, state, idx);
}

LogicalResult NodeEmitter::emitOnBlock(Operation *node, ValueRange outer,
                                       const BlockThreads &threads) {
  Location loc = node->getLoc();
  if (auto r = dyn_cast<ReductionOp>(node)) {
    if (failed(verifyExtremePosition(r)))
      return failure();
    ArrayRef<int64_t> rest = r.getIterationRanges().drop_front(outer.size());
    if (llvm::all_of(rest, [](int64_t n) { return n == 1; }) ||
        saturatingProduct(r.getReductionRanges()) >= kBlockMinInnerWork) {
      // Each output in turn, reduced by the whole block.
      loopNest(loc, rest, /*parallel=*/false, [&](ValueRange ivs) {
        SmallVector<Value> idx(outer);
        idx.append(ivs.begin(), ivs.end());
        blockReduction(r, idx, threads);
      });
      return success();
    }
    // Many short outputs per outer index: the threads share them, each
    // output reduced by one thread in order.
    Block &body = r.getBody().front();
    Combiner combiner(r.getKind(),
                      body.getTerminator()->getOperand(0).getType());
    emitThreadStridedLoop(
        b, loc, rest, threads, {}, [&](ValueRange ivs, ValueRange) {
          SmallVector<Value> idx(outer);
          idx.append(ivs.begin(), ivs.end());
          SmallVector<Value> state = reductionLoops(
              loc, r.getReductionRanges(), combiner.init(b, loc),
              [&](ValueRange rivs, ValueRange s) {
                SmallVector<Value> all(idx);
                all.append(rivs.begin(), rivs.end());
                return combiner.step(b, loc, s, cloneBody(body, all));
              });
          storeReduction(r, combiner, state, idx);
          return SmallVector<Value>();
        });
    return success();
  }
  if (auto p = dyn_cast<PointwiseOp>(node)) {
    // With no inner loops, thread 0 alone (a stride-T loop over one point).
    emitThreadStridedLoop(b, loc,
                          p.getIterationRanges().drop_front(outer.size()),
                          threads, {}, [&](ValueRange ivs, ValueRange) {
                            SmallVector<Value> all(outer);
                            all.append(ivs.begin(), ivs.end());
                            storePointwise(p, all);
                            return SmallVector<Value>();
                          });
    return success();
  }
  return node->emitError() << "has no code generation for a thread block";
}

void NodeEmitter::storeReduction(ReductionOp op, const Combiner &combiner,
                                 ValueRange state, ValueRange idx) {
  Location loc = op.getLoc();
  SmallVector<int64_t> strides =
      op.getLayout().getEffectiveStrides(op.getIterationRanges());
  Value addr = address(loc, strides, op.getLayout().getOffset(), idx);
  for (auto [k, v] : llvm::enumerate(combiner.finish(state))) {
    Value mem = buffers.storageOf(op.getResult(k));
    Type elt = cast<MemRefType>(mem.getType()).getElementType();
    Value stored = castForStore(b, loc, v, elt);
    emitNanCheck(b, loc, op, stored, addr, buffers, options);
    memref::StoreOp::create(b, loc, stored, mem, addr);
  }
}

LogicalResult NodeEmitter::reduction(ReductionOp op, ValueRange outer,
                                     bool parallel) {
  Location loc = op.getLoc();
  ArrayRef<int64_t> ranges = op.getIterationRanges();
  ArrayRef<int64_t> rranges = op.getReductionRanges();
  if (failed(verifyExtremePosition(op)))
    return failure();
  Block &body = op.getBody().front();
  Type yieldType = body.getTerminator()->getOperand(0).getType();
  Combiner combiner(op.getKind(), yieldType);
  auto perOutput = [&](ValueRange ivs) {
    SmallVector<Value> idx(outer);
    idx.append(ivs.begin(), ivs.end());
    SmallVector<Value> state = combiner.init(b, loc);
    FailureOr<SmallVector<Value>> vectorized = failure();
    if (options.vectorWidth > 1)
      vectorized =
          vectorizeReduction(b, op, idx, state, buffers, options.vectorWidth,
                             [&](ValueRange s, ValueRange y) {
                               return combiner.step(b, loc, s, y);
                             },
                             [&](ValueRange all) {
                               return cloneBody(body, all);
                             });
    auto step = [&](ValueRange rivs, ValueRange s) {
      SmallVector<Value> all(idx);
      all.append(rivs.begin(), rivs.end());
      return combiner.step(b, loc, s, cloneBody(body, all));
    };
    if (succeeded(vectorized)) {
      state = *vectorized;
    } else if (options.vectorWidth > 1 &&
               op.getKind() == ReductionKind::Sum && isa<FloatType>(yieldType)) {
      // A float sum that did not vectorize (strided: a column sum of fewer
      // columns than a vector's lanes) in blocks like the vector code's,
      // class 2 as it is; scalar code (vector-width=1) keeps the
      // interpreter's chain.
      state = blockedSumLoopNest(
          b, loc, rranges, state, combiner.init(b, loc), step,
          [&](ValueRange x, ValueRange y) {
            return combiner.combinePartials(b, loc, x, y);
          });
    } else {
      state = reductionLoops(loc, rranges, state, step);
    }
    storeReduction(op, combiner, state, idx);
  };
  ArrayRef<int64_t> rest = ranges.drop_front(outer.size());
  if (rest.empty()) {
    perOutput({});
    return success();
  }
  int64_t vectorOutputsChunk =
      options.vectorWidth > 1 &&
              isVectorizableReductionOutputs(op, options.vectorWidth)
          ? options.vectorWidth * outputVectorsPerWalk(op)
          : 0;
  loopNestWithInnermost(
      loc, rest, parallel, [&](ValueRange mid, Value lb, Value ub) {
        SmallVector<Value> fixed(outer);
        fixed.append(mid.begin(), mid.end());
        auto scalarOutput = [&](Value iv) {
          SmallVector<Value> ivs(mid);
          ivs.push_back(iv);
          perOutput(ivs);
        };
        // Several outputs per vector first (each lane keeps the scalar
        // order, or a long float sum's blocks); else one output at a time.
        if (options.vectorWidth > 1 &&
            succeeded(vectorizeReductionOutputs(
                b, op, fixed, lb, ub, buffers, options.vectorWidth,
                combiner.init(b, loc),
                [&](ValueRange s, ValueRange y) {
                  return combiner.step(b, loc, s, y);
                },
                scalarOutput,
                [&](Value v, Value addr) {
                  emitNanCheck(b, loc, op, v, addr, buffers, options);
                })))
          return;
        Value one = arith::ConstantIndexOp::create(b, loc, 1);
        auto loop = scf::ForOp::create(b, loc, lb, ub, one);
        OpBuilder::InsertionGuard g(b);
        b.setInsertionPointToStart(loop.getBody());
        scalarOutput(loop.getInductionVar());
      },
      saturatingProduct(rranges), vectorOutputsChunk);
  return success();
}

LogicalResult NodeEmitter::scatter(ScatterOp op, ValueRange outer) {
  Location loc = op.getLoc();
  if (!outer.empty())
    return op.emitError() << "a scatter inside a kernel has no code generation";
  Value base = buffers.storageOf(op.getBase());
  Value out = buffers.storageOf(op.getResult());
  if (base != out)
    memref::CopyOp::create(b, loc, base, out);
  auto outType = cast<MemRefType>(out.getType());
  int64_t size = outType.getDimSize(0);
  bool accumulate = op.getMode() == ScatterMode::Accumulate;
  Block &body = op.getBody().front();
  auto element = [&](ValueRange ivs) {
    SmallVector<Value> y = cloneBody(body, ivs);
    scatterElement(op, out, y[0], y[1]);
  };
  // Sequential, in lexicographic order: repeated addresses then behave as
  // in the interpreter. Lanes along the last loop write consecutive
  // elements (isVectorizableScatter), so a vector of them keeps that order
  // for every element.
  ArrayRef<int64_t> ranges = op.getRanges();
  int64_t width = options.gpu ? 1 : options.vectorWidth;
  Type valueType = body.getTerminator()->getOperand(1).getType();
  bool vectorize = valueType == outType.getElementType() && size >= width &&
                   isVectorizableScatter(op, width);
  // (On the GPU, a scatter gets here only when it cannot run a thread per
  // value: it stays one sequential loop nest.)
  bool disjoint =
      !options.gpu && !ranges.empty() && scatterColumnsAreDisjoint(op);
  if (!vectorize && !disjoint) {
    loopNest(loc, ranges, /*parallel=*/false, element);
    return success();
  }
  auto cst = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  // The loops before the last (in order), then the last loop's [lb, ub):
  // in strips of vectors, or element by element.
  auto columns = [&](Value lb, Value ub) {
    loopNest(loc, ranges.drop_back(), /*parallel=*/false, [&](ValueRange ivs) {
      auto at = [&](Value last) {
        SmallVector<Value> all(ivs);
        all.push_back(last);
        return all;
      };
      if (!vectorize) {
        Value one = cst(1);
        auto loop = scf::ForOp::create(b, loc, lb, ub, one);
        OpBuilder::InsertionGuard g(b);
        b.setInsertionPointToStart(loop.getBody());
        element(at(loop.getInductionVar()));
        return;
      }
      auto whole = [&](Value iv) {
        auto lanes = vectorizeScatterLanes(b, op, at(iv), buffers, width);
        assert(succeeded(lanes) && "checked by isVectorizableScatter");
        auto [address, value] = *lanes;
        // Every lane in range: scatter them as one vector; else lane by lane
        // (the scalar code reports the first address out of range).
        Value last = cst(size - width);
        auto inRange = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ule,
                                             address, last);
        auto ifOp = scf::IfOp::create(b, loc, inRange, /*withElse=*/true);
        OpBuilder::InsertionGuard g(b);
        b.setInsertionPointToStart(ifOp.thenBlock());
        if (accumulate) {
          Value old = vector::LoadOp::create(b, loc, value.getType(), out,
                                             ValueRange{address});
          value = isa<FloatType>(outType.getElementType())
                      ? Value(arith::AddFOp::create(b, loc, old, value))
                      : Value(arith::AddIOp::create(b, loc, old, value));
        }
        emitNanCheck(b, loc, op, value, address, buffers, options);
        vector::StoreOp::create(b, loc, value, out, ValueRange{address});
        b.setInsertionPointToStart(ifOp.elseBlock());
        Value zero = cst(0), count = cst(width), one = cst(1); // in order
        auto lanesLoop = scf::ForOp::create(b, loc, zero, count, one);
        b.setInsertionPointToStart(lanesLoop.getBody());
        Value lane =
            arith::AddIOp::create(b, loc, iv, lanesLoop.getInductionVar());
        element(at(lane));
      };
      stripMine(b, loc, lb, ub, width, whole,
                [&](Value iv) { element(at(iv)); });
    });
  };
  int64_t cols = ranges.back();
  if (!options.parallel || workOf(op) < options.grain || !disjoint) {
    Value lb = cst(0), ub = cst(cols); // in order
    columns(lb, ub);
    return success();
  }
  // Columns never share an element (scatterColumnsAreDisjoint): chunks of
  // them run in parallel, each over every row in order, so each element
  // still sees its updates in the scalar order. Up to 8 chunks, each a
  // multiple of the vector width when vectorized.
  int64_t chunk = llvm::alignTo(std::max<int64_t>(llvm::divideCeil(cols, 8), 1),
                                vectorize ? width : 1);
  parallelChunks(loc, cols, chunk, columns);
  return success();
}

/// Element types that GPU atomics add (32- and 64-bit).
static bool hasAtomicAdd(Type elt) {
  unsigned bits = elt.getIntOrFloatBitWidth();
  return (isa<FloatType>(elt) || isa<IntegerType>(elt)) &&
         (bits == 32 || bits == 64);
}

LogicalResult NodeEmitter::scatterOnThreads(ScatterOp op) {
  Location loc = op.getLoc();
  Value base = buffers.storageOf(op.getBase());
  Value out = buffers.storageOf(op.getResult());
  Type elt = cast<MemRefType>(out.getType()).getElementType();
  Type valueType = op.getBody().front().getTerminator()->getOperand(1).getType();
  // Overwrites have no defined winner, accumulations add atomically (the
  // op's semantics): any thread order will do. Narrow accumulations and
  // values stored in another type keep one thread, in order.
  if (op.getMode() == ScatterMode::Accumulate &&
      (!hasAtomicAdd(elt) || valueType != elt))
    return failure();
  int64_t size = cast<MemRefType>(out.getType()).getDimSize(0);
  if (base != out)
    emitThreadGrid(b, loc, {size}, options, [&](ValueRange ivs) {
      Value v = memref::LoadOp::create(b, loc, base, ivs);
      memref::StoreOp::create(b, loc, v, out, ivs);
    });
  emitThreadGrid(b, loc, op.getRanges(), options, [&](ValueRange ivs) {
    SmallVector<Value> y = cloneBody(op.getBody().front(), ivs);
    scatterElement(op, out, y[0], y[1]);
  });
  return success();
}

void NodeEmitter::scatterElement(ScatterOp op, Value out, Value addr,
                                 Value v) {
  Location loc = op.getLoc();
  int64_t size = cast<MemRefType>(out.getType()).getDimSize(0);
  Value sizeV = arith::ConstantIndexOp::create(b, loc, size);
  auto inBounds =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, addr, sizeV);
  auto ifOp = scf::IfOp::create(b, loc, inBounds, /*withElse=*/true);
  OpBuilder::InsertionGuard g(b);
  b.setInsertionPointToStart(ifOp.thenBlock());
  // A ui8 value (i16) is stored as its low byte; adding in 8 bits gives
  // the same byte.
  Type elt = cast<MemRefType>(out.getType()).getElementType();
  v = castForStore(b, loc, v, elt);
  if (op.getMode() == ScatterMode::Accumulate && options.gpu &&
      hasAtomicAdd(elt)) {
    // Threads may add at the same address (scatterOnThreads).
    bool isFloat = isa<FloatType>(elt);
    Value old = memref::AtomicRMWOp::create(
        b, loc, isFloat ? arith::AtomicRMWKind::addf : arith::AtomicRMWKind::addi,
        v, out, ValueRange{addr});
    Value sum = isFloat ? Value(arith::AddFOp::create(b, loc, old, v))
                        : Value(arith::AddIOp::create(b, loc, old, v));
    emitNanCheck(b, loc, op, sum, addr, buffers, options);
  } else if (op.getMode() == ScatterMode::Accumulate) {
    Value old = memref::LoadOp::create(b, loc, out, addr);
    v = isa<FloatType>(v.getType())
            ? Value(arith::AddFOp::create(b, loc, old, v))
            : Value(arith::AddIOp::create(b, loc, old, v));
  }
  if (!(op.getMode() == ScatterMode::Accumulate && options.gpu &&
        hasAtomicAdd(elt))) {
    emitNanCheck(b, loc, op, v, addr, buffers, options);
    memref::StoreOp::create(b, loc, v, out, addr);
  }
  b.setInsertionPointToStart(ifOp.elseBlock());
  if (options.gpu) {
    std::string msg;
    llvm::raw_string_ostream os(msg);
    os << "scatter address out of bounds in stax.scatter at " << op.getLoc();
    cf::AssertOp::create(b, loc, arith::ConstantIntOp::create(b, loc, 0, 1),
                         msg);
    return;
  }
  Value site = arith::ConstantIntOp::create(b, loc, buffers.errorSite(op), 64);
  Value a64 = arith::IndexCastOp::create(b, loc, b.getI64Type(), addr);
  Value s64 = arith::ConstantIntOp::create(b, loc, size, 64);
  func::CallOp::create(b, loc, buffers.indexErrorCallee(),
                       ValueRange{site, a64, s64});
}

/// True when every node of kernel `op` loops over exactly its outer ranges
/// (a fused elementwise chain, reductions over inner ranges allowed) and the
/// last of them has `width` lanes: that loop can then be cut into strips of
/// `width` indices, each running every node in order. The kernel's nodes
/// read each other at the same outer index (fusion puts nothing else in a
/// kernel), so a strip computes everything that the next node reads.
static bool hasLaneStrips(KernelOp op, int64_t width) {
  ArrayRef<int64_t> outer = op.getOuterRanges();
  if (width <= 1 || outer.empty() || outer.back() < width)
    return false;
  return llvm::all_of(op.getBody().front().without_terminator(),
                      [&](Operation &node) {
                        ArrayRef<int64_t> ranges;
                        if (auto p = dyn_cast<PointwiseOp>(node))
                          ranges = p.getIterationRanges();
                        else if (auto r = dyn_cast<ReductionOp>(node))
                          ranges = r.getIterationRanges();
                        else
                          return false;
                        return ranges.size() == outer.size();
                      });
}

static int64_t lanesOf(Operation *node, int64_t width, int64_t vectors);

/// The outer loops of `kernel` that one iteration of its loop nest fixes:
/// all of them, or all but the last when it runs in strips (at its
/// narrowed lanes: the buffer planning of StaxToLoops.cpp asks at the
/// machine's width, the emission at the kernel's, and both must see the
/// same strips).
static unsigned fixedLoops(KernelOp kernel, const LoopOptions &options) {
  unsigned n = kernel.getOuterRanges().size();
  int64_t lanes = lanesOf(kernel, options.vectorWidth, options.interleave);
  return hasLaneStrips(kernel, lanes) ? n - 1 : n;
}

LogicalResult NodeEmitter::kernel(KernelOp op) {
  bool parallel = options.parallel && workOf(op) >= options.grain &&
                  !op.getOuterRanges().empty();
  LogicalResult status = success();
  Location loc = op.getLoc();
  ArrayRef<int64_t> outer = op.getOuterRanges();
  // Kernel-local values live in scratch for one iteration (KernelScratch.h):
  // one per thread, allocated in the parallel loop's body, or once.
  SmallVector<ScratchBuffer> plan;
  if (!options.gpu)
    plan = planKernelScratch(op, fixedLoops(op, options));
  ScratchBufferMap local(buffers);
  NodeEmitter inner(b, local, options);
  SmallVector<Value> scratch;
  if (!parallel)
    scratch = ScratchBufferMap::allocate(b, loc, plan);
  auto bindScratch = [&](ValueRange fixedIvs) {
    if (plan.empty())
      return;
    if (parallel)
      scratch = ScratchBufferMap::allocate(b, loc, plan);
    local.bind(b, loc, plan, scratch, fixedIvs);
  };
  if (hasLaneStrips(op, options.vectorWidth)) {
    int64_t indices = std::max<int64_t>(saturatingProduct(outer), 1);
    loopNestWithInnermost(
        loc, outer, parallel,
        [&](ValueRange mid, Value lb, Value ub) {
          bindScratch(mid);
          if (failed(inner.kernelStrips(op, mid, lb, ub)))
            status = failure();
        },
        workOf(op) / indices);
    return status;
  }
  auto emitNodes = [&](ValueRange ivs) {
    bindScratch(ivs);
    for (Operation &node : op.getBody().front().without_terminator())
      if (failed(inner.emit(&node, ivs, /*parallel=*/false)))
        status = failure();
  };
  if (!parallel) {
    loopNest(loc, outer, false, emitNodes);
    return status;
  }
  auto [lbs, ubs, steps] = constantBounds(b, loc, outer);
  auto par = scf::ParallelOp::create(b, loc, lbs, ubs, steps);
  OpBuilder::InsertionGuard g(b);
  b.setInsertionPointToStart(par.getBody());
  emitNodes(par.getInductionVars());
  return status;
}

LogicalResult NodeEmitter::kernelStrips(KernelOp op, ValueRange mid, Value lb,
                                        Value ub) {
  Location loc = op.getLoc();
  LogicalResult status = success();
  auto each = [&](ValueRange args, auto emitOne) {
    for (Operation &node : op.getBody().front().without_terminator())
      if (failed(emitOne(&node, args)))
        status = failure();
  };
  auto at = [&](Value iv) {
    SmallVector<Value> args(mid);
    args.push_back(iv);
    return args;
  };
  // One index at a time: every node, in order.
  auto scalar = [&](Value iv) {
    each(at(iv), [&](Operation *node, ValueRange a) {
      return emit(node, a, /*parallel=*/false);
    });
  };
  // Strips start where every node's lane pattern repeats.
  int64_t period = 1;
  for (Operation &node : op.getBody().front().without_terminator())
    if (auto p = dyn_cast<PointwiseOp>(node))
      period = std::max(period, vectorPeriod(p, options.vectorWidth));
  Value start = periodicStart(b, loc, lb, ub, period, scalar);
  stripMine(
      b, loc, start, ub, options.vectorWidth,
      [&](Value iv) {
        each(at(iv),
             [&](Operation *node, ValueRange a) { return nodeLanes(node, a); });
      },
      scalar);
  return status;
}

LogicalResult NodeEmitter::nodeLanes(Operation *node, ValueRange args) {
  Location loc = node->getLoc();
  int64_t width = options.vectorWidth;
  auto checkStore = [&](Value v, Value addr) {
    emitNanCheck(b, loc, node, v, addr, buffers, options);
  };
  if (auto p = dyn_cast<PointwiseOp>(node))
    if (succeeded(
            vectorizePointwiseLanes(b, p, args, buffers, width, checkStore)))
      return success();
  if (auto r = dyn_cast<ReductionOp>(node)) {
    Combiner combiner(
        r.getKind(),
        r.getBody().front().getTerminator()->getOperand(0).getType());
    if (succeeded(vectorizeReductionLanes(
            b, r, args, buffers, width, combiner.init(b, loc),
            [&](ValueRange s, ValueRange y) {
              return combiner.step(b, loc, s, y);
            },
            checkStore)))
      return success();
  }
  Value lane0 = args.back();
  Value last = arith::AddIOp::create(
      b, loc, lane0, arith::ConstantIndexOp::create(b, loc, width));
  auto lanes = scf::ForOp::create(b, loc, lane0, last,
                                  arith::ConstantIndexOp::create(b, loc, 1));
  OpBuilder::InsertionGuard g(b);
  b.setInsertionPointToStart(lanes.getBody());
  SmallVector<Value> ivs(args.drop_back());
  ivs.push_back(lanes.getInductionVar());
  return emit(node, ivs, /*parallel=*/false);
}

/// The lanes `node` runs on where its vector loop is shorter than vectors
/// of `width` lanes (narrowLanes): a pointwise node's last loop; a
/// reduction's last output loop when its reduction loop is too short for
/// the lanes to run along it instead (vectorizeReduction); a kernel's last
/// outer loop when it then runs in strips and none of its reductions could
/// run along its reduction loop. Else `width`.
static int64_t narrowLanesOf(Operation *node, int64_t width) {
  auto last = [](ArrayRef<int64_t> ranges) -> int64_t {
    return ranges.empty() ? 0 : ranges.back();
  };
  // Rows the lanes could run along, at `width` or at the narrower lanes.
  auto shortRows = [&](Operation *op, int64_t lanes) {
    auto r = dyn_cast<ReductionOp>(op);
    return !r || last(r.getReductionRanges()) < std::min(width, lanes);
  };
  if (auto p = dyn_cast<PointwiseOp>(node)) {
    int64_t lanes = narrowLanes(last(p.getIterationRanges()), width);
    return isVectorizablePointwise(p, lanes, /*periodic=*/true) ? lanes : width;
  }
  if (auto r = dyn_cast<ReductionOp>(node)) {
    int64_t lanes = narrowLanes(last(r.getIterationRanges()), width);
    return shortRows(r, lanes) && isVectorizableReductionOutputs(r, lanes)
               ? lanes
               : width;
  }
  if (auto k = dyn_cast<KernelOp>(node)) {
    int64_t lanes = narrowLanes(last(k.getOuterRanges()), width);
    Block &body = k.getBody().front();
    bool strips = lanes != width && hasLaneStrips(k, lanes) &&
                  llvm::all_of(body.without_terminator(), [&](Operation &op) {
                    return shortRows(&op, lanes);
                  });
    return strips ? lanes : width;
  }
  return width;
}

static int64_t interleavedStripLanes(KernelOp kernel, int64_t width,
                                     int64_t vectors);

/// The lanes `node` runs on: narrowLanesOf, or for a kernel whose strips
/// pay to widen, interleavedStripLanes (`vectors` side by side). Both the
/// buffer planning (fixedLoops) and the emission ask here, so they see the
/// same strips.
static int64_t lanesOf(Operation *node, int64_t width, int64_t vectors) {
  int64_t lanes = narrowLanesOf(node, width);
  if (auto k = dyn_cast<KernelOp>(node); k && lanes == width)
    return interleavedStripLanes(k, width, vectors);
  return lanes;
}

/// Roughly the vector instructions one evaluation of `op` compiles to, as
/// counted in the AVX-512 code of --stax-approximate-math's f32 kernels
/// (the functions without one widen to its f64 kernels); 1 for the rest.
static int64_t vectorInstructionsOf(Operation *op) {
  if (isa<math::ExpOp, math::Exp2Op>(op))
    return 18;
  if (isa<math::LogOp>(op))
    return 25;
  if (isa<math::ExpM1Op, math::Log1pOp>(op))
    return 30;
  if (isa<math::TanhOp>(op))
    return 33;
  if (isa<math::ErfOp>(op))
    return 40;
  return isTranscendental(op) ? 50 : 1;
}

/// Why a pointwise node evaluates several vectors side by side (the
/// `interleave` option, default 8) where its body is long or chains
/// functions. One vector's
/// evaluation is then a chain of dependent instructions hundreds of cycles
/// long (tanh into a logistic: about 70), too long for the out-of-order window
/// to overlap enough iterations; independent vectors in one iteration
/// keep the vector units busy. Measured on one core (2^16 floats, G
/// elements/s at 1, 4 and 8 vectors): sigmoid(tanh(a) * b + a) 0.69, 0.77,
/// 0.82; exp(exp(a) * b) 1.03, 1.17, 1.25; mish 0.43, 0.60, 0.62; and at
/// 2^18 floats, 1 and 8 vectors, GELU's gradient 454 -> 388 us, GELU
/// 0.92 -> 1.06 G/s. A short body with one function gains nothing or
/// loses (tanh 1.44 -> 1.42, erf 254 -> 267 us, silu(a) * b 1.52 -> 1.34,
/// GELU's tanh form 1.25 -> 1.06 G/s).

/// The fewest vector instructions per evaluation (costOf) for a body
/// without a chain of functions to run several vectors side by side: above one
/// function with a few operations (erf alone 42, GELU's tanh form 43), below
/// GELU (50) and its gradient (70).
constexpr int64_t kInterleavedInstructions = 45;

/// What one evaluation of a body costs in vector code.
struct BodyCost {
  /// Roughly its vector instructions (constants are hoisted: none).
  int64_t instructions = 0;
  /// Whether it calls f32 transcendental functions, and other ones (f64
  /// ones call libm per lane or run on half the lanes).
  bool f32Functions = false, otherFunctions = false;

  BodyCost &operator+=(const BodyCost &other) {
    instructions += other.instructions;
    f32Functions |= other.f32Functions;
    otherFunctions |= other.otherFunctions;
    return *this;
  }
  /// Worth interleaving on its length alone: long, with f32 functions
  /// only. Integer bodies (Philox's rounds) are throughput bound: dropout
  /// on 2^16 floats took 291 us at one vector, 378 at eight.
  bool isLong() const {
    return f32Functions && !otherFunctions &&
           instructions >= kInterleavedInstructions;
  }
};

static BodyCost costOf(Block &body) {
  BodyCost cost;
  body.walk([&](Operation *op) {
    if (op->hasTrait<OpTrait::ConstantLike>())
      return;
    if (isTranscendental(op)) {
      bool f32 = getElementTypeOrSelf(op->getResult(0).getType()).isF32();
      cost.f32Functions |= f32;
      cost.otherFunctions |= !f32;
    }
    cost.instructions += vectorInstructionsOf(op);
  });
  return cost;
}

/// The most transcendental functions on one path through `body` (a
/// function of another's result: sigmoid(tanh(a) * b + a) has 2, tanh(a) *
/// sigmoid(b) has 1).
static int64_t transcendentalDepth(Block &body) {
  DenseMap<Value, int64_t> depth;
  int64_t deepest = 0;
  body.walk<WalkOrder::PostOrder>([&](Operation *op) {
    int64_t d = 0;
    for (Value v : op->getOperands())
      d = std::max(d, depth.lookup(v));
    // An op with regions (scf.if) yields what its ops computed.
    op->walk([&](Operation *inner) {
      for (Value v : inner->getResults())
        d = std::max(d, depth.lookup(v));
    });
    if (isTranscendental(op))
      ++d;
    for (Value v : op->getResults())
      depth[v] = d;
    deepest = std::max(deepest, d);
  });
  return deepest;
}

/// The lanes of `node` (a top-level node, `width` lanes per vector) with
/// `vectors` vectors side by side, where that pays; else `width`. The
/// lanes are independent, so the results are the same bit for bit.
static int64_t interleavedLanesOf(Operation *node, int64_t width,
                                  int64_t vectors) {
  auto p = dyn_cast<PointwiseOp>(node);
  if (!p || width <= 1 || vectors <= 1)
    return width;
  int64_t lanes = width * vectors;
  ArrayRef<int64_t> ranges = p.getIterationRanges();
  // A loop shorter than two wide vectors would mostly run masked tails.
  if (ranges.empty() || ranges.back() < 2 * lanes)
    return width;
  Block &body = p.getBody().front();
  BodyCost cost = costOf(body);
  bool chain = cost.f32Functions && !cost.otherFunctions &&
               transcendentalDepth(body) >= 2;
  if (!cost.isLong() && !chain)
    return width;
  return isVectorizablePointwise(p, lanes, /*periodic=*/true) ? lanes : width;
}

/// The strip width of `kernel` with `vectors` vectors side by side, where its
/// nodes are all pointwise and together long (GELU's tanh-form gradient: tanh's
/// node and the node reading it twice); else `width`. A strip runs each node
/// over its lanes in turn, so the nodes' costs add up.
static int64_t interleavedStripLanes(KernelOp kernel, int64_t width,
                                     int64_t vectors) {
  if (width <= 1 || vectors <= 1)
    return width;
  int64_t lanes = width * vectors;
  ArrayRef<int64_t> outer = kernel.getOuterRanges();
  if (outer.empty() || outer.back() < 2 * lanes ||
      !hasLaneStrips(kernel, lanes))
    return width;
  BodyCost cost;
  for (Operation &op : kernel.getBody().front().without_terminator()) {
    auto p = dyn_cast<PointwiseOp>(op);
    if (!p || !isVectorizablePointwise(p, lanes, /*periodic=*/true))
      return width;
    cost += costOf(p.getBody().front());
  }
  return cost.isLong() ? lanes : width;
}

LogicalResult NodeEmitter::emit(Operation *node, ValueRange outer,
                                bool parallel) {
  // A node whose vector loop is shorter than the machine's vectors runs
  // on narrower ones (the 8 columns of a pooled 8x8 map: 8 lanes of 16)
  // rather than one element at a time.
  // (Not where `outer` fixes every loop: a kernel's strip tail.)
  auto ranges = [](Operation *n) -> size_t {
    if (auto p = dyn_cast<PointwiseOp>(n))
      return p.getIterationRanges().size();
    if (auto r = dyn_cast<ReductionOp>(n))
      return r.getIterationRanges().size();
    return SIZE_MAX;
  };
  int64_t lanes = outer.size() < ranges(node)
                      ? lanesOf(node, options.vectorWidth, options.interleave)
                      : options.vectorWidth;
  if (outer.empty() && lanes == options.vectorWidth)
    lanes = interleavedLanesOf(node, options.vectorWidth, options.interleave);
  if (lanes != options.vectorWidth) {
    LoopOptions narrowed = options;
    narrowed.vectorWidth = lanes;
    // Widened lanes are the interleaved vectors already.
    if (lanes > options.vectorWidth)
      narrowed.interleave = 1;
    return NodeEmitter(b, buffers, narrowed).emitNode(node, outer, parallel);
  }
  return emitNode(node, outer, parallel);
}

LogicalResult NodeEmitter::emitNode(Operation *node, ValueRange outer,
                                    bool parallel) {
  if (auto p = dyn_cast<PointwiseOp>(node))
    return pointwise(p, outer, parallel);
  if (auto r = dyn_cast<ReductionOp>(node))
    return reduction(r, outer, parallel);
  if (auto s = dyn_cast<ScatterOp>(node))
    return scatter(s, outer);
  if (auto k = dyn_cast<KernelOp>(node))
    return kernel(k);
  return node->emitError() << "is not a stax node";
}

} // namespace

Value codegen::emitIndirectIndex(OpBuilder &b, IndirectIndexOp op, Value raw,
                                 BufferMap &buffers, bool gpu) {
  Location loc = op.getLoc();
  Value v = raw;
  if (v.getType().getIntOrFloatBitWidth() < 64)
    v = arith::ExtSIOp::create(b, loc, b.getI64Type(), v);
  Value size = arith::ConstantIntOp::create(b, loc, op.getSize(), 64);
  if (op.getWrapNegative()) {
    Value zero = arith::ConstantIntOp::create(b, loc, 0, 64);
    auto neg = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, v, zero);
    v = arith::SelectOp::create(b, loc, neg,
                                arith::AddIOp::create(b, loc, v, size), v);
  }
  if (op.getCheckBounds() && gpu) {
    auto inBounds =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, v, size);
    std::string msg;
    llvm::raw_string_ostream os(msg);
    os << "index out of bounds for a dimension of size " << op.getSize()
       << " in stax.indirect_index at " << op.getLoc();
    cf::AssertOp::create(b, loc, inBounds, msg);
    v = arith::SelectOp::create(b, loc, inBounds, v,
                                arith::ConstantIntOp::create(b, loc, 0, 64));
  } else if (op.getCheckBounds()) {
    // Unsigned compare: negatives are out of range too.
    auto inBounds =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, v, size);
    auto bad = arith::XOrIOp::create(
        b, loc, inBounds, arith::ConstantIntOp::create(b, loc, 1, 1));
    auto ifOp = scf::IfOp::create(b, loc, bad, /*withElse=*/false);
    {
      OpBuilder::InsertionGuard g(b);
      b.setInsertionPointToStart(ifOp.thenBlock());
      Value site =
          arith::ConstantIntOp::create(b, loc, buffers.errorSite(op), 64);
      Value orig = raw.getType().getIntOrFloatBitWidth() < 64
                       ? Value(arith::ExtSIOp::create(b, loc, b.getI64Type(), raw))
                       : raw;
      func::CallOp::create(b, loc, buffers.indexErrorCallee(),
                           ValueRange{site, orig, size});
    }
    // Go on with a clamped index so that no access leaves the buffer.
    v = arith::SelectOp::create(b, loc, inBounds, v,
                                arith::ConstantIntOp::create(b, loc, 0, 64));
  }
  return arith::IndexCastOp::create(b, loc, b.getIndexType(), v);
}

SmallVector<Value> codegen::kernelScratchValues(KernelOp kernel,
                                                const LoopOptions &options) {
  SmallVector<Value> values;
  if (!options.gpu)
    for (const ScratchBuffer &buf :
         planKernelScratch(kernel, fixedLoops(kernel, options)))
      values.push_back(buf.value);
  return values;
}

std::pair<Value, Value> codegen::emitGpuLaunchLoops(OpBuilder &b, Location loc,
                                                    int64_t blocks,
                                                    int64_t threads) {
  auto cst = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  Value gLb = cst(0), gUb = cst(blocks), gStep = cst(1); // in order
  auto grid = scf::ParallelOp::create(b, loc, ValueRange{gLb}, ValueRange{gUb},
                                      ValueRange{gStep});
  b.setInsertionPointToStart(grid.getBody());
  Value tLb = cst(0), tUb = cst(threads), tStep = cst(1);
  auto block = scf::ParallelOp::create(b, loc, ValueRange{tLb},
                                       ValueRange{tUb}, ValueRange{tStep});
  b.setInsertionPointToStart(block.getBody());
  MLIRContext *ctx = b.getContext();
  // The mapping --convert-parallel-loops-to-gpu reads: blocks, then threads.
  AffineMap id = AffineMap::getMultiDimIdentityMap(1, ctx);
  (void)gpu::setMappingAttr(grid, {gpu::ParallelLoopDimMappingAttr::get(
                                      ctx, gpu::Processor::BlockX, id, id)});
  (void)gpu::setMappingAttr(block, {gpu::ParallelLoopDimMappingAttr::get(
                                       ctx, gpu::Processor::ThreadX, id, id)});
  return {grid.getInductionVars()[0], block.getInductionVars()[0]};
}

SmallVector<Value> codegen::delinearizeIndex(OpBuilder &b, Location loc,
                                             Value linear,
                                             ArrayRef<int64_t> sizes) {
  SmallVector<Value> ivs;
  MLIRContext *ctx = b.getContext();
  int64_t stride = saturatingProduct(sizes);
  for (auto [k, s] : llvm::enumerate(sizes)) {
    stride = s ? stride / s : 0;
    AffineExpr d = getAffineDimExpr(0, ctx);
    // The first index needs no remainder: linear < product(sizes).
    AffineExpr e = !stride  ? d * 0
                   : k == 0 ? d.floorDiv(stride)
                            : d.floorDiv(stride) % s;
    ivs.push_back(affine::AffineApplyOp::create(
        b, loc, AffineMap::get(1, 0, e), ValueRange{linear}));
  }
  return ivs;
}

void codegen::emitThreadGrid(OpBuilder &b, Location loc,
                             ArrayRef<int64_t> space,
                             const LoopOptions &options,
                             function_ref<void(ValueRange)> body) {
  int64_t n = saturatingProduct(space);
  int64_t threads = std::max<int64_t>(1, std::min(options.threadsPerBlock, n));
  int64_t blocks = std::max<int64_t>(1, llvm::divideCeil(n, threads));
  OpBuilder::InsertionGuard g(b);
  auto [blk, tid] = emitGpuLaunchLoops(b, loc, blocks, threads);
  MLIRContext *ctx = b.getContext();
  AffineExpr bd = getAffineDimExpr(0, ctx), t = getAffineDimExpr(1, ctx);
  Value linear = affine::AffineApplyOp::create(
      b, loc, AffineMap::get(2, 0, bd * threads + t), ValueRange{blk, tid});
  Value size = arith::ConstantIndexOp::create(b, loc, n);
  auto inRange =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, linear, size);
  auto ifOp = scf::IfOp::create(b, loc, inRange, /*withElse=*/false);
  b.setInsertionPointToStart(ifOp.thenBlock());
  body(delinearizeIndex(b, loc, linear, space));
}

void codegen::emitThreadGroupGrid(
    OpBuilder &b, Location loc, ArrayRef<int64_t> space,
    const LoopOptions &options, int64_t perThread,
    function_ref<void(ArrayRef<SmallVector<Value>>, ArrayRef<Value>)> body) {
  int64_t n = saturatingProduct(space);
  int64_t threads =
      std::max<int64_t>(1, std::min<int64_t>(options.threadsPerBlock,
                                             llvm::divideCeil(n, perThread)));
  int64_t blocks =
      std::max<int64_t>(1, llvm::divideCeil(n, threads * perThread));
  OpBuilder::InsertionGuard g(b);
  auto [blk, tid] = emitGpuLaunchLoops(b, loc, blocks, threads);
  // Point j of thread t in block k is k*T*P + j*T + t: a warp's j-th points
  // are neighbours. Points past the end compute at the last one (their
  // loads stay in bounds) and are not stored.
  MLIRContext *ctx = b.getContext();
  AffineExpr bd = getAffineDimExpr(0, ctx), t = getAffineDimExpr(1, ctx);
  Value last = arith::ConstantIndexOp::create(b, loc, n - 1);
  Value size = arith::ConstantIndexOp::create(b, loc, n);
  SmallVector<SmallVector<Value>> points;
  SmallVector<Value> inRange;
  for (int64_t j = 0; j < perThread; ++j) {
    Value linear = affine::AffineApplyOp::create(
        b, loc,
        AffineMap::get(2, 0, bd * (threads * perThread) + j * threads + t),
        ValueRange{blk, tid});
    inRange.push_back(
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, linear, size));
    Value clamped = arith::MinUIOp::create(b, loc, linear, last);
    points.push_back(delinearizeIndex(b, loc, clamped, space));
  }
  body(points, inRange);
}

/// The index of the first set lane of `mask` (vector<N x i1>), as an i64.
static Value firstSetLane(OpBuilder &b, Location loc, Value mask) {
  int64_t n = cast<VectorType>(mask.getType()).getNumElements();
  auto type = VectorType::get({n}, b.getI64Type());
  auto lanes = llvm::to_vector(llvm::seq<int64_t>(0, n));
  Value iota = arith::ConstantOp::create(
      b, loc, DenseElementsAttr::get(type, ArrayRef<int64_t>(lanes)));
  Value none = arith::ConstantOp::create(
      b, loc, DenseElementsAttr::get(type, b.getI64IntegerAttr(n)));
  Value picked = arith::SelectOp::create(b, loc, mask, iota, none);
  return vector::ReductionOp::create(b, loc, vector::CombiningKind::MINSI,
                                     picked);
}

Value codegen::emitIndirectIndexLanes(OpBuilder &b, IndirectIndexOp op,
                                      Value raw, BufferMap &buffers) {
  Location loc = op.getLoc();
  auto rawType = cast<VectorType>(raw.getType());
  int64_t n = rawType.getNumElements();
  auto i64s = VectorType::get({n}, b.getI64Type());
  auto splat = [&](int64_t c) -> Value {
    return arith::ConstantOp::create(
        b, loc, DenseElementsAttr::get(i64s, b.getI64IntegerAttr(c)));
  };
  Value v = raw;
  if (rawType.getElementTypeBitWidth() < 64)
    v = arith::ExtSIOp::create(b, loc, i64s, v);
  Value size = splat(op.getSize());
  if (op.getWrapNegative()) {
    Value zero = splat(0);
    Value neg = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, v, zero);
    Value wrapped = arith::AddIOp::create(b, loc, v, size);
    v = arith::SelectOp::create(b, loc, neg, wrapped, v);
  }
  if (op.getCheckBounds()) {
    // Unsigned compare: negatives are out of range too. One test per
    // vector; the bad lane is only looked for on the (cold) error path.
    Value inBounds =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, v, size);
    auto maskType = VectorType::get({n}, b.getI1Type());
    Value ones = arith::ConstantOp::create(
        b, loc, DenseElementsAttr::get(maskType, true));
    Value bad = arith::XOrIOp::create(b, loc, inBounds, ones);
    Value any =
        vector::ReductionOp::create(b, loc, vector::CombiningKind::OR, bad);
    auto ifOp = scf::IfOp::create(b, loc, any, /*withElse=*/false);
    {
      OpBuilder::InsertionGuard g(b);
      b.setInsertionPointToStart(ifOp.thenBlock());
      Value site =
          arith::ConstantIntOp::create(b, loc, buffers.errorSite(op), 64);
      Value lane = arith::IndexCastOp::create(b, loc, b.getIndexType(),
                                              firstSetLane(b, loc, bad));
      Value orig = vector::ExtractOp::create(b, loc, raw, OpFoldResult(lane));
      if (rawType.getElementTypeBitWidth() < 64)
        orig = arith::ExtSIOp::create(b, loc, b.getI64Type(), orig);
      Value sizeScalar = arith::ConstantIntOp::create(b, loc, op.getSize(), 64);
      func::CallOp::create(b, loc, buffers.indexErrorCallee(),
                           ValueRange{site, orig, sizeScalar});
    }
    Value zero = splat(0);
    v = arith::SelectOp::create(b, loc, inBounds, v, zero);
  }
  return arith::IndexCastOp::create(
      b, loc, VectorType::get({n}, b.getIndexType()), v);
}

void codegen::emitNanCheck(OpBuilder &b, Location loc, Operation *node,
                           Value value, Value position, BufferMap &buffers,
                           const LoopOptions &options) {
  if (!options.checkNan || !isa<FloatType>(getElementTypeOrSelf(value)))
    return;
  if (options.gpu) {
    // A kernel has no error state to return: trap, as failed index checks
    // do, with the node in the message.
    std::string msg;
    llvm::raw_string_ostream os(msg);
    os << "NaN in the result of '" << node->getName() << "' at "
       << node->getLoc();
    Value ordered = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::ORD,
                                          value, value);
    cf::AssertOp::create(b, loc, ordered, msg);
    return;
  }
  // One test per vector in the loop; the position of the first NaN lane is
  // only computed on the (cold) error path.
  Value isNan =
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, value, value);
  bool isVector = isa<VectorType>(value.getType());
  Value any = isVector ? Value(vector::ReductionOp::create(
                             b, loc, vector::CombiningKind::OR, isNan))
                       : isNan;
  auto ifOp = scf::IfOp::create(b, loc, any, /*withElse=*/false);
  OpBuilder::InsertionGuard g(b);
  b.setInsertionPointToStart(ifOp.thenBlock());
  Value site =
      arith::ConstantIntOp::create(b, loc, buffers.nanErrorSite(node), 64);
  Value pos = arith::IndexCastOp::create(b, loc, b.getI64Type(), position);
  if (isVector)
    pos = arith::AddIOp::create(b, loc, pos, firstSetLane(b, loc, isNan));
  func::CallOp::create(b, loc, buffers.nanErrorCallee(), ValueRange{site, pos});
}

void codegen::emitBufferNanCheck(OpBuilder &b, Location loc, Operation *node,
                                 Value buffer, BufferMap &buffers,
                                 const LoopOptions &options) {
  auto type = cast<MemRefType>(buffer.getType());
  if (!options.checkNan || !isa<FloatType>(type.getElementType()))
    return;
  auto [lbs, ubs, steps] = constantBounds(b, loc, type.getShape());
  auto loop = scf::ForOp::create(b, loc, lbs[0], ubs[0], steps[0]);
  OpBuilder::InsertionGuard g(b);
  b.setInsertionPointToStart(loop.getBody());
  Value i = loop.getInductionVar();
  Value v = memref::LoadOp::create(b, loc, buffer, i);
  emitNanCheck(b, loc, node, v, i, buffers, options);
}

/// Elementwise nodes of at least kManyPointsPerLaunch points give each
/// thread kPointsPerThread of them, so that each thread has several loads
/// in flight (one per thread left an H200 at 67 % of its copy bandwidth).
constexpr int64_t kPointsPerThread = 4;
constexpr int64_t kManyPointsPerLaunch = int64_t(1) << 20;

/// Reduction or kernel `node` with a block of `threads` threads per outer
/// index (BlockThreads.h); a barrier between a kernel's nodes makes each
/// one's stores visible to the next.
static LogicalResult emitOnBlocks(OpBuilder &b, NodeEmitter &emitter,
                                  Operation *node, int64_t threads) {
  auto k = dyn_cast<KernelOp>(node);
  ArrayRef<int64_t> space =
      k ? k.getOuterRanges() : cast<ReductionOp>(node).getIterationRanges();
  LogicalResult status = success();
  emitBlockGrid(b, node->getLoc(), space, threads,
                [&](ValueRange ivs, const BlockThreads &block) {
                  if (!k) {
                    status = emitter.emitOnBlock(node, ivs, block);
                    return;
                  }
                  Block &body = k.getBody().front();
                  for (Operation &inner : body.without_terminator()) {
                    if (&inner != &body.front())
                      emitBlockBarrier(b, inner.getLoc());
                    if (failed(emitter.emitOnBlock(&inner, ivs, block)))
                      status = failure();
                  }
                });
  return status;
}

LogicalResult codegen::emitNode(OpBuilder &b, Operation *node,
                                BufferMap &buffers, const LoopOptions &options) {
  NodeEmitter emitter(b, buffers, options);
  if (options.gpu) {
    // Special functions libdevice lacks have no CUDA code: say which.
    WalkResult missing = node->walk([&](SpecialFunctionOp op) {
      if (!specialCallee(op, /*gpu=*/true).empty())
        return WalkResult::advance();
      op.emitError() << "'" << stringifySpecialFunctionKind(op.getKind())
                     << "' has no CUDA code generation (libdevice lacks it; "
                        "use the cpu target)";
      return WalkResult::interrupt();
    });
    if (missing.wasInterrupted())
      return failure();
  }
  if (!options.gpu) {
    bool parallel = options.parallel && workOf(node) >= options.grain;
    return emitter.emit(node, {}, parallel);
  }
  if (auto s = dyn_cast<ScatterOp>(node))
    if (succeeded(emitter.scatterOnThreads(s)))
      return success();
  if (int64_t threads = blockThreadsFor(node, options))
    return emitOnBlocks(b, emitter, node, threads);
  if (auto p = dyn_cast<PointwiseOp>(node);
      p && workOf(p) >= kManyPointsPerLaunch) {
    emitThreadGroupGrid(
        b, p.getLoc(), p.getIterationRanges(), options, kPointsPerThread,
        [&](ArrayRef<SmallVector<Value>> points, ArrayRef<Value> stored) {
          emitter.pointwiseAtPoints(p, points, stored);
        });
    return success();
  }
  // One thread per output element: the thread's indices are the node's
  // outer loops (a kernel's nodes all share them; a scatter that cannot
  // use atomics runs in one thread).
  ArrayRef<int64_t> space;
  if (auto p = dyn_cast<PointwiseOp>(node))
    space = p.getIterationRanges();
  else if (auto r = dyn_cast<ReductionOp>(node))
    space = r.getIterationRanges();
  else if (auto k = dyn_cast<KernelOp>(node))
    space = k.getOuterRanges();
  LogicalResult status = success();
  emitThreadGrid(b, node->getLoc(), space, options, [&](ValueRange ivs) {
    if (auto k = dyn_cast<KernelOp>(node)) {
      for (Operation &inner : k.getBody().front().without_terminator())
        if (failed(emitter.emit(&inner, ivs, /*parallel=*/false)))
          status = failure();
      return;
    }
    status = emitter.emit(node, ivs, /*parallel=*/false);
  });
  return status;
}
