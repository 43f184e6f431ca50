//===- Passes.cpp - C API: create and register each Stax pass -------------===//
//
// The definitions come from the Passes.td files (-gen-pass-capi-impl); they
// call the C++ create/register functions unqualified, hence the using
// directives of the pass namespaces.
//
//===----------------------------------------------------------------------===//

#include "Stax-c/Passes.h"
#include "Stax/Conversion/Passes.h"
#include "Stax/Dialect/Stax/Transforms/Passes.h"
#include "Stax/Dialect/Tp/Transforms/Passes.h"
#include "mlir/CAPI/Pass.h"

// The generated definitions must be at global scope to define the extern
// "C" functions that Stax-c/Passes.h declares.
using namespace mlir;
using namespace mlir::stax;
using namespace mlir::tp;

#include "TpPasses.capi.cpp.inc"
#include "StaxPasses.capi.cpp.inc"
#include "ConversionPasses.capi.cpp.inc"
