//===- TpTraits.h - op categories of the tp dialect -------------*- C++ -*-===//
//
// The categories of Table 6.1 that passes ask about: what is cheap to
// recompute and fusible (pointwise ops, views), what reduces, what is a
// contraction, what stays an external kernel when lowered (contractions,
// sort), what draws random numbers. Declared on the op families in TpOps.td.
//
//===----------------------------------------------------------------------===//
#ifndef STAX_DIALECT_TP_IR_TPTRAITS_H
#define STAX_DIALECT_TP_IR_TPTRAITS_H

#include "mlir/IR/OpDefinition.h"

namespace mlir::tp {
/// Every tensor an op reads or writes has an element type of a PyTorch
/// dtype, and an element and byte count that fits in int64 (a shape of
/// 2^64 elements would otherwise wrap to 0).
LogicalResult verifyTensorSizes(Operation *op);
/// max/min-like reductions have no identity: reducing a dimension of size 0
/// (or all dimensions of an empty tensor) is an error, as in PyTorch.
LogicalResult verifyNonEmptyReduction(Operation *op);
} // namespace mlir::tp

namespace mlir::OpTrait::tp {
/// Each result element depends on the operand elements at the same
/// (broadcast) index only.
template <typename T> class Pointwise : public TraitBase<T, Pointwise> {};
/// Only reinterprets the index space of its tensor operand (no arithmetic).
template <typename T> class View : public TraitBase<T, View> {};
/// Combines many input elements into each result element.
template <typename T> class Reduction : public TraitBase<T, Reduction> {};
/// A matrix product or similar.
template <typename T> class Contraction : public TraitBase<T, Contraction> {};
/// Lowered to an external kernel (a runtime call), not to stax nodes: it
/// stays a tp op after --stax-lower and reads row-major buffers.
template <typename T> class External : public TraitBase<T, External> {};
/// Draws random numbers: never recomputed, never CSE'd.
template <typename T> class Random : public TraitBase<T, Random> {};
/// Overwrites its first operand (Section 4.9). Exists only between import
/// and --stax-functionalize: every other pass rejects it (Functional.h).
template <typename T> class InPlace : public TraitBase<T, InPlace> {};
/// Checks the op's result types against its type inference, placed before
/// InferTypeOpInterface in the op's traits: the interface's own verifier adds
/// "failed to infer returned types" after the inference's diagnostic, and
/// verification stops at the first failing trait, so a failure here leaves
/// the one diagnostic that names the problem.
template <typename T>
class InferredResultTypes : public TraitBase<T, InferredResultTypes> {
public:
  static LogicalResult verifyTrait(Operation *op) {
    SmallVector<Type, 4> types(op->getResultTypes());
    return T::refineReturnTypes(op->getContext(), op->getLoc(),
                                op->getOperands(), op->getRawDictionaryAttrs(),
                                op->getPropertiesStorage(), op->getRegions(),
                                types);
  }
};
/// Checks the sizes of the op's tensors (verifyTensorSizes).
template <typename T> class SizedTensors : public TraitBase<T, SizedTensors> {
public:
  static LogicalResult verifyTrait(Operation *op) {
    return ::mlir::tp::verifyTensorSizes(op);
  }
};
/// A reduction without identity (verifyNonEmptyReduction).
template <typename T>
class NonEmptyReduction : public TraitBase<T, NonEmptyReduction> {
public:
  static LogicalResult verifyTrait(Operation *op) {
    return ::mlir::tp::verifyNonEmptyReduction(op);
  }
};
} // namespace mlir::OpTrait::tp

#endif // STAX_DIALECT_TP_IR_TPTRAITS_H
