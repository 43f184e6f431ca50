//===- Pipelines.h - named pass pipelines of Stax ---------------*- C++ -*-===//
//
// One options struct per pipeline, so that the C++ entry point that other
// MLIR compilers embed and the `stax-opt --stax-lowering-pipeline="..."`
// flags mean the same thing.
//
//===----------------------------------------------------------------------===//
#ifndef STAX_PIPELINES_PIPELINES_H
#define STAX_PIPELINES_PIPELINES_H

#include "Stax/Conversion/MathKernels.h"
#include "Stax/Conversion/VectorMathLibrary.h"
#include "Stax/Support/Target.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"

namespace mlir::stax {

struct LoweringPipelineOptions
    : public mlir::PassPipelineOptions<LoweringPipelineOptions> {
  Option<Target> target{
      *this, "target",
      llvm::cl::desc("Materialization and reduction-split thresholds "
                     "(default: cpu)"),
      llvm::cl::init(Target::CPU), targetOptionValues()};
  Option<bool> decompose{*this, "decompose",
                         llvm::cl::desc("Expand composite ops first "
                                        "(--stax-decompose) (default: true)"),
                         llvm::cl::init(true)};
  Option<bool> welford{
      *this, "welford",
      llvm::cl::desc("Lower tp.var as one Welford pass (class 2, not "
                     "bitwise) (default: false)"),
      llvm::cl::init(false)};
  Option<bool> strict{
      *this, "strict",
      llvm::cl::desc("Fail on ops without a lowering rule (default: false)"),
      llvm::cl::init(false)};
  Option<bool> splitReductions{
      *this, "split-reductions",
      llvm::cl::desc("Split long reductions into partials "
                     "(--stax-split-reductions; class 2: reorders sums, so "
                     "false keeps every value bitwise equal to tp's) "
                     "(default: true)"),
      llvm::cl::init(true)};
  Option<bool> fuse{
      *this, "fuse",
      llvm::cl::desc("Group nodes into kernels (--stax-fuse) (default: true)"),
      llvm::cl::init(true)};
  Option<bool> remarks{*this, "remarks",
                       llvm::cl::desc("Remarks for materialization and "
                                      "fusion decisions (default: false)"),
                       llvm::cl::init(false)};
  Option<int64_t> smCount{
      *this, "sm-count",
      llvm::cl::desc("GPU streaming multiprocessors (default: 132)"),
      llvm::cl::init(132)};
  Option<int64_t> warpSize{*this, "warp-size",
                           llvm::cl::desc("GPU warp width (default: 32)"),
                           llvm::cl::init(32)};
  Option<int64_t> threadsPerSM{
      *this, "threads-per-sm",
      llvm::cl::desc("GPU resident threads per SM (default: 2048)"),
      llvm::cl::init(2048)};

  /// The first value the option parser accepts but the pipeline cannot
  /// use (`sm-count=0`), as "option=value: what it must be"; "" if none.
  /// Pipelines check it before they are built, not after lowering.
  std::string firstInvalidValue() const;
};

/// The whole compiler, tp to the LLVM dialect: the lowering pipeline's
/// options plus code generation's. `stax-opt --stax-pipeline="..."` and
/// buildPipeline() read the same struct.
struct PipelineOptions : public LoweringPipelineOptions {
  Option<bool> parallel{*this, "parallel",
                        llvm::cl::desc("Run the outer loops of large nodes "
                                       "on OpenMP threads (default: true)"),
                        llvm::cl::init(true)};
  Option<int64_t> grain{*this, "grain",
                        llvm::cl::desc("Fewest units of work for a node to "
                                       "run in parallel: body evaluations, a "
                                       "transcendental function counting one "
                                       "more (default: 32768)"),
                        llvm::cl::init(32768)};
  Option<int64_t> callGrain{
      *this, "call-grain",
      llvm::cl::desc(
          "target=cpu: a function whose ops do fewer units of "
          "work (as for grain) in all runs every loop serially (waking "
          "sleeping OpenMP workers costs more); 0: by grain "
          "alone (default: 262144)"),
      llvm::cl::init(262144)};
  Option<int64_t> vectorWidth{
      *this, "vector-width",
      llvm::cl::desc("Lanes of vectorized innermost loops (0: the host's, "
                     "16 f32 lanes with AVX-512; 1: no vectorization) "
                     "(default: 0)"),
      llvm::cl::init(0)};
  Option<int64_t> interleave{
      *this, "interleave",
      llvm::cl::desc("target=cpu: vectors of a long pointwise body "
                     "evaluated side by side; 1: one (default: 8)"),
      llvm::cl::init(8)};
  Option<int64_t> nontemporalBytes{
      *this, "nontemporal-bytes",
      llvm::cl::desc("target=cpu: store pointwise results of at least this "
                     "many bytes with non-temporal stores; 0 never "
                     "(default: 33554432, 32 MiB)"),
      llvm::cl::init(int64_t(32) << 20)};
  Option<std::string> chip{
      *this, "chip",
      llvm::cl::desc("target=cuda: the GPU architecture (default: sm_90)"),
      llvm::cl::init("sm_90")};
  Option<std::string> ptxFeatures{
      *this, "ptx-features",
      llvm::cl::desc("target=cuda: PTX features (+ptx80: sm_90 needs PTX 8) "
                     "(default: +ptx80)"),
      llvm::cl::init("+ptx80")};
  Option<int64_t> threadsPerBlock{
      *this, "threads-per-block",
      llvm::cl::desc("target=cuda: threads per block (default: 256)"),
      llvm::cl::init(256)};
  Option<std::string> libdevice{
      *this, "libdevice",
      llvm::cl::desc("target=cuda: libdevice bitcode for math functions "
                     "(default: "
                     "/usr/local/cuda/nvvm/libdevice/libdevice.10.bc)"),
      llvm::cl::init("/usr/local/cuda/nvvm/libdevice/libdevice.10.bc")};
  Option<bool> approximateMath{
      *this, "approximate-math",
      llvm::cl::desc("Vectorizable exp/log/tanh/erf/... for f32 "
                     "(--stax-approximate-math, math-kernels) and f64 "
                     "vectors (vector-math) instead of libm, which "
                     "false keeps everywhere (default: true)"),
      llvm::cl::init(true)};
  Option<MathKernels> mathKernels{
      *this, "math-kernels",
      llvm::cl::desc("With approximate-math: f32 (within 1 ulp), f64 "
                     "(within 0.5 ulp, about half the throughput) or "
                     "upstream (upstream's f32 polynomials, 2 to 5 ulp) "
                     "(default: f32)"),
      llvm::cl::init(MathKernels::F32),
      llvm::cl::values(
          clEnumValN(MathKernels::F32, "f32", "f32 kernels within 1 ulp"),
          clEnumValN(MathKernels::F64, "f64", "float64 kernels within 0.5 ulp"),
          clEnumValN(MathKernels::Upstream, "upstream",
                     "upstream's f32 polynomials, 2 to 5 ulp"))};
  Option<VectorMathLibrary> vectorMath{
      *this, "vector-math",
      llvm::cl::desc("With approximate-math: f64 log, log1p, pow, ... on "
                     "vectors through glibc's libmvec (within 2 ulp), exp, "
                     "expm1, tanh, sin, cos, tan, asin, acos, atan, atan2, "
                     "erf and erfc through kernels (within 1 ulp) "
                     "(--stax-vector-math-calls): auto (the host's widest "
                     "libmvec), none (libm per lane), avx2 or avx512 "
                     "(default: auto)"),
      llvm::cl::init(VectorMathLibrary::Auto),
      llvm::cl::values(
          clEnumValN(VectorMathLibrary::Auto, "auto",
                     "the host's widest variant"),
          clEnumValN(VectorMathLibrary::None, "none", "libm per lane"),
          clEnumValN(VectorMathLibrary::AVX2, "avx2",
                     "_ZGVdN4v_ functions, 4 lanes"),
          clEnumValN(VectorMathLibrary::AVX512, "avx512",
                     "_ZGVeN8v_ functions, 8 lanes"))};
  Option<bool> checkNan{
      *this, "check-nan",
      llvm::cl::desc("Check every floating-point value a node stores: a NaN "
                     "is a run-time error naming the node, its location and "
                     "the element (target=cuda: a device assertion) "
                     "(default: false)"),
      llvm::cl::init(false)};
  Option<bool> profile{
      *this, "profile",
      llvm::cl::desc("target=cpu: time every node, kernel and runtime call; "
                     "stax.cpu_take_profile() / staxCpuTakeProfile read the "
                     "times and ideal bytes (default: false)"),
      llvm::cl::init(false)};

  /// LoweringPipelineOptions::firstInvalidValue, and code generation's
  /// (`vector-width=-1`, `chip=sm_xx`).
  std::string firstInvalidValue() const;
};

/// tp (or lowered stax) -> the LLVM dialect for `options.target`; for
/// cuda, host functions in the LLVM dialect that call the CUDA launcher's
/// mgpu* functions (Stax/Runtime/CudaLauncher.h) on device pointers, and a
/// gpu.binary holding the kernels' PTX.
/// For cpu:
/// buildLoweringPipeline, --stax-to-loops, then upstream conversions
/// (affine, scf -> OpenMP, vector, memref, math, arith, cf, func with
/// bare-pointer memref arguments) to LLVM. Functions take their inputs
/// then one buffer per result (see --stax-to-loops).
void buildPipeline(mlir::OpPassManager &pm, const PipelineOptions &options);

/// Only the code generation half: lowered stax -> the LLVM dialect.
void buildCodegenPipeline(mlir::OpPassManager &pm,
                          const PipelineOptions &options);

/// tp -> stax and the scheduling passes: --stax-decompose, then on every
/// function --stax-lower, --stax-split-reductions, --stax-fuse,
/// --stax-normalize-loops and --stax-range-analysis.
void buildLoweringPipeline(mlir::OpPassManager &pm,
                           const LoweringPipelineOptions &options);

/// Registers `--stax-lowering-pipeline` and `--stax-pipeline` with stax-opt.
void registerPipelines();

} // namespace mlir::stax

#endif // STAX_PIPELINES_PIPELINES_H
