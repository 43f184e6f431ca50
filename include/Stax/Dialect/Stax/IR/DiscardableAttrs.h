//===- DiscardableAttrs.h - the stax attributes that passes read -*- C++ -*-===//
//
// The discardable attributes of the `stax` dialect, one accessor each;
// StaxDialect verifies them wherever they appear.
//
//   stax.index_bitwidth  i64 32 or 64, on a node or kernel: the width of its
//                        index and address arithmetic (--stax-range-analysis)
//   stax.output          unit, on a memref argument of a function that
//                        --stax-to-loops wrote: the caller's buffer for one
//                        result (destination-passing style)
//   stax.error_sites     array of strings, on the module: the location of
//                        each run-time check site, indexed by the site
//                        number passed to stax_rt_index_error (and, with
//                        check-nan, stax_rt_nan_error)
//
//===----------------------------------------------------------------------===//
#ifndef STAX_DIALECT_STAX_IR_DISCARDABLEATTRS_H
#define STAX_DIALECT_STAX_IR_DISCARDABLEATTRS_H

#include "mlir/IR/Operation.h"
#include <optional>

namespace mlir::stax {

constexpr llvm::StringLiteral kIndexBitwidthAttr = "stax.index_bitwidth";
constexpr llvm::StringLiteral kOutputAttr = "stax.output";
constexpr llvm::StringLiteral kErrorSitesAttr = "stax.error_sites";

/// 32 or 64 when range analysis decided it; nullopt otherwise.
std::optional<unsigned> getIndexBitwidth(Operation *op);
void setIndexBitwidth(Operation *op, unsigned bitwidth);

} // namespace mlir::stax

#endif // STAX_DIALECT_STAX_IR_DISCARDABLEATTRS_H
