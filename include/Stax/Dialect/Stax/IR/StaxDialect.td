//===- StaxDialect.td - the loop-level dialect --------------*- tablegen -*-===//
//
// `stax` is the loop-level IR of the spec's Section 6.3: a tensor is a
// function from index space to values.
//
//===----------------------------------------------------------------------===//

#ifndef STAX_DIALECT_STAX_IR_STAXDIALECT_TD
#define STAX_DIALECT_STAX_IR_STAXDIALECT_TD

include "mlir/IR/OpBase.td"

def Stax_Dialect : Dialect {
  let name = "stax";
  let cppNamespace = "::mlir::stax";
  let summary = "Loop-level IR: tensors as functions from indices to values";
  let description = [{
    After `--stax-lower`, a function computes its results with *nodes*:

    - `stax.pointwise`: one value per index of its iteration range (the
      result's shape), computed by its body;
    - `stax.reduction`: one value per index of its range, combining the body's
      values over a reduction range in lexicographic order (Section 6.9);
    - `stax.scatter`: a copy of a base buffer with data-dependent writes
      (overwrite or accumulate).

    Each node's result is a *computed buffer* whose storage layout
    (Definition 6.2: strides and offset) is an attribute; function arguments
    are input buffers with row-major layouts. Bodies read buffers with
    `stax.load` at a storage address: an `affine.apply` over the loop indices
    with the buffer's strides and offset folded in (`128*i0 + r0` in Listing
    6.2). A data-dependent index comes from `stax.indirect_index`, which
    carries the negative-index wrap and the bounds check as attributes that
    range analysis may drop. Scalar work uses upstream `arith` and `math`.

    Body values are signless (arith computes on nothing else). An unsigned
    element (`ui8`, PyTorch's uint8) is read as the signless integer of twice
    its width, which holds its value (`i16` in [0, 255]), so that signed
    comparisons, extensions and conversions on it are exact; a value yielded
    for it is stored modulo 2^8 (`mlir::stax::getScalarType`).

    Ops without a lowering rule stay `tp` ops between nodes (external calls
    such as `tp.mm`, and fallbacks); their operands are row-major buffers.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::affine::AffineDialect"];
  let useDefaultAttributePrinterParser = 1;
  // stax.index_bitwidth (DiscardableAttrs.h) is verified wherever it appears.
  let hasOperationAttrVerify = 1;
  let hasRegionArgAttrVerify = 1;
  let extraClassDeclaration = [{
    /// Adds the attributes (StaxAttrs.cpp, where their storage is defined).
    void registerAttributes();
  }];
}

#endif // STAX_DIALECT_STAX_IR_STAXDIALECT_TD
