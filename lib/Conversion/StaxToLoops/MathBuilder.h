//===- MathBuilder.h - arith on scalars or vectors of one float --*- C++ -*-===//
//
// The f64 and f32 math kernels of --stax-approximate-math build the same
// straight-line arithmetic: on a scalar or on vectors of one shape, with
// constants splatted to that shape and integers of the float's width for
// the exponent bits.
//
//===----------------------------------------------------------------------===//
#ifndef STAX_LIB_CONVERSION_STAXTOLOOPS_MATHBUILDER_H
#define STAX_LIB_CONVERSION_STAXTOLOOPS_MATHBUILDER_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/TypeUtilities.h"
#include <cmath>

namespace mlir::stax::codegen {

class MathBuilder {
public:
  /// Arithmetic on `element` (f32 or f64), shaped like `like`.
  MathBuilder(OpBuilder &b, Location loc, Type like, FloatType element)
      : b(b), loc(loc), floatType(withElement(like, element)),
        intType(withElement(like, b.getIntegerType(element.getWidth()))) {}

  static Type withElement(Type like, Type element) {
    if (auto v = dyn_cast<VectorType>(like))
      return v.clone(element);
    return element;
  }

  OpBuilder &getBuilder() { return b; }
  Location getLoc() const { return loc; }
  Type getFloatType() const { return floatType; }
  Type getIntType() const { return intType; }

  Value constant(double v) {
    auto element = cast<FloatType>(getElementTypeOrSelf(floatType));
    return splat(floatType, b.getFloatAttr(element, v));
  }
  Value intConstant(int64_t v) {
    return splat(intType,
                 b.getIntegerAttr(getElementTypeOrSelf(intType), v));
  }

  Value add(Value x, Value y) { return arith::AddFOp::create(b, loc, x, y); }
  Value sub(Value x, Value y) { return arith::SubFOp::create(b, loc, x, y); }
  Value mul(Value x, Value y) { return arith::MulFOp::create(b, loc, x, y); }
  Value div(Value x, Value y) { return arith::DivFOp::create(b, loc, x, y); }
  Value neg(Value x) { return arith::NegFOp::create(b, loc, x); }
  /// x * y + z with one rounding (an explicit fma, not a contraction).
  Value fma(Value x, Value y, Value z) {
    return math::FmaOp::create(b, loc, x, y, z);
  }
  Value abs(Value x) { return math::AbsFOp::create(b, loc, x); }
  Value roundEven(Value x) { return math::RoundEvenOp::create(b, loc, x); }
  Value copySign(Value mag, Value sign) {
    return math::CopySignOp::create(b, loc, mag, sign);
  }
  /// min/max that return the number when one operand is NaN, so that a NaN
  /// input never reaches an integer conversion (the callers restore NaN).
  Value minNum(Value x, double c) {
    return arith::MinNumFOp::create(b, loc, x, constant(c));
  }
  Value maxNum(Value x, double c) {
    return arith::MaxNumFOp::create(b, loc, x, constant(c));
  }
  Value cmp(arith::CmpFPredicate p, Value x, Value y) {
    return arith::CmpFOp::create(b, loc, p, x, y);
  }
  Value select(Value c, Value x, Value y) {
    return arith::SelectOp::create(b, loc, c, x, y);
  }

  Value toInt(Value x) { return arith::FPToSIOp::create(b, loc, intType, x); }
  Value bitsOf(Value x) { return arith::BitcastOp::create(b, loc, intType, x); }
  Value fromBits(Value i) {
    return arith::BitcastOp::create(b, loc, floatType, i);
  }
  Value addInt(Value x, Value y) {
    return arith::AddIOp::create(b, loc, x, y);
  }
  Value subInt(Value x, Value y) {
    return arith::SubIOp::create(b, loc, x, y);
  }
  Value shiftLeft(Value x, int64_t n) {
    return arith::ShLIOp::create(b, loc, x, intConstant(n));
  }
  /// x / 2^n rounded toward -inf.
  Value shiftRightSigned(Value x, int64_t n) {
    return arith::ShRSIOp::create(b, loc, x, intConstant(n));
  }
  Value negInt(Value x) { return subInt(intConstant(0), x); }
  Value andInt(Value x, int64_t c) {
    return arith::AndIOp::create(b, loc, x, intConstant(c));
  }
  Value minInt(Value x, int64_t c) {
    return arith::MinSIOp::create(b, loc, x, intConstant(c));
  }
  Value maxInt(Value x, int64_t c) {
    return arith::MaxSIOp::create(b, loc, x, intConstant(c));
  }
  Value cmpInt(arith::CmpIPredicate p, Value x, int64_t c) {
    return arith::CmpIOp::create(b, loc, p, x, intConstant(c));
  }

  /// 2^k for an integer `k` (of the float's width) whose power of two is a
  /// normal number: the exponent bits, shifted into place.
  Value exp2Int(Value k) {
    unsigned mantissaBits =
        getElementTypeOrSelf(floatType).isF64() ? 52 : 23;
    int64_t bias = getElementTypeOrSelf(floatType).isF64() ? 1023 : 127;
    return fromBits(shiftLeft(addInt(k, intConstant(bias)), mantissaBits));
  }

  /// For x > 0 normal: x = 2^e * m with m in [sqrt(1/2), sqrt(2)) (both
  /// exact); returns e (as a float) and m.
  std::pair<Value, Value> splitExponent(Value x) {
    bool isF64 = getElementTypeOrSelf(floatType).isF64();
    unsigned mantissaBits = isF64 ? 52 : 23;
    int64_t bias = isF64 ? 1023 : 127;
    Value bits = bitsOf(x);
    Value biased = arith::ShRUIOp::create(b, loc, bits,
                                          intConstant(mantissaBits));
    Value fraction = arith::AndIOp::create(
        b, loc, bits, intConstant((int64_t(1) << mantissaBits) - 1));
    Value mantissa = arith::OrIOp::create(b, loc, fraction,
                                          intConstant(bias << mantissaBits));
    Value m = fromBits(mantissa); // [1, 2)
    Value e = arith::SIToFPOp::create(b, loc, floatType,
                                      subInt(biased, intConstant(bias)));
    Value big = cmp(arith::CmpFPredicate::OGT, m, constant(M_SQRT2));
    return {select(big, add(e, constant(1.0)), e),
            select(big, mul(m, constant(0.5)), m)};
  }

  /// sum_i coeffs[i] x^i by Horner's rule.
  Value polynomial(Value x, ArrayRef<double> coeffs) {
    Value acc = constant(coeffs.back());
    for (double c : llvm::reverse(coeffs.drop_back()))
      acc = fma(acc, x, constant(c));
    return acc;
  }

protected:
  Value splat(Type t, TypedAttr scalar) {
    if (auto v = dyn_cast<VectorType>(t))
      return arith::ConstantOp::create(b, loc,
                                       DenseElementsAttr::get(v, scalar));
    return arith::ConstantOp::create(b, loc, scalar);
  }

  OpBuilder &b;
  Location loc;
  Type floatType, intType;
};

} // namespace mlir::stax::codegen

#endif // STAX_LIB_CONVERSION_STAXTOLOOPS_MATHBUILDER_H
