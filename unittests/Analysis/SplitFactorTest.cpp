//===- SplitFactorTest.cpp - Algorithm 6.1 against hand-computed cases ----===//
//
// Each row was worked out by hand from Algorithm 6.1 (NOTES.md); the
// comment gives the line that decides and the intermediate values.
//
//===----------------------------------------------------------------------===//
#include "Stax/Analysis/SplitFactor.h"
#include <gtest/gtest.h>

using namespace mlir::stax;

namespace {

struct Case {
  const char *what;
  int64_t nr, n;
  SplitDevice device;
  int64_t k, s;
  SplitBranch branch;
};

const SplitDevice h100{132, 32, 2048, 8192};
// S = 2, w = 4, T = 8: m = 32, D_min = 64, D_max = 8192, S*T/(2m) = 0.
const SplitDevice tiny{2, 4, 8, 100};

const Case cases[] = {
    // Example 6.2: n = 64 < 264, n*n_r = 2^20 <= D_min = 8650752, s = 32,
    // k = ceil(16384 / (32*256)) = 2.
    {"example 6.2", 16384, 64, h100, 2, 32, SplitBranch::SmallDevice},
    // Line 3: n >= 2S.
    {"264 outputs", 1 << 20, 264, h100, 1, 0, SplitBranch::ManyOutputs},
    {"10000 outputs", 16384, 10000, h100, 1, 0, SplitBranch::ManyOutputs},
    // Line 4: n_r <= 8192, even with one output.
    {"at threshold", 8192, 1, h100, 1, 0, SplitBranch::Short},
    {"short, few outputs", 100, 2, h100, 1, 0, SplitBranch::Short},
    // Line 5, just above the threshold: ceil(8193 / 8192) = 2.
    {"threshold + 1", 8193, 1, h100, 2, 32, SplitBranch::SmallDevice},
    // Line 5: a full sum of 2^20 elements: 2^20 / 8192 = 128.
    {"full sum 2^20", 1 << 20, 1, h100, 128, 32, SplitBranch::SmallDevice},
    // Line 5: 8 x 100000: ceil(100000 / 8192) = 13 (not a divisor).
    {"8x100000", 100000, 8, h100, 13, 32, SplitBranch::SmallDevice},
    // Line 6, no divisor near the target: b = 528, ceil(528/64) = 9,
    // target ceil(2^20 / 2304) = 456 (512 is 56 away), k = ceil(2^20/116736).
    {"medium, 2^20", 1 << 20, 64, h100, 9, 456, SplitBranch::MediumDevice},
    // Line 6, snapping: target ceil(1500000 / 2304) = 652, divisor 625 is
    // 27 away: k = ceil(1500000 / (625*256)) = 10.
    {"medium, snapped", 1500000, 64, h100, 10, 625, SplitBranch::MediumDevice},
    // Line 6, the target is itself a divisor: 921600 / 2304 = 400.
    {"medium, exact", 921600, 64, h100, 9, 400, SplitBranch::MediumDevice},
    // Line 7: n*n_r = 263 * 2^20 >= D_max = 138412032; 512 divides 2^20.
    {"large, 512", 1 << 20, 263, h100, 8, 512, SplitBranch::LargeDevice},
    // Line 7, snapping: 500 divides 1080000 and is 12 from 512.
    {"large, snapped", 1080000, 200, h100, 9, 500, SplitBranch::LargeDevice},
    // Line 7, no divisor within 50 (1000003 is prime): s = e_max.
    {"large, prime", 1000003, 200, h100, 8, 512, SplitBranch::LargeDevice},
    // Line 6 on a device whose block target S*T/(2m) rounds to 0: one
    // block; target ceil(1000/32) = 32, divisor 25 (7 away; 40 is 8).
    {"tiny device", 1000, 1, tiny, 2, 25, SplitBranch::MediumDevice},
    // Line 7 on the tiny device: 500 | 5000, ceil(5000 / (500*32)) = 1.
    {"tiny device, large", 5000, 3, tiny, 1, 500, SplitBranch::LargeDevice},
};

TEST(SplitFactorTest, Algorithm61Table) {
  for (const Case &c : cases) {
    SCOPED_TRACE(c.what);
    SplitDecision d = computeSplitFactor(c.nr, c.n, c.device);
    EXPECT_EQ(d.segments, c.k);
    EXPECT_EQ(d.elementsPerThread, c.s);
    EXPECT_EQ(d.branch, c.branch);
  }
}

TEST(SplitFactorTest, ClosestDivisor) {
  EXPECT_EQ(closestDivisorWithin(1 << 20, 512, 50), 512);
  EXPECT_EQ(closestDivisorWithin(1 << 20, 456, 30), 0);  // 512 is 56 away
  EXPECT_EQ(closestDivisorWithin(1500000, 652, 30), 625);
  EXPECT_EQ(closestDivisorWithin(1000, 32, 30), 25);     // 25 beats 40
  EXPECT_EQ(closestDivisorWithin(12, 5, 30), 4);         // tie 4/6: smaller
  EXPECT_EQ(closestDivisorWithin(1000003, 512, 50), 0);  // prime
  EXPECT_EQ(closestDivisorWithin(100, 70, 30), 50);      // 50 is 20 away
  EXPECT_EQ(closestDivisorWithin(100, 80, 20), 0);       // 100 is exactly 20
}

TEST(SplitFactorTest, LargestDivisorAtMost) {
  EXPECT_EQ(largestDivisorAtMost(16384, 2), 2);
  EXPECT_EQ(largestDivisorAtMost(100000, 13), 10);
  EXPECT_EQ(largestDivisorAtMost(1000003, 8), 1);
  EXPECT_EQ(largestDivisorAtMost(12, 100), 12);
  EXPECT_EQ(largestDivisorAtMost(7, 1), 1);
}

} // namespace
