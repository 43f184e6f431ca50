//===- TpReductionOps.td - tp reductions, sorting ----------*- tablegen -*-===//
//
// The tp reductions, and sorting along a dim (values and indices, like
// max.dim).
// Included by TpOps.td, which defines the base classes; C++ in
// lib/Dialect/Tp/IR/TpReductionOps.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef STAX_DIALECT_TP_IR_TPREDUCTIONOPS_TD
#define STAX_DIALECT_TP_IR_TPREDUCTIONOPS_TD

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

def Tp_SumOp : Tp_ReductionOp<"sum", "IntToLong">;
def Tp_ProdOp : Tp_ReductionOp<"prod", "IntToLong">;
def Tp_MeanOp : Tp_ReductionOp<"mean", "FloatOnly">;
def Tp_AmaxOp : Tp_ReductionOp<"amax", "Same", [Tp_NonEmptyReduction]>;
def Tp_AminOp : Tp_ReductionOp<"amin", "Same", [Tp_NonEmptyReduction]>;
def Tp_LogsumexpOp : Tp_ReductionOp<"logsumexp", "IntToFloat">;
def Tp_AnyOp : Tp_ReductionOp<"any", "ToBool">;
def Tp_AllOp : Tp_ReductionOp<"all", "ToBool">;
def Tp_VarOp : Tp_Op<"var", [Tp_Reduction]> {
  let summary = "variance over `dims` with Bessel `correction` (aten.var.correction)";
  let arguments = (ins Tp_Tensor:$self, Tp_DimsAttr:$dims,
                       DefaultValuedAttr<F64Attr, "1.0">:$correction,
                       DefaultValuedAttr<BoolAttr, "false">:$keepdim);
  let results = (outs Tp_Tensor:$result);
  let assemblyFormat = "$self attr-dict `:` type($self) `->` type($result)";
}
def Tp_MaxDimOp : Tp_Op<"max.dim", [Tp_Reduction, Tp_NonEmptyReduction]> {
  let summary = "maximum and its (first) index along `dim` (aten.max.dim)";
  let arguments = (ins Tp_Tensor:$self, I64Attr:$dim,
                       DefaultValuedAttr<BoolAttr, "false">:$keepdim);
  let results = (outs Tp_Tensor:$values, Tp_IndexTensor:$indices);
  let assemblyFormat = "$self attr-dict `:` type($self) `->` type(results)";
}
def Tp_MinDimOp : Tp_Op<"min.dim", [Tp_Reduction, Tp_NonEmptyReduction]> {
  let summary = "minimum and its (first) index along `dim` (aten.min.dim)";
  let arguments = (ins Tp_Tensor:$self, I64Attr:$dim,
                       DefaultValuedAttr<BoolAttr, "false">:$keepdim);
  let results = (outs Tp_Tensor:$values, Tp_IndexTensor:$indices);
  let assemblyFormat = "$self attr-dict `:` type($self) `->` type(results)";
}
class Tp_ArgReductionOp<string mnemonic>
    : Tp_Op<mnemonic, [Tp_Reduction, Tp_NonEmptyReduction]> {
  let summary = "index of the first extreme value along `dim` (all dims flattened when absent)";
  let arguments = (ins Tp_Tensor:$self, OptionalAttr<I64Attr>:$dim,
                       DefaultValuedAttr<BoolAttr, "false">:$keepdim);
  let results = (outs Tp_IndexTensor:$result);
  let assemblyFormat = "$self attr-dict `:` type($self) `->` type($result)";
  let extraClassDefinition = Tp_InferBy<
      "::mlir::tp::inferArgReduction(loc, name, adaptor.getSelf().getType(), "
      "adaptor.getDim(), adaptor.getKeepdim(), types)">.inferBody;
}
def Tp_ArgmaxOp : Tp_ArgReductionOp<"argmax">;
def Tp_ArgminOp : Tp_ArgReductionOp<"argmin">;

//===----------------------------------------------------------------------===//
// Sorting (an external kernel when lowered)
//===----------------------------------------------------------------------===//

def Tp_SortOp : Tp_Op<"sort", [Tp_External]> {
  let summary = "stable sort along `dim` and its permutation (aten.sort)";
  let description = [{
    `values` is `self` sorted along `dim` (ascending, or descending when
    `descending`); `indices` holds, for every element of `values`, its
    position along `dim` in `self`. The sort is stable in both orders
    (equal elements keep their order), NaN is larger than every number
    (last ascending, first descending) and -0.0 equals 0.0, as in eager's
    `torch.sort(..., stable=True)`. A 0-d `self` takes dim 0 or -1.

    ```mlir
    %v, %i = tp.sort %x {dim = -1 : i64, descending = true}
        : tensor<4x5xf32> -> tensor<4x5xf32>, tensor<4x5xi64>
    ```
  }];
  let arguments = (ins Tp_Tensor:$self, I64Attr:$dim,
                       DefaultValuedAttr<BoolAttr, "false">:$descending);
  let results = (outs Tp_Tensor:$values, Tp_IndexTensor:$indices);
  let assemblyFormat = "$self attr-dict `:` type($self) `->` type(results)";
}

#endif // STAX_DIALECT_TP_IR_TPREDUCTIONOPS_TD
