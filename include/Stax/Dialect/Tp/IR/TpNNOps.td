//===- TpNNOps.td - tp normalization, losses, backward -----*- tablegen -*-===//
//
// The tp normalization, softmax, losses and pointwise backward operators.
// Included by TpOps.td, which defines the base classes; C++ in
// lib/Dialect/Tp/IR/TpNNOps.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef STAX_DIALECT_TP_IR_TPNNOPS_TD
#define STAX_DIALECT_TP_IR_TPNNOPS_TD

//===----------------------------------------------------------------------===//
// Normalization, softmax, losses and their backward operators
//===----------------------------------------------------------------------===//

def Tp_SoftmaxOp : Tp_Op<"_softmax", [Tp_Reduction]> {
  let summary = "softmax along `dim` (aten._softmax)";
  let arguments = (ins Tp_Tensor:$self, I64Attr:$dim,
                       DefaultValuedAttr<BoolAttr, "false">:$half_to_float);
  let results = (outs Tp_Tensor:$result);
  let assemblyFormat = "$self attr-dict `:` type($self) `->` type($result)";
}
def Tp_LogSoftmaxOp : Tp_Op<"_log_softmax", [Tp_Reduction]> {
  let summary = "log-softmax along `dim` (aten._log_softmax)";
  let arguments = (ins Tp_Tensor:$self, I64Attr:$dim,
                       DefaultValuedAttr<BoolAttr, "false">:$half_to_float);
  let results = (outs Tp_Tensor:$result);
  let assemblyFormat = "$self attr-dict `:` type($self) `->` type($result)";
}
def Tp_SoftmaxBackwardDataOp : Tp_Op<"_softmax_backward_data", [Tp_Reduction]> {
  let summary = "`output * (grad_output - sum(grad_output * output, dim))`";
  let arguments = (ins Tp_Tensor:$grad_output, Tp_Tensor:$output, I64Attr:$dim,
                       OptionalAttr<TypeAttr>:$input_dtype);
  let results = (outs Tp_Tensor:$result);
  let assemblyFormat = "$grad_output `,` $output attr-dict `:` functional-type(operands, results)";
}
def Tp_LogSoftmaxBackwardDataOp : Tp_Op<"_log_softmax_backward_data", [Tp_Reduction]> {
  let summary = "`grad_output - exp(output) * sum(grad_output, dim)`";
  let arguments = (ins Tp_Tensor:$grad_output, Tp_Tensor:$output, I64Attr:$dim,
                       OptionalAttr<TypeAttr>:$input_dtype);
  let results = (outs Tp_Tensor:$result);
  let assemblyFormat = "$grad_output `,` $output attr-dict `:` functional-type(operands, results)";
}

def Tp_NativeLayerNormOp : Tp_Op<"native_layer_norm", [AttrSizedOperandSegments, Tp_Reduction]> {
  let summary = "layer norm over the trailing `normalized_shape` dims: (output, mean, rstd)";
  let arguments = (ins Tp_Tensor:$input, Optional<Tp_Tensor>:$weight,
                       Optional<Tp_Tensor>:$bias, Tp_DimsAttr:$normalized_shape,
                       F64Attr:$eps);
  let results = (outs Tp_Tensor:$output, Tp_Tensor:$mean, Tp_Tensor:$rstd);
  let assemblyFormat = [{
    $input (`weight` `(` $weight^ `)`)? (`bias` `(` $bias^ `)`)? attr-dict `:`
    functional-type(operands, results)
  }];
}
def Tp_NativeLayerNormBackwardOp
    : Tp_Op<"native_layer_norm_backward", [AttrSizedOperandSegments, Tp_Reduction]> {
  let summary = "gradients of native_layer_norm: (grad_input, grad_weight, grad_bias)";
  let arguments = (ins Tp_Tensor:$grad_out, Tp_Tensor:$input, Tp_Tensor:$mean,
                       Tp_Tensor:$rstd, Optional<Tp_Tensor>:$weight,
                       Optional<Tp_Tensor>:$bias, Tp_DimsAttr:$normalized_shape);
  let results = (outs Tp_Tensor:$grad_input, Tp_Tensor:$grad_weight,
                      Tp_Tensor:$grad_bias);
  let assemblyFormat = [{
    $grad_out `,` $input `,` $mean `,` $rstd (`weight` `(` $weight^ `)`)?
    (`bias` `(` $bias^ `)`)? attr-dict `:` functional-type(operands, results)
  }];
}

def Tp_NllLossForwardOp : Tp_Op<"nll_loss_forward", [Tp_Reduction]> {
  let summary = "negative log likelihood: (output, total_weight); reduction 0 none, 1 mean, 2 sum";
  let arguments = (ins Tp_Tensor:$self, Tp_IndexTensor:$target,
                       Optional<Tp_Tensor>:$weight, Tp_ReductionAttr:$reduction,
                       DefaultValuedAttr<I64Attr, "-100">:$ignore_index);
  let results = (outs Tp_Tensor:$output, Tp_Tensor:$total_weight);
  let assemblyFormat = [{
    $self `,` $target (`weight` `(` $weight^ `)`)? attr-dict `:`
    functional-type(operands, results)
  }];
}
def Tp_NllLossBackwardOp : Tp_Op<"nll_loss_backward"> {
  let summary = "gradient of nll_loss_forward with respect to `self`";
  let arguments = (ins Tp_Tensor:$grad_output, Tp_Tensor:$self,
                       Tp_IndexTensor:$target, Optional<Tp_Tensor>:$weight,
                       Tp_Tensor:$total_weight, Tp_ReductionAttr:$reduction,
                       DefaultValuedAttr<I64Attr, "-100">:$ignore_index);
  let results = (outs Tp_Tensor:$result);
  let assemblyFormat = [{
    $grad_output `,` $self `,` $target (`weight` `(` $weight^ `)`)? `,` $total_weight
    attr-dict `:` functional-type(operands, results)
  }];
}
def Tp_MseLossOp : Tp_Op<"mse_loss", [Tp_Reduction]> {
  let summary = "mean squared error; reduction 0 none, 1 mean, 2 sum";
  let arguments = (ins Tp_Tensor:$self, Tp_Tensor:$target, Tp_ReductionAttr:$reduction);
  let results = (outs Tp_Tensor:$result);
  let assemblyFormat = "$self `,` $target attr-dict `:` functional-type(operands, results)";
}
def Tp_MseLossBackwardOp : Tp_Op<"mse_loss_backward", [Tp_Pointwise]> {
  let summary = "gradient of mse_loss with respect to `self`";
  let arguments = (ins Tp_Tensor:$grad_output, Tp_Tensor:$self, Tp_Tensor:$target,
                       Tp_ReductionAttr:$reduction);
  let results = (outs Tp_Tensor:$result);
  let assemblyFormat = [{
    $grad_output `,` $self `,` $target attr-dict `:` functional-type(operands, results)
  }];
}

// Pointwise backward operators: (grad_output, saved) -> grad_input, broadcasting.
class Tp_PointwiseBackwardOp<string mnemonic, string savedName>
    : Tp_Op<mnemonic, [Tp_Pointwise]> {
  let summary = "pointwise backward of `" # !subst("_backward", "", mnemonic) #
                "`, reading `" # savedName # "`";
  let results = (outs Tp_Tensor:$result);
  let assemblyFormat = "operands attr-dict `:` functional-type(operands, results)";
  let extraClassDefinition = Tp_InferBy<
      "::mlir::tp::inferBinary(loc, name, adaptor.getGradOutput().getType(), "
      "adaptor.get" # savedName # "().getType(), ::mlir::tp::Promotion::FloatOnly, "
      "types)">.inferBody;
}
def Tp_GeluBackwardOp : Tp_PointwiseBackwardOp<"gelu_backward", "Self"> {
  let arguments = (ins Tp_Tensor:$grad_output, Tp_Tensor:$self,
                       Tp_ApproximateAttr:$approximate);
}
def Tp_ThresholdBackwardOp : Tp_PointwiseBackwardOp<"threshold_backward", "Self"> {
  let summary = "`self <= threshold ? 0 : grad_output` (relu's backward)";
  let arguments = (ins Tp_Tensor:$grad_output, Tp_Tensor:$self, Tp_ScalarAttr:$threshold);
}
def Tp_TanhBackwardOp : Tp_PointwiseBackwardOp<"tanh_backward", "Output"> {
  let arguments = (ins Tp_Tensor:$grad_output, Tp_Tensor:$output);
}
def Tp_SigmoidBackwardOp : Tp_PointwiseBackwardOp<"sigmoid_backward", "Output"> {
  let arguments = (ins Tp_Tensor:$grad_output, Tp_Tensor:$output);
}
def Tp_SiluBackwardOp : Tp_PointwiseBackwardOp<"silu_backward", "Self"> {
  let arguments = (ins Tp_Tensor:$grad_output, Tp_Tensor:$self);
}

#endif // STAX_DIALECT_TP_IR_TPNNOPS_TD
