//===- TpOps.td - tp dialect operations ---------------------*- tablegen -*-===//
//
// One op per operator overload. Ops are grouped in families that share operand
// layout, assembly format and type inference, so that adding an operator is one
// line. The C++ side of inference lives in TypeInference.cpp (families) and
// TpOps.cpp (individual ops).
//
//===----------------------------------------------------------------------===//

#ifndef STAX_DIALECT_TP_IR_TPOPS_TD
#define STAX_DIALECT_TP_IR_TPOPS_TD

include "Stax/Dialect/Tp/IR/TpAttrs.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

//===----------------------------------------------------------------------===//
// Constraints and attributes
//===----------------------------------------------------------------------===//

defvar Tp_Tensor = AnyRankedTensor;
def Tp_IndexTensor : RankedTensorOf<[I64, I32]>;
def Tp_BoolTensor : RankedTensorOf<[I1]>;

// A scalar argument of an operator overload: `i64` (integer), `f64` (floating)
// or `i1` (bool). The kind matters for type promotion.
def Tp_ScalarAttr : Attr<CPred<"::mlir::tp::isScalarAttr($_self)">,
                         "scalar (i64, f64 or bool attribute)"> {
  let storageType = "::mlir::TypedAttr";
  let returnType = "::mlir::TypedAttr";
  let convertFromStorage = "$_self";
  let constBuilderCall = "$0";
}
defvar Tp_ScalarOne = DefaultValuedAttr<Tp_ScalarAttr,
                       "::mlir::tp::getIntScalar($_builder.getContext(), 1)">;

defvar Tp_DimsAttr = DenseI64ArrayAttr;
defvar Tp_ReductionAttr = DefaultValuedAttr<I64Attr, "1">; // 0 none, 1 mean, 2 sum

//===----------------------------------------------------------------------===//
// Op categories (TpTraits.h)
//===----------------------------------------------------------------------===//

def Tp_Pointwise : NativeOpTrait<"tp::Pointwise">;
def Tp_View : NativeOpTrait<"tp::View">;
def Tp_Reduction : NativeOpTrait<"tp::Reduction">;
def Tp_Contraction : NativeOpTrait<"tp::Contraction">;
def Tp_Random : NativeOpTrait<"tp::Random">;
def Tp_InPlace : NativeOpTrait<"tp::InPlace">;

//===----------------------------------------------------------------------===//
// Base classes
//===----------------------------------------------------------------------===//

class Tp_Op<string mnemonic, list<Trait> traits = []>
    : Op<Tp_Dialect, mnemonic, !listconcat([Pure, InferTypeOpAdaptor], traits)>;

// Defines inferReturnTypes as a call of a family's C++ function. `call` is
// the expression that returns the LogicalResult, with `loc`, `adaptor`,
// `types` and `name` in scope.
class Tp_InferBy<string call> {
  code inferBody = [{
    ::llvm::LogicalResult $cppClass::inferReturnTypes(::mlir::MLIRContext *ctx,
        ::std::optional<::mlir::Location> loc, Adaptor adaptor,
        ::llvm::SmallVectorImpl<::mlir::Type> &types) {
      ::llvm::StringRef name = getOperationName();
      (void)ctx; (void)name;
      return }] # call # [{;
    }
  }];
}

// Unary elementwise: `%r = tp.exp %x : tensor<4xf32> -> tensor<4xf32>`.
// `promotion` is a ::mlir::tp::Promotion enumerator (Section 6.2).
class Tp_UnaryOp<string mnemonic, string promotion = "Same",
                 list<Trait> traits = []>
    : Tp_Op<mnemonic, !listconcat([Tp_Pointwise], traits)> {
  let summary = "elementwise `" # mnemonic # "` (aten." # mnemonic # ")";
  let arguments = (ins Tp_Tensor:$self);
  let results = (outs Tp_Tensor:$result);
  let assemblyFormat = "$self attr-dict `:` type($self) `->` type($result)";
  let extraClassDefinition = Tp_InferBy<
      "::mlir::tp::inferUnary(loc, name, adaptor.getSelf().getType(), "
      "::mlir::tp::Promotion::" # promotion # ", types)">.inferBody;
}

// Binary elementwise with broadcasting: `tp.add %a, %b : t1, t2 -> t3`.
class Tp_BinaryOp<string mnemonic, string promotion = "Default",
                  list<Trait> traits = []>
    : Tp_Op<mnemonic, !listconcat([Tp_Pointwise], traits)> {
  let summary = "broadcasting elementwise `" # mnemonic # "` of two tensors";
  let arguments = (ins Tp_Tensor:$self, Tp_Tensor:$other);
  let results = (outs Tp_Tensor:$result);
  let assemblyFormat = [{
    $self `,` $other attr-dict `:` type($self) `,` type($other) `->` type($result)
  }];
  let extraClassDefinition = Tp_InferBy<
      "::mlir::tp::inferBinary(loc, name, adaptor.getSelf().getType(), "
      "adaptor.getOther().getType(), ::mlir::tp::Promotion::" # promotion #
      ", types)">.inferBody;
}

// Tensor-scalar elementwise (the `.Scalar` overloads): the scalar is the
// `other` attribute. `tp.mul.Scalar %x {other = 2 : i64} : t -> t`.
class Tp_ScalarOp<string mnemonic, string promotion = "Default",
                  list<Trait> traits = []>
    : Tp_Op<mnemonic, !listconcat([Tp_Pointwise], traits)> {
  let summary = "elementwise `" # mnemonic # "` of a tensor and a scalar";
  let arguments = (ins Tp_Tensor:$self, Tp_ScalarAttr:$other);
  let results = (outs Tp_Tensor:$result);
  let assemblyFormat = "$self attr-dict `:` type($self) `->` type($result)";
  let extraClassDefinition = Tp_InferBy<
      "::mlir::tp::inferBinaryScalar(loc, name, adaptor.getSelf().getType(), "
      "adaptor.getOther(), ::mlir::tp::Promotion::" # promotion #
      ", types)">.inferBody;
}

// Reductions over `dims` (empty = all dims). The result element type follows
// `promotion` unless `dtype` is given.
class Tp_ReductionOp<string mnemonic, string promotion = "Same",
                     list<Trait> traits = []>
    : Tp_Op<mnemonic, !listconcat([Tp_Reduction], traits)> {
  let summary = "`" # mnemonic # "` reduction over `dims` (all when empty)";
  let arguments = (ins Tp_Tensor:$self, Tp_DimsAttr:$dims,
                       DefaultValuedAttr<BoolAttr, "false">:$keepdim,
                       OptionalAttr<TypeAttr>:$dtype);
  let results = (outs Tp_Tensor:$result);
  let assemblyFormat = "$self attr-dict `:` type($self) `->` type($result)";
  let extraClassDefinition = Tp_InferBy<
      "::mlir::tp::inferReduction(loc, name, adaptor.getSelf().getType(), "
      "adaptor.getDims(), adaptor.getKeepdim(), adaptor.getDtype(), "
      "::mlir::tp::Promotion::" # promotion # ", types)">.inferBody;
}

// Ops whose arguments are spelled out by hand; their inferReturnTypes is in
// TpOps.cpp. The format prints operands and a functional type.
class Tp_CustomOp<string mnemonic, list<Trait> traits = []>
    : Tp_Op<mnemonic, traits> {
  let assemblyFormat = "operands attr-dict `:` functional-type(operands, results)";
}

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
    `x * Φ(x)` with `approximate = "none"`, or the tanh approximation with
    `approximate = "tanh"`.
  }];
  let arguments = (ins Tp_Tensor:$self,
                       DefaultValuedStrAttr<StrAttr, "none">:$approximate);
  let hasVerifier = 1;
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
  let arguments = (ins Tp_Tensor:$self, OptionalAttr<Tp_ScalarAttr>:$min,
                       OptionalAttr<Tp_ScalarAttr>:$max);
  let hasVerifier = 1;
}

def Tp_ToCopyOp : Tp_Op<"_to_copy", [Tp_Pointwise]> {
  let summary = "dtype conversion (aten._to_copy); the result type names the dtype";
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
  let arguments = (ins Tp_Tensor:$self, Tp_Tensor:$other,
                       OptionalAttr<StrAttr>:$rounding_mode);
  let results = (outs Tp_Tensor:$result);
  let assemblyFormat = [{
    $self `,` $other attr-dict `:` type($self) `,` type($other) `->` type($result)
  }];
  let hasVerifier = 1;
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
  let arguments = (ins Tp_Tensor:$self, Tp_ScalarAttr:$other,
                       OptionalAttr<StrAttr>:$rounding_mode);
  let results = (outs Tp_Tensor:$result);
  let assemblyFormat = "$self attr-dict `:` type($self) `->` type($result)";
  let hasVerifier = 1;
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
  let arguments = (ins Tp_BoolTensor:$condition, Tp_Tensor:$self, Tp_Tensor:$other);
  let results = (outs Tp_Tensor:$result);
  let assemblyFormat = [{
    $condition `,` $self `,` $other attr-dict `:` functional-type(operands, results)
  }];
}
def Tp_MaskedFillScalarOp : Tp_Op<"masked_fill.Scalar", [Tp_Pointwise]> {
  let summary = "`mask ? value : self`, mask broadcast to self (aten.masked_fill.Scalar)";
  let arguments = (ins Tp_Tensor:$self, Tp_BoolTensor:$mask, Tp_ScalarAttr:$value);
  let results = (outs Tp_Tensor:$result);
  let assemblyFormat = [{
    $self `,` $mask attr-dict `:` functional-type(operands, results)
  }];
}

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

def Tp_SumOp : Tp_ReductionOp<"sum", "IntToLong">;
def Tp_ProdOp : Tp_ReductionOp<"prod", "IntToLong">;
def Tp_MeanOp : Tp_ReductionOp<"mean", "FloatOnly">;
def Tp_AmaxOp : Tp_ReductionOp<"amax">;
def Tp_AminOp : Tp_ReductionOp<"amin">;
def Tp_LogsumexpOp : Tp_ReductionOp<"logsumexp", "IntToFloat">;
def Tp_AnyOp : Tp_ReductionOp<"any", "ToBool">;
def Tp_AllOp : Tp_ReductionOp<"all", "ToBool">;
def Tp_VarOp : Tp_Op<"var", [Tp_Reduction]> {
  let summary = "variance over `dims` with Bessel `correction` (aten.var.correction)";
  let arguments = (ins Tp_Tensor:$self, Tp_DimsAttr:$dims,
                       DefaultValuedAttr<F64Attr, "1.0">:$correction,
                       DefaultValuedAttr<BoolAttr, "false">:$keepdim);
  let results = (outs Tp_Tensor:$result);
  let assemblyFormat = "$self attr-dict `:` type($self) `->` type($result)";
}
def Tp_MaxDimOp : Tp_Op<"max.dim", [Tp_Reduction]> {
  let summary = "maximum and its (first) index along `dim` (aten.max.dim)";
  let arguments = (ins Tp_Tensor:$self, I64Attr:$dim,
                       DefaultValuedAttr<BoolAttr, "false">:$keepdim);
  let results = (outs Tp_Tensor:$values, Tp_IndexTensor:$indices);
  let assemblyFormat = "$self attr-dict `:` type($self) `->` type(results)";
}
def Tp_MinDimOp : Tp_Op<"min.dim", [Tp_Reduction]> {
  let summary = "minimum and its (first) index along `dim` (aten.min.dim)";
  let arguments = (ins Tp_Tensor:$self, I64Attr:$dim,
                       DefaultValuedAttr<BoolAttr, "false">:$keepdim);
  let results = (outs Tp_Tensor:$values, Tp_IndexTensor:$indices);
  let assemblyFormat = "$self attr-dict `:` type($self) `->` type(results)";
}
class Tp_ArgReductionOp<string mnemonic> : Tp_Op<mnemonic, [Tp_Reduction]> {
  let summary = "index of the first extreme value along `dim` (all dims flattened when absent)";
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
                       DefaultValuedStrAttr<StrAttr, "none">:$approximate);
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

//===----------------------------------------------------------------------===//
// Linear algebra (external kernels when lowered)
//===----------------------------------------------------------------------===//

def Tp_MmOp : Tp_CustomOp<"mm", [Tp_Contraction]> {
  let summary = "matrix product of 2-D tensors";
  let arguments = (ins Tp_Tensor:$self, Tp_Tensor:$mat2);
  let results = (outs Tp_Tensor:$result);
}
def Tp_BmmOp : Tp_CustomOp<"bmm", [Tp_Contraction]> {
  let summary = "batched matrix product of 3-D tensors";
  let arguments = (ins Tp_Tensor:$self, Tp_Tensor:$mat2);
  let results = (outs Tp_Tensor:$result);
}
def Tp_MatmulOp : Tp_CustomOp<"matmul", [Tp_Contraction]> {
  let summary = "numpy-style matmul: 1-D/2-D/batched with broadcasting batch dims";
  let arguments = (ins Tp_Tensor:$self, Tp_Tensor:$other);
  let results = (outs Tp_Tensor:$result);
}
def Tp_DotOp : Tp_CustomOp<"dot", [Tp_Contraction]> {
  let summary = "inner product of two 1-D tensors";
  let arguments = (ins Tp_Tensor:$self, Tp_Tensor:$other);
  let results = (outs Tp_Tensor:$result);
}
def Tp_AddmmOp : Tp_CustomOp<"addmm", [Tp_Contraction]> {
  let summary = "`beta * self + alpha * (mat1 @ mat2)`, self broadcast";
  let arguments = (ins Tp_Tensor:$self, Tp_Tensor:$mat1, Tp_Tensor:$mat2,
                       Tp_ScalarOne:$beta, Tp_ScalarOne:$alpha);
  let results = (outs Tp_Tensor:$result);
}
def Tp_BaddbmmOp : Tp_CustomOp<"baddbmm", [Tp_Contraction]> {
  let summary = "`beta * self + alpha * (batch1 @ batch2)`, self broadcast";
  let arguments = (ins Tp_Tensor:$self, Tp_Tensor:$batch1, Tp_Tensor:$batch2,
                       Tp_ScalarOne:$beta, Tp_ScalarOne:$alpha);
  let results = (outs Tp_Tensor:$result);
}

//===----------------------------------------------------------------------===//
// Views and shape manipulation (no data movement once lowered)
//===----------------------------------------------------------------------===//

class Tp_ViewOp<string mnemonic> : Tp_Op<mnemonic, [Tp_View]> {
  let results = (outs Tp_Tensor:$result);
  let assemblyFormat = "$self attr-dict `:` type($self) `->` type($result)";
}
def Tp_TOp : Tp_ViewOp<"t"> {
  let summary = "transpose of a tensor of rank <= 2";
  let arguments = (ins Tp_Tensor:$self);
  let hasFolder = 1;
}
def Tp_TransposeOp : Tp_ViewOp<"transpose"> {
  let summary = "swap two dims (aten.transpose.int)";
  let arguments = (ins Tp_Tensor:$self, I64Attr:$dim0, I64Attr:$dim1);
}
def Tp_PermuteOp : Tp_ViewOp<"permute"> {
  let summary = "reorder dims: result dim i is input dim dims[i]";
  let arguments = (ins Tp_Tensor:$self, Tp_DimsAttr:$dims);
  let hasFolder = 1;
}
// Reshapes; `size` may hold one -1 that is inferred.
class Tp_ReshapeLikeOp<string mnemonic> : Tp_ViewOp<mnemonic> {
  let summary = "reshape to `size` (same number of elements, row-major order)";
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
  let arguments = (ins Tp_Tensor:$self, Tp_DimsAttr:$size, Tp_DimsAttr:$stride);
  let hasVerifier = 1;
  let extraClassDefinition = Tp_InferBy<
      "::mlir::tp::inferReshape(loc, name, adaptor.getSelf().getType(), "
      "adaptor.getSize(), types)">.inferBody;
}
def Tp_ExpandOp : Tp_ViewOp<"expand"> {
  let summary = "broadcast to `size` (-1 keeps a dim); new dims are added in front";
  let arguments = (ins Tp_Tensor:$self, Tp_DimsAttr:$size);
  let hasFolder = 1;
}
def Tp_UnsqueezeOp : Tp_ViewOp<"unsqueeze"> {
  let summary = "insert a size-1 dim at `dim`";
  let arguments = (ins Tp_Tensor:$self, I64Attr:$dim);
}
def Tp_SqueezeOp : Tp_ViewOp<"squeeze"> {
  let summary = "remove size-1 dims: those in `dims`, or all when absent";
  let arguments = (ins Tp_Tensor:$self, OptionalAttr<Tp_DimsAttr>:$dims);
}
def Tp_SliceOp : Tp_ViewOp<"slice"> {
  let summary = "elements start, start+step, ... < end along `dim` (aten.slice.Tensor)";
  let arguments = (ins Tp_Tensor:$self, DefaultValuedAttr<I64Attr, "0">:$dim,
                       DefaultValuedAttr<I64Attr, "0">:$start,
                       DefaultValuedAttr<I64Attr, "9223372036854775807">:$end,
                       DefaultValuedAttr<I64Attr, "1">:$step);
}
def Tp_SelectOp : Tp_ViewOp<"select"> {
  let summary = "the slice at `index` along `dim`, which is removed (aten.select.int)";
  let arguments = (ins Tp_Tensor:$self, I64Attr:$dim, I64Attr:$index);
}
def Tp_AsStridedOp : Tp_ViewOp<"as_strided"> {
  let summary = "view of the row-major storage of `self` with explicit strides and offset";
  let arguments = (ins Tp_Tensor:$self, Tp_DimsAttr:$size, Tp_DimsAttr:$stride,
                       DefaultValuedAttr<I64Attr, "0">:$storage_offset);
}
def Tp_SliceBackwardOp : Tp_Op<"slice_backward"> {
  let summary = "zeros of `input_sizes` with `grad_output` written at the slice";
  let arguments = (ins Tp_Tensor:$grad_output, Tp_DimsAttr:$input_sizes, I64Attr:$dim,
                       I64Attr:$start, I64Attr:$end, I64Attr:$step);
  let results = (outs Tp_Tensor:$result);
  let assemblyFormat = "$grad_output attr-dict `:` type($grad_output) `->` type($result)";
}
def Tp_SelectBackwardOp : Tp_Op<"select_backward"> {
  let summary = "zeros of `input_sizes` with `grad_output` written at `index` of `dim`";
  let arguments = (ins Tp_Tensor:$grad_output, Tp_DimsAttr:$input_sizes, I64Attr:$dim,
                       I64Attr:$index);
  let results = (outs Tp_Tensor:$result);
  let assemblyFormat = "$grad_output attr-dict `:` type($grad_output) `->` type($result)";
}
def Tp_SplitOp : Tp_Op<"split", [Tp_View]> {
  let summary = "chunks of `split_size` along `dim`, the last may be smaller (aten.split.Tensor)";
  let arguments = (ins Tp_Tensor:$self, I64Attr:$split_size,
                       DefaultValuedAttr<I64Attr, "0">:$dim);
  let results = (outs Variadic<Tp_Tensor>:$results);
  let assemblyFormat = "$self attr-dict `:` type($self) `->` type($results)";
}
def Tp_SplitWithSizesOp : Tp_Op<"split_with_sizes", [Tp_View]> {
  let summary = "chunks of the given sizes along `dim`";
  let arguments = (ins Tp_Tensor:$self, Tp_DimsAttr:$split_sizes,
                       DefaultValuedAttr<I64Attr, "0">:$dim);
  let results = (outs Variadic<Tp_Tensor>:$results);
  let assemblyFormat = "$self attr-dict `:` type($self) `->` type($results)";
}
def Tp_UnbindOp : Tp_Op<"unbind", [Tp_View]> {
  let summary = "all slices along `dim`, each without that dim";
  let arguments = (ins Tp_Tensor:$self, DefaultValuedAttr<I64Attr, "0">:$dim);
  let results = (outs Variadic<Tp_Tensor>:$results);
  let assemblyFormat = "$self attr-dict `:` type($self) `->` type($results)";
}
def Tp_CatOp : Tp_Op<"cat"> {
  let summary = "concatenation along `dim`";
  let arguments = (ins Variadic<Tp_Tensor>:$tensors, DefaultValuedAttr<I64Attr, "0">:$dim);
  let results = (outs Tp_Tensor:$result);
  let assemblyFormat = "$tensors attr-dict `:` functional-type(operands, results)";
}
def Tp_StackOp : Tp_Op<"stack"> {
  let summary = "stack along a new dim `dim`";
  let arguments = (ins Variadic<Tp_Tensor>:$tensors, DefaultValuedAttr<I64Attr, "0">:$dim);
  let results = (outs Tp_Tensor:$result);
  let assemblyFormat = "$tensors attr-dict `:` functional-type(operands, results)";
}

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
    (numpy's rule).
  }];
  let arguments = (ins Tp_Tensor:$self, Variadic<Tp_IndexTensor>:$indices,
                       Tp_DimsAttr:$dims);
  let results = (outs Tp_Tensor:$result);
  let assemblyFormat = "$self `[` $indices `]` attr-dict `:` functional-type(operands, results)";
}
def Tp_IndexPutOp : Tp_Op<"index_put"> {
  let summary = "`self` with `self[indices] = values` (or `+=` when `accumulate`)";
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
  let arguments = (ins Tp_Tensor:$self, Tp_IndexTensor:$index, I64Attr:$dim);
  let results = (outs Tp_Tensor:$result);
  let assemblyFormat = "$self `,` $index attr-dict `:` functional-type(operands, results)";
}
def Tp_GatherOp : Tp_Op<"gather"> {
  let summary = "`result[i][j] = self[index[i][j]][j]` for dim 0 (aten.gather)";
  let arguments = (ins Tp_Tensor:$self, Tp_IndexTensor:$index, I64Attr:$dim);
  let results = (outs Tp_Tensor:$result);
  let assemblyFormat = "$self `,` $index attr-dict `:` functional-type(operands, results)";
}
def Tp_ScatterOp : Tp_Op<"scatter"> {
  let summary = "`self` with `self[index[i][j]][j] = src[i][j]` for dim 0 (aten.scatter.src)";
  let arguments = (ins Tp_Tensor:$self, Tp_IndexTensor:$index, Tp_Tensor:$src, I64Attr:$dim);
  let results = (outs Tp_Tensor:$result);
  let assemblyFormat = "$self `,` $index `,` $src attr-dict `:` functional-type(operands, results)";
}
def Tp_ScatterAddOp : Tp_Op<"scatter_add"> {
  let summary = "`self` with `self[index[i][j]][j] += src[i][j]` for dim 0";
  let arguments = (ins Tp_Tensor:$self, Tp_IndexTensor:$index, Tp_Tensor:$src, I64Attr:$dim);
  let results = (outs Tp_Tensor:$result);
  let assemblyFormat = "$self `,` $index `,` $src attr-dict `:` functional-type(operands, results)";
}
def Tp_EmbeddingOp : Tp_Op<"embedding"> {
  let summary = "rows of `weight` selected by `indices` (result shape indices.shape + [dim])";
  let arguments = (ins Tp_Tensor:$weight, Tp_IndexTensor:$indices,
                       DefaultValuedAttr<I64Attr, "-1">:$padding_idx);
  let results = (outs Tp_Tensor:$result);
  let assemblyFormat = "$weight `,` $indices attr-dict `:` functional-type(operands, results)";
}
def Tp_EmbeddingDenseBackwardOp : Tp_Op<"embedding_dense_backward"> {
  let summary = "scatter-add of `grad_output` rows into a `num_weights` x dim gradient";
  let arguments = (ins Tp_Tensor:$grad_output, Tp_IndexTensor:$indices,
                       I64Attr:$num_weights, DefaultValuedAttr<I64Attr, "-1">:$padding_idx,
                       DefaultValuedAttr<BoolAttr, "false">:$scale_grad_by_freq);
  let results = (outs Tp_Tensor:$result);
  let assemblyFormat = "$grad_output `,` $indices attr-dict `:` functional-type(operands, results)";
}

//===----------------------------------------------------------------------===//
// Tensor creation
//===----------------------------------------------------------------------===//

// Creation ops take their shape and dtype from the result type, which the
// assembly format prints; they need no type inference.
class Tp_CreationOp<string mnemonic, list<Trait> traits = []>
    : Op<Tp_Dialect, mnemonic, !listconcat([Pure], traits)>;

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

include "Stax/Dialect/Tp/IR/TpInPlaceOps.td"
include "Stax/Dialect/Tp/IR/TpRandomOps.td"

#endif // STAX_DIALECT_TP_IR_TPOPS_TD
