//===- StaxToLoops.cpp - stax functions to loops over memrefs -------------===//
//
// Rewrites each function of scheduled stax into destination-passing style
// over flat memrefs, plans where every buffer lives (the caller's output
// buffers, one arena for intermediates, globals for constants) and asks
// NodeLoops to emit each node's loop nest.
//
//===----------------------------------------------------------------------===//
#include "MergeLaneLoops.h"
#include "NodeLoops.h"
#include "ScanLoops.h"
#include "SkinnyContraction.h"
#include "Stax/Conversion/Passes.h"
#include "Stax/Dialect/Stax/IR/DiscardableAttrs.h"
#include "Stax/Dialect/Tp/IR/TpOps.h"
#include "Stax/Support/CSymbols.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/TargetParser/Host.h"
#include <limits>

namespace mlir::stax {
#define GEN_PASS_DEF_STAXTOLOOPS
#include "Stax/Conversion/Passes.h.inc"
} // namespace mlir::stax

using namespace mlir;
using namespace mlir::stax;
using namespace mlir::stax::codegen;

namespace {

constexpr int64_t kArenaAlignment = 64;

/// Module-wide state: runtime declarations, error sites, constant names.
struct ModuleState {
  ModuleOp module;
  SmallVector<Attribute> errorSites;
  func::FuncOp indexError;
  unsigned constants = 0;

  func::FuncOp declare(StringRef name, TypeRange inputs,
                       TypeRange results = {}) {
    if (auto f = module.lookupSymbol<func::FuncOp>(name))
      return f;
    OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
    auto f = func::FuncOp::create(b, module.getLoc(), name,
                                  b.getFunctionType(inputs, results));
    f.setPrivate();
    return f;
  }
};

/// A buffer the function needs: where a tensor value's storage comes from.
struct Buffer {
  Value value;          // the tensor value (a node or external result)
  int64_t elements = 0; // storage elements
  Type elementType;
  unsigned def = 0, lastUse = 0; // top-level op positions
  int64_t output = -1;           // >= 0: written straight into that output
  int64_t offset = -1;           // arena byte offset otherwise
  int64_t bytes() const {
    int64_t eb = std::max<int64_t>(1, elementType.getIntOrFloatBitWidth() / 8);
    return llvm::alignTo(elements * eb, kArenaAlignment);
  }
};

/// The buffer `node` is the transpose of (its last two dimensions swapped,
/// both row-major), or null. BLAS reads such an operand with a transpose
/// flag instead of a copy.
Value transposedSource(Operation *node) {
  auto p = dyn_cast_or_null<PointwiseOp>(node);
  if (!p || p->getParentOfType<KernelOp>() ||
      !p.getLayout().isRowMajor(p.getIterationRanges()))
    return {};
  return p.getRowMajorSource(/*transposed=*/true);
}

/// Whether `node`, the transpose of `matrices` viewed as rows of its last
/// dimension (transposedSource), swaps the last two dimensions of each
/// matrix: its result ends in (cols, rows). A view that merges the batch
/// into the rows transposes the flattened (batch * rows) x cols matrix
/// instead, which one transposed BLAS product per batch cannot write.
static bool swapsMatrixDims(Operation *node, Value matrices) {
  ArrayRef<int64_t> shape =
      cast<RankedTensorType>(node->getResult(0).getType()).getShape();
  ArrayRef<int64_t> source =
      cast<RankedTensorType>(matrices.getType()).getShape();
  return shape.size() >= 2 && source.size() >= 2 &&
         shape.take_back(2) ==
             ArrayRef<int64_t>{source.back(), source[source.size() - 2]};
}

class FunctionConversion : public BufferMap {
public:
  FunctionConversion(func::FuncOp fn, ModuleState &state,
                     const LoopOptions &options)
      : fn(fn), state(state), options(options), b(fn.getContext()) {}

  LogicalResult run();

  Value storageOf(Value v) const override { return storage.lookup(resolve(v)); }
  int64_t errorSite(Operation *op) override {
    // One site per op: a vector loop and its scalar tail share it.
    auto it = sites.find(op);
    if (it != sites.end())
      return it->second;
    std::string loc;
    llvm::raw_string_ostream os(loc);
    os << op->getName() << " at " << op->getLoc();
    state.errorSites.push_back(StringAttr::get(fn.getContext(), loc));
    return sites[op] = state.errorSites.size() - 1;
  }
  func::FuncOp indexErrorCallee() override {
    Type i64 = b.getI64Type();
    return state.declare("stax_rt_index_error", {i64, i64, i64});
  }
  int64_t nanErrorSite(Operation *node) override { return errorSite(node); }
  func::FuncOp nanErrorCallee() override {
    Type i64 = b.getI64Type();
    return state.declare("stax_rt_nan_error", {i64, i64});
  }
  func::FuncOp externalCallee(StringRef name, FunctionType type) override {
    return state.declare(name, type.getInputs(), type.getResults());
  }

private:
  func::FuncOp fn, newFn;
  ModuleState &state;
  const LoopOptions &options;
  OpBuilder b;
  DenseMap<Value, Value> storage; // tensor value -> flat memref
  DenseMap<Value, Value> aliases;  // kernel result -> the yielded node result
  SmallVector<Buffer> buffers;
  SmallVector<Operation *> ops; // the top-level ops, in order
  DenseMap<Operation *, int64_t> sites; // op -> its checks' error site
  /// Transpose nodes whose only readers are BLAS calls that read the
  /// source with a transpose flag: not emitted.
  DenseSet<Operation *> absorbed;
  /// Contractions whose only reader is a transpose node: they compute the
  /// transpose, B^T A^T, straight into that node's storage, and the node
  /// is not emitted (a weight gradient (x^T g)^T is one BLAS call).
  DenseMap<Operation *, Operation *> transposedResults;
  DenseSet<Operation *> writtenByContraction;

  Value resolve(Value v) const {
    auto it = aliases.find(v);
    return it == aliases.end() ? v : it->second;
  }
  /// Memrefs hold signless elements (arith reads nothing else): a ui8
  /// tensor is an i8 memref, which loads and stores extend and truncate.
  static MemRefType flatType(RankedTensorType t, int64_t elements) {
    return MemRefType::get({elements}, getStorageType(t.getElementType()));
  }
  LogicalResult checkSignature();
  LogicalResult collectBuffers();
  void assignOutputs();
  int64_t assignArena();
  LogicalResult emitOp(Operation *op);
  LogicalResult emitUnprofiled(Operation *op);
  /// The bytes of the distinct tensors `op` reads and writes.
  int64_t idealBytes(Operation *op) const;
  /// The address of a constant holding `op`'s profile name, and its length.
  std::pair<Value, Value> profileName(Operation *op, Location loc);
  LogicalResult emitConstant(tp::ConstantOp op);
  LogicalResult emitContraction(Operation *op);
  /// The buffer a contraction reads in place of its operand `v`, and
  /// whether it reads it transposed: through transpose nodes (a transpose
  /// of a transpose is the buffer itself), unless a contraction writes the
  /// node directly (its source has no buffer of its own).
  std::pair<Value, int64_t> readThroughTransposes(Value v) const {
    auto shape = cast<RankedTensorType>(v.getType()).getShape();
    SmallVector<int64_t> swapped(shape);
    std::swap(swapped[swapped.size() - 2], swapped.back());
    int64_t transposed = 0;
    while (Operation *def = v.getDefiningOp()) {
      Value source = transposedSource(def);
      // Each step must swap the operand's own matrix dims.
      ArrayRef<int64_t> expected = transposed ? ArrayRef(swapped) : shape;
      if (!source || writtenByContraction.contains(def) ||
          cast<RankedTensorType>(v.getType()).getShape() != expected)
        break;
      v = source;
      transposed ^= 1;
    }
    return {v, transposed};
  }
  LogicalResult emitContractionLoops(Operation *op, int64_t batch, int64_t m,
                                     int64_t n, int64_t k);
  LogicalResult emitSort(Operation *op);
  LogicalResult emitCtc(Operation *op);
  /// The aligned address of a tensor's storage as i64 (how the runtime
  /// takes pointers).
  Value pointerOf(Value tensor, Location loc);
  LogicalResult emitReturn(func::ReturnOp op);
};

LogicalResult FunctionConversion::checkSignature() {
  auto check = [&](Type t, StringRef what, unsigned i) -> LogicalResult {
    auto rt = dyn_cast<RankedTensorType>(t);
    if (!rt)
      return fn.emitError() << what << " #" << i << " has type " << t
                            << "; code generation takes ranked tensors";
    if (!rt.hasStaticShape())
      return fn.emitError() << what << " #" << i << " has type " << t
                            << "; code generation needs static shapes";
    if (!rt.getElementType().isIntOrFloat())
      return fn.emitError() << what << " #" << i << " has element type "
                            << rt.getElementType()
                            << "; code generation needs integers or floats";
    return success();
  };
  // Entry points are C symbols: one named like a function its code calls
  // (`exp`) would be called in its place.
  if (isReservedCSymbol(fn.getSymName()))
    return fn.emitError() << "function name '" << fn.getSymName()
                          << "' is a symbol compiled code calls or links "
                             "against (C math library, runtime); rename it";
  for (auto [i, t] : llvm::enumerate(fn.getArgumentTypes()))
    if (failed(check(t, "argument", i)))
      return failure();
  for (auto [i, t] : llvm::enumerate(fn.getResultTypes()))
    if (failed(check(t, "result", i)))
      return failure();
  if (!fn.getBody().hasOneBlock())
    return fn.emitError() << "code generation needs a single-block body";
  return success();
}

LogicalResult FunctionConversion::collectBuffers() {
  DenseMap<Value, unsigned> index;
  auto addBuffer = [&](Value v, int64_t elements, unsigned pos) {
    auto t = cast<RankedTensorType>(v.getType());
    index[v] = buffers.size();
    buffers.push_back(Buffer{v, elements, t.getElementType(), pos, pos});
  };
  if (!options.gpu)
    for (Operation &op : fn.getBody().front())
      if (transposedSource(&op) &&
          llvm::all_of(op.getUsers(), [](Operation *user) {
            return isa<tp::MmOp, tp::BmmOp>(user);
          }))
        absorbed.insert(&op);
  if (!options.gpu)
    for (Operation &op : fn.getBody().front()) {
      if (!isa<tp::MmOp, tp::BmmOp>(op) || !op.getResult(0).hasOneUse())
        continue;
      // The use is a stax.load in the body of the node that reads it.
      Operation *user = fn.getBody().front().findAncestorOpInBlock(
          **op.getResult(0).getUsers().begin());
      if (user && !absorbed.contains(user) &&
          transposedSource(user) == op.getResult(0) &&
          swapsMatrixDims(user, op.getResult(0))) {
        transposedResults[&op] = user;
        writtenByContraction.insert(user);
      }
    }
  DenseMap<Operation *, unsigned> position;
  for (Operation &op : fn.getBody().front()) {
    unsigned pos = ops.size();
    position[&op] = pos;
    ops.push_back(&op);
    if (absorbed.contains(&op) || transposedResults.contains(&op))
      continue;
    if (isa<PointwiseOp, ReductionOp, ScatterOp>(op)) {
      FailureOr<int64_t> n = storageElements(&op);
      if (failed(n))
        return failure();
      for (Value r : op.getResults())
        addBuffer(r, *n, pos);
      // Written by the contraction it transposes: live from there on.
      if (writtenByContraction.contains(&op))
        buffers.back().def =
            position.lookup(transposedSource(&op).getDefiningOp());
    } else if (auto kernel = dyn_cast<KernelOp>(op)) {
      Block &body = kernel.getBody().front();
      SmallVector<Value> scratch = kernelScratchValues(kernel, options);
      for (Operation &node : body.without_terminator()) {
        if (!isa<PointwiseOp, ReductionOp, ScatterOp>(node))
          return node.emitError() << "code generation expects nodes in a kernel";
        FailureOr<int64_t> n = storageElements(&node);
        if (failed(n))
          return failure();
        for (Value r : node.getResults())
          if (!llvm::is_contained(scratch, r))
            addBuffer(r, *n, pos);
      }
      for (auto [r, y] : llvm::zip(kernel.getResults(),
                                   body.getTerminator()->getOperands()))
        aliases[r] = y;
    } else if (isa<tp::MmOp, tp::BmmOp, tp::SortOp, tp::TopkOp, tp::CtcLossOp,
                   tp::CtcLossBackwardOp>(op) ||
               isScan(&op)) {
      for (Value r : op.getResults())
        addBuffer(r, cast<RankedTensorType>(r.getType()).getNumElements(), pos);
    } else if (!isa<tp::ConstantOp, func::ReturnOp>(op)) {
      return op.emitError() << "'" << op.getName()
                            << "' has no CPU code generation (lower it to "
                               "stax nodes first, or run it outside Stax)";
    }
  }
  // Last uses: the top-level op holding each use (through kernel results).
  for (unsigned pos = 0, e = ops.size(); pos < e; ++pos) {
    ops[pos]->walk([&](Operation *inner) {
      for (Value operand : inner->getOperands()) {
        Value v = resolve(operand);
        auto use = [&](Value v) {
          auto it = index.find(v);
          if (it != index.end())
            buffers[it->second].lastUse =
                std::max<unsigned>(buffers[it->second].lastUse, pos);
        };
        // A contraction reads through a transpose (emitContraction); its
        // source may be a kernel's result, whose buffer is the yielded
        // node's. An absorbed transpose has no buffer of its own.
        if (isa<tp::MmOp, tp::BmmOp>(inner))
          use(resolve(readThroughTransposes(v).first));
        if (!absorbed.contains(v.getDefiningOp()))
          use(v);
      }
    });
  }
  return success();
}

/// A function result is its storage read row-major: lowering materializes
/// results row-major and loop normalization (which may permute a node's
/// loops and layout together, keeping every address) never changes what is
/// stored, so the storage is the result whatever the layout says. The
/// interpreter returns results the same way.
void FunctionConversion::assignOutputs() {
  auto ret = cast<func::ReturnOp>(fn.getBody().front().getTerminator());
  DenseSet<Value> bound;
  for (auto [i, v] : llvm::enumerate(ret.getOperands())) {
    Value r = resolve(v);
    if (!bound.insert(r).second)
      continue;
    int64_t numel = cast<RankedTensorType>(v.getType()).getNumElements();
    for (Buffer &buf : buffers)
      if (buf.value == r && buf.elements == numel && buf.output < 0 &&
          (!isa<ScatterOp>(r.getDefiningOp()) ||
           cast<ScatterOp>(r.getDefiningOp()).getBase() != r))
        buf.output = i;
  }
}

int64_t FunctionConversion::assignArena() {
  // First fit in definition order among buffers whose lifetimes overlap.
  struct Placed {
    int64_t offset, bytes;
    unsigned def, lastUse;
  };
  SmallVector<Placed> placed;
  int64_t total = 0;
  for (Buffer &buf : buffers) {
    if (buf.output >= 0)
      continue;
    SmallVector<std::pair<int64_t, int64_t>> busy;
    for (const Placed &p : placed)
      if (p.def <= buf.lastUse && buf.def <= p.lastUse)
        busy.push_back({p.offset, p.offset + p.bytes});
    llvm::sort(busy);
    int64_t offset = 0;
    for (auto [lo, hi] : busy) {
      if (offset + buf.bytes() <= lo)
        break;
      offset = std::max(offset, hi);
    }
    buf.offset = offset;
    placed.push_back({offset, buf.bytes(), buf.def, buf.lastUse});
    total = std::max(total, offset + buf.bytes());
  }
  return total;
}

LogicalResult FunctionConversion::emitConstant(tp::ConstantOp op) {
  auto t = cast<RankedTensorType>(op.getType());
  auto value = dyn_cast<DenseElementsAttr>(op.getValueAttr());
  if (!value)
    return op.emitError() << "code generation needs a dense constant";
  auto type = flatType(t, t.getNumElements());
  auto flat = value.bitcast(type.getElementType())
                  .reshape(RankedTensorType::get({t.getNumElements()},
                                                 type.getElementType()));
  std::string name =
      (fn.getName() + "_const" + Twine(state.constants++)).str();
  OpBuilder gb = OpBuilder::atBlockBegin(state.module.getBody());
  auto global = memref::GlobalOp::create(
      gb, op.getLoc(), name, gb.getStringAttr("private"), type, flat,
      /*constant=*/true, gb.getI64IntegerAttr(kArenaAlignment));
  storage[op.getResult()] =
      memref::GetGlobalOp::create(b, op.getLoc(), type, global.getSymName());
  return success();
}

/// The runtime's name for multiplying matrices of element type `t`
/// (stax_rt_matmul_<suffix>), or "": BLAS for f32/f64, wrapping loops for
/// the integers (uint8 as i8: the same bits modulo 256).
static StringRef matmulSuffix(Type t) {
  if (t.isF32())
    return "f32";
  if (t.isF64())
    return "f64";
  auto integer = dyn_cast<IntegerType>(t);
  switch (integer ? integer.getWidth() : 0) {
  case 8:
    return "i8";
  case 16:
    return "i16";
  case 32:
    return "i32";
  case 64:
    return "i64";
  default:
    return "";
  }
}

LogicalResult FunctionConversion::emitContraction(Operation *op) {
  Location loc = op->getLoc();
  auto rt = cast<RankedTensorType>(op->getResult(0).getType());
  auto lhsT = cast<RankedTensorType>(op->getOperand(0).getType());
  Type elt = rt.getElementType();
  StringRef suffix = matmulSuffix(elt);
  if (suffix.empty())
    return op->emitError() << "'" << op->getName() << "' on " << elt
                           << " has no CPU code generation (f32, f64, "
                              "integers)";
  bool batched = isa<tp::BmmOp>(op);
  int64_t batch = batched ? rt.getDimSize(0) : 1;
  int64_t m = rt.getDimSize(batched ? 1 : 0), n = rt.getDimSize(batched ? 2 : 1);
  int64_t k = lhsT.getDimSize(batched ? 2 : 1);
  if (options.gpu)
    return emitContractionLoops(op, batch, m, n, k);
  // A transpose: pass its source and a transpose flag, whether or not the
  // transpose is also materialized for other users. The product is then
  // computed the same way (BLAS, one summation order) wherever it occurs:
  // a forward product and its recomputation in the backward (min cut),
  // whose transposes differ in their other users, give equal bits.
  auto operand = [&](unsigned i) -> std::pair<Value, int64_t> {
    return readThroughTransposes(op->getOperand(i));
  };
  auto [lhs, transA] = operand(0);
  auto [rhs, transB] = operand(1);
  Value out = op->getResult(0);
  if (Operation *t = transposedResults.lookup(op)) {
    // (op(A) op(B))^T = op(B)^T op(A)^T, in the transpose node's storage.
    std::swap(lhs, rhs);
    std::tie(transA, transB) = std::make_pair(1 - transB, 1 - transA);
    std::swap(m, n);
    out = t->getResult(0);
  }
  ContractionShape shape{batch, m, n, k, transA != 0};
  if (transB == 0 && isSkinnyContraction(elt, shape, options)) {
    emitSkinnyContraction(b, loc, storageOf(lhs), storageOf(rhs),
                          storageOf(out), shape, options);
    emitBufferNanCheck(b, loc, op, storageOf(out), *this, options);
    return success();
  }
  Type i64 = b.getI64Type();
  func::FuncOp callee =
      state.declare(("stax_rt_matmul_" + suffix).str(),
                    {i64, i64, i64, i64, i64, i64, i64, i64, i64});
  SmallVector<Value> args;
  for (int64_t v : {batch, m, n, k, transA, transB})
    args.push_back(arith::ConstantIntOp::create(b, loc, v, 64));
  args.push_back(pointerOf(lhs, loc));
  args.push_back(pointerOf(rhs, loc));
  args.push_back(pointerOf(out, loc));
  func::CallOp::create(b, loc, callee, args);
  emitBufferNanCheck(b, loc, op, storageOf(out), *this, options);
  return success();
}

Value FunctionConversion::pointerOf(Value tensor, Location loc) {
  Value idx =
      memref::ExtractAlignedPointerAsIndexOp::create(b, loc, storageOf(tensor));
  return arith::IndexCastOp::create(b, loc, b.getI64Type(), idx);
}

/// The runtime's name for sorting elements of type `t` (a bool is a byte
/// holding 0 or 1, which sorts as i8; ui8 sorts unsigned), or "".
static StringRef sortSuffix(Type t) {
  if (t.isF32())
    return "f32";
  if (t.isF64())
    return "f64";
  if (t.isUnsignedInteger(8))
    return "u8";
  if (t.isInteger(1) || t.isInteger(8))
    return "i8";
  if (t.isInteger(16))
    return "i16";
  if (t.isInteger(32))
    return "i32";
  if (t.isInteger(64))
    return "i64";
  return "";
}

/// tp.sort calls stax_rt_sort_<type>(outer, len, inner, descending, in,
/// values, indices): every slice along dim, `len` elements `inner` apart,
/// sorted by the order of the interpreter (Stax/Support/SortOrder.h).
/// tp.topk calls stax_rt_topk_<type>(outer, len, inner, k, descending, in,
/// values, indices), whose results keep the first k of each slice.
LogicalResult FunctionConversion::emitSort(Operation *op) {
  auto sort = dyn_cast<tp::SortOp>(op);
  auto topk = dyn_cast<tp::TopkOp>(op);
  if (options.gpu)
    return op->emitError() << "'" << op->getName()
                           << "' has no CUDA code generation (run it on the "
                              "cpu target, or outside Stax)";
  Location loc = op->getLoc();
  Value self = op->getOperand(0);
  auto t = cast<RankedTensorType>(self.getType());
  StringRef suffix = sortSuffix(t.getElementType());
  if (suffix.empty())
    return op->emitError() << "'" << op->getName() << "' on "
                           << t.getElementType()
                           << " has no CPU code generation (f32, f64, integers)";
  // A 0-d tensor is one slice of one element (a 0-d topk keeps it).
  int64_t rank = t.getRank();
  int64_t dimAttr = static_cast<int64_t>(sort ? sort.getDim() : topk.getDim());
  int64_t dim = rank ? *tp::normalizeDim(dimAttr, rank) : 0;
  int64_t outer = 1, len = 1, inner = 1;
  for (int64_t d = 0; d < rank; ++d)
    (d < dim ? outer : d == dim ? len : inner) *= t.getDimSize(d);
  int64_t k = topk && rank ? static_cast<int64_t>(topk.getK()) : len;
  bool descending = sort ? sort.getDescending() : topk.getLargest();
  Type i64 = b.getI64Type();
  SmallVector<Type> params(topk ? 8 : 7, i64);
  func::FuncOp callee = state.declare(
      ((topk ? "stax_rt_topk_" : "stax_rt_sort_") + suffix).str(), params);
  Value values = op->getResult(0), indices = op->getResult(1);
  auto pointers = [&] {
    return SmallVector<Value>{pointerOf(self, loc), pointerOf(values, loc),
                              pointerOf(indices, loc)};
  };
  auto cst = [&](int64_t v) -> Value {
    return arith::ConstantIntOp::create(b, loc, v, 64);
  };
  // The sizes (outer, len, inner[, k], descending) as constants.
  auto sizes = [&](int64_t outerCount) {
    SmallVector<Value> args;
    for (int64_t v : {outerCount, len, inner})
      args.push_back(cst(v));
    if (topk)
      args.push_back(cst(k));
    args.push_back(cst(descending));
    return args;
  };
  // Independent slices of the outer dims sort in parallel, one call each
  // (their pointers advanced by a slice), when there is enough work.
  bool parallelSlices =
      options.parallel && outer > 1 && outer * len * inner >= options.grain;
  if (!parallelSlices) {
    SmallVector<Value> args = sizes(outer);
    llvm::append_range(args, pointers());
    func::CallOp::create(b, loc, callee, args);
    return success();
  }
  SmallVector<Value> ptrs = pointers();
  // A bool (i1) key occupies a byte.
  int64_t keyBytes = llvm::divideCeil(
      cast<MemRefType>(storageOf(values).getType()).getElementTypeBitWidth(),
      8);
  Value lb = arith::ConstantIndexOp::create(b, loc, 0);
  Value ub = arith::ConstantIndexOp::create(b, loc, outer);
  Value step = arith::ConstantIndexOp::create(b, loc, 1);
  auto par = scf::ParallelOp::create(b, loc, ValueRange{lb}, ValueRange{ub},
                                     ValueRange{step});
  OpBuilder::InsertionGuard g(b);
  b.setInsertionPointToStart(par.getBody());
  Value o = arith::IndexCastOp::create(b, loc, i64, par.getInductionVars()[0]);
  auto advance = [&](Value base, int64_t bytesPerSlice) -> Value {
    Value bytes = arith::MulIOp::create(b, loc, o, cst(bytesPerSlice));
    return arith::AddIOp::create(b, loc, base, bytes);
  };
  SmallVector<Value> args = sizes(1);
  args.push_back(advance(ptrs[0], len * inner * keyBytes));
  args.push_back(advance(ptrs[1], k * inner * keyBytes));
  args.push_back(advance(ptrs[2], k * inner * 8));
  func::CallOp::create(b, loc, callee, args);
  return success();
}

/// tp.ctc_loss calls stax_rt_ctc_loss_<type>(T, N, C, S, blank, first,
/// count, site, log_probs, targets, input_lengths, target_lengths, nll,
/// log_alpha) and tp.ctc_loss_backward stax_rt_ctc_loss_backward_<type>(T,
/// N, C, S, blank, zero_infinity, first, count, site, grad, log_probs,
/// targets, input_lengths, target_lengths, nll, log_alpha, result)
/// (Stax/Support/CTCLoss.h): the samples in parallel, one call each, when
/// there is enough work.
LogicalResult FunctionConversion::emitCtc(Operation *op) {
  auto forward = dyn_cast<tp::CtcLossOp>(op);
  auto backward = dyn_cast<tp::CtcLossBackwardOp>(op);
  if (options.gpu)
    return op->emitError() << "'" << op->getName()
                           << "' has no CUDA code generation (run it on the "
                              "cpu target, or outside Stax)";
  Location loc = op->getLoc();
  Value logProbs = forward ? forward.getLogProbs() : backward.getLogProbs();
  Value targets = forward ? forward.getTargets() : backward.getTargets();
  auto lp = cast<RankedTensorType>(logProbs.getType());
  int64_t time = lp.getDimSize(0), batch = lp.getDimSize(1);
  int64_t classes = lp.getDimSize(2);
  int64_t maxTarget = cast<RankedTensorType>(targets.getType()).getDimSize(1);
  if (batch == 0)
    return success();
  std::string name =
      forward ? "stax_rt_ctc_loss_" : "stax_rt_ctc_loss_backward_";
  name += lp.getElementType().isF32() ? "f32" : "f64";
  auto cst = [&](int64_t v) -> Value {
    return arith::ConstantIntOp::create(b, loc, v, 64);
  };
  // (first, count) go after these sizes; the pointers after the site.
  SmallVector<Value> sizes = {cst(time), cst(batch), cst(classes),
                              cst(maxTarget)};
  sizes.push_back(cst(forward ? static_cast<int64_t>(forward.getBlank())
                              : static_cast<int64_t>(backward.getBlank())));
  if (backward)
    sizes.push_back(cst(backward.getZeroInfinity()));
  SmallVector<Value> pointers;
  for (Value v : op->getOperands())
    pointers.push_back(pointerOf(v, loc));
  for (Value r : op->getResults())
    pointers.push_back(pointerOf(r, loc));
  SmallVector<Type> params(sizes.size() + 3 + pointers.size(), b.getI64Type());
  func::FuncOp callee = state.declare(name, params);
  auto call = [&](Value first, Value count) {
    SmallVector<Value> args(sizes);
    args.append({first, count, cst(errorSite(op))});
    llvm::append_range(args, pointers);
    func::CallOp::create(b, loc, callee, args);
  };
  int64_t work = time * batch * (2 * maxTarget + 1);
  if (!options.parallel || batch == 1 || work < options.grain) {
    call(cst(0), cst(batch));
    return success();
  }
  Value lb = arith::ConstantIndexOp::create(b, loc, 0);
  Value ub = arith::ConstantIndexOp::create(b, loc, batch);
  Value step = arith::ConstantIndexOp::create(b, loc, 1);
  auto par = scf::ParallelOp::create(b, loc, ValueRange{lb}, ValueRange{ub},
                                     ValueRange{step});
  OpBuilder::InsertionGuard g(b);
  b.setInsertionPointToStart(par.getBody());
  Value n = arith::IndexCastOp::create(b, loc, b.getI64Type(),
                                       par.getInductionVars()[0]);
  call(n, cst(1));
  return success();
}

/// GPU code: one thread per output element, the k products summed in order
/// (the interpreter's order, one rounding each).
LogicalResult FunctionConversion::emitContractionLoops(Operation *op,
                                                       int64_t batch, int64_t m,
                                                       int64_t n, int64_t k) {
  Location loc = op->getLoc();
  Value a = storageOf(op->getOperand(0)), bm = storageOf(op->getOperand(1));
  Value c = storageOf(op->getResult(0));
  Type elt = cast<MemRefType>(c.getType()).getElementType();
  MLIRContext *ctx = b.getContext();
  emitThreadGrid(b, loc, {batch, m, n}, options, [&](ValueRange ivs) {
    AffineExpr bi = getAffineDimExpr(0, ctx), i = getAffineDimExpr(1, ctx),
               j = getAffineDimExpr(2, ctx), r = getAffineDimExpr(3, ctx);
    Value zero = isa<FloatType>(elt)
                     ? Value(arith::ConstantOp::create(b, loc, b.getFloatAttr(elt, 0)))
                     : Value(arith::ConstantOp::create(b, loc, b.getIntegerAttr(elt, 0)));
    // Bounds in named locals: argument evaluation order differs between
    // compilers, and so would the order of the constants in the IR.
    Value kLb = arith::ConstantIndexOp::create(b, loc, 0);
    Value kUb = arith::ConstantIndexOp::create(b, loc, k);
    Value kStep = arith::ConstantIndexOp::create(b, loc, 1);
    auto loop = scf::ForOp::create(
        b, loc, kLb, kUb, kStep, ValueRange{zero},
        [&](OpBuilder &nb, Location, Value rv, ValueRange acc) {
          SmallVector<Value> idx{ivs[0], ivs[1], ivs[2], rv};
          Value ai = affine::AffineApplyOp::create(
              nb, loc, AffineMap::get(4, 0, (bi * m + i) * k + r), idx);
          Value bj = affine::AffineApplyOp::create(
              nb, loc, AffineMap::get(4, 0, (bi * k + r) * n + j), idx);
          Value x = memref::LoadOp::create(nb, loc, a, ai);
          Value y = memref::LoadOp::create(nb, loc, bm, bj);
          Value sum = isa<FloatType>(elt)
                          ? Value(arith::AddFOp::create(
                                nb, loc, acc[0],
                                arith::MulFOp::create(nb, loc, x, y)))
                          : Value(arith::AddIOp::create(
                                nb, loc, acc[0],
                                arith::MulIOp::create(nb, loc, x, y)));
          scf::YieldOp::create(nb, loc, sum);
        });
    Value ci = affine::AffineApplyOp::create(
        b, loc, AffineMap::get(3, 0, (bi * m + i) * n + j), ivs);
    emitNanCheck(b, loc, op, loop.getResult(0), ci, *this, options);
    memref::StoreOp::create(b, loc, loop.getResult(0), c, ci);
  });
  return success();
}

LogicalResult FunctionConversion::emitReturn(func::ReturnOp op) {
  auto outs = newFn.getArguments().drop_front(fn.getNumArguments());
  for (unsigned i = 0, e = op.getNumOperands(); i < e; ++i) {
    Value v = op.getOperand(i);
    Value src = storageOf(v);
    if (src == outs[i])
      continue;
    auto st = cast<MemRefType>(src.getType());
    auto dt = cast<MemRefType>(outs[i].getType());
    if (st.getDimSize(0) != dt.getDimSize(0))
      return op.emitError() << "result #" << i << " is not stored row-major ("
                            << st.getDimSize(0) << " storage elements for "
                            << dt.getDimSize(0) << ")";
    memref::CopyOp::create(b, op.getLoc(), src, outs[i]);
  }
  return success();
}

LogicalResult FunctionConversion::emitOp(Operation *op) {
  if (absorbed.contains(op) || writtenByContraction.contains(op))
    return success();
  if (!options.profile || isa<tp::ConstantOp, func::ReturnOp>(op))
    return emitUnprofiled(op);
  Location loc = op->getLoc();
  Type i64 = b.getI64Type();
  Value start =
      func::CallOp::create(b, loc, state.declare("stax_rt_clock_ns", {}, {i64}),
                           ValueRange{})
          .getResult(0);
  if (failed(emitUnprofiled(op)))
    return failure();
  auto [name, length] = profileName(op, loc);
  Value bytes = arith::ConstantIntOp::create(b, loc, idealBytes(op), 64);
  func::CallOp::create(
      b, loc, state.declare("stax_rt_profile_record", {i64, i64, i64, i64}),
      ValueRange{name, length, start, bytes});
  return success();
}

/// The bytes of a tensor's elements (an i1 takes a byte).
static int64_t tensorBytes(Value v) {
  auto t = cast<RankedTensorType>(v.getType());
  int64_t eb = std::max<int64_t>(
      1, getStorageType(t.getElementType()).getIntOrFloatBitWidth() / 8);
  return t.getNumElements() * eb;
}

int64_t FunctionConversion::idealBytes(Operation *op) const {
  llvm::SetVector<Value> touched;
  auto read = [&](Value v) {
    v = resolve(v);
    if (Operation *def = v.getDefiningOp())
      if (absorbed.contains(def)) // BLAS reads the transpose's source
        v = resolve(transposedSource(def));
    if (Operation *def = v.getDefiningOp(); def && op->isAncestor(def))
      return; // kernel-local
    touched.insert(v);
  };
  if (isa<PointwiseOp, ReductionOp, ScatterOp, KernelOp>(op))
    op->walk([&](LoadOp load) { read(load.getBuffer()); });
  else
    for (Value v : op->getOperands())
      read(v);
  for (Value r : op->getResults())
    touched.insert(r);
  if (auto t = transposedResults.lookup(op))
    touched.insert(t->getResult(0));
  int64_t total = 0;
  for (Value v : touched)
    if (isa<RankedTensorType>(v.getType()))
      total += tensorBytes(v);
  return total;
}

std::pair<Value, Value> FunctionConversion::profileName(Operation *op,
                                                        Location loc) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "@" << fn.getName() << ": " << op->getName() << " at " << op->getLoc();
  auto type =
      MemRefType::get({static_cast<int64_t>(text.size())}, b.getIntegerType(8));
  std::string sym =
      (fn.getName() + "_profile_name" + Twine(state.constants++)).str();
  OpBuilder gb = OpBuilder::atBlockBegin(state.module.getBody());
  memref::GlobalOp::create(
      gb, loc, sym, gb.getStringAttr("private"), type,
      DenseElementsAttr::get(
          RankedTensorType::get(type.getShape(), type.getElementType()),
          llvm::ArrayRef<char>(text.data(), text.size())),
      /*constant=*/true, /*alignment=*/nullptr);
  Value global = memref::GetGlobalOp::create(b, loc, type, sym);
  Value address = arith::IndexCastOp::create(
      b, loc, b.getI64Type(),
      memref::ExtractAlignedPointerAsIndexOp::create(b, loc, global));
  Value length = arith::ConstantIntOp::create(
      b, loc, static_cast<int64_t>(text.size()), 64);
  return {address, length};
}

LogicalResult FunctionConversion::emitUnprofiled(Operation *op) {
  if (auto c = dyn_cast<tp::ConstantOp>(op))
    return emitConstant(c);
  if (isa<tp::MmOp, tp::BmmOp>(op))
    return emitContraction(op);
  if (isa<tp::SortOp, tp::TopkOp>(op))
    return emitSort(op);
  if (isa<tp::CtcLossOp, tp::CtcLossBackwardOp>(op))
    return emitCtc(op);
  if (isScan(op))
    return emitScan(b, op, *this, options);
  if (auto ret = dyn_cast<func::ReturnOp>(op))
    return emitReturn(ret);
  return emitNode(b, op, *this, options);
}

LogicalResult FunctionConversion::run() {
  if (failed(checkSignature()) || failed(collectBuffers()))
    return failure();
  assignOutputs();
  int64_t arenaBytes = assignArena();

  // The new signature: inputs, then one output buffer per result.
  SmallVector<Type> inputs;
  for (Type t : fn.getArgumentTypes()) {
    auto rt = cast<RankedTensorType>(t);
    inputs.push_back(flatType(rt, rt.getNumElements()));
  }
  for (Type t : fn.getResultTypes()) {
    auto rt = cast<RankedTensorType>(t);
    inputs.push_back(flatType(rt, rt.getNumElements()));
  }
  b.setInsertionPoint(fn);
  newFn = func::FuncOp::create(b, fn.getLoc(), fn.getName(),
                               b.getFunctionType(inputs, {}));
  newFn.setVisibility(fn.getVisibility());
  for (unsigned i = fn.getNumArguments(); i < inputs.size(); ++i)
    newFn.setArgAttr(i, kOutputAttr, b.getUnitAttr());
  Block *entry = newFn.addEntryBlock();
  b.setInsertionPointToStart(entry);
  for (auto [old, arg] : llvm::zip(fn.getArguments(), entry->getArguments()))
    storage[old] = arg;

  Location loc = fn.getLoc();
  // Every intermediate is a view of the arena, even an empty one (then
  // the arena has no bytes of its own: one alignment unit stands in).
  Value arena;
  if (llvm::any_of(buffers, [](const Buffer &buf) { return buf.output < 0; }))
    arena = memref::AllocOp::create(
        b, loc,
        MemRefType::get({std::max<int64_t>(arenaBytes, kArenaAlignment)},
                        b.getI8Type()),
        b.getI64IntegerAttr(kArenaAlignment));
  for (Buffer &buf : buffers) {
    auto type =
        MemRefType::get({buf.elements}, getStorageType(buf.elementType));
    if (buf.output >= 0) {
      storage[buf.value] = entry->getArgument(fn.getNumArguments() + buf.output);
      continue;
    }
    Value offset = arith::ConstantIndexOp::create(b, loc, buf.offset);
    storage[buf.value] =
        memref::ViewOp::create(b, loc, type, arena, offset, ValueRange{});
  }
  for (Operation *op : ops)
    if (failed(emitOp(op)))
      return failure();
  if (arena)
    memref::DeallocOp::create(b, loc, arena);
  func::ReturnOp::create(b, loc);
  fn.erase();
  return success();
}

int64_t hostVectorWidth() {
  llvm::StringMap<bool> features = llvm::sys::getHostCPUFeatures();
  if (features.lookup("avx512f"))
    return 16;
  if (features.lookup("avx2") || features.lookup("avx"))
    return 8;
  return 4;
}

/// What the loops of `fn` could share among threads: the nodes' work
/// (codegen::workOf), and for any other op (sorts, scans, CTC, matmuls) the
/// elements of its largest tensor, which over-counts rather than take
/// threads from a large external.
int64_t parallelWorkOf(func::FuncOp fn) {
  int64_t total = 0;
  for (Operation &op : fn.getBody().getOps()) {
    // The return and constants do no work.
    if (op.hasTrait<OpTrait::IsTerminator>() ||
        op.hasTrait<OpTrait::ConstantLike>())
      continue;
    int64_t work = codegen::workOf(&op);
    if (work == 0)
      for (Type t :
           llvm::concat<const Type>(op.getOperandTypes(), op.getResultTypes()))
        if (auto tensor = dyn_cast<RankedTensorType>(t))
          if (tensor.hasStaticShape())
            work = std::max(work, tensor.getNumElements());
    if (llvm::AddOverflow(total, work, total))
      return std::numeric_limits<int64_t>::max();
  }
  return total;
}

struct StaxToLoopsPass : stax::impl::StaxToLoopsBase<StaxToLoopsPass> {
  using Base::Base;

  std::string firstInvalidOption() const {
    StaxToLoopsOptions options;
    options.grain = grain;
    options.callGrain = callGrain;
    options.vectorWidth = vectorWidth;
    options.threadsPerBlock = threadsPerBlock;
    options.nontemporalBytes = nontemporalBytes;
    options.interleave = interleave;
    std::string problem = stax::firstInvalidValue(options);
    return problem.empty() ? "" : "--stax-to-loops: " + problem;
  }

  /// Options from a pipeline string are checked as they are parsed, before
  /// anything runs (runOnOperation checks those set in C++).
  LogicalResult initializeOptions(
      StringRef options,
      function_ref<LogicalResult(const Twine &)> errorHandler) override {
    if (failed(Pass::initializeOptions(options, errorHandler)))
      return failure();
    std::string problem = firstInvalidOption();
    return problem.empty() ? success() : errorHandler(problem);
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (std::string problem = firstInvalidOption(); !problem.empty()) {
      mlir::emitError(module.getLoc()) << problem;
      return signalPassFailure();
    }
    bool gpu = target == Target::CUDA;
    // GPU code is scalar: one thread per element.
    int64_t width = gpu ? 1 : vectorWidth;
    if (width == 0)
      width = hostVectorWidth();
    LoopOptions options{parallel,
                        grain,
                        width,
                        gpu,
                        threadsPerBlock,
                        checkNan,
                        profile && !gpu,
                        gpu ? 0 : int64_t(nontemporalBytes),
                        gpu ? 1 : int64_t(interleave)};
    ModuleState state{module, {}, {}, 0};
    SmallVector<func::FuncOp> fns;
    for (auto fn : module.getOps<func::FuncOp>())
      if (!fn.isExternal())
        fns.push_back(fn);
    for (func::FuncOp fn : fns) {
      if (width > 1)
        codegen::mergeShortLaneLoops(fn, width);
      LoopOptions fnOptions = options;
      if (!gpu && parallelWorkOf(fn) < callGrain)
        fnOptions.parallel = false;
      if (failed(FunctionConversion(fn, state, fnOptions).run()))
        return signalPassFailure();
    }
    if (!state.errorSites.empty())
      module->setAttr(kErrorSitesAttr,
                      ArrayAttr::get(module.getContext(), state.errorSites));
  }
};

} // namespace

std::string stax::firstInvalidValue(const StaxToLoopsOptions &options) {
  std::pair<StringRef, std::pair<int64_t, int64_t>> least[] = {
      {"grain", {options.grain, 1}},
      {"call-grain", {options.callGrain, 0}},
      {"vector-width", {options.vectorWidth, 0}},
      {"threads-per-block", {options.threadsPerBlock, 1}},
      {"nontemporal-bytes", {options.nontemporalBytes, 0}},
      {"interleave", {options.interleave, 1}}};
  for (auto [option, bound] : least)
    if (bound.first < bound.second)
      return (option + "=" + Twine(bound.first) + ": must be at least " +
              Twine(bound.second))
          .str();
  return "";
}
