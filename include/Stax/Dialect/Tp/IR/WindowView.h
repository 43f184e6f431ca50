//===- WindowView.h - as_strided views that are windows ---------*- C++ -*-===//
//
// An as_strided view of a row-major tensor whose dims each step along one
// source dim, never reaching past its size from the storage offset's own
// digit there: the windows of unfold and im2col. Such a view indexes every
// source dim affinely (no carry crosses a dim), so the lowering reads it
// without floordiv/mod (TpToStax ViewRules.cpp) and its transpose is a sum
// of embedded slices (Autodiff ShapeRules.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef STAX_DIALECT_TP_IR_WINDOWVIEW_H
#define STAX_DIALECT_TP_IR_WINDOWVIEW_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include <cstdint>
#include <optional>

namespace mlir::tp {

struct WindowView {
  /// Per source dim: the storage offset's digit (the index it starts at).
  llvm::SmallVector<int64_t> start;
  /// Per view dim: the source dim it steps along, or -1 (size 1, or
  /// stride 0: it moves nowhere).
  llvm::SmallVector<int64_t> sourceDim;
  /// Per view dim: its step in source dim sourceDim (0 where that is -1).
  llvm::SmallVector<int64_t> step;
};

/// The window structure of as_strided(size, stride, offset) over a
/// row-major tensor of `shape`, or nullopt when the view is not one (a
/// negative stride, a step that is no multiple of a dim's row-major
/// stride, a dim reached past its size, an offset outside the tensor).
std::optional<WindowView> decomposeWindowView(llvm::ArrayRef<int64_t> shape,
                                              llvm::ArrayRef<int64_t> size,
                                              llvm::ArrayRef<int64_t> stride,
                                              int64_t offset);

} // namespace mlir::tp

#endif // STAX_DIALECT_TP_IR_WINDOWVIEW_H
