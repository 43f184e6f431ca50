//===- IndexingKernels.cpp - indirect reads and scatter writes ------------===//
//
// index, index_put, index_select, gather, scatter, scatter_add, embedding,
// embedding_dense_backward. Every index value is bounds-checked at run time
// (a runtime error names it); writes happen in row-major order of the
// positions that produce them, so the last write wins and accumulations add
// in that order (in accumulationType of the result, integers in int64).
//
//===----------------------------------------------------------------------===//

#include "Kernels.h"

using namespace mlir;
using namespace mlir::stax;
using namespace mlir::stax::detail;

namespace {

/// Element `i` of `t` converted to floating type `elt`.
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
int64_t wrapAdd(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b));
}

/// dst[j] = src[i] (same element type up to the run's mapping).
void copyElement(Tensor &dst, int64_t j, const Tensor &src, int64_t i) {
  if (dst.isFloat())
    dst.setF(j, src.getF(i));
  else
    dst.setI(j, src.getI(i));
}

/// Checks that an index value lies in [0, size) (no negative wrap, as eager's
/// gather/scatter/index_select/embedding).
FailureOr<int64_t> checkIndex(Operation *op, int64_t index, int64_t size,
                              StringRef what) {
  if (index < 0 || index >= size)
    return runtimeError(op, Twine(what) + " " + Twine(index) +
                                " is out of bounds for a dimension of size " +
                                Twine(size));
  return index;
}

/// The values of a scatter target while writes land in it: floating values in
/// the accumulation type (rounded to the element type once at the end),
/// integers in int64.
class WriteBuffer {
public:
  explicit WriteBuffer(const Tensor &init)
      : out(init), m{accumulationType(init.elementType())} {
    if (out.isFloat())
      f.assign(out.floatData().begin(), out.floatData().end());
    else
      i.assign(out.intData().begin(), out.intData().end());
  }
  /// Writes (or adds) element `k` of `src` at linear position `t`.
  void write(int64_t t, const Tensor &src, int64_t k, bool accumulate) {
    Type elt = out.elementType();
    if (out.isFloat()) {
      double v = loadAs(src, k, elt);
      f[t] = accumulate ? m.add(f[t], v) : v;
    } else {
      int64_t v = loadAsInt(src, k, elt);
      i[t] = accumulate ? wrapAdd(i[t], v) : v;
    }
  }
  Tensor finish() {
    for (int64_t k = 0; k < out.numel(); ++k) {
      if (out.isFloat())
        out.setF(k, f[k]);
      else
        out.setI(k, i[k]);
    }
    return std::move(out);
  }

private:
  Tensor out;
  FloatMath m;
  std::vector<double> f;
  std::vector<int64_t> i;
};

//===----------------------------------------------------------------------===//
// Advanced indexing
//===----------------------------------------------------------------------===//

/// The geometry of `self[..., idx_0, ..., idx_k, ...]` (numpy rules, as
/// advancedIndexShape in TpOps.cpp).
struct AdvancedIndex {
  SmallVector<int64_t> dims;                  ///< indexed dims, increasing
  SmallVector<int64_t> bshape;                ///< broadcast index shape
  SmallVector<SmallVector<int64_t>> strides;  ///< of each index into bshape
  SmallVector<int64_t> shape;                 ///< indexed (result) shape
  int64_t bpos = 0; ///< where bshape sits in `shape`
  SmallVector<int64_t> rest; ///< non-indexed self dims, in result order
};

FailureOr<AdvancedIndex> analyzeIndex(Operation *op, const Tensor &self,
                                      ArrayRef<const Tensor *> indices,
                                      ArrayRef<int64_t> dims) {
  AdvancedIndex a;
  if (self.rank() == 0)
    return runtimeError(op, "cannot index a 0-d tensor with index tensors");
  if (indices.empty() || indices.size() != dims.size())
    return runtimeError(op, "internal error: " + Twine(indices.size()) +
                                " indices for " + Twine(dims.size()) + " dims");
  for (auto [t, d] : llvm::zip(indices, dims)) {
    auto b = tp::broadcastShapes(a.bshape, t->shape());
    auto n = tp::normalizeDim(d, self.rank());
    if (failed(b) || !n)
      return runtimeError(op, "internal error: invalid indices");
    a.bshape = *b;
    a.dims.push_back(*n);
  }
  for (const Tensor *t : indices)
    a.strides.push_back(broadcastStrides(t->shape(), a.bshape));
  bool adjacent = a.dims.back() - a.dims.front() + 1 ==
                  static_cast<int64_t>(a.dims.size());
  a.bpos = adjacent ? a.dims.front() : 0;
  for (int64_t i = 0; i < self.rank(); ++i)
    if (!llvm::is_contained(a.dims, i))
      a.rest.push_back(i);
  // Leading rest dims, the index block, the other rest dims.
  for (int64_t i = 0; i < a.bpos; ++i)
    a.shape.push_back(self.dim(a.rest[i]));
  a.shape.append(a.bshape);
  for (int64_t i = a.bpos, e = a.rest.size(); i < e; ++i)
    a.shape.push_back(self.dim(a.rest[i]));
  return a;
}

/// Calls fn(linear position in the indexed shape, that position, linear
/// position in self) for every position of the indexed shape in row-major order; failure on the
/// first out-of-range index.
template <typename Fn>
LogicalResult forEachIndexed(Operation *op, const Tensor &self,
                             ArrayRef<const Tensor *> indices,
                             const AdvancedIndex &a, Fn fn) {
  int64_t nb = a.bshape.size();
  SmallVector<int64_t> src(self.rank(), 0);
  LogicalResult status = success();
  forEachIndex(a.shape, [&](int64_t linear, ArrayRef<int64_t> pos) {
    if (failed(status))
      return;
    ArrayRef<int64_t> bidx = pos.slice(a.bpos, nb);
    int64_t r = 0;
    for (int64_t i = 0, e = pos.size(); i < e; ++i)
      if (i < a.bpos || i >= a.bpos + nb)
        src[a.rest[r++]] = pos[i];
    for (auto [k, t] : llvm::enumerate(indices)) {
      int64_t d = a.dims[k];
      int64_t raw = t->getI(dot(bidx, a.strides[k]));
      int64_t size = self.dim(d);
      int64_t wrapped = raw < 0 ? raw + size : raw;
      if (wrapped < 0 || wrapped >= size) {
        status = runtimeError(op, "index " + Twine(raw) +
                                      " is out of bounds for dim " + Twine(d) +
                                      " of size " + Twine(size));
        return;
      }
      src[d] = wrapped;
    }
    fn(linear, pos, self.linearIndex(src));
  });
  return status;
}

FailureOr<Tensor> indexKernel(tp::IndexOp op, Inputs in,
                              const KernelContext &ctx) {
  const Tensor &self = *in[0];
  ArrayRef<const Tensor *> indices = in.drop_front();
  auto a = analyzeIndex(op, self, indices, op.getDims());
  if (failed(a))
    return failure();
  Tensor out = ctx.result(op);
  if (out.shape() != ArrayRef<int64_t>(a->shape))
    return runtimeError(op, "internal error: indexed shape differs from the "
                            "result type");
  if (failed(forEachIndexed(op, self, indices, *a,
                            [&](int64_t j, ArrayRef<int64_t>, int64_t i) {
                              copyElement(out, j, self, i);
                            })))
    return failure();
  return out;
}

FailureOr<Tensor> indexPutKernel(tp::IndexPutOp op, Inputs in,
                                 const KernelContext &ctx) {
  const Tensor &self = *in[0];
  size_t n = op.getIndices().size();
  ArrayRef<const Tensor *> indices = in.slice(1, n);
  const Tensor &values = *in[1 + n];
  auto a = analyzeIndex(op, self, indices, op.getDims());
  if (failed(a))
    return failure();
  Tensor init = ctx.result(op);
  for (int64_t i = 0; i < self.numel(); ++i)
    copyElement(init, i, self, i);
  WriteBuffer buf(init);
  auto vstrides = broadcastStrides(values.shape(), a->shape);
  bool accumulate = op.getAccumulate();
  if (failed(forEachIndexed(op, self, indices, *a,
                            [&](int64_t, ArrayRef<int64_t> pos, int64_t t) {
                              buf.write(t, values, dot(pos, vstrides),
                                        accumulate);
                            })))
    return failure();
  return buf.finish();
}

//===----------------------------------------------------------------------===//
// index_select, gather, scatter
//===----------------------------------------------------------------------===//

FailureOr<Tensor> indexSelectKernel(tp::IndexSelectOp op, Inputs in,
                                    const KernelContext &ctx) {
  const Tensor &self = *in[0];
  const Tensor &index = *in[1];
  Tensor out = ctx.result(op);
  if (self.rank() == 0) {
    for (int64_t k = 0; k < index.numel(); ++k)
      if (failed(checkIndex(op, index.getI(k), 1, "index")))
        return failure();
    if (out.numel() == 1)
      copyElement(out, 0, self, 0);
    return out;
  }
  int64_t d = *tp::normalizeDim(static_cast<int64_t>(op.getDim()), self.rank());
  SmallVector<int64_t> src;
  LogicalResult status = success();
  forEachIndex(out.shape(), [&](int64_t linear, ArrayRef<int64_t> pos) {
    if (failed(status))
      return;
    auto i = checkIndex(op, index.getI(pos[d]), self.dim(d), "index");
    if (failed(i)) {
      status = failure();
      return;
    }
    src.assign(pos.begin(), pos.end());
    src[d] = *i;
    copyElement(out, linear, self, self.linearIndex(src));
  });
  if (failed(status))
    return failure();
  return out;
}

/// A 0-d tensor seen as 1-D of one element (gather/scatter treat dim 0 of a
/// 0-d tensor as a dim of size 1).
Tensor as1D(const Tensor &t) { return t.rank() == 0 ? t.reshaped({1}) : t; }

FailureOr<Tensor> gatherKernel(tp::GatherOp op, Inputs in,
                               const KernelContext &ctx) {
  Tensor self = as1D(*in[0]);
  Tensor index = as1D(*in[1]);
  Tensor result = ctx.result(op);
  Tensor out = as1D(result);
  int64_t d = *tp::normalizeDim(static_cast<int64_t>(op.getDim()), self.rank());
  SmallVector<int64_t> src;
  LogicalResult status = success();
  forEachIndex(index.shape(), [&](int64_t linear, ArrayRef<int64_t> pos) {
    if (failed(status))
      return;
    auto i = checkIndex(op, index.getI(linear), self.dim(d), "index");
    if (failed(i)) {
      status = failure();
      return;
    }
    src.assign(pos.begin(), pos.end());
    src[d] = *i;
    copyElement(out, linear, self, self.linearIndex(src));
  });
  if (failed(status))
    return failure();
  return out.reshaped(result.shape());
}

FailureOr<Tensor> scatterKernel(Operation *op, Inputs in,
                                const KernelContext &ctx, int64_t dim,
                                bool accumulate) {
  Tensor self = as1D(*in[0]);
  Tensor index = as1D(*in[1]);
  Tensor src = as1D(*in[2]);
  Tensor result = ctx.result(op);
  Tensor init = as1D(result);
  for (int64_t i = 0; i < self.numel(); ++i)
    copyElement(init, i, self, i);
  WriteBuffer buf(init);
  int64_t d = *tp::normalizeDim(dim, self.rank());
  SmallVector<int64_t> dst;
  LogicalResult status = success();
  forEachIndex(index.shape(), [&](int64_t linear, ArrayRef<int64_t> pos) {
    if (failed(status))
      return;
    auto i = checkIndex(op, index.getI(linear), self.dim(d), "index");
    if (failed(i)) {
      status = failure();
      return;
    }
    dst.assign(pos.begin(), pos.end());
    dst[d] = *i;
    buf.write(self.linearIndex(dst), src, src.linearIndex(pos), accumulate);
  });
  if (failed(status))
    return failure();
  return buf.finish().reshaped(result.shape());
}

//===----------------------------------------------------------------------===//
// Embedding
//===----------------------------------------------------------------------===//

FailureOr<Tensor> embeddingKernel(tp::EmbeddingOp op, Inputs in,
                                  const KernelContext &ctx) {
  const Tensor &weight = *in[0];
  const Tensor &indices = *in[1];
  Tensor out = ctx.result(op);
  int64_t rows = weight.dim(0), width = weight.dim(1);
  for (int64_t p = 0; p < indices.numel(); ++p) {
    auto idx = checkIndex(op, indices.getI(p), rows, "embedding index");
    if (failed(idx))
      return failure();
    for (int64_t j = 0; j < width; ++j)
      copyElement(out, p * width + j, weight, *idx * width + j);
  }
  return out;
}

FailureOr<Tensor> embeddingBackwardKernel(tp::EmbeddingDenseBackwardOp op,
                                          Inputs in,
                                          const KernelContext &ctx) {
  const Tensor &grad = *in[0];
  const Tensor &indices = *in[1];
  Tensor out = ctx.result(op);
  int64_t rows = out.dim(0), width = out.dim(1);
  int64_t padding = static_cast<int64_t>(op.getPaddingIdx());
  bool scale = op.getScaleGradByFreq();
  std::vector<int64_t> counts(rows, 0);
  for (int64_t p = 0; p < indices.numel(); ++p) {
    int64_t idx = indices.getI(p);
    if (idx == padding)
      continue;
    if (failed(checkIndex(op, idx, rows, "embedding index")))
      return failure();
    ++counts[idx];
  }
  Type rt = out.elementType();
  if (!out.isFloat())
    return runtimeError(op, "expects a floating grad_output");
  FloatMath m{accumulationType(rt)};
  std::vector<double> acc(out.numel(), 0.0);
  for (int64_t p = 0; p < indices.numel(); ++p) {
    int64_t idx = indices.getI(p);
    if (idx == padding)
      continue;
    for (int64_t j = 0; j < width; ++j) {
      double g = loadAs(grad, p * width + j, rt);
      if (scale)
        g = m.div(g, static_cast<double>(counts[idx]));
      acc[idx * width + j] = m.add(acc[idx * width + j], g);
    }
  }
  for (int64_t k = 0; k < out.numel(); ++k)
    out.setF(k, acc[k]);
  return out;
}

} // namespace

void stax::detail::registerIndexingKernels(KernelRegistry &registry) {
  using namespace mlir::tp;
  registry.add<IndexOp>(indexKernel);
  registry.add<IndexPutOp>(indexPutKernel);
  registry.add<IndexSelectOp>(indexSelectKernel);
  registry.add<GatherOp>(gatherKernel);
  registry.add<ScatterOp>([](ScatterOp op, Inputs in, const KernelContext &ctx) {
    return scatterKernel(op, in, ctx, static_cast<int64_t>(op.getDim()),
                         /*accumulate=*/false);
  });
  registry.add<ScatterAddOp>(
      [](ScatterAddOp op, Inputs in, const KernelContext &ctx) {
        return scatterKernel(op, in, ctx, static_cast<int64_t>(op.getDim()),
                             /*accumulate=*/true);
      });
  registry.add<EmbeddingOp>(embeddingKernel);
  registry.add<EmbeddingDenseBackwardOp>(embeddingBackwardKernel);
}
