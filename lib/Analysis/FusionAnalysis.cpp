//===- FusionAnalysis.cpp - which stax nodes share a kernel ---------------===//
//
// The analysis half of --stax-fuse (Section 6.7); Fuse.cpp does the rewrite.
//
// After lowering, a function is a sequence of materialized nodes. Composition
// (Property 6.1) already fused every pointwise chain into its reader; what is
// left are values that had to be written to memory: reduction results, and
// values with several readers. The plan groups such nodes into
// `stax.kernel`s that run as one loop nest over shared outer loops, so that a
// value produced and consumed at the same outer index never leaves the
// kernel (softmax: the row max, the exp, the row sum and the division, one
// row at a time).
//
// Candidates are scored by the bytes of global memory traffic they save,
// computed from the read/write sets of the node bodies (Section 6.7), and
// merged greedily, best first. A merge is legal when
//  - the nodes share at least one outer loop, and every reduction's output
//    loops are outer loops (its result is complete at the end of one outer
//    iteration);
//  - every read of a buffer produced in the kernel is at the reader's own
//    outer indices (proved on the affine load address);
//  - no dependence path leaves the kernel and comes back (through a kept tp
//    op, a scatter or another kernel), which would need a global barrier.
// Kernels only regroup nodes that run in order, so values never change.
//
//===----------------------------------------------------------------------===//
#include "Stax/Analysis/FusionAnalysis.h"
#include "Stax/Dialect/Stax/IR/StaxOps.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/AffineExprVisitor.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <queue>

using namespace mlir;
using namespace mlir::stax;

namespace {

//===----------------------------------------------------------------------===//
// Addresses
//===----------------------------------------------------------------------===//

/// `constant + sum coeffs[a] * a` over the body's block arguments `a`.
struct LinearIndex {
  llvm::SmallDenseMap<unsigned, int64_t> coeffs;
  int64_t constant = 0;

  bool isConstant() const { return coeffs.empty(); }
  void addScaled(const LinearIndex &o, int64_t scale) {
    for (auto [arg, c] : o.coeffs)
      if ((coeffs[arg] += c * scale) == 0)
        coeffs.erase(arg);
    constant += o.constant * scale;
  }
};

FailureOr<LinearIndex> linearize(Value v, Block *body);

/// Linear affine expressions only: a floordiv/mod (a reshape's view) could
/// map one reader index to another outer index, so it is a barrier.
FailureOr<LinearIndex> linearizeExpr(AffineExpr e,
                                     ArrayRef<LinearIndex> dims,
                                     ArrayRef<LinearIndex> syms) {
  if (auto d = dyn_cast<AffineDimExpr>(e))
    return dims[d.getPosition()];
  if (auto s = dyn_cast<AffineSymbolExpr>(e))
    return syms[s.getPosition()];
  if (auto c = dyn_cast<AffineConstantExpr>(e)) {
    LinearIndex r;
    r.constant = c.getValue();
    return r;
  }
  auto bin = cast<AffineBinaryOpExpr>(e);
  FailureOr<LinearIndex> l = linearizeExpr(bin.getLHS(), dims, syms);
  FailureOr<LinearIndex> r = linearizeExpr(bin.getRHS(), dims, syms);
  if (failed(l) || failed(r))
    return failure();
  LinearIndex out;
  if (e.getKind() == AffineExprKind::Add) {
    out.addScaled(*l, 1);
    out.addScaled(*r, 1);
    return out;
  }
  if (e.getKind() != AffineExprKind::Mul)
    return failure();
  if (r->isConstant())
    out.addScaled(*l, r->constant);
  else if (l->isConstant())
    out.addScaled(*r, l->constant);
  else
    return failure();
  return out;
}

/// The address as a linear function of the loop indices of `body`, or
/// failure when it is data-dependent (stax.indirect_index) or non-linear.
FailureOr<LinearIndex> linearize(Value v, Block *body) {
  LinearIndex r;
  if (auto arg = dyn_cast<BlockArgument>(v)) {
    if (arg.getOwner() != body)
      return failure();
    r.coeffs[arg.getArgNumber()] = 1;
    return r;
  }
  if (auto c = v.getDefiningOp<arith::ConstantIndexOp>()) {
    r.constant = c.value();
    return r;
  }
  auto apply = v.getDefiningOp<affine::AffineApplyOp>();
  if (!apply)
    return failure();
  AffineMap map = apply.getAffineMap();
  SmallVector<LinearIndex> operands;
  for (Value o : apply.getMapOperands()) {
    FailureOr<LinearIndex> l = linearize(o, body);
    if (failed(l))
      return failure();
    operands.push_back(*l);
  }
  ArrayRef<LinearIndex> all(operands);
  return linearizeExpr(map.getResult(0), all.take_front(map.getNumDims()),
                       all.drop_front(map.getNumDims()));
}

//===----------------------------------------------------------------------===//
// Nodes
//===----------------------------------------------------------------------===//

/// What fusion needs to know of a pointwise or reduction node.
struct NodeInfo {
  Operation *op = nullptr;
  /// The outer loops: the iteration range (pointwise) or the output loops
  /// (reduction); the body's first block arguments.
  SmallVector<int64_t> loops;
  /// The range of every block argument of the body (loops, then reduction).
  SmallVector<int64_t> argRanges;
  /// Storage strides per loop and offset; empty `strides` when unknown.
  SmallVector<int64_t> strides;
  int64_t offset = 0;
  bool isReduction = false;
};

SmallVector<int64_t> rowMajor(ArrayRef<int64_t> shape) {
  SmallVector<int64_t> s(shape.size(), 1);
  for (int i = static_cast<int>(shape.size()) - 2; i >= 0; --i)
    s[i] = s[i + 1] * shape[i + 1];
  return s;
}

std::optional<NodeInfo> getNodeInfo(Operation *op) {
  NodeInfo info;
  info.op = op;
  stax::LayoutAttr layout;
  bool explicitRanges = false;
  if (auto p = dyn_cast<stax::PointwiseOp>(op)) {
    info.loops.assign(p.getIterationRanges().begin(),
                      p.getIterationRanges().end());
    info.argRanges = info.loops;
    layout = p.getLayout();
    explicitRanges = static_cast<bool>(p.getRangesAttr());
  } else if (auto r = dyn_cast<stax::ReductionOp>(op)) {
    info.loops.assign(r.getIterationRanges().begin(),
                      r.getIterationRanges().end());
    info.argRanges = info.loops;
    llvm::append_range(info.argRanges, r.getReductionRanges());
    layout = r.getLayout();
    explicitRanges = static_cast<bool>(r.getRangesAttr());
    info.isReduction = true;
  } else {
    return std::nullopt;
  }
  if (!layout.getFlexible()) {
    if (layout.getStrides().size() == info.loops.size())
      info.strides.assign(layout.getStrides().begin(),
                          layout.getStrides().end());
    info.offset = layout.getOffset();
  } else if (!explicitRanges) {
    // A flexible layout is stored row-major (see LayoutAttr).
    info.strides = rowMajor(info.loops);
  }
  return info;
}

/// Bytes of one buffer in global memory.
int64_t bufferBytes(Value v) {
  auto t = cast<RankedTensorType>(v.getType());
  unsigned bits = t.getElementType().isIndex()
                      ? 64
                      : t.getElementType().getIntOrFloatBitWidth();
  return t.getNumElements() * std::max<int64_t>(1, (bits + 7) / 8);
}

std::string formatRanges(ArrayRef<int64_t> r) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << "[";
  llvm::interleaveComma(r, os);
  os << "]";
  return s;
}

/// How `load` (in `reader`) may read an element of `producer` that belongs
/// to another iteration of the first `k` outer loops; empty when it cannot.
/// The address must be `offset + sum_{j<k} strides[j] * i_j` plus terms that
/// each walk one inner dimension of the producer within its size: with an
/// injective layout, that is an element at the reader's own outer index.
std::string checkRead(const NodeInfo &reader, stax::LoadOp load,
                      const NodeInfo &producer, unsigned k) {
  if (producer.strides.empty())
    return "whose layout is unknown";
  Block *body = &reader.op->getRegion(0).front();
  FailureOr<LinearIndex> addr = linearize(load.getAddress(), body);
  if (failed(addr))
    return "at a data-dependent or non-affine position";
  if (addr->constant != producer.offset)
    return "at another outer index";
  SmallVector<bool> used(producer.loops.size(), false);
  for (unsigned j = 0; j < k; ++j) {
    int64_t c = addr->coeffs.lookup(j);
    if (c != producer.strides[j] && reader.argRanges[j] != 1)
      return "at another outer index";
  }
  for (auto [arg, c] : addr->coeffs) {
    if (arg < k)
      continue;
    // The widest unused inner dimension with this stride.
    int best = -1;
    for (unsigned d = k; d < producer.loops.size(); ++d)
      if (!used[d] && producer.strides[d] == c &&
          producer.loops[d] >= reader.argRanges[arg] &&
          (best < 0 || producer.loops[d] > producer.loops[best]))
        best = d;
    if (best < 0)
      return "at another outer index";
    used[best] = true;
  }
  return {};
}

//===----------------------------------------------------------------------===//
// Grouping
//===----------------------------------------------------------------------===//

struct Group {
  SmallVector<Operation *> members; // in block order
  unsigned outer = 0;               // number of shared outer loops
  bool fusible = false;
  bool alive = true;
};

struct Legality {
  unsigned outer = 0;
  std::string why; // empty when legal
};

class Fuser {
public:
  Fuser(Block &block, bool remarks) : block(block), remarks(remarks) {}
  FailureOr<SmallVector<FusionGroup>> run();

private:
  void buildGraph();
  unsigned groupOf(Operation *op) const { return groupIndex.lookup(op); }
  SetVector<unsigned> successors(unsigned g) const;
  Operation *pathBetween(unsigned from, unsigned to) const;
  int64_t traffic(ArrayRef<Operation *> ops) const;
  int64_t saving(unsigned a, unsigned b) const;
  Legality legality(unsigned a, unsigned b) const;
  std::string accessProblem(ArrayRef<Operation *> ops, unsigned k) const;
  SmallVector<std::pair<unsigned, unsigned>> candidates() const;
  void merge(unsigned a, unsigned b, const Legality &legal, int64_t saved);
  void remarkBarriers();
  FailureOr<SmallVector<FusionGroup>> order();

  Block &block;
  bool remarks;
  DenseMap<Operation *, unsigned> position;
  DenseMap<Operation *, unsigned> groupIndex;
  DenseMap<Operation *, NodeInfo> info;
  /// Values each top-level op uses that are defined outside it.
  DenseMap<Operation *, SmallVector<Value>> inputs;
  SmallVector<Group> groups;
};

/// Every value `op` uses (operands and loads in its body) defined outside.
SmallVector<Value> externalInputs(Operation *op) {
  SetVector<Value> vals;
  auto definedInside = [&](Value v) {
    if (Operation *def = v.getDefiningOp())
      return op->isAncestor(def);
    return op->isAncestor(cast<BlockArgument>(v).getOwner()->getParentOp());
  };
  op->walk([&](Operation *inner) {
    for (Value v : inner->getOperands())
      if (!definedInside(v))
        vals.insert(v);
  });
  return vals.takeVector();
}

void Fuser::buildGraph() {
  for (Operation &op : block.without_terminator()) {
    position[&op] = position.size();
    groupIndex[&op] = groups.size();
    Group g;
    g.members.push_back(&op);
    if (std::optional<NodeInfo> n = getNodeInfo(&op)) {
      info[&op] = *n;
      g.fusible = true;
      g.outer = n->loops.size();
    }
    groups.push_back(std::move(g));
    inputs[&op] = externalInputs(&op);
  }
}

/// Groups that read a value some member of `g` produces.
SetVector<unsigned> Fuser::successors(unsigned g) const {
  SetVector<unsigned> out;
  for (Operation *m : groups[g].members)
    for (Value r : m->getResults())
      for (Operation *user : r.getUsers()) {
        Operation *top = block.findAncestorOpInBlock(*user);
        if (top && top != block.getTerminator() && groupOf(top) != g)
          out.insert(groupOf(top));
      }
  return out;
}

/// The first op of a dependence path `from` -> X -> ... -> `to` through
/// another group X, or null: merging `from` and `to` would then need X
/// inside and outside the kernel at once (a global barrier).
Operation *Fuser::pathBetween(unsigned from, unsigned to) const {
  SmallVector<std::pair<unsigned, Operation *>> stack;
  DenseSet<unsigned> seen;
  for (unsigned s : successors(from))
    if (s != to)
      stack.push_back({s, groups[s].members.front()});
  while (!stack.empty()) {
    auto [g, first] = stack.pop_back_val();
    if (!seen.insert(g).second)
      continue;
    for (unsigned s : successors(g)) {
      if (s == to)
        return first;
      if (s != from)
        stack.push_back({s, first});
    }
  }
  return nullptr;
}

/// Global memory traffic of `ops` run as one kernel: every buffer read from
/// outside once, every result read outside (or returned) written once.
int64_t Fuser::traffic(ArrayRef<Operation *> ops) const {
  DenseSet<Operation *> inside(ops.begin(), ops.end());
  DenseSet<Value> reads;
  int64_t bytes = 0;
  for (Operation *op : ops) {
    for (Value v : inputs.lookup(op)) {
      Operation *def = v.getDefiningOp();
      if (isa<RankedTensorType>(v.getType()) && !inside.contains(def) &&
          reads.insert(v).second)
        bytes += bufferBytes(v);
    }
    for (Value r : op->getResults())
      if (llvm::any_of(r.getUsers(), [&](Operation *u) {
            return !inside.contains(block.findAncestorOpInBlock(*u));
          }))
        bytes += bufferBytes(r);
  }
  return bytes;
}

SmallVector<Operation *> unionOf(const Group &a, const Group &b,
                                 const DenseMap<Operation *, unsigned> &pos) {
  SmallVector<Operation *> ops(a.members);
  llvm::append_range(ops, b.members);
  llvm::sort(ops, [&](Operation *x, Operation *y) {
    return pos.lookup(x) < pos.lookup(y);
  });
  return ops;
}

int64_t Fuser::saving(unsigned a, unsigned b) const {
  return traffic(groups[a].members) + traffic(groups[b].members) -
         traffic(unionOf(groups[a], groups[b], position));
}

/// Why some read inside `ops` is not at the reader's own first `k` outer
/// indices; empty when every read is.
std::string Fuser::accessProblem(ArrayRef<Operation *> ops, unsigned k) const {
  DenseSet<Operation *> inside(ops.begin(), ops.end());
  for (Operation *reader : ops) {
    const NodeInfo &r = info.find(reader)->second;
    for (Value v : inputs.lookup(reader)) {
      Operation *def = v.getDefiningOp();
      if (!inside.contains(def))
        continue;
      for (OpOperand &use : v.getUses()) {
        if (!reader->isAncestor(use.getOwner()))
          continue;
        auto load = dyn_cast<stax::LoadOp>(use.getOwner());
        std::string why =
            load ? checkRead(r, load, info.find(def)->second, k)
                 : std::string("other than by a load");
        if (!why.empty())
          return llvm::formatv("'{0}' reads '{1}' {2}", reader->getName(),
                               def->getName(), why)
              .str();
      }
    }
  }
  return {};
}

Legality Fuser::legality(unsigned a, unsigned b) const {
  const Group &ga = groups[a], &gb = groups[b];
  if (!ga.fusible || !gb.fusible)
    return {0, "only pointwise and reduction nodes fuse"};
  SmallVector<Operation *> ops = unionOf(ga, gb, position);
  // The shared outer loops: the common prefix, not beyond either kernel's.
  ArrayRef<int64_t> first = info.find(ops.front())->second.loops;
  unsigned maxOuter = std::min(ga.outer, gb.outer);
  unsigned minOuter = 1;
  for (Operation *op : ops) {
    const NodeInfo &n = info.find(op)->second;
    unsigned common = 0;
    while (common < std::min<size_t>(maxOuter, n.loops.size()) &&
           n.loops[common] == first[common])
      ++common;
    maxOuter = common;
    // A reduction result is complete only at the end of its output loops.
    if (n.isReduction)
      for (unsigned d = 0; d < n.loops.size(); ++d)
        if (n.loops[d] != 1)
          minOuter = std::max(minOuter, d + 1);
  }
  if (maxOuter == 0)
    return {0, "no shared outer loop"};
  if (maxOuter < minOuter)
    return {0, llvm::formatv("a reduction's output loops are not shared "
                             "outer loops (shared: {0})",
                             formatRanges(first.take_front(maxOuter)))
                   .str()};
  Operation *via = pathBetween(a, b);
  if (!via)
    via = pathBetween(b, a);
  if (via)
    return {0, llvm::formatv("a dependence through '{0}' needs a global "
                             "barrier",
                             via->getName())
                   .str()};
  std::string why;
  for (unsigned k = maxOuter; k >= minOuter; --k) {
    std::string problem = accessProblem(ops, k);
    if (problem.empty())
      return {k, ""};
    if (why.empty())
      why = problem;
  }
  return {0, why};
}

/// Pairs of groups worth scoring: producer and reader, or two readers of a
/// common buffer (siblings such as mean and variance).
SmallVector<std::pair<unsigned, unsigned>> Fuser::candidates() const {
  SetVector<std::pair<unsigned, unsigned>> pairs;
  auto add = [&](unsigned x, unsigned y) {
    if (x != y && groups[x].fusible && groups[y].fusible)
      pairs.insert({std::min(x, y), std::max(x, y)});
  };
  DenseMap<Value, SmallVector<unsigned>> readers;
  for (auto [g, group] : llvm::enumerate(groups)) {
    if (!group.alive || !group.fusible)
      continue;
    for (unsigned s : successors(g))
      add(g, s);
    for (Operation *m : group.members)
      for (Value v : inputs.lookup(m))
        readers[v].push_back(g);
  }
  for (auto &[v, rs] : readers)
    for (unsigned i = 0; i < rs.size(); ++i)
      for (unsigned j = i + 1; j < rs.size(); ++j)
        add(rs[i], rs[j]);
  return pairs.takeVector();
}

void Fuser::merge(unsigned a, unsigned b, const Legality &legal,
                  int64_t saved) {
  if (groups[b].members.front()->isBeforeInBlock(groups[a].members.front()))
    std::swap(a, b);
  Group &ga = groups[a], &gb = groups[b];
  if (remarks)
    gb.members.front()->emitRemark()
        << "fused '" << gb.members.front()->getName() << "'"
        << (gb.members.size() > 1 ? " and its kernel" : "")
        << " into the kernel of '" << ga.members.front()->getName()
        << "' (outer ranges "
        << formatRanges(ArrayRef<int64_t>(
                            info.find(ga.members.front())->second.loops)
                            .take_front(legal.outer))
        << "): saves " << saved << " bytes";
  ga.members = unionOf(ga, gb, position);
  ga.outer = legal.outer;
  for (Operation *m : gb.members)
    groupIndex[m] = a;
  gb.alive = false;
  gb.members.clear();
}

/// A remark for every producer/reader pair left in different kernels.
void Fuser::remarkBarriers() {
  for (auto [g, group] : llvm::enumerate(groups)) {
    if (!group.alive || !group.fusible)
      continue;
    for (unsigned s : successors(g)) {
      if (!groups[s].fusible)
        continue;
      Legality legal = legality(g, s);
      std::string why = legal.why.empty() ? "saves no bytes" : legal.why;
      groups[s].members.front()->emitRemark()
          << "not fused with '" << group.members.front()->getName()
          << "': " << why;
    }
  }
}

FailureOr<SmallVector<FusionGroup>> Fuser::run() {
  buildGraph();
  while (true) {
    SmallVector<std::tuple<int64_t, unsigned, unsigned>> scored;
    for (auto [a, b] : candidates())
      if (int64_t s = saving(a, b); s > 0)
        scored.push_back({s, a, b});
    // Best first; ties in block order so that the result is deterministic.
    llvm::sort(scored, [](auto &x, auto &y) {
      return std::make_tuple(-std::get<0>(x), std::get<1>(x), std::get<2>(x)) <
             std::make_tuple(-std::get<0>(y), std::get<1>(y), std::get<2>(y));
    });
    bool merged = false;
    for (auto [s, a, b] : scored) {
      Legality legal = legality(a, b);
      if (!legal.why.empty())
        continue;
      merge(a, b, legal, s);
      merged = true;
      break;
    }
    if (!merged)
      break;
  }
  if (remarks)
    remarkBarriers();
  return order();
}

//===----------------------------------------------------------------------===//
// Order
//===----------------------------------------------------------------------===//

/// The live groups in a topological order (original order where it is free).
FailureOr<SmallVector<FusionGroup>> Fuser::order() {
  SmallVector<unsigned> live;
  DenseMap<unsigned, unsigned> indegree;
  for (auto [g, group] : llvm::enumerate(groups))
    if (group.alive)
      live.push_back(g);
  // Computed before any rewrite: kernels replace the uses they escape.
  DenseMap<unsigned, SetVector<unsigned>> succ;
  for (unsigned g : live)
    for (unsigned s : (succ[g] = successors(g)))
      ++indegree[s];
  using Item = std::pair<unsigned, unsigned>; // (first position, group)
  std::priority_queue<Item, std::vector<Item>, std::greater<Item>> ready;
  for (unsigned g : live)
    if (!indegree.lookup(g))
      ready.push({position[groups[g].members.front()], g});
  SmallVector<FusionGroup> ordered;
  while (!ready.empty()) {
    unsigned g = ready.top().second;
    ready.pop();
    // Ops that are not nodes (externals, fallbacks, kernels) have no loops.
    SmallVector<int64_t> outer;
    auto it = info.find(groups[g].members.front());
    if (it != info.end())
      outer.assign(it->second.loops.begin(),
                   it->second.loops.begin() + groups[g].outer);
    ordered.push_back({groups[g].members, std::move(outer)});
    for (unsigned s : succ[g])
      if (--indegree[s] == 0)
        ready.push({position[groups[s].members.front()], s});
  }
  // Legal merges keep the graph of groups acyclic; a cycle is a bug here.
  if (ordered.size() != live.size())
    return block.getTerminator()->emitError(
        "stax-fuse: the kernels depend on each other cyclically");
  return ordered;
}

} // namespace

FailureOr<SmallVector<FusionGroup>> stax::planFusion(Block &block,
                                                     bool remarks) {
  return Fuser(block, remarks).run();
}
