//===- Runtime.cpp - the functions generated code calls -------------------===//
#include "Stax/Runtime/Runtime.h"
#include "Stax/Support/CTCLoss.h"
#include "Stax/Support/SortOrder.h"
#include <atomic>
#include <cstdint>
#include <vector>

namespace {
struct ErrorState {
  std::atomic<bool> set{false};
  int kind = 0;
  int64_t site = 0, value = 0, size = 0;
};
ErrorState errorState;

/// Keeps the first error of a call: threads of a parallel loop race here,
/// and only the one that sets the flag writes the fields.
void recordError(int kind, int64_t site, int64_t value, int64_t size) {
  bool expected = false;
  if (errorState.set.compare_exchange_strong(expected, true)) {
    errorState.kind = kind;
    errorState.site = site;
    errorState.value = value;
    errorState.size = size;
  }
}
} // namespace


namespace {
/// Sorts every slice (`len` elements `inner` apart) of an outer x len x
/// inner row-major tensor, keeping the first `k` of each (`values` and
/// `indices` are outer x k x inner): the keys are copied out so that a
/// slice along an outer dim is sorted in contiguous memory; k < len takes
/// a partial sort.
template <typename T>
void sortSlices(int64_t outer, int64_t len, int64_t inner, int64_t k,
                int64_t descending, uintptr_t in, uintptr_t values,
                uintptr_t indices) {
  auto *x = reinterpret_cast<const T *>(in);
  auto *v = reinterpret_cast<T *>(values);
  auto *idx = reinterpret_cast<int64_t *>(indices);
  // Per-thread scratch, kept across calls: a parallel sort calls this once
  // per slice, and a fresh zeroed buffer per call cost more than the
  // selection itself.
  thread_local std::vector<T> copied;
  thread_local std::vector<int64_t> perm;
  if (static_cast<int64_t>(perm.size()) < len)
    perm.resize(len);
  if (inner > 1 && static_cast<int64_t>(copied.size()) < len)
    copied.resize(len);
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t i = 0; i < inner; ++i) {
      int64_t base = o * len * inner + i, outBase = o * k * inner + i;
      // A contiguous slice is read in place.
      const T *keys = x + base;
      if (inner > 1) {
        for (int64_t j = 0; j < len; ++j)
          copied[j] = x[base + j * inner];
        keys = copied.data();
      }
      if (k < len)
        mlir::stax::partialSortPermutation(keys, len, k, descending != 0,
                                           perm.data());
      else
        mlir::stax::radixSortPermutation(keys, len, descending != 0,
                                         perm.data());
      for (int64_t j = 0; j < k; ++j) {
        v[outBase + j * inner] = keys[perm[j]];
        idx[outBase + j * inner] = perm[j];
      }
    }
}
} // namespace

// One C entry point per element type, each the template on that type.
#define STAX_RT_SORT(SUFFIX, T)                                                \
  void stax_rt_sort_##SUFFIX(int64_t outer, int64_t len, int64_t inner,        \
                             int64_t descending, uintptr_t in,                 \
                             uintptr_t values, uintptr_t indices) {            \
    sortSlices<T>(outer, len, inner, len, descending, in, values, indices);    \
  }                                                                            \
  void stax_rt_topk_##SUFFIX(int64_t outer, int64_t len, int64_t inner,        \
                             int64_t k, int64_t descending, uintptr_t in,      \
                             uintptr_t values, uintptr_t indices) {            \
    sortSlices<T>(outer, len, inner, k, descending, in, values, indices);      \
  }
STAX_RT_SORT(f32, float)
STAX_RT_SORT(f64, double)
STAX_RT_SORT(i8, int8_t)
STAX_RT_SORT(u8, uint8_t)
STAX_RT_SORT(i16, int16_t)
STAX_RT_SORT(i32, int32_t)
STAX_RT_SORT(i64, int64_t)
#undef STAX_RT_SORT

namespace {
template <typename T>
mlir::stax::CTCProblem<T>
ctcProblem(int64_t time, int64_t batch, int64_t classes, int64_t maxTarget,
           int64_t blank, uintptr_t logProbs, uintptr_t targets,
           uintptr_t inputLengths, uintptr_t targetLengths) {
  mlir::stax::CTCProblem<T> p;
  p.maxTime = time;
  p.batch = batch;
  p.classes = classes;
  p.maxTarget = maxTarget;
  p.blank = blank;
  p.logProbs = reinterpret_cast<const T *>(logProbs);
  p.targets = reinterpret_cast<const int64_t *>(targets);
  p.inputLengths = reinterpret_cast<const int64_t *>(inputLengths);
  p.targetLengths = reinterpret_cast<const int64_t *>(targetLengths);
  return p;
}

/// True when sample n is in range; records an index error otherwise.
template <typename T>
bool ctcSampleIsValid(const mlir::stax::CTCProblem<T> &p, int64_t n,
                      int64_t site) {
  mlir::stax::CTCBadValue bad{0, 0};
  if (mlir::stax::checkCTCSample(p, n, bad))
    return true;
  recordError(STAX_RT_INDEX_ERROR, site, bad.value, bad.size);
  return false;
}

template <typename T>
void ctcLoss(int64_t time, int64_t batch, int64_t classes, int64_t maxTarget,
             int64_t blank, int64_t first, int64_t count, int64_t site,
             uintptr_t logProbs, uintptr_t targets, uintptr_t inputLengths,
             uintptr_t targetLengths, uintptr_t nll, uintptr_t logAlpha) {
  auto p = ctcProblem<T>(time, batch, classes, maxTarget, blank, logProbs,
                         targets, inputLengths, targetLengths);
  for (int64_t n = first; n < first + count; ++n)
    if (ctcSampleIsValid(p, n, site))
      mlir::stax::ctcForwardSample(p, n, reinterpret_cast<T *>(nll),
                                   reinterpret_cast<T *>(logAlpha));
}

template <typename T>
void ctcLossBackward(int64_t time, int64_t batch, int64_t classes,
                     int64_t maxTarget, int64_t blank, int64_t zeroInfinity,
                     int64_t first, int64_t count, int64_t site,
                     uintptr_t gradNll, uintptr_t logProbs, uintptr_t targets,
                     uintptr_t inputLengths, uintptr_t targetLengths,
                     uintptr_t nll, uintptr_t logAlpha, uintptr_t grad) {
  auto p = ctcProblem<T>(time, batch, classes, maxTarget, blank, logProbs,
                         targets, inputLengths, targetLengths);
  // log_beta of one sample at a time, reused across calls of this thread.
  thread_local std::vector<T> logBeta;
  logBeta.resize(static_cast<size_t>(time * p.width()));
  for (int64_t n = first; n < first + count; ++n)
    if (ctcSampleIsValid(p, n, site))
      mlir::stax::ctcBackwardSample(p, n, reinterpret_cast<const T *>(gradNll),
                                    reinterpret_cast<const T *>(nll),
                                    reinterpret_cast<const T *>(logAlpha),
                                    zeroInfinity != 0, logBeta.data(),
                                    reinterpret_cast<T *>(grad));
}
} // namespace

#define STAX_RT_CTC(SUFFIX, T)                                                 \
  void stax_rt_ctc_loss_##SUFFIX(                                              \
      int64_t time, int64_t batch, int64_t classes, int64_t maxTarget,         \
      int64_t blank, int64_t first, int64_t count, int64_t site,               \
      uintptr_t logProbs, uintptr_t targets, uintptr_t inputLengths,           \
      uintptr_t targetLengths, uintptr_t nll, uintptr_t logAlpha) {            \
    ctcLoss<T>(time, batch, classes, maxTarget, blank, first, count, site,     \
               logProbs, targets, inputLengths, targetLengths, nll, logAlpha); \
  }                                                                            \
  void stax_rt_ctc_loss_backward_##SUFFIX(                                     \
      int64_t time, int64_t batch, int64_t classes, int64_t maxTarget,         \
      int64_t blank, int64_t zeroInfinity, int64_t first, int64_t count,       \
      int64_t site, uintptr_t gradNll, uintptr_t logProbs, uintptr_t targets,  \
      uintptr_t inputLengths, uintptr_t targetLengths, uintptr_t nll,          \
      uintptr_t logAlpha, uintptr_t grad) {                                    \
    ctcLossBackward<T>(time, batch, classes, maxTarget, blank, zeroInfinity,   \
                       first, count, site, gradNll, logProbs, targets,         \
                       inputLengths, targetLengths, nll, logAlpha, grad);      \
  }
STAX_RT_CTC(f32, float)
STAX_RT_CTC(f64, double)
#undef STAX_RT_CTC

void stax_rt_index_error(int64_t site, int64_t value, int64_t size) {
  recordError(STAX_RT_INDEX_ERROR, site, value, size);
}

void stax_rt_nan_error(int64_t site, int64_t position) {
  recordError(STAX_RT_NAN_ERROR, site, position, 0);
}

void stax_rt_division_error(int64_t site) {
  recordError(STAX_RT_DIVISION_ERROR, site, 0, 0);
}

int stax_rt_take_error(int64_t *site, int64_t *value, int64_t *size) {
  if (!errorState.set.load())
    return 0;
  *site = errorState.site;
  *value = errorState.value;
  *size = errorState.size;
  errorState.set.store(false);
  return errorState.kind;
}
