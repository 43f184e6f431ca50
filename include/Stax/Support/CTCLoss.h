//===- CTCLoss.h - connectionist temporal classification ---------*- C++
//-*-===//
//
// The forward (alpha) and backward (beta) recursions of the CTC loss, as
// eager's CPU kernels compute them (ATen's LossCTC.cpp: the same operations
// in the same order and type), shared by the interpreter's tp.ctc_loss /
// tp.ctc_loss_backward kernels and the runtime's stax_rt_ctc_loss_* so that
// compiled code and the interpreter agree with eager bit for bit. Plain C++:
// the runtime links no LLVM.
//
// Layouts (row-major, contiguous): log_probs [T, N, C], targets [N, S]
// (padded), lengths [N], nll [N], log_alpha [N, T, 2S + 1], grad [T, N, C].
// A sample's extended labels are blank, l1, blank, l2, ..., blank.
//
//===----------------------------------------------------------------------===//
#ifndef STAX_SUPPORT_CTCLOSS_H
#define STAX_SUPPORT_CTCLOSS_H

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

namespace mlir::stax {

/// The sizes and operands of one CTC problem.
template <typename T> struct CTCProblem {
  int64_t maxTime = 0, batch = 0, classes = 0, maxTarget = 0; // T, N, C, S
  const T *logProbs = nullptr;
  const int64_t *targets = nullptr;
  const int64_t *inputLengths = nullptr;
  const int64_t *targetLengths = nullptr;
  int64_t blank = 0;

  int64_t width() const { return 2 * maxTarget + 1; }
  T lp(int64_t t, int64_t n, int64_t c) const {
    return logProbs[(t * batch + n) * classes + c];
  }
  /// The label of extended position s of sample n.
  int64_t label(int64_t n, int64_t s) const {
    return s % 2 == 0 ? blank : targets[n * maxTarget + s / 2];
  }
};

/// An operand value outside its range: `value` is not in [0, size).
struct CTCBadValue {
  int64_t value, size;
};

/// Checks sample n's lengths (input length in [0, T], target length in
/// [0, S]) and the labels it reads (in [0, C)); false with the offending
/// value otherwise.
template <typename T>
bool checkCTCSample(const CTCProblem<T> &p, int64_t n, CTCBadValue &bad) {
  int64_t in = p.inputLengths[n], tl = p.targetLengths[n];
  if (in < 0 || in > p.maxTime) {
    bad = {in, p.maxTime + 1};
    return false;
  }
  if (tl < 0 || tl > p.maxTarget) {
    bad = {tl, p.maxTarget + 1};
    return false;
  }
  for (int64_t j = 0; j < tl; ++j) {
    int64_t c = p.targets[n * p.maxTarget + j];
    if (c < 0 || c >= p.classes) {
      bad = {c, p.classes};
      return false;
    }
  }
  return true;
}

/// log(exp(a - m) + exp(b - m) + exp(c - m)) + m, m the largest (0 when
/// all are -inf), in eager's order of operations.
template <typename T> T ctcLogAdd3(T a, T b, T c) {
  constexpr T negInf = -std::numeric_limits<T>::infinity();
  T m = a;
  if (b > m)
    m = b;
  if (c > m)
    m = c;
  if (m == negInf)
    m = 0;
  return std::log(std::exp(a - m) + std::exp(b - m) + std::exp(c - m)) + m;
}

/// Sample n's negative log likelihood and log_alpha rows [T, 2S + 1]
/// (-inf outside the sample's lengths). The sample must pass
/// checkCTCSample.
template <typename T>
void ctcForwardSample(const CTCProblem<T> &p, int64_t n, T *nll, T *logAlpha) {
  constexpr T negInf = -std::numeric_limits<T>::infinity();
  int64_t w = p.width();
  T *alpha = logAlpha + n * p.maxTime * w;
  std::fill(alpha, alpha + p.maxTime * w, negInf);
  int64_t in = p.inputLengths[n], tl = p.targetLengths[n];
  if (in == 0) {
    nll[n] = tl == 0 ? T(0) : -negInf;
    return;
  }
  alpha[0] = p.lp(0, n, p.blank);
  if (tl > 0)
    alpha[1] = p.lp(0, n, p.label(n, 1));
  for (int64_t t = 1; t < in; ++t) {
    const T *prev = alpha + (t - 1) * w;
    T *cur = alpha + t * w;
    for (int64_t s = 0; s < 2 * tl + 1; ++s) {
      int64_t l = p.label(n, s);
      T a2 = s > 0 ? prev[s - 1] : negInf;
      T a3 = s > 1 && p.label(n, s - 2) != l ? prev[s - 2] : negInf;
      cur[s] = ctcLogAdd3(prev[s], a2, a3) + p.lp(t, n, l);
    }
  }
  const T *last = alpha + (in - 1) * w;
  if (tl == 0) {
    nll[n] = -last[0];
    return;
  }
  T l1 = last[2 * tl], l2 = last[2 * tl - 1];
  T m = std::max(l1, l2);
  m = m == negInf ? T(0) : m;
  nll[n] = -(std::log(std::exp(l1 - m) + std::exp(l2 - m)) + m);
}

/// Sample n's slice of the gradient of nll[n] * gradNll[n] with respect to
/// log_probs, eager's formula exp(lp) - exp(log(alpha beta) + nll - lp)
/// (the gradient with respect to the logits of a log_softmax; eager's
/// autograd uses it as log_probs' gradient). Zero after the input length,
/// and everywhere when zeroInfinity and the loss is infinite. `logBeta` is
/// scratch of [T, 2S + 1].
template <typename T>
void ctcBackwardSample(const CTCProblem<T> &p, int64_t n, const T *gradNll,
                       const T *nll, const T *logAlpha, bool zeroInfinity,
                       T *logBeta, T *grad) {
  constexpr T negInf = -std::numeric_limits<T>::infinity();
  int64_t w = p.width(), c = p.classes;
  auto g = [&](int64_t t, int64_t k) -> T & {
    return grad[(t * p.batch + n) * c + k];
  };
  T loss = nll[n];
  if (zeroInfinity && loss == std::numeric_limits<T>::infinity()) {
    for (int64_t t = 0; t < p.maxTime; ++t)
      for (int64_t k = 0; k < c; ++k)
        g(t, k) = 0;
    return;
  }
  const T *alpha = logAlpha + n * p.maxTime * w;
  std::fill(logBeta, logBeta + p.maxTime * w, negInf);
  for (int64_t t = 0; t < p.maxTime; ++t)
    for (int64_t k = 0; k < c; ++k)
      g(t, k) = negInf;
  int64_t in = p.inputLengths[n], tl = p.targetLengths[n];
  if (in > 0) {
    int64_t t = in - 1;
    logBeta[t * w + 2 * tl] = p.lp(t, n, p.blank);
    g(t, p.blank) = alpha[t * w + 2 * tl] + logBeta[t * w + 2 * tl];
    if (tl > 0) {
      int64_t l = p.label(n, 2 * tl - 1);
      logBeta[t * w + 2 * tl - 1] = p.lp(t, n, l);
      g(t, l) = alpha[t * w + 2 * tl - 1] + logBeta[t * w + 2 * tl - 1];
    }
  }
  for (int64_t t = in - 2; t >= 0; --t) {
    const T *next = logBeta + (t + 1) * w;
    for (int64_t s = 2 * tl; s >= 0; --s) {
      int64_t l = p.label(n, s);
      T b2 = s < 2 * tl ? next[s + 1] : negInf;
      T b3 = s < 2 * tl - 1 && p.label(n, s + 2) != l ? next[s + 2] : negInf;
      T beta = ctcLogAdd3(next[s], b2, b3) + p.lp(t, n, l);
      logBeta[t * w + s] = beta;
      T alphaBeta = alpha[t * w + s] + beta;
      T &lcab = g(t, l);
      if (lcab == negInf) {
        lcab = alphaBeta;
      } else {
        T m = std::max(lcab, alphaBeta);
        lcab = std::log(std::exp(lcab - m) + std::exp(alphaBeta - m)) + m;
      }
    }
  }
  T gr = gradNll[n];
  for (int64_t t = 0; t < in; ++t)
    for (int64_t k = 0; k < c; ++k) {
      T &res = g(t, k);
      T lp = p.lp(t, n, k);
      res = (std::exp(lp) - std::exp(res + loss - lp)) * gr;
    }
  for (int64_t t = in; t < p.maxTime; ++t)
    for (int64_t k = 0; k < c; ++k)
      g(t, k) = 0;
}

} // namespace mlir::stax

#endif // STAX_SUPPORT_CTCLOSS_H
