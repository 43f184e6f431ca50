//===- ScanLoops.h - loops of the tp scans ----------------------*- C++ -*-===//
//
// Part of --stax-to-loops: the cumulative ops (TpScanOps.td) as one
// sequential loop per slice along the scanned dim, the slices spread over
// threads (CPU) or one GPU thread each.
//
//===----------------------------------------------------------------------===//
#ifndef STAX_LIB_CONVERSION_STAXTOLOOPS_SCANLOOPS_H
#define STAX_LIB_CONVERSION_STAXTOLOOPS_SCANLOOPS_H

#include "NodeLoops.h"

namespace mlir::stax::codegen {

/// True for the ops emitScan takes.
bool isScan(Operation *op);

/// Emits the loops of scan `op` at `b`'s insertion point; its operand and
/// results have storage in `buffers` already (row-major).
LogicalResult emitScan(OpBuilder &b, Operation *op, BufferMap &buffers,
                       const LoopOptions &options);

} // namespace mlir::stax::codegen

#endif // STAX_LIB_CONVERSION_STAXTOLOOPS_SCANLOOPS_H
