//===- CheckpointChain.cpp - the chain of layers of a joint graph ---------===//
//
// Builds the chain model of CheckpointChain.h: the forward nodes, the
// dominator chain of the sink, the segments and the backward groups.
//
//===----------------------------------------------------------------------===//

#include "Stax/Analysis/CheckpointChain.h"
#include "Stax/Dialect/Tp/IR/DiscardableAttrs.h"
#include "Stax/Dialect/Tp/IR/TpOps.h"
#include "llvm/ADT/BitVector.h"
#include <optional>

using namespace mlir;
using namespace mlir::stax;

bool stax::isFreeOp(Operation *op) {
  return op->hasTrait<OpTrait::tp::View>() ||
         isa<tp::FullOp, tp::ArangeOp, tp::ConstantOp>(op);
}

namespace {

/// The node operands of `op` (distinct, in operand order).
SmallVector<unsigned, 2> nodeOperands(const ChainModel &m, Operation *op) {
  SmallVector<unsigned, 2> out;
  for (Value v : op->getOperands()) {
    auto it = m.nodeIndex.find(v);
    if (it != m.nodeIndex.end() && !llvm::is_contained(out, it->second))
      out.push_back(it->second);
  }
  return out;
}

/// Collects the nodes and free values of the forward ops.
LogicalResult collectForward(ChainModel &m) {
  Block &body = m.fn.getBody().front();
  for (auto [i, op] : llvm::enumerate(body.without_terminator())) {
    m.position[&op] = i;
    if (!tp::isForward(&op))
      continue;
    bool free = isFreeOp(&op) && llvm::all_of(op.getOperands(), [&](Value v) {
                  return isa<BlockArgument>(v) || m.freeValues.contains(v);
                });
    for (Value r : op.getResults()) {
      if (free) {
        m.freeValues.insert(r);
        continue;
      }
      m.nodeIndex[r] = m.nodes.size();
      m.nodes.push_back(r);
    }
  }
  m.preds.resize(m.nodes.size());
  for (auto [i, v] : llvm::enumerate(m.nodes))
    m.preds[i] = nodeOperands(m, v.getDefiningOp());
  return success();
}

/// The dominator path of the virtual sink (outputs), from the first state.
/// Nodes are in topological order, so idom(v) < v and the two-finger
/// intersection of Cooper, Harvey and Kennedy needs no iteration.
SmallVector<unsigned> dominatorChain(const ChainModel &m) {
  constexpr int kSource = -1;
  SmallVector<int> idom(m.nodes.size(), kSource);
  auto intersect = [&](int a, int b) {
    while (a != b) {
      if (a > b)
        a = idom[a];
      else
        b = idom[b];
    }
    return a;
  };
  auto meet = [&](ArrayRef<unsigned> preds) {
    if (preds.empty())
      return kSource;
    int d = preds.front();
    for (unsigned p : preds.drop_front())
      d = intersect(d, p);
    return d;
  };
  for (unsigned v = 0; v < m.nodes.size(); ++v)
    idom[v] = meet(m.preds[v]);
  Operation *ret =
      const_cast<func::FuncOp &>(m.fn).getBody().front().getTerminator();
  SmallVector<unsigned> outputs;
  for (Value v : ret->getOperands().take_front(m.numOutputs)) {
    auto it = m.nodeIndex.find(v);
    if (it == m.nodeIndex.end())
      return {}; // an output that is a primal or free: no node dominates it
    outputs.push_back(it->second);
  }
  SmallVector<unsigned> chain;
  for (int d = outputs.empty() ? kSource : meet(outputs); d != kSource;
       d = idom[d])
    chain.push_back(d);
  std::reverse(chain.begin(), chain.end());
  return chain;
}

/// Assigns segments. Returns the chain states [first, last) to drop when a
/// node reads a value of an earlier segment other than the previous state,
/// or nullopt when the segments are consistent.
std::optional<std::pair<unsigned, unsigned>> assignSegments(ChainModel &m) {
  m.stateOf.clear();
  for (auto [j, node] : llvm::enumerate(m.chain))
    m.stateOf[node] = j;
  m.segment.assign(m.nodes.size(), 0);
  // Segment a reader of node u belongs to: after a state, the next one.
  auto after = [&](unsigned u) {
    auto it = m.stateOf.find(u);
    return it == m.stateOf.end() ? m.segment[u] : it->second + 1;
  };
  for (unsigned v = 0; v < m.nodes.size(); ++v) {
    unsigned k = 0;
    for (unsigned u : m.preds[v])
      k = std::max(k, after(u));
    if (auto it = m.stateOf.find(v); it != m.stateOf.end())
      k = it->second; // dominance: equal to the max above
    m.segment[v] = k;
    for (unsigned u : m.preds[v]) {
      // u is state z_j (j < k-1) or inside segment j < k: merge segments
      // after(u) .. k by dropping the states z_after(u) .. z_{k-1}.
      if (unsigned a = after(u); a != k)
        return std::make_pair(std::min(a, k), std::max(a, k));
    }
  }
  return std::nullopt;
}

/// Groups the backward ops. Returns the states [first, last) to drop when a
/// backward op needs forward values of a segment and adjoints that are only
/// available in an earlier group, or nullopt.
std::optional<std::pair<unsigned, unsigned>> assignGroups(ChainModel &m) {
  unsigned top = m.length() + 1;
  Block &body = m.fn.getBody().front();
  llvm::DenseMap<Operation *, unsigned> upper; // latest group allowed
  SmallVector<Operation *> backward;
  llvm::DenseSet<Operation *> unpinned;
  for (Operation &op : body.without_terminator()) {
    if (!tp::isBackward(&op))
      continue;
    unsigned lo = 0, hi = top;
    bool pinned = false, readsAdjoint = false;
    for (Value v : op.getOperands()) {
      if (Operation *def = v.getDefiningOp(); def && upper.count(def)) {
        hi = std::min(hi, upper[def]);
        readsAdjoint = true;
        continue;
      }
      auto it = m.nodeIndex.find(v);
      if (it == m.nodeIndex.end())
        continue; // primal, tangent or free value
      unsigned s = m.segment[it->second];
      bool isState = m.stateOf.count(it->second);
      pinned = true;
      lo = std::max(lo, s);
      hi = std::min(hi, isState ? s + 1 : s);
    }
    if (hi < lo)
      return std::make_pair(hi, lo);
    upper[&op] = hi;
    backward.push_back(&op);
    // Pinned ops, and ops reading adjoints (a weight gradient's mm, an
    // accumulation), run as early as their operands allow: that frees the
    // adjoints. Ops reading only primals and tangents (`t(W)`) move down to
    // their first user instead, below.
    if (!pinned && !readsAdjoint)
      unpinned.insert(&op);
  }
  // Latest placement of those: the highest group among their users (the
  // return counts as group 0), in reverse program order.
  llvm::DenseMap<Operation *, unsigned> group;
  for (Operation *op : llvm::reverse(backward)) {
    unsigned g = upper[op];
    if (unpinned.contains(op)) {
      g = 0;
      for (Operation *user : op->getUsers())
        if (auto it = group.find(user); it != group.end())
          g = std::max(g, it->second);
    }
    group[op] = g;
  }
  m.groups.clear();
  m.groups.resize(top + 1);
  for (Operation *op : backward)
    m.groups[group[op]].push_back(op);
  return std::nullopt;
}

} // namespace

FailureOr<ChainModel> stax::buildChainModel(func::FuncOp fn) {
  if (failed(tp::verifyJointFunction(fn)))
    return failure();
  std::optional<unsigned> outputs = tp::getJointOutputs(fn);
  ChainModel m;
  m.fn = fn;
  m.numOutputs = *outputs;
  if (failed(collectForward(m)))
    return failure();
  m.chain = dominatorChain(m);
  while (!m.chain.empty()) {
    auto drop = assignSegments(m);
    if (!drop)
      drop = assignGroups(m);
    if (!drop)
      break;
    // Keep z_{first-1}... : drop states first..last-1 (at least one).
    unsigned first = std::min(drop->first, drop->second - 1);
    m.chain.erase(m.chain.begin() + first, m.chain.begin() + drop->second);
  }
  return m;
}
