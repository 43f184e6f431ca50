//===- WindowView.cpp - as_strided views that are windows -----------------===//
#include "Stax/Dialect/Tp/IR/WindowView.h"

using namespace mlir;
using llvm::ArrayRef;
using llvm::SmallVector;
using namespace mlir::tp;

std::optional<WindowView> tp::decomposeWindowView(ArrayRef<int64_t> shape,
                                                  ArrayRef<int64_t> size,
                                                  ArrayRef<int64_t> stride,
                                                  int64_t offset) {
  if (shape.empty() || size.size() != stride.size())
    return std::nullopt;
  for (int64_t s : shape)
    if (s <= 0)
      return std::nullopt;
  SmallVector<int64_t> rowMajor(shape.size(), 1);
  for (size_t d = shape.size() - 1; d > 0; --d)
    rowMajor[d - 1] = rowMajor[d] * shape[d];
  if (offset < 0 || offset >= rowMajor[0] * shape[0])
    return std::nullopt;
  WindowView view;
  SmallVector<int64_t> reach;
  for (size_t d = 0; d < shape.size(); ++d) {
    int64_t digit = offset / rowMajor[d];
    if (d > 0)
      digit %= shape[d];
    view.start.push_back(digit);
    reach.push_back(digit);
  }
  for (size_t j = 0; j < size.size(); ++j) {
    view.sourceDim.push_back(-1);
    view.step.push_back(0);
    if (size[j] <= 1 || stride[j] == 0)
      continue;
    if (stride[j] < 0)
      return std::nullopt;
    // The outermost dim whose row-major stride divides the step.
    for (size_t d = 0; d < shape.size() && view.sourceDim[j] < 0; ++d)
      if (shape[d] > 1 && rowMajor[d] <= stride[j] &&
          stride[j] % rowMajor[d] == 0)
        view.sourceDim[j] = static_cast<int64_t>(d);
    if (view.sourceDim[j] < 0)
      return std::nullopt;
    view.step[j] = stride[j] / rowMajor[view.sourceDim[j]];
    reach[view.sourceDim[j]] += view.step[j] * (size[j] - 1);
  }
  for (size_t d = 0; d < shape.size(); ++d)
    if (reach[d] >= shape[d])
      return std::nullopt;
  return view;
}
