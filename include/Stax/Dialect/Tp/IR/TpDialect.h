//===- TpDialect.h - tp dialect declaration ---------------------*- C++ -*-===//
#ifndef STAX_DIALECT_TP_IR_TPDIALECT_H
#define STAX_DIALECT_TP_IR_TPDIALECT_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/DialectImplementation.h"

#include "Stax/Dialect/Tp/IR/TpOpsDialect.h.inc"

#include "Stax/Dialect/Tp/IR/TpEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "Stax/Dialect/Tp/IR/TpAttrs.h.inc"

#endif // STAX_DIALECT_TP_IR_TPDIALECT_H
