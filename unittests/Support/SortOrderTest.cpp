//===- SortOrderTest.cpp - tp.sort's order and tp.topk's selection --------===//
#include "Stax/Support/SortOrder.h"
#include <cmath>
#include <cstring>
#include <gtest/gtest.h>
#include <limits>
#include <random>
#include <vector>

namespace {

using mlir::stax::partialSortPermutation;
using mlir::stax::radixSortPermutation;
using mlir::stax::sortPermutation;

/// Keys with many ties, both zeros and NaNs, so that stability matters.
std::vector<float> tiedKeys(int64_t len, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> pick(0, 9);
  std::vector<float> keys(len);
  for (float &k : keys) {
    int v = pick(rng);
    k = v == 0   ? std::numeric_limits<float>::quiet_NaN()
        : v == 1 ? -0.0f
        : v == 2 ? 0.0f
                 : static_cast<float>(v % 4);
  }
  return keys;
}

// The selection is the prefix of the stable sort, for every k (the
// insertion buffer for k <= 32, the partial sort above), both directions.
TEST(SortOrderTest, PartialSortIsThePrefixOfTheStableSort) {
  for (int64_t len : {0, 1, 7, 40, 100}) {
    for (bool descending : {false, true}) {
      std::vector<float> keys = tiedKeys(len, static_cast<unsigned>(len));
      std::vector<int64_t> full(len), part(len);
      sortPermutation(keys.data(), len, descending, full.data());
      for (int64_t k = 0; k <= len; ++k) {
        partialSortPermutation(keys.data(), len, k, descending, part.data());
        for (int64_t j = 0; j < k; ++j)
          ASSERT_EQ(part[j], full[j])
              << "len " << len << " k " << k << " position " << j
              << (descending ? " descending" : " ascending");
      }
    }
  }
}

// Integers: already sorted and reverse-sorted input (every element enters
// the buffer, or none after the first k).
TEST(SortOrderTest, PartialSortOfSortedIntegers) {
  std::vector<int64_t> up(50), down(50);
  for (int64_t i = 0; i < 50; ++i) {
    up[i] = i / 3; // ties in threes
    down[i] = (49 - i) / 3;
  }
  for (const auto *keys : {&up, &down})
    for (bool descending : {false, true})
      for (int64_t k : {0, 1, 5, 32, 33, 50}) {
        std::vector<int64_t> full(50), part(50);
        sortPermutation(keys->data(), 50, descending, full.data());
        partialSortPermutation(keys->data(), 50, k, descending, part.data());
        for (int64_t j = 0; j < k; ++j)
          ASSERT_EQ(part[j], full[j]) << "k " << k << " position " << j;
      }
}

/// Keys of type T drawn from a small pool of special and extreme values
/// (ties; for floats both zeros, NaNs of both signs, infinities, denormals)
/// and from the whole range.
template <typename T> std::vector<T> mixedKeys(int64_t len, unsigned seed) {
  using L = std::numeric_limits<T>;
  std::mt19937_64 rng(seed);
  std::vector<T> pool = {L::lowest(), L::max(), T(0), T(1), T(2), L::min()};
  if constexpr (std::is_floating_point_v<T>)
    pool.insert(pool.end(), {T(-0.0), L::quiet_NaN(), -L::quiet_NaN(),
                             L::infinity(), -L::infinity(), L::denorm_min(),
                             -L::denorm_min(), T(-1), T(0.5)});
  else if constexpr (std::is_signed_v<T>)
    pool.insert(pool.end(), {T(-1), T(-2)});
  std::vector<T> keys(len);
  for (T &k : keys) {
    uint64_t r = rng();
    if (r % 3 == 0) {
      k = pool[(r >> 8) % pool.size()];
    } else if constexpr (std::is_floating_point_v<T>) {
      k = static_cast<T>(
          std::ldexp(static_cast<double>(int64_t(r >> 2) % 2001 - 1000),
                     int((r >> 40) % 40) - 20));
    } else {
      std::memcpy(&k, &r, sizeof(T));
    }
  }
  return keys;
}

template <typename T> void expectRadixEqualsStableSort() {
  for (int64_t len : {0, 5, 63, 64, 65, 300, 4099})
    for (bool descending : {false, true}) {
      std::vector<T> keys = mixedKeys<T>(len, static_cast<unsigned>(len) + 1);
      std::vector<int64_t> want(len), got(len);
      sortPermutation(keys.data(), len, descending, want.data());
      radixSortPermutation(keys.data(), len, descending, got.data());
      ASSERT_EQ(got, want) << "len " << len
                           << (descending ? " descending" : " ascending");
    }
}

// The compiled code's radix sort gives the interpreter's stable comparison
// sort's permutation: NaN largest (either sign), -0.0 equal to 0.0, ties in
// input order, for every element type tp.sort compiles.
TEST(SortOrderTest, RadixSortIsTheStableSort) {
  expectRadixEqualsStableSort<float>();
  expectRadixEqualsStableSort<double>();
  expectRadixEqualsStableSort<int8_t>();
  expectRadixEqualsStableSort<uint8_t>();
  expectRadixEqualsStableSort<int16_t>();
  expectRadixEqualsStableSort<int32_t>();
  expectRadixEqualsStableSort<int64_t>();
}

// Keys sharing their high bytes skip those passes; one byte of difference
// still sorts.
TEST(SortOrderTest, RadixSortSkipsSharedBytes) {
  std::vector<int64_t> keys(200);
  for (int64_t i = 0; i < 200; ++i)
    keys[i] = (int64_t(1) << 40) + (i * 37) % 11;
  std::vector<int64_t> want(200), got(200);
  sortPermutation(keys.data(), 200, false, want.data());
  radixSortPermutation(keys.data(), 200, false, got.data());
  EXPECT_EQ(got, want);
}

} // namespace
