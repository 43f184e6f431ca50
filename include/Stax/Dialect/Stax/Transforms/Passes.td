//===- Passes.td - scheduling passes on stax ------------------*- tablegen -*-===//
//
// Passes over lowered `stax` functions (Sections 6.5 and 6.8): kernel
// fusion, loop normalization, range analysis and split reductions.
//
//===----------------------------------------------------------------------===//
#ifndef STAX_DIALECT_STAX_TRANSFORMS_PASSES_TD
#define STAX_DIALECT_STAX_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def StaxFuse : Pass<"stax-fuse", "::mlir::func::FuncOp"> {
  let summary = "Group materialized nodes into kernels (stax.kernel)";
  let options = [
    Option<"remarks", "remarks", "bool", /*default=*/"true",
           "Emit a remark for every fusion decision">,
  ];
  let dependentDialects = ["::mlir::stax::StaxDialect"];
}

def StaxNormalizeLoops : Pass<"stax-normalize-loops", "::mlir::func::FuncOp"> {
  let summary = "Drop size-1 loops, merge contiguous loops, order loops by stride";
  let dependentDialects = ["::mlir::stax::StaxDialect",
                           "::mlir::affine::AffineDialect"];
}

def StaxRangeAnalysis : Pass<"stax-range-analysis", "::mlir::func::FuncOp"> {
  let summary = "Interval analysis of indices: drop proven checks, pick i32 indexing";
  let dependentDialects = ["::mlir::stax::StaxDialect", "::mlir::arith::ArithDialect"];
}

def StaxSplitReductions : Pass<"stax-split-reductions", "::mlir::func::FuncOp"> {
  let summary = "Split long reductions into two levels for GPUs (Algorithm 6.1)";
  let options = [
    Option<"target", "target", "::mlir::stax::Target",
           /*default=*/"::mlir::stax::Target::CUDA",
           "cpu (splits only long reductions with at most 3 outputs, into "
           "up to 32 segments for the threads) or cuda (Algorithm 6.1)",
           "::mlir::stax::targetOptionValues()">,
    Option<"smCount", "sm-count", "int64_t", /*default=*/"132",
           "Streaming multiprocessors S (H100/H200: 132)">,
    Option<"warpSize", "warp-size", "int64_t", /*default=*/"32",
           "Warp width w">,
    Option<"threadsPerSM", "threads-per-sm", "int64_t", /*default=*/"2048",
           "Resident threads per SM T">,
    Option<"noSplitThreshold", "no-split-threshold", "int64_t",
           /*default=*/"8192",
           "Reductions of at most this many elements never split">,
  ];
  let dependentDialects = ["::mlir::stax::StaxDialect",
                           "::mlir::affine::AffineDialect"];
}

#endif // STAX_DIALECT_STAX_TRANSFORMS_PASSES_TD
