/*===- Pipelines.h - C API of Stax's pass pipelines ----------------*- C -*-===*\
|*                                                                            *|
|* Builds Stax's pipelines into an MLIR pass manager and runs them on a       *|
|* module.                                                                    *|
|*                                                                            *|
|* Options are one string in the pass-pipeline syntax, the text between the   *|
|* quotes of `stax-opt --stax-pipeline="..."` ("target=cpu vector-width=16    *|
|* parallel=false"; "" for the defaults). The C++ side parses it into the     *|
|* same mlir::stax::PipelineOptions that stax-opt and buildPipeline() use,    *|
|* so an option added there is available here at once, with the same name,   *|
|* default and checks; a C struct would have to mirror every option by hand.  *|
|* `stax-opt --help` lists the options and their defaults.                    *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/
#ifndef STAX_C_PIPELINES_H
#define STAX_C_PIPELINES_H

#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"
#include "mlir-c/Support.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Appends --stax-pipeline (tp, or lowered stax, to the LLVM dialect) with
/// `options` to `passManager`, which must be anchored on builtin.module or
/// op-agnostic (mlirPassManagerCreate's default). On
/// invalid options appends nothing, passes the message to `callback` (when
/// not NULL, possibly in several chunks, with `userData`) and returns failure.
/// (For a value that does not parse, such as target=tpu, LLVM's option
/// parser prints the reason to stderr itself; the message names the options.)
MLIR_CAPI_EXPORTED MlirLogicalResult
staxOpPassManagerAddPipeline(MlirOpPassManager passManager,
                             MlirStringRef options, MlirStringCallback callback,
                             void *userData);

/// The same for --stax-lowering-pipeline (tp to scheduled stax kernels); its
/// options are the lowering subset (target, decompose, welford, strict, fuse,
/// remarks, sm-count, warp-size, threads-per-sm).
MLIR_CAPI_EXPORTED MlirLogicalResult staxOpPassManagerAddLoweringPipeline(
    MlirOpPassManager passManager, MlirStringRef options,
    MlirStringCallback callback, void *userData);

/// Runs --stax-pipeline with `options` on `module` in place, with the
/// verifier after every pass. Every error (invalid options, a pass that
/// fails, IR that does not verify) is emitted as a diagnostic on the
/// module's context, at the offending location, so the handlers attached
/// with mlirContextAttachDiagnosticHandler see it; returns failure then.
MLIR_CAPI_EXPORTED MlirLogicalResult staxModuleRunPipeline(MlirModule module,
                                                           MlirStringRef options);

#ifdef __cplusplus
}
#endif

#endif /* STAX_C_PIPELINES_H */
