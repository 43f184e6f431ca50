//===- ShapeKernels.cpp - views, reshapes, concatenation ------------------===//
//
// Every view is a gather: for each output index, the linear input index it
// reads. No values change, so these kernels are exact in any mode.
//
//===----------------------------------------------------------------------===//

#include "Kernels.h"

using namespace mlir;
using namespace mlir::stax;
using namespace mlir::stax::detail;

namespace {

void copyElement(Tensor &out, int64_t k, const Tensor &in, int64_t i) {
  if (in.isFloat())
    out.setF(k, in.getF(i));
  else
    out.setI(k, in.getI(i));
}

/// out[idx] = in[source(idx)] for every output index.
template <typename SourceFn>
Tensor gather(Tensor out, const Tensor &in, SourceFn source) {
  forEachIndex(out.shape(), [&](int64_t k, ArrayRef<int64_t> idx) {
    copyElement(out, k, in, source(idx));
  });
  return out;
}

int64_t dimAttr(uint64_t d, int64_t rank) {
  return *tp::normalizeDim(static_cast<int64_t>(d), rank);
}

/// Output dim i reads input dim perm[i].
Tensor permuted(Tensor out, const Tensor &in, ArrayRef<int64_t> perm) {
  SmallVector<int64_t> inStrides = in.strides();
  SmallVector<int64_t> strides;
  for (int64_t p : perm)
    strides.push_back(inStrides[p]);
  return gather(std::move(out), in,
                [&](ArrayRef<int64_t> idx) { return dot(idx, strides); });
}

/// Reshape-like ops keep the row-major order of elements.
template <typename OpT> void addReshape(KernelRegistry &r) {
  r.add<OpT>([](OpT op, Inputs in, const KernelContext &ctx) {
    Tensor out = ctx.result(op);
    return FailureOr<Tensor>(convertTo(*in[0], out.elementType()).reshaped(out.shape()));
  });
}

/// Chunks along `dim` with the given sizes (split, split_with_sizes).
LogicalResult chunks(Operation *op, const Tensor &in, int64_t dim,
                     SmallVectorImpl<Tensor> &out, const KernelContext &ctx) {
  SmallVector<int64_t> strides = in.strides();
  int64_t offset = 0;
  for (unsigned i = 0; i < op->getNumResults(); ++i) {
    Tensor t = ctx.result(op, i);
    int64_t base = offset * strides[dim];
    out.push_back(gather(std::move(t), in, [&](ArrayRef<int64_t> idx) {
      return base + dot(idx, strides);
    }));
    offset += out.back().dim(dim);
  }
  return success();
}

/// Writes `src` into a zero tensor of the result shape at the positions
/// `target(idx)` (slice_backward, select_backward).
template <typename TargetFn>
Tensor scatterInto(Tensor out, const Tensor &src, TargetFn target) {
  forEachIndex(src.shape(), [&](int64_t k, ArrayRef<int64_t> idx) {
    copyElement(out, target(idx), src, k);
  });
  return out;
}

int64_t sliceStart(int64_t start, int64_t size) {
  if (start < 0)
    start += size;
  return std::clamp<int64_t>(start, 0, size);
}
} // namespace

void stax::detail::registerShapeKernels(KernelRegistry &r) {
  r.add<tp::TOp>([](tp::TOp op, Inputs in, const KernelContext &ctx) {
    SmallVector<int64_t> perm = in[0]->rank() == 2 ? SmallVector<int64_t>{1, 0}
                                                   : SmallVector<int64_t>{0};
    if (in[0]->rank() == 0)
      perm.clear();
    return FailureOr<Tensor>(permuted(ctx.result(op), *in[0], perm));
  });
  r.add<tp::TransposeOp>([](tp::TransposeOp op, Inputs in, const KernelContext &ctx) {
    int64_t rank = in[0]->rank();
    SmallVector<int64_t> perm;
    for (int64_t i = 0; i < rank; ++i)
      perm.push_back(i);
    if (rank > 0)
      std::swap(perm[dimAttr(op.getDim0(), rank)], perm[dimAttr(op.getDim1(), rank)]);
    return FailureOr<Tensor>(permuted(ctx.result(op), *in[0], perm));
  });
  r.add<tp::PermuteOp>([](tp::PermuteOp op, Inputs in, const KernelContext &ctx) {
    SmallVector<int64_t> perm;
    for (int64_t d : op.getDims())
      perm.push_back(*tp::normalizeDim(d, in[0]->rank()));
    return FailureOr<Tensor>(permuted(ctx.result(op), *in[0], perm));
  });
  addReshape<tp::ViewOp>(r);
  addReshape<tp::ReshapeOp>(r);
  addReshape<tp::UnsafeViewOp>(r);
  addReshape<tp::ReshapeAliasOp>(r);
  addReshape<tp::UnsqueezeOp>(r);
  addReshape<tp::SqueezeOp>(r);
  r.add<tp::ExpandOp>([](tp::ExpandOp op, Inputs in, const KernelContext &ctx) {
    Tensor out = ctx.result(op);
    auto strides = broadcastStrides(in[0]->shape(), out.shape());
    return FailureOr<Tensor>(gather(std::move(out), *in[0], [&](ArrayRef<int64_t> idx) {
      return dot(idx, strides);
    }));
  });
  r.add<tp::SliceOp>([](tp::SliceOp op, Inputs in, const KernelContext &ctx) {
    int64_t d = dimAttr(op.getDim(), in[0]->rank());
    int64_t start = sliceStart(static_cast<int64_t>(op.getStart()), in[0]->dim(d));
    int64_t step = static_cast<int64_t>(op.getStep());
    SmallVector<int64_t> strides = in[0]->strides();
    return FailureOr<Tensor>(gather(ctx.result(op), *in[0], [&](ArrayRef<int64_t> idx) {
      return dot(idx, strides) + (start + (step - 1) * idx[d]) * strides[d];
    }));
  });
  r.add<tp::SelectOp>([](tp::SelectOp op, Inputs in, const KernelContext &ctx) {
    int64_t d = dimAttr(op.getDim(), in[0]->rank());
    int64_t index = static_cast<int64_t>(op.getIndex());
    if (index < 0)
      index += in[0]->dim(d);
    SmallVector<int64_t> strides = in[0]->strides();
    int64_t base = index * strides[d];
    strides.erase(strides.begin() + d);
    return FailureOr<Tensor>(gather(ctx.result(op), *in[0], [&](ArrayRef<int64_t> idx) {
      return base + dot(idx, strides);
    }));
  });
  r.add<tp::AsStridedOp>([](tp::AsStridedOp op, Inputs in, const KernelContext &ctx) {
    int64_t offset = static_cast<int64_t>(op.getStorageOffset());
    ArrayRef<int64_t> strides = op.getStride();
    return FailureOr<Tensor>(gather(ctx.result(op), *in[0], [&](ArrayRef<int64_t> idx) {
      return offset + dot(idx, strides);
    }));
  });
  r.addMulti<tp::SplitOp>([](tp::SplitOp op, Inputs in, SmallVectorImpl<Tensor> &out,
                             const KernelContext &ctx) {
    return chunks(op, *in[0], dimAttr(op.getDim(), in[0]->rank()), out, ctx);
  });
  r.addMulti<tp::SplitWithSizesOp>([](tp::SplitWithSizesOp op, Inputs in,
                                      SmallVectorImpl<Tensor> &out,
                                      const KernelContext &ctx) {
    return chunks(op, *in[0], dimAttr(op.getDim(), in[0]->rank()), out, ctx);
  });
  r.addMulti<tp::UnbindOp>([](tp::UnbindOp op, Inputs in, SmallVectorImpl<Tensor> &out,
                              const KernelContext &ctx) {
    int64_t d = dimAttr(op.getDim(), in[0]->rank());
    SmallVector<int64_t> strides = in[0]->strides();
    int64_t step = strides[d];
    strides.erase(strides.begin() + d);
    for (unsigned i = 0; i < op.getNumResults(); ++i)
      out.push_back(gather(ctx.result(op, i), *in[0], [&](ArrayRef<int64_t> idx) {
        return i * step + dot(idx, strides);
      }));
    return success();
  });
  r.add<tp::CatOp>([](tp::CatOp op, Inputs in, const KernelContext &ctx) {
    Tensor out = ctx.result(op);
    int64_t d = dimAttr(op.getDim(), out.rank());
    SmallVector<int64_t> outStrides = out.strides();
    int64_t offset = 0;
    for (const Tensor *t : in) {
      forEachIndex(t->shape(), [&](int64_t k, ArrayRef<int64_t> idx) {
        copyElement(out, dot(idx, outStrides) + offset * outStrides[d], *t, k);
      });
      offset += t->dim(d);
    }
    return FailureOr<Tensor>(out);
  });
  r.add<tp::StackOp>([](tp::StackOp op, Inputs in, const KernelContext &ctx) {
    Tensor out = ctx.result(op);
    int64_t d = dimAttr(op.getDim(), out.rank());
    SmallVector<int64_t> strides = out.strides();
    int64_t step = strides[d];
    strides.erase(strides.begin() + d);
    for (int64_t i = 0, e = in.size(); i < e; ++i) {
      const Tensor &t = *in[i];
      forEachIndex(t.shape(), [&](int64_t k, ArrayRef<int64_t> idx) {
        copyElement(out, i * step + dot(idx, strides), t, k);
      });
    }
    return FailureOr<Tensor>(out);
  });
  r.add<tp::SliceBackwardOp>([](tp::SliceBackwardOp op, Inputs in,
                                const KernelContext &ctx) {
    Tensor out = ctx.result(op);
    int64_t d = dimAttr(op.getDim(), out.rank());
    int64_t start = sliceStart(static_cast<int64_t>(op.getStart()), out.dim(d));
    int64_t step = static_cast<int64_t>(op.getStep());
    SmallVector<int64_t> strides = out.strides();
    return FailureOr<Tensor>(scatterInto(std::move(out), *in[0], [&](ArrayRef<int64_t> idx) {
      return dot(idx, strides) + (start + (step - 1) * idx[d]) * strides[d];
    }));
  });
  r.add<tp::SelectBackwardOp>([](tp::SelectBackwardOp op, Inputs in,
                                 const KernelContext &ctx) {
    Tensor out = ctx.result(op);
    int64_t d = dimAttr(op.getDim(), out.rank());
    int64_t index = static_cast<int64_t>(op.getIndex());
    if (index < 0)
      index += out.dim(d);
    SmallVector<int64_t> strides = out.strides();
    int64_t base = index * strides[d];
    strides.erase(strides.begin() + d);
    return FailureOr<Tensor>(scatterInto(std::move(out), *in[0], [&](ArrayRef<int64_t> idx) {
      return base + dot(idx, strides);
    }));
  });
}
