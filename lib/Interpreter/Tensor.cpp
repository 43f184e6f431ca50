//===- Tensor.cpp - concrete tensors --------------------------------------===//
#include "Stax/Interpreter/Tensor.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/APInt.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/MathExtras.h"
#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <limits>
#include <optional>

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

double stax::storeToFloatType(double v, Type t) {
  if (t.isF16() || t.isBF16())
    v = static_cast<float>(v);
  return roundToFloatType(v, t);
}

int64_t stax::wrapToIntType(int64_t v, Type t) {
  unsigned width = t.getIntOrFloatBitWidth();
  if (width == 1)
    return v != 0;
  if (width >= 64)
    return v;
  uint64_t mask = (uint64_t(1) << width) - 1;
  uint64_t u = static_cast<uint64_t>(v) & mask;
  if (t.isUnsignedInteger()) // uint8 holds 0..255: zero-extend
    return static_cast<int64_t>(u);
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

//===----------------------------------------------------------------------===//
// Allocation checks
//===----------------------------------------------------------------------===//

static std::atomic<int64_t> maxBytes{kDefaultMaxTensorBytes};

int64_t stax::maxTensorBytes() { return maxBytes.load(std::memory_order_relaxed); }

void stax::setMaxTensorBytes(int64_t bytes) {
  maxBytes.store(std::max<int64_t>(bytes, 0), std::memory_order_relaxed);
}

bool stax::hasDynamicDim(ArrayRef<int64_t> shape) {
  return llvm::any_of(shape, ShapedType::isDynamic);
}

/// The element count of `shape`, or nullopt when a dimension is dynamic or
/// negative or the count overflows int64.
static std::optional<int64_t> checkedNumel(ArrayRef<int64_t> shape) {
  if (llvm::any_of(shape, [](int64_t d) { return d < 0; }))
    return std::nullopt; // also catches ShapedType::kDynamic
  if (llvm::is_contained(shape, 0))
    return 0;
  int64_t numel = 1;
  for (int64_t d : shape)
    if (llvm::MulOverflow(numel, d, numel))
      return std::nullopt;
  return numel;
}

/// `v` for a message: "2^N" for powers of two from 1024, the decimal value
/// when it fits 64 bits, "about 2^N.N" beyond.
static std::string formatCount(const llvm::APInt &v) {
  if (v.isPowerOf2() && v.uge(1024))
    return "2^" + std::to_string(v.logBase2());
  if (v.getActiveBits() <= 64)
    return std::to_string(v.getZExtValue());
  unsigned shift = v.getActiveBits() - 64;
  double log2 = shift + std::log2(static_cast<double>(v.lshr(shift).getZExtValue()));
  char buffer[32];
  std::snprintf(buffer, sizeof(buffer), "about 2^%.1f", log2);
  return buffer;
}

std::string stax::allocationError(ArrayRef<int64_t> shape) {
  if (hasDynamicDim(shape))
    return "has a dynamic dimension ('?'): the interpreter runs static "
           "shapes only";
  if (llvm::any_of(shape, [](int64_t d) { return d < 0; }))
    return "has a negative dimension";
  std::optional<int64_t> numel = checkedNumel(shape);
  int64_t bytes = 0;
  bool overflow =
      !numel || llvm::MulOverflow(*numel, kBytesPerElement, bytes);
  int64_t limit = maxTensorBytes();
  if (!overflow && bytes <= limit)
    return "";
  // Exact counts for the message: rank + 1 factors of at most 64 bits each.
  unsigned width = 64 * (shape.size() + 1);
  llvm::APInt n(width, 1);
  for (int64_t d : shape)
    n *= llvm::APInt(width, static_cast<uint64_t>(d));
  llvm::APInt b = n * llvm::APInt(width, kBytesPerElement);
  std::string message = "needs " + formatCount(b) + " bytes (" +
                        formatCount(n) + (n.isOne() ? " element at " : " elements at ") +
                        std::to_string(kBytesPerElement) + " bytes each), ";
  if (overflow)
    return message + "more than an int64 byte count holds";
  message += "over the interpreter's per-tensor limit of " +
             formatCount(llvm::APInt(64, static_cast<uint64_t>(limit))) +
             " bytes (";
  if (limit >= (int64_t(1) << 30)) {
    char buffer[32];
    std::snprintf(buffer, sizeof(buffer), "%.4g GiB, ",
                  static_cast<double>(limit) / (int64_t(1) << 30));
    message += buffer;
  }
  return message + "stax-run --max-bytes)";
}

//===----------------------------------------------------------------------===//
// Tensor
//===----------------------------------------------------------------------===//

Tensor::Tensor(ArrayRef<int64_t> shape, Type elementType)
    : shape_(shape), elementType_(elementType),
      isFloat_(isa<FloatType>(elementType)) {
  std::optional<int64_t> numel = checkedNumel(shape);
  if (!numel)
    llvm::report_fatal_error(
        "stax interpreter: a tensor of invalid shape was allocated without "
        "a size check (a dynamic or negative dimension, or more than 2^63 "
        "elements)");
  numel_ = *numel;
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
