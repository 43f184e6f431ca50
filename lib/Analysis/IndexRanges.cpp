//===- IndexRanges.cpp - interval rules of index arithmetic ---------------===//
//
// Sound intervals of affine index expressions (Definition 6.4). Upstream's
// rule for `mod` is unsound in LLVM 22 (intrange::inferAffineExpr gives [0, 1]
// for [1, 3] mod 3), so affine.apply uses this one; both are checked against
// brute force in unittests/Analysis/IndexRangeTest.cpp.
//
//===----------------------------------------------------------------------===//
#include "Stax/Analysis/IndexRanges.h"
#include "mlir/IR/AffineExpr.h"
#include "llvm/ADT/STLExtras.h"
#include <algorithm>
#include <limits>

using namespace mlir;

//===----------------------------------------------------------------------===//
// Affine intervals
//===----------------------------------------------------------------------===//

namespace {
/// A closed interval of int64; nullopt stands for "any value".
using Interval = std::optional<std::pair<int64_t, int64_t>>;
} // namespace

static Interval toInterval(const mlir::ConstantIntRanges &r) {
  if (r.smin().getSignificantBits() > 64 || r.smax().getSignificantBits() > 64)
    return std::nullopt;
  return std::make_pair(r.smin().getSExtValue(), r.smax().getSExtValue());
}

static int64_t floorDivInt(int64_t a, int64_t c) {
  return a / c - ((a % c != 0) && (a < 0));
}

/// Division by a positive constant is monotone: the bounds map to bounds.
static Interval divide(Interval l, int64_t c, bool ceil) {
  if (!l)
    return std::nullopt;
  auto div = [&](int64_t a) {
    return ceil ? -floorDivInt(-a, c) : floorDivInt(a, c);
  };
  if (ceil && l->first == std::numeric_limits<int64_t>::min())
    return std::nullopt;
  return std::make_pair(div(l->first), div(l->second));
}

/// Mathematical mod by c > 0: exact within one period of the dividend,
/// else [0, c - 1] (Definition 6.4, for any sign of the dividend).
static Interval modulo(Interval l, int64_t c) {
  if (l && floorDivInt(l->first, c) == floorDivInt(l->second, c)) {
    int64_t base = floorDivInt(l->first, c) * c;
    return std::make_pair(l->first - base, l->second - base);
  }
  return std::make_pair(int64_t(0), c - 1);
}

static Interval add(Interval a, Interval b) {
  int64_t lo, hi;
  if (!a || !b || __builtin_add_overflow(a->first, b->first, &lo) ||
      __builtin_add_overflow(a->second, b->second, &hi))
    return std::nullopt;
  return std::make_pair(lo, hi);
}

static Interval multiply(Interval a, Interval b) {
  if (!a || !b)
    return std::nullopt;
  int64_t corners[4];
  int64_t xs[2] = {a->first, a->second}, ys[2] = {b->first, b->second};
  for (int i = 0; i < 4; ++i)
    if (__builtin_mul_overflow(xs[i / 2], ys[i % 2], &corners[i]))
      return std::nullopt;
  return std::make_pair(*std::min_element(corners, corners + 4),
                        *std::max_element(corners, corners + 4));
}

static Interval affineInterval(AffineExpr e, ArrayRef<Interval> dims,
                               ArrayRef<Interval> syms) {
  if (auto c = dyn_cast<AffineConstantExpr>(e))
    return std::make_pair(c.getValue(), c.getValue());
  if (auto d = dyn_cast<AffineDimExpr>(e))
    return dims[d.getPosition()];
  if (auto s = dyn_cast<AffineSymbolExpr>(e))
    return syms[s.getPosition()];
  auto bin = cast<AffineBinaryOpExpr>(e);
  Interval l = affineInterval(bin.getLHS(), dims, syms);
  Interval r = affineInterval(bin.getRHS(), dims, syms);
  if (e.getKind() == AffineExprKind::Add)
    return add(l, r);
  if (e.getKind() == AffineExprKind::Mul)
    return multiply(l, r);
  // Divisors are positive constants in the affine expressions we build.
  if (!r || r->first != r->second || r->first <= 0)
    return std::nullopt;
  if (e.getKind() == AffineExprKind::Mod)
    return modulo(l, r->first);
  return divide(l, r->first, e.getKind() == AffineExprKind::CeilDiv);
}

ConstantIntRanges stax::inferAffineRange(AffineExpr expr,
                                         ArrayRef<ConstantIntRanges> dims,
                                         ArrayRef<ConstantIntRanges> symbols) {
  auto convert = [](ArrayRef<ConstantIntRanges> rs) {
    return llvm::map_to_vector(rs, toInterval);
  };
  Interval r = affineInterval(expr, convert(dims), convert(symbols));
  if (!r)
    return ConstantIntRanges::maxRange(64);
  return ConstantIntRanges::fromSigned(APInt(64, r->first, /*isSigned=*/true),
                                       APInt(64, r->second, /*isSigned=*/true));
}

