// RUN: stax-opt %s --stax-range-analysis -split-input-file -verify-diagnostics | FileCheck %s --check-prefix=CHECK-LB

// Compiled code does not check direct addresses, so a load whose address
// interval lies wholly outside its buffer's storage is refused before code
// generation. Intervals over-approximate, so a partial overlap is accepted.

func.func @past_the_end(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %p = stax.pointwise layout <[8, 1]> : tensor<4x8xf32> {
  ^bb0(%i: index, %j: index):
    %a = affine.apply affine_map<(d0, d1) -> (d0 * 8 + d1 + 100000000)>(%i, %j)
    // expected-error @+1 {{'stax.load' op reads addresses in [100000000, 100000031], outside the buffer's 32 storage elements}}
    %v = stax.load %x[%a] : tensor<4x8xf32>
    stax.yield %v : f32
  }
  return %p : tensor<4x8xf32>
}

// -----

func.func @negative(%x: tensor<4xf32>) -> tensor<4xf32> {
  %p = stax.pointwise layout <[1]> : tensor<4xf32> {
  ^bb0(%i: index):
    %a = affine.apply affine_map<(d0) -> (d0 - 4)>(%i)
    // expected-error @+1 {{'stax.load' op reads addresses in [-4, -1], outside the buffer's 4 storage elements}}
    %v = stax.load %x[%a] : tensor<4xf32>
    stax.yield %v : f32
  }
  return %p : tensor<4xf32>
}

// -----

// A node result stored with a padded row stride spans more storage than
// its elements: element (1, 1) of a [3, 1] layout is at address 4.
// CHECK-LB-LABEL: func.func @padded_storage
// CHECK-LB: stax.load %{{.*}}[%{{.*}}] : tensor<2x2xf32>
func.func @padded_storage(%x: tensor<2x2xf32>) -> tensor<f32> {
  %p = stax.pointwise layout <[3, 1]> : tensor<2x2xf32> {
  ^bb0(%i: index, %j: index):
    %a = affine.apply affine_map<(d0, d1) -> (d0 * 2 + d1)>(%i, %j)
    %v = stax.load %x[%a] : tensor<2x2xf32>
    stax.yield %v : f32
  }
  %q = stax.pointwise layout <[]> : tensor<f32> {
  ^bb0:
    %c4 = arith.constant 4 : index
    %v = stax.load %p[%c4] : tensor<2x2xf32>
    stax.yield %v : f32
  }
  return %q : tensor<f32>
}

// -----

// A masked load reads nothing where its mask is false; a load in a node
// with no iterations never runs.
// CHECK-LB-LABEL: func.func @masked_or_never_run
// CHECK-LB-COUNT-2: stax.load
func.func @masked_or_never_run(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<0xf32>) {
  %p = stax.pointwise layout <[1]> : tensor<4xf32> {
  ^bb0(%i: index):
    %a = affine.apply affine_map<(d0) -> (d0 + 4)>(%i)
    %false = arith.constant false
    %v = stax.load %x[%a] mask %false : tensor<4xf32>
    stax.yield %v : f32
  }
  %q = stax.pointwise layout <[1]> : tensor<0xf32> {
  ^bb0(%i: index):
    %a = affine.apply affine_map<(d0) -> (d0 + 4)>(%i)
    %v = stax.load %x[%a] : tensor<4xf32>
    stax.yield %v : f32
  }
  return %p, %q : tensor<4xf32>, tensor<0xf32>
}

// -----

// Partial overlap: the interval [2, 5] reaches past the end but may come
// from an over-approximation, so it is accepted.
// CHECK-LB-LABEL: func.func @partial_overlap
// CHECK-LB: stax.load
func.func @partial_overlap(%x: tensor<4xf32>) -> tensor<4xf32> {
  %p = stax.pointwise layout <[1]> : tensor<4xf32> {
  ^bb0(%i: index):
    %a = affine.apply affine_map<(d0) -> (d0 + 2)>(%i)
    %v = stax.load %x[%a] : tensor<4xf32>
    stax.yield %v : f32
  }
  return %p : tensor<4xf32>
}
