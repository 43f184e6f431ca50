//===- TpInterfaces.h - tp op interfaces ------------------------*- C++ -*-===//
#ifndef STAX_DIALECT_TP_IR_TPINTERFACES_H
#define STAX_DIALECT_TP_IR_TPINTERFACES_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpDefinition.h"

#include "Stax/Dialect/Tp/IR/TpInterfaces.h.inc"

#endif // STAX_DIALECT_TP_IR_TPINTERFACES_H
