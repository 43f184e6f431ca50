//===- Passes.h - conversion passes of Stax ---------------------*- C++ -*-===//
#ifndef STAX_CONVERSION_PASSES_H
#define STAX_CONVERSION_PASSES_H

#include "Stax/Dialect/Stax/IR/StaxDialect.h"
#include "mlir/Pass/Pass.h"

namespace stax {

#define GEN_PASS_DECL
#include "Stax/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "Stax/Conversion/Passes.h.inc"

} // namespace stax

#endif // STAX_CONVERSION_PASSES_H
