//===- MatmulTest.cpp - the runtime's BLAS products -----------------------===//
#include "Stax/Runtime/Runtime.h"
#include <cmath>
#include <cstring>
#include <gtest/gtest.h>
#include <limits>
#include <random>
#include <vector>

namespace {

template <typename T> std::vector<T> randomValues(size_t n, unsigned seed) {
  std::mt19937 gen(seed);
  std::normal_distribution<T> dist;
  std::vector<T> v(n);
  for (T &x : v)
    x = dist(gen);
  return v;
}

template <typename T>
void matmul(int64_t batch, int64_t m, int64_t n, int64_t k, int64_t transA,
            const std::vector<T> &a, const std::vector<T> &b,
            std::vector<T> &c) {
  auto pa = reinterpret_cast<uintptr_t>(a.data());
  auto pb = reinterpret_cast<uintptr_t>(b.data());
  auto pc = reinterpret_cast<uintptr_t>(c.data());
  if constexpr (sizeof(T) == 4)
    stax_rt_matmul_f32(batch, m, n, k, transA, 0, pa, pb, pc);
  else
    stax_rt_matmul_f64(batch, m, n, k, transA, 0, pa, pb, pc);
}

template <typename T> void subnormalOperandsReadAsZero() {
  // 2 x (64 x 64) @ (64 x 64): m * n * k = 2^18, the smallest flushed.
  const int64_t batch = 2, m = 64, n = 64, k = 64;
  std::vector<T> a = randomValues<T>(batch * m * k, 1);
  std::vector<T> b = randomValues<T>(batch * k * n, 2);
  std::vector<T> zeroedA = a, zeroedB = b;
  // Row 0 and column 0 of each stored A (op(A)'s row 0 with or without
  // transA) and column 0 of each B are subnormal, so C's first row and
  // column are sums of subnormal products unless they read as zeros.
  const T tiny = std::numeric_limits<T>::denorm_min() * 3;
  for (size_t i = 0; i < a.size(); ++i) {
    size_t row = i % (m * k) / k, col = i % k;
    if (row == 0 || col == 0) {
      a[i] = i % 2 ? tiny : -tiny;
      zeroedA[i] = i % 2 ? T(0) : -T(0);
    }
  }
  for (size_t i = 0; i < b.size(); i += n) {
    b[i] = std::numeric_limits<T>::min() / 2;
    zeroedB[i] = 0;
  }
  const std::vector<T> a0 = a, b0 = b;
  for (int64_t transA : {0, 1}) {
    std::vector<T> got(batch * m * n), want(batch * m * n);
    matmul(batch, m, n, k, transA, a, b, got);
    matmul(batch, m, n, k, transA, zeroedA, zeroedB, want);
    EXPECT_EQ(0, std::memcmp(got.data(), want.data(), got.size() * sizeof(T)))
        << "transA=" << transA;
  }
  // The caller's operands are left as they were.
  EXPECT_EQ(a, a0);
  EXPECT_EQ(b, b0);
}

TEST(MatmulTest, SubnormalOperandsReadAsZeroF32) {
  subnormalOperandsReadAsZero<float>();
}

TEST(MatmulTest, SubnormalOperandsReadAsZeroF64) {
  subnormalOperandsReadAsZero<double>();
}

TEST(MatmulTest, SmallProductsKeepSubnormals) {
  // 4 x 4 x 4: not scanned; a subnormal times one stays subnormal.
  std::vector<float> a(16, 0), b(16, 0), c(16, 1);
  a[0] = std::numeric_limits<float>::denorm_min() * 8;
  for (int i = 0; i < 4; ++i)
    b[i * 4 + i] = 1;
  matmul<float>(1, 4, 4, 4, 0, a, b, c);
  EXPECT_EQ(c[0], a[0]);
  EXPECT_EQ(std::fpclassify(c[0]), FP_SUBNORMAL);
}

} // namespace
