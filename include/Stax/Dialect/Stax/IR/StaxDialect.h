//===- StaxDialect.h - stax dialect declaration -----------------*- C++ -*-===//
#ifndef STAX_DIALECT_STAX_IR_STAXDIALECT_H
#define STAX_DIALECT_STAX_IR_STAXDIALECT_H

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Dialect.h"

#include "Stax/Dialect/Stax/IR/StaxOpsDialect.h.inc"

#endif // STAX_DIALECT_STAX_IR_STAXDIALECT_H
