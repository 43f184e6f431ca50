//===- TpDialect.h - tp dialect declaration ---------------------*- C++ -*-===//
#ifndef STAX_DIALECT_TP_IR_TPDIALECT_H
#define STAX_DIALECT_TP_IR_TPDIALECT_H

#include "mlir/IR/Dialect.h"

#include "Stax/Dialect/Tp/IR/TpOpsDialect.h.inc"

#endif // STAX_DIALECT_TP_IR_TPDIALECT_H
