//===- TpCreationOps.td - tp creation, eager random ops ----*- tablegen -*-===//
//
// The tp tensor creation and eager random ops.
// Included by TpOps.td, which defines the base classes; C++ in
// lib/Dialect/Tp/IR/TpCreationOps.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef STAX_DIALECT_TP_IR_TPCREATIONOPS_TD
#define STAX_DIALECT_TP_IR_TPCREATIONOPS_TD

//===----------------------------------------------------------------------===//
// Tensor creation
//===----------------------------------------------------------------------===//

// Creation ops take their shape and dtype from the result type, which the
// assembly format prints; they need no type inference.
class Tp_CreationOp<string mnemonic, list<Trait> traits = []>
    : Op<Tp_Dialect, mnemonic, !listconcat([Pure, Tp_SizedTensors], traits)>;

def Tp_ConstantOp : Tp_CreationOp<"constant",
    [ConstantLike, AllTypesMatch<["value", "result"]>]> {
  let summary = "a literal tensor";
  let description = [{
    A tensor whose elements are given by a dense elements attribute (the
    importer's constants, small tables).

    ```mlir
    func.func @example() -> tensor<2x3xf32> {
      %r = tp.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
      return %r : tensor<2x3xf32>
    }
    ```
  }];
  let arguments = (ins ElementsAttr:$value);
  let results = (outs Tp_Tensor:$result);
  let assemblyFormat = "attr-dict $value";
  let hasFolder = 1;
}
def Tp_FullOp : Tp_CreationOp<"full"> {
  let summary = "a tensor of the result type filled with `value`";
  let description = [{
    The creation overloads whose result does not depend on data (`full`,
    `zeros`, `ones`, `scalar_tensor`, `new_zeros`, `*_like`, `fill.Scalar`,
    `empty*`) all import as `tp.full`; `empty` is filled with zeros so that
    results are deterministic. `value` is a scalar attribute (`i64`, `f64`
    or `i1`) converted to the result's element type.

    ```mlir
    func.func @example() -> (tensor<2x3xf32>, tensor<i64>) {
      %zeros = tp.full {value = 0 : i64} : tensor<2x3xf32>
      %ones = tp.full {value = 1 : i64} : tensor<i64>
      return %zeros, %ones : tensor<2x3xf32>, tensor<i64>
    }
    ```
  }];
  let arguments = (ins Tp_ScalarAttr:$value);
  let results = (outs Tp_Tensor:$result);
  let assemblyFormat = "attr-dict `:` type($result)";
  let hasVerifier = 1;
}
def Tp_ArangeOp : Tp_CreationOp<"arange"> {
  let summary = "`start, start + step, ...` below `end`, of the result type";
  let description = [{
    `aten.arange`: the values `start + k * step` that are below `end`
    (above it for a negative step); the result type must have exactly that
    many elements. Scalars are `i64` or `f64` attributes.

    ```mlir
    func.func @example() -> tensor<5xi64> {
      %r = tp.arange {start = 0 : i64, end = 10 : i64, step = 2 : i64} : tensor<5xi64>
      return %r : tensor<5xi64>
    }
    ```
  }];
  let arguments = (ins Tp_ScalarAttr:$start, Tp_ScalarAttr:$end, Tp_ScalarOne:$step);
  let results = (outs Tp_Tensor:$result);
  let assemblyFormat = "attr-dict `:` type($result)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Random
//===----------------------------------------------------------------------===//

def Tp_NativeDropoutOp : Tp_Op<"native_dropout", [Tp_Random]> {
  let summary = "dropout: (output, keep mask); zeroes with probability `p`, scales the rest by 1/(1-p)";
  let description = [{
    Random. The reference interpreter evaluates it only for `p = 0` (and for
    `train = false`), where it is exact. The importer emits
    `tp.dropout_seeded` instead, whose mask can be drawn again in the
    backward.

    ```mlir
    func.func @example(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
      %out, %mask = tp.native_dropout %x {p = 0.0 : f64} : tensor<2x3xf32> -> tensor<2x3xf32>, tensor<2x3xi1>
      return %out : tensor<2x3xf32>
    }
    ```
  }];
  let arguments = (ins Tp_Tensor:$input, F64Attr:$p, DefaultValuedAttr<BoolAttr, "true">:$train);
  let results = (outs Tp_Tensor:$output, Tp_BoolTensor:$mask);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type(results)";
}
def Tp_NativeDropoutBackwardOp : Tp_Op<"native_dropout_backward", [Tp_Pointwise]> {
  let summary = "`grad_output * mask * scale`";
  let description = [{
    `aten.native_dropout_backward`: the gradient through a dropout with
    its keep mask; `scale` is `1 / (1 - p)`.

    ```mlir
    func.func @example(%g: tensor<2x3xf32>, %mask: tensor<2x3xi1>) -> tensor<2x3xf32> {
      %r = tp.native_dropout_backward %g, %mask {scale = 2.0 : f64} : (tensor<2x3xf32>, tensor<2x3xi1>) -> tensor<2x3xf32>
      return %r : tensor<2x3xf32>
    }
    ```
  }];
  let arguments = (ins Tp_Tensor:$grad_output, Tp_BoolTensor:$mask, F64Attr:$scale);
  let results = (outs Tp_Tensor:$result);
  let assemblyFormat = "$grad_output `,` $mask attr-dict `:` functional-type(operands, results)";
}

#endif // STAX_DIALECT_TP_IR_TPCREATIONOPS_TD
