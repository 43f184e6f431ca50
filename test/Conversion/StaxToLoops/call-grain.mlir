// RUN: stax-opt --stax-lowering-pipeline --stax-to-loops="vector-width=16" %s | FileCheck %s
// RUN: stax-opt --stax-lowering-pipeline --stax-to-loops="vector-width=16 call-grain=0" %s | FileCheck %s --check-prefix=CHECK-ZERO
// RUN: not stax-opt --stax-lowering-pipeline --stax-to-loops="call-grain=-1" %s 2>&1 | FileCheck %s --check-prefix=CHECK-BAD

// A function whose ops do fewer than `call-grain` units of work in all
// (default 262144) runs every loop serially: its first parallel loop
// would wake OpenMP's sleeping workers, which costs more than the loops
// save. Larger functions decide node by node by `grain` (parallel.mlir);
// call-grain=0 turns the rule off. A unit is a body evaluation, and each
// transcendental function in the body counts one more; the return and
// constants count nothing.

// 65536 evaluations of tanh, 131072 units: above grain, below call-grain.
// CHECK-LABEL: func.func @one_mid_size_node
// CHECK-NOT: scf.parallel
// CHECK: return
// CHECK-ZERO-LABEL: func.func @one_mid_size_node
// CHECK-ZERO: scf.parallel
// CHECK-ZERO: return
func.func @one_mid_size_node(%x: tensor<65536xf32>) -> tensor<65536xf32> {
  %0 = tp.tanh %x : tensor<65536xf32> -> tensor<65536xf32>
  return %0 : tensor<65536xf32>
}

// 98304 evaluations (serial without functions) of two functions, 294912
// units: parallel.
// CHECK-LABEL: func.func @transcendental_chain
// CHECK: scf.parallel
// CHECK: return
// CHECK-LABEL: func.func @plain_chain
// CHECK-NOT: scf.parallel
// CHECK: return
func.func @transcendental_chain(%x: tensor<98304xf32>) -> tensor<98304xf32> {
  %0 = tp.tanh %x : tensor<98304xf32> -> tensor<98304xf32>
  %1 = tp.exp %0 : tensor<98304xf32> -> tensor<98304xf32>
  return %1 : tensor<98304xf32>
}
func.func @plain_chain(%x: tensor<98304xf32>) -> tensor<98304xf32> {
  %0 = tp.abs %x : tensor<98304xf32> -> tensor<98304xf32>
  %1 = tp.neg %0 : tensor<98304xf32> -> tensor<98304xf32>
  return %1 : tensor<98304xf32>
}

// Two nodes of 131072 evaluations (a row sum, then the rows scaled by
// it): 262144 in all, so their kernel runs its rows in parallel.
// CHECK-LABEL: func.func @two_nodes_at_call_grain
// CHECK: scf.parallel
// CHECK: return
func.func @two_nodes_at_call_grain(%x: tensor<128x1024xf32>) -> tensor<128x1024xf32> {
  %s = tp.sum %x {dims = array<i64: 1>, keepdim = true} : tensor<128x1024xf32> -> tensor<128x1xf32>
  %0 = tp.div %x, %s : tensor<128x1024xf32>, tensor<128x1xf32> -> tensor<128x1024xf32>
  return %0 : tensor<128x1024xf32>
}

// A function with a smaller node beside a large one keeps both decisions
// to `grain`: the 8-element node stays serial, the large one parallel.
// CHECK-LABEL: func.func @large_and_tiny
// CHECK: scf.parallel
// CHECK: return
func.func @large_and_tiny(%x: tensor<524288xf32>, %y: tensor<8xf32>) -> (tensor<524288xf32>, tensor<8xf32>) {
  %0 = tp.exp %x : tensor<524288xf32> -> tensor<524288xf32>
  %1 = tp.exp %y : tensor<8xf32> -> tensor<8xf32>
  return %0, %1 : tensor<524288xf32>, tensor<8xf32>
}

// CHECK-BAD: --stax-to-loops: call-grain=-1: must be at least 0
