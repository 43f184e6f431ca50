//===- Passes.td - tp-level transformations ------------------*- tablegen -*-===//
#ifndef STAX_TRANSFORMS_PASSES_TD
#define STAX_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def StaxJointGraph : Pass<"stax-joint-graph", "::mlir::ModuleOp"> {
  let summary = "Reverse-mode autodiff: build the joint forward+backward graph";
  let description = [{
    Algorithm 5.1 as a transformation. For every function with arguments
    marked `tp.requires_grad` (or those listed in `wrt`), adds one tangent
    argument (`tp.tangent`) per differentiable result and returns, after the
    original results, one gradient per such argument. Adjoints accumulate in
    reverse topological order; only values on a path from a differentiated
    argument to a differentiable result get adjoints. Each op's
    vector-Jacobian product comes from its `DifferentiableOpInterface`.

    Every op is marked `tp.phase = "fw"` or `"bw"`. The output is itself
    differentiable `tp`, so running the pass again gives second-order
    derivatives. A derivative that would flow through an op without rules is
    an error naming the op.
  }];
  let options = [
    Option<"function", "function", "std::string", /*default=*/"\"\"",
           "Only differentiate this function (default: every function with "
           "a differentiated argument)">,
    ListOption<"wrt", "wrt", "unsigned",
               "Differentiate with respect to these argument numbers "
               "instead of the tp.requires_grad ones">,
  ];
  let dependentDialects = ["::mlir::tp::TpDialect"];
}

def StaxJVP : Pass<"stax-jvp", "::mlir::ModuleOp"> {
  let summary = "Forward-mode autodiff: Jacobian-vector products";
  let description = [{
    For every function (or `function`), adds one tangent argument per
    floating argument (or per argument in `wrt`) and returns, after the
    original results, one tangent per floating result (dual numbers, Section
    5.7). Each op's rule comes from its `DifferentiableOpInterface`. Applied
    to a joint graph it gives Hessian-vector products (forward over reverse).
  }];
  let options = [
    Option<"function", "function", "std::string", /*default=*/"\"\"",
           "Only transform this function">,
    ListOption<"wrt", "wrt", "unsigned",
               "Tangent inputs for these argument numbers only">,
  ];
  let dependentDialects = ["::mlir::tp::TpDialect"];
}

#endif // STAX_TRANSFORMS_PASSES_TD
