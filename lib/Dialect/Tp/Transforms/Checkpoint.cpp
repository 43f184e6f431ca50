//===- Checkpoint.cpp - chain checkpointing (Section 5.8) -----------------===//
//
// For each joint function: find its chain of layers z_0..z_l, build a
// uniform (Theorem 5.3) or binomial (Theorem 5.4) reversal schedule for it,
// and split the function into a forward that returns the checkpoints and a
// backward that executes the schedule, cloning the forward ops of a segment
// whenever the schedule recomputes it.
//
// The chain model (lib/Analysis/CheckpointChain.cpp) finds the chain, its
// segments and the groups of backward ops.
//
// The backward groups run l+1, l, ..., 0: group k is emitted at the
// schedule's Backward(k), group 0 right after Backward(1), and group l+1
// (whose forward values the forward saves) first.
//
//===----------------------------------------------------------------------===//

#include "Stax/Dialect/Tp/IR/Functional.h"
#include "Stax/Analysis/CheckpointChain.h"
#include "Stax/Analysis/Checkpointing.h"
#include "Stax/Analysis/JointGraphModel.h"
#include "Stax/Dialect/Tp/IR/TpOps.h"
#include "Stax/Dialect/Tp/Transforms/Passes.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"
#include <map>
#include <optional>
#include <set>

namespace mlir::tp {
#define GEN_PASS_DEF_STAXCHECKPOINT
#include "Stax/Dialect/Tp/Transforms/Passes.h.inc"
} // namespace mlir::tp

using namespace mlir;
using namespace mlir::stax;
using namespace mlir::stax::mincut;

namespace {

//===----------------------------------------------------------------------===//
// Emission
//===----------------------------------------------------------------------===//

/// Clones ops into one function at the end of its entry block, in the joint
/// function's program order, and counts recomputed forward ops.
class Emitter {
public:
  Emitter(ChainModel &m, Block *entry)
      : m(m), b(OpBuilder::atBlockEnd(entry)) {}

  /// Clones the forward ops `roots` need that `map` does not hold.
  /// Forward values other than free ones are dropped from `map` by
  /// `forgetForward`, so each action recomputes what it needs.
  void cloneForward(ArrayRef<Value> roots);
  void forgetForward();
  void cloneOps(ArrayRef<Operation *> ops) {
    for (Operation *op : ops)
      b.clone(*op, map);
  }

  ChainModel &m;
  OpBuilder b;
  IRMapping map;
  unsigned recomputed = 0;

private:
  SmallVector<Value> transient; // mapped forward node values
};

void Emitter::cloneForward(ArrayRef<Value> roots) {
  llvm::DenseSet<Operation *> needed;
  SmallVector<Operation *> order;
  SmallVector<Value> work(roots.begin(), roots.end());
  while (!work.empty()) {
    Value v = work.pop_back_val();
    if (map.contains(v) || isa<BlockArgument>(v))
      continue;
    Operation *def = v.getDefiningOp();
    if (!needed.insert(def).second)
      continue;
    order.push_back(def);
    llvm::append_range(work, def->getOperands());
  }
  llvm::sort(order, [&](Operation *a, Operation *c) {
    return m.position.lookup(a) < m.position.lookup(c);
  });
  for (Operation *op : order) {
    assert(tp::isForward(op) && "backward values are mapped before use");
    b.clone(*op, map);
    if (!m.nodeIndex.count(op->getResult(0)))
      continue; // free values stay mapped: views of primals, constants
    llvm::append_range(transient, op->getResults());
    ++recomputed;
  }
}

void Emitter::forgetForward() {
  for (Value v : transient)
    map.erase(v);
  transient.clear();
}

/// The forward values a group's backward ops read.
SmallVector<Value> forwardReads(const ChainModel &m,
                                ArrayRef<Operation *> group) {
  SmallVector<Value> reads;
  for (Operation *op : group)
    for (Value v : op->getOperands())
      if (m.nodeIndex.count(v) || m.freeValues.contains(v))
        reads.push_back(v);
  return reads;
}

/// What the forward hands to the backward, and the schedule's state there.
struct Handoff {
  size_t firstBackward = 0;           // index of the first Backward action
  unsigned current = 0;               // current state at that point
  std::map<unsigned, unsigned> slots; // slot -> state
  SmallVector<unsigned> states;       // checkpointed states, ascending
};

Handoff handoff(ArrayRef<CheckpointAction> schedule) {
  Handoff h;
  h.slots[0] = 0;
  using Kind = CheckpointAction::Kind;
  for (; h.firstBackward < schedule.size(); ++h.firstBackward) {
    const CheckpointAction &a = schedule[h.firstBackward];
    if (a.kind == Kind::Backward)
      break;
    if (a.kind == Kind::Advance)
      h.current = a.b;
    else if (a.kind == Kind::Store)
      h.slots[a.a] = h.current;
    else if (a.kind == Kind::Load)
      h.current = h.slots[a.a];
    else
      h.slots.erase(a.a);
  }
  std::set<unsigned> states{h.current};
  for (auto [slot, state] : h.slots)
    states.insert(state);
  h.states.assign(states.begin(), states.end());
  return h;
}

/// Peak bytes of the states held in slots or current, over the schedule.
int64_t peakStateBytes(const ChainModel &m,
                       ArrayRef<CheckpointAction> schedule) {
  std::map<unsigned, unsigned> slots{{0, 0}};
  unsigned current = 0;
  auto held = [&] {
    std::set<unsigned> states{current};
    for (auto [slot, state] : slots)
      states.insert(state);
    int64_t bytes = 0;
    for (unsigned s : states)
      bytes += tensorBytes(m.state(s));
    return bytes;
  };
  int64_t peak = held();
  using Kind = CheckpointAction::Kind;
  for (const CheckpointAction &a : schedule) {
    if (a.kind == Kind::Advance)
      current = a.b;
    else if (a.kind == Kind::Store)
      slots[a.a] = current;
    else if (a.kind == Kind::Load)
      current = slots[a.a];
    else if (a.kind == Kind::Free)
      slots.erase(a.a);
    peak = std::max(peak, held());
  }
  return peak;
}

struct SplitInfo {
  func::FuncOp forward, backward;
  SmallVector<unsigned> savedInputs;   // primal argument positions
  SmallVector<Value> savedActivations; // joint values, backward arg order
  unsigned recomputed = 0;
};

/// `<name>_forward`: the forward ops the outputs and `saved` need.
func::FuncOp buildForward(ChainModel &m, ArrayRef<unsigned> primals,
                          ArrayRef<Value> saved, Operation *insertBefore) {
  func::FuncOp joint = m.fn;
  Operation *ret = joint.getBody().front().getTerminator();
  SmallVector<Value> roots(ret->getOperands().take_front(m.numOutputs));
  llvm::append_range(roots, saved);
  SmallVector<Type> ins, outs;
  SmallVector<DictionaryAttr> argAttrs;
  for (unsigned i : primals) {
    ins.push_back(joint.getArgument(i).getType());
    argAttrs.push_back(joint.getArgAttrDict(i));
  }
  for (Value v : roots)
    outs.push_back(v.getType());
  OpBuilder top(insertBefore);
  auto fwd = func::FuncOp::create(
      top, joint.getLoc(), (joint.getSymName() + "_forward").str(),
      FunctionType::get(joint.getContext(), ins, outs));
  fwd.setAllArgAttrs(ArrayRef<DictionaryAttr>(argAttrs));
  Block *entry = fwd.addEntryBlock();
  Emitter e(m, entry);
  for (auto [k, i] : llvm::enumerate(primals))
    e.map.map(joint.getArgument(i), entry->getArgument(k));
  e.cloneForward(roots);
  SmallVector<Value> results;
  for (Value v : roots)
    results.push_back(e.map.lookup(v));
  func::ReturnOp::create(e.b, ret->getLoc(), results);
  return fwd;
}

/// Executes the schedule from its first backward step into `e`.
void emitSchedule(Emitter &e, ArrayRef<CheckpointAction> schedule,
                  const Handoff &h, llvm::DenseMap<unsigned, Value> stateArgs) {
  ChainModel &m = e.m;
  std::map<unsigned, std::pair<unsigned, Value>> slots; // slot -> state
  for (auto [slot, state] : h.slots)
    slots[slot] = {state, stateArgs.lookup(state)};
  unsigned current = h.current;
  Value currentValue = stateArgs.lookup(h.current);
  // Runs a group's backward ops with z_{k-1} = `start` (group 0: none).
  auto runGroup = [&](unsigned k, Value start) {
    if (start)
      e.map.map(m.state(k - 1), start);
    e.cloneForward(forwardReads(m, m.groups[k]));
    e.cloneOps(m.groups[k]);
    e.forgetForward();
    if (start)
      e.map.erase(m.state(k - 1));
  };
  using Kind = CheckpointAction::Kind;
  for (const CheckpointAction &a : schedule.drop_front(h.firstBackward)) {
    switch (a.kind) {
    case Kind::Advance:
      e.map.map(m.state(a.a), currentValue);
      e.cloneForward({m.state(a.b)});
      currentValue = e.map.lookup(m.state(a.b));
      e.forgetForward();
      e.map.erase(m.state(a.a));
      current = a.b;
      break;
    case Kind::Store:
      slots[a.a] = {current, currentValue};
      break;
    case Kind::Load:
      std::tie(current, currentValue) = slots[a.a];
      break;
    case Kind::Free:
      slots.erase(a.a);
      break;
    case Kind::Backward: {
      Value start = current == a.a - 1 ? currentValue : Value();
      for (auto &[slot, held] : slots)
        if (!start && held.first == a.a - 1)
          start = held.second;
      runGroup(a.a, start);
      if (a.a == 1) {
        // The prologue recomputes from the primals and z_0.
        e.map.map(m.state(0), start);
        runGroup(0, Value());
        e.map.erase(m.state(0));
      }
      break;
    }
    }
  }
}

/// Erases recomputed forward ops nothing reads: an advance can end at a
/// state whose backward step reads only adjoints and the state after it.
/// Returns how many non-free ops it erased.
unsigned eraseDeadRecomputation(const ChainModel &m, Block &body) {
  unsigned erased = 0;
  for (Operation &op : llvm::make_early_inc_range(llvm::reverse(body))) {
    if (!tp::isForward(&op) || !op.use_empty())
      continue;
    erased += !isFreeOp(&op);
    op.erase();
  }
  return erased;
}

/// Builds both functions; the caller erases the joint one once it has
/// reported on its values.
SplitInfo split(ChainModel &m, ArrayRef<CheckpointAction> schedule) {
  func::FuncOp joint = m.fn;
  MLIRContext *ctx = joint.getContext();
  Operation *ret = joint.getBody().front().getTerminator();
  SmallVector<unsigned> primals, tangents;
  for (unsigned i = 0; i < joint.getNumArguments(); ++i)
    (tp::isTangent(joint, i) ? tangents : primals).push_back(i);

  Handoff h = handoff(schedule);
  SplitInfo info;
  for (unsigned s : h.states)
    info.savedActivations.push_back(m.state(s));
  // The epilogue's backward reads what the forward computed after z_l.
  for (Value v : forwardReads(m, m.groups.back()))
    if (m.nodeIndex.count(v) && !llvm::is_contained(info.savedActivations, v))
      info.savedActivations.push_back(v);

  // The backward takes every primal first; unread ones are erased at the
  // end (the schedule decides which are read).
  SmallVector<Type> ins, outs;
  for (unsigned i : primals)
    ins.push_back(joint.getArgument(i).getType());
  for (Value v : info.savedActivations)
    ins.push_back(v.getType());
  for (unsigned i : tangents)
    ins.push_back(joint.getArgument(i).getType());
  for (Value v : ret->getOperands().drop_front(m.numOutputs))
    outs.push_back(v.getType());
  OpBuilder top(joint);
  auto bwd = func::FuncOp::create(top, joint.getLoc(),
                                  (joint.getSymName() + "_backward").str(),
                                  FunctionType::get(ctx, ins, outs));
  Block *entry = bwd.addEntryBlock();
  Emitter e(m, entry);
  unsigned k = 0;
  for (unsigned i : primals)
    e.map.map(joint.getArgument(i), entry->getArgument(k++));
  llvm::DenseMap<unsigned, Value> stateArgs;
  for (Value v : info.savedActivations) {
    Value arg = entry->getArgument(k++);
    if (auto it = m.nodeIndex.find(v); it != m.nodeIndex.end())
      if (auto s = m.stateOf.find(it->second); s != m.stateOf.end())
        stateArgs[s->second] = arg;
    e.map.map(v, arg);
  }
  SmallVector<DictionaryAttr> argAttrs(k, DictionaryAttr::get(ctx));
  for (unsigned i : tangents) {
    e.map.map(joint.getArgument(i), entry->getArgument(k++));
    argAttrs.push_back(DictionaryAttr::get(ctx, tp::getTangentArgAttr(ctx)));
  }
  bwd.setAllArgAttrs(ArrayRef<DictionaryAttr>(argAttrs));

  // The epilogue reads saved values only; then the schedule.
  e.cloneForward(forwardReads(m, m.groups.back()));
  e.cloneOps(m.groups.back());
  // States enter the schedule through stateArgs, not the map.
  for (auto [s, arg] : stateArgs)
    e.map.erase(m.state(s));
  emitSchedule(e, schedule, h, stateArgs);
  SmallVector<Value> grads(ret->getOperands().drop_front(m.numOutputs));
  e.cloneForward(grads); // only a gradient that is a forward value
  SmallVector<Value> results;
  for (Value v : grads)
    results.push_back(e.map.lookup(v));
  func::ReturnOp::create(e.b, ret->getLoc(), results);
  info.recomputed = e.recomputed - eraseDeadRecomputation(m, *entry);

  // Primals the schedule never reads are not passed; neither are states
  // it holds without reading (a step whose backward reads only the state
  // after it). The forward returns what remains.
  llvm::BitVector unread(bwd.getNumArguments());
  for (auto [k, i] : llvm::enumerate(primals)) {
    if (entry->getArgument(k).use_empty())
      unread.set(k);
    else
      info.savedInputs.push_back(i);
  }
  SmallVector<Value> read;
  for (auto [k, v] : llvm::enumerate(info.savedActivations)) {
    if (entry->getArgument(primals.size() + k).use_empty())
      unread.set(primals.size() + k);
    else
      read.push_back(v);
  }
  info.savedActivations = std::move(read);
  (void)bwd.eraseArguments(unread);
  info.backward = bwd;
  info.forward = buildForward(m, primals, info.savedActivations, bwd);
  return info;
}

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

llvm::json::Object savedEntry(StringRef name, StringRef kind, Value v) {
  auto t = cast<RankedTensorType>(v.getType());
  llvm::json::Array shape;
  for (int64_t d : t.getShape())
    shape.push_back(d);
  std::string dtype;
  llvm::raw_string_ostream(dtype) << t.getElementType();
  return llvm::json::Object{{"name", name.str()},
                            {"kind", kind.str()},
                            {"shape", std::move(shape)},
                            {"dtype", dtype},
                            {"bytes", tensorBytes(v)}};
}

struct CheckpointPass : public tp::impl::StaxCheckpointBase<CheckpointPass> {
  using StaxCheckpointBase::StaxCheckpointBase;

  void runOnOperation() override;

private:
  LogicalResult checkpoint(func::FuncOp fn, llvm::json::Array &report);
  unsigned slotCount(unsigned l) const;
};

/// Slots for revolve: `slots`, or the least s with C(2s, s) >= l (then the
/// repetition is at most s too, the spec's s = t = O(log l)).
unsigned CheckpointPass::slotCount(unsigned l) const {
  if (slots)
    return slots;
  unsigned s = 1;
  while (binomial(s, s) < l)
    ++s;
  return s;
}

LogicalResult CheckpointPass::checkpoint(func::FuncOp fn,
                                         llvm::json::Array &report) {
  FailureOr<ChainModel> model = buildChainModel(fn);
  if (failed(model))
    return failure();
  ChainModel &m = *model;
  if (m.chain.empty()) {
    fn.emitRemark() << "no chain of layers: no forward value lies on every "
                       "path from the inputs to the outputs; left unchanged";
    return success();
  }
  unsigned l = m.length();
  if (l < minChainLength || l == 0) {
    fn.emitRemark() << "chain length " << l
                    << " is below min-chain-length=" << unsigned(minChainLength)
                    << "; left unchanged";
    return success();
  }
  CheckpointSchedule schedule = scheduleKind == CheckpointScheduleKind::Uniform
                                    ? uniformSchedule(l, slots)
                                    : revolveSchedule(l, slotCount(l));
  unsigned slotsUsed = 1;
  for (const CheckpointAction &a : schedule)
    if (a.kind == CheckpointAction::Kind::Store)
      slotsUsed = std::max(slotsUsed, a.a + 1);
  ScheduleStats stats = simulate(schedule, l, slotsUsed);
  if (!stats.ok)
    return fn.emitError() << "internal error: invalid schedule: "
                          << stats.error;

  std::string name = fn.getSymName().str();
  // Reserved: json::Value's move constructor is not noexcept, so a growing
  // array would deep-copy its entries.
  llvm::json::Array chainJson;
  chainJson.reserve(l + 1);
  for (unsigned j = 0; j <= l; ++j)
    chainJson.push_back(valueName(m.state(j), m.chain[j]));
  int64_t peak = peakStateBytes(m, schedule);
  SplitInfo info = split(m, schedule);

  llvm::json::Array saved, checkpoints, actions;
  saved.reserve(info.savedInputs.size() + info.savedActivations.size());
  checkpoints.reserve(info.savedActivations.size());
  actions.reserve(schedule.size());
  // Tangents follow the primals in a joint function's arguments, so primal
  // i is argument i of the forward too.
  for (unsigned i : info.savedInputs)
    saved.push_back(savedEntry("primals_" + std::to_string(i + 1), "input",
                               info.forward.getArgument(i)));
  int64_t savedBytes = 0;
  for (Value v : info.savedActivations) {
    unsigned node = m.nodeIndex.lookup(v);
    std::string vname = valueName(v, node);
    saved.push_back(savedEntry(vname, "activation", v));
    savedBytes += tensorBytes(v);
    if (auto s = m.stateOf.find(node); s != m.stateOf.end()) {
      llvm::json::Object entry = savedEntry(vname, "activation", v);
      entry["state"] = s->second;
      checkpoints.push_back(std::move(entry));
    } else {
      peak += tensorBytes(v); // epilogue values, held throughout
    }
  }
  for (const CheckpointAction &a : schedule)
    actions.push_back(a.str());
  report.push_back(llvm::json::Object{
      {"name", name},
      {"forward", info.forward.getSymName().str()},
      {"backward", info.backward.getSymName().str()},
      {"schedule", scheduleKind == CheckpointScheduleKind::Uniform ? "uniform"
                                                                : "revolve"},
      {"slots_used", slotsUsed},
      {"chain_length", l},
      {"chain", std::move(chainJson)},
      {"checkpoints", std::move(checkpoints)},
      {"saved", std::move(saved)},
      {"saved_bytes", savedBytes},
      {"peak_saved_bytes", peak},
      {"recomputed_ops", info.recomputed},
      {"repetition", stats.repetition},
      {"forward_steps", static_cast<int64_t>(stats.totalForwardSteps)},
      {"actions", std::move(actions)}});
  fn.erase();
  return success();
}

void CheckpointPass::runOnOperation() {
  if (failed(tp::verifyFunctional(getOperation(), getArgument())))
    return signalPassFailure();
  SmallVector<func::FuncOp> joints;
  for (auto fn : getOperation().getOps<func::FuncOp>())
    if (tp::getJointOutputs(fn))
      joints.push_back(fn);
  if (joints.empty()) {
    mlir::emitError(getOperation().getLoc())
        << "no joint function (tp.joint_outputs) to "
           "checkpoint; run --stax-joint-graph first";
    return signalPassFailure();
  }
  llvm::json::Array functions;
  for (func::FuncOp fn : joints)
    if (failed(checkpoint(fn, functions)))
      return signalPassFailure();
  if (report.empty())
    return;
  std::error_code ec;
  llvm::raw_fd_ostream os(report, ec);
  if (ec) {
    mlir::emitError(getOperation().getLoc())
        << "cannot write " << report << ": " << ec.message();
    return signalPassFailure();
  }
  os << llvm::formatv("{0:2}", llvm::json::Value(llvm::json::Object{
                                   {"functions", std::move(functions)}}))
     << "\n";
}

} // namespace
