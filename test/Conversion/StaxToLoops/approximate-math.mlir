// RUN: stax-opt --stax-approximate-math %s | FileCheck %s
// RUN: stax-opt --stax-approximate-math="fast=true" %s | FileCheck %s --check-prefix=CHECK-FAST

// An f32 function is evaluated in f64 and rounded once; a NaN input is
// returned as it is. exp: clamp, k = roundeven(x log2 e), two-part
// Cody-Waite reduction, a polynomial, and 2^k built from exponent bits.
// CHECK-LABEL: func.func @exp_f32(
// CHECK-SAME: %[[X:.*]]: f32)
// CHECK-NOT: math.exp
// CHECK: %[[W:.*]] = arith.extf %[[X]] : f32 to f64
// CHECK: arith.minnumf %[[W]]
// CHECK: math.roundeven
// CHECK-COUNT-2: math.fma
// CHECK: arith.fptosi
// CHECK: arith.shli
// CHECK: %[[Y:.*]] = arith.truncf %{{.*}} : f64 to f32
// CHECK: %[[NAN:.*]] = arith.cmpf uno, %[[X]], %[[X]] : f32
// CHECK: %[[R:.*]] = arith.select %[[NAN]], %[[X]], %[[Y]] : f32
// CHECK-NOT: math.exp
// CHECK: return %[[R]]
// upstream's f32 polynomial: no f64 at all.
// CHECK-FAST-LABEL: func.func @exp_f32(
// CHECK-FAST-NOT: f64
// CHECK-FAST-NOT: math.exp
// CHECK-FAST: return
func.func @exp_f32(%x: f32) -> f32 {
  %0 = math.exp %x : f32
  return %0 : f32
}

// Vectors widen lane by lane: log of vector<16xf32> computes on
// vector<16xf64>, with the specials (0, negative, inf) selected after.
// CHECK-LABEL: func.func @log_vector(
// CHECK-NOT: math.log
// CHECK: arith.extf %{{.*}} : vector<16xf32> to vector<16xf64>
// CHECK: arith.bitcast %{{.*}} : vector<16xf64> to vector<16xi64>
// CHECK: arith.divf %{{.*}} : vector<16xf64>
// CHECK: arith.truncf %{{.*}} : vector<16xf64> to vector<16xf32>
// CHECK: return
// fast=true leaves log alone (upstream's log is wrong on denormals).
// CHECK-FAST-LABEL: func.func @log_vector(
// CHECK-FAST: math.log %{{.*}} : vector<16xf32>
func.func @log_vector(%x: vector<16xf32>) -> vector<16xf32> {
  %0 = math.log %x : vector<16xf32>
  return %0 : vector<16xf32>
}

// sigmoid's and silu's decomposition n / (exp(y) + 1) is one f64
// evaluation: a single rounding at the end, no f32 exp left.
// CHECK-LABEL: func.func @logistic(
// CHECK-SAME: %[[N:.*]]: f32, %[[Y:.*]]: f32)
// CHECK-DAG: %[[N64:.*]] = arith.extf %[[N]] : f32 to f64
// CHECK-DAG: %[[Y64:.*]] = arith.extf %[[Y]] : f32 to f64
// CHECK: %[[Q:.*]] = arith.divf %[[N64]], %{{.*}} : f64
// CHECK: %[[S:.*]] = arith.select %{{.*}}, %{{.*}}, %[[Q]] : f64
// CHECK: %[[R:.*]] = arith.truncf %[[S]] : f64 to f32
// CHECK-NOT: math.exp
// CHECK: return %[[R]]
func.func @logistic(%n: f32, %y: f32) -> f32 {
  %one = arith.constant 1.0 : f32
  %e = math.exp %y : f32
  %d = arith.addf %e, %one : f32
  %q = arith.divf %n, %d : f32
  return %q : f32
}

// Not rewritten: f64 functions (libm is correctly rounded enough there),
// functions without an f64 kernel (sin), and a sum with something other
// than 1.
// CHECK-LABEL: func.func @untouched(
// CHECK: math.exp %{{.*}} : f64
// CHECK: math.sin %{{.*}} : f32
// CHECK: arith.addf %{{.*}} : f32
// CHECK: arith.divf %{{.*}} : f32
func.func @untouched(%d: f64, %x: f32) -> (f64, f32, f32) {
  %0 = math.exp %d : f64
  %1 = math.sin %x : f32
  %two = arith.constant 2.0 : f32
  %e = math.exp %x : f32
  %s = arith.addf %e, %two : f32
  %q = arith.divf %x, %s : f32
  return %0, %1, %q : f64, f32, f32
}
