// RUN: stax-opt %s --stax-decompose="keep=tp._softmax,native_layer_norm" | FileCheck %s --check-prefix=CHECK-KEEP
// RUN: stax-opt %s --stax-decompose="only=tp.silu_backward" | FileCheck %s --check-prefix=CHECK-ONLY
// RUN: stax-opt %s --stax-decompose="keep=tp.sigmoid" | FileCheck %s --check-prefix=CHECK-SIG

// keep: the listed ops stay whole, the others are decomposed.
// CHECK-KEEP-LABEL: func.func @f
// CHECK-KEEP: tp._softmax
// CHECK-KEEP: tp.native_layer_norm
// CHECK-KEEP-NOT: tp.silu_backward
// CHECK-KEEP: return

// only: just the listed ops are decomposed; what their decompositions
// create is decomposed only when listed too (sigmoid is not).
// CHECK-ONLY-LABEL: func.func @f
// CHECK-ONLY-NOT: tp.amax
// CHECK-ONLY: tp._softmax
// CHECK-ONLY: tp.native_layer_norm
// CHECK-ONLY: tp.sigmoid
// CHECK-ONLY-NOT: tp.silu_backward
// CHECK-ONLY: return

// A kept op is also kept where a decomposition creates it.
// CHECK-SIG-LABEL: func.func @f
// CHECK-SIG: tp.sigmoid
// CHECK-SIG-NOT: tp.silu_backward
// CHECK-SIG: return
func.func @f(%x: tensor<4x6xf32>, %g: tensor<4x6xf32>)
    -> (tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>) {
  %0 = tp._softmax %x {dim = 1 : i64} : tensor<4x6xf32> -> tensor<4x6xf32>
  %1:3 = tp.native_layer_norm %x {normalized_shape = array<i64: 6>, eps = 1.0e-5 : f64}
      : (tensor<4x6xf32>) -> (tensor<4x6xf32>, tensor<4x1xf32>, tensor<4x1xf32>)
  %2 = tp.silu_backward %g, %x : (tensor<4x6xf32>, tensor<4x6xf32>) -> tensor<4x6xf32>
  return %0, %1#0, %2 : tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>
}
