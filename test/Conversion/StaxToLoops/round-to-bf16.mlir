// RUN: stax-opt --stax-round-to-bf16 %s | FileCheck %s

// f32 to bf16 on a vector: c10's rounding of the bits, NaN as 0x7fc0
// (32704), then 16 bits reinterpreted.
// CHECK-LABEL: func.func @vector(
// CHECK-SAME: %[[X:.*]]: vector<16xf32>
// CHECK-NOT: arith.truncf
// CHECK-DAG: %[[SIXTEEN:.*]] = arith.constant dense<16> : vector<16xi32>
// CHECK-DAG: %[[ONE:.*]] = arith.constant dense<1> : vector<16xi32>
// CHECK-DAG: %[[BIAS:.*]] = arith.constant dense<32767> : vector<16xi32>
// CHECK-DAG: %[[QNAN:.*]] = arith.constant dense<32704> : vector<16xi32>
// CHECK: %[[BITS:.*]] = arith.bitcast %[[X]] : vector<16xf32> to vector<16xi32>
// CHECK: %[[HIGH:.*]] = arith.shrui %[[BITS]], %[[SIXTEEN]]
// CHECK: %[[LOWEST:.*]] = arith.andi %[[HIGH]], %[[ONE]]
// CHECK: %[[B:.*]] = arith.addi %[[LOWEST]], %[[BIAS]]
// CHECK: %[[SUM:.*]] = arith.addi %[[BITS]], %[[B]]
// CHECK: %[[ROUNDED:.*]] = arith.shrui %[[SUM]], %[[SIXTEEN]]
// CHECK: %[[NAN:.*]] = arith.cmpf uno, %[[X]], %[[X]]
// CHECK: %[[R:.*]] = arith.select %[[NAN]], %[[QNAN]], %[[ROUNDED]]
// CHECK: %[[NARROW:.*]] = arith.trunci %[[R]] : vector<16xi32> to vector<16xi16>
// CHECK: %[[Y:.*]] = arith.bitcast %[[NARROW]] : vector<16xi16> to vector<16xbf16>
// CHECK: return %[[Y]]
func.func @vector(%x: vector<16xf32>) -> vector<16xbf16> {
  %0 = arith.truncf %x : vector<16xf32> to vector<16xbf16>
  return %0 : vector<16xbf16>
}

// A double is rounded to f32 first (c10 converts through float).
// CHECK-LABEL: func.func @scalar_f64(
// CHECK-SAME: %[[X:.*]]: f64
// CHECK: %[[F:.*]] = arith.truncf %[[X]] : f64 to f32
// CHECK: arith.bitcast %[[F]] : f32 to i32
// CHECK: arith.trunci %{{.*}} : i32 to i16
// CHECK: arith.bitcast %{{.*}} : i16 to bf16
func.func @scalar_f64(%x: f64) -> bf16 {
  %0 = arith.truncf %x : f64 to bf16
  return %0 : bf16
}

// Left as they are: other rounding modes, truncations to other types.
// CHECK-LABEL: func.func @unchanged(
// CHECK: arith.truncf %{{.*}} toward_zero : f32 to bf16
// CHECK: arith.truncf %{{.*}} : f32 to f16
// CHECK: arith.truncf %{{.*}} : f64 to f32
func.func @unchanged(%x: f32, %d: f64) -> (bf16, f16, f32) {
  %0 = arith.truncf %x toward_zero : f32 to bf16
  %1 = arith.truncf %x : f32 to f16
  %2 = arith.truncf %d : f64 to f32
  return %0, %1, %2 : bf16, f16, f32
}

// A bf16 horizontal maximum runs in f32 on the exactly extended lanes; the
// result is rounded on the bits (vcvtneps2bf16 would flush a denormal).
// CHECK-LABEL: func.func @reduction(
// CHECK-SAME: %[[V:.*]]: vector<16xbf16>
// CHECK: %[[W:.*]] = arith.extf %[[V]] : vector<16xbf16> to vector<16xf32>
// CHECK: %[[M:.*]] = vector.reduction <maximumf>, %[[W]] : vector<16xf32> into f32
// CHECK: arith.bitcast %[[M]] : f32 to i32
// CHECK-NOT: arith.truncf
// CHECK: arith.bitcast %{{.*}} : i16 to bf16
func.func @reduction(%v: vector<16xbf16>) -> bf16 {
  %0 = vector.reduction <maximumf>, %v : vector<16xbf16> into bf16
  return %0 : bf16
}

// A scalar bf16 a loop carries is carried as f32: extended before the
// loop, narrowed (on the bits) where the body reads it and after the loop.
// CHECK-LABEL: func.func @carried(
// CHECK-SAME: %[[INIT:.*]]: bf16
// CHECK: %[[W:.*]] = arith.extf %[[INIT]] : bf16 to f32
// CHECK: scf.for {{.*}} iter_args(%[[ACC:.*]] = %[[W]]) -> (f32)
// CHECK:   arith.bitcast %[[ACC]] : f32 to i32
// CHECK:   %[[MAX:.*]] = arith.select %{{.*}}, %{{.*}}, %{{.*}} : bf16
// CHECK:   %[[NEXT:.*]] = arith.extf %[[MAX]] : bf16 to f32
// CHECK:   scf.yield %[[NEXT]] : f32
// CHECK-NOT: arith.truncf
func.func @carried(%init: bf16, %m: memref<40xbf16>) -> bf16 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c40 = arith.constant 40 : index
  %r = scf.for %i = %c0 to %c40 step %c1 iter_args(%acc = %init) -> (bf16) {
    %x = memref.load %m[%i] : memref<40xbf16>
    %gt = arith.cmpf ogt, %x, %acc : bf16
    %max = arith.select %gt, %x, %acc : bf16
    scf.yield %max : bf16
  }
  return %r : bf16
}

// A scalar bf16 an scf.if yields is yielded as f32 and narrowed (on the
// bits) after it.
// CHECK-LABEL: func.func @chosen(
// CHECK: %[[R:.*]]:2 = scf.if %{{.*}} -> (f32, i64) {
// CHECK:   %[[A:.*]] = arith.extf %{{.*}} : bf16 to f32
// CHECK:   scf.yield %[[A]], %{{.*}} : f32, i64
// CHECK: } else {
// CHECK:   %[[B:.*]] = arith.extf %{{.*}} : bf16 to f32
// CHECK:   scf.yield %[[B]], %{{.*}} : f32, i64
// CHECK: arith.bitcast %[[R]]#0 : f32 to i32
// CHECK-NOT: arith.truncf
// CHECK: return
func.func @chosen(%c: i1, %x: bf16, %y: bf16) -> (bf16, i64) {
  %r:2 = scf.if %c -> (bf16, i64) {
    %i = arith.constant 1 : i64
    scf.yield %x, %i : bf16, i64
  } else {
    %j = arith.constant 2 : i64
    scf.yield %y, %j : bf16, i64
  }
  return %r#0, %r#1 : bf16, i64
}
