//===- Checkpointing.h - chain reversal schedules ---------------*- C++ -*-===//
//
// Checkpoint schedules for reversing a chain z_k = phi_k(z_{k-1}), k = 1..l,
// under a storage budget (the spec's Section 5.8, Definition 5.3). State
// z_0 starts both current and stored in slot 0. A schedule is a list of
// actions; `simulate` executes one and checks it.
//
//  - uniformSchedule: Theorem 5.3, c equal segments, every step computed at
//    most twice, peak storage <= c + l/c.
//  - revolveSchedule: Theorem 5.4, Griewank's binomial checkpointing with s
//    slots and the least repetition t such that C(s+t, s) >= l.
//
//===----------------------------------------------------------------------===//
#ifndef STAX_ANALYSIS_CHECKPOINTING_H
#define STAX_ANALYSIS_CHECKPOINTING_H

#include "llvm/ADT/ArrayRef.h"
#include <cstdint>
#include <string>
#include <vector>

namespace mlir::stax {

/// The reversal schedules of Section 5.8.
enum class CheckpointScheduleKind {
  Uniform, // sqrt(l) segments (Theorem 5.3)
  Revolve, // binomial, s slots (Theorem 5.4)
};

struct CheckpointAction {
  enum class Kind {
    Advance,  // compute z_from -> z_to (steps from+1..to); z_from current
    Store,    // write the current state into free slot `a`
    Load,     // make the state in slot `a` current
    Free,     // release slot `a`
    Backward, // backward step k = `a`: needs z_{k-1} and zbar_k
  };
  Kind kind;
  unsigned a = 0;
  unsigned b = 0; // Advance only: the target state

  static CheckpointAction advance(unsigned from, unsigned to) {
    return {Kind::Advance, from, to};
  }
  static CheckpointAction store(unsigned slot) { return {Kind::Store, slot}; }
  static CheckpointAction load(unsigned slot) { return {Kind::Load, slot}; }
  static CheckpointAction free(unsigned slot) { return {Kind::Free, slot}; }
  static CheckpointAction backward(unsigned k) { return {Kind::Backward, k}; }

  bool operator==(const CheckpointAction &o) const {
    return kind == o.kind && a == o.a && b == o.b;
  }
  /// "advance 0->3", "store 1", "load 0", "free 1", "backward 4".
  std::string str() const;
};

using CheckpointSchedule = std::vector<CheckpointAction>;

/// C(s + t, s), saturating at UINT64_MAX.
uint64_t binomial(unsigned s, unsigned t);
/// beta(s, t), the longest chain reversible with s slots and repetition t,
/// from the recurrence beta(s,t) = beta(s,t-1) + beta(s-1,t) with
/// beta(s,0) = beta(0,t) = 1 (saturating). Equals binomial(s, t).
uint64_t maxChainLength(unsigned s, unsigned t);
/// The least t with binomial(s, t) >= l (s >= 1).
unsigned minRepetition(uint64_t l, unsigned s);

/// Theorem 5.3 with c segments (clamped to [1, l]); c = 0 means
/// ceil(sqrt(l)). Uses slots 0..c-1 for checkpoints and c.. for the states
/// of the segment being reversed.
CheckpointSchedule uniformSchedule(unsigned l, unsigned c = 0);

/// Binomial checkpointing with s >= 1 slots (slot 0 holds z_0) and
/// repetition minRepetition(l, s).
CheckpointSchedule revolveSchedule(unsigned l, unsigned s);

struct ScheduleStats {
  /// The schedule was legal and ran backward steps l, l-1, ..., 1.
  bool ok = false;
  /// The first violation, with the index of the offending action.
  std::string error;
  unsigned backwardSteps = 0; // backward steps executed
  unsigned maxSlotsUsed = 0;  // peak number of occupied slots
  unsigned repetition = 0;    // max times any forward step was computed
  uint64_t totalForwardSteps = 0;
};

/// Executes `schedule` on a chain of l steps with `slots` slots (indices
/// 0..slots-1); z_0 starts current and in slot 0. Backward(k) accepts
/// z_{k-1} either current or in a slot (Definition 5.3).
ScheduleStats simulate(llvm::ArrayRef<CheckpointAction> schedule, unsigned l,
                       unsigned slots);

} // namespace mlir::stax

#endif // STAX_ANALYSIS_CHECKPOINTING_H
