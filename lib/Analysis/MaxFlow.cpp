//===- MaxFlow.cpp - Edmonds-Karp and Dinic max flow ----------------------===//
//
// Both algorithms run on the same residual graph: edge e of the network
// becomes arc 2e (forward, residual = capacity) and arc 2e+1 (reverse,
// residual = flow on e). Arcs are grouped by tail in CSR form so that a
// search touches only contiguous memory. Everything is iterative: networks
// built from long chains have paths of 100k+ nodes, which would overflow the
// stack of a recursive DFS.
//
//===----------------------------------------------------------------------===//

#include "Stax/Analysis/MaxFlow.h"
#include <algorithm>
#include <cassert>

using namespace mlir;

using namespace mlir::stax;
using NodeId = FlowNetwork::NodeId;

int64_t stax::saturatingAdd(int64_t a, int64_t b) {
  assert(a >= 0 && b >= 0 && "saturatingAdd expects non-negative operands");
  return a > kInfinite - b ? kInfinite : a + b;
}

NodeId FlowNetwork::addNodes(unsigned n) {
  NodeId first = numNodesValue;
  numNodesValue += n;
  return first;
}

FlowNetwork::EdgeId FlowNetwork::addEdge(NodeId from, NodeId to,
                                         int64_t capacity) {
  assert(from < numNodesValue && to < numNodesValue && "unknown node");
  assert(capacity >= 0 && "capacities must be non-negative");
  edgeList.push_back({from, to, capacity});
  return edgeList.size() - 1;
}

namespace {

/// The residual network in CSR form.
class Residual {
public:
  explicit Residual(const FlowNetwork &network);

  unsigned numNodes() const { return firstArc.size() - 1; }
  NodeId head(unsigned arc) const { return arcHead[arc]; }
  NodeId tail(unsigned arc) const { return head(arc ^ 1); }
  llvm::ArrayRef<unsigned> arcsOf(NodeId u) const {
    return llvm::ArrayRef<unsigned>(arcs).slice(firstArc[u],
                                                firstArc[u + 1] - firstArc[u]);
  }

  /// Moves `f` units along `arc`. An infinite residual stays infinite: that
  /// is what makes an infinite edge never saturate.
  void push(unsigned arc, int64_t f) {
    if (residual[arc] != kInfinite)
      residual[arc] -= f;
    if (residual[arc ^ 1] != kInfinite)
      residual[arc ^ 1] = saturatingAdd(residual[arc ^ 1], f);
  }
  int64_t bottleneck(llvm::ArrayRef<unsigned> path) const {
    int64_t f = kInfinite;
    for (unsigned arc : path)
      f = std::min(f, residual[arc]);
    return f;
  }
  int64_t augment(llvm::ArrayRef<unsigned> path) {
    int64_t f = bottleneck(path);
    // An all-infinite path was ruled out before the search started, and no
    // arc gains infinite residual later, so f is finite.
    assert(f < kInfinite && "augmenting path of infinite capacity");
    for (unsigned arc : path)
      push(arc, f);
    return f;
  }

  /// BFS from s over arcs accepted by `usable`; fills `parentArc` (or
  /// ~0u) and returns the visited set. Stops as soon as `stopAt` is seen:
  /// Edmonds-Karp needs one shortest path, not the whole search tree.
  template <typename Pred>
  std::vector<bool> bfs(NodeId s, Pred usable,
                        std::vector<unsigned> *parentArc = nullptr,
                        NodeId stopAt = ~0u) const;

  std::vector<unsigned> firstArc; // CSR offsets, size numNodes + 1
  std::vector<unsigned> arcs;     // arc ids grouped by tail
  std::vector<NodeId> arcHead;    // indexed by arc id
  std::vector<int64_t> residual;  // indexed by arc id
};

Residual::Residual(const FlowNetwork &network) {
  unsigned n = network.numNodes(), m = network.numEdges();
  firstArc.assign(n + 1, 0);
  residual.resize(2 * m);
  arcHead.resize(2 * m);
  for (unsigned e = 0; e < m; ++e) {
    arcHead[2 * e] = network.edge(e).to;
    arcHead[2 * e + 1] = network.edge(e).from;
    ++firstArc[network.edge(e).from + 1];
    ++firstArc[network.edge(e).to + 1];
    residual[2 * e] = std::min(network.edge(e).capacity, kInfinite);
    residual[2 * e + 1] = 0;
  }
  for (unsigned u = 0; u < n; ++u)
    firstArc[u + 1] += firstArc[u];
  arcs.resize(2 * m);
  std::vector<unsigned> fill(firstArc.begin(), firstArc.end() - 1);
  for (unsigned arc = 0; arc < 2 * m; ++arc)
    arcs[fill[tail(arc)]++] = arc;
}

template <typename Pred>
std::vector<bool> Residual::bfs(NodeId s, Pred usable,
                                std::vector<unsigned> *parentArc,
                                NodeId stopAt) const {
  std::vector<bool> seen(numNodes(), false);
  if (parentArc)
    parentArc->assign(numNodes(), ~0u);
  std::vector<NodeId> queue{s};
  seen[s] = true;
  for (size_t i = 0; i < queue.size(); ++i) {
    for (unsigned arc : arcsOf(queue[i])) {
      NodeId v = head(arc);
      if (seen[v] || !usable(arc))
        continue;
      seen[v] = true;
      if (parentArc)
        (*parentArc)[v] = arc;
      if (v == stopAt)
        return seen;
      queue.push_back(v);
    }
  }
  return seen;
}

/// Edmonds-Karp: augment along a BFS-shortest path until none remains.
int64_t runEdmondsKarp(Residual &r, NodeId s, NodeId t) {
  int64_t total = 0;
  std::vector<unsigned> parentArc;
  llvm::SmallVector<unsigned> path;
  auto positive = [&](unsigned arc) { return r.residual[arc] > 0; };
  while (r.bfs(s, positive, &parentArc, t)[t]) {
    path.clear();
    for (NodeId v = t; v != s; v = r.tail(parentArc[v]))
      path.push_back(parentArc[v]);
    total = saturatingAdd(total, r.augment(path));
  }
  return total;
}

/// BFS distances from s over positive arcs; -1 for unreachable nodes.
std::vector<int> levelGraph(const Residual &r, NodeId s) {
  std::vector<int> level(r.numNodes(), -1);
  std::vector<NodeId> queue{s};
  level[s] = 0;
  for (size_t i = 0; i < queue.size(); ++i)
    for (unsigned arc : r.arcsOf(queue[i]))
      if (r.residual[arc] > 0 && level[r.head(arc)] < 0) {
        level[r.head(arc)] = level[queue[i]] + 1;
        queue.push_back(r.head(arc));
      }
  return level;
}

/// One blocking flow on the level graph, by iterative DFS with current-arc
/// pointers (`next`), so every arc is abandoned at most once per phase.
int64_t blockingFlow(Residual &r, std::vector<int> &level, NodeId s,
                     NodeId t) {
  std::vector<unsigned> next(r.firstArc.begin(), r.firstArc.end() - 1);
  llvm::SmallVector<unsigned> path;
  int64_t total = 0;
  NodeId u = s;
  while (true) {
    if (u == t) {
      total = saturatingAdd(total, r.augment(path));
      // Resume from the tail of the first saturated arc: the prefix before
      // it still has residual capacity.
      auto sat = llvm::find_if(path, [&](unsigned a) { return !r.residual[a]; });
      path.erase(sat, path.end());
      u = path.empty() ? s : r.head(path.back());
      continue;
    }
    unsigned end = r.firstArc[u + 1];
    while (next[u] < end) {
      unsigned arc = r.arcs[next[u]];
      if (r.residual[arc] > 0 && level[r.head(arc)] == level[u] + 1)
        break;
      ++next[u];
    }
    if (next[u] < end) {
      path.push_back(r.arcs[next[u]]);
      u = r.head(path.back());
      continue;
    }
    // Dead end: prune u from this phase and retreat one arc.
    level[u] = -1;
    if (path.empty())
      return total;
    u = r.tail(path.pop_back_val());
    ++next[u];
  }
}

int64_t runDinic(Residual &r, NodeId s, NodeId t) {
  int64_t total = 0;
  for (std::vector<int> level = levelGraph(r, s); level[t] >= 0;
       level = levelGraph(r, s))
    total = saturatingAdd(total, blockingFlow(r, level, s, t));
  return total;
}

} // namespace

MaxFlowResult stax::maxFlow(const FlowNetwork &network, NodeId s, NodeId t,
                            MaxFlowAlgorithm algorithm) {
  assert(s != t && s < network.numNodes() && t < network.numNodes());
  Residual r(network);
  MaxFlowResult result;
  // An s-t path of infinite edges means every cut is infinite; detect it
  // first so the algorithms only ever see finite bottlenecks.
  auto infinite = [&](unsigned arc) { return r.residual[arc] == kInfinite; };
  if (r.bfs(s, infinite)[t]) {
    result.isInfinite = true;
    result.value = kInfinite;
    result.sourceSide =
        r.bfs(s, [&](unsigned arc) { return r.residual[arc] > 0; });
    return result;
  }
  int64_t value = algorithm == MaxFlowAlgorithm::Dinic
                      ? runDinic(r, s, t)
                      : runEdmondsKarp(r, s, t);
  // Keep a finite cut distinguishable from an infinite one.
  result.value = std::min(value, kInfinite - 1);
  result.edgeFlow.resize(network.numEdges());
  for (unsigned e = 0; e < network.numEdges(); ++e)
    result.edgeFlow[e] = r.residual[2 * e + 1];
  result.sourceSide =
      r.bfs(s, [&](unsigned arc) { return r.residual[arc] > 0; });
  for (unsigned e = 0; e < network.numEdges(); ++e)
    if (result.sourceSide[network.edge(e).from] &&
        !result.sourceSide[network.edge(e).to])
      result.cutEdges.push_back(e);
  return result;
}

int64_t stax::cutCapacity(const FlowNetwork &network,
                          const std::vector<bool> &sourceSide) {
  int64_t total = 0;
  for (const FlowNetwork::Edge &e : network.edges())
    if (sourceSide[e.from] && !sourceSide[e.to])
      total = saturatingAdd(total, e.capacity);
  return total;
}
