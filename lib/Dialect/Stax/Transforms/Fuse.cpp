//===- Fuse.cpp - --stax-fuse: group nodes into kernels -------------------===//
//
// After lowering, a function is a sequence of materialized nodes. Composition
// (Property 6.1) already fused every pointwise chain into its reader; what is
// left are values that had to be written to memory: reduction results, and
// values with several readers. This pass groups such nodes into
// `stax.kernel`s that run as one loop nest over shared outer loops, so that a
// value produced and consumed at the same outer index never leaves the
// kernel (softmax: the row max, the exp, the row sum and the division, one
// row at a time).
//
// Candidates are scored by the bytes of global memory traffic they save,
// computed from the read/write sets of the node bodies (Section 6.7), and
// merged greedily, best first. A merge is legal when
//  - the nodes share outer loops of more than one iteration in all (a
//    kernel over unit loops only would run each node whole, losing the
//    threads of the nodes' own loops), and every reduction's output
//    loops are outer loops (its result is complete at the end of one outer
//    iteration);
//  - every read of a buffer produced in the kernel is at the reader's own
//    outer indices (proved on the affine load address);
//  - no dependence path leaves the kernel and comes back (through a kept tp
//    op, a scatter or another kernel), which would need a global barrier.
// Kernels only regroup nodes that run in order, so values never change.
// The grouping is planned by lib/Analysis/FusionAnalysis.cpp; this file
// reorders the block and builds the kernels.
//
#include "Stax/Analysis/FusionAnalysis.h"
#include "Stax/Dialect/Stax/IR/StaxOps.h"
#include "Stax/Dialect/Stax/Transforms/Passes.h"
#include "Stax/Dialect/Tp/IR/Functional.h"
#include "mlir/IR/Builders.h"

namespace mlir::stax {
#define GEN_PASS_DEF_STAXFUSE
#include "Stax/Dialect/Stax/Transforms/Passes.h.inc"
} // namespace mlir::stax

using namespace mlir;
using namespace mlir::stax;

namespace {

/// Wraps a group of several nodes in a stax.kernel before `before`; results
/// used outside the group become the kernel's results.
void buildKernel(const FusionGroup &g, Operation *before) {
  Block &block = *before->getBlock();
  DenseSet<Operation *> inside(g.members.begin(), g.members.end());
  SmallVector<Value> escaping;
  SmallVector<Location> locs;
  for (Operation *m : g.members) {
    locs.push_back(m->getLoc());
    for (Value r : m->getResults())
      if (llvm::any_of(r.getUsers(), [&](Operation *u) {
            return !inside.contains(block.findAncestorOpInBlock(*u));
          }))
        escaping.push_back(r);
  }
  OpBuilder b(before);
  Location loc = b.getFusedLoc(locs);
  auto kernel = stax::KernelOp::create(b, loc, ValueRange(escaping).getTypes(),
                                       g.outerLoops);
  Block *body = new Block();
  kernel.getBody().push_back(body);
  for (Operation *m : g.members)
    m->moveBefore(body, body->end());
  b.setInsertionPointToEnd(body);
  stax::YieldOp::create(b, loc, escaping);
  for (auto [v, result] : llvm::zip(escaping, kernel.getResults()))
    v.replaceUsesWithIf(result, [&](OpOperand &use) {
      return !kernel->isProperAncestor(use.getOwner());
    });
}

struct StaxFusePass : public stax::impl::StaxFuseBase<StaxFusePass> {
  using StaxFuseBase::StaxFuseBase;
  void runOnOperation() override {
    if (failed(tp::verifyFunctional(getOperation(), getArgument())))
      return signalPassFailure();
    func::FuncOp func = getOperation();
    if (func.isExternal())
      return;
    Block &block = func.getBody().front();
    FailureOr<SmallVector<FusionGroup>> plan = planFusion(block, remarks);
    if (failed(plan))
      return signalPassFailure();
    // Emit the groups in the plan's (topological) order.
    Operation *terminator = block.getTerminator();
    for (const FusionGroup &g : *plan) {
      if (g.members.size() == 1)
        g.members.front()->moveBefore(terminator);
      else
        buildKernel(g, terminator);
    }
  }
};

} // namespace
