//===- LinearIndex.cpp - coefficients of linear index maps ----------------===//
#include "LinearIndex.h"

using namespace mlir;

FailureOr<SmallVector<int64_t>>
stax::codegen::linearCoefficients(affine::AffineApplyOp apply) {
  AffineMap map = apply.getAffineMap();
  AffineExpr e = map.getResult(0);
  bool linear = e.isPureAffine();
  e.walk([&](AffineExpr sub) {
    if (sub.getKind() == AffineExprKind::Mod ||
        sub.getKind() == AffineExprKind::FloorDiv ||
        sub.getKind() == AffineExprKind::CeilDiv)
      linear = false;
  });
  if (!linear)
    return failure();
  MLIRContext *ctx = apply.getContext();
  unsigned n = apply.getNumOperands();
  // The map's value with operand `which` at 1 and the others at 0.
  auto valueAt = [&](int64_t which) -> std::optional<int64_t> {
    SmallVector<AffineExpr> dims, syms;
    for (unsigned k = 0; k < n; ++k)
      (k < map.getNumDims() ? dims : syms)
          .push_back(getAffineConstantExpr(k == which ? 1 : 0, ctx));
    auto c = dyn_cast<AffineConstantExpr>(
        simplifyAffineExpr(e.replaceDimsAndSymbols(dims, syms), 0, 0));
    if (!c)
      return std::nullopt;
    return c.getValue();
  };
  std::optional<int64_t> base = valueAt(-1);
  if (!base)
    return failure();
  SmallVector<int64_t> coeffs;
  for (unsigned k = 0; k < n; ++k) {
    std::optional<int64_t> at = valueAt(k);
    if (!at)
      return failure();
    coeffs.push_back(*at - *base);
  }
  return coeffs;
}

/// The coefficient of `target` (a dim or symbol) in `e`, or nullopt when
/// `e` is not linear in it.
static std::optional<int64_t> coefficientIn(AffineExpr e, AffineExpr target) {
  if (e == target)
    return 1;
  auto bin = dyn_cast<AffineBinaryOpExpr>(e);
  if (!bin)
    return 0; // a constant or another dim/symbol
  std::optional<int64_t> l = coefficientIn(bin.getLHS(), target);
  std::optional<int64_t> r = coefficientIn(bin.getRHS(), target);
  if (!l || !r)
    return std::nullopt;
  switch (e.getKind()) {
  case AffineExprKind::Add:
    return *l + *r;
  case AffineExprKind::Mul:
    if (auto c = dyn_cast<AffineConstantExpr>(bin.getRHS()))
      return *l * c.getValue();
    if (auto c = dyn_cast<AffineConstantExpr>(bin.getLHS()))
      return *r * c.getValue();
    break;
  default: // mod, floordiv, ceildiv
    break;
  }
  if (*l == 0 && *r == 0)
    return 0;
  return std::nullopt;
}

std::optional<int64_t>
stax::codegen::linearCoefficientOf(affine::AffineApplyOp apply,
                                   unsigned operand) {
  AffineMap map = apply.getAffineMap();
  MLIRContext *ctx = apply.getContext();
  AffineExpr target = operand < map.getNumDims()
                          ? getAffineDimExpr(operand, ctx)
                          : getAffineSymbolExpr(operand - map.getNumDims(), ctx);
  return coefficientIn(map.getResult(0), target);
}

FailureOr<SmallVector<int64_t>>
stax::codegen::argumentCoefficients(Value address, Block &body) {
  SmallVector<int64_t> coeffs(body.getNumArguments(), 0);
  if (auto arg = dyn_cast<BlockArgument>(address)) {
    if (arg.getOwner() != &body)
      return failure();
    coeffs[arg.getArgNumber()] = 1;
    return coeffs;
  }
  auto apply = address.getDefiningOp<affine::AffineApplyOp>();
  if (!apply)
    return failure();
  FailureOr<SmallVector<int64_t>> linear = linearCoefficients(apply);
  if (failed(linear))
    return failure();
  for (auto [k, operand] : llvm::enumerate(apply.getOperands())) {
    auto arg = dyn_cast<BlockArgument>(operand);
    if (!arg || arg.getOwner() != &body)
      return failure();
    coeffs[arg.getArgNumber()] += (*linear)[k];
  }
  return coeffs;
}

