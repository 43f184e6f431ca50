//===- Nodes.cpp - loaders, buffers and body emission ---------------------===//
#include "Lowering.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/IR/Matchers.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::stax;
using namespace mlir::stax::lowering;

//===----------------------------------------------------------------------===//
// BodyBuilder
//===----------------------------------------------------------------------===//

SmallVector<AffineExpr> BodyBuilder::dimExprs(unsigned first,
                                              unsigned count) const {
  SmallVector<AffineExpr> exprs;
  for (unsigned k = 0; k < count; ++k)
    exprs.push_back(getAffineDimExpr(first + k, b.getContext()));
  return exprs;
}

Value BodyBuilder::index(AffineExpr e) {
  e = simplifyAffineExpr(e, dims.size(), symbols.size());
  if (auto c = dyn_cast<AffineConstantExpr>(e))
    return arith::ConstantIndexOp::create(b, loc, c.getValue());
  // Keep only the indices the expression uses, so that the printed map reads
  // like the spec's listings (`128*i0 + r0`).
  SmallVector<Value> operands;
  SmallVector<AffineExpr> dimRepl, symRepl;
  unsigned numDims = 0, numSyms = 0;
  for (auto [k, v] : llvm::enumerate(dims)) {
    if (e.isFunctionOfDim(k)) {
      dimRepl.push_back(getAffineDimExpr(numDims++, b.getContext()));
      operands.push_back(v);
    } else {
      dimRepl.push_back(getAffineConstantExpr(0, b.getContext()));
    }
  }
  SmallVector<Value> symOperands;
  for (auto [k, v] : llvm::enumerate(symbols)) {
    if (e.isFunctionOfSymbol(k)) {
      symRepl.push_back(getAffineSymbolExpr(numSyms++, b.getContext()));
      symOperands.push_back(v);
    } else {
      symRepl.push_back(getAffineConstantExpr(0, b.getContext()));
    }
  }
  e = e.replaceDimsAndSymbols(dimRepl, symRepl);
  operands.append(symOperands);
  auto map = AffineMap::get(numDims, numSyms, e);
  if (map.isSingleConstant())
    return arith::ConstantIndexOp::create(b, loc, map.getSingleConstantResult());
  if (numDims == 1 && numSyms == 0 && e == getAffineDimExpr(0, b.getContext()))
    return operands[0];
  return affine::AffineApplyOp::create(b, loc, map, operands);
}

AffineExpr BodyBuilder::symbol(Value v) {
  for (auto [k, s] : llvm::enumerate(symbols))
    if (s == v)
      return getAffineSymbolExpr(k, b.getContext());
  symbols.push_back(v);
  return getAffineSymbolExpr(symbols.size() - 1, b.getContext());
}

Value BodyBuilder::memoized(const Node *node, ArrayRef<AffineExpr> index,
                            llvm::function_ref<Value()> emit) {
  std::vector<const void *> key{node, mask.getAsOpaquePointer()};
  for (AffineExpr e : index)
    key.push_back(simplifyAffineExpr(e, dims.size(), symbols.size())
                      .getAsOpaquePointer());
  auto it = emitted.find(key);
  // Reuse only what dominates the insertion point: a value of this block.
  if (it != emitted.end() &&
      it->second.getParentBlock() == b.getInsertionBlock())
    return it->second;
  Value v = emit();
  emitted[key] = v;
  return v;
}

Value BodyBuilder::constant(double v, Type t) {
  if (auto ft = dyn_cast<FloatType>(t))
    return arith::ConstantOp::create(b, loc, FloatAttr::get(ft, v));
  return constantInt(static_cast<int64_t>(v), t);
}

Value BodyBuilder::constantInt(int64_t v, Type t) {
  if (isa<FloatType>(t))
    return constant(static_cast<double>(v), t);
  if (t.isInteger(1))
    v = v != 0;
  if (t.isUnsignedInteger()) { // v modulo 2^8, as a ui8 scalar (i16)
    v = static_cast<int64_t>(llvm::maskTrailingOnes<uint64_t>(
                                 t.getIntOrFloatBitWidth()) &
                             static_cast<uint64_t>(v));
    t = getScalarType(t);
  }
  return arith::ConstantOp::create(b, loc, IntegerAttr::get(t, v));
}

/// True when `v` is known to hold a value of unsigned type `t` already: a
/// load of a `t` buffer, a zero-extension of `t`'s width, a constant in its
/// range.
static bool holdsUnsigned(Value v, IntegerType t) {
  if (v.getType() != getScalarType(t))
    return false;
  if (auto load = v.getDefiningOp<LoadOp>())
    return cast<RankedTensorType>(load.getBuffer().getType())
               .getElementType() == t;
  if (auto ext = v.getDefiningOp<arith::ExtUIOp>())
    return ext.getIn().getType().getIntOrFloatBitWidth() <= t.getWidth();
  APInt c;
  return matchPattern(v, m_ConstantInt(&c)) && c.isIntN(t.getWidth());
}

Value BodyBuilder::convert(Value v, Type t) {
  Type from = v.getType();
  if (from == t)
    return v;
  // To an unsigned type (ui8): its scalar, the value modulo 2^8 (the low
  // byte, zero-extended). Floats truncate toward zero through i32 first,
  // whose low byte is what the interpreter's cast keeps.
  if (auto ut = dyn_cast<IntegerType>(t); ut && ut.isUnsigned()) {
    if (holdsUnsigned(v, ut))
      return v;
    if (isa<FloatType>(from))
      v = convert(v, b.getI32Type());
    Value low = convert(v, b.getIntegerType(ut.getWidth()));
    return arith::ExtUIOp::create(b, loc, getScalarType(ut), low);
  }
  auto tf = dyn_cast<FloatType>(t);
  // f16 and bf16 are reached through f32, as the interpreter stores them
  // (storeToFloatType: f64 and wide integers round twice, as in PyTorch).
  // f16 <-> bf16 has no single arith cast; f32 holds either exactly, and
  // integers of up to 24 bits.
  if (tf && tf.getWidth() == 16 &&
      (isa<FloatType>(from) ? !from.isF32()
                            : from.getIntOrFloatBitWidth() > 24)) {
    v = convert(v, b.getF32Type());
    from = v.getType();
  }
  auto ff = dyn_cast<FloatType>(from);
  if (ff && tf)
    return ff.getWidth() < tf.getWidth()
               ? arith::ExtFOp::create(b, loc, t, v).getResult()
               : arith::TruncFOp::create(b, loc, t, v).getResult();
  if (tf) // integer -> float: bools are 0/1
    return from.isInteger(1) ? arith::UIToFPOp::create(b, loc, t, v).getResult()
                             : arith::SIToFPOp::create(b, loc, t, v).getResult();
  if (t.isInteger(1)) { // anything -> bool is `!= 0`
    if (ff)
      return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNE, v,
                                   constant(0, from));
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, v,
                                 constantInt(0, from));
  }
  if (ff) // float -> integer truncates toward zero
    return arith::FPToSIOp::create(b, loc, t, v);
  unsigned fw = from.getIntOrFloatBitWidth(), tw = t.getIntOrFloatBitWidth();
  if (fw == 1)
    return arith::ExtUIOp::create(b, loc, t, v);
  return fw < tw ? arith::ExtSIOp::create(b, loc, t, v).getResult()
                 : arith::TruncIOp::create(b, loc, t, v).getResult();
}

//===----------------------------------------------------------------------===//
// Nodes
//===----------------------------------------------------------------------===//

BufferNode::BufferNode(Value buffer, ArrayRef<int64_t> strides, int64_t offset)
    : Node(cast<RankedTensorType>(buffer.getType())), buffer(buffer),
      strides(strides), offset(offset) {}

Value BufferNode::load(BodyBuilder &bb, ArrayRef<AffineExpr> index) {
  AffineExpr addr = getAffineConstantExpr(offset, bb.b.getContext());
  for (auto [e, s] : llvm::zip(index, strides))
    addr = addr + e * s;
  return LoadOp::create(bb.b, bb.loc, buffer, bb.index(addr), bb.mask);
}

bool BufferNode::isRowMajor() const {
  if (offset != 0)
    return false;
  SmallVector<int64_t> rm = RuleContext::rowMajor(type.getShape());
  for (auto [k, s] : llvm::enumerate(strides))
    if (type.getDimSize(k) != 1 && s != rm[k])
      return false;
  return true;
}

SmallVector<int64_t> RuleContext::rowMajor(ArrayRef<int64_t> shape) {
  SmallVector<int64_t> strides(shape.size(), 1);
  for (int64_t i = static_cast<int64_t>(shape.size()) - 2; i >= 0; --i)
    strides[i] = strides[i + 1] * std::max<int64_t>(shape[i + 1], 1);
  return strides;
}

NodePtr RuleContext::rowMajorBuffer(Value buffer) {
  auto t = cast<RankedTensorType>(buffer.getType());
  return std::make_shared<BufferNode>(buffer, rowMajor(t.getShape()), 0);
}

/// Creates a node op with an entry block of `numIndices` index arguments
/// and fills it with `body`'s computation and a yield.
template <typename OpT>
static void fillBody(OpBuilder &b, OpT node, unsigned numIndices,
                     const ComputedNode::Fn &body) {
  Location loc = node.getLoc();
  Block *block = new Block();
  node.getBody().push_back(block);
  for (unsigned k = 0; k < numIndices; ++k)
    block->addArgument(b.getIndexType(), loc);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(block);
  BodyBuilder bb(b, loc, block->getArguments());
  Value v = body(bb, bb.dimExprs(0, numIndices));
  YieldOp::create(b, loc, ValueRange{v});
}

Value RuleContext::buildPointwise(RankedTensorType type, LayoutAttr layout,
                                  const ComputedNode::Fn &body) {
  auto node = PointwiseOp::create(b, op->getLoc(), type, layout,
                                 /*ranges=*/DenseI64ArrayAttr());
  fillBody(b, node, type.getRank(), body);
  return node.getResult();
}

Value RuleContext::buildReduction(RankedTensorType type, ReductionKind kind,
                                  ArrayRef<int64_t> reductionRanges,
                                  const ComputedNode::Fn &body) {
  return buildReduction(TypeRange{type}, kind, reductionRanges, body)[0];
}

ValueRange RuleContext::buildReduction(TypeRange types, ReductionKind kind,
                                       ArrayRef<int64_t> reductionRanges,
                                       const ComputedNode::Fn &body) {
  auto type = cast<RankedTensorType>(types.front());
  auto layout = LayoutAttr::getRowMajor(b.getContext(), type.getShape());
  auto node = ReductionOp::create(
      b, op->getLoc(), types, ReductionKindAttr::get(b.getContext(), kind),
      b.getDenseI64ArrayAttr(reductionRanges), layout,
      /*ranges=*/DenseI64ArrayAttr());
  fillBody(b, node, type.getRank() + reductionRanges.size(), body);
  return node.getResults();
}

Value RuleContext::buildScatter(const NodePtr &base, ScatterMode mode,
                                ArrayRef<int64_t> ranges, const ScatterFn &body) {
  Value init = materialize(base);
  auto type = cast<RankedTensorType>(init.getType());
  auto layout = LayoutAttr::getRowMajor(b.getContext(), type.getShape());
  auto node = ScatterOp::create(b, op->getLoc(), type, init,
                                ScatterModeAttr::get(b.getContext(), mode),
                                b.getDenseI64ArrayAttr(ranges), layout);
  Location loc = op->getLoc();
  Block *block = new Block();
  node.getBody().push_back(block);
  for (size_t k = 0; k < ranges.size(); ++k)
    block->addArgument(b.getIndexType(), loc);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(block);
  BodyBuilder bb(b, loc, block->getArguments());
  auto [addr, value] = body(bb, bb.dimExprs(0, ranges.size()));
  YieldOp::create(b, loc, ValueRange{addr, value});
  return node.getResult();
}

SmallVector<AffineExpr> stax::lowering::broadcastIndex(
    ArrayRef<int64_t> inShape, ArrayRef<int64_t> outShape,
    ArrayRef<AffineExpr> index) {
  SmallVector<AffineExpr> out;
  size_t lead = outShape.size() - inShape.size();
  for (auto [k, s] : llvm::enumerate(inShape)) {
    AffineExpr e = index[lead + k];
    if (s == 1 && outShape[lead + k] != 1)
      e = getAffineConstantExpr(0, e.getContext());
    out.push_back(s == 1 ? getAffineConstantExpr(0, e.getContext()) : e);
  }
  return out;
}

Type stax::lowering::computeType(Type t) {
  if (t.isF16() || t.isBF16())
    return Float32Type::get(t.getContext());
  return t;
}

Value stax::lowering::toComputeType(BodyBuilder &bb, Value v, Type ct) {
  return bb.convert(bb.convert(v, ct), computeType(ct));
}
