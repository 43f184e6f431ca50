//===- Pipelines.cpp - named pass pipelines of Stax -----------------------===//
#include "Stax/Pipelines/Pipelines.h"
#include "Stax/Conversion/Passes.h"
#include "Stax/Dialect/Tp/IR/TpOps.h"
#include "Stax/Dialect/Tp/Transforms/Passes.h"
#include "Stax/Dialect/Stax/Transforms/Passes.h"
#include "mlir/Conversion/AffineToStandard/AffineToStandard.h"
#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVMPass.h"
#include "mlir/Conversion/IndexToLLVM/IndexToLLVM.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/MathToLibm/MathToLibm.h"
#include "mlir/Conversion/MemRefToLLVM/MemRefToLLVM.h"
#include "mlir/Conversion/OpenMPToLLVM/ConvertOpenMPToLLVM.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Conversion/SCFToOpenMP/SCFToOpenMP.h"
#include "mlir/Conversion/UBToLLVM/UBToLLVM.h"
#include "mlir/Conversion/VectorToLLVM/ConvertVectorToLLVMPass.h"
#include "mlir/Conversion/GPUCommon/GPUCommonPass.h"
#include "mlir/Conversion/GPUToNVVM/GPUToNVVMPass.h"
#include "mlir/Conversion/SCFToGPU/SCFToGPUPass.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"

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
  // Decompositions repeat work that the joint graph split apart (batch
  // norm's mean inside its var and again for the running mean): one pass
  // over an activation per duplicate reduction. tp ops are pure functions
  // of their operands and attributes (random ops included), so merging
  // them keeps every value bit for bit.
  fn.addPass(createCSEPass());
  StaxLowerOptions lower;
  lower.target = options.target;
  lower.strict = options.strict;
  lower.remarks = options.remarks;
  lower.welford = options.welford;
  fn.addPass(createStaxLower(lower));
  if (options.splitReductions) {
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

/// --stax-to-loops' options for target=cpu, as the pipeline sets them.
static stax::StaxToLoopsOptions
cpuLoopOptions(const stax::PipelineOptions &options) {
  stax::StaxToLoopsOptions loops;
  loops.parallel = options.parallel;
  loops.grain = options.grain;
  loops.callGrain = options.callGrain;
  loops.vectorWidth = options.vectorWidth;
  loops.nontemporalBytes = options.nontemporalBytes;
  loops.interleave = options.interleave;
  loops.checkNan = options.checkNan;
  loops.profile = options.profile;
  return loops;
}

/// target=cuda, the host side: buffers in device memory, every function's
/// kernels on one stream (--gpu-async-region), then LLVM calling the
/// launcher's mgpu* functions (Stax/Runtime/CudaLauncher.h). Functions and
/// kernels take bare pointers (static shapes), like CPU functions.
static void buildCudaHostPipeline(OpPassManager &pm) {
  pm.addNestedPass<func::FuncOp>(createGpuAsyncRegionPass());
  GpuToLLVMConversionPassOptions host;
  host.hostBarePtrCallConv = true;
  host.kernelBarePtrCallConv = true;
  pm.addPass(createGpuToLLVMConversionPass(host));
  pm.addPass(createReconcileUnrealizedCastsPass());
}

/// target=cuda: one thread per output element through upstream's
/// scf.parallel -> gpu.launch mapping, then NVVM and PTX.
static void buildCudaCodegenPipeline(OpPassManager &pm,
                                     const stax::PipelineOptions &options) {
  stax::StaxToLoopsOptions loops;
  loops.target = stax::Target::CUDA;
  loops.threadsPerBlock = options.threadsPerBlock;
  loops.checkNan = options.checkNan;
  loops.profile = options.profile;
  // --stax-to-loops maps its loops to blocks and threads itself; the
  // canonicalizer would fold one-iteration loops (a one-thread node would
  // then run on the host) and merge the nested ones, so it runs after.
  pm.addPass(stax::createStaxToLoops(loops));
  pm.addPass(createConvertParallelLoopToGpuPass());
  pm.addPass(createGpuKernelOutliningPass());
  pm.addPass(stax::createStaxMergeGpuModules());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(stax::createStaxGpuDeviceBuffers());
  GpuNVVMAttachTargetOptions target;
  target.chip = options.chip;
  target.features = options.ptxFeatures;
  if (llvm::sys::fs::exists(options.libdevice.getValue()))
    target.linkLibs.push_back(options.libdevice);
  pm.addPass(createGpuNVVMAttachTarget(target));
  OpPassManager &kernels = pm.nest<gpu::GPUModuleOp>();
  kernels.addPass(createSCFToControlFlowPass());
  ConvertGpuOpsToNVVMOpsOptions nvvm;
  nvvm.useBarePtrCallConv = true;
  kernels.addPass(createConvertGpuOpsToNVVMOps(nvvm));
  kernels.addPass(createReconcileUnrealizedCastsPass());
  GpuModuleToBinaryPassOptions binary;
  binary.compilationTarget = "isa";
  pm.addPass(createGpuModuleToBinaryPass(binary));
  buildCudaHostPipeline(pm);
}

void stax::buildCodegenPipeline(OpPassManager &pm,
                                const PipelineOptions &options) {
  // Private declarations nothing calls (a called one is an error of
  // --stax-to-loops) would stay in tensor types, which no LLVM object holds.
  pm.addPass(createSymbolDCEPass());
  if (options.target == Target::CUDA)
    return buildCudaCodegenPipeline(pm, options);
  pm.addPass(createStaxToLoops(cpuLoopOptions(options)));
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  // After canonicalization, so that loop bounds are constants the callees
  // copy, not arguments.
  pm.addPass(createStaxOutlineLoops());
  if (options.approximateMath) {
    StaxApproximateMathOptions math;
    math.kernels = options.mathKernels;
    pm.addPass(createStaxApproximateMath(math));
    StaxVectorMathCallsOptions vectorMath;
    vectorMath.library = options.vectorMath;
    pm.addPass(createStaxVectorMathCalls(vectorMath));
  }
  pm.addPass(createLowerAffinePass());
  // OpenMP's conversion wraps loop bodies in memref.alloca_scope, which
  // the memref conversion must see before scf becomes cf.
  if (options.parallel)
    pm.addPass(createConvertSCFToOpenMPPass());
  // Math without an LLVM intrinsic becomes libm calls, scalarized with
  // vector.extract/insert when vectorized: before the vector conversion.
  // log1p and expm1 have no intrinsic: upstream would compute log(1 + x)
  // and exp(x) - 1, which lose every digit of a small x; libm's functions
  // are the interpreter's.
  pm.addPass(createStaxExactMathCalls());
  pm.addPass(createStaxRoundToBF16());
  ConvertMathToLLVMPassOptions mathToLLVM;
  mathToLLVM.approximateLog1p = false;
  pm.addPass(createConvertMathToLLVMPass(mathToLLVM));
  pm.addPass(createConvertMathToLibmPass());
  // The 16 x 16 transposes of staged tiles (TransposeTiles.h) as the
  // 64-shuffle network rather than 256 element moves.
  ConvertVectorToLLVMPassOptions vector;
  vector.vectorTransposeLowering = vector::VectorTransposeLowering::Shuffle16x16;
  pm.addPass(createConvertVectorToLLVMPass(vector));
  pm.addPass(memref::createExpandStridedMetadataPass());
  // Allocations call the runtime's heap (Arena.cpp), which keeps large
  // blocks for the next call instead of faulting fresh pages in.
  FinalizeMemRefToLLVMConversionPassOptions memref;
  memref.useGenericFunctions = true;
  pm.addPass(createFinalizeMemRefToLLVMConversionPass(memref));
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertIndexToLLVMPass());
  pm.addPass(createConvertControlFlowToLLVMPass());
  // Functions take bare pointers (static shapes, contiguous). This runs
  // before the OpenMP conversion, which would otherwise convert the
  // functions itself with full memref descriptors.
  ConvertFuncToLLVMPassOptions func;
  func.useBarePtrCallConv = true;
  pm.addPass(createConvertFuncToLLVMPass(func));
  if (options.parallel)
    pm.addPass(createConvertOpenMPToLLVMPass());
  pm.addPass(createUBToLLVMConversionPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
}

/// "option=value: must be ..." where `value` is below `least`, or "".
static std::string belowLeast(StringRef option, int64_t value, int64_t least) {
  if (value >= least)
    return "";
  return (option + "=" + Twine(value) + ": must be at least " + Twine(least))
      .str();
}

std::string stax::LoweringPipelineOptions::firstInvalidValue() const {
  for (auto [name, value] : {std::pair<StringRef, int64_t>{"sm-count", smCount},
                             {"warp-size", warpSize},
                             {"threads-per-sm", threadsPerSM}})
    if (std::string problem = belowLeast(name, value, 1); !problem.empty())
      return problem;
  return "";
}

std::string stax::PipelineOptions::firstInvalidValue() const {
  if (std::string problem = LoweringPipelineOptions::firstInvalidValue();
      !problem.empty())
    return problem;
  // The CPU options, and target=cuda's block size.
  StaxToLoopsOptions loops = cpuLoopOptions(*this);
  loops.threadsPerBlock = threadsPerBlock;
  if (std::string problem = stax::firstInvalidValue(loops); !problem.empty())
    return problem;
  // NVPTX names its processors sm_<version>[a]; anything else is ignored
  // by LLVM with a warning and fails (or not) later in ptxas.
  StringRef version = StringRef(chip.getValue());
  if (!version.consume_front("sm_") || version.empty() ||
      !llvm::all_of(version.drop_back(version.ends_with("a") ? 1 : 0),
                    llvm::isDigit) ||
      version == "a")
    return "chip=" + chip.getValue() + ": must name an NVIDIA GPU, sm_<n>";
  return "";
}

void stax::buildPipeline(OpPassManager &pm, const PipelineOptions &options) {
  buildLoweringPipeline(pm, options);
  buildCodegenPipeline(pm, options);
}

/// Registers a pipeline of module passes, as PassPipelineRegistration does,
/// but refusing a pass manager nested below the module
/// (`builtin.module(func.func(stax-pipeline))`): adding module passes there
/// is a fatal error in MLIR, and op-agnostic ones would run on each
/// function alone, doing nothing.
template <typename Options>
static void registerModulePipeline(
    StringRef arg, StringRef description,
    std::function<void(OpPassManager &, const Options &)> builder) {
  registerPassPipeline(
      arg, description,
      [arg, builder](OpPassManager &pm, StringRef optionsText,
                     function_ref<LogicalResult(const Twine &)> errorHandler)
          -> LogicalResult {
        std::optional<StringRef> anchor = pm.getOpName();
        if (anchor && *anchor != ModuleOp::getOperationName())
          return errorHandler("'" + arg + "' runs on a builtin.module, not " +
                              "nested on '" + *anchor + "'");
        Options options;
        if (failed(options.parseFromString(optionsText)))
          return failure();
        if (std::string problem = options.firstInvalidValue(); !problem.empty())
          return errorHandler("invalid '" + arg + "' option " + problem);
        builder(pm, options);
        return success();
      },
      [](function_ref<void(const detail::PassOptions &)> optionsHandler) {
        optionsHandler(Options());
      });
}

void stax::registerPipelines() {
  registerModulePipeline<LoweringPipelineOptions>(
      "stax-lowering-pipeline",
      "tp -> stax: decompose, lower, split reductions, fuse kernels, "
      "normalize loops, range analysis",
      buildLoweringPipeline);
  registerModulePipeline<PipelineOptions>(
      "stax-pipeline",
      "tp -> LLVM dialect: the lowering pipeline, then --stax-to-loops and "
      "the upstream conversions to LLVM (target=cpu; target=cuda: host "
      "code calling the CUDA launcher, the kernels' PTX in a gpu.binary)",
      [](OpPassManager &pm, const PipelineOptions &options) {
        buildPipeline(pm, options);
      });
}
