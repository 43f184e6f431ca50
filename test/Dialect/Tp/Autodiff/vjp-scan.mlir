// RUN: stax-opt %s --stax-joint-graph | FileCheck %s
// RUN: stax-opt %s --stax-jvp | FileCheck %s --check-prefix=JVP
// RUN: rm -rf %t && mkdir -p %t
// RUN: stax-run %s --entry=inputs --output-dir=%t
// RUN: stax-opt %s --stax-joint-graph | stax-run - --entry=cumsum --print=exact --input=%t/result0.npy --input=%t/result0.npy | FileCheck %s --check-prefix=VALUES
// RUN: mkdir -p %t/p && stax-run %s --entry=product_inputs --output-dir=%t/p
// RUN: stax-opt %s --stax-joint-graph | stax-run - --entry=cumprod --print=exact --input=%t/p/result0.npy --input=%t/p/result1.npy | FileCheck %s --check-prefix=PROD
// RUN: stax-opt %s --stax-jvp | stax-run - --entry=cumprod --print=exact --input=%t/p/result0.npy --input=%t/p/result1.npy | FileCheck %s --check-prefix=PROD-JVP

// The VJPs and JVPs of ScanRules.cpp. The phase attribute is not matched.

func.func @inputs() -> tensor<3x4xf32> {
  %x = tp.constant dense<[[1.0, 2.0, 3.0, 4.0], [0.0, 0.0, 0.0, 0.0], [1.0, 1.0, 1.0, 1.0]]> : tensor<3x4xf32>
  return %x : tensor<3x4xf32>
}

// cumsum is linear: the adjoint is scanned the other way along the
// normalized dim (eager's flip-cumsum-flip), the tangent the same way.
// CHECK-LABEL: func.func @cumsum
// CHECK-SAME: (%[[X:.*]]: tensor<3x4xf32> {tp.requires_grad}, %[[T:.*]]: tensor<3x4xf32> {tp.tangent})
// CHECK-NEXT: %[[Y:.*]] = tp.cumsum %[[X]] {dim = -1 : i64
// CHECK-NEXT: %[[G:.*]] = tp.cumsum %[[T]] {dim = 1 : i64, reverse = true
// CHECK-NEXT: return %[[Y]], %[[G]] :
// JVP-LABEL: func.func @cumsum
// JVP: tp.cumsum %{{.*}} {dim = 1 : i64
// JVP-NOT: reverse
// JVP: return
// The adjoint of [[1, 2, 3, 4], ...] is its suffix sum: 10, 9, 7, 4.
// VALUES: result #1: tensor<3x4xf32>
// VALUES-NEXT: [0,0] 10
// VALUES-NEXT: [0,1] 9
// VALUES-NEXT: [0,2] 7
// VALUES-NEXT: [0,3] 4
func.func @cumsum(%x: tensor<3x4xf32> {tp.requires_grad}) -> tensor<3x4xf32> {
  %y = tp.cumsum %x {dim = -1 : i64} : tensor<3x4xf32> -> tensor<3x4xf32>
  return %y : tensor<3x4xf32>
}

// CHECK-LABEL: func.func @cumsum_reverse
// CHECK: tp.cumsum %{{.*}} {dim = 0 : i64, reverse = true
// CHECK-NEXT: tp.cumsum %{{.*}} {dim = 0 : i64, tp.phase
func.func @cumsum_reverse(%x: tensor<3x4xf32> {tp.requires_grad}) -> tensor<3x4xf32> {
  %y = tp.cumsum %x {dim = 0 : i64, reverse = true} : tensor<3x4xf32> -> tensor<3x4xf32>
  return %y : tensor<3x4xf32>
}

// logcumsumexp: exp(rscan(log g+ - y) + x) - exp(rscan(log g- - y) + x),
// the adjoint's positive and negative parts apart (the lowest float where
// a part is empty), so that no exp overflows.
// CHECK-LABEL: func.func @logcumsumexp
// CHECK-SAME: (%[[X:.*]]: tensor<3x4xf32> {tp.requires_grad}, %[[T:.*]]: tensor<3x4xf32> {tp.tangent})
// CHECK-NEXT: %[[Y:.*]] = tp.logcumsumexp %[[X]] {dim = 1 : i64
// CHECK-NEXT: %[[LOW:.*]] = tp.full {{.*}}value = -3.4028234663852886E+38 : f64}
// CHECK-NEXT: %[[A:.*]] = tp.abs %[[T]]
// CHECK-NEXT: %[[L:.*]] = tp.log %[[A]]
// CHECK-NEXT: %[[P:.*]] = tp.gt.Scalar %[[T]] {other = 0.000000e+00 : f64
// CHECK-NEXT: %[[LP:.*]] = tp.where %[[P]], %[[L]], %[[LOW]]
// CHECK-NEXT: %[[D:.*]] = tp.sub %[[LP]], %[[Y]]
// CHECK-NEXT: %[[R:.*]] = tp.logcumsumexp %[[D]] {dim = 1 : i64, reverse = true
// CHECK-NEXT: %[[S:.*]] = tp.add %[[R]], %[[X]]
// CHECK-NEXT: %[[POS:.*]] = tp.exp %[[S]]
// CHECK-NEXT: tp.lt.Scalar %[[T]] {other = 0.000000e+00 : f64
// CHECK: %[[NEG:.*]] = tp.exp
// CHECK-NEXT: %[[G:.*]] = tp.sub %[[POS]], %[[NEG]]
// CHECK-NEXT: return %[[Y]], %[[G]] :
// JVP-LABEL: func.func @logcumsumexp
// JVP: tp.amax %{{.*}} {dims = array<i64: 1>, keepdim = true
// JVP: tp.lt.Scalar %{{.*}} {other = 1.000000e-13 : f64
func.func @logcumsumexp(%x: tensor<3x4xf32> {tp.requires_grad}) -> tensor<3x4xf32> {
  %y = tp.logcumsumexp %x {dim = 1 : i64} : tensor<3x4xf32> -> tensor<3x4xf32>
  return %y : tensor<3x4xf32>
}

// cummax/cummin: the adjoint is added at the returned indices (a position
// kept for several steps gets all of their adjoints); the tangent is
// gathered from them; the indices have no tangent argument.
// CHECK-LABEL: func.func @cummax
// CHECK-SAME: (%[[X:.*]]: tensor<3x4xf32> {tp.requires_grad}, %[[T:.*]]: tensor<3x4xf32> {tp.tangent})
// CHECK-NEXT: %[[V:.*]], %[[I:.*]] = tp.cummax %[[X]] {dim = -2 : i64
// CHECK-NEXT: %[[Z:.*]] = tp.full {{.*}}value = 0.000000e+00 : f64} : tensor<3x4xf32>
// CHECK-NEXT: %[[G:.*]] = tp.scatter_add %[[Z]], %[[I]], %[[T]] {dim = 0 : i64
// CHECK-NEXT: return %[[V]], %[[I]], %[[G]] :
// JVP-LABEL: func.func @cummax
// JVP: %[[V:.*]], %[[I:.*]] = tp.cummax
// JVP-NEXT: tp.gather %{{.*}}, %[[I]] {dim = 0 : i64
func.func @cummax(%x: tensor<3x4xf32> {tp.requires_grad}) -> (tensor<3x4xf32>, tensor<3x4xi64>) {
  %y:2 = tp.cummax %x {dim = -2 : i64} : tensor<3x4xf32> -> tensor<3x4xf32>, tensor<3x4xi64>
  return %y#0, %y#1 : tensor<3x4xf32>, tensor<3x4xi64>
}

// A scan of one element is the identity: the adjoint passes through.
// CHECK-LABEL: func.func @cummin_0d
// CHECK-SAME: (%[[X:.*]]: tensor<f32> {tp.requires_grad}, %[[T:.*]]: tensor<f32> {tp.tangent})
// CHECK-NEXT: %[[V:.*]], %[[I:.*]] = tp.cummin %[[X]]
// CHECK-NEXT: return %[[V]], %[[I]], %[[T]] :
func.func @cummin_0d(%x: tensor<f32> {tp.requires_grad}) -> (tensor<f32>, tensor<i64>) {
  %y:2 = tp.cummin %x {dim = 0 : i64} : tensor<f32> -> tensor<f32>, tensor<i64>
  return %y#0, %y#1 : tensor<f32>, tensor<i64>
}

// An integer scan has no derivative.
// CHECK-LABEL: func.func @cumsum_int
// CHECK-NEXT: tp.cumsum
// CHECK-NEXT: return
func.func @cumsum_int(%x: tensor<4xi64>) -> tensor<4xi64> {
  %y = tp.cumsum %x {dim = 0 : i64} : tensor<4xi64> -> tensor<4xi64>
  return %y : tensor<4xi64>
}

// cumprod: R(g y) / x before the operand's first zero, R(g cumprod(x'))
// at it (x' has that zero replaced by 1: the product of the other
// factors), 0 after it; exact with zeros.
// CHECK-LABEL: func.func @cumprod
// CHECK: %[[Y:.*]] = tp.cumprod %{{.*}} {dim = 1 : i64
// CHECK: tp.eq.Scalar
// CHECK: tp.cumsum %{{.*}} {dim = 1 : i64, tp.phase
// CHECK: tp.cumsum %{{.*}} {dim = 1 : i64, reverse = true
// CHECK: tp.div
// CHECK: tp.cumprod %{{.*}} {dim = 1 : i64, tp.phase
// CHECK: tp.cumsum %{{.*}} {dim = 1 : i64, reverse = true
// CHECK: tp.where
// CHECK: tp.where
// With g = 1: d/dx of sum_j prod_{i<=j} x_i, by hand.
// PROD: result #1: tensor<3x4xf32>
// PROD-NEXT: [0,0] 33
// PROD-NEXT: [0,1] 16
// PROD-NEXT: [0,2] 10
// PROD-NEXT: [0,3] 6
// PROD-NEXT: [1,0] 1
// PROD-NEXT: [1,1] 8
// PROD-NEXT: [1,2] 0
// PROD-NEXT: [1,3] 0
// PROD-NEXT: [2,0] 21
// PROD-NEXT: [2,1] 0
// PROD-NEXT: [2,2] 0
// PROD-NEXT: [2,3] 0
// The JVP with t = 1: sum_{i<=j} prod_{l<=j, l!=i} x_l.
// PROD-JVP: result #1: tensor<3x4xf32>
// PROD-JVP-NEXT: [0,0] 1
// PROD-JVP-NEXT: [0,1] 3
// PROD-JVP-NEXT: [0,2] 11
// PROD-JVP-NEXT: [0,3] 50
// PROD-JVP-NEXT: [1,0] 1
// PROD-JVP-NEXT: [1,1] 2
// PROD-JVP-NEXT: [1,2] 6
// PROD-JVP-NEXT: [1,3] 0
// PROD-JVP-NEXT: [2,0] 1
// PROD-JVP-NEXT: [2,1] 5
// PROD-JVP-NEXT: [2,2] 5
// PROD-JVP-NEXT: [2,3] 10
func.func @product_inputs() -> (tensor<3x4xf32>, tensor<3x4xf32>) {
  %x = tp.constant dense<[[1.0, 2.0, 3.0, 4.0], [2.0, 0.0, 3.0, 0.0], [0.0, 5.0, 1.0, 2.0]]> : tensor<3x4xf32>
  %g = tp.full {value = 1.0 : f64} : tensor<3x4xf32>
  return %x, %g : tensor<3x4xf32>, tensor<3x4xf32>
}

func.func @cumprod(%x: tensor<3x4xf32> {tp.requires_grad}) -> tensor<3x4xf32> {
  %y = tp.cumprod %x {dim = 1 : i64} : tensor<3x4xf32> -> tensor<3x4xf32>
  return %y : tensor<3x4xf32>
}
