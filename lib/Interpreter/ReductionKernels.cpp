//===- ReductionKernels.cpp - reductions of the reference interpreter -----===//
//
// sum, prod, mean, amax, amin, logsumexp, any, all, var, max.dim, min.dim,
// argmax, argmin, sort and topk. Every reduction combines the elements of a group
// in lexicographic order of the reduced indices (reductionGroups), starting
// from the identity; floating values accumulate in accumulationType(result
// type) with one rounding per primitive, integers in int64.
//
//===----------------------------------------------------------------------===//

#include "Kernels.h"
#include "Stax/Support/SortOrder.h"

using namespace mlir;
using namespace mlir::stax;
using namespace mlir::stax::detail;

namespace {

/// reducedMask that also accepts a 0-d input (whose only valid dims, 0 and
/// -1, reduce nothing).
SmallVector<bool> maskFor(ArrayRef<int64_t> dims, int64_t rank) {
  if (rank == 0)
    return {};
  return reducedMask(dims, rank);
}

/// Element `i` of `t` converted to floating type `elt` (what eager's
/// conversion of the input to the result dtype does).
double loadAs(const Tensor &t, int64_t i, Type elt) {
  if (t.isFloat())
    return t.elementType() == elt ? t.getF(i) : roundToFloatType(t.getF(i), elt);
  return roundToFloatType(static_cast<double>(t.getI(i)), elt);
}

/// Element `i` of `t` converted to integer type `elt`.
int64_t loadAsInt(const Tensor &t, int64_t i, Type elt) {
  if (t.isFloat())
    return castToIntType(t.getF(i), elt);
  return wrapToIntType(t.getI(i), elt);
}

/// Wrapping int64 arithmetic (no signed-overflow UB).
int64_t wrapAdd(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b));
}
int64_t wrapMul(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) * static_cast<uint64_t>(b));
}

/// Groups of a reduction over `dims` of `x`; checks the group count against
/// the result (an internal invariant of the op's type inference).
FailureOr<std::vector<std::vector<int64_t>>>
groupsFor(Operation *op, const Tensor &x, ArrayRef<int64_t> dims,
          const Tensor &out) {
  auto groups = reductionGroups(x.shape(), maskFor(dims, x.rank()));
  if (static_cast<int64_t>(groups.size()) != out.numel())
    return runtimeError(op, "internal error: reduction has " +
                                Twine(static_cast<int64_t>(groups.size())) +
                                " groups but the result has " +
                                Twine(out.numel()) + " elements");
  return groups;
}

enum class SumKind { Sum, Prod, Mean };

/// sum / prod / mean: floating results accumulate in T, integer (and bool)
/// results in int64.
template <typename OpT>
FailureOr<Tensor> sumLike(OpT op, Inputs in, const KernelContext &ctx,
                          SumKind kind) {
  const Tensor &x = *in[0];
  Tensor out = ctx.result(op);
  auto groups = groupsFor(op, x, op.getDims(), out);
  if (failed(groups))
    return failure();
  Type rt = out.elementType();
  if (out.isFloat()) {
    FloatMath m{accumulationType(rt)};
    for (auto [g, idx] : llvm::enumerate(*groups)) {
      double acc = kind == SumKind::Prod ? 1.0 : 0.0;
      for (int64_t i : idx) {
        double v = loadAs(x, i, rt);
        acc = kind == SumKind::Prod ? m.mul(acc, v) : m.add(acc, v);
      }
      // Eager's CPU mean is sum(x).div_(n): the sum is rounded to the
      // result type (f16/bf16) before the division.
      if (kind == SumKind::Mean)
        acc = m.div(roundToFloatType(acc, rt), static_cast<double>(idx.size()));
      out.setF(g, acc);
    }
    return out;
  }
  if (kind == SumKind::Mean)
    return runtimeError(op, "mean needs a floating result type");
  for (auto [g, idx] : llvm::enumerate(*groups)) {
    int64_t acc = kind == SumKind::Prod ? 1 : 0;
    for (int64_t i : idx) {
      int64_t v = loadAsInt(x, i, rt);
      acc = kind == SumKind::Prod ? wrapMul(acc, v) : wrapAdd(acc, v);
    }
    out.setI(g, acc);
  }
  return out;
}

/// amax / amin: NaN propagates; an empty group has no identity.
template <typename OpT>
FailureOr<Tensor> extremum(OpT op, Inputs in, const KernelContext &ctx,
                           bool isMax) {
  const Tensor &x = *in[0];
  Tensor out = ctx.result(op);
  auto groups = groupsFor(op, x, op.getDims(), out);
  if (failed(groups))
    return failure();
  Type rt = out.elementType();
  for (auto [g, idx] : llvm::enumerate(*groups)) {
    if (idx.empty())
      return runtimeError(op, Twine(isMax ? "amax" : "amin") +
                                  " of an empty set of elements (a reduced "
                                  "dim has size 0) has no identity");
    if (out.isFloat()) {
      FloatMath m{accumulationType(rt)};
      double acc = loadAs(x, idx[0], rt);
      for (int64_t i : ArrayRef<int64_t>(idx).drop_front()) {
        double v = loadAs(x, i, rt);
        acc = isMax ? m.max(acc, v) : m.min(acc, v);
      }
      out.setF(g, acc);
    } else {
      int64_t acc = loadAsInt(x, idx[0], rt);
      for (int64_t i : ArrayRef<int64_t>(idx).drop_front()) {
        int64_t v = loadAsInt(x, i, rt);
        acc = isMax ? std::max(acc, v) : std::min(acc, v);
      }
      out.setI(g, acc);
    }
  }
  return out;
}

/// any / all on a bool result.
template <typename OpT>
FailureOr<Tensor> anyAll(OpT op, Inputs in, const KernelContext &ctx,
                         bool isAny) {
  const Tensor &x = *in[0];
  Tensor out = ctx.result(op);
  auto groups = groupsFor(op, x, op.getDims(), out);
  if (failed(groups))
    return failure();
  for (auto [g, idx] : llvm::enumerate(*groups)) {
    bool acc = !isAny;
    for (int64_t i : idx)
      acc = isAny ? (acc || x.getB(i)) : (acc && x.getB(i));
    out.setI(g, acc ? 1 : 0);
  }
  return out;
}

/// Position within `idx` of the first extreme element (NaN counts as the
/// extreme: the first NaN wins). `idx` is non-empty.
int64_t firstExtreme(const Tensor &x, ArrayRef<int64_t> idx, bool isMax) {
  int64_t best = 0;
  if (x.isFloat()) {
    double bv = x.getF(idx[0]);
    for (int64_t k = 1, e = idx.size(); k < e && !std::isnan(bv); ++k) {
      double v = x.getF(idx[k]);
      if (std::isnan(v) || (isMax ? v > bv : v < bv)) {
        bv = v;
        best = k;
      }
    }
    return best;
  }
  int64_t bv = x.getI(idx[0]);
  for (int64_t k = 1, e = idx.size(); k < e; ++k) {
    int64_t v = x.getI(idx[k]);
    if (isMax ? v > bv : v < bv) {
      bv = v;
      best = k;
    }
  }
  return best;
}

/// max.dim / min.dim: (values, indices).
template <typename OpT>
LogicalResult valueIndex(OpT op, Inputs in, SmallVectorImpl<Tensor> &out,
                         const KernelContext &ctx, bool isMax) {
  const Tensor &x = *in[0];
  Tensor values = ctx.result(op, 0);
  Tensor indices = ctx.result(op, 1);
  int64_t dim = static_cast<int64_t>(op.getDim());
  auto groups = groupsFor(op, x, {dim}, values);
  if (failed(groups))
    return failure();
  for (auto [g, idx] : llvm::enumerate(*groups)) {
    if (idx.empty())
      return runtimeError(op, "cannot take the " +
                                  Twine(isMax ? "maximum" : "minimum") +
                                  " along dim " + Twine(dim) +
                                  ", which has size 0");
    int64_t k = firstExtreme(x, idx, isMax);
    if (values.isFloat())
      values.setF(g, x.getF(idx[k]));
    else
      values.setI(g, x.getI(idx[k]));
    indices.setI(g, k);
  }
  out.push_back(std::move(values));
  out.push_back(std::move(indices));
  return success();
}

/// argmax / argmin: with no dim, the index into the flattened input.
template <typename OpT>
FailureOr<Tensor> argExtreme(OpT op, Inputs in, const KernelContext &ctx,
                             bool isMax) {
  const Tensor &x = *in[0];
  Tensor out = ctx.result(op);
  SmallVector<int64_t> dims;
  if (std::optional<uint64_t> d = op.getDim())
    dims.push_back(static_cast<int64_t>(*d));
  // No dim: one group of all elements, in row-major order, so the position
  // in the group is the flattened index.
  auto groups = groupsFor(op, x, dims, out);
  if (failed(groups))
    return failure();
  for (auto [g, idx] : llvm::enumerate(*groups)) {
    if (idx.empty())
      return runtimeError(op, Twine(isMax ? "argmax" : "argmin") +
                                  " of an empty set of elements is undefined");
    out.setI(g, firstExtreme(x, idx, isMax));
  }
  return out;
}

/// Sorts the slice of `x` at `base` (`len` elements `inner` apart) and
/// writes its first `k` elements to `values` and their positions to
/// `indices` at `outBase` (`inner` apart), comparing keys of type T (double
/// for floats); k < len takes a partial sort.
template <typename T>
void sortSlice(const Tensor &x, int64_t base, int64_t len, int64_t inner,
               int64_t k, bool descending, Tensor &values, Tensor &indices,
               int64_t outBase) {
  std::vector<T> keys(len);
  for (int64_t j = 0; j < len; ++j) {
    if constexpr (std::is_floating_point_v<T>)
      keys[j] = x.getF(base + j * inner);
    else
      keys[j] = x.getI(base + j * inner);
  }
  std::vector<int64_t> perm(len);
  if (k < len)
    partialSortPermutation(keys.data(), len, k, descending, perm.data());
  else
    sortPermutation(keys.data(), len, descending, perm.data());
  for (int64_t j = 0; j < k; ++j) {
    int64_t from = base + perm[j] * inner, to = outBase + j * inner;
    if (values.isFloat())
      values.setF(to, x.getF(from));
    else
      values.setI(to, x.getI(from));
    indices.setI(to, perm[j]);
  }
}

/// The first k of the stable sort of every slice along `dim` (SortOrder.h):
/// tp.sort (k = the dim's size) and tp.topk. A 0-d tensor is one slice of
/// one element, which it keeps whatever k.
template <typename OpT>
LogicalResult sortedPrefix(OpT op, Inputs in, SmallVectorImpl<Tensor> &out,
                           const KernelContext &ctx,
                           std::optional<int64_t> keep, bool descending) {
  const Tensor &x = *in[0];
  Tensor values = ctx.result(op, 0);
  Tensor indices = ctx.result(op, 1);
  int64_t dim =
      x.rank() ? *tp::normalizeDim(static_cast<int64_t>(op.getDim()), x.rank())
               : 0;
  int64_t outer = 1, len = 1, inner = 1;
  for (int64_t d = 0; d < x.rank(); ++d)
    (d < dim ? outer : d == dim ? len : inner) *= x.dim(d);
  int64_t k = keep && x.rank() ? *keep : len;
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t i = 0; i < inner; ++i) {
      int64_t base = o * len * inner + i, outBase = o * k * inner + i;
      if (x.isFloat())
        sortSlice<double>(x, base, len, inner, k, descending, values, indices,
                          outBase);
      else
        sortSlice<int64_t>(x, base, len, inner, k, descending, values,
                           indices, outBase);
    }
  out.push_back(std::move(values));
  out.push_back(std::move(indices));
  return success();
}

} // namespace

void stax::detail::registerReductionKernels(KernelRegistry &registry) {
  using namespace mlir::tp;
  registry.add<SumOp>([](SumOp op, Inputs in, const KernelContext &ctx) {
    return sumLike(op, in, ctx, SumKind::Sum);
  });
  registry.add<ProdOp>([](ProdOp op, Inputs in, const KernelContext &ctx) {
    return sumLike(op, in, ctx, SumKind::Prod);
  });
  registry.add<MeanOp>([](MeanOp op, Inputs in, const KernelContext &ctx) {
    return sumLike(op, in, ctx, SumKind::Mean);
  });
  registry.add<AmaxOp>([](AmaxOp op, Inputs in, const KernelContext &ctx) {
    return extremum(op, in, ctx, /*isMax=*/true);
  });
  registry.add<AminOp>([](AminOp op, Inputs in, const KernelContext &ctx) {
    return extremum(op, in, ctx, /*isMax=*/false);
  });
  registry.add<AnyOp>([](AnyOp op, Inputs in, const KernelContext &ctx) {
    return anyAll(op, in, ctx, /*isAny=*/true);
  });
  registry.add<AllOp>([](AllOp op, Inputs in, const KernelContext &ctx) {
    return anyAll(op, in, ctx, /*isAny=*/false);
  });

  registry.add<LogsumexpOp>(
      [](LogsumexpOp op, Inputs in,
         const KernelContext &ctx) -> FailureOr<Tensor> {
        const Tensor &x = *in[0];
        Tensor out = ctx.result(op);
        auto groups = groupsFor(op, x, op.getDims(), out);
        if (failed(groups))
          return failure();
        Type rt = out.elementType();
        FloatMath m{accumulationType(rt)};
        for (auto [g, idx] : llvm::enumerate(*groups)) {
          double mx = -INFINITY;
          for (int64_t i : idx)
            mx = m.max(mx, loadAs(x, i, rt));
          if (std::isinf(mx))
            mx = 0.0;
          double s = 0.0;
          for (int64_t i : idx)
            s = m.add(s, m.exp(m.sub(loadAs(x, i, rt), mx)));
          out.setF(g, m.add(m.log(s), mx));
        }
        return out;
      });

  registry.add<VarOp>(
      [](VarOp op, Inputs in, const KernelContext &ctx) -> FailureOr<Tensor> {
        const Tensor &x = *in[0];
        Tensor out = ctx.result(op);
        auto groups = groupsFor(op, x, op.getDims(), out);
        if (failed(groups))
          return failure();
        Type rt = out.elementType();
        FloatMath m{accumulationType(rt)};
        double correction = op.getCorrection().convertToDouble();
        for (auto [g, idx] : llvm::enumerate(*groups)) {
          // Shifted by the slice's first element, as the decomposition
          // (Decompose.cpp): a constant slice's mean is exact.
          double n = static_cast<double>(idx.size());
          double shift = idx.empty() ? 0.0 : loadAs(x, idx.front(), rt);
          double sum = 0.0;
          for (int64_t i : idx)
            sum = m.add(sum, m.sub(loadAs(x, i, rt), shift));
          double mean =
              idx.empty() ? m.div(sum, n) : m.add(shift, m.div(sum, n));
          double s = 0.0;
          for (int64_t i : idx) {
            double d = m.sub(loadAs(x, i, rt), mean);
            s = m.add(s, m.mul(d, d));
          }
          // Eager clamps the divisor at 0: N <= correction gives inf/nan.
          double divisor = std::max(0.0, n - correction);
          out.setF(g, m.div(s, divisor));
        }
        return out;
      });

  registry.addMulti<MaxDimOp>([](MaxDimOp op, Inputs in,
                                 SmallVectorImpl<Tensor> &out,
                                 const KernelContext &ctx) {
    return valueIndex(op, in, out, ctx, /*isMax=*/true);
  });
  registry.addMulti<MinDimOp>([](MinDimOp op, Inputs in,
                                 SmallVectorImpl<Tensor> &out,
                                 const KernelContext &ctx) {
    return valueIndex(op, in, out, ctx, /*isMax=*/false);
  });
  registry.add<ArgmaxOp>([](ArgmaxOp op, Inputs in, const KernelContext &ctx) {
    return argExtreme(op, in, ctx, /*isMax=*/true);
  });
  registry.add<ArgminOp>([](ArgminOp op, Inputs in, const KernelContext &ctx) {
    return argExtreme(op, in, ctx, /*isMax=*/false);
  });
  registry.addMulti<SortOp>([](SortOp op, Inputs in,
                               SmallVectorImpl<Tensor> &out,
                               const KernelContext &ctx) {
    return sortedPrefix(op, in, out, ctx, std::nullopt, op.getDescending());
  });
  registry.addMulti<TopkOp>([](TopkOp op, Inputs in,
                               SmallVectorImpl<Tensor> &out,
                               const KernelContext &ctx) {
    return sortedPrefix(op, in, out, ctx, static_cast<int64_t>(op.getK()),
                        op.getLargest());
  });
}
