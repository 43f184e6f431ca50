//===- CheckpointingTest.cpp - uniform and binomial checkpointing ---------===//

#include "Stax/Analysis/Checkpointing.h"
#include "gtest/gtest.h"
#include <limits>

using namespace mlir::stax;
using Action = CheckpointAction;

TEST(Checkpointing, BinomialBoundariesAndRecurrence) {
  for (unsigned x = 0; x <= 30; ++x) {
    EXPECT_EQ(maxChainLength(x, 0), 1u);     // t = 0: only step 1
    EXPECT_EQ(maxChainLength(1, x), x + 1u); // one slot: sweep from z_0
    EXPECT_EQ(maxChainLength(0, x), 1u);
  }
  for (unsigned s = 1; s <= 30; ++s)
    for (unsigned t = 1; t <= 30; ++t) {
      EXPECT_EQ(maxChainLength(s, t),
                maxChainLength(s, t - 1) + maxChainLength(s - 1, t));
      EXPECT_EQ(maxChainLength(s, t), binomial(s, t)) << s << "," << t;
      EXPECT_EQ(binomial(s, t), binomial(t, s));
    }
  EXPECT_EQ(binomial(6, 6), 924u);
  EXPECT_EQ(binomial(3, 2), 10u);
  EXPECT_EQ(binomial(30, 30), 118264581564861424ull);
  const uint64_t saturated = std::numeric_limits<uint64_t>::max();
  EXPECT_EQ(binomial(40, 40), saturated);
  EXPECT_EQ(maxChainLength(40, 40), saturated);
  EXPECT_EQ(minRepetition(924, 6), 6u);
  EXPECT_EQ(minRepetition(925, 6), 7u);
  EXPECT_EQ(minRepetition(1, 1), 0u);
  EXPECT_EQ(minRepetition(5, 1), 4u);
}

namespace {

/// Griewank's minimal total of forward steps for l = beta(s, t) and, more
/// generally, beta(s, t-1) < l <= beta(s, t): t*l - beta(s+1, t-1).
uint64_t optimalTotal(uint64_t l, unsigned s) {
  unsigned t = minRepetition(l, s);
  return t == 0 ? 0 : t * l - binomial(s + 1, t - 1);
}

/// The same optimum by dynamic programming over the first checkpoint m:
/// F(s, l) = min_m m + F(s-1, l-m) + F(s, m), F(1, l) = l(l-1)/2.
std::vector<std::vector<uint64_t>> optimalTotalsDP(unsigned maxS,
                                                   unsigned maxL) {
  std::vector<std::vector<uint64_t>> f(maxS + 1,
                                      std::vector<uint64_t>(maxL + 1, 0));
  for (unsigned l = 1; l <= maxL; ++l)
    f[1][l] = uint64_t(l) * (l - 1) / 2;
  for (unsigned s = 2; s <= maxS; ++s)
    for (unsigned l = 2; l <= maxL; ++l) {
      f[s][l] = UINT64_MAX;
      for (unsigned m = 1; m < l; ++m)
        f[s][l] = std::min(f[s][l], m + f[s - 1][l - m] + f[s][m]);
    }
  return f;
}

} // namespace

TEST(Checkpointing, RevolveReversesBinomialLengths) {
  for (unsigned s = 1; s <= 6; ++s)
    for (unsigned t = 0; t <= 6; ++t) {
      unsigned l = binomial(s, t);
      ScheduleStats stats = simulate(revolveSchedule(l, s), l, s);
      ASSERT_TRUE(stats.ok) << s << "," << t << ": " << stats.error;
      EXPECT_EQ(stats.backwardSteps, l);
      EXPECT_LE(stats.maxSlotsUsed, s);
      EXPECT_EQ(stats.repetition, t) << s << "," << t;
      EXPECT_EQ(stats.totalForwardSteps, optimalTotal(l, s));
      // One step longer needs repetition t + 1 (Griewank: beta = C(s+t,s)).
      EXPECT_EQ(minRepetition(l + 1, s), t + 1);
      ScheduleStats longer = simulate(revolveSchedule(l + 1, s), l + 1, s);
      ASSERT_TRUE(longer.ok) << longer.error;
      EXPECT_LE(longer.maxSlotsUsed, s);
      EXPECT_EQ(longer.repetition, t + 1);
    }
}

TEST(Checkpointing, RevolveAllLengthsOptimalTotal) {
  const unsigned maxS = 6, maxL = 300;
  auto dp = optimalTotalsDP(maxS, maxL);
  for (unsigned s = 1; s <= maxS; ++s)
    for (unsigned l = 1; l <= maxL; ++l) {
      ScheduleStats stats = simulate(revolveSchedule(l, s), l, s);
      ASSERT_TRUE(stats.ok) << s << "," << l << ": " << stats.error;
      EXPECT_LE(stats.maxSlotsUsed, s);
      EXPECT_EQ(stats.repetition, minRepetition(l, s)) << s << "," << l;
      EXPECT_EQ(stats.totalForwardSteps, dp[s][l]) << s << "," << l;
      EXPECT_EQ(dp[s][l], optimalTotal(l, s)) << s << "," << l;
    }
}

TEST(Checkpointing, RevolveFewSlotsFails) {
  // A schedule built for s slots does not fit in s - 1.
  unsigned l = binomial(4, 3);
  ScheduleStats stats = simulate(revolveSchedule(l, 4), l, 3);
  EXPECT_FALSE(stats.ok);
  EXPECT_NE(stats.error.find("no such slot"), std::string::npos);
}

TEST(Checkpointing, UniformScheduleBounds) {
  for (unsigned l = 1; l <= 150; ++l)
    for (unsigned c = 0; c <= l; c += (c < 12 ? 1 : 7)) {
      CheckpointSchedule schedule = uniformSchedule(l, c);
      ScheduleStats stats = simulate(schedule, l, 2 * l + 2);
      ASSERT_TRUE(stats.ok) << l << "," << c << ": " << stats.error;
      unsigned segments = c;
      if (c == 0) // default: ceil(sqrt(l))
        for (segments = 1; segments * segments < l; ++segments) {
        }
      // Theorem 5.3: peak <= c + l/c, each step computed at most twice.
      EXPECT_LE(uint64_t(stats.maxSlotsUsed) * segments,
                uint64_t(segments) * segments + l)
          << l << "," << c;
      EXPECT_LE(stats.repetition, 2u);
      EXPECT_LE(stats.totalForwardSteps, 2u * l);
    }
  // c = sqrt(l): storage <= 2 sqrt(l).
  EXPECT_LE(simulate(uniformSchedule(10000), 10000, 300).maxSlotsUsed, 200u);
}

TEST(Checkpointing, SimulatorRejectsIllegalSchedules) {
  auto error = [](CheckpointSchedule schedule, unsigned l, unsigned slots) {
    ScheduleStats stats = simulate(schedule, l, slots);
    EXPECT_FALSE(stats.ok);
    return stats.error;
  };
  // Backward steps out of order.
  EXPECT_NE(error({Action::backward(1)}, 2, 1).find("expected backward step 2"),
            std::string::npos);
  // z_1 is needed for step 2 but only z_0 exists.
  EXPECT_NE(error({Action::backward(2)}, 2, 1).find("not available"),
            std::string::npos);
  // Storing into the slot that holds z_0.
  EXPECT_NE(error({Action::advance(0, 1), Action::store(0)}, 3, 2)
                .find("occupied"),
            std::string::npos);
  // Advancing from a state that is not current.
  EXPECT_NE(error({Action::advance(1, 2)}, 3, 1).find("not current"),
            std::string::npos);
  // Loading a free slot; stopping before step 1.
  EXPECT_NE(error({Action::load(1)}, 1, 2).find("empty"), std::string::npos);
  EXPECT_NE(error({Action::advance(0, 1), Action::backward(2)}, 2, 1)
                .find("ended before backward step 1"),
            std::string::npos);
  // The trivial legal schedule for l = 2 with one slot.
  ScheduleStats ok = simulate({Action::advance(0, 1), Action::backward(2),
                               Action::load(0), Action::backward(1)},
                              2, 1);
  EXPECT_TRUE(ok.ok) << ok.error;
  EXPECT_EQ(ok.repetition, 1u);
  EXPECT_EQ(ok.totalForwardSteps, 1u);
}

TEST(Checkpointing, ActionsPrint) {
  EXPECT_EQ(Action::advance(0, 3).str(), "advance 0->3");
  EXPECT_EQ(Action::backward(4).str(), "backward 4");
  CheckpointSchedule expected = {Action::advance(0, 1), Action::backward(2),
                                 Action::load(0), Action::backward(1)};
  EXPECT_EQ(revolveSchedule(2, 1), expected);
}
