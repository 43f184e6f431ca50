//===- TpSpecialOps.td - tp special functions --------------*- tablegen -*-===//
//
// Elementwise special functions with no decomposition into the other tp ops
// that is accurate (lgamma, digamma, polygamma, erfinv, ndtri, erfcx) or
// exact (nextafter, frexp). Each is one scalar function of
// Stax/Support/SpecialFunctions.h, which the interpreter, the lowered
// `stax.special_function` and the runtime share. Included by TpOps.td; C++
// in lib/Dialect/Tp/IR/TpSpecialOps.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef STAX_DIALECT_TP_IR_TPSPECIALOPS_TD
#define STAX_DIALECT_TP_IR_TPSPECIALOPS_TD

def Tp_LgammaOp : Tp_UnaryOp<"lgamma", "IntToFloat"> {
  let summary = "elementwise log |Gamma(x)| (aten.lgamma)";
  let description = [{
    `+inf` at the poles (0 and the negative integers). Integers and bools
    compute in the default float type.

    ```mlir
    %y = tp.lgamma %x : tensor<4xf32> -> tensor<4xf32>
    ```
  }];
}

def Tp_DigammaOp : Tp_UnaryOp<"digamma", "IntToFloat"> {
  let summary = "elementwise digamma, the derivative of lgamma (aten.digamma)";
  let description = [{
    `-inf` at `+0`, `+inf` at `-0`, NaN at the negative integers (eager's
    conventions).

    ```mlir
    %y = tp.digamma %x : tensor<4xf64> -> tensor<4xf64>
    ```
  }];
}

def Tp_PolygammaOp : Tp_UnaryOp<"polygamma", "IntToFloat"> {
  let summary = "elementwise polygamma of order `n` (aten.polygamma)";
  let description = [{
    The `n`-th derivative of digamma (`n >= 0`; `n = 0` is digamma).
    Order 1 is eager's trigamma formula, higher orders
    `(-1)^(n+1) n! zeta(n + 1, x)`.

    ```mlir
    %y = tp.polygamma %x {n = 2 : i64} : tensor<4xf32> -> tensor<4xf32>
    ```
  }];
  let arguments = (ins Tp_Tensor:$self, I64Attr:$n);
  let hasVerifier = 1;
}

def Tp_ErfinvOp : Tp_UnaryOp<"erfinv", "IntToFloat"> {
  let summary = "elementwise inverse error function (aten.erfinv)";
  let description = [{
    `+-inf` at `+-1`, NaN outside `[-1, 1]`.

    ```mlir
    %y = tp.erfinv %x : tensor<4xf32> -> tensor<4xf32>
    ```
  }];
}

def Tp_SpecialNdtriOp : Tp_UnaryOp<"special_ndtri", "IntToFloat"> {
  let summary = "elementwise inverse of the standard normal CDF (aten.special_ndtri)";
  let description = [{
    `-inf` at 0, `+inf` at 1, NaN outside `[0, 1]`.

    ```mlir
    %y = tp.special_ndtri %p : tensor<4xf32> -> tensor<4xf32>
    ```
  }];
}

def Tp_SpecialErfcxOp : Tp_UnaryOp<"special_erfcx", "IntToFloat"> {
  let summary = "elementwise scaled complementary error function exp(x^2) erfc(x) (aten.special_erfcx)";
  let description = [{
    ```mlir
    %y = tp.special_erfcx %x : tensor<4xf64> -> tensor<4xf64>
    ```
  }];
}

def Tp_NextafterOp : Tp_BinaryOp<"nextafter", "FloatOnly"> {
  let summary = "the next float after `self` towards `other`, broadcasting (aten.nextafter)";
  let description = [{
    Computed in the common floating type of the operands (one step of that
    type, not of a wider one); `other` when the two are equal, NaN when
    either is.

    ```mlir
    %y = tp.nextafter %a, %b : tensor<4xf32>, tensor<f32> -> tensor<4xf32>
    ```
  }];
}

def Tp_FrexpOp : Tp_Op<"frexp", [Tp_Pointwise]> {
  let summary = "mantissa and exponent of each element (aten.frexp.Tensor)";
  let description = [{
    `self = mantissa * 2^exponent` with `|mantissa|` in `[0.5, 1)`, or
    `mantissa = self` and `exponent = 0` for zeros, infinities and NaN.
    `self` must be floating; the mantissa has its type, the exponent is
    `i32` (as eager).

    ```mlir
    %m, %e = tp.frexp %x : tensor<4xf32> -> tensor<4xf32>, tensor<4xi32>
    ```
  }];
  let arguments = (ins Tp_Tensor:$self);
  let results = (outs Tp_Tensor:$mantissa, Tp_Tensor:$exponent);
  let assemblyFormat = "$self attr-dict `:` type($self) `->` type(results)";
}

#endif // STAX_DIALECT_TP_IR_TPSPECIALOPS_TD
