//===- LinalgKernels.cpp - matrix products of the reference interpreter ---===//
//
// mm, bmm, dot, matmul, addmm, baddbmm. Every output element is
//   acc = 0; for k in order: acc = add(acc, mul(a, b))
// with one rounding per primitive in accumulationType(result type) (no FMA);
// integer products accumulate in int64 (wrapping).
//
//===----------------------------------------------------------------------===//

#include "Kernels.h"

using namespace mlir;
using namespace mlir::stax;
using namespace mlir::stax::detail;

namespace {

double loadAs(const Tensor &t, int64_t i, Type elt) {
  if (t.isFloat())
    return t.elementType() == elt ? t.getF(i) : roundToFloatType(t.getF(i), elt);
  return roundToFloatType(static_cast<double>(t.getI(i)), elt);
}
int64_t wrapAdd(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b));
}
int64_t wrapMul(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) * static_cast<uint64_t>(b));
}

/// The raw products of a (batched) contraction, before any epilogue: one
/// value per output element in row-major order of [batch..., n, m].
struct Products {
  std::vector<double> f;  ///< floating results, in the accumulation type
  std::vector<int64_t> i; ///< integer results
};

/// Contracts `a`, seen with shape [batchA..., n, k], with `b`, seen with shape
/// [batchB..., k, m]; batch dims broadcast (numpy). `elt` is the result
/// element type. Fails when the shapes do not fit or the product does not
/// have `expectedNumel` elements (internal invariants of type inference).
FailureOr<Products> contract(Operation *op, const Tensor &a,
                             ArrayRef<int64_t> sa, const Tensor &b,
                             ArrayRef<int64_t> sb, Type elt,
                             int64_t expectedNumel) {
  if (sa.size() < 2 || sb.size() < 2 || sa.back() != sb[sb.size() - 2])
    return runtimeError(op, "internal error: contraction shapes do not fit");
  int64_t n = sa[sa.size() - 2], k = sa.back(), m = sb.back();
  ArrayRef<int64_t> ba = sa.drop_back(2), bb = sb.drop_back(2);
  auto batch = tp::broadcastShapes(ba, bb);
  if (failed(batch))
    return runtimeError(op, "internal error: batch dims do not broadcast");
  int64_t batchNumel = 1;
  for (int64_t d : *batch)
    batchNumel *= d;
  if (batchNumel * n * m != expectedNumel)
    return runtimeError(op, "internal error: product has the wrong size");
  auto stA = broadcastStrides(ba, *batch);
  auto stB = broadcastStrides(bb, *batch);
  bool isFloat = isa<FloatType>(elt);
  FloatMath fm{isFloat ? accumulationType(elt) : elt};
  Products p;
  if (isFloat)
    p.f.reserve(expectedNumel);
  else
    p.i.reserve(expectedNumel);
  forEachIndex(*batch, [&](int64_t, ArrayRef<int64_t> bi) {
    int64_t offA = dot(bi, stA) * n * k, offB = dot(bi, stB) * k * m;
    for (int64_t r = 0; r < n; ++r) {
      for (int64_t c = 0; c < m; ++c) {
        if (isFloat) {
          double acc = 0.0;
          for (int64_t q = 0; q < k; ++q)
            acc = fm.add(acc, fm.mul(loadAs(a, offA + r * k + q, elt),
                                     loadAs(b, offB + q * m + c, elt)));
          p.f.push_back(acc);
        } else {
          int64_t acc = 0;
          for (int64_t q = 0; q < k; ++q)
            acc = wrapAdd(acc, wrapMul(a.getI(offA + r * k + q),
                                       b.getI(offB + q * m + c)));
          p.i.push_back(acc);
        }
      }
    }
  });
  return p;
}

/// Stores plain products into `out`.
Tensor store(Tensor out, const Products &p) {
  for (int64_t j = 0; j < out.numel(); ++j) {
    if (out.isFloat())
      out.setF(j, p.f[j]);
    else
      out.setI(j, p.i[j]);
  }
  return out;
}

/// The shape of a tensor with 1-D operands promoted to matrices: a vector
/// `a` becomes [1, k] (`asRow`) or [k, 1].
SmallVector<int64_t> matrixShape(ArrayRef<int64_t> shape, bool asRow) {
  SmallVector<int64_t> s(shape);
  if (s.size() == 1) {
    if (asRow)
      s.insert(s.begin(), 1);
    else
      s.push_back(1);
  }
  return s;
}

/// a @ b with numpy's matmul rules (also mm, bmm and dot, whose operands
/// already have the required ranks).
FailureOr<Tensor> matmulLike(Operation *op, Inputs in,
                             const KernelContext &ctx) {
  const Tensor &a = *in[0];
  const Tensor &b = *in[1];
  Tensor out = ctx.result(op);
  if (a.rank() == 0 || b.rank() == 0)
    return runtimeError(op, "operands must be at least 1-D");
  auto p = contract(op, a, matrixShape(a.shape(), /*asRow=*/true), b,
                    matrixShape(b.shape(), /*asRow=*/false), out.elementType(),
                    out.numel());
  if (failed(p))
    return failure();
  return store(std::move(out), *p);
}

/// beta * self + alpha * (a @ b), self broadcast to the product. A scalar of
/// 1 skips its multiply; beta = 0 ignores self entirely (eager semantics).
FailureOr<Tensor> addContraction(Operation *op, Inputs in,
                                 const KernelContext &ctx, double beta,
                                 double alpha) {
  const Tensor &self = *in[0];
  const Tensor &a = *in[1];
  const Tensor &b = *in[2];
  Tensor out = ctx.result(op);
  Type rt = out.elementType();
  auto p = contract(op, a, a.shape(), b, b.shape(), rt, out.numel());
  if (failed(p))
    return failure();
  auto ss = broadcastStrides(self.shape(), out.shape());
  if (out.isFloat()) {
    FloatMath m{accumulationType(rt)};
    double alphaT = m.r(alpha), betaT = m.r(beta);
    forEachIndex(out.shape(), [&](int64_t j, ArrayRef<int64_t> index) {
      double v = p->f[j];
      if (alpha != 1.0)
        v = m.mul(alphaT, v);
      if (beta != 0.0) {
        double s = loadAs(self, dot(index, ss), rt);
        if (beta != 1.0)
          s = m.mul(betaT, s);
        v = m.add(s, v);
      }
      out.setF(j, v);
    });
    return out;
  }
  int64_t alphaI = castToIntType(alpha, IntegerType::get(op->getContext(), 64));
  int64_t betaI = castToIntType(beta, IntegerType::get(op->getContext(), 64));
  forEachIndex(out.shape(), [&](int64_t j, ArrayRef<int64_t> index) {
    int64_t v = p->i[j];
    if (alphaI != 1)
      v = wrapMul(alphaI, v);
    if (betaI != 0) {
      int64_t s = self.getI(dot(index, ss));
      if (betaI != 1)
        s = wrapMul(betaI, s);
      v = wrapAdd(s, v);
    }
    out.setI(j, v);
  });
  return out;
}

} // namespace

void stax::detail::registerLinalgKernels(KernelRegistry &registry) {
  using namespace mlir::tp;
  registry.add<MmOp>([](MmOp op, Inputs in, const KernelContext &ctx) {
    return matmulLike(op, in, ctx);
  });
  registry.add<BmmOp>([](BmmOp op, Inputs in, const KernelContext &ctx) {
    return matmulLike(op, in, ctx);
  });
  registry.add<DotOp>([](DotOp op, Inputs in, const KernelContext &ctx) {
    return matmulLike(op, in, ctx);
  });
  registry.add<MatmulOp>([](MatmulOp op, Inputs in, const KernelContext &ctx) {
    return matmulLike(op, in, ctx);
  });
  registry.add<AddmmOp>([](AddmmOp op, Inputs in, const KernelContext &ctx) {
    return addContraction(op, in, ctx, getScalarAsDouble(op.getBeta()),
                          getScalarAsDouble(op.getAlpha()));
  });
  registry.add<BaddbmmOp>(
      [](BaddbmmOp op, Inputs in, const KernelContext &ctx) {
        return addContraction(op, in, ctx, getScalarAsDouble(op.getBeta()),
                              getScalarAsDouble(op.getAlpha()));
      });
}
