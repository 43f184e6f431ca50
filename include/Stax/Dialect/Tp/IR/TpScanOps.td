//===- TpScanOps.td - tp cumulative ops (scans) ------------*- tablegen -*-===//
//
// The cumulative operators (aten.cumsum, cumprod, logcumsumexp, cummax,
// cummin): an inclusive scan along one dim. They are external ops: the
// lowering keeps them whole and code generation emits one sequential loop
// per slice, O(n) along the dim (a masked reduction per prefix would be
// O(n^2)).
// Included by TpOps.td; C++ in lib/Dialect/Tp/IR/TpScanOps.cpp, the
// combine rules in include/Stax/Support/ScanCombine.h.
//
//===----------------------------------------------------------------------===//

#ifndef STAX_DIALECT_TP_IR_TPSCANOPS_TD
#define STAX_DIALECT_TP_IR_TPSCANOPS_TD

// `%r = tp.cumsum %x {dim = 1 : i64} : tensor<4x5xf32> -> tensor<4x5xf32>`.
// `elements` says which element types the op takes (a C++ ScanElements
// enumerator).
class Tp_ScanOp<string mnemonic, string combine, string elements>
    : Tp_Op<mnemonic, [Tp_External]> {
  let summary = "inclusive `" # combine # "` scan along `dim` (aten." #
                mnemonic # ")";
  let description = [{
    Element `i` along `dim` of the result combines the elements `0..i` of
    `self` along `dim` (with `reverse`, the elements `i..n-1`: the scan runs
    from the end, which is how the derivative rules transpose a forward
    scan; aten has no such flag). The combine is `}] # combine # [{`,
    applied in order, one element at a time, in the accumulation type:
    `f64` for `f32` and `f64` elements, `f32` for `f16`/`bf16`, `i64` for
    integers (wrapping to the element width when stored), as eager's CPU
    kernels do; each result is rounded once to the element type. A 0-d
    `self` takes dim 0 or -1.

    ```mlir
    func.func @example(%x: tensor<4x5xf32>) -> tensor<4x5xf32> {
      %r = tp.}] # mnemonic # [{ %x {dim = 1 : i64} : tensor<4x5xf32> -> tensor<4x5xf32>
      return %r : tensor<4x5xf32>
    }
    ```
  }];
  let arguments = (ins Tp_Tensor:$self, I64Attr:$dim,
                       DefaultValuedAttr<BoolAttr, "false">:$reverse);
  let results = (outs Tp_Tensor:$result);
  let assemblyFormat = "$self attr-dict `:` type($self) `->` type($result)";
  let extraClassDefinition = Tp_InferBy<
      "::mlir::tp::inferScan(loc, name, adaptor.getSelf(), adaptor.getDim(), "
      "::mlir::tp::ScanElements::" # elements # ", /*withIndices=*/false, "
      "types)">.inferBody;
}

def Tp_CumsumOp : Tp_ScanOp<"cumsum", "a + x", "NumbersNotBool">;
def Tp_CumprodOp : Tp_ScanOp<"cumprod", "a * x", "NumbersNotBool">;
def Tp_LogcumsumexpOp
    : Tp_ScanOp<"logcumsumexp", "log(exp(a) + exp(x))", "FloatOnly">;

// cummax/cummin: the running extremum and the position it was taken from.
class Tp_CumExtremumOp<string mnemonic, string cmp>
    : Tp_Op<mnemonic, [Tp_External]> {
  let summary = "running " # !if(!eq(cmp, ">="), "maximum", "minimum") #
                " along `dim` and its index (aten." # mnemonic # ")";
  let description = [{
    `values` holds, at each position `i` along `dim`, the running extremum
    of `self` over `0..i` (`i..n-1` with `reverse`), and `indices` the
    position along `dim` it was taken from. An element `x` replaces the
    running value `a` when `x` is NaN or when `a` is not NaN and
    `x }] # cmp # [{ a`, so ties take the later position and a NaN, once
    seen, stays (eager's CPU kernel). Any element type but complex.

    ```mlir
    func.func @example(%x: tensor<4x5xf32>) -> (tensor<4x5xf32>, tensor<4x5xi64>) {
      %v, %i = tp.}] # mnemonic # [{ %x {dim = 1 : i64} : tensor<4x5xf32> -> tensor<4x5xf32>, tensor<4x5xi64>
      return %v, %i : tensor<4x5xf32>, tensor<4x5xi64>
    }
    ```
  }];
  let arguments = (ins Tp_Tensor:$self, I64Attr:$dim,
                       DefaultValuedAttr<BoolAttr, "false">:$reverse);
  let results = (outs Tp_Tensor:$values, Tp_IndexTensor:$indices);
  let assemblyFormat = "$self attr-dict `:` type($self) `->` type(results)";
  let extraClassDefinition = Tp_InferBy<
      "::mlir::tp::inferScan(loc, name, adaptor.getSelf(), adaptor.getDim(), "
      "::mlir::tp::ScanElements::Any, /*withIndices=*/true, types)">.inferBody;
}

def Tp_CummaxOp : Tp_CumExtremumOp<"cummax", ">=">;
def Tp_CumminOp : Tp_CumExtremumOp<"cummin", "<=">;

#endif // STAX_DIALECT_TP_IR_TPSCANOPS_TD
