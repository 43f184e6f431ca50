//===- NodeKernels.cpp - running stax nodes -------------------------------===//
//
// Runs `stax.pointwise`, `stax.reduction`, `stax.scatter` and `stax.kernel`
// on concrete tensors: every index of the iteration range in lexicographic
// order, the reduction range in lexicographic order (Section 6.9), the
// body's value stored at the layout's address. Bodies are compiled by
// BodyInterpreter.cpp.
//
//===----------------------------------------------------------------------===//
#include "BodyInterpreter.h"
#include "Stax/Dialect/Stax/IR/StaxOps.h"
#include <limits>
#include <optional>

using namespace mlir;
using namespace mlir::stax;
using namespace mlir::stax::detail;
namespace sx = ::stax;

namespace {

/// Storage address of `index` under a node's layout, checked against the
/// element count the interpreter allocates.
FailureOr<int64_t> storageAddress(Operation *op, ArrayRef<int64_t> index,
                                  ArrayRef<int64_t> strides, int64_t offset,
                                  int64_t numel) {
  int64_t a = offset + dot(index, strides);
  if (a < 0 || a >= numel)
    return runtimeError(op, "layout maps an element to address " + Twine(a) +
                                ", outside the buffer's " + Twine(numel) +
                                " elements");
  return a;
}

void store(Tensor &t, int64_t a, const Scalar &v, bool fromFloat) {
  if (fromFloat)
    t.setF(a, v.f);
  else
    t.setI(a, v.i);
}

LogicalResult runPointwise(sx::PointwiseOp op, CompiledBody &body,
                           SmallVectorImpl<Tensor> &out,
                           const KernelContext &ctx) {
  Tensor result = ctx.result(op);
  ArrayRef<int64_t> ranges = op.getIterationRanges();
  auto strides = op.getLayout().getEffectiveStrides(ranges);
  int64_t offset = op.getLayout().getOffset();
  bool isFloat = isa<FloatType>(op.getType().getElementType());
  LogicalResult status = success();
  forEachIndex(ranges, [&](int64_t, ArrayRef<int64_t> idx) {
    if (failed(status = body.run(idx)))
      return false;
    auto a = storageAddress(op, idx, strides, offset, result.numel());
    if (failed(a)) {
      status = failure();
      return false;
    }
    store(result, *a, body.yield(0), isFloat);
    return true;
  });
  if (failed(status))
    return failure();
  out.push_back(std::move(result));
  return success();
}

/// The running state of one output element of a reduction.
struct Accumulator {
  sx::ReductionKind kind;
  Type t; // the combine type (mapped)
  bool isFloat;
  double f = 0, mean = 0, m2 = 0, count = 0;
  int64_t i = 0, position = 0, k = 0;

  void reset() {
    using K = sx::ReductionKind;
    k = 0;
    position = 0;
    mean = m2 = count = 0;
    switch (kind) {
    case K::Sum: f = 0; i = 0; break;
    case K::Prod: f = 1; i = 1; break;
    case K::Max: f = -INFINITY; i = std::numeric_limits<int64_t>::min(); break;
    case K::Min: f = INFINITY; i = std::numeric_limits<int64_t>::max(); break;
    case K::Any: i = 0; break;
    case K::All: i = 1; break;
    default: break;
    }
  }
  double r(double v) const { return roundToFloatType(v, t); }
  void add(const Scalar &v) {
    using K = sx::ReductionKind;
    FloatMath m{t};
    switch (kind) {
    case K::Sum:
      isFloat ? (void)(f = m.add(f, v.f)) : (void)(i = wrapInt(int64_t(uint64_t(i) + uint64_t(v.i)), t));
      break;
    case K::Prod:
      isFloat ? (void)(f = m.mul(f, v.f)) : (void)(i = wrapInt(int64_t(uint64_t(i) * uint64_t(v.i)), t));
      break;
    case K::Max:
      isFloat ? (void)(f = m.max(f, v.f)) : (void)(i = std::max(i, v.i));
      break;
    case K::Min:
      isFloat ? (void)(f = m.min(f, v.f)) : (void)(i = std::min(i, v.i));
      break;
    case K::Argmax:
    case K::Argmin: {
      bool isMax = kind == K::Argmax;
      if (k == 0) {
        f = v.f;
        i = v.i;
      } else if (isFloat) {
        if (!std::isnan(f) && (std::isnan(v.f) || (isMax ? v.f > f : v.f < f))) {
          f = v.f;
          position = k;
        }
      } else if (isMax ? v.i > i : v.i < i) {
        i = v.i;
        position = k;
      }
      break;
    }
    case K::Any: i = i || v.i; break;
    case K::All: i = i && v.i; break;
    case K::Welford: {
      count = m.add(count, 1.0);
      double delta = m.sub(v.f, mean);
      mean = m.add(mean, m.div(delta, count));
      m2 = m.add(m2, m.mul(delta, m.sub(v.f, mean)));
      break;
    }
    case K::WelfordCombine:
      llvm_unreachable("triples go through addTriple");
    }
    ++k;
  }
  /// Chan et al.'s combine of a partial (mean, M2, count) into the state.
  void addTriple(double mb, double m2b, double nb) {
    FloatMath m{t};
    if (nb == 0)
      return;
    if (count == 0) {
      mean = mb;
      m2 = m2b;
      count = nb;
      return;
    }
    double n = m.add(count, nb);
    double delta = m.sub(mb, mean);
    mean = m.add(mean, m.mul(delta, m.div(nb, n)));
    m2 = m.add(m.add(m2, m2b), m.mul(m.mul(delta, delta), m.div(m.mul(count, nb), n)));
    count = n;
  }
};

LogicalResult runReduction(sx::ReductionOp op, CompiledBody &body,
                           SmallVectorImpl<Tensor> &out,
                           const KernelContext &ctx) {
  SmallVector<Tensor> results;
  for (unsigned k = 0; k < op.getNumResults(); ++k)
    results.push_back(ctx.result(op, k));
  ArrayRef<int64_t> ranges = op.getIterationRanges();
  ArrayRef<int64_t> rranges = op.getReductionRanges();
  auto strides = op.getLayout().getEffectiveStrides(ranges);
  int64_t offset = op.getLayout().getOffset();
  Type yieldType = body.yields.empty()
                       ? Type()
                       : op.getBody().front().getTerminator()->getOperand(0).getType();
  Accumulator acc{op.getKind(), ctx.mapType(yieldType), isa<FloatType>(yieldType)};
  using K = sx::ReductionKind;
  if ((acc.kind == K::Argmax || acc.kind == K::Argmin) &&
      llvm::any_of(rranges, [](int64_t s) { return s == 0; }))
    return runtimeError(op, "cannot take the position of an extreme of an "
                            "empty reduction range");
  bool storeFloat = isa<FloatType>(
      cast<RankedTensorType>(op.getResult(0).getType()).getElementType());
  SmallVector<int64_t> full(ranges.size() + rranges.size());
  LogicalResult status = success();
  forEachIndex(ranges, [&](int64_t, ArrayRef<int64_t> idx) {
    llvm::copy(idx, full.begin());
    acc.reset();
    forEachIndex(rranges, [&](int64_t, ArrayRef<int64_t> ridx) {
      llvm::copy(ridx, full.begin() + idx.size());
      if (failed(status = body.run(full)))
        return false;
      if (acc.kind == K::WelfordCombine)
        acc.addTriple(body.yield(0).f, body.yield(1).f, body.yield(2).f);
      else
        acc.add(body.yield(0));
      return true;
    });
    if (failed(status))
      return false;
    auto a = storageAddress(op, idx, strides, offset, results[0].numel());
    if (failed(a)) {
      status = failure();
      return false;
    }
    switch (acc.kind) {
    case K::Argmax:
    case K::Argmin:
      results[0].setI(*a, acc.position);
      break;
    case K::Welford:
    case K::WelfordCombine:
      results[0].setF(*a, acc.mean);
      results[1].setF(*a, acc.m2);
      results[2].setF(*a, acc.count);
      break;
    default:
      store(results[0], *a, Scalar{acc.f, acc.i}, storeFloat && acc.isFloat);
      if (storeFloat && !acc.isFloat)
        results[0].setI(*a, acc.i);
    }
    return true;
  });
  if (failed(status))
    return failure();
  for (Tensor &t : results)
    out.push_back(std::move(t));
  return success();
}

LogicalResult runScatter(sx::ScatterOp op, CompiledBody &body, const Tensor &base,
                         SmallVectorImpl<Tensor> &out, const KernelContext &ctx) {
  Tensor result = base;
  bool accumulate = op.getMode() == sx::ScatterMode::Accumulate;
  Type elt = result.elementType();
  LogicalResult status = success();
  forEachIndex(op.getRanges(), [&](int64_t, ArrayRef<int64_t> idx) {
    if (failed(status = body.run(idx)))
      return false;
    int64_t a = body.yield(0).i;
    if (a < 0 || a >= result.numel()) {
      status = runtimeError(op, "writes address " + Twine(a) +
                                    ", outside the buffer's " +
                                    Twine(result.numel()) + " elements");
      return false;
    }
    const Scalar &v = body.yield(1);
    if (result.isFloat())
      result.setF(a, accumulate ? roundToFloatType(result.getF(a) + v.f, elt) : v.f);
    else
      result.setI(a, accumulate ? int64_t(uint64_t(result.getI(a)) + uint64_t(v.i)) : v.i);
    return true;
  });
  if (failed(status))
    return failure();
  out.push_back(std::move(result));
  return success();
}

} // namespace

bool stax::detail::isNode(Operation *op) {
  return isa<sx::PointwiseOp, sx::ReductionOp, sx::ScatterOp, sx::KernelOp>(op);
}

/// A kernel's nodes run in order (fusion never changes a value); results
/// are the yielded node results.
static LogicalResult
evaluateKernel(sx::KernelOp kernel,
               llvm::function_ref<const Tensor *(Value)> lookup,
               SmallVectorImpl<Tensor> &out, const KernelContext &ctx) {
  llvm::DenseMap<Value, Tensor> local;
  auto inner = [&](Value v) -> const Tensor * {
    auto it = local.find(v);
    return it != local.end() ? &it->second : lookup(v);
  };
  Block &body = kernel.getBody().front();
  for (Operation &op : body.without_terminator()) {
    SmallVector<Tensor> results;
    if (failed(evaluateNode(&op, inner, results, ctx)))
      return failure();
    for (auto [v, t] : llvm::zip(op.getResults(), results))
      local[v] = std::move(t);
  }
  for (Value v : body.getTerminator()->getOperands()) {
    const Tensor *t = inner(v);
    if (!t)
      return kernel.emitError() << "yields a value the kernel did not compute";
    out.push_back(*t);
  }
  return success();
}

LogicalResult stax::detail::evaluateNode(
    Operation *op, llvm::function_ref<const Tensor *(Value)> lookup,
    SmallVectorImpl<Tensor> &out, const KernelContext &ctx) {
  if (auto kernel = dyn_cast<sx::KernelOp>(op))
    return evaluateKernel(kernel, lookup, out, ctx);
  FailureOr<CompiledBody> body = compileBody(op->getRegion(0), ctx, lookup);
  if (failed(body))
    return failure();
  if (auto p = dyn_cast<sx::PointwiseOp>(op))
    return runPointwise(p, *body, out, ctx);
  if (auto r = dyn_cast<sx::ReductionOp>(op))
    return runReduction(r, *body, out, ctx);
  auto s = cast<sx::ScatterOp>(op);
  const Tensor *base = lookup(s.getBase());
  if (!base)
    return s.emitError() << "the base buffer has no value";
  return runScatter(s, *body, *base, out, ctx);
}

/// The layout `v` is stored with and the loops it maps, when a node
/// computes `v`.
static std::optional<std::pair<sx::LayoutAttr, ArrayRef<int64_t>>>
storageLayout(Value v) {
  Operation *node = sx::getComputingNode(v);
  if (auto p = dyn_cast_or_null<sx::PointwiseOp>(node))
    return std::make_pair(p.getLayout(), p.getIterationRanges());
  if (auto r = dyn_cast_or_null<sx::ReductionOp>(node))
    return std::make_pair(r.getLayout(), r.getIterationRanges());
  if (auto s = dyn_cast_or_null<sx::ScatterOp>(node))
    return std::make_pair(s.getLayout(), s.getResult().getType().getShape());
  return std::nullopt;
}

std::optional<Tensor> stax::detail::logicalOrder(Value v,
                                                const Tensor &storage) {
  auto layout = storageLayout(v);
  if (!layout || layout->first.isRowMajor(layout->second))
    return std::nullopt;
  SmallVector<int64_t> strides =
      layout->first.getEffectiveStrides(layout->second);
  int64_t offset = layout->first.getOffset();
  Tensor logical = storage;
  // Every address was checked against the storage when the node stored it.
  forEachIndex(layout->second, [&](int64_t k, ArrayRef<int64_t> idx) {
    int64_t a = offset + dot(idx, strides);
    if (storage.isFloat())
      logical.setF(k, storage.getF(a));
    else
      logical.setI(k, storage.getI(a));
  });
  return logical;
}
