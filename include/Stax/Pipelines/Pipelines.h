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

namespace stax {

struct LoweringPipelineOptions
    : public mlir::PassPipelineOptions<LoweringPipelineOptions> {
  Option<std::string> target{*this, "target",
                             llvm::cl::desc("cpu or cuda: materialization "
                                            "thresholds, and cuda splits "
                                            "long reductions"),
                             llvm::cl::init("cpu")};
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

/// tp -> stax and the scheduling passes: --stax-lower, then (cuda)
/// --stax-split-reductions, --stax-normalize-loops, --stax-range-analysis
/// and --stax-fuse, each on every function.
void buildLoweringPipeline(mlir::OpPassManager &pm,
                           const LoweringPipelineOptions &options);

/// Registers `--stax-lowering-pipeline` with stax-opt.
void registerPipelines();

} // namespace stax

#endif // STAX_PIPELINES_PIPELINES_H
