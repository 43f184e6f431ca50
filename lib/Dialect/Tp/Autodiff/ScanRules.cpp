//===- ScanRules.cpp - derivatives of the scans ---------------------------===//
//
// cumsum is linear: its VJP is the scan run the other way (eager's
// reversed_cumsum without the two flips), its JVP the scan of the tangent.
// cumprod's rules are cumsum/cumprod scans masked around the operand's
// first zero, exact with zeros.
// logcumsumexp follows eager's logcumsumexp_backward / _jvp, in scans and
// pointwise ops only, so that the derivatives are differentiable again.
// cummax/cummin select elements: the adjoint is added at the returned
// indices and the tangent gathered from them (eager's cummaxmin_backward).
//
//===----------------------------------------------------------------------===//

#include "RuleUtils.h"
#include "Stax/Dialect/Tp/IR/TypeInference.h"

#include <limits>

using namespace mlir;
using namespace mlir::tp;
using namespace mlir::tp::autodiff;

namespace {

Value cumsum(OpBuilder &b, Location loc, Value x, int64_t dim, bool reverse) {
  return CumsumOp::create(b, loc, x, b.getI64IntegerAttr(dim),
                          b.getBoolAttr(reverse));
}

Value cumprod(OpBuilder &b, Location loc, Value x, int64_t dim, bool reverse) {
  return CumprodOp::create(b, loc, x, b.getI64IntegerAttr(dim),
                           b.getBoolAttr(reverse));
}

/// Where the zeros of a cumprod's operand are, in the scan's order: no zero
/// up to and including a position (`none`), the first zero itself
/// (`first`), exactly one zero so far (`one`), and the operand with that
/// first zero replaced by 1 (`skipFirst`) and with every position from it
/// on replaced by 1 (`safe`, a divisor).
struct ZerosOfScan {
  ZerosOfScan(OpBuilder &b, Location loc, Value x, int64_t dim, bool reverse) {
    Value zero = EqScalarOp::create(b, loc, x, b.getI64IntegerAttr(0));
    Value counts = castTo(b, loc, zero, b.getI64Type());
    Value seen = cumsum(b, loc, counts, dim, reverse);
    none = EqScalarOp::create(b, loc, seen, b.getI64IntegerAttr(0));
    one = EqScalarOp::create(b, loc, seen, b.getI64IntegerAttr(1));
    first = LogicalAndOp::create(b, loc, zero, one);
    Value ones = full(b, loc, tensorType(x), 1.0);
    skipFirst = WhereOp::create(b, loc, first, ones, x);
    safe = WhereOp::create(b, loc, none, x, ones);
  }
  Value none, one, first, skipFirst, safe;
};

Value logcumsumexp(OpBuilder &b, Location loc, Value x, int64_t dim,
                   bool reverse) {
  return LogcumsumexpOp::create(b, loc, x, b.getI64IntegerAttr(dim),
                                b.getBoolAttr(reverse));
}

/// The cumprod VJP's values at the positions up to the first zero k of x
/// (in the scan's order), and zero after it. d y_j / d x_i is y_j / x_i
/// before k; at k it is the product of the other factors, cumprod of x
/// with x_k replaced by 1; so, with R the scan the other way,
///   VJP_i = R(g y)_i / x_i before k,  R(g cumprod(x'))_k at k,
/// with `others` = cumprod(x'). Built from scans and pointwise ops:
/// differentiable again.
Value cumprodVjpUpToFirstZero(OpBuilder &b, Location loc, Value y, Value others,
                              Value g, const ZerosOfScan &z, int64_t dim,
                              bool rev) {
  Value before = cumsum(b, loc, mul(b, loc, g, y), dim, !rev);
  before = div(b, loc, before, z.safe);
  Value at = cumsum(b, loc, mul(b, loc, g, others), dim, !rev);
  Value zero = zerosLike(b, loc, g);
  Value atFirst = WhereOp::create(b, loc, z.first, at, zero);
  return WhereOp::create(b, loc, z.none, before, atFirst);
}

/// The JVP of y = cumprod(x) with tangent t, exact in value: y_j scan(t /
/// x)_j before the first zero k, t_k cumprod(x')_j while k is the only zero
/// so far, 0 after a second one. Its derivatives in x lose the terms that
/// the zeros multiply; the CumprodOp rule uses it one level down.
Value cumprodJvpUpToSecondZero(OpBuilder &b, Location loc, Value x, Value y,
                               Value t, int64_t dim, bool rev) {
  ZerosOfScan z(b, loc, x, dim, rev);
  Value ratios = cumsum(b, loc, div(b, loc, t, z.safe), dim, rev);
  Value before = mul(b, loc, y, ratios);
  Value zero = zerosLike(b, loc, t);
  Value tFirst = WhereOp::create(b, loc, z.first, t, zero);
  Value tk = sumKeepDims(b, loc, tFirst, {dim});
  Value others = cumprod(b, loc, z.skipFirst, dim, rev);
  Value afterFirst =
      mul(b, loc, broadcastTo(b, loc, tk, tensorType(t).getShape()), others);
  Value single = WhereOp::create(b, loc, z.one, afterFirst, zero);
  return WhereOp::create(b, loc, z.none, before, single);
}

} // namespace

namespace mlir::tp::autodiff {

template <> struct Rule<CumsumOp> {
  static LogicalResult vjp(CumsumOp op, OpBuilder &b, ValueRange adjoints,
                           SmallVectorImpl<Value> &out) {
    Value g = isFloatTensor(op.getSelf()) ? adjoints[0] : Value();
    if (int64_t dim = normalizedDimOf(op); g && dim >= 0)
      g = cumsum(b, op.getLoc(), g, dim, !op.getReverse());
    out.push_back(g);
    return success();
  }
  static LogicalResult jvp(CumsumOp op, OpBuilder &b, ValueRange tangents,
                           SmallVectorImpl<Value> &out) {
    Value t = isFloatTensor(op.getSelf()) ? tangents[0] : Value();
    if (int64_t dim = normalizedDimOf(op); t && dim >= 0)
      t = cumsum(b, op.getLoc(), t, dim, op.getReverse());
    out.push_back(t);
    return success();
  }
};

/// y_j = prod_{i <= j} x_i (in the scan's order). Up to the first zero k of
/// x the VJP is cumprodVjpUpToFirstZero's. After k every term of
/// VJP_i = sum_{j >= i} g_j prod_{m <= j, m != i} x_m has the factor x_k, so
/// VJP_i = x_k S_i with S_i the same sum without it: the VJP of cumprod at
/// x' (x_k replaced by 1), whose values the same helper gives. Its value is
/// 0, but writing it as x_k S_i keeps its derivative in x_k (S_i), which a
/// second derivative reads; S_i's own derivatives are multiplied by x_k = 0.
/// Exact with any number of zeros, as eager's cumprod_backward.
template <> struct Rule<CumprodOp> {
  static LogicalResult vjp(CumprodOp op, OpBuilder &b, ValueRange adjoints,
                           SmallVectorImpl<Value> &out) {
    Value g = isFloatTensor(op.getSelf()) ? adjoints[0] : Value();
    int64_t dim = normalizedDimOf(op);
    if (!g || dim < 0) {
      out.push_back(g);
      return success();
    }
    Location loc = op.getLoc();
    bool rev = op.getReverse();
    Value x = op.getSelf();
    ZerosOfScan z(b, loc, x, dim, rev);
    // cumprod(x'), x' = x with its first zero replaced by 1.
    Value yShifted = cumprod(b, loc, z.skipFirst, dim, rev);
    Value upTo = cumprodVjpUpToFirstZero(b, loc, op.getResult(), yShifted, g, z,
                                         dim, rev);
    ZerosOfScan zs(b, loc, z.skipFirst, dim, rev);
    Value s = cumprodVjpUpToFirstZero(b, loc, yShifted,
                                      cumprod(b, loc, zs.skipFirst, dim, rev),
                                      g, zs, dim, rev);
    Value zero = zerosLike(b, loc, g);
    Value xk =
        sumKeepDims(b, loc, WhereOp::create(b, loc, z.first, x, zero), {dim});
    Value after =
        mul(b, loc, broadcastTo(b, loc, xk, tensorType(g).getShape()), s);
    Value beforeOrAt = LogicalOrOp::create(b, loc, z.none, z.first);
    out.push_back(WhereOp::create(b, loc, beforeOrAt, upTo, after));
    return success();
  }
  /// dy_j = sum_i t_i prod_{m <= j, m != i} x_m. Before the first zero k
  /// of x it is y_j scan(t / x)_j. From k on every term but i = k has the
  /// factor x_k: dy_j = t_k cumprod(x')_j + x_k J'_j, with x' = x with x_k
  /// replaced by 1 and J' the same sum over i != k, the JVP of cumprod at
  /// (x', t with t_k zeroed), which cumprodJvpUpToSecondZero gives. x_k J'
  /// is 0, but keeps the derivative in x_k that a JVP differentiated again
  /// reads (forward over forward, reverse over forward).
  static LogicalResult jvp(CumprodOp op, OpBuilder &b, ValueRange tangents,
                           SmallVectorImpl<Value> &out) {
    Value t = isFloatTensor(op.getSelf()) ? tangents[0] : Value();
    int64_t dim = normalizedDimOf(op);
    if (!t || dim < 0) {
      out.push_back(t);
      return success();
    }
    Location loc = op.getLoc();
    bool rev = op.getReverse();
    Value x = op.getSelf();
    ZerosOfScan z(b, loc, x, dim, rev);
    Value before = mul(b, loc, op.getResult(),
                       cumsum(b, loc, div(b, loc, t, z.safe), dim, rev));
    Value zero = zerosLike(b, loc, t);
    ArrayRef<int64_t> shape = tensorType(t).getShape();
    auto atFirst = [&](Value v) {
      Value sum =
          sumKeepDims(b, loc, WhereOp::create(b, loc, z.first, v, zero), {dim});
      return broadcastTo(b, loc, sum, shape);
    };
    Value others = cumprod(b, loc, z.skipFirst, dim, rev);
    Value tOthers = WhereOp::create(b, loc, z.first, zero, t);
    Value inner = cumprodJvpUpToSecondZero(b, loc, z.skipFirst, others, tOthers,
                                           dim, rev);
    Value after = add(b, loc, mul(b, loc, atFirst(t), others),
                      mul(b, loc, atFirst(x), inner));
    out.push_back(WhereOp::create(b, loc, z.none, before, after));
    return success();
  }
};

/// d y_i / d x_k = exp(x_k - y_i) for the k the scan combines into i. The
/// VJP sums g_i exp(x_k - y_i) over those i in log space, positive and
/// negative adjoints apart, so that nothing overflows:
///   exp(rscan(log g+ - y) + x) - exp(rscan(log g- - y) + x).
/// The JVP is scan(w t) / scan(w), w = exp(x - max x), zero where scan(w)
/// underflows (eager's 1e-13 cut).
template <> struct Rule<LogcumsumexpOp> {
  static LogicalResult vjp(LogcumsumexpOp op, OpBuilder &b, ValueRange adjoints,
                           SmallVectorImpl<Value> &out) {
    Value g = adjoints[0];
    int64_t dim = normalizedDimOf(op);
    if (!g || dim < 0) {
      out.push_back(g);
      return success();
    }
    Location loc = op.getLoc();
    Value x = op.getSelf(), y = op.getResult();
    RankedTensorType t = tensorType(y);
    double lowest = t.getElementType().isF64()
                        ? std::numeric_limits<double>::lowest()
                        : std::numeric_limits<float>::lowest();
    Value floor = full(b, loc, t, lowest);
    Value logAbs = LogOp::create(b, loc, AbsOp::create(b, loc, g));
    auto part = [&](Value selected) {
      Value logG = WhereOp::create(b, loc, selected, logAbs, floor);
      Value s = logcumsumexp(b, loc, sub(b, loc, logG, y), dim, !op.getReverse());
      return ExpOp::create(b, loc, add(b, loc, s, x));
    };
    Value positive = part(GtScalarOp::create(b, loc, g, f64Attr(b, 0.0)));
    Value negative = part(LtScalarOp::create(b, loc, g, f64Attr(b, 0.0)));
    out.push_back(sub(b, loc, positive, negative));
    return success();
  }
  static LogicalResult jvp(LogcumsumexpOp op, OpBuilder &b, ValueRange tangents,
                           SmallVectorImpl<Value> &out) {
    Value t = tangents[0];
    int64_t dim = normalizedDimOf(op);
    if (!t || dim < 0) {
      out.push_back(t);
      return success();
    }
    Location loc = op.getLoc();
    Value x = op.getSelf();
    Value m = AmaxOp::create(b, loc, x, b.getDenseI64ArrayAttr({dim}),
                             /*keepdim=*/true, TypeAttr());
    Value w = ExpOp::create(b, loc, sub(b, loc, x, m));
    Value total = cumsum(b, loc, w, dim, op.getReverse());
    Value weighted = cumsum(b, loc, mul(b, loc, w, t), dim, op.getReverse());
    // Divide by 1 where the total underflows, so that no NaN appears even
    // in the branch `where` discards (its derivative would carry it).
    Value tiny = LtScalarOp::create(b, loc, total, f64Attr(b, 1e-13));
    Value one = full(b, loc, tensorType(total), 1.0);
    Value safe = WhereOp::create(b, loc, tiny, one, total);
    // One op per statement: argument evaluation order differs between
    // compilers, and so would the op order.
    Value zero = zerosLike(b, loc, total);
    Value ratio = div(b, loc, weighted, safe);
    out.push_back(WhereOp::create(b, loc, tiny, zero, ratio));
    return success();
  }
};

/// cummax/cummin: a position may be taken at many steps, so the adjoint is
/// added there (eager's cummaxmin_backward).
template <> struct Rule<CummaxOp> : TakenAlongDimRule<CummaxOp, ScatterAddOp> {};
template <> struct Rule<CumminOp> : TakenAlongDimRule<CumminOp, ScatterAddOp> {};

} // namespace mlir::tp::autodiff

void autodiff::attachScanRules(MLIRContext *ctx) {
  attachRules<CumsumOp, CumprodOp, LogcumsumexpOp, CummaxOp, CumminOp>(ctx);
}
