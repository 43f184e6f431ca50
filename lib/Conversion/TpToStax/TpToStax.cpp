//===- TpToStax.cpp - the --stax-lower driver -----------------------------===//
//
// Section 6.1: walks each function in order. Arguments are input buffers;
// each tp op calls its rule (the families in *Rules.cpp) and gets loaders
// back; ops without a rule stay, reading materialized row-major buffers;
// function results are materialized row-major. A value is materialized at
// its producer when a user must read it from memory (a kept op or the
// return) or when the thresholds of Section 6.6 say so. The lowered tp ops
// are erased at the end; CSE then merges repeated loads in each body.
//
//===----------------------------------------------------------------------===//
#include "Lowering.h"
#include "Stax/Analysis/Materialization.h"
#include "Stax/Conversion/Passes.h"
#include "Stax/Dialect/Tp/IR/TpOps.h"
#include "Stax/Dialect/Tp/IR/Functional.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/CSE.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace mlir::stax {
#define GEN_PASS_DEF_STAXLOWER
#include "Stax/Conversion/Passes.h.inc"
} // namespace mlir::stax

using namespace mlir;
using namespace mlir::stax;
using namespace mlir::stax::lowering;

namespace {

const RuleTable &rules() {
  static const RuleTable table = [] {
    RuleTable t;
    registerPointwiseRules(t);
    registerReductionRules(t);
    registerViewRules(t);
    registerIndirectRules(t);
    registerRandomRules(t);
    return t;
  }();
  return table;
}

/// Ops whose results are buffers by nature and need no rule.
bool isBufferSource(Operation *op) { return isa<tp::ConstantOp>(op); }

class FunctionLowering {
public:
  FunctionLowering(func::FuncOp fn, Target target, bool strict, bool remarks,
                   bool welford)
      : fn(fn), b(fn.getContext()), target(target), strict(strict),
        remarks(remarks), welford(welford) {}

  LogicalResult run();

private:
  NodePtr nodeOf(Value v) { return nodes.lookup(v); }
  NodePtr bufferOf(Value v);
  LogicalResult lowerOp(Operation *op, SmallVectorImpl<Operation *> &lowered);
  LogicalResult keepOp(Operation *op, StringRef why);
  /// A row-major buffer holding `node`'s values (the node itself when it
  /// already is one).
  Value materializeRowMajor(const NodePtr &node, Location loc);
  /// A matmul operand whose copy would read along its rows (an im2col
  /// matrix used transposed, say) stored as its transpose, row-major, and
  /// read back through a transpose node: the copy then reads and writes
  /// contiguously, and CPU code generation hands BLAS the stored transpose
  /// with a transpose flag instead of emitting the transpose node. Null
  /// when `v` is not such an operand (users other than mm/bmm, a GPU
  /// target, reads that already run along the last dim).
  Value materializeForContraction(Value v, const NodePtr &node, Location loc);
  void decideMaterialization(Value v);
  unsigned countUsers(Value v);
  bool mustBeInMemory(Value v);
  PointwiseOp emitNode(const NodePtr &node, Location loc, LayoutAttr layout);

  func::FuncOp fn;
  OpBuilder b;
  Target target;
  bool strict, remarks, welford;
  llvm::DenseMap<Value, NodePtr> nodes;
  /// The longest chain of ops fused into a value's node (0 for a buffer).
  llvm::DenseMap<Value, unsigned> fusedDepth;
};

/// The deepest chain of ops one node fuses: a reader emits its operands'
/// bodies recursively (a few stack frames per op), and a 20000-op chain
/// overflowed an 8 MiB stack; LLVM's compile time also grew quadratically
/// with the length of one body (4000 ops: 41 s). A value this deep is
/// stored, and its readers start a new chain.
constexpr unsigned kMaxFusedDepth = 256;

PointwiseOp FunctionLowering::emitNode(const NodePtr &node, Location loc,
                                       LayoutAttr layout) {
  auto op = PointwiseOp::create(b, loc, node->type, layout,
                                /*ranges=*/DenseI64ArrayAttr());
  Block *block = new Block();
  op.getBody().push_back(block);
  for (int64_t k = 0; k < node->type.getRank(); ++k)
    block->addArgument(b.getIndexType(), loc);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(block);
  BodyBuilder bb(b, loc, block->getArguments());
  Value v = node->load(bb, bb.dimExprs(0, node->type.getRank()));
  YieldOp::create(b, loc, ValueRange{v});
  return op;
}

Value FunctionLowering::materializeRowMajor(const NodePtr &node, Location loc) {
  if (BufferNode *buf = node->asBuffer())
    if (buf->isRowMajor() && buf->buffer.getType() == node->type)
      return buf->buffer;
  return emitNode(node, loc,
                  LayoutAttr::getRowMajor(b.getContext(), node->type.getShape()))
      .getResult();
}

/// `node` with its last two dimensions swapped.
static NodePtr swapLastTwo(const NodePtr &node) {
  SmallVector<int64_t> shape(node->type.getShape());
  std::swap(shape[shape.size() - 2], shape[shape.size() - 1]);
  auto type = RankedTensorType::get(shape, node->type.getElementType());
  return std::make_shared<ViewNode>(type, node, [](ArrayRef<AffineExpr> index) {
    SmallVector<AffineExpr> swapped(index);
    std::swap(swapped[swapped.size() - 2], swapped[swapped.size() - 1]);
    return swapped;
  });
}

Value FunctionLowering::materializeForContraction(Value v, const NodePtr &node,
                                                  Location loc) {
  int64_t rank = node->type.getRank();
  if (target != Target::CPU || rank < 2 || node->asBuffer() ||
      !llvm::all_of(v.getUsers(),
                    [](Operation *u) { return isa<tp::MmOp, tp::BmmOp>(u); }))
    return {};
  // The transpose, stored row-major. Dropped when it would only copy a
  // buffer (BLAS reads the transpose of a buffer with a flag as it is) or
  // when the node's reads do not run longer along its rows than along its
  // last dim.
  NodePtr t = swapLastTwo(node);
  PointwiseOp stored = emitNode(
      t, loc, LayoutAttr::getRowMajor(b.getContext(), t->type.getShape()));
  if (stored.getRowMajorSource(/*transposed=*/false) ||
      wholeVectorRun(stored, rank - 1) <= wholeVectorRun(stored, rank - 2)) {
    stored.erase();
    return {};
  }
  if (remarks)
    emitRemark(loc) << "materialized: read from memory by matmuls, stored "
                       "transposed (its reads run along its rows)";
  return emitNode(
             swapLastTwo(RuleContext::rowMajorBuffer(stored.getResult())), loc,
             LayoutAttr::getRowMajor(b.getContext(), node->type.getShape()))
      .getResult();
}

/// Users that read `v`, looking through the views that have a rule (a view
/// is not a reader; its readers are).
unsigned FunctionLowering::countUsers(Value v) {
  llvm::SmallPtrSet<Operation *, 8> users;
  unsigned count = 0;
  for (Operation *user : v.getUsers()) {
    if (!users.insert(user).second)
      continue;
    if (user->hasTrait<OpTrait::tp::View>() && user->getNumResults() == 1 &&
        rules().count(user->getName().getStringRef()))
      count += countUsers(user->getResult(0));
    else
      ++count;
  }
  return count;
}

bool FunctionLowering::mustBeInMemory(Value v) {
  for (Operation *user : v.getUsers())
    if (isa<func::ReturnOp>(user) || !rules().count(user->getName().getStringRef()))
      return true;
  return false;
}

void FunctionLowering::decideMaterialization(Value v) {
  NodePtr node = nodeOf(v);
  if (!node || node->asBuffer())
    return;
  Location loc = v.getLoc();
  if (fusedDepth.lookup(v) > kMaxFusedDepth) {
    nodes[v] = RuleContext::rowMajorBuffer(materializeRowMajor(node, loc));
    if (remarks)
      emitRemark(loc) << "materialized: " << fusedDepth.lookup(v)
                      << " ops fused in a chain (limit " << kMaxFusedDepth
                      << ")";
    return;
  }
  if (mustBeInMemory(v)) {
    Value buf = materializeForContraction(v, node, loc);
    if (!buf) {
      buf = materializeRowMajor(node, loc);
      if (remarks)
        emitRemark(loc) << "materialized: read from memory by a user";
    }
    nodes[v] = RuleContext::rowMajorBuffer(buf);
    return;
  }
  unsigned users = countUsers(v);
  if (users <= 1)
    return;
  // The counting interpretation needs the body: emit it, keep it if the
  // thresholds say so.
  PointwiseOp candidate = emitNode(
      node, loc, LayoutAttr::getRowMajor(b.getContext(), node->type.getShape()));
  std::string reason = materializationReason(countBody(candidate.getBody()),
                                             users, target);
  if (reason.empty()) {
    candidate.erase();
    return;
  }
  LayoutAttr layout = chooseLayout(candidate);
  candidate.setLayoutAttr(layout);
  if (remarks)
    emitRemark(loc) << "materialized: " << reason;
  nodes[v] = std::make_shared<BufferNode>(
      candidate.getResult(), layout.getEffectiveStrides(node->type.getShape()), 0);
}

LogicalResult FunctionLowering::keepOp(Operation *op, StringRef why) {
  bool external = op->hasTrait<OpTrait::tp::External>();
  if (!isBufferSource(op) && op->getDialect() &&
      op->getDialect()->getNamespace() == "tp") {
    if (strict && !external)
      return op->emitError() << "'" << op->getName()
                             << "' has no lowering rule (strict mode)"
                             << (why.empty() ? "" : ": ") << why;
    // An external call (a BLAS product, a sort) is as planned: a remark
    // only when asked for; an op without a rule is always named.
    if (external && remarks)
      op->emitRemark() << "external call: '" << op->getName()
                       << "' reads row-major buffers";
    else if (!external)
      op->emitRemark() << "fallback: '" << op->getName()
                       << "' has no lowering rule" << (why.empty() ? "" : ": ")
                       << why;
  }
  b.setInsertionPoint(op);
  for (OpOperand &operand : op->getOpOperands())
    if (NodePtr n = nodeOf(operand.get()))
      operand.set(materializeRowMajor(n, op->getLoc()));
  for (Value r : op->getResults())
    if (isa<RankedTensorType>(r.getType()))
      nodes[r] = bufferOf(r);
  return success();
}

/// An existing buffer: a node's result keeps its layout (re-lowering
/// partially lowered IR), anything else is row-major.
NodePtr FunctionLowering::bufferOf(Value v) {
  LayoutAttr layout;
  if (auto p = v.getDefiningOp<PointwiseOp>())
    layout = p.getRangesAttr() ? LayoutAttr() : p.getLayout();
  else if (auto r = v.getDefiningOp<ReductionOp>())
    layout = r.getRangesAttr() ? LayoutAttr() : r.getLayout();
  else if (auto sc = v.getDefiningOp<ScatterOp>())
    layout = sc.getLayout();
  if (!layout || layout.getFlexible())
    return RuleContext::rowMajorBuffer(v);
  return std::make_shared<BufferNode>(v, layout.getStrides(), layout.getOffset());
}

LogicalResult FunctionLowering::lowerOp(Operation *op,
                                        SmallVectorImpl<Operation *> &lowered) {
  if (auto ret = dyn_cast<func::ReturnOp>(op)) {
    b.setInsertionPoint(op);
    for (OpOperand &operand : ret->getOpOperands())
      if (NodePtr n = nodeOf(operand.get()))
        operand.set(materializeRowMajor(n, op->getLoc()));
    return success();
  }
  if (isBufferSource(op))
    return keepOp(op, "");
  auto it = rules().find(op->getName().getStringRef());
  if (it == rules().end())
    return keepOp(op, "");
  SmallVector<NodePtr> operands;
  for (Value v : op->getOperands()) {
    NodePtr n = nodeOf(v);
    if (!n)
      return keepOp(op, "an operand is not a lowered tensor");
    operands.push_back(n);
  }
  b.setInsertionPoint(op);
  RuleContext ctx(b, op, operands);
  ctx.welford = welford;
  ctx.materialize = [&](const NodePtr &n) {
    return materializeRowMajor(n, op->getLoc());
  };
  FailureOr<SmallVector<NodePtr>> results = it->second(ctx);
  if (failed(results))
    return keepOp(op, "this instance (types or attributes) is not covered");
  unsigned depth = 0;
  for (Value v : op->getOperands())
    depth = std::max(depth, fusedDepth.lookup(v));
  for (auto [r, n] : llvm::zip(op->getResults(), *results)) {
    nodes[r] = n;
    fusedDepth[r] = !n || n->asBuffer() ? 0 : depth + 1;
  }
  lowered.push_back(op);
  for (Value r : op->getResults()) {
    decideMaterialization(r);
    if (NodePtr n = nodeOf(r); n && n->asBuffer())
      fusedDepth[r] = 0;
  }
  return success();
}

/// Lowering computes strides and ranges from shapes: every tensor must have
/// a static shape.
static LogicalResult checkStaticShapes(func::FuncOp fn) {
  auto isDynamic = [](Type t) {
    auto rt = dyn_cast<RankedTensorType>(t);
    return (rt && !rt.hasStaticShape()) || isa<UnrankedTensorType>(t);
  };
  for (Type t : fn.getArgumentTypes())
    if (isDynamic(t))
      return fn.emitError() << "--stax-lower needs static shapes, but an "
                               "argument has type " << t;
  WalkResult r = fn.walk([&](Operation *op) {
    for (Type t : op->getResultTypes())
      if (isDynamic(t)) {
        op->emitError() << "--stax-lower needs static shapes, but this op "
                           "produces " << t;
        return WalkResult::interrupt();
      }
    return WalkResult::advance();
  });
  return failure(r.wasInterrupted());
}

static bool isHalfPrecisionTensor(Type t) {
  auto rt = dyn_cast<RankedTensorType>(t);
  return rt && (rt.getElementType().isF16() || rt.getElementType().isBF16());
}

/// The runtime's matrix products and sorts (and the GPU's product loops)
/// have f32, f64 and integer kernels only. A half-precision (f16, bf16)
/// tp.mm, tp.bmm, tp.sort or tp.topk runs on f32 copies of its operands and
/// its floating results are rounded back: exactly the reference's own
/// computation, which accumulates half-precision products in f32 and rounds
/// each result once (widening is exact, and so is sorting). The copies are
/// ordinary conversions: the result's fuses into its users.
static void widenHalfPrecisionExternalCalls(func::FuncOp fn) {
  OpBuilder b(fn.getContext());
  Type f32 = b.getF32Type();
  fn.walk([&](Operation *op) {
    if (!isa<tp::MmOp, tp::BmmOp, tp::SortOp, tp::TopkOp>(op) ||
        !llvm::any_of(op->getOperandTypes(), isHalfPrecisionTensor))
      return;
    Location loc = op->getLoc();
    b.setInsertionPoint(op);
    for (OpOperand &operand : op->getOpOperands())
      if (isHalfPrecisionTensor(operand.get().getType()))
        operand.set(
            tp::ToCopyOp::create(b, loc, operand.get(), TypeAttr::get(f32)));
    b.setInsertionPointAfter(op);
    for (OpResult r : op->getResults()) {
      if (!isHalfPrecisionTensor(r.getType()))
        continue;
      auto type = cast<RankedTensorType>(r.getType());
      r.setType(type.clone(f32));
      auto narrowed =
          tp::ToCopyOp::create(b, loc, r, TypeAttr::get(type.getElementType()));
      r.replaceAllUsesExcept(narrowed, narrowed);
    }
  });
}

LogicalResult FunctionLowering::run() {
  if (failed(checkStaticShapes(fn)))
    return failure();
  widenHalfPrecisionExternalCalls(fn);
  for (BlockArgument a : fn.getArguments())
    if (isa<RankedTensorType>(a.getType()))
      nodes[a] = RuleContext::rowMajorBuffer(a);
  SmallVector<Operation *> ops;
  for (Operation &op : fn.getBody().front())
    ops.push_back(&op);
  SmallVector<Operation *> lowered;
  for (Operation *op : ops)
    if (failed(lowerOp(op, lowered)))
      return failure();
  for (Operation *op : llvm::reverse(lowered)) {
    if (!op->use_empty())
      return op->emitError() << "internal error: lowered op still has users";
    op->erase();
  }
  // Merge repeated loads and index math inside each body. Not at function
  // level: nodes have no operands, so CSE would compare every pair of
  // same-typed nodes region by region (quadratic in the function).
  IRRewriter rewriter(fn.getContext());
  DominanceInfo dom(fn);
  for (Operation &op : fn.getBody().front())
    if (op.getNumRegions() != 0)
      eliminateCommonSubExpressions(rewriter, dom, &op);
  return success();
}

struct StaxLowerPass : public stax::impl::StaxLowerBase<StaxLowerPass> {
  using StaxLowerBase::StaxLowerBase;

  void runOnOperation() override {
    func::FuncOp fn = getOperation();
    if (fn.isExternal() || !fn.getBody().hasOneBlock())
      return;
    if (failed(tp::verifyFunctional(fn, getArgument())))
      return signalPassFailure();
    if (failed(FunctionLowering(fn, target, strict, remarks, welford).run()))
      return signalPassFailure();
  }
};

} // namespace
