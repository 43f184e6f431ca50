// RUN: not stax-run %s --entry=oob 2>&1 | FileCheck %s --check-prefix=CHECK-OOB
// RUN: not stax-run %s --random-inputs --entry=nokernel 2>&1 | FileCheck %s --check-prefix=CHECK-KERNEL
// RUN: not stax-run %s --entry=missing 2>&1 | FileCheck %s --check-prefix=CHECK-MISSING
// RUN: not stax-run %s --entry=nokernel --input=%s 2>&1 | FileCheck %s --check-prefix=CHECK-NPY
// RUN: not stax-run %s --entry=nokernel --input=%s --input=%s 2>&1 | FileCheck %s --check-prefix=CHECK-ARGS
// RUN: not stax-run %s --random-inputs --entry=negative_power 2>&1 | FileCheck %s --check-prefix=CHECK-POW
// RUN: not stax-run %s --random-inputs --entry=index_argument 2>&1 | FileCheck %s --check-prefix=CHECK-INDEX-ARG
// RUN: not stax-run %s --random-inputs --entry=long_failing_reduction 2>&1 | FileCheck %s --check-prefix=CHECK-LONG

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

// Eager refuses an integer power with a negative scalar exponent, whatever
// the values.
func.func @negative_power(%x: tensor<3xi64>) -> tensor<3xi64> {
  // CHECK-POW: errors.mlir:[[@LINE+1]]:8: error: 'tp.pow.Tensor_Scalar' op integers to negative integer powers are not allowed
  %0 = tp.pow.Tensor_Scalar %x {other = -1 : i64} : tensor<3xi64> -> tensor<3xi64>
  return %0 : tensor<3xi64>
}

// CHECK-MISSING: stax-run: no function named 'missing'
// CHECK-NPY: stax-run: {{.*}}errors.mlir: not a .npy file
// CHECK-ARGS: stax-run: 2 --input files for 1 arguments

// An element type no tensor value holds: random inputs crashed inventing one.
// CHECK-INDEX-ARG: stax-run: argument #0 (tensor<3xindex>) has element type 'index'; tensors hold integers, bools or floats
func.func @index_argument(%x: tensor<3xindex>) -> tensor<3xindex> {
  return %x : tensor<3xindex>
}

// The first failing body evaluation ends the node: the rest of a range of
// 10^12 was walked doing nothing (minutes).
// CHECK-LONG: error: 'stax.load' op address 0 is outside the buffer's 0 elements
func.func @long_failing_reduction(%x: tensor<2x0xf32>) -> tensor<2xf32> {
  %s = stax.reduction sum [1000000000000] layout <[1]> : tensor<2xf32> {
  ^bb0(%i: index, %r: index):
    %v = stax.load %x[%r] : tensor<2x0xf32>
    stax.yield %v : f32
  }
  return %s : tensor<2xf32>
}
