//===- SplitFactor.h - number of segments of a GPU reduction ----*- C++ -*-===//
//
// Algorithm 6.1 (spec Section 6.5, translated in NOTES.md): how many
// segments an inner reduction is split into on a GPU. Kept free of MLIR so
// that the unit tests can check every branch on plain numbers.
//
//===----------------------------------------------------------------------===//
#ifndef STAX_ANALYSIS_SPLITFACTOR_H
#define STAX_ANALYSIS_SPLITFACTOR_H

#include <cstdint>

namespace mlir::stax {

/// The device parameters Algorithm 6.1 reads (defaults: H100/H200).
struct SplitDevice {
  int64_t smCount = 132;           // S
  int64_t warpSize = 32;           // w
  int64_t threadsPerSM = 2048;     // T
  int64_t noSplitThreshold = 8192; // reductions of at most this never split
};

/// Which line of Algorithm 6.1 decided; for tests and remarks.
enum class SplitBranch {
  ManyOutputs,  // line 3: n >= 2S
  Short,        // line 4: n_r <= threshold
  SmallDevice,  // line 5: n * n_r <= D_min, s = e_min
  MediumDevice, // line 6: D_min < n * n_r < D_max, s near the block target
  LargeDevice,  // line 7: n * n_r >= D_max, s near e_max
};

struct SplitDecision {
  int64_t segments = 1;        // k
  int64_t elementsPerThread = 0; // s (0 when lines 3/4 returned)
  SplitBranch branch = SplitBranch::ManyOutputs;
};

/// Algorithm 6.1 for `numOutputs` (n) outputs of `reductionSize` (n_r)
/// elements each. The parameters must be positive.
SplitDecision computeSplitFactor(int64_t reductionSize, int64_t numOutputs,
                                 const SplitDevice &device);

/// The divisor of `n` closest to `target` (ties: the smaller), if it lies
/// strictly within `window` of it (lines 6 and 7's snapping, as Inductor
/// does); 0 otherwise.
int64_t closestDivisorWithin(int64_t n, int64_t target, int64_t window);

/// The largest divisor of `n` that is at most `k` (at least 1): the number
/// of equal segments actually used, so that no segment needs a guard.
int64_t largestDivisorAtMost(int64_t n, int64_t k);

} // namespace mlir::stax

#endif // STAX_ANALYSIS_SPLITFACTOR_H
