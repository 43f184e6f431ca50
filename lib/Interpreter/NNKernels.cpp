//===- NNKernels.cpp - softmax, norms, losses, backward ops ---------------===//
//
// Composite neural-network operators, each written as the sequence of
// primitives its decomposition performs (FloatMath: one rounding per
// primitive, in accumulationType(result type)). Scalar constants (eps, the
// gelu coefficients, loss norms, dropout scale) are rounded to that type
// first, as eager does when it casts a double scalar to the op's math type.
//
//===----------------------------------------------------------------------===//

#include "Kernels.h"
#include "Stax/Support/CTCLoss.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::stax;
using namespace mlir::stax::detail;

namespace {

/// Element `i` of `t` converted to floating type `elt`.
double loadAs(const Tensor &t, int64_t i, Type elt) {
  if (t.isFloat())
    return t.elementType() == elt ? t.getF(i) : roundToFloatType(t.getF(i), elt);
  return roundToFloatType(static_cast<double>(t.getI(i)), elt);
}

/// The slices of `shape` along `dim` (one group per slice, in order along the
/// dim). A 0-d tensor is one slice of one element.
std::vector<std::vector<int64_t>> slicesAlong(ArrayRef<int64_t> shape,
                                              int64_t dim) {
  if (shape.empty())
    return reductionGroups(shape, {});
  return reductionGroups(shape, reducedMask({dim}, shape.size()));
}

/// Checks that a tensor of `shape` broadcasts to `to` (operand shapes that
/// type inference does not constrain).
LogicalResult checkBroadcastsTo(Operation *op, ArrayRef<int64_t> shape,
                                ArrayRef<int64_t> to, StringRef what) {
  auto b = tp::broadcastShapes(shape, to);
  if (failed(b) || ArrayRef<int64_t>(*b) != to) {
    std::string s, t;
    llvm::raw_string_ostream os(s), ot(t);
    llvm::interleaveComma(shape, os);
    llvm::interleaveComma(to, ot);
    return runtimeError(op, Twine(what) + " shape [" + s +
                                "] does not broadcast to [" + t + "]");
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Softmax
//===----------------------------------------------------------------------===//

template <typename OpT>
FailureOr<Tensor> softmax(OpT op, Inputs in, const KernelContext &ctx,
                          bool isLog) {
  const Tensor &x = *in[0];
  Tensor out = ctx.result(op);
  Type rt = out.elementType();
  FloatMath m{accumulationType(rt)};
  int64_t rank = x.shape().size();
  int64_t dim = static_cast<int64_t>(op.getDim());
  // Along the last dim eager multiplies by 1 / sum (its lastdim kernel).
  bool last = dim + (dim < 0 ? rank : 0) >= rank - 1;
  for (const auto &idx : slicesAlong(x.shape(), dim)) {
    double mx = -INFINITY;
    for (int64_t i : idx)
      mx = m.max(mx, loadAs(x, i, rt));
    if (isLog) {
      double s = 0.0;
      for (int64_t i : idx)
        s = m.add(s, m.exp(m.sub(loadAs(x, i, rt), mx)));
      double lse = m.log(s);
      for (int64_t i : idx)
        out.setF(i, m.sub(m.sub(loadAs(x, i, rt), mx), lse));
    } else {
      std::vector<double> e;
      e.reserve(idx.size());
      double s = 0.0;
      for (int64_t i : idx) {
        e.push_back(m.exp(m.sub(loadAs(x, i, rt), mx)));
        s = m.add(s, e.back());
      }
      double r = m.div(1.0, s);
      for (auto [k, i] : llvm::enumerate(idx))
        out.setF(i, last ? m.mul(e[k], r) : m.div(e[k], s));
    }
  }
  return out;
}

template <typename OpT>
FailureOr<Tensor> softmaxBackward(OpT op, Inputs in, const KernelContext &ctx,
                                  bool isLog) {
  const Tensor &g = *in[0];
  const Tensor &y = *in[1];
  Tensor out = ctx.result(op);
  Type rt = out.elementType();
  FloatMath m{accumulationType(rt)};
  Type T = m.t;
  for (const auto &idx : slicesAlong(g.shape(), static_cast<int64_t>(op.getDim()))) {
    double s = 0.0;
    for (int64_t i : idx)
      s = isLog ? m.add(s, loadAs(g, i, T))
                : m.add(s, m.mul(loadAs(g, i, T), loadAs(y, i, T)));
    for (int64_t i : idx) {
      double gi = loadAs(g, i, T), yi = loadAs(y, i, T);
      out.setF(i, isLog ? m.sub(gi, m.mul(m.exp(yi), s))
                        : m.mul(yi, m.sub(gi, s)));
    }
  }
  return out;
}

//===----------------------------------------------------------------------===//
// Layer norm
//===----------------------------------------------------------------------===//

/// Rows and row length M of a layer norm over the trailing
/// `normalized_shape` dims of `shape`.
std::pair<int64_t, int64_t> layerNormSizes(ArrayRef<int64_t> shape,
                                           ArrayRef<int64_t> normalized) {
  int64_t rows = 1, m = 1;
  size_t lead = shape.size() - std::min(shape.size(), normalized.size());
  for (size_t i = 0; i < shape.size(); ++i)
    (i < lead ? rows : m) *= shape[i];
  return {rows, m};
}

LogicalResult nativeLayerNorm(tp::NativeLayerNormOp op, Inputs in,
                              SmallVectorImpl<Tensor> &results,
                              const KernelContext &ctx) {
  const Tensor &x = *in[0];
  unsigned k = 1;
  const Tensor *w = op.getWeight() ? in[k++] : nullptr;
  const Tensor *b = op.getBias() ? in[k++] : nullptr;
  Tensor out = ctx.result(op, 0), meanT = ctx.result(op, 1),
         rstdT = ctx.result(op, 2);
  Type rt = out.elementType();
  FloatMath m{accumulationType(rt)};
  Type T = m.t;
  auto [rows, M] = layerNormSizes(x.shape(), op.getNormalizedShape());
  double n = static_cast<double>(M);
  double eps = m.r(op.getEps().convertToDouble());
  for (int64_t r = 0; r < rows; ++r) {
    int64_t base = r * M;
    double sum = 0.0;
    for (int64_t j = 0; j < M; ++j)
      sum = m.add(sum, loadAs(x, base + j, T));
    double mean = m.div(sum, n);
    double sq = 0.0;
    for (int64_t j = 0; j < M; ++j) {
      double d = m.sub(loadAs(x, base + j, T), mean);
      sq = m.add(sq, m.mul(d, d));
    }
    double var = m.div(sq, n);
    double rstd = m.rsqrt(m.add(var, eps));
    for (int64_t j = 0; j < M; ++j) {
      double v = m.mul(m.sub(loadAs(x, base + j, T), mean), rstd);
      if (w)
        v = m.mul(v, loadAs(*w, j, T));
      if (b)
        v = m.add(v, loadAs(*b, j, T));
      out.setF(base + j, v);
    }
    meanT.setF(r, mean);
    rstdT.setF(r, rstd);
  }
  results.push_back(std::move(out));
  results.push_back(std::move(meanT));
  results.push_back(std::move(rstdT));
  return success();
}

LogicalResult nativeLayerNormBackward(tp::NativeLayerNormBackwardOp op,
                                      Inputs in,
                                      SmallVectorImpl<Tensor> &results,
                                      const KernelContext &ctx) {
  const Tensor &g = *in[0];
  const Tensor &x = *in[1];
  const Tensor &meanT = *in[2];
  const Tensor &rstdT = *in[3];
  const Tensor *w = op.getWeight() ? in[4] : nullptr;
  Tensor gi = ctx.result(op, 0), gw = ctx.result(op, 1), gb = ctx.result(op, 2);
  Type rt = gi.elementType();
  FloatMath m{accumulationType(rt)};
  Type T = m.t;
  auto [rows, M] = layerNormSizes(x.shape(), op.getNormalizedShape());
  double n = static_cast<double>(M);
  std::vector<double> accW(M, 0.0), accB(M, 0.0);
  std::vector<double> xhat(M), dxhat(M);
  for (int64_t r = 0; r < rows; ++r) {
    int64_t base = r * M;
    double mean = loadAs(meanT, r, T), rstd = loadAs(rstdT, r, T);
    double a = 0.0, bsum = 0.0;
    for (int64_t j = 0; j < M; ++j) {
      double gv = loadAs(g, base + j, T);
      xhat[j] = m.mul(m.sub(loadAs(x, base + j, T), mean), rstd);
      dxhat[j] = w ? m.mul(gv, loadAs(*w, j, T)) : gv;
      a = m.add(a, dxhat[j]);
      bsum = m.add(bsum, m.mul(dxhat[j], xhat[j]));
      accW[j] = m.add(accW[j], m.mul(gv, xhat[j]));
      accB[j] = m.add(accB[j], gv);
    }
    double scale = m.div(rstd, n);
    for (int64_t j = 0; j < M; ++j)
      gi.setF(base + j,
              m.mul(scale, m.sub(m.sub(m.mul(n, dxhat[j]), a),
                                 m.mul(xhat[j], bsum))));
  }
  // grad_weight / grad_bias have shape normalized_shape: M elements.
  for (int64_t j = 0; j < M && j < gw.numel(); ++j)
    gw.setF(j, accW[j]);
  for (int64_t j = 0; j < M && j < gb.numel(); ++j)
    gb.setF(j, accB[j]);
  results.push_back(std::move(gi));
  results.push_back(std::move(gw));
  results.push_back(std::move(gb));
  return success();
}

//===----------------------------------------------------------------------===//
// Losses
//===----------------------------------------------------------------------===//

/// Number of samples and classes of an nll_loss self ([N, C] or [C]).
std::pair<int64_t, int64_t> nllSizes(const Tensor &self) {
  if (self.rank() == 1)
    return {1, self.dim(0)};
  return {self.dim(0), self.dim(1)};
}

/// The class of sample `i`, or nullopt when it is ignored; failure when out
/// of range.
FailureOr<std::optional<int64_t>> nllTarget(Operation *op,
                                            const Tensor &target, int64_t i,
                                            int64_t classes,
                                            int64_t ignoreIndex) {
  int64_t t = target.getI(i);
  if (t == ignoreIndex)
    return std::optional<int64_t>();
  if (t < 0 || t >= classes)
    return runtimeError(op, "target " + Twine(t) + " of sample " + Twine(i) +
                                " is out of bounds for " + Twine(classes) +
                                " classes");
  return std::optional<int64_t>(t);
}

LogicalResult nllLossForward(tp::NllLossForwardOp op, Inputs in,
                             SmallVectorImpl<Tensor> &results,
                             const KernelContext &ctx) {
  const Tensor &self = *in[0];
  const Tensor &target = *in[1];
  const Tensor *weight = op.getWeight() ? in[2] : nullptr;
  Tensor out = ctx.result(op, 0), total = ctx.result(op, 1);
  Type rt = out.elementType();
  FloatMath m{accumulationType(rt)};
  Type T = m.t;
  int64_t reduction = static_cast<int64_t>(op.getReduction());
  int64_t ignoreIndex = static_cast<int64_t>(op.getIgnoreIndex());
  auto [samples, classes] = nllSizes(self);
  double lossSum = 0.0, weightSum = 0.0;
  for (int64_t i = 0; i < samples; ++i) {
    auto t = nllTarget(op, target, i, classes, ignoreIndex);
    if (failed(t))
      return failure();
    double loss = 0.0, w = 0.0;
    if (*t) {
      w = weight ? loadAs(*weight, **t, T) : 1.0;
      loss = m.mul(m.neg(loadAs(self, i * classes + **t, T)), w);
    }
    if (reduction == 0)
      out.setF(i, loss);
    lossSum = m.add(lossSum, loss);
    weightSum = m.add(weightSum, w);
  }
  if (reduction == 1)
    out.setF(0, m.div(lossSum, weightSum));
  else if (reduction == 2)
    out.setF(0, lossSum);
  // Eager leaves total_weight at 0 only for the per-sample output of a 2-D
  // self (a 1-D self always produces the scalar path).
  total.setF(0, reduction == 0 && self.rank() == 2 ? 0.0 : weightSum);
  results.push_back(std::move(out));
  results.push_back(std::move(total));
  return success();
}

FailureOr<Tensor> nllLossBackward(tp::NllLossBackwardOp op, Inputs in,
                                  const KernelContext &ctx) {
  const Tensor &gradOut = *in[0];
  const Tensor &self = *in[1];
  const Tensor &target = *in[2];
  const Tensor *weight = op.getWeight() ? in[3] : nullptr;
  const Tensor &totalWeight = *in.back();
  Tensor out = ctx.result(op);
  Type rt = out.elementType();
  FloatMath m{accumulationType(rt)};
  Type T = m.t;
  int64_t reduction = static_cast<int64_t>(op.getReduction());
  int64_t ignoreIndex = static_cast<int64_t>(op.getIgnoreIndex());
  auto [samples, classes] = nllSizes(self);
  bool perSample = reduction == 0 && self.rank() == 2;
  if (gradOut.numel() != (perSample ? samples : 1))
    return runtimeError(op, "grad_output has " + Twine(gradOut.numel()) +
                                " elements but " +
                                Twine(perSample ? samples : 1) +
                                " are expected");
  if (totalWeight.numel() != 1)
    return runtimeError(op, "total_weight must have one element, got " +
                                Twine(totalWeight.numel()));
  double tw = loadAs(totalWeight, 0, T);
  for (int64_t i = 0; i < samples; ++i) {
    auto t = nllTarget(op, target, i, classes, ignoreIndex);
    if (failed(t))
      return failure();
    if (!*t)
      continue;
    double w = weight ? loadAs(*weight, **t, T) : 1.0;
    double g = loadAs(gradOut, perSample ? i : 0, T);
    double v = m.mul(m.neg(w), g);
    if (reduction == 1)
      v = m.div(v, tw);
    out.setF(i * classes + **t, v);
  }
  return out;
}

FailureOr<Tensor> mseLoss(tp::MseLossOp op, Inputs in,
                          const KernelContext &ctx) {
  const Tensor &a = *in[0];
  const Tensor &b = *in[1];
  Tensor out = ctx.result(op);
  Type rt = out.elementType();
  FloatMath m{accumulationType(rt)};
  auto shape = tp::broadcastShapes(a.shape(), b.shape());
  if (failed(shape))
    return runtimeError(op, "internal error: operand shapes do not broadcast");
  auto sa = broadcastStrides(a.shape(), *shape);
  auto sb = broadcastStrides(b.shape(), *shape);
  int64_t reduction = static_cast<int64_t>(op.getReduction());
  double sum = 0.0;
  int64_t numel = 0;
  forEachIndex(*shape, [&](int64_t linear, ArrayRef<int64_t> index) {
    double d = m.sub(loadAs(a, dot(index, sa), rt), loadAs(b, dot(index, sb), rt));
    double sq = m.mul(d, d);
    if (reduction == 0)
      out.setF(linear, sq);
    sum = m.add(sum, sq);
    ++numel;
  });
  if (reduction == 1)
    out.setF(0, m.div(sum, static_cast<double>(numel)));
  else if (reduction == 2)
    out.setF(0, sum);
  return out;
}

FailureOr<Tensor> mseLossBackward(tp::MseLossBackwardOp op, Inputs in,
                                  const KernelContext &ctx) {
  const Tensor &g = *in[0];
  const Tensor &a = *in[1];
  const Tensor &b = *in[2];
  Tensor out = ctx.result(op);
  Type rt = out.elementType();
  FloatMath m{accumulationType(rt)};
  Type T = m.t;
  int64_t reduction = static_cast<int64_t>(op.getReduction());
  if (failed(checkBroadcastsTo(op, g.shape(), out.shape(), "grad_output")) ||
      failed(checkBroadcastsTo(op, b.shape(), out.shape(), "target")))
    return failure();
  double norm = m.r(reduction == 1 ? 2.0 / static_cast<double>(a.numel()) : 2.0);
  auto sg = broadcastStrides(g.shape(), out.shape());
  auto sa = broadcastStrides(a.shape(), out.shape());
  auto sb = broadcastStrides(b.shape(), out.shape());
  forEachIndex(out.shape(), [&](int64_t linear, ArrayRef<int64_t> index) {
    // self and target are first converted to their common (result) type.
    double d = m.sub(loadAs(a, dot(index, sa), rt), loadAs(b, dot(index, sb), rt));
    out.setF(linear, m.mul(m.mul(norm, d), loadAs(g, dot(index, sg), T)));
  });
  return out;
}

//===----------------------------------------------------------------------===//
// Pointwise backward operators
//===----------------------------------------------------------------------===//

/// Broadcasts (grad_output, saved) to the result and stores
/// fn(m, g, saved) at every position; both are converted to the result type
/// first (their common type).
template <typename OpT, typename Fn>
FailureOr<Tensor> pointwiseBackward(OpT op, Inputs in,
                                    const KernelContext &ctx, Fn fn) {
  const Tensor &g = *in[0];
  const Tensor &s = *in[1];
  Tensor out = ctx.result(op);
  Type rt = out.elementType();
  FloatMath m{accumulationType(rt)};
  auto sg = broadcastStrides(g.shape(), out.shape());
  auto ss = broadcastStrides(s.shape(), out.shape());
  forEachIndex(out.shape(), [&](int64_t linear, ArrayRef<int64_t> index) {
    out.setF(linear, fn(m, loadAs(g, dot(index, sg), rt),
                        loadAs(s, dot(index, ss), rt)));
  });
  return out;
}

FailureOr<Tensor> geluBackward(tp::GeluBackwardOp op, Inputs in,
                               const KernelContext &ctx) {
  if (op.getApproximate() == tp::GeluApproximate::Tanh) {
    return pointwiseBackward(op, in, ctx, [](const FloatMath &m, double g,
                                             double x) {
      const double kBeta = m.r(0.7978845608028654); // sqrt(2 / pi)
      const double kKappa = m.r(0.044715);
      double xSq = m.mul(x, x);
      double xCube = m.mul(xSq, x);
      double inner = m.mul(kBeta, m.add(x, m.mul(kKappa, xCube)));
      double t = m.tanh(inner);
      double left = m.mul(0.5, x);
      double right = m.add(1.0, t);
      double leftD = m.mul(0.5, right);
      double tanhD = m.sub(1.0, m.mul(t, t));
      double innerD =
          m.mul(kBeta, m.add(1.0, m.mul(m.mul(3.0, kKappa), xSq)));
      double rightD = m.mul(m.mul(left, tanhD), innerD);
      return m.mul(g, m.add(leftD, rightD));
    });
  }
  return pointwiseBackward(op, in, ctx, [](const FloatMath &m, double g,
                                           double x) {
    const double kAlpha = m.r(0.7071067811865476); // 1 / sqrt(2)
    const double kBeta = m.r(0.3989422804014327);  // 1 / sqrt(2 pi)
    double cdf = m.mul(0.5, m.add(1.0, m.erf(m.mul(x, kAlpha))));
    double pdf = m.mul(m.exp(m.mul(m.mul(-0.5, x), x)), kBeta);
    return m.mul(g, m.add(cdf, m.mul(x, pdf)));
  });
}

} // namespace

//===----------------------------------------------------------------------===//
// CTC loss: Stax/Support/CTCLoss.h in the result's type (f32 or f64)
//===----------------------------------------------------------------------===//

namespace {

/// The CTC operands as plain arrays of T and int64 (the layouts of
/// CTCLoss.h), owned here; problem() points into them.
template <typename T> struct CTCOperands {
  std::vector<T> logProbs;
  std::vector<int64_t> targets, inputLengths, targetLengths;

  CTCOperands(const Tensor &lp, const Tensor &tg, const Tensor &il,
              const Tensor &tl)
      : logProbs(lp.floatData().begin(), lp.floatData().end()),
        targets(ints(tg)), inputLengths(ints(il)), targetLengths(ints(tl)) {}
  static std::vector<int64_t> ints(const Tensor &t) {
    std::vector<int64_t> v(t.numel());
    for (int64_t i = 0; i < t.numel(); ++i)
      v[i] = t.getI(i);
    return v;
  }
  CTCProblem<T> problem(const Tensor &lp, const Tensor &tg,
                        int64_t blank) const {
    CTCProblem<T> p;
    p.maxTime = lp.dim(0);
    p.batch = lp.dim(1);
    p.classes = lp.dim(2);
    p.maxTarget = tg.dim(1);
    p.logProbs = logProbs.data();
    p.targets = targets.data();
    p.inputLengths = inputLengths.data();
    p.targetLengths = targetLengths.data();
    p.blank = blank;
    return p;
  }
};

/// Checks every sample: a length or target out of range is an error.
template <typename T>
LogicalResult checkCTCSamples(Operation *op, const CTCProblem<T> &p) {
  for (int64_t n = 0; n < p.batch; ++n) {
    CTCBadValue bad{0, 0};
    if (!checkCTCSample(p, n, bad))
      return runtimeError(op, "sample " + Twine(n) + ": " + Twine(bad.value) +
                                  " is out of range [0, " +
                                  Twine(bad.size - 1) +
                                  "] (input length <= T, target length <= "
                                  "S, classes < C)");
  }
  return success();
}

template <typename T>
LogicalResult ctcLossIn(tp::CtcLossOp op, Inputs in,
                        SmallVectorImpl<Tensor> &results,
                        const KernelContext &ctx) {
  CTCOperands<T> ops(*in[0], *in[1], *in[2], *in[3]);
  CTCProblem<T> p =
      ops.problem(*in[0], *in[1], static_cast<int64_t>(op.getBlank()));
  if (failed(checkCTCSamples(op, p)))
    return failure();
  std::vector<T> nll(p.batch), alpha(p.batch * p.maxTime * p.width());
  for (int64_t n = 0; n < p.batch; ++n)
    ctcForwardSample(p, n, nll.data(), alpha.data());
  Tensor nllOut = ctx.result(op, 0), alphaOut = ctx.result(op, 1);
  std::copy(nll.begin(), nll.end(), nllOut.floatData().begin());
  std::copy(alpha.begin(), alpha.end(), alphaOut.floatData().begin());
  results.push_back(std::move(nllOut));
  results.push_back(std::move(alphaOut));
  return success();
}

LogicalResult ctcLoss(tp::CtcLossOp op, Inputs in,
                      SmallVectorImpl<Tensor> &results,
                      const KernelContext &ctx) {
  if (ctx.result(op, 0).elementType().isF32())
    return ctcLossIn<float>(op, in, results, ctx);
  return ctcLossIn<double>(op, in, results, ctx);
}

template <typename T>
FailureOr<Tensor> ctcLossBackwardIn(tp::CtcLossBackwardOp op, Inputs in,
                                    const KernelContext &ctx) {
  CTCOperands<T> ops(*in[1], *in[2], *in[3], *in[4]);
  CTCProblem<T> p =
      ops.problem(*in[1], *in[2], static_cast<int64_t>(op.getBlank()));
  if (failed(checkCTCSamples(op, p)))
    return failure();
  std::vector<T> grad(in[0]->floatData().begin(), in[0]->floatData().end());
  std::vector<T> nll(in[5]->floatData().begin(), in[5]->floatData().end());
  std::vector<T> alpha(in[6]->floatData().begin(), in[6]->floatData().end());
  std::vector<T> beta(p.maxTime * p.width());
  std::vector<T> out(p.maxTime * p.batch * p.classes);
  for (int64_t n = 0; n < p.batch; ++n)
    ctcBackwardSample(p, n, grad.data(), nll.data(), alpha.data(),
                      op.getZeroInfinity(), beta.data(), out.data());
  Tensor result = ctx.result(op);
  std::copy(out.begin(), out.end(), result.floatData().begin());
  return result;
}

FailureOr<Tensor> ctcLossBackward(tp::CtcLossBackwardOp op, Inputs in,
                                  const KernelContext &ctx) {
  if (ctx.result(op).elementType().isF32())
    return ctcLossBackwardIn<float>(op, in, ctx);
  return ctcLossBackwardIn<double>(op, in, ctx);
}

} // namespace

void stax::detail::registerNNKernels(KernelRegistry &registry) {
  using namespace mlir::tp;
  registry.add<SoftmaxOp>([](SoftmaxOp op, Inputs in, const KernelContext &ctx) {
    return softmax(op, in, ctx, /*isLog=*/false);
  });
  registry.add<LogSoftmaxOp>(
      [](LogSoftmaxOp op, Inputs in, const KernelContext &ctx) {
        return softmax(op, in, ctx, /*isLog=*/true);
      });
  registry.add<SoftmaxBackwardDataOp>(
      [](SoftmaxBackwardDataOp op, Inputs in, const KernelContext &ctx) {
        return softmaxBackward(op, in, ctx, /*isLog=*/false);
      });
  registry.add<LogSoftmaxBackwardDataOp>(
      [](LogSoftmaxBackwardDataOp op, Inputs in, const KernelContext &ctx) {
        return softmaxBackward(op, in, ctx, /*isLog=*/true);
      });
  registry.addMulti<NativeLayerNormOp>(nativeLayerNorm);
  registry.addMulti<NativeLayerNormBackwardOp>(nativeLayerNormBackward);
  registry.addMulti<NllLossForwardOp>(nllLossForward);
  registry.add<NllLossBackwardOp>(nllLossBackward);
  registry.add<MseLossOp>(mseLoss);
  registry.add<MseLossBackwardOp>(mseLossBackward);
  registry.addMulti<CtcLossOp>(ctcLoss);
  registry.add<CtcLossBackwardOp>(ctcLossBackward);

  registry.add<GeluBackwardOp>(geluBackward);
  registry.add<ThresholdBackwardOp>(
      [](ThresholdBackwardOp op, Inputs in, const KernelContext &ctx) {
        double threshold = getScalarAsDouble(op.getThreshold());
        return pointwiseBackward(
            op, in, ctx, [threshold](const FloatMath &, double g, double x) {
              return x <= threshold ? 0.0 : g;
            });
      });
  registry.add<TanhBackwardOp>(
      [](TanhBackwardOp op, Inputs in, const KernelContext &ctx) {
        return pointwiseBackward(
            op, in, ctx, [](const FloatMath &m, double g, double y) {
              return m.mul(g, m.sub(1.0, m.mul(y, y)));
            });
      });
  registry.add<SigmoidBackwardOp>(
      [](SigmoidBackwardOp op, Inputs in, const KernelContext &ctx) {
        return pointwiseBackward(
            op, in, ctx, [](const FloatMath &m, double g, double y) {
              return m.mul(m.mul(g, m.sub(1.0, y)), y);
            });
      });
  registry.add<SiluBackwardOp>(
      [](SiluBackwardOp op, Inputs in, const KernelContext &ctx) {
        return pointwiseBackward(
            op, in, ctx, [](const FloatMath &m, double g, double x) {
              double s = m.sigmoid(x);
              return m.mul(g, m.mul(s, m.add(1.0, m.mul(x, m.sub(1.0, s)))));
            });
      });

  registry.addMulti<NativeDropoutOp>([](NativeDropoutOp op, Inputs in,
                                        SmallVectorImpl<Tensor> &results,
                                        const KernelContext &ctx)
                                         -> LogicalResult {
    const Tensor &x = *in[0];
    double p = op.getP().convertToDouble();
    bool keep = !op.getTrain() || p == 0.0;
    if (!keep && p != 1.0)
      return runtimeError(op, "with 0 < p < 1 needs an explicit random "
                              "state, which the reference interpreter does "
                              "not model yet");
    Tensor out = ctx.result(op, 0), mask = ctx.result(op, 1);
    for (int64_t i = 0; i < x.numel(); ++i) {
      if (keep) {
        if (out.isFloat())
          out.setF(i, x.getF(i));
        else
          out.setI(i, x.getI(i));
      }
      mask.setI(i, keep ? 1 : 0);
    }
    results.push_back(std::move(out));
    results.push_back(std::move(mask));
    return success();
  });
  registry.add<NativeDropoutBackwardOp>(
      [](NativeDropoutBackwardOp op, Inputs in,
         const KernelContext &ctx) -> FailureOr<Tensor> {
        const Tensor &g = *in[0];
        const Tensor &mask = *in[1];
        Tensor out = ctx.result(op);
        Type rt = out.elementType();
        FloatMath m{accumulationType(rt)};
        double scale = m.r(op.getScale().convertToDouble());
        for (int64_t i = 0; i < out.numel(); ++i)
          out.setF(i, m.mul(m.mul(loadAs(g, i, rt), mask.getB(i) ? 1.0 : 0.0),
                            scale));
        return out;
      });
}
