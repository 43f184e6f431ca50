//===- embed-opt.cpp - an MLIR tool that embeds Stax ----------------------===//
//
// Registers Stax (dialects, passes, pipelines) next to a pass of this
// project, `--embed-square-sum`, which writes the tp function
// `@square_sum(%x: tensor<NxMxf32>) -> tensor<f32>` (sum(x * x)) into the
// module; `--stax-pipeline` then compiles it down to the LLVM dialect.
//
//===----------------------------------------------------------------------===//
#include "Stax/Dialect/Tp/IR/TpOps.h"
#include "Stax/InitAll.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

using namespace mlir;

namespace {
struct SquareSumPass
    : PassWrapper<SquareSumPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(SquareSumPass)
  StringRef getArgument() const final { return "embed-square-sum"; }
  StringRef getDescription() const final {
    return "Write the tp function @square_sum (sum(x * x) of a 64x256 f32)";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<tp::TpDialect, func::FuncDialect>();
  }
  void runOnOperation() override {
    ModuleOp module = getOperation();
    OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
    Location loc = module.getLoc();
    auto x = RankedTensorType::get({64, 256}, b.getF32Type());
    auto scalar = RankedTensorType::get({}, b.getF32Type());
    auto fn = func::FuncOp::create(b, loc, "square_sum",
                                   b.getFunctionType({x}, {scalar}));
    b.setInsertionPointToStart(fn.addEntryBlock());
    Value arg = fn.getArgument(0);
    Value sq = tp::MulOp::create(b, loc, x, arg, arg);
    Value sum = tp::SumOp::create(b, loc, scalar, sq,
                                  b.getDenseI64ArrayAttr({0, 1}),
                                  /*keepdim=*/false, /*dtype=*/TypeAttr());
    func::ReturnOp::create(b, loc, sum);
  }
};
} // namespace

int main(int argc, char **argv) {
  DialectRegistry registry;
  stax::registerAllDialects(registry);
  stax::registerAllPasses();
  PassRegistration<SquareSumPass>();
  return asMainReturnCode(
      MlirOptMain(argc, argv, "An MLIR tool that embeds Stax\n", registry));
}
