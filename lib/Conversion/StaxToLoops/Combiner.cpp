//===- Combiner.cpp - the combine state of stax reductions ----------------===//
#include "Combiner.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/TypeUtilities.h"
#include <limits>

using namespace mlir;
using namespace mlir::stax;
using namespace mlir::stax::codegen;

Value codegen::constantOf(OpBuilder &b, Location loc, Type t, double f,
                          int64_t i) {
  Type elt = getElementTypeOrSelf(t);
  TypedAttr value;
  if (auto ft = dyn_cast<FloatType>(elt))
    value = b.getFloatAttr(ft, f);
  else
    value = b.getIntegerAttr(elt, i);
  if (auto vt = dyn_cast<VectorType>(t))
    return arith::ConstantOp::create(b, loc, DenseElementsAttr::get(vt, value));
  return arith::ConstantOp::create(b, loc, value);
}

SmallVector<Value> Combiner::init(OpBuilder &b, Location loc) const {
  using K = ReductionKind;
  unsigned w = isFloat() ? 64 : t.getIntOrFloatBitWidth();
  int64_t imin = w >= 64 ? std::numeric_limits<int64_t>::min()
                         : -(int64_t(1) << (w - 1));
  int64_t imax = w >= 64 ? std::numeric_limits<int64_t>::max()
                         : (int64_t(1) << (w - 1)) - 1;
  double inf = std::numeric_limits<double>::infinity();
  switch (kind) {
  case K::Sum:
  case K::Any:
    return {constantOf(b, loc, t, 0, 0)};
  case K::Prod:
  case K::All:
    return {constantOf(b, loc, t, 1, 1)};
  case K::Max:
    return {constantOf(b, loc, t, -inf, imin)};
  case K::Min:
    return {constantOf(b, loc, t, inf, imax)};
  case K::Argmax:
  case K::Argmin: {
    bool isMax = kind == K::Argmax;
    Value zero = arith::ConstantIntOp::create(b, loc, 0, 64);
    return {constantOf(b, loc, t, isMax ? -inf : inf, isMax ? imin : imax),
            zero, zero};
  }
  case K::Welford:
  case K::WelfordCombine: {
    Value zero = constantOf(b, loc, t, 0, 0);
    return {zero, zero, zero};
  }
  }
  llvm_unreachable("unknown reduction kind");
}

Value codegen::nanPropagatingExtreme(OpBuilder &b, Location loc, Value a,
                                     Value v, bool isMax) {
  auto gt = arith::CmpFOp::create(
      b, loc, isMax ? arith::CmpFPredicate::OGT : arith::CmpFPredicate::OLT, a,
      v);
  Value pick = arith::SelectOp::create(b, loc, gt, a, v);
  auto unordered =
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, a, v);
  Value nan = arith::AddFOp::create(b, loc, a, v); // NaN when either is
  return arith::SelectOp::create(b, loc, unordered, nan, pick);
}

SmallVector<Value> Combiner::step(OpBuilder &b, Location loc, ValueRange s,
                                  ValueRange y) const {
  using K = ReductionKind;
  Value v = y[0];
  switch (kind) {
  case K::Sum:
    return {isFloat() ? Value(arith::AddFOp::create(b, loc, s[0], v))
                      : Value(arith::AddIOp::create(b, loc, s[0], v))};
  case K::Prod:
    return {isFloat() ? Value(arith::MulFOp::create(b, loc, s[0], v))
                      : Value(arith::MulIOp::create(b, loc, s[0], v))};
  case K::Max:
  case K::Min: {
    bool isMax = kind == K::Max;
    if (isFloat())
      return {nanPropagatingExtreme(b, loc, s[0], v, isMax)};
    return {isMax ? Value(arith::MaxSIOp::create(b, loc, s[0], v))
                  : Value(arith::MinSIOp::create(b, loc, s[0], v))};
  }
  case K::Any:
    return {arith::OrIOp::create(b, loc, s[0], v)};
  case K::All:
    return {arith::AndIOp::create(b, loc, s[0], v)};
  case K::Argmax:
  case K::Argmin: {
    bool isMax = kind == K::Argmax;
    Value take;
    if (isFloat()) {
      // !isnan(f) && (isnan(v) || v > f): the first NaN wins, then the
      // first strict extreme.
      auto fOrdered =
          arith::CmpFOp::create(b, loc, arith::CmpFPredicate::ORD, s[0], s[0]);
      auto vNan =
          arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, v, v);
      auto better = arith::CmpFOp::create(
          b, loc, isMax ? arith::CmpFPredicate::OGT : arith::CmpFPredicate::OLT,
          v, s[0]);
      take = arith::AndIOp::create(
          b, loc, fOrdered, arith::OrIOp::create(b, loc, vNan, better));
    } else {
      take = arith::CmpIOp::create(
          b, loc, isMax ? arith::CmpIPredicate::sgt : arith::CmpIPredicate::slt,
          v, s[0]);
    }
    // Every lane of a vector state (one output each) counts alike.
    Value one = constantOf(b, loc, s[2].getType(), 1, 1);
    return {arith::SelectOp::create(b, loc, take, v, s[0]),
            arith::SelectOp::create(b, loc, take, s[2], s[1]),
            arith::AddIOp::create(b, loc, s[2], one)};
  }
  case K::Welford: {
    // Shaped like the state: the vector code runs this step on lanes.
    Value one = constantOf(b, loc, s[0].getType(), 1, 1);
    Value count = arith::AddFOp::create(b, loc, s[2], one);
    Value delta = arith::SubFOp::create(b, loc, v, s[0]);
    Value mean = arith::AddFOp::create(
        b, loc, s[0], arith::DivFOp::create(b, loc, delta, count));
    Value m2 = arith::AddFOp::create(
        b, loc, s[1],
        arith::MulFOp::create(b, loc, delta,
                              arith::SubFOp::create(b, loc, v, mean)));
    return {mean, m2, count};
  }
  case K::WelfordCombine: {
    // Chan et al.: skip an empty partial, take the first non-empty one.
    Value mb = y[0], m2b = y[1], nb = y[2];
    Value zero = constantOf(b, loc, s[0].getType(), 0, 0);
    Value n = arith::AddFOp::create(b, loc, s[2], nb);
    Value delta = arith::SubFOp::create(b, loc, mb, s[0]);
    Value mean = arith::AddFOp::create(
        b, loc, s[0],
        arith::MulFOp::create(b, loc, delta,
                              arith::DivFOp::create(b, loc, nb, n)));
    // Operands in named locals: GCC and Clang evaluate a call's arguments
    // in different orders, and the IR must not depend on the compiler.
    Value m2Sum = arith::AddFOp::create(b, loc, s[1], m2b);
    Value deltaSquared = arith::MulFOp::create(b, loc, delta, delta);
    Value counts = arith::MulFOp::create(b, loc, s[2], nb);
    Value weight = arith::DivFOp::create(b, loc, counts, n);
    Value m2 = arith::AddFOp::create(
        b, loc, m2Sum, arith::MulFOp::create(b, loc, deltaSquared, weight));
    auto emptyPartial =
        arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, nb, zero);
    auto emptyState =
        arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, s[2], zero);
    Value merged[] = {mean, m2, n}, partial[] = {mb, m2b, nb};
    SmallVector<Value> out;
    for (unsigned k = 0; k < 3; ++k) {
      Value v1 =
          arith::SelectOp::create(b, loc, emptyState, partial[k], merged[k]);
      out.push_back(arith::SelectOp::create(b, loc, emptyPartial, s[k], v1));
    }
    return out;
  }
  }
  llvm_unreachable("unknown reduction kind");
}

SmallVector<Value> Combiner::fromThreadShare(OpBuilder &b, Location loc,
                                             ValueRange state, Value tid,
                                             int64_t threads) const {
  SmallVector<Value> s(state);
  if (kind != ReductionKind::Argmax && kind != ReductionKind::Argmin)
    return s;
  // Position k of thread tid is element tid + k * threads. A thread with
  // no element keeps the initial extreme at position tid: past every real
  // element, so it never wins a tie.
  Value t = arith::IndexCastOp::create(b, loc, b.getI64Type(), tid);
  Value n = arith::ConstantIntOp::create(b, loc, threads, 64);
  Value scaled = arith::MulIOp::create(b, loc, s[1], n);
  s[1] = arith::AddIOp::create(b, loc, scaled, t);
  return s;
}

SmallVector<Value> Combiner::combinePartials(OpBuilder &b, Location loc,
                                             ValueRange x, ValueRange y) const {
  using K = ReductionKind;
  switch (kind) {
  case K::Welford:
  case K::WelfordCombine:
    return Combiner(K::WelfordCombine, t).step(b, loc, x, y);
  case K::Argmax:
  case K::Argmin:
    break;
  default:
    return step(b, loc, x, y);
  }
  bool isMax = kind == K::Argmax;
  Value earlier =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, y[1], x[1]);
  // y wins when it is strictly better, or as good and earlier.
  Value better, equal;
  if (isFloat()) {
    better = arith::CmpFOp::create(
        b, loc, isMax ? arith::CmpFPredicate::OGT : arith::CmpFPredicate::OLT,
        y[0], x[0]);
    equal =
        arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, y[0], x[0]);
  } else {
    better = arith::CmpIOp::create(
        b, loc, isMax ? arith::CmpIPredicate::sgt : arith::CmpIPredicate::slt,
        y[0], x[0]);
    equal = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, y[0], x[0]);
  }
  Value tie = arith::AndIOp::create(b, loc, equal, earlier);
  Value take = arith::OrIOp::create(b, loc, better, tie);
  if (isFloat()) {
    // NaNs come first: y wins when it is NaN and x is not, or is the
    // earlier NaN; the comparison above decides only between numbers.
    Value xNan =
        arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, x[0], x[0]);
    Value yNan =
        arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, y[0], y[0]);
    Value yes = arith::ConstantIntOp::create(b, loc, 1, 1);
    Value xNumber = arith::XOrIOp::create(b, loc, xNan, yes);
    Value nanFirst = arith::OrIOp::create(b, loc, xNumber, earlier);
    Value nanWins = arith::AndIOp::create(b, loc, yNan, nanFirst);
    Value anyNan = arith::OrIOp::create(b, loc, xNan, yNan);
    Value numbers = arith::XOrIOp::create(b, loc, anyNan, yes);
    Value numberWins = arith::AndIOp::create(b, loc, numbers, take);
    take = arith::OrIOp::create(b, loc, nanWins, numberWins);
  }
  Value value = arith::SelectOp::create(b, loc, take, y[0], x[0]);
  Value position = arith::SelectOp::create(b, loc, take, y[1], x[1]);
  return {value, position, x[2]};
}
