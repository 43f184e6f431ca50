//===- MaxFlow.h - maximum flow and minimum cut -----------------*- C++ -*-===//
//
// A directed flow network with int64 capacities and the maximum-flow /
// minimum-cut computation of the spec's Section 5.4 (Theorem 5.2). Two
// algorithms are provided: Edmonds-Karp (BFS shortest augmenting paths, the
// one the spec names) and Dinic (level graph + blocking flow, much faster on
// long networks). Both return the same flow value; the cut is always taken
// from residual reachability, so it is a minimum cut for either.
//
// Infinite capacities: an edge of capacity `kInfinite` never saturates and is
// never part of a cut. If s reaches t through infinite edges alone, the
// minimum cut is infinite; this is detected up front and reported through
// `isInfinite` instead of pushing an unbounded flow.
//
//===----------------------------------------------------------------------===//
#ifndef STAX_ANALYSIS_MAXFLOW_H
#define STAX_ANALYSIS_MAXFLOW_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include <cstdint>
#include <limits>
#include <vector>

namespace mlir::stax {

/// A capacity that never saturates. Any capacity >= kInfinite is treated as
/// infinite; finite capacities must be in [0, kInfinite).
inline constexpr int64_t kInfinite = std::numeric_limits<int64_t>::max();

/// a + b for non-negative a, b, clamped to kInfinite instead of overflowing.
int64_t saturatingAdd(int64_t a, int64_t b);

class FlowNetwork {
public:
  using NodeId = unsigned;
  using EdgeId = unsigned;

  struct Edge {
    NodeId from;
    NodeId to;
    int64_t capacity; // kInfinite for an infinite edge
  };

  NodeId addNode() { return numNodesValue++; }
  /// Adds `n` nodes and returns the id of the first.
  NodeId addNodes(unsigned n);
  /// Adds a directed edge; capacities above kInfinite are clamped to it and
  /// negative ones are an error (asserted).
  EdgeId addEdge(NodeId from, NodeId to, int64_t capacity);

  unsigned numNodes() const { return numNodesValue; }
  unsigned numEdges() const { return edgeList.size(); }
  const Edge &edge(EdgeId e) const { return edgeList[e]; }
  llvm::ArrayRef<Edge> edges() const { return edgeList; }

private:
  unsigned numNodesValue = 0;
  std::vector<Edge> edgeList;
};

enum class MaxFlowAlgorithm { EdmondsKarp, Dinic };

struct MaxFlowResult {
  /// The maximum flow value, equal to the minimum cut capacity. kInfinite
  /// when `isInfinite`. If the finite minimum cut exceeds the int64 range
  /// the value saturates just below kInfinite (the cut itself stays exact).
  int64_t value = 0;
  /// True when s reaches t along infinite edges: no finite cut exists.
  bool isInfinite = false;
  /// Flow on each edge of the network (indexed by EdgeId); empty when
  /// `isInfinite`.
  std::vector<int64_t> edgeFlow;
  /// sourceSide[v]: v is reachable from s in the residual network (the set S
  /// of Theorem 5.2). When `isInfinite`, the nodes reachable from s.
  std::vector<bool> sourceSide;
  /// Edges from S to its complement, in EdgeId order; all saturated, all
  /// finite. Empty when `isInfinite`.
  llvm::SmallVector<FlowNetwork::EdgeId> cutEdges;
};

/// Computes a maximum s-t flow of `network` and the minimum cut given by
/// residual reachability from `s`. Requires s != t.
MaxFlowResult maxFlow(const FlowNetwork &network, FlowNetwork::NodeId s,
                      FlowNetwork::NodeId t,
                      MaxFlowAlgorithm algorithm = MaxFlowAlgorithm::Dinic);

/// Sum of the capacities of the edges from `sourceSide` to its complement
/// (saturating; kInfinite if an infinite edge crosses).
int64_t cutCapacity(const FlowNetwork &network,
                    const std::vector<bool> &sourceSide);

} // namespace mlir::stax

#endif // STAX_ANALYSIS_MAXFLOW_H
