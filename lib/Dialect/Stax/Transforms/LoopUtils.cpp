//===- LoopUtils.cpp - rewriting the loops of stax nodes ------------------===//
#include "LoopUtils.h"
#include "mlir/IR/AffineExprVisitor.h"
#include "mlir/IR/Builders.h"
#include "llvm/Support/MathExtras.h"

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

namespace {

/// Inclusive bounds of an index expression; nullopt when unknown.
struct Interval {
  int64_t lo, hi;
};
using MaybeInterval = std::optional<Interval>;

/// Folds floordiv and mod by a positive constant where the bounds of the
/// dims prove the quotient's remainder part stays in [0, D):
/// (D q + r) floordiv D = q and (D q + r) mod D = r.
class RangeSimplifier {
public:
  explicit RangeSimplifier(ArrayRef<MaybeInterval> dims) : dims(dims) {}

  MaybeInterval bounds(AffineExpr e) const {
    switch (e.getKind()) {
    case AffineExprKind::Constant: {
      int64_t c = cast<AffineConstantExpr>(e).getValue();
      return Interval{c, c};
    }
    case AffineExprKind::DimId:
      return dims[cast<AffineDimExpr>(e).getPosition()];
    case AffineExprKind::SymbolId:
      return std::nullopt;
    default:
      break;
    }
    auto bin = cast<AffineBinaryOpExpr>(e);
    MaybeInterval l = bounds(bin.getLHS());
    auto rhs = dyn_cast<AffineConstantExpr>(bin.getRHS());
    switch (e.getKind()) {
    case AffineExprKind::Add: {
      MaybeInterval r = bounds(bin.getRHS());
      if (!l || !r)
        return std::nullopt;
      Interval s;
      if (llvm::AddOverflow(l->lo, r->lo, s.lo) ||
          llvm::AddOverflow(l->hi, r->hi, s.hi))
        return std::nullopt;
      return s;
    }
    case AffineExprKind::Mul: {
      if (!l || !rhs)
        return std::nullopt;
      int64_t c = rhs.getValue();
      Interval s;
      if (llvm::MulOverflow(l->lo, c, s.lo) ||
          llvm::MulOverflow(l->hi, c, s.hi))
        return std::nullopt;
      if (s.lo > s.hi)
        std::swap(s.lo, s.hi);
      return s;
    }
    case AffineExprKind::FloorDiv:
      if (!l || !rhs || rhs.getValue() <= 0)
        return std::nullopt;
      return Interval{llvm::divideFloorSigned(l->lo, rhs.getValue()),
                      llvm::divideFloorSigned(l->hi, rhs.getValue())};
    case AffineExprKind::CeilDiv:
      if (!l || !rhs || rhs.getValue() <= 0)
        return std::nullopt;
      return Interval{llvm::divideCeilSigned(l->lo, rhs.getValue()),
                      llvm::divideCeilSigned(l->hi, rhs.getValue())};
    case AffineExprKind::Mod:
      if (!rhs || rhs.getValue() <= 0)
        return std::nullopt;
      if (l && l->lo >= 0 && l->hi < rhs.getValue())
        return l;
      return Interval{0, rhs.getValue() - 1};
    default:
      return std::nullopt;
    }
  }

  AffineExpr simplify(AffineExpr e) const {
    auto bin = dyn_cast<AffineBinaryOpExpr>(e);
    if (!bin)
      return e;
    AffineExpr l = simplify(bin.getLHS()), r = simplify(bin.getRHS());
    auto rhs = dyn_cast<AffineConstantExpr>(r);
    switch (e.getKind()) {
    case AffineExprKind::Add:
      return l + r;
    case AffineExprKind::Mul:
      return l * r;
    case AffineExprKind::FloorDiv:
    case AffineExprKind::Mod:
      if (rhs && rhs.getValue() > 0)
        if (std::optional<std::pair<AffineExpr, AffineExpr>> qr =
                divide(l, rhs.getValue()))
          return e.getKind() == AffineExprKind::FloorDiv ? qr->first
                                                         : qr->second;
      return e.getKind() == AffineExprKind::FloorDiv ? l.floorDiv(r) : l % r;
    case AffineExprKind::CeilDiv:
      return l.ceilDiv(r);
    default:
      return e;
    }
  }

private:
  ArrayRef<MaybeInterval> dims;

  /// `e` as a constant plus terms coefficient * atom.
  static void flatten(AffineExpr e, int64_t scale,
                      SmallVectorImpl<std::pair<int64_t, AffineExpr>> &terms,
                      int64_t &constant) {
    if (auto c = dyn_cast<AffineConstantExpr>(e)) {
      constant += scale * c.getValue();
      return;
    }
    if (e.getKind() == AffineExprKind::Add) {
      auto bin = cast<AffineBinaryOpExpr>(e);
      flatten(bin.getLHS(), scale, terms, constant);
      flatten(bin.getRHS(), scale, terms, constant);
      return;
    }
    if (e.getKind() == AffineExprKind::Mul)
      if (auto c = dyn_cast<AffineConstantExpr>(
              cast<AffineBinaryOpExpr>(e).getRHS())) {
        flatten(cast<AffineBinaryOpExpr>(e).getLHS(), scale * c.getValue(),
                terms, constant);
        return;
      }
    terms.push_back({scale, e});
  }

  /// (q, r) with e = d q + r and r proven in [0, d), if the bounds allow.
  std::optional<std::pair<AffineExpr, AffineExpr>> divide(AffineExpr e,
                                                          int64_t d) const {
    SmallVector<std::pair<int64_t, AffineExpr>> terms;
    int64_t constant = 0;
    flatten(e, 1, terms, constant);
    MLIRContext *ctx = e.getContext();
    AffineExpr q = getAffineConstantExpr(llvm::divideFloorSigned(constant, d),
                                         ctx);
    AffineExpr r = getAffineConstantExpr(llvm::mod(constant, d), ctx);
    for (auto [c, atom] : terms) {
      if (c % d == 0)
        q = q + atom * (c / d);
      else
        r = r + atom * c;
    }
    MaybeInterval br = bounds(r);
    if (!br || br->lo < 0 || br->hi >= d)
      return std::nullopt;
    return std::make_pair(q, r);
  }
};

} // namespace

bool loops::simplifyWithRanges(Block &block, ArrayRef<int64_t> ranges) {
  bool changed = false;
  for (auto apply : block.getOps<affine::AffineApplyOp>()) {
    AffineMap map = apply.getAffineMap();
    SmallVector<MaybeInterval> dims;
    for (Value v : apply.getMapOperands().take_front(map.getNumDims())) {
      auto arg = dyn_cast<BlockArgument>(v);
      if (arg && arg.getOwner() == &block && arg.getArgNumber() < ranges.size() &&
          ranges[arg.getArgNumber()] > 0)
        dims.push_back(Interval{0, ranges[arg.getArgNumber()] - 1});
      else
        dims.push_back(std::nullopt);
    }
    AffineExpr e = RangeSimplifier(dims).simplify(map.getResult(0));
    AffineMap next = simplifyAffineMap(
        AffineMap::get(map.getNumDims(), map.getNumSymbols(), e));
    if (next == map)
      continue;
    apply->setAttr(apply.getMapAttrName(), AffineMapAttr::get(next));
    changed = true;
  }
  return changed;
}
