//===- SortOrder.h - the order tp.sort sorts in -----------------*- C++ -*-===//
//
// Eager's sort comparators (ATen's KeyValueCompAsc/Desc), shared by the
// interpreter's kernel and the runtime's stax_rt_sort_* so that compiled
// code sorts exactly like the oracle. Plain C++: the runtime links no LLVM.
//
//===----------------------------------------------------------------------===//
#ifndef STAX_SUPPORT_SORTORDER_H
#define STAX_SUPPORT_SORTORDER_H

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <type_traits>

namespace mlir::stax {

/// True when `a` goes strictly before `b`. NaN is larger than every number
/// (last ascending, first descending); equal values, -0.0 and 0.0 among
/// them, are unordered, so that a stable sort keeps them in input order.
template <typename T> bool sortsBefore(T a, T b, bool descending) {
  if constexpr (std::is_floating_point_v<T>) {
    if (descending)
      return (std::isnan(a) && !std::isnan(b)) || a > b;
    return (!std::isnan(a) && std::isnan(b)) || a < b;
  } else {
    return descending ? a > b : a < b;
  }
}

/// Fills perm[0, len) with the stable sorting permutation of keys[0, len):
/// keys[perm[k]] is the k-th value in sorted order.
template <typename T>
void sortPermutation(const T *keys, int64_t len, bool descending,
                     int64_t *perm) {
  std::iota(perm, perm + len, int64_t(0));
  std::stable_sort(perm, perm + len, [&](int64_t a, int64_t b) {
    return sortsBefore(keys[a], keys[b], descending);
  });
}

} // namespace mlir::stax

#endif // STAX_SUPPORT_SORTORDER_H
