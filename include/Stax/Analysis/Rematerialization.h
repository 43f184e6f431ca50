//===- Rematerialization.h - min-cut save/recompute model -------*- C++ -*-===//
//
// The save-versus-recompute model of the spec's Section 5.4, independent of
// MLIR. The caller describes the forward values (in topological order) and
// their data dependences; the model decides which values the forward pass
// saves (the set C), minimizing the summed capacity c(v) over all feasible
// save sets (Definition 5.1) via a minimum cut of the rematerialization
// network (Definition 5.2, Proposition 5.1).
//
//===----------------------------------------------------------------------===//
#ifndef STAX_ANALYSIS_REMATERIALIZATION_H
#define STAX_ANALYSIS_REMATERIALIZATION_H

#include "Stax/Analysis/MaxFlow.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

namespace mlir::stax {

/// d(v) for a value no backward node reads (the upper clamp of d).
inline constexpr int64_t kNoBackwardReader = 100;

struct ForwardValue {
  int64_t bytes = 0;
  /// In U: must not be recomputed in the backward (rules 1-3 of 5.4).
  bool inU = false;
  /// In B: read by the backward pass.
  bool inB = false;
  /// The forward writes it to memory anyway (beta = 1); else beta = 2.
  bool mustBeWrittenInForward = false;
  /// Forward steps to its first backward reader; clamped to [1, 100].
  int64_t distance = kNoBackwardReader;
  /// Never saved (an infinite split edge): views, which are free to
  /// recompute from the value they view.
  bool neverSave = false;
};

struct RematProblem {
  /// Forward values 0..n-1 in topological order.
  std::vector<ForwardValue> values;
  /// Data dependences u -> v (v reads u); requires u < v.
  std::vector<std::pair<unsigned, unsigned>> deps;
};

/// c(v) = trunc(beta * bytes * 1.1^d), d clamped to [1, 100], computed
/// exactly (integer arithmetic, no rounding before the truncation).
/// Saturates to kInfinite when the product exceeds int64: such a value can
/// never be saved (its split edge is never cut).
int64_t rematCapacity(const ForwardValue &value);

struct RematSolution {
  /// c(v) per value.
  std::vector<int64_t> capacities;
  /// The network of Definition 5.2: value v has nodes inNode(v) = 2v and
  /// outNode(v) = 2v + 1; then the source and the sink. The split edge of v
  /// is edge v.
  FlowNetwork network;
  FlowNetwork::NodeId source = 0, sink = 0;
  static FlowNetwork::NodeId inNode(unsigned v) { return 2 * v; }
  static FlowNetwork::NodeId outNode(unsigned v) { return 2 * v + 1; }
  static FlowNetwork::EdgeId splitEdge(unsigned v) { return v; }

  MaxFlowResult flow;
  /// The max-flow value (= sum of c(v) over `saved` unless `fallback`).
  int64_t maxFlow = 0;
  /// True when no finite cut exists; then `saved` is all of B.
  bool fallback = false;
  /// The save set C, ascending by forward position.
  llvm::SmallVector<unsigned> saved;
};

/// Builds the network of Definition 5.2 and cuts it.
RematSolution
solveRematerialization(const RematProblem &problem,
                       MaxFlowAlgorithm algorithm = MaxFlowAlgorithm::Dinic);

/// Definition 5.1: every path from a U value to a B value (endpoints
/// included) contains a value of `saved`.
bool isFeasibleSaveSet(const RematProblem &problem,
                       llvm::ArrayRef<unsigned> saved);

struct SaveSetChoice {
  llvm::SmallVector<unsigned> saved; // ascending
  int64_t cost = 0;                  // sum of c(v), saturating
};

/// Reference solver for tests: enumerates all 2^n subsets (n <= 20) and
/// returns the cheapest feasible one with finite cost, or nullopt when every
/// feasible set has infinite cost.
std::optional<SaveSetChoice> bruteForceMinSaveSet(const RematProblem &problem);

} // namespace mlir::stax

#endif // STAX_ANALYSIS_REMATERIALIZATION_H
