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

