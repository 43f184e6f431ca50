//===- Rematerialization.cpp - min-cut save/recompute model ---------------===//

#include "Stax/Analysis/Rematerialization.h"
#include <algorithm>
#include <cassert>

using namespace mlir;

using namespace mlir::stax;

namespace {

/// A non-negative integer in base 10^9, least significant limb first. c(v)
/// is computed exactly with these because 1.1^d is not representable in
/// binary floating point: a product such as 10 * 1.1 would truncate to 10
/// instead of 11. Base 10^9 makes the final division by 10^d mostly a
/// matter of dropping limbs.
using Limbs = std::vector<uint32_t>;
constexpr uint64_t kBase = 1000000000;

Limbs toLimbs(uint64_t x) {
  Limbs limbs;
  for (; x; x /= kBase)
    limbs.push_back(x % kBase);
  return limbs;
}

/// factor < 2^32, so limb * factor + carry fits in 64 bits.
void multiplyBy(Limbs &limbs, uint64_t factor) {
  uint64_t carry = 0;
  for (uint32_t &limb : limbs) {
    uint64_t p = limb * factor + carry;
    limb = p % kBase;
    carry = p / kBase;
  }
  for (; carry; carry /= kBase)
    limbs.push_back(carry % kBase);
}

uint64_t pow11(unsigned k) {
  uint64_t p = 1;
  while (k--)
    p *= 11;
  return p;
}

/// floor(value / 10^shift), saturated to kInfinite.
int64_t shiftRightSaturating(Limbs limbs, unsigned shift) {
  limbs.erase(limbs.begin(),
              limbs.begin() + std::min<size_t>(shift / 9, limbs.size()));
  uint64_t divisor = 1, rem = 0;
  for (unsigned i = 0; i < shift % 9; ++i)
    divisor *= 10;
  uint64_t result = 0;
  for (size_t i = limbs.size(); i-- > 0;) {
    uint64_t cur = rem * kBase + limbs[i]; // < 10^8 * 10^9 + 10^9
    uint64_t digit = cur / divisor;
    rem = cur % divisor;
    if (result > (uint64_t(kInfinite) - digit) / kBase)
      return kInfinite;
    result = result * kBase + digit;
  }
  return int64_t(result);
}

} // namespace

int64_t stax::rematCapacity(const ForwardValue &value) {
  if (value.neverSave)
    return kInfinite;
  assert(value.bytes >= 0 && "negative byte count");
  uint64_t beta = value.mustBeWrittenInForward ? 1 : 2;
  unsigned d = std::clamp<int64_t>(value.distance, 1, kNoBackwardReader);
  // beta * bytes * 1.1^d = beta * bytes * 11^d / 10^d, exactly.
  Limbs limbs = toLimbs(beta * uint64_t(value.bytes));
  for (unsigned i = 0; i < d; i += 8) // 11^8 < 2^32
    multiplyBy(limbs, pow11(std::min(d - i, 8u)));
  return shiftRightSaturating(std::move(limbs), d);
}

namespace {

FlowNetwork buildNetwork(const RematProblem &problem,
                         llvm::ArrayRef<int64_t> capacities,
                         FlowNetwork::NodeId &source,
                         FlowNetwork::NodeId &sink) {
  using R = RematSolution;
  unsigned n = problem.values.size();
  FlowNetwork network;
  network.addNodes(2 * n);
  source = network.addNode();
  sink = network.addNode();
  // Split edges first, so that edge v is the split edge of value v.
  for (unsigned v = 0; v < n; ++v)
    network.addEdge(R::inNode(v), R::outNode(v), capacities[v]);
  for (auto [u, v] : problem.deps) {
    assert(u < v && v < n && "deps must follow the topological order");
    network.addEdge(R::outNode(u), R::inNode(v), kInfinite);
  }
  for (unsigned v = 0; v < n; ++v) {
    if (problem.values[v].inU)
      network.addEdge(source, R::inNode(v), kInfinite);
    if (problem.values[v].inB)
      network.addEdge(R::outNode(v), sink, kInfinite);
  }
  return network;
}

} // namespace

RematSolution stax::solveRematerialization(const RematProblem &problem,
                                           MaxFlowAlgorithm algorithm) {
  RematSolution sol;
  unsigned n = problem.values.size();
  for (const ForwardValue &value : problem.values)
    sol.capacities.push_back(rematCapacity(value));
  sol.network = buildNetwork(problem, sol.capacities, sol.source, sol.sink);
  sol.flow = maxFlow(sol.network, sol.source, sol.sink, algorithm);
  sol.maxFlow = sol.flow.value;
  sol.fallback = sol.flow.isInfinite;
  // Without a finite cut some value of B can be neither saved nor
  // recomputed; the spec then saves everything the backward reads.
  for (unsigned v = 0; v < n; ++v) {
    bool cut = sol.flow.sourceSide[RematSolution::inNode(v)] &&
               !sol.flow.sourceSide[RematSolution::outNode(v)];
    if (sol.fallback ? problem.values[v].inB : cut)
      sol.saved.push_back(v);
  }
  return sol;
}

bool stax::isFeasibleSaveSet(const RematProblem &problem,
                             llvm::ArrayRef<unsigned> saved) {
  unsigned n = problem.values.size();
  std::vector<bool> inC(n, false), tainted(n, false);
  for (unsigned v : saved)
    inC[v] = true;
  std::vector<llvm::SmallVector<unsigned, 4>> users(n);
  for (auto [u, v] : problem.deps)
    users[u].push_back(v);
  // tainted[v]: some path from U reaches v avoiding C. Topological order
  // means every predecessor of v is final before v is visited.
  for (unsigned u = 0; u < n; ++u) {
    if (problem.values[u].inU && !inC[u])
      tainted[u] = true;
    if (!tainted[u])
      continue;
    if (problem.values[u].inB)
      return false;
    for (unsigned v : users[u])
      tainted[v] = tainted[v] || !inC[v];
  }
  return true;
}

std::optional<SaveSetChoice>
stax::bruteForceMinSaveSet(const RematProblem &problem) {
  unsigned n = problem.values.size();
  assert(n <= 20 && "brute force is exponential");
  std::vector<int64_t> capacities;
  for (const ForwardValue &value : problem.values)
    capacities.push_back(rematCapacity(value));
  std::optional<SaveSetChoice> best;
  for (uint32_t mask = 0; mask < (uint32_t(1) << n); ++mask) {
    SaveSetChoice choice;
    for (unsigned v = 0; v < n; ++v)
      if (mask >> v & 1) {
        choice.saved.push_back(v);
        choice.cost = saturatingAdd(choice.cost, capacities[v]);
      }
    if (choice.cost == kInfinite || (best && choice.cost >= best->cost))
      continue;
    if (isFeasibleSaveSet(problem, choice.saved))
      best = std::move(choice);
  }
  return best;
}
