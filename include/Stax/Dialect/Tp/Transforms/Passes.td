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

    Every op is marked `tp.phase = #tp.phase<fw>` or `#tp.phase<bw>`. The output is itself
    differentiable `tp`, so running the pass again gives second-order
    derivatives. A derivative that would flow through an op without rules is
    an error naming the op.

    Example: `sum(x * w)` with `w` requiring grad.

    ```mlir
    func.func @f(%x: tensor<4xf32>, %w: tensor<4xf32> {tp.requires_grad}) -> tensor<f32> {
      %0 = tp.mul %x, %w : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
      %1 = tp.sum %0 {dims = array<i64>} : tensor<4xf32> -> tensor<f32>
      return %1 : tensor<f32>
    }
    ```

    becomes, after `--stax-joint-graph`, a function of one more argument
    (the tangent of the result) that also returns the gradient of `w`:

    ```mlir
    func.func @f(%arg0: tensor<4xf32>, %arg1: tensor<4xf32> {tp.requires_grad}, %arg2: tensor<f32> {tp.tangent}) -> (tensor<f32>, tensor<4xf32>) attributes {tp.joint_outputs = 1 : i64} {
      %0 = tp.mul %arg0, %arg1 {tp.phase = #tp.phase<fw>} : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
      %1 = tp.sum %0 {dims = array<i64>, tp.phase = #tp.phase<fw>} : tensor<4xf32> -> tensor<f32>
      %2 = tp.expand %arg2 {size = array<i64: 4>, tp.phase = #tp.phase<bw>} : tensor<f32> -> tensor<4xf32>
      %3 = tp.mul %2, %arg0 {tp.phase = #tp.phase<bw>} : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
      return %1, %3 : tensor<f32>, tensor<4xf32>
    }
    ```

    `tp.joint_outputs = 1` says that the first result is the forward's
    output; the rest are gradients.

    With `gradients-only`, the forward's results are dropped and the
    function returns the gradients alone (no `tp.joint_outputs`): the
    vector-Jacobian product as a function of the primals and the tangents.
    Differentiating that function again (with `wrt` naming the primals and
    the tangents) gives the double backward of a compiled region.
  }];
  let options = [
    Option<"function", "function", "std::string", /*default=*/"\"\"",
           "Only differentiate this function (default: empty, every function "
           "with a differentiated argument)">,
    ListOption<"wrt", "wrt", "unsigned",
               "Differentiate with respect to these argument numbers "
               "instead of the tp.requires_grad ones (default: empty)">,
    Option<"gradientsOnly", "gradients-only", "bool", /*default=*/"false",
           "Return only the gradients: the function becomes the "
           "vector-Jacobian product of its arguments and tangents, and the "
           "forward ops only its results used are erased (what a second "
           "run differentiates for a double backward) (default: false)">,
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

    Example:

    ```mlir
    func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
      %0 = tp.sin %x : tensor<4xf32> -> tensor<4xf32>
      return %0 : tensor<4xf32>
    }
    ```

    becomes, after `--stax-jvp`, a function that also takes the tangent of
    `x` and returns `cos(x) * dx`:

    ```mlir
    func.func @f(%arg0: tensor<4xf32>, %arg1: tensor<4xf32> {tp.tangent}) -> (tensor<4xf32>, tensor<4xf32>) {
      %0 = tp.sin %arg0 : tensor<4xf32> -> tensor<4xf32>
      %1 = tp.cos %arg0 : tensor<4xf32> -> tensor<4xf32>
      %2 = tp.mul %arg1, %1 : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
      return %0, %2 : tensor<4xf32>, tensor<4xf32>
    }
    ```
  }];
  let options = [
    Option<"function", "function", "std::string", /*default=*/"\"\"",
           "Only transform this function (default: empty, every function)">,
    ListOption<"wrt", "wrt", "unsigned",
               "Tangent inputs for these argument numbers only (default: empty, every "
               "floating argument)">,
  ];
  let dependentDialects = ["::mlir::tp::TpDialect"];
}

def StaxDecompose : Pass<"stax-decompose"> {
  let summary = "Expand composite tp ops into base ops (the decomposition table)";
  let description = [{
    Section 4.8: operators that are not part of the backend base are expanded
    through one declarative table (lib/Dialect/Tp/Transforms/Decompose.cpp) that maps
    each composite op to a function building base `tp` ops. Ops produced by
    a decomposition are decomposed in turn (`silu_backward` builds a
    `tp.sigmoid`, which is decomposed unless kept).

    Every decomposition performs exactly the primitive sequence of the
    reference interpreter's kernel for the op, in the same association order
    and in the same computation type (f16/bf16 compute in f32 and round once
    at the end, integer inputs of floating ops are converted first), so a
    function interprets bitwise identically before and after the pass.

    `keep` lists ops that stay whole (a backend with a fused kernel keeps
    `tp._softmax`); `only` restricts the pass to the listed ops. Names may be
    given with or without the `tp.` prefix; a name without a decomposition
    is an error.

    Example: `silu(x) = x / (1 + exp(-x))`, in the interpreter's order.

    ```mlir
    func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
      %0 = tp.silu %x : tensor<4xf32> -> tensor<4xf32>
      return %0 : tensor<4xf32>
    }
    ```

    becomes, after `--stax-decompose`:

    ```mlir
    func.func @f(%arg0: tensor<4xf32>) -> tensor<4xf32> {
      %0 = tp.neg %arg0 : tensor<4xf32> -> tensor<4xf32>
      %1 = tp.exp %0 : tensor<4xf32> -> tensor<4xf32>
      %2 = tp.add.Scalar %1 {other = 1.000000e+00 : f64} : tensor<4xf32> -> tensor<4xf32>
      %3 = tp.div %arg0, %2 : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
      return %3 : tensor<4xf32>
    }
    ```
  }];
  let options = [
    ListOption<"keep", "keep", "std::string",
               "Ops that stay whole (e.g. keep=tp._softmax,tp.native_layer_norm) (default: empty)">,
    ListOption<"only", "only", "std::string",
               "Decompose only these ops (default: empty, every op of the table)">,
  ];
  let dependentDialects = ["::mlir::tp::TpDialect"];
}

def StaxFunctionalize : Pass<"stax-functionalize", "::mlir::ModuleOp"> {
  let summary = "Rewrite in-place tp ops into value semantics (copy-back for arguments)";
  let description = [{
    Section 4.9. Each in-place op (`tp.add_`, `tp.copy_`, `tp.index_put_`,
    ...) becomes its functional twin (`tp.add`, a broadcast/cast of the
    source, `tp.index_put`, `tp.full` for `fill_`/`zero_`, ...), cast back to
    self's dtype when the computation promoted, and every later use (in
    program order) of the mutated tensor, whether through `self` or through
    the in-place op's result, is replaced by the new value.

    Copy-back convention: when a function argument is mutated, the function
    returns its final value as an additional result, after the original
    ones (one per mutated argument, in argument order). The argument gets
    the unit attribute `tp.mutated` and the new result the attribute
    `tp.copy_back = <argument index> : i64`; a caller (the runtime) must
    write that result back into the argument's buffer.

    Run it first, before any value-semantics transformation: CSE (which
    merges equal `tp.full`s) and the identity folds (`tp.clone %x` is `%x`)
    assume SSA values are never mutated.

    Not supported yet, with an error naming the ops: a mutation through the
    result of a view (`tp.view`, `tp.slice`, `tp.select`, `tp.transpose`,
    `tp.t`, `tp.permute`, `tp.expand`, `tp.unsqueeze`, `tp.squeeze`,
    `tp.as_strided`, `tp.alias`, `tp.detach`, `tp._reshape_alias`, ...)
    unless the viewed tensor is a temporary nobody else reads; a mutation of
    a tensor one of whose views is read afterwards; mutated arguments of a
    function that is called; in-place ops in nested regions or
    multi-block functions.

    Example: `x += y` on an argument, then a read of `x`.

    ```mlir
    func.func @f(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
      %0 = tp.add_ %x, %y : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
      %1 = tp.mul %x, %y : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
      return %1 : tensor<4xf32>
    }
    ```

    becomes, after `--stax-functionalize` (the read of `x` sees the sum;
    the new value of `x` is returned for the caller to copy back):

    ```mlir
    func.func @f(%arg0: tensor<4xf32> {tp.mutated}, %arg1: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32> {tp.copy_back = 0 : i64}) {
      %0 = tp.add %arg0, %arg1 : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
      %1 = tp.mul %0, %arg1 : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
      return %1, %0 : tensor<4xf32>, tensor<4xf32>
    }
    ```
  }];
  let dependentDialects = ["::mlir::tp::TpDialect"];
}

def StaxMinCut : Pass<"stax-mincut", "::mlir::ModuleOp"> {
  let summary = "Min-cut rematerialization: split joint graphs into forward and backward";
  let description = [{
    Splits every joint function (the output of --stax-joint-graph) into
    `<name>_forward` (primals -> outputs, saved values) and `<name>_backward`
    (saved values, tangents -> gradients), choosing what the forward saves by
    the minimum cut of Section 5.4:

    - forward values are split into v_in -> v_out with capacity
      c(v) = trunc(beta(v) * bytes(v) * 1.1^d(v)), d clamped to [1, 100];
      data dependences are infinite edges; s -> v_in for v in U (not cheap,
      must be materialized in the backward anyway, a reduction with
      4 * bytes(out) < bytes(in), or compared for equality in the backward
      (amax's mask) with a transcendental function or a sum in its cone,
      whose recomputation may round differently; random ops), v_out -> t
      for v read by the backward;
    - views are free to recompute and never saved (the cut names the value
      they view); primal inputs are available to the backward at no cost;
    - the saved set is the cut's split edges, ordered by forward position.

    Saved primal inputs come first in the backward's arguments (in argument
    order), then the saved activations, then the tangents.

    Example: the joint graph of `gelu(x @ w).sum()` (Example 5.1, smaller).

    ```mlir
    func.func @f(%arg0: tensor<8x16xf32>, %arg1: tensor<16x16xf32> {tp.requires_grad}, %arg2: tensor<f32> {tp.tangent}) -> (tensor<f32>, tensor<16x16xf32>) attributes {tp.joint_outputs = 1 : i64} {
      %0 = tp.mm %arg0, %arg1 {tp.phase = #tp.phase<fw>} : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
      %1 = tp.gelu %0 {tp.phase = #tp.phase<fw>} : tensor<8x16xf32> -> tensor<8x16xf32>
      %2 = tp.sum %1 {dims = array<i64>, tp.phase = #tp.phase<fw>} : tensor<8x16xf32> -> tensor<f32>
      %3 = tp.expand %arg2 {size = array<i64: 8, 16>, tp.phase = #tp.phase<bw>} : tensor<f32> -> tensor<8x16xf32>
      %4 = tp.gelu_backward %3, %0 {tp.phase = #tp.phase<bw>} : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
      %5 = tp.t %arg0 {tp.phase = #tp.phase<bw>} : tensor<8x16xf32> -> tensor<16x8xf32>
      %6 = tp.mm %5, %4 {tp.phase = #tp.phase<bw>} : (tensor<16x8xf32>, tensor<8x16xf32>) -> tensor<16x16xf32>
      return %2, %6 : tensor<f32>, tensor<16x16xf32>
    }
    ```

    becomes, after `--stax-mincut`, a forward that also returns the matmul
    (the only saved value) and a backward that reads it and the primal `x`:

    ```mlir
    func.func @f_forward(%arg0: tensor<8x16xf32>, %arg1: tensor<16x16xf32> {tp.requires_grad}) -> (tensor<f32>, tensor<8x16xf32>) {
      %0 = tp.mm %arg0, %arg1 {tp.phase = #tp.phase<fw>} : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
      %1 = tp.gelu %0 {tp.phase = #tp.phase<fw>} : tensor<8x16xf32> -> tensor<8x16xf32>
      %2 = tp.sum %1 {dims = array<i64>, tp.phase = #tp.phase<fw>} : tensor<8x16xf32> -> tensor<f32>
      return %2, %0 : tensor<f32>, tensor<8x16xf32>
    }
    func.func @f_backward(%arg0: tensor<8x16xf32>, %arg1: tensor<8x16xf32>, %arg2: tensor<f32> {tp.tangent}) -> tensor<16x16xf32> {
      %0 = tp.expand %arg2 {size = array<i64: 8, 16>, tp.phase = #tp.phase<bw>} : tensor<f32> -> tensor<8x16xf32>
      %1 = tp.gelu_backward %0, %arg1 {tp.phase = #tp.phase<bw>} : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
      %2 = tp.t %arg0 {tp.phase = #tp.phase<bw>} : tensor<8x16xf32> -> tensor<16x8xf32>
      %3 = tp.mm %2, %1 {tp.phase = #tp.phase<bw>} : (tensor<16x8xf32>, tensor<8x16xf32>) -> tensor<16x16xf32>
      return %3 : tensor<16x16xf32>
    }
    ```
  }];
  let options = [
    Option<"algorithm", "algorithm", "::mlir::stax::MaxFlowAlgorithm",
           /*default=*/"::mlir::stax::MaxFlowAlgorithm::Dinic",
           "Max-flow algorithm: dinic (default: the cut, read off the "
           "residual graph, is the same for every maximum flow, and Dinic "
           "stays near-linear on deep graphs where Edmonds-Karp is "
           "quadratic) or edmonds-karp (the spec's) (default: dinic)", [{::llvm::cl::values(
             clEnumValN(::mlir::stax::MaxFlowAlgorithm::EdmondsKarp,
                        "edmonds-karp", "Edmonds-Karp (the spec's)"),
             clEnumValN(::mlir::stax::MaxFlowAlgorithm::Dinic, "dinic",
                        "Dinic's blocking flows"))}]>,
    Option<"report", "report", "std::string", /*default=*/"\"\"",
           "Write a JSON report of the partition to this file (default: empty)">,
    Option<"dot", "dot", "std::string", /*default=*/"\"\"",
           "Write the joint graph with the cut as Graphviz DOT to this file (default: empty)">,
    Option<"forceSaveNearFar", "force-save-near-far", "bool", /*default=*/"false",
           "Save a value read by the backward that also has a forward user "
           "more than near-far-distance steps later (off by default: it "
           "trades memory for recomputation, and functorch has no such rule) (default: false)">,
    Option<"nearFarDistance", "near-far-distance", "unsigned", /*default=*/"8",
           "Forward steps that count as far for force-save-near-far (default: 8)">,
    Option<"forceSaveChainEnd", "force-save-chain-end", "bool", /*default=*/"true",
           "Save the end of a chain of chain-length or more fusible single-user "
           "forward ops that the backward reads (default: true)">,
    Option<"chainLength", "chain-length", "unsigned", /*default=*/"4",
           "Length of a fusible chain for force-save-chain-end (default: 4)">,
    Option<"memoryBudget", "memory-budget", "std::string", /*default=*/"\"\"",
           "Saved activation bytes allowed: a byte count, or a fraction in "
           "[0, 1] between saving no activation and the min-cut's saved set. "
           "Recomputes more (cheapest FLOPs per byte first) until it fits (default: empty)">,
  ];
  let dependentDialects = ["::mlir::tp::TpDialect", "::mlir::func::FuncDialect"];
}

def StaxCheckpoint : Pass<"stax-checkpoint", "::mlir::ModuleOp"> {
  let summary = "Chain checkpointing: split joint graphs by a uniform or Revolve schedule";
  let description = [{
    Splits every joint function (the output of --stax-joint-graph) into
    `<name>_forward` and `<name>_backward` by a checkpoint schedule over its
    chain of layers (Section 5.8):

    - the chain z_0..z_l is the forward values that lie on every forward
      path from the inputs to the outputs (the dominators of the outputs in
      the dataflow of the forward values; primal inputs, views of them and
      creation ops are free and not part of it). Step k (segment k) is the
      forward ops computed from z_{k-1}; its backward ops are the backward
      ops that read segment k's values;
    - `schedule=uniform` (Theorem 5.3, `slots` = segments c, 0 = ceil(sqrt
      l)) or `schedule=revolve` (Theorem 5.4, binomial checkpointing with
      `slots` = s, 0 = the least s with C(2s, s) >= l);
    - the forward computes every value once and returns the states held at
      the schedule's first backward step (the checkpoints); the backward
      executes the rest of the schedule: an advance clones the forward ops of
      its segments from the current state (recomputation), a backward step
      clones the segment's forward ops again (its internals) and then its
      backward ops. Values are emitted in schedule order, so a state lives
      as long as it holds a slot.

    The backward's arguments are the primal inputs it reads (in argument
    order), the checkpoints, then the tangents, as for --stax-mincut.
    Functions whose chain is shorter than `min-chain-length` are left
    unchanged with a remark.

    Example: the joint graph of four `sin` in a row (a chain of 4 steps).

    ```mlir
    func.func @f(%arg0: tensor<4xf32> {tp.requires_grad}, %arg1: tensor<4xf32> {tp.tangent}) -> (tensor<4xf32>, tensor<4xf32>) attributes {tp.joint_outputs = 1 : i64} {
      %0 = tp.sin %arg0 {tp.phase = #tp.phase<fw>} : tensor<4xf32> -> tensor<4xf32>
      %1 = tp.sin %0 {tp.phase = #tp.phase<fw>} : tensor<4xf32> -> tensor<4xf32>
      %2 = tp.sin %1 {tp.phase = #tp.phase<fw>} : tensor<4xf32> -> tensor<4xf32>
      %3 = tp.sin %2 {tp.phase = #tp.phase<fw>} : tensor<4xf32> -> tensor<4xf32>
      %4 = tp.cos %2 {tp.phase = #tp.phase<bw>} : tensor<4xf32> -> tensor<4xf32>
      %5 = tp.mul %arg1, %4 {tp.phase = #tp.phase<bw>} : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
      %6 = tp.cos %1 {tp.phase = #tp.phase<bw>} : tensor<4xf32> -> tensor<4xf32>
      %7 = tp.mul %5, %6 {tp.phase = #tp.phase<bw>} : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
      %8 = tp.cos %0 {tp.phase = #tp.phase<bw>} : tensor<4xf32> -> tensor<4xf32>
      %9 = tp.mul %7, %8 {tp.phase = #tp.phase<bw>} : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
      %10 = tp.cos %arg0 {tp.phase = #tp.phase<bw>} : tensor<4xf32> -> tensor<4xf32>
      %11 = tp.mul %9, %10 {tp.phase = #tp.phase<bw>} : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
      return %3, %11 : tensor<4xf32>, tensor<4xf32>
    }
    ```

    becomes, after `--stax-checkpoint=slots=1`, a forward that keeps two
    of the three intermediate states and a backward that recomputes the
    third (`tp.sin %arg1`, phase `fw`) when it gets there:

    ```mlir
    func.func @f_forward(%arg0: tensor<4xf32> {tp.requires_grad}) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
      %0 = tp.sin %arg0 {tp.phase = #tp.phase<fw>} : tensor<4xf32> -> tensor<4xf32>
      %1 = tp.sin %0 {tp.phase = #tp.phase<fw>} : tensor<4xf32> -> tensor<4xf32>
      %2 = tp.sin %1 {tp.phase = #tp.phase<fw>} : tensor<4xf32> -> tensor<4xf32>
      %3 = tp.sin %2 {tp.phase = #tp.phase<fw>} : tensor<4xf32> -> tensor<4xf32>
      return %3, %0, %2 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
    }
    func.func @f_backward(%arg0: tensor<4xf32>, %arg1: tensor<4xf32>, %arg2: tensor<4xf32>, %arg3: tensor<4xf32> {tp.tangent}) -> tensor<4xf32> {
      %0 = tp.cos %arg2 {tp.phase = #tp.phase<bw>} : tensor<4xf32> -> tensor<4xf32>
      %1 = tp.mul %arg3, %0 {tp.phase = #tp.phase<bw>} : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
      %2 = tp.sin %arg1 {tp.phase = #tp.phase<fw>} : tensor<4xf32> -> tensor<4xf32>
      %3 = tp.cos %2 {tp.phase = #tp.phase<bw>} : tensor<4xf32> -> tensor<4xf32>
      %4 = tp.mul %1, %3 {tp.phase = #tp.phase<bw>} : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
      %5 = tp.cos %arg1 {tp.phase = #tp.phase<bw>} : tensor<4xf32> -> tensor<4xf32>
      %6 = tp.mul %4, %5 {tp.phase = #tp.phase<bw>} : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
      %7 = tp.cos %arg0 {tp.phase = #tp.phase<bw>} : tensor<4xf32> -> tensor<4xf32>
      %8 = tp.mul %6, %7 {tp.phase = #tp.phase<bw>} : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
      return %8 : tensor<4xf32>
    }
    ```
  }];
  let options = [
    Option<"scheduleKind", "schedule", "::mlir::stax::CheckpointScheduleKind",
           /*default=*/"::mlir::stax::CheckpointScheduleKind::Revolve",
           "Checkpoint schedule: uniform (Theorem 5.3) or revolve "
           "(Theorem 5.4) (default: revolve)", [{::llvm::cl::values(
             clEnumValN(::mlir::stax::CheckpointScheduleKind::Uniform,
                        "uniform", "sqrt(l) segments (Theorem 5.3)"),
             clEnumValN(::mlir::stax::CheckpointScheduleKind::Revolve,
                        "revolve", "binomial, s slots (Theorem 5.4)"))}]>,
    Option<"slots", "slots", "unsigned", /*default=*/"0",
           "revolve: checkpoint slots s (z_0 included); uniform: segments c. "
           "0 chooses s with C(2s, s) >= l, or c = ceil(sqrt(l)) (default: 0)">,
    Option<"minChainLength", "min-chain-length", "unsigned", /*default=*/"2",
           "Leave functions whose chain has fewer steps unchanged (remark) (default: 2)">,
    Option<"report", "report", "std::string", /*default=*/"\"\"",
           "Write a JSON report (chain, checkpoints, schedule, bytes) to this file (default: empty)">,
  ];
  let dependentDialects = ["::mlir::tp::TpDialect", "::mlir::func::FuncDialect"];
}

#endif // STAX_TRANSFORMS_PASSES_TD
