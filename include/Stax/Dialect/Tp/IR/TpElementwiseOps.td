//===- TpElementwiseOps.td - tp elementwise ops ------------*- tablegen -*-===//
//
// The tp elementwise ops: unary, binary, tensor-scalar, selection.
// Included by TpOps.td, which defines the base classes; C++ in
// lib/Dialect/Tp/IR/TpElementwiseOps.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef STAX_DIALECT_TP_IR_TPELEMENTWISEOPS_TD
#define STAX_DIALECT_TP_IR_TPELEMENTWISEOPS_TD

//===----------------------------------------------------------------------===//
// Unary elementwise
//===----------------------------------------------------------------------===//

// Identities at this level: they exist so the importer keeps one op per node.
class Tp_IdentityOp<string mnemonic> : Tp_UnaryOp<mnemonic, "Same", [Tp_View]> {
  let summary = "`" # mnemonic # "`: the identity on values";
  let hasFolder = 1;
  let extraClassDefinition = Tp_InferBy<
      "::mlir::tp::inferUnary(loc, name, adaptor.getSelf().getType(), "
      "::mlir::tp::Promotion::Same, types)">.inferBody # [{
    ::mlir::OpFoldResult $cppClass::fold(FoldAdaptor) {
      // A copy must stay a copy when either side is mutated in place
      // (before --stax-functionalize): folding would alias them.
      if (::mlir::tp::hasInPlaceUser(getSelf()) ||
          ::mlir::tp::hasInPlaceUser(getResult()))
        return {};
      return getSelf();
    }
  }];
}
def Tp_CloneOp : Tp_IdentityOp<"clone">;
// Not folded: detach is the identity on values but stops gradients, so
// folding it before autodiff would change the derivative.
def Tp_DetachOp : Tp_UnaryOp<"detach", "Same", [Tp_View]> {
  let summary = "`detach`: the identity on values, a stop for derivatives";
}
def Tp_AliasOp : Tp_IdentityOp<"alias">;
def Tp_LiftFreshCopyOp : Tp_IdentityOp<"lift_fresh_copy">;

def Tp_NegOp : Tp_UnaryOp<"neg">;
def Tp_AbsOp : Tp_UnaryOp<"abs">;
def Tp_ReluOp : Tp_UnaryOp<"relu">;
def Tp_SignOp : Tp_UnaryOp<"sign">;
def Tp_SgnOp : Tp_UnaryOp<"sgn">;
def Tp_TrilOp : Tp_UnaryOp<"tril"> {
  let summary = "lower triangle of the last two dims, from diagonal `diagonal` down";
  let arguments = (ins Tp_Tensor:$self, DefaultValuedAttr<I64Attr, "0">:$diagonal);
}
def Tp_TriuOp : Tp_UnaryOp<"triu"> {
  let summary = "upper triangle of the last two dims, from diagonal `diagonal` up";
  let arguments = (ins Tp_Tensor:$self, DefaultValuedAttr<I64Attr, "0">:$diagonal);
}
def Tp_FloorOp : Tp_UnaryOp<"floor">;
def Tp_CeilOp : Tp_UnaryOp<"ceil">;
def Tp_RoundOp : Tp_UnaryOp<"round">;
def Tp_TruncOp : Tp_UnaryOp<"trunc">;
def Tp_BitwiseNotOp : Tp_UnaryOp<"bitwise_not", "IntOnly">;
def Tp_LogicalNotOp : Tp_UnaryOp<"logical_not", "ToBool">;
def Tp_IsnanOp : Tp_UnaryOp<"isnan", "ToBool">;
// The sign bit itself: true for -0.0 and for a NaN whose sign bit is set
// (x86's 0/0 and inf - inf), which no comparison sees.
def Tp_SignbitOp : Tp_UnaryOp<"signbit", "ToBool">;

def Tp_ExpOp : Tp_UnaryOp<"exp", "IntToFloat">;
def Tp_Exp2Op : Tp_UnaryOp<"exp2", "IntToFloat">;
def Tp_Expm1Op : Tp_UnaryOp<"expm1", "IntToFloat">;
def Tp_LogOp : Tp_UnaryOp<"log", "IntToFloat">;
def Tp_Log2Op : Tp_UnaryOp<"log2", "IntToFloat">;
def Tp_Log10Op : Tp_UnaryOp<"log10", "IntToFloat">;
def Tp_Log1pOp : Tp_UnaryOp<"log1p", "IntToFloat">;
def Tp_SqrtOp : Tp_UnaryOp<"sqrt", "IntToFloat">;
def Tp_RsqrtOp : Tp_UnaryOp<"rsqrt", "IntToFloat">;
def Tp_ReciprocalOp : Tp_UnaryOp<"reciprocal", "IntToFloat">;
def Tp_SinOp : Tp_UnaryOp<"sin", "IntToFloat">;
def Tp_CosOp : Tp_UnaryOp<"cos", "IntToFloat">;
def Tp_TanOp : Tp_UnaryOp<"tan", "IntToFloat">;
def Tp_AsinOp : Tp_UnaryOp<"asin", "IntToFloat">;
def Tp_AcosOp : Tp_UnaryOp<"acos", "IntToFloat">;
def Tp_AtanOp : Tp_UnaryOp<"atan", "IntToFloat">;
def Tp_SinhOp : Tp_UnaryOp<"sinh", "IntToFloat">;
def Tp_CoshOp : Tp_UnaryOp<"cosh", "IntToFloat">;
def Tp_TanhOp : Tp_UnaryOp<"tanh", "IntToFloat">;
def Tp_SigmoidOp : Tp_UnaryOp<"sigmoid", "IntToFloat">;
def Tp_ErfOp : Tp_UnaryOp<"erf", "IntToFloat">;
def Tp_ErfcOp : Tp_UnaryOp<"erfc", "IntToFloat">;
def Tp_SiluOp : Tp_UnaryOp<"silu", "FloatOnly">;
def Tp_MishOp : Tp_UnaryOp<"mish", "FloatOnly">;

def Tp_GeluOp : Tp_UnaryOp<"gelu", "FloatOnly"> {
  let description = [{
    `x * Φ(x)` with `approximate = #tp.approximate<none>` (the default), or
    the tanh approximation with `approximate = #tp.approximate<tanh>`.
    Floating operands only; the result has the type of `self`.

    ```mlir
    func.func @example(%x: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>) {
      %erf = tp.gelu %x : tensor<2x3xf32> -> tensor<2x3xf32>
      %tanh = tp.gelu %x {approximate = #tp.approximate<tanh>} : tensor<2x3xf32> -> tensor<2x3xf32>
      return %erf, %tanh : tensor<2x3xf32>, tensor<2x3xf32>
    }
    ```
  }];
  let arguments = (ins Tp_Tensor:$self,
                       Tp_ApproximateAttr:$approximate);
}
def Tp_LeakyReluOp : Tp_UnaryOp<"leaky_relu", "FloatOnly"> {
  let arguments = (ins Tp_Tensor:$self,
                       DefaultValuedAttr<F64Attr, "0.01">:$negative_slope);
}
def Tp_EluOp : Tp_UnaryOp<"elu", "FloatOnly"> {
  let arguments = (ins Tp_Tensor:$self, DefaultValuedAttr<F64Attr, "1.0">:$alpha,
                       DefaultValuedAttr<F64Attr, "1.0">:$scale,
                       DefaultValuedAttr<F64Attr, "1.0">:$input_scale);
}
def Tp_SoftplusOp : Tp_UnaryOp<"softplus", "FloatOnly"> {
  let arguments = (ins Tp_Tensor:$self, DefaultValuedAttr<F64Attr, "1.0">:$beta,
                       DefaultValuedAttr<F64Attr, "20.0">:$threshold);
}
def Tp_HardtanhOp : Tp_UnaryOp<"hardtanh"> {
  let arguments = (ins Tp_Tensor:$self, DefaultValuedAttr<F64Attr, "-1.0">:$min_val,
                       DefaultValuedAttr<F64Attr, "1.0">:$max_val);
}
def Tp_ClampOp : Tp_UnaryOp<"clamp"> {
  let summary = "clamp to [min, max]; either bound may be absent (clamp_min, clamp_max)";
  let description = [{
    `aten.clamp`, `aten.clamp_min` and `aten.clamp_max`: each element is
    raised to `min` and lowered to `max` (scalar attributes, at least one
    of them present). NaN stays NaN. The result has the type of `self`.

    ```mlir
    func.func @example(%x: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>) {
      %c = tp.clamp %x {min = -1.0 : f64, max = 1.0 : f64} : tensor<2x3xf32> -> tensor<2x3xf32>
      %relu6 = tp.clamp %x {min = 0 : i64, max = 6 : i64} : tensor<2x3xf32> -> tensor<2x3xf32>
      return %c, %relu6 : tensor<2x3xf32>, tensor<2x3xf32>
    }
    ```
  }];
  let arguments = (ins Tp_Tensor:$self, OptionalAttr<Tp_ScalarAttr>:$min,
                       OptionalAttr<Tp_ScalarAttr>:$max);
  let hasVerifier = 1;
}

def Tp_ToCopyOp : Tp_Op<"_to_copy", [Tp_Pointwise]> {
  let summary = "dtype conversion (aten._to_copy); the result type names the dtype";
  let description = [{
    Converts every element to the result's element type, as eager's
    `tensor.to(dtype)`: floating to integer truncates toward zero, integer
    to bool is `!= 0`. The shape does not change; `dtype` records the
    requested type (optional, the result type is what counts).

    ```mlir
    func.func @example(%x: tensor<2x3xf32>) -> tensor<2x3xi64> {
      %r = tp._to_copy %x {dtype = i64} : tensor<2x3xf32> -> tensor<2x3xi64>
      return %r : tensor<2x3xi64>
    }
    ```
  }];
  let arguments = (ins Tp_Tensor:$self, OptionalAttr<TypeAttr>:$dtype);
  let results = (outs Tp_Tensor:$result);
  let assemblyFormat = "$self attr-dict `:` type($self) `->` type($result)";
}

//===----------------------------------------------------------------------===//
// Binary elementwise (tensor, tensor) with broadcasting
//===----------------------------------------------------------------------===//

def Tp_AddOp : Tp_BinaryOp<"add"> {
  let summary = "`self + alpha * other` (aten.add.Tensor)";
  let arguments = (ins Tp_Tensor:$self, Tp_Tensor:$other, Tp_ScalarOne:$alpha);
}
def Tp_SubOp : Tp_BinaryOp<"sub"> {
  let summary = "`self - alpha * other` (aten.sub.Tensor)";
  let arguments = (ins Tp_Tensor:$self, Tp_Tensor:$other, Tp_ScalarOne:$alpha);
}
def Tp_MulOp : Tp_BinaryOp<"mul">;
def Tp_DivOp : Tp_Op<"div", [Tp_Pointwise]> {
  let summary = "true division, or floor/trunc division with `rounding_mode` (aten.div.Tensor[_mode])";
  let description = [{
    Broadcasting division. Without `rounding_mode` it is true division
    (integer operands give `f32`); with `#tp.rounding_mode<trunc>` or
    `<floor>` the quotient is rounded and integer operands stay integers
    (an integer division by zero is a run-time error in the interpreter).

    ```mlir
    func.func @example(%a: tensor<2x3xi64>, %b: tensor<3xi64>) -> (tensor<2x3xf32>, tensor<2x3xi64>) {
      %q = tp.div %a, %b : tensor<2x3xi64>, tensor<3xi64> -> tensor<2x3xf32>
      %f = tp.div %a, %b {rounding_mode = #tp.rounding_mode<floor>} : tensor<2x3xi64>, tensor<3xi64> -> tensor<2x3xi64>
      return %q, %f : tensor<2x3xf32>, tensor<2x3xi64>
    }
    ```
  }];
  let arguments = (ins Tp_Tensor:$self, Tp_Tensor:$other,
                       OptionalAttr<Tp_RoundingModeAttr>:$rounding_mode);
  let results = (outs Tp_Tensor:$result);
  let assemblyFormat = [{
    $self `,` $other attr-dict `:` type($self) `,` type($other) `->` type($result)
  }];
}
def Tp_MaximumOp : Tp_BinaryOp<"maximum">;
def Tp_MinimumOp : Tp_BinaryOp<"minimum">;
def Tp_PowOp : Tp_BinaryOp<"pow">;
def Tp_RemainderOp : Tp_BinaryOp<"remainder">;
def Tp_FmodOp : Tp_BinaryOp<"fmod">;
def Tp_Atan2Op : Tp_BinaryOp<"atan2", "IntToFloat">;
def Tp_BitwiseAndOp : Tp_BinaryOp<"bitwise_and", "IntOnly">;
def Tp_BitwiseOrOp : Tp_BinaryOp<"bitwise_or", "IntOnly">;
def Tp_BitwiseXorOp : Tp_BinaryOp<"bitwise_xor", "IntOnly">;
def Tp_LogicalAndOp : Tp_BinaryOp<"logical_and", "ToBool">;
def Tp_LogicalOrOp : Tp_BinaryOp<"logical_or", "ToBool">;
def Tp_LogicalXorOp : Tp_BinaryOp<"logical_xor", "ToBool">;
def Tp_EqOp : Tp_BinaryOp<"eq", "ToBool">;
def Tp_NeOp : Tp_BinaryOp<"ne", "ToBool">;
def Tp_LtOp : Tp_BinaryOp<"lt", "ToBool">;
def Tp_LeOp : Tp_BinaryOp<"le", "ToBool">;
def Tp_GtOp : Tp_BinaryOp<"gt", "ToBool">;
def Tp_GeOp : Tp_BinaryOp<"ge", "ToBool">;

//===----------------------------------------------------------------------===//
// Tensor-scalar elementwise (.Scalar overloads)
//===----------------------------------------------------------------------===//

def Tp_AddScalarOp : Tp_ScalarOp<"add.Scalar"> {
  let arguments = (ins Tp_Tensor:$self, Tp_ScalarAttr:$other, Tp_ScalarOne:$alpha);
}
def Tp_SubScalarOp : Tp_ScalarOp<"sub.Scalar"> {
  let arguments = (ins Tp_Tensor:$self, Tp_ScalarAttr:$other, Tp_ScalarOne:$alpha);
}
def Tp_RsubScalarOp : Tp_ScalarOp<"rsub.Scalar"> {
  let summary = "`other - alpha * self` (aten.rsub.Scalar)";
  let arguments = (ins Tp_Tensor:$self, Tp_ScalarAttr:$other, Tp_ScalarOne:$alpha);
}
def Tp_MulScalarOp : Tp_ScalarOp<"mul.Scalar"> { let hasFolder = 1; }
def Tp_DivScalarOp : Tp_Op<"div.Scalar", [Tp_Pointwise]> {
  let summary = "division by a scalar, optionally with `rounding_mode`";
  let description = [{
    `aten.div.Scalar` (and `div.Scalar_mode` with `rounding_mode`): `self`
    divided by the scalar attribute `other`, with the promotion of
    `tp.div`. Division by 1 folds away.

    ```mlir
    func.func @example(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
      %r = tp.div.Scalar %x {other = 4 : i64} : tensor<2x3xf32> -> tensor<2x3xf32>
      return %r : tensor<2x3xf32>
    }
    ```
  }];
  let arguments = (ins Tp_Tensor:$self, Tp_ScalarAttr:$other,
                       OptionalAttr<Tp_RoundingModeAttr>:$rounding_mode);
  let results = (outs Tp_Tensor:$result);
  let assemblyFormat = "$self attr-dict `:` type($self) `->` type($result)";
  let hasFolder = 1;
}
def Tp_PowTensorScalarOp : Tp_ScalarOp<"pow.Tensor_Scalar"> {
  let summary = "`self ** other` with a scalar exponent (aten.pow.Tensor_Scalar)";
}
def Tp_RemainderScalarOp : Tp_ScalarOp<"remainder.Scalar">;
def Tp_FmodScalarOp : Tp_ScalarOp<"fmod.Scalar">;
def Tp_EqScalarOp : Tp_ScalarOp<"eq.Scalar", "ToBool">;
def Tp_NeScalarOp : Tp_ScalarOp<"ne.Scalar", "ToBool">;
def Tp_LtScalarOp : Tp_ScalarOp<"lt.Scalar", "ToBool">;
def Tp_LeScalarOp : Tp_ScalarOp<"le.Scalar", "ToBool">;
def Tp_GtScalarOp : Tp_ScalarOp<"gt.Scalar", "ToBool">;
def Tp_GeScalarOp : Tp_ScalarOp<"ge.Scalar", "ToBool">;

//===----------------------------------------------------------------------===//
// Selection
//===----------------------------------------------------------------------===//

def Tp_WhereOp : Tp_Op<"where", [Tp_Pointwise]> {
  let summary = "`condition ? self : other`, broadcasting all three (aten.where.self)";
  let description = [{
    Selects, element by element, `self` where `condition` (an `i1` tensor)
    is true and `other` elsewhere. The three operands broadcast together;
    the result's element type is the promotion of `self` and `other`.

    ```mlir
    func.func @example(%c: tensor<2x3xi1>, %x: tensor<2x3xf32>, %zero: tensor<f32>) -> tensor<2x3xf32> {
      %r = tp.where %c, %x, %zero : (tensor<2x3xi1>, tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
      return %r : tensor<2x3xf32>
    }
    ```
  }];
  let arguments = (ins Tp_BoolTensor:$condition, Tp_Tensor:$self, Tp_Tensor:$other);
  let results = (outs Tp_Tensor:$result);
  let assemblyFormat = [{
    $condition `,` $self `,` $other attr-dict `:` functional-type(operands, results)
  }];
}
def Tp_MaskedFillScalarOp : Tp_Op<"masked_fill.Scalar", [Tp_Pointwise]> {
  let summary = "`mask ? value : self`, mask broadcast to self (aten.masked_fill.Scalar)";
  let description = [{
    Replaces the elements of `self` where `mask` (an `i1` tensor that
    broadcasts to self's shape) is true by the scalar `value`. The result
    has the type of `self`.

    ```mlir
    func.func @example(%x: tensor<2x3xf32>, %m: tensor<3xi1>) -> tensor<2x3xf32> {
      %r = tp.masked_fill.Scalar %x, %m {value = -1.0e+09 : f64} : (tensor<2x3xf32>, tensor<3xi1>) -> tensor<2x3xf32>
      return %r : tensor<2x3xf32>
    }
    ```
  }];
  let arguments = (ins Tp_Tensor:$self, Tp_BoolTensor:$mask, Tp_ScalarAttr:$value);
  let results = (outs Tp_Tensor:$result);
  let assemblyFormat = [{
    $self `,` $mask attr-dict `:` functional-type(operands, results)
  }];
}

#endif // STAX_DIALECT_TP_IR_TPELEMENTWISEOPS_TD
