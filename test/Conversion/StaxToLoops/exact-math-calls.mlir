// RUN: stax-opt --stax-exact-math-calls %s | FileCheck %s

// math.expm1 becomes libm's expm1 (f64) or expm1f (f32); a vector is one
// call per lane. Other math ops are left to --convert-math-to-llvm.
// The callees are declared once, at the top of the module.
// CHECK-DAG: func.func private @expm1(f64) -> f64
// CHECK-DAG: func.func private @expm1f(f32) -> f32
// CHECK-LABEL: func.func @scalar(
// CHECK: %[[D:.*]] = call @expm1(%{{.*}}) : (f64) -> f64
// CHECK: %[[F:.*]] = call @expm1f(%{{.*}}) : (f32) -> f32
// CHECK: math.exp %{{.*}} : f64
// CHECK: math.log1p %{{.*}} : f64
func.func @scalar(%x: f64, %y: f32) -> (f64, f32, f64, f64) {
  %0 = math.expm1 %x : f64
  %1 = math.expm1 %y : f32
  %2 = math.exp %x : f64
  %3 = math.log1p %x : f64
  return %0, %1, %2, %3 : f64, f32, f64, f64
}

// CHECK-LABEL: func.func @vector(
// CHECK-COUNT-4: call @expm1(%{{.*}}) : (f64) -> f64
// CHECK-NOT: math.expm1
// CHECK: return
func.func @vector(%x: vector<4xf64>) -> vector<4xf64> {
  %0 = math.expm1 %x : vector<4xf64>
  return %0 : vector<4xf64>
}
