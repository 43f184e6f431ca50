//===- InitAll.h - register everything a Stax tool understands --*- C++ -*-===//
//
// The dialects and passes of Stax plus the upstream ones that its pipelines
// use. Tools and embedders call these instead of listing dialects by hand.
//
//===----------------------------------------------------------------------===//
#ifndef STAX_INITALL_H
#define STAX_INITALL_H

#include "Stax/Dialect/Tp/Autodiff/DerivativeRules.h"
#include "Stax/Conversion/Passes.h"
#include "Stax/Dialect/Stax/IR/StaxDialect.h"
#include "Stax/Dialect/Stax/Transforms/Passes.h"
#include "Stax/Dialect/Tp/IR/TpDialect.h"
#include "Stax/Dialect/Tp/Transforms/Passes.h"
#include "Stax/Pipelines/Pipelines.h"
#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVM.h"
#include "mlir/Conversion/GPUToNVVM/GPUToNVVM.h"
#include "mlir/Conversion/IndexToLLVM/IndexToLLVM.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/MemRefToLLVM/MemRefToLLVM.h"
#include "mlir/Conversion/NVVMToLLVM/NVVMToLLVM.h"
#include "mlir/Conversion/UBToLLVM/UBToLLVM.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Target/LLVM/NVVM/Target.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/GPU/GPUToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/NVVM/NVVMToLLVMIRTranslation.h"
#include "mlir/Transforms/Passes.h"

namespace mlir::stax {

/// Stax's own dialects and the upstream dialects their IR refers to,
/// down to the LLVM dialect that code generation produces.
inline void registerAllDialects(mlir::DialectRegistry &registry) {
  registry.insert<mlir::tp::TpDialect, mlir::stax::StaxDialect,
                  mlir::func::FuncDialect, mlir::arith::ArithDialect,
                  mlir::math::MathDialect, mlir::affine::AffineDialect,
                  mlir::tensor::TensorDialect, mlir::memref::MemRefDialect,
                  mlir::scf::SCFDialect, mlir::vector::VectorDialect,
                  mlir::cf::ControlFlowDialect, mlir::omp::OpenMPDialect,
                  mlir::LLVM::LLVMDialect, mlir::gpu::GPUDialect,
                  mlir::NVVM::NVVMDialect>();
  // convert-gpu-to-nvvm lowers kernels through each dialect's
  // ConvertToLLVMPatternInterface.
  mlir::arith::registerConvertArithToLLVMInterface(registry);
  mlir::cf::registerConvertControlFlowToLLVMInterface(registry);
  mlir::registerConvertFuncToLLVMInterface(registry);
  mlir::index::registerConvertIndexToLLVMInterface(registry);
  mlir::registerConvertMathToLLVMInterface(registry);
  mlir::registerConvertMemRefToLLVMInterface(registry);
  mlir::ub::registerConvertUBToLLVMInterface(registry);
  mlir::registerConvertNVVMToLLVMInterface(registry);
  mlir::NVVM::registerConvertGpuToNVVMInterface(registry);
  // target=cuda compiles gpu modules to PTX inside the pipeline.
  mlir::NVVM::registerNVVMTargetInterfaceExternalModels(registry);
  mlir::registerBuiltinDialectTranslation(registry);
  mlir::registerGPUDialectTranslation(registry);
  mlir::registerLLVMDialectTranslation(registry);
  mlir::registerNVVMDialectTranslation(registry);
  mlir::tp::registerDerivativeRules(registry);
}

/// Stax's passes and the generic upstream ones (canonicalize, cse, inline...).
inline void registerAllPasses() {
  mlir::registerTransformsPasses();
  tp::registerTpPasses();
  registerStaxConversionPasses();
  registerStaxPasses();
  registerPipelines();
}

} // namespace mlir::stax

#endif // STAX_INITALL_H
