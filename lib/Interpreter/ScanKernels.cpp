//===- ScanKernels.cpp - the scans of the reference interpreter -----------===//
//
// cumsum, cumprod, logcumsumexp, cummax and cummin: every slice along `dim`
// is scanned in order (from the end with `reverse`). Sums and products of
// floats accumulate
// in f64 (f32 for f16/bf16: eager's CPU acc_type) and round once per
// result; integers in int64, wrapping to the element width when stored.
//
//===----------------------------------------------------------------------===//

#include "Kernels.h"
#include "Stax/Support/ScanCombine.h"

using namespace mlir;
using namespace mlir::stax;
using namespace mlir::stax::detail;

namespace {

/// The slices of a scan: `outer` x `inner` of them, `len` elements `inner`
/// apart, the k-th visited element of slice (o, i) at position(o, i, k).
struct ScanSlices {
  int64_t outer = 1, len = 1, inner = 1;
  bool reverse = false;

  template <typename OpT> static ScanSlices of(OpT op, const Tensor &x) {
    ScanSlices s;
    // A 0-d tensor is one slice of one element.
    int64_t dim = x.rank() ? *tp::normalizeDim(
                                 static_cast<int64_t>(op.getDim()), x.rank())
                           : 0;
    for (int64_t d = 0; d < x.rank(); ++d)
      (d < dim ? s.outer : d == dim ? s.len : s.inner) *= x.dim(d);
    s.reverse = op.getReverse();
    return s;
  }
  /// The position along dim of the k-th visited element.
  int64_t step(int64_t k) const { return reverse ? len - 1 - k : k; }
  int64_t position(int64_t o, int64_t i, int64_t k) const {
    return (o * len + step(k)) * inner + i;
  }
  template <typename Fn> void forEachSlice(Fn fn) const {
    for (int64_t o = 0; o < outer; ++o)
      for (int64_t i = 0; i < inner; ++i)
        fn(o, i);
  }
};

/// The accumulation type of a floating scan: f64 for f32/f64 elements, f32
/// for the 16-bit ones.
Type scanAccumulator(Type elt) {
  if (elt.isF16() || elt.isBF16())
    return Float32Type::get(elt.getContext());
  return Float64Type::get(elt.getContext());
}

/// cumsum (`product` false) and cumprod: one running sum or product per
/// slice, from 0 or 1.
template <typename OpT>
FailureOr<Tensor> arithmeticScan(OpT op, Inputs in, const KernelContext &ctx,
                                 bool product) {
  const Tensor &x = *in[0];
  Tensor out = ctx.result(op);
  ScanSlices s = ScanSlices::of(op, x);
  if (!x.isFloat()) {
    s.forEachSlice([&](int64_t o, int64_t i) {
      uint64_t acc = product ? 1 : 0; // wraps like two's complement
      for (int64_t k = 0; k < s.len; ++k) {
        int64_t p = s.position(o, i, k);
        auto v = static_cast<uint64_t>(x.getI(p));
        acc = product ? acc * v : acc + v;
        out.setI(p, static_cast<int64_t>(acc));
      }
    });
    return out;
  }
  FloatMath m{scanAccumulator(x.elementType())};
  s.forEachSlice([&](int64_t o, int64_t i) {
    double acc = product ? 1.0 : 0.0;
    for (int64_t k = 0; k < s.len; ++k) {
      int64_t p = s.position(o, i, k);
      acc = product ? m.mul(acc, x.getF(p)) : m.add(acc, x.getF(p));
      out.setF(p, acc);
    }
  });
  return out;
}

FailureOr<Tensor> logcumsumexp(tp::LogcumsumexpOp op, Inputs in,
                               const KernelContext &ctx) {
  const Tensor &x = *in[0];
  Tensor out = ctx.result(op);
  ScanSlices s = ScanSlices::of(op, x);
  bool narrow = scanAccumulator(x.elementType()).isF32();
  s.forEachSlice([&](int64_t o, int64_t i) {
    double acc = -INFINITY;
    for (int64_t k = 0; k < s.len; ++k) {
      int64_t p = s.position(o, i, k);
      acc = narrow ? logAddExpStep<float>(static_cast<float>(x.getF(p)),
                                          static_cast<float>(acc))
                   : logAddExpStep<double>(x.getF(p), acc);
      out.setF(p, acc);
    }
  });
  return out;
}

template <typename OpT>
LogicalResult cumExtremum(OpT op, Inputs in, SmallVectorImpl<Tensor> &out,
                          const KernelContext &ctx, bool isMax) {
  const Tensor &x = *in[0];
  Tensor values = ctx.result(op, 0);
  Tensor indices = ctx.result(op, 1);
  ScanSlices s = ScanSlices::of(op, x);
  auto scan = [&](auto get) {
    s.forEachSlice([&](int64_t o, int64_t i) {
      if (s.len == 0)
        return;
      int64_t first = s.position(o, i, 0);
      auto acc = get(first);
      int64_t at = first, index = s.step(0);
      for (int64_t k = 0; k < s.len; ++k) {
        int64_t p = s.position(o, i, k);
        if (cumExtremumTakes(get(p), acc, isMax)) {
          acc = get(p);
          at = p;
          index = s.step(k);
        }
        // Copy the element itself (keeps -0.0 and NaN payloads).
        if (values.isFloat())
          values.setF(p, x.getF(at));
        else
          values.setI(p, x.getI(at));
        indices.setI(p, index);
      }
    });
  };
  if (x.isFloat())
    scan([&](int64_t p) { return x.getF(p); });
  else
    scan([&](int64_t p) { return x.getI(p); });
  out.push_back(std::move(values));
  out.push_back(std::move(indices));
  return success();
}

} // namespace

void stax::detail::registerScanKernels(KernelRegistry &registry) {
  using namespace mlir::tp;
  registry.add<CumsumOp>([](CumsumOp op, Inputs in, const KernelContext &ctx) {
    return arithmeticScan(op, in, ctx, /*product=*/false);
  });
  registry.add<CumprodOp>([](CumprodOp op, Inputs in, const KernelContext &ctx) {
    return arithmeticScan(op, in, ctx, /*product=*/true);
  });
  registry.add<LogcumsumexpOp>(logcumsumexp);
  registry.addMulti<CummaxOp>([](CummaxOp op, Inputs in,
                                 SmallVectorImpl<Tensor> &out,
                                 const KernelContext &ctx) {
    return cumExtremum(op, in, out, ctx, /*isMax=*/true);
  });
  registry.addMulti<CumminOp>([](CumminOp op, Inputs in,
                                 SmallVectorImpl<Tensor> &out,
                                 const KernelContext &ctx) {
    return cumExtremum(op, in, out, ctx, /*isMax=*/false);
  });
}
