//===- TpAttrs.td - enumerations and attributes of tp --------*- tablegen -*-===//
//
// The enumerated attributes of `tp`: the phase of an op in a joint graph.
// Discardable attributes that passes read are listed in DiscardableAttrs.h
// and verified by the dialect (TpDialect::verifyOperationAttribute).
//
//===----------------------------------------------------------------------===//
#ifndef STAX_DIALECT_TP_IR_TPATTRS_TD
#define STAX_DIALECT_TP_IR_TPATTRS_TD

include "Stax/Dialect/Tp/IR/TpDialect.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"

def Tp_Phase : I32EnumAttr<"Phase", "phase of an op in a joint graph", [
    I32EnumAttrCase<"Forward", 0, "fw">,
    I32EnumAttrCase<"Backward", 1, "bw">]> {
  let cppNamespace = "::mlir::tp";
  let genSpecializedAttr = 0;
}
def Tp_PhaseAttr : EnumAttr<Tp_Dialect, Tp_Phase, "phase"> {
  let summary = "phase of an op in a joint graph: `#tp.phase<fw>` or `<bw>`";
  let assemblyFormat = "`<` $value `>`";
}

// `reduction=` of the losses, with PyTorch's numbering (at::Reduction).
def Tp_LossReduction : I32EnumAttr<"LossReduction", "reduction of a loss", [
    I32EnumAttrCase<"None", 0, "none">,
    I32EnumAttrCase<"Mean", 1, "mean">,
    I32EnumAttrCase<"Sum", 2, "sum">]> {
  let cppNamespace = "::mlir::tp";
  let genSpecializedAttr = 0;
}
def Tp_LossReductionAttr : EnumAttr<Tp_Dialect, Tp_LossReduction, "reduction"> {
  let summary = "reduction of a loss: `#tp.reduction<none|mean|sum>`";
  let assemblyFormat = "`<` $value `>`";
}

// `approximate=` of gelu and gelu_backward.
def Tp_GeluApproximate : I32EnumAttr<"GeluApproximate", "GELU formula", [
    I32EnumAttrCase<"None", 0, "none">,
    I32EnumAttrCase<"Tanh", 1, "tanh">]> {
  let cppNamespace = "::mlir::tp";
  let genSpecializedAttr = 0;
}
def Tp_GeluApproximateAttr : EnumAttr<Tp_Dialect, Tp_GeluApproximate, "approximate"> {
  let summary = "GELU formula: `#tp.approximate<none>` (erf) or `<tanh>`";
  let assemblyFormat = "`<` $value `>`";
}

// `rounding_mode=` of div (absent: true division).
def Tp_RoundingMode : I32EnumAttr<"RoundingMode", "rounding of a division", [
    I32EnumAttrCase<"Trunc", 0, "trunc">,
    I32EnumAttrCase<"Floor", 1, "floor">]> {
  let cppNamespace = "::mlir::tp";
  let genSpecializedAttr = 0;
}
def Tp_RoundingModeAttr : EnumAttr<Tp_Dialect, Tp_RoundingMode, "rounding_mode"> {
  let summary = "rounding of a division: `#tp.rounding_mode<trunc|floor>`";
  let assemblyFormat = "`<` $value `>`";
}

#endif // STAX_DIALECT_TP_IR_TPATTRS_TD
