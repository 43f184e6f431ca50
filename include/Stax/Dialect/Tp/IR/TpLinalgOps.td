//===- TpLinalgOps.td - tp linear algebra ------------------*- tablegen -*-===//
//
// The tp linear algebra (external kernels when lowered).
// Included by TpOps.td, which defines the base classes; C++ in
// lib/Dialect/Tp/IR/TpLinalgOps.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef STAX_DIALECT_TP_IR_TPLINALGOPS_TD
#define STAX_DIALECT_TP_IR_TPLINALGOPS_TD

//===----------------------------------------------------------------------===//
// Linear algebra (external kernels when lowered)
//===----------------------------------------------------------------------===//

def Tp_MmOp : Tp_CustomOp<"mm", [Tp_Contraction, Tp_External]> {
  let summary = "matrix product of 2-D tensors";
  let description = [{
    `aten.mm`: `self` (n x k) times `mat2` (k x m) is n x m, of the
    promoted element type. An external kernel once lowered (BLAS for f32
    and f64 on the CPU); the reference interpreter accumulates each dot
    product in order over k.

    ```mlir
    func.func @example(%a: tensor<32x64xf32>, %b: tensor<64x16xf32>) -> tensor<32x16xf32> {
      %r = tp.mm %a, %b : (tensor<32x64xf32>, tensor<64x16xf32>) -> tensor<32x16xf32>
      return %r : tensor<32x16xf32>
    }
    ```
  }];
  let arguments = (ins Tp_Tensor:$self, Tp_Tensor:$mat2);
  let results = (outs Tp_Tensor:$result);
}
def Tp_BmmOp : Tp_CustomOp<"bmm", [Tp_Contraction, Tp_External]> {
  let summary = "batched matrix product of 3-D tensors";
  let description = [{
    `aten.bmm`: for each of the b batches, an `mm` of `self` (b x n x k)
    and `mat2` (b x k x m); the batch sizes must be equal.

    ```mlir
    func.func @example(%a: tensor<4x8x16xf32>, %b: tensor<4x16x2xf32>) -> tensor<4x8x2xf32> {
      %r = tp.bmm %a, %b : (tensor<4x8x16xf32>, tensor<4x16x2xf32>) -> tensor<4x8x2xf32>
      return %r : tensor<4x8x2xf32>
    }
    ```
  }];
  let arguments = (ins Tp_Tensor:$self, Tp_Tensor:$mat2);
  let results = (outs Tp_Tensor:$result);
}
def Tp_MatmulOp : Tp_CustomOp<"matmul", [Tp_Contraction, Tp_External]> {
  let summary = "numpy-style matmul: 1-D/2-D/batched with broadcasting batch dims";
  let description = [{
    `aten.matmul` (`@`): a 1-D operand is a vector (a dim added, then
    removed), 2-D operands multiply as matrices, and leading batch dims
    broadcast. `--stax-decompose` rewrites it into `tp.mm`, `tp.bmm`,
    `tp.view` and `tp.expand`.

    ```mlir
    func.func @example(%a: tensor<2x8x16xf32>, %b: tensor<16x4xf32>) -> tensor<2x8x4xf32> {
      %r = tp.matmul %a, %b : (tensor<2x8x16xf32>, tensor<16x4xf32>) -> tensor<2x8x4xf32>
      return %r : tensor<2x8x4xf32>
    }
    ```
  }];
  let arguments = (ins Tp_Tensor:$self, Tp_Tensor:$other);
  let results = (outs Tp_Tensor:$result);
}
def Tp_DotOp : Tp_CustomOp<"dot", [Tp_Contraction, Tp_External]> {
  let summary = "inner product of two 1-D tensors";
  let description = [{
    `aten.dot`: the sum of the products of two 1-D tensors of the same
    length, a 0-d result.

    ```mlir
    func.func @example(%a: tensor<16xf32>, %b: tensor<16xf32>) -> tensor<f32> {
      %r = tp.dot %a, %b : (tensor<16xf32>, tensor<16xf32>) -> tensor<f32>
      return %r : tensor<f32>
    }
    ```
  }];
  let arguments = (ins Tp_Tensor:$self, Tp_Tensor:$other);
  let results = (outs Tp_Tensor:$result);
}
def Tp_AddmmOp : Tp_CustomOp<"addmm", [Tp_Contraction, Tp_External]> {
  let summary = "`beta * self + alpha * (mat1 @ mat2)`, self broadcast";
  let description = [{
    `aten.addmm`, the linear layer with bias: `self` (the bias) broadcasts
    to the shape of `mat1 @ mat2`; `beta` and `alpha` are scalars (1 by
    default). `--stax-decompose` rewrites it into `tp.mm` and pointwise
    ops.

    ```mlir
    func.func @example(%bias: tensor<16xf32>, %x: tensor<8x32xf32>, %wt: tensor<32x16xf32>) -> tensor<8x16xf32> {
      %r = tp.addmm %bias, %x, %wt : (tensor<16xf32>, tensor<8x32xf32>, tensor<32x16xf32>) -> tensor<8x16xf32>
      return %r : tensor<8x16xf32>
    }
    ```
  }];
  let arguments = (ins Tp_Tensor:$self, Tp_Tensor:$mat1, Tp_Tensor:$mat2,
                       Tp_ScalarOne:$beta, Tp_ScalarOne:$alpha);
  let results = (outs Tp_Tensor:$result);
}
def Tp_BaddbmmOp : Tp_CustomOp<"baddbmm", [Tp_Contraction, Tp_External]> {
  let summary = "`beta * self + alpha * (batch1 @ batch2)`, self broadcast";
  let description = [{
    `aten.baddbmm`: `tp.addmm` per batch (`batch1` b x n x k, `batch2`
    b x k x m); `self` broadcasts to b x n x m. Attention scores with a
    scale are `baddbmm` with `beta = 0` and `alpha` the scale.

    ```mlir
    func.func @example(%c: tensor<4x8x8xf32>, %q: tensor<4x8x16xf32>, %k: tensor<4x16x8xf32>) -> tensor<4x8x8xf32> {
      %r = tp.baddbmm %c, %q, %k {alpha = 2.500000e-01 : f64, beta = 0 : i64} : (tensor<4x8x8xf32>, tensor<4x8x16xf32>, tensor<4x16x8xf32>) -> tensor<4x8x8xf32>
      return %r : tensor<4x8x8xf32>
    }
    ```
  }];
  let arguments = (ins Tp_Tensor:$self, Tp_Tensor:$batch1, Tp_Tensor:$batch2,
                       Tp_ScalarOne:$beta, Tp_ScalarOne:$alpha);
  let results = (outs Tp_Tensor:$result);
}

#endif // STAX_DIALECT_TP_IR_TPLINALGOPS_TD
