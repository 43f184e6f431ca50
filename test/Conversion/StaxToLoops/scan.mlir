// RUN: stax-opt --stax-lowering-pipeline --stax-to-loops="grain=100 call-grain=0" %s 2>/dev/null | FileCheck %s
// RUN: stax-opt --stax-lowering-pipeline --stax-to-loops="vector-width=1 parallel=false" %s 2>/dev/null | FileCheck %s --check-prefix=SCALAR
// RUN: stax-opt --stax-lowering-pipeline="target=cuda" --stax-to-loops="target=cuda" %s 2>/dev/null | FileCheck %s --check-prefix=GPU

// The scans stay tp through the lowering (external ops reading row-major
// buffers) and become one scf.for per slice along the scanned dim,
// carrying the running value in the accumulation type (f64 for f32 sums).
// Where the slices after the dim are contiguous (`inner` >= the vector
// width), 16 of them go together as one vector per step; the remaining
// ones are scalar. Both groups are parallel when the whole scan is worth
// threads (`grain`).

// 4 x 6 x 37 along dim 1: 2 vectors of 16 columns per outer index (8
// groups), then 5 scalar columns per outer index (20 groups); element k
// of a slice is 37 * k after its first.
// CHECK-LABEL: func.func @columns(
// CHECK: scf.parallel (%[[G:.*]]) = (%{{.*}}) to (%c8) step
// CHECK: %[[ACC0:.*]] = arith.constant dense<0.000000e+00> : vector<16xf64>
// CHECK: scf.for %[[K:.*]] = %{{.*}} to %c6 step %{{.*}} iter_args(%[[ACC:.*]] = %[[ACC0]]) -> (vector<16xf64>)
// CHECK: arith.muli %[[K]], %c37
// CHECK: %[[X:.*]] = vector.load %{{.*}} : memref<888xf32>, vector<16xf32>
// CHECK: %[[W:.*]] = arith.extf %[[X]] : vector<16xf32> to vector<16xf64>
// CHECK: %[[S:.*]] = arith.addf %[[ACC]], %[[W]] : vector<16xf64>
// CHECK: %[[R:.*]] = arith.truncf %[[S]] : vector<16xf64> to vector<16xf32>
// CHECK: vector.store %[[R]]
// CHECK: scf.yield %[[S]] : vector<16xf64>
// CHECK: scf.parallel (%{{.*}}) = (%{{.*}}) to (%c20) step
// CHECK: scf.for {{.*}} -> (f64)
// CHECK: memref.load %{{.*}} : memref<888xf32>
// CHECK: arith.addf %{{.*}} : f64
// SCALAR-LABEL: func.func @columns(
// SCALAR-NOT: scf.parallel
// SCALAR-NOT: vector
// SCALAR: scf.for %{{.*}} = %{{.*}} to %c148 step
// SCALAR: scf.for {{.*}} -> (f64)
// SCALAR-NOT: scf.parallel
// SCALAR: return
func.func @columns(%x: tensor<4x6x37xf32>) -> tensor<4x6x37xf32> {
  %y = tp.cumsum %x {dim = 1 : i64} : tensor<4x6x37xf32> -> tensor<4x6x37xf32>
  return %y : tensor<4x6x37xf32>
}

// Rows (the last dim), in reverse, with less work than the grain: one
// sequential loop over the 5 rows. The running maximum starts at the
// first visited element (position 8) with visit count 0; an element that
// is >= it (signed) replaces it, and the stored index is 8 - the visit
// count of the element taken.
// CHECK-LABEL: func.func @rows(
// CHECK-NOT: scf.parallel
// CHECK: %[[FIRST:.*]] = memref.load %{{.*}} : memref<45xi32>
// CHECK: scf.for %[[K:.*]] = %{{.*}} to %c9{{.*}} step %{{.*}} iter_args(%[[M:.*]] = %[[FIRST]], %[[I:.*]] = %c0_i64) -> (i32, i64)
// CHECK: %[[E:.*]] = memref.load %{{.*}} : memref<45xi32>
// CHECK: %[[TAKE:.*]] = arith.cmpi sge, %[[E]], %[[M]] : i32
// CHECK: %[[NM:.*]] = arith.select %[[TAKE]], %[[E]], %[[M]] : i32
// CHECK: %[[KI:.*]] = arith.index_cast %[[K]] : index to i64
// CHECK: %[[NI:.*]] = arith.select %[[TAKE]], %[[KI]], %[[I]] : i64
// CHECK: memref.store %[[NM]]
// CHECK: %[[POS:.*]] = arith.subi %c8_i64, %[[NI]] : i64
// CHECK: memref.store %[[POS]]
// CHECK: scf.yield %[[NM]], %[[NI]] : i32, i64
func.func @rows(%x: tensor<5x9xi32>) -> (tensor<5x9xi32>, tensor<5x9xi64>) {
  %y:2 = tp.cummax %x {dim = 1 : i64, reverse = true} : tensor<5x9xi32> -> tensor<5x9xi32>, tensor<5x9xi64>
  return %y#0, %y#1 : tensor<5x9xi32>, tensor<5x9xi64>
}

// logcumsumexp in f64 (eager's _log_add_exp_helper): the larger of the two
// plus log1p(exp(smaller - larger)), or the element where both are the
// same infinity. A float cummax takes NaN (unordered) or >= (ordered).
// CHECK-LABEL: func.func @floats(
// CHECK: math.log1p %{{.*}} : f64
// CHECK: arith.cmpf uno
// CHECK: arith.cmpf oge
// bool cummin compares unsigned (bytes, never as vectors).
// CHECK: arith.cmpi ule
// target=cuda: one thread per slice (the thread grid of the nodes), the
// same sequential loop in it.
// GPU-LABEL: func.func @floats(
// GPU: scf.parallel
// GPU: scf.parallel (%{{.*}}) = (%{{.*}}) to (%c3) step
// GPU: scf.for {{.*}} -> (f64)
// GPU: math.log1p
// GPU: mapping = [#gpu.loop_dim_map<processor = thread_x
// GPU: mapping = [#gpu.loop_dim_map<processor = block_x
func.func @floats(%x: tensor<3x20xf32>, %b: tensor<3x40xi1>)
    -> (tensor<3x20xf32>, tensor<3x20xf32>, tensor<3x20xi64>, tensor<3x40xi1>, tensor<3x40xi64>) {
  %l = tp.logcumsumexp %x {dim = 1 : i64} : tensor<3x20xf32> -> tensor<3x20xf32>
  %m:2 = tp.cummax %x {dim = 0 : i64} : tensor<3x20xf32> -> tensor<3x20xf32>, tensor<3x20xi64>
  %n:2 = tp.cummin %b {dim = 0 : i64} : tensor<3x40xi1> -> tensor<3x40xi1>, tensor<3x40xi64>
  return %l, %m#0, %m#1, %n#0, %n#1 : tensor<3x20xf32>, tensor<3x20xf32>, tensor<3x20xi64>, tensor<3x40xi1>, tensor<3x40xi64>
}
