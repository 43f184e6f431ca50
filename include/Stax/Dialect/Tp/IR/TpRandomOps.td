//===- TpRandomOps.td - counter-based random ops -------------*- tablegen -*-===//
//
// Random ops take an explicit counter-based RNG state, so that recomputing
// them (in the backward, after rematerialization) draws the same numbers
// (step 5 of Algorithm 5.1). Included by TpOps.td.
//
// The random stream (shared by every op below; the interpreter's reference
// implementation is include/Stax/Interpreter/Philox.h):
//
//  * The state is a `tensor<2xi64>` value `[seed, offset]`, normally a
//    function argument marked `{tp.rng_state}`. Both are read as uint64.
//  * Each op has an `i64` attribute `counter` >= 0: the number of Philox
//    blocks drawn by the random ops before it in the function (the importer
//    numbers them in program order), so distinct ops draw distinct numbers
//    and a recomputed op (same state, same counter) draws the same ones.
//  * Word j (j = 0, 1, ...) of an op's stream is output word j % 4 of
//    Philox4x32-10 (Salmon et al. 2011; Random123's philox4x32, 10 rounds)
//    with key  = (lo32(seed), hi32(seed)) and
//    counter   = (lo32(b), hi32(b), 0, 0), b = offset + counter + j / 4
//    (mod 2^64). Double word j is word 2j | word 2j+1 << 32 (uint64).
//  * An op drawing W words uses ceil(W / 4) blocks (`getNumPhiloxBlocks()`);
//    the next op's counter starts there. A caller that wants fresh numbers
//    for the next step adds the function's total to `offset`.
//
// Since the state is an operand, these ops are deterministic functions of
// their operands and attributes and are therefore `Pure`: CSE may merge two
// ops only when they have the same state, counter and type, i.e. when they
// draw the same numbers.
//
//===----------------------------------------------------------------------===//

#ifndef STAX_DIALECT_TP_IR_TPRANDOMOPS_TD
#define STAX_DIALECT_TP_IR_TPRANDOMOPS_TD

// `[seed, offset]` of the counter-based random stream.
def Tp_RngStateType : Type<
    And<[IsTensorTypePred, HasAnyRankOfPred<[1]>, HasStaticShapePred,
         CPred<"::llvm::cast<::mlir::ShapedType>($_self).getDimSize(0) == 2">,
         SubstLeaves<"$_self",
                     "::llvm::cast<::mlir::ShapedType>($_self).getElementType()",
                     I64.predicate>]>,
    "RNG state tensor<2xi64> ([seed, offset])", "::mlir::RankedTensorType">;

// Position of an op in its function's random stream, in Philox blocks.
defvar Tp_RngCounterAttr = ConfinedAttr<I64Attr, [IntNonNegative]>;

// Shared declarations of the random ops.
defvar Tp_RandomOpDecls = [{
  /// Philox4x32 blocks (4 words each) this op draws; the next op in the
  /// function's random stream starts at `counter + getNumPhiloxBlocks()`.
  uint64_t getNumPhiloxBlocks();
}];

def Tp_RandOp : Tp_CreationOp<"rand", [Tp_Random]> {
  let summary = "uniform random numbers in [0, 1) (aten.rand, aten.rand_like)";
  let description = [{
    ```mlir
    func.func @example(%state: tensor<2xi64> {tp.rng_state}) -> tensor<4x3xf32> {
      %r = tp.rand %state {counter = 0 : i64} : tensor<2xi64> -> tensor<4x3xf32>
      return %r : tensor<4x3xf32>
    }
    ```

    Element i (row-major) of a result with element type f32, f16 or bf16
    (m = 24, 11 or 8 mantissa bits including the implicit one) uses word i of
    the op's stream (see the file header of TpRandomOps.td):

        u = (word_i >> (32 - m)) * 2^-m

    and for f64 double word i:

        u = (dword_i >> 11) * 2^-53

    so u is exactly representable, uniform on the grid k * 2^-m and < 1.
    Blocks drawn: ceil(n / 4) (f64: ceil(n / 2)) for n elements. Values do
    not depend on the interpreter's f64 promotion.
  }];
  let arguments = (ins Tp_RngStateType:$state, Tp_RngCounterAttr:$counter);
  let results = (outs Tp_Tensor:$result);
  let assemblyFormat = "$state attr-dict `:` type($state) `->` type($result)";
  let hasVerifier = 1;
  let extraClassDeclaration = Tp_RandomOpDecls;
}

def Tp_RandnOp : Tp_CreationOp<"randn", [Tp_Random]> {
  let summary = "standard normal random numbers (aten.randn, aten.randn_like)";
  let description = [{
    ```mlir
    func.func @example(%state: tensor<2xi64> {tp.rng_state}) -> tensor<5xf32> {
      %r = tp.randn %state {counter = 4 : i64} : tensor<2xi64> -> tensor<5xf32>
      return %r : tensor<5xf32>
    }
    ```

    Box-Muller on pairs: elements 2k and 2k+1 (row-major) share two uniforms.
    For f32, f16 and bf16 results, with a = word 2k and b = word 2k+1 of the
    op's stream:

        u1 = ((a >> 8) + 1) * 2^-24      in (0, 1]
        u2 = (b >> 8) * 2^-24            in [0, 1)

    and for f64, with a = dword 2k and b = dword 2k+1:

        u1 = ((a >> 11) + 1) * 2^-53,    u2 = (b >> 11) * 2^-53.

    Then, in f64, r = sqrt(-2 * log(u1)), t = 2*pi * u2 (2*pi rounded to
    f64), element 2k = r * cos(t), element 2k+1 = r * sin(t), each rounded
    once to the element type (an odd last element uses only the cosine).
    The uniforms are bit-exact; the normals are as exact as the libm used.
    Blocks drawn: ceil(n / 4) (f64: ceil(n / 2)).
  }];
  let arguments = (ins Tp_RngStateType:$state, Tp_RngCounterAttr:$counter);
  let results = (outs Tp_Tensor:$result);
  let assemblyFormat = "$state attr-dict `:` type($state) `->` type($result)";
  let hasVerifier = 1;
  let extraClassDeclaration = Tp_RandomOpDecls;
}

def Tp_BernoulliOp : Tp_CustomOp<"bernoulli", [Tp_Random]> {
  let summary = "0/1 draws with probability `p`, or `self` elementwise (aten.bernoulli)";
  let description = [{
    ```mlir
    func.func @example(%x: tensor<8xf32>, %state: tensor<2xi64> {tp.rng_state}) -> tensor<8xf32> {
      %m = tp.bernoulli %x, %state {counter = 0 : i64, p = 9.0e-01 : f64}
          : (tensor<8xf32>, tensor<2xi64>) -> tensor<8xf32>
      return %m : tensor<8xf32>
    }
    ```

    The result has the type of `self` (a floating tensor, like aten's
    `bernoulli.p` / `bernoulli_.float`) and holds 1 where the draw succeeds
    and 0 elsewhere. With the `p` attribute every element succeeds with
    probability p and `self` gives only the type; without it element i
    succeeds with probability self[i] (aten.bernoulli.default).

    Element i uses word i of the op's stream, whatever the element type:

        u_i = (word_i >> 8) * 2^-24,      result_i = (u_i < p_i) ? 1 : 0

    (the comparison is exact, p_i as f64), i.e. `tp.bernoulli` is
    `tp.rand : f32` with the same state and counter compared with p. Blocks
    drawn: ceil(n / 4). Not differentiable (zero derivative).
  }];
  let arguments = (ins Tp_Tensor:$self, Tp_RngStateType:$state,
                       Tp_RngCounterAttr:$counter, OptionalAttr<F64Attr>:$p);
  let results = (outs Tp_Tensor:$result);
  let extraClassDeclaration = Tp_RandomOpDecls;
}

def Tp_DropoutSeededOp : Tp_CustomOp<"dropout_seeded", [Tp_Random]> {
  let summary = "dropout with an explicit RNG state: (output, keep mask)";
  let description = [{
    ```mlir
    func.func @example(%x: tensor<8xf32>, %state: tensor<2xi64> {tp.rng_state}) -> tensor<8xf32> {
      %out, %mask = tp.dropout_seeded %x, %state {counter = 0 : i64, p = 5.0e-01 : f64}
          : (tensor<8xf32>, tensor<2xi64>) -> (tensor<8xf32>, tensor<8xi1>)
      return %out : tensor<8xf32>
    }
    ```

    `tp.native_dropout` (training) with a redrawable mask: element i is kept
    with probability 1 - p,

        u_i = (word_i >> 8) * 2^-24,      mask_i = u_i < (1 - p)

    (1 - p in f64), so the mask equals `tp.bernoulli {p = 1 - p}` with the
    same state and counter (the decomposition that eager dropout traces to).
    output_i = (input_i * mask_i) * scale in the input's type, scale =
    1 / (1 - p) rounded to that type (0 when p = 1), as aten.native_dropout.
    Blocks drawn: ceil(n / 4).

    Derivative: like native_dropout, linear in the input with the mask fixed:
    d input = native_dropout_backward(d output, mask, 1 / (1 - p)).
  }];
  let arguments = (ins Tp_Tensor:$input, Tp_RngStateType:$state,
                       Tp_RngCounterAttr:$counter, F64Attr:$p);
  let results = (outs Tp_Tensor:$output, Tp_BoolTensor:$mask);
  let extraClassDeclaration = Tp_RandomOpDecls;
}

#endif // STAX_DIALECT_TP_IR_TPRANDOMOPS_TD
