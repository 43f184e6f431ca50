//===- DerivativeRules.cpp - attach the rules of every family -------------===//

#include "Stax/Dialect/Tp/Autodiff/DerivativeRules.h"
#include "RuleUtils.h"
#include "mlir/IR/DialectRegistry.h"

using namespace mlir;

void tp::registerDerivativeRules(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *ctx, tp::TpDialect *) {
    autodiff::attachElementwiseRules(ctx);
    autodiff::attachSpecialRules(ctx);
    autodiff::attachReductionRules(ctx);
    autodiff::attachScanRules(ctx);
    autodiff::attachShapeRules(ctx);
    autodiff::attachNNRules(ctx);
    autodiff::attachLinalgRules(ctx);
    autodiff::attachIndexingRules(ctx);
    autodiff::attachRandomRules(ctx);
  });
}
