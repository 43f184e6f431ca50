//===- Tensor.cpp - concrete tensors --------------------------------------===//
#include "Stax/Interpreter/Tensor.h"
#include "llvm/ADT/APFloat.h"
#include <cmath>
#include <limits>

using namespace mlir;
using namespace mlir::stax;

double stax::roundToFloatType(double v, Type t) {
  if (t.isF64())
    return v;
  if (t.isF32())
    return static_cast<double>(static_cast<float>(v));
  // f16 / bf16: round-to-nearest-even through APFloat.
  llvm::APFloat f(v);
  bool losesInfo;
  f.convert(cast<FloatType>(t).getFloatSemantics(),
            llvm::APFloat::rmNearestTiesToEven, &losesInfo);
  f.convert(llvm::APFloat::IEEEdouble(), llvm::APFloat::rmNearestTiesToEven,
            &losesInfo);
  return f.convertToDouble();
}

int64_t stax::wrapToIntType(int64_t v, Type t) {
  unsigned width = t.getIntOrFloatBitWidth();
  if (width == 1)
    return v != 0;
  if (width >= 64)
    return v;
  uint64_t mask = (uint64_t(1) << width) - 1;
  uint64_t u = static_cast<uint64_t>(v) & mask;
  uint64_t sign = uint64_t(1) << (width - 1);
  return static_cast<int64_t>((u ^ sign) - sign); // sign-extend
}

int64_t stax::castToIntType(double v, Type t) {
  if (t.getIntOrFloatBitWidth() == 1)
    return v != 0;
  if (std::isnan(v))
    return 0;
  double lo = static_cast<double>(std::numeric_limits<int64_t>::min());
  double hi = static_cast<double>(std::numeric_limits<int64_t>::max());
  int64_t i = v <= lo ? std::numeric_limits<int64_t>::min()
              : v >= hi ? std::numeric_limits<int64_t>::max()
                        : static_cast<int64_t>(v);
  return wrapToIntType(i, t);
}

Tensor::Tensor(ArrayRef<int64_t> shape, Type elementType)
    : shape_(shape), elementType_(elementType),
      isFloat_(isa<FloatType>(elementType)) {
  numel_ = 1;
  for (int64_t d : shape)
    numel_ *= d;
  if (isFloat_)
    fdata_.assign(numel_, 0.0);
  else
    idata_.assign(numel_, 0);
}

RankedTensorType Tensor::type() const {
  return RankedTensorType::get(shape_, elementType_);
}

Type Tensor::int64Type() const {
  return IntegerType::get(elementType_.getContext(), 64);
}

SmallVector<int64_t> Tensor::strides() const {
  SmallVector<int64_t> s(shape_.size(), 1);
  for (int64_t i = rank() - 2; i >= 0; --i)
    s[i] = s[i + 1] * shape_[i + 1];
  return s;
}

int64_t Tensor::linearIndex(ArrayRef<int64_t> index) const {
  int64_t linear = 0;
  for (auto [i, d] : llvm::zip(index, shape_))
    linear = linear * d + i;
  return linear;
}

Tensor Tensor::castTo(Type elementType) const {
  Tensor out(shape_, elementType);
  for (int64_t i = 0; i < numel_; ++i) {
    if (isFloat_)
      out.setF(i, fdata_[i]);
    else
      out.setI(i, idata_[i]);
  }
  return out;
}

Tensor Tensor::reshaped(ArrayRef<int64_t> shape) const {
  Tensor out = *this;
  out.shape_.assign(shape.begin(), shape.end());
  return out;
}
