//===- StaxAttrs.td - layouts and reduction kinds -----------*- tablegen -*-===//
#ifndef STAX_DIALECT_STAX_IR_STAXATTRS_TD
#define STAX_DIALECT_STAX_IR_STAXATTRS_TD

include "Stax/Dialect/Stax/IR/StaxDialect.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"

def Stax_ReductionKind : I32EnumAttr<"ReductionKind", "combine of a reduction", [
    I32EnumAttrCase<"Sum", 0, "sum">,
    I32EnumAttrCase<"Prod", 1, "prod">,
    I32EnumAttrCase<"Max", 2, "max">,
    I32EnumAttrCase<"Min", 3, "min">,
    I32EnumAttrCase<"Argmax", 4, "argmax">,
    I32EnumAttrCase<"Argmin", 5, "argmin">,
    I32EnumAttrCase<"Welford", 6, "welford">,
    I32EnumAttrCase<"Any", 7, "any">,
    I32EnumAttrCase<"All", 8, "all">,
    I32EnumAttrCase<"WelfordCombine", 9, "welford_combine">]> {
  let cppNamespace = "::mlir::stax";
  let genSpecializedAttr = 0;
}
def Stax_ReductionKindAttr : EnumAttr<Stax_Dialect, Stax_ReductionKind, "reduction_kind">;

def Stax_ScatterMode : I32EnumAttr<"ScatterMode", "how a scatter writes", [
    I32EnumAttrCase<"Overwrite", 0, "overwrite">,
    I32EnumAttrCase<"Accumulate", 1, "accumulate">]> {
  let cppNamespace = "::mlir::stax";
  let genSpecializedAttr = 0;
}
def Stax_ScatterModeAttr : EnumAttr<Stax_Dialect, Stax_ScatterMode, "scatter_mode">;

// The functions of stax.special_function (Stax/Support/SpecialFunctions.h).
// Printed as a keyword: `stax.special_function lgamma(%x) : (f32) -> f32`.
def Stax_SpecialFunctionKind : I32EnumAttr<"SpecialFunctionKind",
    "a scalar special function", [
    I32EnumAttrCase<"Lgamma", 0, "lgamma">,
    I32EnumAttrCase<"Digamma", 1, "digamma">,
    I32EnumAttrCase<"Polygamma", 2, "polygamma">,
    I32EnumAttrCase<"Erfinv", 3, "erfinv">,
    I32EnumAttrCase<"Ndtri", 4, "ndtri">,
    I32EnumAttrCase<"Erfcx", 5, "erfcx">,
    I32EnumAttrCase<"Nextafter", 6, "nextafter">,
    I32EnumAttrCase<"FrexpMantissa", 7, "frexp_mantissa">,
    I32EnumAttrCase<"FrexpExponent", 8, "frexp_exponent">]> {
  let cppNamespace = "::mlir::stax";
}

def Stax_LayoutAttr : AttrDef<Stax_Dialect, "Layout"> {
  let mnemonic = "layout";
  let summary = "storage layout of a buffer: strides and offset";
  let description = [{
    Definition 6.2: element `i` of a buffer lives at `offset + sum_j strides[j]
    * i[j]` of its storage. `#stax.layout<[128, 1]>` is row-major 64x128;
    `#stax.layout<[1, 64], offset = 0>` stores the same shape column-major.
    A *flexible* layout (`#stax.layout<flexible>`) is one lowering may still
    choose; the interpreter and code generators treat it as row-major.
  }];
  let parameters = (ins OptionalArrayRefParameter<"int64_t">:$strides,
                        DefaultValuedParameter<"int64_t", "0">:$offset,
                        DefaultValuedParameter<"bool", "false">:$flexible);
  let hasCustomAssemblyFormat = 1;
  let extraClassDeclaration = [{
    /// The row-major (fixed) layout of `shape`.
    static LayoutAttr getRowMajor(::mlir::MLIRContext *ctx,
                                  ::llvm::ArrayRef<int64_t> shape);
    /// The strides to use for `shape`: the fixed ones, or row-major.
    ::llvm::SmallVector<int64_t> getEffectiveStrides(
        ::llvm::ArrayRef<int64_t> shape) const;
    /// True when this is the row-major layout of `shape` with offset 0.
    bool isRowMajor(::llvm::ArrayRef<int64_t> shape) const;
  }];
}

#endif // STAX_DIALECT_STAX_IR_STAXATTRS_TD
