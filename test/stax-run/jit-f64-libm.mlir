// With vector-math=none, f64 log1p and expm1 compile to libm's functions
// (the interpreter's), not upstream's log(1 + x) and exp(x) - 1
// expansions, which lose every digit of a small x: bitwise equal to the
// interpreter, scalar and vectorized. By default (vector-math=auto) log1p
// is libmvec's (within 2 ulp) and expm1 a kernel of ours (within 1 ulp),
// for scalars too (test/Conversion/StaxToLoops/vector-math-calls.mlir):
// 1e-20 stays 1e-20 either way.
// RUN: stax-opt --stax-pipeline=vector-math=none %s 2>/dev/null | FileCheck %s --check-prefix=CHECK-IR
// RUN: stax-run %s --entry=small --print=exact | sed 1d > %t.interp
// RUN: stax-run %s --entry=small --print=exact --jit --pipeline-options="vector-math=none" | sed 1d > %t.jit
// RUN: diff %t.interp %t.jit
// RUN: FileCheck %s --input-file=%t.jit
// RUN: stax-run %s --entry=small --print=exact --jit | FileCheck %s
// RUN: stax-run %s --entry=random --random-inputs --print=hash | sed 1d > %t.random.interp
// RUN: stax-run %s --entry=random --random-inputs --print=hash --jit --pipeline-options="vector-math=none" | sed 1d > %t.random.jit
// RUN: diff %t.random.interp %t.random.jit
// RUN: stax-run %s --entry=random --random-inputs --print=hash --jit --pipeline-options="vector-width=1 vector-math=none" | sed 1d > %t.random.scalar
// RUN: diff %t.random.interp %t.random.scalar

// CHECK-IR-DAG: llvm.call @log1p
// CHECK-IR-DAG: llvm.call @expm1
// CHECK-IR-NOT: llvm.intr.log(

// CHECK: [0] 9.9999999999999995e-21
// CHECK: [1] 9.9999999999499986e-12
// CHECK: [2] 0.69314718055994529
// CHECK: result #1
// CHECK: [0] 9.9999999999999995e-21
// CHECK: [1] 1.000000000005e-11
// CHECK: [2] 1.718281828459045{{[13]}}
func.func @small() -> (tensor<3xf64>, tensor<3xf64>) {
  %x = tp.constant dense<[1.0e-20, 1.0e-11, 1.0]> : tensor<3xf64>
  %y = tp.log1p %x : tensor<3xf64> -> tensor<3xf64>
  %z = tp.expm1 %x : tensor<3xf64> -> tensor<3xf64>
  return %y, %z : tensor<3xf64>, tensor<3xf64>
}

func.func @random(%x: tensor<33x17xf64>) -> (tensor<33x17xf64>, tensor<33x17xf64>) {
  %s = tp.mul.Scalar %x {other = 1.0e-6 : f64} : tensor<33x17xf64> -> tensor<33x17xf64>
  %y = tp.log1p %s : tensor<33x17xf64> -> tensor<33x17xf64>
  %z = tp.expm1 %s : tensor<33x17xf64> -> tensor<33x17xf64>
  return %y, %z : tensor<33x17xf64>, tensor<33x17xf64>
}
