//===- SortOrder.h - the order tp.sort sorts in -----------------*- C++ -*-===//
//
// Eager's sort comparators (ATen's KeyValueCompAsc/Desc), shared by the
// interpreter's kernels and the runtime's stax_rt_sort_*/stax_rt_topk_* so
// that compiled code sorts and selects exactly like the oracle. Plain C++: the runtime links no LLVM.
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

/// Fills perm[0, k) with the first k entries of sortPermutation's result,
/// in O(len log k): a partial sort that breaks ties by position, which is
/// what stability means for the prefix. A small k keeps a sorted buffer of
/// the best k seen (most elements cost one comparison with its last);
/// a larger one partially sorts an index array. perm needs room for len
/// entries.
template <typename T>
void partialSortPermutation(const T *keys, int64_t len, int64_t k,
                            bool descending, int64_t *perm) {
  auto before = [&](int64_t a, int64_t b) {
    if (sortsBefore(keys[a], keys[b], descending))
      return true;
    if (sortsBefore(keys[b], keys[a], descending))
      return false;
    return a < b;
  };
  if (k > 32) {
    std::iota(perm, perm + len, int64_t(0));
    std::partial_sort(perm, perm + k, perm + len, before);
    return;
  }
  // perm[0, n) holds the best so far, in order. Every element there came
  // before j, so j goes before one of them only if its key sorts strictly
  // before (an equal key stays behind: stability).
  int64_t n = 0;
  for (int64_t j = 0; j < len && k > 0; ++j) {
    const T x = keys[j];
    if (n == k) {
      if (!sortsBefore(x, keys[perm[k - 1]], descending))
        continue;
      --n; // j displaces the last
    }
    int64_t p = n++;
    for (; p > 0 && sortsBefore(x, keys[perm[p - 1]], descending); --p)
      perm[p] = perm[p - 1];
    perm[p] = j;
  }
}

} // namespace mlir::stax

#endif // STAX_SUPPORT_SORTORDER_H
