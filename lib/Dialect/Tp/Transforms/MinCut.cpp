//===- MinCut.cpp - min-cut rematerialization (Section 5.4) ---------------===//
//
// For each joint function: build the rematerialization network of its
// forward values, solve the minimum cut, optionally recompute more to fit a
// memory budget, and split the function into a forward that returns the
// saved values and a backward that takes them. A JSON report and a DOT
// picture (Figure 5.1) are optional outputs.
//
//===----------------------------------------------------------------------===//

#include "Stax/Dialect/Tp/IR/Functional.h"
#include "Stax/Analysis/JointGraphModel.h"
#include "SplitJointFunction.h"
#include "Stax/Dialect/Tp/Transforms/Passes.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"
#include <chrono>

namespace mlir::tp {
#define GEN_PASS_DEF_STAXMINCUT
#include "Stax/Dialect/Tp/Transforms/Passes.h.inc"
} // namespace mlir::tp

using namespace mlir;
using namespace mlir::stax;
using namespace mlir::stax::mincut;

namespace {

/// The forward values `v` is computed from, looking through views to the
/// values they view (views are free to recompute).
void realInputs(const JointGraphModel &m, unsigned v,
                SmallVectorImpl<unsigned> &out) {
  Operation *op = m.values[v].value.getDefiningOp();
  for (Value operand : op->getOperands()) {
    auto it = m.index.find(operand);
    if (it == m.index.end())
      continue; // a primal: available to the backward at no cost
    if (m.values[it->second].isView)
      realInputs(m, it->second, out);
    else if (!llvm::is_contained(out, it->second))
      out.push_back(it->second);
  }
}

/// FLOPs of recomputing `v` from the saved values and the primals: `v` and
/// every unsaved forward value it needs.
double coneFlops(const JointGraphModel &m, unsigned v,
                 ArrayRef<unsigned> saved) {
  double flops = 0;
  SmallVector<unsigned> work{v};
  llvm::DenseSet<unsigned> seen;
  while (!work.empty()) {
    unsigned u = work.pop_back_val();
    if (!seen.insert(u).second)
      continue;
    flops += m.values[u].recomputeFlops;
    for (Value operand : m.values[u].value.getDefiningOp()->getOperands()) {
      auto it = m.index.find(operand);
      if (it != m.index.end() && !llvm::is_contained(saved, it->second))
        work.push_back(it->second);
    }
  }
  return flops;
}

/// Recomputes more until the saved activations fit `budget` bytes. Each
/// step takes the move with the most bytes freed per FLOP recomputed:
/// replacing a saved value by its inputs (cheap, frees the difference), or
/// dropping it and recomputing its cone from what stays saved (frees all of
/// it). The sequence of save sets does not depend on the budget and every
/// step frees bytes, so a smaller budget never saves more, and every budget
/// down to zero activations (save inputs only) is reachable.
void fitBudget(const JointGraphModel &m, SmallVector<unsigned> &saved,
               int64_t budget) {
  auto bytes = [&](unsigned v) { return m.problem.values[v].bytes; };
  auto total = [&] {
    int64_t t = 0;
    for (unsigned v : saved)
      t += bytes(v);
    return t;
  };
  while (total() > budget && !saved.empty()) {
    int bestIndex = -1;
    double bestScore = -1;
    SmallVector<unsigned> bestInputs;
    for (auto [k, v] : llvm::enumerate(saved)) {
      // Move 1: replace by the inputs that are not saved yet.
      SmallVector<unsigned> inputs, fresh;
      realInputs(m, v, inputs);
      int64_t added = 0;
      for (unsigned u : inputs)
        if (!llvm::is_contained(saved, u)) {
          fresh.push_back(u);
          added += bytes(u);
        }
      if (bytes(v) - added > 0) {
        double score = (bytes(v) - added) /
                       std::max(1.0, m.values[v].recomputeFlops);
        if (score > bestScore) {
          bestScore = score;
          bestIndex = k;
          bestInputs = fresh;
        }
      }
      // Move 2: drop it; the backward recomputes its cone.
      double score = bytes(v) / std::max(1.0, coneFlops(m, v, saved));
      if (score > bestScore) {
        bestScore = score;
        bestIndex = k;
        bestInputs.clear();
      }
    }
    saved.erase(saved.begin() + bestIndex);
    for (unsigned u : bestInputs)
      if (!llvm::is_contained(saved, u))
        saved.push_back(u);
    llvm::sort(saved);
  }
}

std::string typeString(Type t) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << t;
  return s;
}

/// One saved value of the report.
struct SavedRecord {
  std::string name, producer, kind, dtype;
  SmallVector<int64_t, 4> shape;
  int64_t bytes;
};

SavedRecord savedRecord(std::string name, StringRef producer, StringRef kind,
                        Value v) {
  auto t = cast<RankedTensorType>(v.getType());
  return {std::move(name), producer.str(), kind.str(),
          typeString(t.getElementType()),
          SmallVector<int64_t, 4>(t.getShape()), tensorBytes(v)};
}

/// The report of one function.
struct FunctionRecord {
  std::string name, forward, backward, algorithm;
  std::vector<SavedRecord> saved;
  std::vector<StringRef> recomputed; // op names, owned by the context
  int64_t savedBytes, maxFlow, forwardValues;
  bool fallback;
  double solverMs;
};

/// Streams the report: a json::Value tree costs a DenseMap per saved value
/// and deep copies when arrays grow (json::Value's move is not noexcept),
/// which made the report most of the pass time on large graphs. Keys are
/// written in sorted order, as json::Object prints them.
void writeReport(llvm::raw_ostream &os, ArrayRef<FunctionRecord> records) {
  llvm::json::OStream j(os, 2);
  j.object([&] {
    j.attributeArray("functions", [&] {
      for (const FunctionRecord &r : records)
        j.object([&] {
          j.attribute("algorithm", r.algorithm);
          j.attribute("backward", r.backward);
          j.attribute("fallback", r.fallback);
          j.attribute("forward", r.forward);
          j.attribute("forward_values", r.forwardValues);
          j.attribute("max_flow", r.maxFlow);
          j.attribute("name", r.name);
          j.attributeArray("recomputed", [&] {
            for (StringRef op : r.recomputed)
              j.value(op);
          });
          j.attributeArray("saved", [&] {
            for (const SavedRecord &e : r.saved)
              j.object([&] {
                j.attribute("bytes", e.bytes);
                j.attribute("dtype", e.dtype);
                j.attribute("kind", e.kind);
                j.attribute("name", e.name);
                j.attribute("producer", e.producer);
                j.attributeArray("shape", [&] {
                  for (int64_t d : e.shape)
                    j.value(d);
                });
              });
          });
          j.attribute("saved_bytes", r.savedBytes);
          j.attribute("solver_time_ms", r.solverMs);
        });
    });
  });
  os << "\n";
}

/// Figure 5.1: forward ops blue, backward ops red, saved values bold, and
/// the edges that cross the cut dashed.
void writeDot(llvm::raw_ostream &os, const JointGraphModel &m,
              ArrayRef<unsigned> saved) {
  func::FuncOp fn = m.fn;
  Block &body = fn.getBody().front();
  llvm::DenseMap<Operation *, unsigned> id;
  os << "digraph \"" << fn.getSymName() << "\" {\n"
     << "  rankdir=TB; node [shape=box, style=\"rounded,filled\", "
        "fontname=\"Helvetica\"];\n";
  // Placeholders are numbered from 1 per kind, as in Listing 5.2.
  unsigned primal = 0, tangentCount = 0;
  for (unsigned i = 0; i < fn.getNumArguments(); ++i) {
    bool tangent = tp::isTangent(fn, i);
    os << "  arg" << i << " [label=\"" << (tangent ? "tangents_" : "primals_")
       << (tangent ? ++tangentCount : ++primal) << "\", shape=ellipse, fillcolor=\""
       << (tangent ? "#f4cccc" : "#cfe2f3") << "\"];\n";
  }
  llvm::DenseSet<Value> savedValues;
  for (unsigned v : saved)
    savedValues.insert(m.values[v].value);
  unsigned n = 0;
  for (Operation &op : body.without_terminator()) {
    id[&op] = n;
    bool bw = tp::isBackward(&op);
    bool isSaved = llvm::any_of(op.getResults(), [&](Value r) {
      return savedValues.contains(r);
    });
    os << "  op" << n++ << " [label=\"" << (bw ? "[BW] " : "[FW] ")
       << op.getName().getStringRef() << (isSaved ? "\\nsaved" : "")
       << "\", fillcolor=\"" << (bw ? "#f4cccc" : "#cfe2f3") << "\""
       << (isSaved ? ", penwidth=3" : "") << "];\n";
  }
  os << "  out [label=\"return\", shape=ellipse];\n";
  auto node = [&](Value v) -> std::string {
    if (auto arg = dyn_cast<BlockArgument>(v))
      return "arg" + std::to_string(arg.getArgNumber());
    return "op" + std::to_string(id[v.getDefiningOp()]);
  };
  for (Operation &op : body) {
    std::string dst = isa<func::ReturnOp>(op) ? "out" : "op" + std::to_string(id[&op]);
    bool bw = tp::isBackward(&op);
    for (Value v : op.getOperands()) {
      bool crossesCut = bw && savedValues.contains(v);
      os << "  " << node(v) << " -> " << dst
         << (crossesCut ? " [style=dashed, penwidth=2, label=\"cut\"]" : "")
         << ";\n";
    }
  }
  os << "}\n";
}

struct MinCutPass : public tp::impl::StaxMinCutBase<MinCutPass> {
  using StaxMinCutBase::StaxMinCutBase;

  void runOnOperation() override;

private:
  LogicalResult partition(func::FuncOp fn,
                          SmallVectorImpl<FunctionRecord> &records,
                          llvm::raw_ostream *dotStream);
};

LogicalResult MinCutPass::partition(func::FuncOp fn,
                                    SmallVectorImpl<FunctionRecord> &records,
                                    llvm::raw_ostream *dotStream) {
  ModelOptions options{forceSaveNearFar, nearFarDistance, forceSaveChainEnd,
                       chainLength};
  FailureOr<JointGraphModel> model = buildModel(fn, options);
  if (failed(model))
    return failure();
  MaxFlowAlgorithm algo = algorithm;
  auto start = std::chrono::steady_clock::now();
  RematSolution solution = solveRematerialization(model->problem, algo);
  double solverMs = std::chrono::duration<double, std::milli>(
                        std::chrono::steady_clock::now() - start)
                        .count();
  SmallVector<unsigned> saved(solution.saved);
  // The cut minimizes capacity, not bytes: never save more bytes than saving
  // every value the backward reads (views replaced by what they view).
  {
    SmallVector<unsigned> all;
    llvm::DenseSet<unsigned> inAll; // is_contained on `all` was quadratic
    for (auto [v, fv] : llvm::enumerate(model->problem.values)) {
      if (!fv.inB)
        continue;
      SmallVector<unsigned> real;
      if (model->values[v].isView)
        realInputs(*model, v, real);
      else
        real.push_back(v);
      for (unsigned u : real)
        if (inAll.insert(u).second)
          all.push_back(u);
    }
    auto bytesOf = [&](ArrayRef<unsigned> set) {
      int64_t t = 0;
      for (unsigned v : set)
        t += model->problem.values[v].bytes;
      return t;
    };
    if (bytesOf(saved) > bytesOf(all)) {
      llvm::sort(all);
      saved = all;
    }
  }
  if (solution.fallback)
    fn.emitRemark() << "no finite cut exists: saving every value the "
                       "backward reads";

  if (!memoryBudget.empty()) {
    // An integer literal is bytes (one beyond int64 is as good as
    // unlimited); any other spelling of a number in [0, 1] (0.5, 1e-07,
    // 1.) is a fraction of what the min cut saves.
    double x;
    APInt bytes;
    bool isBytes = !StringRef(memoryBudget).getAsInteger(10, bytes);
    if (StringRef(memoryBudget).getAsDouble(x) || !(x >= 0) ||
        (!isBytes && x > 1.0))
      return fn.emitError() << "memory-budget must be a byte count or a "
                               "fraction in [0, 1], got '"
                            << memoryBudget << "'";
    int64_t optimal = 0;
    for (unsigned v : saved)
      optimal += model->problem.values[v].bytes;
    int64_t budget = !isBytes ? static_cast<int64_t>(x * optimal)
                     : bytes.getActiveBits() < 64
                         ? static_cast<int64_t>(bytes.getZExtValue())
                         : std::numeric_limits<int64_t>::max();
    fitBudget(*model, saved, budget);
  }

  if (dotStream)
    writeDot(*dotStream, *model, saved);

  // Without a report, only the split remains to do.
  if (report.empty())
    return failure(failed(splitJointFunction(*model, saved)));

  // The report names values before the split erases the joint function.
  FunctionRecord r;
  r.name = fn.getSymName().str();
  struct Named { std::string name, producer; };
  SmallVector<Named> names;
  for (unsigned v : saved)
    names.push_back(
        {valueName(model->values[v].value, model->values[v].ordinal),
         model->values[v].value.getDefiningOp()->getName().getStringRef().str()});
  FailureOr<SplitResult> split = splitJointFunction(*model, saved);
  if (failed(split))
    return failure();
  r.saved.reserve(split->savedInputs.size() + names.size());
  for (unsigned i : split->savedInputs) {
    Value arg = split->forward.getArgument(i); // primal i keeps its position
    r.saved.push_back(savedRecord("primals_" + std::to_string(i + 1),
                                  "placeholder", "input", arg));
  }
  unsigned k = split->savedInputs.size();
  r.savedBytes = 0;
  for (Named &n : names) {
    Value v = split->backward.getArgument(k++);
    r.saved.push_back(
        savedRecord(std::move(n.name), n.producer, "activation", v));
    r.savedBytes += tensorBytes(v);
  }
  for (Operation *op : split->recomputed)
    r.recomputed.push_back(op->getName().getStringRef());
  r.forward = split->forward.getSymName().str();
  r.backward = split->backward.getSymName().str();
  r.maxFlow = solution.maxFlow;
  r.fallback = solution.fallback;
  r.algorithm = algorithm == MaxFlowAlgorithm::Dinic ? "dinic" : "edmonds-karp";
  r.forwardValues = static_cast<int64_t>(model->values.size());
  r.solverMs = solverMs;
  records.push_back(std::move(r));
  return success();
}

void MinCutPass::runOnOperation() {
  if (failed(tp::verifyFunctional(getOperation(), getArgument())))
    return signalPassFailure();
  std::unique_ptr<llvm::raw_fd_ostream> dotFile;
  if (!dot.empty()) {
    std::error_code ec;
    dotFile = std::make_unique<llvm::raw_fd_ostream>(dot, ec);
    if (ec) {
      mlir::emitError(getOperation().getLoc())
          << "cannot write " << dot << ": " << ec.message();
      return signalPassFailure();
    }
  }
  SmallVector<func::FuncOp> joints;
  for (auto fn : getOperation().getOps<func::FuncOp>())
    if (tp::getJointOutputs(fn))
      joints.push_back(fn);
  SmallVector<FunctionRecord> records;
  for (func::FuncOp fn : joints)
    if (failed(partition(fn, records, dotFile.get())))
      return signalPassFailure();
  if (!report.empty()) {
    std::error_code ec;
    llvm::raw_fd_ostream os(report, ec);
    if (ec) {
      mlir::emitError(getOperation().getLoc())
          << "cannot write " << report << ": " << ec.message();
      return signalPassFailure();
    }
    writeReport(os, records);
  }
}
} // namespace
