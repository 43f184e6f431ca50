//===- Registration.cpp - C API: dialect handles, registration ------------===//
//
// The only TU of the C API that includes InitAll.h (every dialect and pass
// header: slow to compile), so that the rest stays light.
//
//===----------------------------------------------------------------------===//

#include "Stax-c/Dialects.h"
#include "Stax-c/Passes.h"
#include "Stax/InitAll.h"
#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Registration.h"
#include <mutex>

MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(Tp, tp, mlir::tp::TpDialect)
MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(Stax, stax, mlir::stax::StaxDialect)

void staxRegisterAllDialects(MlirDialectRegistry registry) {
  mlir::stax::registerAllDialects(*unwrap(registry));
}

void staxRegisterAllPasses(void) {
  // A pipeline registered twice is a fatal error in an assertions build of
  // MLIR; the string API (Stax.cpp) comes through here too.
  static std::once_flag once;
  std::call_once(once, [] { mlir::stax::registerAllPasses(); });
}
