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
  let description = [{
    `aten.t`: swaps the two dims of a matrix; a 0-d or 1-D tensor is
    returned as it is. A view: no data moves once lowered. `t(t(x))`
    folds to `x`.

    ```mlir
    func.func @example(%x: tensor<2x3xf32>) -> tensor<3x2xf32> {
      %r = tp.t %x : tensor<2x3xf32> -> tensor<3x2xf32>
      return %r : tensor<3x2xf32>
    }
    ```
  }];
  let arguments = (ins Tp_Tensor:$self);
  let hasFolder = 1;
}
def Tp_TransposeOp : Tp_ViewOp<"transpose"> {
  let summary = "swap two dims (aten.transpose.int)";
  let description = [{
    Swaps dims `dim0` and `dim1` (negative dims count from the end). A
    view.

    ```mlir
    func.func @example(%x: tensor<2x3x4xf32>) -> tensor<4x3x2xf32> {
      %r = tp.transpose %x {dim0 = 0 : i64, dim1 = -1 : i64} : tensor<2x3x4xf32> -> tensor<4x3x2xf32>
      return %r : tensor<4x3x2xf32>
    }
    ```
  }];
  let arguments = (ins Tp_Tensor:$self, I64Attr:$dim0, I64Attr:$dim1);
}
def Tp_PermuteOp : Tp_ViewOp<"permute"> {
  let summary = "reorder dims: result dim i is input dim dims[i]";
  let description = [{
    `aten.permute`: `dims` is a permutation of the dims of `self`. A view;
    the identity permutation folds away.

    ```mlir
    func.func @example(%x: tensor<2x3x4xf32>) -> tensor<4x2x3xf32> {
      %r = tp.permute %x {dims = array<i64: 2, 0, 1>} : tensor<2x3x4xf32> -> tensor<4x2x3xf32>
      return %r : tensor<4x2x3xf32>
    }
    ```
  }];
  let arguments = (ins Tp_Tensor:$self, Tp_DimsAttr:$dims);
  let hasFolder = 1;
}
// Reshapes; `size` may hold one -1 that is inferred.
class Tp_ReshapeLikeOp<string mnemonic> : Tp_ViewOp<mnemonic> {
  let summary = "reshape to `size` (same number of elements, row-major order)";
  let description = [{
    `aten.}] # mnemonic # [{`: the elements of `self` in row-major order,
    reshaped to `size`, which may hold one `-1` inferred from the number of
    elements. A view; a reshape to the same type folds away.

    ```mlir
    func.func @example(%x: tensor<2x3x4xf32>) -> tensor<6x4xf32> {
      %r = tp.}] # mnemonic # [{ %x {size = array<i64: -1, 4>} : tensor<2x3x4xf32> -> tensor<6x4xf32>
      return %r : tensor<6x4xf32>
    }
    ```
  }];
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
  let description = [{
    `aten._reshape_alias`, which eager's reshape produces for contiguous
    tensors: a `tp.view` to `size`. `stride` must be the row-major strides
    of `size` (the verifier checks it); values do not depend on it.

    ```mlir
    func.func @example(%x: tensor<2x3x4xf32>) -> tensor<6x4xf32> {
      %r = tp._reshape_alias %x {size = array<i64: 6, 4>, stride = array<i64: 4, 1>} : tensor<2x3x4xf32> -> tensor<6x4xf32>
      return %r : tensor<6x4xf32>
    }
    ```
  }];
  let arguments = (ins Tp_Tensor:$self, Tp_DimsAttr:$size, Tp_DimsAttr:$stride);
  let hasVerifier = 1;
  let extraClassDefinition = Tp_InferBy<
      "::mlir::tp::inferReshape(loc, name, adaptor.getSelf().getType(), "
      "adaptor.getSize(), types)">.inferBody;
}
def Tp_ExpandOp : Tp_ViewOp<"expand"> {
  let summary = "broadcast to `size` (-1 keeps a dim); new dims are added in front";
  let description = [{
    `aten.expand`: size-1 dims are repeated to the size in `size`, `-1`
    keeps a dim as it is, and extra leading entries add dims in front. A
    view (the repeated elements are not copied); expanding to the same type
    folds away.

    ```mlir
    func.func @example(%x: tensor<3x1xf32>) -> tensor<2x3x4xf32> {
      %r = tp.expand %x {size = array<i64: 2, -1, 4>} : tensor<3x1xf32> -> tensor<2x3x4xf32>
      return %r : tensor<2x3x4xf32>
    }
    ```
  }];
  let arguments = (ins Tp_Tensor:$self, Tp_DimsAttr:$size);
  let hasFolder = 1;
}
def Tp_UnsqueezeOp : Tp_ViewOp<"unsqueeze"> {
  let summary = "insert a size-1 dim at `dim`";
  let description = [{
    `aten.unsqueeze`: the result has a dim of size 1 at position `dim`
    (negative: counted from the end of the result). A view.

    ```mlir
    func.func @example(%x: tensor<3xf32>) -> tensor<1x3xf32> {
      %r = tp.unsqueeze %x {dim = 0 : i64} : tensor<3xf32> -> tensor<1x3xf32>
      return %r : tensor<1x3xf32>
    }
    ```
  }];
  let arguments = (ins Tp_Tensor:$self, I64Attr:$dim);
}
def Tp_SqueezeOp : Tp_ViewOp<"squeeze"> {
  let summary = "remove size-1 dims: those in `dims`, or all when absent";
  let description = [{
    `aten.squeeze` (`squeeze.dim`, `squeeze.dims`): the listed dims are
    removed when their size is 1 (other listed dims stay), or every size-1
    dim without `dims`. A view.

    ```mlir
    func.func @example(%x: tensor<1x3x1xf32>) -> tensor<3x1xf32> {
      %r = tp.squeeze %x {dims = array<i64: 0>} : tensor<1x3x1xf32> -> tensor<3x1xf32>
      return %r : tensor<3x1xf32>
    }
    ```
  }];
  let arguments = (ins Tp_Tensor:$self, OptionalAttr<Tp_DimsAttr>:$dims);
}
def Tp_SliceOp : Tp_ViewOp<"slice"> {
  let summary = "elements start, start+step, ... < end along `dim` (aten.slice.Tensor)";
  let description = [{
    Python's `x[start:end:step]` along `dim`: `start` and `end` are
    clamped to the dim's size (negative values count from the end; `end`
    defaults to the largest i64, i.e. to the end), `step` is positive. A
    view.

    ```mlir
    func.func @example(%x: tensor<4x10xf32>) -> tensor<4x3xf32> {
      %r = tp.slice %x {dim = 1 : i64, start = 2 : i64, end = 8 : i64, step = 2 : i64} : tensor<4x10xf32> -> tensor<4x3xf32>
      return %r : tensor<4x3xf32>
    }
    ```
  }];
  let arguments = (ins Tp_Tensor:$self, DefaultValuedAttr<I64Attr, "0">:$dim,
                       DefaultValuedAttr<I64Attr, "0">:$start,
                       DefaultValuedAttr<I64Attr, "9223372036854775807">:$end,
                       DefaultValuedAttr<I64Attr, "1">:$step);
}
def Tp_SelectOp : Tp_ViewOp<"select"> {
  let summary = "the slice at `index` along `dim`, which is removed (aten.select.int)";
  let description = [{
    Python's `x[..., index, ...]` with an integer at position `dim`
    (negative `index` counts from the end). A view.

    ```mlir
    func.func @example(%x: tensor<4x10xf32>) -> tensor<10xf32> {
      %r = tp.select %x {dim = 0 : i64, index = -1 : i64} : tensor<4x10xf32> -> tensor<10xf32>
      return %r : tensor<10xf32>
    }
    ```
  }];
  let arguments = (ins Tp_Tensor:$self, I64Attr:$dim, I64Attr:$index);
}
def Tp_AsStridedOp : Tp_ViewOp<"as_strided"> {
  let summary = "view of the row-major storage of `self` with explicit strides and offset";
  let description = [{
    `aten.as_strided`: element `i` of the result is element
    `storage_offset + sum_k stride[k] * i[k]` of the row-major storage of
    `self`; every address must lie within it.

    ```mlir
    func.func @example(%x: tensor<10xf32>) -> tensor<4x3xf32> {
      %r = tp.as_strided %x {size = array<i64: 4, 3>, stride = array<i64: 2, 1>} : tensor<10xf32> -> tensor<4x3xf32>
      return %r : tensor<4x3xf32>
    }
    ```
  }];
  let arguments = (ins Tp_Tensor:$self, Tp_DimsAttr:$size, Tp_DimsAttr:$stride,
                       DefaultValuedAttr<I64Attr, "0">:$storage_offset);
}
def Tp_SliceBackwardOp : Tp_Op<"slice_backward"> {
  let summary = "zeros of `input_sizes` with `grad_output` written at the slice";
  let description = [{
    `aten.slice_backward`, the adjoint of `tp.slice`: a tensor of shape
    `input_sizes` that is zero except at the slice `start:end:step` of
    `dim`, which holds `grad_output`.

    ```mlir
    func.func @example(%g: tensor<4x3xf32>) -> tensor<4x10xf32> {
      %r = tp.slice_backward %g {input_sizes = array<i64: 4, 10>, dim = 1 : i64, start = 2 : i64, end = 8 : i64, step = 2 : i64} : tensor<4x3xf32> -> tensor<4x10xf32>
      return %r : tensor<4x10xf32>
    }
    ```
  }];
  let arguments = (ins Tp_Tensor:$grad_output, Tp_DimsAttr:$input_sizes, I64Attr:$dim,
                       I64Attr:$start, I64Attr:$end, I64Attr:$step);
  let results = (outs Tp_Tensor:$result);
  let assemblyFormat = "$grad_output attr-dict `:` type($grad_output) `->` type($result)";
}
def Tp_SelectBackwardOp : Tp_Op<"select_backward"> {
  let summary = "zeros of `input_sizes` with `grad_output` written at `index` of `dim`";
  let description = [{
    `aten.select_backward`, the adjoint of `tp.select`.

    ```mlir
    func.func @example(%g: tensor<10xf32>) -> tensor<4x10xf32> {
      %r = tp.select_backward %g {input_sizes = array<i64: 4, 10>, dim = 0 : i64, index = 3 : i64} : tensor<10xf32> -> tensor<4x10xf32>
      return %r : tensor<4x10xf32>
    }
    ```
  }];
  let arguments = (ins Tp_Tensor:$grad_output, Tp_DimsAttr:$input_sizes, I64Attr:$dim,
                       I64Attr:$index);
  let results = (outs Tp_Tensor:$result);
  let assemblyFormat = "$grad_output attr-dict `:` type($grad_output) `->` type($result)";
}
def Tp_SplitOp : Tp_Op<"split", [Tp_View]> {
  let summary = "chunks of `split_size` along `dim`, the last may be smaller (aten.split.Tensor)";
  let description = [{
    One result per chunk of `split_size` elements along `dim`; the last
    chunk holds what is left. Each result is a view (a slice).

    ```mlir
    func.func @example(%x: tensor<5x4xf32>) -> tensor<1x4xf32> {
      %a, %b, %c = tp.split %x {split_size = 2 : i64} : tensor<5x4xf32> -> tensor<2x4xf32>, tensor<2x4xf32>, tensor<1x4xf32>
      return %c : tensor<1x4xf32>
    }
    ```
  }];
  let arguments = (ins Tp_Tensor:$self, I64Attr:$split_size,
                       DefaultValuedAttr<I64Attr, "0">:$dim);
  let results = (outs Variadic<Tp_Tensor>:$results);
  let assemblyFormat = "$self attr-dict `:` type($self) `->` type($results)";
}
def Tp_SplitWithSizesOp : Tp_Op<"split_with_sizes", [Tp_View]> {
  let summary = "chunks of the given sizes along `dim`";
  let description = [{
    `aten.split_with_sizes`: one result per entry of `split_sizes`, which
    add up to the size of `dim`. Each result is a view.

    ```mlir
    func.func @example(%x: tensor<2x6xf32>) -> tensor<2x4xf32> {
      %a, %b = tp.split_with_sizes %x {split_sizes = array<i64: 2, 4>, dim = 1 : i64} : tensor<2x6xf32> -> tensor<2x2xf32>, tensor<2x4xf32>
      return %b : tensor<2x4xf32>
    }
    ```
  }];
  let arguments = (ins Tp_Tensor:$self, Tp_DimsAttr:$split_sizes,
                       DefaultValuedAttr<I64Attr, "0">:$dim);
  let results = (outs Variadic<Tp_Tensor>:$results);
  let assemblyFormat = "$self attr-dict `:` type($self) `->` type($results)";
}
def Tp_UnbindOp : Tp_Op<"unbind", [Tp_View]> {
  let summary = "all slices along `dim`, each without that dim";
  let description = [{
    `aten.unbind`: one result per index along `dim`, each `tp.select` of
    it.

    ```mlir
    func.func @example(%x: tensor<2x3xf32>) -> tensor<3xf32> {
      %a, %b = tp.unbind %x : tensor<2x3xf32> -> tensor<3xf32>, tensor<3xf32>
      return %b : tensor<3xf32>
    }
    ```
  }];
  let arguments = (ins Tp_Tensor:$self, DefaultValuedAttr<I64Attr, "0">:$dim);
  let results = (outs Variadic<Tp_Tensor>:$results);
  let assemblyFormat = "$self attr-dict `:` type($self) `->` type($results)";
}
def Tp_CatOp : Tp_Op<"cat"> {
  let summary = "concatenation along `dim`";
  let description = [{
    `aten.cat`: the operands, which agree on every dim but `dim`, one after
    the other along `dim`; the element type is their promoted type. Lowered
    as masked loads, without intermediate copies.

    ```mlir
    func.func @example(%a: tensor<2x3xf32>, %b: tensor<2x5xf32>) -> tensor<2x8xf32> {
      %r = tp.cat %a, %b {dim = 1 : i64} : (tensor<2x3xf32>, tensor<2x5xf32>) -> tensor<2x8xf32>
      return %r : tensor<2x8xf32>
    }
    ```
  }];
  let arguments = (ins Variadic<Tp_Tensor>:$tensors, DefaultValuedAttr<I64Attr, "0">:$dim);
  let results = (outs Tp_Tensor:$result);
  let assemblyFormat = "$tensors attr-dict `:` functional-type(operands, results)";
}
def Tp_StackOp : Tp_Op<"stack"> {
  let summary = "stack along a new dim `dim`";
  let description = [{
    `aten.stack`: operands of one shape, stacked along a new dim at
    position `dim`; `--stax-decompose` rewrites it into `tp.unsqueeze` and
    `tp.cat`.

    ```mlir
    func.func @example(%a: tensor<3xf32>, %b: tensor<3xf32>) -> tensor<2x3xf32> {
      %r = tp.stack %a, %b {dim = 0 : i64} : (tensor<3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
      return %r : tensor<2x3xf32>
    }
    ```
  }];
  let arguments = (ins Variadic<Tp_Tensor>:$tensors, DefaultValuedAttr<I64Attr, "0">:$dim);
  let results = (outs Tp_Tensor:$result);
  let assemblyFormat = "$tensors attr-dict `:` functional-type(operands, results)";
}

#endif // STAX_DIALECT_TP_IR_TPSHAPEOPS_TD
