/*===- Dialects.h - C API registration of Stax's dialects ----------*- C -*-===*\
|*                                                                            *|
|* MLIR-style dialect handles for `tp` and `stax`, and one call that registers *|
|* everything Stax's pipelines need. The rest of MLIR's C API (mlirContext*,  *|
|* mlirModule*, mlirPassManager*, ...) comes with the same library,           *|
|* libStaxCAPI.so, which holds upstream's core C API (IR, passes,             *|
|* diagnostics) built against the same libMLIR.so as Stax.                    *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/
#ifndef STAX_C_DIALECTS_H
#define STAX_C_DIALECTS_H

#include "mlir-c/IR.h"

#ifdef __cplusplus
extern "C" {
#endif

/// mlirGetDialectHandle__tp__(): the operator-level `tp` dialect. The handle
/// inserts the dialect only: the derivative rules that --stax-joint-graph
/// and --stax-jvp read, and the dialects the pipeline lowers to, come with
/// staxRegisterAllDialects.
MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(Tp, tp);

/// mlirGetDialectHandle__stax__(): the loop-level `stax` dialect.
MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(Stax, stax);

/// Adds to `registry` everything a Stax pipeline reads or produces: `tp`
/// (with its derivative rules), `stax`, and the upstream dialects, interfaces
/// and LLVM IR translations down to the LLVM and NVVM dialects. The same set
/// as stax-opt and mlir::stax::registerAllDialects.
MLIR_CAPI_EXPORTED void staxRegisterAllDialects(MlirDialectRegistry registry);

#ifdef __cplusplus
}
#endif

#endif /* STAX_C_DIALECTS_H */
