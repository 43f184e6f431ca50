//===- TpOps.td - tp dialect operations ---------------------*- tablegen -*-===//
//
// One op per operator overload. Ops are grouped in families that share operand
// layout, assembly format and type inference, so that adding an operator is one
// line. This file holds the constraints and base classes; each family's ops
// are in a file of their own (Tp<Family>Ops.td), and so is the C++ of their
// inference and verification (lib/Dialect/Tp/IR/Tp<Family>Ops.cpp; the shared
// family rules are in TypeInference.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef STAX_DIALECT_TP_IR_TPOPS_TD
#define STAX_DIALECT_TP_IR_TPOPS_TD

include "Stax/Dialect/Tp/IR/TpAttrs.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

//===----------------------------------------------------------------------===//
// Constraints and attributes
//===----------------------------------------------------------------------===//

defvar Tp_Tensor = AnyRankedTensor;
def Tp_IndexTensor : RankedTensorOf<[I64, I32]>;
def Tp_BoolTensor : RankedTensorOf<[I1]>;

// A scalar argument of an operator overload: `i64` (integer), `f64` (floating)
// or `i1` (bool). The kind matters for type promotion.
def Tp_ScalarAttr : Attr<CPred<"::mlir::tp::isScalarAttr($_self)">,
                         "scalar (i64, f64 or bool attribute)"> {
  let storageType = "::mlir::TypedAttr";
  let returnType = "::mlir::TypedAttr";
  let convertFromStorage = "$_self";
  let constBuilderCall = "$0";
}
defvar Tp_ScalarOne = DefaultValuedAttr<Tp_ScalarAttr,
                       "::mlir::tp::getIntScalar($_builder.getContext(), 1)">;

defvar Tp_DimsAttr = DenseI64ArrayAttr;
defvar Tp_ReductionAttr = DefaultValuedAttr<Tp_LossReductionAttr,
                                           "::mlir::tp::LossReduction::Mean">;
defvar Tp_ApproximateAttr = DefaultValuedAttr<Tp_GeluApproximateAttr,
                                             "::mlir::tp::GeluApproximate::None">;

//===----------------------------------------------------------------------===//
// Op categories (TpTraits.h)
//===----------------------------------------------------------------------===//

def Tp_Pointwise : NativeOpTrait<"tp::Pointwise">;
def Tp_View : NativeOpTrait<"tp::View">;
def Tp_Reduction : NativeOpTrait<"tp::Reduction">;
def Tp_Contraction : NativeOpTrait<"tp::Contraction">;
def Tp_External : NativeOpTrait<"tp::External">;
def Tp_Random : NativeOpTrait<"tp::Random">;
def Tp_InPlace : NativeOpTrait<"tp::InPlace">;
def Tp_SizedTensors : NativeOpTrait<"tp::SizedTensors">;
// Goes before InferTypeOpAdaptor (one diagnostic per type error).
def Tp_InferredResultTypes : NativeOpTrait<"tp::InferredResultTypes">;
def Tp_NonEmptyReduction : NativeOpTrait<"tp::NonEmptyReduction">;

//===----------------------------------------------------------------------===//
// Base classes
//===----------------------------------------------------------------------===//

class Tp_Op<string mnemonic, list<Trait> traits = []>
    : Op<Tp_Dialect, mnemonic,
         !listconcat([Pure, Tp_InferredResultTypes, InferTypeOpAdaptor,
                      Tp_SizedTensors], traits)>;

// Defines inferReturnTypes as a call of a family's C++ function. `call` is
// the expression that returns the LogicalResult, with `loc`, `adaptor`,
// `types` and `name` in scope.
class Tp_InferBy<string call> {
  code inferBody = [{
    ::llvm::LogicalResult $cppClass::inferReturnTypes(::mlir::MLIRContext *ctx,
        ::std::optional<::mlir::Location> loc, Adaptor adaptor,
        ::llvm::SmallVectorImpl<::mlir::Type> &types) {
      ::llvm::StringRef name = getOperationName();
      (void)ctx; (void)name;
      return }] # call # [{;
    }
  }];
}

// Unary elementwise: `%r = tp.exp %x : tensor<4xf32> -> tensor<4xf32>`.
// `promotion` is a ::mlir::tp::Promotion enumerator (Section 6.2).
class Tp_UnaryOp<string mnemonic, string promotion = "Same",
                 list<Trait> traits = []>
    : Tp_Op<mnemonic, !listconcat([Tp_Pointwise], traits)> {
  let summary = "elementwise `" # mnemonic # "` (aten." # mnemonic # ")";
  // Element types of the example in the description.
  defvar exIn = !cond(!eq(promotion, "IntOnly"): "i32", true: "f32");
  defvar exOut = !cond(!eq(promotion, "ToBool"): "i1", true: exIn);
  let description = [{
    Applies the operator to every element of `self`. The result has the
    shape of `self`; its element type follows the promotion mode `}] #
    promotion # [{` (}] # !cond(
      !eq(promotion, "IntToFloat"): "integer and bool operands give `f32`, floating ones keep their type",
      !eq(promotion, "FloatOnly"): "floating operands only, the result has their type",
      !eq(promotion, "IntOnly"): "integer and bool operands only, the result has their type",
      !eq(promotion, "ToBool"): "the result is `i1`",
      true: "the result has the operand's element type") # [{).

    ```mlir
    func.func @example(%x: tensor<2x3x}] # exIn # [{>) -> tensor<2x3x}] # exOut # [{> {
      %r = tp.}] # mnemonic # [{ %x : tensor<2x3x}] # exIn # [{> -> tensor<2x3x}] # exOut # [{>
      return %r : tensor<2x3x}] # exOut # [{>
    }
    ```
  }];
  let arguments = (ins Tp_Tensor:$self);
  let results = (outs Tp_Tensor:$result);
  let assemblyFormat = "$self attr-dict `:` type($self) `->` type($result)";
  let extraClassDefinition = Tp_InferBy<
      "::mlir::tp::inferUnary(loc, name, adaptor.getSelf().getType(), "
      "::mlir::tp::Promotion::" # promotion # ", types)">.inferBody;
}

// Binary elementwise with broadcasting: `tp.add %a, %b : t1, t2 -> t3`.
class Tp_BinaryOp<string mnemonic, string promotion = "Default",
                  list<Trait> traits = []>
    : Tp_Op<mnemonic, !listconcat([Tp_Pointwise], traits)> {
  let summary = "broadcasting elementwise `" # mnemonic # "` of two tensors";
  defvar exIn = !cond(!eq(promotion, "IntOnly"): "i32", true: "f32");
  defvar exOut = !cond(!eq(promotion, "ToBool"): "i1", true: exIn);
  let description = [{
    `aten.}] # mnemonic # [{.Tensor` on every pair of elements. `self` and
    `other` broadcast together (numpy's rule: trailing dims match or are 1);
    the result has the broadcast shape and the element type of PyTorch's
    type promotion of the two operands, with mode `}] # promotion # [{` (}] #
    !cond(!eq(promotion, "IntToFloat"): "integer and bool operands give `f32`",
          !eq(promotion, "IntOnly"): "integer and bool operands only",
          !eq(promotion, "ToBool"): "the result is `i1`",
          true: "the common type of the operands") # [{).

    ```mlir
    func.func @example(%a: tensor<2x3x}] # exIn # [{>, %b: tensor<3x}] # exIn #
    [{>) -> tensor<2x3x}] # exOut # [{> {
      %r = tp.}] # mnemonic # [{ %a, %b : tensor<2x3x}] # exIn # [{>, tensor<3x}] #
    exIn # [{> -> tensor<2x3x}] # exOut # [{>
      return %r : tensor<2x3x}] # exOut # [{>
    }
    ```
  }];
  let arguments = (ins Tp_Tensor:$self, Tp_Tensor:$other);
  let results = (outs Tp_Tensor:$result);
  let assemblyFormat = [{
    $self `,` $other attr-dict `:` type($self) `,` type($other) `->` type($result)
  }];
  let extraClassDefinition = Tp_InferBy<
      "::mlir::tp::inferBinary(loc, name, adaptor.getSelf().getType(), "
      "adaptor.getOther().getType(), ::mlir::tp::Promotion::" # promotion #
      ", types)">.inferBody;
}

// Tensor-scalar elementwise (the `.Scalar` overloads): the scalar is the
// `other` attribute. `tp.mul.Scalar %x {other = 2 : i64} : t -> t`.
class Tp_ScalarOp<string mnemonic, string promotion = "Default",
                  list<Trait> traits = []>
    : Tp_Op<mnemonic, !listconcat([Tp_Pointwise], traits)> {
  let summary = "elementwise `" # mnemonic # "` of a tensor and a scalar";
  defvar exOut = !cond(!eq(promotion, "ToBool"): "i1", true: "f32");
  let description = [{
    `aten.}] # mnemonic # [{` on every element of `self` and the scalar
    `other`, an attribute whose type gives its kind: `i64` (integer), `f64`
    (floating) or `i1` (bool). The scalar takes part in type promotion only
    through its kind: an `i32` tensor and `2 : i64` give `i32`, and
    `2.5 : f64` gives `f32` (mode `}] # promotion # [{`).

    ```mlir
    func.func @example(%x: tensor<2x3xf32>) -> tensor<2x3x}] # exOut # [{> {
      %r = tp.}] # mnemonic # [{ %x {other = 2 : i64} : tensor<2x3xf32> -> tensor<2x3x}] #
    exOut # [{>
      return %r : tensor<2x3x}] # exOut # [{>
    }
    ```
  }];
  let arguments = (ins Tp_Tensor:$self, Tp_ScalarAttr:$other);
  let results = (outs Tp_Tensor:$result);
  let assemblyFormat = "$self attr-dict `:` type($self) `->` type($result)";
  let extraClassDefinition = Tp_InferBy<
      "::mlir::tp::inferBinaryScalar(loc, name, adaptor.getSelf().getType(), "
      "adaptor.getOther(), ::mlir::tp::Promotion::" # promotion #
      ", types)">.inferBody;
}

// Reductions over `dims` (empty = all dims). The result element type follows
// `promotion` unless `dtype` is given.
class Tp_ReductionOp<string mnemonic, string promotion = "Same",
                     list<Trait> traits = []>
    : Tp_Op<mnemonic, !listconcat([Tp_Reduction], traits)> {
  let summary = "`" # mnemonic # "` reduction over `dims` (all when empty)";
  defvar exOut = !cond(!eq(promotion, "ToBool"): "i1", true: "f32");
  let description = [{
    Reduces `self` over the dims listed in `dims` (negative dims count from
    the end; an empty list reduces every dim). The reduced dims are removed,
    or kept with size 1 when `keepdim` is true. The result's element type
    is `dtype` when given, else it follows the mode `}] # promotion # [{` (}] #
    !cond(!eq(promotion, "IntToLong"): "integer and bool operands accumulate in `i64`",
          !eq(promotion, "IntToFloat"): "integer and bool operands give `f32`",
          !eq(promotion, "FloatOnly"): "floating operands only",
          !eq(promotion, "ToBool"): "the result is `i1`",
          true: "the operand's element type") # [{). Values combine in
    lexicographic order of the reduced indices (the reference interpreter's
    order).

    ```mlir
    func.func @example(%x: tensor<2x3xf32>) -> tensor<2x}] # exOut # [{> {
      %r = tp.}] # mnemonic # [{ %x {dims = array<i64: 1>} : tensor<2x3xf32> -> tensor<2x}] #
    exOut # [{>
      return %r : tensor<2x}] # exOut # [{>
    }
    ```
  }];
  let arguments = (ins Tp_Tensor:$self, Tp_DimsAttr:$dims,
                       DefaultValuedAttr<BoolAttr, "false">:$keepdim,
                       OptionalAttr<TypeAttr>:$dtype);
  let results = (outs Tp_Tensor:$result);
  let assemblyFormat = "$self attr-dict `:` type($self) `->` type($result)";
  let extraClassDefinition = Tp_InferBy<
      "::mlir::tp::inferReduction(loc, name, adaptor.getSelf().getType(), "
      "adaptor.getDims(), adaptor.getKeepdim(), adaptor.getDtype(), "
      "::mlir::tp::Promotion::" # promotion # ", types)">.inferBody;
}

// Ops whose arguments are spelled out by hand; their inferReturnTypes is in
// TpOps.cpp. The format prints operands and a functional type.
class Tp_CustomOp<string mnemonic, list<Trait> traits = []>
    : Tp_Op<mnemonic, traits> {
  let assemblyFormat = "operands attr-dict `:` functional-type(operands, results)";
}

include "Stax/Dialect/Tp/IR/TpElementwiseOps.td"
include "Stax/Dialect/Tp/IR/TpSpecialOps.td"
include "Stax/Dialect/Tp/IR/TpReductionOps.td"
include "Stax/Dialect/Tp/IR/TpScanOps.td"
include "Stax/Dialect/Tp/IR/TpNNOps.td"
include "Stax/Dialect/Tp/IR/TpLinalgOps.td"
include "Stax/Dialect/Tp/IR/TpShapeOps.td"
include "Stax/Dialect/Tp/IR/TpIndexingOps.td"
include "Stax/Dialect/Tp/IR/TpCreationOps.td"
include "Stax/Dialect/Tp/IR/TpInPlaceOps.td"
include "Stax/Dialect/Tp/IR/TpRandomOps.td"

#endif // STAX_DIALECT_TP_IR_TPOPS_TD
