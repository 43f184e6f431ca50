//===- SplitFactor.cpp - Algorithm 6.1 ------------------------------------===//
//
// Line numbers refer to Algorithm 6.1 as NOTES.md translates it.
//
//===----------------------------------------------------------------------===//
#include "Stax/Analysis/SplitFactor.h"

#include <algorithm>
#include <cstdlib>

using namespace mlir;

using namespace mlir::stax;

static int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

int64_t stax::closestDivisorWithin(int64_t n, int64_t target, int64_t window) {
  int64_t best = 0;
  // Divisors come in pairs (d, n/d); visiting d <= sqrt(n) finds all.
  auto consider = [&](int64_t d) {
    int64_t dist = std::llabs(d - target);
    if (dist >= window)
      return;
    int64_t bestDist = std::llabs(best - target);
    if (best == 0 || dist < bestDist || (dist == bestDist && d < best))
      best = d;
  };
  for (int64_t d = 1; d * d <= n; ++d) {
    if (n % d)
      continue;
    consider(d);
    consider(n / d);
  }
  return best;
}

int64_t stax::largestDivisorAtMost(int64_t n, int64_t k) {
  for (int64_t d = k < n ? k : n; d > 1; --d)
    if (n % d == 0)
      return d;
  return 1;
}

SplitDecision stax::computeSplitFactor(int64_t nr, int64_t n,
                                       const SplitDevice &dev) {
  const int64_t S = dev.smCount, T = dev.threadsPerSM;
  // Line 1.
  const int64_t eMin = dev.warpSize, eMax = 512, m = 8 * dev.warpSize;
  // Line 2.
  const int64_t dMin = eMin * S * T, dMax = eMax * S * T;
  SplitDecision d;
  // Line 3: enough outputs already fill the device.
  if (n >= 2 * S)
    return d;
  // Line 4.
  if (nr <= dev.noSplitThreshold) {
    d.branch = SplitBranch::Short;
    return d;
  }
  int64_t s;
  if (n * nr <= dMin) { // Line 5.
    d.branch = SplitBranch::SmallDevice;
    s = eMin;
  } else if (n * nr < dMax) { // Line 6.
    d.branch = SplitBranch::MediumDevice;
    // A device with fewer than 2m resident threads in all would target
    // 0 blocks (and divide by 0 below); it still runs one.
    int64_t blocks = std::max<int64_t>(S * T / (2 * m), 1);
    int64_t target = ceilDiv(nr, m * ceilDiv(blocks, n));
    int64_t snapped = closestDivisorWithin(nr, target, 30);
    s = snapped ? snapped : target;
  } else { // Line 7.
    d.branch = SplitBranch::LargeDevice;
    int64_t snapped = closestDivisorWithin(nr, eMax, 50);
    s = snapped ? snapped : eMax;
  }
  // Line 8.
  d.elementsPerThread = s;
  d.segments = ceilDiv(nr, s * m);
  return d;
}
