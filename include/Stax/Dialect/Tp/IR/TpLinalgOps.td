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
  let arguments = (ins Tp_Tensor:$self, Tp_Tensor:$mat2);
  let results = (outs Tp_Tensor:$result);
}
def Tp_BmmOp : Tp_CustomOp<"bmm", [Tp_Contraction, Tp_External]> {
  let summary = "batched matrix product of 3-D tensors";
  let arguments = (ins Tp_Tensor:$self, Tp_Tensor:$mat2);
  let results = (outs Tp_Tensor:$result);
}
def Tp_MatmulOp : Tp_CustomOp<"matmul", [Tp_Contraction, Tp_External]> {
  let summary = "numpy-style matmul: 1-D/2-D/batched with broadcasting batch dims";
  let arguments = (ins Tp_Tensor:$self, Tp_Tensor:$other);
  let results = (outs Tp_Tensor:$result);
}
def Tp_DotOp : Tp_CustomOp<"dot", [Tp_Contraction, Tp_External]> {
  let summary = "inner product of two 1-D tensors";
  let arguments = (ins Tp_Tensor:$self, Tp_Tensor:$other);
  let results = (outs Tp_Tensor:$result);
}
def Tp_AddmmOp : Tp_CustomOp<"addmm", [Tp_Contraction, Tp_External]> {
  let summary = "`beta * self + alpha * (mat1 @ mat2)`, self broadcast";
  let arguments = (ins Tp_Tensor:$self, Tp_Tensor:$mat1, Tp_Tensor:$mat2,
                       Tp_ScalarOne:$beta, Tp_ScalarOne:$alpha);
  let results = (outs Tp_Tensor:$result);
}
def Tp_BaddbmmOp : Tp_CustomOp<"baddbmm", [Tp_Contraction, Tp_External]> {
  let summary = "`beta * self + alpha * (batch1 @ batch2)`, self broadcast";
  let arguments = (ins Tp_Tensor:$self, Tp_Tensor:$batch1, Tp_Tensor:$batch2,
                       Tp_ScalarOne:$beta, Tp_ScalarOne:$alpha);
  let results = (outs Tp_Tensor:$result);
}

#endif // STAX_DIALECT_TP_IR_TPLINALGOPS_TD
