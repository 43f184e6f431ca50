//===- ElementwiseKernels.cpp - pointwise ops, selection, creation --------===//
//
// Operands are converted to the op's computation type first (PyTorch's type
// promotion), then each primitive rounds once. Composite activations (gelu,
// silu, sigmoid, ...) are written as the sequence of primitives that their
// decomposition performs, in eager's association order.
//
//===----------------------------------------------------------------------===//

#include "Kernels.h"
#include "mlir/IR/BuiltinAttributeInterfaces.h"

using namespace mlir;
using namespace mlir::stax;
using namespace mlir::stax::detail;

namespace {

using FloatFn = std::function<double(const FloatMath &, double)>;
using IntFn = std::function<int64_t(int64_t)>;
using FloatFn2 = std::function<double(const FloatMath &, double, double)>;
using IntFn2 = std::function<FailureOr<int64_t>(int64_t, int64_t)>;

/// The mapped common type of two operand types (Promotion::Default).
Type commonType(const KernelContext &ctx, Type a, Type b) {
  SmallVector<Type> t;
  (void)tp::inferBinary(std::nullopt, "", a, b, tp::Promotion::Default, t);
  return ctx.mapType(cast<RankedTensorType>(t[0]).getElementType());
}

Type scalarCommonType(const KernelContext &ctx, Type a, TypedAttr s) {
  SmallVector<Type> t;
  (void)tp::inferBinaryScalar(std::nullopt, "", a, s, tp::Promotion::Default, t);
  return ctx.mapType(cast<RankedTensorType>(t[0]).getElementType());
}

/// Unary kernel: `f` on floating computation, `i` on integers (nullptr when
/// the op cannot produce integers). The computation type is the result's.
FailureOr<Tensor> unary(Operation *op, const Tensor &x, const KernelContext &ctx,
                        const FloatFn &f, const IntFn &i = nullptr) {
  Tensor out = ctx.result(op);
  Type elt = out.elementType(), ct = accumulationType(elt);
  FloatMath m{ct};
  if (out.isFloat()) {
    for (int64_t k = 0; k < out.numel(); ++k)
      out.setF(k, f(m, roundToFloatType(roundToFloatType(x.getF(k), elt), ct)));
    return out;
  }
  if (!i)
    return runtimeError(op, "has no integer kernel");
  for (int64_t k = 0; k < out.numel(); ++k)
    out.setI(k, i(x.getI(k)));
  return out;
}

/// Binary kernel with broadcasting, computing in `ct` (a float or int type)
/// and storing into the result (which may be bool for comparisons).
FailureOr<Tensor> binary(Operation *op, const Tensor &a, const Tensor &b,
                         Type ct, const KernelContext &ctx, const FloatFn2 &f,
                         const IntFn2 &i) {
  Tensor out = ctx.result(op);
  auto sa = broadcastStrides(a.shape(), out.shape());
  auto sb = broadcastStrides(b.shape(), out.shape());
  bool isFloat = isa<FloatType>(ct);
  Type act = isFloat ? accumulationType(ct) : ct;
  FloatMath m{act};
  LogicalResult status = success();
  forEachIndex(out.shape(), [&](int64_t k, ArrayRef<int64_t> idx) {
    if (failed(status))
      return;
    int64_t ia = dot(idx, sa), ib = dot(idx, sb);
    if (isFloat) {
      // Each operand is cast to `ct` first, as eager's: an integer rounds
      // to float16 before the float32 arithmetic.
      out.setF(k, f(m, roundToFloatType(roundToFloatType(a.getF(ia), ct), act),
                    roundToFloatType(roundToFloatType(b.getF(ib), ct), act)));
      return;
    }
    if (!i) {
      status = runtimeError(op, "has no integer kernel");
      return;
    }
    auto v = i(wrapToIntType(a.getI(ia), ct), wrapToIntType(b.getI(ib), ct));
    if (failed(v)) {
      status = runtimeError(op, "integer division by zero");
      return;
    }
    out.setI(k, *v);
  });
  if (failed(status))
    return failure();
  return out;
}

/// A scalar attribute as a 0-d tensor of type `ct`.
Tensor scalarTensor(TypedAttr s, Type ct) {
  Tensor t({}, ct);
  if (isa<FloatAttr>(s))
    t.setF(0, tp::getScalarAsDouble(s));
  else
    t.setI(0, tp::getScalarAsInt(s));
  return t;
}

/// Binary ops as (float, int) function pairs. `alpha` scales `other`.
struct BinarySemantics {
  FloatFn2 f;
  IntFn2 i;
};

double floatRemainder(double a, double b) {
  double r = std::fmod(a, b);
  if (r != 0 && ((b < 0) != (r < 0)))
    r += b;
  return r;
}

/// Two's-complement wrapping arithmetic, PyTorch's for integer tensors; in
/// uint64_t, because signed overflow is undefined behaviour in C++.
int64_t wrappingAdd(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b));
}
int64_t wrappingMul(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) * static_cast<uint64_t>(b));
}

FailureOr<int64_t> intFloorDiv(int64_t a, int64_t b) {
  if (b == 0)
    return failure();
  if (b == -1) // INT64_MIN / -1 overflows (SIGFPE on x86): wrap.
    return wrappingMul(a, -1);
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0)))
    --q;
  return q;
}

/// a + alpha * b (a - alpha * b) as eager's add kernel for element type
/// `elt`: alpha is converted to the element type, and the vectorized kernel
/// computes fma(b, alpha, a), rounded once (bfloat16: in float, then
/// rounded); float16 has no fma of its own, so the product rounds to half
/// first. Subtraction adds -alpha.
BinarySemantics addLike(double alpha, int64_t ialpha, bool subtract, Type elt) {
  double sign = subtract ? -1.0 : 1.0;
  return {[=](const FloatMath &m, double a, double b) {
            if (alpha == 1.0)
              return subtract ? m.sub(a, b) : m.add(a, b);
            bool reduced = elt.isF16() || elt.isBF16();
            double s = roundToFloatType(sign * alpha, reduced ? elt : m.t);
            if (elt.isF16())
              return roundToFloatType(a + roundToFloatType(s * b, elt), elt);
            double fused =
                m.t.isF32() ? static_cast<double>(std::fmaf(
                                  static_cast<float>(s), static_cast<float>(b),
                                  static_cast<float>(a)))
                            : std::fma(s, b, a);
            return m.r(fused);
          },
          [=](int64_t a, int64_t b) -> FailureOr<int64_t> {
            return wrappingAdd(
                a, wrappingMul(wrappingMul(static_cast<int64_t>(sign), ialpha), b));
          }};
}

/// Eager's floating floor division (c10::div_floor_floating) with the
/// computation type's arithmetic `m` and the element type's rounding `e`:
/// the rounded quotient of a - fmod(a, b) (exact), stepped down where the
/// remainder's sign differs from b's, floored, and raised by one where
/// that floor is more than a half below. floor(a / b) in double differs
/// where the rounded quotient crosses an integer (35 // 0.001f is 34999).
/// The f16 kernel computes in float and rounds its Half-typed floor; the
/// bf16 one rounds every step (std::fmod has a BFloat16 overload, so each
/// `auto` is a BFloat16).
double floorDivide(const FloatMath &mf, const FloatMath &e, double a, double b) {
  const FloatMath &m = e.t.isBF16() ? e : mf;
  if (b == 0)
    return m.div(a, b);
  double mod = std::fmod(a, b);
  double div = m.div(m.sub(a, mod), b);
  if (mod != 0 && (b < 0) != (mod < 0))
    div = m.sub(div, 1.0);
  if (div == 0)
    return std::copysign(0.0, m.div(a, b));
  double floored = e.r(std::floor(div));
  if (m.sub(div, floored) > 0.5)
    floored = e.r(m.add(floored, 1.0));
  return floored;
}

/// `elt`: the element type, whose rounding the f16/bf16 kernels apply to
/// the quotient before truncating it (`trunc(a / b)` with a Half a / b).
BinarySemantics divide(std::optional<tp::RoundingMode> mode, Type elt) {
  if (!mode)
    return {[](const FloatMath &m, double a, double b) { return m.div(a, b); },
            nullptr};
  bool floor = *mode == tp::RoundingMode::Floor;
  // Truncation rounds the quotient first (eager's trunc(a / b)):
  // 35 / 0.001f rounds to 35000.
  return {[=](const FloatMath &m, double a, double b) {
            FloatMath e{elt};
            return floor ? floorDivide(m, e, a, b) : std::trunc(e.r(m.div(a, b)));
          },
          [=](int64_t a, int64_t b) -> FailureOr<int64_t> {
            if (b == 0)
              return failure();
            return floor ? intFloorDiv(a, b) : FailureOr<int64_t>(b == -1 ? wrappingMul(a, -1) : a / b);
          }};
}

/// x ** e for a tensor exponent: eager's tensor-tensor kernel calls pow
/// for every element (pow(-0, 0.5) = +0, pow(-inf, 0.5) = inf).
double powFloat(const FloatMath &m, double x, double e) {
  return m.r(std::pow(x, e));
}

/// x ** e for a scalar exponent, with eager's special cases for common
/// exponents (what its tensor-scalar kernel computes, e.g. x*x for 2 and
/// sqrt for 0.5).
double powScalarFloat(const FloatMath &m, double x, double e) {
  if (e == 2)
    return m.mul(x, x);
  if (e == 3)
    return m.mul(m.mul(x, x), x);
  if (e == 0.5)
    return m.sqrt(x);
  if (e == -0.5)
    return m.rsqrt(x);
  if (e == -1)
    return m.div(1.0, x);
  if (e == -2)
    return m.div(1.0, m.mul(x, x));
  return m.r(std::pow(x, e));
}

/// x ** e for a scalar exponent in float16: eager's Half kernel calls pow
/// for every element, so 0.5 and -0.5 keep pow's special values
/// (pow(-0, 0.5) = +0 where sqrt gives -0, pow(-inf, -0.5) = +0). Its other
/// exponents give what powScalarFloat's products give, in float16.
double powScalarHalf(const FloatMath &m, double x, double e) {
  if (e == 0.5 || e == -0.5)
    return m.r(std::pow(x, e));
  return powScalarFloat(m, x, e);
}

/// b ** e as eager's integer kernel (powi): binary exponentiation with
/// wrapping products; a negative exponent gives 1 for b = 1, +-1 for
/// b = -1 and 0 otherwise.
FailureOr<int64_t> powInt(int64_t b, int64_t e) {
  if (e < 0)
    return b == 1 ? 1 : b == -1 ? (e % 2 ? -1 : 1) : 0;
  uint64_t r = 1, p = static_cast<uint64_t>(b);
  for (uint64_t n = static_cast<uint64_t>(e); n != 0; n >>= 1) {
    if (n & 1)
      r *= p;
    p *= p;
  }
  return static_cast<int64_t>(r);
}

template <typename Cmp> BinarySemantics compare(Cmp cmp) {
  return {[=](const FloatMath &, double a, double b) { return cmp(a, b) ? 1.0 : 0.0; },
          [=](int64_t a, int64_t b) -> FailureOr<int64_t> { return cmp(a, b); }};
}

/// Registers a tensor-tensor binary op whose semantics ignore attributes.
template <typename OpT>
void addBinary(KernelRegistry &r, BinarySemantics s, bool computeInResult) {
  r.add<OpT>([=](OpT op, Inputs in, const KernelContext &ctx) {
    Type ct = computeInResult
                  ? ctx.mapType(op.getType().getElementType())
                  : commonType(ctx, op.getSelf().getType(), op.getOther().getType());
    return binary(op, *in[0], *in[1], ct, ctx, s.f, s.i);
  });
}

template <typename OpT>
void addScalarBinary(KernelRegistry &r, BinarySemantics s, bool computeInResult) {
  r.add<OpT>([=](OpT op, Inputs in, const KernelContext &ctx) {
    Type ct = computeInResult
                  ? ctx.mapType(op.getType().getElementType())
                  : scalarCommonType(ctx, op.getSelf().getType(), op.getOther());
    Tensor other = scalarTensor(op.getOther(), ct);
    return binary(op, *in[0], other, ct, ctx, s.f, s.i);
  });
}

double sign(double x) { return x > 0 ? 1.0 : (x < 0 ? -1.0 : 0.0); }
int64_t isign(int64_t x) { return (x > 0) - (x < 0); }

/// tril (lower = true) / triu over the last two dims.
Tensor triangle(Operation *op, const Tensor &x, const KernelContext &ctx,
                uint64_t diagonalAttr, bool lower) {
  int64_t diagonal = static_cast<int64_t>(diagonalAttr);
  Tensor out = ctx.result(op);
  int64_t rank = x.rank();
  forEachIndex(x.shape(), [&](int64_t k, ArrayRef<int64_t> idx) {
    bool keep = true;
    if (rank >= 2) {
      int64_t d = idx[rank - 1] - idx[rank - 2];
      keep = lower ? d <= diagonal : d >= diagonal;
    }
    if (!keep)
      return;
    if (x.isFloat())
      out.setF(k, x.getF(k));
    else
      out.setI(k, x.getI(k));
  });
  return out;
}

template <typename OpT>
void addUnary(KernelRegistry &r, FloatFn f, IntFn i = nullptr) {
  r.add<OpT>([=](OpT op, Inputs in, const KernelContext &ctx) {
    return unary(op, *in[0], ctx, f, i);
  });
}

void registerUnary(KernelRegistry &r) {
  auto identityF = [](const FloatMath &, double x) { return x; };
  auto identityI = [](int64_t x) { return x; };
  addUnary<tp::CloneOp>(r, identityF, identityI);
  addUnary<tp::DetachOp>(r, identityF, identityI);
  addUnary<tp::AliasOp>(r, identityF, identityI);
  addUnary<tp::LiftFreshCopyOp>(r, identityF, identityI);
  addUnary<tp::NegOp>(r, [](const FloatMath &, double x) { return -x; },
                      [](int64_t x) { return wrappingMul(x, -1); });
  addUnary<tp::AbsOp>(r, [](const FloatMath &, double x) { return std::fabs(x); },
                      [](int64_t x) { return x < 0 ? wrappingMul(x, -1) : x; });
  // relu is clamp_min(x, 0): NaN and -0.0 pass through.
  addUnary<tp::ReluOp>(r,
                       [](const FloatMath &, double x) {
                         return std::isnan(x) || !(x < 0) ? x : 0.0;
                       },
                       [](int64_t x) { return x < 0 ? int64_t(0) : x; });
  addUnary<tp::SignOp>(r, [](const FloatMath &, double x) { return sign(x); }, isign);
  addUnary<tp::SgnOp>(r, [](const FloatMath &, double x) { return sign(x); }, isign);
  addUnary<tp::FloorOp>(r, [](const FloatMath &m, double x) { return m.r(std::floor(x)); }, identityI);
  addUnary<tp::CeilOp>(r, [](const FloatMath &m, double x) { return m.r(std::ceil(x)); }, identityI);
  addUnary<tp::RoundOp>(r, [](const FloatMath &m, double x) { return m.r(std::nearbyint(x)); }, identityI);
  addUnary<tp::TruncOp>(r, [](const FloatMath &m, double x) { return m.r(std::trunc(x)); }, identityI);
  r.add<tp::BitwiseNotOp>([](tp::BitwiseNotOp op, Inputs in, const KernelContext &ctx) {
    // On bool, ~ is logical not (~True is False), not two's complement.
    bool isBool = op.getType().getElementType().isInteger(1);
    return unary(op, *in[0], ctx, nullptr, [=](int64_t x) {
      return isBool ? int64_t(x == 0) : ~x;
    });
  });
  r.add<tp::LogicalNotOp>([](tp::LogicalNotOp op, Inputs in, const KernelContext &ctx) {
    Tensor out = ctx.result(op);
    for (int64_t k = 0; k < out.numel(); ++k)
      out.setI(k, !in[0]->getB(k));
    return FailureOr<Tensor>(out);
  });
  r.add<tp::SignbitOp>([](tp::SignbitOp op, Inputs in, const KernelContext &ctx) {
    Tensor out = ctx.result(op);
    for (int64_t k = 0; k < out.numel(); ++k)
      out.setI(k, in[0]->isFloat() ? std::signbit(in[0]->getF(k))
                                   : in[0]->getI(k) < 0);
    return FailureOr<Tensor>(out);
  });
  r.add<tp::IsnanOp>([](tp::IsnanOp op, Inputs in, const KernelContext &ctx) {
    Tensor out = ctx.result(op);
    for (int64_t k = 0; k < out.numel(); ++k)
      out.setI(k, in[0]->isFloat() && std::isnan(in[0]->getF(k)));
    return FailureOr<Tensor>(out);
  });

  // Floating functions with one rounding (they have a math-dialect twin).
  auto libm = [](double (*fn)(double)) {
    return FloatFn([fn](const FloatMath &m, double x) { return m.r(fn(x)); });
  };
  addUnary<tp::ExpOp>(r, libm(std::exp));
  addUnary<tp::Exp2Op>(r, libm(std::exp2));
  addUnary<tp::Expm1Op>(r, libm(std::expm1));
  addUnary<tp::LogOp>(r, libm(std::log));
  addUnary<tp::Log2Op>(r, libm(std::log2));
  addUnary<tp::Log10Op>(r, libm(std::log10));
  addUnary<tp::Log1pOp>(r, libm(std::log1p));
  addUnary<tp::SqrtOp>(r, libm(std::sqrt));
  addUnary<tp::RsqrtOp>(r, [](const FloatMath &m, double x) { return m.rsqrt(x); });
  addUnary<tp::ReciprocalOp>(r, [](const FloatMath &m, double x) { return m.div(1.0, x); });
  addUnary<tp::SinOp>(r, libm(std::sin));
  addUnary<tp::CosOp>(r, libm(std::cos));
  addUnary<tp::TanOp>(r, libm(std::tan));
  addUnary<tp::AsinOp>(r, libm(std::asin));
  addUnary<tp::AcosOp>(r, libm(std::acos));
  addUnary<tp::AtanOp>(r, libm(std::atan));
  addUnary<tp::SinhOp>(r, libm(std::sinh));
  addUnary<tp::CoshOp>(r, libm(std::cosh));
  addUnary<tp::TanhOp>(r, libm(std::tanh));
  addUnary<tp::ErfOp>(r, libm(std::erf));
  addUnary<tp::ErfcOp>(r, libm(std::erfc));

  // Composites, as the sequence of primitives eager evaluates.
  addUnary<tp::SigmoidOp>(r, [](const FloatMath &m, double x) { return m.sigmoid(x); });
  addUnary<tp::SiluOp>(r, [](const FloatMath &m, double x) {
    return m.div(x, m.add(1.0, m.exp(-x)));
  });
  addUnary<tp::MishOp>(r, [](const FloatMath &m, double x) {
    return m.mul(x, m.tanh(m.log1p(m.exp(x))));
  });
  r.add<tp::GeluOp>([](tp::GeluOp op, Inputs in, const KernelContext &ctx) {
    bool tanhApprox = op.getApproximate() == tp::GeluApproximate::Tanh;
    return unary(op, *in[0], ctx, [=](const FloatMath &m, double x) {
      if (!tanhApprox) // x * 0.5 * (1 + erf(x / sqrt(2)))
        return m.mul(m.mul(x, 0.5), m.add(1.0, m.erf(m.mul(x, 0.7071067811865476))));
      // 0.5 * x * (1 + tanh(sqrt(2/pi) * (x + 0.044715 * x^3)))
      double cube = m.mul(m.mul(x, x), x);
      double inner = m.mul(m.r(0.7978845608028654),
                           m.add(x, m.mul(m.r(0.044715), cube)));
      return m.mul(m.mul(0.5, x), m.add(1.0, m.tanh(inner)));
    });
  });
  r.add<tp::LeakyReluOp>([](tp::LeakyReluOp op, Inputs in, const KernelContext &ctx) {
    double slope = op.getNegativeSlope().convertToDouble();
    return unary(op, *in[0], ctx, [=](const FloatMath &m, double x) {
      return x > 0 ? x : m.mul(x, m.r(slope));
    });
  });
  r.add<tp::EluOp>([](tp::EluOp op, Inputs in, const KernelContext &ctx) {
    double alpha = op.getAlpha().convertToDouble(),
           scale = op.getScale().convertToDouble(),
           inputScale = op.getInputScale().convertToDouble();
    return unary(op, *in[0], ctx, [=](const FloatMath &m, double x) {
      if (x > 0)
        return m.mul(x, m.r(scale));
      double negcoef = m.mul(m.r(alpha), m.r(scale));
      return m.mul(m.sub(m.exp(m.mul(x, m.r(inputScale))), 1.0), negcoef);
    });
  });
  r.add<tp::SoftplusOp>([](tp::SoftplusOp op, Inputs in, const KernelContext &ctx) {
    double beta = op.getBeta().convertToDouble(),
           threshold = op.getThreshold().convertToDouble();
    return unary(op, *in[0], ctx, [=](const FloatMath &m, double x) {
      double bx = m.mul(x, m.r(beta));
      return bx > threshold ? x : m.div(m.log1p(m.exp(bx)), m.r(beta));
    });
  });
  r.add<tp::HardtanhOp>([](tp::HardtanhOp op, Inputs in, const KernelContext &ctx) {
    double lo = op.getMinVal().convertToDouble(), hi = op.getMaxVal().convertToDouble();
    return unary(op, *in[0], ctx,
                 [=](const FloatMath &m, double x) {
                   return m.min(m.max(x, m.r(lo)), m.r(hi));
                 },
                 [=](int64_t x) {
                   return std::min<int64_t>(std::max<int64_t>(x, lo), hi);
                 });
  });
  r.add<tp::ClampOp>([](tp::ClampOp op, Inputs in, const KernelContext &ctx) {
    // Integer bounds as integers: an int64 bound past 2^53 is exact.
    std::optional<double> lo, hi;
    std::optional<int64_t> ilo, ihi;
    if (auto a = op.getMin()) {
      lo = tp::getScalarAsDouble(*a);
      ilo = tp::getScalarAsInt(*a);
    }
    if (auto a = op.getMax()) {
      hi = tp::getScalarAsDouble(*a);
      ihi = tp::getScalarAsInt(*a);
    }
    return unary(op, *in[0], ctx,
                 // Eager's clamp keeps x where it equals a bound (its
                 // vectorized max(min, x) returns the second operand): -0
                 // clamped to min 0 stays -0.
                 [=](const FloatMath &m, double x) {
                   if (lo)
                     x = m.max(m.r(*lo), x);
                   if (hi)
                     x = m.min(m.r(*hi), x);
                   return x;
                 },
                 [=](int64_t x) {
                   if (ilo)
                     x = std::max<int64_t>(x, *ilo);
                   if (ihi)
                     x = std::min<int64_t>(x, *ihi);
                   return x;
                 });
  });
  r.add<tp::ToCopyOp>([](tp::ToCopyOp op, Inputs in, const KernelContext &ctx) {
    Tensor out = ctx.result(op);
    for (int64_t k = 0; k < out.numel(); ++k) {
      if (in[0]->isFloat())
        out.setF(k, in[0]->getF(k));
      else
        out.setI(k, in[0]->getI(k));
    }
    return FailureOr<Tensor>(out);
  });
  r.add<tp::TrilOp>([](tp::TrilOp op, Inputs in, const KernelContext &ctx) {
    return FailureOr<Tensor>(triangle(op, *in[0], ctx, op.getDiagonal(), true));
  });
  r.add<tp::TriuOp>([](tp::TriuOp op, Inputs in, const KernelContext &ctx) {
    return FailureOr<Tensor>(triangle(op, *in[0], ctx, op.getDiagonal(), false));
  });
}

void registerBinary(KernelRegistry &r) {
  r.add<tp::AddOp>([](tp::AddOp op, Inputs in, const KernelContext &ctx) {
    Type ct = ctx.mapType(op.getType().getElementType());
    auto s = addLike(tp::getScalarAsDouble(op.getAlpha()),
                     tp::getScalarAsInt(op.getAlpha()), false, ct);
    return binary(op, *in[0], *in[1], ct, ctx, s.f, s.i);
  });
  r.add<tp::SubOp>([](tp::SubOp op, Inputs in, const KernelContext &ctx) {
    Type ct = ctx.mapType(op.getType().getElementType());
    auto s = addLike(tp::getScalarAsDouble(op.getAlpha()),
                     tp::getScalarAsInt(op.getAlpha()), true, ct);
    return binary(op, *in[0], *in[1], ct, ctx, s.f, s.i);
  });
  addBinary<tp::MulOp>(r, {[](const FloatMath &m, double a, double b) { return m.mul(a, b); },
                           [](int64_t a, int64_t b) -> FailureOr<int64_t> { return wrappingMul(a, b); }},
                       true);
  r.add<tp::DivOp>([](tp::DivOp op, Inputs in, const KernelContext &ctx) {
    Type ct = ctx.mapType(op.getType().getElementType());
    auto s = divide(op.getRoundingMode(), ct);
    return binary(op, *in[0], *in[1], ct, ctx, s.f, s.i);
  });
  addBinary<tp::MaximumOp>(r, {[](const FloatMath &m, double a, double b) { return m.max(a, b); },
                               [](int64_t a, int64_t b) -> FailureOr<int64_t> { return std::max(a, b); }},
                           true);
  addBinary<tp::MinimumOp>(r, {[](const FloatMath &m, double a, double b) { return m.min(a, b); },
                               [](int64_t a, int64_t b) -> FailureOr<int64_t> { return std::min(a, b); }},
                           true);
  addBinary<tp::PowOp>(r, {powFloat, powInt}, true);
  addBinary<tp::RemainderOp>(r, {[](const FloatMath &m, double a, double b) { return m.r(floatRemainder(a, b)); },
                                 [](int64_t a, int64_t b) -> FailureOr<int64_t> {
                                   if (b == 0) return failure();
                                   int64_t q = *intFloorDiv(a, b);
                                   return b == -1 ? 0 : a - q * b;
                                 }},
                             true);
  addBinary<tp::FmodOp>(r, {[](const FloatMath &m, double a, double b) { return m.r(std::fmod(a, b)); },
                            [](int64_t a, int64_t b) -> FailureOr<int64_t> {
                              if (b == 0) return failure();
                              return b == -1 ? 0 : a % b;
                            }},
                        true);
  addBinary<tp::Atan2Op>(r, {[](const FloatMath &m, double a, double b) { return m.r(std::atan2(a, b)); },
                             nullptr},
                         true);
  addBinary<tp::BitwiseAndOp>(r, {nullptr, [](int64_t a, int64_t b) -> FailureOr<int64_t> { return a & b; }}, true);
  addBinary<tp::BitwiseOrOp>(r, {nullptr, [](int64_t a, int64_t b) -> FailureOr<int64_t> { return a | b; }}, true);
  addBinary<tp::BitwiseXorOp>(r, {nullptr, [](int64_t a, int64_t b) -> FailureOr<int64_t> { return a ^ b; }}, true);
  auto truth = [](auto fn) {
    return BinarySemantics{[=](const FloatMath &, double a, double b) { return fn(a != 0, b != 0) ? 1.0 : 0.0; },
                           [=](int64_t a, int64_t b) -> FailureOr<int64_t> { return fn(a != 0, b != 0); }};
  };
  addBinary<tp::LogicalAndOp>(r, truth([](bool a, bool b) { return a && b; }), false);
  addBinary<tp::LogicalOrOp>(r, truth([](bool a, bool b) { return a || b; }), false);
  addBinary<tp::LogicalXorOp>(r, truth([](bool a, bool b) { return a != b; }), false);
  addBinary<tp::EqOp>(r, compare([](auto a, auto b) { return a == b; }), false);
  addBinary<tp::NeOp>(r, compare([](auto a, auto b) { return a != b; }), false);
  addBinary<tp::LtOp>(r, compare([](auto a, auto b) { return a < b; }), false);
  addBinary<tp::LeOp>(r, compare([](auto a, auto b) { return a <= b; }), false);
  addBinary<tp::GtOp>(r, compare([](auto a, auto b) { return a > b; }), false);
  addBinary<tp::GeOp>(r, compare([](auto a, auto b) { return a >= b; }), false);
}

void registerScalar(KernelRegistry &r) {
  auto addScalarLike = [](auto op, Inputs in, const KernelContext &ctx,
                          bool subtract, bool reversed) -> FailureOr<Tensor> {
    Type ct = ctx.mapType(op.getType().getElementType());
    auto s = addLike(tp::getScalarAsDouble(op.getAlpha()),
                     tp::getScalarAsInt(op.getAlpha()), subtract, ct);
    Tensor other = scalarTensor(op.getOther(), ct);
    // rsub: other - alpha * self.
    return reversed ? binary(op, other, *in[0], ct, ctx, s.f, s.i)
                    : binary(op, *in[0], other, ct, ctx, s.f, s.i);
  };
  r.add<tp::AddScalarOp>([=](tp::AddScalarOp op, Inputs in, const KernelContext &ctx) {
    return addScalarLike(op, in, ctx, false, false);
  });
  r.add<tp::SubScalarOp>([=](tp::SubScalarOp op, Inputs in, const KernelContext &ctx) {
    return addScalarLike(op, in, ctx, true, false);
  });
  r.add<tp::RsubScalarOp>([=](tp::RsubScalarOp op, Inputs in, const KernelContext &ctx) {
    return addScalarLike(op, in, ctx, true, true);
  });
  addScalarBinary<tp::MulScalarOp>(r, {[](const FloatMath &m, double a, double b) { return m.mul(a, b); },
                                       [](int64_t a, int64_t b) -> FailureOr<int64_t> { return wrappingMul(a, b); }},
                                   true);
  r.add<tp::DivScalarOp>([](tp::DivScalarOp op, Inputs in, const KernelContext &ctx) {
    Type ct = ctx.mapType(op.getType().getElementType());
    auto s = divide(op.getRoundingMode(), ct);
    return binary(op, *in[0], scalarTensor(op.getOther(), ct), ct, ctx, s.f, s.i);
  });
  r.add<tp::PowTensorScalarOp>(
      [](tp::PowTensorScalarOp op, Inputs in,
         const KernelContext &ctx) -> FailureOr<Tensor> {
        Type ct = ctx.mapType(op.getType().getElementType());
        // Eager refuses the op itself (whatever the values), as here.
        if (!isa<FloatType>(ct) && tp::getScalarAsDouble(op.getOther()) < 0)
          return runtimeError(op, "integers to negative integer powers are not "
                                  "allowed");
        bool half = op.getType().getElementType().isF16();
        return binary(op, *in[0], scalarTensor(op.getOther(), ct), ct, ctx,
                      half ? powScalarHalf : powScalarFloat, powInt);
      });
  addScalarBinary<tp::RemainderScalarOp>(r, {[](const FloatMath &m, double a, double b) { return m.r(floatRemainder(a, b)); },
                                             [](int64_t a, int64_t b) -> FailureOr<int64_t> {
                                               if (b == 0) return failure();
                                               return b == -1 ? 0 : a - *intFloorDiv(a, b) * b;
                                             }},
                                         true);
  addScalarBinary<tp::FmodScalarOp>(r, {[](const FloatMath &m, double a, double b) { return m.r(std::fmod(a, b)); },
                                        [](int64_t a, int64_t b) -> FailureOr<int64_t> {
                                          if (b == 0) return failure();
                                          return b == -1 ? 0 : a % b;
                                        }},
                                    true);
  addScalarBinary<tp::EqScalarOp>(r, compare([](auto a, auto b) { return a == b; }), false);
  addScalarBinary<tp::NeScalarOp>(r, compare([](auto a, auto b) { return a != b; }), false);
  addScalarBinary<tp::LtScalarOp>(r, compare([](auto a, auto b) { return a < b; }), false);
  addScalarBinary<tp::LeScalarOp>(r, compare([](auto a, auto b) { return a <= b; }), false);
  addScalarBinary<tp::GtScalarOp>(r, compare([](auto a, auto b) { return a > b; }), false);
  addScalarBinary<tp::GeScalarOp>(r, compare([](auto a, auto b) { return a >= b; }), false);
}

void registerSelection(KernelRegistry &r) {
  r.add<tp::WhereOp>([](tp::WhereOp op, Inputs in, const KernelContext &ctx) {
    Tensor out = ctx.result(op);
    auto sc = broadcastStrides(in[0]->shape(), out.shape());
    auto sa = broadcastStrides(in[1]->shape(), out.shape());
    auto sb = broadcastStrides(in[2]->shape(), out.shape());
    forEachIndex(out.shape(), [&](int64_t k, ArrayRef<int64_t> idx) {
      const Tensor &src = in[0]->getB(dot(idx, sc)) ? *in[1] : *in[2];
      int64_t i = dot(idx, &src == in[1] ? sa : sb);
      if (src.isFloat())
        out.setF(k, src.getF(i));
      else
        out.setI(k, src.getI(i));
    });
    return FailureOr<Tensor>(out);
  });
  r.add<tp::MaskedFillScalarOp>([](tp::MaskedFillScalarOp op, Inputs in,
                                   const KernelContext &ctx) {
    Tensor out = ctx.result(op);
    Tensor value = scalarTensor(op.getValue(), out.elementType());
    auto sm = broadcastStrides(in[1]->shape(), out.shape());
    forEachIndex(out.shape(), [&](int64_t k, ArrayRef<int64_t> idx) {
      bool fill = in[1]->getB(dot(idx, sm));
      const Tensor &src = fill ? value : *in[0];
      int64_t i = fill ? 0 : k;
      if (src.isFloat())
        out.setF(k, src.getF(i));
      else
        out.setI(k, src.getI(i));
    });
    return FailureOr<Tensor>(out);
  });
}

void registerCreation(KernelRegistry &r) {
  r.add<tp::FullOp>([](tp::FullOp op, Inputs, const KernelContext &ctx) {
    Tensor out = ctx.result(op);
    Tensor v = scalarTensor(op.getValue(), out.elementType());
    for (int64_t k = 0; k < out.numel(); ++k) {
      if (out.isFloat())
        out.setF(k, v.getF(0));
      else
        out.setI(k, v.getI(0));
    }
    return FailureOr<Tensor>(out);
  });
  r.add<tp::ArangeOp>([](tp::ArangeOp op, Inputs, const KernelContext &ctx) {
    Tensor out = ctx.result(op);
    double start = tp::getScalarAsDouble(op.getStart()),
           step = tp::getScalarAsDouble(op.getStep());
    for (int64_t k = 0; k < out.numel(); ++k)
      out.setF(k, start + step * static_cast<double>(k));
    return FailureOr<Tensor>(out);
  });
  r.add<tp::ConstantOp>([](tp::ConstantOp op, Inputs, const KernelContext &ctx)
                            -> FailureOr<Tensor> {
    Tensor out = ctx.result(op);
    auto attr = dyn_cast<DenseElementsAttr>(op.getValue());
    if (!attr)
      return runtimeError(op, "supports only dense literal values");
    int64_t k = 0;
    if (isa<FloatType>(attr.getElementType())) {
      for (const APFloat &v : attr.getValues<APFloat>())
        out.setF(k++, v.convertToDouble());
    } else {
      bool isBool = attr.getElementType().isInteger(1);
      for (const APInt &v : attr.getValues<APInt>())
        out.setI(k++, isBool ? v.getBoolValue() : v.getSExtValue());
    }
    return FailureOr<Tensor>(out);
  });
}
} // namespace

void stax::detail::registerElementwiseKernels(KernelRegistry &registry) {
  registerUnary(registry);
  registerBinary(registry);
  registerScalar(registry);
  registerSelection(registry);
  registerCreation(registry);
}
