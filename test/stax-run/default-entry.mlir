// RUN: stax-run %s --random-inputs --print=hash | FileCheck %s
// RUN: echo 'func.func private @ext(tensor<2xf32>) -> tensor<2xf32>' | not stax-run - 2>&1 | FileCheck %s --check-prefix=CHECK-NONE

// Without --entry, stax-run runs the first function with a body: a
// declaration before it (an external function) has nothing to run.
// CHECK: @f
// CHECK-NONE: stax-run: the module has no function with a body
func.func private @ext(tensor<2xf32>) -> tensor<2xf32>

func.func @f(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = tp.exp %x : tensor<2xf32> -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
