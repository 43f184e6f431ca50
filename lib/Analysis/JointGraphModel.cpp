//===- JointGraphModel.cpp - rules of Section 5.4 on a joint graph --------===//
//
// U (values that must not be recomputed in the backward):
//   1. not the result of a cheap op: anything but pointwise ops, views,
//      reductions and creation ops (so matmuls, indexing, random ops);
//   2. materialized in the backward anyway: some backward user (looking
//      through views) cannot be fused with it;
//   3. reductions whose output is more than 4x smaller than their inputs;
//   4. floating-point values the backward compares for equality (amax's
//      mask x == max(x)) whose recomputation may round differently from
//      the forward: only the forward's own bits compare equal, and the f32
//      math idioms and reduction orders depend on what fusion
//      materializes (IEEE arithmetic alone recomputes bit for bit).
// Capacities: beta = 1 when the forward writes the value to memory anyway
// (some user cannot fuse with it, or it is returned), d = graph distance to
// the nearest backward user (100 when none).
//
//===----------------------------------------------------------------------===//

#include "Stax/Analysis/JointGraphModel.h"
#include "Stax/Dialect/Tp/IR/TpOps.h"
#include "Stax/Dialect/Tp/IR/DiscardableAttrs.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace mlir;
using namespace mlir::stax;
using namespace mlir::stax::mincut;

namespace {

using tp::isBackward;
using tp::isForward;

bool isView(Operation *op) { return op->hasTrait<OpTrait::tp::View>(); }
bool isCreation(Operation *op) {
  return isa<tp::FullOp, tp::ArangeOp, tp::ConstantOp>(op);
}
/// Cheap ops (rule 1), and the ops a fused loop can contain: the pointwise
/// ops, views, reductions and creation ops (functorch's recomputable ops).
bool isCheap(Operation *op) {
  if (op->hasTrait<OpTrait::tp::Random>())
    return false;
  return op->hasTrait<OpTrait::tp::Pointwise>() || isView(op) ||
         op->hasTrait<OpTrait::tp::Reduction>() || isCreation(op);
}
bool isFusible(Operation *a, Operation *b) { return isCheap(a) && isCheap(b); }

int64_t elementBytes(Type t) {
  unsigned bits = t.getIntOrFloatBitWidth();
  return bits <= 8 ? 1 : bits / 8;
}

/// Rough FLOPs of computing `op` once, for the memory-budget heuristic.
double flopsOf(Operation *op) {
  double out = 0;
  for (Value r : op->getResults())
    if (auto t = dyn_cast<RankedTensorType>(r.getType()))
      out += t.getNumElements();
  if (op->hasTrait<OpTrait::tp::Contraction>()) {
    auto a = cast<RankedTensorType>(op->getOperand(op->getNumOperands() == 3 ? 1 : 0).getType());
    return 2.0 * out * (a.getRank() ? a.getShape().back() : 1);
  }
  if (op->hasTrait<OpTrait::tp::Reduction>()) {
    double in = 0;
    for (Value v : op->getOperands())
      if (auto t = dyn_cast<RankedTensorType>(v.getType()))
        in += t.getNumElements();
    return std::max(in, out);
  }
  if (isView(op))
    return 0;
  return out;
}

/// Whether some backward user of `v`, reached directly or through views,
/// satisfies `pred`.
bool anyBackwardReader(Value v, function_ref<bool(Operation *)> pred) {
  SmallVector<Value> work{v};
  llvm::SmallPtrSet<Operation *, 8> seen;
  while (!work.empty()) {
    Value cur = work.pop_back_val();
    for (Operation *user : cur.getUsers()) {
      if (!seen.insert(user).second)
        continue;
      if (isBackward(user) && pred(user))
        return true;
      if (isView(user))
        for (Value r : user->getResults())
          work.push_back(r);
    }
  }
  return false;
}

/// Rule 2: a backward user, reached directly or through views, that cannot
/// fuse with the value's producer.
bool materializedInBackward(Value v) {
  Operation *producer = v.getDefiningOp();
  return anyBackwardReader(
      v, [&](Operation *user) { return !isFusible(producer, user); });
}

/// Whether compiled code computes `op` bit for bit the same in any fusion
/// context: views, creation ops, IEEE arithmetic (each result rounded once,
/// no contraction), selections and exact reductions. Transcendental
/// functions (approximated, with idioms spanning several ops) and sums
/// (reordered by vectorization and splits) are not.
bool roundsTheSameEverywhere(Operation *op) {
  return isView(op) || isCreation(op) ||
         isa<tp::CloneOp, tp::DetachOp, tp::AliasOp, tp::LiftFreshCopyOp,
             tp::NegOp, tp::AbsOp, tp::ReluOp, tp::SignOp, tp::SgnOp,
             tp::TrilOp, tp::TriuOp, tp::FloorOp, tp::CeilOp, tp::RoundOp,
             tp::TruncOp, tp::SqrtOp, tp::ReciprocalOp, tp::ClampOp,
             tp::HardtanhOp, tp::LeakyReluOp, tp::ToCopyOp, tp::AddOp,
             tp::SubOp, tp::MulOp, tp::DivOp, tp::MaximumOp, tp::MinimumOp,
             tp::EqOp, tp::NeOp, tp::LtOp, tp::LeOp, tp::GtOp, tp::GeOp,
             tp::AddScalarOp, tp::SubScalarOp, tp::RsubScalarOp,
             tp::MulScalarOp, tp::DivScalarOp, tp::EqScalarOp, tp::NeScalarOp,
             tp::LtScalarOp, tp::LeScalarOp, tp::GtScalarOp, tp::GeScalarOp,
             tp::WhereOp, tp::MaskedFillScalarOp, tp::AmaxOp, tp::AminOp,
             tp::MaxDimOp, tp::MinDimOp>(op);
}

/// Whether recomputing `v` from the primals may round differently from
/// the forward: some forward op it depends on is not roundsTheSameEverywhere.
bool recomputationMayRoundDifferently(Value v) {
  SmallVector<Operation *> work;
  llvm::SmallPtrSet<Operation *, 16> seen;
  if (Operation *def = v.getDefiningOp())
    work.push_back(def);
  while (!work.empty()) {
    Operation *op = work.pop_back_val();
    if (!seen.insert(op).second || !isForward(op))
      continue;
    if (!roundsTheSameEverywhere(op))
      return true;
    for (Value operand : op->getOperands())
      if (Operation *def = operand.getDefiningOp())
        work.push_back(def);
  }
  return false;
}

/// Rule 4: a floating-point value that a backward equality comparison
/// reads, directly or through views, and that a recomputation may round
/// differently.
bool needsForwardBitsInBackward(Value v) {
  return isa<FloatType>(getElementTypeOrSelf(v.getType())) &&
         anyBackwardReader(
             v,
             [](Operation *user) { return isa<tp::EqOp, tp::NeOp>(user); }) &&
         recomputationMayRoundDifferently(v);
}

/// Rule 3: a reduction whose output is much smaller than its inputs.
bool isShrinkingReduction(Operation *op) {
  if (!op->hasTrait<OpTrait::tp::Reduction>())
    return false;
  int64_t in = 0, out = 0;
  for (Value v : op->getOperands())
    in += tensorBytes(v);
  for (Value r : op->getResults())
    out += tensorBytes(r);
  return 4 * out < in;
}
} // namespace

int64_t mincut::tensorBytes(Value v) {
  auto t = dyn_cast<RankedTensorType>(v.getType());
  if (!t || !t.hasStaticShape())
    return 0;
  return t.getNumElements() * elementBytes(t.getElementType());
}

std::string mincut::valueName(Value v, unsigned k) {
  Operation *op = v.getDefiningOp();
  std::string base;
  if (auto name = dyn_cast<NameLoc>(op->getLoc()))
    base = name.getName().getValue().split(' ').first.str();
  else
    base = op->getName().stripDialect().str() + "_" + std::to_string(k);
  if (op->getNumResults() > 1)
    base += "#" + std::to_string(cast<OpResult>(v).getResultNumber());
  return base;
}

FailureOr<JointGraphModel> mincut::buildModel(func::FuncOp fn,
                                              const ModelOptions &options) {
  if (failed(tp::verifyJointFunction(fn)))
    return failure();
  std::optional<unsigned> outputs = tp::getJointOutputs(fn);
  JointGraphModel m;
  m.fn = fn;
  m.numOutputs = *outputs;
  Block &body = fn.getBody().front();
  Operation *ret = body.getTerminator();
  llvm::DenseSet<Value> returnedOutputs;
  for (unsigned i = 0; i < m.numOutputs; ++i)
    returnedOutputs.insert(ret->getOperand(i));

  // Forward values in program order (a topological order).
  SmallVector<Operation *> forward;
  for (Operation &op : body.without_terminator())
    if (isForward(&op))
      forward.push_back(&op);
  unsigned k = 0;
  for (Operation *op : forward)
    for (Value r : op->getResults()) {
      m.index[r] = m.values.size();
      // Names are only built for the values a report mentions.
      m.values.push_back({r, k++, isView(op), flopsOf(op)});
    }

  // Distance to the nearest backward user, in reverse program order.
  const int64_t far = kNoBackwardReader;
  llvm::DenseMap<Operation *, int64_t> dist;
  for (Operation *op : llvm::reverse(forward)) {
    int64_t d = far;
    for (Operation *user : op->getUsers()) {
      if (isBackward(user))
        d = 1;
      else if (isForward(user) && dist.count(user))
        d = std::min(d, dist[user] + 1);
    }
    dist[op] = std::min<int64_t>(d, far);
  }

  llvm::DenseMap<Operation *, unsigned> position;
  for (auto [i, op] : llvm::enumerate(forward))
    position[op] = i;

  m.problem.values.resize(m.values.size());
  for (auto [i, info] : llvm::enumerate(m.values)) {
    Value v = info.value;
    Operation *op = v.getDefiningOp();
    ForwardValue &fv = m.problem.values[i];
    fv.bytes = tensorBytes(v);
    fv.distance = dist[op];
    bool backwardReader = llvm::any_of(
        v.getUsers(), [](Operation *u) { return isBackward(u); });
    fv.inB = backwardReader;
    // Views are never saved: an infinite split edge moves the cut onto the
    // value they view.
    if (info.isView) {
      fv.neverSave = true;
    } else {
      fv.inU = !isCheap(op) || materializedInBackward(v) ||
               isShrinkingReduction(op) || needsForwardBitsInBackward(v);
      fv.mustBeWrittenInForward =
          returnedOutputs.contains(v) ||
          llvm::any_of(v.getUsers(), [&](Operation *u) {
            return !isFusible(op, u) && !isa<func::ReturnOp>(u);
          });
    }
    for (Value operand : op->getOperands()) {
      auto it = m.index.find(operand);
      if (it != m.index.end())
        m.problem.deps.push_back({it->second, static_cast<unsigned>(i)});
    }

    // Forced saves: they put the value in both U and B, which cuts its
    // split edge.
    if (info.isView || !backwardReader)
      continue;
    bool force = false;
    if (options.forceSaveNearFar)
      force |= llvm::any_of(v.getUsers(), [&](Operation *u) {
        return isForward(u) &&
               position[u] > position[op] + options.nearFarDistance;
      });
    if (options.forceSaveChainEnd && op->hasTrait<OpTrait::tp::Pointwise>()) {
      unsigned length = 1;
      Operation *cur = op;
      while (length < options.chainLength) {
        Operation *prev = nullptr;
        for (Value operand : cur->getOperands()) {
          Operation *def = operand.getDefiningOp();
          if (def && isForward(def) &&
              def->hasTrait<OpTrait::tp::Pointwise>() && operand.hasOneUse())
            prev = def;
        }
        if (!prev)
          break;
        cur = prev;
        ++length;
      }
      force |= length >= options.chainLength;
    }
    if (force)
      fv.inU = fv.inB = true;
  }
  return m;
}
