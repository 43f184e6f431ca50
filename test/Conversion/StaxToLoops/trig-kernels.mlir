// RUN: stax-opt --stax-approximate-math %s | FileCheck %s
// RUN: stax-opt --stax-approximate-math="kernels=f64" %s | FileCheck %s
// RUN: stax-opt --stax-approximate-math="kernels=upstream" %s | FileCheck %s --check-prefix=CHECK-UP

// The circular and hyperbolic f32 functions as float64 kernels
// (F64TrigKernels.cpp): no call per element, one rounding at the end.
// python/tests/test_math_ulp.py checks their values, compiled, on a sweep
// of the f32 range.

// sin of a vector: |x| reduced by pi/2 in three fma steps, the quadrant
// from k, and a branch, taken when some lane is above 2^26, that computes
// those lanes with the f64 math.sin (libm).
// CHECK-LABEL: func.func @sin_vector(
// CHECK-SAME: %[[X:.*]]: vector<16xf32>
// CHECK: %[[W:.*]] = arith.extf %[[X]] : vector<16xf32> to vector<16xf64>
// CHECK: math.roundeven %{{.*}} : vector<16xf64>
// CHECK-COUNT-3: math.fma
// CHECK: arith.fptosi %{{.*}} : vector<16xf64> to vector<16xi64>
// CHECK: %[[FAST:.*]] = arith.truncf %{{.*}} : vector<16xf64> to vector<16xf32>
// CHECK: %[[LARGE:.*]] = arith.cmpf ogt, %{{.*}} : vector<16xf64>
// CHECK: %[[ANY:.*]] = vector.reduction <or>, %[[LARGE]] : vector<16xi1> into i1
// CHECK: %[[R:.*]] = scf.if %[[ANY]] -> (vector<16xf32>) {
// CHECK:   %[[EXACT:.*]] = math.sin %[[W]] : vector<16xf64>
// CHECK:   %[[N:.*]] = arith.truncf %[[EXACT]]
// CHECK:   %[[SEL:.*]] = arith.select %[[LARGE]], %[[N]], %[[FAST]]
// CHECK:   scf.yield %[[SEL]]
// CHECK: } else {
// CHECK:   scf.yield %[[FAST]]
// CHECK: %[[NAN:.*]] = arith.cmpf uno, %[[X]], %[[X]]
// CHECK: %[[OUT:.*]] = arith.select %[[NAN]], %[[X]], %[[R]]
// CHECK: return %[[OUT]]
// CHECK-UP-LABEL: func.func @sin_vector(
// CHECK-UP: math.sin %{{.*}} : vector<16xf32>
func.func @sin_vector(%x: vector<16xf32>) -> vector<16xf32> {
  %0 = math.sin %x : vector<16xf32>
  return %0 : vector<16xf32>
}

// A scalar branches on its own comparison; cos and tan share the
// reduction.
// CHECK-LABEL: func.func @cos_tan_scalar(
// CHECK-NOT: vector.reduction
// CHECK: %[[L1:.*]] = arith.cmpf ogt, %{{.*}} : f64
// CHECK: scf.if %[[L1]] -> (f32)
// CHECK: math.cos %{{.*}} : f64
// CHECK: arith.divf %{{.*}} : f64
// CHECK: %[[L2:.*]] = arith.cmpf ogt, %{{.*}} : f64
// CHECK: scf.if %[[L2]] -> (f32)
// CHECK: math.tan %{{.*}} : f64
// CHECK-UP-LABEL: func.func @cos_tan_scalar(
// CHECK-UP: math.cos %{{.*}} : f32
// CHECK-UP: math.tan %{{.*}} : f32
func.func @cos_tan_scalar(%x: f32) -> (f32, f32) {
  %0 = math.cos %x : f32
  %1 = math.tan %x : f32
  return %0, %1 : f32, f32
}

// The inverse and hyperbolic functions are straight-line code: atan with
// its reductions (1/|x|, then pi/6), asin and acos through atan and a
// square root, sinh through expm1, cosh through exp; no branch.
// CHECK-LABEL: func.func @straight_line(
// CHECK-NOT: scf.if
// CHECK-NOT: math.asin
// CHECK-NOT: math.acos
// CHECK-NOT: math.atan
// CHECK-NOT: math.sinh
// CHECK-NOT: math.cosh
// CHECK: return
// CHECK-UP-LABEL: func.func @straight_line(
// CHECK-UP: math.asin
// CHECK-UP: math.acos
// CHECK-UP: math.atan
// CHECK-UP: math.atan2
// CHECK-UP: math.sinh
// CHECK-UP: math.cosh
func.func @straight_line(%x: vector<8xf32>, %y: vector<8xf32>)
    -> (vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>,
        vector<8xf32>, vector<8xf32>) {
  %0 = math.asin %x : vector<8xf32>
  %1 = math.acos %x : vector<8xf32>
  %2 = math.atan %x : vector<8xf32>
  %3 = math.atan2 %y, %x : vector<8xf32>
  %4 = math.sinh %x : vector<8xf32>
  %5 = math.cosh %x : vector<8xf32>
  return %0, %1, %2, %3, %4, %5 : vector<8xf32>, vector<8xf32>,
      vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>
}

// atan2's operands in order (y, x), widened; the result narrowed once.
// CHECK-LABEL: func.func @atan2_scalar(
// CHECK-SAME: %[[Y:.*]]: f32, %[[X:.*]]: f32
// CHECK-DAG: %[[YW:.*]] = arith.extf %[[Y]] : f32 to f64
// CHECK-DAG: %[[XW:.*]] = arith.extf %[[X]] : f32 to f64
// CHECK-DAG: math.absf %[[XW]]
// CHECK-DAG: math.absf %[[YW]]
// CHECK: math.copysign %{{.*}}, %[[YW]] : f64
// CHECK: %[[T:.*]] = arith.truncf %{{.*}} : f64 to f32
// CHECK: return %[[T]]
func.func @atan2_scalar(%y: f32, %x: f32) -> f32 {
  %0 = math.atan2 %y, %x : f32
  return %0 : f32
}

// f64 and f16 functions are not rewritten.
// CHECK-LABEL: func.func @other_types(
// CHECK: math.sin %{{.*}} : f64
// CHECK: math.atan %{{.*}} : f16
func.func @other_types(%d: f64, %h: f16) -> (f64, f16) {
  %0 = math.sin %d : f64
  %1 = math.atan %h : f16
  return %0, %1 : f64, f16
}
