//===- LoopUtils.cpp - rewriting the loops of stax nodes ------------------===//
#include "LoopUtils.h"
#include "mlir/IR/AffineExprVisitor.h"
#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace mlir::stax;

/// Coefficient of `d<pos>` in `e`, or nullopt when `e` is not linear in it.
static std::optional<int64_t> coefficientOfDim(AffineExpr e, unsigned pos,
                                               bool isSymbol) {
  switch (e.getKind()) {
  case AffineExprKind::Constant:
    return 0;
  case AffineExprKind::DimId:
    return !isSymbol && cast<AffineDimExpr>(e).getPosition() == pos ? 1 : 0;
  case AffineExprKind::SymbolId:
    return isSymbol && cast<AffineSymbolExpr>(e).getPosition() == pos ? 1 : 0;
  default:
    break;
  }
  auto bin = cast<AffineBinaryOpExpr>(e);
  std::optional<int64_t> l = coefficientOfDim(bin.getLHS(), pos, isSymbol);
  std::optional<int64_t> r = coefficientOfDim(bin.getRHS(), pos, isSymbol);
  if (!l || !r)
    return std::nullopt;
  if (e.getKind() == AffineExprKind::Add)
    return *l + *r;
  bool uses = *l != 0 || *r != 0;
  if (e.getKind() != AffineExprKind::Mul)
    return uses ? std::nullopt : std::optional<int64_t>(0);
  // A product is linear in the dim only when the other side is constant.
  if (auto c = dyn_cast<AffineConstantExpr>(bin.getRHS()))
    return *l * c.getValue();
  if (auto c = dyn_cast<AffineConstantExpr>(bin.getLHS()))
    return *r * c.getValue();
  return uses ? std::nullopt : std::optional<int64_t>(0);
}

std::optional<int64_t> loops::coefficientOf(affine::AffineApplyOp apply,
                                            Value arg) {
  AffineMap map = apply.getAffineMap();
  AffineExpr e = map.getResult(0);
  int64_t total = 0;
  for (auto [k, v] : llvm::enumerate(apply.getMapOperands())) {
    if (v != arg)
      continue;
    bool isSymbol = k >= map.getNumDims();
    unsigned pos = isSymbol ? k - map.getNumDims() : k;
    std::optional<int64_t> c = coefficientOfDim(e, pos, isSymbol);
    if (!c)
      return std::nullopt;
    total += *c;
  }
  return total;
}

/// The old index argument `v` stands for, if it is one.
static std::optional<unsigned> oldIndex(Block &block, Value v,
                                        unsigned numOld) {
  auto arg = dyn_cast<BlockArgument>(v);
  if (!arg || arg.getOwner() != &block || arg.getArgNumber() >= numOld)
    return std::nullopt;
  return arg.getArgNumber();
}

/// Rewrites `apply` over the new arguments; `exprs` give the old ones.
static void recompose(affine::AffineApplyOp apply, Block &block,
                      unsigned numOld, ArrayRef<Value> newArgs,
                      ArrayRef<AffineExpr> exprs) {
  MLIRContext *ctx = apply.getContext();
  AffineMap map = apply.getAffineMap();
  // New dims: the new arguments, then operands that are not old indices.
  SmallVector<Value> dims(newArgs), syms;
  SmallVector<AffineExpr> dimRepl, symRepl;
  auto replace = [&](Value v, SmallVectorImpl<AffineExpr> &repl,
                     bool asSymbol) {
    if (std::optional<unsigned> k = oldIndex(block, v, numOld)) {
      repl.push_back(exprs[*k]);
    } else if (asSymbol) {
      repl.push_back(getAffineSymbolExpr(syms.size(), ctx));
      syms.push_back(v);
    } else {
      repl.push_back(getAffineDimExpr(dims.size(), ctx));
      dims.push_back(v);
    }
  };
  ValueRange operands = apply.getMapOperands();
  for (unsigned d = 0; d < map.getNumDims(); ++d)
    replace(operands[d], dimRepl, /*asSymbol=*/false);
  for (unsigned s = 0; s < map.getNumSymbols(); ++s)
    replace(operands[map.getNumDims() + s], symRepl, /*asSymbol=*/true);
  AffineMap newMap =
      map.replaceDimsAndSymbols(dimRepl, symRepl, dims.size(), syms.size());
  SmallVector<Value> newOperands(dims);
  newOperands.append(syms);
  affine::canonicalizeMapAndOperands(&newMap, &newOperands);
  newMap = simplifyAffineMap(newMap);
  OpBuilder b(apply);
  auto newApply =
      affine::AffineApplyOp::create(b, apply.getLoc(), newMap, newOperands);
  apply.getResult().replaceAllUsesWith(newApply.getResult());
  apply.erase();
}

/// A value equal to `e` over the new arguments, built at the block start.
static Value materialize(AffineExpr e, Block &block, ArrayRef<Value> newArgs,
                         Location loc) {
  if (auto d = dyn_cast<AffineDimExpr>(e))
    return newArgs[d.getPosition()];
  OpBuilder b = OpBuilder::atBlockBegin(&block);
  AffineMap map = AffineMap::get(newArgs.size(), 0, e);
  SmallVector<Value> operands(newArgs);
  affine::canonicalizeMapAndOperands(&map, &operands);
  return affine::AffineApplyOp::create(b, loc, simplifyAffineMap(map),
                                       operands);
}

void loops::substituteIndices(Block &block, unsigned numNew,
                              ArrayRef<AffineExpr> exprs) {
  unsigned numOld = block.getNumArguments();
  assert(exprs.size() == numOld && "one expression per old index");
  Location loc = block.getParentOp()->getLoc();
  Type index = IndexType::get(block.getParentOp()->getContext());
  SmallVector<Value> newArgs;
  for (unsigned k = 0; k < numNew; ++k)
    newArgs.push_back(block.addArgument(index, loc));
  for (auto apply : llvm::make_early_inc_range(
           block.getOps<affine::AffineApplyOp>()))
    if (llvm::any_of(apply.getMapOperands(), [&](Value v) {
          return oldIndex(block, v, numOld).has_value();
        }))
      recompose(apply, block, numOld, newArgs, exprs);
  for (unsigned k = 0; k < numOld; ++k) {
    Value old = block.getArgument(k);
    if (!old.use_empty())
      old.replaceAllUsesWith(materialize(exprs[k], block, newArgs, loc));
  }
  block.eraseArguments(0, numOld);
}
