//===- TpInPlaceOps.td - in-place operator overloads ---------*- tablegen -*-===//
//
// The in-place overloads (`add_`, `mul_`, `copy_`, `index_put_`, ...) that
// --stax-functionalize rewrites into value semantics. Included by TpOps.td.
//
// Semantics (Section 4.9): `%r = tp.add_ %x, %y` overwrites the contents of
// the tensor `%x` with `x + y` and returns it. `%r` is the same tensor as
// `%x`: every use of `%x` or `%r` that comes after the op (in program order)
// sees the new contents. The result type is always self's type; the
// computation happens in the functional op's promoted type and is cast back,
// which the verifier allows only where eager would (an integer tensor cannot
// receive a floating result, a bool tensor no integer one).
//
// These ops are not `Pure` and declare no memory effects, so every generic
// transformation treats them as having unknown side effects: they are never
// CSE'd, hoisted or erased. The reference interpreter does not run them.
//
// C++ (inference and verifiers): lib/Dialect/Tp/IR/TpInPlaceOps.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef STAX_DIALECT_TP_IR_TPINPLACEOPS_TD
#define STAX_DIALECT_TP_IR_TPINPLACEOPS_TD

// `functional` is the mnemonic of the value-semantics twin that
// --stax-functionalize produces.
class Tp_InPlaceOp<string mnemonic, string functional, list<Trait> traits = []>
    : Op<Tp_Dialect, mnemonic,
         !listconcat([Tp_InferredResultTypes, InferTypeOpAdaptor, Tp_InPlace,
                      Tp_SizedTensors],
                     traits)> {
  let summary = "in-place `" # functional # "`: overwrites `self` and returns it (aten." #
                mnemonic # ")";
  let description = [{
    Mutates its first operand `self` in place and returns it (the result is
    the same tensor as `self`, of self's type): later uses of `self` see the
    new contents. Run `--stax-functionalize` to rewrite it into `tp.}] #
    functional # [{` with value semantics.
  }];
  let results = (outs Tp_Tensor:$result);
}

// self OP= other (broadcast to self).
class Tp_BinaryInPlaceOp<string mnemonic, string functional>
    : Tp_InPlaceOp<mnemonic, functional> {
  let description = [{
    Mutates its first operand `self` in place and returns it (the result is
    the same tensor as `self`, of self's type): later uses of `self` see the
    new contents. Run `--stax-functionalize` to rewrite it into `tp.}] #
    functional # [{` with value semantics.
    `other` broadcasts to self's shape.

    ```mlir
    func.func @example(%x: tensor<2x3xf32>, %y: tensor<3xf32>) -> tensor<2x3xf32> {
      %0 = tp.}] # mnemonic # [{ %x, %y : tensor<2x3xf32>, tensor<3xf32> -> tensor<2x3xf32>
      return %x : tensor<2x3xf32>
    }
    ```
  }];
  let assemblyFormat = [{
    $self `,` $other attr-dict `:` type($self) `,` type($other) `->` type($result)
  }];
}
// self OP= scalar.
class Tp_ScalarInPlaceOp<string mnemonic, string functional>
    : Tp_InPlaceOp<mnemonic, functional> {
  let description = [{
    Mutates its first operand `self` in place and returns it (the result is
    the same tensor as `self`, of self's type): later uses of `self` see the
    new contents. Run `--stax-functionalize` to rewrite it into `tp.}] #
    functional # [{` with value semantics.

    ```mlir
    func.func @example(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
      %0 = tp.}] # mnemonic # [{ %x {other = 2 : i64} : tensor<2x3xf32> -> tensor<2x3xf32>
      return %x : tensor<2x3xf32>
    }
    ```
  }];
  let assemblyFormat = "$self attr-dict `:` type($self) `->` type($result)";
}
class Tp_UnaryInPlaceOp<string mnemonic, string functional>
    : Tp_InPlaceOp<mnemonic, functional> {
  let description = [{
    Mutates its first operand `self` in place and returns it (the result is
    the same tensor as `self`, of self's type): later uses of `self` see the
    new contents. Run `--stax-functionalize` to rewrite it into `tp.}] #
    functional # [{` with value semantics.

    ```mlir
    func.func @example(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
      %0 = tp.}] # mnemonic # [{ %x : tensor<2x3xf32> -> tensor<2x3xf32>
      return %x : tensor<2x3xf32>
    }
    ```
  }];
  let arguments = (ins Tp_Tensor:$self);
  let assemblyFormat = "$self attr-dict `:` type($self) `->` type($result)";
}

//===----------------------------------------------------------------------===//
// Arithmetic
//===----------------------------------------------------------------------===//

def Tp_AddInPlaceOp : Tp_BinaryInPlaceOp<"add_", "add"> {
  let arguments = (ins Tp_Tensor:$self, Tp_Tensor:$other, Tp_ScalarOne:$alpha);
}
def Tp_SubInPlaceOp : Tp_BinaryInPlaceOp<"sub_", "sub"> {
  let arguments = (ins Tp_Tensor:$self, Tp_Tensor:$other, Tp_ScalarOne:$alpha);
}
def Tp_MulInPlaceOp : Tp_BinaryInPlaceOp<"mul_", "mul"> {
  let arguments = (ins Tp_Tensor:$self, Tp_Tensor:$other);
}
def Tp_DivInPlaceOp : Tp_BinaryInPlaceOp<"div_", "div"> {
  let arguments = (ins Tp_Tensor:$self, Tp_Tensor:$other,
                       OptionalAttr<Tp_RoundingModeAttr>:$rounding_mode);
}

def Tp_AddScalarInPlaceOp : Tp_ScalarInPlaceOp<"add_.Scalar", "add.Scalar"> {
  let arguments = (ins Tp_Tensor:$self, Tp_ScalarAttr:$other, Tp_ScalarOne:$alpha);
}
def Tp_SubScalarInPlaceOp : Tp_ScalarInPlaceOp<"sub_.Scalar", "sub.Scalar"> {
  let arguments = (ins Tp_Tensor:$self, Tp_ScalarAttr:$other, Tp_ScalarOne:$alpha);
}
def Tp_MulScalarInPlaceOp : Tp_ScalarInPlaceOp<"mul_.Scalar", "mul.Scalar"> {
  let arguments = (ins Tp_Tensor:$self, Tp_ScalarAttr:$other);
}
def Tp_DivScalarInPlaceOp : Tp_ScalarInPlaceOp<"div_.Scalar", "div.Scalar"> {
  let arguments = (ins Tp_Tensor:$self, Tp_ScalarAttr:$other,
                       OptionalAttr<Tp_RoundingModeAttr>:$rounding_mode);
}

def Tp_NegInPlaceOp : Tp_UnaryInPlaceOp<"neg_", "neg">;
def Tp_ReluInPlaceOp : Tp_UnaryInPlaceOp<"relu_", "relu">;
def Tp_SigmoidInPlaceOp : Tp_UnaryInPlaceOp<"sigmoid_", "sigmoid">;
def Tp_TanhInPlaceOp : Tp_UnaryInPlaceOp<"tanh_", "tanh">;

def Tp_ClampInPlaceOp : Tp_InPlaceOp<"clamp_", "clamp"> {
  let summary = "in-place `clamp` to [min, max] (aten.clamp_, clamp_min_, clamp_max_)";
  let description = [{
    Mutates `self` in place (see `tp.clamp` for `min` and `max`) and
    returns it; `--stax-functionalize` rewrites it into `tp.clamp`.

    ```mlir
    func.func @example(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
      %0 = tp.clamp_ %x {min = 0 : i64} : tensor<2x3xf32> -> tensor<2x3xf32>
      return %x : tensor<2x3xf32>
    }
    ```
  }];
  let arguments = (ins Tp_Tensor:$self, OptionalAttr<Tp_ScalarAttr>:$min,
                       OptionalAttr<Tp_ScalarAttr>:$max);
  let assemblyFormat = "$self attr-dict `:` type($self) `->` type($result)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Writes
//===----------------------------------------------------------------------===//

def Tp_CopyInPlaceOp : Tp_InPlaceOp<"copy_", "_to_copy"> {
  let summary = "overwrites `self` with `src`, broadcast to self's shape and cast to its dtype (aten.copy_)";
  let description = [{
    Mutates `self` in place and returns it. `src` broadcasts to self's shape
    and may have any dtype (it is converted like `_to_copy`).
    `--stax-functionalize` replaces the new contents by `src` itself, or by
    `tp.expand` / `tp._to_copy` of it.

    ```mlir
    func.func @example(%x: tensor<2x3xf32>, %src: tensor<3xi64>) -> tensor<2x3xf32> {
      %0 = tp.copy_ %x, %src : tensor<2x3xf32>, tensor<3xi64> -> tensor<2x3xf32>
      return %x : tensor<2x3xf32>
    }
    ```
  }];
  let arguments = (ins Tp_Tensor:$self, Tp_Tensor:$src);
  let assemblyFormat = [{
    $self `,` $src attr-dict `:` type($self) `,` type($src) `->` type($result)
  }];
}
def Tp_FillScalarInPlaceOp : Tp_InPlaceOp<"fill_.Scalar", "full"> {
  let summary = "overwrites every element of `self` with `value` (aten.fill_.Scalar)";
  let description = [{
    Mutates `self` in place and returns it; `--stax-functionalize`
    replaces the new contents by a `tp.full`.

    ```mlir
    func.func @example(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
      %0 = tp.fill_.Scalar %x {value = 1.5 : f64} : tensor<2x3xf32> -> tensor<2x3xf32>
      return %x : tensor<2x3xf32>
    }
    ```
  }];
  let arguments = (ins Tp_Tensor:$self, Tp_ScalarAttr:$value);
  let assemblyFormat = "$self attr-dict `:` type($self) `->` type($result)";
}
def Tp_ZeroInPlaceOp : Tp_InPlaceOp<"zero_", "full"> {
  let summary = "overwrites every element of `self` with zero (aten.zero_)";
  let description = [{
    Mutates `self` in place and returns it; `--stax-functionalize`
    replaces the new contents by a `tp.full` of zeros.

    ```mlir
    func.func @example(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
      %0 = tp.zero_ %x : tensor<2x3xf32> -> tensor<2x3xf32>
      return %x : tensor<2x3xf32>
    }
    ```
  }];
  let arguments = (ins Tp_Tensor:$self);
  let assemblyFormat = "$self attr-dict `:` type($self) `->` type($result)";
}
def Tp_MaskedFillScalarInPlaceOp
    : Tp_InPlaceOp<"masked_fill_.Scalar", "masked_fill.Scalar"> {
  let summary = "`self[mask] = value`, mask broadcast to self (aten.masked_fill_.Scalar)";
  let description = [{
    Mutates `self` in place and returns it; `--stax-functionalize`
    rewrites it into `tp.masked_fill.Scalar`.

    ```mlir
    func.func @example(%x: tensor<2x3xf32>, %m: tensor<2x3xi1>) -> tensor<2x3xf32> {
      %0 = tp.masked_fill_.Scalar %x, %m {value = 0 : i64} : (tensor<2x3xf32>, tensor<2x3xi1>) -> tensor<2x3xf32>
      return %x : tensor<2x3xf32>
    }
    ```
  }];
  let arguments = (ins Tp_Tensor:$self, Tp_BoolTensor:$mask, Tp_ScalarAttr:$value);
  let assemblyFormat = [{
    $self `,` $mask attr-dict `:` functional-type(operands, results)
  }];
}
def Tp_IndexPutInPlaceOp : Tp_InPlaceOp<"index_put_", "index_put"> {
  let summary = "`self[indices] = values` (or `+=` when `accumulate`) in place (aten.index_put_)";
  let description = [{
    Mutates `self` in place and returns it. Indices, `dims` and `accumulate`
    are those of `tp.index_put`; as in eager, `values` must have self's dtype.

    ```mlir
    func.func @example(%x: tensor<4x5xf32>, %rows: tensor<2xi64>, %v: tensor<2x5xf32>) -> tensor<4x5xf32> {
      %0 = tp.index_put_ %x[%rows], %v {dims = array<i64: 0>} : (tensor<4x5xf32>, tensor<2xi64>, tensor<2x5xf32>) -> tensor<4x5xf32>
      return %x : tensor<4x5xf32>
    }
    ```
  }];
  let arguments = (ins Tp_Tensor:$self, Variadic<Tp_IndexTensor>:$indices,
                       Tp_Tensor:$values, Tp_DimsAttr:$dims,
                       DefaultValuedAttr<BoolAttr, "false">:$accumulate);
  let assemblyFormat = [{
    $self `[` $indices `]` `,` $values attr-dict `:` functional-type(operands, results)
  }];
}

#endif // STAX_DIALECT_TP_IR_TPINPLACEOPS_TD
