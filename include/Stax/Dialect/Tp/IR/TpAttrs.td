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

#endif // STAX_DIALECT_TP_IR_TPATTRS_TD
