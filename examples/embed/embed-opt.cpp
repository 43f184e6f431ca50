//===- embed-opt.cpp - an MLIR tool that embeds Stax ----------------------===//
//
// Registers Stax (dialects, passes, pipelines) next to this project's own
// `toy` dialect (Toy.td) and its pass `--toy-to-tp`, which rewrites the toy
// ops into Stax's `tp` ops; `--stax-pipeline` then compiles the resulting
// tp functions down to the LLVM dialect:
//
//   embed-opt toy.mlir --toy-to-tp --stax-pipeline="target=cpu"
//
//===----------------------------------------------------------------------===//
#include "Toy.h"
#include "Stax/Dialect/Tp/IR/TpOps.h"
#include "Stax/InitAll.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

using namespace mlir;

namespace {
/// toy.square x -> tp.mul x, x; toy.sum x -> tp.sum x over every dimension.
/// A walk with a builder is enough: each toy op maps to one tp op of the
/// same result type.
struct ToyToTpPass : PassWrapper<ToyToTpPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(ToyToTpPass)
  StringRef getArgument() const final { return "toy-to-tp"; }
  StringRef getDescription() const final {
    return "Rewrite toy ops into tp ops, for Stax's pipeline";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<tp::TpDialect>();
  }
  void runOnOperation() override {
    getOperation().walk([](Operation *op) {
      OpBuilder b(op);
      Value replacement;
      if (auto square = dyn_cast<toy::SquareOp>(op)) {
        Value x = square.getInput();
        replacement = tp::MulOp::create(b, op->getLoc(), x.getType(), x, x);
      } else if (auto sum = dyn_cast<toy::SumOp>(op)) {
        int64_t rank = sum.getInput().getType().getRank();
        replacement = tp::SumOp::create(
            b, op->getLoc(), sum.getType(), sum.getInput(),
            b.getDenseI64ArrayAttr(llvm::to_vector(llvm::seq<int64_t>(rank))),
            /*keepdim=*/false, /*dtype=*/TypeAttr());
      } else {
        return;
      }
      op->getResult(0).replaceAllUsesWith(replacement);
      op->erase();
    });
  }
};
} // namespace

int main(int argc, char **argv) {
  DialectRegistry registry;
  stax::registerAllDialects(registry);
  registry.insert<toy::ToyDialect>();
  stax::registerAllPasses();
  PassRegistration<ToyToTpPass>();
  return asMainReturnCode(MlirOptMain(
      argc, argv, "An MLIR tool with a toy dialect that embeds Stax\n",
      registry));
}
