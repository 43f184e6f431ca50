//===- DerivativeRules.h - VJP/JVP rules of tp ops --------------*- C++ -*-===//
#ifndef STAX_DIALECT_TP_AUTODIFF_DERIVATIVERULES_H
#define STAX_DIALECT_TP_AUTODIFF_DERIVATIVERULES_H

namespace mlir {
class DialectRegistry;
namespace tp {
/// Attaches tp::DifferentiableOpInterface to every tp op that has derivative
/// rules. Ops without rules are not differentiable; autodiff reports them
/// when a derivative would have to flow through them.
void registerDerivativeRules(DialectRegistry &registry);
} // namespace tp
} // namespace mlir

#endif // STAX_DIALECT_TP_AUTODIFF_DERIVATIVERULES_H
