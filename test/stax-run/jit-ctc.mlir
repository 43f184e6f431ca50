// Differential tests of tp.ctc_loss and its gradient compiled (calls of the
// runtime's stax_rt_ctc_loss_*) against the interpreter: both run eager's
// algorithm (Stax/Support/CTCLoss.h), so the results are bitwise equal,
// sequential or one sample per thread. Random integers in [0, 6] serve as
// lengths (<= T = 8 and <= S = 6) and as labels (< C = 7; blank 0 among
// them, as eager allows); log_probs need not be normalized.
// RUN: stax-run %s --entry=loss --random-inputs --int-high=7 --print=hash | sed 1d > %t.interp
// RUN: FileCheck %s --input-file=%t.interp
// RUN: stax-run %s --entry=loss --random-inputs --int-high=7 --print=hash --jit | sed 1d > %t.jit
// RUN: diff %t.interp %t.jit
// RUN: stax-run %s --entry=loss --random-inputs --int-high=7 --print=hash --jit --pipeline-options="grain=1" --num-threads=4 | sed 1d > %t.threads
// RUN: diff %t.interp %t.threads
// f64, through the joint graph (the gradient of the summed losses); the
// log_softmax's exp and log are libm's with vector-math=none.
// RUN: stax-opt %s --stax-joint-graph="function=joint" | stax-run - --entry=joint --random-inputs --int-high=7 --print=hash | sed 1d > %t.joint.interp
// RUN: stax-opt %s --stax-joint-graph="function=joint" | stax-run - --entry=joint --random-inputs --int-high=7 --print=hash --jit --pipeline-options="vector-math=none" | sed 1d > %t.joint.jit
// RUN: diff %t.joint.interp %t.joint.jit
// A length beyond T or S (integers up to 19): the first bad value is an
// error naming the op, compiled and interpreted.
// RUN: not stax-run %s --entry=loss --random-inputs --int-high=20 --jit 2>&1 | FileCheck %s --check-prefix=CHECK-JIT-ERROR
// RUN: not stax-run %s --entry=loss --random-inputs --int-high=20 2>&1 | FileCheck %s --check-prefix=CHECK-INTERP-ERROR

// CHECK: result #0: tensor<5xf32> fnv1a64=0x{{[0-9a-f]+}}
// CHECK: result #1: tensor<8x5x7xf32> fnv1a64=0x{{[0-9a-f]+}}
// CHECK-JIT-ERROR: index {{[0-9]+}} is out of bounds for a dimension of size {{[79]}} in tp.ctc_loss at loc(
// CHECK-INTERP-ERROR: error: 'tp.ctc_loss' op sample {{[0-9]}}: {{[0-9]+}} is out of range [0, {{[68]}}]
func.func @loss(%lp: tensor<8x5x7xf32>, %tg: tensor<5x6xi64>, %il: tensor<5xi64>, %tl: tensor<5xi64>, %g: tensor<5xf32>) -> (tensor<5xf32>, tensor<8x5x7xf32>) {
  %n, %a = tp.ctc_loss %lp, %tg, %il, %tl : (tensor<8x5x7xf32>, tensor<5x6xi64>, tensor<5xi64>, tensor<5xi64>) -> (tensor<5xf32>, tensor<5x8x13xf32>)
  %r = tp.ctc_loss_backward %g, %lp, %tg, %il, %tl, %n, %a {zero_infinity = true} : (tensor<5xf32>, tensor<8x5x7xf32>, tensor<5x6xi64>, tensor<5xi64>, tensor<5xi64>, tensor<5xf32>, tensor<5x8x13xf32>) -> tensor<8x5x7xf32>
  return %n, %r : tensor<5xf32>, tensor<8x5x7xf32>
}

func.func @joint(%x: tensor<8x5x7xf64> {tp.requires_grad}, %tg: tensor<5x6xi64>, %il: tensor<5xi64>, %tl: tensor<5xi64>) -> tensor<f64> {
  %lp = tp._log_softmax %x {dim = 2 : i64, half_to_float = false} : tensor<8x5x7xf64> -> tensor<8x5x7xf64>
  %n, %a = tp.ctc_loss %lp, %tg, %il, %tl {blank = 6 : i64, zero_infinity = true} : (tensor<8x5x7xf64>, tensor<5x6xi64>, tensor<5xi64>, tensor<5xi64>) -> (tensor<5xf64>, tensor<5x8x13xf64>)
  %s = tp.sum %n {dims = array<i64>} : tensor<5xf64> -> tensor<f64>
  return %s : tensor<f64>
}
