//===- TpReductionOps.td - tp reductions, sorting ----------*- tablegen -*-===//
//
// The tp reductions, and sorting and top-k selection along a dim (values
// and indices, like max.dim).
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
// amax/amin, and max()/min() without a dim (aten.max.default), which differ
// only in their gradient at a NaN extremum.
class Tp_ExtremumReductionOp<string mnemonic>
    : Tp_ReductionOp<mnemonic, "Same", [Tp_NonEmptyReduction]> {
  let arguments = (ins Tp_Tensor:$self, Tp_DimsAttr:$dims,
                       DefaultValuedAttr<BoolAttr, "false">:$keepdim,
                       OptionalAttr<TypeAttr>:$dtype,
                       Arg<UnitAttr, "the gradient at a NaN extremum goes "
                           "evenly to the NaN elements (PyTorch's max() and "
                           "min() without a dim); without it every partial "
                           "is NaN there (amax, amin)">:$nan_selects_nans);
}
def Tp_AmaxOp : Tp_ExtremumReductionOp<"amax">;
def Tp_AminOp : Tp_ExtremumReductionOp<"amin">;
def Tp_LogsumexpOp : Tp_ReductionOp<"logsumexp", "IntToFloat">;
def Tp_AnyOp : Tp_ReductionOp<"any", "ToBool">;
def Tp_AllOp : Tp_ReductionOp<"all", "ToBool">;
def Tp_VarOp : Tp_Op<"var", [Tp_Reduction]> {
  let summary = "variance over `dims` with Bessel `correction` (aten.var.correction)";
  let description = [{
    `sum((x - mean)^2) / (N - correction)` over the dims in `dims` (all
    when empty), N the number of reduced elements; `correction = 1.0` (the
    default) is the unbiased estimate. `keepdim` keeps the reduced dims
    with size 1. Floating operands.

    ```mlir
    func.func @example(%x: tensor<4x8xf32>) -> tensor<4x1xf32> {
      %r = tp.var %x {dims = array<i64: 1>, correction = 0.0 : f64, keepdim = true} : tensor<4x8xf32> -> tensor<4x1xf32>
      return %r : tensor<4x1xf32>
    }
    ```
  }];
  let arguments = (ins Tp_Tensor:$self, Tp_DimsAttr:$dims,
                       DefaultValuedAttr<F64Attr, "1.0">:$correction,
                       DefaultValuedAttr<BoolAttr, "false">:$keepdim);
  let results = (outs Tp_Tensor:$result);
  let assemblyFormat = "$self attr-dict `:` type($self) `->` type($result)";
}
def Tp_MaxDimOp : Tp_Op<"max.dim", [Tp_Reduction, Tp_NonEmptyReduction]> {
  let summary = "maximum and its (first) index along `dim` (aten.max.dim)";
  let description = [{
    Two results: the largest element along `dim` and its position along
    `dim` (`i64`; the first one when several are equal; a NaN counts as the
    largest). `dim` is removed unless `keepdim`. The dim must not be empty.

    ```mlir
    func.func @example(%x: tensor<2x3xf32>) -> (tensor<2xf32>, tensor<2xi64>) {
      %v, %i = tp.max.dim %x {dim = 1 : i64} : tensor<2x3xf32> -> tensor<2xf32>, tensor<2xi64>
      return %v, %i : tensor<2xf32>, tensor<2xi64>
    }
    ```
  }];
  let arguments = (ins Tp_Tensor:$self, I64Attr:$dim,
                       DefaultValuedAttr<BoolAttr, "false">:$keepdim);
  let results = (outs Tp_Tensor:$values, Tp_IndexTensor:$indices);
  let assemblyFormat = "$self attr-dict `:` type($self) `->` type(results)";
}
def Tp_MinDimOp : Tp_Op<"min.dim", [Tp_Reduction, Tp_NonEmptyReduction]> {
  let summary = "minimum and its (first) index along `dim` (aten.min.dim)";
  let description = [{
    Two results: the smallest element along `dim` and its position along
    `dim` (`i64`; the first one when several are equal; a NaN counts as the
    smallest). `dim` is removed unless `keepdim`. The dim must not be
    empty.

    ```mlir
    func.func @example(%x: tensor<2x3xf32>) -> (tensor<2x1xf32>, tensor<2x1xi64>) {
      %v, %i = tp.min.dim %x {dim = -1 : i64, keepdim = true} : tensor<2x3xf32> -> tensor<2x1xf32>, tensor<2x1xi64>
      return %v, %i : tensor<2x1xf32>, tensor<2x1xi64>
    }
    ```
  }];
  let arguments = (ins Tp_Tensor:$self, I64Attr:$dim,
                       DefaultValuedAttr<BoolAttr, "false">:$keepdim);
  let results = (outs Tp_Tensor:$values, Tp_IndexTensor:$indices);
  let assemblyFormat = "$self attr-dict `:` type($self) `->` type(results)";
}
class Tp_ArgReductionOp<string mnemonic>
    : Tp_Op<mnemonic, [Tp_Reduction, Tp_NonEmptyReduction]> {
  let summary = "index of the first extreme value along `dim` (all dims flattened when absent)";
  let description = [{
    `aten.}] # mnemonic # [{`: the position (`i64`) along `dim` of the first
    extreme element (a NaN counts as the extreme). Without `dim` the
    tensor is flattened and the result is a 0-d position in row-major
    order. `keepdim` keeps the reduced dim with size 1.

    ```mlir
    func.func @example(%x: tensor<2x3xf32>) -> (tensor<2xi64>, tensor<i64>) {
      %row = tp.}] # mnemonic # [{ %x {dim = 1 : i64} : tensor<2x3xf32> -> tensor<2xi64>
      %all = tp.}] # mnemonic # [{ %x : tensor<2x3xf32> -> tensor<i64>
      return %row, %all : tensor<2xi64>, tensor<i64>
    }
    ```
  }];
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
    func.func @example(%x: tensor<4x5xf32>) -> (tensor<4x5xf32>, tensor<4x5xi64>) {
      %v, %i = tp.sort %x {dim = -1 : i64, descending = true}
          : tensor<4x5xf32> -> tensor<4x5xf32>, tensor<4x5xi64>
      return %v, %i : tensor<4x5xf32>, tensor<4x5xi64>
    }
    ```
  }];
  let arguments = (ins Tp_Tensor:$self, I64Attr:$dim,
                       DefaultValuedAttr<BoolAttr, "false">:$descending);
  let results = (outs Tp_Tensor:$values, Tp_IndexTensor:$indices);
  let assemblyFormat = "$self attr-dict `:` type($self) `->` type(results)";
}

def Tp_TopkOp : Tp_Op<"topk", [Tp_External]> {
  let summary = "the `k` largest (or smallest) elements along `dim` and their indices (aten.topk)";
  let description = [{
    The first `k` elements of `tp.sort` of `self` along `dim` (descending
    when `largest`, ascending otherwise) and their positions along `dim`:
    the same order (stable, NaN largest, -0.0 equal to 0.0), found without
    sorting the whole slice. `dim` keeps its place with size `k`
    (0 <= k <= its size). The results are always sorted, so `sorted =
    false` (eager may then return any order) gives the sorted answer too.
    A 0-d `self` (k 0 or 1) is its own result, as in eager.

    ```mlir
    func.func @example(%x: tensor<4x50xf32>) -> (tensor<4x3xf32>, tensor<4x3xi64>) {
      %v, %i = tp.topk %x {k = 3 : i64, dim = -1 : i64}
          : tensor<4x50xf32> -> tensor<4x3xf32>, tensor<4x3xi64>
      return %v, %i : tensor<4x3xf32>, tensor<4x3xi64>
    }
    ```
  }];
  let arguments = (ins Tp_Tensor:$self, I64Attr:$k, I64Attr:$dim,
                       DefaultValuedAttr<BoolAttr, "true">:$largest,
                       DefaultValuedAttr<BoolAttr, "true">:$sorted);
  let results = (outs Tp_Tensor:$values, Tp_IndexTensor:$indices);
  let assemblyFormat = "$self attr-dict `:` type($self) `->` type(results)";
}

#endif // STAX_DIALECT_TP_IR_TPREDUCTIONOPS_TD
