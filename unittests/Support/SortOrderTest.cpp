//===- SortOrderTest.cpp - tp.sort's order and tp.topk's selection --------===//
#include "Stax/Support/SortOrder.h"
#include <cmath>
#include <gtest/gtest.h>
#include <limits>
#include <random>
#include <vector>

namespace {

using mlir::stax::partialSortPermutation;
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

} // namespace
