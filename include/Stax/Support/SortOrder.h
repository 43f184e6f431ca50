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
#include <cstring>
#include <numeric>
#include <type_traits>
#include <vector>

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

/// An unsigned key whose order is sortsBefore's ascending order: equal
/// values (-0.0 and 0.0, every NaN) get equal keys, NaN the largest.
template <typename T> auto orderKey(T v) {
  if constexpr (std::is_floating_point_v<T>) {
    using U = std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>;
    static_assert(sizeof(U) == sizeof(T), "f32 or f64 keys");
    constexpr U sign = U(1) << (8 * sizeof(U) - 1);
    if (std::isnan(v))
      return ~U(0);
    if (v == 0)
      v = 0; // -0.0 sorts with 0.0
    U u;
    std::memcpy(&u, &v, sizeof u);
    // Negative numbers reversed below the positive ones.
    return (u & sign) ? U(~u) : U(u | sign);
  } else {
    using U = std::make_unsigned_t<T>;
    U u = static_cast<U>(v);
    if constexpr (std::is_signed_v<T>)
      u ^= U(1) << (8 * sizeof(U) - 1);
    return u;
  }
}

/// Slices shorter than this sort with std::stable_sort: a radix pass costs
/// a 256-bucket prefix sum whatever the length.
constexpr int64_t kRadixSortMinLength = 64;

/// sortPermutation's result (the same permutation: it is the only stable
/// one), in O(len) per key byte: a least-significant-digit radix sort of
/// orderKey (complemented when descending, which keeps NaN first and
/// equal keys in input order) minus the least key, skipping the bytes that
/// all keys share.
/// The compiled code's sort; the interpreter keeps the comparison sort, so
/// that each checks the other.
template <typename T>
void radixSortPermutation(const T *keys, int64_t len, bool descending,
                          int64_t *perm) {
  if (len < kRadixSortMinLength) {
    sortPermutation(keys, len, descending, perm);
    return;
  }
  using K = decltype(orderKey(T()));
  constexpr int kBytes = sizeof(K);
  thread_local std::vector<K> keyBuffer;
  thread_local std::vector<int64_t> permBuffer;
  keyBuffer.resize(2 * len);
  permBuffer.resize(len);
  K *from = keyBuffer.data(), *to = from + len;
  int64_t *permFrom = perm, *permTo = permBuffer.data();
  K least = ~K(0);
  for (int64_t i = 0; i < len; ++i) {
    K key = orderKey(keys[i]);
    from[i] = descending ? K(~key) : key;
    least = std::min(least, from[i]);
    permFrom[i] = i;
  }
  // Keys relative to the least: a small range leaves its high bytes zero
  // (skipped below) even across the sign.
  int64_t counts[kBytes][256] = {};
  for (int64_t i = 0; i < len; ++i) {
    from[i] -= least;
    for (int b = 0; b < kBytes; ++b)
      ++counts[b][(from[i] >> (8 * b)) & 255];
  }
  for (int b = 0; b < kBytes; ++b) {
    int64_t *count = counts[b];
    if (std::any_of(count, count + 256, [&](int64_t c) { return c == len; }))
      continue; // every key has the same byte here
    int64_t offset = 0;
    for (int d = 0; d < 256; ++d) {
      int64_t c = count[d];
      count[d] = offset;
      offset += c;
    }
    for (int64_t i = 0; i < len; ++i) {
      int64_t at = count[(from[i] >> (8 * b)) & 255]++;
      to[at] = from[i];
      permTo[at] = permFrom[i];
    }
    std::swap(from, to);
    std::swap(permFrom, permTo);
  }
  if (permFrom != perm)
    std::copy(permFrom, permFrom + len, perm);
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
