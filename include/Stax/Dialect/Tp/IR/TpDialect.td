//===- TpDialect.td - the operator-level tensor dialect ------*- tablegen -*-===//
//
// `tp` is the operator-level graph of the spec's Section 5.1: one op per
// operator overload of the eager framework (PyTorch's aten vocabulary), on ranked
// tensors with value semantics.
//
//===----------------------------------------------------------------------===//

#ifndef STAX_DIALECT_TP_IR_TPDIALECT_TD
#define STAX_DIALECT_TP_IR_TPDIALECT_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"

def Tp_Dialect : Dialect {
  let name = "tp";
  let cppNamespace = "::mlir::tp";
  let summary = "Operator-level tensor graph: one op per operator overload";
  let description = [{
    The `tp` dialect is the operator-level graph that the autodiff layer works on
    and that lowering to `stax` consumes. Each op corresponds to one overload of
    the eager framework's operator vocabulary (PyTorch 1.13's aten overloads):
    `tp.add` is `aten.add.Tensor`, `tp.add.Scalar` is `aten.add.Scalar`,
    `tp.sum` is `aten.sum.dim_IntList`, and so on. Overloads that only differ
    by a defaulted argument share one op with an optional attribute.

    Values are ranked tensors with value semantics. Every op infers its result
    type (broadcasting and the type-promotion modes of Section 6.2), verifies its
    operands with a message naming the problem, and folds only where the result
    is bitwise identical to evaluating the op.

    Scalars (`other` of `tp.mul.Scalar`, `alpha` of `tp.add`) are attributes: an
    `i64` attribute is an integer scalar and an `f64` attribute a floating one,
    which matters for type promotion (an integer tensor times `2.5` is `f32`).
  }];
  let useDefaultAttributePrinterParser = 1;
  let useDefaultTypePrinterParser = 0;
  // The discardable attributes of DiscardableAttrs.h are verified wherever
  // they appear (on ops, function arguments and results).
  let hasOperationAttrVerify = 1;
  let hasRegionArgAttrVerify = 1;
  let hasRegionResultAttrVerify = 1;
  let extraClassDeclaration = [{
    /// Adds the attributes (TpAttrs.cpp, where their storage is defined).
    void registerAttributes();
  }];
}

#endif // STAX_DIALECT_TP_IR_TPDIALECT_TD
