//===- CheckpointChain.h - the chain of layers of a joint graph -*- C++ -*-===//
//
// Section 5.8's chain model of a joint function. Forward values are nodes,
// forward data dependences edges. Primal inputs, and views/creation ops of
// nothing but primals ("free" values: no storage, no cost), are not nodes:
// every segment may read them. A virtual source feeds every node without a
// node operand; a virtual sink reads the forward outputs. The chain is the
// dominator path of the sink: the values every source-to-output path passes
// through. Segment k holds the values computed from z_{k-1} (k = 1..l);
// segment 0 (the prologue) computes z_0 from the primals and segment l+1 (the
// epilogue) reads z_l. A value read across segments other than through z
// (possible only for values no output depends on) merges the segments it
// spans.
//
// The backward ops are grouped by the segment whose values they read: a group
// k op reads values of segment k (or z_{k-1}, or z_k), and adjoints of groups
// >= k.
//
//===----------------------------------------------------------------------===//
#ifndef STAX_ANALYSIS_CHECKPOINTCHAIN_H
#define STAX_ANALYSIS_CHECKPOINTCHAIN_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"

namespace mlir::stax {

/// The chain of a joint function, its segments and backward groups.
struct ChainModel {
  func::FuncOp fn;
  unsigned numOutputs = 0;
  /// Program position of every op of the body.
  llvm::DenseMap<Operation *, unsigned> position;
  /// Non-free forward values (nodes), in program order, and their index.
  SmallVector<Value> nodes;
  llvm::DenseMap<Value, unsigned> nodeIndex;
  /// Free forward values (views/creations of primals only).
  llvm::DenseSet<Value> freeValues;
  /// Node operands of each node (distinct).
  SmallVector<SmallVector<unsigned, 2>> preds;
  /// Chain states z_0..z_l as node indices.
  SmallVector<unsigned> chain;
  /// Per node: its segment (0..l+1); per chain node: its state index.
  SmallVector<unsigned> segment;
  llvm::DenseMap<unsigned, unsigned> stateOf;
  /// Backward ops of each group 0..l+1, in program order.
  SmallVector<SmallVector<Operation *>> groups;

  unsigned length() const { return chain.size() - 1; }
  Value state(unsigned j) const { return nodes[chain[j]]; }
};

/// Builds the chain model, merging segments until every value and backward
/// op fits one segment. Fails with a diagnostic on a malformed joint.
FailureOr<ChainModel> buildChainModel(func::FuncOp fn);

/// True for ops that cost nothing to recompute and hold no storage: views,
/// and creation ops (full, arange, constant).
bool isFreeOp(Operation *op);

} // namespace mlir::stax

#endif // STAX_ANALYSIS_CHECKPOINTCHAIN_H
