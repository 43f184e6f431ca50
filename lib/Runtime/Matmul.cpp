//===- Matmul.cpp - tp.mm and tp.bmm: BLAS and integer loops -------------===//
//
// stax_rt_matmul_<type> (Runtime.h): f32/f64 through cblas_sgemm /
// cblas_dgemm, with subnormal operands read as zero and large products
// split over the OpenMP threads (BlasThreads.h); the integers as a loop
// nest that wraps as eager does.
//
//===----------------------------------------------------------------------===//
#include "BlasThreads.h"
#include "Stax/Runtime/Runtime.h"
#include <algorithm>
#include <atomic>
#include <cblas.h>
#include <cstdint>
#include <cstring>
#include <memory>
#include <utility>
namespace {
CBLAS_TRANSPOSE flag(int64_t t) { return t ? CblasTrans : CblasNoTrans; }
} // namespace

namespace {
/// The integer type of T's bits and the masks of its exponent and fraction.
template <typename T> struct FloatBits;
template <> struct FloatBits<float> {
  using Int = uint32_t;
  static constexpr Int kExponent = 0x7f800000u, kFraction = 0x007fffffu;
};
template <> struct FloatBits<double> {
  using Int = uint64_t;
  static constexpr Int kExponent = 0x7ff0000000000000ull,
                       kFraction = 0x000fffffffffffffull;
};

/// Whether any of the `n` values at `p` is subnormal. Integer tests on
/// the bits (vectorized; subnormal floating-point operands are what is
/// slow) over all of them, without an early exit.
template <typename T> bool anySubnormal(const T *p, int64_t n) {
  using B = FloatBits<T>;
  typename B::Int any = 0;
  for (int64_t i = 0; i < n; ++i) {
    typename B::Int bits;
    std::memcpy(&bits, p + i, sizeof(T));
    any |= (bits & B::kExponent) == 0 ? bits & B::kFraction : 0;
  }
  return any != 0;
}

/// Memory from the runtime's heap (Arena.cpp: large blocks are reused).
struct HeapDeleter {
  void operator()(void *p) const { _mlir_memref_to_llvm_free(p); }
};
template <typename T> using HeapArray = std::unique_ptr<T[], HeapDeleter>;

/// `p`'s values with the subnormal ones replaced by zeros of their sign
/// (null when out of memory).
template <typename T> HeapArray<T> flushSubnormals(const T *p, int64_t n) {
  using B = FloatBits<T>;
  HeapArray<T> out(static_cast<T *>(
      _mlir_memref_to_llvm_aligned_alloc(64, size_t(n) * sizeof(T))));
  if (!out)
    return out;
  for (int64_t i = 0; i < n; ++i) {
    typename B::Int bits;
    std::memcpy(&bits, p + i, sizeof(T));
    if ((bits & B::kExponent) == 0)
      bits &= ~B::kFraction;
    std::memcpy(out.get() + i, &bits, sizeof(T));
  }
  return out;
}

/// Which of two operands (`na` and `nb` values) hold a subnormal number,
/// scanned in `parts` slices of each (on the OpenMP team when it has more
/// than one thread: a serial scan of a 512x1024x1024 product's operands
/// took 0.33 ms, 7 % of the product).
template <typename T> struct SubnormalScan {
  const T *a, *b;
  int64_t na, nb, parts;
  std::atomic<bool> inA{false}, inB{false};

  static void run(void *self, int64_t part) {
    auto &s = *static_cast<SubnormalScan *>(self);
    auto slice = [&](const T *p, int64_t n, std::atomic<bool> &found) {
      int64_t lo = part * n / s.parts, hi = (part + 1) * n / s.parts;
      if (anySubnormal(p + lo, hi - lo))
        found.store(true, std::memory_order_relaxed);
    };
    slice(s.a, s.na, s.inA);
    slice(s.b, s.nb, s.inB);
  }
};

/// Products smaller than this (batch * m * n * k) call BLAS on the
/// operands as they are: the scan would cost more than subnormals can.
constexpr int64_t kMinFlushedProduct = int64_t(1) << 18;

/// Products of at least this many multiply-adds run on the OpenMP team
/// (BlasThreads.h); smaller ones call BLAS once, on the calling thread.
constexpr int64_t kMinTeamProduct = int64_t(1) << 20;
/// Rows (or columns) of C a part computes at least.
constexpr int64_t kMinPartExtent = 16;

/// One row-major product C[b] = op(A[b]) op(B[b]) for b < batch.
template <typename T, typename Gemm> struct Product {
  Gemm gemm;
  int64_t batch, m, n, k, transA, transB;
  const T *a, *b;
  T *c;

  /// C[i] rows [r0, r1) and columns [c0, c1): op(A)'s rows and op(B)'s
  /// columns there, at the full leading dimensions.
  void block(int64_t i, int64_t r0, int64_t r1, int64_t c0, int64_t c1) const {
    const T *pa = a + i * m * k + (transA ? r0 : r0 * k);
    const T *pb = b + i * k * n + (transB ? c0 * k : c0);
    gemm(CblasRowMajor, flag(transA), flag(transB), r1 - r0, c1 - c0, k, T(1),
         pa, transA ? m : k, pb, transB ? k : n, T(0),
         c + i * m * n + r0 * n + c0, n);
  }
};

/// How a product is split into `parts`: whole matrices of the batch, or
/// each matrix's rows, or its columns.
enum class Split { Batch, Rows, Columns };

template <typename T, typename Gemm> struct TeamProduct {
  Product<T, Gemm> product;
  Split split;
  int64_t parts;

  static void run(void *self, int64_t part) {
    auto &job = *static_cast<TeamProduct *>(self);
    const Product<T, Gemm> &p = job.product;
    auto range = [&](int64_t extent) {
      return std::make_pair(part * extent / job.parts,
                            (part + 1) * extent / job.parts);
    };
    if (job.split == Split::Batch) {
      auto [b0, b1] = range(p.batch);
      for (int64_t i = b0; i < b1; ++i)
        p.block(i, 0, p.m, 0, p.n);
      return;
    }
    auto [lo, hi] = range(job.split == Split::Rows ? p.m : p.n);
    for (int64_t i = 0; i < p.batch; ++i) {
      if (job.split == Split::Rows)
        p.block(i, lo, hi, 0, p.n);
      else
        p.block(i, 0, p.m, lo, hi);
    }
  }
};

/// Batched row-major gemm through cblas_sgemm / cblas_dgemm, with
/// subnormal operands read as zero (what x86's DAZ flag does). A
/// subnormal operand costs a microcode assist per instruction on Intel
/// cores: on this project's 2-core Xeon a 1024x512x1024 sgemm took 18 ms,
/// 130 ms with 1 % of one operand subnormal and 980 ms with 10 % (GELU's
/// and sigmoid's gradients underflow into them). Setting DAZ would not
/// help: OpenBLAS's worker threads keep their own MXCSR. Scanning the
/// operands costs one read of each, against the k (or m, n) reads of
/// every element the product makes. A large product runs as one block
/// per OpenMP thread (BlasThreads.h), split along the batch, or the rows
/// or columns of C, whichever has more.
template <typename T, typename Gemm>
void batchedGemm(Gemm gemm, int64_t batch, int64_t m, int64_t n, int64_t k,
                 int64_t transA, int64_t transB, uintptr_t a, uintptr_t bm,
                 uintptr_t c) {
  auto *pa = reinterpret_cast<const T *>(a);
  auto *pb = reinterpret_cast<const T *>(bm);
  int64_t work = batch * m * n * k;
  int64_t team = work >= kMinTeamProduct ? stax::rt::blasTeamSize() : 0;
  HeapArray<T> flushedA, flushedB;
  if (work >= kMinFlushedProduct) {
    SubnormalScan<T> scan{pa, pb, batch * m * k, batch * k * n,
                          std::max<int64_t>(team, 1)};
    if (team > 1)
      stax::rt::runOnBlasTeam(team, SubnormalScan<T>::run, &scan);
    else
      SubnormalScan<T>::run(&scan, 0);
    if (scan.inA && (flushedA = flushSubnormals(pa, batch * m * k)))
      pa = flushedA.get();
    if (scan.inB && (flushedB = flushSubnormals(pb, batch * k * n)))
      pb = flushedB.get();
  }
  Product<T, Gemm> product{gemm,   batch,  m,  n,  k,
                           transA, transB, pa, pb, reinterpret_cast<T *>(c)};
  if (team > 0) {
    TeamProduct<T, Gemm> job{product, Split::Batch, 0};
    if (batch >= team) {
      job.parts = team;
    } else {
      job.split = m >= n ? Split::Rows : Split::Columns;
      int64_t extent = std::max(m, n);
      job.parts = std::max<int64_t>(
          1, std::min<int64_t>(team, extent / kMinPartExtent));
    }
    stax::rt::runOnBlasTeam(job.parts, TeamProduct<T, Gemm>::run, &job);
    return;
  }
  for (int64_t i = 0; i < batch; ++i)
    product.block(i, 0, m, 0, n);
}
} // namespace

void stax_rt_matmul_f32(int64_t batch, int64_t m, int64_t n, int64_t k,
                        int64_t transA, int64_t transB, uintptr_t a,
                        uintptr_t bm, uintptr_t c) {
  batchedGemm<float>(cblas_sgemm, batch, m, n, k, transA, transB, a, bm, c);
}

void stax_rt_matmul_f64(int64_t batch, int64_t m, int64_t n, int64_t k,
                        int64_t transA, int64_t transB, uintptr_t a,
                        uintptr_t bm, uintptr_t c) {
  batchedGemm<double>(cblas_dgemm, batch, m, n, k, transA, transB, a, bm, c);
}

namespace {
/// Batched integer matmul as a loop nest. Products and sums wrap modulo
/// 2^bits, as PyTorch's integer kernels (and the interpreter) do: they are
/// formed in uint64 (no signed overflow) and truncated to T once, which is
/// the same residue. A uint8 matrix multiplies as int8: the same bits.
template <typename T>
void integerGemm(int64_t batch, int64_t m, int64_t n, int64_t k, int64_t transA,
                 int64_t transB, uintptr_t a, uintptr_t bm, uintptr_t c) {
  auto *pa = reinterpret_cast<const T *>(a);
  auto *pb = reinterpret_cast<const T *>(bm);
  auto *pc = reinterpret_cast<T *>(c);
  for (int64_t bi = 0; bi < batch; ++bi) {
    const T *ab = pa + bi * m * k, *bb = pb + bi * k * n;
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j) {
        uint64_t acc = 0;
        for (int64_t r = 0; r < k; ++r)
          acc += uint64_t(int64_t(transA ? ab[r * m + i] : ab[i * k + r])) *
                 uint64_t(int64_t(transB ? bb[j * k + r] : bb[r * n + j]));
        pc[(bi * m + i) * n + j] = T(acc);
      }
  }
}
} // namespace

#define STAX_INTEGER_MATMUL(SUFFIX, T)                                         \
  void stax_rt_matmul_##SUFFIX(int64_t batch, int64_t m, int64_t n, int64_t k, \
                               int64_t transA, int64_t transB, uintptr_t a,    \
                               uintptr_t bm, uintptr_t c) {                    \
    integerGemm<T>(batch, m, n, k, transA, transB, a, bm, c);                  \
  }
STAX_INTEGER_MATMUL(i8, int8_t)
STAX_INTEGER_MATMUL(i16, int16_t)
STAX_INTEGER_MATMUL(i32, int32_t)
STAX_INTEGER_MATMUL(i64, int64_t)
#undef STAX_INTEGER_MATMUL
