//===- TpShapeOps.cpp - tp views and shapes -------------------------------===//
//
// Inference, verification and folding of the tp views and shapes that are not
// covered by a family rule of TypeInference.cpp (ODS: TpShapeOps.td).
//
//===----------------------------------------------------------------------===//

#include "OpHelpers.h"
#include "Stax/Dialect/Tp/IR/TpOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tp;
using namespace mlir::tp::detail;

//===----------------------------------------------------------------------===//
// Views
//===----------------------------------------------------------------------===//

LogicalResult TOp::inferReturnTypes(MLIRContext *, Loc loc, Adaptor adaptor,
                                    SmallVectorImpl<Type> &types) {
  auto t = tensorOf(loc, getOperationName(), adaptor.getSelf(), "self");
  if (failed(t))
    return failure();
  if (t->getRank() > 2)
    return emitInferError(loc, getOperationName(),
                          "expects a tensor of rank <= 2, got rank " +
                              Twine(t->getRank()));
  SmallVector<int64_t> shape(llvm::reverse(t->getShape()));
  return push(types, shape, t->getElementType());
}
OpFoldResult TOp::fold(FoldAdaptor) {
  if (auto inner = getSelf().getDefiningOp<TOp>())
    return inner.getSelf();
  return {};
}

LogicalResult TransposeOp::inferReturnTypes(MLIRContext *, Loc loc,
                                            Adaptor adaptor,
                                            SmallVectorImpl<Type> &types) {
  StringRef op = getOperationName();
  auto t = tensorOf(loc, op, adaptor.getSelf(), "self");
  if (failed(t))
    return failure();
  auto d0 = dimOf(loc, op, static_cast<int64_t>(adaptor.getDim0()),
                  t->getRank(), "dim0");
  auto d1 = dimOf(loc, op, static_cast<int64_t>(adaptor.getDim1()),
                  t->getRank(), "dim1");
  if (failed(d0) || failed(d1))
    return failure();
  SmallVector<int64_t> shape(t->getShape());
  if (!shape.empty())
    std::swap(shape[*d0], shape[*d1]);
  return push(types, shape, t->getElementType());
}

LogicalResult PermuteOp::inferReturnTypes(MLIRContext *, Loc loc,
                                          Adaptor adaptor,
                                          SmallVectorImpl<Type> &types) {
  StringRef op = getOperationName();
  auto t = tensorOf(loc, op, adaptor.getSelf(), "self");
  if (failed(t))
    return failure();
  ArrayRef<int64_t> dims = adaptor.getDims();
  if (static_cast<int64_t>(dims.size()) != t->getRank())
    return emitInferError(loc, op,
                          "dims has " + Twine(dims.size()) +
                              " entries for a tensor of rank " +
                              Twine(t->getRank()));
  SmallVector<bool> seen(dims.size(), false);
  SmallVector<int64_t> shape;
  for (int64_t d : dims) {
    auto nd = dimOf(loc, op, d, t->getRank());
    if (failed(nd))
      return failure();
    if (seen[*nd])
      return emitInferError(loc, op, "dims is not a permutation");
    seen[*nd] = true;
    shape.push_back(t->getDimSize(*nd));
  }
  return push(types, shape, t->getElementType());
}
OpFoldResult PermuteOp::fold(FoldAdaptor) {
  for (auto [i, d] : llvm::enumerate(getDims()))
    if (static_cast<int64_t>(i) != d &&
        static_cast<int64_t>(i) != d + getType().getRank())
      return {};
  return getSelf();
}

LogicalResult ReshapeAliasOp::verify() {
  if (getSize().size() != getStride().size())
    return emitOpError("size and stride have different lengths");
  return success();
}

LogicalResult ExpandOp::inferReturnTypes(MLIRContext *, Loc loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &types) {
  StringRef op = getOperationName();
  auto t = tensorOf(loc, op, adaptor.getSelf(), "self");
  if (failed(t))
    return failure();
  ArrayRef<int64_t> size = adaptor.getSize();
  int64_t lead = static_cast<int64_t>(size.size()) - t->getRank();
  if (lead < 0)
    return emitInferError(loc, op,
                          "size " + shapeStr(size) +
                              " has fewer dims than the input " +
                              shapeStr(t->getShape()));
  SmallVector<int64_t> shape;
  for (auto [i, s] : llvm::enumerate(size)) {
    int64_t idx = static_cast<int64_t>(i);
    if (idx < lead) {
      if (s < 0)
        return emitInferError(loc, op, "-1 is not allowed for a new leading dim");
      shape.push_back(s);
      continue;
    }
    int64_t in = t->getDimSize(idx - lead);
    if (s == -1 || s == in)
      shape.push_back(in);
    else if (in == 1 && s >= 0)
      shape.push_back(s);
    else
      return emitInferError(loc, op,
                            "cannot expand " + shapeStr(t->getShape()) +
                                " to " + shapeStr(size));
  }
  return push(types, shape, t->getElementType());
}
OpFoldResult ExpandOp::fold(FoldAdaptor) {
  if (getSelf().getType() == getType())
    return getSelf();
  return {};
}

LogicalResult UnsqueezeOp::inferReturnTypes(MLIRContext *, Loc loc,
                                            Adaptor adaptor,
                                            SmallVectorImpl<Type> &types) {
  StringRef op = getOperationName();
  auto t = tensorOf(loc, op, adaptor.getSelf(), "self");
  if (failed(t))
    return failure();
  auto d = dimOf(loc, op, static_cast<int64_t>(adaptor.getDim()),
                 t->getRank() + 1);
  if (failed(d))
    return failure();
  SmallVector<int64_t> shape(t->getShape());
  shape.insert(shape.begin() + *d, 1);
  return push(types, shape, t->getElementType());
}

LogicalResult SqueezeOp::inferReturnTypes(MLIRContext *, Loc loc,
                                          Adaptor adaptor,
                                          SmallVectorImpl<Type> &types) {
  StringRef op = getOperationName();
  auto t = tensorOf(loc, op, adaptor.getSelf(), "self");
  if (failed(t))
    return failure();
  SmallVector<bool> drop(t->getRank(), false);
  if (auto dims = adaptor.getDims()) {
    for (int64_t d : *dims) {
      auto nd = dimOf(loc, op, d, t->getRank());
      if (failed(nd))
        return failure();
      // Like eager, a squeezed dim that is not of size 1 is kept.
      if (t->getRank() > 0 && t->getDimSize(*nd) == 1)
        drop[*nd] = true;
    }
  } else {
    for (int64_t i = 0; i < t->getRank(); ++i)
      drop[i] = t->getDimSize(i) == 1;
  }
  SmallVector<int64_t> shape;
  for (int64_t i = 0; i < t->getRank(); ++i)
    if (!drop[i])
      shape.push_back(t->getDimSize(i));
  return push(types, shape, t->getElementType());
}

/// Python slice semantics: clamps start/end to [0, size].
static int64_t sliceLength(int64_t size, int64_t start, int64_t end,
                           int64_t step, int64_t &startOut) {
  if (start < 0)
    start += size;
  if (end < 0)
    end += size;
  start = std::clamp<int64_t>(start, 0, size);
  end = std::clamp<int64_t>(end, start, size);
  startOut = start;
  return (end - start + step - 1) / step;
}

LogicalResult SliceOp::inferReturnTypes(MLIRContext *, Loc loc,
                                        Adaptor adaptor,
                                        SmallVectorImpl<Type> &types) {
  StringRef op = getOperationName();
  auto t = tensorOf(loc, op, adaptor.getSelf(), "self");
  if (failed(t))
    return failure();
  if (t->getRank() == 0)
    return emitInferError(loc, op, "cannot slice a 0-d tensor");
  auto d = dimOf(loc, op, static_cast<int64_t>(adaptor.getDim()), t->getRank());
  if (failed(d))
    return failure();
  int64_t step = static_cast<int64_t>(adaptor.getStep());
  if (step <= 0)
    return emitInferError(loc, op, "step must be positive, got " + Twine(step));
  SmallVector<int64_t> shape(t->getShape());
  int64_t start;
  shape[*d] = sliceLength(shape[*d], static_cast<int64_t>(adaptor.getStart()),
                          static_cast<int64_t>(adaptor.getEnd()), step, start);
  return push(types, shape, t->getElementType());
}

LogicalResult SelectOp::inferReturnTypes(MLIRContext *, Loc loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &types) {
  StringRef op = getOperationName();
  auto t = tensorOf(loc, op, adaptor.getSelf(), "self");
  if (failed(t))
    return failure();
  if (t->getRank() == 0)
    return emitInferError(loc, op, "cannot select from a 0-d tensor");
  auto d = dimOf(loc, op, static_cast<int64_t>(adaptor.getDim()), t->getRank());
  if (failed(d))
    return failure();
  int64_t index = static_cast<int64_t>(adaptor.getIndex());
  int64_t size = t->getDimSize(*d);
  if (index < -size || index >= size)
    return emitInferError(loc, op,
                          "index " + Twine(index) +
                              " is out of range for a dim of size " +
                              Twine(size));
  SmallVector<int64_t> shape(t->getShape());
  shape.erase(shape.begin() + *d);
  return push(types, shape, t->getElementType());
}

LogicalResult AsStridedOp::inferReturnTypes(MLIRContext *, Loc loc,
                                            Adaptor adaptor,
                                            SmallVectorImpl<Type> &types) {
  StringRef op = getOperationName();
  auto t = tensorOf(loc, op, adaptor.getSelf(), "self");
  if (failed(t))
    return failure();
  ArrayRef<int64_t> size = adaptor.getSize(), stride = adaptor.getStride();
  if (size.size() != stride.size())
    return emitInferError(loc, op, "size and stride have different lengths");
  int64_t offset = static_cast<int64_t>(adaptor.getStorageOffset());
  if (offset < 0)
    return emitInferError(loc, op,
                          "storage offset " + Twine(offset) +
                              " is negative");
  if (llvm::is_contained(size, 0))
    return push(types, size, t->getElementType());
  // The last element the view reaches, in checked arithmetic: a reach past
  // int64 is past every storage.
  int64_t last = offset;
  for (auto [s, st] : llvm::zip(size, stride)) {
    if (s < 0 || st < 0)
      return emitInferError(loc, op, "sizes and strides must be non-negative");
    int64_t step;
    if (llvm::MulOverflow(s - 1, st, step) || llvm::AddOverflow(last, step, last))
      return emitInferError(loc, op,
                            "the view reaches past element 2^63 - 1 of a "
                            "storage of " +
                                Twine(t->getNumElements()));
  }
  if (last >= t->getNumElements())
    return emitInferError(loc, op,
                          "the view reaches element " + Twine(last) +
                              " of a storage of " + Twine(t->getNumElements()));
  return push(types, size, t->getElementType());
}

static LogicalResult pushChunks(Loc loc, StringRef op, Value self, int64_t dim,
                                ArrayRef<int64_t> sizes,
                                SmallVectorImpl<Type> &types) {
  auto t = tensorOf(loc, op, self, "self");
  if (failed(t))
    return failure();
  for (int64_t s : sizes) {
    SmallVector<int64_t> shape(t->getShape());
    shape[dim] = s;
    types.push_back(RankedTensorType::get(shape, t->getElementType()));
  }
  return success();
}

LogicalResult SplitOp::inferReturnTypes(MLIRContext *, Loc loc,
                                        Adaptor adaptor,
                                        SmallVectorImpl<Type> &types) {
  StringRef op = getOperationName();
  auto t = tensorOf(loc, op, adaptor.getSelf(), "self");
  if (failed(t))
    return failure();
  auto d = dimOf(loc, op, static_cast<int64_t>(adaptor.getDim()), t->getRank());
  if (failed(d) || t->getRank() == 0)
    return failure();
  int64_t chunk = static_cast<int64_t>(adaptor.getSplitSize());
  int64_t size = t->getDimSize(*d);
  if (chunk <= 0)
    return emitInferError(loc, op, "split_size must be positive");
  // One result type per chunk: a huge dimension split finely would build
  // billions of them.
  int64_t count = size / chunk + (size % chunk != 0);
  constexpr int64_t kMaxChunks = int64_t(1) << 20;
  if (count > kMaxChunks)
    return emitInferError(loc, op,
                          "split_size " + Twine(chunk) + " makes " +
                              Twine(count) + " chunks of a dimension of size " +
                              Twine(size) + "; at most " + Twine(kMaxChunks));
  SmallVector<int64_t> sizes;
  for (int64_t k = 0; k < count; ++k)
    sizes.push_back(std::min(chunk, size - k * chunk));
  if (sizes.empty())
    sizes.push_back(0);
  return pushChunks(loc, op, adaptor.getSelf(), *d, sizes, types);
}

LogicalResult SplitWithSizesOp::inferReturnTypes(MLIRContext *, Loc loc,
                                                 Adaptor adaptor,
                                                 SmallVectorImpl<Type> &types) {
  StringRef op = getOperationName();
  auto t = tensorOf(loc, op, adaptor.getSelf(), "self");
  if (failed(t))
    return failure();
  auto d = dimOf(loc, op, static_cast<int64_t>(adaptor.getDim()), t->getRank());
  if (failed(d) || t->getRank() == 0)
    return failure();
  int64_t total = 0;
  for (int64_t s : adaptor.getSplitSizes())
    total += s;
  if (total != t->getDimSize(*d))
    return emitInferError(loc, op,
                          "split_sizes sum to " + Twine(total) +
                              " but dim has size " + Twine(t->getDimSize(*d)));
  return pushChunks(loc, op, adaptor.getSelf(), *d, adaptor.getSplitSizes(),
                    types);
}

LogicalResult UnbindOp::inferReturnTypes(MLIRContext *, Loc loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &types) {
  StringRef op = getOperationName();
  auto t = tensorOf(loc, op, adaptor.getSelf(), "self");
  if (failed(t))
    return failure();
  if (t->getRank() == 0)
    return emitInferError(loc, op, "cannot unbind a 0-d tensor");
  auto d = dimOf(loc, op, static_cast<int64_t>(adaptor.getDim()), t->getRank());
  if (failed(d))
    return failure();
  SmallVector<int64_t> shape(t->getShape());
  shape.erase(shape.begin() + *d);
  for (int64_t i = 0; i < t->getDimSize(*d); ++i)
    types.push_back(RankedTensorType::get(shape, t->getElementType()));
  return success();
}

/// Shared checks of cat and stack: equal ranks, dtypes and shapes except at
/// `except` (or everywhere when `except` is -1).
static FailureOr<RankedTensorType> checkJoin(Loc loc, StringRef op,
                                             ValueRange tensors,
                                             int64_t except) {
  if (tensors.empty())
    return emitInferError(loc, op, "expects at least one tensor");
  auto first = tensorOf(loc, op, tensors[0], "tensors");
  if (failed(first))
    return failure();
  for (auto [i, v] : llvm::enumerate(tensors)) {
    auto t = tensorOf(loc, op, v, "tensors");
    if (failed(t))
      return failure();
    if (t->getElementType() != first->getElementType())
      return emitInferError(loc, op, "tensor #" + Twine(i) + " has a different dtype");
    bool same = t->getRank() == first->getRank();
    for (int64_t d = 0; same && d < t->getRank(); ++d)
      same = d == except || t->getDimSize(d) == first->getDimSize(d);
    if (!same)
      return emitInferError(loc, op,
                            "tensor #" + Twine(i) + " has shape " +
                                shapeStr(t->getShape()) +
                                ", incompatible with " +
                                shapeStr(first->getShape()));
  }
  return first;
}

LogicalResult CatOp::inferReturnTypes(MLIRContext *, Loc loc, Adaptor adaptor,
                                      SmallVectorImpl<Type> &types) {
  StringRef op = getOperationName();
  if (adaptor.getTensors().empty())
    return emitInferError(loc, op, "expects at least one tensor");
  auto first = tensorOf(loc, op, adaptor.getTensors()[0], "tensors");
  if (failed(first))
    return failure();
  if (first->getRank() == 0)
    return emitInferError(loc, op, "cannot concatenate 0-d tensors");
  auto d = dimOf(loc, op, static_cast<int64_t>(adaptor.getDim()),
                 first->getRank());
  if (failed(d) || failed(checkJoin(loc, op, adaptor.getTensors(), *d)))
    return failure();
  SmallVector<int64_t> shape(first->getShape());
  shape[*d] = 0;
  for (Value v : adaptor.getTensors())
    shape[*d] += cast<RankedTensorType>(v.getType()).getDimSize(*d);
  return push(types, shape, first->getElementType());
}

LogicalResult StackOp::inferReturnTypes(MLIRContext *, Loc loc,
                                        Adaptor adaptor,
                                        SmallVectorImpl<Type> &types) {
  StringRef op = getOperationName();
  auto first = checkJoin(loc, op, adaptor.getTensors(), -1);
  if (failed(first))
    return failure();
  auto d = dimOf(loc, op, static_cast<int64_t>(adaptor.getDim()),
                 first->getRank() + 1);
  if (failed(d))
    return failure();
  SmallVector<int64_t> shape(first->getShape());
  shape.insert(shape.begin() + *d, adaptor.getTensors().size());
  return push(types, shape, first->getElementType());
}

//===----------------------------------------------------------------------===//
// Backward of views
//===----------------------------------------------------------------------===//

LogicalResult SliceBackwardOp::inferReturnTypes(MLIRContext *, Loc loc,
                                                Adaptor adaptor,
                                                SmallVectorImpl<Type> &types) {
  StringRef op = getOperationName();
  auto g = tensorOf(loc, op, adaptor.getGradOutput(), "grad_output");
  if (failed(g))
    return failure();
  ArrayRef<int64_t> sizes = adaptor.getInputSizes();
  if (static_cast<int64_t>(sizes.size()) != g->getRank() || sizes.empty())
    return emitInferError(loc, op, "input_sizes must have the rank of grad_output");
  auto d = dimOf(loc, op, static_cast<int64_t>(adaptor.getDim()), g->getRank());
  if (failed(d))
    return failure();
  int64_t step = static_cast<int64_t>(adaptor.getStep()), start;
  if (step <= 0)
    return emitInferError(loc, op, "step must be positive");
  SmallVector<int64_t> expected(sizes);
  expected[*d] = sliceLength(sizes[*d], static_cast<int64_t>(adaptor.getStart()),
                             static_cast<int64_t>(adaptor.getEnd()), step, start);
  if (ArrayRef<int64_t>(expected) != g->getShape())
    return emitInferError(loc, op,
                          "grad_output shape " + shapeStr(g->getShape()) +
                              " is not the slice shape " + shapeStr(expected));
  return push(types, sizes, g->getElementType());
}

LogicalResult SelectBackwardOp::inferReturnTypes(MLIRContext *, Loc loc,
                                                 Adaptor adaptor,
                                                 SmallVectorImpl<Type> &types) {
  StringRef op = getOperationName();
  auto g = tensorOf(loc, op, adaptor.getGradOutput(), "grad_output");
  if (failed(g))
    return failure();
  ArrayRef<int64_t> sizes = adaptor.getInputSizes();
  if (static_cast<int64_t>(sizes.size()) != g->getRank() + 1)
    return emitInferError(loc, op,
                          "input_sizes must have one more dim than grad_output");
  auto d = dimOf(loc, op, static_cast<int64_t>(adaptor.getDim()), sizes.size());
  if (failed(d))
    return failure();
  int64_t index = static_cast<int64_t>(adaptor.getIndex());
  if (index < -sizes[*d] || index >= sizes[*d])
    return emitInferError(loc, op, "index " + Twine(index) + " is out of range");
  SmallVector<int64_t> expected(sizes);
  expected.erase(expected.begin() + *d);
  if (ArrayRef<int64_t>(expected) != g->getShape())
    return emitInferError(loc, op, "grad_output shape does not match input_sizes");
  return push(types, sizes, g->getElementType());
}
