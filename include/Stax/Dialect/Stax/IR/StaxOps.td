//===- StaxOps.td - stax dialect operations -----------------*- tablegen -*-===//
//
// Nodes (pointwise, reduction, scatter) whose bodies compute one scalar per
// index, and the body ops that read buffers (load, indirect_index, yield).
//
//===----------------------------------------------------------------------===//

#ifndef STAX_DIALECT_STAX_IR_STAXOPS_TD
#define STAX_DIALECT_STAX_IR_STAXOPS_TD

include "Stax/Dialect/Stax/IR/StaxDialect.td"
include "Stax/Dialect/Stax/IR/StaxAttrs.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/InferIntRangeInterface.td"
include "mlir/IR/OpAsmInterface.td"

class Stax_Op<string mnemonic, list<Trait> traits = []>
    : Op<Stax_Dialect, mnemonic, traits>;

def Stax_Scalar : AnyTypeOf<[AnyFloat, AnySignlessInteger, Index]>;

//===----------------------------------------------------------------------===//
// Nodes
//===----------------------------------------------------------------------===//

// Bodies read enclosing buffers directly (the regions are not isolated), so
// that a load names the buffer it reads, as `ops.load('primals_1', ...)` does
// in Listing 6.2.
class Stax_NodeOp<string mnemonic, list<Trait> traits = []>
    : Stax_Op<mnemonic, !listconcat([RecursiveMemoryEffects,
        SingleBlockImplicitTerminator<"YieldOp">,
        DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmBlockArgumentNames"]>,
        // Gives the loop indices (block arguments) their ranges [0, s-1]
        // (Definition 6.4) for IntegerRangeAnalysis, whatever is known of
        // the operands (buffers have no integer range).
        DeclareOpInterfaceMethods<InferIntRangeInterface,
                                  ["inferResultRangesFromOptional"]>],
        traits)> {
  let hasVerifier = 1;
  let hasCustomAssemblyFormat = 1;
}

def Stax_PointwiseOp : Stax_NodeOp<"pointwise"> {
  let summary = "a computed buffer with one body evaluation per index";
  let description = [{
    Definition 6.1's pointwise node: the body receives one `index` per loop
    of the iteration range and yields the element, of the scalar type of the
    result's element type (the type itself; `i16` for `ui8`), which is
    stored at `offset + sum_k strides[k] * i_k` (`layout`).
    The iteration range is the result's shape unless `ranges` says otherwise:
    loop normalization (Proposition 6.3) merges, drops or reorders loops
    without changing any address, so the result keeps its type and the
    layout's strides follow the loops. Other nodes read the result's
    storage by address; anything else (a return, a call, an external op)
    reads the tensor whose row-major element k is the body's value at the
    k-th index of the iteration range, so normalization keeps the order of
    such a node's loops.

    Syntax: `stax.pointwise`, the optional `ranges [...]`, `layout
    <strides>` (with `offset = o` when not 0), `:` the result type, the
    optional `attributes {...}`, then the body. Example: `exp` of a
    transposed 2x3 input (`tp.exp (tp.t %x)` after `--stax-lower`); element
    (i0, i1) reads element (i1, i0), at address `i0 + 3 * i1` of the
    input's row-major storage:

    ```mlir
    func.func @example(%arg0: tensor<2x3xf32>) -> tensor<3x2xf32> {
      %0 = stax.pointwise layout <[2, 1]> : tensor<3x2xf32> {
      ^bb0(%i0: index, %i1: index):
        %1 = affine.apply affine_map<(d0, d1) -> (d0 + d1 * 3)>(%i0, %i1)
        %2 = stax.load %arg0[%1] : tensor<2x3xf32>
        %3 = math.exp %2 : f32
        stax.yield %3 : f32
      }
      return %0 : tensor<3x2xf32>
    }
    ```
  }];
  let arguments = (ins Stax_LayoutAttr:$layout,
                       OptionalAttr<DenseI64ArrayAttr>:$ranges);
  let results = (outs AnyRankedTensor:$result);
  let regions = (region SizedRegion<1>:$body);
  let extraClassDeclaration = [{
    /// The loops: `ranges` when set, else the result's shape.
    ::llvm::ArrayRef<int64_t> getIterationRanges() {
      if (auto r = getRangesAttr())
        return r.asArrayRef();
      return getResult().getType().getShape();
    }
    /// The buffer this node only copies, with as many elements of its
    /// element type, when the node's element at row-major position k (its
    /// last two dims swapped first when `transposed`) is the buffer's
    /// storage element k; null otherwise. A reshape of a row-major buffer
    /// copies it as is, a transpose of one is what BLAS reads with a flag.
    ::mlir::Value getRowMajorSource(bool transposed);
  }];
}

def Stax_ReductionOp : Stax_NodeOp<"reduction"> {
  let summary = "a computed buffer combining body values over a range";
  let description = [{
    Definition 6.1's reduction node: for every index `i` of the result's
    shape, `y(i) = e0 ⊕ v(i, r1) ⊕ ... ⊕ v(i, rq)` with `r1 < ... < rq` the
    reduction range in lexicographic order (Section 6.9). The body receives
    the output indices then the reduction indices and yields `v`; values are
    combined in the yielded type and rounded once to the result's element
    type on store.

    Kinds: `sum` (e0 = 0), `prod` (1), `max`/`min` (∓inf, NaN propagates),
    `argmax`/`argmin` (result i64: the linear position in the reduction range
    of the first extreme; a NaN counts as the extreme), `any`/`all` (result
    i1), `welford`, whose three results are the mean, the sum of squared
    deviations M2 and the count of the values, and `welford_combine`, whose
    body yields (mean, M2, count) triples of partial results (a split
    Welford reduction, Section 6.5) and combines them with Chan's formula.

    As for `stax.pointwise`, optional `ranges` replaces the result's shape as
    the (outer) iteration range after loop normalization.

    Syntax: `stax.reduction`, the kind, the reduction ranges `[...]`, the
    optional `ranges [...]`, `layout <...>`, `:` the result types, then the
    body. Example: the row maximum of a 4x8
    tensor (`tp.amax` over dim 1):

    ```mlir
    func.func @example(%arg0: tensor<4x8xf32>) -> tensor<4xf32> {
      %0 = stax.reduction max [8] layout <[1]> : tensor<4xf32> {
      ^bb0(%i0: index, %r0: index):
        %1 = affine.apply affine_map<(d0, d1) -> (d0 * 8 + d1)>(%i0, %r0)
        %2 = stax.load %arg0[%1] : tensor<4x8xf32>
        stax.yield %2 : f32
      }
      return %0 : tensor<4xf32>
    }
    ```
  }];
  let arguments = (ins Stax_ReductionKindAttr:$kind,
                       DenseI64ArrayAttr:$reduction_ranges,
                       Stax_LayoutAttr:$layout,
                       OptionalAttr<DenseI64ArrayAttr>:$ranges);
  let results = (outs Variadic<AnyRankedTensor>:$results);
  let regions = (region SizedRegion<1>:$body);
  let extraClassDeclaration = [{
    /// The output loops: `ranges` when set, else the result's shape.
    ::llvm::ArrayRef<int64_t> getIterationRanges() {
      if (auto r = getRangesAttr())
        return r.asArrayRef();
      return ::llvm::cast<::mlir::RankedTensorType>(getResult(0).getType())
          .getShape();
    }
  }];
}

def Stax_ScatterOp : Stax_NodeOp<"scatter"> {
  let summary = "a copy of a buffer with data-dependent writes";
  let description = [{
    The dual of an indirect read (Section 6.2): the result starts as a copy of
    `base` (same shape and layout), then for every index of `ranges` the body
    yields a storage address of the result and a value, which overwrites the
    element (`overwrite`: repeated addresses have no defined winner, as in
    eager) or is added to it (`accumulate`: atomic-add semantics, so any
    order gives the same real-number result; the interpreter adds in
    lexicographic order).

    Syntax: `stax.scatter`, the mode, the base, the ranges `[...]`,
    `layout <...>`, `:` the result type, then the body, which yields an
    `index` (the address) and the value.
    Example: `tp.scatter_add` of four values into a vector of 8, each
    index checked (a bad index is a run-time error):

    ```mlir
    func.func @example(%arg0: tensor<8xf32>, %arg1: tensor<4xi64>, %arg2: tensor<4xf32>) -> tensor<8xf32> {
      %0 = stax.scatter accumulate %arg0 [4] layout <[1]> : tensor<8xf32> {
      ^bb0(%i0: index):
        %1 = stax.load %arg1[%i0] : tensor<4xi64>
        %2 = stax.indirect_index %1, 8 {check_bounds} : i64
        %3 = stax.load %arg2[%i0] : tensor<4xf32>
        stax.yield %2, %3 : index, f32
      }
      return %0 : tensor<8xf32>
    }
    ```
  }];
  let arguments = (ins AnyRankedTensor:$base, Stax_ScatterModeAttr:$mode,
                       DenseI64ArrayAttr:$ranges, Stax_LayoutAttr:$layout);
  let results = (outs AnyRankedTensor:$result);
  let regions = (region SizedRegion<1>:$body);
}

def Stax_KernelOp : Stax_Op<"kernel", [RecursiveMemoryEffects,
    SingleBlockImplicitTerminator<"YieldOp">]> {
  let summary = "nodes that run as one loop nest (a fused kernel)";
  let description = [{
    Groups nodes that `--stax-fuse` schedules into one kernel: the nodes in
    the body share the outer loops `outer_ranges` (the leading loops of each
    node), and for every outer index they run in order, so a value one node
    computes for that index is read by the next without a trip to memory.
    The results are the yielded node results that are read outside the
    kernel; the others are kernel-local. The semantics are the nodes' in
    order: fusing never changes a value.

    Example: the row maximum and the subtraction that reads it, one row at
    a time (what `--stax-fuse` makes of `x - amax(x, 1, keepdim)`):

    ```mlir
    func.func @example(%arg0: tensor<4x8xf32>) -> tensor<4x8xf32> {
      %0 = stax.kernel [4] : tensor<4x8xf32> {
        %1 = stax.reduction max [8] layout <[1, 1]> : tensor<4x1xf32> {
        ^bb0(%i0: index, %i1: index, %r0: index):
          %3 = affine.apply affine_map<(d0, d1) -> (d0 * 8 + d1)>(%i0, %r0)
          %4 = stax.load %arg0[%3] : tensor<4x8xf32>
          stax.yield %4 : f32
        }
        %2 = stax.pointwise layout <[8, 1]> : tensor<4x8xf32> {
        ^bb0(%i0: index, %i1: index):
          %3 = affine.apply affine_map<(d0, d1) -> (d0 * 8 + d1)>(%i0, %i1)
          %4 = stax.load %arg0[%3] : tensor<4x8xf32>
          %5 = stax.load %1[%i0] : tensor<4x1xf32>
          %6 = arith.subf %4, %5 : f32
          stax.yield %6 : f32
        }
        stax.yield %2 : tensor<4x8xf32>
      }
      return %0 : tensor<4x8xf32>
    }
    ```
  }];
  let arguments = (ins DenseI64ArrayAttr:$outer_ranges);
  let results = (outs Variadic<AnyRankedTensor>:$results);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $outer_ranges attr-dict-with-keyword (`:` type($results)^)? $body
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Body ops
//===----------------------------------------------------------------------===//

def Stax_LoadOp : Stax_Op<"load", [Pure,
    DeclareOpInterfaceMethods<InferIntRangeInterface,
                              ["inferResultRangesFromOptional"]>,
    TypesMatchWith<"the value has the scalar type of the buffer's elements",
                   "buffer", "value",
                   "::mlir::stax::getScalarType(::llvm::cast<::mlir::RankedTensorType>($_self).getElementType())">]> {
  let summary = "read one element of a buffer's storage";
  let description = [{
    Reads element `address` of the storage of `buffer` (a function argument,
    a node's result or an external op's result). With `mask`, the read
    happens only where the mask is true and yields zero elsewhere (the masked
    loads of concatenation). The value has the scalar type of the element
    type: the element type itself, or for a `ui8` element an `i16` holding
    its value (zero-extended).

    Example: the masked loads of `tp.cat` of a 2- and a 3-element vector:

    ```mlir
    func.func @example(%arg0: tensor<2xf32>, %arg1: tensor<3xf32>) -> tensor<5xf32> {
      %0 = stax.pointwise layout <[1]> : tensor<5xf32> {
      ^bb0(%i0: index):
        %c2 = arith.constant 2 : index
        %1 = arith.cmpi sge, %i0, %c2 : index
        %2 = affine.apply affine_map<(d0) -> (d0 - 2)>(%i0)
        %3 = stax.load %arg1[%2] mask %1 : tensor<3xf32>
        %4 = arith.cmpi slt, %i0, %c2 : index
        %5 = stax.load %arg0[%i0] mask %4 : tensor<2xf32>
        %6 = arith.select %4, %5, %3 : f32
        stax.yield %6 : f32
      }
      return %0 : tensor<5xf32>
    }
    ```
  }];
  let arguments = (ins AnyRankedTensor:$buffer, Index:$address,
                       Optional<I1>:$mask);
  let results = (outs Stax_Scalar:$value);
  let assemblyFormat = [{
    $buffer `[` $address `]` (`mask` $mask^)? attr-dict `:` type($buffer)
  }];
  let builders = [
    OpBuilder<(ins "::mlir::Value":$buffer, "::mlir::Value":$address,
                   CArg<"::mlir::Value", "{}">:$mask)>];
}

def Stax_IndirectIndexOp : Stax_Op<"indirect_index", [
    // A checked index is a run-time error when out of range: it must run
    // even when nothing reads its result (a gather from a tensor that does
    // not depend on the index), so it is not Pure then.
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>,
    DeclareOpInterfaceMethods<ConditionallySpeculatable>,
    DeclareOpInterfaceMethods<InferIntRangeInterface, ["inferResultRanges"]>]> {
  let summary = "a data-dependent index into a dimension of `size`";
  let description = [{
    Converts a run-time integer to an index into a dimension of `size`
    elements. With `wrap_negative`, a negative value `v` means `v + size`
    (Python semantics); with `check_bounds`, a value outside `[0, size)`
    (after wrapping) is a run-time error naming this op. Range analysis drops
    both when it proves the value is in `[0, size)` (Section 6.8).

    Example: `x[idx]` with Python's negative indices (`tp.index`):

    ```mlir
    func.func @example(%arg0: tensor<128xf32>, %arg1: tensor<4xi64>) -> tensor<4xf32> {
      %0 = stax.pointwise layout <[1]> : tensor<4xf32> {
      ^bb0(%i0: index):
        %1 = stax.load %arg1[%i0] : tensor<4xi64>
        %2 = stax.indirect_index %1, 128 {check_bounds, wrap_negative} : i64
        %3 = stax.load %arg0[%2] : tensor<128xf32>
        stax.yield %3 : f32
      }
      return %0 : tensor<4xf32>
    }
    ```
  }];
  let arguments = (ins AnySignlessInteger:$value, I64Attr:$size,
                       UnitAttr:$wrap_negative, UnitAttr:$check_bounds);
  let results = (outs Index:$result);
  let assemblyFormat = "$value `,` $size attr-dict `:` type($value)";
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The transfer function of this op (Proposition 6.4): the range of the
    /// index given the range `value` of the operand, for a dimension of
    /// `size` with the given wrap and check.
    static ::mlir::ConstantIntRanges
    inferIndexRange(const ::mlir::ConstantIntRanges &value, int64_t size,
                    bool wrapNegative, bool checkBounds);
  }];
}

// Not Elementwise: the vectorizer keeps a body with a call scalar (these
// are rare functions, not the transcendental functions of hot loops).
def Stax_SpecialFunctionOp : Stax_Op<"special_function", [Pure]> {
  let summary = "a special function of scalars (lgamma, digamma, erfinv, ...)";
  let description = [{
    A function of `Stax/Support/SpecialFunctions.h` that the math dialect
    lacks: `lgamma`, `digamma`, `polygamma` (of order `n`), `erfinv`,
    `ndtri`, `erfcx` and `frexp_mantissa` of one operand, `nextafter` of
    two, `frexp_exponent` of one with an `i32` result. Operands are `f32` or
    `f64` of one type, which the result has too. The interpreter computes
    the shared C++ function; `--stax-to-loops` calls the runtime's
    `stax_rt_<kind>_<type>` (libdevice's twin on CUDA), so both agree
    bitwise on the CPU.

    ```mlir
    %y = stax.special_function lgamma(%x) : (f32) -> f32
    %z = stax.special_function polygamma(%d) {n = 2 : i64} : (f64) -> f64
    %n = stax.special_function nextafter(%x, %y) : (f32, f32) -> f32
    %e = stax.special_function frexp_exponent(%x) : (f32) -> i32
    ```
  }];
  let arguments = (ins Stax_SpecialFunctionKind:$kind,
                       Variadic<AnyFloat>:$operands,
                       OptionalAttr<I64Attr>:$n);
  let results = (outs AnyTypeOf<[AnyFloat, I32]>:$result);
  let assemblyFormat = [{
    $kind `(` $operands `)` attr-dict `:` functional-type($operands, $result)
  }];
  let hasVerifier = 1;
}

def Stax_YieldOp : Stax_Op<"yield", [Pure, Terminator,
    ParentOneOf<["PointwiseOp", "ReductionOp", "ScatterOp", "KernelOp"]>]> {
  let summary = "the value(s) a node body computes for one index";
  let description = [{
    Terminates the body of a node: the element of a `stax.pointwise`, the
    value to combine of a `stax.reduction` (three for `welford_combine`),
    the address and value of a `stax.scatter`. In a `stax.kernel` it
    lists the node results the kernel returns.

    ```mlir
    func.func @example(%arg0: tensor<4xf32>) -> tensor<4xf32> {
      %0 = stax.pointwise layout <[1]> : tensor<4xf32> {
      ^bb0(%i0: index):
        %1 = stax.load %arg0[%i0] : tensor<4xf32>
        %2 = arith.negf %1 : f32
        stax.yield %2 : f32
      }
      return %0 : tensor<4xf32>
    }
    ```
  }];
  let arguments = (ins Variadic<AnyType>:$values);
  let assemblyFormat = "($values^ `:` type($values))? attr-dict";
  let builders = [OpBuilder<(ins), [{ /* empty, for the implicit terminator */ }]>];
}

#endif // STAX_DIALECT_STAX_IR_STAXOPS_TD
