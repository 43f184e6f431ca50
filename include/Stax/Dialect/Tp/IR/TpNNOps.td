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
  let description = [{
    `exp(x - max) / sum(exp(x - max))` along `dim`, computed as eager's
    kernel does (the maximum subtracted first). `half_to_float` is eager's
    flag for f16 inputs with an f32 result. `--stax-decompose` expands it
    into `tp.amax`, `tp.sub`, `tp.exp`, `tp.sum` and `tp.div` (along the
    last dim `tp.reciprocal` of the sum and `tp.mul`, as eager's lastdim
    kernel) unless kept.

    ```mlir
    func.func @example(%x: tensor<2x8xf32>) -> tensor<2x8xf32> {
      %r = tp._softmax %x {dim = 1 : i64} : tensor<2x8xf32> -> tensor<2x8xf32>
      return %r : tensor<2x8xf32>
    }
    ```
  }];
  let arguments = (ins Tp_Tensor:$self, I64Attr:$dim,
                       DefaultValuedAttr<BoolAttr, "false">:$half_to_float);
  let results = (outs Tp_Tensor:$result);
  let assemblyFormat = "$self attr-dict `:` type($self) `->` type($result)";
}
def Tp_LogSoftmaxOp : Tp_Op<"_log_softmax", [Tp_Reduction]> {
  let summary = "log-softmax along `dim` (aten._log_softmax)";
  let description = [{
    `x - max - log(sum(exp(x - max)))` along `dim`, as eager's kernel
    computes it.

    ```mlir
    func.func @example(%x: tensor<2x8xf32>) -> tensor<2x8xf32> {
      %r = tp._log_softmax %x {dim = -1 : i64} : tensor<2x8xf32> -> tensor<2x8xf32>
      return %r : tensor<2x8xf32>
    }
    ```
  }];
  let arguments = (ins Tp_Tensor:$self, I64Attr:$dim,
                       DefaultValuedAttr<BoolAttr, "false">:$half_to_float);
  let results = (outs Tp_Tensor:$result);
  let assemblyFormat = "$self attr-dict `:` type($self) `->` type($result)";
}
def Tp_SoftmaxBackwardDataOp : Tp_Op<"_softmax_backward_data", [Tp_Reduction]> {
  let summary = "`output * (grad_output - sum(grad_output * output, dim))`";
  let description = [{
    The backward of `tp._softmax` (`aten._softmax_backward_data`), reading
    the softmax's result `output`; `input_dtype` is the forward input's
    element type.

    ```mlir
    func.func @example(%g: tensor<2x8xf32>, %y: tensor<2x8xf32>) -> tensor<2x8xf32> {
      %r = tp._softmax_backward_data %g, %y {dim = 1 : i64} : (tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>
      return %r : tensor<2x8xf32>
    }
    ```
  }];
  let arguments = (ins Tp_Tensor:$grad_output, Tp_Tensor:$output, I64Attr:$dim,
                       OptionalAttr<TypeAttr>:$input_dtype);
  let results = (outs Tp_Tensor:$result);
  let assemblyFormat = "$grad_output `,` $output attr-dict `:` functional-type(operands, results)";
}
def Tp_LogSoftmaxBackwardDataOp : Tp_Op<"_log_softmax_backward_data", [Tp_Reduction]> {
  let summary = "`grad_output - exp(output) * sum(grad_output, dim)`";
  let description = [{
    The backward of `tp._log_softmax` (`aten._log_softmax_backward_data`),
    reading the log-softmax's result `output`.

    ```mlir
    func.func @example(%g: tensor<2x8xf32>, %y: tensor<2x8xf32>) -> tensor<2x8xf32> {
      %r = tp._log_softmax_backward_data %g, %y {dim = 1 : i64} : (tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>
      return %r : tensor<2x8xf32>
    }
    ```
  }];
  let arguments = (ins Tp_Tensor:$grad_output, Tp_Tensor:$output, I64Attr:$dim,
                       OptionalAttr<TypeAttr>:$input_dtype);
  let results = (outs Tp_Tensor:$result);
  let assemblyFormat = "$grad_output `,` $output attr-dict `:` functional-type(operands, results)";
}

def Tp_NativeLayerNormOp : Tp_Op<"native_layer_norm", [AttrSizedOperandSegments, Tp_Reduction]> {
  let summary = "layer norm over the trailing `normalized_shape` dims: (output, mean, rstd)";
  let description = [{
    `aten.native_layer_norm`: normalizes `input` over its trailing dims
    `normalized_shape` (`(x - mean) * rstd`, `rstd = 1 / sqrt(var + eps)`
    with the biased variance), then multiplies by `weight` and adds `bias`
    when present (both of shape `normalized_shape`). The other two results
    are the mean and `rstd` per normalized group, with the normalized dims
    kept as size 1; the backward reads them.

    ```mlir
    func.func @example(%x: tensor<4x16xf32>, %w: tensor<16xf32>, %b: tensor<16xf32>) -> tensor<4x16xf32> {
      %y, %mean, %rstd = tp.native_layer_norm %x weight(%w) bias(%b) {eps = 1.0e-05 : f64, normalized_shape = array<i64: 16>}
          : (tensor<4x16xf32>, tensor<16xf32>, tensor<16xf32>) -> (tensor<4x16xf32>, tensor<4x1xf32>, tensor<4x1xf32>)
      return %y : tensor<4x16xf32>
    }
    ```
  }];
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
  let description = [{
    `aten.native_layer_norm_backward`: from the output gradient, the input
    and the forward's `mean` and `rstd`, the gradients of the input, the
    weight and the bias (the last two have the shape of
    `normalized_shape`).

    ```mlir
    func.func @example(%g: tensor<4x16xf32>, %x: tensor<4x16xf32>, %mean: tensor<4x1xf32>, %rstd: tensor<4x1xf32>, %w: tensor<16xf32>, %b: tensor<16xf32>) -> tensor<4x16xf32> {
      %gx, %gw, %gb = tp.native_layer_norm_backward %g, %x, %mean, %rstd weight(%w) bias(%b) {normalized_shape = array<i64: 16>}
          : (tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x1xf32>, tensor<4x1xf32>, tensor<16xf32>, tensor<16xf32>) -> (tensor<4x16xf32>, tensor<16xf32>, tensor<16xf32>)
      return %gx : tensor<4x16xf32>
    }
    ```
  }];
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
  let description = [{
    `aten.nll_loss_forward`: `-self[i, target[i]]` (times `weight[target[i]]`
    when given) for each row i of the log-probabilities `self`, summed,
    averaged over the total weight (`#tp.reduction<mean>`, the default) or
    kept per row (`<none>`). Targets equal to `ignore_index` contribute
    nothing. The second result is the total weight that the backward reads.

    ```mlir
    func.func @example(%logp: tensor<8x10xf32>, %target: tensor<8xi64>) -> tensor<f32> {
      %loss, %total = tp.nll_loss_forward %logp, %target {reduction = #tp.reduction<mean>}
          : (tensor<8x10xf32>, tensor<8xi64>) -> (tensor<f32>, tensor<f32>)
      return %loss : tensor<f32>
    }
    ```
  }];
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
  let description = [{
    `aten.nll_loss_backward`: zeros of the shape of `self` with
    `-grad_output` (scaled by the weight and, for `mean`, divided by
    `total_weight`) at each row's target column.

    ```mlir
    func.func @example(%g: tensor<f32>, %logp: tensor<8x10xf32>, %target: tensor<8xi64>, %total: tensor<f32>) -> tensor<8x10xf32> {
      %r = tp.nll_loss_backward %g, %logp, %target, %total {reduction = #tp.reduction<mean>}
          : (tensor<f32>, tensor<8x10xf32>, tensor<8xi64>, tensor<f32>) -> tensor<8x10xf32>
      return %r : tensor<8x10xf32>
    }
    ```
  }];
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
  let description = [{
    `aten.mse_loss`: `(self - target)^2`, averaged (`#tp.reduction<mean>`,
    the default), summed (`<sum>`) or kept elementwise (`<none>`).

    ```mlir
    func.func @example(%y: tensor<8x4xf32>, %t: tensor<8x4xf32>) -> tensor<f32> {
      %r = tp.mse_loss %y, %t {reduction = #tp.reduction<mean>} : (tensor<8x4xf32>, tensor<8x4xf32>) -> tensor<f32>
      return %r : tensor<f32>
    }
    ```
  }];
  let arguments = (ins Tp_Tensor:$self, Tp_Tensor:$target, Tp_ReductionAttr:$reduction);
  let results = (outs Tp_Tensor:$result);
  let assemblyFormat = "$self `,` $target attr-dict `:` functional-type(operands, results)";
}
def Tp_MseLossBackwardOp : Tp_Op<"mse_loss_backward", [Tp_Pointwise]> {
  let summary = "gradient of mse_loss with respect to `self`";
  let description = [{
    `aten.mse_loss_backward`: `2 * (self - target) * grad_output`, divided
    by the number of elements for `mean`.

    ```mlir
    func.func @example(%g: tensor<f32>, %y: tensor<8x4xf32>, %t: tensor<8x4xf32>) -> tensor<8x4xf32> {
      %r = tp.mse_loss_backward %g, %y, %t {reduction = #tp.reduction<mean>}
          : (tensor<f32>, tensor<8x4xf32>, tensor<8x4xf32>) -> tensor<8x4xf32>
      return %r : tensor<8x4xf32>
    }
    ```
  }];
  let arguments = (ins Tp_Tensor:$grad_output, Tp_Tensor:$self, Tp_Tensor:$target,
                       Tp_ReductionAttr:$reduction);
  let results = (outs Tp_Tensor:$result);
  let assemblyFormat = [{
    $grad_output `,` $self `,` $target attr-dict `:` functional-type(operands, results)
  }];
}

//===----------------------------------------------------------------------===//
// CTC loss (external kernels when lowered)
//===----------------------------------------------------------------------===//

def Tp_CtcLossOp : Tp_Op<"ctc_loss", [Tp_External]> {
  let summary = "connectionist temporal classification loss per sample (aten._ctc_loss)";
  let description = [{
    `aten._ctc_loss` with padded targets: for each sample n, the negative
    log likelihood of `targets[n, :target_lengths[n]]` under the per-frame
    class log-probabilities `log_probs[:input_lengths[n], n, :]`, summed
    over every alignment (blank = class `blank`), and the forward variables
    `log_alpha[n, t, s]` over the extended labels (blank, l1, blank, l2,
    ..., blank: `2 S + 1` of them), which the backward reads (-inf outside
    the sample's lengths). Computed as eager's CPU kernel computes it
    (`Stax/Support/CTCLoss.h`): bitwise equal. An impossible alignment
    gives +inf. A length outside [0, T] or [0, S], or a target outside
    [0, C), is a run-time error. `zero_infinity` does not change the
    results (eager's `ctc_loss` zeroes infinite losses after the op); the
    gradient (`tp.ctc_loss_backward`) reads it.

    ```mlir
    func.func @example(%lp: tensor<50x4x20xf32>, %tg: tensor<4x10xi64>, %il: tensor<4xi64>, %tl: tensor<4xi64>) -> tensor<4xf32> {
      %nll, %alpha = tp.ctc_loss %lp, %tg, %il, %tl {blank = 0 : i64}
          : (tensor<50x4x20xf32>, tensor<4x10xi64>, tensor<4xi64>, tensor<4xi64>)
          -> (tensor<4xf32>, tensor<4x50x21xf32>)
      return %nll : tensor<4xf32>
    }
    ```
  }];
  let arguments = (ins Tp_Tensor:$log_probs, RankedTensorOf<[I64]>:$targets,
                       RankedTensorOf<[I64]>:$input_lengths,
                       RankedTensorOf<[I64]>:$target_lengths,
                       DefaultValuedAttr<I64Attr, "0">:$blank,
                       DefaultValuedAttr<BoolAttr, "false">:$zero_infinity);
  let results = (outs Tp_Tensor:$neg_log_likelihood, Tp_Tensor:$log_alpha);
  let assemblyFormat = [{
    $log_probs `,` $targets `,` $input_lengths `,` $target_lengths attr-dict
    `:` functional-type(operands, results)
  }];
}

def Tp_CtcLossBackwardOp : Tp_Op<"ctc_loss_backward", [Tp_External]> {
  let summary = "gradient of ctc_loss with respect to `log_probs` (aten._ctc_loss_backward)";
  let description = [{
    `aten._ctc_loss_backward`: for each sample, `(exp(lp) - exp(log(alpha
    beta) + nll - lp)) * grad[n]` at its frames and 0 after them; with
    `zero_infinity`, 0 for a sample whose loss is infinite. As in eager,
    this is the gradient with respect to the logits of a log_softmax that
    produced `log_probs` (the `exp(lp)` term cancels through the
    log_softmax), which is also what eager's autograd passes to
    `log_probs`. Bitwise equal to eager's CPU kernel.

    ```mlir
    func.func @example(%g: tensor<4xf32>, %lp: tensor<50x4x20xf32>, %tg: tensor<4x10xi64>, %il: tensor<4xi64>, %tl: tensor<4xi64>, %nll: tensor<4xf32>, %alpha: tensor<4x50x21xf32>) -> tensor<50x4x20xf32> {
      %r = tp.ctc_loss_backward %g, %lp, %tg, %il, %tl, %nll, %alpha {blank = 0 : i64, zero_infinity = true}
          : (tensor<4xf32>, tensor<50x4x20xf32>, tensor<4x10xi64>, tensor<4xi64>, tensor<4xi64>, tensor<4xf32>, tensor<4x50x21xf32>) -> tensor<50x4x20xf32>
      return %r : tensor<50x4x20xf32>
    }
    ```
  }];
  let arguments = (ins Tp_Tensor:$grad, Tp_Tensor:$log_probs,
                       RankedTensorOf<[I64]>:$targets,
                       RankedTensorOf<[I64]>:$input_lengths,
                       RankedTensorOf<[I64]>:$target_lengths,
                       Tp_Tensor:$neg_log_likelihood, Tp_Tensor:$log_alpha,
                       DefaultValuedAttr<I64Attr, "0">:$blank,
                       DefaultValuedAttr<BoolAttr, "false">:$zero_infinity);
  let results = (outs Tp_Tensor:$result);
  let assemblyFormat = [{
    $grad `,` $log_probs `,` $targets `,` $input_lengths `,` $target_lengths `,`
    $neg_log_likelihood `,` $log_alpha attr-dict `:` functional-type(operands, results)
  }];
}

// Pointwise backward operators: (grad_output, saved) -> grad_input, broadcasting.
class Tp_PointwiseBackwardOp<string mnemonic, string savedName>
    : Tp_Op<mnemonic, [Tp_Pointwise]> {
  let summary = "pointwise backward of `" # !subst("_backward", "", mnemonic) #
                "`, reading `" # savedName # "`";
  let description = [{
    `aten.}] # mnemonic # [{`: the gradient of the input of `}] #
    !subst("_backward", "", mnemonic) # [{`, from the output gradient
    `grad_output` and the forward's }] #
    !if(!eq(savedName, "Self"), "input `self`", "result `output`") # [{,
    element by element (the two broadcast). The joint graph keeps these
    eager backward operators; `--stax-decompose` expands them.

    ```mlir
    func.func @example(%g: tensor<2x3xf32>, %saved: tensor<2x3xf32>) -> tensor<2x3xf32> {
      %r = tp.}] # mnemonic # [{ %g, %saved : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
      return %r : tensor<2x3xf32>
    }
    ```
  }];
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
  let description = [{
    `aten.threshold_backward`: `grad_output` where `self` (relu's input or
    output) is above the scalar `threshold`, zero elsewhere.

    ```mlir
    func.func @example(%g: tensor<2x3xf32>, %x: tensor<2x3xf32>) -> tensor<2x3xf32> {
      %r = tp.threshold_backward %g, %x {threshold = 0 : i64} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
      return %r : tensor<2x3xf32>
    }
    ```
  }];
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
