//===- Pipelines.h - named pass pipelines of Stax ---------------*- C++ -*-===//
//
// One options struct per pipeline, so that the C++ entry point that other
// MLIR compilers embed and the `stax-opt --stax-lowering-pipeline="..."`
// flags mean the same thing.
//
//===----------------------------------------------------------------------===//
#ifndef STAX_PIPELINES_PIPELINES_H
#define STAX_PIPELINES_PIPELINES_H

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"
#include "Stax/Support/Target.h"

namespace mlir::stax {

struct LoweringPipelineOptions
    : public mlir::PassPipelineOptions<LoweringPipelineOptions> {
  Option<Target> target{*this, "target",
                        llvm::cl::desc("Materialization thresholds; cuda "
                                       "also splits long reductions"),
                        llvm::cl::init(Target::CPU), targetOptionValues()};
  Option<bool> decompose{*this, "decompose",
                         llvm::cl::desc("Expand composite ops first "
                                        "(--stax-decompose)"),
                         llvm::cl::init(true)};
  Option<bool> welford{*this, "welford",
                       llvm::cl::desc("Lower tp.var as one Welford pass "
                                      "(class 2, not bitwise)"),
                       llvm::cl::init(false)};
  Option<bool> strict{*this, "strict",
                      llvm::cl::desc("Fail on ops without a lowering rule"),
                      llvm::cl::init(false)};
  Option<bool> fuse{*this, "fuse",
                    llvm::cl::desc("Group nodes into kernels (--stax-fuse)"),
                    llvm::cl::init(true)};
  Option<bool> remarks{*this, "remarks",
                       llvm::cl::desc("Remarks for materialization and "
                                      "fusion decisions"),
                       llvm::cl::init(false)};
  Option<int64_t> smCount{*this, "sm-count",
                          llvm::cl::desc("GPU streaming multiprocessors"),
                          llvm::cl::init(132)};
  Option<int64_t> warpSize{*this, "warp-size",
                           llvm::cl::desc("GPU warp width"),
                           llvm::cl::init(32)};
  Option<int64_t> threadsPerSM{*this, "threads-per-sm",
                               llvm::cl::desc("GPU resident threads per SM"),
                               llvm::cl::init(2048)};
};

/// tp -> stax and the scheduling passes: --stax-decompose, then on every
/// function --stax-lower, (cuda) --stax-split-reductions, --stax-fuse,
/// --stax-normalize-loops and --stax-range-analysis.
void buildLoweringPipeline(mlir::OpPassManager &pm,
                           const LoweringPipelineOptions &options);

/// Registers `--stax-lowering-pipeline` with stax-opt.
void registerPipelines();

} // namespace mlir::stax

#endif // STAX_PIPELINES_PIPELINES_H
