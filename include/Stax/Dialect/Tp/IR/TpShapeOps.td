//===- TpShapeOps.td - tp views and shapes -----------------*- tablegen -*-===//
//
// The tp views and shape manipulation.
// Included by TpOps.td, which defines the base classes; C++ in
// lib/Dialect/Tp/IR/TpShapeOps.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef STAX_DIALECT_TP_IR_TPSHAPEOPS_TD
#define STAX_DIALECT_TP_IR_TPSHAPEOPS_TD

//===----------------------------------------------------------------------===//
// Views and shape manipulation (no data movement once lowered)
//===----------------------------------------------------------------------===//

class Tp_ViewOp<string mnemonic> : Tp_Op<mnemonic, [Tp_View]> {
  let results = (outs Tp_Tensor:$result);
  let assemblyFormat = "$self attr-dict `:` type($self) `->` type($result)";
}
def Tp_TOp : Tp_ViewOp<"t"> {
  let summary = "transpose of a tensor of rank <= 2";
  let arguments = (ins Tp_Tensor:$self);
  let hasFolder = 1;
}
def Tp_TransposeOp : Tp_ViewOp<"transpose"> {
  let summary = "swap two dims (aten.transpose.int)";
  let arguments = (ins Tp_Tensor:$self, I64Attr:$dim0, I64Attr:$dim1);
}
def Tp_PermuteOp : Tp_ViewOp<"permute"> {
  let summary = "reorder dims: result dim i is input dim dims[i]";
  let arguments = (ins Tp_Tensor:$self, Tp_DimsAttr:$dims);
  let hasFolder = 1;
}
// Reshapes; `size` may hold one -1 that is inferred.
class Tp_ReshapeLikeOp<string mnemonic> : Tp_ViewOp<mnemonic> {
  let summary = "reshape to `size` (same number of elements, row-major order)";
  let arguments = (ins Tp_Tensor:$self, Tp_DimsAttr:$size);
  let hasFolder = 1;
  let extraClassDefinition = Tp_InferBy<
      "::mlir::tp::inferReshape(loc, name, adaptor.getSelf().getType(), "
      "adaptor.getSize(), types)">.inferBody # [{
    ::mlir::OpFoldResult $cppClass::fold(FoldAdaptor) {
      if (getSelf().getType() == getType())
        return getSelf();
      return {};
    }
  }];
}
def Tp_ViewOp : Tp_ReshapeLikeOp<"view">;
def Tp_ReshapeOp : Tp_ReshapeLikeOp<"reshape">;
def Tp_UnsafeViewOp : Tp_ReshapeLikeOp<"_unsafe_view">;
def Tp_ReshapeAliasOp : Tp_ViewOp<"_reshape_alias"> {
  let summary = "reshape to `size`; `stride` records the eager strides (informational)";
  let arguments = (ins Tp_Tensor:$self, Tp_DimsAttr:$size, Tp_DimsAttr:$stride);
  let hasVerifier = 1;
  let extraClassDefinition = Tp_InferBy<
      "::mlir::tp::inferReshape(loc, name, adaptor.getSelf().getType(), "
      "adaptor.getSize(), types)">.inferBody;
}
def Tp_ExpandOp : Tp_ViewOp<"expand"> {
  let summary = "broadcast to `size` (-1 keeps a dim); new dims are added in front";
  let arguments = (ins Tp_Tensor:$self, Tp_DimsAttr:$size);
  let hasFolder = 1;
}
def Tp_UnsqueezeOp : Tp_ViewOp<"unsqueeze"> {
  let summary = "insert a size-1 dim at `dim`";
  let arguments = (ins Tp_Tensor:$self, I64Attr:$dim);
}
def Tp_SqueezeOp : Tp_ViewOp<"squeeze"> {
  let summary = "remove size-1 dims: those in `dims`, or all when absent";
  let arguments = (ins Tp_Tensor:$self, OptionalAttr<Tp_DimsAttr>:$dims);
}
def Tp_SliceOp : Tp_ViewOp<"slice"> {
  let summary = "elements start, start+step, ... < end along `dim` (aten.slice.Tensor)";
  let arguments = (ins Tp_Tensor:$self, DefaultValuedAttr<I64Attr, "0">:$dim,
                       DefaultValuedAttr<I64Attr, "0">:$start,
                       DefaultValuedAttr<I64Attr, "9223372036854775807">:$end,
                       DefaultValuedAttr<I64Attr, "1">:$step);
}
def Tp_SelectOp : Tp_ViewOp<"select"> {
  let summary = "the slice at `index` along `dim`, which is removed (aten.select.int)";
  let arguments = (ins Tp_Tensor:$self, I64Attr:$dim, I64Attr:$index);
}
def Tp_AsStridedOp : Tp_ViewOp<"as_strided"> {
  let summary = "view of the row-major storage of `self` with explicit strides and offset";
  let arguments = (ins Tp_Tensor:$self, Tp_DimsAttr:$size, Tp_DimsAttr:$stride,
                       DefaultValuedAttr<I64Attr, "0">:$storage_offset);
}
def Tp_SliceBackwardOp : Tp_Op<"slice_backward"> {
  let summary = "zeros of `input_sizes` with `grad_output` written at the slice";
  let arguments = (ins Tp_Tensor:$grad_output, Tp_DimsAttr:$input_sizes, I64Attr:$dim,
                       I64Attr:$start, I64Attr:$end, I64Attr:$step);
  let results = (outs Tp_Tensor:$result);
  let assemblyFormat = "$grad_output attr-dict `:` type($grad_output) `->` type($result)";
}
def Tp_SelectBackwardOp : Tp_Op<"select_backward"> {
  let summary = "zeros of `input_sizes` with `grad_output` written at `index` of `dim`";
  let arguments = (ins Tp_Tensor:$grad_output, Tp_DimsAttr:$input_sizes, I64Attr:$dim,
                       I64Attr:$index);
  let results = (outs Tp_Tensor:$result);
  let assemblyFormat = "$grad_output attr-dict `:` type($grad_output) `->` type($result)";
}
def Tp_SplitOp : Tp_Op<"split", [Tp_View]> {
  let summary = "chunks of `split_size` along `dim`, the last may be smaller (aten.split.Tensor)";
  let arguments = (ins Tp_Tensor:$self, I64Attr:$split_size,
                       DefaultValuedAttr<I64Attr, "0">:$dim);
  let results = (outs Variadic<Tp_Tensor>:$results);
  let assemblyFormat = "$self attr-dict `:` type($self) `->` type($results)";
}
def Tp_SplitWithSizesOp : Tp_Op<"split_with_sizes", [Tp_View]> {
  let summary = "chunks of the given sizes along `dim`";
  let arguments = (ins Tp_Tensor:$self, Tp_DimsAttr:$split_sizes,
                       DefaultValuedAttr<I64Attr, "0">:$dim);
  let results = (outs Variadic<Tp_Tensor>:$results);
  let assemblyFormat = "$self attr-dict `:` type($self) `->` type($results)";
}
def Tp_UnbindOp : Tp_Op<"unbind", [Tp_View]> {
  let summary = "all slices along `dim`, each without that dim";
  let arguments = (ins Tp_Tensor:$self, DefaultValuedAttr<I64Attr, "0">:$dim);
  let results = (outs Variadic<Tp_Tensor>:$results);
  let assemblyFormat = "$self attr-dict `:` type($self) `->` type($results)";
}
def Tp_CatOp : Tp_Op<"cat"> {
  let summary = "concatenation along `dim`";
  let arguments = (ins Variadic<Tp_Tensor>:$tensors, DefaultValuedAttr<I64Attr, "0">:$dim);
  let results = (outs Tp_Tensor:$result);
  let assemblyFormat = "$tensors attr-dict `:` functional-type(operands, results)";
}
def Tp_StackOp : Tp_Op<"stack"> {
  let summary = "stack along a new dim `dim`";
  let arguments = (ins Variadic<Tp_Tensor>:$tensors, DefaultValuedAttr<I64Attr, "0">:$dim);
  let results = (outs Tp_Tensor:$result);
  let assemblyFormat = "$tensors attr-dict `:` functional-type(operands, results)";
}

#endif // STAX_DIALECT_TP_IR_TPSHAPEOPS_TD
