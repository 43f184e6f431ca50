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
    (numpy's rule). An index out of range is a run-time error.

    ```mlir
    func.func @example(%x: tensor<4x5xf32>, %rows: tensor<3xi64>) -> tensor<3x5xf32> {
      %r = tp.index %x[%rows] {dims = array<i64: 0>} : (tensor<4x5xf32>, tensor<3xi64>) -> tensor<3x5xf32>
      return %r : tensor<3x5xf32>
    }
    ```
  }];
  let arguments = (ins Tp_Tensor:$self, Variadic<Tp_IndexTensor>:$indices,
                       Tp_DimsAttr:$dims);
  let results = (outs Tp_Tensor:$result);
  let assemblyFormat = "$self `[` $indices `]` attr-dict `:` functional-type(operands, results)";
}
def Tp_IndexPutOp : Tp_Op<"index_put"> {
  let summary = "`self` with `self[indices] = values` (or `+=` when `accumulate`)";
  let description = [{
    `aten.index_put`: a copy of `self` in which the elements that
    `tp.index` with the same `indices` and `dims` would read are replaced
    by `values` (broadcast to the indexed shape), or incremented by them
    when `accumulate` (repeated indices then add up).

    ```mlir
    func.func @example(%x: tensor<4x5xf32>, %rows: tensor<3xi64>, %v: tensor<3x5xf32>) -> tensor<4x5xf32> {
      %r = tp.index_put %x[%rows], %v {dims = array<i64: 0>, accumulate = true} : (tensor<4x5xf32>, tensor<3xi64>, tensor<3x5xf32>) -> tensor<4x5xf32>
      return %r : tensor<4x5xf32>
    }
    ```
  }];
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
  let description = [{
    `aten.index_select`: the slices of `self` at the positions in `index`
    along `dim`, in that order; the result's `dim` has the index's length.

    ```mlir
    func.func @example(%x: tensor<4x5xf32>, %i: tensor<2xi64>) -> tensor<4x2xf32> {
      %r = tp.index_select %x, %i {dim = 1 : i64} : (tensor<4x5xf32>, tensor<2xi64>) -> tensor<4x2xf32>
      return %r : tensor<4x2xf32>
    }
    ```
  }];
  let arguments = (ins Tp_Tensor:$self, Tp_IndexTensor:$index, I64Attr:$dim);
  let results = (outs Tp_Tensor:$result);
  let assemblyFormat = "$self `,` $index attr-dict `:` functional-type(operands, results)";
}
def Tp_GatherOp : Tp_Op<"gather"> {
  let summary = "`result[i][j] = self[index[i][j]][j]` for dim 0 (aten.gather)";
  let description = [{
    The result has the shape of `index`; along `dim` each element reads the
    position that `index` holds, along the other dims its own position
    (`index` may be smaller than `self` there).

    ```mlir
    func.func @example(%x: tensor<4x5xf32>, %i: tensor<4x1xi64>) -> tensor<4x1xf32> {
      %r = tp.gather %x, %i {dim = 1 : i64} : (tensor<4x5xf32>, tensor<4x1xi64>) -> tensor<4x1xf32>
      return %r : tensor<4x1xf32>
    }
    ```
  }];
  let arguments = (ins Tp_Tensor:$self, Tp_IndexTensor:$index, I64Attr:$dim);
  let results = (outs Tp_Tensor:$result);
  let assemblyFormat = "$self `,` $index attr-dict `:` functional-type(operands, results)";
}
def Tp_ScatterOp : Tp_Op<"scatter"> {
  let summary = "`self` with `self[index[i][j]][j] = src[i][j]` for dim 0 (aten.scatter.src)";
  let description = [{
    The dual of `tp.gather`: a copy of `self` in which each element of
    `src` (at the positions of `index`) is written where `index` points
    along `dim`. When two elements land on the same position, which one
    wins is not defined (as in eager).

    ```mlir
    func.func @example(%x: tensor<4x5xf32>, %i: tensor<4x1xi64>, %src: tensor<4x1xf32>) -> tensor<4x5xf32> {
      %r = tp.scatter %x, %i, %src {dim = 1 : i64} : (tensor<4x5xf32>, tensor<4x1xi64>, tensor<4x1xf32>) -> tensor<4x5xf32>
      return %r : tensor<4x5xf32>
    }
    ```
  }];
  let arguments = (ins Tp_Tensor:$self, Tp_IndexTensor:$index, Tp_Tensor:$src, I64Attr:$dim);
  let results = (outs Tp_Tensor:$result);
  let assemblyFormat = "$self `,` $index `,` $src attr-dict `:` functional-type(operands, results)";
}
def Tp_ScatterAddOp : Tp_Op<"scatter_add"> {
  let summary = "`self` with `self[index[i][j]][j] += src[i][j]` for dim 0";
  let description = [{
    `aten.scatter_add`: like `tp.scatter`, but each element of `src` is
    added to the element it lands on, so repeated positions accumulate.

    ```mlir
    func.func @example(%x: tensor<3x5xf32>, %i: tensor<4x5xi64>, %src: tensor<4x5xf32>) -> tensor<3x5xf32> {
      %r = tp.scatter_add %x, %i, %src {dim = 0 : i64} : (tensor<3x5xf32>, tensor<4x5xi64>, tensor<4x5xf32>) -> tensor<3x5xf32>
      return %r : tensor<3x5xf32>
    }
    ```
  }];
  let arguments = (ins Tp_Tensor:$self, Tp_IndexTensor:$index, Tp_Tensor:$src, I64Attr:$dim);
  let results = (outs Tp_Tensor:$result);
  let assemblyFormat = "$self `,` $index `,` $src attr-dict `:` functional-type(operands, results)";
}
def Tp_EmbeddingOp : Tp_Op<"embedding"> {
  let summary = "rows of `weight` selected by `indices` (result shape indices.shape + [dim])";
  let description = [{
    `aten.embedding`: for each index, the row of the table `weight`
    (num_weights x dim) it names. `padding_idx` only matters for the
    backward (that row gets no gradient).

    ```mlir
    func.func @example(%table: tensor<100x16xf32>, %ids: tensor<2x8xi64>) -> tensor<2x8x16xf32> {
      %r = tp.embedding %table, %ids : (tensor<100x16xf32>, tensor<2x8xi64>) -> tensor<2x8x16xf32>
      return %r : tensor<2x8x16xf32>
    }
    ```
  }];
  let arguments = (ins Tp_Tensor:$weight, Tp_IndexTensor:$indices,
                       DefaultValuedAttr<I64Attr, "-1">:$padding_idx);
  let results = (outs Tp_Tensor:$result);
  let assemblyFormat = "$weight `,` $indices attr-dict `:` functional-type(operands, results)";
}
def Tp_EmbeddingDenseBackwardOp : Tp_Op<"embedding_dense_backward"> {
  let summary = "scatter-add of `grad_output` rows into a `num_weights` x dim gradient";
  let description = [{
    `aten.embedding_dense_backward`: the gradient of the embedding table:
    zeros of `num_weights` x dim, to which the gradient row of every index
    is added (except for `padding_idx`); `scale_grad_by_freq` divides by
    the number of times each index occurs.

    ```mlir
    func.func @example(%g: tensor<2x8x16xf32>, %ids: tensor<2x8xi64>) -> tensor<100x16xf32> {
      %r = tp.embedding_dense_backward %g, %ids {num_weights = 100 : i64} : (tensor<2x8x16xf32>, tensor<2x8xi64>) -> tensor<100x16xf32>
      return %r : tensor<100x16xf32>
    }
    ```
  }];
  let arguments = (ins Tp_Tensor:$grad_output, Tp_IndexTensor:$indices,
                       I64Attr:$num_weights, DefaultValuedAttr<I64Attr, "-1">:$padding_idx,
                       DefaultValuedAttr<BoolAttr, "false">:$scale_grad_by_freq);
  let results = (outs Tp_Tensor:$result);
  let assemblyFormat = "$grad_output `,` $indices attr-dict `:` functional-type(operands, results)";
}

#endif // STAX_DIALECT_TP_IR_TPINDEXINGOPS_TD
