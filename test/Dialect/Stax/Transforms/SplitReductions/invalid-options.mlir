// RUN: stax-opt %s --stax-split-reductions=sm-count=0 -verify-diagnostics
// RUN: not stax-opt %s --stax-split-reductions=target=tpu 2>&1 | FileCheck %s --check-prefix=CHECK-TARGET
// RUN: not stax-opt %s --stax-split-reductions=warp-size=-32 2>&1 | FileCheck %s --check-prefix=CHECK-WARP

// Bad device options are rejected with a diagnostic naming the pass and
// the option, on the function being split.

// CHECK-TARGET: for the --target option: Cannot find option named 'tpu'!
// CHECK-WARP: error: stax-split-reductions: warp-size must be positive, got -32

// expected-error @below {{stax-split-reductions: sm-count must be positive, got 0}}
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
