//===- Lowering.h - the tp -> stax graph interpreter ------------*- C++ -*-===//
//
// Internal to lib/Conversion/TpToStax. A lowered tp value is a `Node`: a
// loader from indices to one scalar (Definition 6.1). Loaders compose, so a
// chain of pointwise ops becomes one body (Property 6.1); views only rewrite
// the indices handed to their source (Proposition 6.2); a `BufferNode` reads
// memory. Index expressions are AffineExprs over the body's loop indices
// (dims) and data-dependent indices (symbols), emitted as `affine.apply`.
//
// Rules (one file per family, registered by op name) turn a tp op into
// nodes; the driver (TpToStax.cpp) decides what to materialize.
//
//===----------------------------------------------------------------------===//
#ifndef STAX_LIB_CONVERSION_TPTOSTAX_LOWERING_H
#define STAX_LIB_CONVERSION_TPTOSTAX_LOWERING_H


#include "Stax/Dialect/Stax/IR/StaxOps.h"
#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/StringMap.h"
#include <functional>
#include <map>
#include <memory>
#include <vector>

namespace mlir::stax::lowering {

using mlir::AffineExpr;
using mlir::Location;
using mlir::OpBuilder;
using mlir::RankedTensorType;
using mlir::Type;
using mlir::Value;

/// Where a body is being emitted: its loop indices and the data-dependent
/// indices introduced so far (symbol k of an index expression is
/// `symbols[k]`).
struct BodyBuilder {
  BodyBuilder(OpBuilder &b, Location loc, mlir::ValueRange loopIndices)
      : b(b), loc(loc), dims(loopIndices.begin(), loopIndices.end()) {}

  OpBuilder &b;
  Location loc;
  llvm::SmallVector<Value> dims;
  llvm::SmallVector<Value> symbols;
  /// While set, loads only read where this i1 is true (and give zero
  /// elsewhere): the masked loads of concatenation.
  Value mask = {};

  /// The value of `node` at `index` (under the current mask): emitted by
  /// `emit` the first time, the same SSA value afterwards. A value read
  /// several times in one body (x * x) is computed once, so lowering time
  /// and body size stay linear in the graph instead of doubling per reuse.
  Value memoized(const class Node *node, llvm::ArrayRef<AffineExpr> index,
                 llvm::function_ref<Value()> emit);
  /// (node, mask, index expressions) -> value, for `memoized`.
  std::map<std::vector<const void *>, Value> emitted;

  /// The loop indices as expressions d0, d1, ...
  llvm::SmallVector<AffineExpr> dimExprs(unsigned first, unsigned count) const;
  /// An `index` value for `e` (simplified; a constant for constants).
  Value index(AffineExpr e);
  /// Makes the `index` value `v` usable in expressions.
  AffineExpr symbol(Value v);

  // Scalars. A type may be a tensor element type: a `ui8` value is its
  // scalar, an i16 in [0, 255] (stax::getScalarType), on which the signed
  // arith ops compute exactly.
  Value constant(double v, Type t);
  Value constantInt(int64_t v, Type t);
  /// `v` converted to `t` with the interpreter's conversion rules (round to
  /// nearest; float to int truncates; integers wrap to the width of `t`; to
  /// bool is `!= 0`).
  Value convert(Value v, Type t);
};

/// A lowered tp value: a function from indices to one scalar of the element
/// type.
class Node {
public:
  explicit Node(RankedTensorType type) : type(type) {}
  virtual ~Node() = default;
  /// Emits the computation of the element at `index` (one expression per
  /// dimension) and returns it.
  virtual Value load(BodyBuilder &bb, llvm::ArrayRef<AffineExpr> index) = 0;
  /// The buffer behind a materialized value, with its layout.
  virtual class BufferNode *asBuffer() { return nullptr; }

  RankedTensorType type;
};
using NodePtr = std::shared_ptr<Node>;

/// A value in memory: a function argument, a node's result or an external
/// op's result. Reads fold strides and offset into the address.
class BufferNode : public Node {
public:
  BufferNode(Value buffer, llvm::ArrayRef<int64_t> strides, int64_t offset);
  Value load(BodyBuilder &bb, llvm::ArrayRef<AffineExpr> index) override;
  BufferNode *asBuffer() override { return this; }
  bool isRowMajor() const;

  Value buffer;
  llvm::SmallVector<int64_t> strides;
  int64_t offset;
};

/// A value computed on demand: its body is inlined into every reader.
class ComputedNode : public Node {
public:
  using Fn = std::function<Value(BodyBuilder &, llvm::ArrayRef<AffineExpr>)>;
  ComputedNode(RankedTensorType type, Fn fn) : Node(type), fn(std::move(fn)) {}
  Value load(BodyBuilder &bb, llvm::ArrayRef<AffineExpr> index) override {
    return bb.memoized(this, index, [&] { return fn(bb, index); });
  }
  Fn fn;
};

/// A view: reads its source at transformed indices (no data is copied).
class ViewNode : public Node {
public:
  using IndexMap = std::function<llvm::SmallVector<AffineExpr>(
      llvm::ArrayRef<AffineExpr>)>;
  ViewNode(RankedTensorType type, NodePtr source, IndexMap map)
      : Node(type), source(std::move(source)), map(std::move(map)) {}
  Value load(BodyBuilder &bb, llvm::ArrayRef<AffineExpr> index) override {
    return source->load(bb, map(index));
  }
  NodePtr source;
  IndexMap map;
};

/// What a rule sees: the nodes of the op's operands, and a way to build
/// reduction and scatter nodes (which are always materialized).
class RuleContext {
public:
  RuleContext(OpBuilder &b, mlir::Operation *op,
              llvm::SmallVector<NodePtr> operands)
      : b(b), op(op), operands(std::move(operands)) {}

  /// The type of result `i` of the op being lowered.
  RankedTensorType resultType(unsigned i = 0) const {
    return llvm::cast<RankedTensorType>(op->getResult(i).getType());
  }
  /// Row-major strides of a shape.
  static llvm::SmallVector<int64_t> rowMajor(llvm::ArrayRef<int64_t> shape);
  /// A node for a buffer already in memory with a row-major layout.
  static NodePtr rowMajorBuffer(Value buffer);
  /// Emits a node whose body is `body(bb, loopIndices)`.
  Value buildPointwise(RankedTensorType type, LayoutAttr layout,
                       const ComputedNode::Fn &body);
  Value buildReduction(RankedTensorType type, ReductionKind kind,
                       llvm::ArrayRef<int64_t> reductionRanges,
                       const ComputedNode::Fn &body);
  /// The same for kinds with several results (welford: mean, M2, count).
  mlir::ValueRange buildReduction(mlir::TypeRange types, ReductionKind kind,
                                  llvm::ArrayRef<int64_t> reductionRanges,
                                  const ComputedNode::Fn &body);
  /// A scatter over `ranges` into a copy of `base`: `body` yields the
  /// storage address, `value` the value written there.
  using ScatterFn = std::function<std::pair<Value, Value>(
      BodyBuilder &, llvm::ArrayRef<AffineExpr>)>;
  Value buildScatter(const NodePtr &base, ScatterMode mode,
                     llvm::ArrayRef<int64_t> ranges, const ScatterFn &body);

  /// Set by the driver: a row-major buffer holding a node's values.
  std::function<Value(const NodePtr &)> materialize;
  /// Set by the driver: lower variances with Welford reductions.
  bool welford = false;

  OpBuilder &b;
  mlir::Operation *op;
  llvm::SmallVector<NodePtr> operands;
};

/// A rule returns one node per result of the op, or failure (without
/// diagnostics) when it does not handle this instance: the op then stays.
using RuleResult = mlir::FailureOr<llvm::SmallVector<NodePtr>>;
using RuleFn = std::function<RuleResult(RuleContext &)>;
using RuleTable = llvm::StringMap<RuleFn>;

void registerPointwiseRules(RuleTable &rules);
void registerReductionRules(RuleTable &rules);
void registerViewRules(RuleTable &rules);
void registerIndirectRules(RuleTable &rules);
void registerRandomRules(RuleTable &rules);

/// The element of `node` broadcast (numpy rules) to an output index.
llvm::SmallVector<AffineExpr> broadcastIndex(llvm::ArrayRef<int64_t> inShape,
                                             llvm::ArrayRef<int64_t> outShape,
                                             llvm::ArrayRef<AffineExpr> index);

/// The type values of element type `t` are computed in: f32 for f16/bf16.
Type computeType(Type t);

/// `v` as an operand of arithmetic in `ct`: converted to `ct` (eager casts
/// every operand to the common dtype, rounding an integer to float16
/// there), then widened to computeType(ct).
Value toComputeType(BodyBuilder &bb, Value v, Type ct);

} // namespace mlir::stax::lowering

#endif // STAX_LIB_CONVERSION_TPTOSTAX_LOWERING_H
