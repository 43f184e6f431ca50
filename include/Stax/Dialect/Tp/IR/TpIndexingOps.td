//===- TpIndexingOps.td - tp indirect reads, scatters ------*- tablegen -*-===//
//
// The tp indirect reads and scatter writes.
// Included by TpOps.td, which defines the base classes; C++ in
// lib/Dialect/Tp/IR/TpIndexingOps.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef STAX_DIALECT_TP_IR_TPINDEXINGOPS_TD
#define STAX_DIALECT_TP_IR_TPINDEXINGOPS_TD

//===----------------------------------------------------------------------===//
// Indirect reads and scatter writes
//===----------------------------------------------------------------------===//

def Tp_IndexOp : Tp_Op<"index"> {
  let summary = "advanced indexing `self[..., idx, ...]` (aten.index.Tensor)";
  let description = [{
    `indices[k]` indexes dim `dims[k]` of `self` (the dims without an index are
    the `None` entries of aten's index list). Index tensors broadcast together;
    negative indices count from the end. When the indexed dims are adjacent the
    broadcast index shape replaces them in place, otherwise it goes first
    (numpy's rule).
  }];
  let arguments = (ins Tp_Tensor:$self, Variadic<Tp_IndexTensor>:$indices,
                       Tp_DimsAttr:$dims);
  let results = (outs Tp_Tensor:$result);
  let assemblyFormat = "$self `[` $indices `]` attr-dict `:` functional-type(operands, results)";
}
def Tp_IndexPutOp : Tp_Op<"index_put"> {
  let summary = "`self` with `self[indices] = values` (or `+=` when `accumulate`)";
  let arguments = (ins Tp_Tensor:$self, Variadic<Tp_IndexTensor>:$indices,
                       Tp_Tensor:$values, Tp_DimsAttr:$dims,
                       DefaultValuedAttr<BoolAttr, "false">:$accumulate);
  let results = (outs Tp_Tensor:$result);
  let assemblyFormat = [{
    $self `[` $indices `]` `,` $values attr-dict `:` functional-type(operands, results)
  }];
}
def Tp_IndexSelectOp : Tp_Op<"index_select"> {
  let summary = "gather whole slices along `dim` by a 1-D index";
  let arguments = (ins Tp_Tensor:$self, Tp_IndexTensor:$index, I64Attr:$dim);
  let results = (outs Tp_Tensor:$result);
  let assemblyFormat = "$self `,` $index attr-dict `:` functional-type(operands, results)";
}
def Tp_GatherOp : Tp_Op<"gather"> {
  let summary = "`result[i][j] = self[index[i][j]][j]` for dim 0 (aten.gather)";
  let arguments = (ins Tp_Tensor:$self, Tp_IndexTensor:$index, I64Attr:$dim);
  let results = (outs Tp_Tensor:$result);
  let assemblyFormat = "$self `,` $index attr-dict `:` functional-type(operands, results)";
}
def Tp_ScatterOp : Tp_Op<"scatter"> {
  let summary = "`self` with `self[index[i][j]][j] = src[i][j]` for dim 0 (aten.scatter.src)";
  let arguments = (ins Tp_Tensor:$self, Tp_IndexTensor:$index, Tp_Tensor:$src, I64Attr:$dim);
  let results = (outs Tp_Tensor:$result);
  let assemblyFormat = "$self `,` $index `,` $src attr-dict `:` functional-type(operands, results)";
}
def Tp_ScatterAddOp : Tp_Op<"scatter_add"> {
  let summary = "`self` with `self[index[i][j]][j] += src[i][j]` for dim 0";
  let arguments = (ins Tp_Tensor:$self, Tp_IndexTensor:$index, Tp_Tensor:$src, I64Attr:$dim);
  let results = (outs Tp_Tensor:$result);
  let assemblyFormat = "$self `,` $index `,` $src attr-dict `:` functional-type(operands, results)";
}
def Tp_EmbeddingOp : Tp_Op<"embedding"> {
  let summary = "rows of `weight` selected by `indices` (result shape indices.shape + [dim])";
  let arguments = (ins Tp_Tensor:$weight, Tp_IndexTensor:$indices,
                       DefaultValuedAttr<I64Attr, "-1">:$padding_idx);
  let results = (outs Tp_Tensor:$result);
  let assemblyFormat = "$weight `,` $indices attr-dict `:` functional-type(operands, results)";
}
def Tp_EmbeddingDenseBackwardOp : Tp_Op<"embedding_dense_backward"> {
  let summary = "scatter-add of `grad_output` rows into a `num_weights` x dim gradient";
  let arguments = (ins Tp_Tensor:$grad_output, Tp_IndexTensor:$indices,
                       I64Attr:$num_weights, DefaultValuedAttr<I64Attr, "-1">:$padding_idx,
                       DefaultValuedAttr<BoolAttr, "false">:$scale_grad_by_freq);
  let results = (outs Tp_Tensor:$result);
  let assemblyFormat = "$grad_output `,` $indices attr-dict `:` functional-type(operands, results)";
}

#endif // STAX_DIALECT_TP_IR_TPINDEXINGOPS_TD
