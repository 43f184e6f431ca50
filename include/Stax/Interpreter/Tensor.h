//===- Tensor.h - concrete tensors for the reference interpreter -*- C++ -*-===//
//
// A dense, row-major tensor holding concrete values. Floating tensors store
// doubles that are always exactly representable in their element type (every
// write rounds), integer and bool tensors store int64, each value in its
// type's range (ui8 as 0..255). Simple on purpose: the interpreter is the
// oracle of every numeric test.
//
//===----------------------------------------------------------------------===//
#ifndef STAX_INTERPRETER_TENSOR_H
#define STAX_INTERPRETER_TENSOR_H

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

namespace mlir::stax {

/// Rounds `v` to the nearest value of floating type `t` (f16, bf16, f32, f64).
double roundToFloatType(double v, mlir::Type t);
/// The value a tensor of floating type `t` holds for `v`: the nearest, but
/// f16 and bf16 round `v` to f32 first. PyTorch builds c10::Half and
/// c10::BFloat16 from a float, so a double or a wide integer reaches them
/// rounded twice (a float64 tensor's `.bfloat16()` is not one rounding).
double storeToFloatType(double v, mlir::Type t);
/// Converts `v` to integer type `t` the way a C++ cast does (bool: v != 0;
/// others truncate toward zero and wrap to the bit width). NaN becomes 0.
int64_t castToIntType(double v, mlir::Type t);
/// Wraps an int64 to the bit width of integer type `t` (bool: v != 0):
/// modulo 2^width, sign-extended for signless types and zero-extended for
/// unsigned ones (ui8 holds 0..255).
int64_t wrapToIntType(int64_t v, mlir::Type t);

/// Bytes the interpreter stores per element, whatever the element type:
/// floats as double, integers and bools as int64.
constexpr int64_t kBytesPerElement = 8;
/// The default cap on the storage of one tensor: 16 GiB.
constexpr int64_t kDefaultMaxTensorBytes = int64_t(16) << 30;

/// The cap on the storage of every tensor the interpreter allocates for an op
/// result (process-wide, thread-safe; `stax-run --max-bytes` sets it; always
/// enforced, INT64_MAX only leaves the int64 overflow check). The cap is per
/// tensor: a function keeps all its values alive, so a run may hold several
/// such tensors.
int64_t maxTensorBytes();
void setMaxTensorBytes(int64_t bytes);

/// Why a tensor of `shape` cannot be allocated, as a phrase to follow its
/// name ("result #0 (tensor<...>) " + phrase), or "" when it can: a dynamic
/// (`?`) or negative dimension, an element or byte count that overflows
/// int64 (checked arithmetic), or more bytes than maxTensorBytes().
std::string allocationError(llvm::ArrayRef<int64_t> shape);
/// True when `shape` has a dynamic (`?`) dimension.
bool hasDynamicDim(llvm::ArrayRef<int64_t> shape);

class Tensor {
public:
  Tensor() = default;
  /// A zero-filled tensor. `shape` must be valid (static, non-negative, with
  /// an element count that fits int64): a caller that cannot know checks
  /// allocationError first; an invalid shape is a fatal internal error.
  Tensor(llvm::ArrayRef<int64_t> shape, mlir::Type elementType);

  llvm::ArrayRef<int64_t> shape() const { return shape_; }
  int64_t rank() const { return static_cast<int64_t>(shape_.size()); }
  int64_t dim(int64_t i) const { return shape_[i]; }
  int64_t numel() const { return numel_; }
  mlir::Type elementType() const { return elementType_; }
  bool isFloat() const { return isFloat_; }
  mlir::RankedTensorType type() const;

  /// Element `i` (row-major) as a double / as an int64.
  double getF(int64_t i) const {
    return isFloat_ ? fdata_[i] : static_cast<double>(idata_[i]);
  }
  int64_t getI(int64_t i) const {
    return isFloat_ ? castToIntType(fdata_[i], int64Type()) : idata_[i];
  }
  bool getB(int64_t i) const { return isFloat_ ? fdata_[i] != 0 : idata_[i] != 0; }

  /// Stores `v` converted to the element type (rounding as
  /// storeToFloatType, or casting).
  void setF(int64_t i, double v) {
    if (isFloat_)
      fdata_[i] = storeToFloatType(v, elementType_);
    else
      idata_[i] = castToIntType(v, elementType_);
  }
  void setI(int64_t i, int64_t v) {
    if (isFloat_)
      fdata_[i] = storeToFloatType(static_cast<double>(v), elementType_);
    else
      idata_[i] = wrapToIntType(v, elementType_);
  }

  /// Row-major strides of the shape.
  llvm::SmallVector<int64_t> strides() const;
  /// Linear index of a multi-index.
  int64_t linearIndex(llvm::ArrayRef<int64_t> index) const;

  /// The same values converted to another element type.
  Tensor castTo(mlir::Type elementType) const;
  /// The same values with a new shape of equal element count.
  Tensor reshaped(llvm::ArrayRef<int64_t> shape) const;

  /// Raw storage, for I/O.
  std::vector<double> &floatData() { return fdata_; }
  std::vector<int64_t> &intData() { return idata_; }
  const std::vector<double> &floatData() const { return fdata_; }
  const std::vector<int64_t> &intData() const { return idata_; }

private:
  mlir::Type int64Type() const;

  llvm::SmallVector<int64_t> shape_;
  int64_t numel_ = 0;
  mlir::Type elementType_;
  bool isFloat_ = false;
  std::vector<double> fdata_;
  std::vector<int64_t> idata_;
};

/// Calls `fn(linear, index)` for every multi-index of `shape` in row-major
/// (lexicographic) order. An `fn` that returns bool stops the walk by
/// returning false (a run-time error: the rest of a long range is not
/// walked for nothing).
template <typename Fn>
void forEachIndex(llvm::ArrayRef<int64_t> shape, Fn &&fn) {
  int64_t numel = 1;
  for (int64_t d : shape)
    numel *= d;
  llvm::SmallVector<int64_t> index(shape.size(), 0);
  for (int64_t linear = 0; linear < numel; ++linear) {
    if constexpr (std::is_same_v<decltype(fn(linear, llvm::ArrayRef<int64_t>(
                                      index))),
                                 bool>) {
      if (!fn(linear, llvm::ArrayRef<int64_t>(index)))
        return;
    } else {
      fn(linear, llvm::ArrayRef<int64_t>(index));
    }
    for (int64_t d = static_cast<int64_t>(shape.size()) - 1; d >= 0; --d) {
      if (++index[d] < shape[d])
        break;
      index[d] = 0;
    }
  }
}

} // namespace mlir::stax

#endif // STAX_INTERPRETER_TENSOR_H
