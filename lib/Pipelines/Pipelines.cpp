//===- Pipelines.cpp - named pass pipelines of Stax -----------------------===//
#include "Stax/Pipelines/Pipelines.h"
#include "Stax/Conversion/Passes.h"
#include "Stax/Dialect/Tp/IR/TpOps.h"
#include "Stax/Dialect/Tp/Transforms/Passes.h"
#include "Stax/Dialect/Stax/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;

void stax::buildLoweringPipeline(OpPassManager &pm,
                                 const LoweringPipelineOptions &options) {
  if (options.decompose) {
    tp::StaxDecomposeOptions decompose;
    if (options.welford) // var stays whole for its Welford rule
      decompose.keep.push_back(tp::VarOp::getOperationName().str());
    pm.addPass(tp::createStaxDecompose(decompose));
  }
  OpPassManager &fn = pm.nest<func::FuncOp>();
  StaxLowerOptions lower;
  lower.target = options.target;
  lower.strict = options.strict;
  lower.remarks = options.remarks;
  lower.welford = options.welford;
  fn.addPass(createStaxLower(lower));
  if (options.target == Target::CUDA) {
    StaxSplitReductionsOptions split;
    split.target = options.target;
    split.smCount = options.smCount;
    split.warpSize = options.warpSize;
    split.threadsPerSM = options.threadsPerSM;
    fn.addPass(createStaxSplitReductions(split));
  }
  if (options.fuse) {
    StaxFuseOptions fuse;
    fuse.remarks = options.remarks;
    fn.addPass(createStaxFuse(fuse));
  }
  fn.addPass(createStaxNormalizeLoops());
  fn.addPass(createStaxRangeAnalysis());
}

void stax::registerPipelines() {
  PassPipelineRegistration<LoweringPipelineOptions>(
      "stax-lowering-pipeline",
      "tp -> stax: decompose, lower, split reductions (cuda), fuse kernels, "
      "normalize loops, range analysis",
      buildLoweringPipeline);
}
