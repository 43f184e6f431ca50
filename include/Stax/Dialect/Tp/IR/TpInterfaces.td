//===- TpInterfaces.td - tp op interfaces ---------------------*- tablegen -*-===//
#ifndef STAX_DIALECT_TP_IR_TPINTERFACES_TD
#define STAX_DIALECT_TP_IR_TPINTERFACES_TD

include "mlir/IR/OpBase.td"

def Tp_DifferentiableOpInterface : OpInterface<"DifferentiableOpInterface"> {
  let cppNamespace = "::mlir::tp";
  let description = [{
    The derivative rules of an op, so that automatic differentiation is a
    walk over the graph rather than a switch over op kinds.

    Both methods build `tp` ops with `builder`, whose insertion point the
    caller sets. A null `Value` stands for a zero tensor: a result without an
    adjoint, an operand without a tangent, or an operand through which no
    derivative flows (an index, a mask). Rules never produce derivatives for
    operands of integer or bool type.

    Rules are attached as external models (Stax/Dialect/Tp/Autodiff), one
    file per op family, and are themselves written in `tp` ops that carry
    rules, so the result of differentiation is differentiable again (higher
    order derivatives).
  }];
  let methods = [
    InterfaceMethod<[{
        Vector-Jacobian product: given one adjoint per result (null: zero),
        appends one adjoint per operand (null: zero or not differentiable).
      }],
      "::llvm::LogicalResult", "buildVJP",
      (ins "::mlir::OpBuilder &":$builder,
           "::mlir::ValueRange":$resultAdjoints,
           "::llvm::SmallVectorImpl<::mlir::Value> &":$operandAdjoints)>,
    InterfaceMethod<[{
        Jacobian-vector product: given one tangent per operand (null: zero),
        appends one tangent per result (null: zero).
      }],
      "::llvm::LogicalResult", "buildJVP",
      (ins "::mlir::OpBuilder &":$builder,
           "::mlir::ValueRange":$operandTangents,
           "::llvm::SmallVectorImpl<::mlir::Value> &":$resultTangents)>,
  ];
}

#endif // STAX_DIALECT_TP_IR_TPINTERFACES_TD
