//===- Passes.td - conversion passes of Stax -----------------*- tablegen -*-===//
#ifndef STAX_CONVERSION_PASSES_TD
#define STAX_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def StaxLower : Pass<"stax-lower", "::mlir::func::FuncOp"> {
  let summary = "Lower tp functions to stax nodes (fusion by composition)";
  let description = [{
    The graph interpreter of the spec's Section 6.1. Each `tp` op of a
    function, in order, calls its lowering rule, which returns a *loader*
    (a function from indices to a scalar, Definition 6.1) rather than a
    buffer: pointwise ops compose their loaders (Property 6.1), views
    transform indices (Proposition 6.2), reductions build `stax.reduction`
    nodes. A value becomes a buffer (a `stax.pointwise` node) only when it is
    *materialized*: function results, operands of ops that stay `tp`
    (external calls such as `tp.mm`, and fallbacks), and values with several
    users that the thresholds of Section 6.6 (NOTES.md) send to memory for
    the chosen `target`. An intermediate buffer's layout follows the strides
    with which its body reads (Section 6.4); results are row-major.

    Run `--stax-decompose` first so that composite ops lower through their
    bitwise-equal decompositions (`--stax-lowering-pipeline` does); a
    composite op that is still there is an op without a rule. Ops without a
    rule stay as they are, with a remark naming them; `strict` makes that an
    error. The input must be functional `tp`: an in-place op is an error
    (run `--stax-functionalize` first). Each
    materialized value's remark says why it went to memory when
    `remarks=true`. Function names and signatures do not change.
  }];
  let options = [
    Option<"target", "target", "::mlir::stax::Target",
           /*default=*/"::mlir::stax::Target::CPU",
           "Materialization thresholds to use: cpu or cuda",
           "::mlir::stax::targetOptionValues()">,
    Option<"strict", "strict", "bool", /*default=*/"false",
           "Fail on ops without a lowering rule instead of keeping them">,
    Option<"remarks", "remarks", "bool", /*default=*/"false",
           "Emit a remark for every materialization decision">,
    Option<"welford", "welford", "bool", /*default=*/"false",
           "Lower tp.var with a one-pass Welford reduction (reorders the "
           "arithmetic: class 2, within Welford's error bound, not bitwise); "
           "keep tp.var whole in --stax-decompose for it to apply">,
  ];
  let dependentDialects = ["::mlir::stax::StaxDialect", "::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::affine::AffineDialect"];
}

#endif // STAX_CONVERSION_PASSES_TD
