// RUN: not stax-run %s --entry=oob 2>&1 | FileCheck %s --check-prefix=CHECK-OOB
// RUN: not stax-run %s --random-inputs --entry=nokernel 2>&1 | FileCheck %s --check-prefix=CHECK-KERNEL
// RUN: not stax-run %s --entry=missing 2>&1 | FileCheck %s --check-prefix=CHECK-MISSING
// RUN: not stax-run %s --entry=nokernel --input=%s 2>&1 | FileCheck %s --check-prefix=CHECK-NPY
// RUN: not stax-run %s --entry=nokernel --input=%s --input=%s 2>&1 | FileCheck %s --check-prefix=CHECK-ARGS

// Run-time errors name the op and its location; they never crash.

func.func @oob() -> tensor<2x4xf32> {
  %w = tp.full {value = 1.0 : f64} : tensor<10x4xf32>
  %i = tp.constant dense<[3, 100]> : tensor<2xi64>
  // CHECK-OOB: errors.mlir:[[@LINE+1]]:8: error: 'tp.embedding' op embedding index 100 is out of bounds for a dimension of size 10
  %0 = tp.embedding %w, %i : (tensor<10x4xf32>, tensor<2xi64>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

func.func @nokernel(%x: tensor<2xf32>) -> tensor<2xf32> {
  // CHECK-KERNEL: error: the reference interpreter has no kernel for 'arith.addf'
  %0 = "arith.addf"(%x, %x) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// CHECK-MISSING: stax-run: no function named 'missing'
// CHECK-NPY: stax-run: {{.*}}errors.mlir: not a .npy file
// CHECK-ARGS: stax-run: 2 --input files for 1 arguments
