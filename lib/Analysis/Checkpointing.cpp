//===- Checkpointing.cpp - chain reversal schedules -----------------------===//

#include "Stax/Analysis/Checkpointing.h"
#include "llvm/ADT/SmallVector.h"
#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>

using namespace mlir;

using namespace mlir::stax;
using Action = CheckpointAction;

std::string CheckpointAction::str() const {
  switch (kind) {
  case Kind::Advance:
    return "advance " + std::to_string(a) + "->" + std::to_string(b);
  case Kind::Store:
    return "store " + std::to_string(a);
  case Kind::Load:
    return "load " + std::to_string(a);
  case Kind::Free:
    return "free " + std::to_string(a);
  case Kind::Backward:
    return "backward " + std::to_string(a);
  }
  return "?";
}

static constexpr uint64_t kSaturated = std::numeric_limits<uint64_t>::max();

uint64_t stax::binomial(unsigned s, unsigned t) {
  // C(s+t, k) with k = min(s, t): the running product after i factors is
  // C(s+t-k+i, i), an integer, and it only grows, so the first overflow
  // decides saturation.
  unsigned k = std::min(s, t), n = s + t;
  unsigned __int128 r = 1;
  for (unsigned i = 1; i <= k; ++i) {
    r = r * (n - k + i) / i;
    if (r > kSaturated)
      return kSaturated;
  }
  return uint64_t(r);
}

uint64_t stax::maxChainLength(unsigned s, unsigned t) {
  // row[j] = beta(j, tt) for the current tt; beta(j, 0) = beta(0, tt) = 1.
  std::vector<uint64_t> row(s + 1, 1);
  for (unsigned tt = 1; tt <= t; ++tt)
    for (unsigned j = 1; j <= s; ++j)
      row[j] = row[j] > kSaturated - row[j - 1] ? kSaturated
                                                 : row[j] + row[j - 1];
  return row[s];
}

unsigned stax::minRepetition(uint64_t l, unsigned s) {
  assert(s >= 1 && "need a slot for z_0");
  if (s == 1) // beta(1, t) = t + 1; avoid a linear search
    return l <= 1 ? 0 : unsigned(l - 1);
  unsigned t = 0;
  while (binomial(s, t) < l)
    ++t;
  return t;
}

//===----------------------------------------------------------------------===//
// Uniform partitioning (Theorem 5.3)
//===----------------------------------------------------------------------===//

namespace {

unsigned ceilSqrt(unsigned l) {
  auto c = unsigned(std::sqrt(double(l)));
  while (uint64_t(c) * c < l)
    ++c;
  while (c > 0 && uint64_t(c - 1) * (c - 1) >= l)
    --c;
  return c;
}

/// Reverses segment [begin, end] whose start state is in `checkpointSlot`:
/// recompute and store its inner states in slots firstFree.., then run its
/// backward steps, freeing each state once used.
void reverseSegment(CheckpointSchedule &out, unsigned begin, unsigned end,
                    unsigned checkpointSlot, unsigned firstFree) {
  auto slotOf = [&](unsigned state) {
    return state == begin ? checkpointSlot : firstFree + (state - begin - 1);
  };
  out.push_back(Action::load(checkpointSlot));
  for (unsigned k = begin + 1; k < end; ++k) {
    out.push_back(Action::advance(k - 1, k));
    out.push_back(Action::store(slotOf(k)));
  }
  for (unsigned k = end; k > begin; --k) {
    out.push_back(Action::load(slotOf(k - 1)));
    out.push_back(Action::backward(k));
    out.push_back(Action::free(slotOf(k - 1)));
  }
}

} // namespace

CheckpointSchedule stax::uniformSchedule(unsigned l, unsigned c) {
  CheckpointSchedule out;
  if (l == 0)
    return out;
  c = std::clamp(c == 0 ? ceilSqrt(l) : c, 1u, l);
  // Segment boundaries floor(i*l/c): lengths differ by at most one.
  auto bound = [&](unsigned i) { return unsigned(uint64_t(i) * l / c); };
  for (unsigned i = 1; i < c; ++i) {
    out.push_back(Action::advance(bound(i - 1), bound(i)));
    out.push_back(Action::store(i));
  }
  for (unsigned j = c; j-- > 0;)
    reverseSegment(out, bound(j), bound(j + 1), j, c);
  return out;
}

//===----------------------------------------------------------------------===//
// Binomial checkpointing (Theorem 5.4)
//===----------------------------------------------------------------------===//

namespace {

/// Emits the recursive construction from the proof of Theorem 5.4. Tracks
/// the current state so that a Load is emitted only when it changes
/// something.
class RevolveBuilder {
public:
  explicit RevolveBuilder(unsigned s) {
    for (unsigned slot = s; slot-- > 1;)
      freeSlots.push_back(slot);
  }

  /// Reverses steps start+1..start+len; z_start is in slot `base`, and
  /// `slots` slots (base included) are available.
  void reverse(unsigned start, unsigned len, unsigned base, unsigned slots);

  CheckpointSchedule out;

private:
  void makeCurrent(unsigned slot, unsigned state) {
    if (current != state)
      out.push_back(Action::load(slot));
    current = state;
  }
  void advance(unsigned from, unsigned to) {
    if (from != to)
      out.push_back(Action::advance(from, to));
    current = to;
  }
  /// One slot: sweep from the base for every backward step.
  void reverseOneSlot(unsigned start, unsigned len, unsigned base);
  /// The split m of the proof, chosen so that both halves also have optimal
  /// total cost t*l - beta(s+1, t-1): m in [beta(s,t-2), beta(s,t-1)] and
  /// len - m in [beta(s-1,t-1), beta(s-1,t)], as long as possible on the
  /// right.
  static unsigned split(unsigned len, unsigned slots);

  unsigned current = 0;
  llvm::SmallVector<unsigned> freeSlots; // LIFO
};

void RevolveBuilder::reverseOneSlot(unsigned start, unsigned len,
                                    unsigned base) {
  for (unsigned k = start + len; k > start; --k) {
    makeCurrent(base, start);
    advance(start, k - 1);
    out.push_back(Action::backward(k));
  }
}

unsigned RevolveBuilder::split(unsigned len, unsigned slots) {
  unsigned t = minRepetition(len, slots);
  assert(t >= 1 && len >= 2);
  uint64_t lo = t >= 2 ? binomial(slots, t - 2) : 1;
  uint64_t hi = binomial(slots, t - 1);
  uint64_t right = binomial(slots - 1, t);
  uint64_t m = len > right ? len - right : 0;
  return unsigned(std::clamp(m, lo, hi));
}

void RevolveBuilder::reverse(unsigned start, unsigned len, unsigned base,
                             unsigned slots) {
  if (len == 0)
    return;
  if (slots == 1 || len == 1)
    return reverseOneSlot(start, len, base);
  unsigned m = split(len, slots);
  makeCurrent(base, start);
  advance(start, start + m);
  unsigned slot = freeSlots.pop_back_val();
  out.push_back(Action::store(slot));
  // The right part runs first, from the new checkpoint with one slot less;
  // the left part then reuses every slot with one repetition less.
  reverse(start + m, len - m, slot, slots - 1);
  out.push_back(Action::free(slot));
  freeSlots.push_back(slot);
  reverse(start, m, base, slots);
}

} // namespace

CheckpointSchedule stax::revolveSchedule(unsigned l, unsigned s) {
  assert(s >= 1 && "need a slot for z_0");
  RevolveBuilder builder(s);
  builder.reverse(0, l, /*base=*/0, s);
  return std::move(builder.out);
}

//===----------------------------------------------------------------------===//
// Simulation
//===----------------------------------------------------------------------===//

namespace {

class Simulator {
public:
  Simulator(unsigned l, unsigned slots)
      : l(l), slotState(slots, kEmpty), storedCount(l + 1, 0),
        computeCount(l + 1, 0), nextBackward(l) {
    if (slots > 0)
      occupy(0);
  }

  /// Executes one action; returns an error message or "".
  std::string step(const Action &action);
  ScheduleStats finish(std::string error, size_t failedAt, const Action *bad);

private:
  static constexpr int64_t kEmpty = -1;
  bool validSlot(unsigned slot) const { return slot < slotState.size(); }
  void occupy(unsigned slot) {
    slotState[slot] = current;
    ++storedCount[current];
    stats.maxSlotsUsed = std::max(stats.maxSlotsUsed, ++used);
  }
  std::string advance(unsigned from, unsigned to);
  std::string backward(unsigned k);

  unsigned l;
  std::vector<int64_t> slotState;     // state held by each slot
  std::vector<unsigned> storedCount;  // slots holding each state
  std::vector<unsigned> computeCount; // times each step was computed
  unsigned current = 0, used = 0, nextBackward;
  ScheduleStats stats;
};

std::string Simulator::advance(unsigned from, unsigned to) {
  if (from != current)
    return "z_" + std::to_string(from) + " is not current";
  if (to < from || to > l)
    return "bad target state";
  for (unsigned k = from + 1; k <= to; ++k)
    ++computeCount[k];
  stats.totalForwardSteps += to - from;
  current = to;
  return "";
}

std::string Simulator::backward(unsigned k) {
  if (k != nextBackward || k == 0)
    return "expected backward step " + std::to_string(nextBackward);
  if (current != k - 1 && storedCount[k - 1] == 0)
    return "z_" + std::to_string(k - 1) + " is not available";
  --nextBackward;
  ++stats.backwardSteps;
  return "";
}

std::string Simulator::step(const Action &action) {
  using Kind = Action::Kind;
  bool slotAction = action.kind == Kind::Store || action.kind == Kind::Load ||
                    action.kind == Kind::Free;
  if (slotAction && !validSlot(action.a))
    return "no such slot";
  switch (action.kind) {
  case Kind::Advance:
    return advance(action.a, action.b);
  case Kind::Backward:
    return backward(action.a);
  case Kind::Store:
    if (slotState[action.a] != kEmpty)
      return "slot is occupied";
    occupy(action.a);
    return "";
  case Kind::Load:
  case Kind::Free:
    if (slotState[action.a] == kEmpty)
      return "slot is empty";
    if (action.kind == Kind::Load) {
      current = unsigned(slotState[action.a]);
      return "";
    }
    --storedCount[slotState[action.a]];
    slotState[action.a] = kEmpty;
    --used;
    return "";
  }
  return "unknown action";
}

ScheduleStats Simulator::finish(std::string error, size_t failedAt,
                                const Action *bad) {
  if (!error.empty() && bad)
    stats.error = "action " + std::to_string(failedAt) + " (" + bad->str() +
                  "): " + error;
  else if (!error.empty())
    stats.error = error;
  else if (nextBackward != 0)
    stats.error = "schedule ended before backward step " +
                  std::to_string(nextBackward);
  stats.ok = stats.error.empty();
  for (unsigned count : computeCount)
    stats.repetition = std::max(stats.repetition, count);
  return stats;
}

} // namespace

ScheduleStats stax::simulate(llvm::ArrayRef<CheckpointAction> schedule,
                             unsigned l, unsigned slots) {
  Simulator sim(l, slots);
  if (slots == 0)
    return sim.finish("no slot for z_0", 0, nullptr);
  for (size_t i = 0; i < schedule.size(); ++i)
    if (std::string error = sim.step(schedule[i]); !error.empty())
      return sim.finish(error, i, &schedule[i]);
  return sim.finish("", schedule.size(), nullptr);
}
