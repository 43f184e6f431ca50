//===- ObjectFile.h - ahead-of-time code for the host -----------*- C++ -*-===//
//
// The ahead-of-time half of code generation: a module lowered to the LLVM
// dialect (--stax-pipeline) becomes optimized LLVM IR or an object file for
// the host CPU, and a tp/stax module's functions become C prototypes.
//
//===----------------------------------------------------------------------===//
#ifndef STAX_EXECUTIONENGINE_OBJECTFILE_H
#define STAX_EXECUTIONENGINE_OBJECTFILE_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir::stax {

/// Registers the translations (builtin, LLVM, OpenMP) that
/// translateLoweredModule needs.
void registerCodegenTranslations(DialectRegistry &registry);

/// Writes the LLVM IR of `module` (every op in the LLVM or OpenMP dialect),
/// optimized at -O3 for the host CPU when `optimize` is set.
LogicalResult writeLLVMIR(ModuleOp module, llvm::raw_ostream &os,
                          bool optimize);

/// Writes an ELF object file of `module` for the host CPU (-O3). Link it
/// with libStaxRuntime.a, BLAS and, for parallel loops, libomp.
LogicalResult writeObjectFile(ModuleOp module, llvm::raw_ostream &os);

/// Writes the PTX of every gpu.binary of a module lowered by
/// --stax-pipeline="target=cuda" (format isa), each kernel module after a
/// comment naming it. Fails when there is none.
LogicalResult writePTX(ModuleOp module, llvm::raw_ostream &os);

/// Writes a C header declaring each function of a tp or lowered stax
/// module as its compiled entry point: `void f(const float *in0, ...,
/// float *out0, ...)`, each pointer the contiguous row-major storage of
/// that tensor (the --stax-to-loops calling convention).
LogicalResult writeCHeader(ModuleOp module, llvm::raw_ostream &os);

} // namespace mlir::stax

#endif // STAX_EXECUTIONENGINE_OBJECTFILE_H
