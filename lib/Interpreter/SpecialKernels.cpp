//===- SpecialKernels.cpp - special functions -----------------------------===//
//
// The tp special-function ops (TpSpecialOps.td). Each computes the scalar
// function of Stax/Support/SpecialFunctions.h in double and rounds once to
// the computation type (f32 for half precision, as the other unary kernels):
// the lowered `stax.special_function` and the runtime entry points that
// compiled code calls compute exactly this.
//
//===----------------------------------------------------------------------===//

#include "Kernels.h"
#include "Stax/Support/SpecialFunctions.h"
#include "llvm/ADT/APFloat.h"

using namespace mlir;
using namespace mlir::stax;
using namespace mlir::stax::detail;
namespace sf = mlir::stax::special;

namespace {

/// `fn` of each element of `x` in the computation type of `op`'s result.
FailureOr<Tensor> unarySpecial(Operation *op, const Tensor &x,
                               const KernelContext &ctx,
                               llvm::function_ref<double(double)> fn) {
  Tensor out = ctx.result(op);
  if (!out.isFloat())
    return runtimeError(op, "has no integer kernel");
  Type ct = accumulationType(out.elementType());
  for (int64_t k = 0; k < out.numel(); ++k)
    out.setF(k, roundToFloatType(fn(roundToFloatType(x.getF(k), ct)), ct));
  return out;
}

template <typename OpT> void addUnary(KernelRegistry &r, double (*fn)(double)) {
  r.add<OpT>([fn](OpT op, Inputs in, const KernelContext &ctx) {
    return unarySpecial(op, *in[0], ctx, fn);
  });
}

/// One step of type `t` from `from` towards `to` (both values of `t`).
/// Half precision steps through APFloat: a wider type's step is smaller.
double nextafterIn(Type t, double from, double to) {
  if (t.isF64())
    return sf::nextafter(from, to);
  if (t.isF32())
    return sf::nextafter(static_cast<float>(from), static_cast<float>(to));
  if (std::isnan(from) || std::isnan(to))
    return NAN;
  if (from == to)
    return to;
  bool ignored;
  llvm::APFloat v(from);
  v.convert(cast<FloatType>(t).getFloatSemantics(),
            llvm::APFloat::rmNearestTiesToEven, &ignored);
  (void)v.next(/*nextDown=*/to < from);
  v.convert(llvm::APFloat::IEEEdouble(), llvm::APFloat::rmNearestTiesToEven,
            &ignored);
  return v.convertToDouble();
}

void registerSpecial(KernelRegistry &r) {
  addUnary<tp::LgammaOp>(r, sf::lgamma);
  addUnary<tp::DigammaOp>(r, sf::digamma);
  addUnary<tp::ErfinvOp>(r, sf::erfinv);
  addUnary<tp::SpecialNdtriOp>(r, sf::ndtri);
  addUnary<tp::SpecialErfcxOp>(r, sf::erfcx);
  r.add<tp::PolygammaOp>([](tp::PolygammaOp op, Inputs in,
                            const KernelContext &ctx) {
    auto n = static_cast<int64_t>(op.getN());
    return unarySpecial(op, *in[0], ctx,
                        [n](double x) { return sf::polygamma(n, x); });
  });
  // Exact in the result type (the common type of the operands).
  r.add<tp::NextafterOp>([](tp::NextafterOp op, Inputs in,
                            const KernelContext &ctx) {
    Tensor out = ctx.result(op);
    Type t = out.elementType();
    auto sa = broadcastStrides(in[0]->shape(), out.shape());
    auto sb = broadcastStrides(in[1]->shape(), out.shape());
    forEachIndex(out.shape(), [&](int64_t k, ArrayRef<int64_t> idx) {
      double a = roundToFloatType(in[0]->getF(dot(idx, sa)), t);
      double b = roundToFloatType(in[1]->getF(dot(idx, sb)), t);
      out.setF(k, nextafterIn(t, a, b));
    });
    return FailureOr<Tensor>(out);
  });
  // Exact for every float type: frexp of the value held as a double.
  r.addMulti<tp::FrexpOp>([](tp::FrexpOp op, Inputs in,
                             SmallVectorImpl<Tensor> &out,
                             const KernelContext &ctx) -> LogicalResult {
    Tensor mantissa = ctx.result(op, 0), exponent = ctx.result(op, 1);
    for (int64_t k = 0; k < mantissa.numel(); ++k) {
      double x = in[0]->getF(k);
      mantissa.setF(k, sf::frexpMantissa(x));
      exponent.setI(k, sf::frexpExponent(x));
    }
    out.push_back(std::move(mantissa));
    out.push_back(std::move(exponent));
    return success();
  });
}
} // namespace

void stax::detail::registerSpecialKernels(KernelRegistry &registry) {
  registerSpecial(registry);
}
