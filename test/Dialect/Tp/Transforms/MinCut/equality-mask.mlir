// RUN: stax-opt %s --stax-joint-graph --stax-mincut | FileCheck %s

// amax's VJP masks the adjoint with x == amax(x). Recomputing x = silu(a)
// in the backward would be cheaper than saving it, but compiled code may
// round a recomputation differently from the forward (the f32 logistic
// idiom applies only where fusion keeps n / (exp(y) + 1) in one node),
// and then no element equals the saved maximum: a mask of zeros and a
// 0 / 0 gradient. A value the backward compares for equality is saved.
// CHECK-LABEL: func.func @silu_amax_forward
// CHECK: %[[S:.*]] = tp.silu
// CHECK: %[[M:.*]] = tp.amax %[[S]]
// CHECK: return %[[M]], %[[S]], %[[M]] :
// CHECK-LABEL: func.func @silu_amax_backward
// CHECK-SAME: %{{[^:]*}}: tensor<8x8xf32>, %[[SS:[^:]*]]: tensor<8x8xf32>
// CHECK-NOT: tp.silu %
// CHECK: tp.eq %[[SS]],
func.func @silu_amax(%a: tensor<8x8xf32> {tp.requires_grad}) -> tensor<8xf32> {
  %s = tp.silu %a : tensor<8x8xf32> -> tensor<8x8xf32>
  %m = tp.amax %s {dims = array<i64: 0>} : tensor<8x8xf32> -> tensor<8xf32>
  return %m : tensor<8xf32>
}

// Other comparisons (relu's x > 0) tolerate a recomputation: nothing
// is saved, tanh is recomputed from the input.
// CHECK-LABEL: func.func @tanh_relu_forward
// CHECK: return %{{[^,]*}} : tensor<8xf32>
// CHECK-LABEL: func.func @tanh_relu_backward
// CHECK: tp.tanh
func.func @tanh_relu(%a: tensor<8xf32> {tp.requires_grad}) -> tensor<8xf32> {
  %t = tp.tanh %a : tensor<8xf32> -> tensor<8xf32>
  %r = tp.relu %t : tensor<8xf32> -> tensor<8xf32>
  return %r : tensor<8xf32>
}

// maximum's VJP splits ties with x == y, but x = a * a is IEEE arithmetic
// that every recomputation rounds the same: nothing is saved (the inputs
// suffice), a * a is recomputed.
// CHECK-LABEL: func.func @square_maximum_forward
// CHECK: return %{{[^,]*}} : tensor<8xf32>
// CHECK-LABEL: func.func @square_maximum_backward
// CHECK: %[[SQ:.*]] = tp.mul %arg0, %arg0
// CHECK: tp.eq %[[SQ]], %arg1
func.func @square_maximum(%a: tensor<8xf32> {tp.requires_grad}, %b: tensor<8xf32> {tp.requires_grad}) -> tensor<8xf32> {
  %s = tp.mul %a, %a : tensor<8xf32>, tensor<8xf32> -> tensor<8xf32>
  %m = tp.maximum %s, %b : tensor<8xf32>, tensor<8xf32> -> tensor<8xf32>
  return %m : tensor<8xf32>
}
