//===- IndexingRules.cpp - derivatives of Indexing ops ---------------------------===//

#include "RuleUtils.h"

using namespace mlir;
using namespace mlir::tp;
using namespace mlir::tp::autodiff;

void autodiff::attachIndexingRules(MLIRContext *ctx) {}
