//===- Materialization.cpp - thresholds and flexible layouts --------------===//
#include "Stax/Analysis/Materialization.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace mlir;
using namespace mlir::stax;
using namespace mlir::stax::lowering;

BodyStats stax::lowering::countBody(Region &body) {
  BodyStats stats;
  llvm::SmallPtrSet<Value, 8> buffers;
  body.walk([&](Operation *op) {
    if (auto load = dyn_cast<LoadOp>(op)) {
      ++stats.reads;
      buffers.insert(load.getBuffer());
      return;
    }
    if (isa<arith::ConstantOp, affine::AffineApplyOp, YieldOp, IndirectIndexOp>(op))
      return;
    ++stats.ops;
    if (isa<math::ExpOp, math::LogOp, math::Log10Op, math::Log1pOp, math::Log2Op,
            math::TanhOp>(op))
      stats.expensive = true;
  });
  stats.buffers = buffers.size();
  return stats;
}

std::string stax::lowering::materializationReason(const BodyStats &s,
                                                  unsigned users,
                                                  Target target) {
  if (users <= 1)
    return "";
  bool cpu = target == Target::CPU;
  unsigned opLimit = cpu ? 50 : 30;
  unsigned readLimit = cpu ? 12 : 8;
  if (cpu && s.expensive)
    return "an expensive op (exp/log/tanh) on cpu with " +
           std::to_string(users) + " users";
  // "Close to the limit": half of it.
  if (cpu && users > 5 && s.ops > opLimit / 2)
    return std::to_string(users) + " users and " + std::to_string(s.ops) +
           " ops on cpu";
  if (s.ops > opLimit)
    return std::to_string(s.ops) + " ops (limit " + std::to_string(opLimit) + ")";
  if (s.buffers > 4)
    return "reads " + std::to_string(s.buffers) + " buffers (limit 4)";
  if (s.reads > readLimit)
    return std::to_string(s.reads) + " reads (limit " +
           std::to_string(readLimit) + ")";
  return "";
}

using AddressFn = llvm::function_ref<int64_t(ArrayRef<int64_t>)>;

/// Calls `fn` with the address function of every load of `node` whose
/// address is an affine.apply: the address at a point of the node's index
/// space (other operands, such as gathered indices, read as 0).
static void forEachLoadAddress(PointwiseOp node,
                               llvm::function_ref<void(AddressFn)> fn) {
  Block &block = node.getBody().front();
  node.getBody().walk([&](LoadOp load) {
    auto apply = load.getAddress().getDefiningOp<affine::AffineApplyOp>();
    if (!apply)
      return;
    AffineMap map = apply.getAffineMap();
    MLIRContext *ctx = map.getContext();
    auto eval = [&](ArrayRef<int64_t> point) -> int64_t {
      SmallVector<AffineExpr> dims, syms(map.getNumSymbols(),
                                         getAffineConstantExpr(0, ctx));
      for (Value v : apply.getDimOperands()) {
        auto arg = dyn_cast<BlockArgument>(v);
        int64_t x = arg && arg.getOwner() == &block ? point[arg.getArgNumber()] : 0;
        dims.push_back(getAffineConstantExpr(x, ctx));
      }
      AffineExpr e = map.getResult(0).replaceDimsAndSymbols(dims, syms);
      auto c = dyn_cast<AffineConstantExpr>(simplifyAffineExpr(e, 0, 0));
      return c ? c.getValue() : 0;
    };
    fn(eval);
  });
}

/// Coefficient of each loop index in the address of every load (the address
/// is affine in the indices when it has no floordiv/mod; otherwise the
/// difference quotient is a fair estimate for a preference).
static SmallVector<int64_t> readWeights(PointwiseOp node) {
  unsigned rank = node.getType().getRank();
  SmallVector<int64_t> weights(rank, 0);
  forEachLoadAddress(node, [&](AddressFn eval) {
    SmallVector<int64_t> zero(rank, 0);
    int64_t base = eval(zero);
    for (unsigned k = 0; k < rank; ++k) {
      if (node.getType().getDimSize(k) <= 1)
        continue;
      SmallVector<int64_t> unit(zero);
      unit[k] = 1;
      weights[k] += std::abs(eval(unit) - base);
    }
  });
  return weights;
}

int64_t stax::lowering::wholeVectorRun(PointwiseOp node, unsigned dim,
                                       int64_t limit) {
  unsigned rank = node.getType().getRank();
  int64_t steps = std::min(node.getType().getDimSize(dim), limit);
  int64_t run = steps;
  forEachLoadAddress(node, [&](AddressFn eval) {
    SmallVector<int64_t> point(rank, 0);
    int64_t base = eval(point);
    point[dim] = 1;
    int64_t stride = eval(point) - base;
    if (steps <= 1 || stride == 0)
      return; // does not move along dim
    if (!readsWholeVectors(stride)) {
      run = 1;
      return;
    }
    int64_t k = 1;
    while (k < steps) {
      point[dim] = k;
      if (eval(point) != base + k * stride)
        break;
      ++k;
    }
    run = std::min(run, k);
  });
  return run;
}

LayoutAttr stax::lowering::chooseLayout(PointwiseOp node) {
  auto type = node.getType();
  MLIRContext *ctx = node.getContext();
  SmallVector<int64_t> weights = readWeights(node);
  SmallVector<unsigned> order; // outermost first
  for (unsigned k = 0; k < weights.size(); ++k)
    order.push_back(k);
  // Larger read strides go outside; ties keep the row-major order.
  llvm::sort(order, [&](unsigned a, unsigned b) {
    return weights[a] != weights[b] ? weights[a] > weights[b] : a < b;
  });
  bool identity = llvm::is_sorted(order);
  // A dim no load reads along expresses no preference: keep row-major.
  if (identity || llvm::any_of(weights, [](int64_t w) { return w == 0; }))
    return LayoutAttr::getRowMajor(ctx, type.getShape());
  SmallVector<int64_t> strides(type.getRank(), 0);
  int64_t stride = 1;
  for (unsigned k : llvm::reverse(order)) {
    strides[k] = stride;
    stride *= std::max<int64_t>(type.getDimSize(k), 1);
  }
  return LayoutAttr::get(ctx, strides, 0, false);
}
