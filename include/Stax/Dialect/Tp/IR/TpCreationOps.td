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
    results are deterministic.
  }];
  let arguments = (ins Tp_ScalarAttr:$value);
  let results = (outs Tp_Tensor:$result);
  let assemblyFormat = "attr-dict `:` type($result)";
  let hasVerifier = 1;
}
def Tp_ArangeOp : Tp_CreationOp<"arange"> {
  let summary = "`start, start + step, ...` below `end`, of the result type";
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
    `train = false`), where it is exact; explicit seeds for a redrawable
    random stream are the autodiff layer's business.
  }];
  let arguments = (ins Tp_Tensor:$input, F64Attr:$p, DefaultValuedAttr<BoolAttr, "true">:$train);
  let results = (outs Tp_Tensor:$output, Tp_BoolTensor:$mask);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type(results)";
}
def Tp_NativeDropoutBackwardOp : Tp_Op<"native_dropout_backward", [Tp_Pointwise]> {
  let summary = "`grad_output * mask * scale`";
  let arguments = (ins Tp_Tensor:$grad_output, Tp_BoolTensor:$mask, F64Attr:$scale);
  let results = (outs Tp_Tensor:$result);
  let assemblyFormat = "$grad_output `,` $mask attr-dict `:` functional-type(operands, results)";
}

#endif // STAX_DIALECT_TP_IR_TPCREATIONOPS_TD
