/*===- Runtime.h - the functions generated code calls ------------*- C -*-===*\
|*                                                                            *|
|* Code from --stax-to-loops calls these (JIT: the execution engine maps     *|
|* them; ahead of time: link libStaxRuntime). Pointers are passed as         *|
|* integers (memref.extract_aligned_pointer_as_index).                        *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/
#ifndef STAX_RUNTIME_RUNTIME_H
#define STAX_RUNTIME_RUNTIME_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// The heap of generated code (memref.alloc under the memref conversion's
/// use-generic-functions; lib/Runtime/Arena.cpp): blocks of at least 1 MiB
/// are kept for reuse when freed, so a function's arena does not fault its
/// pages in again on every call.
void *_mlir_memref_to_llvm_alloc(size_t size);
void *_mlir_memref_to_llvm_aligned_alloc(size_t alignment, size_t size);
void _mlir_memref_to_llvm_free(void *ptr);
/// The bytes of freed blocks kept for reuse.
size_t stax_rt_arena_cached_bytes(void);
/// Returns every kept block to the system.
void stax_rt_arena_trim(void);

/// c[b] = op(a[b]) @ op(bm[b]) for b < batch into row-major m x n, where
/// op(a) is m x k: `a` row-major m x k, or k x m when `transA` (likewise
/// `bm`: k x n, or n x k when `transB`). BLAS for f32/f64; a plain loop
/// nest for the integers (wrapping; uint8 calls the i8 one: same bits).
void stax_rt_matmul_f32(int64_t batch, int64_t m, int64_t n, int64_t k,
                        int64_t transA, int64_t transB, uintptr_t a,
                        uintptr_t bm, uintptr_t c);
void stax_rt_matmul_f64(int64_t batch, int64_t m, int64_t n, int64_t k,
                        int64_t transA, int64_t transB, uintptr_t a,
                        uintptr_t bm, uintptr_t c);
void stax_rt_matmul_i8(int64_t batch, int64_t m, int64_t n, int64_t k,
                       int64_t transA, int64_t transB, uintptr_t a,
                       uintptr_t bm, uintptr_t c);
void stax_rt_matmul_i16(int64_t batch, int64_t m, int64_t n, int64_t k,
                        int64_t transA, int64_t transB, uintptr_t a,
                        uintptr_t bm, uintptr_t c);
void stax_rt_matmul_i32(int64_t batch, int64_t m, int64_t n, int64_t k,
                        int64_t transA, int64_t transB, uintptr_t a,
                        uintptr_t bm, uintptr_t c);
void stax_rt_matmul_i64(int64_t batch, int64_t m, int64_t n, int64_t k,
                        int64_t transA, int64_t transB, uintptr_t a,
                        uintptr_t bm, uintptr_t c);

/// Sorts each slice of a row-major outer x len x inner tensor `in` along its
/// middle dim, stably, ascending or (`descending` != 0) descending, with
/// NaN larger than every number (tp.sort; Stax/Support/SortOrder.h):
/// `values` gets the sorted elements, `indices` (int64) their positions in
/// the slice. Bools sort as i8 (bytes holding 0 or 1), uint8 as u8.
void stax_rt_sort_f32(int64_t outer, int64_t len, int64_t inner,
                      int64_t descending, uintptr_t in, uintptr_t values,
                      uintptr_t indices);
void stax_rt_sort_f64(int64_t outer, int64_t len, int64_t inner,
                      int64_t descending, uintptr_t in, uintptr_t values,
                      uintptr_t indices);
void stax_rt_sort_i8(int64_t outer, int64_t len, int64_t inner,
                     int64_t descending, uintptr_t in, uintptr_t values,
                     uintptr_t indices);
void stax_rt_sort_u8(int64_t outer, int64_t len, int64_t inner,
                     int64_t descending, uintptr_t in, uintptr_t values,
                     uintptr_t indices);
void stax_rt_sort_i16(int64_t outer, int64_t len, int64_t inner,
                      int64_t descending, uintptr_t in, uintptr_t values,
                      uintptr_t indices);
void stax_rt_sort_i32(int64_t outer, int64_t len, int64_t inner,
                      int64_t descending, uintptr_t in, uintptr_t values,
                      uintptr_t indices);
void stax_rt_sort_i64(int64_t outer, int64_t len, int64_t inner,
                      int64_t descending, uintptr_t in, uintptr_t values,
                      uintptr_t indices);

/// The CTC loss (tp.ctc_loss; Stax/Support/CTCLoss.h, eager's algorithm) of
/// samples [first, first + count) of a problem of T frames, N samples, C
/// classes and padded targets of S labels: `nll` [N] and `log_alpha`
/// [N, T, 2S + 1]. A length or label out of range is an index error at
/// `site` (nothing is written for that sample).
void stax_rt_ctc_loss_f32(int64_t time, int64_t batch, int64_t classes,
                          int64_t maxTarget, int64_t blank, int64_t first,
                          int64_t count, int64_t site, uintptr_t logProbs,
                          uintptr_t targets, uintptr_t inputLengths,
                          uintptr_t targetLengths, uintptr_t nll,
                          uintptr_t logAlpha);
void stax_rt_ctc_loss_f64(int64_t time, int64_t batch, int64_t classes,
                          int64_t maxTarget, int64_t blank, int64_t first,
                          int64_t count, int64_t site, uintptr_t logProbs,
                          uintptr_t targets, uintptr_t inputLengths,
                          uintptr_t targetLengths, uintptr_t nll,
                          uintptr_t logAlpha);
/// Its gradient (tp.ctc_loss_backward) for the same samples: `grad`
/// [T, N, C] from `gradNll` [N] and the forward's results.
void stax_rt_ctc_loss_backward_f32(int64_t time, int64_t batch, int64_t classes,
                                   int64_t maxTarget, int64_t blank,
                                   int64_t zeroInfinity, int64_t first,
                                   int64_t count, int64_t site,
                                   uintptr_t gradNll, uintptr_t logProbs,
                                   uintptr_t targets, uintptr_t inputLengths,
                                   uintptr_t targetLengths, uintptr_t nll,
                                   uintptr_t logAlpha, uintptr_t grad);
void stax_rt_ctc_loss_backward_f64(int64_t time, int64_t batch, int64_t classes,
                                   int64_t maxTarget, int64_t blank,
                                   int64_t zeroInfinity, int64_t first,
                                   int64_t count, int64_t site,
                                   uintptr_t gradNll, uintptr_t logProbs,
                                   uintptr_t targets, uintptr_t inputLengths,
                                   uintptr_t targetLengths, uintptr_t nll,
                                   uintptr_t logAlpha, uintptr_t grad);

/// The first k of stax_rt_sort_*'s order in each slice (tp.topk):
/// `values` and `indices` are outer x k x inner. A partial sort, ties
/// broken by position, so they are the sort's first k exactly.
void stax_rt_topk_f32(int64_t outer, int64_t len, int64_t inner, int64_t k,
                      int64_t descending, uintptr_t in, uintptr_t values,
                      uintptr_t indices);
void stax_rt_topk_f64(int64_t outer, int64_t len, int64_t inner, int64_t k,
                      int64_t descending, uintptr_t in, uintptr_t values,
                      uintptr_t indices);
void stax_rt_topk_i8(int64_t outer, int64_t len, int64_t inner, int64_t k,
                     int64_t descending, uintptr_t in, uintptr_t values,
                     uintptr_t indices);
void stax_rt_topk_u8(int64_t outer, int64_t len, int64_t inner, int64_t k,
                     int64_t descending, uintptr_t in, uintptr_t values,
                     uintptr_t indices);
void stax_rt_topk_i16(int64_t outer, int64_t len, int64_t inner, int64_t k,
                      int64_t descending, uintptr_t in, uintptr_t values,
                      uintptr_t indices);
void stax_rt_topk_i32(int64_t outer, int64_t len, int64_t inner, int64_t k,
                      int64_t descending, uintptr_t in, uintptr_t values,
                      uintptr_t indices);
void stax_rt_topk_i64(int64_t outer, int64_t len, int64_t inner, int64_t k,
                      int64_t descending, uintptr_t in, uintptr_t values,
                      uintptr_t indices);

/// The scalar special functions of stax.special_function, one per kind and
/// type: the definitions of Stax/Support/SpecialFunctions.h that the
/// interpreter uses (the f32 versions compute in double and round once), so
/// that compiled code and the interpreter agree bitwise. `polygamma` takes
/// its order n >= 0 first.
float stax_rt_lgamma_f32(float x);
double stax_rt_lgamma_f64(double x);
float stax_rt_digamma_f32(float x);
double stax_rt_digamma_f64(double x);
float stax_rt_polygamma_f32(int64_t n, float x);
double stax_rt_polygamma_f64(int64_t n, double x);
float stax_rt_erfinv_f32(float x);
double stax_rt_erfinv_f64(double x);
float stax_rt_ndtri_f32(float x);
double stax_rt_ndtri_f64(double x);
float stax_rt_erfcx_f32(float x);
double stax_rt_erfcx_f64(double x);
float stax_rt_nextafter_f32(float from, float to);
double stax_rt_nextafter_f64(double from, double to);
float stax_rt_frexp_mantissa_f32(float x);
double stax_rt_frexp_mantissa_f64(double x);
int32_t stax_rt_frexp_exponent_f32(float x);
int32_t stax_rt_frexp_exponent_f64(double x);

/// The kinds of run-time errors that stax_rt_take_error returns.
enum {
  STAX_RT_INDEX_ERROR = 1,
  STAX_RT_NAN_ERROR = 2,
  STAX_RT_DIVISION_ERROR = 3
};

/// A run-time check failed at error site `site` (an index into the module's
/// stax.error_sites): `value` is outside [0, size). The first error of a
/// call is kept; the caller reads it with stax_rt_take_error.
void stax_rt_index_error(int64_t site, int64_t value, int64_t size);

/// A node compiled with check-nan is about to store a NaN as element
/// `position` of its result's storage (-1: unknown); `site` names the node.
/// Recorded like stax_rt_index_error (the first error of a call wins).
void stax_rt_nan_error(int64_t site, int64_t position);

/// An integer division or remainder at error site `site` had a zero
/// divisor (PyTorch's ZeroDivisionError). Recorded like stax_rt_index_error.
void stax_rt_division_error(int64_t site);

/// Returns the kind of the first recorded error since the last call
/// (STAX_RT_INDEX_ERROR: `value` outside [0, `size`); STAX_RT_NAN_ERROR:
/// `value` is the position, `size` is 0; STAX_RT_DIVISION_ERROR: both 0)
/// and its fields, or 0 when none.
int stax_rt_take_error(int64_t *site, int64_t *value, int64_t *size);

/// Profiling (--stax-to-loops profile=true): a monotonic clock in
/// nanoseconds, and one run of a node: `name` (`length` bytes, no NUL) ran
/// from `start` until now and its ideal traffic is `bytes`.
int64_t stax_rt_clock_ns(void);
void stax_rt_profile_record(uintptr_t name, int64_t length, int64_t start,
                            int64_t bytes);
/// The runs recorded since the last call, one line per name: "name\tcalls\t
/// total ns\tfastest ns\tbytes\n" (in first-run order); the caller frees the
/// malloc'ed string.
char *stax_rt_take_profile(void);

#ifdef __cplusplus
}
#endif

#endif /* STAX_RUNTIME_RUNTIME_H */
