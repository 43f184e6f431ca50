//===- ScanLoops.cpp - loops of the tp scans ------------------------------===//
//
// Every slice along the scanned dim is one scf.for carrying the running
// value, in the order and accumulation type of the interpreter's kernel
// (lib/Interpreter/ScanKernels.cpp, Stax/Support/ScanCombine.h), so that
// compiled scans are bitwise equal to it. The slices are independent: the
// CPU spreads them over an scf.parallel (when the whole scan is worth
// threads), the GPU gives each a thread.
//
//===----------------------------------------------------------------------===//

#include "ScanLoops.h"
#include "Stax/Dialect/Tp/IR/TpOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "llvm/ADT/TypeSwitch.h"
#include <cmath>

using namespace mlir;
using namespace mlir::stax;
using namespace mlir::stax::codegen;

namespace {

enum class ScanKind { Sum, Prod, LogSumExp, Max, Min };

/// What one scan op computes and where.
struct ScanPlan {
  ScanKind kind;
  Value in, values, indices; // flat row-major memrefs; indices may be null
  int64_t outer = 1, len = 1, inner = 1;
  bool reverse = false;
  Type element;     // the tensor's element type
  Type stored;      // the memref's element type (i1 is stored as i8)
  Type accumulator; // the running value's type
  bool isUnsigned = false;
};

template <typename OpT>
ScanPlan planOf(OpT op, ScanKind kind, BufferMap &buffers) {
  ScanPlan p;
  p.kind = kind;
  auto t = cast<RankedTensorType>(op.getSelf().getType());
  int64_t rank = t.getRank();
  int64_t dim =
      rank ? *tp::normalizeDim(static_cast<int64_t>(op.getDim()), rank) : 0;
  for (int64_t d = 0; d < rank; ++d)
    (d < dim ? p.outer : d == dim ? p.len : p.inner) *= t.getDimSize(d);
  p.reverse = op.getReverse();
  p.in = buffers.storageOf(op.getSelf());
  p.values = buffers.storageOf(op->getResult(0));
  if (op->getNumResults() > 1)
    p.indices = buffers.storageOf(op->getResult(1));
  p.element = t.getElementType();
  p.stored = cast<MemRefType>(p.in.getType()).getElementType();
  p.isUnsigned = p.element.isInteger(1) || p.element.isUnsignedInteger();
  MLIRContext *ctx = op.getContext();
  if (kind == ScanKind::Max || kind == ScanKind::Min)
    p.accumulator = p.stored;
  else if (isa<FloatType>(p.element))
    p.accumulator = p.element.isF16() || p.element.isBF16()
                        ? Type(Float32Type::get(ctx))
                        : Type(Float64Type::get(ctx));
  else
    p.accumulator = IntegerType::get(ctx, 64);
  return p;
}

/// Emits the scan of one slice, or of `lanes` adjacent slices at once (a
/// vector per step: slices i..i+lanes-1 are contiguous at every position
/// along dim): `base` is the position of the first element, the k-th
/// visited element at base + step(k) * inner. The lanes compute what the
/// scalar slices would, operation for operation.
class SliceEmitter {
public:
  SliceEmitter(OpBuilder &b, Location loc, const ScanPlan &p, int64_t lanes)
      : b(b), loc(loc), p(p), lanes(lanes) {}

  void emit(Value base) {
    Value inner = index(p.inner);
    auto position = [&](Value k) -> Value {
      Value step = k;
      if (p.reverse)
        step = arith::SubIOp::create(b, loc, index(p.len - 1), k);
      return arith::AddIOp::create(
          b, loc, base, arith::MulIOp::create(b, loc, step, inner));
    };
    SmallVector<Value> init = initialState(position);
    Value lb = index(0), ub = index(p.len), one = index(1);
    auto loop = scf::ForOp::create(b, loc, lb, ub, one, init);
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(loop.getBody());
    Value k = loop.getInductionVar();
    Value pos = position(k);
    SmallVector<Value> next =
        combine(load(p.in, pos), k, loop.getRegionIterArgs());
    store(stored(next[0]), p.values, pos);
    if (p.indices) {
      // next[1] counts visits; the index is the position along dim.
      Value taken = next[1];
      if (p.reverse)
        taken = arith::SubIOp::create(b, loc, splat(b.getI64IntegerAttr(p.len - 1)),
                                      taken);
      store(taken, p.indices, pos);
    }
    scf::YieldOp::create(b, loc, next);
  }

private:
  Value index(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }
  Type lanesOf(Type t) {
    return lanes > 1 ? Type(VectorType::get({lanes}, t)) : t;
  }
  /// A constant of the lanes' shape.
  Value splat(TypedAttr scalar) {
    if (lanes == 1)
      return arith::ConstantOp::create(b, loc, scalar);
    auto t = VectorType::get({lanes}, scalar.getType());
    return arith::ConstantOp::create(b, loc, DenseElementsAttr::get(t, scalar));
  }
  Value floatConst(Type t, double v) { return splat(b.getFloatAttr(t, v)); }
  Value load(Value memref, Value pos) {
    if (lanes == 1)
      return memref::LoadOp::create(b, loc, memref, ValueRange{pos});
    Type elt = cast<MemRefType>(memref.getType()).getElementType();
    return vector::LoadOp::create(b, loc, VectorType::get({lanes}, elt), memref,
                                  ValueRange{pos});
  }
  void store(Value v, Value memref, Value pos) {
    if (lanes == 1)
      memref::StoreOp::create(b, loc, v, memref, ValueRange{pos});
    else
      vector::StoreOp::create(b, loc, v, memref, ValueRange{pos});
  }
  /// The visit counter k as the lanes' i64 value.
  Value counter(Value k) {
    Value i64 = arith::IndexCastOp::create(b, loc, b.getI64Type(), k);
    if (lanes == 1)
      return i64;
    return vector::BroadcastOp::create(b, loc, lanesOf(b.getI64Type()), i64);
  }

  SmallVector<Value> initialState(function_ref<Value(Value)> position) {
    switch (p.kind) {
    case ScanKind::Sum:
    case ScanKind::Prod: {
      double identity = p.kind == ScanKind::Prod ? 1.0 : 0.0;
      if (isa<FloatType>(p.accumulator))
        return {floatConst(p.accumulator, identity)};
      return {splat(b.getI64IntegerAttr(static_cast<int64_t>(identity)))};
    }
    case ScanKind::LogSumExp:
      return {floatConst(p.accumulator, -INFINITY)};
    case ScanKind::Max:
    case ScanKind::Min:
      // The first visited element, at its own position (eager starts there).
      return {load(p.in, position(index(0))), splat(b.getI64IntegerAttr(0))};
    }
    llvm_unreachable("unknown scan kind");
  }

  /// The element widened to the accumulator type.
  Value widened(Value x) {
    Type acc = lanesOf(p.accumulator);
    if (x.getType() == acc)
      return x;
    if (isa<FloatType>(p.accumulator))
      return arith::ExtFOp::create(b, loc, acc, x);
    if (p.isUnsigned)
      return arith::ExtUIOp::create(b, loc, acc, x);
    return arith::ExtSIOp::create(b, loc, acc, x);
  }
  /// The running value rounded (or wrapped) to the stored type.
  Value stored(Value acc) {
    Type t = lanesOf(p.stored);
    if (acc.getType() == t)
      return acc;
    if (isa<FloatType>(p.stored))
      return arith::TruncFOp::create(b, loc, t, acc);
    return arith::TruncIOp::create(b, loc, t, acc);
  }

  SmallVector<Value> combine(Value x, Value k, ValueRange state) {
    Value acc = state[0];
    switch (p.kind) {
    case ScanKind::Sum:
      if (isa<FloatType>(p.accumulator))
        return {arith::AddFOp::create(b, loc, acc, widened(x))};
      return {arith::AddIOp::create(b, loc, acc, widened(x))};
    case ScanKind::Prod:
      if (isa<FloatType>(p.accumulator))
        return {arith::MulFOp::create(b, loc, acc, widened(x))};
      return {arith::MulIOp::create(b, loc, acc, widened(x))};
    case ScanKind::LogSumExp:
      return {logAddExp(widened(x), acc)};
    case ScanKind::Max:
    case ScanKind::Min: {
      Value takes = extremumTakes(x, acc, p.kind == ScanKind::Max);
      return {arith::SelectOp::create(b, loc, takes, x, acc),
              arith::SelectOp::create(b, loc, takes, counter(k), state[1])};
    }
    }
    llvm_unreachable("unknown scan kind");
  }

  /// ScanCombine.h's logAddExpStep.
  Value logAddExp(Value x, Value acc) {
    using P = arith::CmpFPredicate;
    auto cmp = [&](P pred, Value l, Value r) -> Value {
      return arith::CmpFOp::create(b, loc, pred, l, r);
    };
    auto select = [&](Value c, Value t, Value f) -> Value {
      return arith::SelectOp::create(b, loc, c, t, f);
    };
    Value accNan = cmp(P::UNO, acc, acc);
    // std::min(x, acc) = acc < x ? acc : x; std::max(x, acc) = x < acc ? acc : x.
    Value lo = select(accNan, acc, select(cmp(P::OLT, acc, x), acc, x));
    Value hi = select(accNan, acc, select(cmp(P::OLT, x, acc), acc, x));
    Value inf = floatConst(p.accumulator, INFINITY);
    Value finite = cmp(P::ONE, math::AbsFOp::create(b, loc, lo), inf);
    Value general = arith::OrIOp::create(b, loc, cmp(P::UNE, lo, hi), finite);
    Value diff = arith::SubFOp::create(b, loc, lo, hi);
    Value sum = arith::AddFOp::create(
        b, loc, math::Log1pOp::create(b, loc, math::ExpOp::create(b, loc, diff)),
        hi);
    return select(general, sum, x);
  }

  /// ScanCombine.h's cumExtremumTakes.
  Value extremumTakes(Value x, Value acc, bool isMax) {
    if (isa<FloatType>(p.stored)) {
      using P = arith::CmpFPredicate;
      // x >= acc is false when either is NaN, which leaves only "x is NaN".
      Value nan = arith::CmpFOp::create(b, loc, P::UNO, x, x);
      Value better =
          arith::CmpFOp::create(b, loc, isMax ? P::OGE : P::OLE, x, acc);
      return arith::OrIOp::create(b, loc, nan, better);
    }
    using P = arith::CmpIPredicate;
    P pred = isMax ? (p.isUnsigned ? P::uge : P::sge)
                   : (p.isUnsigned ? P::ule : P::sle);
    return arith::CmpIOp::create(b, loc, pred, x, acc);
  }

  OpBuilder &b;
  Location loc;
  const ScanPlan &p;
  int64_t lanes;
};

std::optional<ScanPlan> planFor(Operation *op, BufferMap &buffers) {
  return llvm::TypeSwitch<Operation *, std::optional<ScanPlan>>(op)
      .Case([&](tp::CumsumOp o) { return planOf(o, ScanKind::Sum, buffers); })
      .Case([&](tp::CumprodOp o) { return planOf(o, ScanKind::Prod, buffers); })
      .Case([&](tp::LogcumsumexpOp o) {
        return planOf(o, ScanKind::LogSumExp, buffers);
      })
      .Case([&](tp::CummaxOp o) { return planOf(o, ScanKind::Max, buffers); })
      .Case([&](tp::CumminOp o) { return planOf(o, ScanKind::Min, buffers); })
      .Default([](Operation *) { return std::nullopt; });
}

} // namespace

bool codegen::isScan(Operation *op) {
  return isa<tp::CumsumOp, tp::CumprodOp, tp::LogcumsumexpOp, tp::CummaxOp,
             tp::CumminOp>(op);
}

/// One loop over `count` slice groups (an scf.parallel when `parallel`),
/// calling `body` with the group number.
static void forEachGroup(OpBuilder &b, Location loc, int64_t count,
                         bool parallel, function_ref<void(Value)> body) {
  Value lb = arith::ConstantIndexOp::create(b, loc, 0);
  Value ub = arith::ConstantIndexOp::create(b, loc, count);
  Value step = arith::ConstantIndexOp::create(b, loc, 1);
  OpBuilder::InsertionGuard g(b);
  if (parallel) {
    auto par = scf::ParallelOp::create(b, loc, ValueRange{lb}, ValueRange{ub},
                                       ValueRange{step});
    b.setInsertionPointToStart(par.getBody());
    body(par.getInductionVars()[0]);
    return;
  }
  auto loop = scf::ForOp::create(b, loc, lb, ub, step);
  b.setInsertionPointToStart(loop.getBody());
  body(loop.getInductionVar());
}

LogicalResult codegen::emitScan(OpBuilder &b, Operation *op,
                                BufferMap &buffers,
                                const LoopOptions &options) {
  std::optional<ScanPlan> plan = planFor(op, buffers);
  if (!plan)
    return op->emitError() << "'" << op->getName() << "' is not a scan";
  ScanPlan &p = *plan;
  Location loc = op->getLoc();
  if (p.len == 0 || p.outer * p.inner == 0)
    return success();
  // The first element of slice (o, i) is at o * len * inner + i.
  auto emitSlices = [&](Value o, Value i, int64_t lanes) {
    Value span = arith::ConstantIndexOp::create(b, loc, p.len * p.inner);
    Value base = arith::AddIOp::create(
        b, loc, arith::MulIOp::create(b, loc, o, span), i);
    SliceEmitter(b, loc, p, lanes).emit(base);
  };
  if (options.gpu) {
    emitThreadGrid(b, loc, {p.outer, p.inner}, options,
                   [&](ValueRange ivs) { emitSlices(ivs[0], ivs[1], 1); });
    emitBufferNanCheck(b, loc, op, p.values, buffers, options);
    return success();
  }
  // CPU: `lanes` adjacent slices (contiguous at every step) per vector
  // while whole vectors fit in `inner`, the rest one by one; each group
  // loop is parallel when the whole scan is worth threads.
  // (An i1 vector is packed bits in LLVM, not the bytes of the buffer.)
  int64_t lanes = options.vectorWidth > 1 && p.inner >= options.vectorWidth &&
                          !p.stored.isInteger(1)
                      ? options.vectorWidth
                      : 1;
  int64_t vectors = lanes > 1 ? p.inner / lanes : 0;
  int64_t rest = p.inner - vectors * lanes;
  bool worthThreads =
      options.parallel && p.outer * p.len * p.inner >= options.grain;
  auto groups = [&](int64_t perOuter, int64_t firstInner, int64_t width) {
    if (perOuter == 0)
      return;
    int64_t count = p.outer * perOuter;
    forEachGroup(b, loc, count, worthThreads && count > 1, [&](Value s) {
      // One op per statement: the order in which a call's arguments are
      // evaluated (and so the IR's op order) differs between compilers.
      Value per = arith::ConstantIndexOp::create(b, loc, perOuter);
      Value o = arith::DivUIOp::create(b, loc, s, per);
      Value first = arith::ConstantIndexOp::create(b, loc, firstInner);
      Value stride = arith::ConstantIndexOp::create(b, loc, width);
      Value group = arith::RemUIOp::create(b, loc, s, per);
      Value offset = arith::MulIOp::create(b, loc, group, stride);
      Value i = arith::AddIOp::create(b, loc, first, offset);
      emitSlices(o, i, width);
    });
  };
  groups(vectors, 0, lanes);
  groups(rest, vectors * lanes, 1);
  emitBufferNanCheck(b, loc, op, p.values, buffers, options);
  return success();
}
