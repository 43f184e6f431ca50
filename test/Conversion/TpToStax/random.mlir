// RUN: stax-opt --stax-decompose --stax-lower="strict=true" %s | FileCheck %s

// The counter-based random ops become pointwise bodies: element i computes
// its Philox4x32-10 block (10 rounds of two 32x32->64 products) from the
// state [seed, offset], the op's counter and i (TpRandomOps.td). Strict
// mode: none stays a tp op, so compiled code can run them.

// Element (i0, i1) is word 8 i0 + i1 of the stream, in block
// offset + counter + (8 i0 + i1) / 4, lane (8 i0 + i1) % 4.
// CHECK-LABEL: func.func @dropout
// CHECK: %[[OUT:.*]] = stax.pointwise layout <[8, 1]> : tensor<4x8xf32>
// CHECK: %[[I:.*]] = arith.index_cast %{{.*}} : index to i64
// CHECK: %[[SEED:.*]] = stax.load %arg1[%c0] : tensor<2xi64>
// CHECK: %[[OFF:.*]] = stax.load %arg1[%c1] : tensor<2xi64>
// CHECK: %[[BASE:.*]] = arith.addi %[[OFF]], %c3_i64 : i64
// CHECK: %[[Q:.*]] = arith.shrui %[[I]], %c2_i64 : i64
// CHECK: arith.addi %[[BASE]], %[[Q]] : i64
// CHECK-COUNT-20: arith.muli %c{{3528531795|3449720151}}_i64
// CHECK-NOT: arith.muli
// The top 24 bits, compared with the keep probability in f64; the kept
// value times the scale rounded to f32.
// CHECK: %[[W:.*]] = arith.shrui %{{.*}}, %c8_i32 : i32
// CHECK: %[[U:.*]] = arith.uitofp %[[W]] : i32 to f64
// CHECK: %[[U24:.*]] = arith.mulf %[[U]], %cst{{.*}} : f64
// CHECK: %[[KEEP:.*]] = arith.cmpf olt, %[[U24]], %cst{{.*}} : f64
// CHECK: arith.select %[[KEEP]], %cst{{.*}}, %cst{{.*}} : f32
// CHECK: stax.yield
// The mask is its own node (materialized for the backward).
// CHECK: stax.pointwise layout <[8, 1]> : tensor<4x8xi1>
// CHECK-COUNT-20: arith.muli %c{{3528531795|3449720151}}_i64
// CHECK: arith.cmpf olt
func.func @dropout(%x: tensor<4x8xf32>, %s: tensor<2xi64> {tp.rng_state}) -> (tensor<4x8xf32>, tensor<4x8xi1>) {
  %o, %m = tp.dropout_seeded %x, %s {counter = 3 : i64, p = 2.5e-01 : f64} : (tensor<4x8xf32>, tensor<2xi64>) -> (tensor<4x8xf32>, tensor<4x8xi1>)
  return %o, %m : tensor<4x8xf32>, tensor<4x8xi1>
}

// f64: double word i is words 2i, 2i + 1, two per block (block i / 2).
// CHECK-LABEL: func.func @rand_f64
// CHECK: stax.pointwise layout <[1]> : tensor<6xf64>
// CHECK: arith.shrui %{{.*}}, %c1_i64 : i64
// CHECK-COUNT-20: arith.muli
// CHECK: %[[D:.*]] = arith.ori %{{.*}}, %{{.*}} : i64
// CHECK: %[[M:.*]] = arith.shrui %[[D]], %c11_i64 : i64
// CHECK: arith.uitofp %[[M]] : i64 to f64
func.func @rand_f64(%s: tensor<2xi64> {tp.rng_state}) -> tensor<6xf64> {
  %r = tp.rand %s {counter = 0 : i64} : tensor<2xi64> -> tensor<6xf64>
  return %r : tensor<6xf64>
}

// Box-Muller: both functions of the pair, the element's chosen by parity.
// CHECK-LABEL: func.func @randn
// CHECK: stax.pointwise layout <[1]> : tensor<5xf32>
// CHECK: math.log %{{.*}} : f64
// CHECK: math.sqrt
// CHECK: math.cos
// CHECK: math.sin
// CHECK: arith.truncf %{{.*}} : f64 to f32
func.func @randn(%s: tensor<2xi64> {tp.rng_state}) -> tensor<5xf32> {
  %r = tp.randn %s {counter = 0 : i64} : tensor<2xi64> -> tensor<5xf32>
  return %r : tensor<5xf32>
}

// Probabilities from the operand, compared in f64.
// CHECK-LABEL: func.func @bernoulli
// CHECK: stax.pointwise layout <[1]> : tensor<7xf32>
// CHECK: %[[P:.*]] = stax.load %arg0
// CHECK: %[[PD:.*]] = arith.extf %[[P]] : f32 to f64
// CHECK: arith.cmpf olt, %{{.*}}, %[[PD]] : f64
func.func @bernoulli(%p: tensor<7xf32>, %s: tensor<2xi64> {tp.rng_state}) -> tensor<7xf32> {
  %r = tp.bernoulli %p, %s {counter = 0 : i64} : (tensor<7xf32>, tensor<2xi64>) -> tensor<7xf32>
  return %r : tensor<7xf32>
}
