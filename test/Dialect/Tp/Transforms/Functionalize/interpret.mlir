// RUN: not stax-run %s --random-inputs --entry=main --seed 0 2>&1 | FileCheck %s --check-prefix=INPLACE
// RUN: rm -rf %t && mkdir -p %t
// RUN: stax-run %s --entry=inputs --output-dir=%t
// RUN: stax-opt %s --stax-functionalize | stax-run - --entry=main --input=%t/result0.npy --print=exact | FileCheck %s

// The interpreter does not run in-place ops; functionalized, the function
// runs and returns the copy-back result after the original one.

// INPLACE: interpret.mlir:[[@LINE+17]]:8: error: 'tp.add_.Scalar' mutates its operand in place, which the reference interpreter does not run: run --stax-functionalize first

// The values, for x = [0.5, -1.25, 3]: y is a copy of x taken before
// x += 1, so y *= 2 gives 2x (not 2(x + 1) = [3, -0.5, 8], as if y aliased
// x); the copy-back of the mutated argument is x + 1 (not x).
// CHECK:      @main
// CHECK-NEXT: result #0: tensor<3xf32>
// CHECK-NEXT:   [0] 1{{$}}
// CHECK-NEXT:   [1] -2.5{{$}}
// CHECK-NEXT:   [2] 6{{$}}
// CHECK-NEXT: result #1: tensor<3xf32>
// CHECK-NEXT:   [0] 1.5{{$}}
// CHECK-NEXT:   [1] -0.25{{$}}
// CHECK-NEXT:   [2] 4{{$}}
// CHECK-NOT:  result
func.func @main(%x: tensor<3xf32>) -> tensor<3xf32> {
  %y = tp.clone %x : tensor<3xf32> -> tensor<3xf32>
  %0 = tp.add_.Scalar %x {other = 1 : i64} : tensor<3xf32> -> tensor<3xf32>
  %1 = tp.mul_.Scalar %y {other = 2 : i64} : tensor<3xf32> -> tensor<3xf32>
  return %y : tensor<3xf32>
}

// The argument of the value check (in place ops make --stax-functionalize
// mark @main's argument, so the input comes from a file).
func.func @inputs() -> tensor<3xf32> {
  %x = tp.constant dense<[0.5, -1.25, 3.0]> : tensor<3xf32>
  return %x : tensor<3xf32>
}
