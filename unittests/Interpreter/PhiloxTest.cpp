//===- PhiloxTest.cpp - Philox4x32-10 known answers and statistics --------===//

#include "Stax/Interpreter/Philox.h"
#include "gtest/gtest.h"
#include <cmath>

using namespace mlir;

using namespace mlir::stax::philox;

// Known-answer vectors of philox4x32-10 from Random123's kat_vectors.
TEST(Philox, KnownAnswers) {
  EXPECT_EQ(philox4x32({0, 0, 0, 0}, {0, 0}),
            (Block{0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8}));
  EXPECT_EQ(philox4x32({0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff},
                       {0xffffffff, 0xffffffff}),
            (Block{0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd}));
  EXPECT_EQ(philox4x32({0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344},
                       {0xa4093822, 0x299f31d0}),
            (Block{0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1}));
}

// The stream layout documented in TpRandomOps.td.
TEST(Philox, StreamLayout) {
  uint64_t seed = 0x0123456789abcdefull, offset = 0xfffffffffffffffeull;
  Stream s(seed, offset, 3);
  for (uint64_t j = 0; j < 16; ++j) {
    uint64_t b = offset + 3 + j / 4; // wraps past 2^64
    Block expect = philox4x32({uint32_t(b), uint32_t(b >> 32), 0, 0},
                              {0x89abcdefu, 0x01234567u});
    EXPECT_EQ(s.word(j), expect[j % 4]) << "word " << j;
  }
  EXPECT_EQ(s.dword(1), uint64_t(s.word(2)) | uint64_t(s.word(3)) << 32);
  // A later counter continues the same sequence of blocks.
  Stream t(seed, offset, 4);
  EXPECT_EQ(t.word(0), s.word(4));
  EXPECT_NE(Stream(seed + 1, offset, 3).word(0), s.word(0));
}

TEST(Philox, UniformConversions) {
  EXPECT_EQ(uniformFromWord(0, 24), 0.0);
  EXPECT_EQ(uniformFromWord(0xffffffffu, 24), 1.0 - 0x1.0p-24);
  EXPECT_EQ(float(uniformFromWord(0xffffffffu, 24)), 1.0f - 0x1.0p-24f);
  EXPECT_EQ(uniformFromWord(0x80000000u, 11), 0.5);
  EXPECT_EQ(uniformFromWord(0xffffffffu, 11), 1.0 - 0x1.0p-11);
  EXPECT_EQ(uniformFromDword(~uint64_t(0)), 1.0 - 0x1.0p-53);
  EXPECT_LT(uniformFromDword(~uint64_t(0)), 1.0);
}

namespace {
struct Moments {
  double mean = 0, var = 0;
};
template <typename Fn> Moments moments(int n, Fn fn) {
  double sum = 0, sum2 = 0;
  for (int i = 0; i < n; ++i) {
    double v = fn(i);
    sum += v;
    sum2 += v * v;
  }
  Moments m;
  m.mean = sum / n;
  m.var = sum2 / n - m.mean * m.mean;
  return m;
}
} // namespace

// Mean and variance of 1e5 draws within 5 standard errors.
TEST(Philox, UniformStatistics) {
  const int n = 100000;
  Stream s(42, 0, 0);
  double lo = 1, hi = 0;
  Moments m = moments(n, [&](int i) {
    double u = uniformFromWord(s.word(i), 24);
    lo = std::min(lo, u);
    hi = std::max(hi, u);
    return u;
  });
  EXPECT_GE(lo, 0.0);
  EXPECT_LT(hi, 1.0);
  EXPECT_NEAR(m.mean, 0.5, 5 * std::sqrt(1.0 / 12 / n));
  // Var of (U - 1/2)^2 is 1/80 - 1/144 = 1/180.
  EXPECT_NEAR(m.var, 1.0 / 12, 5 * std::sqrt(1.0 / 180 / n));

  Stream d(7, 1000, 0);
  Moments m53 = moments(n, [&](int i) { return uniformFromDword(d.dword(i)); });
  EXPECT_NEAR(m53.mean, 0.5, 5 * std::sqrt(1.0 / 12 / n));
  EXPECT_NEAR(m53.var, 1.0 / 12, 5 * std::sqrt(1.0 / 180 / n));
}

TEST(Philox, NormalStatistics) {
  const int n = 100000;
  Stream s(1234, 5, 0);
  Moments m = moments(n, [&](int i) {
    int k = i / 2;
    double u1 = double((s.word(2 * k) >> 8) + 1) * 0x1.0p-24;
    double u2 = uniformFromWord(s.word(2 * k + 1), 24);
    auto [z0, z1] = boxMuller(u1, u2);
    return i % 2 ? z1 : z0;
  });
  EXPECT_NEAR(m.mean, 0.0, 5 * std::sqrt(1.0 / n));
  EXPECT_NEAR(m.var, 1.0, 5 * std::sqrt(2.0 / n)); // Var(Z^2) = 2
}

// Neighbouring words are uncorrelated (lag-1 correlation within 5 se).
TEST(Philox, NoLagOneCorrelation) {
  const int n = 100000;
  Stream s(0, 0, 0);
  double sum = 0;
  for (int i = 0; i < n; ++i)
    sum += (uniformFromWord(s.word(i), 24) - 0.5) *
           (uniformFromWord(s.word(i + 1), 24) - 0.5);
  double corr = (sum / n) * 12;
  EXPECT_NEAR(corr, 0.0, 5 / std::sqrt(double(n)));
}
