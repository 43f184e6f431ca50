//===- StaxOps.cpp - stax dialect operations ------------------------------===//
#include "Stax/Dialect/Stax/IR/StaxOps.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/InterleavedRange.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::stax;

#define GET_OP_CLASSES
#include "Stax/Dialect/Stax/IR/StaxOps.cpp.inc"

Type stax::getScalarType(Type elementType) {
  auto it = dyn_cast<IntegerType>(elementType);
  if (!it || !it.isUnsigned())
    return elementType;
  return IntegerType::get(it.getContext(), 2 * it.getWidth());
}

Type stax::getStorageType(Type elementType) {
  auto it = dyn_cast<IntegerType>(elementType);
  if (!it || it.isSignless())
    return elementType;
  return IntegerType::get(it.getContext(), it.getWidth());
}

//===----------------------------------------------------------------------===//
// Shared node helpers
//===----------------------------------------------------------------------===//

/// True when no two indices of `extents` share an address under `strides`
/// (non-negative). Dimensions sorted by stride must each step over the whole
/// extent of the smaller ones; layouts that interleave instead are checked
/// exhaustively when small, and rejected when large (lowering never makes
/// them).
static bool isInjective(ArrayRef<int64_t> strides, ArrayRef<int64_t> extents) {
  SmallVector<std::pair<int64_t, int64_t>> dims; // (stride, extent)
  int64_t numel = 1;
  for (auto [s, e] : llvm::zip(strides, extents)) {
    if (e == 0)
      return true; // no element, no collision
    if (e > 1)
      dims.push_back({s, e});
    if (llvm::MulOverflow(numel, e, numel))
      return false;
  }
  llvm::sort(dims);
  bool nested = true;
  int64_t span = 1; // addresses covered by the dims so far
  for (auto [s, e] : dims) {
    if (s < span) {
      nested = false;
      break;
    }
    if (llvm::MulOverflow(s, e, span))
      return false;
  }
  if (nested)
    return true;
  if (numel > (int64_t(1) << 16))
    return false;
  llvm::DenseSet<int64_t> seen;
  for (int64_t flat = 0; flat < numel; ++flat) {
    int64_t addr = 0, rest = flat;
    for (auto [s, e] : llvm::reverse(dims)) {
      addr += (rest % e) * s;
      rest /= e;
    }
    if (!seen.insert(addr).second)
      return false;
  }
  return true;
}

/// Checks that `layout` stores a buffer whose indices range over `extents`:
/// one stride per dimension, nothing negative, and no two elements at one
/// address (a write through an overlapping layout would lose values).
static LogicalResult verifyLayout(Operation *op, LayoutAttr layout,
                                  ArrayRef<int64_t> extents) {
  if (layout.getFlexible())
    return success();
  if (layout.getStrides().size() != extents.size())
    return op->emitOpError() << "layout has " << layout.getStrides().size()
                             << " strides but the buffer has rank "
                             << extents.size();
  if (layout.getOffset() < 0 ||
      llvm::any_of(layout.getStrides(), [](int64_t s) { return s < 0; }))
    return op->emitOpError() << "layout strides and offset must be "
                                "non-negative";
  if (!isInjective(layout.getStrides(), extents))
    return op->emitOpError()
           << "layout " << layout << " stores two elements of the "
           << extents.size() << "-d range [" << llvm::interleaved(extents)
           << "] at one address; a node's layout must be injective";
  return success();
}

/// The body's stax.yield, or null (with an error on `op`) when the block
/// does not end with one: verify() runs before the region traits
/// (SingleBlockImplicitTerminator) have checked the terminator.
static YieldOp bodyYield(Operation *op, Region &body) {
  YieldOp yield;
  if (!body.empty() && !body.front().empty())
    yield = dyn_cast<YieldOp>(body.front().back());
  if (!yield)
    op->emitOpError() << "body must end with 'stax.yield'";
  return yield;
}

/// Checks the body's index arguments and its yield.
static LogicalResult verifyBody(Operation *op, Region &body, unsigned numIndices,
                                TypeRange yieldTypes) {
  Block &block = body.front();
  if (block.getNumArguments() != numIndices)
    return op->emitOpError() << "body must take " << numIndices
                             << " index arguments, got "
                             << block.getNumArguments();
  for (BlockArgument a : block.getArguments())
    if (!a.getType().isIndex())
      return op->emitOpError() << "body arguments must be of index type";
  YieldOp yield = bodyYield(op, body);
  if (!yield)
    return failure();
  if (yield.getValues().getTypes() != yieldTypes) {
    InFlightDiagnostic d = op->emitOpError() << "body must yield (";
    llvm::interleaveComma(yieldTypes, d);
    d << ") but yields (";
    llvm::interleaveComma(yield.getValues().getTypes(), d);
    return d << ")";
  }
  return success();
}

static void nameIndices(Region &body, unsigned numOuter,
                        OpAsmSetValueNameFn setName) {
  if (body.empty())
    return;
  for (BlockArgument a : body.front().getArguments()) {
    unsigned k = a.getArgNumber();
    setName(a, k < numOuter ? "i" + std::to_string(k)
                            : "r" + std::to_string(k - numOuter));
  }
}

/// Checks explicit iteration ranges against the result's element count.
static LogicalResult verifyRanges(Operation *op, DenseI64ArrayAttr ranges,
                                  RankedTensorType type) {
  if (!ranges)
    return success();
  int64_t n = 1;
  for (int64_t r : ranges.asArrayRef()) {
    if (r < 0)
      return op->emitOpError() << "ranges must be non-negative";
    n *= r;
  }
  if (n != type.getNumElements())
    return op->emitOpError() << "ranges cover " << n
                             << " elements but the result has "
                             << type.getNumElements();
  return success();
}

static ParseResult parseIntList(OpAsmParser &parser, SmallVectorImpl<int64_t> &out) {
  return parser.parseCommaSeparatedList(OpAsmParser::Delimiter::Square, [&] {
    return parser.parseInteger(out.emplace_back());
  });
}

/// ` ranges [a, b]` when present.
static ParseResult parseOptionalRanges(OpAsmParser &parser, OperationState &state,
                                       StringAttr name) {
  if (failed(parser.parseOptionalKeyword("ranges")))
    return success();
  SmallVector<int64_t> ranges;
  if (parseIntList(parser, ranges))
    return failure();
  state.addAttribute(name, DenseI64ArrayAttr::get(parser.getContext(), ranges));
  return success();
}

static void printOptionalRanges(OpAsmPrinter &p, DenseI64ArrayAttr ranges) {
  if (!ranges)
    return;
  p << " ranges [";
  llvm::interleaveComma(ranges.asArrayRef(), p);
  p << "]";
}

static ParseResult parseLayout(OpAsmParser &parser, LayoutAttr &layout) {
  return failure(parser.parseKeyword("layout") ||
                 parser.parseCustomAttributeWithFallback(layout, Type()));
}

static ParseResult parseBody(OpAsmParser &parser, OperationState &state) {
  Region *body = state.addRegion();
  if (parser.parseRegion(*body, /*arguments=*/{}))
    return failure();
  return success();
}

static void printBody(OpAsmPrinter &p, Region &body) {
  p << ' ';
  p.printRegion(body, /*printEntryBlockArgs=*/true,
                /*printBlockTerminators=*/true);
}

//===----------------------------------------------------------------------===//
// PointwiseOp
//===----------------------------------------------------------------------===//

// stax.pointwise (ranges [128])? layout <[512, 1]> : tensor<256x512xf32>
//   attr-dict {...}
ParseResult PointwiseOp::parse(OpAsmParser &parser, OperationState &state) {
  LayoutAttr layout;
  Type type;
  if (parseOptionalRanges(parser, state, getRangesAttrName(state.name)) ||
      parseLayout(parser, layout) || parser.parseColonType(type) ||
      parser.parseOptionalAttrDictWithKeyword(state.attributes))
    return failure();
  state.addAttribute(getLayoutAttrName(state.name), layout);
  state.addTypes(type);
  return parseBody(parser, state);
}

void PointwiseOp::print(OpAsmPrinter &p) {
  printOptionalRanges(p, getRangesAttr());
  p << " layout ";
  p.printStrippedAttrOrType(getLayout());
  p << " : " << getType();
  p.printOptionalAttrDictWithKeyword((*this)->getAttrs(), {"layout", "ranges"});
  printBody(p, getBody());
}

Value PointwiseOp::getRowMajorSource(bool transposed) {
  auto type = getResult().getType();
  unsigned rank = type.getRank();
  if (transposed && rank < 2)
    return {};
  Block &body = getBody().front();
  if (body.getOperations().size() != 3)
    return {};
  auto apply = dyn_cast<affine::AffineApplyOp>(body.front());
  auto load = dyn_cast<LoadOp>(*std::next(body.begin()));
  auto yield = cast<YieldOp>(body.getTerminator());
  if (!apply || !load || load.getMask() || load.getAddress() != apply ||
      yield.getValues().size() != 1 || yield.getValues()[0] != load ||
      apply.getOperands() != ValueRange(body.getArguments()))
    return {};
  auto src = cast<RankedTensorType>(load.getBuffer().getType());
  if (src.getNumElements() != type.getNumElements() ||
      src.getElementType() != type.getElementType())
    return {};
  // The row-major address of the (swapped) index. Loop normalization
  // drops unit dims into `ranges`: each other dim is the next loop.
  SmallVector<int64_t> shape(type.getShape());
  SmallVector<AffineExpr> dims;
  ArrayRef<int64_t> loops = getIterationRanges();
  unsigned loop = 0;
  for (unsigned d = 0; d < rank; ++d) {
    if (getRangesAttr() && shape[d] == 1) {
      dims.push_back(getAffineConstantExpr(0, getContext()));
      continue;
    }
    if (loop >= loops.size() || loops[loop] != shape[d])
      return {};
    dims.push_back(getAffineDimExpr(loop++, getContext()));
  }
  if (loop != loops.size())
    return {};
  if (transposed) {
    std::swap(shape[rank - 1], shape[rank - 2]);
    std::swap(dims[rank - 1], dims[rank - 2]);
  }
  AffineExpr addr = getAffineConstantExpr(0, getContext());
  int64_t stride = 1;
  for (int d = rank - 1; d >= 0; --d) {
    addr = addr + dims[d] * stride;
    stride *= shape[d];
  }
  if (apply.getAffineMap() !=
      AffineMap::get(loop, 0, simplifyAffineExpr(addr, loop, 0)))
    return {};
  return load.getBuffer();
}

LogicalResult PointwiseOp::verify() {
  auto type = getResult().getType();
  size_t loops = getIterationRanges().size();
  if (failed(verifyRanges(*this, getRangesAttr(), type)) ||
      failed(verifyLayout(*this, getLayout(), getIterationRanges())))
    return failure();
  return verifyBody(*this, getBody(), loops,
                    {getScalarType(type.getElementType())});
}

void PointwiseOp::getAsmBlockArgumentNames(Region &region,
                                           OpAsmSetValueNameFn setName) {
  nameIndices(region, getIterationRanges().size(), setName);
}

//===----------------------------------------------------------------------===//
// ReductionOp
//===----------------------------------------------------------------------===//

// stax.reduction sum [128] layout <[1]> : tensor<64xf32> attr-dict {...}
ParseResult ReductionOp::parse(OpAsmParser &parser, OperationState &state) {
  std::string kindName;
  if (parser.parseKeywordOrString(&kindName))
    return failure();
  std::optional<ReductionKind> kind = symbolizeReductionKind(kindName);
  if (!kind)
    return parser.emitError(parser.getCurrentLocation())
           << "unknown reduction kind '" << kindName << "'";
  SmallVector<int64_t> ranges;
  if (parseIntList(parser, ranges) ||
      parseOptionalRanges(parser, state, getRangesAttrName(state.name)))
    return failure();
  LayoutAttr layout;
  SmallVector<Type> types;
  if (parseLayout(parser, layout) || parser.parseColonTypeList(types) ||
      parser.parseOptionalAttrDictWithKeyword(state.attributes))
    return failure();
  MLIRContext *ctx = parser.getContext();
  state.addAttribute(getKindAttrName(state.name),
                     ReductionKindAttr::get(ctx, *kind));
  state.addAttribute(getReductionRangesAttrName(state.name),
                     DenseI64ArrayAttr::get(ctx, ranges));
  state.addAttribute(getLayoutAttrName(state.name), layout);
  state.addTypes(types);
  return parseBody(parser, state);
}

void ReductionOp::print(OpAsmPrinter &p) {
  p << ' ' << stringifyReductionKind(getKind()) << " [";
  llvm::interleaveComma(getReductionRanges(), p);
  p << "]";
  printOptionalRanges(p, getRangesAttr());
  p << " layout ";
  p.printStrippedAttrOrType(getLayout());
  p << " : ";
  llvm::interleaveComma(getResultTypes(), p);
  p.printOptionalAttrDictWithKeyword(
      (*this)->getAttrs(), {"kind", "reduction_ranges", "layout", "ranges"});
  printBody(p, getBody());
}

LogicalResult ReductionOp::verify() {
  ReductionKind kind = getKind();
  bool triple = kind == ReductionKind::Welford ||
                kind == ReductionKind::WelfordCombine;
  unsigned expected = triple ? 3 : 1;
  if (getNumResults() != expected)
    return emitOpError() << "'" << stringifyReductionKind(kind) << "' has "
                         << expected << " result(s), got " << getNumResults();
  auto type = cast<RankedTensorType>(getResult(0).getType());
  for (Type t : getResultTypes())
    if (cast<RankedTensorType>(t).getShape() != type.getShape())
      return emitOpError() << "results must have one shape";
  if (llvm::any_of(getReductionRanges(), [](int64_t s) { return s < 0; }))
    return emitOpError() << "reduction ranges must be non-negative";
  size_t loops = getIterationRanges().size();
  if (failed(verifyRanges(*this, getRangesAttr(), type)) ||
      failed(verifyLayout(*this, getLayout(), getIterationRanges())))
    return failure();
  unsigned numIndices = loops + getReductionRanges().size();
  YieldOp yield = bodyYield(*this, getBody());
  if (!yield)
    return failure();
  unsigned yields = kind == ReductionKind::WelfordCombine ? 3 : 1;
  if (yield.getValues().size() != yields)
    return emitOpError() << "body must yield " << yields << " value(s)";
  Type v = yield.getValues()[0].getType();
  SmallVector<Type> yieldTypes(yields, v);
  if (failed(verifyBody(*this, getBody(), numIndices, yieldTypes)))
    return failure();
  Type elt = type.getElementType();
  switch (kind) {
  case ReductionKind::Argmax:
  case ReductionKind::Argmin:
    if (!elt.isInteger(64))
      return emitOpError() << "'" << stringifyReductionKind(kind)
                           << "' produces i64 positions, not " << elt;
    return success();
  case ReductionKind::Any:
  case ReductionKind::All:
    if (!v.isInteger(1) || !elt.isInteger(1))
      return emitOpError() << "'" << stringifyReductionKind(kind)
                           << "' combines and produces i1";
    return success();
  case ReductionKind::Welford:
  case ReductionKind::WelfordCombine:
    if (!isa<FloatType>(v))
      return emitOpError() << "'" << stringifyReductionKind(kind)
                           << "' needs floating values";
    [[fallthrough]];
  default:
    // Values combine in the yielded type and round once on store.
    for (Type t : getResultTypes()) {
      Type e = cast<RankedTensorType>(t).getElementType();
      if (getScalarType(e) != v && !(isa<FloatType>(e) && isa<FloatType>(v)))
        return emitOpError() << "combines " << v
                             << " values but stores " << e;
    }
    return success();
  }
}

void ReductionOp::getAsmBlockArgumentNames(Region &region,
                                           OpAsmSetValueNameFn setName) {
  nameIndices(region, getIterationRanges().size(), setName);
}

//===----------------------------------------------------------------------===//
// ScatterOp
//===----------------------------------------------------------------------===//

// stax.scatter accumulate %base [4, 8] layout <[8, 1]> : tensor<10x8xf32> {...}
ParseResult ScatterOp::parse(OpAsmParser &parser, OperationState &state) {
  std::string modeName;
  OpAsmParser::UnresolvedOperand base;
  if (parser.parseKeywordOrString(&modeName) || parser.parseOperand(base))
    return failure();
  std::optional<ScatterMode> mode = symbolizeScatterMode(modeName);
  if (!mode)
    return parser.emitError(parser.getCurrentLocation())
           << "unknown scatter mode '" << modeName << "'";
  SmallVector<int64_t> ranges;
  if (parser.parseCommaSeparatedList(OpAsmParser::Delimiter::Square, [&] {
        return parser.parseInteger(ranges.emplace_back());
      }))
    return failure();
  LayoutAttr layout;
  Type type;
  if (parseLayout(parser, layout) || parser.parseColonType(type) ||
      parser.parseOptionalAttrDictWithKeyword(state.attributes) ||
      parser.resolveOperand(base, type, state.operands))
    return failure();
  MLIRContext *ctx = parser.getContext();
  state.addAttribute(getModeAttrName(state.name), ScatterModeAttr::get(ctx, *mode));
  state.addAttribute(getRangesAttrName(state.name),
                     DenseI64ArrayAttr::get(ctx, ranges));
  state.addAttribute(getLayoutAttrName(state.name), layout);
  state.addTypes(type);
  return parseBody(parser, state);
}

void ScatterOp::print(OpAsmPrinter &p) {
  p << ' ' << stringifyScatterMode(getMode()) << ' ' << getBase() << " [";
  llvm::interleaveComma(getRanges(), p);
  p << "] layout ";
  p.printStrippedAttrOrType(getLayout());
  p << " : " << getType();
  p.printOptionalAttrDictWithKeyword((*this)->getAttrs(),
                                     {"mode", "ranges", "layout"});
  printBody(p, getBody());
}

LogicalResult ScatterOp::verify() {
  auto type = getResult().getType();
  if (getBase().getType() != type)
    return emitOpError() << "result type " << type
                         << " must equal the base type "
                         << getBase().getType();
  if (failed(verifyLayout(*this, getLayout(), type.getShape())))
    return failure();
  Type elt = type.getElementType();
  Type index = IndexType::get(getContext());
  return verifyBody(*this, getBody(), getRanges().size(),
                    {index, getScalarType(elt)});
}

void ScatterOp::getAsmBlockArgumentNames(Region &region,
                                         OpAsmSetValueNameFn setName) {
  nameIndices(region, getRanges().size(), setName);
}

//===----------------------------------------------------------------------===//
// KernelOp
//===----------------------------------------------------------------------===//

ArrayRef<int64_t> mlir::stax::getNodeLoops(Operation *op) {
  if (auto pointwise = dyn_cast<PointwiseOp>(op))
    return pointwise.getIterationRanges();
  if (auto reduction = dyn_cast<ReductionOp>(op))
    return reduction.getIterationRanges();
  if (auto scatter = dyn_cast<ScatterOp>(op))
    return scatter.getRanges();
  return {};
}

Operation *mlir::stax::getComputingNode(Value v) {
  auto result = dyn_cast<OpResult>(v);
  if (!result)
    return nullptr;
  Operation *def = result.getOwner();
  if (auto kernel = dyn_cast<KernelOp>(def))
    return getComputingNode(kernel.getBody().front().getTerminator()->getOperand(
        result.getResultNumber()));
  return isa<PointwiseOp, ReductionOp, ScatterOp>(def) ? def : nullptr;
}

LogicalResult KernelOp::verify() {
  YieldOp yield = bodyYield(*this, getBody());
  if (!yield)
    return failure();
  ArrayRef<int64_t> outer = getOuterRanges();
  if (llvm::any_of(outer, [](int64_t r) { return r < 0; }))
    return emitOpError() << "outer ranges must be non-negative";
  for (Operation &op : getBody().front().without_terminator()) {
    if (!isa<PointwiseOp, ReductionOp, ScatterOp>(op))
      return emitOpError() << "may only contain stax nodes, found '"
                           << op.getName() << "'";
    // The kernel's loops are every node's leading loops: code generation
    // runs the nodes inside one loop nest over `outer_ranges`.
    ArrayRef<int64_t> loops = getNodeLoops(&op);
    if (loops.size() < outer.size() ||
        loops.take_front(outer.size()) != outer) {
      InFlightDiagnostic diag = emitOpError()
                                << "outer ranges [" << outer
                                << "] are not the leading loops of every node";
      diag.attachNote(op.getLoc()) << "this node's loops are [" << loops << "]";
      return diag;
    }
  }
  if (yield.getValues().getTypes() != getResultTypes())
    return emitOpError() << "yields values whose types differ from its results";
  return success();
}

//===----------------------------------------------------------------------===//
// Body ops
//===----------------------------------------------------------------------===//

void LoadOp::build(OpBuilder &b, OperationState &state, Value buffer,
                   Value address, Value mask) {
  Type elt = cast<RankedTensorType>(buffer.getType()).getElementType();
  build(b, state, getScalarType(elt), buffer, address, mask);
}

namespace {
/// What a failing bounds check writes: the run's error state.
struct BoundsCheckResource
    : public SideEffects::Resource::Base<BoundsCheckResource> {
  StringRef getName() final { return "stax.bounds_check"; }
};
} // namespace

void IndirectIndexOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  if (getCheckBounds())
    effects.emplace_back(MemoryEffects::Write::get(),
                         BoundsCheckResource::get());
}

Speculation::Speculatability IndirectIndexOp::getSpeculatability() {
  return getCheckBounds() ? Speculation::NotSpeculatable
                          : Speculation::Speculatable;
}

LogicalResult IndirectIndexOp::verify() {
  auto size = static_cast<int64_t>(getSize());
  if (size < 0)
    return emitOpError() << "size must be non-negative, got " << size;
  return success();
}

//===----------------------------------------------------------------------===//
// Integer ranges (Definition 6.4)
//===----------------------------------------------------------------------===//

static ConstantIntRanges signedRange(int64_t lo, int64_t hi) {
  return ConstantIntRanges::fromSigned(APInt(64, lo, /*isSigned=*/true),
                                       APInt(64, hi, /*isSigned=*/true));
}

/// Loop index k of a node runs over [0, extents[k] - 1]. Upstream
/// IntegerRangeAnalysis asks a region op that is not a RegionBranchOp for
/// the ranges of its entry block arguments through this interface. It is
/// the FromOptional variant because a buffer operand never has a range, and
/// the plain variant is not called while an operand has none.
static void setLoopIndexRanges(Region &body, ArrayRef<int64_t> extents,
                               SetIntLatticeFn setResultRange) {
  Block &block = body.front();
  for (auto [arg, extent] : llvm::zip(block.getArguments(), extents))
    if (extent > 0)
      setResultRange(arg, IntegerValueRange(signedRange(0, extent - 1)));
}

void PointwiseOp::inferResultRangesFromOptional(ArrayRef<IntegerValueRange>,
                                                SetIntLatticeFn setResultRange) {
  setLoopIndexRanges(getBody(), getIterationRanges(), setResultRange);
}

void ReductionOp::inferResultRangesFromOptional(ArrayRef<IntegerValueRange>,
                                                SetIntLatticeFn setResultRange) {
  SmallVector<int64_t> extents(getIterationRanges());
  llvm::append_range(extents, getReductionRanges());
  setLoopIndexRanges(getBody(), extents, setResultRange);
}

void ScatterOp::inferResultRangesFromOptional(ArrayRef<IntegerValueRange>,
                                              SetIntLatticeFn setResultRange) {
  setLoopIndexRanges(getBody(), getRanges(), setResultRange);
}

/// A value read from memory may be anything its type holds. Set even though
/// the buffer operand has no range: left unset, the value would count as
/// never computed, and a select or join over it would look narrower than it
/// is.
void LoadOp::inferResultRangesFromOptional(ArrayRef<IntegerValueRange>,
                                           SetIntLatticeFn setResultRange) {
  Type t = getValue().getType();
  if (t.isIntOrIndex())
    setResultRange(getValue(),
                   IntegerValueRange(ConstantIntRanges::maxRange(
                       ConstantIntRanges::getStorageBitwidth(t))));
}

ConstantIntRanges IndirectIndexOp::inferIndexRange(const ConstantIntRanges &value,
                                                   int64_t size,
                                                   bool wrapNegative,
                                                   bool checkBounds) {
  // Operands wider than 64 bits that do not fit say nothing about the index.
  if (value.smin().getSignificantBits() > 64 ||
      value.smax().getSignificantBits() > 64 || size <= 0)
    return ConstantIntRanges::maxRange(64);
  int64_t lo = value.smin().getSExtValue(), hi = value.smax().getSExtValue();
  if (wrapNegative && hi < 0) {
    lo += size; // cannot overflow: lo <= hi < 0 < size
    hi += size;
  } else if (wrapNegative && lo < 0) {
    // Negative values land in [lo + size, size - 1], the others in [0, hi].
    lo = std::min<int64_t>(0, lo + size);
    hi = std::max<int64_t>(hi, size - 1);
  }
  if (checkBounds) {
    // Values outside [0, size) stop the program; the others pass unchanged.
    lo = std::max<int64_t>(lo, 0);
    hi = std::min<int64_t>(hi, size - 1);
    if (lo > hi) // always out of bounds: no index is ever produced
      return signedRange(0, size - 1);
  }
  return signedRange(lo, hi);
}

void IndirectIndexOp::inferResultRanges(ArrayRef<ConstantIntRanges> argRanges,
                                        SetIntRangeFn setResultRange) {
  setResultRange(getResult(),
                 inferIndexRange(argRanges[0], getSize(), getWrapNegative(),
                                 getCheckBounds()));
}

//===----------------------------------------------------------------------===//
// SpecialFunctionOp
//===----------------------------------------------------------------------===//

LogicalResult SpecialFunctionOp::verify() {
  SpecialFunctionKind kind = getKind();
  unsigned arity = kind == SpecialFunctionKind::Nextafter ? 2 : 1;
  if (getOperands().size() != arity)
    return emitOpError() << "'" << stringifySpecialFunctionKind(kind)
                         << "' takes " << arity << " operand(s), not "
                         << getOperands().size();
  Type t = getOperands()[0].getType();
  if (!t.isF32() && !t.isF64())
    return emitOpError() << "operands must be f32 or f64 (the runtime's "
                            "types), not "
                         << t;
  if (arity == 2 && getOperands()[1].getType() != t)
    return emitOpError() << "operands must have one type";
  Type want = kind == SpecialFunctionKind::FrexpExponent
                  ? Type(IntegerType::get(getContext(), 32))
                  : t;
  if (getType() != want)
    return emitOpError() << "result must be " << want << ", not " << getType();
  bool polygamma = kind == SpecialFunctionKind::Polygamma;
  if (polygamma != getN().has_value())
    return emitOpError() << "takes an order n if and only if it is 'polygamma'";
  // I64Attr reads back as uint64_t: a negative order is its two's complement.
  if (polygamma && static_cast<int64_t>(*getN()) < 0)
    return emitOpError() << "order n = " << static_cast<int64_t>(*getN())
                         << " must be >= 0";
  return success();
}
