//===- BlockThreads.cpp - a thread block per output on the GPU ------------===//
#include "BlockThreads.h"
#include "Vectorize.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"

using namespace mlir;
using namespace mlir::stax;
using namespace mlir::stax::codegen;

namespace {
constexpr int64_t kWarp = 32;
} // namespace

/// The iterations of `node` at one index of the `outerRank` outer loops.
static int64_t innerWork(Operation *node, size_t outerRank) {
  if (auto p = dyn_cast<PointwiseOp>(node))
    return saturatingProduct(p.getIterationRanges().drop_front(outerRank));
  auto r = cast<ReductionOp>(node);
  int64_t w;
  if (llvm::MulOverflow(
          saturatingProduct(r.getIterationRanges().drop_front(outerRank)),
          saturatingProduct(r.getReductionRanges()), w))
    return std::numeric_limits<int64_t>::max();
  return w;
}

int64_t codegen::blockThreadsFor(Operation *node, const LoopOptions &options) {
  int64_t threads = options.threadsPerBlock / kWarp * kWarp;
  if (!options.gpu || threads < kWarp)
    return 0;
  int64_t inner = 0;
  if (auto r = dyn_cast<ReductionOp>(node)) {
    // Neighbouring outputs reading neighbouring elements (a column sum)
    // already coalesce with a thread per output. No outputs: nothing to run
    // (the thread-per-output grid guards its one thread).
    if (isVectorizableReductionOutputs(r, kWarp) ||
        saturatingProduct(r.getIterationRanges()) == 0)
      return 0;
    inner = saturatingProduct(r.getReductionRanges());
  } else if (auto k = dyn_cast<KernelOp>(node)) {
    if (saturatingProduct(k.getOuterRanges()) == 0)
      return 0;
    size_t rank = k.getOuterRanges().size();
    for (Operation &op : k.getBody().front().without_terminator()) {
      if (!isa<PointwiseOp, ReductionOp>(op))
        return 0;
      inner = std::max(inner, innerWork(&op, rank));
    }
  }
  if (inner < kBlockMinInnerWork)
    return 0;
  return inner >= threads ? threads
                          : static_cast<int64_t>(llvm::alignTo(inner, kWarp));
}

void codegen::emitBlockGrid(
    OpBuilder &b, Location loc, ArrayRef<int64_t> space, int64_t threads,
    function_ref<void(ValueRange, const BlockThreads &)> body) {
  OpBuilder::InsertionGuard g(b);
  auto [blk, tid] = emitGpuLaunchLoops(
      b, loc, std::max<int64_t>(saturatingProduct(space), 1), threads);
  body(delinearizeIndex(b, loc, blk, space), BlockThreads{tid, threads});
}

SmallVector<Value> codegen::emitThreadStridedLoop(
    OpBuilder &b, Location loc, ArrayRef<int64_t> ranges,
    const BlockThreads &threads, ValueRange state,
    function_ref<SmallVector<Value>(ValueRange, ValueRange)> body) {
  // Whole rounds of T points first, in a loop with a constant trip count
  // (LLVM unrolls it and issues several loads before their uses), then the
  // threads below the remainder take one more point.
  int64_t total = saturatingProduct(ranges), t = threads.count;
  int64_t rounds = total / t, rest = total % t;
  MLIRContext *ctx = b.getContext();
  AffineExpr k = getAffineDimExpr(0, ctx), tid = getAffineDimExpr(1, ctx);
  auto point = [&](Value round, ValueRange s) {
    Value linear =
        affine::AffineApplyOp::create(b, loc, AffineMap::get(2, 0, k * t + tid),
                                      ValueRange{round, threads.tid});
    return body(delinearizeIndex(b, loc, linear, ranges), s);
  };
  SmallVector<Value> current(state);
  if (rounds > 0) {
    Value lb = arith::ConstantIndexOp::create(b, loc, 0);
    Value ub = arith::ConstantIndexOp::create(b, loc, rounds);
    Value one = arith::ConstantIndexOp::create(b, loc, 1);
    auto loop = scf::ForOp::create(b, loc, lb, ub, one, current);
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(loop.getBody());
    SmallVector<Value> next =
        point(loop.getInductionVar(), loop.getRegionIterArgs());
    if (!current.empty()) // else the loop has its (empty) yield already
      scf::YieldOp::create(b, loc, next);
    current.assign(loop.getResults().begin(), loop.getResults().end());
  }
  if (rest == 0)
    return current;
  Value limit = arith::ConstantIndexOp::create(b, loc, rest);
  Value inTail = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                       threads.tid, limit);
  auto ifOp = scf::IfOp::create(b, loc, ValueRange(current).getTypes(), inTail,
                                /*withElseRegion=*/!current.empty());
  OpBuilder::InsertionGuard g(b);
  b.setInsertionPointToStart(ifOp.thenBlock());
  Value last = arith::ConstantIndexOp::create(b, loc, rounds);
  SmallVector<Value> next = point(last, current);
  if (current.empty())
    return {};
  scf::YieldOp::create(b, loc, next);
  b.setInsertionPointToStart(ifOp.elseBlock());
  scf::YieldOp::create(b, loc, current);
  return SmallVector<Value>(ifOp.getResults());
}

/// `v` from lane `tid ^ offset` of the warp. Shuffles move 32 bits (64-bit
/// values are split by the NVVM lowering): narrower values travel widened.
static Value shuffleXor(OpBuilder &b, Location loc, Value v, int64_t offset) {
  Type t = v.getType();
  Type i32 = b.getI32Type();
  unsigned bits = t.getIntOrFloatBitWidth();
  Value x = v;
  if (bits < 32) {
    if (isa<FloatType>(t))
      x = arith::BitcastOp::create(b, loc, b.getIntegerType(bits), x);
    x = arith::ExtUIOp::create(b, loc, i32, x);
  }
  Value off = arith::ConstantIntOp::create(b, loc, offset, 32);
  Value width = arith::ConstantIntOp::create(b, loc, kWarp, 32);
  auto shuffle =
      gpu::ShuffleOp::create(b, loc, x, off, width, gpu::ShuffleMode::XOR);
  Value r = shuffle.getShuffleResult();
  if (bits < 32) {
    r = arith::TruncIOp::create(b, loc, b.getIntegerType(bits), r);
    if (isa<FloatType>(t))
      r = arith::BitcastOp::create(b, loc, t, r);
  }
  return r;
}

/// The shared-memory array of per-warp partials for state component `k` of
/// type `t`: a workgroup-space global of the module, one slot per warp of
/// the largest block (outlining copies it into the kernels' gpu.module).
static Value warpPartials(OpBuilder &b, Location loc, Type t, unsigned k) {
  std::string name;
  llvm::raw_string_ostream os(name);
  os << "__stax_warp_partials_" << k << "_" << t;
  auto module =
      b.getInsertionBlock()->getParentOp()->getParentOfType<ModuleOp>();
  auto space =
      gpu::AddressSpaceAttr::get(b.getContext(), gpu::AddressSpace::Workgroup);
  auto type =
      MemRefType::get({1024 / kWarp}, t, MemRefLayoutAttrInterface(), space);
  if (!SymbolTable::lookupSymbolIn(module, name)) {
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(module.getBody());
    memref::GlobalOp::create(b, loc, name, b.getStringAttr("private"), type,
                             Attribute(), /*constant=*/false, IntegerAttr());
  }
  return memref::GetGlobalOp::create(b, loc, type, name);
}

void codegen::emitBlockBarrier(OpBuilder &b, Location loc) {
  gpu::BarrierOp::create(b, loc);
}

SmallVector<Value> codegen::emitBlockCombine(
    OpBuilder &b, Location loc, ValueRange state, const BlockThreads &threads,
    function_ref<SmallVector<Value>(ValueRange, ValueRange)> combine) {
  // Butterfly within each warp: every lane ends with its warp's result.
  SmallVector<Value> s(state);
  for (int64_t offset = kWarp / 2; offset >= 1; offset /= 2) {
    SmallVector<Value> other;
    for (Value v : s)
      other.push_back(shuffleXor(b, loc, v, offset));
    s = combine(s, other);
  }
  int64_t warps = threads.count / kWarp;
  if (warps == 1)
    return s;
  // Lane 0 of each warp publishes; then every thread combines the warps'
  // results in the same order, so all of them hold the same value.
  MLIRContext *ctx = b.getContext();
  AffineExpr d = getAffineDimExpr(0, ctx);
  Value lane = affine::AffineApplyOp::create(
      b, loc, AffineMap::get(1, 0, d % kWarp), ValueRange{threads.tid});
  Value warp = affine::AffineApplyOp::create(
      b, loc, AffineMap::get(1, 0, d.floorDiv(kWarp)), ValueRange{threads.tid});
  SmallVector<Value> partials;
  for (auto [k, v] : llvm::enumerate(s))
    partials.push_back(warpPartials(b, loc, v.getType(), k));
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value isLane0 =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, lane, zero);
  auto publish = scf::IfOp::create(b, loc, isLane0, /*withElse=*/false);
  {
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(publish.thenBlock());
    for (auto [v, mem] : llvm::zip(s, partials))
      memref::StoreOp::create(b, loc, v, mem, ValueRange{warp});
  }
  emitBlockBarrier(b, loc);
  SmallVector<Value> total;
  for (Value mem : partials)
    total.push_back(memref::LoadOp::create(b, loc, mem, ValueRange{zero}));
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  Value count = arith::ConstantIndexOp::create(b, loc, warps);
  auto loop = scf::ForOp::create(b, loc, one, count, one, total);
  {
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(loop.getBody());
    SmallVector<Value> next;
    for (Value mem : partials)
      next.push_back(memref::LoadOp::create(
          b, loc, mem, ValueRange{loop.getInductionVar()}));
    scf::YieldOp::create(b, loc, combine(loop.getRegionIterArgs(), next));
  }
  // The next combine of this block writes the same slots.
  emitBlockBarrier(b, loc);
  return SmallVector<Value>(loop.getResults());
}
