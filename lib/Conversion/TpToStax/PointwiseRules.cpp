//===- PointwiseRules.cpp - unary, binary, selection, creation ------------===//
//
// Every rule goes through `pointwise`: broadcast the inputs to the output
// range, load each, compute, convert to the result type (Listing 6.1). The
// scalar computation is the sequence of roundings the reference kernel
// performs (lib/Interpreter/ElementwiseKernels.cpp): operands are converted
// to the op's computation type (f32 for half precision), each arith/math op
// rounds once, the result is converted on store. So a lowered body
// interprets bitwise like the tp op.
//
//===----------------------------------------------------------------------===//
#include "Lowering.h"
#include "Stax/Dialect/Tp/IR/TpOps.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"

using namespace mlir;
using namespace mlir::stax;
using namespace mlir::stax::lowering;
namespace tp = mlir::tp;

namespace {

using ScalarFn = std::function<Value(BodyBuilder &, ArrayRef<Value>)>;
using Result = RuleResult;

Type eltOf(const NodePtr &n) { return n->type.getElementType(); }

/// Listing 6.1: the node computing `fn` of the inputs, broadcast to `type`.
/// A ui8 result is wrapped to [0, 255] (a no-op when `fn` did): readers
/// fused with it compute on its value, not only its stored byte.
NodePtr pointwise(RankedTensorType type, SmallVector<NodePtr> inputs,
                  ScalarFn fn) {
  SmallVector<int64_t> shape(type.getShape());
  Type elt = type.getElementType();
  return std::make_shared<ComputedNode>(
      type, [=](BodyBuilder &bb, ArrayRef<AffineExpr> index) {
        SmallVector<Value> loaded;
        for (const NodePtr &in : inputs)
          loaded.push_back(
              in->load(bb, broadcastIndex(in->type.getShape(), shape, index)));
        Value v = fn(bb, loaded);
        return elt.isUnsignedInteger() ? bb.convert(v, elt) : v;
      });
}

Result one(NodePtr n) { return SmallVector<NodePtr>{std::move(n)}; }

/// A scalar attribute as the kernel sees it: rounded to `ct`, then to `act`.
Value scalarConstant(BodyBuilder &bb, TypedAttr s, Type ct, Type act) {
  if (isa<FloatType>(ct)) {
    double v = FloatAttr::get(ct, tp::getScalarAsDouble(s)).getValueAsDouble();
    return bb.constant(v, act);
  }
  // A bool is `value != 0` (-0.5 and 2 are true), not its low bit.
  if (ct.isInteger(1))
    return bb.constantInt(tp::getScalarAsDouble(s) != 0.0, ct);
  return bb.constantInt(tp::getScalarAsInt(s), ct);
}

/// `fn(x)` computed in f64 and rounded once to x's type: the kernels' `m.r(f(x))`
/// where f is not a single rounded primitive of x's type.
template <typename OpT>
Value inF64(BodyBuilder &bb, Value x, ValueRange extra = {}) {
  Type t = x.getType();
  Type f64 = bb.b.getF64Type();
  SmallVector<Value> operands{bb.convert(x, f64)};
  for (Value e : extra)
    operands.push_back(bb.convert(e, f64));
  Value r = OpT::create(bb.b, bb.loc, operands);
  return bb.convert(r, t);
}

//===----------------------------------------------------------------------===//
// FloatMath in IR
//===----------------------------------------------------------------------===//

Value fmax(BodyBuilder &bb, Value a, Value b, bool isMax) {
  // NaN-propagating, `a > b ? a : b` (eager's kernels, ElementwiseKernels.cpp).
  auto pred = isMax ? arith::CmpFPredicate::OGT : arith::CmpFPredicate::OLT;
  Value pick = arith::SelectOp::create(
      bb.b, bb.loc, arith::CmpFOp::create(bb.b, bb.loc, pred, a, b), a, b);
  Value unordered =
      arith::CmpFOp::create(bb.b, bb.loc, arith::CmpFPredicate::UNO, a, b);
  return arith::SelectOp::create(bb.b, bb.loc, unordered,
                                 bb.constant(NAN, a.getType()), pick);
}

/// Integer max/min. An i1 is 0 or -1 to the signed ops: bools (false <
/// true) compare unsigned.
Value imax(BodyBuilder &bb, Value a, Value b, bool isMax) {
  if (a.getType().isInteger(1))
    return isMax ? arith::MaxUIOp::create(bb.b, bb.loc, a, b).getResult()
                 : arith::MinUIOp::create(bb.b, bb.loc, a, b).getResult();
  return isMax ? arith::MaxSIOp::create(bb.b, bb.loc, a, b).getResult()
               : arith::MinSIOp::create(bb.b, bb.loc, a, b).getResult();
}

//===----------------------------------------------------------------------===//
// Unary
//===----------------------------------------------------------------------===//

using FloatUnary = std::function<Value(BodyBuilder &, Value)>;

/// The reference `unary`: floats computed in computeType(result), integers
/// in the result type (nullptr: no integer rule, the op stays).
RuleFn unary(FloatUnary f, FloatUnary i = nullptr) {
  return [=](RuleContext &ctx) -> Result {
    RankedTensorType rt = ctx.resultType();
    Type elt = rt.getElementType();
    if (!isa<FloatType>(elt) && !i)
      return failure();
    return one(pointwise(rt, {ctx.operands[0]}, [=](BodyBuilder &bb, ArrayRef<Value> in) {
      if (isa<FloatType>(elt)) {
        return bb.convert(f(bb, toComputeType(bb, in[0], elt)), elt);
      }
      return bb.convert(i(bb, bb.convert(in[0], elt)), elt);
    }));
  };
}

template <typename OpT> FloatUnary mathOp() {
  return [](BodyBuilder &bb, Value x) -> Value { return OpT::create(bb.b, bb.loc, x); };
}

FloatUnary identity() {
  return [](BodyBuilder &, Value x) { return x; };
}

FloatUnary signOf(bool isFloat) {
  return [=](BodyBuilder &bb, Value x) -> Value {
    Type t = x.getType();
    if (t.isInteger(1)) // the sign of a bool is itself
      return x;
    Value zero = bb.constant(0, t), one = bb.constant(1, t), minus = bb.constant(-1, t);
    Value gt, lt;
    if (isFloat) {
      gt = arith::CmpFOp::create(bb.b, bb.loc, arith::CmpFPredicate::OGT, x, zero);
      lt = arith::CmpFOp::create(bb.b, bb.loc, arith::CmpFPredicate::OLT, x, zero);
    } else {
      gt = arith::CmpIOp::create(bb.b, bb.loc, arith::CmpIPredicate::sgt, x, zero);
      lt = arith::CmpIOp::create(bb.b, bb.loc, arith::CmpIPredicate::slt, x, zero);
    }
    Value neg = arith::SelectOp::create(bb.b, bb.loc, lt, minus, zero);
    return arith::SelectOp::create(bb.b, bb.loc, gt, one, neg);
  };
}

void registerUnary(RuleTable &r) {
  r["tp.exp"] = unary(mathOp<math::ExpOp>());
  r["tp.exp2"] = unary(mathOp<math::Exp2Op>());
  r["tp.expm1"] = unary(mathOp<math::ExpM1Op>());
  r["tp.log"] = unary(mathOp<math::LogOp>());
  r["tp.log2"] = unary(mathOp<math::Log2Op>());
  r["tp.log10"] = unary(mathOp<math::Log10Op>());
  r["tp.log1p"] = unary(mathOp<math::Log1pOp>());
  r["tp.sqrt"] = unary(mathOp<math::SqrtOp>());
  r["tp.rsqrt"] = unary(mathOp<math::RsqrtOp>());
  r["tp.sin"] = unary(mathOp<math::SinOp>());
  r["tp.cos"] = unary(mathOp<math::CosOp>());
  r["tp.tan"] = unary(mathOp<math::TanOp>());
  r["tp.asin"] = unary(mathOp<math::AsinOp>());
  r["tp.acos"] = unary(mathOp<math::AcosOp>());
  r["tp.atan"] = unary(mathOp<math::AtanOp>());
  r["tp.sinh"] = unary(mathOp<math::SinhOp>());
  r["tp.cosh"] = unary(mathOp<math::CoshOp>());
  r["tp.tanh"] = unary(mathOp<math::TanhOp>());
  r["tp.erf"] = unary(mathOp<math::ErfOp>());
  r["tp.erfc"] = unary(mathOp<math::ErfcOp>());
  r["tp.floor"] = unary(mathOp<math::FloorOp>(), identity());
  r["tp.ceil"] = unary(mathOp<math::CeilOp>(), identity());
  r["tp.trunc"] = unary(mathOp<math::TruncOp>(), identity());
  r["tp.round"] = unary(mathOp<math::RoundEvenOp>(), identity());
  r["tp.reciprocal"] = unary([](BodyBuilder &bb, Value x) -> Value {
    return arith::DivFOp::create(bb.b, bb.loc, bb.constant(1.0, x.getType()), x);
  });
  r["tp.neg"] = unary(mathOp<arith::NegFOp>(), [](BodyBuilder &bb, Value x) -> Value {
    return arith::SubIOp::create(bb.b, bb.loc, bb.constantInt(0, x.getType()), x);
  });
  r["tp.abs"] = unary(mathOp<math::AbsFOp>(), mathOp<math::AbsIOp>());
  // relu is clamp_min(x, 0): NaN and -0.0 pass through.
  r["tp.relu"] = unary(
      [](BodyBuilder &bb, Value x) -> Value {
        Value zero = bb.constant(0, x.getType());
        Value neg = arith::CmpFOp::create(bb.b, bb.loc, arith::CmpFPredicate::OLT, x, zero);
        return arith::SelectOp::create(bb.b, bb.loc, neg, zero, x);
      },
      [](BodyBuilder &bb, Value x) -> Value {
        return imax(bb, x, bb.constantInt(0, x.getType()), true);
      });
  r["tp.sign"] = unary(signOf(true), signOf(false));
  r["tp.sgn"] = unary(signOf(true), signOf(false));
  for (StringRef name : {"tp.clone", "tp.alias", "tp.detach", "tp.lift_fresh_copy"})
    r[name] = [](RuleContext &ctx) -> Result { return one(ctx.operands[0]); };

  r["tp.logical_not"] = [](RuleContext &ctx) -> Result {
    RankedTensorType rt = ctx.resultType();
    return one(pointwise(rt, {ctx.operands[0]}, [=](BodyBuilder &bb, ArrayRef<Value> in) {
      Value b = bb.convert(in[0], bb.b.getI1Type());
      Value n = arith::XOrIOp::create(bb.b, bb.loc, b, bb.constantInt(1, b.getType()));
      return bb.convert(n, rt.getElementType());
    }));
  };
  r["tp.isnan"] = [](RuleContext &ctx) -> Result {
    RankedTensorType rt = ctx.resultType();
    return one(pointwise(rt, {ctx.operands[0]}, [=](BodyBuilder &bb, ArrayRef<Value> in) -> Value {
      if (!isa<FloatType>(in[0].getType()))
        return bb.constantInt(0, rt.getElementType());
      return arith::CmpFOp::create(bb.b, bb.loc, arith::CmpFPredicate::UNO, in[0], in[0]);
    }));
  };
  r["tp.signbit"] = [](RuleContext &ctx) -> Result {
    RankedTensorType rt = ctx.resultType();
    return one(pointwise(rt, {ctx.operands[0]}, [=](BodyBuilder &bb, ArrayRef<Value> in) -> Value {
      Value x = in[0];
      if (!isa<FloatType>(x.getType())) {
        if (x.getType().isInteger(1) || x.getType().isUnsignedInteger())
          return bb.constantInt(0, rt.getElementType());
        return arith::CmpIOp::create(bb.b, bb.loc, arith::CmpIPredicate::slt, x,
                                     bb.constantInt(0, x.getType()));
      }
      // copysign(1, x) carries x's sign bit, a NaN's included (widening
      // keeps it).
      x = bb.convert(x, computeType(x.getType()));
      Value one = bb.constant(1.0, x.getType());
      Value s = math::CopySignOp::create(bb.b, bb.loc, one, x);
      return arith::CmpFOp::create(bb.b, bb.loc, arith::CmpFPredicate::OLT, s,
                                   bb.constant(0.0, x.getType()));
    }));
  };
  r["tp.bitwise_not"] = [](RuleContext &ctx) -> Result {
    RankedTensorType rt = ctx.resultType();
    if (isa<FloatType>(rt.getElementType()))
      return failure();
    return one(pointwise(rt, {ctx.operands[0]}, [=](BodyBuilder &bb, ArrayRef<Value> in) -> Value {
      Value x = bb.convert(in[0], rt.getElementType());
      // On bool, ~ is logical not; on integers, two's complement.
      Value n = arith::XOrIOp::create(bb.b, bb.loc, x,
                                      bb.constantInt(-1, x.getType()));
      return bb.convert(n, rt.getElementType());
    }));
  };
  r["tp._to_copy"] = [](RuleContext &ctx) -> Result {
    RankedTensorType rt = ctx.resultType();
    return one(pointwise(rt, {ctx.operands[0]}, [=](BodyBuilder &bb, ArrayRef<Value> in) {
      return bb.convert(in[0], rt.getElementType());
    }));
  };
  r["tp.clamp"] = [](RuleContext &ctx) -> Result {
    auto op = cast<tp::ClampOp>(ctx.op);
    TypedAttr lo = op.getMinAttr();
    TypedAttr hi = op.getMaxAttr();
    auto f = [=](BodyBuilder &bb, Value x) {
      Type t = x.getType();
      bool isFloat = isa<FloatType>(t);
      // Integer bounds as integers: an int64 bound past 2^53 is exact.
      auto c = [&](TypedAttr v) {
        return isFloat ? bb.constant(tp::getScalarAsDouble(v), t)
                       : bb.constantInt(tp::getScalarAsInt(v), t);
      };
      // The bound first: a tie keeps x (-0 clamped to min 0 stays -0), as
      // in eager's kernel and the interpreter.
      if (lo)
        x = isFloat ? fmax(bb, c(lo), x, true) : imax(bb, x, c(lo), true);
      if (hi)
        x = isFloat ? fmax(bb, c(hi), x, false) : imax(bb, x, c(hi), false);
      return x;
    };
    return unary(f, f)(ctx);
  };
}

//===----------------------------------------------------------------------===//
// Binary (tensor-tensor and tensor-scalar)
//===----------------------------------------------------------------------===//

/// (float, integer) computations on operands already in the computation
/// type; nullptr when the op has no rule for that kind.
struct BinaryFns {
  std::function<Value(BodyBuilder &, Value, Value)> f, i;
};

/// The computation type of a binary op: the result's element type
/// (`computeInResult`), or the common type of the operands, their shapes
/// included: a 0-d operand of the same category does not widen the other
/// (int8 < an int64 0-d tensor compares in int8, its value wrapped, as
/// eager).
Type commonTypeOf(RankedTensorType a, RankedTensorType b) {
  SmallVector<Type> t;
  if (failed(tp::inferBinary(std::nullopt, "", a, b, tp::Promotion::Default, t)))
    return a.getElementType();
  return cast<RankedTensorType>(t[0]).getElementType();
}
Type commonTypeWithScalar(Type a, TypedAttr s) {
  SmallVector<Type> t;
  auto ta = RankedTensorType::get({}, a);
  if (failed(tp::inferBinaryScalar(std::nullopt, "", ta, s, tp::Promotion::Default, t)))
    return a;
  return cast<RankedTensorType>(t[0]).getElementType();
}

/// The reference `binary` in computation type `ct`; `scalar` replaces the
/// second operand when set; `reversed` swaps the operands (rsub).
NodePtr binaryNode(RankedTensorType rt, SmallVector<NodePtr> inputs, Type ct,
                   BinaryFns fns, TypedAttr scalar = {}, bool reversed = false) {
  Type elt = rt.getElementType();
  bool isFloat = isa<FloatType>(ct);
  Type act = isFloat ? computeType(ct) : ct;
  return pointwise(rt, inputs, [=](BodyBuilder &bb, ArrayRef<Value> in) {
    Value a = toComputeType(bb, in[0], ct);
    Value b = scalar ? scalarConstant(bb, scalar, ct, act)
                     : toComputeType(bb, in[1], ct);
    if (reversed)
      std::swap(a, b);
    Value v = isFloat ? fns.f(bb, a, b) : fns.i(bb, a, b);
    return bb.convert(v, elt);
  });
}

RuleFn tensorBinary(BinaryFns fns, bool computeInResult) {
  return [=](RuleContext &ctx) -> Result {
    RankedTensorType rt = ctx.resultType();
    Type ct = computeInResult ? rt.getElementType()
                              : commonTypeOf(ctx.operands[0]->type, ctx.operands[1]->type);
    if (!(isa<FloatType>(ct) ? fns.f : fns.i))
      return failure();
    return one(binaryNode(rt, ctx.operands, ct, fns));
  };
}

RuleFn scalarBinary(BinaryFns fns, bool computeInResult) {
  return [=](RuleContext &ctx) -> Result {
    RankedTensorType rt = ctx.resultType();
    auto other = ctx.op->getAttrOfType<TypedAttr>("other");
    Type ct = computeInResult ? rt.getElementType()
                              : commonTypeWithScalar(eltOf(ctx.operands[0]), other);
    if (!(isa<FloatType>(ct) ? fns.f : fns.i))
      return failure();
    return one(binaryNode(rt, ctx.operands, ct, fns, other));
  };
}

template <typename OpT> std::function<Value(BodyBuilder &, Value, Value)> arithOp() {
  return [](BodyBuilder &bb, Value a, Value b) -> Value {
    return OpT::create(bb.b, bb.loc, a, b);
  };
}

/// a + alpha * b (or a - alpha * b) for element type `elt`, as eager's add
/// kernel (the interpreter's addLike): alpha = 1 multiplies nothing;
/// otherwise fma(b, alpha, a) rounded once, alpha in the element type
/// (bfloat16: an fma in float); float16 rounds the product to half first.
/// Subtraction adds -alpha.
BinaryFns addLike(TypedAttr alphaAttr, bool subtract, Type elt) {
  double alpha = tp::getScalarAsDouble(alphaAttr);
  int64_t ia = tp::getScalarAsInt(alphaAttr);
  return {[=](BodyBuilder &bb, Value a, Value b) -> Value {
            if (alpha == 1.0)
              return subtract
                         ? arith::SubFOp::create(bb.b, bb.loc, a, b).getResult()
                         : arith::AddFOp::create(bb.b, bb.loc, a, b).getResult();
            Type ct = b.getType();
            bool reduced = elt.isF16() || elt.isBF16();
            // The constant rounds to the element type, then widens exactly.
            Value s = bb.constant(subtract ? -alpha : alpha, reduced ? elt : ct);
            s = bb.convert(s, ct);
            if (elt.isF16()) {
              Value p = arith::MulFOp::create(bb.b, bb.loc, s, b);
              p = bb.convert(bb.convert(p, elt), ct);
              return arith::AddFOp::create(bb.b, bb.loc, a, p).getResult();
            }
            return math::FmaOp::create(bb.b, bb.loc, s, b, a).getResult();
          },
          [=](BodyBuilder &bb, Value a, Value b) -> Value {
            // Bools add as integers, then `!= 0` on store (True + True is
            // True): in i64, not in i1, where addi is xor.
            if (a.getType().isInteger(1)) {
              a = bb.convert(a, bb.b.getI64Type());
              b = bb.convert(b, bb.b.getI64Type());
            }
            Value scaled = b;
            if (ia != 1)
              scaled = arith::MulIOp::create(bb.b, bb.loc, bb.constantInt(ia, b.getType()), b);
            return subtract ? arith::SubIOp::create(bb.b, bb.loc, a, scaled).getResult()
                            : arith::AddIOp::create(bb.b, bb.loc, a, scaled).getResult();
          }};
}

/// Integer division rounding toward zero, or down (the truncated quotient
/// stepped down where the remainder's sign differs from the divisor's). A
/// zero divisor is a run-time error of the compiled code, and INT_MIN / -1
/// wraps: --stax-to-loops checks the divisor of every integer division
/// (docs/Codegen.md).
Value integerDivide(BodyBuilder &bb, Value a, Value b, bool floor) {
  Value q = arith::DivSIOp::create(bb.b, bb.loc, a, b);
  if (!floor)
    return q;
  Type t = a.getType();
  Value zero = bb.constantInt(0, t);
  Value r = arith::RemSIOp::create(bb.b, bb.loc, a, b);
  Value rNeg =
      arith::CmpIOp::create(bb.b, bb.loc, arith::CmpIPredicate::slt, r, zero);
  Value bNeg =
      arith::CmpIOp::create(bb.b, bb.loc, arith::CmpIPredicate::slt, b, zero);
  Value nonzero =
      arith::CmpIOp::create(bb.b, bb.loc, arith::CmpIPredicate::ne, r, zero);
  Value differ = arith::XOrIOp::create(bb.b, bb.loc, rNeg, bNeg);
  Value fix = arith::AndIOp::create(bb.b, bb.loc, nonzero, differ);
  Value down = arith::SubIOp::create(bb.b, bb.loc, q, bb.constantInt(1, t));
  return arith::SelectOp::create(bb.b, bb.loc, fix, down, q);
}

/// Eager's floating floor division (c10::div_floor_floating, the
/// interpreter's floorDivide) in the computation type: the rounded quotient
/// of a - fmod(a, b), stepped down where the remainder's sign differs from
/// b's, floored, and raised by one where that floor is more than a half
/// below; a zero quotient takes the sign of a / b, a zero divisor gives
/// a / b. The floor is rounded to the element type `elt` (the f16 kernel's
/// Half-typed variable), and for bf16 every step is (the bf16 kernel
/// computes in BFloat16 throughout).
Value floorDivide(BodyBuilder &bb, Value a, Value b, Type elt) {
  using P = arith::CmpFPredicate;
  OpBuilder &o = bb.b;
  Location loc = bb.loc;
  Type t = a.getType();
  auto cmp = [&](P p, Value x, Value y) {
    return arith::CmpFOp::create(o, loc, p, x, y).getResult();
  };
  auto inElt = [&](Value x) { return bb.convert(bb.convert(x, elt), t); };
  auto step = [&](Value x) { return elt.isBF16() ? inElt(x) : x; };
  Value zero = bb.constant(0, t), one = bb.constant(1, t);
  Value quotient = arith::DivFOp::create(o, loc, a, b);
  Value mod = arith::RemFOp::create(o, loc, a, b);
  Value div = step(arith::DivFOp::create(
      o, loc, step(arith::SubFOp::create(o, loc, a, mod)), b));
  Value signsDiffer = arith::XOrIOp::create(o, loc, cmp(P::OLT, b, zero),
                                            cmp(P::OLT, mod, zero));
  Value stepDown =
      arith::AndIOp::create(o, loc, cmp(P::UNE, mod, zero), signsDiffer);
  div = arith::SelectOp::create(
      o, loc, stepDown, step(arith::SubFOp::create(o, loc, div, one)), div);
  Value floored = inElt(math::FloorOp::create(o, loc, div));
  Value gap = step(arith::SubFOp::create(o, loc, div, floored));
  floored = arith::SelectOp::create(
      o, loc, cmp(P::OGT, gap, bb.constant(0.5, t)),
      inElt(arith::AddFOp::create(o, loc, floored, one)), floored);
  Value signedZero = math::CopySignOp::create(o, loc, zero, quotient);
  Value v = arith::SelectOp::create(o, loc, cmp(P::OEQ, div, zero),
                                    signedZero, floored);
  return arith::SelectOp::create(o, loc, cmp(P::OEQ, b, zero), quotient, v);
}

/// True division, or floor/trunc division as eager's kernels compute it;
/// `elt`: the result's element type (f16/bf16 kernels round the quotient
/// to it before truncating).
BinaryFns divide(std::optional<tp::RoundingMode> mode, Type elt) {
  if (!mode)
    return {arithOp<arith::DivFOp>(), nullptr};
  bool floor = *mode == tp::RoundingMode::Floor;
  return {[=](BodyBuilder &bb, Value a, Value b) -> Value {
            if (floor)
              return floorDivide(bb, a, b, elt);
            // Truncation rounds the quotient first (eager's trunc(a / b)):
            // 35 / 0.001f rounds to 35000.
            Value q = arith::DivFOp::create(bb.b, bb.loc, a, b);
            q = bb.convert(bb.convert(q, elt), a.getType());
            return math::TruncOp::create(bb.b, bb.loc, q).getResult();
          },
          [=](BodyBuilder &bb, Value a, Value b) {
            return integerDivide(bb, a, b, floor);
          }};
}

/// Integer division (truncating or flooring) by the nonzero constant `c`,
/// as the kernel divides: -1 negates with wrap-around (INT_MIN / -1 would
/// trap), a floor steps the truncated quotient down where the remainder's
/// sign differs from c's.
std::function<Value(BodyBuilder &, Value, Value)> divideByConstant(bool floor,
                                                                   int64_t c) {
  return [=](BodyBuilder &bb, Value a, Value b) -> Value {
    Type t = a.getType();
    if (c == -1)
      return arith::SubIOp::create(bb.b, bb.loc, bb.constantInt(0, t), a);
    Value q = arith::DivSIOp::create(bb.b, bb.loc, a, b);
    if (!floor)
      return q;
    Value r = arith::RemSIOp::create(bb.b, bb.loc, a, b);
    Value zero = bb.constantInt(0, t);
    auto pred = c < 0 ? arith::CmpIPredicate::sgt : arith::CmpIPredicate::slt;
    Value differ = arith::CmpIOp::create(bb.b, bb.loc, pred, r, zero);
    Value down = arith::SubIOp::create(bb.b, bb.loc, q, bb.constantInt(1, t));
    return arith::SelectOp::create(bb.b, bb.loc, differ, down, q);
  };
}

/// Python's remainder: the sign of the divisor. Floats: fmod, then `+ b`
/// where the signs differ, in f64 and rounded once (the kernel's
/// m.r(floatRemainder(a, b))). Integers: remsi, then `+ b` likewise.
BinaryFns pythonRemainder() {
  return {[](BodyBuilder &bb, Value a, Value b) -> Value {
            Type t = a.getType(), f64 = bb.b.getF64Type();
            Value x = bb.convert(a, f64), y = bb.convert(b, f64);
            Value r = arith::RemFOp::create(bb.b, bb.loc, x, y);
            Value zero = bb.constant(0, f64);
            Value rNeg = arith::CmpFOp::create(bb.b, bb.loc, arith::CmpFPredicate::OLT, r, zero);
            Value yNeg = arith::CmpFOp::create(bb.b, bb.loc, arith::CmpFPredicate::OLT, y, zero);
            Value nonzero = arith::CmpFOp::create(bb.b, bb.loc, arith::CmpFPredicate::UNE, r, zero);
            Value differ = arith::XOrIOp::create(bb.b, bb.loc, rNeg, yNeg);
            Value fix = arith::AndIOp::create(bb.b, bb.loc, nonzero, differ);
            Value adjusted = arith::AddFOp::create(bb.b, bb.loc, r, y);
            Value v = arith::SelectOp::create(bb.b, bb.loc, fix, adjusted, r);
            return bb.convert(v, t);
          },
          [](BodyBuilder &bb, Value a, Value b) -> Value {
            Value zero = bb.constantInt(0, a.getType());
            Value r = arith::RemSIOp::create(bb.b, bb.loc, a, b);
            Value rNeg = arith::CmpIOp::create(bb.b, bb.loc, arith::CmpIPredicate::slt, r, zero);
            Value bNeg = arith::CmpIOp::create(bb.b, bb.loc, arith::CmpIPredicate::slt, b, zero);
            Value nonzero = arith::CmpIOp::create(bb.b, bb.loc, arith::CmpIPredicate::ne, r, zero);
            Value differ = arith::XOrIOp::create(bb.b, bb.loc, rNeg, bNeg);
            Value fix = arith::AndIOp::create(bb.b, bb.loc, nonzero, differ);
            Value adjusted = arith::AddIOp::create(bb.b, bb.loc, r, b);
            return arith::SelectOp::create(bb.b, bb.loc, fix, adjusted, r);
          }};
}

/// The unsigned twin of a signed predicate.
arith::CmpIPredicate unsignedPredicate(arith::CmpIPredicate p) {
  using P = arith::CmpIPredicate;
  switch (p) {
  case P::slt: return P::ult;
  case P::sle: return P::ule;
  case P::sgt: return P::ugt;
  case P::sge: return P::uge;
  default: return p;
  }
}

BinaryFns compare(arith::CmpFPredicate fp, arith::CmpIPredicate ip) {
  return {[=](BodyBuilder &bb, Value a, Value b) -> Value {
            return arith::CmpFOp::create(bb.b, bb.loc, fp, a, b);
          },
          [=](BodyBuilder &bb, Value a, Value b) -> Value {
            // An i1 is 0 or -1 to the signed predicates: bools compare
            // unsigned (false < true).
            arith::CmpIPredicate p =
                a.getType().isInteger(1) ? unsignedPredicate(ip) : ip;
            return arith::CmpIOp::create(bb.b, bb.loc, p, a, b);
          }};
}

template <typename OpT> BinaryFns truth() {
  auto f = [](BodyBuilder &bb, Value a, Value b) -> Value {
    Type i1 = bb.b.getI1Type();
    Value a1 = bb.convert(a, i1);
    Value b1 = bb.convert(b, i1);
    return OpT::create(bb.b, bb.loc, a1, b1);
  };
  return {f, f};
}

/// x ** e for a constant exponent, with the kernel's special cases.
Value powConstant(BodyBuilder &bb, Value x, double e, bool roots) {
  Type t = x.getType();
  auto mul = [&](Value a, Value b) -> Value { return arith::MulFOp::create(bb.b, bb.loc, a, b); };
  auto div = [&](Value a, Value b) -> Value { return arith::DivFOp::create(bb.b, bb.loc, a, b); };
  if (e == 2)
    return mul(x, x);
  if (e == 3)
    return mul(mul(x, x), x);
  if (e == 0.5 && roots)
    return math::SqrtOp::create(bb.b, bb.loc, x);
  if (e == -0.5 && roots)
    return math::RsqrtOp::create(bb.b, bb.loc, x);
  if (e == -1)
    return div(bb.constant(1.0, t), x);
  if (e == -2) {
    Value one = bb.constant(1.0, t);
    Value square = mul(x, x);
    return div(one, square);
  }
  Type f64 = bb.b.getF64Type();
  Value x64 = bb.convert(x, f64);
  Value e64 = bb.constant(e, f64);
  Value p = math::PowFOp::create(bb.b, bb.loc, x64, e64);
  return bb.convert(p, t);
}

/// x ** e for a tensor exponent: pow for every element, as eager's
/// tensor-tensor kernel (no special exponents; those are tensor-scalar's).
Value powTensor(BodyBuilder &bb, Value x, Value e) {
  Type t = x.getType(), f64 = bb.b.getF64Type();
  Value x64 = bb.convert(x, f64);
  Value e64 = bb.convert(e, f64);
  Value p = math::PowFOp::create(bb.b, bb.loc, x64, e64);
  return bb.convert(p, t);
}

/// b ** e on integers of b's type, as the interpreter's powi: the product
/// of b^(2^k) over the set bits k of a non-negative e (wrapping products,
/// in any order the same); a negative e gives 1 for b = 1, +-1 for b = -1
/// and 0 otherwise. Straight-line code over every bit of the type, so it
/// vectorizes.
Value powInteger(BodyBuilder &bb, Value b, Value e) {
  Type t = b.getType();
  unsigned width = t.getIntOrFloatBitWidth();
  using IP = arith::CmpIPredicate;
  auto cmp = [&](IP p, Value x, Value y) -> Value {
    return arith::CmpIOp::create(bb.b, bb.loc, p, x, y);
  };
  auto select = [&](Value c, Value x, Value y) -> Value {
    return arith::SelectOp::create(bb.b, bb.loc, c, x, y);
  };
  auto mul = [&](Value x, Value y) -> Value {
    return arith::MulIOp::create(bb.b, bb.loc, x, y);
  };
  Value zero = bb.constantInt(0, t);
  Value one = bb.constantInt(1, t);
  Value result = one, power = b;
  for (unsigned k = 0; k + 1 < width; ++k) {
    Value mask = bb.constantInt(int64_t(1) << k, t);
    Value bit = arith::AndIOp::create(bb.b, bb.loc, e, mask);
    Value set = cmp(IP::ne, bit, zero);
    Value product = mul(result, power);
    result = select(set, product, result);
    if (k + 2 < width)
      power = mul(power, power);
  }
  Value minusOne = bb.constantInt(-1, t);
  Value isOne = cmp(IP::eq, b, one);
  Value isMinusOne = cmp(IP::eq, b, minusOne);
  Value oddBit = arith::AndIOp::create(bb.b, bb.loc, e, one);
  Value odd = cmp(IP::ne, oddBit, zero);
  Value sign = select(odd, minusOne, one);
  Value unit = select(isMinusOne, sign, zero);
  Value negative = select(isOne, one, unit);
  Value isNegative = cmp(IP::slt, e, zero);
  return select(isNegative, negative, result);
}

void registerBinary(RuleTable &r) {
  r["tp.add"] = [](RuleContext &ctx) -> Result {
    auto op = cast<tp::AddOp>(ctx.op);
    return tensorBinary(addLike(op.getAlpha(), false,
                                ctx.resultType().getElementType()),
                        true)(ctx);
  };
  r["tp.sub"] = [](RuleContext &ctx) -> Result {
    auto op = cast<tp::SubOp>(ctx.op);
    return tensorBinary(addLike(op.getAlpha(), true,
                                ctx.resultType().getElementType()),
                        true)(ctx);
  };
  r["tp.mul"] = tensorBinary({arithOp<arith::MulFOp>(), arithOp<arith::MulIOp>()}, true);
  r["tp.div"] = [](RuleContext &ctx) -> Result {
    return tensorBinary(divide(cast<tp::DivOp>(ctx.op).getRoundingMode(),
                               ctx.resultType().getElementType()),
                        true)(ctx);
  };
  r["tp.maximum"] = tensorBinary(
      {[](BodyBuilder &bb, Value a, Value b) { return fmax(bb, a, b, true); },
       [](BodyBuilder &bb, Value a, Value b) { return imax(bb, a, b, true); }},
      true);
  r["tp.minimum"] = tensorBinary(
      {[](BodyBuilder &bb, Value a, Value b) { return fmax(bb, a, b, false); },
       [](BodyBuilder &bb, Value a, Value b) { return imax(bb, a, b, false); }},
      true);
  // Integer fmod: C's remainder (the dividend's sign); a zero divisor is
  // checked by --stax-to-loops, as for every integer division.
  r["tp.fmod"] =
      tensorBinary({arithOp<arith::RemFOp>(), arithOp<arith::RemSIOp>()}, true);
  r["tp.pow"] = [](RuleContext &ctx) -> Result {
    if (ctx.resultType().getElementType().isInteger(1))
      return failure();
    return tensorBinary({powTensor, powInteger}, true)(ctx);
  };
  r["tp.atan2"] = tensorBinary({arithOp<math::Atan2Op>(), nullptr}, true);
  r["tp.bitwise_and"] = tensorBinary({nullptr, arithOp<arith::AndIOp>()}, true);
  r["tp.bitwise_or"] = tensorBinary({nullptr, arithOp<arith::OrIOp>()}, true);
  r["tp.bitwise_xor"] = tensorBinary({nullptr, arithOp<arith::XOrIOp>()}, true);
  r["tp.logical_and"] = tensorBinary(truth<arith::AndIOp>(), false);
  r["tp.logical_or"] = tensorBinary(truth<arith::OrIOp>(), false);
  r["tp.logical_xor"] = tensorBinary(truth<arith::XOrIOp>(), false);
  using FP = arith::CmpFPredicate;
  using IP = arith::CmpIPredicate;
  const std::pair<StringRef, BinaryFns> comparisons[] = {
      {"eq", compare(FP::OEQ, IP::eq)}, {"ne", compare(FP::UNE, IP::ne)},
      {"lt", compare(FP::OLT, IP::slt)}, {"le", compare(FP::OLE, IP::sle)},
      {"gt", compare(FP::OGT, IP::sgt)}, {"ge", compare(FP::OGE, IP::sge)}};
  for (const auto &[name, fns] : comparisons) {
    r[("tp." + name).str()] = tensorBinary(fns, false);
    r[("tp." + name + ".Scalar").str()] = scalarBinary(fns, false);
  }

  auto addScalarLike = [](bool subtract, bool reversed) -> RuleFn {
    return [=](RuleContext &ctx) -> Result {
      RankedTensorType rt = ctx.resultType();
      auto other = ctx.op->getAttrOfType<TypedAttr>("other");
      auto alpha = ctx.op->getAttrOfType<TypedAttr>("alpha");
      return one(binaryNode(rt, ctx.operands, rt.getElementType(),
                            addLike(alpha, subtract, rt.getElementType()),
                            other, reversed));
    };
  };
  r["tp.add.Scalar"] = addScalarLike(false, false);
  r["tp.sub.Scalar"] = addScalarLike(true, false);
  r["tp.rsub.Scalar"] = addScalarLike(true, true);
  r["tp.mul.Scalar"] = scalarBinary({arithOp<arith::MulFOp>(), arithOp<arith::MulIOp>()}, true);
  r["tp.div.Scalar"] = [](RuleContext &ctx) -> Result {
    auto op = cast<tp::DivScalarOp>(ctx.op);
    BinaryFns fns = divide(op.getRoundingMode(), ctx.resultType().getElementType());
    // Dividing by a nonzero integer constant cannot fail: it lowers (ui8
    // stays, as its scalar is stored wider than its type).
    auto elt = dyn_cast<IntegerType>(ctx.resultType().getElementType());
    int64_t divisor =
        isa<IntegerAttr>(op.getOther()) ? tp::getScalarAsInt(op.getOther()) : 0;
    if (op.getRoundingMode() && elt && elt.isSignless() && elt.getWidth() > 1 &&
        divisor != 0)
      fns.i = divideByConstant(*op.getRoundingMode() == tp::RoundingMode::Floor,
                               divisor);
    return scalarBinary(fns, true)(ctx);
  };
  r["tp.fmod.Scalar"] = [](RuleContext &ctx) -> Result {
    // Integers: C's remainder. A ui8 divisor is the scalar modulo 256, as
    // eager converts it (and constantInt stores it); ui8 values are
    // non-negative, so the signed remainder is theirs. A zero divisor is
    // checked by --stax-to-loops, as for tensor divisors.
    auto elt = dyn_cast<IntegerType>(ctx.resultType().getElementType());
    bool integer = elt && elt.getWidth() > 1;
    return scalarBinary({arithOp<arith::RemFOp>(),
                         integer ? arithOp<arith::RemSIOp>() : nullptr},
                        true)(ctx);
  };
  // Integer remainders by zero (a constant or a tensor element) are
  // checked by --stax-to-loops: the run-time error eager raises.
  r["tp.remainder.Scalar"] = scalarBinary(pythonRemainder(), true);
  r["tp.remainder"] = tensorBinary(pythonRemainder(), true);
  r["tp.pow.Tensor_Scalar"] = [](RuleContext &ctx) -> Result {
    RankedTensorType rt = ctx.resultType();
    Type elt = rt.getElementType();
    auto other = ctx.op->getAttrOfType<TypedAttr>("other");
    if (!isa<FloatType>(elt)) {
      // A negative integer exponent is an error of the op (it stays).
      if (elt.isInteger(1) || tp::getScalarAsDouble(other) < 0)
        return failure();
      return scalarBinary({nullptr, powInteger}, true)(ctx);
    }
    // The exponent is `m.r(e)` in the computation type, as any scalar.
    Type act = computeType(elt);
    double e = FloatAttr::get(elt, tp::getScalarAsDouble(other)).getValueAsDouble();
    e = FloatAttr::get(act, e).getValueAsDouble();
    return one(pointwise(
        rt, {ctx.operands[0]}, [=](BodyBuilder &bb, ArrayRef<Value> in) {
          // Eager's float16 kernel has no sqrt/rsqrt special cases.
          return bb.convert(powConstant(bb, toComputeType(bb, in[0], elt), e,
                                        /*roots=*/!elt.isF16()),
                            elt);
        }));
  };
}

//===----------------------------------------------------------------------===//
// Special functions
//===----------------------------------------------------------------------===//

using SpecialKind = SpecialFunctionKind;

/// `stax.special_function kind(operands) : result` (the kernels of
/// SpecialKernels.cpp compute the same scalar function).
Value specialFunction(BodyBuilder &bb, SpecialKind kind, ValueRange operands,
                      Type result, std::optional<int64_t> n = std::nullopt) {
  IntegerAttr order = n ? bb.b.getI64IntegerAttr(*n) : IntegerAttr();
  auto kindAttr = SpecialFunctionKindAttr::get(bb.b.getContext(), kind);
  return SpecialFunctionOp::create(bb.b, bb.loc, result, kindAttr, operands,
                                   order);
}

FloatUnary special(SpecialKind kind, std::optional<int64_t> n = std::nullopt) {
  return [=](BodyBuilder &bb, Value x) {
    return specialFunction(bb, kind, x, x.getType(), n);
  };
}

/// The special functions: computed in computeType (f32 for half precision,
/// as their kernels), except nextafter, whose step is the result type's
/// (lowered for f32 and f64 only: the runtime has no half entry point),
/// and frexp, exact in any wider type.
void registerSpecial(RuleTable &r) {
  r["tp.lgamma"] = unary(special(SpecialKind::Lgamma));
  r["tp.digamma"] = unary(special(SpecialKind::Digamma));
  r["tp.erfinv"] = unary(special(SpecialKind::Erfinv));
  r["tp.special_ndtri"] = unary(special(SpecialKind::Ndtri));
  r["tp.special_erfcx"] = unary(special(SpecialKind::Erfcx));
  r["tp.polygamma"] = [](RuleContext &ctx) -> Result {
    auto n = static_cast<int64_t>(cast<tp::PolygammaOp>(ctx.op).getN());
    return unary(special(SpecialKind::Polygamma, n))(ctx);
  };
  r["tp.nextafter"] = [](RuleContext &ctx) -> Result {
    Type elt = ctx.resultType().getElementType();
    if (!elt.isF32() && !elt.isF64())
      return failure();
    BinaryFns fns{[](BodyBuilder &bb, Value a, Value b) {
                    return specialFunction(bb, SpecialKind::Nextafter, {a, b},
                                           a.getType());
                  },
                  nullptr};
    return one(binaryNode(ctx.resultType(), ctx.operands, elt, fns));
  };
  r["tp.frexp"] = [](RuleContext &ctx) -> Result {
    auto op = cast<tp::FrexpOp>(ctx.op);
    NodePtr x = ctx.operands[0];
    auto part = [&](Value result, SpecialKind kind) {
      auto rt = cast<RankedTensorType>(result.getType());
      Type ct = computeType(op.getSelf().getType().getElementType());
      return pointwise(rt, {x}, [=](BodyBuilder &bb, ArrayRef<Value> in) {
        Value v = bb.convert(in[0], ct);
        Type t = kind == SpecialKind::FrexpExponent ? bb.b.getI32Type() : ct;
        return bb.convert(specialFunction(bb, kind, v, t), rt.getElementType());
      });
    };
    return SmallVector<NodePtr>{part(op.getMantissa(), SpecialKind::FrexpMantissa),
                                part(op.getExponent(), SpecialKind::FrexpExponent)};
  };
}

//===----------------------------------------------------------------------===//
// Selection and creation
//===----------------------------------------------------------------------===//

void registerSelection(RuleTable &r) {
  r["tp.where"] = [](RuleContext &ctx) -> Result {
    RankedTensorType rt = ctx.resultType();
    Type elt = rt.getElementType();
    return one(pointwise(rt, ctx.operands, [=](BodyBuilder &bb, ArrayRef<Value> in) -> Value {
      Value c = bb.convert(in[0], bb.b.getI1Type());
      Value x = bb.convert(in[1], elt);
      Value y = bb.convert(in[2], elt);
      return arith::SelectOp::create(bb.b, bb.loc, c, x, y);
    }));
  };
  r["tp.masked_fill.Scalar"] = [](RuleContext &ctx) -> Result {
    RankedTensorType rt = ctx.resultType();
    Type elt = rt.getElementType();
    auto value = cast<tp::MaskedFillScalarOp>(ctx.op).getValue();
    return one(pointwise(rt, ctx.operands, [=](BodyBuilder &bb, ArrayRef<Value> in) -> Value {
      Value fill = scalarConstant(bb, value, elt, elt);
      Value m = bb.convert(in[1], bb.b.getI1Type());
      return arith::SelectOp::create(bb.b, bb.loc, m, fill, bb.convert(in[0], elt));
    }));
  };
  r["tp.full"] = [](RuleContext &ctx) -> Result {
    RankedTensorType rt = ctx.resultType();
    Type elt = rt.getElementType();
    auto value = cast<tp::FullOp>(ctx.op).getValue();
    return one(pointwise(rt, {}, [=](BodyBuilder &bb, ArrayRef<Value>) {
      return scalarConstant(bb, value, elt, elt);
    }));
  };
  // tril/triu keep x where the column minus the row is <= (>=) the
  // diagonal, zero elsewhere.
  for (bool lower : {true, false})
    r[lower ? "tp.tril" : "tp.triu"] = [lower](RuleContext &ctx) -> Result {
      RankedTensorType rt = ctx.resultType();
      int64_t rank = rt.getRank();
      int64_t diagonal = static_cast<int64_t>(
          ctx.op->getAttrOfType<IntegerAttr>("diagonal").getInt());
      NodePtr x = ctx.operands[0];
      Type elt = rt.getElementType();
      return one(std::make_shared<ComputedNode>(
          rt, [=](BodyBuilder &bb, ArrayRef<AffineExpr> idx) -> Value {
            Value v = x->load(bb, idx);
            if (rank < 2)
              return v;
            Value d = bb.index(idx[rank - 1] - idx[rank - 2]);
            Value diag = bb.index(getAffineConstantExpr(diagonal, bb.b.getContext()));
            Value keep = arith::CmpIOp::create(
                bb.b, bb.loc, lower ? arith::CmpIPredicate::sle : arith::CmpIPredicate::sge,
                d, diag);
            return arith::SelectOp::create(bb.b, bb.loc, keep, v, bb.constant(0, elt));
          }));
    };
  // arange: start + step * k in f64, converted once; with integral start
  // and step and an integer result that is exact integer arithmetic, which
  // keeps the index computation analyzable (Example 6.3).
  r["tp.arange"] = [](RuleContext &ctx) -> Result {
    auto op = cast<tp::ArangeOp>(ctx.op);
    RankedTensorType rt = ctx.resultType();
    double start = tp::getScalarAsDouble(op.getStart());
    double step = tp::getScalarAsDouble(op.getStep());
    Type elt = rt.getElementType();
    bool integral = isa<IntegerType>(elt) && !elt.isInteger(1) &&
                    start == std::trunc(start) && step == std::trunc(step) &&
                    std::fabs(start) < 0x1p52 &&
                    std::fabs(step) * rt.getNumElements() < 0x1p52;
    return one(std::make_shared<ComputedNode>(
        rt, [=](BodyBuilder &bb, ArrayRef<AffineExpr> index) -> Value {
          Type i64 = bb.b.getI64Type(), f64 = bb.b.getF64Type();
          Value k = arith::IndexCastOp::create(bb.b, bb.loc, i64, bb.index(index[0]));
          if (integral) {
            Value first = bb.constantInt(static_cast<int64_t>(start), i64);
            Value offset = arith::MulIOp::create(
                bb.b, bb.loc, bb.constantInt(static_cast<int64_t>(step), i64), k);
            Value v = arith::AddIOp::create(bb.b, bb.loc, first, offset);
            return bb.convert(v, elt);
          }
          Value first = bb.constant(start, f64);
          Value step64 = bb.constant(step, f64);
          Value k64 = bb.convert(k, f64);
          Value offset = arith::MulFOp::create(bb.b, bb.loc, step64, k64);
          Value v = arith::AddFOp::create(bb.b, bb.loc, first, offset);
          return bb.convert(v, elt);
        }));
  };
}

} // namespace

void stax::lowering::registerPointwiseRules(RuleTable &rules) {
  registerUnary(rules);
  registerBinary(rules);
  registerSpecial(rules);
  registerSelection(rules);
}
