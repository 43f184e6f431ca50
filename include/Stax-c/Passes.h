/*===- Passes.h - C API registration and creation of Stax's passes --*- C -*-===*\
|*                                                                            *|
|* Generated from the Passes.td files (mlir-tblgen -gen-pass-capi-header),    *|
|* one pair per pass, named after its group and ODS definition:               *|
|*   mlirCreateTpStaxMinCut() / mlirRegisterTpStaxMinCut()        (tp)        *|
|*   mlirCreateStaxStaxFuse() / mlirRegisterStaxStaxFuse()        (stax)      *|
|*   mlirCreateStaxConversionStaxLower() / ...                    (lowering)  *|
|* and per group mlirRegisterTpPasses(), mlirRegisterStaxPasses(),            *|
|* mlirRegisterStaxConversionPasses(). A created pass has its default         *|
|* options; to set options, register the passes and parse a pipeline          *|
|* (mlirParsePassPipeline, "builtin.module(stax-mincut{memory-budget=0.5})"). *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/
#ifndef STAX_C_PASSES_H
#define STAX_C_PASSES_H

#include "mlir-c/Pass.h"

#include "Stax-c/TpPasses.capi.h.inc"
#include "Stax-c/StaxPasses.capi.h.inc"
#include "Stax-c/ConversionPasses.capi.h.inc"

#ifdef __cplusplus
extern "C" {
#endif

/// Registers every Stax pass, --stax-lowering-pipeline and --stax-pipeline,
/// and upstream's generic passes (canonicalize, cse, inline, ...) with the
/// global pass registry, as stax-opt does, so that textual pipelines
/// (mlirParsePassPipeline, mlirOpPassManagerAddPipeline) can name them.
/// Safe to call more than once and from several threads.
MLIR_CAPI_EXPORTED void staxRegisterAllPasses(void);

#ifdef __cplusplus
}
#endif

#endif /* STAX_C_PASSES_H */
