// RUN: not stax-run %s --seed 0 2>&1 | FileCheck %s --check-prefix=INPLACE
// RUN: stax-opt %s --stax-functionalize | stax-run - --seed 0 | FileCheck %s

// The interpreter does not run in-place ops; functionalized, the function
// runs and returns the copy-back result after the original one.

// INPLACE: interpret.mlir:[[@LINE+6]]:8: error: 'tp.add_.Scalar' mutates its operand in place, which the reference interpreter does not run: run --stax-functionalize first

// CHECK: result #0: tensor<3xf32>
// CHECK: result #1: tensor<3xf32>
func.func @main(%x: tensor<3xf32>) -> tensor<3xf32> {
  %y = tp.clone %x : tensor<3xf32> -> tensor<3xf32>
  %0 = tp.add_.Scalar %x {other = 1 : i64} : tensor<3xf32> -> tensor<3xf32>
  %1 = tp.mul_.Scalar %y {other = 2 : i64} : tensor<3xf32> -> tensor<3xf32>
  return %y : tensor<3xf32>
}
