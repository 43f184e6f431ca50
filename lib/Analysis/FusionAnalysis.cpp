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
//  - the nodes share outer loops of more than one iteration in all (a
//    kernel over unit loops only would run each node whole, losing the
//    threads of the nodes' own loops), and every reduction's output
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
#include "Stax/Dialect/Tp/IR/TpOps.h"

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
  /// In no particular order while merging; in block order after run().
  SmallVector<Operation *> members;
  Operation *first = nullptr; // the member earliest in the block
  Operation *last = nullptr;  // and the latest
  unsigned outer = 0;         // number of shared outer loops
  /// Outer loops a kernel holding this group needs at least: a reduction's
  /// result is complete only at the end of its output loops.
  unsigned minOuter = 1;
  bool fusible = false;
  bool alive = true;
  unsigned version = 0; // bumped by every merge into the group
  /// Tensors read from outside the group, results read outside it, and the
  /// top-level ops outside it that read them: what traffic and successors
  /// need, kept up to date by merges so that neither walks the members.
  DenseSet<Value> reads, escapes;
  DenseSet<Operation *> users;
};

/// Prefix maxima over block positions, a Fenwick tree: raise(p, v) makes
/// every query at or after p at least v; query(p) in O(log n).
class PrefixMax {
public:
  void resize(unsigned n) { tree.assign(n + 1, 0); }
  void raise(unsigned pos, unsigned value) {
    for (unsigned i = pos + 1; i < tree.size(); i += i & (~i + 1))
      tree[i] = std::max(tree[i], value);
  }
  unsigned query(unsigned pos) const {
    unsigned m = 0;
    for (unsigned i = std::min<size_t>(pos + 1, tree.size() - 1); i > 0;
         i -= i & (~i + 1))
      m = std::max(m, tree[i]);
    return m;
  }

private:
  SmallVector<unsigned> tree;
};

struct Legality {
  unsigned outer = 0;
  std::string why; // empty when legal
};

/// A read in a kernel that is not at the reader's own outer indices, keyed
/// by its place in block order (reader, input, use) so that the reported
/// problem does not depend on the order in which reads are checked.
struct AccessProblem {
  std::tuple<unsigned, unsigned, unsigned> place;
  std::string why;
};

class Fuser {
public:
  Fuser(Block &block, bool remarks) : block(block), remarks(remarks) {}
  FailureOr<SmallVector<FusionGroup>> run();

private:
  void buildGraph();
  unsigned groupOf(Operation *op) const { return groupIndex.lookup(op); }
  Operation *topLevel(Operation *user) const {
    return block.findAncestorOpInBlock(*user);
  }
  bool inGroup(Operation *top, unsigned g) const {
    return top && top != block.getTerminator() && groupOf(top) == g;
  }
  SetVector<unsigned> successors(unsigned g) const;
  SetVector<unsigned> neighbours(unsigned g) const;
  Operation *pathBetween(unsigned from, unsigned to) const;
  unsigned reachBound(unsigned to) const;
  int64_t saving(unsigned a, unsigned b) const;
  Legality legality(unsigned a, unsigned b) const;
  void checkReads(Operation *reader, unsigned producers, unsigned k,
                  std::optional<AccessProblem> &worst) const;
  std::string accessProblem(unsigned a, unsigned b, unsigned k) const;
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
  /// The last member's position of the groups, by their first's.
  PrefixMax spans;
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

/// The loops every member of a kernel shares at least, for a reduction.
unsigned reductionMinOuter(const NodeInfo &n) {
  unsigned minOuter = 1;
  if (n.isReduction)
    for (unsigned d = 0; d < n.loops.size(); ++d)
      if (n.loops[d] != 1)
        minOuter = std::max(minOuter, d + 1);
  return minOuter;
}

/// A transpose of a buffer that only matmuls read: CPU code generation
/// hands BLAS the buffer with a transpose flag and never runs the node, as
/// long as it stays out of kernels.
bool isReadByBlasInPlace(Operation *op) {
  auto p = dyn_cast<stax::PointwiseOp>(op);
  return p && p.getRowMajorSource(/*transposed=*/true) &&
         llvm::all_of(p->getUsers(), [](Operation *user) {
           return isa<tp::MmOp, tp::BmmOp>(user);
         });
}

void Fuser::buildGraph() {
  spans.resize(block.getOperations().size());
  for (Operation &op : block.without_terminator()) {
    position[&op] = position.size();
    groupIndex[&op] = groups.size();
    Group g;
    g.members.push_back(&op);
    g.first = g.last = &op;
    if (std::optional<NodeInfo> n = getNodeInfo(&op)) {
      info[&op] = *n;
      g.fusible = !isReadByBlasInPlace(&op);
      g.outer = n->loops.size();
      g.minOuter = reductionMinOuter(*n);
    }
    inputs[&op] = externalInputs(&op);
    for (Value v : inputs[&op])
      if (isa<RankedTensorType>(v.getType()))
        g.reads.insert(v);
    for (Value r : op.getResults())
      for (Operation *user : r.getUsers()) {
        Operation *top = topLevel(user);
        if (top == &op)
          continue;
        g.escapes.insert(r);
        if (top && top != block.getTerminator())
          g.users.insert(top);
      }
    groups.push_back(std::move(g));
  }
}

/// Groups that read a value some member of `g` produces, in block order.
SetVector<unsigned> Fuser::successors(unsigned g) const {
  SmallVector<Operation *> users(groups[g].users.begin(),
                                 groups[g].users.end());
  llvm::sort(users, [&](Operation *x, Operation *y) {
    return position.lookup(x) < position.lookup(y);
  });
  SetVector<unsigned> out;
  for (Operation *u : users)
    out.insert(groupOf(u));
  return out;
}

/// The groups that form a candidate pair with `g` (as in candidates()):
/// its readers, its producers and the other readers of what it reads.
SetVector<unsigned> Fuser::neighbours(unsigned g) const {
  SetVector<unsigned> out = successors(g);
  SmallVector<Value> reads(groups[g].reads.begin(), groups[g].reads.end());
  for (Value v : reads) {
    if (Operation *def = v.getDefiningOp(); def && def->getBlock() == &block)
      out.insert(groupOf(def));
    for (Operation *user : v.getUsers())
      if (Operation *top = topLevel(user);
          top && top != block.getTerminator())
        out.insert(groupOf(top));
  }
  out.remove(g);
  return out;
}

/// The first op of a dependence path `from` -> X -> ... -> `to` through
/// another group X, or null: merging `from` and `to` would then need X
/// inside and outside the kernel at once (a global barrier).
Operation *Fuser::pathBetween(unsigned from, unsigned to) const {
  unsigned bound = reachBound(to);
  SmallVector<std::pair<unsigned, Operation *>> stack;
  DenseSet<unsigned> seen;
  for (unsigned s : successors(from))
    if (s != to)
      stack.push_back({s, groups[s].first});
  while (!stack.empty()) {
    auto [g, first] = stack.pop_back_val();
    if (position.lookup(groups[g].first) > bound || !seen.insert(g).second)
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

/// A position that the first member of every group with a dependence path
/// to `to` is at or before, so that pathBetween need not walk everything
/// downstream of `from`. An edge X -> Y goes from a member of X to a later
/// member of Y, so X's first member is before Y's last. Y's last is not
/// bounded by `to`'s (a kernel's members need not be contiguous in the
/// block: a group on the path can start after `to`'s last member and feed a
/// kernel that also has a member before it), so the bound is the fixpoint
/// B = max(B, last member of any group whose first is at or before B).
unsigned Fuser::reachBound(unsigned to) const {
  unsigned bound = position.lookup(groups[to].last);
  for (unsigned next = spans.query(bound); next > bound;
       next = spans.query(bound))
    bound = next;
  return bound;
}

/// The global memory traffic (every buffer read from outside once, every
/// result read outside or returned written once) that running `a` and `b`
/// as one kernel saves, from the reads and results that cross between them
/// (the smaller group's sets).
int64_t Fuser::saving(unsigned a, unsigned b) const {
  const Group *small = &groups[a], *large = &groups[b];
  unsigned l = b;
  if (small->reads.size() + small->escapes.size() >
      large->reads.size() + large->escapes.size()) {
    std::swap(small, large);
    l = a;
  }
  unsigned s = l == a ? b : a;
  auto definedIn = [&](Value v, unsigned g) {
    Operation *def = v.getDefiningOp();
    return def && def->getBlock() == &block && groupOf(def) == g;
  };
  // Whether every reader of `r` outside group `g` is in group `other`.
  auto onlyReadBy = [&](Value r, unsigned g, unsigned other) {
    return llvm::all_of(r.getUsers(), [&](Operation *u) {
      Operation *top = topLevel(u);
      return inGroup(top, g) || inGroup(top, other);
    });
  };
  int64_t saved = 0;
  for (Value v : small->reads) {
    if (large->reads.contains(v))
      saved += bufferBytes(v); // read once instead of twice
    else if (definedIn(v, l)) {
      saved += bufferBytes(v); // produced in the kernel: no read
      if (onlyReadBy(v, l, s))
        saved += bufferBytes(v); // and no write
    }
  }
  for (Value r : small->escapes) {
    if (!large->reads.contains(r))
      continue;
    saved += bufferBytes(r);
    if (onlyReadBy(r, s, l))
      saved += bufferBytes(r);
  }
  return saved;
}

/// Records the first problem (in block order) of the reads by `reader` of
/// buffers that members of group `producers` write, at `k` outer loops.
void Fuser::checkReads(Operation *reader, unsigned producers, unsigned k,
                       std::optional<AccessProblem> &worst) const {
  const NodeInfo &r = info.find(reader)->second;
  for (auto [i, v] : llvm::enumerate(inputs.lookup(reader))) {
    Operation *def = v.getDefiningOp();
    if (!def || def->getBlock() != &block || groupOf(def) != producers)
      continue;
    for (auto [u, use] : llvm::enumerate(v.getUses())) {
      if (!reader->isAncestor(use.getOwner()))
        continue;
      auto load = dyn_cast<stax::LoadOp>(use.getOwner());
      std::string why = load ? checkRead(r, load, info.find(def)->second, k)
                             : std::string("other than by a load");
      if (why.empty())
        continue;
      AccessProblem p{{position.lookup(reader), static_cast<unsigned>(i),
                       static_cast<unsigned>(u)},
                      llvm::formatv("'{0}' reads '{1}' {2}", reader->getName(),
                                    def->getName(), why)
                          .str()};
      if (!worst || p.place < worst->place)
        worst = std::move(p);
      break;
    }
  }
}

/// Why some read inside the kernel of `a` and `b` is not at the reader's
/// own first `k` outer indices; empty when every read is. Reads inside one
/// group were checked at its own outer loops: they are checked again only
/// when the kernel has fewer; reads between the groups always are.
std::string Fuser::accessProblem(unsigned a, unsigned b, unsigned k) const {
  std::optional<AccessProblem> worst;
  for (auto [g, other] : {std::pair(a, b), std::pair(b, a)}) {
    if (k < groups[g].outer) {
      for (Operation *reader : groups[g].members) {
        checkReads(reader, other, k, worst);
        checkReads(reader, g, k, worst);
      }
      continue;
    }
    // The members of g that read what `other` writes: found from other's
    // escaping results, not by walking g.
    SetVector<Operation *> readers;
    for (Value r : groups[other].escapes)
      for (Operation *u : r.getUsers())
        if (Operation *top = topLevel(u); inGroup(top, g))
          readers.insert(top);
    for (Operation *reader : readers)
      checkReads(reader, other, k, worst);
  }
  return worst ? worst->why : std::string();
}

Legality Fuser::legality(unsigned a, unsigned b) const {
  const Group &ga = groups[a], &gb = groups[b];
  if (!ga.fusible || !gb.fusible)
    return {0, "only pointwise and reduction nodes fuse"};
  // The shared outer loops: the common prefix, not beyond either kernel's
  // (the members of each group agree on their group's outer loops).
  bool aFirst = position.lookup(ga.first) < position.lookup(gb.first);
  ArrayRef<int64_t> first = info.find(aFirst ? ga.first : gb.first)->second.loops;
  ArrayRef<int64_t> second = info.find(aFirst ? gb.first : ga.first)->second.loops;
  unsigned maxOuter = 0;
  while (maxOuter < std::min(ga.outer, gb.outer) &&
         maxOuter < second.size() && second[maxOuter] == first[maxOuter])
    ++maxOuter;
  unsigned minOuter = std::max(ga.minOuter, gb.minOuter);
  // Loops of one iteration share nothing: a kernel over them runs each
  // node whole before the next (no value stays in cache for its readers)
  // and only its outer loops run in parallel, so its nodes would lose
  // their own threads.
  auto iterations = [&](unsigned k) {
    int64_t n = 1;
    for (int64_t extent : first.take_front(k))
      n *= extent;
    return n;
  };
  if (maxOuter == 0 || iterations(maxOuter) == 1)
    return {0, "no shared outer loop of more than one iteration"};
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
  for (unsigned k = maxOuter; k >= minOuter && iterations(k) > 1; --k) {
    std::string problem = accessProblem(a, b, k);
    if (problem.empty())
      return {k, ""};
    if (why.empty())
      why = problem;
  }
  if (why.empty())
    why = "no shared outer loop of more than one iteration";
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
  SmallVector<Value> readOrder;
  for (auto [g, group] : llvm::enumerate(groups)) {
    if (!group.alive || !group.fusible)
      continue;
    for (unsigned s : successors(g))
      add(g, s);
    for (Operation *m : group.members)
      for (Value v : inputs.lookup(m)) {
        auto [it, inserted] = readers.try_emplace(v);
        if (inserted)
          readOrder.push_back(v);
        it->second.push_back(g);
      }
  }
  for (Value v : readOrder) {
    ArrayRef<unsigned> rs = readers[v];
    for (unsigned i = 0; i < rs.size(); ++i)
      for (unsigned j = i + 1; j < rs.size(); ++j)
        add(rs[i], rs[j]);
  }
  return pairs.takeVector();
}

void Fuser::merge(unsigned a, unsigned b, const Legality &legal,
                  int64_t saved) {
  if (position.lookup(groups[b].first) < position.lookup(groups[a].first))
    std::swap(a, b);
  Group &ga = groups[a], &gb = groups[b];
  if (remarks)
    gb.first->emitRemark()
        << "fused '" << gb.first->getName() << "'"
        << (gb.members.size() > 1 ? " and its kernel" : "")
        << " into the kernel of '" << ga.first->getName()
        << "' (outer ranges "
        << formatRanges(ArrayRef<int64_t>(info.find(ga.first)->second.loops)
                            .take_front(legal.outer))
        << "): saves " << saved << " bytes";
  // The union's sets, from the old ones: reads of values now produced
  // inside, and results and users now read only inside, drop out.
  Group merged;
  auto inside = [&](Operation *top) { return inGroup(top, a) || inGroup(top, b); };
  auto definedInside = [&](Value v) {
    Operation *def = v.getDefiningOp();
    return def && def->getBlock() == &block && inside(def);
  };
  for (Group *g : {&ga, &gb}) {
    for (Value v : g->reads)
      if (!definedInside(v))
        merged.reads.insert(v);
    for (Value r : g->escapes)
      if (llvm::any_of(r.getUsers(),
                       [&](Operation *u) { return !inside(topLevel(u)); }))
        merged.escapes.insert(r);
    for (Operation *u : g->users)
      if (!inside(u))
        merged.users.insert(u);
  }
  ga.reads = std::move(merged.reads);
  ga.escapes = std::move(merged.escapes);
  ga.users = std::move(merged.users);
  // Members: the smaller list is appended to the larger (block order is
  // restored once, by order()).
  for (Operation *m : gb.members)
    groupIndex[m] = a;
  if (ga.members.size() < gb.members.size())
    std::swap(ga.members, gb.members);
  llvm::append_range(ga.members, gb.members);
  if (position.lookup(gb.last) > position.lookup(ga.last))
    ga.last = gb.last;
  spans.raise(position.lookup(ga.first), position.lookup(ga.last));
  ga.outer = legal.outer;
  ga.minOuter = std::max(ga.minOuter, gb.minOuter);
  ++ga.version;
  gb.alive = false;
  gb.members.clear();
  gb.reads.clear();
  gb.escapes.clear();
  gb.users.clear();
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
      groups[s].first->emitRemark()
          << "not fused with '" << group.first->getName() << "': " << why;
    }
  }
}

FailureOr<SmallVector<FusionGroup>> Fuser::run() {
  buildGraph();
  // Greedy, best saving first (ties in block order, so that the result is
  // deterministic), with a lazily updated queue: a pair's saving depends on
  // its two groups only, so a merge re-scores just the pairs of the merged
  // group; entries of groups that changed since are stale and skipped. A
  // pair found illegal stays illegal until one of its groups changes (a
  // merge elsewhere can add dependence paths, never remove one), when it is
  // queued again. Same merges as re-scoring every pair after each merge, in
  // time near-linear in the number of pairs rather than quadratic.
  struct Entry {
    int64_t saving;
    unsigned a, b, versionA, versionB;
    bool operator<(const Entry &o) const { // std::priority_queue: max first
      return std::make_tuple(saving, -static_cast<int64_t>(a),
                             -static_cast<int64_t>(b)) <
             std::make_tuple(o.saving, -static_cast<int64_t>(o.a),
                             -static_cast<int64_t>(o.b));
    }
  };
  std::priority_queue<Entry> queue;
  auto push = [&](unsigned x, unsigned y) {
    unsigned a = std::min(x, y), b = std::max(x, y);
    if (a == b || !groups[a].fusible || !groups[b].fusible)
      return;
    if (int64_t s = saving(a, b); s > 0)
      queue.push({s, a, b, groups[a].version, groups[b].version});
  };
  for (auto [a, b] : candidates())
    push(a, b);
  while (!queue.empty()) {
    Entry e = queue.top();
    queue.pop();
    const Group &ga = groups[e.a], &gb = groups[e.b];
    if (!ga.alive || !gb.alive || ga.version != e.versionA ||
        gb.version != e.versionB)
      continue;
    Legality legal = legality(e.a, e.b);
    if (!legal.why.empty())
      continue;
    merge(e.a, e.b, legal, e.saving);
    unsigned kept = groups[e.a].alive ? e.a : e.b;
    for (unsigned n : neighbours(kept))
      if (groups[n].alive)
        push(kept, n);
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
  for (auto [g, group] : llvm::enumerate(groups)) {
    if (!group.alive)
      continue;
    live.push_back(g);
    llvm::sort(group.members, [&](Operation *x, Operation *y) {
      return position.lookup(x) < position.lookup(y);
    });
  }
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
